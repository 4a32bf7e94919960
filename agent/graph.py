"""The agent as a flowchart (builder at the bottom).

    START -> route_query ─┬─ /ingest ───────────> ingest_pdf ──────────────┐
                          ├─ documents ─> agent <──> tools -> cite_sources ─(nothing found)─> web_search
                          ├─ web ───────> web_search -> tools -> cite_sources -> summarize_web ┤
                          └─ conversation / command reply -> respond ───────────┤
                                        agent (final answer) ──────────────────> finalize_answer
                                              -> check_claims -> update_history_and_profile -> END

`tools` is LangGraph's standard `ToolNode`; `cite_sources` (agent/citations/ids.py) then gives every
source its id and swaps the numbered ToolMessages in by id. Dependencies (model, web search,
retriever, history, the source registry's allocator) come from the run context (`AgentContext`);
with no model, `agent`, `summarize_web` and `respond` answer extractively (agent/no_model/extractive.py)
through the same tool calls and citation numbering, so citations are exact in both modes.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any, Iterator

from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import ToolException
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.runtime import Runtime

from agent import conversation, prompts, scope
from agent.no_model import extractive, figures, followups
from agent.citations.answer import build_answer, cite_sources
from agent.claims.check import check_turn
from agent.routing import (
    QueryKind,
    RelevanceGrade,
    documents_found_nothing,
    parse_command,
    route_after_agent,
    route_after_query,
    route_after_tools,
    turn_messages,
    turn_tool_results,
    unknown_command_reply,
)
from agent.state import AgentContext, AgentState
from agent.tools import RAG_TOOL, STATEMENTS_TOOL, WEB_TOOL, agent_tools
from agent.turns import turn_record
from storage.documents.embeddings import get_embedder
from storage.schema import AnswerResult, display_page

log = logging.getLogger(__name__)

ROUTER_HISTORY = 6  # recent messages the router sees (follow-ups need the previous turn)
MAX_TOOL_FAILURES = 2  # a no-model turn whose search fails this often ends with the error, not a retry loop


def _text(msg) -> str:
    """A message's text (a chat model may return its content as a list of parts)."""
    return msg.text if hasattr(msg, "text") else str(msg.content)


def _question(state: AgentState) -> str:
    for msg in reversed(turn_messages(state) or state.get("messages") or []):
        if isinstance(msg, HumanMessage):
            return _text(msg)
    return ""


def _summary(state: AgentState) -> str:
    return state.get("indexed_document_summary") or "(no PDF selected)"


def _recent_dialogue(state: AgentState) -> list:
    """The last user/assistant messages, without tool traffic (what the router needs)."""
    keep = [m for m in state.get("messages") or [] if isinstance(m, HumanMessage) or (isinstance(m, AIMessage) and not m.tool_calls)]
    return keep[-ROUTER_HISTORY:]


def _tool_call(name: str, query: str, arg: str = "query") -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": {arg: query}, "id": f"call_{uuid.uuid4().hex[:12]}"}])


# ---------------------------------------------------------------- nodes


