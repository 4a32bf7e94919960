"""Periods as filings print them over their columns, parsed: "Years ended December 31, 2022" is the
twelve months from 2022-01-01 to 2022-12-31; "Three Months Ended June 30, 2023" three months to
2023-06-30; "December 31, 2022" over a balance sheet is as of that date; "2022" is fiscal 2022.

    parse_period("Six Months Ended July 29, 2023") -> Period(start=2023-01-30, end=2023-07-29, months=6, ...)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache

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
_QUARTER = re.compile(rf"\b(?:(?:Q(?P<q>[1-4])|(?P<o>first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter|quarters?\s+end(?:ed|ing))\b"
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


def printed_years(text: str) -> list[int]:
    """The years a column's head prints: four digits ("2022"), else two in a fiscal year's or quarter's label
    ("FY23", "Q4'22", "4Q22", "Q1-23": 20xx)."""
    return [int(y) for y in YEAR_RE.findall(text)] or [2000 + int(m.group("yy")) for m in SHORT_YEAR_LABEL.finditer(text)]


# a quarter's number printed before its "Q" and two-digit year: "4Q22", "2Q '23"
QUARTER_BEFORE_Q = re.compile(r"(?i)\b([1-4])Q(?=\s*'?\d\d\b)")


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
    years = printed_years(clean)
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
QUARTERLY = re.compile(r"(?i)\bquarterly\b")  # an amount per quarter ("a quarterly cash dividend of 12.25 cents")


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


# one period token of a table header: a date, a fiscal year or quarter, or a bare year
PERIOD_TOKEN = re.compile(
    rf"{MONTH}\s+\d{{1,2}},?\s+{YEAR}\b"
    rf"|\b(?:Fiscal(?:\s+Year)?|FY)\s*'?{YEAR}\b"
    rf"|\b{QUARTER_NUMBER}\s*(?:FY\s*)?'?{YEAR}\b|{QUARTER_FIRST_YEAR}"
    rf"|\b{YEAR}\b"
    rf"|{SHORT_YEAR_LABEL.pattern}"
    rf"|{NUMERIC_DATE.pattern}",
    re.IGNORECASE,
)


# ---- years as each reader finds them (issue 27: one home; the boundaries differ on purpose, named for their reader)
BARE_YEAR = re.compile(rf"^{YEAR}$")  # a cell that is a year and nothing else
YEAR_CELL = re.compile(rf"^\(?{YEAR}\)?,?$")  # a header cell that is a year: "2022", "(2022)", "2022,"
YEAR_WORD = re.compile(rf"\b{YEAR}\b")  # a year as a word of a label or sentence ("2017 Balance", "in 2022")
# a column naming a (fiscal) year and nothing else: "2023", "Fiscal 2023", "Year 2023" (group 1 the year)
YEAR_COLUMN_TITLE = re.compile(rf"(?i)^(?:(?:fiscal|full)\s+)?(?:years?\s+)?(?:fiscal\s+)?(?:year\s+)?'?({YEAR})$")
FISCAL_YEAR_NAMED = re.compile(rf"(?i)\bfiscal\s+(?:year\s+)?{YEAR}\b")  # "Fiscal 2019", "Fiscal Year 2019" over a column
# a question's year: "FY2022", "FY '22", "fiscal year 2022", "2022" (group 1: after "FY", two or four digits; group 2: the
# year otherwise), and a range of them ("FY2015 - FY2017", "2019 to 2021": groups 1-2 and 3-4)
_ASKED_YEAR = rf"(?:fy\s?'?((?:19|20)?\d\d)|(?:fiscal\s+(?:year\s+)?)?({YEAR}))"
ASKED_YEAR = re.compile(rf"\b{_ASKED_YEAR}\b", re.IGNORECASE)
ASKED_YEAR_RANGE = re.compile(rf"\b{_ASKED_YEAR}\s*(?:-|–|—|to|through|thru)\s*{_ASKED_YEAR}\b", re.IGNORECASE)
# a claim's year: not inside an amount ("$2,022", "1.2022") nor followed by a thousands group ("2,021,000")
CLAIM_YEAR = re.compile(rf"(?<![\d,.$]){YEAR}(?!\d|,\d)")
CLAIM_YEAR_RANGE = re.compile(rf"\b({YEAR})\s*(?:[-–—]|to|through|thru)\s*(?:fiscal\s+)?({YEAR})\b", re.I)
# "rose to $15.1 billion from fiscal 2021": the year a change starts from
FROM_YEAR = re.compile(rf"\bfrom\s+(?:the\s+)?(?:fiscal\s+(?:year\s+)?|fy\s*|calendar\s+)?({YEAR})\b", re.I)
# a calendar date with its year: "December 31, 2018" (group "year")
DATED_YEAR = re.compile(rf"{MONTH_DAY.pattern},?\s*(?P<year>{YEAR})\b", re.I)
# a month and day printed without their own year ("December 31" under "Fiscal Year 2019"): the year is the heading's
MONTH_DAY_NO_YEAR = re.compile(rf"{MONTH_DAY.pattern}(?!,?\s*{YEAR})", re.I)
# a date as an answer line prints it: a capitalised month, its day and year ("June 30, 2023", "Sept. 28 2022")
PRINTED_DATE = re.compile(rf"[A-Z][a-z]{{2,8}}\.? \d{{1,2}},? {YEAR}")
# a date in prose, with or without its year ("June 30", "30th of June", "6/30/2023"): no figure of a claim
PROSE_DATE = re.compile(rf"\b{MONTH_WORD}\s+\d{{1,2}}(?:st|nd|rd|th)?\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH_WORD}"
                        r"|\b\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}\b", re.IGNORECASE)
# "Years ended June 30" over a table whose columns print the years alone: group 1 the month and day (by shape);
# YEARS_ENDED_NO_YEAR (a table's introduction, "... for the years ended May 31:"): the month by name and the day
# apart (groups 1, 2), no year printed after them
YEAR_ENDED_MONTH_DAY = re.compile(r"(?i)\b(?:fiscal\s+)?years?\s+ended(?:\s+or\s+as\s+of)?\s+([A-Z][a-z]{2,8}\.?\s+\d{1,2})\b")
YEARS_ENDED_NO_YEAR = re.compile(rf"(?i)\b(?:fiscal\s+)?years?\s+ended\s+({MONTH})\s+(\d{{1,2}})\b(?!,?\s*{YEAR})")


# ---- spans (durations) as each reader words them (issue 27). parse_period reads a column's span in full; these are the
# narrower readers of questions (ASKED_*: "first half", no weeks), answer columns (column_months: "quarter" anywhere,
# weeks, then whatever parse_period reads), claims (span_months: "Q3", "H1", hyphenated, None when two lengths are
# named) and answer lines (SAID_*). The others are kept apart, not merged into one union: each word one reader lacks
# would change that reader's answers, unmeasured.
WEEKS_MONTHS = _WEEKS  # 13 weeks -> 3 months ...
YEAR_TO_DATE = _YEAR_TO_DATE  # "year-to-date", "YTD"
SPAN_WORDS = re.compile(r"\b(?:ended|ending|months|weeks|quarters?|years?|as of)\b", re.IGNORECASE)  # a header segment's span
FULL_YEAR = re.compile(r"(?i)\bfull[- ]year\b")  # a header's "Full Year" column
# the last column of a quarterly table, its year's total: "Total", "Full Year", "Fiscal Year", "Year"
TOTAL_COLUMN = re.compile(r"(?i)\b(?:total|full[- ]year|fiscal\s+year|year)\s*$")
# a number followed by a duration is no figure: "12 months", "13-week", "4 quarters"
DURATION_AFTER = re.compile(r"^\s?[- ]?(?:months?|weeks?|quarters?)\b", re.IGNORECASE)
# a question's span: "six months", "first half"/"half-year"/"H1" (group 2: six months), "the quarter", "fiscal"
SPAN_MONTH_WORDS = {"three": 3, "six": 6, "nine": 9, "twelve": 12}
ASKED_SPAN = re.compile(r"\b(three|six|nine|twelve) months\b|\b(first half|half[- ]year|h1)\b", re.IGNORECASE)
ASKED_QUARTER_SPAN = re.compile(r"\b(?:the|a|that|this|fiscal|calendar) quarter\b|\bquarter (?:ended|ending)\b", re.I)
ASKED_FISCAL = re.compile(r"\bfiscal\b|\bfy\s?'?\d", re.IGNORECASE)
# a column head's span as the answer path reads it (column_months): months, weeks or "quarter" (groups: the month
# word, the weeks); a full year's words. Looser than parse_period: a "quarter" anywhere is three months
_COLUMN_SPAN = re.compile(r"(?i)\b(three|six|nine|twelve)\s+months\b|\bquarter\b|\b(13|26|39|52|53) weeks\b")
_COLUMN_FULL_YEAR = re.compile(rf"(?i)\byears?\s+ended\b|\bfiscal\s+(?:year\s+)?{YEAR}|\bfull[- ]year\b|\bannual\b"
                               r"|\bfor the (?:fiscal )?year\b|\bFY\s*'?\d\d(?:\d\d)?\b")
_QUARTER_COLUMN_LABEL = re.compile(r"(?i)\bQ[1-4]\b|\b[1-4]Q(?=\s*'?\d\d)")
# a quarterly table's column named by its ordinal alone under a year ("2016 4th", "1st 2015")
BARE_ORDINAL_COLUMN = re.compile(rf"(?i)^\s*(?:{YEAR}\s+)?(1st|2nd|3rd|4th)(?:\s+{YEAR})?\s*$")


def column_months(period: str) -> int | None:
    """The span a column header names in months (3 for "Three Months Ended" or "Quarter", 12 for
    "Twelve Months" / "Year(s) Ended" / "Fiscal"; else the months parse_period reads), None when it names none."""
    if BARE_ORDINAL_COLUMN.match(period):
        return 3
    if m := _COLUMN_SPAN.search(period):
        if m.group(2):
            return WEEKS_MONTHS[int(m.group(2))]
        return SPAN_MONTH_WORDS.get((m.group(1) or "").lower(), 3)
    if _QUARTER_COLUMN_LABEL.search(period):  # "Q4 2022", "Q4'22", "4Q22", "Q1 FY24"
        return 3
    # "Year Ended", "Fiscal 2016", "Full year", "Annual", "For the Year" (a selected-data column), "FY22"
    if _COLUMN_FULL_YEAR.search(period):
        return 12
    # the spans parse_period reads in more words: "Quarters Ended", "Three-Month Periods Ended", "Thirteen Weeks
    # Ended", "Twenty-Six Weeks Ended"
    return parse_period(period).months


# a claim's span, each length by its words ("three months", "13 weeks", "Q3"; "first half", "H1"; "full year", "annual")
_CLAIM_SPANS = ((3, re.compile(rf"(?i)\bthree[- ]months?\b|\b13[- ]weeks?\b|\bquarter\b|\b{QUARTER_NUMBER}\b")),
                (6, re.compile(r"(?i)\bsix[- ]months?\b|\b26[- ]weeks?\b|\bfirst half\b|\bh1\b")),
                (9, re.compile(r"(?i)\bnine[- ]months?\b|\b39[- ]weeks?\b")),
                (12, re.compile(r"(?i)\btwelve[- ]months?\b|\b52[- ]weeks?\b|\byears? ended\b|\bfull[- ]year\b|\bannual\b")))


@lru_cache(maxsize=4096)
def span_months(text: str) -> int | None:
    """The length in months of the period a claim or a column names, when exactly one: "three months ended" -> 3."""
    found = {n for n, rx in _CLAIM_SPANS if rx.search(text)}
    return found.pop() if len(found) == 1 else None


# an answer line's span, said back ("the three months ended June 30, 2023"); the full year's words ("fiscal 2022")
SAID_SPAN = re.compile(r"\b(three|six|nine|twelve|thirteen|fifty[- ]?two|fifty[- ]?three) (months|weeks)\b|\bquarter\b",
                       re.IGNORECASE)

# a year asked as the due date of an obligation schedule ("principal due in 2025", "borrowings that mature in
# fiscal 2028", "lease payments owed in 2024"): a later year a filing prints as a row of its maturities
DUE_IN_YEAR = re.compile(r"(?i)\b(?:due|matur(?:e|es|ing|ity|ities)|payable|ow(?:e|es|ed|ing)|repa(?:y|id|yments?)|"
                         r"scheduled|principal payments?|lease payments?|(?:purchase |contractual )?obligations?)\b")

# ---- a schedule of amounts by year (a maturity schedule: rows "2024", "2025", … "Thereafter", "Total"), one concept
# for the layout reader that finds its rows (storage/documents/table_layout) and the answer that reads them
# (agent/no_model/due_years): each reads the years from its own labels, both count them here
SCHEDULE_MIN_YEARS = 3  # consecutive year rows that make a table a schedule of amounts by year
# a stored row label naming one year of a schedule: "2025", "Fiscal 2025", "FY2025", "Fiscal year 2025"
SCHEDULE_YEAR_LABEL = re.compile(rf"(?i)^\s*(?:(?:fiscal|fy)(?:\s+year)?\s*)?({YEAR})\s*$")
# a schedule's row after its last year: "Thereafter", "2029 and thereafter", "After 2028", "Beyond"
THEREAFTER_LABEL = re.compile(rf"(?i)^\s*(?:thereafter|(?:{YEAR}\s+and\s+)?thereafter|after\s+(?:fiscal\s+)?{YEAR}|beyond)\b")


def schedule_row_year(label: str) -> int | None:
    """The year a schedule's row label names ("Fiscal 2025" -> 2025), None for any other label."""
    m = SCHEDULE_YEAR_LABEL.match(label or "")
    return int(m.group(1)) if m else None


