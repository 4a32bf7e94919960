"""Steps the browser tests share: screenshots, uploading a PDF, asking a question."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

SHOTS = Path(__file__).resolve().parent / "screenshots"  # git-ignored; look at them after a run


# the two widths the layout is checked at: a desktop window and a phone (touch, 390 px)
WIDTHS = {"desktop": {"width": 1360, "height": 900}, "phone": {"width": 390, "height": 844}}


def context_at(browser, width: str):
    """A fresh browser context at one of `WIDTHS` ("phone": a touch device)."""
    phone = width == "phone"
    return browser.new_context(viewport=WIDTHS[width], is_mobile=phone, has_touch=phone)


def shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.wait_for_timeout(300)  # let the last delta paint
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def blank_rows_above(png: bytes) -> int:
    """Rows of a screenshot above its first printed (dark) pixel: white, or a light frame's border."""
    import pymupdf

    pix = pymupdf.Pixmap(png)
    for y in range(pix.height):
        if any(min(pix.pixel(x, y)[:3]) < 160 for x in range(0, pix.width, 2)):
            return y
    return pix.height


def long_pdf(path: Path, pages: int = 240) -> Path:
    """A text PDF long enough that processing it takes a while (to see its processing box, reload, cancel)."""
    import pymupdf

    doc = pymupdf.open()
    for n in range(pages):
        page = doc.new_page()
        text = " ".join(f"Section {n}.{i}: revenue of segment {i} grew by {n % 17 + i} percent in year {2000 + i}."
                        for i in range(30))
        page.insert_textbox(pymupdf.Rect(50, 50, 550, 800), text, fontsize=9)
    doc.save(path)
    return path


def processing_box(page, name: str, verb: str = "Processing"):
    """The status box of a file being processed (its title wraps the name after each "_")."""
    return page.get_by_test_id("stExpander").filter(has_text=re.compile(f"{verb} " + re.escape(name).replace("_", "_\u200b?")))


def upload(page, url: str, path: Path) -> None:
    page.goto(f"{url}/documents")
    expect(page.get_by_role("heading", name="Documents")).to_be_visible()
    page.locator('input[type="file"]').set_input_files(str(path))
    page.get_by_role("button", name=re.compile(r"Upload and process 1 file")).click()
    expect(page.get_by_text(re.compile(rf"{re.escape(path.name)} is ready: \d+ pages?"))).to_be_visible()


def ask(page, question: str) -> None:
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")
    expect(page.get_by_test_id("stChatMessage").filter(has_text=question)).to_be_visible()


def conversation_id(page) -> str:
    """The open conversation's id, from the chat's address (`?c=`)."""
    found = re.search(r"[?&]c=([0-9a-f]+)", page.url)
    assert found, page.url
    return found.group(1)


def reopen_older(page) -> str:
    """Make the open conversation an older one: "New" opens a newer (empty) conversation, then the sidebar
    opens this one again. Returns its id. (Back used to land on the chat's address without `?c=`, which
    shows the newest conversation: with the open one the newest, a test could not tell.)"""
    cid = conversation_id(page)
    turns = page.get_by_test_id("stChatMessage").count()
    phone = page.viewport_size["width"] < 640
    open_sidebar(page)
    page.get_by_test_id("stSidebar").get_by_role("button", name="New", exact=True).click()
    expect(page.get_by_test_id("stChatMessage")).to_have_count(0)
    expect(page).not_to_have_url(re.compile(rf"[?&]c={cid}\b"))
    open_sidebar(page)
    page.locator(f".st-key-conv-{cid} button").click()
    expect(page).to_have_url(re.compile(rf"[?&]c={cid}\b"))
    expect(page.get_by_test_id("stChatMessage")).to_have_count(turns)
    if phone:
        close_sidebar(page)
    return cid


def back_from_viewer(page, chip, question: str) -> None:
    """Open a citation `chip`'s page in the page viewer, press the browser's Back, and check the chat is
    shown again with the conversation that asked `question`, the one open before (its id in the address)."""
    cid = conversation_id(page)
    chip.click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_text(re.compile(r"^Page \d+ image")).click()
    dialog.get_by_role("button", name="Open in page viewer").click()
    expect(page.get_by_role("heading", name="Page viewer")).to_be_visible()
    page.go_back()
    expect(page.get_by_role("heading", name="Chat")).to_be_visible()
    expect(page.get_by_test_id("stChatMessage").filter(has_text=question)).to_be_visible()
    expect(page).to_have_url(re.compile(rf"[?&]c={cid}\b"))
    page.wait_for_timeout(1500)  # the chat's own address writes, if any, are done: it stays on that conversation
    expect(page).to_have_url(re.compile(rf"[?&]c={cid}\b"))
    expect(page.get_by_test_id("stChatMessage").filter(has_text=question)).to_be_visible()


def open_sidebar(page) -> None:
    """Show the sidebar (collapsed at a phone width) and wait until it is in view."""
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar.or_(page.get_by_test_id("stExpandSidebarButton")).first).to_be_attached()
    if not sidebar.is_visible() or (sidebar.bounding_box() or {"x": -1})["x"] < 0:
        page.get_by_test_id("stExpandSidebarButton").click()
    expect(sidebar).to_be_in_viewport()


def close_sidebar(page) -> None:
    """Collapse the sidebar (it covers the page at a phone width)."""
    page.get_by_test_id("stSidebarCollapseButton").click()
    expect(page.get_by_test_id("stSidebar")).not_to_be_in_viewport()


def page_image(scope):
    """The dialog's or viewer's page image this screen shows (the dialog holds a phone's and a desktop's)."""
    return scope.get_by_test_id("pageImage").filter(visible=True)


def png_of(img) -> bytes:
    """The PNG an <img> shows (ours are data: URLs)."""
    import base64

    src = img.get_attribute("src")
    assert src.startswith("data:image/png;base64,")
    return base64.b64decode(src.split(",", 1)[1])


def highlight_runs(png: bytes) -> list[tuple[int, int]]:
    """Runs of pixel columns (first, last) of an image that hold the highlight's yellow, left to right."""
    import pymupdf

    pix = pymupdf.Pixmap(png)
    runs: list[tuple[int, int]] = []
    for x in range(pix.width):
        if any((lambda p: p[0] > 200 and p[1] > 170 and p[2] < 190)(pix.pixel(x, y)) for y in range(0, pix.height, 2)):
            runs = runs[:-1] + [(runs[-1][0], x)] if runs and runs[-1][1] == x - 1 else runs + [(x, x)]
    return runs


def fits_the_screen(page, img) -> None:
    """A phone's page image: inside the screen's width, its frame not scrolling sideways, and every highlight
    inside the image (none runs into its left or right edge)."""
    box, screen = img.bounding_box(), page.viewport_size["width"]
    assert box and box["x"] >= -1 and box["x"] + box["width"] <= screen + 1, (box, screen)
    frame = img.locator("xpath=..")
    assert frame.evaluate("s => s.scrollWidth <= s.clientWidth + 1"), frame.evaluate("s => [s.scrollWidth, s.clientWidth]")
    png = png_of(img)
    runs, width = highlight_runs(png), __import__("pymupdf").Pixmap(png).width
    assert runs and runs[0][0] >= 3 and runs[-1][1] <= width - 4, (runs, width)
