"""Render a PDF page to PNG with a passage highlighted, cached on disk.

PyMuPDF's `page.search_for` returns the rectangles of a phrase on the page. A cited chunk
rarely matches verbatim as a whole (line breaks, hyphenation, tables read column by column),
so we search the whole passage first and otherwise its sentence-sized pieces, and paint every
rectangle found. The rendered PNG is cached under `<destination>/.page_previews/<doc_id>/`,
keyed by the PDF's size and mtime, the page, the passage and the zoom.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from storage.documents.tables import split_row
from storage.settings import get_settings

HIGHLIGHT_RGB = (1.0, 0.85, 0.0)
HIGHLIGHT_OPACITY = 0.35
_MAX_PIECES = 40  # bound the work for very long chunks
CROP_MARGIN = 90  # points kept above and below the highlighted band when cropping
CROP_PAD = 12  # points kept around the page's printed content: a band stops there, not in a blank margin
_BAND_VERSION = 4  # in the cache key: bump when crop_band changes, so no stale band is served
TIGHT_MIN_WIDTH = 220  # points: a tight band (a phone's) is never narrower, so its text is not blown up
TIGHT_MAX_WIDTH = 360  # points: printed lines up to this wide are kept whole in a tight band (still readable)
_BLANK_KINDS = ("clip", "ignore", "end", "group")  # bboxlog entries that print nothing
# A page that cannot be rendered: the file gone or changed, a page out of range, a damaged PDF
# (MuPDF's FzErrorBase; FileDataError is a RuntimeError).
RENDER_ERRORS = (OSError, IndexError, ValueError, RuntimeError, pymupdf.mupdf.FzErrorBase)
# A rendered preview stays under this many pixels (a Letter page at zoom 1.5 is 1.1 MP): a poster-sized
# page (up to 200 x 200 inches) is shown at a lower zoom instead of failing ("Overly large image")
# or taking a minute and tens of MB.
MAX_PREVIEW_PIXELS = 4_000_000


def _printed(page: "pymupdf.Page") -> list["pymupdf.Rect"]:
    """The boxes of what the page prints (text, lines, images), without a page-sized background."""
    area = abs(page.rect)
    boxes = []
    for kind, box in page.get_bboxlog():
        r = pymupdf.Rect(box) & page.rect
        if not (kind.startswith(_BLANK_KINDS) or r.is_empty or abs(r) >= 0.9 * area):
            boxes.append(r)
    return boxes


def _union(rects) -> "pymupdf.Rect":
    out = pymupdf.Rect(rects[0])
    for r in rects[1:]:
        out |= r
    return out


def crop_band(page: "pymupdf.Page", rects: list["pymupdf.Rect"], *, tight: bool = False) -> "pymupdf.Rect":
    """The band around `rects`: CROP_MARGIN above and below them, but not into blank space (the band
    begins at the first printed line inside that window and ends at the last, plus CROP_PAD).

    Full width, or with `tight` only the highlights' own columns (CROP_PAD either side, at least
    TIGHT_MIN_WIDTH points; the printed lines of the band whole when they are at most TIGHT_MAX_WIDTH
    wide): a phone shows that narrow band at its width, label and value in view."""
    band = _union(rects)
    top, bottom = band.y0 - CROP_MARGIN, band.y1 + CROP_MARGIN
    window = [r for r in _printed(page) if r.y1 > top and r.y0 < bottom]
    # a line the window's edge runs through is kept whole (a heading cut in half read as a smudge)
    top = min([top] + [r.y0 - 2 for r in window if r.y0 < top and r.height <= CROP_MARGIN / 2])
    bottom = max([bottom] + [r.y1 + 2 for r in window if r.y1 > bottom and r.height <= CROP_MARGIN / 2])
    left, right = page.rect.x0, page.rect.x1
    if tight:
        printed = _union(window + [band])
        if printed.width <= TIGHT_MAX_WIDTH:  # the lines around are narrow enough: whole, no word cut
            left, right = printed.x0 - CROP_PAD, printed.x1 + CROP_PAD
        else:
            left, right = band.x0 - CROP_PAD, band.x1 + CROP_PAD
        if right - left < TIGHT_MIN_WIDTH:  # a short highlight: widen it evenly, not into a magnifier
            grow = (TIGHT_MIN_WIDTH - (right - left)) / 2
            left, right = left - grow, right + grow
        shift = max(0.0, page.rect.x0 - left) - max(0.0, right - page.rect.x1)
        left, right = max(page.rect.x0, left + shift), min(page.rect.x1, right + shift)
    near = [r for r in window if r.x1 > left and r.x0 < right]
    if near:
        top, bottom = max(top, min(r.y0 for r in near) - CROP_PAD), min(bottom, max(r.y1 for r in near) + CROP_PAD)
    return pymupdf.Rect(left, max(page.rect.y0, min(top, band.y0)), right, min(page.rect.y1, max(bottom, band.y1)))


@dataclass(frozen=True)
class PageImage:
    png: bytes
    page_count: int
    highlights: int  # rectangles painted (0 when the passage was not found on the page)


def preview_cache_dir(doc_id: str) -> Path:
    return get_settings().destination_dir / ".page_previews" / doc_id


def clear_preview_cache(doc_id: str) -> None:
    """Forget the rendered pages of one PDF (after delete / re-index)."""
    shutil.rmtree(preview_cache_dir(doc_id), ignore_errors=True)


def _pieces(passage: str) -> list[str]:
    """The passage split into searchable pieces: sentences and table cells / lines."""
    parts = re.split(r"(?<=[.!?;:])\s+|\n+", passage)
    out: list[str] = []
    for part in parts:
        words = part.split()
        # Long sentences wrap across lines; search them in windows of 8 words.
        for i in range(0, len(words), 8):
            piece = " ".join(words[i : i + 8])
            if len(piece) >= 4:
                out.append(piece)
    return out[:_MAX_PIECES]


ROW_GAP = " … "  # agent/citations/quotes.py: a table cell quoted as "<row label> … <value>"


def _same_row(a: "pymupdf.Rect", b: "pymupdf.Rect") -> bool:
    overlap = min(a.y1, b.y1) - max(a.y0, b.y0)
    return overlap > 0.5 * min(a.height, b.height) and b.x0 >= a.x1 - 1


def _variants(value: str) -> list[str]:
    """A value cell as it may be printed: "$1,208", "1,208", "(1,208)" found as "1,208"."""
    return [v for v in dict.fromkeys([value, value.lstrip("$€£"), value.strip("$€£()%")]) if v]


def _cells_on_row(page: "pymupdf.Page", label: str, values: list[str]) -> list["pymupdf.Rect"]:
    """The label's box and, left to right on the label's printed line, one box per value (each
    after the previous one); [] unless the label and every value are found on one line."""
    for lab in page.search_for(label):
        boxes, right = [lab], lab.x1 - 1
        for value in values:
            on_row = [r for v in _variants(value) for r in page.search_for(v) if _same_row(lab, r) and r.x0 >= right]
            if not on_row:
                break
            box = min(on_row, key=lambda r: r.x0)
            boxes.append(box)
            right = box.x1 - 1
        else:
            return boxes
    return []


def find_quote_rects(page: "pymupdf.Page", quote: str) -> list["pymupdf.Rect"]:
    """Rectangles of exactly the quoted words: a phrase, a table cell quoted as "<row label> …
    <value>" (the label, and the value printed on the label's row, not the same number elsewhere),
    or a table row quoted as read ("Net earnings 9,100 8,200"), whose label and values are printed
    apart in columns: the label and each value on the label's line."""
    quote = " ".join(quote.split())
    if not quote:
        return []
    if ROW_GAP.strip() not in quote:
        found = page.search_for(quote)
        if found:
            return found
        label, values = split_row(quote)
        return _cells_on_row(page, label, values) if label and values else []
    label, value = (part.strip() for part in quote.rsplit(ROW_GAP.strip(), 1))
    return _cells_on_row(page, label, [value])


