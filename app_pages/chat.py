"""Chat: conversations (new, switch, rename, delete), answers with clickable citations.

The open conversation is in the URL (`?c=<id>`), so a reload comes back to it; its messages,
citations included, are reloaded from the history store on every run. When the history
database is down (or refuses the credentials) the chat still answers: a turn is queued on the server
(agent/turns.py; with no conversation open, one is opened there and created when the store is back)
and shown as "not saved yet" until it is written; without a usable MONGODB_URI a turn is kept in
this browser tab only, and the page says it is not saved. This page lays the chat out; its state
(question in flight, Stop, asking again, unsaved and queued turns) is `ui/chat_session.py`.
"""

from __future__ import annotations

import streamlit as st

# Drawn before the heavy imports and resources below (agent, models, history server), so a cold
# start never shows an empty page.
st.title("Chat")
_loading = st.empty()
_loading.caption(":material/hourglass_top: Loading your PDFs and conversations…")

from storage.history.store import HistoryError  # noqa: E402
from storage.settings import get_settings  # noqa: E402
from ui import asked as asked_questions  # noqa: E402
from ui import conversations as conv  # noqa: E402
from ui.chat_actions import ask_again_button, confirm_delete, export_details  # noqa: E402
from ui.chat_session import ChatSession, open_history  # noqa: E402
from ui.citation_view import install_citation_links, render_answer  # noqa: E402
from ui.chat_scroll import install_follow_newest  # noqa: E402
from ui.citations import conversation_markdown  # noqa: E402
from ui.copy_button import install_copy_buttons  # noqa: E402
from ui.doc_summary import render_overview  # noqa: E402
from ui.doc_picker import pdfs_waiting_in_source, picked_titles, processed_pdfs, set_picked  # noqa: E402
from ui.ingest_view import follow_job, ingest_running, show_flash, show_ingest_progress, start_ingest  # noqa: E402
from ui.resources import ResourceUnavailable, get_chat_service, get_history_store, model_info  # noqa: E402
from ui.safe_text import escape_markdown, redact  # noqa: E402
from ui.sidebar import render_sidebar  # noqa: E402
from ui.url_state import switch_page  # noqa: E402

identity = st.session_state["identity"]
doc_ids = render_sidebar()
user_id = identity.user_id
history = open_history(user_id, get_history_store, get_chat_service)
session = ChatSession(st.session_state, user_id, history)
known = {c.conversation_id: c for c in history.conversations}
conversation_id = session.pick_conversation(st.query_params.get("c"))


def _open(cid: str | None) -> None:
    if cid:
        st.query_params["c"] = cid
    else:
        st.query_params.pop("c", None)


def _new_chat() -> None:
    if cid := session.new_conversation():
        _open(cid)


def _delete(cid: str) -> None:
    if session.delete_conversation(cid):
        _open(None)


def _conversation_list() -> None:
    """The sidebar's conversations: new, switch, rename, delete."""
    st.divider()
    top = st.container(horizontal=True, vertical_alignment="center")
    top.markdown("**Conversations**")
    if history.store is not None:
        top.button("New", icon=":material/add:", on_click=_new_chat, key="new-chat")
    for c in history.conversations[:50]:
        st.button(escape_markdown(c.title), key=f"conv-{c.conversation_id}",
                  type="primary" if c.conversation_id == conversation_id else "tertiary",
                  on_click=_open, args=(c.conversation_id,), width="stretch")
    if conversation_id not in known:
        return
    with st.popover("Rename or delete", icon=":material/edit:", width="stretch"):
        title = st.text_input("Title", value=known[conversation_id].title, max_chars=120)
        if st.button("Rename", key="rename-chat") and title.strip():
            if error := session.rename_conversation(conversation_id, title.strip()):
                st.error(escape_markdown(error))
            else:
                st.rerun()
        ask_delete = st.button("Delete this conversation", key="delete-chat", icon=":material/delete:")
    if ask_delete:
        confirm_delete(known[conversation_id].title, lambda cid=conversation_id: _delete(cid))


def _first_run() -> None:
    """No PDF selected: process the PDFs waiting in the source folder, add one, or ask without them."""
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
    elif not processed_pdfs():
        # First run with nothing to process: adding a PDF is the one obvious next step.
        with st.container(border=True):
            st.markdown("**Start by adding a PDF.** Upload a report or filing; every answer will cite "
                        "the exact page it comes from.")
            if st.button("Add a PDF", type="primary", icon=":material/upload_file:", key="first-run-add"):
                switch_page("app_pages/documents.py")
    else:
        st.caption("No PDF selected in the sidebar: questions are answered without your documents.")


