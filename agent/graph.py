"""The agent as a flowchart: the nodes in the order a turn meets them, each edge function right after
the node it leaves, the builder at the bottom.

    START -> route_query
    route_query ─┬─ /ingest ─────────────────> queue_ingest ─> finalize_answer
                 ├─ documents, a model ──────> agent
                 ├─ documents, no model ─────> answer_without_model
                 ├─ web ─────────────────────> web_search
                 └─ conversation, a command ─> respond ─> finalize_answer
    agent ────────────────┬─ tool calls ─> tools
                          └─ an answer ──> finalize_answer
    answer_without_model ─┬─ tool calls ─> tools
                          ├─ nothing usable, web search configured ─> web_search
                          └─ an answer ──> finalize_answer
    web_search ─> tools ─> cite_sources ─┬─ web path ─────────────────> summarize_web ─> finalize_answer
                                         ├─ documents found nothing, web configured ─> web_search
                                         └─ else back to agent / answer_without_model
    finalize_answer ─> check_claims ─> update_history_and_profile ─> END

`tools` is LangGraph's standard `ToolNode` over `TOOLS` (agent/tools.py), the same tools the model is
bound to; `cite_sources` (agent/citations/ids.py) then gives every source its id and swaps the
numbered ToolMessages in by id. Dependencies (model, web search, retriever, history, the source
registry's allocator) come from the run context (`AgentContext`, agent/state.py). Without a model,
`answer_without_model` (agent/no_model/answer.py) answers the documents path extractively through the
same tool calls and citation numbering, so citations are exact in both modes; `summarize_web` and
`respond` have a no-model reply of their own. Running a turn: agent/run.py.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Literal

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.tools import ToolException
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.prebuilt import ToolNode
from langgraph.runtime import Runtime

from agent import conversation, prompts, scope
from agent.citations.answer import build_answer, cite_sources
from agent.claims.check import check_turn
from agent.knowledge_base import format_for_prompt, relevant_items
from agent.messages import last_tool_batch, message_text, tool_call_message
from agent.no_model import answer as no_model_answer
from agent.no_model import extractive
from agent.no_model.answer import with_knowledge_quotes
from agent.page_text import page_text_lookup
from agent.routing import QueryKind, RelevanceGrade, parse_command, unknown_command_reply
from agent.selection import selected_infos
from agent.state import (
    AgentContext,
    AgentState,
    TurnInput,
    TurnOutput,
    question,
    repeated_failure,
    tool_result,
    turn_messages,
    turn_tool_results,
)
from agent.tools import RAG_TOOL, TOOLS, WEB_TOOL
from agent.turns import turn_record
from storage.documents.catalog import PdfProcessingError, check_pdf_processed
from storage.documents.ingest import process_and_index_pdf
from storage.documents.intake import compute_doc_id, resolve_source_pdf
from storage.history.store import HistoryError
from storage.jobs.queue import default_ingest_jobs
from storage.schema import AnswerResult, display_page
from agent.context import TRUNCATED_HISTORY_PROMPT

log = logging.getLogger(__name__)

ROUTER_HISTORY = 6  # recent messages the router sees (follow-ups need the previous turn)


def _summary(state: AgentState) -> str:
    return state.get("indexed_document_summary") or "(no PDF selected)"


def _recent_dialogue(state: AgentState) -> list:
    """The last user/assistant messages, without tool traffic (what the router needs)."""
    keep = [m for m in state.get("messages") or [] if isinstance(m, HumanMessage) or (isinstance(m, AIMessage) and not m.tool_calls)]
    return keep[-ROUTER_HISTORY:]


def _knowledge_note(question_text: str) -> str:
    """The prompt block listing relevant knowledge items with the instruction to cite their Q-numbers."""
    block = format_for_prompt(relevant_items(question_text))
    return f"\n\n{block}\n" if block else ""


# ---------------------------------------------------------------- route_query


def route_query(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Decide the path. Commands first (`/ingest <pdf>`, `/help`); then, with a model, a structured
    relevance judgement of the message against the selected documents' summary (yes/maybe ->
    documents), and on "no" a second judgement: conversational or needs web search. Without a model,
    simple rules (agent/no_model/extractive.py) decide; retrieval scores decide later whether the documents
    answered."""
    ctx = runtime.context
    text = question(state)
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
    except ValueError as exc:  # unparsable output (OutputParserException, pydantic's ValidationError): route on
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


def route_after_query(state: AgentState, runtime: Runtime[AgentContext]) -> Literal[
        "queue_ingest", "agent", "answer_without_model", "web_search", "respond"]:
    if state.get("command_reply"):
        return "respond"
    route = state.get("route")
    if route == "ingest":
        return "queue_ingest"
    if route == "documents":
        return "agent" if runtime.context.llm is not None else "answer_without_model"
    if route == "web":
        return "web_search"
    return "respond"


