"""A bridge's end row names its fiscal year after the item ("Net sales fiscal year 2023"): the row is that line item,
of that year; a year that is part of the item's name ("Notes due 2025") leaves the label as it is."""

import pytest

from storage.finance.line_items import row_item


@pytest.mark.parametrize("printed", ["Net sales fiscal year 2023", "Net sales fiscal 2022", "Net sales FY2023", "Net sales FY 2022"])
def test_a_fiscal_year_after_the_item_is_no_part_of_it(printed):
    assert row_item(printed) is row_item("Net sales") is not None


@pytest.mark.parametrize("printed", ["Senior notes due 2025", "Fiscal 2023", "Net sales 2023 guidance"])
def test_a_year_that_names_something_else_keeps_the_label_unknown(printed):
    assert row_item(printed) is None
