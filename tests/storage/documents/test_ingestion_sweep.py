"""Leftovers of any crashed build are swept once per process (not only when that same PDF is
ingested again), builds in progress in another process are left alone; messages carry no server paths."""

from __future__ import annotations

from filelock import FileLock

from storage.documents import catalog
from storage.documents import ingest
from storage.documents import intake
from storage.documents import maintenance
from storage.documents import vector_store
from storage.settings import get_settings
from tests.fixtures_pdfs import make_text_pdf


def _crash_leftovers(doc_id: str, build: str) -> None:
    """What a build killed mid-way leaves: its folder and its collection."""
    (get_settings().destination_dir / f".tmp-{doc_id}-{build}").mkdir()
    vector_store.get_chroma_client().create_collection(vector_store.build_collection_name(doc_id, build),
                                                       embedding_function=None)


def test_leftovers_of_other_pdfs_are_swept_once_per_process():
    a = ingest.process_and_index_pdf(make_text_pdf(get_settings().source_dir / "a.pdf", ["Alpha revenue was 5 million."]))
    orphan = "gone-0123456789ab"  # a PDF whose build crashed and that is never ingested again
    busy = "busy-0123456789ab"  # a PDF being built right now by another process
    _crash_leftovers(orphan, "0a1b2c3d")
    _crash_leftovers(a.doc_id, "1a2b3c4d")
    _crash_leftovers(busy, "2a3b4c5d")
    maintenance.forget_sweeps()  # as in a new process

    with FileLock(str(get_settings().destination_dir / ".locks" / f"{busy}.lock")):
        ingest.process_and_index_pdf(make_text_pdf(get_settings().source_dir / "b.pdf", ["Beta revenue was 7 million."]))
    destination = get_settings().destination_dir
    assert sorted(p.name for p in destination.glob(".tmp-*")) == [f".tmp-{busy}-2a3b4c5d"]
    assert sorted(vector_store.list_collection_names()) == sorted(
        [a.collection, catalog.load_manifest(intake.compute_doc_id(get_settings().source_dir / "b.pdf")).collection,
         vector_store.build_collection_name(busy, "2a3b4c5d")])
    assert catalog.check_pdf_processed(a.doc_id)


def test_messages_name_files_not_server_paths():
    error = catalog.PdfProcessingError("x.pdf", "is damaged: corrupt or unreadable (Failed to open file '/srv/app/pdf_files/source/x.pdf'.)")
    assert str(error) == "x.pdf: is damaged: corrupt or unreadable (Failed to open file 'x.pdf'.)"
    assert catalog.PdfProcessingError("x.pdf", "pages 3/4 and/or 5").reason == "pages 3/4 and/or 5"
