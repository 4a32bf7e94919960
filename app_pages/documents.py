"""Documents: upload PDFs, process them (live progress), see counts, view, re-index, delete."""

from __future__ import annotations

import streamlit as st

from storage.settings import get_settings
from storage.documents.catalog import PdfProcessingError, library_infos, list_processed_pdfs
from storage.documents.maintenance import delete_pdf, rejection_reason
from storage.documents.intake import save_uploaded_pdf
from storage.schema import display_page
from ui.citations import doc_id_of_file
from ui.doc_picker import pdfs_waiting_in_source, remove_picked
from ui.ingest_view import being_processed, describe, flash, show_flash, show_ingest_progress, start_ingest
from ui.page_images import clear_preview_cache
from ui.safe_text import escape_markdown
from ui.sidebar import render_sidebar
from ui.url_state import switch_page

settings = get_settings()
render_sidebar()
st.title("Documents")
show_flash()
show_ingest_progress()

# ---------------------------------------------------------------- upload
max_mb = settings.max_file_bytes / 2**20
with st.container(border=True):
    st.subheader("Add PDFs")
    uploader_key = f"uploader-{st.session_state.get('uploader_round', 0)}"
    files = st.file_uploader(
        "Choose PDF files",
        type=["pdf"],
        accept_multiple_files=True,
        key=uploader_key,
        help=f"Up to {max_mb:.0f} MB and {settings.limits.max_pages} pages per file. "
        "Scanned pages are read with OCR.",
    )
    if files and st.button(f"Upload and process {len(files)} file{'s' if len(files) > 1 else ''}", type="primary"):
        saved = 0
        for f in files:
            try:
                path = save_uploaded_pdf(f.name, f.getvalue())
            except PdfProcessingError as exc:
                st.error(f"{escape_markdown(str(exc))}. Choose a valid PDF and try again.", icon=":material/error:")
                continue
            start_ingest(path)
            saved += 1
        if saved == len(files):
            st.session_state["uploader_round"] = st.session_state.get("uploader_round", 0) + 1
            st.rerun()  # clear the uploader; progress shows at the top

# ---------------------------------------------------------------- processed PDFs
processed = list_processed_pdfs()
infos = library_infos() if processed else {}  # titles unique in the library ("Boeing · 10-K · FY2018")
st.subheader(f"Processed PDFs ({len(processed)})")
if not processed:
    st.info("No PDF is processed yet. Upload one above, or process one from the source folder below.")
for pdf in processed:
    with st.container(border=True):
        left, right = st.columns([3, 2], vertical_alignment="center")
        with left:
            info = infos.get(pdf.doc_id)
            st.markdown(f"**{escape_markdown(info.title if info else pdf.title or pdf.source_file)}**")
            period = f" · {info.period_label}" if info and info.period_label and info.period_label not in info.title else ""
            st.caption(f"{escape_markdown(pdf.source_file)}{escape_markdown(period)} · {describe(pdf)}")
            if pdf.skipped:  # images or pages too large to process (the rest of the PDF is indexed)
                notes = "; ".join(f"page {display_page(s.page)}: {s.reason}" for s in pdf.skipped[:3])
                st.caption(f"Not read: {escape_markdown(notes)}{' …' if len(pdf.skipped) > 3 else ''}")
        with right, st.container(horizontal=True, horizontal_alignment="right"):
            if st.button("View", key=f"view-{pdf.doc_id}", icon=":material/menu_book:"):
                st.session_state["viewer"] = {"doc_id": pdf.doc_id, "file": pdf.source_file, "page": 0}
                switch_page("app_pages/viewer.py")
            if st.button("Re-index", key=f"reindex-{pdf.doc_id}", icon=":material/refresh:"):
                start_ingest(pdf.source_path, reindex_doc_id=pdf.doc_id)
                st.rerun()
            with st.popover("Delete", icon=":material/delete:"):
                st.write("Remove this PDF's index? The file stays in the source folder.")
                if st.button("Delete index", key=f"delete-{pdf.doc_id}", type="primary"):
                    delete_pdf(pdf.doc_id)
                    clear_preview_cache(pdf.doc_id)
                    remove_picked(pdf.doc_id)
                    flash("success", f"Deleted the index of {escape_markdown(pdf.source_file)}.")
                    st.rerun()
# ---------------------------------------------------------------- source folder
pending = pdfs_waiting_in_source()
st.subheader(f"In the source folder, not processed ({len(pending)})")
st.caption(f"Source folder: {escape_markdown(str(settings.source_dir))}")
busy = being_processed()
if pending:
    # A file refused before (same content) is not retried by "Process all"; its own button retries it.
    refused = {str(p): rejection_reason(doc_id_of_file(p)) for p in pending}
    idle = [p for p in pending if str(p) not in busy and not refused[str(p)]]
    if len(idle) > 1 and st.button("Process all", icon=":material/playlist_add:"):
        for path in idle:
            start_ingest(path)
        st.rerun()
    for path in pending:
        with st.container(border=True, horizontal=True, vertical_alignment="center"):
            st.markdown(f"{escape_markdown(path.name)} · {path.stat().st_size / 2**20:.1f} MB")
            if refused[str(path)] and str(path) not in busy:
                st.caption(f"Refused: {escape_markdown(refused[str(path)])}")
            if str(path) in busy:
                st.caption("Processing…")
            elif st.button("Process", key=f"process-{path.name}", icon=":material/play_arrow:"):
                start_ingest(path)
                st.rerun()
else:
    st.caption("Every PDF in the source folder is processed.")
