"""What a user must not lose when their replica dies, kept in the URL (`st.query_params`).

Behind a load balancer a Streamlit session lives in one replica's memory; when that replica stops, the
browser reconnects to another one with a fresh `st.session_state` but the same URL. The open conversation
is already there (`?c=<id>`, app_pages/chat.py); this adds the chat's PDF selection (`?docs=<id>,<id>`), so
the new session starts with it instead of every processed PDF. Running jobs live in MongoDB
(storage/jobs/records.py) and are found again by their owner. Doc ids are `<slug>-<sha12>`: no commas.
"""

from __future__ import annotations

import streamlit as st

from ui.doc_picker import PICKED

DOCS = "docs"
CONVERSATION = "c"  # the chat's open conversation (app_pages/chat.py)
MAX_DOCS_IN_URL = 40  # beyond this the URL gets unwieldy; a new session then starts with every PDF


def restore_selection() -> None:
    """A new session (reload, or another replica after a failover) takes the selection from the URL."""
    if PICKED not in st.session_state and DOCS in st.query_params:
        st.session_state[PICKED] = [d for d in st.query_params[DOCS].split(",") if d]


def publish_selection(doc_ids: list[str]) -> None:
    """Mirror the selection in the URL (written only when it changed: each write updates the address bar).
    None selected (or no PDF processed yet) is not written: a new session then selects every PDF."""
    value = ",".join(doc_ids) if 0 < len(doc_ids) <= MAX_DOCS_IN_URL else None
    if value is None:
        st.query_params.pop(DOCS, None)
    elif st.query_params.get(DOCS) != value:
        st.query_params[DOCS] = value


def switch_page(page: str) -> None:
    """`st.switch_page` that keeps the address's state (the selection, the open conversation) in the new
    page's URL. `st.switch_page` first resets the URL on the page it leaves, and that write is a browser
    history entry of its own: Back from the page viewer went to the chat's address without them (the
    latest conversation, not the one the citation came from), or, unless the viewer's address already had
    the selection, to the viewer again."""
    kept = {k: st.query_params[k] for k in (DOCS, CONVERSATION) if st.query_params.get(k)}
    st.switch_page(page, query_params=kept or None)
