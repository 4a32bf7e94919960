"""The part of a filing a question asks for (storage/retrieval/page_parts.py): a part named in prose
(legal proceedings, risks, the business) and a primary statement named or implied by a metric computed
from its lines lift the pages labelled as that part; each rule on a generated PDF: the trap page, the answer page, a few ordinary pages."""

from __future__ import annotations

from storage.documents import ingest
from storage.retrieval.fusion import Ranking
from storage.retrieval.hybrid import HybridRetriever
from storage.retrieval.page_parts import EVENT_ITEM_PARTS, NAMED_STATEMENT_PARTS, PROSE_PARTS, STATEMENT_PARTS, asked_parts, label_mask
from storage.retrieval.document_profile import cover_fact_wording
from tests.fixtures_filings import cover_10q, source_path, write_pages

BEFORE = Ranking(part_weight=0.0, statement_weight=0.0)
# pages about something else, so a page's lift is measured against a filing's ordinary page (the query's spread)
OTHER = [f"Item 2. Properties\nWe own {n} warehouses and offices near the port, leased to tenants." for n in range(4)]


def _first_page(doc_id: str, question: str, ranking: Ranking) -> int:
    return HybridRetriever([doc_id], use_cache=False, ranking=ranking).search(question, k=2)[0].chunk.page_number


def test_questions_name_parts_by_phrasing_and_by_metric():
    assert len(asked_parts("Has the company reported any ongoing legal battles?", PROSE_PARTS)) == 1
    assert len(asked_parts("What industry does Acme primarily operate in?", PROSE_PARTS)) == 1
    assert asked_parts("What was total revenue in FY2022?", PROSE_PARTS) == []
    assert asked_parts("What was total revenue in FY2022?", STATEMENT_PARTS) == []
    income = asked_parts("How does the effective tax rate in FY2022 compare to FY2021?", STATEMENT_PARTS)
    balance = asked_parts("Has the quick ratio improved between FY2023 and FY2022?", STATEMENT_PARTS)
    assert label_mask(["Income Taxes", "Statements of Operations income statement statement of operations"], income) == [1]
    assert label_mask(["Balance Sheets balance sheet statement of financial position", "Debt"], balance) == [0]


def test_the_business_item_is_not_a_business_combinations_note():
    business = asked_parts("What industry does Acme primarily operate in?", PROSE_PARTS)
    labels = ["Business", "Business | Risk Factors", "Business Combinations", "Risk Factors"]
    assert label_mask(labels, business) == [0, 1]


def test_a_legal_question_finds_the_contingencies_note_not_the_page_repeating_its_words():
    pages = [
        "Item 7. Management's Discussion and Analysis\n"
        "Legal and professional fees rose. Legal costs of our legal department and legal advisers for contract work "
        "were higher; legal expense per contract reached a record in a year of ongoing growth.\n"
        "Revenue grew on more launches and higher prices for each launch.\n",
        "Note 12 - Commitments and Contingencies\n"
        "A customer filed a claim over a delayed launch. The court scheduled hearings for the second quarter; "
        "the company disputes the claim and its amount. Three other suits filed by former suppliers were dismissed.\n",
    ]
    pdf = ingest.process_and_index_pdf(write_pages(source_path("acme_legal_parts.pdf"), pages + OTHER))
    question = "Has the company reported any materially important ongoing legal battles?"
    assert _first_page(pdf.doc_id, question, BEFORE) == 0  # the trap: the page that repeats "legal"
    assert _first_page(pdf.doc_id, question, Ranking(statement_weight=0.0)) == 1  # the product's part_weight
    assert _first_page(pdf.doc_id, "What drove revenue growth?", Ranking()) == 0  # nothing named: nothing lifted


def test_a_rate_computed_from_the_income_statement_finds_the_statement_page():
    pages = [
        "Note 9 - Income Taxes\n"
        "Our effective tax rate reflects tax credits. Changes in the effective tax rate and in tax law may affect "
        "the rate we pay; the effective tax rate may vary from period to period with the mix of income.\n",
        "Acme Rockets, Inc.\nConsolidated Statements of Operations\n(in millions)\nYears ended December 31, 2022 2021\n"
        "Revenue 1,200 1,100\nCost of revenue (800) (760)\nIncome before income taxes 400 340\n"
        "Provision for income taxes (84) (70)\nNet income 316 270\n",
    ]
    pdf = ingest.process_and_index_pdf(write_pages(source_path("acme_tax_parts.pdf"), pages + OTHER))
    question = "How does Acme's effective tax rate in FY2022 compare to FY2021?"
    assert _first_page(pdf.doc_id, question, BEFORE) == 0  # the note repeats the words; the statement prints the parts
    assert _first_page(pdf.doc_id, question, Ranking(part_weight=0.0)) == 1  # the product's statement_weight


