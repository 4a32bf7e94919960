"""The claim check: every sentence of a finished answer against what it cites.

    claims = check_answer(text, {"[^1]": CheckedSource(...), ...})   # pure: marker -> CheckedSource
    claims = check_turn(answer, registry, page_text)                 # the graph's `check_claims` node

A sentence (syntok, agent/page_text.py `segment`; a marker written after the full stop belongs to the
sentence before it) that cites a document or page is checked against the cited pages' table facts
(agent/claims/facts.py; agent/claims/support.py: value at the caption's scale, item, period, direction,
unit and currency agree; changes and ratios recomputed); a source with no table facts (a web page, a
prose page) against its text (figures.SourceNumbers). A quote in any quote marks must be printed; a
quote spliced with "…" part by part, a value part on its label's row; a quoted table cell ("Net sales
(2022): 34,229") as one row's label and value. Arithmetic shown must hold (agent/claims/arithmetic.py).
A sentence that cites nothing but states a figure or a quote is checked against every document, page
and web source the answer cites; one citing a knowledge item (a Q-number) against the item's own text.
The result (`ClaimCheck`, storage/schema.py) is keyed by marker text (the source id), stored with the
answer, and shown by the UI: "not found in [2]" after the sentence and, in the citation's preview, what
the page prints for the claimed item, else the source's closest passage (`source_says`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, Callable, Mapping

from agent.citations.legacy import content_words
from agent.markers import MARKER_RE, Marker, code_spans, iter_markers
from agent.claims.arithmetic import check_arithmetic
from agent.claims.facts import Fact, page_facts
from agent.claims.figures import Figure, SourceNumbers, figures_in
from agent.claims.support import Claim, support
from agent.source_text import flatten, is_ocr, prints, source_texts
from agent.page_text import segment
from agent.citations.quotes import CELL, ELLIPSIS, ROW_GAP, quotes_by_marker
from storage.finance.columns import CHANGE_TITLE, names_change
from storage.schema import AnswerResult, ClaimCheck, ClaimProblem, Source
from storage.finance.scale import PEOPLE_WORDS, SQUARE_FEET_WORDS

SAYS_CHARS = 300
# a quote in any marks: “…”, "…", ‘…’, '…' (an apostrophe is none: "Apple's"), «…», „…“
_QUOTE = re.compile(
    r"“([^“”\n]+)”|\"([^\"\n]+)\""
    # single marks: an apostrophe inside ("company’s", "stockholders’ equity") does not close the quote
    r"|‘((?:[^‘’\n]|’(?=[A-Za-z]|\s[a-z]))+)’(?![A-Za-z])"
    r"|(?:(?<=^)|(?<=[\s(\[]))'((?:[^'\n]|'(?=[A-Za-z]|\s[a-z]))+)'(?=[\s.,;:!?)\]]|$)"
    r"|«\s*([^«»\n]+?)\s*»|„([^„“”\n]+)[“”]")
_VALUE_PART = re.compile(r"[$€£]?\s?\(?-?[$€£]?\d[\d,]*(?:\.\d+)?\)?%?")
_CURRENCY_MARKS = (("$", re.compile(r"\$|\bdollars?\b|\bUSD\b")), ("€", re.compile(r"€|\beuros?\b|\bEUR\b")),
                   ("£", re.compile(r"£|\bpounds? sterling\b|\bGBP\b")), ("¥", re.compile(r"¥|\byen\b|\bJPY\b")))
_PROSE = re.compile(r"[A-Za-z0-9$€£%]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z“\"($])")
_FIGURE = re.compile(r"\d")
_MINUS_VALUE = re.compile(r"(?<=:\s)[-−](?=[$€£]?\s?\d)")
_MARKER_GAP = re.compile(r"[ \t]*(?:" + MARKER_RE.pattern + ")")  # a marker with the blanks before it


@dataclass
class CheckedSource:
    """A cited source's texts (its own text first, then its pages'); numbers and normalised text
    are computed once, on first use."""

    texts: list[str]
    ocr: bool = False
    own_text: str = ""  # what `source_says` quotes from (the chunk), the pages when empty
    # () -> (facts, prose lines) of the cited pages' tables (agent/claims/facts.py); None: text only
    load_facts: Callable[[], tuple[list[Fact], list[str]]] | None = None
    knowledge: bool = False  # a curated knowledge item: its own text, figures as it writes them

    @cached_property
    def page_facts(self) -> tuple[list[Fact], list[str]]:
        return self.load_facts() if self.load_facts is not None else ([], [])

    @cached_property
    def currencies(self) -> set[str]:
        return set().union(*map(_currencies, self.texts)) or {"$"}

    def cell(self, label: str, value: str, period: Claim | None = None) -> bool:
        """A printed row whose label is `label` prints `value` (in a column of the period `period` names, when given)."""
        digits = re.sub(r"[^\d.]", "", value)
        key = flatten(label)
        facts = self.page_facts[0]
        if facts:
            named = [f for f in facts if key and _label_is(key, f.label, f.section)]
            # a row printing exactly the label is the one quoted: "Long-term debt" is not "Long-term debt, current"
            # its remarks and a unit mark left out: "Total operating margin %" is "Total operating margin"
            bare = lambda text: _plain(re.sub(r"\s*\([^()]*\)|\s*%", "", _MARK.sub("", text)))
            exact = [f for f in named if _label_words(bare(flatten(f.label))) == _label_words(bare(key))]
            if not named and _CONTINUED.match(label):
                # a label printed over two lines, quoted as its values' line ("with the Share Exchange and Tax
                # Matters Agreement"): a line going on in lower case, the end of the row's label
                named = [f for f in facts if flatten(f.label).endswith(f" {key}")]
            # a change column's title for the period ("(% change)"): a cell of a change column, no year's amount
            change = period is not None and not period.years and _CHANGE_COLUMN.search(period.sentence)
            return any(re.sub(r"[^\d.]", "", f.printed) == digits and (period is None or period.period_agrees(f))
                       and (not change or f.percent and not f.years or names_change(f.period))
                       for f in exact or named) or bool(key) and any(_in_label(key, digits, f.label) for f in facts)
        return bool(key) and any(key in (flat := flatten(line)) and digits in re.sub(r"[^\d.\s]", "", flat.split(key, 1)[1]).split()
                                 for t in self.texts for line in t.splitlines())

    def supports(self, fig: Figure, claim: Claim) -> tuple[bool, str]:
        """(whether this source supports the figure, what it prints for the claimed item when not)."""
        facts, prose = self.page_facts
        if not facts:
            return self.numbers.has(fig) and (not fig.currency or fig.currency in self.currencies) \
                and fig.unit not in ("people", "sqft", "points") or self._unit_printed(fig), ""
        verdict = support(fig, claim, facts, prose, self.currencies)
        return verdict.ok, verdict.says

    def _unit_printed(self, fig: Figure) -> bool:
        """A count of people or square feet, or percentage points, printed with that unit."""
        if fig.unit not in ("people", "sqft", "points"):
            return False
        rx = {"people": PEOPLE_WORDS, "sqft": SQUARE_FEET_WORDS, "points": re.compile(r"(?i)points?|bps|pp\b")}[fig.unit]
        return any(abs(n.value - fig.value) <= max(n.tolerance, fig.tolerance) + 1e-9 and rx.search(t[n.end:n.end + 30])
                   for t in self.texts for n in figures_in(t))

    @cached_property
    def numbers(self) -> SourceNumbers:
        return SourceNumbers("\n".join(self.texts))

    @cached_property
    def flat(self) -> list[str]:
        return [_flat_text(t) for t in self.texts]

    @cached_property
    def passages(self) -> list[tuple[str, set[str]]]:
        """Its sentences and printed lines (table rows) with their words, for `closest_passage`
        (a plain split: only failed sentences need it, and it must stay cheap)."""
        text = self.own_text or "\n".join(self.texts)
        parts = _SENTENCE_END.split(" ".join(text.split())) + [line for line in text.splitlines() if _FIGURE.search(line)]
        return [(p, content_words(p)) for p in dict.fromkeys(x.strip() for x in parts) if p]

    @cached_property
    def plain(self) -> list[str]:
        return [_plain_text(flat) for flat in self.flat]

    def prints(self, quote: str) -> bool:
        """Printed as quoted, or as a label is quoted: "and" for "&", its remarks left out ("Income from
        operations" for "Income (loss) from operations")."""
        if any(prints(quote, flat, fuzzy=self.ocr) for flat in self.flat):
            return True
        plain = _plain(flatten(quote))
        if plain and any(prints(plain, text, fuzzy=self.ocr) for text in self.plain):
            return True
        # a label retyped without its punctuation: "property plant and equipment", "Per Common Share Diluted"
        key = _label_words(quote)
        return not _DIGIT.search(quote) and len(key.split()) >= 2 and any(f" {key} " in t for t in self.label_words)

    @cached_property
    def label_words(self) -> list[str]:
        """Its texts as `_label_words` reads labels, with and without parenthetical remarks, blank-padded."""
        return [v for t in self.texts for v in _padded_label_words(t)]


# a page's texts recur across the answers of a session: what is read from one is read once
@lru_cache(maxsize=256)
def _currencies(text: str) -> frozenset[str]:
    return frozenset(sym for sym, rx in _CURRENCY_MARKS if rx.search(text))


@lru_cache(maxsize=256)
def _flat_text(text: str) -> str:
    return flatten(text)


@lru_cache(maxsize=256)
def _plain_text(flat: str) -> str:
    return _plain(flat)


@lru_cache(maxsize=256)
def _padded_label_words(text: str) -> tuple[str, ...]:
    return tuple(f" {_label_words(v)} " for v in dict.fromkeys((text, _REMARK.sub(" ", text))))


_FILLER = {"segment", "segments", "the", "of", "and", "in"}
_LABEL_SLASH = re.compile(r"(?<=[A-Za-z])/(?=[A-Za-z])")
_MARK = re.compile(r"\s?\(\d{1,2}\)|\*+")  # a footnote mark after a label: "Margin(2)"
_CHANGE_COLUMN = re.compile(rf"{CHANGE_TITLE.pattern}|[∆Δ]", re.IGNORECASE)
# the second line of a label printed over two lines: it goes on in lower case, three words or more ("with the Share
# Exchange and Tax Matters Agreement"); a label's own first line starts with a capital
_CONTINUED = re.compile(r"^\s*[a-z][\w'’-]*(?:\s+\S+){2,}")


_REMARK = re.compile(r"\s?\((?:[^()\d]{1,30}|\d{1,2}|[a-z])\)")  # "(loss)", "(deficit)", "(1)", "(a)"; never "(1,577)"


_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"[^\W_]+")


