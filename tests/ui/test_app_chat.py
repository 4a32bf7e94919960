"""Chat page (AppTest): a real turn through ChatService (no-model mode, real ingestion, real
history over the wire protocol), citations listed and previewed, history and citations back
after a reload, conversations managed, injection text shown literally."""

from __future__ import annotations

import re

import ui.resources
from storage.history.store import HistoryStore
from storage.documents.ingest import process_and_index_pdf
from storage.schema import Citation
from tests.fixtures_ui import FILE, citation_buttons, make_xss_pdf, new_app, retriever_factory, doc_picker
from ui.safe_text import escape_markdown
from tests.fixtures_mongo import write_message


def test_question_gets_a_cited_answer_that_survives_a_reload(chat_service, sample_processed, ui_env):
    at = new_app().run()
    assert not at.exception
    assert doc_picker(at).value == [sample_processed.doc_id]
    assert any("no-model mode" in i.value for i in at.info)  # extractive mode is announced
    at.chat_input[0].set_value("What was the net debt at year end?").run()
    assert not at.exception

    conversation_id = at.query_params["c"][0] if isinstance(at.query_params["c"], list) else at.query_params["c"]
    messages = HistoryStore(ui_env["mongo_uri"]).load_messages(ui_env["user_id"], conversation_id)
    [ai] = [m for m in messages if m["role"] == "ai" and m.get("citations")]
    stored = [Citation.model_validate(c) for c in ai["citations"]]
    assert any(c.metadata.file == FILE and c.metadata.page == 2 for c in stored)  # "Net debt fell to 62.5" is on page 2

    buttons = citation_buttons(at)
    assert len(buttons) == len(stored)
    assert any(escape_markdown(f"{FILE}, page 2") in b.label for b in buttons)
    assert not [e for e in at.expander if e.label.startswith("Sources (")]  # the chips are the one list of sources
    assert any("answers are quoted passages" in c.value or "no-model mode" in c.value for c in at.caption)

    # Open the preview of the page-2 citation: file, 1-based page and the cited text.
    target = next(b for b in buttons if "page 2" in b.label)
    target.click().run()
    assert not at.exception
    dialog_text = "\n".join(m.value for m in at.markdown)
    assert escape_markdown(f"{FILE}, page 2") in dialog_text
    assert "62\\.5" in dialog_text
    assert any('data-testid="pageImage"' in h.value for h in at.html)  # the rendered page, in its expander

    # A reload is a new session that only has the URL: the conversation and citations come back.
    again = new_app()
    again.query_params["c"] = conversation_id
    again.run()
    assert not again.exception
    assert [b.label for b in citation_buttons(again)] == [b.label for b in buttons]
    assert any(m.value == "What was the net debt at year end?" for m in again.text)


def test_conversations_can_be_created_renamed_and_deleted(chat_service, ui_env):
    store = chat_service.history
    first = store.create_conversation(ui_env["user_id"], "Old question")
    at = new_app().run()
    assert at.query_params["c"] in (first, [first])
    at.button(key="new-chat").click().run()
    assert not at.exception
    conversations = store.list_conversations(ui_env["user_id"])
    assert len(conversations) == 2
    new_id = next(c["conversation_id"] for c in conversations if c["conversation_id"] != first)
    assert at.query_params["c"] in (new_id, [new_id])

    at.text_input[0].set_value("Budget review").run()
    at.button(key="rename-chat").click().run()
    assert store.get_conversation(ui_env["user_id"], new_id)["title"] == "Budget review"
    assert any(b.label == "Budget review" for b in at.button)

    at.button(key="delete-chat").click().run()  # asks first
    assert not at.exception
    assert any("cannot be undone" in m.value for m in at.markdown)
    at.button(key="cancel-delete-chat").click().run()
    assert len(store.list_conversations(ui_env["user_id"])) == 2
    at.button(key="delete-chat").click().run()
    at.button(key="confirm-delete-chat").click().run()
    assert not at.exception
    assert [c["conversation_id"] for c in store.list_conversations(ui_env["user_id"])] == [first]
    assert at.query_params["c"] in (first, [first])


