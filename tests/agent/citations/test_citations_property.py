"""Property: over random tool-call sequences (several turns, state restored from JSON between turns;
or two clients interleaving in one conversation against nx-27017) and random adversarial answers,
every marker shown resolves to exactly one stored source."""

from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.markers import MARKER_LIKE_RE, prose_segments
from agent.citations.answer import build_answer, iter_markers, source_identity
from agent.knowledge_base import KnowledgeBase
from storage.history.store import HistoryStore
from tests.fixtures_citations import renumber_tool_output, AIMessage, call, doc, page, run_tool_node, scripted_tools, source_ids, state_after, tool_output, web

FILES = ["BOEING_2022_10K.pdf", "APPLE_2022_10K.pdf", "3M_2018_10K.pdf"]
URLS = ["https://a.example/x", "https://b.example/y", "https://c.example/z"]
KB = KnowledgeBase.from_dict({
    "categories": [{"no": 8, "name": "Metrics"}],
    "items": [{"id": "Q301", "question": "What is FCF?", "answer": "OCF minus capex.", "category": "Metrics"},
              {"id": "Q302", "question": "What is the quick ratio?", "answer": "Liquid assets / liabilities.",
               "category": "Metrics"}],
})
PAGE_IDS = ("[^Current Page]", "[^Previous Page]")
EXAMPLES = int(os.environ.get("CITATIONS_PROPERTY_EXAMPLES", "60"))  # raise for a longer hunt

doc_source = st.builds(lambda f, c, p: doc(c, f"{f} chunk {c} revenue {c * 7} million", file=f, page=p),
                       st.sampled_from(FILES), st.integers(0, 6), st.integers(0, 30))
web_source = st.builds(web, st.sampled_from(URLS))
page_source = st.builds(lambda f, p, r: page(f, p, role=r), st.sampled_from(FILES), st.integers(0, 30),
                        st.sampled_from(["current", "previous", None]))
kb_source = st.sampled_from(["Q301", "Q302"]).map(lambda q: KB.get(q).to_source())
tool_call = st.lists(st.one_of(doc_source, doc_source, web_source, page_source, kb_source), max_size=5)
turns = st.lists(st.lists(tool_call, min_size=1, max_size=3), min_size=1, max_size=3)

answer_piece = st.one_of(
    st.sampled_from(["Revenue grew", "margins fell.", "See", "and", ".", "\n", "Boeing", "Apple", "3M", "chunk 7 revenue"]),
    st.integers(0, 12).map(lambda n: f"[^{n}]"),
    st.integers(0, 6).map(lambda n: f"{{^{n}}}"),
    st.sampled_from(["[^Current Page]", "[^Previous Page]", "[^ 3]", "{^}", "[^]", "[^x]", "{^ 1}", "[^1, ^2]",
                     "(Q301)", "According to Q302,", "Q301", "(Q999)", "Q998", "[8.1]", "[4.4]", "[Q301, Q302]"]),
    st.integers(0, 8).map(lambda n: f"[chunk_id: {n}]"),
    st.tuples(st.integers(0, 6), st.sampled_from(FILES + ["other.pdf"])).map(lambda t: f"[chunk_id: {t[0]}, file: {t[1]}]"),
    st.sampled_from(["`[^99]`", "`(Q301)`", "\n```\n[^1] {^1} [chunk_id: 1]\n```\n"]),
)
answers = st.lists(answer_piece, max_size=25).map(" ".join)


def _code(text: str) -> list[str]:
    return [piece for is_code, piece in prose_segments(text) if is_code]


