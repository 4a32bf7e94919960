"""The chat's PDF selection survives a new session (a reload, or another replica after a failover):
it is kept in the URL beside the open conversation."""

from __future__ import annotations

from tests.fixtures_pdfs import make_text_pdf
from tests.fixtures_ui import doc_picker, new_app
from storage.documents.ingest import process_and_index_pdf


def _two_pdfs(home):
    a = process_and_index_pdf(make_text_pdf(home / "source" / "alpha.pdf", ["Alpha revenue was 5 million."]))
    b = process_and_index_pdf(make_text_pdf(home / "source" / "beta.pdf", ["Beta revenue was 7 million."]))
    return a.doc_id, b.doc_id


def test_the_selection_is_written_to_the_url_and_a_new_session_starts_with_it(chat_service, ui_env):
    a, b = _two_pdfs(ui_env["home"])
    at = new_app().run()
    assert sorted(doc_picker(at).value) == sorted([a, b])  # a first session selects every PDF
    doc_picker(at).set_value([b]).run()
    assert not at.exception
    assert at.query_params["docs"] in (b, [b])
    conversation = at.query_params.get("c")

    after_failover = new_app()  # what the browser reconnects with: the same URL, a fresh session
    after_failover.query_params["docs"] = b
    if conversation:
        after_failover.query_params["c"] = conversation
    after_failover.run()
    assert not after_failover.exception
    assert doc_picker(after_failover).value == [b]


def test_ids_in_the_url_that_are_not_processed_pdfs_are_dropped(chat_service, ui_env):
    a, _ = _two_pdfs(ui_env["home"])
    at = new_app()
    at.query_params["docs"] = f"{a},deleted-0123456789ab,<script>"
    at.run()
    assert not at.exception
    assert doc_picker(at).value == [a]
    assert at.query_params["docs"] in (a, [a])


def test_switching_pages_keeps_the_selection_and_the_open_conversation_in_the_address(monkeypatch):
    """st.switch_page resets the address on the page it leaves, a browser history entry of its own, the
    one Back from the page viewer returns to: it must still say which conversation was open."""
    import streamlit

    from ui import url_state

    switched = []
    monkeypatch.setattr(streamlit, "switch_page", lambda page, query_params=None: switched.append((page, query_params)))
    monkeypatch.setattr(streamlit, "query_params", {"docs": "a-0123456789ab", "c": "42dbd0dd3e69", "other": "x"})
    url_state.switch_page("app_pages/viewer.py")
    monkeypatch.setattr(streamlit, "query_params", {})
    url_state.switch_page("app_pages/chat.py")
    assert switched == [("app_pages/viewer.py", {"docs": "a-0123456789ab", "c": "42dbd0dd3e69"}),
                        ("app_pages/chat.py", None)]
