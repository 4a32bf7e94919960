"""Document info (issuer, form, period, title) read from generated cover pages, not file names."""

from __future__ import annotations

import json
import os

import pymupdf

from storage.documents import catalog
from storage.documents import ingest, metadata
from storage.documents.metadata import document_years, extract_document_info, unique_titles
from storage.schema import DocumentInfo, PageContent
from tests.fixtures_filings import cover_8k, cover_10k, cover_10q, source_path, write_pages


def _info(path) -> DocumentInfo:
    with pymupdf.open(path) as doc:
        pages = [PageContent(page_number=i, text=p.get_text()) for i, p in enumerate(doc)]
        return extract_document_info(doc, pages, path.name)


def test_10k_with_a_january_year_end_uses_the_companys_own_fiscal_label(tmp_path):
    path = write_pages(
        tmp_path / "upload_1.pdf",
        [
            cover_10k("NORTHWIND STORES, INC.", "January 28, 2023"),
            "Northwind Stores, Inc. operates 400 stores. In fiscal 2022 we opened 12 stores and at the end "
            "of fiscal 2022 we employed 9,000 people. Fiscal 2022 included 52 weeks; fiscal 2021 included 52 weeks.",
        ],
    )
    info = _info(path)
    assert (info.form, info.issuer) == ("10-K", "Northwind Stores, Inc.")
    assert (info.fiscal_year, info.fiscal_quarter, info.period_end) == (2022, None, "2023-01-28")
    assert info.title == "Northwind Stores · 10-K · FY2022"
    assert document_years(info) == {2022, 2023}  # either convention a question may use


def test_10k_without_a_label_takes_the_year_the_period_ends(tmp_path):
    path = write_pages(tmp_path / "scan0003.pdf", [cover_10k("THE ACME ROCKET COMPANY", "December 31, 2018"), "Business."])
    info = _info(path)
    assert (info.fiscal_year, info.period_end, info.title) == (2018, "2018-12-31", "Acme Rocket · 10-K · FY2018")


def test_10q_reads_quarter_from_the_interim_periods_and_the_fiscal_year_label(tmp_path):
    path = write_pages(
        tmp_path / "document.pdf",
        [
            cover_10q("BLUE HERON CO., INC.", "July 29, 2023"),
            "Condensed Consolidated Statements of Earnings for the three and six months ended July 29, 2023. "
            "Read with our Annual Report on Form 10-K for the fiscal year ended January 28, 2023. "
            "The first six months of fiscal 2024 and fiscal 2023 included 26 weeks.",
        ],
    )
    info = _info(path)
    assert (info.form, info.fiscal_quarter, info.fiscal_year, info.period_end) == ("10-Q", 2, 2024, "2023-07-29")
    assert info.title == "Blue Heron · 10-Q · Q2 FY2024"


def test_8k_is_dated_by_its_event(tmp_path):
    path = write_pages(tmp_path / "a.pdf", [cover_8k("ULTRA GLOW, INC.", "June 1, 2023"), "Item 5.07 Submission of Matters."])
    info = _info(path)
    assert (info.form, info.issuer, info.date, info.fiscal_year) == ("8-K", "Ultra Glow, Inc.", "2023-06-01", None)
    assert info.title == "Ultra Glow · 8-K · 2023-06-01"


def test_earnings_release_headline_dateline_and_period(tmp_path):
    path = write_pages(
        tmp_path / "release.pdf",
        [
            "March 9, 2023\nContoso Beauty Announces Fourth Quarter\nFiscal 2022 Results\n"
            "Net Sales of $3.2 Billion\nBOLINGBROOK, Ill.--(BUSINESS WIRE)-- Contoso Beauty, Inc. (NASDAQ: CTSO) today "
            "announced financial results for the thirteen-week period (fourth quarter) and fifty-two-week period "
            "(fiscal year) ended January 28, 2023 compared to the same periods ended January 29, 2022.",
        ],
    )
    info = _info(path)
    assert (info.form, info.issuer) == ("earnings release", "Contoso Beauty, Inc.")
    assert (info.fiscal_quarter, info.fiscal_year, info.period_end, info.date) == (4, 2022, "2023-01-28", "2023-03-09")
    assert info.title == "Contoso Beauty · earnings release · Q4 FY2022"


def test_a_paper_degrades_to_its_largest_line_and_metadata_date(tmp_path):
    path = write_pages(
        tmp_path / "x1.pdf",
        ["Tidal Energy in Shallow Estuaries\nWe measure currents at nine sites over two years and model turbine yield."],
        metadata={"creationDate": "D:20210304101500Z", "title": ""},
        title_font=22,
    )
    info = _info(path)
    assert (info.form, info.issuer, info.fiscal_year) == ("other", None, None)
    assert info.title == "Tidal Energy in Shallow Estuaries"
    assert info.date == "2021-03-04" and info.period_label == "2021-03-04"


