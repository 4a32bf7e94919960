"""Statements gold benchmark (issue 19): no-model answers scored against figures read off the pages.

    python -m bench.figures_gold --work /tmp/gold-work [--pdfs ../shared/bench/statements ../shared/bench/statements-more]
        [--baseline-rev fe96e53 | --baseline-rev none] [--half tune|check|all] [--limit N] [--out f.json]
        [--gold statements|library|releases|releases-more|paraphrase|derived-more|segments|notes|reconciling|balances|phrasings]

`--gold library`: bench/gold/library_figures.jsonl and library_derived.jsonl instead (read for issue 27
off the AMCOR and BOEING 10-Ks of financebench-dev/library, tune half; only those filings are asked).
`--gold releases`: bench/gold/library_releases_*.jsonl (read for issue 27 off tune-issuer earnings releases
and 10-Qs: AMCOR_2023Q4_EARNINGS, AMCOR_2023Q2_10Q of financebench-dev/pdfs, more pages of the PG&E release;
only those filings are asked) and, for the check half, bench/gold/releases_check_figures.jsonl (check issuers'
releases, most from tables whose column heads carry parts: GAAP / non-GAAP, as reported / excluding currency,
a quarter next to the full year's column; `columns` says which layout). Figures only for the check half.
`--gold releases-more`: bench/gold/releases_more_tune_figures.jsonl, more figures of tune-issuer releases,
10-Qs and 8-Ks (reconciliation rows, segment and geography tables, quarter vs six/nine-month columns, %
columns, 10-Q balance sheets and year-to-date cash flows, guidance tables, two prose figures of 8-Ks), read
off the pages before any code was run on them. Figures only (no derived set).
`--gold paraphrase`: bench/gold/paraphrase_tune_figures.jsonl, figures of the tune golds above asked again in
other analysts' words (abbreviations, reordered words, synonyms, segments named otherwise; same value, page
and period; `asked_first` = the original question): how answers generalise over wording without the check
half. Figures only (no derived set); the filings of all four folders.
`--gold segments`: bench/gold/segments_tune_figures.jsonl, a segment's row asked of tune-issuer 10-Ks and a 10-Q
(segment revenue, operating income or margin, assets, capital expenditures, depreciation; geography and product-line
net sales; a quarter and nine months of a 10-Q) in an analyst's words, read off the segment notes and MD&A segment
tables before code ran on them (issues 27, 28). Figures only; the filings of all four folders.
`--gold notes`: bench/gold/notes_tune_figures.jsonl, figures of notes and MD&A tables of tune-issuer 10-Ks no
other gold uses (tax rate reconciliations, debt and lease maturities by year, buybacks, stock compensation,
dividends, MD&A cash-flow summaries, prose figures) in analysts' words, read off the pages before code ran on
them (issue 27); its check half is bench/gold/notes_check_figures.jsonl (check-issuer 10-Ks, same classes, read
before code ran on them). Figures only; the filings of all four folders.
`--gold derived-more`: bench/gold/ratios_tune_derived.jsonl, formulas analysts write (margins, growth, points of
a margin, liquidity and leverage ratios, interest coverage, capex share, free cash flow, payout, tax rate, days
sales outstanding and turnover over average balances, formulas in words, a 10-Q's quarter) over rows read off
tune-issuer pages, and items no figure answers (`answer: null`, `no_figure` says why: a row the filing lacks,
a period it does not cover). Derived only (ask with `--sets derived`).
`--gold reconciling`: bench/gold/reconciling_check_figures.jsonl: GAAP to non-GAAP reconciliation tables of
check-issuer releases and 10-K/10-Q MD&A, one reconciling line asked by the amount it moves (in dollars, per share,
net of tax, points of a rate) and a few adjusted or GAAP totals, in analysts' words, read before code ran on them
(issue 27); its tune twin reconciling_tune_figures.jsonl reads the same kind of pages of tune issuers (Amcor's
release, 10-K and 10-Q, PG&E's release, Boeing's 10-K core-earnings tables), the one rules are fitted on, widened
by reconciling_tune2_figures.jsonl (other tune issuers' pages: Boston Properties' FFO, diluted FFO and NOI
reconciliations, Oracle's supplemental disclosure of certain charges, adjusted tax rates and free cash flow,
FedEx's items affecting operating and net income) so that rules are not fitted to three issuers. Figures only.
`--gold balances`: bench/gold/balances_check_figures.jsonl, check issuers' 10-K roll-forwards (a closing balance,
one movement) and lease tables with operating and finance columns, read off the pages before any answer code ran on
them, to judge row rules written from the notes tune gold on pages nobody tuned on. Check half only.
`--gold phrasings`: bench/gold/phrasings_check_figures.jsonl, check issuers' segment, product-category and MD&A
summary tables asked by a part among siblings, a total printed as "Total X revenue", an item glossed with the
filing's name in parentheses; read before any answer code ran on them. Check half only.

`--why`: each gold figure not led right counted by the stage of the answer path that lost it
(bench/figure_misses.py: page not retrieved, no row of the value, period, column, a named test of
figure_rows.row_fits, ambiguity, another row chosen ...), per half; examples for the tune half only.

`--half`: the gold of the issuers of that half of bench/gold/splits.json (issuer = the file name's prefix
before the first "_", PG_E = PG&E); `all` asks both and reports each half apart. Rules are changed by
reading failures of the tune half only.

Question sets, each asked as a fresh conversation through the real turn (bench/gold_turns.py: no model,
no web search, the filing(s) selected):
- figures  bench/gold/statements_figures.jsonl and statements_more_figures.part-*.jsonl (the statements-more
           filings): one printed figure per question, read by a person off
           the page (value as printed, period as printed, 0-based page), asked in plain words; items
           with `value: null` ask a total that no row prints (`components` are the printed rows).
- derived  bench/gold/statements_derived.jsonl and statements_more_derived.part-*.jsonl: a formula over 2-4
           printed rows; `answer` at `precision`.
- out of scope  generated here from each selection's document info (issuer, form, fiscal year and
           quarter): a period two or three years after the selection (a release: its quarter a year
           later), another statements issuer, or a form not selected. The gold questions above are the in-scope side of the mix.
- conversation  greetings, thanks and questions about the app, with one and with two filings selected.

Scores (the lead figure line = the first answer line holding a `[^n]` marker and a number that is not a
year, a date or a form name; none when a line before it says "no figure is stated": the answer says no
row prints the figure and quotes passages as context. `strict_*` read those quotes as the lead too):
- figure_correct  the lead line states the gold value (bench.answers.contains_figure) and a year of
                  the gold period or of the question; `wrong_figure` = the lead line states another
                  figure; `missing` = no lead line. Totals not printed: correct when the lead states
                  their sum, or every component is listed and the lead is one of them; wrong otherwise.
- derived_correct the lead line carries the answer within half a unit of its last printed digit.
                  `derived_no_figure`: of the items no figure answers, the share with no lead line.
- no_figure_printed  the answer says "no figure is stated" while a page it cites prints the gold value
                  (as printed, read from the PDF's text layer).
- scale_right     of leads stating a gold value whose unit has a scale ("USD millions"), the share whose
                  lead says that scale word ("million") and no other.
- out_of_scope_refused  the answer's first line matches REFUSAL (the contract with the answer path);
  in_scope_refused the same over the gold questions.
- conversation_no_search  route "conversation" and no retriever built.

`--baseline-rev REV` answers the same questions with the code of REV (a temporary `git worktree`, run
as a subprocess with PYTHONPATH set to it, the same interpreter, a copy of the work folder), so the
table compares this tree with REV in one command.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

from bench.answers import contains_figure, printed_forms
from bench.revision import checkout
from bench.splits import HALVES, half_of

ROOT = Path(__file__).resolve().parent.parent
GOLD = Path(__file__).resolve().parent / "gold"
DEFAULT_BASELINE = "fe96e53"
SETS = ("figures", "derived", "out_of_scope", "conversation")
REFUSAL = re.compile(r"(?i)\bnot (?:among them|in the selected)")
NO_FIGURE = re.compile(r"(?i)\bno figure is stated\b")  # the contract with agent/no_model/figures.py NO_FIGURE
# Any `[^…]`, as a reader sees one: the scorer's own reading, deliberately looser than the answer's
# grammar (agent/markers.py MARKER_RE, which also reads `[2.1]` and `[chunk_id: 4]`), and
# kept so the figures stay comparable with earlier runs.
MARKER = re.compile(r"\[\^[^\]]+\]")
_MONTHS = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
_NOT_FIGURES = re.compile(
    rf"\b{_MONTHS}\s+\d{{1,2}},?\s+(?:19|20)\d\d\b"  # dates
    r"|\b(?:FY|Q[1-4]|H[12])\s*'?\d{2,4}\b"  # period labels
    r"|\b\d{1,2}-[KQ]\b",  # form names
    re.IGNORECASE,
)
_YEAR = re.compile(r"^(?:19|20)\d\d$")
PAIRS = [("EBAY_2022_10K", "EBAY_2023Q2_EARNINGS"), ("MCDONALDS_2022_10K", "MCDONALDS_2022Q4_EARNINGS"),
         ("SALESFORCE_2023_10K", "SALESFORCE_2024Q2_EARNINGS")]
CONVERSATION = [
    "hi there!", "Hello", "hey", "good morning", "hello, how are you?", "thanks a lot", "thank you!",
    "thanks, that's helpful", "great, thanks", "bye", "ok", "what can you do?", "how do I upload a PDF?",
    "how does this app work?", "who are you?", "what is this tool for?", "can you help me?",
    "how do citations work here?", "how do I select documents?", "what kind of questions can I ask?",
    "good night", "cool, thanks!",
]


# ---------------------------------------------------------------- reading answers


def _value(token: str) -> float | None:
    t = token.strip()
    negative = t.startswith("(") and t.endswith(")") or t.startswith("-")
    try:
        number = float(t.strip("()$%-").replace(",", "").replace("$", ""))
    except ValueError:
        return None
    return -number if negative else number


def figures_in(line: str) -> list[str]:
    """Number tokens of `line` as printed, without citation markers, years, dates, period labels
    ("Q2", "FY2024") and form names ("10-K")."""
    text = _NOT_FIGURES.sub(" ", MARKER.sub(" ", line))
    return [t for t in printed_forms(text) if not _YEAR.match(t.strip("()$,.")) and _value(t) is not None]


def lead_line(answer: str, honour_no_figure: bool = True) -> str | None:
    """The first line holding a citation marker and a figure: what the reader takes as the answer.
    None when a line before it says the answer states no figure (NO_FIGURE: "no table row ... prints
    X, so no figure is stated; passages that mention it, quoted as context"): the quotes after it
    are context, not the answer (`honour_no_figure=False` reads them as the answer, the stricter
    reading reported beside it)."""
    for line in answer.splitlines():
        if honour_no_figure and NO_FIGURE.search(line):
            return None
        if MARKER.search(line) and figures_in(line):
            return line
    return None


def years_of(*texts: str) -> set[str]:
    return {y for t in texts for y in re.findall(r"(?<!\d)(?:19|20)\d\d(?!\d)", t)}


def score_figure(item: dict, answer: str, honour_no_figure: bool = True) -> str:
    """"correct" | "value_no_period" | "wrong" | "missing" for one gold figure question."""
    lead = lead_line(answer, honour_no_figure)
    if lead is None:
        return "missing"
    if item["value"] is None:
        return _score_total(item, answer, lead)
    if not contains_figure(lead, item["value"]) and not _finer(lead, item):
        return "wrong"
    years = years_of(item["period"], item["question"])
    return "correct" if not years or any(y in lead for y in years) else "value_no_period"


_SCALED = re.compile(r"(\d[\d,]*(?:\.\d+)?)\)?\s*(thousand|million|billion)\b", re.I)
_FACTOR = {"thousand": 1e3, "million": 1e6, "billion": 1e9}


def _finer(lead: str, item: dict) -> bool:
    """The lead states the gold figure more finely, with its scale word: "$(4,630) million" (the cash flow
    statement's row) for a gold "$4.6 billion" (the prose's), equal when rounded to the gold's printed digits."""
    word, gold = gold_scale(item.get("unit")), item["value"].strip("$()%").replace(",", "")
    if not word:
        return False
    places = len(gold.partition(".")[2])
    for number, scale in _SCALED.findall(MARKER.sub(" ", lead)):
        x = float(number.replace(",", "")) * _FACTOR[scale.lower()] / _FACTOR[word]
        if x != float(gold) and round(x, places) == float(gold):
            return True
    return False


def _score_total(item: dict, answer: str, lead: str) -> str:
    """A total no row prints: its sum in the lead, or every component listed on cited lines and the
    lead being one of them (a list of the printed rows); one component alone as the answer is wrong."""
    parts = [c["value"] for c in item["components"]]
    total = sum(_value(p) for p in parts)
    decimals = max(len(p.strip("()").partition(".")[2]) for p in parts)
    if contains_figure(lead, f"{total:,.{decimals}f}"):
        return "correct"
    cited = [line for line in answer.splitlines() if MARKER.search(line)]
    listed = all(any(contains_figure(line, p) for line in cited) for p in parts)
    return "correct" if listed and any(contains_figure(lead, p) for p in parts) else "wrong"


def score_derived(item: dict, answer: str, honour_no_figure: bool = True) -> str:
    """"correct" when the lead carries the answer within half a unit of its last printed digit; for an
    item no figure answers (`answer` null), "correct" when there is no lead line, "wrong" when there is."""
    lead = lead_line(answer, honour_no_figure)
    if item["answer"] is None:
        return "correct" if lead is None else "wrong"
    if lead is None:
        return "missing"
    tolerance = 0.5 * 10 ** -item["precision"] + 1e-9
    values = [_value(t) for t in figures_in(lead)]
    ok = any(v is not None and abs(abs(v) - abs(item["answer"])) <= tolerance for v in values)
    return "correct" if ok else "wrong"


_SCALES = ("thousand", "million", "billion")


def gold_scale(unit: str | None) -> str:
    """"million" for a gold unit "USD millions", "" for one without a scale ("USD per share", "%")."""
    m = re.search(r"(?i)\b(thousand|million|billion)s?\b", unit or "")
    return m.group(1).lower() if m else ""


def scale_right(item: dict, answer: str) -> bool | None:
    """The lead stating the gold value says the gold unit's scale word right after it ("$394,328
    million"; "394,328 — $394,328 million" too); None when the gold has no scale or the lead does not
    state its value."""
    word, lead = gold_scale(item.get("unit")), lead_line(answer)
    if not word or lead is None or item.get("value") is None or not contains_figure(lead, item["value"]):
        return None
    core = item["value"].strip("$()%").lstrip("$")
    # the word right after the stated value ("$394,328 million"), not one of the label's remarks
    said = re.findall(rf"(?i)(?<![\d,.]){re.escape(core)}\)?(?:\s*[—-]\s*[^\d\n]*?{re.escape(core)}\)?)?\s+"
                      rf"({'|'.join(_SCALES)})s?\b", lead)
    return bool(said) and all(w.lower() == word for w in said)


PDF_DIRS: list[Path] = []  # where cited files are read from (set by main)


@lru_cache(maxsize=512)
def page_text(file: str, page: int) -> str:
    """The text layer of a 1-based page of a bench PDF, "" when the file is not in PDF_DIRS."""
    import pymupdf

    path = next((d / file for d in PDF_DIRS if (d / file).exists()), None)
    if path is None:
        return ""
    with pymupdf.open(path) as doc:
        return doc[page - 1].get_text() if 0 < page <= doc.page_count else ""


def no_figure_while_printed(item: dict, answer: dict) -> bool:
    """The answer says no figure is stated while a page it cites prints the gold value."""
    text = answer.get("message") or ""
    if item.get("value") is None or lead_line(text) is not None or not NO_FIGURE.search(text):
        return False
    return any(contains_figure(page_text(f, p), item["value"]) for f, p in answer.get("cited") or [])


def refused(answer: str) -> bool:
    """The answer's first line says the selection does not cover what was asked."""
    first = next((line for line in answer.splitlines() if line.strip()), "")
    return REFUSAL.search(first) is not None


# ---------------------------------------------------------------- question sets


def load_gold(name: str) -> list[dict]:
    return [json.loads(line) for line in (GOLD / name).read_text("utf-8").splitlines() if line.strip()]


def spoken(issuer: str) -> str:
    """An issuer as a question names it: short name, no leading all-caps banner ("NEWS RELEASE eBay"
    -> "eBay"), first of several registrants ("Boston Properties, Inc. Boston Properties Limited
    Partnership" -> "Boston Properties")."""
    from storage.documents.metadata import short_name

    name = re.split(r",|\bInc\b\.?", short_name(issuer))[0].strip() or short_name(issuer)
    rest = re.sub(r"^(?:[A-Z&]{2,}\s+)+(?=\S*[a-z])", "", name)
    return rest or name


def possessive(name: str | None) -> str:
    """"Apple" -> "Apple's", "Boston Properties" -> "Boston Properties'", "McDONALD’S" unchanged;
    no name -> "the company's"."""
    if not name:
        return "the company's"
    if re.search(r"['’]s$", name, re.IGNORECASE):
        return name
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _spread(items: list, limit: int | None) -> list:
    """`limit` items spread over the list (every filing gets some), or all."""
    if not limit or limit >= len(items):
        return items
    return items[:: len(items) // limit][:limit]


def selections(stems: list[str]) -> list[list[str]]:
    """Each filing alone, and each issuer's 10-K with its earnings release."""
    return [[s] for s in stems] + [list(p) for p in PAIRS if set(p) <= set(stems)]


def out_of_scope_questions(infos: dict[str, object]) -> list[dict]:
    """Questions naming what a selection's document info says it does not cover (stem -> DocumentInfo)."""
    from storage.documents.metadata import name_words

    issuers = sorted({spoken(i.issuer) for i in infos.values() if i.issuer and i.form == "10-K"})
    out: list[dict] = []
    for k, sel in enumerate(selections(sorted(infos))):
        got = [infos[s] for s in sel]
        own = next((spoken(i.issuer) for i in got if i.issuer), None)
        whose = possessive(own)
        words = {w for i in got if i.issuer for w in name_words(i.issuer)}
        years = sorted({i.fiscal_year for i in got if i.fiscal_year})
        forms = {i.form for i in got}
        asks = []
        if years:
            asks.append(("period", f"What was {whose} total revenue in fiscal {years[-1] + 2}?"))
            asks.append(("period", f"How much net income did {own or 'the company'} report for fiscal year {years[-1] + 3}?"))
        quarters = sorted({(i.fiscal_year, i.fiscal_quarter) for i in got if i.fiscal_year and i.fiscal_quarter})
        if quarters:  # the same quarter a year later: no release prints it (guidance is not a result)
            year, quarter = quarters[-1]
            asks.append(("period", f"What was {whose} operating cash flow in Q{quarter} FY{year + 1}?"))
        others = [n for n in issuers if not set(re.findall(r"[a-z0-9&]+", n.lower())) & words]
        if others:
            year = f" in fiscal {years[-1]}" if years else ""
            asks.append(("issuer", f"What was {possessive(others[k % len(others)])} operating income{year}?"))
        if years and forms <= {"10-K", "annual report"}:
            asks.append(("form", f"What did {whose} 10-Q for the second quarter of fiscal {years[-1]} report as net income?"))
        elif years and "10-K" not in forms:
            asks.append(("form", f"What total assets did {whose} 10-K for fiscal {years[-1] + 1} report?"))
        for kind, text in asks:
            out.append({"id": f"oos-{len(out)}", "set": "out_of_scope", "kind": kind, "question": text, "doc_names": sel})
    return out


GOLDS = ("statements", "library", "releases", "releases-more", "paraphrase", "derived-more", "segments", "notes",
         "reconciling", "balances", "phrasings", "measures", "changes")


def gold_files(kind: str, gold: str = "statements") -> list[str]:
    """The gold files of a set ("figures", "derived"): the statements' and the statements-more parts, or
    (gold "library") those of the FinanceBench library filings read for issue 27, (gold "releases") those of
    the tune issuers' releases and 10-Qs."""
    if gold == "library":
        return [f"library_{kind}.jsonl"]
    if gold == "releases":  # the tune issuers' releases and 10-Qs; the check issuers' releases (figures only)
        return [f"library_releases_{kind}.jsonl"] + (["releases_check_figures.jsonl"] if kind == "figures" else [])
    if gold == "releases-more":
        return [f"releases_more_tune_{kind}.jsonl"] if (GOLD / f"releases_more_tune_{kind}.jsonl").exists() else []
    if gold == "paraphrase":
        return [f"paraphrase_tune_{kind}.jsonl"] if (GOLD / f"paraphrase_tune_{kind}.jsonl").exists() else []
    if gold == "derived-more":
        return ["ratios_tune_derived.jsonl"] if kind == "derived" else []
    if gold == "changes":  # a change asked as an amount, tune and check issuers
        return ["changes_tune_derived.jsonl", "changes_check_derived.jsonl"] if kind == "derived" else []
    if gold == "reconciling":  # two tune files (tune issuers' reconciliation pages) and the check half
        names = ["reconciling_tune_figures.jsonl", "reconciling_tune2_figures.jsonl", "reconciling_check_figures.jsonl"]
        return names if kind == "figures" else []
    if gold in ("segments", "notes", "balances", "phrasings", "measures"):  # a tune file and, where one was read, its check half
        names = (f"{gold}_tune_figures.jsonl", f"{gold}_check_figures.jsonl")
        return [n for n in names if (GOLD / n).exists()] if kind == "figures" else []
    return [f"statements_{kind}.jsonl", *sorted(p.name for p in GOLD.glob(f"statements_more_{kind}.part-*.jsonl"))]


def gold_stems(gold: str) -> set[str]:
    """The filings a gold names."""
    return {Path(g["file"]).stem for kind in ("figures", "derived") for f in gold_files(kind, gold) for g in load_gold(f)}


def build_questions(stems: list[str], limit: int | None, infos: dict | None, half: str = "all",
                    gold: str = "statements") -> list[dict]:
    stems = [s for s in stems if half == "all" or half_of(s) == half]
    available = set(stems)
    figures = _spread([g for f in gold_files("figures", gold) for g in load_gold(f) if Path(g["file"]).stem in available], limit)
    derived = _spread([g for f in gold_files("derived", gold) for g in load_gold(f) if Path(g["file"]).stem in available], limit)
    infos = {s: i for s, i in (infos or {}).items() if s in available}
    qs = [{**g, "id": f"fig-{i}", "set": "figures", "doc_names": [Path(g["file"]).stem]} for i, g in enumerate(figures)]
    qs += [{**g, "id": f"der-{i}", "set": "derived", "doc_names": [Path(g["file"]).stem]} for i, g in enumerate(derived)]
    qs += _spread(out_of_scope_questions(infos), limit) if infos else []
    chats = [{"id": f"conv-{i}-{n}", "set": "conversation", "question": text, "doc_names": sel}
             for i, text in enumerate(CONVERSATION)
             for n, sel in ((1, ["APPLE_2022_10K"]), (2, ["EBAY_2022_10K", "EBAY_2023Q2_EARNINGS"]))
             if set(sel) <= set(stems)]
    return qs + _spread(chats, 2 * limit if limit else None)


# ---------------------------------------------------------------- scoring


def score(questions: list[dict], answers: list[dict]) -> dict:
    """Shares per measure, overall and per filing (the filing of a gold question; the first filing of
    an out-of-scope selection)."""
    by_id = {a["id"]: a for a in answers}
    answers = [by_id[q["id"]] for q in questions if q["id"] in by_id]
    counts: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for q in questions:
        a = by_id.get(q["id"], {})
        text = a.get("message") or ""
        file = q["doc_names"][0]
        if q["set"] == "figures":
            kind = "totals_not_printed" if q["value"] is None else "figures"
            verdict = score_figure(q, text)
            for key in (kind, f"{kind}@{file}"):
                counts[key]["verdict"].append(verdict)
                counts[key]["strict"].append(score_figure(q, text, honour_no_figure=False))
                counts[key]["no_figure_printed"].append(no_figure_while_printed(q, a))
            if (right := scale_right(q, text)) is not None:
                counts["scale"]["right"].append(right)
        elif q["set"] == "derived":
            kind = "derived_no_figure" if q["answer"] is None else "derived"
            for key in (kind, f"{kind}@{file}"):
                counts[key]["verdict"].append(score_derived(q, text))
                counts[key]["strict"].append(score_derived(q, text, honour_no_figure=False))
        elif q["set"] == "out_of_scope":
            for key in ("out_of_scope", f"out_of_scope@{file}", f"out_of_scope:{q['kind']}"):
                counts[key]["refused"].append(refused(text))
        else:
            counts["conversation"]["ok"].append(a.get("route") == "conversation" and a.get("retrievers") == 0)
        if q["set"] in ("figures", "derived"):
            counts["in_scope"]["refused"].append(refused(text))
    share = lambda xs, v=True: round(sum(x == v for x in xs) / len(xs), 3) if xs else None  # noqa: E731
    out = {}
    for key, c in counts.items():
        row = {"n": len(next(iter(c.values())))}
        if "verdict" in c:
            row.update({v: share(c["verdict"], v) for v in ("correct", "wrong", "missing", "value_no_period")})
            row.update({f"strict_{v}": share(c["strict"], v) for v in ("correct", "wrong")})
        for flag in ("refused", "ok", "no_figure_printed", "right"):
            if flag in c:
                row[flag] = share(c[flag])
        out[key] = row
    out["errors"] = sum(1 for a in answers if a.get("error"))
    out["seconds_per_turn"] = round(sum(a.get("seconds", 0) for a in answers) / max(1, len(answers)), 2)
    return out


# ---------------------------------------------------------------- revisions


def answers_at_revision(rev: str, questions: list[dict], work: Path, pdfs: list[Path]) -> list[dict]:
    """The questions answered by the code of git revision `rev` (temporary worktree, subprocess)."""
    with checkout(rev, "figures-gold-") as (tree, tmp):
        shutil.copytree(work, tmp / "work", symlinks=True)  # the revision may re-ingest in its own format
        (tmp / "q.json").write_text(json.dumps(questions), "utf-8")
        env = {**os.environ, "PYTHONPATH": str(tree)}
        subprocess.run([sys.executable, str(Path(__file__).with_name("gold_turns.py")), "--work", str(tmp / "work"),
                        "--pdfs", *map(str, pdfs), "--questions", str(tmp / "q.json"), "--out", str(tmp / "a.json")],
                       cwd=tree, env=env, check=True)
        return json.loads((tmp / "a.json").read_text("utf-8"))


def _default_pdfs(gold: str = "statements") -> list[Path]:
    folders = {"library": ["financebench-dev/library"],
               "releases": ["financebench-dev/pdfs", "statements", "statements-more"],
               "releases-more": ["financebench-dev/pdfs", "financebench-dev/library", "statements-more"],
               "paraphrase": ["statements", "statements-more", "financebench-dev/library", "financebench-dev/pdfs"],
               "derived-more": ["statements", "statements-more", "financebench-dev/pdfs"],
               "changes": ["statements", "statements-more", "financebench-dev/library"],
               "segments": ["statements", "statements-more", "financebench-dev/library", "financebench-dev/pdfs"],
               "notes": ["statements", "statements-more", "financebench-dev/library"],
               "reconciling": ["statements", "statements-more", "financebench-dev/library", "financebench-dev/pdfs"],
               "balances": ["statements", "statements-more", "financebench-dev/pdfs"],
               "phrasings": ["statements", "statements-more", "financebench-dev/pdfs"],
               "measures": ["statements", "financebench-dev/library", "financebench-dev/pdfs"]}.get(gold, ["statements", "statements-more"])
    shared = next((p / "shared/bench" for p in ROOT.parents if (p / "shared/bench/statements").is_dir()),
                  ROOT.parent / "shared/bench")
    return [shared / f for f in folders]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, required=True, help="ingestion work folder of the statements filings")
    parser.add_argument("--gold", choices=GOLDS, default="statements",
                        help="statements: bench/gold/statements*; library: bench/gold/library_* (the FinanceBench "
                             "library filings of the tune issuers, read for issue 27; only their filings are asked); "
                             "releases: bench/gold/library_releases_* (tune issuers' releases and 10-Qs) and "
                             "releases_check_figures.jsonl (check issuers' releases, part columns); "
                             "releases-more: bench/gold/releases_more_tune_figures.jsonl (more of them, and 8-Ks); "
                             "paraphrase: bench/gold/paraphrase_tune_figures.jsonl (tune figures in other words); "
                             "derived-more: bench/gold/ratios_tune_derived.jsonl (analysts' formulas, tune issuers); "
                             "segments: bench/gold/segments_tune_figures.jsonl (a segment's row, tune issuers); "
                             "notes: bench/gold/notes_tune_figures.jsonl and notes_check_figures.jsonl (notes and "
                             "MD&A tables, tune and check issuers); reconciling: bench/gold/"
                             "reconciling_tune_figures.jsonl, reconciling_tune2_figures.jsonl and reconciling_check_figures.jsonl "
                             "(non-GAAP reconciling lines); "
                             "balances: bench/gold/balances_check_figures.jsonl (roll-forward balances and movements, "
                             "lease tables of operating and finance columns; check issuers, measured only); "
                             "phrasings: bench/gold/phrasings_check_figures.jsonl (parts among siblings, totals, "
                             "glossed items; check issuers, measured only); "
                             "measures: bench/gold/measures_tune_figures.jsonl and measures_check_figures.jsonl (a "
                             "non-GAAP measure or a line of its reconciliation in annual filings' MD&A tables and a "
                             "release's computations: core and adjusted earnings, non-GAAP operating income, EPS and "
                             "tax rate, FFO, free cash flow, adjusted debt to EBITDAR; tune and check issuers); "
                             "changes: bench/gold/changes_tune_derived.jsonl and changes_check_derived.jsonl (a change "
                             "between two periods asked as an amount: 'by how much did X increase', 'the dollar "
                             "change in'; tune and check issuers)")
    parser.add_argument("--pdfs", type=Path, nargs="+",
                        help="folders of the filings (default: statements, statements-more; financebench-dev/library "
                             "for --gold library)")
    parser.add_argument("--half", choices=("tune", "check", "all"), default="all",
                        help="the issuers of one half of bench/gold/splits.json, or both (reported apart)")
    parser.add_argument("--baseline-rev", default=DEFAULT_BASELINE, help="git revision to compare with, or 'none'")
    parser.add_argument("--limit", type=int, help="only the first N questions of each set (development)")
    parser.add_argument("--out", type=Path, help="write scores (and answers) as JSON here too")
    parser.add_argument("--why", action="store_true",
                        help="count the gold figures not led right by the stage that lost them (bench/figure_misses.py); "
                             "examples for the tune half only")
    parser.add_argument("--sets", default=",".join(SETS),
                        help=f"comma-separated question sets to ask (development), of {','.join(SETS)}")
    args = parser.parse_args(argv)
    # a stopped run still removes its baseline worktree (subprocess.run kills the child on the way out)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    pdfs, work = [d.resolve() for d in args.pdfs or _default_pdfs(args.gold) if d.is_dir()], args.work.resolve()
    PDF_DIRS[:] = pdfs
    stems = sorted({p.stem for d in pdfs for p in d.glob("*.pdf")})
    if args.gold != "statements":
        stems = [s for s in stems if s in gold_stems(args.gold)]
    stems = [s for s in stems if args.half == "all" or half_of(s) == args.half]
    if not stems:
        sys.exit(f"error: no PDFs in {pdfs}")
    from bench.answers import ingest, use_work_dir

    use_work_dir(work)
    import logging

    logging.disable(logging.WARNING)
    from bench.gold_turns import pdf_path

    docs = ingest([pdf_path(s, pdfs) for s in stems], work)
    from storage.documents.catalog import document_info, load_manifest

    infos = {s: document_info(load_manifest(docs[s])) for s in stems}
    sets = {s.strip() for s in args.sets.split(",") if s.strip()}
    if unknown := sets - set(SETS):
        sys.exit(f"error: unknown --sets {','.join(sorted(unknown))} (known: {','.join(SETS)})")
    questions = [q for q in build_questions(stems, args.limit, infos, args.half, args.gold) if q["set"] in sets]
    report: dict = {"questions": len(questions), "baseline_rev": None, "gold": args.gold}
    if args.baseline_rev.lower() != "none":
        rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.baseline_rev], check=True,
                             capture_output=True, text=True).stdout.strip()
        print(f"answering {len(questions)} questions with the code of {rev} ...", file=sys.stderr)
        base = answers_at_revision(rev, questions, work, pdfs)
        report.update(baseline_rev=rev, baseline=_halves(questions, base, args.half))
    print(f"answering {len(questions)} questions with this tree ...", file=sys.stderr)
    from bench.gold_turns import answer_all

    from bench.figure_misses import attribute, print_stages, record_turns

    with record_turns() as turns:
        new = answer_all(questions, work, pdfs)
    report["new"] = _halves(questions, new, args.half)
    for half in report["new"]:
        _print(report, [s for s in stems if half == "all" or half_of(s) == half], half)
    if args.why:
        report["why"] = attribute(questions, new, turns, score_figure, half_of)
        print_stages(report["why"], args.gold)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        report["answers"] = {"new": new, **({"baseline": base} if report["baseline_rev"] else {})}
        report["question_set"] = questions
        args.out.write_text(json.dumps(report, indent=1))
    return 0


