"""A figure the cited pages state only in a sentence, when no table row answers the question (or a computation
lacks an input):

    How much did Northwind pay in dividends in 2019?
    - Dividends (2019): $4.6 billion [^1]
      from "During 2021 we paid no dividends, compared with $1.2 billion and $4.6 billion in 2020 and 2019."

`stated_line(question, sentences, sources)` gives that line from (sentence, source) pairs, or None. A figure
answers only when its own clause names the asked item (its line item in any of its names, most of a long
question's item words), on the basis asked (agent/no_model/figures.py `of_asked_measure`) and of no part the
question does not name; when it is the item's own figure (the first after its name, its list, a variant in
brackets, a comparison); of the asked unit (percent, per share, money; after tax only when asked; a share "of
our total revenues" only when a share is asked); and bound to the asked period (storage/finance/stated_figures.py;
a figure of no year stands for its filing's own period). Several values left, or none: None, since a missing
figure is better than a wrong one.
"""

from __future__ import annotations

import re
from functools import lru_cache

from storage.finance import line_items
from storage.finance.periods import QUARTERLY, YEAR
from storage.finance.scale import POINTS_SAID, SCALE_WORD
from storage.finance.stated_figures import Stated, stated_figures
from agent.no_model.figure_periods import asked_period
from agent.no_model.figure_rows import SEGMENT_SAID, figure_part, make_ask, tokenize
from agent.tuning import TUNING
from agent.no_model import figures
from agent.no_model.figures import ASKING_WORDS, is_figure_question, of_asked_measure, says_all
from storage.documents import catalog
from storage.schema import DocumentInfo, Source

INTRO_STATED = "No language model is configured; no table row answers, and this sentence of your PDFs states the figure:"
_COUNT_ASKED = re.compile(r"(?i)\bhow\s+many\b(?!\s+(?:dollars|percentage|basis|cents)\b)")
_PERCENT_ASKED = re.compile(r"(?i)\b(?:rate|margin|percent(?:age)?|ratio|yield)\b|%")
_PER_SHARE_ASKED = re.compile(r"(?i)\bper\s+(?:\w+\s+)?share\b|\beps\b|\bdividends?\s+per\b")
_SHARE_ASKED = re.compile(r"(?i)\b(?:percent(?:age)?|share|proportion|portion|%)\s+of\b")
_AFTER_TAX_ASKED = re.compile(r"(?i)\bafter[-\s]tax\b|\bnet\s+of\s+(?:income\s+)?tax")


def stated_line(question: str, sentences: list[tuple[str, Source]],
                sources: list[Source]) -> tuple[str, str, Source] | None:
    """(figure line, the sentence stating it, its source) for a figure question no row answers, or None."""
    if not is_figure_question(question):
        return None
    question = figure_part(question)
    period = asked_period(question)
    if len(period.years) > 1 or (period.months or 12) not in (3, 12) or POINTS_SAID.search(question) \
            or (period.months == 3 and not period.years):
        return None  # one year's or one quarter's figure; half years, year to date and points are the tables' to answer
    ask = make_ask(question, period, list(sources))
    words = ask.own - ASKING_WORDS - ask.names - _ASKING_VERBS
    if not words:
        return None
    if _COUNT_ASKED.search(question):
        return None  # "how many employees": a count, which a sentence's money or percent figure is not
    unit = _unit_asked(question, ask)
    after_tax = bool(_AFTER_TAX_ASKED.search(question))
    quarterly = bool(QUARTERLY.search(question))  # "the quarterly dividend declared with its fiscal 2023 results"
    share_asked = bool(_SHARE_ASKED.search(question))  # "what percentage of revenue": a share of another amount
    found: dict[float, tuple[Stated, str, Source]] = {}
    for sentence, src in sentences:
        if not (_says_item(sentence, ask, words) and of_asked_measure(sentence, ask, question)) \
                or _of_another_part(sentence, ask, question):
            continue
        figs = stated_figures(sentence)
        for fig in figs:
            if fig.change or fig.alternative or fig.earlier or fig.approximate or fig.net_of_tax != after_tax \
                    or fig.kind not in unit or fig.share_of != share_asked:
                continue
            if not _of_asked_period(fig, period, src, quarterly) or not _names_figure(sentence, fig, ask, words) \
                    or not _first_after_item(sentence, fig, figs, ask):
                continue
            found.setdefault(_signed(fig), (fig, sentence, src))
    if len(found) != 1:
        return None
    fig, sentence, src = next(iter(found.values()))
    said = _item_said(sentence, ask) or _words_before(sentence, fig, words) or _words_after(sentence, fig, words) \
        or "Figure stated"
    # "Q4 2023", "fiscal 2022"; a quarter's figure of no year: its filing's period ("Q4 FY2023"); a year's, that year
    year = fig.year
    if year is None and period.years and period.months != 3 and not quarterly:
        year = period.years[0]
    if year is not None:
        when = f"{f'Q{period.quarter} ' if period.quarter else ''}{'fiscal ' * period.fiscal}{year}"
    else:
        info = _document(src.doc_id)  # "Q2 FY2023, ended 2022-12-31": the quarter with its calendar date
        when = ", ended ".join(dict.fromkeys(x for x in (info.period_label, info.period_end) if x)) \
            or (src.extra or {}).get("period") or "the filing's period"
    return f"- {said[:1].upper()}{said[1:]} ({when}): {fig.text} {src.source_id}", sentence, src


