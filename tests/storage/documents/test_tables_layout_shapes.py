"""More header shapes read by layout (storage/documents/table_layout.py, storage/documents/table_rollforward.py), on
PDFs written with PyMuPDF at positions as filings print them."""

from __future__ import annotations

from storage.documents.table_layout import layout_units
from storage.documents.tables import row_cells
from tests.storage.documents.layout_pages import centred, page_with, right_aligned, rows_at
from tests.storage.documents.test_tables_layout import RIGHT_EDGES, _cells


def _rows(page, labels_values, top: float, edges=RIGHT_EDGES) -> None:
    rows_at(page, labels_values, top, edges)


def test_an_equity_statement_labels_components_and_takes_periods_from_its_balance_rows():
    """Columns are components ("Common Stock Amount", "Retained Earnings", "Total Equity") under
    stacked titles; a balance row is as of its date, the rows after it are the movements of the year
    that ends at the next balance."""
    def draw(page):
        page.insert_text((150, 50), "CONSOLIDATED STATEMENTS OF STOCKHOLDERS' EQUITY", fontsize=10)
        centred(page, 300, 62, "For the Years Ended December 31, 2022 and 2021", 8)
        for x1, (top, bottom) in zip(RIGHT_EDGES, [("Common Stock", "Shares"), ("Common Stock", "Amount"),
                                                   ("Retained", "Earnings"), ("Total", "Equity")]):
            centred(page, x1 - 15, 80, top, 8)
            centred(page, x1 - 15, 90, bottom, 8)
        page.insert_text((56, 90), "(in millions)", fontsize=8)
        _rows(page, [("Balance at December 31, 2020", "100", "1,000", "5,000", "6,000"),
                     ("Net income", "", "", "700", "700"),
                     ("Dividends declared", "", "", "(200 )", "(200 )"),
                     ("Balance at December 31, 2021", "100", "1,000", "5,500", "6,500"),
                     ("Net income", "", "", "900", "900"),
                     ("Stock issued", "5", "50", "-", "50"),
                     ("Balance at December 31, 2022", "105", "1,050", "6,400", "7,450")], 108)

    page = page_with(draw)
    units = [u for u in layout_units(page.get_text("words")) if u.is_table_row]
    cells = {(u.label, c.period): c.value for u in units for c in row_cells(u)}
    assert cells[("Balance at December 31, 2021", "Total Equity, December 31, 2021")] == "6,500"
    assert cells[("Balance at December 31, 2021", "Common Stock Amount, December 31, 2021")] == "1,000"
    assert cells[("Dividends declared", "Retained Earnings, Year ended December 31, 2021")] == "(200)"
    assert cells[("Net income", "Total Equity, Year ended December 31, 2022")] == "900"
    assert cells[("Stock issued", "Common Stock Shares, Year ended December 31, 2022")] == "5"
    assert all(u.header.kind == "roll-forward" for u in units)


def test_a_roll_forward_without_titles_and_balances_not_a_year_apart():
    """One unlabelled column: the periods alone; movements between balances two years apart get none."""
    def draw(page):
        page.insert_text((56, 60), "The activity for the years ended December 31, 2015, 2014 and 2013 (in thousands):",
                         fontsize=8)
        _rows(page, [("Balance at December 31, 2012", "1,836,522"), ("Contributions", "26,398"),
                     ("Net income", "84,236"), ("Balance at December 31, 2013", "1,710,218"),
                     ("Distributions", "(126,948)"), ("Balance at December 31, 2015", "2,286,689")],
              84, RIGHT_EDGES[3:])

    cells = _cells(page_with(draw))
    assert cells["Contributions"] == {"Year ended December 31, 2013": "26,398"}
    assert cells["Balance at December 31, 2013"] == {"December 31, 2013": "1,710,218"}
    assert "Distributions" not in cells  # two years between its balances: which year is unknown


def test_a_unit_caption_and_a_period_phrase_on_the_year_line_head_every_year():
    """"In millions, except per share data   Years ended December 31, 2022   2021   2020" on one line."""
    def draw(page):
        page.insert_text((56, 92), "In millions, except per share data", fontsize=8)
        right_aligned(page, RIGHT_EDGES[1], 92, "Years ended December 31, 2022", 8)
        for x1, year in zip(RIGHT_EDGES[2:], ("2021", "2020")):
            right_aligned(page, x1, 92, year, 8)
        _rows(page, [("Revenues", "23,183", "23,223", "19,208"), ("Net income", "6,177", "7,545", "4,731")],
              110, RIGHT_EDGES[1:])

    assert _cells(page_with(draw))["Net income"] == {"Years ended December 31, 2022": "6,177",
                                                      "Years ended December 31, 2021": "7,545",
                                                      "Years ended December 31, 2020": "4,731"}


