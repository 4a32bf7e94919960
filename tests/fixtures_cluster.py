"""Real servers for the cluster tests (bench/servers.py), module-scoped and stopped after: redis-server
(Celery's broker and result backend) and `chroma run` (the shared vector store). nx-27017 comes from
tests/fixtures_mongo.py; Celery workers are started per test (bench.servers.CeleryWorker).

Registered for every test by tests/conftest.py's `pytest_plugins`: use the fixtures by name, import nothing.
"""

from __future__ import annotations

import pytest

from bench.servers import ChromaServer, RedisServer


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory):
    server = ChromaServer(tmp_path_factory.mktemp("chroma")).start()
    yield server
    server.stop()
