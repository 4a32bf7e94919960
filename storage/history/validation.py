"""Checks of what callers hand the history store: ids, user ids, titles, pydantic lists, and that a
conversation belongs to the user. Each raises a `HistoryError` saying what is wrong."""

from __future__ import annotations

import re
import uuid
from typing import Any, Mapping

from pydantic import BaseModel, ValidationError

from storage.history.errors import ConversationNotFoundError, InvalidHistoryInputError, InvalidMessageIdError

_ID_RE = re.compile(r"[0-9a-f]{32}")
MAX_TITLE_CHARS = 200
MAX_USER_ID_CHARS = 256


def new_id() -> str:
    return uuid.uuid4().hex


def is_valid_id(value: Any) -> bool:
    """True for a well-formed message/conversation id (32 lowercase hex characters)."""
    return isinstance(value, str) and bool(_ID_RE.fullmatch(value))


def check_id(value: Any, what: str) -> str:
    if not is_valid_id(value):
        shown = repr(value)[:60]
        raise InvalidMessageIdError(f"Malformed {what} {shown}: expected 32 lowercase hex characters.")
    return value


def check_user(user_id: Any) -> str:
    if not isinstance(user_id, str) or not user_id.strip() or len(user_id) > MAX_USER_ID_CHARS:
        raise InvalidHistoryInputError(f"user_id must be a non-empty string of at most {MAX_USER_ID_CHARS} characters.")
    return user_id


def check_conversation(user_id: Any, conversation_id: Any) -> None:
    check_user(user_id)
    check_id(conversation_id, "conversation id")


def check_title(title: Any) -> str:
    if not isinstance(title, str) or not title.strip():
        raise InvalidHistoryInputError("A conversation title must be a non-empty string.")
    title = " ".join(title.split())
    if len(title) > MAX_TITLE_CHARS:
        raise InvalidHistoryInputError(f"A conversation title can have at most {MAX_TITLE_CHARS} characters (got {len(title)}).")
    return title


def dump(value: Any) -> Any:
    """Pydantic models -> JSON-like dicts, recursively."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, Mapping):
        return {str(k): dump(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [dump(v) for v in value]
    return value


def validated(items: Any, model: type[BaseModel], field: str) -> list[dict]:
    """`items` (models or dicts) validated as `model`, as JSON-like dicts."""
    if not isinstance(items, (list, tuple)):
        raise InvalidHistoryInputError(f"`{field}` must be a list, got {type(items).__name__}.")
    try:
        return [model.model_validate(dump(item)).model_dump(mode="json") for item in items]
    except ValidationError as exc:
        raise InvalidHistoryInputError(f"`{field}` holds an invalid {model.__name__}: {exc.errors()[0]['msg']}") from exc


def owned_conversation(db, user_id: str, conversation_id: str, projection: dict | None = None) -> dict:
    """The conversation document when `user_id` owns it; ConversationNotFoundError otherwise."""
    doc = db.conversations.find_one({"_id": conversation_id, "user_id": user_id}, projection)
    if doc is None:
        raise not_found(conversation_id)
    return doc


def not_found(conversation_id: str) -> ConversationNotFoundError:
    return ConversationNotFoundError(f"No conversation {conversation_id} for this user.")
