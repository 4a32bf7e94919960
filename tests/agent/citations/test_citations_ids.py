"""Running source ids: unique across tool calls and turns, stable for the same chunk/URL/page."""

from __future__ import annotations

import json

from agent.citations.answer import (
    build_answer,
    merge_sources,
    renumber_sources,
    source_identity,
)
from storage.schema import Source
from tests.fixtures_citations import renumber_tool_output, APPLE, BOEING, AIMessage, HumanMessage, ToolMessage, build_graph, call, doc, page, run_tool_node, scripted_model, scripted_tools, source_ids, tool_output, web

RESULTS = {
    "q1": [doc(1, "Revenue was $66.6 billion."), doc(2, "Backlog grew to $404 billion.")],
    "w1": [web("https://news.example.com/boeing")],
    "q2": [doc(3, "Commercial airplanes delivered 480 units."), doc(1, "Revenue was $66.6 billion.")],
    "q3": [doc(4, "Defense had a loss of $3.5 billion."), doc(2, "Backlog grew to $404 billion.")],
    "w2": [web("https://NEWS.example.com/boeing/#top"), web("https://other.example.org/a")],
}


def _turn(graph, state: dict, question: str) -> dict:
    return graph.invoke({**state, "messages": [*state.get("messages", []), HumanMessage(question)]})


def test_ids_unique_across_three_tool_calls_and_two_turns():
    model = scripted_model(
        AIMessage("", tool_calls=[call("search_documents", "q1", "c1")]),
        AIMessage("", tool_calls=[call("search_web", "w1", "c2")]),
        AIMessage("", tool_calls=[call("search_documents", "q2", "c3")]),
        AIMessage("Revenue was $66.6 billion [^1] with 480 deliveries [^3], per the press {^1}."),
        AIMessage("", tool_calls=[call("search_documents", "q3", "c4")]),
        AIMessage("", tool_calls=[call("search_web", "w2", "c5")]),
        AIMessage("Defense lost $3.5 billion [^4]; backlog $404 billion [^2]; see {^2}."),
    )
    graph = build_graph(model, scripted_tools(RESULTS))
    turn1 = _turn(graph, {}, "How did Boeing do?")
    tool_msgs = [m for m in turn1["messages"] if isinstance(m, ToolMessage)]
    assert [source_ids(m) for m in tool_msgs] == [["[^1]", "[^2]"], ["{^1}"], ["[^3]", "[^1]"]]
    assert (turn1["rag_counter"], turn1["web_counter"]) == (3, 1)

    # Turn 2 starts from what the history store restored: counters and sources, not the messages.
    restored = {"rag_counter": turn1["rag_counter"], "web_counter": turn1["web_counter"],  # as stored: dumps
                "sources": {k: json.loads(v.model_dump_json()) for k, v in turn1["sources"].items()}}
    turn2 = _turn(graph, restored, "And defense?")
    tool_msgs = [m for m in turn2["messages"] if isinstance(m, ToolMessage)]
    # chunk 2 and the (differently spelled) Boeing URL keep their turn-1 ids
    assert [source_ids(m) for m in tool_msgs] == [["[^4]", "[^2]"], ["{^1}", "{^2}"]]
    assert (turn2["rag_counter"], turn2["web_counter"]) == (4, 2)

    registry = turn2["sources"]
    assert set(registry) == {"[^1]", "[^2]", "[^3]", "[^4]", "{^1}", "{^2}"}
    identities = [source_identity(s) for s in registry.values()]
    assert len(identities) == len(set(identities)), "two ids for the same source"
    assert registry["[^4]"].chunk_id == 4 and registry["{^2}"].url == "https://other.example.org/a"

    answer = build_answer(turn2["messages"][-1].content, registry, knowledge=False)
    assert [(c.marker, c.metadata.chunk_id or c.metadata.url) for c in answer.citations] == [
        ("[^4]", 4), ("[^2]", 2), ("{^2}", "https://other.example.org/a")
    ]


