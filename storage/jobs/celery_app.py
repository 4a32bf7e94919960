"""The Celery app of PDF processing jobs: `celery -A storage.jobs.celery_app worker --concurrency 1`.

Broker and result backend: Redis (`CELERY_BROKER_URL`, `CELERY_RESULT_BACKEND`); never MongoDB (the
history database keeps only the job records, storage/jobs/records.py). Delivery is at least once:
`acks_late` + `reject_on_worker_lost` keep a job whose worker died queued, and Redis hands an
unacknowledged job to another worker once `CELERY_VISIBILITY_TIMEOUT_S` has passed (a kill -9 of the whole
worker is noticed only then; a job still running after it is delivered twice, hence the long default).
Ingestion is idempotent (same bytes, same doc id, atomic build under a per-document lock), so a
redelivered job finishes what the dead one started and a duplicate finds the PDF processed.
"""

from __future__ import annotations

import os

from celery import Celery
from celery.signals import worker_init

from storage.settings import get_settings

DEFAULT_BROKER = "redis://127.0.0.1:6379/0"


def make_app() -> Celery:
    jobs = get_settings().jobs
    broker = jobs.broker_url.get_secret_value() if jobs.broker_url else DEFAULT_BROKER
    backend = jobs.result_backend.get_secret_value() if jobs.result_backend else broker
    app = Celery("pdf_chat", broker=broker, backend=backend, include=["storage.jobs.tasks"])
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,  # a worker holds only the job it runs; the next waits for any worker
        broker_transport_options={
            "visibility_timeout": jobs.visibility_timeout_s,
            "unacked_restore_interval": jobs.restore_interval_s,
            "unacked_restore_throttle": 1,  # sweep every interval (kombu's default scans every 10th)
        },
        broker_connection_retry_on_startup=True,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        result_expires=24 * 3600,
        worker_hijack_root_logger=False,
    )
    return app


@worker_init.connect
def _yield_to_the_app(**_) -> None:
    """Before the pool forks (its children inherit it): ingestion is background work, so on cores shared with
    the replicas it runs at a lower priority and a greeting does not wait behind a page being embedded."""
    lower_priority(get_settings().jobs.worker_nice)


def lower_priority(by: int) -> int:
    """The calling process's niceness raised by `by` (never above 19); returns it."""
    return os.nice(by) if by > 0 else os.nice(0)


app = make_app()
