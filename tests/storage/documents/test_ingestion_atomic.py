"""Atomicity: a crash or kill mid-way leaves nothing that counts as processed; two processes build once;
and the same pipeline works against a real Chroma server (CHROMA_HOST/CHROMA_PORT)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from filelock import FileLock

from storage.documents import catalog
from storage.documents import ingest
from storage.documents import intake
from storage.documents import maintenance
from storage.documents import vector_store
from storage.settings import PROJECT_ROOT, get_settings
from storage.documents.embeddings import get_embedder
from storage.history.embedded_server import free_port
from tests.fixtures_pdfs import make_text_pdf

PAGES = [f"Page {i} of the filing discusses topic number {i} in some detail. " * 5 for i in range(6)]

# Runs in a child process: ingest argv[1]; report "built"/"cached" and the doc id; optionally stall.
CHILD = textwrap.dedent(
    """
    import sys, time, pathlib
    from storage.documents.ingest import process_and_index_pdf
    stall_file = sys.argv[2] if len(sys.argv) > 2 else None
    seen = set()
    def progress(stage, done, total):
        seen.add(stage)
        if stall_file and stage == "Indexing" and done == 1:
            pathlib.Path(stall_file).write_text("stalled")
            time.sleep(120)
    manifest = process_and_index_pdf(sys.argv[1], progress)
    print("built" if "Reading pages" in seen else "cached", manifest.doc_id, flush=True)
    """
)


def _child(args: list[str]) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, *args], cwd=PROJECT_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _temp_leftovers() -> tuple[list[str], list[str]]:
    """Build folders in progress, and collections no manifest names (unfinished or replaced builds)."""
    destination = get_settings().destination_dir
    folders = [p.name for p in destination.glob(".tmp-*")]
    folders += [f"{p.parent.name}/{p.name}" for p in destination.glob(f"*/{catalog.BUILD_PREFIX}*")
                if catalog.get_pdf_output_dirs(p.parent.name).build_dir != p]
    current = {m.collection or m.doc_id for m in catalog.list_processed_pdfs()}
    collections = [n for n in vector_store.list_collection_names() if n not in current]
    return folders, collections


def test_exception_midway_leaves_nothing(monkeypatch):
    path = make_text_pdf(get_settings().source_dir / "crash.pdf", PAGES)
    import storage.documents.bm25

    def explode(*args, **kwargs):
        raise RuntimeError("disk full")

    # Unexpected failures reach callers (CLI, /ingest, the Documents page) as a sentence naming the file.
    with monkeypatch.context() as patched, pytest.raises(catalog.PdfProcessingError, match=r"crash.pdf: could not be processed \(RuntimeError: disk full\)"):
        patched.setattr(storage.documents.bm25, "build_bm25_index", explode)
        ingest.process_and_index_pdf(path)
    doc_id = intake.compute_doc_id(path)
    assert not catalog.check_pdf_processed(doc_id)
    assert not catalog.get_pdf_output_dirs(doc_id).root.exists()
    assert _temp_leftovers() == ([], [])

    assert ingest.process_and_index_pdf(path).doc_id == doc_id
    assert catalog.check_pdf_processed(doc_id)


def test_killed_process_leaves_nothing_accepted_and_next_run_recovers(tmp_path):
    path = make_text_pdf(get_settings().source_dir / "killed.pdf", PAGES)
    stalled = tmp_path / "stalled"
    child = _child([str(path), str(stalled)])
    deadline = time.time() + 120
    while not stalled.exists():
        assert child.poll() is None, child.stderr.read()
        assert time.time() < deadline, "child never reached the indexing stage"
        time.sleep(0.1)
    child.send_signal(signal.SIGKILL)
    child.wait()

    doc_id = intake.compute_doc_id(path)
    assert not catalog.check_pdf_processed(doc_id)
    folders, collections = _temp_leftovers()
    assert folders and collections  # the kill really happened mid-build

    manifest = ingest.process_and_index_pdf(path)
    assert catalog.check_pdf_processed(doc_id) and manifest.doc_id == doc_id
    assert _temp_leftovers() == ([], [])
    assert vector_store.get_collection(doc_id).count() == manifest.chunk_count


def test_two_processes_ingesting_at_once_build_one_artifact_set():
    path = make_text_pdf(get_settings().source_dir / "race.pdf", PAGES)
    children = [_child([str(path)]) for _ in range(2)]
    outputs = []
    for child in children:
        out, err = child.communicate(timeout=180)
        assert child.returncode == 0, err
        outputs.append(out.split())
    assert sorted(o[0] for o in outputs) == ["built", "cached"]
    assert outputs[0][1] == outputs[1][1]
    doc_id = outputs[0][1]
    assert [m.doc_id for m in catalog.list_processed_pdfs()] == [doc_id]
    assert vector_store.get_collection(doc_id).count() == catalog.load_manifest(doc_id).chunk_count


@pytest.fixture
def chroma_server(tmp_path, monkeypatch):
    chroma = Path(sys.executable).with_name("chroma")
    port = free_port()
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False"}
    server = subprocess.Popen(
        [str(chroma), "run", "--path", str(tmp_path / "chroma-server"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    deadline = time.time() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert server.poll() is None, "chroma server exited"
            assert time.time() < deadline, "chroma server did not start"
            time.sleep(0.2)
    monkeypatch.setenv("CHROMA_HOST", "127.0.0.1")
    monkeypatch.setenv("CHROMA_PORT", str(port))
    yield port
    server.terminate()
    server.wait(timeout=30)


def test_ingest_and_query_against_a_chroma_server(chroma_server):
    path = make_text_pdf(
        get_settings().source_dir / "served.pdf",
        ["Cash and equivalents were 900 million.", "The board approved a buyback of 2 billion dollars."],
    )
    manifest = ingest.process_and_index_pdf(path)
    client = vector_store.get_chroma_client()
    assert type(client).__name__ != "PersistentClient" and not get_settings().chroma_dir.exists()
    assert catalog.check_pdf_processed(manifest.doc_id)
    collection = vector_store.get_collection(manifest.doc_id)
    assert collection.count() == manifest.chunk_count
    hit = collection.query(query_embeddings=[get_embedder().embed(["share buyback"])[0].tolist()], n_results=1)
    assert hit["metadatas"][0][0]["page_number"] == 1
    maintenance.delete_pdf(manifest.doc_id)
    assert not vector_store.collection_exists(manifest.doc_id)


def test_sweep_leaves_other_documents_in_progress_alone():
    path = make_text_pdf(get_settings().source_dir / "a.pdf", PAGES[:2])
    doc_id = intake.compute_doc_id(path)
    destination = get_settings().destination_dir
    # Another PDF whose doc_id starts with this one's, mid-build (its lock is held), and a real
    # leftover of ours.
    other_id = f"{doc_id}-b-222222222222"
    others = destination / f".tmp-{other_id}-0a1b2c3d"
    ours = destination / f".tmp-{doc_id}-0a1b2c3d"
    others.mkdir()
    ours.mkdir()
    with FileLock(str(destination / ".locks" / f"{other_id}.lock")):
        ingest.process_and_index_pdf(path)
        assert others.exists() and not ours.exists()
    assert maintenance.sweep_all_leftovers() >= 1  # once that build is over (here: abandoned), it is swept
    assert not others.exists() and catalog.check_pdf_processed(doc_id)
