"""The finance vocabulary has one home, storage/finance/: a module elsewhere (storage/, ui/, agent/) that
spells out its own year, month, quarter or scale-word pattern is a second reader of periods, free to disagree
with the first (issue 27: years were re-implemented in 13 modules, months in 7, quarters in 5). Two scans: the
spellings of YEAR, MONTH, quarters and scale words in any text of a module, and (by ast) any regular expression
that names months, durations ("three months", "13 weeks", "first half", "full year") or scale captions."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
# the year and month spellings storage/finance/periods.py owns (YEAR, MONTH, DATE)
PRIVATE_SPELLINGS = [re.escape(r"(?:19|20)\d\d"), r"jan\(\?:uary\)\?", r"january\s*\|?\s*february", r"jan\|feb"]
HOMES = ["storage/documents", "storage/retrieval", "storage/history", "storage/jobs", "ui", "app_pages", "agent"]
# the quarter and scale spellings storage/finance owns (periods.QUARTER_*, scale.SCALE_WORDS and kin), for every
# home: storage/documents and storage/retrieval take theirs from it too (issue 30)
QUARTER_AND_SCALE_SPELLINGS = [r"first\|second\|third\|fourth", r"q\(?\[1-4\]",
                               r"(?:thousand|million|billion)s?\??\|(?:thousand|million|billion)"]
QUARTER_AND_SCALE_HOMES = HOMES


def _offenders(paths, spellings=PRIVATE_SPELLINGS) -> list[str]:
    found = []
    for path in paths:
        text = path.read_text()
        for spelling in spellings:
            for m in re.finditer(spelling, text, re.IGNORECASE):
                found.append(f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}")
    return found


@pytest.mark.parametrize("home", HOMES)
def test_no_module_outside_storage_finance_spells_years_or_months(home):
    assert _offenders(sorted((ROOT / home).rglob("*.py"))) == []


def test_the_scan_sees_a_planted_year_and_month_pattern(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    (tmp_path / "a.py").write_text('Y = r"(?:19|20)\\d\\d"\nM = r"(?:jan(?:uary)?|feb)"\nD = r"(jan|feb|mar)[a-z]*"\nok = YEAR\n')
    assert _offenders([tmp_path / "a.py"]) == ["a.py:1", "a.py:2", "a.py:3"]


@pytest.mark.parametrize("home", QUARTER_AND_SCALE_HOMES)
def test_no_module_outside_storage_finance_spells_quarters_or_scale_words(home):
    assert _offenders(sorted((ROOT / home).rglob("*.py")), QUARTER_AND_SCALE_SPELLINGS) == []


def test_the_scan_sees_a_planted_quarter_and_scale_pattern(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    (tmp_path / "a.py").write_text('Q = r"(first|second|third|fourth) quarter|q([1-4])"\nS = r"(?:millions|thousands)"\n'
                                   'W = r"\\s(?:million|billion)s?"\nok = QUARTER_NAME\n')
    assert _offenders([tmp_path / "a.py"], QUARTER_AND_SCALE_SPELLINGS) == ["a.py:1", "a.py:1", "a.py:2", "a.py:3"]


# ---- inside storage/finance, periods.py alone spells years, months and quarters: reconciliation.py's period words
# ("fiscal 2023 adjusted EPS", "Q3 adjusted EBIT") are built from YEAR, QUARTER_NUMBER and QUARTER_ORDINAL
PERIOD_SPELLINGS = PRIVATE_SPELLINGS + QUARTER_AND_SCALE_SPELLINGS[:2]


def test_inside_storage_finance_only_periods_spells_years_months_and_quarters():
    others = sorted(p for p in (ROOT / "storage/finance").glob("*.py") if p.name != "periods.py")
    assert _offenders(others, PERIOD_SPELLINGS) == []


# ---- durations, month names and scale captions in any regular expression (read by ast, issue 27): the pattern of
# every `re.<function>(pattern, ...)` call, its string parts and the module-level strings it is built from
# (`_UP = r"..."` then `re.compile(rf"...{_UP}...")`); patterns composed of names imported from storage/finance pass
SCANNED = ("agent", "storage", "ui", "app_pages")
HOME = "storage/finance/"
# "path: kind" of a pattern that may stay outside storage/finance (with the reason); nothing today
ALLOWED: frozenset[str] = frozenset()

_MONTH = r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
VOCABULARY = {
    "month names": re.compile(rf"(?i)\b(?:{_MONTH})\b"),
    "duration words": re.compile(r"(?i)\bmonths?\b|\bweeks?\b|first\W{0,6}half|half\W{0,6}year|full\W{0,6}year"
                                 r"|year\W{0,6}to\W{0,6}date|\bytd\b"),
    "scale captions": re.compile(r"(?i)\b(?:millions?|thousands?|billions?)\b"),
}
_ESCAPE = re.compile(r"\\[A-Za-z]")  # a pattern's escapes ("\\b", "\\s", "\\d") stand between its words
_RE_FUNCTIONS = {"compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split"}


def _module_strings(tree: ast.Module) -> dict[str, str]:
    """Module-level names bound to string constants (or concatenations of them), name -> text."""
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            parts = [n.value for n in ast.walk(node.value) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
            if parts and not isinstance(node.value, (ast.Call, ast.List, ast.Tuple, ast.Dict, ast.Set)):
                out.update({t.id: " ".join(parts) for t in targets if isinstance(t, ast.Name)})
    return out


def vocabulary_patterns(source: str) -> list[tuple[int, str]]:
    """(line, kind) of each regular expression in `source` that spells finance vocabulary itself."""
    tree = ast.parse(source)
    strings = _module_strings(tree)
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                and node.func.attr in _RE_FUNCTIONS):
            continue
        parts = [n.value for n in ast.walk(node.args[0]) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        parts += [strings[n.id] for n in ast.walk(node.args[0]) if isinstance(n, ast.Name) and n.id in strings]
        text = _ESCAPE.sub(" ", " ".join(parts))  # "\\bmonths\\b", "\\s+": the words alone
        found.extend((node.lineno, kind) for kind, rx in VOCABULARY.items() if rx.search(text))
    return sorted(found)


def test_only_storage_finance_spells_months_durations_and_scale_captions():
    wrong = []
    for package in SCANNED:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(HOME):
                continue
            wrong.extend(f"{rel}:{line}: {kind}" for line, kind in vocabulary_patterns(path.read_text("utf-8"))
                         if f"{rel}: {kind}" not in ALLOWED)
    assert not wrong, ("patterns of the finance vocabulary outside storage/finance (move them there and import "
                       "them):\n" + "\n".join(wrong))


def test_the_check_sees_planted_patterns_and_passes_imported_ones():
    planted = (
        "import re\n"
        "from storage.finance.periods import MONTH, YEAR\n"
        "_SPAN = r'(three|six) months'\n"
        "A = re.compile(rf'\\b{_SPAN}\\b', re.I)\n"                 # a duration, through a module-level string
        "B = re.search(r'(?i)\\bDecember\\s+31\\b', 'x')\n"         # a month name
        "C = re.compile(r'\\(in (?:millions|thousands)\\)')\n"     # a scale caption
        "D = re.compile(rf'{MONTH}\\s+\\d{{1,2}},?\\s+{YEAR}')\n"  # built from storage/finance: passes
        "E = re.compile(r'\\bfirst half\\b|\\bytd\\b')\n"
    )
    assert vocabulary_patterns(planted) == [(4, "duration words"), (5, "month names"), (6, "scale captions"),
                                            (8, "duration words")]
