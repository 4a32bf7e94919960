"""Periods and units a table prints in its column heads or between its rows (issue 27, item 1): a footnote
mark on a line of its own between two rows does not end the table; a headcount row of a "$ in millions" table
counts people; one date over columns titled "Level 1 ... Total" dates every column; a column only the total
row fills is kept when a title stands over it, and a column headed "Sales %" or "%(1)" holds percents."""

from __future__ import annotations

import pymupdf

from tests.storage.documents.layout_pages import FONT, Statement, _rights, draw, fact, read_facts, right_aligned

YEARS5 = [["2018", "2017", "2016", "2015", "2014"]]


def _with_marks(st: Statement, marks: list[tuple[int, int]], pitch: float) -> bytes:
    """A PDF of `st` with a footnote mark "(2)" printed small on a line of its own above row k, over column c."""
    doc = pymupdf.open()
    page = doc.new_page()
    draw(page, st)
    first = 90 + 14 * len(st.title) + 4 + 12 * len(st.header) + 4
    rights = _rights(st.n)
    for k, c in marks:
        right_aligned(page, rights[c] + 8, first + pitch * k - pitch / 2, "(2)", size=FONT - 3)
    data = doc.tobytes()
    doc.close()
    return data


def test_a_footnote_mark_line_between_rows_keeps_the_table_and_a_workforce_row_counts_people():
    st = Statement(["Five-Year Summary (Unaudited)"], YEARS5,
                   [("Revenues", "$101,127", "$94,005", "$93,496", "$96,114", "$90,762"),
                    ("Diluted earnings per share", "17.85", "13.85", "7.83", "7.44", "7.38"),
                    ("Operating cash flow", "$15,322", "$13,346", "$10,496", "$9,363", "$8,858"),
                    ("Total backlog", "$490,481", "$474,640", "$473,492", "$489,299", "$502,391"),
                    ("Year-end workforce", "153,000", "140,800", "150,500", "161,400", "165,500")],
                   header_left={0: "(Dollars in millions, except per share data)"}, row_pitch=18)
    facts = read_facts(_with_marks(st, [(3, 3)], 18))
    backlog = fact(facts, "Total backlog", 1)
    assert (backlog.value, backlog.fiscal_year, backlog.unit, backlog.scale) == (474640, 2017, "USD", 1e6)
    people = fact(facts, "Year-end workforce", 2)
    assert (people.value, people.fiscal_year, people.unit, people.scale) == (150500, 2016, "people", 1.0)
    assert fact(facts, "Diluted earnings per share", 0).scale == 1.0
    assert fact(facts, "Revenues", 4).scale == 1e6


def test_a_reduction_in_workforce_is_an_amount():
    st = Statement(["Restructuring", "(In millions)"], [["2023", "2022"]],
                   [("Reduction in workforce", "120", "85"), ("Facility exits", "40", "22"), ("Total", "160", "107")])
    facts = read_facts(_with_marks(st, [], 13))
    assert fact(facts, "Reduction in workforce", 0).unit == "USD"
    assert fact(facts, "Reduction in workforce", 0).scale == 1e6


def test_one_date_over_level_columns_dates_every_column():
    st = Statement([], [["June 30, 2022"], ["Level 1", "Level 2", "Level 3", "Total"]],
                   [("Assets",),
                    ("Commodity contracts", "$-", "$6", "$-", "$6"),
                    ("Forward exchange contracts", "-", "7", "-", "7"),
                    ("Total assets measured at fair value", "$-", "$13", "$-", "$13"),
                    ("Liabilities",),
                    ("Interest rate swaps", "-", "69", "-", "69"),
                    ("Total liabilities measured at fair value", "$-", "$89", "$16", "$105")],
                   header_left={1: "($ in millions)"})
    facts = read_facts(_with_marks(st, [], 13))
    for column in range(4):
        f = fact(facts, "Total liabilities measured at fair value", column)
        assert (f.period_end, f.as_of) == ("2022-06-30", "2022-06-30"), (column, f.period)
    assert fact(facts, "Total liabilities measured at fair value", 3).scale == 1e6


def test_a_percent_titled_column_only_the_total_row_fills_is_kept_as_percents():
    st = Statement(["Segment Information"],
                   [[("Twelve Months Ended June 30, 2023", 0, 3)], ["Net sales", "EBIT", "EBIT /", "funds employed"],
                    ["$ million", "$ million", "Sales %", "%(1)"]],
                   [("Flexibles", "11,154", "1,429", "12.8", ""),
                    ("Rigid Packaging", "3,540", "265", "7.5", ""),
                    ("Other", "-", "(86)", "", ""),
                    ("Total Amcor", "14,694", "1,608", "10.9", "15.4")],
                   header_left={1: "Adjusted non-GAAP", 2: "results"})
    facts = read_facts(_with_marks(st, [], 13))
    total = [fact(facts, "Total Amcor", c) for c in range(4)]
    assert [f.value for f in total] == [14694, 1608, 10.9, 15.4]
    assert [(f.unit, f.scale) for f in total] == [("USD", 1e6), ("USD", 1e6), ("%", 1.0), ("%", 1.0)]
    assert all(f.period_end == "2023-06-30" and f.duration_months == 12 for f in total)
    flex = fact(facts, "Flexibles", 2)
    assert (flex.value, flex.unit, flex.scale) == (12.8, "%", 1.0)


