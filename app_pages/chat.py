"""Chat: conversations (new, switch, rename, delete), answers with clickable citations.

The open conversation is in the URL (`?c=<id>`), so a reload comes back to it; its messages,
citations included, are reloaded from the history store on every run. When the history
database is down (or refuses the credentials) the chat still answers: a turn is queued on the server
(agent/turns.py; with no conversation open, one is opened there and created when the store is back)
and shown as "not saved yet" until it is written; without a usable MONGODB_URI a turn is kept in
this browser tab only, and the page says it is not saved.
"""

from __future__ import annotations

import time

import streamlit as st

# Drawn before the heavy imports and resources below (agent, models, history server), so a cold
# start never shows an empty page.
st.title("Chat")
_loading = st.empty()
_loading.caption(":material/hourglass_top: Loading your PDFs and conversations…")

from agent.citations.markers import strip_markers  # noqa: E402
from storage.settings import get_settings  # noqa: E402
from storage.history.store import HistoryError, HistoryUnavailableError, is_valid_id  # noqa: E402
from ui import conversations as conv  # noqa: E402
from ui.chat_actions import ask_again_button, confirm_delete, export_details  # noqa: E402
from ui.citation_view import install_citation_links, render_answer  # noqa: E402
from ui.citations import conversation_markdown  # noqa: E402
from ui.copy_button import install_copy_buttons  # noqa: E402
from ui.doc_summary import render_overview  # noqa: E402
from ui.doc_picker import pdfs_waiting_in_source, picked_titles, processed_pdfs, set_picked  # noqa: E402
from ui.ingest_view import ingest_running, show_flash, show_ingest_progress, start_ingest  # noqa: E402
from ui.resources import ResourceUnavailable, get_chat_service, get_history_store, model_info  # noqa: E402
from ui.safe_text import escape_markdown, redact, safe_model_markdown  # noqa: E402
from ui.sidebar import render_sidebar  # noqa: E402

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
STOP = "stop_requested"  # set by the Stop button's callback, before the run it starts
PAGE = "current_page"  # the page last viewed in the viewer ("this page"), with the conversation it belongs to

identity = st.session_state["identity"]
doc_ids = render_sidebar()
user_id = identity.user_id

store, conversations, offline_reason, queueing = None, [], None, False
try:
    store = get_history_store()
    queueing = True  # a store is configured: while it is down, turns wait on this server (agent/turns.py)
    try:  # first, so that conversations opened while it was down are listed
        get_chat_service().flush_pending(user_id)
    except Exception:  # noqa: BLE001 - best effort: the next question flushes again and says why if it fails
        pass
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
    return conv.turns_of(pending)


def _conversation_for(question: str) -> str | None:
    """A new conversation for this question: in the store, or, while it is down, opened on this server
    and created when it is back (agent/turns.py). None: answered anyway, kept in this browser tab."""
    title = question.strip()[:60] or "New chat"
    try:
        if store is not None:
            try:
                return conv.create_conversation(store, user_id, title=title)
            except HistoryUnavailableError:
                pass
        return get_chat_service().turns.open_offline(user_id, title)
    except Exception:  # noqa: BLE001 - bad title, outbox unwritable
        return None


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
    # "this page" was viewed for the conversation that was open: not carried into a new one.
    st.session_state.pop(PAGE, None)
    st.session_state.pop("previous_page", None)


def _delete(cid: str) -> None:
    try:
        conv.delete_conversation(store, user_id, cid)
        _open(None)
    except HistoryError as exc:
        st.session_state["chat_notice"] = redact(str(exc))


def _stop() -> None:
    st.session_state[STOP] = True


def _page_for(cid: str | None) -> tuple[dict | None, dict | None]:
    """("this page", the page viewed before) when they belong to conversation `cid`.

    A page viewed in the viewer is claimed by the conversation open when the chat next shows it.
    """
    page = st.session_state.get(PAGE)
    if not page:
        return None, None
    page.setdefault("conversation_id", cid)
    if page["conversation_id"] != cid:
        return None, None
    ref = {k: page[k] for k in ("doc_id", "source_file", "page_number")}
    prev = st.session_state.get("previous_page")
    return ref, ({k: prev[k] for k in ("doc_id", "source_file", "page_number")} if prev else None)


def _keep_stopped(flight: dict) -> None:
    """The user pressed Stop: keep the question and what was written so far, marked as stopped.
    Its markers go: the run never built citations for them, and their ids (provisional while the
    history is down) would read as references to whatever later answers number the same."""
    _keep_plain(flight["conversation_id"], flight["text"], strip_markers(flight.get("partial", "")), stopped=True)


