"""Questions being answered, stored the moment they are asked, so a question whose replica dies
mid-answer is not lost: the next page that opens its conversation finds it and offers it again.

    asked = AskedQuestions(store)                       # the `asked` collection of a HistoryStore's database
    ask_id = asked.ask(user_id, conversation_id, "What was revenue?")   # pending, beating from this replica
    LIVE.add(asked, ask_id)                             # this process beats it every BEAT_S while it runs
    asked.complete(user_id, ask_id, "answered")         # the turn is stored: the record is completed in place
    asked.pending(user_id, conversation_id)             # [record] still pending, oldest first
    asked.claim_interrupted(user_id, ask_id)            # True for the one caller that takes a dead one over

A pending record is *interrupted* when no replica is streaming it: its replica is this process and
no longer runs it (`LIVE`), or its heartbeat is older than STALE_S (the replica was killed, the
machine restarted). Records: {_id, user_id, conversation_id, question, replica, asked_ms, beat_ms,
state: pending | answered | stopped | failed | interrupted | asked_again}.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from typing import Any

from pymongo import ASCENDING

from storage.history.validation import check_conversation, check_id, check_user, new_id

log = logging.getLogger(__name__)

BEAT_S = 2.0  # a replica refreshes the heartbeat of each question it is answering this often
STALE_S = 8.0  # no heartbeat for this long: no replica is answering it
DONE_STATES = ("answered", "stopped", "failed", "interrupted", "asked_again")
# This process: a restarted replica on the same host and port is another replica.
REPLICA = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _now_ms() -> int:
    return int(time.time() * 1000)


class AskedQuestions:
    """The `asked` collection, through `HistoryStore.run_on_database` (its errors: HistoryError)."""

    def __init__(self, store) -> None:
        self.store = store
        self._indexed = False

    def _run(self, op):
        def with_index(db):
            if not self._indexed:
                db.asked.create_index([("user_id", ASCENDING), ("conversation_id", ASCENDING), ("state", ASCENDING)])
                self._indexed = True
            return op(db.asked)

        return self.store.run_on_database(with_index)

    def ask(self, user_id: str, conversation_id: str, question: str, replica: str = REPLICA) -> str:
        check_conversation(user_id, conversation_id)
        ask_id, now = new_id(), _now_ms()
        doc = {"_id": ask_id, "user_id": user_id, "conversation_id": conversation_id, "question": str(question),
               "replica": replica, "asked_ms": now, "beat_ms": now, "state": "pending"}
        self._run(lambda c: c.insert_one(doc))
        return ask_id

    def beat(self, ask_ids: list[str]) -> None:
        if ask_ids:
            now = _now_ms()
            self._run(lambda c: c.update_many({"_id": {"$in": list(ask_ids)}, "state": "pending"},
                                              {"$set": {"beat_ms": now}}))

    def complete(self, user_id: str, ask_id: str, state: str) -> None:
        """The question's outcome, written in place (a finished record is never shown again)."""
        if state not in DONE_STATES:
            raise ValueError(f"unknown state {state!r}")
        check_user(user_id)
        check_id(ask_id, "ask id")
        self._run(lambda c: c.update_one({"_id": ask_id, "user_id": user_id},
                                         {"$set": {"state": state, "done_ms": _now_ms()}}))

    def pending(self, user_id: str, conversation_id: str) -> list[dict[str, Any]]:
        check_conversation(user_id, conversation_id)
        return self._run(lambda c: list(c.find({"user_id": user_id, "conversation_id": conversation_id,
                                                "state": "pending"}).sort("asked_ms", ASCENDING)))

    def claim_interrupted(self, user_id: str, ask_id: str) -> bool:
        """Mark a pending question interrupted; True only for the caller whose update did it (two pages
        finding the same dead question store it once)."""
        check_user(user_id)
        result = self._run(lambda c: c.update_one({"_id": ask_id, "user_id": user_id, "state": "pending"},
                                                  {"$set": {"state": "interrupted", "done_ms": _now_ms()}}))
        return result.modified_count == 1


def is_interrupted(record: dict, now_ms: int | None = None, replica: str = REPLICA,
                   live: "LiveQuestions | None" = None) -> bool:
    """No replica is answering this pending question: ours does not run it, or its heartbeat stopped."""
    live = LIVE if live is None else live
    if record.get("replica") == replica and not live.running(record["_id"]):
        return True
    return ((now_ms if now_ms is not None else _now_ms()) - int(record.get("beat_ms") or 0)) > STALE_S * 1000


class LiveQuestions:
    """The questions this process is answering; one daemon thread beats them every BEAT_S."""

    def __init__(self, interval_s: float = BEAT_S) -> None:
        self.interval_s = interval_s
        self._lock = threading.Lock()
        self._running: dict[str, AskedQuestions] = {}
        self._thread: threading.Thread | None = None

    def add(self, asked: AskedQuestions, ask_id: str) -> None:
        with self._lock:
            self._running[ask_id] = asked
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._beat_forever, name="asked-heartbeat", daemon=True)
                self._thread.start()

    def remove(self, ask_id: str | None) -> None:
        with self._lock:
            self._running.pop(ask_id, None)

    def running(self, ask_id: str) -> bool:
        with self._lock:
            return ask_id in self._running

    def count(self) -> int:
        with self._lock:
            return len(self._running)

    def _beat_forever(self) -> None:
        while True:
            time.sleep(self.interval_s)
            with self._lock:
                by_store: dict[int, tuple[AskedQuestions, list[str]]] = {}
                for ask_id, asked in self._running.items():
                    by_store.setdefault(id(asked), (asked, []))[1].append(ask_id)
            for asked, ids in by_store.values():
                try:
                    asked.beat(ids)
                except Exception as exc:  # noqa: BLE001 - a missed beat is retried; the thread must not die
                    log.warning("heartbeat of %d asked questions failed: %s", len(ids), exc)


LIVE = LiveQuestions()
