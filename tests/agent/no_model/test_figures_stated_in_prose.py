"""A figure the pages state only in a sentence leads the no-model answer with the year the sentence binds it to
(agent/no_model/prose_figures.py over storage/finance/stated_figures.py), and never a change, a rounding, the
figure said "instead of" another, or one of two values. Generated PDFs: a statement page read by layout with no
row of the asked item, and a page of MD&A prose printed line by line as a filing wraps it."""

from __future__ import annotations

import pymupdf
import pytest

from agent.no_model import figures
from agent.no_model.extractive import compose_extractive_answer
from agent.no_model.figures import NO_FIGURE
from agent.no_model.prose_figures import INTRO_STATED
from bench.figures_gold import lead_line
from storage.documents.table_layout import layout_units
from storage.finance.stated_figures import stated_figures
from storage.schema import Source
from tests.agent.no_model.pdf_statements import Page, build_pdf

INCOME = Page("CONSOLIDATED STATEMENTS OF OPERATIONS", ("2023", "2022"), [
    ("Net sales", "34,229", "33,010"),
    ("Net income", "2,181", "1,950"),
])


@pytest.fixture
def prose_filing(tmp_path, monkeypatch):
    """`prose_filing(lines)` -> (sources, page_text): page 0 a statement (no row of the asked items), page 1 the
    lines printed as wrapped MD&A prose; one source per page, the prose page first."""
    def make(lines: list[str]):
        path = build_pdf(tmp_path / "NORTHWIND_2023_10K.pdf", [INCOME])
        doc = pymupdf.open(path)
        page = doc.new_page()
        for i, line in enumerate(lines):
            page.insert_text((40, 60 + 13 * i), line, fontsize=8)
        doc.save(tmp_path / "filing.pdf")
        texts = [p.get_text() for p in doc]
        words = [p.get_text("words") for p in doc]
        monkeypatch.setattr("agent.no_model.cited_rows.table_units", lambda doc_id, page, text: layout_units(words[page]))
        monkeypatch.setattr("agent.no_model.cited_rows.fiscal_period", lambda doc_id: (2023, None))
        monkeypatch.setattr("agent.no_model.cited_rows.fiscal_year_end", lambda doc_id: None)
        monkeypatch.setattr(figures, "covered_years", lambda doc_id, fiscal: frozenset({2023}))
        sources = [Source(source_id=f"[^{n + 1}]", kind="document", doc_id="northwind-10k", page_number=p,
                          source_file="NORTHWIND_2023_10K.pdf", text=texts[p]) for n, p in enumerate((1, 0))]
        return sources, lambda src: texts[src.page_number]
    return make


def _lead(question: str, sources, text) -> tuple[str | None, str]:
    answer, usable = compose_extractive_answer(question, sources, text)
    assert usable, answer
    return lead_line(answer), answer


CAPEX = ["Capital expenditures totaled $1.0 billion in 2023, compared with $1.3 billion in 2022 and $1.8 billion",
         "in 2021. We reduced our capital expenditures in 2023 as we completed the expansion of our hubs."]
BUYBACKS = ["We had cash outflows of $143 million, $8 million, and $67 million for the purchase of our shares during fiscal years 2023,",
            "2022, and 2021, respectively, as treasury shares to satisfy the vesting of share-based compensation awards."]
CHARGES = ["Operating income in 2023 includes $273 million ($209 million, net of tax, or $0.81 per diluted share) of",
           "business optimization costs. Excluding the restructuring charges, our effective tax rate would have been",
           "16.3%, instead of 6.8%, for fiscal 2023."]


def test_a_figure_stated_in_a_sentence_leads_with_the_year_it_is_said_of(prose_filing):
    sources, text = prose_filing(CAPEX)
    for year, value in ((2023, "$1.0 billion"), (2022, "$1.3 billion"), (2021, "$1.8 billion")):
        lead, answer = _lead(f"What were Northwind's capital expenditures in {year}?", sources, text)
        assert lead and value in lead and str(year) in lead and "[^1]" in lead and NO_FIGURE not in answer, answer
        assert answer.index("Capital expenditures totaled") > answer.index(lead)  # the sentence quoted under it


