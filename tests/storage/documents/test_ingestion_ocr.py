"""Both OCR engines behind the one interface read a rendered image (tesseract: Debian package;
rapidocr: the pip-only path used when tesseract is not installed)."""

from __future__ import annotations

import pytest

from storage.documents import ocr
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


def test_a_text_layer_of_glyph_numbers_is_read_with_ocr():
    """A private font encoding gives PyMuPDF control characters, not letters (an earnings release in
    ../shared/bench reads "\\x00\\x01\\x02\\x03\\x04\\x03\\x05..."): such a page is OCRed; real text never is."""
    from storage.documents.extract import unreadable_text_layer

    glyphs = "\x00\x01\x02\x03\x04\x03\x05\x07\x07\x07\x08\t\x07\n\n\x0b\x0c\x07\r\x0e\x0e\x00\x0f\r\x10\x11" * 4
    assert unreadable_text_layer(glyphs + ' !"# $&\'(\x1f)*+,(-')
    assert not unreadable_text_layer("Net sales $ 394,328 $ 365,817\nCost of sales (223,546) (212,981)\n" * 3)
    assert not unreadable_text_layer("\x0c")  # too short to judge
