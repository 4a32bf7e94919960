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
4. every row keeps the unit caption printed above its table ("In millions, except per share
   amounts") and its section (the last label-only line above it: "Current liabilities:").

Rows come out as `storage.documents.tables.Unit`s whose `cells` say which column each value is in, so a row
with an empty cell still gives each value its own period (`storage.documents.tables.row_cells`).

Why not `pymupdf.Page.find_tables()` or pdfplumber: on the dev 10-Ks find_tables found a period
header on 63 of 137 table pages at ~0.9 s a page (bench.answers --tables), and neither assigns
a spanning header or a header sentence to columns; `python -m bench.table_coverage` measures the
share of statement rows whose every value gets a period, this reader against the text parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from storage.documents.tables import PERIOD_TOKEN, TableHeader, Unit, is_period_line

_YEAR = re.compile(r"^\(?(?:19|20)\d\d\)?,?$")
_NUMBER = re.compile(r"^\(?[-–—]?\$?\(?\d[\d,]*(?:\.\d+)?\)?%?\)?\*?$")
_DASH = re.compile(r"^[-–—]+$")
_FOOTNOTE_AFTER_LABEL = re.compile(r"(?:\s*\(\d{1,2}\))+\s*$")  # "Comparable sales growth (1)"
_FOOTNOTE = re.compile(r"^\(\d{1,2}\)$|^\*+$")
_UNIT_CAPTION = re.compile(
    r"\b(?:in|dollars in|amounts in|\$ in|usd in)\s+(?:millions|thousands|billions)\b[^)]*", re.IGNORECASE)
_SPAN_WORDS = re.compile(r"\b(?:ended|ending|months|weeks|quarters?|years?|as of)\b", re.IGNORECASE)
LINE_TOLERANCE = 0.45  # words whose vertical centres differ by less than this share of their height share a line
SEGMENT_GAP = 2.2  # a gap wider than this many average character widths separates two segments of a line
COLUMN_GAP = 6.0  # value cells whose right edges are within this many points are one column
LONG_PROSE_WORDS = 12
MAX_HEADER_LINES = 6
MAX_SECTION_WORDS = 8


@dataclass
class Word:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str


@dataclass
class Segment:
    """Words of one line with no wide gap between them."""

    words: list[Word]

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)

    @property
    def x0(self) -> float:
        return self.words[0].x0

    @property
    def x1(self) -> float:
        return self.words[-1].x1


@dataclass
class Line:
    words: list[Word]
    label: str = ""
    values: list[tuple[str, float, float]] = field(default_factory=list)  # (cell as printed, x0, x1)

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


def visual_lines(words: list[Word]) -> list[Line]:
    """Words grouped into lines by their vertical centre, each line read left to right."""
    lines: list[list[Word]] = []
    for w in sorted(words, key=lambda w: ((w.y0 + w.y1) / 2, w.x0)):
        centre, height = (w.y0 + w.y1) / 2, max(w.y1 - w.y0, 1.0)
        if lines:
            last = lines[-1]
            last_centre = sum((v.y0 + v.y1) / 2 for v in last) / len(last)
            if abs(centre - last_centre) < LINE_TOLERANCE * height:
                last.append(w)
                continue
        lines.append([w])
    return [Line(sorted(ws, key=lambda w: w.x0)) for ws in lines]


def _char_width(words: list[Word]) -> float:
    chars = sum(len(w.text) for w in words) or 1
    return max(sum(w.x1 - w.x0 for w in words) / chars, 1.0)


def segments(line: Line, char_width: float) -> list[Segment]:
    out: list[Segment] = []
    for w in line.words:
        if out and w.x0 - out[-1].x1 <= SEGMENT_GAP * char_width:
            out[-1].words.append(w)
        else:
            out.append(Segment([w]))
    return out


_SUFFIX = ("%", ")", "bp", "bps", "pts", "ppt", "ppts", "x")  # printed apart after a value: "2.5 %", "(390 ) bp"


def _is_value_token(text: str) -> bool:
    return bool(_NUMBER.match(text) or _DASH.match(text) or text in ("$", "(", "$(") or text.lower() in _SUFFIX)


