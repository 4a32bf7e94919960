"""Bad input: each gives a clear error naming the file and the reason, and leaves no artifacts."""

from __future__ import annotations

import pytest

from storage import pdf_processing as pp
from storage import vector_store
from storage.settings import get_settings
from tests.fixtures_pdfs import (
    make_corrupt_pdf,
    make_encrypted_pdf,
    make_fake_pdf,
    make_scanned_pdf,
    make_text_pdf,
    make_zero_page_pdf,
)


def _assert_nothing_written():
    destination = get_settings().destination_dir
    leftovers = [p.name for p in destination.iterdir() if p.name not in {".locks", ".chroma", ".rejected"}]  # .rejected: the refusal is remembered
    assert leftovers == []
    assert pp.list_processed_pdfs() == []
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
    with pytest.raises(pp.PdfProcessingError) as err:
        pp.process_and_index_pdf(path)
    assert "bad input.pdf" in str(err.value) and reason in str(err.value)
    _assert_nothing_written()


def test_empty_file():
    path = get_settings().source_dir / "empty.pdf"
    path.write_bytes(b"")
    with pytest.raises(pp.PdfProcessingError, match="empty.pdf: the file is empty"):
        pp.process_and_index_pdf(path)
    _assert_nothing_written()


def test_page_limit_is_configurable(monkeypatch):
    monkeypatch.setenv("PDF_MAX_PAGES", "3")
    path = make_text_pdf(get_settings().source_dir / "long.pdf", [f"page {i}" for i in range(5)])
    with pytest.raises(pp.PdfProcessingError, match=r"long.pdf: has 5 pages; the limit is 3 \(PDF_MAX_PAGES\)"):
        pp.process_and_index_pdf(path)
    _assert_nothing_written()


def test_file_size_limit(monkeypatch):
    monkeypatch.setenv("PDF_MAX_FILE_MB", "0")
    path = make_text_pdf(get_settings().source_dir / "big.pdf", ["some text that is long enough"])
    with pytest.raises(pp.PdfProcessingError, match="big.pdf: the file is .* MB; the limit is 0 MB"):
        pp.process_and_index_pdf(path)
    _assert_nothing_written()


def test_image_only_pdf_without_ocr_engine_is_refused(monkeypatch):
    monkeypatch.setenv("OCR_ENGINE", "none")
    pp.get_ocr_engine.cache_clear()
    try:
        path = make_scanned_pdf(get_settings().source_dir / "scan-only.pdf", ["Some scanned words here"])
        with pytest.raises(pp.PdfProcessingError, match="scan-only.pdf: no text could be extracted.*no OCR engine"):
            pp.process_and_index_pdf(path)
    finally:
        pp.get_ocr_engine.cache_clear()
    _assert_nothing_written()


def test_paths_outside_the_source_folder_are_refused(tmp_path):
    outside = make_text_pdf(tmp_path / "outside.pdf", ["this file is not in the source folder"])
    for attempt in (outside, "../../outside.pdf", str(outside)):
        with pytest.raises(pp.PdfProcessingError, match="outside the source folder"):
            pp.process_and_index_pdf(attempt)
    # A symlink inside the folder that points outside is refused too.
    link = get_settings().source_dir / "link.pdf"
    link.symlink_to(outside)
    with pytest.raises(pp.PdfProcessingError, match="outside the source folder"):
        pp.process_and_index_pdf(link)
    _assert_nothing_written()


def test_missing_and_non_pdf_names():
    with pytest.raises(pp.PdfProcessingError, match="nope.pdf: no such file"):
        pp.process_and_index_pdf("nope.pdf")
    (get_settings().source_dir / "notes.txt").write_text("hello")
    with pytest.raises(pp.PdfProcessingError, match="notes.txt: is not a .pdf file"):
        pp.process_and_index_pdf("notes.txt")


def test_save_uploaded_pdf_validates_and_never_overwrites(tmp_path, monkeypatch):
    good = make_text_pdf(tmp_path / "x.pdf", ["quarterly report text"]).read_bytes()
    other = make_text_pdf(tmp_path / "y.pdf", ["a different report text"]).read_bytes()

    saved = pp.save_uploaded_pdf("../../evil/report.pdf", good)  # directory parts are dropped
    assert saved == get_settings().source_dir / "report.pdf" and saved.read_bytes() == good
    assert pp.save_uploaded_pdf("report.pdf", good) == saved  # same bytes: same file
    renamed = pp.save_uploaded_pdf("report.pdf", other)  # same name, new bytes: kept apart
    assert renamed != saved and renamed.name.startswith("report-") and saved.read_bytes() == good

    with pytest.raises(pp.PdfProcessingError, match="only .pdf files"):
        pp.save_uploaded_pdf("data.csv", good)
    with pytest.raises(pp.PdfProcessingError, match="not a PDF"):
        pp.save_uploaded_pdf("fake.pdf", b"GIF89a not a pdf")
    with pytest.raises(pp.PdfProcessingError, match="empty"):
        pp.save_uploaded_pdf("empty.pdf", b"")
    monkeypatch.setenv("PDF_MAX_FILE_MB", "0")
    with pytest.raises(pp.PdfProcessingError, match="the limit is 0 MB"):
        pp.save_uploaded_pdf("big.pdf", good)
    assert sorted(p.name for p in get_settings().source_dir.iterdir()) == sorted([saved.name, renamed.name])
