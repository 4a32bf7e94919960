"""bench/figure_misses.py names the stage of the answer path that lost a gold figure, on generated
statement PDFs read by layout: a row failing a named test of figure_rows.row_fits is attributed to
that test; a page the figure path did not read, a value no row prints, a year no column prints,
another row led, and a refusal between two rows of one label are told apart."""

from __future__ import annotations

from agent.no_model import figure_rows
from bench.figure_misses import attribute, stage_of
from storage.documents.embeddings import get_embedder
from tests.agent.no_model.pdf_statements import Page, statement_pdf  # noqa: F401 (fixture)

YEARS = ("2022", "2021")
CASH = Page("CONSOLIDATED STATEMENTS OF CASH FLOWS", YEARS, [
    ("Net income", "6,000", "5,500"),
    ("Changes in operating assets and liabilities:",),
    ("Inventories", "(412)", "(388)"),
    ("Net cash provided by operating activities", "8,123", "7,456"),
])
INCOME = Page("CONSOLIDATED STATEMENTS OF INCOME", YEARS, [
    ("Revenue", "$ 50,000", "$ 45,000"),
    ("Operating income", "9,000", "8,000"),
    ("Non-GAAP operating income", "9,700", "8,600"),
    ("Net income", "6,000", "5,500"),
])


def _gold(value, page, question):
    return {"file": "NORTHWIND_2022_10K.pdf", "page": page, "value": value, "question": question}


def _stage(statement_pdf, pages, question, value, page=0, sources_kept=None):
    sources, text = statement_pdf(pages)
    if sources_kept is not None:
        sources = [sources[i] for i in sources_kept]
    return stage_of(_gold(value, page, question), (question, sources, None), None, text, get_embedder())


def test_a_row_failing_a_named_row_test_is_attributed_to_that_test(statement_pdf):
    # inventories printed only as a change on the cash flow statement: not the balance asked
    stage, label = _stage(statement_pdf, [CASH], "What were inventories as of 2022?", "(412)")
    assert (stage, label) == ("row_fits:no_change_of_balance", "Inventories")
    # the non-GAAP row when the reported figure is asked
    stage, label = _stage(statement_pdf, [INCOME], "What was operating income in 2022?", "9,700")
    assert (stage, label) == ("row_fits:adjusted_as_asked", "Non-GAAP operating income")
    assert [name for name, _ in figure_rows.ROW_TESTS][:2] == ["adjusted_as_asked", "opening_as_asked"]


def test_stages_before_the_row_tests(statement_pdf):
    # the gold page (the second) is not among the pages read
    assert _stage(statement_pdf, [CASH, INCOME], "What was operating income in 2022?", "9,000", page=1,
                  sources_kept=[0])[0] == "gold page not retrieved"
    # no row of the page prints the gold value
    assert _stage(statement_pdf, [INCOME], "What was operating income in 2022?", "9,001")[0] == "no row of the gold value"
    # the gold value's column is 2021, the question asks 2022
    assert _stage(statement_pdf, [INCOME], "What was operating income in 2022?", "8,000")[0] == "period: another column"
    assert _stage(statement_pdf, [INCOME], "What was operating income in 2019?", "9,000")[0] \
        == "period: no column of the asked period"


def test_another_row_led(statement_pdf):
    # gold read (wrongly, for the test) off the revenue row: the operating income row leads
    stage, label = _stage(statement_pdf, [INCOME], "What was operating income in 2022?", "50,000")
    assert (stage, label) == ("another row chosen:not the item", "Revenue")


def test_counts_per_half_and_examples_of_the_tune_half_only(statement_pdf):
    sources, text = statement_pdf([CASH])
    q = "What were inventories as of 2022?"
    questions = [{"id": f"fig-{i}", "set": "figures", "doc_names": [stem], **_gold("(412)", 0, q)}
                 for i, stem in enumerate(("TUNECO_2022_10K", "CHECKCO_2022_10K"))]
    answers = [{"id": q_["id"], "message": "no figure"} for q_ in questions]
    turns = [(q, sources, None)] * 2
    out = attribute(questions, answers, turns, lambda item, message: "missing",
                    lambda stem: "tune" if stem.startswith("TUNE") else "check", page_text=text)
    assert out["tune"]["counts"] == {"missing: row_fits:no_change_of_balance": 1}
    assert out["check"]["counts"] == {"missing: row_fits:no_change_of_balance": 1}
    assert out["tune"]["examples"] and not out["check"]["examples"]


def test_a_fitting_row_best_row_passes_over_says_which_filter_dropped_it(statement_pdf):
    # the gold read off a row of another line item: no row of the item asked, and rows of known items
    # are never matched by label
    stage, label = _stage(statement_pdf, [INCOME], "What was total debt in 2022?", "9,000")
    assert (stage, label) == ("no row chosen: row of another item", "Operating income")