def _header() -> None:
    """Whether answers are saved and written by a model, processing progress, the first run."""
    if history.offline_reason:
        keeping = ("Answers are kept on this server and saved to your history when it is back." if history.queueing
                   else "Answers are not saved: they are kept in this browser tab only.")
        st.warning(f"Chat history is unavailable: {escape_markdown(history.offline_reason)} You can keep asking. "
                   f"{keeping}", icon=":material/cloud_off:")
    if model_info().get("mode") == "extractive":
        st.info(
            "No language model is configured, so answers are the most relevant passages quoted from "
            "your PDFs (no-model mode). Set a model key (see the README) to get written answers.",
            icon=":material/info:",
        )
    show_flash()
    try:
        line = get_chat_service().line  # questions waiting here: the progress refreshes less often
    except ResourceUnavailable:
        line = None
    show_ingest_progress(line)
    if not doc_ids and not ingest_running():
        _first_run()


def _page_chip(page: dict | None) -> None:
    """The page viewed in the viewer, which "this page" in a question means."""
    if not page:
        return
    chip, clear = st.columns([5, 1], vertical_alignment="center")
    chip.caption(f"Viewing {escape_markdown(page['source_file'])}, page {page['page_number'] + 1}: "
                 "ask about “this page” to use it.")
    if clear.button("Forget page", key="forget-page", type="tertiary"):
        session.forget_page()
        st.rerun()


def _load_turns() -> tuple[list[conv.ChatTurn], list[conv.ChatTurn], list[conv.ChatTurn]]:
    """(stored, queued for the history, kept in this tab) turns of the open conversation."""
    queued = session.queued_turns(conversation_id)  # first: written to the store now if it is back
    stored: list[conv.ChatTurn] = []
    try:
        stored = session.stored_turns(conversation_id)
    except HistoryError as exc:
        st.warning(f"{escape_markdown(str(exc))} Reload the page to retry.", icon=":material/cloud_off:")
    return stored, queued, session.unsaved_turns(conversation_id)


def _draw_turns(stored: list[conv.ChatTurn], queued: list[conv.ChatTurn], unsaved: list[conv.ChatTurn]) -> None:
    shown = stored + queued + unsaved
    install_follow_newest()
    if any(t.citations for t in shown):
        install_citation_links()
    if shown:
        install_copy_buttons()
    asked = ""  # the question of the answer being drawn
    for i, turn in enumerate(shown):
        with st.chat_message(turn.role):
            if turn.role == "user":
                asked = turn.text
                st.text(turn.text)
                continue
            render_answer(turn.text, turn.citations, key=f"{conversation_id}-{i}", route=turn.route, mode=turn.mode,
                          claims=turn.claims)
            if turn.interrupted:
                st.caption(":material/sync_problem: Interrupted: the server answering this question stopped "
                           "before it finished.")
                if asked:
                    ask_again_button(asked, key=f"ask-again-{i}", on_ask=session.retry)
            elif turn.stopped:
                st.caption(":material/stop_circle: Stopped: this answer is incomplete.")
                if asked:
                    ask_again_button(asked, key=f"ask-again-{i}", on_ask=session.retry)
            if len(stored) <= i < len(stored) + len(queued):
                st.caption(":material/cloud_upload: Not saved to your history yet: it is saved as soon as the history "
                           "database is back.")
            elif i >= len(stored):
                st.caption(":material/cloud_off: Not saved to your history: kept in this browser tab only.")


def _export(shown: list[conv.ChatTurn]) -> None:
    export_title = known[conversation_id].title if conversation_id in known else "Chat"  # unknown while offline
    st.download_button(
        "Export as Markdown",
        conversation_markdown(export_title, shown, details=export_details(picked_titles(doc_ids), model_info())),
        file_name=f"{conv.file_stem(export_title)}.md", mime="text/markdown",
        icon=":material/download:", key="export-chat", help="This conversation, every citation with file, page and quote",
    )


def _interrupted_question() -> None:
    if interrupted := session.interrupted(conversation_id):
        with st.container(border=True):
            st.warning(
                f"This question was interrupted before it was answered: “{escape_markdown(interrupted['text'])}”",
                icon=":material/replay:",
            )
            st.button("Ask it again", key="retry-question", on_click=session.retry, args=(interrupted["text"],))


