"""The line of a saturated replica (agent/answer_line.py, ChatService.ask_stream): searching questions beyond
the slots wait in order and are told their place; a greeting never waits behind them."""

from __future__ import annotations

import threading

import pytest

from agent.answer_line import AnswerLine, ordinal
from agent.service import ChatService
from ui.chat_session import progress_label


def test_ordinals_and_the_busy_message():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 103)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "103rd"]
    assert progress_label({"event": "queued", "position": 3}) == "Busy: your question is 3rd in line…"


def test_questions_beyond_the_slots_wait_in_order_and_move_up_as_answers_end():
    line = AnswerLine(slots=1)
    first, second, third = line.join(), line.join(), line.join()
    assert first.wait(0) and (first.position(), second.position(), third.position()) == (0, 1, 2)
    assert not second.wait(0.05)
    second.leave()  # stopped while waiting: its place goes
    assert third.position() == 1 and line.counts() == (1, 1)
    first.leave()
    assert third.wait(1) and third.position() == 0 and line.counts() == (1, 0)


def test_a_saturated_replica_says_the_place_in_line_and_answers_a_greeting_at_once(monkeypatch):
    service = ChatService(llm=None, web=None, history=None)
    service.line = AnswerLine(slots=1)
    release = threading.Event()

    def answer_stream(user_id, cid, text, doc_ids, page, previous):
        if text != "hello":
            release.wait(30)
        yield "answer", text

    monkeypatch.setattr(service, "_answer_stream", answer_stream)
    searching = service.ask_stream("u", None, "What was revenue in 2023?", ["d"])
    got: list = []
    running = threading.Thread(target=lambda: got.extend(searching))
    running.start()
    while service.line.counts() != (1, 0):
        threading.Event().wait(0.01)

    waiting = service.ask_stream("u", None, "What was the operating margin in 2022?", ["d"])
    assert next(waiting) == ("progress", {"event": "queued", "position": 1})
    assert list(service.ask_stream("u", None, "hello", ["d"])) == [("answer", "hello")]  # not behind the search

    release.set()
    running.join(10)
    assert got == [("answer", "What was revenue in 2023?")]
    assert list(waiting)[-1] == ("answer", "What was the operating margin in 2022?")
    assert service.line.counts() == (0, 0)


def test_warm_up_builds_the_graph_and_the_conversation_vectors_before_the_first_question():
    from agent import conversation, knowledge_base
    from agent.run import compiled_graph

    compiled_graph.cache_clear()
    knowledge_base._cached.cache_clear()
    conversation._vectors = None
    ChatService(llm=None, web=None, history=None).warm_up()
    assert compiled_graph.cache_info().currsize == 1 and conversation._vectors is not None
    assert knowledge_base._cached.cache_info().currsize == 1



def test_the_service_shortens_the_gil_switch_so_short_turns_do_not_queue_behind_an_answer():
    import sys

    from agent.answer_line import favour_short_turns
    from storage.settings import get_settings

    quick = get_settings().limits.switch_interval_s

    before = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)  # CPython's default: each GIL hop of a greeting could wait 5 ms
        ChatService(llm=None, web=None, history=None)
        assert quick < 0.005 and sys.getswitchinterval() == pytest.approx(quick)
        sys.setswitchinterval(0.0001)  # an operator's shorter choice is kept
        assert favour_short_turns(quick) == pytest.approx(0.0001)
    finally:
        sys.setswitchinterval(before)
