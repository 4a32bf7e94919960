"""Table-parse coverage, gold-free: how many statement rows get a period for every value.

    python -m bench.table_coverage [--data ../shared/bench] [--files APPLE,EBAY] [--out f.json]

Over every PDF under `--data` (financebench-dev/pdfs, financebench-dev/library, statements), read
each page's words with their boxes and find, independently of both parsers (2-pt line bins, not the
layout reader's line grouping):
- a *label-and-number row*: a visual line (words whose vertical centres are within 2 pt) that
  starts with a word holding letters and has one or more numeric tokens at its right (a figure, a
  dash for zero, "-%"; "$", "%", ")" and "%)" printed apart go with them), separated from the label
  by a gap of 10 pt or more, not all of them years;
- a *statement row*: such a row printed below a line that prints two or more years (a period
  header row: "2022 2021 2020", "December 31, 2022 December 31, 2021");
- a *statement page*: a page with 8 or more statement rows (a table of contents, a list of store
  counts by state or a share-award table without years is not one).
A statement row is *covered* by a parser when the parser returns a table row with the same label (first 60
letters and digits, case-folded, footnote marks "(1)" after it dropped; or a label wrapped over lines that ends with the row's) whose cells give a labelled column to at least as many values as the
visual row prints (a value printed a little off the row's baseline is its own visual line). Coverage = covered rows / rows, over statement pages; reported for the layout reader
(storage/documents/table_layout.py, what figure answers use) and the text parser (storage/documents/tables.py
`page_units(text, one_line_rows=True)`, today's path), in the same run, with time per page. A
labelled column is a period, or for a roll-forward (equity statement, award activity: `TableHeader.kind
== "roll-forward"`) a component title with the row's period; "L hdrs" is the layout coverage counting
only tables with periods over their columns.

Period agreement (the periods are right, not only present): for each layout cell of a row, the
year of its period against the year printed in the nearest header row above the value (the closest
line within 200 pt above that prints two or more years; its year horizontally nearest the value);
share that agree, among cells with such a header row. A value printed several times in its row
("—", "5.7") is located at its own occurrence ("agree"); "agree1" is the figure as first defined,
every repeat located at the first one. Roll-forward cells are not checked (no year row heads their
columns). Known limits, both ways: a year right-aligned over a group of columns, or a year row of
the same label's other table on the page, makes a right period look wrong.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import pymupdf

from storage.documents.table_layout import layout_units
from storage.documents.tables import page_units, row_cells

NUM = re.compile(r"^\(?-?\$?\(?\d[\d,]*(?:\.\d+)?\)?%?\)?$|^[-–—]+%?$")  # a figure, or a dash for zero ("-%" in a percent column)
YEAR = re.compile(r"^\(?((?:19|20)\d\d)\)?,?$")
MIN_ROWS = 8
LABEL_GAP = 10.0


_FOOTNOTE = re.compile(r"(?:\s*\(\d{1,2}\))+\s*$")  # "Restructuring charges(4)": a footnote mark, not the label


def _key(label: str) -> str:
    return re.sub(r"[^a-z0-9]", "", _FOOTNOTE.sub("", label).lower())[:60]


def visual_rows(words: list[tuple]) -> list[dict]:
    """Label-and-number rows of a page: {label, values: [(text, x0, x1)], y}."""
    lines: dict[int, list[tuple]] = {}
    for w in words:
        yc = round((w[1] + w[3]) / 4)  # 2-pt bins
        lines.setdefault(yc, []).append(w)
    rows = []
    for yc in sorted(lines):
        ws = sorted(lines[yc], key=lambda w: w[0])
        if not ws or not re.search(r"[A-Za-z]", ws[0][4]):
            continue
        i = len(ws)
        while i > 0 and (NUM.match(ws[i - 1][4]) or ws[i - 1][4] in ("$", "%", ")", "%)")):
            i -= 1
        if i == 0 or i == len(ws) or ws[i][0] - ws[i - 1][2] < LABEL_GAP:
            continue
        values = [(w[4], w[0], w[2]) for w in ws[i:] if NUM.match(w[4])]
        if not values or all(YEAR.match(v[0]) or not re.search(r"\d", v[0]) for v in values):
            continue
        rows.append({"label": " ".join(w[4] for w in ws[:i]), "values": values, "y": yc * 2})
    return rows


def _covered(rows: list[dict], cells_by_label: dict[str, list[int]]) -> int:
    """Rows a parser row matches: same label, or a label wrapped over lines that ends with it."""
    def counts(label: str) -> list[int]:
        key = _full_key(label)
        return cells_by_label.get(_key(label), []) + [n for k, ns in cells_by_label.items()
                                                       if len(key) >= 6 and k.endswith(key) for n in ns]
    return sum(any(n >= len(r["values"]) for n in counts(r["label"])) for r in rows)


def _full_key(label: str) -> str:
    return re.sub(r"[^a-z0-9]", "", _FOOTNOTE.sub("", label).lower())


def _cells_by_label(units, kinds: tuple[str, ...] = ("periods", "roll-forward")) -> tuple[dict[str, list[int]], list]:
    out: dict[str, list[int]] = {}
    cells_all = []
    for u in units:
        cells = row_cells(u)
        if cells and all(c.period for c in cells) and u.header.kind in kinds:  # every value under a labelled column
            out.setdefault(_key(cells[0].label), []).append(len(cells))
            out.setdefault(_full_key(cells[0].label), []).append(len(cells))
            cells_all.append((u, cells))
    return out, cells_all


def _year_rows(words: list[tuple]) -> list[tuple[float, list[tuple[float, str]]]]:
    """Lines that print two or more years (header rows): (bottom y, [(x centre, year)])."""
    lines: dict[int, list[tuple]] = {}
    for w in words:
        if YEAR.match(w[4]):
            lines.setdefault(round((w[1] + w[3]) / 4), []).append(w)
    return [(max(w[3] for w in ws), [((w[0] + w[2]) / 2, YEAR.match(w[4]).group(1)) for w in ws])
            for ws in lines.values() if len(ws) >= 2]


def _agreement(words: list[tuple], rows: list[dict], layout_cells) -> tuple[int, int, int, int]:
    """(agreeing, checked, agreeing by first occurrence, checked by first occurrence) layout cells:
    the period's year vs the year of the nearest header row above the value (a line printing two
    or more years, within 200 pt), horizontally nearest. A value printed several times in its row
    ("—", "5.7") is found at its own occurrence (the n-th cell of that value at the n-th place); the
    first-occurrence figures are the measure as it was before (every repeat at the first place)."""
    year_rows = _year_rows(words)
    row_y = {_key(r["label"]): r for r in rows}
    agree = checked = agree_first = checked_first = 0
    for unit, cells in layout_cells:
        row = row_y.get(_key(cells[0].label))
        if row is None or unit.header.kind == "roll-forward":
            continue  # a roll-forward's periods come from balance rows, not from a year row over the columns
        above = [(row["y"] - y, ys) for y, ys in year_rows if 0 < row["y"] - y < 200]
        if not above:
            continue
        years = min(above)[1]
        seen: dict[str, int] = {}
        for cell in cells:
            value = cell.value.strip("$")
            spots = [(x0 + x1) / 2 for v, x0, x1 in row["values"] if v.strip("$") == value]
            nth = seen[value] = seen.get(value, -1) + 1
            if not re.search(r"(?:19|20)\d\d", cell.period) or not spots:
                continue  # a "Change" column: no year to check
            nearest = [min(years, key=lambda xy: abs(xy[0] - spot))[1] in cell.period for spot in spots]
            checked_first += 1
            agree_first += nearest[0]
            if nth < len(spots):
                checked += 1
                agree += nearest[nth]
    return agree, checked, agree_first, checked_first


def measure(pdf: Path) -> dict:
    out = {"pages": 0, "rows": 0, "layout": 0, "layout_headers": 0, "text": 0, "layout_s": 0.0, "text_s": 0.0, "agree": 0, "checked": 0,
           "agree_first": 0, "checked_first": 0}
    with pymupdf.open(pdf) as doc:
        for page in doc:
            words = page.get_text("words")
            year_rows = _year_rows(words)
            first = min((y for y, _ in year_rows), default=None)
            rows = [r for r in visual_rows(words) if first is not None and r["y"] > first]
            if len(rows) < MIN_ROWS:
                continue  # not a statement page
            out["pages"] += 1
            out["rows"] += len(rows)
            t0 = time.perf_counter()
            units = layout_units(words)
            layout, layout_cells = _cells_by_label(units)
            t1 = time.perf_counter()
            text, _ = _cells_by_label(page_units(page.get_text(), one_line_rows=True))
            t2 = time.perf_counter()
            out["layout_headers"] += _covered(rows, _cells_by_label(units, ("periods",))[0])
            out["layout_s"] += t1 - t0
            out["text_s"] += t2 - t1
            out["layout"] += _covered(rows, layout)
            out["text"] += _covered(rows, text)
            a, c, a1, c1 = _agreement(words, rows, layout_cells)
            out["agree"] += a
            out["checked"] += c
            out["agree_first"] += a1
            out["checked_first"] += c1
    return out


def _summary(parts: list[dict]) -> dict:
    total = {k: sum(p[k] for p in parts) for k in parts[0]} if parts else {}
    if not total or not total["rows"]:
        return {"pages": 0}
    return {
        "pages": total["pages"], "rows": total["rows"],
        "coverage_layout": round(total["layout"] / total["rows"], 3),
        "coverage_layout_period_headers": round(total["layout_headers"] / total["rows"], 3),
        "coverage_text_parser": round(total["text"] / total["rows"], 3),
        "period_agreement_layout": round(total["agree"] / total["checked"], 3) if total["checked"] else None,
        "period_agreement_first_occurrence": (round(total["agree_first"] / total["checked_first"], 3)
                                              if total["checked_first"] else None),
        "ms_per_page_layout": round(1000 * total["layout_s"] / total["pages"], 1),
        "ms_per_page_text_parser": round(1000 * total["text_s"] / total["pages"], 1),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default="../shared/bench", type=Path)
    ap.add_argument("--files", default="", help="comma-separated name prefixes to keep")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    corpora = {
        "dev pdfs": sorted((args.data / "financebench-dev" / "pdfs").glob("*.pdf")),
        "dev library": sorted((args.data / "financebench-dev" / "library").glob("*.pdf")),
        "statements": sorted((args.data / "statements").glob("*.pdf")),
    }
    keep = [p for p in args.files.split(",") if p]
    report: dict = {}
    for name, pdfs in corpora.items():
        pdfs = [p for p in pdfs if not keep or any(p.name.startswith(k) for k in keep)]
        per_file = {}
        for pdf in pdfs:
            print(f"  {name}: {pdf.name}", file=sys.stderr)
            per_file[pdf.stem] = measure(pdf)
        report[name] = {"all": _summary(list(per_file.values())),
                        "per_file": {k: _summary([v]) for k, v in per_file.items()}}

    print(f"{'corpus / filing':<40}{'pages':>6}{'rows':>7}{'layout':>8}{'L hdrs':>8}{'text':>7}{'agree':>7}{'agree1':>7}"
          f"{'ms/pg L':>9}{'ms/pg T':>9}")
    for name, rep in report.items():
        if "per_file" not in rep:
            continue
        rows = [(name, rep["all"])] + ([(f"  {k}", v) for k, v in rep["per_file"].items()] if name == "statements" else [])
        for label, s in rows:
            if not s.get("rows"):
                continue
            print(f"{label:<40}{s['pages']:>6}{s['rows']:>7}{s['coverage_layout']:>8.3f}"
                  f"{s['coverage_layout_period_headers']:>8.3f}{s['coverage_text_parser']:>7.3f}"
                  f"{(s['period_agreement_layout'] or 0):>7.3f}{(s['period_agreement_first_occurrence'] or 0):>7.3f}"
                  f"{s['ms_per_page_layout']:>9.1f}{s['ms_per_page_text_parser']:>9.1f}")
    if args.out:
        args.out.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
