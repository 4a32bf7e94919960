"""Whole turns through `ChatService` over nx-27017: ids owned by the store, turns stored whole,
turns kept while the history is down and written when it is back, page roles bound to their turn."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from pymongo.collection import Collection

from agent.service import ChatService
from storage.settings import PROJECT_ROOT
from storage.history.store import HistoryStore, HistoryUnavailableError
from tests.fixtures_agent import call, grade, say, scripted
from tests.fixtures_turns import (READY_WAIT_S, HonestModel, assert_markers_open_their_sentence_source, assert_whole_turns,
                                  final_answers, marker_texts)

QUESTIONS = {  # the first questions of A and B rank the passages in different orders
    "A": ["How many people were employed at year end?", "What was total revenue in fiscal 2023?", "What is the main risk?"],
    "B": ["What is the main risk, the price of polysilicon?", "What dividend does the board propose?", "When was it founded?"],
}


@pytest.fixture
def outbox_dir(tmp_path, monkeypatch):
    folder = tmp_path / "outbox"
    monkeypatch.setenv("PDF_CHAT_OUTBOX", str(folder))
    return folder


def test_two_processes_asking_at_once_never_share_an_id(sample_pdf, nx_server, tmp_path, outbox_dir):
    store = HistoryStore(nx_server.uri, db_name="t_two_processes")
    conv = store.create_conversation("alice")
    procs = []
    for name in "AB":
        args = {"uri": nx_server.uri, "db_name": "t_two_processes", "user_id": "alice", "conversation_id": conv,
                "doc_id": sample_pdf.doc_id, "questions": QUESTIONS[name],
                "ready": str(tmp_path / f"ready-{name}"), "go": str(tmp_path / "go")}
        procs.append(subprocess.Popen([sys.executable, "-m", "tests.fixtures_turns", json.dumps(args)], cwd=PROJECT_ROOT,
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    deadline = time.monotonic() + READY_WAIT_S
    while not all((tmp_path / f"ready-{n}").exists() for n in "AB"):
        assert time.monotonic() < deadline and all(p.poll() is None for p in procs), [p.communicate()[0][-3000:] for p in procs]
        time.sleep(0.05)
    (tmp_path / "go").touch()  # both processes start asking at the same moment
    for p in procs:
        out, _ = p.communicate(timeout=300)
        assert p.returncode == 0, out[-3000:]

    assert assert_markers_open_their_sentence_source(store, "alice", conv) >= 6
    messages = store.load_messages("alice", conv)  # each turn whole, not interleaved with the other's
    assert sorted(assert_whole_turns(messages)) == sorted(QUESTIONS["A"] + QUESTIONS["B"])
    registry = store.get_state("alice", conv)["sources"]
    chunks = [(s["doc_id"], s["chunk_id"]) for s in registry.values()]
    assert len(chunks) == len(set(chunks)), "one chunk under two ids"


def _ask(service, conv, question, doc_id, **kw):
    return service.ask("alice", conv, question, [doc_id], **kw)


def test_a_fault_at_each_write_of_a_turn_loses_nothing_and_reissues_no_id(sample_pdf, nx_server, outbox_dir, monkeypatch):
    store = HistoryStore(nx_server.uri, db_name="t_turn_faults", timeout_ms=500)
    service = ChatService(llm=HonestModel(), web=None, history=store)
    calls = {"n": 0, "fail_at": None}
    real_run = HistoryStore.run_on_database

    def run(self, op):
        calls["n"] += 1
        if calls["n"] == calls["fail_at"]:
            raise HistoryUnavailableError("injected fault")
        return real_run(self, op)

    monkeypatch.setattr(HistoryStore, "run_on_database", run)
    reference = service.create_conversation("alice")
    _ask(service, reference, QUESTIONS["A"][0], sample_pdf.doc_id)
    calls["n"] = 0
    _ask(service, reference, QUESTIONS["A"][1], sample_pdf.doc_id)
    per_turn = calls["n"]
    assert per_turn >= 4

    for k in range(1, per_turn + 1):
        conv = service.create_conversation("alice")
        _ask(service, conv, QUESTIONS["A"][0], sample_pdf.doc_id)
        calls.update(n=0, fail_at=k)
        faulty = _ask(service, conv, QUESTIONS["A"][1], sample_pdf.doc_id)
        calls["fail_at"] = None
        assert faulty.message and faulty.citations  # the user still gets a cited answer
        _ask(service, conv, QUESTIONS["B"][0], sample_pdf.doc_id)  # writes a queued turn first
        messages = store.load_messages("alice", conv)
        assert assert_whole_turns(messages) == [QUESTIONS["A"][0], QUESTIONS["A"][1], QUESTIONS["B"][0]], k
        assert assert_markers_open_their_sentence_source(store, "alice", conv) >= 3, k
        registry = store.get_state("alice", conv)["sources"]
        chunks = [(s["doc_id"], s["chunk_id"]) for s in registry.values()]
        assert len(chunks) == len(set(chunks)), (k, registry.keys())


def test_history_down_for_a_whole_turn_is_saved_when_back_once_and_in_order(sample_pdf, own_nx_server, outbox_dir):
    store = HistoryStore(own_nx_server.uri, db_name="t_down", timeout_ms=500)
    service = ChatService(llm=HonestModel(), web=None, history=store)
    conv = service.create_conversation("alice")
    first = _ask(service, conv, QUESTIONS["A"][0], sample_pdf.doc_id)
    assert first.saved

    own_nx_server.stop()
    down = _ask(service, conv, QUESTIONS["A"][1], sample_pdf.doc_id)
    assert not down.saved and "not saved to your history yet" in down.error and down.citations
    assert [m["content"] for m in service.turns.pending_messages("alice", conv)][0] == QUESTIONS["A"][1]
    own_nx_server.start()

    # The app restarts: a new store and service find the queued turn on disk and write it.
    restarted = ChatService(llm=HonestModel(), web=None, history=HistoryStore(own_nx_server.uri, db_name="t_down"))
    assert restarted.turns.flush("alice") == 1
    assert restarted.turns.flush("alice") == 0 and restarted.turns.pending_messages("alice", conv) == []
    third = _ask(restarted, conv, QUESTIONS["A"][2], sample_pdf.doc_id)
    assert third.saved
    messages = restarted.load_messages("alice", conv)
    assert assert_whole_turns(messages) == QUESTIONS["A"]  # exactly once, in order
    assert assert_markers_open_their_sentence_source(restarted.history, "alice", conv) >= 3
    # Nothing could be loaded during the outage, so the tab numbered from [^1] provisionally; the stored
    # turn cites the same chunks under the registry's ids (turn 1 had given them out already).
    stored = final_answers(messages)[1]
    first_ids = {(c.metadata.chunk_id): c.marker for c in first.citations}
    assert sorted(c["metadata"]["chunk_id"] for c in stored["citations"]) == sorted(c.metadata.chunk_id for c in down.citations)
    assert all(first_ids.get(c["metadata"]["chunk_id"], c["marker"]) == c["marker"] for c in stored["citations"])


def test_history_down_from_the_start_of_a_turn_renumbers_its_provisional_ids(sample_pdf, own_nx_server, outbox_dir):
    """The down turn numbers from 0 (nothing could be loaded); another client meanwhile gives
    [^1].. to other chunks; written later, the queued turn takes the store's ids."""
    store = HistoryStore(own_nx_server.uri, db_name="t_provisional", timeout_ms=500)
    service = ChatService(llm=HonestModel(), web=None, history=store)
    conv = service.create_conversation("alice")
    own_nx_server.stop()
    down = _ask(service, conv, QUESTIONS["A"][0], sample_pdf.doc_id)
    assert not down.saved and "[^1]" in marker_texts(down.message)
    own_nx_server.start()
    other = ChatService(llm=HonestModel(), web=None, history=HistoryStore(own_nx_server.uri, db_name="t_provisional"),
                        outbox=None)
    other.turns.outbox = type(other.turns.outbox)(outbox_dir / "other-tab.sqlite")  # another process's outbox
    _ask(other, conv, QUESTIONS["B"][0], sample_pdf.doc_id)
    assert service.turns.flush("alice") == 1
    messages = store.load_messages("alice", conv)
    assert assert_whole_turns(messages) == [QUESTIONS["B"][0], QUESTIONS["A"][0]]
    assert assert_markers_open_their_sentence_source(store, "alice", conv) >= 2


