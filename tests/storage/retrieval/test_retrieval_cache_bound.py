"""The retrieval cache stays bounded: least recently used entries are evicted beyond max_rows /
max_bytes, and the file does not grow with the number of distinct questions."""

from __future__ import annotations

import sqlite3

import numpy as np

from storage.retrieval.cache import DEFAULT_MAX_BYTES, DEFAULT_MAX_ROWS, RetrievalCache
from storage.schema import Chunk, RetrievedChunk

RNG = np.random.default_rng(7)


def _results(i: int, k: int = 8) -> list[RetrievedChunk]:
    text = f"Chunk for question {i}. " + "Revenue, margins and cash flow were discussed at length. " * 30  # ~1.7 KB
    return [RetrievedChunk(chunk=Chunk(chunk_id=j, text=text, source_file="r.pdf", doc_id="r-0123456789ab",
                                       page_number=j, page_end=j), score=1.0 - j / 10) for j in range(k)]


def _vec() -> np.ndarray:
    v = RNG.normal(size=384).astype(np.float32)
    return v / np.linalg.norm(v)


def _file_bytes(path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


def test_many_distinct_questions_stay_under_the_row_bound_and_recent_ones_survive(tmp_path):
    cache = RetrievalCache(tmp_path / "c.db", max_rows=100)
    favourite = _vec()
    cache.put("fp", 8, "what was revenue in 2023", favourite, _results(-1))
    for i in range(1000):
        cache.put("fp", 8, f"distinct question number {i}", _vec(), _results(i))
        if i % 50 == 0:  # asked again now and then: recently used, so kept
            assert cache.get_exact("fp", 8, "What was revenue in 2023?") is not None
        assert cache.count() <= 100
    assert cache.get_exact("fp", 8, "distinct question number 0") is None  # least recently used: evicted
    assert cache.get_exact("fp", 8, "distinct question number 999") is not None
    assert cache.get_similar("fp", 8, "revenue in 2023, please", favourite) is not None
    cache.close()


def test_the_byte_bound_and_the_file_size(tmp_path):
    path = tmp_path / "c.db"
    cache = RetrievalCache(path, max_rows=10_000, max_bytes=2 * 2**20)
    sizes = []
    for i in range(1500):  # ~22 MB of results without a bound
        cache.put("fp", 8, f"question {i}", _vec(), _results(i))
        if i % 250 == 249:
            sizes.append(_file_bytes(path))
    stored = cache._conn.execute("SELECT SUM(size) FROM retrieval_cache").fetchone()[0]
    cache.close()
    assert stored <= 2 * 2**20
    # SQLite reuses freed pages: the file (with its WAL) stops growing once full.
    print(f"cache file after 250..1500 distinct questions: {[round(s / 2**20, 1) for s in sizes]} MB")
    assert max(sizes) < 8 * 2**20 and sizes[-1] <= sizes[1] * 1.3


def test_defaults_bound_a_file_under_load(tmp_path):
    path = tmp_path / "c.db"
    cache = RetrievalCache(path)
    results, asked = _results(0), DEFAULT_MAX_ROWS + 300
    for i in range(asked):
        cache.put("fp", 8, f"question {i}", _vec(), results)
    assert cache.count() == DEFAULT_MAX_ROWS
    cache.close()
    size = _file_bytes(path)
    print(f"default bound: {DEFAULT_MAX_ROWS} rows / {DEFAULT_MAX_BYTES / 2**20:.0f} MB; file {size / 2**20:.1f} MB "
          f"after {asked} distinct questions")
    assert size < DEFAULT_MAX_BYTES * 1.5


def test_a_file_written_before_eviction_is_upgraded(tmp_path):
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE retrieval_cache (id INTEGER PRIMARY KEY, fingerprint TEXT NOT NULL, k INTEGER NOT NULL,"
        " norm_query TEXT NOT NULL, numbers TEXT NOT NULL, embedding BLOB NOT NULL, results TEXT NOT NULL,"
        " created_at REAL NOT NULL);"
    )
    conn.execute("INSERT INTO retrieval_cache (fingerprint, k, norm_query, numbers, embedding, results, created_at)"
                 " VALUES ('fp', 8, 'old question', '', ?, '[]', 1.0)", (_vec().tobytes(),))
    conn.commit()
    conn.close()
    cache = RetrievalCache(path, max_rows=3)
    assert cache.get_exact("fp", 8, "old question") == []
    for i in range(5):
        cache.put("fp", 8, f"new {i}", _vec(), [])
    assert cache.count() == 3
    cache.close()
