"""A one-click "Copy" button under each answer.

Streamlit has no clipboard API, and a component per answer (st-copy and the like) is an iframe per
answer; so the button is a plain `st.button`, the text to copy sits next to it in a hidden
`<textarea>` (HTML-escaped, so the sanitiser keeps it as inert text), and one fixed page script
copies that text when the button is clicked. The click also reruns the page, which says "Copied".
"""

from __future__ import annotations

import html

import streamlit as st

from ui.citations import element_key

PREFIX = "copy-"  # button keys start with this, so the script finds them by their CSS class
_TOAST = "copy_toast"

# On a click on a copy button, copy the text of the hidden textarea named after the button's key.
# The clipboard API needs a secure context (https or localhost); elsewhere the selection is copied.
_COPY_SCRIPT = """<script>
if (!window.__pdfChatCopy) {
  window.__pdfChatCopy = true;
  document.addEventListener("click", (event) => {
    const holder = event.target.closest && event.target.closest('[class*="st-key-copy-"]');
    if (!holder || !event.target.closest("button")) return;
    const cls = [...holder.classList].find((c) => c.startsWith("st-key-copy-"));
    const key = cls && cls.slice("st-key-".length);
    if (!key || !/^[A-Za-z0-9_-]+$/.test(key)) return;
    const source = document.querySelector('textarea[data-copy-source="' + key + '"]');
    if (!source) return;
    const text = source.value;
    const fallback = () => {
      const area = document.createElement("textarea");
      area.value = text;
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).catch(fallback);
    } else {
      fallback();
    }
  }, true);
}
</script>"""


def install_copy_buttons() -> None:
    """The page script behind every copy button (once per page run, before the buttons)."""
    st.html(_COPY_SCRIPT, unsafe_allow_javascript=True, width="content")
    if st.session_state.pop(_TOAST, False):
        st.toast("Copied: the answer, with its citations as footnotes.", icon=":material/content_copy:")


def _copied() -> None:
    st.session_state[_TOAST] = True


def copy_button(text: str, *, key: str) -> None:
    """A "Copy" button that puts `text` on the clipboard in one click."""
    key = element_key(PREFIX + key)
    with st.container(horizontal=True, gap=None, width="content"):
        # no tooltip: it covered the citation chips above the button (the toast says what was copied)
        st.button("Copy", key=key, icon=":material/content_copy:", type="tertiary", on_click=_copied)
        st.html(f'<textarea hidden data-copy-source="{key}">{html.escape(text)}</textarea>', width="content")