@st.fragment(run_every=2)
def _answering_elsewhere() -> None:
    """A question of this conversation still being answered by another tab or server: wait for it, then
    redraw (answered, or interrupted when that server stopped)."""
    flight = session.interrupted(conversation_id)
    answering = asked_questions.settle(session, conversation_id, flight and flight.get("ask_id"))
    if not answering:
        st.rerun(scope="app")
    for rec in answering:
        st.info(f"Still being answered in another tab: “{escape_markdown(rec['question'])}”",
                icon=":material/hourglass_top:")


def _answer(question: str, flight: dict, pages: tuple[dict | None, dict | None]) -> None:
    """Stream the answer with its status line and Stop button; on failure say why and end the run."""
    failure = None
    try:
        service = get_chat_service()
        with st.container(horizontal=True, vertical_alignment="center"):
            status = st.status("Working on it…")
            st.button("Stop", key="stop-answer", icon=":material/stop_circle:", on_click=session.request_stop,
                      help="Stop this answer and keep what it has written so far")
        outcome: dict = {}
        events = service.ask_stream(user_id, conversation_id, question, doc_ids,
                                    current_page=pages[0], previous_page=pages[1])
        st.write_stream(session.answer_text(events, flight, outcome, on_progress=lambda label: status.update(label=label)))
        result = outcome["answer"]
        # Before any further Streamlit call, which is where a click would stop this run.
        session.keep(conversation_id, question, result)
        if result.active_doc_ids:  # /ingest made this PDF the active one: the sidebar says so too
            set_picked(result.active_doc_ids)
        if result.ingest_job_id:  # /ingest queued it: its progress shows at the top, and it is picked when ready
            follow_job(result.ingest_job_id)
        status.update(label="Done", state="complete", expanded=False)
    except (ResourceUnavailable, ValueError) as exc:  # e.g. an empty question: the message says what to do
        failure = escape_markdown(redact(str(exc)))
    except Exception as exc:  # noqa: BLE001 - the page boundary: any failure of the agent is shown, never a crash
        failure = (f"The question could not be answered ({escape_markdown(redact(f'{type(exc).__name__}: {exc}'))}). "
                   "Try again; if it keeps failing, check the settings in the sidebar.")
    if failure:
        session.failed()
        st.error(failure)
        st.stop()


if history.store is not None:
    _open(conversation_id)
session.settle_previous_run()
session.resume_aborted(conversation_id)  # a run aborted mid-answer by a rerun (not Stop): its question is asked again
_in_flight = session.interrupted(conversation_id)
# Before the turns are read: a question whose server died mid-answer becomes an interrupted turn.
answering_elsewhere = asked_questions.settle(session, conversation_id, _in_flight and _in_flight.get("ask_id"))
with st.sidebar:
    _conversation_list()
_loading.empty()
_header()
pages = session.page_for(conversation_id)  # ("this page", the page viewed before)
_page_chip(pages[0])

stored, queued, unsaved = _load_turns()
overview = st.empty()  # emptied when the first question is asked
if not stored and not queued and not unsaved and doc_ids:
    with overview.container():
        render_overview([p for p in processed_pdfs() if p.doc_id in doc_ids], on_ask=session.retry)
_draw_turns(stored, queued, unsaved)
if stored or queued or unsaved:
    _export(stored + queued + unsaved)

_interrupted_question()
if answering_elsewhere:
    _answering_elsewhere()
waiting_for_pdfs = ingest_running() and not doc_ids  # the first PDF is still being processed
typed = st.chat_input(
    "Wait until the PDF is processed…" if waiting_for_pdfs else "Ask about your PDFs", disabled=waiting_for_pdfs,
    max_chars=get_settings().limits.max_question_chars, key="chat-question", on_submit=session.submit,
    args=("chat-question",),
)
# The callback keeps a question a rerun aborted; the returned value covers a session with no callback yet
# registered (a page reconnected to another replica submits to a new session, which runs no callback).
question = session.take_submitted() or typed or session.take_retry()
if question:
    overview.empty()
    if history.queueing and not conversation_id:
        conversation_id = session.conversation_for(question)
        _open(conversation_id)
    if pages[0]:
        session.claim_page(conversation_id)  # a new conversation claims it
    flight = session.start(conversation_id, question)
    with st.chat_message("user"):
        st.text(question)
    with st.chat_message("assistant"):
        _answer(question, flight, pages)
    st.rerun()  # redraw from the store (plus unsaved turns): what the user sees is what was kept

if notice := session.pop_notice():
    st.warning(escape_markdown(notice))
