"""Both OCR engines behind the one interface read a rendered image (tesseract: Debian package;
rapidocr: the pip-only path used when tesseract is not installed)."""

from __future__ import annotations

import pytest

from storage import ocr
from tests.fixtures_pdfs import render_text_png


@pytest.mark.parametrize("engine_cls", [ocr.TesseractOcr, ocr.RapidOcr], ids=lambda cls: cls.name)
def test_engine_reads_rendered_text(engine_cls):
    if engine_cls is ocr.TesseractOcr and not engine_cls.available():
        pytest.fail("tesseract is not installed: scripts/setup.sh installs tesseract-ocr")
    text = engine_cls().image_to_text(render_text_png("Operating margin 12.9 percent", fontsize=20))
    assert "Operating margin" in text and "12.9" in text


def test_engine_choice_follows_setting(monkeypatch):
    ocr.get_ocr_engine.cache_clear()
    try:
        monkeypatch.setenv("OCR_ENGINE", "rapidocr")
        assert ocr.get_ocr_engine().name == "rapidocr"
        ocr.get_ocr_engine.cache_clear()
        monkeypatch.setenv("OCR_ENGINE", "none")
        assert ocr.get_ocr_engine() is None
    finally:
        ocr.get_ocr_engine.cache_clear()
