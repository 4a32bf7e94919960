"""Today's no-model answer path (agent/no_model/extractive.py before issue 10), frozen as the baseline of
bench/answers.py: the best sentences of the retrieved passages, quoted and cited, no table cells.
Only `pick_sentences` and `compose_extractive_answer` are used; kept verbatim otherwise."""
from __future__ import annotations

import math
import re
from typing import Literal

from storage.documents.bm25 import tokenize

MAX_SENTENCES = 4
# The best sentence must score at least this (see pick_sentences) to be quoted. Off-topic questions
# are already caught by the search tool (agent/tuning.py search.weak_dense), so this only drops noise.
MIN_SCORE = 0.25
SEMANTIC_WEIGHT = 0.6
RANK_PENALTY = 0.03  # per retrieval rank: the retriever ranks whole pages, trust its order on near ties
TOP_PASSAGE_MARGIN = 0.1  # the top passage's best sentence leads if within this of the overall best
MAX_SOURCES = 6
MAX_CANDIDATES = 120
MIN_SENTENCE_CHARS = 12
MAX_SENTENCE_CHARS = 600
WRAP_MIN_CHARS = 45  # a line at least this long not ending in punctuation was wrapped by the layout

_SMALL_TALK = re.compile(
    r"^\s*(hi|hello|hey|hallo|good (morning|afternoon|evening)|thanks?( you)?|thank you|ok(ay)?|bye|"
    r"who are you|what can you do|how are you|help)\b[\s!.?]*$",
    re.I,
)
_FIGURE = re.compile(r"\d(?<!\b(?:19|20)\d\d)(?!\d)|\d[.,%]\d|\d%")  # a figure, not just a year like "2023"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9$€£])")

NO_MODEL_CONVERSATION = (
    "No language model is configured, so I answer by quoting the passages of your PDFs that best match "
    "your question, each with a citation to its page. Select a PDF and ask about it."
)
NOT_FOUND_IN_DOCUMENTS = (
    "I could not find a passage in the selected PDFs that answers this. Try other words "
    "(the exact term used in the document), or configure web search."
)


def route_without_model(text: str, selected_doc_ids: list[str], web_available: bool) -> Literal["documents", "web", "conversation"]:
    """Small talk -> conversation; a question with PDFs selected -> documents (which falls back to
    the web when retrieval finds nothing usable); without PDFs -> web if configured."""
    if _SMALL_TALK.match(text) or not tokenize(text):
        return "conversation"
    if selected_doc_ids:
        return "documents"
    return "web" if web_available else "conversation"


def _paragraphs(text: str) -> list[str]:
    """Rejoin lines wrapped by the PDF layout; keep short lines (headings, table rows) on their own."""
    paras, current = [], ""
    for line in text.splitlines():
        line = " ".join(line.split())
        if not line:
            if current:
                paras.append(current)
            current = ""
            continue
        current = f"{current} {line}" if current else line
        if len(line) < WRAP_MIN_CHARS or line[-1] in ".!?:;":
            paras.append(current)
            current = ""
    if current:
        paras.append(current)
    return paras


def split_sentences(text: str) -> list[str]:
    """Sentences of prose and single table rows / headings."""
    out = []
    for para in _paragraphs(text):
        for sent in _SENTENCE_END.split(para):
            sent = sent.strip()
            # headings ("Risks and outlook") say nothing; short rows with figures ("Revenue 412 380") do
            informative = len(sent.split()) >= 4 or bool(_FIGURE.search(sent))
            if MIN_SENTENCE_CHARS <= len(sent) <= MAX_SENTENCE_CHARS and informative:
                out.append(sent)
    return out


def _squash(text: str) -> str:
    return " ".join(text.split()).lower()


def _on_page(sentence: str, page_text: str | None) -> bool:
    return page_text is not None and _squash(sentence) in _squash(page_text)


