"""A table's period header by layout: which header segment labels which column
(storage/documents/table_layout.py reads the page; this module names the columns of one table)."""

from __future__ import annotations

import re

from storage.documents.table_words import (
    CAPTION_WORDS as CAPTION_PHRASE, COLUMN_GAP, UNIT_CAPTION, YEAR_CELL, Column, Line, Segment, segments,
)
from storage.documents.tables import PERIOD_TOKEN, TableHeader, is_period_line
from storage.finance.columns import names_change, title_spans
from storage.finance.periods import DATE, FULL_YEAR, MONTH_DAY_END, NUMERIC_DATE, QUARTER_NAME, SPAN_WORDS, YEAR

# a header line that is one date: "June 30, 2022", "As of December 31, 2022:"
_DATE_LINE = re.compile(rf"(?i)^(?:(?:balances?\s+)?(?:as\s+of|at)\s+)?{DATE.pattern}\s*:?$")
# a percent sign standing as a word of a column's head: "Sales %", "%(1)", "(%)" (not "10%" in a title)
# ("∆%", "Δ%": a change in percent)
_PERCENT_TITLE = re.compile(r"^\(?[∆Δ]?%\)?(?:\(\d{1,2}\))?$")


def _date_with_year(text: str, year: str) -> str | None:
    """The date of `year` in a header sentence: "December 25, 2021", or "May 31, 2022" from "May 31,
    2023, 2022 and 2021" (a month and day printed once hold for every year after them)."""
    month_day = None
    for m in PERIOD_TOKEN.finditer(text):
        tok = " ".join(m.group(0).split())
        if md := re.match(rf"(.+\d{{1,2}}),?\s+{YEAR}$", tok):
            month_day = md.group(1)
        if year in tok:
            if not re.fullmatch(YEAR, tok):
                return tok
            return f"{month_day}, {year}" if month_day else None
    return None


def _phrase(text: str) -> str:
    """The words of a header sentence before its first period ("Fiscal years ended")."""
    m = PERIOD_TOKEN.search(text)
    return (text[:m.start()] if m else text).strip(" ,")


