"""bench.answers --quotes: which quoted passages mention what the question asks (issue 29.2)."""

from __future__ import annotations

from bench.answers import quote_mentions, quote_relevance, quotes_of


def test_quotes_are_the_quoted_lines_only():
    answer = ("- Net sales (Fiscal 2020): $17,626.6 [^1]\n\nSupporting passages, quoted:\n\n"
              "- “Net sales rose 5 percent.” [^1]\n- “In Millions 2020 2019” [^2][^3]")
    assert quotes_of(answer) == ["Net sales rose 5 percent.", "In Millions 2020 2019"]


def test_a_quote_mentions_the_item_its_concept_its_inputs_or_its_period():
    gross = "Does the company have an improving gross margin profile as of FY2023?"
    assert quote_mentions("Gross profit decreased by $95 million.", gross)  # an input of the ratio
    assert quote_mentions("Net sales were 6% lower.", gross)
    assert quote_mentions("The FY23 appropriations support production.", gross)  # the period, as FY23
    assert not quote_mentions("Operating income 6,912 6,010", gross)
    assert not quote_mentions("The company was incorporated in Delaware in 1928.", "What was revenue in 2020?")
    assert quote_mentions("Anything at all.", "Is the business subject to cyclicality?") is None  # nothing to judge by


def test_relevance_is_counted_per_path_and_half():
    items = [{"question": "What were net sales in fiscal 2020?", "doc_name": "AMCOR_2023_10K", "figure": "17,626.6"}]
    answers = {"new": ["- Net sales (Fiscal 2020): $17,626.6 [^1]\n\n- “Net sales rose.” [^1]"],
               "old": ["- “Net sales rose.” [^1]\n- “We were incorporated in 1928.” [^2]"]}
    out = quote_relevance(items, answers)
    assert out["new"]["tune"]["on_point_share"] == 1.0 and out["old"]["all"]["on_point_share"] == 0.5
    assert (out["new"]["all"]["lead_correct"], out["old"]["all"]["lead_correct"]) == (1, 0)
    assert out["old"]["all"]["quotes_per_answer"] == 2.0
