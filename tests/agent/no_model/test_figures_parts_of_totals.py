"""A part's row in a table whose total is the asked item (generated PDFs read by layout): the same part's row
in a table totalling another item ("Total depreciation and amortization") is no rival, so the figure is not
withheld as ambiguous; with neither table totalling the asked item, no figure."""

from __future__ import annotations

from agent.no_model.figures import INTRO
from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401 (fixture)

YEARS = ("2023", "2022")
CAPEX = Page("Capital expenditures by reportable segment were:", YEARS, [
    ("Harbor", "$ 384", "$ 376"),
    ("Inland", "133", "136"),
    ("Total capital expenditures", "$ 517", "$ 512"),
], caption="($ in millions)")
DEPRECIATION = Page("Depreciation and amortization by reportable segment were:", YEARS, [
    ("Harbor", "$ 436", "$ 450"),
    ("Inland", "125", "120"),
    ("Total depreciation and amortization", "$ 561", "$ 570"),
], caption="($ in millions)")


def test_a_parts_row_under_the_asked_total_is_not_ambiguous_with_its_row_under_another_total(statement_pdf):
    sources, text = statement_pdf([CAPEX, DEPRECIATION])
    assert "384" in asked_lead("What were the Harbor segment's capital expenditures in fiscal 2023?", sources, text)
    assert "120" in asked_lead("What was Inland's depreciation and amortization in fiscal 2022?", sources, text)
    block = asked_block("What was the Harbor segment's goodwill in fiscal 2023?", sources, text)
    assert not block or block[0] != INTRO
