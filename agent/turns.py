"""The one owner of a conversation's stored turns: load before a turn, save after it.

    turns = TurnHistory(store)                       # outbox: TurnOutbox.for_store(store) by default
    flushed = turns.flush(user_id)                   # queued turns first, oldest first
    loaded = turns.load(user_id, conversation_id)    # messages for the model + the source registry
    allocate = turns.allocator(user_id, conversation_id)   # for the graph's cite_sources node
    record = turn_record(state, answer)              # the finished turn, every message with its id
    outcome = turns.save(record)                     # SaveOutcome(saved, queued, error)
    outcome = turns.save_plain(user_id, conversation_id, question, reply, stopped=True)  # a turn without the agent
    turns.pending_messages(user_id, conversation_id) # queued turns, for display
    conversation_id = turns.open_offline(user_id, title)   # store down: created when it is back, turns after

A turn is written whole or not at all (`HistoryStore.save_turn`: messages, then a commit marker).
When the store cannot take it, the turn goes to the outbox on disk (it survives an app restart)
and is written, in order, before the next turn of any conversation of that user (or whenever
`flush` is called), exactly once (message ids and the turn id are fixed up front).

Citation ids of a turn are checked against the store's registry when it is written: ids given
while the store was unreachable are provisional and renumbered then (markers in the answer, its
citations, the tool messages' sources, the page roles), so no id ever names two sources.
"""

from __future__ import annotations

import logging
import sqlite3
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Mapping

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from agent.citations.ids import ROLE_IDS, Allocate, as_source, source_key
from agent.markers import id_label, id_number, rag_id, replace_markers
from agent.context import history_to_messages
from agent.messages import message_text
from agent.tool_output import ToolOutput
from storage.history.store import ConversationNotFoundError, HistoryError, HistoryStore, HistoryUnavailableError, new_id
from storage.history.outbox import TurnOutbox
from storage.schema import AnswerResult, Source

log = logging.getLogger(__name__)


QUEUED_NOTE = ("This answer is not saved to your history yet: the chat history database is unavailable. It is "
               "kept on this server and added to your history as soon as the database is back.")
NOT_SAVED_NOTE = "This answer was not saved to your history: {reason}"


@dataclass
class LoadedHistory:
    messages: list[BaseMessage] = field(default_factory=list)
    rag_counter: int = 0
    web_counter: int = 0
    sources: dict[str, Source] = field(default_factory=dict)  # the registry, read back into Sources


@dataclass
class SaveOutcome:
    saved: bool
    queued: bool = False
    error: str | None = None


def turn_record(state: Mapping[str, Any], answer: AnswerResult) -> dict:
    """The finished turn as a JSON-like record: every message with a fixed id, tool messages with
    their numbered sources (page roles replaced by the pages' own ids), the final answer."""
    msgs = list(state.get("messages") or [])[state.get("turn_start", 0) or 0:]
    roles = dict(state.get("page_roles") or {})
    now = datetime.now(timezone.utc).isoformat()
    out: list[dict] = []
    for i, msg in enumerate(msgs):
        base = {"message_id": uuid.uuid4().hex, "created_at": now}
        if isinstance(msg, HumanMessage):
            out.append({**base, "role": "user", "content": message_text(msg)})
        elif isinstance(msg, ToolMessage):
            output = ToolOutput.of(msg)
            entry = {**base, "role": "tool", "tool_name": msg.name, "tool_call_id": msg.tool_call_id}
            if output is None:
                out.append({**entry, "content": str(msg.content)})
                continue
            sources = [s.model_copy(update={"source_id": roles.get(s.source_id, s.source_id)}) for s in output.sources]
            concrete = output.model_copy(update={"sources": sources})
            out.append({**entry, "content": concrete.content(), "sources": [s.model_dump() for s in sources]})
        elif isinstance(msg, AIMessage) and i == len(msgs) - 1:
            out.append({**base, "role": "ai", "content": answer.message,
                        "citations": [c.model_dump() for c in answer.citations], "citation_map": answer.citation_map,
                        "route": answer.route, "mode": answer.mode, "active_doc_ids": answer.active_doc_ids,
                        "claims": [c.model_dump() for c in answer.claims],
                        "page_roles": {r: roles[r] for r in ROLE_IDS if r in roles}})
        elif isinstance(msg, AIMessage):
            calls = [{"name": c["name"], "args": c["args"], "id": c["id"]} for c in msg.tool_calls]
            out.append({**base, "role": "ai", "content": message_text(msg), "tool_calls": calls})
    return {"turn_id": uuid.uuid4().hex, "user_id": state.get("user_id") or "",
            "conversation_id": state.get("conversation_id") or "", "messages": out}


