"""Column periods as printed, parsed by storage/finance/periods.py."""

from __future__ import annotations

from datetime import date

import pytest

from storage.finance.periods import parse_period


@pytest.mark.parametrize("text, start, end, months, as_of", [
    ("Years ended December 31, 2022", date(2022, 1, 1), date(2022, 12, 31), 12, None),
    ("Three Months Ended June 30, 2023", date(2023, 4, 1), date(2023, 6, 30), 3, None),
    ("Nine Months Ended September 30, 2022", date(2022, 1, 1), date(2022, 9, 30), 9, None),
    ("Six Months Ended July 29, 2023", date(2023, 1, 30), date(2023, 7, 29), 6, None),
    ("52 weeks ended January 28, 2023", date(2022, 1, 29), date(2023, 1, 28), 12, None),
    ("December 31, 2022", None, date(2022, 12, 31), None, date(2022, 12, 31)),
    ("Balance at December 31, 2022", None, date(2022, 12, 31), None, date(2022, 12, 31)),
])
def test_a_printed_period_is_its_span_or_its_date(text, start, end, months, as_of):
    p = parse_period(text)
    assert (p.start, p.end, p.months, p.as_of) == (start, end, months, as_of)


def test_a_year_alone_names_the_year_only():
    p = parse_period("2022")
    assert (p.year, p.end, p.months) == (2022, None, None)
    assert parse_period("Fiscal 2022").months == 12
