"""Earnings releases' mastheads and outlooks (generated first pages, in the layouts releases print): the issuer
is the name in the headline, not the "NEWS RELEASE" banner or the street address above it; the period reported
ended before the release was dated (an outlook's year-end after it is no period reported); a headline's
"Fourth-Quarter and Full-Year 2022" names the fiscal year."""

from __future__ import annotations

from tests.fixtures_filings import write_pages
from tests.storage.documents.test_doc_metadata import _info


def test_a_news_release_banner_above_the_headline_is_no_part_of_the_issuer(tmp_path):
    path = write_pages(tmp_path / "q1.pdf", [
        "NEWS RELEASE\nNorthwind Inc. Reports First Quarter 2023 Results\n"
        "SAN JOSE, Calif., April 26, 2023 -- Northwind Inc. (Nasdaq: NWND) today reported results for the first "
        "quarter ended March 31, 2023. Revenue was $2.5 billion, down 1% compared to the first quarter of 2022."])
    info = _info(path)
    assert (info.form, info.issuer, info.fiscal_quarter, info.fiscal_year) == ("earnings release", "Northwind Inc.", 1, 2023)
    assert info.title == "Northwind · earnings release · Q1 FY2023"


def test_a_street_address_and_banner_above_the_headline_are_no_part_of_the_issuer(tmp_path):
    path = write_pages(tmp_path / "q4.pdf", [
        "2200 Mission College Blvd.\nSanta Clara, CA 95054-1549\nNews Release\n"
        "Northwind Reports Fourth-Quarter and Full-Year 2022 Financial Results\n"
        "SANTA CLARA, Calif., Jan. 26, 2023 - Northwind Corporation today reported fourth-quarter and full-year "
        "2022 financial results. Fourth-quarter revenue was $14.0 billion, down 32% year-over-year."])
    info = _info(path)
    assert (info.form, info.fiscal_quarter, info.fiscal_year) == ("earnings release", 4, 2022)
    assert info.issuer.startswith("Northwind"), info.issuer
    assert info.title == "Northwind · earnings release · Q4 FY2022"


def test_an_outlook_year_ending_after_the_release_is_not_the_period_reported(tmp_path):
    path = write_pages(tmp_path / "q1fy24.pdf", [
        "Northwind Announces Strong First Quarter Fiscal 2024 Results\n"
        "SAN FRANCISCO, May 31, 2023 -- Northwind, Inc. (NYSE: NWD) today announced results for its first quarter "
        "fiscal 2024 ended April 30, 2023. Revenue of $8.25 billion, up 11% year-over-year.\n"
        "Guidance: for the full fiscal year ending January 31, 2024 the company expects revenue of $34.5 billion."])
    info = _info(path)
    assert (info.fiscal_quarter, info.fiscal_year, info.period_end) == (1, 2024, "2023-04-30")
