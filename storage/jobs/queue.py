"""Which runner queues PDF processing jobs: Celery workers when `CELERY_BROKER_URL` is set
(storage/jobs/celery_jobs.py), else a thread of this process (storage/jobs/thread_jobs.py). Both have one
interface, `IngestJobs`, and return `JobRecord`s.

The app builds one queue per process (`ui.resources.get_ingest_jobs`) and hands it to the chat service, so an
upload and an `/ingest` command (agent/graph.py) land in the same queue; a process without the app (the CLI)
uses `default_ingest_jobs()`.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol

from storage.settings import get_settings

if TYPE_CHECKING:
    from storage.jobs.records import JobRecord


class IngestJobs(Protocol):
    def submit(self, path: str | Path, reindex_doc_id: str | None = None, owner: str = "",
               switch_to: bool = False) -> JobRecord: ...

    def get(self, job_id: str) -> JobRecord | None: ...

    def active_for(self, owner: str) -> list[JobRecord]: ...

    def active_paths(self) -> set[str]: ...

    def cancel(self, job_id: str) -> None: ...


def make_ingest_jobs(on_reindex: Callable[[str], None] | None = None) -> IngestJobs:
    """A new queue of the configured kind; `on_reindex(doc_id)` runs before a re-index."""
    if get_settings().jobs.broker_url is not None:
        from storage.jobs.celery_jobs import CeleryIngestJobs  # import here: heavy (the document pipeline, kombu), chosen by the settings

        return CeleryIngestJobs(on_reindex=on_reindex)
    from storage.jobs.thread_jobs import ThreadIngestJobs  # import here: heavy (the document pipeline), chosen by the settings

    return ThreadIngestJobs(on_reindex=on_reindex)


@functools.cache
def default_ingest_jobs() -> IngestJobs:
    """The queue of a process without the app (the CLI, the agent run on its own)."""
    return make_ingest_jobs()
