"""The table row that answers a figure question, or none: its line item, its section and its
column must mean what the question asks.

Rows come from the cited pages (agent/no_model/cited_rows.py `collect_rows`). A question naming a line item of storage/finance/line_items.py ("net revenue", "capital
spending") is answered only by a row printing that item (its label read as a US-GAAP concept:
"Net sales", "Purchases of property and equipment"); then

- a segment's row (a table captioned or sectioned by a segment or region) is not the company
  total, unless the question names that segment; a row the question's segment does not name is
  not the segment's;
- an adjusted / non-GAAP / organic row is not the GAAP figure, unless asked (and the reverse);
- a row in the "Current liabilities" section is not long-term debt; an opening balance is not a
  balance asked; a row under a section that names a part ("Finance leases:", "Cloud and
  license:") is that part's, unless the question names it (statement sections such as "Current
  assets" or "Operating activities" only say where a row stands);
- the question's other line-item words must be printed with the row ("other current assets" is
  not "Total current assets");
- the column's span is the asked one (agent/no_model/figure_periods.py);
- the same label printed with other values for the asked period, with nothing telling the rows
  apart (sections unread, captions that only name the statement), is not guessed;
- classes of wrong leads refused (issue 27): the other share basis than the one asked ("basic" vs
  "Diluted"), a portion's row for the whole ("Total non-current portion of term debt" for "total term
  debt"), a roll-forward's movement for a balance ("Reductions for tax positions"), a company row for
  "total segment X", a row of a table whose lead-in names another item ("capital expenditures by asset
  category" for "segment total assets"), a label naming only another part ("Products" for "Services"),
  one of several parallel parts ("International economy" beside "International priority" for
  "international revenues").

A question naming no known item falls back to label matching (term overlap with the question and
the filing vocabulary of storage/retrieval/query_expansion.py, plus MiniLM similarity) among rows of no
known item, with the same rules and the question's line-item words printed with the row. No row
that passes -> no figure (a missing figure beats a wrong one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from storage.finance import line_items
from storage.finance.columns import FORECAST_ASK, FORECAST_PRINTED
from storage.finance.periods import MONTH_NAMES
from storage.finance.reconciliation import (AFTER_TAX, NON_GAAP_MEASURE, NON_GAAP_MEASURE_ROW, PER_SHARE_EFFECT_OF,
                                            PER_SHARE_TOTAL, RECONCILING_SECTION, RECONCILING_WORDS, ReconciledTotal,
                                            reconciled_total)
from storage.finance.scale import TABLE_SCALE_WORDS, per_share_head, unit_of
from agent.no_model import reconciling_rows
from agent.no_model import cited_rows
from agent.no_model.cited_rows import Row
from agent.no_model.figure_periods import AskedPeriod, column_years
from storage.finance.line_items import LineItem
from storage.documents.bm25 import tokenize as _tokenize
from storage.retrieval.query_expansion import expand_query, strip_instructions
from storage.retrieval.question_scope import without_periods
from storage.documents.tables import Cell
from storage.finance.numbers import RANGE, parse_number, split_scale
from agent.tuning import TUNING
from storage.schema import Source


def tokenize(text: str) -> list[str]:
    """storage/documents/bm25.py tokens, with "non-current" one word ("noncurrent"): its "non" is no
    other word's (the "non" of "non-GAAP" is a qualifier word the asking ignores); a verb's "-ed"
    form and its base are one word ("declared" = "declare"), so a question's verb meets the label's participle."""
    return [_base(t) for t in _tokenize(re.sub(r"(?i)\bnon[- ](?=current\b)", "non", text))]


MIN_FOLDED = 4


def _base(token: str) -> str:
    """"declared" and "declare" -> "declar": a word without its "-ed" or final "e", so that the
    participle printed and the verb asked meet."""
    if token.endswith("xe") and token.isalpha():
        return token[:-1]  # "taxes" (bm25's "taxe") is "tax"
    if len(token) > MIN_FOLDED and token.isalpha():
        return token[:-2] if token.endswith("ed") else token[:-1] if token.endswith("e") else token
    return token


_TOTAL = re.compile(r"\btotal\b", re.I)

ADJUSTED = re.compile(r"\b(?:non[- ]?gaap|adjusted|organic|pro[- ]?forma|constant[- ]currency|underlying)\b", re.I)
_GAAP = re.compile(r"(?<!non-)(?<!non )\bgaap\b", re.I)
SEGMENT_SAID = re.compile(r"\b(?:segments?|regions?|regional|geograph\w*|divisions?|reportable|business units?|"
                      r"by (?:product|category|geography|region))\b", re.I)
_CURRENT_SECTION = re.compile(r"(?<!non)(?<!non-)\bcurrent liabilities\b", re.I)
_STATEMENT_NAME = re.compile(
    r"\b(?:(?:condensed )?consolidated )?(?:income statements?|balance sheets?|cash ?flows? statements?|statements? of "
    r"(?:cash ?flows|operations|income|earnings|financial (?:position|condition)|comprehensive income))\b", re.I)
_NOT_DISTINCTIVE = set(tokenize("net attributable"))  # "Property and equipment, net": the item, not another one
# words saying that what the question names is a segment ("the Americas segment's"): the segment's
# own name must be printed with its row, these need not be
_SEGMENT_KIND = set(tokenize("segment segments reportable region regions regional division divisions geographic "
                             "business businesses operations"))  # "Property and equipment, net": the item, not another one
# a cash flow statement's three sections in the words filings head them with ("Cash used in investing activities",
# "Cash provided by (used in) financing activities", "Investing activities of continuing operations"); not the
# supplemental "Non-cash investing and financing activities", whose rows are no cash flow
_CASH_FLOW_SECTION = (r"(?:(?:net )?cash(?: flows?)?(?: (?:from|provided by|used in|used for|used by|generated from|"
                      r"generated by|related to|for))? |cash flows? ?[-–—:] ?)?(?:operating|investing|financing) "
                      r"activities(?:,? (?:of |from |[-–—] ?)?continuing operations|-continuing operations)?")
# the sections statements are made of: they say where a row stands, not whose part it is
_STATEMENT_SECTION = re.compile(
    r"(?:total )?(?:current|non-?current|long-term|other)? ?(?:assets|liabilities)(?: and (?:stockholders'?|"
    r"shareholders'?|owners'?) equity(?: \(deficit\))?)?|(?:stockholders'?|shareholders'?) equity(?: \(deficit\))?|"
    rf"{_CASH_FLOW_SECTION}|(?:net )?(?:revenues?|sales)|(?:operating )?(?:costs and )?expenses|costs? of (?:sales|"
    r"revenues?)|(?:non-?operating|other|interest and other) (?:income|expenses?|items)(?:,? net)?|(?:net )?(?:earnings|income) per (?:common )?"
    r"share(?: data)?|earnings per share|per share data|(?:weighted[- ]average )?(?:number of )?(?:common )?shares (?:used|outstanding).*|"
    r"adjustments(?: to reconcile.*)?|changes in (?:operating )?assets and liabilities.*|supplemental.*|"
    rf"(?:in )?{TABLE_SCALE_WORDS}.*|unaudited|assets|liabilities|equity|(?:consolidated )?totals?|total company|"
    # an EPS computation's share counts (its "Numerator" holds the income available to shareholders, another
    # measure than net income: not a statement section)
    r"(?:non-?cash )?charges and credits|denominators?|"
    # the tail of a unit caption broken over lines ("(in millions, except per / share amounts)")
    r"[^()]*\)|"
    # a reconciliation's "Add:" / "Less:" heading: the sign of the lines under it, not whose they are
    r"(?:add(?: back)?|less|plus|minus|deduct)|"
    r"consolidated", re.I)
_PART_SAID = re.compile(r"(?i)\b(?:including|excluding|less|net of|exclusive of|inclusive of)\s+(?:the\s+|its\s+)?"
                        r"(?:current|short[- ]term|non-?current|long[- ]term)\s+(?:portions?|maturities|parts?)"
                        r"(?:\s+of\s+(?:long[- ]term\s+)?(?:debt|borrowings))?")
_EXCLUDING_MINORITY = re.compile(r"(?i),?\s*\b(?:excluding|excludes|exclusive of|without|net of|not including)\s+"
                                 r"(?:the\s+|any\s+)?(?:non-?controlling|minority)\s+(?:interests?|preferred(?:\s+stock)?)(?:['’]s?)?"
                                 r"(?:\s+share)?")
# "net income attributable to Amcor plc shareholders": of earnings, holders after the issuer's name say whose share (the
# company's owners'), no word its row must print ("Net income attributable to Amcor plc"); "common stockholders" is no
# name, and of equity they are the row's words ("Total Oracle Corporation stockholders' equity")
_EARNINGS = frozenset({"NetIncomeLoss", "ProfitLoss", "EarningsPerShareDiluted", "EarningsPerShareBasic"})
_OWNERS_AFTER_NAME = re.compile(r"(?i)\battributable to\s+(?P<name>(?:[\w&.'’-]+\s+){1,4}?)(?:share|stock|equity\s+)holders\b")
_HOW_MUCH_CASH = re.compile(r"(?i)\bhow much cash\b(?=\s+(?:did|does|do|has|have|will)\b.*\b(?:spend|spent|pay|paid|use|used|"
                            r"return|returned)\b)")
BOTH_PARTS = re.compile(r"\b(?:current and non-?current|non-?current and current)\b", re.I)
_OPENING = re.compile(r"\bbeginning of\b|\bopening\b|\bstart of\b", re.I)
_CHANGES = re.compile(r"\bchanges? in\b|\b(?:increase|decrease)s? in\b", re.I)
_BALANCE_ASK = re.compile(r"\bas of\b|\bat (?:the )?(?:end|year[- ]end|close)\b|\byear[- ]end\b|\bbalance\b|"
                          r"\boutstanding (?:at|as of)\b", re.I)
# the reported figure asked in words ("before adjustments", "unadjusted", "as reported"): not adjusted,
# and no word a row prints
_UNADJUSTED = re.compile(r"(?i)\b(?:before|excluding|without|prior to)\s+(?:any\s+|the\s+)?(?:non-gaap\s+)?"
                         r"adjustments\b|\bunadjusted\b|\bas reported\b|"
                         # "before the FAS/CAS adjustment", "before the core adjustments": the reported figure
                         r"\bbefore\s+(?:the\s+|its\s+)?(?:core\s+|[A-Z][A-Z/&-]+\s+)adjustments?\b|"
                         r"\bbefore\s+(?:the\s+)?non-?core\s+items\b|\bunder\s+(?:u\.?s\.?\s+)?gaap\b|\bon\s+a\s+gaap\s+basis\b|"
                         # "does the non-GAAP reconciliation start from": its first line, the reported figure
                         r"\b(?:start|begin)s?\s+(?:from|with)\b|\bstarting\s+point\b")
_CORE = re.compile(r"(?i)\bcore\b")


def basis_asked(question: str) -> str | None:
    """"reported" when the question asks the GAAP figure in words ("GAAP earnings", "before non-core items", "as
    reported"), "adjusted" when it asks an adjusted one ("adjusted EBIT", "non-GAAP", "free cash flow"), else None."""
    if _GAAP.search(question) or _UNADJUSTED.search(question):
        return "reported"
    return "adjusted" if ADJUSTED.search(question) or NON_GAAP_MEASURE.search(question) else None


def basis_said(sentence: str) -> str | None:
    """The basis a sentence states its figures on: "adjusted" ("non-GAAP core earnings ... were $494"), "reported"
    ("GAAP earnings were $406"), None when it says neither or both."""
    adjusted = bool(ADJUSTED.search(sentence) or NON_GAAP_MEASURE.search(sentence) or _CORE.search(sentence))
    reported = bool(_GAAP.search(sentence))
    return None if adjusted == reported else "adjusted" if adjusted else "reported"


# what a share count is for ("used for EPS", "in computing diluted earnings per share"), not the item asked
_EPS_PURPOSE = re.compile(r"(?i)\b(?:(?:used\s+)?(?:for|in)(?:\s+(?:computing|calculating))?|to\s+(?:compute|calculate))\s+"
                          r"(?:(?:diluted|basic)\s+)?(?:eps|earnings\s+per\s+(?:common\s+|ordinary\s+)?share)\b")
_OUTSTANDING_AT = re.compile(r"\boutstanding(?=\s+(?:at|as of|on)\b)", re.I)
# a flow's row (what moved during the period), never a balance asked at a date
# (a roll-forward's movements too: "Reductions for tax positions of prior years", "Settlements", "Lapse of
# statute of limitations" between its opening and closing balances)
_FLOW_LABEL = re.compile(r"^(?:repayments?|proceeds|payments?|purchases?|issuances?|redemptions?|additions?|"
                         r"(?:net |gross )?(?:increase|decrease|change)s?|borrowings? under|"
                         r"reductions?|settlements?|lapses?|expirations?|write-?offs?|charge-?offs?)\b", re.I)
# words that name a period, an amount or the asking, not a line item or a segment
_PERIOD_WORDS = set(tokenize(
    "fy fiscal year years quarter quarterly annual month months end ended ending period q1 q2 q3 q4 first second third "
    "fourth half three six nine twelve as of at close total amount value figure usd dollars millions billions report "
    "reported company consolidated gaap non-gaap adjusted much many spend spent date balance sheet statement "
    "level state stated printed record recorded full calendar reporting disclosed "
    f"latest recent last million billion thousand dollar during throughout within since through {MONTH_NAMES} "
    "earlier ago previous preceding later according achieve achieved "  # "a year earlier": when, not which item
    "jan feb mar apr jun jul aug sep sept oct nov dec "
    # asking verbs and company-form words: how a question asks and whom, not which line item
    "pay paid generate generated earn earned carry carried hold held post posted book booked make made see saw "
    "large big size sized bring brought come came keep kept receive received raise raised incur incurred "
    "count use assume assumed add added "  # "what share count did it use", "what costs does the guidance assume": the asking
    "corporation corp inc incorporated company co ltd limited plc llc holdings group"
))
_H1 = re.compile(r"(?i)\bh1\b")
# what a reconciling line is or does ("deduct", "charge"): asking words once the question names its reconciliation
_RECONCILING_WORDS = set(tokenize(RECONCILING_WORDS))


@dataclass
class FigureMatch:
    score: float
    cells: list[Cell]
    source: Source
    row: Row | None = None


@dataclass(frozen=True)
class Ask:
    """What a question (or a formula's operand) asks of a row."""

    text: str
    period: AskedPeriod
    items: tuple[LineItem, ...]  # the line items it names (storage/finance/line_items.py)
    residue: frozenset[str]  # its other line-item words: a segment or sub-item it names ("international")
    own: frozenset[str]  # all its line-item terms
    glossary: frozenset[str]  # filing words for them (storage/retrieval/query_expansion.py)
    adjusted: bool
    opening: bool
    balance: bool = False  # asks a balance at a date ("as of", "at year-end"), not a flow
    # words glossed by a parenthesis after them, with the gloss's words ("the Utility (Pacific Gas and
    # Electric Company)"): a row of that registrant's statement says them
    glossed: tuple[tuple[frozenset[str], frozenset[str]], ...] = ()
    # "excluding non-controlling interest": the parent's share is asked (the row naming the company
    # or "attributable to" it), never the total that includes the minority's
    parent: bool = False
    names: frozenset[str] = frozenset()  # the words of the issuer's and the files' names
    # the total the item is asked against ("reduce EPS", "add back to reach adjusted EBIT"): the row is a
    # reconciling line of that total's table, and a per-share total asks the item's per-share column
    reconciled: ReconciledTotal | None = None
    # the words asking a forecast ("guidance", "expect"): a forecast's cells answer, never results
    forecast: frozenset[str] = frozenset()


# a clause asking for an explanation after the figure asked ("…in fiscal 2019, and why?", "… and what
# drove the change?"): the answer's prose part, never words the figure's row prints
_WHY_CLAUSE = re.compile(r"(?i)(?:\s*[,;]\s*|\s+)(?:and\s+)?(?:why\b|how come\b|explain\b|what (?:drove|caused|explains?|"
                         r"were the (?:main |key )?(?:reasons|drivers))\b|the (?:reasons?|drivers?) (?:for|behind)\b).*$")


def figure_part(question: str) -> str:
    """The question without a clause asking why after its figure (the whole question when it starts with one)."""
    why = _WHY_CLAUSE.search(question)
    return question[:why.start()] if why is not None and why.start() > 0 else question


def make_ask(question: str, period: AskedPeriod, sources: list[Source]) -> Ask:
    """The question's line items, its other line-item words, and its qualifiers. Answer-format
    instructions ("Answer in USD millions"), a clause asking why (`_WHY_CLAUSE`) and the company's
    name (the sources' issuer or file names) are not part of the line item."""
    question = figure_part(strip_instructions(question))
    glossary_words = expand_query(question).expansion  # pure regexes over the shipped glossary
    optional: set[str] = set()
    question = _STATEMENT_NAME.sub(" ", question)  # "in the cash flow statement" says where, not what
    question = BOTH_PARTS.sub(" ", question)  # both sides asked: agent/no_model/figures.py sums them
    # "excluding the current portion", "including current maturities": what the item's concept
    # already says (non-current debt, total debt), not words its row must print
    question = _PART_SAID.sub(" ", question)
    question = _HOW_MUCH_CASH.sub("how much", question)  # "how much cash did it spend on …": the asking, not the item
    # a file's name may say what it holds besides whose it is ("PG_E_2023_EARNINGS.pdf"): those words name no company
    files = [w for s in sources for w in re.split(r"[^a-z0-9]+", (s.source_file or "").lower()) if w]
    names = " ".join([(s.extra or {}).get("issuer") or "" for s in sources]
                     + [w for w in files if w not in _ITEM_WORDS]).lower()
    name_terms = set(tokenize(names)) | _name_pieces(names)
    if any(a.item.concept in _EARNINGS for a in line_items.asked_items(question)[:1]):
        question = _OWNERS_AFTER_NAME.sub(lambda m: m.group(0) if set(tokenize(m.group("name"))) - name_terms
                                          else m.group(0)[:m.end("name") - m.start()], question)
    if (reconciled := reconciled_total(question, frozenset(name_terms))) is not None:
        question = PER_SHARE_EFFECT_OF.sub(" ", f"{question[:reconciled.start]} {question[reconciled.end:]}")
        # the reconciliation named a second time ("add back to net income in its reconciliation to FFO"): its words
        # name the table too, none the row must print
        if (again := reconciled_total(question, frozenset(name_terms))) is not None and _NAMES_TABLE.search(again.total):
            question = f"{question[:again.start]} {question[again.end:]}"
            reconciled = ReconciledTotal(reconciled.start, reconciled.end, f"{reconciled.total}; {again.total}",
                                         reconciled.per_share or again.per_share)
        # "after-tax", "net of tax": how the line is measured, words its row may print (they count then), not must
        optional = set(tokenize(" ".join(AFTER_TAX.findall(question))))
        question = AFTER_TAX.sub(" ", question)
    parent = bool(_EXCLUDING_MINORITY.search(question))
    question = _EXCLUDING_MINORITY.sub(" ", question)
    balance = bool(_BALANCE_ASK.search(question))
    question = _UNADJUSTED.sub(" ", question)  # "EBIT before adjustments": the GAAP row, not a word it prints
    if _COUNT_ASK.search(question):  # "the diluted share count used for EPS": the count, not EPS
        question = _EPS_PURPOSE.sub(" ", question)
    # "commercial paper outstanding at July 1": asks the balance, the row need not print "outstanding"
    question = _OUTSTANDING_AT.sub(" ", question)
    question = _H1.sub(" ", question)  # "H1": the first half, a span (periods.ASKED_SPAN); "H2" is no span read, its "h" stays
    asking = _PERIOD_WORDS | (_RECONCILING_WORDS if reconciled is not None else set())  # "deduct in its FCF calculation"
    # "guidance", "expect": what it asks (`_forecast_as_asked`), words a forecast's row of the item need not print
    forecast = set(tokenize(" ".join(m.group(0) for m in FORECAST_ASK.finditer(question))))
    own = {t for t in tokenize(question) if t not in asking and not any(ch.isdigit() for ch in t)
           and t not in name_terms and re.sub(r"[^a-z0-9]", "", t) not in name_terms and not (len(t) > 3 and t in names)}
    # words said only in parentheses gloss the words before them ("unearned (deferred) revenue",
    # "(GMV)"): a row need not print them
    glosses = set(tokenize(" ".join(re.findall(r"\(([^()]*)\)", question))))
    own -= glosses - set(tokenize(re.sub(r"\([^()]*\)", " ", question)))
    asked = line_items.asked_items(question)
    item_terms = set(tokenize(" ".join(question[a.start:a.end] for a in asked)))
    residue = own - item_terms - _NOT_DISTINCTIVE - _SEGMENT_KIND
    glossed = tuple((frozenset(_words(m.group(1))), frozenset(_words(m.group(2))))
                    for m in re.finditer(r"((?:[A-Za-z][\w&'’-]*\s+){0,2}[A-Za-z][\w&'’-]*)\s*\(([^()]*)\)", question))
    return Ask(question, period, tuple(a.item for a in asked), frozenset(residue), frozenset(own),
               frozenset((set(tokenize(glossary_words)) | optional) - own),
               bool(ADJUSTED.search(question) or NON_GAAP_MEASURE.search(question)),
               bool(_OPENING.search(question)), balance, glossed, parent,
               frozenset(name_terms), reconciled, frozenset(forecast))


_ITEM_WORDS = line_items.printed_words()
_NAMES_TABLE = re.compile(r"(?i)\b(?:reconcil\w*|bridge|calculation|computation)\b")


def _name_pieces(names: str) -> set[str]:
    """The words of issuers' and file names, and runs of 2-3 of them joined ("PG_E_2022_10K.pdf" ->
    "pg", "e", "pge", ...), so "PG&E" in a question is the company, not a line item."""
    pieces = [p for p in re.split(r"[^a-z0-9]+", names.lower()) if p]
    return {"".join(pieces[i:i + n]) for n in (1, 2, 3) for i in range(len(pieces) - n + 1)}


def _words(text: str) -> set[str]:
    return set(tokenize(text)) - _PERIOD_WORDS


_OTHERWISE = line_items.said_otherwise(tokenize)


def _unsaid(own: set[str], said: set[str]) -> set[str]:
    """The question's words printed neither as asked nor in the words filings say for them
    (line_items.SAID_OTHERWISE: "stock" of a "Share-based" row)."""
    return {w for w in own - said if not _OTHERWISE.get(w, set()) & said}


def row_fits(row: Row, ask: Ask, segment_words: set[str], cells: list[Cell] = ()) -> bool:
    """The row's section and qualifiers mean what the question asks (see the module doc); `cells`:
    the columns chosen, whose headers' own words ("FedEx Express Segment") say whose they are too."""
    return failed_row_test(row, ask, segment_words, cells) is None


def failed_row_test(row: Row, ask: Ask, segment_words: set[str], cells: list[Cell] = ()) -> str | None:
    """The name of the first test of ROW_TESTS the row fails, None when it fits (bench/figure_misses.py
    names the test that lost a gold figure)."""
    return next((name for name, test in ROW_TESTS if not test(row, ask, segment_words, cells)), None)


def _adjusted_as_asked(row: Row, ask: Ask, segment_words: set[str], cells) -> bool:
    label = row.label
    # a measure non-GAAP by name ("Funds from Operations ...", "Free cash flow") is an adjusted figure
    named = bool(NON_GAAP_MEASURE_ROW.match(label))
    if ask.reconciled is not None:  # a reconciling line, never the adjusted total it reconciles to
        return not ADJUSTED.search(label) and not named
    if any(_adjusted_head(c) for c in row.cells):
        # "GAAP" and "Non-GAAP" heads over the columns (a caption line above them says both): the chosen columns' basis
        adjusted = bool(ADJUSTED.search(label)) or named or bool(cells) and all(map(_adjusted_head, cells))
    else:
        adjusted = bool(ADJUSTED.search(label)) or named or (bool(ADJUSTED.search(row.context)) and not _GAAP.search(label))
    return adjusted == ask.adjusted


def _adjusted_head(cell: Cell) -> bool:
    return bool(ADJUSTED.search(column_words_text(cell.period)))


# the words naming an end of a range ("the high end of the Q3 EPS guidance"): said by a range printed in one cell
# (agent/no_model/figures.py reads the same words to tell which end, or that one is named)
RANGE_END_WORDS = ("low", "high", "lower", "upper", "bottom", "top", "minimum", "maximum")
_RANGE_END_WORDS = frozenset(tokenize(" ".join(RANGE_END_WORDS)))


def _range_ends(cells: list[Cell]) -> frozenset[str]:
    """The words naming a range's ends, when the cells print ranges in one cell ("$0.59 - $0.64")."""
    return _RANGE_END_WORDS if cells and all(RANGE.match(split_scale(c.value)[0]) for c in cells) else frozenset()


def _forecast_as_asked(row: Row, ask: Ask, segment_words: set[str], cells) -> bool:
    """A forecast asked ("What EPS does it expect for Q1 2023?", "the Q3 revenue guidance") is answered by a
    forecast's cells only: their heads, the table's caption, section, lead-in sentence or heading print a forecast's
    word ("Outlook", "Guidance", "Three Months Ending"), or the period asked comes after the filing's own (a Q4 2022
    release can only forecast Q1 2023). Results are never said as a forecast."""
    if not ask.forecast:
        return True
    said = " ".join([row.label, row.caption, row.intro, row.heading, row.cells[0].section, *(c.period for c in cells)])
    return bool(FORECAST_PRINTED.search(said) or FORECAST_ASK.search(said)) or _after_filing(ask.period, row.source.doc_id)


def _after_filing(period: AskedPeriod, doc_id: str | None) -> bool:
    """The period asked ends after the one the filing covers (its cover's fiscal year and quarter)."""
    year, quarter = cited_rows.fiscal_period(doc_id)
    if not period.years or year is None:
        return False
    asked = max(period.years)
    if asked != year:
        return asked > year
    return bool(period.quarter and quarter and period.quarter > quarter)


def _opening_as_asked(row: Row, ask: Ask, segment_words: set[str], cells) -> bool:
    return bool(_OPENING.search(row.label)) == ask.opening


def _no_flow_for_balance(row: Row, ask: Ask, segment_words: set[str], cells) -> bool:
    return not (ask.balance and _FLOW_LABEL.match(row.label))


def _no_change_of_balance(row: Row, ask: Ask, segment_words: set[str], cells) -> bool:
    # "Merchandise inventories" under "Changes in operating assets and liabilities": a change
    return not (line_items.is_instant(row.item) and _CHANGES.search(row.cells[0].section))


def _no_current_part_for_long_term(row: Row, ask: Ask, segment_words: set[str], cells) -> bool:
    return not (any(i.concept == "LongTermDebtNoncurrent" for i in ask.items) and _CURRENT_SECTION.search(row.cells[0].section)
                and not line_items.NONCURRENT_LABEL.search(row.label))


_SHARE_BASIS = re.compile(r"(?i)\b(basic|diluted)\b")


def _share_basis_as_asked(row: Row, ask: Ask, segment_words: set[str], cells) -> bool:
    """A question saying "basic" (or "diluted") alone is no row of the other basis ("Diluted" under "Earnings per
    share:", a "(diluted)" column), glossed in parentheses or not ("EPS (basic)")."""
    asked = {m.lower() for m in _SHARE_BASIS.findall(ask.text)}
    if len(asked) != 1:
        return True
    printed = {m.lower() for m in _SHARE_BASIS.findall(f"{row.label} {row.cells[0].section} "
                                                        f"{' '.join(c.period for c in cells)}")}
    # a row printing no basis is diluted EPS ("Earnings per share" of a release, cited_rows), never the basic asked
    return not printed and asked != {"basic"} or bool(printed & asked)


# a label naming a current or non-current portion of an item ("Total non-current portion of term debt",
# "Current maturities of long-term debt", "Less: Current portion of term debt"), not the item less one
# ("Long-term debt, less current portion")
_PORTION_LABEL = re.compile(r"(?i)\b(?:non-?current|current|short-term|long-term)\s+(?:portions?|maturities|parts?)\s+of\b")
_PORTION_ASK = re.compile(r"(?i)\b(?:non-?current|current|short-term|long-term|portions?|maturities|due within)\b")


def _no_portion_for_whole(row: Row, ask: Ask, segment_words: set[str], cells) -> bool:
    """A row of a portion of the item is not the item asked without saying a portion ("total term debt"); a row of
    a portion's own line item asked (a component of total debt) is that item."""
    own_item = row.item is not None and any(line_items.answers(row.item, i) for i in ask.items)
    return own_item or not (_PORTION_LABEL.search(row.label) and not _PORTION_ASK.search(ask.text))


_SEGMENT_WORD = re.compile(r"(?i)\b(?:segments?|reportable)\b")


def _segment_total_asked(row: Row, ask: Ask, segment_words: set[str], cells) -> bool:
    """"Total segment operating income", no segment named: the sum of the segments' figures, which a row saying
    no segment (the company's operating income, after unallocated costs) is not."""
    if not _SEGMENT_WORD.search(ask.text) or ask.residue:
        return True
    printed = f"{row.label} {row.context} {row.cells[0].section} {' '.join(c.period for c in cells)}"
    return bool(_SEGMENT_WORD.search(printed))


def _intro_names_no_other_item(row: Row, ask: Ask, segment_words: set[str], cells) -> bool:
    """A table whose lead-in names another line item ("The following table compares capital expenditures by asset
    category and reportable segment") holds that item's figures: its row of no known item ("FedEx Ground segment")
    is not the asked item's ("segment total assets") unless the lead-in names the asked one too."""
    if row.item is not None or not ask.items or not row.intro or line_items.mentions(row.label, ask.items[0]):
        return True  # (a label saying the asked item itself, "Research and development credit", is read as it says)
    named = line_items.asked_items(row.intro)
    return not named or any(n.item is i or line_items.answers(n.item, i) for n in named for i in ask.items)


def _segment_named_printed(row: Row, ask: Ask, segment_words: set[str], cells) -> bool:
    named = ask.residue & segment_words  # the segment the question names, if any
    return not named or named <= _words(f"{row.label} {row.context}") | columns_said(cells)


def _segment_row_asked(row: Row, ask: Ask, segment_words: set[str], cells) -> bool:
    context = row.context
    # a reconciling line asked of the company's total ("add to adjusted EBIT"): a part's column of a segment
    # reconciliation ("Flexibles segment") is asked only by its name, not by the line's words
    part = _words(row.caption) & segment_words - _words(row.label)
    if ask.reconciled is not None and part and not (ask.residue | _words(ask.reconciled.total)) & part:
        return False  # ("the Bottles segment's adjusted EBIT": the part named with the total)
    is_segment = bool(SEGMENT_SAID.search(context)) or bool(_words(context) & segment_words - _words(row.label))
    return not is_segment or bool(ask.residue & (_words(f"{row.label} {context}") | columns_said(cells)))


def _no_intersegment(row: Row, ask: Ask, segment_words: set[str], cells) -> bool:
    # sales between segments, or their elimination, are no segment's sales
    return not (_INTERSEGMENT.search(_INCLUDING_INTERSEGMENT.sub(" ", f"{row.label} {row.context}"))
                and not _INTERSEGMENT.search(ask.text))


def _no_other_measure(row: Row, ask: Ask, segment_words: set[str], cells) -> bool:
    return not (row.item is None and _other_measure(row.cells[0].section, ask))  # "Commercial Airplanes" under "Revenues"


def _no_other_item_section(row: Row, ask: Ask, segment_words: set[str], cells) -> bool:
    # a section that qualifies the row ("Finance leases:" over "Long-term debt, less current
    # portion"): the row is that part's figure unless the question names it
    section = row.cells[0].section
    return not (section and row.item is None and _other_item(section, ask))  # "Subscription and support" under "Cost of revenues"


def _no_part_section(row: Row, ask: Ask, segment_words: set[str], cells) -> bool:
    section = row.cells[0].section
    # a reconciliation's heading ("Items affecting Net Income:") says which total its lines move, not a part
    if ask.reconciled is not None and RECONCILING_SECTION.search(section):
        return True
    return not (section and row.item is None and _part_named(section, ask))  # "Americas" under "Hardware Revenues"


def _section_fits(row: Row, ask: Ask, segment_words: set[str], cells) -> bool:
    section, label = row.cells[0].section, row.label
    named = line_items.asked_items(section) if section and row.item is not None else []
    if section and row.item is not None and not any(a.item.per_share or a.item.percent for a in named) \
            and (row.item.concept in SECTION_FREE or named and named[0].item is not row.item):
        # a statement's own total, or a row of one item under a heading naming another item: that
        # heading ended before it or makes it a part (ranked after the item printed alone, best_row)
        return True  # a statement's own total: the section above it ("Inventories") ended before it
    return not section or bool(_STATEMENT_SECTION.fullmatch(line_items.normalize_label(section))) \
        or ask.reconciled is not None and bool(RECONCILING_SECTION.search(section)) \
        or bool(_words(section) & (ask.own | ask.residue)) or row.item is None and bool(_asked_in(section, ask)) \
        or row.item is not None and _names_item(section, row.item) or _section_said(section, ask) \
        or row.item is None and _label_names_asked(row, ask, segment_words) \
        or not _words(section)  # "Balance": a column's word read as a section names no part


def _label_names_asked(row: Row, ask: Ask, segment_words: set[str]) -> bool:
    """A row of no known item whose label says every line-item word of the question and no word the question does
    not ("Food and paper" under "Company-operated restaurant expenses", asked "food and paper"; not "Mortgage note
    payable legally defeased" asked "mortgage notes payable"): the label names what was asked and its heading only
    groups it with its siblings. Not when the page prints the label under another heading too (the heading tells
    "Right-of-use assets" of operating and of finance leases apart), nor under a heading naming a segment, whose rows
    the question must name."""
    label = _words(row.label)
    return bool(ask.own) and ask.own <= label and label <= _words(ask.text) and not row.label_elsewhere \
        and not _words(row.cells[0].section) & segment_words


MAX_NAME_WORDS = 6
_INTERSEGMENT = re.compile(r"(?i)\binter-?\s?segments?\b|\belimination|\bintercompany\b")
# "Sales including intersegment sales": a segment's own sales, the intersegment part said inside them
_INCLUDING_INTERSEGMENT = re.compile(r"(?i)\b(?:including|includes|incl\.?|with)\s+inter-?\s?segment\s+(?:sales|revenues?)\b")
# the measures a segment table prints one block each of (revenues, then earnings): a segment's row
# under one of them is that measure's
_SEGMENT_MEASURES = frozenset({"Revenues", "GrossProfit", "OperatingIncomeLoss", "NetIncomeLoss", "ProfitLoss",
                               "IncomeLossBeforeIncomeTaxes", "EBITDA"})


def _other_measure(section: str, ask: Ask) -> bool:
    """The section is a short heading naming one measure of a segment table ("Revenues", "Adjusted
    EBIT", "Earnings from operations") and the question asks another of them: a row of no known
    item under it is that measure of its segment, not the one asked."""
    if not section or len(section.split()) > MAX_NAME_WORDS or not ask.items or ask.items[0].concept not in _SEGMENT_MEASURES:
        return False
    named = {a.item.concept for a in line_items.asked_items(section)}
    return len(named) == 1 and named <= _SEGMENT_MEASURES \
        and not any(line_items.answers(line_items.BY_CONCEPT[c], ask.items[0]) for c in named)


# words of a heading that say how a table breaks the item down, not which part it is
_BREAKDOWN = set(tokenize("by geography geographic geographical region regions segment segments business businesses product "
                          "products category categories type types source sources line lines offering offerings "
                          "ecosystem market markets channel channels disaggregation disaggregated major"))


def _asked_in(section: str, ask: Ask) -> list:
    """The spans of `section` naming the asked line item in its own words ("Net Sales by Product"
    names revenues)."""
    if not ask.items:
        return []
    return [a for a in line_items.asked_items(section)
            if a.item is ask.items[0] or line_items.answers(a.item, ask.items[0])]


def _part_named(section: str, ask: Ask) -> bool:
    """The section names the asked item after words of a part the question does not say ("Hardware
    Revenues", "Cloud and License Revenues" when revenues are asked; not "Total Revenues by
    Geography" nor "Sales including intersegment sales"): a row of no known item under it is that
    part's figure."""
    section = line_items.normalize_label(section)  # "(Loss)/earnings from operations": no part's words
    spans = _asked_in(section, ask)
    if not spans:
        return False
    rest = section[:spans[0].start]  # the words before the item modify it: the part's name
    extra = _words(rest) - _BREAKDOWN - _SEGMENT_KIND - _NOT_DISTINCTIVE - set(tokenize("total"))
    return bool(extra) and not extra & set(tokenize(ask.text))


def _section_said(section: str, ask: Ask) -> bool:
    """The section is a short name the question says in full ("PG&E CORPORATION" over one registrant's
    rows of a quarterly table, asked "PG&E Corporation's diluted EPS"): whose rows they are, not a part."""
    words = set(tokenize(section))
    return bool(_words(section)) and len(section.split()) <= MAX_NAME_WORDS and words <= set(tokenize(ask.text))


# a statement's own totals: a section printed above them ("Changes in assets and liabilities",
# "Inventories") is the last one the parser read, never a part they belong to
SECTION_FREE = frozenset({
    "AssetsCurrent", "Assets", "LiabilitiesCurrent", "Liabilities", "StockholdersEquity", "NetIncomeLoss", "ProfitLoss",
    "NetCashProvidedByUsedInOperatingActivities", "NetCashProvidedByUsedInInvestingActivities",
    "NetCashProvidedByUsedInFinancingActivities", "CashAndCashEquivalentsPeriodIncreaseDecrease",
})


def _other_item(section: str, ask: Ask) -> bool:
    """The section names a line item other than the asked one while saying the asked one's words
    ("Cost of revenues:" when revenues are asked): a row of no known item under it is a part of
    that other item."""
    named = line_items.asked_items(section)
    return bool(named and ask.items) and line_items.mentions(section, ask.items[0]) \
        and not any(line_items.answers(named[0].item, i) or named[0].item is i for i in ask.items)


_NET = re.compile(r"(?i)\bnet\b")


def _net_of_net_item(row: Row, item: LineItem) -> bool:
    """A net item ("Property, Plant and Equipment, Net") printed both gross ("Total property, plant, and
    equipment" above the accumulated depreciation) and net: the row saying "net" is the item."""
    return item.label.endswith(", Net") and bool(_NET.search(row.label))


def at_home(row: Row) -> bool:
    """The row is printed on the statement that presents its line item (line_items.HOME_STATEMENT)."""
    home = line_items.home_statement(row.item)
    return home is None or row.statement == home


def _part_of_other(row: Row, ask: Ask) -> bool:
    """The row's section names a line item other than the row's own, which the question does not ask
    (a statement's own sections, "Current assets", only say where the row stands)."""
    section = row.cells[0].section
    if not section or _STATEMENT_SECTION.fullmatch(line_items.normalize_label(section)):
        return False
    named = line_items.asked_items(section)
    return bool(named) and named[0].item is not row.item and named[0].item not in ask.items


def _names_item(section: str, item: LineItem) -> bool:
    """The section is the row's own line item ("Earnings per share:" over "Diluted")."""
    return line_items.row_item(section) is item or line_items.row_item(f"{section} x") is item \
        or bool(line_items.asked_items(section)) and line_items.asked_items(section)[0].item is item


# row_fits' tests in order, by the name bench/figure_misses.py reports
ROW_TESTS = (
    ("adjusted_as_asked", _adjusted_as_asked),
    ("opening_as_asked", _opening_as_asked),
    ("forecast_as_asked", _forecast_as_asked),
    ("no_flow_for_balance", _no_flow_for_balance),
    ("no_change_of_balance", _no_change_of_balance),
    ("no_current_part_for_long_term", _no_current_part_for_long_term),
    ("share_basis_as_asked", _share_basis_as_asked),
    ("no_portion_for_whole", _no_portion_for_whole),
    ("segment_total_asked", _segment_total_asked),
    ("intro_names_no_other_item", _intro_names_no_other_item),
    ("segment_named_printed", _segment_named_printed),
    ("segment_row_asked", _segment_row_asked),
    ("no_intersegment", _no_intersegment),
    ("no_other_measure", _no_other_measure),
    ("no_other_item_section", _no_other_item_section),
    ("no_part_section", _no_part_section),
    ("section_fits", _section_fits),
)


MAX_SEGMENT_NAME_WORDS = 5
_SENTENCE_START = re.compile(r"\s*(?:the|this|these|following|our|we|in|for|as)\b", re.I)
_NOT_SEGMENT_NAMES = set(tokenize("segment segments region regional geographic geography division reportable business unit "
                                   "summary performance data results information operating"))


def segment_words(rows: list[Row]) -> set[str]:
    """Words that name a segment on these pages: the short captions and sections of segment tables
    ("Americas Segment", "International segment results"), not a sentence that mentions segments."""
    out: set[str] = set()
    for row in rows:
        for context in (row.caption, row.cells[0].section):
            if SEGMENT_SAID.search(context) and len(context.split()) <= MAX_SEGMENT_NAME_WORDS and not _SENTENCE_START.match(context):
                out |= {w for w in _words(context) if not any(ch.isdigit() for ch in w)} - _NOT_SEGMENT_NAMES
    return out


def best_row(ask: Ask, rows: list[Row], embedder) -> FigureMatch | None:
    """The row answering `ask` with its cell(s) for the asked period, or None."""
    segments = segment_words(rows)
    prefer = column_choice(ask)
    fitting = [(r, cells) for r in rows if (cells := r.cells_for(ask.period, prefer)) and row_fits(r, ask, segments, cells)
               and unit_fits(r, cells, ask)]
    if ask.reconciled is not None:  # a reconciling line: its block, and the tax line when the tax is asked
        fitting = _of_reconciliations(fitting, rows)
        fitting = reconciling_rows.of_block_asked(fitting, reconciled_per_share(ask))
        if (taxed := reconciling_rows.tax_lines(ask.text, fitting)) is not None:
            if not taxed:
                return None
            first = min(r.rank for r, _ in taxed)
            taxed = [(r, c) for r, c in taxed if r.rank == first]
            r, cells = taxed[0]
            return None if len({tuple(parse_number(x.value) for x in c) for _, c in taxed}) > 1 \
                else FigureMatch(1.0, cells, r.source, r)
    if ask.items:
        # rows of the asked item that also say the question's other line-item words ("other" of
        # "other current assets" is not "Total current assets"; "International" may be the caption)
        by_item = [(r, c) for r, c in fitting if any(line_items.answers(r.item, i) for i in ask.items[:1])
                   and ask.residue - ask.forecast - _range_ends(c) <= _words(f"{r.label} {r.context}") | columns_said(c)
                   | _said_by_registrant(r, ask)]
        # "EBIT" asked and printed: that row, not the statement's operating income (a measure of its own)
        if (own_name := line_items.OWN_MEASURE_NAMES.search(ask.text)) is not None:
            by_item = [rc for rc in by_item if own_name.re.search(rc[0].label)] or by_item
        # the primary statement is the record of a company-level line item: its row, not a note's or
        # a segment table's, answers (a question naming a segment keeps its words in `residue`)
        if any(r.primary for r, _ in by_item) and not ask.residue:
            by_item = _named_entity([(r, c) for r, c in by_item if r.primary], ask)
        if by_item:
            # the label saying most of the question's words first, then the retriever's order, then
            # the plainest label ("Net income", not "Net income attributable to noncontrolling interests")
            # a row under another item's section ("Depreciation and amortization" under "Selling,
            # general & administrative expenses") is that item's part: the same item printed alone first
            # line item, then the statement that presents the item (D&A: the cash flow statement's)
            owners = _owners_row_tables(rows) if ask.items[0].concept in ("NetIncomeLoss", "ProfitLoss") else set()
            r, cells = max(by_item, key=lambda rc: (not _part_of_other(rc[0], ask), at_home(rc[0]),
                                                     _net_of_net_item(rc[0], ask.items[0]),
                                                     len(ask.own & _words(rc[0].label)),
                                                     ask.parent and _parents_row(rc[0].label, ask.names),
                                                     rc[0].table in owners and _companys_share(rc[0].label)
                                                     == (ask.items[0].concept == "NetIncomeLoss"),
                                                     _section_said(rc[0].cells[0].section, ask),
                                                     -rc[0].rank,
                                                     -len(_words(rc[0].label) - ask.own)))
            return None if _ambiguous(r, cells, by_item) else FigureMatch(1.0, cells, r.source, r)
        # a sub-item the taxonomy does not name ("Products net sales"): only rows of no known item;
        # in a table whose total is the asked item, its rows are that item's parts ("Cloud services"
        # in a table totalling revenues need not print "revenues")
        implied = {r.table for r in rows if r.item is not None and line_items.answers(r.item, ask.items[0])
                   or _TOTAL.match(r.label) and line_items.mentions(r.label, ask.items[0])}
        # a row whose label prints the question's line-item words and no other ("Total term debt" asked, the
        # taxonomy reading the question as total debt and the row as long-term debt) is named by them
        fitting = [(r, c) for r, c in fitting if (r.item is None or _words(r.label) == ask.own) and ask.residue
                   and not _segments_part(r, ask)]
        # a label both registrants' statements print ("Electric" revenues): the named registrant's
        fitting = of_named_entity(fitting, ask)
        match = _by_label(ask, fitting, embedder, implied)
        if match is None:
            return None
        # a part's row under a total of the asked item is told apart from its row under another item's total
        # ("Flexibles" of "Total capital expenditures" and of "Total depreciation and amortization")
        rivals = [(r, c) for r, c in fitting if (r.table in implied) == (match.row.table in implied)]
        return None if _ambiguous(match.row, match.cells, rivals) or _one_of_parts(match, fitting, ask) else match
    else:
        # a row that is a known line item answers questions asking that item, or saying all its words (its table's
        # lead-in says what every row is: "the changes in shares of common stock" over "Common stock repurchased")
        fitting = [(r, c) for r, c in fitting
                   if r.item is None or ask.own <= _words(f"{r.label} {r.context} {r.intro}") | columns_said(c)]
    fitting = of_named_entity(fitting, ask)
    match = _by_label(ask, fitting, embedder)
    if match is None or _ambiguous(match.row, match.cells, fitting) or _one_of_parts(match, fitting, ask):
        return None
    return match


def _of_reconciliations(fitting: list[tuple[Row, list[Cell]]], rows: list[Row]) -> list[tuple[Row, list[Cell]]]:
    """A reconciling line asked: the fitting rows of pages printing a reconciliation only, a row of an adjusted total
    ("Adjusted EBIT", "Core earnings (non-GAAP)", "Funds from Operations ...") or a table saying it lists adjustments or
    items (a section "Items affecting Operating Income", a lead-in "... adjustments ... that affected our GAAP net
    income:"); a restructuring roll-forward's "Total ... Restructuring Plan" is no line of one. (By page: the parts of
    a segment reconciliation are read as tables of their own.)"""
    pages = {_page(r) for r in rows if ADJUSTED.search(r.label) or NON_GAAP_MEASURE_ROW.match(r.label)
             or RECONCILING_SECTION.search(f"{r.cells[0].section} {r.caption} {r.intro}")}
    return [(r, c) for r, c in fitting if _page(r) in pages]


def _page(row: Row) -> tuple:
    return row.source.doc_id, row.source.page_number


# column header words that qualify no figure ("(Unaudited)", "Actual", "Amount")
_COLUMN_PLAIN = set(tokenize("unaudited audited actual reported amount amounts dollars"))
_COLUMN_TOTAL = set(tokenize("total consolidated"))


def column_words(period: str) -> set[str]:
    """A column header's words beyond its period: "FedEx Express Segment, Year ended May 31, 2023"
    -> fedex, express, segment; "2023 Low" -> low."""
    return {w for w in _words(period) if not any(ch.isdigit() for ch in w)} - _COLUMN_PLAIN


_PER_SHARE_WORDS = frozenset(tokenize("per share"))


def columns_said(cells) -> set[str]:
    """The words the chosen columns' headers say of their cells; a per-share head ("EPS (diluted)")
    says "per share"."""
    if not cells:
        return set()
    said = set().union(*(column_words(c.period) for c in cells))
    return said | _PER_SHARE_WORDS if all(per_share_head(column_words_text(c.period)) for c in cells) else said


def _is_percent(cell: Cell) -> bool:
    return cell.value.rstrip().endswith("%")


_PER_SHARE_ASK = re.compile(r"(?i)\bper (?:\w+ ){0,2}share\b|\beps\b")  # "per diluted common share" too
_COUNT_ASK = re.compile(r"(?i)\bhow many\b[^?]*\bshares\b|\bshares? (?:used|outstanding)\b|\bweighted[- ]average\b|"
                        r"\bshare count\b|\bnumber of (?:common |ordinary )?shares\b")


def reconciled_per_share(ask: Ask) -> bool:
    """A reconciling line asked of a per-share total ("reduce core EPS", "in its core loss per share reconciliation")."""
    return ask.reconciled is not None and (asks_per_share(ask) or bool(PER_SHARE_TOTAL.search(ask.reconciled.total)))


def asks_per_share(ask: Ask) -> bool:
    """A per-share figure asked ("EPS", "per diluted share"), not a count of shares."""
    return bool((ask.items and ask.items[0].per_share) or _PER_SHARE_ASK.search(ask.text)
                or (ask.reconciled is not None and ask.reconciled.per_share)) and not _COUNT_ASK.search(ask.text)


def column_words_text(period: str) -> str:
    """A column head without its dates and years ("(diluted), 2016" -> "(diluted),")."""
    return " ".join(w for w in period.split() if not any(ch.isdigit() for ch in w))


def unit_fits(row: Row, cells: list[Cell], ask: Ask) -> bool:
    """A percentage asked (a margin) is no row printing amounts, an amount asked no row of
    percentages ("Americas 48%" under "% Revenues by Geography" is not the Americas' revenues);
    a per-share figure asked is no row of share counts ("Diluted" under "Shares used in computing
    earnings per share"; the unit is storage.finance.scale's reading of the cell)."""
    if asks_per_share(ask) and any(unit_of(c.label, c.value, row.unit_caption, c.section) == "shares" for c in cells[:1]):
        return False
    if not ask.items:
        return True
    if ask.items[0].percent:
        return row.item is not None or any(_is_percent(c) for c in cells)
    return not all(_is_percent(c) for c in cells)


def column_choice(ask: Ask):
    """`prefer` for pick_cells: of several columns of the asked year that their headers tell apart
    (a segment's, a range's low and high, a measure's "Impacted Earnings" and "Total" columns), the
    one whose own words the question says; else the one saying "total" / "consolidated", else the
    one plain column among qualified ones; else none: which one is asked is unknown. Percentages
    answer only a percentage asked, amounts only an amount."""
    said = set(tokenize(f"{ask.text} {ask.reconciled.total if ask.reconciled else ''}"))  # "to reach adjusted EBIT": its column
    percent = bool(ask.items) and ask.items[0].percent
    per_share = asks_per_share(ask)

    def prefer(cells: list[Cell]) -> list[Cell]:
        if ask.items and (kind := [c for c in cells if _is_percent(c) == percent]):
            cells = kind
        # an amount's column beside its per-share column ("Earnings | EPS (diluted)"): the one of the kind asked
        heads = [per_share_head(column_words_text(c.period)) for c in cells]
        if any(heads) and not all(heads):
            cells = [c for c, head in zip(cells, heads) if head == per_share]
        # "GAAP" and "Non-GAAP" heads over the same quarter's columns: the basis asked
        basis = [_adjusted_head(c) for c in cells]
        if any(basis) and not all(basis):
            cells = [c for c, adjusted in zip(cells, basis) if adjusted == ask.adjusted]
        if len(cells) == 1:
            return cells
        words = [column_words(c.period) for c in cells]
        common = set.intersection(*words)
        # (the words the row's own label prints are said of the row, not of a column: "Electric operating revenues"
        # under "Revenues and Costs: That Impacted Earnings | ... | Total Utility" is not that column's for "revenue")
        own = [w - common - _words(c.label) for w, c in zip(words, cells)]
        if not any(own):
            return cells  # headers that words do not tell apart: pick_cells' own order
        hits = [len(o & said) for o in own]
        best = max(hits)
        if best:
            return [cells[hits.index(best)]] if hits.count(best) == 1 else []
        # ("total" is a period word `column_words` drops: read from the head itself)
        totals = [c for c in cells if set(tokenize(column_words_text(c.period))) & _COLUMN_TOTAL]
        for pick in (totals, [c for c, o in zip(cells, own) if not o]):
            if len(pick) == 1:
                return pick
        return []

    return prefer


MAX_PART_WORDS = 1


def _segments_part(row: Row, ask: Ask) -> bool:
    """Asked a segment's figure ("the Flexibles segment's sales"), a row whose label names the segment
    with words of its own ("Films and other flexible products  Flexibles", a product line listed
    with its segment) is a part of the segment, not the segment."""
    if not ask.own & _SEGMENT_KIND:
        return False
    label = _words(row.label)
    return bool(ask.residue & label) and len(label - ask.own - ask.glossary - _SEGMENT_KIND) > MAX_PART_WORDS


_ATTRIBUTABLE = re.compile(r"\battributable to\b", re.I)


def _companys_share(label: str) -> bool:
    """"Net income attributable to <company>", not the consolidated "Net income (including ...)"."""
    return bool(_ATTRIBUTABLE.search(label)) and not re.search(r"(?i)\bincluding\b", label)


def _parents_row(label: str, names: frozenset[str]) -> bool:
    """"Total Amcor plc shareholders' equity", "Net income attributable to Amcor plc": the row of the
    company's own share, by its name or "attributable to" (not to noncontrolling interests)."""
    if re.search(r"(?i)non-?controlling|minority", label):
        return False
    return _companys_share(label) or bool(set(tokenize(label.lower())) & names - _PERIOD_WORDS)


def _owners_row_tables(rows: list[Row]) -> set[int]:
    """Tables that split net income between the company and noncontrolling interests: there the
    company's own row ("Net income attributable to <company>") is the net income asked, not the
    consolidated total above it (the taxonomy's NetIncomeLoss is the parent's share)."""
    return {r.table for r in rows if r.item is not None
            and r.item.concept == "NetIncomeLossAttributableToNoncontrollingInterest"}


def _said_by_registrant(row: Row, ask: Ask) -> set[str]:
    """The question's words that a parenthesis glosses as the row's registrant ("Utility" of "the
    Utility (Pacific Gas and Electric Company)" on that company's statement)."""
    entity = _words(row.entity)
    return {w for words, gloss in ask.glossed if entity and gloss and gloss <= entity for w in words}


def entity_adds(row: Row, ask: Ask) -> set[str]:
    """Words of the row's registrant the question does not say ("partnership" of "Boston Properties
    Limited Partnership" asked as "Boston Properties'"), company-form words aside."""
    return _words(row.entity) - set(tokenize(ask.text)) if row.entity else set()


def _named_entity(found: list[tuple[Row, list[Cell]]], ask: Ask) -> list[tuple[Row, list[Cell]]]:
    """Of statements of several registrants in one filing (a parent's and its utility's), the rows of
    the one the question names ("PG&E Corporation's", also in the total a reconciling line is asked of: "reduce Boston
    Properties Limited Partnership's FFO"); all of them when it names none or one only."""
    asked = set(tokenize(f"{ask.text} {ask.reconciled.total if ask.reconciled is not None else ''}"))
    # most of the entity's words asked, then the fewest it adds ("Boston Properties, Inc." before
    # "Boston Properties Limited Partnership" for "Boston Properties'"; "Inc."-style words count not)
    fit = {id(r): (len(set(tokenize(r.entity)) & asked), -len(entity_adds(r, ask))) for r, _ in found}
    best = max(fit.values(), default=(0, 0))
    return [(r, c) for r, c in found if fit[id(r)] == best] if best[0] else found


def rows_of_named_entity(rows: list[Row], question: str) -> list[Row]:
    """For a computation over one registrant's statements: of the rows of statements of several
    registrants (a parent's and its utility's), those of the one the question names, and the rows
    of pages that name none; all rows when it names none of them."""
    ask = Ask(question, AskedPeriod(), (), frozenset(), frozenset(), frozenset(), False, False)
    return [r for r, _ in of_named_entity([(r, r.cells) for r in rows], ask)]


def of_named_entity(found: list[tuple[Row, list[Cell]]], ask: Ask) -> list[tuple[Row, list[Cell]]]:
    """Of rows on statements of several registrants, those of the one the question names and those
    of pages naming none; all when it names none of them (or there is one registrant only)."""
    named = _named_entity([(r, c) for r, c in found if r.entity], ask)
    if len({r.entity for r, _ in named}) == len({r.entity for r, _ in found if r.entity}):
        return found
    kept = {id(r) for r, _ in named}
    return [(r, c) for r, c in found if not r.entity or id(r) in kept]


def _ambiguous(row: Row, cells: list[Cell], others: list[tuple[Row, list[Cell]]]) -> bool:
    """The same label printed twice in the filing with other values for the asked period and nothing
    (section, caption) telling them apart: "Term debt" under current and under non-current
    liabilities with the sections unread, "Revenues" of each business's table without captions."""
    label, adjusted = line_items.normalize_label(row.label), bool(ADJUSTED.search(row.label))
    # (normalize_label drops a leading "Adjusted": "EBIT" is another figure than "Adjusted EBIT" all the same)
    return any(o is not row and o.source.doc_id == row.source.doc_id
               and line_items.normalize_label(o.label) == label and bool(ADJUSTED.search(o.label)) == adjusted
               and _qualifier(o) == _qualifier(row) and _conflict(cells, oc) for o, oc in others)


def _conflict(cells: list[Cell], other: list[Cell]) -> bool:
    """Some period both rows print has other values in them; the same amount printed as a deduction in one table
    and as a cost in another ("($322)" in a reconciliation, "322" in the table of unallocated items) is one figure."""
    mine = {tuple(column_years(c.period)): _magnitude(c.value) for c in cells}
    return any(mine.get(tuple(column_years(c.period)), _magnitude(c.value)) != _magnitude(c.value) for c in other)


def _magnitude(value: str) -> float | None:
    number = parse_number(value)
    return None if number is None else abs(number)


_GENERIC_CAPTION = re.compile(  # a unit caption or a statement's title, nothing that qualifies the rows
    r"\(?(?:in|dollars in|amounts in|\$ in|unaudited)\b.*|(?:condensed )?(?:consolidated )?(?:statements? of [\w ,'’()]+|"
    r"balance sheets?)(?: \(continued\))?(?: \(unaudited\))?", re.I)


def _qualifier(row: Row) -> str:
    """What tells a row apart from another of the same label: its section, and its caption unless
    that only names the statement or the unit ("Consolidated Statement of Cash Flows", "In millions")."""
    caption = "" if _GENERIC_CAPTION.fullmatch(row.caption.strip()) else row.caption
    return f"{caption} {row.cells[0].section}".strip().lower()


def _without_words(text: str, words: set[str]) -> str:
    """`text` without the words whose tokens are among `words`."""
    return " ".join(w for w in text.split() if not set(tokenize(w)) & words) if words else text


def _by_label(ask: Ask, fitting: list[tuple[Row, list[Cell]]], embedder, implied: set[int] = frozenset()) -> FigureMatch | None:
    """Label matching for rows of no known line item: idf-free term overlap (the caption's words
    count half) mixed with MiniLM similarity of the question's line item and the label. `implied`:
    tables whose total is the asked item, where the item's own words go without saying."""
    if not fitting or not ask.own:
        return None
    labels = [r.label for r, _ in fitting]
    # of a table its lead-in sentence names, the label tells the row by the question's other words
    # ("balance at the end" of "unrecognized tax benefits" the lead-in says): similarity to them too
    intros = sorted({r.intro for r, _ in fitting if r.intro})
    rest = [_without_words(without_periods(ask.text), _words(i)) for i in intros]
    vectors = embedder.embed([without_periods(ask.text), *rest, *labels])  # similarity is about the line item
    labels_at = 1 + len(rest)
    cosines = vectors[labels_at:] @ vectors[0]
    if intros:
        by_intro = dict(zip(intros, range(1, labels_at)))
        cosines = [max(float(c), float(vectors[labels_at + k] @ vectors[by_intro[r.intro]])) if r.intro else c
                   for k, ((r, _), c) in enumerate(zip(fitting, cosines))]
    best: FigureMatch | None = None
    glossary = ask.glossary
    tune = TUNING.rows
    for (row, cells), cos in zip(fitting, cosines):
        terms = _words(row.label)
        # (a forecast asked, "the Q1 tax rate outlook": every row here is a forecast's, `_forecast_as_asked`; a label
        # need not print "outlook", and one that prints "expected" says it: "Expected return on plan assets")
        own = (ask.own - (ask.forecast - terms)) or ask.own
        # the table's lead-in sentence says what all its rows are ("The following table reconciles the
        # changes in unrecognized tax benefits:" over "Balance at end of year")
        around, lead_in = _words(row.context), _words(row.intro)
        said = terms | around | lead_in | columns_said(cells) | (own - ask.residue if row.table in implied else set())
        # the question's line-item words must all be printed with the row (label, caption, section or
        # lead-in): "return on equity" is not "Return on invested capital"
        # (a label of period words only, "Balance at end of year", is a row of the table its lead-in names)
        if not (terms or row.intro) or _unsaid(own, said) - _SEGMENT_KIND:  # "segment" says what the named thing is; its row need not print it
            continue
        if _another_part(terms, ask):
            continue
        hit = (own - _unsaid(own, terms)) | (own - ask.residue if row.table in implied else set())
        # the caption's or the section's words ("Earnings from operations:" over a segment's row)
        in_caption = (own & around) - hit
        # the lead-in's words name what every row of its table is: said as the label's are
        in_lead = (own & lead_in) - hit - in_caption - _SEGMENT_KIND
        label_cover = (len(hit) + tune.glossary_weight * len(terms & glossary)) / max(1, len(terms))
        if not terms and lead_in and not _unsaid(own, lead_in | around):
            # a label of period words only ("Balance at end of year") under a lead-in saying every word of the
            # question's item: the lead-in names the row, nothing in the label is another item's
            label_cover = 1.0
        asked_words = len(own - _SEGMENT_KIND) or len(own)
        question_cover = max(min(1.0, (len(hit) + len(in_lead) + tune.caption_weight * len(in_caption - _SEGMENT_KIND)) / asked_words),
                             tune.glossary_cover * len(terms & glossary) / len(glossary) if glossary else 0.0)
        lexical = tune.label_cover_weight * min(label_cover, 1.0) + (1 - tune.label_cover_weight) * question_cover
        score = tune.semantic_weight * float(cos) + (1 - tune.semantic_weight) * lexical - tune.rank_penalty * row.rank
        # "total" is no line-item word, but it tells "Total lease liabilities" from "Lease liabilities"
        score += tune.total_bonus * (bool(_TOTAL.search(ask.text)) == bool(_TOTAL.search(row.label)))
        # of a statement's same-named parts ("Services" under "Net sales:" and under "Cost of sales:"), the
        # one whose section names the asked item
        score += tune.total_bonus * (bool(ask.items) and _names_item(row.cells[0].section, ask.items[0]))
        if best is None or score > best.score:
            best = FigureMatch(score, cells, row.source, row)
    return best if best is not None and best.score >= tune.min_row_score else None


def says_asked_words(row: Row, ask: Ask) -> bool:
    """The row prints the question's other line-item words (its label, caption or section)."""
    return not _unsaid(set(ask.residue), _words(f"{row.label} {row.context} {row.cells[0].section}"))


def _another_part(terms: set[str], ask: Ask) -> bool:
    """Asked a part by its name ("Services gross margin percentage"), a label naming only words the question does
    not say ("Products") is another part's row, whatever the caption or lead-in above both says."""
    own = terms - _SEGMENT_KIND  # (not the glossary's words: "product" glosses gross margin's "cost of products")
    return bool(own) and bool(ask.residue) and not own & ask.own and not _said_otherwise(ask.own, own)


def _said_otherwise(asked: frozenset[str], terms: set[str]) -> bool:
    return len(_unsaid(set(asked), terms)) < len(asked)


def _label_extra(row: Row, ask: Ask) -> set[str]:
    """The label's words the question does not say, in its words or in the filing's for them ("share" of "stock")."""
    otherwise = set().union(*(_OTHERWISE.get(w, set()) for w in ask.own))
    return _words(row.label) - ask.own - ask.glossary - otherwise - _SEGMENT_KIND - _NOT_DISTINCTIVE


def _one_of_parts(match: FigureMatch, fitting: list[tuple[Row, list[Cell]]], ask: Ask) -> bool:
    """The row chosen says the asked words with a word of its own ("International economy" for "international
    revenues"), and a row of its table says them with another ("International priority"): the asked figure is
    their total or a row not printed here, not one of the parts."""
    hit = _words(match.row.label) & ask.own
    extra = _label_extra(match.row, ask)
    if not hit or not extra or len(extra) > MAX_QUALIFIER_WORDS:
        return False
    # parallel parts: each named by a short word of its own the other does not print ("economy", "priority"); a
    # label holding the chosen one's words or saying more ("Income tax benefit related to share-based compensation
    # expense", "Compensation expense before income taxes, restricted units") is another measure, no sibling
    return any(r is not match.row and r.table == match.row.table and r.source is match.row.source
               and _words(r.label) & ask.own == hit and (other := _label_extra(r, ask))
               and len(other) <= MAX_QUALIFIER_WORDS and not other & extra for r, _ in fitting)


MAX_QUALIFIER_WORDS = 2


def components_printed(item: LineItem, ask: Ask, rows: list[Row]) -> list[tuple[Row, Cell]]:
    """For a total not printed as one row: its printed components (the taxonomy's composition of
    the concept), each with the cell of the asked period, all from the one page that prints most
    of them (a note repeating a balance sheet row is not another component), in printed order."""
    segments = segment_words(rows)
    found: dict[tuple, list[tuple[Row, Cell]]] = {}
    for r in rows:
        if r.item is None or r.item.concept not in item.components:
            continue
        sub = replace(ask, items=(r.item,))
        if (cells := r.cells_for(ask.period)) and row_fits(r, sub, segments):
            found.setdefault(_page(r), []).append((r, cells[0]))
    if not found:
        return []
    best = max(found.values(), key=lambda parts: (len({r.item.concept for r, _ in parts}), -min(r.rank for r, _ in parts)))
    seen: set[str] = set()
    return [(r, c) for r, c in best if not (r.cells[0].row in seen or seen.add(r.cells[0].row))]

