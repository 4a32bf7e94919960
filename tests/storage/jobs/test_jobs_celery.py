"""PDF processing as Celery jobs on real servers: redis-server (broker + results), `chroma run`, nx-27017
and `celery worker` subprocesses. Progress and cancel go through the job record in MongoDB."""

from __future__ import annotations

import os
import shutil
import signal
import time
from pathlib import Path

import psutil
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
    done = _wait_for(jobs, job.job_id, lambda j: not j.active, timeout_s=VISIBILITY_S + 300)  # two embeddings, on a loaded machine
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
    assert str(path) not in jobs.active_paths()  # (another test's job may still run in the shared database)
    w = worker()  # a worker that never heard the revoke: the record stops the job
    deadline = time.monotonic() + 60
    while "succeeded" not in w.log.read_text() or "'skipped'" not in w.log.read_text():
        assert time.monotonic() < deadline, w.log.read_text()[-2000:]
        time.sleep(0.2)
    assert not get_pdf_output_dirs(jobs.records.get(job.job_id).doc_id).root.exists()


def test_a_running_job_whose_worker_stopped_beating_is_requeued_then_failed_after_max_restarts(
        nx_server, pdf_home, monkeypatch):
    """No heartbeat for JOBS_ORPHAN_AFTER_S (the worker was killed, or the broker's data was wiped): the record
    queues the job again, so the file is never blocked for ever, and fails it after JOBS_MAX_RESTARTS."""
    monkeypatch.setenv("JOBS_ORPHAN_AFTER_S", "5")
    monkeypatch.setenv("JOBS_MAX_RESTARTS", "1")
    records = JobRecords(HistoryStore(nx_server.uri, db_name=f"lost_{time.time_ns()}"))
    path = make_text_pdf(pdf_home / "source" / "lost.pdf", ["A job whose worker and message were lost."])
    first, new = records.create(path, "lost.pdf", owner="eve")
    assert new
    again, new = records.create(path, "lost.pdf", owner="eve")
    assert (again.job_id, new) == (first.job_id, False)  # still the active job

    def silence():
        records.store.run_on_database(lambda db: db.ingest_jobs.update_one(
            {"_id": first.job_id}, {"$set": {"state": "running", "heartbeat_at": time.time() - 60}}))

    silence()
    requeued = records.get(first.job_id)
    assert (requeued.state, requeued.stage, requeued.restarts) == ("queued", "The worker stopped; restarting", 1)
    assert [r.job_id for r in records.active_for("eve")] == [first.job_id]
    assert records.start(first.job_id).state == "running"  # a worker takes it again
    assert records.start(first.job_id) is None  # a duplicate message while it runs on a live worker is skipped
    silence()
    failed = records.get(first.job_id)
    assert failed.state == "error" and "stopped 2 times" in failed.error
    assert records.active_paths() == set()
    replacement, new = records.create(path, "lost.pdf", owner="eve")
    assert new and replacement.job_id != first.job_id


def test_a_worker_killed_under_the_default_visibility_timeout_is_restarted_from_its_record(
        jobs, worker, pdf_home, cluster_env, monkeypatch):
    """kill -9 with the 6-hour default: Redis would hand the job back only after 6 hours; the missing
    heartbeat requeues it within JOBS_ORPHAN_AFTER_S and the next worker completes it."""
    fast = {"CELERY_VISIBILITY_TIMEOUT_S": "21600", "JOBS_HEARTBEAT_S": "1", "JOBS_ORPHAN_AFTER_S": "6"}
    for name, value in fast.items():
        monkeypatch.setenv(name, value)
    cluster_env.update(fast)
    first = worker()
    path = _long_pdf(pdf_home, "long-orphan.pdf", pages=60)
    job = jobs.submit(path, owner="frank")
    _wait_for(jobs, job.job_id, lambda j: j.stage == "Embedding" and j.done > 0)
    first.kill()
    worker()
    restarted = _wait_for(jobs, job.job_id, lambda j: j.restarts == 1, timeout_s=120)  # the bound: 2 minutes
    assert restarted.state in ("queued", "running") and restarted.error is None
    done = _wait_for(jobs, job.job_id, lambda j: not j.active, timeout_s=300)
    assert (done.state, done.error) == ("done", None)
    record = jobs.records.get(job.job_id)
    assert record.restarts == 1 and record.attempts == 2
    _assert_whole(done.result.doc_id)


