"""Release and 10-Q forms (issue 27, the releases-more tune gold): a row label wrapped onto two lines
whose second line names no item ("Weighted Average Common Shares Outstanding," / "Diluted 2,139") is
read as the whole label; a figure question naming no line item of the vocabulary that no row answers
leads with "no figure is stated", not with a quoted passage's number, unless a quoted sentence says
the item asked with a figure ("41,000 … full-time employees"). Generated PDFs read by layout."""

from __future__ import annotations

from agent.no_model.extractive import compose_extractive_answer
from agent.no_model.figures import NO_FIGURE
from bench.figures_gold import lead_line
from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401 (fixture)

QUARTER = ("2023", "2022")
INCOME = Page("CONDENSED CONSOLIDATED STATEMENTS OF INCOME", QUARTER, [
    ("Total operating revenues", "5,290", "5,118"),
    ("Net Income", "410", "360"),
    ("Weighted Average Common Shares Outstanding,",),  # each row's label wrapped onto two lines
    ("Basic", "2,019", "1,987"),
    ("Weighted Average Common Shares Outstanding,",),
    ("Diluted", "2,139", "2,141"),
    ("Trust charges", "12", "10"),  # further down: its own label, whatever the reader's stale section
    ("Net Income Per Common Share, Basic", "$ 0.20", "$ 0.18"),
    ("Net Income Per Common Share, Diluted", "$ 0.19", "$ 0.17"),
], caption="(in millions, except per share amounts)", span="Three Months Ended June 30,")


def test_a_wrapped_share_count_label_is_read_whole(statement_pdf):
    sources, text = statement_pdf([INCOME], file="NORTHWIND_2023Q2_EARNINGS.pdf")
    lead = asked_lead("How many diluted weighted average common shares did Northwind have in Q2 2023?", sources, text)
    assert "Weighted Average Common Shares Outstanding, Diluted" in lead and "2,139" in lead, lead
    basic = asked_lead("What were Northwind's basic weighted average common shares outstanding in Q2 2022?", sources, text)
    assert "1,987" in basic and "Diluted" not in basic, basic
    charges = asked_lead("What were Northwind's trust charges in Q2 2023?", sources, text)
    assert charges.startswith("- Trust charges (") and "12" in charges, charges
    # the per-share rows keep their own labels under the wrapped section, and answer EPS
    eps = asked_lead("What was Northwind's diluted EPS in Q2 2023?", sources, text)
    assert "0.19" in eps and "Weighted" not in eps, eps


def _answer(question, sources, text):
    return compose_extractive_answer(question, sources, text)[0]


def test_an_unnamed_item_no_row_prints_leads_with_no_figure(statement_pdf):
    sources, text = statement_pdf([INCOME], file="NORTHWIND_2023Q2_EARNINGS.pdf")
    # the passage names the item's words but one, and its figure is another one's (free cash flow's)
    sources[0].text = "Free cash flow in the quarter was $834 million, helped by working capital."
    answer = _answer("What was the movement in working capital in Northwind's Q2 2023 free cash flow?", sources,
                     lambda s: sources[0].text + "\n" + text(s))
    first = answer.splitlines()[0]
    assert NO_FIGURE in first, answer
    assert lead_line(answer) is None  # no quoted number reads as the figure asked


def test_a_sentence_stating_the_unnamed_item_still_answers(statement_pdf):
    sources, text = statement_pdf([INCOME], file="NORTHWIND_2023Q2_EARNINGS.pdf")
    sources[0].text = "In fiscal 2023, 41,000 Northwind full-time employees worked in 218 locations."
    answer = _answer("How many full-time employees did Northwind have in fiscal 2023?", sources,
                     lambda s: sources[0].text + "\n" + text(s))
    assert NO_FIGURE not in answer and "41,000" in (lead_line(answer) or ""), answer
