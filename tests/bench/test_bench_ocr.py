"""bench.ocr: its scoring and page variants, easyocr's line assembly, and one real run on a filing
page with the engines this machine has (tesseract and rapidocr in CI; easyocr is optional)."""

from __future__ import annotations

import io
from pathlib import Path

import pymupdf
import pytest
from PIL import Image

from bench import ocr as bench_ocr
from storage.documents import ocr
from storage.documents.ocr import EasyOcr, boxes_to_lines


def _bench_dir() -> Path | None:
    for parent in Path(__file__).resolve().parents:
        if (parent / "shared/bench/financebench-dev/pdfs").is_dir():
            return parent / "shared/bench"
    return None


def test_cer_and_misses_are_measured_against_the_reference():
    assert bench_ocr.cer("Revenue 1,234", "Revenue 1,234") == 0.0
    assert bench_ocr.cer("Revenue 1,284", "Revenue  1,234") == pytest.approx(1 / 13)  # whitespace collapsed
    assert bench_ocr.cer("", "Revenue") == 1.0
    assert bench_ocr.cer("“Net” – sales", '"Net" - sales') == 0.0  # typographic marks made plain
    assert bench_ocr.missed("sales were 1,234", "Net sales were 1,234 and 5.6%") == pytest.approx(3 / 6)
    assert bench_ocr.missed("sales were 1,234", "Net sales were 1,234 and 5.6 %", digits=True) == pytest.approx(1 / 2)
    assert bench_ocr.missed("sales 1,234 5.6%", "Net sales (1) were 1,234 and 5.6 %", digits=True) == 0.0  # a mark is no figure


def test_variants_render_the_page_differently_and_reproducibly():
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Total net revenue 1,234", fontsize=12)
    sizes = {v: Image.open(io.BytesIO(bench_ocr.render(doc[0], v))).size for v in bench_ocr.VARIANTS}
    assert sizes["low_dpi"][0] < sizes["clean"][0] == sizes["noise"][0] < sizes["skew"][0]
    assert bench_ocr.render(doc[0], "noise", seed=3) == bench_ocr.render(doc[0], "noise", seed=3)
    assert bench_ocr.render(doc[0], "noise", seed=3) != bench_ocr.render(doc[0], "clean")
    with pytest.raises(ValueError, match="unknown variant"):
        bench_ocr.render(doc[0], "blur")


def test_easyocr_boxes_become_lines_in_reading_order():
    def box(x, y, text, w=40, h=10):
        return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]], text, 0.9

    boxes = [box(200, 52, "1,234"), box(10, 10, "Revenue"), box(10, 50, "Total"), box(60, 12, "grew")]
    assert boxes_to_lines(boxes) == "Revenue grew\nTotal 1,234"


def test_an_engine_that_is_not_installed_is_named_not_failed(monkeypatch):
    monkeypatch.setattr(EasyOcr, "available", staticmethod(lambda: False))
    monkeypatch.setenv("OCR_ENGINE", "easyocr")
    ocr.get_ocr_engine.cache_clear()
    try:
        assert ocr.get_ocr_engine() is None  # asked for, not installed: no engine, a warning says how to install
    finally:
        ocr.get_ocr_engine.cache_clear()


def test_a_clean_filing_page_is_read_with_a_sane_error_rate(monkeypatch):
    data = _bench_dir()
    if data is None:
        pytest.skip("../shared/bench is not on this machine (CI has it)")
    monkeypatch.setattr(EasyOcr, "available", staticmethod(lambda: False))  # optional; too slow for CI
    report = bench_ocr.run(data, 1, ["clean"], ["tesseract", "rapidocr", "easyocr"])
    assert report["engines"]["easyocr"]["status"].startswith("not installed")
    measured = {n: e["variants"]["clean"] for n, e in report["engines"].items() if e["status"] == "measured"}
    assert measured, "neither tesseract nor rapidocr is installed"
    for name, figures in measured.items():
        # CER also counts reading-order differences (columns, tables); the words read are order-free
        assert figures["cer"] < 0.4 and figures["words_missed"] < 0.2, (name, figures)
        assert figures["pages_per_s"] > 0


def test_easyocr_reads_the_packaged_weights_and_never_downloads(monkeypatch, tmp_path):
    """Checked against stand-ins for the two optional packages (the real ones are not a test dependency)."""
    import sys
    import types

    made = {}

    class Reader:
        def __init__(self, langs, **kwargs):
            made.update(kwargs, langs=langs)

        def readtext(self, image, detail, paragraph):
            return [([[0, 0], [50, 0], [50, 10], [0, 10]], "Revenue", 0.9)]

    monkeypatch.setitem(sys.modules, "easyocr", types.SimpleNamespace(Reader=Reader))
    monkeypatch.setitem(sys.modules, "easyocr_en_models", types.SimpleNamespace(model_dir=lambda: str(tmp_path)))
    assert EasyOcr().image_to_text(b"png") == "Revenue"
    assert made == {"langs": ["en"], "gpu": False, "model_storage_directory": str(tmp_path),
                    "download_enabled": False, "verbose": False}
