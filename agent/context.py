"""Stored history -> LangChain messages for the model, with earlier tool output truncated.

Tool output is the bulk of a conversation's tokens (10 sources x a few hundred tokens per call),
and old sources are rarely needed again. So when history is loaded for the model, every tool
message of an *earlier turn* becomes a short stub::

    {"success": true, "tool": "search_documents", "result_count": 10,
     "message": "Retrieved 10 sources. Use retrieve_previous_sources to access full content.",
     "tool_message_id": "<32 hex>"}

User and AI messages stay whole (AI answers keep their `[^n]` markers, so the model still sees
which old numbers exist; a `[^Current Page]` of an old answer is shown as the concrete id of the
page it meant then, from the message's stored `page_roles`). The `retrieve_previous_sources` tool
brings the full sources back, with their original ids, so "[^3] from before" stays [^3].
`TRUNCATED_HISTORY_PROMPT` is the system-prompt paragraph that explains this to the model.

Use::

    messages = load_history_messages(store, user_id, conversation_id)   # earlier turns, truncated
    output = fetch_previous_sources(store, user_id, conversation_id, tool_message_ids)   # a ToolOutput
"""

from __future__ import annotations

import json
import logging
from typing import Any, Iterable

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.prebuilt import ToolRuntime
from pydantic import BaseModel, Field

from agent.markers import PAGE_ROLE_RE
from agent.tool_output import ToolOutput
from storage.schema import Source
from storage.history.store import (
    HistoryError,
    HistoryStore,
    HistoryUnavailableError,
    is_valid_id,
)

log = logging.getLogger("agent.context")

PREVIOUS_TOOL = RETRIEVE_PREVIOUS_SOURCES = "retrieve_previous_sources"
MAX_IDS_PER_CALL = 20

TRUNCATED_HISTORY_PROMPT = f"""\
Tool output from earlier turns of this conversation is truncated to save space: such a tool \
message only says how many sources it returned and gives its "tool_message_id". The answers you \
gave in those turns are complete and still show the citation ids you used (e.g. [^3], {{^2}}). \
When you need the text of an earlier source - to quote it, check a number, or cite it again - \
call `{RETRIEVE_PREVIOUS_SOURCES}` with the "tool_message_id" values (a list, up to \
{MAX_IDS_PER_CALL}) of the truncated tool messages you need. It returns those sources with their \
original ids; cite them with those same ids. Do not cite an earlier source you have not seen in \
full in this turn from memory of its content; retrieve it first or search again."""


def truncation_stub(message: dict) -> str:
    """The short JSON that replaces a stored tool message of an earlier turn."""
    output = ToolOutput.of(message.get("content", ""))
    count = int(message.get("result_count") or 0)
    success = output.success if output else True
    text = f"Retrieved {count} sources. Use {RETRIEVE_PREVIOUS_SOURCES} to access full content."
    if not success:  # a failed call has nothing to retrieve: keep its (short) reason instead
        text = (output.message or "The tool call failed.")[:300]
    return json.dumps({
        "success": success,
        "tool": message.get("tool_name") or (output.tool if output else ""),
        "result_count": count,
        "message": text,
        "tool_message_id": message["message_id"],
    })


def _finished_turn_start(messages: list[dict]) -> int:
    """Index from which tool messages are kept whole: the start of an unfinished last turn, else len."""
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    tail = messages[last_user + 1:]
    finished = bool(tail) and tail[-1].get("role") == "ai" and not tail[-1].get("tool_calls")
    return len(messages) if finished or last_user < 0 else last_user + 1


def _tool_call(call: dict) -> dict | None:
    if not isinstance(call, dict) or not call.get("id") or not call.get("name"):
        return None
    args = call.get("args")
    if isinstance(args, str):  # some providers store arguments as a JSON string
        try:
            args = json.loads(args)
        except ValueError:
            args = {"input": args}
    return {"name": call["name"], "args": args if isinstance(args, dict) else {}, "id": call["id"], "type": "tool_call"}


