"""Graph state: small TypedDicts with reducers (messages append, sources merge).

The citation keys (`rag_counter`, `web_counter`, `sources`, `current_page`, `previous_page`) are
the contract with agent/citation_ids.py: its tool node reads and advances them after each tool call.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

from agent.citation_ids import merge_sources

Route = Literal["documents", "web", "conversation", "ingest"]


class PageRef(TypedDict):
    """A page the user is looking at in the viewer."""

    doc_id: str
    source_file: str
    page_number: int  # 0-based


class AgentState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    turn_start: int  # index in `messages` where this turn's user message sits (what gets persisted)

    # citation registry (see agent/citation_ids.py)
    rag_counter: int
    web_counter: int
    sources: Annotated[dict[str, dict], merge_sources]

    # what the user is chatting with
    selected_doc_ids: list[str]
    indexed_document_summary: str
    current_page: PageRef | None
    previous_page: PageRef | None

    # routing and outcome of this turn
    route: Route
    fallback_reason: str  # why the documents path handed over to web search
    command_reply: str  # a ready reply (command errors, help) that skips the model
    citations: list[dict]
    citation_map: dict[str, Any]
    final_answer: dict  # AnswerResult dump

    user_id: str
    conversation_id: str
