"""Facts, read once at ingestion: every value of every table with its row, column period, unit, scale and boxes.

During a build (storage/documents/ingest.py) the open document's pages are read by layout
(storage/documents/table_layout.py; running headers, footers and page numbers dropped first,
storage/documents/page_furniture.py) and OCR pages by the text parser (storage/documents/tables.py). Two
files are written into the build folder:

    page_tables.json   the units the answer path reads (`page_tables.table_units`): each text-layer page's
                       layout rows (with headers, cells, sections, captions, boxes) and the document's
                       furniture keys
    facts.json         list[storage.schema.Fact], one per value cell (`page_facts(doc_id, page)`)

Answering reads these files only; nothing reopens the source PDF. A build made before this module
has neither file: `process_and_index_pdf` on an already processed PDF adds them (atomically, under
the document's lock), and `python -m storage.documents.facts --backfill` adds them to every processed
PDF of the destination folder (`--work DIR` for another one; `--rebuild` reads every build's facts
again). page_tables.json records the READER that wrote it: a build whose facts an older reader wrote
is read again the same two ways (processing the PDF again, `--backfill`), without re-embedding; until
then its answers read the older facts.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import threading
from dataclasses import dataclass, field, replace
from datetime import date
from functools import lru_cache
from pathlib import Path

import pymupdf

from storage.documents.catalog import get_pdf_output_dirs, list_processed_pdfs, load_facts, load_manifest, load_page_texts
from storage.documents.extract import MIN_TABLE_NUMBERS, ocr_dpi, ocr_words, prints_numbers
from storage.documents.maintenance import document_lock
from storage.documents.ocr import get_ocr_engine
from storage.documents.page_furniture import drop_furniture_text, read_pages
from storage.documents.table_layout import LastTable, has_table, read_layout
from storage.documents.tables import Cell, TableHeader, Unit, page_units, percent_row, row_cells, table_captions
from storage.finance.numbers import parse_number, split_scale
from storage.finance import line_items
from storage.finance.columns import CHANGE_TITLE, DATE_TITLE
from storage.finance.periods import (
    MONTHS, QUARTER_COLUMN, QUARTER_ORDINALS, YEAR_RE, Period, calendar_month_end, fiscal_quarter_end,
    fiscal_year_end, months_before, parse_period,
)
from storage.finance.periods import BARE_YEAR as _YEAR_VALUE, MONTH_DAY_NO_YEAR as _MONTH_DAY_ONLY, TOTAL_COLUMN as _TOTAL_COLUMN
from storage.finance.periods import YEAR_COLUMN_TITLE as _YEAR_ONLY, YEARS_ENDED_NO_YEAR as _YEARS_ENDED
from storage.finance.scale import (CENTS, HEADING_LINES, PER_SHARE_PLACES, PERCENT_LABEL, ends_section, factor, find_caption,
                                   label_unit, read_scale, section_caption, unit_of)
from storage.schema import Fact, PageContent

log = logging.getLogger(__name__)

FACTS_FILE = "facts.json"  # the names storage/documents/catalog.PdfOutputDirs gives them
TABLES_FILE = "page_tables.json"
FORMAT = 1
READER = 31  # bump when a change to reading tables changes stored facts: older builds are read again
_NUMBER = re.compile(r"\d")


@dataclass
class DocumentTables:
    """What a document's tables are, as stored with its build."""

    furniture: frozenset[str]
    layout: dict[int, list[Unit]]  # text-layer pages whose layout read found a table
    facts: list[Fact] = field(default_factory=list)


# ---------------------------------------------------------------- reading, at ingestion


def page_words(doc: pymupdf.Document, number: int, textpage=None) -> tuple[list[tuple], float]:
    page = doc[number]
    return page.get_text("words", textpage=textpage), page.rect.height


