"""A processed PDF's stored facts as retrieval reads them: facts.json of its current build
(storage/documents/facts.py), parsed once per file, and what each page finder builds from them, once.

The facts feature of the ranking (fact_pages.py), the part pages (part_pages.py) and the label pages
(label_pages.py) each read the facts through `facts_view(doc_id, build, *args)`: `build(facts, *args)` over
the raw fact dicts (no model validation: a filing prints tens of thousands of values), cached per facts file
(document, build, file time), so a backfill or a new build is read again and nothing else is. A build made
before facts were stored gives None, its reason logged once per document.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from functools import lru_cache
from typing import TypeVar

from storage.documents.catalog import get_pdf_output_dirs

log = logging.getLogger(__name__)

T = TypeVar("T")
_missing_logged: set[str] = set()
_lock = threading.Lock()


def _key(doc_id: str) -> tuple[str, str, int] | None:
    """(document, facts file, its mtime_ns); None when the document or its facts cannot be read."""
    try:
        path = get_pdf_output_dirs(doc_id).facts_path
        return doc_id, str(path), path.stat().st_mtime_ns
    except (OSError, ValueError) as exc:
        _missing(doc_id, exc)
        return None


def _missing(doc_id: str, exc: Exception) -> None:
    with _lock:
        first = doc_id not in _missing_logged
        _missing_logged.add(doc_id)
    if first:
        log.info("%s: no stored facts (%s); the facts features (facts weight, part and label pages) leave its "
                 "pages as ranked (python -m storage.documents.facts --backfill adds them)", doc_id, type(exc).__name__)


@lru_cache(maxsize=16)
def _read(key: tuple[str, str, int]) -> tuple[dict, ...] | None:
    doc_id, path, _ = key
    try:
        with open(path, encoding="utf-8") as fh:
            return tuple(json.load(fh))
    except (OSError, ValueError) as exc:
        _missing(doc_id, exc)
        return None


def stored_facts(doc_id: str) -> tuple[dict, ...] | None:
    """The document's stored facts (facts.json of its current build, as dicts), read once per file; None for a
    build made before facts were stored or an unreadable file (reason logged once per document)."""
    key = _key(doc_id)
    return _read(key) if key is not None else None


@lru_cache(maxsize=256)
def _view(key: tuple[str, str, int], build: Callable, args: tuple):
    facts = _read(key)
    return None if facts is None else build(facts, *args)


def facts_view(doc_id: str, build: Callable[..., T], *args) -> T | None:
    """`build(stored_facts(doc_id), *args)`, computed once per facts file and arguments (hashable); None when
    the document stores no facts."""
    key = _key(doc_id)
    return _view(key, build, args) if key is not None else None


def clear() -> None:
    """Forget every read file and view (tests; a process that rewrote facts in place within one mtime tick)."""
    _read.cache_clear()
    _view.cache_clear()
    with _lock:
        _missing_logged.clear()