def is_year_schedule(years) -> bool:
    """Whether the years of a table's year-labelled rows, in printed order, make a schedule of amounts by year:
    SCHEDULE_MIN_YEARS or more, each the year after the one before ("2024 2025 2026"). Two years (a comparison),
    a gap or a repeat ("2024 2026 2027", "2024 2024 2025") make none, nor do descending years ("2024 2023 2022":
    a table's periods, not when its amounts fall due)."""
    years = list(years)
    return len(years) >= SCHEDULE_MIN_YEARS and all(b == a + 1 for a, b in zip(years, years[1:]))


# the first year of a maturity schedule asked without naming it ("due within one year", "in the next twelve months")
DUE_WITHIN_YEAR = re.compile(r"(?i)\b(?:within (?:one|1|a|the next) year|(?:in )?the next (?:twelve|12) months|"
                             r"within (?:the next )?(?:twelve|12) months|in the (?:coming|next) (?:fiscal )?year|"
                             r"next fiscal year)\b")
# a year-to-date span asked with a year ("first nine months of 2022", "six months", "first half"): group 1 six or
# nine, group 2 or 3 "first" (a half; three quarters)
YEAR_TO_DATE_SPAN = re.compile(r"\b(?:(six|nine)[\s-]+months?|(first|1st)[\s-]+half|h1|(first|1st)\s+three\s+quarters)\b",
                               re.IGNORECASE)