@lru_cache(maxsize=16384)
def _label_words(text: str) -> str:
    """A label's words only, lower case, "&" as "and": punctuation, dashes and remarks' brackets dropped
    ("Net Income (Loss) Per Common Share, Diluted" -> "net income loss per common share diluted")."""
    return " ".join(_WORD.findall(unicodedata.normalize("NFKC", text).lower().replace("&", " and ")))


def _plain(flat: str) -> str:
    """A flattened label or text as labels are quoted: "and" for "&", parenthetical remarks and marks left out."""
    return " ".join(_REMARK.sub("", flat.replace(" & ", " and ")).split())


@lru_cache(maxsize=16384)
def _label_is(key: str, fact_label: str, fact_section: str) -> bool:
    """A quoted label (flattened) names the fact's row: its label, or its section's words before it
    ("Greater China: Net sales" for the row "Net sales" under "Greater China"); "and" for "&" and its
    remarks ("(loss)") left out are the same label."""
    label = _plain(_MARK.sub("", flatten(fact_label)))
    key = _plain(_MARK.sub("", key))
    if label.startswith(key) or f"{_label_words(label)} ".startswith(f"{_label_words(key)} "):
        return True
    if not label or label not in key:
        return False
    # the rest of the quote is the row's section, word for word: "Total cloud" is not "Cloud"
    # (a label printed over two lines may be read as its last line under a section of its first: "Net (loss)/earnings
    # attributable to Boeing" / "Shareholders"; the section's remarks are left out as the quote's are)
    return set(re.findall(r"\w+", key.replace(label, " "))) - _FILLER == set(re.findall(r"\w+", _plain(flatten(fact_section)))) - _FILLER


