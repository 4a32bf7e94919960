"""Prose facts asked in plain words (issue 29.3): a filing states its headcount, headquarters,
auditor, shares outstanding, store count, fiscal year end, largest customers and segments in its
own words ("approximately 40,000 full- and part-time employees", "principal executive offices",
"independent registered public accounting firm"); a question in plain words finds that page, not
a page that merely repeats the question's words (a savings plan "for employees")."""

from __future__ import annotations

import pytest

from storage.retrieval.hybrid import HybridRetriever
from storage.retrieval.query_expansion import expand_query
from tests.fixtures_retrieval import ingest

# A filing-like annual report: each fact on its own page, in the wording 10-Ks use, among pages
# that share the question's plain words without answering it.
PAGES = [
    # 0 cover
    "UNITED STATES SECURITIES AND EXCHANGE COMMISSION. Form 10-K. Annual report for the fiscal year ended May 26, "
    "2019. Northwind Foods, Inc. Indicate by check mark whether the registrant is a shell company. Number of shares "
    "of Common Stock outstanding as of June 19, 2019: 602,685,000 (excluding 151,928,000 shares held in the treasury).",
    # 1 business
    "ITEM 1 BUSINESS. Northwind Foods, Inc. is a leading global manufacturer and marketer of branded consumer foods "
    "sold through retail stores. Our principal executive offices are located at Number One Northwind Boulevard, "
    "Minneapolis, Minnesota 55426. We were incorporated in Delaware in 1928.",
    # 2 human capital: the headcount, in the filing's words
    "As of May 26, 2019, we had approximately 40,000 full- and part-time employees worldwide, of "
    "whom about 15,000 were located outside the United States. Approximately 20 percent of our workforce in the United States "
    "is covered by collective bargaining agreements.",
    # 3 savings plan: the question's plain words, no headcount
    "Defined Contribution Plans. The Company sponsors savings plans for employees. Eligible employees may contribute "
    "up to 50 percent of their pay, and employees in the United States receive a matching contribution. The Company "
    "contributed $95 million to employee savings plans in 2019 and $88 million in 2018. How employees invest "
    "their contributions is their choice; many employees choose target date funds.",
    # 4 properties
    "ITEM 2 PROPERTIES. We operate 41 production facilities, of which 24 are in the United States, and 94 "
    "company-operated shops selling our products directly to consumers. We own our headquarters campus.",
    # 5 customers
    "Walmart Inc. and its affiliates accounted for 21 percent of our consolidated net sales in fiscal 2019 and "
    "30 percent of the net sales of our North America Retail unit. No other single buyer accounted for 10 percent.",
    # 6 segments
    "We review our results in four operating segments, which are our reportable segments: North America Retail; "
    "Convenience Stores and Foodservice; Europe and Australia; and Asia and Latin America.",
    # 7 auditor's report
    "Report of Independent Registered Public Accounting Firm. To the Stockholders and Board of Directors of "
    "Northwind Foods, Inc.: Opinion on the Consolidated Financial Statements. KPMG LLP. We have served as the "
    "Company's auditor since 1928.",
    # 8 fiscal calendar
    "Our fiscal year ends on the last Sunday in May. Fiscal 2019 included 52 weeks. Fiscal 2018 included 52 weeks.",
    # 9 a page about selling price, shares of stock and the year, for the shares question
    "Share-based compensation: we granted 3,000,000 stock options and 1,200,000 restricted stock units in fiscal "
    "2019. The Company repurchased 2 million shares of common stock for $100 million. Dividends per share rose.",
]

QUESTIONS = [
    ("How many employees did Northwind have in 2019?", 2),
    ("How many people work at Northwind?", 2),
    ("What is the headcount of Northwind?", 2),
    ("Where is Northwind headquartered?", 1),
    ("Who is Northwind's auditor?", 7),
    ("How many shares does Northwind have outstanding?", 0),
    ("How many locations does Northwind operate?", 4),
    ("Who are Northwind's biggest customers?", 5),
    ("What are Northwind's business segments?", 6),
]


@pytest.fixture
def filing():
    return ingest("northwind_2019_10k.pdf", PAGES)


@pytest.mark.parametrize("question, page", QUESTIONS)
def test_a_plain_question_finds_the_page_stating_the_fact(filing, question, page):
    hits = HybridRetriever([filing.doc_id]).search(question, k=3)
    assert hits[0].chunk.page_number == page, [(h.chunk.page_number, h.chunk.text[:60]) for h in hits]


def test_the_vocabulary_is_added_only_for_the_fact_asked():
    assert "full-time" in expand_query("How many employees did the company have in 2019?").expansion
    assert "principal executive offices" in expand_query("Where is the company headquartered?").expansion
    assert "independent registered public accounting firm" in expand_query("Who audits the company?").expansion
    assert expand_query("What was net income in 2019?").expansion == "net income earnings revenue sales"


@pytest.mark.parametrize("question", ["What were the purchases of property, plant and equipment in 2022?",
                                      "What were capital expenditures on property, plant & equipment?",
                                      "How large is the revolving credit facility?"])
def test_line_items_that_name_a_place_word_get_no_places_vocabulary(question):
    """"plant" of PP&E and a credit "facility" are line items: a places expansion would send the search to the
    Properties section (it put an MD&A page above the PP&E row of a cash flow statement)."""
    assert "square feet" not in expand_query(question).expansion
    assert "square feet" in expand_query("How many plants and facilities does the company operate?").expansion
