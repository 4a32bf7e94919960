"""Job records in MongoDB (collection `ingest_jobs`, the history store's database): what every app replica
reads to show a job's progress, and where a cancel is asked for.

One document per job: `_id` = job id = the Celery task id, `path` (as the app that submitted it saw it),
`source_name` (the file's path inside the source folder: workers resolve it against their own),
`doc_id`, `reindex_doc_id`, `owner`, `switch_to`, `state` (queued, running, done, error, cancelled),
`stage`, `done`, `total`, `error`, `cancel_requested`, `cancelled_too_late`, `result` (the manifest,
ProcessedPdf dump, when done), `attempts` (each start counts up), `restarts` (each time its worker was found
dead), and epoch-second floats `submitted_at`, `updated_at` (the last progress), `heartbeat_at` (the worker's
last sign of life, written every `JOBS_HEARTBEAT_S` while it runs), `sent_at` (the last message sent to the
broker), `stage_started`, `stage_done0` (for the ETA). Times are numbers, not datetimes: nx-27017 stores a
`$set` datetime as a string.

The record is the truth, not the broker: a running job without a heartbeat for `JOBS_ORPHAN_AFTER_S` lost its
worker and is queued again ("The worker stopped; restarting"), or cancelled at once when a cancel was asked,
or failed after `JOBS_MAX_RESTARTS`; storage/jobs/celery_jobs.py sends queued jobs the broker does not hold.
"""

from __future__ import annotations

import logging
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Literal

from pydantic import BaseModel
from pymongo import ASCENDING, ReturnDocument

from storage.documents.catalog import ProcessedPdf, ProcessingCancelled, ProgressCallback
from storage.documents.intake import compute_doc_id
from storage.history.store import HistoryError, HistoryStore
from storage.jobs.runner import Outcome
from storage.settings import get_settings

log = logging.getLogger(__name__)
COLLECTION = "ingest_jobs"
JobState = Literal["queued", "running", "done", "error", "cancelled"]
ACTIVE = ["queued", "running"]
STALLED_S = 30.0  # no progress for this long: the page shows no ETA (a guess from a rate that stopped)
RESTARTING = "The worker stopped; restarting"


class JobRecord(BaseModel):
    """One ingestion job, whichever runner runs it (storage/jobs/thread_jobs.py in the app process, or
    storage/jobs/celery_jobs.py on workers); the pages only show it."""

    job_id: str
    path: str
    source_name: str = ""  # the file's path inside the source folder (Celery workers resolve it)
    doc_id: str | None = None
    reindex_doc_id: str | None = None
    owner: str = ""
    switch_to: bool = False
    state: JobState = "queued"
    stage: str = "Waiting for the previous PDF"
    done: int = 0
    total: int = 0
    error: str | None = None
    cancel_requested: bool = False
    cancelled_too_late: bool = False
    result: ProcessedPdf | None = None  # the manifest, when done
    attempts: int = 0
    restarts: int = 0
    submitted_at: float = 0.0
    updated_at: float = 0.0
    heartbeat_at: float = 0.0
    sent_at: float = 0.0
    stage_started: float = 0.0
    stage_done0: int = 0

    @property
    def file(self) -> str:
        return Path(self.path).name

    @property
    def active(self) -> bool:
        return self.state in ACTIVE

    @property
    def fraction(self) -> float:
        return min(max(self.done / self.total, 0.0), 1.0) if self.total else 0.0

    @property
    def eta_seconds(self) -> float | None:
        """Time left in the current stage at its rate so far (None until it can be estimated, and while no
        progress came for `STALLED_S`)."""
        progressed = self.done - self.stage_done0
        if self.state != "running" or progressed <= 0 or self.total <= self.done:
            return None
        if self.updated_at and time.time() - self.updated_at > STALLED_S:
            return None
        return (time.time() - self.stage_started) / progressed * (self.total - self.done)

    @classmethod
    def from_doc(cls, doc: dict) -> "JobRecord":
        return cls.model_validate({**doc, "job_id": doc["_id"]})


