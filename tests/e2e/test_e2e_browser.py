"""End to end in a real browser: `streamlit run app.py` on 127.0.0.1 with a temporary
PDF_CHAT_HOME, driven by headless Debian chromium through Playwright.

Upload a PDF, wait for ingestion, ask (no-model mode: no keys), open a citation and check its
file and page, reload and find the conversation and its citations again; a hostile PDF's
`<script>`, `<img onerror>` and `javascript:` link are shown as text and never run.
Screenshots go to tests/e2e/screenshots/ (git-ignored).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from storage.mongo_server import free_port
from tests.fixtures_ui import ROOT, SAMPLE_PDF, make_xss_pdf

SHOTS = Path(__file__).resolve().parent / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SECRET_VARS = ("GOOGLE_API_KEY", "GEMINI_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", "TAVILY_API_KEY",
               "MONGODB_URI", "CHROMA_HOST", "PDF_SOURCE_DIR", "PDF_DESTINATION_DIR", "PDF_CHAT_LOCAL_USER")
FILE = SAMPLE_PDF.name

expect.set_options(timeout=90_000)  # first runs load the embedder and start the history server

@pytest.fixture(autouse=True)
def _chromium_installed():
    # A missing browser is a broken setup, not a reason to pass quietly.
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian chromium is not installed at /usr/bin/chromium (scripts/setup.sh --dev installs it)")


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    """A Streamlit server on a free port with its own PDF home and embedded history server."""
    home = tmp_path_factory.mktemp("e2e") / "pdf_files"
    (home / "source").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k not in SECRET_VARS}
    env.update(PDF_CHAT_HOME=str(home), ANONYMIZED_TELEMETRY="False", PYTHONUNBUFFERED="1")
    port = free_port()
    log = open(home.parent / "streamlit.log", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (home.parent / "streamlit.log").read_text()[-3000:]
            try:
                if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).status == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "streamlit did not come up in 60 s"
            time.sleep(0.3)
        yield {"url": url, "home": home}
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()
        from storage.mongo_server import stop_server

        stop_server(home / ".mongo")  # the app's embedded history server (PDF_CHAT_HOME/.mongo)
        server_log = (home.parent / "streamlit.log").read_text(errors="replace")
        assert "Traceback" not in server_log, server_log[-4000:]


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(90_000)
    yield pg
    context.close()


def _shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.wait_for_timeout(300)  # let the last delta paint
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def _upload(page, url: str, path: Path) -> None:
    page.goto(f"{url}/documents")
    expect(page.get_by_role("heading", name="Documents")).to_be_visible()
    page.locator('input[type="file"]').set_input_files(str(path))
    page.get_by_role("button", name=re.compile(r"Upload and process 1 file")).click()
    expect(page.get_by_text(re.compile(rf"{re.escape(path.name)} is ready: \d+ pages?"))).to_be_visible()


def _ask(page, question: str) -> None:
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")
    expect(page.get_by_test_id("stChatMessage").filter(has_text=question)).to_be_visible()


def test_upload_ask_open_citation_and_reload(app_url, page, tmp_path):
    url = app_url["url"]
    pdf = tmp_path / FILE
    pdf.write_bytes(SAMPLE_PDF.read_bytes())
    _upload(page, url, pdf)
    expect(page.get_by_text(re.compile(r"4 pages, \d+ chunks")).first).to_be_visible()
    _shot(page, "documents_page")

    page.get_by_role("link", name="Chat").click()
    expect(page.get_by_role("heading", name="Chat")).to_be_visible()
    expect(page.get_by_text("no-model mode", exact=False).first).to_be_visible()
    _ask(page, "What was the net debt at year end?")
    cite = page.get_by_role("button", name=re.compile(rf"^\d+ · {re.escape(FILE)}, page 2$")).first
    expect(cite).to_be_visible()
    expect(page.get_by_text("62.5 million euros", exact=False).first).to_be_visible()
    _shot(page, "answer")

    cite.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_text(f"{FILE}, page 2", exact=False).first).to_be_visible()
    expect(dialog.get_by_text("62.5", exact=False).first).to_be_visible()
    image = dialog.locator("img").first
    expect(image).to_be_visible()
    assert image.evaluate("img => img.naturalWidth") > 500  # the rendered page, not an icon
    _shot(page, "citation_preview")

    # Reload: the conversation (in the URL) and its citations come back from the history store.
    assert "c=" in page.url
    page.reload()
    expect(page.get_by_test_id("stChatMessage").filter(has_text="What was the net debt at year end?")).to_be_visible()
    again = page.get_by_role("button", name=re.compile(rf"^\d+ · {re.escape(FILE)}, page 2$")).first
    expect(again).to_be_visible()
    again.click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_text(f"{FILE}, page 2", exact=False).first).to_be_visible()

    # From the preview to the page viewer, on the cited page.
    dialog.get_by_role("button", name="Open in page viewer").click()
    expect(page.get_by_role("heading", name="Page viewer")).to_be_visible()
    expect(page.get_by_text(f"{FILE} · page 2 of 4")).to_be_visible()
    _shot(page, "page_viewer")


def test_hostile_pdf_text_is_shown_literally_and_runs_nothing(app_url, page, tmp_path):
    url = app_url["url"]
    alerts: list[str] = []
    page.on("dialog", lambda d: (alerts.append(d.message), d.dismiss()))
    _upload(page, url, make_xss_pdf(tmp_path / "hostile_note.pdf"))
    page.get_by_role("link", name="Chat").click()
    _ask(page, "What does the quarterly note say about the script, the logo and the link?")
    answer = page.get_by_test_id("stChatMessage").last
    expect(answer.get_by_text("<script>window.__xss = 'script'</script>", exact=False).first).to_be_visible()
    expect(answer.get_by_text("[the link](javascript:window.__xss='link')", exact=False).first).to_be_visible()
    expect(answer.get_by_text("<img src=x onerror=", exact=False).first).to_be_visible()
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.__xss === undefined")
    assert answer.locator("script, img[onerror], a[href^='javascript']").count() == 0
    assert alerts == []
    _shot(page, "hostile_pdf_answer")
