"""Per-image and per-page limits: what is too large to process is skipped with a note in the manifest,
the rest of the PDF is processed, and memory stays bounded (peak RSS measured in a child process).
Damaged (truncated) PDFs are named as such before any OCR; the CLI and /ingest reply, never raise."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
import zlib
from pathlib import Path

import pymupdf
import pytest

from storage.documents import catalog
from storage.documents import extract
from storage.documents import ingest
from storage.documents import intake
from storage.documents import maintenance
from storage.jobs.thread_jobs import ThreadIngestJobs
from storage.settings import PROJECT_ROOT, get_settings
from tests.fixtures_pdfs import make_text_pdf

BODY = "Revenue was 12 million dollars in fiscal 2023, up from 9 million. Margins improved. " * 4
SAMPLE_PDF = PROJECT_ROOT / "pdf_files" / "source" / "northwind_annual_report_2023.pdf"


def make_pdf_with_image(path: Path, side: int) -> Path:
    """A page of text with a `side` x `side` px gray image below it. The image stream is written
    deflated directly (a white 30000 px square is 0.9 GB decoded but under 1 MB in the file)."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(56, 56, 540, 300), BODY, fontsize=11)
    placeholder = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 200, 200), False)
    placeholder.clear_with(255)
    page.insert_image(pymupdf.Rect(56, 320, 540, 760), pixmap=placeholder)
    xref = page.get_images(full=True)[0][0]
    deflate, row = zlib.compressobj(6), b"\xff" * side
    stream = b"".join(deflate.compress(row) for _ in range(side)) + deflate.flush()
    doc.update_stream(xref, stream, compress=False)
    for key, value in {"Filter": "/FlateDecode", "Width": str(side), "Height": str(side), "ColorSpace": "/DeviceGray",
                       "BitsPerComponent": "8", "SMask": "null", "DecodeParms": "null"}.items():
        doc.xref_set_key(xref, key, value)
    doc.save(path)
    doc.close()
    return path


# Runs in a child process: ingest argv[1], print the manifest's figures and the peak RSS.
CHILD = textwrap.dedent(
    """
    import json, resource, sys
    from storage.documents.ingest import process_and_index_pdf
    m = process_and_index_pdf(sys.argv[1])
    print(json.dumps({"chunks": m.chunk_count, "skipped": [s.model_dump() for s in m.skipped],
                      "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
    """
)