def _in_label(key: str, digits: str, label: str) -> bool:
    """A value printed inside its row's label, after the quoted label ("Estimated EPS ~ $ 1.19 ~", a range's
    low end read into the label)."""
    flat = flatten(label)
    return flat.startswith(key) and digits in re.sub(r"[^\d.\s]", " ", flat[len(key):]).split()


@dataclass
class CitedSentence:
    start: int
    end: int
    markers: list[Marker] = field(default_factory=list)
    last_index: int = -1  # ordinal of its last marker among all markers of the answer


def cited_sentences(text: str) -> list[tuple[str, CitedSentence]]:
    """(sentence without markers, where it is and what it cites) for each sentence with a marker."""
    return [(words, u) for words, u in text_sentences(text) if u.markers]


def text_sentences(text: str) -> list[tuple[str, CitedSentence]]:
    """(sentence without markers, where it is and what it cites) for each sentence of prose, cited or not."""
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
        if _PROSE.search(words):
            out.append((words, u))
    return out


def _same_line(text: str, a: CitedSentence, b: CitedSentence) -> bool:
    return "\n" not in text[a.end:b.start]


def check_sentence(sentence: str, raw: str, sources: list[CheckedSource],
                   says: dict[int, str] | None = None) -> list[ClaimProblem]:
    """What `sentence` (markers removed; `raw` with them) states that none of `sources` prints; `says`
    (source index -> text) receives what a page prints for an item the sentence misstates."""
    problems: list[ClaimProblem] = []
    skipped: list[tuple[int, int]] = []  # quoted spans and a quoted cell's value: checked as quotes

    def fail(kind: str, text: str) -> None:
        problems.append(ClaimProblem(kind=kind, text=text))

    claim = Claim(sentence)
    for m in _QUOTE.finditer(sentence):
        quote = next(g for g in m.groups() if g is not None).strip()
        skipped.append(m.span())
        parts = [p.strip() for p in ELLIPSIS.split(quote) if p.strip()]
        if len(parts) > 1:  # a quote spliced with "…": each part as printed, a value on its label's row
            for k, part in enumerate(parts):
                if k and _VALUE_PART.fullmatch(part):
                    if not any(s.cell(parts[k - 1], part, claim) for s in sources):
                        fail("quote", f"{parts[k - 1]}{ROW_GAP}{part}")
                elif not any(s.prints(part) for s in sources):
                    fail("quote", part)
        elif len(quote.split()) >= 2 and not any(s.prints(quote) for s in sources):
            fail("quote", quote)
    line = re.sub(r"^\s*(?:[-•*]\s+|\d+\.\s+)?(?:\*\*)?", "", sentence.replace("**", ""))
    # "Net sales (2022): 394,328": the label and its value on one row; a minus for its parentheses
    # ("…(2023): -$6,174") read as CELL reads "(6,174)" (the same length: offsets hold)
    if (cell := CELL.match(_MINUS_VALUE.sub("(", line, count=1))) is not None:
        offset = len(sentence) - len(sentence.lstrip("-•* ")) if sentence.lstrip().startswith(("-", "•", "*")) else 0
        label, value = " ".join(cell.group("label").split()), line[cell.start("value"):cell.end("value")].replace(" ", "")
        period = Claim(cell.group("period"))
        skipped.append((offset + cell.start("value"), offset + cell.end("value")))
        skipped.append((sentence.find(cell.group("period")), sentence.find(cell.group("period")) + len(cell.group("period"))))
        skipped.append((offset + cell.start("label"), offset + cell.end("label")))  # checked as printed: "iPhone (1)"
        if not any(s.prints(label) or s.prints(_MARK.sub("", label)) for s in sources):
            fail("quote", label)
        elif not any(s.cell(label, value, period) for s in sources):
            fail("quote", f"{label}{ROW_GAP}{value}")
    else:
        for q in (q for qs in quotes_by_marker(raw).values() for q in qs if ROW_GAP in q):
            label = q.split(ROW_GAP)[0]
            if not any(s.prints(label) for s in sources):
                fail("quote", label)
    held, wrong = check_arithmetic(_LABEL_SLASH.sub(" ", sentence))  # "Earnings/EPS" divides nothing
    problems += [ClaimProblem(kind="arithmetic", text=w) for w, _ in wrong]
    results = held + [span for _, span in wrong]  # a result is checked through its arithmetic only
    for fig in figures_in(sentence):
        if any(s <= fig.start < e for s, e in skipped) or any(s < fig.end and fig.start < e for s, e in results):
            continue
        verdicts = [src.supports(fig, claim) for src in sources]
        if not any(ok for ok, _ in verdicts):
            fail("figure", fig.text)
            if says is not None:
                for k, (_, said) in enumerate(verdicts):
                    if said:
                        says.setdefault(k, said)
    return problems


