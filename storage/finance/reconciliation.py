"""A reconciling item asked by what it does to a total, or as a line of the total's reconciliation.

Earnings releases reconcile a GAAP figure to an adjusted one line by line ("Net income | Amortization
of acquired intangibles | Restructuring | Adjusted net income"), often with an amount and a per-share
column for each period. Analysts ask for one of those lines by the total it moves:
- "How much did amortization of the Wildfire Fund contribution reduce PG&E's EPS in Q2 2023?"
- "How much amortization did Amcor add back to reach adjusted EBIT for fiscal 2023?"
- "How much income tax did Amcor pay per the adjusted free cash flow reconciliation?"
- "What was the movement in working capital in Amcor's fiscal 2023 adjusted free cash flow?"
The line item asked is the reconciling item; the total ("EPS", "adjusted EBIT") is not the row but
says which table, and which column when it is a per-share total. `reconciled_total` finds the total's
span so the caller reads the item from the rest of the question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from storage.finance.periods import QUARTER_NUMBER, QUARTER_ORDINAL, YEAR

# measures non-GAAP by their very name, printed without "adjusted" or "non-GAAP" (a REIT's funds from operations and
# net operating income, free cash flow): a row naming one is an adjusted figure, a question naming one asks one
_MEASURE = r"(?:adjusted\s+)?funds\s+from\s+operations|a?ffo|free\s+cash\s+flows?|net\s+operating\s+income|noi"
NON_GAAP_MEASURE = re.compile(rf"(?i)\b(?:{_MEASURE})\b")
# the measure's own row ("Diluted Funds from Operations", "Free cash flow"), not a line naming it ("Noncontrolling
# interests' share of funds from operations")
NON_GAAP_MEASURE_ROW = re.compile(rf"(?i)^\s*(?:total\s+|basic\s+|diluted\s+)?(?:{_MEASURE})\b")
# words that say what a reconciling line is or does ("deduct", "the legal matters charge", "the service cost
# adjustment per share"), asking words once the reconciliation is named: its rows need not print them
RECONCILING_WORDS = ("deduct deducted subtract subtracted exclude excluded include included remove removed show showed "
                     "list listed charge charges item items adjustment adjustments per share")
# how the line's amount is measured, not which line ("after-tax wildfire costs", "net of tax"): the reconciliation of
# an earnings measure prints its lines so
AFTER_TAX = re.compile(r"(?i)\b(?:after|post)[- ]tax\b|,?\s*\bnet of (?:income )?tax(?:es)?\b")

# what an item does to a total: "reduce(d) EPS", "add(ed) back to reach adjusted EBIT", "excluded from
# non-GAAP operating income", "impact on EPS"
_EFFECT = re.compile(
    r"(?i)\b(?:(?:reduc|lower|decreas|rais|increas|boost)\w*|cut|hurt|weigh(?:ed|s)? on|"
    r"(?:impact|effect)s? on|contribut\w* to|(?:add(?:ed|s)? )?back to (?:reach|arrive at|get to)|add(?:ed|s)? (?:back )?to|"
    r"(?:exclud|deduct|subtract|remov)\w* from|to (?:reach|arrive at|get to|get|obtain)|(?:in |when )?arriving at|"
    # "lift adjusted EPS", "move core loss per share": said of a line by the total it changes
    r"lift(?:ed|s)?|mov(?:e|ed|es)|"
    # "restructuring affecting its GAAP net income"
    r"affect(?:s|ed|ing)?|"
    # the route from a GAAP figure to the total: "take out of net income on the way to FFO"
    r"on the (?:way|road|path) to|en route to|(?:in )?reaching|"
    # removed from a GAAP figure: "take out of net income (on the way to FFO)"
    r"(?:take[sn]?|took|strip(?:s|ped)?)\s+out\s+of)\s+")
# "the tax effect of the adjustments on adjusted net income": the item between "effect of" and "on"
_EFFECT_OF = re.compile(r"(?i)\b(?:impact|effect)s?\s+of\b")
_ON = re.compile(r"(?i)\bon\s+")
# a reconciliation the question names in passing ("does the quarter's non-GAAP reconciliation start
# from", "the adjusted EBIT reconciliation begins with"): the item asked is one of its lines
# ("the FFO reconciliation", "its free cash flow calculation": a measure non-GAAP by name, its table)
_NAMED = re.compile(rf"(?i)\b(?:adjusted|non-gaap|core|underlying|{_MEASURE})\b(?:\s+[\w/-]+){{0,4}}?\s+"
                    r"(?:reconciliation|bridge|calculation|computation)\b")
# a list of reconciling items named in passing: "among the special items affecting FedEx's operating income",
# "among the certain charges in its supplemental disclosure", "in the charges behind its GAAP results"
LIST_NAMED = re.compile(
    r"(?i)\b(?:among|in|within)\s+(?:the\s+|its\s+|[\w&.-]+['’]s\s+)?(?:(?:certain|special|other|non-?core|non-gaap|"
    r"supplemental|reconciling)\s+)*(?:charges|items|adjustments|disclosures?)\b(?:\s+(?:of|related to)\s+(?:certain\s+)?charges)?"
    r"(?:\s+(?:affecting|behind|that affected|in)\s+(?:[\w&'’.-]+\s+){0,5}?(?:results|income|earnings|ebit(?:da)?|eps|"
    r"(?:supplemental\s+)?disclosure)\b)?")
# an item said to be one of the reconciling lines by what the company calls them: "did PG&E treat as non-core",
# "classified as special items", "recorded as a non-GAAP adjustment"
TREATED_AS = re.compile(r"(?i)\b(?:treat|classif|count|record|designat|consider|present|report)\w*\s+(?:it\s+|them\s+)?as\s+"
                        r"(?:an?\s+)?(?:non-?core|special|non-gaap|adjusting|excluded|one-time)\b"
                        r"(?:\s+(?:items?|charges?|costs?|adjustments?|expenses?))?")
# a reconciliation named by what it reconciles, before or after the item: "In reconciling NOI to net income, what
# interest expense …", "… when reconciling adjusted EBITDA to net income", "… include in reconciling to core EPS"
_RECONCILING = re.compile(r"(?i)\b(?:(?:in|when|while)\s+)?reconcil(?:ing|es?|ed)\s+(?:(?:the\s+|its\s+)?"
                          r"[^,?;]{1,60}?\s+)?(?:to|with)\s+[^,?;]{1,40}?"
                          r"(?=\s*[,?;]|\s+(?:what|how|which|in|for|during|over|through|at|as of)\b|$)")
# where the item is printed: "in/per the adjusted free cash flow (reconciliation)"
_WITHIN = re.compile(r"(?i)\b(?:in|per|under|within)\s+")
# a total that reconciling lines move: per-share earnings, an adjusted / non-GAAP measure, a profit line
_TOTAL = re.compile(r"(?i)\b(?:eps|earnings per (?:diluted |common |ordinary )?share|per[- ]share|adjusted|non-gaap|core|"
                    rf"underlying|{_MEASURE}|ebitda|ebit|operating (?:income|profit)|net (?:income|earnings)|earnings)\b")
# a total that names its reconciliation: an adjusted measure (after the company's name and a year), or
# the word "reconciliation" itself
_RECONCILIATION = re.compile(rf"(?i)^(?:the\s+|its\s+)?(?:[\w&.-]+['’]s\s+)?(?:(?:fiscal|fy)\s*)?(?:{YEAR}\s+)?"
                             rf"(?:adjusted|non-gaap|core|underlying|{_MEASURE})\b|\b(?:reconciliation|bridge|calculation|computation)\b")
# the total ends where the question's period, another phrase or the sentence begins
# (a company's ", Inc.'s" is no end: "to reach Boston Properties, Inc.'s FFO")
_END = re.compile(r"(?i)\s+(?:in|for|during|over|through|at|as of|versus|vs\.?|compared|of)\s+|\s*[?;]|\s*\.(?=\s|$)|"
                  r"\s*,(?!\s*(?:inc|corp|ltd|llc|l\.?p)\b)|\s*$")
_PERIOD_START = re.compile(rf"(?i)(?:the\s+)?(?:fiscal|fy|{QUARTER_NUMBER}|h[12]|{YEAR}|{QUARTER_ORDINAL}|full|"
                           r"three|six|nine|twelve|year|quarter|half)\b")
# a heading over a reconciliation's lines ("Non-core items:", "Non-GAAP adjustments:", "Special items")
RECONCILING_SECTION = re.compile(r"(?i)\b(?:non-?core|adjustments?|adjusting|items?|non-gaap|excluded|special|reconcil\w*)\b")
# "increase in adjusted EBIT": a change of the total asked, not an item's effect on it ("reduce EPS")
_PREPOSITION = re.compile(r"(?i)(?:in|of|for|on|to|from|at|by|over|during|versus|vs)\b")
# "the increase in adjusted EBIT": the total's change is asked, not a line within it
_CHANGE_BEFORE = re.compile(r"(?i)\b(?:increase|decrease|change|growth|rise|decline|drop|fall|improvement|reduction)s?\s*$")
MAX_TOTAL_WORDS = 8
# words of asking, not of an item: "How much did …", "What was the …"
_ASKING = frozenset("what was were is are how much many did does do the a an by which its it their has have had "
                    "company company's".split())
PER_SHARE_TOTAL = re.compile(r"(?i)\beps\b|\bper[- ](?:\w+ )?share\b")


@dataclass(frozen=True)
class ReconciledTotal:
    start: int  # the span of the question saying what the item does to the total, and the total
    end: int
    total: str  # the total as the question names it ("PG&E's EPS", "adjusted EBIT")
    per_share: bool  # the item's effect on a per-share total is asked ("reduce EPS"): its per-share figure


def reconciled_total(question: str, names: frozenset[str] = frozenset()) -> ReconciledTotal | None:
    """The total a question's line item is asked against ("reduce PG&E's EPS" -> "PG&E's EPS"), or None
    when the question asks a total itself ("What was adjusted EBIT?", "the impact on EPS") and names no
    item before it (`names`: the issuer's words, which name no item)."""
    # a list of items named first ("among the special items affecting operating income"): the whole phrase names the
    # total, so neither its words nor the total's are asked of the line
    for m in LIST_NAMED.finditer(question):
        if set(re.findall(r"[a-z]{3,}", question[:m.start()].lower())) - _ASKING - names:
            return ReconciledTotal(m.start(), m.end(), m.group(0), bool(PER_SHARE_TOTAL.search(m.group(0))))
    for m in TREATED_AS.finditer(question):
        if set(re.findall(r"[a-z]{3,}", question[:m.start()].lower())) - _ASKING - names:
            return ReconciledTotal(m.start(), m.end(), m.group(0), False)
    for m in _RECONCILING.finditer(question):
        rest = f"{question[:m.start()]} {question[m.end():]}"
        if _TOTAL.search(m.group(0)) and set(re.findall(r"[a-z]{3,}", rest.lower())) - _ASKING - names:
            return ReconciledTotal(m.start(), m.end(), m.group(0), bool(PER_SHARE_TOTAL.search(m.group(0))))
    for finder, names_total in ((_EFFECT, _TOTAL), (_ON, _TOTAL), (_WITHIN, _RECONCILIATION)):
        for m in finder.finditer(question):
            if finder is _ON and not _EFFECT_OF.search(question[:m.start()]):
                continue
            end = _END.search(question, m.end())
            total = question[m.end():end.start()].strip()
            too_long = len(set(total.split()) - _issuer_words(total, names)) > MAX_TOTAL_WORDS
            if not total or too_long or _PERIOD_START.match(total) or _PREPOSITION.match(total) \
                    or not names_total.search(total) or _CHANGE_BEFORE.search(question[:m.start()]):
                continue
            if not set(re.findall(r"[a-z]{3,}", question[:m.start()].lower())) - _ASKING - names:
                continue
            return ReconciledTotal(m.start(), end.start(), total,
                                   finder is not _WITHIN and bool(PER_SHARE_TOTAL.search(total)))
    for m in _NAMED.finditer(question):
        if set(re.findall(r"[a-z]{3,}", question[:m.start()].lower())) - _ASKING - names:
            return ReconciledTotal(m.start(), m.end(), m.group(0), False)
    return None


def _issuer_words(text: str, names: frozenset[str]) -> set[str]:
    """The words of `text` naming the issuer ("Boston", "Properties'", "Inc.'s"): they do not lengthen a total."""
    return {w for w in text.split() if re.sub(r"(?:['’]s?|\W)+$", "", w).lower() in names}


# the tax on a reconciliation's adjustments asked ("the tax effect of the adjustments", "tax adjustment on the
# non-GAAP items", "provision for deferred income taxes on adjustments"), not one item's own tax or the
# income statement's tax expense
# the two wordings both the question and the printed line use: "adjustments to income tax", "taxes on the
# non-GAAP adjustments"
_ADJUSTMENTS_TO_TAX = r"\badjustments?\s+(?:to|for)\s+(?:the\s+)?(?:income\s+)?tax"
_TAX_ON_ADJUSTMENTS = r"\btax(?:es)?\s+on\s+(?:the\s+)?(?:non-gaap\s+)?(?:adjustments|items)\b"
TAX_ON_ADJUSTMENTS_ASKED = re.compile(
    r"(?i)\b(?:income\s+)?tax(?:es)?\s+(?:effects?|impacts?)\s+(?:of|on|from)\s+(?:the\s+|all\s+|these\s+|its\s+)?"
    r"(?:above\s+|non-gaap\s+|pre-tax\s+|reconciling\s+)?(?:adjustments|items|non-gaap)\b|\btax\s+adjustments?\b|"
    + _ADJUSTMENTS_TO_TAX + "|" + _TAX_ON_ADJUSTMENTS)
# the line printing it ("Tax effect of above items", "Less: Adjustments to income tax expense", "Income tax
# impact of non-GAAP adjustments"); "Income tax expense", "Tax expense" are the GAAP tax, not it
TAX_ON_ADJUSTMENTS_LINE = re.compile(
    r"(?i)\btax(?:es)?\s+(?:effects?|impacts?)\s+(?:of|on|from)\s+(?:the\s+|all\s+)?(?:above|items|adjustments|non-gaap)\b|"
    + _TAX_ON_ADJUSTMENTS + "|" + _ADJUSTMENTS_TO_TAX)
# a per-share figure as a reconciliation prints it: dollars and cents ("(1.43)", "$0.73"), where its amount
# block prints whole millions ("(849)")
CENTS_VALUE = re.compile(r"^\(?-?\$?\s*\(?-?\d{1,3}\.\d{2}\)?$")
# a scale caption that leaves per-share figures unscaled ("Dollars in millions, except per share data")
PER_SHARE_CAPTION = re.compile(r"(?i)\bexcept\b.*\bper[- ]share\b")
# "the per-share effect of X on core EPS": how the line is asked (per share), no words its row prints
PER_SHARE_EFFECT_OF = re.compile(r"(?i)\b(?:the\s+)?per[- ]share\s+(?:effect|impact)s?\s+of\b")
