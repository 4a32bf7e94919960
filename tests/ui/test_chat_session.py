"""The chat's state machine (ui/chat_session.py) without a browser or a page run: a dict for
`st.session_state`, an in-memory store that can be down, and the real TurnHistory and outbox."""

from __future__ import annotations

import pytest

from agent.turns import TurnHistory
from storage.history.outbox import TurnOutbox
from storage.history.store import HistoryUnavailableError, InvalidHistoryInputError, new_id
from storage.schema import AnswerResult
from ui.chat_session import (IN_FLIGHT, PAGE, PREVIOUS_PAGE, RETRY, STOP, UNSAVED, ChatSession, HistoryAccess,
                             open_history)
from ui.conversations import ConversationRow
from ui.resources import ResourceUnavailable

USER = "alice"


class MemoryStore:
    """The HistoryStore methods the chat uses, in memory; `down` makes every call unavailable."""

    def __init__(self) -> None:
        self.down = False
        self.conversations: dict[str, str] = {}
        self.messages: dict[str, list[dict]] = {}

    def _check(self) -> None:
        if self.down:
            raise HistoryUnavailableError("The chat history database is unavailable.")

    def create_conversation(self, user_id, title="New chat", conversation_id=None):
        self._check()
        if not title.strip():
            raise InvalidHistoryInputError("A title is needed.")
        cid = conversation_id or new_id()
        self.conversations[cid] = title
        self.messages.setdefault(cid, [])
        return cid

    def list_conversations(self, user_id):
        self._check()
        return [{"conversation_id": c, "title": t} for c, t in self.conversations.items()]

    def save_turn(self, user_id, conversation_id, turn_id, messages):
        self._check()
        self.messages[conversation_id] += [dict(m) for m in messages]

    def load_messages(self, user_id, conversation_id):
        self._check()
        return self.messages[conversation_id]


@pytest.fixture
def store():
    return MemoryStore()


@pytest.fixture
def turns(store, tmp_path):
    return TurnHistory(store, TurnOutbox(tmp_path / "outbox.db"))


def _session(store, turns, state=None, conversations=()):
    history = HistoryAccess(None if store.down else store, turns, list(conversations), queueing=turns is not None)
    return ChatSession({} if state is None else state, USER, history)


def _roles(messages):
    return [(m["role"], m["content"], bool(m.get("stopped"))) for m in messages]


def test_stop_while_the_history_is_down_queues_the_turn_and_it_is_written_when_back(store, turns):
    cid = store.create_conversation(USER, "Outage")
    store.down = True
    state = {IN_FLIGHT: {"conversation_id": cid, "text": "What was the net debt?", "partial": "Net debt [^1] fell to"},
             STOP: True}
    session = _session(store, turns, state)
    session.settle_previous_run()
    assert IN_FLIGHT not in state and STOP not in state
    assert _roles(turns.pending_messages(USER, cid)) == [("user", "What was the net debt?", False),
                                                          ("ai", "Net debt fell to", True)]  # markers dropped
    assert [(t.role, t.stopped) for t in session.queued_turns(cid)] == [("user", False), ("assistant", True)]
    assert session.unsaved_turns(cid) == []  # queued, not kept in the tab
    assert "not saved to your history yet" in session.pop_notice()

    store.down = False
    assert turns.flush(USER) == 1
    assert _roles(store.messages[cid]) == [("user", "What was the net debt?", False), ("ai", "Net debt fell to", True)]
    assert turns.pending_messages(USER, cid) == []


def test_stop_without_a_configured_history_keeps_the_turn_in_the_tab(store):
    state = {IN_FLIGHT: {"conversation_id": None, "text": "Q?", "partial": "Half"}, STOP: True}
    session = _session(store, None, state)
    session.settle_previous_run()
    assert [(t.role, t.text, t.stopped) for t in state[UNSAVED][""]] == [("user", "Q?", False),
                                                                         ("assistant", "Half", True)]
    assert session.pop_notice() is None