def find_passage_rects(page: "pymupdf.Page", passage: str) -> list["pymupdf.Rect"]:
    """Rectangles covering `passage` on `page` (empty when nothing matches).

    A passage of quotes (one a line, as `Citation.snippet` holds them) highlights exactly each
    quote found; anything else is searched whole, then in sentence-sized pieces."""
    quotes = [q for q in (passage or "").splitlines() if q.strip()]
    if len(quotes) > 1 or ROW_GAP.strip() in (passage or ""):
        found = [r for q in quotes for r in find_quote_rects(page, q)]
        if found:
            return found
    passage = " ".join((passage or "").split())
    if not passage:
        return []
    rects = page.search_for(passage) if len(passage) <= 300 else []
    if rects:
        return rects
    found: list[pymupdf.Rect] = []
    for piece in _pieces(passage):
        found.extend(page.search_for(piece))
    if not found and len(quotes) == 1:  # a table row quoted as read, its cells printed apart
        found = find_quote_rects(page, quotes[0])
    return found


def preview_zoom(area: "pymupdf.Rect", zoom: float) -> float:
    """`zoom`, lowered when needed so that `area` (points) renders under MAX_PREVIEW_PIXELS."""
    scale = min(zoom, (MAX_PREVIEW_PIXELS / max(area.width * area.height, 1.0)) ** 0.5)
    while (area.width * scale + 2) * (area.height * scale + 2) > MAX_PREVIEW_PIXELS:  # pixel edges round outwards
        scale *= 0.99
    return scale


