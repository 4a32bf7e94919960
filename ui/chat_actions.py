"""The chat's actions around conversations and answers: confirming a delete, asking a stopped
question again, and the header of a conversation's Markdown export."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Callable

import streamlit as st

from ui.safe_text import escape_markdown


@st.dialog("Delete this conversation?")
def confirm_delete(title: str, delete: Callable[[], None]) -> None:
    """Ask before deleting; either button closes the dialog.

    A click inside a dialog reruns only the dialog (it is a fragment), so the dialog would stay
    open and the sidebar would still list the deleted conversation: `st.rerun()` reruns the whole
    page, which closes the dialog (it is not opened again) and redraws the list."""
    st.markdown(f"“{escape_markdown(title)}” and all its answers will be deleted. This cannot be undone.")
    with st.container(horizontal=True, horizontal_alignment="right"):
        cancel = st.button("Cancel", key="cancel-delete-chat")
        # A callback, so the delete happens whichever run handles the click (dialog or page).
        confirm = st.button("Delete", key="confirm-delete-chat", type="primary", icon=":material/delete:",
                            on_click=delete)
    if cancel or confirm:
        st.rerun()


def ask_again_button(question: str, *, key: str, on_ask: Callable[[str], None]) -> None:
    """Under a stopped answer: ask its question again (the stopped answer stays in the history)."""
    st.button("Ask again", key=key, icon=":material/refresh:", on_click=on_ask, args=(question,),
              help="Ask this question again for a complete answer")


def export_details(doc_titles: list[str], model: dict, now: datetime | None = None) -> list[str]:
    """The lines under an export's title: when it was exported, which documents were selected,
    and whether answers were written by a model or quoted (no-model mode)."""
    when = (now or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
    docs = "; ".join(doc_titles) if doc_titles else "none (answers without your documents)"
    if model.get("mode") == "extractive":
        mode = "no-model (answers are passages quoted from the documents)"
    else:
        label = (model.get("model") or {}).get("label")
        mode = f"model ({label})" if label else "model"
    return [f"Exported: {when}", f"Documents: {docs}", f"Mode: {mode}"]
