"""Split extracted page texts into retrievable chunks that never silently cross a page.

PyMuPDF's text layer of a financial table comes out one cell per line::

    Total revenues
    66,608
    62,286

so a table *row* is a label line followed by value lines. We first turn each page into
"units" (a prose line, or a whole table row with its cells joined by spaces), then pack units
greedily into chunks of about `max_chars`, never splitting a unit (a row longer than a chunk
is cut only as a last resort) and carrying the last ~`overlap_chars` of units into the next
chunk so a fact on a boundary is retrievable from either side. A chunk holding table rows whose
period header is not in it starts with that header ("Columns: December 31, 2018 | December 31,
2017"), so each number still says which period it belongs to (storage/documents/tables.py). The header
line comes on top of `max_chars` (packing pages into smaller chunks to make room for it moved
an evidence page down the ranking: dev single-filing page_hit@5 .821 instead of .857, measured
with bench/answers.py) and stays out of the embedded text, so the dense vectors see what they
saw before; BM25, the model and people read it.

Chunks are made per page, so `page_end == page_number` always; `chunk_id` runs 0..n-1 in
reading order across the whole PDF.
"""

from __future__ import annotations

import re

from storage.documents import tables
from storage.schema import Chunk, ChunkType, PageContent
from storage.documents.tables import Unit

MAX_CHARS = 1000
OVERLAP_CHARS = 200
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+")


def page_units(text: str) -> list[Unit]:
    """A page's text as prose lines and table rows, rows carrying their period header
    (storage/documents/tables.py)."""
    return tables.page_units(text, MAX_CHARS)


def _split_long(unit: Unit, max_chars: int) -> list[Unit]:
    """Cut a unit longer than a chunk at sentence ends, then at spaces."""
    if len(unit.text) <= max_chars:
        return [unit]
    pieces: list[str] = []
    current = ""
    for sentence in _SENTENCE_END.split(unit.text):
        while len(sentence) > max_chars:
            # cut within the room `current` leaves, so that no piece exceeds max_chars
            room = max_chars - len(current) - 1 if current else max_chars
            cut = sentence.rfind(" ", 0, room) if room > 0 else -1
            if cut <= room // 2:
                if current:  # no good cut in what is left: start a fresh piece
                    pieces.append(current)
                    current = ""
                    continue
                cut = max_chars
            pieces.append(f"{current} {sentence[:cut]}".strip())
            current, sentence = "", sentence[cut:].strip()
        if current and len(current) + 1 + len(sentence) > max_chars:
            pieces.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}".strip()
    if current:
        pieces.append(current)
    return [Unit(p, unit.is_table_row) for p in pieces]


def pack_units(units: list[Unit], max_chars: int = MAX_CHARS, overlap_chars: int = OVERLAP_CHARS) -> list[list[Unit]]:
    """Greedy packing of whole units into groups of at most ~max_chars, with unit-level overlap."""
    flat = [piece for unit in units for piece in _split_long(unit, max_chars)]
    groups: list[list[Unit]] = []
    current: list[Unit] = []
    size = 0
    fresh = 0  # units in `current` not already emitted in the previous chunk
    for unit in flat:
        if current and size + len(unit.text) + 1 > max_chars and fresh:
            groups.append(current)
            # overlap: carry trailing units worth <= overlap_chars into the next chunk
            carry: list[Unit] = []
            carried = 0
            for prev in reversed(current):
                if carried + len(prev.text) > overlap_chars:
                    break
                carry.insert(0, prev)
                carried += len(prev.text) + 1
            current, size, fresh = carry, carried, 0
        current.append(unit)
        size += len(unit.text) + 1
        fresh += 1
    if current and fresh:
        groups.append(current)
    return groups


def _chunk_type(group: list[Unit], is_ocr: bool) -> ChunkType:
    if is_ocr:
        return "page_ocr"
    table_chars = sum(len(u.text) for u in group if u.is_table_row)
    total = sum(len(u.text) for u in group) or 1
    return "table" if table_chars / total >= 0.5 else "text"


def _with_headers(group: list[Unit]) -> list[str]:
    """The group's lines, each table header the group's rows need but lack put before its first row."""
    present = {u.header for u in group if u.is_header}
    lines: list[str] = []
    for unit in group:
        if unit.is_table_row and not unit.is_header and unit.header is not None and unit.header not in present:
            lines.append(unit.header.line())
            present.add(unit.header)
        lines.append(unit.text)
    return lines


def chunk_pages(
    pages: list[PageContent],
    source_file: str,
    doc_id: str,
    max_chars: int = MAX_CHARS,
    overlap_chars: int = OVERLAP_CHARS,
) -> list[Chunk]:
    """Chunks of every page in reading order; `chunk_id` 0..n-1; a chunk never spans pages."""
    chunks: list[Chunk] = []
    for page in sorted(pages, key=lambda p: p.page_number):
        units = page_units(page.text)
        for group in pack_units(units, max_chars, overlap_chars):
            chunks.append(
                Chunk(
                    chunk_id=len(chunks),
                    text="\n".join(_with_headers(group)),
                    source_file=source_file,
                    doc_id=doc_id,
                    page_number=page.page_number,
                    page_end=page.page_number,
                    chunk_type=_chunk_type(group, page.is_ocr),
                )
            )
    return chunks


def embedding_text(chunk: Chunk, title: str | None = None) -> str:
    """The text embedded for a chunk (what the dense index sees).

    `title` is accepted so a contextual prefix can be switched on, but it is not used: on the
    FinanceBench dev slice a document-title prefix did not improve page hits (see bench/retrieval.py),
    and all-MiniLM-L6-v2 truncates at 256 tokens, so a prefix pushes table rows out of the window.
    """
    # the "Columns: ..." header line is for reading (people, models, BM25), not for the dense vector
    return "\n".join(line for line in chunk.text.splitlines() if not line.startswith(tables.HEADER_PREFIX))