def test_same_chunk_keeps_its_id_even_with_new_score_and_text():
    first = renumber_sources([doc(44, "Old text.", file=BOEING), doc(44, file=APPLE)])
    again = renumber_sources(
        [doc(44, "Re-extracted text.", file=BOEING).model_copy(update={"score": 0.1}), doc(7)],
        first.rag_counter, first.web_counter, first.registry,
    )
    assert [s.source_id for s in first.sources] == ["[^1]", "[^2]"]  # colliding chunk ids, distinct ids
    assert [s.source_id for s in again.sources] == ["[^1]", "[^3]"]
    assert again.new_ids == ["[^3]"]
    assert again.registry["[^1]"].text == "Re-extracted text."  # latest copy of the same chunk wins


def test_parallel_tool_calls_are_numbered_in_call_order():
    node = scripted_tools(RESULTS)
    out = run_tool_node(node, {
        "messages": [AIMessage("", tool_calls=[call("search_documents", "q1", "a"), call("search_web", "w2", "b"),
                                               call("search_documents", "q3", "c")])],
        "rag_counter": 10, "web_counter": 5,
    })
    assert [source_ids(m) for m in out["messages"][1:]] == [["[^11]", "[^12]"], ["{^6}", "{^7}"], ["[^13]", "[^12]"]]
    assert (out["rag_counter"], out["web_counter"]) == (13, 7)
    assert set(out["sources"]) == {"[^11]", "[^12]", "[^13]", "{^6}", "{^7}"}


def test_counters_never_fall_below_ids_already_in_the_registry():
    registry = renumber_sources([doc(1), doc(2), web("https://a.example")]).registry
    # The counters were lost (e.g. an old history record) but the sources survived.
    result = renumber_sources([doc(3), web("https://b.example")], 0, 0, registry)
    assert [s.source_id for s in result.sources] == ["[^3]", "{^2}"]


def test_current_and_previous_page_ids_follow_the_viewer():
    current = {"doc_id": "boeing_2022_10k-0123456789ab", "source_file": BOEING, "page_number": 4}
    previous = {"doc_id": "boeing_2022_10k-0123456789ab", "source_file": BOEING, "page_number": 3}
    r1 = renumber_sources([page(BOEING, 4, text="Page five."), page(BOEING, 3, text="Page four."), page(BOEING, 9)],
                          current_page=current, previous_page=previous)
    # the model sees the roles; each page is registered under its own id
    assert [s.source_id for s in r1.sources] == ["[^Current Page]", "[^Previous Page]", "[^3]"]
    assert r1.page_roles == {"[^Current Page]": "[^1]", "[^Previous Page]": "[^2]"}
    assert set(r1.registry) == {"[^1]", "[^2]", "[^3]"}

    answer = build_answer("The table [^Current Page] continues [^Previous Page].", r1.registry,
                          page_roles=r1.page_roles, knowledge=False)
    assert [(c.number, c.kind, c.metadata.page) for c in answer.citations] == [
        ("Current Page", "page", 5), ("Previous Page", "page", 4)  # 1-based pages for people
    ]
    assert answer.citations[0].documentTitle == f"{BOEING} — page 5"

    # Next turn the user is on page 8 (index 7); page 5 becomes the previous page and keeps its id.
    r2 = renumber_sources([page(BOEING, 7), page(BOEING, 4)], r1.rag_counter, r1.web_counter, r1.registry,
                          current_page={**current, "page_number": 7}, previous_page=current)
    assert [s.source_id for s in r2.sources] == ["[^Current Page]", "[^Previous Page]"]
    assert r2.page_roles == {"[^Current Page]": "[^4]", "[^Previous Page]": "[^1]"}
    assert r2.registry["[^4]"].page_number == 7 and r2.registry["[^1]"].page_number == 4
    assert r2.registry["[^3]"].page_number == 9


