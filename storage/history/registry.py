"""The source-id registry of a conversation: one document per (conversation, source key) in the
`sources` collection, numbered from the conversation's `rag_counter` / `web_counter`.

A key seen before gets the id it already has, a new one `[^n]` (family "rag") or `{^n}` ("web")
from an atomic `$inc`. Safe across threads, tabs and processes; retrying returns the same id.
Each function here takes the store's database (`HistoryStore` runs it with its connection handling)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from pymongo import ReturnDocument
from pymongo.errors import DuplicateKeyError

from storage.history.errors import HistoryError, InvalidHistoryInputError
from storage.history.messages import now
from storage.history.validation import not_found, owned_conversation, validated
from storage.schema import Source

# the id shapes of agent/markers.py (storage cannot import it; a test keeps them equal)
FAMILIES = {"rag": "[^{}]", "web": "{{^{}}}"}
STATE_PROJECTION = {"rag_counter": 1, "web_counter": 1, "sources": 1}
Request = tuple[str, str, Mapping[str, Any]]


def checked_requests(requests: Sequence[Request]) -> list[dict]:
    """The Source dump of each (key, family, source) request; bad requests raise before any write."""
    for key, family, _ in requests:
        if family not in FAMILIES or not isinstance(key, str) or not key:
            raise InvalidHistoryInputError(f"Bad source registry request ({key!r}, {family!r}).")
    return [validated([source], Source, "sources")[0] for _, _, source in requests]


def read_state(db, user_id: str, conversation_id: str) -> dict:
    """{"rag_counter", "web_counter", "sources": {source_id: Source dump}} to continue numbering."""
    state = owned_conversation(db, user_id, conversation_id, STATE_PROJECTION)
    registry = list(db.sources.find({"user_id": user_id, "conversation_id": conversation_id}))
    # Conversations from before the `sources` collection kept their registry in the conversation.
    sources = {s["source_id"]: s for s in state.get("sources") or [] if s.get("source_id")}
    sources.update({d["source_id"]: {**d["source"], "source_id": d["source_id"]} for d in registry})
    return {"rag_counter": int(state.get("rag_counter") or 0), "web_counter": int(state.get("web_counter") or 0),
            "sources": sources}


def _known_ids(db, conv_query: dict, keys: list[str]) -> dict[str, str]:
    found = db.sources.find({**conv_query, "key": {"$in": keys}}, {"key": 1, "source_id": 1})
    return {d["key"]: d["source_id"] for d in found if d.get("source_id")}


def _reserve_numbers(db, user_id: str, conversation_id: str, missing: dict[str, tuple[str, dict]]) -> dict[str, list[int]]:
    """One $inc per family reserves a block of numbers; a key another writer registers first keeps
    that writer's id and its reserved number is simply never used."""
    numbers: dict[str, list[int]] = {}
    for family in FAMILIES:
        want = sum(1 for f, _ in missing.values() if f == family)
        if not want:
            continue
        counter = f"{family}_counter"
        conv = db.conversations.find_one_and_update(
            {"_id": conversation_id, "user_id": user_id}, {"$inc": {counter: want}},
            projection={counter: 1}, return_document=ReturnDocument.AFTER)
        if conv is None:
            raise not_found(conversation_id)
        numbers[family] = list(range(conv[counter] - want + 1, conv[counter] + 1))
    return numbers


def allocate(db, user_id: str, conversation_id: str, requests: Sequence[Request], dumps: list[dict]) -> list[str]:
    """The registry's id for each request: the id its key already has, else a new one.

    Known keys are read in one query; new ones take numbers from `_reserve_numbers`, then an upsert
    each under the unique (conversation, key) index; when another writer registered a key first,
    its id wins (read back)."""
    conv_query = {"user_id": user_id, "conversation_id": conversation_id}
    keys = list(dict.fromkeys(key for key, _, _ in requests))
    ids = _known_ids(db, conv_query, keys) if keys else {}
    missing: dict[str, tuple[str, dict]] = {}
    for (key, family, _), source in zip(requests, dumps):
        if key not in ids:
            missing.setdefault(key, (family, source))
    if missing:
        numbers = _reserve_numbers(db, user_id, conversation_id, missing)
        for key, (family, source) in missing.items():
            sid = FAMILIES[family].format(numbers[family].pop(0))
            try:
                db.sources.update_one({**conv_query, "key": key}, {"$setOnInsert": {
                    "source_id": sid, "source": {**source, "source_id": sid}, "created_at": now()}}, upsert=True)
            except DuplicateKeyError:
                pass  # another writer registered this key first: its id stands
        ids.update(_known_ids(db, conv_query, list(missing)))
        if lost := [k for k in missing if k not in ids]:
            raise HistoryError(f"The source registry did not keep key {lost[0][:60]!r}.")
    return [ids[key] for key, _, _ in requests]
