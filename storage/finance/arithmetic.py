"""Four-operator arithmetic (+ - * / and parentheses) and a power ("^": a compound annual growth rate's root), the
one grammar both the claim check
(agent/claims/arithmetic.py: numbers in an answer) and the derived figures (agent/no_model/derived_figures.py:
row names in a formula) read.

    term = parse([170782.0, "/", 394328.0])        # Term("/", Term(operand=170782.0), Term(operand=394328.0))
    evaluate(term)                                  # 0.4331...
    operands(parse(["(", "net sales", "-", "cost of sales", ")", "/", "net sales"]))

Callers tokenize their own text: a token is an operator ("+", "-", "*", "/", "(", ")") or an operand (a number,
a row name: anything else, kept as given). Python's `ast` parses the operators with each operand replaced
by a placeholder name, and only binary +, -, *, / over those names is accepted (no eval): a unary sign,
a call, an empty or unclosed parenthesis, two operands side by side are `UnreadableArithmetic`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

OPERATORS = ("+", "-", "*", "/", "^")
# the signs an answer writes for each operator ("×", "÷", the minus sign), and the words a formula says them with
# ("divided by", "over", "times", "plus", "less"; a dash is "minus" only between spaces: "long-term" is one name)
SIGNS = {"+": "+", "−": "-", "-": "-", "×": "*", "*": "*", "/": "/", "÷": "/", "^": "^"}
WORDS = [(re.compile(r"\bdivided by\b|÷|\bover\b|/", re.I), "/"),
         (re.compile(r"\bmultiplied by\b|\btimes\b|×|\*|(?<=\s)x(?=\s)", re.I), "*"),
         (re.compile(r"\bplus\b|\+", re.I), "+"),
         # "Long-term debt, less current portion" is a row's label, not a subtraction
         (re.compile(r"\bminus\b|\bless\b(?!:?\s+(?:the\s+)?current\s+(?:portion|maturities)\b)|(?<=\s)[-–—−](?=\s)", re.I), "-")]
# the verbs a change is said with ("rose", "decreased", "fell"): a figure after them (and "by") is the change, not
# the level; whole words, so "risks by" or "rosters" is none (the claim check's directions and the figure answers' reading)
RISE_WORDS = r"rose|rise[sn]?|rising|increased?|increasing|grew|grow(?:s|n|ing)?|climbed?|gain(?:ed|s)?|up|higher|improved?|jumped?|expanded|widened"
FALL_WORDS = (r"fell|fall(?:s|en|ing)?|decreased?|decreasing|declined?|declining|dropped|drops?|down|lower|shrank|shrunk|slipped|"
              r"reduced|narrowed|contracted")
_SYNTAX = (*OPERATORS, "(", ")")
_BINARY = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "^"}


class UnreadableArithmetic(ValueError):
    """Tokens that are not four-operator arithmetic."""


@dataclass(frozen=True)
class Term:
    """An operator over two terms, or (op "") one operand as the caller gave it."""

    op: str = ""
    left: Term | None = None
    right: Term | None = None
    operand: Any = None


def parse(tokens: Sequence[Any]) -> Term:
    """The tree of `tokens` (operators as strings, operands anything else), with the usual precedence and
    left associativity; raises UnreadableArithmetic when they are not arithmetic."""
    names, values = [], []
    for token in tokens:
        if isinstance(token, str) and token in _SYNTAX:
            names.append("**" if token == "^" else token)
        else:
            names.append(f"_{len(values)}")
            values.append(token)
    try:
        tree = ast.parse(" ".join(names), mode="eval")
    except (SyntaxError, RecursionError, MemoryError) as exc:  # MemoryError: CPython's parser on deep nesting
        raise UnreadableArithmetic(f"not arithmetic: {' '.join(map(str, tokens))!r}") from exc
    return _term(tree.body, values)


def _term(node: ast.AST, values: list[Any]) -> Term:
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return Term(_BINARY[type(node.op)], _term(node.left, values), _term(node.right, values))
    if isinstance(node, ast.Name) and node.id.startswith("_") and node.id[1:].isdigit():
        return Term(operand=values[int(node.id[1:])])
    raise UnreadableArithmetic(f"unexpected {type(node).__name__}")


def evaluate(term: Term, value: Callable[[Any], float] = float) -> float:
    """The value of `term`, each operand read by `value`; raises ZeroDivisionError on a division by zero."""
    if not term.op:
        return value(term.operand)
    a, b = evaluate(term.left, value), evaluate(term.right, value)
    if term.op == "/" and b == 0:
        raise ZeroDivisionError("division by zero")
    return apply(term.op, a, b)


def apply(op: str, a: float, b: float) -> float:
    """`a op b` for one of OPERATORS (a division by zero is the caller's to refuse; here it is 0.0; a root of a
    negative number is no real number: 0.0 too)."""
    if op == "^":
        return float(a ** b) if a > 0 or float(b).is_integer() else 0.0
    return {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else 0.0}[op]


def operands(term: Term) -> list[Any]:
    """The operands of `term`, left to right."""
    if not term.op:
        return [term.operand]
    return [*operands(term.left), *operands(term.right)]