# ---------------------------------------------------------------- queue_ingest (-> finalize_answer)


def queue_ingest(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """`/ingest <pdf>`: a PDF processed already becomes the active PDF now; any other is queued as a
    processing job, like an upload (the run context's queue, storage/jobs/queue.py), which the turn names:
    the page follows its progress and makes it the active PDF once it is ready (`switch_to`). A failure is
    a plain reply; nothing is switched or queued."""
    path = Path(state["ingest_path"])
    try:
        if check_pdf_processed(compute_doc_id(path)):
            return _switch_to(process_and_index_pdf(path))  # reused, not rebuilt (older builds get their facts)
    except PdfProcessingError as exc:
        return {"messages": [AIMessage(content=f"Cannot ingest: {exc}")]}
    except OSError as exc:
        return {"messages": [AIMessage(content=f"Cannot ingest: {path.name}: cannot be read ({exc.strerror or type(exc).__name__}).")]}
    jobs = runtime.context.ingest_jobs if runtime.context.ingest_jobs is not None else default_ingest_jobs()
    try:
        job = jobs.submit(path, owner=state.get("user_id") or "", switch_to=True)
    except HistoryError as exc:  # the job records' database (Celery runner) is down
        return {"messages": [AIMessage(content=f"Cannot ingest {path.name} now: {exc}")]}
    reply = (f"Processing **{path.name}** in the background (job {job.job_id[:8]}; its progress is at the top of the "
             "page, with a Cancel button). It becomes the active PDF when it is ready; you can keep using the app, "
             "or reload, meanwhile.")
    return {"messages": [AIMessage(content=reply)], "ingest_job_id": job.job_id}


def _switch_to(pdf) -> dict:
    reply = (
        f"Processed **{pdf.source_file}** ({pdf.page_count} pages, {pdf.chunk_count} passages"
        + (f", {len(pdf.ocr_pages)} pages read by OCR" if pdf.ocr_pages else "")
        + "). It is now the active PDF: ask away."
    )
    return {"messages": [AIMessage(content=reply)], "selected_doc_ids": [pdf.doc_id], "indexed_document_summary": pdf.summary,
            "ingested_doc_id": pdf.doc_id}


# ---------------------------------------------------------------- agent (with a model)


def agent(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """The documents agent: the model, bound to `TOOLS`, decides the next tool call or answers; after
    `max_tool_rounds` rounds, or when a tool failed the same way twice, it must answer."""
    ctx = runtime.context
    rounds = sum(1 for m in turn_messages(state) if isinstance(m, AIMessage) and m.tool_calls)
    messages = [SystemMessage(_agent_system(state)), *state["messages"]]
    if rounds >= ctx.max_tool_rounds or repeated_failure(state):
        response = ctx.llm.invoke([*messages, HumanMessage(prompts.FORCE_ANSWER_NOTE)])
    else:
        ctx.emit("thinking", round=rounds + 1)
        response = ctx.llm.bind_tools(TOOLS).invoke(messages)
    return {"messages": [response]}


def _agent_system(state: AgentState) -> str:
    """The agent's system prompt: the selection's summary, the viewed pages, how earlier tool output
    is truncated, relevant knowledge items, and what the selection does not cover."""
    page, page_context = state.get("current_page"), ""
    if page:
        prev = state.get("previous_page")
        page_context = prompts.PAGE_CONTEXT.format(
            page=display_page(page["page_number"]), file=page.get("source_file") or page["doc_id"],
            previous=f" The page viewed before, page {display_page(prev['page_number'])}, is [^Previous Page]." if prev else "",
        )
    system = prompts.AGENT_SYSTEM.format(summary=_summary(state), page_context=page_context,
                                         history_note="\n" + TRUNCATED_HISTORY_PROMPT + "\n")
    return system + _knowledge_note(question(state)) + _scope_note(state)


def _scope_note(state: AgentState) -> str:
    """The model is told, as the no-model answer says, when the asked period, issuer or form is not
    in the selection (agent/scope.py), judged on the passages retrieved so far."""
    passages = [s.text for r in turn_tool_results(state, RAG_TOOL) for s in r.sources]
    note = scope.scope_note(question(state), selected_infos(state), passages)
    return f"\n\n{prompts.SCOPE_NOTE.format(note=note)}\n" if note else ""


def _calls_tools(state: AgentState) -> bool:
    last = (state.get("messages") or [None])[-1]
    return isinstance(last, AIMessage) and bool(last.tool_calls)


def route_after_agent(state: AgentState) -> Literal["tools", "finalize_answer"]:
    return "tools" if _calls_tools(state) else "finalize_answer"


# ---------------------------------------------------------------- answer_without_model


def answer_without_model(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """The documents path with no model: first a document search for the question, then an
    extractive answer quoting the best sentences of the results (agent/no_model/answer.py); when
    nothing usable was found, `fallback_reason` sends the turn to web search (if configured)."""
    return no_model_answer.answer_without_model(state, runtime.context)


def route_after_answer_without_model(state: AgentState) -> Literal["tools", "web_search", "finalize_answer"]:
    """Tool calls -> tools; nothing usable found (and no web search yet) -> web search; else answer."""
    if _calls_tools(state):
        return "tools"
    if state.get("fallback_reason") and not turn_tool_results(state, WEB_TOOL):
        return "web_search"
    return "finalize_answer"


# ---------------------------------------------------------------- tools (ToolNode) -> cite_sources


def tool_error(exc: Exception) -> str:
    """What a tool that raised tells the model (and a no-model turn's end): a ToolException's own
    message (invalid arguments, a reason the tool gives), else only the error's type, since its text
    may hold server paths. A repeated failure ends the turn (`repeated_failure`)."""
    if isinstance(exc, ToolException):
        return str(exc)
    log.warning("tool failed: %r", exc)
    return f"The tool failed ({type(exc).__name__})."


def documents_found_nothing(state: AgentState) -> bool:
    """True when every document search of this turn came back empty or failed (and one was made)."""
    rag = turn_tool_results(state, RAG_TOOL)
    return bool(rag) and not any(
        r.success and any(s.kind in ("document", "page") for s in r.sources) for r in rag
    )


def route_after_tools(state: AgentState, runtime: Runtime[AgentContext]) -> Literal[
        "agent", "answer_without_model", "web_search", "summarize_web"]:
    """Web path -> summarise; documents that yielded nothing (and no web search yet) -> web fallback;
    else back to the step that called the tools."""
    if state.get("route") == "web":
        return "summarize_web"
    batch = [r for r in map(tool_result, last_tool_batch(list(state.get("messages") or []))) if r is not None]
    only_rag = batch and all(r.tool == RAG_TOOL for r in batch)
    if state.get("web_available") and only_rag and documents_found_nothing(state) and not turn_tool_results(state, WEB_TOOL):
        return "web_search"
    return "agent" if runtime.context.llm is not None else "answer_without_model"


# ---------------------------------------------------------------- web_search (-> tools)


def web_search(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Start the web path: a `web_search_tool` call for the user's question (run by `tools`, then
    numbered by `cite_sources`: results get `{^n}` ids). Reached directly from routing, or as the
    fallback when the documents yielded nothing usable (`fallback_reason` says why)."""
    update: dict = {"route": "web", "messages": [tool_call_message(WEB_TOOL, {"query": state.get("web_query") or question(state)})]}
    if not state.get("fallback_reason") and documents_found_nothing(state):
        update["fallback_reason"] = "the document search returned nothing usable"
    return update


# ---------------------------------------------------------------- summarize_web (-> finalize_answer)


def summarize_web(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Answer from the top web results with `{^n}` citations: summarised by the model, or listed
    with their snippets without one. No results -> an honest "not found"."""
    ctx = runtime.context
    results = turn_tool_results(state, WEB_TOOL)
    last = results[-1] if results else None
    sources = [s for s in last.sources if s.source_id] if last is not None else []
    asked = question(state)
    fallback = state.get("fallback_reason")
    if not sources:
        why = (last.message if last is not None else "") or "no results"
        text = f"I searched the web for “{asked}” but found nothing usable ({why.rstrip('.')})."
        if fallback:
            text = f"The selected PDFs did not answer this ({fallback}). " + text
        return {"messages": [AIMessage(content=text)]}
    if ctx.llm is None:
        text = extractive.compose_web_digest(list(sources))
        if fallback:
            text = f"The selected PDFs did not answer this ({fallback}).\n\n" + text
        return {"messages": [AIMessage(content=text)]}
    listing = "\n\n".join(f"{s.source_id} {s.title} ({s.url}):\n{s.text}" for s in sources)
    system = prompts.WEB_SUMMARY_SYSTEM.format(
        results=listing, fallback_note=prompts.WEB_FALLBACK_NOTE.format(reason=fallback) if fallback else ""
    )
    response = ctx.llm.invoke([SystemMessage(system), HumanMessage(asked)])
    return {"messages": [AIMessage(content=message_text(response))]}


# ---------------------------------------------------------------- respond (-> finalize_answer)


def respond(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Conversational reply: a command's ready reply (errors, help), the model's chat answer, or the
    no-model explanation."""
    ctx = runtime.context
    if reply := state.get("command_reply"):
        return {"messages": [AIMessage(content=reply)]}
    asked = question(state)
    kind = conversation.kind(asked)
    # Small talk asks the knowledge base nothing: no query embedding, which waits for the CPU behind
    # every search on a saturated replica (bench.soak, issue 31).
    small_talk = kind in ("greeting", "thanks", "goodbye")
    if ctx.llm is None:
        if kind is not None:
            titles = [info.title for info in selected_infos(state)]
            reply = conversation.reply_without_model(kind, titles)
        else:
            reply = extractive.NO_MODEL_CONVERSATION
        return {"messages": [AIMessage(content=reply if small_talk else with_knowledge_quotes(reply, asked))]}
    system = prompts.CONVERSATION_SYSTEM.format(summary=_summary(state), web_note="" if ctx.web else prompts.NO_WEB_NOTE)
    system += "" if small_talk else _knowledge_note(asked)
    response = ctx.llm.invoke([SystemMessage(system), *_recent_dialogue(state)])
    return {"messages": [AIMessage(content=message_text(response))]}


# ---------------------------------------------------------------- finalize_answer -> check_claims -> update_history_and_profile


def finalize_answer(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Turn the final AI text into an `AnswerResult` (agent/citations/answer.py checks every marker against
    the source registry) and replace the final message with the cleaned text."""
    ctx = runtime.context
    last = state["messages"][-1]
    route = state.get("route") or "conversation"
    answer = build_answer(message_text(last), state.get("sources") or {}, page_roles=state.get("page_roles") or {},
                          route=route, mode="extractive" if ctx.llm is None else "llm")
    if state.get("ingested_doc_id"):  # only a successful /ingest switches the active PDF
        answer.active_doc_ids = [state["ingested_doc_id"]]
    answer.ingest_job_id = state.get("ingest_job_id") or None
    final = AIMessage(content=answer.message, id=last.id)
    return {"messages": [final], "final_answer": answer}


def check_claims(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Check every cited sentence of the final answer against the text of the sources it cites
    (agent/claims/check.py): the result is stored with the answer, and the UI marks what fails."""
    answer = state["final_answer"]
    if not answer.citations:
        return {}
    registry = dict(state.get("sources") or {})
    registry.update({role: registry[sid] for role, sid in (state.get("page_roles") or {}).items() if sid in registry})
    claims = check_turn(answer, registry, page_text_lookup())
    return {"final_answer": answer.model_copy(update={"claims": claims})}


def update_history_and_profile(state: AgentState, runtime: Runtime[AgentContext]) -> dict:
    """Persist the whole turn (every path) through its one owner, `AgentContext.turns`
    (agent/turns.py): stored whole or not at all, queued on disk while the history is down. The
    answer goes out either way, with `saved` and, when not saved, the reason in `error`."""
    ctx = runtime.context
    answer = state["final_answer"]
    if ctx.turns is None or not state.get("conversation_id"):
        return {"final_answer": answer.model_copy(update={"saved": False})}
    outcome = ctx.turns.save(turn_record(state, answer))
    update = {"saved": outcome.saved, **({"error": outcome.error} if outcome.error else {})}
    return {"final_answer": answer.model_copy(update=update)}


# ---------------------------------------------------------------- the flowchart

# Nodes whose model text is the answer the user reads (not routing's judgements, not tool calls).
ANSWER_NODES = frozenset({"agent", "answer_without_model", "summarize_web", "respond"})


def build_graph() -> CompiledStateGraph:
    builder = StateGraph(AgentState, context_schema=AgentContext, input_schema=TurnInput, output_schema=TurnOutput)
    builder.add_node(route_query)
    builder.add_node(queue_ingest)
    builder.add_node(agent)
    builder.add_node(answer_without_model)
    # A tool that raises becomes an error ToolMessage (a repeated failure ends the turn).
    builder.add_node("tools", ToolNode(TOOLS, handle_tool_errors=tool_error))
    builder.add_node(cite_sources)
    builder.add_node(web_search)
    builder.add_node(summarize_web)
    builder.add_node(respond)
    builder.add_node(finalize_answer)
    builder.add_node(check_claims)
    builder.add_node(update_history_and_profile)

    builder.add_edge(START, "route_query")
    builder.add_conditional_edges("route_query", route_after_query)
    builder.add_edge("queue_ingest", "finalize_answer")
    builder.add_conditional_edges("agent", route_after_agent)
    builder.add_conditional_edges("answer_without_model", route_after_answer_without_model)
    builder.add_edge("tools", "cite_sources")
    builder.add_conditional_edges("cite_sources", route_after_tools)
    builder.add_edge("web_search", "tools")
    builder.add_edge("summarize_web", "finalize_answer")
    builder.add_edge("respond", "finalize_answer")
    builder.add_edge("finalize_answer", "check_claims")
    builder.add_edge("check_claims", "update_history_and_profile")
    builder.add_edge("update_history_and_profile", END)
    return builder.compile(name="pdf_chat_agent")
