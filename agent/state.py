"""Graph state: small TypedDicts with reducers (messages append, sources merge).

The citation keys (`rag_counter`, `web_counter`, `sources`, `current_page`, `previous_page`,
`page_roles`) are the contract with agent/citations/ids.py: its `cite_sources` node reads and
advances them after each tool call.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

from agent.citations.ids import merge_sources

Route = Literal["documents", "web", "conversation", "ingest"]


class PageRef(TypedDict):
    """A page the user is looking at in the viewer."""

    doc_id: str
    source_file: str
    page_number: int  # 0-based


class AgentState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    turn_start: int  # index in `messages` where this turn's user message sits (what gets persisted)

    # citation registry (see agent/citations/ids.py)
    rag_counter: int
    web_counter: int
    sources: Annotated[dict[str, dict], merge_sources]
    page_roles: dict[str, str]  # this turn: "[^Current Page]" / "[^Previous Page]" -> that page's "[^n]"

    # what the user is chatting with
    selected_doc_ids: list[str]
    indexed_document_summary: str
    current_page: PageRef | None
    previous_page: PageRef | None

    # routing and outcome of this turn
    route: Route
    web_available: bool  # a web search client is configured for this run
    ingest_path: str  # the resolved PDF an /ingest command asked for
    ingested_doc_id: str  # set by ingest_pdf once that PDF is ready: the turn switches to it
    web_query: str  # the model's standalone web query for this turn ("" = the user's message)
    fallback_reason: str  # why the documents path handed over to web search
    command_reply: str  # a ready reply (command errors, help) that skips the model
    citations: list[dict]
    citation_map: dict[str, Any]
    final_answer: dict  # AnswerResult dump

    user_id: str
    conversation_id: str


class AgentContext:
    """Run-scoped dependencies handed to nodes (`Runtime.context`) and tools (`ToolRuntime.context`).

    llm: chat model, or None for no-model (extractive) mode.
    web: a `agent.tools.WebSearch`, or None when no search key is configured.
    get_retriever: doc_ids -> object with `.search(query, k) -> list[RetrievedChunk]`.
    history: a `storage.history.store.HistoryStore` to read earlier sources from, or None.
    turns: the `agent.turns.TurnHistory` that saves the turn, or None (nothing is persisted).
    allocate_ids: the conversation's source registry (`TurnHistory.allocator`), or None: ids
        then come from the counters in state.
    """

    def __init__(self, *, llm=None, web=None, get_retriever=None, history=None, turns=None, allocate_ids=None,
                 rag_k: int = 8, max_tool_rounds: int = 4) -> None:
        self.llm = llm
        self.web = web
        self.get_retriever = get_retriever
        self.history = history
        if turns is None and history is not None:  # a store alone: save turns through their owner
            from agent.turns import TurnHistory

            turns = TurnHistory(history)
        self.turns = turns
        self.allocate_ids = allocate_ids
        self.rag_k = rag_k
        self.max_tool_rounds = max_tool_rounds

    def emit(self, event: str, **data: Any) -> None:
        """Progress for the UI ("searching documents…"): written to LangGraph's custom stream
        (`stream_mode="custom"`, see `agent.graph.stream_turn`) as `{"event": ..., **data}`.
        Progress never breaks a turn."""
        try:
            from langgraph.config import get_stream_writer

            get_stream_writer()({"event": event, **data})
        except Exception:  # noqa: BLE001 - outside a graph run (no writer) or a failing consumer
            pass