def split_label_values(line: Line, char_width: float) -> None:
    """Fill `line.label` and `line.values`: the value tokens at the line's right, glued into cells."""
    words = line.words
    i = len(words)
    while i > 0 and _is_value_token(words[i - 1].text):
        i -= 1
    # a year or footnote mark that touches the label is part of it ("Notes due 2025", "Other (1)")
    while i < len(words) and i > 0 and words[i].x0 - words[i - 1].x1 <= SEGMENT_GAP * char_width \
            and re.search(r"[A-Za-z]", words[i - 1].text) and not words[i].text.startswith("$"):
        i += 1
    line.label = _FOOTNOTE_AFTER_LABEL.sub("", " ".join(w.text for w in words[:i])).strip()
    cells: list[list[Word]] = []
    pending_dollar: Word | None = None
    for w in words[i:]:
        t = w.text
        if t in ("$", "$(", "("):
            pending_dollar = w if pending_dollar is None else pending_dollar
            continue
        if t.lower() in _SUFFIX and cells:
            cells[-1].append(w)
            continue
        if _FOOTNOTE.match(t) and cells and w.x0 - cells[-1][-1].x1 <= SEGMENT_GAP * char_width:
            continue  # a footnote mark printed right after a value
        cells.append(([pending_dollar] if pending_dollar else []) + [w])
        pending_dollar = None
    line.values = []
    for cell in cells:
        text = "".join(w.text for w in cell)
        if text.startswith("$("):  # "$ (1,577)" printed apart: the negative is "($1,577)"
            text = "($" + text[2:]
        number = [w for w in cell if w.text not in ("$", "$(", "(") and w.text.lower() not in _SUFFIX] or cell
        last = number[-1]
        # the digits' right edge: "(10.91)%" and "3.77 %" are one column
        trailing = len(last.text) - len(last.text.rstrip("%)*"))
        x1 = last.x1 - trailing * (last.x1 - last.x0) / max(len(last.text), 1)
        line.values.append((text, number[0].x0, x1))
    if not any(re.search(r"\d|^[-–—]+$", v[0].strip("$")) for v in line.values):
        line.label, line.values = line.text, []  # "Increase/  %": a column title, no value


def _is_header_line(line: Line) -> bool:
    """A period line ("Years ended", "September 24,", "2022 2021 2020", "Three Months Ended")."""
    text = line.text
    if line.label and line.values:  # "2019 2018 2017" after a period phrase or a short caption
        label = " ".join(re.sub(r"\([^)]*\)", " ", line.label).split())  # "($ in millions) December 31,"
        return all(_YEAR.match(v[0]) for v in line.values) and (
            not label or is_period_line(label) or len(label.split()) <= MAX_SECTION_WORDS)
    return is_period_line(text) or (bool(line.values) and all(_YEAR.match(v[0]) for v in line.values))


def _is_row(line: Line) -> bool:
    if not line.label and all(_FOOTNOTE.match(v[0]) for v in line.values):
        return False  # a footnote mark printed on a line of its own (a superscript)
    return bool(line.values) and not all(_YEAR.match(v[0]) for v in line.values) and (
        not line.label or len(line.label.split()) <= 2 * LONG_PROSE_WORDS)


def _is_section(line: Line) -> bool:
    """A short label-only line inside a table ("Current liabilities:", "Net sales:")."""
    return not line.values and 0 < len(line.text.split()) <= MAX_SECTION_WORDS and not is_period_line(line.text) \
        and not _unit_caption(line)


def _is_paragraph(line: Line) -> bool:
    """Prose: a long line with no values, not a label introducing rows ("Adjustments to reconcile
    net earnings to total cash provided by operating activities:")."""
    return not line.values and len(line.text.split()) >= LONG_PROSE_WORDS and not line.text.rstrip().endswith(":")


@dataclass
class Column:
    x0: float
    x1: float


def columns_of(rows: list[Line]) -> list[Column]:
    """Columns from the right edges of the rows' value cells (figures are right-aligned)."""
    edges = sorted((x1, x0) for row in rows for _, x0, x1 in row.values)
    cols: list[Column] = []
    support: list[int] = []
    for x1, x0 in edges:
        if cols and x1 - cols[-1].x1 <= COLUMN_GAP:
            cols[-1].x0, cols[-1].x1 = min(cols[-1].x0, x0), max(cols[-1].x1, x1)
            support[-1] += 1
        else:
            cols.append(Column(x0, x1))
            support.append(1)
    # a value standing alone at its position (a page number, a note reference) makes no column
    # when real columns hold several rows each
    if max(support, default=0) >= 3:
        cols = [c for c, n in zip(cols, support) if n >= 2]
    return cols


def _column_of(x0: float, x1: float, cols: list[Column]) -> int | None:
    best, dist = None, None
    for i, c in enumerate(cols):
        d = abs(x1 - c.x1)
        if (c.x0 - 2 <= x1 and x0 <= c.x1 + 2 or d <= COLUMN_GAP) and (dist is None or d < dist):
            best, dist = i, d
    return best


