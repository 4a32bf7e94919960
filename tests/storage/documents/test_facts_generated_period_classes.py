"""Facts read at ingestion on the layout classes no earlier round read (issue 27, item 1), each a generated page
(tests/storage/documents/layout_pages.py): fiscal calendars whose year label and end date's year differ,
roll-forwards whose period is in the row label, quarterly tables with four or more period columns, period groups
side by side, interim balance sheets, captions under multi-line titles or only over the columns, and the rows a
caption never scales (percentages, ratios, per-share amounts) or scales by the shares' own scale."""

from __future__ import annotations

import pytest

from tests.storage.documents.layout_pages import Statement, as_of as _as_of, check_fact as _check, fact, facts_of, span as _span

MONEY = {"unit": "USD", "scale": 1e6}
INCOME = [("Net sales", "$ 4,120", "$ 3,880"), ("Gross profit", "1,730", "1,655"), ("Net earnings", "$ 655", "$ 590"),
          ("Diluted earnings per share", "$ 1.30", "$ 1.17")]


# ---------------------------------------------------------------- 52/53-week retail calendars

# a retailer's fiscal year ends near the end of January: some name it by the year it starts in ("Fiscal 2022"
# ended January 28, 2023), others by the year it ends in ("Fiscal 2023"); the printed label is the year's name
@pytest.mark.parametrize("labels, years", [(["Fiscal 2022", "Fiscal 2021"], (2022, 2021)),
                                           (["Fiscal 2023", "Fiscal 2022"], (2023, 2022)),
                                           (["FY2022", "FY2021"], (2022, 2021))])
@pytest.mark.parametrize("shape", ["label over full date", "label over weeks over date", "label over month-day over year"])
def test_a_fiscal_year_label_names_the_year_its_dates_end_in_another(labels, years, shape):
    ends = ["January 28, 2023", "January 29, 2022"]
    header = {"label over full date": [labels, ends],
              "label over weeks over date": [labels, ["52 Weeks Ended", "52 Weeks Ended"], ends],
              "label over month-day over year": [labels, ["January 28,", "January 29,"], ["2023", "2022"]]}[shape]
    facts = facts_of(Statement(["ACME STORES, INC.", "CONSOLIDATED STATEMENTS OF EARNINGS",
                                "(In millions, except per share data)"], header, INCOME))
    _check(facts, "Net sales", 0, value=4120.0, fiscal_year=years[0], period_end="2023-01-28", duration_months=12, **MONEY)
    _check(facts, "Diluted earnings per share", 1, value=1.17, fiscal_year=years[1], unit="USD/share", scale=1.0,
           period_end="2022-01-29", duration_months=12)


def test_a_date_without_a_fiscal_label_names_the_year_it_ends_in():
    facts = facts_of(Statement(["CONSOLIDATED STATEMENTS OF EARNINGS", "(In millions)"],
                               ["Fiscal Years Ended", ["January 28, 2023", "January 29, 2022"]], INCOME))
    _check(facts, "Net sales", 0, value=4120.0, fiscal_year=2023, period_end="2023-01-28", duration_months=12, **MONEY)


# ---------------------------------------------------------------- roll-forwards: the period in the row label

GOODWILL = [("Balance at December 31, 2021", "$ 1,200", "$ 840", "$ 2,040"), ("Acquisitions", "310", "-", "310"),
            ("Foreign currency translation", "(25)", "(12)", "(37)"), ("Balance at December 31, 2022", "$ 1,485", "$ 828", "$ 2,313"),
            ("Acquisitions", "95", "40", "135"), ("Balance at December 31, 2023", "$ 1,580", "$ 868", "$ 2,448")]


@pytest.mark.parametrize("balance", ["Balance at {}", "Balance as of {}", "Balance, {}", "Balances at {}"])
def test_a_goodwill_roll_forward_by_segment_reads_each_rows_period_from_its_balances(balance):
    rows = [(balance.format(r[0].split(" at ")[1]), *r[1:]) if r[0].startswith("Balance") else r for r in GOODWILL]
    facts = facts_of(Statement(["The changes in the carrying amount of goodwill were as follows (in millions):"],
                               [["Americas", "International", "Total"]], rows))
    end = [f for f in facts if f.value == 2313.0]
    assert [(f.as_of, f.scale, f.unit) for f in end] == [("2022-12-31", 1e6, "USD")]
    moves = [f for f in facts if f.value == 135.0]
    assert [(f.period_end, f.duration_months, f.fiscal_year) for f in moves] == [("2023-12-31", 12, 2023)]


