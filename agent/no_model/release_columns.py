"""Column groups of earnings releases: one period head over several sub-columns, each a measure or a part.

Releases print reconciliations and segment tables whose period head ("Three Months Ended June 30, 2023")
spans sub-columns the table reader appends to the column's period:

- measures: "Adjusted EBITDA, EBIT, Net income, and EPS" under "EBITDA | EBIT | Net Income | EPS", or
  "Non-GAAP Core Earnings/EPS" under "Earnings | Earnings per Common Share": each sub-column is the
  measure of the label's list it names, so the row becomes one row per measure, labelled with the
  list's qualifier and that measure ("Adjusted EBIT"). A sub-column naming two measures, or two
  sub-columns naming one, is not read (a missing figure beats a wrong one);
- bases: a row labelled "GAAP" or "Non-GAAP" under measure heads ("Net Income | Earnings per share-diluted", each
  over its years and change): one row per measure, labelled with the basis and the head ("Non-GAAP Net Income");
- parts: "Flexibles | Rigid Packaging | Other | Total": a row becomes one row per part, each a
  segment's row (its caption names the part), and the "Total" column the company's row, so a
  question that names no part is not answered by the first part's column.

A section that ends with a comma or a hyphen is a row label wrapped onto two lines, never a heading:
it is dropped and the row's line item read again without it (the row right under it was labelled with
both lines already: agent/no_model/cited_rows.py `_joined`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from storage.finance import line_items
from storage.finance.periods import YEAR
from agent.no_model.cited_rows import WRAPPED_LABEL, Row, percent_row

_HEAD = re.compile(rf"^(?P<base>.*(?<!\d){YEAR}(?!\d)\)?)\s+(?P<head>\S.*)$")
_TOTAL = re.compile(r"(?i)^(?:total|consolidated|group|company)$")
_LIST_SPLIT = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+|/|\s+&\s+)\s*", re.I)
_FOOTNOTE = re.compile(r"\s*\(\d{1,2}\)\s*$")
_PER_SHARE = re.compile(r"(?i)\bper\b.*\bshare\b|\beps\b")
_QUALIFIER = re.compile(r"(?i)\b(?:adjusted|non-gaap|core|comparable|underlying)\b")
# a row that says only its basis, the measure printed over its columns: "GAAP" and "Non-GAAP" under "Net income |
# Earnings per share-diluted"
_BASIS_LABEL = re.compile(r"(?i)^(?:(?:U\.S\.\s+)?GAAP|non-GAAP|adjusted(?:\s+non-GAAP)?|(?:as\s+)?reported)"
                          r"(?:\s+(?:basis|results|measures?))?:?$")


def _item(label: str, cells) -> line_items.LineItem | None:
    """The line item a split row's label prints: as a row label, else a measure the question vocabulary
    names in full ("Adjusted EBIT": the EBIT a question asks, its qualifier said by the label)."""
    if (item := line_items.row_item(label, "", percent_row(cells))) is not None:
        return item
    bare = " ".join(_QUALIFIER.sub(" ", label).split())
    asked = line_items.asked_items(bare)
    return asked[0].item if len(asked) == 1 and asked[0].end - asked[0].start == len(bare) else None


def split_columns(rows: list[Row]) -> list[Row]:
    """The rows with wrapped-label sections dropped and column groups split (see the module doc)."""
    out: list[Row] = []
    for row in rows:
        row = _unwrap_section(row)
        out.extend(_split(row) or [row])
    return out


def _unwrap_section(row: Row) -> Row:
    section = row.cells[0].section
    if not section or not WRAPPED_LABEL.search(section):
        return row
    cells = [replace(c, section="") for c in row.cells]
    return replace(row, cells=cells, item=line_items.row_item(cells[0].label, "", percent_row(cells)))


def _groups(row: Row) -> dict[str, list[tuple[str, object]]]:
    """base period -> [(sub-column head, cell)], for cells whose period carries a head after its date."""
    groups: dict[str, list] = {}
    for cell in row.cells:
        m = _HEAD.match(" ".join(cell.period.split()))
        if m is None:
            return {}
        groups.setdefault(m.group("base"), []).append((m.group("head"), cell))
    return groups


def _split(row: Row) -> list[Row] | None:
    if (rows := _basis_rows(row)) is not None:
        return rows
    groups = _groups(row)
    if not groups or all(len({h for h, _ in g}) < 2 for g in groups.values()):
        return None
    heads = {h for g in groups.values() for h, _ in g}
    if any(_TOTAL.match(h) for h in heads):
        return _parts(row, groups)
    return _measures(row, groups)


def _parts(row: Row, groups) -> list[Row]:
    """One row per part column (a segment's row) and one for the total column (the company's)."""
    by_head: dict[str, list] = {}
    for g in groups.values():
        for head, cell in g:
            by_head.setdefault(head, []).append(cell)
    out = []
    for head, cells in by_head.items():
        # the total column is no segment's even under a caption "… by reporting segment"
        caption = "" if _TOTAL.match(head) else f"{head} segment"
        out.append(replace(row, cells=cells, caption=caption, item=_item(row.label, cells),
                           table=hash((row.table, head))))
    return out


def _basis_rows(row: Row) -> list[Row] | None:
    """One row per measure head over a basis row's columns (see the module doc), or None: the label is no basis
    alone, or a head is no line item."""
    basis = _FOOTNOTE.sub("", row.label).strip()
    if not _BASIS_LABEL.match(basis):
        return None
    by_head: dict[str, list] = {}
    for cell in row.cells:
        if m := _HEAD.match(" ".join(cell.period.split())):
            by_head.setdefault(m.group("head"), []).append(cell)
    if not by_head:
        return None
    out = []
    for k, (head, cells) in enumerate(by_head.items()):
        # (the head's change column, "Net Income Inc/ (Dec)", printed with no year)
        cells += [c for c in row.cells if c not in cells and " ".join(c.period.split()).startswith(head)]
        label = f"{basis} {head}"
        cells = sorted((replace(c, label=label) for c in cells), key=lambda c: c.column)
        if (item := _item(label, cells)) is None:
            return None
        out.append(replace(row, cells=cells, item=item, table=hash((row.table, "basis", k))))
    return out


def _elements(label: str) -> list[str]:
    return [e for e in (_FOOTNOTE.sub("", p).strip() for p in _LIST_SPLIT.split(label)) if e]


def _names(element: str, head: str) -> bool:
    """The sub-column head names the element: a trailing run of its words, word-bounded; a per-share
    element only by a per-share head ("EPS" by "Earnings per Common Share") and the reverse."""
    if bool(_PER_SHARE.search(element)) != bool(_PER_SHARE.search(head)):
        return False
    if _PER_SHARE.search(element):
        return True
    words = element.split()
    return any(re.search(rf"(?i)(?<![\w-]){re.escape(' '.join(words[i:]))}(?![\w-])", head) for i in range(len(words)))


def _measures(row: Row, groups) -> list[Row] | None:
    elements = _elements(row.label)
    if len(elements) < 2:
        return None
    first = elements[0]
    # the list's qualifier: the first element's words before the measure a head names ("Adjusted ")
    prefix = ""
    heads = {h for g in groups.values() for h, _ in g}
    words = first.split()
    for i in range(len(words)):
        tail = re.escape(" ".join(words[i:]))
        if any(re.search(rf"(?i)(?<![\w-]){tail}(?![\w-])", h) for h in heads):
            prefix = " ".join(words[:i])
            break
    by_element: dict[int, list] = {}
    for g in groups.values():
        seen: dict[int, int] = {}
        for head, cell in g:
            named = [k for k, e in enumerate(elements) if _names(e, head)]
            if len(named) == 1:
                seen[named[0]] = seen.get(named[0], 0) + 1
                by_element.setdefault(named[0], []).append((head, cell))
        for k, n in seen.items():
            if n > 1:  # two sub-columns of one period name the same measure: which is it is unknown
                by_element[k] = [(h, c) for h, c in by_element[k] if c not in [c2 for _, c2 in g]]
    out = []
    for k, pairs in by_element.items():
        if not pairs:
            continue
        label = elements[k] if k == 0 else f"{prefix} {elements[k]}".strip()
        cells = [replace(c, label=label) for _, c in pairs]
        out.append(replace(row, cells=cells, caption=pairs[0][0],
                           item=_item(label, cells), table=hash((row.table, k))))
    return out or None