def test_page_role_hint_from_a_tool_never_binds_a_role():
    # Only the viewer state of the turn binds a role; a tool's `extra.page_role` hint does not.
    r1 = renumber_sources([page(BOEING, 2, role="current"), page(APPLE, 6, role="current")])
    assert [s.source_id for s in r1.sources] == ["[^1]", "[^2]"] and r1.page_roles == {}
    assert build_answer("See [^Current Page].", r1.registry, page_roles=r1.page_roles, knowledge=False).citations == []


def test_sources_from_history_keep_their_original_ids():
    # retrieve_previous_sources returns sources with the ids they were cited under.
    old = [doc(5).model_copy(update={"source_id": "[^7]"}), web("https://a.example").model_copy(update={"source_id": "{^3}"})]
    r = renumber_sources(old + [doc(6)], 0, 0, {})
    assert [s.source_id for s in r.sources] == ["[^7]", "{^3}", "[^8]"]
    # ...unless that id now belongs to another source: then the next free id is used.
    clash = renumber_sources([doc(99).model_copy(update={"source_id": "[^7]"})], r.rag_counter, r.web_counter, r.registry)
    assert clash.sources[0].source_id == "[^9]" and clash.registry["[^7]"].chunk_id == 5


def test_knowledge_sources_keep_their_q_number():
    kb_source = {"kind": "knowledge", "source_id": "Q301", "title": "What is FCF?", "text": "...",
                 "extra": {"q_id": "Q301", "label": "8.1"}}
    r = renumber_sources([kb_source, doc(1)], 4, 0, {})
    assert [s.source_id for s in r.sources] == ["Q301", "[^5]"]


def test_tool_output_that_is_not_sources_json_passes_through():
    content, result = renumber_tool_output("Error: PDF not found", 3, 1, {"[^1]": doc(1).model_dump()})
    assert content == "Error: PDF not found"
    assert (result.rag_counter, result.web_counter) == (3, 1)
    node = scripted_tools({})
    out = run_tool_node(node, {"messages": [AIMessage("", tool_calls=[call("search_documents", "nothing", "x")])],
                               "rag_counter": 2})
    assert json.loads(out["messages"][1].content)["sources"] == []
    assert out["rag_counter"] == 2 and not out.get("sources")


def test_merge_sources_reducer_keeps_old_entries():
    left = {"[^1]": {"kind": "document", "chunk_id": 1}}  # a dump, as the history store gives it back
    right = {"[^2]": Source(kind="document", chunk_id=2)}
    assert merge_sources(left, right) == {"[^1]": Source(kind="document", chunk_id=1), **right}
    assert merge_sources(None, right) == right


def test_tool_output_json_keeps_other_fields():
    raw = tool_output("search_documents", [doc(1)])
    content, result = renumber_tool_output(raw)
    data = json.loads(content)
    assert data["success"] is True and data["tool"] == "search_documents" and data["result_count"] == 1
    assert data["sources"][0]["source_id"] == "[^1]" and result.new_ids == ["[^1]"]


def test_async_graph_and_debug_log_of_renumbering(caplog):
    import asyncio
    import logging

    model = scripted_model(AIMessage("", tool_calls=[call("search_documents", "q1", "c1"), call("search_web", "w1", "c2")]),
                           AIMessage("Revenue [^2]."))
    graph = build_graph(model, scripted_tools(RESULTS))
    with caplog.at_level(logging.DEBUG, logger="agent.citations.answer"):
        state = asyncio.run(graph.ainvoke({"messages": [HumanMessage("q")], "rag_counter": 1,
                                           "sources": {"[^1]": doc(9).model_dump() | {"source_id": "[^1]"}}}))
    assert [source_ids(m) for m in state["messages"] if isinstance(m, ToolMessage)] == [["[^2]", "[^3]"], ["{^1}"]]
    assert set(state["sources"]) == {"[^1]", "[^2]", "[^3]", "{^1}"}
    assert any("sources renumbered" in r.getMessage() and "[^2]" in r.getMessage() for r in caplog.records)
