"""Messages written one by one, each its own `$inc` of the sequence and insert: the store's old
`append_message`, kept out of the product as the baseline of bench.registry's whole-turn writes."""

from __future__ import annotations

from typing import Any

from pymongo import ReturnDocument
from pymongo.errors import DuplicateKeyError

from storage.history.errors import HistoryError
from storage.history.messages import activity_ms, message_doc
from storage.history.store import HistoryStore
from storage.history.validation import not_found


def append_message(store: HistoryStore, user_id: str, conversation_id: str, role: str, content: str, *,
                   message_id: str | None = None, **fields: Any) -> str:
    """Store one message at the end of the conversation (no turn, no commit marker); returns its id."""
    doc = message_doc(user_id, conversation_id, role, content, message_id, None, fields, store.max_message_bytes)

    def op(db):
        for _ in range(5):
            conv = db.conversations.find_one_and_update(
                {"_id": conversation_id, "user_id": user_id},
                {"$inc": {"next_seq": 1}, "$set": {"updated_at_ms": activity_ms()}},
                projection={"next_seq": 1}, return_document=ReturnDocument.AFTER)
            if conv is None:
                raise not_found(conversation_id)
            try:
                db.messages.insert_one({**doc, "seq": conv["next_seq"]})
                return
            except DuplicateKeyError:
                if db.messages.find_one({"_id": doc["_id"]}, {"_id": 1}) is not None:
                    return  # written by an earlier attempt
                continue  # the seq was taken: take the next one
        raise HistoryError(f"Could not store message {doc['_id']}: sequence conflicts kept recurring.")

    store.run_on_database(op)
    return doc["_id"]