def test_a_one_column_roll_forward_of_a_reserve():
    rows = [("Balance at January 1, 2022", "$ 412"), ("Additions charged to expense", "96"), ("Write-offs", "(71)"),
            ("Balance at December 31, 2022", "437"), ("Additions charged to expense", "88"), ("Write-offs", "(64)"),
            ("Balance at December 31, 2023", "$ 461")]
    facts = facts_of(Statement(["Allowance for credit losses", "(In millions)"], [["Allowance"]], rows))
    assert [(f.as_of, f.scale) for f in facts if f.value == 437.0] == [("2022-12-31", 1e6)]
    assert [(f.period_end, f.duration_months) for f in facts if f.value == 88.0] == [("2023-12-31", 12)]


# ---------------------------------------------------------------- four and more period columns

QUARTERS = ["First Quarter", "Second Quarter", "Third Quarter", "Fourth Quarter"]


def test_a_quarterly_table_with_a_full_year_column():
    rows = [("Net revenues", "$ 1,740", "$ 1,803", "$ 1,715", "$ 1,782", "$ 7,040"),
            ("Net income", "195", "210", "190", "200", "795"), ("Diluted earnings per share", "$ 0.39", "$ 0.42", "$ 0.38", "$ 0.40", "$ 1.59")]
    facts = facts_of(Statement(["Quarterly Financial Data (unaudited)", "(In millions, except per share amounts)"],
                               [[("Fiscal 2023", 0, 4)], [*QUARTERS, "Full Year"]], rows))
    q3 = fact(facts, "Net revenues", 2)
    assert (q3.value, q3.fiscal_year, q3.duration_months, q3.scale) == (1715.0, 2023, 3, 1e6)
    year = fact(facts, "Net income", 4)
    assert (year.value, year.fiscal_year, year.duration_months, year.scale) == (795.0, 2023, 12, 1e6)
    eps = fact(facts, "Diluted earnings per share", 3)
    assert (eps.value, eps.fiscal_year, eps.duration_months, eps.unit, eps.scale) == (0.40, 2023, 3, "USD/share", 1.0)


def test_quarters_ended_on_their_own_dates():
    rows = [("Net revenues", "$ 1,740", "$ 1,803", "$ 1,715", "$ 1,782"), ("Net income", "195", "210", "190", "200")]
    facts = facts_of(Statement(["Quarterly Results", "(In millions)"],
                               ["Three Months Ended", ["April 1,", "July 1,", "September 30,", "December 30,"],
                                ["2023", "2023", "2023", "2023"]], rows))
    _check(facts, "Net revenues", 1, value=1803.0, **_span("2023-04-02", "2023-07-01", 3), **MONEY)
    _check(facts, "Net income", 3, value=200.0, **_span("2023-10-01", "2023-12-30", 3), **MONEY)


def test_two_fiscal_years_of_quarters_side_by_side():
    rows = [("Revenues", "$ 1,740", "$ 1,803", "$ 1,715", "$ 1,782", "$ 1,610", "$ 1,650", "$ 1,590", "$ 1,702"),
            ("Net income", "195", "210", "190", "200", "160", "171", "150", "181")]
    facts = facts_of(Statement(["Quarterly Results (unaudited)", "(In millions)"],
                               [[("Fiscal 2023", 0, 3), ("Fiscal 2022", 4, 7)], ["Q1", "Q2", "Q3", "Q4"] * 2], rows))
    for col, (value, year) in {1: (1803.0, 2023), 4: (1610.0, 2022), 7: (1702.0, 2022)}.items():
        f = fact(facts, "Revenues", col)
        assert (f.value, f.fiscal_year, f.duration_months, f.scale) == (value, year, 3, 1e6), f.period


def test_quarter_columns_under_year_sections():
    rows = [("Fiscal 2023", ), ("Net sales", "$ 1,740", "$ 1,803", "$ 1,715", "$ 1,782"), ("Net income", "195", "210", "190", "200"),
            ("Fiscal 2022", ), ("Net sales", "$ 1,610", "$ 1,650", "$ 1,590", "$ 1,702"), ("Net income", "160", "171", "150", "181")]
    facts = facts_of(Statement(["Selected Quarterly Financial Data (unaudited)", "(In millions)"], [QUARTERS], rows))
    got = {(f.value, f.fiscal_year, f.duration_months, f.scale) for f in facts if f.label == "Net sales" and f.column == 1}
    assert got == {(1803.0, 2023, 3, 1e6), (1650.0, 2022, 3, 1e6)}


