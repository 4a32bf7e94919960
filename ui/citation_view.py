"""Streamlit rendering of answers and their citations: badges in the text and one small button per
citation under the answer (the answer's one list of sources), each opening a preview dialog."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from agent.citations.numbering import display_citations
from storage.schema import Citation, ClaimCheck
from ui.claim_marks import claims_citing, problems_text
from ui.claim_view import show_claim_warnings
from ui.citations import (
    ROUTE_LABELS,
    answer_markdown,
    answer_with_footnotes,
    element_key,
    highlight_text,
    table_columns,
    citation_label,
    citation_location,
    cited_words,
    quoted_once,
    page_index,
    resolve_pdf_path,
    safe_url,
)
from ui.copy_button import copy_button
from ui.page_images import RENDER_ERRORS, preview_cache_dir, render_page
from ui.safe_text import emphasise, escape_markdown, redact
from ui.url_state import switch_page

VIEWER_PAGE = "app_pages/viewer.py"
PAGE_MIN_WIDTH = 720  # px: a page image narrower than this has unreadable text (phones scroll it instead)
NARROW_SCREEN = 640  # px: at most this wide (a phone), the dialog shows the highlights' own columns instead
NARROW_SCALE = 2.5  # the narrow band's zoom: sharp at a phone's width and pixel density
# Which of the two images a screen shows (a fixed stylesheet: no text from answers or PDFs in it).
_NARROW_STYLE = ("<style>.page-narrow{display:none}"
                 f"@media (max-width:{NARROW_SCREEN}px){{.page-has-narrow .page-wide{{display:none!important}}"
                 ".page-has-narrow .page-narrow{display:block}}</style>")
KIND_ICONS = {"document": ":material/description:", "page": ":material/article:",
              "web": ":material/language:", "knowledge": ":material/quiz:"}


@st.cache_data(show_spinner=False, max_entries=64)
def _page_png(pdf_path: str, version: tuple[int, int], index: int, passage: str, doc_id: str,
              crop: bool = False, scale: float = 1.5, tight: bool = False) -> tuple[bytes, int]:
    # `version` (size, mtime_ns) is unused here but keys the cache: a PDF changed on disk is rendered afresh.
    img = render_page(pdf_path, index, passage, crop=crop, tight=tight, zoom=scale,
                      cache_dir=preview_cache_dir(doc_id or "_files"))
    return img.png, img.highlights


def _render(path: Path, index: int, passage: str, doc_id: str | None, crop: bool = False, scale: float = 1.5,
            tight: bool = False) -> tuple[bytes, int]:
    """(PNG, highlight count) of a page, cached by the PDF's current size and mtime."""
    stat = path.stat()
    return _page_png(str(path), (stat.st_size, stat.st_mtime_ns), index, passage, doc_id or "", crop, scale, tight)


def _source_pdf(doc_id: str | None, file: str | None):
    """The cited PDF in the source folder, or None with a warning when it is gone or changed."""
    path = resolve_pdf_path(doc_id, file)
    if path is None:
        st.warning(f"The PDF {escape_markdown(file or doc_id or '')} is no longer in the source folder, or has "
                   "changed since it was processed, so its page can't be shown.")
    return path


