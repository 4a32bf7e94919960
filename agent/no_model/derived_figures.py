"""Figures computed from printed rows, with the arithmetic shown and every input row cited.

    Gross margin, fiscal 2022 = gross profit 170,782 / net sales 394,328 = 43.3% (computed) [^1][^2]

What is computed:
- formulas the question defines: "the operating cash flow ratio is defined as cash from operations
  / total current liabilities", "EBITDA = operating income + D&A", "X (i.e. A / B)", "…, A minus B?",
  "ratio of A to B", "A as a percentage (a %) of B", or asks as they are
  ("what was (net sales minus cost of sales) divided by net sales": said as a ratio and a percentage);
  ", divided by" divides all that comes before it;
- ratios analysts name (storage/finance/line_items.py entries with a `formula`: gross / operating / net
  margin, current ratio, free cash flow, EBITDA, effective tax rate, interest coverage, payout ratio,
  days sales outstanding and inventory turnover over average balances) when the filing prints no row
  for them, and when the question's own wording of them reads no rows;
- a ratio's change in percentage points between two periods (the later less the earlier);
- growth between two years' columns of one row ("year over year", "from 2021 to 2022"), of the part
  named before the item ("natural gas operating revenues");
- averages of one row over the years the question names ("3-year average ... FY2020-FY2022").

Formulas are read by the shared grammar (storage/finance/arithmetic.py, no eval): expr := term (("+" | "-") term)*, term := factor
(("*" | "/") factor)*, factor := number | "(" expr ")" | row name; "plus", "minus", "less",
"divided by", "over", "times", "÷", "×" are the operators in words. Each row name is resolved like
a question of its own (agent/no_model/figure_rows.py: the right row or none), on any cited page of the
selection (different statements of the same filing). When an input is missing the answer says
which one and gives no value; so does a result no such figure can be (a margin outside ±100%, inputs
of different units or spans, two operands naming different items read off one row). "x" between
spaces multiplies; "less" before "current portion" is part of a row label. Results are rounded as the
question asks ("to two decimal places"), else as the inputs imply (percentages and ratios to one or two
decimals, sums to the inputs').
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal

from storage.finance import arithmetic, line_items
from storage.finance.arithmetic import WORDS as _OPS
from storage.finance.columns import CHANGE_BASIS, heads_change
from storage.finance.periods import ASKED_YEAR_RANGE, QUARTER_NUMBER, QUARTER_ORDINAL, YEAR_RE
from agent.no_model.figure_periods import AskedPeriod, cell_years, column_months
from agent.no_model.cited_rows import Row
from agent.no_model.figure_rows import FigureMatch, best_row, make_ask, rows_of_named_entity, tokenize
from agent.no_model.figure_words import decimals, said_period, scale_word
from storage.finance.line_items import LineItem
from storage.finance.numbers import parse_number
from storage.finance.scale import POINTS_SAID
from storage.retrieval.query_expansion import strip_instructions
from storage.schema import Source

# "A plus B, divided by C": the comma closes what is divided (written grouping, lower than any operator)
_DIVIDED_AFTER_COMMA = re.compile(r",\s*(?:divided by|over)\s+", re.I)
_OP_MARK = {"/": "\x01", "*": "\x02", "+": "\x03", "-": "\x04", "(": "\x05", ")": "\x06"}
_DEFINED = re.compile(
    r"(?P<name>[A-Za-z][\w&'’ -]{1,60}?)\s+(?:is|are|be|was)?\s*(?:defined|calculated|computed|measured|given)\s+"
    r"(?:as|by)\s*:?\s*(?:the\s+)?(?P<expr>[^.?;]+)|(?P<name2>[A-Za-z][\w&'’-]*(?:\s[\w&'’-]+){0,5})\s*=\s*(?P<expr2>[^.?;=]+)"
    # "the operating cash flow ratio (cash from operations / total current liabilities)"
    r"|(?P<name3>[A-Za-z][\w&'’ ,-]{1,60}?)\s*\((?:i\.e\.,?\s*|calculated as\s*|defined as\s*)?(?P<expr3>(?:[^()]|\([^()]*\))*?"
    r"(?:/|÷|×|\+|\s[-–−]\s|\bdivided by\b|\bplus\b|\bminus\b|\btimes\b)(?:[^()]|\([^()]*\))*)\)"
    # a parenthesised part followed by an operator is the start of a formula, not all of it
    r"(?!\s*(?:/|÷|×|\*|\+|[-–−]\s|divided\b|over\b|times\b|multiplied\b|plus\b|minus\b|less\b))"
    # ", calculated as (A minus B) divided by C": the figure asked is named before it
    r"|,?\s*(?:\b(?:calculated|computed|defined|measured|taken)\s+(?:as|by)|\bi\.e\.,?|\bthat is,)\s*:?\s*(?P<expr4>[^?;]+)"
    # a sentence defining the figure by its arithmetic: "Interest coverage is operating income divided by interest expense."
    r"|(?:^|(?<=[.;:]\s))(?P<name5>[A-Za-z][\w&'’ -]{1,60}?)\s+(?:is|are|equals)\s+(?P<expr5>[^.?;]*?"
    r"(?:/|÷|×|\+|\s[-–−]\s|\bdivided by\b|\bplus\b|\bminus\b|\btimes\b|\bless\b)[^.?;]*)(?=[.;])"
    # the definition as the question's last clause: "… free cash flow in 2022, net cash from operations minus capex?"
    r"|,\s*(?!(?:what|how|which|by how)\b)(?P<expr6>[A-Za-z(][^,?;]*?(?:\s/\s|\bdivided by\b|\bplus\b|\bminus\b)[^?;]*)(?=\?|$)"
    # "Define net working capital as total current assets less total current liabilities."
    r"|(?:^|(?<=[.;:?]\s))define\s+(?:the\s+)?(?P<name7>[A-Za-z][\w&'’ -]{1,60}?)\s+as\s*:?\s*(?:the\s+)?"
    r"(?P<expr7>[^.?;]+)",
    re.I)
_RATIO_OF = re.compile(r"\bratio of (?P<a>[^?.;]+?) to (?P<b>[^?.;]+)|\b(?P<c>[a-z][\w ,&'’-]+?) as an? "
                       r"(?:percent(?:age)?|%|share|proportion) of (?P<d>[^?.;]+)"
                       # "the FY2015 D&A % margin", "COGS % margin": an amount over revenue, as analysts ask it
                       r"|\b(?P<e>[a-z][\w ,&'’()-]+?)\s*(?:%|percent(?:age)?)\s+margin\b", re.I)
# what a ratio's first term says before its item: the years and the average it is asked as ("the FY2018 - FY2020
# 3 year average of capex"), a parenthesised gloss after it ("D&A (from the cash flow statement)")
_TERM_PREFIX = re.compile(r"^(?:(?:(?:fy\s*\d{2,4}|fiscal|the|years?|yrs?|three|two|four|five|to|through|\d+)\b|"
                          r"[-–—])\s*)*"
                          r"(?:(?:average|mean)\b\s*)?(?:of\s+)?(?:the\s+)?", re.I)
# a gloss beside a name, no arithmetic in it: "(from the cash flow statement)", "[from cash flow statement]"
_GLOSS = re.compile(r"\s*(?:\[[^\[\]]*\]|\((?![^()]*(?:/|÷|×|\*|\+|\s[-–−]\s|\b(?:divided|minus|plus|less|times)\b))"
                    r"[^()]*\))")
# the figure a question asks: "What is the FY2022 unadjusted EBITDA less capex for Northwind?"
_WHAT_FIGURE = re.compile(r"\b(?:what|how much) (?:is|was|are|were) (?:the\s+)?"
                          r"(?:[A-Z][\w&.-]*(?:['’]s|(?<=s)['’])\s+)?(?P<x>[^?]+)", re.I)

# where a row name ends: the period or place phrase after it ("... to total current liabilities at the end of fiscal 2022")
_NAME_TAIL = re.compile(r"\s+(?:in|for|at|as of|during|on|by|over|from)\s+(?:the\s+)?(?:end|fy|fiscal|year|quarter|"
                        rf"{QUARTER_ORDINAL}|{QUARTER_NUMBER}|\d|[A-Z][a-z]+ \d|balance sheet|income statement|cash flow).*$",
                        re.I)
# "What was Apple's", "Boston Properties'"
_POSSESSIVE = re.compile(r"^(?:(?:what|how much|how)\s+(?:was|were|is|are|did)\s+)?(?:the\s+)?"
                         r"(?:(?:[A-Z][\w&.-]*\s+){0,3}?[A-Z][\w&.-]*(?:['’]s|(?<=s)['’])\s+)?", re.I)
# a formula asked for as it is, in words: "what was (net sales minus cost of sales) divided by net sales?"
_ASKED_FORMULA = re.compile(r"\bwhat (?:was|were|is|are) (?:the\s+)?(?:[A-Z][\w&.-]*(?:['’]s|(?<=s)['’])\s+)?"
                            r"(?P<expr>[A-Za-z(][^?;]*?(?:\bdivided by\b|\bminus\b|\bplus\b|\s/\s)[^?;]*)", re.I)
# "… divided by total net sales for Apple": the company named after the formula is not part of its last row
_FOR_COMPANY = re.compile(r"\s+(?:for|of|at)\s+(?:[A-Z][\w&.'’-]*\s*)+$")
_AVERAGE_OF = re.compile(r"(?:the\s+)?average\s+(?:of\s+)?(?:the\s+)?(.+)", re.I)
_GROWTH = re.compile(r"\b(?:growth|grow|grew|change|increase|decrease|decline)\b|\byear[- ]over[- ]year\b|\byoy\b", re.I)
_AVERAGE = re.compile(r"\baverage\b|\bmean\b", re.I)
# a compound annual growth rate: (last / first) ^ (1 / years between) − 1
_CAGR = re.compile(r"\bcagr\b|\bcompound(?:ed)? annual(?: growth)?(?: rate)?\b", re.I)
# a change asked as an amount ("by how much did net sales increase", "the dollar change in"), not as a rate
_AMOUNT_CHANGE = re.compile(r"\bhow\s+much\s+(?:did|does|do|has|have|had|will|would)\b.*?\b(?:increase|decrease|change|"
                            r"decline)\b|\b(?:dollar|absolute)\s+(?:amount\s+of\s+(?:the\s+)?)?(?:change|increase|decrease|"
                            r"decline)\b|\bby\s+what\s+amount\b|\bin\s+(?:absolute\s+)?dollars?\b", re.I)
_RATE_WORDS = re.compile(r"\bpercent(?:age)?\b|%|\brates?\b|\bgrowth\b|\bgr[eo]w\b|\bpoints?\b|\btimes\b", re.I)
_PERCENT_ASK = re.compile(r"\bpercent(?:age)?\b|%|\bmargin\b|\bgrowth\b|\brate\b|\bshare of\b|\bproportion\b|"
                          r"\bpayout\b", re.I)
_ROUND = re.compile(r"\b(?:round(?:ed)?|to)\s+(?:to\s+)?(?:the\s+)?(?:(\d|one|two|three|four) decimal|nearest "
                    r"(whole|tenth|hundredth|thousandth|integer))", re.I)
_WORD_DIGITS = {"one": 1, "two": 2, "three": 3, "four": 4, "whole": 0, "integer": 0, "tenth": 1, "hundredth": 2, "thousandth": 3}
# what is subtracted as a magnitude: outflows printed in parentheses on the cash flow statement
_OUTFLOW = re.compile(r"^Payments")
# a question asking for a computed figure; a printed row of the line item alone does not answer it
DERIVED_ASK = re.compile(r"\b(?:ratio|margin|growth|grew|change|increase|decrease|decline|percent(?:age)?|average|"
                         r"proportion|share of|coverage|return on|year[- ]over[- ]year|yoy)\b|%", re.I)


class FormulaError(ValueError):
    """A formula the grammar cannot read."""


@dataclass(frozen=True)
class Node:
    op: str  # "+", "-", "*", "/", "num", "row"
    left: Node | None = None
    right: Node | None = None
    text: str = ""  # the number or the row name


def parse_formula(expr: str) -> Node:
    """`expr` as a tree: "cash from operations / total current liabilities" -> (/ row row). A hyphen
    is an operator only between spaces ("long-term debt" is one name)."""
    expr = expr.strip()
    if len(parts := _DIVIDED_AFTER_COMMA.split(expr, maxsplit=1)) == 2:
        expr = f"({parts[0].strip()}) / ({parts[1].strip()})"
    text = re.sub(r"(?<=\s)\(|^\(", _OP_MARK["("], expr)
    text = re.sub(r"\)(?=\s|$)", _OP_MARK[")"], text)
    for rx, op in _OPS:
        text = rx.sub(f" {_OP_MARK[op]} ", text)
    back = {v: k for k, v in _OP_MARK.items()}
    tokens = [back.get(t, t).strip() for t in re.split(r"([\x01-\x06])", text) if t.strip()]
    try:
        term = arithmetic.parse(tokens)
    except arithmetic.UnreadableArithmetic as exc:
        raise FormulaError(f"{exc} in formula {expr!r}") from exc
    return _node(term)


def _node(term: arithmetic.Term) -> Node:
    """The shared parser's tree (storage/finance/arithmetic.py), each operand a number or a row name."""
    if term.op:
        return Node(term.op, _node(term.left), _node(term.right))
    if re.fullmatch(r"\d+(?:\.\d+)?", term.operand):
        return Node("num", text=term.operand)
    name = re.sub(r"^(?:the|a|an|its|their|company's)\s+", "", term.operand.strip(" ,:"), flags=re.I)
    return Node("row", text=name)


