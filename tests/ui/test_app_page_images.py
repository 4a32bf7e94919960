"""Page images: the cited passage is painted where it is on the page, and renders are cached."""

from __future__ import annotations

import os
import shutil

import pymupdf
import pytest

from tests.fixtures_ui import SAMPLE_PDF
from ui.page_images import TIGHT_MAX_WIDTH, TIGHT_MIN_WIDTH, crop_band, find_passage_rects, render_page

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
    # The band begins within the margin above the highlight (a heading the margin's edge runs through
    # whole: its top above the margin, not cut in half), so the highlight sits in view.
    with pymupdf.open(SAMPLE_PDF) as doc:
        rect = doc[1].search_for("Net debt fell to")[0]
        heading = doc[1].search_for("Revenue by Segment")[0]
        top = crop_band(doc[1], find_passage_rects(doc[1], passage)).y0
    assert heading.y0 < rect.y0 - 90 < heading.y1 and top <= heading.y0 + 2  # (its glyphs begin a little below)
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


def _statement(path, footer: bool = True):
    """A statement page as filings print it: labels at the left, each year's value in a column far to the
    right (a wide row), and a page number at the foot of the page."""
    doc = pymupdf.open()
    page = doc.new_page()  # 612 x 792 points
    page.insert_text((56, 80), "CONSOLIDATED STATEMENTS OF EARNINGS (In millions)", fontsize=11)
    page.insert_text((380, 110), "2019", fontsize=9)
    page.insert_text((470, 110), "2018", fontsize=9)
    for i, (label, values) in enumerate([("Net sales", ("48,200", "45,100")), ("Cost of sales", ("31,900", "30,300")),
                                         ("Operating income", ("7,250", "6,980")), ("Net earnings", ("5,610", "5,020"))]):
        page.insert_text((56, 136 + 20 * i), label, fontsize=10)
        for x, v in zip((380, 470), values):
            page.insert_text((x, 136 + 20 * i), v, fontsize=10)
    if footer:
        page.insert_text((290, 770), "42", fontsize=9)
    doc.save(path)
    return path


def _yellow_columns(pix: pymupdf.Pixmap) -> list[tuple[int, int]]:
    """Runs of pixel columns (first, last) that hold highlight yellow, left to right."""
    def yellow(x):
        return any((lambda p: p[0] > 200 and p[1] > 170 and p[2] < 190)(pix.pixel(x, y)) for y in range(0, pix.height, 2))
    runs: list[tuple[int, int]] = []
    for x in range(pix.width):
        if yellow(x):
            runs = runs[:-1] + [(runs[-1][0], x)] if runs and runs[-1][1] == x - 1 else runs + [(x, x)]
    return runs


def test_a_tight_band_holds_the_rows_label_and_value_and_little_else(tmp_path):
    """A phone's band of a wide table row: the highlighted label and value both lie inside the image (neither
    cut at an edge), the image is about as wide as label-to-value, and it has little white around it."""
    pdf = _statement(tmp_path / "statement.pdf")
    quote = "Operating income … 7,250"
    with pymupdf.open(pdf) as doc:
        label, value = doc[0].search_for("Operating income")[0], doc[0].search_for("7,250")[0]
        page_width = float(doc[0].rect.width)
    img = render_page(pdf, 0, quote, zoom=ZOOM, crop=True, tight=True)
    pix = pymupdf.Pixmap(img.png)
    assert img.highlights == 2
    runs = _yellow_columns(pix)
    assert len(runs) == 2, runs  # the label's box and the value's box, apart
    (l0, l1), (v0, v1) = runs
    assert l0 >= 4 and v1 <= pix.width - 5, (runs, pix.width)  # neither touches an edge: nothing cut
    assert abs((v1 - l0) / ZOOM - (value.x1 - label.x0)) < 4  # the value lies where the page prints it
    assert pix.width / ZOOM <= value.x1 - label.x0 + 2 * 12 + 2 < 0.7 * page_width  # the columns between, no more
    above, below = _blank_rows(img.png)
    assert above <= 16 * ZOOM and below <= 16 * ZOOM, (above, below)
    # The desktop's band of the same row keeps the page's whole width.
    assert abs(pymupdf.Pixmap(render_page(pdf, 0, quote, zoom=ZOOM, crop=True).png).width - page_width * ZOOM) <= 1


def test_a_band_ends_at_the_last_printed_line_near_the_highlight_not_at_a_distant_footer(tmp_path):
    """The cited row is the table's last: the band ends a pad below it, not in the blank half-page above
    the page number (the dialog's image showed a blank lower half)."""
    pdf = _statement(tmp_path / "statement.pdf")
    for tight in (False, True):
        img = render_page(pdf, 0, "Net earnings … 5,610", zoom=ZOOM, crop=True, tight=tight)
        _, below = _blank_rows(img.png)
        assert below <= 16 * ZOOM, (tight, below)


def test_a_short_highlight_gets_a_band_of_the_minimum_width_inside_the_page(tmp_path):
    pdf = _statement(tmp_path / "statement.pdf", footer=False)
    with pymupdf.open(pdf) as doc:
        page = doc[0]
        rects = find_passage_rects(page, "6,980")  # one short value at the right of the page
        band, right = crop_band(page, rects, tight=True), page.rect.x1
    assert band.width == pytest.approx(TIGHT_MIN_WIDTH) and band.x1 <= right
    assert band.contains(rects[0])


def test_a_tight_band_keeps_narrow_printed_lines_whole(tmp_path):
    """Lines a phone can show at its width are shown whole (no word cut at the band's edge); a wide
    statement row is cut to its label's and value's columns instead (above)."""
    doc = pymupdf.open()
    page = doc.new_page()
    lines = ["Consolidated Statements of Cash Flows (in millions)", "Years ended December 31, 2018 2017 2016",
             "Net earnings 9,100 8,200 7,300", "Purchases of property, plant and equipment (1,208) (1,100) (1,000)"]
    for i, line in enumerate(lines):
        page.insert_text((72, 100 + 14 * i), line, fontsize=9)
    doc.save(tmp_path / "lines.pdf")
    with pymupdf.open(tmp_path / "lines.pdf") as doc:
        page = doc[0]
        widest = max(page.search_for(line)[0].x1 for line in lines)
        band = crop_band(page, find_passage_rects(page, "Net earnings … 9,100"), tight=True)
        assert band.x0 < 72 and band.x1 > widest and band.width <= TIGHT_MAX_WIDTH + 2 * 12
