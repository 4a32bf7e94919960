"""Routing decisions: command parsing, the model's structured judgements, and the edge functions.

Routes are decided by structured output (pydantic schemas below), never by matching free text.
Edge functions read state only and return the name of the next node.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from langchain_core.messages import AIMessage, ToolMessage
from pydantic import BaseModel, Field

from agent.prompts import COMMANDS_HELP
from agent.state import AgentState
from agent.tool_output import ToolOutput
from agent.tools import RAG_TOOL, WEB_TOOL

# ---------------------------------------------------------------- structured judgements


class RelevanceGrade(BaseModel):
    """Whether the user's message can be answered from the selected documents."""

    relevant: Literal["yes", "no", "maybe"] = Field(description="yes, no or maybe")
    reason: str = Field(default="", description="one short sentence")


class QueryKind(BaseModel):
    """How to handle a message that is not about the documents."""

    kind: Literal["conversational", "needs_web_search"]
    search_query: str = Field(
        default="",
        description="for needs_web_search: a standalone web search query for the latest message, "
        "with names and dates from earlier messages filled in",
    )


# ---------------------------------------------------------------- commands


@dataclass(frozen=True)
class Command:
    name: str
    argument: str


def parse_command(text: str) -> Command | None:
    """`/ingest report.pdf` -> Command("ingest", "report.pdf"); plain text -> None."""
    stripped = text.strip()
    if not stripped.startswith("/") or stripped.startswith("//"):
        return None
    name, argument = (stripped[1:].split(None, 1) + ["", ""])[:2]
    return Command(name.lower(), argument.strip())


def unknown_command_reply(name: str) -> str:
    return f"Unknown command /{name}.\n\n{COMMANDS_HELP}"


# ---------------------------------------------------------------- state helpers


def turn_messages(state: AgentState) -> list:
    return list(state.get("messages") or [])[state.get("turn_start", 0) or 0:]


def _output(msg) -> dict | None:
    """A ToolMessage's `ToolOutput` as a dict (sources as Source dumps), or None."""
    output = ToolOutput.of(msg) if isinstance(msg, ToolMessage) else None
    return output.model_dump() if output is not None else None


def turn_tool_results(state: AgentState, tool_name: str | None = None) -> list[dict]:
    """Tool outputs of this turn, oldest first (optionally of one tool)."""
    out = []
    for msg in turn_messages(state):
        if (data := _output(msg)) is not None and (tool_name is None or data.get("tool") == tool_name):
            out.append(data)
    return out


def _last_tool_batch(state: AgentState) -> list[dict]:
    batch = []
    for msg in reversed(state.get("messages") or []):
        if not isinstance(msg, ToolMessage):
            break
        if (data := _output(msg)) is not None:
            batch.append(data)
    return batch


def documents_found_nothing(state: AgentState) -> bool:
    """True when every document search of this turn came back empty or failed (and one was made)."""
    rag = turn_tool_results(state, RAG_TOOL)
    return bool(rag) and not any(
        r.get("success") and any(s.get("kind") in ("document", "page") for s in r.get("sources", [])) for r in rag
    )


# ---------------------------------------------------------------- edges


def route_after_query(state: AgentState) -> Literal["ingest_pdf", "agent", "web_search", "respond"]:
    if state.get("command_reply"):
        return "respond"
    route = state.get("route")
    if route == "ingest":
        return "ingest_pdf"
    if route == "documents":
        return "agent"
    if route == "web":
        return "web_search"
    return "respond"


def route_after_agent(state: AgentState) -> Literal["tools", "web_search", "finalize_answer"]:
    """Tool calls -> tools; the extractive agent found nothing usable -> web search; else answer."""
    last = (state.get("messages") or [None])[-1]
    if isinstance(last, AIMessage) and last.tool_calls:
        return "tools"
    if state.get("fallback_reason") and not turn_tool_results(state, WEB_TOOL):
        return "web_search"
    return "finalize_answer"


def route_after_tools(state: AgentState) -> Literal["agent", "web_search", "summarize_web"]:
    """Web path -> summarise; documents that yielded nothing (and no web search yet) -> web fallback."""
    if state.get("route") == "web":
        return "summarize_web"
    batch = _last_tool_batch(state)
    only_rag = batch and all(b.get("tool") == RAG_TOOL for b in batch)
    if state.get("web_available") and only_rag and documents_found_nothing(state) and not turn_tool_results(state, WEB_TOOL):
        return "web_search"
    return "agent"