SAID_FULL_YEAR = re.compile(r"\b(?:years?|fiscal|twelve months|52 weeks|53 weeks|fifty[- ]?(?:two|three) weeks)\b",
                            re.IGNORECASE)
# a period's words besides the span's length, dropped from a claim's content words ("six months ended")
SPAN_STOP_WORDS = "three six nine twelve month months week weeks"


# ---- covers and headlines: the period a filing or release says it is of
# "for the (fiscal) year ended", "quarterly period ended", "three months ended" + the date printed after it
COVER_SPAN_ENDED = re.compile(
    r"\b(?P<span>(?:fiscal\s+)?year|quarter(?:ly\s+period)?|(?:three|six|nine|twelve)\s+months)\s+ended\s*:?\s*"
    rf"(?P<date>{DATE.pattern})",
    re.IGNORECASE,
)


def _spaced(word: str) -> str:
    """`word` as a letter-spaced cover's text layer may read it ("Fis cal", "E nded"): a space allowed between letters."""
    return r"\s?".join(re.escape(c) for c in word)


# a 10-K's and a 10-Q's cover: "For the Fis cal Year Ended", "for the quarterly period ended" (the date printed after
# it); letter-spaced words read as the text layer prints them. (fiscal_year_end: the same phrase, unspaced)
COVER_YEAR_ENDED = re.compile(
    rf"for\s+the\s+(?:{_spaced('fiscal')}\s+)?{_spaced('year')}\s+{_spaced('ended')}\s*:?\s*", re.IGNORECASE)
