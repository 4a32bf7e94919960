"""Follow-ups without a model: resolved against the previous questions for retrieval, and the
answer says what it searched for."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from agent.no_model.followups import resolve_followup
from agent.run import run_turn
from storage.documents.ingest import process_and_index_pdf
from tests.fixtures_agent import context
from tests.fixtures_statements import make_statement_pdf

CAPEX = "What was Boeing's capital expenditure in FY2018?"


@pytest.mark.parametrize(
    "followup, expected",
    [
        ("and in the year before?", "What was Boeing's capital expenditure in FY2017?"),
        ("How about the previous year?", "What was Boeing's capital expenditure in FY2017?"),
        ("and two years earlier?", "What was Boeing's capital expenditure in FY2016?"),
        ("and the year after?", "What was Boeing's capital expenditure in FY2019?"),
        ("and 2021?", "What was Boeing's capital expenditure in FY2021?"),
        ("what about Airbus?", "What was Airbus's capital expenditure in FY2018?"),
    ],
)
def test_period_and_company_shifts(followup, expected):
    resolved = resolve_followup(followup, [CAPEX])
    assert resolved.is_followup and resolved.query == expected


def test_quarter_shift_and_chained_followups():
    assert resolve_followup("and the prior quarter?", ["What was Best Buy revenue in Q1 of FY2024?"]).query == \
        "What was Best Buy revenue in Q4 of FY2023?"
    # a follow-up of a follow-up: company shifted first, then the period
    chained = resolve_followup("and the year before?", ["What was AMCOR revenue in FY2023?", "what about Boeing?"])
    assert chained.query == "What was Boeing revenue in FY2022?"


def test_new_line_item_keeps_company_and_period():
    resolved = resolve_followup("and operating income?", [CAPEX])
    assert resolved.is_followup
    assert "operating income" in resolved.query and "Boeing" in resolved.query and "2018" in resolved.query


@pytest.mark.parametrize(
    "message",
    ["What is Best Buy's inventory in FY2019?", "thanks", "Does Amcor report a restructuring liability?",
     "Summarize the risk factors of the 2022 annual report for me please in detail"],
)
def test_questions_of_their_own_are_left_alone(message):
    resolved = resolve_followup(message, [CAPEX])
    assert not resolved.is_followup and resolved.query == message


def test_no_history_no_resolution():
    assert resolve_followup("and in the year before?", []).query == "and in the year before?"


def test_no_model_followup_answers_the_shifted_period(pdf_home):
    pdf = process_and_index_pdf(make_statement_pdf(pdf_home / "source" / "northwind_2019_10k.pdf"))
    history = [HumanMessage("What were purchases of property, plant and equipment in 2019?"),
               AIMessage("- Purchases of property, plant and equipment (Years ended December 31, 2019): (1,834) [^1]")]
    result = run_turn(context(), "and in the year before?", selected_doc_ids=[pdf.doc_id], history=history)
    assert "Searched for: “What were purchases of property, plant and equipment in 2018?”" in result.message
    assert "Purchases of property, plant and equipment (Years ended December 31, 2018): $(1,577) million " in result.message
    assert "(1,834)" not in result.message.split("Supporting")[0]
