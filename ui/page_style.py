"""The app's few CSS rules, for what Streamlit's own layout gets wrong at a phone's width. A fixed
stylesheet (no text from answers or PDFs in it), installed once per page run by the sidebar.

- a citation chip ("1 · <long file name>, page 2") wraps its label inside the button instead of
  running past it, so "page 2" is never cut off;
- on a phone, the page image in the citation dialog takes the dialog's whole width (the expander
  around it and the dialog keep no side padding of their own to spare), so more of the page is read
  before scrolling sideways.
"""

from __future__ import annotations

import streamlit as st

_STYLE = """<style>
[class*="-cite-"] button { max-width: 100%; height: auto; }
[class*="-cite-"] button [data-testid="stMarkdownContainer"],
[class*="-cite-"] button p { overflow-wrap: anywhere; white-space: normal; text-align: left; }
@media (max-width: 640px) {
  [data-testid="stExpanderDetails"]:has([data-testid="pageScroller"]) { padding-left: 0; padding-right: 0; }
  [role="dialog"]:has([data-testid="pageScroller"]) { padding-left: .75rem; padding-right: .75rem; }
  [role="dialog"]:has([data-testid="pageScroller"]) > div { padding-left: .25rem; padding-right: .25rem; }
}
</style>"""


def install_page_style() -> None:
    st.html(_STYLE)
