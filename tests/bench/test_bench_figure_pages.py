"""bench/figure_pages.py scores the pages the figure path read: the truth's rank among the pages read (its first
MAX_SOURCES sources), a truth offered past them counted apart, and the tool that brought it."""

from __future__ import annotations

from bench.figure_pages import score, summary


def test_the_truth_counts_only_among_the_pages_read():
    q = {"file": "A.pdf", "truth": [7, 9]}
    read = {"offered": [["A.pdf", 3, "statement"], ["A.pdf", 9, "search"], ["A.pdf", 7, "search"]], "read": 2}
    assert score(q, read) == {"rank_read": 2, "rank_offered": 2, "by": "search"}
    late = {"offered": [["A.pdf", 3, "label"], ["A.pdf", 4, "search"], ["A.pdf", 7, "search"]], "read": 2}
    assert score(q, late) == {"rank_read": None, "rank_offered": 3, "by": "search"}
    other_file = {"offered": [["B.pdf", 7, "search"]], "read": 1}
    assert score(q, other_file)["rank_offered"] is None


def test_summary_reads_recall_at_one_and_mrr():
    scores = [{"rank_read": 1, "rank_offered": 1, "by": "label"}, {"rank_read": 2, "rank_offered": 2, "by": "search"},
              {"rank_read": None, "rank_offered": 8, "by": "search"}, {"rank_read": None, "rank_offered": None, "by": None}]
    s = summary(scores)
    assert (s["n"], s["recall_read"], s["at1"], s["offered_not_read"], s["mrr_read"]) == (4, 0.5, 0.25, 0.25, 0.375)
    assert s["by"] == {"label": 1, "search": 1}