def test_a_label_whose_figures_are_printed_on_the_next_line_names_them_and_heads_no_section():
    st = Statement(["Condensed Consolidated Statements of Comprehensive Income"],
                   [[("Three Months Ended December 31,", 0, 1), ("Six Months Ended December 31,", 2, 3)], ["2022", "2021", "2022", "2021"]],
                   [("Net income", "$461", "$229", "$695", "$432"),
                    ("Other comprehensive income/(loss):",),
                    ("Net gains/(losses) on cash flow hedges, net of tax (a)", "4", "(5)", "(3)", "(7)"),
                    ("Foreign currency translation adjustments, net of tax (b)",),
                    ("", "144", "(21)", "(17)", "(116)"),
                    ("Pension, net of tax (c)", "(1)", "3", "(1)", "3"),
                    ("Total comprehensive income", "608", "206", "674", "312")],
                   header_left={1: "($ in millions)"})
    facts = read_facts(_with_marks(st, [], 13))
    fx = fact(facts, "Foreign currency translation adjustments, net of tax (b)", 0)
    assert (fx.value, fx.period_end, fx.duration_months, fx.scale) == (144, "2022-12-31", 3, 1e6)
    assert fact(facts, "Foreign currency translation adjustments, net of tax (b)", 3).value == -116
    pension = fact(facts, "Pension, net of tax (c)", 1)
    assert "Foreign currency" not in pension.section and pension.value == 3
    assert not [f for f in facts if f.label == ""]


def test_an_unlabelled_total_under_a_section_with_a_colon_stays_unlabelled():
    st = Statement(["Balance Sheets", "(In millions)"], [["2023", "2022"]],
                   [("Current assets:",), ("Cash", "100", "90"), ("Receivables", "200", "180"), ("", "300", "270"),
                    ("Property, net", "500", "450")])
    facts = read_facts(_with_marks(st, [], 13))
    total = [f for f in facts if f.value == 300]
    assert total and total[0].label == ""


def test_per_share_adjustments_with_dashes_and_three_places_are_not_millions():
    recon = Statement(["Reconciliation of Non-GAAP Measures", "($ million)"], [["Fiscal 2023", "Fiscal 2022"]],
                      [("Net income attributable to Amcor plc", "1,048", "805"),
                       ("Diluted EPS, as reported", "0.705", "0.529"),
                       ("Amortization of acquired intangibles", "0.083", "0.081"),
                       ("Russia-Ukraine conflict impacts", "(0.061)", "-"),
                       ("Pension settlements", "-", "0.004"),
                       ("Adjusted EBIT", "1,608", "1,701")])
    facts = read_facts(_with_marks(recon, [], 13))
    for label, column in (("Amortization of acquired intangibles", 0), ("Russia-Ukraine conflict impacts", 0),
                          ("Pension settlements", 1), ("Diluted EPS, as reported", 1)):
        assert fact(facts, label, column).scale == 1.0, label
    assert fact(facts, "Adjusted EBIT", 0).scale == 1e6
    assert fact(facts, "Net income attributable to Amcor plc", 1).scale == 1e6


def test_an_award_table_s_price_and_term_columns_are_per_share_and_years():
    st = Statement(["Stock option activity", "(in millions, except exercise price)"],
                   [["May 31, 2016"], ["Options", "Weighted-Average", "Remaining Contractual", "Aggregate"],
                    ["Outstanding", "Exercise Price", "Term (in years)", "Intrinsic Value"]],
                   [("Balance, May 31, 2016", "397", "$29.66", "5.57", "$3,210"),
                    ("Vested", "250", "$27.52", "4.83", "$2,400"),
                    ("Expected to vest", "147", "$33.91", "7.20", "$810")], columns=4)
    facts = read_facts(_with_marks(st, [], 13))
    price = fact(facts, "Vested", 1)
    assert (price.value, price.unit, price.scale) == (27.52, "USD/share", 1.0)
    term = fact(facts, "Vested", 2)
    assert (term.unit, term.scale) == ("years", 1.0)
    assert fact(facts, "Vested", 3).scale == 1e6
    assert fact(facts, "Vested", 0).scale == 1e6


def test_the_stub_head_left_of_the_column_titles_is_the_table_s_caption():
    st = Statement(["Segment Information"],
                   [[("Twelve Months Ended June 30, 2023", 0, 2)], ["Net sales", "EBIT", "EBIT /"],
                    ["$ million", "$ million", "Sales %"]],
                   [("Flexibles", "11,154", "1,429", "12.8"), ("Rigid Packaging", "3,540", "265", "7.5"),
                    ("Total Amcor", "14,694", "1,608", "10.9")],
                   header_left={1: "Adjusted non-GAAP", 2: "results"})
    facts = read_facts(_with_marks(st, [], 13))
    assert "Adjusted non-GAAP results" in fact(facts, "Total Amcor", 1).path
    plain = Statement(["Segment Information", "(In millions, except per share amounts)"], [["2023", "2022"]],
                      [("Flexibles", "11,154", "11,151"), ("Rigid Packaging", "3,540", "3,393")])
    assert all(p in ("Segment Information",) for p in fact(read_facts(_with_marks(plain, [], 13)), "Flexibles", 0).path)