def show_zoomable_page(doc_id: str | None, file: str | None, index: int, passage: str, *, zoom: float = 1.0,
                       whole: bool = False, min_width: int = 0, narrow: bool = False) -> bool:
    """A page image opened on the highlighted passage (the band of the page around it, unless
    `whole`), `zoom` times the width of the column and at least `min_width` px wide, so its text
    stays readable on a phone (scrollable when wider), rendered sharp enough for that zoom. With
    `narrow`, a screen at most NARROW_SCREEN px wide is shown the highlights' own columns of that band
    at its width instead (the label and the value of a wide table row both in view). False when the
    page is unavailable."""
    import base64

    path = _source_pdf(doc_id, file)
    if path is None:
        return False
    try:
        scale = 1.5 * max(zoom, 1.0)
        png, highlights = _render(path, index, passage, doc_id, bool(passage) and not whole, scale)
        if passage and not highlights and not whole:  # not found: the whole page, no band to show
            png, highlights = _render(path, index, passage, doc_id, False, scale)
        tight = None
        if narrow and passage and highlights and not whole:
            tight, _ = _render(path, index, passage, doc_id, True, NARROW_SCALE, tight=True)
    except RENDER_ERRORS as exc:
        st.warning(f"Could not render the page: {escape_markdown(redact(str(exc)))}")
        return False
    if passage and not highlights:
        st.caption("The cited passage could not be located exactly on this page image.")
    # Only our own PNGs go into this HTML (base64): nothing from the PDF's text.
    wide = (f'<img data-testid="pageImage" class="page-wide" alt="page {index + 1}" src="data:image/png;base64,'
            f'{base64.b64encode(png).decode("ascii")}" style="display:block;width:{int(zoom * 100)}%;'
            f'min-width:{int(min_width)}px;max-width:none;height:auto">')
    small = "" if tight is None else (
        f'<img data-testid="pageImage" class="page-narrow" alt="page {index + 1}, the cited columns" '
        f'src="data:image/png;base64,{base64.b64encode(tight).decode("ascii")}" style="width:100%;height:auto">')
    st.html(
        (_NARROW_STYLE if small else "")
        + f'<div data-testid="pageScroller" class="{"page-has-narrow" if small else ""}" style="overflow:auto;'
        f'max-height:80vh;border:1px solid rgba(49,51,63,.2);border-radius:.5rem">{wide}{small}</div>'
    )
    return True


def _marked(text: str, span: tuple[int, int] | None) -> str:
    """`text` escaped for markdown, the part at `span` (a quoted row's cited value) in bold."""
    if span is None:
        return escape_markdown(text)
    a, b = span
    return f"{escape_markdown(text[:a])}**{escape_markdown(text[a:b])}**{escape_markdown(text[b:])}"


def open_in_viewer(doc_id: str | None, file: str | None, index: int, passage: str = "") -> None:
    """Show the page in the viewer, with the cited passage still highlighted there."""
    st.session_state["viewer"] = {"doc_id": doc_id, "file": file, "page": index, "passage": passage}
    switch_page(VIEWER_PAGE)


@st.dialog("Source", width="large")
def citation_dialog(c: Citation, failed: list[ClaimCheck] | None = None) -> None:
    """The preview of one citation: where it points, the cited text, the page or link; first, what
    the answer states that this source does not print (`failed` claim checks)."""
    m = c.metadata
    st.markdown(f"**:blue-badge[{citation_label(c)}] {escape_markdown(citation_location(c))}**")
    show_claim_warnings(c, failed or [])
    if c.kind == "document" and not m.file and m.candidates:
        # The model cited a chunk number that exists in several PDFs and the sentence did not
        # say which: show every candidate rather than guess.
        st.warning(escape_markdown(c.snippet), icon=":material/help:")
        for part in (c.preview or "").split("\n\n"):
            with st.container(border=True):
                st.markdown(escape_markdown(part))
        return
    if c.kind in ("document", "page"):
        # The cited words first (readable at any width), the page image on demand.
        index = page_index(c)
        cited = cited_words(c)
        if quoted := quoted_once(c):
            with st.container(border=True):
                if columns := table_columns(c):  # a table row: its columns say which period each number is
                    st.caption("Columns: " + " | ".join(escape_markdown(col) for col in columns))
                st.markdown("“" + "  \n".join(_marked(q, span) for q, span in quoted) + "”")
        if c.preview and c.preview != cited:
            with st.expander("Whole passage"):
                st.markdown(emphasise(c.preview, cited))
        if m.chunk_id is not None:
            st.caption(f"Chunk {m.chunk_id} of {escape_markdown(m.file or c.documentTitle)}")
        if m.disambiguated:
            others = ", ".join(x for x in m.candidates if x != m.file)
            st.info(
                f"This chunk number exists in several selected PDFs; this citation is from "
                f"{escape_markdown(m.file or '')}" + (f" (not {escape_markdown(others)})." if others else ".")
            )
        if index is not None:
            doc_id, passage = m.doc_id or c.documentId, highlight_text(c)
            with st.expander(f"Page {index + 1} image" + (", passage highlighted" if passage else ""),
                             icon=":material/image:"):
                shown = show_zoomable_page(doc_id, m.file, index, passage, min_width=PAGE_MIN_WIDTH, narrow=True)
            if shown and st.button("Open in page viewer", key=f"open-viewer-{c.marker}", icon=":material/menu_book:"):
                open_in_viewer(doc_id, m.file, index, passage)
    elif c.kind == "web":
        url = safe_url(m.url or c.documentId)
        if url:
            st.link_button("Open web page", url, icon=":material/open_in_new:")
        st.caption(escape_markdown(m.url or c.documentId))
        if c.preview or c.snippet:
            with st.container(border=True):
                st.markdown(escape_markdown(c.preview or c.snippet))
    else:  # knowledge item
        if m.category:
            st.caption(f"Category: {escape_markdown(m.category)}")
        with st.container(border=True):
            st.markdown(escape_markdown(c.preview or c.snippet))