def operands(node: Node) -> list[str]:
    if node.op == "row":
        return [node.text]
    return [*(operands(node.left) if node.left else []), *(operands(node.right) if node.right else [])]


@dataclass
class Derivation:
    name: str
    formula: Node
    percent: bool
    share: bool = False  # a quotient of amounts asked as a bare formula: said as a ratio and as a percentage


def derivation(question: str, rows: list[Row], sources: list[Source], period: AskedPeriod, embedder,
               printed_too: bool = False) -> Derivation | None:
    """The formula a question asks to compute, or None: defined in the question, a ratio of two
    rows, or a named ratio (line_items formulas) that no cited row prints (`printed_too`: or does)."""
    percent = bool(_PERCENT_ASK.search(question))
    if m := _DEFINED.search(question):
        before = question[: m.start()]
        named = line_items.asked_items(before)
        name = (m.group("name") or m.group("name2") or m.group("name3") or m.group("name5") or m.group("name7")
                or (before[named[-1].start:named[-1].end] if named else _named_before(before))).strip()
        name = re.sub(r"^.*\b(?:if|where|given that|assume|note that)\s+(?:the\s+)?", "", name, flags=re.I)
        name = _NAME_TAIL.sub("", _POSSESSIVE.sub("", name)).strip(" ,") or name
        text = (m.group("expr") or m.group("expr2") or m.group("expr3") or m.group("expr4") or m.group("expr5")
                or m.group("expr6") or m.group("expr7")).strip()
        if m.group("name7"):  # "Define unadjusted EBITDA as ...": the figure asked may be more than the name defined
            if (asked := _asked_figure(question[: m.start()], name)) is None:
                return None
            defined = _NAME_TAIL.sub("", _GLOSS.sub("", text))  # "... amortization from the cash flow statement"
            name, text = asked[0], re.sub(re.escape(name), lambda _: f"({defined})", asked[1], count=1, flags=re.I)
        try:
            formula = parse_formula(_NAME_TAIL.sub("", text))
        except FormulaError:
            return None
        expr = next(g for g in ("expr", "expr2", "expr3", "expr4", "expr5", "expr6", "expr7") if m.group(g))
        formula = _of_segment(formula, question[: m.start(expr)] + " " + question[m.end(expr):], period, sources)
        return Derivation(name[:1].upper() + name[1:], formula, bool(_PERCENT_ASK.search(name)) or percent)
    if m := _ASKED_FORMULA.search(question):
        expr = _FOR_COMPANY.sub("", _NAME_TAIL.sub("", m.group("expr").strip()))
        try:
            formula = parse_formula(expr)
        except FormulaError:
            formula = None
        if formula is not None and formula.op in "+-*/":
            return Derivation(expr[:1].upper() + expr[1:], formula, percent, share=formula.op == "/")
    if m := _RATIO_OF.search(strip_instructions(question)):  # not "According to the details ..., what is"
        a, b = (m.group("a"), m.group("b")) if m.group("a") else (m.group("c"), m.group("d")) if m.group("c") \
            else (m.group("e"), "revenues")
        a, b = (_FOR_COMPANY.sub("", _POSSESSIVE.sub("", _NAME_TAIL.sub("", _GLOSS.sub("", x).strip())))
                for x in (a, b))
        a = _TERM_PREFIX.sub("", a) or a
        named = not m.group("a")
        try:
            name = f"{a} {'as a percentage of' if named else 'to'} {b}"
            return Derivation(name[:1].upper() + name[1:], Node("/", *(_term(x, period, rows, sources, embedder)
                                                                        for x in (a, b))), named or percent)
        except FormulaError:
            return None
    return named_derivation(question, rows, sources, period, embedder, printed_too)