def plain_turn_record(user_id: str, conversation_id: str, question: str, reply: str, **reply_fields: Any) -> dict:
    """A turn answered outside the agent (a stopped answer, a background `/ingest`) in `turn_record`'s
    shape: the question and the reply (with `reply_fields` such as `stopped=True`, `route="ingest"`)."""
    now = datetime.now(timezone.utc).isoformat()
    return {"turn_id": uuid.uuid4().hex, "user_id": user_id, "conversation_id": conversation_id or "", "messages": [
        {"message_id": uuid.uuid4().hex, "created_at": now, "role": "user", "content": question},
        {"message_id": uuid.uuid4().hex, "created_at": now, "role": "ai", "content": reply, **reply_fields},
    ]}


# ---------------------------------------------------------------- renumbering a turn


def _remap_text(text: str, mapping: Mapping[str, str]) -> str:
    """Replace citation ids in prose (never in code) all at once ([^1]->[^2] and [^2]->[^1] swap)."""
    return replace_markers(text, lambda mk: mapping.get(mk.text))


def renumber_record(record: dict, mapping: Mapping[str, str]) -> dict:
    """The record with its citation ids replaced per `mapping` (old id -> id in the store)."""
    if not mapping:
        return record
    messages = []
    for msg in record["messages"]:
        msg = dict(msg)
        if msg["role"] == "tool" and msg.get("sources") is not None:
            output = ToolOutput.of(msg["content"])
            sources = [s.model_copy(update={"source_id": mapping.get(s.source_id, s.source_id)})
                       for s in map(as_source, msg["sources"])]
            msg["sources"] = [s.model_dump() for s in sources]
            if output is not None:
                msg["content"] = output.model_copy(update={"sources": sources}).content()
        elif msg["role"] == "ai":
            msg["content"] = _remap_text(msg.get("content") or "", mapping)
            if msg.get("citations"):
                cites = []
                for c in msg["citations"]:
                    if c.get("marker") in mapping:
                        new = mapping[c["marker"]]
                        c = {**c, "marker": new, "number": id_label(new)}
                    elif str(c.get("marker")).startswith("[chunk_id:") and f"[^{c.get('number')}]" in mapping:
                        c = {**c, "number": id_label(mapping[rag_id(c["number"])])}  # a legacy marker's number is its id's
                    cites.append(c)
                msg["citations"] = cites
            if msg.get("page_roles"):
                msg["page_roles"] = {r: mapping.get(sid, sid) for r, sid in msg["page_roles"].items()}
            if msg.get("claims"):
                msg["claims"] = [{**c, "source_ids": [mapping.get(i, i) for i in c.get("source_ids") or []],
                                  "source_says": {mapping.get(i, i): t for i, t in (c.get("source_says") or {}).items()}}
                                 for c in msg["claims"]]
        messages.append(msg)
    return {**record, "messages": messages}


def _record_sources(record: dict) -> list[Source]:
    """The numbered (non-knowledge) sources of a turn, each once, first appearance first."""
    seen: dict[str, Source] = {}
    for msg in record["messages"]:
        for src in map(as_source, msg.get("sources") or []):
            if id_number(src.source_id) is not None and src.source_id not in seen:
                seen[src.source_id] = src
    return list(seen.values())


# ---------------------------------------------------------------- the owner


