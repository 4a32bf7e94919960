"""`ChatService`: what the UI (and the CLI) call to ask a question.

    service = ChatService()                       # model, web search and history from the environment
    result = service.ask(user_id, conversation_id, "What was 2022 revenue?", ["boeing-1a2b3c4d5e6f"],
                         current_page={"doc_id": ..., "source_file": ..., "page_number": 4})
    service.model_info()                          # {"model": {...}, "web_search": {...}, "history": ...}

`ask` loads the conversation (earlier tool output truncated, agent/context.py) and its citation
counters, runs the graph (agent/graph.py), which persists the turn, and returns the AnswerResult.
If the history database is down the answer is still returned, with `saved=False` and `error`.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Iterator

from agent.graph import run_turn, stream_turn
from agent.llm import describe_model, load_chat_model, model_spec_from_env
from agent.state import AgentContext, PageRef
from agent.tools import WebSearch
from storage.schema import AnswerResult

log = logging.getLogger(__name__)

EventCallback = Callable[[str, dict], None]
_DEFAULT = object()


def default_retriever_factory() -> Callable[[list[str]], object]:
    """doc_ids -> `storage.retrieval.HybridRetriever` (it keeps loaded indexes per process)."""
    from storage.retrieval import HybridRetriever

    return HybridRetriever


class ChatService:
    """One per process (Streamlit: `st.cache_resource`); thread-safe."""

    def __init__(self, *, llm=_DEFAULT, web=_DEFAULT, history=_DEFAULT, get_retriever=None, max_tool_rounds: int = 4) -> None:
        self._spec = model_spec_from_env() if llm is _DEFAULT else None
        self.llm = (load_chat_model(self._spec) if self._spec else None) if llm is _DEFAULT else llm
        self.web = WebSearch.from_env() if web is _DEFAULT else web
        if history is _DEFAULT:
            from storage.history import HistoryStore

            history = HistoryStore()
        self.history = history
        self.get_retriever = get_retriever or default_retriever_factory()
        self.max_tool_rounds = max_tool_rounds

    # ----- asking ---------------------------------------------------------------------------
    def ask(self, user_id: str, conversation_id: str | None, text: str, selected_doc_ids: list[str],
            current_page: PageRef | None = None, previous_page: PageRef | None = None,
            on_event: EventCallback | None = None) -> AnswerResult:
        text = (text or "").strip()
        if not text:
            raise ValueError("The question is empty: type a question or a command such as /help.")
        history_msgs, counters, store, load_error = [], {"rag_counter": 0, "web_counter": 0, "sources": {}}, self.history, None
        if store is not None and conversation_id:
            from agent.context import load_history_messages
            from storage.history import HistoryUnavailableError

            try:
                history_msgs = load_history_messages(store, user_id, conversation_id)
                counters = store.get_state(user_id, conversation_id)
            except HistoryUnavailableError as exc:
                log.warning("history unavailable: %s", exc)
                load_error, store = f"History is unavailable, so this answer ignores earlier messages and was not saved: {exc}", None
        context = AgentContext(llm=self.llm, web=self.web, get_retriever=self.get_retriever, history=store,
                               max_tool_rounds=self.max_tool_rounds, on_event=on_event)
        turn = dict(
            selected_doc_ids=list(selected_doc_ids or []), history=history_msgs, rag_counter=counters["rag_counter"],
            web_counter=counters["web_counter"], sources=counters["sources"], current_page=current_page,
            previous_page=previous_page, user_id=user_id, conversation_id=conversation_id or "",
        )
        try:
            result = run_turn(context, text, **turn)
        except Exception as exc:
            if context.llm is None:
                raise
            # The model failed (network, quota, bad key): nothing was saved yet, so answer this turn
            # without it rather than not at all, and say so.
            log.warning("chat model failed, answering extractively: %s", type(exc).__name__)
            context.llm = None
            result = run_turn(context, text, **turn)
            note = f"The language model failed ({type(exc).__name__}), so this answer quotes the documents instead."
            result = result.model_copy(update={"error": f"{note} {result.error}" if result.error else note})
        if load_error:
            result = result.model_copy(update={"saved": False, "error": load_error})
        elif store is not None and conversation_id and result.saved and not history_msgs:
            self._title_from_first_question(user_id, conversation_id, text)
        return result

    def ask_stream(self, user_id: str, conversation_id: str | None, text: str, selected_doc_ids: list[str],
                   current_page: PageRef | None = None, previous_page: PageRef | None = None) -> Iterator[tuple[str, Any]]:
        """`ask`, streamed (same inputs): yields `agent.graph.stream_turn`'s ("token", str) and
        ("progress", dict) events while the turn runs, then ("answer", AnswerResult) with the same
        outcome `ask` returns (history errors reported, a failing model replaced by a no-model
        answer, the conversation titled). Closing it early stops the turn unsaved."""
        text = (text or "").strip()
        if not text:
            raise ValueError("The question is empty: type a question or a command such as /help.")
        history_msgs, counters, store, load_error = [], {"rag_counter": 0, "web_counter": 0, "sources": {}}, self.history, None
        if store is not None and conversation_id:
            from agent.context import load_history_messages
            from storage.history import HistoryUnavailableError

            try:
                history_msgs = load_history_messages(store, user_id, conversation_id)
                counters = store.get_state(user_id, conversation_id)
            except HistoryUnavailableError as exc:
                log.warning("history unavailable: %s", exc)
                load_error, store = f"History is unavailable, so this answer ignores earlier messages and was not saved: {exc}", None
        context = AgentContext(llm=self.llm, web=self.web, get_retriever=self.get_retriever, history=store,
                               max_tool_rounds=self.max_tool_rounds)
        turn = dict(
            selected_doc_ids=list(selected_doc_ids or []), history=history_msgs, rag_counter=counters["rag_counter"],
            web_counter=counters["web_counter"], sources=counters["sources"], current_page=current_page,
            previous_page=previous_page, user_id=user_id, conversation_id=conversation_id or "",
        )
        result = None
        try:
            for kind, value in stream_turn(context, text, **turn):
                if kind == "answer":
                    result = value
                else:
                    yield kind, value
        except Exception as exc:
            if context.llm is None:
                raise
            log.warning("chat model failed, answering extractively: %s", type(exc).__name__)
            context.llm = None
            result = run_turn(context, text, **turn)
            note = f"The language model failed ({type(exc).__name__}), so this answer quotes the documents instead."
            result = result.model_copy(update={"error": f"{note} {result.error}" if result.error else note})
        if load_error:
            result = result.model_copy(update={"saved": False, "error": load_error})
        elif store is not None and conversation_id and result.saved and not history_msgs:
            self._title_from_first_question(user_id, conversation_id, text)
        yield "answer", result

    def _title_from_first_question(self, user_id: str, conversation_id: str, text: str) -> None:
        try:
            conv = self.history.get_conversation(user_id, conversation_id)
            if conv.get("title") in ("", "New chat"):
                self.history.rename_conversation(user_id, conversation_id, " ".join(text.split())[:60])
        except Exception as exc:  # noqa: BLE001 - a title is cosmetic
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
