"""Page viewer (AppTest): browse pages of a processed PDF; "Ask about this page" makes it the
chat's current page, which reaches ChatService.ask (and the one before as previous page)."""

from __future__ import annotations

import pytest

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
    [page_html] = [h.proto.body for h in at.get("html") if "pageImage" in h.proto.body]  # the rendered page
    assert "data:image/png;base64," in page_html and "width:100%" in page_html
    at.segmented_control(key="viewer-zoom").set_value("200%").run()  # zoom: twice the column, scrollable
    assert any("width:200%" in h.proto.body and "overflow:auto" in h.proto.body for h in at.get("html"))
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


def test_viewer_opens_on_the_cited_passage_with_the_whole_page_a_toggle_away(chat_service, sample_processed):
    import base64
    import re

    import pymupdf

    def image_height(at) -> int:
        body = next(h.proto.body for h in at.get("html") if "pageImage" in h.proto.body)
        png = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)", body).group(1))
        return pymupdf.Pixmap(png).height

    at = new_app()
    at.session_state["viewer"] = {"doc_id": sample_processed.doc_id, "file": sample_processed.source_file, "page": 1,
                                  "passage": "Net debt fell to 62.5 million euros"}
    at.run()
    at.switch_page("app_pages/viewer.py").run()
    assert not at.exception
    band = image_height(at)
    assert at.toggle(key="viewer-whole").value is False
    # At Fit a phone is shown the passage's own columns at its width; zoomed, the page's width as asked.
    page_html = lambda: next(h.proto.body for h in at.get("html") if "pageImage" in h.proto.body)  # noqa: E731
    assert 'class="page-narrow"' in page_html()
    at.segmented_control(key="viewer-zoom").set_value("200%").run()
    assert 'class="page-narrow"' not in page_html()
    at.segmented_control(key="viewer-zoom").set_value("Fit").run()
    at.toggle(key="viewer-whole").set_value(True).run()
    assert image_height(at) > 2 * band  # the band around the highlight is a part of the page
