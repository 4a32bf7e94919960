"""Issue 29.1 and 29.6 in a real browser: a question asked the moment a PDF is ready is asked with the
selection the picker shows (never "Select a PDF"), the chat follows the newest turn after a citation
dialog is closed, and Back from the page viewer returns to the chat. No keys: no-model mode."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.app_server import run_app
from tests.e2e.steps import back_from_viewer, processing_box, reopen_older, shot, upload
from tests.fixtures_ui import SAMPLE_PDF

FILE = SAMPLE_PDF.name


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    with run_app(tmp_path_factory.mktemp("e2e-selection")) as app:
        yield app


def _ask_at_once(page, question: str) -> None:
    """Type as soon as the chat box takes input (no waiting for the rest of the page)."""
    box = page.get_by_test_id("stChatInputTextArea")
    expect(box).to_be_enabled()
    box.fill(question)
    box.press("Enter")


def _start_upload(page, url: str, path) -> None:
    page.goto(f"{url}/documents")
    expect(page.get_by_role("heading", name="Documents")).to_be_visible()
    page.locator('input[type="file"]').set_input_files(str(path))
    page.get_by_role("button", name=re.compile(r"Upload and process 1 file")).click()
    expect(processing_box(page, path.name)).to_be_visible()


def test_question_asked_the_moment_the_pdf_is_ready_uses_the_selection_shown(app_url, page, tmp_path):
    """Upload, go to the chat while it is processed, ask the moment the box takes input."""
    url = app_url["url"]
    pdf = tmp_path / FILE
    pdf.write_bytes(SAMPLE_PDF.read_bytes())
    _start_upload(page, url, pdf)
    page.get_by_role("link", name="Chat").click()
    expect(page.get_by_role("heading", name="Chat")).to_be_visible()
    _ask_at_once(page, "What was the net debt at year end?")
    expect(page.get_by_test_id("stChatMessage").filter(has_text="What was the net debt")).to_be_visible()
    cite = page.get_by_role("button", name=re.compile(rf"^\d+ · {re.escape(FILE)}, page 2$")).first
    expect(cite.or_(page.get_by_text("Select a PDF and ask about it"))).to_be_visible()
    shot(page, "asked_the_moment_the_pdf_is_ready")
    expect(page.get_by_text("Select a PDF and ask about it")).to_have_count(0)
    expect(cite).to_be_visible()


def _answered(page, question: str, turns_before: int) -> None:
    """Ask and wait until the answer is finished and drawn from the store: its Copy button is there and
    Stop is gone (typing earlier would stop it)."""
    _ask_at_once(page, question)
    expect(page.get_by_test_id("stChatMessage").filter(has_text=question)).to_be_visible()
    expect(page.get_by_test_id("stChatMessage")).to_have_count(turns_before + 2)
    expect(page.get_by_test_id("stChatMessage").nth(turns_before + 1).get_by_role("button", name="Copy")).to_be_visible()
    expect(page.get_by_role("button", name="Stop")).to_have_count(0)


def test_the_chat_follows_the_newest_turn_after_a_citation_dialog(app_url, page):
    """Runs after the upload test (the sample PDF is processed and selected)."""
    page.goto(app_url["url"])
    page.get_by_role("button", name="New", exact=True).click()
    expect(page.get_by_test_id("stChatMessage")).to_have_count(0)
    for i, q in enumerate(("What was the net debt at year end?", "What were total assets?",
                           "How many people did Northwind employ?")):
        _answered(page, q, 2 * i)
    # A citation of the first answer, far above: its dialog opened and closed.
    chip = page.get_by_test_id("stChatMessage").nth(1).get_by_role("button", name=re.compile(rf"· {re.escape(FILE)}")).first
    chip.scroll_into_view_if_needed()
    chip.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
    _answered(page, "What was the net profit?", 6)
    newest = page.get_by_test_id("stChatMessage").last
    expect(newest).to_be_in_viewport()  # the chat follows the newest turn
    shot(page, "newest_turn_after_dialog")


def test_back_from_the_page_viewer_returns_to_the_chat(app_url, page):
    """From a citation to the page viewer, and Back to the chat (runs after the upload test)."""
    page.goto(app_url["url"])
    page.get_by_role("button", name="New", exact=True).click()
    expect(page.get_by_test_id("stChatMessage")).to_have_count(0)
    _answered(page, "What was the net profit?", 0)
    reopen_older(page)  # a newer conversation exists: Back must return to this one, not the newest
    newest = page.get_by_test_id("stChatMessage").last
    back_from_viewer(page, newest.get_by_role("button", name=re.compile(rf"· {re.escape(FILE)}")).first,
                     "What was the net profit?")
    shot(page, "back_from_viewer")
