"""HistoryStore behaviour, run against the embedded default and against nx-27017 over TCP."""

from __future__ import annotations

import json
import threading
from datetime import datetime

import pytest

from storage.history.store import (
    ConversationNotFoundError,
    InvalidHistoryInputError,
    InvalidMessageIdError,
    MessageTooLargeError,
)
from storage.schema import Citation, CitationMetadata, Source
from tests.fixtures_mongo import write_message


def _sources(n: int, start: int = 1) -> list[dict]:
    return [Source(kind="document", source_id=f"[^{start + i}]", text=f"chunk text {start + i}", title="a.pdf",
                   doc_id="a-0123456789ab", source_file="a.pdf", page_number=i, chunk_id=start + i).model_dump()
            for i in range(n)]


def _tool_output(sources: list[dict], tool: str = "search_documents") -> str:
    return json.dumps({"success": True, "tool": tool, "result_count": len(sources), "sources": sources, "message": "ok"})


def test_conversation_lifecycle(store):
    a = store.create_conversation("alice", "Budget questions")
    b = store.create_conversation("alice")
    write_message(store, "alice", a, "user", "hello")  # activity moves `a` to the top
    listed = store.list_conversations("alice")
    assert [c["conversation_id"] for c in listed] == [a, b]
    assert listed[0]["title"] == "Budget questions" and listed[1]["title"] == "New chat"
    assert isinstance(listed[0]["updated_at"], datetime)

    store.rename_conversation("alice", b, "  Risk   factors ")
    assert store.get_conversation("alice", b)["title"] == "Risk factors"

    store.delete_conversation("alice", a)
    assert [c["conversation_id"] for c in store.list_conversations("alice")] == [b]
    with pytest.raises(ConversationNotFoundError):
        store.load_messages("alice", a)


def test_messages_round_trip_in_order_with_citations_and_tool_output(store):
    conv = store.create_conversation("alice")
    citation = Citation(number="8.1", marker="[8.1]", kind="knowledge", documentId="Q301", documentTitle="FAQ",
                        snippet="s", preview="p", metadata=CitationMetadata(q_id="Q301", category="8"))
    sources = _sources(3)
    uid = write_message(store, "alice", conv, "user", "What was revenue?")
    aid1 = write_message(store, "alice", conv, "ai", "", tool_calls=[{"name": "search_documents", "args": {"query": "revenue"}, "id": "call_1"}])
    tid = write_message(store, "alice", conv, "tool", _tool_output(sources), tool_call_id="call_1", tool_name="search_documents")
    aid2 = write_message(store, "alice", conv, "ai", "Revenue was 5 [^1] [8.1].", citations=[citation],
                        citation_map={"[^1]": {"page": 1}, "[8.1]": {"q_id": "Q301"}}, route="documents")

    msgs = store.load_messages("alice", conv)
    assert [m["message_id"] for m in msgs] == [uid, aid1, tid, aid2]
    assert [m["role"] for m in msgs] == ["user", "ai", "tool", "ai"]
    assert [m["seq"] for m in msgs] == sorted(m["seq"] for m in msgs) and len({m["seq"] for m in msgs}) == 4
    assert msgs[1]["tool_calls"][0]["args"] == {"query": "revenue"}
    tool = msgs[2]
    assert tool["tool_name"] == "search_documents" and tool["result_count"] == 3
    assert [s["source_id"] for s in tool["sources"]] == ["[^1]", "[^2]", "[^3]"]
    assert json.loads(tool["content"])["sources"] == sources  # full tool output kept verbatim
    final = msgs[3]
    assert Citation.model_validate(final["citations"][0]) == citation
    assert final["citation_map"] == {"[^1]": {"page": 1}, "[8.1]": {"q_id": "Q301"}}  # keys with "." survive
    assert final["route"] == "documents"
    assert "user_id" not in final  # the owner is implied by the query, not handed around

    assert [m["message_id"] for m in store.load_messages("alice", conv, limit=2)] == [tid, aid2]


