"""Page viewer (AppTest): browse pages of a processed PDF; "Ask about this page" makes it the
chat's current page, which reaches ChatService.ask (and the one before as previous page)."""

from __future__ import annotations

import pytest

from tests.fixtures_ui import *  # noqa: F401,F403  (fixtures)
from tests.fixtures_ui import new_app


@pytest.fixture
def ask_calls(chat_service, monkeypatch):
    """Record what the page passes to the real ChatService.ask_stream."""
    calls = []
    real_ask = chat_service.ask_stream

    def spy(*args, **kwargs):
        calls.append((args, kwargs))
        return real_ask(*args, **kwargs)

    monkeypatch.setattr(chat_service, "ask_stream", spy)
    return calls


def test_viewer_pages_through_and_asks_about_this_page(ask_calls, sample_processed):
    at = new_app().run()
    at.switch_page("app_pages/viewer.py").run()
    assert not at.exception
    assert any("page 1 of 4" in c.value for c in at.caption)
    assert at.get("image")  # the rendered page
    next(b for b in at.button if b.label == "Next").click().run()
    next(b for b in at.button if b.label == "Next").click().run()
    assert any("page 3 of 4" in c.value for c in at.caption)
    assert "People and Safety" in at.text[0].value  # the page's extracted text

    next(b for b in at.button if b.label == "Ask about this page").click().run()
    assert not at.exception
    assert any("page 3: ask about" in c.value for c in at.caption)  # the chat shows the page in use
    assert [t.value for t in at.title] == ["Chat"]  # st.switch_page took us to the chat
    # AppTest re-runs the page it was last told about; a browser stays on the chat page.
    at.switch_page("app_pages/chat.py")
    at.chat_input[0].set_value("How many people does this page say were employed?").run()
    assert not at.exception
    (args, kwargs), = ask_calls
    assert kwargs["current_page"] == {"doc_id": sample_processed.doc_id, "source_file": sample_processed.source_file, "page_number": 2}
    assert kwargs["previous_page"]["page_number"] == 1
    assert args[3] == [sample_processed.doc_id]


def test_viewer_without_processed_pdfs_points_to_documents(ui_env):
    at = new_app().run()
    at.switch_page("app_pages/viewer.py").run()
    assert not at.exception
    assert any("No processed PDF yet" in i.value for i in at.info)
