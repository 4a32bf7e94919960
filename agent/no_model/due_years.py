"""A year asked as the due year of a maturity schedule: "How much principal is due in fiscal 2026?", "What
operating lease payments are due in 2025?", "… due after 2028 / thereafter", "debt maturing within one year".

A schedule of amounts by consecutive years prints the years as ROW labels ("2024 … 2028, Thereafter,
Total"; "Fiscal 2025"), under columns dated by the schedule's as-of date or titled ("Debt Principal",
"Operating Leases | Finance Leases"). The asked year names the row, not the column's period: read as a
period it finds no column, or one of another date. So for a question asking when an obligation is due
(storage/finance/periods.py DUE_IN_YEAR) the row labelled by the asked year answers ("after YEAR" and
"thereafter": the Thereafter row of a schedule ending at YEAR; "within one year", "next twelve months":
its first year), in the schedule column the question's words name (the only one, else a "Total" one).
A year no schedule prints as a row gives no figure here: the ordinary figure path reads the question.

    lines = due_year_lines(question, rows, page_text)   # ["- 2026 (Debt Principal): $1,340 million [^1]"] or None
"""

from __future__ import annotations

import re

from agent.no_model import cited_rows
from agent.no_model.cited_rows import Row
from agent.no_model.figure_rows import column_words, tokenize
from storage.finance.periods import (DUE_IN_YEAR, DUE_WITHIN_YEAR, THEREAFTER_LABEL, YEAR, is_year_schedule,
                                     schedule_row_year)

_AFTER = re.compile(rf"(?i)\b(?:after|beyond|later than)\s+(?:fiscal\s+|fy\s*)?({YEAR})\b")
_THEREAFTER = re.compile(r"(?i)\bthereafter\b")
_ANY_YEAR = re.compile(rf"(?<![\d,]){YEAR}(?!\d)")
# a year that is no due year: a date's ("as of May 31, 2023", "at December 31, 2015", "as of fiscal year end 2022")
# or a name's ("the notes due 2026": notes named by their maturity, storage/finance/debt.py)
_NOT_DUE_YEAR = re.compile(r"(?i)(?:[A-Z][a-z]+\.? \d{1,2},\s*|\b(?:as of|at|end(?:ed|ing)?|end of)\s+(?:the\s+)?"
                           r"(?:(?:fiscal\s+)?(?:year[- ]end\s+)?|fy\s*)|\b(?:notes?|debentures?|bonds?)\s+due\s+)$")
# words of asking when and how much is due, said of every schedule: they name none ("future payments", "total
# amount owed", "scheduled"); DUE_IN_YEAR's verbs are here, its nouns (principal, lease, obligations) name one
_ASKING = set(tokenize("how much what which amount amounts total future payment payments due owe owed owing pay paid "
                       "repay repaid repayment repayments mature matures maturing maturity maturities schedule scheduled "
                       "come comes fiscal year years calendar thereafter after beyond within next twelve months contractual "
                       "contractually company"))
_TOTAL_COLUMN = re.compile(r"(?i)\btotal\b")


def schedules(rows: list[Row]) -> dict[int, list[Row]]:
    """table -> its rows, for the tables whose year row labels make a schedule of amounts by year
    (storage/finance/periods.is_year_schedule: a maturity schedule); other tables are absent."""
    tables: dict[int, list[Row]] = {}
    for r in rows:
        tables.setdefault(r.table, []).append(r)
    found = {}
    for table, members in tables.items():
        years = [y for r in members if (y := schedule_row_year(r.label)) is not None]
        if is_year_schedule(years):
            found[table] = members
    return found


def asked_due(question: str) -> tuple[str, int | None] | None:
    """("year", Y) for an obligation asked as due in year Y; ("after", Y) for "after Y" ("after", None:
    "thereafter"); ("first", None) for "within one year"; None for a question asking no due year."""
    if not DUE_IN_YEAR.search(question):
        return None
    if m := _AFTER.search(question):
        return "after", int(m.group(1))
    if _THEREAFTER.search(question):
        return "after", None
    if DUE_WITHIN_YEAR.search(question):
        return "first", None
    years = {int(m.group()) for m in _ANY_YEAR.finditer(question) if not _NOT_DUE_YEAR.search(question[:m.start()])}
    return ("year", years.pop()) if len(years) == 1 else None


