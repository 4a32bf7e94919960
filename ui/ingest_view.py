"""Start PDF processing (background jobs, storage/jobs/thread_jobs.py or celery_jobs.py) and show its live progress.

The pages call `start_ingest(...)`; `show_ingest_progress()` draws a progress bar and the
current stage for each of this session's jobs, refreshing every POLL_S seconds (SATURATED_POLL_S while
questions wait in this replica's answer line) and only while one is active, and when a job ends
adds the PDF to the chat selection and reports the outcome.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui.doc_picker import add_picked, set_picked
from ui.resources import get_ingest_jobs
from ui.safe_text import escape_markdown, safe_model_markdown

# Each refresh reruns the fragment and reads every job's record: per session, so on a replica answering a
# line of questions the progress bar yields the CPU to them (a stage lasts tens of seconds anyway).
POLL_S = 2.0
SATURATED_POLL_S = 6.0
FLASH = "documents_flash"  # messages shown after the rerun that follows a finished job
MY_JOBS = "ingest_jobs"  # job ids started from this browser session


def flash(kind: str, text: str) -> None:
    st.session_state.setdefault(FLASH, []).append((kind, text))


def show_flash() -> None:
    for kind, text in st.session_state.pop(FLASH, []):
        getattr(st, kind)(text)


def describe(pdf) -> str:
    ocr = f", {len(pdf.ocr_pages)} OCR page{'s' if len(pdf.ocr_pages) != 1 else ''}" if pdf.ocr_pages else ""
    return f"{pdf.page_count} pages, {pdf.chunk_count} chunks{ocr}"


def _sentence(text: str) -> str:
    return text if text.rstrip()[-1:] in ".!?" else f"{text}."


def _owner() -> str:
    identity = st.session_state.get("identity")
    return identity.user_id if identity is not None else ""


def start_ingest(path: Path | str, *, reindex_doc_id: str | None = None, switch_to: bool = False) -> None:
    """Queue processing of `path`; `switch_to` (from `/ingest`): when done, chat with it alone."""
    follow_job(get_ingest_jobs().submit(path, reindex_doc_id, owner=_owner(), switch_to=switch_to).job_id)


def follow_job(job_id: str) -> None:
    """Show this job's progress and outcome in this session (a job queued by `/ingest`, agent/graph.py)."""
    mine = st.session_state.setdefault(MY_JOBS, [])
    if job_id not in mine:
        mine.append(job_id)


def _adopt_running_jobs() -> None:
    """A reloaded page is a new session: it picks up the jobs its user still has running."""
    mine = st.session_state.setdefault(MY_JOBS, [])
    for job in get_ingest_jobs().active_for(_owner()):
        if job.job_id not in mine:
            mine.append(job.job_id)


def ingest_running() -> bool:
    _adopt_running_jobs()
    return bool(st.session_state.get(MY_JOBS))


def being_processed() -> set[str]:
    """Paths (str) with a queued or running job, from any session."""
    return get_ingest_jobs().active_paths()


def _eta(seconds: float | None) -> str:
    if seconds is None:
        return ""
    if seconds < 60:
        return f" · about {max(int(seconds), 1)} s left"
    return f" · about {round(seconds / 60)} min left"


def poll_seconds(line=None) -> float:
    """How often the progress refreshes: less often while questions wait in `line` (the replica's
    agent.answer_line.AnswerLine, when the page has the chat service) for an answer slot."""
    return SATURATED_POLL_S if line is not None and line.counts()[1] else POLL_S


def _progress_fragment() -> None:
    jobs = get_ingest_jobs()
    ended = []
    for job_id in list(st.session_state.get(MY_JOBS, [])):
        job = jobs.get(job_id)
        if job is None:  # the app restarted: the job is gone
            st.session_state[MY_JOBS].remove(job_id)
            continue
        if not job.active:
            ended.append(job)
            continue
        verb = "Re-indexing" if job.reindex_doc_id else "Processing"
        # Not `with st.status(...)`: leaving that block marks the status complete (a check mark)
        # while the job is still running. Status and progress labels render markdown: escape names.
        box = st.status(f"{verb} {safe_model_markdown(wrappable(job.file))}…", state="running", expanded=True)
        if job.cancel_requested:
            text = "Cancelling…"
        else:
            text = f"{job.stage} ({job.done}/{job.total}){_eta(job.eta_seconds)}" if job.total > 1 else job.stage
        box.progress(job.fraction, text=safe_model_markdown(text))
        row = box.container(horizontal=True, vertical_alignment="center")
        row.caption("You can keep using the app, or reload: processing continues in the background.")
        row.button("Cancel", key=f"cancel-{job.job_id}", icon=":material/cancel:", on_click=jobs.cancel,
                   args=(job.job_id,), disabled=job.cancel_requested)
    for job in ended:
        st.session_state[MY_JOBS].remove(job.job_id)
        if job.state == "done" and job.cancelled_too_late:
            add_picked(job.result.doc_id)
            flash("info", f"The cancel came too late: {escape_markdown(job.result.source_file)} was already "
                  f"{'re-indexed' if job.reindex_doc_id else 'processed'} ({describe(job.result)}), so it is kept and "
                  "selected for the chat. Delete its index on the Documents page if you do not want it.")
        elif job.state == "done" and job.switch_to:
            set_picked([job.result.doc_id])
            flash("success", f"{escape_markdown(job.result.source_file)} is ready: {describe(job.result)}. "
                  "It is now the active PDF: ask away.")
        elif job.state == "done":
            add_picked(job.result.doc_id)
            verb = "re-indexed" if job.reindex_doc_id else "is ready"
            flash("success", f"{escape_markdown(job.result.source_file)} {verb}: {describe(job.result)}. It is selected for the chat.")
        elif job.state == "cancelled" and job.reindex_doc_id:
            flash("info", f"Re-indexing of {escape_markdown(job.file)} was cancelled: its previous index is unchanged.")
        elif job.state == "cancelled":
            flash("info", f"Processing of {escape_markdown(job.file)} was cancelled: no index of it was kept. The file "
                  "is still in the source folder; process it again on the Documents page to restart.")
        else:
            flash("error", f"{escape_markdown(_sentence(job.error or job.file))} Fix the file (or try again) and process it again.")
    if ended:
        st.rerun()  # the whole app: lists, picker and messages reflect the finished jobs


def wrappable(name: str) -> str:
    """A file name that a narrow box wraps after its "_" (a zero-width space there), never inside a
    word: "annual_report_fisc|al_2023.pdf" read as two cut words."""
    return name.replace("_", "_\u200b")


def show_ingest_progress(line=None) -> None:
    """Live progress of this user's jobs (nothing when there are none); `line`: `poll_seconds`."""
    if ingest_running():
        st.fragment(_progress_fragment, run_every=poll_seconds(line))()
