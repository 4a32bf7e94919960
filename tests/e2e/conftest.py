"""Browser fixtures for the end-to-end tests: Debian chromium (never a downloaded browser) driven
by Playwright, one browser per module, a fresh context per test."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.e2e.steps import WIDTHS, context_at

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

expect.set_options(timeout=90_000)  # first runs load the embedder and start the history server


@pytest.fixture(autouse=True)
def _chromium_installed():
    # A missing browser is a broken setup, not a reason to pass quietly.
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian chromium is not installed at /usr/bin/chromium (scripts/setup.sh --dev installs it)")


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1360, "height": 900}, accept_downloads=True)
    pg = context.new_page()
    pg.set_default_timeout(90_000)
    yield pg
    context.close()


@pytest.fixture(params=sorted(WIDTHS))
def view(browser, request):
    """(width name, page): a page at each of `WIDTHS`, one test run per width."""
    context = context_at(browser, request.param)
    pg = context.new_page()
    pg.set_default_timeout(90_000)
    yield request.param, pg
    context.close()
