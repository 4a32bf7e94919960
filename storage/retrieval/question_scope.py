"""What a question names about time and documents: fiscal periods, dates and forms.

One parser for everything that reads a period out of a question: the selection prior (which
documents a question is about, storage/retrieval/selection_prior.py) and the figure answers (which table
column to state, agent/no_model/figures.py) must agree on what "FY2015 - FY2017", "Q2 of FY2024",
"second fiscal quarter 2023" or "FY23" mean. Issuers are not parsed here: they are matched
against the selected documents' own issuers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date

from storage.finance.forms import asked_forms, document_years
from storage.finance.periods import ASKED_YEAR, ASKED_YEAR_RANGE, DATE, QUARTER_ASKED, QUARTER_ASKED_ORDINALS, YEAR_TO_DATE_SPAN, parse_date

_QUARTER_RE = QUARTER_ASKED
_ORDINAL = QUARTER_ASKED_ORDINALS


@dataclass
class QuestionScope:
    """What a question names: periods, dates and forms, plus its words (issuers are matched on them)."""

    periods: list[tuple[int | None, int | None]] = field(default_factory=list)  # (year, quarter)
    dates: list[date] = field(default_factory=list)
    forms: set[str] = field(default_factory=set)
    question_words: list[str] = field(default_factory=list)
    document_years: list[int] = field(default_factory=list)  # years naming the document ("its FY2019 10-K")

    @property
    def empty(self) -> bool:
        return not (self.periods or self.dates or self.forms)


def _year(raw: str) -> int:
    return int(raw) if len(raw) == 4 else 2000 + int(raw)


# an expectation for a year ("expect in FY2023", "forecasting for 2023", "plans to repurchase in fiscal 2024"): the
# filing printing it is the one of the year before (its outlook); the year must follow the expectation word
_EXPECTS = re.compile(r"\b(?:expect\w*|anticipat\w*|forecast\w*|project(?:s|ed|ing)|outlook|guidance|plan(?:s|ned)?\s+to)"
                      r"\b[^.?;]{0,80}?\b(?:in|for|during|by|through)\s+(?:the\s+)?$", re.IGNORECASE)


def _expected(text: str, start: int) -> bool:
    """The year mention starting at `start` is what an expectation word before it is for."""
    return bool(_EXPECTS.search(text[max(0, start - 120):start]))


def year_to_date_quarter(text: str) -> int | None:
    """The fiscal quarter a year-to-date span in `text` ends with (six months / first half -> 2; nine months /
    first three quarters -> 3), or None: "first nine months of 2022" is what a third-quarter 10-Q reports (and
    its successor prints as comparatives), not the year's annual report."""
    m = YEAR_TO_DATE_SPAN.search(text or "")
    if not m:
        return None
    return 3 if (m.group(1) or "").lower() == "nine" or m.group(3) else 2


def question_scope(question: str, year_to_date: bool = False, outlook: bool = False) -> QuestionScope:
    """Periods (year, quarter), dates and forms named in a question, in the order named. `year_to_date`: a year
    named without a quarter, in a question asking for a year-to-date span, is that span's quarter of the year.
    `outlook`: a year an expectation is for ("expect in FY2023"), no quarter or date named, reads as the year
    before (the filing printing the outlook)."""
    text = question or ""
    c = QuestionScope()
    c.question_words = re.findall(r"[a-z0-9&]+", re.sub(r"['’]s\b", "", text.lower()))
    c.forms |= asked_forms(text)
    c.document_years = document_years(text)
    for m in DATE.finditer(text):
        d = parse_date(m.group(0))
        if d:
            c.dates.append(d)
    years: list[tuple[int, int, int]] = []  # (start, end, year) of each year mention
    for m in ASKED_YEAR_RANGE.finditer(text):
        a, b = _year(m.group(1) or m.group(2)), _year(m.group(3) or m.group(4))
        if 0 < b - a <= 5:
            years.extend((m.start(), m.end(), y) for y in range(a, b + 1))
    covered = [(s, e) for s, e, _ in years]
    for m in ASKED_YEAR.finditer(text):
        if not any(s <= m.start() < e for s, e in covered):
            years.append((m.start(), m.end(), _year(m.group(1) or m.group(2))))
    if outlook and not c.dates and not _QUARTER_RE.search(text):
        years = [(s, e, y - 1 if _expected(text, s) else y) for s, e, y in years]
    quarters = [
        (m.start(), m.end(), int(m.group(1) or m.group(2) or _ORDINAL[(m.group(3) or "").lower()]))
        for m in _QUARTER_RE.finditer(text)
    ]
    used_quarters: set[int] = set()
    for start, end, year in sorted(years):
        q = None
        for i, (qs, qe, quarter) in enumerate(quarters):
            # "Q2 of FY2024", "second quarter of fiscal 2024", "FY2024 Q2", "2Q 2023"
            if i not in used_quarters and (0 <= start - qe <= 15 or 0 <= qs - end <= 3):
                q = quarter
                used_quarters.add(i)
                break
        if (year, q) not in c.periods:
            c.periods.append((year, q))
    for i, (_, _, quarter) in enumerate(quarters):
        if i not in used_quarters and (None, quarter) not in c.periods:
            c.periods.append((None, quarter))
    ytd = year_to_date_quarter(text) if year_to_date and not quarters else None
    if ytd:
        c.periods = list(dict.fromkeys((y, ytd if q is None and y is not None else q) for y, q in c.periods))
    return c


def without_periods(text: str) -> str:
    """`text` without the years and quarters it names ("What was capex in Q2 FY2024?" -> "What was capex in ?")."""
    return " ".join(_QUARTER_RE.sub(" ", ASKED_YEAR.sub(" ", text or "")).split())


def document_scope(c: QuestionScope) -> QuestionScope:
    """`c` with only the periods of the document it names ("repay in 2020 according to its FY2019 10-K" -> FY2019):
    the other years are what is asked of that document (its outlook, its comparatives)."""
    if not c.document_years:
        return c
    periods = [(y, q) for y, q in c.periods if y in c.document_years] or [(y, None) for y in c.document_years]
    return replace(c, periods=periods)