def _halves(questions: list[dict], answers: list[dict], half: str) -> dict:
    """half -> scores: the one half asked, or "tune", "check" and "all" apart."""
    if half != "all":
        return {half: score(questions, answers)}
    out = {h: score([q for q in questions if half_of(q["doc_names"][0]) == h], answers) for h in HALVES}
    return {**out, "all": score(questions, answers)}


MEASURES = [  # (label, target (check half), score key, field)
    ("(b) lead = gold value and period", ">= .90", "figures", "correct"),
    ("    wrong figure leads", "<= .02", "figures", "wrong"),
    ("    'no figure' while a cited page prints it", "<= .03", "figures", "no_figure_printed"),
    ("    wrong, quotes after 'no figure' read", "", "figures", "strict_wrong"),
    ("    no figure line", "", "figures", "missing"),
    ("    gold value, period not said", "", "figures", "value_no_period"),
    ("total not printed: sum or components", "", "totals_not_printed", "correct"),
    ("    one component (or other) leads", "", "totals_not_printed", "wrong"),
    ("derived at printed precision", ">= .85", "derived", "correct"),
    ("    no figure where none is computable", "", "derived_no_figure", "correct"),
    ("scale word as the gold unit's", "1.0", "scale", "right"),
    ("out of scope said first", ">= .90", "out_of_scope", "refused"),
    ("    period beyond the selection", "", "out_of_scope:period", "refused"),
    ("    another issuer", "", "out_of_scope:issuer", "refused"),
    ("    a form not selected", "", "out_of_scope:form", "refused"),
    ("in scope wrongly refused", "<= .05", "in_scope", "refused"),
    ("conversation without a search", "1.0", "conversation", "ok"),
]


