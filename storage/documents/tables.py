"""Financial tables in a page's text layer: rows rebuilt from PyMuPDF's one-cell-per-line text,
and the column headers (periods) each row belongs to.

PyMuPDF prints a statement one cell per line::

    December 31,
    2018
    2017
    Cash and cash equivalents
    $7,637
    $8,813

`page_units` turns that into "units": prose lines, and table rows whose label and value cells are
joined on one line ("Cash and cash equivalents $7,637 $8,813"). Period lines just above the first
row of a table ("December 31, 2018 2017", "Three Months Ended / Six Months Ended / July 29, 2023 /
July 30, 2022 ...") become the table's `TableHeader`, attached to every row below it until the
table ends, so a row retrieved or quoted alone still says which period each number belongs to.

Why not `pymupdf.Page.find_tables()`: on the 137 pages with 8+ table rows of three dev 10-Ks it
found a period header on 63, this parser on 108 (`python -m bench.answers --tables`: 117 s for
find_tables, 0.65 s for this parser); its cells also split numbers ("$101127\\n,") and glue words
("Netearningsfromcontinuingoperations"). This parser reads the text layer (or OCR text) alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from storage.finance.columns import FORECAST_HEAD_WORDS, HEADER_WORDS, heads_change, names_change, title_spans
from storage.finance.periods import COMPARISON, MONTH, PERIOD_TOKEN, YEAR, YEAR_CELL
from storage.finance.numbers import parse_number
from storage.finance.scale import POINTS_CELL, find_caption

MAX_CELL_CHARS = 24
# A table value cell: digits with money/percent/sign punctuation ("$55,893", "(4,187)", "12.5%",
# "($8.30)"), or a dash/"n/a"/"NM" placeholder. Anything with letters (other than those) is prose.
_VALUE_CELL = re.compile(
    r"^(?:\(?[-–—+]?\$?\s*\(?\d[\d,]*(?:\.\d+)?\)?\s*%?\)?\*?|[-–—]+|\$|%|n/?a|nm)$", re.IGNORECASE
)
_MONTH = MONTH  # storage/finance/periods.py: the month and year patterns, one place
_YEAR = YEAR
_LONG_PROSE_WORDS = 12  # a prose line this long ends a table
HEADER_PREFIX = "Columns: "  # the header line a chunk gets when it holds rows but not their header


@dataclass(frozen=True)
class TableHeader:
    text: str  # the header as printed, lines joined: "December 31, 2018 2017"
    columns: tuple[str, ...]  # one period label per value column: ("December 31, 2018", "December 31, 2017")
    # "periods": the columns are periods; "roll-forward": the columns are components (equity statement,
    # RSU activity) and the row's period, read from its balance rows, follows each component title
    kind: str = "periods"
    # a unit printed in a column's own head ("Sales %", "%(1)" over the column): "%", else ""; () when none says one
    units: tuple[str, ...] = ()
    # the words printed in the stub head, left of the column titles ("Adjusted non-GAAP results"): what the rows are
    stub: str = ""

    def line(self) -> str:
        """The header as one readable line for a chunk that holds rows but not the header itself."""
        return HEADER_PREFIX + " | ".join(self.columns) if self.columns else self.text


@dataclass
class Unit:
    text: str
    is_table_row: bool
    header: TableHeader | None = None  # for table rows: the period header of their table
    is_header: bool = False  # a header line itself
    section: str = ""  # for table rows: the section label above them ("Current liabilities")
    unit: str = ""  # for table rows: the table's unit caption ("in millions, except per share data")
    # for rows read by layout (storage/documents/table_layout.py): (column index, value) of each value, and the label
    cells: tuple[tuple[int, str], ...] | None = None
    label: str = ""
    # for rows read by layout: the boxes (x0, y0, x1, y1, PDF points) of the label and of each cell in `cells`
    label_box: tuple[float, float, float, float] | None = None
    cell_boxes: tuple[tuple[float, float, float, float], ...] | None = None


def is_value_cell(line: str) -> bool:
    """A line holding one value cell, or only value cells ("9,583 $", "(7) 34")."""
    if len(line) <= MAX_CELL_CHARS and _VALUE_CELL.match(line):
        return True
    tokens = line.split()
    return len(tokens) > 1 and all(len(t) <= MAX_CELL_CHARS and _VALUE_CELL.match(t) for t in tokens)


def clean_line(line: str) -> str:
    return " ".join(line.replace("\xa0", " ").split())


def split_row(text: str) -> tuple[str, list[str]]:
    """(row label, value cells) of a row's text. A "$" printed apart from its number is glued back
    ("$ 1,980" -> "$1,980"), a "%" likewise ("100.0 %" -> "100.0%"), and a ")" ("(353 )" -> "(353)")."""
    tokens = []
    for tok in text.split():  # "(353 )": a negative value printed with a space before its ")"
        if tok == ")" and tokens and re.fullmatch(r"\([-–—]?\$?\d[\d,]*(?:\.\d+)?%?", tokens[-1]):
            tokens[-1] += ")"
        else:
            tokens.append(tok)
    i = len(tokens)
    while i > 0 and _VALUE_CELL.match(tokens[i - 1]):
        i -= 1
    values: list[str] = []
    dollar = False
    for tok in tokens[i:]:
        if tok == "$":
            dollar = True
        elif tok == "%":
            if values:
                values[-1] += "%"
        else:
            values.append("$" + tok if dollar and not tok.startswith(("$", "(")) else tok)
            dollar = False
    return " ".join(tokens[:i]), values


def _period_tokens(text: str) -> list[str]:
    return [m.group(0) for m in PERIOD_TOKEN.finditer(text)]


def is_period_line(text: str) -> bool:
    """A header line: periods and header words only ("December 31, 2018 2017", "Three Months Ended")."""
    rest = PERIOD_TOKEN.sub(" ", text)
    if rest != text:  # beside a period only: "Q1 2023 Outlook", "Full Year 2023", "Q2 FY24 Guidance"
        rest = FORECAST_HEAD_WORDS.sub(" ", rest)
    rest = HEADER_WORDS.sub(" ", rest)
    return not rest.strip() and bool(re.search(r"[A-Za-z0-9]", text))



def header_from_lines(lines: list[str]) -> TableHeader | None:
    """The header of a table from the period lines above its first row, or None without periods.

    Phrases without periods ("Years ended December 31,", "Three Months Ended") prefix the period
    tokens that follow: one phrase prefixes all; k phrases over k*n periods prefix n each. A column
    title that names no period (storage/finance/columns.py: "Change", "% Change", "Increase
    (Decrease)") is a column of its own, in its place among the periods, and no phrase; the label
    column's title ("Item") is no column.
    """
    phrases: list[str] = []
    # (token, phrase printed on the same line, a change column's title)
    tokens: list[tuple[str, str | None, bool]] = []
    pending: list[str] = []  # change titles printed alone on their line: their column's place is not known yet
    for line in lines:
        comparison = COMPARISON.search(line) is not None
        if comparison:  # "Change" over "2023 vs 2022": the pair is the change column, read as before
            pending.clear()
            tokens = [t for t in tokens if not t[2]]
        titles = [] if comparison else title_spans(line)
        blank = line
        for a, b, _ in titles:  # the titles cut out (positions kept) before the periods are read
            blank = blank[:a] + " " * (b - a) + blank[b:]
        found = [(m.start(), m.group(0)) for m in PERIOD_TOKEN.finditer(blank)]
        # captions in parentheses ("($ in millions)", "(unaudited)") are not part of a period
        rest = " ".join(re.sub(r"\([^)]*\)", " ", PERIOD_TOKEN.sub(" ", blank)).split()).strip(" ,")
        changes = [(a, " ".join(line[a:b].split())) for a, b, kind in titles if kind == "change"]
        if not found and not changes:
            if rest:
                phrases.append(rest)
            continue
        if not found and not rest:
            pending += [title for _, title in changes]
            continue
        month_day = None
        first = min((a for a, _ in found), default=0)
        # a change title before every period of its line ("Change" stacked over "2023 2022" and joined to them)
        # heads the column after them: no table prints the change before the periods it compares
        order = [(a, None, a if a > first else len(line) + a) for a, _ in changes] + [(a, t, a) for a, t in found]
        for at, tok, _ in sorted(order, key=lambda x: x[2]):
            if tok is None:
                tokens.append((dict(changes)[at], None, True))
                continue
            tok = re.sub(rf"(\d{{1,2}})\s+({YEAR})$", r"\1, \2", " ".join(tok.split()))
            if m := re.match(rf"({_MONTH}\s+\d{{1,2}}),?\s+{_YEAR}$", tok, re.IGNORECASE):
                month_day = m.group(1)
            elif month_day and re.fullmatch(_YEAR, tok):
                tok = f"{month_day}, {tok}"  # "December 31, 2018 2017": 2017 is December 31, 2017
            tokens.append((tok, rest if rest and re.search(r"[A-Za-z]", rest) else None, False))
    tokens += [(title, None, True) for title in pending]  # a change column is printed after the periods it compares
    periods = [t for t in tokens if not t[2]]
    if not periods:
        return None
    columns: list[str] = []
    per = len(periods) // len(phrases) if phrases and len(periods) % len(phrases) == 0 else 0
    i = 0
    for tok, own, change in tokens:
        if change:
            columns.append(tok)
            continue
        phrase = own or (phrases[i // per] if per else (phrases[-1] if len(phrases) == 1 else None))
        i += 1
        columns.append(f"{phrase.rstrip(',')}, {tok}" if phrase and re.search(r"\d,?$", phrase)
                       else f"{phrase} {tok}" if phrase else tok)
    return TableHeader(" ".join(lines), tuple(columns))


def is_title_line(text: str) -> bool:
    """A line of column titles that name no period ("Item", "Increase (Decrease)", "$ Change  % Change")."""
    rest = text
    for a, b, _ in reversed(title_spans(text)):
        rest = rest[:a] + rest[b:]
    return rest != text and not re.search(r"[A-Za-z0-9]", re.sub(r"\([^)]*\)", " ", rest))


_FOOTNOTE_CELL = re.compile(r"\(\d\)")  # "(1)": a footnote mark


def is_one_line_row(line: str) -> bool:
    """A row printed on one text line, label and values together ("Net sales $ 1,234 $ 1,100"), as
    generated PDFs and some filings lay tables out: a label that starts like a row label (capital
    or "(") and is no sentence, then two or more value cells, none of them a year or a footnote
    mark, not all single digits ("Level 1 Level 2 Level 3", "Directors (2015)", "Impairment (1)",
    "Category 1 2 3" are not rows). Whether the values fit a header is row_cells's business."""
    label, values = split_row(line)
    return (
        len(values) >= 2
        and not any(YEAR_CELL.fullmatch(v) or _FOOTNOTE_CELL.fullmatch(v) for v in values)
        and not all(re.fullmatch(r"\d", v) for v in values)  # "Category 1 2 3": column numbers
        and bool(re.search(r"[A-Za-z]{2}", label))
        and (label[:1].isupper() or label[:1] == "(")
        and len(label.split()) <= _LONG_PROSE_WORDS
        and not re.search(r"[.!?;]$|[.!?;:]\s", label)
        and not is_period_line(line)  # "Years ended June 30," "March 9, 2023": header or date lines
    )


def _rebuild_rows(text: str, one_line_rows: bool = False) -> list[Unit]:
    lines = [clean_line(line) for line in text.splitlines()]
    lines = [line for line in lines if line]
    units: list[Unit] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        j = i + 1
        while j < len(lines) and is_value_cell(lines[j]):
            j += 1
        if j > i + 1 or is_value_cell(line) or (one_line_rows and is_one_line_row(line)):
            units.append(Unit(" ".join(lines[i:j]), True))  # label (or a bare value line) + cells: one row
        else:
            units.append(Unit(line, False))
        i = j
    return units


def _merge_value_only_rows(units: list[Unit], max_chars: int) -> list[Unit]:
    """Rows made only of values (a subtotal without a label) join the row before them."""
    merged: list[Unit] = []
    for unit in units:
        if (
            unit.is_table_row
            and merged
            and merged[-1].is_table_row
            and not merged[-1].is_header
            and all(_VALUE_CELL.match(cell) for cell in unit.text.split(" "))
            and len(merged[-1].text) + len(unit.text) < max_chars // 2
        ):
            merged[-1] = Unit(merged[-1].text + " | " + unit.text, True)
        else:
            merged.append(unit)
    return merged


def _merge_wrapped_labels(units: list[Unit]) -> list[Unit]:
    """A row label wrapped over two lines ("Other assets, net of accumulated" / "amortization of
    $503 and $482 1,826 2,027") is one row: its continuation starts in lower case."""
    out: list[Unit] = []
    for unit in units:
        prev = out[-1] if out else None
        if (
            unit.is_table_row
            and prev is not None
            and not prev.is_table_row
            and unit.text[:1].islower()
            and len(prev.text.split()) < 2 * _LONG_PROSE_WORDS
            and prev.text[-1:] not in ".:;"
        ):
            out[-1] = Unit(prev.text + " " + unit.text, True)
        else:
            out.append(unit)
    return out


_HEADER_CELL = re.compile(rf"{_YEAR}|\d{{1,2}},?|\(\d\)")  # a year, a day ("31,"), a footnote mark "(2)"


def _is_header_unit(unit: Unit) -> bool:
    """A period line ("Three Months Ended", "February 2, 2019"), or a row whose cells are all years
    ("December 31, 2018 2017", "(Dollars in millions) 2018 2017 2016 (2)")."""
    if not re.search(_YEAR, unit.text):
        return (is_period_line(unit.text) or is_title_line(unit.text)) and not unit.is_table_row
    _, cells = split_row(unit.text)
    if unit.is_table_row and not all(_HEADER_CELL.fullmatch(c) for c in cells):
        return False
    return is_period_line(unit.text) or sum(bool(re.fullmatch(_YEAR, c)) for c in cells) >= 2


def _header_text(unit: Unit) -> str:
    """What of a header unit names periods: all of a period line, only the years of a row whose
    label is a caption ("(Dollars in millions) 2018 2017")."""
    if is_period_line(unit.text) or is_title_line(unit.text):
        return unit.text
    return " ".join(c for c in split_row(unit.text)[1] if re.fullmatch(_YEAR, c))


def attach_headers(units: list[Unit]) -> list[Unit]:
    """Mark header lines and give each table row the header of its table (None when unknown).

    The header lines are the period lines above a table's first row; short section labels
    ("Assets", "Current assets") may stand between them and the row. A paragraph ends a table."""
    header: TableHeader | None = None
    pending: list[Unit] = []
    for unit in units:
        if _is_header_unit(unit):
            pending.append(unit)
            continue
        if unit.is_table_row:
            if pending:
                new = header_from_lines([_header_text(u) for u in pending])
                if new is not None:
                    header = new
                    for p in pending:
                        p.is_header, p.header = True, new
                pending = []
            unit.header = header
        elif _is_paragraph(unit.text):
            header, pending = None, []  # a paragraph: the table is over
    return units


def _is_paragraph(text: str) -> bool:
    """Prose, not a long row label: a sentence that ends, or very long."""
    words = len(text.split())
    return (words >= _LONG_PROSE_WORDS and text.rstrip()[-1:] in ".!?") or words >= 2 * _LONG_PROSE_WORDS


def page_units(text: str, max_chars: int = 1000, one_line_rows: bool = False) -> list[Unit]:
    """A page's text as prose lines and table rows (label + its value cells on one line), each
    row with the period header of its table.

    `one_line_rows`: also read a row printed on one text line (label and values together, and a
    header like "Years ended December 31, 2019 2018") as a table row. Off for chunking (the
    chunks' text stays as ingested); on for answering (agent/no_model/figures.py)."""
    units = _merge_wrapped_labels(_rebuild_rows(text, one_line_rows))
    return attach_headers(_merge_value_only_rows(units, max_chars))


MAX_CAPTION_WORDS = 8  # a table's title printed above its header is a short line ("International Segment")


def table_captions(units: list[Unit], scale_titles: bool = True) -> dict[int, str]:
    """id(table header) -> the words that title its table: a caption printed left of the header's
    periods ("Domestic Segment Performance Summary 2018 2017"), else the short line just above the
    header ("International Segment", not a sentence). One reading for the stored facts and the answer's
    rows (agent/no_model/cited_rows). `scale_titles=False`, the facts reader's: a scale caption ("Dollars in millions")
    is no title (a fact's scale is a field of its own); the answer's rows still take it as a title, as they
    did before the two readings were one (dropping it there is a change to measure, not a clean-up)."""
    captions: dict[int, str] = {}
    above = ""
    for unit in units:
        if unit.is_header and unit.header is not None:
            label = split_row(unit.text)[0]
            own = label if re.search(r"[A-Za-z]{3}", label) and not is_period_line(label) \
                and (scale_titles or not find_caption(label)) else ""
            if own or id(unit.header) not in captions:
                captions[id(unit.header)] = own or captions.get(id(unit.header)) or above
        elif not unit.is_table_row:
            words = len(unit.text.split())
            above = unit.text if 0 < words <= MAX_CAPTION_WORDS and unit.text[-1:] not in ".;:" \
                and (scale_titles or not find_caption(unit.text)) else ""
    return captions


@dataclass(frozen=True)
class Cell:
    label: str  # the row label as printed
    period: str  # the column's period label ("December 31, 2018")
    value: str  # the value as printed ("12,645", "$7,637", "(1,577)")
    row: str  # the whole row as printed
    header: TableHeader
    column: int
    section: str = ""  # the row's section ("Current liabilities"), "" when unknown
    unit: str = ""  # the table's unit caption ("in millions, except per share data"), "" when unknown


def row_cells(unit: Unit) -> list[Cell]:
    """The (label, period, value) cells of a table row whose value count matches its header."""
    if not unit.is_table_row or unit.header is None or unit.is_header or " | " in unit.text:
        return []
    if unit.cells is not None:  # read by layout: each value's column is known
        columns = unit.header.columns
        return [Cell(unit.label, columns[i], value, unit.text, unit.header, i, unit.section, unit.unit)
                for i, value in unit.cells if i < len(columns) and unit.label]
    label, values = split_row(unit.text)
    columns = unit.header.columns
    if len(values) > len(columns):  # footnote marks printed among the values: "Long-lived assets $ 3,646 $ 3,761 (1)"
        kept = [v for v in values if not _FOOTNOTE_CELL.fullmatch(v)]
        values = kept if len(kept) == len(columns) else values
    if not label or not values or len(values) != len(columns):
        return []
    return [Cell(label, col, val, unit.text, unit.header, i, unit.section, unit.unit)
            for i, (col, val) in enumerate(zip(columns, values))]


def percent_row(cells: list[Cell]) -> bool:
    """The row prints percentages: each period's value with "%", or 100 in every column (the base row of a
    table of percentages of total revenues); its change columns may print points ("Gross margin 45.7% 39.2%
    6.5 pts", "39.2%  53.6%  down 14.4 ppts" under "vs. Q4 2021"), or a cell with no number ("flat", "n/m")."""
    cells = [c for c in cells if not heads_change(c.period) and not POINTS_CELL.search(c.value)
             and parse_number(c.value) is not None] or cells
    return all(c.value.endswith("%") for c in cells) or all(parse_number(c.value) == 100 for c in cells)
