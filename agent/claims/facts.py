"""The facts a cited page prints: each value cell of its tables with its row label, section, column period,
unit and the scale of its table's caption, and the page's prose lines (what is not a table row or header).

    facts, prose = page_facts(doc_id, page_index, page_text)     # the rows and facts stored with the build
    facts, prose = facts_of_units(units)                         # Units read any other way (tests: a PDF's words)

A value's scale and unit are the stored fact's (storage/documents/facts.py reads them once at ingestion:
the table's caption, else the caption above it on the page, else its section's, through
storage/finance/scale.py). Only what the stored facts do not know is read here: the row a value is on,
the page's prose lines, a row read without its columns (the years of its table's header), square feet
and people named by a section or caption, the currency a value or caption prints, and the scale of an
amount whose stored fact names no caption (`unknown_scale_caption`: the page's other tables', else the
statements', both as their stored facts carry them).
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache

from storage.documents import facts as stored_facts
from storage.documents.tables import Cell, Unit, row_cells, split_row
from storage.finance.periods import YEAR, YEAR_WORD as _YEAR
from storage.finance.scale import CENTS, PERCENT_LABEL, factor, find_caption, read_scale, unit_of
from storage.finance.scale import PEOPLE_WORDS as PEOPLE, SQUARE_FEET_WORDS as SQUARE_FEET
from storage.documents import page_tables
from storage.documents.catalog import load_manifest
from storage.schema import Fact as StoredFact

_NUMBER = re.compile(r"\(?-?\$?\s?(\d[\d,]*(?:\.\d+)?)\)?")


@dataclass(frozen=True)
class Fact:
    label: str  # the row label as printed
    section: str
    period: str  # the column's period label
    printed: str  # the value as printed: "$394,328", "(1,577)", "43.3%"
    magnitude: float  # the number as printed, unsigned: 394328.0
    scale: float  # the caption's scale for this row: 1e6; 1 for per-share rows and percentages
    negative: bool  # printed in parentheses or with a minus
    percent: bool
    unit: str  # "money", "percent", "people", "sqft", "shares"
    row: int  # the row's index among the page's units (cells of one row share it)
    currency: str = ""  # "$", "€", "£", "¥" from the value or its table's caption; "" when neither says
    years: frozenset[int] = field(default_factory=frozenset)

    @property
    def value(self) -> float:
        """Signed, in units: -1,577,000,000 for "(1,577)" in millions."""
        return (-1 if self.negative else 1) * self.magnitude * self.scale

    def says(self) -> str:
        return f"{self.label} ({self.period}): {self.printed}" if self.period else f"{self.label}: {self.printed}"


# a per-share measure named by a column's header ("EPS (Diluted US cents)") or a row's label in cents
_PER_SHARE = re.compile(r"(?i)\beps\b|\bper (?:common |ordinary |diluted |basic )?share\b")
_PER_SHARE_VALUE = re.compile(r"^\D*\d{1,3}\.\d{1,4}\D*$")  # "70.5", "(0.6)", "$1.25": no amount with thousands


def _unit(label: str, section: str, caption: str, printed: str, stored: str) -> str:
    """"percent", "people", "sqft", "shares" or "money": the stored fact's unit (`stored`, storage/finance/scale.py's
    `unit_of`: "%" also for a bare number under a "% Change" column), and the square feet and people a section or
    caption names ("Employees" over rows of countries)."""
    if "%" in printed or stored == "%" and not re.search(r"(?i)bps?\b|basis", printed) or PERCENT_LABEL.search(label):
        return "percent"
    if SQUARE_FEET.search(f"{section} {label} {caption}"):
        return "sqft"
    if stored == "people" or (stored != "shares" and PEOPLE.search(section)):
        return "people"
    return "shares" if stored == "shares" else "money"


_CURRENCIES = (("$", re.compile(r"\$|\bdollars?\b|\bUSD\b", re.I)), ("€", re.compile(r"€|\beuros?\b|\bEUR\b", re.I)),
               ("£", re.compile(r"£|\bpounds? sterling\b|\bGBP\b", re.I)), ("¥", re.compile(r"¥|\byen\b|\bJPY\b", re.I)))


def currency_of(text: str) -> str:
    """The currency a value or caption names ("$ 1,234", "(in millions of euros)"), "" when none."""
    found = [(m.start(), sym) for sym, rx in _CURRENCIES if (m := rx.search(text))]
    return min(found)[1] if found else ""


def facts_of_units(units: list[Unit], row_base: int = 0, stored: list[StoredFact] | None = None,
                   section_caption: str = "", unknown_scale: str = "") -> tuple[list[Fact], list[str]]:
    """(the value cells of the units' table rows as facts, the prose lines: not rows, not headers). Each cell's
    scale and unit are its stored fact's (`stored`: the page's facts as read at ingestion; None: read now by the
    same reader, storage/documents/facts.py `facts_of`, a table printing no caption taking `section_caption`);
    an amount whose stored fact names no caption is read at `unknown_scale` (`unknown_scale_caption`)."""
    if stored is None:
        stored = stored_facts.facts_of(0, units, section_caption)
    by_cell: dict[tuple[str, int, str], deque[StoredFact]] = {}
    for s in stored:
        by_cell.setdefault((s.label, s.column, s.value_text), deque()).append(s)
    facts: list[Fact] = []
    prose: list[str] = []
    caption = next((s.scale_caption for s in stored if s.scale_caption), "")  # the caption a row above stands under
    header = None  # the last table header above: its years name the columns of a row read without them
    for i, unit in enumerate(units):
        if unit.header is not None:
            header = unit.header
        elif not unit.is_table_row and not unit.is_header and _TITLE.match(unit.text):
            header = None  # a new note or statement: the header above is another table's
        cells = row_cells(unit) if unit.is_table_row else []
        if not cells and unit.is_table_row and not unit.is_header and " | " not in unit.text:
            label, values = split_row(unit.text)  # a row read without its columns: no stored fact has it
            if label:
                periods = _year_columns(header, len(values))
                cells = [Cell(label, periods[k], v, unit.text, None, -1 - k, unit.section, unit.unit)
                         for k, v in enumerate(values)]
        if not cells:
            if not unit.is_header and not unit.is_table_row:
                prose.append(unit.text)
                if find_caption(unit.text):  # a caption line: the rows below it read without columns are in it
                    caption = unit.text
            continue
        if re.search(r"\d", cells[0].label):  # a label printing an amount: "Dividends declared ($5.86 per share)"
            prose.append(cells[0].label)
        for cell in cells:
            m = _NUMBER.search(cell.value)
            if not m:
                continue
            printed = cell.value.strip()
            same = by_cell.get((cell.label, cell.column, cell.value))
            if same:
                fact = same.popleft()
                scale, unit_name, own = fact.scale, fact.unit, fact.scale_caption
                caption = own or caption
                if not own and unknown_scale:  # the facts do not know its scale: the page's or the statements'
                    own = unknown_scale  # read as the facts reader reads a row under that caption
                    unit_name = unit_name if unit_name == "%" else unit_of(cell.label, printed, own, cell.section)
                    scale = factor(unit_name, read_scale(own))
            else:  # read as the stored facts are, at the caption of its table or of the rows above it
                own = caption = cell.unit or caption
                own = own or unknown_scale
                unit_name = unit_of(cell.label, printed, own, cell.section)
                scale = factor(unit_name, read_scale(own) if own else None)
            kind = _unit(cell.label, cell.section, own, printed, unit_name)
            if kind == "money" and _PER_SHARE_VALUE.match(printed) and (
                    _PER_SHARE.search(cell.period) or _PER_SHARE.search(cell.label) and CENTS.search(cell.label)):
                # a per-share value the stored facts read at its table's millions: as printed, cents as hundredths
                cents = CENTS.search(f"{cell.label} {cell.period}")
                scale = 0.01 if cents else 1.0 if scale > 1 else scale
            facts.append(Fact(
                label=cell.label, section=cell.section, period=cell.period, printed=printed,
                magnitude=float(m.group(1).replace(",", "")), scale=scale,
                negative=printed.startswith("(") or printed.lstrip("$ ").startswith(("-", "−")), percent=kind == "percent",
                unit=kind, row=row_base + i, currency=currency_of(f"{printed} {own}"),
                years=column_years(cell.period)))
    return facts, prose


# a column header read with the title over it: "Nine Months Ended September 30, 2022" over "2022 2021"
_STACKED_YEARS = re.compile(rf"\b{YEAR}\s+({YEAR})\s*$")


@lru_cache(maxsize=4096)
def column_years(period: str) -> frozenset[int]:
    """The years a column's period names; of a stacked header ending in two years, the column's own year is the
    last (the title's year over it names the table, not this column)."""
    if m := _STACKED_YEARS.search(period):
        return frozenset({int(m.group(1))})
    return frozenset(int(y) for y in _YEAR.findall(period))


_TITLE = re.compile(r"^\s*(?:note\s+)?\d{1,2}\.\s+[A-Z]|^[A-Z][A-Z ,&'’-]{12,}$")  # "7. NOTES PAYABLE", "CONSOLIDATED BALANCE SHEETS"


def _year_columns(header, count: int) -> list[str]:
    """The periods of a row's `count` values read without columns: the years the table's header prints, in
    order, when there are as many (each year as its first column says it); else no period."""
    if header is None:
        return [""] * count
    first: dict[int, str] = {}
    for column in header.columns:
        years = _YEAR.findall(column)
        if len(years) == 1:
            first.setdefault(int(years[0]), column)
    return list(first.values()) if len(first) == count else [""] * count


def page_facts(doc_id: str, page_index: int, text: str | None) -> tuple[list[Fact], list[str]]:
    """The facts and prose lines of a cited page (its rows read by storage/documents/page_tables.py, each value's
    scale and unit as stored with the build), read once per build of the filing (callers must not change the lists)."""
    try:
        build = load_manifest(doc_id).processed_at or ""
    except (OSError, ValueError):
        build = None  # not processed: read each time
    if build is None:
        return _read_page_facts(doc_id, page_index, text)
    return _cached_page_facts(doc_id, page_index, text, build)


def _read_page_facts(doc_id: str, page_index: int, text: str | None) -> tuple[list[Fact], list[str]]:
    units = page_tables.table_units(doc_id, page_index, text)
    try:
        stored = stored_facts.page_facts(doc_id, page_index) or None
    except (stored_facts.FactsMissing, OSError, ValueError):
        stored = None  # a build made before facts (page_tables warns): its rows read now, without their section
    unknown = unknown_scale_caption(doc_id, page_index, stored or [])
    return facts_of_units(units, row_base=page_index * 10_000, stored=stored, unknown_scale=unknown)


def unknown_scale_caption(doc_id: str, page_index: int, stored: list[StoredFact]) -> str:
    """The caption an amount is read at when its stored fact names none (the facts reader found no caption over
    its table, above it or in its section's heading): the one scale of amounts the page's other tables print
    (a caption printed under the first table, over the second), else, on a page after the filing's primary
    statements, the one scale they all print (a notes page printing no caption). "" when neither is one scale:
    an amount then stands as printed. Read from the stored facts only."""
    if caption := _one_scale(f.scale_caption for f in stored):
        return caption
    pages = page_tables.statement_pages(doc_id)
    if not pages or page_index <= pages[0]:
        return ""
    return _statements_scale(doc_id, tuple(pages))


def _one_scale(captions) -> str:
    said = {c: scale.word for c in captions if c and (scale := read_scale(c)) is not None and scale.word}
    return next(iter(said)) if len(set(said.values())) == 1 else ""


@lru_cache(maxsize=64)
def _statements_scale(doc_id: str, pages: tuple[int, ...]) -> str:
    try:
        captions = [_one_scale(f.scale_caption for f in stored_facts.page_facts(doc_id, p)) for p in pages]
    except (stored_facts.FactsMissing, OSError, ValueError):
        return ""
    named = [c for c in captions if c]
    return _one_scale(named) if len(named) >= 2 else ""


@lru_cache(maxsize=512)
def _cached_page_facts(doc_id: str, page_index: int, text: str | None, build: str) -> tuple[list[Fact], list[str]]:
    return _read_page_facts(doc_id, page_index, text)


def rows_of(facts: list[Fact]) -> dict[int, list[Fact]]:
    """row -> its facts (the columns of one printed row)."""
    out: dict[int, list[Fact]] = {}
    for f in facts:
        out.setdefault(f.row, []).append(f)
    return out
