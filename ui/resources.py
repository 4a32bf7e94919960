"""Process-wide resources shared by all sessions, built once with `st.cache_resource`.

Each getter returns the resource or raises `ResourceUnavailable` with a message saying what to
do; pages show that message with `st.error` instead of a traceback.
"""

from __future__ import annotations

import logging
import threading

import streamlit as st

from storage.history.store import HistoryConfigError, HistoryStore
from storage.jobs.queue import make_ingest_jobs
from ui.page_images import clear_preview_cache
from ui.safe_text import redact

log = logging.getLogger(__name__)


class ResourceUnavailable(RuntimeError):
    """A backend the page needs could not be started; the message is for the user."""


@st.cache_resource(show_spinner="Starting the conversation history store…")
def _history_store():
    return HistoryStore()


@st.cache_resource(show_spinner="Loading the chat agent…")
def _chat_service(_history):
    from agent.service import ChatService  # import here: heavy (models, the graph), after the page is drawn

    service = ChatService(history=_history, ingest_jobs=get_ingest_jobs())
    threading.Thread(target=service.warm_up, name="warm-up", daemon=True).start()  # before the first question
    return service


def get_history_store():
    try:
        return _history_store()
    except HistoryConfigError as exc:  # a malformed MONGODB_URI: its message says what to fix, never the password
        log.error("history store refused: %s", exc)
        raise ResourceUnavailable(str(exc)) from exc
    except Exception as exc:  # noqa: BLE001 - a resource boundary: whatever failed, pages say what to do, the log has the trace
        log.exception("history store unavailable")
        raise ResourceUnavailable(
            f"The conversation history database is not reachable ({type(exc).__name__}). "
            "Check MONGODB_URI or restart the app; documents can still be managed meanwhile."
        ) from exc


def get_chat_service():
    try:
        history = get_history_store()
    except ResourceUnavailable:
        history = None  # the chat still answers; nothing is saved, and the page says so
    try:
        return _chat_service(history)
    except Exception as exc:  # noqa: BLE001 - model and search clients raise their own errors: shown, traced in the log
        log.exception("chat service unavailable")
        raise ResourceUnavailable(f"The chat agent could not start ({type(exc).__name__}: {redact(str(exc))}).") from exc


def model_info() -> dict:
    """What model and search the agent uses (names only, never keys); {} when unknown."""
    try:
        info = get_chat_service().model_info()
        return dict(info) if info else {}
    except ResourceUnavailable:  # the page that needs the agent says why
        return {}


@st.cache_resource(show_spinner=False)
def get_ingest_jobs():
    """The process-wide queue of PDF processing jobs (storage/jobs/queue.py: Celery workers when
    CELERY_BROKER_URL is set, else a thread of this process); uploads and `/ingest` share it."""
    return make_ingest_jobs(on_reindex=clear_preview_cache)
