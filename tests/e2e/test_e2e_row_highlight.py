"""Issue 27.4 in a real browser: the figure path's table-row citation (a statement page) opens with its
row label and its value highlighted, in the citation dialog and in the page viewer; on a 390 px phone
(issue 29) the dialog shows the row's label and its value, printed far apart, both whole at the phone's
width. No keys."""

from __future__ import annotations

import re

import pymupdf
import pytest
from playwright.sync_api import expect

from tests.e2e.app_server import run_app
from tests.e2e.steps import ask, context_at, fits_the_screen, highlight_runs, page_image, png_of, shot
from tests.fixtures_filings import cover_10k
from ui.page_images import crop_band

FILE = "zenith_2019.pdf"
ROWS = [("Net sales", "$", ("48,200", "45,100")), ("Cost of sales", "", ("31,900", "30,300")),
        ("Operating income", "", ("7,250", "6,980")), ("Net earnings", "", ("5,610", "5,020"))]
LABEL_X, VALUE_X = 56, (380, 470)


def statement_10k(path):
    """A 10-K whose income statement prints labels and values apart, in columns (as filings do)."""
    doc = pymupdf.open()
    cover = doc.new_page()
    cover.insert_textbox(pymupdf.Rect(50, 50, 550, 800), cover_10k("ZENITH TOOLS, INC.", "December 31, 2019"), fontsize=9)
    page = doc.new_page()
    page.insert_text((LABEL_X, 80), "ZENITH TOOLS, INC.", fontsize=11)
    page.insert_text((LABEL_X, 96), "CONSOLIDATED STATEMENTS OF EARNINGS", fontsize=11)
    page.insert_text((LABEL_X, 112), "(In millions)", fontsize=9)
    page.insert_text((350, 136), "Years ended December 31,", fontsize=9)
    for x, year in zip(VALUE_X, ("2019", "2018")):
        page.insert_text((x, 150), year, fontsize=9)
    for i, (label, sign, values) in enumerate(ROWS):
        y = 176 + 20 * i
        page.insert_text((LABEL_X, y), label, fontsize=10)
        for x, v in zip(VALUE_X, values):
            if sign:
                page.insert_text((x - 16, y), sign, fontsize=10)
            page.insert_text((x, y), v, fontsize=10)
    doc.save(path)
    return path


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    with run_app(tmp_path_factory.mktemp("e2e-rows")) as app:
        statement_10k(app["home"] / "source" / FILE)
        yield app


def _yellow_boxes(png: bytes, page_rects: list, image_width_pt: float) -> list[float]:
    """Share of highlight-yellow pixels inside each box (page points) of a page image `png`."""
    pix = pymupdf.Pixmap(png)
    scale = pix.width / image_width_pt
    shares = []
    for r in page_rects:
        pts = [(x, y) for x in range(int(r.x0 * scale) + 2, int(r.x1 * scale) - 2, 2)
               for y in range(int(r.y0 * scale) + 2, int(r.y1 * scale) - 2, 2)]
        yellow = sum(1 for x, y in pts if (lambda p: p[0] > 200 and p[1] > 170 and p[2] < 190)(pix.pixel(x, y)))
        shares.append(yellow / max(len(pts), 1))
    return shares


def _expected_boxes(path, label: str, value: str):
    with pymupdf.open(path) as doc:
        page = doc[1]
        lab = page.search_for(label)[0]
        val = [r for r in page.search_for(value) if abs(r.y0 - lab.y0) < 2][0]
        return page.rect, lab, val, crop_band(page, [lab, val]).y0


def _shares(png: bytes, page_rect, boxes, top: float) -> list[float]:
    shifted = [pymupdf.Rect(b.x0, b.y0 - top, b.x1, b.y1 - top) for b in boxes]
    return _yellow_boxes(png, shifted, page_rect.width)


