"""Text out of a PDF: each page's text layer, OCR for scanned pages and for embedded images that carry
text, and a title, headings and summary for routing.


Limits: embedded images above MAX_IMAGE_PIXELS are not decoded, pages are rendered for OCR under
MAX_RENDER_PIXELS (at a lower resolution, or not at all when even MIN_OCR_DPI would not fit):
what is skipped is returned (`SkippedItem`, kept in the manifest) and the rest of the PDF is read.
"""

from __future__ import annotations

import logging
import statistics
import unicodedata
from pathlib import Path

import pymupdf

from storage.documents.catalog import ProgressCallback, SkippedItem
from storage.documents.metadata import font_lines, generic_title
from storage.documents.ocr import get_ocr_engine
from storage.schema import DocumentInfo, PageContent


log = logging.getLogger(__name__)


# A page whose text layer has fewer characters than this is treated as scanned and OCRed.
MIN_TEXT_CHARS = 25
# Embedded images smaller than this (pixels on either side) are logos/rules, not text.
MIN_IMAGE_SIDE = 120
MIN_OCR_CHARS = 20
OCR_DPI = 200
MAX_IMAGE_OCR_PER_PAGE = 4
# Memory bounds (see tests/storage/documents/test_ingestion_limits.py for the measured peak RSS). An embedded image is
# decoded for OCR only below MAX_IMAGE_PIXELS (its size is read from the PDF first): a 600 dpi Letter
# scan is 34 MP (~100 MB as RGB); a 30000x30000 px image would be 0.9-2.7 GB. A page rendered for OCR
# stays under MAX_RENDER_PIXELS (25 MB in gray; Letter at 200 dpi is 3.7 MP): larger pages are
# rendered at a lower resolution, and skipped when even MIN_OCR_DPI does not fit (a 200-inch page).
MAX_IMAGE_PIXELS = 40_000_000
MAX_RENDER_PIXELS = 25_000_000
MIN_OCR_DPI = 100


def ocr_dpi(page: pymupdf.Page) -> int | None:
    """The resolution to render `page` at for OCR: OCR_DPI, lowered to stay under MAX_RENDER_PIXELS;
    None when even MIN_OCR_DPI would not fit (the page is too large to OCR)."""
    square_inches = (page.rect.width / 72) * (page.rect.height / 72)
    fitting = int((MAX_RENDER_PIXELS / max(square_inches, 1e-6)) ** 0.5)
    dpi = min(OCR_DPI, fitting)
    return dpi if dpi >= MIN_OCR_DPI else None


def _ocr_page(page: pymupdf.Page, engine, dpi: int, words: bool = False) -> tuple[str, list[tuple] | None]:
    """The page's OCR text and, with `words` and when the text prints a table's worth of numbers
    (MIN_TABLE_NUMBERS), its words boxed in page points like `get_text("words")` (a second pass of the engine:
    the text stays the one the engine composes)."""
    png = _page_png(page, dpi)
    text = engine.image_to_text(png).strip()
    if not words or not prints_numbers(text):
        return text, None
    return text, boxes_in_points(engine.image_to_words(png), page, dpi)


def ocr_words(page: pymupdf.Page, engine, dpi: int) -> list[tuple]:
    """The words of a page read with OCR, boxed in page points (`get_text("words")` tuples)."""
    return boxes_in_points(engine.image_to_words(_page_png(page, dpi)), page, dpi)


def _page_png(page: pymupdf.Page, dpi: int) -> bytes:
    return page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY).tobytes("png")


def boxes_in_points(boxes, page: pymupdf.Page, dpi: int) -> list[tuple]:
    k = 72 / dpi
    x, y = page.rect.x0, page.rect.y0
    return [(x + x0 * k, y + y0 * k, x + x1 * k, y + y1 * k, text) for x0, y0, x1, y1, text in boxes]


MIN_TABLE_NUMBERS = 4  # a page printing fewer numbers holds no table worth a layout read