def test_a_later_figure_the_clause_goes_on_to_is_not_the_items(prose_filing):
    sources, text = prose_filing(["Capital expenditures totaled $1.0 billion in 2023, of which $0.4 billion was spent on "
                                  "aircraft, compared with $1.3 billion in 2022."])
    lead, answer = _lead("What were Northwind's capital expenditures in 2023?", sources, text)
    assert lead and "$1.0 billion" in lead, answer
    lead, answer = _lead("What were Northwind's capital expenditures in 2022?", sources, text)
    assert lead and "$1.3 billion" in lead, answer  # a comparison is of the same item


def test_a_list_wrapped_over_lines_is_read_with_its_years_respectively(prose_filing):
    sources, text = prose_filing(BUYBACKS)
    lead, answer = _lead("What cash outflow did Northwind have in fiscal 2022 for purchases of its shares as "
                         "treasury shares?", sources, text)
    assert lead and "$8 million" in lead and "2022" in lead, answer
    # the sentence broken after "2023," is quoted whole, not as a row of years
    assert "during fiscal years 2023, 2022, and 2021, respectively" in answer, answer


def test_the_unit_and_the_basis_asked_pick_the_figure_of_the_sentence(prose_filing):
    sources, text = prose_filing(CHARGES)
    lead, answer = _lead("By how much per diluted share did business optimization costs reduce Northwind's 2023 "
                         "earnings?", sources, text)
    assert lead and "$0.81 per diluted share" in lead, answer
    lead, answer = _lead("What were Northwind's business optimization costs, net of tax, in 2023?", sources, text)
    assert lead and "$209 million" in lead, answer
    lead, answer = _lead("Excluding the restructuring charges, what was Northwind's effective tax rate in fiscal "
                         "2023?", sources, text)
    assert lead and "16.3%" in lead and "6.8%" not in lead, answer


CAPEX_ASKED = "What were Northwind's capital expenditures in 2023?"


@pytest.mark.parametrize("lines, question", [
    (["Capital expenditures increased by $0.3 billion in 2023 as we expanded our hubs."], CAPEX_ASKED),  # a change
    (["Capital expenditures were approximately $1.0 billion in 2023."], CAPEX_ASKED),  # a rounding
    (["Capital expenditures totaled $1.0 billion in 2023 for the hubs.",  # two values of one year
      "Capital expenditures totaled $1.2 billion in 2023 including leases."], CAPEX_ASKED),
    # a part's figure: a name before the item, or a segment the question does not say
    (["International capital expenditures totaled $0.4 billion in 2023."], CAPEX_ASKED),
    (["Capital expenditures of the Express segment totaled $0.4 billion in 2023."], CAPEX_ASKED),
    # a figure the item only follows in another role
    (["Proceeds of $0.4 billion from the sale of our hubs reduced capital expenditures in 2023."], CAPEX_ASKED),
    # a share of another amount is not the segment's margin the sentence also names
    (["Software license updates and product support revenues, which represented 51%, 49% and 47% of our total",
      "revenues in fiscal 2023, 2022 and 2021, respectively, is our highest margin business unit."],
     "What margin did Northwind's software license updates and product support segment earn in fiscal 2023?"),
])
def test_no_figure_from_a_change_a_rounding_a_share_or_two_values(prose_filing, lines, question):
    sources, text = prose_filing(lines)
    lead, answer = _lead(question, sources, text)
    assert INTRO_STATED not in answer, answer  # no sentence states the figure asked


