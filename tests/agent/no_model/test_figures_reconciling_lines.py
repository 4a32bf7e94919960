"""Reconciling lines asked in other words than recon16's (issue 27, the reconciling gold's tune twin): the tax
on the adjustments ("tax effect of the adjustments on adjusted net income", "in arriving at"), a line printed
twice in one reconciliation (an amount block and a per-share block: "lower core EPS" reads the per-share one,
said per share), "the per-share effect of X on core EPS", "move"/"lift" a total, and points a line adds to a
growth (a printed line, never the total's growth computed). Generated pages read by layout as at answer time."""

from __future__ import annotations

from storage.finance.reconciliation import reconciled_total
from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401 (fixture)
from tests.agent.no_model.test_figures_releases import grouped  # noqa: F401 (fixture)

# an MD&A reconciliation of an amount block and a per-share block of the same lines (years as columns)
CORE = Page("Reconciliation of Non-GAAP Measures to GAAP Measures", ("2022", "2021", "2020"), [
    ("Revenues", "$66,608", "$62,286", "$58,158"),
    ("Loss from operations, as reported", "($3,547)", "($2,902)", "($12,767)"),
    ("Pension service cost adjustment", "($849)", "($882)", "($1,024)"),
    ("Retiree service cost adjustment", "(294)", "(291)", "(359)"),
    ("Core operating loss (non-GAAP)", "($4,690)", "($4,075)", "($14,150)"),
    ("Diluted loss per share, as reported", "($8.30)", "($7.15)", "($20.88)"),
    ("Pension service cost adjustment", "(1.43)", "(1.50)", "(1.80)"),
    ("Retiree service cost adjustment", "(0.49)", "(0.47)", "(0.63)"),
    ("Provision for deferred income taxes on adjustments", "0.73", "0.61", "0.64"),
    ("Core loss per share (non-GAAP)", "($11.06)", "($9.44)", "($23.25)"),
], caption="(Dollars in millions, except per share data)", span="Years ended December 31,")

# an MD&A reconciliation to adjusted EBIT and adjusted net income, with its tax line
ADJUSTED = Page("Presentation of Non-GAAP Information", ("2023", "2022"), [
    ("Net income attributable to Northwind, as reported", "1,048", "805"),
    ("Add: Income tax expense", "193", "300"),
    ("Add: Interest expense", "290", "159"),
    ("EBIT", "1,531", "1,264"),
    ("Add: Restructuring programs", "44", "37"),
    ("Add: Impact of hyperinflation", "24", "16"),
    ("Adjusted EBIT", "1,599", "1,317"),
    ("Less: Income tax expense", "(193)", "(300)"),
    ("Less: Adjustments to income tax expense", "(57)", "(32)"),
    ("Less: Interest expense", "(290)", "(159)"),
    ("Adjusted net income", "1,059", "826"),
], caption="($ in millions)", span="Years ended June 30,")

QUARTERS = ("Three Months Ended June 30, 2022", "Three Months Ended June 30, 2023")
MEASURES = ("EBITDA", "EBIT", "Net income")
GROWTH_ROWS = [
    ("Net income attributable to Northwind", "109", "109", "109", "181", "181", "181"),
    ("Tax expense", "103", "103", "", "68", "68", ""),
    ("Amortization of acquired intangibles", "", "42", "42", "", "40", "40"),
    ("Tax effect of above items", "", "", "4", "", "", "(12)"),
    ("Adjusted EBITDA, EBIT and Net income", "609", "505", "368", "540", "436", "282"),
    ("% growth - Adjusted EBITDA, EBIT and Net income", "", "", "", "(11)", "(14)", "(23)"),
    ("% items affecting comparability", "", "", "", "5", "6", "7"),
    ("% comparable constant currency growth", "", "", "", "(6)", "(8)", "(16)"),
]


