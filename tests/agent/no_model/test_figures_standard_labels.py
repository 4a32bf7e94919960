"""Rows read by their line item's standard words, and cells by what their columns say: "Payments to acquire property,
plant and equipment" (the US-GAAP standard label's verb form) under "Cash flows - investing activities" answers capex;
"General and administrative" is its own line item, never SG&A; a table's lead-in saying its rows are share counts
names them; a label's own words choose no column. Generated PDFs read by layout."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401 (fixture)
from tests.agent.no_model.test_figures_releases import grouped  # noqa: F401 (fixture)

FLOWS = Page("CONSOLIDATED STATEMENTS OF CASH FLOWS", ("2021", "2020"), [
    ("Cash flows - investing activities:",),  # the section printed with a dash, not "from"
    ("Payments to acquire property, plant and equipment", "(980)", "(1,303)"),
    ("Proceeds from disposals of property, plant and equipment", "529", "296"),
    ("Net cash provided/(used) by investing activities", "9,324", "(18,366)"),
], caption="(Dollars in millions)")


def test_payments_to_acquire_property_answer_capex(statement_pdf):
    sources, text = statement_pdf([FLOWS])
    assert "(980)" in asked_lead("What was Northwind's capex in FY2021?", sources, text)
    assert "(1,303)" in asked_lead("What were Northwind's capital expenditures in 2020?", sources, text)


# general and administrative printed apart from selling and marketing (the taxonomy's GeneralAndAdministrativeExpense):
# its row answers "general and administrative expense" and "G&A" though the label omits "expense", and never the
# combined SG&A a question asks
EXPENSES = Page("CONSOLIDATED STATEMENTS OF OPERATIONS", ("2022", "2021"), [
    ("Revenues", "$ 31,352", "$ 26,492"),
    ("Operating expenses:",),
    ("Marketing and sales", "14,211", "11,855"),
    ("General and administrative", "3,999", "3,468"),
    ("Total operating expenses", "30,143", "25,943"),
], caption="(in millions)")


def test_general_and_administrative_is_its_own_line_item(statement_pdf):
    sources, text = statement_pdf([EXPENSES])
    assert "3,999" in asked_lead("What general and administrative expense did Northwind report for 2022?", sources, text)
    assert "3,468" in asked_lead("What were Northwind's G&A costs in fiscal 2021?", sources, text)
    # (the page prints no SG&A row: no figure, not the G&A part)
    assert asked_block("What were Northwind's selling, general and administrative expenses in 2022?", sources, text) is None


# a row of a known line item in a table its lead-in says is of share counts: "Common stock repurchased" is the number of
# shares bought back there, not the cash paid, and answers "how many shares" though its label omits "shares"
SHARES = Page("The following table shows the changes in shares of common stock for 2022 and 2021 (in thousands):",
              ("2022", "2021"), [
                  ("Common stock outstanding, beginning balances", "16,426,786", "16,976,763"),
                  ("Common stock repurchased", "(568,589)", "(656,340)"),
                  ("Common stock issued, net of shares withheld for employee taxes", "85,228", "106,363"),
                  ("Common stock outstanding, ending balances", "15,943,425", "16,426,786"),
              ], caption="", span="")


def test_a_lead_in_saying_shares_names_the_rows_a_share_count_question_asks(statement_pdf):
    sources, text = statement_pdf([SHARES])
    assert "(656,340)" in asked_lead("How many shares of common stock did Northwind repurchase in fiscal 2021?", sources, text)
    assert asked_block("How many preferred shares did Northwind repurchase in fiscal 2021?", sources, text) is None


# a row's cells of the asked year told apart by column titles: a word the row's own label prints ("revenues") says
# nothing of which column is asked; with no other word the question says, the total column answers (before, the label's
# "revenues" chose "Revenues Impacted", and the total column, its "total" dropped with the period words, was never chosen)
UTILITY_COLUMNS = ("Revenues Impacted", "Not Impacted", "Total Utility")
UTILITY_ROWS = [("Electric operating revenues", "$ 10,357", "$ 4,703", "$ 15,060"),
                ("Natural gas operating revenues", "4,163", "2,245", "6,408")]


def test_the_labels_own_words_choose_no_column(grouped):
    sources, text = grouped("Utility Revenues and Costs", "(in millions)", ("Year Ended December 31, 2022",), UTILITY_COLUMNS,
                            UTILITY_ROWS, gap=110)
    assert "$15,060" in asked_lead("How much electric operating revenue did Northwind report in 2022?", sources, text)
    assert "$6,408" in asked_lead("What natural gas operating revenues did Northwind report in 2022?", sources, text)