def render_page(
    pdf_path: str | Path,
    page_index: int,
    passage: str | None = None,
    *,
    zoom: float = 1.5,
    crop: bool = False,
    tight: bool = False,
    cache_dir: Path | None = None,
) -> PageImage:
    """PNG of page `page_index` (0-based) of `pdf_path`, with `passage` highlighted.

    `crop=True` keeps only the band of the page around the highlights (full width, a margin
    above and below, `crop_band`), so the cited words are in view without scrolling; with `tight` too,
    only the highlights' columns of that band; without highlights the whole page is rendered.

    Raises FileNotFoundError for a missing PDF and IndexError for a page outside the document.
    """
    pdf_path = Path(pdf_path)
    stat = pdf_path.stat()  # FileNotFoundError with the path when the PDF is gone
    key = hashlib.sha256(
        f"{pdf_path.name}|{stat.st_size}|{stat.st_mtime_ns}|{page_index}|{zoom}|{crop}|{tight}|{_BAND_VERSION}|{passage or ''}".encode()
    ).hexdigest()[:24]
    cached = cache_dir / f"{key}.png" if cache_dir else None
    with pymupdf.open(pdf_path) as doc:
        page_count = doc.page_count
        if not 0 <= page_index < page_count:
            raise IndexError(f"{pdf_path.name} has {page_count} pages; page {page_index + 1} does not exist")
        if cached and cached.exists():
            meta = cached.with_suffix(".n")
            n = int(meta.read_text()) if meta.exists() else 0
            return PageImage(cached.read_bytes(), page_count, n)
        page = doc[page_index]
        rects = find_passage_rects(page, passage or "")
        clip = crop_band(page, rects, tight=tight) if crop and rects else None  # before the highlights are drawn
        for r in rects:
            page.draw_rect(r, color=None, fill=HIGHLIGHT_RGB, fill_opacity=HIGHLIGHT_OPACITY, overlay=True)
        scale = preview_zoom(clip or page.rect, zoom)
        png = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), clip=clip, alpha=False).tobytes("png")
    if cached:
        cached.parent.mkdir(parents=True, exist_ok=True)
        # Write then rename, so a concurrent reader never sees half a PNG.
        cached.with_suffix(".n").write_text(str(len(rects)))
        tmp = cached.with_suffix(".tmp")
        tmp.write_bytes(png)
        tmp.replace(cached)
    return PageImage(png, page_count, len(rects))