def pick_sentences(question: str, sources: list[dict], page_text, max_sentences: int = MAX_SENTENCES, embedder=None):
    """The best (score, sentence, source) triples, best first.

    Score = mix of semantic similarity (MiniLM cosine of question and sentence, so "how many
    employees" finds "employed 1,240 people") and idf-weighted coverage of the question's terms
    (so exact figures and names win). `sources` are numbered source dumps in retrieval order;
    `page_text(source) -> str | None` gives the text of the page the source cites: a sentence not
    found on that page is never quoted.
    """
    q_terms = set(tokenize(question))
    candidates = []  # (sentence, matched terms, source, rank)
    used = [s for s in sources if s.get("source_id") and s.get("kind") in ("document", "page")][:MAX_SOURCES]
    for rank, src in enumerate(used):
        for sent in split_sentences(src.get("text") or ""):
            candidates.append((sent, set(tokenize(sent)) & q_terms, src, rank))
    candidates = candidates[:MAX_CANDIDATES]
    if not candidates or not question.strip():
        return []
    n = len(candidates)
    idf = {t: math.log(1 + n / (1 + sum(t in c[1] for c in candidates))) + 0.1 for t in q_terms}
    total = sum(idf.values()) or 1.0
    if embedder is None:
        from storage.documents.embeddings import get_embedder

        embedder = get_embedder()
    vectors = embedder.embed([question, *(c[0] for c in candidates)])
    cosines = vectors[1:] @ vectors[0]
    scored = []
    for (sent, terms, src, rank), cos in zip(candidates, cosines):
        coverage = sum(idf[t] for t in terms) / total
        score = SEMANTIC_WEIGHT * float(cos) + (1 - SEMANTIC_WEIGHT) * coverage
        scored.append((score - RANK_PENALTY * rank, score, sent, src))
    scored.sort(key=lambda x: -x[0])
    # the retriever's top passage is its best guess (it ranks whole pages): its best sentence goes
    # first when it is close to the overall best
    top = [x for x in scored if x[3] is used[0]]
    if top and top[0][1] >= scored[0][1] - TOP_PASSAGE_MARGIN:
        scored.remove(top[0])
        scored.insert(0, top[0])
    picked, seen = [], set()
    for _, score, sent, src in scored:
        key = _squash(sent)
        if key in seen or not _on_page(sent, page_text(src)):
            continue
        seen.add(key)
        picked.append((score, sent, src))
        if len(picked) >= max_sentences:
            break
    return picked


def page_text_lookup():
    """`source -> text of the page it cites`, reading each PDF's pages.json once."""
    from storage.documents.catalog import load_page_texts

    cache: dict[str, list[str] | None] = {}

    def lookup(src: dict) -> str | None:
        doc_id, page = src.get("doc_id"), src.get("page_number")
        if not doc_id or page is None:
            return None
        if doc_id not in cache:
            try:
                cache[doc_id] = load_page_texts(doc_id)
            except (OSError, ValueError):
                cache[doc_id] = None
        pages = cache[doc_id]
        return pages[page] if pages and 0 <= page < len(pages) else None

    return lookup


def compose_extractive_answer(question: str, sources: list[dict], page_text=None, embedder=None) -> tuple[str, bool]:
    """(answer text, usable). Not usable when no sentence scores MIN_SCORE."""
    picked = pick_sentences(question, sources, page_text or page_text_lookup(), embedder=embedder)
    best = max((score for score, _, _ in picked), default=0.0)
    if best < MIN_SCORE:
        return NOT_FOUND_IN_DOCUMENTS, False
    floor = max(MIN_SCORE * 0.8, best * 0.6)
    lines = [f"- “{sent}” {src['source_id']}" for score, sent, src in picked if score >= floor]
    header = "No language model is configured; these are the passages of your PDFs that best match the question, quoted:"
    return header + "\n\n" + "\n".join(lines), True


def compose_web_digest(sources: list[dict]) -> str:
    """The web results listed with their `{^n}` ids (nothing to summarise them with)."""
    lines = []
    for src in sources:
        if src.get("kind") != "web" or not src.get("source_id"):
            continue
        snippet = split_sentences(src.get("text") or "")
        lines.append(f"- **{src.get('title') or src.get('url')}**: {' '.join(snippet[:2])} {src['source_id']}".rstrip())
    header = "No language model is configured; these are the top web results for your question:"
    return header + "\n\n" + "\n".join(lines)


