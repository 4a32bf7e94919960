"""A reconciling line of a GAAP-to-adjusted table asked by the total it moves ("How much did restructuring
reduce EPS", "… add back to reach adjusted EBIT", "… per the adjusted free cash flow reconciliation"):
the line's own figure answers, in the per-share column when a per-share total is asked, never the total's
row (generated release pages read by layout, storage/finance/reconciliation.py)."""

from __future__ import annotations

import pytest

from storage.finance.reconciliation import reconciled_total
from tests.agent.no_model.pdf_statements import asked_block, asked_lead
from tests.agent.no_model.test_figures_releases import grouped  # noqa: F401 (fixture)

GROUPS = ("Three Months Ended June 30, 2023", "Three Months Ended June 30, 2022")
EARNINGS_EPS = ("Earnings", "EPS")
CORE_ROWS = [
    ("Northwind's Earnings/EPS on a GAAP basis", "$ 406", "$ 0.19", "$ 356", "$ 0.17"),
    ("Non-core items:",),
    ("Amortization of pension settlement", "84", "0.04", "61", "0.03"),
    ("Restructuring and legal costs", "17", "0.01", "151", "0.07"),
    ("Northwind's Non-GAAP Core Earnings/EPS", "$ 507", "$ 0.24", "$ 568", "$ 0.27"),
]
YEARS = ("Twelve Months Ended June 30, 2022", "Twelve Months Ended June 30, 2023")
MEASURES = ("EBITDA", "EBIT", "Net income")
ADJUSTED_ROWS = [
    ("Net income attributable to Northwind", "805", "805", "805", "1,048", "1,048", "1,048"),
    ("Depreciation and amortization", "579", "", "", "569", "", ""),
    ("Amortization of acquired intangibles", "", "163", "163", "", "160", "160"),
    ("Impairment of goodwill", "37", "37", "30", "12", "12", "9"),
    ("Adjusted EBITDA, EBIT and Net income", "1,421", "1,005", "998", "1,629", "1,220", "1,217"),
]
CASH_ROWS = [
    ("Adjusted EBITDA", "2,117", "2,018"),
    ("Interest paid, net", "(119)", "(248)"),
    ("Income tax paid", "(256)", "(225)"),
    ("Movement in working capital", "(154)", "(229)"),
    ("Adjusted Free Cash Flow", "1,066", "848"),
]


def test_an_items_effect_on_eps_is_its_per_share_figure(grouped):
    sources, text = grouped("Reconciliation of GAAP Earnings to Non-GAAP Core Earnings", "(in millions, except per share amounts)",
                            GROUPS, EARNINGS_EPS, CORE_ROWS, gap=90)
    lead = asked_lead("How much did amortization of the pension settlement reduce Northwind's EPS in the three months "
                      "ended June 30, 2023?", sources, text)
    assert "Amortization of pension settlement" in lead and "84" not in lead, lead
    assert "$0.04 per share" in lead and "million" not in lead, lead  # the per-share column is said per share
    # asked as an amount the same line answers from its earnings column
    lead = asked_lead("How much did restructuring and legal costs reduce Northwind's core earnings in the three months "
                      "ended June 30, 2022?", sources, text)
    assert ": $151" in lead and "0.07" not in lead, lead


def test_an_item_added_back_to_reach_an_adjusted_total_is_its_line_not_the_total(grouped):
    sources, text = grouped("Reconciliation of adjusted EBITDA, EBIT and Net income", "($ million)", YEARS, MEASURES,
                            ADJUSTED_ROWS)
    lead = asked_lead("How much goodwill impairment did Northwind add back to reach adjusted EBITDA for the twelve months "
                      "ended June 30, 2023?", sources, text)
    assert ": $12" in lead and "1,629" not in lead, lead
    # the total named says the column: the net income column's line, not EBITDA's
    lead = asked_lead("How much goodwill impairment did Northwind add back to reach adjusted net income for the twelve "
                      "months ended June 30, 2022?", sources, text)
    assert ": $30" in lead, lead


def test_a_line_of_a_named_reconciliation_answers_from_its_row(grouped):
    sources, text = grouped("Reconciliation of Adjusted Free Cash Flow", "($ million)",
                            YEARS, ("",), CASH_ROWS, gap=120)
    lead = asked_lead("How much income tax did Northwind pay in the twelve months ended June 30, 2023 per the adjusted "
                      "free cash flow reconciliation?", sources, text)
    assert ": $(225) million" in lead, lead
    lead = asked_lead("What was the movement in working capital in Northwind's fiscal 2022 adjusted free cash flow, "
                      "for the twelve months ended June 30, 2022?", sources, text)
    assert "154" in lead and "1,066" not in lead, lead


@pytest.mark.parametrize("treated", ["did Northwind treat as non-core", "did Northwind classify as special items",
                                     "were recorded as non-GAAP adjustments by Northwind"])
def test_an_item_said_to_be_treated_as_non_core_is_its_reconciling_line(grouped, treated):
    sources, text = grouped("Reconciliation of GAAP Earnings to Non-GAAP Core Earnings", "(in millions, except per share amounts)",
                            GROUPS, EARNINGS_EPS, CORE_ROWS, gap=90)
    lead = asked_lead(f"What restructuring and legal costs {treated} in the three months ended June 30, 2022?", sources, text)
    assert ": $151" in lead and "0.07" not in lead, lead
    # a company's own treatment named with no item before it asks no line
    assert reconciled_total("What did Northwind treat as non-core in 2022?", frozenset({"northwind"})) is None


def test_a_total_asked_itself_is_still_the_total(grouped):
    sources, text = grouped("Reconciliation of adjusted EBITDA, EBIT and Net income", "($ million)", YEARS, MEASURES,
                            ADJUSTED_ROWS)
    assert ": $1,220" in asked_lead("What was Northwind's adjusted EBIT for the twelve months ended June 30, 2023?",
                                    sources, text)
    # the total the question names is no item of its own: nothing before it but the company
    assert reconciled_total("How much did Northwind add back to reach adjusted EBIT?", frozenset({"northwind"})) is None
    assert reconciled_total("How much did diluted EPS increase year over year?") is None
    assert reconciled_total("How much did foreign currency reduce net sales in 2023?") is None
    assert reconciled_total("What was Northwind's GAAP diluted EPS for the June 2023 quarter, in cents?") is None
    assert reconciled_total("What was the percentage increase in adjusted EBIT in 2023?") is None
    assert reconciled_total("How much did adjusted EBIT increase in fiscal 2023?") is None


def test_no_line_of_the_item_gives_no_total_in_its_place(grouped):
    sources, text = grouped("Reconciliation of GAAP Earnings to Non-GAAP Core Earnings", "(in millions, except per share amounts)",
                            GROUPS, EARNINGS_EPS, CORE_ROWS, gap=90)
    block = asked_block("How much did wildfire insurance recoveries reduce Northwind's EPS in the three months ended "
                        "June 30, 2023?", sources, text)
    assert not block or not any(v in " ".join(block) for v in ("0.19", "0.24")), block
