"""Bad input: each gives a clear error naming the file and the reason, and leaves no artifacts."""

from __future__ import annotations

import pytest

from storage.documents import catalog
from storage.documents import extract
from storage.documents import ingest
from storage.documents import intake
from storage.documents import vector_store
from storage.settings import get_settings
from tests.fixtures_pdfs import make_corrupt_pdf, make_encrypted_pdf, make_fake_pdf, make_scanned_pdf, make_text_pdf, make_zero_page_pdf


def _assert_nothing_written():
    destination = get_settings().destination_dir
    leftovers = [p.name for p in destination.iterdir() if p.name not in {".locks", ".chroma", ".rejected"}]  # .rejected: the refusal is remembered
    assert leftovers == []
    assert catalog.list_processed_pdfs() == []
    if (destination / ".chroma").exists():
        assert vector_store.list_collection_names() == []


@pytest.mark.parametrize(
    "maker, reason",
    [
        (make_corrupt_pdf, "corrupt or unreadable"),
        (make_encrypted_pdf, "encrypted"),
        (make_zero_page_pdf, "has no pages"),
        (make_fake_pdf, "is not a PDF"),
    ],
)
def test_unusable_files_are_refused_cleanly(maker, reason):
    path = maker(get_settings().source_dir / "bad input.pdf")
    with pytest.raises(catalog.PdfProcessingError) as err:
        ingest.process_and_index_pdf(path)
    assert "bad input.pdf" in str(err.value) and reason in str(err.value)
    _assert_nothing_written()


def test_empty_file():
    path = get_settings().source_dir / "empty.pdf"
    path.write_bytes(b"")
    with pytest.raises(catalog.PdfProcessingError, match="empty.pdf: the file is empty"):
        ingest.process_and_index_pdf(path)
    _assert_nothing_written()


def test_page_limit_is_configurable(monkeypatch):
    monkeypatch.setenv("PDF_MAX_PAGES", "3")
    path = make_text_pdf(get_settings().source_dir / "long.pdf", [f"page {i}" for i in range(5)])
    with pytest.raises(catalog.PdfProcessingError, match=r"long.pdf: has 5 pages; the limit is 3 \(PDF_MAX_PAGES\)"):
        ingest.process_and_index_pdf(path)
    _assert_nothing_written()


def test_file_size_limit(monkeypatch):
    monkeypatch.setenv("PDF_MAX_FILE_MB", "0")
    path = make_text_pdf(get_settings().source_dir / "big.pdf", ["some text that is long enough"])
    with pytest.raises(catalog.PdfProcessingError, match="big.pdf: the file is .* MB; the limit is 0 MB"):
        ingest.process_and_index_pdf(path)
    _assert_nothing_written()


def test_image_only_pdf_without_ocr_engine_is_refused(monkeypatch):
    monkeypatch.setenv("OCR_ENGINE", "none")
    extract.get_ocr_engine.cache_clear()
    try:
        path = make_scanned_pdf(get_settings().source_dir / "scan-only.pdf", ["Some scanned words here"])
        with pytest.raises(catalog.PdfProcessingError, match="scan-only.pdf: no text could be extracted.*no OCR engine"):
            ingest.process_and_index_pdf(path)
    finally:
        extract.get_ocr_engine.cache_clear()
    _assert_nothing_written()


def test_paths_outside_the_source_folder_are_refused(tmp_path):
    outside = make_text_pdf(tmp_path / "outside.pdf", ["this file is not in the source folder"])
    for attempt in (outside, "../../outside.pdf", str(outside)):
        with pytest.raises(catalog.PdfProcessingError, match="outside the source folder"):
            ingest.process_and_index_pdf(attempt)
    # A symlink inside the folder that points outside is refused too.
    link = get_settings().source_dir / "link.pdf"
    link.symlink_to(outside)
    with pytest.raises(catalog.PdfProcessingError, match="outside the source folder"):
        ingest.process_and_index_pdf(link)
    _assert_nothing_written()


def test_missing_and_non_pdf_names():
    with pytest.raises(catalog.PdfProcessingError, match="nope.pdf: no such file"):
        ingest.process_and_index_pdf("nope.pdf")
    (get_settings().source_dir / "notes.txt").write_text("hello")
    with pytest.raises(catalog.PdfProcessingError, match="notes.txt: is not a .pdf file"):
        ingest.process_and_index_pdf("notes.txt")


def test_save_uploaded_pdf_validates_and_never_overwrites(tmp_path, monkeypatch):
    good = make_text_pdf(tmp_path / "x.pdf", ["quarterly report text"]).read_bytes()
    other = make_text_pdf(tmp_path / "y.pdf", ["a different report text"]).read_bytes()

    saved = intake.save_uploaded_pdf("../../evil/report.pdf", good)  # directory parts are dropped
    assert saved == get_settings().source_dir / "report.pdf" and saved.read_bytes() == good
    assert intake.save_uploaded_pdf("report.pdf", good) == saved  # same bytes: same file
    renamed = intake.save_uploaded_pdf("report.pdf", other)  # same name, new bytes: kept apart
    assert renamed != saved and renamed.name.startswith("report-") and saved.read_bytes() == good

    with pytest.raises(catalog.PdfProcessingError, match="only .pdf files"):
        intake.save_uploaded_pdf("data.csv", good)
    with pytest.raises(catalog.PdfProcessingError, match="not a PDF"):
        intake.save_uploaded_pdf("fake.pdf", b"GIF89a not a pdf")
    with pytest.raises(catalog.PdfProcessingError, match="empty"):
        intake.save_uploaded_pdf("empty.pdf", b"")
    monkeypatch.setenv("PDF_MAX_FILE_MB", "0")
    with pytest.raises(catalog.PdfProcessingError, match="the limit is 0 MB"):
        intake.save_uploaded_pdf("big.pdf", good)
    assert sorted(p.name for p in get_settings().source_dir.iterdir()) == sorted([saved.name, renamed.name])