def _asked_figure(before: str, defined: str) -> tuple[str, str] | None:
    """What a question asks before it defines `defined` ("What is the FY2022 unadjusted EBITDA less capex? Define
    unadjusted EBITDA as ..."): (its name, its expression in words) — ("unadjusted EBITDA less capex", the same); a
    "% margin" of it is its share of revenues. None when the figure asked does not say the defined name."""
    if (m := _WHAT_FIGURE.search(strip_instructions(before))) is None:
        return None
    phrase = _FOR_COMPANY.sub("", _NAME_TAIL.sub("", _GLOSS.sub("", m.group("x")).strip())).strip(" ,")
    phrase = _TERM_PREFIX.sub("", phrase) or phrase
    if defined.lower() not in phrase.lower():
        return None
    ratio = _RATIO_OF.search(phrase)
    return phrase, f"({ratio.group('e').strip()}) / revenues" if ratio and ratio.group("e") else phrase


def _term(text: str, period: AskedPeriod, rows: list[Row], sources: list[Source], embedder) -> Node:
    """A ratio's term: the rows it names, or, when it names an amount analysts compute ("unadjusted EBITDA") and no
    cited row prints it, that item's formula over the rows that make it."""
    node = parse_formula(text)
    named = line_items.asked_items(text)
    if node.op == "row" and len(named) == 1 and (item := named[0].item).formula and not item.percent \
            and _resolve(text, period, rows, sources, embedder) is None:
        return _over_concepts(item.formula)
    return node