def prints_numbers(text: str) -> bool:
    return sum(1 for token in text.split() if any(c.isdigit() for c in token)) >= MIN_TABLE_NUMBERS


def _ocr_images(
    doc: pymupdf.Document, page: pymupdf.Page, engine, images_dir: Path, skipped: list[SkippedItem]
) -> list[tuple[str, str]]:
    """OCR the page's embedded images that are big enough to hold text: [(path in images_dir, text)].
    Images too large to decode, or that fail to decode or read, are noted in `skipped`."""
    found: list[tuple[str, str]] = []
    seen: set[int] = set()
    for info in page.get_images(full=True)[: MAX_IMAGE_OCR_PER_PAGE * 3]:
        xref, width, height = info[0], info[2], info[3]  # from the PDF's image dictionary: nothing decoded yet
        if xref in seen or min(width, height) < MIN_IMAGE_SIDE:
            continue
        seen.add(xref)
        if width * height > MAX_IMAGE_PIXELS:
            skipped.append(SkippedItem(page=page.number, what="image", reason=(
                f"an embedded image of {width} x {height} pixels is over the {MAX_IMAGE_PIXELS // 10**6} MP limit, so its text was not read")))
            continue
        try:
            pixmap = pymupdf.Pixmap(doc, xref)
            if pixmap.n - pixmap.alpha >= 4:  # CMYK and friends -> RGB for PNG
                pixmap = pymupdf.Pixmap(pymupdf.csRGB, pixmap)
            png = pixmap.tobytes("png")
            del pixmap
            text = engine.image_to_text(png).strip()
        except Exception as exc:  # noqa: BLE001 - MuPDF and OCR engines share no error base; recorded as skipped
            log.info("page %d image %d not readable: %s", page.number, xref, exc)
            skipped.append(SkippedItem(page=page.number, what="image", reason=(
                f"an embedded image of {width} x {height} pixels could not be read ({type(exc).__name__})")))
            continue
        if sum(ch.isalnum() for ch in text) < MIN_OCR_CHARS:
            continue
        images_dir.mkdir(parents=True, exist_ok=True)
        name = f"page{page.number:04d}_x{xref}.png"
        (images_dir / name).write_bytes(png)
        found.append((name, text))
        if len(found) >= MAX_IMAGE_OCR_PER_PAGE:
            break
    return found


UNREADABLE_SHARE = 0.03  # a page whose text layer is this much control characters is read with OCR (real text: 0)


def unreadable_text_layer(text: str) -> bool:
    """A text layer in a private font encoding: glyph numbers, not letters ("\\x00\\x01\\x02\\x03..."),
    as in some earnings releases; PyMuPDF returns it as control characters, so the page is OCRed."""
    chars = [c for c in text if not c.isspace()]
    if len(chars) < MIN_TEXT_CHARS:
        return False
    control = sum(1 for c in chars if unicodedata.category(c) in ("Cc", "Co", "Cn"))
    return control / len(chars) > UNREADABLE_SHARE


