"""Issue 29.1 as the README's test met it on a busy machine: upload the first PDF into an empty library and,
the moment the Documents page says it is ready, go to the chat and ask. The question is asked with the
selection the picker shows (the new PDF), never answered "Select a PDF and ask about it". At 1360 px and
at a 390 px phone width, each with a fresh app (an empty library is the case that failed)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.app_server import run_app
from tests.e2e.steps import WIDTHS, context_at, close_sidebar, open_sidebar, shot, upload
from tests.fixtures_ui import SAMPLE_PDF

FILE = SAMPLE_PDF.name
NO_SELECTION = "Select a PDF and ask about it"


@pytest.fixture(params=list(WIDTHS))
def fresh(request, browser, tmp_path):
    """(app, page, width name): an app with an empty library, and a browser at that width."""
    with run_app(tmp_path / "app") as app:
        context = context_at(browser, request.param)
        page = context.new_page()
        page.set_default_timeout(90_000)
        yield app, page, request.param
        context.close()


def test_a_question_asked_the_moment_the_first_upload_is_ready_is_asked_with_it(fresh, tmp_path):
    app, page, width = fresh
    pdf = tmp_path / FILE
    pdf.write_bytes(SAMPLE_PDF.read_bytes())
    upload(page, app["url"], pdf)  # returns on the upload's completion signal: "<file> is ready: n pages"
    open_sidebar(page)
    page.get_by_test_id("stSidebar").get_by_role("link", name="Chat").click()
    if width == "phone":  # the open sidebar covers the chat at a phone width
        close_sidebar(page)
    box = page.get_by_test_id("stChatInputTextArea")
    expect(box).to_be_enabled()  # nothing else awaited: type the moment the box takes input
    box.fill("What was the net debt at year end?")
    box.press("Enter")

    answer = page.get_by_test_id("stChatMessage").nth(1)
    cite = answer.get_by_role("button", name=re.compile(rf"^\d+ · {re.escape(FILE)}, page 2$")).first
    expect(cite.or_(answer.get_by_text(NO_SELECTION))).to_be_visible()  # whichever comes: then say which
    shot(page, f"asked_at_once_after_upload_{width}")
    expect(answer.get_by_text(NO_SELECTION)).to_have_count(0)
    expect(cite).to_be_visible()
    # The picker shows the PDF the answer was asked with, selected.
    open_sidebar(page)
    expect(page.get_by_test_id("stSidebar").get_by_role("button", pressed=True)).to_have_count(1)  # the one PDF
    shot(page, f"asked_at_once_after_upload_picker_{width}")