def test_the_tax_on_the_adjustments_is_the_reconciliations_tax_line(statement_pdf):
    sources, text = statement_pdf([ADJUSTED])
    for question in ("What was the tax effect of the adjustments on Northwind's adjusted net income for fiscal 2023?",
                     "What tax adjustment on the non-GAAP items did Northwind deduct in arriving at adjusted net income "
                     "for fiscal 2023?"):
        lead = asked_lead(question, sources, text)
        assert "Adjustments to income tax expense" in lead and "(57)" in lead, (question, lead)


def test_the_tax_line_of_a_measures_table_reads_the_net_income_column(grouped):
    sources, text = grouped("Reconciliation of Non-GAAP Measures", "($ million)", QUARTERS, MEASURES, GROWTH_ROWS)
    lead = asked_lead("What was the tax effect of the adjustments on Northwind's adjusted net income for the three "
                      "months ended June 30, 2023?", sources, text)
    assert "Tax effect of above items" in lead and "(12)" in lead, lead


def test_no_tax_line_printed_is_no_figure_not_the_tax_expense(statement_pdf):
    plain = Page(ADJUSTED.title, ADJUSTED.columns, [r for r in ADJUSTED.rows if "Adjustments to" not in r[0]],
                 caption=ADJUSTED.caption, span=ADJUSTED.span)
    sources, text = statement_pdf([plain])
    block = asked_block("What tax effect of the adjustments did Northwind deduct to reach adjusted net income in "
                        "fiscal 2023?", sources, text) or []
    assert not any("193" in line or "(300)" in line for line in block[1:2]), block


def test_a_per_share_total_reads_the_per_share_block_said_per_share(statement_pdf):
    sources, text = statement_pdf([CORE])
    lead = asked_lead("How much did the pension service cost adjustment lower Northwind's core loss per share in 2021?",
                      sources, text)
    assert "(1.50)" in lead and "per share" in lead and "million" not in lead, lead
    lead = asked_lead("What was the per-share effect of the retiree service cost adjustment on Northwind's core loss per "
                      "share in 2022?", sources, text)
    assert "(0.49)" in lead and "per share" in lead, lead
    lead = asked_lead("What provision for deferred income taxes on adjustments did Northwind include in its 2020 core "
                      "loss per share reconciliation?", sources, text)
    assert "0.64" in lead and "per share" in lead, lead


def test_an_amount_total_reads_the_amount_block(statement_pdf):
    sources, text = statement_pdf([CORE])
    lead = asked_lead("How much did the retiree service cost adjustment reduce Northwind's core operating loss in 2021?",
                      sources, text)
    assert "(291)" in lead and "0.47" not in lead, lead


def test_points_a_line_adds_to_a_growth_are_its_line_never_the_growth_computed(grouped):
    sources, text = grouped("Reconciliation of Non-GAAP Measures", "($ million)", QUARTERS, MEASURES, GROWTH_ROWS)
    block = asked_block("How many percentage points did items affecting comparability add to Northwind's adjusted "
                        "EBIT growth in the three months ended June 30, 2023?", sources, text) or []
    assert not any("computed" in line for line in block), block
    assert not block or "6" in block[1] and "436" not in block[1], block


