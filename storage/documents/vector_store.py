"""The Chroma client and per-PDF collection naming.

Each build of a PDF writes a new collection `<doc_id>-build-<id>`; the PDF's manifest (written
last, storage/documents/ingest.py) names the current one, so a re-index never leaves a moment
without a complete collection. PDFs processed before builds were versioned use `<doc_id>`.

Embedded by default (`PersistentClient` under `<destination>/.chroma`); a Chroma server when
`CHROMA_HOST` (and optionally `CHROMA_PORT`) is set, with the same per-PDF collections.
We always pass vectors ourselves, so collections are opened with `embedding_function=None`
(chromadb's default embedder would try to download a model).
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
import threading
import unicodedata
from typing import Any

from storage.settings import get_settings

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import chromadb  # noqa: E402  (telemetry must be off before import)
import httpx  # noqa: E402
from filelock import FileLock  # noqa: E402
from chromadb.config import Settings as ChromaSettings  # noqa: E402
from chromadb.errors import ChromaError  # noqa: E402

# What says the Chroma server is out of reach (refused, reset, timed out), not that a PDF is wrong.
UNREACHABLE_ERRORS: tuple[type[BaseException], ...] = (httpx.TransportError, ConnectionError)
# What the vector store raises when a collection is missing or unreadable (ChromaError, ValueError
# depending on the client) or a Chroma server cannot be reached (httpx; ConnectionError from get_chroma_client).
VECTOR_STORE_ERRORS: tuple[type[BaseException], ...] = (ChromaError, ValueError, httpx.HTTPError, ConnectionError)


class VectorStoreUnavailable(Exception):
    """Processing stopped because the vector store could not be reached: retry later; the file is fine."""

    def __init__(self, file: str, cause: BaseException) -> None:
        super().__init__(f"{file}: the vector store is unreachable ({type(cause).__name__})")
        self.file = file

_clients: dict[tuple, Any] = {}
_lock = threading.Lock()
# Chroma rejects `add` batches above its max batch size; we stay well below.
ADD_BATCH = 1000
COLLECTION_METADATA = {"hnsw:space": "cosine"}


def get_chroma_client():
    """One client per (mode, location) for the process; thread-safe."""
    settings = get_settings()
    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    if settings.chroma.host:
        key = ("http", settings.chroma.host, settings.chroma.port)
    else:
        key = ("local", str(settings.chroma_dir))
    with _lock:
        client = _clients.get(key)
        if client is None:
            if key[0] == "http":
                try:
                    client = chromadb.HttpClient(
                        host=settings.chroma.host, port=settings.chroma.port, settings=chroma_settings
                    )
                except ValueError as exc:  # chromadb says "Could not connect" as a ValueError over the httpx error
                    if isinstance(exc.__context__, UNREACHABLE_ERRORS):
                        raise ConnectionError(f"the Chroma server at {settings.chroma.host}:{settings.chroma.port} "
                                              "is unreachable") from exc.__context__
                    raise
            else:
                settings.chroma_dir.mkdir(parents=True, exist_ok=True)
                # Processes opening a new store at once race Chroma's schema creation ("table collections
                # already exists"): one opens it at a time.
                with FileLock(str(settings.chroma_dir / "open.lock")):
                    client = chromadb.PersistentClient(path=str(settings.chroma_dir), settings=chroma_settings)
            _clients[key] = client
    return client


MAX_NAME_CHARS = 512  # Chroma's limits: 3-512 chars of [A-Za-z0-9._-], alphanumeric ends, no "..", not an IPv4
_DOC_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9]")


def safe_collection_name(raw: str) -> str:
    """A name Chroma accepts, derived from any string; names that already comply are unchanged."""
    text = unicodedata.normalize("NFKD", raw or "").encode("ascii", "ignore").decode()
    name = re.sub(r"\.{2,}", ".", re.sub(r"[^A-Za-z0-9._-]+", "-", text))
    name = name[:MAX_NAME_CHARS].strip("._-")
    if len(name) < 3 or _is_ipv4(name):
        name = f"pdf-{name}".strip("._-") if name else "pdf"
    return name


def _is_ipv4(name: str) -> bool:
    try:
        ipaddress.IPv4Address(name)
        return True
    except ValueError:
        return False


def build_collection_name(doc_id: str, build: str) -> str:
    """The collection of one build of a PDF (see the module docstring)."""
    suffix = f"-build-{build}"
    return safe_collection_name(doc_id)[: MAX_NAME_CHARS - len(suffix)].rstrip("._-") + suffix


def collection_name(doc_id: str) -> str:
    """The collection holding a PDF's current index: the one its manifest names (the commit
    point of a build), else the name of a PDF processed before builds were versioned.
    Idempotent: a collection name maps to itself."""
    if _DOC_ID.fullmatch(doc_id or "") and ".." not in doc_id:
        try:
            manifest = json.loads((get_settings().destination_dir / doc_id / "manifest.json").read_text("utf-8"))
            if isinstance(manifest, dict) and isinstance(manifest.get("collection"), str) and manifest["collection"]:
                return manifest["collection"]
        except (OSError, ValueError):
            pass
    return safe_collection_name(doc_id)


def get_collection(doc_id: str):
    return get_chroma_client().get_collection(collection_name(doc_id), embedding_function=None)


def collection_exists(name: str) -> bool:
    try:
        get_chroma_client().get_collection(name, embedding_function=None)
        return True
    except VECTOR_STORE_ERRORS:
        return False


def delete_collection_if_exists(name: str) -> None:
    if collection_exists(name):
        get_chroma_client().delete_collection(name)


def list_collection_names() -> list[str]:
    names = get_chroma_client().list_collections()
    return [c if isinstance(c, str) else c.name for c in names]
