"""Turn a PDF into everything retrieval needs, exactly once, never half-written.

`process_and_index_pdf(path)` validates the file, extracts text per page with PyMuPDF, OCRs
scanned pages and embedded images that carry text, chunks, embeds, and writes the artifacts:

    <destination>/<doc_id>/
        manifest.json        the commit point: names the current build folder and Chroma collection
        retrieval_cache.db   created on first query (storage.retrieval_cache)
        build-<id>/          one complete build:
            text_chunks.json     list[Chunk]
            pages.json           list[str], the text of each page (0-based index)
            bm25_index/          the sparse index (storage.bm25_index)
            extracted_images/    images whose OCR text became `image_ocr` chunks

`doc_id = "<slug of the file stem>-<sha256[:12]>"`: the same bytes uploaded twice are processed once,
and a different file under an old name never reuses stale artifacts.

(PDFs processed before builds were versioned keep their artifacts directly in `<doc_id>/`, and a
collection named `<doc_id>`; both layouts are read.)

Atomicity: build beside, swap, then drop. Everything is built in `<destination>/.tmp-<doc_id>-<id>/`
and in a new collection `<doc_id>-build-<id>`, under a per-document file lock; the folder is moved
to `<doc_id>/build-<id>/`, then the manifest is replaced in one `os.replace` (the commit point),
and only then are the previous build's folder, collection and cache dropped. A crash at any point
leaves either the previous complete build or the new one current; what is left over is swept by
the next build of that PDF and, for every PDF, once per process (`sweep_all_leftovers`).

Limits: embedded images above MAX_IMAGE_PIXELS are not decoded, pages are rendered for OCR under
MAX_RENDER_PIXELS (at a lower resolution, or not at all when even MIN_OCR_DPI would not fit):
what is skipped is noted in the manifest (`skipped`) and the rest of the PDF is processed.

Page numbers are 0-based everywhere in storage (see storage/schema.py).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import statistics
import threading
import unicodedata
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

import pymupdf
from filelock import FileLock, Timeout
from pydantic import BaseModel, Field

from storage import vector_store
from storage.settings import get_settings
from storage.doc_metadata import font_lines, generic_title
from storage.ocr import get_ocr_engine
from storage.schema import Chunk, DocumentInfo, PageContent

log = logging.getLogger(__name__)

ProgressCallback = Callable[[str, int, int], None]  # (stage, done, total)

# Bump when extraction, chunking or embedding changes: older artifacts then count as unprocessed
# and are rebuilt on next use.
PIPELINE_VERSION = 3
# A page whose text layer has fewer characters than this is treated as scanned and OCRed.
MIN_TEXT_CHARS = 25
# Embedded images smaller than this (pixels on either side) are logos/rules, not text.
MIN_IMAGE_SIDE = 120
MIN_OCR_CHARS = 20
OCR_DPI = 200
MAX_IMAGE_OCR_PER_PAGE = 4
# Memory bounds (see tests/test_ingestion_limits.py for the measured peak RSS). An embedded image is
# decoded for OCR only below MAX_IMAGE_PIXELS (its size is read from the PDF first): a 600 dpi Letter
# scan is 34 MP (~100 MB as RGB); a 30000x30000 px image would be 0.9-2.7 GB. A page rendered for OCR
# stays under MAX_RENDER_PIXELS (25 MB in gray; Letter at 200 dpi is 3.7 MP): larger pages are
# rendered at a lower resolution, and skipped when even MIN_OCR_DPI does not fit (a 200-inch page).
MAX_IMAGE_PIXELS = 40_000_000
MAX_RENDER_PIXELS = 25_000_000
MIN_OCR_DPI = 100
# Upload names are shortened to this many UTF-8 bytes (file systems allow 255; the temporary
# ".<name>.<uuid>.part" and a "-<sha8>" suffix must fit too).
MAX_NAME_BYTES = 180


class PdfProcessingError(Exception):
    """A PDF that cannot be processed. The message names the file and the reason (no server paths)."""

    def __init__(self, file: str, reason: str) -> None:
        reason = _without_paths(reason)
        super().__init__(f"{file}: {reason}")
        self.file = file
        self.reason = reason


def _without_paths(text: str) -> str:
    """Absolute paths (a library's message may carry one) reduced to their file name."""
    return re.sub(r"(?<![\w.])/(?:[^/\s'\"(),:]+/)+([^/\s'\"(),:]*)", r"\1", text)


class SkippedItem(BaseModel):
    """Something left out of a processed PDF, and why (shown with the PDF)."""

    page: int  # 0-based
    what: str  # "image" or "page"
    reason: str


class ProcessingCancelled(Exception):
    """Raise it from a progress callback to stop a build: everything built so far is removed, the
    previous index (if any) stays, and the file is not remembered as refused."""


class ProcessedPdf(BaseModel):
    doc_id: str
    source_file: str
    source_path: str
    sha256: str
    page_count: int
    chunk_count: int
    ocr_pages: list[int] = Field(default_factory=list)  # 0-based pages that were OCRed
    image_ocr_chunks: int = 0
    title: str = ""
    headings: list[str] = Field(default_factory=list)
    summary: str = ""  # the `indexed_document_summary` used by routing
    info: DocumentInfo | None = None  # issuer, form, period, title (None in manifests before it existed)
    ocr_engine: str | None = None
    processed_at: str = ""
    pipeline_version: int = PIPELINE_VERSION
    build: str = ""  # the build folder `build-<build>` ("" = artifacts directly in the PDF's folder)
    collection: str = ""  # the Chroma collection of this build ("" = named like the doc_id)
    skipped: list[SkippedItem] = Field(default_factory=list)  # images/pages too large to process


BUILD_PREFIX = "build-"
_LEGACY_ARTIFACTS = ("text_chunks.json", "pages.json", "bm25_index", "extracted_images")


@dataclass(frozen=True)
class PdfOutputDirs:
    root: Path  # the PDF's folder <destination>/<doc_id>
    build_dir: Path  # the current build's artifacts (== root for PDFs processed before builds)
    images_dir: Path
    chunks_path: Path
    pages_path: Path
    bm25_path: Path
    cache_path: Path
    manifest_path: Path

    @classmethod
    def at(cls, root: Path, build: str = "") -> "PdfOutputDirs":
        build_dir = root / f"{BUILD_PREFIX}{build}" if build else root
        return cls(
            root=root,
            build_dir=build_dir,
            images_dir=build_dir / "extracted_images",
            chunks_path=build_dir / "text_chunks.json",
            pages_path=build_dir / "pages.json",
            bm25_path=build_dir / "bm25_index",
            cache_path=root / "retrieval_cache.db",
            manifest_path=root / "manifest.json",
        )


# ---------------------------------------------------------------- names, paths and validation


def _slug(stem: str) -> str:
    # ".." is collapsed: Chroma refuses it in collection names (names with ".." never processed before).
    slug = re.sub(r"\.{2,}", ".", re.sub(r"[^A-Za-z0-9._-]+", "-", stem)).strip("-._")[:60].strip("-._")
    return slug or "pdf"


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def compute_doc_id(path: Path, sha256: str | None = None) -> str:
    return f"{_slug(Path(path).stem)}-{(sha256 or file_sha256(Path(path)))[:12]}"


def _valid_doc_id(doc_id: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9]", doc_id or "")) and ".." not in doc_id


def get_pdf_output_dirs(doc_id: str) -> PdfOutputDirs:
    """Where a PDF's artifacts are: the build its manifest names (the folder itself when unprocessed)."""
    if not _valid_doc_id(doc_id):
        raise ValueError(f"not a valid document id: {doc_id!r}")
    root = get_settings().destination_dir / doc_id
    manifest = _read_manifest(root / "manifest.json")
    return PdfOutputDirs.at(root, manifest.build if manifest else "")


def _read_manifest(path: Path) -> ProcessedPdf | None:
    try:
        return ProcessedPdf.model_validate_json(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None


def _shown_name(raw: str) -> str:
    """A user-given name fit for a message: control characters visible, no directories, bounded."""
    name = re.split(r"[/\\]", raw)[-1] or raw
    name = "".join(ch if ch.isprintable() else "?" for ch in name)
    return name if len(name) <= 80 else f"{name[:60]}…{name[-15:]}"


def resolve_source_pdf(name_or_path: str | Path) -> Path:
    """A PDF inside the source folder, by file name or path. Anything outside is refused."""
    source_dir = get_settings().source_dir.resolve()
    raw = str(name_or_path).strip().strip("'\"")
    if not raw:
        raise PdfProcessingError("(no file)", "no PDF name was given")
    shown = _shown_name(raw)
    if "\0" in raw:
        raise PdfProcessingError(shown, "the name contains a NUL character, which no file name can have")
    try:
        candidate = Path(raw).expanduser()
        if not candidate.is_absolute():
            candidate = source_dir / candidate
        resolved = candidate.resolve()
        if not resolved.is_relative_to(source_dir):
            raise PdfProcessingError(shown, "is outside the source folder; only PDFs in that folder can be used")
        exists, is_file = resolved.exists(), resolved.is_file()
    except OSError as exc:  # e.g. a name longer than the file system allows
        raise PdfProcessingError(shown, f"cannot be opened ({exc.strerror or type(exc).__name__})") from None
    if not exists:
        raise PdfProcessingError(shown, "no such file in the source folder")
    if not is_file:
        raise PdfProcessingError(shown, "is not a file")
    if resolved.suffix.lower() != ".pdf":
        raise PdfProcessingError(resolved.name, "is not a .pdf file")
    return resolved


def safe_upload_name(filename: str) -> str:
    """The file name an upload is saved under: no directory part, no control characters, no
    leading dot, at most MAX_NAME_BYTES in UTF-8, ending in `.pdf`. Raises for a NUL byte."""
    raw = filename or ""
    if "\0" in raw:
        raise PdfProcessingError(_shown_name(raw), "the file name contains a NUL character; rename the file and upload it again")
    name = unicodedata.normalize("NFC", re.split(r"[/\\]", raw)[-1])  # drop any directory part a browser might send
    name = "".join(ch if ch.isprintable() else "_" for ch in name).strip()
    if not name.lower().endswith(".pdf"):
        raise PdfProcessingError(_shown_name(name) or "(no name)", "only .pdf files can be uploaded")
    stem = name[:-4].strip().lstrip(".").strip() or "upload"
    while len(stem.encode("utf-8")) > MAX_NAME_BYTES - 4:
        stem = stem[:-1]
    return f"{stem.rstrip()}.pdf"


def save_uploaded_pdf(filename: str, data: bytes) -> Path:
    """Validate an upload and write it into the source folder atomically.

    The name is made safe (`safe_upload_name`: shortened, keeping `.pdf`). The same bytes under the
    same name return the existing file; different bytes under an existing name are saved as
    `<stem>-<sha8>.pdf`, so no PDF is silently replaced. A file that is not a usable PDF
    (encrypted, damaged, no pages, too many pages) is refused before it reaches the source folder.
    """
    settings = get_settings()
    name = safe_upload_name(filename)
    if not data:
        raise PdfProcessingError(name, "the file is empty")
    if len(data) > settings.max_file_bytes:
        raise PdfProcessingError(
            name, f"the file is {len(data) / 2**20:.1f} MB; the limit is {settings.max_file_bytes / 2**20:.0f} MB"
        )
    if not data[:1024].lstrip().startswith(b"%PDF-"):
        raise PdfProcessingError(name, "is not a PDF (no %PDF- header)")
    settings.source_dir.mkdir(parents=True, exist_ok=True)
    target = settings.source_dir / name
    sha = hashlib.sha256(data).hexdigest()
    if target.exists():
        if file_sha256(target) == sha:
            return target
        target = settings.source_dir / f"{Path(name).stem}-{sha[:8]}.pdf"
        if target.exists():
            return target
    tmp = target.with_name(f".{target.name}.{uuid.uuid4().hex}.part")
    try:
        tmp.write_bytes(data)
        _open_validated(tmp, name).close()
        os.replace(tmp, target)
    except OSError as exc:
        raise PdfProcessingError(name, f"could not be saved ({exc.strerror or type(exc).__name__})") from None
    finally:
        tmp.unlink(missing_ok=True)
    return target


def _is_truncated(path: Path) -> bool:
    """A PDF ends with `%%EOF` (some writers add a little padding after it)."""
    with open(path, "rb") as fh:
        fh.seek(max(0, path.stat().st_size - 2048))
        return b"%%EOF" not in fh.read()


def _open_validated(path: Path, name: str | None = None) -> pymupdf.Document:
    settings = get_settings()
    name = name or path.name
    size = path.stat().st_size
    if size == 0:
        raise PdfProcessingError(name, "the file is empty")
    if size > settings.max_file_bytes:
        raise PdfProcessingError(
            name, f"the file is {size / 2**20:.1f} MB; the limit is {settings.max_file_bytes / 2**20:.0f} MB (PDF_MAX_FILE_MB)"
        )
    with open(path, "rb") as fh:
        if not fh.read(1024).lstrip().startswith(b"%PDF-"):
            raise PdfProcessingError(name, "is not a PDF (no %PDF- header); was another file renamed to .pdf?")
    try:
        doc = pymupdf.open(path, filetype="pdf")
    except Exception as exc:
        raise PdfProcessingError(name, f"is damaged: corrupt or unreadable ({exc})") from exc
    if doc.needs_pass or doc.is_encrypted:
        doc.close()
        raise PdfProcessingError(name, "is encrypted (password-protected); remove the password and upload it again")
    if doc.is_repaired and _is_truncated(path):
        # MuPDF rebuilds a truncated file's cross-reference table, but its pages come back blank
        # (measured on truncated 10-Ks: every page empty), which OCR would then read one by one.
        doc.close()
        raise PdfProcessingError(name, "is damaged: the file is truncated (it stops before the end of the PDF); upload the complete file again")
    if doc.page_count == 0:
        doc.close()
        raise PdfProcessingError(name, "has no pages")
    if doc.page_count > settings.limits.max_pages:
        count = doc.page_count
        doc.close()
        raise PdfProcessingError(name, f"has {count} pages; the limit is {settings.limits.max_pages} (PDF_MAX_PAGES)")
    return doc


# ---------------------------------------------------------------- queries on processed PDFs


def load_manifest(doc_id: str) -> ProcessedPdf:
    return ProcessedPdf.model_validate_json(get_pdf_output_dirs(doc_id).manifest_path.read_text("utf-8"))


def check_pdf_processed(doc_id: str) -> bool:
    """True only for a complete artifact set: manifest, chunks, and the Chroma collection."""
    try:
        root = get_pdf_output_dirs(doc_id).root
    except ValueError:
        return False
    manifest = _read_manifest(root / "manifest.json")
    if manifest is None or manifest.doc_id != doc_id or manifest.pipeline_version != PIPELINE_VERSION:
        return False
    dirs = PdfOutputDirs.at(root, manifest.build)
    if not dirs.chunks_path.is_file() or not dirs.bm25_path.exists():
        return False
    return vector_store.collection_exists(manifest.collection or vector_store.safe_collection_name(doc_id))


def list_processed_pdfs() -> list[ProcessedPdf]:
    root = get_settings().destination_dir
    if not root.is_dir():
        return []
    found = []
    for manifest_path in sorted(root.glob("*/manifest.json")):
        if manifest_path.parent.name.startswith("."):  # a build or delete in progress (.tmp-*)
            continue
        try:
            manifest = ProcessedPdf.model_validate_json(manifest_path.read_text("utf-8"))
        except (OSError, ValueError) as exc:
            log.warning("Skipping unreadable manifest %s: %s", manifest_path, exc)
            continue
        if manifest.pipeline_version == PIPELINE_VERSION and manifest.doc_id == manifest_path.parent.name:
            found.append(manifest)
    return sorted(found, key=lambda m: m.source_file.lower())


def load_chunks(doc_id: str) -> list[Chunk]:
    raw = json.loads(get_pdf_output_dirs(doc_id).chunks_path.read_text("utf-8"))
    return [Chunk.model_validate(c) for c in raw]


def load_page_texts(doc_id: str) -> list[str]:
    return json.loads(get_pdf_output_dirs(doc_id).pages_path.read_text("utf-8"))


# ---------------------------------------------------------------- extraction


def ocr_dpi(page: pymupdf.Page) -> int | None:
    """The resolution to render `page` at for OCR: OCR_DPI, lowered to stay under MAX_RENDER_PIXELS;
    None when even MIN_OCR_DPI would not fit (the page is too large to OCR)."""
    square_inches = (page.rect.width / 72) * (page.rect.height / 72)
    fitting = int((MAX_RENDER_PIXELS / max(square_inches, 1e-6)) ** 0.5)
    dpi = min(OCR_DPI, fitting)
    return dpi if dpi >= MIN_OCR_DPI else None


def _ocr_page(page: pymupdf.Page, engine, dpi: int) -> str:
    pixmap = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
    return engine.image_to_text(pixmap.tobytes("png")).strip()


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
        except Exception as exc:  # an undecodable image should not fail the document
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


def _extract(
    doc: pymupdf.Document, images_dir: Path, progress: ProgressCallback
) -> tuple[list[PageContent], list[tuple[int, str, str]], str | None, list[SkippedItem]]:
    """Per-page text (OCR for scanned pages), OCR text of embedded images, and what was skipped."""
    engine = None
    engine_loaded = False
    pages: list[PageContent] = []
    image_texts: list[tuple[int, str, str]] = []  # (page, image file name in images_dir, text)
    skipped: list[SkippedItem] = []
    total = doc.page_count
    for number in range(total):
        page = doc[number]
        text = page.get_text("text", sort=False)
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
                pages.append(PageContent(page_number=number, text=_ocr_page(page, engine, dpi), is_ocr=True))
            except Exception as exc:  # one unreadable page should not fail the document
                log.info("page %d could not be OCRed: %s", number, exc)
                skipped.append(SkippedItem(page=number, what="page", reason=f"the page could not be read with OCR ({type(exc).__name__})"))
                pages.append(PageContent(page_number=number, text=text, is_ocr=False))
        else:
            pages.append(PageContent(page_number=number, text=text, is_ocr=False))
            if has_images and engine is not None:
                image_texts.extend((number, name, t) for name, t in _ocr_images(doc, page, engine, images_dir, skipped))
        progress("Reading pages", number + 1, total)
    return pages, image_texts, (engine.name if engine else None), skipped


def _summarise(
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


def document_info(manifest: ProcessedPdf) -> DocumentInfo:
    """The manifest's document info; for a manifest written before it existed, read now from the
    PDF's first pages (cheap) and kept for the process, so nothing needs re-embedding."""
    if manifest.info is not None:
        return manifest.info
    key = (manifest.doc_id, manifest.processed_at)
    if key not in _lazy_info:
        from storage.doc_metadata import info_from_pdf

        try:
            texts = load_page_texts(manifest.doc_id)
        except (OSError, ValueError):
            texts = None
        try:
            _lazy_info[key] = info_from_pdf(Path(manifest.source_path), texts)
        except Exception as exc:  # the source file moved or is unreadable: a title from the manifest
            log.warning("No document info for %s: %s", manifest.source_file, exc)
            _lazy_info[key] = DocumentInfo(title=manifest.title or Path(manifest.source_file).stem)
    return _lazy_info[key]


_lazy_info: dict[tuple[str, str], DocumentInfo] = {}
_library_cache: dict[str, tuple[tuple, dict[str, DocumentInfo]]] = {}


def library_infos() -> dict[str, DocumentInfo]:
    """doc_id -> DocumentInfo of every processed PDF, titles made unique across the library
    (two filings never share a title: the period end, date or file name is added)."""
    from storage.doc_metadata import unique_titles

    root = get_settings().destination_dir
    try:
        stamp = tuple(sorted((p.parent.name, p.stat().st_mtime_ns) for p in root.glob("*/manifest.json")))
    except OSError:
        stamp = ()
    cached = _library_cache.get(str(root))
    if cached and cached[0] == stamp:
        return cached[1]
    manifests = list_processed_pdfs()
    infos = {m.doc_id: document_info(m) for m in manifests}
    titles = unique_titles((m.doc_id, infos[m.doc_id], m.source_file) for m in manifests)
    result = {d: info.model_copy(update={"title": titles[d]}) for d, info in infos.items()}
    _library_cache[str(root)] = (stamp, result)
    return result


def _renumber(chunks: list[Chunk]) -> list[Chunk]:
    """Reading order by page (text before the page's image OCR), ids 0..n-1."""
    ordered = sorted(enumerate(chunks), key=lambda ic: (ic[1].page_number, ic[1].chunk_type == "image_ocr", ic[0]))
    return [c.model_copy(update={"chunk_id": i}) for i, (_, c) in enumerate(ordered)]


# ---------------------------------------------------------------- the pipeline


def _noop(stage: str, done: int, total: int) -> None:
    pass


def _lock_for(doc_id: str) -> FileLock:
    lock_dir = get_settings().destination_dir / ".locks"
    lock_dir.mkdir(parents=True, exist_ok=True)
    return FileLock(str(lock_dir / f"{doc_id}.lock"))


# What belongs to which PDF. Exact shapes only: another PDF's doc_id may start with this one's
# ("a-<hash>-b-<hash>"), and doc_ids end in 12 hex digits while build ids are 8.
_TMP_DIR = re.compile(r"\.tmp-(?P<doc>.+-[0-9a-f]{12})-(?:deleted-)?[0-9a-f]{8}")
_BUILD_COLLECTION = re.compile(r"(?P<doc>.+-[0-9a-f]{12})-build-[0-9a-f]{8}")
_OLD_TMP_COLLECTION = re.compile(r"tmp-(?P<doc>.+-[0-9a-f]{12})-[0-9a-f]{8}")  # before builds were versioned


def _collection_owner(name: str) -> str | None:
    for pattern in (_BUILD_COLLECTION, _OLD_TMP_COLLECTION):
        if match := pattern.fullmatch(name):
            return match["doc"]
    if re.fullmatch(r".+-[0-9a-f]{12}", name) and _valid_doc_id(name):
        return name  # the collection of a PDF processed before builds were versioned
    return None


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def _sweep_leftovers(doc_id: str, collection_names: list[str] | None = None) -> None:
    """Remove whatever of this PDF its manifest does not name: crashed builds and deletes, earlier
    builds and collections (call with the document's lock held)."""
    destination = get_settings().destination_dir
    for tmp in destination.glob(f".tmp-{doc_id}-*"):
        if (match := _TMP_DIR.fullmatch(tmp.name)) and match["doc"] == doc_id:
            _remove(tmp)
    root = destination / doc_id
    manifest = _read_manifest(root / "manifest.json")
    if root.is_dir() and not (root / "manifest.json").exists():
        _remove(root)
    elif root.is_dir() and manifest is not None:
        current = f"{BUILD_PREFIX}{manifest.build}" if manifest.build else None
        for entry in root.iterdir():
            if entry.name.startswith(BUILD_PREFIX) and entry.name != current:
                _remove(entry)
            elif entry.name.startswith(".manifest-") or (manifest.build and entry.name in _LEGACY_ARTIFACTS):
                _remove(entry)
    keep = (manifest.collection or vector_store.safe_collection_name(doc_id)) if manifest else None
    names = vector_store.list_collection_names() if collection_names is None else collection_names
    for name in names:
        if name != keep and _collection_owner(name) == doc_id:
            vector_store.delete_collection_if_exists(name)


def sweep_all_leftovers() -> int:
    """Sweep the leftovers of every PDF (crashed builds, deletes, replaced builds); returns how many
    PDFs were looked at. A PDF whose lock another process holds (being built) is skipped."""
    destination = get_settings().destination_dir
    if not destination.is_dir():
        return 0
    names = vector_store.list_collection_names()
    owners = {owner for owner in map(_collection_owner, names) if owner}
    for entry in destination.iterdir():
        if match := _TMP_DIR.fullmatch(entry.name):
            owners.add(match["doc"])
        elif entry.is_dir() and _valid_doc_id(entry.name):
            owners.add(entry.name)
    swept = 0
    for doc_id in sorted(o for o in owners if _valid_doc_id(o)):
        lock = _lock_for(doc_id)
        try:
            lock.acquire(blocking=False)
        except Timeout:
            continue
        try:
            _sweep_leftovers(doc_id, names)
            swept += 1
        finally:
            lock.release()
    return swept


_swept: set[str] = set()
_swept_lock = threading.Lock()


def sweep_leftovers_once() -> None:
    """`sweep_all_leftovers()` on the first call in this process (per destination folder)."""
    key = str(get_settings().destination_dir)
    with _swept_lock:
        if key in _swept:
            return
        _swept.add(key)
    try:
        sweep_all_leftovers()
    except Exception as exc:  # the sweep is housekeeping: it must never stop an ingestion
        log.warning("Sweeping leftovers failed: %s", exc)


# ---------------------------------------------------------------- rejected files


def _rejection_path(doc_id: str) -> Path:
    return get_settings().destination_dir / ".rejected" / f"{doc_id}.json"


def rejection_reason(doc_id: str) -> str | None:
    """Why the file with this content was refused the last time it was processed (None if it was not),
    so "process all" does not retry it blindly. Processing it successfully clears it."""
    try:
        return json.loads(_rejection_path(doc_id).read_text("utf-8"))["reason"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _remember_rejection(doc_id: str, exc: PdfProcessingError) -> None:
    try:
        path = _rejection_path(doc_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"file": exc.file, "reason": exc.reason}), "utf-8")
    except OSError as err:
        log.warning("Could not record the rejection of %s: %s", exc.file, err)


# ---------------------------------------------------------------- the pipeline


SWAP_STAGE = "Switching to the new index"


def process_and_index_pdf(
    path: str | Path, progress: ProgressCallback | None = None, *, force: bool = False
) -> ProcessedPdf:
    """Process a PDF from the source folder once; return its manifest (cached when already done).

    Raises PdfProcessingError (file + reason, as a sentence without server paths) for anything that
    cannot be processed, including unexpected failures (logged with their traceback); nothing is
    left behind in that case, and a file that was refused is remembered (`rejection_reason`).
    """
    progress = progress or _noop
    source = resolve_source_pdf(path)
    sweep_leftovers_once()
    progress("Checking file", 0, 1)
    try:
        sha = file_sha256(source)
    except OSError as exc:
        raise PdfProcessingError(source.name, f"cannot be read ({exc.strerror or type(exc).__name__})") from None
    doc_id = compute_doc_id(source, sha)
    try:
        doc = _open_validated(source)
    except PdfProcessingError as exc:
        _remember_rejection(doc_id, exc)
        raise
    try:
        if not force and check_pdf_processed(doc_id):
            progress("Already processed", 1, 1)
            return load_manifest(doc_id)
        with _lock_for(doc_id):
            # Someone else may have finished it while we waited for the lock.
            if not force and check_pdf_processed(doc_id):
                progress("Already processed", 1, 1)
                return load_manifest(doc_id)
            _sweep_leftovers(doc_id)
            try:
                manifest = _build(doc, source, sha, doc_id, progress)
            except (PdfProcessingError, ProcessingCancelled):
                raise
            except Exception as exc:
                log.exception("Processing %s failed", source.name)
                detail = " ".join(str(exc).split())[:200]
                raise PdfProcessingError(
                    source.name, f"could not be processed ({type(exc).__name__}{': ' + detail if detail else ''})"
                ) from exc
        _rejection_path(doc_id).unlink(missing_ok=True)
        return manifest
    except PdfProcessingError as exc:
        _remember_rejection(doc_id, exc)
        raise
    finally:
        doc.close()


def _build(doc: pymupdf.Document, source: Path, sha: str, doc_id: str, progress: ProgressCallback) -> ProcessedPdf:
    from storage.bm25_index import build_bm25_index
    from storage.chunking import chunk_pages, embedding_text
    from storage.embeddings import get_embedder

    destination = get_settings().destination_dir
    build = uuid.uuid4().hex[:8]
    tmp_root = destination / f".tmp-{doc_id}-{build}"
    tmp_dirs = PdfOutputDirs.at(tmp_root)  # becomes <doc_id>/build-<build>/
    collection_name = vector_store.build_collection_name(doc_id, build)
    client = vector_store.get_chroma_client()
    committed = False
    try:
        tmp_root.mkdir(parents=True)
        pages, image_texts, engine_name, skipped = _extract(doc, tmp_dirs.images_dir, progress)
        if not any(p.text.strip() for p in pages) and not image_texts:
            raise PdfProcessingError(
                source.name,
                "no text could be extracted (no text layer and OCR found nothing"
                + ("" if engine_name else "; no OCR engine is installed")
                + ")",
            )
        from storage.doc_metadata import extract_document_info

        info = extract_document_info(doc, pages, source.name)
        title, headings, summary = _summarise(doc, pages, source.name, info)

        progress("Chunking", 0, 1)
        chunks = chunk_pages(pages, source.name, doc_id)
        chunks += [
            Chunk(
                chunk_id=len(chunks) + i,
                text=text,
                source_file=source.name,
                doc_id=doc_id,
                page_number=page_number,
                page_end=page_number,
                chunk_type="image_ocr",
                image_path=f"{BUILD_PREFIX}{build}/extracted_images/{name}",  # relative to the PDF's folder
            )
            for i, (page_number, name, text) in enumerate(image_texts)
        ]
        chunks = _renumber(chunks)
        progress("Chunking", 1, 1)

        embedder = get_embedder()
        texts = [embedding_text(c, title) for c in chunks]
        vectors = []
        step = 64
        for start in range(0, len(texts), step):
            vectors.extend(embedder.embed(texts[start : start + step]).tolist())
            progress("Embedding", min(start + step, len(texts)), len(texts))

        progress("Indexing", 0, 2)
        collection = client.create_collection(
            collection_name, metadata=vector_store.COLLECTION_METADATA, embedding_function=None
        )
        for start in range(0, len(chunks), vector_store.ADD_BATCH):
            batch = chunks[start : start + vector_store.ADD_BATCH]
            collection.add(
                ids=[str(c.chunk_id) for c in batch],
                embeddings=vectors[start : start + len(batch)],
                documents=[c.text for c in batch],
                metadatas=[
                    {
                        "source_file": c.source_file,
                        "doc_id": c.doc_id,
                        "page_number": c.page_number,
                        "page_end": c.page_end,
                        "chunk_id": c.chunk_id,
                        "chunk_type": c.chunk_type,
                    }
                    for c in batch
                ],
            )
        build_bm25_index(chunks, tmp_dirs.bm25_path)
        progress("Indexing", 1, 2)

        manifest = ProcessedPdf(
            doc_id=doc_id,
            source_file=source.name,
            source_path=str(source),
            sha256=sha,
            page_count=len(pages),
            chunk_count=len(chunks),
            ocr_pages=[p.page_number for p in pages if p.is_ocr],
            image_ocr_chunks=len(image_texts),
            title=title,
            headings=headings,
            summary=summary,
            info=info,
            ocr_engine=engine_name,
            processed_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            build=build,
            collection=collection_name,
            skipped=skipped,
        )
        _write_json(tmp_dirs.chunks_path, [c.model_dump() for c in chunks])
        _write_json(tmp_dirs.pages_path, [p.text for p in pages])

        # Swap, then drop. Until the manifest is replaced the previous build (if any) is current
        # and complete; from then on the new one is. Each step is reported, so a test can kill here.
        root = destination / doc_id
        previous = _read_manifest(root / "manifest.json")
        new_manifest = root / f".manifest-{build}.json"

        def move_build_into_place() -> None:
            root.mkdir(exist_ok=True)
            os.replace(tmp_root, root / f"{BUILD_PREFIX}{build}")

        def commit_manifest() -> None:
            nonlocal committed
            _write_json(new_manifest, manifest.model_dump())
            os.replace(new_manifest, root / "manifest.json")  # the commit point
            committed = True

        def drop_previous_build() -> None:
            if previous is None:
                return
            for name in [f"{BUILD_PREFIX}{previous.build}"] if previous.build else _LEGACY_ARTIFACTS:
                if name != f"{BUILD_PREFIX}{build}":
                    _remove(root / name)

        def drop_previous_collection() -> None:
            old = (previous.collection or vector_store.safe_collection_name(doc_id)) if previous else None
            if old and old != collection_name:
                vector_store.delete_collection_if_exists(old)

        def drop_retrieval_cache() -> None:
            for suffix in ("", "-wal", "-shm"):  # its entries are for the previous build
                (root / f"retrieval_cache.db{suffix}").unlink(missing_ok=True)

        steps = [move_build_into_place, commit_manifest, drop_previous_build, drop_previous_collection, drop_retrieval_cache]
        for done, step in enumerate(steps):
            progress(SWAP_STAGE, done, len(steps))
            try:
                step()
            except Exception:
                if not committed:
                    raise
                # The new build is current: what was not dropped is swept by the next run.
                log.warning("Could not %s of %s", step.__name__.replace("_", " "), doc_id, exc_info=True)
        progress("Done", 2, 2)
        log.info("Processed %s as %s: %d pages, %d chunks", source.name, doc_id, len(pages), len(chunks))
        return manifest
    except BaseException:
        if not committed:
            shutil.rmtree(tmp_root, ignore_errors=True)
            shutil.rmtree(destination / doc_id / f"{BUILD_PREFIX}{build}", ignore_errors=True)
            (destination / doc_id / f".manifest-{build}.json").unlink(missing_ok=True)
            try:
                vector_store.delete_collection_if_exists(collection_name)
            except Exception:  # the vector store may be what failed; the sweep retries next time
                log.warning("Could not remove the unfinished collection %s", collection_name)
            root = destination / doc_id
            if root.is_dir() and not (root / "manifest.json").exists():
                shutil.rmtree(root, ignore_errors=True)
        raise


def _write_json(path: Path, data) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False)
        fh.flush()
        os.fsync(fh.fileno())


# ---------------------------------------------------------------- delete and re-index


def delete_pdf(doc_id: str) -> None:
    """Remove a PDF's artifacts and collections (the source file stays)."""
    dirs = get_pdf_output_dirs(doc_id)
    with _lock_for(doc_id):
        if dirs.root.exists():
            # Rename first, so the PDF stops being listed at once and a half-deleted folder is
            # never mistaken for a processed one; the sweep then drops the folder and collections.
            os.replace(dirs.root, dirs.root.with_name(f".tmp-{doc_id}-deleted-{uuid.uuid4().hex[:8]}"))
        _sweep_leftovers(doc_id)


def reindex_pdf(doc_id: str, progress: ProgressCallback | None = None) -> ProcessedPdf:
    """Rebuild a processed PDF's artifacts from its source file; the old index stays searchable
    until the new one replaces it."""
    try:
        manifest = load_manifest(doc_id)
    except (OSError, ValueError):
        raise PdfProcessingError(doc_id, "is not processed (no readable manifest); process the PDF again") from None
    return process_and_index_pdf(manifest.source_path, progress, force=True)
