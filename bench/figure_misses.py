"""Where a gold figure the answer did not lead was lost, by stage of the no-model answer path (issue 27).

`bench.figures_gold --why` records, for each turn, the sources the answer was composed from
(`record_turns`), then `stage_of` replays the figure path on them and names the first stage that lost
the gold (value, page, period):

    turn error / scope note            the turn failed, or said the selection does not cover the ask
    not a figure question              agent/no_model/figures.py is_figure_question said no
    gold page not retrieved            the gold page is not among the pages the figure path reads
    no row of the gold value           no table row read on the gold page prints the gold value
    period: no column of the asked period / period: another column
                                       the gold row's cells of the asked period (pick_cells) are none / others
    column_choice: none / another      columns of the asked period told apart, the gold one not chosen
    row_fits:<test>                    the gold row fails that test (figure_rows.ROW_TESTS)
    unit_fits                          a percentage for an amount, a share count for a per-share figure
    ambiguous                          refused: the same label with other values, nothing telling them apart
    no row chosen: <why>               the gold row fits but best_row chose none: a row of another item, the
                                       question's other words not printed with it, its label below the floor
    another row chosen                 best_row led another row (`:not the item` when the gold row's
                                       item is not the asked one)
    block: a computation / other       the gold row is chosen but the answer led with something else

Counts are printed for each half; examples (question, gold row label, page) for the tune half only:
failures of the check half are counted, never read.
"""

from __future__ import annotations

from collections import Counter
from contextlib import contextmanager
from pathlib import Path

from storage.finance.numbers import parse_number

MAX_EXAMPLES = 40


@contextmanager
def record_turns():
    """Within it, each turn's composed answer inputs are appended to the yielded list: one entry per
    `agent.run.run_turn` call (bench/gold_turns.py asks the questions in order, once each), holding
    the (question, sources, scope note) of the last extractive answer composed, or None."""
    import agent.run
    from agent.no_model import extractive

    turns: list[tuple | None] = []
    run_turn, compose = agent.run.run_turn, extractive.compose_extractive_answer

    def traced_turn(*args, **kwargs):
        turns.append(None)
        return run_turn(*args, **kwargs)

    def traced_compose(question, sources, *args, **kwargs):
        turns[-1] = (question, list(sources), kwargs.get("scope_note"))
        return compose(question, sources, *args, **kwargs)

    agent.run.run_turn, extractive.compose_extractive_answer = traced_turn, traced_compose
    try:
        yield turns
    finally:
        agent.run.run_turn, extractive.compose_extractive_answer = run_turn, compose


def _same(value: str, gold: float) -> bool:
    v = parse_number(value)
    return v is not None and abs(abs(v) - abs(gold)) < 1e-9


# the later the stage, the nearer the gold row came to leading (of several rows printing the value,
# the one that came nearest tells where it was lost)
_ORDER = ("period:", "column_choice:", "row_fits:", "unit_fits", "ambiguous", "no row chosen", "another row chosen", "block:")


def _progress(stage: str) -> int:
    return next(i for i, p in enumerate(_ORDER) if stage.startswith(p))


