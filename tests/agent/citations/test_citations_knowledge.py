"""The curated knowledge base: loading, relevance search, prompt block, and citing Q-numbers end to end."""

from __future__ import annotations

import json
import os
import re

import pytest

from agent.citations.answer import build_answer
from agent.knowledge_base import (
    KnowledgeBase,
    KnowledgeBaseError,
    format_for_prompt,
    get_knowledge_base,
)
from storage.settings import DEFAULT_KNOWLEDGE_BASE
from tests.fixtures_citations import renumber_tool_output, tool_output


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load(DEFAULT_KNOWLEDGE_BASE)


def test_shipped_file_is_valid_and_numbered_by_category(kb):
    assert len(kb) >= 8
    assert all(re.fullmatch(r"Q\d{3,4}", i.id) for i in kb.items)
    assert all(i.metadata.get("source") for i in kb.items)
    labels = [i.label for i in kb.items]
    assert len(labels) == len(set(labels))
    fcf = kb.get("Q301")
    assert (fcf.category, fcf.marker) == ("Financial metrics", "[^8.1]")
    assert fcf.label == "8.1"


@pytest.mark.parametrize("query, expected", [
    ("how is free cash flow computed", "Q301"),
    ("quick ratio formula", "Q302"),
    ("what does EBITDA stand for", "Q303"),
    ("can I chat with several PDFs at the same time", "Q102"),
    ("do my chats survive a page reload", "Q103"),
])
def test_search_finds_the_relevant_item(kb, query, expected):
    assert kb.search(query, k=3)[0].id == expected


@pytest.mark.parametrize("query", [
    "What was Boeing's total revenue in 2022?",
    "Who is the CEO of 3M?",
    "What's the weather in Paris today?",
    "hello",
])
def test_irrelevant_questions_get_no_items(kb, query):
    assert kb.search(query, k=3) == []


def test_prompt_block_lists_items_and_asks_for_q_numbers(kb):
    block = format_for_prompt(kb.search("free cash flow and quick ratio", k=2))
    assert "Q301" in block and "Q302" in block and "(Q301)" in block
    assert "cite its Q-number" in block
    assert format_for_prompt([]) == ""


def test_knowledge_tool_output_to_citation_end_to_end(kb):
    items = kb.search("how do I calculate free cash flow", k=2)
    content, result = renumber_tool_output(tool_output("search_knowledge_base", [i.to_source() for i in items]))
    assert [s["source_id"] for s in json.loads(content)["sources"]] == [i.id for i in items]
    answer = build_answer("FCF is operating cash flow minus capex (Q301).", result.registry, knowledge=kb)
    assert answer.message == "FCF is operating cash flow minus capex [^8.1]."
    assert answer.citations[0].documentId == "Q301" and answer.citations[0].kind == "knowledge"


@pytest.mark.parametrize("data, message", [
    ({"items": [{"id": "X1", "question": "q", "answer": "a", "category": "C"}], "categories": [{"no": 1, "name": "C"}]},
     "not 'Q' followed by 3-4 digits"),
    ({"items": [{"id": "Q100", "question": "q", "answer": "a", "category": "C"}] * 2, "categories": [{"no": 1, "name": "C"}]},
     "duplicate id Q100"),
    ({"items": [{"id": "Q100", "question": "q", "answer": "a", "category": "Nope"}], "categories": [{"no": 1, "name": "C"}]},
     "unknown category 'Nope'"),
    ({"items": [], "categories": [{"no": 1, "name": "C"}, {"no": 1, "name": "D"}]}, "must be unique"),
    ([], "expected an object"),
])
def test_invalid_files_fail_with_a_clear_message(tmp_path, data, message):
    path = tmp_path / "kb.json"
    path.write_text(json.dumps(data))
    with pytest.raises(KnowledgeBaseError, match=re.escape(message)) as err:
        KnowledgeBase.load(path)
    assert str(path) in str(err.value)


def test_missing_or_broken_file(tmp_path):
    with pytest.raises(KnowledgeBaseError, match="file not found"):
        get_knowledge_base(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(KnowledgeBaseError, match="not valid JSON"):
        KnowledgeBase.load(bad)


def test_env_override_and_edits_are_picked_up(tmp_path, monkeypatch):
    path = tmp_path / "kb.json"
    base = {"categories": [{"no": 5, "name": "Support"}],
            "items": [{"id": "Q500", "question": "How do I reset my password?", "answer": "Use the link.", "category": "Support"}]}
    path.write_text(json.dumps(base))
    monkeypatch.setenv("PDF_CHAT_KNOWLEDGE_BASE", str(path))
    assert [i.id for i in get_knowledge_base().items] == ["Q500"]
    base["items"].append({"id": "Q501", "question": "Who can see my files?", "answer": "Only you.", "category": "Support"})
    path.write_text(json.dumps(base))
    os.utime(path, (1, 1))  # a different mtime even on coarse file-system clocks
    kb = get_knowledge_base()
    assert kb.get("Q501").marker == "[^5.2]"
    # build_answer's default knowledge base is the configured one.
    assert build_answer("Only you can (Q501).", {}).message == "Only you can [^5.2]."


@pytest.mark.parametrize("content", [None, "{not json", '{"items": 3}'])
def test_broken_default_knowledge_base_does_not_break_answers(tmp_path, monkeypatch, caplog, content):
    path = tmp_path / "kb.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    monkeypatch.setenv("PDF_CHAT_KNOWLEDGE_BASE", str(path))
    answer = build_answer("Text (Q301).", {})
    assert answer.message == "Text." and answer.citations == []
    assert any("knowledge base unavailable" in r.getMessage() for r in caplog.records)