def _once_reachable(read, timeout_s: float = 20.0):
    """`read()` once the store's client has found the restarted server again: with a 500 ms timeout, a read
    made while pymongo still holds the dead server's state can fail on a busy machine (a state to wait for)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return read()
        except HistoryUnavailableError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_server_killed_mid_turn_leaves_no_question_without_its_answer(sample_pdf, own_nx_server, outbox_dir, monkeypatch):
    store = HistoryStore(own_nx_server.uri, db_name="t_killed", timeout_ms=500)
    service = ChatService(llm=HonestModel(), web=None, history=store)
    conv = service.create_conversation("alice")
    _ask(service, conv, QUESTIONS["A"][0], sample_pdf.doc_id)

    real_insert = Collection.insert_one
    killed = {"done": False}

    def insert_one(self, document, *a, **kw):
        # kill -9 the server just before the final answer of the turn is written
        if self.name == "messages" and document.get("role") == "ai" and not document.get("tool_calls") and not killed["done"]:
            killed["done"] = True
            own_nx_server.proc.kill()
            own_nx_server.proc.wait()
        return real_insert(self, document, *a, **kw)

    monkeypatch.setattr(Collection, "insert_one", insert_one)
    cut = _ask(service, conv, QUESTIONS["A"][1], sample_pdf.doc_id)
    assert killed["done"] and not cut.saved
    own_nx_server.proc = None
    own_nx_server.start()
    partial = _once_reachable(lambda: store.load_messages("alice", conv))
    assert assert_whole_turns(partial) == [QUESTIONS["A"][0]]  # the cut turn is invisible, not half there
    _ask(service, conv, QUESTIONS["A"][2], sample_pdf.doc_id)
    messages = store.load_messages("alice", conv)
    assert assert_whole_turns(messages) == QUESTIONS["A"]
    assert assert_markers_open_their_sentence_source(store, "alice", conv) >= 3


def test_page_roles_cite_the_page_of_their_own_turn_across_changes_and_reloads(sample_pdf, nx_server, outbox_dir):
    store = HistoryStore(nx_server.uri, db_name="t_page_roles")
    doc = sample_pdf.doc_id
    page = lambda n: {"doc_id": doc, "source_file": sample_pdf.source_file, "page_number": n}  # noqa: E731
    conv = store.create_conversation("alice")

    def ask(llm, question, **pages):
        return ChatService(llm=llm, web=None, history=store).ask("alice", conv, question, [doc], **pages)

    r1 = ask(scripted(grade("yes"), call("rag_search_tool", query="revenue"), say("Revenue was 412 million euros [^Current Page].")),
             "What does this page say about revenue?", current_page=page(1))
    assert [(c.marker, c.metadata.page) for c in r1.citations] == [("[^Current Page]", 2)]

    # The user moves to page 4: now the current page is page 4, the previous one page 2.
    r2 = ask(scripted(grade("yes"), call("rag_search_tool", query="employees"),
                      say("It employed 1,240 people [^Current Page]; revenue is on [^Previous Page].")),
             "And this page?", current_page=page(3), previous_page=page(1))
    assert [(c.marker, c.metadata.page) for c in r2.citations] == [("[^Current Page]", 4), ("[^Previous Page]", 2)]

    # No page open: a role the model still writes cites nothing (it used to open an old page).
    r3 = ask(scripted(grade("yes"), call("rag_search_tool", query="risk"), say("As on the page [^Current Page], risk rose.")),
             "What is the main risk?")
    assert r3.citations == [] and "[^Current Page]" not in r3.message

    # Reload: each stored answer still opens the page of its own turn.
    stored = final_answers(store.load_messages("alice", conv))
    assert [[(c["marker"], c["metadata"]["page"]) for c in m["citations"]] for m in stored] == [
        [("[^Current Page]", 2)], [("[^Current Page]", 4), ("[^Previous Page]", 2)], []]
    # The model's view of old answers names the concrete pages, not roles that now mean other pages.
    from agent.context import load_history_messages

    old = [m.content for m in load_history_messages(store, "alice", conv) if m.type == "ai" and m.content]
    assert not any("Current Page" in text for text in old[:2])

    # Page 2's source brought back from turn 1 keeps its identity while page 4 is open.
    r4 = ChatService(llm=HonestModel(), web=None, history=store).ask(
        "alice", conv, "bring back the first page you read", [doc], current_page=page(3))
    pages = {c.metadata.page for c in r4.citations if c.kind == "page"}
    assert pages == {2}, [(c.marker, c.kind, c.metadata.page) for c in r4.citations]
    assert_markers_open_their_sentence_source(store, "alice", conv)


def test_two_app_processes_flushing_one_outbox_write_a_queued_turn_once(nx_server, tmp_path):
    import threading

    from agent.turns import TurnHistory
    from storage.history.store import new_id
    from storage.history.outbox import TurnOutbox

    store = HistoryStore(nx_server.uri, db_name="t_double_flush")
    conv = store.create_conversation("alice")
    record = {"turn_id": new_id(), "user_id": "alice", "conversation_id": conv, "messages": [
        {"role": "user", "content": "Q", "message_id": new_id(), "created_at": "2026-01-02T03:04:05+00:00"},
        {"role": "ai", "content": "A", "message_id": new_id(), "created_at": "2026-01-02T03:04:06+00:00", "citations": []}]}
    path = tmp_path / "outbox.sqlite"
    TurnOutbox(path).put(record)
    TurnOutbox(path).put(record)  # queued twice (a retried save): kept once
    assert len(TurnOutbox(path)) == 1
    apps = [TurnHistory(HistoryStore(nx_server.uri, db_name="t_double_flush"), TurnOutbox(path)) for _ in range(2)]
    threads = [threading.Thread(target=app.flush) for app in apps]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [(m["role"], m["content"]) for m in store.load_messages("alice", conv)] == [("user", "Q"), ("ai", "A")]
    assert len(TurnOutbox(path)) == 0


def test_a_legacy_marker_is_renumbered_with_the_rest_of_its_turn():
    from agent.citations.answer import build_answer
    from agent.turns import renumber_record
    from tests.fixtures_citations import doc

    answer = build_answer("Sales grew [^2]; margins held [chunk_id: 7].", {"[^1]": doc(7), "[^2]": doc(30)}, knowledge=False)
    assert [(c.marker, c.number) for c in answer.citations] == [("[^2]", "2"), ("[chunk_id: 7]", "1")]
    record = {"turn_id": "t", "messages": [{"role": "ai", "content": answer.message,
                                            "citations": [c.model_dump() for c in answer.citations]}]}
    [ai] = renumber_record(record, {"[^1]": "[^11]", "[^2]": "[^12]"})["messages"]
    assert ai["content"] == "Sales grew [^12]; margins held [chunk_id: 7]."
    assert [(c["marker"], c["number"]) for c in ai["citations"]] == [("[^12]", "12"), ("[chunk_id: 7]", "11")]