def stage_of(item: dict, trace: tuple | None, error: str | None, page_text, embedder) -> tuple[str, str]:
    """(stage, gold row label or "") of a gold figure the answer did not lead right."""
    from agent.no_model import figure_rows as fr
    from agent.no_model.cited_rows import MAX_SOURCES, collect_rows, read_sources
    from agent.no_model.derived_figures import DERIVED_ASK, asks_beyond_items, defines_formula
    from agent.no_model.figure_periods import asked_period
    from agent.no_model.figures import is_figure_question
    from agent.no_model.release_columns import split_columns

    if error:
        return "turn error", ""
    if trace is None:
        return "no extractive answer", ""
    question, sources, note = trace
    if note:
        return "scope note", ""
    if not is_figure_question(question):
        return "not a figure question", ""
    question = fr.figure_part(question)
    used = read_sources(sources, MAX_SOURCES, second_reading=True)  # the second reading's pages (figures.figure_block)
    file, page = Path(item["file"]).name, item["page"]
    if not any(s.source_file == file and s.page_number == page for s in used):
        return "gold page not retrieved", ""
    rows = split_columns(collect_rows(sources, page_text, MAX_SOURCES, second_reading=True))
    gold = parse_number(item["value"])
    mine = [r for r in rows if r.source.source_file == file and r.source.page_number == page
            and any(_same(c.value, gold) for c in r.cells)]
    if gold is None or not mine:
        return "no row of the gold value", ""
    period = asked_period(question)
    ask = fr.make_ask(question, period, sources)
    segments, prefer = fr.segment_words(rows), fr.column_choice(ask)
    match = fr.best_row(ask, rows, embedder)
    fitting = [(r, c) for r in rows if (c := r.cells_for(ask.period, prefer)) and fr.row_fits(r, ask, segments, c)
               and fr.unit_fits(r, c, ask)]
    found = []
    for r in mine:
        plain = r.cells_for(period)
        cells = r.cells_for(period, prefer)
        if not any(_same(c.value, gold) for c in plain):
            stage = "period: another column" if plain else "period: no column of the asked period"
        elif not any(_same(c.value, gold) for c in cells):
            stage = "column_choice: another" if cells else "column_choice: none"
        elif failed := fr.failed_row_test(r, ask, segments, cells):
            stage = f"row_fits:{failed}"
        elif not fr.unit_fits(r, cells, ask):
            stage = "unit_fits"
        elif match is None:
            stage = "ambiguous" if fr._ambiguous(r, cells, fitting) else f"no row chosen: {_not_chosen(r, cells, ask)}"
        elif match.row is not r and not any(_same(c.value, gold) for c in match.cells):
            asked = ask.items[:1]
            other = asked and not (r.item is not None and fr.line_items.answers(r.item, asked[0]))
            stage = "another row chosen" + (":not the item" if other else "")
        elif asks_beyond_items(DERIVED_ASK, question) or defines_formula(question):
            stage = "block: a computation"
        else:
            stage = "block: other"
        found.append((_progress(stage), stage, r.label))
    _, stage, label = max(found)
    return stage, label


def _not_chosen(row, cells, ask) -> str:
    """Why best_row passed over a fitting row: the filter of its line-item or label path that dropped it."""
    from agent.no_model import figure_rows as fr

    if not ask.items:
        return "label below the floor (no item asked)"
    if row.item is not None and fr.line_items.answers(row.item, ask.items[0]):
        return "question words not printed with the row"  # ask.residue
    if row.item is not None:
        return "row of another item"
    if not ask.residue:
        return "row of no known item, question names no sub-item"
    return "part of a segment" if fr._segments_part(row, ask) else "label below the floor"


def attribute(questions: list[dict], answers: list[dict], turns: list, verdict, half_of, page_text=None) -> dict:
    """half -> {"counts": {stage: n}, "n": figures asked, "examples": [...] (tune only)} for the gold
    figure questions (printed value) whose verdict is not "correct"; `page_text` as the answer path's
    (agent.page_text.page_text_lookup by default)."""
    from agent.page_text import page_text_lookup
    from storage.documents.embeddings import get_embedder

    page_text, embedder = page_text or page_text_lookup(), get_embedder()
    by_id = {a["id"]: a for a in answers}
    index = {q["id"]: i for i, q in enumerate(questions)}
    out: dict[str, dict] = {}
    for q in questions:
        if q["set"] != "figures" or q.get("value") is None or q["id"] not in by_id:
            continue
        half = half_of(q["doc_names"][0])
        block = out.setdefault(half, {"n": 0, "counts": Counter(), "examples": []})
        block["n"] += 1
        a = by_id[q["id"]]
        v = verdict(q, a.get("message") or "")
        if v == "correct":
            continue
        trace = turns[index[q["id"]]] if index[q["id"]] < len(turns) else None
        stage, label = stage_of(q, trace, a.get("error"), page_text, embedder)
        stage = f"{v}: {stage}"
        block["counts"][stage] += 1
        if half == "tune" and len(block["examples"]) < MAX_EXAMPLES:
            block["examples"].append({"stage": stage, "question": q["question"], "label": label,
                                      "file": Path(q["file"]).stem, "page": q["page"]})
    return {h: {**b, "counts": dict(b["counts"].most_common())} for h, b in out.items()}


def print_stages(stages: dict, gold: str) -> None:
    for half, block in stages.items():
        print(f"\nwhere {gold} figures were lost, {half} half ({block['n']} figures; verdict: stage):")
        for stage, n in block["counts"].items():
            print(f"  {n:4d}  {n / block['n']:.3f}  {stage}")
        for ex in block["examples"] if half == "tune" else ():
            print(f"    [{ex['stage']}] {ex['file']} p{ex['page']} {ex['label']!r}: {ex['question']}")
