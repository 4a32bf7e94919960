"""A question is stored as pending when asked (ui/chat_session.py + ui/asked.py), completed when its turn is
kept, and, when the replica answering it died, shown on the next page as an interrupted turn with Ask again,
on a real history store (embedded server and nx-27017 over TCP)."""

from __future__ import annotations

from agent.turns import TurnHistory
from storage.history.asked import LIVE, STALE_S, AskedQuestions
from storage.history.outbox import TurnOutbox
from storage.schema import AnswerResult
from ui import conversations as conv
from ui.asked import settle
from ui.chat_session import IN_FLIGHT, ChatSession, HistoryAccess

USER = "alice"


def _session(store, tmp_path, state=None):
    turns = TurnHistory(store, TurnOutbox(tmp_path / "outbox.db"))
    return ChatSession({} if state is None else state, USER, HistoryAccess(store, turns, queueing=True))


def _record(store, ask_id):
    return store.run_on_database(lambda db: db.asked.find_one({"_id": ask_id}))


def test_asked_is_pending_and_beaten_while_answered_then_completed_when_kept(store, tmp_path):
    cid = store.create_conversation(USER)
    session = _session(store, tmp_path)
    flight = session.start(cid, "What was revenue?")
    assert LIVE.running(flight["ask_id"])
    assert _record(store, flight["ask_id"])["state"] == "pending"
    assert settle(_session(store, tmp_path), cid) != []  # another page: still being answered here, not interrupted

    session.keep(cid, "What was revenue?", AnswerResult(message="Revenue was 5.", saved=True))
    assert _record(store, flight["ask_id"])["state"] == "answered"
    assert not LIVE.running(flight["ask_id"])
    assert settle(_session(store, tmp_path), cid) == []


def test_a_question_whose_replica_died_becomes_an_interrupted_turn_once_and_ask_again_asks_it(store, tmp_path):
    cid = store.create_conversation(USER)
    asked = AskedQuestions(store)
    dead = asked.ask(USER, cid, "What was net debt?", replica="replica-killed-mid-answer")
    stale = {"$set": {"beat_ms": _record(store, dead)["beat_ms"] - int(STALE_S * 1000) - 1000}}
    store.run_on_database(lambda db: db.asked.update_one({"_id": dead}, stale))
    fresh = asked.ask(USER, cid, "Still streaming elsewhere?", replica="a-live-replica")

    page, other_page = _session(store, tmp_path / "a"), _session(store, tmp_path / "b")
    answering = settle(page, cid)
    assert [r["_id"] for r in answering] == [fresh]
    assert settle(other_page, cid) == answering  # the dead one is stored by one page only

    turns = conv.load_turns(store, USER, cid)
    assert [(t.role, t.text, t.interrupted) for t in turns] == [
        ("user", "What was net debt?", False), ("assistant", "", True)]
    assert _record(store, dead)["state"] == "interrupted"

    page.retry("What was net debt?")  # the Ask again button's callback
    assert page.take_retry() == "What was net debt?"


def test_a_click_that_aborted_the_answer_stops_its_heartbeat_and_ask_again_completes_it(store, tmp_path):
    cid = store.create_conversation(USER)
    state: dict = {}
    flight = _session(store, tmp_path, state).start(cid, "Overview?")
    again = _session(store, tmp_path, state)  # the next run of the same tab, after a click aborted the answer
    again.settle_previous_run()
    assert not LIVE.running(flight["ask_id"]) and state[IN_FLIGHT]["ask_id"] == flight["ask_id"]
    assert settle(again, cid, flight["ask_id"]) == []  # the tab shows it itself (Ask it again)
    assert conv.load_turns(store, USER, cid) == []
    again.retry("Overview?")
    assert _record(store, flight["ask_id"])["state"] == "asked_again"


def test_a_question_asked_after_a_click_aborted_the_answer_stores_the_aborted_one_at_once(store, tmp_path):
    """Asked mid-answer (the Enter aborts the running one) and the tab closed before any later run: the aborted
    question is still a stored turn, marked interrupted, and is not stored a second time by a later page."""
    cid = store.create_conversation(USER)
    state: dict = {}
    first = _session(store, tmp_path, state).start(cid, "What was net debt?")
    first["partial"] = "Net debt was "
    again = _session(store, tmp_path, state)  # the run the Enter started
    again.settle_previous_run()
    settle(again, cid, state[IN_FLIGHT]["ask_id"])
    again.start(cid, "hello")
    again.keep(cid, "hello", AnswerResult(message="Hello!", saved=True))  # the tab closes after this

    turns = conv.load_turns(store, USER, cid)
    assert [(t.role, t.text, t.interrupted) for t in turns] == [
        ("user", "What was net debt?", False), ("assistant", "Net debt was", True)]
    assert _record(store, first["ask_id"])["state"] == "interrupted"
    assert settle(_session(store, tmp_path / "b"), cid) == []
    assert len(conv.load_turns(store, USER, cid)) == 2
