"""The cluster on loopback, as scripts/start_cluster.sh starts it: redis-server, chroma run, nx-27017, a
Celery worker, two Streamlit replicas and HAProxy. A PDF uploaded through replica A is processed by the
worker and answered through replica B; when replica A stops, its open page reconnects (through HAProxy) to
B with the conversation, and the next question goes on in it. A replica killed mid-answer (a slow scripted
model keeps the question in flight) leaves its question stored: the page, reconnected to the other replica,
shows it as interrupted with Ask again, and asking again answers it."""

from __future__ import annotations

import os
import re
import signal
import socket
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from bench.servers import alive, running_cluster
from tests.e2e.steps import ask, upload
from tests.fixtures_ui import FILE, SAMPLE_PDF
from tests.stubs import openai_compat as oa
from tests.stubs.openai_compat import OpenAIStub

COOKIE = "PDFCHAT_REPLICA"
QUESTION = "What was the net debt at year end?"
QUESTION_A = "What does the report say about revenue?"
FOLLOW_UP = "And the year before?"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with running_cluster(tmp_path_factory.mktemp("cluster")) as running:
        yield running


def _get(url: str, cookie: str | None = None):
    request = urllib.request.Request(url, headers={"Cookie": f"{COOKIE}={cookie}"} if cookie else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.headers


def test_haproxy_spreads_new_browsers_and_keeps_each_on_its_replica(cluster):
    url = f"{cluster['url']}/_stcore/health"
    first, second = _get(url), _get(url)
    assigned = {first["X-PDF-Chat-Replica"], second["X-PDF-Chat-Replica"]}
    assert assigned == {"app1", "app2"}  # round robin for browsers without the cookie
    assert any(c.startswith(f"{COOKIE}=") for c in first.get_all("Set-Cookie"))
    assert {_get(url, "app2")["X-PDF-Chat-Replica"] for _ in range(4)} == {"app2"}  # sticky


def test_the_websocket_upgrade_passes_the_proxy(cluster):
    port = int(cluster["url"].rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall((f"GET /_stcore/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                      "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: streamlit\r\n\r\n").encode())
        reply = conn.recv(4096).decode(errors="replace")
    assert reply.startswith("HTTP/1.1 101"), reply[:300]


def _pinned(browser, url: str, replica: str):
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    context.add_cookies([{"name": COOKIE, "value": replica, "url": url}])
    page = context.new_page()
    page.set_default_timeout(120_000)
    return context, page


def _answer_cites_the_pdf(page) -> None:
    cite = page.get_by_role("button", name=re.compile(rf"^\d+ · {re.escape(FILE)}, page 2$")).first
    expect(cite).to_be_visible()
    expect(page.get_by_text("62.5 million euros", exact=False).first).to_be_visible()


def test_uploaded_on_a_processed_by_the_worker_answered_on_b_and_kept_when_a_stops(cluster, browser, tmp_path):
    url = cluster["url"]
    pdf = tmp_path / FILE
    pdf.write_bytes(SAMPLE_PDF.read_bytes())

    context_a, page_a = _pinned(browser, url, "app1")
    upload(page_a, url, pdf)  # through replica A; processed by the worker, progress from the job record
    worker_log = (cluster["logs"] / "worker.log").read_text()
    assert "pdf_chat.ingest_pdf" in worker_log and "succeeded" in worker_log

    page_a.goto(f"{url}/")
    ask(page_a, QUESTION_A)
    expect(page_a.get_by_role("button", name=re.compile(rf"^\d+ · {re.escape(FILE)}, page \d+$")).first).to_be_visible()
    expect(page_a).to_have_url(re.compile(r"[?&]c=[0-9a-f]{32}"))
    conversation = re.search(r"[?&]c=([0-9a-f]{32})", page_a.url).group(1)

    context_b, page_b = _pinned(browser, url, "app2")
    page_b.goto(f"{url}/")
    expect(page_b).to_have_url(re.compile(rf"c={conversation}"))  # B opens the user's latest conversation
    page_b.get_by_role("button", name="New").click()  # and starts another one
    expect(page_b).not_to_have_url(re.compile(rf"c={conversation}"))
    ask(page_b, QUESTION)  # replica B reads the same Chroma server, PDF folders and history
    _answer_cites_the_pdf(page_b)  # ... and its conversation is now the user's most recent one
    context_b.close()

    os.kill(cluster["pids"]["app1"], signal.SIGTERM)  # replica A goes away
    deadline = time.monotonic() + 30
    while alive(cluster["pids"]["app1"]):
        assert time.monotonic() < deadline, "replica A did not stop"
        time.sleep(0.2)
    # No reload: the page's websocket reconnects by itself, HAProxy sends it to B (A is down), and B starts a
    # session from the same URL.
    expect(page_a.get_by_test_id("stChatInputTextArea")).to_be_visible()
    ask(page_a, FOLLOW_UP)
    messages = page_a.get_by_test_id("stChatMessage")
    expect(messages.filter(has_text=QUESTION_A).first).to_be_visible()  # A's conversation, not the latest
    expect(page_a.get_by_role("button", name=re.compile(rf"^\d+ · {re.escape(FILE)}, page \d+$")).first).to_be_visible()
    expect(messages.filter(has_text=QUESTION)).to_have_count(0)
    assert f"c={conversation}" in page_a.url
    _wait_for_turn(cluster["mongo_uri"], conversation, FOLLOW_UP)  # B stored it in A's conversation
    context_a.close()


def _wait_for_turn(uri: str, conversation: str, question: str) -> None:
    from storage.history.store import HistoryStore

    store = HistoryStore(uri)
    try:
        deadline = time.monotonic() + 90
        while True:
            said = [m["content"] for m in store.load_messages("local", conversation) if m["role"] == "user"]
            if said == [QUESTION_A, question]:
                return
            assert time.monotonic() < deadline, said
            time.sleep(0.5)
    finally:
        store.close()


# ---------------------------------------------------------------- a replica killed mid-answer

SLOW_QUESTION = "Tell me a long story about bond markets"
LONG = " ".join(["Bond markets price the time value of money and the risk of default, year after year."] * 12)
SHORT = "Bonds are loans that pay interest until they mature."


class SlowModel(OpenAIStub):
    """A conversational route (no PDF selected): the query-kind judgement, then the reply streamed
    `token_delay` seconds per few characters; `reply` is what the next question gets."""

    def __init__(self) -> None:
        self.reply = LONG
        super().__init__([self._script] * 40, token_delay=0.25)

    def _script(self, body: dict) -> dict:
        if body.get("response_format"):  # a structured judgement
            return oa.structured(kind="conversational", search_query="")
        return oa.text(self.reply)


@pytest.fixture(scope="module")
def slow_model():
    with SlowModel() as stub:
        yield stub


@pytest.fixture(scope="module")
def model_cluster(tmp_path_factory, slow_model):
    with running_cluster(tmp_path_factory.mktemp("cluster-model"), OPENAI_BASE_URL=slow_model.url + "/v1",
                          OPENAI_MODEL="stub-model") as running:
        yield running


def test_a_question_whose_replica_is_killed_mid_answer_is_offered_again_on_the_other(model_cluster, browser, slow_model):
    url = model_cluster["url"]
    context, page = _pinned(browser, url, "app1")
    page.goto(f"{url}/")
    ask(page, SLOW_QUESTION)
    answer = page.get_by_test_id("stChatMessage").last
    expect(answer.get_by_text("Bond markets price", exact=False).first).to_be_visible()  # streaming on app1
    expect(page).to_have_url(re.compile(r"[?&]c=[0-9a-f]{32}"))
    conversation = re.search(r"[?&]c=([0-9a-f]{32})", page.url).group(1)

    os.kill(model_cluster["pids"]["app1"], signal.SIGKILL)  # the replica answering dies mid-answer
    slow_model.reply = SHORT
    interrupted = page.get_by_text("Interrupted: the server answering this question stopped", exact=False)
    expect(interrupted).to_be_visible(timeout=120_000)  # reconnected to app2, which found the dead question
    messages = page.get_by_test_id("stChatMessage")
    expect(messages.filter(has_text=SLOW_QUESTION)).to_have_count(1)
    assert f"c={conversation}" in page.url

    page.get_by_role("button", name="Ask again").click()
    expect(messages.last.get_by_text(SHORT).first).to_be_visible()
    expect(messages.filter(has_text=SLOW_QUESTION)).to_have_count(2)  # the interrupted turn stays above
    expect(interrupted).to_be_visible()
    context.close()

    from storage.history.store import HistoryStore

    store = HistoryStore(model_cluster["mongo_uri"])
    try:
        said = [m["content"] for m in store.load_messages("local", conversation) if m["role"] == "user"]
        states = store.run_on_database(lambda db: sorted(r["state"] for r in db.asked.find({"conversation_id": conversation})))
    finally:
        store.close()
    assert said == [SLOW_QUESTION, SLOW_QUESTION]
    assert states == ["answered", "interrupted"]  # the killed one completed as interrupted, none left pending
