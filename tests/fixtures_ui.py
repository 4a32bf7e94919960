"""Fixtures for the UI tests: a real embedded MongoDB (nx-27017 over the wire protocol) for the
whole session, per-test users, the shipped sample PDF and a PDF full of HTML/markdown injection.
Import explicitly: `from tests.fixtures_ui import *`."""

from __future__ import annotations

import uuid
from pathlib import Path

import pymupdf
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app.py"
SAMPLE_PDF = ROOT / "pdf_files" / "source" / "northwind_annual_report_2023.pdf"

# Lines a malicious PDF carries; the UI must show them literally and run nothing.
XSS_LINES = [
    "Quarterly note <script>window.__xss = 'script'</script> end",
    'Logo <img src=x onerror="window.__xss = \'img\'"> here',
    "Click [the link](javascript:window.__xss='link') now",
    "Price $x^2$ and :red[red] and **bold** markers",
]


@pytest.fixture(scope="session")
def mongo_uri(tmp_path_factory):
    """One embedded history server for the test session, stopped afterwards."""
    from storage.mongo_server import ensure_server, stop_server

    data_dir = tmp_path_factory.mktemp("ui-mongo")
    info = ensure_server(data_dir)
    try:
        yield info.uri
    finally:
        stop_server(data_dir)


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