def route_query(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Decide the path. Commands first (`/ingest <pdf>`, `/help`); then, with a model, a structured
    relevance judgement of the message against the selected documents' summary (yes/maybe ->
    documents), and on "no" a second judgement: conversational or needs web search. Without a model,
    simple rules (agent/no_model/extractive.py) decide; retrieval scores decide later whether the documents
    answered."""
    ctx = runtime.context
    text = _question(state)
    base = {"web_available": ctx.web is not None, "command_reply": "", "fallback_reason": ""}
    if (cmd := parse_command(text)) is not None:
        return {**base, **_command_update(cmd)}
    if conversation.is_conversation(text):  # greetings, thanks, questions about the app: no search, any mode
        route, web_query = "conversation", ""
    elif ctx.llm is None:
        route, web_query = extractive.route_without_model(text, state.get("selected_doc_ids") or [], ctx.web is not None), ""
    else:
        route, web_query = _judge_route(state, ctx)
    ctx.emit("route", route=route)
    return {**base, "route": route, "web_query": web_query}


def _command_update(cmd) -> dict:
    if cmd.name == "ingest":
        from storage.documents.catalog import PdfProcessingError
        from storage.documents.intake import resolve_source_pdf

        if not cmd.argument:
            return {"route": "ingest", "command_reply": "Usage: /ingest <file.pdf> (a PDF in the source folder)."}
        try:
            path = resolve_source_pdf(cmd.argument)
        except PdfProcessingError as exc:
            return {"route": "ingest", "command_reply": f"Cannot ingest: {exc}"}
        return {"route": "ingest", "ingest_path": str(path)}
    if cmd.name == "help":
        return {"route": "conversation", "command_reply": prompts.COMMANDS_HELP}
    return {"route": "conversation", "command_reply": unknown_command_reply(cmd.name)}


def _judge(llm, schema, system: str, dialogue: list):
    """One structured judgement; None when the model's output cannot be parsed (logged)."""
    try:
        return llm.with_structured_output(schema).invoke([SystemMessage(system), *dialogue])
    except Exception as exc:  # noqa: BLE001 - a bad judgement must not lose the question
        log.warning("%s judgement failed: %s", schema.__name__, type(exc).__name__)
        return None


def _judge_route(state: AgentState, ctx: AgentContext) -> tuple[str, str]:
    """(route, web search query) from the model's two structured judgements."""
    dialogue = _recent_dialogue(state)
    if state.get("selected_doc_ids"):
        grade = _judge(ctx.llm, RelevanceGrade, prompts.RELEVANCE_SYSTEM.format(summary=_summary(state)), dialogue)
        log.info("relevance: %s", grade.relevant if grade else "unparsed")
        if grade is None or grade.relevant in ("yes", "maybe"):
            return "documents", ""  # when unsure, search the documents: their answers are citable
    kind = _judge(ctx.llm, QueryKind, prompts.QUERY_KIND_SYSTEM, dialogue)
    log.info("query kind: %s", kind.kind if kind else "unparsed")
    if kind is not None and kind.kind == "needs_web_search" and ctx.web is not None:
        return "web", kind.search_query.strip()
    return "conversation", ""


