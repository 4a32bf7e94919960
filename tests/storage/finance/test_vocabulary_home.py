"""The finance vocabulary has one home, storage/finance/: a module elsewhere (storage/, ui/, agent/) that
spells out its own year, month, quarter or scale-word pattern is a second reader of periods, free to disagree
with the first (issue 27: years were re-implemented in 13 modules, months in 7, quarters in 5)."""

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