# "$273 million ($209 million, net of tax) of business optimization costs", "$67 million for the purchase of our
# shares": the item named right after its figure (a bracket closing after a variant: "… or $0.81 per share) of …")
_ITEM_AFTER = re.compile(r"\)?\s*(?:\([^()]*\)\s*)?(?:of|for|in|to)\s+(?:[\w'’-]+\s+){0,3}")
# where a clause of a sentence stating several figures ends: "…, and also includes business realignment costs of …"
# (not ", compared with $1.3 billion in 2020": a comparison is of the same item)
_CLAUSE_BREAK = re.compile(r";|,\s+(?:and|while|but|whereas)\b(?!\s*[$€£\d(])", re.I)
# the rest of a list the figure opens ("$143 million, $8 million, and $67 million for the purchase of …")
_LIST_REST = re.compile(rf"(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+)[$€£]?\(?\d[\d,.]*\)?(?:\s?(?:%|{SCALE_WORD}\b))?)*")


# words before an item's name that say which figure of the company it is, not which part
_WHOSE = frozenset(tokenize("total net consolidated our the its company group reported gaap adjusted non-gaap fiscal "
                            "full-year full year annual quarterly quarter first second third fourth record strong "
                            "generated delivered had"))


def _of_another_part(sentence: str, ask, question: str) -> bool:
    """The sentence states a part's figure the question does not name: a segment, region or division word the
    question does not say ("Flexibles segment adjusted EBIT of $1,429 million"), or a capitalised name right before
    the item that the question does not say ("Americas revenue of …", "Greater China net sales were …")."""
    if SEGMENT_SAID.search(sentence) and not SEGMENT_SAID.search(question):
        return True
    said = set(tokenize(question)) | ask.names | _WHOSE
    for a in line_items.asked_items(sentence):
        if not ask.items or a.item.concept != ask.items[0].concept:
            continue
        before = re.findall(r"[A-Za-z][\w&'’-]*", sentence[:a.start])[-3:]
        if any(w[:1].isupper() and not set(tokenize(w)) <= said for w in before):
            return True  # (a sentence's first word too: "Americas revenue of …"; "Fourth-quarter revenue" says a period)
    return False


def _clause_start(sentence: str, position: int) -> int:
    """Where the clause holding `position` begins: after the last clause break before it (searched in the whole
    sentence, so that ", and $67 million" is seen as a list's last figure, not a break)."""
    return max((m.end() for m in _CLAUSE_BREAK.finditer(sentence) if m.end() <= position), default=0)


