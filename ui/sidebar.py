"""The sidebar every page draws first: the PDF picker and the active settings (never secrets).

Each page calls `render_sidebar()` itself (rather than app.py drawing it before `page.run()`),
so the sidebar belongs to the page's own run; `streamlit.testing` drops entrypoint sidebar
elements after a page switch, and the page tests need the picker.
"""

from __future__ import annotations

import streamlit as st

from ui.doc_picker import render_doc_picker
from ui.identity import Identity
from ui.ingest_view import ingest_running
from ui.page_style import install_page_style
from ui.resources import model_info
from ui.safe_text import escape_markdown
from ui.url_state import publish_selection, restore_selection


def render_sidebar() -> list[str]:
    """Draw the picker and settings; return the selected doc_ids."""
    install_page_style()
    restore_selection()  # a failover or reload keeps the selection (the URL survives a replica)
    doc_ids = render_doc_picker(processing=ingest_running())
    publish_selection(doc_ids)
    identity: Identity = st.session_state["identity"]
    with st.sidebar:
        with st.expander("Settings", icon=":material/settings:"):
            info = model_info()
            model = info.get("model") or {}
            web = info.get("web_search") or {}
            st.caption(f"Model: {model.get('label') or 'unknown (the agent did not start)'}")
            st.caption(f"Web search: {web.get('provider') or 'on'}" if web.get("enabled") else "Web search: off (no key)")
            if info.get("history"):
                st.caption(f"History: {info['history']}")
            st.caption(f"Signed in as {escape_markdown(identity.display_name)}" if identity.signed_in else "Local user (no sign-in configured)")
        if identity.signed_in:
            st.button("Sign out", on_click=st.logout, icon=":material/logout:")
    return doc_ids