def _over_concepts(formula: str) -> Node:
    """An item's formula over concepts ("OperatingIncomeLoss + DepreciationDepletionAndAmortization") as a tree whose
    rows are those concepts' ("concept:OperatingIncomeLoss"); "average" stays the word it is."""
    return parse_formula(re.sub(r"\b(?!average\b)[A-Za-z]+", lambda m: f"concept:{m.group(0)}", formula))


def named_derivation(question: str, rows: list[Row], sources: list[Source], period: AskedPeriod, embedder,
                     printed_too: bool = False) -> Derivation | None:
    """The formula of the ratio the question names (storage/finance/line_items.py), or None."""
    if re.search(r"\b(?:adjusted|non[- ]?gaap|organic)\b", question, re.I):
        return None  # an adjusted ratio is the filing's own measure: stated when printed, never computed here
    for asked in line_items.asked_items(question):
        item = asked.item
        if item.formula and _names_a_part(question, period, sources):
            return None  # "the Services gross margin": the company's rows are not that part's inputs
        if item.formula and (printed_too or not _printed(item, question, rows, sources, period, embedder)):
            formula = item.formula
            for concept, identity in line_items.IDENTITIES.items():
                # an input no cited row prints, read through its identity ("gross profit" = net sales
                # less cost of sales, on an income statement that prints no gross profit row)
                if re.search(rf"\b{concept}\b", formula) and _resolve(f"concept:{concept}", period, rows, sources, embedder) is None:
                    formula = re.sub(rf"\b{concept}\b", f"({identity})", formula)
            return Derivation(item.label, _over_concepts(formula), item.percent)
    return None


_SEGMENT_SAID = re.compile(r"\b(?:segments?|divisions?|regions?|business units?|reportable)\b", re.I)
_FORMULA_WORDS = set(tokenize("computed calculated defined measured given equals using formula segment segments"))


def _of_segment(formula: Node, outside: str, period: AskedPeriod, sources: list[Source]) -> Node:
    """A formula over "segment earnings / segment revenues" asked of a segment the question names
    outside it ("the Commercial Airplanes segment's operating margin (...)"): each operand is that
    segment's row, never the company's (a missing segment row leaves the figure not computed)."""
    if not _SEGMENT_SAID.search(outside):
        return formula
    asking = set(tokenize(" ".join(m.group(0) for m in DERIVED_ASK.finditer(outside))))
    part = make_ask(outside, period, sources).residue - asking - _ASKING_WORDS - _FORMULA_WORDS
    if not part:
        return formula
    said = " ".join(w for w in re.findall(r"[\w&'’-]+", outside) if set(tokenize(w)) & part)

    def named(node: Node) -> Node:
        if node.op == "row":
            return node if part <= set(tokenize(node.text)) else replace(node, text=f"{said} {node.text}")
        return replace(node, left=named(node.left), right=named(node.right)) if node.op in "+-*/" else node
    return named(formula)


def _names_a_part(question: str, period: AskedPeriod, sources: list[Source]) -> bool:
    """The question names a segment, product or other part beside the ratio ("Services gross margin"):
    words other than its line items, the company's name, periods and the computation asked."""
    asking = set(tokenize(" ".join(m.group(0) for m in DERIVED_ASK.finditer(question))))
    # the words of the ratio's own inputs and arithmetic, said beside it ("operating income over interest
    # expense", "using average receivables"), name no part
    inputs = set(tokenize(" ".join(question[a.start:a.end] for a in line_items.asked_items(question))))
    return bool(make_ask(question, period, sources).residue - asking - _ASKING_WORDS - inputs - _ARITHMETIC_WORDS)


# a driver's part of a growth asked ("did price/mix add to", "contributed to", "accounted for"): no growth of the total
_CONTRIBUTION = re.compile(r"(?i)\b(?:add(?:ed)?|contribut(?:e|ed|ion)|account(?:ed)? for)\s+(?:to\s+)?"
                           r"(?:\S+\s+){0,6}?(?:growth|increase|change)\b")


_ARITHMETIC_WORDS = set(tokenize("over divided by minus plus times x less average opening closing using based on improve "
                                 "improved deteriorate worsen"))


_ASKING_WORDS = set(tokenize("what was were is are the of in for a an its their how did does do compute calculate "
                             "percentage percent ratio rate points basis bps pp versus vs compared"))


def _printed(item: LineItem, question: str, rows: list[Row], sources, period, embedder) -> bool:
    match = best_row(make_ask(question, period, sources), rows, embedder)
    return match is not None and match.row is not None and match.row.item is item


@dataclass
class Input:
    name: str
    match: FigureMatch | None  # the row and its cell, None when not printed on the cited pages

    @property
    def numbers(self) -> list[float] | None:
        """The input's printed values (two for an average of a year and the year before)."""
        if self.match is None:
            return None
        numbers = [parse_number(c.value) for c in self.match.cells]
        if any(n is None for n in numbers):
            return None
        item = self.match.row.item if self.match.row else None
        # an outflow printed in parentheses ("(1,577)" capex) is subtracted as the amount spent
        # an outflow or an expense printed in parentheses is its amount ("Interest expense (829)")
        magnitude = item is not None and (_OUTFLOW.match(item.concept) or item.concept in line_items.EXPENSES)
        return [abs(n) for n in numbers] if magnitude else numbers

    @property
    def value(self) -> float | None:
        numbers = self.numbers
        return sum(numbers) / len(numbers) if numbers else None

    @property
    def places(self) -> int:
        return max(decimals(c.value) for c in self.match.cells)


