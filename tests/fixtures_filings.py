"""SEC-like filings written by PyMuPDF for tests: cover pages as EDGAR prints them, bland file names."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from storage.settings import get_settings


def write_pages(path: Path, pages: list[str], *, metadata: dict | None = None, title_font: float | None = None) -> Path:
    """One page per string; with `title_font`, each page's first line is set in that size."""
    doc = pymupdf.open()
    for text in pages:
        page = doc.new_page()
        if title_font:
            head, _, rest = text.partition("\n")
            page.insert_textbox(pymupdf.Rect(56, 56, 540, 140), head, fontsize=title_font)
            page.insert_textbox(pymupdf.Rect(56, 150, 540, 790), rest, fontsize=10)
        else:
            page.insert_textbox(pymupdf.Rect(50, 50, 550, 800), text, fontsize=9)
    if metadata:
        doc.set_metadata({**doc.metadata, **metadata})
    doc.save(path)
    doc.close()
    return path


def cover_10k(issuer: str, period: str) -> str:
    return (
        "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\nFORM 10-K\n"
        "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n"
        f"For the fiscal year ended {period}\nOR\n"
        "TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n"
        "Commission file number 1-4242\n"
        f"{issuer}\n(Exact name of registrant as specified in its charter)\nDelaware\n41-0000000\n"
        "(Address of principal executive offices)\n"
    )


def cover_10q(issuer: str, period: str) -> str:
    return (
        "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\nFORM 10-Q\n"
        "QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n"
        f"For the quarterly period ended {period}\nOR\nCommission File Number: 1-4242\n"
        f"{issuer}\n(Exact name of registrant as specified in its charter)\nMinnesota\n"
    )


def cover_8k(issuer: str, event: str) -> str:
    return (
        "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\nFORM 8-K\nCURRENT REPORT\n"
        "Pursuant to Section 13 or 15(d) of the Securities Exchange Act of 1934\n"
        f"Date of Report (Date of earliest event reported): {event}\n"
        f"{issuer}\n(Exact name of registrant as specified in its charter)\nDelaware 001-33764 38-4022268\n"
    )


def acme_10k_pages(year: int, capex: tuple[int, int, int], prose: bool) -> list[str]:
    """A small 10-K of "Acme Rockets" for fiscal `year` (ends December 31), with comparatives."""
    y = year
    cash_flow = (
        "Consolidated Statements of Cash Flows (in millions)\n"
        f"Years ended December 31, {y} {y - 1} {y - 2}\n"
        f"Net earnings 9,100 8,200 7,300\n"
        f"Purchases of property, plant and equipment ({capex[0]:,}) ({capex[1]:,}) ({capex[2]:,})\n"
        "Net cash used by investing activities (2,100) (1,900) (2,300)"
    )
    if prose:  # a later filing that talks about capital expenditures at length (the trap)
        cash_flow += (
            f"\nCapital expenditures. Our capital expenditures were ${capex[0]:,} million in {y}. "
            "Capital expenditures for property, plant and equipment reflect our capital expenditure plans."
        )
    return [
        cover_10k("ACME ROCKETS, INC.", f"December 31, {y}"),
        f"Item 1. Business. Acme Rockets, Inc. designs launch vehicles. In {y} we flew 14 missions.",
        cash_flow,
        "Item 3. Legal Proceedings. We are defending a contract dispute with a satellite operator.",
    ]


def source_path(name: str) -> Path:
    return get_settings().source_dir / name
