"""No-model answers that state the figure: the matching row's cell with its period, cited; quotes
that end at sentence or row boundaries; the preview highlighting exactly the quoted words."""

from __future__ import annotations

import re

import pymupdf
import pytest

from agent.citations.answer import build_answer
from agent.no_model.extractive import compose_extractive_answer, ends_at_boundary, is_complete
from storage.schema import Source
from agent.no_model.figure_periods import AskedPeriod, asked_period
from agent.no_model.figures import is_figure_question
from agent.run import run_turn
from agent.citations.quotes import quotes_by_marker
from storage.documents.ingest import process_and_index_pdf
from tests.fixtures_agent import context
from tests.fixtures_statements import make_statement_pdf
from ui.citations import cited_words
from ui.page_images import find_passage_rects

# `<label> (<column>): <value as printed, with its currency> <scale> [^n]`
FIGURE_LINE = re.compile(r"^- (?P<label>.+) \((?P<period>[^()]+)\): (?P<value>\S+)(?: (?P<unit>million|billion|thousand|"
                         r"per share))?(?: — (?P<said>[^\n]+?))? "
                         r"(?P<marker>\[\^\d+\])$", re.M)


@pytest.fixture
def statement(pdf_home):
    path = make_statement_pdf(pdf_home / "source" / "northwind_2019_10k.pdf")
    processed = process_and_index_pdf(path)
    processed.__dict__["pdf"] = path  # the test reads the page back with PyMuPDF
    return processed


def _lead(result) -> re.Match:
    m = FIGURE_LINE.search(result.message)
    assert m, result.message
    return m


@pytest.mark.parametrize(
    "question, period, value",
    [
        ("What were purchases of property, plant and equipment in 2018?", "Years ended December 31, 2018", "(1,577)"),
        ("What was the FY2019 capital expenditure?", "Years ended December 31, 2019", "(1,834)"),
        # no period named: the most recent column
        ("How much did the company spend on purchases of property, plant and equipment?", "Years ended December 31, 2019", "(1,834)"),
        ("What were debt repayments in fiscal 2018?", "Years ended December 31, 2018", "(7,183)"),
    ],
)
def test_figure_question_is_answered_with_row_and_period(statement, question, period, value):
    result = run_turn(context(), question, selected_doc_ids=[statement.doc_id])
    lead = _lead(result)
    # the printed value with the currency and scale of the table's caption ("(Dollars in millions)"), once
    assert (lead["period"], lead["value"], lead["unit"], lead["said"]) == (period, f"${value}", "million", None)
    assert result.message.index(lead.group(0)) < result.message.find("“") or "“" not in result.message  # figure first
    citation = next(c for c in result.citations if c.marker == lead["marker"])
    assert citation.metadata.page == 1 and citation.metadata.doc_id == statement.doc_id
    # the stated row is printed on the cited page with that value in that period's column
    assert f"{lead['label']}\n" in pymupdf.open(statement.__dict__['pdf'])[0].get_text()


def test_non_figure_question_gets_no_table_lead(statement):
    result = run_turn(context(), "Why were capital expenditures lower?", selected_doc_ids=[statement.doc_id])
    assert not FIGURE_LINE.search(result.message)
    assert "main expansion programme" in result.message


def test_question_periods_and_kinds():
    assert asked_period("What is the FY2018 capital expenditure?").years == (2018,)
    assert asked_period("Was there any drop between FY 2023 and Q2 of FY2024?").quarter == 2
    assert asked_period("and in fiscal year 2021 vs 2020?").years == (2021, 2020)
    # the selection prior's parser: a range names every year in it, "second fiscal quarter" a quarter
    assert asked_period("3 year average net profit margin for FY2015 - FY2017").years == (2015, 2016, 2017)
    assert asked_period("Net sales in the second fiscal quarter of 2023?") == AskedPeriod((2023,), 2, 3, fiscal=True)
    assert not asked_period("Net sales in the quarter ended June 30, 2023?").fiscal
    assert is_figure_question("How much was the Real change in Sales for AMCOR in FY 2023?")
    assert not is_figure_question("Why did operating margin fall in 2022?")
    assert not is_figure_question("Is Boeing's business subject to cyclicality?")


