"""A question over the size limit is refused before any work, with the limit in the message."""

from __future__ import annotations

import time

import pytest

from agent.service import ChatService
from storage.settings import get_settings
from tests.fixtures_ui import new_app


class MustNotRun:
    def __call__(self, *args, **kwargs):
        raise AssertionError("no retrieval or model call for a refused question")

    def __getattr__(self, name):
        raise AssertionError(f"the model must not be used ({name})")


def test_a_5_mb_question_is_refused_before_any_work():
    service = ChatService(llm=MustNotRun(), web=None, history=None, get_retriever=MustNotRun())
    question = "What was revenue? " * (5 * 2**20 // 18)
    started = time.perf_counter()
    with pytest.raises(ValueError) as err:
        service.ask("u", None, question, ["some-doc-0123456789ab"])
    elapsed = time.perf_counter() - started
    assert "the limit is 20,000" in str(err.value) and f"{len(question):,} characters" in str(err.value)
    assert elapsed < 1.0, elapsed


def test_the_limit_is_a_setting_and_the_boundary_is_accepted(monkeypatch):
    monkeypatch.setenv("PDF_CHAT_MAX_QUESTION_CHARS", "50")
    assert get_settings().limits.max_question_chars == 50
    service = ChatService(llm=None, web=None, history=None)
    with pytest.raises(ValueError, match="the limit is 50"):
        service.ask("u", None, "x" * 51, [])
    assert service.ask("u", None, "/help" + " " * 45, []).message  # exactly 50: answered


def test_the_chat_input_carries_the_limit(ui_env, monkeypatch):
    monkeypatch.setenv("PDF_CHAT_MAX_QUESTION_CHARS", "1234")
    at = new_app().run()
    assert at.chat_input[0].max_chars == 1234


def test_a_lone_surrogate_is_refused_once_with_a_clear_message():
    """A broken clipboard paste (a lone UTF-16 surrogate) used to end in GraphRecursionError after 40
    retries of a failing search."""
    service = ChatService(llm=MustNotRun(), web=None, history=None, get_retriever=MustNotRun())
    with pytest.raises(ValueError, match="cannot be read"):
        service.ask("u", None, "What was revenue \ud800 in 2022?", ["some-doc-0123456789ab"])


def test_a_search_that_fails_twice_ends_the_turn(sample_pdf):
    """Past the service (the CLI, benchmarks), the graph stops a no-model search that keeps failing."""
    from agent.run import run_turn
    from tests.fixtures_agent import context

    result = run_turn(context(), "What was revenue \ud800 in 2022?", selected_doc_ids=[sample_pdf.doc_id])
    assert "failed 2 times" in result.message and "\ud800" not in result.message
