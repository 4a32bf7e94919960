"""The selection prior reads what a filing's first pages print when its DocumentInfo missed it: a
letter-spaced cover's period and form, and the name of the issuer the question names."""

from __future__ import annotations

import re

import pytest

from storage.documents import ingest
from storage.retrieval import hybrid
from storage.retrieval.document_profile import asks_for_cover, cover_fact_wording, cover_names, fill_period, named_issuers, prints
from storage.retrieval.fusion import Ranking
from storage.retrieval.hybrid import HybridRetriever
from storage.retrieval.selection_prior import selection_prior
from storage.schema import DocumentInfo
from tests.fixtures_filings import acme_10k_pages, source_path, write_pages

BEFORE = Ranking(fill_periods=False, cover_issuers=False)


def spaced_cover(year: int) -> str:
    """A cover as some filings' text layer reads: letter-spaced words, the registrant's name in a table
    cell after its label (no "(Exact name of registrant" line under it)."""
    return (
        "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\nFORM   10-K\n(Mark One)\n"
        "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n"
        f"For the Fis cal Year Ended December 31, {year}\n"
        "Commission File Number   Exact Name of Registrant as S pecified I n I ts C harter   State of Incorporation\n"
        "1-4242   ACME ROCKETS, INC.   Delaware   41-0000000\n"
    )


def spaced_10k(name: str, year: int, capex: tuple[int, int, int], prose: bool):
    pages = acme_10k_pages(year, capex, prose=prose)
    pages[0] = spaced_cover(year)
    return ingest.process_and_index_pdf(write_pages(source_path(name), pages))


@pytest.fixture
def read_as_before_the_cover_fix(monkeypatch):
    """Ingestion as it read covers before it learnt letter-spaced periods and registrants in a table
    (storage/documents/metadata.py): libraries ingested then keep such DocumentInfo, which the query-time
    reader fills in."""
    from storage.documents import metadata  # import here: patched for this fixture only

    monkeypatch.setattr(metadata, "COVER_YEAR_ENDED", re.compile(r"for\s+the\s+(?:fiscal\s+)?year\s+ended\s*:?\s*", re.I))
    monkeypatch.setattr(metadata, "_REGISTRANT_HEADER", re.compile(r"(?!)"))


@pytest.fixture
def two_spaced_10ks(read_as_before_the_cover_fix):
    """FY2016 and FY2022 10-Ks of one issuer, both covers letter-spaced; the FY2022 one talks more about capex."""
    return (spaced_10k("spaced_a.pdf", 2016, (1722, 1739, 1808), prose=False),
            spaced_10k("spaced_b.pdf", 2022, (1222, 980, 1303), prose=True))


def test_a_year_printed_only_on_a_letter_spaced_cover_picks_the_filing(two_spaced_10ks):
    fy16, fy22 = two_spaced_10ks
    infos = hybrid.documents_of([fy16.doc_id, fy22.doc_id])
    assert infos[fy16.doc_id].fiscal_year is None and infos[fy16.doc_id].period_end is None  # what ingestion missed
    ids = [fy16.doc_id, fy22.doc_id]
    question = "What were the capital expenditures in fiscal 2016?"
    # the trap is real: without the cover's period, the FY2022 filing's capex prose leads
    assert HybridRetriever(ids, use_cache=False, ranking=BEFORE).search(question, k=1)[0].chunk.doc_id == fy22.doc_id
    hit = HybridRetriever(ids, use_cache=False).search(question, k=1)[0]
    assert (hit.chunk.doc_id, hit.chunk.page_number) == (fy16.doc_id, 2)
    later = HybridRetriever(ids, use_cache=False).search("What were the capital expenditures in fiscal 2022?", k=1)[0]
    assert (later.chunk.doc_id, later.chunk.page_number) == (fy22.doc_id, 2)


