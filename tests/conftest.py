"""Shared test setup: every test gets its own PDF_CHAT_HOME so nothing touches the repo's pdf_files/."""

from __future__ import annotations

import os

import pytest

# Every fixture module, for every test (no `import *` of fixtures).
pytest_plugins = [
    # fixtures_pdfs first: fixtures_agent imports it, and a plugin imported before registration is not assert-rewritten
    "tests.fixtures_pdfs",
    "tests.fixtures_agent",
    "tests.fixtures_citations",
    "tests.fixtures_cluster",
    "tests.fixtures_figures",
    "tests.fixtures_filings",
    "tests.fixtures_mongo",
    "tests.fixtures_retrieval",
    "tests.fixtures_statements",
    "tests.fixtures_turns",
    "tests.fixtures_ui",
]

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
# Embedded history servers started by tests stop soon after the last client leaves.
os.environ.setdefault("PDF_CHAT_MONGO_IDLE_S", "60")
# No model or search keys in tests unless a test sets them against a local stub.
for _key in ("GOOGLE_API_KEY", "GEMINI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_KEY", "TAVILY_API_KEY", "CHROMA_HOST",
             "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):  # tests start their own broker when they need one
    os.environ.pop(_key, None)


@pytest.fixture(autouse=True)
def pdf_home(tmp_path, monkeypatch):
    """A fresh pdf_files/ tree (source/ and destination/) for each test, and no search index or
    retrieval cache still loaded from another test's tree."""
    from storage.retrieval import hybrid

    home = tmp_path / "pdf_files"
    (home / "source").mkdir(parents=True)
    (home / "destination").mkdir(parents=True)
    monkeypatch.setenv("PDF_CHAT_HOME", str(home))
    for var in ("PDF_SOURCE_DIR", "PDF_DESTINATION_DIR"):
        monkeypatch.delenv(var, raising=False)
    hybrid.clear_loaded_indexes()
    yield home
    hybrid.clear_loaded_indexes()
