"""PDF processing jobs on Celery workers (when `CELERY_BROKER_URL` is set), behind the same interface and
job model as the in-process queue (storage/jobs/thread_jobs.py): submit, get, active_for, cancel,
active_paths, each returning `JobRecord`s.

The job record in MongoDB (storage/jobs/records.py) is the truth every replica reads, so a page served
by another replica, or after a reload, shows the same progress and can cancel the job. It is also the truth
about what must run: a job queued in its record whose message no broker queue holds (a Redis restart without
persistence, or a job requeued because its worker died) is sent again. A duplicate message is harmless: the
worker's `JobRecords.start` runs a job only once.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path
from typing import Callable

from kombu.exceptions import KombuError

from storage.jobs.records import JobRecord, JobRecords
from storage.jobs.runner import Outcome
from storage.redaction import redact
from storage.settings import get_settings

log = logging.getLogger(__name__)
RESEND_CHECK_EVERY_S = 5.0  # readers poll every second or so; the broker is looked at no more often than this


def broker_job_ids(broker_url: str, queue: str) -> set[str]:
    """Ids of the jobs waiting in the broker's queue. Reads kombu's Redis layout: a queue is a Redis list
    named after it (priority levels add suffixed lists), each item a JSON message whose headers carry the id."""
    import redis

    client = redis.Redis.from_url(broker_url)
    try:
        ids = set()
        for key in client.scan_iter(match=f"{queue}*", count=100):
            if client.type(key) != b"list":
                continue
            for raw in client.lrange(key, 0, -1):
                try:
                    ids.add(json.loads(raw)["headers"]["id"])
                except (ValueError, KeyError, TypeError):
                    continue
        return ids
    finally:
        client.close()


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
        self._checked_at = 0.0
        self._check_lock = threading.Lock()

    def submit(self, path: str | Path, reindex_doc_id: str | None = None, owner: str = "",
               switch_to: bool = False) -> JobRecord:
        record, new = self.records.create(path, _source_name(path), reindex_doc_id, owner, switch_to)
        if not new:
            return record
        if reindex_doc_id and self._on_reindex:
            self._on_reindex(reindex_doc_id)
        try:
            self._send(record)
        except Exception as exc:  # noqa: BLE001 - broker or result store down (Celery raises RuntimeError, kombu or
            # redis errors): the record says so instead of waiting forever
            log.exception("could not queue job %s", record.job_id)
            self.records.finish(record.job_id, Outcome(state="error", error=redact(
                f"{record.file}: the processing queue is unreachable ({type(exc).__name__}); try again later")))
        return self.get(record.job_id) or record

    def _send(self, record: JobRecord) -> None:
        from storage.jobs.tasks import ingest_pdf  # import here: the Celery app is configured from the settings on first use

        ingest_pdf.apply_async((record.job_id,), task_id=record.job_id)
        self.records.mark_sent(record.job_id)

    def send_missing(self) -> list[str]:
        """Send again the queued jobs whose message the broker does not hold (at most every
        RESEND_CHECK_EVERY_S per process); returns their ids."""
        with self._check_lock:
            if time.monotonic() - self._checked_at < RESEND_CHECK_EVERY_S:
                return []
            self._checked_at = time.monotonic()
        due = time.time() - get_settings().jobs.resend_after_s
        waiting = [r for r in self.records.active() if r.state == "queued" and r.sent_at < due]
        if not waiting:
            return []
        from storage.jobs.celery_app import app  # import here: the Celery app is configured from the settings on first use

        try:
            held = broker_job_ids(app.conf.broker_url, app.conf.task_default_queue)
            for record in waiting:
                if record.job_id not in held:
                    log.warning("job %s: queued but not in the broker; sending it again", record.job_id)
                    self._send(record)
        except Exception as exc:  # noqa: BLE001 - broker down (redis, kombu errors): looked at again on the next read
            log.warning("could not look at the broker's queue (%s)", type(exc).__name__)
            return []
        return [r.job_id for r in waiting if r.job_id not in held]

    def get(self, job_id: str) -> JobRecord | None:
        self.send_missing()
        return self.records.get(job_id)

    def active_for(self, owner: str) -> list[JobRecord]:
        self.send_missing()
        return self.records.active_for(owner)

    def active_paths(self) -> set[str]:
        return self.records.active_paths()

    def cancel(self, job_id: str) -> None:
        """The flag stops a running job at its next progress report; revoke drops a queued one."""
        from storage.jobs.celery_app import app  # import here: the Celery app is configured from the settings on first use

        self.records.request_cancel(job_id)
        try:
            app.control.revoke(job_id)
        except (KombuError, OSError) as exc:  # the flag alone is enough; revoke only saves a worker the start-up
            log.warning("revoke of job %s failed (%s)", job_id, type(exc).__name__)
