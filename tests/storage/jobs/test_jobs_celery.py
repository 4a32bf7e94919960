"""PDF processing as Celery jobs on real servers: redis-server (broker + results), `chroma run`, nx-27017
and `celery worker` subprocesses. Progress and cancel go through the job record in MongoDB."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from storage.documents.catalog import get_pdf_output_dirs, load_chunks, load_manifest
from storage.documents.vector_store import get_chroma_client
from storage.jobs.records import JobRecords
from storage.history.store import HistoryStore
from bench.servers import CeleryWorker
from tests.fixtures_pdfs import make_text_pdf

VISIBILITY_S = 20  # short, so a job of a killed worker comes back within the test


@pytest.fixture
def cluster_env(pdf_home, redis_server, chroma_server, nx_server, monkeypatch):
    """This process and its workers share the broker, Chroma server, MongoDB and PDF folders."""
    env = {
        "PDF_CHAT_HOME": str(pdf_home),
        "CELERY_BROKER_URL": redis_server.url,
        "CELERY_VISIBILITY_TIMEOUT_S": str(VISIBILITY_S),
        "CELERY_RESTORE_INTERVAL_S": "1",
        "JOBS_PROGRESS_EVERY_S": "0",
        "CHROMA_HOST": "127.0.0.1",
        "CHROMA_PORT": str(chroma_server.port),
        "MONGODB_URI": nx_server.uri,
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    # Flush leftovers of an earlier test from the broker (a redelivered job of another PDF folder).
    import redis

    redis.Redis.from_url(redis_server.url).flushdb()
    return {**os.environ, **env}


@pytest.fixture
def worker(cluster_env, tmp_path):
    started: list[CeleryWorker] = []

    def start() -> CeleryWorker:
        w = CeleryWorker(cluster_env, tmp_path / f"worker-{len(started)}.log").start()
        started.append(w)
        return w

    yield start
    for w in started:
        w.stop()


@pytest.fixture
def jobs(cluster_env, nx_server):
    from storage.jobs.celery_jobs import CeleryIngestJobs

    store = HistoryStore(nx_server.uri)  # the database the workers use (MONGODB_URI, default name)
    queue = CeleryIngestJobs(JobRecords(store))
    yield queue
    store.close()


def _long_pdf(home: Path, name: str, pages: int = 120) -> Path:
    """Enough text that embedding takes a few seconds: time to cancel or kill in the middle."""
    body = " ".join(f"Line {i}: revenue of segment {i % 7} grew by {i % 13} percent in the quarter." for i in range(60))
    return make_text_pdf(home / "source" / name, [f"Page {p}. {name} {body}" for p in range(pages)])


def _wait_for(jobs, job_id: str, predicate, timeout_s: float = 150.0):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        job = jobs.get(job_id)
        if predicate(job):
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} never got there: {jobs.get(job_id)}")


def _assert_whole(doc_id: str) -> None:
    """The manifest's build is complete in every store, and nothing else of the PDF remains."""
    manifest = load_manifest(doc_id)
    dirs = get_pdf_output_dirs(doc_id)
    chunks = load_chunks(doc_id)
    assert len(chunks) == manifest.chunk_count > 0
    collection = get_chroma_client().get_collection(manifest.collection)
    assert collection.count() == manifest.chunk_count
    assert dirs.bm25_path.exists()
    builds = [p.name for p in dirs.root.iterdir() if p.name.startswith("build-")]
    assert builds == [f"build-{manifest.build}"]
    others = [c.name for c in get_chroma_client().list_collections()
              if c.name.startswith(doc_id) and c.name != manifest.collection]
    assert others == []


def test_a_submitted_pdf_is_processed_by_the_worker_and_its_record_says_done(jobs, worker, pdf_home):
    worker()
    path = make_text_pdf(pdf_home / "source" / "q3.pdf", ["Quarterly report. Revenue was 12 million.", "Outlook."])
    job = jobs.submit(path, owner="alice")
    assert jobs.submit(path, owner="alice").job_id == job.job_id  # the same file queued twice is one job
    assert path.as_posix() in jobs.active_paths()
    done = _wait_for(jobs, job.job_id, lambda j: not j.active)
    assert (done.state, done.error) == ("done", None)
    assert done.result.page_count == 2
    assert jobs.active_for("alice") == []
    record = jobs.records.get(job.job_id)
    assert record.doc_id == done.result.doc_id and record.attempts == 1 and record.stage == "Done"
    _assert_whole(done.result.doc_id)


def test_cancel_stops_a_running_job_and_leaves_nothing_half_written(jobs, worker, pdf_home):
    worker()
    path = _long_pdf(pdf_home, "long-cancel.pdf")
    job = jobs.submit(path, owner="bob")
    _wait_for(jobs, job.job_id, lambda j: j.stage == "Embedding" and j.done > 0)
    jobs.cancel(job.job_id)
    ended = _wait_for(jobs, job.job_id, lambda j: not j.active)
    assert ended.state == "cancelled" and ended.result is None
    record = jobs.records.get(job.job_id)
    root = get_pdf_output_dirs(record.doc_id).root
    assert not (root / "manifest.json").exists()
    assert not root.exists() or not any(p.name.startswith("build-") for p in root.iterdir())
    assert [c.name for c in get_chroma_client().list_collections() if c.name.startswith(record.doc_id)] == []
    assert path.exists()  # the file stays in the source folder


