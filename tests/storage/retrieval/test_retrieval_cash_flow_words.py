"""Cash-flow line items asked in analysts' plain words ("capex", "capital spending", "cash from
operations", "CFO", "free cash flow", "buybacks", "D&A"): the cash flow statement prints them as
"Purchases of property, plant and equipment", "Net cash provided by operating activities",
"Repurchases of common stock"; the keyword query takes those row words from the one vocabulary of
line items (storage/finance/line_items.py), so the statement page outranks a prose page that repeats
the question's own words."""

from __future__ import annotations

import re
import pytest

from storage.finance import line_items
from storage.retrieval.fusion import Ranking
from storage.retrieval.hybrid import HybridRetriever
from storage.retrieval.query_expansion import expand_query
from tests.fixtures_retrieval import ingest

PAGES = [
    # 0 MD&A prose: the question's plain words, none of the statement's rows
    "Liquidity and Capital Resources. We plan to invest in new stores and technology in 2023, and our "
    "spending will rise. Cash from our businesses, operations across the regions and our credit facility fund the "
    "plans; free cash for shareholders depends on the economy. Our CFO reviews buybacks with the board each year "
    "in 2023 and 2022.",
    # 1 the cash flow statement: the rows, in the filing's words
    "Consolidated Statements of Cash Flows (in millions) 2023 2022\nNet income 2,410 2,120\n"
    "Depreciation and amortization 880 845\nNet cash provided by operating activities 4,120 3,870\n"
    "Purchases of property, plant and equipment (1,450) (1,310)\nNet cash used in investing activities (1,602) (1,390)\n"
    "Repurchases of common stock (900) (750)\nDividends paid (410) (380)\nNet cash used in financing activities (1,350) (1,120)",
]

QUESTIONS = [
    "What was Acme's capex in 2023?",
    "How much capital spending did Acme report for 2023?",
    "What was Acme's cash from operations in 2023?",
    "What was Acme's CFO in 2023?",
    "What was Acme's free cash flow in 2023?",
    "How much did Acme spend on buybacks in 2023?",
    "What was Acme's D&A in 2023?",
]


@pytest.fixture
def filing():
    return ingest("acme_cash_2023_10k.pdf", PAGES)


@pytest.mark.parametrize("question", QUESTIONS)
def test_plain_words_find_the_cash_flow_statement(filing, question):
    hits = HybridRetriever([filing.doc_id], use_cache=False).search(question, k=2)
    assert hits[0].chunk.page_number == 1, [(h.chunk.page_number, h.chunk.text[:60]) for h in hits]


@pytest.mark.parametrize("question, printed", [
    ("capex in 2023", "purchases of property plant and equipment"),
    ("capital spending", "purchases of property plant and equipment"),
    ("cash from operations", "net cash provided by operating activities"),
    ("CFO", "net cash provided by operating activities"),
    ("free cash flow", "net cash provided by operating activities"),
    ("buybacks", "repurchases"),
    ("D&A", "depreciation and amortization"),
])
def test_the_keyword_query_takes_the_printed_rows_words(question, printed):
    assert set(printed.split()) <= set(expand_query(question).expansion.split())


def test_the_words_come_from_the_line_items(monkeypatch):
    capex = line_items.BY_CONCEPT["PaymentsToAcquirePropertyPlantAndEquipment"]
    monkeypatch.setitem(line_items.BY_CONCEPT, capex.concept, capex.__class__(**{**capex.__dict__, "words": "zzrow"}))
    assert "zzrow" in expand_query("What was capex in 2023?").expansion.split()


# line items asked in plain words: line_items.py's `asked` names each; the glossary must not name it again
LINE_ITEM_PHRASES = ["capex", "capital expenditures", "capital spending", "operating cash flow", "cash from operations",
                     "CFO", "free cash flow", "buybacks", "share repurchases", "D&A", "net income", "gross margin",
                     "operating income", "revenues", "SG&A", "EPS", "inventories", "dividends paid", "EBITDA",
                     "current ratio", "PP&E"]


@pytest.mark.parametrize("phrase", LINE_ITEM_PHRASES)
def test_query_expansion_keeps_no_second_list_of_line_items(phrase):
    from storage.retrieval import query_expansion

    assert line_items.asked_items(phrase), phrase  # the one vocabulary names it
    assert [p for p, _ in query_expansion.GLOSSARY if re.search(p, phrase, re.IGNORECASE)] == []


def _scores(filing, question, ranking):
    return {h.chunk.page_number: h.score for h in HybridRetriever([filing.doc_id], use_cache=False, ranking=ranking)
            .search(question, k=2)}


@pytest.mark.parametrize("question", ["What was Acme's capex in 2023?", "What was Acme's CFO in 2023?",
                                      "How much did Acme spend on buybacks in 2023?"])
def test_cash_flow_items_lift_the_cash_flow_statement_only_when_asked(filing, question):
    """Ranking.cash_flow_items (off in the product): a cash-flow line item asked in any words lifts the pages
    labelled as the cash flow statement, and nothing else."""
    off, on = _scores(filing, question, Ranking()), _scores(filing, question, Ranking(cash_flow_items=True))
    assert on[1] > off[1] and on[0] == off[0]
    other = "What was Acme's net income in 2023?"  # an income statement item: no lift
    assert _scores(filing, other, Ranking()) == _scores(filing, other, Ranking(cash_flow_items=True))
