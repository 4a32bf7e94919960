"""Chat page details (AppTest, real ChatService in no-model mode, real history): captions that fit
the reply, /ingest switching the sidebar selection, "this page" staying with its conversation, a
stopped answer kept and marked, and the first step on an empty library."""

from __future__ import annotations

from storage.documents.ingest import process_and_index_pdf
from tests.fixtures_ui import FILE, doc_picker, make_xss_pdf, new_app, stopped_run


def _captions(at) -> str:
    return "\n".join(c.value for c in at.caption)


def _cid(at) -> str:
    c = at.query_params["c"]
    return c[0] if isinstance(c, list) else c


def test_commands_and_greetings_carry_no_quoted_passages_caption(chat_service, sample_processed):
    at = new_app().run()
    at.chat_input[0].set_value("/help").run()
    assert not at.exception
    assert any("/ingest" in m.value for m in at.markdown)  # the help text is shown
    at.chat_input[0].set_value("hi").run()
    assert not at.exception
    assert "quoted passages" not in _captions(at) and "Answered" not in _captions(at)
    at.chat_input[0].set_value("What was the net debt at year end?").run()  # a real search still says so
    assert "quoted passages" in _captions(at)


def test_ingest_of_a_processed_pdf_selects_it_as_it_says(chat_service, sample_processed, ui_env):
    other = process_and_index_pdf(make_xss_pdf(ui_env["home"] / "source" / "hostile.pdf"))
    at = new_app().run()
    assert sorted(doc_picker(at).value) == sorted([sample_processed.doc_id, other.doc_id])
    at.chat_input[0].set_value(f"/ingest {FILE}").run()
    assert not at.exception
    assert any("active PDF" in m.value for m in at.markdown)
    assert doc_picker(at).value == [sample_processed.doc_id]
    assert "quoted passages" not in _captions(at)


def test_this_page_chip_stays_with_its_conversation(chat_service, sample_processed, ui_env):
    chat_service.history.create_conversation(ui_env["user_id"], "About page 2")
    at = new_app()
    at.session_state["current_page"] = {"doc_id": sample_processed.doc_id, "source_file": FILE, "page_number": 1}
    at.run()
    assert "page 2: ask about “this page”" in _captions(at)
    first = _cid(at)
    at.button(key="new-chat").click().run()
    assert not at.exception and _cid(at) != first
    assert "this page" not in _captions(at)


def test_a_stopped_answer_is_kept_and_marked(chat_service, sample_processed, ui_env):
    cid = chat_service.history.create_conversation(ui_env["user_id"], "Stopped one")
    at = stopped_run(cid, "Net debt fell to")  # what the Stop click leaves behind
    assert not at.exception
    assert "Stopped: this answer is incomplete." in _captions(at)
    assert not any("interrupted" in w.value for w in at.warning)
    messages = chat_service.history.load_messages(ui_env["user_id"], cid)
    assert [(m["role"], m["content"], bool(m.get("stopped"))) for m in messages] == [
        ("user", "What was the net debt?", False), ("ai", "Net debt fell to", True)]
    again = new_app()  # a reload shows it again
    again.query_params["c"] = cid
    again.run()
    assert "Stopped: this answer is incomplete." in _captions(again)


def test_empty_library_offers_adding_a_pdf_as_the_primary_action(chat_service):
    at = new_app().run()
    assert not at.exception
    add = at.button(key="first-run-add")
    assert add.proto.type == "primary" and add.label == "Add a PDF"
    add.click().run()
    assert not at.exception
    assert [t.value for t in at.title] == ["Documents"]


def test_ingest_of_a_new_pdf_runs_as_a_job_and_then_is_the_active_pdf(chat_service, sample_processed, ui_env):
    from tests.fixtures_ui import SAMPLE_PDF, wait_for_ingest

    other = ui_env["home"] / "source" / "second_report.pdf"
    other.write_bytes(SAMPLE_PDF.read_bytes() + b"\n% another revision\n")  # other bytes: not processed yet
    at = new_app().run()
    at.chat_input[0].set_value("/ingest second_report.pdf").run()
    assert not at.exception
    assert any("in the background" in m.value for m in at.markdown)
    (job_id,) = at.session_state["ingest_jobs"]  # a background job, not a turn the reload would lose
    assert any(f"job {job_id[:8]}" in m.value for m in at.markdown)  # the reply names the job the page follows
    messages = chat_service.history.load_messages(ui_env["user_id"], _cid(at))
    assert [m["role"] for m in messages] == ["user", "ai"] and "in the background" in messages[1]["content"]
    wait_for_ingest(at)
    from storage.documents.catalog import list_processed_pdfs

    new_id = next(p.doc_id for p in list_processed_pdfs() if p.source_file == "second_report.pdf")
    assert doc_picker(at).value == [new_id]
    assert any("now the active PDF" in s.value for s in at.success)


def test_stop_pressed_after_the_last_word_keeps_the_finished_turn_once(chat_service, sample_processed, ui_env, monkeypatch):
    import streamlit as st

    real = chat_service.ask_stream

    def stop_after_the_answer(*args, **kwargs):
        yield from real(*args, **kwargs)  # every word streamed, the turn finished and saved
        st.session_state["stop_requested"] = True  # what the Stop button's callback sets ...
        st.rerun()  # ... and its click: the running script is aborted at its next Streamlit call

    monkeypatch.setattr(chat_service, "ask_stream", stop_after_the_answer)
    at = new_app().run()
    at.chat_input[0].set_value("What was the net debt at year end?").run()
    assert not at.exception
    messages = chat_service.history.load_messages(ui_env["user_id"], _cid(at))
    assert [m["role"] for m in messages if m["role"] != "tool"].count("user") == 1  # stored once
    assert not any(m.get("stopped") for m in messages)
    assert "Stopped: this answer is incomplete." not in _captions(at)
    assert not any("interrupted" in w.value for w in at.warning)
    assert sum(1 for m in at.chat_message if m.name == "user") == 1


def test_a_stopped_answer_keeps_no_marker_its_run_never_cited(chat_service, sample_processed, ui_env):
    cid = chat_service.history.create_conversation(ui_env["user_id"], "Stopped with markers")
    at = stopped_run(cid, "Net debt fell to 62.5 million [^3][^4], down from [^")
    assert not at.exception
    [stored] = [m for m in chat_service.history.load_messages(ui_env["user_id"], cid) if m["role"] == "ai"]
    assert stored["content"] == "Net debt fell to 62.5 million, down from" and stored["stopped"]
    assert not any("[^" in m.value or "\\[^" in m.value for m in at.markdown)