def _keep_plain(cid: str | None, question: str, reply: str, **reply_fields) -> None:
    """A turn answered outside the agent, saved like any turn (agent/turns.py: stored, or queued on this
    server while the history is down); kept in this browser tab when there is no history to keep it."""
    outcome = None
    try:
        turns = get_chat_service().turns if cid else None
    except ResourceUnavailable:
        turns = None
    if turns is not None:
        outcome = turns.save_plain(user_id, cid, question, reply, **reply_fields)
    if outcome is None or not (outcome.saved or outcome.queued):
        st.session_state[UNSAVED].setdefault(cid or "", []).extend(
            [conv.ChatTurn("user", question), conv.ChatTurn("assistant", reply, **reply_fields)])
    if outcome is not None and outcome.error:
        st.session_state["chat_notice"] = redact(outcome.error)


def _keep(cid: str | None, question: str, result) -> None:
    """Record an answered question: no longer in flight; kept in the session if it will not be saved
    (a turn queued for the history is shown from the queue instead)."""
    st.session_state.pop(IN_FLIGHT, None)
    queued = bool(cid) and any(t.role == "user" and t.text == question for t in _queued_turns(cid, flush=False))
    if not result.saved and not queued:
        unsaved = st.session_state[UNSAVED].setdefault(cid or "", [])
        unsaved.append(conv.ChatTurn("user", question))
        unsaved.append(conv.ChatTurn("assistant", result.message, list(result.citations), result.route, result.mode,
                                     claims=list(result.claims)))
    if result.error:
        st.session_state["chat_notice"] = redact(result.error)


def _progress_label(event: dict) -> str | None:
    if event.get("event") == "ingest" and event.get("total"):
        return safe_model_markdown(f"Processing the PDF: {event.get('stage')} ({event.get('done')}/{event.get('total')})")
    return EVENT_LABELS.get(event.get("event"))


def _answer_text(events, status, flight: dict, outcome: dict):
    """The answer's text for `st.write_stream` as the model writes it, made safe; progress goes to
    the status line, the final AnswerResult to `outcome`. What was written is kept in `flight`, so
    a Stop (which aborts this run) can keep it. A whole answer arriving at once (no-model mode) is
    written out word by word, within about a second."""
    for kind, value in events:
        if kind == "progress":
            if label := _progress_label(value):
                status.update(label=label)
        elif kind == "answer":
            # The turn is finished and kept: a click from now on (Stop included) must not keep it again.
            outcome["answer"] = flight["answer"] = value
        elif kind == "token" and len(value) <= 80:
            flight["partial"] += value
            yield safe_model_markdown(value)
        elif kind == "token":
            words = value.split(" ")
            for j, word in enumerate(words):
                piece = word if j == 0 else " " + word
                flight["partial"] += piece
                yield safe_model_markdown(piece)
                time.sleep(min(0.02, 1.0 / len(words)))


def _ingest_in_background(cid: str | None, question: str) -> bool:
    """`/ingest <file>` of a PDF not processed yet runs as a background job (it survives reloads and
    can be cancelled) instead of inside the answer; True when it was started. Anything else (an
    already-processed file, a bad name) goes to the agent, which switches to it or says why not."""
    from agent.routing import parse_command
    from storage.documents.catalog import PdfProcessingError, check_pdf_processed
    from storage.documents.intake import resolve_source_pdf
    from ui.citations import doc_id_of_file

    cmd = parse_command(question)
    if cmd is None or cmd.name != "ingest" or not cmd.argument:
        return False
    try:
        path = resolve_source_pdf(cmd.argument)
        if check_pdf_processed(doc_id_of_file(path)):
            return False
    except (PdfProcessingError, OSError):
        return False
    start_ingest(path, switch_to=True)
    reply = (f"Processing **{escape_markdown(path.name)}** in the background (progress at the top). It becomes the "
             "active PDF when it is ready; you can keep using the app, or reload, meanwhile.")
    _keep_plain(cid, question, reply, route="ingest")
    return True


def _retry(text: str) -> None:
    st.session_state.pop(IN_FLIGHT, None)
    st.session_state[RETRY] = text


if store is not None:
    _open(conversation_id)
st.session_state.setdefault(UNSAVED, {})
_flight = st.session_state.get(IN_FLIGHT)
if _flight and _flight.get("answer") is not None:
    # A click (Stop or any other) aborted the previous run after its turn was finished and kept:
    # the question is answered, not stopped or interrupted.
    st.session_state.pop(STOP, None)
    _keep(_flight["conversation_id"], _flight["text"], _flight["answer"])
elif st.session_state.pop(STOP, False) and _flight:
    # The Stop click ended the previous run mid-answer (a click reruns the script and aborts the
    # running one at its next Streamlit call); what it had written is in IN_FLIGHT.
    _keep_stopped(st.session_state.pop(IN_FLIGHT))

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
            except HistoryError as exc:
                st.error(escape_markdown(redact(str(exc))))
            ask_delete = st.button("Delete this conversation", key="delete-chat", icon=":material/delete:")
        if ask_delete:
            confirm_delete(known[conversation_id].title, lambda cid=conversation_id: _delete(cid))

