"""The table rows printed on the cited pages, each with what answering needs to know about it: its
table's caption and unit, the line item its label prints, the statement its page is, its columns'
fiscal-year shift, and the retrieval rank of its source (rows of the cited passage first).

    rows = collect_rows(sources, page_text)      # Row(cells, source, rank, caption, unit_caption, ...)

Rows come from storage/documents/page_tables.py `table_units` -> storage/documents/tables.py `row_cells`;
agent/no_model/figure_rows.py picks the one that answers a question.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, replace
from datetime import date
from functools import lru_cache

from storage.finance import line_items
from storage.finance.forms import ANNUAL_FORMS
from storage.finance.periods import BARE_YEAR as _YEAR_VALUE, label_without_period
from storage.finance.scale import SCALE_WORDS, label_unit
from agent.no_model.figure_periods import AskedPeriod, FiscalShift, fiscal_shift, pick_cells
from agent.no_model.figure_words import figure_line, figure_value, scale_word
from storage.finance.line_items import LineItem
from agent.page_text import squash
from storage.documents.page_tables import is_primary_statement, page_entity, statement_entity, statement_kind, table_units
from storage.documents.tables import MAX_CAPTION_WORDS, Cell, Unit, percent_row, row_cells, table_captions
from agent.tuning import TUNING
from storage.documents import catalog
from storage.schema import Source

MAX_SOURCES = 6


def read_sources(sources: list[Source], max_sources: int = MAX_SOURCES, second_reading: bool = False) -> list[Source]:
    """The sources whose pages the figure path reads: the first `max_sources` document and page sources. The
    `second_reading` (agent/no_model/figures.py `figure_block`): the pages the statements tool brought (kind "page", at
    most agent/tools.py MAX_STATEMENT_PAGES), then the search's first passage of each of its first `max_sources` other
    pages: the tool's pages take no search page's place, nor does a page's second passage."""
    usable = [s for s in sources if s.source_id and s.kind in ("document", "page")]
    if not second_reading:
        return usable[:max_sources]
    tool_pages = [s for s in usable if s.kind == "page"]
    seen = {(s.doc_id, s.page_number) for s in tool_pages}
    searched: list[Source] = []
    for s in usable:
        if s.kind == "document" and (s.doc_id, s.page_number) not in seen and len(searched) < max_sources:
            seen.add((s.doc_id, s.page_number))
            searched.append(s)
    return tool_pages + searched


@dataclass
class Row:
    cells: list[Cell]
    source: Source
    rank: int
    caption: str  # the table's caption ("International Segment"), "" when none
    unit_caption: str  # "in millions, except per share data" (the cell's unit, else the page's caption above)
    table_has_dollar: bool
    item: LineItem | None  # the line item the label prints (storage/finance/line_items.py), None when unknown
    primary: bool = False  # printed on a primary statement page (its title: "Consolidated Balance Sheets")
    shift: FiscalShift | None = None  # its columns' fiscal-year shift (agent/no_model/figure_periods.py)
    entity: str = ""  # whose statement its page is, when printed above the title ("PG&E CORPORATION")
    statement: str = ""  # the primary statement its page is ("cash flows"), "" for other pages
    table: int = 0  # its table (rows of one table share it)
    intro: str = ""  # the sentence leading into its table ("The following table reconciles ...:"), "" when none
    label_elsewhere: bool = False  # its label is printed under another section of its page too ("Right-of-use assets")
    heading: str = ""  # the headings printed above its table, prose between ("Business Outlook"), "" when none

    def cells_for(self, period: AskedPeriod, prefer=None) -> list[Cell]:
        """The row's cells of the asked period (agent/no_model/figure_periods.py pick_cells)."""
        return pick_cells(self.cells, period, self.shift, prefer)

    @property
    def label(self) -> str:
        return self.cells[0].label

    @property
    def instant(self) -> bool | None:
        return line_items.is_instant(self.item)

    def line(self, cell: Cell, per_share: bool = False) -> str:
        """The cell's figure line (agent/no_model/figure_words.py), without its list bullet; `per_share`: the
        row is read as a per-share line whatever its label says (a reconciliation's per-share block)."""
        return figure_line(cell, self.source.source_id, self.unit_caption, self.table_has_dollar, self.instant,
                           per_share or bool(self.item and self.item.per_share))

    def value(self, cell: Cell) -> str:
        """The cell's value as its figure line says it ("$1.04 per share", "$52,417 million")."""
        return figure_value(cell, self.unit_caption, self.table_has_dollar, self.instant, bool(self.item and self.item.per_share))

    @property
    def context(self) -> str:
        """The words around the label that say whose or which figure it is: caption and section."""
        return f"{self.caption} {self.cells[0].section}".strip()


