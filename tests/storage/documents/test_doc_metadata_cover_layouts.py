"""Cover layouts whose issuer, form or period the cover reader missed, each on a generated PDF: a registrants'
table with a narrow "Exact Name of / Registrant" column, two registrants above one shared label, a release
headline without a year or a period-end date, a 10-Q whose first pages print no interim spans, and an annual
report that binds in its 10-K after pages of its own."""

from __future__ import annotations

import pymupdf

from storage.documents.metadata import extract_document_info
from storage.schema import DocumentInfo, PageContent
from tests.fixtures_filings import write_pages

_HEAD = "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\n"


def _info(path) -> DocumentInfo:
    with pymupdf.open(path) as doc:
        pages = [PageContent(page_number=i, text=p.get_text()) for i, p in enumerate(doc)]
        return extract_document_info(doc, pages, path.name)


def _narrow_table_cover(form: str, period_line: str, first: str = "Harbor Light Corporation") -> str:
    # each cell on its own line, as a text layer reads a multi-column registrants' table
    return (_HEAD + f"FORM {form}\n(Mark One)\nQUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d)\n{period_line}\nOR\n"
            "TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d)\nFor the transition period from ____ to ____\n"
            "Commission\nFile\nNumber\nExact Name of\nRegistrant\nas Specified\nin its Charter\nState or Other\n"
            "Jurisdiction of\nIncorporation\nIRS Employer\nIdentification\nNumber\n"
            f"1-1111\n{first}\nOregon\n93-0000001\n1-2222\nHarbor Light Power Company\nOregon\n93-0000002\n")


def test_a_registrants_table_with_a_narrow_name_column_names_the_first_registrant(tmp_path):
    cover = _narrow_table_cover("10-Q", "For the quarterly period ended September 30, 2022")
    body = ("Harbor Light Corporation. Read with the Annual Report on Form 10-K for the year ended December 31, 2021. "
            "Glossary of terms used in this report.")
    info = _info(write_pages(tmp_path / "q.pdf", [cover, body]))
    assert (info.issuer, info.form, info.period_end, info.fiscal_year) == (
        "Harbor Light Corporation", "10-Q", "2022-09-30", 2022)
    # no "three and nine months ended" on the first pages: the quarter counts from the prior 10-K's year end
    assert info.fiscal_quarter == 3
    # a name in capitals in the same table reads in the case the document prints elsewhere
    info = _info(write_pages(tmp_path / "caps.pdf", [_narrow_table_cover(
        "10-K", "For the Fiscal Year Ended December 31, 2016", first="HARBOR LIGHT CORPORATION"), body]))
    assert (info.issuer, info.form, info.period_end) == ("Harbor Light Corporation", "10-K", "2016-12-31")


def test_a_10q_quarter_is_not_guessed_when_the_prior_year_end_is_not_a_quarter_away(tmp_path):
    cover = _narrow_table_cover("10-Q", "For the quarterly period ended August 15, 2022")
    body = "Read with the Annual Report on Form 10-K for the year ended December 31, 2021."
    info = _info(write_pages(tmp_path / "odd.pdf", [cover, body]))
    assert (info.form, info.period_end, info.fiscal_quarter) == ("10-Q", "2022-08-15", None)


def test_two_registrants_above_one_label_give_the_first(tmp_path):
    cover = (_HEAD + "FORM 10-K\nANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d)\n"
             "For the fiscal year ended December 31, 2015\n"
             "Commission File Number: 1-3333 (Granite Towers, Inc.)\n"
             "GRANITE TOWERS, INC.\nGRANITE TOWERS LIMITED PARTNERSHIP\n"
             "(Exact name of Registrants as specified in its charter)\nDelaware\n")
    info = _info(write_pages(tmp_path / "two.pdf", [cover, "Granite Towers, Inc. owns office towers."]))
    assert (info.issuer, info.form, info.fiscal_year) == ("Granite Towers, Inc.", "10-K", 2015)
    # a name broken over two lines, its suffix on the second, stays whole
    broken = cover.replace("GRANITE TOWERS, INC.\nGRANITE TOWERS LIMITED PARTNERSHIP\n",
                           "THE GRANITE TOWERS\nGROUP, INC.\n")
    info = _info(write_pages(tmp_path / "broken.pdf", [broken, "Business."]))
    assert info.issuer == "The Granite Towers Group, Inc."


def test_a_release_headline_without_a_year_takes_the_year_of_the_quarter_it_reports(tmp_path):
    page = ("Investor Relations Contact: 555.0100 | www.example.com\nJuly 27, 2023\n"
            "Harbor Light Corporation Reports Second-Quarter Results; On Track for 2023\n"
            "Recorded earnings were $0.19 per share for the second quarter of 2023, compared to $0.17 per share "
            "for the same period in 2022.\n"
            "PORTLAND — Harbor Light Corporation (NYSE: HLC) recorded second quarter 2023 income of $406 million.\n")
    info = _info(write_pages(tmp_path / "release.pdf", [page]))
    assert (info.form, info.issuer, info.fiscal_quarter, info.fiscal_year) == (
        "earnings release", "Harbor Light Corporation", 2, 2023)
    assert info.period_end is None  # no end date printed: the fiscal calendar is unknown
    # the comparative year printed first ("the first quarter of 2022") is not the release's: the quarter must match
    other = page.replace("for the second quarter of 2023", "for the first quarter of 2022 restated, and the second "
                         "quarter of 2023")
    info = _info(write_pages(tmp_path / "release2.pdf", [other]))
    assert (info.fiscal_quarter, info.fiscal_year) == (2, 2023)
    # nor is the same quarter a year earlier, printed first
    earlier = page.replace("Recorded earnings were", "Compared with the second quarter of 2022, recorded earnings were")
    info = _info(write_pages(tmp_path / "release3.pdf", [earlier]))
    assert (info.fiscal_quarter, info.fiscal_year) == (2, 2023)


def test_an_annual_report_binding_in_its_10k_takes_issuer_and_year_from_the_10k_cover(tmp_path):
    cover_10k = (_HEAD + "FORM 10-K\n(Mark One)\nANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d)\n"
                 "For the fiscal year ended May 31, 2023.\nCommission file number 1-4444\nSwift Parcel Corporation\n"
                 "(Exact Name of Registrant as Specified in its Charter)\nDelaware\n")
    pages = ["2023 Annual Report", "2023 Annual Report\nTo our stockholders, this year we delivered.",
             "One team. One vision.", cover_10k, "PART I\nItem 1. Business"]
    info = _info(write_pages(tmp_path / "ar.pdf", pages))
    assert (info.form, info.issuer, info.period_end, info.fiscal_year) == (
        "annual report", "Swift Parcel Corporation", "2023-05-31", 2023)
    # a glossy report without a bound-in cover keeps no issuer rather than a guessed one
    info = _info(write_pages(tmp_path / "ar2.pdf", pages[:3] + pages[4:]))
    assert (info.form, info.issuer) == ("annual report", None)