COVER_QUARTER_ENDED = re.compile(
    rf"for\s+the\s+{_spaced('quarter')}(?:\s?{_spaced('ly')}\s+{_spaced('period')})?\s+{_spaced('ended')}\s*:?\s*",
    re.IGNORECASE)
FISCAL_YEAR_END_SAID = re.compile(r"fiscal\s+year\s+end(?:ed|ing)\s*", re.IGNORECASE)  # "fiscal year ended January 28"
# any span's "... ended " in a cover's text, its date after it ("the quarterly period ended", "52 weeks ended")
ANY_SPAN_ENDED = re.compile(r"\b(?:quarter|period|year|weeks|months)\W[^.]{0,80}?\bended\s+", re.IGNORECASE)
MONTHS_ENDED = re.compile(r"\b(three|six|nine|twelve)\s+months\s+ended\b", re.IGNORECASE)  # a 10-Q cover's spans
# a release headline's quarter: "Fourth-Quarter and Full-Year 2022 Results", "Second Quarter Fiscal 2023"
_AND_THE_YEAR = r"(?:\s+(?:and|&)\s+(?:full[\s-]+|fiscal[\s-]+)?year)?"  # "... and full-year": the year of both
HEADLINE_QUARTER = re.compile(
    rf"\b(?P<q>{QUARTER_ORDINAL})[\s-]+quarter{_AND_THE_YEAR}\s+(?:(?:fiscal|fy)\s*)?(?P<y>{YEAR})\b", re.IGNORECASE)