def test_wordings_of_a_lines_effect_name_the_total():
    asks = {"What was the tax effect of the adjustments on Northwind's adjusted net income in 2023?": "adjusted net income",
            "What did Northwind deduct in arriving at adjusted net income in 2023?": "adjusted net income",
            "How much did amortization lift Northwind's adjusted diluted EPS in 2023?": "adjusted diluted EPS",
            "How much did pension expense move Northwind's core loss per share in 2022?": "core loss per share",
            "What GAAP net income does the quarter's non-GAAP reconciliation start from?": "non-GAAP reconciliation",
            # "affecting" a total; a list of items named in passing; a company's ", Inc.'s" inside the total
            "How much restructuring expense did Northwind disclose as affecting its GAAP net income in 2020?": "GAAP net income",
            "What legal charge was among the special items affecting Northwind's operating income in 2023?":
                "among the special items affecting Northwind's operating income",
            "What income tax reform adjustment was among the certain charges in Northwind's supplemental disclosure "
            "for fiscal 2019?": "certain charges in Northwind's supplemental disclosure",
            "How much was the common unitholders' share of FFO subtracted to reach Northwind, Inc.'s FFO for 2011?":
                "Northwind, Inc.'s FFO",
            # the route to the total; removed from a GAAP figure on the way to it; the issuer's words lengthen no
            # total; a reconciliation named by what it reconciles, before or after the line
            "What adjustments to income tax expense did Northwind make on the way to adjusted net income in 2019?":
                "adjusted net income",
            "What non-operating pension expense per share did Northwind adjust for in reaching core EPS in 2019?": "core EPS",
            "How much did gains on sales of real estate take out of Northwind's 2015 net income on the way to FFO?":
                "net income on the way to FFO",
            "How much did gains on sales of real estate reduce Northwind Realty Holdings Limited Partnership's FFO "
            "relative to net income in 2014?": "Limited Partnership's FFO relative to net income",
            "In reconciling NOI to net income, what interest expense did Northwind subtract for 2014?":
                "reconciling NOI to net income",
            "What provision for deferred income taxes did Northwind include in reconciling to core EPS in 2016?":
                "reconciling to core EPS"}
    for question, total in asks.items():
        found = reconciled_total(question, frozenset({"northwind", "realty", "holdings"}))
        assert found is not None and total in found.total, (question, found)
    # the effect of a change on a total not asked as a line, a reconciliation naming no total: no reconciling total
    assert reconciled_total("What was the effect of exchange rates on cash in 2023?") is None
    assert reconciled_total("How did Northwind reconcile its accounts to the ledger?") is None
    assert reconciled_total("What was Northwind's revenue reaching customers in 2022?") is None


SEGMENTS = ("Films", "Bottles", "Other", "Total")
SEGMENT_ROWS = [
    ("Net income attributable to Northwind", "", "", "", "109", "", "", "", "181"),
    ("Restructuring programs", "12", "", "(1)", "11", "4", "2", "", "6"),
    ("Adjusted EBIT", "449", "96", "(39)", "505", "387", "73", "(24)", "436"),
]


def test_a_line_asked_of_the_companys_total_reads_the_total_column_not_a_parts(grouped):
    sources, text = grouped("Reconciliation of adjusted EBIT by reporting segment", "($ million)", QUARTERS, SEGMENTS,
                            SEGMENT_ROWS)
    lead = asked_lead("How much did restructuring programs add to Northwind's adjusted EBIT in the three months ended "
                      "June 30, 2022?", sources, text)
    assert ": $11" in lead and "Total" in lead, lead
    # the part named: its column
    lead = asked_lead("How much did restructuring programs in the Bottles segment add to adjusted EBIT in the three "
                      "months ended June 30, 2023?", sources, text)
    assert ": $2" in lead, lead


def test_the_reported_figure_a_reconciliation_starts_from_is_its_gaap_line(statement_pdf):
    sources, text = statement_pdf([ADJUSTED])
    lead = asked_lead("What reported net income attributable to Northwind does the fiscal 2023 adjusted EBIT "
                      "reconciliation begin with?", sources, text)
    assert "1,048" in lead, lead
    sources, text = statement_pdf([CORE])
    lead = asked_lead("What diluted loss per share did Northwind report under GAAP for 2022, before the core "
                      "adjustments?", sources, text)
    assert "(8.30)" in lead, lead


