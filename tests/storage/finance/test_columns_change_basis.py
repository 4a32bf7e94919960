"""The bases a change is stated on besides the reported one (constant currency, excluding currency, ex-currency,
currency-neutral, organic) have one vocabulary, storage/finance/columns.py: the change column titles the layout
reader splits (a basis printed alone heads a change column) and CHANGE_BASIS, which the answer reads to pick the
asked basis's column (agent/no_model/derived_figures). A basis title the reader heads a column with is always a
basis the answer sees; the reported change and a period's amount are no basis."""

from __future__ import annotations

import pytest

from storage.finance.columns import CHANGE_BASIS, is_change_title

# a basis printed alone as its own column's title
BASIS_TITLES = ["Constant currency", "Constant-currency", "Excluding currency", "Excluding currency translation",
                "Ex-currency", "ex currency", "Constant currency ∆%", "% Change in constant currency",
                "Constant currencies", "Constant dollar % change", "% Change at constant exchange rates", "Ex-FX"]


@pytest.mark.parametrize("title", BASIS_TITLES)
def test_a_basis_title_heads_a_change_column_and_names_its_basis(title):
    assert is_change_title(title) and CHANGE_BASIS.search(title)


@pytest.mark.parametrize("said", ["in constant currency", "excluding the impact of foreign currency",
                                  "excluding the effects of currency", "currency-neutral", "organically", "organic growth",
                                  "on an ex-currency basis", "in constant currencies", "in constant dollars",
                                  "at constant exchange rates", "at constant rates", "at fixed exchange rates",
                                  "excluding FX", "excluding the impact of changes in foreign exchange rates",
                                  "on an FX-neutral basis"])
def test_a_basis_said_in_a_question_is_named(said):
    assert CHANGE_BASIS.search(f"By what percentage did net sales grow {said} in 2023?")


@pytest.mark.parametrize("text", ["Reported ∆%", "% Change", "Inc/(Dec)", "As reported", "Currency", "Constant",
                                  "2023", "By what percentage did net sales grow in 2023?", "Fixed rate notes",
                                  "Did net sales grow at a constant rate of growth?", "Foreign exchange rates"])
def test_the_reported_change_and_other_titles_name_no_basis(text):
    assert not CHANGE_BASIS.search(text)
