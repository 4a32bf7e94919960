"""The row scorer's training recipe (bench/train_row_scorer.py): tune-issuer filings only, seeded phrasings."""

from __future__ import annotations

import json
import random

import numpy as np

from bench.scorer_data import held_out_issuers
from bench.train_row_scorer import item_phrase, train, training_filings


def _manifest(destination, stem: str) -> None:
    folder = destination / f"{stem}-0123456789ab"
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text(json.dumps({"source_file": f"{stem}.pdf"}))


def test_no_check_issuer_filing_is_read(tmp_path):
    check = sorted(held_out_issuers())
    assert {"EBAY", "INTEL", "MCDONALDS", "PAYPAL", "SALESFORCE"} <= set(check)
    for stem in ("APPLE_2022_10K", "PG_E_2016_10K", "BOEING_2019_10K", *(f"{c}_2022_10K" for c in check)):
        _manifest(tmp_path, stem)
    read = {json.loads(m.read_text())["source_file"] for m in training_filings(tmp_path)}
    assert read == {"APPLE_2022_10K.pdf", "PG_E_2016_10K.pdf", "BOEING_2019_10K.pdf"}


def test_item_phrases_are_the_label_its_section_or_a_word_short():
    rng = random.Random(3)
    phrases = {item_phrase("Purchases of property and equipment (1)", "Investing activities:", rng) for _ in range(60)}
    assert "Purchases of property and equipment" in phrases  # the footnote mark dropped
    assert any("Investing activities" in p for p in phrases)
    assert any(len(p.split()) == 4 for p in phrases)  # one word left out
    assert all("(1)" not in p for p in phrases)


def test_training_learns_the_row_the_features_point_to():
    # two features: the first marks the positive, the second is noise
    rng = np.random.default_rng(0)
    data = []
    for _ in range(50):
        x = rng.normal(size=(5, 2))
        y = int(rng.integers(5))
        x[y, 0] += 3.0
        data.append({"x": x, "y": y})
    w = train(data, steps=300)
    assert w[0] > 1.0 and abs(w[1]) < w[0] / 3
