"""'Not in these documents' (agent/scope.py): a question naming a period, company or form that the
selected filings do not cover is answered with that first, and with no figure of another period
or company; a year the filings print as a comparative column is not refused."""

from __future__ import annotations

import re

import pytest

from agent.run import run_turn
from agent.scope import covered_years, scope_note
from storage.documents.ingest import process_and_index_pdf
from storage.schema import DocumentInfo
from tests.fixtures_agent import context, grade, say, scripted
from tests.fixtures_filings import cover_10k, write_pages

NOT_THERE = re.compile(r"(?i)\bnot (?:among them|in the selected)")
INCOME = (
    "Fabrikam Corporation\nConsolidated Statements of Income\n(in millions)\n"
    "Net revenue for fiscal 2022 was $52,417 million, compared with $48,902 million in fiscal 2021 and "
    "$45,013 million in fiscal 2020. Operating income for fiscal 2022 was $7,105 million."
)


@pytest.fixture
def fabrikam_10k(pdf_home):
    path = write_pages(pdf_home / "source" / "fab.pdf", [cover_10k("Fabrikam Corporation", "December 31, 2022"), INCOME])
    return process_and_index_pdf(path)


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0]


def test_a_10k_covers_its_year_and_the_two_before():
    info = DocumentInfo(title="Fabrikam · 10-K · FY2022", issuer="Fabrikam Corporation", form="10-K", fiscal_year=2022)
    assert covered_years(info) == {2020, 2021, 2022}
    assert covered_years(DocumentInfo(title="x")) is None  # unknown period: nothing is refused on a guess


@pytest.mark.parametrize("question", ["What was net revenue in fiscal 2024?", "What was Contoso's operating income in 2022?",
                                      "What does the 10-Q say about net revenue?"])
def test_an_uncovered_period_company_or_form_is_said_first(fabrikam_10k, question):
    result = run_turn(context(), question, selected_doc_ids=[fabrikam_10k.doc_id])
    assert NOT_THERE.search(_first_line(result.message)), result.message
    assert "52,417" not in result.message.split("\n\n")[1]  # no figure is stated as the asked one


@pytest.mark.parametrize("question", ["What was net revenue in fiscal 2021?", "What was Fabrikam's net revenue in 2022?",
                                      "What was operating income?", "What does the 10-K say about net revenue?"])
def test_covered_questions_are_not_refused(fabrikam_10k, question):
    result = run_turn(context(), question, selected_doc_ids=[fabrikam_10k.doc_id])
    assert not NOT_THERE.search(result.message), result.message


def test_an_earlier_year_the_passages_print_is_covered():
    info = DocumentInfo(title="Fabrikam · 10-K · FY2022", issuer="Fabrikam Corporation", form="10-K", fiscal_year=2022)
    assert scope_note("What was revenue in 2015?", [info], ["Revenue grew every year since 2015."]) is None
    assert NOT_THERE.search(scope_note("What was revenue in 2015?", [info], ["Revenue grew."]))
    assert NOT_THERE.search(scope_note("What was revenue in 2023?", [info], ["We expect revenue in 2023 to grow."]))


def test_the_model_is_told_the_period_is_not_covered(fabrikam_10k):
    llm = scripted(grade("yes"), say("The selected filings do not cover fiscal 2024."))
    run_turn(context(llm), "What was net revenue in fiscal 2024?", selected_doc_ids=[fabrikam_10k.doc_id])
    system = llm.seen[-1][0].content
    assert "not among them" in system and "fiscal 2024" not in system.split("Coverage check")[0]


def test_a_due_year_of_printed_maturities_is_covered_a_later_year_s_figure_is_not():
    info = DocumentInfo(title="Fabrikam · 10-K · FY2022", issuer="Fabrikam Corporation", form="10-K", fiscal_year=2022)
    schedule = ["Future principal payments as of December 31, 2022: 2023 $ 11,139 2024 9,910 2025 10,645"]
    for question in ("How much of the term debt principal comes due in 2025?", "What lease payments does it owe in 2024?",
                     "How much of its borrowings mature in fiscal 2025?"):
        assert scope_note(question, [info], schedule) is None, question
    # a later year's figure is still not the filing's, nor a due year the passages do not print
    assert NOT_THERE.search(scope_note("What was revenue in 2025?", [info], schedule))
    assert NOT_THERE.search(scope_note("How much principal is due in 2027?", [info], schedule))


def test_a_capital_word_starting_the_question_is_not_part_of_the_company_named():
    info = DocumentInfo(title="Fabrikam · 10-K · FY2022", issuer="Fabrikam Corporation", form="10-K", fiscal_year=2022)
    assert scope_note("In Fabrikam's tax rate reconciliation, what was the effect of state taxes in 2022?", [info], []) is None
    assert NOT_THERE.search(scope_note("In Contoso's tax rate reconciliation, what was the effect of state taxes in 2022?", [info], []))


def test_a_forecast_asked_of_the_quarter_after_a_release_is_covered_where_a_passage_prints_it():
    info = DocumentInfo(title="Northwind · earnings release · Q2 FY2023", issuer="Northwind Inc", form="earnings release",
                        fiscal_year=2023, fiscal_quarter=2)
    outlook = ["Business Outlook  Three Months Ending September 30, 2023  Net revenues $2.44 - $2.49  Diluted EPS $0.59 - $0.64"]
    for question in ("What net revenues does Northwind expect for Q3 2023?", "What is the Q3 2023 diluted EPS guidance?"):
        assert scope_note(question, [info], outlook) is None, question
    # a fiscal year printed by its short name ("Q2 FY24")
    fy24 = DocumentInfo(title="Northwind · earnings release · Q1 FY2024", issuer="Northwind Inc", form="earnings release",
                        fiscal_year=2024, fiscal_quarter=1)
    assert scope_note("What is Northwind's revenue guidance for Q2 FY2024?", [fy24],
                      ["Guidance  Q2 FY24  Full Year FY24  Revenue $8.51 to $8.53"]) is None
    # a result asked of that quarter is not the release's, nor a forecast of a year no passage prints
    assert NOT_THERE.search(scope_note("What were net revenues in Q3 2023?", [info], outlook))
    assert NOT_THERE.search(scope_note("What revenue does Northwind expect for 2025?", [info], outlook))