def extract_pages(
    doc: pymupdf.Document, images_dir: Path, progress: ProgressCallback,
    words: dict[int, tuple[list[tuple], float]] | None = None,
) -> tuple[list[PageContent], list[tuple[int, str, str]], str | None, list[SkippedItem]]:
    """Per-page text (OCR for scanned pages), OCR text of embedded images, and what was skipped.
    `words`, when given, receives each text-layer page's word boxes and height (for
    storage/documents/facts.py), read from the same text page as its text, and an OCR page's words boxed
    by the engine when its text prints numbers."""
    engine = None
    engine_loaded = False
    pages: list[PageContent] = []
    image_texts: list[tuple[int, str, str]] = []  # (page, image file name in images_dir, text)
    skipped: list[SkippedItem] = []
    total = doc.page_count
    for number in range(total):
        page = doc[number]
        textpage = page.get_textpage() if words is not None else None
        text = page.get_text("text", sort=False, textpage=textpage)
        has_images = bool(page.get_images())
        needs_ocr = len(text.strip()) < MIN_TEXT_CHARS or unreadable_text_layer(text)
        if (needs_ocr or has_images) and not engine_loaded:
            engine, engine_loaded = get_ocr_engine(), True
        dpi = ocr_dpi(page) if needs_ocr and engine is not None else None
        if needs_ocr and engine is not None and dpi is None:
            skipped.append(SkippedItem(page=number, what="page", reason=(
                f"the page is {page.rect.width / 72:.0f} x {page.rect.height / 72:.0f} inches, too large to read with OCR "
                f"at {MIN_OCR_DPI} dpi under the {MAX_RENDER_PIXELS // 10**6} MP limit")))
        if dpi is not None:
            try:
                text, boxed = _ocr_page(page, engine, dpi, words is not None)
                pages.append(PageContent(page_number=number, text=text, is_ocr=True))
                if boxed is not None:
                    words[number] = (boxed, page.rect.height)  # its tables read by layout, like a text page's
            except Exception as exc:  # noqa: BLE001 - MuPDF and OCR engines share no error base; recorded as skipped
                log.info("page %d could not be OCRed: %s", number, exc)
                skipped.append(SkippedItem(page=number, what="page", reason=f"the page could not be read with OCR ({type(exc).__name__})"))
                pages.append(PageContent(page_number=number, text=text, is_ocr=False))
        else:
            pages.append(PageContent(page_number=number, text=text, is_ocr=False))
            if words is not None:
                words[number] = (page.get_text("words", textpage=textpage), page.rect.height)
            if has_images and engine is not None:
                image_texts.extend((number, name, t) for name, t in _ocr_images(doc, page, engine, images_dir, skipped))
        progress("Reading pages", number + 1, total)
    return pages, image_texts, (engine.name if engine else None), skipped


def summarise(
    doc: pymupdf.Document, pages: list[PageContent], source_file: str, info: DocumentInfo | None = None
) -> tuple[str, list[str], str]:
    """Title, first headings and a short summary for routing ("is this question about this PDF?")."""
    headings: list[str] = [entry[1].strip() for entry in doc.get_toc()[:12] if entry[1].strip()]
    if not headings:
        # No outline: take lines set in a clearly larger font than the body on the first pages.
        spans = [line for page in list(doc)[:3] for line in font_lines(page)]
        if spans:
            body = statistics.median(size for size, _ in spans)
            headings = [text for size, text in spans if size >= body * 1.25 and len(text) > 3][:12]
    title = generic_title(doc, pages, source_file)
    first_lines = [ln.strip() for p in pages[:2] for ln in p.text.splitlines() if len(ln.strip()) > 3]
    opening = " ".join(first_lines[:12])[:400]
    summary = f"{title} ({source_file}, {len(pages)} pages)."
    if info is not None:
        summary = f"{info.title}: {summary}" + _describe(info)
    if headings:
        summary += " Sections include: " + "; ".join(dict.fromkeys(headings[:10])) + "."
    if opening:
        summary += f" It begins: {opening}"
    return title[:200], headings, summary


def _describe(info: DocumentInfo) -> str:
    """" Issuer: Best Buy Co., Inc.; form: 10-K; period: FY2019 (ended 2019-02-02)."" for the summary."""
    facts = [f"issuer: {info.issuer}" if info.issuer else "", f"form: {info.form}" if info.form != "other" else ""]
    if info.period_label:
        ended = f" (ended {info.period_end})" if info.period_end and info.period_end != info.period_label else ""
        facts.append(f"period: {info.period_label}{ended}")
    if info.date and info.date != info.period_label:
        facts.append(f"dated {info.date}")
    facts = [f for f in facts if f]
    return (" " + "; ".join(facts) + ".") if facts else ""
