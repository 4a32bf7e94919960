"""The pages printing a table row a question names by its printed label (issues 27, 28).

A question for a row of no line item the vocabulary knows ("accrued compensation and employee benefit costs",
"bank overdrafts", "vehicles and trailers") names it by the words the filing prints; a notes table is where
it is, and the passage search may rank the prose that mentions it above that table. The filing's stored facts
(storage/documents/facts.py) say which pages print a row of that label, and in which fiscal years: a page
whose row label's words (at least `MIN_WORDS`, stemmed, without stop words and the issuer's name) the question
says every one of, with a value in a fiscal year the question names (when it names one), is where the row is
printed. The longest label said comes first, then the page's order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from storage.documents.bm25 import tokenize
from storage.retrieval.question_scope import question_scope
from storage.retrieval.stored_facts import facts_view

MIN_WORDS = 2  # a one-word label ("Other", "Total", "Issued") names no row on its own


def label_rows(facts: Sequence[dict], issuer: frozenset[str] = frozenset()) -> Mapping[frozenset[str], Mapping[int, frozenset[int]]]:
    """label words -> page -> the fiscal years of that row's values there (rows printing a value); read-only, as the
    view is cached and shared by every question (stored_facts.facts_view)."""
    out: dict[frozenset[str], dict[int, set[int]]] = {}
    for f in facts:
        if f.get("value") is None:
            continue
        words = frozenset(tokenize(f.get("label") or "")) - issuer
        if len(words) < MIN_WORDS:
            continue
        years = out.setdefault(words, {}).setdefault(int(f["page"]), set())
        if f.get("fiscal_year"):
            years.add(int(f["fiscal_year"]))
    return MappingProxyType({w: MappingProxyType({p: frozenset(y) for p, y in pages.items()}) for w, pages in out.items()})


def pages_of_label(rows: Mapping[frozenset[str], Mapping[int, frozenset[int]]], question: str,
                   issuer: frozenset[str] = frozenset()) -> list[int]:
    """Pages printing a row whose label words the question says, in a fiscal year it names (module doc)."""
    said = set(tokenize(question)) - issuer
    asked = {y for y, _ in question_scope(question).periods if y is not None}
    best: dict[int, int] = {}
    for words, pages in rows.items():
        if not words <= said:
            continue
        for page, years in pages.items():
            if asked and not years & asked:
                continue
            best[page] = max(best.get(page, 0), len(words))
    return sorted(best, key=lambda p: (-best[p], p))


def label_pages(doc_id: str, question: str, issuer: str | None = None) -> list[int]:
    """0-based pages of a processed PDF printing a row the question names by its label (module doc); [] when
    none, or the build stores no facts."""
    words = frozenset(tokenize(issuer or ""))
    return pages_of_label(facts_view(doc_id, label_rows, words) or {}, question, words)