def test_writing_a_message_id_again_is_idempotent(store):
    conv = store.create_conversation("alice")
    mid = write_message(store, "alice", conv, "user", "hi")
    assert write_message(store, "alice", conv, "user", "hi", message_id=mid) == mid
    assert len(store.load_messages("alice", conv)) == 1


def test_state_continues_numbering_after_reload(backend):
    store = backend()
    conv = store.create_conversation("alice")
    assert store.get_state("alice", conv) == {"rag_counter": 0, "web_counter": 0, "sources": {}}
    web = {"kind": "web", "url": "https://a.example", "title": "A"}
    store.allocate_source_ids("alice", conv, [(f"k{s['chunk_id']}", "rag", s) for s in _sources(2)] + [("w", "web", web)])
    store.allocate_source_ids("alice", conv, [(f"k{s['chunk_id']}", "rag", s) for s in _sources(3)])  # 1, 2 known

    reloaded = backend()  # a new process/page load
    assert reloaded.allocate_source_ids("alice", conv, [("k4", "rag", _sources(1, start=4)[0])]) == ["[^4]"]
    state = reloaded.get_state("alice", conv)
    assert state["rag_counter"] == 4 and state["web_counter"] == 1
    assert sorted(state["sources"]) == ["[^1]", "[^2]", "[^3]", "[^4]", "{^1}"]
    assert Source.model_validate(state["sources"]["[^3]"]).chunk_id == 3


def test_users_are_isolated(store):
    a_conv = store.create_conversation("alice", "secret plans")
    tid = write_message(store, "alice", a_conv, "tool", _tool_output(_sources(2)), tool_call_id="c1")
    b_conv = store.create_conversation("bob")

    assert [c["conversation_id"] for c in store.list_conversations("bob")] == [b_conv]
    assert store.get_tool_messages("bob", [tid]) == []
    assert store.get_tool_messages("alice", [tid], conversation_id=b_conv) == []
    for call in (lambda: store.load_messages("bob", a_conv),
                 lambda: write_message(store, "bob", a_conv, "user", "let me in"),
                 lambda: store.rename_conversation("bob", a_conv, "mine now"),
                 lambda: store.delete_conversation("bob", a_conv),
                 lambda: store.get_state("bob", a_conv),
                 lambda: store.allocate_source_ids("bob", a_conv, [("k", "rag", _sources(1)[0])])):
        with pytest.raises(ConversationNotFoundError):
            call()
    # alice's data is untouched
    assert store.get_conversation("alice", a_conv)["title"] == "secret plans"
    assert [m["message_id"] for m in store.load_messages("alice", a_conv)] == [tid]
    assert store.get_state("alice", a_conv)["rag_counter"] == 0
    assert [m["message_id"] for m in store.get_tool_messages("alice", [tid])] == [tid]


def test_malformed_ids_and_bad_input_are_rejected_clearly(store):
    conv = store.create_conversation("alice")
    for bad in ("", "../../etc", "A" * 32, "a" * 32 + "\n", {"$ne": None}, None, 42):
        with pytest.raises(InvalidMessageIdError, match="Malformed message id"):
            store.get_tool_messages("alice", [bad])
    with pytest.raises(InvalidMessageIdError, match="Malformed conversation id"):
        store.load_messages("alice", {"$gt": ""})
    with pytest.raises(InvalidHistoryInputError, match="user_id"):
        store.list_conversations({"$ne": ""})
    with pytest.raises(InvalidHistoryInputError, match="role"):
        write_message(store, "alice", conv, "system", "x")
    with pytest.raises(InvalidHistoryInputError, match="not allowed"):
        write_message(store, "alice", conv, "ai", "x", **{"$set": 1})
    with pytest.raises(InvalidHistoryInputError, match="Citation"):
        write_message(store, "alice", conv, "ai", "x", citations=[{"number": "1"}])
    with pytest.raises(InvalidHistoryInputError, match="title"):
        store.rename_conversation("alice", conv, "   ")
    assert store.load_messages("alice", conv) == []  # nothing half-written


