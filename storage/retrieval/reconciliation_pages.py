"""The pages printing the reconciliation, or the non-GAAP measure, a question names (issues 27, 28).

A question for a line of a reconciliation names the table by its total or by the list it belongs to, not by
the line's statement: "What real estate depreciation did Boston Properties add back in its FFO reconciliation?",
"In reconciling NOI to net income, what interest expense …", "How much restructuring did Oracle report among
the certain charges …", "How many points did items affecting comparability add to Amcor's adjusted EBIT growth?".
The line's own words ("interest expense", "restructuring") are printed on the income statement too, and the
measure's words on the prose pages that define it, so neither the statement pages nor the passage search bring
the reconciliation's page first. A measure is a phrase the filing prints as written:

- a measure non-GAAP by its very name (funds from operations, net operating income, free cash flow), in full
  or abbreviated (FFO, AFFO, NOI, FCF: the page may print either);
- an adjusted / non-GAAP / core / underlying figure: the qualifier and the word after it ("adjusted EBIT",
  "non-GAAP operating");
- a list of reconciling items named in passing (storage/finance/reconciliation.py `LIST_NAMED`): its qualifier and
  noun ("certain charges", "special items"), or a "supplemental disclosure".

A page prints it when its text says the phrase and it is a table page (at least `MIN_NUMBERS` figures): the prose
defining FFO prints few. Pages are ordered: those printing every fiscal year the question names first (a segment
table of this year and last beside the five-year reconciliation), then those that say they reconcile, then by how
many of the question's words and pairs of neighbouring words they say, how often they say the phrase, and their
order. Page text only, no stored facts: a reconciliation's wrapped labels are where a reader most often misses rows
("Diluted Funds from / Operations").
"""

from __future__ import annotations

import re
from functools import lru_cache

from storage.documents.bm25 import tokenize
from storage.finance.reconciliation import LIST_NAMED, NON_GAAP_MEASURE
from storage.retrieval.question_scope import question_scope

# an abbreviation after a qualifier, as a page may print it in full ("core EPS": "Core earnings per share")
SPELLED_OUT = {"eps": r"(?:eps|(?:earnings|loss)\s+per\s+(?:diluted\s+|common\s+)?share)"}
MAX_NAMED_WITH = 3  # other measures a row may name between the qualifier and the one asked
MIN_NUMBERS = 20  # a page printing fewer figures is prose, not the reconciliation's table
# a measure non-GAAP by name, in full and as analysts abbreviate it (the filing may print either)
MEASURES = (("adjusted funds from operations", "affo"), ("funds from operations", "ffo"),
            ("net operating income", "noi"), ("free cash flow", "fcf"))
# an adjusted figure: the qualifier and the word after it ("adjusted EBIT", "non-GAAP operating", "core earnings")
_QUALIFIED = re.compile(r"(?i)\b(adjusted|non-gaap|core|underlying)\s+([a-z][\w&-]*)")
# words after a qualifier that name no figure ("adjusted for inflation", "non-GAAP reconciliation")
_NOT_A_FIGURE = frozenset("for to by in of on from the a an and or its their reconciliation reconciliations measure "
                          "measures results items adjustments basis financial".split())
# a list of reconciling items, its qualifier and noun ("among the certain charges in its supplemental disclosure")
_LIST_NOUN = re.compile(r"(?i)\b(certain|special|non-?core|reconciling)\s+(charges|items|adjustments)\b|"
                        r"\bsupplemental\s+disclosures?\b")
_RECONCILES = re.compile(r"(?i)\breconcil")
_NUMBER = re.compile(r"(?<![\w.])\(?\$?\d[\d,]*(?:\.\d+)?\)?%?(?![\w])")


def _phrase_pattern(words: str, between: int = 0) -> str:
    """A phrase as a page prints it: any spacing or line break between its words, a plural's s, an abbreviation
    spelled out (`SPELLED_OUT`); `between`: up to that many words (and commas) may stand after the first word
    ("Adjusted EBITDA, EBIT, Net income and EPS" names adjusted EBIT)."""
    first, *rest = words.lower().split()
    gap = rf"(?:[\w&-]+,?\s+){{0,{between}}}?" if between else ""
    return (rf"\b{re.escape(first)}\s+{gap}"
            + r"\s+".join(SPELLED_OUT.get(w, re.escape(w)) for w in rest) + r"s?\b")


def measure_phrases(question: str) -> tuple[str, ...]:
    """The patterns of the measures or reconciling lists the question names (module doc); () when it names none."""
    out: list[str] = []
    for m in NON_GAAP_MEASURE.finditer(question):
        said = re.sub(r"flows$", "flow", " ".join(m.group(0).lower().split()))
        out += [_phrase_pattern(full) + rf"|\b{short}\b" for full, short in MEASURES if said in (full, short)]
    for m in _QUALIFIED.finditer(question):
        if m.group(2).lower() not in _NOT_A_FIGURE and not NON_GAAP_MEASURE.match(question, m.start(2)):
            out.append(_phrase_pattern(f"{m.group(1)} {m.group(2)}", between=MAX_NAMED_WITH))
    for m in LIST_NAMED.finditer(question):
        if noun := _LIST_NOUN.search(m.group(0)):
            out.append(_phrase_pattern(noun.group(0)))
    return tuple(dict.fromkeys(out))


def pages_printing(texts: list[str], question: str, issuer: frozenset[str] = frozenset(), most: int = 2) -> list[int]:
    """0-based pages among `texts` printing, in a table page, a measure or list the question names, best first
    (module doc); [] when the question names none."""
    if most <= 0 or not (phrases := measure_phrases(question)):
        return []
    words = [w for w in tokenize(question) if w not in issuer]
    said = set(words) | set(zip(words, words[1:]))
    found = re.compile("|".join(f"(?:{p})" for p in phrases), re.IGNORECASE)
    years = [re.compile(rf"\b{y}\b") for y in sorted({y for y, _ in question_scope(question).periods if y})]
    scored = []
    for page, text in enumerate(texts):
        if (times := len(found.findall(text))) and len(_NUMBER.findall(text)) >= MIN_NUMBERS:
            scored.append((not all(y.search(text) for y in years), not _RECONCILES.search(text),
                           -len(said & _words(text)), -times, page))
    return [page for *_, page in sorted(scored)[:most]]


@lru_cache(maxsize=4096)
def _words(text: str) -> frozenset:
    """The page's words and pairs of neighbouring words (a line's label read as the question says it)."""
    words = tokenize(text)
    return frozenset(words) | frozenset(zip(words, words[1:]))
