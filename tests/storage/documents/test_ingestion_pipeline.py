"""process_and_index_pdf on real generated PDFs: artifacts, metadata, once-only, OCR, delete/re-index."""

from __future__ import annotations

import json

import pymupdf
import pytest

from storage.documents import catalog
from storage.documents import ingest
from storage.documents import maintenance
from storage.documents import vector_store
from storage.settings import get_settings
from storage.documents.embeddings import get_embedder
from tests.fixtures_pdfs import make_pdf_with_text_image, make_scanned_pdf, make_text_pdf

PAGES = [
    "Annual Report 2031\n\nNorthwind Traders had a strong year. Revenue rose to 4,512 million dollars.",
    "Segment results\n\nThe logistics segment earned 1,200 million. The retail segment earned 880 million.",
    "Risk factors\n\nCurrency swings and supplier concentration are the main risks for the coming year.",
]


def _source(name: str):
    return get_settings().source_dir / name


def test_text_pdf_artifacts_and_chunk_metadata():
    path = make_text_pdf(_source("northwind.pdf"), PAGES, title="Northwind Annual Report")
    stages = []
    manifest = ingest.process_and_index_pdf(path, progress=lambda s, d, t: stages.append((s, d, t)))

    assert manifest.doc_id.startswith("northwind-") and len(manifest.doc_id) == len("northwind-") + 12
    assert manifest.page_count == 3 and manifest.chunk_count >= 3
    assert manifest.title == "Northwind Annual Report"
    assert "Northwind Annual Report" in manifest.summary and "3 pages" in manifest.summary
    assert catalog.check_pdf_processed(manifest.doc_id)

    dirs = catalog.get_pdf_output_dirs(manifest.doc_id)
    for artifact in (dirs.manifest_path, dirs.chunks_path, dirs.pages_path, dirs.bm25_path):
        assert artifact.exists(), artifact
    pages = catalog.load_page_texts(manifest.doc_id)
    chunks = catalog.load_chunks(manifest.doc_id)
    assert [c.chunk_id for c in chunks] == list(range(len(chunks)))
    for chunk in chunks:
        assert chunk.source_file == "northwind.pdf" and chunk.doc_id == manifest.doc_id
        assert chunk.chunk_type == "text"
        # The chunk's words really are on the page it claims (0-based).
        first_words = " ".join(chunk.text.split()[:4])
        assert first_words in " ".join(pages[chunk.page_number].split())
    assert any("4,512" in c.text and c.page_number == 0 for c in chunks)
    assert any("supplier concentration" in c.text and c.page_number == 2 for c in chunks)

    # Progress: pages reported one by one, ending in Done.
    reading = [(d, t) for s, d, t in stages if s == "Reading pages"]
    assert reading == [(1, 3), (2, 3), (3, 3)]
    assert stages[-1][0] == "Done"

    # Chroma holds one vector per chunk, and a query finds the right page.
    collection = vector_store.get_collection(manifest.doc_id)
    assert collection.count() == len(chunks)
    hit = collection.query(query_embeddings=[get_embedder().embed(["main risks currency supplier"])[0].tolist()], n_results=1)
    assert hit["metadatas"][0][0]["page_number"] == 2


def test_same_file_is_processed_once():
    path = make_text_pdf(_source("once.pdf"), PAGES)
    first = ingest.process_and_index_pdf(path)

    stages = []
    second = ingest.process_and_index_pdf("once.pdf", lambda stage, done, total: stages.append(stage))  # by name
    assert [s for s in stages if s not in ("Checking file", "Already processed")] == [], "processed twice"
    assert stages[-1] == "Already processed"
    assert second == first  # the same build (its id is random), not a rebuild


def test_artifacts_of_an_older_pipeline_are_rebuilt():
    path = make_text_pdf(_source("old.pdf"), PAGES)
    manifest = ingest.process_and_index_pdf(path)
    manifest_path = catalog.get_pdf_output_dirs(manifest.doc_id).manifest_path
    manifest_path.write_text(manifest.model_copy(update={"pipeline_version": catalog.PIPELINE_VERSION - 1}).model_dump_json())
    assert not catalog.check_pdf_processed(manifest.doc_id)
    assert catalog.list_processed_pdfs() == []
    rebuilt = ingest.process_and_index_pdf(path)
    assert rebuilt.pipeline_version == catalog.PIPELINE_VERSION and catalog.check_pdf_processed(manifest.doc_id)
    assert vector_store.get_collection(manifest.doc_id).count() == rebuilt.chunk_count