def test_years_centred_over_groups_of_columns_whose_titles_repeat():
    """"2017" centred over "Reported  Impact of New Standards  Restated", "2016" over the next three,
    the titles line led by a caption: each column gets its group's year and its own title."""
    edges = (270, 335, 400, 460, 525, 590)

    def draw(page):
        for mid, year in ((335 - 12, "2017"), (525 - 12, "2016")):
            centred(page, mid, 80, year, 8)
        page.insert_text((40, 92), "(Dollars in millions)", fontsize=8)
        for x1, title in zip(edges, ("Reported", "Standards", "Restated") * 2):
            centred(page, x1 - 14, 92, title, 8)
        _rows(page, [("Net earnings", "$8,197", "$261", "$8,458", "$4,895", "$139", "$5,034"),
                     ("Inventories", "(1,085)", "(318)", "(1,403)", "3,755", "249", "4,004")], 110, edges)

    cells = _cells(page_with(draw))
    assert cells["Inventories"] == {"2017 Reported": "(1,085)", "2017 Standards": "(318)", "2017 Restated": "(1,403)",
                                    "2016 Reported": "3,755", "2016 Standards": "249", "2016 Restated": "4,004"}


def test_years_right_aligned_over_an_amount_and_a_change_column():
    """"2022" printed over "Amount  Increase/(decrease)", ending where the change column ends: the
    column left of the next year's group is the next year's amount, not 2022's."""
    edges = (300, 370, 440, 510, 580)

    def draw(page):
        for x1, year in zip((370, 510, 580), ("2022", "2021", "2020")):
            right_aligned(page, x1, 80, year, 8)
        page.insert_text((40, 92), "Dollars in millions", fontsize=8)
        for x1, title in zip(edges, ("Amount", "Change", "Amount", "Change", "Amount")):
            right_aligned(page, x1, 92, title, 8)
        _rows(page, [("Total revenues", "23,183", "-", "23,223", "21 %", "19,208"),
                     ("Operating income", "9,371", "(10 %)", "10,356", "41 %", "7,324")], 110, edges)

    cells = _cells(page_with(draw))
    assert cells["Operating income"] == {"2022 Amount": "9,371", "2022 Change": "(10%)", "2021 Amount": "10,356",
                                         "2021 Change": "41%", "2020 Amount": "7,324"}


def test_column_titles_printing_a_year_start_the_next_table():
    """Two reconciliations one under the other, each headed "January 1 <year> Balance ... December
    31 <year> Balance": the rows of the second take its year, not the first's."""
    edges = (300, 400, 500)

    def draw(page):
        for k, year in enumerate(("2018", "2017")):
            top = 80 + 90 * k
            for x1, (a, b) in zip(edges, (("January 1", f"{year} Balance"), ("Net", "Gains/(Losses)"),
                                           ("December 31", f"{year} Balance"))):
                right_aligned(page, x1, top, a, 8)
                right_aligned(page, x1, top + 10, b, 8)
            _rows(page, [("Corporate", "12", "(3)", "9"), ("Real assets", "5", "(2)", "3")], top + 28, edges)

    page = page_with(draw)
    assets = [{c.period: c.value for c in row_cells(u)} for u in layout_units(page.get_text("words"))
              if u.label == "Real assets"]
    assert [a.get("December 31, 2018 Balance") for a in assets] == ["3", None]
    assert assets[1] == {"January 1, 2017 Balance": "5", "2017 Net Gains/(Losses)": "(2)", "December 31, 2017 Balance": "3"}


def test_a_table_title_before_the_dates_on_the_header_line():
    """"Domestic Segment Results  January 28, 2023  January 29, 2022" under "Three Months Ended":
    the title at the left is no period, the dates head their columns."""
    def draw(page):
        centred(page, (RIGHT_EDGES[0] + RIGHT_EDGES[1]) / 2 - 20, 80, "Three Months Ended", 8)
        centred(page, (RIGHT_EDGES[2] + RIGHT_EDGES[3]) / 2 - 20, 80, "Twelve Months Ended", 8)
        page.insert_text((56, 92), "Domestic Segment Results", fontsize=8)
        for x1, date in zip(RIGHT_EDGES, ("January 28, 2023", "January 29, 2022") * 2):
            right_aligned(page, x1, 92, date, 7)
        _rows(page, [("Revenue", "$13,531", "$14,993", "$42,794", "$47,830"),
                     ("Operating income", "530", "695", "1,634", "2,795")], 110)

    assert _cells(page_with(draw))["Operating income"] == {
        "Three Months Ended January 28, 2023": "530", "Three Months Ended January 29, 2022": "695",
        "Twelve Months Ended January 28, 2023": "1,634", "Twelve Months Ended January 29, 2022": "2,795"}
