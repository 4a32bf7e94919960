"""A semantic cache of retrieval results in SQLite, one database per PDF or per selection of PDFs.

Two tiers, both scoped to a *fingerprint* of the indexed PDFs (doc ids + their `processed_at`),
so re-indexing a PDF invalidates everything cached for it:

1. exact: the query normalised (case, punctuation, whitespace) -> served without embedding
   the query at all (well under a millisecond);
2. semantic: cosine similarity of query embeddings >= `threshold` **and** the same numbers in
   both queries ("FY2022" vs "FY2023" questions are near-identical as vectors but must never
   share results).

Bounded: at most `max_rows` entries and `max_bytes` of stored results and embeddings per file; beyond
that the least recently used entries are evicted (a hit counts as a use). SQLite reuses the freed
pages, so the file stays bounded too (tests/storage/retrieval/test_retrieval_cache_bound.py).

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
# One entry is ~10-60 KB (k results with their chunk text, plus a 1.5 KB embedding); 500 entries
# keep weeks of a user's repeated questions while bounding a file to ~16 MB.
DEFAULT_MAX_ROWS = 500
DEFAULT_MAX_BYTES = 16 * 2**20
_SCHEMA = """
CREATE TABLE IF NOT EXISTS retrieval_cache (
    id INTEGER PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    k INTEGER NOT NULL,
    norm_query TEXT NOT NULL,
    numbers TEXT NOT NULL,
    embedding BLOB NOT NULL,
    results TEXT NOT NULL,
    created_at REAL NOT NULL,
    last_used REAL,
    size INTEGER
);
CREATE INDEX IF NOT EXISTS retrieval_cache_exact ON retrieval_cache (fingerprint, k, norm_query);
"""
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
# What a broken or unreadable cache raises (SQLite, its file, a stored entry that no longer parses);
# the retriever then searches without it.
CACHE_ERRORS: tuple[type[BaseException], ...] = (sqlite3.Error, OSError, ValueError)


def normalise_query(query: str) -> str:
    """Case, punctuation and whitespace do not change what is asked."""
    return " ".join(re.sub(r"[^\w%$&]+", " ", query.lower()).split())


def query_numbers(query: str) -> str:
    return " ".join(sorted({n.replace(",", "") for n in _NUMBER.findall(query)}))


class RetrievalCache:
    """Retrieval results keyed by (fingerprint, k, query); thread-safe; one SQLite file."""

    def __init__(self, path: Path, threshold: float = DEFAULT_THRESHOLD, *,
                 max_rows: int = DEFAULT_MAX_ROWS, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.path = Path(path)
        self.threshold = threshold
        self.max_rows = max_rows
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._purged_for: str | None = None  # fingerprint whose older entries were already dropped
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(str(self.path), check_same_thread=False, timeout=10)
        try:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")  # a cache: no fsync per hit or write
            self._conn.executescript(_SCHEMA)
            columns = {row[1] for row in self._conn.execute("PRAGMA table_info(retrieval_cache)")}
            if "size" not in columns:  # a file written before entries were evicted
                self._conn.execute("ALTER TABLE retrieval_cache ADD COLUMN last_used REAL")
                self._conn.execute("ALTER TABLE retrieval_cache ADD COLUMN size INTEGER")
                self._conn.execute("UPDATE retrieval_cache SET size = LENGTH(results) + LENGTH(embedding)")
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
                "SELECT id, results FROM retrieval_cache WHERE fingerprint=? AND k=? AND norm_query=? LIMIT 1",
                (fingerprint, k, normalise_query(query)),
            ).fetchone()
            if row:
                self._touch(row[0])
        return _decode(row[1]) if row else None

    def get_similar(
        self, fingerprint: str, k: int, query: str, embedding: np.ndarray
    ) -> list[RetrievedChunk] | None:
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, embedding, results FROM retrieval_cache WHERE fingerprint=? AND k=? AND numbers=?",
                (fingerprint, k, query_numbers(query)),
            ).fetchall()
        if not rows:
            return None
        matrix = np.stack([np.frombuffer(r[1], dtype=np.float32) for r in rows])
        sims = matrix @ np.asarray(embedding, dtype=np.float32)
        best = int(np.argmax(sims))
        if sims[best] < self.threshold:
            return None
        with self._lock:
            self._touch(rows[best][0])
        return _decode(rows[best][2])

    def _touch(self, row_id: int) -> None:
        """Mark an entry as used now (call with the lock held)."""
        self._conn.execute("UPDATE retrieval_cache SET last_used=? WHERE id=?", (time.time(), row_id))
        self._conn.commit()

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
            vector = np.asarray(embedding, dtype=np.float32).tobytes()
            self._conn.execute(
                "INSERT INTO retrieval_cache (fingerprint, k, norm_query, numbers, embedding, results, created_at, size)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    fingerprint,
                    k,
                    normalise_query(query),
                    query_numbers(query),
                    vector,
                    payload,
                    time.time(),
                    len(payload.encode()) + len(vector),
                ),
            )
            self._evict()
            self._conn.commit()

    def _evict(self) -> None:
        """Drop the least recently used entries beyond max_rows / max_bytes (lock held)."""
        rows, size = self._conn.execute("SELECT COUNT(*), COALESCE(SUM(size), 0) FROM retrieval_cache").fetchone()
        if rows <= self.max_rows and size <= self.max_bytes:
            return
        kept, kept_bytes, drop = 0, 0, []
        for row_id, row_bytes in self._conn.execute(
            "SELECT id, size FROM retrieval_cache"
            " ORDER BY COALESCE(last_used, created_at) DESC, id DESC"
        ).fetchall():
            if kept < self.max_rows and kept_bytes + row_bytes <= self.max_bytes:
                kept, kept_bytes = kept + 1, kept_bytes + row_bytes
            else:
                drop.append((row_id,))
        self._conn.executemany("DELETE FROM retrieval_cache WHERE id=?", drop)

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