def header_for(lines: list[Line], cols: list[Column], char_width: float, rows_year: str | None = None) -> TableHeader | None:
    """One period label per column from the header lines standing over the columns.

    On each header line, every column takes the nearest segment (by horizontal centre): its own
    "2022" or "September 24,", or a segment centred over several columns ("Years ended", "Three
    Months Ended", "December 31,"), often narrower than the columns it heads. A segment narrower
    than the column pitch only labels columns within 0.6 pitch of it (a "% Change" column takes no
    year); a caption left of the columns labels none. A header sentence listing the dates gives
    each column the date with its year. `rows_year`: the year of rows printing it in their labels, for spans
    printed without one ("Three Months Ended June 30" -> "Three Months Ended June 30, 2023")."""
    if not cols:
        return None
    centres = [(c.x0 + c.x1) / 2 for c in cols]
    gaps = [b - a for a, b in zip(centres, centres[1:])]
    pitch = sorted(gaps)[len(gaps) // 2] if gaps else 8 * max(char_width, 1.0) * 4
    parts: list[list[str]] = [[] for _ in cols]
    # a caption left of the columns labels none, unless it is a header sentence listing the dates
    line_segs = [[s for s in _period_runs(segments(line, char_width), cols[0].x0 - pitch / 2)
                  if (s.x1 >= cols[0].x0 - pitch / 2 or len(PERIOD_TOKEN.findall(s.text)) > 1)
                  and not UNIT_CAPTION.search(s.text)] for line in lines]
    left = [_left_phrase([s for s in segments(line, char_width) if s.x1 < cols[0].x0 - pitch / 2]) for line in lines]
    titles = _column_titles(line_segs, centres, pitch)
    for k, (segs, phrase_left) in enumerate(zip(line_segs, left)):
        titled = any(not _names_period(t.text) and not names_change(t.text)
                     for other in line_segs if other is not segs for t in other)
        if k < len(lines) - 1 and not titled and (heads := _group_heads(segs, centres, pitch)):
            for p, seg in zip(parts, heads):  # "GAAP" over three columns, "Non-GAAP" over the next three
                if seg is not None:
                    p.append(seg.text)
            continue
        if not segs and phrase_left:  # "Six Months Ended June 30," printed alone at the left: it heads every column
            for p in parts:
                p.append(phrase_left)
            continue
        if len(segs) == 1 and not re.search(YEAR, segs[0].text):
            # the line's one phrase heads the columns it is centred over ("Years ended", "December
            # 31,"), within a column pitch of its edges ("Percent Change" over two of four columns);
            # one naming a span of time ("Three Months Ended") or printed left of every column heads them all
            seg = segs[0]
            mid, reach = (seg.x0 + seg.x1) / 2, (seg.x1 - seg.x0) / 2 + pitch
            # (a month and day alone, "June 30,", completes the span phrase above it over every column)
            spans_all = bool(SPAN_WORDS.search(seg.text) or MONTH_DAY_END.search(seg.text)) or mid < centres[0]
            for p, centre in zip(parts, centres):
                if spans_all or abs(centre - mid) <= reach:
                    p.append(seg.text)
            continue
        others = [t for other in line_segs if other is not segs for t in other if not _names_period(t.text)]
        segs, phrase = _leading_phrase(segs)
        phrase = phrase or phrase_left  # "Six Months Ended June 30,  2023  2022": the phrase at the left heads the years
        over = _year_groups(segs, cols, titles) or _nearest_segments(segs, centres, pitch, others)
        for i, seg in enumerate(over):
            if seg is not None:
                # (a span phrase at the left heads the years and the bare dates: "Three months ended   Jun 30, 2023")
                dated = YEAR_CELL.match(seg.text) or (DATE.search(seg.text) or NUMERIC_DATE.search(seg.text)) \
                    and not SPAN_WORDS.search(seg.text)
                parts[i].append(f"{phrase} {seg.text}" if phrase and dated else seg.text)
    if rows_year is not None:  # spans printed without a year, the rows' year given (table_layout._spans_dated_by_rows)
        parts = [_dated_by(p, rows_year) for p in parts]
    years = {m for line in lines for m in re.findall(YEAR, line.text)}
    if len(years) == 1:  # one date over a wide table ("December 31, 2022"): every column's period
        year = next(iter(years))
        # the date in full where the header prints one only ("June 30, 2022" over "Level 1 ... Total")
        dates = {" ".join(m.group(0).split()) for line in lines for m in DATE.finditer(line.text)
                 if _DATE_LINE.match(line.text.strip())}
        # or the period printed at the left of the columns' titles ("Q1 2023   GAAP   Non-GAAP": the quarter heads both)
        stubbed = {text for line in lines if year in (text := _stub_period(line, cols[0].x0 - pitch / 2, char_width))}
        date = next(iter(dates)) if len(dates) == 1 else next(iter(stubbed)) if len(stubbed) == 1 else year
        for p in parts:
            if not any(year in x for x in p):
                p.insert(0, date)
    labels = [_column_label(p) for p in parts]
    dated = [lab for lab in labels if PERIOD_TOKEN.search(lab)]
    glued = [lab for lab in dated if len(set(re.findall(YEAR, lab))) > 1]
    if not dated or len(set(glued)) < len(glued):
        return None  # no period, or columns sharing one run of years: the header is not laid out by column
    units = ["" for _ in cols]
    for w in (w for line in lines for w in line.words if _PERCENT_TITLE.match(w.text)):
        mid = (w.x0 + w.x1) / 2
        nearest = min(range(len(cols)), key=lambda i: abs(centres[i] - mid))
        if abs(centres[nearest] - mid) <= 0.6 * pitch:  # the column this "%" is printed over
            units[nearest] = "%"
    for x0, x1, said in (u for line in lines for u in line.units):  # "2022 $ million": its column's unit
        mid = (x0 + x1) / 2
        nearest = min(range(len(cols)), key=lambda i: abs(centres[i] - mid))
        if abs(centres[nearest] - mid) <= 0.6 * pitch and not units[nearest]:
            units[nearest] = said
    units = tuple(units)
    return TableHeader(" ".join(line.text for line in lines), tuple(labels), units=units if any(units) else (),
                       stub=_stub(lines, cols[0].x0 - pitch / 2, char_width))


def _group_heads(segs: list[Segment], centres: list[float], pitch: float) -> list[Segment | None] | None:
    """The titles of a header line above others that each head a group of columns ("GAAP" centred over three
    columns, "Non-GAAP" over the next three; "Net Income" and "Earnings per Share" over their years), one per
    column, or None when the line is not such (the caller reads it only where no other header line prints a title
    but a period or a change's): two or more titles naming no period, centred two pitches apart
    or more (titles of single columns stand a pitch apart), each centred over the columns nearest it."""
    if len(segs) < 2 or any(_names_period(s.text) for s in segs):
        return None
    mids = [(s.x0 + s.x1) / 2 for s in segs]
    spacing = min(b - a for a, b in zip(mids, mids[1:]))
    if spacing < 1.8 * pitch:
        return None
    nearest = [min(range(len(segs)), key=lambda j: abs(mids[j] - centre)) for centre in centres]
    for j, mid in enumerate(mids):
        group = [c for c, k in zip(centres, nearest) if k == j]
        # each title centred over the columns nearest it: groups that tile the columns (a title stacked over one pair
        # of columns, "Earnings per" / "Common" / "Share", leaves its neighbours' columns off its centre)
        if len(group) < 2 or abs(sum(group) / len(group) - mid) > 0.3 * pitch:
            return None
    return [segs[k] for k in nearest]


def _dated_by(parts: list[str], year: str) -> list[str]:
    """A column's header parts with `year` after the month and day its span phrase ends on ("Three Months Ended
    June 30" -> "Three Months Ended June 30, 2023"), when no part prints a year."""
    if any(re.search(YEAR, p) for p in parts):
        return parts
    return [f"{p.rstrip(' ,')}, {year}" if MONTH_DAY_END.search(p) else p for p in parts]


def _period_runs(segs: list[Segment], left: float) -> list[Segment]:
    """Segments over the columns that are only a run of periods printed close together ("September 30, 2023
    December 31, 2022", "First Quarter Second Quarter Third Quarter Fourth Quarter"), each split into its periods:
    narrow column pitch leaves no wide gap between the columns' own titles. A header sentence ("Years ended
    December 31, 2023 and 2022") and a caption at the left stay whole."""
    out: list[Segment] = []
    for seg in segs:
        out.extend(_split_run(seg) if seg.x0 >= left else [seg])
    return out


# a quarter named with its year ("Fourth Quarter 2022", "Q4 2022") is one period: a run splits between periods, not
# inside one
_QUARTER_OF_YEAR = re.compile(rf"{QUARTER_NAME.pattern}\s+{YEAR}\b")
# and so is a full year named with its year: "Full Year FY24", "Full-Year 2023"
_FULL_YEAR_OF = re.compile(rf"{FULL_YEAR.pattern}\s+(?:FY\s*'?\d\d|(?:fiscal\s+)?{YEAR})\b", re.IGNORECASE)


def _split_run(seg: Segment) -> list[Segment]:
    text = seg.text
    spans = sorted((m.span() for pattern in (PERIOD_TOKEN, QUARTER_NAME, _QUARTER_OF_YEAR, FULL_YEAR, _FULL_YEAR_OF)
                    for m in pattern.finditer(text)),
                   key=lambda span: (span[0], -span[1]))
    kept: list[tuple[int, int]] = []
    for a, b in spans:
        if not kept or a >= kept[-1][1]:
            kept.append((a, b))
    rest = "".join(ch for i, ch in enumerate(text) if not any(a <= i < b for a, b in kept))
    if len(kept) < 2 or rest.strip(" ,"):
        # a run of change columns' titles printed close together ("Inc/(Dec)  Constant currency", "Reported ∆%
        # Constant currency ∆%", "$ Change  % Change"): each heads its own column, never both
        kept = [(a, b) for a, b, kind in title_spans(text) if kind == "change"]
        rest = "".join(ch for i, ch in enumerate(text) if not any(a <= i < b for a, b in kept))
        if len(kept) < 2 or rest.strip(" ,"):
            return [seg]
    starts, pos = [], 0
    for w in seg.words:
        starts.append(pos)
        pos += len(w.text) + 1
    groups = [[w for w, at in zip(seg.words, starts) if a <= at < b] for a, b in kept]
    if any(not g for g in groups) or sum(map(len, groups)) != len(seg.words):
        return [seg]
    return [Segment(g) for g in groups]


def _beyond(seg: Segment, x: float) -> float:
    """How far x lies outside the segment (<= 0 when over it)."""
    return max(seg.x0 - x, x - seg.x1)


def _nearest_segments(segs: list[Segment], centres: list[float], pitch: float,
                      titles: list[Segment] | None = None) -> list[Segment | None]:
    """The segment each column takes from a header line: the nearest by centre; a segment narrower
    than the column pitch only heads columns within 0.6 pitch of it."""
    out: list[Segment | None] = []
    for centre in centres:
        seg = min(segs, key=lambda s: abs((s.x0 + s.x1) / 2 - centre)) if segs else None
        # (measured from the segment's nearer edge: "June 30," centred over a pair of columns heads both)
        if seg is not None and seg.x1 - seg.x0 < 0.8 * pitch and max(seg.x0 - centre, centre - seg.x1) > 0.6 * pitch:
            seg = None
        # nor does a title (no period) head a column over a third of a pitch beyond its edges while a title of another
        # header line (`titles`) stands over the column: a title stacked on more lines than its neighbour's ("Earnings per" / "Common" /
        # "Share" beside "Earnings") leaves that column nothing on its extra lines
        if seg is not None and not _names_period(seg.text) and _beyond(seg, centre) > 0.35 * pitch \
                and any(_beyond(t, centre) <= 0.25 * pitch for t in titles or ()):
            seg = None
        out.append(seg)
    return out


def _column_titles(line_segs: list[list[Segment]], centres: list[float], pitch: float) -> list[str]:
    """Each column's title from the header lines of two or more segments without a year."""
    titles: list[list[str]] = [[] for _ in centres]
    for segs in line_segs:
        if len(segs) >= 2 and not any(re.search(YEAR, s.text) for s in segs):
            for t, seg in zip(titles, _nearest_segments(segs, centres, pitch)):
                t.append(seg.text if seg else "")
    return [" ".join(t).strip() for t in titles]


def _year_groups(segs: list[Segment], cols: list[Column], titles: list[str]) -> list[Segment | None] | None:
    """A line of k < n periods over groups of columns whose titles repeat ("2022" over "Amount
    Increase/(decrease)", "December 31, 2018" over "Total  Level 1  Level 2  Level 3"): each period
    heads its group. A period is centred over its group or right-aligned with its last column; the
    grouping kept is the one where every group starts with the same title. None when there is none."""
    named = [t for t in titles if t]
    if not (2 <= len(segs) < len(cols)) or len(set(named)) == len(named) \
            or not all(re.search(YEAR, s.text) for s in segs):
        return None
    nearest = [min(range(len(segs)), key=lambda k: abs((segs[k].x0 + segs[k].x1) / 2 - (c.x0 + c.x1) / 2))
               for c in cols]
    # (a value's right edge is its digits', a header's may end over a "%)")
    right = [next((k for k, s in enumerate(segs) if s.x1 >= c.x1 - 2 * COLUMN_GAP), None) for c in cols]
    for picks in (nearest, right):
        if None in picks or picks != sorted(picks) or len(set(picks)) != len(segs):
            continue
        starts = {titles[picks.index(k)] for k in range(len(segs))}
        if len(starts) == 1:
            return [segs[k] for k in picks]
    return None


def _leading_phrase(segs: list[Segment]) -> tuple[list[Segment], str]:
    """A line "Years ended December 31, 2022   2021   2020": the period phrase printed before its
    first year heads every year of the line. Returns the line's segments with the phrase cut off
    its year, and the phrase ("" when there is none)."""
    if not any(YEAR_CELL.match(s.text) for s in segs):
        return segs, ""
    for k, seg in enumerate(segs):
        words = seg.words
        head = " ".join(w.text for w in words[:-1])
        if len(words) > 1 and YEAR_CELL.match(words[-1].text) and len(PERIOD_TOKEN.findall(seg.text)) == 1 \
                and re.search(r"[A-Za-z]", head) and is_period_line(head):
            return segs[:k] + [Segment([words[-1]])] + segs[k + 1:], head
        if re.search(YEAR, seg.text):
            break  # "2022   December 31, 2021": a date after the line's first year is its column's own
    return segs, ""


def _stub(lines: list[Line], left: float, char_width: float) -> str:
    """The stub head: words printed left of the columns on the column-title lines ("Adjusted non-GAAP" /
    "results"), not a scale caption nor a period phrase; "" when there are none."""
    parts = []
    for line in lines:
        segs = segments(line, char_width)
        if len(segs) < 2:
            continue  # a line of its own (a caption, "Years ended December 31,") is no stub beside titles
        text = " ".join(s.text for s in segs if s.x1 < left)
        text = " ".join(UNIT_CAPTION.sub(" ", CAPTION_PHRASE.sub(" ", text)).split()).strip(" ,;:()")
        text = re.sub(r"(?i)^except\b.*", "", text)  # what a caption's "except per share amounts" leaves
        if re.search(r"[A-Za-z]{3}", text) and not is_period_line(text) and not re.search(YEAR, text):
            parts.append(text)
    return " ".join(parts)


def _left_phrase(segs: list[Segment]) -> str:
    """A span phrase printed at the left of a header line, left of every column ("Six Months Ended June 30,",
    after a caption: "In millions, except per share data   Years ended December 31,"); "" when there is none."""
    text = " ".join(CAPTION_PHRASE.sub(" ", re.sub(r"\([^)]*\)", " ", " ".join(s.text for s in segs))).split())
    if text and is_period_line(text) and not re.search(YEAR, text) and (SPAN_WORDS.search(text) or MONTH_DAY_END.search(text)):
        return text
    return ""


def _stub_period(line: Line, left: float, char_width: float) -> str:
    """A period printed in the stub of a line that titles the columns right of it ("Q1 2023   GAAP   Non-GAAP",
    "Fiscal 2024   Low   High"): a quarter, span or full year with its year, not a year alone; "" when there is none."""
    segs = segments(line, char_width)
    if not any(s.x0 >= left for s in segs):
        return ""
    text = " ".join(CAPTION_PHRASE.sub(" ", re.sub(r"\([^)]*\)", " ", " ".join(s.text for s in segs if s.x1 < left))).split())
    if re.search(YEAR, text) and not YEAR_CELL.fullmatch(text) and is_period_line(text):
        return text
    return ""


def _names_period(part: str) -> bool:
    return bool(PERIOD_TOKEN.search(part) or is_period_line(part) or SPAN_WORDS.search(part) or MONTH_DAY_END.search(part))


def _own_year(parts: list[str]) -> list[str]:
    """A span phrase printing a full date over columns that print their own years ("Nine Months Ended September 30,
    2022" over "2022  2021"): each column's date takes the column's own year, printed once."""
    own = [p for p in parts if YEAR_CELL.match(p.strip())]
    spans = [k for k, p in enumerate(parts) if SPAN_WORDS.search(p) and len(DATE.findall(p)) == 1
             and len(re.findall(YEAR, p)) == 1]
    if len(own) != 1 or len(spans) != 1:
        return parts
    year = re.search(YEAR, own[0]).group(0)
    k = spans[0]
    dated = DATE.search(parts[k])
    fixed = parts[k][:dated.start()] + re.sub(YEAR, year, dated.group(0)) + parts[k][dated.end():]
    return [fixed if i == k else p for i, p in enumerate(parts) if p is not own[0]]


def _column_label(parts: list[str]) -> str:
    """A column's header parts, top to bottom, as one label ("Years ended September 24, 2022").

    A header sentence listing several periods ("Fiscal years ended December 31, 2022, December 25,
    2021 and ...") is never copied whole: it gives the column its words before the first period and
    the date of the column's own year, unless the column's own parts already say a full period
    ("Year Ended May 31," + "2023")."""
    parts = _own_year(parts)
    if any(names_change(p) for p in parts) and not any(re.search(YEAR, p) for p in parts):
        # a change column ("Increase (Decrease)" over "$"), no year of its own: its titles, no period phrase spanning it
        return " ".join(" ".join(p for p in parts if names_change(p) or not _names_period(p)).split())
    sentences = [p for p in parts if len(PERIOD_TOKEN.findall(p)) > 1]
    own = [p for p in parts if p not in sentences]
    if any(DATE.search(p) for p in own):  # a column printing its own full date takes no month-day spread from beside it
        own = [p for p in own if not MONTH_DAY_END.search(p) or SPAN_WORDS.search(p)]
    # titles printed between a period's words and its year ("June 30," / "Earnings per Share" / "2023") follow the period
    own = [p for p in own if _names_period(p)] + [p for p in own if not _names_period(p)]
    year = next((m.group(0) for p in own for m in re.finditer(YEAR, p)), None)
    label = " ".join(" ".join(own).split())
    if sentences and year and not re.search(r"[A-Za-z]{3}", label):  # own parts are only "2022"
        date = _date_with_year(sentences[0], year)
        label = f"{_phrase(sentences[0])} {date or label}"
    elif sentences and not year:
        label = " ".join([_phrase(sentences[0]), label]).strip()
    label = " ".join(label.split())
    label = re.sub(r"\s*\(\d{1,2}\)", "", label)  # footnote marks: "Accrued May 31, 2023 (2)"
    # "December 31 2022" -> "December 31, 2022" (not a quarter's number: "Q1 2023")
    return re.sub(rf"(?<![A-Za-z])(\d{{1,2}}),?\s+({YEAR})\b", r"\1, \2", label)