# Clicking a citation number in an answer (a link to `#cite-<button key>`, ui/citations.py) clicks
# that citation's button, which opens its preview. A fixed script: no text from answers or PDFs in it.
_CITE_LINK_SCRIPT = """<script>
if (!window.__pdfChatCiteLinks) {
  window.__pdfChatCiteLinks = true;
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest('a[href^="#cite-"]');
    if (!link) return;
    event.preventDefault();
    const key = link.getAttribute("href").slice("#cite-".length);
    if (!/^[A-Za-z0-9_-]+$/.test(key)) return;
    const button = document.querySelector(".st-key-" + key + " button");
    if (button) button.click();
  }, true);
}
</script>"""


def install_citation_links() -> None:
    """Make citation numbers inside answers clickable (once per page run)."""
    st.html(_CITE_LINK_SCRIPT, unsafe_allow_javascript=True, width="content")


def render_answer(text: str, citations: list[Citation], *, key: str, route: str | None = None,
                  mode: str | None = None, claims: list[ClaimCheck] | None = None) -> None:
    """An assistant answer: text with clickable citation badges, citation buttons, and a Sources list,
    its sources numbered 1…n in order of first use (agent/citations/numbering.py); sentences the claim
    check failed (`claims`) are marked in the text and in their citations."""
    key = element_key(key)
    citations = display_citations(text, citations)
    button_keys = [f"{key}-cite-{i}" for i in range(len(citations))]
    st.markdown(answer_markdown(text, citations, button_keys, claims))
    if citations:  # one list of sources: a chip per citation (the answer's numbers open the same dialogs)
        with st.container(horizontal=True, gap="small"):
            for i, c in enumerate(citations):
                failed = claims_citing(c, claims)
                tip = "; ".join(f"not found here: {problems_text(f)}" for f in failed)
                if st.button(
                    f"{citation_label(c)} · {escape_markdown(citation_location(c))}",
                    key=button_keys[i],
                    icon=":material/warning:" if failed else KIND_ICONS.get(c.kind),
                    help=f"Show this source ({tip})" if tip else "Show this source",
                ):
                    citation_dialog(c, failed)
    if text:
        copy_button(answer_with_footnotes(text, citations, claims), key=key)
    notes = answer_notes(route, mode)
    if notes:
        st.caption(" · ".join(notes))


def answer_notes(route: str | None, mode: str | None) -> list[str]:
    """Where an answer came from. Only searches (documents, web) are quoted passages in no-model
    mode; command replies (/help, /ingest) and greetings are neither searched nor quoted."""
    if route not in ("documents", "web"):
        return []
    notes = [f"Answered {ROUTE_LABELS[route]}"]
    if mode == "extractive":
        notes.append("no-model mode: quoted passages, not a generated answer")
    return notes
