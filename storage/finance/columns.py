"""Column titles that name no period: a change column ("Change", "% Change", "$ Change", "Variance",
"Increase (Decrease)", "Favorable (Unfavorable)", "Growth") and the label column's own title ("Item",
"Line item", "Description"). A header's period phrase ("Years ended December 31,") prefixes the periods
of its columns; these titles head a column of their own (or the label column) and are never a period's
prefix, nor take one: "2023  2022  % Change" is three columns, the third a change.

    is_change_title("Increase (Decrease)") -> True;  is_label_title("Item") -> True
    title_spans("2023 2022 % Change") -> [(10, 18, "change")]
"""

from __future__ import annotations

import re

from storage.finance.periods import COMPARISON, MONTH, QUARTER_NUMBER, QUARTER_ORDINAL
from storage.finance.scale import TABLE_SCALE_WORDS

# the bases a change is stated on besides the reported one, one vocabulary for the column titles below and for
# the questions and titles the answer reads (CHANGE_BASIS: agent/no_model/derived_figures picks the asked basis)
# a change at fixed exchange rates, in the words filings and analysts use: "constant currency" / "constant currencies",
# "constant dollars", "constant exchange rates", "at constant rates", "fixed exchange rates"
_CONSTANT_CURRENCY = (r"(?:constant[- ](?:currenc(?:y|ies)|dollars?|(?:foreign[- ])?exchange[- ]rates?|fx|rates)|"
                      r"fixed[- ](?:foreign[- ])?exchange[- ]rates?)")
_EX_CURRENCY = r"ex[- ](?:currency|fx)"
# a basis printed alone as its own column's title beside a reported change ("Inc/(Dec) | Constant currency")
_BASIS_TITLE = rf"{_CONSTANT_CURRENCY}|excluding\s+currency(?:\s+translation)?|{_EX_CURRENCY}"
# a basis said or printed anywhere: "in constant currency", "excluding the impact of foreign currency",
# "currency-neutral", "organic"; never the reported change
CHANGE_BASIS = re.compile(rf"(?i)\b(?:{_CONSTANT_CURRENCY}|excluding\s+(?:the\s+(?:impact|effects?)\s+of\s+)?"
                          r"(?:changes\s+in\s+)?(?:foreign\s+)?(?:currency|currencies|exchange(?:\s+rates?)?|fx)|"
                          rf"{_EX_CURRENCY}|(?:currency|fx)[- ]neutral|organic(?:ally)?)\b")
# a change column's title: the words a filing prints over the difference of two periods
_CHANGE = (
    # up to two qualifiers before the title: "Constant dollar % change", "Reported % Change"
    r"(?:(?:%|\$|percent(?:age)?|dollar|amount\s+of|net|favou?rable|unfavou?rable|reported|organic|"
    rf"{_CONSTANT_CURRENCY})\s*){{0,2}}"
    r"(?:change|chg\.?|variance|var\.?|growth|inc(?:rease)?\.?\s*/?\s*\(?\s*dec(?:rease)?\.?\s*\)?|increase|decrease"
    r"|favou?rable\s*/?\s*\(?\s*unfavou?rable\s*\)?|better\s*/?\s*\(?\s*worse\s*\)?|b\s*/\s*\(?w\)?"
    # a delta sign ("Reported ∆%", "% Δ"), and a change's basis printed alone as its own column's title beside a
    # reported change ("Inc/(Dec) | Constant currency", "Excluding currency translation"): never a period's amount
    rf"|[\u2206\u0394]|{_BASIS_TITLE})"
    rf"(?:\s+(?:in|at)\s+{_CONSTANT_CURRENCY})?"  # "% change in constant currency": one column's title
    r"(?:\s*\((?:%|\$)\)|\s*%|\s+(?:\$|percent(?:age)?|in\s+percent))?"
)
# the label column's title: "Item", "Line item", "Description", "Metric", "(Dollars in millions)" is a scale caption
_LABEL = r"(?:line\s+)?items?|descriptions?|metrics?|particulars|account"
# the words a period header is made of besides its period tokens ("Three Months Ended", "As of", "(In millions)")
HEADER_WORDS = re.compile(
    rf"\b(?:{MONTH}|\d{{1,2}}|one|two|three|four|five|six|nine|twelve|thirteen|fourteen|fifty[- ]?two|"
    r"fifty[- ]?three|months?|weeks?|quarters?|years?|fiscal|ended|ending|end|as|of|at|for|the|period|"
    rf"{QUARTER_ORDINAL}|half|{QUARTER_NUMBER}|fy|unaudited|restated|change|percent|in|{TABLE_SCALE_WORDS}|"
    r"and|to|vs\.?|versus)\b|[-–—,.:;()$%/*]",
    re.IGNORECASE,
)
# words a release prints in a period's head beside the period, never a header alone ("Q1 2023 Outlook", "Full Year
# 2023", "Q2 FY24 Guidance"; "Outlook" over rows is a section)
FORECAST_HEAD_WORDS = re.compile(r"(?i)\b(?:full|outlook|guidance|forecast)\b")
# a question asking a forecast ("What EPS does the company expect for Q1?", "the Q3 revenue guidance"), and the words
# a forecast's table prints beside its figures ("Business Outlook", "Three Months Ending September 30, 2023");
# "expected" and "projected" name line items too ("Expected return on plan assets", "Projected benefit obligation"),
# whose rows print the word; a range's "Low" and "High" heads are a forecast's
FORECAST_ASK = re.compile(r"(?i)\b(?:guidance|guide[sd]?|outlooks?|forecast(?:s|ed)?|expect(?:s|ed|ing)?|projected|"
                          r"anticipat(?:es?|ed|ing))\b")
