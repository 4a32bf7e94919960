"""Turn a PDF into everything retrieval needs, exactly once, never half-written.

`process_and_index_pdf(path)` validates the file, extracts text per page with PyMuPDF, OCRs
scanned pages and embedded images that carry text, chunks, embeds, and writes the artifacts:

    <destination>/<doc_id>/
        manifest.json        written last: its presence (plus a matching Chroma collection) means "processed"
        text_chunks.json     list[Chunk]
        pages.json           list[str], the text of each page (0-based index)
        bm25_index/          the sparse index (storage.bm25_index)
        retrieval_cache.db   created on first query (storage.retrieval_cache)
        extracted_images/    images whose OCR text became `image_ocr` chunks

`doc_id = "<slug of the file stem>-<sha256[:12]>"`: the same bytes uploaded twice are processed once,
and a different file under an old name never reuses stale artifacts.

Atomicity: everything is built in `<destination>/.tmp-<doc_id>-<random>/` and in a temporary Chroma
collection, under a per-document file lock; the collection is renamed and then the folder renamed
into place. A crash at any point leaves no folder with a manifest, so `check_pdf_processed` refuses it
and the next run rebuilds (sweeping the leftovers first).

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
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

import pymupdf
from filelock import FileLock
from pydantic import BaseModel, Field

from storage import vector_store
from storage.config import get_settings
from storage.ocr import get_ocr_engine
from storage.schema import Chunk, PageContent

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


class PdfProcessingError(Exception):
    """A PDF that cannot be processed. The message names the file and the reason."""

    def __init__(self, file: str, reason: str) -> None:
        super().__init__(f"{file}: {reason}")
        self.file = file
        self.reason = reason


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
    ocr_engine: str | None = None
    processed_at: str = ""
    pipeline_version: int = PIPELINE_VERSION


@dataclass(frozen=True)
class PdfOutputDirs:
    root: Path
    images_dir: Path
    chunks_path: Path
    pages_path: Path
    bm25_path: Path
    cache_path: Path
    manifest_path: Path

    @classmethod
    def at(cls, root: Path) -> "PdfOutputDirs":
        return cls(
            root=root,
            images_dir=root / "extracted_images",
            chunks_path=root / "text_chunks.json",
            pages_path=root / "pages.json",
            bm25_path=root / "bm25_index",
            cache_path=root / "retrieval_cache.db",
            manifest_path=root / "manifest.json",
        )


# ---------------------------------------------------------------- names, paths and validation


def _slug(stem: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-._")[:60].strip("-._")
    return slug or "pdf"


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def compute_doc_id(path: Path, sha256: str | None = None) -> str:
    return f"{_slug(Path(path).stem)}-{(sha256 or file_sha256(Path(path)))[:12]}"


def get_pdf_output_dirs(doc_id: str) -> PdfOutputDirs:
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9]", doc_id or "") or ".." in doc_id:
        raise ValueError(f"not a valid document id: {doc_id!r}")
    return PdfOutputDirs.at(get_settings().destination_dir / doc_id)


def resolve_source_pdf(name_or_path: str | Path) -> Path:
    """A PDF inside the source folder, by file name or path. Anything outside is refused."""
    source_dir = get_settings().source_dir.resolve()
    raw = str(name_or_path).strip().strip("'\"")
    if not raw:
        raise PdfProcessingError("(no file)", "no PDF name was given")
    candidate = Path(raw).expanduser()
    if not candidate.is_absolute():
        candidate = source_dir / candidate
    resolved = candidate.resolve()
    if not resolved.is_relative_to(source_dir):
        raise PdfProcessingError(raw, f"is outside the source folder {source_dir}; only PDFs in that folder can be used")
    if not resolved.exists():
        raise PdfProcessingError(raw, f"no such file in {source_dir}")
    if not resolved.is_file():
        raise PdfProcessingError(raw, "is not a file")
    if resolved.suffix.lower() != ".pdf":
        raise PdfProcessingError(resolved.name, "is not a .pdf file")
    return resolved


def save_uploaded_pdf(filename: str, data: bytes) -> Path:
    """Validate an upload and write it into the source folder atomically.

    The same bytes under the same name return the existing file; different bytes under an
    existing name are saved as `<stem>-<sha8>.pdf`, so no PDF is silently replaced.
    """
    settings = get_settings()
    name = Path(filename or "").name  # drop any directory part a browser might send
    if not name.lower().endswith(".pdf"):
        raise PdfProcessingError(name or "(no name)", "only .pdf files can be uploaded")
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
    tmp.write_bytes(data)
    os.replace(tmp, target)
    return target


def _open_validated(path: Path) -> pymupdf.Document:
    settings = get_settings()
    name = path.name
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
        raise PdfProcessingError(name, f"is corrupt or unreadable ({exc})") from exc
    if doc.needs_pass or doc.is_encrypted:
        doc.close()
        raise PdfProcessingError(name, "is encrypted (password-protected); remove the password and upload it again")
    if doc.page_count == 0:
        doc.close()
        raise PdfProcessingError(name, "has no pages")
    if doc.page_count > settings.max_pages:
        count = doc.page_count
        doc.close()
        raise PdfProcessingError(name, f"has {count} pages; the limit is {settings.max_pages} (PDF_MAX_PAGES)")
    return doc


# ---------------------------------------------------------------- queries on processed PDFs


def load_manifest(doc_id: str) -> ProcessedPdf:
    return ProcessedPdf.model_validate_json(get_pdf_output_dirs(doc_id).manifest_path.read_text("utf-8"))


def check_pdf_processed(doc_id: str) -> bool:
    """True only for a complete artifact set: manifest, chunks, and the Chroma collection."""
    try:
        dirs = get_pdf_output_dirs(doc_id)
        manifest = load_manifest(doc_id)
    except (ValueError, OSError):
        return False
    if manifest.doc_id != doc_id or manifest.pipeline_version != PIPELINE_VERSION:
        return False
    if not dirs.chunks_path.is_file() or not dirs.bm25_path.exists():
        return False
    return vector_store.collection_exists(vector_store.collection_name(doc_id))


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


def _ocr_page(page: pymupdf.Page, engine) -> str:
    pixmap = page.get_pixmap(dpi=OCR_DPI, colorspace=pymupdf.csGRAY)
    return engine.image_to_text(pixmap.tobytes("png")).strip()


def _ocr_images(doc: pymupdf.Document, page: pymupdf.Page, engine, images_dir: Path) -> list[tuple[str, str]]:
    """OCR the page's embedded images that are big enough to hold text: [(relative path, text)]."""
    found: list[tuple[str, str]] = []
    seen: set[int] = set()
    for info in page.get_images(full=True)[: MAX_IMAGE_OCR_PER_PAGE * 3]:
        xref, width, height = info[0], info[2], info[3]
        if xref in seen or min(width, height) < MIN_IMAGE_SIDE:
            continue
        seen.add(xref)
        try:
            pixmap = pymupdf.Pixmap(doc, xref)
            if pixmap.n - pixmap.alpha >= 4:  # CMYK and friends -> RGB for PNG
                pixmap = pymupdf.Pixmap(pymupdf.csRGB, pixmap)
            png = pixmap.tobytes("png")
        except Exception as exc:  # an undecodable image should not fail the document
            log.debug("page %d image %d not decodable: %s", page.number, xref, exc)
            continue
        text = engine.image_to_text(png).strip()
        if sum(ch.isalnum() for ch in text) < MIN_OCR_CHARS:
            continue
        images_dir.mkdir(parents=True, exist_ok=True)
        rel = f"extracted_images/page{page.number:04d}_x{xref}.png"
        (images_dir / Path(rel).name).write_bytes(png)
        found.append((rel, text))
        if len(found) >= MAX_IMAGE_OCR_PER_PAGE:
            break
    return found


