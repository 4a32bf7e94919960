"""Page previews of very large pages stay under a pixel budget instead of failing or taking seconds
and hundreds of MB; ordinary pages keep their zoom."""

from __future__ import annotations

import pymupdf

from ui.page_images import MAX_PREVIEW_PIXELS, render_page


def _pdf(path, width: float, height: float, line: str):
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    page.insert_text((width * 0.05, height * 0.1), line, fontsize=max(11, width / 60))
    doc.save(path)
    return path


def _pixels(png: bytes) -> tuple[int, int]:
    pix = pymupdf.Pixmap(png)
    return pix.width, pix.height


def test_the_largest_pdf_page_renders_under_the_budget(tmp_path):
    path = _pdf(tmp_path / "poster.pdf", 14400, 14400, "Total revenue was 5 million dollars")  # 200 x 200 inches
    image = render_page(path, 0, "Total revenue was 5 million dollars")
    width, height = _pixels(image.png)
    assert image.highlights == 1 and width * height <= MAX_PREVIEW_PIXELS and width >= 1900
    assert len(image.png) < 1_000_000

    cropped = render_page(path, 0, "Total revenue was 5 million dollars", crop=True, zoom=3.0)
    width, height = _pixels(cropped.png)
    assert cropped.highlights == 1 and width * height <= MAX_PREVIEW_PIXELS


def test_an_ordinary_page_keeps_its_zoom(tmp_path):
    path = _pdf(tmp_path / "letter.pdf", 612, 792, "Net income rose to 42 million")
    assert _pixels(render_page(path, 0, zoom=1.5).png) == (918, 1188)