def test_oversized_message_is_refused_and_nothing_written(backend):
    store = backend(max_message_bytes=256 * 1024)
    conv = store.create_conversation("alice")
    with pytest.raises(MessageTooLargeError, match=r"limit is 0\.2 MiB"):
        write_message(store, "alice", conv, "tool", _tool_output([{**_sources(1)[0], "text": "x" * 300_000}]), tool_call_id="c")
    ok = write_message(store, "alice", conv, "user", "small")
    msgs = store.load_messages("alice", conv)
    assert [m["message_id"] for m in msgs] == [ok] and msgs[0]["seq"] == 1  # no sequence number was used up


def test_concurrent_writes_from_two_tabs_lose_nothing_and_keep_order(backend):
    tab_a, tab_b = backend(), backend()  # two sessions, two connections
    conv = tab_a.create_conversation("alice")
    n = 20
    errors: list[BaseException] = []

    def write(store, tab):
        try:
            for i in range(n):
                write_message(store, "alice", conv, "user" if i % 2 == 0 else "ai", f"{tab}-{i}")
        except BaseException as exc:  # noqa: BLE001 - surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(s, t)) for s, t in ((tab_a, "A"), (tab_b, "B"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    msgs = tab_b.load_messages("alice", conv)
    assert len(msgs) == 2 * n
    seqs = [m["seq"] for m in msgs]
    assert seqs == sorted(seqs) and len(set(seqs)) == 2 * n
    for tab in "AB":  # each tab's messages appear in the order that tab wrote them
        assert [m["content"] for m in msgs if m["content"].startswith(tab)] == [f"{tab}-{i}" for i in range(n)]


def test_save_turn_refuses_bad_input_and_writes_nothing(store):
    from storage.history.store import new_id

    conv = store.create_conversation("alice")
    turn = new_id()
    question = {"role": "user", "content": "Q", "message_id": new_id()}
    with pytest.raises(InvalidHistoryInputError, match="role"):
        store.save_turn("alice", conv, turn, [question, {"role": "robot", "content": "x", "message_id": new_id()}])
    with pytest.raises(InvalidHistoryInputError, match="message_id"):
        store.save_turn("alice", conv, turn, [question, {"role": "ai", "content": "A"}])
    assert store.load_messages("alice", conv) == []
    answer = {"role": "ai", "content": "A [^1]", "message_id": new_id(), "citation_map": {"a.b": 1}}
    store.save_turn("alice", conv, turn, [question, answer])
    store.save_turn("alice", conv, turn, [question, answer])  # a retry writes nothing twice
    msgs = store.load_messages("alice", conv)
    assert [(m["role"], m["content"], m["turn_id"]) for m in msgs] == [("user", "Q", turn), ("ai", "A [^1]", turn)]
    assert msgs[1]["citation_map"] == {"a.b": 1}


def test_load_messages_limit_is_checked_and_zero_means_none(store):
    conv = store.create_conversation("alice")
    write_message(store, "alice", conv, "user", "hi")
    assert store.load_messages("alice", conv, limit=0) == []  # pymongo's limit(0) would mean "all"
    for bad in (-1, 1.5, "2", True):
        with pytest.raises(InvalidHistoryInputError, match="limit"):
            store.load_messages("alice", conv, limit=bad)


def test_values_bson_cannot_store_are_rejected_as_bad_input():
    from storage.history.store import HistoryStore

    store = HistoryStore("mongodb://127.0.0.1:1/", timeout_ms=100)  # never reached: checked before writing
    conv = "0" * 32
    with pytest.raises(InvalidHistoryInputError, match="cannot be stored"):
        write_message(store, "alice", conv, "ai", "x", route={"documents"})
    with pytest.raises(InvalidHistoryInputError, match="cannot be stored"):
        write_message(store, "alice", conv, "ai", "x", mode=2**70)