def _extract(
    doc: pymupdf.Document, images_dir: Path, progress: ProgressCallback
) -> tuple[list[PageContent], list[tuple[int, str, str]], str | None]:
    """Per-page text (OCR for scanned pages) and OCR text of embedded images."""
    engine = None
    engine_loaded = False
    pages: list[PageContent] = []
    image_texts: list[tuple[int, str, str]] = []  # (page, relative image path, text)
    total = doc.page_count
    for number in range(total):
        page = doc[number]
        text = page.get_text("text", sort=False)
        has_images = bool(page.get_images())
        needs_ocr = len(text.strip()) < MIN_TEXT_CHARS
        if (needs_ocr or has_images) and not engine_loaded:
            engine, engine_loaded = get_ocr_engine(), True
        if needs_ocr and engine is not None:
            ocr_text = _ocr_page(page, engine)
            pages.append(PageContent(page_number=number, text=ocr_text, is_ocr=True))
        else:
            pages.append(PageContent(page_number=number, text=text, is_ocr=False))
            if has_images and engine is not None:
                image_texts.extend((number, rel, t) for rel, t in _ocr_images(doc, page, engine, images_dir))
        progress("Reading pages", number + 1, total)
    return pages, image_texts, (engine.name if engine else None)


def _font_lines(page: pymupdf.Page) -> list[tuple[float, str]]:
    """(font size, text) of each text line on a page."""
    lines = []
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            text = " ".join(" ".join(s["text"] for s in line["spans"]).split())
            if text:
                lines.append((max(s["size"] for s in line["spans"]), text))
    return lines


