"""Curated Q&A items (data/knowledge_base.json) the model can cite by Q-number.

    kb = get_knowledge_base()                 # the shipped file (or $PDF_CHAT_KNOWLEDGE_BASE)
    items = kb.search("how is free cash flow computed", k=3)   # [] when nothing is relevant
    prompt_block = format_for_prompt(items)   # items + "cite them as (Q301)"
    sources = [item.to_source() for item in items]            # kind "knowledge", source_id "Q301"
    kb.get("Q301").marker                     # "[8.1]": category no. + position in the category
    relevant_items(question)                  # the shipped base's items for a question; [] when it is broken

File format: {"categories": [{"no": 8, "name": "Financial metrics"}],
              "items": [{"id": "Q301", "question", "answer", "category", "metadata": {"source"}}]}.
An item's marker is `[<category no>.<n>]`, n = its 1-based position within its category in the file.
Loading validates everything and raises `KnowledgeBaseError` naming the file and the problem.
"""

from __future__ import annotations

import json
import logging
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, Field, ValidationError, field_validator

from agent.markers import is_q_number, rag_id
from storage.finance import line_items
from storage.settings import get_settings
from storage.schema import Source
from agent.tuning import TUNING
from storage.documents import embeddings

log = logging.getLogger("agent.knowledge_base")



class KnowledgeBaseError(ValueError):
    """The knowledge base file is missing or invalid."""


class Category(BaseModel):
    no: int = Field(ge=1)
    name: str = Field(min_length=1)


class KnowledgeItem(BaseModel):
    id: str
    question: str = Field(min_length=1)
    answer: str = Field(min_length=1)
    category: str
    metadata: dict[str, Any] = Field(default_factory=dict)
    # Filled in by the loader:
    category_no: int = 0
    position: int = 0  # 1-based within the category

    @field_validator("id")
    @classmethod
    def _check_id(cls, v: str) -> str:
        if not is_q_number(v):
            raise ValueError(f"id {v!r} is not 'Q' followed by 3-4 digits")
        return v

    @property
    def label(self) -> str:
        return f"{self.category_no}.{self.position}"

    @property
    def marker(self) -> str:
        return rag_id(self.label)

    def to_source(self, score: float | None = None) -> Source:
        """The item as a tool-output source (its Q-number is its id; it is never renumbered)."""
        return Source(
            kind="knowledge",
            source_id=self.id,
            text=f"Q: {self.question}\nA: {self.answer}",
            title=self.question,
            url=self.metadata.get("url"),
            score=score,
            extra={
                "q_id": self.id,
                "category": self.category,
                "category_no": self.category_no,
                "label": self.label,
                "answer": self.answer,
                "source": self.metadata.get("source"),
            },
        )


