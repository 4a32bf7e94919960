"""Documents page with hostile uploads: very long names, refused files not retried by "Process all"
(AppTest, real processing). (A NUL byte in an upload's name is refused by Streamlit's uploader itself,
before the page runs; `save_uploaded_pdf` refuses it too: tests/storage/documents/test_ingestion_names.py.)"""

from __future__ import annotations

import storage.jobs.thread_jobs
from storage.documents import catalog
from storage.documents import extract
from storage.documents import ingest
from storage.documents import intake
from storage.documents.catalog import list_processed_pdfs
from tests.fixtures_pdfs import make_scanned_pdf, make_text_pdf
from tests.fixtures_ui import new_app, wait_for_ingest


def _documents_page():
    at = new_app().run()
    at.switch_page("app_pages/documents.py").run()
    assert not at.exception
    return at


def _upload(at, name: str, data: bytes):
    at.file_uploader[0].upload(name, data, "application/pdf")
    at.run()
    [b for b in at.button if b.label.startswith("Upload and process")][0].click().run()
    assert not at.exception, at.exception
    return at


def test_a_very_long_upload_name_is_shortened_and_processed(ui_env, sample_pdf_bytes):
    at = _upload(_documents_page(), "Northwind annual report " + "really " * 40 + "final.pdf", sample_pdf_bytes)
    wait_for_ingest(at)
    assert not at.error
    [pdf] = list_processed_pdfs()
    assert pdf.source_file.startswith("Northwind annual report really") and len(pdf.source_file.encode()) <= intake.MAX_NAME_BYTES


def test_process_all_does_not_retry_a_refused_file(ui_env, monkeypatch):
    source = ui_env["home"] / "source"
    make_text_pdf(source / "a.pdf", ["Alpha report: revenue was 5 million dollars in 2023."])
    make_text_pdf(source / "b.pdf", ["Beta report: revenue was 7 million dollars in 2023."])
    monkeypatch.setenv("OCR_ENGINE", "none")
    extract.get_ocr_engine.cache_clear()
    try:
        scan = make_scanned_pdf(source / "scan.pdf", ["Only a picture of words"])
        try:
            ingest.process_and_index_pdf(scan)
        except catalog.PdfProcessingError:
            pass
        submitted = []
        real_submit = storage.jobs.thread_jobs.ThreadIngestJobs.submit
        monkeypatch.setattr(storage.jobs.thread_jobs.ThreadIngestJobs, "submit", lambda self, path, *a, **kw: submitted.append(str(path)) or real_submit(self, path, *a, **kw))
        at = _documents_page()
        assert any(c.value.startswith("Refused: no text could be extracted") for c in at.caption)
        [b for b in at.button if b.label == "Process all"][0].click().run()
        wait_for_ingest(at)
    finally:
        extract.get_ocr_engine.cache_clear()
    assert sorted(submitted) == [str(source / "a.pdf"), str(source / "b.pdf")]
    assert sorted(p.source_file for p in list_processed_pdfs()) == ["a.pdf", "b.pdf"]


def test_what_was_skipped_is_shown_with_the_pdf(ui_env):
    import pymupdf

    path = ui_env["home"] / "source" / "poster.pdf"
    doc = pymupdf.open()
    doc.new_page().insert_textbox(pymupdf.Rect(56, 56, 540, 790), "Revenue was 12 million dollars in 2023. " * 5)
    doc.new_page(width=14400, height=14400).insert_text((100, 100), "x")
    doc.save(path)
    ingest.process_and_index_pdf(path)
    at = _documents_page()
    assert any(c.value.startswith("Not read: page 2\\: the page is 200 x 200 inches") for c in at.caption), [c.value for c in at.caption]