def _title(doc: pymupdf.Document, pages: list[PageContent], source_file: str) -> str:
    """The metadata title when it reads like one, else the largest lines on page 1."""
    meta_title = " ".join(((doc.metadata or {}).get("title") or "").split())
    if len(re.findall(r"[A-Za-z]{2,}", meta_title)) >= 2:
        return meta_title
    lines = [(size, text) for size, text in _font_lines(doc[0]) if re.search(r"[A-Za-z]{2,}", text)]
    if lines:
        top = max(size for size, _ in lines)
        biggest = [text for size, text in lines if size >= top * 0.9]
        return " · ".join(dict.fromkeys(biggest[:3]))
    first = [ln.strip() for p in pages[:1] for ln in p.text.splitlines() if ln.strip()]
    return first[0] if first else Path(source_file).stem


def _summarise(doc: pymupdf.Document, pages: list[PageContent], source_file: str) -> tuple[str, list[str], str]:
    """Title, first headings and a short summary for routing ("is this question about this PDF?")."""
    headings: list[str] = [entry[1].strip() for entry in doc.get_toc()[:12] if entry[1].strip()]
    if not headings:
        # No outline: take lines set in a clearly larger font than the body on the first pages.
        spans = [line for page in list(doc)[:3] for line in _font_lines(page)]
        if spans:
            body = statistics.median(size for size, _ in spans)
            headings = [text for size, text in spans if size >= body * 1.25 and len(text) > 3][:12]
    title = _title(doc, pages, source_file)
    first_lines = [ln.strip() for p in pages[:2] for ln in p.text.splitlines() if len(ln.strip()) > 3]
    opening = " ".join(first_lines[:12])[:400]
    summary = f"{title} ({source_file}, {len(pages)} pages)."
    if headings:
        summary += " Sections include: " + "; ".join(dict.fromkeys(headings[:10])) + "."
    if opening:
        summary += f" It begins: {opening}"
    return title[:200], headings, summary


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


def _sweep_leftovers(doc_id: str) -> None:
    """Remove what a crashed run left behind (call with the document's lock held)."""
    destination = get_settings().destination_dir
    # Exact names only: another PDF's doc_id may start with this one's ("a-<hash>-b-<hash>").
    ours = re.compile(rf"\.?tmp-{re.escape(doc_id)}-(?:deleted-)?[0-9a-f]{{8}}")
    for tmp in destination.glob(f".tmp-{doc_id}-*"):
        if ours.fullmatch(tmp.name):
            shutil.rmtree(tmp, ignore_errors=True)
    for name in vector_store.list_collection_names():
        if ours.fullmatch(name):
            vector_store.delete_collection_if_exists(name)
    final = destination / doc_id
    if final.exists() and not (final / "manifest.json").exists():
        shutil.rmtree(final, ignore_errors=True)


