"""The pages printing a part of the company a question names: a segment, a region, a product line (issues 27, 28).

A filing's parts are read from its stored facts (storage/documents/facts.py), never from a list of names:
the captions and sections a row stands under (`Fact.path`: "Americas", "Cloud and license"), a column's
title before its period ("FedEx Express Segment, Year ended May 31, 2023"), and the label of a row that
names no line item itself: its item is then its section's ("Commercial Airplanes" under "Revenues") or,
in a table whose total row names the item ("Total net sales"), the total's ("Mac", "EMEA").

A question names a part when it says every distinctive word of the part's name (not the line item's
words, not the issuer's, not "segment" or "total"); it is asked of the pages printing that part's row of
the line item the question names (or, naming no known item, a row whose label words it says: "margin").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from storage.documents.bm25 import tokenize
from storage.finance.line_items import asked_items
from storage.finance.periods import SPAN_WORDS
from storage.retrieval.fact_pages import asked_facts, fact_concepts
from storage.retrieval.stored_facts import facts_view

# words that say what kind of part a name is, or that it is a whole: no part's own name
GENERIC = frozenset(tokenize("segment segments reportable total totals consolidated other operating business businesses "
                             "results summary information data geographic geography region regions division divisions "
                             "following table presents company"))
MAX_NAME_WORDS = 6  # a longer caption is a sentence, not a part's name


@dataclass(frozen=True)
class PartRow:
    """What a filing prints of one part on one page."""

    page: int
    name: frozenset[str]  # the part's distinctive words
    concepts: frozenset[str]  # the line items of its rows there
    labels: tuple[frozenset[str], ...]  # the words of its rows' labels
    years: frozenset[int]


def _without_items(text: str) -> str:
    """`text` without the line items it names (storage.finance.line_items.asked_items spans)."""
    for asked in sorted(asked_items(text), key=lambda a: -a.start):
        text = text[: asked.start] + " " + text[asked.end:]
    return text


def name_words(name: str, issuer: frozenset[str] = frozenset()) -> frozenset[str]:
    """A part name's distinctive words: without the line item it names ("Hardware Revenues" -> hardware), the
    words of kind or whole (GENERIC), the issuer's name and numbers; empty when nothing is left."""
    if len(name.split()) > MAX_NAME_WORDS:
        return frozenset()
    return frozenset(w for w in tokenize(_without_items(name)) if not w[0].isdigit()) - GENERIC - issuer


def column_part(period: str) -> str:
    """The part a column's title names before its period ("FedEx Express Segment, Year ended May 31, 2023" ->
    "FedEx Express Segment"): its comma-separated pieces printing no number and no span word."""
    return " ".join(p for p in period.split(",") if not any(ch.isdigit() for ch in p) and not SPAN_WORDS.search(p))


def _is_total(label: str) -> bool:
    return tokenize(label)[:1] == ["total"]


def _section_key(f: dict) -> tuple:
    return f["page"], f.get("table", 0), tuple(f.get("path") or []), f.get("section") or ""


def _sums_of_breakdowns(facts: Sequence[dict]) -> dict[tuple, float]:
    """(section, column) -> the sum of the section's rows that name no item and total nothing (its breakdown)."""
    sums: dict[tuple, float] = defaultdict(float)
    for f in facts:
        label = f.get("label") or ""
        if f.get("value") is not None and not _is_total(label) and not fact_concepts(f.get("concept"), label, ""):
            sums[(_section_key(f), f.get("period") or "")] += f["value"]
    return sums


def _totals_the_table(f: dict, sums: dict[tuple, float]) -> bool:
    """A total row under a section of rows naming no item ("Cargo:" over "Domestic", "Export") whose value is not
    their sum, and whose label does not say the section: it totals the table ("Total revenue" of all the service
    lines printed after the last one), not the section it stands under."""
    label, section = f.get("label") or "", f.get("section") or ""
    breakdown = sums.get((_section_key(f), f.get("period") or ""))
    if not _is_total(label) or breakdown is None or name_words(section) <= set(tokenize(label)):
        return False
    return abs(breakdown - f["value"]) > max(1.0, abs(f["value"]) * 0.002)  # printed roundings of the rows