def test_text_from_a_hostile_pdf_is_shown_literally(chat_service, ui_env):
    path = make_xss_pdf(ui_env["home"] / "source" / "hostile.pdf")
    process_and_index_pdf(path)
    at = new_app().run()
    at.chat_input[0].set_value("What does the quarterly note say about the script and the logo link?").run()
    assert not at.exception
    answer = next(m.value for m in at.markdown if "Quarterly" in m.value or "Logo" in m.value or "Click" in m.value)
    # Every "<", "[" and "$" from the PDF reaches st.markdown backslash-escaped: no HTML, links, LaTeX.
    badges = re.sub(r" \[:blue-badge\[\d+\]\]\(#cite-[\w-]+\)", "", answer)  # the citation links we add
    assert re.search(r"(?<!\\)[<\[$:]", badges) is None, answer
    assert "\\<script\\>" in answer and "\\<img src=x onerror=" in answer and "\\[the link\\](javascript\\:" in answer


def test_history_down_still_answers_and_queues_the_turn(ui_env, sample_processed, monkeypatch, tmp_path):
    from agent.service import ChatService
    from storage.history.embedded_server import free_port

    monkeypatch.setenv("PDF_CHAT_OUTBOX", str(tmp_path / "outbox"))

    dead = HistoryStore(f"mongodb://127.0.0.1:{free_port()}/", timeout_ms=300)
    service = ChatService(llm=None, web=None, history=dead, get_retriever=retriever_factory())
    monkeypatch.setattr(ui.resources, "get_chat_service", lambda: service)
    monkeypatch.setattr(ui.resources, "get_history_store", lambda: dead)
    at = new_app().run()
    assert not at.exception
    assert any("unavailable" in w.value and "keep asking" in w.value for w in at.warning)
    assert not any("until the history is back" in w.value for w in at.warning)  # no promise that is not kept
    at.chat_input[0].set_value("What was the net debt at year end?").run()
    assert not at.exception
    assert any("62.5" in m.value or "62\\.5" in m.value for m in at.markdown)
    # a conversation is opened on this server and created with the turn when the history is back
    assert any("Not saved to your history yet" in c.value for c in at.caption)
    cid = at.query_params["c"][0] if isinstance(at.query_params["c"], list) else at.query_params["c"]
    assert len(service.turns.pending_messages(ui_env["user_id"], cid)) == 2
    buttons = citation_buttons(at)
    assert buttons
    buttons[0].click().run()  # a rerun (opening a citation) keeps the unsaved answer on screen
    assert not at.exception and citation_buttons(at)


def _stored_answer(store, user_id: str, citations: list[Citation]) -> str:
    cid = store.create_conversation(user_id, "Stored answer")
    write_message(store, user_id, cid, "user", "Tell me everything")
    text = " ".join(c.marker for c in citations)
    write_message(store, user_id, cid, "ai", f"Answer {text}.", citations=[c.model_dump() for c in citations], route="documents")
    return cid