def test_capital_expenditures_find_the_cash_flow_statement_that_prints_them_as_additions():
    pages = [
        "Item 7. Management's Discussion and Analysis\nOur capital expenditures for grid safety rose in 2022 as "
        "planned and are recovered through rates over time.\n",
        "Acme Utility\nConsolidated Statements of Cash Flows\n(in millions)\nYear ended December 31, 2022 2021\n"
        "Cash flows from investing activities\nProperty additions (5,709) (5,173)\nProceeds from sales of assets 12 9\n"
        "Net cash used in investing activities (5,697) (5,164)\n",
    ]
    pdf = ingest.process_and_index_pdf(write_pages(source_path("acme_capex_parts.pdf"), pages + OTHER))
    question = "How much did Acme spend on capital expenditures in 2022?"
    assert _first_page(pdf.doc_id, question, Ranking()) == 0  # the product (rule off): the prose repeating the words
    assert _first_page(pdf.doc_id, question, Ranking(capex_statement=True)) == 1


def test_a_question_for_the_period_a_filing_reports_on_finds_its_cover():
    pages = [
        cover_10q("ACME UTILITY", "June 30, 2023"),
        "Exhibit 32 Certification. In connection with this quarterly report on Form 10-Q of Acme Utility for the "
        "quarter, each officer certifies that the report fully complies and fairly presents the quarter's results.\n",
    ]
    pdf = ingest.process_and_index_pdf(write_pages(source_path("acme_period_parts.pdf"), pages + OTHER))
    question = "Which quarter does this Acme Form 10-Q report on?"
    assert cover_fact_wording(question) is None and cover_fact_wording(question, report_period=True) is not None
    assert _first_page(pdf.doc_id, question, Ranking()) == 1  # the product (rule off): the certification's words
    assert _first_page(pdf.doc_id, question, Ranking(cover_period=True)) == 0


def test_a_question_for_the_cause_of_a_change_keeps_the_prose_that_explains_it():
    pages = [
        "Item 7. Management's Discussion and Analysis\nIncome Tax Expense\n"
        "Income tax expense increased by $14 million in 2022. The effective tax rate was 21.0% compared to 20.6%. "
        "The increase was primarily attributable to higher provisions for uncertain tax positions and lower credits.\n",
        "Acme Rockets, Inc.\nConsolidated Statements of Operations\n(in millions)\nYears ended December 31, 2022 2021\n"
        "Revenue 1,200 1,100\nCost of revenue (800) (760)\nIncome before income taxes 400 340\n"
        "Provision for income taxes (84) (70)\nNet income 316 270\n",
    ]
    pdf = ingest.process_and_index_pdf(write_pages(source_path("acme_tax_cause.pdf"), pages + OTHER))
    question = "Why did Acme's effective tax rate rise in FY2022?"
    assert _first_page(pdf.doc_id, question, Ranking(cause_statements=True)) == 1  # the trap: the statement lifted
    assert _first_page(pdf.doc_id, question, Ranking()) == 0
    # "explain why" of an answer-format instruction is not a cause: the metric still lifts its statement
    compare = ("How does Acme's effective tax rate in FY2022 compare to FY2021? If the effective tax rate is not a "
               "useful metric for a company like this, then state that and explain why.")
    assert _first_page(pdf.doc_id, compare, Ranking()) == 1
    # a statement named in words is still lifted for a cause question
    assert len(asked_parts("Why did net income fall, per the income statement?", NAMED_STATEMENT_PARTS)) == 1
    assert asked_parts("Why did the gross margin fall?", NAMED_STATEMENT_PARTS) == []


def test_the_agenda_of_a_current_report_is_its_item_page_not_its_cover():
    from tests.fixtures_filings import cover_8k

    pages = [
        cover_8k("ACME ROCKETS, INC.", "April 26, 2022"),
        "Item 1.01. Entry into a Material Definitive Agreement.\nOn April 26, 2022, the Company entered into a "
        "five-year revolving credit facility of $1.9 billion with a syndicate of banks.\n",
        "Exhibit 10.1\nFIVE-YEAR SYNDICATED FACILITY AGREEMENT dated as of April 26, 2022 among the Company and the "
        "lenders party hereto. Article I. Definitions.\n",
    ]
    pdf = ingest.process_and_index_pdf(write_pages(source_path("acme_event_items.pdf"), pages + OTHER))
    question = "What was the key agenda of Acme's 8-K filed on April 26, 2022?"
    assert _first_page(pdf.doc_id, question, Ranking(event_item_weight=0.0)) == 0  # the trap: the cover's words
    assert _first_page(pdf.doc_id, question, Ranking()) == 1
    assert asked_parts("What was capital expenditure in the FY2022 10-K?", EVENT_ITEM_PARTS) == []
