"""Issue 29.4 and 29.6 in a real browser at 1360 px and at a 390 px phone width: a figure is said once on
its line, an answer lists its sources once (chips, no second "Sources (n)" list), the conversation's
title is cut at a word with an ellipsis, "what can you do?" suggests a year the selected filings cover,
and after a citation dialog is closed the chat follows the newest turn; browser Back from the page
viewer returns to the chat. No keys: no-model mode.
Screenshots: tests/e2e/screenshots/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from agent.citations.previews import clip
from tests.e2e.app_server import run_app
from tests.e2e.steps import ask, back_from_viewer, close_sidebar, open_sidebar, reopen_older, shot
from tests.fixtures_filings import acme_10k_pages, write_pages

LONG = "What were the purchases of property, plant and equipment of Acme Rockets in fiscal 2019?"
CHIP = re.compile(r"^\d+ · acme_20\d\d\.pdf, page \d+$")
FIGURE_LINE = re.compile(r"^Purchases of property, plant and equipment \([^)]*2019\): \(1,208\)")
OVERVIEW = "The 2 selected PDFs"


@pytest.fixture(scope="module")
def app_url(tmp_path_factory, browser):
    with run_app(tmp_path_factory.mktemp("e2e-presentation")) as app:
        for year in (2018, 2019):
            write_pages(app["home"] / "source" / f"acme_{year}.pdf", acme_10k_pages(year, (1_208, 1_100, 1_000), prose=False))
        # Processed once here, so each width's test starts from the same state whatever the other's outcome.
        context = browser.new_context()
        page = context.new_page()
        page.goto(app["url"])
        start = page.get_by_role("button", name="Process and chat")
        expect(start).to_be_visible(timeout=180_000)
        start.click()
        expect(page.get_by_text(OVERVIEW)).to_be_visible(timeout=240_000)
        context.close()
        yield app


def _empty_chat(page, width: str) -> None:
    """The chat with no turn, both PDFs selected: the app opens on the latest conversation (another
    width's), so "New" is clicked only then, and the test waits for the empty chat it draws."""
    message, overview = page.get_by_test_id("stChatMessage").first, page.get_by_text(OVERVIEW)
    expect(message.or_(overview).first).to_be_visible(timeout=180_000)
    if message.is_visible():
        open_sidebar(page)
        page.get_by_test_id("stSidebar").get_by_role("button", name="New", exact=True).click()
        if width == "phone":
            close_sidebar(page)
    expect(page.get_by_test_id("stChatMessage")).to_have_count(0)
    expect(overview).to_be_visible()
    expect(page.get_by_test_id("stChatInputTextArea")).to_be_enabled()


def _finished(page, turns: int):
    """The newest answer once it is finished and drawn from the store (its Copy button, no Stop)."""
    expect(page.get_by_test_id("stChatMessage")).to_have_count(turns)
    answer = page.get_by_test_id("stChatMessage").last
    expect(answer.get_by_role("button", name="Copy")).to_be_visible()
    expect(page.get_by_role("button", name="Stop")).to_have_count(0)
    return answer


def test_figure_said_once_sources_once_titles_years_and_the_newest_turn_followed(app_url, view):
    width, page = view
    page.goto(app_url["url"])
    _empty_chat(page, width)

    ask(page, LONG)
    answer = _finished(page, 2)
    expect(answer.get_by_text(FIGURE_LINE).first).to_be_visible()  # the row's figure, on its line
    lines = [ln for ln in answer.get_by_test_id("stMarkdownContainer").first.inner_text().splitlines() if FIGURE_LINE.match(ln)]
    assert len(lines) == 1 and lines[0].count("1,208") == 1, lines  # the figure line says its figure once
    expect(answer.get_by_role("button", name=CHIP).first).to_be_visible()  # the sources, as chips ...
    expect(answer.get_by_text(re.compile(r"^Sources \(\d+\)$"))).to_have_count(0)  # ... and no second list
    shot(page, f"presentation_answer_{width}")

    open_sidebar(page)
    title = clip(LONG, 60)
    assert title.endswith("…") and LONG[len(title[:-1].rstrip())] == " "  # whole words, then an ellipsis
    title_button = page.get_by_test_id("stSidebar").get_by_role("button", name=title).first  # two runs, two such titles
    expect(title_button).to_be_visible()
    title_button.scroll_into_view_if_needed()
    shot(page, f"presentation_sidebar_title_{width}")
    if width == "phone":
        close_sidebar(page)

    chip = page.get_by_test_id("stChatMessage").nth(1).get_by_role("button", name=CHIP).first
    chip.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()

    ask(page, "what can you do?")
    reply = _finished(page, 4)
    expect(reply).to_be_in_viewport()  # the chat follows the newest turn after the dialog
    expect(reply.get_by_text("No language model is configured", exact=False).first).to_be_visible()
    text = reply.inner_text()
    assert re.search(r"fiscal 201[89]", text) and not re.search(r"\b20(?:2\d|1[0-7])\b", text), text
    shot(page, f"presentation_what_can_you_do_{width}")

    # Browser Back from the page viewer returns to the chat, this conversation open, though it is not the newest.
    reopen_older(page)
    back_from_viewer(page, page.get_by_test_id("stChatMessage").nth(1).get_by_role("button", name=CHIP).first,
                     "what can you do?")
    shot(page, f"presentation_back_from_viewer_{width}")