def test_unique_titles_disambiguate_by_period_then_file_name():
    a = DocumentInfo(title="Acme · 10-K · FY2022", form="10-K", fiscal_year=2022, period_end="2022-12-31")
    b = DocumentInfo(title="Acme · 10-K · FY2022", form="10-K", fiscal_year=2022, period_end="2023-01-28")
    c = DocumentInfo(title="Acme · 10-K · FY2022", form="10-K", fiscal_year=2022, period_end="2023-01-28")
    titles = unique_titles([("a", a, "a.pdf"), ("b", b, "b.pdf"), ("c", c, "c.pdf")])
    assert len(set(titles.values())) == 3
    assert titles["a"] == "Acme · 10-K · FY2022 (2022-12-31)"
    assert titles["b"].endswith("(b.pdf)") and titles["c"].endswith("(c.pdf)")


def test_ingestion_stores_info_in_manifest_summary_and_unique_library_titles():
    pages = [cover_10k("ACME ROCKETS, INC.", "December 31, 2022"), "Item 1. Business. Acme designs launch vehicles."]
    one = ingest.process_and_index_pdf(write_pages(source_path("first.pdf"), pages))
    # the same filing again (another download, one more page): same cover, so the same base title
    two = ingest.process_and_index_pdf(write_pages(source_path("second.pdf"), pages + ["Exhibit 21."]))
    assert one.info is not None and one.info.title == "Acme Rockets · 10-K · FY2022"
    assert catalog.load_manifest(one.doc_id).info == one.info
    assert "Acme Rockets · 10-K · FY2022" in one.summary and "issuer: Acme Rockets, Inc." in one.summary
    titles = {d: i.title for d, i in catalog.library_infos().items()}
    assert titles[one.doc_id] != titles[two.doc_id]
    assert titles[one.doc_id].startswith("Acme Rockets · 10-K · FY2022")


def test_manifest_written_before_document_info_gets_it_lazily():
    pdf = ingest.process_and_index_pdf(
        write_pages(source_path("old.pdf"), [cover_10k("ACME ROCKETS, INC.", "December 31, 2019"), "Business."])
    )
    path = catalog.get_pdf_output_dirs(pdf.doc_id).manifest_path
    old = pdf.model_copy(update={"info": None})
    path.write_text(old.model_dump_json())  # what an older build wrote
    assert catalog.check_pdf_processed(pdf.doc_id)  # still processed: nothing to re-embed
    info = catalog.library_infos()[pdf.doc_id]
    assert (info.title, info.fiscal_year) == ("Acme Rockets · 10-K · FY2019", 2019)


def test_a_letter_spaced_cover_with_the_registrant_in_a_table_is_read(tmp_path):
    """Some covers' text layer reads letter-spaced ("For the Fis cal Year E nded") and print the registrant's
    name in a table row under an "Exact Name of Registrant" column header (no parenthesised label under it)."""
    cover = (
        "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\nFORM   10-K\n(Mark One)\n"
        "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n"
        "For the Fis cal Year E nded December 31, 2016\n"
        "Commission File Number   Exact Name of Registrant as S pecified I n I ts C harter   State of Incorporation\n"
        "1-4242   ACME ROCKETS, INC.   Delaware   41-0000000\n"
    )
    info = _info(write_pages(tmp_path / "spaced.pdf", [cover, "Acme Rockets, Inc. designs launch vehicles."]))
    assert (info.form, info.issuer, info.period_end, info.fiscal_year) == ("10-K", "Acme Rockets, Inc.", "2016-12-31", 2016)
    quarterly = cover.replace("FORM   10-K", "FORM 10-Q").replace("For the Fis cal Year E nded December 31, 2016",
                                                                 "For the quarter ly period e nded June 30, 2016")
    info = _info(write_pages(tmp_path / "spaced_q.pdf", [quarterly, "Three and six months ended June 30, 2016."]))
    assert (info.form, info.issuer, info.period_end) == ("10-Q", "Acme Rockets, Inc.", "2016-06-30")


def test_info_an_older_cover_reader_wrote_is_read_again_without_reembedding():
    pdf = ingest.process_and_index_pdf(
        write_pages(source_path("stale.pdf"), [cover_10k("ACME ROCKETS, INC.", "December 31, 2020"), "Business."])
    )
    stored = catalog.load_manifest(pdf.doc_id)
    assert stored.info_reader == metadata.READER  # today's builds carry the stamp
    path = catalog.get_pdf_output_dirs(pdf.doc_id).manifest_path
    wrong = stored.info.model_copy(update={"issuer": "", "fiscal_year": 2019, "title": "old reader"})
    manifest = json.loads(stored.model_dump_json(exclude={"info_reader"}))  # an older build: no stamp
    manifest["info"] = json.loads(wrong.model_dump_json())
    path.write_text(json.dumps(manifest))
    assert catalog.check_pdf_processed(pdf.doc_id)  # still processed: nothing to re-embed
    info = catalog.library_infos()[pdf.doc_id]
    assert (info.issuer, info.fiscal_year, info.title) == ("Acme Rockets, Inc.", 2020, "Acme Rockets · 10-K · FY2020")
    os.remove(stored.source_path)  # the source gone: the older info rather than none
    manifest["processed_at"] = "2020-01-01T00:00:00+00:00"  # (another build: not the info kept for the process)
    path.write_text(json.dumps(manifest))
    assert catalog.document_info(catalog.load_manifest(pdf.doc_id)).title == "old reader"
