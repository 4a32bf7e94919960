"""No-model figure answers: the table cell that answers "what was <line item> in <period>".

The cited pages are parsed with storage/tables.py (rows with their period headers; rows printed
on one text line too). A row is matched to the question by its label (idf-free term overlap with
the question and with the filing vocabulary of storage/query_expansion.py, the table's caption
for a segment the label does not name, plus MiniLM similarity), and the column by the
period the question names (its years, quarter, "six months"), or, when it names none, the most
recent period. Only rows printed on the cited page are used (those of the cited passage first),
so the figure line is as verifiable as a quoted sentence.

The figure line is written `<row label> (<column period>): <value> [^n]`; agent/quotes.py reads
that form back to highlight the row label and the value on the page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from storage.bm25_index import tokenize
from storage.question_scope import question_scope, without_periods
from storage.page_tables import table_units
from storage.tables import Cell, Unit, is_period_line, row_cells, split_row

MIN_ROW_SCORE = 0.5  # below this no row leads the answer (the sentences alone answer)
SEMANTIC_WEIGHT = 0.5
RANK_PENALTY = 0.02  # per retrieval rank of the source the row comes from
MAX_FIGURES = 3  # cells stated (one per period the question names)
CAPTION_WEIGHT = 0.5  # a question word said by the table's caption, not the row label, counts this much
MAX_CAPTION_WORDS = 8
SPAN_PENALTY = 0.15  # a quarter's column for a full-year question (or the reverse)
OUTSIDE_PASSAGE_RANKS = 2  # a row of the cited page outside the passage counts as two ranks lower

_FIGURE_ASK = re.compile(
    r"\b(?:how much|how many|what (?:is|was|were|are|'s)|amount|total|number of|ratio|margin|rate|"
    r"balance|value|figure|spen[dt]|cost|revenues?|sales|income|earnings|expenses?|cash|debt|assets|"
    r"liabilities|equity|capex|capital expenditures?|inventor(?:y|ies)|eps)\b",
    re.IGNORECASE,
)
_NOT_FIGURE = re.compile(r"^\s*(?:why|explain|describe|summari[sz]e|who|where|list|what (?:drove|caused|are the (?:main|key|major))|"
                         r"what (?:industry|business|risks?)|is\b|are\b|does\b|do\b|did\b|has\b|have\b|was there)", re.IGNORECASE)
_MONTHS = re.compile(r"\b(three|six|nine|twelve) months\b|\b(first half|half[- ]year)\b", re.IGNORECASE)
_MONTH_WORDS = {"three": 3, "six": 6, "nine": 9, "twelve": 12}
# words that name a period, not a line item (left out of row matching)
_PERIOD_WORDS = set(tokenize(
    "fy fiscal year years quarter quarterly annual month months end ended ending period q1 q2 q3 q4 first second third "
    "fourth half three six nine twelve as of at close total amount value figure usd dollars millions billions report "
    "reported company"
))


@dataclass(frozen=True)
class AskedPeriod:
    years: tuple[int, ...] = ()  # in the order the question names them
    quarter: int | None = None
    months: int | None = None  # 3 for a quarter, 6 for a half year ...

    def __bool__(self) -> bool:
        return bool(self.years or self.quarter or self.months)


def asked_period(question: str) -> AskedPeriod:
    """The period(s) a question names: "FY2018", "fiscal 2018", "in 2021", "Q2 of FY2024", "FY23",
    "FY2015 - FY2017" (storage/question_scope.py, the parser the selection prior uses too)."""
    periods = question_scope(question).periods
    years = [y for y, _ in periods if y is not None]
    quarter = next((q for _, q in periods if q), None)
    months = None
    if m := _MONTHS.search(question):
        months = _MONTH_WORDS.get((m.group(1) or "").lower(), 6)
    elif quarter:
        months = 3
    return AskedPeriod(tuple(dict.fromkeys(years)), quarter, months)


def is_figure_question(question: str) -> bool:
    """The question asks for an amount, ratio or count (not a why / yes-no / description)."""
    return bool(_FIGURE_ASK.search(question)) and not _NOT_FIGURE.search(question)


def _column_years(period: str) -> list[int]:
    return [int(y) for y in re.findall(r"(?<!\d)((?:19|20)\d\d)(?!\d)", period)]


def _column_months(period: str) -> int | None:
    m = re.search(r"(?i)\b(three|six|nine|twelve)\s+months\b|\bquarter\b", period)
    if not m:
        return None
    return _MONTH_WORDS.get((m.group(1) or "").lower(), 3)


def span_mismatch(cell: Cell, asked: AskedPeriod) -> int:
    """1 when the column's span ("Three Months Ended") is not the one asked (a full year unless the
    question names a quarter or a number of months), else 0."""
    months = _column_months(cell.period)
    if asked.months:
        return 0 if months == asked.months else 1
    return 0 if months in (None, 12) else 1


def pick_cells(cells: list[Cell], asked: AskedPeriod) -> list[Cell]:
    """The row's cells for the asked period(s); without one, the most recent period's cell.

    A quarter or "six months" in the question prefers the columns that say so; a question that
    names no such span prefers full-year (or unlabelled) columns over "Three Months" ones."""
    def span_fit(cell: Cell) -> int:
        return span_mismatch(cell, asked)

    if asked.years:
        out = []
        for year in asked.years[:MAX_FIGURES]:
            matching = [c for c in cells if year in _column_years(c.period)]
            if matching:
                out.append(min(matching, key=lambda c: (span_fit(c), c.column)))
        return out
    dated = [c for c in cells if _column_years(c.period)]
    if not dated:
        return []
    latest = max(max(_column_years(c.period)) for c in dated)
    return [min((c for c in dated if latest in _column_years(c.period)), key=lambda c: (span_fit(c), c.column))]


def _squash(text: str) -> str:
    return " ".join(text.split()).lower()


@dataclass
class FigureMatch:
    score: float
    cells: list[Cell]
    source: dict


def _line_item_terms(question: str, sources: list[dict]) -> tuple[set[str], set[str]]:
    """(the question's own line-item terms, filing words for them from the glossary).

    Answer-format instructions ("Answer in USD millions", "based on the balance sheet") and the
    company's name (the sources' issuer or file names) are not part of the line item."""
    try:
        from storage.query_expansion import expand_query, strip_instructions

        question = strip_instructions(question)
        glossary_words = expand_query(question).expansion
    except Exception:  # noqa: BLE001 - the glossary only helps; the question's words still match
        glossary_words = ""
    # the issuer and the file name, not the title: a generic PDF's title can hold line items
    names = " ".join(f"{(s.get('extra') or {}).get('issuer') or ''} {s.get('source_file') or ''}" for s in sources).lower()
    name_terms = set(tokenize(names))
    own = {t for t in tokenize(question) if t not in _PERIOD_WORDS and not t.isdigit()
           and t not in name_terms and not (len(t) > 3 and t in names)}
    return own, set(tokenize(glossary_words)) - own


def match_figures(question: str, sources: list[dict], page_text, embedder, max_sources: int = 6) -> FigureMatch | None:
    """The best table row for a figure question among the cited passages, with the cell(s) of the
    asked period; None when the question asks for no figure or no row matches well enough."""
    if not is_figure_question(question):
        return None
    asked = asked_period(question)
    own, glossary = _line_item_terms(question, sources)
    if not own:
        return None
    candidates: list[tuple[list[Cell], dict, int, set[str]]] = []
    seen: set[tuple] = set()
    used = [s for s in sources if s.get("source_id") and s.get("kind") in ("document", "page")][:max_sources]
    for rank, src in enumerate(used):
        text = page_text(src)
        if not text:
            continue
        passage = _squash(src.get("text") or "")
        units = table_units(src.get("doc_id"), src.get("page_number"), text)
        captions = table_captions(units)
        for unit in units:
            cells = row_cells(unit)
            if not cells:
                continue
            picked = pick_cells(cells, asked)
            key = (src.get("doc_id"), src.get("page_number"), unit.text)
            if picked and key not in seen:
                seen.add(key)
                # a row of the cited page outside the cited passage is still verifiable on the page
                # (the preview highlights it there), but the passage's own rows come first
                outside = _squash(unit.text) not in passage
                caption = set(tokenize(captions.get(id(unit.header), ""))) - _PERIOD_WORDS
                candidates.append((picked, src, rank + OUTSIDE_PASSAGE_RANKS * outside, caption))
    if not candidates:
        return None
    labels = [c[0][0].label for c in candidates]
    vectors = embedder.embed([without_periods(question), *labels])  # similarity is about the line item
    cosines = vectors[1:] @ vectors[0]
    best: FigureMatch | None = None
    for (cells, src, rank, caption), label, cos in zip(candidates, labels, cosines):
        terms = set(tokenize(label)) - _PERIOD_WORDS
        if not terms:
            continue
        hit = terms & own
        # the question's words that only the table's caption says ("Domestic" of "Domestic Segment
        # Performance Summary" for its "Revenue" row) count half
        in_caption = (own & caption) - hit
        # how much of the label the question (or its filing vocabulary) says, and how much of
        # the question's line item the label covers
        label_cover = (len(hit) + 0.7 * len(terms & glossary)) / len(terms)
        # the glossary stands for the question's words that triggered it ("capital expenditure" ->
        # "purchases of property, plant and equipment")
        question_cover = max((len(hit) + CAPTION_WEIGHT * len(in_caption)) / len(own),
                             0.8 * len(terms & glossary) / len(glossary) if glossary else 0.0)
        lexical = 0.5 * min(label_cover, 1.0) + 0.5 * question_cover
        score = SEMANTIC_WEIGHT * float(cos) + (1 - SEMANTIC_WEIGHT) * lexical - RANK_PENALTY * rank
        score -= SPAN_PENALTY * max(span_mismatch(c, asked) for c in cells)
        if best is None or score > best.score:
            best = FigureMatch(score, cells, src)
    return best if best is not None and best.score >= MIN_ROW_SCORE else None


def table_captions(units: list[Unit]) -> dict[int, str]:
    """id(table header) -> the words that title its table: a caption printed left of the header's
    periods ("Domestic Segment Performance Summary 2018 2017"), else the short line just above the
    header ("International Segment", not a sentence)."""
    captions: dict[int, str] = {}
    above = ""
    for unit in units:
        if unit.is_header and unit.header is not None:
            label = split_row(unit.text)[0]
            own = label if re.search(r"[A-Za-z]{3}", label) and not is_period_line(label) else ""
            if own or id(unit.header) not in captions:
                captions[id(unit.header)] = own or captions.get(id(unit.header)) or above
        elif not unit.is_table_row:
            words = len(unit.text.split())
            above = unit.text if 0 < words <= MAX_CAPTION_WORDS and unit.text[-1:] not in ".;:" else ""
    return captions


def figure_line(cell: Cell, source_id: str) -> str:
    """`Purchases of property, plant and equipment (Years ended December 31, 2018): (1,577) [^3]`"""
    return f"{cell.label} ({cell.period}): {cell.value} {source_id}"
