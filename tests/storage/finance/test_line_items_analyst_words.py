"""Words analysts ask items by that statements do not print: spelled-out EBIT, per *diluted share*, a basis in
parentheses, "FCF", "cash & equivalents", "R and D", "op margin", operating cash as an inflow or outflow,
"interest cost(s)" (but not a pension plan's interest cost, a part of its benefit cost), and the common
shareholders' earnings; and the labels printed for capex with intangibles and for common shareholders' earnings."""

import pytest

from storage.finance.line_items import asked_items, row_item


@pytest.mark.parametrize("question, concepts", [
    ("What were its adjusted earnings before interest and tax?", ["OperatingIncomeLoss"]),
    ("What was EBITDA (earnings before interest, taxes, depreciation and amortization)?",
     ["EBITDA", "DepreciationDepletionAndAmortization"]),
    ("What were earnings per diluted share in Q3?", ["EarningsPerShareDiluted"]),
    ("What was net income per basic share?", ["EarningsPerShareBasic"]),
    ("What was EPS (basic) in fiscal 2015?", ["EarningsPerShareBasic"]),
    ("What was the operating cash outflow for 2020?", ["NetCashProvidedByUsedInOperatingActivities"]),
    ("What were cash inflows from operating activities?", ["NetCashProvidedByUsedInOperatingActivities"]),
    ("What were earnings attributable to common shareholders?", ["NetIncomeLoss"]),
    ("What was income attributable to noncontrolling interests?", ["NetIncomeLossAttributableToNoncontrollingInterest"]),
    ("What was adjusted FCF in the quarter?", ["FreeCashFlow"]),
    ("What were cash & equivalents at June 30, 2020?", ["CashAndCashEquivalentsAtCarryingValue"]),
    ("What was R and D spending in FY2020?", ["ResearchAndDevelopmentExpense"]),
    ("What was the op margin in fiscal 2020?", ["OperatingMargin"]),
    ("What were interest costs in Q2 2023?", ["InterestExpense"]),
    ("What was the pension plans' interest cost in 2022?", []),
    ("What interest cost did the postretirement benefit plans report?", []),
    ("How much interest cost was capitalized in 2022?", []),
])
def test_asked_items(question, concepts):
    assert [a.item.concept for a in asked_items(question)] == concepts


@pytest.mark.parametrize("label, concept", [
    ("Income (Loss) Attributable to Common Shareholders", "NetIncomeLoss"),
    ("Net earnings available to common shareholders", "NetIncomeLoss"),
    ("Cash and equivalents", "CashAndCashEquivalentsAtCarryingValue"),
    ("Cash & equivalents", "CashAndCashEquivalentsAtCarryingValue"),
    ("Purchase of property, plant, and equipment, and other intangible assets", "PaymentsToAcquirePropertyPlantAndEquipment"),
])
def test_printed_labels(label, concept):
    item = row_item(label)
    assert (item and item.concept) == concept