def _evaluate(node: Node, inputs: dict[str, Input]) -> tuple[float, str]:
    """(value, arithmetic as written) of a tree whose inputs are all present."""
    if node.op == "num":
        return float(node.text), node.text
    if node.op == "row":
        inp = inputs[node.text]
        label, numbers = _in_sentence(inp.match.row.label), inp.numbers
        if len(numbers) > 1:  # an average of the year's and the year before's balance
            shown = " + ".join(_fmt(n, inp.places) for n in numbers)
            return inp.value, f"average {label} {_fmt(inp.value, inp.places + 1)} [({shown}) / {len(numbers)}]"
        return inp.value, f"{label} {_fmt(inp.value, inp.places)}"
    a, left = _evaluate(node.left, inputs)
    b, right = _evaluate(node.right, inputs)
    if node.op == "-" and node.right.op == "row" and b < 0:
        # "operating cash flow minus capital expenditures" over a capex row printed "(332.2)": the
        # parentheses say it is an outflow, the formula's "minus" subtracts it once, not twice
        places = inputs[node.right.text].places
        b, right = -b, right.replace(f" {_fmt(b, places)}", f" {_fmt(-b, places)}")
    if node.right.op in "+-" and node.op in "*/-" or node.right.op in "*/" and node.op == "/":
        right = f"({right})"
    if node.left.op in "+-" and node.op in "*/":
        left = f"({left})"
    if node.op == "/" and b == 0:
        raise ZeroDivisionError(right)
    value = arithmetic.apply(node.op, a, b)
    return value, f"{left} {dict(zip('+-*/', '+−×/'))[node.op]} {right}"


def _in_sentence(label: str) -> str:
    """A row label inside a sentence: "Net sales" -> "net sales", "OPERATING INCOME" -> "operating
    income", "EBITDA" and "SG&A expenses" stay."""
    if label.isupper() and len(label.split()) > 1:
        return label.lower()
    return label if label[1:2].isupper() else label[:1].lower() + label[1:]


def _fmt(value: float, places: int) -> str:
    """`value` rounded half up (as analysts round, not to the float's binary neighbour) with separators."""
    rounded = Decimal(repr(abs(value))).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    text = f"{rounded:,.{places}f}"
    return f"-{text}" if value < 0 and rounded else text


def _signed(change: float, places: int) -> str:
    """A change as `_fmt` rounds it, with "+" when it rounds to a rise ("+2,352", "-250", "0.0")."""
    text = _fmt(change, places)
    return f"+{text}" if change > 0 and text.strip("0.,") else text


def _places(question: str, default: int) -> int:
    if m := _ROUND.search(question):
        word = (m.group(1) or m.group(2)).lower()
        return int(word) if word.isdigit() else _WORD_DIGITS[word]
    return default


def _resolve(name: str, period: AskedPeriod, rows: list[Row], sources: list[Source], embedder) -> FigureMatch | None:
    """The printed row an operand names ("cash from operations", "concept:GrossProfit")."""
    if (m := _AVERAGE_OF.match(name)) and len(period.years) == 1:
        # "average inventory": the balance at the year's end and at the year before's
        year = period.years[0]
        match = _resolve(m.group(1), replace(period, years=(year, year - 1)), rows, sources, embedder)
        # balances at two dates: a column of a span ("Years ended") holds the year's change, not a balance
        if match is None or len(match.cells) != 2 or any(column_months(c.period) for c in match.cells):
            return None
        return match
    if name.startswith("concept:"):
        item = line_items.BY_CONCEPT[name.split(":", 1)[1]]
        ask = replace(make_ask(item.label, period, sources), items=(item,), residue=frozenset())
        return best_row(ask, rows, embedder)
    match = best_row(make_ask(name, period, sources), rows, embedder)
    named = line_items.asked_items(name)
    if match is None and named and named[0].item.formula and (amount := line_items.row_item(name)) is not None:
        # an operand saying a ratio's words for an amount ("gross margin divided by net sales"): the
        # amount row printed under those words ("Gross margin 14,997")
        return _resolve(f"concept:{amount.concept}", period, rows, sources, embedder)
    return match


def _markers(inputs: list[Input]) -> str:
    return "".join(dict.fromkeys(i.match.source.source_id for i in inputs if i.match))


def _said_name(name: str) -> str:
    """An operand as said: "concept:InventoryNet" -> "inventory, net", "average concept:InventoryNet" -> "average inventory, net"."""
    return re.sub(r"concept:(\w+)", lambda m: line_items.BY_CONCEPT[m.group(1)].label.lower(), name)


def _averaged_years(question: str, years: list[int], latest, averaged_input: bool = False) -> list[int] | None:
    """The years a ratio's average is asked over ("the FY2015 - FY2017 3 year average net profit margin": 2015, 2016,
    2017; "the 3-year average ... as of FY2022": 2020-2022; no year named: the latest N the first input prints),
    or None when no average of the ratio is asked."""
    if not asks_beyond_items(_AVERAGE, question) or averaged_input:
        return None  # "average total assets between FY2021 and FY2022": an input's average, not the ratio's
    count = _years_counted(question)
    years = sorted(years)
    if len(years) >= 2:
        return list(range(years[0], years[-1] + 1)) if ASKED_YEAR_RANGE.search(question) else years
    end = years[0] if years else latest()
    return list(range(end - count + 1, end + 1)) if count >= 2 and end else []


def _formula_lines(d: Derivation, question: str, period: AskedPeriod, rows, sources, embedder) -> list[str]:
    names = list(dict.fromkeys(operands(d.formula)))

    def latest() -> list[int]:  # the latest year the first input prints
        first = _resolve(names[0], replace(period, years=()), rows, sources, embedder)
        return cell_years(first.cells[0], period, first.row.shift)[-1:] if first else []

    averaged = _averaged_years(question, list(period.years), lambda: next(iter(latest()), None),
                               any(_AVERAGE_OF.match(n) for n in names))
    years = averaged if averaged is not None else list(period.years) or latest()
    if averaged is not None and len(averaged) < 2:
        return [f"- {d.name}, average: not computed — the years to average are not named."]
    points = d.percent and bool(POINTS_SAID.search(question)) and bool(years) and averaged is None
    if points:  # a ratio's change in percentage points: the earlier and the later period's, in that order
        years = sorted(years)[-2:] if len(years) > 1 else [years[0] - 1, years[0]]
    lines, shown, results = [], [], []
    for year in (years if averaged else years[:3]) or [None]:
        at = replace(period, years=(year,))
        inputs = _inputs_of_one_filing(names, at, rows, sources, embedder) if year else {n: Input(n, None) for n in names}
        missing = [_said_name(n) for n, i in inputs.items() if i.value is None]
        if missing:
            when = (f"Q{period.quarter} {year}" if period.quarter else f"fiscal {year}") if year else "the asked period"
            lines.append(f"- {d.name}, {when}: not computed — {', '.join(missing)}: no row for that period "
                         "found on the cited pages.")
            continue
        first = next(iter(inputs.values())).match
        when = said_period(first.cells[0].period, first.row.instant)
        try:
            value, arithmetic = _evaluate(d.formula, inputs)
        except ZeroDivisionError:
            lines.append(f"- {d.name}, {when}: not computed — the divisor is zero.")
            continue
        percent = d.percent and not re.search(r"×\s*100\b", arithmetic)
        if reason := _not_the_figure(d, question, value, percent, list(inputs.values())):
            lines.append(f"- {d.name}, {when}: not computed — {reason}.")
            continue
        places = _places(question, 1 if percent else 2 if "/" in arithmetic else max(i.places for i in inputs.values()))
        result = f"{_fmt(value * 100 if percent else value, places)}{'%' if percent else ''}"
        if d.share and not percent and abs(value) < 10:
            result += f" ({_fmt(value * 100, 1)}%)"
        if not percent and "/" not in arithmetic and (scale := _amount_scale(list(inputs.values()))):
            result += f" {scale}"  # a sum or difference of amounts is in their caption's scale
        lines.append(f"- {d.name}, {when} = {arithmetic} = {result} (computed) {_markers(list(inputs.values()))}")
        shown.extend(i for i in inputs.values() if i not in shown)
        results.append((value * 100, result, when, _markers(list(inputs.values()))))
    if points:
        return _points_lines(d, question, results, lines) + _input_lines(shown if len(results) == 2 else [])
    if averaged:
        return _average_lines(d, question, averaged, results, lines) + _input_lines(shown)
    return lines + _input_lines(shown)


