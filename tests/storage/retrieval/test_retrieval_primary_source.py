"""With several documents of one issuer and period selected, the periodic report (10-K / 10-Q) is
the primary source: it leads over the same quarter's earnings release unless the question asks for
the release, and "no period named" means the issuer's present (latest annual report and later)."""

from __future__ import annotations

import pytest

from storage.documents import ingest
from storage.retrieval import hybrid
from storage.retrieval import selection_prior
from storage.retrieval.fusion import Ranking
from storage.retrieval.hybrid import HybridRetriever
from storage.schema import DocumentInfo
from storage.retrieval.selection_prior import RECENT, SECONDARY
from tests.fixtures_filings import cover_10k, cover_10q, source_path, write_pages

BALANCE = (
    "Condensed Consolidated Balance Sheets (in millions)\n"
    "June 30, 2024 December 31, 2023\n"
    "Cash and cash equivalents 1,234 1,874\n"
    "Merchandise inventories 5,120 4,960\n"
    "Total current assets 9,870 9,990"
)



@pytest.fixture
def quarter_pair():
    """Acme's Q2 2024 10-Q and its Q2 2024 earnings release; the release talks more about cash (the trap)."""
    q = ingest.process_and_index_pdf(write_pages(source_path("filing_q.pdf"), [
        cover_10q("ACME ROCKETS, INC.", "June 30, 2024"),
        "Item 1. Financial Statements.\n" + BALANCE,
        "Item 2. Management's Discussion and Analysis. Launch volumes grew in the three and six months ended "
        "June 30, 2024.",
    ]))
    r = ingest.process_and_index_pdf(write_pages(source_path("release_q.pdf"), [
        "July 25, 2024\nAcme Rockets Announces Second Quarter 2024 Results\n"
        "HAWTHORNE, Calif.--(BUSINESS WIRE)-- Acme Rockets, Inc. (NYSE: ACME) today announced results for the "
        "second quarter ended June 30, 2024. Cash and cash equivalents were $1,234 million at quarter end.",
        BALANCE,
    ]))
    return q, r


def test_the_periodic_report_leads_over_the_same_quarters_release(quarter_pair):
    q, r = quarter_pair
    infos = hybrid.documents_of([q.doc_id, r.doc_id])
    assert (infos[q.doc_id].form, infos[q.doc_id].fiscal_quarter) == ("10-Q", 2)
    assert (infos[r.doc_id].form, infos[r.doc_id].fiscal_quarter) == ("earnings release", 2)
    question = "Was there any drop in cash and cash equivalents in Q2 2024?"
    # the trap is real: with no preference, the release's cash sentences lead
    no_preference = Ranking(secondary=1.0)
    assert HybridRetriever([q.doc_id, r.doc_id], use_cache=False, ranking=no_preference).search(question, k=1)[0].chunk.doc_id == r.doc_id
    assert HybridRetriever([q.doc_id, r.doc_id], use_cache=False).search(question, k=1)[0].chunk.doc_id == q.doc_id
    # asking for the release gets the release
    asked = "What did the Q2 2024 earnings release say about cash and cash equivalents?"
    assert HybridRetriever([q.doc_id, r.doc_id], use_cache=False).search(asked, k=1)[0].chunk.doc_id == r.doc_id


def _info(form, end, quarter=None, issuer="Acme Rockets, Inc."):
    return DocumentInfo(title=f"{form} {end}", issuer=issuer, form=form, fiscal_year=int(end[:4]),
                        fiscal_quarter=quarter, period_end=end)


def test_a_release_keeps_its_full_match_when_no_periodic_report_covers_its_period():
    infos = {
        "k23": _info("10-K", "2023-12-31"),
        "r23": _info("earnings release", "2023-12-31", 4),
        "r24": _info("earnings release", "2024-06-30", 2),
        "other": _info("earnings release", "2023-12-31", 4, issuer="Zenith Motors"),
    }
    prior = selection_prior.selection_prior("Net sales in FY2023?", infos)
    assert prior["k23"] == 1.0 and prior["r23"] == SECONDARY  # same issuer, same year: the 10-K leads
    assert prior["other"] == 1.0  # another issuer's release has no periodic report beside it
    prior = selection_prior.selection_prior("Net sales in the Q2 2024 quarter?", infos)
    assert prior["r24"] == max(prior.values()) > prior["k23"]  # nothing files Q2 2024 but the release
    named = selection_prior.selection_prior("Net sales in the FY2023 press release?", infos)
    assert named["r23"] > named["k23"]  # a form named in the question overrides the preference


