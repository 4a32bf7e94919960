"""Chat history per user in MongoDB (pymongo): one document per message, full tool output kept.

API (the agent and UI code against these names)::

    store = HistoryStore(uri=None, db_name="pdf_chat")   # uri: arg, else MONGODB_URI, else embedded
    store.ping() -> True                                  # raises HistoryUnavailableError
    store.create_conversation(user_id, title="New chat", conversation_id=None) -> conversation_id
    store.list_conversations(user_id) -> [{"conversation_id", "title", "created_at", "updated_at"}]
                                          # newest activity first
    store.get_conversation(user_id, conversation_id) -> dict (same keys)
    store.rename_conversation(user_id, conversation_id, title)
    store.delete_conversation(user_id, conversation_id)   # its messages too
    store.load_messages(user_id, conversation_id, limit=None) -> [message dict] in order
        each: message_id, conversation_id, seq, role, content, created_at, + the stored fields;
        tool messages also carry `sources` (list of Source dumps with their ids) and `result_count`.
    store.get_tool_messages(user_id, message_ids, conversation_id=None) -> [tool message dict]
        only the caller's messages; unknown or foreign ids are silently absent.
    store.get_state(user_id, conversation_id) -> {"rag_counter", "web_counter", "sources"}

    store.allocate_source_ids(user_id, conversation_id, [(key, family, source_dump), ...]) -> [source_id]
        the conversation's source registry (storage/history/registry.py): a key seen before gets
        the id it already has, a new one `[^n]` ("rag") or `{^n}` ("web"); retrying returns the same id.
    store.save_turn(user_id, conversation_id, turn_id, messages) -> None
        a whole turn (list of {"role", "content", "message_id", **fields}): every message written
        with the turn id, then a commit marker; `load_messages` ignores uncommitted turns, so a
        turn is stored whole or not at all. Idempotent: re-running after a failure finishes it.
        role: "user" | "ai" | "tool". Fields stored as given (JSON-like values), e.g.
        tool: tool_name, tool_call_id, sources (list of Source / dumps; else parsed from content)
        ai:   tool_calls, citations (list of Citation / dumps), citation_map, route, mode

Errors: `HistoryUnavailableError` (server down/unreachable, or it refuses the credentials or
rights of the URI: codes 18 and 13; message says what to do, never the password),
`HistoryConfigError` (a malformed URI, refused by the constructor before any connection), `ConversationNotFoundError` (unknown id or another user's), `InvalidMessageIdError`
(malformed id), `MessageTooLargeError` (over `HISTORY_MAX_MESSAGE_BYTES`, default 4 MiB BSON),
`ValueError` subclasses for other bad input. All derive from `HistoryError` (storage/history/errors.py).
Input checks: storage/history/validation.py; URIs: storage/history/uri.py; message documents:
storage/history/messages.py; a tool message's JSON: storage/history/tool_json.py.

Collections: `conversations` {_id, user_id, title, created_at, updated_at_ms, next_seq,
rag_counter, web_counter, sources: [Source dump] (registry of conversations from before the
`sources` collection; still read)},
`messages` {_id: message_id, user_id, conversation_id, seq, role, content, created_at, turn_id, ...},
`turns` {_id: turn_id, user_id, conversation_id, committed_at} (commit markers) and
`sources` {user_id, conversation_id, key, source_id, source, created_at} under unique indexes
(user_id, conversation_id, key) and (user_id, conversation_id, source_id).
`seq` comes from an atomic `find_one_and_update($inc)` on the conversation document (checked on
nx-27017 under concurrent writers) and a unique (user_id, conversation_id, seq) index backs it up,
so two tabs writing to one conversation lose nothing and keep order. Ids are client-generated
(uuid4 hex), so a retried insert is idempotent (duplicate `_id` = already written).

Kept deliberately simple for nx-27017 (and any MongoDB): no `$push`, no positional `$set`, no
`$slice`, no index drops, no dotted paths (nx-27017 returns a dotted projection as a flat
"a.b" key). Timestamps that change (`updated_at_ms`) are epoch-milliseconds integers: without
neosqlite's fallback, nx-27017 stores a `$set` datetime as a string, which then sorts wrongly. Dict fields whose keys may contain "." or "$" (`citation_map`, the
source registry) are stored as lists of pairs.

More nx-27017 behaviour, checked by trying it (tests/storage/history/test_history_registry.py covers the parts used):
- `find_one_and_update(..., upsert=True)` inserts the filter fields but ignores `$setOnInsert`
  (the inserted document lacks those fields). `update_one(..., upsert=True)` applies it. So the
  registry upserts with `update_one` + `$setOnInsert` and reads the winner back with `find_one`.
- Unique compound indexes are enforced (DuplicateKeyError, code 11000), also between concurrent
  clients; `find_one_and_update` with `$inc` hands out distinct values under concurrent writers.
- `insert_many(ordered=False)` with one duplicate `_id` inserts the others and raises
  BulkWriteError; turns are written message by message instead, each insert idempotent by `_id`.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Mapping, TypeVar

from pymongo import ASCENDING, DESCENDING, MongoClient, ReturnDocument
from pymongo.errors import ConfigurationError, ConnectionFailure, DuplicateKeyError, OperationFailure

from storage.history import registry
from storage.history.embedded_server import EmbeddedServerError, ensure_server
from storage.history.errors import (
    ConversationNotFoundError,
    HistoryConfigError,
    HistoryError,
    HistoryUnavailableError,
    InvalidHistoryInputError,
    InvalidMessageIdError,
    MessageTooLargeError,
)
from storage.history.messages import ROLES, Role, activity_ms, message_doc, now, public_message, whole_turns
from storage.history.uri import check_uri, redact_uri, refusal
from storage.history.validation import (
    MAX_TITLE_CHARS,
    MAX_USER_ID_CHARS,
    check_conversation,
    check_id,
    check_title,
    check_user,
    is_valid_id,
    new_id,
    not_found,
    owned_conversation,
)
from storage.settings import get_settings

# Callers import the errors and id helpers from here (storage/history/store.py is the API module).
__all__ = [
    "HistoryStore", "HistoryError", "HistoryUnavailableError", "HistoryConfigError", "ConversationNotFoundError",
    "InvalidMessageIdError", "MessageTooLargeError", "InvalidHistoryInputError", "new_id", "is_valid_id",
    "check_uri", "redact_uri", "Role", "ROLES", "MAX_TITLE_CHARS", "MAX_USER_ID_CHARS",
]

log = logging.getLogger("storage.history.store")
T = TypeVar("T")


class HistoryStore:
    """Conversations and messages of each user. Thread-safe; share one per process."""

    def __init__(
        self,
        uri: str | None = None,
        db_name: str = "pdf_chat",
        *,
        timeout_ms: int | None = None,
        max_message_bytes: int | None = None,
    ) -> None:
        settings = get_settings().history
        configured = settings.mongodb_uri.get_secret_value() if settings.mongodb_uri else None
        self._explicit_uri = uri or configured or None
        if self._explicit_uri is not None:
            check_uri(self._explicit_uri)
        self.embedded = self._explicit_uri is None
        self.db_name = db_name
        self.timeout_ms = timeout_ms or settings.timeout_ms
        self.max_message_bytes = max_message_bytes or settings.max_message_bytes
        self._lock = threading.Lock()
        self._client: MongoClient | None = None
        self._uri: str | None = self._explicit_uri
        self._indexes_ready = False

    # ----- connection -------------------------------------------------------------------------
    @property
    def where(self) -> str:
        """Where the history lives, safe to show (no credentials)."""
        return redact_uri(self._uri) if self._uri else "embedded nx-27017 (not started yet)"

    @property
    def server(self) -> str:
        """The configured server without credentials, or "embedded" (names the outbox file)."""
        return redact_uri(self._explicit_uri) if self._explicit_uri else "embedded"

    def _connect(self, restart_embedded: bool = False) -> MongoClient:
        with self._lock:
            if self._client is not None and not restart_embedded:
                return self._client
            if self.embedded:
                try:
                    uri = ensure_server().uri
                except (EmbeddedServerError, OSError, TimeoutError) as exc:
                    raise HistoryUnavailableError(f"The local chat history server could not be started: {exc}") from exc
                if uri != self._uri and self._client is not None:
                    self._client.close()
                    self._client = None
                self._uri = uri
            if self._client is None:
                try:
                    self._client = self._new_client()
                except ConfigurationError as exc:  # e.g. the DNS records of a mongodb+srv host not found
                    raise HistoryUnavailableError(
                        f"The chat history database at {self.where} cannot be reached ({type(exc).__name__}).") from None
            return self._client

    def _new_client(self) -> MongoClient:
        return MongoClient(self._uri, tz_aware=True, serverSelectionTimeoutMS=self.timeout_ms,
                           connectTimeoutMS=self.timeout_ms, socketTimeoutMS=max(self.timeout_ms * 5, 15000),
                           appname="pdf-chat-history")

    def run_on_database(self, op: Callable[[Any], T]) -> T:
        """Run `op(db)` on this store's database; map connection failures to HistoryUnavailableError.

        Every read and write of the store goes through here (so do other collections of the product,
        e.g. storage/jobs/records.py's `ingest_jobs`). The embedded server is restarted once if it
        died (a crash or a machine restart); a remote server is not ours to restart.
        """
        for attempt in (0, 1):
            try:
                db = self._connect(restart_embedded=attempt == 1)[self.db_name]
                if not self._indexes_ready:
                    self._create_indexes(db)
                return op(db)
            except ConnectionFailure as exc:  # ServerSelectionTimeoutError included
                if attempt == 0 and self.embedded:
                    log.warning("history server unreachable (%s); restarting the embedded server", type(exc).__name__)
                    continue
                raise HistoryUnavailableError(
                    f"The chat history database at {self.where} is unavailable ({type(exc).__name__})."
                ) from None
            except OperationFailure as exc:
                if (refused := refusal(exc)) is None:
                    raise
                log.warning("history server %s refused access (code %s)", self.where, exc.code)
                raise HistoryUnavailableError(f"The chat history database at {self.where} {refused}.") from None
        raise AssertionError("unreachable")

    def _create_indexes(self, db) -> None:
        db.messages.create_index([("user_id", ASCENDING), ("conversation_id", ASCENDING), ("seq", ASCENDING)], unique=True)
        db.messages.create_index([("user_id", ASCENDING), ("role", ASCENDING)])
        db.conversations.create_index([("user_id", ASCENDING), ("updated_at_ms", DESCENDING)])
        db.turns.create_index([("user_id", ASCENDING), ("conversation_id", ASCENDING)])
        conv_key = [("user_id", ASCENDING), ("conversation_id", ASCENDING)]
        db.sources.create_index([*conv_key, ("key", ASCENDING)], unique=True)
        db.sources.create_index([*conv_key, ("source_id", ASCENDING)], unique=True)
        self._indexes_ready = True

    def ping(self) -> bool:
        self.run_on_database(lambda db: db.command("ping"))
        return True

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    # ----- conversations ----------------------------------------------------------------------
    def create_conversation(self, user_id: str, title: str = "New chat", conversation_id: str | None = None) -> str:
        """A new conversation; `conversation_id` (one made by `new_id`) when it was opened while the
        store was down. Creating the same id again for its user is a no-op."""
        check_user(user_id)
        title = check_title(title)
        conversation_id = new_id() if conversation_id is None else check_id(conversation_id, "conversation id")
        doc = {"_id": conversation_id, "user_id": user_id, "title": title, "created_at": now(),
               "updated_at_ms": activity_ms(), "next_seq": 0, "rag_counter": 0, "web_counter": 0, "sources": []}

        def op(db):
            try:
                db.conversations.insert_one(doc)
            except DuplicateKeyError:  # a retried insert that had landed
                owned_conversation(db, user_id, conversation_id, {"_id": 1})

        self.run_on_database(op)
        return conversation_id

    @staticmethod
    def _public_conversation(doc: dict) -> dict:
        updated = doc.get("updated_at_ms")
        return {"conversation_id": doc["_id"], "title": doc.get("title", ""), "created_at": doc.get("created_at"),
                "updated_at": datetime.fromtimestamp(updated / 1000, timezone.utc) if updated is not None else None}

    def list_conversations(self, user_id: str) -> list[dict]:
        check_user(user_id)
        projection = {"title": 1, "created_at": 1, "updated_at_ms": 1}
        sort = [("updated_at_ms", DESCENDING), ("_id", ASCENDING)]
        docs = self.run_on_database(lambda db: list(db.conversations.find({"user_id": user_id}, projection).sort(sort)))
        return [self._public_conversation(d) for d in docs]

    def get_conversation(self, user_id: str, conversation_id: str) -> dict:
        check_conversation(user_id, conversation_id)
        return self._public_conversation(self.run_on_database(lambda db: owned_conversation(db, user_id, conversation_id)))

    def rename_conversation(self, user_id: str, conversation_id: str, title: str) -> None:
        check_conversation(user_id, conversation_id)
        title = check_title(title)
        result = self.run_on_database(lambda db: db.conversations.update_one(
            {"_id": conversation_id, "user_id": user_id}, {"$set": {"title": title, "updated_at_ms": activity_ms()}}))
        if result.matched_count == 0:
            raise not_found(conversation_id)

    def delete_conversation(self, user_id: str, conversation_id: str) -> None:
        """Delete a conversation and its messages. Re-running after a failure finishes the job."""
        check_conversation(user_id, conversation_id)

        def op(db):
            owned_conversation(db, user_id, conversation_id, {"_id": 1})
            for part in (db.messages, db.turns, db.sources):
                part.delete_many({"user_id": user_id, "conversation_id": conversation_id})
            db.conversations.delete_one({"_id": conversation_id, "user_id": user_id})

        self.run_on_database(op)

    # ----- messages ---------------------------------------------------------------------------
    def load_messages(self, user_id: str, conversation_id: str, limit: int | None = None) -> list[dict]:
        """The conversation's messages in order (the last `limit` ones if given)."""
        check_conversation(user_id, conversation_id)
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 0):
            raise InvalidHistoryInputError(f"limit must be None or a non-negative integer, got {limit!r}.")

        def op(db):
            owned_conversation(db, user_id, conversation_id, {"_id": 1})
            query = {"user_id": user_id, "conversation_id": conversation_id}
            committed = {t["_id"] for t in db.turns.find(query, {"_id": 1})}
            if limit is None:
                return committed, list(db.messages.find(query).sort("seq", ASCENDING))
            n = limit  # the newest `n` messages, more when uncommitted ones are among them
            while True:
                docs = list(db.messages.find(query).sort("seq", DESCENDING).limit(n))
                shown = sum(1 for d in docs if d.get("turn_id") is None or d["turn_id"] in committed)
                if shown >= limit or len(docs) < n:
                    return committed, docs[::-1]
                n *= 2

        if limit == 0:
            return []
        committed, docs = self.run_on_database(op)
        docs = whole_turns(docs, committed)
        return [public_message(d) for d in (docs if limit is None else docs[-limit:])]

    def get_tool_messages(self, user_id: str, message_ids: Iterable[str], conversation_id: str | None = None) -> list[dict]:
        """Tool messages by id, in the order asked. Another user's (or unknown) ids are simply absent."""
        check_user(user_id)
        if isinstance(message_ids, str):
            message_ids = [message_ids]
        ids = list(dict.fromkeys(check_id(m, "message id") for m in message_ids))
        if not ids:
            return []
        query: dict[str, Any] = {"_id": {"$in": ids}, "user_id": user_id, "role": "tool"}
        if conversation_id is not None:
            query["conversation_id"] = check_id(conversation_id, "conversation id")
        found = {d["_id"]: d for d in self.run_on_database(lambda db: list(db.messages.find(query)))}
        return [public_message(found[i]) for i in ids if i in found]

    def save_turn(self, user_id: str, conversation_id: str, turn_id: str, messages: list[Mapping[str, Any]]) -> None:
        """Store a whole turn: its messages (each with `turn_id`), then the commit marker.

        Every message is validated before anything is written (bad input writes nothing). The
        turn's sequence numbers are reserved with one `$inc`; each insert is idempotent by message
        id, and the marker is written last, so a turn cut off half-way is invisible to
        `load_messages` and re-running `save_turn` with the same ids completes it exactly once.
        """
        docs = self._turn_docs(user_id, conversation_id, turn_id, messages)

        def op(db):
            if db.turns.find_one({"_id": turn_id, "user_id": user_id}, {"_id": 1}) is not None:
                return  # already committed (a retry after the marker landed)
            conv = db.conversations.find_one_and_update(
                {"_id": conversation_id, "user_id": user_id},
                {"$inc": {"next_seq": len(docs)}, "$set": {"updated_at_ms": activity_ms()}},
                projection={"next_seq": 1}, return_document=ReturnDocument.AFTER)
            if conv is None:
                raise not_found(conversation_id)
            first = conv["next_seq"] - len(docs) + 1
            for i, doc in enumerate(docs):
                try:
                    db.messages.insert_one({**doc, "seq": first + i})
                except DuplicateKeyError:
                    if db.messages.find_one({"_id": doc["_id"]}, {"_id": 1}) is None:
                        raise HistoryError(f"Could not store message {doc['_id']}: its sequence number was taken.") from None
            try:
                db.turns.insert_one({"_id": turn_id, "user_id": user_id, "conversation_id": conversation_id,
                                     "committed_at": now()})
            except DuplicateKeyError:
                pass  # committed by a concurrent retry

        self.run_on_database(op)

    def _turn_docs(self, user_id: str, conversation_id: str, turn_id: str, messages: list[Mapping[str, Any]]) -> list[dict]:
        check_id(turn_id, "turn id")
        docs = []
        for msg in messages:
            fields = {k: v for k, v in msg.items() if k not in ("role", "content", "message_id", "created_at")}
            if "message_id" not in msg:
                raise InvalidHistoryInputError("Every message of a turn needs its message_id (so a retry writes it once).")
            doc = message_doc(user_id, conversation_id, msg["role"], msg.get("content", ""), msg["message_id"],
                              msg.get("created_at"), fields, self.max_message_bytes)
            docs.append({**doc, "turn_id": turn_id})
        if not docs:
            raise InvalidHistoryInputError("A turn has at least one message.")
        return docs

    # ----- citation state (storage/history/registry.py) ---------------------------------------
    def get_state(self, user_id: str, conversation_id: str) -> dict:
        """{"rag_counter", "web_counter", "sources": {source_id: Source dump}} to continue numbering."""
        check_conversation(user_id, conversation_id)
        return self.run_on_database(lambda db: registry.read_state(db, user_id, conversation_id))

    def allocate_source_ids(self, user_id: str, conversation_id: str,
                            requests: Iterable[tuple[str, str, Mapping[str, Any]]]) -> list[str]:
        """The registry's id for each (key, family, source): the id the key already has, else a new one
        (family "rag" -> `[^n]`, "web" -> `{^n}`); see storage/history/registry.py."""
        check_conversation(user_id, conversation_id)
        reqs = list(requests)
        dumps = registry.checked_requests(reqs)
        return self.run_on_database(lambda db: registry.allocate(db, user_id, conversation_id, reqs, dumps))
