"""Chat: conversations (new, switch, rename, delete), answers with clickable citations.

The open conversation is in the URL (`?c=<id>`), so a reload comes back to it; its messages,
citations included, are reloaded from the history store on every run. When the history
database is down the chat still answers: a turn of an open conversation is queued on the server
(agent/turns.py) and shown as "not saved yet" until it is written; a turn with no conversation to
go to is kept in this browser tab only, and the page says it is not saved.
"""

from __future__ import annotations

from types import SimpleNamespace

import streamlit as st

from storage.config import get_settings
from storage.history import HistoryError, is_valid_id
from ui import conversations as conv
from ui.citation_view import render_answer
from ui.doc_picker import pdfs_waiting_in_source, processed_pdfs
from ui.ingest_view import ingest_running, show_flash, show_ingest_progress, start_ingest
from ui.resources import ResourceUnavailable, get_chat_service, get_history_store, model_info
from ui.safe_text import escape_markdown, redact, safe_model_markdown
from ui.sidebar import render_sidebar

EVENT_LABELS = {
    "route": "Choosing where to look…",
    "searching_documents": "Searching your PDFs…",
    "searching_web": "Searching the web…",
    "thinking": "Writing the answer…",
}
UNSAVED = "unsaved_turns"  # conversation id ("" when offline) -> turns that will not be saved
# The question being answered. A click while it runs stops the run (Streamlit reruns the script),
# so an entry still here on a later run is a question that was never answered or saved.
IN_FLIGHT = "question_in_flight"
RETRY = "retry_question"

identity = st.session_state["identity"]
doc_ids = render_sidebar()
user_id = identity.user_id

store, conversations, offline_reason = None, [], None
try:
    store = get_history_store()
    conversations = conv.list_conversations(store, user_id)
except (ResourceUnavailable, HistoryError) as exc:
    store, offline_reason = None, str(exc)
except Exception as exc:  # e.g. a bad MONGODB_URI: say so, keep chatting
    store, offline_reason = None, f"Could not load your conversations ({redact(str(exc))})."

known = {c.conversation_id: c for c in conversations}
conversation_id = st.query_params.get("c")
if store is None and is_valid_id(conversation_id):
    pass  # offline: keep the open conversation, so its new turns are queued for it
elif conversation_id not in known:
    conversation_id = conversations[0].conversation_id if conversations else None


def _queued_turns(cid: str | None, flush: bool = True) -> list[conv.ChatTurn]:
    """Turns of this conversation waiting on the server for the history database (flushed first
    when it is back, so what is shown is what was finally stored)."""
    if not cid:
        return []
    try:
        service = get_chat_service()
        if flush and store is not None:
            service.flush_pending(user_id)
        pending = service.pending_messages(user_id, cid)
    except Exception:  # noqa: BLE001 - showing queued turns is best effort
        return []
    return conv.load_turns(SimpleNamespace(load_messages=lambda *_: pending), user_id, cid) if pending else []


def _open(cid: str | None) -> None:
    if cid:
        st.query_params["c"] = cid
    else:
        st.query_params.pop("c", None)


def _new_chat() -> None:
    try:
        _open(conv.create_conversation(store, user_id))
    except HistoryError as exc:
        st.session_state["chat_notice"] = redact(str(exc))


def _keep(cid: str | None, question: str, result) -> None:
    """Record an answered question: no longer in flight; kept in the session if it will not be saved
    (a turn queued for the history is shown from the queue instead)."""
    st.session_state.pop(IN_FLIGHT, None)
    queued = bool(cid) and any(t.role == "user" and t.text == question for t in _queued_turns(cid, flush=False))
    if not result.saved and not queued:
        unsaved = st.session_state[UNSAVED].setdefault(cid or "", [])
        unsaved.append(conv.ChatTurn("user", question))
        unsaved.append(conv.ChatTurn("assistant", result.message, list(result.citations), result.route, result.mode))
    if result.error:
        st.session_state["chat_notice"] = redact(result.error)


def _retry(text: str) -> None:
    st.session_state.pop(IN_FLIGHT, None)
    st.session_state[RETRY] = text


if store is not None:
    _open(conversation_id)

# ---------------------------------------------------------------- conversation list (sidebar)
with st.sidebar:
    st.divider()
    top = st.container(horizontal=True, vertical_alignment="center")
    top.markdown("**Conversations**")
    if store is not None:
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
    if conversation_id in known:
        with st.popover("Rename or delete", icon=":material/edit:", width="stretch"):
            title = st.text_input("Title", value=known[conversation_id].title, max_chars=120)
            try:
                if st.button("Rename", key="rename-chat") and title.strip():
                    conv.rename_conversation(store, user_id, conversation_id, title.strip())
                    st.rerun()
                if st.button("Delete this conversation", key="delete-chat", type="primary"):
                    conv.delete_conversation(store, user_id, conversation_id)
                    _open(None)
                    st.rerun()
            except HistoryError as exc:
                st.error(escape_markdown(redact(str(exc))))

