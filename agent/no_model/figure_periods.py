"""Which table column a figure question asks for: its years, quarter or span ("six months"), and
whether a column's span (quarter, year to date, full year) is the one asked.

A quarter's column never answers a full-year question and a full year's never a quarter's: the
column headers say their span ("Three Months Ended", "Six Months Ended", "Years Ended"); a
column without a span (a bare year, a balance sheet date) fits any.

A fiscal year named by the calendar year it ends in ("Q2 FY2024" of a year ending in January 2024)
is not the calendar year of its columns ("Three Months Ended July 31, 2023"): when the question
names a fiscal period and the filing's own fiscal year (its DocumentInfo) is one after the calendar
year of its latest column, the columns dated in that month are read as that fiscal year's
(`FiscalShift`). The shift may be back a year too: an issuer naming its year by the calendar year it
starts in ("fiscal 2023" ended February 3, 2024); an annual filing's own year end (its cover's
period end) says which columns end a fiscal year, within a week or so (52/53-week years end on
a weekday, "January 28, 2023", "February 3, 2024").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from storage.retrieval.question_scope import question_scope
from storage.documents.tables import Cell
from storage.finance.columns import FORECAST_PRINTED
from storage.finance.periods import (ASKED_FISCAL, ASKED_QUARTER_SPAN, ASKED_SPAN, BARE_ORDINAL_COLUMN, FISCAL_YEAR_NAMED, MONTH_DAY,
                                     MONTH_QUARTER, MONTHS, QUARTER_BEFORE_Q, QUARTER_NAME, QUARTER_ORDINALS, SPAN_MONTH_WORDS, YEAR_RE,
                                     YEAR_TO_DATE,
                                     column_months, printed_years)

MAX_FIGURES = 3  # cells stated (one per period the question names)
_MONTH_QUARTER = MONTH_QUARTER
_MONTH_NAME = MONTH_DAY
_MONTH_NUMBER = MONTHS


@dataclass(frozen=True)
class AskedPeriod:
    years: tuple[int, ...] = ()  # in the order the question names them
    quarter: int | None = None
    months: int | None = None  # 3 for a quarter, 6 for a half year ...
    fiscal: bool = False  # named as a fiscal period ("FY2024", "fiscal 2023"), not a calendar one
    month: int | None = None  # the month a quarter asked ends in, when the question dates it ("quarter ended February 28")

    def __bool__(self) -> bool:
        return bool(self.years or self.quarter or self.months)


def asked_period(question: str) -> AskedPeriod:
    """The period(s) a question names: "FY2018", "fiscal 2018", "in 2021", "Q2 of FY2024", "FY23",
    "FY2015 - FY2017" (storage/retrieval/question_scope.py, the parser the selection prior uses too); "year
    to date" with a quarter is that many quarters' months."""
    periods = question_scope(question).periods
    years = [y for y, _ in periods if y is not None]
    quarter = next((q for _, q in periods if q), None)
    months = None
    if m := ASKED_SPAN.search(question):
        months = SPAN_MONTH_WORDS.get((m.group(1) or "").lower(), 6)
    elif quarter and YEAR_TO_DATE.search(question):
        months = 3 * quarter
    elif quarter or ASKED_QUARTER_SPAN.search(question) or _MONTH_QUARTER.search(question):
        months = 3  # "the quarter ended February 28, 2019", "the June 2023 quarter": a quarter's column
    # a quarter's end ("the quarter ended February 28, 2019") or a balance's date ("at June 30, 2022"
    # in a 10-Q printing December 31, 2022 and June 30, 2022): the column of that month
    dated = (_MONTH_NAME.search(question) or _MONTH_QUARTER.search(question)) if months in (3, None) else None
    return AskedPeriod(tuple(dict.fromkeys(years)), quarter, months, bool(ASKED_FISCAL.search(question)),
                       _MONTH_NUMBER[dated.group(1).lower()[:3]] if dated else None)


@dataclass(frozen=True)
class FiscalShift:
    """A row's columns read with its filing's fiscal calendar: columns dated in `month` (its latest;
    near `day` of it when known) belong to the fiscal year `years` after (or before, when negative)
    their calendar year, and, when the filing's own fiscal quarter is known, a quarter's column
    dated in `month` is that `quarter` (the others by the months between)."""

    years: int
    month: int
    quarter: int | None = None
    day: int | None = None


FISCAL_END_DAYS = 8  # a 52/53-week year ends up to a week either side of its usual date
# a year named by the calendar year it starts in ends early in the next one (January to June)
LAST_MONTH_NAMED_BY_START = 6


def column_month(period: str) -> int | None:
    """The month of the date a column names ("Three Months Ended July 31, 2023" -> 7), else None."""
    m = _MONTH_NAME.search(period)
    return _MONTH_NUMBER[m.group(1).lower()[:3]] if m else None


