"""A question's "final quarter" / "last quarter of fiscal 2020" is its fiscal Q4, like "fourth quarter" and "Q4 FY20";
"last quarter" alone is the quarter before, not Q4."""

from __future__ import annotations

import pytest

from storage.retrieval.question_scope import question_scope


@pytest.mark.parametrize("question", [
    "What was revenue in the last quarter of fiscal 2020?",
    "What was revenue in the fourth quarter of fiscal 2020?",
    "What was revenue in Q4 FY20?",
    "What was revenue in the final quarter of FY2020?",
    "What was revenue in the final fiscal quarter of 2020?",
])
def test_the_last_quarter_of_a_year_is_its_fiscal_q4(question):
    assert question_scope(question).periods == [(2020, 4)]


def test_last_quarter_alone_is_not_q4():
    assert question_scope("How did 2020 revenue compare with last quarter?").periods == [(2020, None)]
