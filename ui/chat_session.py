"""The chat's state machine, over `st.session_state` (any mutable mapping): the question in flight,
Stop, asking again, turns kept in this browser tab or queued for the history, which conversation a
question goes to, and the state of the answer being streamed. No Streamlit calls: the page
(app_pages/chat.py) lays it out, and tests drive it with a dict.

    history = open_history(user_id, get_history_store, get_chat_service)   # what this run can reach
    session = ChatSession(st.session_state, user_id, history)
    session.settle_previous_run()           # a click aborted the last run: keep its turn (answered or stopped)
    flight = session.start(cid, question)   # in flight until kept; a Stop click keeps what was written
    st.write_stream(session.answer_text(events, flight, outcome, on_progress=...))
    session.keep(cid, question, outcome["answer"])

Every turn is saved by `agent.turns.TurnHistory` (stored, or queued on this server while the history
is down); only when there is no history at all is a turn kept in this tab (`UNSAVED`).
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from agent.answer_line import ordinal
from agent.markers import strip_markers
from agent.citations.previews import clip
from storage.history.store import HistoryError, HistoryUnavailableError, is_valid_id
from ui import asked
from ui import conversations as conv
from ui.resources import ResourceUnavailable
from ui.safe_text import redact, safe_model_markdown

log = logging.getLogger(__name__)

EVENT_LABELS = {
    "route": "Choosing where to look…",
    "searching_documents": "Searching your PDFs…",
    "searching_web": "Searching the web…",
    "thinking": "Writing the answer…",
}
UNSAVED = "unsaved_turns"  # conversation id ("" when offline) -> turns that will not be saved
# The question being answered. A click while it runs stops the run (Streamlit reruns the script),
# so an entry still here on a later run is a question that was never answered or saved.
IN_FLIGHT = "question_in_flight"
RETRY = "retry_question"
SUBMITTED = "submitted_question"  # set by the chat box's on_submit callback, before the run that reads it
RESUMED = "resumed_question"  # the question asked again on its own after its run was aborted (once only)
STOP = "stop_requested"  # set by the Stop button's callback, before the run it starts
PAGE = "current_page"  # the page last viewed in the viewer ("this page"), with the conversation it belongs to
PREVIOUS_PAGE = "previous_page"
NOTICE = "chat_notice"
TITLE_CHARS = 60  # a conversation titled by its first question
PAGE_KEYS = ("doc_id", "source_file", "page_number")
FLUSH_S = 0.1  # the streamed answer is redrawn at most this often
OUTBOX_ERRORS = (OSError, sqlite3.Error)  # the on-disk outbox (storage/history/outbox.py) failing


@dataclass
class HistoryAccess:
    """What this run of the page can reach: the store (None while it is down or not configured), the
    turns' writer (None without a configured store), the user's conversations, and why it is offline."""

    store: Any = None
    turns: Any = None  # agent.turns.TurnHistory
    conversations: list[conv.ConversationRow] = field(default_factory=list)
    offline_reason: str | None = None
    queueing: bool = False  # a store is configured: while it is down, turns wait on this server


def open_history(user_id: str, get_store: Callable[[], Any], get_service: Callable[[], Any]) -> HistoryAccess:
    """The store and the user's conversations; queued turns are written first (when the store is back),
    so conversations opened while it was down are listed."""
    try:
        store = get_store()
    except ResourceUnavailable as exc:  # e.g. a malformed MONGODB_URI: answers are kept in this tab
        return HistoryAccess(offline_reason=str(exc))
    try:
        turns = get_service().turns
    except ResourceUnavailable:  # the agent could not start: asking says so
        turns = None
    if turns is not None:
        try:
            turns.flush(user_id)
        except (HistoryError, *OUTBOX_ERRORS) as exc:  # best effort: the next question flushes again and says why if it fails
            log.warning("queued turns not flushed: %s", exc)
    try:
        return HistoryAccess(store, turns, conv.list_conversations(store, user_id), queueing=True)
    except HistoryError as exc:
        return HistoryAccess(None, turns, offline_reason=str(exc), queueing=True)
    except Exception as exc:  # noqa: BLE001 - the chat page must open and keep answering whatever the store raised
        log.exception("conversations not listed")
        return HistoryAccess(None, turns, offline_reason=f"Could not load your conversations ({redact(str(exc))}).",
                             queueing=True)


def progress_label(event: dict) -> str | None:
    """The status line for a progress event of the answer being written."""
    if event.get("event") == "queued" and event.get("position"):
        return f"Busy: your question is {ordinal(event['position'])} in line…"
    return EVENT_LABELS.get(event.get("event"))


class ChatSession:
    """One browser tab's chat state; `state` is `st.session_state` (or a dict in tests)."""

    def __init__(self, state: MutableMapping[str, Any], user_id: str, history: HistoryAccess) -> None:
        self.state, self.user_id, self.history = state, user_id, history
        self.store, self.turns = history.store, history.turns
        self.state.setdefault(UNSAVED, {})

    # ----- which conversation ------------------------------------------------------------------
    def pick_conversation(self, requested: str | None) -> str | None:
        """The conversation to show: the one asked for (the URL's), else the most recent. While the store
        is down a valid id is kept as it is, so its new turns are queued for it."""
        if self.store is None and is_valid_id(requested):
            return requested
        if requested in {c.conversation_id for c in self.history.conversations}:
            return requested
        return self.history.conversations[0].conversation_id if self.history.conversations else None

    def conversation_for(self, question: str) -> str | None:
        """A new conversation for this question: in the store, or, while it is down, opened on this server
        and created when it is back (agent/turns.py). None: answered anyway, kept in this browser tab."""
        title = clip(question, TITLE_CHARS) or "New chat"  # cut at a word, with "…"
        try:
            if self.store is not None:
                try:
                    return conv.create_conversation(self.store, self.user_id, title=title)
                except HistoryUnavailableError:
                    pass
            return self.turns.open_offline(self.user_id, title) if self.turns is not None else None
        except (HistoryError, *OUTBOX_ERRORS) as exc:  # a refused title, an unwritable outbox
            log.warning("no conversation opened: %s", exc)
            return None

    def new_conversation(self) -> str | None:
        """A new, empty conversation (None, with a notice, when the store refused); "this page" was viewed
        for the conversation that was open, so it is not carried into the new one."""
        try:
            cid = conv.create_conversation(self.store, self.user_id)
        except HistoryError as exc:
            self.notify(str(exc))
            cid = None
        self.forget_page()
        return cid

    def delete_conversation(self, cid: str) -> bool:
        try:
            conv.delete_conversation(self.store, self.user_id, cid)
            return True
        except HistoryError as exc:
            self.notify(str(exc))
            return False

    def rename_conversation(self, cid: str, title: str) -> str | None:
        """Rename; the reason (safe to show) when the store refused."""
        try:
            conv.rename_conversation(self.store, self.user_id, cid, title)
            return None
        except HistoryError as exc:
            return redact(str(exc))

    # ----- the turns shown ---------------------------------------------------------------------
    def stored_turns(self, cid: str | None) -> list[conv.ChatTurn]:
        """The conversation's stored turns; raises HistoryError when they cannot be read."""
        return conv.load_turns(self.store, self.user_id, cid) if self.store is not None and cid else []

    def queued_turns(self, cid: str | None, flush: bool = True) -> list[conv.ChatTurn]:
        """Turns of this conversation waiting on the server for the history database (flushed first
        when it is back, so what is shown is what was finally stored)."""
        if not cid or self.turns is None:
            return []
        try:
            if flush and self.store is not None:
                self.turns.flush(self.user_id)
            return conv.turns_of(self.turns.pending_messages(self.user_id, cid))
        except OUTBOX_ERRORS as exc:  # showing queued turns is best effort
            log.warning("queued turns not shown: %s", exc)
            return []

    def unsaved_turns(self, cid: str | None) -> list[conv.ChatTurn]:
        """Turns kept in this browser tab only (no history to save them to)."""
        return self.state[UNSAVED].setdefault(cid or "", [])

    # ----- a question's life: asked, answered, stopped, interrupted, asked again --------------
    def settle_previous_run(self) -> None:
        """A click (Stop or any other) aborted the previous run: keep its turn, answered or stopped."""
        flight = self.state.get(IN_FLIGHT)
        if flight and flight.get("answer") is not None:
            # Aborted after its turn was finished and kept: answered, not stopped or interrupted.
            self.state.pop(STOP, None)
            self.keep(flight["conversation_id"], flight["text"], flight["answer"])
        elif self.state.pop(STOP, False) and flight:
            # The Stop click ended the previous run mid-answer (a click reruns the script and aborts the
            # running one at its next Streamlit call); what it had written is in IN_FLIGHT.
            self.keep_stopped(self.state.pop(IN_FLIGHT))
        elif flight:  # another click aborted it mid-answer: this replica no longer answers it
            asked.LIVE.remove(flight.get("ask_id"))

    def resume_aborted(self, cid: str | None) -> bool:
        """Ask again, once, the question of this tab whose run was aborted by a rerun that was neither Stop nor
        a new question: the page's websocket reconnecting on a saturated replica (the browser reruns the
        page, which stops the run answering) or a click elsewhere on the page. Without this the question
        was neither answered nor said to be waiting (bench.soak, issue 31). Only in its own conversation,
        and a question aborted again is shown as interrupted, with "Ask it again"."""
        flight = self.state.get(IN_FLIGHT)
        if (not flight or flight.get("answer") is not None or flight.get("resumed")
                or flight["conversation_id"] != cid or RETRY in self.state):
            return False
        log.warning("question aborted mid-answer by a rerun: asking it again")
        self.retry(flight["text"])
        self.state[RESUMED] = flight["text"]
        return True

    def interrupted(self, cid: str | None) -> dict | None:
        """The question of this conversation that a click interrupted before it was answered."""
        flight = self.state.get(IN_FLIGHT)
        return flight if flight and flight["conversation_id"] == cid else None

    def start(self, cid: str | None, question: str) -> dict:
        """The question is in flight: what its answer writes is kept in the returned dict. A question of this
        tab that a click interrupted (this one's Enter, mid-answer) is stored now as an interrupted turn: the
        tab may close before any later run would settle it."""
        if (earlier := self.state.get(IN_FLIGHT)) and earlier.get("answer") is None:
            asked.finish(self.store, self.user_id, earlier, "interrupted")
            self.keep_plain(earlier["conversation_id"], earlier["text"],
                            strip_markers(earlier.get("partial", "")).strip(), stopped=True, interrupted=True)
        flight = {"conversation_id": cid, "text": question, "partial": "",
                  "ask_id": asked.record(self.store, self.user_id, cid, question),  # stored as pending
                  "resumed": self.state.pop(RESUMED, None) == question}
        self.state[IN_FLIGHT] = flight
        return flight

    def request_stop(self) -> None:
        """The Stop button's callback (it runs before the run its click starts)."""
        self.state[STOP] = True

    def retry(self, text: str) -> None:
        """Ask `text` (again) on the next run: "Ask again", "Ask it again", a suggested question."""
        asked.finish(self.store, self.user_id, self.state.pop(IN_FLIGHT, None), "asked_again")
        self.state[RETRY] = text

    def submit(self, key: str) -> None:
        """The chat box's on_submit callback: it runs before the page's script, so a question is kept even
        when a rerun aborts that run before the question is asked (its value would be gone)."""
        if text := self.state.get(key):
            self.state[SUBMITTED] = text

    def take_submitted(self) -> str | None:
        return self.state.pop(SUBMITTED, None)

    def take_retry(self) -> str | None:
        return self.state.pop(RETRY, None)

    def failed(self) -> None:
        """The question could not be answered (the page shows why): no longer in flight."""
        asked.finish(self.store, self.user_id, self.state.pop(IN_FLIGHT, None), "failed")

    def keep(self, cid: str | None, question: str, result) -> None:
        """Record an answered question: no longer in flight; kept in this tab if it will not be saved
        (a turn queued for the history is shown from the queue instead)."""
        asked.finish(self.store, self.user_id, self.state.pop(IN_FLIGHT, None), "answered")
        queued = any(t.role == "user" and t.text == question for t in self.queued_turns(cid, flush=False))
        if not result.saved and not queued:
            self.unsaved_turns(cid).extend([
                conv.ChatTurn("user", question),
                conv.ChatTurn("assistant", result.message, list(result.citations), result.route, result.mode,
                              claims=list(result.claims))])
        if result.error:
            self.notify(result.error)

    def keep_stopped(self, flight: dict) -> None:
        """The user pressed Stop: keep the question and what was written so far, marked as stopped.
        Its markers go: the run never built citations for them, and their ids (provisional while the
        history is down) would read as references to whatever later answers number the same."""
        asked.finish(self.store, self.user_id, flight, "stopped")
        self.keep_plain(flight["conversation_id"], flight["text"], strip_markers(flight.get("partial", "")),
                        stopped=True)

    def keep_plain(self, cid: str | None, question: str, reply: str, **reply_fields: Any) -> None:
        """A turn answered outside the agent, saved like any turn (agent/turns.py: stored, or queued on this
        server while the history is down); kept in this browser tab when there is no history to keep it."""
        outcome = None
        if cid and self.turns is not None:
            try:
                outcome = self.turns.save_plain(self.user_id, cid, question, reply, **reply_fields)
            except OUTBOX_ERRORS as exc:
                log.error("turn not saved: history down and outbox unreadable (%s)", exc)
        if outcome is None or not (outcome.saved or outcome.queued):
            self.unsaved_turns(cid).extend(
                [conv.ChatTurn("user", question), conv.ChatTurn("assistant", reply, **reply_fields)])
        if outcome is not None and outcome.error:
            self.notify(outcome.error)

    # ----- the answer being written ------------------------------------------------------------
    def answer_text(self, events: Iterable[tuple[str, Any]], flight: dict, outcome: dict,
                    on_progress: Callable[[str], None], sleep: Callable[[float], None] = time.sleep,
                    clock: Callable[[], float] = time.monotonic) -> Iterator[str]:
        """The answer's text for `st.write_stream` as the model writes it, made safe; progress labels go
        to `on_progress`, the final AnswerResult to `outcome["answer"]`. What was written is kept in
        `flight` piece by piece, so a Stop (which aborts this run) can keep it. Pieces are sent to the page
        at most every FLUSH_S: each one `st.write_stream` gets redraws the whole answer so far, and a redraw
        per word was a replica's busiest work under load (py-spy, bench.soak). A whole answer arriving at
        once (no-model mode) is written out word by word, within about a second; a conversational reply (a
        greeting, thanks: no search) at once, since writing it out doubled its CPU on a saturated replica."""
        conversational = False
        pending, last = "", float("-inf")  # the first piece goes out at once
        for kind, value in events:
            if kind == "progress":
                conversational = conversational or value.get("route") == "conversation"
                if label := progress_label(value):
                    on_progress(label)
            elif kind == "answer":
                # The turn is finished and kept: a click from now on (Stop included) must not keep it again.
                outcome["answer"] = flight["answer"] = value
            elif kind == "token":
                words = [value] if len(value) <= 80 or conversational else value.split(" ")
                for j, word in enumerate(words):
                    piece = word if j == 0 else " " + word
                    flight["partial"] += piece
                    pending += piece
                    if clock() - last >= FLUSH_S:
                        yield safe_model_markdown(pending)
                        pending, last = "", clock()
                    if len(words) > 1:
                        sleep(min(0.02, 1.0 / len(words)))
        if pending:
            yield safe_model_markdown(pending)

    # ----- "this page" (the page last viewed in the viewer) -----------------------------------
    def page_for(self, cid: str | None) -> tuple[dict | None, dict | None]:
        """("this page", the page viewed before) when they belong to conversation `cid`.

        A page viewed in the viewer is claimed by the conversation open when the chat next shows it.
        """
        page = self.state.get(PAGE)
        if not page:
            return None, None
        page.setdefault("conversation_id", cid)
        if page["conversation_id"] != cid:
            return None, None
        prev = self.state.get(PREVIOUS_PAGE)
        return {k: page[k] for k in PAGE_KEYS}, ({k: prev[k] for k in PAGE_KEYS} if prev else None)

    def claim_page(self, cid: str | None) -> None:
        """A new conversation opened for a question claims the page viewed."""
        if self.state.get(PAGE):
            self.state[PAGE]["conversation_id"] = cid

    def forget_page(self) -> None:
        self.state.pop(PAGE, None)
        self.state.pop(PREVIOUS_PAGE, None)

    # ----- notices -----------------------------------------------------------------------------
    def notify(self, message: str) -> None:
        """A warning shown at the bottom of the page (redacted: never a secret)."""
        self.state[NOTICE] = redact(message)

    def pop_notice(self) -> str | None:
        return self.state.pop(NOTICE, None)