def ingest_pdf(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Process the PDF named by `/ingest` (once: already-processed files are reused) and make it the
    active PDF, with its summary for routing. Failures become a plain reply; nothing is switched."""
    from storage.documents.catalog import PdfProcessingError
    from storage.documents.ingest import process_and_index_pdf

    ctx = runtime.context
    try:
        pdf = process_and_index_pdf(state["ingest_path"], progress=lambda stage, done, total: ctx.emit("ingest", stage=stage, done=done, total=total))
    except PdfProcessingError as exc:
        return {"messages": [AIMessage(content=f"Cannot ingest: {exc}")]}
    reply = (
        f"Processed **{pdf.source_file}** ({pdf.page_count} pages, {pdf.chunk_count} passages"
        + (f", {len(pdf.ocr_pages)} pages read by OCR" if pdf.ocr_pages else "")
        + "). It is now the active PDF: ask away."
    )
    return {"messages": [AIMessage(content=reply)], "selected_doc_ids": [pdf.doc_id], "indexed_document_summary": pdf.summary,
            "ingested_doc_id": pdf.doc_id}


def agent(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """The documents agent. With a model: the model with tools bound (rag/web/previous sources)
    decides the next tool call or answers; after `max_tool_rounds` rounds it must answer. Without a
    model: first a document search for the question, then an extractive answer quoting the best
    sentences of the results; when nothing usable was found, `fallback_reason` sends the turn to web
    search (if configured)."""
    ctx = runtime.context
    if ctx.llm is None:
        return _extractive_agent_step(state, ctx)
    rounds = sum(1 for m in turn_messages(state) if isinstance(m, AIMessage) and m.tool_calls)
    page = state.get("current_page")
    page_context = ""
    if page:
        prev = state.get("previous_page")
        page_context = prompts.PAGE_CONTEXT.format(
            page=display_page(page["page_number"]), file=page.get("source_file") or page["doc_id"],
            previous=f" The page viewed before, page {display_page(prev['page_number'])}, is [^Previous Page]." if prev else "",
        )
    system = prompts.AGENT_SYSTEM.format(summary=_summary(state), page_context=page_context, history_note=_history_note())
    system += _knowledge_note(_question(state)) + _scope_note(state)
    messages = [SystemMessage(system), *state["messages"]]
    if rounds >= ctx.max_tool_rounds or _repeated_failure(state):
        response = ctx.llm.invoke([*messages, HumanMessage(prompts.FORCE_ANSWER_NOTE)])
    else:
        ctx.emit("thinking", round=rounds + 1)
        response = ctx.llm.bind_tools(agent_tools()).invoke(messages)
    return {"messages": [response]}


def _scope_note(state: AgentState) -> str:
    """The model is told, as the no-model answer says, when the asked period, issuer or form is not
    in the selection (agent/scope.py), judged on the passages retrieved so far."""
    passages = [s.get("text") or "" for r in turn_tool_results(state, RAG_TOOL) for s in r.get("sources", [])]
    note = scope.scope_note(_question(state), _selected_infos(state), passages)
    return f"\n\n{prompts.SCOPE_NOTE.format(note=note)}\n" if note else ""


def _knowledge_items(question: str) -> list:
    """Curated Q&A items relevant to the question; none when the knowledge base is missing or broken."""
    from agent.knowledge_base import KnowledgeBaseError, get_knowledge_base

    try:
        return get_knowledge_base().search(question) if question else []
    except KnowledgeBaseError as exc:
        log.warning("knowledge base unavailable: %s", exc)
        return []


def _knowledge_note(question: str) -> str:
    """The prompt block listing relevant knowledge items with the instruction to cite their Q-numbers."""
    from agent.knowledge_base import format_for_prompt

    block = format_for_prompt(_knowledge_items(question))
    return f"\n\n{block}\n" if block else ""


def _with_knowledge_quotes(text: str, question: str) -> str:
    """No-model mode: quote relevant curated answers, cited by Q-number (shown as [^8.1]-style markers)."""
    items = _knowledge_items(question)
    if not items:
        return text
    quotes = "\n".join(f"- “{item.answer}” ({item.id})" for item in items)
    return f"{text}\n\nFrom the curated knowledge base:\n\n{quotes}"


def _history_note() -> str:
    from agent.context import TRUNCATED_HISTORY_PROMPT

    return "\n" + TRUNCATED_HISTORY_PROMPT + "\n"


def _tool_failures(state: AgentState) -> list[tuple[str, str]]:
    """(tool name, error text) of this turn's tool calls that raised, oldest first."""
    return [(m.name or "", str(m.content)) for m in turn_messages(state) if isinstance(m, ToolMessage) and m.status == "error"]


def _repeated_failure(state: AgentState) -> bool:
    """True when one tool failed the same way `MAX_TOOL_FAILURES` times this turn: asking again
    would only fail again, so the model must answer from what it has."""
    failed = _tool_failures(state)
    return any(failed.count(f) >= MAX_TOOL_FAILURES for f in set(failed))


def _tool_error(exc: Exception) -> str:
    """What a tool that raised tells the model (and a no-model turn's end): a ToolException's own
    message (invalid arguments, a reason the tool gives), else only the error's type, since its text
    may hold server paths."""
    if isinstance(exc, ToolException):
        return str(exc)
    log.warning("tool failed: %r", exc)
    return f"The tool failed ({type(exc).__name__})."


def _extractive_agent_step(state: AgentState, ctx: AgentContext) -> dict:
    question = _question(state)
    # a short follow-up ("and in the year before?") is searched as the previous question, shifted
    earlier = [_text(m) for m in (state.get("messages") or [])[: state.get("turn_start") or 0]
               if isinstance(m, HumanMessage) and not conversation.is_conversation(_text(m))]
    resolved = followups.resolve_followup(question, earlier)
    searches = turn_tool_results(state, RAG_TOOL)
    failed = _tool_failures(state)
    if not searches:
        rag_failed = [reason for name, reason in failed if name == RAG_TOOL]
        if len(rag_failed) >= MAX_TOOL_FAILURES:  # the same search failing again would only fail again
            reason = " ".join(rag_failed[-1].encode("utf-8", "replace").decode("utf-8").split())[:200]
            return {"messages": [AIMessage(content=f"The document search failed {len(rag_failed)} times ({reason}), so "
                                                   "this turn ends here. Rephrase the question and ask again.")]}
        return {"messages": [_tool_call(RAG_TOOL, resolved.query)]}
    sources = [s for r in searches for s in r.get("sources", [])]
    page_text = extractive.page_text_lookup()  # each PDF's pages read once for the whole step
    note = scope.scope_note(resolved.query, _selected_infos(state), [s.get("text") or "" for s in sources])
    statements = turn_tool_results(state, STATEMENTS_TOOL)
    statements_failed = any(name == STATEMENTS_TOOL for name, _ in failed)  # optional: not asked again
    if not statements and not statements_failed and note is None \
            and figures.wants_statements(resolved.query, sources, page_text, get_embedder()):
        # no row on the cited pages, or a company-level row outside the statements: read the
        # statement pages that print the line item
        return {"messages": [_tool_call(STATEMENTS_TOOL, resolved.query, arg="question")]}
    sources = [s for r in statements for s in r.get("sources", [])] + sources  # the pages of record first
    text, usable = extractive.compose_extractive_answer(
        resolved.query, sources, page_text=page_text, searched_for=resolved.query if resolved.is_followup else None,
        scope_note=note)
    if not usable and ctx.web is not None:
        return {"fallback_reason": "no passage in the selected PDFs matched the question"}
    return {"messages": [AIMessage(content=_with_knowledge_quotes(text, question))]}


def web_search(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Start the web path: a `web_search_tool` call for the user's question (run by `tools`, then
    numbered by `cite_sources`: results get `{^n}` ids). Reached directly from routing, or as the
    fallback when the documents yielded nothing usable (`fallback_reason` says why)."""
    update: dict = {"route": "web", "messages": [_tool_call(WEB_TOOL, state.get("web_query") or _question(state))]}
    if not state.get("fallback_reason") and documents_found_nothing(state):
        update["fallback_reason"] = "the document search returned nothing usable"
    return update


def summarize_web(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Answer from the top web results with `{^n}` citations: summarised by the model, or listed
    with their snippets without one. No results -> an honest "not found"."""
    ctx = runtime.context
    results = turn_tool_results(state, WEB_TOOL)
    last = results[-1] if results else {}
    sources = [s for s in last.get("sources", []) if s.get("source_id")]
    question = _question(state)
    fallback = state.get("fallback_reason")
    if not sources:
        why = last.get("message") or "no results"
        text = f"I searched the web for “{question}” but found nothing usable ({why.rstrip('.')})."
        if fallback:
            text = f"The selected PDFs did not answer this ({fallback}). " + text
        return {"messages": [AIMessage(content=text)]}
    if ctx.llm is None:
        text = extractive.compose_web_digest(sources)
        if fallback:
            text = f"The selected PDFs did not answer this ({fallback}).\n\n" + text
        return {"messages": [AIMessage(content=text)]}
    listing = "\n\n".join(f"{s['source_id']} {s.get('title', '')} ({s.get('url', '')}):\n{s.get('text', '')}" for s in sources)
    system = prompts.WEB_SUMMARY_SYSTEM.format(
        results=listing, fallback_note=prompts.WEB_FALLBACK_NOTE.format(reason=fallback) if fallback else ""
    )
    response = ctx.llm.invoke([SystemMessage(system), HumanMessage(question)])
    return {"messages": [AIMessage(content=_text(response))]}


def respond(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Conversational reply: a command's ready reply (errors, help), the model's chat answer, or the
    no-model explanation."""
    ctx = runtime.context
    if reply := state.get("command_reply"):
        return {"messages": [AIMessage(content=reply)]}
    if ctx.llm is None:
        question = _question(state)
        if (kind := conversation.kind(question)) is not None:
            reply = conversation.reply_without_model(kind, _selected_titles(state))
            return {"messages": [AIMessage(content=_with_knowledge_quotes(reply, question))]}
        return {"messages": [AIMessage(content=_with_knowledge_quotes(extractive.NO_MODEL_CONVERSATION, question))]}
    system = prompts.CONVERSATION_SYSTEM.format(summary=_summary(state), web_note="" if ctx.web else prompts.NO_WEB_NOTE)
    system += _knowledge_note(_question(state))
    response = ctx.llm.invoke([SystemMessage(system), *_recent_dialogue(state)])
    return {"messages": [AIMessage(content=_text(response))]}


def _selected_infos(state: AgentState) -> list:
    """The selected documents' `DocumentInfo`s (issuer, form, period), in selection order."""
    from storage.documents.catalog import library_infos

    infos = library_infos()
    return [infos[d] for d in state.get("selected_doc_ids") or [] if d in infos]


def _selected_titles(state: AgentState) -> list[str]:
    return [info.title for info in _selected_infos(state)]


def finalize_answer(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Turn the final AI text into an `AnswerResult` (agent/citations/answer.py checks every marker against
    the source registry) and replace the final message with the cleaned text."""
    ctx = runtime.context
    last = state["messages"][-1]
    route = state.get("route") or "conversation"
    answer = build_answer(_text(last), state.get("sources") or {}, page_roles=state.get("page_roles") or {}, route=route,
                          mode="extractive" if ctx.llm is None else "llm")
    if state.get("ingested_doc_id"):  # only a successful /ingest switches the active PDF
        answer.active_doc_ids = [state["ingested_doc_id"]]
    final = AIMessage(content=answer.message, id=last.id)
    return {
        "messages": [final],
        "final_answer": answer.model_dump(),
        "citations": [c.model_dump() for c in answer.citations],
        "citation_map": answer.citation_map,
    }


def check_claims(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Check every cited sentence of the final answer against the text of the sources it cites
    (agent/claims/check.py): the result is stored with the answer, and the UI marks what fails."""
    answer = AnswerResult.model_validate(state["final_answer"])
    if not answer.citations:
        return {}
    registry = dict(state.get("sources") or {})
    registry.update({role: registry[sid] for role, sid in (state.get("page_roles") or {}).items() if sid in registry})
    claims = check_turn(answer, registry, extractive.page_text_lookup())
    return {"final_answer": {**state["final_answer"], "claims": [c.model_dump() for c in claims]}}


def update_history_and_profile(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Persist the whole turn (every path) through its one owner, `AgentContext.turns`
    (agent/turns.py): stored whole or not at all, queued on disk while the history is down. The
    answer goes out either way, with `saved` and, when not saved, the reason in `error`."""
    ctx = runtime.context
    answer = dict(state["final_answer"])
    if ctx.turns is None or not state.get("conversation_id"):
        return {"final_answer": {**answer, "saved": False}}
    outcome = ctx.turns.save(turn_record(state, answer))
    update = {**answer, "saved": outcome.saved}
    if outcome.error:
        update["error"] = outcome.error
    return {"final_answer": update}


# ---------------------------------------------------------------- the flowchart


def build_graph(tools: list | None = None):
    builder = StateGraph(AgentState, context_schema=AgentContext)
    builder.add_node(route_query)
    builder.add_node(ingest_pdf)
    builder.add_node(agent)
    # A tool that raises becomes an error ToolMessage (a repeated failure ends the turn).
    builder.add_node("tools", ToolNode(tools or agent_tools(), handle_tool_errors=_tool_error))
    builder.add_node(cite_sources)
    builder.add_node(web_search)
    builder.add_node(summarize_web)
    builder.add_node(respond)
    builder.add_node(finalize_answer)
    builder.add_node(check_claims)
    builder.add_node(update_history_and_profile)

    builder.add_edge(START, "route_query")
    builder.add_conditional_edges("route_query", route_after_query)
    builder.add_edge("ingest_pdf", "finalize_answer")
    builder.add_conditional_edges("agent", route_after_agent)
    builder.add_edge("tools", "cite_sources")
    builder.add_conditional_edges("cite_sources", route_after_tools)
    builder.add_edge("web_search", "tools")
    builder.add_edge("summarize_web", "finalize_answer")
    builder.add_edge("respond", "finalize_answer")
    builder.add_edge("finalize_answer", "check_claims")
    builder.add_edge("check_claims", "update_history_and_profile")
    builder.add_edge("update_history_and_profile", END)
    return builder.compile(name="pdf_chat_agent")


_GRAPH = None


def get_graph():
    global _GRAPH
    if _GRAPH is None:
        _GRAPH = build_graph()
    return _GRAPH


def _initial_state(text: str, *, selected_doc_ids: list[str] | None = None, history: list | None = None,
                   summary: str | None = None, rag_counter: int = 0, web_counter: int = 0, sources: dict | None = None,
                   current_page: dict | None = None, previous_page: dict | None = None, user_id: str = "",
                   conversation_id: str = "") -> dict:
    """The graph's input for one user message (the inputs `run_turn` and `stream_turn` share)."""
    selected = list(selected_doc_ids or [])
    history = list(history or [])
    return {
        "messages": [*history, HumanMessage(content=text)],
        "turn_start": len(history),
        "rag_counter": rag_counter, "web_counter": web_counter, "sources": dict(sources or {}), "page_roles": {},
        "selected_doc_ids": selected,
        "indexed_document_summary": document_summary(selected) if summary is None else summary,
        "current_page": current_page, "previous_page": previous_page,
        "user_id": user_id, "conversation_id": conversation_id,
    }


def run_turn(context: AgentContext, text: str, **inputs: Any) -> AnswerResult:
    """Run one user message through the graph and return its AnswerResult (inputs: `_initial_state`)."""
    final = get_graph().invoke(_initial_state(text, **inputs), context=context, config={"recursion_limit": 40})
    return AnswerResult.model_validate(final["final_answer"])


# Nodes whose model text is the answer the user reads (not routing's judgements, not tool calls).
ANSWER_NODES = frozenset({"agent", "summarize_web", "respond"})


def stream_turn(context: AgentContext, text: str, **inputs: Any) -> Iterator[tuple[str, Any]]:
    """`run_turn`, streamed (same inputs). Yields, in order of arrival:

    ("token", str)     a piece of answer text as the model writes it (LangGraph `stream_mode="messages"`,
                       answering nodes only); a no-model answer arrives as one whole piece;
    ("progress", dict) an `AgentContext.emit` event, `{"event": name, **data}` (`stream_mode="custom"`);
    ("answer", AnswerResult) last, once the turn is finalized (and persisted).

    Closing the generator early (the user pressed Stop) ends the run before its next step, so a
    stopped turn is not persisted.
    """
    state = _initial_state(text, **inputs)
    final: dict = {}
    streamed: set[str] = set()  # answering nodes whose tokens already streamed (skip their whole message)
    for mode, chunk in get_graph().stream(state, context=context, config={"recursion_limit": 40},
                                          stream_mode=["messages", "custom", "values"]):
        if mode == "values":
            final = chunk
        elif mode == "custom":
            yield "progress", dict(chunk) if isinstance(chunk, dict) else {"event": str(chunk)}
        else:
            message, meta = chunk
            node = meta.get("langgraph_node")
            if node not in ANSWER_NODES or not isinstance(message, AIMessage) or message.tool_calls:
                continue
            if isinstance(message, AIMessageChunk):
                if message.tool_call_chunks:
                    continue
                streamed.add(node)
            elif node in streamed:
                continue
            if piece := _text(message):
                yield "token", piece
    yield "answer", AnswerResult.model_validate(final["final_answer"])


def document_summary(doc_ids: list[str]) -> str:
    """The `indexed_document_summary` of the selected PDFs (one paragraph each)."""
    from storage.documents.catalog import load_manifest

    parts = []
    for doc_id in doc_ids:
        try:
            parts.append(load_manifest(doc_id).summary)
        except (OSError, ValueError) as exc:
            log.warning("no manifest for %s: %s", doc_id, exc)
    return "\n".join(parts)
