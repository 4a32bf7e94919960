"""Facts gold benchmark (issue 27): is every human-read gold cell a fact of its page, with its value,
its period and its scale/unit right?

    python -m bench.facts_gold --work /work/wt/facts-work [--baseline-rev fe96e53 | --baseline-work PRISTINE_COPY]

Gold: bench/gold/statements_figures.jsonl and bench/gold/statements_more_figures.part-*.jsonl (file, 0-based
page, value as printed, period as printed, unit as a person reads the page: "USD millions", "USD per
share", "%", ...). For each cell, the facts stored with the build (storage/documents/facts.py:
`page_facts`) of its page are searched for

    value   a fact printing the gold number (sign as printed; "(1,577)" = -1,577)
    period  ... that fact's column is the gold period (same end date and span; a balance's date)
    scale   ... and its unit and scale are the gold unit's ("USD millions" = USD x 1e6; per-share
            amounts and percentages unscaled)

`--gold library` scores bench/gold/library_figures.jsonl instead (the AMCOR and BOEING 10-Ks of
financebench-dev/library, tune half); `--gold tune-more` bench/gold/facts_tune_more_figures.jsonl (tune issuers only:
notes tables under their own or their section's caption, segment and MD&A tables, a 10-K's quarterly table,
10-Q nine-month columns, a release's footnote tables, multi-level column heads, per-share and percent rows;
read 2026-11-27 off the rendered pages and their text); `--gold tune-more2` bench/gold/facts_tune_more2_figures.jsonl
(tune issuers only, where period and scale are hard: scale in a paragraph, a stub or column head or under the year row,
thousands and millions in one table, continued tables, "Three/Six Months Ended" over a year row, five-year selected data,
release reconciliations, totals printed above their labels, a headcount row in a "$ in millions" table); `--gold tune-more3`
bench/gold/facts_tune_more3_figures.jsonl (a tune release whose column heads print their unit: "2022 $ million", "Reported
∆%", rows in "US cents"; a change column's cells have the period "change": right when the fact has no period).

`--baseline-work W0` scores the facts stored in another work folder instead (the same filings backfilled
by another revision, e.g. a pristine copy of the shared work folder), in the same run.

Baseline, in the same run, by default: the answer-time layout read of `--baseline-rev` (default fe96e53: the
source PDF's words read at answer time by `page_tables.table_units`, the caption scale of
`figure_words.scale_word`), its cells scored by the same rules (a subprocess on a temporary worktree
of that revision reading a copy of nothing: it only reads). Text-layer pages are reported apart from
OCR pages; each split half (bench/gold/splits.json) apart. The work folder's builds must hold facts:
`python -m storage.documents.facts --backfill --work W` upgrades older ones.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from bench.revision import checkout
from bench.splits import half_of

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "bench" / "gold"

_UNITS = {  # gold unit -> (unit test, scale)
    "USD millions": ("money", 1e6), "USD thousands": ("money", 1e3), "USD billions": ("money", 1e9),
    "USD per share": ("per share", 1.0), "%": ("%", 1.0), "millions": ("any", 1e6),
    "millions of shares": ("shares", 1e6), "thousands of shares": ("shares", 1e3),
    "US cents per share": ("per share", 0.01),  # "EPS (diluted US cents)  70.5": $0.705
}


def gold_cells(gold: str = "statements") -> list[dict]:
    """The human-read cells of a gold: "statements" (statements, statements-more), "library" (the
    FinanceBench library filings of the tune issuers, bench/gold/library_figures.jsonl) or "tune-more"
    (notes, segment, quarterly, year-to-date and release tables of tune issuers, bench/gold/facts_tune_more_figures.jsonl) or
    "tune-more2" (tune issuers' tables where period and scale are hard, bench/gold/facts_tune_more2_figures.jsonl) or
    "tune-more3" (column heads printing their unit, bench/gold/facts_tune_more3_figures.jsonl)."""
    named = {"library": "library_figures.jsonl", "tune-more": "facts_tune_more_figures.jsonl",
             "tune-more2": "facts_tune_more2_figures.jsonl", "tune-more3": "facts_tune_more3_figures.jsonl"}
    files = [GOLD / named[gold]] if gold in named else \
        [GOLD / "statements_figures.jsonl", *sorted(GOLD.glob("statements_more_figures.part-*.jsonl"))]
    cells = []
    for path in files:
        for line in path.read_text("utf-8").splitlines():
            if line.strip():
                cells.append({**json.loads(line), "set": path.name})
    return cells


def number(printed: str) -> float | None:
    text = printed.strip().replace("−", "-").replace("–", "-")
    negative = bool(re.fullmatch(r"\$?\s*\(.*\)%?", text)) or text.startswith("-") or text.startswith("($")
    digits = re.sub(r"[^\d.]", "", text)
    if not re.fullmatch(r"\d+(?:\.\d+)?", digits):
        return None
    return -float(digits) if negative else float(digits)


def same_value(gold: str, fact_value: float | None) -> bool:
    g = number(gold)
    return g is not None and fact_value is not None and abs(g - fact_value) < 1e-9


def same_period(gold: str, fact: dict) -> bool:
    from storage.finance.periods import parse_period

    if gold == "change":  # a change column ("Reported ∆%", "% Change"): no period of its own
        return fact.get("period_end") is None and fact.get("fiscal_year") is None
    g = parse_period(gold)
    end = fact.get("period_end")
    if g.end is not None:
        if end != g.end.isoformat():
            return False
        return g.months is None or fact.get("duration_months") == g.months
    if g.year is not None:  # "2022", "Fiscal 2022": the year named, and the span when the gold says one
        return fact.get("fiscal_year") == g.year and (g.months is None or fact.get("duration_months") in (g.months, None))
    return False


def right_unit(gold_unit: str, fact: dict) -> bool:
    kind, scale = _UNITS.get(gold_unit, ("any", 1.0))
    unit = fact.get("unit") or ""
    if abs(float(fact.get("scale") or 1.0) - scale) > 1e-6 * scale:
        return False
    return {"money": unit not in ("%", "shares", "people", "ratio", "bp") and not unit.endswith("/share"),
            "per share": unit.endswith("/share"), "%": unit in ("%", "ratio"), "shares": unit == "shares",
            "any": True}[kind]


def score(cell: dict, facts: list[dict]) -> tuple[bool, bool, bool]:
    valued = [f for f in facts if same_value(cell["value"], f.get("value"))]
    timed = [f for f in valued if same_period(cell["period"], f)]
    return bool(valued), bool(timed), any(right_unit(cell.get("unit", ""), f) for f in timed)


# ---------------------------------------------------------------- the baseline: answer-time cells of a revision

_BASELINE = r'''
import json, re, sys
from storage.documents.page_tables import table_units
from storage.documents.catalog import load_page_texts
from storage.documents.tables import row_cells
from agent.no_model.figure_words import scale_word
pages = json.load(open(sys.argv[1]))
out = {}
per_share = re.compile(r"per (?:common |diluted |basic )?share|\beps\b|\bdiluted\b|\bbasic\b", re.I)
not_per_share = re.compile(r"\bshares? (?:used|outstanding)|weighted", re.I)
for doc_id, page in pages:
    text = load_page_texts(doc_id)[page]
    cells = []
    page_caption = ""
    for unit in table_units(doc_id, page, text):
        if not unit.is_table_row and re.search(r"\bin (?:millions|thousands|billions)\b", unit.text, re.I):
            page_caption = unit.text
        for c in row_cells(unit):
            caption = c.unit or (unit.header.text if scale_word(unit.header.text) else "") or page_caption
            word = scale_word(caption)
            ps = bool(per_share.search(c.label)) and not not_per_share.search(c.label)
            pct = c.value.endswith("%")
            shares = bool(re.search(r"\bshares\b", c.label, re.I)) and not ps
            unit_name = "%" if pct else "USD/share" if ps else "shares" if shares else "USD"
            scale = 1.0 if pct or ps else {"thousand": 1e3, "million": 1e6, "billion": 1e9}.get(word, 1.0)
            cells.append({"period": c.period, "value_text": c.value, "unit": unit_name, "scale": scale})
    out[f"{doc_id}|{page}"] = cells
json.dump(out, open(sys.argv[2], "w"))
'''


def baseline_cells(rev: str, pages: list[tuple[str, int]], work: Path) -> dict[str, list[dict]]:
    """Cells of each page as revision `rev` reads them at answer time (a subprocess on a temporary
    worktree; periods parsed and values read here, by the same rules as the facts)."""
    with checkout(rev, "facts-gold-") as (tree, tmp):
        (tmp / "pages.json").write_text(json.dumps(pages), "utf-8")
        (tmp / "run.py").write_text(_BASELINE, "utf-8")
        env = {**os.environ, "PYTHONPATH": str(tree), "PDF_CHAT_HOME": str(work), "PDF_SOURCE_DIR": str(work / "source"),
               "PDF_DESTINATION_DIR": str(work / "destination")}
        subprocess.run([sys.executable, str(tmp / "run.py"), str(tmp / "pages.json"), str(tmp / "out.json")],
                       cwd=tree, env=env, check=True)
        raw = json.loads((tmp / "out.json").read_text("utf-8"))
    from storage.finance.periods import parse_period

    out = {}
    for key, cells in raw.items():
        facts = []
        for c in cells:
            p = parse_period(c["period"])
            facts.append({"value": number(c["value_text"]), "period_end": p.end.isoformat() if p.end else None,
                          "duration_months": p.months, "fiscal_year": p.year, "unit": c["unit"], "scale": c["scale"]})
        out[key] = facts
    return out


def _cell_key(cell: dict) -> str:
    return json.dumps([cell["set"], cell["file"], cell["page"], cell.get("line_item"), cell.get("period"), cell["value"]])


def _scores_of_work(work: Path, gold: str = "statements") -> dict[str, list[bool]]:
    """Each gold cell's (value, period, scale) as the facts stored in another work folder score them (a
    subprocess: the storage settings are read once per process)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="facts-gold-") as tmp:
        out = Path(tmp) / "scores.json"
        subprocess.run([sys.executable, "-m", "bench.facts_gold", "--work", str(work), "--baseline-rev", "",
                        "--gold", gold, "--scores-out", str(out)], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        return {key: scores for key, scores in json.loads(out.read_text("utf-8"))}


# ---------------------------------------------------------------- report


def report(rows: list[dict], name: str) -> None:
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in rows:
        groups[(r["half"], "OCR" if r["ocr"] else "text layer")].append(r)
    print(f"\n{name}: share of gold cells with a fact of that value / + period / + scale and unit")
    print(f"  {'half':6} {'pages':11} {'cells':>5}  {'value':>6} {'period':>6} {'scale':>6}   "
          f"{'baseline value':>14} {'period':>6} {'scale':>6}")
    for (half, kind), rs in sorted(groups.items()):
        n = len(rs)
        share = [sum(r[k] for r in rs) / n for k in ("value", "period", "scale", "b_value", "b_period", "b_scale")]
        print(f"  {half:6} {kind:11} {n:5d}  {share[0]:6.3f} {share[1]:6.3f} {share[2]:6.3f}   "
              f"{share[3]:14.3f} {share[4]:6.3f} {share[5]:6.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, required=True, help="ingestion work folder holding the gold filings")
    parser.add_argument("--baseline-rev", default="fe96e53", help="revision whose answer-time read is the baseline ('' for none)")
    parser.add_argument("--baseline-work", type=Path, help="score the facts stored in this work folder as the baseline "
                        "(the same gold, another build of the facts: e.g. a pristine copy); replaces --baseline-rev")
    parser.add_argument("--scores-out", type=Path, help=argparse.SUPPRESS)  # per-cell scores, for --baseline-work
    parser.add_argument("--failures", type=int, default=0, help="print this many tune-half failures")
    parser.add_argument("--gold", choices=("statements", "library", "tune-more", "tune-more2", "tune-more3"), default="statements",
                        help="the gold cells: statements (bench/gold/statements*), library (bench/gold/library_*) or "
                        "tune-more (bench/gold/facts_tune_more_figures.jsonl), tune-more2 (facts_tune_more2_figures.jsonl), tune-more3 (facts_tune_more3_figures.jsonl)")
    args = parser.parse_args(argv)
    if args.baseline_work:
        args.baseline_rev = ""
    work = args.work.resolve()
    from bench.answers import use_work_dir

    use_work_dir(work)
    from storage.documents.catalog import list_processed_pdfs
    from storage.documents.facts import page_facts

    by_file = {m.source_file: m for m in list_processed_pdfs()}
    cells = gold_cells(args.gold)
    missing = sorted({c["file"] for c in cells} - set(by_file))
    if missing:
        print(f"not processed in {work}, left out: {', '.join(missing)}", file=sys.stderr)
    cells = [c for c in cells if c["file"] in by_file and isinstance(c.get("value"), str)]
    pages = sorted({(by_file[c["file"]].doc_id, int(c["page"])) for c in cells})
    base = baseline_cells(args.baseline_rev, pages, work) if args.baseline_rev else {}
    stored_base = _scores_of_work(args.baseline_work.resolve(), args.gold) if args.baseline_work else {}
    rows = []
    for c in cells:
        m = by_file[c["file"]]
        facts = [f.model_dump() for f in page_facts(m.doc_id, int(c["page"]))]
        v, p, s = score(c, facts)
        bv, bp, bs = stored_base.get(_cell_key(c)) or score(c, base.get(f"{m.doc_id}|{c['page']}", []))
        rows.append({"half": half_of(c["file"]) or "other", "ocr": int(c["page"]) in set(m.ocr_pages or []), "value": v,
                     "period": p, "scale": s, "b_value": bv, "b_period": bp, "b_scale": bs, "cell": c, "facts": facts})
    if args.scores_out:
        args.scores_out.write_text(json.dumps([[_cell_key(r["cell"]), [r["value"], r["period"], r["scale"]]] for r in rows]))
    against = f"the facts stored in {args.baseline_work}" if args.baseline_work else \
        f"the answer-time layout read of {args.baseline_rev or '(none)'}"
    report(rows, f"facts stored at ingestion vs {against}")
    shown = 0
    for r in rows:
        if shown >= args.failures or r["half"] != "tune" or r["scale"]:
            continue
        shown += 1
        c = r["cell"]
        near = [f for f in r["facts"] if same_value(c["value"], f.get("value"))]
        print(f"\n  {c['file']} p{c['page']} {c['line_item']!r} {c['period']!r} {c['value']} {c.get('unit')}: "
              f"value={r['value']} period={r['period']}")
        for f in near[:3]:
            print(f"     fact {f['label']!r} {f['period']!r} end={f['period_end']} months={f['duration_months']} "
                  f"unit={f['unit']} scale={f['scale']:g}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
