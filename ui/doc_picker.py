"""The sidebar PDF picker shown on every page: which processed PDFs the chat searches.

One source of truth: what the picker shows is what the chat asks with. The widget's value is the
selection; `picked_docs` in session state only carries it to the next run and takes the app's own
changes (a PDF just processed, `/ingest`). An app change never writes into the widget's state (a
browser that has not drawn it yet would send its older value back and undo it, or the app would
guess which of the two is the user's): it draws a new widget (its key carries a version and the
library's titles) whose default is the new selection. New sessions start with every processed PDF
selected.

A small library is shown as pills, every title in full (a multiselect's tags are cut at the
sidebar's width, so "Acme · 10-K · FY2018" and "… · FY2019" would both read "Acme · 10-K · FY2…");
a large one as a searchable multiselect, with the selected titles listed in full under it.
"""

from __future__ import annotations

import hashlib

import streamlit as st

from storage.documents.catalog import library_infos, list_processed_pdfs
from storage.settings import get_settings
from ui.citations import doc_id_of_file
from ui.safe_text import escape_markdown, redact

PICKED = "picked_docs"
_WIDGET = "doc_picker"  # the widget's key is "doc_picker-<version>-<library digest>"
_VERSION = "doc_picker_version"  # bumped by every change the app makes to the selection
MAX_PILLS = 12  # more PDFs than this: a searchable multiselect instead of pills


def processed_pdfs() -> list:
    """Manifests of processed PDFs; [] (with the reason logged on screen) when unavailable."""
    try:
        return list_processed_pdfs()
    except OSError as exc:  # a broken destination folder must not take every page down
        st.sidebar.error(f"Could not list processed PDFs: {escape_markdown(redact(str(exc)))}")
        return []


def pdfs_waiting_in_source() -> list:
    """PDFs in the source folder that are not processed yet (by content, as doc_ids are)."""
    source = get_settings().source_dir
    if not source.is_dir():
        return []
    done = {p.doc_id for p in processed_pdfs()}
    waiting = []
    for path in sorted(source.glob("*.pdf"), key=lambda p: p.name.lower()):
        if doc_id_of_file(path) not in done:
            waiting.append(path)
    return waiting


def _titles(names: dict[str, str]) -> dict[str, str]:
    """doc_id -> "Boeing · 10-K · FY2018" for filings (unique in the library); others keep their file name."""
    if not names:
        return {}
    try:
        infos = library_infos()
    except (OSError, ValueError):  # titles are a nicety; the file names still work
        return {}
    # A title that is only the form ("annual report": no issuer or period found) names no document: the file does.
    return {d: i.title for d, i in infos.items() if d in names and i.form != "other" and i.title != i.form}


def picked_titles(doc_ids: list[str]) -> list[str]:
    """The titles of these PDFs as the picker shows them (file names for non-filings)."""
    names = {p.doc_id: p.source_file for p in processed_pdfs() if p.doc_id in doc_ids}
    names.update(_titles(names))
    return [names[d] for d in doc_ids if d in names]


def _set(doc_ids: list[str]) -> None:
    """The app changes the selection: the next run draws a new picker showing it."""
    st.session_state[PICKED] = list(dict.fromkeys(doc_ids))
    st.session_state[_VERSION] = st.session_state.get(_VERSION, 0) + 1


def add_picked(doc_id: str) -> None:
    picked = list(st.session_state.get(PICKED) or [])
    if doc_id not in picked:
        _set([*picked, doc_id])


def set_picked(doc_ids: list[str]) -> None:
    """Make exactly these PDFs the chat's selection (e.g. after `/ingest` switched to one)."""
    _set(doc_ids)


def remove_picked(doc_id: str) -> None:
    picked = list(st.session_state.get(PICKED) or [])
    if doc_id in picked:
        _set([d for d in picked if d != doc_id])


def widget_key(names: dict[str, str]) -> str:
    """The picker's key for this selection version and these titles: a title changed by a PDF processed
    meanwhile, or an app change, is a new widget (the browser's value for the old one is not read)."""
    digest = hashlib.sha1("\n".join(f"{d}\t{t}" for d, t in names.items()).encode()).hexdigest()[:10]
    return f"{_WIDGET}-{st.session_state.get(_VERSION, 0)}-{digest}"


def selected_doc_ids() -> list[str]:
    return list(st.session_state.get(PICKED) or [])


def render_doc_picker(processing: bool = False) -> list[str]:
    """Draw the picker in the sidebar and return the selected doc_ids (only processed ones).
    `processing`: a PDF of this user is being processed (said when none is ready yet)."""
    pdfs = processed_pdfs()
    names = {p.doc_id: p.source_file for p in pdfs}
    names.update(_titles(names))
    if PICKED not in st.session_state:
        st.session_state[PICKED] = list(names)
    picked = [d for d in st.session_state[PICKED] if d in names]  # PDFs deleted since are dropped
    st.session_state[PICKED] = picked

    with st.sidebar:
        if not pdfs:
            st.caption(":material/hourglass_top: Your first PDF is being processed: it appears here when it is ready."
                       if processing else "No processed PDFs yet: add one on the Documents page.")
            return []
        label, tip = "PDFs to chat with", "The chat searches only the PDFs chosen here."
        key = widget_key(names)
        if len(names) <= MAX_PILLS:
            value = st.pills(label, options=list(names), selection_mode="multi", format_func=lambda d: names.get(d, d),
                             default=picked, key=key, help=tip)
        else:
            value = st.multiselect(label, options=list(names), format_func=lambda d: names.get(d, d), default=picked,
                                   key=key, placeholder="Choose one or more PDFs", help=tip)
        picked = [d for d in (value or []) if d in names]  # the user's change, or what was drawn
        st.session_state[PICKED] = picked
        if len(names) > MAX_PILLS and picked:
            st.caption("Selected: " + "; ".join(escape_markdown(names[d]) for d in picked))
    return picked