def read_tables(pages: list[PageContent], words: dict[int, tuple[list[tuple], float]]) -> DocumentTables:
    """The document's tables and facts from its extracted pages and the word boxes of its text-layer
    pages (`words`: page -> (`get_text("words")`, page height))."""
    numbered = {n: sum(1 for w in ws if _NUMBER.search(str(w[4]))) >= MIN_TABLE_NUMBERS for n, (ws, _) in words.items()}
    keys, kept = read_pages(words)
    layout: dict[int, list[Unit]] = {}
    last: dict[int, LastTable | None] = {}  # each page's last table, for a statement going on over the next page
    for number, ws in sorted(kept.items()):
        if not numbered[number]:
            continue
        units, last[number] = read_layout(ws, last.get(number - 1))
        if has_table(units):
            layout[number] = units
    tables = DocumentTables(keys, layout)
    # the fiscal calendar the cover states ("For the fiscal year ended December 31, 2019"): the ends of columns
    # that print a year and a quarter or a bare year only
    cover = "\n".join(p.text or "" for p in sorted(pages, key=lambda p: p.page_number)[:2])
    calendar = calendar_month_end(fiscal_year_end(cover))
    section = ""  # the caption of the section the page is in (storage/finance/scale.section_caption)
    for p in sorted(pages, key=lambda p: p.page_number):
        head = drop_furniture_text(p.text or "", keys).splitlines()[:3 * HEADING_LINES]
        section = section_caption(head) or ("" if ends_section(head) else section)
        if p.is_ocr or numbered.get(p.page_number, True):  # a text page printing under 4 numbers holds no table
            tables.facts.extend(facts_of(p.page_number, units_of(tables, p.page_number, p.text), section, calendar))
    return tables


def units_of(tables: DocumentTables, page: int, text: str) -> list[Unit]:
    """The units a page's figures are read from: its layout rows, else the text parser's rows of its
    text without the document's furniture (OCR pages, pages where the layout read found no table)."""
    if page in tables.layout:
        return tables.layout[page]
    return page_units(drop_furniture_text(text or "", tables.furniture), one_line_rows=True)


def facts_of(page: int, units: list[Unit], section_caption: str = "",
             calendar: tuple[int, int] | None = None) -> list[Fact]:
    """One fact per value cell of the page's table rows. A table's scale is its own caption's, else the
    last caption printed above it on the page, else `section_caption` (the caption its section's heading
    prints: "Notes to the Consolidated Financial Statements ... (Dollars in millions)"). `calendar`: the
    (month, day) every fiscal year of the document ends on (storage/finance/periods.calendar_month_end), which
    dates the columns that print a year only ("2019" over "4th 3rd 2nd 1st"; "2023" in a 10-K)."""
    facts: list[Fact] = []
    rows: list[tuple[int, int]] = []  # each table row's facts: facts[first:end]
    captions = table_captions(units, scale_titles=False)
    table, in_header, last_key, page_caption = -1, False, None, section_caption
    prose: list[str] = []  # the prose lines above the table ("... for the years ended May 31:")
    intro = ""
    for unit in units:
        if unit.is_header and not in_header:
            table, last_key = table + 1, (unit.header.text, unit.header.kind) if unit.header else None
            intro = " ".join(prose[-2:])
        in_header = unit.is_header
        if not unit.is_table_row:
            if not unit.is_header and find_caption(unit.text):
                page_caption = unit.text
            if not unit.is_header:
                prose.append(unit.text)
            continue
        cells = _dated(row_cells(unit) or _unlabelled_cells(unit))
        if not cells or all(_YEAR_VALUE.match(c.value) for c in cells):
            continue
        key = (unit.header.text, unit.header.kind)
        if key != last_key:
            table, last_key = (table + 1 if unit.header.kind != "roll-forward" or not last_key
                               or last_key[1] != "roll-forward" else table), key
        table = max(table, 0)
        # a unit the label prints ("Revenue ($B)") before the table's caption
        caption_text = label_unit(cells[0].label) or cells[0].unit or (unit.header.text if find_caption(unit.header.text) else "") \
            or page_caption
        scale = read_scale(caption_text)
        percent = percent_row(cells)
        item = line_items.row_item(cells[0].label, cells[0].section, percent)
        title = captions.get(id(unit.header), "")
        member = ""
        if item is None and (measure := segment_measure(cells[0].label, cells[0].section, percent)):
            item, member = measure, cells[0].label  # "Commercial Airplanes" under "Revenues:": a segment's revenues
        boxes = dict(zip([i for i, _ in unit.cells or ()], unit.cell_boxes or ()))
        first = len(facts)
        shifted = _quarter_ends(unit.header.columns) or _fiscal_columns(unit.header.columns, calendar, intro)
        for cell in cells:
            period = shifted.get(cell.column) or parse_period(cell.period)
            change_in_percent = period.year is None and bool(_PERCENT_CHANGE.search(cell.period))  # "% Change"
            # a column headed "Sales %" or "%(1)" in a table of amounts: its values are percents
            head_unit = unit.header.units[cell.column] if cell.column < len(unit.header.units) else ""
            titled = head_unit == "%" and "$" not in cell.value
            # a row whose label ends in "%" ("Adjusted EBIT / Sales %") in a table of amounts: its values are percents
            titled = titled or bool(PERCENT_LABEL.search(cell.label)) and "$" not in cell.value
            # a column head's own unit ("2023 $ million"): its scale before the table's caption
            own = head_unit != "%" and read_scale(head_unit) is not None
            cell_caption, cell_scale = (head_unit, read_scale(head_unit)) if own else (caption_text, scale)
            if word := split_scale(cell.value)[1]:  # "$4.0 billion": the cell's own scale word, before any caption
                cell_caption, cell_scale = f"in {word}s", read_scale(f"in {word}s")
            unit_name = "%" if (percent or change_in_percent or titled) and not cell.value.endswith("%") \
                else unit_of(cell.label, cell.value, cell_caption, cell.section)
            unit_name = _column_unit(cell.period, cell.value, unit_name)
            # amounts in cents ("EPS (diluted US cents)", a column "2023 US cents"): per share, a hundredth of a dollar
            cents = unit_name not in ("%", "bp", "ratio") and bool(
                CENTS.search(cell.label) or CENTS.search(head_unit) or CENTS.search(cell.period))
            if cents:
                unit_name = "USD/share"
            facts.append(Fact(
                page=page, table=table, label=cell.label, concept=item.concept if item else None, section=cell.section,
                path=[p for p in dict.fromkeys((title, unit.header.stub, cell.section, member)) if p], column=cell.column,
                period=cell.period,
                period_start=_iso(period.start), period_end=_iso(period.end), duration_months=period.months,
                as_of=_iso(period.as_of), fiscal_year=period.year, unit=unit_name,
                scale=0.01 if cents else factor(unit_name, cell_scale),
                scale_caption=cell_scale.text if cell_scale else "", value_text=cell.value, value=parse_number(cell.value),
                label_box=unit.label_box, value_box=boxes.get(cell.column)))
        rows.append((first, len(facts)))
    return _unscale_small_rows(_bare_eps(facts), rows)