# ---------------------------------------------------------------- period groups side by side

@pytest.mark.parametrize("align", ["centre", "right"])
@pytest.mark.parametrize("groups, months", [(("Three Months Ended", "Nine Months Ended"), 9), (("13 Weeks Ended", "39 Weeks Ended"), 9),
                                            (("Quarter Ended", "Year-to-Date Ended"), None)])  # a span whose length is not printed
def test_three_and_nine_months_side_by_side(groups, months, align):
    rows = [("Net revenues", "$ 2,540", "$ 2,422", "$ 7,624", "$ 7,331"), ("Net income", "655", "590", "1,905", "1,702"),
            ("Diluted earnings per share", "$ 1.30", "$ 1.17", "$ 3.78", "$ 3.39")]
    header = [[(groups[0], 0, 1), (groups[1], 2, 3)], [("September 30,", 0, 1), ("September 30,", 2, 3)], ["2023", "2022"] * 2]
    facts = facts_of(Statement(["CONDENSED CONSOLIDATED STATEMENTS OF INCOME", "(In millions, except per share amounts)",
                                "(Unaudited)"], header, rows, align=align))
    q, ytd = fact(facts, "Net revenues", 1), fact(facts, "Net income", 2)
    assert (q.value, q.period_end, q.duration_months, q.scale) == (2422.0, "2022-09-30", 3, 1e6)
    assert (ytd.value, ytd.period_end, ytd.duration_months, ytd.as_of, ytd.scale) == (1905.0, "2023-09-30", months, None, 1e6)
    _check(facts, "Diluted earnings per share", 3, value=3.39, unit="USD/share", scale=1.0)


# ---------------------------------------------------------------- interim balance sheets

@pytest.mark.parametrize("header, ends", [
    ([["September 30, 2023", "December 31, 2022"]], ("2023-09-30", "2022-12-31")),
    ([["September 30,", "December 31,"], ["2023", "2022"], ["(Unaudited)", ""]], ("2023-09-30", "2022-12-31")),
    ([["As of", "As of"], ["Sept. 30, 2023", "Dec. 31, 2022"]], ("2023-09-30", "2022-12-31")),
    ([["July 29, 2023", "January 28, 2023"]], ("2023-07-29", "2023-01-28")),
    ([["(Unaudited)", ""], ["July 29,", "January 28,"], ["2023", "2023"]], ("2023-07-29", "2023-01-28")),
])
def test_an_interim_balance_sheet_beside_the_prior_fiscal_year_end(header, ends):
    rows = [("Cash and cash equivalents", "$ 2,210", "$ 1,985"), ("Inventories", "845", "790"), ("Total assets", "$ 18,230", "$ 17,440"),
            ("Common stock, $0.01 par value; 1,000 shares authorized", "5", "5")]
    facts = facts_of(Statement(["CONDENSED CONSOLIDATED BALANCE SHEETS", "(In millions, except par value)"], header, rows))
    _check(facts, "Total assets", 0, value=18230.0, **_as_of(ends[0]), **MONEY)
    _check(facts, "Inventories", 1, value=790.0, **_as_of(ends[1]), **MONEY)
    _check(facts, "Common stock, $0.01 par value; 1,000 shares authorized", 0, value=5.0, **MONEY)


# ---------------------------------------------------------------- captions and notes around the title

@pytest.mark.parametrize("title", [
    ["ACME CORPORATION", "CONSOLIDATED STATEMENTS OF", "COMPREHENSIVE INCOME", "(In millions, except per share data)"],
    ["ACME CORPORATION AND SUBSIDIARIES", "CONSOLIDATED STATEMENTS", "OF OPERATIONS", "(In millions, except per share data)",
     "(Unaudited)"],
    ["CONSOLIDATED STATEMENTS OF OPERATIONS", "(In millions, except per share data)", "Unaudited"],
    ["CONSOLIDATED STATEMENTS OF OPERATIONS", "Unaudited", "(In millions, except per share data)"],
])
def test_a_caption_under_a_multi_line_title_or_an_unaudited_line(title):
    facts = facts_of(Statement(title, ["Year Ended December 31,", ["2023", "2022"]], INCOME))
    _check(facts, "Net sales", 0, value=4120.0, **_span("2023-01-01", "2023-12-31", 12), **MONEY)
    _check(facts, "Diluted earnings per share", 1, value=1.17, unit="USD/share", scale=1.0)