def _ingest_in_child(path: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    done = subprocess.run([sys.executable, "-c", CHILD, str(path)], cwd=PROJECT_ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_huge_embedded_image_is_skipped_and_memory_stays_bounded():
    source = get_settings().source_dir
    normal = _ingest_in_child(make_pdf_with_image(source / "normal-image.pdf", 200))
    huge = _ingest_in_child(make_pdf_with_image(source / "huge-image.pdf", 30000))

    assert huge["chunks"] >= 1
    assert huge["skipped"] == [{"page": 0, "what": "image", "reason": (
        "an embedded image of 30000 x 30000 pixels is over the 40 MP limit, so its text was not read")}]
    assert normal["skipped"] == []
    # Same pipeline, same text: the only difference is the image. Decoded, it would take at least
    # 900 MB (one byte per pixel; 1.97 GB peak measured before the limit). 100 MB over the run with
    # the 200 px image leaves room for allocator noise and nothing for a decode.
    print(f"peak RSS: {huge['peak_mb']:.0f} MB with the 30000 px image, {normal['peak_mb']:.0f} MB with a 200 px one")
    assert huge["peak_mb"] < normal["peak_mb"] + 100

    [manifest] = [m for m in catalog.list_processed_pdfs() if m.source_file == "huge-image.pdf"]
    assert manifest.skipped[0].what == "image"
    assert any("12 million dollars" in c.text for c in catalog.load_chunks(manifest.doc_id))


def test_page_too_large_to_ocr_is_skipped_and_the_rest_processed():
    path = get_settings().source_dir / "poster.pdf"
    doc = pymupdf.open()
    doc.new_page().insert_textbox(pymupdf.Rect(56, 56, 540, 790), BODY, fontsize=11)
    doc.new_page(width=14400, height=14400).insert_text((100, 100), "x")  # the largest page PDF allows
    doc.save(path)
    manifest = ingest.process_and_index_pdf(path)
    assert manifest.page_count == 2 and manifest.ocr_pages == []
    assert [(s.page, s.what) for s in manifest.skipped] == [(1, "page")]
    assert "200 x 200 inches, too large to read with OCR" in manifest.skipped[0].reason
    assert any("12 million dollars" in c.text for c in catalog.load_chunks(manifest.doc_id))


def test_ocr_resolution_is_capped_by_the_pixel_budget():
    doc = pymupdf.open()
    for width, height in ((612, 792), (3000, 3000), (14400, 14400)):
        doc.new_page(width=width, height=height)
    letter, a0_ish, huge = doc
    assert extract.ocr_dpi(letter) == extract.OCR_DPI  # ordinary pages keep full resolution
    dpi = extract.ocr_dpi(a0_ish)  # 41.7 in square: rendered at a lower resolution, under the budget
    assert extract.MIN_OCR_DPI <= dpi < extract.OCR_DPI and (3000 / 72 * dpi) ** 2 <= extract.MAX_RENDER_PIXELS
    assert extract.ocr_dpi(huge) is None


def test_truncated_pdf_is_named_damaged_before_any_ocr(monkeypatch):
    data = SAMPLE_PDF.read_bytes()
    path = get_settings().source_dir / "cut.pdf"
    path.write_bytes(data[: int(len(data) * 0.7)])  # MuPDF "repairs" it: 4 pages, all blank

    def no_ocr(*_a, **_k):
        raise AssertionError("OCR must not run on a damaged PDF")

    monkeypatch.setattr(extract, "get_ocr_engine", no_ocr)
    with pytest.raises(catalog.PdfProcessingError, match="cut.pdf: is damaged: the file is truncated"):
        ingest.process_and_index_pdf(path)
    assert catalog.list_processed_pdfs() == []
    assert "truncated" in maintenance.rejection_reason(intake.compute_doc_id(path))


def test_cli_and_ingest_reply_with_a_sentence(capsys, monkeypatch):
    from agent import cli
    from agent.service import ChatService

    data = SAMPLE_PDF.read_bytes()
    (get_settings().source_dir / "cut.pdf").write_bytes(data[: int(len(data) * 0.7)])
    assert cli.main(["--pdf", "cut.pdf", "What was revenue?"]) == 2
    err = capsys.readouterr().err
    assert "error: cut.pdf: is damaged" in err and "Traceback" not in err

    # An unexpected failure inside the pipeline reaches the user as a sentence, not a traceback.
    make_text_pdf(get_settings().source_dir / "fine.pdf", [BODY])
    import storage.documents.bm25

    def broken(*_a, **_k):
        raise RuntimeError(f"index writer failed at {get_settings().destination_dir}/x/bm25")

    monkeypatch.setattr(storage.documents.bm25, "build_bm25_index", broken)
    assert cli.main(["--pdf", "fine.pdf", "What was revenue?"]) == 2
    err = capsys.readouterr().err
    assert "error: fine.pdf: could not be processed (RuntimeError: index writer failed at bm25)" in err
    assert str(get_settings().destination_dir) not in err

    jobs = ThreadIngestJobs()
    service = ChatService(llm=None, web=None, history=None, ingest_jobs=jobs)
    result = service.ask("u", None, "/ingest bad\0name.pdf", [])  # refused by the turn: nothing queued
    assert result.route == "ingest" and "Cannot ingest" in result.message and "NUL character" in result.message
    assert result.ingest_job_id is None and not jobs.active_paths()
    for command, expected in (("/ingest fine.pdf", "could not be processed"), ("/ingest cut.pdf", "is damaged")):
        result = service.ask("u", None, command, [])  # queued: the job says why it failed, as a sentence
        job = jobs.get(result.ingest_job_id)
        deadline = time.monotonic() + 60
        while job.active:
            assert time.monotonic() < deadline, "job did not end"
            time.sleep(0.05)
        assert job.state == "error" and expected in job.error and "Traceback" not in job.error, job.error
        assert str(get_settings().destination_dir) not in job.error
