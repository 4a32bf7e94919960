"""Reading LangChain messages: the helpers graph nodes, turn persistence and citation numbering share."""

from __future__ import annotations

import uuid

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage


def message_text(msg: BaseMessage) -> str:
    """A message's text (a chat model may return its content as a list of parts)."""
    return msg.text if hasattr(msg, "text") else str(msg.content)


def last_tool_batch(messages: list) -> list[ToolMessage]:
    """The ToolMessages answering the last AI tool-call message, in the order the calls were made."""
    for i in range(len(messages) - 1, -1, -1):
        msg = messages[i]
        if isinstance(msg, AIMessage) and msg.tool_calls:
            order = {c["id"]: n for n, c in enumerate(msg.tool_calls)}
            batch = [m for m in messages[i + 1:] if isinstance(m, ToolMessage) and m.tool_call_id in order]
            return sorted(batch, key=lambda m: order[m.tool_call_id])
    return []


def tool_call_message(name: str, args: dict) -> AIMessage:
    """An AI message calling one tool (how the no-model path and the web path start a tool round)."""
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": f"call_{uuid.uuid4().hex[:12]}"}])