def _average_lines(d: Derivation, question: str, years: list[int], results: list, lines: list[str]) -> list[str]:
    """The average of a ratio over the asked years (the mean of each year's ratio, as analysts average margins),
    leading each year's computation; when a year's is not computed, only the lines saying why (fewer years' mean is
    not the average asked)."""
    if len(results) != len(years):
        return [line for line in lines if "(computed)" not in line] or [f"- {d.name}, average: not computed."]
    percent = d.percent and all(r[1].endswith("%") for r in results)
    values = [r[0] if percent else r[0] / 100 for r in results]  # results hold value x 100
    places = _places(question, 1 if percent else 2)
    mean = f"{_fmt(sum(values) / len(values), places)}{'%' if percent else ''}"
    markers = "".join(dict.fromkeys(m for r in results for m in re.findall(r"\[\^\d+\]", r[3])))
    lead = (f"- {d.name}, {len(years)}-year average, fiscal {years[0]}–{years[-1]} = "
            f"({' + '.join(r[1] for r in results)}) / {len(years)} = {mean} (computed) {markers}")
    return [lead, *lines]


def _points_lines(d: Derivation, question: str, results: list, lines: list[str]) -> list[str]:
    """The change of a ratio between two periods in percentage points, leading its two computations;
    when either period's is not computed, only the lines saying why (a single period's ratio is not
    the change asked)."""
    if len(results) != 2:
        return [line for line in lines if "(computed)" not in line] or [f"- {d.name} change: not computed."]
    (before, said_before, when_before, _), (after, said_after, when_after, _) = results
    places = _places(question, 1)
    markers = "".join(dict.fromkeys(m for r in results for m in re.findall(r"\[\^\d+\]", r[3])))
    lead = (f"- {d.name} change, {when_before} to {when_after} = {said_after} − {said_before} = "
            f"{_signed(after - before, places)} percentage points (computed) {markers}")
    return [lead, *lines]


def _amount_scale(inputs: list[Input]) -> str:
    """The scale word ("million") all of a computation's amount inputs are printed in, else ""."""
    rows = [i.match.row for i in inputs if i.match and i.match.row]
    scales = {scale_word(r.unit_caption) for r in rows}
    per_unit = any(r.item and (r.item.per_share or r.item.percent) for r in rows)
    return scales.pop() if len(scales) == 1 and not per_unit else ""


_MARGIN = re.compile(r"\bmargin\b", re.I)


def _not_the_figure(d: Derivation, question: str, value: float, percent: bool, inputs: list[Input]) -> str:
    """Why a computed value cannot be the figure asked ("" when it can): a margin outside ±100%, a
    percentage of a formula that divides nothing, inputs printed at different scales or in units
    that do not add (per share with amounts), or of columns of different spans."""
    if percent and _MARGIN.search(f"{d.name} {question}") and abs(value) > 1:
        return f"the result would be {_fmt(value * 100, 1)}%, outside ±100%, which no margin can be"
    if percent and d.formula.op != "/":
        return "the formula gives an amount, not a percentage"
    rows = [i.match.row for i in inputs if i.match and i.match.row]
    scales = {scale_word(r.unit_caption) for r in rows if not (r.item and (r.item.per_share or r.item.percent))}
    if len(scales - {""}) > 1:
        return f"its inputs are printed in different units ({', '.join(sorted(scales - {''}))})"
    kinds = {bool(r.item and r.item.per_share) for r in rows}
    if len(kinds) > 1 and d.formula.op in "+-":
        return "its inputs are printed in different units (per share and amounts)"
    spans = {column_months(c.period) for i in inputs if i.match for c in i.match.cells} - {None}
    if len(spans) > 1:
        return "its inputs are of columns of different periods"
    for k, one in enumerate(inputs):
        for other in inputs[k + 1:]:
            # two operands naming different line items read off one printed row: one of them is not printed
            # (or the same cells for two operands the question words apart: "Flexibles net sales / total net sales"
            # read as one "Net sales" row is 100%, no share)
            if one.match and other.match and one.match.row is other.match.row and (
                    _items_named(one.name) != _items_named(other.name) or _same_cells(one.match, other.match)):
                return f"{_said_name(one.name)} and {_said_name(other.name)} would both be the row “{one.match.row.label}”"
    return ""


def _same_cells(one, other) -> bool:
    return [(c.period, c.value) for c in one.cells] == [(c.period, c.value) for c in other.cells]


def _items_named(name: str) -> set[str]:
    return {a.item.concept for a in line_items.asked_items(name)} | set(re.findall(r"concept:(\w+)", name))


