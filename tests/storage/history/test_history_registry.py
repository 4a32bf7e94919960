"""The conversation's source registry in the store (ids allocated atomically, one per source key)
and whole-turn writes, over the MongoDB wire protocol (embedded and nx-27017 over TCP)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading

import pytest
from pymongo import MongoClient
from pymongo.errors import DuplicateKeyError

from storage.settings import PROJECT_ROOT
from storage.history.store import ConversationNotFoundError, InvalidHistoryInputError, new_id


def _doc(n: int) -> dict:
    return {"kind": "document", "text": f"chunk {n}", "doc_id": "a-0123456789ab", "source_file": "a.pdf",
            "page_number": n, "chunk_id": n}


def _req(n: int, family: str = "rag") -> tuple[str, str, dict]:
    return (f"{family}-{n}", family, _doc(n) if family == "rag" else {"kind": "web", "url": f"https://x.example/{n}"})


def test_a_key_keeps_its_id_and_ids_continue_per_family(store):
    conv = store.create_conversation("alice")
    assert store.allocate_source_ids("alice", conv, [_req(1), _req(2), _req(1, "web")]) == ["[^1]", "[^2]", "{^1}"]
    assert store.allocate_source_ids("alice", conv, [_req(2), _req(3)]) == ["[^2]", "[^3]"]  # a retry gets the same id
    state = store.get_state("alice", conv)
    assert state["sources"]["[^3]"]["chunk_id"] == 3 and state["sources"]["[^3]"]["source_id"] == "[^3]"
    assert state["sources"]["{^1}"]["url"] == "https://x.example/1"
    assert (state["rag_counter"], state["web_counter"]) == (3, 1)
    with pytest.raises(ConversationNotFoundError):
        store.allocate_source_ids("bob", conv, [_req(9)])  # another user's conversation
    with pytest.raises(InvalidHistoryInputError):
        store.allocate_source_ids("alice", conv, [("k", "pages", _doc(1))])
    assert store.allocate_source_ids("alice", conv, []) == []


def test_concurrent_writers_never_give_one_id_to_two_keys(store):
    conv = store.create_conversation("alice")
    results: dict[int, list[str]] = {}
    errors = []

    def tab(i: int) -> None:
        order = list(range(12)) if i % 2 else list(reversed(range(12)))
        try:
            results[i] = dict(zip(order, store.allocate_source_ids("alice", conv, [_req(n) for n in order])))
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=tab, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for n in range(12):  # every writer got the same id for a key ...
        assert len({results[i][n] for i in results}) == 1
    ids = [results[0][n] for n in range(12)]
    assert len(set(ids)) == 12  # ... and no id names two keys
    registry = store.get_state("alice", conv)["sources"]
    assert {registry[results[0][n]]["chunk_id"] for n in range(12)} == set(range(12))


_CLIENT = """
import json, sys
from storage.history.store import HistoryStore
args = json.loads(sys.argv[1])
store = HistoryStore(args["uri"], db_name=args["db"])
keys = args["keys"]
ids = store.allocate_source_ids("alice", args["conv"], [(f"key-{n}", "rag", {"kind": "document", "chunk_id": n, "text": str(n)})
                                                         for n in keys])
print(json.dumps(dict(zip(map(str, keys), ids))))
"""


def test_two_processes_allocating_at_once_agree(nx_server):
    from storage.history.store import HistoryStore

    db = "t_registry_procs"
    conv = HistoryStore(nx_server.uri, db_name=db).create_conversation("alice")
    procs = [subprocess.Popen([sys.executable, "-c", _CLIENT, json.dumps({"uri": nx_server.uri, "db": db, "conv": conv,
                                                                          "keys": keys})],
                              cwd=PROJECT_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for keys in (list(range(20)), list(range(19, -1, -1)))]
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err[-2000:]
        outs.append(json.loads(out))
    assert outs[0] == outs[1]
    assert len(set(outs[0].values())) == 20


def test_nx_27017_enforces_the_unique_registry_index_and_upsert_insert_fields(nx_server):
    """The behaviour `allocate_source_ids` relies on (storage/history/store.py lists the quirks around it)."""
    client = MongoClient(nx_server.uri)
    try:
        col = client["t_nx_probe"].sources
        col.create_index([("user_id", 1), ("conversation_id", 1), ("key", 1)], unique=True)
        where = {"user_id": "a", "conversation_id": "c", "key": "k"}
        col.update_one(where, {"$setOnInsert": {"source_id": "[^1]"}}, upsert=True)
        col.update_one(where, {"$setOnInsert": {"source_id": "[^2]"}}, upsert=True)  # no-op: the first stands
        assert col.find_one(where)["source_id"] == "[^1]"
        with pytest.raises(DuplicateKeyError):
            col.insert_one({**where, "source_id": "[^3]"})
    finally:
        client.close()


def test_uncommitted_turns_are_invisible_and_deleting_a_conversation_drops_its_registry(store):
    conv = store.create_conversation("alice")
    store.allocate_source_ids("alice", conv, [_req(1)])
    first = new_id()
    store.save_turn("alice", conv, first, [{"role": "user", "content": "Q1", "message_id": new_id()},
                                           {"role": "ai", "content": "A1 [^1]", "message_id": new_id()}])
    # a turn cut off before its commit marker: its messages are in the collection, never shown
    cut = new_id()

    def half_write(db):
        db.messages.insert_one({"_id": new_id(), "user_id": "alice", "conversation_id": conv, "seq": 99, "role": "user",
                                "content": "Q2", "turn_id": cut, "created_at": None})

    store.run_on_database(half_write)
    assert [m["content"] for m in store.load_messages("alice", conv)] == ["Q1", "A1 [^1]"]
    assert [m["content"] for m in store.load_messages("alice", conv, limit=1)] == ["A1 [^1]"]
    store.delete_conversation("alice", conv)
    again = store.create_conversation("alice")
    assert store.allocate_source_ids("alice", again, [_req(5)]) == ["[^1]"]
    assert store.run_on_database(lambda db: db.sources.count_documents({"conversation_id": conv})) == 0
    assert store.run_on_database(lambda db: db.turns.count_documents({"conversation_id": conv})) == 0


def test_the_registry_writes_ids_in_the_one_marker_grammar():
    """storage cannot import agent, so the registry spells the id shapes itself: they must be the ones
    agent/markers.py reads back, or a stored id would never be recognised as a citation."""
    from agent.markers import id_number, rag_id, web_id
    from storage.history.registry import FAMILIES

    assert set(FAMILIES) == {"rag", "web"}
    for n in (1, 7, 123):
        assert FAMILIES["rag"].format(n) == rag_id(n) and id_number(FAMILIES["rag"].format(n)) == ("rag", n)
        assert FAMILIES["web"].format(n) == web_id(n) and id_number(FAMILIES["web"].format(n)) == ("web", n)
