"""A quoted sentence stands for the figure asked only when it states the asked measure, as a table row must
(issue 27, "a missing figure is better than a wrong one"): the company's adjusted EBIT margin is not a segment's
the question names, the non-GAAP ("core") earnings are not the GAAP earnings asked, and the total a reconciling line
moves is not that line. Otherwise the answer says no figure is stated before quoting them. Generated PDFs read by
layout; the filing's covered year is what its cover says (monkeypatched, as catalog would read it)."""

from __future__ import annotations

import pytest

from agent.no_model import figures
from agent.no_model.extractive import compose_extractive_answer
from agent.no_model.figures import NO_FIGURE
from bench.figures_gold import lead_line
from tests.agent.no_model.pdf_statements import Page, statement_pdf  # noqa: F401 (fixture)

SALES = Page("CONDENSED CONSOLIDATED STATEMENTS OF INCOME", ("2023", "2022"), [
    ("Net sales", "3,673", "3,909"),
    ("Cost of sales", "2,950", "3,120"),
], span="Three Months Ended June 30,")
RELEASE = "NORTHWIND_2023Q4_EARNINGS.pdf"


@pytest.fixture
def answer(statement_pdf, monkeypatch):
    """answer(question, passage, file) -> the no-model answer over a generated page and one quoted passage, the
    filing covering 2023."""
    monkeypatch.setattr(figures, "covered_years", lambda doc_id, fiscal: frozenset({2023}))

    def ask(question: str, passage: str, file: str = RELEASE) -> str:
        sources, text = statement_pdf([SALES], file=file)
        sources[0].text = passage
        return compose_extractive_answer(question, sources, lambda s: passage + "\n" + text(s))[0]
    return ask


def _no_figure(answer: str) -> bool:
    return NO_FIGURE in answer.splitlines()[0] and lead_line(answer) is None


def test_the_companys_margin_is_not_the_named_segments(answer):
    asked = "What was Rigid Widgets' adjusted EBIT margin in the three months ended June 30, 2023?"
    company = answer(asked, "Adjusted EBIT margin of 12.8% includes an adverse impact of approximately 100 basis points.")
    assert _no_figure(company), company
    segment = answer(asked, "Rigid Widgets adjusted EBIT margin was 9.1%, down from the prior year on lower volumes.")
    assert "9.1%" in (lead_line(segment) or ""), segment


def test_non_gaap_earnings_are_not_the_gaap_earnings_asked(answer):
    asked = "What were Northwind's GAAP earnings in the second quarter of 2023, before non-core items?"
    for file in (RELEASE, "NORTHWIND_2023Q2_10Q.pdf"):  # "earnings" a word of the file's name, or not
        core = answer(asked, "Northwind's non-GAAP core earnings, which exclude non-core items, were $494 million in the "
                             "second quarter of 2023.", file)
        assert _no_figure(core), core
        items = answer(asked, "Non-core items, which management does not consider representative of ongoing earnings, "
                              "totaled $88 million after tax in the second quarter of 2023.", file)
        assert _no_figure(items), items
        gaap = answer(asked, "Northwind's earnings were $406 million in the second quarter of 2023.", file)
        assert "406" in (lead_line(gaap) or ""), gaap


def test_the_total_is_not_the_reconciling_line_asked(answer):
    asked = "How many points of currency impact were in Northwind's adjusted EBIT growth for the June 2023 quarter?"
    total = answer(asked, "Adjusted EBIT margin of 12.8% includes an adverse impact of approximately 100 basis points.")
    assert _no_figure(total), total
    assert "prints the figure asked" in total.splitlines()[0]  # the line's figure is missing, not the total
    line = answer(asked, "Currency impact was 2 points of the adjusted EBIT growth in the quarter.")
    assert lead_line(line) is not None and "2 points" in lead_line(line), line
