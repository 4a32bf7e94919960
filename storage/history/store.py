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
    store.append_message(user_id, conversation_id, role, content, *, message_id=None,
                         created_at=None, **fields) -> message_id
        role: "user" | "ai" | "tool". Fields stored as given (JSON-like values), e.g.
        tool: tool_name, tool_call_id, sources (list of Source / dumps; else parsed from content)
        ai:   tool_calls, citations (list of Citation / dumps), citation_map, route, mode
    store.load_messages(user_id, conversation_id, limit=None) -> [message dict] in order
        each: message_id, conversation_id, seq, role, content, created_at, + the stored fields;
        tool messages also carry `sources` (list of Source dumps with their ids) and `result_count`.
    store.get_tool_messages(user_id, message_ids, conversation_id=None) -> [tool message dict]
        only the caller's messages; unknown or foreign ids are silently absent.
    store.get_state(user_id, conversation_id) -> {"rag_counter", "web_counter", "sources"}

    store.allocate_source_ids(user_id, conversation_id, [(key, family, source_dump), ...]) -> [source_id]
        the conversation's source registry: one document per (conversation, source key); a key
        seen before gets the id it already has, a new one `[^n]` (family "rag") or `{^n}` ("web")
        from an atomic `$inc`. Safe across threads, tabs and processes; retrying returns the same id.
    store.save_turn(user_id, conversation_id, turn_id, messages) -> None
        a whole turn (list of {"role", "content", "message_id", **fields}): every message written
        with the turn id, then a commit marker; `load_messages` ignores uncommitted turns, so a
        turn is stored whole or not at all. Idempotent: re-running after a failure finishes it.

