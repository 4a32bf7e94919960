"""Chat: conversations (new, switch, rename, delete), answers with clickable citations.

The open conversation is in the URL (`?c=<id>`), so a reload comes back to it; its messages,
citations included, are reloaded from the history store on every run.
"""

from __future__ import annotations

import streamlit as st

from storage.history import HistoryUnavailableError
from ui import conversations as conv
from ui.citation_view import render_answer
from ui.resources import ResourceUnavailable, get_chat_service, get_history_store, model_info
from ui.safe_text import escape_markdown, redact
from ui.sidebar import render_sidebar

EVENT_LABELS = {
    "route": "Choosing where to look…",
    "searching_documents": "Searching your PDFs…",
    "searching_web": "Searching the web…",
    "thinking": "Writing the answer…",
}

identity = st.session_state["identity"]
doc_ids = render_sidebar()
user_id = identity.user_id

try:
    store = get_history_store()
    conversations = conv.list_conversations(store, user_id)
except (ResourceUnavailable, HistoryUnavailableError) as exc:
    st.error(escape_markdown(str(exc)), icon=":material/cloud_off:")
    st.stop()
except Exception as exc:
    st.error(f"Could not load your conversations ({escape_markdown(redact(str(exc)))}). Reload the page to retry.")
    st.stop()

known = {c.conversation_id: c for c in conversations}
conversation_id = st.query_params.get("c")
if conversation_id not in known:
    conversation_id = conversations[0].conversation_id if conversations else None


def _open(cid: str | None) -> None:
    if cid:
        st.query_params["c"] = cid
    else:
        st.query_params.pop("c", None)


def _new_chat() -> None:
    _open(conv.create_conversation(store, user_id))


_open(conversation_id)

# ---------------------------------------------------------------- conversation list (sidebar)
with st.sidebar:
    st.divider()
    top = st.container(horizontal=True, vertical_alignment="center")
    top.markdown("**Conversations**")
    top.button("New", icon=":material/add:", on_click=_new_chat, key="new-chat")
    for c in conversations[:50]:
        st.button(
            escape_markdown(c.title),
            key=f"conv-{c.conversation_id}",
            type="primary" if c.conversation_id == conversation_id else "tertiary",
            on_click=_open,
            args=(c.conversation_id,),
            width="stretch",
        )
    if conversation_id:
        with st.popover("Rename or delete", icon=":material/edit:", width="stretch"):
            title = st.text_input("Title", value=known[conversation_id].title, max_chars=120)
            if st.button("Rename", key="rename-chat") and title.strip():
                conv.rename_conversation(store, user_id, conversation_id, title.strip())
                st.rerun()
            if st.button("Delete this conversation", key="delete-chat", type="primary"):
                conv.delete_conversation(store, user_id, conversation_id)
                _open(None)
                st.rerun()

# ---------------------------------------------------------------- header and context
st.title("Chat")
info = model_info()
if info.get("mode") == "extractive":
    st.info(
        "No language model is configured, so answers are the most relevant passages quoted from "
        "your PDFs (no-model mode). Set a model key (see the README) to get written answers.",
        icon=":material/info:",
    )
if not doc_ids:
    st.caption("No PDF selected in the sidebar: questions are answered without your documents.")
current_page = st.session_state.get("current_page")
if current_page:
    chip, clear = st.columns([5, 1], vertical_alignment="center")
    chip.caption(
        f"Viewing {escape_markdown(current_page['source_file'])}, page {current_page['page_number'] + 1}: "
        "ask about “this page” to use it."
    )
    if clear.button("Forget page", key="forget-page", type="tertiary"):
        st.session_state.pop("current_page", None)
        st.session_state.pop("previous_page", None)
        st.rerun()

# ---------------------------------------------------------------- history
turns = conv.load_turns(store, user_id, conversation_id) if conversation_id else []
if not turns:
    st.caption("Ask a question about the selected PDFs. Every answer links to the pages it used.")
for i, turn in enumerate(turns):
    with st.chat_message(turn.role):
        if turn.role == "user":
            st.text(turn.text)
        else:
            render_answer(turn.text, turn.citations, key=f"{conversation_id}-{i}", route=turn.route, mode=turn.mode)

# ---------------------------------------------------------------- new question
question = st.chat_input("Ask about your PDFs")
if question:
    if not conversation_id:
        conversation_id = conv.create_conversation(store, user_id, title=question.strip()[:60] or "New chat")
        _open(conversation_id)
    with st.chat_message("user"):
        st.text(question)
    with st.chat_message("assistant"):
        try:
            service = get_chat_service()
            with st.status("Working on it…") as status:

                def on_event(event: str, data: dict) -> None:
                    label = EVENT_LABELS.get(event)
                    if event == "ingest" and data.get("total"):
                        label = f"Processing the PDF: {data.get('stage')} ({data.get('done')}/{data.get('total')})"
                    if label:
                        status.update(label=label)

                result = service.ask(
                    user_id,
                    conversation_id,
                    question,
                    doc_ids,
                    current_page=st.session_state.get("current_page"),
                    previous_page=st.session_state.get("previous_page"),
                    on_event=on_event,
                )
                status.update(label="Done", state="complete")
        except ResourceUnavailable as exc:
            st.error(str(exc))
            st.stop()
        except Exception as exc:
            st.error(
                f"The question could not be answered ({escape_markdown(redact(f'{type(exc).__name__}: {exc}'))}). "
                "Try again; if it keeps failing, check the settings in the sidebar."
            )
            st.stop()
        if result.error:
            st.warning(escape_markdown(redact(result.error)))
        if not result.saved:
            st.warning("This answer could not be saved to your history; it will be gone after a reload.")
        render_answer(result.message, result.citations, key=f"{conversation_id}-new", route=result.route, mode=result.mode)
    if result.saved:
        st.rerun()  # redraw from the history store, so what the user sees is what was saved
