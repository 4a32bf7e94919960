"""Which of several rows of one concept is the measure asked (issue 27, releases and 10-Qs): "EBIT" asked
is the printed "EBIT" row of a reconciliation, not the statement's operating income; "before adjustments"
asks the reported row and is no word a row prints; a net item printed gross and net ("Total property,
plant, and equipment" above the accumulated depreciation) is the row saying "net"; "the diluted share
count used for EPS" is the count (under "Denominator"), not EPS; "earnings per ordinary share" is EPS.
Generated PDFs read by layout."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401 (fixture)

QUARTER = ("2022", "2021")
INCOME = Page("CONDENSED CONSOLIDATED STATEMENTS OF INCOME", QUARTER, [
    ("Net sales", "3,680", "3,550"),
    ("Operating income", "559", "330"),
    ("Interest expense, net", "(70)", "(35)"),
    ("Net income", "466", "232"),
], span="Three Months Ended December 31,")
RECONCILIATION = Page("Reconciliation of Non-GAAP Measures", QUARTER, [
    ("Net income attributable to Northwind", "456", "224"),
    ("Add: Income tax expense", "36", "65"),
    ("Add: Interest expense, net", "70", "35"),
    ("EBIT", "562", "324"),
    ("Add: Restructuring, net", "(163)", "64"),
    ("Adjusted EBIT", "399", "388"),
], span="Three Months Ended December 31,")
BALANCE = Page("CONDENSED CONSOLIDATED BALANCE SHEETS", ("2022", "2021"), [
    ("Property, Plant, and Equipment",),
    ("Electric", "71,240", "67,010"),
    ("Gas", "27,103", "25,560"),
    ("Total property, plant, and equipment", "105,513", "98,960"),
    ("Accumulated depreciation", "(30,438)", "(29,134)"),
    ("Net property, plant, and equipment", "75,075", "69,826"),
], span="September 30, / December 31,")
EPS_NOTE = Page("Note 13 - Earnings Per Share", ("2022", "2021"), [
    ("Numerator",),
    ("Net income available to ordinary shareholders", "685", "426"),
    ("Denominator",),
    ("Weighted-average ordinary shares outstanding for EPS - basic", "1,474", "1,520"),
    ("Weighted-average ordinary shares outstanding for EPS - diluted", "1,486", "1,528"),
    ("Per ordinary share income",),
    ("Diluted earnings per ordinary share", "$ 0.461", "$ 0.279"),
], span="Six Months Ended December 31,")
FILE = "NORTHWIND_2023Q2_10Q.pdf"


def test_ebit_asked_is_the_printed_ebit_row_not_operating_income(statement_pdf):
    sources, text = statement_pdf([INCOME, RECONCILIATION], file=FILE)
    lead = asked_lead("What was Northwind's EBIT for the three months ended December 31, 2022?", sources, text)
    assert lead.startswith("- EBIT (") and "562" in lead, lead
    before = asked_lead("What was Northwind's EBIT, before adjustments, for the three months ended December 31, 2022?",
                        sources, text)
    assert before.startswith("- EBIT (") and "562" in before, before
    # operating income asked is still the statement's row; adjusted EBIT its own row
    assert "559" in asked_lead("What was Northwind's operating income for the three months ended December 31, 2022?",
                               sources, text)
    assert "399" in asked_lead("What was Northwind's adjusted EBIT for the three months ended December 31, 2022?",
                               sources, text)


def test_ebit_asked_where_none_is_printed_is_operating_income(statement_pdf):
    sources, text = statement_pdf([INCOME], file=FILE)
    assert "559" in asked_lead("What was Northwind's EBIT for the three months ended December 31, 2022?", sources, text)


def test_net_property_is_the_net_row_not_the_gross_total(statement_pdf):
    sources, text = statement_pdf([BALANCE], file=FILE)
    net = asked_lead("What was Northwind's net property, plant and equipment at September 30, 2022?", sources, text)
    assert net.startswith("- Net property, plant, and equipment (") and "75,075" in net, net
    plain = asked_lead("What was Northwind's property, plant and equipment at December 31, 2021?", sources, text)
    assert "69,826" in plain, plain


def test_the_share_count_used_for_eps_is_the_count(statement_pdf):
    sources, text = statement_pdf([EPS_NOTE], file=FILE)
    count = asked_lead("What diluted weighted-average share count did Northwind use for EPS in the six months ended "
                       "December 31, 2022?", sources, text)
    assert "1,486" in count and "diluted" in count, count
    eps = asked_lead("What were Northwind's diluted earnings per share in the six months ended December 31, 2022?",
                     sources, text)
    assert "0.461" in eps, eps


def test_earn_from_operations_and_per_diluted_share_are_their_line_items(statement_pdf):
    sources, text = statement_pdf([Page("CONSOLIDATED STATEMENTS OF INCOME", ("2023", "2022"), [
        ("Revenues", "50,000", "42,000"),
        ("Operating income", "15,300", "10,900"),
        ("Net income", "8,500", "6,700"),
        ("Earnings per share:",),
        ("Basic", "$ 3.15", "$ 2.49"),
        ("Diluted", "$ 3.07", "$ 2.41"),
    ], span="Year Ended May 31,")])
    assert "15,300" in asked_lead("What did Northwind earn from operations in fiscal 2023?", sources, text)
    diluted = asked_lead("What did Northwind earn per diluted share in FY2023?", sources, text)
    assert "3.07" in diluted, diluted
    assert "2.49" in asked_lead("What did Northwind earn per basic share in FY2022?", sources, text)