class JobRecords:
    """Create, read, progress and finish job records. Share one per process (thread-safe like its store)."""

    def __init__(self, store: HistoryStore | None = None) -> None:
        self.store = store or HistoryStore()
        self._indexed = False

    def _run(self, op: Callable[[Any], Any]) -> Any:
        def with_indexes(db):
            if not self._indexed:
                db[COLLECTION].create_index([("owner", ASCENDING), ("state", ASCENDING)])
                db[COLLECTION].create_index([("path", ASCENDING), ("state", ASCENDING)])
                self._indexed = True
            return op(db[COLLECTION])

        return self.store.run_on_database(with_indexes)

    # ----- the app's side -------------------------------------------------------------------------
    def create(self, path: str | Path, source_name: str, reindex_doc_id: str | None = None, owner: str = "",
               switch_to: bool = False) -> tuple[JobRecord, bool]:
        """(the record, True) for a new job; (the active job of that file, False) when one is queued or running."""
        path = str(path)
        active = self._run(lambda c: c.find_one({"path": path, "state": {"$in": ACTIVE}}))
        if active is not None and (active := self._settle(active))["state"] in ACTIVE:
            return JobRecord.from_doc(active), False
        try:
            doc_id = reindex_doc_id or compute_doc_id(Path(path))
        except OSError:
            doc_id = None  # the worker reports the file as unreadable
        now = time.time()
        record = JobRecord(job_id=uuid.uuid4().hex, path=path, source_name=source_name, doc_id=doc_id,
                           reindex_doc_id=reindex_doc_id, owner=owner, switch_to=switch_to,
                           submitted_at=now, updated_at=now)
        self._run(lambda c: c.insert_one(_doc(record)))
        return record, True

    def _settle(self, doc: dict) -> dict:
        """The job as it stands: a running job whose worker stopped beating is queued again (its runner sends
        it), cancelled when a cancel was asked, or failed after too many restarts. Compare-and-set on the
        heartbeat, so of several readers one moves it."""
        jobs = get_settings().jobs
        beat = doc.get("heartbeat_at") or doc.get("updated_at", 0)
        if doc.get("state") != "running" or time.time() - beat <= jobs.orphan_after_s:
            return doc
        restarts = doc.get("restarts", 0)
        if doc.get("cancel_requested"):
            fields = {"state": "cancelled", "stage": "Cancelled"}
        elif restarts >= jobs.max_restarts:
            fields = {"state": "error", "error": f"{Path(doc['path']).name}: the worker processing it stopped "
                      f"{restarts + 1} times; process it again"}
        else:
            fields = {"state": "queued", "stage": RESTARTING, "restarts": restarts + 1, "sent_at": 0.0}
        log.warning("job %s: no heartbeat for %.0f s -> %s", doc["_id"], time.time() - beat, fields["state"])
        self._run(lambda c: c.update_one({"_id": doc["_id"], "state": "running", "heartbeat_at": doc.get("heartbeat_at")},
                                         {"$set": {**fields, "updated_at": time.time()}}))
        return self._run(lambda c: c.find_one({"_id": doc["_id"]})) or doc

    def get(self, job_id: str) -> JobRecord | None:
        doc = self._run(lambda c: c.find_one({"_id": job_id}))
        return JobRecord.from_doc(self._settle(doc)) if doc else None

    def active_for(self, owner: str) -> list[JobRecord]:
        docs = [self._settle(d) for d in self._run(lambda c: list(c.find({"owner": owner, "state": {"$in": ACTIVE}})))]
        return [JobRecord.from_doc(d) for d in docs if d["state"] in ACTIVE]

    def active_paths(self) -> set[str]:
        return {r.path for r in self.active()}

    def active(self) -> list[JobRecord]:
        """Every queued or running job (of any user), settled."""
        docs = [self._settle(d) for d in self._run(lambda c: list(c.find({"state": {"$in": ACTIVE}})))]
        return [JobRecord.from_doc(d) for d in docs if d["state"] in ACTIVE]

    def mark_sent(self, job_id: str, at: float | None = None) -> None:
        """The job's message was handed to the broker (`at` later than now: it is due then, a retry's countdown)."""
        self._run(lambda c: c.update_one({"_id": job_id}, {"$set": {"sent_at": at or time.time()}}))

    def request_cancel(self, job_id: str) -> None:
        """A queued job is cancelled at once (the worker skips it); a running one stops at its next
        progress report."""
        self._run(lambda c: c.update_one({"_id": job_id, "state": {"$in": ACTIVE}},
                                         {"$set": {"cancel_requested": True}}))
        self._run(lambda c: c.update_one({"_id": job_id, "state": "queued"},
                                         {"$set": {"state": "cancelled", "stage": "Cancelled", "updated_at": time.time()}}))
        if doc := self._run(lambda c: c.find_one({"_id": job_id})):
            self._settle(doc)  # a running job whose worker is gone is cancelled now, not at a report that never comes

    # ----- the worker's side ----------------------------------------------------------------------
    def start(self, job_id: str) -> JobRecord | None:
        """Mark a queued job running, or take over a running one whose worker stopped beating (a message the
        broker redelivered); None when there is nothing to run: ended, cancelled, unknown, or running on a
        live worker (a duplicate message: the record sends a job again when it is unsure the broker has it)."""
        now = time.time()
        stale = now - get_settings().jobs.orphan_after_s
        doc = self._run(lambda c: c.find_one_and_update(
            {"_id": job_id, "cancel_requested": {"$ne": True},
             "$or": [{"state": "queued"}, {"state": "running", "heartbeat_at": {"$lt": stale}}]},
            {"$set": {"state": "running", "stage": "Starting", "updated_at": now, "heartbeat_at": now,
                      "stage_started": now, "stage_done0": 0}, "$inc": {"attempts": 1}},
            return_document=ReturnDocument.AFTER))
        if doc is None:  # a cancel that arrived before the start ends the job here
            self._run(lambda c: c.update_one({"_id": job_id, "state": "queued", "cancel_requested": True},
                                             {"$set": {"state": "cancelled", "stage": "Cancelled"}}))
            return None
        return JobRecord.from_doc(doc)

    def beat(self, job_id: str) -> None:
        """The worker running the job is alive."""
        self._run(lambda c: c.update_one({"_id": job_id, "state": "running"}, {"$set": {"heartbeat_at": time.time()}}))

    def wait_for_service(self, job_id: str, reason: str, retry_in_s: float) -> None:
        """A service the job needs is unreachable: the job waits queued, saying why, for its retry (whose
        message is due in `retry_in_s`, so it is not sent again meanwhile)."""
        now = time.time()
        self._run(lambda c: c.update_one({"_id": job_id, "state": "running"}, {"$set": {
            "state": "queued", "stage": f"{reason}; retrying in {retry_in_s:.0f} s", "updated_at": now,
            "sent_at": now + retry_in_s, "done": 0, "total": 0}}))

    def progress_callback(self, record: JobRecord) -> ProgressCallback:
        """The pipeline's progress callback: writes stage/done/total at most every `JOBS_PROGRESS_EVERY_S`
        (and at each new stage), reading the cancel flag in the same round trip. A cancel raises
        ProcessingCancelled, except at "Done" (the build is committed by then)."""
        every = get_settings().jobs.progress_every_s
        seen = {"at": 0.0, "stage": None, "done": 0, "cancel": False}

        def progress(stage: str, done: int, total: int) -> None:
            now = time.time()
            new_stage = stage != seen["stage"] or done < seen["done"]
            if new_stage or now - seen["at"] >= every or stage == "Done":
                fields = {"stage": stage, "done": done, "total": total, "updated_at": now}
                if new_stage:
                    fields.update(stage_started=now, stage_done0=done)
                try:
                    doc = self._run(lambda c: c.find_one_and_update(
                        {"_id": record.job_id}, {"$set": fields}, projection={"cancel_requested": 1},
                        return_document=ReturnDocument.AFTER))
                    seen["cancel"] = bool(doc and doc.get("cancel_requested"))
                except HistoryError as exc:  # progress is for people; the ingestion goes on without it
                    log.warning("job %s: progress not recorded (%s)", record.job_id, type(exc).__name__)
                seen.update(at=now, stage=stage, done=done)
            if seen["cancel"] and stage != "Done":
                raise ProcessingCancelled(record.file)

        return progress

    def finish(self, job_id: str, outcome: Outcome) -> None:
        fields: dict[str, Any] = {"state": outcome.state, "error": outcome.error, "updated_at": time.time(),
                                  "cancelled_too_late": outcome.cancelled_too_late}
        if outcome.result is not None:
            fields.update(result=outcome.result.model_dump(mode="json"), doc_id=outcome.result.doc_id)
        if outcome.state == "cancelled":
            fields["stage"] = "Cancelled"
        self._run(lambda c: c.update_one({"_id": job_id}, {"$set": fields}))


def _doc(record: JobRecord) -> dict:
    doc = record.model_dump(mode="json", exclude={"job_id"})
    doc["_id"] = record.job_id
    return doc