def collect_rows(sources: list[Source], page_text, max_sources: int = MAX_SOURCES,
                 second_reading: bool = False) -> list[Row]:
    """Every table row with cells on the pages of the sources read (`read_sources`; each printed row once, at its
    best rank)."""
    rows: list[Row] = []
    seen: set[tuple] = set()
    used = read_sources(sources, max_sources, second_reading)
    for rank, src in enumerate(used):
        text = page_text(src)
        if not text:
            continue
        passage = squash(src.text or "")
        units = table_units(src.doc_id, src.page_number, text)
        primary = is_primary_statement(text)
        entity = statement_entity(text) if primary else page_entity(text)
        kind = statement_kind(text) if primary else ""
        captions, intros, headings = table_captions(units), table_intros(units), table_headings(units)
        page_caption = ""
        dollar_tables: set[int] = {id(u.header) for u in units if u.is_table_row and u.header is not None and "$" in u.text}
        table, in_header, heading = 0, False, ""
        header_text = None  # the header text of the table's rows so far
        first = len(rows)
        wrapped = ""  # the line just above, when it is a row label wrapped onto the next line
        for unit in units:
            above, wrapped = wrapped, unit.text if not unit.is_table_row and not unit.is_header \
                and WRAPPED_LABEL.search(unit.text) else ""
            if unit.is_header and not in_header:
                table += 1  # a header block starts a table; its rows follow it
                heading, header_text = "", None
            in_header = unit.is_header
            if unit.is_table_row and unit.header is not None:
                if header_text is not None and unit.header.text != header_text:
                    # rows under another header that printed no header line (a maturity schedule dated by its
                    # caption sentence, after another table): another table
                    table += 1
                header_text = unit.header.text
            if not unit.is_table_row and not unit.is_header:
                # a long heading line the layout reader took for prose ("Diluted earnings per common share
                # attributable to ... shareholders:"): it still says what the rows under it are
                heading = unit.text if unit.text.rstrip().endswith(":") else heading
            if not unit.is_table_row and re.search(rf"\bin {SCALE_WORDS}\b", unit.text, re.I):
                page_caption = unit.text
            cells = _joined(row_cells(unit), above)
            key = (src.doc_id, src.page_number, table, unit.text)
            if not cells or key in seen or all(_YEAR_VALUE.match(c.value) for c in cells):
                continue  # a row of years is a header read as a row, not figures
            seen.add(key)
            # a row of the cited page outside the cited passage is still verifiable on the page
            # (the preview highlights it there), but the passage's own rows come first
            outside = squash(unit.text) not in passage
            header_caption = unit.header.text if scale_word(unit.header.text) else ""  # "ended May 31 (in millions):"
            rows.append(Row(cells, src, rank + TUNING.rows.outside_passage_ranks * outside, captions.get(id(unit.header), ""),
                            label_unit(cells[0].label) or cells[0].unit or header_caption or page_caption
                            or captions.get(id(unit.header), ""),
                            id(unit.header) in dollar_tables,
                            line_items.row_item(label_without_period(cells[0].label), cells[0].section or heading,
                                                percent_row(cells)),
                            primary, None, entity, kind,
                            hash((src.doc_id, src.page_number, table)), intros.get(id(unit.header), ""),
                            heading=headings.get(id(unit.header), "")))
        # the fiscal calendar is the page's: a table of an earlier year alone on it ("Year ended May 31,
        # 2022" under the 2023 one) is not shifted a year by its own latest column
        shift = fiscal_shift([c for r in rows[first:] for c in r.cells], *fiscal_period(src.doc_id),
                             year_end=fiscal_year_end(src.doc_id))
        labels = [line_items.normalize_label(r.label) for r in rows[first:]]
        sections = defaultdict(set)
        for r, label in zip(rows[first:], labels):
            sections[label].add(r.cells[0].section)
        bare_eps = line_items.bare_eps_rows([(r.table, r.label, r.cells[0].section) for r in rows[first:]])
        for k, (r, label) in enumerate(zip(rows[first:], labels)):
            r.shift = shift
            r.label_elsewhere = len(sections[label]) > 1
            if r.item is None and k in bare_eps:
                r.item = line_items.BY_CONCEPT["EarningsPerShareDiluted"]  # a release's "Earnings per share"
    return rows


# a line ending with a comma or a hyphen: a row label wrapped onto the next line
WRAPPED_LABEL = re.compile(r"[,\-–]\s*$")


