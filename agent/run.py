"""Running one turn through the agent graph (agent/graph.py): whole (`run_turn`) or streamed (`stream_turn`).

    result = run_turn(AgentContext(llm=None, get_retriever=HybridRetriever), "What was revenue in 2023?",
                      selected_doc_ids=["report-1a2b3c4d5e6f"])
    for kind, value in stream_turn(context, text, **inputs): ...   # ("token" | "progress" | "answer", ...)

The compiled graph is built once per process (`compiled_graph`): it holds no state of a run or of a
user (no checkpointer; model, retriever and history arrive with each run's `AgentContext`), so one
instance serves every ChatService, test and benchmark, from any thread. `functools.cache` builds it
on first use, so importing this module compiles nothing.
"""

from __future__ import annotations

import functools
import logging
from typing import Any, Iterator

from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage
from langgraph.graph.state import CompiledStateGraph

from agent.graph import ANSWER_NODES, build_graph
from agent.messages import message_text
from agent.selection import SelectedDocument, document_summary, read_selection
from agent.state import AgentContext, TurnInput
from storage.schema import AnswerResult

log = logging.getLogger(__name__)

RECURSION_LIMIT = 40  # graph steps one turn may take (a normal one takes under 20); past it LangGraph stops a loop


@functools.cache
def compiled_graph() -> CompiledStateGraph:
    """The agent graph, compiled once per process (see the module docstring)."""
    return build_graph()


def initial_state(text: str, *, selected_doc_ids: list[str] | None = None, history: list | None = None,
                  summary: str | None = None, rag_counter: int = 0, web_counter: int = 0, sources: dict | None = None,
                  current_page: dict | None = None, previous_page: dict | None = None, user_id: str = "",
                  conversation_id: str = "", selected_documents: list[SelectedDocument] | None = None) -> TurnInput:
    """The graph's input for one user message (the inputs `run_turn` and `stream_turn` share); the
    selection is read from the catalog here, once for the turn, unless the caller read it
    (`selected_documents`, agent/selection.py `read_selection`)."""
    selected = list(selected_doc_ids or [])
    documents = read_selection(selected) if selected_documents is None else list(selected_documents)
    history = list(history or [])
    return {
        "messages": [*history, HumanMessage(content=text)],
        "turn_start": len(history),
        "rag_counter": rag_counter, "web_counter": web_counter, "sources": dict(sources or {}), "page_roles": {},
        "selected_doc_ids": selected, "selected_documents": documents,
        "indexed_document_summary": document_summary(documents) if summary is None else summary,
        "current_page": current_page, "previous_page": previous_page,
        "user_id": user_id, "conversation_id": conversation_id,
    }


def run_turn(context: AgentContext, text: str, **inputs: Any) -> AnswerResult:
    """Run one user message through the graph and return its AnswerResult (inputs: `initial_state`)."""
    return run_state(context, initial_state(text, **inputs))


def run_state(context: AgentContext, state: TurnInput) -> AnswerResult:
    """`run_turn` from its built input (`initial_state`)."""
    final = compiled_graph().invoke(state, context=context, config={"recursion_limit": RECURSION_LIMIT})
    return final["final_answer"]


def stream_turn(context: AgentContext, text: str, **inputs: Any) -> Iterator[tuple[str, Any]]:
    """`run_turn`, streamed (same inputs). Yields, in order of arrival:

    ("token", str)     a piece of answer text as the model writes it (LangGraph `stream_mode="messages"`,
                       answering nodes only); a no-model answer arrives as one whole piece;
    ("progress", dict) an `AgentContext.emit` event, `{"event": name, **data}` (`stream_mode="custom"`);
    ("answer", AnswerResult) last, once the turn is finalized (and persisted).

    Closing the generator early (the user pressed Stop) ends the run before its next step, so a
    stopped turn is not persisted.
    """
    yield from stream_state(context, initial_state(text, **inputs))


def stream_state(context: AgentContext, state: TurnInput) -> Iterator[tuple[str, Any]]:
    """`stream_turn` from its built input (`initial_state`)."""
    final: dict = {}
    streamed: set[str] = set()  # answering nodes whose tokens already streamed (skip their whole message)
    for mode, chunk in compiled_graph().stream(state, context=context, config={"recursion_limit": RECURSION_LIMIT},
                                               stream_mode=["messages", "custom", "values"]):
        if mode == "values":
            final = chunk
        elif mode == "custom":
            yield "progress", dict(chunk) if isinstance(chunk, dict) else {"event": str(chunk)}
        elif piece := _answer_piece(*chunk, streamed):
            yield "token", piece
    yield "answer", final["final_answer"]


def _answer_piece(message, meta: dict, streamed: set[str]) -> str:
    """The answer text a `messages`-mode event carries, or "" (routing, tool calls, a whole message
    whose tokens already streamed)."""
    node = meta.get("langgraph_node")
    if node not in ANSWER_NODES or not isinstance(message, AIMessage) or message.tool_calls:
        return ""
    if isinstance(message, AIMessageChunk):
        if message.tool_call_chunks:
            return ""
        streamed.add(node)
    elif node in streamed:
        return ""
    return message_text(message)