FORECAST_PRINTED = re.compile(r"(?i)\b(?:guidance|outlooks?|forecasts?|ending|expect(?:s|ed|ations?)?|projected|anticipated|"
                              r"estimat(?:e|es|ed)|low|high)\b")
# a column of dates printed as years, not amounts: "Maturity", "Due", "Expiration", "Placed in Service",
# "Year Acquired" (a debt note's "3.25  2026  748": 2026 is when the notes mature)
DATE_TITLE = re.compile(r"\b(?:maturit(?:y|ies)|due|expir(?:es|ation|y)|in[-\s]+service|acquired|built|renovated)\b",
                        re.IGNORECASE)
CHANGE_TITLE = re.compile(rf"(?<![\w$%])(?:{_CHANGE})(?![\w])", re.IGNORECASE)
_CHANGE_WHOLE = re.compile(rf"^\s*(?:{_CHANGE})\s*$", re.IGNORECASE)
_LABEL_WHOLE = re.compile(rf"^\s*(?:{_LABEL})\s*:?\s*$", re.IGNORECASE)
_LABEL_TITLE = re.compile(rf"^\s*(?:{_LABEL})(?=\s)", re.IGNORECASE)


def is_change_title(text: str) -> bool:
    """The whole text is a change column's title ("% Change", "Increase/(Decrease)", "Variance $")."""
    return bool(_CHANGE_WHOLE.match(text or ""))


def names_change(text: str) -> bool:
    """The text holds a change column's title ("Change 2023 vs. 2022", "Increase (Decrease) $")."""
    return bool(CHANGE_TITLE.search(text or ""))


def heads_change(period: str) -> bool:
    """A change column's head: a change's title, or two periods compared ("vs. Q4 2021", "2023 vs. 2022")."""
    return names_change(period) or bool(COMPARISON.search(period or ""))


def is_label_title(text: str) -> bool:
    """The whole text titles the label column ("Item", "Line items")."""
    return bool(_LABEL_WHOLE.match(text or ""))


def title_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, kind) of the column titles a header line prints: "change" for a change column's
    title, "label" for the label column's title at the line's start."""
    out: list[tuple[int, int, str]] = []
    if m := _LABEL_TITLE.match(text or ""):
        out.append((m.start(), m.end(), "label"))
    elif is_label_title(text or ""):
        out.append((0, len(text), "label"))
    out.extend((m.start(), m.end(), "change") for m in CHANGE_TITLE.finditer(text or "")
               if not out or m.start() >= out[0][1])
    return out
