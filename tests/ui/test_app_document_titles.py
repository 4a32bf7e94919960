"""Documents page and sidebar picker show each filing's title (issuer · form · period), unique."""

from __future__ import annotations

from storage.documents.ingest import process_and_index_pdf
from tests.fixtures_filings import cover_10k, source_path, write_pages
from tests.fixtures_ui import new_app, doc_picker
from ui.safe_text import escape_markdown


def test_titles_on_the_documents_page_and_in_the_picker(ui_env):
    pages = [cover_10k("ACME ROCKETS, INC.", "December 31, 2018"), "Item 1. Business. Acme designs launch vehicles."]
    a = process_and_index_pdf(write_pages(source_path("scan_01.pdf"), pages))
    b = process_and_index_pdf(write_pages(source_path("scan_02.pdf"), pages + ["Exhibit 21. Subsidiaries."]))
    at = new_app().run()
    at.switch_page("app_pages/documents.py").run()
    assert not at.exception
    bold = [m.value for m in at.markdown if m.value.startswith("**")]
    acme = [t for t in bold if escape_markdown("Acme Rockets · 10-K · FY2018") in t]
    assert len(acme) == 2 and len(set(acme)) == 2  # both shown, never under the same title
    picker = doc_picker(at)
    labels = {picker.format_func(d) for d in (a.doc_id, b.doc_id)}
    assert len(labels) == 2 and all(label.startswith("Acme Rockets · 10-K · FY2018") for label in labels)
    assert labels == {"Acme Rockets · 10-K · FY2018 (scan_01.pdf)", "Acme Rockets · 10-K · FY2018 (scan_02.pdf)"}


def test_a_title_that_is_only_the_form_is_the_file_name_in_the_picker(sample_processed):
    """The sample report names no issuer or period its metadata reads: "annual report" alone would tell the
    user nothing (and two such reports would read alike); the picker shows its file name."""
    at = new_app().run()
    assert not at.exception
    assert doc_picker(at).format_func(sample_processed.doc_id) == sample_processed.source_file
