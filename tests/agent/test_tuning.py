"""The answer path's tunables live in agent/tuning.py (one object, each with its reason); modules keep only
named limits. A float constant declared in another agent module is a tunable hiding from that object."""

import ast
from pathlib import Path

import pytest
from pydantic import ValidationError

from agent.citations.legacy import pick
from agent.tuning import TUNING, AnswerTuning

AGENT = Path(__file__).resolve().parents[2] / "agent"


def _float_constants(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    found = []
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        value = getattr(node, "value", None)
        if isinstance(value, ast.UnaryOp):
            value = value.operand
        if isinstance(value, ast.Constant) and isinstance(value.value, float):
            found += [t.id for t in targets if isinstance(t, ast.Name)]
    return found


def test_no_agent_module_declares_a_float_tunable_of_its_own():
    found = [f"{p.relative_to(AGENT)}: {name}" for p in sorted(AGENT.rglob("*.py")) if p.name != "tuning.py"
             for name in _float_constants(p)]
    assert found == []


def test_the_scan_sees_a_float_constant(tmp_path):
    planted = tmp_path / "x.py"
    planted.write_text("WEIGHT = 0.4\nLIMIT = 3\nNEG: float = -0.1\n")
    assert _float_constants(planted) == ["WEIGHT", "NEG"]


def test_every_tunable_says_why():
    def fields(model):
        for name, field in type(model).model_fields.items():
            value = getattr(model, name)
            if isinstance(value, AnswerTuning.__mro__[1]):  # a nested group
                yield from fields(value)
            else:
                yield name, field
    missing = [name for name, field in fields(TUNING) if not (field.description or "").strip()]
    assert missing == []


def test_tuning_is_frozen_and_rejects_unknown_fields():
    with pytest.raises(ValidationError):
        TUNING.rows.min_row_score = 0.1
    with pytest.raises(ValidationError):
        AnswerTuning(rows={"min_rows_score": 0.1})


def test_marker_pick_uses_the_tuned_margin_unless_given_one():
    close = [0.50, 0.50 - TUNING.markers.min_margin / 2]
    assert pick(close) is None
    assert pick(close, min_margin=0.0) == 0
    assert pick([0.5, 0.5 - 2 * TUNING.markers.min_margin]) == 0
