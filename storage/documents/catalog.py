"""The catalog of processed PDFs: their manifests, where their artifacts are, and what they hold.

    <destination>/<doc_id>/
        manifest.json        the commit point: names the current build folder and Chroma collection
        retrieval_cache.db   created on first query (storage.retrieval.cache)
        build-<id>/          one complete build:
            text_chunks.json     list[Chunk]
            pages.json           list[str], the text of each page (0-based index)
            bm25_index/          the sparse index (storage.documents.bm25)
            facts.json           list[Fact], every table value read at ingestion (storage.documents.facts)
            page_tables.json     the layout rows the answer path reads, and the running headers/footers
            extracted_images/    images whose OCR text became `image_ocr` chunks

(PDFs processed before builds were versioned keep their artifacts directly in `<doc_id>/`, and a
collection named `<doc_id>`; both layouts are read.) Page numbers are 0-based (storage/schema.py).
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from pydantic import BaseModel, Field

from storage.documents import vector_store
from storage.documents.metadata import READER, info_from_pdf, unique_titles
from storage.documents.pdf_errors import PDF_ERRORS
from storage.schema import Chunk, DocumentInfo, Fact
from storage.settings import get_settings


log = logging.getLogger(__name__)


ProgressCallback = Callable[[str, int, int], None]  # (stage, done, total)


# Bump when extraction, chunking or embedding changes: older artifacts then count as unprocessed
# and are rebuilt on next use.
PIPELINE_VERSION = 3


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
    info_reader: int = 1  # the metadata.READER that wrote `info` (manifests before the stamp: 1)
    ocr_engine: str | None = None
    processed_at: str = ""
    pipeline_version: int = PIPELINE_VERSION
    build: str = ""  # the build folder `build-<build>` ("" = artifacts directly in the PDF's folder)
    collection: str = ""  # the Chroma collection of this build ("" = named like the doc_id)
    skipped: list[SkippedItem] = Field(default_factory=list)  # images/pages too large to process


BUILD_PREFIX = "build-"
LEGACY_ARTIFACTS = ("text_chunks.json", "pages.json", "bm25_index", "extracted_images")


@dataclass(frozen=True)
class PdfOutputDirs:
    root: Path  # the PDF's folder <destination>/<doc_id>
    build_dir: Path  # the current build's artifacts (== root for PDFs processed before builds)
    images_dir: Path
    chunks_path: Path
    pages_path: Path
    bm25_path: Path
    facts_path: Path
    tables_path: Path
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
            facts_path=build_dir / "facts.json",
            tables_path=build_dir / "page_tables.json",
            cache_path=root / "retrieval_cache.db",
            manifest_path=root / "manifest.json",
        )


def valid_doc_id(doc_id: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9]", doc_id or "")) and ".." not in doc_id


def get_pdf_output_dirs(doc_id: str) -> PdfOutputDirs:
    """Where a PDF's artifacts are: the build its manifest names (the folder itself when unprocessed)."""
    if not valid_doc_id(doc_id):
        raise ValueError(f"not a valid document id: {doc_id!r}")
    root = get_settings().destination_dir / doc_id
    manifest = read_manifest(root / "manifest.json")
    return PdfOutputDirs.at(root, manifest.build if manifest else "")


def read_manifest(path: Path) -> ProcessedPdf | None:
    try:
        return ProcessedPdf.model_validate_json(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None


def load_manifest(doc_id: str) -> ProcessedPdf:
    return ProcessedPdf.model_validate_json(get_pdf_output_dirs(doc_id).manifest_path.read_text("utf-8"))


def check_pdf_processed(doc_id: str) -> bool:
    """True only for a complete artifact set: manifest, chunks, and the Chroma collection."""
    try:
        root = get_pdf_output_dirs(doc_id).root
    except ValueError:
        return False
    manifest = read_manifest(root / "manifest.json")
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


def load_facts(doc_id: str) -> list[Fact]:
    """Every table value of a processed PDF as read at ingestion (storage/documents/facts.py; cached
    per build there: `facts.page_facts`). Raises OSError for a build made before facts were stored."""
    raw = json.loads(get_pdf_output_dirs(doc_id).facts_path.read_text("utf-8"))
    return [Fact.model_validate(f) for f in raw]


def load_page_texts(doc_id: str) -> list[str]:
    return json.loads(get_pdf_output_dirs(doc_id).pages_path.read_text("utf-8"))


def document_info(manifest: ProcessedPdf) -> DocumentInfo:
    """The manifest's document info; for a manifest written before it existed, or by an older cover
    reader (`info_reader`), read now from the PDF's first pages (cheap) and kept for the process, so
    nothing needs re-embedding."""
    if manifest.info is not None and manifest.info_reader == READER:
        return manifest.info
    key = (manifest.doc_id, manifest.processed_at)
    if key not in _lazy_info:
        try:
            texts = load_page_texts(manifest.doc_id)
        except (OSError, ValueError):
            texts = None
        try:
            _lazy_info[key] = info_from_pdf(Path(manifest.source_path), texts)
        except PDF_ERRORS as exc:  # the source file moved or is unreadable: a title from the manifest
            log.warning("No document info for %s: %s", manifest.source_file, exc)
            _lazy_info[key] = manifest.info or DocumentInfo(title=manifest.title or Path(manifest.source_file).stem)
    return _lazy_info[key]


_lazy_info: dict[tuple[str, str], DocumentInfo] = {}
_library_cache: dict[str, tuple[tuple, dict[str, DocumentInfo]]] = {}


def library_infos() -> dict[str, DocumentInfo]:
    """doc_id -> DocumentInfo of every processed PDF, titles made unique across the library
    (two filings never share a title: the period end, date or file name is added)."""
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