@pytest.mark.parametrize("header", [
    [["2023", "2022"], ["($ in thousands)", "($ in thousands)"]],
    [["$ in thousands", "$ in thousands"], ["2023", "2022"]],
    ["Year Ended December 31,", ["2023", "2022"], ["(in thousands)", "(in thousands)"]],
])
def test_a_scale_printed_only_over_the_columns(header):
    rows = [("Net sales", "$ 412,030", "$ 388,150"), ("Operating income", "90,210", "81,144")]
    facts = facts_of(Statement(["Segment results"], header, rows))
    _check(facts, "Operating income", 1, value=81144.0, fiscal_year=2022, unit="USD", scale=1e3)


# ---------------------------------------------------------------- rows a caption does not scale

def test_percent_and_ratio_rows_under_a_dollars_in_millions_caption():
    rows = [("Net sales", "$ 4,120", "$ 3,880"), ("Gross margin percentage", "42.1 %", "40.3 %"), ("Net sales growth", "6.2 %", "4.9 %"),
            ("Return on average equity", "15.2 %", "14.8 %"), ("Current ratio", "1.52", "1.48"),
            ("Debt-to-capital ratio", "0.45", "0.47"), ("Total debt", "$ 2,100", "$ 2,300")]
    facts = facts_of(Statement(["Selected Financial Data", "($ in millions)"], ["Year Ended December 31,", ["2023", "2022"]], rows))
    for label, col, value, unit in [("Gross margin percentage", 0, 42.1, "%"), ("Net sales growth", 1, 4.9, "%"),
                                    ("Return on average equity", 0, 15.2, "%"), ("Current ratio", 1, 1.48, "ratio"),
                                    ("Debt-to-capital ratio", 0, 0.45, "ratio")]:
        _check(facts, label, col, value=value, unit=unit, scale=1.0)
    _check(facts, "Total debt", 1, value=2300.0, **MONEY)


@pytest.mark.parametrize("caption", ["(In millions)", "(In millions, except per share data)", "(Dollars in thousands)"])
def test_per_share_rows_are_never_scaled(caption):
    rows = [("Net income", "$ 655", "$ 590"), ("Cash dividends declared per common share", "$ 0.92", "$ 0.88"),
            ("Book value per share", "$ 25.31", "$ 23.90"), ("Net income per share - diluted", "$ 1.30", "$ 1.17"),
            ("Earnings per share:", ), ("Basic", "1.32", "1.18"), ("Diluted", "1.30", "1.17")]
    facts = facts_of(Statement(["Selected data", caption], ["Year Ended December 31,", ["2023", "2022"]], rows))
    for label, col, value in [("Cash dividends declared per common share", 0, 0.92), ("Book value per share", 1, 23.90),
                              ("Net income per share - diluted", 0, 1.30), ("Basic", 1, 1.18), ("Diluted", 0, 1.30)]:
        _check(facts, label, col, value=value, unit="USD/share", scale=1.0)


@pytest.mark.parametrize("caption, amounts, shares", [
    ("(In millions, except shares in thousands and per share data)", 1e6, 1e3),
    ("(In thousands, except per share data)", 1e3, 1e3),
    ("(In millions, except share and per share data)", 1e6, 1.0),
    ("(Dollars in millions, shares in thousands)", 1e6, 1e3),
])
def test_share_counts_take_the_shares_scale(caption, amounts, shares):
    rows = [("Net income", "$ 655", "$ 590"), ("Weighted-average shares outstanding - basic", "504,112", "506,300"),
            ("Weighted-average shares outstanding - diluted", "507,020", "509,844"), ("Diluted earnings per share", "$ 1.30", "$ 1.17")]
    facts = facts_of(Statement(["CONSOLIDATED STATEMENTS OF INCOME", caption], ["Year Ended December 31,", ["2023", "2022"]], rows))
    _check(facts, "Net income", 0, value=655.0, unit="USD", scale=amounts)
    _check(facts, "Weighted-average shares outstanding - diluted", 1, value=509844.0, unit="shares", scale=shares)
    _check(facts, "Diluted earnings per share", 0, value=1.30, unit="USD/share", scale=1.0)