def test_a_click_after_the_answer_was_kept_keeps_it_once_not_as_stopped(store, turns):
    cid = store.create_conversation(USER, "Done")
    answer = AnswerResult(message="62.5 million", saved=True)
    state = {IN_FLIGHT: {"conversation_id": cid, "text": "Q?", "partial": "62.5 million", "answer": answer},
             STOP: True}
    _session(store, turns, state).settle_previous_run()
    assert IN_FLIGHT not in state and STOP not in state
    assert state[UNSAVED] == {} and store.messages[cid] == [] and turns.pending_messages(USER, cid) == []


def test_an_unsaved_answer_is_kept_in_the_tab_with_its_error(store, turns):
    session = _session(store, turns)
    session.start("", "Q?")
    session.keep("", "Q?", AnswerResult(message="A", saved=False, error="not saved: no conversation"))
    assert IN_FLIGHT not in session.state
    assert [t.text for t in session.unsaved_turns(None)] == ["Q?", "A"]
    assert session.pop_notice() == "not saved: no conversation"


def test_an_interrupted_question_is_offered_in_its_conversation_and_asked_again(store, turns):
    session = _session(store, turns)
    session.start("c1", "Q?")
    assert session.interrupted("c1")["text"] == "Q?" and session.interrupted("c2") is None
    session.retry("Q?")
    assert session.interrupted("c1") is None and session.take_retry() == "Q?" and RETRY not in session.state


def test_which_conversation_a_run_shows(store, turns):
    rows = [ConversationRow("a" * 32, "Recent"), ConversationRow("b" * 32, "Older")]
    online = _session(store, turns, conversations=rows)
    assert online.pick_conversation("b" * 32) == "b" * 32
    assert online.pick_conversation("c" * 32) == "a" * 32  # unknown: the most recent
    store.down = True
    offline = _session(store, turns)
    assert offline.pick_conversation("c" * 32) == "c" * 32  # kept, so its turns are queued for it
    assert offline.pick_conversation("../etc") is None


def test_a_question_without_a_conversation_opens_one_even_while_the_history_is_down(store, turns):
    assert _session(store, turns).conversation_for("  What was revenue?  ") in store.conversations
    store.down = True
    cid = _session(store, turns).conversation_for("Net debt?")
    assert [c["conversation_id"] for c in turns.outbox.pending_conversations(USER)] == [cid]
    assert _session(store, None).conversation_for("Q?") is None  # no history: kept in the tab