def _names_figure(sentence: str, fig: Stated, ask, words: frozenset[str]) -> bool:
    """The figure's own clause names the item: before the figure ("Capital expenditures totaled $1.0 billion"), or right
    after it through "of" / "for" ("$273 million of business optimization costs"); not a figure the item only follows
    in another role ("… 51% of our total revenues …, is our highest margin business unit"), nor one of another clause
    of the sentence ("… of our DRIVE business optimization strategy, and also includes business realignment costs of
    $36 million ($27 million, net of tax, or $0.11 per diluted share)")."""
    start = _clause_start(sentence, fig.start)
    end = _LIST_REST.match(sentence, fig.end).end()
    stop = _CLAUSE_BREAK.search(sentence, end)
    after = _ITEM_AFTER.match(sentence, end)
    named_after = sentence[end:stop.start() if stop else len(sentence)] if after else ""
    # the clause up to the figure, and after it only what "of" / "for" ties to it
    scope = sentence[start:end] + named_after
    if ask.items and _item_said(sentence, ask):
        return bool(_item_said(scope, ask))
    return _says_most(words, scope)


# a later figure said of the same item: its comparison ("compared with $1.3 billion in 2022", "up from $1.1 billion")
_COMPARED = re.compile(r"\b(?:compared\s+(?:with|to)|versus|vs\.?|from)\b", re.I)


def _first_after_item(sentence: str, fig: Stated, figs: list[Stated], ask) -> bool:
    """The figure is the item's own: the first figure after the item's name in its clause, one of a list with it,
    a variant in brackets after it ("($209 million, net of tax, or $0.81 per diluted share)") or a comparison of it;
    not a later figure of something else the clause goes on to ("…, of which $300 million would affect the rate").
    `figs`: the sentence's figures (stated_figures), parsed once by the caller."""
    anchor = min((a.end for a in line_items.asked_items(sentence) if ask.items and a.item.concept == ask.items[0].concept
                  and a.end <= fig.start), default=None, key=lambda end: fig.start - end)
    if anchor is None:
        anchor = _clause_start(sentence, fig.start)
    own = [f for f in figs if f.start >= anchor]
    items = True  # the figure read is the item's: the first, its list, its bracket, its comparison
    for last, f in zip(own, own[1:]):
        gap, since_first = sentence[last.end:f.start], sentence[own[0].end:f.start]
        if _COMPARED.search(gap):
            items = True  # "…, compared with $1.3 billion in 2022 and $1.8 billion in 2021": the item again
        elif not (since_first.count("(") > since_first.count(")") or _LIST_GAP_ONLY.fullmatch(gap)):
            items = False  # "…, of which $0.4 billion was spent on aircraft": something else
        if f.start == fig.start:
            return items
    return bool(own) and own[0].start == fig.start


# ", ", " and ", ", or ", " in 2022 and ": what joins two figures of one list
_LIST_GAP_ONLY = re.compile(rf"\s*(?:(?:in|for|during)\s+(?:fiscal\s+)?{YEAR}\s*)?(?:,\s*(?:and\s+)?|and\s+|,?\s*or\s+)\s*",
                            re.I)


def _of_asked_period(fig: Stated, period, src: Source, quarterly: bool = False) -> bool:
    """The figure is of the asked period: a quarter asked, of a clause naming a quarter and the asked year, or naming
    no span and no year in a filing of that quarter (a release's "Revenue of $7.7 billion"); a year asked, of a clause
    naming no span or a year's, said of the asked year or, naming none, in a filing covering it (a quarterly filing's
    figure only when the clause says the full year; a quarterly amount asked with a year, one its clause says is
    quarterly or names no span, never the year's). No period asked: a figure the sentence dates is not the answer."""
    if quarterly and period.years and period.months is None:
        return fig.months in (None, 3) and (fig.year in period.years if fig.year is not None
                                            else bool(set(period.years) & figures.covered_years(src.doc_id, period.fiscal)))
    if not period.years:
        return fig.year is None and not period.months
    if period.months == 3:
        if fig.months not in (None, 3):
            return False
        if fig.year is not None:
            return fig.months == 3 and fig.year in period.years
        info = _document(src.doc_id)
        if period.quarter:
            return info.fiscal_quarter == period.quarter and info.fiscal_year in period.years
        end = info.period_end or ""  # "the June 2023 quarter": the filing's quarter ends in that month and year
        return info.fiscal_quarter is not None and end[:4].isdigit() and int(end[:4]) in period.years \
            and end[5:7].isdigit() and int(end[5:7]) == period.month
    if fig.months not in (None, 12):
        return False
    if fig.year is not None:
        return fig.year in period.years
    if _document(src.doc_id).fiscal_quarter is not None and fig.months != 12:
        return False  # a quarterly filing's figure of no span named is its quarter's
    return bool(set(period.years) & figures.covered_years(src.doc_id, period.fiscal))


