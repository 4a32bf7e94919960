"""Periods as filings print them over their columns, parsed: "Years ended December 31, 2022" is the
twelve months from 2022-01-01 to 2022-12-31; "Three Months Ended June 30, 2023" three months to
2023-06-30; "December 31, 2022" over a balance sheet is as of that date; "2022" is fiscal 2022.

    parse_period("Six Months Ended July 29, 2023") -> Period(start=2023-01-30, end=2023-07-29, months=6, ...)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

MONTH = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|"
         r"Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?")
YEAR = r"(?:19|20)\d\d"
MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), start=1)}
# "February 2, 2019", "July 1 2022", "1st July 2022", "31 December 2022"
DATE = re.compile(
    rf"\b(?:(?P<m1>{MONTH})\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y1>{YEAR})"
    rf"|(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<m2>{MONTH}),?\s+(?P<y2>{YEAR}))\b",
    re.IGNORECASE,
)
YEAR_RE = re.compile(rf"(?<!\d){YEAR}(?!\d)")
# a date written in figures over a release's column, month first: "6/30/2023", "12/31/22" (parse_period's alone:
# prose dates stay DATE's)
NUMERIC_DATE = re.compile(r"\b(?P<nm>1[0-2]|0?[1-9])/(?P<nd>3[01]|[12]\d|0?[1-9])/(?P<ny>(?:19|20)\d\d|\d\d)\b")
# a text ending with a month and day, its year printed apart: "September 30,", "Balance at December 31,"
MONTH_DAY_END = re.compile(rf"\b{MONTH}\s+\d{{1,2}},?\s*$", re.IGNORECASE)
_COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "nine": 9, "twelve": 12, "thirteen": 13,
                "twenty-six": 26, "thirty-nine": 39, "fifty-two": 52, "fifty-three": 53}
_WEEKS = {13: 3, 26: 6, 39: 9, 52: 12, 53: 12}  # a span of weeks -> its months
_SPAN = re.compile(r"\b(?P<n>one|two|three|four|five|six|nine|twelve|thirteen|twenty[- ]?six|thirty[- ]?nine|fifty[- ]?two|"
                   r"fifty[- ]?three|\d{1,2})[- ](?P<u>months?|weeks?)\b", re.IGNORECASE)
# "Year-to-Date Ended September 30, 2023": a span from the fiscal year's start, its length not printed
_YEAR_TO_DATE = re.compile(r"\byear[- ]to[- ]date\b|\bYTD\b", re.IGNORECASE)
# a fiscal year's own name: "Fiscal 2022", "FY2022", "FY '22" (a retailer's fiscal 2022 may end January 28, 2023);
# group 1 the year after "fiscal", group 2 the year or two digits after "FY"
FISCAL_LABEL = re.compile(rf"\b(?:fiscal(?:\s+year)?\s*({YEAR})|FY\s?'?({YEAR}|\d\d))\b", re.IGNORECASE)
_YEAR_SPAN = re.compile(r"\b(?:years?|fiscal(?:\s+years?)?|annual|full[- ]year|twelve months)\b|\bFY(?=\s*'?\d\d)",
                        re.IGNORECASE)
_QUARTER = re.compile(rf"\b(?:(?:Q(?P<q>[1-4])|(?P<o>first|second|third|fourth)\s+quarter|quarters?\s+end(?:ed|ing))\b"
                      rf"|[1-4]Q(?=\s*'?\d\d))",
                      re.IGNORECASE)
# a fiscal year or quarter printed with two digits: "FY23", "FY '23", "Q1 FY23", "Q1'23", "Q1-23" (the century is 20xx)
# ("2Q23", "2Q '23": the number before the Q)
SHORT_YEAR_LABEL = re.compile(r"\b(?:FY\s*'?|Q[1-4]\s*(?:FY\s*'?|'|-)|[1-4]Q\s*'?)(?P<yy>\d\d)\b", re.IGNORECASE)
# a quarter with its year, the number before the Q: "2Q 2023", "2Q2023"
QUARTER_FIRST_YEAR = rf"\b[1-4]Q\s*{YEAR}\b"
# a column comparing two periods ("2023 vs. 2022", "2023 over 2022", "Q1'23 versus Q1'22"): no period of its own
COMPARISON = re.compile(r"\b(?:vs\.?|versus|compared\s+(?:to|with)|over)\s+(?:[A-Za-z]+\s+){0,2}\S*\d", re.IGNORECASE)
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4}


@dataclass(frozen=True)
class Period:
    text: str  # as printed
    start: date | None  # the first day of a span ("Years ended December 31, 2022": 2022-01-01)
    end: date | None  # its last day, or the as-of date of a balance
    months: int | None  # the span's length (3, 6, 9, 12), None for a date alone
    as_of: date | None  # a date without a span: a balance's date
    year: int | None  # the (fiscal) year the column names


def parse_date(text: str) -> date | None:
    """The first written-out date in `text` ("February 2, 2019", "1st July 2022")."""
    m = DATE.search(text or "")
    if not m:
        return None
    try:
        return date(int(m.group("y1") or m.group("y2")), MONTHS[(m.group("m1") or m.group("m2")).lower()[:3]],
                    int(m.group("d1") or m.group("d2")))
    except ValueError:
        return None


def _last_day(y: int, m: int) -> int:
    return ((date(y + m // 12, m % 12 + 1, 1)) - timedelta(days=1)).day


def months_before(end: date, months: int) -> date:
    """The first day of a span of `months` ending on `end`: the day after the same date `months`
    earlier (a month's last day maps to that month's last day: June 30 - 3 months = March 31)."""
    y, m = end.year, end.month - months
    while m <= 0:
        m, y = m + 12, y - 1
    last = _last_day(y, m)
    day = last if end.day == _last_day(end.year, end.month) else min(end.day, last)
    return date(y, m, day) + timedelta(days=1)


def parse_period(text: str) -> Period:
    """A column's period as printed, parsed (fields None where the text does not say them)."""
    clean = " ".join((text or "").split())
    when = None
    for m in DATE.finditer(clean):  # the last date printed is the column's own ("... ended May 31, 2023")
        when = m
    end = parse_date(when.group(0)) if when else None
    if end is None and (numeric := list(NUMERIC_DATE.finditer(clean))):
        m = numeric[-1]
        y = int(m.group("ny"))
        try:
            end = date(y if y > 99 else 2000 + y, int(m.group("nm")), int(m.group("nd")))
        except ValueError:
            end = None
    years = [int(y) for y in YEAR_RE.findall(clean)] or [2000 + int(m.group("yy")) for m in SHORT_YEAR_LABEL.finditer(clean)]
    year = end.year if end else (years[-1] if years else None)
    if end is not None and (name := FISCAL_LABEL.search(clean)):  # "Fiscal 2022 / January 28, 2023": fiscal 2022
        named = name.group(1) or name.group(2)
        year = int(named) if len(named) == 4 else 2000 + int(named)
    if len(set(years)) >= 2 and COMPARISON.search(clean):
        return Period(clean, None, None, None, None, None)
    months = weeks = None
    if m := _SPAN.search(clean):
        n = re.sub(r"^(twenty|thirty|fifty)[- ]?", r"\1-", m.group("n").lower())  # "fiftytwo", "fifty two": "fifty-two"
        count = int(n) if n.isdigit() else _COUNT_WORDS.get(n)
        if m.group("u").lower().startswith("week"):
            months, weeks = _WEEKS.get(count or 0), count if count in _WEEKS else None
        else:
            months = count
    elif _YEAR_TO_DATE.search(clean):
        months = None
    elif _QUARTER.search(clean):
        months = 3
    elif _YEAR_SPAN.search(clean):
        months = 12
    if end is not None and months and weeks:  # "13 weeks ended April 29, 2023": the 91 days to that date
        return Period(clean, end - timedelta(weeks=weeks) + timedelta(days=1), end, months, None, year)
    if end is not None and months:
        return Period(clean, months_before(end, months), end, months, None, year)
    if end is not None and _YEAR_TO_DATE.search(clean):  # a span of unprinted length, no balance's date
        return Period(clean, None, end, None, None, year)
    if end is not None:
        return Period(clean, None, end, None, end, year)
    if months == 12 and year:
        return Period(clean, None, None, 12, None, year)
    return Period(clean, None, None, months, None, year)


