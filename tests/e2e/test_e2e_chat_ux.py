"""The chat as people expect it, in a real browser at desktop width and at a 390 px phone width
(issue 23): two filings of one issuer told apart in the picker, an empty chat that says what the
PDFs are and suggests questions they answer, one-click Copy, the cited passage as text first
with the page image on demand (on a phone, the cited lines' columns at its width), a delete dialog that closes and updates the
list, and the export's header. No keys: no-model mode. Screenshots: tests/e2e/screenshots/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from agent.citations.previews import clip
from tests.e2e.app_server import run_app
from tests.e2e.steps import blank_rows_above, fits_the_screen, page_image, shot
from tests.fixtures_filings import acme_10k_pages, write_pages

TITLES = ("Acme Rockets · 10-K · FY2018", "Acme Rockets · 10-K · FY2019")
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    with run_app(tmp_path_factory.mktemp("e2e-ux")) as app:
        for year in (2018, 2019):  # two years of one issuer, waiting in the source folder
            write_pages(app["home"] / "source" / f"acme_{year}.pdf", acme_10k_pages(year, (1_208, 1_100, 1_000), prose=False))
        yield app


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, accept_downloads=True, is_mobile=True, has_touch=True)
    pg = context.new_page()
    pg.set_default_timeout(90_000)
    yield pg
    context.close()


def _clipped(locator) -> bool:
    """Whether the text of `locator` is cut (an ellipsis) by it or an ancestor up to its button."""
    return locator.evaluate("""e => { for (let n = e; n; n = n.parentElement) {
        if (n.scrollWidth > n.clientWidth + 1) return true;
        if (n.tagName === 'BUTTON') return false; } return false; }""")


def _open_sidebar(page) -> None:
    sidebar = page.get_by_test_id("stSidebar")
    if not sidebar.is_visible() or sidebar.bounding_box()["x"] < 0:
        page.get_by_test_id("stExpandSidebarButton").click()
    expect(sidebar).to_be_in_viewport()


def _ask_first_suggestion(page) -> str:
    suggestion = page.locator('[class*="st-key-suggest-0"] button')
    expect(suggestion).to_be_visible()
    question = suggestion.get_by_test_id("stMarkdownContainer").inner_text().strip()  # without the icon
    suggestion.click()
    expect(page.get_by_test_id("stChatMessage").filter(has_text=question)).to_be_visible()
    expect(page.locator('[class*="st-key-suggest-"]')).to_have_count(0)  # the overview gives way to the answer
    expect(page.get_by_test_id("stChatMessage").last.get_by_text("9,100", exact=False).first).to_be_visible()
    # the answer is finished and drawn from the store (its Copy button, no Stop): not the streamed draft
    expect(page.get_by_role("button", name="Stop")).to_have_count(0)
    expect(page.get_by_test_id("stChatMessage").last.get_by_role("button", name="Copy")).to_be_visible()
    return question


def _delete_open_conversation(page, title: str) -> None:
    sidebar = page.get_by_test_id("stSidebar")
    page.get_by_role("button", name="Rename or delete").click()
    page.get_by_role("button", name="Delete this conversation").click()
    dialog = page.get_by_role("dialog", name="Delete this conversation?")
    expect(dialog.get_by_text("and all its answers will be deleted")).to_be_visible()
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden(timeout=10_000)  # it used to stay open
    expect(sidebar.get_by_role("button", name=title)).to_be_visible()  # nothing deleted
    page.get_by_role("button", name="Rename or delete").click()
    page.get_by_role("button", name="Delete this conversation").click()
    dialog = page.get_by_role("dialog", name="Delete this conversation?")
    dialog.get_by_role("button", name="Delete").click()
    expect(dialog).to_be_hidden(timeout=10_000)
    expect(sidebar.get_by_role("button", name=title)).to_have_count(0)  # gone from the list without a reload


def test_desktop_first_run_picker_overview_copy_citation_export_and_delete(app_url, page):
    url = app_url["url"]
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
    page.goto(url)
    page.get_by_role("button", name="Process and chat").click()
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar.get_by_text("Your first PDF is being processed")).to_be_visible()  # not "No processed PDFs yet"
    expect(page.get_by_role("button", name="Process and chat")).to_be_hidden()
    shot(page, "ux_first_ingest_sidebar")

    for title in TITLES:  # both years, each title in full
        pill = sidebar.get_by_text(title, exact=True)
        expect(pill).to_be_visible(timeout=180_000)
        assert not _clipped(pill), f"{title} is cut in the picker"
    expect(page.get_by_text("The 2 selected PDFs")).to_be_visible()
    expect(page.get_by_text("Acme Rockets, Inc. designs launch vehicles.").first).to_be_visible()  # what it does
    expect(page.get_by_text("Net earnings: 9,100", exact=False).first).to_be_visible()  # a headline figure
    shot(page, "ux_empty_chat_overview_desktop")

    question = _ask_first_suggestion(page)
    answer = page.get_by_test_id("stChatMessage").last
    answer.get_by_role("button", name="Copy").click()  # one click, nothing covers the chat input
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert "9,100" in copied and re.search(r"^\[\d+\] acme_2018\.pdf, page 3", copied, flags=re.M), copied
    expect(page.get_by_text("Copied: the answer")).to_be_visible()
    expect(page.get_by_test_id("stChatInputTextArea")).to_be_in_viewport()
    shot(page, "ux_answer_copied_desktop")

    page.get_by_role("button", name=re.compile(r"^\d+ · acme_2018\.pdf, page 3$")).first.click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_text("Net earnings 9,100", exact=False).first).to_be_visible()  # the passage, as text
    quote = dialog.get_by_test_id("stMarkdownContainer").filter(has_text="“").first.inner_text()
    assert quote.count("Net earnings") == 1, quote  # the quoted row once (not its cell, then the row)
    expect(page_image(dialog)).to_have_count(0)  # the image on demand
    dialog.get_by_text("Page 3 image").click()
    expect(page_image(dialog)).to_be_visible()
    assert page_image(dialog).get_attribute("class") == "page-wide"  # the page's whole width, as before
    page.wait_for_function("() => [...document.querySelectorAll('[role=dialog] img')].every(i => i.complete && i.naturalWidth > 0)")
    shot(page, "ux_citation_dialog_desktop")
    dialog.get_by_role("button", name="Close").click()

    with page.expect_download() as download:
        page.get_by_role("button", name="Export as Markdown").click()
    exported = open(download.value.path(), encoding="utf-8").read()
    assert re.search(r"^Exported: \d{4}-\d\d-\d\d \d\d:\d\d UTC", exported, flags=re.M), exported[:400]
    assert f"Documents: {TITLES[0]}; {TITLES[1]}" in exported or f"Documents: {TITLES[1]}; {TITLES[0]}" in exported
    assert "Mode: no-model (answers are passages quoted from the documents)" in exported

    _delete_open_conversation(page, clip(question, 60))  # titled by the question, cut at a word
    shot(page, "ux_after_delete_desktop")


def test_phone_overview_citation_text_first_readable_page_viewer_and_delete(app_url, phone):
    page = phone
    page.goto(app_url["url"])
    # Processed by the first test, which deletes its conversation at its end: whatever it reached, start
    # from the empty chat (process the PDFs, or leave a conversation it left open, when it failed early).
    start, message, overview = (page.get_by_role("button", name="Process and chat"),
                                page.get_by_test_id("stChatMessage").first, page.get_by_text("The 2 selected PDFs"))
    expect(start.or_(message).or_(overview).first).to_be_visible(timeout=180_000)
    if start.is_visible():
        start.click()
    elif message.is_visible():
        _open_sidebar(page)
        page.get_by_test_id("stSidebar").get_by_role("button", name="New", exact=True).click()
        page.get_by_test_id("stSidebarCollapseButton").click()
    expect(overview).to_be_visible(timeout=180_000)
    expect(page.get_by_test_id("stChatMessage")).to_have_count(0)
    suggestion = page.locator('[class*="st-key-suggest-"] [data-testid="stMarkdownContainer"]')
    expect(suggestion.first).to_be_visible()
    for i in range(suggestion.count()):  # each suggested question readable in full, wrapped
        assert not _clipped(suggestion.nth(i)), suggestion.nth(i).inner_text()
    shot(page, "ux_empty_chat_overview_phone")
    question = _ask_first_suggestion(page)
    shot(page, "ux_answer_phone")

    page.get_by_role("button", name=re.compile(r"^\d+ · acme_2018\.pdf, page 3$")).first.click()
    dialog = page.get_by_role("dialog")
    quote = dialog.get_by_text("Net earnings 9,100", exact=False).first
    expect(quote).to_be_in_viewport()  # the cited passage is readable text on the first screen
    shot(page, "ux_citation_dialog_phone")
    dialog.get_by_text("Page 3 image").click()
    image = page_image(dialog)
    expect(image).to_be_visible()
    page.wait_for_function("() => [...document.querySelectorAll('[role=dialog] [data-testid=pageImage]')]"
                           ".every(i => i.complete && i.naturalWidth > 0)")
    # The cited lines' own columns at the phone's width: the highlight whole in view, no sideways scrolling.
    fits_the_screen(page, image)
    scroller = dialog.get_by_test_id("pageScroller")
    above = blank_rows_above(scroller.screenshot())
    assert above <= 30, above  # the frame begins at the page's first printed line, not in its blank top margin
    shot(page, "ux_citation_page_image_phone")

    dialog.get_by_role("button", name="Open in page viewer").click()
    expect(page.get_by_role("heading", name="Page viewer")).to_be_visible()
    viewer_image = page_image(page)
    expect(viewer_image).to_be_visible()
    top = viewer_image.evaluate("i => i.getBoundingClientRect().top")
    assert top < PHONE["height"] * 0.75, top  # the controls no longer fill the first screen
    fits_the_screen(page, viewer_image)  # at Fit, the cited lines' columns at the phone's width, not a thumbnail
    shot(page, "ux_page_viewer_phone")

    page.goto(app_url["url"])  # back to the chat: the latest conversation opens
    expect(page.get_by_test_id("stChatMessage").filter(has_text=question)).to_be_visible()
    _open_sidebar(page)
    for title in TITLES:
        pill = page.get_by_test_id("stSidebar").get_by_text(title, exact=True)
        expect(pill).to_be_visible()
        assert not _clipped(pill), f"{title} is cut in the picker at phone width"
    shot(page, "ux_picker_phone")
    _delete_open_conversation(page, clip(question, 60))
    shot(page, "ux_after_delete_phone")