def test_a_share_activity_table_in_thousands_of_shares():
    rows = [("Shares outstanding at beginning of year", "504,112", "510,300"), ("Repurchased", "(6,120)", "(7,400)"),
            ("Issued under employee plans", "1,830", "1,212"), ("Shares outstanding at end of year", "499,822", "504,112")]
    facts = facts_of(Statement(["Common share activity", "(In thousands of shares)"], ["Year Ended December 31,", ["2023", "2022"]], rows))
    _check(facts, "Shares outstanding at end of year", 0, value=499822.0, unit="shares", scale=1e3)


# ---------------------------------------------------------------- more period columns and component columns

def test_two_period_groups_each_with_change_columns():
    rows = [("Total revenues", "$ 6,497.9", "$ 5,718.4", "$ 779.5", "14 %", "$ 12,395.7", "$ 11,384.4", "$ 1,011.3", "9 %"),
            ("Operating income", "3,083.5", "2,521.6", "561.9", "22 %", "5,731.3", "4,902.1", "829.2", "17 %")]
    facts = facts_of(Statement(["CONSOLIDATED STATEMENT OF INCOME", "(Dollars in millions)"],
                               [[("Quarters Ended June 30,", 0, 3), ("Six Months Ended June 30,", 4, 7)],
                                ["2023", "2022", "Inc/(Dec)", "% Inc/(Dec)"] * 2], rows))
    for col, (value, end, months) in {1: (5718.4, "2022-06-30", 3), 4: (12395.7, "2023-06-30", 6),
                                      5: (11384.4, "2022-06-30", 6)}.items():
        f = fact(facts, "Total revenues", col)
        assert (f.value, f.period_end, f.duration_months, f.scale) == (value, end, months, 1e6), f.period
    for col in (2, 3, 6, 7):
        assert fact(facts, "Operating income", col).period_end is None


def test_component_columns_under_one_period():
    rows = [("Revenues", "$ 2,600", "$ 3,100", "$ 300", "$ 6,000"), ("Operating income", "1,200", "1,500", "(150)", "2,550")]
    facts = facts_of(Statement(["Segment results", "(In millions)"],
                               [[("Quarter Ended June 30, 2023", 0, 3)], ["U.S.", "International", "Corporate", "Total"]], rows))
    f = fact(facts, "Operating income", 2)
    assert (f.value, f.period_end, f.duration_months, f.scale) == (-150.0, "2023-06-30", 3, 1e6), f.period


def test_quarters_named_by_their_month_end_under_year_sections():
    rows = [("2023", ), ("Revenues", "$ 1,740", "$ 1,803", "$ 1,715", "$ 1,782"), ("Net income", "195", "210", "190", "200"),
            ("2022", ), ("Revenues", "$ 1,610", "$ 1,650", "$ 1,590", "$ 1,702"), ("Net income", "160", "171", "150", "181")]
    facts = facts_of(Statement(["Quarterly Financial Data (Unaudited)", "(In millions)"],
                               [[("Quarter Ended", 0, 3)], ["March 31", "June 30", "September 30", "December 31"]], rows))
    got = {(f.value, f.fiscal_year, f.duration_months) for f in facts if f.label == "Revenues" and f.column == 1}
    assert got == {(1803.0, 2023, 3), (1650.0, 2022, 3)}


@pytest.mark.parametrize("years", [["2023 (a)", "2022 (a)"], ["2023(a)", "2022(b)"], ["2023 As Restated", "2022 As Restated"]])
def test_year_headers_with_letter_notes_or_restated(years):
    facts = facts_of(Statement(["Selected data", "(In millions)"], ["Year Ended December 31,", years],
                               [("Net revenues", "$ 7,040", "$ 6,483"), ("Operating income", "795", "509")]))
    f = fact(facts, "Operating income", 1)
    assert (f.value, f.period_end, f.duration_months, f.scale) == (509.0, "2022-12-31", 12, 1e6), f.period


@pytest.mark.parametrize("labels", [["2Q23", "1Q23", "2Q22"], ["2Q 2023", "1Q 2023", "2Q 2022"], ["2Q'23", "1Q'23", "2Q'22"]])
def test_quarter_labels_with_the_number_before_the_q(labels):
    rows = [("Net revenues", "$ 7,287", "$ 7,040", "$ 6,806"), ("Net income", "1,029", "795", "1,354")]
    facts = facts_of(Statement(["Financial Highlights", "(In millions)"], [labels], rows))
    for col, (value, year) in {0: (7287.0, 2023), 2: (6806.0, 2022)}.items():
        f = fact(facts, "Net revenues", col)
        assert (f.value, f.fiscal_year, f.duration_months, f.scale) == (value, year, 3, 1e6), f.period


