"""The ingestion task a Celery worker runs: the job record (storage/jobs/records.py) says what to
process and receives progress and a heartbeat; the cancel flag in it stops the build cleanly. An unreachable
service (the vector store, the history database) is an outage, not a bad file: the job waits and retries."""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager

from storage.documents.vector_store import VectorStoreUnavailable
from storage.history.store import HistoryError, HistoryUnavailableError
from storage.jobs.celery_app import app
from storage.jobs.records import JobRecords
from storage.jobs.runner import Outcome, run_ingestion
from storage.settings import get_settings

log = logging.getLogger(__name__)
_records: JobRecords | None = None
MAX_OUTAGE_WAIT_S = 300.0  # retries back off from JOBS_OUTAGE_RETRY_S, doubling up to this


def records() -> JobRecords:
    """One per worker process (its MongoDB connection pool is reused by every job)."""
    global _records
    if _records is None:
        _records = JobRecords()
    return _records


@contextmanager
def heartbeat(jobs: JobRecords, job_id: str):
    """While the block runs, a thread writes the job's heartbeat every `JOBS_HEARTBEAT_S`: a worker killed
    with -9 (or only its pool child) stops beating, and readers of the record requeue the job."""
    stop = threading.Event()
    every = get_settings().jobs.heartbeat_s

    def beat() -> None:
        while not stop.wait(every):
            try:
                jobs.beat(job_id)
            except HistoryError as exc:  # a missed beat is retried; a long outage makes the job look orphaned
                log.warning("job %s: heartbeat not recorded (%s)", job_id, type(exc).__name__)

    thread = threading.Thread(target=beat, name=f"heartbeat-{job_id[:8]}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=5)


@app.task(bind=True, name="pdf_chat.ingest_pdf", acks_late=True, reject_on_worker_lost=True,
          autoretry_for=(HistoryUnavailableError,), retry_backoff=5, max_retries=12)
def ingest_pdf(self, job_id: str) -> str:
    """Run job `job_id`; returns its final state. A redelivered job (worker killed) runs again from the
    start: the pipeline sweeps what the dead build left and builds atomically."""
    jobs = records()
    record = jobs.start(job_id)  # HistoryUnavailableError: Celery retries the message with backoff
    if record is None:
        return "skipped"
    try:
        with heartbeat(jobs, job_id):
            outcome = run_ingestion(record.source_name, record.reindex_doc_id, jobs.progress_callback(record))
    except VectorStoreUnavailable as exc:
        settings = get_settings().jobs
        if self.request.retries >= settings.outage_retries:
            outcome = Outcome(state="error", error=f"{exc}; it stayed unreachable, try again later")
        else:
            wait_s = min(settings.outage_retry_s * 2 ** self.request.retries, MAX_OUTAGE_WAIT_S)
            log.warning("job %s: %s; retrying in %.0f s", job_id, exc, wait_s)
            jobs.wait_for_service(job_id, "The vector store is unreachable", wait_s)
            raise self.retry(countdown=wait_s, max_retries=settings.outage_retries) from exc
    except HistoryUnavailableError:
        raise
    except Exception as exc:  # noqa: BLE001 - the worker's boundary: the job records it, the trace is logged
        log.exception("job %s: processing %s failed", job_id, record.file)
        outcome = Outcome(state="error", error=f"{record.file}: could not be processed ({type(exc).__name__})")
    jobs.finish(job_id, outcome)
    return outcome.state