def _inputs_of_one_filing(names: list[str], at: AskedPeriod, rows: list[Row], sources, embedder) -> dict[str, Input]:
    """The inputs resolved within one filing (the first, in retrieval order, that prints them all;
    else the first filing's, with what it misses): never a ratio of two filings' rows."""
    docs = list(dict.fromkeys(r.source.doc_id for r in sorted(rows, key=lambda r: r.rank)))
    first: dict[str, Input] | None = None
    for doc in docs:
        own = [r for r in rows if r.source.doc_id == doc]
        inputs = {n: Input(n, _resolve(n, at, own, sources, embedder)) for n in names}
        if all(i.value is not None for i in inputs.values()):
            return inputs
        first = first or inputs
    return first or {n: Input(n, None) for n in names}


def _input_lines(inputs: list[Input]) -> list[str]:
    seen, out = set(), []
    for i in inputs:
        for cell in i.match.cells:
            key = (cell.row, cell.period, i.match.source.source_id)
            if key not in seen:
                seen.add(key)
                out.append(f"- {i.match.row.line(cell)}")
    # a blank line first: in Markdown a line right after a list item continues that item
    return ["", "Inputs, as printed:", *out] if out else []


def asks_change_amount(question: str) -> bool:
    """The question asks a change as an amount ("By how much did net sales decrease from 2021 to 2022?", "the dollar
    change in"), saying no rate, percent or points: the difference of the two periods' figures, not a growth rate."""
    return bool(_AMOUNT_CHANGE.search(question)) and not _RATE_WORDS.search(question)


def printed_change(question: str, rows: list[Row], sources: list[Source], period: AskedPeriod, embedder) -> str | None:
    """"By what percentage did Mac net sales change": the figure line of the % change the asked item's row
    prints for the asked years ("Mac (Change, Nine Months Ended July 1, 2023 vs. …): (24)%"), which answers
    before any computing; of a change asked as an amount, the change column printing an amount. None when the
    question asks no growth or the row prints no such change column."""
    if not asks_beyond_items(_GROWTH, question) or (series := _series_cells("growth", question, period, rows, sources,
                                                                             embedder)) is None:
        return None
    _, years, match, cells = series
    if match is None or any(y not in cells for y in years):
        return None
    old, new = cells[years[0]], cells[years[-1]]
    amount = asks_change_amount(question)
    change = _change_after(match.row.cells, old, new, CHANGE_BASIS.search(question), amount)
    if change is None:
        return None
    if not amount and not heads_change(change.period):  # a "%" column after the change's amount: the percent said as such
        change = replace(change, period="% change", value=change.value if "%" in change.value else f"{change.value}%")
    return f"- {match.row.line(replace(change, period=f'{change.period}, {new.period} vs. {old.period}'))}"


def _change_after(cells: list, old, new, basis=None, amount: bool = False):
    """The change column printed right after the two compared cells (no other period between), when it is a
    percentage (a "%" in its value or its title; with `amount`, when it is not): "2023 2022 Change" -> the Change
    cell; else None. Of several ("Inc/(Dec) | Constant currency"), the one of the basis the question names; with none
    named, the first that names no other basis (the reported change); a basis asked that no column names: None (no
    wrong basis)."""
    at = [i for i, c in enumerate(cells) if c is old or c is new]
    if len(at) != 2:
        return None
    found, after_change = [], False
    for cell in cells[max(at) + 1:]:
        # a column titled "%" alone right after a change column ("Inc/(Dec)  %") is that change in percent (the
        # period phrase spanning the header may be glued to it: "Quarters Ended December 31, %")
        bare_percent = after_change and cell.period.rstrip().endswith("%") and not YEAR_RE.search(cell.period)
        if not heads_change(cell.period) and not bare_percent:
            break  # another period's cell comes first: no change column of this pair
        after_change = True
        in_percent = "%" in cell.value or "%" in cell.period or bool(re.search(r"(?i)\bpercent", cell.period))
        # an amount asked: a change column printing no percentage (not the bare "%" column after it)
        if (heads_change(cell.period) and not in_percent) if amount else in_percent:
            found.append(cell)
    if basis is not None:
        return next((c for c in found if CHANGE_BASIS.search(c.period)), None)
    return next((c for c in found if not CHANGE_BASIS.search(c.period)), None)


def _series_cells(kind: str, question: str, period: AskedPeriod, rows, sources, embedder):
    """(item name, years, the row matched, year -> its cell) of a growth or an average asked, or None."""
    asked = [a for a in line_items.asked_items(question) if not a.item.formula]
    if not asked:
        return None
    # the words that name a part of the item right before it ("natural gas operating revenues")
    part = _PART_BEFORE.search(question[: asked[0].start])
    name = question[part.start() if part else asked[0].start:asked[0].end]
    years = sorted(period.years) or _latest_years(kind, question, name, period, rows, sources, embedder)
    if kind == "growth" and len(years) == 1:
        years = [years[0] - 1, years[0]]
    if kind == "cagr" and len(years) == 1 and (count := _years_counted(question)) >= 2:
        years = [years[0] - count + 1, years[0]]  # "the 3-year CAGR to FY2022": 2020 to 2022, as FinanceBench counts
    if kind == "cagr":
        years = years[:1] + years[-1:] if len(years) >= 2 else []  # its two ends
    if kind == "average" and len(years) < 2 or kind in ("growth", "cagr") and len(years) != 2:
        return None
    at = replace(period, years=tuple(years))
    match = _resolve(name, at, rows, sources, embedder)
    return name, years, match, {cell_years(c, at, match.row.shift)[-1]: c for c in match.cells} if match else {}


