"""The planted classes' registry (bench/claims.py CLAIM_CLASSES) names every class the generators write,
with the verdict they expect."""

import ast
from pathlib import Path

from bench.claims import CLAIM_CLASSES, CLASS_BY_NAME, PLANTED_CLASSES, TRUE_FORMS

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


def test_the_report_lists_each_class_once_in_its_half():
    assert len(CLASS_BY_NAME) == len(CLAIM_CLASSES)
    assert set(PLANTED_CLASSES) | set(TRUE_FORMS) == set(CLASS_BY_NAME)
    assert not set(PLANTED_CLASSES) & set(TRUE_FORMS)
