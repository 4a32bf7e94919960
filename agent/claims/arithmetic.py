"""Arithmetic an answer shows, checked: a computed figure is true when its inputs are printed in the
cited sources (checked like any figure) and the arithmetic written beside it holds.

    "Gross margin, fiscal 2022 = gross profit 170,782 / net sales 394,328 = 43.3% (computed)"
    "average net sales 1,234.5 [(1,200 + 1,269) / 2]"

`check_arithmetic(sentence) -> (result spans that hold, [(arithmetic that does not, its result's span)])`. Words between
the numbers are labels and ignored ("gross profit 170,782"); of two numbers with no operator
between them the first is part of a label ("notes due 2026 1,000"). Operators: + − - × * / ÷ ^ and
parentheses or brackets; a percentage result holds when the value, or 100 times it, rounds to it.
"""

from __future__ import annotations

import re

from storage.finance import arithmetic

_TOKEN = re.compile(
    r"(?P<num>(?<![\w.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.])-?\d+(?:\.\d+)?)(?P<pct>%)?"
    r"|(?P<op>[+−×÷/*]|(?<!\[)\^)|(?<=\s)(?P<minus>-)(?=\s)|(?P<open>[(\[])|(?P<close>[)\]])"  # "[^1]": a citation
)
_BRACKETED = re.compile(r"(?P<result>-?\d[\d,]*(?:\.\d+)?%?)\s*\[(?P<expr>[^\]]+)\]")
_COUNT = re.compile(r"\)\s*/\s*(\d{1,2})(?![\d.,])")


class _Unreadable(ValueError):
    pass


def _tokens(text: str) -> list[str | float]:
    out: list[str | float] = []
    for m in _TOKEN.finditer(text):
        if m.group("num"):
            value = float(m.group("num").replace(",", ""))
            if out and isinstance(out[-1], float):
                out.pop()  # "due 2026 1,000": the first number belongs to the label
            out.append(value)
        elif m.group("op") or m.group("minus"):
            out.append(arithmetic.SIGNS[m.group("op") or "-"])
        elif m.group("open"):
            out.append("(")
        elif out and out[-1] == "(":
            out.pop()  # "(computed, not printed)": words in parentheses, no arithmetic
        else:
            out.append(")")
    return out


def evaluate(text: str) -> float:
    """The value of the arithmetic in `text` (labels ignored); raises ValueError when there is none."""
    tokens = _tokens(text)
    if not any(t in arithmetic.OPERATORS for t in tokens):
        raise _Unreadable("no operator")
    try:
        return arithmetic.evaluate(arithmetic.parse(tokens))
    except ZeroDivisionError as exc:
        raise _Unreadable("division by zero") from exc


def _holds(value: float, result: str) -> bool:
    digits = result.rstrip("%").replace(",", "")
    places = len(digits.split(".")[1]) if "." in digits else 0
    stated, tolerance = abs(float(digits)), 0.5 * 10 ** -places + 1e-9
    candidates = (value, value * 100) if result.endswith("%") else (value,)
    return any(abs(abs(round(v, 12)) - stated) <= tolerance for v in candidates)


def _first_number(text: str) -> re.Match | None:
    return re.search(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?%?", text)


def check_arithmetic(sentence: str) -> tuple[list[tuple[int, int]], list[tuple[str, tuple[int, int]]]]:
    """(spans of results whose shown arithmetic holds, [(arithmetic that does not hold, its result's span)])."""
    held: list[tuple[int, int]] = []
    wrong: list[tuple[str, tuple[int, int]]] = []

    def verdict(expr: str, result: str, span: tuple[int, int], shown: tuple[int, int]) -> None:
        try:
            value = evaluate(expr)
        except ValueError:
            return
        if _holds(value, result):
            held.append(span)
            # the count an average divides by ("(a + b + c) / 3") is no printed figure
            held.extend((shown[0] + d.start(1), shown[0] + d.end(1)) for d in _COUNT.finditer(sentence[shown[0]:shown[1]]))
        else:
            wrong.append((f"{' '.join(expr.split())} = {result}", span))

    for m in _BRACKETED.finditer(sentence):
        verdict(m.group("expr"), m.group("result"), m.span("result"), m.span("expr"))
    bounds = [0] + [m.end() for m in re.finditer("=", sentence)]
    segments = [(bounds[i], (bounds[i + 1] - 1) if i + 1 < len(bounds) else len(sentence)) for i in range(len(bounds))]
    for (s1, e1), (s2, e2) in zip(segments, segments[1:]):
        result = _first_number(sentence[s2:e2])
        expr = _BRACKETED.sub(lambda b: b.group("result"), sentence[s1:e1])
        if result is not None:
            verdict(expr, result.group(0), (s2 + result.start(), s2 + result.end()), (s1, e1))
    return held, wrong
