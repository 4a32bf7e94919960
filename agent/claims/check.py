"""The claim check: every cited sentence of a finished answer against the text of what it cites.

    claims = check_answer(text, {"[^1]": texts, ...})            # pure: marker -> CheckedSource
    claims = check_turn(answer, registry, page_text)              # the graph's `check_claims` node

A sentence (syntok, agent/page_text.py `segment`; a marker written after the full stop belongs to the
sentence before it) that cites sources fails when one of its figures (agent/claims/figures.py), a
quoted span, or the label of a quoted table row is printed in none of them, or when arithmetic
it shows does not hold (agent/claims/arithmetic.py: a computed figure passes only through its
arithmetic, whose inputs are figures like any other). Knowledge items and ambiguous legacy
markers are not checked. The result (`ClaimCheck`, storage/schema.py) is keyed by marker text (the
source id), stored with the answer, and shown by the UI: "not found in [2]" after the sentence and,
in the citation's preview, the source's closest passage (`source_says`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Mapping

from agent.citations.legacy import content_words
from agent.citations.markers import MARKER_RE, Marker, code_spans, iter_markers
from agent.claims.arithmetic import check_arithmetic
from agent.claims.figures import SourceNumbers, figures_in
from agent.claims.text import flatten, is_ocr, prints, source_texts
from agent.page_text import segment
from agent.citations.quotes import ROW_GAP, quotes_by_marker
from storage.schema import AnswerResult, ClaimCheck, ClaimProblem

SAYS_CHARS = 300
_QUOTE = re.compile(r"“([^“”\n]+)”|\"([^\"\n]+)\"")
_PROSE = re.compile(r"[A-Za-z0-9$€£%]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z“\"($])")
_FIGURE = re.compile(r"\d")
_MARKER_GAP = re.compile(r"[ \t]*(?:" + MARKER_RE.pattern + ")")  # a marker with the blanks before it


@dataclass
class CheckedSource:
    """A cited source's texts (its own text first, then its pages'); numbers and normalised text
    are computed once, on first use."""

    texts: list[str]
    ocr: bool = False
    own_text: str = ""  # what `source_says` quotes from (the chunk), the pages when empty

    @cached_property
    def numbers(self) -> SourceNumbers:
        return SourceNumbers("\n".join(self.texts))

    @cached_property
    def flat(self) -> list[str]:
        return [flatten(t) for t in self.texts]

    @cached_property
    def passages(self) -> list[tuple[str, set[str]]]:
        """Its sentences and printed lines (table rows) with their words, for `closest_passage`
        (a plain split: only failed sentences need it, and it must stay cheap)."""
        text = self.own_text or "\n".join(self.texts)
        parts = _SENTENCE_END.split(" ".join(text.split())) + [line for line in text.splitlines() if _FIGURE.search(line)]
        return [(p, content_words(p)) for p in dict.fromkeys(x.strip() for x in parts) if p]

    def prints(self, quote: str) -> bool:
        return any(prints(quote, flat, fuzzy=self.ocr) for flat in self.flat)


@dataclass
class CitedSentence:
    start: int
    end: int
    markers: list[Marker] = field(default_factory=list)
    last_index: int = -1  # ordinal of its last marker among all markers of the answer


def cited_sentences(text: str) -> list[tuple[str, CitedSentence]]:
    """(sentence without markers, where it is and what it cites) for each sentence with a marker."""
    blank = list(text)
    for s, e in code_spans(text):
        blank[s:e] = " " * (e - s)
    flat = "".join(blank)
    units: list[CitedSentence] = []
    pos = 0
    for line in flat.split("\n"):
        line_units: list[CitedSentence] = []
        cursor = 0
        for sent in segment(line) if line.strip() else []:
            at = line.find(sent, cursor)
            if at < 0:
                continue
            line_units.append(CitedSentence(pos + at, pos + at + len(sent)))
            cursor = at + len(sent)
        units.extend(line_units)
        pos += len(line) + 1
    for i, mk in enumerate(iter_markers(text)):
        k = next((j for j, u in enumerate(units) if u.start <= mk.start < u.end), None)
        if k is None:
            continue
        lead = MARKER_RE.sub("", text[units[k].start:mk.start])
        if k > 0 and not _PROSE.search(lead) and _same_line(text, units[k - 1], units[k]):
            k -= 1  # "…$4.1 billion. [^3]": the marker closes the sentence before it
        units[k].markers.append(mk)
        units[k].last_index = i
    out = []
    for u in units:
        words = " ".join(_MARKER_GAP.sub("", text[u.start:u.end]).split())
        if u.markers and _PROSE.search(words):
            out.append((words, u))
    return out


def _same_line(text: str, a: CitedSentence, b: CitedSentence) -> bool:
    return "\n" not in text[a.end:b.start]


def check_sentence(sentence: str, raw: str, sources: list[CheckedSource]) -> list[ClaimProblem]:
    """What `sentence` (markers removed; `raw` with them) states that none of `sources` prints."""
    problems: list[ClaimProblem] = []
    quoted: list[tuple[int, int]] = []
    for m in _QUOTE.finditer(sentence):
        quote = m.group(1) or m.group(2)
        quoted.append(m.span())
        if len(quote.split()) >= 2 and not any(s.prints(quote) for s in sources):
            problems.append(ClaimProblem(kind="quote", text=quote.strip()))
    for cell in (q for qs in quotes_by_marker(raw).values() for q in qs if ROW_GAP in q):
        label = cell.split(ROW_GAP)[0]
        if not any(s.prints(label) for s in sources):
            problems.append(ClaimProblem(kind="quote", text=label))
    held, wrong = check_arithmetic(sentence)
    problems += [ClaimProblem(kind="arithmetic", text=w) for w, _ in wrong]
    results = held + [span for _, span in wrong]  # a result is checked through its arithmetic only
    for fig in figures_in(sentence):
        inside = any(s <= fig.start < e for s, e in quoted) or any(s < fig.end and fig.start < e for s, e in results)
        if not inside and not any(s.numbers.has(fig) for s in sources):
            problems.append(ClaimProblem(kind="figure", text=fig.text))
    return problems


def closest_passage(source: CheckedSource, sentence: str) -> str:
    """The source's sentence or row sharing most words with the claim: what the page says instead."""
    words = content_words(re.sub(r"[\d.,$%()]+", " ", sentence)) or content_words(sentence)
    best = max(source.passages, key=lambda p: len(words & p[1]), default=("", set()))[0]
    flat = " ".join(best.split())
    return flat if len(flat) <= SAYS_CHARS else flat[: SAYS_CHARS - 1].rstrip() + "…"


