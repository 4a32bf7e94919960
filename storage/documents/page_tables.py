"""The table rows of a cited page, for answering: one entry point for agent/no_model/figures.py.

`table_units(doc_id, page_index, text)` returns the page's prose lines and table rows (storage/documents/tables.py
`Unit`s, each row with its period header); `statement_pages(doc_id)` which pages are primary statements.
Both read the stored build only. A page with a text layer was read by layout at ingestion
(storage/documents/facts.py, storage/documents/table_layout.py: each value under its period column, with the
table's unit caption and the row's section); an OCR page or a page whose layout read found no table is
read by the text parser (`page_units` with one-line rows).
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache

from storage.documents.catalog import load_manifest, load_page_texts
from storage.documents.facts import FactsMissing, page_facts, stored_tables  # noqa: F401 (page_facts: for readers of facts)
from storage.documents.page_furniture import drop_furniture_text
from storage.documents.tables import Unit, page_units

log = logging.getLogger(__name__)


_PRIMARY_TITLE = re.compile(
    r"^(?:[\w.,&'’ ]{0,60}\s)?(?:condensed\s+)?(?:consolidated\s+)?(?:statements?\s+of\s+(?:income|operations|earnings|"
    r"comprehensive\s+(?:income|loss)|cash\s+flows|financial\s+position)|balance\s+sheets?)\b[\w ,()’'-]{0,40}$", re.I)
TITLE_LINES = 8  # a statement's title stands in the page's first lines
# a registrant's parent-only schedule (Schedule I, "condensed financial information of the
# registrant / parent"): supplementary, not the consolidated statement of record
_PARENT_ONLY = re.compile(r"(?i)\bschedule\s+i\b|condensed\s+financial\s+information\s+of\b|\bparent\s+company\s+only\b|"
                          r"\(\W?parent\W?\)")


def _first_lines(page_text: str) -> list[str]:
    """The page's first TITLE_LINES non-blank lines, spaces collapsed: where a title or a registrant's name stands."""
    return [" ".join(line.split()) for line in page_text.splitlines() if line.strip()][:TITLE_LINES]


def is_primary_statement(page_text: str) -> bool:
    """A page of a primary financial statement: one of its first lines is the statement's title
    ("CONSOLIDATED STATEMENTS OF OPERATIONS", "Condensed Consolidated Balance Sheets (Unaudited)"),
    not a note that mentions one."""
    lines = _first_lines(page_text)
    if any(_PARENT_ONLY.search(line) for line in lines):
        return False
    return any(len(line.split()) <= 12 and _PRIMARY_TITLE.match(line) for line in lines)


_KINDS = (("cash flows", re.compile(r"(?i)cash\s+flows")), ("balance sheet", re.compile(r"(?i)balance\s+sheets?|financial\s+"
          r"position")), ("income", re.compile(r"(?i)income|operations|earnings")))


def statement_kind(page_text: str) -> str:
    """"income", "balance sheet" or "cash flows" for a primary statement page (by its title), else ""."""
    lines = _first_lines(page_text)
    title = next((line for line in lines if len(line.split()) <= 12 and _PRIMARY_TITLE.match(line)), "")
    return next((kind for kind, rx in _KINDS if rx.search(title)), "") if title else ""


def statement_entity(page_text: str) -> str:
    """Whose statement a primary statement page is, when a filing has several registrants: the short
    name line printed just above its title ("PG&E CORPORATION" over "CONSOLIDATED BALANCE SHEETS",
    "PACIFIC GAS AND ELECTRIC COMPANY" over the subsidiary's); "" when none is printed."""
    lines = _first_lines(page_text)
    for above, line in zip(lines, lines[1:]):
        if len(line.split()) <= 12 and _PRIMARY_TITLE.match(line):
            name = above if not _PRIMARY_TITLE.match(above) and not re.search(r"\d", above) else ""
            return name if 0 < len(name.split()) <= 6 and not re.search(r"(?i)\bitem\b|financial statements", name) else ""
    return ""


# a registrant's name as a combined filing heads the sections of each ("Boston Properties, Inc.", "Boston Properties
# Limited Partnership", "PG&E Corporation"): a short line ending in a corporate form
_REGISTRANT = re.compile(r"(?i)^[a-z][\w&.,'’ -]{1,60}?\b(?:inc\.?|incorporated|corporation|corp\.?|company|co\.|"
                         r"limited partnership|l\.\s?p\.|llc|plc|ltd\.?)$")


def page_entity(page_text: str) -> str:
    """Whose figures a page other than a primary statement prints, when a filing of several registrants heads it with
    one's name line among its first lines (at most six words, no digit): an MD&A reconciliation of the parent's and
    one of its operating partnership's; "" when none is printed."""
    lines = _first_lines(page_text)
    return next((line for line in lines if len(line.split()) <= 6 and not re.search(r"\d", line)
                 and _REGISTRANT.match(line)), "")


def statement_pages(doc_id: str) -> list[int]:
    """0-based pages of a processed PDF that are primary statements (by their titles), cached per build."""
    try:
        manifest = load_manifest(doc_id)
    except (OSError, ValueError):
        return []
    return list(_statement_pages(doc_id, manifest.build or "", manifest.processed_at or ""))


@lru_cache(maxsize=256)
def _statement_pages(doc_id: str, build: str, processed_at: str) -> tuple[int, ...]:
    return tuple(i for i, text in enumerate(load_page_texts(doc_id)) if is_primary_statement(text))


def table_units(doc_id: str | None, page_index: int | None, text: str | None) -> list[Unit]:
    """The page's units for figure answers (rows with their headers, units and sections), as stored
    with the build at ingestion (storage/documents/facts.py): a text-layer page's layout rows, else the
    text parser's rows of `text` without the document's running headers and footers. The source PDF
    is never reopened; a build made before facts were stored is read by the text parser, with a
    warning naming the upgrade."""
    if doc_id and page_index is not None:
        try:
            stored = stored_tables(doc_id)
        except FactsMissing as exc:
            if doc_id not in _warned:
                _warned.add(doc_id)
                log.warning("%s: %s; its pages are read by the text parser", doc_id, exc)
            stored = None
        except (OSError, ValueError) as exc:
            log.debug("no stored tables for %s: %s", doc_id, exc)
            stored = None
        if stored is not None:
            return stored.layout(page_index) or page_units(drop_furniture_text(text or "", stored.furniture),
                                                           one_line_rows=True)
    return page_units(text or "", one_line_rows=True)


_warned: set[str] = set()
