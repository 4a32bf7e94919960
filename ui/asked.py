"""The chat's side of storage/history/asked.py: a question is stored as pending when it is asked and
completed when its turn is kept, stopped or failed; a page opening a conversation turns a pending
question that no replica is answering any more (its replica died mid-answer) into a stored turn
marked interrupted, shown with "Ask again", and reports the ones still being answered elsewhere.

All best effort: the history being down never stops a question from being answered.
"""

from __future__ import annotations

import logging
from typing import Any

from storage.history.asked import LIVE, AskedQuestions, is_interrupted
from storage.history.store import HistoryError

log = logging.getLogger(__name__)

INTERRUPTED_REPLY = ""  # nothing of the answer survived its replica; the turn is marked `interrupted`
_asked: dict[int, AskedQuestions] = {}


def asked_of(store) -> AskedQuestions | None:
    if store is None or not hasattr(store, "run_on_database"):  # a store without collections of its own (tests' fakes)
        return None
    return _asked.setdefault(id(store), AskedQuestions(store))


def record(store, user_id: str, cid: str | None, question: str) -> str | None:
    """Store the question as pending and beat it from this process while it runs; its id, or None."""
    asked = asked_of(store) if cid else None
    if asked is None:
        return None
    try:
        ask_id = asked.ask(user_id, cid, question)
    except (HistoryError, ValueError) as exc:
        log.warning("question not recorded as pending: %s", exc)
        return None
    LIVE.add(asked, ask_id)
    return ask_id


def finish(store, user_id: str, flight: dict | None, state: str) -> None:
    """The question of `flight` ended (`state`: answered, stopped, failed, asked_again)."""
    ask_id = (flight or {}).get("ask_id")
    if not ask_id:
        return
    LIVE.remove(ask_id)
    if (asked := asked_of(store)) is not None:
        try:
            asked.complete(user_id, ask_id, state)
        except HistoryError as exc:  # left pending: it reads as interrupted later, never lost
            log.warning("asked question %s not completed: %s", ask_id, exc)


def settle(session, cid: str | None, in_flight_id: str | None = None) -> list[dict[str, Any]]:
    """Store each pending question of `cid` that no replica answers any more as an interrupted turn
    (once, whichever page claims it); return the ones still being answered elsewhere."""
    asked = asked_of(session.store) if cid else None
    if asked is None:
        return []
    try:
        pending = asked.pending(session.user_id, cid)
    except HistoryError as exc:
        log.warning("pending questions not read: %s", exc)
        return []
    answering = []
    for rec in pending:
        if rec["_id"] == in_flight_id:
            continue  # this tab's own question (being answered, or interrupted by a click: shown by the page)
        if not is_interrupted(rec):
            answering.append(rec)
            continue
        try:
            if asked.claim_interrupted(session.user_id, rec["_id"]):
                session.keep_plain(cid, rec["question"], INTERRUPTED_REPLY, stopped=True, interrupted=True)
        except HistoryError as exc:
            log.warning("interrupted question %s not stored: %s", rec["_id"], exc)
    return answering
