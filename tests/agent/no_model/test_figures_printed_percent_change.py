"""A release prints each row's change beside its two periods, the amount under "Inc/(Dec)" and the percentage under a
column titled "%" alone (the period phrase over the header spans it too: "Quarters Ended December 31, %"): a change asked
in percent is that printed figure, before any computing. Generated release page read by layout."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, asked_block, statement_pdf  # noqa: F401 (fixture)

RESULTS = Page("CONDENSED CONSOLIDATED STATEMENT OF INCOME", ("2022", "2021", "Inc/(Dec)", "%"), [
    ("Total revenues", "4,210.5", "4,302.1", "(91.6)", "(2)"), ("Operating income", "1,544.7", "1,431.0", "113.7", "8"),
    ("Net income", "$ 1,103.4", "$ 958.8", "$ 144.6", "15 %")],
    caption="Dollars in millions", span="Quarters Ended December 31,", first_column=330, gap=70)


def test_a_percent_change_asked_is_the_printed_percent_column(statement_pdf):
    sources, text = statement_pdf([RESULTS], file="NORTHWIND_2022Q4_EARNINGS.pdf", issuer="Northwind")
    block = asked_block("By what percentage did Northwind's operating income increase in the fourth quarter of 2022?", sources, text)
    assert block and "(computed)" not in block[1] and "8%" in block[1], block
    block = asked_block("What was Northwind's percentage change in net income for the quarter ended December 31, 2022?", sources, text)
    assert block and "(computed)" not in block[1] and "15%" in block[1], block


def test_a_percent_column_after_another_period_is_no_change_of_the_pair(statement_pdf):
    shares = Page("Revenue mix", ("2022", "2021", "%"), [("Total revenues", "4,210.5", "4,302.1", "(2)")],
                  caption="Dollars in millions", span="Quarters Ended December 31,", first_column=330, gap=70)
    sources, text = statement_pdf([shares], file="NORTHWIND_2022Q4_EARNINGS.pdf", issuer="Northwind")
    block = asked_block("By what percentage did Northwind's total revenues change in the fourth quarter of 2022?", sources, text)
    assert block and "(computed)" in block[1], block  # no change column printed before the "%": computed from the levels
