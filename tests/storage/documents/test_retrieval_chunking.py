"""Chunking: exact pages, reading order, table rows kept whole; BM25 tokenisation and storage."""

from __future__ import annotations

import pytest

from storage.documents.bm25 import build_bm25_index, load_bm25_index, tokenize
from storage.documents.chunking import chunk_pages, embedding_text
from storage.schema import PageContent

TABLE_PAGE = "\n".join(
    ["Consolidated Statements of Operations", "(Dollars in millions)", "2022", "2021", "2020"]
    + [line for i in range(40) for line in (f"Line item number {i}", f"${1000 + i:,}", f"({2000 + i:,})", "—")]
)


def _pages(*texts: str, ocr: set[int] = frozenset()) -> list[PageContent]:
    return [PageContent(page_number=i, text=t, is_ocr=i in ocr) for i, t in enumerate(texts)]


def test_chunks_keep_exact_pages_and_reading_order():
    pages = _pages(
        "alpha " * 400,  # long page: several chunks
        "",  # empty page: no chunk
        "beta gamma delta. " * 10,
        "scanned words from ocr",
        ocr={3},
    )
    chunks = chunk_pages(pages, "r.pdf", "r-1", max_chars=300, overlap_chars=50)
    assert [c.chunk_id for c in chunks] == list(range(len(chunks)))
    assert all(c.page_number == c.page_end for c in chunks)
    assert [c.page_number for c in chunks] == sorted(c.page_number for c in chunks)
    assert {c.page_number for c in chunks} == {0, 2, 3}
    for c in chunks:
        assert c.text.split()[0] in pages[c.page_number].text
        assert len(c.text) <= 300
        assert (c.source_file, c.doc_id) == ("r.pdf", "r-1")
    assert len([c for c in chunks if c.page_number == 0]) > 3
    assert [c.chunk_type for c in chunks if c.page_number == 3] == ["page_ocr"]


def test_table_rows_stay_whole_and_are_typed_table():
    chunks = chunk_pages(_pages(TABLE_PAGE), "t.pdf", "t-1", max_chars=400, overlap_chars=80)
    assert len(chunks) > 3
    for i in range(40):
        row = f"Line item number {i} ${1000 + i:,} ({2000 + i:,}) —"
        holders = [c for c in chunks if f"Line item number {i} " in c.text + " "]
        assert holders, f"row {i} missing"
        assert all(row in c.text.splitlines() for c in holders), f"row {i} was split"
    assert all(c.chunk_type == "table" for c in chunks)


def test_overlap_carries_boundary_text_into_next_chunk():
    lines = [f"Sentence number {i} talks about topic {i}." for i in range(60)]
    chunks = chunk_pages(_pages("\n".join(lines)), "o.pdf", "o-1", max_chars=300, overlap_chars=100)
    for before, after in zip(chunks, chunks[1:]):
        assert before.text.splitlines()[-1] in after.text.splitlines()


def test_embedding_text_is_the_chunk_text():
    chunk = chunk_pages(_pages("Revenue grew."), "e.pdf", "e-1")[0]
    assert "Revenue grew." in embedding_text(chunk, "Some title")


def test_tokenizer_is_number_aware():
    assert tokenize("$66,608") == tokenize("66608") == ["66608"]
    assert tokenize("(4,187)") == ["4187"]
    assert "2022" in tokenize("FY2022")
    assert tokenize("Boeing's revenues") == ["boeing", "revenue"]
    assert tokenize("What is the") == []


def test_bm25_roundtrip_on_disk_without_pickle(tmp_path):
    pages = _pages(
        "Total revenues were 66,608 million dollars.",
        "The company employs engineers in three plants.",
        "Cost of sales increased because of supply chain pressure.",
    )
    chunks = chunk_pages(pages, "b.pdf", "b-1")
    build_bm25_index(chunks, tmp_path / "bm25")
    assert not [p for p in (tmp_path / "bm25").iterdir() if p.suffix in {".pkl", ".pickle"}]
    index = load_bm25_index(tmp_path / "bm25")
    assert index.chunk_ids == [c.chunk_id for c in chunks]
    scores = index.scores("revenues $66,608")
    assert int(scores.argmax()) == 0 and scores[1] == 0
    assert index.scores("zzz unknownword").max() == 0


def test_loading_a_missing_bm25_index_fails_clearly(tmp_path):
    with pytest.raises(FileNotFoundError, match="No BM25 index"):
        load_bm25_index(tmp_path / "nothing")


def test_long_line_after_a_sentence_is_cut_within_max_chars():
    """A line with no newlines (some text layers) holding a short sentence and then a sentence
    longer than a chunk: every chunk stays within max_chars and no word is lost."""
    text = "Short one. " + " ".join(f"word{i}" for i in range(200))
    chunks = chunk_pages(_pages(text), "l.pdf", "l-1", max_chars=300, overlap_chars=0)
    assert all(len(c.text) <= 300 for c in chunks)
    assert " ".join(c.text for c in chunks).split() == text.split()
