"""Helpers for whole-turn tests through `ChatService`: an honest scripted model (it cites every
source it was given with a sentence taken from that source), the check that every stored marker
opens the source its sentence came from, and a client entry point for separate processes.

Registered for every test by tests/conftest.py's `pytest_plugins`: use the fixtures by name, import nothing.
"""

from __future__ import annotations

import json
import re
import sys
import time
import uuid
from pathlib import Path

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from agent.markers import iter_markers

_WORD = re.compile(r"[A-Za-z0-9]+")
_SENTENCE = re.compile(r"(?P<words>[A-Za-z0-9 ]+?)\s*(?P<marker>\[\^[^\]]+\]|\{\^\d+\})")


def sentence_of(text: str, n: int = 6) -> str:
    """The words an honest answer quotes from a source: its first `n` words."""
    return " ".join(_WORD.findall(text)[:n])


def squash(text: str) -> str:
    return " ".join(_WORD.findall(text)).lower()


class HonestModel(BaseChatModel):
    """Routes to the documents (structured "yes"), searches for the question (or brings back the
    first truncated earlier tool message when the question says "bring back"), then answers with
    one sentence per source: the source's first words followed by the id it was given."""

    @property
    def _llm_type(self) -> str:
        return "honest-test-model"

    def bind_tools(self, tools, **kwargs):
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        system = messages[0].content if messages and isinstance(messages[0], SystemMessage) else ""
        last_human = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
        question = messages[last_human].content
        call_id = f"call_{uuid.uuid4().hex[:10]}"
        if system.startswith("You decide whether"):
            reply = AIMessage("", tool_calls=[{"name": "RelevanceGrade", "args": {"relevant": "yes", "reason": "t"}, "id": call_id}])
        elif system.startswith("The user's message is not about"):
            reply = AIMessage("", tool_calls=[{"name": "QueryKind", "args": {"kind": "conversational"}, "id": call_id}])
        elif not any(isinstance(m, ToolMessage) for m in messages[last_human:]):
            if "bring back" in question:
                stubs = [json.loads(m.content)["tool_message_id"] for m in messages[:last_human]
                         if isinstance(m, ToolMessage) and "tool_message_id" in m.content]
                call = {"name": "retrieve_previous_sources", "args": {"tool_message_ids": stubs[:1]}, "id": call_id}
            else:
                call = {"name": "rag_search_tool", "args": {"query": question}, "id": call_id}
            reply = AIMessage("", tool_calls=[call])
        else:
            tool = next(m for m in reversed(messages) if isinstance(m, ToolMessage))
            sources = [s for s in json.loads(tool.content)["sources"] if s.get("source_id", "").startswith(("[^", "{^"))]
            reply = AIMessage(" ".join(f"{sentence_of(s['text'])} {s['source_id']}." for s in sources) or "Nothing found.")
        return ChatResult(generations=[ChatGeneration(message=reply)])


def final_answers(messages: list[dict]) -> list[dict]:
    return [m for m in messages if m["role"] == "ai" and not m.get("tool_calls")]


def assert_markers_open_their_sentence_source(store, user_id: str, conversation_id: str) -> int:
    """Every document marker in every stored answer, looked up in the conversation's registry (what
    a later turn and the viewer use) and in the answer's own citations, is the source whose words
    the sentence quotes. Returns how many markers were checked."""
    registry = store.get_state(user_id, conversation_id)["sources"]
    checked = 0
    for msg in final_answers(store.load_messages(user_id, conversation_id)):
        by_marker = {c["marker"]: c for c in msg.get("citations") or []}
        for m in _SENTENCE.finditer(msg["content"]):
            marker, words = m["marker"], squash(m["words"])
            if marker in ("[^Current Page]", "[^Previous Page]") or not words:
                continue
            assert marker in registry, (marker, msg["content"])
            assert words in squash(registry[marker]["text"]), (marker, words, registry[marker]["text"][:120])
            cited = by_marker[marker]["metadata"]
            assert (cited["doc_id"], cited["chunk_id"], cited["page"]) == (
                registry[marker]["doc_id"], registry[marker]["chunk_id"], registry[marker]["page_number"] + 1)
            checked += 1
    return checked


def assert_whole_turns(messages: list[dict]) -> list[str]:
    """No question without its answer: each user message is followed by its turn, ending in an
    answer, before the next question. Returns the questions in order."""
    questions, open_question = [], False
    for m in messages:
        if m["role"] == "user":
            assert not open_question, f"two questions in a row: {[x['content'] for x in messages if x['role'] == 'user']}"
            questions.append(m["content"])
            open_question = True
        elif m["role"] == "ai" and not m.get("tool_calls"):
            assert open_question, "an answer without its question"
            open_question = False
    assert not open_question, "the last question has no answer"
    return questions


def marker_texts(text: str) -> list[str]:
    return [m.text for m in iter_markers(text)]


# how long a test waits for every client process to warm up, and how long a ready client waits for the start:
# longer, so on a busy machine a client that warmed up first outwaits the slowest one (it used to give up at
# 120 s while the test still waited for the other)
READY_WAIT_S = 180
GO_WAIT_S = READY_WAIT_S + 120


def run_client(uri: str, db_name: str, user_id: str, conversation_id: str, doc_id: str, questions: list[str],
               ready: str, go: str) -> None:
    """A separate app process asking `questions` in one conversation (started by a test)."""
    from agent.service import ChatService
    from storage.history.store import HistoryStore

    service = ChatService(llm=HonestModel(), web=None, history=HistoryStore(uri, db_name=db_name))
    service.get_retriever([doc_id]).search("warm up", k=2)  # load the embedder and indexes before the race
    Path(ready).touch()
    deadline = time.monotonic() + GO_WAIT_S
    while not Path(go).exists():
        assert time.monotonic() < deadline, "never started"
        time.sleep(0.01)
    for q in questions:
        result = service.ask(user_id, conversation_id, q, [doc_id])
        assert result.saved, result.error


if __name__ == "__main__":  # python -m tests.fixtures_turns '<json args>'
    run_client(**json.loads(sys.argv[1]))
