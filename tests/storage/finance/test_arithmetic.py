"""The one four-operator arithmetic parser (storage/finance/arithmetic.py), and the two callers that read
through it: the claim check's shown arithmetic (numbers) and the derived figures' formulas (row names)."""

from __future__ import annotations

import pytest

from agent.claims.arithmetic import evaluate as evaluate_shown
from agent.no_model.derived_figures import FormulaError, parse_formula
from storage.finance.arithmetic import SIGNS, WORDS, Term, UnreadableArithmetic, apply, evaluate, operands, parse


def test_precedence_associativity_and_parentheses():
    assert evaluate(parse([10.0, "-", 4.0, "-", 3.0])) == 3.0  # left to right
    assert evaluate(parse([2.0, "+", 3.0, "*", 4.0])) == 14.0
    assert evaluate(parse(["(", 2.0, "+", 3.0, ")", "*", 4.0])) == 20.0
    assert evaluate(parse([8.0, "/", 4.0, "/", 2.0])) == 1.0
    assert parse(["a", "-", "b", "*", 2.0]) == Term("-", Term(operand="a"), Term("*", Term(operand="b"), Term(operand=2.0)))


def test_operands_are_kept_as_given_and_read_by_the_caller():
    term = parse(["(", "net sales", "-", "cost of sales", ")", "/", "net sales"])
    assert operands(term) == ["net sales", "cost of sales", "net sales"]
    rows = {"net sales": 200.0, "cost of sales": 150.0}
    assert evaluate(term, rows.__getitem__) == 0.25
    assert evaluate(parse(["7"])) == 7.0  # one operand is arithmetic too (the callers ask for an operator)


@pytest.mark.parametrize("tokens", [
    [], ["+", 1.0], [1.0, "/"], ["-", 1.0, "+", 2.0], [1.0, "+", "+", 2.0], ["(", 1.0, "+", 2.0], [1.0, ")"],
    ["(", ")"], [1.0, 2.0], [1.0, "(", 2.0, ")"], ["(", 1.0, ")", "(", 2.0, ")"], ["(", ")", "*", 2.0],
])
def test_anything_but_binary_arithmetic_is_unreadable(tokens):
    with pytest.raises(UnreadableArithmetic):
        parse(tokens)


def test_operands_are_never_code():
    """An operand is a placeholder to the parser: text that is Python stays a row name."""
    term = parse(["__import__('os').system('x')", "+", "1"])
    assert operands(term) == ["__import__('os').system('x')", "1"]
    with pytest.raises(ValueError):
        evaluate(term)  # float() of the name, the caller's reader: never run


def test_deep_nesting_is_unreadable_not_a_crash():
    with pytest.raises(UnreadableArithmetic):
        parse(["("] * 500 + [1.0] + [")"] * 500)


def test_division_by_zero_raises():
    with pytest.raises(ZeroDivisionError):
        evaluate(parse([1.0, "/", "(", 2.0, "-", 2.0, ")"]))


def test_both_callers_read_the_same_arithmetic_the_same_way():
    assert evaluate_shown("(1,200 + 1,269) / 2") == 1234.5
    assert evaluate_shown("gross profit 170,782 / net sales 394,328") == pytest.approx(170782 / 394328)
    tree = parse_formula("(a plus b) / 2")
    assert (tree.op, tree.left.op, tree.right.text) == ("/", "+", "2")
    for shown, formula in (("1 + 2 )", "a plus b )"), ("( 1 + 2", "( a plus b"), ("1 /", "a /")):
        with pytest.raises(ValueError):
            evaluate_shown(shown)
        with pytest.raises(FormulaError):
            parse_formula(formula)
    with pytest.raises(ValueError, match="division by zero"):
        evaluate_shown("5 / (2 - 2)")
    with pytest.raises(ValueError, match="no operator"):
        evaluate_shown("net sales 394,328")


def test_the_operators_signs_and_words_have_one_table():
    """An answer's signs ("×", "÷", "−") and a formula's words ("divided by", "less") name the four operators;
    both callers read them from storage/finance/arithmetic.py, and `apply` is the one evaluation of an operator."""
    assert {SIGNS[s] for s in "+−-×*/÷"} == set("+-*/") and SIGNS["×"] == "*" and SIGNS["÷"] == "/"
    said = {text: next((op for rx, op in WORDS if rx.search(text)), None)
            for text in ("operating income divided by interest expense", "net sales less cost of sales",
                         "shares times price", "cash plus investments", "long-term debt", "a - b")}
    assert said == {"operating income divided by interest expense": "/", "net sales less cost of sales": "-",
                    "shares times price": "*", "cash plus investments": "+", "long-term debt": None, "a - b": "-"}
    assert [apply(op, 6.0, 3.0) for op in "+-*/"] == [9.0, 3.0, 18.0, 2.0]
    assert evaluate_shown("6 × 3 − 2 ÷ 1") == 16.0


def test_a_power_is_a_compound_growth_rates_root():
    """"^" raises to a power (a CAGR's "(last / first) ^ (1 / years) − 1"), above * and /; both callers read it, and
    a root of a negative number is no figure."""
    assert evaluate(parse([2.0, "*", 3.0, "^", 2.0])) == 18.0
    assert evaluate_shown("(34,229 / 26,492) ^ (1 / 2) − 1") == pytest.approx((34229 / 26492) ** 0.5 - 1)
    assert apply("^", -4.0, 0.5) == 0.0 and apply("^", -2.0, 2.0) == 4.0
