"""A question over the size limit is refused before any work, with the limit in the message."""

from __future__ import annotations

import time

import pytest

from agent.service import ChatService
from storage.config import get_settings
from tests.fixtures_ui import *  # noqa: F401,F403  (fixtures: the session's history server)
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
    assert get_settings().max_question_chars == 50
    service = ChatService(llm=None, web=None, history=None)
    with pytest.raises(ValueError, match="the limit is 50"):
        service.ask("u", None, "x" * 51, [])
    assert service.ask("u", None, "/help" + " " * 45, []).message  # exactly 50: answered


def test_the_chat_input_carries_the_limit(ui_env, monkeypatch):
    monkeypatch.setenv("PDF_CHAT_MAX_QUESTION_CHARS", "1234")
    at = new_app().run()
    assert at.chat_input[0].max_chars == 1234
