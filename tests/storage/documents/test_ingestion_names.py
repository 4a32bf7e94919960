"""Names from users: any file name gives a valid Chroma collection; upload names are made safe
(shortened keeping `.pdf`, unique) or refused with a sentence (NUL); existing doc_ids do not change."""

from __future__ import annotations

import ipaddress
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage.documents import catalog
from storage.documents import ingest
from storage.documents import intake
from storage.documents import vector_store
from storage.settings import get_settings
from storage.retrieval.hybrid import HybridRetriever
from tests.fixtures_pdfs import make_encrypted_pdf, make_text_pdf

TEXT = ["Net sales were 4,512 million dollars in fiscal 2023, and the dividend rose to 0.80 per share."]


def chroma_accepts(name: str) -> bool:
    """Chroma 1.5's rules (its error message): 3-512 chars of [a-zA-Z0-9._-], alphanumeric at both
    ends, no "..", not an IPv4 address."""
    try:
        ipaddress.IPv4Address(name)
        return False
    except ValueError:
        pass
    return bool(re.fullmatch(r"[a-zA-Z0-9][a-zA-Z0-9._-]{1,510}[a-zA-Z0-9]", name)) and ".." not in name



@pytest.mark.parametrize("name", [
    "financials..2023.pdf",
    "Q1...Q2 results.pdf",
    "Bericht über 2023 — «final» 年度报告.pdf",
    "\"John's\" report (final).pdf",
    "1.2.3.4.pdf",
    "..pdf",
    "a" * 240 + ".pdf",
])
def test_any_file_name_can_be_processed_and_searched(name):
    path = make_text_pdf(get_settings().source_dir / name, TEXT)
    manifest = ingest.process_and_index_pdf(path)
    assert manifest.source_file == name
    assert chroma_accepts(manifest.collection) and catalog.check_pdf_processed(manifest.doc_id)
    hits = HybridRetriever([manifest.doc_id], use_cache=False).search("What were net sales?", k=1)
    assert "4,512 million" in hits[0].chunk.text


def test_existing_doc_ids_do_not_change():
    """doc_ids name the folders of PDFs already processed: only names with ".." (which never
    processed) get a different one."""
    sha = "0123456789abcdef" * 4
    for name, expected in (("report 2023.pdf", "report-2023"), ("10-K_FY22 (final).pdf", "10-K_FY22-final"),
                           ("über.pdf", "ber"), ("v1.2.pdf", "v1.2"), ("financials..2023.pdf", "financials.2023")):
        assert intake.compute_doc_id(get_settings().source_dir / name, sha) == f"{expected}-0123456789ab"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=700))
def test_collection_names_are_always_valid(raw):
    assert chroma_accepts(vector_store.safe_collection_name(raw))
    assert chroma_accepts(vector_store.build_collection_name(raw, "0a1b2c3d"))


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300))
def test_doc_ids_from_any_file_name_are_valid(stem):
    doc_id = intake.compute_doc_id(get_settings().source_dir / f"{stem}.pdf", "ab" * 32)
    catalog.get_pdf_output_dirs(doc_id)  # raises for an invalid id
    assert chroma_accepts(vector_store.build_collection_name(doc_id, "0a1b2c3d"))


def test_upload_names_are_made_safe(tmp_path):
    data = make_text_pdf(tmp_path / "x.pdf", TEXT).read_bytes()
    other = make_text_pdf(tmp_path / "y.pdf", ["Another report entirely, about 7 widgets."]).read_bytes()
    source = get_settings().source_dir

    long_name = "Annual report " + "very " * 60 + "long.pdf"  # 322 characters
    saved = intake.save_uploaded_pdf(long_name, data)
    assert saved.parent == source and saved.name.endswith(".pdf") and saved.name.startswith("Annual report very")
    assert len(saved.name.encode()) <= intake.MAX_NAME_BYTES
    assert intake.save_uploaded_pdf(long_name, data) == saved  # the same upload again: the same file
    kept_apart = intake.save_uploaded_pdf(long_name, other)  # same shortened name, other bytes: unique
    assert kept_apart != saved and saved.read_bytes() == data

    wide = intake.save_uploaded_pdf("é" * 200 + ".pdf", data)  # 400 bytes in UTF-8
    assert len(wide.name.encode()) <= intake.MAX_NAME_BYTES and wide.name.endswith("é.pdf")
    assert intake.save_uploaded_pdf("..\\..\\windows\\evil.pdf", data).name == "evil.pdf"
    assert intake.save_uploaded_pdf("line\nbreak.pdf", data).name == "line_break.pdf"
    assert intake.save_uploaded_pdf(".hidden.pdf", data).name == "hidden.pdf"
    assert ingest.process_and_index_pdf(saved).source_file == saved.name

    with pytest.raises(catalog.PdfProcessingError, match="NUL character; rename the file"):
        intake.save_uploaded_pdf("bad\0name.pdf", data)


def test_unusable_uploads_never_reach_the_source_folder(tmp_path):
    encrypted = make_encrypted_pdf(tmp_path / "locked.pdf").read_bytes()
    with pytest.raises(catalog.PdfProcessingError, match="locked.pdf: is encrypted"):
        intake.save_uploaded_pdf("locked.pdf", encrypted)
    data = make_text_pdf(tmp_path / "t.pdf", TEXT).read_bytes()
    with pytest.raises(catalog.PdfProcessingError, match="cut.pdf: is damaged"):
        intake.save_uploaded_pdf("cut.pdf", data[: len(data) * 2 // 3])
    assert list(get_settings().source_dir.iterdir()) == []


def test_ingest_names_with_nul_or_too_long_reply_clearly():
    with pytest.raises(catalog.PdfProcessingError, match="NUL character"):
        intake.resolve_source_pdf("report\0.pdf")
    with pytest.raises(catalog.PdfProcessingError) as err:
        intake.resolve_source_pdf("x" * 300 + ".pdf")
    assert "no such file in the source folder" in str(err.value) or "cannot be opened" in str(err.value)
    with pytest.raises(catalog.PdfProcessingError) as err:
        intake.resolve_source_pdf("/etc/hostname")
    assert str(get_settings().source_dir) not in str(err.value)  # no server paths in messages
