"""Documents page (AppTest): upload, background processing with live progress and counts, bad
uploads, the sidebar picker, re-index, delete, and the first-run offer on the chat page."""

from __future__ import annotations

from storage.documents.catalog import list_processed_pdfs
from tests.fixtures_ui import new_app, wait_for_ingest, doc_picker, has_doc_picker


def _documents_page():
    at = new_app().run()
    at.switch_page("app_pages/documents.py").run()
    assert not at.exception
    return at


def _texts(at) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [e.value for e in at.error] + [s.value for s in at.success] + [i.value for i in at.info]
    return "\n".join(parts)


def test_upload_processes_the_pdf_and_selects_it_for_chat(ui_env, sample_pdf_bytes):
    at = _documents_page()
    assert "No PDF is processed yet" in _texts(at)
    at.file_uploader[0].upload("northwind.pdf", sample_pdf_bytes, "application/pdf")
    at.run()
    [b for b in at.button if b.label.startswith("Upload and process")][0].click().run()
    assert not at.exception
    wait_for_ingest(at)
    text = _texts(at)
    assert "northwind\\.pdf is ready: 4 pages" in text
    [pdf] = list_processed_pdfs()
    assert pdf.page_count == 4 and pdf.chunk_count > 0
    assert (ui_env["home"] / "source" / "northwind.pdf").read_bytes() == sample_pdf_bytes
    assert f"northwind\\.pdf · 4 pages, {pdf.chunk_count} chunks" in text
    picker = doc_picker(at)
    assert picker.value == [pdf.doc_id]
    assert "Every PDF in the source folder is processed." in text


def test_a_renamed_non_pdf_is_refused_with_a_clear_message_and_nothing_kept(ui_env):
    at = _documents_page()
    at.file_uploader[0].upload("notes.pdf", b"just some text, not a pdf", "application/pdf")
    at.run()
    [b for b in at.button if b.label.startswith("Upload and process")][0].click().run()
    assert not at.exception
    assert any("is not a PDF" in e.value and "try again" in e.value for e in at.error)
    assert list((ui_env["home"] / "source").iterdir()) == []
    assert list_processed_pdfs() == []


def test_source_folder_pdf_can_be_processed_then_deleted(ui_env, sample_pdf_bytes):
    (ui_env["home"] / "source" / "report.pdf").write_bytes(sample_pdf_bytes)
    at = _documents_page()
    assert "In the source folder, not processed (1)" in [h.value for h in at.subheader]
    at.button(key="process-report.pdf").click().run()
    wait_for_ingest(at)
    [pdf] = list_processed_pdfs()
    assert doc_picker(at).value == [pdf.doc_id]
    at.button(key=f"delete-{pdf.doc_id}").click().run()
    assert not at.exception
    assert list_processed_pdfs() == []
    assert "Deleted the index of report\\.pdf." in _texts(at)
    assert not has_doc_picker(at)  # nothing left to pick
    assert (ui_env["home"] / "source" / "report.pdf").exists()  # the file itself stays


def test_reindex_shows_progress_and_keeps_the_pdf_processed(ui_env, sample_pdf_bytes):
    (ui_env["home"] / "source" / "report.pdf").write_bytes(sample_pdf_bytes)
    from storage.documents.ingest import process_and_index_pdf

    before = process_and_index_pdf(ui_env["home"] / "source" / "report.pdf")
    at = _documents_page()
    at.button(key=f"reindex-{before.doc_id}").click().run()
    wait_for_ingest(at)
    assert f"report\\.pdf re-indexed: 4 pages, {before.chunk_count} chunks." in _texts(at)
    [after] = list_processed_pdfs()
    assert after.doc_id == before.doc_id and after.processed_at >= before.processed_at


def test_first_run_offers_to_process_the_shipped_pdfs_from_the_chat(ui_env, sample_pdf_bytes):
    (ui_env["home"] / "source" / "sample.pdf").write_bytes(sample_pdf_bytes)
    at = new_app().run()
    assert any("1 PDF in the source folder is not processed yet: sample\\.pdf" in m.value for m in at.markdown)
    at.button(key="first-run-process").click().run()
    wait_for_ingest(at)
    [pdf] = list_processed_pdfs()
    assert doc_picker(at).value == [pdf.doc_id]
    assert all(b.key != "first-run-process" for b in at.button)


def test_processing_shows_progress_and_survives_other_clicks(ui_env, sample_pdf_bytes, monkeypatch):
    """A chat message or click interrupts a Streamlit run; processing runs in the background, so
    it goes on, and the page shows its stage meanwhile."""
    import threading

    from storage.documents import ingest

    gate = threading.Event()
    real = ingest.process_and_index_pdf

    def slow(path, progress=None, **kw):
        progress("Embedding chunks", 2, 5)
        assert gate.wait(30)
        return real(path, progress=progress, **kw)

    monkeypatch.setattr(ingest, "process_and_index_pdf", slow)
    (ui_env["home"] / "source" / "report.pdf").write_bytes(sample_pdf_bytes)
    at = _documents_page()
    at.button(key="process-report.pdf").click().run()
    for _ in range(50):  # the worker thread reports its first stage
        at.run()
        bars = at.get("progress")
        if bars and "Embedding chunks (2/5)" in str(bars[0].proto):
            break
    assert "Embedding chunks (2/5)" in str(at.get("progress")[0].proto)
    assert [s.label for s in at.status] == ["Processing report.pdf…"]
    assert "Processing…" in _texts(at)  # no second "Process" button for the same file
    at.switch_page("app_pages/chat.py").run()  # the user goes elsewhere meanwhile
    gate.set()
    wait_for_ingest(at)
    [pdf] = list_processed_pdfs()
    assert doc_picker(at).value == [pdf.doc_id]
    assert any("report\\.pdf is ready" in s.value for s in at.success)


def test_a_broken_pdf_in_the_source_folder_reports_why_and_leaves_nothing(ui_env):
    (ui_env["home"] / "source" / "broken.pdf").write_bytes(b"%PDF-1.7\n this is not really a pdf \n%%EOF")
    at = _documents_page()
    at.button(key="process-broken.pdf").click().run()
    wait_for_ingest(at)
    [error] = [e.value for e in at.error]
    assert error.startswith("broken\\.pdf\\:") and "Fix the file" in error
    assert list_processed_pdfs() == []
    assert [p.name for p in (ui_env["home"] / "destination").iterdir() if not p.name.startswith(".")] == []


def test_a_file_name_in_the_progress_label_cannot_become_a_link(ui_env, sample_pdf_bytes, monkeypatch):
    """Status and progress labels render markdown links; a hostile file name stays text."""
    import threading

    from storage.documents import ingest

    gate = threading.Event()
    real = ingest.process_and_index_pdf

    def slow(path, progress=None, **kw):
        progress("Reading [pages](javascript:x)", 1, 5)
        gate.wait(30)
        return real(path, progress=progress, **kw)

    monkeypatch.setattr(ingest, "process_and_index_pdf", slow)
    name = "[x](javascript:alert(1)).pdf"
    (ui_env["home"] / "source" / name).write_bytes(sample_pdf_bytes)
    at = _documents_page()
    try:
        at.button(key=f"process-{name}").click().run()
        for _ in range(50):
            at.run()
            if at.status and at.get("progress") and "Reading" in str(at.get("progress")[0].proto):
                break
        assert [s.label for s in at.status] == ["Processing \\[x\\](javascript\\:alert(1)).pdf…"]
        assert "Reading \\\\[pages\\\\](javascript\\\\:x) (1/5)" in str(at.get("progress")[0].proto)
    finally:
        gate.set()
    wait_for_ingest(at)
