"""The learned row scorer (agent/no_model/row_scorer.py): where the rules choose no row on a generated
statement page, its clear winner leads; it abstains when rows score alike; its weights load offline,
and without them the rules answer alone."""

from __future__ import annotations

import json
import logging

import numpy as np
import pytest

from agent.no_model import row_scorer
from agent.no_model.cited_rows import collect_rows
from agent.no_model.figure_periods import asked_period
from agent.no_model.figure_rows import best_row, make_ask
from agent.no_model.figures import INTRO, figure_block
from agent.no_model.release_columns import split_columns
from agent.tuning import TUNING
from storage.documents.embeddings import get_embedder
from tests.agent.no_model.pdf_statements import Page, statement_pdf  # noqa: F401 (fixture)

OPERATIONS = Page("CONSOLIDATED STATEMENTS OF OPERATIONS", ("2022", "2021"), [
    ("Revenues:",), ("Subscription and support", "28,120", "24,657"), ("Professional services and other", "1,902", "1,635"),
    ("Total revenues", "30,022", "26,292"), ("Cost of revenues:",), ("Subscription and support", "5,523", "4,588"),
    ("Professional services and other", "2,005", "1,768"), ("Total cost of revenues", "7,528", "6,356"),
    ("Gross profit", "22,494", "19,936"), ("Operating expenses:",), ("Research and development", "5,055", "4,465"),
    ("Marketing and sales", "13,526", "11,855"), ("General and administrative", "2,850", "2,598"),
    ("Total operating expenses", "21,431", "18,918"), ("Income from operations", "1,063", "1,018")])

# the question says the item in other words than its row ("sales and marketing", printed "Marketing and
# sales"): the rules choose no row; the printed row of the asked item is the scorer's clear winner
ASKED = "How much did Northwind spend on sales and marketing in 2022?"


ON = TUNING.model_copy(update={"rows": TUNING.rows.model_copy(update={"learned_rows": True})})


@pytest.fixture(autouse=True)
def scorer_on(monkeypatch):
    """The scorer ships off (TUNING.rows.learned_rows); these tests measure it on."""
    monkeypatch.setattr(row_scorer, "TUNING", ON)


def _rows(sources, page_text):
    return split_columns(collect_rows(sources, page_text))


def test_the_scorer_names_the_row_the_rules_leave(statement_pdf):
    sources, page_text = statement_pdf([OPERATIONS], fiscal=(2022, None), issuer="Northwind Inc.")
    ask = make_ask(ASKED, asked_period(ASKED), sources)
    assert best_row(ask, _rows(sources, page_text), get_embedder()) is None  # the rules: no row
    block = figure_block(ASKED, sources, page_text, get_embedder())
    assert block is not None and block[0] == INTRO and "Marketing and sales" in block[1] and "13,526" in block[1]
    # off: the rules alone, no figure
    off = TUNING.model_copy(update={"rows": TUNING.rows.model_copy(update={"learned_rows": False})})
    row_scorer.TUNING = off
    assert figure_block(ASKED, sources, page_text, get_embedder()) is None


def test_it_never_replaces_the_rules_row(statement_pdf):
    sources, page_text = statement_pdf([OPERATIONS], fiscal=(2022, None), issuer="Northwind Inc.")
    question = "What was total cost of revenues in 2021?"
    block = figure_block(question, sources, page_text, get_embedder())
    assert block is not None and "6,356" in block[1]


def test_it_abstains_when_rows_score_alike(statement_pdf, monkeypatch):
    assert row_scorer.clear_winner(np.array([0.48, 0.47, 0.05])) is None  # no margin
    assert row_scorer.clear_winner(np.array([0.55, 0.30, 0.15])) is None  # below the floor
    assert row_scorer.clear_winner(np.array([0.97, 0.02, 0.01])) == 0
    sources, page_text = statement_pdf([OPERATIONS], fiscal=(2022, None), issuer="Northwind Inc.")
    rows = _rows(sources, page_text)
    # "selling expenses": "Marketing and sales" and "Total operating expenses" both near, neither clear
    selling = "What were selling expenses in 2022?"
    ask = make_ask(selling, asked_period(selling), sources)
    assert best_row(ask, rows, get_embedder()) is None and row_scorer.scored_row(ask, rows, get_embedder()) is None
    # weights that tell no row from another: every candidate alike
    flat = np.zeros(len(row_scorer.FEATURES))
    monkeypatch.setattr(row_scorer, "load_weights", lambda path=None: flat)
    ask = make_ask(ASKED, asked_period(ASKED), sources)
    assert row_scorer.scored_row(ask, rows, get_embedder()) is None


def test_the_shipped_weights_load_offline():
    weights = row_scorer.load_weights()
    assert weights is not None and weights.shape == (len(row_scorer.FEATURES),) and np.isfinite(weights).all()
    data = json.loads(row_scorer.WEIGHTS.read_text())
    assert data["trained"]["questions"] > 0


def test_a_missing_file_leaves_the_rules_alone(statement_pdf, tmp_path, caplog):
    sources, page_text = statement_pdf([OPERATIONS], fiscal=(2022, None), issuer="Northwind Inc.")
    ask = make_ask(ASKED, asked_period(ASKED), sources)
    missing = tmp_path / "row_scorer.json"
    with caplog.at_level(logging.WARNING):
        assert row_scorer.load_weights(missing) is None
        assert row_scorer.scored_row(ask, _rows(sources, page_text), get_embedder(), missing) is None
    assert "rules alone" in caplog.text
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"features": ["x"], "weights": {"x": 1.0}}))
    assert row_scorer.load_weights(other) is None  # trained on other features