@pytest.mark.parametrize("left, months", [("Three months ended", 3), ("Six Months Ended", 6)])
def test_a_span_phrase_at_the_left_of_a_line_of_dates(left, months):
    rows = [("Net revenues", "$ 7,287", "$ 6,806"), ("Net income", "1,029", "1,354")]
    facts = facts_of(Statement(["Summary of results", "(In millions)"], [["Jun 30, 2023", "Jun 30, 2022"]], rows,
                               header_left={0: left}))
    f = fact(facts, "Net income", 1)
    assert (f.value, f.period_end, f.duration_months, f.as_of, f.scale) == (1354.0, "2022-06-30", months, None, 1e6)


def test_a_balance_sheet_with_a_caption_at_the_left_of_its_dates_stays_as_of():
    facts = facts_of(Statement(["CONSOLIDATED BALANCE SHEETS"], [["Jun 30, 2023", "Dec 31, 2022"]],
                               [("Total assets", "$ 18,230", "$ 17,440"), ("Total liabilities", "9,120", "8,870")],
                               header_left={0: "(In millions)"}))
    f = fact(facts, "Total assets", 1)
    assert (f.value, f.as_of, f.duration_months, f.scale) == (17440.0, "2022-12-31", None, 1e6)


# ---------------------------------------------------------------- a statement printed over two pages

CASH_FLOWS = Statement(["ACME CORPORATION", "CONSOLIDATED STATEMENTS OF CASH FLOWS", "(In millions)"],
                       ["Year Ended December 31,", ["2023", "2022"]],
                       [("Net income", "$ 655", "$ 590"), ("Depreciation", "120", "110"),
                        ("Net cash provided by operating activities", "901", "850")])
GOES_ON = [("Purchases of property", "(210)", "(190)"), ("Net cash used in investing activities", "(300)", "(250)"),
           ("Dividends paid", "(100)", "(90)")]


@pytest.mark.parametrize("title", [["CONSOLIDATED STATEMENTS OF CASH FLOWS (continued)", "(In millions)"],
                                   ["ACME CORPORATION", "CONSOLIDATED STATEMENTS OF CASH FLOWS", "(Continued)"]])
@pytest.mark.parametrize("framed", [False, True])
def test_a_statement_continued_on_the_next_page_without_its_header(title, framed):
    frame = {"running_header": "ACME CORPORATION 2023 FORM 10-K", "footer": True, "prose_pages": 3} if framed else {}
    facts = facts_of(CASH_FLOWS, Statement(title, [], GOES_ON, columns=2), **frame)
    page = 4 if framed else 1
    f = fact(facts, "Net cash used in investing activities", 1, page)
    assert (f.value, f.period_end, f.duration_months, f.scale) == (-250.0, "2022-12-31", 12, 1e6)


def test_a_headerless_table_on_the_next_page_not_said_to_continue_gets_no_period():
    facts = facts_of(CASH_FLOWS, Statement(["Other data", "(In millions)"], [], GOES_ON, columns=2))
    assert not [f for f in facts if f.page == 1 and f.period_end]


# a statement's second page often prints neither its header nor "(continued)": its rows open the page in the
# columns of the table that ran to the previous page's end
OPENS = {"rows only": [], "a section over them": [("Cash flows from financing activities",)],
         "a first label wrapped over two lines": [("Proceeds from short-term debt financing, net of issuance costs of $0, $1 and $2 at",)]}


@pytest.mark.parametrize("opening", list(OPENS))
@pytest.mark.parametrize("framed", [False, True])
def test_a_statement_going_on_over_the_next_page_with_no_header_and_no_continued(opening, framed):
    frame = {"running_header": "ACME CORPORATION 2023 FORM 10-K", "footer": True, "prose_pages": 2} if framed else {}
    first = ("respective dates" if "wrapped" in opening else "Dividends paid", "(100)", "(90)")
    rows = OPENS[opening] + [first, ("Net cash used in financing activities", "(140)", "(95)")]
    facts = facts_of(CASH_FLOWS, Statement([], [], rows, columns=2), **frame)
    page = 3 if framed else 1
    f = fact(facts, "Net cash used in financing activities", 1, page)
    assert (f.value, f.period_end, f.duration_months, f.scale) == (-95.0, "2022-12-31", 12, 1e6)
    assert fact(facts, first[0], 0, page).fiscal_year == 2023