def _open_row_image(page, scope):
    """Citation 1 (the statement page, cited by the figure line) of `scope` opened: its dialog and page image, loaded."""
    scope.get_by_role("button", name=re.compile(rf"^1 · {re.escape(FILE)}, page 2$")).first.click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_text("Operating income … 7,250", exact=False).first).to_be_visible()
    dialog.get_by_text("Page 2 image, passage highlighted").click()
    img = page_image(dialog)
    expect(img).to_be_visible()
    page.wait_for_function("() => [...document.querySelectorAll('[role=dialog] img')].every(i => i.complete && i.naturalWidth > 0)")
    return dialog, img


def test_the_figure_rows_citation_highlights_its_label_and_value(app_url, page):
    url = app_url["url"]
    page.goto(url)
    page.get_by_role("button", name="Process and chat").click()
    expect(page.get_by_text(re.compile(rf"{re.escape(FILE)} is ready"))).to_be_visible()
    ask(page, "What was operating income in 2019?")
    answer = page.get_by_test_id("stChatMessage").last
    expect(answer.get_by_text("Operating income (Years ended December 31, 2019)", exact=False).first).to_be_visible()
    page_rect, label, value, top = _expected_boxes(app_url["home"] / "source" / FILE, "Operating income", "7,250")

    # The lead figure's citation (number 1: first used by the figure line) is the statement page.
    dialog, img = _open_row_image(page, page)
    expect(dialog.get_by_text("could not be located")).to_have_count(0)
    # the image is the band of the page around the highlights, the page's whole width (top: where it begins)
    lab_share, val_share = _shares(png_of(img), page_rect, [label, value], top)
    assert lab_share > 0.4 and val_share > 0.4, (lab_share, val_share)
    shot(page, "row_citation_dialog_highlighted")

    dialog.get_by_role("button", name="Open in page viewer").click()
    expect(page.get_by_role("heading", name="Page viewer")).to_be_visible()
    page.get_by_text("Whole page").click()
    viewer_img = page.get_by_test_id("pageImage")
    page.wait_for_function("""() => { const i = document.querySelector('[data-testid=pageImage]');
        return i && i.complete && i.naturalHeight > i.naturalWidth; }""")  # the whole (portrait) page
    lab_share, val_share = _shares(png_of(viewer_img), page_rect, [label, value], 0.0)
    assert lab_share > 0.4 and val_share > 0.4, (lab_share, val_share)
    other = [pymupdf.Rect(value.x0, value.y0 - 20 * k, value.x1, value.y1 - 20 * k) for k in (1, 2)]  # rows above
    assert max(_shares(png_of(viewer_img), page_rect, other, 0.0)) < 0.05
    shot(page, "row_citation_viewer_highlighted")


def test_on_a_phone_the_dialog_shows_the_rows_label_and_value_whole_at_its_width(app_url, browser):
    """The value's column is printed at 380 pt of a 612 pt page: the page's whole width at a readable 720 px
    put it past a 390 px screen's right edge. The phone is shown the label's and the value's columns only,
    at its width, both highlights inside the image."""
    context = context_at(browser, "phone")
    page = context.new_page()
    page.set_default_timeout(90_000)
    try:
        page.goto(app_url["url"])
        start, box = page.get_by_role("button", name="Process and chat"), page.get_by_test_id("stChatInputTextArea")
        expect(start.or_(page.get_by_test_id("stChatMessage").first).first).to_be_visible()
        if start.is_visible():  # run alone: the desktop test processed nothing yet
            start.click()
            expect(page.get_by_text(re.compile(rf"{re.escape(FILE)} is ready"))).to_be_visible()
        expect(box).to_be_enabled()
        # its own wording: run after the desktop test, the page may open that test's conversation
        ask(page, "What was the operating income in 2019?")
        answer = page.get_by_test_id("stChatMessage").last
        expect(answer.get_by_role("button", name="Copy")).to_be_visible()
        dialog, img = _open_row_image(page, answer)
        img.scroll_into_view_if_needed()
        fits_the_screen(page, img)
        runs = highlight_runs(png_of(img))
        assert len(runs) == 2, runs  # the label's box and the value's box, both in the image
        shown = img.bounding_box()
        assert shown["width"] >= 0.8 * page.viewport_size["width"], shown  # at the phone's width, not a thumbnail
        shot(page, "row_citation_dialog_phone")
    finally:
        context.close()
