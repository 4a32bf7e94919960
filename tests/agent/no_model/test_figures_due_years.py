"""A year asked as the due year of a maturity schedule names the schedule's ROW ("2027", "Fiscal 2027",
"Thereafter"), not its column's period (the schedule's as-of date or title): agent/no_model/due_years.py.
Generated PDFs read by layout: the one-column schedule of tests/storage/documents/test_facts_due_year_schedules.py
and a statement whose columns are years (the guard: unchanged)."""

from __future__ import annotations

import pymupdf
import pytest

from agent.no_model.figures import INTRO, figure_block
from storage.documents.embeddings import get_embedder
from storage.documents.table_layout import layout_units
from storage.schema import Source
from tests.agent.no_model.pdf_statements import Page, build_pdf
from tests.storage.documents.due_year_pages import one_column_schedule, stub_schedule

CAPTION = "Future principal payments of our borrowings at June 30, 2024 were as follows (in millions):"
BALANCE = Page("CONSOLIDATED BALANCE SHEETS", ("2024", "2023"), [
    ("Current portion of long-term debt", "1,250", "1,100"),
    ("Long-term debt", "11,200", "12,300"),
    ("Total liabilities", "30,400", "29,900"),
], span="June 30,")


def _sources(monkeypatch, pages: list[bytes]):
    texts, words = [], []
    for data in pages:
        doc = pymupdf.open(stream=data)
        texts += [p.get_text() for p in doc]
        words += [p.get_text("words") for p in doc]
        doc.close()
    monkeypatch.setattr("agent.no_model.cited_rows.table_units", lambda doc_id, page, text: layout_units(words[page]))
    monkeypatch.setattr("agent.no_model.cited_rows.fiscal_period", lambda doc_id: (2024, None))
    monkeypatch.setattr("agent.no_model.cited_rows.fiscal_year_end", lambda doc_id: None)
    sources = [Source(source_id=f"[^{i + 1}]", kind="document", doc_id="northwind-10k", page_number=i,
                      source_file="NORTHWIND_2024_10K.pdf", text=t, extra={"issuer": ""}) for i, t in enumerate(texts)]
    return sources, lambda src: texts[src.page_number]


@pytest.fixture
def schedule(monkeypatch):
    return _sources(monkeypatch, [one_column_schedule(CAPTION, title="Principal Payments")])


def _lead(question: str, sources, text) -> str | None:
    block = figure_block(question, sources, text, get_embedder())
    return block[1] if block and block[0] == INTRO else None


@pytest.mark.parametrize("question", ["How much principal is due in fiscal 2027?",
                                      "How much of Northwind's borrowings mature in 2027?"])
def test_the_asked_due_year_is_the_schedules_row(schedule, question):
    lead = _lead(question, *schedule)
    assert lead and lead.startswith("- 2027 (") and "2,400" in lead and "June 30, 2024" in lead, lead


def test_after_the_last_year_and_thereafter_are_the_thereafter_row(schedule):
    for question in ("What principal payments are due after 2028?", "What principal payments are due thereafter?"):
        lead = _lead(question, *schedule)
        assert lead and lead.startswith("- Thereafter") and "7,300" in lead, (question, lead)


def test_within_one_year_is_the_first_year_row(schedule):
    lead = _lead("How much principal is due within one year?", *schedule)
    assert lead and lead.startswith("- 2025 (") and "1,250" in lead, lead


def test_a_year_the_schedule_does_not_print_gets_no_figure(schedule):
    for question in ("How much principal is due in 2031?", "What principal payments are due after 2026?"):
        block = figure_block(question, *schedule, get_embedder()) or []
        assert not any(v in line for line in block for v in ("2,400", "7,300", "1,250", "980", "615", "12,545")), block


def test_a_year_asked_of_a_statement_whose_columns_are_years_is_unchanged(monkeypatch, tmp_path):
    statement = build_pdf(tmp_path / "b.pdf", [BALANCE]).read_bytes()
    sources, text = _sources(monkeypatch, [statement, one_column_schedule(CAPTION, title="Principal Payments")])
    lead = _lead("What was Northwind's long-term debt in 2024?", sources, text)
    assert lead and "11,200" in lead, lead
    lead = _lead("What were total liabilities in 2023?", sources, text)
    assert lead and "29,900" in lead, lead
    # a due year before the schedule's first row: no row of it, no schedule figure
    block = figure_block("How much long-term debt did Northwind owe in 2024?", sources, text, get_embedder()) or []
    assert not any(v in line for line in block for v in ("2,400", "7,300", "1,250", "980", "615")), block


def test_a_schedule_of_another_obligation_does_not_answer(schedule):
    # the asking's words ("payments due") are every schedule's: the obligation's words ("operating lease") pick one
    for question in ("What operating lease payments are due in 2027?", "What purchase obligations are due in 2027?"):
        block = figure_block(question, *schedule, get_embedder()) or []
        assert not any("2,400" in line for line in block), (question, block)


LEASES = ("Lease liability maturities as of September 24, 2022, are as follows (in millions):",
          (("Operating", "Finance", ""), ("Leases", "Leases", "Total")))


@pytest.fixture
def leases(monkeypatch):
    return _sources(monkeypatch, [stub_schedule(*LEASES)])


def test_the_column_whose_head_says_most_of_the_question_s_words(leases):
    # "lease" is said by both heads: "operating" tells the column
    lead = _lead("How much in operating lease payments does Northwind owe in 2026 per its lease maturity schedule?", *leases)
    assert lead and lead.startswith("- 2026 (") and "1,742" in lead, lead
    lead = _lead("What finance lease payments are due in 2027?", *leases)
    assert lead and "81" in lead and "1,677" not in lead, lead


def test_heads_said_alike_name_no_column(leases):
    block = figure_block("How much in lease payments is due in 2026?", *leases, get_embedder()) or []
    assert not any(v in line for line in block for v in ("1,742", "130")), block
