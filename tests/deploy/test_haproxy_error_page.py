"""HAProxy as deploy/haproxy.cfg configures it (the real binary): with every replica down a browser gets our
"restarting" page, which retries by itself, not HAProxy's raw "503 Service Unavailable"."""

from __future__ import annotations

import shutil
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from bench.servers import PROJECT_ROOT, free_port, stop_process

HAPROXY = shutil.which("haproxy")


@pytest.fixture
def haproxy_without_replicas(tmp_path):
    if HAPROXY is None:
        pytest.fail("haproxy is not installed: scripts/setup.sh --dev installs it")
    port = free_port()
    env = {"CLUSTER_BIND": f"127.0.0.1:{port}", "APP1_ADDR": f"127.0.0.1:{free_port()}",
           "APP2_ADDR": f"127.0.0.1:{free_port()}", "HAPROXY_ERRORS": str(PROJECT_ROOT / "deploy" / "errors"),
           "PATH": "/usr/sbin:/usr/bin:/bin"}
    log = (tmp_path / "haproxy.log").open("w")
    proc = subprocess.Popen([HAPROXY, "-db", "-f", str(PROJECT_ROOT / "deploy" / "haproxy.cfg")], env=env,
                            stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path,
                            start_new_session=True)  # stop_process kills its group: without a group of its own it leaked
    yield f"http://127.0.0.1:{port}/", proc, tmp_path / "haproxy.log"
    stop_process(proc)
    log.close()


def _get(url: str, proc, log, timeout_s: float = 20.0) -> urllib.error.HTTPError:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()
        try:
            urllib.request.urlopen(url, timeout=2)
        except urllib.error.HTTPError as exc:
            return exc
        except OSError:
            time.sleep(0.2)  # not listening yet
            continue
        raise AssertionError("a replica answered, but none runs")
    raise AssertionError(f"haproxy never answered: {log.read_text()}")


def test_every_replica_down_shows_our_restarting_page_that_retries(haproxy_without_replicas):
    url, proc, log = haproxy_without_replicas
    error = _get(url, proc, log)
    body = error.read().decode()
    assert error.code == 503
    assert "PDF chat is restarting" in body and '<meta http-equiv="refresh" content="5">' in body
    assert error.headers["Retry-After"] == "5" and error.headers["Content-Type"].startswith("text/html")
    assert "No server is available" not in body  # HAProxy's own page