def test_a_cancel_of_a_job_whose_worker_died_takes_effect_at_once(jobs, worker, pdf_home, cluster_env, monkeypatch):
    fast = {"CELERY_VISIBILITY_TIMEOUT_S": "21600", "JOBS_HEARTBEAT_S": "1", "JOBS_ORPHAN_AFTER_S": "4"}
    for name, value in fast.items():
        monkeypatch.setenv(name, value)
    cluster_env.update(fast)
    w = worker()
    job = jobs.submit(_long_pdf(pdf_home, "long-orphan-cancel.pdf", pages=60), owner="gina")
    _wait_for(jobs, job.job_id, lambda j: j.stage == "Embedding" and j.done > 0)
    w.kill()
    time.sleep(5)  # its heartbeat is now older than JOBS_ORPHAN_AFTER_S; no worker is left
    jobs.cancel(job.job_id)
    assert jobs.get(job.job_id).state == "cancelled"  # not "Cancelling…" until a report that never comes
    assert jobs.active_for("gina") == []


def test_a_job_queued_when_redis_restarts_without_persistence_still_runs(
        jobs, worker, pdf_home, redis_server, monkeypatch):
    """The record, not the broker, says what must run: a queued job whose message was lost with a Redis
    restart is sent again."""
    monkeypatch.setenv("JOBS_RESEND_AFTER_S", "1")
    path = make_text_pdf(pdf_home / "source" / "queued-restart.pdf", ["Queued while Redis restarted."])
    job = jobs.submit(path, owner="hank")  # no worker yet: the message waits in Redis
    redis_server.stop()
    redis_server.start()  # same port, no persistence: the queue is empty now
    import redis

    assert redis.Redis.from_url(redis_server.url).dbsize() == 0
    worker()
    done = _wait_for(jobs, job.job_id, lambda j: not j.active, timeout_s=120)
    assert (done.state, done.error) == ("done", None)


def test_chroma_down_during_ingestion_is_retried_and_the_file_is_never_refused(
        jobs, worker, pdf_home, cluster_env, monkeypatch, tmp_path):
    from bench.servers import ChromaServer
    from storage.documents.maintenance import rejection_reason

    chroma = ChromaServer(tmp_path / "chroma-outage").start()
    settings = {"CHROMA_PORT": str(chroma.port), "JOBS_OUTAGE_RETRY_S": "2"}
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    cluster_env.update(settings)
    try:
        worker()
        chroma.stop()
        path = make_text_pdf(pdf_home / "source" / "outage.pdf", ["Processed while the vector store was down."])
        job = jobs.submit(path, owner="ivy")
        waiting = _wait_for(jobs, job.job_id, lambda j: "vector store is unreachable; retrying in" in j.stage)
        assert waiting.state == "queued" and waiting.error is None
        assert rejection_reason(jobs.records.get(job.job_id).doc_id) is None
        chroma.start()  # same port and data
        done = _wait_for(jobs, job.job_id, lambda j: not j.active, timeout_s=150)
        assert (done.state, done.error) == ("done", None)
        assert rejection_reason(done.result.doc_id) is None
        _assert_whole(done.result.doc_id)
    finally:
        chroma.stop()


def test_a_running_record_written_before_heartbeats_is_requeued_too(nx_server, pdf_home, monkeypatch):
    """A record of the code before heartbeats has no `heartbeat_at`: its last progress says how long it is silent."""
    monkeypatch.setenv("JOBS_ORPHAN_AFTER_S", "5")
    records = JobRecords(HistoryStore(nx_server.uri, db_name=f"old_{time.time_ns()}"))
    path = make_text_pdf(pdf_home / "source" / "old.pdf", ["A job recorded before heartbeats."])
    job, _ = records.create(path, "old.pdf", owner="olga")
    records.store.run_on_database(lambda db: db.ingest_jobs.update_one(
        {"_id": job.job_id}, {"$set": {"state": "running", "updated_at": time.time() - 120},
                              "$unset": {"heartbeat_at": ""}}))
    requeued = records.get(job.job_id)
    assert (requeued.state, requeued.stage, requeued.restarts) == ("queued", "The worker stopped; restarting", 1)


def _pool_child(w: CeleryWorker):
    """The prefork pool's process running the jobs (the worker's main process supervises it)."""
    deadline = time.monotonic() + 30
    while not (children := psutil.Process(w.proc.pid).children()):
        assert time.monotonic() < deadline, "the worker has no pool process"
        time.sleep(0.2)
    [child] = children  # --concurrency 1
    return child