# ---------------------------------------------------------------- header and context
_loading.empty()
if offline_reason:
    keeping = ("Answers are kept on this server and saved to your history when it is back." if queueing
               else "Answers are not saved: they are kept in this browser tab only.")
    st.warning(f"Chat history is unavailable: {escape_markdown(offline_reason)} You can keep asking. {keeping}",
               icon=":material/cloud_off:")
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
    elif not processed_pdfs():
        # First run with nothing to process: adding a PDF is the one obvious next step.
        with st.container(border=True):
            st.markdown("**Start by adding a PDF.** Upload a report or filing; every answer will cite "
                        "the exact page it comes from.")
            if st.button("Add a PDF", type="primary", icon=":material/upload_file:", key="first-run-add"):
                st.switch_page("app_pages/documents.py")
    else:
        st.caption("No PDF selected in the sidebar: questions are answered without your documents.")
current_page, previous_page = _page_for(conversation_id)
if current_page:
    chip, clear = st.columns([5, 1], vertical_alignment="center")
    chip.caption(
        f"Viewing {escape_markdown(current_page['source_file'])}, page {current_page['page_number'] + 1}: "
        "ask about “this page” to use it."
    )
    if clear.button("Forget page", key="forget-page", type="tertiary"):
        st.session_state.pop(PAGE, None)
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
overview = st.empty()  # emptied when the first question is asked
if not turns and not queued and not unsaved and doc_ids:
    with overview.container():
        render_overview([p for p in processed_pdfs() if p.doc_id in doc_ids], on_ask=_retry)
if any(t.citations for t in turns + queued + unsaved):
    install_citation_links()
if turns or queued or unsaved:
    install_copy_buttons()
asked = ""  # the question of the answer being drawn
for i, turn in enumerate(turns + queued + unsaved):
    with st.chat_message(turn.role):
        if turn.role == "user":
            asked = turn.text
            st.text(turn.text)
        else:
            render_answer(turn.text, turn.citations, key=f"{conversation_id}-{i}", route=turn.route, mode=turn.mode,
                          claims=turn.claims)
            if turn.stopped:
                st.caption(":material/stop_circle: Stopped: this answer is incomplete.")
                if asked:
                    ask_again_button(asked, key=f"ask-again-{i}", on_ask=_retry)
            if len(turns) <= i < len(turns) + len(queued):
                st.caption(":material/cloud_upload: Not saved to your history yet: it is saved as soon as the history "
                           "database is back.")
            elif i >= len(turns):
                st.caption(":material/cloud_off: Not saved to your history: kept in this browser tab only.")

if turns or queued or unsaved:
    export_title = known[conversation_id].title if conversation_id in known else "Chat"  # unknown while offline
    st.download_button(
        "Export as Markdown",
        conversation_markdown(export_title, turns + queued + unsaved,
                              details=export_details(picked_titles(doc_ids), model_info())),
        file_name=f"{conv.file_stem(export_title)}.md", mime="text/markdown",
        icon=":material/download:", key="export-chat", help="This conversation, every citation with file, page and quote",
    )

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
    max_chars=get_settings().limits.max_question_chars,
) or st.session_state.pop(RETRY, None)
if question:
    overview.empty()
    if queueing and not conversation_id:
        conversation_id = _conversation_for(question)
        _open(conversation_id)
    if _ingest_in_background(conversation_id, question.strip()):
        st.rerun()
    if current_page:
        st.session_state[PAGE]["conversation_id"] = conversation_id  # a new conversation claims it
    flight = {"conversation_id": conversation_id, "text": question, "partial": ""}
    st.session_state[IN_FLIGHT] = flight
    with st.chat_message("user"):
        st.text(question)
    with st.chat_message("assistant"):
        failure = None
        try:
            service = get_chat_service()
            with st.container(horizontal=True, vertical_alignment="center"):
                status = st.status("Working on it…")
                st.button("Stop", key="stop-answer", icon=":material/stop_circle:", on_click=_stop,
                          help="Stop this answer and keep what it has written so far")
            outcome: dict = {}
            events = service.ask_stream(user_id, conversation_id, question, doc_ids,
                                        current_page=current_page, previous_page=previous_page)
            st.write_stream(_answer_text(events, status, flight, outcome))
            result = outcome["answer"]
            # Before any further Streamlit call, which is where a click would stop this run.
            _keep(conversation_id, question, result)
            if result.active_doc_ids:  # /ingest made this PDF the active one: the sidebar says so too
                set_picked(result.active_doc_ids)
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
