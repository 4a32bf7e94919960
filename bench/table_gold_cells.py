"""Gold cells: does the layout reader put each human-read gold figure under its period?

    python -m bench.table_gold_cells [--pdfs ../shared/bench/statements] [-v]

For every figure of bench/gold/statements_figures.jsonl (read off the pages by a person) whose page
has a text layer and that a row prints (`value` not null), read the gold page with
`storage.documents.table_layout.layout_units` and look for a row whose label ends with the gold line item (as
written, without its parenthesised note, or the part after "Segment:"), case and punctuation
folded. Verdicts: *right* (a cell of that row holds the gold value, digits compared, under a column
whose label names the gold period's year), *wrong period* (the value only under another year's
column), *none* (no such cell). Complements bench.table_coverage (gold-free, every row) with a
check of the periods against the documents.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

import pymupdf

from storage.documents.table_layout import layout_units
from storage.documents.tables import row_cells

GOLD = Path(__file__).parent / "gold" / "statements_figures.jsonl"


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _digits(value: str) -> str:
    return re.sub(r"[^\d.]", "", value)


def verdict(units, gold: dict) -> str:
    year = re.findall(r"(?:19|20)\d\d", gold["period"])[-1]
    item = gold["line_item"]
    names = {_key(item), _key(re.sub(r"\(.*?\)|^.*:", "", item)), _key(re.sub(r"^.*:", "", item))} - {""}
    found = "none"
    for unit in units:
        cells = row_cells(unit)
        if not cells or not any(_key(cells[0].label).endswith(n) for n in names):
            continue
        for cell in cells:
            if _digits(cell.value) == _digits(gold["value"]):
                if year in cell.period:
                    return "right"
                found = "wrong period"
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pdfs", default="../shared/bench/statements", type=Path)
    ap.add_argument("-v", action="store_true", help="list the figures not right")
    args = ap.parse_args(argv)
    total: Counter = Counter()
    per_file: dict[str, Counter] = {}
    docs: dict[str, pymupdf.Document] = {}
    for line in GOLD.read_text().splitlines():
        gold = json.loads(line)
        if gold.get("value") is None or gold.get("text_layer") is False:
            continue
        doc = docs.setdefault(gold["file"], pymupdf.open(args.pdfs / gold["file"]))
        v = verdict(layout_units(doc[gold["page"]].get_text("words")), gold)
        total[v] += 1
        per_file.setdefault(gold["file"], Counter())[v] += 1
        if args.v and v != "right":
            print(f"  {v}: {gold['file']} p{gold['page']} {gold['line_item']} | {gold['period']} | {gold['value']}")
    print(f"{'filing':<36}{'figures':>8}{'right':>7}{'wrong':>7}{'none':>6}")
    for name, c in [*per_file.items(), ("all", total)]:
        print(f"{name:<36}{sum(c.values()):>8}{c['right']:>7}{c['wrong period']:>7}{c['none']:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
