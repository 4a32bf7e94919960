"""Turn a PDF into everything retrieval needs, exactly once, never half-written.

`process_and_index_pdf(path)` validates the file (intake), reads its text (extract), then builds in
named steps: chunks, embeddings, the Chroma collection and BM25 index, the manifest, and the swap.

Atomicity: build beside, swap, then drop. Everything is built in `<destination>/.tmp-<doc_id>-<id>/`
and in a new collection `<doc_id>-build-<id>`, under a per-document file lock; the folder is moved
to `<doc_id>/build-<id>/`, then the manifest is replaced in one `os.replace` (the commit point),
and only then are the previous build's folder, collection and cache dropped. A crash at any point
leaves either the previous complete build or the new one current; what is left over is swept by
the next build of that PDF and, for every PDF, once per process (storage/documents/maintenance.py).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import uuid
from datetime import datetime, timezone
from pathlib import Path

import pymupdf

# Modules, not their functions: looked up per call, so tests can substitute a step of the pipeline.
from storage.documents import bm25, chunking, embeddings, metadata, vector_store
from storage.documents.catalog import (
    BUILD_PREFIX,
    LEGACY_ARTIFACTS,
    PdfOutputDirs,
    PdfProcessingError,
    ProcessedPdf,
    ProcessingCancelled,
    ProgressCallback,
    check_pdf_processed,
    load_manifest,
    read_manifest,
)
from storage.documents.extract import extract_pages, summarise
from storage.documents.facts import add_missing_facts, read_tables, write_tables
from storage.documents.intake import compute_doc_id, file_sha256, open_validated, resolve_source_pdf
from storage.documents.maintenance import (
    document_lock,
    forget_rejection,
    remember_rejection,
    remove_path,
    sweep_leftovers,
    sweep_leftovers_once,
)
from storage.schema import Chunk, PageContent
from storage.settings import get_settings

log = logging.getLogger(__name__)

SWAP_STAGE = "Switching to the new index"


def _noop(stage: str, done: int, total: int) -> None:
    pass


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
        doc = open_validated(source)
    except PdfProcessingError as exc:
        remember_rejection(doc_id, exc)
        raise
    try:
        if not force and check_pdf_processed(doc_id):
            _upgrade(doc_id, doc)
            progress("Already processed", 1, 1)
            return load_manifest(doc_id)
        with document_lock(doc_id):
            # Someone else may have finished it while we waited for the lock.
            if not force and check_pdf_processed(doc_id):
                _upgrade(doc_id, doc, lock=False)
                progress("Already processed", 1, 1)
                return load_manifest(doc_id)
            try:
                sweep_leftovers(doc_id)
                manifest = _build(doc, source, sha, doc_id, progress)
            except (PdfProcessingError, ProcessingCancelled):
                raise
            except vector_store.UNREACHABLE_ERRORS as exc:  # an outage, not the file's fault: never "refused"
                raise vector_store.VectorStoreUnavailable(source.name, exc) from exc
            except Exception as exc:  # noqa: BLE001 - the pipeline's boundary: a PdfProcessingError, trace logged
                log.exception("Processing %s failed", source.name)
                detail = " ".join(str(exc).split())[:200]
                raise PdfProcessingError(
                    source.name, f"could not be processed ({type(exc).__name__}{': ' + detail if detail else ''})"
                ) from exc
        forget_rejection(doc_id)
        return manifest
    except PdfProcessingError as exc:
        remember_rejection(doc_id, exc)
        raise
    finally:
        doc.close()


def _upgrade(doc_id: str, doc: pymupdf.Document, lock: bool = True) -> None:
    """A build made before facts were stored gets them (storage/documents/facts.py); one that cannot be
    written (a read-only folder) stays as it is, read by the text parser."""
    try:
        add_missing_facts(doc_id, doc, lock=lock)
    except OSError as exc:
        log.warning("Could not add facts to %s: %s", doc_id, exc)


def reindex_pdf(doc_id: str, progress: ProgressCallback | None = None) -> ProcessedPdf:
    """Rebuild a processed PDF's artifacts from its source file; the old index stays searchable
    until the new one replaces it."""
    try:
        manifest = load_manifest(doc_id)
    except (OSError, ValueError):
        raise PdfProcessingError(doc_id, "is not processed (no readable manifest); process the PDF again") from None
    return process_and_index_pdf(manifest.source_path, progress, force=True)


# ---------------------------------------------------------------- the build, step by step


def _build(doc: pymupdf.Document, source: Path, sha: str, doc_id: str, progress: ProgressCallback) -> ProcessedPdf:
    """Build a new index of `doc` beside the current one and switch to it; on any failure before the
    switch, remove everything this build made."""
    destination = get_settings().destination_dir
    build = uuid.uuid4().hex[:8]
    tmp_root = destination / f".tmp-{doc_id}-{build}"
    tmp_dirs = PdfOutputDirs.at(tmp_root)  # becomes <doc_id>/build-<build>/
    collection_name = vector_store.build_collection_name(doc_id, build)
    try:
        tmp_root.mkdir(parents=True)
        page_words: dict[int, tuple[list[tuple], float]] = {}
        pages, image_texts, engine_name, skipped = extract_pages(doc, tmp_dirs.images_dir, progress, page_words)
        if not any(p.text.strip() for p in pages) and not image_texts:
            raise PdfProcessingError(
                source.name,
                "no text could be extracted (no text layer and OCR found nothing"
                + ("" if engine_name else "; no OCR engine is installed")
                + ")",
            )
        info = metadata.extract_document_info(doc, pages, source.name)
        title, headings, summary = summarise(doc, pages, source.name, info)
        chunks = _make_chunks(pages, image_texts, source.name, doc_id, build, progress)
        vectors = _embed(chunks, title, progress)
        _index(chunks, vectors, collection_name, tmp_dirs, progress)
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
            info_reader=metadata.READER,
            ocr_engine=engine_name,
            processed_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            build=build,
            collection=collection_name,
            skipped=skipped,
        )
        _write_json(tmp_dirs.chunks_path, [c.model_dump() for c in chunks])
        _write_json(tmp_dirs.pages_path, [p.text for p in pages])
        progress("Reading tables", 0, 1)
        write_tables(tmp_dirs.build_dir, read_tables(pages, page_words))
        del page_words
        progress("Reading tables", 1, 1)
        _swap(manifest, tmp_root, destination / doc_id, progress)
        progress("Done", 2, 2)
        log.info("Processed %s as %s: %d pages, %d chunks", source.name, doc_id, len(pages), len(chunks))
        return manifest
    except BaseException:
        if not _is_current(destination / doc_id, build):
            _discard_build(destination, doc_id, build, tmp_root, collection_name)
        raise


def _make_chunks(pages: list[PageContent], image_texts: list[tuple[int, str, str]], source_file: str, doc_id: str,
                 build: str, progress: ProgressCallback) -> list[Chunk]:
    """The page chunks (tables kept whole) plus one chunk per embedded image's OCR text, in reading order."""

    progress("Chunking", 0, 1)
    chunks = chunking.chunk_pages(pages, source_file, doc_id)
    chunks += [
        Chunk(
            chunk_id=len(chunks) + i,
            text=text,
            source_file=source_file,
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
    return chunks


def _renumber(chunks: list[Chunk]) -> list[Chunk]:
    """Reading order by page (text before the page's image OCR), ids 0..n-1."""
    ordered = sorted(enumerate(chunks), key=lambda ic: (ic[1].page_number, ic[1].chunk_type == "image_ocr", ic[0]))
    return [c.model_copy(update={"chunk_id": i}) for i, (_, c) in enumerate(ordered)]


def _embed(chunks: list[Chunk], title: str, progress: ProgressCallback) -> list[list[float]]:

    embedder = embeddings.get_embedder()
    texts = [chunking.embedding_text(c, title) for c in chunks]
    vectors: list[list[float]] = []
    step = 64
    for start in range(0, len(texts), step):
        vectors.extend(embedder.embed(texts[start : start + step]).tolist())
        progress("Embedding", min(start + step, len(texts)), len(texts))
    return vectors


def _index(chunks: list[Chunk], vectors: list[list[float]], collection_name: str, dirs: PdfOutputDirs,
           progress: ProgressCallback) -> None:
    """The build's Chroma collection (vectors passed by us) and its BM25 index."""

    progress("Indexing", 0, 2)
    collection = vector_store.get_chroma_client().create_collection(
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
    bm25.build_bm25_index(chunks, dirs.bm25_path)
    progress("Indexing", 1, 2)


def _is_current(root: Path, build: str) -> bool:
    """Whether the PDF's manifest (the commit point) names this build: once it does, nothing of it is undone."""
    manifest = read_manifest(root / "manifest.json")
    return manifest is not None and manifest.build == build


def _swap(manifest: ProcessedPdf, tmp_root: Path, root: Path, progress: ProgressCallback) -> None:
    """Swap, then drop. Until the manifest is replaced the previous build (if any) is current and
    complete; from then on the new one is. Each step is reported, so a test can kill here."""
    build, doc_id = manifest.build, manifest.doc_id
    previous = read_manifest(root / "manifest.json")
    new_manifest = root / f".manifest-{build}.json"

    def move_build_into_place() -> None:
        root.mkdir(exist_ok=True)
        os.replace(tmp_root, root / f"{BUILD_PREFIX}{build}")

    def commit_manifest() -> None:
        _write_json(new_manifest, manifest.model_dump())
        os.replace(new_manifest, root / "manifest.json")  # the commit point

    def drop_previous_build() -> None:
        if previous is None:
            return
        for name in [f"{BUILD_PREFIX}{previous.build}"] if previous.build else LEGACY_ARTIFACTS:
            if name != f"{BUILD_PREFIX}{build}":
                remove_path(root / name)

    def drop_previous_collection() -> None:
        old = (previous.collection or vector_store.safe_collection_name(doc_id)) if previous else None
        if old and old != manifest.collection:
            vector_store.delete_collection_if_exists(old)

    def drop_retrieval_cache() -> None:
        for suffix in ("", "-wal", "-shm"):  # its entries are for the previous build
            (root / f"retrieval_cache.db{suffix}").unlink(missing_ok=True)

    steps = [move_build_into_place, commit_manifest, drop_previous_build, drop_previous_collection, drop_retrieval_cache]
    for done, step in enumerate(steps):
        progress(SWAP_STAGE, done, len(steps))
        try:
            step()
        except (OSError, *vector_store.VECTOR_STORE_ERRORS):
            if not _is_current(root, build):
                raise
            # The new build is current: what was not dropped is swept by the next run.
            log.warning("Could not %s of %s", step.__name__.replace("_", " "), doc_id, exc_info=True)


def _discard_build(destination: Path, doc_id: str, build: str, tmp_root: Path, collection_name: str) -> None:
    """Remove everything an uncommitted build made; the previous build stays current."""
    shutil.rmtree(tmp_root, ignore_errors=True)
    shutil.rmtree(destination / doc_id / f"{BUILD_PREFIX}{build}", ignore_errors=True)
    (destination / doc_id / f".manifest-{build}.json").unlink(missing_ok=True)
    try:
        vector_store.delete_collection_if_exists(collection_name)
    except Exception:  # noqa: BLE001 - cleanup while another error propagates must not replace it; the sweep retries
        log.warning("Could not remove the unfinished collection %s", collection_name)
    root = destination / doc_id
    if root.is_dir() and not (root / "manifest.json").exists():
        shutil.rmtree(root, ignore_errors=True)


def _write_json(path: Path, data) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False)
        fh.flush()
        os.fsync(fh.fileno())
