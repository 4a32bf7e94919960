"""Fixtures for the UI tests: a real embedded MongoDB (nx-27017 over the wire protocol) for the
whole session, per-test users, the shipped sample PDF and a PDF full of HTML/markdown injection.
Registered for every test by tests/conftest.py's `pytest_plugins`: use the fixtures by name, import nothing.
Chat tests get the real ChatService (no-model mode unless a test scripts a model) and a
processed copy of the shipped sample PDF."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import pymupdf
import pytest
import streamlit as st

import ui.resources
from storage.history.store import HistoryStore
from storage.documents.ingest import process_and_index_pdf
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app.py"
FILE = "northwind_annual_report_2023.pdf"
SAMPLE_PDF = ROOT / "pdf_files" / "source" / FILE

# Lines a malicious PDF carries; the UI must show them literally and run nothing.
XSS_LINES = [
    "Quarterly note <script>window.__xss = 'script'</script> end",
    'Logo <img src=x onerror="window.__xss = \'img\'"> here',
    "Click [the link](javascript:window.__xss='link') now",
    "Price $x^2$ and :red[red] and **bold** markers",
]


@pytest.fixture(scope="session")
def ui_mongo_dir(tmp_path_factory):
    """The data folder of one embedded history server for the UI tests, stopped at the end of the session."""
    from storage.history.embedded_server import stop_server

    data_dir = tmp_path_factory.mktemp("ui-mongo")
    yield data_dir
    stop_server(data_dir)


@pytest.fixture
def mongo_uri(ui_mongo_dir, monkeypatch):
    """That server's URI, started again if it stopped since the last test: the first user may be an early
    test folder and the UI tests come many minutes later."""
    from storage.history.embedded_server import ensure_server

    monkeypatch.setenv("PDF_CHAT_MONGO_IDLE_S", str(24 * 3600))  # it lives until stopped, not until idle
    return ensure_server(ui_mongo_dir).uri


@pytest.fixture
def ui_env(mongo_uri, monkeypatch, pdf_home):
    """History in the session server under a fresh local user; caches emptied between tests."""
    monkeypatch.setenv("MONGODB_URI", mongo_uri)
    user = f"ui-test-{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("PDF_CHAT_LOCAL_USER", user)
    st.cache_resource.clear()
    st.cache_data.clear()
    yield {"user_id": user, "home": pdf_home, "mongo_uri": mongo_uri}
    st.cache_resource.clear()
    st.cache_data.clear()


@pytest.fixture
def sample_pdf_bytes() -> bytes:
    return SAMPLE_PDF.read_bytes()


def make_xss_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    y = 72
    for line in XSS_LINES:
        page.insert_text((56, y), line, fontsize=10)
        y += 24
    doc.save(path)
    return path


@pytest.fixture
def xss_pdf_bytes(tmp_path) -> bytes:
    return make_xss_pdf(tmp_path / "xss.pdf").read_bytes()


def new_app(timeout: float = 120) -> AppTest:
    return AppTest.from_file(str(APP), default_timeout=timeout)


def retriever_factory():
    try:
        from storage.retrieval.hybrid import HybridRetriever

        return HybridRetriever
    except ImportError:  # until storage/retrieval/hybrid.py lands: the agent tests' BM25 stand-in
        from tests.fixtures_agent import Bm25Retriever

        return Bm25Retriever


class AppQueue:
    """The app's job queue (`ui.resources.get_ingest_jobs`), as the app hands it to its ChatService, looked up
    when used: after the test's settings (a broker or none) are in place."""

    def __getattr__(self, name):
        return getattr(ui.resources.get_ingest_jobs(), name)


@pytest.fixture
def chat_service(ui_env, monkeypatch):
    """The real ChatService in no-model mode (no keys in tests), served to the pages."""
    from agent.service import ChatService

    service = ChatService(llm=None, web=None, history=HistoryStore(ui_env["mongo_uri"]), get_retriever=retriever_factory(),
                          ingest_jobs=AppQueue())
    monkeypatch.setattr(ui.resources, "get_chat_service", lambda: service)
    monkeypatch.setattr(ui.resources, "get_history_store", lambda: service.history)
    return service


@pytest.fixture
def sample_processed(ui_env):
    target = ui_env["home"] / "source" / FILE
    target.write_bytes(SAMPLE_PDF.read_bytes())
    return process_and_index_pdf(target)


def doc_picker(at):
    """The sidebar PDF picker: pills for a small library, a multiselect for a large one."""
    found = [w for w in [*at.pills, *at.multiselect] if (w.key or "").startswith("doc_picker-")]
    assert found, "no PDF picker on the page"
    return found[0]


def has_doc_picker(at) -> bool:
    return any((w.key or "").startswith("doc_picker-") for w in [*at.pills, *at.multiselect])


def citation_buttons(at):
    """The citation buttons under answers ("1 · file.pdf, page 2")."""
    return [b for b in at.button if "· " in b.label and "-cite-" in (b.key or "")]


def wait_for_ingest(at: AppTest, timeout: float = 90) -> AppTest:
    """Re-run the page (as the progress fragment does every second) until this session's
    background processing jobs have ended; the last run shows their outcome."""
    deadline = time.monotonic() + timeout
    while "ingest_jobs" in at.session_state and at.session_state["ingest_jobs"]:
        assert time.monotonic() < deadline, "processing did not finish in time"
        time.sleep(0.2)
        at.run()
        assert not at.exception, at.exception
    return at


def stopped_run(cid: str, partial: str, question: str = "What was the net debt?") -> AppTest:
    """The chat page's run after a Stop click: the run it aborted had asked `question` in conversation
    `cid` and written `partial` of the answer."""
    at = new_app()
    at.query_params["c"] = cid
    at.session_state["question_in_flight"] = {"conversation_id": cid, "text": question, "partial": partial}
    at.session_state["stop_requested"] = True
    return at.run()