Errors: `HistoryUnavailableError` (server down/unreachable, or it refuses the credentials or
rights of the URI: codes 18 and 13; message says what to do, never the password),
`HistoryConfigError` (a malformed URI, refused by the constructor before any connection), `ConversationNotFoundError` (unknown id or another user's), `InvalidMessageIdError`
(malformed id), `MessageTooLargeError` (over `HISTORY_MAX_MESSAGE_BYTES`, default 4 MiB BSON),
`ValueError` subclasses for other bad input. All derive from `HistoryError`.

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

More nx-27017 behaviour, checked by trying it (tests/test_history_registry.py covers the parts used):
- `find_one_and_update(..., upsert=True)` inserts the filter fields but ignores `$setOnInsert`
  (the inserted document lacks those fields). `update_one(..., upsert=True)` applies it. So the
  registry upserts with `update_one` + `$setOnInsert` and reads the winner back with `find_one`.
- Unique compound indexes are enforced (DuplicateKeyError, code 11000), also between concurrent
  clients; `find_one_and_update` with `$inc` hands out distinct values under concurrent writers.
- `insert_many(ordered=False)` with one duplicate `_id` inserts the others and raises
  BulkWriteError; turns are written message by message instead, each insert idempotent by `_id`.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import uuid
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Literal, Mapping, TypeVar

import bson
from bson.errors import InvalidDocument
from pydantic import BaseModel, ValidationError
from pymongo import ASCENDING, DESCENDING, MongoClient, ReturnDocument
from pymongo.errors import (
    ConfigurationError,
    ConnectionFailure,
    DuplicateKeyError,
    OperationFailure,
    ServerSelectionTimeoutError,
)
from pymongo.uri_parser import parse_uri

from storage.schema import Citation, Source
from storage.settings import get_settings

log = logging.getLogger("storage.history.store")

Role = Literal["user", "ai", "tool"]
ROLES: tuple[str, ...] = ("user", "ai", "tool")
_ID_RE = re.compile(r"[0-9a-f]{32}")
_RESERVED = {"_id", "message_id", "user_id", "conversation_id", "seq", "role", "content", "created_at"}
_PAIR_FIELDS = ("citation_map",)  # dicts stored as [{"key", "value"}] (keys may hold "." or "$")
_STATE_PROJECTION = {"rag_counter": 1, "web_counter": 1, "sources": 1}
MAX_TITLE_CHARS = 200
MAX_USER_ID_CHARS = 256
T = TypeVar("T")


class HistoryError(Exception):
    """Base class of history store errors."""


class HistoryUnavailableError(HistoryError):
    """The history database cannot be reached; nothing was read or written."""


class HistoryConfigError(HistoryError, ValueError):
    """`MONGODB_URI` (or the uri given) is not a MongoDB URI; refused before any connection."""


class ConversationNotFoundError(HistoryError, LookupError):
    """No such conversation for this user (it never existed, was deleted, or is someone else's)."""


class InvalidMessageIdError(HistoryError, ValueError):
    """A message or conversation id is not in the expected format."""


class MessageTooLargeError(HistoryError, ValueError):
    """A message is over the size limit; nothing was written."""


class InvalidHistoryInputError(HistoryError, ValueError):
    """Other bad input (unknown role, empty user id, reserved field name, ...)."""


def new_id() -> str:
    return uuid.uuid4().hex


def _now() -> datetime:
    # Millisecond precision: what BSON dates hold, so a value reads back equal to what was written.
    now = datetime.now(timezone.utc)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


_activity_lock = threading.Lock()
_last_activity_ms = 0


def _activity_ms() -> int:
    """Epoch ms for "last activity", strictly increasing within the process, so two updates in the
    same millisecond still order conversations by which was touched last."""
    global _last_activity_ms
    with _activity_lock:
        _last_activity_ms = max(_ms(_now()), _last_activity_ms + 1)
        return _last_activity_ms


def is_valid_id(value: Any) -> bool:
    """True for a well-formed message/conversation id (32 lowercase hex characters)."""
    return isinstance(value, str) and bool(_ID_RE.fullmatch(value))


def _check_id(value: Any, what: str) -> str:
    if not isinstance(value, str) or not _ID_RE.fullmatch(value):
        shown = repr(value)[:60]
        raise InvalidMessageIdError(f"Malformed {what} {shown}: expected 32 lowercase hex characters.")
    return value


def _check_user(user_id: Any) -> str:
    if not isinstance(user_id, str) or not user_id.strip() or len(user_id) > MAX_USER_ID_CHARS:
        raise InvalidHistoryInputError(f"user_id must be a non-empty string of at most {MAX_USER_ID_CHARS} characters.")
    return user_id


def _check_title(title: Any) -> str:
    if not isinstance(title, str) or not title.strip():
        raise InvalidHistoryInputError("A conversation title must be a non-empty string.")
    title = " ".join(title.split())
    if len(title) > MAX_TITLE_CHARS:
        raise InvalidHistoryInputError(f"A conversation title can have at most {MAX_TITLE_CHARS} characters (got {len(title)}).")
    return title


def _dump(value: Any) -> Any:
    """Pydantic models -> JSON-like dicts, recursively."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, Mapping):
        return {str(k): _dump(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_dump(v) for v in value]
    return value


def _validated(items: Any, model: type[BaseModel], field: str) -> list[dict]:
    if not isinstance(items, (list, tuple)):
        raise InvalidHistoryInputError(f"`{field}` must be a list, got {type(items).__name__}.")
    try:
        return [model.model_validate(_dump(item)).model_dump(mode="json") for item in items]
    except ValidationError as exc:
        raise InvalidHistoryInputError(f"`{field}` holds an invalid {model.__name__}: {exc.errors()[0]['msg']}") from exc


def _to_pairs(mapping: Mapping[str, Any]) -> list[dict]:
    return [{"key": str(k), "value": _dump(v)} for k, v in mapping.items()]


def _from_pairs(pairs: Any) -> dict[str, Any]:
    if isinstance(pairs, dict):
        return pairs
    return {p["key"]: p["value"] for p in pairs or []}


def sources_from_tool_content(content: str) -> tuple[list[dict], dict]:
    """Parse a tool output JSON string (the tool contract) -> (sources, the rest). Non-JSON -> ([], {})."""
    try:
        payload = json.loads(content)
    except (TypeError, ValueError):
        return [], {}
    if not isinstance(payload, dict):
        return [], {}
    sources = payload.get("sources") if isinstance(payload.get("sources"), list) else []
    return [s for s in sources if isinstance(s, dict)], payload


def redact_uri(uri: str) -> str:
    """`mongodb://user:secret@host/db?x` -> `mongodb://host` (for messages and logs)."""
    try:
        nodes = parse_uri(uri, validate=False, warn=True).get("nodelist") or []
        hosts = ",".join(f"{h}:{p}" for h, p in nodes)
    except Exception:  # noqa: BLE001 - never let a bad URI leak through an error message
        hosts = "<unparsable uri>"
    scheme = "mongodb+srv" if uri.startswith("mongodb+srv") else "mongodb"
    return f"{scheme}://{hosts}"


def check_uri(uri: str) -> None:
    """Raise HistoryConfigError, saying what is wrong but never the password, for a malformed URI.

    A `mongodb+srv://` URI is checked for syntax only: resolving its DNS records is the
    connection's job (a failure there is an outage, not bad configuration)."""
    srv = uri.startswith("mongodb+srv://")
    authority = uri.split("://", 1)[-1].split("/", 1)[0]
    userinfo, _, hosts = authority.rpartition("@")
    reason = "a mongodb+srv:// URI names one host, without a port" if srv and (":" in hosts or "," in hosts) else None
    try:
        parse_uri("mongodb://" + uri[len("mongodb+srv://"):] if srv else uri, validate=True, warn=False)
    except (ConfigurationError, ValueError) as exc:
        reason = str(exc)
        for secret in filter(None, (userinfo, userinfo.partition(":")[2])):
            reason = reason.replace(secret, "***")
    if reason:
        raise HistoryConfigError(f"MONGODB_URI is not a valid MongoDB URI ({reason}). Chat history is off until it "
                                 "is fixed (mongodb://user:password@host:port/, password URL-encoded) and the app "
                                 "restarted.")


def _refusal(exc: OperationFailure) -> str | None:
    """What to tell the user when the server refuses the credentials or the rights; None otherwise."""
    if exc.code == 18:  # AuthenticationFailed
        return "refused the user name or password in MONGODB_URI (authentication failed)"
    if exc.code == 13:  # Unauthorized
        return "does not let the user in MONGODB_URI read and write the history (not authorized)"
    return None


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

    def _connect(self, restart_embedded: bool = False) -> MongoClient:
        with self._lock:
            if self._client is not None and not restart_embedded:
                return self._client
            if self.embedded:
                from storage.history.embedded_server import EmbeddedServerError, ensure_server

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

    def _run(self, op: Callable[[Any], T]) -> T:
        """Run `op(db)`; map connection failures to HistoryUnavailableError.

        The embedded server is restarted once if it died (a crash or a machine restart); a
        remote server is not ours to restart.
        """
        for attempt in (0, 1):
            try:
                db = self._connect(restart_embedded=attempt == 1)[self.db_name]
                if not self._indexes_ready:
                    self._create_indexes(db)
                return op(db)
            except (ConnectionFailure, ServerSelectionTimeoutError) as exc:
                if attempt == 0 and self.embedded:
                    log.warning("history server unreachable (%s); restarting the embedded server", type(exc).__name__)
                    continue
                raise HistoryUnavailableError(
                    f"The chat history database at {self.where} is unavailable ({type(exc).__name__})."
                ) from None
            except OperationFailure as exc:
                if (refusal := _refusal(exc)) is None:
                    raise
                log.warning("history server %s refused access (code %s)", self.where, exc.code)
                raise HistoryUnavailableError(f"The chat history database at {self.where} {refusal}.") from None
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

    def run_on_database(self, op: Callable[[Any], T]) -> T:
        """`op(db)` on this store's database, with its connection handling (other collections of the
        product, e.g. storage/jobs/records.py's `ingest_jobs`, live beside the history)."""
        return self._run(op)

    def ping(self) -> bool:
        self._run(lambda db: db.command("ping"))
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
        _check_user(user_id)
        title = _check_title(title)
        conversation_id = new_id() if conversation_id is None else _check_id(conversation_id, "conversation id")
        now = _now()
        doc = {"_id": conversation_id, "user_id": user_id, "title": title, "created_at": now, "updated_at_ms": _activity_ms(),
               "next_seq": 0, "rag_counter": 0, "web_counter": 0, "sources": []}

        def op(db):
            try:
                db.conversations.insert_one(doc)
            except DuplicateKeyError:  # a retried insert that had landed
                self._owned(db, user_id, conversation_id, {"_id": 1})

        self._run(op)
        return conversation_id

    @staticmethod
    def _public_conversation(doc: dict) -> dict:
        updated = doc.get("updated_at_ms")
        return {"conversation_id": doc["_id"], "title": doc.get("title", ""), "created_at": doc.get("created_at"),
                "updated_at": datetime.fromtimestamp(updated / 1000, timezone.utc) if updated is not None else None}

    def list_conversations(self, user_id: str) -> list[dict]:
        _check_user(user_id)
        projection = {"title": 1, "created_at": 1, "updated_at_ms": 1}
        sort = [("updated_at_ms", DESCENDING), ("_id", ASCENDING)]
        docs = self._run(lambda db: list(db.conversations.find({"user_id": user_id}, projection).sort(sort)))
        return [self._public_conversation(d) for d in docs]

    def _owned(self, db, user_id: str, conversation_id: str, projection: dict | None = None) -> dict:
        doc = db.conversations.find_one({"_id": conversation_id, "user_id": user_id}, projection)
        if doc is None:
            raise ConversationNotFoundError(f"No conversation {conversation_id} for this user.")
        return doc

    def get_conversation(self, user_id: str, conversation_id: str) -> dict:
        _check_user(user_id)
        _check_id(conversation_id, "conversation id")
        return self._public_conversation(self._run(lambda db: self._owned(db, user_id, conversation_id)))

    def rename_conversation(self, user_id: str, conversation_id: str, title: str) -> None:
        _check_user(user_id)
        _check_id(conversation_id, "conversation id")
        title = _check_title(title)
        result = self._run(lambda db: db.conversations.update_one(
            {"_id": conversation_id, "user_id": user_id}, {"$set": {"title": title, "updated_at_ms": _activity_ms()}}))
        if result.matched_count == 0:
            raise ConversationNotFoundError(f"No conversation {conversation_id} for this user.")

    def delete_conversation(self, user_id: str, conversation_id: str) -> None:
        """Delete a conversation and its messages. Re-running after a failure finishes the job."""
        _check_user(user_id)
        _check_id(conversation_id, "conversation id")

        def op(db):
            self._owned(db, user_id, conversation_id, {"_id": 1})
            for part in (db.messages, db.turns, db.sources):
                part.delete_many({"user_id": user_id, "conversation_id": conversation_id})
            db.conversations.delete_one({"_id": conversation_id, "user_id": user_id})

        self._run(op)

    # ----- messages ---------------------------------------------------------------------------
    def _message_doc(self, user_id: str, conversation_id: str, role: str, content: Any,
                     message_id: str | None, created_at: datetime | None, fields: dict) -> dict:
        _check_user(user_id)
        _check_id(conversation_id, "conversation id")
        if role not in ROLES:
            raise InvalidHistoryInputError(f"Unknown message role {role!r}: expected one of {', '.join(ROLES)}.")
        if not isinstance(content, str):
            raise InvalidHistoryInputError(f"Message content must be a string, got {type(content).__name__}.")
        message_id = _check_id(message_id, "message id") if message_id is not None else new_id()
        bad = sorted(k for k in fields if k in _RESERVED or k.startswith("$") or "." in k)
        if bad:
            raise InvalidHistoryInputError(f"Field name(s) not allowed in a message: {', '.join(bad)}.")
        doc: dict[str, Any] = {"_id": message_id, "user_id": user_id, "conversation_id": conversation_id,
                               "role": role, "content": content, "created_at": created_at or _now()}
        for key, value in fields.items():
            if value is None:
                continue
            if key == "citations":
                doc[key] = _validated(value, Citation, key)
            elif key == "sources":
                doc[key] = _validated(value, Source, key)
            elif key in _PAIR_FIELDS:
                if not isinstance(value, Mapping):
                    raise InvalidHistoryInputError(f"`{key}` must be a dict.")
                doc[key] = _to_pairs(value)
            else:
                doc[key] = _dump(value)
        if role == "tool":
            sources, payload = (doc["sources"], {}) if "sources" in doc else sources_from_tool_content(content)
            if "tool_name" not in doc and isinstance(payload.get("tool"), str):
                doc["tool_name"] = payload["tool"]
            doc.setdefault("result_count", len(sources))
        try:
            size = len(bson.encode(doc))
        except (InvalidDocument, OverflowError) as exc:  # e.g. a set, or an int over 64 bits
            raise InvalidHistoryInputError(f"This {role} message holds a value that cannot be stored: {exc}") from exc
        if size > self.max_message_bytes:
            raise MessageTooLargeError(
                f"This {role} message is {size / 1048576:.1f} MiB; the limit is {self.max_message_bytes / 1048576:.1f} MiB. "
                "Nothing was saved: shorten it or split it.")
        return doc

    def append_message(self, user_id: str, conversation_id: str, role: Role, content: str, *,
                       message_id: str | None = None, created_at: datetime | None = None, **fields: Any) -> str:
        """Store one message at the end of the conversation; returns its id.

        Idempotent for a given `message_id` (retrying a write that may have landed is safe).
        """
        doc = self._message_doc(user_id, conversation_id, role, content, message_id, created_at, fields)

        def op(db):
            for _ in range(5):
                conv = db.conversations.find_one_and_update(
                    {"_id": conversation_id, "user_id": user_id},
                    {"$inc": {"next_seq": 1}, "$set": {"updated_at_ms": _activity_ms()}},
                    projection={"next_seq": 1}, return_document=ReturnDocument.AFTER)
                if conv is None:
                    raise ConversationNotFoundError(f"No conversation {conversation_id} for this user.")
                try:
                    db.messages.insert_one({**doc, "seq": conv["next_seq"]})
                    return
                except DuplicateKeyError:
                    if db.messages.find_one({"_id": doc["_id"]}, {"_id": 1}) is not None:
                        return  # written by an earlier attempt (a retry); its seq stands, this one is a gap
                    continue  # the seq was taken (should not happen with $inc): take the next one
            raise HistoryError(f"Could not store message {doc['_id']}: sequence conflicts kept recurring.")

        self._run(op)
        return doc["_id"]

    @staticmethod
    def _public_message(doc: dict) -> dict:
        msg = dict(doc)
        msg["message_id"] = msg.pop("_id")
        msg.pop("user_id", None)
        for key in _PAIR_FIELDS:
            if key in msg:
                msg[key] = _from_pairs(msg[key])
        if msg.get("role") == "tool" and "sources" not in msg:
            msg["sources"], _ = sources_from_tool_content(msg.get("content", ""))
        return msg

    def load_messages(self, user_id: str, conversation_id: str, limit: int | None = None) -> list[dict]:
        """The conversation's messages in order (the last `limit` ones if given)."""
        _check_user(user_id)
        _check_id(conversation_id, "conversation id")
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 0):
            raise InvalidHistoryInputError(f"limit must be None or a non-negative integer, got {limit!r}.")

        def op(db):
            self._owned(db, user_id, conversation_id, {"_id": 1})
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
        committed, docs = self._run(op)
        docs = _whole_turns(docs, committed)
        return [self._public_message(d) for d in (docs if limit is None else docs[-limit:])]

    def get_tool_messages(self, user_id: str, message_ids: Iterable[str], conversation_id: str | None = None) -> list[dict]:
        """Tool messages by id, in the order asked. Another user's (or unknown) ids are simply absent."""
        _check_user(user_id)
        if isinstance(message_ids, str):
            message_ids = [message_ids]
        ids = list(dict.fromkeys(_check_id(m, "message id") for m in message_ids))
        if not ids:
            return []
        query: dict[str, Any] = {"_id": {"$in": ids}, "user_id": user_id, "role": "tool"}
        if conversation_id is not None:
            query["conversation_id"] = _check_id(conversation_id, "conversation id")
        found = {d["_id"]: d for d in self._run(lambda db: list(db.messages.find(query)))}
        return [self._public_message(found[i]) for i in ids if i in found]

    def save_turn(self, user_id: str, conversation_id: str, turn_id: str, messages: list[Mapping[str, Any]]) -> None:
        """Store a whole turn: its messages (each with `turn_id`), then the commit marker.

        Every message is validated before anything is written (bad input writes nothing). The
        turn's sequence numbers are reserved with one `$inc`; each insert is idempotent by message
        id, and the marker is written last, so a turn cut off half-way is invisible to
        `load_messages` and re-running `save_turn` with the same ids completes it exactly once.
        """
        _check_id(turn_id, "turn id")
        docs = []
        for msg in messages:
            fields = {k: v for k, v in msg.items() if k not in ("role", "content", "message_id", "created_at")}
            if "message_id" not in msg:
                raise InvalidHistoryInputError("Every message of a turn needs its message_id (so a retry writes it once).")
            doc = self._message_doc(user_id, conversation_id, msg["role"], msg.get("content", ""), msg["message_id"],
                                    msg.get("created_at"), fields)
            docs.append({**doc, "turn_id": turn_id})
        if not docs:
            raise InvalidHistoryInputError("A turn has at least one message.")

        def op(db):
            if db.turns.find_one({"_id": turn_id, "user_id": user_id}, {"_id": 1}) is not None:
                return  # already committed (a retry after the marker landed)
            conv = db.conversations.find_one_and_update(
                {"_id": conversation_id, "user_id": user_id},
                {"$inc": {"next_seq": len(docs)}, "$set": {"updated_at_ms": _activity_ms()}},
                projection={"next_seq": 1}, return_document=ReturnDocument.AFTER)
            if conv is None:
                raise ConversationNotFoundError(f"No conversation {conversation_id} for this user.")
            first = conv["next_seq"] - len(docs) + 1
            for i, doc in enumerate(docs):
                try:
                    db.messages.insert_one({**doc, "seq": first + i})
                except DuplicateKeyError:
                    if db.messages.find_one({"_id": doc["_id"]}, {"_id": 1}) is None:
                        raise HistoryError(f"Could not store message {doc['_id']}: its sequence number was taken.") from None
            try:
                db.turns.insert_one({"_id": turn_id, "user_id": user_id, "conversation_id": conversation_id,
                                     "committed_at": _now()})
            except DuplicateKeyError:
                pass  # committed by a concurrent retry

        self._run(op)

    # ----- citation state ---------------------------------------------------------------------
    def get_state(self, user_id: str, conversation_id: str) -> dict:
        """{"rag_counter", "web_counter", "sources": {source_id: Source dump}} to continue numbering."""
        _check_user(user_id)
        _check_id(conversation_id, "conversation id")

        def op(db):
            state = self._owned(db, user_id, conversation_id, _STATE_PROJECTION)
            registry = list(db.sources.find({"user_id": user_id, "conversation_id": conversation_id}))
            return state, registry

        state, registry = self._run(op)
        sources = {s["source_id"]: s for s in state.get("sources") or [] if s.get("source_id")}
        sources.update({d["source_id"]: {**d["source"], "source_id": d["source_id"]} for d in registry})
        return {"rag_counter": int(state.get("rag_counter") or 0), "web_counter": int(state.get("web_counter") or 0),
                "sources": sources}

    def allocate_source_ids(self, user_id: str, conversation_id: str,
                            requests: Iterable[tuple[str, str, Mapping[str, Any]]]) -> list[str]:
        """The registry's id for each (key, family, source): the id the key already has, else a new one.

        family "rag" -> `[^n]`, "web" -> `{^n}`. Known keys are read in one query; new ones take
        numbers from one `$inc` per family on the conversation's counter, then an upsert each under
        the unique (conversation, key) index; when another writer registered a key first, its id
        wins (read back), and the reserved number is simply skipped.
        """
        _check_user(user_id)
        _check_id(conversation_id, "conversation id")
        reqs = list(requests)
        for key, family, _ in reqs:
            if family not in _FAMILIES or not isinstance(key, str) or not key:
                raise InvalidHistoryInputError(f"Bad source registry request ({key!r}, {family!r}).")
        dumps = [_validated([source], Source, "sources")[0] for _, _, source in reqs]

        def op(db):
            conv_query = {"user_id": user_id, "conversation_id": conversation_id}
            keys = list(dict.fromkeys(key for key, _, _ in reqs))

            def read(wanted: list[str]) -> dict[str, str]:
                found = db.sources.find({**conv_query, "key": {"$in": wanted}}, {"key": 1, "source_id": 1})
                return {d["key"]: d["source_id"] for d in found if d.get("source_id")}

            ids = read(keys) if keys else {}
            missing: dict[str, tuple[str, dict]] = {}
            for (key, family, _), dump in zip(reqs, dumps):
                if key not in ids:
                    missing.setdefault(key, (family, dump))
            if missing:
                # One $inc per family reserves a block of numbers; a key another writer registers
                # first keeps that writer's id and its reserved number is simply never used.
                numbers: dict[str, list[int]] = {}
                for family in _FAMILIES:
                    want = sum(1 for f, _ in missing.values() if f == family)
                    if not want:
                        continue
                    counter = f"{family}_counter"
                    conv = db.conversations.find_one_and_update(
                        {"_id": conversation_id, "user_id": user_id}, {"$inc": {counter: want}},
                        projection={counter: 1}, return_document=ReturnDocument.AFTER)
                    if conv is None:
                        raise ConversationNotFoundError(f"No conversation {conversation_id} for this user.")
                    numbers[family] = list(range(conv[counter] - want + 1, conv[counter] + 1))
                for key, (family, dump) in missing.items():
                    sid = _FAMILIES[family].format(numbers[family].pop(0))
                    try:
                        db.sources.update_one({**conv_query, "key": key}, {"$setOnInsert": {
                            "source_id": sid, "source": {**dump, "source_id": sid}, "created_at": _now()}}, upsert=True)
                    except DuplicateKeyError:
                        pass  # another writer registered this key first: its id stands
                ids.update(read(list(missing)))
                if lost := [k for k in missing if k not in ids]:
                    raise HistoryError(f"The source registry did not keep key {lost[0][:60]!r}.")
            return [ids[key] for key, _, _ in reqs]

        return self._run(op)


_FAMILIES = {"rag": "[^{}]", "web": "{{^{}}}"}


def _whole_turns(docs: list[dict], committed: set[str]) -> list[dict]:
    """Messages of committed turns (and of no turn: written one by one), each turn kept together
    at the place of its first message (a turn finished by a retry may have later `seq`s)."""
    first_seq: dict[str, int] = {}
    kept = []
    for d in docs:
        turn = d.get("turn_id")
        if turn is not None and turn not in committed:
            continue
        if turn is not None:
            first_seq.setdefault(turn, d["seq"])
        kept.append(d)
    return sorted(kept, key=lambda d: (first_seq.get(d.get("turn_id"), d["seq"]), d["seq"]))
