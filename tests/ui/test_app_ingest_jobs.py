"""PDF processing as a background job: cancelling it mid-build leaves nothing half-written, the
ETA comes from the stage's rate, and a reloaded page (a new session of the same user) finds the
running job and its progress again."""

from __future__ import annotations

import time

import storage.documents.chunking
from storage.documents import vector_store
from storage.documents.catalog import list_processed_pdfs
from tests.fixtures_ui import SAMPLE_PDF, new_app
from storage.jobs.records import JobRecord
from storage.jobs.thread_jobs import ThreadIngestJobs


def _wait(job, timeout=90):
    deadline = time.monotonic() + timeout
    while job.active:
        assert time.monotonic() < deadline, "job did not end"
        time.sleep(0.05)


def test_cancel_mid_build_leaves_nothing_behind(pdf_home, monkeypatch):
    path = pdf_home / "source" / "report.pdf"
    path.write_bytes(SAMPLE_PDF.read_bytes())
    jobs = ThreadIngestJobs()
    real_chunk_pages = storage.documents.chunking.chunk_pages
    holder = {}

    def chunk_then_cancel(*args, **kwargs):  # the user clicks Cancel while the PDF is being chunked
        jobs.cancel(holder["job"].job_id)
        return real_chunk_pages(*args, **kwargs)

    monkeypatch.setattr(storage.documents.chunking, "chunk_pages", chunk_then_cancel)
    holder["job"] = job = jobs.submit(path, owner="u1")
    _wait(job)
    assert job.state == "cancelled" and job.result is None
    assert list_processed_pdfs() == []
    left = [p.name for p in (pdf_home / "destination").iterdir()]
    assert not [n for n in left if not n.startswith(".") or n.startswith(".tmp-")], left  # no doc folder, no temp build
    names = [c if isinstance(c, str) else c.name for c in vector_store.get_chroma_client().list_collections()]
    assert not [n for n in names if n.startswith("tmp-")]
    assert path.exists()  # the source file stays


def test_eta_comes_from_the_current_stage_rate():
    job = JobRecord(job_id="j", path="/x/a.pdf", state="running", stage="Embedding", done=10, total=40,
                    stage_started=time.time() - 5, stage_done0=0)
    assert 14 < job.eta_seconds < 16  # 10 done in 5 s -> 30 left in ~15 s
    job.done = 40
    assert job.eta_seconds is None


def test_a_reloaded_page_finds_the_running_job_and_can_cancel_it(chat_service, ui_env, monkeypatch):
    path = ui_env["home"] / "source" / "report.pdf"
    path.write_bytes(SAMPLE_PDF.read_bytes())
    at = new_app().run()  # the app's process-wide job registry
    from ui.resources import get_ingest_jobs

    jobs = get_ingest_jobs()
    release = {"go": False}
    real_chunk_pages = storage.documents.chunking.chunk_pages

    def slow_chunk_pages(*args, **kwargs):  # hold the job "running" until the test lets it go
        while not release["go"]:
            time.sleep(0.05)
        return real_chunk_pages(*args, **kwargs)

    monkeypatch.setattr(storage.documents.chunking, "chunk_pages", slow_chunk_pages)
    job = jobs.submit(path, owner=ui_env["user_id"])  # started from another tab / before the reload
    while job.state != "running":
        time.sleep(0.05)
    at = new_app().run()  # the reload: a new session that never started the job
    assert not at.exception
    # A running job shows a running status (a spinner), not a check mark, with its Cancel button.
    assert [s.state for s in at.get("status") if "report.pdf" in s.label] == ["running"]
    at.button(key=f"cancel-{job.job_id}").click().run()
    release["go"] = True
    _wait(job)
    assert job.state == "cancelled"
    at.run()
    assert any("was cancelled" in i.value for i in at.info)
    assert list_processed_pdfs() == []


def test_a_cancel_after_the_commit_keeps_the_processed_pdf_and_says_so(chat_service, ui_env, monkeypatch):
    import os

    path = ui_env["home"] / "source" / "report.pdf"
    path.write_bytes(SAMPLE_PDF.read_bytes())
    at = new_app().run()
    from ui.resources import get_ingest_jobs

    jobs = get_ingest_jobs()
    holder = {}
    real_replace = os.replace

    def replace_then_cancel(src, dst, *args, **kwargs):  # Cancel clicked just as the manifest is committed
        real_replace(src, dst, *args, **kwargs)
        if str(dst).endswith("manifest.json") and "job" in holder:
            jobs.cancel(holder["job"].job_id)

    monkeypatch.setattr(os, "replace", replace_then_cancel)
    holder["job"] = job = jobs.submit(path, owner=ui_env["user_id"])
    _wait(job)
    assert job.cancel_requested and job.state == "done" and job.cancelled_too_late
    assert [p.doc_id for p in list_processed_pdfs()] == [job.result.doc_id]
    at.session_state["ingest_jobs"] = [job.job_id]  # the session that started it
    at.run()
    assert not at.exception
    infos = [i.value for i in at.info]
    assert any("The cancel came too late" in i and "so it is kept" in i for i in infos), infos
    assert not any("cancelled" in i for i in infos)


def test_cancelled_processing_says_the_file_waits_in_the_source_folder(chat_service, ui_env, monkeypatch):
    path = ui_env["home"] / "source" / "report.pdf"
    path.write_bytes(SAMPLE_PDF.read_bytes())
    at = new_app().run()
    from ui.resources import get_ingest_jobs

    jobs = get_ingest_jobs()
    release = {"go": False}
    real_chunk_pages = storage.documents.chunking.chunk_pages

    def slow_chunk_pages(*args, **kwargs):
        while not release["go"]:
            time.sleep(0.05)
        return real_chunk_pages(*args, **kwargs)

    monkeypatch.setattr(storage.documents.chunking, "chunk_pages", slow_chunk_pages)
    job = jobs.submit(path, owner=ui_env["user_id"])
    while job.state != "running":
        time.sleep(0.05)
    at.run()
    # The first PDF is on its way: the sidebar says so instead of "No processed PDFs yet".
    sidebar = "\n".join(c.value for c in at.sidebar.caption)
    assert "Your first PDF is being processed" in sidebar and "No processed PDFs yet" not in sidebar
    jobs.cancel(job.job_id)
    release["go"] = True
    _wait(job)
    at.run()
    message = next(i.value for i in at.info if "was cancelled" in i.value)
    assert "no index of it was kept" in message and "still in the source folder" in message
    assert "nothing of it was kept" not in message and path.exists()


def test_the_progress_refreshes_less_often_while_questions_wait_for_an_answer_slot():
    """Every session's progress bar rereads its jobs' records: on a replica with questions waiting in line
    (bench.soak, issue 31) it refreshes every 6 s, else every 2 s; a page without the chat service: 2 s."""
    from agent.answer_line import AnswerLine
    from ui.ingest_view import POLL_S, SATURATED_POLL_S, poll_seconds

    line = AnswerLine(slots=1)
    first = line.join()
    assert poll_seconds(line) == POLL_S == poll_seconds(None)  # one answer running, nobody waiting
    second = line.join()
    assert poll_seconds(line) == SATURATED_POLL_S > POLL_S
    first.leave()
    second.leave()
    assert poll_seconds(line) == POLL_S
