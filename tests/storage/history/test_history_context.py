"""agent/context.py: earlier tool output truncated for the model, and brought back by
`retrieve_previous_sources` with the original citation ids, only for the conversation's owner."""

from __future__ import annotations

from types import SimpleNamespace

import json

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from agent.context import (
    fetch_previous_sources,
    RETRIEVE_PREVIOUS_SOURCES,
    TRUNCATED_HISTORY_PROMPT,
    history_to_messages,
    load_history_messages,
)
from storage.schema import Source
from tests.fixtures_mongo import write_message


def _sources(ids: list[str]) -> list[dict]:
    return [Source(kind="document", source_id=sid, text=f"text of {sid} " * 20, title="r.pdf", doc_id="r-0123456789ab",
                   source_file="r.pdf", page_number=n, chunk_id=n).model_dump() for n, sid in enumerate(ids)]


def _turn(store, user, conv, question, call_id, source_ids, answer):
    """One stored turn: user -> AI tool call -> tool output -> AI answer. Returns the tool message id."""
    write_message(store, user, conv, "user", question)
    write_message(store, user, conv, "ai", "", tool_calls=[{"name": "search_documents", "args": {"query": question}, "id": call_id}])
    tool_out = json.dumps({"success": True, "tool": "search_documents", "result_count": len(source_ids),
                           "sources": _sources(source_ids), "message": "found"})
    tid = write_message(store, user, conv, "tool", tool_out, tool_call_id=call_id, tool_name="search_documents")
    write_message(store, user, conv, "ai", answer, route="documents")
    return tid


def test_earlier_tool_output_is_truncated_and_the_rest_kept_whole(store):
    conv = store.create_conversation("alice")
    t1 = _turn(store, "alice", conv, "Revenue 2022?", "call_1", ["[^1]", "[^2]", "[^3]"], "It was 5bn [^1].")
    t2 = _turn(store, "alice", conv, "And costs?", "call_2", ["[^4]", "[^5]"], "Costs were 3bn [^4].")

    msgs = load_history_messages(store, "alice", conv)
    assert [type(m) for m in msgs] == [HumanMessage, AIMessage, ToolMessage, AIMessage] * 2
    assert msgs[0].content == "Revenue 2022?" and msgs[3].content == "It was 5bn [^1]."
    assert msgs[1].tool_calls[0]["id"] == "call_1" and msgs[2].tool_call_id == "call_1"
    for tool_msg, tid, n in ((msgs[2], t1, 3), (msgs[6], t2, 2)):
        stub = json.loads(tool_msg.content)
        assert stub == {"success": True, "tool": "search_documents", "result_count": n,
                        "message": f"Retrieved {n} sources. Use retrieve_previous_sources to access full content.",
                        "tool_message_id": tid}
        assert "text of" not in tool_msg.content

    whole = load_history_messages(store, "alice", conv, truncate=False)
    assert json.loads(whole[2].content)["sources"][0]["source_id"] == "[^1]"


def test_tool_output_of_an_unfinished_last_turn_stays_whole():
    stored = [
        {"message_id": "a" * 32, "role": "user", "content": "q"},
        {"message_id": "b" * 32, "role": "ai", "content": "", "tool_calls": [{"name": "t", "args": {}, "id": "c1"}]},
        {"message_id": "c" * 32, "role": "tool", "content": json.dumps({"success": True, "tool": "t", "sources": _sources(["[^1]"])}),
         "tool_call_id": "c1", "tool_name": "t", "result_count": 1},
    ]
    msgs = history_to_messages(stored)
    assert json.loads(msgs[2].content)["sources"][0]["source_id"] == "[^1]"
    finished = history_to_messages(stored + [{"message_id": "d" * 32, "role": "ai", "content": "done [^1]"}])
    assert "tool_message_id" in json.loads(finished[2].content)


def test_unpaired_tool_calls_and_results_are_dropped():
    """A model API rejects a call without its result (or the reverse), e.g. when one write was lost."""
    stored = [
        {"message_id": "a" * 32, "role": "user", "content": "q"},
        {"message_id": "b" * 32, "role": "ai", "content": "", "tool_calls": [{"name": "t", "args": {}, "id": "lost"}]},
        {"message_id": "c" * 32, "role": "tool", "content": "{}", "tool_call_id": "orphan"},
        {"message_id": "d" * 32, "role": "ai", "content": "answer"},
    ]
    msgs = history_to_messages(stored)
    assert [type(m) for m in msgs] == [HumanMessage, AIMessage, AIMessage]
    assert msgs[1].tool_calls == []


def test_retrieve_previous_sources_returns_original_ids(store):
    conv = store.create_conversation("alice")
    t1 = _turn(store, "alice", conv, "Q1", "call_1", ["[^1]", "[^2]"], "A1 [^1]")
    t2 = _turn(store, "alice", conv, "Q2", "call_2", ["[^3]"], "A2 [^3]")
    tool = _previous_sources_tool(store, "alice", conv)
    from agent.context import retrieve_previous_sources  # the graph's tool

    assert retrieve_previous_sources.name == RETRIEVE_PREVIOUS_SOURCES and "tool_message_ids" in retrieve_previous_sources.args

    out = json.loads(tool.invoke({"tool_message_ids": [t2, t1]}))
    assert out["success"] is True and out["tool"] == RETRIEVE_PREVIOUS_SOURCES and out["result_count"] == 3
    assert [s["source_id"] for s in out["sources"]] == ["[^3]", "[^1]", "[^2]"]
    assert out["sources"][1]["text"].startswith("text of [^1]") and out["sources"][1]["page_number"] == 0
    assert set(out) == {"success", "tool", "result_count", "sources", "message"}


def test_retrieve_previous_sources_never_crosses_users_or_conversations(store):
    a_conv = store.create_conversation("alice")
    secret = _turn(store, "alice", a_conv, "Q", "call_1", ["[^1]"], "A [^1]")
    a_other = store.create_conversation("alice")
    b_conv = store.create_conversation("bob")

    for tool in (_previous_sources_tool(store, "bob", b_conv),       # another user guessing the id
                 _previous_sources_tool(store, "alice", a_other)):   # same user, other conversation
        out = json.loads(tool.invoke({"tool_message_ids": [secret]}))
        assert out["success"] is False and out["sources"] == [] and out["result_count"] == 0
        assert "Not found" in out["message"] and "text of" not in json.dumps(out)

    bad = json.loads(_previous_sources_tool(store, "alice", a_conv).invoke(
        {"tool_message_ids": ["not-an-id", "{\"$ne\": null}", secret]}))
    assert bad["success"] is True and [s["source_id"] for s in bad["sources"]] == ["[^1]"]  # valid one still served
    assert "not-an-id" in bad["message"]
    empty = json.loads(_previous_sources_tool(store, "alice", a_conv).invoke({"tool_message_ids": []}))
    assert empty["success"] is False and empty["sources"] == []


def test_system_prompt_paragraph_explains_truncation():
    assert RETRIEVE_PREVIOUS_SOURCES in TRUNCATED_HISTORY_PROMPT
    assert "tool_message_id" in TRUNCATED_HISTORY_PROMPT and "truncated" in TRUNCATED_HISTORY_PROMPT


def _previous_sources_tool(store, user_id: str, conversation_id: str):
    """What the graph's `retrieve_previous_sources` tool runs, bound to one user's conversation."""
    return SimpleNamespace(invoke=lambda args: fetch_previous_sources(store, user_id, conversation_id,
                                                                      args["tool_message_ids"]).content())
