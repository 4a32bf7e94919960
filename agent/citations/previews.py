"""What a citation shows of the source it opens: its title, a snippet (the passage best matching the
sentence that cites it) and a preview, as a `Citation` (storage/schema.py).

    source_citation(marker, number, source, citing_sentence)   # a document, page or web source
    knowledge_citation(marker, q_id, item)                     # a curated knowledge item
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from agent.citations.furniture import content_text
from agent.citations.legacy import content_words
from storage.schema import Citation, CitationMetadata, Source, display_page

SNIPPET_CHARS = 240
PREVIEW_CHARS = 1200


def clip(text: str, limit: int) -> str:
    """`text` on one line, cut at a word to `limit` characters (with "…")."""
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def best_snippet(text: str, sentence: str) -> str:
    """The part of a source that best matches the citing sentence (first sentences if none)."""
    flat = " ".join((text or "").split())
    words = content_words(sentence)
    if not words or len(flat) <= SNIPPET_CHARS:
        return clip(flat, SNIPPET_CHARS)
    parts = re.split(r"(?<=[.!?])\s+", flat)
    best = max(range(len(parts)), key=lambda i: (len(words & content_words(parts[i])), -i))
    if not words & content_words(parts[best]):
        return clip(flat, SNIPPET_CHARS)
    snippet = parts[best]
    j = best + 1
    while j < len(parts) and len(snippet) + len(parts[j]) < SNIPPET_CHARS:
        snippet += " " + parts[j]
        j += 1
    return clip(("… " if best else "") + snippet, SNIPPET_CHARS)


def source_citation(marker: str, number: str, src: Source, sentence: str, **meta: Any) -> Citation:
    kind = src.kind
    page = display_page(src.page_number)
    file = src.source_file
    if kind == "web":
        document_id, title = src.url or "", src.title or src.url or "Web page"
    else:
        document_id = src.doc_id or file or ""
        title = src.title or file or document_id
        if kind == "page" and page is not None:
            title = f"{file or title} — page {page}"
    return Citation(
        number=number,
        marker=marker,
        kind=kind,
        documentId=document_id,
        documentTitle=title,
        snippet=best_snippet(content_text(src.doc_id, src.text) if kind != "web" else src.text, sentence),
        preview=clip(src.text, PREVIEW_CHARS),
        metadata=CitationMetadata(
            file=file, page=page, chunk_id=src.chunk_id, url=src.url, doc_id=src.doc_id, **meta
        ),
    )


def knowledge_citation(marker: str, q_id: str, item: Mapping[str, Any]) -> Citation:
    return Citation(
        number=item["label"],
        marker=marker,
        kind="knowledge",
        documentId=q_id,
        documentTitle=item["title"],
        snippet=clip(item["answer"], SNIPPET_CHARS),
        preview=clip(f"Q: {item['title']}\nA: {item['answer']}" + (f"\nSource: {item['source']}" if item.get("source") else ""), PREVIEW_CHARS),
        metadata=CitationMetadata(q_id=q_id, category=item.get("category"), url=item.get("url")),
    )