def _asked_row(members: list[Row], due: tuple[str, int | None]) -> Row | None:
    kind, year = due
    years = [(y, r) for r in members if (y := schedule_row_year(r.label)) is not None]
    if kind == "year":
        return next((r for y, r in years if y == year), None)
    if kind == "first":
        return years[0][1]
    if year is not None and year != years[-1][0]:
        return None  # "after 2026" of a schedule whose Thereafter starts after 2028: not printed
    return next((r for r in members if THEREAFTER_LABEL.match(r.label)), None)


MAX_ABOVE = 4  # prose lines above a schedule read for its caption sentence


def _caption_above(members: list[Row], page_text) -> str:
    """The prose just above a schedule's first row (its title, the caption sentence over it: "Future principal
    payments of our borrowings at June 30, 2024 were as follows (in millions):"), from its last sentence on;
    the table's lead-in (Row.intro) is often cut off by the title line under it."""
    src = members[0].source
    units = cited_rows.table_units(src.doc_id, src.page_number, page_text(src))
    first = next((i for i, u in enumerate(units) if u.is_table_row and u.text == members[0].cells[0].row), None)
    above: list[str] = []
    for unit in reversed(units[:first] if first is not None else []):
        if unit.is_table_row or len(above) == MAX_ABOVE:
            break
        above.insert(0, unit.text)
    return cited_rows.last_sentence(above) if above else ""


def _context_words(members: list[Row], page_text) -> set[str]:
    """The words saying what a schedule's amounts are: its caption, lead-in sentence, column heads, sections
    and the labels of its rows that are not years."""
    text = " ".join({members[0].caption, members[0].intro, _caption_above(members, page_text),
                     *(c.period for r in members for c in r.cells),
                     *(c.section for r in members for c in r.cells),
                     *(r.label for r in members if schedule_row_year(r.label) is None)})
    return {w for w in tokenize(text) if not w.isdigit()}


def _head_words(cells) -> set[str]:
    """The words the cells' column heads say beyond their periods, tokenized as the question is."""
    return set(tokenize(" ".join(w for c in cells for w in column_words(c.period))))


def _column(row: Row, said: set[str]):
    """The schedule column the question asks: the one whose head words it says, the only one, or a Total one."""
    cells = [c for c in row.cells if re.search(r"\d", c.value)]
    if len(cells) <= 1:
        return cells[0] if cells else None
    named = [c for c in cells if _head_words([c]) & said]
    if len(named) == 1:
        return named[0]
    totals = [c for c in cells if _TOTAL_COLUMN.search(c.period)]
    return totals[0] if not named and len(totals) == 1 else None


def due_year_lines(question: str, rows: list[Row], page_text) -> list[str] | None:
    """The figure line of the schedule row a due-year question asks, or None (no such question, no schedule
    printing the asked row, or no one schedule or column the question's words pick)."""
    due = asked_due(question)
    if due is None:
        return None
    said = {w for w in tokenize(question) if not w.isdigit()}
    named = said - _ASKING  # the words naming the obligation pick its schedule, not the asking's
    found = []
    for members in schedules(rows).values():
        row = _asked_row(members, due)
        if row is not None:
            # a schedule of several columns is one schedule per column (release_columns.split_columns) sharing
            # the caption and heads above them: the column's own head tells them apart ("operating lease
            # payments": "Operating Leases", not "Finance Leases", both saying "lease")
            found.append((len(_context_words(members, page_text) & named), len(_head_words(row.cells) & named),
                          -row.rank, row))
    if not found:
        return None
    found.sort(key=lambda f: f[:3], reverse=True)
    if found[0][0] == 0 or (len(found) > 1 and found[1][:3] == found[0][:3]):
        return None  # no schedule the question's words name, or two alike: which one is asked is unknown
    row = found[0][3]
    cell = _column(row, said)
    return [f"- {row.line(cell)}"] if cell is not None else None