# measures non-GAAP by their very name (issue 27, the widened tune twin): a REIT's funds from operations, free cash flow
FFO = Page("Funds from Operations", ("2015", "2014", "2013"), [
    ("Net income attributable to Northwind common shareholders", "572,606", "433,111", "741,754"),
    ("Add:",),
    ("Real estate depreciation and amortization", "644,595", "646,463", "610,352"),
    ("Noncontrolling interests in property partnerships", "149,855", "30,561", "1,347"),
    ("Less:",),
    ("Gains on sales of real estate", "375,895", "168,039", "—"),
    ("Noncontrolling interests' share of Funds from Operations", "139,569", "93,864", "33,930"),
    ("Funds from Operations attributable to Northwind common shareholders", "823,715", "807,506", "751,464"),
], caption="(in thousands)", span="Year ended December 31,")
FREE_CASH_FLOW = Page("Free cash flow: we calculate free cash flow as follows:", ("2023", "2022"), [
    ("Net cash provided by operating activities", "$17,165", "$9,539"),
    ("Capital expenditures", "(8,695)", "(4,511)"),
    ("Free cash flow", "$8,470", "$5,028"),
], caption="(Dollars in millions)", span="Year Ended May 31,")


def test_a_measure_non_gaap_by_name_is_the_adjusted_figure_asked(statement_pdf):
    sources, text = statement_pdf([FFO])
    lead = asked_lead("What were Northwind's non-GAAP Funds from Operations attributable to common shareholders in 2014?",
                      sources, text)
    assert "807,506" in lead, lead
    sources, text = statement_pdf([FREE_CASH_FLOW])
    lead = asked_lead("What was Northwind's free cash flow (non-GAAP) in fiscal 2022?", sources, text)
    assert "5,028" in lead, lead
    # the GAAP line asked beside it is still its own row
    lead = asked_lead("What was Northwind's net cash provided by operating activities in fiscal 2022?", sources, text)
    assert "9,539" in lead, lead


def test_the_gaap_line_a_measures_reconciliation_starts_from_is_never_the_measure(statement_pdf):
    sources, text = statement_pdf([FFO])
    block = asked_block("What GAAP net income attributable to Northwind common shareholders does the 2013 FFO "
                        "reconciliation start from?", sources, text) or []
    assert not any("751,464" in line for line in block[1:2]), block
    assert block and "741,754" in block[1], block


def test_a_line_of_a_measures_calculation_named_in_passing(statement_pdf):
    sources, text = statement_pdf([FREE_CASH_FLOW])
    lead = asked_lead("What capital expenditures did Northwind deduct in its free cash flow calculation for fiscal 2022?",
                      sources, text)
    assert "(4,511)" in lead, lead
    lead = asked_lead("What capital expenditures did Northwind subtract from operating cash flow to get its non-GAAP "
                      "free cash flow for fiscal 2023?", sources, text)
    assert "(8,695)" in lead, lead


NOI = Page("Reconciliation of NOI to net income attributable to Northwind common shareholders", ("2015", "2014", "2013"), [
    ("Net operating income", "$1,563,905", "$1,466,452", "$1,334,441"),
    ("Add:",),
    ("Gains on sales of real estate", "375,895", "168,039", "4,000"),
    ("Less:",),
    ("General and administrative", "96,319", "98,937", "115,329"),
    ("Interest expense", "432,196", "455,743", "446,880"),
    ("Net income attributable to Northwind common shareholders", "572,606", "433,111", "741,754"),
], caption="(in thousands)", span="Years ended December 31,")


def test_a_line_asked_on_the_route_between_a_measure_and_net_income_is_its_row(statement_pdf):
    """A non-GAAP measure named as the reconciliation's other end ("in reconciling NOI to net income", "take out of net
    income on the way to FFO") names the table, not the row: the line is read, not refused as unadjusted."""
    sources, text = statement_pdf([NOI])
    lead = asked_lead("In reconciling NOI to net income, what interest expense did Northwind subtract for 2014?", sources, text)
    assert "455,743" in lead, lead
    lead = asked_lead("How much did gains on sales of real estate take out of Northwind's 2015 net income on the way to "
                      "NOI?", sources, text)
    assert "375,895" in lead, lead
    sources, text = statement_pdf([FFO])
    lead = asked_lead("What real estate depreciation and amortization did Northwind add on the way to FFO in 2013?",
                      sources, text)
    assert "610,352" in lead, lead