def test_rows_opening_a_page_after_a_table_that_ended_above_a_note_get_no_period():
    ended = Statement(CASH_FLOWS.title, CASH_FLOWS.header, CASH_FLOWS.rows + [
        ("See accompanying notes to the consolidated financial statements, which are an integral part of them.",)])
    facts = facts_of(ended, Statement([], [], GOES_ON, columns=2))
    assert facts and not [f for f in facts if f.page == 1 and f.period_end]


def test_one_column_rows_opening_a_page_take_no_period_from_the_page_before():
    one = Statement(["Segment assets", "(In millions)"], [["December 31, 2023"]], [("Americas", "$ 4,120"), ("Europe", "1,730")])
    facts = facts_of(one, Statement([], [], [("Asia", "$ 655"), ("Total", "6,505")], columns=1))
    assert fact(facts, "Europe", 0).as_of == "2023-12-31"
    assert not [f for f in facts if f.page == 1 and (f.as_of or f.period_end)]


# ---------------------------------------------------------------- a bridge: the year in its end rows' labels

@pytest.mark.parametrize("named", ["{} - {}", "{} ({})", "{}, {}"])
@pytest.mark.parametrize("note", ["", " (2)"])
def test_a_bridge_names_the_year_of_its_end_rows_and_none_of_its_drivers(named, note):
    def end(item, year):
        return named.format(item, year) + (note if "-" in named else "")
    rows = [(end("Income available for common shareholders", 2015), "$ 874", "$ 1.79"), ("Add items impacting comparability:", ),
            ("Fines and penalties", "578", "1.19"), (end("Earnings from operations", 2015), "$ 1,519", "$ 3.12"),
            ("Growth in rate base earnings", "102", "0.20"), ("Miscellaneous", "(24)", "(0.04)"),
            (end("Earnings from operations", 2016), "$ 1,884", "$ 3.76"), ("Less items impacting comparability:", ),
            ("Fines and penalties", "(307)", "(0.61)"), (end("Income available for common shareholders", 2016), "$ 1,393", "$ 2.78")]
    facts = facts_of(Statement(["The following table reconciles earnings to earnings from operations:"],
                               [["", "EPS"], ["Earnings", "(diluted)"]], rows, header_left={0: "(in millions, except per share amounts)"}))
    ops = {(f.fiscal_year, f.value, f.unit, f.scale) for f in facts if f.label.startswith("Earnings from operations")}
    assert ops == {(2015, 1519.0, "USD", 1e6), (2015, 3.12, "USD/share", 1.0), (2016, 1884.0, "USD", 1e6),
                   (2016, 3.76, "USD/share", 1.0)}
    assert not [f for f in facts if f.label in ("Growth in rate base earnings", "Fines and penalties") and f.fiscal_year]


def test_items_whose_names_end_in_a_year_are_no_bridge():
    rows = [("Senior notes due 2025", "$ 500", "4.50 %"), ("Senior notes due 2027", "750", "3.25 %"), ("Term loan", "300", "6.10 %")]
    facts = facts_of(Statement(["Debt outstanding", "(In millions)"], [["Principal", "Rate"]], rows))
    assert not [f for f in facts if f.fiscal_year or f.period_end]


# a growth bridge printed under spans without a year ("Three Months Ended June 30" over the parts): the years are in
# the labels of the item's rows, and the components of its growth are the later year's
@pytest.mark.parametrize("named", ["Net sales fiscal year {}", "Net sales FY{}", "Net sales - {}"])
def test_spans_without_a_year_take_the_years_of_the_rows(named):
    rows = [(named.format(2023), "2,777", "897", "11,154", "3,540"), (named.format(2022), "2,967", "942", "11,151", "3,393"),
            ("Reported Growth %", "(6)", "(5)", "-", "4"), ("Volume %", "(7)", "(6)", "(3)", "(4)")]
    header = [[("Three Months Ended June 30", 0, 1), ("Twelve Months Ended June 30", 2, 3)],
              ["Flexibles", "Rigid Packaging", "Flexibles", "Rigid Packaging"]]
    facts = facts_of(Statement(["Components of Fiscal 2023 Net Sales growth", "($ million)"], header, rows))
    _check(facts, named.format(2023), 1, value=897.0, **_span("2023-04-01", "2023-06-30", 3), **MONEY)
    _check(facts, named.format(2022), 3, value=3393.0, **_span("2021-07-01", "2022-06-30", 12), **MONEY)
    _check(facts, "Volume %", 1, value=-6.0, unit="%", scale=1.0, **_span("2023-04-01", "2023-06-30", 3))
    _check(facts, "Volume %", 2, value=-3.0, unit="%", scale=1.0, **_span("2022-07-01", "2023-06-30", 12))


