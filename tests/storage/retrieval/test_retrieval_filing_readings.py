"""Which filing a question's period, date and issuer pick (storage/retrieval/selection_prior.py, the Ranking fields
stale_annual, date_after, period_per_issuer): each on two generated filings, and the prior's parts without PDFs."""

from __future__ import annotations

from storage.documents import ingest
from storage.retrieval.fusion import Ranking
from storage.retrieval.hybrid import HybridRetriever
from storage.retrieval.selection_prior import RECENT, selection_prior
from storage.schema import DocumentInfo
from tests.fixtures_filings import acme_10k_pages, cover_10q, cover_8k, source_path, write_pages

ACME = "Acme Rockets, Inc."
BEFORE = Ranking(stale_annual=False, date_after=False, period_per_issuer=False, fill_issuers=False, release_quarter=False)


def _info(name: str, form: str, year: int | None, end: str | None, date: str, issuer: str = ACME, quarter=None):
    return DocumentInfo(title=name, issuer=issuer, form=form, fiscal_year=year, fiscal_quarter=quarter,
                        period_end=end, date=date)


# ------------------------------------------------------------------ the prior, without PDFs


def test_a_stale_annual_report_is_not_the_present():
    infos = {
        "k15": _info("k15", "10-K", 2015, "2015-12-31", "2016-02-20"),
        "q23": _info("q23", "10-Q", 2023, "2023-06-30", "2023-08-01", quarter=2),
    }
    today = selection_prior("Which quarter is seasonally strongest?", infos)
    assert today["k15"] == today["q23"] == 0.0  # both "the present": no information
    stale = selection_prior("Which quarter is seasonally strongest?", infos, stale_annual=True)
    assert stale["q23"] == RECENT and stale["k15"] == 0.0
    # a 10-Q of the year after the annual report does not outdate it
    fresh = {**infos, "k22": _info("k22", "10-K", 2022, "2022-12-31", "2023-02-20")}
    prior = selection_prior("Which quarter is seasonally strongest?", fresh, stale_annual=True)
    assert prior["k22"] == prior["q23"] == RECENT and prior["k15"] == 0.0


def test_a_date_no_document_carries_picks_the_first_document_after_it():
    infos = {
        "release": _info("release", "earnings release", 2023, "2023-06-30", "2023-07-27", quarter=2),
        "q3": _info("q3", "10-Q", 2023, "2023-09-30", "2023-10-30", quarter=3),
        "old": _info("old", "10-Q", 2023, "2023-03-31", "2023-05-02", quarter=1),
    }
    question = "How many shares had the trust sold by July 19, 2023?"
    today = selection_prior(question, infos)
    assert today["q3"] >= today["release"]  # the year alone: the periodic report beats the release
    prior = selection_prior(question, infos, date_after=True)
    assert prior["release"] > prior["q3"] and prior["release"] > prior["old"]
    # a date a document carries still matches it exactly, whatever is later
    exact = selection_prior("What did the release of July 27, 2023 say?", infos, date_after=True)
    assert exact["release"] > exact["q3"]


def test_the_period_picks_among_an_issuers_filings_not_the_issuer():
    infos = {
        "zk23": _info("zk23", "10-K", 2023, "2023-05-31", "2023-07-15", issuer="Zenith Motors"),
        "aq23": _info("aq23", "10-Q", 2023, "2023-09-30", "2023-10-30", quarter=3),
        "ak16": _info("ak16", "10-K", 2016, "2016-12-31", "2017-02-20"),
    }
    question = "What return on equity is the utility authorized for 2022, and what did it request for 2023?"
    today = selection_prior(question, infos)
    assert today["zk23"] > today["aq23"]  # the other issuer's annual report wins on the period alone
    prior = selection_prior(question, infos, period_per_issuer=True)
    assert prior["zk23"] == prior["aq23"] == 1.0 and prior["ak16"] == 0.0
    # an issuer named keeps the issuer decisive
    named = selection_prior("Zenith Motors revenue for 2023?", infos, period_per_issuer=True)
    assert named["zk23"] == 1.0 and named["aq23"] == named["ak16"] == 0.0


def test_a_document_without_issuer_joins_the_issuer_its_cover_prints():
    infos = {
        "old": _info("old", "annual report", 2016, "2016-12-31", "2017-02-20", issuer=None),
        "new": _info("new", "10-K", 2022, "2022-12-31", "2023-02-20"),
    }
    covers = {"old": "ANNUAL REPORT 2016\nACME ROCKETS, INC.\nCape Canaveral", "new": "FORM 10-K\nACME ROCKETS, INC."}
    alone = selection_prior("What is capex?", infos, covers=covers)
    assert alone["old"] == alone["new"]  # the old report is an issuer of its own: its own present
    joined = selection_prior("What is capex?", infos, covers=covers, fill_issuers=True)
    assert joined["new"] == RECENT and joined["old"] == 0.0
    # a cover printing no selected issuer's name leaves the issuer unknown
    covers["old"] = "ANNUAL REPORT 2016\nZENITH MOTORS"
    assert selection_prior("What is capex?", infos, covers=covers, fill_issuers=True) == alone


