"""One loader of a processed PDF's stored facts for retrieval (storage/retrieval/stored_facts.py): the facts
feature, the part pages and the label pages read facts.json once per file, each view built once, a rewritten
file read again, a build without facts None (said once)."""

from __future__ import annotations

import json
import logging
import os

from storage.documents.catalog import get_pdf_output_dirs
from storage.retrieval import stored_facts
from storage.retrieval.fact_pages import load_fact_pages
from storage.retrieval.label_pages import label_pages
from storage.retrieval.part_pages import part_pages
from tests.storage.retrieval.test_retrieval_fact_pages import _write


def test_the_three_finders_read_one_parse_of_the_facts_file(pdf_home, monkeypatch):
    doc_id = _write("acme_stored.pdf")
    stored_facts.clear()
    opened = []
    real_load = json.load
    monkeypatch.setattr(stored_facts.json, "load", lambda fh: opened.append(fh.name) or real_load(fh))
    facts = stored_facts.stored_facts(doc_id)
    assert facts and any(f.get("label") == "Net sales" and f.get("page") == 1 for f in facts)
    assert 1 in load_fact_pages(doc_id).pages_of(("Revenues",))
    label_pages(doc_id, "What were net sales in 2022?")
    part_pages(doc_id, "What were net sales in 2022?")
    assert load_fact_pages(doc_id) is load_fact_pages(doc_id)  # the view is built once
    assert len(opened) == 1

    # facts read again (a backfill rewrites the file): the new file is read, the views follow it
    path = get_pdf_output_dirs(doc_id).facts_path
    kept = [f for f in facts if f.get("page") != 1]
    path.write_text(json.dumps(kept), "utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert 1 not in load_fact_pages(doc_id).pages_of(("Revenues",))
    assert len(opened) == 2


def test_a_build_without_facts_gives_none_and_says_so_once(pdf_home, caplog):
    doc_id = _write("acme_stored_none.pdf")
    stored_facts.clear()
    get_pdf_output_dirs(doc_id).facts_path.unlink()
    with caplog.at_level(logging.INFO, logger="storage.retrieval.stored_facts"):
        assert stored_facts.stored_facts(doc_id) is None
        assert label_pages(doc_id, "What were net sales in 2022?") == []
        assert part_pages(doc_id, "What were Acme's Rockets net sales in 2022?") == []
        assert load_fact_pages(doc_id).concepts == {}
    said = [r for r in caplog.records if "no stored facts" in r.getMessage()]
    assert len(said) == 1 and doc_id in said[0].getMessage()
    assert stored_facts.stored_facts("no-such-document") is None


def test_the_shared_views_cannot_be_changed_by_a_caller(pdf_home):
    """One cached view serves every question: a caller changing it would change the next question's ranking."""
    from storage.retrieval.label_pages import label_rows
    from storage.retrieval.part_pages import part_rows

    doc_id = _write("acme_stored_frozen.pdf")
    stored_facts.clear()
    concepts = load_fact_pages(doc_id).concepts
    pages = concepts["Revenues"]
    labels = stored_facts.facts_view(doc_id, label_rows, frozenset())
    parts = stored_facts.facts_view(doc_id, part_rows, frozenset())
    assert pages and labels and parts
    for change in (lambda: concepts.__setitem__("Revenues", {}), lambda: pages.__setitem__(99, frozenset()),
                   lambda: labels.__setitem__(frozenset({"x"}), {}),
                   lambda: next(iter(labels.values())).__setitem__(99, frozenset()), lambda: parts.append(parts[0])):
        try:
            change()
        except (TypeError, AttributeError):
            continue
        raise AssertionError("a cached view was changed")
    assert 99 not in load_fact_pages(doc_id).pages_of(("Revenues",))
