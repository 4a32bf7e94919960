"""Turns the history database could not take, kept on disk until it can (SQLite, one row a turn).

    outbox = TurnOutbox.for_store(store)   # one file per history database, beside the embedded server's data
    outbox = TurnOutbox(path)
    outbox.put(turn)                       # turn: JSON-like dict with "turn_id", "user_id", "conversation_id"
    outbox.pending(user_id=None, conversation_id=None) -> [turn] in the order they were put
    outbox.remove(turn_id)
    outbox.put_conversation(user_id, conversation_id, title)   # a conversation opened while the store was down
    outbox.pending_conversations(user_id=None) -> [{"user_id", "conversation_id", "title"}], oldest first
    outbox.remove_conversation(conversation_id)

`put` is idempotent by turn id (a turn queued twice is kept once, at its first place). The file
survives an app restart; SQLite's locking makes it safe for several app processes. Flushing (and
renumbering a queued turn's citation ids against the store) is the agent's job: agent/turns.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

from storage.history.embedded_server import default_data_dir
from storage.settings import get_settings

FILE_NAME = "turn-outbox.sqlite"


def default_outbox_path(database: str = "") -> Path:
    """`PDF_CHAT_OUTBOX` (a folder) if set, else the embedded history server's data folder; one
    file per history database (`database` names it), so turns never go to another database."""
    configured = get_settings().history.outbox_dir
    folder = configured.expanduser().resolve() if configured else default_data_dir()
    suffix = f"-{hashlib.sha1(database.encode()).hexdigest()[:12]}" if database else ""
    return folder / FILE_NAME.replace(".sqlite", f"{suffix}.sqlite")


class TurnOutbox:
    def __init__(self, path: str | os.PathLike | None = None) -> None:
        self.path = Path(path) if path else default_outbox_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        with self._db() as db:
            db.execute("CREATE TABLE IF NOT EXISTS turns (pos INTEGER PRIMARY KEY AUTOINCREMENT, turn_id TEXT UNIQUE NOT NULL,"
                       " user_id TEXT NOT NULL, conversation_id TEXT NOT NULL, body TEXT NOT NULL)")
            db.execute("CREATE TABLE IF NOT EXISTS conversations (pos INTEGER PRIMARY KEY AUTOINCREMENT,"
                       " conversation_id TEXT UNIQUE NOT NULL, user_id TEXT NOT NULL, title TEXT NOT NULL)")

    @classmethod
    def for_store(cls, store: Any) -> "TurnOutbox":
        """The outbox of a `HistoryStore`: keyed by its server (credentials left out) and database."""
        return cls(default_outbox_path(f"{store.server}/{store.db_name}"))

    def _db(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")  # a queued turn must survive a crash of the machine
        return db

    def put(self, turn: dict[str, Any]) -> None:
        body = json.dumps(turn, ensure_ascii=False, default=str)
        with self._lock, self._db() as db:
            db.execute("INSERT OR IGNORE INTO turns (turn_id, user_id, conversation_id, body) VALUES (?, ?, ?, ?)",
                       (turn["turn_id"], turn["user_id"], turn["conversation_id"], body))

    def pending(self, user_id: str | None = None, conversation_id: str | None = None) -> list[dict]:
        query, args = "SELECT body FROM turns", []
        where = [(c, v) for c, v in (("user_id", user_id), ("conversation_id", conversation_id)) if v is not None]
        if where:
            query += " WHERE " + " AND ".join(f"{c} = ?" for c, _ in where)
            args = [v for _, v in where]
        with self._lock, self._db() as db:
            rows = db.execute(query + " ORDER BY pos", args).fetchall()
        return [json.loads(body) for (body,) in rows]

    def remove(self, turn_id: str) -> None:
        with self._lock, self._db() as db:
            db.execute("DELETE FROM turns WHERE turn_id = ?", (turn_id,))

    def put_conversation(self, user_id: str, conversation_id: str, title: str) -> None:
        with self._lock, self._db() as db:
            db.execute("INSERT OR IGNORE INTO conversations (conversation_id, user_id, title) VALUES (?, ?, ?)",
                       (conversation_id, user_id, title))

    def pending_conversations(self, user_id: str | None = None) -> list[dict]:
        query, args = "SELECT user_id, conversation_id, title FROM conversations", ()
        if user_id is not None:
            query, args = query + " WHERE user_id = ?", (user_id,)
        with self._lock, self._db() as db:
            rows = db.execute(query + " ORDER BY pos", args).fetchall()
        return [{"user_id": u, "conversation_id": c, "title": t} for u, c, t in rows]

    def remove_conversation(self, conversation_id: str) -> None:
        with self._lock, self._db() as db:
            db.execute("DELETE FROM conversations WHERE conversation_id = ?", (conversation_id,))

    def __len__(self) -> int:
        with self._lock, self._db() as db:
            return db.execute("SELECT COUNT(*) FROM turns").fetchone()[0]