def test_different_file_with_same_name_gets_fresh_artifacts():
    path = make_text_pdf(_source("report.pdf"), ["Version one says the dividend is 10 cents."])
    old = ingest.process_and_index_pdf(path)
    make_text_pdf(path, ["Version two says the dividend is 25 cents."])
    new = ingest.process_and_index_pdf(path)
    assert new.doc_id != old.doc_id
    assert "25 cents" in catalog.load_chunks(new.doc_id)[0].text
    assert "10 cents" in catalog.load_chunks(old.doc_id)[0].text


def test_scanned_page_is_ocred():
    path = make_scanned_pdf(_source("scan.pdf"), ["Invoice 7731\nTotal due: 1,250 euros by March 3rd"])
    assert pymupdf.open(path)[0].get_text().strip() == ""  # really no text layer
    manifest = ingest.process_and_index_pdf(path)
    assert manifest.ocr_pages == [0]
    chunks = catalog.load_chunks(manifest.doc_id)
    text = " ".join(c.text for c in chunks)
    assert "Invoice 7731" in text and "1,250" in text
    assert all(c.chunk_type == "page_ocr" and c.page_number == 0 for c in chunks)


def test_text_in_embedded_image_becomes_image_ocr_chunk():
    path = make_pdf_with_text_image(
        _source("chart.pdf"),
        "Figure 1 shows the regional split of orders.",
        "Orders by region: North 410, South 290",
    )
    manifest = ingest.process_and_index_pdf(path)
    image_chunks = [c for c in catalog.load_chunks(manifest.doc_id) if c.chunk_type == "image_ocr"]
    assert len(image_chunks) == 1 and manifest.image_ocr_chunks == 1
    chunk = image_chunks[0]
    assert "North 410" in chunk.text and chunk.page_number == 0
    assert (catalog.get_pdf_output_dirs(manifest.doc_id).root / chunk.image_path).is_file()


def test_delete_and_reindex():
    path = make_text_pdf(_source("cycle.pdf"), PAGES)
    manifest = ingest.process_and_index_pdf(path)
    again = ingest.reindex_pdf(manifest.doc_id)
    assert again.doc_id == manifest.doc_id and catalog.check_pdf_processed(manifest.doc_id)
    assert vector_store.get_collection(manifest.doc_id).count() == again.chunk_count  # replaced, not doubled

    maintenance.delete_pdf(manifest.doc_id)
    assert not catalog.check_pdf_processed(manifest.doc_id)
    assert not catalog.get_pdf_output_dirs(manifest.doc_id).root.exists()
    assert not vector_store.collection_exists(manifest.doc_id)
    assert path.exists()  # the user's file stays
    assert catalog.list_processed_pdfs() == []


def test_list_processed_pdfs_reads_manifests():
    a = ingest.process_and_index_pdf(make_text_pdf(_source("b-second.pdf"), PAGES[:1]))
    b = ingest.process_and_index_pdf(make_text_pdf(_source("a-first.pdf"), PAGES[1:2]))
    assert [m.doc_id for m in catalog.list_processed_pdfs()] == [b.doc_id, a.doc_id]
    stored = json.loads(catalog.get_pdf_output_dirs(a.doc_id).manifest_path.read_text())
    assert stored["source_file"] == "b-second.pdf"


def test_list_ignores_builds_in_progress():
    manifest = ingest.process_and_index_pdf(make_text_pdf(_source("busy.pdf"), PAGES))
    seen = []

    def progress(stage, done, total):
        if stage in ("Indexing", ingest.SWAP_STAGE):  # the new build exists beside the current one
            seen.append(([m.doc_id for m in catalog.list_processed_pdfs()], catalog.check_pdf_processed(manifest.doc_id)))

    ingest.reindex_pdf(manifest.doc_id, progress)
    assert len(seen) >= 5 and all(s == ([manifest.doc_id], True) for s in seen)


@pytest.mark.parametrize("bad_id", ["../etc", "", "a/b", ".hidden"])
def test_output_dirs_refuse_bad_ids(bad_id):
    with pytest.raises(ValueError):
        catalog.get_pdf_output_dirs(bad_id)