class FakeClock:
    """time.monotonic for answer_text: each sleep moves it on."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def test_the_answer_is_streamed_word_by_word_and_kept_in_flight(store, turns):
    session = _session(store, turns)
    flight, outcome, labels, clock = session.start("c1", "Q?"), {}, [], FakeClock()
    long = " ".join(f"word{i}" for i in range(30))
    answer = AnswerResult(message=long)
    events = [("progress", {"event": "route"}), ("token", "Short "), ("token", long), ("answer", answer)]
    pieces = list(session.answer_text(events, flight, outcome, on_progress=labels.append, sleep=clock.sleep,
                                      clock=clock))
    assert pieces[0] == "Short " and "".join(pieces) == "Short " + long
    assert flight["partial"] == "Short " + long and outcome["answer"] is answer and flight["answer"] is answer
    assert labels == ["Choosing where to look…"] and len(clock.sleeps) == 30


def test_the_streamed_answer_is_redrawn_at_most_every_tenth_of_a_second(store, turns):
    """Each piece `st.write_stream` gets redraws the whole answer: 300 words typed out over about a second are
    sent in about 11 pieces, not 300, and Stop still keeps every word written so far."""
    session = _session(store, turns)
    flight, outcome, clock = session.start("c1", "Q?"), {}, FakeClock()
    long = " ".join(f"word{i}" for i in range(300))
    sent = []

    def events():
        yield "token", long
        sent.append(flight["partial"])  # what a Stop at this point keeps
        yield "answer", AnswerResult(message=long)

    pieces = list(session.answer_text(events(), flight, outcome, on_progress=lambda _: None, sleep=clock.sleep,
                                      clock=clock))
    assert "".join(pieces) == long and sent == [long]
    assert 8 <= len(pieces) <= 14, len(pieces)
    # A model streaming one token every 10 ms: one redraw per 100 ms, the last piece flushed at the end.
    session2, clock2 = _session(store, turns), FakeClock()
    flight2 = session2.start("c1", "Q?")

    def tokens():
        for i in range(50):
            clock2.now += 0.01
            yield "token", f"t{i} "
        yield "answer", AnswerResult(message="x")

    pieces = list(session2.answer_text(tokens(), flight2, {}, on_progress=lambda _: None, clock=clock2))
    assert "".join(pieces) == "".join(f"t{i} " for i in range(50)) and 5 <= len(pieces) <= 7, len(pieces)


def test_a_conversational_reply_is_written_at_once(store, turns):
    """A greeting's whole reply (no-model mode) is one piece, not typed out word by word: on a saturated replica
    the typing doubled its CPU (bench.soak, issue 31)."""
    session = _session(store, turns)
    flight, outcome, sleeps = session.start("c1", "hello"), {}, []
    reply = "Hello! " + " ".join(f"word{i}" for i in range(30))
    events = [("progress", {"event": "route", "route": "conversation"}), ("token", reply),
              ("answer", AnswerResult(message=reply))]
    pieces = list(session.answer_text(events, flight, outcome, on_progress=lambda _: None, sleep=sleeps.append))
    assert pieces == [reply] and sleeps == [] and flight["partial"] == reply


def test_this_page_belongs_to_the_conversation_open_when_the_chat_shows_it(store, turns):
    page = {"doc_id": "d", "source_file": "r.pdf", "page_number": 3}
    state = {PAGE: dict(page), PREVIOUS_PAGE: {**page, "page_number": 2}}
    session = _session(store, turns, state)
    assert session.page_for("c1") == (page, {**page, "page_number": 2})
    assert session.page_for("c2") == (None, None)  # claimed by c1
    session.claim_page("c2")
    assert session.page_for("c2")[0] == page
    session.forget_page()
    assert PAGE not in state and PREVIOUS_PAGE not in state


def test_open_history_says_why_it_is_offline_and_whether_turns_are_queued(store, turns):
    class Service:
        pass

    service = Service()
    service.turns = turns

    def unavailable():
        raise ResourceUnavailable("MONGODB_URI is malformed.")

    refused = open_history(USER, unavailable, lambda: service)
    assert refused.store is None and refused.offline_reason == "MONGODB_URI is malformed." and not refused.queueing
    store.create_conversation(USER, "One")
    online = open_history(USER, lambda: store, lambda: service)
    assert online.store is store and [c.title for c in online.conversations] == ["One"] and online.queueing
    store.down = True
    down = open_history(USER, lambda: store, lambda: service)
    assert down.store is None and "unavailable" in down.offline_reason and down.queueing


def test_a_question_aborted_mid_answer_is_asked_again_once_and_only_in_its_conversation(store, turns):
    state: dict = {}
    cid = store.create_conversation(USER)
    session = _session(store, turns, state)
    session.start(cid, "Net debt?")  # its run is aborted (no Stop): still in flight on the next run
    session.settle_previous_run()
    assert not session.resume_aborted("c2")  # another conversation is open: not asked there
    assert session.resume_aborted(cid) and IN_FLIGHT not in state
    assert session.take_retry() == "Net debt?"
    again = session.start(cid, "Net debt?")
    assert again["resumed"]
    session.settle_previous_run()  # aborted again: shown as interrupted, not asked a third time
    assert not session.resume_aborted(cid) and session.interrupted(cid) is again
    state.pop(IN_FLIGHT)
    session.start(cid, "Cash?")
    state[STOP] = True  # Stop pressed: kept as stopped, never asked again
    session.settle_previous_run()
    assert not session.resume_aborted(cid) and session.take_retry() is None
    answered = session.start(cid, "Revenue?")
    answered["answer"] = AnswerResult(message="x")  # finished before the abort: kept, not asked again
    assert not session.resume_aborted(cid)
