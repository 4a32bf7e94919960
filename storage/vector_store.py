"""The Chroma client and per-PDF collection naming.

Embedded by default (`PersistentClient` under `<destination>/.chroma`); a Chroma server when
`CHROMA_HOST` (and optionally `CHROMA_PORT`) is set, with the same per-PDF collections.
We always pass vectors ourselves, so collections are opened with `embedding_function=None`
(chromadb's default embedder would try to download a model).
"""

from __future__ import annotations

import os
import threading
from typing import Any

from storage.config import get_settings

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import chromadb  # noqa: E402  (telemetry must be off before import)
from chromadb.config import Settings as ChromaSettings  # noqa: E402

_clients: dict[tuple, Any] = {}
_lock = threading.Lock()
# Chroma rejects `add` batches above its max batch size; we stay well below.
ADD_BATCH = 1000
COLLECTION_METADATA = {"hnsw:space": "cosine"}


def get_chroma_client():
    """One client per (mode, location) for the process; thread-safe."""
    settings = get_settings()
    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    if settings.chroma_host:
        key = ("http", settings.chroma_host, settings.chroma_port)
    else:
        key = ("local", str(settings.chroma_dir))
    with _lock:
        client = _clients.get(key)
        if client is None:
            if key[0] == "http":
                client = chromadb.HttpClient(
                    host=settings.chroma_host, port=settings.chroma_port, settings=chroma_settings
                )
            else:
                settings.chroma_dir.mkdir(parents=True, exist_ok=True)
                client = chromadb.PersistentClient(path=str(settings.chroma_dir), settings=chroma_settings)
            _clients[key] = client
    return client


def collection_name(doc_id: str) -> str:
    """Chroma names allow [A-Za-z0-9._-], 3-512 chars, alphanumeric at both ends; doc ids comply."""
    return doc_id


def get_collection(doc_id: str):
    return get_chroma_client().get_collection(collection_name(doc_id), embedding_function=None)


def collection_exists(name: str) -> bool:
    try:
        get_chroma_client().get_collection(name, embedding_function=None)
        return True
    except Exception:  # chromadb raises NotFoundError / ValueError depending on the client
        return False


def delete_collection_if_exists(name: str) -> None:
    if collection_exists(name):
        get_chroma_client().delete_collection(name)


def list_collection_names() -> list[str]:
    names = get_chroma_client().list_collections()
    return [c if isinstance(c, str) else c.name for c in names]
