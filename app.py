"""PDF chat: the Streamlit entry point. Run with `streamlit run app.py`.

Builds the navigation (Chat, Documents, Page viewer), makes sure someone is signed in (when
OIDC is configured) and runs the chosen page; each page draws the shared sidebar (ui/sidebar.py). Heavy
resources come from `ui.resources` (st.cache_resource); per-user state lives in session state
and the history database.
"""

from __future__ import annotations

import os

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import streamlit as st  # noqa: E402

from ui.identity import require_identity  # noqa: E402

st.set_page_config(page_title="PDF chat", page_icon=":material/picture_as_pdf:", layout="wide")

identity = require_identity()
st.session_state["identity"] = identity

# The pages live in app_pages/, not pages/: with a pages/ folder Streamlit 1.67 serves a first
# request for e.g. /documents in its old folder mode, running the page without this script.
pages = [
    st.Page("app_pages/chat.py", title="Chat", icon=":material/chat:", default=True),
    st.Page("app_pages/documents.py", title="Documents", icon=":material/description:"),
    st.Page("app_pages/viewer.py", title="Page viewer", icon=":material/menu_book:"),
]
page = st.navigation(pages)

page.run()