def _cell(block: dict | None, key: str, field: str) -> str:
    v = (block or {}).get(key, {}).get(field)
    return "—" if v is None else f"{v:.3f}"


def _print(report: dict, stems: list[str], half: str) -> None:
    new, rev = report["new"][half], report["baseline_rev"] or "(none)"
    base = (report.get("baseline") or {}).get(half)
    print(f"\n{report.get('gold', 'statements')} gold, {half} half: {report['questions']} turns per path; new = this tree, {rev} = baseline revision")
    print(f"{'measure':46s}{'n':>5s}{'target':>8s}{'new':>8s}{rev:>9s}")
    for label, target, key, field in MEASURES:
        n = new.get(key, {}).get("n", 0)
        print(f"{label:46s}{n:>5d}{target:>8s}{_cell(new, key, field):>8s}{_cell(base, key, field):>9s}")
    print(f"\nper filing (new / {rev}): figures correct, wrong; derived correct; out of scope said")
    for s in stems:
        cells = [f"{_cell(new, f'{k}@{s}', f)}/{_cell(base, f'{k}@{s}', f)}" for k, f in
                 (("figures", "correct"), ("figures", "wrong"), ("derived", "correct"), ("out_of_scope", "refused"))]
        n = new.get(f"figures@{s}", {}).get("n", 0)
        print(f"  {s:28s} n={n:<3d}" + "  ".join(f"{c:>13s}" for c in cells))
    print(f"\nturn errors: new {new['errors']}, {rev} {base['errors'] if base else '—'}; "
          f"s/turn new {new['seconds_per_turn']}, {rev} {base['seconds_per_turn'] if base else '—'}")


if __name__ == "__main__":
    raise SystemExit(main())
