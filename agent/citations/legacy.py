"""Resolving legacy `[chunk_id: 44]` markers when chunk 44 exists in several retrieved files.

Each candidate chunk is scored against the sentence the marker ends:
`score = 0.5 * lexical + 0.5 * cosine`, where lexical is the share of the sentence's content words
(numbers included, which are the strongest evidence in financial text) found in the chunk text or
its file name, and cosine is the all-MiniLM-L6-v2 similarity of sentence and chunk. The best
candidate wins only if it leads the runner-up by `TUNING.markers.min_margin` (agent/tuning.py); otherwise the marker is reported as
ambiguous instead of guessing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath
from typing import Sequence

from agent.markers import MARKER_LIKE_RE, MARKER_RE
from agent.tuning import TUNING
from storage.schema import Source
from storage.documents import embeddings


_WORD_RE = re.compile(r"\d+(?:[.,]\d+)*|[a-z][a-z0-9']+", re.I)
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+|\n+")
_STOPWORDS = frozenset(
    """a an and are as at be been by for from has have in is it its of on or that the this to was were
    which with their they than then there these those also into about over under more less per""".split()
)


@dataclass
class Resolution:
    chosen: str | None  # the winning source_id, None when ambiguous
    scores: dict[str, float]  # source_id -> combined score
    sentence: str


def content_words(text: str) -> set[str]:
    words = set()
    for w in _WORD_RE.findall(text.lower()):
        w = w.replace(",", "")
        if w not in _STOPWORDS and (len(w) > 1 or w.isdigit()):
            words.add(w)
    return words


def short_name(source: Source) -> str:
    """How a file is named in an expanded marker: its file name (doc_id when there is none)."""
    return PurePath(source.source_file or "").name or str(source.doc_id or "?")


def citing_sentence(text_before: str) -> str:
    """The sentence a marker ends: the text before it back to the previous sentence boundary."""
    body = MARKER_LIKE_RE.sub(" ", MARKER_RE.sub(" ", text_before)).rstrip()
    body = body.rstrip(".!?;:, \t")
    parts = [p for p in _SENTENCE_END_RE.split(body) if p.strip()]
    if not parts:
        return ""
    sentence = parts[-1]
    if len(content_words(sentence)) < 3 and len(parts) > 1:  # "As shown above." carries little; add context
        sentence = f"{parts[-2]} {sentence}"
    return sentence.strip()


def lexical_score(sentence_words: set[str], source: Source) -> float:
    if not sentence_words:
        return 0.0
    name_words = content_words(re.sub(r"[_\-.]+", " ", short_name(source)))
    chunk_words = content_words(source.text) | name_words | content_words(source.title)
    return len(sentence_words & chunk_words) / len(sentence_words)


def candidate_scores(sentence: str, candidates: Sequence[tuple[str, Source]], embedder=None) -> tuple[list[float], list[float]]:
    """(lexical, cosine) score of each candidate source against sentence."""
    words = content_words(sentence)
    lexical = [lexical_score(words, src) for _, src in candidates]
    if embedder is None:
        embedder = embeddings.get_embedder()
    vectors = embedder.embed([sentence] + [src.text for _, src in candidates])
    return lexical, [float(vectors[0] @ v) for v in vectors[1:]]


def pick(scores: Sequence[float], min_margin: float | None = None) -> int | None:
    """Index of the clear winner, or None when the best does not lead the runner-up by min_margin."""
    ranked = sorted(range(len(scores)), key=lambda i: scores[i], reverse=True)
    if not ranked:
        return None
    margin = TUNING.markers.min_margin if min_margin is None else min_margin
    if len(ranked) > 1 and scores[ranked[0]] - scores[ranked[1]] < margin:
        return None
    return ranked[0]


def resolve(sentence: str, candidates: Sequence[tuple[str, Source]], embedder=None) -> Resolution:
    """Pick the candidate (source_id, source) that best supports sentence, or none if unclear."""
    if not sentence.strip():
        return Resolution(None, {sid: 0.0 for sid, _ in candidates}, sentence)
    lexical, cosine = candidate_scores(sentence, candidates, embedder)
    w = TUNING.markers.lexical_weight
    combined = [w * lex + (1 - w) * cos for lex, cos in zip(lexical, cosine)]
    best = pick(combined)
    scores = {sid: round(score, 4) for (sid, _), score in zip(candidates, combined)}
    return Resolution(None if best is None else candidates[best][0], scores, sentence)


def match_file(name: str, candidates: Sequence[tuple[str, Source]]) -> list[tuple[str, Source]]:
    """Candidates whose file matches a `file:` suffix (exact name, else stem prefix, case-insensitive)."""
    want = name.strip().strip("'\"").lower()
    exact = [c for c in candidates if short_name(c[1]).lower() == want or str(c[1].doc_id).lower() == want]
    if exact:
        return exact
    stem = PurePath(want).stem
    return [c for c in candidates if stem and PurePath(short_name(c[1]).lower()).stem.startswith(stem)]