def _bare_eps(facts: list[Fact]) -> list[Fact]:
    """Earnings per share printed with no basis ("Earnings per share" of a release's summary) in a table printing no
    basic EPS is the diluted figure (line_items.bare_eps_rows; the answer path reads rows the same way)."""
    bare = line_items.bare_eps_rows([(f.table, f.label, f.section) for f in facts])
    diluted = line_items.BY_CONCEPT["EarningsPerShareDiluted"].concept
    return [f.model_copy(update={"concept": diluted}) if f.concept is None and i in bare else f
            for i, f in enumerate(facts)]


def _unscale_small_rows(facts: list[Fact], rows: list[tuple[int, int]]) -> list[Fact]:
    """Rows printing only two- or three-place values ("0.48", "$1.05", "0.083"; dashes aside) in a table whose other rows print whole amounts
    under a scale caption are no amounts in millions: the per-share adjustments between the whole-number rows of
    a non-GAAP reconciliation ("Plus: Amortization of purchased intangibles 0.48"), a yield or price row in a
    table of amounts. Their facts keep the value as printed (scale 1): no "$0.48 million". A table of two-place
    values only keeps its caption's scale ("In billions": 12.34)."""
    by_table: dict[int, list[tuple[int, int]]] = {}
    for row in rows:
        if row[1] > row[0]:
            by_table.setdefault(facts[row[0]].table, []).append(row)
    for table_rows in by_table.values():
        scaled = [r for r in table_rows if all(f.scale and f.scale > 1 and f.unit != "shares" for f in facts[r[0]:r[1]])]
        strict = [r for r in scaled if all(PER_SHARE_PLACES.match(f.value_text) for f in facts[r[0]:r[1]])]
        # (a dash in a column the adjustment does not touch leaves the row a per-share row; it counts as a whole
        # number too, as it always did: a table of rates with dashes is no table "in billions")
        small = [r for r in scaled if all(PER_SHARE_PLACES.match(f.value_text) for f in facts[r[0]:r[1]] if f.value is not None)
                 and any(f.value is not None for f in facts[r[0]:r[1]])]
        whole = [r for r in scaled if r not in strict and any("." not in f.value_text for f in facts[r[0]:r[1]])]
        if not small or len(whole) < 2:
            continue
        for start, end in small:
            facts[start:end] = [f.model_copy(update={"scale": 1.0}) for f in facts[start:end]]
    return facts


