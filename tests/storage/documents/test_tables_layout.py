"""Tables read by layout (storage/documents/table_layout.py): each value gets the period of the column it is
printed under, whatever the header's shape. The PDFs are written with PyMuPDF at positions, as
filings lay them out: labels at the left, right-aligned figures, headers centred over columns."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from storage.documents.page_tables import table_units
from storage.documents.ingest import process_and_index_pdf
from storage.documents.table_layout import layout_units
from storage.documents.tables import row_cells
from tests.storage.documents.layout_pages import centred, page_with, right_aligned, rows_at

RIGHT_EDGES = (380, 450, 520, 590)  # right edge of each value column


def _cells(page) -> dict[str, dict[str, str]]:
    """label -> {period: value} of every row the layout reader gives periods to."""
    out: dict[str, dict[str, str]] = {}
    for unit in layout_units(page.get_text("words")):
        for cell in row_cells(unit):
            out.setdefault(cell.label, {})[cell.period] = cell.value
    return out


def test_a_header_sentence_above_the_year_row_gives_one_period_per_value():
    def draw(page):
        page.insert_text((56, 60), "CONSOLIDATED STATEMENTS OF INCOME", fontsize=10)
        page.insert_text((56, 74), "(in millions, except per share data)", fontsize=9)
        centred(page, 460, 96, "Fiscal years ended December 31, 2022, December 25, 2021 and December 26, 2020", 7)
        for x1, year in zip(RIGHT_EDGES[1:], ("2022", "2021", "2020")):
            right_aligned(page, x1, 110, year)
        rows = [("Net revenue", "$", "86,392", "$", "79,474", "$", "70,372"),
                ("Operating profit", "", "11,512", "", "11,162", "", "10,080")]
        for k, (label, *cells) in enumerate(rows):
            y = 128 + 14 * k
            page.insert_text((56, y), label, fontsize=9)
            for i, x1 in enumerate(RIGHT_EDGES[1:]):
                if cells[2 * i]:
                    page.insert_text((x1 - 60, y), "$", fontsize=9)  # "$" in its own column
                right_aligned(page, x1, y, cells[2 * i + 1])

    cells = _cells(page_with(draw))
    assert cells["Net revenue"] == {
        "Fiscal years ended December 31, 2022": "$86,392",
        "Fiscal years ended December 25, 2021": "$79,474",
        "Fiscal years ended December 26, 2020": "$70,372",
    }
    assert cells["Operating profit"]["Fiscal years ended December 26, 2020"] == "10,080"


def test_two_header_levels_give_quarter_and_year_to_date_columns():
    def draw(page):
        centred(page, (RIGHT_EDGES[0] + RIGHT_EDGES[1]) / 2 - 15, 90, "Three Months Ended")
        centred(page, (RIGHT_EDGES[2] + RIGHT_EDGES[3]) / 2 - 15, 90, "Six Months Ended")
        for x1, label in zip(RIGHT_EDGES, ("July 29, 2023", "July 30, 2022", "July 29, 2023", "July 30, 2022")):
            right_aligned(page, x1, 102, label)
        rows_at(page, [("Revenue", "9,583", "10,329", "18,050", "19,976"), ("Net earnings", "274", "306", "518", "649")],
                120, RIGHT_EDGES)

    cells = _cells(page_with(draw))
    assert cells["Revenue"] == {
        "Three Months Ended July 29, 2023": "9,583",
        "Three Months Ended July 30, 2022": "10,329",
        "Six Months Ended July 29, 2023": "18,050",
        "Six Months Ended July 30, 2022": "19,976",
    }


def test_negatives_dashes_footnotes_an_empty_cell_sections_and_units():
    def draw(page):
        page.insert_text((56, 60), "CONSOLIDATED BALANCE SHEETS", fontsize=10)
        page.insert_text((56, 74), "(In millions)", fontsize=9)
        centred(page, 485, 92, "December 31,")
        for x1, year in zip(RIGHT_EDGES[2:], ("2022", "2021")):
            right_aligned(page, x1, 104, year)
        lines = [
            ("Current liabilities:", None, None),
            ("Current maturities of long-term debt (1)", "3,096", "(353 )"),
            ("Short-term borrowings", "-", "1,250"),  # a dash for zero (base-14 fonts have no em dash)
            ("Accrued liabilities", None, "4,021"),  # an empty cell in the 2022 column
            ("Total current liabilities", "7,100", "5,624"),
            ("Long-term debt", "35,657", "36,026"),
        ]
        rows_at(page, lines, 122, RIGHT_EDGES[2:])

    page = page_with(draw)
    cells = _cells(page)
    assert cells["Current maturities of long-term debt"] == {"December 31, 2022": "3,096", "December 31, 2021": "(353)"}
    assert cells["Short-term borrowings"] == {"December 31, 2022": "-", "December 31, 2021": "1,250"}
    assert cells["Accrued liabilities"] == {"December 31, 2021": "4,021"}  # not shifted into 2022
    rows = {u.label: u for u in layout_units(page.get_text("words")) if u.is_table_row}
    assert rows["Short-term borrowings"].section == "Current liabilities"
    assert rows["Long-term debt"].section == ""  # "Total current liabilities" closed the section
    assert rows["Long-term debt"].unit == "In millions"


def test_a_page_number_under_the_table_makes_no_column():
    def draw(page):
        centred(page, 485, 92, "Years ended")
        for x1, year in zip(RIGHT_EDGES[2:], ("2022", "2021")):
            right_aligned(page, x1, 104, year)
        rows_at(page, [("Net sales", "394,328", "365,817"), ("Cost of sales", "223,546", "212,981"),
                       ("Gross margin", "170,782", "152,836")], 122, RIGHT_EDGES[2:])
        page.insert_text((300, 760), "29", fontsize=9)

    assert _cells(page_with(draw))["Gross margin"] == {"Years ended 2022": "170,782", "Years ended 2021": "152,836"}


def test_table_units_read_the_layout_stored_at_ingestion_not_the_source_pdf(pdf_home):
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((56, 60), "Fabrikam Inc. Consolidated Statements of Operations", fontsize=10)
    page.insert_text((56, 76), "Fiscal years ended December 31, 2022, December 25, 2021 and December 26, 2020", fontsize=8)
    for x1, year in zip(RIGHT_EDGES[1:], ("2022", "2021", "2020")):
        right_aligned(page, x1, 96, year)
    rows_at(page, [("Net revenue", "86,392", "79,474", "70,372"), ("Operating profit", "11,512", "11,162", "10,080")],
            114, RIGHT_EDGES[1:])
    path: Path = pdf_home / "source" / "fabrikam.pdf"
    doc.save(path)
    doc.close()
    processed = process_and_index_pdf(path)
    text = pymupdf.open(path)[0].get_text()

    by_layout = {c.period: c.value for u in table_units(processed.doc_id, 0, text) for c in row_cells(u)
                 if c.label == "Net revenue"}
    assert by_layout == {"Fiscal years ended December 31, 2022": "86,392", "Fiscal years ended December 25, 2021": "79,474",
                         "Fiscal years ended December 26, 2020": "70,372"}
    # no source PDF to read: the text parser reads the page text (here it cannot pair 6 header dates
    # with 3 values, which is why the layout reader exists)
    by_text = [c for u in table_units(None, 0, text) for c in row_cells(u) if c.label == "Net revenue"]
    assert all(c.period != "Fiscal years ended December 25, 2021" or c.value == "79,474" for c in by_text)
    path.unlink()  # the layout read was stored with the build: answering never opens the source PDF
    assert {c.period: c.value for u in table_units(processed.doc_id, 0, text) for c in row_cells(u)
            if c.label == "Net revenue"} == by_layout


def test_the_preview_of_a_row_citation_shows_its_columns(pdf_home):
    """A figure answer's citation carries the column headers of its table row; the citation dialog
    shows them above the quoted row."""
    from streamlit.testing.v1 import AppTest

    from agent.run import run_turn
    from agent.state import AgentContext
    from storage.retrieval.hybrid import HybridRetriever
    from tests.fixtures_statements import make_statement_pdf

    pdf = process_and_index_pdf(make_statement_pdf(pdf_home / "source" / "northwind_2019_10k.pdf"))
    result = run_turn(AgentContext(llm=None, web=None, get_retriever=HybridRetriever, history=None),
                      "What were purchases of property, plant and equipment in 2019?", selected_doc_ids=[pdf.doc_id])
    cited = [c for c in result.citations if c.metadata.columns]
    assert cited and cited[0].metadata.columns == ["Years ended December 31, 2019", "Years ended December 31, 2018"]

    def dialog(citation_json: str) -> None:
        from storage.schema import Citation
        from ui.citation_view import citation_dialog

        citation_dialog(Citation.model_validate_json(citation_json))

    at = AppTest.from_function(dialog, args=(cited[0].model_dump_json(),), default_timeout=30).run()
    assert not at.exception
    assert any("Columns: Years ended December 31, 2019 | Years ended December 31, 2018" in c.value for c in at.caption)


def test_a_lone_span_phrase_heads_every_column_and_another_only_its_own():
    """"Three Months Ended" centred over five trailing quarters heads all five; "Percent Change"
    centred over two of four columns heads only those two."""
    edges = (330, 395, 460, 525, 590)

    def quarters(page):
        centred(page, 460, 90, "Three Months Ended")
        for x1, label in zip(edges, ("June 30, 2023", "March 31, 2023", "December 31, 2022", "September 30, 2022",
                                     "June 30, 2022")):
            right_aligned(page, x1, 102, label, 7)
        page.insert_text((56, 120), "Net revenues", fontsize=9)
        for x1, v in zip(edges, ("2,540", "2,510", "2,510", "2,380", "2,422")):
            right_aligned(page, x1, 120, v)

    assert _cells(page_with(quarters))["Net revenues"]["Three Months Ended June 30, 2022"] == "2,422"

    def change(page):
        centred(page, (RIGHT_EDGES[1] + RIGHT_EDGES[2]) / 2 - 15, 90, "Percent Change")
        for x1, label in zip(RIGHT_EDGES, ("2023", "Actual", "Constant", "2022")):
            right_aligned(page, x1, 102, label)
        page.insert_text((56, 120), "Total revenues", fontsize=9)
        for x1, v in zip(RIGHT_EDGES, ("49,954", "18%", "22%", "42,440")):
            right_aligned(page, x1, 120, v)

    cells = _cells(page_with(change))["Total revenues"]
    assert cells["2023"] == "49,954" and cells["2022"] == "42,440"
    assert cells["Percent Change Actual"] == "18%"
