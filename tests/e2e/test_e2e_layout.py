"""Small layout flaws a new user saw (issue 29.4), in a real browser at 1360 px and at a 390 px phone
width: the Copy button's tooltip never covers a citation chip; a chip's "…, page 2" is never cut; the
page image in the citation dialog fills the phone's width (readable, not a thumbnail); the title of
the processing box is never cut mid-word. No keys: no-model mode. Screenshots: tests/e2e/screenshots/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.app_server import run_app
from tests.e2e.steps import WIDTHS, fits_the_screen, long_pdf, page_image, processing_box, shot
from tests.fixtures_ui import SAMPLE_PDF

LONG_NAME = "northwind_foods_consolidated_annual_report_fiscal_2023.pdf"  # long enough to wrap on a phone


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    with run_app(tmp_path_factory.mktemp("e2e-layout")) as app:
        yield app



def _box(locator) -> dict:
    box = locator.bounding_box()
    assert box is not None
    return box


def _overlap(a: dict, b: dict) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and \
        a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


_CUT = """e => { for (let n = e; n; n = n.parentElement) {
    if (n.scrollWidth > n.clientWidth + 1) return true;
    if (n.tagName === 'BUTTON' || n.tagName === 'SUMMARY') return false; } return false; }"""


_CHAIN = """e => { const out = []; for (let n = e; n && n.tagName !== 'BODY'; n = n.parentElement) {
    const s = getComputedStyle(n); out.push([n.tagName, n.getAttribute('data-testid') || n.className.toString().slice(0, 40),
    s.whiteSpace, s.overflow, s.textOverflow, n.clientWidth, n.scrollWidth]); if (n.tagName === 'BUTTON') break; } return out; }"""


_PADS = """e => { const out = []; for (let n = e; n && n.tagName !== 'BODY'; n = n.parentElement) {
    const s = getComputedStyle(n); out.push([n.getAttribute('data-testid') || n.getAttribute('role') || n.tagName,
    s.paddingLeft, s.marginLeft, s.borderLeftWidth, Math.round(n.getBoundingClientRect().x)].join(":")); } return out.slice(5).join(" | "); }"""


def _upload(page, pdf) -> None:
    page.locator('input[type="file"]').set_input_files(str(pdf))
    page.get_by_role("button", name=re.compile(r"Upload and process 1 file")).click()


def _ready(page, url: str, tmp_path, width: str) -> None:
    """The sample PDF uploaded under a long name, after a long PDF under a long name whose processing
    box's title is checked while it shows (a short PDF can be processed before the box is seen: it
    may finish between two reruns) and which is then cancelled."""
    page.goto(f"{url}/documents")
    expect(page.get_by_role("heading", name="Documents")).to_be_visible()
    slow = long_pdf(tmp_path / f"{width}_{LONG_NAME}")
    _upload(page, slow)
    box = processing_box(page, slow.name)
    title = box.locator("summary")
    expect(title).to_be_visible()
    shot(page, f"layout_{width}_processing_box")
    assert slow.name in title.inner_text().replace("\u200b", ""), title.inner_text()  # the whole name
    # no word of the title (a run of letters and digits) is broken across lines or cut off: a long file
    # name wraps at its "_", "-" and "."
    cut = title.evaluate("""s => { const r = document.createRange(); const out = [];
        const box = s.getBoundingClientRect();
        const walk = document.createTreeWalker(s, NodeFilter.SHOW_TEXT);
        for (let t = walk.nextNode(); t; t = walk.nextNode()) {
          const re = /[A-Za-z0-9]+/g; let m;
          while ((m = re.exec(t.data))) { r.setStart(t, m.index); r.setEnd(t, m.index + m[0].length);
            const rects = [...r.getClientRects()].filter(x => x.width > 0);
            if (rects.length > 1 || rects.some(x => x.right > box.right + 1)) out.push(m[0]); } }
        return out; }""")
    assert cut == [], f"words broken or cut in the processing box's title: {cut}"
    box.get_by_role("button", name="Cancel").click()
    expect(page.get_by_text("was cancelled", exact=False)).to_be_visible()
    pdf = tmp_path / LONG_NAME
    pdf.write_bytes(SAMPLE_PDF.read_bytes())
    _upload(page, pdf)
    expect(page.get_by_text(re.compile(rf"{re.escape(LONG_NAME)} is ready: \d+ pages?"))).to_be_visible()


def test_copy_tooltip_chips_and_the_dialogs_page_image(app_url, view, tmp_path):
    width, page = view
    _ready(page, app_url["url"], tmp_path, width)
    page.goto(app_url["url"])
    if width == "phone" and page.get_by_test_id("stSidebar").is_visible():
        sidebar = page.get_by_test_id("stSidebar")
        if (sidebar.bounding_box() or {"x": -1})["x"] >= 0:
            page.get_by_test_id("stSidebarCollapseButton").click()
    new_chat = page.get_by_role("button", name="New", exact=True)
    if width != "phone" and new_chat.is_visible():  # on a phone it sits in the collapsed sidebar, off screen
        new_chat.click()
    box = page.get_by_test_id("stChatInputTextArea")
    expect(box).to_be_enabled()
    box.fill("What was the net debt at year end?")
    box.press("Enter")
    answer = page.get_by_test_id("stChatMessage").last
    copy = answer.get_by_role("button", name="Copy")
    expect(copy).to_be_visible()
    expect(page.get_by_role("button", name="Stop")).to_have_count(0)
    chips = answer.get_by_role("button", name=re.compile(rf"^\d+ · {re.escape(LONG_NAME)}, page \d+$"))
    expect(chips.first).to_be_visible()

    # A chip's text is whole: "1 · <file>, page 2", never cut before "page 2".
    for i in range(chips.count()):
        label = chips.nth(i).get_by_test_id("stMarkdownContainer")
        assert not label.evaluate(_CUT), (f"chip {i} is cut: {label.inner_text()}", label.evaluate(_CHAIN))
        assert _box(label)["x"] + _box(label)["width"] <= WIDTHS[width]["width"]

    # The Copy button has no tooltip: it popped up over the chips above it (the toast after a click
    # says what was copied).
    copy.hover()
    expect(answer.locator('[class*="st-key-copy-"]').get_by_test_id("stTooltipHoverTarget")).to_have_count(0)
    expect(page.get_by_test_id("stTooltipContent")).to_have_count(0)
    shot(page, f"layout_{width}_copy_hover")
    page.mouse.move(0, 0)

    # The dialog's page image fills the dialog's width (a phone reads it without zooming the page).
    chips.first.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_text(re.compile(r"^Page \d+ image")).click()
    image = page_image(dialog)
    expect(image).to_be_visible()
    page.wait_for_function("""() => { const i = document.querySelector('[role=dialog] [data-testid=pageImage]');
        return i && i.complete && i.naturalWidth > 0; }""")
    image.scroll_into_view_if_needed()
    shot(page, f"layout_{width}_dialog_page_image")
    img, scroller = _box(image), _box(dialog.get_by_test_id("pageScroller"))
    view_w, view_h = WIDTHS[width]["width"], WIDTHS[width]["height"]
    assert scroller["x"] >= -1 and scroller["x"] + scroller["width"] <= view_w + 1  # the frame fits the screen
    assert scroller["width"] >= 0.85 * _box(dialog)["width"], (scroller, _box(dialog), dialog.get_by_test_id("pageScroller").evaluate(_PADS))  # it takes the dialog's width
    assert scroller["height"] >= min(img["height"], 0.5 * view_h)  # and half the screen's height at least
    assert img["width"] >= scroller["width"] - 4  # the image fills it
    if width == "phone":  # the cited lines' own columns, at the frame's width: nothing to scroll sideways to
        fits_the_screen(page, image)
