"""Streaming and Stop in a real browser, with a model reached the way a user's is: the app's
OPENAI_BASE_URL points at a local OpenAI-compatible server (tests/stubs/openai_compat.py) that
streams its scripted replies a few characters at a time.

The answer's text grows on screen before the final answer (with its citation buttons) replaces it;
Stop ends a long answer and keeps what was written, marked as stopped, also after a reload.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.app_server import run_app
from tests.e2e.steps import ask, shot, upload
from tests.fixtures_ui import SAMPLE_PDF
from tests.stubs import openai_compat as oa
from tests.stubs.openai_compat import OpenAIStub

FILE = SAMPLE_PDF.name
ANSWER = "Net debt fell to 62.5 million euros at the end of 2023, helped by the strong operating cash flow"
AGAIN = "The report gives an overview of revenue, margins and cash flow for 2023"
LONG = " ".join(["The report covers revenue, margins, cash flow, debt, people and emissions in detail."] * 12)


@pytest.fixture(scope="module")
def model():
    replies = [
        # 1st question: routing judgement, a document search, then the answer citing the passage.
        oa.structured(relevant="yes", reason="about the report"),
        oa.tool_call("rag_search_tool", {"query": "net debt year end"}),
        lambda body: oa.text(f"{ANSWER} {oa.source_id_for(body, '62.5')}."),
        # 2nd question: a long answer the user stops.
        oa.structured(relevant="yes", reason="about the report"),
        oa.tool_call("rag_search_tool", {"query": "report overview"}, call_id="call_2"),
        oa.text(LONG),
        # 3rd: the stopped question asked again, answered in full this time.
        oa.structured(relevant="yes", reason="about the report"),
        oa.tool_call("rag_search_tool", {"query": "report overview"}, call_id="call_3"),
        oa.text(AGAIN),
    ]
    with OpenAIStub(replies, token_delay=0.12) as stub:
        yield stub


@pytest.fixture(scope="module")
def app_url(tmp_path_factory, model):
    with run_app(tmp_path_factory.mktemp("e2e-stream"), OPENAI_BASE_URL=model.url + "/v1", OPENAI_MODEL="stub-model") as app:
        yield app


def _answer(page):
    return page.get_by_test_id("stChatMessage").last


def test_answer_streams_then_is_replaced_by_the_cited_answer_and_stop_keeps_the_partial(app_url, page, tmp_path):
    url = app_url["url"]
    page.goto(url)  # first run, empty library: adding a PDF is the obvious primary action
    expect(page.get_by_role("heading", name="Chat")).to_be_visible()
    expect(page.get_by_role("button", name="Add a PDF")).to_be_visible()
    shot(page, "first_run")
    pdf = tmp_path / FILE
    pdf.write_bytes(SAMPLE_PDF.read_bytes())
    upload(page, url, pdf)
    page.get_by_role("link", name="Chat").click()
    expect(page.get_by_role("heading", name="Chat")).to_be_visible()

    ask(page, "What was the net debt at year end?")
    # .first: the rendered paragraph; a finished answer also holds its words in a hidden copy source
    expect(_answer(page).get_by_text("Net debt fell", exact=False).first).to_be_visible()
    first = len(_answer(page).inner_text())
    page.wait_for_timeout(1200)
    second = len(_answer(page).inner_text())
    cite = page.get_by_role("button", name=re.compile(rf"^\d+ · {re.escape(FILE)}, page 2$"))
    assert second > first and cite.count() == 0  # the text grew while no final answer was there
    shot(page, "streaming_answer")
    expect(cite.first).to_be_visible()  # the final answer with its citation replaced the stream
    # .first: the rendered paragraph (the answer's hidden copy source holds the same words)
    expect(_answer(page).get_by_text("strong operating cash flow", exact=False).first).to_be_visible()
    expect(page.get_by_text("Answered from your documents")).to_be_visible()
    shot(page, "streamed_final_answer")

    ask(page, "Give me an overview of the report")
    expect(_answer(page).get_by_text("The report covers revenue", exact=False).first).to_be_visible()
    page.get_by_role("button", name="Stop").click()
    expect(page.get_by_text("Stopped: this answer is incomplete.")).to_be_visible()
    expect(_answer(page).get_by_role("button", name="Ask again")).to_be_visible()  # the rerun is drawn
    kept = _answer(page).inner_text()
    assert "The report covers revenue" in kept and len(kept) < len(LONG)
    page.wait_for_timeout(2000)  # the model is still talking to the aborted run: nothing changes
    assert _answer(page).inner_text() == kept
    shot(page, "stopped_answer")

    page.reload()
    expect(page.get_by_text("Stopped: this answer is incomplete.")).to_be_visible()
    expect(page.get_by_text("The report covers revenue", exact=False).first).to_be_visible()
    expect(page.get_by_role("button", name=re.compile(rf"^\d+ · {re.escape(FILE)}, page 2$")).first).to_be_visible()

    # After Stop the question can be asked again in one click (at phone width too); the stopped
    # answer stays above the new one.
    page.set_viewport_size({"width": 390, "height": 844})
    again = page.get_by_role("button", name="Ask again")
    expect(again).to_be_visible()
    shot(page, "stopped_answer_ask_again_phone")
    again.click()
    expect(_answer(page).get_by_text(AGAIN, exact=False).first).to_be_visible()
    expect(page.get_by_test_id("stChatMessage").filter(has_text="Give me an overview of the report")).to_have_count(2)
    expect(page.get_by_text("Stopped: this answer is incomplete.")).to_be_visible()
    shot(page, "stopped_answer_asked_again_phone")