# ---- the agent's period words (issue 27: one home for the vocabulary; each spelt as its one user had it)
MONTH_NAMES = "january february march april may june july august september october november december"  # word lists
# a month written out or cut short, standing alone ("June", "Sept."): claims' dates without a year
MONTH_WORD = (r"(?:january|february|march|april|may|june|july|august|september|october|november|december|"
              r"jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\b\.?")
# a month and its day ("June 30", "Sept. 28"): group 1 is the month's first three letters (MONTHS' keys)
MONTH_DAY = re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b", re.IGNORECASE)
# "Fourth Quarter", "second fiscal quarter", "Q2": group 1 the ordinal word, group 2 the number
# a quarter named by the month it ends in: "the June 2023 quarter", "the December quarter" (group 1: the month)
MONTH_QUARTER = re.compile(rf"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:{YEAR}\s+)?quarter\b",
                           re.IGNORECASE)
QUARTER_NAME = re.compile(r"(?i)\b(?:(first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter|q([1-4]))\b")
# a quarter's column under its year: its ordinal alone or with "Quarter" ("4th", "Fourth Quarter"), or "Q4" (groups: ordinal, number)
QUARTER_COLUMN = re.compile(r"(?i)\b(?:(first|second|third|fourth|1st|2nd|3rd|4th)\b(?:\s+(?:fiscal\s+)?quarter\b)?|q([1-4])\b)")
QUARTER_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
QUARTER_ORDINAL = r"first|second|third|fourth"  # a fragment: the quarters' ordinal words
QUARTER_NUMBER = r"Q[1-4]"  # a fragment: "Q2" (case as the caller's flags say)
QUARTER_LABEL = re.compile(r"\bQ([1-4])\b")  # "Q2" as written, capital Q: group 1 its number
# a cover's or title's quarter: "Second Quarter", "Q2", "2Q" (groups: the ordinal word, the number after Q, before Q)
QUARTER_WORDS = re.compile(
    r"\b(?:(first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter|q([1-4])\b|([1-4])q\b)", re.IGNORECASE
)
# a question's quarter: "Q2", "2Q", "second-quarter" (groups: the number after Q, before Q, the ordinal word);
# "the final quarter" and "the last quarter of fiscal 2020" are Q4 ("last quarter" alone is the one before)
QUARTER_ASKED = re.compile(
    r"\b(?:q([1-4])|([1-4])q|(first|second|third|fourth|1st|2nd|3rd|4th|final|last(?=[\s-]+(?:fiscal\s+)?quarter\s+of\b))"
    r"[\s-]+(?:fiscal\s+)?quarter)\b", re.IGNORECASE
)
QUARTER_ASKED_ORDINALS = {**QUARTER_ORDINALS, "final": 4, "last": 4}  # QUARTER_ASKED's group 3 -> its quarter


