"""Run PDF ingestion with a live progress bar and stage text, and report the outcome."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from storage.pdf_processing import PdfProcessingError, ProcessedPdf, process_and_index_pdf, reindex_pdf
from ui.doc_picker import add_picked
from ui.page_images import clear_preview_cache
from ui.safe_text import escape_markdown, redact

FLASH = "documents_flash"  # messages shown after the rerun that follows ingestion


def flash(kind: str, text: str) -> None:
    st.session_state.setdefault(FLASH, []).append((kind, text))


def show_flash() -> None:
    for kind, text in st.session_state.pop(FLASH, []):
        getattr(st, kind)(text)


def describe(pdf: ProcessedPdf) -> str:
    ocr = f", {len(pdf.ocr_pages)} OCR page{'s' if len(pdf.ocr_pages) != 1 else ''}" if pdf.ocr_pages else ""
    return f"{pdf.page_count} pages, {pdf.chunk_count} chunks{ocr}"


def ingest_with_progress(path: Path | str, *, reindex_doc_id: str | None = None) -> ProcessedPdf | None:
    """Process (or re-index) one PDF inside an `st.status` box with a progress bar.

    Returns the manifest, or None after showing what went wrong and what to do.
    """
    name = Path(str(path)).name
    verb = "Re-indexing" if reindex_doc_id else "Processing"
    with st.status(f"{verb} {name}…", expanded=True) as status:
        bar = st.progress(0.0, text="Starting")

        def progress(stage: str, done: int, total: int) -> None:
            fraction = min(max(done / total, 0.0), 1.0) if total else 0.0
            bar.progress(fraction, text=f"{stage} ({done}/{total})" if total > 1 else stage)

        try:
            if reindex_doc_id:
                clear_preview_cache(reindex_doc_id)
                pdf = reindex_pdf(reindex_doc_id, progress=progress)
            else:
                pdf = process_and_index_pdf(path, progress=progress)
        except PdfProcessingError as exc:
            status.update(label=f"{name} could not be processed", state="error")
            st.error(f"{escape_markdown(str(exc))}. Fix the file and upload it again.", icon=":material/error:")
            return None
        except Exception as exc:  # unexpected: show it plainly rather than a traceback
            status.update(label=f"{name} could not be processed", state="error")
            st.error(
                f"Processing stopped: {escape_markdown(redact(f'{type(exc).__name__}: {exc}'))}. "
                "Nothing was kept; try again, and report the message if it persists.",
                icon=":material/error:",
            )
            return None
        bar.progress(1.0, text="Done")
        status.update(label=f"{name}: {describe(pdf)}", state="complete", expanded=False)
    add_picked(pdf.doc_id)
    return pdf