# a release's own quarter in its text: "for the second quarter of 2023", "second-quarter 2023", "fourth quarter fiscal
# 2022", "fourth-quarter and full-year 2022"
OWN_QUARTER = re.compile(
    rf"\b(?P<q>{QUARTER_ORDINAL})[\s-]+quarter{_AND_THE_YEAR}\s+(?:of\s+)?(?:(?:fiscal|fy)\s*)?(?P<y>{YEAR})\b",
    re.IGNORECASE)

# a row label's own period set off by a dash ("Earnings from Operations - 2016 (2)"): the line item is the rest
LABEL_YEAR_SUFFIX = re.compile(rf"\s+[-–—]\s*(?:fiscal\s+)?{YEAR}(?:\s*\(\d{{1,2}}\))?\s*$", re.IGNORECASE)


def label_without_period(label: str) -> str:
    """A row label without the period it names at its end ("Net income - 2023" -> "Net income")."""
    return LABEL_YEAR_SUFFIX.sub("", label)


_AFTER_YEAR = re.compile(rf"^.*(?<!\d){YEAR}(?!\d)\)?[\s,]*")


def column_head(period: str) -> str:
    """A column's own head after its period's year ("Three Months Ended June 30, 2023 Non-GAAP" -> "Non-GAAP",
    "2023 Low range" -> "Low range"); a head printing no year is all head ("Adjusted Cost")."""
    return _AFTER_YEAR.sub("", " ".join((period or "").split()))