def _date_with_year(text: str, year: str) -> str | None:
    """The date of `year` in a header sentence: "December 25, 2021", or "May 31, 2022" from "May 31,
    2023, 2022 and 2021" (a month and day printed once hold for every year after them)."""
    month_day = None
    for m in PERIOD_TOKEN.finditer(text):
        tok = " ".join(m.group(0).split())
        if md := re.match(r"(.+\d{1,2}),?\s+(?:19|20)\d\d$", tok):
            month_day = md.group(1)
        if year in tok:
            if not re.fullmatch(r"(?:19|20)\d\d", tok):
                return tok
            return f"{month_day}, {year}" if month_day else None
    return None


def _phrase(text: str) -> str:
    """The words of a header sentence before its first period ("Fiscal years ended")."""
    m = PERIOD_TOKEN.search(text)
    return (text[:m.start()] if m else text).strip(" ,")


def header_for(lines: list[Line], cols: list[Column], char_width: float) -> TableHeader | None:
    """One period label per column from the header lines standing over the columns.

    On each header line, every column takes the nearest segment (by horizontal centre): its own
    "2022" or "September 24,", or a segment centred over several columns ("Years ended", "Three
    Months Ended", "December 31,"), often narrower than the columns it heads. A segment narrower
    than the column pitch only labels columns within 0.6 pitch of it (a "% Change" column takes no
    year); a caption left of the columns labels none. A header sentence listing the dates gives
    each column the date with its year."""
    if not cols:
        return None
    centres = [(c.x0 + c.x1) / 2 for c in cols]
    gaps = [b - a for a, b in zip(centres, centres[1:])]
    pitch = sorted(gaps)[len(gaps) // 2] if gaps else 8 * max(char_width, 1.0) * 4
    parts: list[list[str]] = [[] for _ in cols]
    for line in lines:
        # a caption left of the columns labels none, unless it is a header sentence listing the dates
        segs = [s for s in segments(line, char_width)
                if (s.x1 >= cols[0].x0 - pitch / 2 or len(PERIOD_TOKEN.findall(s.text)) > 1)
                and not _UNIT_CAPTION.search(s.text)]
        if len(segs) == 1 and not re.search(r"(?:19|20)\d\d", segs[0].text):
            # the line's one phrase heads the columns it is centred over ("Years ended", "December
            # 31,"), within a column pitch of its edges ("Percent Change" over two of four columns);
            # one naming a span of time ("Three Months Ended") or printed left of every column heads them all
            seg = segs[0]
            mid, reach = (seg.x0 + seg.x1) / 2, (seg.x1 - seg.x0) / 2 + pitch
            spans_all = bool(_SPAN_WORDS.search(seg.text)) or mid < centres[0]
            for p, centre in zip(parts, centres):
                if spans_all or abs(centre - mid) <= reach:
                    p.append(seg.text)
            continue
        for i, centre in enumerate(centres):
            if not segs:
                break
            seg = min(segs, key=lambda s: abs((s.x0 + s.x1) / 2 - centre))
            narrow = seg.x1 - seg.x0 < 0.8 * pitch
            if narrow and abs((seg.x0 + seg.x1) / 2 - centre) > 0.6 * pitch:
                continue
            parts[i].append(seg.text)
    years = {m for line in lines for m in re.findall(r"(?:19|20)\d\d", line.text)}
    if len(years) == 1:  # one date over a wide table ("December 31, 2022"): every column's period
        date = next(iter(years))
        for p in parts:
            if not any(date in x for x in p):
                p.insert(0, date)
    labels = [_column_label(p) for p in parts]
    dated = [lab for lab in labels if re.search(r"(?:19|20)\d\d", lab)]
    glued = [lab for lab in dated if len(set(re.findall(r"(?:19|20)\d\d", lab))) > 1]
    if not dated or len(set(glued)) < len(glued):
        return None  # no period, or columns sharing one run of years: the header is not laid out by column
    return TableHeader(" ".join(line.text for line in lines), tuple(labels))


def _column_label(parts: list[str]) -> str:
    """A column's header parts, top to bottom, as one label ("Years ended September 24, 2022").

    A header sentence listing several periods ("Fiscal years ended December 31, 2022, December 25,
    2021 and ...") is never copied whole: it gives the column its words before the first period and
    the date of the column's own year, unless the column's own parts already say a full period
    ("Year Ended May 31," + "2023")."""
    sentences = [p for p in parts if len(PERIOD_TOKEN.findall(p)) > 1]
    own = [p for p in parts if p not in sentences]
    year = next((m.group(0) for p in own for m in re.finditer(r"(?:19|20)\d\d", p)), None)
    label = " ".join(" ".join(own).split())
    if sentences and year and not re.search(r"[A-Za-z]{3}", label):  # own parts are only "2022"
        date = _date_with_year(sentences[0], year)
        label = f"{_phrase(sentences[0])} {date or label}"
    elif sentences and not year:
        label = " ".join([_phrase(sentences[0]), label]).strip()
    label = " ".join(label.split())
    return re.sub(r"(\d{1,2}),?\s+((?:19|20)\d\d)\b", r"\1, \2", label)


def _is_column_titles(line: Line, cols: list[Column], char_width: float) -> bool:
    """A line of column titles ("Adjusted Cost  Unrealized Gains  Fair Value"): no values, two or
    more segments, all of them over the columns."""
    if line.values or not cols:
        return False
    segs = segments(line, char_width)
    return len(segs) >= 2 and all(s.x0 >= cols[0].x0 - 4 * char_width and s.x1 <= cols[-1].x1 + 4 * char_width
                                  for s in segs)


def _unit_caption(line: Line) -> str | None:
    m = _UNIT_CAPTION.search(line.text)
    return m.group(0).strip(" ()") if m else None


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
        while j < n and not (_is_paragraph(lines[j]) and (j + 1 == n or not _is_row(lines[j + 1]))):
            if j > i and _is_header_line(lines[j]) and not _is_row(lines[j]):
                break
            j += 1
        blocks.append((h, start, j))
        i = j if j > i else i + 1
    return blocks


def layout_units(words: list[tuple]) -> list[Unit]:
    """A page's lines as `Unit`s, table rows with their header, cells, section and unit caption.

    `words`: `pymupdf.Page.get_text("words")` tuples (x0, y0, x1, y1, text, ...)."""
    ws = [Word(*map(float, w[:4]), str(w[4])) for w in words if str(w[4]).strip()]
    if not ws:
        return []
    cw = _char_width(ws)
    lines = visual_lines(ws)
    for line in lines:
        split_label_values(line, cw)
    kinds: list[Unit | None] = [None] * len(lines)
    unit_caption = ""
    blocks = _table_blocks(lines)
    previous: tuple[list[Column], TableHeader] | None = None
    for h, start, end in blocks:
        for k in range(0, h):
            unit_caption = _unit_caption(lines[k]) or unit_caption
        rows = [ln for ln in lines[start:end] if _is_row(ln)]
        cols = columns_of(rows)
        header_lines = [ln for ln in lines[h:start] if _is_header_line(ln) or _is_column_titles(ln, cols, cw)]
        for ln in lines[h:start]:
            unit_caption = _unit_caption(ln) or unit_caption
        header = header_for(header_lines, cols, cw) if header_lines else None
        if header is None and not header_lines and previous is not None and _same_columns(previous[0], cols):
            header = previous[1]  # the table goes on after a note printed inside it
        if header is not None:
            previous = (cols, header)
        for k in range(h, start):
            if _is_header_line(lines[k]) and header is not None:
                kinds[k] = Unit(lines[k].text, False, header, is_header=True)
        section = ""
        for k in range(h, end):
            ln = lines[k]
            if not _is_row(ln):
                if k >= start or not _is_header_line(ln):
                    section = ln.text.rstrip(":").strip() if _is_section(ln) else section
                continue
            before = lines[k - 1] if k > start else None
            if before is not None and not before.values and (
                    (ln.label[:1].islower() and not before.text.rstrip().endswith(":")) or ln.label[:1].isdigit()):
                ln.label = f"{before.text} {ln.label}".strip()  # a row label wrapped over two lines
            cells = []
            for value, x0, x1 in ln.values:
                col = _column_of(x0, x1, cols)
                if col is not None and all(c != col for c, _ in cells):
                    cells.append((col, value))
            text = " ".join([ln.label] + [v for v, _, _ in ln.values]).strip()
            kinds[k] = Unit(text, True, header, section=section, unit=unit_caption,
                            cells=tuple(cells) if header is not None and len(cells) == len(ln.values) else None,
                            label=ln.label)
            if ln.label.lower().startswith("total"):
                section = ""  # "Total current liabilities" closes its section
    return [kinds[k] or Unit(ln.text, False) for k, ln in enumerate(lines)]


def _same_columns(a: list[Column], b: list[Column]) -> bool:
    return len(a) == len(b) and all(abs(x.x1 - y.x1) <= 2 * COLUMN_GAP for x, y in zip(a, b))


def has_table(units: list[Unit]) -> bool:
    """Whether the layout read found at least one row with every value under a period."""
    return any(u.cells for u in units)