# the measures a filing breaks down by segment or region under a section naming them ("Revenues:", "Operating
# income:"); a row there that names no line item of its own is a segment's (a region's, a product line's) share
SEGMENT_MEASURES = frozenset({"Revenues", "OperatingIncomeLoss"})
_NOT_A_MEMBER = re.compile(r"(?i)^\s*(?:total|less|add|net|consolidated)\b|%|\bper\b|\bmargin\b|\bchange\b")


def segment_measure(label: str, section: str, percent: bool = False) -> line_items.LineItem | None:
    """The measure of a row labelled by a segment or region ("Commercial Airplanes", "Europe") under a
    section naming a segment measure ("Revenues:", "(Loss)/earnings from operations:"): the section's
    line item; None for totals, ratios and any other row."""
    if percent or not label or not section or _NOT_A_MEMBER.search(label) or line_items.row_item(label) is not None:
        return None
    item = line_items.row_item(line_items.QUALIFIER_PAIR.sub(" ", section))  # "(Loss)/earnings from operations"
    return item if item is not None and item.concept in SEGMENT_MEASURES else None


# an award table's columns of prices and terms, in a table "in millions" of shares: "Weighted-Average Exercise Price",
# "Weighted-average Grant Date Fair Value" (per share; not an "Aggregate" fair value), "Remaining Contractual Term (in years)"
_PRICE_COLUMN = re.compile(r"(?i)^(?!.*\b(?:aggregate|total|intrinsic)\b).*(?:\b(?:exercise|strike|purchase|grant[- ]date)\s+"
                           r"(?:price|fair\s+value)\b|\b(?:price|fair\s+value)\s+per\s+(?:share|unit)\b)")
_YEARS_COLUMN = re.compile(r"(?i)\(in years\)|\bcontract(?:ual)?\s+(?:term|life)\b")
# a column of per-share amounts beside the amounts of the same rows ("Earnings" / "Earnings per Common Share")
_PER_SHARE_COLUMN = re.compile(r"(?i)\bper\s+(?:common\s+|ordinary\s+|diluted\s+|basic\s+)?share\b")
_SMALL_VALUE = re.compile(r"^\D*\d{1,4}(?:\.\d{1,2})?\D*$")  # "$27.52", "4.83", "$41": no amount "1,234"


def _column_unit(column: str, value: str, unit: str) -> str:
    """The unit a column's own title gives its small values: a price per share, a term in years; else `unit`."""
    if unit not in ("USD", "EUR", "GBP", "JPY", "", "shares") or not _SMALL_VALUE.match(value):
        return unit
    if _PRICE_COLUMN.search(column):
        return f"{unit if unit not in ('', 'shares') else 'USD'}/share"
    if _YEARS_COLUMN.search(column) and "$" not in value:
        return "years"
    if _PER_SHARE_COLUMN.search(column) and PER_SHARE_PLACES.match(value):
        return f"{unit if unit not in ('', 'shares') else 'USD'}/share"
    return unit


# a change column counted in percent ("% Change", "Percent change", "Increase (Decrease) %"): its values are percents
_PERCENT_CHANGE = re.compile(rf"(?=.*(?:%|\bpercent))(?=.*{CHANGE_TITLE.pattern})", re.IGNORECASE)


@lru_cache(maxsize=256)
def _quarter_ends(columns: tuple[str, ...]) -> dict[int, Period]:
    """The quarters of a quarterly table whose columns print a month and day without a year under one
    fiscal year ("Fiscal Year 2019" over "September 30  December 31  March 31  June 30  Total"). The
    last quarter's month ends the fiscal year, so a quarter ending in a later month falls in the calendar
    year before (fiscal 2019 ending June 30: December 31, 2018); a "Total" column after them is the
    fiscal year. Column -> period; {} for any other header."""
    dated: dict[int, tuple[int, int, int]] = {}
    totals: list[int] = []
    for i, label in enumerate(columns):
        years = set(YEAR_RE.findall(label))
        if len(years) != 1:
            return {}
        if (m := _MONTH_DAY_ONLY.search(label)) and len(_MONTH_DAY_ONLY.findall(label)) == 1 \
                and parse_period(label).months in (None, 3):  # "Six Months Ended June 30": not a quarter
            dated[i] = (int(next(iter(years))), MONTHS[m.group(1).lower()], int(m.group(0).split()[-1]))
        elif _TOTAL_COLUMN.search(label) and i == len(columns) - 1:
            totals.append(i)
    if len(dated) < 3 or len({y for y, _, _ in dated.values()}) != 1 or len(dated) + len(totals) != len(columns):
        return {}
    year, end_month, end_day = dated[max(dated)]
    out: dict[int, Period] = {}
    for i, (y, month, day) in dated.items():
        try:
            end = date(y - 1 if month > end_month else y, month, day)
        except ValueError:
            return {}
        out[i] = Period(columns[i], months_before(end, 3), end, 3, None, year)
    for i in totals:
        end = date(year, end_month, end_day)
        out[i] = Period(columns[i], months_before(end, 12), end, 12, None, year)
    return out




