"""The ingestion task a Celery worker runs: the job record (storage/jobs/records.py) says what to
process and receives progress; the cancel flag in it stops the build cleanly."""

from __future__ import annotations

import logging

from storage.history.store import HistoryUnavailableError
from storage.jobs.celery_app import app
from storage.jobs.records import JobRecords
from storage.jobs.runner import Outcome, run_ingestion

log = logging.getLogger(__name__)
_records: JobRecords | None = None


def records() -> JobRecords:
    """One per worker process (its MongoDB connection pool is reused by every job)."""
    global _records
    if _records is None:
        _records = JobRecords()
    return _records


@app.task(name="pdf_chat.ingest_pdf", acks_late=True, reject_on_worker_lost=True,
          autoretry_for=(HistoryUnavailableError,), retry_backoff=5, max_retries=12)
def ingest_pdf(job_id: str) -> str:
    """Run job `job_id`; returns its final state. A redelivered job (worker killed) runs again from the
    start: the pipeline sweeps what the dead build left and builds atomically."""
    jobs = records()
    record = jobs.start(job_id)
    if record is None:
        return "skipped"
    try:
        outcome = run_ingestion(record.source_name, record.reindex_doc_id, jobs.progress_callback(record))
    except HistoryUnavailableError:
        raise
    except Exception as exc:  # noqa: BLE001 - the worker's boundary: the job records it, the trace is logged
        log.exception("job %s: processing %s failed", job_id, record.file)
        outcome = Outcome(state="error", error=f"{record.file}: could not be processed ({type(exc).__name__})")
    jobs.finish(job_id, outcome)
    return outcome.state