class KnowledgeBase:
    def __init__(self, items: list[KnowledgeItem], categories: list[Category], path: Path | None = None) -> None:
        self.items = items
        self.categories = categories
        self.path = path
        self._by_id = {i.id: i for i in items}
        self._vectors: np.ndarray | None = None
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.items)

    def get(self, q_id: str) -> KnowledgeItem | None:
        return self._by_id.get(q_id)

    @classmethod
    def from_dict(cls, data: Any, path: Path | None = None) -> "KnowledgeBase":
        where = str(path) if path else "knowledge base"
        if not isinstance(data, dict) or not isinstance(data.get("items"), list):
            raise KnowledgeBaseError(f"{where}: expected an object with an 'items' list")
        try:
            categories = [Category.model_validate(c) for c in data.get("categories", [])]
            items = [KnowledgeItem.model_validate(i) for i in data["items"]]
        except ValidationError as e:
            raise KnowledgeBaseError(f"{where}: {e}") from e
        numbers = {c.name: c.no for c in categories}
        if len(numbers) != len(categories) or len({c.no for c in categories}) != len(categories):
            raise KnowledgeBaseError(f"{where}: category names and numbers must be unique")
        seen: set[str] = set()
        counts: dict[str, int] = {}
        for item in items:
            if item.id in seen:
                raise KnowledgeBaseError(f"{where}: duplicate id {item.id}")
            seen.add(item.id)
            if item.category not in numbers:
                raise KnowledgeBaseError(f"{where}: item {item.id} has unknown category {item.category!r}")
            counts[item.category] = counts.get(item.category, 0) + 1
            item.category_no, item.position = numbers[item.category], counts[item.category]
        return cls(items, categories, path)

    @classmethod
    def load(cls, path: str | Path) -> "KnowledgeBase":
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError as e:
            raise KnowledgeBaseError(f"{path}: file not found") from e
        except ValueError as e:
            raise KnowledgeBaseError(f"{path}: not valid JSON ({e})") from e
        kb = cls.from_dict(data, path)
        log.debug("loaded %d knowledge items from %s", len(kb), path)
        return kb

    def _item_vectors(self, embedder) -> np.ndarray:
        with self._lock:
            if self._vectors is None:
                # Two views per item: the question alone, and question + answer.
                texts = [i.question for i in self.items] + [f"{i.question} {i.answer}" for i in self.items]
                self._vectors = embedder.embed(texts).reshape(2, len(self.items), -1)
            return self._vectors

    def scores(self, query: str, embedder=None) -> np.ndarray:
        """Cosine similarity of query to each item (best of question / question+answer)."""
        if not self.items or not query.strip():
            return np.zeros(len(self.items), dtype=np.float32)
        if embedder is None:
            embedder = embeddings.get_embedder()
        vectors = self._item_vectors(embedder)
        q = embedder.embed([query])[0]
        return (vectors @ q).max(axis=0)

    def search(self, query: str, k: int = 3, threshold: float | None = None, embedder=None) -> list[KnowledgeItem]:
        """Up to k items relevant to query, best first; none when nothing reaches the threshold or
        when the query names a line item no item is about (`about_asked_items`)."""
        scores = self.scores(query, embedder)
        threshold = TUNING.search.knowledge_relevance if threshold is None else threshold
        order = [int(i) for i in np.argsort(-scores)
                 if scores[i] >= threshold and about_asked_items(self.items[int(i)], query)][:k]
        log.debug("knowledge search %r -> %s", query, [(self.items[i].id, round(float(scores[i]), 3)) for i in order])
        return [self.items[i] for i in order]


def about_asked_items(item: KnowledgeItem, query: str) -> bool:
    """An item about a line item (storage/finance/line_items: its question names one) is about what
    the query asks only when the query names that item too, or none at all: a definition of
    *operating* margin says nothing about a gross margin. Other items are judged by similarity."""
    asked = {a.item.concept for a in line_items.asked_items(query)}
    about = {a.item.concept for a in line_items.asked_items(item.question)}
    return not asked or not about or bool(asked & about)


def format_for_prompt(items: list[KnowledgeItem]) -> str:
    """The prompt block for relevant items, with the instruction to cite their Q-numbers."""
    if not items:
        return ""
    lines = [
        "Curated knowledge base items (vetted answers). When you use one, cite its Q-number in "
        "parentheses right after the statement it supports, e.g. (Q301). Cite only Q-numbers listed here.",
    ]
    for item in items:
        source = item.metadata.get("source")
        lines.append(f"- {item.id} [{item.category}] Q: {item.question}\n  A: {item.answer}" + (f"\n  Source: {source}" if source else ""))
    return "\n".join(lines)


def default_path() -> Path:
    return get_settings().knowledge.path.expanduser()


@lru_cache(maxsize=4)
def _cached(path: str, mtime: float) -> KnowledgeBase:
    return KnowledgeBase.load(path)


def get_knowledge_base(path: str | Path | None = None) -> KnowledgeBase:
    """The knowledge base at path (default: `$PDF_CHAT_KNOWLEDGE_BASE` or data/knowledge_base.json).

    Cached per file and modification time, so an edited file is picked up without a restart.
    """
    p = Path(path) if path else default_path()
    try:
        mtime = p.stat().st_mtime
    except FileNotFoundError as e:
        raise KnowledgeBaseError(f"{p}: file not found") from e
    return _cached(str(p), mtime)


def relevant_items(question: str) -> list[KnowledgeItem]:
    """Curated items relevant to the question; none when the knowledge base is missing or broken
    (logged: a turn answers without it)."""
    try:
        return get_knowledge_base().search(question) if question else []
    except KnowledgeBaseError as exc:
        log.warning("knowledge base unavailable: %s", exc)
        return []