def test_a_killed_pool_child_stops_the_eta_restarts_the_job_and_its_build_folder_is_swept(
        jobs, worker, pdf_home, cluster_env, monkeypatch):
    """kill -9 of the pool process only (the worker's main process lives on and starts another): the ETA goes
    as soon as progress stops, the job is restarted from its record and completes, and the `.tmp-<doc>` folder
    the dead build was writing is gone."""
    from storage.jobs import records as records_module
    from storage.settings import get_settings

    fast = {"CELERY_VISIBILITY_TIMEOUT_S": "21600", "JOBS_HEARTBEAT_S": "1", "JOBS_ORPHAN_AFTER_S": "6"}
    for name, value in fast.items():
        monkeypatch.setenv(name, value)
    cluster_env.update(fast)
    monkeypatch.setattr(records_module, "STALLED_S", 3.0)  # read by whoever shows the record: here, this process
    w = worker()
    path = _long_pdf(pdf_home, "long-child.pdf", pages=60)
    job = jobs.submit(path, owner="kim")
    moving = _wait_for(jobs, job.job_id, lambda j: j.stage == "Embedding" and j.done > 0 and j.eta_seconds is not None)
    assert moving.eta_seconds > 0  # progress moves: an ETA
    doc_id = jobs.records.get(job.job_id).doc_id
    destination = get_settings().destination_dir
    assert list(destination.glob(f".tmp-{doc_id}-*"))  # the build being written

    child = _pool_child(w)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    assert w.proc.poll() is None  # the worker's main process is alive
    stalled = _wait_for(jobs, job.job_id, lambda j: j.restarts == 1 or j.eta_seconds is None, timeout_s=30)
    assert stalled.eta_seconds is None  # no guess from a rate that stopped
    assert list(destination.glob(f".tmp-{doc_id}-*"))  # left by the dead build until the job runs again

    restarted = _wait_for(jobs, job.job_id, lambda j: j.restarts == 1, timeout_s=120)  # the bound: 2 minutes
    assert restarted.error is None
    done = _wait_for(jobs, job.job_id, lambda j: not j.active, timeout_s=300)
    assert (done.state, done.error) == ("done", None)
    assert _pool_child(w).pid != child.pid  # the same worker ran it again, in a new pool process
    assert list(destination.glob(f".tmp-{doc_id}-*")) == []
    _assert_whole(done.result.doc_id)


def test_a_job_queued_when_redis_restarts_with_append_only_persistence_runs_from_the_broker(
        jobs, worker, pdf_home, redis_server, cluster_env, monkeypatch):
    """Redis as scripts/start_cluster.sh and compose run it (append-only file): a queued job's message
    survives the restart, so the job runs without the record's resend (held off here)."""
    import redis

    monkeypatch.setenv("JOBS_RESEND_AFTER_S", "3600")
    cluster_env["JOBS_RESEND_AFTER_S"] = "3600"
    redis_server.stop()
    redis_server.persistent = True
    redis_server.start()  # same port and folder, append-only from now on
    try:
        path = make_text_pdf(pdf_home / "source" / "queued-aof.pdf", ["Queued while Redis restarted with its AOF."])
        job = jobs.submit(path, owner="lena")  # no worker yet: the message waits in Redis
        held = redis.Redis.from_url(redis_server.url).dbsize()
        assert held > 0
        redis_server.stop()  # SIGTERM: Redis writes its append-only file out before it exits
        redis_server.start()
        assert redis.Redis.from_url(redis_server.url).dbsize() == held  # the queue came back from the file
        worker()
        done = _wait_for(jobs, job.job_id, lambda j: not j.active, timeout_s=120)
        assert (done.state, done.error) == ("done", None)
        assert jobs.records.get(job.job_id).sent_at > 0 and jobs.records.get(job.job_id).attempts == 1
    finally:
        redis_server.stop()
        redis_server.persistent = False
        for aof in redis_server.data_dir.glob("appendonly*"):  # the next tests' Redis starts empty
            shutil.rmtree(aof) if aof.is_dir() else aof.unlink()
        redis_server.start()


def test_a_worker_runs_its_jobs_at_a_lower_cpu_priority_than_the_app(worker, cluster_env):
    """Ingestion yields the shared cores to the replicas' answers (JOBS_WORKER_NICE, default 10)."""
    import psutil

    base = psutil.Process().nice()
    w = worker()
    procs = [psutil.Process(w.proc.pid), *psutil.Process(w.proc.pid).children(recursive=True)]
    pool = [p for p in procs if "celery" in " ".join(p.cmdline())]
    assert pool and all(p.nice() == min(19, base + 10) for p in pool)
