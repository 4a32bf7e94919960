"""Message documents: a message checked and shaped into its MongoDB document, and read back.

Dict fields whose keys may hold "." or "$" (`citation_map`) are stored as lists of {"key", "value"}
pairs; a tool message keeps the `sources` it was given, else the ones parsed from its JSON content
(storage/history/tool_json.py), and its `result_count`."""

from __future__ import annotations

import threading
from datetime import datetime, timezone
from typing import Any, Literal, Mapping

import bson
from bson.errors import InvalidDocument

from storage.history.errors import InvalidHistoryInputError, MessageTooLargeError
from storage.history.tool_json import sources_from_tool_content
from storage.history.validation import check_conversation, check_id, dump, new_id, validated
from storage.schema import Citation, Source

Role = Literal["user", "ai", "tool"]
ROLES: tuple[str, ...] = ("user", "ai", "tool")
RESERVED = {"_id", "message_id", "user_id", "conversation_id", "seq", "role", "content", "created_at"}
PAIR_FIELDS = ("citation_map",)  # dicts stored as [{"key", "value"}] (keys may hold "." or "$")


def now() -> datetime:
    # Millisecond precision: what BSON dates hold, so a value reads back equal to what was written.
    moment = datetime.now(timezone.utc)
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


_activity_lock = threading.Lock()
_last_activity_ms = 0


def activity_ms() -> int:
    """Epoch ms for "last activity", strictly increasing within the process, so two updates in the
    same millisecond still order conversations by which was touched last."""
    global _last_activity_ms
    with _activity_lock:
        _last_activity_ms = max(int(now().timestamp() * 1000), _last_activity_ms + 1)
        return _last_activity_ms


def to_pairs(mapping: Mapping[str, Any]) -> list[dict]:
    return [{"key": str(k), "value": dump(v)} for k, v in mapping.items()]


def from_pairs(pairs: Any) -> dict[str, Any]:
    if isinstance(pairs, dict):
        return pairs
    return {p["key"]: p["value"] for p in pairs or []}


def _field_value(key: str, value: Any) -> Any:
    if key == "citations":
        return validated(value, Citation, key)
    if key == "sources":
        return validated(value, Source, key)
    if key in PAIR_FIELDS:
        if not isinstance(value, Mapping):
            raise InvalidHistoryInputError(f"`{key}` must be a dict.")
        return to_pairs(value)
    return dump(value)


def message_doc(user_id: str, conversation_id: str, role: str, content: Any, message_id: str | None,
                created_at: datetime | None, fields: Mapping[str, Any], max_bytes: int) -> dict:
    """The document of one message, every field checked; raises before anything is written."""
    check_conversation(user_id, conversation_id)
    if role not in ROLES:
        raise InvalidHistoryInputError(f"Unknown message role {role!r}: expected one of {', '.join(ROLES)}.")
    if not isinstance(content, str):
        raise InvalidHistoryInputError(f"Message content must be a string, got {type(content).__name__}.")
    message_id = check_id(message_id, "message id") if message_id is not None else new_id()
    bad = sorted(k for k in fields if k in RESERVED or k.startswith("$") or "." in k)
    if bad:
        raise InvalidHistoryInputError(f"Field name(s) not allowed in a message: {', '.join(bad)}.")
    doc: dict[str, Any] = {"_id": message_id, "user_id": user_id, "conversation_id": conversation_id,
                           "role": role, "content": content, "created_at": created_at or now()}
    doc.update({key: _field_value(key, value) for key, value in fields.items() if value is not None})
    if role == "tool":
        sources, payload = (doc["sources"], {}) if "sources" in doc else sources_from_tool_content(content)
        if "tool_name" not in doc and isinstance(payload.get("tool"), str):
            doc["tool_name"] = payload["tool"]
        doc.setdefault("result_count", len(sources))
    try:
        size = len(bson.encode(doc))
    except (InvalidDocument, OverflowError) as exc:  # e.g. a set, or an int over 64 bits
        raise InvalidHistoryInputError(f"This {role} message holds a value that cannot be stored: {exc}") from exc
    if size > max_bytes:
        raise MessageTooLargeError(
            f"This {role} message is {size / 1048576:.1f} MiB; the limit is {max_bytes / 1048576:.1f} MiB. "
            "Nothing was saved: shorten it or split it.")
    return doc


def public_message(doc: dict) -> dict:
    """A stored message as callers see it: `message_id`, no `user_id`, pair fields as dicts."""
    msg = dict(doc)
    msg["message_id"] = msg.pop("_id")
    msg.pop("user_id", None)
    for key in PAIR_FIELDS:
        if key in msg:
            msg[key] = from_pairs(msg[key])
    if msg.get("role") == "tool" and "sources" not in msg:
        msg["sources"], _ = sources_from_tool_content(msg.get("content", ""))
    return msg


def whole_turns(docs: list[dict], committed: set[str]) -> list[dict]:
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
