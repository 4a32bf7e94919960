"""Financial tables read by layout: each value belongs to the period column it sits under.

storage/documents/tables.py reads a page's text in line order and guesses which period a value belongs to
from how many values and header tokens there are; a header sentence above the year row ("Fiscal
years ended December 31, 2022, December 25, 2021 and December 26, 2020" / "2022 2021 2020") or a
row with an empty cell defeats it. This module reads the page's words with their boxes
(`pymupdf.Page.get_text("words")`) instead:

1. words are grouped into visual lines (by their vertical centre), and each line into a label
   (the text at its left) and value cells at its right ("$" and "%" printed apart are glued to
   their number, "(353 )" is one cell, a footnote mark or year that touches the label is label);
2. a table is a run of value lines under its header lines (period lines: "Years ended",
   "September 24,", "2022", "Three Months Ended"); its columns are the clusters of the value
   cells' right edges (figures are right-aligned);
3. each header segment (words separated by wide gaps) labels the columns it stands over: one
   column (its own "2022"), or several (a spanning "Three Months Ended" or a header sentence that
   lists the dates, whose date with the column's year becomes the column's date);
4. a year over a group of columns whose titles repeat ("2022" over "Amount  Increase/(decrease)")
   heads the whole group, centred over it or right-aligned with its last column;
5. a roll-forward (equity statement, award activity) or a bridge ("Earnings - 2015", its drivers,
   "Earnings - 2016") has no period over its columns: its columns take their component titles and
   each row the period its balance or end rows give it (storage/documents/table_rollforward.py);
6. every row keeps the unit caption printed above its table ("In millions, except per share
   amounts") and its section (the last label-only line above it: "Current liabilities:");
7. a table without a header of its own takes the header of the table before it with the same columns:
   on the page (the table goes on after a note, or under a year section, or under a period phrase or caption
   printed alone in the stub: "At Year-End", "(in millions)"), or on the previous page when the page says
   the statement is "(continued)".

Rows come out as `storage.documents.tables.Unit`s whose `cells` say which column each value is in, so a row
with an empty cell still gives each value its own period (`storage.documents.tables.row_cells`).

Why not `pymupdf.Page.find_tables()` or pdfplumber: on the dev 10-Ks find_tables found a period
header on 63 of 137 table pages at ~0.9 s a page (bench.answers --tables), and neither assigns
a spanning header or a header sentence to columns; `python -m bench.table_coverage` measures the
share of statement rows whose every value gets a period, this reader against the text parser.
"""

from __future__ import annotations

import re
from dataclasses import replace

from storage.documents.table_headers import header_for
from storage.documents.table_rollforward import column_titles, period_columns, row_periods, year_label_periods
from storage.documents.table_words import (
    CAPTION_WORDS, COLUMN_GAP, DASH, SEGMENT_GAP, FOOTNOTE, FOOTNOTE_AFTER_LABEL, LONG_PROSE_WORDS, MAX_HEADER_LINES, MAX_SECTION_WORDS, UNIT_CAPTION, YEAR_CELL,
    Column, Line, Segment, Word, average_char_width, heads_columns, segments, split_label_values, strip_unit_heads,
    visual_lines,
)
from storage.documents.tables import PERIOD_TOKEN, TableHeader, Unit, is_period_line
from storage.finance.numbers import parse_number
from storage.finance.scale import find_caption
from storage.finance.periods import (MONTHS, PRINTED_DATE, YEAR, YEAR_COLUMN_TITLE, YEAR_ENDED_MONTH_DAY, YEAR_WORD,
                                     is_year_schedule)

# (what this module offered before its helpers moved to table_words / table_headers)
__all__ = ["Column", "Line", "Segment", "Word", "columns_of", "has_table", "header_for", "layout_units", "read_layout",
           "segments", "split_label_values", "visual_lines"]


def _is_header_line(line: Line) -> bool:
    """A period line ("Years ended", "September 24,", "2022 2021 2020", "Three Months Ended")."""
    text = line.text
    if line.label and line.values:  # "2019 2018 2017" after a period phrase or a short caption
        # "($ in millions) December 31,", "In millions, except per share data  Years ended December 31,"
        label = " ".join(CAPTION_WORDS.sub(" ", re.sub(r"\([^)]*\)", " ", line.label)).split())
        # a table title before the dates: "Domestic Segment Results  January 28, 2023  January 29, 2022"
        return heads_columns(line.values) and (
            not label or is_period_line(label) or len(PERIOD_TOKEN.sub(" ", label).split()) <= MAX_SECTION_WORDS)
    # a caption printed at the left of a period line: "(In millions, except per share data)   Year Ended December 31,"
    bare = " ".join(CAPTION_WORDS.sub(" ", re.sub(r"\([^)]*\)", " ", text)).split())
    return is_period_line(text) or heads_columns(line.values) \
        or bool(_BALANCE_AT.match(text)) or (bare != text.strip() and is_period_line(bare))


