"""The instructions analysts write around a question (FinanceBench's styles: where to look, how to answer, who they
are) are not what the question asks: `strip_instructions` keeps the question and any definition of the figure, for
retrieval's keyword query and the figure path's reading of the item asked."""

from __future__ import annotations

import pytest

from storage.retrieval.query_expansion import expand_query, strip_instructions


@pytest.mark.parametrize("question, kept", [
    ("What is the FY2018 capital expenditure amount (in USD millions) for 3M? Give a response to the question by "
     "relying on the details shown in the cash flow statement.",
     "What is the FY2018 capital expenditure amount (in USD millions) for 3M?"),
    ("Assume that you are a public equities analyst. Answer the following question by primarily using information that "
     "is shown in the balance sheet: what is the year end FY2018 net PPNE for 3M? Answer in USD billions.",
     "what is the year end FY2018 net PPNE for 3M?"),
    ("In agreement with the information outlined in the income statement, what is the FY2015 - FY2017 3 year average "
     "net profit margin (as a %) for Best Buy? Answer in units of percents and round to one decimal place.",
     "what is the FY2015 - FY2017 3 year average net profit margin (as a %) for Best Buy?"),
    ("We need to calculate a financial metric by using information only provided within the balance sheet. Please "
     "answer the following question: what is Boeing's year end FY2018 net property, plant, and equipment?",
     "what is Boeing's year end FY2018 net property, plant, and equipment?"),
    ("You are an investment banker and your only resource(s) to answer the following question is (are): the statement "
     "of financial position and the cash flow statement. Here's the question: what is the FY2015 operating cash flow "
     "ratio for Adobe?", "what is the FY2015 operating cash flow ratio for Adobe?"),
    ("Using the cash flow statement, answer the following question to the best of your abilities: how much did Block "
     "generate in cash flow from operating activities in FY2020?",
     "how much did Block generate in cash flow from operating activities in FY2020?"),
    ("What is the FY2019 return on assets (ROA) for X? ROA is defined as: FY2019 net income / (average total assets "
     "between FY2018 and FY2019). Round your answer to two decimal places. Respond to the question by assuming the "
     "perspective of an investment analyst who can only use the details shown within the income statement.",
     "What is the FY2019 return on assets (ROA) for X? ROA is defined as: FY2019 net income / (average total assets "
     "between FY2018 and FY2019)."),
    ("What is the FY2018 - FY2020 3 year average of capex as a % of revenue for X? Calculate (or extract) the answer "
     "from the statement of income and the cash flow statement.",
     "What is the FY2018 - FY2020 3 year average of capex as a % of revenue for X?"),
])
def test_instructions_are_dropped_and_the_question_kept(question, kept):
    assert strip_instructions(question) == kept


@pytest.mark.parametrize("question", [
    "Is 3M a capital-intensive business based on FY2022 data?",
    "What drove the reduction in SG&A expense as a percent of net sales in FY2023?",
    "Define net working capital as total current assets less total current liabilities. What was it in 2022?",
    "Calculate the FY2022 operating margin for Northwind.",
])
def test_a_question_or_definition_is_never_an_instruction(question):
    assert strip_instructions(question) == question


def test_the_statement_named_in_an_instruction_still_adds_its_words():
    expanded = expand_query("What is the FY2018 capital expenditure amount for 3M? Give a response to the question by "
                            "relying on the details shown in the cash flow statement.")
    assert "instruction" not in expanded.text and "relying" not in expanded.text
    assert "investing" in expanded.expansion  # the cash flow statement's words, read from the whole question
