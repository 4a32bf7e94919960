"""Page recall of the no-model figure path on questions generated from each filing's stored facts (issues 27, 28).

    .venv/bin/python -m bench.figure_pages --work W --half tune|check [--seed 11] [--n 300]
        [--baseline-rev ebd6a1a | --baseline-rev none] [--out f.json]

A diagnostic of PAGE RECALL, not a gold of values: the questions and their truth come from the facts the code
itself stored (a row the reader missed is never asked, a value it misread is asked as read), so it says whether
the figure path reads the page that prints the asked row, never whether a figure is right. The golds of
`bench.figures_gold` (read by people off the pages) remain the measure of answers.

- Questions: bench/train_row_scorer.py `row_questions` on the filings of W whose issuer is of the half
  (bench/gold/splits.json), in the row scorer's phrasings and analysts' (`analyst=True`: "capex", "CFO",
  "diluted EPS", a segment's or table's name before the item, a quarter of a 10-K's quarterly table, "as of" a
  balance); `--n` of them, spread evenly over the filings, seeded.
- Truth: every page of the filing whose stored rows print the asked row's label (normalised) with the asked
  value (the same row printed on the statement and again in a note or the five-year table counts on each).
- Pages read: each question asked as a fresh no-model turn with its one filing selected
  (bench/gold_turns.py `answer_all`), the sources the extractive answer is composed from recorded (as
  bench/figure_misses.py does; the answer itself is not composed): the pages of its first `MAX_SOURCES`
  document and page sources are the pages the figure path reads (statement pages, a segment's pages, then the
  search's passages) — the "gold page not retrieved" stage of `figures_gold --why`.

Prints recall@pages-read (the truth among the pages read), the truth's rank among the pages read and among all
pages offered (the search's passages past the read ones), which tool brought it, and for the tune half the same
by class (statement kind or a notes/MD&A table; a part named; quarterly; per share; balance; form); for the check
half aggregates only (its misses are never read). `--baseline-rev REV` asks the same questions with the code of
REV (a temporary git worktree run as a subprocess, this file by path) in the same run.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":  # run by path for a baseline revision: this folder must not shadow its packages
    _here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _here]

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
from collections import Counter, defaultdict  # noqa: E402
from contextlib import contextmanager  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
READ = 6  # agent/no_model/cited_rows.py MAX_SOURCES at ebd6a1a, when the revision under test has no such name


# ---------------------------------------------------------------- questions


def _filings(destination: Path, half: str) -> list[Path]:
    from bench.splits import half_of

    return [m for m in sorted(destination.glob("*/manifest.json"))
            if half_of(json.loads(m.read_text())["source_file"]) == half]


def _page_rows(manifest: Path) -> dict[int, list]:
    """page -> the rows the answer path reads on it (the stored facts' rows)."""
    from storage.documents import catalog
    from storage.schema import Source
    from agent.no_model.cited_rows import collect_rows
    from agent.no_model.release_columns import split_columns

    m = json.loads(manifest.read_text())
    texts = catalog.load_page_texts(m["doc_id"])
    out = {}
    for page, text in enumerate(texts):
        src = Source(kind="document", source_id="1", doc_id=m["doc_id"], source_file=m["source_file"],
                     page_number=page, text=text)
        out[page] = split_columns(collect_rows([src], lambda s: texts[s.page_number]))
    return out


def truth_pages(row, cell, page_rows: dict[int, list]) -> list[int]:
    """The pages whose rows print `cell`'s value in a row of `row`'s label (normalised) or of its line item
    (the statement's "Diluted earnings per share attributable to ..." and the five-year table's "Diluted")."""
    from storage.finance.line_items import normalize_label
    from storage.finance.numbers import parse_number

    label, value = normalize_label(row.label), parse_number(cell.value)

    def same(r) -> bool:
        named = normalize_label(r.label) == label or (row.item is not None and r.item is not None
                                                      and r.item.concept == row.item.concept)
        return named and any(parse_number(c.value) == value for c in r.cells)

    return sorted(p for p, rows in page_rows.items() if any(same(r) for r in rows))


def classes(filing_form: str, question: str, row, cell) -> list[str]:
    """The classes a question counts in: its page (a primary statement's kind, or a notes/MD&A table), and the
    asks that are harder to find (a part named, a quarter, per share, a balance), and its filing's form."""
    from storage.finance.periods import QUARTER_NAME
    from bench.scorer_data import _clean_label

    out = [f"statement: {row.statement or 'other'}" if row.primary else "notes/MD&A table"]
    part = _clean_label(row.caption or row.cells[0].section).lower()
    if not row.primary and part and part in question.lower():
        out.append("part named")
    if QUARTER_NAME.search(question) or QUARTER_NAME.search(cell.period):
        out.append("quarterly")
    if (row.item is not None and row.item.per_share) or "per share" in f"{row.label} {row.context}".lower():
        out.append("per share")
    if row.instant:
        out.append("balance")
    out.append(f"form: {filing_form or '?'}")
    return out


def generate(work: Path, half: str, n: int, seed: int) -> list[dict]:
    """`n` questions (or fewer) on the filings of `half`, spread evenly over the filings, each with its truth pages."""
    from bench.train_row_scorer import row_questions

    rng = random.Random(seed)
    per_filing: dict[str, list[dict]] = {}
    for manifest in _filings(work / "destination", half):
        m = json.loads(manifest.read_text())
        stem = m["source_file"].removesuffix(".pdf")
        page_rows = _page_rows(manifest)
        mine = []
        for question, src, _, row, cell, _, _, _ in row_questions(manifest, rng, analyst=True):
            truth = truth_pages(row, cell, page_rows)
            if src.page_number not in truth:  # the row as asked is not read back on its own page: no truth
                continue
            mine.append({"question": question, "doc_names": [stem], "file": m["source_file"], "page": src.page_number,
                         "truth": truth, "label": row.label, "value": cell.value,
                         "classes": classes((m.get("info") or {}).get("form") or "", question, row, cell)})
        rng.shuffle(mine)
        per_filing[stem] = mine
        print(f"  {stem}: {len(mine)} questions", file=sys.stderr)
    out, i = [], 0
    while len(out) < n and any(i < len(v) for v in per_filing.values()):  # round robin over the filings
        out += [v[i] for v in per_filing.values() if i < len(v)][: n - len(out)]
        i += 1
    for k, q in enumerate(out):
        q["id"] = f"fp-{half}-{k}"
    return out


# ---------------------------------------------------------------- the pages the figure path reads


@contextmanager
def _recording():
    """Within it, each turn's sources the extractive answer would be composed from are appended to the
    yielded list (one entry per `agent.run.run_turn` call, None when no extractive answer); the answer
    itself is not composed."""
    import agent.run
    from agent.no_model import extractive

    turns: list = []
    run_turn, compose = agent.run.run_turn, extractive.compose_extractive_answer

    def traced_turn(*args, **kwargs):
        turns.append(None)
        return run_turn(*args, **kwargs)

    def traced_compose(question, sources, *args, **kwargs):
        turns[-1] = list(sources)
        return "", False

    agent.run.run_turn, extractive.compose_extractive_answer = traced_turn, traced_compose
    try:
        yield turns
    finally:
        agent.run.run_turn, extractive.compose_extractive_answer = run_turn, compose


def _origin(source) -> str:
    extra = source.extra or {}
    return "statement" if extra.get("statement") else "part" if extra.get("part") else "label" if extra.get("label") else \
        "search" if source.kind == "document" else source.kind


def pages_read(questions: list[dict], work: Path) -> list[dict]:
    """For each question: `offered` = [file, page, origin] of every document/page source in order (a page once,
    at its first), `read` = how many of them the figure path reads (those of its first MAX_SOURCES sources)."""
    from bench.gold_turns import answer_all

    try:
        from agent.no_model.cited_rows import MAX_SOURCES
    except ImportError:
        MAX_SOURCES = READ
    with _recording() as turns:
        answers = answer_all(questions, work, [work / "source"], progress=True)
    out = []
    for q, a, sources in zip(questions, answers, turns):
        used = [s for s in sources or () if s.source_id and s.kind in ("document", "page")]
        offered, read = [], set()
        for i, s in enumerate(used):
            key = [s.source_file, s.page_number, _origin(s)]
            if all(o[:2] != key[:2] for o in offered):
                offered.append(key)
            if i < MAX_SOURCES:
                read.add((s.source_file, s.page_number))
        out.append({"id": q["id"], "offered": offered, "read": len(read), "error": a.get("error")})
    return out


def pages_read_at_revision(rev: str, questions: list[dict], work: Path) -> list[dict]:
    """`pages_read` by the code of git revision `rev` (a temporary worktree; this file run by path)."""
    from bench.revision import checkout

    with checkout(rev, "figure-pages-") as (tree, tmp):
        shutil.copytree(work, tmp / "work", symlinks=True)
        (tmp / "q.json").write_text(json.dumps(questions), "utf-8")
        env = {**os.environ, "PYTHONPATH": str(tree)}
        subprocess.run([sys.executable, str(Path(__file__).resolve()), "--read-pages", str(tmp / "q.json"),
                        "--work", str(tmp / "work"), "--out", str(tmp / "p.json")], cwd=tree, env=env, check=True)
        return json.loads((tmp / "p.json").read_text("utf-8"))


# ---------------------------------------------------------------- scores


def score(q: dict, p: dict) -> dict:
    """rank_read: the truth's 1-based rank among the pages read (None: not read); rank_offered: among all
    pages offered; by: the tool whose source brought the truth first."""
    truth = {(q["file"], t) for t in q["truth"]}
    ranks = [i for i, o in enumerate(p["offered"], 1) if (o[0], o[1]) in truth]
    first = ranks[0] if ranks else None
    return {"rank_read": first if first is not None and first <= p["read"] else None, "rank_offered": first,
            "by": p["offered"][first - 1][2] if first else None}


def summary(scores: list[dict]) -> dict:
    n = len(scores)
    hit = [s for s in scores if s["rank_read"] is not None]
    offered = [s for s in scores if s["rank_offered"] is not None]
    ranks = Counter(min(s["rank_read"], 4) for s in hit)
    return {"n": n, "recall_read": len(hit) / n if n else 0.0, "at1": ranks[1] / n if n else 0.0,
            "offered_not_read": (len(offered) - len(hit)) / n if n else 0.0,
            "mrr_read": sum(1 / s["rank_read"] for s in hit) / n if n else 0.0,
            "by": dict(Counter(s["by"] for s in hit))}


def _line(name: str, new: dict, base: dict | None) -> str:
    def cell(key):
        return f"{new[key]:.3f}" + (f" / {base[key]:.3f}" if base else "")
    return (f"  {name:32s} n={new['n']:4d}  read {cell('recall_read')}  @1 {cell('at1')}  MRR {cell('mrr_read')}  "
            f"offered, not read {cell('offered_not_read')}")


def report(questions: list[dict], new: list[dict], base: list[dict] | None, half: str, rev: str | None) -> dict:
    scored_new = [score(q, p) for q, p in zip(questions, new)]
    scored_base = [score(q, p) for q, p in zip(questions, base)] if base else None
    print(f"\nfigure-path page recall, {half} half: {len(questions)} generated questions; new = this tree"
          + (f" / {rev} (baseline)" if rev else ""))
    total = summary(scored_new), summary(scored_base) if scored_base else None
    print(_line("all", *total))
    print(f"  truth read, brought by: new {total[0]['by']}" + (f"; base {total[1]['by']}" if total[1] else ""))
    out = {"half": half, "all": {"new": total[0], "base": total[1]}, "classes": {}}
    if half == "tune":  # classes and misses of the tune half only: the check half is counted, never read
        by_class = defaultdict(list)
        for i, q in enumerate(questions):
            for c in q["classes"]:
                by_class[c].append(i)
        for c in sorted(by_class):
            idx = by_class[c]
            new_c = summary([scored_new[i] for i in idx])
            base_c = summary([scored_base[i] for i in idx]) if scored_base else None
            out["classes"][c] = {"new": new_c, "base": base_c}
            print(_line(c, new_c, base_c))
        if scored_base:
            gained = sum(n["rank_read"] is not None and b["rank_read"] is None for n, b in zip(scored_new, scored_base))
            lost = sum(n["rank_read"] is None and b["rank_read"] is not None for n, b in zip(scored_new, scored_base))
            print(f"  truth read by new, not by base: {gained}; by base, not by new: {lost}")
    errors = sum(bool(p.get("error")) for p in new)
    if errors:
        print(f"  turn errors: {errors}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", type=Path, required=True, help="an ingestion work folder (read only)")
    ap.add_argument("--half", choices=("tune", "check"))
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--n", type=int, default=300, help="questions asked (spread evenly over the half's filings)")
    ap.add_argument("--baseline-rev", default="none", help="git revision to compare with in the same run, or 'none'")
    ap.add_argument("--out", type=Path, help="questions, pages read and scores as JSON")
    ap.add_argument("--read-pages", type=Path, help=argparse.SUPPRESS)  # the baseline's subprocess: questions JSON
    args = ap.parse_args(argv)
    work = args.work.resolve()
    if args.read_pages:
        from bench.answers import use_work_dir

        use_work_dir(work)
        args.out.write_text(json.dumps(pages_read(json.loads(args.read_pages.read_text("utf-8")), work)), "utf-8")
        return 0
    if not args.half:
        ap.error("--half is required")
    from bench.answers import use_work_dir

    use_work_dir(work)
    questions = generate(work, args.half, args.n, args.seed)
    new = pages_read(questions, work)
    rev = None
    base = None
    if args.baseline_rev.lower() != "none":
        rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.baseline_rev], check=True,
                             capture_output=True, text=True).stdout.strip()
        base = pages_read_at_revision(rev, questions, work)
    result = report(questions, new, base, args.half, rev)
    if args.out:
        keep = questions if args.half == "tune" else [{"id": q["id"]} for q in questions]
        args.out.write_text(json.dumps({"report": result, "baseline_rev": rev, "questions": keep, "new": new,
                                        "base": base} if args.half == "tune" else
                                       {"report": result, "baseline_rev": rev}, indent=1), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
