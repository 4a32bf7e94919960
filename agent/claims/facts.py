"""The facts a cited page prints: each value cell of its tables with its row label, section, column period,
unit and the scale of its table's caption, and the page's prose lines (what is not a table row or header).

    facts, prose = page_facts(doc_id, page_index, page_text)     # storage/documents/page_tables.py rows
    facts, prose = facts_of_units(units)                         # Units read any other way (tests: a PDF's words)

A value's scale is its table caption's ("(Millions)", "In millions, except per share amounts"), read by
storage/finance/scale.py, the one reader (`read_scale`, `unit_of`, `factor`); per-share rows are as printed,
share counts at the caption's share scale.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from agent.claims.figures import caption_scale
from storage.documents.tables import Cell, Unit, row_cells, split_row
from storage.finance.periods import YEAR
from storage.finance.scale import Scale, factor, read_scale, unit_of
from storage.documents import page_tables
from storage.documents.catalog import load_manifest

_YEAR = re.compile(rf"\b{YEAR}\b")
PEOPLE = re.compile(r"(?i)\b(?:employees|people|persons|workers|staff|headcount|associates|team members|full[- ]time)\b")
SQUARE_FEET = re.compile(r"(?i)\bsquare (?:feet|foot|ft)\b|\bsq\.? ?ft\b|\bsf\b")
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


def row_scale(caption: str, label: str, section: str, printed: str, page_caption: str = "") -> float:
    """The scale of one row's values, read by storage/finance/scale.py (`unit_of`, `factor`): per-share amounts,
    percentages and ratios as printed, share counts at the caption's share scale, everything else at the scale of
    its table's caption, else the page's (1 when neither names one)."""
    scale = table_scale(caption, page_caption)
    return factor(unit_of(label, printed, scale.text if scale else "", section), scale)


def table_scale(caption: str, page_caption: str = "") -> Scale | None:
    """The scale of a table: its own caption's, else the page's; a caption naming only a share scale
    ("(shares in millions)") keeps it over the page's scale of amounts."""
    own = read_scale(caption) if caption else None
    if own is not None and own.word:
        return own
    page = read_scale(page_caption) if page_caption else None
    if page is None or not page.word:
        return own or page
    return replace(page, share_factor=own.share_factor) if own is not None else page


def _unit(label: str, section: str, caption: str, printed: str) -> str:
    """"percent", "people", "sqft", "shares" or "money": storage/finance/scale.py's `unit_of`, and the square feet
    and people a section or caption names ("Employees" over rows of countries)."""
    if "%" in printed:
        return "percent"
    if SQUARE_FEET.search(f"{section} {label} {caption}"):
        return "sqft"
    unit = unit_of(label, printed, caption, section)
    if unit == "people" or (unit != "shares" and PEOPLE.search(section)):
        return "people"
    return "shares" if unit == "shares" else "money"


_CURRENCIES = (("$", re.compile(r"\$|\bdollars?\b|\bUSD\b", re.I)), ("€", re.compile(r"€|\beuros?\b|\bEUR\b", re.I)),
               ("£", re.compile(r"£|\bpounds? sterling\b|\bGBP\b", re.I)), ("¥", re.compile(r"¥|\byen\b|\bJPY\b", re.I)))


def currency_of(text: str) -> str:
    """The currency a value or caption names ("$ 1,234", "(in millions of euros)"), "" when none."""
    found = [(m.start(), sym) for sym, rx in _CURRENCIES if (m := rx.search(text))]
    return min(found)[1] if found else ""


