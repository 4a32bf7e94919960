"""Re-index builds beside, swaps, then drops: a crash or kill -9 at any step of the swap leaves the
PDF listed and searchable, and the next run sweeps what was left over."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from storage.documents import catalog
from storage.documents import ingest
from storage.documents import maintenance
from storage.retrieval import hybrid
from storage.documents import vector_store
from storage.settings import PROJECT_ROOT, get_settings
from storage.retrieval.hybrid import HybridRetriever
from tests.fixtures_pdfs import make_text_pdf

PAGES = [
    "The board approved a share buyback of 2 billion dollars in March.",
    "Cash and equivalents were 900 million dollars at year end.",
    "The logistics segment earned 1,200 million on strong freight volumes.",
]

# Runs in a child process: re-index argv[1]; stall (to be killed) when the swap reaches step argv[3].
CHILD = textwrap.dedent(
    """
    import sys, time, pathlib
    from storage.documents.ingest import SWAP_STAGE, reindex_pdf
    stall_file, stall_at = pathlib.Path(sys.argv[2]), int(sys.argv[3])
    def progress(stage, done, total):
        if stage == SWAP_STAGE and done == stall_at:
            stall_file.write_text(str(total))
            time.sleep(120)
    reindex_pdf(sys.argv[1], progress)
    print("finished without stalling", flush=True)
    """
)



def _leftovers(doc_id: str) -> list[str]:
    """Everything of this PDF that its manifest does not name."""
    destination = get_settings().destination_dir
    dirs = catalog.get_pdf_output_dirs(doc_id)
    found = [p.name for p in destination.glob(f".tmp-{doc_id}-*")]
    found += [p.name for p in dirs.root.iterdir() if p.name not in {"manifest.json", dirs.build_dir.name}]
    current = catalog.load_manifest(doc_id).collection
    found += [n for n in vector_store.list_collection_names() if n != current]
    return found


def _assert_listed_and_searchable(doc_id: str) -> None:
    assert [m.doc_id for m in catalog.list_processed_pdfs()] == [doc_id]
    assert catalog.check_pdf_processed(doc_id)
    hybrid.clear_loaded_indexes()  # load from disk and Chroma, as a fresh process would
    hits = HybridRetriever([doc_id], use_cache=False).search("How large was the share buyback?", k=2)
    assert hits and "buyback of 2 billion" in hits[0].chunk.text


@pytest.mark.parametrize("step", [1, 2, 3, 4])
def test_kill_between_swap_steps_keeps_the_pdf_searchable(tmp_path, step):
    path = make_text_pdf(get_settings().source_dir / "swap.pdf", PAGES)
    doc_id = ingest.process_and_index_pdf(path).doc_id
    stalled = tmp_path / "stalled"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, doc_id, str(stalled), str(step)],
        cwd=PROJECT_ROOT, env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.time() + 180
    while not stalled.exists():
        if child.poll() is not None:
            pytest.fail(f"the re-index never reached swap step {step}: {child.stdout.read()} {child.stderr.read()[-2000:]}")
        assert time.time() < deadline, "the re-index did not reach the swap"
        time.sleep(0.1)
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert int(stalled.read_text()) > step  # killed between two steps, not after the last one

    _assert_listed_and_searchable(doc_id)

    # Recovery: the next run's sweep (once per process, here called directly) drops what the
    # killed re-index left, and the PDF is still searchable.
    maintenance.sweep_all_leftovers()
    assert _leftovers(doc_id) == []
    _assert_listed_and_searchable(doc_id)


def test_crash_right_after_dropping_the_old_collection_keeps_the_new_one(monkeypatch):
    """In-process variant of a crash: the first collection drop is followed by a crash (SystemExit
    escapes every handler). Dropping must only ever happen after the new build is current."""
    path = make_text_pdf(get_settings().source_dir / "swap.pdf", PAGES)
    doc_id = ingest.process_and_index_pdf(path).doc_id
    real_delete = vector_store.delete_collection_if_exists

    def delete_then_crash(name):
        real_delete(name)
        raise SystemExit("killed")

    with monkeypatch.context() as patched, pytest.raises(SystemExit):
        patched.setattr(vector_store, "delete_collection_if_exists", delete_then_crash)
        ingest.reindex_pdf(doc_id)
    _assert_listed_and_searchable(doc_id)


def test_reindex_replaces_and_drops_the_previous_build():
    path = make_text_pdf(get_settings().source_dir / "swap.pdf", PAGES)
    first = ingest.process_and_index_pdf(path)
    second = ingest.reindex_pdf(first.doc_id)
    assert second.build != first.build and second.collection != first.collection
    assert not vector_store.collection_exists(first.collection)
    assert not (catalog.get_pdf_output_dirs(first.doc_id).root / f"{catalog.BUILD_PREFIX}{first.build}").exists()
    assert _leftovers(first.doc_id) == []
    _assert_listed_and_searchable(first.doc_id)


def test_a_pdf_processed_before_builds_were_versioned_still_works_and_reindexes(monkeypatch):
    """Old layout: artifacts directly in <doc_id>/ and a collection named <doc_id>."""
    path = make_text_pdf(get_settings().source_dir / "old.pdf", PAGES)
    manifest = ingest.process_and_index_pdf(path)
    root = catalog.get_pdf_output_dirs(manifest.doc_id).root
    build_dir = root / f"{catalog.BUILD_PREFIX}{manifest.build}"
    for entry in build_dir.iterdir():
        os.replace(entry, root / entry.name)
    build_dir.rmdir()
    vector_store.get_chroma_client().get_collection(manifest.collection).modify(name=manifest.doc_id)
    old = manifest.model_copy(update={"build": "", "collection": ""})
    (root / "manifest.json").write_text(old.model_dump_json())

    _assert_listed_and_searchable(manifest.doc_id)
    maintenance.sweep_all_leftovers()  # the old layout is not mistaken for leftovers
    _assert_listed_and_searchable(manifest.doc_id)

    again = ingest.reindex_pdf(manifest.doc_id)
    assert again.build and not (root / "text_chunks.json").exists()
    assert not vector_store.collection_exists(manifest.doc_id)
    _assert_listed_and_searchable(manifest.doc_id)