def test_a_job_of_a_worker_killed_mid_ingestion_is_redelivered_and_completes(jobs, worker, pdf_home):
    first = worker()
    path = _long_pdf(pdf_home, "long-kill.pdf")
    job = jobs.submit(path, owner="carol")
    _wait_for(jobs, job.job_id, lambda j: j.stage == "Embedding" and j.done > 0)
    first.kill()  # kill -9: no ack, no reject; Redis keeps the message as unacknowledged
    killed_at = time.monotonic()
    assert jobs.get(job.job_id).state == "running"  # the record still says so: nobody finished it
    worker()
    done = _wait_for(jobs, job.job_id, lambda j: not j.active, timeout_s=VISIBILITY_S + 150)
    assert time.monotonic() - killed_at >= VISIBILITY_S - 1  # redelivered only after the visibility timeout
    assert (done.state, done.error) == ("done", None)
    assert jobs.records.get(job.job_id).attempts == 2
    _assert_whole(done.result.doc_id)


def test_the_documents_page_runs_jobs_on_the_worker_and_another_session_sees_the_progress(
        chat_service, ui_env, cluster_env, worker, pdf_home):
    """With CELERY_BROKER_URL set, the page queues the job for the worker; a second session (another replica
    or a reload) of the same user finds it through the record, and both see the PDF processed."""
    from tests.fixtures_ui import doc_picker, new_app, wait_for_ingest
    from storage.jobs.celery_jobs import CeleryIngestJobs
    from ui.resources import get_ingest_jobs

    _long_pdf(pdf_home, "annual.pdf", pages=60)
    at = new_app().run()
    at.switch_page("app_pages/documents.py").run()
    assert isinstance(get_ingest_jobs(), CeleryIngestJobs)
    at.button(key="process-annual.pdf").click().run()
    [job_id] = at.session_state["ingest_jobs"]
    other = new_app().run()  # another session of the same user, while the job waits for a worker
    assert not other.exception
    assert get_ingest_jobs().get(job_id).state == "queued"
    assert job_id in other.session_state["ingest_jobs"]
    assert [s.label for s in other.status] == ["Processing annual.pdf…"]
    worker()
    wait_for_ingest(at, timeout=150)
    record = get_ingest_jobs().get(job_id)
    assert record.state == "done"
    assert doc_picker(at).value == [record.result.doc_id]
    assert any("annual\\.pdf is ready: 60 pages" in s.value for s in at.success)


def test_a_job_cancelled_while_queued_never_runs(jobs, worker, pdf_home, tmp_path):
    path = make_text_pdf(pdf_home / "source" / "queued.pdf", ["Queued and cancelled before any worker ran."])
    job = jobs.submit(path, owner="dan")  # no worker yet: it waits in Redis
    jobs.cancel(job.job_id)
    assert jobs.get(job.job_id).state == "cancelled"
    assert jobs.active_paths() == set()
    w = worker()  # a worker that never heard the revoke: the record stops the job
    deadline = time.monotonic() + 60
    while "succeeded" not in w.log.read_text() or "'skipped'" not in w.log.read_text():
        assert time.monotonic() < deadline, w.log.read_text()[-2000:]
        time.sleep(0.2)
    assert not get_pdf_output_dirs(jobs.records.get(job.job_id).doc_id).root.exists()


def test_a_job_lost_with_its_message_does_not_block_the_file_for_ever(nx_server, pdf_home, monkeypatch):
    """No worker reported for longer than the visibility timeout (the broker's data was wiped): the record
    is marked failed and the file can be queued again."""
    monkeypatch.setenv("CELERY_VISIBILITY_TIMEOUT_S", "5")
    records = JobRecords(HistoryStore(nx_server.uri, db_name=f"lost_{time.time_ns()}"))
    path = make_text_pdf(pdf_home / "source" / "lost.pdf", ["A job whose worker and message were lost."])
    first, new = records.create(path, "lost.pdf", owner="eve")
    assert new
    again, new = records.create(path, "lost.pdf", owner="eve")
    assert (again.job_id, new) == (first.job_id, False)  # recent: still the active job
    records.store.run_on_database(lambda db: db.ingest_jobs.update_one(
        {"_id": first.job_id}, {"$set": {"state": "running", "updated_at": time.time() - 120}}))
    assert records.active_paths() == set() and records.active_for("eve") == []  # no endless "Processing…"
    assert records.get(first.job_id).state == "error"
    replacement, new = records.create(path, "lost.pdf", owner="eve")
    assert new and replacement.job_id != first.job_id
    lost = records.get(first.job_id)
    assert lost.state == "error" and "lost" in lost.error
    assert [r.job_id for r in records.active_for("eve")] == [replacement.job_id]