def _series_lines(kind: str, question: str, period: AskedPeriod, rows, sources, embedder) -> list[str] | None:
    """Growth between two years (or the change, asked as an amount), or the average over the named years, of the
    one item asked."""
    if (series := _series_cells(kind, question, period, rows, sources, embedder)) is None:
        return None
    name, years, match, cells = series
    if _CONTRIBUTION.search(question):
        return None  # "how much did price/mix add to net sales growth": a driver's share of the growth, not the growth
    missing = [str(y) for y in years if y not in cells]
    amount = kind == "growth" and asks_change_amount(question)
    what = "change" if amount else "growth" if kind == "growth" else "CAGR" if kind == "cagr" else "average"
    title = f"{name[:1].upper()}{name[1:]} {what}, {years[0]}–{years[-1]}"
    if missing:
        return [f"- {title}: not computed — {name}: no row for {', '.join(missing)} found on the cited pages."]
    values = [parse_number(cells[y].value) for y in years]
    if any(v is None for v in values) or kind == "growth" and not amount and not values[0]:
        return None
    if kind == "cagr" and not (values[0] > 0 and values[1] > 0):
        return [f"- {title}: not computed — a compound growth rate needs two positive amounts."]
    if kind in ("growth", "cagr") and (basis := CHANGE_BASIS.search(question)):
        # a growth asked on a basis ("in constant currency", "organic") is not the reported amounts' growth
        return [f"- {title}: not computed — the growth is asked “{basis.group(0)}”, and the printed amounts give "
                "the reported growth."]
    places = max(decimals(cells[y].value) for y in years)
    shown = [_fmt(v, places) for v in values]
    marker = match.source.source_id
    if amount:  # in the row's own unit: its caption's scale, or points of a percentage row
        change = values[1] - values[0]
        points = bool(match.row.item and match.row.item.percent) or "%" in cells[years[-1]].value
        unit = "percentage points" if points else _amount_scale([Input(name, match)])
        said = f"{_signed(change, _places(question, places))}{f' {unit}' if unit else ''}"
        line = f"- {title} = {shown[1]} − {shown[0]} = {said} (computed) {marker}"
    elif kind == "growth":
        result = _fmt((values[1] - values[0]) / abs(values[0]) * 100, _places(question, 1))
        line = f"- {title} = ({shown[1]} − {shown[0]}) / {shown[0]} = {result}% (computed) {marker}"
    elif kind == "cagr":
        span = years[1] - years[0]
        result = _fmt(((values[1] / values[0]) ** (1 / span) - 1) * 100, _places(question, 1))
        line = f"- {title} = ({shown[1]} / {shown[0]}) ^ (1 / {span}) − 1 = {result}% (computed) {marker}"
    else:
        result = _fmt(sum(values) / len(values), _places(question, places))
        line = f"- {title} = ({' + '.join(shown)}) / {len(values)} = {result} (computed) {marker}"
    inputs = [Input(name, FigureMatch(1.0, [cells[y]], match.source, match.row)) for y in years]
    return [line, *_input_lines(inputs)]


# up to three words right before a line item, after a possessive, an article or the question's verb
_PART_BEFORE = re.compile(r"(?:(?<=['’]s )|(?<=s['’] )|(?<=\bthe )|(?<=\bdid )|(?<=\bits ))(?:(?!(?:the|a|an|its|their|total|net|of|in|for|"
                          r"quarterly|annual|yearly|consolidated|reported|gaap|fiscal|overall|year[- ]over[- ]year|yoy|average|mean|"
                          r"growth|change|increase|decrease|percentage|percent|rate|cumulative|combined)\b)"
                          r"[A-Za-z][\w&-]* ){1,3}$", re.I)


def _named_before(before: str) -> str:
    """The figure a question names before its definition ("What was FedEx's quick ratio at May 31, 2023, i.e.
    …" -> "quick ratio"), or "the figure asked"."""
    name = _NAME_TAIL.sub("", _POSSESSIVE.sub("", before.strip(" ,"))).strip(" ,")
    return name if 0 < len(name) <= 60 else "the figure asked"


_LAST_YEARS = re.compile(r"\b(?:(\d|two|three|four|five)[- ](?:fiscal[- ])?years?|(?:last|past|latest) (\d|two|three|four|"
                         r"five) (?:fiscal )?years)\b", re.I)
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5}


def _years_counted(question: str) -> int:
    """The years a question counts ("the 3-year average", "the last two years"), 0 when none."""
    m = _LAST_YEARS.search(question)
    return (int(w) if (w := m.group(1) or m.group(2)).isdigit() else _NUMBER_WORDS[w.lower()]) if m else 0


def _latest_years(kind, question, name, period, rows, sources, embedder) -> list[int]:
    """No year named: the latest N years the row prints for "the 3-year average" / "the last two
    years", the latest two for "year-over-year growth"."""
    count = _years_counted(question) or 2 * (kind == "growth")
    match = _resolve(name, replace(period, years=()), rows, sources, embedder) if count >= 2 else None
    if match is None:
        return []
    latest = max((y for c in match.row.cells for y in cell_years(c, period, match.row.shift)), default=None)
    return list(range(latest - count + 1, latest + 1)) if latest else []  # years not printed are said missing


def derived_block(question: str, rows: list[Row], sources: list[Source], period: AskedPeriod, embedder,
                  printed_too: bool = False) -> list[str] | None:
    """The computed figure's lines (the result with its arithmetic and citations, then each input
    as printed), or a line saying which input is missing; None when the question asks no computation."""
    rows = rows_of_named_entity(rows, question)  # "PG&E Corporation's": not its utility's statements
    d = derivation(question, rows, sources, period, embedder, printed_too)
    if d is not None:
        lines = _formula_lines(d, question, period, rows, sources, embedder)
        if not any("(computed)" in line for line in lines) and \
                (named := named_derivation(question, rows, sources, period, embedder, printed_too)) is not None \
                and named.formula != d.formula and named.percent == d.percent:  # a margin asked: never an amount
            # the question's own wording of a ratio it also names ("days sales outstanding (average of
            # May 31 receivables / revenue x 365)") read no rows: the ratio's formula may
            alternative = _formula_lines(named, question, period, rows, sources, embedder)
            if any("(computed)" in line for line in alternative):
                return alternative
        return lines
    if asks_beyond_items(_CAGR, question):
        return _series_lines("cagr", question, period, rows, sources, embedder)
    if asks_beyond_items(_AVERAGE, question):
        return _series_lines("average", question, period, rows, sources, embedder)
    if asks_beyond_items(_GROWTH, question):
        return _series_lines("growth", question, period, rows, sources, embedder)
    return None


def defines_formula(question: str) -> bool:
    """The question defines the figure it asks ("X is defined as A / B", "EBITDA = A + B")."""
    return bool(_DEFINED.search(question))


def asks_beyond_items(rx: re.Pattern, question: str) -> bool:
    """`rx` matches the question outside the line items it names ("increase" of "net increase in
    cash" is the item, not a growth asked)."""
    spans = [(a.start, a.end) for a in line_items.asked_items(question)]
    return any(not any(s <= m.start() < e for s, e in spans) for m in rx.finditer(question))