def test_a_release_period_is_the_quarter_it_reports_not_a_comparative_year_end():
    from storage.retrieval.document_profile import fill_period

    cover = ("July 27, 2023\nAcme Rockets Reports Second-Quarter Results\nRecorded earnings were $0.19 per share for "
             "the second quarter of 2023, compared to $0.17 for the same period in 2022.\n"
             "Condensed Consolidated Balance Sheets\nYear ended December 31, 2022\nCash 1,200")
    info = DocumentInfo(title="r", issuer=ACME, form="earnings release", fiscal_quarter=2, date="2023-07-27")
    assert fill_period(info, cover).fiscal_year == 2022  # today: the comparative table's year-end
    filled = fill_period(info, cover, release_quarter=True)
    assert (filled.fiscal_year, filled.fiscal_quarter, filled.period_end) == (2023, 2, None)
    # a 10-Q is not a release: its "period ended" stays what it reads
    q = DocumentInfo(title="q", issuer=ACME, form="10-Q", date="2023-08-01")
    assert fill_period(q, cover, release_quarter=True).fiscal_year == 2022
    # the release question picks it over last year's annual report
    infos = {"r": info, "k": _info("k", "10-K", 2022, "2022-12-31", "2023-02-20")}
    prior = selection_prior("Second quarter 2023 earnings per share?", infos, covers={"r": cover, "k": ""},
                            fill_periods=True, release_quarter=True)
    assert prior["r"] > prior["k"]


# ------------------------------------------------------------------ on generated filings


def _index(name: str, pages: list[str]):
    return ingest.process_and_index_pdf(write_pages(source_path(name), pages))


def _seasonal(text: str) -> str:
    return f"{text} The Company's first fiscal quarter has historically had higher net sales due to seasonal holiday demand."


def test_stale_annual_report_yields_to_the_recent_quarterly_report():
    k15 = _index("k15.pdf", acme_10k_pages(2015, (1722, 1739, 1808), prose=False)[:1] + [
        _seasonal("Item 1. Business. Seasonality. Acme Rockets, Inc. sells launch services worldwide."),
        "Item 3. Legal Proceedings. None.",
    ])
    q23 = _index("q23.pdf", [
        cover_10q("ACME ROCKETS, INC.", "June 30, 2023"),
        "Part I. Item 1. Financial Statements. Condensed consolidated statements of operations (unaudited).",
        _seasonal("Item 2. Management's Discussion and Analysis. Seasonality."),
    ])
    question = "Which fiscal quarter is seasonally Acme's strongest?"
    docs = [k15.doc_id, q23.doc_id]
    today = HybridRetriever(docs, use_cache=False, ranking=BEFORE).search(question, k=2)
    assert today[0].chunk.doc_id == k15.doc_id  # the trap is real: the old annual report's page leads
    on = HybridRetriever(docs, use_cache=False, ranking=BEFORE.model_copy(update={"stale_annual": True})).search(question, k=2)
    assert (on[0].chunk.doc_id, on[0].chunk.page_number) == (q23.doc_id, 2)
    shipped = HybridRetriever(docs, use_cache=False).search(question, k=1)
    assert (shipped[0].chunk.doc_id, shipped[0].chunk.page_number) == (q23.doc_id, 2)


def test_a_date_picks_the_release_that_reports_it():
    sold = "As of {d}, the trust had sold 120 million shares of Acme Rockets common stock."
    release = _index("rel.pdf", [
        cover_8k("ACME ROCKETS, INC.", "July 27, 2023"),
        "Acme Rockets Reports Second-Quarter 2023 Results. Revenue 1,200. " + sold.format(d="July 19, 2023"),
    ])
    q3 = _index("q3.pdf", [
        cover_10q("ACME ROCKETS, INC.", "September 30, 2023"),
        "Item 2. Management's Discussion and Analysis. " + sold.format(d="October 20, 2023")
        + " The trust had sold shares of common stock in several sales.",
    ])
    question = "How many Acme shares had the trust sold by July 19, 2023?"
    today = HybridRetriever([release.doc_id, q3.doc_id], use_cache=False, ranking=BEFORE).search(question, k=2)
    assert today[0].chunk.doc_id == q3.doc_id  # the trap is real: the year alone prefers the periodic report
    on = HybridRetriever([release.doc_id, q3.doc_id], use_cache=False, ranking=BEFORE.model_copy(update={"date_after": True})).search(question, k=2)
    assert on[0].chunk.doc_id == release.doc_id
    assert HybridRetriever([release.doc_id, q3.doc_id], use_cache=False).search(question, k=1)[0].chunk.doc_id == release.doc_id