def test_gains_on_sales_of_an_asset_ask_no_revenue():
    from storage.finance.line_items import asked_items

    assert [a.item.concept for a in asked_items("How much did gains on sales of real estate add in 2015?")] == []
    assert [a.item.concept for a in asked_items("What proceeds from the sale of investments did Northwind report?")] == []
    assert [a.item.concept for a in asked_items("What were net sales of Northwind's phones in 2022?")] == ["Revenues"]
    assert [a.item.concept for a in asked_items("What were Northwind's sales in 2022?")] == ["Revenues"]


# a page printing no row that answers: the quoted prose is all the answer has (agent/no_model/figures.py no_row_line)
ASSETS = Page("CONDENSED CONSOLIDATED BALANCE SHEETS", ("June 30, 2023", "December 31, 2022"), [
    ("Total current assets", "3,673", "3,909"),
    ("Total assets", "71,181", "69,282"),
], span="")


def _prose_answer(question, sources, text, passage):
    from agent.no_model.extractive import compose_extractive_answer

    sources[0].text = passage
    return compose_extractive_answer(question, sources, lambda s: passage + "\n" + text(s))[0]


def test_a_sentence_stating_the_adjusted_figure_does_not_answer_the_gaap_one(statement_pdf):
    from agent.no_model.figures import NO_FIGURE
    from bench.figures_gold import lead_line

    sources, text = statement_pdf([ASSETS], file="NORTHWIND_2023Q2_EARNINGS.pdf")
    core = ("Northwind's non-GAAP core earnings, which exclude non-core items, were $494 million, or $0.23 per diluted "
            "share, in the second quarter of 2023.")
    answer = _prose_answer("What were Northwind's GAAP earnings in the second quarter of 2023, before non-core items?",
                           sources, text, core)
    assert NO_FIGURE in answer.splitlines()[0] and lead_line(answer) is None, answer
    gaap = "Northwind's GAAP earnings were $406 million in the second quarter of 2023."
    answer = _prose_answer("What were Northwind's non-GAAP core earnings in the second quarter of 2023?", sources, text, gaap)
    assert NO_FIGURE in answer.splitlines()[0] and lead_line(answer) is None, answer
    # the basis asked stated: the sentence answers as before
    answer = _prose_answer("What were Northwind's GAAP earnings in the second quarter of 2023, before non-core items?",
                           sources, text, gaap)
    assert "406" in (lead_line(answer) or ""), answer


def test_points_asked_are_stated_only_in_points_of_the_asked_words(statement_pdf):
    from agent.no_model.figures import NO_FIGURE
    from bench.figures_gold import lead_line

    sources, text = statement_pdf([ASSETS], file="NORTHWIND_2023Q4_EARNINGS.pdf")
    asked = "How many points of currency impact were in Northwind's adjusted EBIT growth in the June 2023 quarter?"
    margin = ("Adjusted EBIT margin of 12.8% in the June 2023 quarter includes an adverse impact of approximately "
              "100 basis points from pass-through.")
    answer = _prose_answer(asked, sources, text, margin)
    assert NO_FIGURE in answer.splitlines()[0] and lead_line(answer) is None, answer
    answer = _prose_answer("How many percentage points did items affecting comparability add to Northwind's adjusted "
                           "EBIT growth in the June 2023 quarter?", sources, text,
                           "Adjusted EBIT / sales % was 12.8 % in the June 2023 quarter and 13.6 % a year earlier.")
    assert NO_FIGURE in answer.splitlines()[0] and lead_line(answer) is None, answer
    stated = "Currency impact lowered adjusted EBIT growth by 1 percentage point in the June 2023 quarter."
    assert " 1 " in f" {lead_line(_prose_answer(asked, sources, text, stated)) or ''} ".replace("point", " "), stated