# a table's columns, header and column-title lines, and whether it runs to its page's end (nothing but a page
# number below its rows: the statement may go on over the next page)
LastTable = tuple[list[Column], TableHeader, list[Line], bool]
_CONTINUED = re.compile(r"(?i)\bcontinued\b")
PERCENT_SHIFT = 2.5 * COLUMN_GAP  # how far left of its column a "%" printed apart pushes a figure's digits
# a balance sheet's date phrase over its year columns: "Balance at December 31,", "Balances as of June 30,"
_BALANCE_AT = re.compile(r"(?i)^\s*balances?\s+(?:at|as\s+of)\s+[A-Z][a-z]{2,8}\.?\s+\d{1,2},?\s*$")


def _is_row(line: Line) -> bool:
    if not line.label and all(FOOTNOTE.match(v[0]) for v in line.values):
        return False  # a footnote mark printed on a line of its own (a superscript)
    return bool(line.values) and not heads_columns(line.values) and (
        not line.label or len(line.label.split()) <= 2 * LONG_PROSE_WORDS)


def _is_section(line: Line) -> bool:
    """A short label-only line inside a table ("Current liabilities:", "Net sales:"), or a longer one that
    introduces the rows below it ("Diluted earnings per common share attributable to Acme common shareholders:")."""
    words = len(line.text.split())
    return not line.values and 0 < words and (words <= MAX_SECTION_WORDS or (
        words < 2 * LONG_PROSE_WORDS and line.text.rstrip().endswith(":"))) and not is_period_line(line.text) \
        and not _unit_caption(line) and len(segments(line, average_char_width(line.words))) == 1  # titles are no section


def _is_sentence(line: Line) -> bool:
    """A long line with no values printed as one run of text (column titles, "Total  Level 1  Level 2 ...",
    are several)."""
    return not line.values and len(line.text.split()) >= LONG_PROSE_WORDS \
        and len(segments(line, average_char_width(line.words))) == 1


def _is_paragraph(line: Line) -> bool:
    """Prose: a sentence, not a label introducing rows ("Adjustments to reconcile net earnings to total cash
    provided by operating activities:")."""
    return not line.text.rstrip().endswith(":") and _is_sentence(line)


def _is_table_caption(line: Line) -> bool:
    """The sentence that introduces the next table and states its unit ("Lease liability maturities as of
    September 24, 2022, are as follows (in millions):"): a unit caption is printed above a table, never
    among its rows, so it ends the table above it."""
    return bool(_unit_caption(line)) and _is_sentence(line)


def columns_of(rows: list[Line], head: list[Line] | None = None) -> list[Column]:
    """Columns from the right edges of the rows' value cells (figures are right-aligned). `head`: the
    table's header lines; a column only one row fills (a ratio only the total row prints) is kept when
    its row prints two or more other values, some before it, and a header word stands over it."""
    edges = sorted((x1, x0, text, k, i) for k, row in enumerate(rows) for i, (text, x0, x1) in enumerate(row.values))
    cols: list[Column] = []
    support: list[int] = []
    percent: list[bool] = []  # every cell of the column printed with "%"
    owners: list[tuple[int, int]] = []  # the row of a column's first cell, and the cell's place in its row
    for x1, x0, text, k, i in edges:
        if cols and x1 - cols[-1].x1 <= COLUMN_GAP:
            cols[-1].x0, cols[-1].x1 = min(cols[-1].x0, x0), max(cols[-1].x1, x1)
            support[-1] += 1
            percent[-1] = percent[-1] and text.endswith("%")
        else:
            cols.append(Column(x0, x1))
            support.append(1)
            percent.append(text.endswith("%"))
            owners.append((k, i))
    # "42.1 %" right-aligned as a whole in an amounts column: its digits stop a "%" short of the column's edge
    for k in range(len(cols) - 2, -1, -1):
        # (or "35.4 %" whose digits reach into the amounts' own span: a wide "%" glyph set further apart)
        shift = cols[k + 1].x1 - cols[k].x1
        if percent[k] and not percent[k + 1] and (shift <= PERCENT_SHIFT
                                                  or shift <= 3 * COLUMN_GAP and cols[k].x1 > cols[k + 1].x0):
            cols[k + 1].x0 = min(cols[k].x0, cols[k + 1].x0)
            support[k + 1] += support[k]
            del cols[k], support[k], percent[k], owners[k]
    # a value standing alone at its position (a page number, a note reference) makes no column
    # when real columns hold several rows each
    if max(support, default=0) >= 3:
        titled = [(w.x0, w.x1) for ln in head or () for w in ln.words]
        held = [c for c, n in zip(cols, support) if n >= 2]
        # (not its row's first value: "less allowances of $800 and $692" ends a label; not a value overlapping a
        # column of several rows: a wider figure printed left-aligned in that column)
        # (nor a dash: a stray mark beside a column's own dash, "—  -", prints no figure of a column of its own)
        cols = [c for c, n, (k, i) in zip(cols, support, owners) if n >= 2 or len(rows[k].values) >= 3 and i > 0
                and not FOOTNOTE.match(rows[k].values[i][0]) and not DASH.match(rows[k].values[i][0])
                and any(a <= c.x1 and c.x0 <= b for a, b in titled)
                and not any(h.x0 <= c.x1 and c.x0 <= h.x1 for h in held)]
    return cols