def test_stated_figures_bind_lists_brackets_and_alternatives():
    said = {(f.text, f.year, f.alternative, f.net_of_tax) for f in stated_figures(
        "resulted in effective tax rates of 18.4% and 18.5% in fiscal 2020 and 2019, respectively, instead of 16.0% "
        "and 9.7%, respectively")}
    assert said == {("18.4%", 2020, False, False), ("18.5%", 2019, False, False), ("16.0%", 2020, True, False),
                    ("9.7%", 2019, True, False)}
    dividends = stated_figures("During the year ended December 31, 2023, we paid no dividends, compared with "
                               "$1.2 billion and $4.6 billion in 2022 and 2021.")
    assert [(f.text, f.year) for f in dividends] == [("$1.2 billion", 2022), ("$4.6 billion", 2021)]
    per_share = stated_figures("our Board declared cash dividends of $1.36, $1.28 and $1.04 per share of our common "
                               "stock during fiscal 2023, 2022 and 2021, respectively")
    assert [(f.kind, f.year) for f in per_share] == [("per share", 2023), ("per share", 2022), ("per share", 2021)]
    opening = stated_figures("For fiscal year 2023, the effective tax rate was 26.9% as compared to the effective tax "
                             "rates of 21.9% and 22.6% for fiscal years 2022 and 2021, respectively.")
    assert [(f.text, f.year) for f in opening] == [("26.9%", 2023), ("21.9%", 2022), ("22.6%", 2021)]
    quarter = stated_figures("The Board declared a quarterly cash dividend of 12.25 cents per share (compared with "
                             "12.0 cents per share in the same quarter last year).")
    assert [(f.kind, f.year, f.earlier) for f in quarter] == [("cents", None, False), ("cents", None, True)]


RELEASE = ["Northwind generated operating cash flow of $2.1 billion in the fourth quarter, and full-year operating cash",
           "flow of $7.4 billion. Free cash flow of $1.2 billion was returned to shareholders."]


def test_a_release_states_its_quarter_and_its_year_apart(prose_filing, monkeypatch):
    from agent.no_model import prose_figures
    from storage.schema import DocumentInfo

    sources, text = prose_filing(RELEASE)
    monkeypatch.setattr(prose_figures, "_document", lambda doc_id: DocumentInfo(
        title="", fiscal_year=2023, fiscal_quarter=4, period_end="2023-12-31"))
    lead, answer = _lead("What was Northwind's operating cash flow in Q4 2023?", sources, text)
    assert lead and "$2.1 billion" in lead and "Q4" in lead, answer
    lead, answer = _lead("What was Northwind's operating cash flow in 2023?", sources, text)
    assert lead and "$7.4 billion" in lead and "2023" in lead, answer
    # a quarterly filing's figure with no span said is its quarter's, never the year's
    lead, answer = _lead("What was Northwind's free cash flow in 2023?", sources, text)
    assert lead is None, answer
    lead, answer = _lead("What was Northwind's free cash flow in Q4 2023?", sources, text)
    assert lead and "$1.2 billion" in lead, answer


TWO_CHARGES = ["Operating income in 2023 includes $273 million ($209 million, net of tax, or $0.81 per diluted share) of",
               "expenses of our business optimization strategy, and also includes realignment costs of $36 million",
               "($27 million, net of tax, or $0.11 per diluted share) associated with our workforce reduction plan."]
DIVIDENDS = ["Strong cash returns to shareholders: annual dividend increased to 49.0 cents per share; the Board today",
             "declared a quarterly cash dividend of 12.25 cents per share."]


def test_the_clause_of_the_figure_names_it_and_a_quarterly_amount_is_not_the_years(prose_filing, monkeypatch):
    from agent.no_model import prose_figures
    from storage.schema import DocumentInfo

    sources, text = prose_filing(TWO_CHARGES)
    lead, answer = _lead("By how much per diluted share did business optimization costs reduce Northwind's 2023 "
                         "earnings?", sources, text)
    assert lead and "$0.81" in lead and "$0.11" not in lead, answer  # the realignment clause's figure is not it
    sources, text = prose_filing(DIVIDENDS)
    monkeypatch.setattr(prose_figures, "_document", lambda doc_id: DocumentInfo(title="", fiscal_year=2023, fiscal_quarter=4))
    lead, answer = _lead("What quarterly cash dividend per share did Northwind's board declare with its fiscal 2023 "
                         "results?", sources, text)
    assert lead and "12.25 cents" in lead, answer
    lead, answer = _lead("What annual dividend per share did Northwind pay for fiscal 2023?", sources, text)
    assert lead and "49.0 cents" in lead and "fiscal 2023" in lead and "Q4" not in lead, answer
