"""Questions stored when asked (storage/history/asked.py), on the embedded server and nx-27017 over TCP:
pending until completed in place, interrupted when no replica beats them, claimed by one page only."""

from __future__ import annotations

import time

from storage.history.asked import STALE_S, AskedQuestions, LiveQuestions, is_interrupted


def test_a_question_is_pending_from_when_it_is_asked_until_it_is_completed_in_place(store):
    cid = store.create_conversation("alice")
    asked = AskedQuestions(store)
    first = asked.ask("alice", cid, "What was revenue?")
    second = asked.ask("alice", cid, "And margins?")
    assert [r["question"] for r in asked.pending("alice", cid)] == ["What was revenue?", "And margins?"]
    assert asked.pending("bob", cid) == []  # another user's view

    asked.complete("alice", first, "answered")
    assert [r["_id"] for r in asked.pending("alice", cid)] == [second]
    done = store.run_on_database(lambda db: db.asked.find_one({"_id": first}))
    assert done["state"] == "answered" and done["question"] == "What was revenue?"  # the same record, completed


def test_interrupted_when_its_replica_no_longer_runs_it_or_its_heartbeat_stopped():
    live = LiveQuestions()
    now = 1_000_000
    mine = {"_id": "a" * 32, "replica": "me", "beat_ms": now}
    assert is_interrupted(mine, now, replica="me", live=live)  # this process does not run it: at once
    other = {"_id": "b" * 32, "replica": "other", "beat_ms": now - 1000}
    assert not is_interrupted(other, now, replica="me", live=live)  # another replica beat it a second ago
    assert is_interrupted({**other, "beat_ms": now - int(STALE_S * 1000) - 1}, now, replica="me", live=live)


def test_a_running_question_is_beaten_and_one_caller_claims_a_dead_one(store):
    cid = store.create_conversation("alice")
    asked = AskedQuestions(store)
    ask_id = asked.ask("alice", cid, "Slow question?")
    asked_ms = asked.pending("alice", cid)[0]["beat_ms"]
    live = LiveQuestions(interval_s=0.1)
    live.add(asked, ask_id)
    assert live.running(ask_id)
    deadline = time.monotonic() + 10
    while asked.pending("alice", cid)[0]["beat_ms"] == asked_ms:
        assert time.monotonic() < deadline, "never beaten"
        time.sleep(0.05)
    live.remove(ask_id)

    assert asked.claim_interrupted("alice", ask_id)
    assert not asked.claim_interrupted("alice", ask_id)  # a second page finding it does not store it twice
    assert asked.pending("alice", cid) == []
