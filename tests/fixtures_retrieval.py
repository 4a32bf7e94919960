"""Helpers for retrieval tests: small real PDFs ingested through the real pipeline."""

from __future__ import annotations

import pymupdf

from storage.settings import get_settings
from storage.documents.catalog import ProcessedPdf
from storage.documents.ingest import process_and_index_pdf


def write_pdf(name: str, pages: list[str]) -> str:
    """Write a PDF with one page per string into the source folder; returns its file name."""
    path = get_settings().source_dir / name
    doc = pymupdf.open()
    for text in pages:
        page = doc.new_page()
        page.insert_textbox(pymupdf.Rect(50, 50, 550, 800), text, fontsize=10)
    doc.save(path)
    doc.close()
    return name


def ingest(name: str, pages: list[str], *, force: bool = False) -> ProcessedPdf:
    write_pdf(name, pages)
    return process_and_index_pdf(get_settings().source_dir / name, force=force)


# A small annual report: every page is about something different.
REPORT_PAGES = [
    "Item 1. Business. Acme Rockets designs and builds launch vehicles for commercial satellite operators.",
    "Consolidated Statements of Operations\nTotal revenues 66,608 62,286\nCost of sales 53,969 49,954\n"
    "Gross profit 12,639 12,332",
    "Item 3. Legal Proceedings. The company is defending a lawsuit about a contract with a space agency.",
    "Employees. At year end we employed 1,200 engineers and technicians at three plants.",
]