class TurnHistory:
    def __init__(self, store: HistoryStore, outbox: TurnOutbox | None = None) -> None:
        self.store = store
        self.outbox = outbox if outbox is not None else TurnOutbox.for_store(store)

    def load(self, user_id: str, conversation_id: str) -> LoadedHistory:
        """Earlier turns for the model (old tool output truncated) and the registry's sources that
        a saved turn holds: a stopped run's sources keep their ids in the store (never given to
        another source) but are not offered, so nothing cites what no saved turn showed the model.
        Raises HistoryUnavailableError when the store is down."""
        stored = self.store.load_messages(user_id, conversation_id)
        state = self.store.get_state(user_id, conversation_id)
        saved = {as_source(s).source_id for m in stored for s in m.get("sources") or []}
        sources = {sid: as_source(s) for sid, s in state["sources"].items() if sid in saved}
        return LoadedHistory(history_to_messages(stored), state["rag_counter"], state["web_counter"], sources)

    def allocator(self, user_id: str, conversation_id: str) -> Allocate:
        """Ids from the store's registry; None (number locally, provisionally) while it is down."""

        def allocate(requests: list[tuple[str, str, dict]]) -> list[str] | None:
            try:
                return self.store.allocate_source_ids(user_id, conversation_id, requests)
            except HistoryUnavailableError as exc:
                log.warning("source registry unavailable, numbering provisionally: %s", exc)
                return None

        return allocate

    def _write(self, record: dict) -> None:
        """Renumber the turn's ids against the store's registry, then store it whole."""
        uid, cid = record["user_id"], record["conversation_id"]
        sources = _record_sources(record)
        if sources:
            family = {True: "web", False: "rag"}
            ids = self.store.allocate_source_ids(
                uid, cid, [(source_key(s), family[s.kind == "web"], s.model_dump()) for s in sources])
            mapping = {s.source_id: sid for s, sid in zip(sources, ids) if s.source_id != sid}
            if mapping:
                log.info("turn %s: provisional ids renumbered %s", record["turn_id"], mapping)
            record = renumber_record(record, mapping)
        messages = [{**m, "created_at": datetime.fromisoformat(m["created_at"]) if m.get("created_at") else None}
                    for m in record["messages"]]
        self.store.save_turn(uid, cid, record["turn_id"], messages)

    def save(self, record: dict) -> SaveOutcome:
        """Store the turn, after any queued turns of the same user; queue it when the store is down."""
        if not record.get("conversation_id"):
            return SaveOutcome(False, error=NOT_SAVED_NOTE.format(reason="no conversation could be opened."))
        try:
            self.flush(record["user_id"])
            if self.outbox.pending(record["user_id"], record["conversation_id"]):
                raise HistoryUnavailableError("earlier turns of this conversation are still waiting")
            self._write(record)
            return SaveOutcome(True)
        except HistoryUnavailableError as exc:
            try:
                self.outbox.put(record)
            except (OSError, sqlite3.Error) as disk:  # e.g. a full disk: say so, never pretend
                log.error("turn %s lost: history down (%s) and outbox unwritable (%s)", record["turn_id"], exc, disk)
                return SaveOutcome(False, error=NOT_SAVED_NOTE.format(reason=f"{exc} The server could not keep it either."))
            log.warning("turn %s queued: %s", record["turn_id"], exc)
            return SaveOutcome(False, queued=True, error=QUEUED_NOTE)
        except HistoryError as exc:  # bad input, deleted conversation: never written, say so
            log.warning("turn %s not saved: %s", record["turn_id"], exc)
            return SaveOutcome(False, error=NOT_SAVED_NOTE.format(reason=exc))

    def save_plain(self, user_id: str, conversation_id: str, question: str, reply: str,
                   **reply_fields: Any) -> SaveOutcome:
        """`save` of a turn answered outside the agent (`plain_turn_record`): stored, or queued while
        the store is down, like any turn."""
        return self.save(plain_turn_record(user_id, conversation_id, question, reply, **reply_fields))

    def open_offline(self, user_id: str, title: str) -> str:
        """A conversation for a user whose store is down: its id now, the conversation itself created
        (before its queued turns) when the store is back."""
        conversation_id = new_id()
        self.outbox.put_conversation(user_id, conversation_id, title)
        return conversation_id

    def _create_opened(self, user_id: str | None) -> bool:
        """Create the conversations opened offline; False when the store is still down."""
        for pending in self.outbox.pending_conversations(user_id):
            try:
                self.store.create_conversation(pending["user_id"], pending["title"], pending["conversation_id"])
            except HistoryUnavailableError:
                return False
            except HistoryError as exc:  # can never succeed: its turns are dropped as a deleted conversation's
                log.error("conversation %s opened offline not created: %s", pending["conversation_id"], exc)
            self.outbox.remove_conversation(pending["conversation_id"])
        return True

    def flush(self, user_id: str | None = None) -> int:
        """Write queued turns (of one user, or all) oldest first, after creating the conversations
        opened offline; stops at the first the store cannot take. Returns how many were written."""
        written = 0
        if not self._create_opened(user_id):
            return written
        for record in self.outbox.pending(user_id):
            try:
                self._write(record)
                written += 1
            except HistoryUnavailableError:
                break
            except ConversationNotFoundError:
                log.warning("queued turn %s dropped: its conversation was deleted", record["turn_id"])
            except HistoryError as exc:  # can never succeed: keeping it would block the queue
                log.error("queued turn %s dropped: %s", record["turn_id"], exc)
            self.outbox.remove(record["turn_id"])
        return written

    def pending_messages(self, user_id: str, conversation_id: str) -> list[dict]:
        """The user and final answer messages of queued turns, oldest first (what a chat shows)."""
        out = []
        for record in self.outbox.pending(user_id, conversation_id):
            for msg in record["messages"]:
                if msg["role"] == "user" or (msg["role"] == "ai" and not msg.get("tool_calls")):
                    out.append({**msg, "turn_id": record["turn_id"]})
        return out
