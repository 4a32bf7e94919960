"""Train the figure-row scorer (agent/no_model/row_scorer.py) on questions generated from tune-issuer filings.

    .venv/bin/python -m bench.train_row_scorer --work /work/wt/w12 [--seed 11] [--out agent/no_model/row_scorer.json]

Recipe (seeded; the held-out rules of bench/scorer_data.py: no filing of a check-half issuer is read):
- each table row of a tune-issuer filing's pages (agent/no_model/cited_rows.py `collect_rows`, the rows the
  answer path reads) with a cell of a fiscal year becomes a question in bench/scorer_data.py's phrasings
  (`ROW_TEMPLATES`, `ANALYST_ROW_TEMPLATES`, `_period`, `_question`), its line item said as the label, the label
  with its section's words ("Products" under "Net sales:" -> "products net sales"), or the label missing a word;
- its candidates are the page's rows whose cells of the asked period and unit fit (`row_scorer.candidates`),
  the row it was made from the positive, the others (same section, same words) the negatives; a question
  whose row is not a candidate, or whose label is printed twice among them, is dropped;
- a listwise softmax (numpy) over each question's candidates, L2-regularised, trained on the filings of
  80% of the questions' filings and measured on the rest (held out by filing);
- the floor and margin of `TUNING.rows` are read off the held-out questions the rules leave unanswered:
  the table printed shows, per (floor, margin), how many the scorer answers and how many of them right.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

from bench.answers import use_work_dir
from bench.scorer_data import (ANALYST_ROW_TEMPLATES, ROW_TEMPLATES, Filing, _clean_label, _period, _question,
                               _short_issuer, analyst_item, held_out_issuers, issuer_code)

OUT = Path(__file__).resolve().parent.parent / "agent" / "no_model" / "row_scorer.json"
MAX_ROWS_PER_PAGE = 3
MAX_PAGES_PER_FILING = 80
L2 = 1e-3
FLOORS = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
MARGINS = (0.0, 0.2, 0.4, 0.6, 0.8)


class CachedEmbedder:
    """The app's embedder, each text embedded once (a page's labels recur in each of its questions)."""

    def __init__(self, embedder):
        self.embedder, self.seen = embedder, {}

    def embed(self, texts):
        new = [t for t in dict.fromkeys(texts) if t not in self.seen]
        if new:
            self.seen.update(zip(new, self.embedder.embed(new)))
        return np.array([self.seen[t] for t in texts])


def training_filings(destination: Path) -> list[Path]:
    """The ingested filings whose issuer is of the tune half (bench/gold/splits.json); never a check issuer's."""
    check = held_out_issuers()
    out = []
    for manifest in sorted(destination.glob("*/manifest.json")):
        stem = json.loads(manifest.read_text())["source_file"].removesuffix(".pdf")
        if issuer_code(stem) not in check:
            out.append(manifest)
    return out


def item_phrase(label: str, section: str, rng: random.Random) -> str:
    """How a question names the row's item: its label, with its section's words, or missing a word."""
    label = _clean_label(label)
    section = _clean_label(section)
    roll = rng.random()
    if roll < 0.3 and section and len(section.split()) <= 6:
        return f"{label} {section}" if rng.random() < 0.5 else f"{section} {label}"
    words = label.split()
    if roll < 0.45 and len(words) >= 3:
        del words[rng.randrange(1, len(words))]
        return " ".join(words)
    return label


