"""A table's lead-in is the last sentence of the prose above it (agent/no_model/cited_rows.last_sentence), one
reading for the table intros of the answer's rows and the caption above a due-year schedule (due_years)."""

from __future__ import annotations

import pytest

from agent.no_model import cited_rows, due_years


@pytest.mark.parametrize("lines, sentence", [
    (["The notes were repaid in 2023. Future principal payments at", "June 30, 2024 were as follows (in millions):"],
     "Future principal payments at June 30, 2024 were as follows (in millions):"),
    (["Leases expire through 2040; (a) renewal options are excluded.", "Maturities are as follows:"],
     "Maturities are as follows:"),
    (["Fees rose 5 vs. 2022 and 3.5% in total:"], "Fees rose 5 vs. 2022 and 3.5% in total:"),  # no capital after
    (["  The following table shows expense:  "], "The following table shows expense:"),
])
def test_the_last_sentence_of_prose_lines(lines, sentence):
    assert cited_rows.last_sentence(lines) == sentence


def test_due_years_reads_the_caption_with_the_same_sentence_split():
    assert due_years.cited_rows.last_sentence is cited_rows.last_sentence
    assert not hasattr(due_years, "_SENTENCE_END")
