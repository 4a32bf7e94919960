"""Page viewer: read one page of a processed PDF, and make it "this page" for the chat."""

from __future__ import annotations

import streamlit as st

from storage.documents.catalog import load_page_texts
from ui.citation_view import show_zoomable_page
from ui.doc_picker import processed_pdfs
from ui.safe_text import escape_markdown
from ui.sidebar import render_sidebar
from ui.url_state import switch_page

render_sidebar()
st.title("Page viewer")
pdfs = processed_pdfs()
if not pdfs:
    st.info("No processed PDF yet. Add one on the Documents page.")
    st.page_link("app_pages/documents.py", label="Go to Documents", icon=":material/description:")
    st.stop()

by_id = {p.doc_id: p for p in pdfs}
viewer = st.session_state.get("viewer") or {}
doc_id = viewer.get("doc_id") if viewer.get("doc_id") in by_id else pdfs[0].doc_id
ids = list(by_id)
doc_id = st.selectbox("PDF", ids, index=ids.index(doc_id), format_func=lambda d: by_id[d].source_file)
pdf = by_id[doc_id]
page = min(max(int(viewer.get("page") or 0), 0), pdf.page_count - 1) if viewer.get("doc_id") == doc_id else 0

# Controls in rows that wrap (columns would stack one per line on a phone and fill its first screen).
nav = st.container(horizontal=True, vertical_alignment="bottom", gap="small")
with nav:
    if st.button("Previous", icon=":material/chevron_left:", disabled=page <= 0):
        page -= 1
    if st.button("Next", icon=":material/chevron_right:", disabled=page >= pdf.page_count - 1):
        page += 1
    page = st.number_input(
        f"Page (1–{pdf.page_count})", min_value=1, max_value=pdf.page_count, value=page + 1,
        key=f"page-{doc_id}-{page}", width=120,
    ) - 1


def _set_current(doc_id: str, file: str, page: int) -> None:
    """Remember the viewed page; the one viewed before becomes the chat's "previous page"."""
    ref = {"doc_id": doc_id, "source_file": file, "page_number": page}
    current = st.session_state.get("current_page")
    if current and {k: current.get(k) for k in ref} == ref:
        return  # same page: it keeps the conversation that claimed it (see app_pages/chat.py)
    if current:
        st.session_state["previous_page"] = {k: current[k] for k in ref}
    st.session_state["current_page"] = ref


# A passage opened from a citation stays highlighted while its page is shown.
same_page = viewer.get("doc_id") == doc_id and viewer.get("page") == page
passage = viewer.get("passage", "") if same_page else ""
st.session_state["viewer"] = {"doc_id": doc_id, "file": pdf.source_file, "page": page, "passage": passage}
_set_current(doc_id, pdf.source_file, page)
if nav.button("Ask about this page", type="primary", icon=":material/chat:"):
    switch_page("app_pages/chat.py")

view = st.container(horizontal=True, vertical_alignment="center", gap="small")
view.caption(f"{escape_markdown(pdf.source_file)} · page {page + 1} of {pdf.page_count}")
zoom = view.segmented_control("Zoom", ["Fit", "150%", "200%"], default="Fit", key="viewer-zoom",
                              label_visibility="collapsed") or "Fit"
# A cited passage opens on its band of the page; the whole page is one toggle away.
whole = view.toggle("Whole page", key="viewer-whole", value=not passage, disabled=not passage)
# Fit on a phone: the passage's own columns at the screen's width (the page's width made its text 5 px high).
show_zoomable_page(doc_id, pdf.source_file, page, passage, zoom=1.0 if zoom == "Fit" else int(zoom[:-1]) / 100,
                   whole=whole or not passage, narrow=zoom == "Fit")
with st.expander("Text of this page"):
    try:
        st.text(load_page_texts(doc_id)[page])
    except (OSError, IndexError, ValueError) as exc:
        st.warning(f"The extracted text is not available ({escape_markdown(str(exc))}). Re-index the PDF on the Documents page.")
