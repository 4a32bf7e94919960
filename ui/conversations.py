"""The chat page's view of the history store: conversations and their messages as plain
records. The one place that knows the `storage.history.store.HistoryStore` method names."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from storage.schema import Citation, ClaimCheck
from ui.citations import parse_citations
from ui.claim_marks import parse_claims


@dataclass
class ConversationRow:
    conversation_id: str
    title: str


@dataclass
class ChatTurn:
    role: str  # "user" or "assistant"
    text: str
    citations: list[Citation] = field(default_factory=list)
    route: str | None = None
    mode: str | None = None
    stopped: bool = False  # the user pressed Stop: `text` is what was written until then
    claims: list[ClaimCheck] = field(default_factory=list)  # the claim check stored with the answer
    interrupted: bool = False  # the replica answering it stopped (ui/asked.py): nothing of the answer was kept


def _get(obj: Any, name: str, default: Any = None) -> Any:
    return obj.get(name, default) if isinstance(obj, dict) else getattr(obj, name, default)


def list_conversations(store, user_id: str) -> list[ConversationRow]:
    rows = store.list_conversations(user_id)
    return [
        ConversationRow(str(_get(r, "conversation_id") or _get(r, "_id")), str(_get(r, "title") or "New chat"))
        for r in rows
    ]


def create_conversation(store, user_id: str, title: str = "New chat") -> str:
    created = store.create_conversation(user_id, title=title)
    return str(_get(created, "conversation_id") or created)


def rename_conversation(store, user_id: str, conversation_id: str, title: str) -> None:
    store.rename_conversation(user_id, conversation_id, title)


def delete_conversation(store, user_id: str, conversation_id: str) -> None:
    store.delete_conversation(user_id, conversation_id)


def load_turns(store, user_id: str, conversation_id: str) -> list[ChatTurn]:
    """A stored conversation's user and assistant messages (tool messages are not shown)."""
    return turns_of(store.load_messages(user_id, conversation_id))


def turns_of(messages: list) -> list[ChatTurn]:
    """User and assistant messages as chat turns (tool messages are the agent's business, not shown)."""
    turns: list[ChatTurn] = []
    for m in messages:
        role = str(_get(m, "role") or _get(m, "type") or "")
        text = _get(m, "content") or _get(m, "text") or ""
        if role in ("human", "user"):
            turns.append(ChatTurn("user", str(text)))
        elif role in ("ai", "assistant") and (text or _get(m, "citations") or _get(m, "stopped")):
            turns.append(
                ChatTurn(
                    "assistant",
                    str(text),
                    parse_citations(_get(m, "citations")),
                    _get(m, "route"),
                    _get(m, "mode"),
                    bool(_get(m, "stopped")),
                    parse_claims(_get(m, "claims")),
                    bool(_get(m, "interrupted")),
                )
            )
    return turns


def file_stem(title: str) -> str:
    """A safe file name (without extension) for exporting a conversation titled `title`."""
    import re

    return re.sub(r"[^\w\-]+", "_", title or "").strip("_")[:60] or "conversation"
