"""What a selected PDF is, in two or three sentences a reader wants, from its own pages (no model):
what the company does (the first sentences of the 10-K's "Item 1. Business", else the lead paragraph
of the first pages, e.g. a release's) and its headline figures (2-3 rows of its primary statements
as printed, with the page that prints them, so each opens its page with the row highlighted).

    business_sentences(doc_id, processed_at)  -> "Acme Rockets, Inc. designs launch vehicles. …"
    headline_figures(doc_id, processed_at)    -> (Headline("Net sales", "$48,200", "2019", "in millions", 1), …)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from storage.finance.periods import YEAR_RE

from storage.documents.catalog import load_page_texts
from storage.documents.page_tables import statement_pages, table_units
from storage.documents.tables import split_row
from storage.finance.line_items import row_item

MAX_SENTENCES = 2
MAX_CHARS = 420
MIN_WORDS = 5
MAX_HEADLINES = 3
LEAD_PAGES = 3  # pages searched for a lead paragraph when there is no "Item 1. Business"
# The lines readers ask about first, in this order (US-GAAP concepts of storage/finance/line_items.py).
HEADLINE_CONCEPTS = ("Revenues", "NetIncomeLoss", "OperatingIncomeLoss", "EarningsPerShareDiluted",
                     "NetCashProvidedByUsedInOperatingActivities", "GrossProfit", "Assets")

_ITEM_1 = re.compile(r"(?im)^[ \t]*item[ \t]*1[ \t.:\-–—]*\s*business\b[ \t.:]*")
_ITEM_LINE = re.compile(r"(?im)^[ \t]*item[ \t]*\d+[a-c]?\b")
_COVER = re.compile(r"(?i)securities and exchange commission|commission file number|latest practicable date")
_DEFINED_TERMS = re.compile(r"\s*\([^()]*[“\"][^()]*\)")  # (“FedEx”), (herein referred to as “Boeing,” …)
_PART_OR_ITEM = re.compile(r"(?i)^\s*(?:part\s+[ivx]+|item\s*\d+[a-c]?)\b")
# Sentences of the SEC cover, legends and safe-harbour boilerplate: never what a company does.
_BOILERPLATE = re.compile(
    r"(?i)exchange act|securities act|registrant|pursuant to|check mark|form 10-[kq]|commission file|rule \d|"
    r"affiliates?\b|shares outstanding|outstanding as of|☐|☒|indicate (?:by|the)|accelerated filer|\bitem\s*\d+[a-c]?\b|"
    r"forward-looking|incorporat\w* by reference|table of contents|annual report on form|this (?:annual )?report|"
    r"the terms? [“\"']|we,? us,? our|refers? to|unless the context|should be read|non-gaap|webcast|conference call|"
    r"copyright|all rights reserved|www\.|https?://|@"
)
# Statements of part of the group (summarized guarantor information, parent-company-only statements).
_SUBSET_ENTITY = re.compile(r"(?i)obligor group|guarantor|parent company only|condensed consolidating|non-guarantor")
_SENTENCE_END = re.compile(r"(?<=[a-z0-9%)][.!?])\s+(?=[A-Z“\"(])")


@dataclass(frozen=True)
class Headline:
    label: str  # the row label as printed
    value: str  # the value as printed ("$48,200", "(1,208)")
    column: str  # its column's period ("Years ended December 31, 2019"), "" when unknown
    unit: str  # the table's unit caption up to its first comma ("in millions"), "" when none
    page: int  # 0-based

    @property
    def quote(self) -> str:
        """The row as a cell quote (agent/citations/quotes.py), which the page image highlights."""
        return f"{self.label} … {self.value}"


def _is_heading(line: str, first: bool) -> bool:
    """A line without end punctuation that is short at a paragraph's start, or in title case."""
    if line[-1] in ".!?,;:":
        return False
    words = [w for w in line.split() if w[:1].isalpha()]
    title_case = len(words) >= 2 and sum(w[0].isupper() for w in words) >= 0.7 * len(words)
    return (first and len(line) < 40) or title_case


def _prose(text: str) -> list[str]:
    """The page's prose as paragraphs: wrapped lines joined, headings and table rows left out."""
    paras, current = [], []
    for line in text.splitlines():
        line = " ".join(line.split())
        if not line:
            if current:
                paras.append(" ".join(current))
            current = []
            continue
        if _is_heading(line, first=not current):
            if current:
                paras.append(" ".join(current))
            current = []
            continue  # a heading ("Overview", "Company Background", a release's title), not prose
        current.append(line)
        if line[-1] in ".!?" and len(line) < 60:  # a short line ending a sentence ends its paragraph
            paras.append(" ".join(current))
            current = []
    if current:
        paras.append(" ".join(current))
    return paras