def test_every_citation_kind_opens_its_own_preview(chat_service, sample_processed, ui_env):
    doc_id = sample_processed.doc_id
    citations = [
        Citation(number="1", marker="[^1]", kind="document", documentId=doc_id, documentTitle=FILE,
                 snippet="Scope 1 and 2 emissions decreased by 18 percent", preview="Scope 1 and 2 emissions decreased by 18 percent to 21,600 tonnes.",
                 metadata={"file": FILE, "page": 3, "chunk_id": 3, "doc_id": doc_id, "disambiguated": True, "candidates": [FILE, "other.pdf"]}),
        Citation(number="2", marker="{^2}", kind="web", documentId="https://example.org/peru", documentTitle="Peru <b>facts</b>",
                 snippet="Lima is the capital.", preview="Lima is the capital.", metadata={"url": "https://example.org/peru"}),
        Citation(number="8.1", marker="[8.1]", kind="knowledge", documentId="Q301", documentTitle="How do I reset a password?",
                 snippet="Use the reset link.", preview="Q: How do I reset a password?\nA: Use the reset link.", metadata={"q_id": "Q301", "category": "Accounts"}),
        Citation(number="chunk 4?", marker="[chunk_id: 4]", kind="document", documentId="", documentTitle="Ambiguous: chunk 4 exists in a.pdf, b.pdf",
                 snippet="The answer cites chunk 4, which exists in several files (a.pdf p. 1; b.pdf p. 2); the sentence does not clearly match one of them.",
                 preview="a.pdf, page 1: alpha text\n\nb.pdf, page 2: beta text", metadata={"chunk_id": 4, "candidates": ["a.pdf", "b.pdf"]}),
    ]
    cid = _stored_answer(chat_service.history, ui_env["user_id"], citations)
    at = new_app()
    at.query_params["c"] = cid
    at.run()
    assert not at.exception
    labels = [b.label for b in citation_buttons(at)]
    assert labels == [
        f"1 · {escape_markdown(FILE + ', page 3')}",
        f"web 2 · {escape_markdown('Peru <b>facts</b>')}",  # a hostile web title stays text
        f"3 · {escape_markdown('Q&A How do I reset a password?')}",  # one answer numbers its sources 1…n
        f"4 · {escape_markdown('Ambiguous: chunk 4 exists in a.pdf, b.pdf')}",
    ]

    def open_dialog(i: int) -> str:
        citation_buttons(at)[i].click().run()
        assert not at.exception
        return "\n".join(x.value for x in list(at.markdown) + list(at.caption) + list(at.info) + list(at.warning))

    doc = open_dialog(0)
    assert "this citation is from northwind\\_annual\\_report\\_2023\\.pdf (not other\\.pdf)" in doc
    assert escape_markdown(f"{FILE}, page 3") in doc and "“Scope 1 and 2 emissions decreased by 18 percent”" in doc
    web = open_dialog(1)
    assert "https\\://example\\.org/peru" in web and [lb.proto.url for lb in at.get("link_button")] == ["https://example.org/peru"]
    knowledge = open_dialog(2)
    assert "Category: Accounts" in knowledge and "Use the reset link\\." in knowledge
    ambiguous = open_dialog(3)
    assert "several files" in ambiguous and "a\\.pdf, page 1\\: alpha text" in ambiguous and "b\\.pdf, page 2\\: beta text" in ambiguous


def test_a_pdf_replaced_under_the_same_name_is_not_shown_for_an_old_citation(chat_service, sample_processed, ui_env):
    """doc_ids are content hashes: a citation must never render pages of other content that now
    sits under the cited file name (neither via the manifest's path nor the source folder)."""
    from ui.citations import resolve_pdf_path

    doc_id, source = sample_processed.doc_id, ui_env["home"] / "source" / FILE
    assert resolve_pdf_path(doc_id, FILE) == source
    citation = Citation(number="1", marker="[^1]", kind="document", documentId=doc_id, documentTitle=FILE,
                        snippet="Net debt fell to 62.5 million euros", preview="Net debt fell to 62.5 million euros.",
                        metadata={"file": FILE, "page": 2, "chunk_id": 1, "doc_id": doc_id})
    cid = _stored_answer(chat_service.history, ui_env["user_id"], [citation])
    make_xss_pdf(source)  # same name, other content (the old index stays)
    assert resolve_pdf_path(doc_id, FILE) is None
    assert resolve_pdf_path(None, FILE) == source  # nothing to check against: by name
    at = new_app()
    at.query_params["c"] = cid
    at.run()
    citation_buttons(at)[0].click().run()
    assert not at.exception
    assert any("changed since it was processed" in w.value for w in at.warning)
    assert not at.get("image")