def test_quotes_never_end_mid_sentence_or_mid_word():
    page = ("Revenue for fiscal 2023 rose to 412 million euros on strong demand for batteries in every region. "
            "Operating margin improved to 11.5 percent as battery plants ran at full capacity all year long.")
    # a chunk cut at a chunk edge in the middle of the second sentence (and of the word "capacity")
    chunk = "Revenue for fiscal 2023 rose to 412 million euros on strong demand for batteries in every region. " \
            "Operating margin improved to 11.5 percent as battery plants ran at full capac"
    src = Source(source_id="[^1]", kind="document", text=chunk, doc_id="d", page_number=0)
    text, usable = compose_extractive_answer("How did revenue and the operating margin of the battery plants develop?",
                                             [src], lambda s: page)
    assert usable
    quotes = re.findall(r"“([^”]+)”", text)
    assert quotes and all(q.endswith(".") for q in quotes), quotes
    assert not any("capac" in q and "capacity" not in q for q in quotes)
    assert not is_complete("Operating margin improved to 11.5 percent as battery plants ran at full capac")
    assert not ends_at_boundary("Operating margin improved to 11.5 percent as battery plants ran at full capac", page)
    assert not is_complete("plants ran at full capacity all year long.")  # starts mid-sentence
    assert is_complete("Purchases of property, plant and equipment (1,834) (1,577)")  # a whole table row
    # a printed line without closing punctuation is whole when the next line starts anew
    assert ends_at_boundary("Quarterly outlook by region", "Quarterly outlook by region\nRevenue rose.")
    assert not ends_at_boundary("Quarterly outlook by", "Quarterly outlook by\nregion and segment.")


def test_preview_highlights_exactly_the_quoted_cell_not_the_same_number_elsewhere(statement):
    page = pymupdf.open(statement.__dict__['pdf'])[0]
    src = {"source_id": "[^1]", "kind": "document", "text": "…", "doc_id": statement.doc_id,
           "source_file": statement.source_file, "page_number": 0, "chunk_id": 0}
    answer = build_answer(
        "- Purchases of property, plant and equipment (Years ended December 31, 2018): (1,577) [^1]\n\n"
        "- “Capital expenditures were lower in 2018 as the company completed its main expansion programme.” [^1]",
        {"[^1]": src}, knowledge=False, mode="extractive")
    (citation,) = answer.citations
    assert citation.metadata.quotes == [
        "Purchases of property, plant and equipment … (1,577)",
        "Capital expenditures were lower in 2018 as the company completed its main expansion programme.",
    ]
    rects = find_passage_rects(page, cited_words(citation))
    label = page.search_for("Purchases of property, plant and equipment")[0]
    # "(1,577)" is printed twice on the page: in the capex row and in the accounts receivable row
    same_figure = page.search_for("(1,577)")
    assert len(same_figure) == 2
    on_row = [r for r in same_figure if abs(r.y0 - label.y0) < 2]
    sentence = page.search_for("Capital expenditures were lower in 2018 as the company completed its main expansion programme.")
    assert rects == [label, *on_row, *sentence]
    assert not any(r == other for r in rects for other in same_figure if other not in on_row)


def test_quotes_by_marker_reads_both_forms():
    text = ("Searched for: “x”\n\n- Other income (expense), net (Years ended December 31, 2018): $1,980 — $1,980 million "
            "in fiscal 2018 [^3]\n"
            "- “Revenue grew 12% to $4.1 billion.” [^3]\nRevenue (FY2023): **$14,694** million [^5]")
    assert quotes_by_marker(text) == {
        "[^3]": ["Other income (expense), net … $1,980", "Revenue grew 12% to $4.1 billion."],
        "[^5]": ["Revenue … $14,694"],
    }