def _sentences(text: str) -> list[str]:
    """Whole prose sentences of `text` (a capital first, a full stop last, at least MIN_WORDS words),
    boilerplate left out."""
    out = []
    for para in _prose(text):
        para = _DEFINED_TERMS.sub("", para)
        for s in _SENTENCE_END.split(para):
            s = s.strip()
            words = s.split()
            if (len(words) >= MIN_WORDS and s[0].isupper() and s[-1] in ".!" and not _BOILERPLATE.search(s)
                    and not _PART_OR_ITEM.match(s) and sum(w[:1].isdigit() for w in words) <= len(words) // 3):
                out.append(s)
    return out


def _take(sentences: list[str]) -> str:
    taken: list[str] = []
    for s in sentences:
        if taken and (len(taken) >= MAX_SENTENCES or sum(map(len, taken)) + len(s) > MAX_CHARS):
            break
        taken.append(s if len(s) <= MAX_CHARS else s[: MAX_CHARS - 1].rsplit(" ", 1)[0] + "…")
    return " ".join(taken)


def describe(texts: list[str]) -> str:
    """The first sentences of "Item 1. Business" (not its table-of-contents line), else of the first pages."""
    for i, text in enumerate(texts):
        if len(_ITEM_LINE.findall(text)) >= 3:  # a table of contents (or an index of items)
            continue
        m = _ITEM_1.search(text)
        if m is None:
            continue
        after = text[m.end():] + "\n" + (texts[i + 1] if i + 1 < len(texts) else "")
        if found := _take(_sentences(after)):
            return found
    for text in texts[:LEAD_PAGES]:
        if _COVER.search(text):  # a filing's cover page: legends, never the business
            continue
        if found := _take(_sentences(text)):
            return found
    return ""


@lru_cache(maxsize=128)
def business_sentences(doc_id: str, processed_at: str = "") -> str:
    """What the PDF says it is about (see `describe`); `processed_at` keys the cache."""
    try:
        return describe(load_page_texts(doc_id))
    except (OSError, ValueError):
        return ""


def _latest_year(column: str) -> int:
    return max((int(y) for y in YEAR_RE.findall(column)), default=0)


@lru_cache(maxsize=128)
def headline_figures(doc_id: str, processed_at: str = "", period_year: int = 0) -> tuple[Headline, ...]:
    """Up to MAX_HEADLINES rows of the primary statements, most asked first, each with the value of its
    latest period's column (the first of equals, as statements print the latest first) and its page.
    With `period_year` (the year the document's period ends) a row whose columns all end earlier is
    left out: a comparative table is no headline, and a missing figure beats a wrong one."""
    try:
        texts = load_page_texts(doc_id)
        pages = statement_pages(doc_id)
    except (OSError, ValueError):
        return ()
    by_page: dict[int, dict[str, Headline]] = {}
    columns_of: dict[int, int] = {}  # page -> most value columns of a row (a statement prints comparatives)
    for index in pages[:8]:
        if _SUBSET_ENTITY.search(texts[index] if index < len(texts) else ""):
            continue  # a guarantor's or parent company's summarized statement, not the company's
        found = by_page.setdefault(index, {})
        for unit in table_units(doc_id, index, texts[index] if index < len(texts) else ""):
            if not unit.is_table_row or unit.is_header:
                continue
            label = " ".join((unit.label or split_row(unit.text)[0]).split()).rstrip(":")
            item = row_item(label, unit.section) if 3 <= len(label) <= 60 else None
            if item is None or item.concept not in HEADLINE_CONCEPTS or item.concept in found:
                continue
            cells = list(unit.cells) if unit.cells else list(enumerate(split_row(unit.text)[1]))
            if not cells:
                continue
            columns_of[index] = max(columns_of.get(index, 0), len(cells))
            columns = unit.header.columns if unit.header is not None else ()
            col, value = max(cells, key=lambda c: (_latest_year(columns[c[0]]) if 0 <= c[0] < len(columns) else 0, -c[0]))
            if period_year and 0 <= col < len(columns) and 0 < _latest_year(columns[col]) < period_year:
                continue
            scale = " ".join(unit.unit.strip("() ").split()).split(",")[0].lower()  # "in millions"
            found[item.concept] = Headline(label, value, columns[col] if 0 <= col < len(columns) else "", scale, index)
    if not any(by_page.values()):
        return ()
    # The page printing most of them is the statement of results (not a guarantor's or a segment's table).
    best = by_page[max(by_page, key=lambda i: (len(by_page[i]), columns_of.get(i, 0)))]
    return tuple(best[c] for c in HEADLINE_CONCEPTS if c in best)[:MAX_HEADLINES]