def closest_passage(source: CheckedSource, sentence: str) -> str:
    """The source's sentence or row sharing most words with the claim: what the page says instead."""
    words = content_words(re.sub(r"[\d.,$%()]+", " ", sentence)) or content_words(sentence)
    best = max(source.passages, key=lambda p: len(words & p[1]), default=("", set()))[0]
    flat = " ".join(best.split())
    return flat if len(flat) <= SAYS_CHARS else flat[: SAYS_CHARS - 1].rstrip() + "…"


def check_answer(text: str, sources: Mapping[str, CheckedSource]) -> list[ClaimCheck]:
    """Each sentence of `text` citing at least one of `sources` (marker text -> its texts), checked; and
    each sentence citing nothing that states a figure or a quote, against every document, page and web
    source the answer cites (a mark then stands after the marker before it)."""
    claims = []
    cited_pages = [i for i, s in sources.items() if not s.knowledge]
    last_marker = -1
    for sentence, where in text_sentences(text):
        if where.markers:
            last_marker = where.last_index
            ids = list(dict.fromkeys(mk.text for mk in where.markers if mk.text in sources))
        elif cited_pages and (figures_in(sentence) or _QUOTE.search(sentence)):
            ids = cited_pages
        else:
            continue
        if not ids:
            continue
        said: dict[int, str] = {}
        problems = check_sentence(sentence, text[where.start:where.end], [sources[i] for i in ids], said)
        says = {i: said.get(k) or closest_passage(sources[i], sentence) for k, i in enumerate(ids)} if problems else {}
        index = where.last_index if where.markers else max(last_marker, 0)
        claims.append(ClaimCheck(sentence=sentence, marker_index=index, source_ids=ids, problems=problems,
                                 source_says=says))
    return claims


