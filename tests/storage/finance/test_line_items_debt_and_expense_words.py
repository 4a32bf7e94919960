"""Labels filings print for total debt and for general and administrative expense: the debt note's total of its
notes payable and other borrowings is total debt (the principal subtotal above it is not); "General and
administrative" printed apart from selling is its own line item, and SG&A asked stays SG&A."""

import pytest

from storage.finance.line_items import asked_items, row_item


@pytest.mark.parametrize("label, concept", [
    ("Total notes payable and other borrowings", "DebtLongtermAndShorttermCombinedAmount"),
    ("Total notes payable and borrowings", "DebtLongtermAndShorttermCombinedAmount"),
    ("Notes payable and other borrowings, non-current", "LongTermDebtNoncurrent"),
    ("Total senior notes and other borrowings", None),
    ("General and administrative", "GeneralAndAdministrativeExpense"),
    ("Total general and administrative expenses", "GeneralAndAdministrativeExpense"),
    ("Selling, general and administrative", "SellingGeneralAndAdministrativeExpense"),
])
def test_printed_labels(label, concept):
    item = row_item(label)
    assert (item and item.concept) == concept


@pytest.mark.parametrize("question, concept", [
    ("What general and administrative expense did it report?", "GeneralAndAdministrativeExpense"),
    ("What G&A costs did it have in 2022?", "GeneralAndAdministrativeExpense"),
    ("What was SG&A in 2022?", "SellingGeneralAndAdministrativeExpense"),
    ("What selling, general and administrative expenses did it report?", "SellingGeneralAndAdministrativeExpense"),
])
def test_asked_items(question, concept):
    assert [a.item.concept for a in asked_items(question)] == [concept]