def test_a_filing_whose_cover_prints_the_named_issuer_is_that_issuers(read_as_before_the_cover_fix):
    """The issuer's release is read (issuer known); its 10-K's cover is not: the 10-K must not count as another issuer's."""
    k = spaced_10k("spaced_k.pdf", 2016, (1722, 1739, 1808), prose=False)
    release = ingest.process_and_index_pdf(write_pages(source_path("acme_release.pdf"), [
        "February 2, 2024\nAcme Rockets Announces Fourth Quarter 2023 Results\n"
        "HAWTHORNE, Calif.--(BUSINESS WIRE)-- Acme Rockets, Inc. (NYSE: ACME) today announced results. "
        "Capital expenditures were $2,410 million; we expect capital expenditures of $2.6 billion.",
        "Purchases of property, plant and equipment (2,410) (1,222)",
    ]))
    ids = [k.doc_id, release.doc_id]
    infos = hybrid.documents_of(ids)
    assert infos[release.doc_id].issuer and not infos[k.doc_id].issuer
    question = "What were Acme Rockets' capital expenditures in 2016?"
    before = HybridRetriever(ids, use_cache=False, ranking=BEFORE).search(question, k=1)[0]
    assert before.chunk.doc_id == release.doc_id  # the 10-K scored as another issuer's
    only_periods = Ranking(cover_issuers=False, fill_issuers=False)  # fill_issuers reads the same cover name
    assert HybridRetriever(ids, use_cache=False, ranking=only_periods).search(question, k=1)[0].chunk.doc_id == release.doc_id
    hit = HybridRetriever(ids, use_cache=False).search(question, k=1)[0]
    assert (hit.chunk.doc_id, hit.chunk.page_number) == (k.doc_id, 2)


# ------------------------------------------------------------------ the parts, without PDFs


def test_fill_period_reads_what_the_cover_prints_and_keeps_what_is_known():
    empty = DocumentInfo(title="x")
    annual = fill_period(empty, spaced_cover(2016))
    assert (annual.form, annual.fiscal_year, annual.period_end) == ("10-K", 2016, "2016-12-31")
    quarter = fill_period(empty, "FORM 10-Q\nQUARTERLY REPORT\nFor the quarterly period ended September 30, 2022\n")
    assert (quarter.form, quarter.fiscal_year, quarter.period_end, quarter.fiscal_quarter) == ("10-Q", 2022, "2022-09-30", None)
    release = fill_period(DocumentInfo(title="x", form="earnings release"),
                          "News Release\nIntel Reports Fourth-Quarter and Full-Year 2022 Financial Results\n")
    assert (release.fiscal_year, release.fiscal_quarter) == (2022, 4)
    known = DocumentInfo(title="x", form="annual report", fiscal_year=2019, period_end="2019-05-31")
    assert fill_period(known, spaced_cover(2016)) == known  # DocumentInfo's own reading wins
    # a headline's quarter is read only for a release (a 10-K's text speaks of quarters too)
    assert fill_period(DocumentInfo(title="x", form="10-K"), "Our fourth quarter 2021 was strong").fiscal_year is None


def test_cover_names_match_only_names_the_question_says():
    words = "what were pg&e corporation capital expenditures in 2016".split()
    names = named_issuers(words, ["PG&E Corporation", "Acme Rockets, Inc.", "Santa Clara, CA 95054-1549 News Release Intel"])
    assert names == ["pg&e"]
    assert cover_names(names, "FORM 10-K ... PG&E CORPORATION   California ... PACIFIC GAS AND ELECTRIC COMPANY")
    assert not cover_names(names, "FORM 10-K ... ACME ROCKETS, INC.")


def test_a_question_asking_for_the_cover_gets_the_cover_page():
    cover = (spaced_cover(2022).replace("Fis cal", "Fiscal")
             + "Indicate by check mark whether the registrant is a shell company. Yes No X\n"
             "As of February 1, 2023, 112,400,000 shares of common stock were outstanding.\n")
    equity = ("Note 9. Stockholders' Equity. Common stock outstanding: shares of common stock outstanding at the "
              "beginning of the year 113,100,000; shares repurchased 700,000; common shares outstanding at the end "
              "of the year 112,400,000. Weighted average common shares outstanding 112,800,000.")
    pages = acme_10k_pages(2022, (1222, 980, 1303), prose=False)
    doc = ingest.process_and_index_pdf(write_pages(source_path("cover.pdf"), [cover, pages[1], equity, pages[2]]))
    question = "How many common shares were outstanding according to the cover of the 2022 10-K?"
    # the trap is real: the equity note says "shares outstanding" more often
    assert HybridRetriever([doc.doc_id], use_cache=False, ranking=Ranking(cover_weight=0.0)).search(question, k=1)[0].chunk.page_number == 2
    assert HybridRetriever([doc.doc_id], use_cache=False).search(question, k=1)[0].chunk.page_number == 0
    # a question about what a filing covers is no question about its cover
    assert HybridRetriever([doc.doc_id], use_cache=False).search(
        "How many common shares were outstanding in the period covered?", k=1)[0].chunk.page_number == 2


