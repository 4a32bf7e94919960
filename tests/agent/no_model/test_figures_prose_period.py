"""A sentence stating a figure with no period of its own ("Adjusted EBIT margin of 12.8% includes …") speaks of
its filing's own period: it answers a question asking another year's figure no more than a sentence naming another
year does (issue 27, releases: the fiscal 2023 release's margin given for the June 2022 quarter). Generated PDFs
read by layout; the filing's covered year is what its cover says (monkeypatched, as catalog would read it)."""

from __future__ import annotations

import pytest

from agent.no_model import figures
from agent.no_model.extractive import compose_extractive_answer
from agent.no_model.figures import NO_FIGURE
from bench.figures_gold import lead_line
from tests.agent.no_model.pdf_statements import Page, statement_pdf  # noqa: F401 (fixture)

INCOME = Page("CONDENSED CONSOLIDATED STATEMENTS OF INCOME", ("2023", "2022"), [
    ("Net sales", "3,673", "3,909"),
    ("Net income", "181", "282"),
], span="Three Months Ended June 30,")
ASKED = "What was Northwind's adjusted EBIT margin in the June 2022 quarter?"
NO_YEAR = "Adjusted EBIT margin of 12.8% includes an adverse impact of approximately 100 basis points from pass-through."


def _answer(question, sources, text, passage):
    sources[0].text = passage
    return compose_extractive_answer(question, sources, lambda s: passage + "\n" + text(s))[0]


@pytest.fixture
def covering(monkeypatch):
    def cover(year):
        monkeypatch.setattr(figures, "covered_years", lambda doc_id, fiscal: frozenset({year}))
    return cover


def test_a_sentence_without_a_period_answers_only_for_its_filings_period(statement_pdf, covering):
    sources, text = statement_pdf([INCOME], file="NORTHWIND_2023Q4_EARNINGS.pdf")
    covering(2023)
    other = _answer(ASKED, sources, text, NO_YEAR)
    assert NO_FIGURE in other.splitlines()[0] and lead_line(other) is None, other
    covering(2022)
    own = _answer(ASKED, sources, text, NO_YEAR)
    assert NO_FIGURE not in own and "12.8%" in (lead_line(own) or ""), own


def test_a_sentence_naming_another_year_does_not_answer(statement_pdf, covering):
    sources, text = statement_pdf([INCOME], file="NORTHWIND_2023Q4_EARNINGS.pdf")
    covering(2022)
    answer = _answer(ASKED, sources, text, "Adjusted EBIT margin was 12.8% in fiscal 2023, up from the prior year.")
    assert NO_FIGURE in answer.splitlines()[0] and lead_line(answer) is None, answer
