"""The process-wide embedder serves several sessions at once: one sentence (a greeting matched against the
knowledge base) is embedded while another thread's batch (a long answer's sentences) is still running."""

from __future__ import annotations

import threading

import numpy as np

from storage.documents.embeddings import Embedder


class _HeldBatches:
    """The real session, except that a run of more than one text waits until `release` is set."""

    def __init__(self, session) -> None:
        self.session = session
        self.batch_running = threading.Event()
        self.release = threading.Event()

    def run(self, outputs, feeds):
        if len(feeds["input_ids"]) > 1:
            self.batch_running.set()
            assert self.release.wait(30)
        return self.session.run(outputs, feeds)


def test_one_sentence_is_embedded_while_another_threads_batch_runs():
    embedder = Embedder()
    held = _HeldBatches(embedder._session)
    embedder._session = held
    batch: dict = {}
    other = threading.Thread(target=lambda: batch.update(v=embedder.embed([f"sentence {i}" for i in range(8)])))
    other.start()
    try:
        assert held.batch_running.wait(30)
        single: dict = {}
        greeting = threading.Thread(target=lambda: single.update(v=embedder.embed(["hello"])))
        greeting.start()
        greeting.join(timeout=20)
        assert not greeting.is_alive(), "the sentence waited for the other thread's batch"
        assert batch == {}  # the batch is still held
        assert single["v"].shape == (1, 384) and abs(float(np.linalg.norm(single["v"][0])) - 1.0) < 1e-4
    finally:
        held.release.set()
        other.join(timeout=30)
    assert batch["v"].shape == (8, 384)
    np.testing.assert_allclose(embedder.embed(["hello"]), single["v"], atol=1e-6)  # the same vector as alone
