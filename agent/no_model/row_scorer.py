"""A learned fallback for the figure row (issue 27): where the rules of agent/no_model/figure_rows.py
choose no row, a small softmax over the page's candidate rows may still name one, if it is a clear winner.

    match = scored_row(ask, rows, embedder)   # asked by agent/no_model/figures.py only where the rules answer nothing

Candidates are the rows whose cells of the asked period and unit fit (`cells_for`, `unit_fits`); each is
described by `features` (words of the question's line item printed with the row, MiniLM similarity of the
question and the label / the section and label, line-item knowledge, statement, rank). The weights are
learnt by `python -m bench.train_row_scorer` from questions generated on tune-issuer filings only and
stored in row_scorer.json next to this module; a missing or unreadable file leaves the rules alone (logged
once). The scorer never changes a row the rules chose; it leads only when its probability reaches
`TUNING.rows.learned_min_probability` and beats the runner-up by `learned_margin`.
"""

from __future__ import annotations

import json
import logging
from functools import lru_cache
from pathlib import Path

import numpy as np

from storage.finance import line_items
from storage.retrieval.question_scope import without_periods
from agent.no_model.cited_rows import Row
from agent.no_model.figure_rows import (_TOTAL, Ask, FigureMatch, _ambiguous, _names_item, _words, column_choice,
                                        columns_said, row_fits, segment_words, unit_fits)
from agent.tuning import TUNING

log = logging.getLogger(__name__)

WEIGHTS = Path(__file__).with_name("row_scorer.json")
FEATURES = ("label_cover", "question_cover", "residue_cover", "label_extra", "cos_label", "cos_context",
            "cos_label_gap", "cover_gap", "known_item", "answers_item", "other_item", "primary", "total_agrees",
            "rank", "rules_fit", "context_said", "context_extra", "section_names_item")


def candidates(ask: Ask, rows: list[Row]) -> list[tuple[Row, list]]:
    """The rows whose cells of the asked period and unit fit: what the scorer is trained to choose among."""
    prefer = column_choice(ask)
    return [(r, cells) for r in rows if (cells := r.cells_for(ask.period, prefer)) and unit_fits(r, cells, ask)]


def _meaning_fits(ask: Ask, fitting: list[tuple[Row, list]], rows: list[Row]) -> list[tuple[Row, list]]:
    """Of the candidates, those every row test lets stand (figure_rows.ROW_TESTS: a "no" of theirs says
    what a row means — a segment's, an adjusted, another part's — and stands) and, when a known line
    item is asked, no row of another known item ("Net sales" is never the gross profit asked) and none
    missing the question's other words ("impairment"); else a
    row of no known item ("Goodwill" answers no "goodwill impairment") that prints some of the question's
    line-item words in its label ("Operating lease liabilities" is no "long-term debt")."""
    segments = segment_words(rows)
    item = ask.items[0] if ask.items else None
    return [(r, c) for r, c in fitting if row_fits(r, ask, segments, c)
            and (line_items.answers(r.item, item) and ask.residue <= _words(f"{r.label} {r.context}") | columns_said(c)
                 if item is not None and r.item is not None
                 else r.item is None and bool(ask.own & _words(r.label)))]


def features(ask: Ask, fitting: list[tuple[Row, list]], embedder, rows: list[Row] | None = None) -> np.ndarray:
    """One row of `FEATURES` per candidate (the gaps are to the best candidate of the question)."""
    if not fitting:
        return np.zeros((0, len(FEATURES)))
    segments = segment_words(rows if rows is not None else [r for r, _ in fitting])
    texts = [without_periods(ask.text)] + [r.label for r, _ in fitting] + [f"{r.context} {r.label}".strip() for r, _ in fitting]
    vectors = embedder.embed(texts)
    n = len(fitting)
    cos_label, cos_context = vectors[1:n + 1] @ vectors[0], vectors[n + 1:] @ vectors[0]
    own = ask.own or frozenset(_words(ask.text))
    asked_total = bool(_TOTAL.search(ask.text))
    out = []
    for (row, cells), cl, cc in zip(fitting, cos_label, cos_context):
        label = _words(row.label)
        said = label | _words(row.context) | columns_said(cells)
        item = ask.items[0] if ask.items else None
        answers = bool(item and row.item is not None and line_items.answers(row.item, item))
        out.append([
            len(label & own) / len(label) if label else 0.0,
            len(said & own) / len(own) if own else 0.0,
            len(said & ask.residue) / len(ask.residue) if ask.residue else 1.0,
            len(label - own - ask.glossary) / len(label) if label else 1.0,
            float(cl), float(cc), 0.0, 0.0,
            float(row.item is not None), float(answers), float(bool(item and row.item is not None and not answers)),
            float(row.primary), float(asked_total == bool(_TOTAL.search(row.label))),
            min(row.rank, 10) / 10, float(row_fits(row, ask, segments, cells)),
            float(bool(own & _words(row.context) - label)),
            # the section's words the question does not say: "Subscription and support" under "Cost of revenues:"
            len(section - own) / len(section) if (section := _words(row.cells[0].section)) else 0.0,
            float(bool(item) and _names_item(row.cells[0].section, item)),
        ])
    x = np.array(out)
    x[:, FEATURES.index("cos_label_gap")] = x[:, FEATURES.index("cos_label")] - x[:, FEATURES.index("cos_label")].max()
    x[:, FEATURES.index("cover_gap")] = x[:, FEATURES.index("question_cover")] - x[:, FEATURES.index("question_cover")].max()
    return x


def probabilities(x: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Softmax over a question's candidates of the linear scores."""
    s = x @ weights
    e = np.exp(s - s.max())
    return e / e.sum()


@lru_cache(maxsize=4)
def load_weights(path: Path = WEIGHTS) -> np.ndarray | None:
    """The trained weights, None (logged once) when the file is missing, unreadable or of other features."""
    try:
        data = json.loads(path.read_text())
        if tuple(data["features"]) != FEATURES:
            raise ValueError("trained on other features")
        return np.array([data["weights"][f] for f in FEATURES], dtype=float)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("row scorer weights %s not used (%s): figure rows are chosen by the rules alone", path, exc)
        return None


def clear_winner(p: np.ndarray) -> int | None:
    """The candidate whose probability reaches the floor and leads the runner-up by the margin, else None."""
    tune = TUNING.rows
    if not len(p):
        return None
    order = np.argsort(-p)
    second = p[order[1]] if len(p) > 1 else 0.0
    best = int(order[0])
    return best if p[best] >= tune.learned_min_probability and p[best] - second >= tune.learned_margin else None


def scored_row(ask: Ask, rows: list[Row], embedder, path: Path = WEIGHTS) -> FigureMatch | None:
    """The scorer's clear winner among the candidates, None when there is none or no weights."""
    if not TUNING.rows.learned_rows or not ask.own or (weights := load_weights(path)) is None:
        return None
    # the probability is over every candidate (as trained); the winner must also be a row whose meaning fits
    fitting = candidates(ask, rows)
    if not fitting:
        return None
    pick = clear_winner(probabilities(features(ask, fitting, embedder, rows), weights))
    if pick is None or not _meaning_fits(ask, fitting[pick:pick + 1], rows):
        return None
    row, cells = fitting[pick]
    return None if _ambiguous(row, cells, fitting) else FigureMatch(1.0, cells, row.source, row)
