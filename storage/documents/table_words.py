"""Words of a page grouped for reading tables by layout (storage/documents/table_layout.py): visual lines,
their segments (words without a wide gap between them), a row's label and its value cells, and a
column's extent (the clustering is `storage.documents.table_layout.columns_of`)."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from storage.finance.scale import CAPTION, CAPTION_PHRASE, HEAD_UNIT_SCALE, HEAD_UNIT_WORD
from storage.finance.numbers import CELL_SCALE_WORDS, CHANGE_WORD, RANGE
from storage.finance.periods import YEAR_CELL  # a header cell that is a year ("2022", "(2022)")

NUMBER = re.compile(r"^~?\(?[-–—+]?\$?\(?\d[\d,]*(?:\.\d+)?\)?%?\)?\*?$")  # "~10%": an estimate
DASH = re.compile(r"^[-–—]+%?$")  # a dash for zero, "-%" in a percent column
PLACEHOLDER = re.compile(r"(?i)^(?:n/?m|n/a|n\.a\.?|\*{2,3})$")  # "NM", "n/a", "N.A.", "**": a cell with no number
FOOTNOTE_AFTER_LABEL = re.compile(r"(?:\s*\(\d{1,2}\))+\s*$")  # "Comparable sales growth (1)"
FOOTNOTE = re.compile(r"^\(\d{1,2}\)$|^\*+$")
UNIT_CAPTION = CAPTION  # a table's scale caption ("(In millions)", "(Millions)", "$ in thousands"): storage/finance/scale.py
CAPTION_WORDS = CAPTION_PHRASE  # the caption's words alone, printed at the left of a header line
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
    units: list[tuple[float, float, str]] = field(default_factory=list)  # a column head's unit words (x0, x1, as printed)

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


def strip_unit_heads(line: Line, char_width: float) -> None:
    """Cut the unit words printed after a year in a column head ("2022 $ million  2023 $ million", "2023 US cents")
    out of `line.words` into `line.units`: the year stays the column's period, the unit its column's unit."""
    words, kept, i = line.words, [], 0  # (a Word is mutable: the page's words are copied, not resized)
    while i < len(words):
        kept.append(words[i])
        j = i + 1
        if YEAR_CELL.match(words[i].text):
            while j < len(words) and HEAD_UNIT_WORD.match(words[j].text) \
                    and words[j].x0 - words[j - 1].x1 <= SEGMENT_GAP * char_width:
                j += 1
            said = " ".join(w.text for w in words[i + 1:j])
            # (a column head stands apart: the next word, if any, after a column's gap; prose goes on: "2023 cents per")
            apart = j == len(words) or words[j].x0 - words[j - 1].x1 > SEGMENT_GAP * char_width
            if j > i + 1 and apart and HEAD_UNIT_SCALE.search(said):
                line.units.append((words[i].x0, words[j - 1].x1, said))
                # the year stands for the whole head: the head, not its first word, is centred over the column
                kept[-1] = Word(words[i].x0, words[i].y0, words[j - 1].x1, words[i].y1, words[i].text)
            else:
                j = i + 1
        i = j
    line.words = kept


def visual_lines(words: list[Word]) -> list[Line]:
    """Words grouped into lines by their vertical centre, each line read left to right.

    The tolerance is a share of the larger of the word's height and its line's median height: a text layer's
    boxes are as tall as the font, but OCR boxes are as tall as the glyphs, so a dash, a comma or "ms" is a
    sliver whose own height would put it on a line of its own, and the words after it with it."""
    lines: list[list[Word]] = []
    total = 0.0  # the sum of the last line's word centres (its mean is the line's centre)
    heights: list[float] = []  # the last line's word heights, sorted
    for w in sorted(words, key=lambda w: ((w.y0 + w.y1) / 2, w.x0)):
        centre, height = (w.y0 + w.y1) / 2, max(w.y1 - w.y0, 1.0)
        if lines:
            last = lines[-1]
            if abs(centre - total / len(last)) < LINE_TOLERANCE * max(height, heights[len(heights) // 2]):
                last.append(w)
                total += centre
                bisect.insort(heights, height)
                continue
        lines.append([w])
        total, heights = centre, [height]
    return [Line(sorted(ws, key=lambda w: w.x0)) for ws in lines]


def average_char_width(words: list[Word]) -> float:
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


SUFFIX = ("%", ")", "%)", "bp", "bps", "pts", "ppt", "ppts", "x")  # printed apart after a value: "2.5 %", "(390 ) bp"
POINTS_SUFFIX = ("bp", "bps", "pts", "ppt", "ppts")


# a change printed in words in a release's summary table: "down 32%", "up 13%", "down 14.4 ppts", "flat" (the
# direction belongs to the figure after it: storage.finance.numbers.CHANGE_WORD; "flat" is a cell of its own with
# no number)
FLAT = "flat"


def _direction_at(words: list, i: int) -> bool:
    """words[i] is "up"/"down" printed before a figure."""
    return i + 1 < len(words) and bool(CHANGE_WORD.match(f"{words[i].text} {words[i + 1].text}"))


def is_value_token(text: str) -> bool:
    return bool(NUMBER.match(text) or DASH.match(text) or PLACEHOLDER.match(text) or text in ("$", "(", "$(", "~")
                or text.lower() in SUFFIX or _figures_range(text))  # "$10.5-11.5": a range in one word


def _figures_range(text: str) -> bool:
    """A range of figures, not of years or counts ("2022-2023", "1 to 3" are a label's): each end prints a "$", "%",
    decimal point or thousands comma."""
    return bool(ends := RANGE.match(text)) and all(re.search(r"[$%.,]", ends.group(k)) for k in ("low", "high"))


def _range_at(words: list, i: int, char_width: float) -> bool:
    """words[i] joins a range's two ends printed apart: "$8.51 to $8.53", or a dash a space from each end, "$0.59 -
    $0.64" (a dash between two figures a column apart is a cell of its own: none, "23,183    -    23,223")."""
    if not 0 < i < len(words) - 1:
        return False
    word = words[i].text.lower()
    close = word in ("-", "–", "—") and max(words[i].x0 - words[i - 1].x1, words[i + 1].x0 - words[i].x1) \
        <= SEGMENT_GAP * char_width
    return (word == "to" or close) and _figures_range(f"{words[i - 1].text} to {words[i + 1].text}")


# "2023(1)", "1,064*", "39.0%*", "(4.2)%*": a mark glued to a figure
_SCALE_WORDS = frozenset(w + plural for w in CELL_SCALE_WORDS for plural in ("", "s"))


def _scale_at(words: list, i: int, char_width: float) -> bool:
    """words[i] is the scale word printed a space after its cell's figure: "$4.0 billion", "$10.5-11.5 billion" (the
    cell's own scale, storage/finance/numbers.split_scale)."""
    return 0 < i and words[i].text.lower() in _SCALE_WORDS \
        and bool(NUMBER.match(words[i - 1].text) or _figures_range(words[i - 1].text)) \
        and words[i].x0 - words[i - 1].x1 <= SEGMENT_GAP * char_width


_GLUED_NOTE = re.compile(r"^(?P<n>\(?\$?[\d,.]*\d\)?%?)(?:\(\d{1,2}\)|\*{1,3})$")


def _drop_glued_note(w: Word) -> Word:
    m = _GLUED_NOTE.match(w.text)
    if not m or not (NUMBER.match(m.group("n")) or YEAR_CELL.match(m.group("n"))):
        return w
    return Word(w.x0, w.y0, w.x0 + (w.x1 - w.x0) * len(m.group("n")) / len(w.text), w.y1, m.group("n"))


def split_label_values(line: Line, char_width: float) -> None:
    """Fill `line.label` and `line.values`: the value tokens at the line's right, glued into cells."""
    line.words = words = [_drop_glued_note(w) for w in line.words]
    i = len(words)
    while i > 0 and (is_value_token(words[i - 1].text) or _direction_at(words, i - 1) or _range_at(words, i - 1, char_width)
                     or _scale_at(words, i - 1, char_width)
                     or words[i - 1].text.lower() == FLAT and (i < len(words) or i >= 2
                                                                and is_value_token(words[i - 2].text))):
        i -= 1
    # a year or footnote mark that touches the label is part of it ("Notes due 2025", "Other (1)")
    # (and so is the year of a date in it: "Balance at December 31, 2013")
    while i < len(words) and i > 0 and words[i].x0 - words[i - 1].x1 <= SEGMENT_GAP * char_width \
            and not words[i].text.startswith("$") and (re.search(r"[A-Za-z]", words[i - 1].text) or (
                # "Earnings from Operations - 2016": a year after a dash that follows the label's words
                words[i - 1].text in ("-", "–", "—") and i >= 2 and re.search(r"[A-Za-z]", words[i - 2].text)
                and YEAR_CELL.match(words[i].text)) or (FOOTNOTE.match(words[i].text) and YEAR_CELL.match(words[i - 1].text)
                # "- 2016 (1)", "Fiscal Year 2019 (1)": a mark after a year that belongs to the label
                and i >= 2 and (words[i - 2].text in ("-", "–", "—") or re.search(r"[A-Za-z]", words[i - 2].text))) or (
                re.fullmatch(r"\d{1,2},", words[i - 1].text) and YEAR_CELL.match(words[i].text)
                and not all(YEAR_CELL.match(w.text) for w in words[i:]))):  # "December 31, 2022  2021": a header
        i += 1
    line.label = FOOTNOTE_AFTER_LABEL.sub("", " ".join(w.text for w in words[:i])).strip()
    cells: list[list[Word]] = []
    pending_dollar: Word | None = None
    direction: Word | None = None
    joined = False  # a range's "to" read: the next figure ends the last cell
    for k, w in enumerate(words[i:], start=i):
        t = w.text
        if _direction_at(words, k):
            direction = w
            continue
        if _range_at(words, k, char_width) and cells:
            joined = True  # the next figure is this cell's high end
            cells[-1].append(w)
            continue
        if _scale_at(words, k, char_width) and cells:
            cells[-1].append(w)  # "$4.0 billion": the cell's own scale
            continue
        if t == "~":  # "~ $1.04": an estimate's mark, printed apart before its figure
            continue
        if t in ("$", "$(", "("):
            pending_dollar = w if pending_dollar is None else pending_dollar
            continue
        if t.lower() in SUFFIX and cells:
            if t == "%" and YEAR_CELL.match(cells[-1][-1].text) and w.x0 - cells[-1][-1].x1 > SEGMENT_GAP * char_width:
                cells.append([w])  # "2022   $   %": a column's title under a change header, not "2022%"
            else:
                cells[-1].append(w)
            continue
        if FOOTNOTE.match(t) and cells and w.x0 - cells[-1][-1].x1 <= SEGMENT_GAP * char_width:
            continue  # a footnote mark printed right after a value
        if joined:
            cells[-1].append(w)
        else:
            cells.append(([direction] if direction else []) + ([pending_dollar] if pending_dollar else []) + [w])
        pending_dollar, direction, joined = None, None, False
    if pending_dollar is not None and cells and YEAR_CELL.match(cells[-1][-1].text):
        cells.append([pending_dollar])  # "2023   2022   $": the "$" titles a change column
    line.values = []
    for cell in cells:
        said = cell[0].text + " " if len(cell) > 1 and CHANGE_WORD.match(f"{cell[0].text} {cell[1].text}") else ""
        cell = cell[1:] if said else cell
        # "$8.51 to $8.53", "$4.0 billion"
        text = "".join(f" {w.text} " if w.text.lower() == "to" else f" {w.text}" if w.text.lower() in _SCALE_WORDS
                       else w.text for w in cell).strip()
        if text.startswith("$("):  # "$ (1,577)" printed apart: the negative is "($1,577)"
            text = "($" + text[2:]
        text = said + text  # "down 32%"
        # (a scale word ends its cell as printed, right-aligned with the column's other cells: "$4.0 billion")
        number = [w for w in cell if w.text not in ("$", "$(", "(") and w.text.lower() not in SUFFIX] or cell
        last = number[-1]
        # the digits' right edge: "(10.91)%" and "3.77 %" are one column
        trailing = len(last.text) - len(last.text.rstrip("%)*"))
        x1 = last.x1 - trailing * (last.x1 - last.x0) / max(len(last.text), 1)
        if cell[-1].text.lower() in POINTS_SUFFIX:
            # "down 14.4 ppts" right-aligned with "down 32%" in one change column: where a "%" would end
            x1 = cell[-1].x1 - (cell[-1].x1 - cell[-1].x0) / len(cell[-1].text)
        line.values.append((text, number[0].x0, x1))
    if not any(re.search(r"\d|^[-–—]+%?$", v[0].strip("$")) for v in line.values):
        line.label, line.values = line.text, []  # "Increase/  %": a column title, no value


def heads_columns(values: list[tuple[str, float, float]]) -> bool:
    """Cells that are a header's years, with a change column's "$" and "%" titles ("2023  2022  $  %")."""
    return bool(values) and all(YEAR_CELL.match(v[0]) or v[0] in ("$", "%") for v in values) \
        and any(YEAR_CELL.match(v[0]) for v in values)


@dataclass
class Column:
    x0: float
    x1: float