@lru_cache(maxsize=256)
def _document(doc_id: str | None) -> DocumentInfo:
    """What the filing covers (its fiscal year and quarter, its period's end), empty when unknown."""
    try:
        return catalog.document_info(catalog.load_manifest(doc_id)) if doc_id else DocumentInfo(title="")
    except (OSError, ValueError):
        return DocumentInfo(title="")


# verbs and nouns of the asking, not of the item ("did the board declare with its results")
_ASKING_VERBS = frozenset(tokenize("report reported declare declared pay paid record recorded result results announce"))


def _says_item(sentence: str, ask, words: frozenset[str]) -> bool:
    """The sentence names the asked item: its line item in any of its names ("capital expenditures" for "capex")
    with the question's other item words (a segment, a sub-item), or, for an item outside the vocabulary, every
    item word of the question."""
    if ask.items and _item_said(sentence, ask):
        return _says_most(set(ask.residue) - ask.names - _ASKING_VERBS - ASKING_WORDS, sentence)
    return _says_most(words, sentence)


def _says_most(words: set[str], sentence: str) -> bool:
    """Every word of a short item (up to 3 words), most words of a long one."""
    if len(words) <= 3:
        return says_all(words, sentence)
    return sum(says_all({w}, sentence) for w in words) >= TUNING.rows.prose_words_said * len(words)


MAX_LABEL_WORDS = 6


def _words_before(sentence: str, fig: Stated, words: frozenset[str]) -> str:
    """The item as the sentence names it before the figure, from the first word the question also says
    ("declared a quarterly cash dividend of 12.25 cents" -> "cash dividend"); "" when none of the last words is."""
    before = re.findall(r"[A-Za-z][\w'’&-]*", sentence[:fig.start])[-MAX_LABEL_WORDS:]
    stems = [any(says_all({w}, t) for w in words) for t in before]
    if not any(stems):
        return ""
    first, last = stems.index(True), len(stems) - 1 - stems[::-1].index(True)
    return " ".join(before[first:last + 1])


def _words_after(sentence: str, fig: Stated, words: frozenset[str]) -> str:
    """The item as the sentence names it after the figure through "of" / "for" ("$0.81 per diluted share) of expenses
    associated with our DRIVE business optimization strategy" -> "DRIVE business optimization"), "" when it does not."""
    after = _ITEM_AFTER.match(sentence, _LIST_REST.match(sentence, fig.end).end())
    if after is None:
        return ""
    tail = re.findall(r"[A-Za-z][\w'’&-]*", sentence[after.start():])[:2 * MAX_LABEL_WORDS]
    said = [any(says_all({w}, t) for w in words) for t in tail]
    if not any(said):
        return ""
    first = said.index(True)
    last = first + next((i for i, s in enumerate(said[first:]) if not s), len(said) - first) - 1
    return " ".join(tail[first:last + 1])


def _unit_asked(question: str, ask) -> tuple[str, ...]:
    item = ask.items[0] if ask.items else None
    if (item and item.per_share) or _PER_SHARE_ASKED.search(question):
        return ("per share", "cents")
    if (item and item.percent) or _PERCENT_ASKED.search(question):
        return ("percent",)
    return ("money",)


def _signed(fig: Stated) -> float:
    return -fig.value if "(" in fig.text else fig.value  # "$(44) million"


def _item_said(sentence: str, ask) -> str:
    """The asked item as the sentence names it ("Capital expenditures"), "" when it names it otherwise."""
    for a in line_items.asked_items(sentence):
        if ask.items and a.item.concept == ask.items[0].concept:
            return " ".join(sentence[a.start:a.end].split())
    return ""