def test_asks_for_cover():
    assert asks_for_cover("How many shares were outstanding per the cover page of the Q3 2023 10-Q?")
    assert asks_for_cover("shares outstanding according to the cover of its FY2015 10-K")
    assert not asks_for_cover("What date did the quarter covered by the 10-Q end?")
    assert not asks_for_cover("What is the interest coverage ratio?")


def test_a_form_named_without_a_period_decides_whatever_the_present():
    infos = {
        "k": DocumentInfo(title="k", issuer="Acme Rockets, Inc.", form="10-K", fiscal_year=2022, period_end="2022-12-31"),
        "q": DocumentInfo(title="q", issuer="Acme Rockets, Inc.", form="10-Q", fiscal_year=2021, fiscal_quarter=3,
                          period_end="2021-09-30"),
        "r": DocumentInfo(title="r", issuer="Acme Rockets, Inc.", form="earnings release", fiscal_year=2023,
                          fiscal_quarter=1, period_end="2023-03-31"),
    }
    question = "How many Acme Rockets shares were outstanding per the 10-Q cover?"
    before = selection_prior(question, infos)
    assert before["q"] <= before["k"]  # the only 10-Q, not the issuer's present: no better than the 10-K
    prior = selection_prior(question, infos, form_decides=True)
    assert prior["q"] > prior["k"] and prior["q"] > prior["r"]
    # no form named: unchanged, the present (latest annual report and later) is weakly preferred
    plain = "How many Acme Rockets shares were outstanding?"
    assert selection_prior(plain, infos, form_decides=True) == selection_prior(plain, infos)


def test_asks_for_what_the_cover_states():
    for question, printed in (("On what date did Acme's fiscal year 2015 end?", "For the fiscal year ended May 26, 2015"),
                              ("What date did the quarter covered by the 10-Q end?", "For the quarterly period ended July 1"),
                              ("Where is Acme headquartered?", "Address of principal executive offices"),
                              ("What is Acme's state of incorporation?", "(State or other jurisdiction of incorporation)"),
                              ("What is Acme's trading symbol?", "Title of each class Trading Symbol(s)")):
        wording = cover_fact_wording(question)
        assert wording is not None and prints(wording, printed) and not asks_for_cover(question)
    assert not prints(cover_fact_wording("Where is Acme headquartered?"), "For the fiscal year ended May 26, 2015")
    for question in ("What was revenue in the quarter that ended June 30?", "When does the fiscal year end?",
                     "When did the company end its buyback program?"):
        assert cover_fact_wording(question) is None


def test_a_question_for_the_period_end_date_gets_the_cover_page():
    cover = spaced_cover(2022)  # letter-spaced: "For the Fis cal Year Ended December 31, 2022"
    policies = ("Note 1. Basis of Presentation. The Company's fiscal year is the 52 or 53-week period that ends on "
                "the last Saturday of December. Fiscal year 2022 spanned 52 weeks.")
    pages = acme_10k_pages(2022, (1222, 980, 1303), prose=False)
    narrative = [f"Item 7. Management's Discussion, part {n}. Launch volumes and pricing moved with demand." for n in range(6)]
    doc = ingest.process_and_index_pdf(write_pages(source_path("period_end.pdf"),
                                                   [cover, pages[1], policies, pages[2], *narrative, pages[3]]))
    question = "On what date did Acme's fiscal year 2022 end?"
    # the trap is real: the policy note says when the fiscal year ends, in the question's words
    assert HybridRetriever([doc.doc_id], use_cache=False, ranking=Ranking(cover_facts=False)).search(
        question, k=1)[0].chunk.page_number == 2
    assert HybridRetriever([doc.doc_id], use_cache=False).search(question, k=1)[0].chunk.page_number == 0
