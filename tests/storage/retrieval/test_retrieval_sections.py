"""What a question names of a filing's parts (issue 28): each page's section read from the headings the
filing prints (page_sections), the section label as a ranking signal, and the section phrasings and
derived nouns of the keyword query (query_expansion.SECTION_GLOSSARY)."""

from __future__ import annotations

from storage.documents import catalog, ingest
from storage.retrieval.fusion import Ranking
from storage.retrieval.hybrid import HybridRetriever
from storage.retrieval.page_sections import page_sections, statement_kind
from storage.retrieval.query_expansion import derived_words, expand_query
from tests.fixtures_filings import cover_10k, source_path, write_pages

FILLER = "\n".join(f"Line {i} of ordinary narrative text about the period and its many activities." for i in range(12))


def ten_k_pages() -> list[str]:
    """A 10-K's layout: a table of contents, items, statements, notes; one note runs over two pages."""
    return [
        cover_10k("ACME ROCKETS, INC.", "December 31, 2022"),
        "INDEX\nItem 1. Business\nItem 1A. Risk Factors\nItem 3. Legal Proceedings\nItem 7. Management's Discussion\n"
        "Item 8. Financial Statements\nItem 9A. Controls and Procedures\n",
        "PART I\nItem 1. Business\nAcme Rockets designs launch vehicles for commercial satellite operators.\n" + FILLER,
        "Our launch services are sold under multi-year contracts.\n" + FILLER,
        "Item 1A. Risk Factors\nDemand for launches has historically been cyclical and very competitive.\n" + FILLER,
        "Item 7. Management's Discussion and Analysis\nRevenue grew on more launches, as discussed in "
        "Item 8 of this Annual Report.\n" + FILLER,
        "Item 8. Financial Statements and Supplementary Data\n" + FILLER,
        "Acme Rockets, Inc.\nConsolidated Statements of Operations\n(in millions)\nRevenue 1,200 1,100\n"
        "Cost of revenue (800) (760)\nNet income 210 180\n",
        "Notes to Consolidated Financial Statements\nNote 1 - Summary of Significant Accounting Policies\n" + FILLER,
        FILLER + "\nNote 12 - Legal Proceedings\nA customer filed a claim over a delayed launch.\n",
        "The court scheduled hearings for the second quarter; the company disputes the claim and its amount.\n"
        "Three other suits filed by former suppliers were dismissed during the year.\n" + FILLER,
        "NOTE 13: SEGMENT INFORMATION\nThe company has one reportable segment.\n" + FILLER,
    ]


def test_each_page_is_labelled_with_the_section_it_belongs_to():
    labels = page_sections(ten_k_pages())
    assert labels[1] == ""  # a table of contents changes nothing
    assert labels[2] == "Business" and labels[3] == "Business"  # carried over to a page that prints no heading
    assert "Risk Factors" in labels[4]
    assert labels[5] == "Risk Factors | Management's Discussion and Analysis"  # "Item 8 of this Annual Report": a reference
    assert "income statement" in labels[7]  # a primary statement, named the way questions name it
    assert labels[9] == "Summary of Significant Accounting Policies | Legal Proceedings"
    assert labels[10] == "Legal Proceedings"  # a note's second page, which never prints its title
    assert labels[11] == "Legal Proceedings | SEGMENT INFORMATION"


def test_numbered_notes_count_only_once_the_notes_have_begun():
    pages = ["1. Introduction to our strategy\nText.", "Notes to the Financial Statements\n1. Basis of Presentation\nText.",
             "Text of the basis.\n2. Income Taxes\nText."]
    assert page_sections(pages) == ["", "Basis of Presentation", "Basis of Presentation | Income Taxes"]


def test_a_statement_title_is_one_only_at_the_top_of_its_page():
    assert statement_kind(["Condensed Consolidated Balance Sheets (Unaudited)", "Assets"]).endswith(
        "balance sheet statement of financial position")
    assert statement_kind(["Statements of Financial Position at December 31 were as follows:"]) is None
    assert statement_kind(FILLER.splitlines() + ["Consolidated Statements of Cash Flows"]) is None


def test_the_section_label_lifts_a_notes_continuation_page():
    """"legal battles": the note's second page prints the suits, not the note's title; the label carries it."""
    pdf = ingest.process_and_index_pdf(write_pages(source_path("acme_sections.pdf"), ten_k_pages()))
    assert catalog.load_page_texts(pdf.doc_id)[10].startswith("The court")
    question = "Has the company reported any ongoing legal battles?"
    plain = HybridRetriever([pdf.doc_id], use_cache=False, ranking=Ranking(expand_sections=False)).search(question, k=3)
    labelled = HybridRetriever([pdf.doc_id], use_cache=False,
                               ranking=Ranking(section_weight=1.0, expand_sections=False)).search(question, k=3)
    assert plain[0].chunk.page_number != 10  # the trap: the table of contents, which prints "Legal Proceedings"
    assert labelled[0].chunk.page_number == 10


def test_derived_nouns_and_section_phrasings_join_the_keyword_query():
    assert derived_words("Is the business subject to cyclicality or seasonality?") == ["cyclical", "seasonal"]
    assert derived_words("What drove profitability?") == ["profitable"]
    assert derived_words("What was total revenue?") == []
    industry = expand_query("What industry does Acme primarily operate in?", sections=True).expansion
    assert "business" in industry.split()
    assert expand_query("What industry does Acme primarily operate in?").expansion == ""  # the old query
    assert "risk" in expand_query("Is it exposed to currency swings?", sections=True).expansion


def test_a_question_in_a_derived_noun_finds_the_page_stating_the_adjective():
    pages = ten_k_pages()
    pages[4] = "Item 1A. Risk Factors\nThe launch market is cyclical.\n" + FILLER
    pdf = ingest.process_and_index_pdf(write_pages(source_path("acme_cyclical.pdf"), pages))
    question = "Are Acme's launch services subject to cyclicality?"
    before = HybridRetriever([pdf.doc_id], use_cache=False, ranking=Ranking(expand_sections=False)).search(question, k=1)
    after = HybridRetriever([pdf.doc_id], use_cache=False).search(question, k=1)
    assert before[0].chunk.page_number == 3  # the query's own word is printed nowhere: the launch services page
    assert after[0].chunk.page_number == 4