# ---------------------------------------------------------------- header and context
st.title("Chat")
if offline_reason:
    st.warning(
        f"{escape_markdown(offline_reason)} You can keep asking: answers in an open conversation are "
        "saved when the history is back; answers with no conversation open are kept in this browser tab only.",
        icon=":material/cloud_off:",
    )
if model_info().get("mode") == "extractive":
    st.info(
        "No language model is configured, so answers are the most relevant passages quoted from "
        "your PDFs (no-model mode). Set a model key (see the README) to get written answers.",
        icon=":material/info:",
    )
show_flash()
show_ingest_progress()
if not doc_ids and not ingest_running():
    waiting = pdfs_waiting_in_source() if not processed_pdfs() else []
    if waiting:
        # First run: the shipped sample (or the user's own PDFs) is there but not processed yet.
        with st.container(border=True):
            st.markdown(f"{len(waiting)} PDF{'s' if len(waiting) > 1 else ''} in the source folder "
                        f"{'are' if len(waiting) > 1 else 'is'} not processed yet: "
                        + ", ".join(escape_markdown(p.name) for p in waiting[:5]))
            if st.button("Process and chat", type="primary", icon=":material/play_arrow:", key="first-run-process"):
                for path in waiting:
                    start_ingest(path)
                st.rerun()
    else:
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
queued = _queued_turns(conversation_id)  # first: written to the store now if it is back
turns: list[conv.ChatTurn] = []
if store is not None and conversation_id:
    try:
        turns = conv.load_turns(store, user_id, conversation_id)
    except HistoryError as exc:
        st.warning(f"{escape_markdown(str(exc))} Reload the page to retry.", icon=":material/cloud_off:")
unsaved = st.session_state.setdefault(UNSAVED, {}).setdefault(conversation_id or "", [])
if not turns and not queued and not unsaved:
    st.caption("Ask a question about the selected PDFs. Every answer links to the pages it used.")
for i, turn in enumerate(turns + queued + unsaved):
    with st.chat_message(turn.role):
        if turn.role == "user":
            st.text(turn.text)
        else:
            render_answer(turn.text, turn.citations, key=f"{conversation_id}-{i}", route=turn.route, mode=turn.mode)
            if len(turns) <= i < len(turns) + len(queued):
                st.caption(":material/cloud_upload: Not saved to your history yet: it is saved as soon as the history "
                           "database is back.")
            elif i >= len(turns):
                st.caption(":material/cloud_off: Not saved to your history: kept in this browser tab only.")

# ---------------------------------------------------------------- new question
interrupted = st.session_state.get(IN_FLIGHT)
if interrupted and interrupted["conversation_id"] == conversation_id:
    with st.container(border=True):
        st.warning(
            f"This question was interrupted before it was answered: “{escape_markdown(interrupted['text'])}”",
            icon=":material/replay:",
        )
        st.button("Ask it again", key="retry-question", on_click=_retry, args=(interrupted["text"],))
waiting_for_pdfs = ingest_running() and not doc_ids  # the first PDF is still being processed
question = st.chat_input(
    "Wait until the PDF is processed…" if waiting_for_pdfs else "Ask about your PDFs", disabled=waiting_for_pdfs,
    max_chars=get_settings().max_question_chars,
) or st.session_state.pop(RETRY, None)
if question:
    if store is not None and not conversation_id:
        try:
            conversation_id = conv.create_conversation(store, user_id, title=question.strip()[:60] or "New chat")
            _open(conversation_id)
        except HistoryError:
            conversation_id = None  # answered anyway, kept in this session
    st.session_state[IN_FLIGHT] = {"conversation_id": conversation_id, "text": question}
    with st.chat_message("user"):
        st.text(question)
    with st.chat_message("assistant"):
        failure = None
        try:
            service = get_chat_service()
            with st.status("Working on it…") as status:

                def on_event(event: str, data: dict) -> None:
                    label = EVENT_LABELS.get(event)
                    if event == "ingest" and data.get("total"):
                        label = safe_model_markdown(f"Processing the PDF: {data.get('stage')} ({data.get('done')}/{data.get('total')})")
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
                # Before any further Streamlit call, which is where a click would stop this run.
                _keep(conversation_id, question, result)
                status.update(label="Done", state="complete", expanded=False)
        except (ResourceUnavailable, ValueError) as exc:  # e.g. an empty question: the message says what to do
            failure = escape_markdown(redact(str(exc)))
        except Exception as exc:
            failure = (f"The question could not be answered ({escape_markdown(redact(f'{type(exc).__name__}: {exc}'))}). "
                       "Try again; if it keeps failing, check the settings in the sidebar.")
        if failure:
            st.session_state.pop(IN_FLIGHT, None)
            st.error(failure)
            st.stop()
    st.rerun()  # redraw from the store (plus unsaved turns): what the user sees is what was kept

notice = st.session_state.pop("chat_notice", None)
if notice:
    st.warning(escape_markdown(notice))