def test_spans_without_a_year_over_rows_of_no_year_stay_undated():
    rows = [("Net sales", "2,777", "897"), ("Volume %", "(7)", "(6)")]
    facts = facts_of(Statement(["Net sales by segment", "($ million)"], [["Three Months Ended June 30"] * 2, ["Flexibles", "Rigid"]], rows))
    assert not [f for f in facts if f.fiscal_year or f.period_end]


@pytest.mark.parametrize("dates, left, want", [
    (["6/30/2023", "6/30/2022"], "Three months ended", ("2022-06-30", 3, None)),
    (["06/30/23", "06/30/22"], "Six months ended", ("2022-06-30", 6, None)),
    (["6/30/2023", "12/31/2022"], "", ("2022-12-31", None, "2022-12-31")),
])
def test_dates_written_in_figures_over_the_columns(dates, left, want):
    rows = [("Net revenues", "$ 7,287", "$ 6,806"), ("Net income", "1,029", "1,354")]
    facts = facts_of(Statement(["Summary of results", "(In millions)"], [dates], rows, header_left={0: left} if left else {}))
    f = fact(facts, "Net income", 1)
    assert (f.value, f.period_end, f.duration_months, f.as_of, f.scale) == (1354.0, *want, 1e6)


# a quarterly table of a fiscal year ending June 30: each block of rows under "Fiscal Year 2019 (1)" (a footnote
# mark after the year), columns titled by month and day only, then a Total column
@pytest.mark.parametrize("year_rows", [("Fiscal Year 2019 (1)", "Fiscal Year 2018 (1)"), ("Fiscal 2019", "Fiscal 2018")])
@pytest.mark.parametrize("total", [False, True])
def test_quarters_by_month_and_day_under_fiscal_year_rows_shift_into_the_year_before(year_rows, total):
    extra = ("9,458.2",) if total else ()
    rows = [(year_rows[0], ), ("Net sales", "2,262.4", "2,287.2", "2,312.3", "2,596.3") + extra,
            (year_rows[1], ), ("Net sales", "2,251.1", "2,251.9", "2,364.1", "2,452.8") + extra]
    titles = ["September 30", "December 31", "March 31", "June 30"] + (["Total"] if total else [])
    facts = facts_of(Statement(["Quarterly Financial Information", "(in millions, except per share data)"],
                               [[("Quarter Ended", 0, 3)], titles], rows, align="right"))
    got = {(f.value, f.period_start, f.period_end, f.duration_months, f.fiscal_year, f.scale)
           for f in facts if f.label == "Net sales" and f.column in (1, 3)}
    assert got == {(2287.2, "2018-10-01", "2018-12-31", 3, 2019, 1e6), (2596.3, "2019-04-01", "2019-06-30", 3, 2019, 1e6),
                   (2251.9, "2017-10-01", "2017-12-31", 3, 2018, 1e6), (2452.8, "2018-04-01", "2018-06-30", 3, 2018, 1e6)}
    if total:
        f = [f for f in facts if f.label == "Net sales" and f.column == 4 and f.value == 9458.2][0]
        assert (f.period_start, f.period_end, f.duration_months) == ("2018-07-01", "2019-06-30", 12)


def test_calendar_quarters_by_month_and_day_stay_in_their_year():
    rows = [("2023", ), ("Revenues", "$ 1,740", "$ 1,803", "$ 1,715", "$ 1,782"), ("2022", ), ("Revenues", "$ 1,610", "$ 1,650", "$ 1,590", "$ 1,702")]
    facts = facts_of(Statement(["Quarterly Financial Data (Unaudited)", "(In millions)"],
                               [[("Quarter Ended", 0, 3)], ["March 31", "June 30", "September 30", "December 31"]], rows))
    got = {(f.value, f.period_end, f.duration_months) for f in facts if f.label == "Revenues" and f.column in (0, 3)}
    assert got == {(1740.0, "2023-03-31", 3), (1782.0, "2023-12-31", 3), (1610.0, "2022-03-31", 3), (1702.0, "2022-12-31", 3)}
