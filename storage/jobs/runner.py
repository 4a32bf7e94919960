"""One ingestion job from start to outcome, shared by the app's thread runner (storage/jobs/thread_jobs.py) and
the Celery task (storage/jobs/tasks.py): process or re-index, and tell a cancel that came too late (the build
was already committed) from one that left the previous index unchanged."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from storage.documents.catalog import (
    PdfProcessingError,
    ProcessedPdf,
    ProcessingCancelled,
    ProgressCallback,
    load_manifest,
)
from storage.documents import ingest  # looked up per call: tests substitute the pipeline
from storage.documents.intake import compute_doc_id


class Outcome(BaseModel):
    state: Literal["done", "error", "cancelled"]
    result: ProcessedPdf | None = None
    error: str | None = None
    cancelled_too_late: bool = False  # the cancel arrived after the commit: the PDF is processed


def run_ingestion(path: str | Path, reindex_doc_id: str | None, progress: ProgressCallback) -> Outcome:
    """Process `path` (or re-index `reindex_doc_id`). Unexpected exceptions propagate: each runner decides
    what of them a person may see."""
    before = build_of(reindex_doc_id) if reindex_doc_id else None
    try:
        if reindex_doc_id:
            return Outcome(state="done", result=ingest.reindex_pdf(reindex_doc_id, progress=progress))
        return Outcome(state="done", result=ingest.process_and_index_pdf(path, progress=progress))
    except ProcessingCancelled:
        # A cancel seen after the commit point (while old builds are dropped) does not undo it.
        kept = committed_since(path, reindex_doc_id, before)
        if kept is not None:
            return Outcome(state="done", result=kept, cancelled_too_late=True)
        return Outcome(state="cancelled")
    except PdfProcessingError as exc:
        return Outcome(state="error", error=str(exc))


def build_of(doc_id: str) -> tuple[str, str] | None:
    """(build, processed_at) of a processed PDF's current manifest, None when it has none."""
    try:
        manifest = load_manifest(doc_id)
    except (OSError, ValueError):
        return None
    return manifest.build, manifest.processed_at


def committed_since(path: str | Path, reindex_doc_id: str | None, before: tuple[str, str] | None) -> ProcessedPdf | None:
    """The manifest a cancelled job committed anyway, or None when nothing of it was kept."""
    try:
        doc_id = reindex_doc_id or compute_doc_id(Path(path))
        now = build_of(doc_id)
        return load_manifest(doc_id) if now is not None and now != before else None
    except (OSError, ValueError):
        return None
