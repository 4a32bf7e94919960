"""Is the asked period, issuer or form in the selected documents at all?

When a question names a fiscal year, a quarter, a company or a form that none of the selected
documents covers (their cover-page metadata, `DocumentInfo`, says what they cover), the answer
says so first ("The selected filings cover FY2020–FY2022 (Apple · 10-K · FY2022); 2024 is not
among them.") and then offers what is closest, instead of quoting a neighbouring year as if it
were the asked one.

What a document covers, from its metadata: an annual report prints its fiscal year and the two
before (income and cash-flow statements carry three years); a quarterly report or a release its
quarter, the quarters before it in its year and the year before; anything else its own year. A document whose period
is unknown covers anything (nothing is refused on a guess). A year before that range still counts
as covered when a retrieved passage prints it (a history, a five-year table); a later year never
does (a forecast of 2024 is not 2024's figure), unless a forecast is asked ("What revenue does it expect for Q3
2023?") and a passage prints the year: the quarters of the year after the selection's latest are a release's outlook.
"""

from __future__ import annotations

import re

from storage.finance.columns import FORECAST_ASK
from storage.finance.periods import DUE_IN_YEAR
from storage.retrieval.question_scope import question_scope
from storage.schema import DocumentInfo

_ANNUAL_FORMS = {"10-K", "annual report", "20-F"}
# a company named as one: "eBay's", "Contoso Inc", "Procter & Gamble's" (a capital first or second: "eBay", "iRobot")
_NAME = re.compile(r"\b((?:[A-Z]|[a-z][A-Z])[\w&.\-]*?(?:\s+(?:&\s+)?[A-Z][\w&.\-]*?){0,2})"
                   r"(?:['’][sS]\b|(?<=s)['’](?=\s)|\s+(?:Inc|Corp|Corporation|Co|Ltd|plc|LLC)\b)")
_NOT_NAMES = {"Q1", "Q2", "Q3", "Q4", "FY", "GAAP", "EPS", "EBITDA", "US", "U.S", "What", "How", "The"}
# a capital word starting the question before the name ("In Amcor's tax rate reconciliation, ...")
_LEADING_WORD = re.compile(r"^(?:In|For|At|Of|On|As|By|From|During|Per|Within|Across|Under|Among|Was|Were|Did|Does|Is)\s+")


def covered_years(info: DocumentInfo) -> set[int] | None:
    """Fiscal years whose figures the document prints; None when its period is unknown."""
    fy = info.fiscal_year
    if fy is None:
        return None
    if info.form in _ANNUAL_FORMS and not info.fiscal_quarter:
        return {fy - 2, fy - 1, fy}
    if info.fiscal_quarter or info.form in ("10-Q", "earnings release"):
        return {fy - 1, fy}
    return {fy}


def _span(infos: list[DocumentInfo]) -> str:
    years = sorted({y for i in infos for y in (covered_years(i) or ())})
    if not years:
        return ""
    return f"FY{years[0]}–FY{years[-1]}" if years[0] != years[-1] else f"FY{years[0]}"


def _titles(infos: list[DocumentInfo]) -> str:
    shown = "; ".join(i.title for i in infos[:3])
    return shown + ("; …" if len(infos) > 3 else "")


def uncovered_years(question: str, infos: list[DocumentInfo], passages: list[str]) -> list[str]:
    """The periods the question names that no selected document covers ("2024", "Q3 FY2023")."""
    if not infos:
        return []
    coverage = [covered_years(i) for i in infos]
    if any(c is None for c in coverage):
        return []
    years = set().union(*coverage)
    # a quarterly document prints its quarter and the quarters before it (releases: trailing quarters)
    latest = {}
    for i in infos:
        if i.fiscal_quarter and i.fiscal_year:
            latest[i.fiscal_year] = max(latest.get(i.fiscal_year, 0), i.fiscal_quarter)
    quarters = {(y, q) for y, last in latest.items() for q in range(1, last + 1)}
    quarters |= {(y - 1, q) for y in latest for q in range(1, 5)}
    annual = {y for i, c in zip(infos, coverage) if i.form in _ANNUAL_FORMS and not i.fiscal_quarter for y in c}
    text = " ".join(passages)
    # a forecast asked ("guidance", "expect") of a period after the selection's: covered when a passage prints its year
    asks_forecast = bool(FORECAST_ASK.search(question))
    out = []
    for year, quarter in question_scope(question).periods:
        if year is None:
            continue
        # (the year as printed in full or as a fiscal year's short name: "2024", "FY24", "FY'24")
        forecast = asks_forecast and bool(re.search(rf"\b{year}\b|\bFY\s?'?{year % 100:02d}\b", text, re.IGNORECASE))
        if year not in years:
            if year < min(years) and re.search(rf"\b{year}\b", text):
                continue  # an earlier year the passages print (a history, a five-year table)
            if year > max(years) and DUE_IN_YEAR.search(question) and re.search(rf"\b{year}\b", text):
                continue  # a due year of the maturities the passages print ("principal due in 2025")
            if year == max(years) + 1 and forecast:
                continue  # next year's outlook the passages print ("What EPS does it expect for 2024?")
            out.append(f"Q{quarter} FY{year}" if quarter else str(year))
        elif quarter and year not in annual and (year, quarter) not in quarters and not forecast:
            out.append(f"Q{quarter} FY{year}")
    return list(dict.fromkeys(out))


def uncovered_issuers(question: str, infos: list[DocumentInfo], passages: list[str]) -> list[str]:
    """Companies the question names ("eBay's", "Contoso Inc") that are neither a selected issuer
    nor printed in any retrieved passage."""
    if any(not i.issuer for i in infos):
        return []  # a selected document of unknown issuer may be the company named
    issuers = " ".join(f"{i.issuer or ''} {i.title}" for i in infos).lower()
    text = " ".join(passages).lower()
    out = []
    for m in _NAME.finditer(question):
        name = _LEADING_WORD.sub("", m.group(1).strip(" ."))
        first = name.split()[0]
        if first in _NOT_NAMES or name.lower() in issuers or first.lower() in issuers or name.lower() in text:
            continue
        out.append(name)
    return list(dict.fromkeys(out))


def uncovered_forms(question: str, infos: list[DocumentInfo]) -> list[str]:
    forms = question_scope(question).forms
    have = {i.form for i in infos}
    if not forms or not infos or forms & have or "other" in have:
        return []
    return sorted(f for f in forms if f not in ("annual report",))[:1] or sorted(forms)[:1]


def scope_note(question: str, infos: list[DocumentInfo], passages: list[str]) -> str | None:
    """The sentence an answer starts with when the question asks for something the selection does
    not cover, or None. Its first line always says "not among them" / "not in the selected ..."."""
    if not infos:
        return None
    issuers = uncovered_issuers(question, infos, passages)
    if issuers:
        return (f"{' and '.join(issuers)} {'is' if len(issuers) == 1 else 'are'} not in the selected documents "
                f"({_titles(infos)}); the closest passages they hold follow.")
    periods = uncovered_years(question, infos, passages)
    if periods:
        return (f"The selected documents cover {_span(infos)} ({_titles(infos)}); {', '.join(periods)} "
                f"{'is' if len(periods) == 1 else 'are'} not among them. The closest passages follow.")
    forms = uncovered_forms(question, infos)
    if forms:
        return (f"A {forms[0]} is not in the selected documents ({_titles(infos)}); "
                "the closest passages they hold follow.")
    return None