def _check_answer(text: str, registry: dict[str, dict]) -> None:
    answer = build_answer(text, registry, knowledge=KB)
    by_marker = {c.marker: c for c in answer.citations}
    assert len(by_marker) == len(answer.citations)
    assert _code(answer.message) == _code(text)  # code untouched
    for piece_is_code, piece in prose_segments(answer.message):
        if not piece_is_code:  # no dead or malformed [^…] / {^…} left in prose
            for m in MARKER_LIKE_RE.finditer(piece):
                assert m.group(0) in by_marker, m.group(0)
    shown = list(iter_markers(answer.message))
    for mk in shown:
        c = by_marker.get(mk.text)
        if c is None:  # only bracketed "[8.1]"-style text the answer already had: never a citation
            assert mk.kind == "knowledge" and not mk.text.startswith("[^")
            continue
        if c.kind == "knowledge":
            assert KB.get(c.documentId).marker == c.marker
        elif mk.kind == "legacy":
            matches = [s for s in registry.values() if s["kind"] == "document" and s["chunk_id"] == int(mk.label)]
            if c.metadata.disambiguated or c.documentId:
                hits = [s for s in matches if s["doc_id"] == c.documentId]
                assert len(hits) == 1 and c.metadata.page == hits[0]["page_number"] + 1
            else:  # ambiguous: says so, lists only real candidates, points at no file
                assert c.metadata.file is None and len(c.metadata.candidates) >= 2
                assert set(c.metadata.candidates) <= {s["source_file"] for s in matches}
        else:
            src = registry[mk.text]  # exactly one stored source under this id
            assert c.kind == src["kind"]
            assert c.metadata.chunk_id == src["chunk_id"] and c.metadata.url == src["url"]
            assert c.metadata.page == (None if src["page_number"] is None else src["page_number"] + 1)
    assert {c.marker for c in answer.citations} == {mk.text for mk in shown if mk.text in by_marker}


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turns=turns, text=answers)
def test_every_marker_resolves_to_exactly_one_stored_source(turns, text):
    state: dict = {}
    ever: dict[str, tuple] = {}  # id -> identity, over the whole conversation
    for turn in turns:
        for sources in turn:
            content, res = renumber_tool_output(tool_output("t", sources), state.get("rag_counter", 0),
                                                state.get("web_counter", 0), state.get("sources", {}))
            out = json.loads(content)["sources"]
            assert len(out) == len(sources)
            state = state_after(res)
            for s in out:
                sid = s["source_id"]
                assert sid, s
                assert source_identity(state["sources"][sid]) == source_identity(s)
                if sid not in PAGE_IDS:  # an id never changes meaning, a source never changes id
                    assert ever.setdefault(sid, source_identity(s)) == source_identity(s)
            ids_by_identity = [source_identity(v) for k, v in state["sources"].items() if k not in PAGE_IDS]
            assert len(ids_by_identity) == len(set(ids_by_identity))
        state = json.loads(json.dumps(state, default=lambda src: src.model_dump()))  # what the history store gives back next turn
        _check_answer(text, state["sources"])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls=st.lists(st.lists(st.one_of(doc_source, web_source), max_size=4), min_size=1, max_size=3))
def test_tool_node_numbers_like_the_pure_function(calls):
    results = {f"q{i}": sources for i, sources in enumerate(calls)}
    node = scripted_tools(results)
    out = run_tool_node(node, {"messages": [AIMessage("", tool_calls=[call("search_documents", q, q) for q in results])]})
    rag = web_counter = 0
    registry: dict = {}
    for msg, sources in zip(out["messages"][1:], calls):
        _, res = renumber_tool_output(tool_output("search_documents", sources), rag, web_counter, registry)
        rag, web_counter, registry = res.rag_counter, res.web_counter, res.registry
        assert source_ids(msg) == [s.source_id for s in res.sources]
    assert (out.get("rag_counter", 0), out.get("web_counter", 0)) == (rag, web_counter)


# ---------------------------------------------------------------- two clients, one conversation

client_steps = st.lists(st.tuples(st.sampled_from("AB"), tool_call, st.booleans()), min_size=1, max_size=8)
viewer = st.one_of(st.none(), st.builds(lambda f, p: {"doc_id": page(f, p).doc_id, "source_file": f, "page_number": p},
                                        st.sampled_from(FILES), st.integers(0, 30)))


@settings(max_examples=max(EXAMPLES // 2, 10), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(steps=client_steps, current=viewer, text=answers)
def test_interleaved_turns_from_two_clients_never_give_one_id_two_meanings(nx_server, steps, current, text):
    """Two tabs in one conversation, each numbering from its own (stale) view of the registry, with
    tool calls interleaved: the store's registry hands out every id once, and every marker of an
    answer built on the final registry resolves to exactly one stored source."""
    store = HistoryStore(nx_server.uri, db_name="t_property_two_clients")
    try:
        conv = store.create_conversation("alice")

        def allocate(requests):
            return store.allocate_source_ids("alice", conv, requests)

        views = {c: store.get_state("alice", conv) for c in "AB"}  # what each tab loaded at its turn start
        ever: dict[str, tuple] = {}
        for client, sources, ends_turn in steps:
            view = views[client]
            content, res = renumber_tool_output(tool_output("t", sources), view["rag_counter"], view["web_counter"],
                                                view["sources"], allocate=allocate, current_page=current)
            views[client] = state_after(res)
            for s in json.loads(content)["sources"]:
                sid = res.page_roles.get(s["source_id"], s["source_id"])
                assert sid not in PAGE_IDS, s
                assert ever.setdefault(sid, source_identity(s)) == source_identity(s), sid
            if ends_turn:  # the tab's next turn starts from the store
                views[client] = store.get_state("alice", conv)
        registry = store.get_state("alice", conv)["sources"]
        for sid, identity in ever.items():
            if sid in registry:
                assert source_identity(registry[sid]) == identity
        identities = [source_identity(v) for v in registry.values()]
        assert len(identities) == len(set(identities))
        _check_answer(text, registry)
    finally:
        store.close()