def _column_of(x0: float, x1: float, cols: list[Column]) -> int | None:
    best, dist = None, None
    for i, c in enumerate(cols):
        d = abs(x1 - c.x1)
        if (c.x0 - 2 <= x1 and x0 <= c.x1 + 2 or d <= COLUMN_GAP) and (dist is None or d < dist):
            best, dist = i, d
    return best


def _is_column_titles(line: Line, cols: list[Column], char_width: float) -> bool:
    """A line of column titles ("Adjusted Cost  Unrealized Gains  Fair Value"): no values, two or
    more segments, all of them over the columns."""
    if line.values or not cols:
        return False
    segs = segments(line, char_width)
    centres = sorted((c.x0 + c.x1) / 2 for c in cols)
    gaps = sorted(b - a for a, b in zip(centres, centres[1:]))
    # a title centred over right-aligned figures reaches left of them
    reach = max(4 * char_width, gaps[len(gaps) // 2] / 2 if gaps else 0)
    if segs and segs[0].x1 < cols[0].x0 - reach:
        segs = segs[1:]  # a caption at the left: "(Dollars in millions)   Reported  Standards  Restated"
    # (a head wider than its figures, "2022 $ million" centred over "11,151", or a span phrase over the years reaches
    # over the first column's figures from further left; a title "2022 Mosquito fire" does not)
    return len(segs) >= 2 and all((s.x0 >= cols[0].x0 - reach or s.x1 > cols[0].x0 and (
        bool(line.units) or is_period_line(s.text))) and s.x1 <= cols[-1].x1 + 4 * char_width for s in segs)


def _unit_caption(line: Line) -> str | None:
    caption = find_caption(line.text)
    return caption.strip(" ()") if caption else None


def _joined_caption(a: Line, b: Line) -> str | None:
    """A unit caption that only the two lines together print ("(in" + "millions):")."""
    caption = find_caption(f"{a.text} {b.text}")
    return caption.strip(" ():") if caption and caption not in a.text else None


def _is_dated_titles(line: Line) -> bool:
    """Column titles that print a year ("2017 Balance  Gains/(Losses)  Settlements  2017 Balance"):
    the header of the next table."""
    return not line.values and bool(YEAR_WORD.search(line.text)) \
        and len(segments(line, average_char_width(line.words))) >= 2


def _prose_figure(line: Line, after: Line, char_width: float) -> bool:
    """A line of a paragraph that happens to end in a figure ("... the total unrecognized compensation cost
    related to outstanding RSUs was $16.7" / "billion, which the Company expects to recognize ..."): a sentence
    whose one figure follows its words at a word's spacing and whose text goes on in the next line, no row of
    a table (read as one, it took the period of the column it happened to end under)."""
    if len(line.values) != 1 or len(line.label.split()) < LONG_PROSE_WORDS or after.values or not after.words:
        return False
    x0 = line.values[0][1]
    before = [w.x1 for w in line.words if w.x1 <= x0 + 0.5]
    gap = x0 - max(before) if before else 0.0
    starts = after.words[0].text[:1]
    return gap <= SEGMENT_GAP * char_width and (starts.islower() or len(after.text.split()) >= LONG_PROSE_WORDS)


def _marks_only(line: Line) -> bool:
    """Footnote marks on a line of their own ("(2)" superscript over a row's figure): no header of a next table."""
    return bool(line.words) and all(FOOTNOTE.match(w.text) for w in line.words)


def _mid(line: Line) -> float:
    return sum(w.y0 + w.y1 for w in line.words) / (2 * len(line.words))


def _label_below(lines: list[Line], k: int) -> bool:
    """Row k's label is printed under its figures (a total's "Net income" below "$ 1,058  $ 815"): the
    label-only line after it is nearer than the one before it."""
    if k + 1 >= len(lines) or lines[k + 1].values or not lines[k + 1].words:
        return False
    return _mid(lines[k + 1]) - _mid(lines[k]) < _mid(lines[k]) - _mid(lines[k - 1])


def _table_blocks(lines: list[Line]) -> list[tuple[int, int, int]]:
    """(first header line, first row, end) of each table: header lines, then rows until a
    paragraph, the next table's header or the page's end."""
    blocks = []
    i, n = 0, len(lines)
    while i < n:
        if not _is_row(lines[i]):
            i += 1
            continue
        start = i
        h = i
        while h > 0 and i - h < MAX_HEADER_LINES and (_is_header_line(lines[h - 1]) or _unit_caption(lines[h - 1])
                                                          or lines[h - 1].text.strip() in ("$", "%")
                                                          or _is_section(lines[h - 1])
                                                          or (not lines[h - 1].values and not _is_paragraph(lines[h - 1]))):
            h -= 1
        while h < i and _is_section(lines[h]):  # a section label above the header is not part of the table
            h += 1
        j = i
        # a long label-only line followed by a row is a wrapped row label, not prose
        while j < n and not (_is_paragraph(lines[j]) and (j + 1 == n or not _is_row(lines[j + 1]))
                             or j > i and _is_table_caption(lines[j])):
            if j > i and not _marks_only(lines[j]) and (_is_header_line(lines[j]) and not _is_row(lines[j])
                                                        or _is_dated_titles(lines[j])):
                break
            j += 1
        blocks.append((h, start, j))
        i = j if j > i else i + 1
    return blocks


def layout_units(words: list[tuple]) -> list[Unit]:
    """A page's lines as `Unit`s, table rows with their header, cells, section and unit caption.

    `words`: `pymupdf.Page.get_text("words")` tuples (x0, y0, x1, y1, text, ...)."""
    return read_layout(words)[0]


def read_layout(words: list[tuple], carried: LastTable | None = None) -> tuple[list[Unit], LastTable | None]:
    """`layout_units`, and the page's last table with a header (its columns, header and title lines).
    `carried`: the previous page's last table, whose header a table headed "(continued)" with the same
    columns and no header of its own goes on with (a statement printed over two pages)."""
    ws = [Word(*map(float, w[:4]), str(w[4])) for w in words if str(w[4]).strip()]
    if not ws:
        return [], None
    cw = average_char_width(ws)
    lines = visual_lines(ws)
    for line in lines:
        strip_unit_heads(line, cw)
        split_label_values(line, cw)
    for line, after in zip(lines, lines[1:]):
        if _prose_figure(line, after, cw):
            line.label, line.values = line.text, []
    kinds: list[Unit | None] = [None] * len(lines)
    unit_caption = ""
    blocks = _table_blocks(lines)
    previous: LastTable | None = None
    previous_end = 0  # where the last table with a header ends
    head_over: list[Line] = []  # the header lines printed over the columns of the last table with a header
    for h, start, end in blocks:
        for k in range(0, h):
            unit_caption = _unit_caption(lines[k]) or unit_caption
        rows = [ln for ln in lines[start:end] if _is_row(ln)]
        cols = columns_of(rows, lines[h:start])
        header_lines = [ln for ln in lines[h:start] if _is_header_line(ln) or _is_column_titles(ln, cols, cw)]
        dated = [ln for ln in lines[h:start] if _is_table_caption(ln) and len(set(re.findall(YEAR, ln.text))) == 1]
        if header_lines and dated and not any(re.search(YEAR, ln.text) for ln in header_lines):
            # titles without a date ("Operating Leases  Finance Leases  Total") under a caption with one
            # ("... as of September 24, 2022, are as follows (in millions):"): the caption dates every column
            # (_due_year_schedule dates a column from its caption too, but for a table with no header at all: one
            # column under year rows, its caption sentence found above the block by its ":" with or without a
            # unit; with no header to parse, it must state one whole date, "May 31, 2023", since a year alone
            # could be the rows'. Here the caption joins a header whose parser reads any period it states.)
            header_lines = dated[-1:] + header_lines
        for k in range(max(h - 1, 0), start):
            # a caption broken over two lines: "... were as follows (in" / "millions):"
            unit_caption = _unit_caption(lines[k]) or (k + 1 < start and not _unit_caption(lines[k + 1])
                                                       and _joined_caption(lines[k], lines[k + 1])) or unit_caption
        header, titles = _table_header(header_lines, cols, cw, previous, carried, lines[:start], _opens_page(lines, start))
        # a period phrase or caption printed in the stub only ("At Year-End", "For the Year", "(in millions)") between
        # two parts of a table whose years head the first part: the years over the columns with this part's phrase
        # (unless the part is a roll-forward, whose rows' balances date them)
        go_on = header_for(head_over + header_lines, cols, cw) if header is None and previous is not None and head_over \
            and _stub_phrases(header_lines, cols, cw) and _same_columns(previous[0], cols) else None
        if header is not None:
            previous, previous_end = (cols, header, titles, False), end
            head_over = [ln for ln in header_lines if not _left_of(ln, cols, cw)] or head_over
        for k in range(h, start):
            if _is_header_line(lines[k]) and header is not None:
                kinds[k] = Unit(lines[k].text, False, header, is_header=True)
        row_lines = [k for k in range(start, end) if _is_row(lines[k])]
        named: set[int] = set()  # label-only lines that are the label of the unlabelled row under them
        for k in row_lines:
            ln, before = lines[k], lines[k - 1] if k > start else None
            if before is not None and not before.values and (
                    (ln.label[:1].islower() and not before.text.rstrip().endswith(":")) or ln.label[:1].isdigit()):
                # a row label wrapped over two lines ("Net income attributable to non-" / "controlling interests")
                ln.label = (f"{before.text.rstrip()}{ln.label}" if re.search(r"[A-Za-z]-$", before.text.rstrip())
                            else f"{before.text} {ln.label}").strip()
                named.add(k - 1)  # (its first line heads no section over the rows after it)
            elif before is not None and not before.values and not ln.label and k - 1 not in row_lines \
                    and not before.text.rstrip().endswith(":") and not _marks_only(before) and not _is_header_line(before) \
                    and not before.text.rstrip().endswith(".") and not _is_paragraph(before) \
                    and sum(bool(re.search(r"\d", v)) for v, _, _ in ln.values) >= 2 \
                    and not YEAR_CELL.match(ln.values[0][0]) and not _label_below(lines, k):
                # a label whose figures are printed on the next line ("Foreign currency translation adjustments,
                # net of tax (b)" / "144  (21)  (17)  (116)"): the row's label, no section over the rows after it
                ln.label = before.text.strip()
                named.add(k - 1)
        if header is not None:
            cols, header = _due_year_stub(header, row_lines, lines, cols)
        row_headers = (_spans_dated_by_rows(header_lines, row_lines, lines, cols, cw)
                       or _rollforward_headers(lines[h:start], row_lines, lines, cols, cw)) if header is None else {}
        if header is None and not row_headers and go_on is not None:
            header = go_on
        if header is None and not row_headers:
            # (before the year rows: a schedule's consecutive years, "2023 ... 2027  Thereafter  Total", are no
            # periods of its figures but when they fall due, and its Thereafter and Total rows belong to it too)
            cols, header = _due_year_schedule(lines[:start], row_lines, lines, cols)
        if header is None and not row_headers:
            cols, row_headers = _year_rows(lines[max(h - 3, 0):start], row_lines, lines, cols, cw)
        section = ""
        for k in range(h, end):
            ln = lines[k]
            if k not in row_lines:
                if k in named:
                    continue
                if k >= start or not _is_header_line(ln):
                    section = ln.text.rstrip(":").strip() if _is_section(ln) else section
                continue
            row_header = row_headers.get(k, header)
            cells, boxes, unplaced = [], [], []
            y0, y1 = min(w.y0 for w in ln.words), max(w.y1 for w in ln.words)
            for value, x0, x1 in ln.values:
                col = _column_of(x0, x1, cols)
                if col is not None and all(c != col for c, _ in cells):
                    cells.append((col, value))
                    boxes.append((round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2)))
                elif not DASH.match(value):  # (a second dash where its column has one already: a stray mark)
                    unplaced.append(value)
            text = " ".join([ln.label] + [v for v, _, _ in ln.values]).strip()
            # (a change column only the total row fills, "2015  Change  2014  Change  2013": its percentages make
            # no column of their own; the row's amounts stand under their periods)
            laid = row_header is not None and (not unplaced or bool(cells) and all(v.endswith("%") for v in unplaced)
                                               and not any(v.endswith("%") for _, v in cells))
            label = ln.label
            if row_header is not None and row_header.kind == "roll-forward" and YEAR_CELL.match(label) and section:
                label = section  # a year printed as the row's label: the row is its section's item ("Revenue")
            kinds[k] = Unit(text, True, row_header, section=section, unit=unit_caption,
                            cells=tuple(cells) if laid else None, label=label,
                            label_box=_label_box(ln), cell_boxes=tuple(boxes) if laid else None)
            if ln.label.lower().startswith("total"):
                section = ""  # "Total current liabilities" closes its section
        if header is not None and (marked := _percent_columns(header, [kinds[k] for k in row_lines])) is not header:
            for k in range(h, end):
                if kinds[k] is not None and kinds[k].header is header:
                    kinds[k].header = marked
            if previous is not None and previous[1] is header:
                previous = (previous[0], marked, *previous[2:])
    if previous is not None and all(_page_number_only(ln) for ln in lines[previous_end:]):
        previous = (*previous[:3], True)
    return [kinds[k] or Unit(ln.text, False) for k, ln in enumerate(lines)], previous


def _percent_columns(header: TableHeader, rows: list[Unit | None]) -> TableHeader:
    """The header with each untitled percentage column named as a titled one is ("%", unit "%"): a results table's
    percent of sales printed right of its amount under one period ("2021" over "12,861  100.0 %"), no title over it,
    its "%" printed in some rows only ("(78.8)" beside cost of sales). Told by its figures: the column right of a twin
    of the same period prints a "%" in some row, no "$" and nothing over 1,000, and in every row printing both, a
    smaller number than the twin, which prints amounts (a number, no "%"). Read as the period's, its figures would be a
    second amount of that year and the year unanswerable."""
    if header.kind != "periods":
        return header
    columns, units = list(header.columns), list(header.units or [""] * len(header.columns))
    cells = [dict(unit.cells or ()) for unit in rows if unit is not None]
    for j in range(1, len(header.columns)):
        if header.columns[j] != header.columns[j - 1] or units[j]:
            continue
        mine = [c[j] for c in cells if j in c and not DASH.match(c[j])]
        pairs = [(parse_number(c[j - 1]), parse_number(c[j])) for c in cells if j in c and j - 1 in c]
        twin = [c[j - 1] for c in cells if j - 1 in c]
        if any("%" in v for v in mine) and not any("$" in v for v in mine) \
                and all(n is not None and abs(n) < 1000 for n in map(parse_number, mine)) \
                and any(parse_number(v) is not None for v in twin) and not any("%" in v for v in twin) \
                and all(abs(a) >= abs(b) for a, b in pairs if a is not None and b is not None):
            columns[j], units[j] = "%", "%"
    if columns == list(header.columns):
        return header
    return replace(header, columns=tuple(columns), units=tuple(units))


def _opens_page(lines: list[Line], start: int) -> bool:
    """The rows from `start` are the page's first: no figures, no unit caption (a new table's) and no prose
    above them but the first half of their first label ("Short-term debt financing, net of issuance costs of
    $0, $1, and $2 at" / "respective dates  —  300  1,448"); a section label may stand over them."""
    wrapped = start > 0 and lines[start].label[:1].islower()
    return not any(ln.values or _unit_caption(ln) or _is_paragraph(ln) and not (wrapped and k == start - 1)
                   for k, ln in enumerate(lines[:start]))


def _page_number_only(line: Line) -> bool:
    """A line below a page's last table that does not end it: empty, or a bare page number."""
    return not line.label and all(re.fullmatch(r"\d{1,3}", v) for v, _, _ in line.values)


def _table_header(header_lines: list[Line], cols: list[Column], cw: float, previous: LastTable | None,
                  carried: LastTable | None, above: list[Line], opens_page: bool) -> tuple[TableHeader | None, list[Line]]:
    """A table's header and its column-title lines, from its own header lines, else from the table
    before it on the page (`previous`) or on the previous page (`carried`). `opens_page`: nothing but
    label lines is printed above its rows (`_opens_page`)."""
    titles = [ln for ln in header_lines if not re.search(YEAR, ln.text)]
    if header_lines and not titles and previous is not None and _same_columns(previous[0], cols) \
            and all(PERIOD_TOKEN.fullmatch(FOOTNOTE_AFTER_LABEL.sub("", ln.text).strip()) for ln in header_lines):
        # a year printed as a section ("Fiscal 2022", "Fiscal Year 2022 (1)") over the next rows of a table whose columns are titled
        # above its first year ("First Quarter  Second Quarter ..."): the titles with this year
        titles = previous[2]
        header_lines = titles + header_lines
    header = header_for(header_lines, cols, cw) if header_lines else None
    if header is None and not header_lines and previous is not None and _same_columns(previous[0], cols):
        header = previous[1]  # the table goes on after a note printed inside it
    if header is None and previous is None and carried is not None and _same_columns(carried[0], cols) \
            and not any(_is_column_titles(ln, cols, cw) for ln in header_lines) \
            and any(_CONTINUED.search(ln.text) for ln in above):
        header = carried[1]  # the statement goes on from the previous page, under "... (continued)"
    if header is None and previous is None and carried is not None and carried[3] and not header_lines \
            and len(cols) > 1 and _same_columns(carried[0], cols) and opens_page:
        # no "(continued)" printed: the page opens with rows in the columns of a table that ran to the previous page's
        # end (a statement's second page: "Credit facilities financing fees  —  (9)  (22)" under no header); one
        # column is no statement's (a contents page's page numbers)
        header = carried[1]
    return header, titles


def _left_of(line: Line, cols: list[Column], char_width: float) -> bool:
    """The line is printed in the stub only: every word ends left of the first column."""
    return bool(cols) and all(w.x1 < cols[0].x0 - 2 * char_width for w in line.words)


def _stub_phrases(header_lines: list[Line], cols: list[Column], char_width: float) -> bool:
    """Header lines that are period phrases without a year, or a unit caption, printed in the stub ("At Year-End",
    "For the Year", "(in millions)"): they head no column of their own."""
    return bool(header_lines) and all(_left_of(ln, cols, char_width) and (is_period_line(ln.text) or _unit_caption(ln))
                                      and not re.search(YEAR, ln.text) for ln in header_lines)


def _label_box(line: Line) -> tuple[float, float, float, float] | None:
    """The box of the label's words on the row's line (left of its first value)."""
    first = line.values[0][1] if line.values else float("inf")
    words = [w for w in line.words if w.x1 <= first - 0.5 and w.text not in ("$", "(", "$(")]
    if not words or not line.label:
        return None
    return (round(min(w.x0 for w in words), 2), round(min(w.y0 for w in words), 2),
            round(max(w.x1 for w in words), 2), round(max(w.y1 for w in words), 2))


def _rollforward_headers(head: list[Line], rows: list[int], lines: list[Line], cols: list[Column],
                         char_width: float) -> dict[int, TableHeader]:
    """Line index -> header of each row of a roll-forward (storage/documents/table_rollforward.py): the
    columns' titles printed above them, each with the row's period; {} for any other table."""
    labels = [lines[k].label for k in rows]
    periods = (row_periods(labels) or year_label_periods(labels)) if cols else None
    if periods is None:
        return {}
    left = cols[0].x0 - 4 * char_width
    title_lines = [ln for ln in head if not ln.values and not is_period_line(ln.text)]
    # a title names a component: no year, no sentence ("A summary of RSU activity for 2022, 2021 and 2020:")
    segs = [[(s.x0, s.x1, s.text) for s in segments(ln, char_width)
             if s.x1 >= left and not re.search(YEAR, s.text) and len(s.words) < MAX_SECTION_WORDS]
            for ln in title_lines]
    titles = column_titles(segs, [(c.x0, c.x1) for c in cols])
    text = " ".join(ln.text for ln in title_lines)
    return {k: TableHeader(text, period_columns(titles, period), kind="roll-forward")
            for k, period in zip(rows, periods) if period is not None}


def _spans_dated_by_rows(header_lines: list[Line], rows: list[int], lines: list[Line], cols: list[Column],
                         char_width: float) -> dict[int, TableHeader]:
    """Line index -> header of each row of a table whose header prints spans without a year ("Three Months Ended
    June 30" over "Flexibles  Rigid Packaging  Total") and whose rows print the years: an item for two or more
    years ("Net sales fiscal year 2023", "Net sales fiscal year 2022"), the components of its change between
    them ("Volume %", "Price/Mix %"). A year row's columns are the spans of its year; every other row's, the
    latest year's: the change it explains is into that year. {} for any other table."""
    if not cols or not header_lines or any(re.search(YEAR, ln.text) for ln in header_lines):
        return {}
    years = year_label_periods([lines[k].label for k in rows])
    if years is None:
        return {}
    latest = max(y for y in years if y)
    headers = {y: header_for(header_lines, cols, char_width, rows_year=y) for y in set(years) | {latest} if y}
    if any(h is None or len(h.columns) != len(cols) for h in headers.values()):
        return {}
    return {k: headers[year or latest] for k, year in zip(rows, years)}


def _year_rows(head: list[Line], rows: list[int], lines: list[Line], cols: list[Column],
               char_width: float) -> tuple[list[Column], dict[int, TableHeader]]:
    """A table whose rows are years under item sections ("Revenue" / "2023 $42,743 $33,507 ..." /
    "2022 ..."), its columns components ("FedEx Express Segment", ...): each year row's period is its
    year (with the month and day of a "years ended May 31" caption), its columns the titles above
    them, kind "roll-forward" like other tables whose periods stand in the rows. The years become the
    rows' labels and leave the columns. (cols, {}) for any other table."""
    years = [k for k in rows if not lines[k].label and len(lines[k].values) >= 2 and YEAR_CELL.match(lines[k].values[0][0])]
    if len(years) < 2 or len(years) < 0.6 * len(rows) or len({lines[k].values[0][2] // COLUMN_GAP for k in years}) > 2:
        return cols, {}
    for k in years:
        lines[k].label, lines[k].values = lines[k].values[0][0], lines[k].values[1:]
    cols = columns_of([lines[k] for k in rows])
    if not cols:
        return cols, {}
    left = cols[0].x0 - 4 * char_width
    title_lines = [ln for ln in head if _is_column_titles(ln, cols, char_width)]
    segs = [[(s.x0, s.x1, s.text) for s in segments(ln, char_width) if s.x1 >= left and not re.search(YEAR, s.text)]
            for ln in title_lines]
    titles = column_titles(segs, [(c.x0, c.x1) for c in cols])
    month_day = next((m.group(1) for ln in head if (m := YEAR_ENDED_MONTH_DAY.search(ln.text))), None)
    text = " ".join(ln.text for ln in title_lines)
    out = {}
    for k in years:
        year = lines[k].label.strip("(),")
        out[k] = TableHeader(text, period_columns(titles, f"Year ended {month_day}, {year}" if month_day else year),
                             kind="roll-forward")
    return cols, out


def _due_year_schedule(above: list[Line], rows: list[int], lines: list[Line],
                       cols: list[Column]) -> tuple[list[Column], TableHeader | None]:
    """A schedule of amounts due by year: one column of figures whose rows are labelled by consecutive years
    ("2024", "Fiscal 2025", ..., "Thereafter", "Total"), with no period over the column ("Debt Principal",
    or nothing). Its column is dated by the caption sentence that introduces it ("... at May 31, 2023 were as
    follows (in millions):") when that states one date, and titled by the words printed over it. A year printed
    as the row's first cell becomes its label. (cols, None) for any other table. (read_layout's `dated` dates a
    titled header by its caption; why the two differ is said there.)"""
    label = {k: lines[k].values[0][0] if not lines[k].label and len(lines[k].values) == 2
             and YEAR_CELL.match(lines[k].values[0][0]) else lines[k].label for k in rows}
    years = [int(re.search(YEAR, label[k]).group()) for k in rows if YEAR_COLUMN_TITLE.match(label[k].strip())]
    # (the years as a column title prints them, "Fiscal 2025", "Year 2025": unlike periods.schedule_row_year, no
    # "FY2025"; widening it here would change stored facts)
    if not is_year_schedule(years):
        return cols, None
    moved = {k: Line(lines[k].words, label[k], lines[k].values[1:]) for k in rows if label[k] != lines[k].label}
    one = columns_of([moved.get(k, lines[k]) for k in rows])
    if len(one) != 1:
        return cols, None
    # above the rows: the column's title lines, then the caption sentence ending in ":" (its lines back to the
    # end of the sentence before it)
    k = len(above) - 1
    titles = []
    while k >= 0 and not above[k].values and not _is_sentence(above[k]) and not above[k].text.rstrip().endswith(":") \
            and len(titles) < 3:
        titles.insert(0, above[k].text.strip())
        k -= 1
    caption = []
    if k >= 0 and not above[k].values and above[k].text.rstrip().endswith(":"):
        caption.append(above[k].text)
        k -= 1
        while k >= 0 and len(caption) < 3 and not above[k].values and not above[k].text.rstrip().endswith((".", ":")):
            caption.insert(0, above[k].text)
            k -= 1
    dates = set(PRINTED_DATE.findall(" ".join(caption)))
    title = " ".join(t for t in titles if not find_caption(t))
    column = " ".join(([dates.pop()] if len(dates) == 1 else []) + ([title] if title else [])).strip()
    if not column:
        return cols, None
    for k, ln in moved.items():
        lines[k].label, lines[k].values = ln.label, ln.values
    return one, TableHeader(" ".join(titles) or column, (column,))


# a column title that is only a date or a year ("2022", "December 31, 2022", "2019 December 31"): no words of its own
_ONLY_DATE = re.compile(rf"(?i)(?:(?:{'|'.join(MONTHS)})[a-z]*\.?|\d{{1,2}}|{YEAR}|[\s,])*")


def _due_year_stub(header: TableHeader, rows: list[int], lines: list[Line],
                   cols: list[Column]) -> tuple[list[Column], TableHeader]:
    """A schedule of amounts due by year with several columns under a header of its own ("Operating Leases
    Finance Leases Total" under "... as of September 24, 2022, are as follows (in millions):"), its years
    ("2023", "2024", ... then "Thereafter", "Total") printed in the stub with no label: the years were read
    as a first column of values (titled by the caption's date, or by nothing), leaving the rows unlabelled,
    so no answer could name them. The years become the rows' labels and their column leaves the table.
    Only when the table starts with such rows, their years a schedule's (storage/finance/periods.is_year_schedule:
    three or more consecutive), no labelled row prints a value in that column, and the column has no title but a
    date (a "Maturity" column of a debt table keeps its years). (cols, header) unchanged for any other table."""
    if len(cols) < 2 or len(header.columns) != len(cols) or not _ONLY_DATE.fullmatch(header.columns[0]):
        return cols, header
    first = [k for k in rows if lines[k].values and _column_of(*lines[k].values[0][1:], cols) == 0]
    years = [k for k in first if not lines[k].label and len(lines[k].values) >= 2 and YEAR_CELL.match(lines[k].values[0][0])]
    if years != first or rows[:len(years)] != years \
            or not is_year_schedule(int(re.search(YEAR, lines[k].values[0][0]).group()) for k in years):
        return cols, header
    for k in years:
        lines[k].label, lines[k].values = lines[k].values[0][0].strip("(),"), lines[k].values[1:]
    units = header.units[1:] if len(header.units) == len(cols) else header.units
    return cols[1:], replace(header, columns=header.columns[1:], units=units)


def _same_columns(a: list[Column], b: list[Column]) -> bool:
    return len(a) == len(b) and all(abs(x.x1 - y.x1) <= 2 * COLUMN_GAP for x, y in zip(a, b))


def has_table(units: list[Unit]) -> bool:
    """Whether the layout read found at least one row with every value under a period."""
    return any(u.cells for u in units)