def history_to_messages(stored: list[dict], *, truncate: bool = True) -> list[BaseMessage]:
    """Stored message dicts (HistoryStore.load_messages) -> LangChain messages for the model.

    Tool messages of finished turns are replaced by `truncation_stub` (unless `truncate=False`);
    those of an unfinished last turn stay whole. Tool calls and tool results are kept paired (a
    model API rejects an unanswered call or an unasked result), so either half of a pair that
    failed to be saved is dropped.
    """
    keep_whole_from = _finished_turn_start(stored) if truncate else 0
    answered = {m.get("tool_call_id") for m in stored if m.get("role") == "tool"}
    asked: set[str] = set()
    out: list[BaseMessage] = []
    for i, msg in enumerate(stored):
        role, content, mid = msg.get("role"), msg.get("content") or "", msg.get("message_id")
        if role == "user":
            out.append(HumanMessage(content=content, id=mid))
        elif role == "ai":
            calls = [c for c in (_tool_call(c) for c in msg.get("tool_calls") or []) if c and c["id"] in answered]
            asked.update(c["id"] for c in calls)
            out.append(AIMessage(content=concrete_page_ids(content, msg.get("page_roles")), tool_calls=calls, id=mid))
        elif role == "tool":
            call_id = msg.get("tool_call_id")
            if call_id not in asked:
                log.warning("skipping stored tool message %s: no matching tool call", mid)
                continue
            body = content if i >= keep_whole_from else truncation_stub(msg)
            out.append(ToolMessage(content=body, tool_call_id=call_id, name=msg.get("tool_name"), id=mid))
    return out


def concrete_page_ids(text: str, page_roles: Any) -> str:
    """An old answer's `[^Current Page]` / `[^Previous Page]` -> the id of the page it meant then
    (roles are re-bound every turn; a role with no page in its turn stays as written)."""
    if not isinstance(page_roles, dict) or not page_roles:
        return text
    return PAGE_ROLE_RE.sub(lambda m: page_roles.get(m.group(0)) or m.group(0), text)


def load_history_messages(store: HistoryStore, user_id: str, conversation_id: str, *,
                          limit: int | None = None, truncate: bool = True) -> list[BaseMessage]:
    """Load a conversation from the store as model-ready messages (see `history_to_messages`)."""
    stored = store.load_messages(user_id, conversation_id, limit=limit)
    if limit is not None:  # a window may start mid-turn: drop leading results whose call was cut off
        while stored and stored[0].get("role") == "tool":
            stored.pop(0)
    return history_to_messages(stored, truncate=truncate)


def _result(success: bool, sources: list[Source], message: str) -> ToolOutput:
    return ToolOutput(tool=RETRIEVE_PREVIOUS_SOURCES, sources=sources, message=message, success=success)


def fetch_previous_sources(store: HistoryStore, user_id: str, conversation_id: str,
                           tool_message_ids: Iterable[str]) -> ToolOutput:
    """Full sources (original ids kept) of earlier tool messages.

    Only this user's tool messages in this conversation are returned; a malformed, unknown or
    foreign id gets the same "not found" answer (existence of other users' data is not revealed).
    """
    ids = [tool_message_ids] if isinstance(tool_message_ids, str) else list(tool_message_ids or [])
    ids = list(dict.fromkeys(str(i).strip() for i in ids))
    if not ids:
        return _result(False, [], "Give the tool_message_id values of the truncated tool messages to retrieve.")
    if len(ids) > MAX_IDS_PER_CALL:
        return _result(False, [], f"At most {MAX_IDS_PER_CALL} tool_message_ids per call; got {len(ids)}.")
    valid = [mid for mid in ids if is_valid_id(mid)]
    try:
        found = store.get_tool_messages(user_id, valid, conversation_id=conversation_id) if valid else []
    except HistoryUnavailableError as exc:
        return _result(False, [], f"Earlier sources cannot be retrieved right now: {exc}")
    except HistoryError as exc:
        return _result(False, [], str(exc))
    sources = [Source.model_validate(s) for msg in found for s in msg.get("sources") or []]  # stored dumps
    missing = [m for m in ids if m not in {f["message_id"] for f in found}]
    notes = [f"Retrieved {len(sources)} sources from {len(found)} earlier tool message(s); cite them with their ids as given."]
    if missing:
        notes.append("Not found in this conversation: " + ", ".join(m[:40] for m in missing) + ".")
    return _result(bool(found), sources, " ".join(notes))


class PreviousSourcesInput(BaseModel):
    tool_message_ids: list[str] = Field(
        description="The tool_message_id values of truncated tool messages from earlier turns."
    )


@tool(PREVIOUS_TOOL, args_schema=PreviousSourcesInput, response_format="content_and_artifact")
def retrieve_previous_sources(tool_message_ids: list[str], runtime: ToolRuntime[Any, Any]) -> tuple[str, ToolOutput]:
    """Bring back the full sources of truncated tool messages from earlier turns of this
    conversation, with their original citation ids."""
    store, state = runtime.context.history, runtime.state
    if store is None or not state.get("conversation_id"):
        return _result(False, [], "This conversation has no stored history.").as_tool_response()
    return fetch_previous_sources(store, state["user_id"], state["conversation_id"], tool_message_ids).as_tool_response()