# a list of reconciling items named in passing (issue 27, the widened tune twin): "among the special items affecting
# operating income", "the certain charges behind its GAAP results"; its lines' words ("charge", "after-tax") need not
# be printed; a line so asked is read on a page printing a reconciliation, never a note's table of the same item
ITEMS = Page("The following is a summary of the effects of certain items affecting our financial results:", ("2023", "2022"), [
    ("Items affecting Operating Income:",),
    ("Business optimization and realignment costs", "$(309)", "$(278)"),
    ("Legal matters", "(35)", "(210)"),
    ("Items affecting Net Income:",),
    ("Retirement plans mark-to-market adjustments, net of tax", "$493", "$(1,199)"),
], caption="(in millions)", span="Years ended May 31,")
CASH_FLOWS = Page("CONSOLIDATED STATEMENTS OF CASH FLOWS", ("2023", "2022"), [
    ("Net income", "$3,972", "$3,826"),
    ("Retirement plans mark-to-market adjustments", "(650)", "1,578"),
], caption="(In millions)", span="Years ended May 31,")
CHARGES = Page("Our results included the following adjustments and other items that affected our GAAP net income:",
               ("2023", "2022"), [
    ("Amortization of intangible assets", "$3,582", "$1,150"),
    ("Restructuring", "490", "191"),
    ("Stock-based compensation, R&D and G&A", "2,346", "1,878"),
    ("Income tax effects", "(2,136)", "(1,723)"),
], caption="(in millions)", span="Year Ended May 31,")
PLANS = Page("Note 9. Restructuring activities", ("2024", "2023"), [
    ("Restructuring", "$61", "$71"),
], caption="(in millions)", span="Year Ended May 31,")


def test_a_line_of_a_list_of_items_named_in_passing(statement_pdf):
    sources, text = statement_pdf([ITEMS, CASH_FLOWS])
    lead = asked_lead("What legal matters charge was among the special items affecting Northwind's operating income in "
                      "fiscal 2023?", sources, text)
    assert "(35)" in lead, lead
    # under a heading naming the total ("Items affecting Net Income:"), the line net of tax, not the statement's pre-tax row
    lead = asked_lead("What retirement plans mark-to-market adjustment, net of tax, affected Northwind's net income in "
                      "fiscal 2022?", sources, text)
    assert "(1,199)" in lead and "1,578" not in lead, lead
    sources, text = statement_pdf([CHARGES, PLANS])
    lead = asked_lead("How much restructuring did Northwind list among the charges affecting its GAAP net income in "
                      "fiscal 2022?", sources, text)
    assert ": 191" in lead or "$191" in lead, lead
    lead = asked_lead("What R&D and G&A stock-based compensation did Northwind include in the certain charges behind its "
                      "GAAP results for fiscal 2023?", sources, text)
    assert "2,346" in lead, lead
    # the item printed only in a table that is no reconciliation: no line of the charges
    block = asked_block("How much restructuring did Northwind report among the certain charges for fiscal 2024?",
                        sources, text) or []
    assert not any("61" in line for line in block[1:2]), block


def test_one_amount_printed_as_a_cost_and_as_a_deduction_is_one_figure_not_two(statement_pdf):
    """The same line in the segment results table ("291", added back to segment results) and in the core earnings
    reconciliation ("(291)"): one figure in two sign conventions, not two figures of one label to choose between;
    another amount is."""
    def segments(retiree_2021: str) -> Page:
        return Page("Segment operating results", ("2022", "2021"), [
            ("Segment operating loss", "(1,200)", "(900)"),
            ("Pension service cost adjustment", "849", "882"),
            ("Retiree service cost adjustment", "294", retiree_2021),
            ("Loss from operations (GAAP)", "(3,547)", "(2,902)"),
            ("Core operating loss (non-GAAP)", "(4,690)", "(4,075)"),
        ], caption="(Dollars in millions)", span="Years ended December 31,")

    question = "How much did the retiree service cost adjustment reduce Northwind's core operating loss in 2021?"
    sources, text = statement_pdf([segments("291"), CORE])
    lead = asked_lead(question, sources, text)
    assert "291" in lead, lead
    sources, text = statement_pdf([segments("300"), CORE])
    block = asked_block(question, sources, text) or []
    assert not any("300" in line or "291" in line for line in block[1:2]), block