def row_questions(manifest: Path, rng: random.Random, analyst: bool = False):
    """Questions generated on one filing's table rows (the stored facts' rows the answer path reads), each as
    (question, src, rows, row, cell, ask, fitting, positive): the page's rows, the row asked and its cell, the
    answer path's ask and the candidates it chooses among (`positive`: the asked row's index among them).
    A question whose row is not a candidate, or whose label is printed twice among them, is skipped.
    `analyst`: also the words analysts use (bench/scorer_data.py `analyst_item`: "capex", "CFO", "diluted EPS",
    a segment's name before the item, "as of" a balance's year end); off, the recipe of the row scorer's
    training (same draws, same questions)."""
    from storage.documents import catalog
    from storage.finance import line_items
    from storage.retrieval.page_sections import page_sections
    from storage.schema import Source
    from agent.no_model.cited_rows import collect_rows
    from agent.no_model.figure_periods import asked_period, column_years
    from agent.no_model.figure_rows import make_ask
    from agent.no_model.release_columns import split_columns
    from agent.no_model.row_scorer import candidates

    m = json.loads(manifest.read_text())
    info, doc_id, stem = m.get("info") or {}, m["doc_id"], m["source_file"].removesuffix(".pdf")
    build = manifest.parent / f"build-{m['build']}"
    pages = json.loads((build / "pages.json").read_text()) if (build / "pages.json").is_file() else []
    filing = Filing(stem, _short_issuer(info.get("issuer"), stem), info.get("form") or "", info.get("fiscal_year"),
                    info.get("fiscal_quarter"), page_labels=page_sections(pages), info=info)
    texts = catalog.load_page_texts(doc_id)
    page_order = list(range(len(texts)))
    rng.shuffle(page_order)
    used_pages = 0
    for page in page_order:
        if used_pages >= MAX_PAGES_PER_FILING:
            break
        src = Source(kind="document", source_id="1", doc_id=doc_id, source_file=m["source_file"], page_number=page,
                     text=texts[page], extra={"issuer": info.get("issuer")})
        rows = split_columns(collect_rows([src], lambda s: texts[s.page_number]))
        dated = [r for r in rows if any(column_years(c.period) for c in r.cells)]
        if len(rows) < 3 or not dated:
            continue
        used_pages += 1
        for row in rng.sample(dated, min(MAX_ROWS_PER_PAGE, len(dated))):
            cell = rng.choice([c for c in row.cells if column_years(c.period)])
            per, _ = _period(filing, [str(max(column_years(cell.period)))], rng)
            item = item_phrase(row.label, row.cells[0].section, rng)
            templates = ROW_TEMPLATES + ANALYST_ROW_TEMPLATES
            if analyst:
                item, per, extra = analyst_item(row, cell, item, per, rng)
                templates = templates + extra
            question = _question(rng.choice(templates), filing, item, per, rng, page)
            ask = make_ask(question, asked_period(question), [src])
            fitting = candidates(ask, rows)
            positive = next((i for i, (r, cells) in enumerate(fitting) if r is row and cell in cells), None)
            label = line_items.normalize_label(row.label)
            if positive is None or len(fitting) < 2 or not ask.own or \
                    any(r is not row and line_items.normalize_label(r.label) == label for r, _ in fitting):
                continue
            yield question, src, rows, row, cell, ask, fitting, positive


def questions_of(manifest: Path, embedder, rng: random.Random) -> list[dict]:
    """Generated questions on one filing's pages, each with its candidates' features and the positive's index."""
    from agent.no_model.figure_rows import best_row
    from agent.no_model.row_scorer import features

    stem = json.loads(manifest.read_text())["source_file"].removesuffix(".pdf")
    out = []
    for question, _, rows, _, _, ask, fitting, positive in row_questions(manifest, rng):
        rules = best_row(ask, rows, embedder)
        out.append({"filing": stem, "question": question, "x": features(ask, fitting, embedder, rows), "y": positive,
                    "rules": None if rules is None else next((i for i, (r, _) in enumerate(fitting) if r is rules.row), -1)})
    return out