def part_rows(facts: Sequence[dict], issuer: frozenset[str] = frozenset()) -> tuple[PartRow, ...]:
    """The parts the facts print, one entry per (page, part). A row naming no item under a part's heading is a
    piece of the part ("Domestic" under "Cargo:"), not the part's figure of the item: it gives the heading's
    part its label, not the item."""
    totals: dict[tuple[int, int], set[str]] = defaultdict(set)  # (page, table) -> items its total rows name
    for f in facts:
        label = f.get("label") or ""
        if _is_total(label):
            totals[(f["page"], f.get("table", 0))].update(fact_concepts(f.get("concept"), label, ""))
    sums = _sums_of_breakdowns(facts)
    grouped: dict[tuple[int, frozenset[str]], tuple[set, set, set]] = {}
    for f in facts:
        if f.get("value") is None:
            continue
        label, section = f.get("label") or "", f.get("section") or ""
        own = fact_concepts(f.get("concept"), label, "")
        concepts = set(own or fact_concepts(None, "", section))
        path = list(f.get("path") or [])
        if own and section and _totals_the_table(f, sums):  # the section it stands under is not its part
            path, section = [p for p in path if p != section], ""
        headings = {name_words(n, issuer) for n in [*path, section] if n}
        names = [*path, section, column_part(f.get("period") or "")]
        if not own:  # a row naming no item: its label is a part of its section's item or of its table's total
            concepts |= totals.get((f["page"], f.get("table", 0)), set())
            names.append(label)
            for entry in path:
                concepts.update(fact_concepts(None, "", entry))
        for name in {name_words(n, issuer) for n in names if n} - {frozenset()}:
            entry = grouped.setdefault((f["page"], name), (set(), set(), set()))
            if own or name not in headings:  # a piece of a heading's part: not the heading part's item
                entry[0].update(concepts)
            entry[1].add(frozenset(tokenize(label)) - GENERIC)
            if f.get("fiscal_year"):
                entry[2].add(int(f["fiscal_year"]))
    # a tuple: the view is cached and shared by every question (stored_facts.facts_view)
    return tuple(PartRow(page, name, frozenset(c), tuple(l), frozenset(y)) for (page, name), (c, l, y) in grouped.items())


def pages_of_part(parts: Sequence[PartRow], question: str, issuer: frozenset[str] = frozenset()) -> list[int]:
    """Pages printing the row of a part the question names, of the item it asks: the most specific name
    first (most words), then a page printing a row of the part whose label the question says, then the
    asked years' columns, then the page's order."""
    said = set(tokenize(_without_items(question))) - issuer  # the item's own words ("diluted" EPS) name no part
    asked = asked_facts(question)
    wanted = {c for concepts, _ in asked.items for c in concepts} if asked else set()
    years = asked.years if asked else frozenset()
    best: dict[int, tuple] = {}
    for part in parts:
        if not part.name <= said:
            continue
        if wanted and not part.concepts & wanted:
            continue
        # a row of the part beyond its name whose label words the question says ("Margin" of "Hardware:")
        said_row = any(label - part.name and label <= said for label in part.labels)
        if not wanted and not said_row:
            continue
        key = (len(part.name), said_row, len(part.years & years))
        best[part.page] = max(best.get(part.page, key), key)
    return sorted(best, key=lambda p: (-best[p][0], -best[p][1], p))


def part_pages(doc_id: str, question: str, issuer: str | None = None) -> list[int]:
    """0-based pages of a processed PDF printing the row of a part (segment, region, product line) the question
    names, of the item it asks (module doc); [] when it names none or the build stores no facts."""
    words = frozenset(tokenize(issuer or ""))
    return pages_of_part(facts_view(doc_id, part_rows, words) or (), question, words)