def test_an_adjusted_total_and_the_gaap_total_it_starts_from_are_two_figures(statement_pdf):
    """A segment note's reconciliation from the adjusted total (its segments under its heading) down to the GAAP one
    ("Adjusted EBIT ..." over its deductions and "EBIT ..."): two figures, not one label printed twice with two values (the adjusted one asked is
    stated)."""
    page = Page("Segment information", ("2023", "2022"), [
        ("Adjusted EBIT from continuing operations",),
        ("Films", "1,000", "900"),
        ("Bottles", "285", "242"),
        ("Adjusted EBIT from continuing operations", "1,285", "1,142"),
        ("Less: Restructuring programs", "(44)", "(37)"),
        ("EBIT from continuing operations", "1,241", "1,105"),
        ("Less: Interest expense", "(190)", "(210)"),
        ("Income from continuing operations before income taxes", "1,051", "895"),
    ], caption="(in millions)", span="For the years ended June 30,")
    sources, text = statement_pdf([page])
    lead = asked_lead("What was Northwind's adjusted EBIT from continuing operations for fiscal 2022?", sources, text)
    assert "1,142" in lead, lead


def _registrants_ffo(values_inc: tuple, values_lp: tuple) -> list[Page]:
    """A combined filing's FFO reconciliations of the parent and of its operating partnership, each page headed by its
    registrant's name line, the same labels and other values."""
    def page(entity: str, holders: str, values: tuple) -> Page:
        return Page(f"The following table presents a reconciliation of net income attributable to {holders} to FFO:",
                    ("2015", "2014"), [
                        ("Net income attributable to common holders", "572,606", "433,111"),
                        ("Add:",),
                        ("Real estate depreciation and amortization", *values),
                        ("Less:",),
                        ("Gains on sales of real estate", "375,895", "168,039"),
                        ("Funds from Operations", "841,306", "911,535"),
                    ], caption="(in thousands)", span="Years ended December 31,", above=["Table of Contents", entity])
    return [page("Northwind Realty, Inc.", "Northwind Realty, Inc. common shareholders", values_inc),
            page("Northwind Realty Limited Partnership", "Northwind Realty Limited Partnership unitholders", values_lp)]


def test_a_combined_filings_reconciliation_is_read_of_the_registrant_the_question_names(statement_pdf):
    """Pages of the parent's and of its operating partnership's reconciliations, headed by each registrant's name: the
    parent's for a question naming the issuer, the partnership's for one naming it (in the reconciled total too), and
    the reconciliation named a second time ("in its reconciliation to Funds from Operations") names no row's words."""
    sources, text = statement_pdf(_registrants_ffo(("644,595", "646,463"), ("637,954", "639,542")), issuer="Northwind Realty")
    lead = asked_lead("What real estate depreciation and amortization did Northwind Realty add back to net income in its "
                      "2014 reconciliation to Funds from Operations?", sources, text)
    assert "646,463" in lead, lead
    lead = asked_lead("How much did real estate depreciation and amortization add to Northwind Realty Limited "
                      "Partnership's FFO relative to net income in 2015?", sources, text)
    assert "637,954" in lead, lead
    # the name line, not a sentence or a line of figures naming a company
    from storage.documents.page_tables import page_entity

    assert page_entity("Table of Contents\nNorthwind Realty Limited Partnership\nThe following table") == \
        "Northwind Realty Limited Partnership"
    assert page_entity("Table of Contents\nWe sell to Contoso Inc. and others through the company.\n2015 2014") == ""
    assert page_entity("Payable to Contoso Inc. 2,400 2,100") == ""