# ---- fiscal calendars: a document's fiscal year end, and the quarters it makes
# a 10-K's or annual report's cover: "For the fiscal year ended December 31, 2019", "for the year ended June 30, 2022"
_YEAR_ENDED_COVER = re.compile(r"\bfor\s+the\s+(?:fiscal\s+)?year\s+ended\s+", re.IGNORECASE)


def fiscal_year_end(text: str) -> date | None:
    """The fiscal year end a document's cover states ("For the fiscal year ended May 31, 2023"), else None."""
    m = _YEAR_ENDED_COVER.search(text or "")
    return parse_date(text[m.end():m.end() + 30]) if m else None


def calendar_month_end(fy_end: date | None) -> tuple[int, int] | None:
    """(month, day) of a fiscal year that always ends on the same month's last day (December 31, June 30, May
    31), the calendar its quarters and other years' ends follow; None for a 52/53-week year ending on a weekday
    (its day moves from year to year) and for a year ending in January or February (retailers name those years
    either way)."""
    if fy_end is None or fy_end.month in (1, 2) or fy_end.day != _last_day(fy_end.year, fy_end.month):
        return None
    return fy_end.month, fy_end.day


def fiscal_quarter_end(fiscal_year: int, quarter: int, month_end: tuple[int, int]) -> date:
    """The last day of quarter 1-4 of fiscal year `fiscal_year` of a calendar ending on `month_end` (its
    fiscal year named by the calendar year it ends in): Q2 of fiscal 2019 ending June 30 ends December 31, 2018."""
    month, year = month_end[0] - 3 * (4 - quarter), fiscal_year
    while month <= 0:
        month, year = month + 12, year - 1
    return date(year, month, _last_day(year, month))
