"""No-model figure answers: the printed cell that answers "what was <line item> in <period>", a
figure computed from printed rows, or nothing.

`figure_block(question, sources, page_text, embedder)` gives the lines agent/no_model/extractive.py puts
first in a no-model answer:

- the row that is the asked line item, in the asked section and column (agent/no_model/figure_rows.py,
  with the US-GAAP line items of storage/finance/line_items.py and the column spans of
  agent/no_model/figure_periods.py), each cell said as people say it (agent/no_model/figure_words.py):
  `Net sales (Years ended December 31, 2022): 394,328 — $394,328 million in fiscal 2022 [^1]`;
- a figure the question asks to compute (a margin, a ratio, growth, an average, a formula the
  question defines) with its arithmetic and every input row cited (agent/no_model/derived_figures.py);
- a total that no row prints ("total debt"): said so, with its printed components;
- None when no row passes: a missing figure is better than a wrong one.

Only rows printed on the cited pages are used (those of the cited passage first), so every figure
line is as verifiable as a quoted sentence. The line form `<row label> (<column period>): <value>`
is what agent/citations/quotes.py reads back to highlight the label and the value on the page.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from storage.documents import catalog
from storage.finance import debt, line_items
from storage.finance.arithmetic import FALL_WORDS, RISE_WORDS
from storage.finance.periods import YEAR_RE, YEAR_WORD
from agent.no_model.derived_figures import (DERIVED_ASK, asks_beyond_items, defines_formula, derived_block,
                                           printed_change)
from agent.no_model.figure_periods import AskedPeriod, asked_period
from agent.no_model import reconciling_rows
from agent.no_model.cited_rows import collect_rows, read_sources
from agent.no_model.due_years import asked_due, due_year_lines
from agent.no_model.release_columns import split_columns
from agent.no_model.row_scorer import scored_row
from agent.no_model.figure_rows import (ADJUSTED, BOTH_PARTS, RANGE_END_WORDS, FigureMatch, at_home, basis_asked,
                                        basis_said, best_row, components_printed, entity_adds, figure_part, make_ask,
                                        reconciled_per_share, says_asked_words, tokenize)
from agent.no_model.figure_words import decimals, said_period, scale_word
from storage.documents.tables import Cell
from storage.finance.numbers import RANGE, parse_number, split_scale
from storage.finance.scale import POINTS_SAID
from storage.schema import Source

_FIGURE_ASK = re.compile(
    r"\b(?:how much|how many|what (?:is|was|were|are|'s)|amount|total|number of|ratio|margin|rate|"
    r"balance|value|figure|spen[dt]|cost|revenues?|sales|income|earnings|expenses?|cash|debt|assets|"
    r"liabilities|equity|capex|capital expenditures?|inventor(?:y|ies)|eps|per share|dividends?|compute|calculate|"
    r"costs|charges?|proceeds|gains?|losses|by what)\b",
    re.IGNORECASE,
)
# "What <item> did <company> receive / record / assume", "What did <company> report for <item>": a figure
# asked by the verb that books it, whatever the item is called (not "What risks did … report")
_FIGURE_VERB_ASK = re.compile(
    r"^\s*what\b(?!\s+(?:factors|reasons|risks?|drivers|events|actions|steps|initiatives|strategies|products|"
    r"services|changes|trends|types|kinds|segments|businesses|markets|companies|accounting)\b)[^?]*?\b"
    r"(?:did|does|do|will|would)\b[^?]*\b(?:report(?:ed)?\s+for|record|earn|receive|pay|raise|assume|carry|book|post|"
    r"recogni[sz]e|incur|generate|spend|declare)\b",
    re.IGNORECASE,
)
_NOT_FIGURE = re.compile(r"^\s*(?:why|explain|describe|summari[sz]e|who|where|list|what (?:drove|caused|are the (?:main|key|major))|"
                         r"what (?:industry|business|risks?)|is\b|are\b|does\b|do\b|did\b|has\b|have\b|was there)", re.IGNORECASE)
INTRO = "No language model is configured; the table row of your PDFs that matches the question:"
INTRO_COMPUTED = "No language model is configured; computed from the table rows of your PDFs:"
NO_FIGURE = "no figure is stated"  # the words saying an answer states no figure (bench/figures_gold.py reads them)
INTRO_NOT_COMPUTED = (f"No language model is configured; the figure asked is computed from table rows, and one is missing, "
                      f"so {NO_FIGURE}:")

def is_figure_question(question: str) -> bool:
    """The question asks for an amount, ratio or count (not a why / yes-no / description)."""
    # "What adjusted EBIT did <company> report": a line item named asks its figure whatever the verb
    # "What lease payments are due in 2025?": the amounts of a maturity schedule asked by their due year
    due = bool(re.match(r"(?i)\s*what\b", question)) and asked_due(question) is not None
    return bool(_FIGURE_ASK.search(question) or _FIGURE_VERB_ASK.search(question) or line_items.asked_items(question)
                or due) and not _NOT_FIGURE.search(question)


def figure_block(question: str, sources: list[Source], page_text, embedder, max_sources: int = 6,
                 learned: bool = True) -> list[str] | None:
    """The lines that lead a no-model answer to a figure question (intro line first), or None.
    `learned`: where the rules answer nothing, the learned row scorer's clear winner may lead
    (agent/no_model/row_scorer.py); never in place of an answer of the rules.

    The pages read are the first `max_sources` sources'. When they answer nothing, the pages of a second reading are
    read (`read_sources(second_reading=True)`): the statements tool's pages and the search's first `max_sources`
    other pages. The tool's pages are asked for when the search's pages print no row, yet the row may be on the
    search's next page, which they pushed out of the first reading; and a page's second passage reads no new row.
    Only as a second reading: more pages read at once print more rows of one label (another entity's, another
    table's), and a question the first pages answer would be refused as ambiguous. The rules only: the learned row
    scorer had the first reading's rows, and over more pages its winner is more often another item's row."""
    if not is_figure_question(question):
        return None
    block = _figure_block(question, sources, page_text, embedder, max_sources, learned)
    if block is None and _pages(read_sources(sources, max_sources, second_reading=True)) \
            - _pages(read_sources(sources, max_sources)):
        block = _figure_block(question, sources, page_text, embedder, max_sources, False, second_reading=True)
    return block


def _pages(sources: list[Source]) -> set[tuple]:
    return {(s.doc_id, s.page_number) for s in sources}


def _figure_block(question: str, sources: list[Source], page_text, embedder, max_sources: int, learned: bool,
                  second_reading: bool = False) -> list[str] | None:
    question = figure_part(question)  # "… and why?": the figure part here, the why is the quotes' part
    # (the rate line reads the first reading's sources: a second reading would scan them again for nothing)
    rate = None if second_reading or not debt.asks_rate(question) else \
        _note_rate_line(question, sources, page_text, max_sources)
    if rate:
        return [INTRO, rate]
    # column groups -> one row per part/measure
    rows = split_columns(collect_rows(sources, page_text, max_sources, second_reading))
    if not rows:
        return None
    if due := due_year_lines(question, rows, page_text):  # a due year asked is a schedule's row, not a column's period
        return [INTRO, *due]
    period = asked_period(question)
    ask = make_ask(question, period, sources)
    match = best_row(ask, rows, embedder)
    if match is None and (printed_range := _range_line(question, period, sources, rows, embedder)):
        return [INTRO, printed_range]
    computation = asks_beyond_items(DERIVED_ASK, question)
    # "points did X add to adjusted EBIT growth": the growth names the total a reconciling line moves
    # (ask.text is the question without it), never a growth of that total to compute
    total_says_it = computation and ask.reconciled is not None and not asks_beyond_items(DERIVED_ASK, _POINTS.sub(" ", ask.text))
    computation = computation and not total_says_it
    # a printed row that says the computation asked ("Increase in deferred revenues", "Return on
    # invested capital") is the answer; otherwise the computation, when the question asks one
    if match is not None and not defines_formula(question) and (not computation or _states_computation(question, match)):
        if BOTH_PARTS.search(question) and len(parts := _current_and_noncurrent(match, rows, period)) == 2:
            return _sum_block(f"{match.row.label}, current and non-current", parts)
        per_share = reconciling_rows.per_share_block(match.row, reconciled_per_share(ask))
        lines = [f"- {match.row.line(_range_end(question, c), per_share)}" for c in match.cells]
        if len(lines) == 1 and (precise := _precise_ratio(question, match, rows, sources, period, embedder)):
            lines[0] += f" ({precise})"
        return [INTRO, *lines]
    # the % change the row prints answers before any computing (printed_change: only where a growth is asked, in
    # the words DERIVED_ASK reads or others: "how fast did sales grow")
    if not defines_formula(question) and (change := printed_change(question, rows, sources, period, embedder)):
        return [INTRO, change]
    derived = None if total_says_it else derived_block(question, rows, sources, period, embedder)
    if derived:
        computed = any("(computed)" in line for line in derived)
        return [INTRO_COMPUTED if computed else INTRO_NOT_COMPUTED, *derived]
    if computation:
        return None  # a computation that could not be read: a printed row is not its answer
    total = next((i for i in ask.items[:1] if i.components), None)
    block = _components_block(total, ask, rows) if total else None
    if block is None and learned and not defines_formula(question) and not BOTH_PARTS.search(question) \
            and (scored := scored_row(ask, rows, embedder)) is not None:
        return [INTRO, *(f"- {scored.row.line(c)}" for c in scored.cells)]
    return block


# "how many percentage points did X add": the unit of a reconciling line's effect on a rate, no computation
_POINTS = re.compile(r"(?i)\bpercentage\s+points?\b")


def _note_rate_line(question: str, sources, page_text, max_sources: int) -> str | None:
    """The coupon of the notes a question names by their due year ("the Senior Notes due 2026"), as the cited pages
    print it in the notes' name ("3.625% Guaranteed Senior Notes due 2026", a debt table's row label): one rate
    for the notes of that year whose name words the question says; None when none or several rates are printed."""
    year = debt.NOTES_DUE.search(question).group("year")
    said = set(tokenize(question))
    found: dict[str, tuple[str, str]] = {}
    for src in read_sources(sources, max_sources):
        for m in debt.NOTE_RATE.finditer(" ".join((page_text(src) or "").split())):
            if m.group("year") == year and set(tokenize(m.group("name"))) <= said:
                found.setdefault(m.group("rate"), (f"{' '.join(m.group('name').split())} due {year}", src.source_id))
    if len({float(rate) for rate in found}) != 1:
        return None
    rate, (name, marker) = next(iter(found.items()))
    return f"- {name} (interest rate, as printed): {rate}% {marker}"


_RANGE_END = re.compile(rf"(?i)\b(?:{'|'.join(RANGE_END_WORDS)}|midpoint|mid-point)\b")
# (an end named: "top end", never the "top line" a question may say of revenue)
_LOW_END = re.compile(r"(?i)\b(?:low|lower|minimum|bottom(?=\s+end))\b")
_HIGH_END = re.compile(r"(?i)\b(?:high|upper|maximum|top(?=\s+end))\b")


def _range_end(question: str, cell: Cell) -> Cell:
    """The end of a range printed in one cell ("$0.59 - $0.64") that the question names ("the high end of the Q3 EPS
    guidance"): a cell of that end, with the currency and scale word the range prints once ("$10.5-11.5 billion":
    "$11.5 billion"); the cell itself
    when it is no range or the question names no one end."""
    figure, word = split_scale(cell.value)
    ends = RANGE.match(figure)
    low, high = bool(_LOW_END.search(question)), bool(_HIGH_END.search(question))
    if ends is None or low == high:
        return cell
    end = ends.group("low" if low else "high")
    if "$" in ends.group("low") and "$" not in end:
        end = f"${end}" if not end.startswith("(") else f"(${end[1:]}"
    return replace(cell, value=f"{end} {word}".strip())  # "$11.5 billion"


def _range_line(question: str, period: AskedPeriod, sources, rows, embedder) -> str | None:
    """A figure of a range table (guidance printed in "Low" and "High" columns) asked with neither end named
    ("What is the 2023 EPS guidance?", "… guidance range"): the printed range, low to high, of the one row the
    question read with "low" and with "high" both find ("EPS (2023 Low to 2023 High): $1.04 to $1.13 per share");
    None otherwise (an end named is the column picking's)."""
    if _RANGE_END.search(question):
        return None
    asked = re.sub(r"(?i)\s*\brange\b", "", question)  # "the guidance range": the asking, no row's word
    ends = [best_row(make_ask(f"{asked} ({end})", period, sources), rows, embedder) for end in ("low", "high")]
    if any(m is None or len(m.cells) != 1 for m in ends) or ends[0].row is not ends[1].row:
        return None
    (low,), (high,) = ends[0].cells, ends[1].cells
    if low is high or not re.search(r"(?i)\blow\b", low.period) or not re.search(r"(?i)\bhigh\b", high.period):
        return None
    row = ends[0].row
    values = [row.value(c) for c in (low, high)]
    units = [v.split(" ", 1)[1] if " " in v else "" for v in values]
    said = f"{values[0].split(' ', 1)[0]} to {values[1]}" if units[0] == units[1] else " to ".join(values)
    return f"- {row.label} ({low.period} to {high.period}): {said} {row.source.source_id}"


def wants_statements(question: str, sources: list[Source], page_text, embedder, max_sources: int = 6) -> bool:
    """A figure question that the primary statement pages should answer: no row of the searched pages
    answers it, or the row found for a company-level line item (no segment or sub-item named) is
    printed outside the primary statements (a business or segment table whose caption was not read),
    or a computation over line items of which no statement page is among the searched ones."""
    if not is_figure_question(question):
        return False
    question = figure_part(question)
    block = figure_block(question, sources, page_text, embedder, max_sources, learned=False)  # the rules' want
    if block is None or block[0] == INTRO_NOT_COMPUTED:
        return True  # no row, or a computation with an input no searched page prints
    rows = split_columns(collect_rows(sources, page_text, max_sources))  # column groups -> one row per part/measure
    asked = line_items.asked_items(question)
    if block[0] == INTRO and asked and asked[0].item.formula:
        return False  # the ratio printed as a row ("Adjusted EBITDA"): that row answers
    if asks_beyond_items(DERIVED_ASK, question) or defines_formula(question) or any(a.item.formula for a in asked):
        # a computation over line items reads them on the statements of record when none is cited
        return bool(asked) and not any(r.primary for r in rows)
    ask = make_ask(question, asked_period(question), sources)
    if not ask.items or ask.residue:
        return False
    match = best_row(ask, rows, embedder)
    if match is None and ask.items[0].components:  # a total not printed: its parts on one statement
        parts = components_printed(ask.items[0], ask, rows)
        return len(parts) < 2 or not all(r.primary for r, _ in parts)
    # a company-level row outside the statements, or one printed off its item's own statement
    # (D&A under an income statement expense, not the cash flow statement's)
    # or one of a registrant the question does not name in full (the filing's other registrant may be asked)
    return match is not None and match.row is not None and (not match.row.primary or not at_home(match.row)
                                                            or bool(entity_adds(match.row, ask)))


def no_row_line(question: str, quoted: list[str] = (), sources: list[Source] = (), unnamed: bool = True) -> str | None:
    """For a figure question naming a line item (or a computation) that no row of the searched pages
    answers: the line saying so, which leads the answer instead of a quoted passage holding some other
    number ("No table row of the pages searched prints Total debt for 2015, so no figure is stated").
    A question naming no line item of the vocabulary ("the movement in working capital") gets the line
    too, unless a `quoted` sentence says all its item words with a figure (`_unnamed_no_row`; `sources`
    name the company, whose name is no item word; `unnamed` False: None for it). A question that qualifies the item beyond what its
    concept's rows print ("net debt", where rows print debt) is named in its own words, and when a
    `quoted` sentence states it so with a figure ("Net debt fell to 62.5 million euros") that passage
    answers it as before: no table row was ever going to."""
    if not is_figure_question(question):
        return None
    asked = line_items.asked_items(question)
    if not asked and not DERIVED_ASK.search(question):
        return _unnamed_no_row(question, quoted, sources) if unnamed else None
    what = asked[0].item.label if asked else "the inputs of the figure asked"
    period = asked_period(question)
    if asked:
        said = _said_item(question, asked[0])
        qualified = said != " ".join(question[asked[0].start : asked[0].end].lower().split())
        ask = make_ask(question, period, list(sources))
        if (qualified or asked[0].item.concept in _PROSE_MEASURES) and any(
                _states(sentence, said) and _of_asked_period(sentence, period, sources) and of_asked_measure(sentence, ask, question)
                for sentence in quoted):
            return None
        if ask.reconciled is not None:
            what = "the figure asked"  # a line of the total's reconciliation, not the total the question names
        elif qualified:
            what = f"“{said}”"
    when = _said_asked(period)
    return (f"No language model is configured. No table row of the pages searched prints {what}{when}, so {NO_FIGURE}; "
            "passages that mention it, quoted as context:")


# words that ask for a count or an amount, not which one ("the number of employees")
ASKING_WORDS = frozenset(tokenize("number count size"))


def _unnamed_no_row(question: str, quoted: list[str], sources: list[Source]) -> str | None:
    """The no-row line for a figure question that names no line item of the vocabulary ("How much did
    price/mix add …", "the movement in working capital"): a quoted passage's first figure would
    otherwise read as the answer. None when a quoted sentence says every item word of the question
    with a figure that is not a year (a figure stated in prose: "declared a quarterly cash dividend of
    12.25 cents per share"), or when the question has no item words at all and a figure is quoted on the basis
    it asks (`of_asked_measure`)."""
    period = asked_period(question)
    ask = make_ask(question, period, list(sources))
    own = ask.own - ASKING_WORDS
    # every word a name's ("earnings" of an "…_EARNINGS.pdf"): a figure stated of another measure still is not it
    if not own:
        stated = [sentence for sentence in quoted if _has_figure(sentence, question)]
        if not stated or any(of_asked_measure(sentence, ask, question) for sentence in stated):
            return None
    elif any(says_all(own, sentence) and _has_figure(sentence, question) and _of_asked_period(sentence, period, sources)
             and of_asked_measure(sentence, ask, question) for sentence in quoted):
        return None
    return (f"No language model is configured. No table row of the pages searched prints the figure asked"
            f"{_said_asked(asked_period(question))}, so {NO_FIGURE}; passages that mention it, quoted as context:")


MIN_STEM = 5


def says_all(words: set[str], sentence: str) -> bool:
    """The sentence says every word, a verb's other form counting ("disposing" asked, "disposal" said:
    the same first MIN_STEM letters)."""
    said = set(tokenize(sentence))
    stems = {t[:MIN_STEM] for t in said if len(t) >= MIN_STEM}
    return all(w in said or len(w) >= MIN_STEM and w[:MIN_STEM] in stems for w in words)


_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?(?!\d)")
# "decreased by $44 million, or 27%, and $46 million": the figures after it are changes, not the item's
# amount, except one the change ends at ("rose by $2 million to $120 million")
_CHANGE_BY = re.compile(rf"(?i)\b(?:{RISE_WORDS}|{FALL_WORDS})\s+by\b")
_CHANGE_TO = re.compile(r"(?i)\bto\s+(?:approximately\s+|about\s+)?[$€£]?\s?\d")


def _has_figure(sentence: str, question: str = "") -> bool:
    """A figure other than a year: "3,500 employees", not "in 2023"; nor a number the question itself
    says ("SB 901 recovery bonds", "notes due 2026": a name, not an amount); nor a change after
    "decreased by" (the item's change, not the item)."""
    text = YEAR_WORD.sub("", sentence)
    if (change := _CHANGE_BY.search(text)) is not None:
        text = text[:change.start()] + " ".join(m.group(0) for m in _CHANGE_TO.finditer(text, change.end()))
    said = set(_NUMBER.findall(question))
    return any(m.group(0) not in said for m in _NUMBER.finditer(text))


# the company's own measures that filings often state in a sentence rather than a table row
_PROSE_MEASURES = frozenset({"NetDebt"})
# words before a line item's name that make it another measure than its concept's rows print
# ("net debt" is debt less cash; "adjusted EBITDA", "non-GAAP EPS" are the company's own measures)
_QUALIFIERS = frozenset("net adjusted non-gaap core organic underlying comparable pro-forma".split())


def _said_item(question: str, asked: line_items.AskedItem) -> str:
    """The item as the question names it, with a qualifier said right before it ("net debt" where the
    item matched is "debt"): a prose sentence must say all of it."""
    before = re.search(r"([A-Za-z][\w-]*)\s+$", question[: asked.start])
    start = before.start(1) if before and before.group(1).lower() in _QUALIFIERS else asked.start
    return " ".join(question[start : asked.end].lower().split())


def _of_asked_period(sentence: str, period: AskedPeriod, sources) -> bool:
    """A sentence may state the figure of the asked years: one naming years names one of them; one naming none
    ("Adjusted EBIT margin of 12.8% …") speaks of its filing's own period, so it stands for the asked one only
    when the cited filings cover the asked years (their fiscal year for a fiscal year asked, else the calendar
    year their period ends in). True when no year is asked or the filings' periods are unknown."""
    if not period.years:
        return True
    if said := {int(y) for y in YEAR_RE.findall(sentence)}:
        return bool(said & set(period.years))
    covered = {year for s in sources if s.doc_id for year in covered_years(s.doc_id, period.fiscal)}
    return not covered or bool(covered & set(period.years))


@lru_cache(maxsize=256)
def covered_years(doc_id: str, fiscal: bool) -> frozenset[int]:
    """The year a processed filing covers: its fiscal year (`fiscal`), else the calendar year its period ends in
    (then its fiscal year when no end date is printed); empty when unknown."""
    try:
        info = catalog.document_info(catalog.load_manifest(doc_id))
    except (OSError, ValueError):
        return frozenset()
    end = int(info.period_end[:4]) if info.period_end and not fiscal else None
    year = end or info.fiscal_year
    return frozenset({year} if year else ())


# words saying the unit a reconciling line is asked in ("how many percentage points"), not the line's name
_UNIT_ASKED = frozenset(tokenize("percentage percent points point basis"))


def of_asked_measure(sentence: str, ask, question: str) -> bool:
    """A sentence stating a figure stands for the one asked only when it is of the asked measure, as a table row
    must be (figure_rows.row_fits): on the basis asked (a GAAP figure asked, "before non-core items" included, is not
    the "non-GAAP core earnings" a sentence states, nor the reverse), non-GAAP / adjusted exactly when the question
    asks so, of the part the question names by its proper name ("Adjusted EBIT margin of 7.5%" is the company's, not
    Rigid Packaging's), and, for a line asked by the total it moves ("points of currency impact in adjusted EBIT
    growth"), saying that line's words, not only the total's. Points asked are stated in points saying the question's
    own words (a margin's "100 basis points" of another impact does not answer it)."""
    asked, said = basis_asked(question), basis_said(sentence)
    if asked and said and asked != said:
        return False
    if POINTS_SAID.search(question) and not (POINTS_SAID.search(sentence) and says_all(ask.own - ASKING_WORDS, sentence)):
        return False
    if ask.reconciled is not None:  # (the sentence may name the adjusted total the line moves)
        return says_all(set(ask.residue) - _UNIT_ASKED, sentence)
    if _adjusted(sentence) != _adjusted(ask.text):  # ask.text: "before non-core items" (the GAAP figure) taken out
        return False
    return says_all(ask.residue & _proper_words(ask.text), sentence)


# a company's "core" measure is its non-GAAP one; "non-core items" are the adjustments ("Non-core items … totaled $88
# million" states no GAAP earnings)
_CORE = re.compile(r"(?i)\bnon-?core\b|\bcore\s+(?:earnings|eps|net\s+income|operating\s+(?:income|earnings|profit))\b")


def _adjusted(text: str) -> bool:
    return bool(ADJUSTED.search(text) or _CORE.search(text))


def _proper_words(text: str) -> set[str]:
    """The words of capitalised names after a question's first word ("Rigid Packaging's"), acronyms aside
    ("EBIT", "GAAP": a measure's name, which its own test reads)."""
    names = re.findall(r"(?<=\s)[A-Z][a-z][\w&'’-]*", text)
    return set(tokenize(" ".join(names)))


def _states(sentence: str, said: str) -> bool:
    """The sentence says the item in those words and prints a figure that is not a year."""
    text = " ".join(sentence.lower().split())
    return bool(said) and said in text and _has_figure(text)


def _said_asked(period: AskedPeriod) -> str:
    """" for Q2 FY2024", " for fiscal 2022", " for 2021 and 2022", "" when no period is named."""
    if not period.years:
        return f" for Q{period.quarter}" if period.quarter else ""
    fy = "FY" if period.fiscal else ""
    if period.quarter:
        return f" for Q{period.quarter} {fy}{period.years[0]}"
    years = " and ".join(str(y) for y in period.years)
    return f" for {'fiscal ' if period.fiscal else ''}{years}"


_COMPUTED = re.compile(r"= (-?[\d,]*\.\d+)% \(computed\)")


def _precise_ratio(question: str, match: FigureMatch, rows, sources, period, embedder) -> str | None:
    """For a ratio printed in whole percent ("Total Operating Margin % 26%"): the same ratio computed
    from the rows it is printed with, when that agrees with the printed one ("operating income
    12,604 / total revenues 37,047 = 34.0% (computed)"); None otherwise."""
    item, printed = match.row.item, parse_number(match.cells[0].value)
    if item is None or not item.percent or not item.formula or printed is None or decimals(match.cells[0].value):
        return None
    derived = derived_block(question, rows, sources, period, embedder, printed_too=True) or []
    m = _COMPUTED.search(derived[0]) if derived else None
    if m is None or abs(float(m.group(1).replace(",", "")) - printed) >= 0.5:
        return None
    return derived[0].lstrip("- ").split(" = ", 1)[1]


def _states_computation(question: str, match: FigureMatch) -> bool:
    """The row's label itself says the computed measure asked ("Return on invested capital",
    "Weighted average shares outstanding"): the printed row answers it."""
    label = match.row.label.lower()
    return all(m.group(0).lower() in label for m in DERIVED_ASK.finditer(question))


_NONCURRENT = re.compile(r"\bnon-?current\b|\blong-term\b", re.I)


def _current_and_noncurrent(match: FigureMatch, rows, period) -> list:
    """The matched row's label printed under a current and under a non-current section of its page
    ("Marketable securities" under current and under non-current assets), each with its cell."""
    label = line_items.normalize_label(match.row.label)
    found = {}
    for r in rows:
        section = r.cells[0].section
        if line_items.normalize_label(r.label) != label or r.source is not match.row.source or not section:
            continue
        side = "non-current" if _NONCURRENT.search(section) else "current" if re.search(r"(?i)\bcurrent\b", section) else ""
        if side and side not in found and (cells := r.cells_for(period)):
            found[side] = (r, cells[0])
    return [found[k] for k in ("current", "non-current") if k in found]


def _components_block(total, ask, rows) -> list[str] | None:
    """"Total debt is not printed as one row; its printed components:" each with its value and
    citation, and their sum labelled as computed (never one component as the answer)."""
    parts = components_printed(total, ask, rows)
    # "total term debt": components of total debt ("Commercial paper") that do not say "term" are not its parts,
    # and their sum is another total than the one asked
    if ask.residue and not all(says_asked_words(row, ask) for row, _ in parts):
        return None
    return _sum_block(total.label, parts) if parts else None


def _sum_block(label: str, parts) -> list[str]:
    """A total no row prints: said so, its sum first (computed, every part cited), then each part."""
    lines = [f"No language model is configured. {label} is not printed as one row on the cited pages; "
             "the sum of the components printed there, then each component:"]
    values = [parse_number(cell.value) for _, cell in parts]
    if len(parts) >= 2 and all(v is not None for v in values) and len({c.period for _, c in parts}) == 1:
        places = max(decimals(c.value) for _, c in parts)
        fmt = lambda v: f"{v:,.{places}f}"  # noqa: E731
        markers = "".join(dict.fromkeys(row.source.source_id for row, _ in parts))
        # the sum first: a reader takes the first figure as the answer, and one component is not it
        row, cell = parts[0]
        when = said_period(cell.period, row.instant)  # the period, so the sum stands for one
        scales = {scale_word(r.unit_caption) for r, _ in parts}
        scale = f" {scales.pop()}" if len(scales) == 1 and "" not in scales else ""  # the parts' caption: "million"
        lines.append(f"- {label}, {when} = {' + '.join(fmt(abs(v)) for v in values)} = {fmt(sum(abs(v) for v in values))}{scale} "
                     f"(computed, the sum of the printed components) {markers}")
    else:  # one component, or parts of other periods: no figure is the total, none leads as one
        lines[0] = lines[0].replace("the sum of the components printed there, then each component:",
                                    f"its components printed there are not of one period, so {NO_FIGURE}:"
                                    if len(parts) >= 2 else f"only one of its components is printed there, so {NO_FIGURE}:")
    lines += [f"- {row.line(cell)}" for row, cell in parts]
    return lines
