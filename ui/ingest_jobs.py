"""PDF processing in a background thread, so it survives whatever the user clicks meanwhile.

A Streamlit script run is interrupted as soon as the user interacts (a chat message, a click),
which would abort a long ingestion half way. Jobs therefore run on a process-wide worker
(`ui.resources.get_ingest_jobs()`), one at a time (the machine's cores go to the embedder), and
pages only poll their state. The same file queued twice is one job.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ui.safe_text import redact

log = logging.getLogger(__name__)
JobState = Literal["queued", "running", "done", "error", "cancelled"]


@dataclass
class IngestJob:
    job_id: str
    path: str
    reindex_doc_id: str | None = None
    state: JobState = "queued"
    stage: str = "Waiting for the previous PDF"
    done: int = 0
    total: int = 0
    error: str | None = None
    result: object | None = None  # storage.documents.catalog.ProcessedPdf when done
    submitted_at: float = field(default_factory=time.time)
    owner: str = ""  # the user who started it: their pages show its progress, after a reload too
    switch_to: bool = False  # started by `/ingest`: when done, the chat uses only this PDF
    cancel_requested: bool = False
    cancelled_too_late: bool = False  # the cancel arrived after the build was committed: the PDF is processed
    stage_started: float = 0.0  # when the current stage began, and its `done` then (for the ETA)
    stage_done0: int = 0

    @property
    def eta_seconds(self) -> float | None:
        """Time left in the current stage at its rate so far (None until it can be estimated)."""
        progressed = self.done - self.stage_done0
        if self.state != "running" or progressed <= 0 or self.total <= self.done:
            return None
        return (time.time() - self.stage_started) / progressed * (self.total - self.done)

    @property
    def file(self) -> str:
        return Path(self.path).name

    @property
    def active(self) -> bool:
        return self.state in ("queued", "running")

    @property
    def fraction(self) -> float:
        return min(max(self.done / self.total, 0.0), 1.0) if self.total else 0.0


class IngestJobs:
    """The queue of processing jobs of this app process (thread-safe)."""

    def __init__(self, workers: int = 1) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="pdf-ingest")
        self._jobs: dict[str, IngestJob] = {}
        self._lock = threading.Lock()

    def submit(self, path: str | Path, reindex_doc_id: str | None = None, owner: str = "",
               switch_to: bool = False) -> IngestJob:
        path = str(path)
        with self._lock:
            for job in self._jobs.values():
                if job.active and job.path == path:
                    return job
            job = IngestJob(uuid.uuid4().hex, path, reindex_doc_id, owner=owner, switch_to=switch_to)
            self._jobs[job.job_id] = job
        self._pool.submit(self._run, job)
        return job

    def get(self, job_id: str) -> IngestJob | None:
        with self._lock:
            return self._jobs.get(job_id)

    def active_for(self, owner: str) -> list[IngestJob]:
        """The queued or running jobs `owner` started (from any browser tab or session)."""
        with self._lock:
            return [j for j in self._jobs.values() if j.active and j.owner == owner]

    def cancel(self, job_id: str) -> None:
        """Ask a job to stop: a queued job never starts, a running one stops at its next progress
        report and leaves nothing behind."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is not None and job.active:
                job.cancel_requested = True
                if job.state == "queued":
                    job.state, job.stage = "cancelled", "Cancelled"

    def active_paths(self) -> set[str]:
        with self._lock:
            return {j.path for j in self._jobs.values() if j.active}

    def _run(self, job: IngestJob) -> None:
        from storage.documents.catalog import ProcessingCancelled
        from storage.jobs.runner import run_ingestion
        from ui.page_images import clear_preview_cache

        def progress(stage: str, done: int, total: int) -> None:
            # "Done" comes after the commit: too late to cancel, the PDF is processed.
            if job.cancel_requested and stage != "Done":
                raise ProcessingCancelled(job.file)  # the pipeline removes what it built
            if stage != job.stage or done < job.done:
                job.stage_started, job.stage_done0 = time.time(), done
            job.stage, job.done, job.total = stage, done, total

        if job.state == "cancelled":  # cancelled while queued
            return
        job.state, job.stage, job.stage_started = "running", "Starting", time.time()
        try:
            if job.reindex_doc_id:
                clear_preview_cache(job.reindex_doc_id)
            outcome = run_ingestion(job.path, job.reindex_doc_id, progress)
        except Exception as exc:  # noqa: BLE001 - a job thread's boundary: the page shows the message, the log the trace
            log.exception("processing %s failed", job.file)
            job.error, job.state = redact(f"{job.file}: {type(exc).__name__}: {exc}"), "error"
            return
        job.result, job.error, job.cancelled_too_late = outcome.result, outcome.error, outcome.cancelled_too_late
        if outcome.state == "cancelled":
            job.stage = "Cancelled"
        job.state = outcome.state
