"""A source's text without its document's page furniture, for picking what to quote.

A 10-K prints the company, the form and the year at the top of every page and "Northwind | 2019
Form 10-K | 43" at the foot (storage/documents/page_furniture.py tells them as a class at
ingestion and stores their keys with the build). Such a line shares a question's words (the
company, the year) and says nothing about what is asked, so it is never quoted, nor glued by the
layout to the sentence below it:

    content_text(doc_id, text)   # text without the lines that are the document's furniture
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache

from storage.documents import catalog
from storage.documents.facts import FactsMissing, stored_tables
from storage.documents.page_furniture import EdgeLine, furniture_keys, is_furniture, mask, text_edges

log = logging.getLogger(__name__)
_LETTER = re.compile(r"[A-Za-z]")


def furniture_of(doc_id: str | None) -> frozenset[str]:
    """The document's furniture keys (masked running header and footer texts), as stored with its
    build; for a build made before they were stored, read from its page texts; none when unknown."""
    if not doc_id:
        return frozenset()
    try:
        return stored_tables(doc_id).furniture
    except FactsMissing:
        pass
    except (OSError, ValueError):
        return frozenset()
    try:
        manifest = catalog.load_manifest(doc_id)
    except (OSError, ValueError):
        return frozenset()
    return _from_page_texts(doc_id, manifest.build or "", manifest.processed_at or "")


@lru_cache(maxsize=64)
def _from_page_texts(doc_id: str, build: str, processed_at: str) -> frozenset[str]:
    try:
        pages = catalog.load_page_texts(doc_id)
    except (OSError, ValueError) as exc:
        log.debug("no page texts for %s: %s", doc_id, exc)
        return frozenset()
    return furniture_keys([[EdgeLine(mask(s), s, False) for _, s in text_edges(text or "")] for text in pages])


def is_furniture_line(line: str, keys: frozenset[str]) -> bool:
    """A running header or footer of the document, a "Page 43" / "43 | Northwind" page number or a
    "Table of Contents" line (a bare number is not: in a chunk it may be a table's value)."""
    s = " ".join(line.split())
    return bool(_LETTER.search(s)) and is_furniture(EdgeLine(mask(s), s, False), keys)


def content_text(doc_id: str | None, text: str) -> str:
    """`text` (a chunk or page of the document) without its furniture lines, wherever they stand."""
    if not text:
        return text or ""
    keys = furniture_of(doc_id)
    return "\n".join(line for line in text.splitlines() if not is_furniture_line(line, keys))
