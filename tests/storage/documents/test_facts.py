"""Facts read once at ingestion and stored with the build (storage/documents/facts.py), on generated filings."""

from __future__ import annotations

import json
import logging

import pymupdf
import pytest

from agent.run import run_turn
from storage.documents import facts as facts_module
from storage.documents.catalog import get_pdf_output_dirs, load_page_texts
from storage.documents.facts import FactsMissing, main, page_facts, stored_tables
from storage.documents.ingest import process_and_index_pdf
from storage.documents.page_tables import statement_pages, table_units
from storage.documents.tables import row_cells
from tests.fixtures_agent import context
from tests.storage.documents.statement_pdfs import RUNNING_HEADER, statement_filing


@pytest.fixture
def filing(pdf_home):
    facts_module.clear_cache()
    return process_and_index_pdf(statement_filing(pdf_home / "source" / "northwind_2022_10k.pdf",
                                                  running_header=RUNNING_HEADER))


def _fact(doc_id, page, label, column):
    return next(f for f in page_facts(doc_id, page) if f.label == label and f.column == column)


def test_each_value_is_a_fact_with_its_period_unit_scale_and_boxes(filing):
    sales = _fact(filing.doc_id, 2, "Net sales", 0)
    assert (sales.value_text, sales.value, sales.unit, sales.scale, sales.scale_caption) == \
        ("$34,229", 34229.0, "USD", 1e6, "Millions")
    assert (sales.period, sales.period_start, sales.period_end, sales.duration_months, sales.as_of) == \
        ("Years ended December 31, 2022", "2022-01-01", "2022-12-31", 12, None)
    assert sales.concept == "Revenues" and sales.table == 0 and sales.page == 2
    # the boxes are where the words are printed: the label at the left, the value right-aligned in its column
    with pymupdf.open(filing.source_path) as doc:
        page = doc[2]
        assert page.get_textbox(pymupdf.Rect(sales.label_box) + (-1, -1, 1, 1)).strip() == "Net sales"
        assert "34,229" in page.get_textbox(pymupdf.Rect(sales.value_box) + (-1, -1, 1, 1))
    eps = _fact(filing.doc_id, 2, "Diluted earnings per share", 1)
    assert (eps.value, eps.unit, eps.scale, eps.fiscal_year) == (2.08, "USD/share", 1.0, 2021)
    assets = _fact(filing.doc_id, 3, "Total assets", 0)
    assert (assets.as_of, assets.duration_months, assets.concept, assets.value * assets.scale) == \
        ("2022-12-31", None, "Assets", 61_450e6)
    # the running header and page numbers are no fact, no section, no path
    assert all("ANNUAL" not in f.label and "ANNUAL" not in " ".join(f.path) for f in page_facts(filing.doc_id, 2))
    assert not any(f.section for f in page_facts(filing.doc_id, 2))


def test_answers_never_open_the_source_pdf(filing, monkeypatch):
    def no_open(*args, **kwargs):
        raise AssertionError("the source PDF was opened to answer")

    monkeypatch.setattr(pymupdf, "open", no_open)
    monkeypatch.setattr(pymupdf, "Document", no_open)
    assert statement_pages(filing.doc_id) == [2, 3]
    text = load_page_texts(filing.doc_id)[2]
    assert {c.value for u in table_units(filing.doc_id, 2, text) for c in row_cells(u) if c.label == "Net sales"} == \
        {"$34,229", "$31,102"}
    message = run_turn(context(), "What were net sales in 2022?", selected_doc_ids=[filing.doc_id]).message
    assert "Net sales (Years ended December 31, 2022): $34,229 million" in message  # the figure line, said once


def _make_old(doc_id):
    dirs = get_pdf_output_dirs(doc_id)
    dirs.facts_path.unlink()
    dirs.tables_path.unlink()
    facts_module.clear_cache()


def test_a_build_made_before_facts_says_so_and_backfill_adds_them(filing, caplog):
    _make_old(filing.doc_id)
    with pytest.raises(FactsMissing):
        stored_tables(filing.doc_id)
    with caplog.at_level(logging.WARNING):
        units = table_units(filing.doc_id, 2, load_page_texts(filing.doc_id)[2])
    assert "--backfill" in caplog.text and units  # read by the text parser, loudly
    assert main(["--backfill"]) == 0
    assert _fact(filing.doc_id, 2, "Net sales", 0).value == 34229.0
    assert main(["--backfill"]) == 0  # idempotent: nothing left to add


def test_backfill_rebuild_reads_every_builds_facts_again(filing):
    dirs = get_pdf_output_dirs(filing.doc_id)
    dirs.facts_path.write_text("[]")  # facts today's reader is stamped on (here: none at all)
    facts_module.clear_cache()
    assert main(["--backfill"]) == 0 and page_facts(filing.doc_id, 2) == []  # kept: today's reader wrote them
    assert main(["--backfill", "--rebuild"]) == 0
    facts_module.clear_cache()
    assert _fact(filing.doc_id, 2, "Net sales", 0).value == 34229.0


def _stamp_older_reader(doc_id, facts="[]"):
    """Facts and tables as an older reader wrote them: no reader stamp (here: no facts either)."""
    dirs = get_pdf_output_dirs(doc_id)
    tables = json.loads(dirs.tables_path.read_text("utf-8"))
    assert tables.pop("reader") == facts_module.READER  # today's builds carry the stamp
    dirs.tables_path.write_text(json.dumps(tables))
    dirs.facts_path.write_text(facts)
    facts_module.clear_cache()


def test_backfill_reads_again_the_facts_an_older_reader_wrote(filing):
    _stamp_older_reader(filing.doc_id)
    assert page_facts(filing.doc_id, 2) == []  # answers read the older facts until the build is upgraded
    assert main(["--backfill"]) == 0
    facts_module.clear_cache()
    assert _fact(filing.doc_id, 2, "Net sales", 0).value == 34229.0
    mtime = get_pdf_output_dirs(filing.doc_id).facts_path.stat().st_mtime_ns
    assert main(["--backfill"]) == 0  # today's reader wrote them: nothing read again
    assert get_pdf_output_dirs(filing.doc_id).facts_path.stat().st_mtime_ns == mtime


def test_processing_again_reads_an_older_readers_facts_in_place(filing, pdf_home):
    _stamp_older_reader(filing.doc_id)
    again = process_and_index_pdf(pdf_home / "source" / "northwind_2022_10k.pdf")
    assert again.build == filing.build  # the same build (no re-embedding), its facts read again
    assert _fact(filing.doc_id, 2, "Net sales", 0).value == 34229.0


def test_processing_an_already_processed_pdf_adds_missing_facts(filing, pdf_home):
    _make_old(filing.doc_id)
    again = process_and_index_pdf(pdf_home / "source" / "northwind_2022_10k.pdf")
    assert again.build == filing.build  # the same build, upgraded in place
    assert _fact(filing.doc_id, 3, "Total assets", 0).value == 61450.0
