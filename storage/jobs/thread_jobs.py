"""PDF processing on a thread of the app process (when no `CELERY_BROKER_URL` is set), so it survives
whatever the user clicks meanwhile.

A Streamlit script run is interrupted as soon as the user interacts (a chat message, a click), which would
abort a long ingestion half way. Jobs therefore run on a process-wide worker (`ui.resources.get_ingest_jobs()`),
one at a time (the machine's cores go to the embedder), and pages only poll their state. The same file
queued twice is one job. Same interface and job model as storage/jobs/celery_jobs.py: submit, get,
active_for, cancel, active_paths, each returning `JobRecord`s.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

from storage.documents.catalog import ProcessingCancelled
from storage.documents.vector_store import VectorStoreUnavailable
from storage.jobs import runner
from storage.jobs.records import JobRecord
from storage.redaction import redact

log = logging.getLogger(__name__)


class ThreadIngestJobs:
    """The queue of processing jobs of this app process (thread-safe). `on_reindex(doc_id)` runs before a
    re-index (the app drops that PDF's rendered pages)."""

    def __init__(self, workers: int = 1, on_reindex: Callable[[str], None] | None = None) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="pdf-ingest")
        self._jobs: dict[str, JobRecord] = {}
        self._lock = threading.Lock()
        self._on_reindex = on_reindex

    def submit(self, path: str | Path, reindex_doc_id: str | None = None, owner: str = "",
               switch_to: bool = False) -> JobRecord:
        path = str(path)
        with self._lock:
            for job in self._jobs.values():
                if job.active and job.path == path:
                    return job
            job = JobRecord(job_id=uuid.uuid4().hex, path=path, reindex_doc_id=reindex_doc_id, owner=owner,
                            switch_to=switch_to, submitted_at=time.time())
            self._jobs[job.job_id] = job
        self._pool.submit(self._run, job)
        return job

    def get(self, job_id: str) -> JobRecord | None:
        with self._lock:
            return self._jobs.get(job_id)

    def active_for(self, owner: str) -> list[JobRecord]:
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

    def _run(self, job: JobRecord) -> None:
        def progress(stage: str, done: int, total: int) -> None:
            # "Done" comes after the commit: too late to cancel, the PDF is processed.
            if job.cancel_requested and stage != "Done":
                raise ProcessingCancelled(job.file)  # the pipeline removes what it built
            if stage != job.stage or done < job.done:
                job.stage_started, job.stage_done0 = time.time(), done
            job.stage, job.done, job.total, job.updated_at = stage, done, total, time.time()

        if job.state == "cancelled":  # cancelled while queued
            return
        job.state, job.stage, job.stage_started = "running", "Starting", time.time()
        try:
            if job.reindex_doc_id and self._on_reindex:
                self._on_reindex(job.reindex_doc_id)
            outcome = runner.run_ingestion(job.path, job.reindex_doc_id, progress)
        except VectorStoreUnavailable as exc:  # an outage: said as such, and the file is not remembered as refused
            job.error, job.state = redact(f"{exc}; try again once it is back"), "error"
            return
        except Exception as exc:  # noqa: BLE001 - a job thread's boundary: the page shows the message, the log the trace
            log.exception("processing %s failed", job.file)
            job.error, job.state = redact(f"{job.file}: {type(exc).__name__}: {exc}"), "error"
            return
        job.result, job.error, job.cancelled_too_late = outcome.result, outcome.error, outcome.cancelled_too_late
        if outcome.state == "cancelled":
            job.stage = "Cancelled"
        job.state = outcome.state
