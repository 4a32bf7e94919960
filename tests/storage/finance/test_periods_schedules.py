"""A schedule of amounts by year (a maturity schedule: rows "2025", "2026", … "Thereafter", "Total") is one
concept in storage/finance/periods.py: which year sequences make one (`is_year_schedule`), which row labels
name a year of one (`schedule_row_year`) or the rows after it (`THEREAFTER_LABEL`). The layout reader's
one-column schedule and multi-column stub (storage/documents/table_layout) and the due-year answer
(agent/no_model/due_years) all count the years with it, so they agree on every sequence."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from agent.no_model.due_years import schedules
from storage.finance.periods import SCHEDULE_MIN_YEARS, THEREAFTER_LABEL, is_year_schedule, schedule_row_year
from tests.storage.documents.layout_pages import read_facts
from tests.storage.documents.due_year_pages import (DATED, LEASES, SCHEDULE, one_column_schedule, schedule_rows,
                                                    stub_schedule)

SEQUENCES = [
    ((2025, 2026, 2027, 2028), True),
    ((2025, 2026, 2027), True),  # SCHEDULE_MIN_YEARS
    ((2025, 2026), False),  # two years: a comparison
    ((2025, 2026, 2028, 2029), False),  # a gap
    ((2025, 2025, 2026, 2027), False),  # a repeat
    ((2028, 2027, 2026, 2025), False),  # descending: a table's periods
    ((), False),
]


@pytest.mark.parametrize("years, schedule", SEQUENCES)
def test_three_or_more_consecutive_ascending_years_make_a_schedule(years, schedule):
    assert is_year_schedule(years) is schedule
    assert is_year_schedule(iter(years)) is schedule  # any iterable, read once
    assert SCHEDULE_MIN_YEARS == 3


@pytest.mark.parametrize("label, year", [
    ("2025", 2025), (" Fiscal 2025 ", 2025), ("FY2025", 2025), ("fy 2025", 2025), ("Fiscal year 2025", 2025),
    ("Thereafter", None), ("2025 and thereafter", None), ("Total 2025", None), ("2025 Notes", None),
    ("Principal", None), ("1,250", None), ("", None),
])
def test_a_schedule_row_names_a_year_only_by_the_year_alone_or_its_fiscal_name(label, year):
    assert schedule_row_year(label) == year


@pytest.mark.parametrize("label, after", [
    ("Thereafter", True), ("2030 and thereafter", True), ("After 2029", True), ("after fiscal 2029", True),
    ("Beyond", True), ("2029", False), ("Total", False), ("Less: imputed interest", False),
])
def test_the_row_after_a_schedules_last_year(label, after):
    assert bool(THEREAFTER_LABEL.match(label)) is after


def _one_column_reads_a_schedule(years: tuple[int, ...]) -> bool:
    """The layout reader dates the one-column schedule's rows by its caption (the third row's figure, 2,400)."""
    caption = "Future principal payments of our borrowings at June 30, 2024 were as follows (in millions):"
    facts = read_facts(one_column_schedule(caption, title="Principal Payments", years=years))
    return any(f.value_text.lstrip("$") == "2,400" and f.fiscal_year == 2024 for f in facts)


def _stub_reads_a_schedule(years: tuple[int, ...]) -> bool:
    """The layout reader takes the stub's years as the multi-column schedule's row labels."""
    rows = [(str(y), *values) for y, (_, *values) in zip(years, SCHEDULE)] + SCHEDULE[len(years):]
    return str(years[0]) in schedule_rows(stub_schedule(DATED, LEASES, rows=rows))


def _answer_reads_a_schedule(years: tuple[int, ...]) -> bool:
    rows = [SimpleNamespace(table=1, label=str(y)) for y in years] + [SimpleNamespace(table=1, label="Thereafter")]
    return 1 in schedules(rows)


@pytest.mark.parametrize("years", [(2025, 2026, 2027, 2028), (2025, 2026, 2028, 2029), (2028, 2027, 2026, 2025)])
def test_the_layout_reader_and_the_due_year_answer_count_the_same_years(years):
    want = is_year_schedule(years)
    assert (_one_column_reads_a_schedule(years), _stub_reads_a_schedule(years), _answer_reads_a_schedule(years)) \
        == (want, want, want)