def test_a_question_whose_run_was_aborted_is_answered_without_a_click(chat_service, sample_processed, ui_env):
    """A rerun that is neither Stop nor a new question (the page's websocket reconnecting on a saturated replica,
    a click elsewhere) stops the run answering; the next run asks the question again on its own, so it is
    answered, not left waiting with no answer and no place in line (bench.soak, issue 31)."""
    question = "What was the net debt at year end?"
    at = new_app()
    at.session_state["question_in_flight"] = {"conversation_id": None, "text": question, "partial": "Net"}
    at.run()
    assert not at.exception
    assert not any("interrupted" in w.value for w in at.warning)
    assert "question_in_flight" not in at.session_state
    conversation_id = at.query_params["c"][0] if isinstance(at.query_params["c"], list) else at.query_params["c"]
    messages = chat_service.history.load_messages(ui_env["user_id"], conversation_id)
    assert [m["content"] for m in messages if m["role"] == "user"] == [question]
    assert not any(m.get("interrupted") or m.get("stopped") for m in messages)
    assert citation_buttons(at)


def test_a_question_whose_run_was_aborted_before_it_was_asked_is_answered(chat_service, sample_processed, ui_env):
    """The chat box's on_submit callback keeps the question before the page runs: a rerun that aborts that run
    while it draws the conversation (before the question is asked) no longer loses it unanswered and unstored
    (bench.soak, issue 31: a greeting neither answered nor stored)."""
    at = new_app()
    at.run()
    at.chat_input[0].set_value("hello")
    at.session_state["submitted_question"] = "hello"  # what the callback kept in the run the rerun aborted
    at.chat_input[0].set_value(None)
    at.run()
    assert not at.exception and "submitted_question" not in at.session_state
    conversation_id = at.query_params["c"][0] if isinstance(at.query_params["c"], list) else at.query_params["c"]
    messages = chat_service.history.load_messages(ui_env["user_id"], conversation_id)
    assert [m["content"] for m in messages if m["role"] == "user"] == ["hello"]
    at.chat_input[0].set_value("thanks!").run()  # a question typed is asked once, through the callback
    messages = chat_service.history.load_messages(ui_env["user_id"], conversation_id)
    assert [m["content"] for m in messages if m["role"] == "user"] == ["hello", "thanks!"]


def test_an_interrupted_question_is_offered_again_not_lost(chat_service, sample_processed, ui_env):
    """A question whose run was aborted again after it was asked again on its own is not asked a third time:
    the next run says it was interrupted and can ask it again."""
    question = "What was the net debt at year end?"
    at = new_app()
    at.session_state["question_in_flight"] = {"conversation_id": None, "text": question,
                                              "resumed": True}  # the run that was stopped
    at.run()
    assert not at.exception
    assert any("interrupted before it was answered" in w.value and "net debt" in w.value for w in at.warning)
    at.button(key="retry-question").click().run()
    assert not at.exception
    assert "question_in_flight" not in at.session_state
    assert not any("interrupted" in w.value for w in at.warning)
    conversation_id = at.query_params["c"][0] if isinstance(at.query_params["c"], list) else at.query_params["c"]
    messages = chat_service.history.load_messages(ui_env["user_id"], conversation_id)
    assert [m["content"] for m in messages if m["role"] == "user"] == [question]
    assert citation_buttons(at)


def test_a_failed_rename_says_why_instead_of_crashing(chat_service, ui_env, monkeypatch):
    from storage.history.store import HistoryUnavailableError

    chat_service.history.create_conversation(ui_env["user_id"], "Old question")

    def down(*args, **kwargs):
        raise HistoryUnavailableError("The conversation history database is not reachable.")

    monkeypatch.setattr(chat_service.history, "rename_conversation", down)
    monkeypatch.setattr(chat_service.history, "create_conversation", down)
    at = new_app().run()
    at.text_input[0].set_value("Budget review").run()
    at.button(key="rename-chat").click().run()
    assert not at.exception
    assert any("not reachable" in e.value for e in at.error)
    at.button(key="new-chat").click().run()
    assert not at.exception
    assert any("not reachable" in w.value for w in at.warning)
