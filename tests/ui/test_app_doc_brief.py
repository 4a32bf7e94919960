"""Issue 29.5: the empty chat says what each selected PDF is in the sentences a reader wants, from
its own pages and without a model: what the company does (the first sentences of "Item 1.
Business", not the cover's legends nor the table of contents; a release's lead paragraph) and its
headline figures, each opening its page with the row highlighted."""

from __future__ import annotations

import pymupdf

from storage.documents.ingest import process_and_index_pdf
from tests.fixtures_filings import cover_10k, source_path
from tests.fixtures_ui import new_app
from ui.doc_brief import describe, headline_figures

BUSINESS = ("Zenith Tools, Inc. designs and sells cordless power tools for professional builders and "
            "home-improvement retailers. Our products are sold in 40 countries through distributors and our own stores.")
ROWS = [("Net sales", ("48,200", "45,100")), ("Cost of sales", ("31,900", "30,300")),
        ("Operating income", ("7,250", "6,980")), ("Net earnings", ("5,610", "5,020"))]


def _text_page(doc, text: str) -> None:
    doc.new_page().insert_textbox(pymupdf.Rect(56, 56, 540, 790), text, fontsize=10)


def zenith_10k(path):
    doc = pymupdf.open()
    _text_page(doc, cover_10k("ZENITH TOOLS, INC.", "December 31, 2019") + "Indicate by check mark whether the "
               "registrant is a large accelerated filer. See the definitions of large accelerated filer in Rule 12b-2 "
               "of the Exchange Act.")
    _text_page(doc, "TABLE OF CONTENTS\nPART I\nItem 1. Business 3\nItem 1A. Risk Factors 5\nItem 2. Properties 9\n"
               "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations 12\n"
               "Item 8. Financial Statements and Supplementary Data 20")
    _text_page(doc, f"PART I\nItem 1. Business\nOverview\n{BUSINESS}\nThe Company was founded in 1961.")
    page = doc.new_page()
    page.insert_text((56, 80), "CONSOLIDATED STATEMENTS OF EARNINGS", fontsize=11)
    page.insert_text((56, 96), "(In millions, except per share amounts)", fontsize=9)
    page.insert_text((350, 120), "Years ended December 31,", fontsize=9)
    for x, year in zip((380, 470), ("2019", "2018")):
        page.insert_text((x, 134), year, fontsize=9)
    for i, (label, values) in enumerate(ROWS):
        page.insert_text((56, 160 + 20 * i), label, fontsize=10)
        for x, v in zip((380, 470), values):
            page.insert_text((x, 160 + 20 * i), v, fontsize=10)
    doc.save(path)
    return path


def test_a_release_is_described_by_its_lead_paragraph():
    pages = ["Zenith Tools Reports Record Fourth Quarter\nMILWAUKEE, Feb. 3, 2020 -- Zenith Tools, Inc. today reported "
             "fourth-quarter net sales of $12.4 billion, up 6 percent from a year earlier.\nForward-looking statements "
             "in this release are subject to risks and uncertainties that could cause results to differ."]
    assert describe(pages) == ("MILWAUKEE, Feb. 3, 2020 -- Zenith Tools, Inc. today reported fourth-quarter net sales "
                               "of $12.4 billion, up 6 percent from a year earlier.")


def test_the_empty_chat_says_what_the_company_does_and_its_headline_figures(chat_service, ui_env):
    pdf = process_and_index_pdf(zenith_10k(source_path("zenith_2019.pdf")))
    figures = headline_figures(pdf.doc_id, pdf.processed_at, 2019)
    assert [(h.label, h.value, h.page) for h in figures] == [("Net sales", "48,200", 3), ("Net earnings", "5,610", 3),
                                                             ("Operating income", "7,250", 3)]
    assert figures[0].column.endswith("2019") and figures[0].unit == "in millions"

    at = new_app().run()
    assert not at.exception
    shown = "\n".join(m.value for m in at.markdown).replace("\\", "")  # without markdown escapes
    assert "Zenith Tools, Inc. designs and sells cordless power tools" in shown  # Item 1, not the cover or contents
    assert "Rule 12b-2" not in shown and "Risk Factors 5" not in shown and "Its statements print" not in shown
    assert "Net sales: 48,200 (Years ended December 31, 2019; in millions)" in shown
    [button] = [b for b in at.button if (b.key or "") == f"headline-{pdf.doc_id}-0"]
    assert button.label == "page 4"
    button.click().run()
    assert not at.exception
    viewer = at.session_state["viewer"]
    assert (viewer["page"], viewer["passage"]) == (3, "Net sales … 48,200")  # opens the page, the row highlighted


def test_headline_figures_are_the_groups_not_a_guarantors_summary(ui_env):
    """A 10-K's summarized statement of its guarantor ("Obligor Group") comes before the consolidated one:
    the headline is the company's own statement of earnings."""
    path = zenith_10k(source_path("zenith_guarantor.pdf"))
    doc = pymupdf.open(path)
    page = doc.new_page(pno=3)  # before the consolidated statement
    page.insert_text((56, 80), "Statement of Income for Obligor Group", fontsize=11)
    page.insert_text((56, 96), "(In millions)", fontsize=9)
    page.insert_text((350, 120), "Year ended December 31,", fontsize=9)
    page.insert_text((380, 134), "2019", fontsize=9)
    for i, (label, value) in enumerate([("Net sales", "959"), ("Operating income", "178"), ("Net earnings", "3,057")]):
        page.insert_text((56, 160 + 20 * i), label, fontsize=10)
        page.insert_text((380, 160 + 20 * i), value, fontsize=10)
    doc.saveIncr()
    doc.close()
    pdf = process_and_index_pdf(path)
    figures = headline_figures(pdf.doc_id, pdf.processed_at, 2019)
    assert [(h.label, h.value, h.page) for h in figures][:2] == [("Net sales", "48,200", 4), ("Net earnings", "5,610", 4)]
