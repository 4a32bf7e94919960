"""PDF processing jobs on Celery workers (when `CELERY_BROKER_URL` is set), behind the same interface and
job model as the in-process queue (storage/jobs/thread_jobs.py): submit, get, active_for, cancel,
active_paths, each returning `JobRecord`s.

The job record in MongoDB (storage/jobs/records.py) is the truth every replica reads, so a page served
by another replica, or after a reload, shows the same progress and can cancel the job.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable

from kombu.exceptions import KombuError

from storage.jobs.records import JobRecord, JobRecords
from storage.jobs.runner import Outcome
from storage.redaction import redact
from storage.settings import get_settings

log = logging.getLogger(__name__)


def _source_name(path: str | Path) -> str:
    """The file's path inside the source folder (workers resolve it against their own mount)."""
    try:
        return Path(path).resolve().relative_to(get_settings().source_dir).as_posix()
    except ValueError:
        return str(path)  # outside the source folder: the worker refuses it with a clear message


class CeleryIngestJobs:
    """`on_reindex(doc_id)` runs before a re-index is queued (the app drops that PDF's rendered pages)."""

    def __init__(self, records: JobRecords | None = None, on_reindex: Callable[[str], None] | None = None) -> None:
        self.records = records or JobRecords()
        self._on_reindex = on_reindex

    def submit(self, path: str | Path, reindex_doc_id: str | None = None, owner: str = "",
               switch_to: bool = False) -> JobRecord:
        from storage.jobs.tasks import ingest_pdf  # the Celery app: configured from the settings on first use

        record, new = self.records.create(path, _source_name(path), reindex_doc_id, owner, switch_to)
        if not new:
            return record
        if reindex_doc_id and self._on_reindex:
            self._on_reindex(reindex_doc_id)
        try:
            ingest_pdf.apply_async((record.job_id,), task_id=record.job_id)
        except Exception as exc:  # noqa: BLE001 - broker or result store down (Celery raises RuntimeError, kombu or
            # redis errors): the record says so instead of waiting forever
            log.exception("could not queue job %s", record.job_id)
            self.records.finish(record.job_id, Outcome(state="error", error=redact(
                f"{record.file}: the processing queue is unreachable ({type(exc).__name__}); try again later")))
        return self.get(record.job_id) or record

    def get(self, job_id: str) -> JobRecord | None:
        return self.records.get(job_id)

    def active_for(self, owner: str) -> list[JobRecord]:
        return self.records.active_for(owner)

    def active_paths(self) -> set[str]:
        return self.records.active_paths()

    def cancel(self, job_id: str) -> None:
        """The flag stops a running job at its next progress report; revoke drops a queued one."""
        from storage.jobs.celery_app import app

        self.records.request_cancel(job_id)
        try:
            app.control.revoke(job_id)
        except (KombuError, OSError) as exc:  # the flag alone is enough; revoke only saves a worker the start-up
            log.warning("revoke of job %s failed (%s)", job_id, type(exc).__name__)
