"""The planted classes' registry (bench/claims.py CLAIM_CLASSES) names every class the generators write,
with the verdict they expect, and the report tallies by it."""

import ast
from pathlib import Path

import pytest

from bench.claims import CLAIM_CLASSES, CLASS_BY_NAME, hostile_table, sentence_key

ROOT = Path(__file__).resolve().parents[2]


def _written(module: str) -> set[tuple[str, bool, str]]:
    """(class, planted, function) of each `(sentence, "class", True|False)` tuple a generator writes."""
    out = set()
    for fn in (n for n in ast.walk(ast.parse((ROOT / module).read_text())) if isinstance(n, ast.FunctionDef)):
        for t in (n for n in ast.walk(fn) if isinstance(n, ast.Tuple) and len(n.elts) == 3):
            cls, flag = t.elts[1], t.elts[2]
            if isinstance(cls, ast.Constant) and isinstance(cls.value, str) and isinstance(flag, ast.Constant) \
                    and isinstance(flag.value, bool):
                out.add((cls.value, flag.value, fn.name))
    return out


def test_every_hostile_class_written_is_registered_with_its_verdict():
    written = _written("bench/claims_everyday.py") | {w for w in _written("bench/claims.py") if w[2] != "build_answers"}
    assert written, "the generators write labelled sentences"
    for name, planted, fn in written:
        assert name in CLASS_BY_NAME, name
        assert CLASS_BY_NAME[name].planted is planted, name
        assert any(g.endswith(fn) for g in CLASS_BY_NAME[name].generators), (name, fn)


def test_the_report_lists_each_class_once():
    assert len(CLASS_BY_NAME) == len(CLAIM_CLASSES)


def _case(file: str, *labels: tuple[str, str, bool], flagged: tuple[str, ...] = ()) -> tuple[dict, dict]:
    case = {"file": file, "labels": [list(label) for label in labels]}
    claims = [[sentence_key(s.removesuffix(" [^1].")), ["figure: not on the page"] if s in flagged else []] for s, _, _ in labels]
    return case, {"ms": 1.0, "claims": claims}


def test_the_tally_counts_each_registered_class_per_half_and_lists_tune_misses():
    rounded, wrong = "Net sales was about $394 billion [^1].", "Net sales was $394,328B [^1]."
    tune = _case("APPLE_2022_10K.pdf", (rounded, "rounding", False), (wrong, "wrong scale", True), flagged=(rounded,))
    check = _case("EBAY_2022_10K.pdf", (wrong, "wrong scale", True), flagged=(wrong,))
    result = hostile_table([tune[0], check[0]], [tune[1], check[1]])
    assert result["table"] == {CLASS_BY_NAME["rounding"]: {"tune": [1, 1]},
                               CLASS_BY_NAME["wrong scale"]: {"tune": [1, 0], "check": [1, 1]}}
    assert [(cls, flag) for cls, _, flag in result["misses"]] == [("rounding", ["figure: not on the page"]), ("wrong scale", [])]


@pytest.mark.parametrize("label", [("A sentence [^1].", "no such class", True), ("Net sales rose [^1].", "rounding", True)])
def test_the_tally_refuses_a_label_the_registry_does_not_know_or_gives_another_verdict(label):
    case, res = _case("APPLE_2022_10K.pdf", label)
    with pytest.raises(ValueError, match="not a registered claim class"):
        hostile_table([case], [res])