def facts_of_units(units: list[Unit], row_base: int = 0, filing_caption: str = "") -> tuple[list[Fact], list[str]]:
    """(the value cells of the units' table rows as facts, the prose lines: not rows, not headers); a page printing
    no caption of its own reads its amounts at `filing_caption` (`statements_caption`), when given."""
    facts: list[Fact] = []
    prose: list[str] = []
    page_caption = page_caption_of(units) or filing_caption
    header = None  # the last table header above: its years name the columns of a row read without them
    for i, unit in enumerate(units):
        if unit.header is not None:
            header = unit.header
        elif not unit.is_table_row and not unit.is_header and _TITLE.match(unit.text):
            header = None  # a new note or statement: the header above is another table's
        cells = row_cells(unit) if unit.is_table_row else []
        if not cells and unit.is_table_row and not unit.is_header and " | " not in unit.text:
            label, values = split_row(unit.text)  # a row read without its columns
            if label:
                periods = _year_columns(header, len(values))
                cells = [Cell(label, periods[k], v, unit.text, None, k, unit.section, unit.unit or page_caption)
                         for k, v in enumerate(values)]
        if not cells:
            if not unit.is_header and not unit.is_table_row:
                prose.append(unit.text)
            continue
        if re.search(r"\d", cells[0].label):  # a label printing an amount: "Dividends declared ($5.86 per share)"
            prose.append(cells[0].label)
        for cell in cells:
            m = _NUMBER.search(cell.value)
            if not m:
                continue
            printed = cell.value.strip()
            facts.append(Fact(
                label=cell.label, section=cell.section, period=cell.period, printed=printed,
                magnitude=float(m.group(1).replace(",", "")),
                scale=row_scale(cell.unit, cell.label, cell.section, printed, page_caption),
                negative=printed.startswith("(") or printed.lstrip("$ ").startswith(("-", "−")), percent="%" in printed,
                unit=_unit(cell.label, cell.section, cell.unit or page_caption, printed), row=row_base + i,
                currency=currency_of(f"{printed} {cell.unit or page_caption}"),
                years=frozenset(int(y) for y in _YEAR.findall(cell.period))))
    return facts, prose


def page_caption_of(units: list[Unit]) -> str:
    """The scale caption a page's units print: a table's unit, else a short line naming a scale; "" when none."""
    return next((u.unit for u in units if u.unit), "") or next(
        (u.text for u in units if not u.is_table_row and caption_scale(u.text) and len(u.text) < 120), "")


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
    """The facts and prose lines of a cited page (its rows read by storage/documents/page_tables.py), read once
    per build of the filing (callers must not change the lists)."""
    try:
        build = load_manifest(doc_id).processed_at or ""
    except (OSError, ValueError):
        build = None  # not processed: read each time
    if build is None:
        return _read_page_facts(doc_id, page_index, text)
    return _cached_page_facts(doc_id, page_index, text, build)


def _read_page_facts(doc_id: str, page_index: int, text: str | None) -> tuple[list[Fact], list[str]]:
    units = page_tables.table_units(doc_id, page_index, text)
    filing = statements_caption(doc_id, page_index) if not page_caption_of(units) else ""
    return facts_of_units(units, row_base=page_index * 10_000, filing_caption=filing)


def statements_caption(doc_id: str, page_index: int) -> str:
    """The caption of the filing's primary statements when they all state one scale of amounts ("(Dollars in
    millions, except per share data)"), for a page after the first of them: the notes to the statements are in
    the statements' units ("Note 22 – Quarterly Financial Data" printing "$24,755" and no caption). "" otherwise
    (a page before the statements: a stock graph, a repurchase table in dollars)."""
    pages = page_tables.statement_pages(doc_id)
    if not pages or page_index <= pages[0]:
        return ""
    return _statements_caption(doc_id, tuple(pages))


@lru_cache(maxsize=64)
def _statements_caption(doc_id: str, pages: tuple[int, ...]) -> str:
    captions = [c for p in pages if (c := page_caption_of(page_tables.table_units(doc_id, p, None)))]
    scales = {caption_scale(c) for c in captions}
    return captions[0] if len(captions) >= 2 and len(scales) == 1 and None not in scales else ""


@lru_cache(maxsize=512)
def _cached_page_facts(doc_id: str, page_index: int, text: str | None, build: str) -> tuple[list[Fact], list[str]]:
    return _read_page_facts(doc_id, page_index, text)


def rows_of(facts: list[Fact]) -> dict[int, list[Fact]]:
    """row -> its facts (the columns of one printed row)."""
    out: dict[int, list[Fact]] = {}
    for f in facts:
        out.setdefault(f.row, []).append(f)
    return out
