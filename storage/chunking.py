"""Split extracted page texts into retrievable chunks that never silently cross a page.

PyMuPDF's text layer of a financial table comes out one cell per line::

    Total revenues
    66,608
    62,286

so a table *row* is a label line followed by value lines. We first turn each page into
"units" (a prose line, or a whole table row with its cells joined by spaces), then pack units
greedily into chunks of about `max_chars`, never splitting a unit (a row longer than a chunk
is cut only as a last resort) and carrying the last ~`overlap_chars` of units into the next
chunk so a fact on a boundary is retrievable from either side.

Chunks are made per page, so `page_end == page_number` always; `chunk_id` runs 0..n-1 in
reading order across the whole PDF.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from storage.schema import Chunk, ChunkType, PageContent

MAX_CHARS = 1000
OVERLAP_CHARS = 200
_MAX_CELL_CHARS = 24

# A table value cell: digits with money/percent/sign punctuation ("$55,893", "(4,187)", "12.5%",
# "($8.30)"), or a dash/"n/a"/"NM" placeholder. Anything with letters (other than those) is prose.
_VALUE_CELL = re.compile(
    r"^(?:\(?[-–—]?\$?\s*\(?\d[\d,]*(?:\.\d+)?\)?\s*%?\)?\*?|[-–—]+|\$|%|n/?a|nm)$", re.IGNORECASE
)
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+")


@dataclass
class _Unit:
    text: str
    is_table_row: bool


def _is_value_cell(line: str) -> bool:
    return len(line) <= _MAX_CELL_CHARS and bool(_VALUE_CELL.match(line))


def _clean(line: str) -> str:
    return " ".join(line.replace("\xa0", " ").split())


def page_units(text: str) -> list[_Unit]:
    """A page's text as prose lines and table rows (label + its value cells on one line)."""
    lines = [_clean(line) for line in text.splitlines()]
    lines = [line for line in lines if line]
    units: list[_Unit] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        j = i + 1
        while j < len(lines) and _is_value_cell(lines[j]):
            j += 1
        if j > i + 1 or _is_value_cell(line):
            # label (or a bare value line) followed by value cells: one row
            units.append(_Unit(" ".join(lines[i:j]), True))
        else:
            units.append(_Unit(line, False))
        i = j
    return _merge_value_only_rows(units)


def _merge_value_only_rows(units: list[_Unit]) -> list[_Unit]:
    """Rows made only of values (a subtotal without a label) join the row before them."""
    merged: list[_Unit] = []
    for unit in units:
        if (
            unit.is_table_row
            and merged
            and merged[-1].is_table_row
            and all(_is_value_cell(cell) for cell in unit.text.split(" "))
            and len(merged[-1].text) + len(unit.text) < MAX_CHARS // 2
        ):
            merged[-1] = _Unit(merged[-1].text + " | " + unit.text, True)
        else:
            merged.append(unit)
    return merged


def _split_long(unit: _Unit, max_chars: int) -> list[_Unit]:
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
    return [_Unit(p, unit.is_table_row) for p in pieces]


def pack_units(units: list[_Unit], max_chars: int = MAX_CHARS, overlap_chars: int = OVERLAP_CHARS) -> list[list[_Unit]]:
    """Greedy packing of whole units into groups of at most ~max_chars, with unit-level overlap."""
    flat = [piece for unit in units for piece in _split_long(unit, max_chars)]
    groups: list[list[_Unit]] = []
    current: list[_Unit] = []
    size = 0
    fresh = 0  # units in `current` not already emitted in the previous chunk
    for unit in flat:
        if current and size + len(unit.text) + 1 > max_chars and fresh:
            groups.append(current)
            # overlap: carry trailing units worth <= overlap_chars into the next chunk
            carry: list[_Unit] = []
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


def _chunk_type(group: list[_Unit], is_ocr: bool) -> ChunkType:
    if is_ocr:
        return "page_ocr"
    table_chars = sum(len(u.text) for u in group if u.is_table_row)
    total = sum(len(u.text) for u in group) or 1
    return "table" if table_chars / total >= 0.5 else "text"


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
        for group in pack_units(page_units(page.text), max_chars, overlap_chars):
            chunks.append(
                Chunk(
                    chunk_id=len(chunks),
                    text="\n".join(u.text for u in group),
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
    return chunk.text