@lru_cache(maxsize=256)
def _fiscal_columns(columns: tuple[str, ...], calendar: tuple[int, int] | None, intro: str = "") -> dict[int, Period]:
    """The ends of columns that print a year and no date, from the fiscal calendar: a quarterly table's
    quarters ("2019" over "4th 3rd 2nd 1st": the fourth quarter of fiscal 2019 ends on the year's last day,
    the others 3, 6, 9 months before it) and its "Full Year" column, and bare years ("2023": the fiscal year ending in 2023; twelve
    months when the column or the table's introduction says years: "... for the years ended May 31:", whose
    month and day also serve without a calendar). Column -> period; {} when nothing is known."""
    said = _YEARS_ENDED.search(intro or "")
    year_end = (MONTHS[said.group(1).lower()[:3]], int(said.group(2))) if said else calendar
    if year_end is None:
        return {}
    quarters = {i: m for i, label in enumerate(columns) if (m := QUARTER_COLUMN.search(label))}
    out: dict[int, Period] = {}
    for i, label in enumerate(columns):
        p = parse_period(label)
        if p.end is not None or p.year is None:
            continue
        if i in quarters and len(quarters) >= 2 and calendar is not None:
            m = quarters[i]
            end = fiscal_quarter_end(p.year, QUARTER_ORDINALS[m.group(1).lower()] if m.group(1) else int(m.group(2)), calendar)
            out[i] = Period(label, months_before(end, 3), end, 3, None, p.year)
        elif quarters and calendar is not None and _TOTAL_COLUMN.search(label) and p.months in (12, None):
            end = date(p.year, *calendar)  # "Full Year" after the quarters
            out[i] = Period(label, months_before(end, 12), end, 12, None, p.year)
        elif not quarters and _YEAR_ONLY.match(label.strip()):
            try:
                end = date(p.year, *year_end)
            except ValueError:
                continue
            months = 12 if said or re.search(r"(?i)year|fiscal", label) else None
            out[i] = Period(label, months_before(end, 12) if months else None, end, months, None, p.year)
    return out


def _dated(cells: list[Cell]) -> list[Cell]:
    """A row's cells without the years that date the row rather than count anything: a year in a column
    titled "Maturity" / "Due" / "Placed in Service" (storage/finance/columns.DATE_TITLE), or the first cell
    of an unlabelled row printing a year and then an amount (a schedule of maturities: "2024  5.4"). No
    such year is an amount ("2026" stored as $2,026 million); an unlabelled row takes its years as label."""
    years = [c for k, c in enumerate(cells) if _YEAR_VALUE.match(c.value)
             and (DATE_TITLE.search(c.period) or k == 0 and not c.label and len(cells) > 1)]
    if not years or len(years) == len(cells):
        return cells
    label = cells[0].label or ", ".join(c.value for c in years)
    return [replace(c, label=label) for c in cells if c not in years]


def _unlabelled_cells(unit: Unit) -> list[Cell]:
    """The cells of a layout row printed without a label (a total under its column's figures): facts
    whose label is "" (their section and caption still say what they total); row_cells, which
    the answer path reads, leaves them out."""
    if unit.label or unit.cells is None or unit.header is None or unit.is_header:
        return []
    columns = unit.header.columns
    return [Cell("", columns[i], value, unit.text, unit.header, i, unit.section, unit.unit)
            for i, value in unit.cells if i < len(columns)]


def _iso(day) -> str | None:
    return day.isoformat() if day else None


# ---------------------------------------------------------------- storing