def checked_sources(answer: AnswerResult, registry: Mapping[str, Source],
                    page_text: Callable[[Source], str | None] | None = None) -> dict[str, CheckedSource]:
    """marker -> CheckedSource for the answer's document, page and web citations."""
    out = {}
    read: dict[tuple[str, int], tuple[list[Fact], list[str]]] = {}  # (doc, page) -> its facts, once per answer
    for c in answer.citations:
        src = registry.get(c.marker)
        if src is None and c.metadata.doc_id and c.metadata.chunk_id is not None:  # a resolved legacy marker
            src = next((s for s in registry.values() if s.doc_id == c.metadata.doc_id
                        and s.chunk_id == c.metadata.chunk_id), None)
        if c.kind == "knowledge":
            if text := knowledge_text(c, registry):
                out[c.marker] = CheckedSource([text], own_text=text, knowledge=True)
            continue
        if src is None or c.kind not in ("document", "page", "web"):
            continue
        texts = source_texts(src, page_text)
        if texts:
            out[c.marker] = CheckedSource(texts, ocr=is_ocr(src), own_text=src.text or "",
                                          load_facts=_facts_loader(src, page_text, read))
    return out


def knowledge_text(c: Any, registry: Mapping[str, Source]) -> str:
    """A cited knowledge item's own text (its answer): from the turn's registry, else its preview."""
    src = registry.get(c.metadata.q_id or "") or registry.get(c.marker)
    text = (src.extra.get("answer") or src.text) if src is not None else None
    if text:
        return text
    preview = c.preview or ""
    return preview.split("\nA: ", 1)[1].split("\nSource: ", 1)[0] if "\nA: " in preview else preview


def _facts_loader(src: Source, page_text: Callable[[Source], str | None] | None,
                  read: dict[tuple[str, int], tuple[list[Fact], list[str]]]):
    """() -> the facts and prose lines of every page a document or page source is on, or None (web)."""
    doc_id, first = src.doc_id, src.page_number
    if not doc_id or first is None or src.kind == "web":
        return None
    last = max(first, src.extra.get("page_end") or first)

    def load() -> tuple[list[Fact], list[str]]:
        facts: list[Fact] = []
        prose: list[str] = []
        for page in range(first, last + 1):
            if (doc_id, page) not in read:
                text = page_text(src.model_copy(update={"page_number": page})) if page_text is not None else None
                read[doc_id, page] = page_facts(doc_id, page, text)
            f, p = read[doc_id, page]
            facts += f
            prose += p
        return facts, prose

    return load


def check_turn(answer: AnswerResult, registry: Mapping[str, Source | Mapping[str, Any]],
               page_text: Callable[[Source], str | None] | None = None) -> list[ClaimCheck]:
    """The claim check of a finished answer, given the turn's source registry (page roles bound;
    Sources, or their dumps)."""
    sources = {sid: Source.model_validate(s) for sid, s in registry.items()}
    return check_answer(answer.message, checked_sources(answer, sources, page_text))