def process_and_index_pdf(
    path: str | Path, progress: ProgressCallback | None = None, *, force: bool = False
) -> ProcessedPdf:
    """Process a PDF from the source folder once; return its manifest (cached when already done).

    Raises PdfProcessingError (file + reason) for anything that is not a readable PDF in the
    source folder; nothing is left behind in that case.
    """
    progress = progress or _noop
    source = resolve_source_pdf(path)
    progress("Checking file", 0, 1)
    doc = _open_validated(source)
    try:
        sha = file_sha256(source)
        doc_id = compute_doc_id(source, sha)
        if not force and check_pdf_processed(doc_id):
            progress("Already processed", 1, 1)
            return load_manifest(doc_id)
        with _lock_for(doc_id):
            # Someone else may have finished it while we waited for the lock.
            if not force and check_pdf_processed(doc_id):
                progress("Already processed", 1, 1)
                return load_manifest(doc_id)
            _sweep_leftovers(doc_id)
            return _build(doc, source, sha, doc_id, progress)
    finally:
        doc.close()


def _build(doc: pymupdf.Document, source: Path, sha: str, doc_id: str, progress: ProgressCallback) -> ProcessedPdf:
    from storage.bm25_index import build_bm25_index
    from storage.chunking import chunk_pages, embedding_text
    from storage.embeddings import get_embedder

    destination = get_settings().destination_dir
    tmp_root = destination / f".tmp-{doc_id}-{uuid.uuid4().hex[:8]}"
    tmp_dirs = PdfOutputDirs.at(tmp_root)
    tmp_collection = f"tmp-{doc_id}-{uuid.uuid4().hex[:8]}"
    client = vector_store.get_chroma_client()
    try:
        tmp_root.mkdir(parents=True)
        pages, image_texts, engine_name = _extract(doc, tmp_dirs.images_dir, progress)
        if not any(p.text.strip() for p in pages) and not image_texts:
            raise PdfProcessingError(
                source.name,
                "no text could be extracted (no text layer and OCR found nothing"
                + ("" if engine_name else "; no OCR engine is installed")
                + ")",
            )
        title, headings, summary = _summarise(doc, pages, source.name)

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
                image_path=rel,
            )
            for i, (page_number, rel, text) in enumerate(image_texts)
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
            tmp_collection, metadata=vector_store.COLLECTION_METADATA, embedding_function=None
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
            ocr_engine=engine_name,
            processed_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        )
        _write_json(tmp_dirs.chunks_path, [c.model_dump() for c in chunks])
        _write_json(tmp_dirs.pages_path, [p.text for p in pages])
        _write_json(tmp_dirs.manifest_path, manifest.model_dump())

        # Commit: collection first, then the folder. Until the folder rename, nothing is "processed".
        final_name = vector_store.collection_name(doc_id)
        vector_store.delete_collection_if_exists(final_name)
        collection.modify(name=final_name)
        final_root = destination / doc_id
        if final_root.exists():
            shutil.rmtree(final_root)
        os.replace(tmp_root, final_root)
        progress("Done", 2, 2)
        log.info("Processed %s as %s: %d pages, %d chunks", source.name, doc_id, len(pages), len(chunks))
        return manifest
    except BaseException:
        shutil.rmtree(tmp_root, ignore_errors=True)
        try:
            vector_store.delete_collection_if_exists(tmp_collection)
        except Exception:  # the vector store may be what failed; the sweep retries next time
            log.warning("Could not remove temporary collection %s", tmp_collection)
        raise


def _write_json(path: Path, data) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False)
        fh.flush()
        os.fsync(fh.fileno())


# ---------------------------------------------------------------- delete and re-index


def delete_pdf(doc_id: str) -> None:
    """Remove a PDF's artifacts and collection (the source file stays)."""
    dirs = get_pdf_output_dirs(doc_id)
    with _lock_for(doc_id):
        vector_store.delete_collection_if_exists(vector_store.collection_name(doc_id))
        if dirs.root.exists():
            # Rename first so a half-deleted folder is never mistaken for a processed one.
            trash = dirs.root.with_name(f".tmp-{doc_id}-deleted-{uuid.uuid4().hex[:8]}")
            os.replace(dirs.root, trash)
            shutil.rmtree(trash, ignore_errors=True)
        _sweep_leftovers(doc_id)


def reindex_pdf(doc_id: str, progress: ProgressCallback | None = None) -> ProcessedPdf:
    """Rebuild a processed PDF's artifacts from its source file."""
    manifest = load_manifest(doc_id)
    return process_and_index_pdf(manifest.source_path, progress, force=True)
