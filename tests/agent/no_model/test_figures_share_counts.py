"""A per-share figure asked is never answered by a row of share counts (issue 27: "$16,325,819 per
share" led for diluted EPS): "Diluted" under "Shares used in computing earnings per share" is a count.
Generated PDFs read by layout."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, statement_pdf, asked_block, asked_lead  # noqa: F401 (fixture)

YEARS = ("2023", "2022")
INCOME = Page("CONSOLIDATED STATEMENTS OF OPERATIONS", YEARS, [
    ("Net sales", "$ 81,797", "$ 82,959"),
    ("Net income", "$ 19,881", "$ 19,442"),
    ("Earnings per share:",),
    ("Basic", "$ 1.27", "$ 1.20"),
    ("Diluted", "$ 1.26", "$ 1.19"),
    ("Shares used in computing earnings per share:",),
    ("Basic", "15,697,614", "16,162,945"),
    ("Diluted", "15,775,021", "16,262,203"),
])
COUNTS_ONLY = Page("NOTE 9 - EARNINGS PER SHARE", YEARS, [
    ("Net income", "$ 19,881", "$ 19,442"),
    ("Weighted-average shares outstanding:",),
    ("Basic", "15,697,614", "16,162,945"),
    ("Diluted", "15,775,021", "16,262,203"),
    ("Dividends paid", "(793)", "(1,177)"),
])


def test_a_share_count_never_answers_a_per_share_question(statement_pdf):
    sources, text = statement_pdf([COUNTS_ONLY])
    for question in ("What was Northwind's diluted EPS in fiscal 2023?",
                     "How much did Northwind earn per diluted share in fiscal 2023?"):
        block = asked_block(question, sources, text) or []
        assert not any("15,775,021" in line for line in block), (question, block)


def test_the_per_share_row_still_answers_beside_the_counts(statement_pdf):
    sources, text = statement_pdf([INCOME])
    assert "1.26" in asked_lead("What was Northwind's diluted EPS in fiscal 2023?", sources, text)
    lead = asked_lead("How many diluted shares were used in computing Northwind's 2023 earnings per share?", sources, text)
    assert "1.26" not in lead, lead  # a count asked is not the per-share row
