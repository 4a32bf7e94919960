"""Graph state (small TypedDicts with reducers: messages append, sources merge), the readers nodes
and edges share, and the run context (`AgentContext`, the graph's `context_schema`).

The citation keys (`rag_counter`, `web_counter`, `sources`, `current_page`, `previous_page`,
`page_roles`) are the contract with agent/citations/ids.py: its `cite_sources` node reads and
advances them after each tool call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Callable, Literal, Protocol, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage, HumanMessage, ToolMessage
from langgraph.config import get_stream_writer
from langgraph.graph.message import add_messages

from agent.citations.ids import Allocate, merge_sources
from agent.messages import message_text
from agent.selection import SelectedDocument
from agent.tool_output import ToolOutput
from storage.schema import AnswerResult, RetrievedChunk, Source

if TYPE_CHECKING:
    from agent.tools import WebSearch
    from agent.turns import TurnHistory
    from storage.history.store import HistoryStore
    from storage.jobs.queue import IngestJobs

Route = Literal["documents", "web", "conversation", "ingest"]
MAX_TOOL_FAILURES = 2  # a tool failing the same way this often this turn is not asked again


class PageRef(TypedDict):
    """A page the user is looking at in the viewer."""

    doc_id: str
    source_file: str
    page_number: int  # 0-based


class TurnInput(TypedDict, total=False):
    """What a turn starts from (the graph's `input_schema`; built by agent/run.py `initial_state`)."""

    messages: Annotated[list[AnyMessage], add_messages]
    turn_start: int  # index in `messages` where this turn's user message sits (what gets persisted)

    # citation registry (see agent/citations/ids.py)
    rag_counter: int
    web_counter: int
    sources: Annotated[dict[str, Source], merge_sources]  # stored dumps are read back into Sources
    page_roles: dict[str, str]  # this turn: "[^Current Page]" / "[^Previous Page]" -> that page's "[^n]"

    # what the user is chatting with, read from the catalog once (agent/selection.py)
    selected_doc_ids: list[str]
    selected_documents: list[SelectedDocument]
    indexed_document_summary: str
    current_page: PageRef | None
    previous_page: PageRef | None

    user_id: str
    conversation_id: str


class TurnOutput(TypedDict, total=False):
    """What a turn returns (the graph's `output_schema`): its answer."""

    final_answer: AnswerResult


class AgentState(TurnInput, total=False):
    # routing and outcome of this turn
    route: Route
    web_available: bool  # a web search client is configured for this run
    ingest_path: str  # the resolved PDF an /ingest command asked for
    ingested_doc_id: str  # set by queue_ingest for a PDF processed already: the turn switches to it
    ingest_job_id: str  # the processing job queue_ingest queued for a PDF not processed yet
    web_query: str  # the model's standalone web query for this turn ("" = the user's message)
    fallback_reason: str  # why the documents path handed over to web search
    command_reply: str  # a ready reply (command errors, help) that skips the model
    final_answer: AnswerResult


# ---------------------------------------------------------------- readers of the state


def turn_messages(state: AgentState) -> list:
    """This turn's messages, from the user's question on."""
    return list(state.get("messages") or [])[state.get("turn_start", 0) or 0:]


def question(state: AgentState) -> str:
    """The user's message of this turn."""
    for msg in reversed(turn_messages(state) or state.get("messages") or []):
        if isinstance(msg, HumanMessage):
            return message_text(msg)
    return ""


def tool_result(msg) -> ToolOutput | None:
    """A ToolMessage's `ToolOutput`, or None."""
    return ToolOutput.of(msg) if isinstance(msg, ToolMessage) else None


def turn_tool_results(state: AgentState, tool_name: str | None = None) -> list[ToolOutput]:
    """Tool outputs of this turn, oldest first (optionally of one tool)."""
    results = (tool_result(msg) for msg in turn_messages(state))
    return [r for r in results if r is not None and (tool_name is None or r.tool == tool_name)]


def tool_failures(state: AgentState) -> list[tuple[str, str]]:
    """(tool name, error text) of this turn's tool calls that raised, oldest first."""
    return [(m.name or "", str(m.content)) for m in turn_messages(state) if isinstance(m, ToolMessage) and m.status == "error"]


def repeated_failure(state: AgentState) -> bool:
    """True when one tool failed the same way `MAX_TOOL_FAILURES` times this turn: asking again
    would only fail again, so the turn must answer from what it has."""
    failed = tool_failures(state)
    return any(failed.count(f) >= MAX_TOOL_FAILURES for f in set(failed))


# ---------------------------------------------------------------- the run context


class Retriever(Protocol):
    def search(self, query: str, k: int = 8) -> list[RetrievedChunk]: ...


@dataclass(kw_only=True)
class AgentContext:
    """Run-scoped dependencies handed to nodes (`Runtime.context`) and tools (`ToolRuntime.context`);
    the graph's `context_schema`."""

    llm: BaseChatModel | None = None  # None: no-model (extractive) answers
    web: WebSearch | None = None  # None when no search key is configured
    get_retriever: Callable[[list[str]], Retriever] | None = None  # doc_ids -> a retriever over them
    history: HistoryStore | None = None  # earlier sources are read from it (retrieve_previous_sources)
    turns: TurnHistory | None = None  # saves the turn; None: nothing is persisted
    allocate_ids: Allocate | None = None  # the conversation's source registry; None: ids from state's counters
    rag_k: int = 8  # passages per document search
    max_tool_rounds: int = 4  # tool rounds before the model must answer
    ingest_jobs: IngestJobs | None = None  # the queue /ingest submits to; None: storage.jobs.queue.default_ingest_jobs()

    def __post_init__(self) -> None:
        if self.turns is None and self.history is not None:  # a store alone: save turns through their owner
            self.turns = TurnHistory(self.history)

    def emit(self, event: str, **data: Any) -> None:
        """Progress for the UI ("searching documents…"): written to LangGraph's custom stream
        (`stream_mode="custom"`, see `agent.run.stream_turn`) as `{"event": ..., **data}`.
        Outside a graph run it does nothing."""
        try:
            writer = get_stream_writer()
        except RuntimeError:  # called outside a graph run: nobody listens
            return
        writer({"event": event, **data})
