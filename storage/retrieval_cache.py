"""A semantic cache of retrieval results in SQLite, one database per PDF or per selection of PDFs.

Two tiers, both scoped to a *fingerprint* of the indexed PDFs (doc ids + their `processed_at`),
so re-indexing a PDF invalidates everything cached for it:

1. exact: the query normalised (case, punctuation, whitespace) -> served without embedding
   the query at all (well under a millisecond);
2. semantic: cosine similarity of query embeddings >= `threshold` **and** the same numbers in
   both queries ("FY2022" vs "FY2023" questions are near-identical as vectors but must never
   share results).

The default threshold is chosen by measurement (`python -m bench.retrieval`, "cache" section):
well above the highest similarity between any two different FinanceBench dev questions, so a
different question never gets another's results.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
from pathlib import Path

import numpy as np

from storage.schema import RetrievedChunk

# Measured on the 28 FinanceBench dev questions (normalised text, all-MiniLM-L6-v2): the most
# similar two *different* questions score 0.809 (0.792 with the same numbers), so the design's 0.7
# serves wrong results; a reworded repeat ("Please tell me: <question>") scores 0.93-1.0 (median
# 0.98). 0.95 leaves a wide margin above any different question; the number guard covers
# "FY2022" vs "FY2023". Case/punctuation/whitespace repeats hit the exact tier regardless.
DEFAULT_THRESHOLD = 0.95
_SCHEMA = """
CREATE TABLE IF NOT EXISTS retrieval_cache (
    id INTEGER PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    k INTEGER NOT NULL,
    norm_query TEXT NOT NULL,
    numbers TEXT NOT NULL,
    embedding BLOB NOT NULL,
    results TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS retrieval_cache_exact ON retrieval_cache (fingerprint, k, norm_query);
"""
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def normalise_query(query: str) -> str:
    """Case, punctuation and whitespace do not change what is asked."""
    return " ".join(re.sub(r"[^\w%$&]+", " ", query.lower()).split())


def query_numbers(query: str) -> str:
    return " ".join(sorted({n.replace(",", "") for n in _NUMBER.findall(query)}))


class RetrievalCache:
    """Retrieval results keyed by (fingerprint, k, query); thread-safe; one SQLite file."""

    def __init__(self, path: Path, threshold: float = DEFAULT_THRESHOLD) -> None:
        self.path = Path(path)
        self.threshold = threshold
        self._lock = threading.Lock()
        self._purged_for: str | None = None  # fingerprint whose older entries were already dropped
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(str(self.path), check_same_thread=False, timeout=10)
        try:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.executescript(_SCHEMA)
            self._conn.commit()
            self._file_id = _file_id(self.path)
        except BaseException:
            self._conn.close()  # e.g. "file is not a database": do not leak the handle
            raise

    def is_current(self) -> bool:
        """False once the file was deleted or replaced (a re-index replaces the PDF's folder):
        this handle would then read and write a file nobody else can see."""
        return _file_id(self.path) == self._file_id

    def get_exact(self, fingerprint: str, k: int, query: str) -> list[RetrievedChunk] | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT results FROM retrieval_cache WHERE fingerprint=? AND k=? AND norm_query=? LIMIT 1",
                (fingerprint, k, normalise_query(query)),
            ).fetchone()
        return _decode(row[0]) if row else None

    def get_similar(
        self, fingerprint: str, k: int, query: str, embedding: np.ndarray
    ) -> list[RetrievedChunk] | None:
        with self._lock:
            rows = self._conn.execute(
                "SELECT embedding, results FROM retrieval_cache WHERE fingerprint=? AND k=? AND numbers=?",
                (fingerprint, k, query_numbers(query)),
            ).fetchall()
        if not rows:
            return None
        matrix = np.stack([np.frombuffer(r[0], dtype=np.float32) for r in rows])
        sims = matrix @ np.asarray(embedding, dtype=np.float32)
        best = int(np.argmax(sims))
        return _decode(rows[best][1]) if sims[best] >= self.threshold else None

    def put(
        self, fingerprint: str, k: int, query: str, embedding: np.ndarray, results: list[RetrievedChunk]
    ) -> None:
        payload = json.dumps([r.model_dump() for r in results])
        if fingerprint != self._purged_for:
            # Entries of earlier index versions can never hit again (a selection's cache file
            # outlives a re-index of one of its PDFs): drop them once per new fingerprint.
            self.purge_other_fingerprints(fingerprint)
            self._purged_for = fingerprint
        with self._lock:
            self._conn.execute(
                "INSERT INTO retrieval_cache (fingerprint, k, norm_query, numbers, embedding, results, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    fingerprint,
                    k,
                    normalise_query(query),
                    query_numbers(query),
                    np.asarray(embedding, dtype=np.float32).tobytes(),
                    payload,
                    time.time(),
                ),
            )
            self._conn.commit()

    def purge_other_fingerprints(self, fingerprint: str) -> int:
        """Drop entries of earlier index versions; returns how many were removed."""
        with self._lock:
            cur = self._conn.execute("DELETE FROM retrieval_cache WHERE fingerprint != ?", (fingerprint,))
            self._conn.commit()
            return cur.rowcount

    def count(self) -> int:
        with self._lock:
            return self._conn.execute("SELECT COUNT(*) FROM retrieval_cache").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def _file_id(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _decode(payload: str) -> list[RetrievedChunk]:
    return [RetrievedChunk.model_validate(r) for r in json.loads(payload)]