def _groups(data: list[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = np.vstack([d["x"] for d in data])
    starts = np.cumsum([0] + [len(d["x"]) for d in data[:-1]])
    target = np.zeros(len(x))
    target[starts + np.array([d["y"] for d in data])] = 1.0
    return x, starts, target


def _softmax_groups(scores: np.ndarray, starts: np.ndarray) -> np.ndarray:
    sizes = np.diff(np.append(starts, len(scores)))
    top = np.repeat(np.maximum.reduceat(scores, starts), sizes)
    e = np.exp(scores - top)
    return e / np.repeat(np.add.reduceat(e, starts), sizes)


def train(data: list[dict], steps: int = 3000, rate: float = 0.5) -> np.ndarray:
    """Weights of a listwise softmax over each question's candidates (full-batch gradient descent with momentum)."""
    x, starts, target = _groups(data)
    w, velocity = np.zeros(x.shape[1]), np.zeros(x.shape[1])
    for _ in range(steps):
        p = _softmax_groups(x @ w, starts)
        grad = x.T @ (p - target) / len(data) + L2 * w
        velocity = 0.9 * velocity - rate * grad
        w = w + velocity
    return w


def evaluate(data: list[dict], w: np.ndarray) -> dict:
    """Accuracy of the top candidate, and per (floor, margin) on the questions the rules leave unanswered:
    how many the scorer answers and how many of those right."""
    from agent.no_model.row_scorer import probabilities

    top = [int(np.argmax(probabilities(d["x"], w))) == d["y"] for d in data]
    unanswered = [d for d in data if d["rules"] is None]
    grid = {}
    for floor in FLOORS:
        for margin in MARGINS:
            right = wrong = 0
            for d in unanswered:
                p = probabilities(d["x"], w)
                order = np.argsort(-p)
                second = p[order[1]] if len(p) > 1 else 0.0
                if p[order[0]] >= floor and p[order[0]] - second >= margin:
                    right += int(order[0]) == d["y"]
                    wrong += int(order[0]) != d["y"]
            grid[(floor, margin)] = (right, wrong)
    rules_right = sum(d["rules"] == d["y"] for d in data)
    rules_wrong = sum(d["rules"] is not None and d["rules"] != d["y"] for d in data)
    return {"top1": sum(top) / len(top), "n": len(data), "unanswered": len(unanswered), "grid": grid,
            "rules_right": rules_right, "rules_wrong": rules_wrong}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", type=Path, required=True, help="an ingestion work folder (read only)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    use_work_dir(args.work)
    from storage.documents.embeddings import get_embedder
    from agent.no_model.row_scorer import FEATURES

    t0 = time.perf_counter()
    rng = random.Random(args.seed)
    embedder = CachedEmbedder(get_embedder())
    manifests = training_filings(args.work / "destination")
    data = []
    for manifest in manifests:
        mine = questions_of(manifest, embedder, rng)
        print(f"  {manifest.parent.name}: {len(mine)} questions", file=sys.stderr)
        data += mine
    filings = sorted({d["filing"] for d in data})
    random.Random(args.seed).shuffle(filings)
    held = set(filings[: max(1, len(filings) // 5)])
    fit, test = [d for d in data if d["filing"] not in held], [d for d in data if d["filing"] in held]
    t1 = time.perf_counter()
    w = train(fit)
    t2 = time.perf_counter()
    train_eval, test_eval = evaluate(fit, w), evaluate(test, w)
    print(f"filings {len(manifests)} (tune issuers only), questions {len(data)}: train {len(fit)}, held out {len(test)} "
          f"(filings {', '.join(sorted(held))}); generation {t1 - t0:.0f} s, training {t2 - t1:.1f} s")
    for name, e in (("train", train_eval), ("held out", test_eval)):
        print(f"{name}: top-1 accuracy {e['top1']:.3f} of {e['n']}; rules right {e['rules_right']}, wrong "
              f"{e['rules_wrong']}, none {e['unanswered']}")
    print("held-out questions the rules leave unanswered: (floor, margin) -> scorer right / wrong")
    for (floor, margin), (right, wrong) in test_eval["grid"].items():
        print(f"  {floor:.2f} {margin:.1f}: {right:4d} / {wrong:4d}")
    args.out.write_text(json.dumps({"features": list(FEATURES), "weights": dict(zip(FEATURES, np.round(w, 4).tolist())),
                                    "trained": {"seed": args.seed, "questions": len(fit), "held_out": len(test),
                                                "held_out_top1": round(test_eval["top1"], 3)}}, indent=1) + "\n")
    print(f"weights -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
