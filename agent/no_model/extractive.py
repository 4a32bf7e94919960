"""No-model mode: routing by simple rules and retrieval results, answers quoted from the sources.

Without a language model the agent still answers, honestly labelled (`AnswerResult.mode =
"extractive"`): the sentences of the retrieved passages that best cover the question, quoted
verbatim, each followed by the `[^n]` id the citation node gave its source. A sentence is only
quoted when it is found on the page its source points at, so every citation is exact.

A question naming a line item (storage/finance/line_items: "net sales", "gross margin") gets only
quotes on point: a sentence naming that item (or, for a ratio, its inputs; a table row must *be*
one of them) or stating the asked period in words, at most
MAX_SUPPORTING of them. None is better than filler (a company's defined terms, its state of
incorporation, a row of another item). No answer quotes a bare column header or a section title.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

from agent.citations.furniture import content_text
from agent.no_model import figures, prose_figures
from agent.no_model.cited_rows import read_sources
from agent.no_model.figure_periods import asked_period
from agent.page_text import page_text_lookup, segment, squash
from storage.documents.bm25 import tokenize
from storage.documents.tables import split_row
from storage.finance import line_items
from storage.finance.periods import MONTH_NAMES, YEAR
from agent.tuning import TUNING
from storage.documents import embeddings
from storage.schema import Source

MAX_SENTENCES = 4
MAX_SUPPORTING = 3  # quotes under a figure, or answering a question that names a line item
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
_FIGURE = re.compile(rf"\d(?<!\b{YEAR})(?!\d)|\d[.,%]\d|\d%")  # a figure, not just a year like "2023"

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


def _is_row(line: str) -> bool:
    label, values = split_row(line)
    return bool(label and values)


_YEAR_LIST_END = re.compile(rf"\b{YEAR},$")  # a line ending inside a list of years ("during fiscal years 2022,")
_YEAR_START = re.compile(rf"{YEAR}\b")


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
        # a table row never continues the text before it, but a list of years broken after a comma goes on:
        # "… during fiscal years 2022," / "2021, and 2020, respectively, as treasury shares …"
        row = _is_row(line) and not (_YEAR_LIST_END.search(current) and _YEAR_START.match(line)) \
            and not _YEAR_LIST_END.search(line)
        if current and row:
            paras.append(current)
            current = ""
        current = f"{current} {line}" if current else line
        if len(line) < WRAP_MIN_CHARS or line[-1] in ".!?:;" or row:
            paras.append(current)
            current = ""
    if current:
        paras.append(current)
    return paras


def split_sentences(text: str) -> list[str]:
    """Sentences of prose and single table rows / headings."""
    out = []
    for para in _paragraphs(text):
        for sent in segment(para):
            sent = sent.strip()
            # headings ("Risks and outlook") say nothing; short rows with figures ("Revenue 412 380") do
            informative = len(sent.split()) >= 4 or bool(_FIGURE.search(sent))
            if MIN_SENTENCE_CHARS <= len(sent) <= MAX_SENTENCE_CHARS and informative:
                out.append(sent)
    return out


def is_complete(sentence: str) -> bool:
    """A quote that starts and ends at a boundary: a sentence (capital or figure first, closing
    punctuation last) or a table row (ends with a value cell) — never a piece cut mid-sentence
    or mid-word at a chunk edge."""
    starts = sentence[:1].isupper() or sentence[:1].isdigit() or sentence[:1] in "“\"'($€£"
    if not starts:
        return False
    if sentence[-1] in ".!?”\")":
        return True
    return _is_row(sentence)


def ends_at_boundary(sentence: str, page_text: str | None) -> bool:
    """A quote that starts with a capital and ends where a printed line of the page ends and the
    next line starts a new sentence or row (or the page ends): a full line, not a cut."""
    if not page_text or not (sentence[:1].isupper() or sentence[:1].isdigit()):
        return False
    lines = [" ".join(line.split()) for line in page_text.splitlines()]
    lines = [line for line in lines if line]
    flat, ends = "", {}
    for i, line in enumerate(lines):
        flat = f"{flat} {line}" if flat else line
        ends[len(flat)] = i
    target = squash(sentence)
    pos = flat.lower().find(target)
    while pos >= 0:
        i = ends.get(pos + len(target))
        if i is not None and (i + 1 == len(lines) or lines[i + 1][:1].isupper() or lines[i + 1][:1].isdigit()):
            return True
        pos = flat.lower().find(target, pos + 1)
    return False


# Words of a column header or unit caption ("In Millions, Except Per Share Data", "Fiscal Year Ended
# May 31"): a line made only of these and figures says nothing about anything.
_HEADER_WORDS = frozenset(
    "in millions thousands billions of dollars usd except per share data amounts and the fiscal year years "
    "ended ending months weeks quarter quarters three six nine twelve fifty two three 52 53 as at for total "
    f"{MONTH_NAMES} restated "
    "unaudited audited percent change".split())
_YEAR = re.compile(rf"(?<![\d,.])({YEAR})(?![\d,])")


def is_header(sentence: str) -> bool:
    """A column header or caption: years, units, period words and figures only ("In Millions 2019
    2018", "Fiscal Year 2020 2019 2018")."""
    words = re.findall(r"[A-Za-z]+", sentence)
    return all(w.lower() in _HEADER_WORDS for w in words)


def is_title(sentence: str) -> bool:
    """A heading ("Note 5 - Acquisitions and Divestitures", "Amcor plc and Subsidiaries"): no closing
    punctuation, no value cells, every word of four letters or more capitalised."""
    if sentence[-1:] in ".!?:;”\")" or _is_row(sentence):
        return False
    long_words = [w for w in re.findall(r"[A-Za-z][A-Za-z'’-]*", sentence) if len(w) >= 4]
    return bool(long_words) and all(w[0].isupper() for w in long_words)


@dataclass(frozen=True)
class Focus:
    """What a question asks about, for judging quotes: the line items it names (with a ratio's
    inputs and a total's components) and the years of its period."""

    concepts: frozenset[str] = frozenset()
    years: tuple[int, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.concepts)


def question_focus(question: str) -> Focus:
    concepts: set[str] = set()
    for asked in line_items.asked_items(question):
        item = asked.item
        concepts |= {item.concept, *item.components, *line_items.ALSO_ANSWERS.get(item.concept, ())}
        concepts |= {c for c in re.findall(r"[A-Za-z]+", item.formula) if c in line_items.BY_CONCEPT}
    return Focus(frozenset(concepts), asked_period(question).years)


def on_point(sentence: str, focus: Focus) -> bool:
    """The quote says something about the asked item or its period: a table row that is the item
    (by its label), a sentence naming it, or a sentence (not a header) stating an asked year."""
    if is_header(sentence):
        return False
    label, values = split_row(sentence)
    if label and values:
        row = line_items.row_item(label) or line_items.row_item(label, percent=True)
        named = {row.concept} if row else {a.item.concept for a in line_items.asked_items(label)}
        return bool(named & focus.concepts)
    if {a.item.concept for a in line_items.asked_items(sentence)} & focus.concepts:
        return True
    return any(int(y) in focus.years for y in _YEAR.findall(sentence))


def _on_page(sentence: str, page_text: str | None) -> bool:
    return page_text is not None and squash(sentence) in squash(page_text)


def pick_sentences(question: str, sources: list[Source], page_text, max_sentences: int = MAX_SENTENCES, embedder=None):
    """The best (score, sentence, source) triples, best first.

    Score = mix of semantic similarity (MiniLM cosine of question and sentence, so "how many
    employees" finds "employed 1,240 people") and idf-weighted coverage of the question's terms
    (so exact figures and names win). `sources` are numbered source dumps in retrieval order;
    `page_text(source) -> str | None` gives the text of the page the source cites: a sentence not
    found on that page is never quoted.
    """
    q_terms = set(tokenize(question))
    candidates = []  # (sentence, matched terms, source, rank)
    used = read_sources(sources, MAX_SOURCES)
    for rank, src in enumerate(used):
        for sent in split_sentences(content_text(src.doc_id, src.text or "")):  # no running header
            candidates.append((sent, set(tokenize(sent)) & q_terms, src, rank))
    candidates = candidates[:MAX_CANDIDATES]
    if not candidates or not question.strip():
        return []
    n = len(candidates)
    idf = {t: math.log(1 + n / (1 + sum(t in c[1] for c in candidates))) + 0.1 for t in q_terms}
    total = sum(idf.values()) or 1.0
    vectors = _embedder(embedder).embed([question, *(c[0] for c in candidates)])
    cosines = vectors[1:] @ vectors[0]
    scored = []
    for (sent, terms, src, rank), cos in zip(candidates, cosines):
        coverage = sum(idf[t] for t in terms) / total
        w = TUNING.sentences.semantic_weight
        score = w * float(cos) + (1 - w) * coverage
        scored.append((score - TUNING.sentences.rank_penalty * rank, score, sent, src))
    scored.sort(key=lambda x: -x[0])
    # the retriever's top passage is its best guess (it ranks whole pages): its best sentence goes
    # first when it is close to the overall best
    top = [x for x in scored if x[3] is used[0]]
    if top and top[0][1] >= scored[0][1] - TUNING.sentences.top_passage_margin:
        scored.remove(top[0])
        scored.insert(0, top[0])
    picked, seen = [], set()
    for _, score, sent, src in scored:
        key = squash(sent)
        text = page_text(src)
        if key in seen or not _on_page(sent, text) or not (is_complete(sent) or ends_at_boundary(sent, text)):
            continue  # never a sentence the page does not print, nor one cut at a chunk edge
        seen.add(key)
        picked.append((score, sent, src))
        if len(picked) >= max_sentences:
            break
    return picked


def _embedder(embedder):
    if embedder is None:
        embedder = embeddings.get_embedder()
    return embedder


def compose_extractive_answer(question: str, sources: list[Source], page_text=None, embedder=None,
                              searched_for: str | None = None, scope_note: str | None = None) -> tuple[str, bool]:
    """(answer text, usable). Not usable when no table row matches and no sentence scores TUNING.sentences.min_score.

    A figure question is answered first by the matching table row's cell, stated with its period
    ("Purchases of property, plant and equipment (Years ended December 31, 2018): (1,577) [^3]"),
    then by the best sentences. `searched_for`: the query actually searched when it differs from
    the question (a resolved follow-up), said at the top. `scope_note` (agent/scope.py: the asked
    period, issuer or form is not in the selection) comes first, and then no figure is stated: any
    figure there is would be another period's or company's."""
    page_text = page_text or page_text_lookup()
    embedder = _embedder(embedder)
    block = None if scope_note else figures.figure_block(question, sources, page_text, embedder)
    picked = pick_sentences(question, sources, page_text, embedder=embedder,
                            max_sentences=MAX_SENTENCES * 3)  # room for the filters below
    pool = [p for p in picked if not is_header(p[1]) and not is_title(p[1])]  # sentences a figure may be stated in
    # no row answers, or a computation lacks an input, and a sentence states the figure ("Free cash flow of $1.2
    # billion"): the figure line leads, the sentence first among the quotes, whatever the sentences' scores
    stated = None if scope_note or (block is not None and block[0] != figures.INTRO_NOT_COMPUTED) else \
        prose_figures.stated_line(question, _stated_candidates(pool, sources, page_text), sources)
    best = max((score for score, _, _ in picked), default=0.0)
    if best < TUNING.sentences.min_score and block is None and stated is None:
        return (f"{scope_note}\n\n{NOT_FOUND_IN_DOCUMENTS}", True) if scope_note else (NOT_FOUND_IN_DOCUMENTS, False)
    tune = TUNING.sentences
    floor = max(tune.min_score * tune.floor_of_min_score, best * tune.floor_of_best)
    picked = [p for p in pool if p[0] >= floor]
    focus = question_focus(question)
    if focus:
        picked = [p for p in picked if on_point(p[1], focus)][:MAX_SUPPORTING]
    else:
        picked = picked[: MAX_SUPPORTING if block is not None else MAX_SENTENCES]
    if not picked and block is None and stated is None and not scope_note \
            and figures.no_row_line(question, unnamed=False) is None:
        return NOT_FOUND_IN_DOCUMENTS, False  # the question's item is named in no passage found
    lines = [f"- “{sent}” {src.source_id}" for score, sent, src in picked]
    parts = [scope_note] if scope_note else []
    if searched_for:
        parts.append(f"Searched for: “{searched_for}”")
    if block is not None and stated is None:
        parts.append(block[0])  # the block's own intro ("the table row ... that matches", "computed from ...")
        parts.append("\n".join(block[1:]))
        if lines:
            parts.append("Supporting passages, quoted:\n\n" + "\n".join(lines))
    elif stated is not None:
        line, sentence, src = stated
        parts.append(prose_figures.INTRO_STATED)
        parts.append(line)
        quotes = [f"- “{sentence}” {src.source_id}", *(q for q, (_, sent, _) in zip(lines, picked) if sent != sentence)]
        parts.append("Supporting passages, quoted:\n\n" + "\n".join(quotes))
    else:
        # a figure question no row answers: said first, so no quoted number reads as the figure asked
        quoted = [sent for _, sent, _ in picked]
        no_row = None if scope_note else figures.no_row_line(question, quoted, sources)
        if not lines:  # nothing on point to quote
            parts.append(no_row.split("; passages that mention it")[0] + "." if no_row else NOT_FOUND_IN_DOCUMENTS)
        else:
            parts.append(no_row or "No language model is configured; these are the passages of your PDFs that best "
                                   "match the question, quoted:")
            parts.append("\n".join(lines))
    return "\n\n".join(parts), True


def _stated_candidates(pool, sources: list[Source], page_text) -> list[tuple[str, Source]]:
    """The sentences a figure may be stated in: the scored ones, then every other sentence of the pages the
    first sources cite (a sentence stating the figure in other words than the question's may score low). A table
    row the layout reader gave no header stays one: leaving rows out lowered the check half (see BENCHMARKS)."""
    out = [(sent, src) for _, sent, src in pool]
    seen = {sent for sent, _ in out}
    for src in read_sources(sources, MAX_SOURCES):
        for sent in split_sentences(content_text(src.doc_id, page_text(src) or "")):
            if sent not in seen and not is_header(sent) and not is_title(sent):
                seen.add(sent)
                out.append((sent, src))
    return out


def compose_web_digest(sources: list[Source]) -> str:
    """The web results listed with their `{^n}` ids (nothing to summarise them with)."""
    lines = []
    for src in sources:
        if src.kind != "web" or not src.source_id:
            continue
        snippet = split_sentences(src.text or "")
        lines.append(f"- **{src.title or src.url}**: {' '.join(snippet[:2])} {src.source_id}".rstrip())
    header = "No language model is configured; these are the top web results for your question:"
    return header + "\n\n" + "\n".join(lines)
