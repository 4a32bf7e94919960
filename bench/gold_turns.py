"""Run benchmark questions through the real no-model turn and record what the user would read.

    python bench/gold_turns.py --work DIR --pdfs DIR [DIR ...] --questions q.json --out answers.json

`bench.figures_gold` calls `answer_all` in process for the code of this tree, and runs this file as a
script with PYTHONPATH set to a `git worktree` of another revision for its baseline: the script then
imports that revision's `agent`, `storage` and `bench.answers`, so it must use only their long-stable
entry points (`agent.run.run_turn`, `agent.graph.run_turn` before issue 21, `agent.state.AgentContext`,
`storage.retrieval.hybrid.HybridRetriever`, `bench.answers.use_work_dir/ingest`).

Each question: {"id", "question", "doc_names": [pdf stems selected]}. Each answer: {"id", "message",
"route", "mode", "retrievers" (retrievers the turn built: 0 = no search), "cited" ([file, 1-based page] of
each document citation), "seconds", "error"}. `--pdfs` takes several folders; a stem is read from the first
that holds it.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":  # run by path: this folder must not shadow the revision under test's packages
    _here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _here]

import argparse  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import time  # noqa: E402


class _CountingFactory:
    """The retriever factory the turn gets, counting the retrievers it builds (a search needs one)."""

    def __init__(self) -> None:
        from storage.retrieval.hybrid import HybridRetriever

        self._cls = HybridRetriever
        self.built = 0

    def __call__(self, doc_ids):
        self.built += 1
        return self._cls(doc_ids, use_cache=False)  # no semantic cache: each answer from its own ranking


def pdf_path(stem: str, pdf_dirs: list[Path]) -> Path:
    """The PDF of `stem` in the first of `pdf_dirs` that holds it."""
    return next((d / f"{stem}.pdf" for d in pdf_dirs if (d / f"{stem}.pdf").exists()), pdf_dirs[0] / f"{stem}.pdf")


def answer_all(questions: list[dict], work: Path, pdf_dirs: list[Path] | Path, progress: bool = True) -> list[dict]:
    """Each question asked once, as a fresh conversation, with its filings selected and no model."""
    from bench.answers import ingest, use_work_dir

    use_work_dir(work)
    logging.disable(logging.WARNING)
    pdf_dirs = [pdf_dirs] if isinstance(pdf_dirs, Path) else list(pdf_dirs)
    names = sorted({n for q in questions for n in q["doc_names"]})
    docs = ingest([pdf_path(n, pdf_dirs) for n in names], work)
    try:
        from agent.run import run_turn
    except ModuleNotFoundError:  # a baseline revision before agent/run.py (issue 21) kept it in the graph module
        from agent.graph import run_turn
    from agent.state import AgentContext

    out = []
    for i, q in enumerate(questions, 1):
        factory = _CountingFactory()
        ctx = AgentContext(llm=None, web=None, history=None, get_retriever=factory)
        t0 = time.perf_counter()
        row = {"id": q["id"], "message": "", "route": None, "mode": None, "cited": [], "error": None}
        try:
            result = run_turn(ctx, q["question"], selected_doc_ids=[docs[n] for n in q["doc_names"]])
            cited = [[c.metadata.file, c.metadata.page] for c in getattr(result, "citations", None) or []
                     if getattr(c.metadata, "file", None) and getattr(c.metadata, "page", None)]
            row.update(message=result.message, route=result.route, mode=result.mode, cited=cited)
        except Exception as exc:  # noqa: BLE001 - a failing turn is a scored miss, not the end of the run
            row["error"] = f"{type(exc).__name__}: {exc}"
        row.update(retrievers=factory.built, seconds=round(time.perf_counter() - t0, 2))
        out.append(row)
        if progress and i % 25 == 0:
            print(f"  {i}/{len(questions)} turns", file=sys.stderr)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--pdfs", type=Path, nargs="+", required=True)
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    questions = json.loads(args.questions.read_text("utf-8"))
    answers = answer_all(questions, args.work.resolve(), [d.resolve() for d in args.pdfs])
    args.out.write_text(json.dumps(answers), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
