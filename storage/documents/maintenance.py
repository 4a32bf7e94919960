"""Housekeeping of processed PDFs: the per-document lock, sweeping what crashed builds and deletes left,
deleting a PDF, and remembering files that were refused.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import threading
import uuid
from pathlib import Path

from filelock import FileLock, Timeout

from storage.documents import vector_store
from storage.documents.catalog import (
    BUILD_PREFIX,
    LEGACY_ARTIFACTS,
    PdfProcessingError,
    get_pdf_output_dirs,
    read_manifest,
    valid_doc_id,
)
from storage.settings import get_settings


log = logging.getLogger(__name__)


def document_lock(doc_id: str) -> FileLock:
    lock_dir = get_settings().destination_dir / ".locks"
    lock_dir.mkdir(parents=True, exist_ok=True)
    return FileLock(str(lock_dir / f"{doc_id}.lock"))


# What belongs to which PDF. Exact shapes only: another PDF's doc_id may start with this one's
# ("a-<hash>-b-<hash>"), and doc_ids end in 12 hex digits while build ids are 8.
_TMP_DIR = re.compile(r"\.tmp-(?P<doc>.+-[0-9a-f]{12})-(?:deleted-)?[0-9a-f]{8}")
_BUILD_COLLECTION = re.compile(r"(?P<doc>.+-[0-9a-f]{12})-build-[0-9a-f]{8}")
_OLD_TMP_COLLECTION = re.compile(r"tmp-(?P<doc>.+-[0-9a-f]{12})-[0-9a-f]{8}")  # before builds were versioned


def _collection_owner(name: str) -> str | None:
    for pattern in (_BUILD_COLLECTION, _OLD_TMP_COLLECTION):
        if match := pattern.fullmatch(name):
            return match["doc"]
    if re.fullmatch(r".+-[0-9a-f]{12}", name) and valid_doc_id(name):
        return name  # the collection of a PDF processed before builds were versioned
    return None


def remove_path(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def sweep_leftovers(doc_id: str, collection_names: list[str] | None = None) -> None:
    """Remove whatever of this PDF its manifest does not name: crashed builds and deletes, earlier
    builds and collections (call with the document's lock held)."""
    destination = get_settings().destination_dir
    for tmp in destination.glob(f".tmp-{doc_id}-*"):
        if (match := _TMP_DIR.fullmatch(tmp.name)) and match["doc"] == doc_id:
            remove_path(tmp)
    root = destination / doc_id
    manifest = read_manifest(root / "manifest.json")
    if root.is_dir() and not (root / "manifest.json").exists():
        remove_path(root)
    elif root.is_dir() and manifest is not None:
        current = f"{BUILD_PREFIX}{manifest.build}" if manifest.build else None
        for entry in root.iterdir():
            if entry.name.startswith(BUILD_PREFIX) and entry.name != current:
                remove_path(entry)
            elif entry.name.startswith(".manifest-") or (manifest.build and entry.name in LEGACY_ARTIFACTS):
                remove_path(entry)
    keep = (manifest.collection or vector_store.safe_collection_name(doc_id)) if manifest else None
    names = vector_store.list_collection_names() if collection_names is None else collection_names
    for name in names:
        if name != keep and _collection_owner(name) == doc_id:
            vector_store.delete_collection_if_exists(name)


def sweep_all_leftovers() -> int:
    """Sweep the leftovers of every PDF (crashed builds, deletes, replaced builds); returns how many
    PDFs were looked at. A PDF whose lock another process holds (being built) is skipped."""
    destination = get_settings().destination_dir
    if not destination.is_dir():
        return 0
    names = vector_store.list_collection_names()
    owners = {owner for owner in map(_collection_owner, names) if owner}
    for entry in destination.iterdir():
        if match := _TMP_DIR.fullmatch(entry.name):
            owners.add(match["doc"])
        elif entry.is_dir() and valid_doc_id(entry.name):
            owners.add(entry.name)
    swept = 0
    for doc_id in sorted(o for o in owners if valid_doc_id(o)):
        lock = document_lock(doc_id)
        try:
            lock.acquire(blocking=False)
        except Timeout:
            continue
        try:
            sweep_leftovers(doc_id, names)
            swept += 1
        finally:
            lock.release()
    return swept


_swept: set[str] = set()
_swept_lock = threading.Lock()


def forget_sweeps() -> None:
    """Forget which destination folders this process has swept: the next ingestion sweeps again, as
    the first one of a new process does."""
    with _swept_lock:
        _swept.clear()


def sweep_leftovers_once() -> None:
    """`sweep_all_leftovers()` on the first call in this process (per destination folder)."""
    key = str(get_settings().destination_dir)
    with _swept_lock:
        if key in _swept:
            return
        _swept.add(key)
    try:
        sweep_all_leftovers()
    except (OSError, *vector_store.VECTOR_STORE_ERRORS) as exc:  # housekeeping: it must never stop an ingestion
        log.warning("Sweeping leftovers failed: %s", exc)


def _rejection_path(doc_id: str) -> Path:
    return get_settings().destination_dir / ".rejected" / f"{doc_id}.json"


def rejection_reason(doc_id: str) -> str | None:
    """Why the file with this content was refused the last time it was processed (None if it was not),
    so "process all" does not retry it blindly. Processing it successfully clears it."""
    try:
        return json.loads(_rejection_path(doc_id).read_text("utf-8"))["reason"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def forget_rejection(doc_id: str) -> None:
    """The file was processed after all: no longer refused."""
    _rejection_path(doc_id).unlink(missing_ok=True)


def remember_rejection(doc_id: str, exc: PdfProcessingError) -> None:
    try:
        path = _rejection_path(doc_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"file": exc.file, "reason": exc.reason}), "utf-8")
    except OSError as err:
        log.warning("Could not record the rejection of %s: %s", exc.file, err)


def delete_pdf(doc_id: str) -> None:
    """Remove a PDF's artifacts and collections (the source file stays)."""
    dirs = get_pdf_output_dirs(doc_id)
    with document_lock(doc_id):
        if dirs.root.exists():
            # Rename first, so the PDF stops being listed at once and a half-deleted folder is
            # never mistaken for a processed one; the sweep then drops the folder and collections.
            os.replace(dirs.root, dirs.root.with_name(f".tmp-{doc_id}-deleted-{uuid.uuid4().hex[:8]}"))
        sweep_leftovers(doc_id)