def column_day(period: str) -> int | None:
    """The day of the month of the date a column names ("February 3, 2024" -> 3), else None."""
    m = _MONTH_NAME.search(period)
    return int(re.search(r"\d+$", m.group(0)).group(0)) if m else None


def _near(month: int, day: int, shift: FiscalShift) -> bool:
    """A column ending on month/day ends the shift's fiscal year (any year): within FISCAL_END_DAYS
    of its end date, or in its month when that date's day is unknown."""
    if shift.day is None:
        return month == shift.month
    a, b = date(2001, month, min(day, 28)), date(2001, shift.month, min(shift.day, 28))
    gap = abs((a - b).days)
    return min(gap, 365 - gap) <= FISCAL_END_DAYS


def fiscal_shift(cells: list[Cell], fiscal_year: int | None, fiscal_quarter: int | None = None,
                 year_end: date | None = None) -> FiscalShift | None:
    """The fiscal calendar of a row's dated columns. `year_end`: an annual filing's own fiscal year
    end (its cover's period end), labelled `fiscal_year`: columns ending near that date in any year
    are that many years off their label (+1, 0 or -1). Otherwise: shifted a year when the filing's
    fiscal year is the year after the calendar year of the row's latest dated column (a fiscal year
    ending early in the next calendar year); with the filing's fiscal quarter, the quarter of its
    latest column. None when neither applies."""
    if fiscal_year and year_end is not None:
        years = fiscal_year - year_end.year
        named_by_start = years == -1 and year_end.month <= LAST_MONTH_NAMED_BY_START
        return FiscalShift(years, year_end.month, fiscal_quarter, year_end.day) if years == 1 or named_by_start else None
    # a column under "Fiscal 2016" names its fiscal year already: no calendar to shift; a forecast's ("Three Months
    # Ending September 30, 2023" in a release of the quarter to June) is no quarter the filing reports
    dated = [(max(years), month) for c in cells if (years := column_years(c.period)) and (month := column_month(c.period))
             and not FISCAL_YEAR_NAMED.search(c.period) and not FORECAST_PRINTED.search(c.period)]
    if not fiscal_year or not dated:
        return None
    year, month = max(dated)
    years = 1 if fiscal_year == year + 1 else 0 if fiscal_year == year else None
    if years is None or not years and not fiscal_quarter:
        return None
    return FiscalShift(years, month, fiscal_quarter)



def quarters_in_order(cells: list[Cell]) -> dict[int, int]:
    """column -> fiscal quarter, for a row of a quarterly table whose columns name no quarter, only
    the month each ends ("Fiscal 2016 Quarter Ended: August 31 November 30 February 29 May 31",
    "2016 Quarter ended: December 31 September 30 June 30 March 31"): the four three months'
    columns of one year, their months three apart in printed order, are its quarters in that order
    (first to fourth left to right, or fourth to first when the months run backwards)."""
    groups: dict[tuple[int, ...], list[Cell]] = {}
    for c in cells:
        if column_months(c.period) == 3 and column_quarter(c.period) is None and column_month(c.period):
            groups.setdefault(tuple(column_years(c.period)), []).append(c)
    out: dict[int, int] = {}
    for group in groups.values():
        group = sorted(group, key=lambda c: c.column)
        months = [column_month(c.period) for c in group]
        steps = {(b - a) % 12 for a, b in zip(months, months[1:])}
        if len(group) == 4 and steps in ({3}, {9}):
            out.update({c.column: (i + 1 if steps == {3} else 4 - i) for i, c in enumerate(group)})
    return out


