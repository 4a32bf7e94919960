"""Helpers for citation tests: sources, scripted tools, and a tiny agent graph: ToolNode -> cite_sources."""

from __future__ import annotations

import json
from typing import Any, Callable

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from agent.citations.answer import RenumberResult, cite_sources, number_output
from agent.state import AgentState
from agent.tool_output import ToolOutput
from storage.schema import Source

BOEING = "BOEING_2022_10K.pdf"
APPLE = "APPLE_2022_10K.pdf"


def doc(chunk_id: int, text: str = "", file: str = BOEING, page: int = 0, doc_id: str | None = None) -> Source:
    doc_id = doc_id or file.split(".")[0].lower() + "-0123456789ab"
    return Source(kind="document", text=text or f"{file} chunk {chunk_id}", title=file, doc_id=doc_id,
                  source_file=file, page_number=page, chunk_id=chunk_id)


def web(url: str, text: str = "web page text", title: str = "A web page") -> Source:
    return Source(kind="web", url=url, title=title, text=text)


def page(file: str, page_number: int, role: str | None = None, text: str = "page text") -> Source:
    return Source(kind="page", text=text, title=file, doc_id=file.split(".")[0].lower() + "-0123456789ab",
                  source_file=file, page_number=page_number, extra={"page_role": role} if role else {})


def tool_output(name: str, sources: list[Source]) -> str:
    return json.dumps({"success": True, "tool": name, "result_count": len(sources),
                       "sources": [s.model_dump() for s in sources]})


def renumber_tool_output(content: str, rag_counter: int = 0, web_counter: int = 0, registry: dict | None = None,
                         **kw: Any) -> tuple[str, RenumberResult]:
    """Number one tool-output JSON as `cite_sources` does -> (the JSON the model reads, the result)."""
    output = ToolOutput.of(content)
    if output is None:
        return content, RenumberResult([], dict(registry or {}), rag_counter, web_counter)
    numbered, result = number_output(output, rag_counter, web_counter, registry, **kw)
    return numbered.content(), result


def state_after(result: RenumberResult) -> dict[str, Any]:
    """The state keys `cite_sources` writes after numbering one tool output."""
    return {"rag_counter": result.rag_counter, "web_counter": result.web_counter, "sources": result.registry}


def source_ids(message: ToolMessage) -> list[str]:
    return [s["source_id"] for s in json.loads(message.content)["sources"]]


GraphState = AgentState  # the product graph's state: messages and the citation keys cite_sources reads


def scripted_tools(results: dict[str, list[Source]]) -> list:
    """`search_documents` and `search_web` tools answering from a dict query -> sources."""

    @tool
    def search_documents(query: str) -> str:
        """Search the selected PDFs."""
        return tool_output("search_documents", results.get(query, []))

    @tool
    def search_web(query: str) -> str:
        """Search the web."""
        return tool_output("search_web", results.get(query, []))

    return [search_documents, search_web]


def call(name: str, query: str, call_id: str) -> dict[str, Any]:
    return {"name": name, "args": {"query": query}, "id": call_id, "type": "tool_call"}


def build_graph(model: FakeMessagesListChatModel, tools: list) -> Callable:
    """agent -> tools (ToolNode) -> cite_sources -> agent ... -> END: the shape agent/graph.py builds."""

    def agent(state: GraphState) -> dict:
        return {"messages": [model.invoke(state["messages"])]}

    g = StateGraph(GraphState)
    g.add_node("agent", agent)
    g.add_node("tools", ToolNode(tools))
    g.add_node(cite_sources)
    g.add_edge(START, "agent")
    g.add_conditional_edges("agent", tools_condition, {"tools": "tools", END: END})
    g.add_edge("tools", "cite_sources")
    g.add_edge("cite_sources", "agent")
    return g.compile()


def run_tool_node(tools: list, state: dict) -> dict:
    """Run the tool calls of the last message through ToolNode -> cite_sources and return the state."""
    g = StateGraph(GraphState)
    g.add_node("tools", ToolNode(tools))
    g.add_node(cite_sources)
    g.add_edge(START, "tools")
    g.add_edge("tools", "cite_sources")
    g.add_edge("cite_sources", END)
    return g.compile().invoke(state)


def scripted_model(*turns: AIMessage) -> FakeMessagesListChatModel:
    return FakeMessagesListChatModel(responses=list(turns))


__all__ = ["AIMessage", "HumanMessage", "ToolMessage", "APPLE", "BOEING", "build_graph", "call", "doc", "page",
           "renumber_tool_output", "run_tool_node", "scripted_model", "scripted_tools", "source_ids", "tool_output", "web"]