def test_the_period_does_not_pick_the_issuer():
    zenith = [p.replace("ACME ROCKETS, INC.", "ZENITH MOTORS, INC.").replace("Acme Rockets, Inc.", "Zenith Motors, Inc.")
              for p in acme_10k_pages(2023, (1500, 1400, 1300), prose=False)]
    zenith[3] = "Item 7. Management's Discussion. Our return on equity rose in 2023 from 2022."
    z = _index("z23.pdf", zenith)
    a = _index("a23.pdf", [
        cover_10q("ACME ROCKETS, INC.", "September 30, 2023"),
        "Item 2. Regulatory matters. The utility is authorized a return on equity of 10.25% for 2022. In its "
        "cost of capital application the utility requested a return on equity of 10.7% for 2023.",
        "Item 4. Controls and Procedures. No changes.",
    ])
    question = "What return on equity is the utility authorized for 2022, and what did it request for 2023?"
    docs = [z.doc_id, a.doc_id]
    today = HybridRetriever(docs, use_cache=False, ranking=BEFORE).search(question, k=2)
    assert today[0].chunk.doc_id == z.doc_id  # the trap is real: the annual report covering both years leads
    on = HybridRetriever(docs, use_cache=False, ranking=BEFORE.model_copy(update={"period_per_issuer": True})).search(question, k=2)
    assert (on[0].chunk.doc_id, on[0].chunk.page_number) == (a.doc_id, 1)
    shipped = HybridRetriever(docs, use_cache=False).search(question, k=1)
    assert (shipped[0].chunk.doc_id, shipped[0].chunk.page_number) == (a.doc_id, 1)


def test_a_year_naming_the_document_picks_it_whatever_other_years_are_asked():
    from storage.finance.forms import document_years

    assert document_years("How much is due in 2020 according to its FY2019 10-K?") == [2019]
    assert document_years("What does the 2021 annual report say about 2022?") == [2021]
    assert document_years("Per the Form 10-K for fiscal 2018, what was capex?") == [2018]
    assert document_years("What was capex in FY2019 and FY2020?") == []  # years of content, no document named
    infos = {
        "k19": _info("k19", "10-K", 2019, "2019-12-31", "2020-02-10"),
        "k20": _info("k20", "10-K", 2020, "2020-12-31", "2021-02-10"),
    }
    question = "How much debt principal is Acme scheduled to repay in 2020 according to its FY2019 10-K?"
    today = selection_prior(question, infos)
    assert today["k20"] > today["k19"]  # 2020 read as a period: the later report covers it as its own year
    prior = selection_prior(question, infos, document_period=True)
    assert prior["k19"] > prior["k20"]


def test_the_named_report_leads_over_the_next_years_report_on_generated_filings():
    def debt(year: int, rows: str) -> str:
        return (f"Note 10 - Debt\nTotal debt at December 31, {year} and {year - 1}: 27,302 13,847.\n"
                f"Scheduled principal payments for debt for the next five years are as follows: {rows}")

    k19 = _index("debt19.pdf", acme_10k_pages(2019, (1834, 1722, 1739), prose=False)
                 + [debt(2019, "2020 $7,306 2021 $1,484 2022 $1,214 2023 $780 2024 $1,000")])
    k20 = _index("debt20.pdf", acme_10k_pages(2020, (1303, 1834, 1722), prose=False)
                 + [debt(2020, "2021 $1,484 2022 $4,214 2023 $2,780 2024 $5,000 2025 $3,000. In 2020 we borrowed "
                                "$25 billion and repaid $7,306 million of debt due in 2020.")])
    question = "How much debt principal is Acme scheduled to repay in 2020 according to its FY2019 10-K?"
    docs = [k19.doc_id, k20.doc_id]
    before = HybridRetriever(docs, use_cache=False, ranking=Ranking(document_period=False)).search(question, k=2)
    assert before[0].chunk.doc_id == k20.doc_id  # the trap is real: the FY2020 report leads on "2020"
    shipped = HybridRetriever(docs, use_cache=False).search(question, k=2)
    assert (shipped[0].chunk.doc_id, shipped[0].chunk.page_number) == (k19.doc_id, 4)
