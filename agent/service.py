"""`ChatService`: what the UI (and the CLI) call to ask a question.

    service = ChatService()                       # model, web search and history from the environment
    result = service.ask(user_id, conversation_id, "What was 2022 revenue?", ["boeing-1a2b3c4d5e6f"],
                         current_page={"doc_id": ..., "source_file": ..., "page_number": 4})
    service.model_info()                          # {"model": {...}, "web_search": {...}, "history": ...}

`ask` writes turns queued while the history was down, loads the conversation (earlier tool output
truncated, agent/context.py) and its source registry through `agent/turns.py`, runs the graph
(agent/graph.py, through agent/run.py), which saves the turn whole, and returns the AnswerResult. If the history
database is down the answer is still returned, with `saved=False` and `error` saying whether the
turn is queued (it is written when the database is back) or not saved at all.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any, Callable, Iterator

from agent import conversation
from agent.citations.ids import Allocate
from agent.answer_line import AnswerLine, favour_short_turns, is_quick
from agent.citations.previews import clip
from agent.llm import describe_model, load_chat_model, model_errors, model_spec_from_env
from agent.knowledge_base import relevant_items
from agent.run import compiled_graph, initial_state, run_state, stream_state
from agent.selection import read_selection
from agent.state import AgentContext, PageRef, TurnInput
from agent.tools import WebSearch
from agent.turns import LoadedHistory, TurnHistory
from storage.settings import get_settings
from storage.schema import AnswerResult
from storage.history.store import HistoryError, HistoryStore, HistoryUnavailableError
from storage.retrieval.hybrid import HybridRetriever

log = logging.getLogger(__name__)

EventCallback = Callable[[str, dict], None]
_DEFAULT = object()


def default_retriever_factory() -> Callable[[list[str]], object]:
    """doc_ids -> `storage.retrieval.hybrid.HybridRetriever` (it keeps loaded indexes per process)."""
    return HybridRetriever


def unreadable_characters(text: str) -> bool:
    """Text holding lone UTF-16 surrogates, which no encoder, tokenizer or database accepts."""
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def checked_question(text: str) -> str:
    """The question stripped, or a ValueError saying what to fix (before any work: retrieval and the
    model would run for minutes on a pasted book)."""
    limit = get_settings().limits.max_question_chars
    if len(text or "") > limit:
        raise ValueError(f"The question is {len(text):,} characters long; the limit is {limit:,}. "
                         "Shorten it (quote only the passage you need) and ask again.")
    text = (text or "").strip()
    if unreadable_characters(text):
        raise ValueError("The question holds characters that cannot be read (a lone surrogate, as a broken "
                         "clipboard paste leaves): retype or paste it again.")
    if not text:
        raise ValueError("The question is empty: type a question or a command such as /help.")
    return text


class ChatService:
    """One per process (Streamlit: `st.cache_resource`); thread-safe."""

    def __init__(self, *, llm=_DEFAULT, web=_DEFAULT, history=_DEFAULT, get_retriever=None, max_tool_rounds: int = 4,
                 outbox=None, ingest_jobs=None) -> None:
        self._spec = model_spec_from_env() if llm is _DEFAULT else None
        self.llm = (load_chat_model(self._spec) if self._spec else None) if llm is _DEFAULT else llm
        self.web = WebSearch.from_env() if web is _DEFAULT else web
        if history is _DEFAULT:
            history = HistoryStore()
        self.history = history
        self.turns = TurnHistory(history, outbox) if history is not None else None
        self.get_retriever = get_retriever or default_retriever_factory()
        self.max_tool_rounds = max_tool_rounds
        self.ingest_jobs = ingest_jobs  # where /ingest queues its job (storage/jobs/queue.py); None: the process default
        self.line = AnswerLine(get_settings().limits.max_answers)  # searching answers at once; the rest wait in line
        favour_short_turns(get_settings().limits.switch_interval_s)  # a greeting's GIL hops wait less behind ranking

    # ----- asking ---------------------------------------------------------------------------
    def ask(self, user_id: str, conversation_id: str | None, text: str, selected_doc_ids: list[str],
            current_page: PageRef | None = None, previous_page: PageRef | None = None,
            on_event: EventCallback | None = None) -> AnswerResult:
        """`ask_stream` run to its end; its progress events go to `on_event(event, data)`."""
        for kind, value in self.ask_stream(user_id, conversation_id, text, selected_doc_ids, current_page, previous_page):
            if kind == "answer":
                return value
            if kind == "progress" and on_event is not None:  # the caller's callback: its errors are the caller's
                data = dict(value)
                on_event(data.pop("event", ""), data)
        raise RuntimeError("the turn ended without an answer")

    def ask_stream(self, user_id: str, conversation_id: str | None, text: str, selected_doc_ids: list[str],
                   current_page: PageRef | None = None, previous_page: PageRef | None = None) -> Iterator[tuple[str, Any]]:
        """Answer one message, streamed: yields `agent.run.stream_turn`'s ("token", str) and
        ("progress", dict) events while the turn runs, then ("answer", AnswerResult). Queued turns are
        written first; history errors are reported in the answer; a model that fails (`model_errors`:
        the provider's errors, the network, a timeout) is replaced by a no-model answer that says so,
        any other error is raised to the caller. Closing the stream early stops the turn unsaved.
        While the replica is saturated a searching question waits in `self.line`, yielding ("progress",
        {"event": "queued", "position": n}) every second; a greeting or a command never waits there."""
        text = checked_question(text)
        ticket = None if is_quick(text) else self.line.join()
        try:
            waited = 0.0
            while ticket is not None and not ticket.wait(waited):
                yield "progress", {"event": "queued", "position": ticket.position()}
                waited = 1.0
            yield from self._answer_stream(user_id, conversation_id, text, selected_doc_ids, current_page, previous_page)
        finally:
            if ticket is not None:
                ticket.leave()

    def _answer_stream(self, user_id: str, conversation_id: str | None, text: str, selected_doc_ids: list[str],
                       current_page: PageRef | None, previous_page: PageRef | None) -> Iterator[tuple[str, Any]]:
        loaded, load_error, allocate = self._load_history(user_id, conversation_id)
        context = AgentContext(llm=self.llm, web=self.web, get_retriever=self.get_retriever, history=self.history,
                               turns=self.turns, allocate_ids=allocate, max_tool_rounds=self.max_tool_rounds,
                               ingest_jobs=self.ingest_jobs)
        selected = list(selected_doc_ids or [])
        documents = read_selection(selected)  # read once, even if the turn runs again without the model

        def turn() -> TurnInput:  # the graph's input, built afresh for each run of the turn
            return initial_state(
                text, selected_doc_ids=selected, selected_documents=documents, history=loaded.messages, rag_counter=loaded.rag_counter,
                web_counter=loaded.web_counter, sources=loaded.sources, current_page=current_page,
                previous_page=previous_page, user_id=user_id, conversation_id=conversation_id or "",
            )
        result = None
        try:
            for kind, value in stream_state(context, turn()):
                if kind == "answer":
                    result = value
                else:
                    yield kind, value
        except model_errors() as exc:
            if context.llm is None:
                raise
            result = self._answer_without_model(context, turn(), exc)
        if load_error:
            result = result.model_copy(update={"error": " ".join(filter(None, [load_error, result.error]))})
        elif result.saved and conversation_id and not loaded.messages:
            self._title_from_first_question(user_id, conversation_id, text)
        yield "answer", result

    def warm_up(self) -> None:
        """Build what the first answer of a process would (the compiled graph, the conversation exemplars'
        vectors, hence the embedder, and the curated knowledge base's index), so the first greeting after a
        replica starts is not seconds late (measured: 4.4 s in `respond`, the knowledge base, then 0.15 s)."""
        compiled_graph()
        conversation.is_conversation("warm up")
        relevant_items("warm up")

    def _load_history(self, user_id: str, conversation_id: str | None) -> tuple[LoadedHistory, str | None, Allocate | None]:
        """(the conversation so far, why it could not be loaded, its source-id allocator), after writing
        the turns queued while the history was down."""
        if self.turns is None or not conversation_id:
            return LoadedHistory(), None, None
        try:
            self.turns.flush(user_id)  # turns queued while the history was down come first
            if self.turns.outbox.pending(user_id):
                raise HistoryUnavailableError("queued turns could not be written yet")
            loaded = self.turns.load(user_id, conversation_id)
        except HistoryUnavailableError as exc:
            log.warning("history unavailable: %s", exc)
            return LoadedHistory(), "History is unavailable, so this answer ignores earlier messages.", None
        return loaded, None, self.turns.allocator(user_id, conversation_id)  # down: provisional ids, renumbered when saved

    @staticmethod
    def _answer_without_model(context: AgentContext, turn: TurnInput, exc: Exception) -> AnswerResult:
        """The turn run again without the model that failed (network, quota, bad key): nothing was
        saved yet, so answer it rather than not at all, and say so."""
        log.warning("chat model failed, answering extractively: %s", type(exc).__name__)
        result = run_state(replace(context, llm=None), turn)
        note = f"The language model failed ({type(exc).__name__}), so this answer quotes the documents instead."
        return result.model_copy(update={"error": f"{note} {result.error}" if result.error else note})

    def _title_from_first_question(self, user_id: str, conversation_id: str, text: str) -> None:
        try:
            conv = self.history.get_conversation(user_id, conversation_id)
            if conv.get("title") in ("", "New chat"):
                self.history.rename_conversation(user_id, conversation_id, clip(text, 60))  # cut at a word, "…"
        except HistoryError as exc:  # a title is cosmetic: the turn is saved either way
            log.debug("could not title conversation: %s", exc)

    # ----- what the UI shows ------------------------------------------------------------------
    def model_info(self) -> dict:
        """Which model and which search are active; never keys."""
        if self._spec is not None:
            model = describe_model(self._spec)
        elif self.llm is None:
            model = describe_model(None)
        else:
            name = getattr(self.llm, "model", None) or getattr(self.llm, "model_name", None) or type(self.llm).__name__
            model = {"mode": "llm", "provider": None, "model": str(name), "label": str(name)}
        return {
            "model": model,
            "mode": model["mode"],
            "web_search": {"enabled": self.web is not None, "provider": getattr(self.web, "name", None) if self.web else None},
            "history": getattr(self.history, "where", None) if self.history is not None else None,
        }

    # ----- conversations (pass-throughs for the UI) --------------------------------------------
    def create_conversation(self, user_id: str, title: str = "New chat") -> str:
        return self.history.create_conversation(user_id, title)

    def list_conversations(self, user_id: str) -> list[dict]:
        return self.history.list_conversations(user_id)

    def rename_conversation(self, user_id: str, conversation_id: str, title: str) -> None:
        self.history.rename_conversation(user_id, conversation_id, title)

    def delete_conversation(self, user_id: str, conversation_id: str) -> None:
        self.history.delete_conversation(user_id, conversation_id)

    def load_messages(self, user_id: str, conversation_id: str) -> list[dict]:
        """Stored messages for display (the UI shows user and final AI messages with citations)."""
        return self.history.load_messages(user_id, conversation_id)