def cell_quarter(cell: Cell, shift: FiscalShift | None = None, order: dict[int, int] | None = None) -> int | None:
    """The fiscal quarter a column is: named by its header ("Fourth Quarter", "Q2"), else its place
    in a quarterly table's order (`order`, quarters_in_order), else, for a three months' column,
    counted back from the filing's own quarter (`shift`)."""
    if (named := column_quarter(cell.period)) is not None:
        return named
    if order and cell.column in order:
        return order[cell.column]
    month = column_month(cell.period)
    if shift is None or not shift.quarter or month is None or column_months(cell.period) != 3:
        return None
    back = (shift.month - month) % 12
    return (shift.quarter - 1 - back // 3) % 4 + 1 if back % 3 == 0 else None


def cell_years(cell: Cell, asked: AskedPeriod, shift: FiscalShift | None = None) -> list[int]:
    """The years a cell's column is of, as the question counts them (fiscal years when it names one)."""
    if named := FISCAL_YEAR_NAMED.findall(cell.period):
        return [int(YEAR_RE.search(n).group(0)) for n in named]  # "Fiscal 2023" over "February 3, 2024": the year its head names
    years = column_years(cell.period)
    if shift is None or not shift.years or FISCAL_YEAR_NAMED.search(cell.period) \
            or (month := column_month(cell.period)) is None or not _near(month, column_day(cell.period) or 1, shift):
        return years
    # a year named by its start is the calendar year it mostly covers: a bare "2023" asked is it too
    if asked.fiscal or shift.years < 0 and asked.month is None:
        return [y + shift.years for y in years]
    return years


def column_years(period: str) -> list[int]:
    return printed_years(period)  # "2022", and "Q4'22" / "4Q22" / "FY22" as the facts read them


_QUARTER_NAME = QUARTER_NAME
_ORDINALS = QUARTER_ORDINALS




def column_quarter(period: str) -> int | None:
    """The quarter a column names ("Fourth Quarter 2022", "Q2 FY24", "2016 4th"), None when it names none."""
    if m := BARE_ORDINAL_COLUMN.match(period):
        return _ORDINALS[m.group(1).lower()]
    m = _QUARTER_NAME.search(period)
    if m is None and (before := QUARTER_BEFORE_Q.search(period)):
        return int(before.group(1))  # "4Q22"
    return (_ORDINALS[m.group(1).lower()] if m.group(1) else int(m.group(2))) if m else None


def span_mismatch(cell: Cell, asked: AskedPeriod, shift: FiscalShift | None = None,
                  order: dict[int, int] | None = None) -> int:
    """1 when the column's span is known and is not the one asked (a full year unless the question
    names a quarter or a number of months), else 0."""
    months = column_months(cell.period)
    quarter = cell_quarter(cell, shift, order)
    if quarter is not None and asked.quarter and quarter != asked.quarter:
        return 1
    if months is None:
        return 0
    if asked.months:
        return 0 if months == asked.months else 1
    return 0 if months == 12 else 1


def _may_be_calendar_quarter(cells: list[Cell], quarter: int, shift: FiscalShift | None) -> bool:
    """Some column may be the asked calendar quarter: one naming or counted as a quarter, or not a
    quarter's column ending a calendar quarter ("Three Months Ended June 30" is Q2, never Q3)."""
    for c in cells:
        month = column_month(c.period)
        if cell_quarter(c, shift) is not None or column_months(c.period) != 3 or month not in (3, 6, 9, 12) \
                or month // 3 == quarter:
            return True
    return False


def pick_cells(cells: list[Cell], asked: AskedPeriod, shift: FiscalShift | None = None, prefer=None) -> list[Cell]:
    """The row's cells for the asked period(s); without one, the most recent period's cell. Only
    columns whose span is the asked one (span_mismatch): none when the row has no such column.
    `shift`: the row's fiscal-year shift (fiscal_shift). `prefer(cells)`: of several columns of one
    year told apart by their headers ("FedEx Express Segment, 2023", "2023 Low"), the one(s) asked;
    none when which is asked is unknown (agent/no_model/figure_rows.py `column_choice`)."""
    # a dash or text is not a figure to state; a column not of the asked span is not the asked period
    order = quarters_in_order(cells) if asked.quarter or asked.month else {}
    fitting = [c for c in cells if re.search(r"\d", c.value) and not span_mismatch(c, asked, shift, order)]
    years = asked.years[:MAX_FIGURES]
    if not years:  # no year named: the most recent
        dated = [y for c in fitting for y in cell_years(c, asked, shift)]
        years = (max(dated),) if dated else ()
    out = []
    for year in years:
        matching = [c for c in fitting if year in cell_years(c, asked, shift)]
        if asked.month and len(matching) > 1 and (dated := [c for c in matching if column_month(c.period) == asked.month]):
            matching = dated  # "the quarter ended February 28, 2019": the column ending in that month
        # two columns of the year that their headers do not tell apart (a quarter's and a year to
        # date's, headers read without their spans): which one is asked is unknown
        if len(matching) > 1 and len({c.period for c in matching}) < len(matching):
            continue
        # a quarter asked among several quarters' columns of the year that do not name theirs
        # ("Three Months Ended March 31 / June 30"): which is the asked one depends on the fiscal year (columns of
        # one quarter told apart by their heads, "GAAP" and "Non-GAAP" under "Three Months Ending September 30,
        # 2023", are no several quarters)
        one_quarter = len({column_month(c.period) for c in matching}) == 1 \
            and all(column_months(c.period) == 3 and column_month(c.period) for c in matching)
        if asked.quarter and len(matching) > 1 and not any(cell_quarter(c, shift, order) for c in matching) \
                and not one_quarter:
            continue
        if asked.quarter and not asked.fiscal and matching and not order \
                and not _may_be_calendar_quarter(matching, asked.quarter, shift):
            continue  # quarters' columns of unknown quarter, none ending the asked calendar quarter: not covered
        if prefer is not None and len(matching) > 1:
            matching = prefer(matching)
        if matching:
            out.append(min(matching, key=lambda c: c.column))
    return out
