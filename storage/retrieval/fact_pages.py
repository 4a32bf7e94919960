"""The pages whose stored facts carry the line item, and the period, a question asks for.

Ingestion stores every value of every table with its row's line item (a US-GAAP concept,
storage.finance.line_items.row_item) and its column's fiscal year (storage/documents/facts.py,
facts.json per build). A question naming a line item ("capital expenditures in FY2022") is then
matched by structure, not by words: a page printing a row of that concept, in a column of the asked
year, is where the answer is printed, whatever the issuer calls the row ("Additions to property and
equipment"); a page that only talks about the item in prose carries no such fact. The match of a page
is in [0, 1] (`page_match`):

    1                 a row of the asked concept, with a value in every asked year (or no year asked)
    concept_only      a row of the asked concept, none of the asked years among its columns
    in between        some of the asked years
    share of inputs   a ratio asked (gross margin, free cash flow): the share of its formula's concepts
                      the page prints (the statement page prints both inputs), when it prints no row of
                      the ratio itself
    0                 none of it

Several items asked: the mean over items. The ranking adds `facts_weight * spread * match` to each page
(storage/retrieval/fusion.py, Ranking.facts_weight). Facts are read from the build (never the PDF), once
per facts file (storage/retrieval/stored_facts.py); a build without facts contributes nothing, with the reason
logged once per document.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

import numpy as np

from storage.finance.line_items import ALSO_ANSWERS, BY_CONCEPT, LineItem, asked_items
from storage.retrieval.question_scope import question_scope
from storage.retrieval.stored_facts import facts_view

log = logging.getLogger(__name__)

CONCEPT_ONLY = 0.5  # a page printing the asked row without the asked year's column


@dataclass(frozen=True)
class FactPages:
    """What a document's stored facts say of its pages: concept -> page -> the fiscal years of its values
    (read-only: one cached view serves every question)."""

    concepts: Mapping[str, Mapping[int, frozenset[int]]]

    def pages_of(self, concepts: tuple[str, ...]) -> dict[int, frozenset[int]]:
        """Pages printing a row of one of `concepts`, each with the fiscal years of those rows' values."""
        out: dict[int, set[int]] = {}
        for concept in concepts:
            for page, years in self.concepts.get(concept, {}).items():
                out.setdefault(page, set()).update(years)
        return {p: frozenset(y) for p, y in out.items()}


EMPTY = FactPages(MappingProxyType({}))


def load_fact_pages(doc_id: str) -> FactPages:
    """The document's facts by concept and page (storage.retrieval.stored_facts, read once per facts file);
    EMPTY for a build made before facts were stored or an unreadable file (reason logged there)."""
    return facts_view(doc_id, fact_pages_of) or EMPTY


def fact_pages_of(facts: tuple[dict, ...]) -> FactPages:
    """Stored facts (dicts) by concept and page: the fiscal years of the values each page prints of each concept."""
    concepts: dict[str, dict[int, set[int]]] = {}
    for fact in facts:
        if fact.get("value") is None:  # a dash or a text cell prints no value of the item
            continue
        for concept in fact_concepts(fact.get("concept"), fact.get("label") or "", fact.get("section") or ""):
            years = concepts.setdefault(concept, {}).setdefault(int(fact["page"]), set())
            if fact.get("fiscal_year"):
                years.add(int(fact["fiscal_year"]))
    return FactPages(MappingProxyType({c: MappingProxyType({p: frozenset(y) for p, y in pages.items()})
                                      for c, pages in concepts.items()}))


def fact_concepts(concept: str | None, label: str, section: str) -> tuple[str, ...]:
    """The line items a fact's row is about: its concept as read at ingestion; for a row of no known concept,
    the items its label names in the words questions use ("Consolidated revenue"), else those its section
    names (a segment's row under "Operating margin")."""
    if concept:
        return (concept,)
    return _named(label) or _named(section)


@lru_cache(maxsize=50_000)
def _named(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(a.item.concept for a in asked_items(text))) if text else ()


@dataclass(frozen=True)
class AskedFacts:
    """What a question asks of the facts: per line item, the concepts that answer it and those of its formula."""

    items: tuple[tuple[tuple[str, ...], tuple[tuple[str, ...], ...]], ...]  # (answering concepts, formula inputs)
    years: frozenset[int]


def _answering(item: LineItem) -> tuple[str, ...]:
    return (item.concept, *ALSO_ANSWERS.get(item.concept, ()))


def asked_facts(question: str) -> AskedFacts | None:
    """The line items (storage.finance.line_items.asked_items) and fiscal years a question names; None
    when it names no line item."""
    items = []
    for asked in asked_items(question or ""):
        item = asked.item
        inputs = tuple(_answering(BY_CONCEPT[c]) for c in dict.fromkeys(re.findall(r"[A-Za-z]+", item.formula))
                       if c in BY_CONCEPT)
        entry = (_answering(item), inputs)
        if entry not in items:
            items.append(entry)
    if not items:
        return None
    years = frozenset(y for y, _ in question_scope(question).periods if y is not None)
    return AskedFacts(tuple(items), years)


def page_match(pages: FactPages, asked: AskedFacts, n_pages: int, concept_only: float = CONCEPT_ONLY,
               inputs: bool = True) -> np.ndarray:
    """float[n_pages] in [0, 1]: how well each page's facts carry what `asked` names (module doc); `inputs`
    False: a ratio's formula inputs count for nothing, only a row of the ratio itself."""
    total = np.zeros(n_pages)
    for concepts, formula in asked.items:
        match = np.zeros(n_pages)
        for page, years in pages.pages_of(concepts).items():
            if page < n_pages:
                match[page] = _period_share(years, asked.years, concept_only)
        if formula and inputs:  # a ratio: the share of its inputs the page prints, where it prints no row of its own
            share = np.zeros(n_pages)
            for group in formula:
                for page, years in pages.pages_of(group).items():
                    if page < n_pages:
                        share[page] += _period_share(years, asked.years, concept_only) / len(formula)
            match = np.maximum(match, share)
        total += match
    return total / len(asked.items)


def _period_share(years: frozenset[int], asked: frozenset[int], concept_only: float) -> float:
    if not asked:
        return 1.0
    return concept_only + (1.0 - concept_only) * len(years & asked) / len(asked)