def _unit_json(unit: Unit, headers: dict[int, int], header_list: list[dict]) -> dict:
    out: dict = {"text": unit.text}
    if unit.is_table_row:
        out["row"] = True
    if unit.is_header:
        out["is_header"] = True
    if unit.header is not None:
        if id(unit.header) not in headers:
            headers[id(unit.header)] = len(header_list)
            header_list.append({"text": unit.header.text, "columns": list(unit.header.columns), "kind": unit.header.kind,
                                **({"units": list(unit.header.units)} if unit.header.units else {}),
                                **({"stub": unit.header.stub} if unit.header.stub else {})})
        out["header"] = headers[id(unit.header)]
    for name in ("section", "unit", "label"):
        if getattr(unit, name):
            out[name] = getattr(unit, name)
    if unit.cells is not None:
        out["cells"] = [list(c) for c in unit.cells]
    if unit.label_box is not None:
        out["label_box"] = list(unit.label_box)
    if unit.cell_boxes is not None:
        out["cell_boxes"] = [list(b) for b in unit.cell_boxes]
    return out


def _units_from_json(data: dict) -> list[Unit]:
    headers = [TableHeader(h["text"], tuple(h["columns"]), h.get("kind", "periods"), tuple(h.get("units", ())), h.get("stub", ""))
               for h in data["headers"]]
    return [Unit(u["text"], bool(u.get("row")), headers[u["header"]] if "header" in u else None,
                 bool(u.get("is_header")), u.get("section", ""), u.get("unit", ""),
                 tuple((int(i), str(v)) for i, v in u["cells"]) if "cells" in u else None, u.get("label", ""),
                 tuple(u["label_box"]) if "label_box" in u else None,
                 tuple(tuple(b) for b in u["cell_boxes"]) if "cell_boxes" in u else None)
            for u in data["units"]]


def write_tables(build_dir: Path, tables: DocumentTables) -> None:
    """Write page_tables.json, then facts.json (the file whose presence says the build has facts),
    each through a temporary file and os.replace: a reader sees both files whole or the missing one."""
    pages = {}
    for number, units in tables.layout.items():
        headers: dict[int, int] = {}
        header_list: list[dict] = []
        rows = [_unit_json(u, headers, header_list) for u in units]
        pages[str(number)] = {"headers": header_list, "units": rows}
    _write_atomic(build_dir / TABLES_FILE, {"format": FORMAT, "reader": READER, "furniture": sorted(tables.furniture),
                                           "pages": pages})
    _write_atomic(build_dir / FACTS_FILE, [f.model_dump() for f in tables.facts])


def _write_atomic(path: Path, data) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, separators=(",", ":"))
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def has_facts(build_dir: Path) -> bool:
    return (build_dir / FACTS_FILE).is_file() and (build_dir / TABLES_FILE).is_file()


def has_current_facts(build_dir: Path) -> bool:
    """Facts written by today's reader (files without a reader stamp predate it: reader 1)."""
    if not has_facts(build_dir):
        return False
    try:
        return json.loads((build_dir / TABLES_FILE).read_text("utf-8")).get("reader", 1) == READER
    except (OSError, ValueError):
        return False


# ---------------------------------------------------------------- reading, at answer time


class FactsMissing(LookupError):
    """A build made before facts were read at ingestion: upgrade it (module doc)."""


