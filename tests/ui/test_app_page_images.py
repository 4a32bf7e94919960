"""Page images: the cited passage is painted where it is on the page, and renders are cached."""

from __future__ import annotations

import os
import shutil

import pymupdf
import pytest

from tests.fixtures_ui import SAMPLE_PDF
from ui.page_images import find_passage_rects, render_page

ZOOM = 1.5


def _yellow_share(png: bytes, rect: pymupdf.Rect) -> float:
    """Share of the pixels inside `rect` (page points) that are the highlight's yellow."""
    pix = pymupdf.Pixmap(png)
    xs = range(int(rect.x0 * ZOOM), int(rect.x1 * ZOOM), 2)
    ys = range(int(rect.y0 * ZOOM), int(rect.y1 * ZOOM), 2)
    pixels = [pix.pixel(x, y)[:3] for x in xs for y in ys]
    return sum(1 for r, g, b in pixels if r > 200 and g > 170 and b < 190) / len(pixels)


def test_passage_spanning_lines_is_highlighted_on_the_right_page(tmp_path):
    # A chunk as the chunker gives it: whitespace differs from the page's line breaks.
    passage = "Total assets were 506.9 million euros at year end.   Net debt fell to 62.5 million euros,\nwhich is 0.8 times EBITDA."
    img = render_page(SAMPLE_PDF, 1, passage, zoom=ZOOM, cache_dir=tmp_path)
    assert img.page_count == 4 and img.highlights >= 2
    with pymupdf.open(SAMPLE_PDF) as doc:
        rect = doc[1].search_for("Total assets were")[0]
    assert _yellow_share(img.png, rect) > 0.5  # the yellow wash covers the cited words
    plain = render_page(SAMPLE_PDF, 1, None, zoom=ZOOM)
    assert plain.highlights == 0 and _yellow_share(plain.png, rect) == 0


def test_passage_from_another_page_is_not_highlighted():
    with pymupdf.open(SAMPLE_PDF) as doc:
        assert find_passage_rects(doc[0], "Total assets were 506.9 million euros at year end.") == []
        assert find_passage_rects(doc[1], "") == []


def test_table_row_is_found_cell_by_cell():
    with pymupdf.open(SAMPLE_PDF) as doc:
        rects = find_passage_rects(doc[1], "Net profit 38.1 30.4 +25.3%\nEarnings per share (euros) 2.54 2.03")
    assert len(rects) >= 2


def test_missing_page_and_missing_file_give_clear_errors(tmp_path):
    with pytest.raises(IndexError, match="has 4 pages; page 9 does not exist"):
        render_page(SAMPLE_PDF, 8)
    with pytest.raises(FileNotFoundError):
        render_page(tmp_path / "gone.pdf", 0)


def test_render_is_cached_and_invalidated_when_the_pdf_changes(tmp_path):
    pdf = tmp_path / "copy.pdf"
    shutil.copy(SAMPLE_PDF, pdf)
    cache = tmp_path / "cache"
    first = render_page(pdf, 0, "Net profit reached 38.1 million euros.", zoom=ZOOM, cache_dir=cache)
    files = sorted(cache.glob("*.png"))
    assert len(files) == 1 and files[0].read_bytes() == first.png
    again = render_page(pdf, 0, "Net profit reached 38.1 million euros.", zoom=ZOOM, cache_dir=cache)
    assert again == first and len(list(cache.glob("*.png"))) == 1
    # A changed file (new mtime) is rendered afresh, not served from the cache.
    st = pdf.stat()
    os.utime(pdf, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    render_page(pdf, 0, "Net profit reached 38.1 million euros.", zoom=ZOOM, cache_dir=cache)
    assert len(list(cache.glob("*.png"))) == 2


def test_crop_keeps_the_band_around_the_cited_words():
    passage = "Net debt fell to 62.5 million euros, which is 0.8 times EBITDA."
    full = pymupdf.Pixmap(render_page(SAMPLE_PDF, 1, passage, zoom=ZOOM).png)
    cropped = render_page(SAMPLE_PDF, 1, passage, zoom=ZOOM, crop=True)
    band = pymupdf.Pixmap(cropped.png)
    assert band.width == full.width and band.height < full.height / 3
    # Top of the band = highlight top minus the margin, so the highlight sits in view.
    with pymupdf.open(SAMPLE_PDF) as doc:
        rect = doc[1].search_for("Net debt fell to")[0]
    top = rect.y0 - 90
    assert _yellow_share(cropped.png, pymupdf.Rect(rect.x0, rect.y0 - top, rect.x1, rect.y1 - top)) > 0.5
    # Nothing found: the whole page, uncropped.
    assert pymupdf.Pixmap(render_page(SAMPLE_PDF, 1, "words that are not there", zoom=ZOOM, crop=True).png).height == full.height


def _blank_rows(png: bytes) -> tuple[int, int]:
    """(rows above the first printed pixel, rows below the last one) of a rendered image."""
    pix = pymupdf.Pixmap(png)
    inked = [y for y in range(pix.height) if any(min(pix.pixel(x, y)[:3]) < 200 for x in range(0, pix.width, 2))]
    return inked[0], pix.height - 1 - inked[-1]


@pytest.mark.parametrize("top", [60, 200])
def test_a_cropped_band_stops_at_the_printed_lines_not_in_a_blank_margin(tmp_path, top):
    """A row near the top of a short page (a statement's first rows): the band around it shows the
    page's first line at its top edge and its last at the bottom, never 90 points of white margin."""
    doc = pymupdf.open()
    page = doc.new_page()
    lines = ["Consolidated Statements of Cash Flows (in millions)", "Years ended December 31, 2018 2017 2016",
             "Net earnings 9,100 8,200 7,300", "Net cash used by investing activities (2,100) (1,900) (2,300)"]
    for i, line in enumerate(lines):
        page.insert_text((72, top + 16 * i), line, fontsize=11)
    doc.save(tmp_path / "short.pdf")
    img = render_page(tmp_path / "short.pdf", 0, "Net earnings 9,100 8,200 7,300", zoom=ZOOM, crop=True)
    above, below = _blank_rows(img.png)
    assert img.highlights and above <= 16 * ZOOM and below <= 16 * ZOOM, (above, below)
    assert pymupdf.Pixmap(img.png).height < 160 * ZOOM  # the four lines and a small pad, not a 200-point band
