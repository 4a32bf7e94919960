"""The chat follows its newest turn: when a message is added (a question asked, its answer started),
the page scrolls to it and keeps the growing answer's end in view until the user scrolls themselves.

Streamlit's own "stick to the bottom" is lost once a dialog has been opened and closed (a citation
preview), after which new answers appeared below the fold. A fixed page script (no text from answers
or PDFs in it), installed once per page like the citation links.
"""

from __future__ import annotations

import streamlit as st

_FOLLOW_SCRIPT = """<script>
if (!window.__pdfChatFollow) {
  window.__pdfChatFollow = true;
  let seen = -1, following = false;
  const messages = () => document.querySelectorAll('[data-testid="stChatMessage"]');
  const follow = () => {
    const all = messages();
    if (seen >= 0 && all.length > seen) following = true;  // a new turn: follow it
    seen = all.length;
    if (!following || !all.length) return;
    const last = all[all.length - 1].getBoundingClientRect();
    if (last.bottom > window.innerHeight || last.bottom < 0) all[all.length - 1].scrollIntoView({block: "end"});
  };
  const stop = () => { following = false; };  // the user scrolls: leave the view where they put it
  ["wheel", "touchmove", "keydown"].forEach((e) => window.addEventListener(e, stop, {passive: true, capture: true}));
  new MutationObserver(follow).observe(document.body, {childList: true, subtree: true, characterData: true});
}
</script>"""


def install_follow_newest() -> None:
    """Make the chat follow its newest turn (once per page run)."""
    st.html(_FOLLOW_SCRIPT, unsafe_allow_javascript=True, width="content")
