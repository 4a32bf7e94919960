"""A row whose label says "per share" under a caption scaling the table's amounts ("(in millions)") is a per-share
figure: "Weighted-average grant-date fair value per share" is no weighted-average share count, so its value is said
"$80.21 per share", never "$80.21 million"; the share count's row beside it is still a count. Generated PDF read
by layout."""

from __future__ import annotations

from agent.no_model.figure_words import line_value
from tests.agent.no_model.pdf_statements import Page, asked_lead, statement_pdf  # noqa: F401 (fixture)

AWARDS = Page("RESTRICTED STOCK UNITS", ("2023", "2022", "2021"), [
    ("Weighted-average grant-date fair value per share", "$ 63.44", "$ 80.21", "$ 44.11"),
    ("Intrinsic value of options exercised", "$ 160", "$ 150", "$ 593"),
    ("Weighted-average shares used in computing diluted earnings per share", "1,204", "1,233", "1,262"),
], caption="(in millions, except per share amounts)")


def test_a_per_share_label_keeps_its_value_unscaled(statement_pdf):
    sources, text = statement_pdf([AWARDS])
    lead = asked_lead("What was Northwind's weighted-average grant-date fair value per share in fiscal 2022?", sources, text)
    assert "$80.21 per share" in lead and "million" not in lead, lead
    assert "$150 million" in asked_lead("What was the intrinsic value of options exercised in 2022?", sources, text)
    # the count's label says "per share" too: its value stays a count
    count = line_value("1,233", "Weighted-average shares used in computing diluted earnings per share",
                       "in millions, except per share amounts", True)
    assert count == "1,233 million", count