def test_no_period_named_means_the_latest_annual_report_and_what_followed_it():
    infos = {
        "k22": _info("10-K", "2022-12-31"),
        "k23": _info("10-K", "2023-12-31"),
        "r23": _info("earnings release", "2023-12-31", 4),  # the 10-K's own period: the 10-K is its source
        "q24": _info("10-Q", "2024-06-30", 2),
        "r24": _info("earnings release", "2024-06-30", 2),
        "8k": DocumentInfo(title="8k", issuer="Acme Rockets, Inc.", form="8-K", date="2024-08-01"),
    }
    prior = selection_prior.selection_prior("Are gross margins historically consistent?", infos)
    assert prior["k23"] == prior["q24"] == RECENT
    assert prior["r24"] == RECENT * SECONDARY  # the 10-Q of its quarter is beside it
    assert prior["k22"] == prior["r23"] == prior["8k"] == 0.0
    only_releases = {"r1": _info("earnings release", "2024-03-31", 1), "r2": _info("earnings release", "2024-06-30", 2)}
    prior = selection_prior.selection_prior("What drove sales?", only_releases)
    assert prior == {"r1": 0.0, "r2": RECENT}  # without an annual report: the latest period


def _annual_pair():
    """Acme's FY2023 10-K and its glossy 2023 annual report binding the same 10-K pages after a letter."""
    body = [
        "Item 7. Management's Discussion and Analysis. Freight volumes and launch revenue grew in fiscal 2023 "
        "on new contracts; the Freight segment's operating income rose on higher yields.",
        "Item 8. Financial Statements.\n" + BALANCE,
    ]
    k = ingest.process_and_index_pdf(write_pages(source_path("acme_10k_2023.pdf"), [
        cover_10k("ACME ROCKETS, INC.", "December 31, 2023"), *body]))
    glossy = ingest.process_and_index_pdf(write_pages(source_path("acme_glossy_2023.pdf"), [
        "ACME ROCKETS 2023 ANNUAL REPORT\nFor the fiscal year ended December 31, 2023",
        "Dear shareholders, fiscal 2023 was a year of growth for our launch and freight businesses.",
        "Our people. Our crews flew 40 missions from three launch sites and opened a training centre.",
        cover_10k("ACME ROCKETS, INC.", "December 31, 2023"), *body]))
    return k, glossy


def test_the_filed_10k_leads_its_glossy_annual_report_of_the_same_year(pdf_home):
    k, glossy = _annual_pair()
    infos = hybrid.documents_of([k.doc_id, glossy.doc_id])
    assert (infos[k.doc_id].form, infos[glossy.doc_id].form) == ("10-K", "annual report")
    assert infos[glossy.doc_id].issuer == infos[k.doc_id].issuer
    question = "What drove the Freight segment's operating income growth in fiscal 2023?"
    priors = selection_prior.selection_prior(question, infos, filed_annual=True)
    assert priors[k.doc_id] > priors[glossy.doc_id] > 0  # the other stays selected, a step behind
    assert selection_prior.selection_prior(question, infos)[k.doc_id] == selection_prior.selection_prior(question, infos)[glossy.doc_id]
    # the trap is real: with both at one prior, the glossy copy of the page leads (its letter talks of growth too)
    before = Ranking(filed_annual=False)
    assert HybridRetriever([k.doc_id, glossy.doc_id], use_cache=False, ranking=before).search(question, k=1)[0].chunk.doc_id == glossy.doc_id
    first = HybridRetriever([k.doc_id, glossy.doc_id], use_cache=False).search(question, k=2)  # the product's ranking
    assert first[0].chunk.doc_id == k.doc_id and first[0].chunk.page_number == 1
    assert first[1].chunk.doc_id == glossy.doc_id and first[1].chunk.page_number == 4  # the same page, next
    # an annual report with no 10-K of its year beside it keeps its whole match
    alone = {glossy.doc_id: infos[glossy.doc_id], "other": infos[k.doc_id].model_copy(update={"fiscal_year": 2021,
                                                                                             "period_end": "2021-12-31"})}
    assert selection_prior.selection_prior(question, alone, filed_annual=True)[glossy.doc_id] == \
        selection_prior.selection_prior(question, alone)[glossy.doc_id]