def check_answer(text: str, sources: Mapping[str, CheckedSource]) -> list[ClaimCheck]:
    """Each sentence of `text` citing at least one of `sources` (marker text -> its texts), checked."""
    claims = []
    for sentence, where in cited_sentences(text):
        ids = list(dict.fromkeys(mk.text for mk in where.markers if mk.text in sources))
        if not ids:
            continue
        problems = check_sentence(sentence, text[where.start:where.end], [sources[i] for i in ids])
        says = {i: closest_passage(sources[i], sentence) for i in ids} if problems else {}
        claims.append(ClaimCheck(sentence=sentence, marker_index=where.last_index, source_ids=ids, problems=problems,
                                 source_says=says))
    return claims


def checked_sources(answer: AnswerResult, registry: Mapping[str, Mapping[str, Any]],
                    page_text: Callable[[dict], str | None] | None = None) -> dict[str, CheckedSource]:
    """marker -> CheckedSource for the answer's document, page and web citations."""
    out = {}
    for c in answer.citations:
        src = registry.get(c.marker)
        if src is None and c.metadata.doc_id and c.metadata.chunk_id is not None:  # a resolved legacy marker
            src = next((s for s in registry.values() if s.get("doc_id") == c.metadata.doc_id
                        and s.get("chunk_id") == c.metadata.chunk_id), None)
        if src is None or c.kind not in ("document", "page", "web"):
            continue
        texts = source_texts(src, page_text)
        if texts:
            out[c.marker] = CheckedSource(texts, ocr=is_ocr(src), own_text=src.get("text") or "")
    return out


def check_turn(answer: AnswerResult, registry: Mapping[str, Mapping[str, Any]],
               page_text: Callable[[dict], str | None] | None = None) -> list[ClaimCheck]:
    """The claim check of a finished answer, given the turn's source registry (page roles bound)."""
    return check_answer(answer.message, checked_sources(answer, registry, page_text))