def _joined(cells: list[Cell], above: str) -> list[Cell]:
    """A row whose own line names no line item ("Diluted 2,139 2,141") printed right under a line
    ending with a comma or hyphen that the reader took for its section ("Weighted Average Common
    Shares Outstanding,"): the label is both lines. Rows further down keep their own label."""
    if not cells or not above or cells[0].section.strip() != above.strip() \
            or line_items.row_item(cells[0].label, "", percent_row(cells)) is not None \
            or squash(above.rstrip(",-– ")) in squash(cells[0].label):  # joined by the reader already
        return cells
    joiner = "" if above.rstrip().endswith(("-", "–")) else " "
    label = f"{above.rstrip()}{joiner}{cells[0].label}"
    return [replace(c, label=label, section="") for c in cells]


@lru_cache(maxsize=256)
def fiscal_period(doc_id: str | None) -> tuple[int | None, int | None]:
    """The fiscal year and quarter a processed PDF covers (its DocumentInfo), None when unknown."""
    try:
        info = catalog.document_info(catalog.load_manifest(doc_id)) if doc_id else None
    except (OSError, ValueError):
        info = None
    return (info.fiscal_year, info.fiscal_quarter) if info else (None, None)


@lru_cache(maxsize=256)
def fiscal_year_end(doc_id: str | None) -> date | None:
    """The fiscal year end an annual filing reports on (its cover's period end), None for any other
    document or when unknown: the date its fiscal-year label (DocumentInfo.fiscal_year) names."""
    try:
        info = catalog.document_info(catalog.load_manifest(doc_id)) if doc_id else None
    except (OSError, ValueError):
        info = None
    if info is None or info.form not in ANNUAL_FORMS or info.fiscal_quarter or not info.period_end:
        return None
    try:
        return date.fromisoformat(info.period_end)
    except ValueError:
        return None


MAX_INTRO_LINES = 3
_SENTENCE_END = re.compile(r"(?<=[.;])\s+(?=[A-Z(])")


def last_sentence(lines: list[str]) -> str:
    """The last sentence of prose lines joined ("… in 2023. Future payments at June 30, 2024 were as follows:"
    -> its second sentence): a table's lead-in, read here and by due_years's caption above a schedule."""
    return _SENTENCE_END.split(" ".join(lines).strip())[-1]


def table_intros(units: list[Unit]) -> dict[int, str]:
    """id(table header) -> the sentence leading into its table: the prose just above the header
    ending with a colon ("The following table shows share-based compensation expense ... (in
    millions):"), its last sentence only, across a column-group line under it ("PG&E Corporation
    Utility") or its last words read as the header's first line ("2022:"); a table without one is absent."""
    intros: dict[int, str] = {}
    prose: list[str] = []
    for unit in units:
        if unit.is_header and unit.header is not None:
            lines = prose[-MAX_INTRO_LINES:] + [unit.text] * unit.text.rstrip().endswith(":")
            ends = [i for i, line in enumerate(lines) if line.rstrip().endswith(":")]
            if id(unit.header) not in intros and ends:
                intros[id(unit.header)] = last_sentence(lines[:ends[-1] + 1])
            prose = []
        elif unit.is_table_row:
            prose = []
        elif _heading(unit.text) and not (prose and prose[-1].rstrip().endswith(":")):
            prose = []  # a note's heading ("Asset Retirement Obligations") titles its tables, not one sentence
        else:
            prose.append(unit.text)
    return intros


def table_headings(units: list[Unit]) -> dict[int, str]:
    """id(table header) -> the headings printed above the table since the table before it, prose between them and
    the table or not ("Business Outlook" / "Intel's guidance for the first quarter ..." / the table), joined by " / ";
    a table without one is absent."""
    headings: dict[int, str] = {}
    above: list[str] = []  # the heading lines since the last table's rows
    rows = False
    for unit in units:
        if unit.header is not None and (unit.is_header or unit.is_table_row):  # (a header of titles only is no header line)
            if above:
                headings.setdefault(id(unit.header), " / ".join(above))
            rows = rows or unit.is_table_row
        elif not unit.is_table_row and not unit.is_header and _heading(unit.text):
            above = [unit.text.strip()] if rows else [*above, unit.text.strip()]
            rows = False
    return headings


def _heading(text: str) -> bool:
    """A short line ending without punctuation, starting with a capital: a heading, not a sentence's line
    (after a lead-in's colon, a column-group line: "PG&E Corporation Utility")."""
    words = text.split()
    return 0 < len(words) <= MAX_CAPTION_WORDS and text.rstrip()[-1] not in ".,;:" and text.lstrip()[0].isupper()