@dataclass
class StoredTables:
    furniture: frozenset[str]
    pages: dict[str, dict]  # page -> serialized units (decoded on first use)
    facts: dict[int, list[Fact]]
    decoded: dict[int, list[Unit]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def layout(self, page: int) -> list[Unit] | None:
        with self.lock:
            if page not in self.decoded and str(page) in self.pages:
                self.decoded[page] = _units_from_json(self.pages[str(page)])
            return self.decoded.get(page)


def stored_tables(doc_id: str) -> StoredTables:
    """The build's stored tables and facts, cached per build. Raises FactsMissing for a build made
    before them, OSError/ValueError for a PDF that is not processed."""
    manifest = load_manifest(doc_id)
    return _stored(doc_id, str(get_pdf_output_dirs(doc_id).build_dir), manifest.build or "", manifest.processed_at or "")


@lru_cache(maxsize=64)
def _stored(doc_id: str, build_dir: str, build: str, processed_at: str) -> StoredTables:
    root = Path(build_dir)
    if not has_facts(root):
        raise FactsMissing(f"{root.name} has no {FACTS_FILE}: run python -m storage.documents.facts --backfill")
    tables = json.loads((root / TABLES_FILE).read_text("utf-8"))
    by_page: dict[int, list[Fact]] = {}
    for fact in load_facts(doc_id):
        by_page.setdefault(fact.page, []).append(fact)
    return StoredTables(frozenset(tables.get("furniture", [])), tables.get("pages", {}), by_page)


def page_facts(doc_id: str, page: int) -> list[Fact]:
    """The facts of one page of a processed PDF (0-based page), as read at ingestion."""
    return list(stored_tables(doc_id).facts.get(page, []))


def clear_cache() -> None:
    _stored.cache_clear()


# ---------------------------------------------------------------- upgrading builds made before facts


def read_document(doc: pymupdf.Document, pages: list[PageContent]) -> DocumentTables:
    """Facts of an open document whose pages were extracted: an OCR page printing numbers is read again with
    OCR for its word boxes (by its text alone when no engine is installed)."""
    ocr = {p.page_number for p in pages if p.is_ocr}
    words = {n: page_words(doc, n) for n in range(doc.page_count) if n not in ocr}
    tables = [p.page_number for p in pages if p.is_ocr and prints_numbers(p.text)]
    engine = get_ocr_engine() if tables else None
    for n in tables if engine is not None else ():
        if (dpi := ocr_dpi(doc[n])) is not None:
            words[n] = (ocr_words(doc[n], engine, dpi), doc[n].rect.height)
    return read_tables(pages, words)


def add_missing_facts(doc_id: str, doc: pymupdf.Document | None = None, lock: bool = True,
                      rebuild: bool = False) -> bool:
    """Add facts.json and page_tables.json to the current build of a processed PDF that has none or
    has an older reader's (`rebuild`: replace them whatever wrote them), from its source PDF (`doc` when it is open already), under
    the document's lock (`lock=False`: the caller holds it); True when they were written. The build's
    other artifacts are untouched; a reader sees the files whole or not at all."""
    if not rebuild and has_current_facts(get_pdf_output_dirs(doc_id).build_dir):
        return False
    if not lock:
        return _add_facts(doc_id, doc, rebuild)
    with document_lock(doc_id):
        return _add_facts(doc_id, doc, rebuild)


def _add_facts(doc_id: str, doc: pymupdf.Document | None, rebuild: bool = False) -> bool:
    manifest = load_manifest(doc_id)
    dirs = get_pdf_output_dirs(doc_id)
    if not rebuild and has_current_facts(dirs.build_dir):
        return False
    texts = load_page_texts(doc_id)
    ocr = set(manifest.ocr_pages or [])
    pages = [PageContent(page_number=i, text=t, is_ocr=i in ocr) for i, t in enumerate(texts)]
    if doc is None:
        with pymupdf.open(manifest.source_path) as opened:
            tables = read_document(opened, pages)
    else:
        tables = read_document(doc, pages)
    write_tables(dirs.build_dir, tables)
    clear_cache()
    log.info("Added %d facts to %s", len(tables.facts), doc_id)
    return True


def backfill(rebuild: bool = False) -> tuple[int, int]:
    """Add the missing facts, and read again those an older reader wrote, for every processed PDF of
    the destination folder (`rebuild`: read every build's facts again): (added, failed)."""
    added = failed = 0
    for manifest in list_processed_pdfs():
        try:
            added += add_missing_facts(manifest.doc_id, rebuild=rebuild)
        except (OSError, ValueError, RuntimeError) as exc:
            failed += 1
            log.warning("Could not add facts to %s: %s", manifest.doc_id, exc)
    return added, failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m storage.documents.facts", description=__doc__.split("\n\n")[0])
    parser.add_argument("--backfill", action="store_true",
                        help="add facts to processed PDFs built before them, read again those an older reader wrote")
    parser.add_argument("--rebuild", action="store_true", help="with --backfill: read every build's facts again")
    parser.add_argument("--work", help="the PDF_CHAT_HOME folder to upgrade (default: the configured one)")
    args = parser.parse_args(argv)
    if args.work:
        work = Path(args.work).resolve()
        os.environ.update(PDF_CHAT_HOME=str(work), PDF_SOURCE_DIR=str(work / "source"),
                          PDF_DESTINATION_DIR=str(work / "destination"))
    if not args.backfill:
        parser.print_help()
        return 2
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    added, failed = backfill(rebuild=args.rebuild)
    print(f"facts added to {added} processed PDF(s); {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
