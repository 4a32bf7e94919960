"""Answer benchmark (issue 10 parts 3-5): figures stated in no-model answers, follow-ups resolved.

    python -m bench.answers --data ../shared/bench/financebench-dev --work /work/benchcache/answers \
        [--selections single,company,library] [--out a.json]

Each question is asked with each selection of `--selections` (bench/selections.py; default
single,company): its own filing only; every filing of its company (pdfs/ + library/); all filings.
Three answer paths, in the same run:
- `new`                selection-aware ranking (HybridRetriever as shipped) + agent/no_model/extractive.py
                       (table cell with its period first, then sentences)
- `today`              legacy ranking (bench/baselines/legacy_ranking.py) + the answer composer
                       before this change, frozen in bench/baselines/extractive.py: today's path
- `baseline_composer`  selection-aware ranking + the frozen composer (the composer's share alone)
With one filing selected the ranking makes no difference, so `today` is `baseline_composer` there.
Retrieval page_hit@5 counts a result on an evidence page of the question's own filing.

(a) `figure_questions`: the dev questions whose gold answer is one number that the evidence text
    prints in some scale ("$5409.00" <-> "5,409", "$2,018mn" <-> "2,018"). Score: the share of
    answers whose text contains the figure as printed.
(b) `statement_questions`: generated from the dev filings' own statements: row label + period ->
    the value as printed, asked "What was <row label> in fiscal <year>?" of its own filing and,
    with several filings selected, naming the company as an analyst would ("What was Best Buy's
    net earnings in fiscal 2019?", the issuer of the filing's document info). Built from PyMuPDF word
    *positions* (a value belongs to the year column whose header it sits under), independently of
    storage/documents/tables.py, which the answers use and which reads only the text order of the lines
    and never coordinates: a parser bug on one side shows up as a miss, not as a matching error.
    Also scored, for every path: the figure stated on one line with the asked period's year (a
    table row quoted without its header leaves the number unlabelled), and the share of answers
    citing only other filings; for the new path: `lead_correct` (the first figure line states the
    asked period's value), `lead_wrong_period` (it states another column's value of the same
    row) and `lead_from_own_filing`. With several filings selected an earlier column's year is
    often printed by an earlier filing too (restated or not): the figure counts as printed here.
(c) `followup_cases`: follow-ups written from the dev questions (period shift on the statement
    questions and on dev questions naming a year, whose evidence page prints the shifted year;
    company shift between dev questions on the same topic, both filings selected). Score:
    page_hit@5 of retrieval for the follow-up resolved by agent/no_model/followups.py vs the raw text.
(d) `--quotes [--baseline-rev fe96e53]`: quote relevance (issue 29.2) alone. The dev questions and the
    generated statement questions (`--per-filing` of each filing), each asked of its own filing, are
    answered by this tree and by the code of REV (a temporary `git worktree`, run as a subprocess
    with PYTHONPATH set to it; same interpreter, same work folder, which neither revision writes).
    Score: of the quoted passages (`- “…” [^n]` lines) of the answers to questions naming a line item
    or a period, the share that mention the asked item (its words as asked, or its concept as
    questions name it: storage/finance/line_items `mentions`, with a ratio's inputs) or an asked
    year; quotes per answer; and, over the questions with a figure, the lead line stating it
    (figure leads must not regress) and the answer stating it anywhere; the dev questions' page_hit@5. Each by half of bench/gold/splits.json (tune / check issuers).
`table_parsers`: pages with 8+ table rows where a period header was found, storage/documents/tables.py vs
    PyMuPDF `find_tables()` (how the parser was chosen).

The plain functions (`ingest`, `figure_questions`, `statement_questions`, `answer_figures`,
`followup_cases`, `followup_hits`) can be called from bench.retrieval with its own documents.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from agent.markers import DOC_ID_RE
from bench.splits import half_of

YEAR = re.compile(r"^(?:19|20)\d\d,?$")
AMOUNT = re.compile(r"^\$?\(?-?\$?\d{1,3}(?:,\d{3})*(?:\.\d+)?\)?%?$|^\$?\(?\d+(?:\.\d+)?\)?%?$")
DASH = re.compile(r"^[—–-]+$")
SCALES = (1e-6, 1e-3, 1.0, 1e3, 1e6)
MAX_FIGURE_ANSWER_WORDS = 15
MIN_FIGURE_DIGITS = 3


# ---------------------------------------------------------------- setup


def use_work_dir(work: Path) -> None:
    """Point the project's storage at `work` (before storage modules read their settings)."""
    (work / "source").mkdir(parents=True, exist_ok=True)
    os.environ["PDF_CHAT_HOME"] = str(work)
    os.environ["PDF_SOURCE_DIR"] = str(work / "source")
    os.environ["PDF_DESTINATION_DIR"] = str(work / "destination")
    os.environ.pop("CHROMA_HOST", None)


def ingest(pdfs: list[Path], work: Path) -> dict[str, str]:
    """doc_name -> doc_id, processing each PDF once into `work` (reused between runs)."""
    from storage.documents import catalog
    from storage.documents import ingest
    from storage.documents import intake

    docs = {}
    for src in pdfs:
        dst = work / "source" / src.name
        if not dst.exists() or dst.stat().st_size != src.stat().st_size:
            shutil.copy2(src, dst)
        doc_id = intake.compute_doc_id(dst)
        if not catalog.check_pdf_processed(doc_id):
            t0 = time.perf_counter()
            ingest.process_and_index_pdf(dst)
            print(f"  ingested {src.name} in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        docs[src.stem] = doc_id
    return docs


# ---------------------------------------------------------------- figures as printed


def _number(token: str) -> float | None:
    t = token.strip("$()%,.;:").replace(",", "").replace("$", "")
    try:
        return float(t)
    except ValueError:
        return None


def printed_forms(text: str) -> list[str]:
    """Number tokens as printed in `text` ("5,409", "(1,577)", "12.5")."""
    return [m.group(0) for m in re.finditer(r"\(?\$?\d[\d,]*(?:\.\d+)?\)?", text)]


def contains_figure(answer: str, printed: str) -> bool:
    """`answer` states the number printed as `printed` (same digits and separators; "$" and
    parentheses around it optional)."""
    core = printed.strip().strip("$()%").strip().lstrip("$")  # "17.4 %" as printed is the figure 17.4%
    if not core:
        return False
    return re.search(rf"(?<![\d,.]){re.escape(core)}(?![\d]|[,.]\d)", answer) is not None


def states_with_period(answer: str, printed: str, years: list[int]) -> bool:
    """Some line of `answer` states the figure together with the asked period (its year), so the
    number does not stand unlabelled (a quoted table row without its header does not count)."""
    return any(contains_figure(line, printed) and any(str(y) in line for y in years) for line in answer.splitlines())


def figure_questions(questions: list[dict]) -> list[dict]:
    """Dev questions whose gold answer is one number printed in the evidence text in some scale."""
    out = []
    for q in questions:
        if len(q["answer"].split()) > MAX_FIGURE_ANSWER_WORDS:
            continue  # an explanation that mentions a number, not a figure answer
        answer = re.sub(r"\b(?:FY|Q[1-4])\s*'?\d{2,4}\b", " ", q["answer"])
        answer = re.sub(r"\b(?:19|20)\d\d\b(?![,.]\d)", " ", answer)  # years are not the figure
        numbers = [n for n in (_number(t) for t in re.findall(r"\$?\d[\d,]*(?:\.\d+)?", answer)) if n is not None]
        if len(set(numbers)) != 1:
            continue
        gold = numbers[0]
        evidence = " ".join(e["evidence_text"] for e in q.get("evidence", []))
        printed = [
            p for p in printed_forms(evidence)
            if (v := _number(p)) is not None and v != 0 and any(abs(v * s - gold) < 1e-6 * max(1.0, gold) for s in SCALES)
        ]
        if printed:
            out.append({**q, "figure": printed[0], "pages": sorted({int(e["evidence_page_num"]) for e in q["evidence"]})})
    return out


# ---------------------------------------------------------------- generated statement questions


def _visual_lines(page) -> list[list[tuple]]:
    """Words grouped into printed lines by their vertical position, each line left to right."""
    words = sorted(page.get_text("words"), key=lambda w: ((w[1] + w[3]) / 2, w[0]))
    lines: list[list[tuple]] = []
    for w in words:
        yc = (w[1] + w[3]) / 2
        if lines and abs(yc - (lines[-1][0][1] + lines[-1][0][3]) / 2) <= 2.5:
            lines[-1].append(w)
        else:
            lines.append([w])
    return [sorted(line, key=lambda w: w[0]) for line in lines]


def statement_rows(page) -> list[dict]:
    """(label, year, value as printed) from a page's tables, by word geometry: a header line of
    distinct years gives the columns; a value belongs to the column whose year sits above it."""
    rows: list[dict] = []
    columns: list[tuple[int, float]] = []
    for line in _visual_lines(page):
        tokens = [w[4] for w in line]
        years = [(int(w[4].rstrip(",")), (w[0] + w[2]) / 2) for w in line if YEAR.match(w[4])]
        amounts = [w for w in line if AMOUNT.match(w[4]) and not YEAR.match(w[4])]
        if len(years) >= 2 and len({y for y, _ in years}) == len(years) and not amounts:
            columns = years
            continue
        if not columns:
            continue
        left = min(x for _, x in columns) - 40
        values = [w for w in line if (AMOUNT.match(w[4]) or DASH.match(w[4])) and (w[0] + w[2]) / 2 > left]
        label_words = [w[4] for w in line if w[2] < left and w not in values]
        if len(values) != len(columns) or not label_words or any(t == "$" for t in label_words):
            if len(tokens) > 12 and not values:
                columns = []  # prose: the table is over
            continue
        spacing = min(abs(a[1] - b[1]) for a, b in zip(columns, columns[1:]))
        assigned = {}
        for v in values:
            xc = (v[0] + v[2]) / 2
            year, center = min(columns, key=lambda c: abs(c[1] - xc))
            if abs(center - xc) > spacing / 2 or year in assigned:
                assigned = {}
                break
            assigned[year] = v[4]
        label = re.sub(r"\s*\(\d\)$", "", " ".join(label_words)).rstrip(":").strip()
        if len(assigned) != len(columns) or not re.search(r"[A-Za-z]{4}", label) or not label[0].isupper():
            continue
        for year, value in assigned.items():
            if len(re.sub(r"\D", "", value)) >= MIN_FIGURE_DIGITS:  # "5" or "—" would match any answer
                rows.append({"label": label, "year": year, "value": value, "years": [y for y, _ in columns]})
    return rows


def statement_questions(pdfs: list[Path], per_filing: int = 20, seed: int = 0) -> list[dict]:
    """Generated questions "What was <row label> in fiscal <year>?" -> value as printed, page.

    A (label, year) printed with two different values in one filing is ambiguous and dropped."""
    import pymupdf

    rng = random.Random(seed)
    out = []
    for pdf in pdfs:
        found: dict[tuple[str, int], dict] = {}
        clash: set[tuple[str, int]] = set()
        with pymupdf.open(pdf) as doc:
            for page in doc:
                for row in statement_rows(page):
                    key = (row["label"].lower(), row["year"])
                    prior = found.get(key)
                    if prior and _number(prior["value"]) != _number(row["value"]):
                        clash.add(key)
                    elif not prior:
                        found[key] = {**row, "page": page.number}
        items = [v for k, v in found.items() if k not in clash]
        rng.shuffle(items)
        for row in items[:per_filing]:
            out.append({
                "doc_name": pdf.stem, "question": f"What was {row['label']} in fiscal {row['year']}?",
                "figure": row["value"], "pages": [row["page"]], "label": row["label"], "year": row["year"],
                "years": row["years"],
            })
    return out


# ---------------------------------------------------------------- answering

PATHS = ("new", "today", "baseline_composer")


def retrieve(doc_ids: list[str], query: str, k: int | None = None, ranking: str = "selection") -> list[dict]:
    """The sources the no-model agent gets for `query` (agent/tools.search_documents), with ids.
    `ranking="legacy"`: the ranking before selection awareness (today's path). No semantic cache,
    so each question's sources come from its own ranking."""
    from agent.state import AgentContext
    from agent.tools import search_documents
    from bench.baselines.presets import retriever

    ctx = AgentContext(llm=None, web=None, history=None, get_retriever=lambda ids: retriever(ids, ranking))
    if k is not None:
        ctx.rag_k = k
    sources, _, _ = search_documents(ctx, {"selected_doc_ids": doc_ids}, query)
    dumps = [s.model_dump() for s in sources]
    for i, d in enumerate(dumps, 1):
        d["source_id"] = f"[^{i}]"
    return dumps


def typed_sources(dumps: list[dict]) -> list:
    """`retrieve`'s dumps as the typed sources the no-model answer reads (storage.schema.Source)."""
    from storage.schema import Source

    return [Source.model_validate(d) for d in dumps]


class _MemoEmbedder:
    """The project's embedder, remembering each text's vector: the answer paths embed the same
    sentences of the same pages again and again (the answers are unchanged, only faster)."""

    def __init__(self, embedder) -> None:
        self._embedder = embedder
        self._memo: dict[str, np.ndarray] = {}

    def embed(self, texts):
        missing = list(dict.fromkeys(t for t in texts if t not in self._memo))
        if missing:
            self._memo.update(zip(missing, self._embedder.embed(missing)))
        return np.stack([self._memo[t] for t in texts]) if texts else self._embedder.embed([])

    def embed_query(self, text: str):
        return self.embed([text])[0]


def _lead_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"^- [^“].*\(.*\): ", line)]


def _cited_docs(text: str, sources: list[dict]) -> set[str]:
    by_id = {s["source_id"]: s.get("doc_id") for s in sources}
    return {by_id[m.group(0)] for m in DOC_ID_RE.finditer(text) if by_id.get(m.group(0))}


def answer_figures(items: list[dict], docs: dict[str, str], label: str = "figures", selection: str = "single",
                   max_examples: int = 8) -> dict:
    """The answer paths on each item (`question`, `doc_name`, `figure`, `pages`; `question_named`
    when the question must name its company) with `selection` selected (bench/selections.py):

    - `new`                selection-aware ranking + agent/no_model/extractive.py (shipped)
    - `today`              legacy ranking + bench/baselines/extractive.py (today's answer path)
    - `baseline_composer`  selection-aware ranking + bench/baselines/extractive.py

    With one filing selected the ranking makes no difference: `today` is `baseline_composer`.
    Shares of answers containing the figure as printed, and stating it on one line with the asked
    period; retrieval page_hit@5 on the question's own filing per ranking; for the new path whether
    its table lead states the figure, another column of the row, and comes from the own filing."""
    from tqdm import tqdm

    from agent.no_model import extractive
    from agent.no_model.figures import asked_period
    from agent.page_text import page_text_lookup
    from bench.baselines import extractive as extractive_baseline
    from bench.selections import selected_ids
    from storage.documents.embeddings import get_embedder

    embedder = _MemoEmbedder(get_embedder())
    page_text = page_text_lookup()
    several = selection != "single"
    rankings = ("selection", "legacy") if several else ("selection",)

    figure = {p: 0 for p in PATHS}
    figure_any = {p: 0 for p in PATHS}
    by_form: dict[str, dict[str, list[bool]]] = {}
    with_period = {p: 0 for p in PATHS}
    hits = {r: 0 for r in rankings}
    lead = {"with_lead": 0, "lead_correct": 0, "lead_wrong_period": 0, "lead_from_own_filing": 0}
    cites_only_other = {p: 0 for p in PATHS}
    ms: dict[str, list[float]] = {"new": [], "baseline": []}
    examples, per_question = [], []
    for item in tqdm(items, desc=f"{label} ({selection})", unit="q", file=sys.stderr):
        own = docs[item["doc_name"]]
        question = item.get("question_named", item["question"]) if several else item["question"]
        ids = selected_ids(selection, item["doc_name"], docs)
        sources = {r: retrieve(ids, question, ranking=r) for r in rankings}
        for r, srcs in sources.items():
            top = [s for s in srcs if s["kind"] == "document"][:5]
            hits[r] += any(s["doc_id"] == own and s["page_number"] in item["pages"] for s in top)
        t0 = time.perf_counter()
        new, _ = extractive.compose_extractive_answer(question, typed_sources(sources["selection"]), page_text, embedder)
        t1 = time.perf_counter()
        base, _ = extractive_baseline.compose_extractive_answer(question, sources["selection"], page_text, embedder)
        ms["new"].append((t1 - t0) * 1000)
        ms["baseline"].append((time.perf_counter() - t1) * 1000)
        today = (extractive_baseline.compose_extractive_answer(question, sources["legacy"], page_text, embedder)[0]
                 if several else base)
        answers = {"new": new, "today": today, "baseline_composer": base}
        used = {"new": sources["selection"], "today": sources.get("legacy", sources["selection"]),
                "baseline_composer": sources["selection"]}
        years = list(asked_period(question).years)
        for path, text in answers.items():
            ok = contains_figure(text, item["figure"])
            figure[path] += ok
            by_form.setdefault(item.get("form") or "?", {p: [] for p in PATHS})[path].append(ok)
            alternatives = item.get("company_values", []) if several else []
            figure_any[path] += ok or any(contains_figure(text, v) for v in alternatives)
            with_period[path] += bool(years) and states_with_period(text, item["figure"], years)
            cited = _cited_docs(text, used[path])
            cites_only_other[path] += bool(cited) and own not in cited
        per_question.append({"doc_name": item["doc_name"], "question": question, "figure": item["figure"],
                             **{p: contains_figure(t, item["figure"]) for p, t in answers.items()}})
        leads = _lead_lines(new)
        if leads:
            lead["with_lead"] += 1
            lead["lead_correct"] += contains_figure(leads[0], item["figure"])
            lead["lead_from_own_filing"] += _cited_docs(leads[0], sources["selection"]) == {own}
            if not contains_figure(leads[0], item["figure"]):
                lead["lead_wrong_period"] += _states_other_period(leads[0], item)
        if len(examples) < max_examples and not contains_figure(new, item["figure"]):
            top = [s for s in sources["selection"] if s["kind"] == "document"][:5]
            examples.append({"question": question, "doc_name": item["doc_name"], "figure": item["figure"],
                             "pages": item["pages"], "new_lead": leads[:1],
                             "top5": [(s["doc_id"] == own and "own" or s["doc_id"][:24], s["page_number"]) for s in top],
                             "today_ok": contains_figure(today, item["figure"])})
    n = len(items) or 1
    share = lambda x: round(x / n, 3)  # noqa: E731
    out = {
        "selection": selection,
        "questions": len(items),
        "paths": {p: {"with_figure": share(figure[p]), "with_figure_and_period": share(with_period[p]),
                      "with_figure_any_filing": share(figure_any[p]),
                      "cites_only_other_filings": share(cites_only_other[p])} for p in PATHS},
        "with_figure_by_form": {form: {"questions": len(v["new"]), **{p: round(sum(v[p]) / len(v[p]), 3) for p in PATHS}}
                                for form, v in sorted(by_form.items())},
        "retrieval_page_hit@5": {r: share(hits[r]) for r in rankings},
        "new_lead": {k: share(v) for k, v in lead.items()},
        "compose_ms_p50": {k: round(statistics.median(v), 1) if v else None for k, v in ms.items()},
        "examples": examples,
        "per_question": per_question,
    }
    if "year" not in (items[0] if items else {}):
        del out["new_lead"]["lead_wrong_period"]
    return out


def _states_other_period(lead: str, item: dict) -> bool:
    """The lead states the value of another year of the same row (a neighbour column)."""
    return any(contains_figure(lead, v) for v in item.get("other_values", []))


def name_companies(items: list[dict], docs: dict[str, str]) -> None:
    """Give each generated question `question_named`, naming the filing's issuer as an analyst with
    several companies' filings would ("What was Best Buy's net earnings in fiscal 2019?"): the
    issuer's short name from the filing's document info (storage.documents.metadata.short_name)."""
    from storage.documents.metadata import short_name
    from storage.retrieval.hybrid import documents_of

    infos = documents_of(sorted({docs[i["doc_name"]] for i in items}))
    for item in items:
        info = infos.get(docs[item["doc_name"]])
        if info is None or not info.issuer:
            continue
        item["form"] = info.form
        label = item["label"]
        first = label.split()[0]
        if not first.isupper() and not any(c.isdigit() for c in first):
            label = label[:1].lower() + label[1:]  # "Net earnings" -> "net earnings", "SG&A" stays
        item["question_named"] = f"What was {short_name(info.issuer)}'s {label} in fiscal {item['year']}?"


# ---------------------------------------------------------------- follow-ups

# Company shifts between dev questions on the same topic (written from questions.jsonl):
# (question id asked first, follow-up text, question id whose evidence answers the follow-up).
COMPANY_SHIFTS = [
    ("financebench_id_00684", "what about Boeing?", "financebench_id_00678"),  # gross margin Amcor -> Boeing
    ("financebench_id_00678", "what about Best Buy?", "financebench_id_00685"),  # gross margin Boeing -> Best Buy
    ("financebench_id_00685", "and Amcor?", "financebench_id_00684"),  # gross margin Best Buy -> Amcor
    ("financebench_id_01079", "what about Best Buy?", "financebench_id_01077"),  # acquisitions Amcor -> Best Buy
    ("financebench_id_01077", "how about AMCOR?", "financebench_id_01079"),  # acquisitions Best Buy -> Amcor
]
PERIOD_SHIFTS = ["and in the year before?", "what about the previous year?", "and {year}?"]


def followup_cases(questions: list[dict], statements: list[dict], pdfs: dict[str, Path], limit: int = 40) -> list[dict]:
    """Scripted follow-ups with evidence: period shifts (the shifted period printed on the evidence
    page) and company shifts (both filings selected, evidence in the second company's filing)."""
    import pymupdf

    by_id = {q["financebench_id"]: q for q in questions}
    cases = []
    for first, text, target in COMPANY_SHIFTS:
        if first in by_id and target in by_id:
            a, b = by_id[first], by_id[target]
            cases.append({"kind": "company", "history": [a["question"]], "followup": text,
                          "doc_names": [a["doc_name"], b["doc_name"]], "target": b["doc_name"],
                          "pages": sorted({int(e["evidence_page_num"]) for e in b["evidence"]})})
    # dev questions naming one year: shifted to the year before, kept when the evidence page prints it
    for i, q in enumerate(questions):
        years = sorted(set(re.findall(r"(?:FY\s*)?((?:19|20)\d\d)", q["question"])))
        if len(years) != 1:
            continue
        prior = str(int(years[0]) - 1)
        pages = sorted({int(e["evidence_page_num"]) for e in q["evidence"]})
        with pymupdf.open(pdfs[q["doc_name"]]) as doc:
            if not all(prior in doc[p].get_text() for p in pages):
                continue
        text = PERIOD_SHIFTS[i % len(PERIOD_SHIFTS)].format(year=prior)
        cases.append({"kind": "period", "history": [q["question"]], "followup": text, "doc_names": [q["doc_name"]],
                      "target": q["doc_name"], "pages": pages})
    # generated statement questions: the year before is a column of the same printed table
    shifted = [s for s in statements if s["year"] - 1 in s["years"]]
    for i, s in enumerate(shifted[: max(0, limit - len(cases))]):
        text = PERIOD_SHIFTS[i % len(PERIOD_SHIFTS)].format(year=s["year"] - 1)
        cases.append({"kind": "period", "history": [s["question"]], "followup": text, "doc_names": [s["doc_name"]],
                      "target": s["doc_name"], "pages": s["pages"]})
    return cases


def followup_hits(cases: list[dict], docs: dict[str, str], k: int = 5) -> dict:
    """page_hit@k of the follow-up resolved (agent/no_model/followups.py) vs its raw text, same retriever."""
    from agent.no_model.followups import resolve_followup

    rows = {"resolved": [], "raw": []}
    kinds: dict[str, dict[str, list[bool]]] = {}
    examples = []
    for case in cases:
        doc_ids = [docs[n] for n in case["doc_names"]]
        target = docs[case["target"]]
        resolved = resolve_followup(case["followup"], case["history"]).query
        for name, query in (("resolved", resolved), ("raw", case["followup"])):
            hits = [s for s in retrieve(doc_ids, query) if s["kind"] == "document"][:k]
            hit = any(s["doc_id"] == target and s["page_number"] in case["pages"] for s in hits)
            rows[name].append(hit)
            kinds.setdefault(case["kind"], {"resolved": [], "raw": []})[name].append(hit)
        if len(examples) < 5:
            examples.append({"history": case["history"][-1][:90], "followup": case["followup"], "resolved": resolved})
    mean = lambda xs: round(sum(xs) / len(xs), 3) if xs else None  # noqa: E731
    return {
        "cases": len(cases),
        f"page_hit@{k}_resolved": mean(rows["resolved"]),
        f"page_hit@{k}_raw": mean(rows["raw"]),
        "by_kind": {kind: {"cases": len(v["raw"]), "resolved": mean(v["resolved"]), "raw": mean(v["raw"])} for kind, v in kinds.items()},
        "examples": examples,
    }


def dev_page_hits(questions: list[dict], docs: dict[str, str], k: int = 5) -> float:
    """page_hit@k of the dev questions, each asked of its own filing (chunks with table headers):
    the no-regression check against bench.retrieval's single-filing figure."""
    hits = 0
    for q in questions:
        pages = {int(e["evidence_page_num"]) for e in q["evidence"]}
        top = [s for s in retrieve([docs[q["doc_name"]]], q["question"]) if s["kind"] == "document"][:k]
        hits += any(s["page_number"] in pages for s in top)
    return round(hits / len(questions), 3)


# ---------------------------------------------------------------- table parsers


def table_parsers(pdfs: list[Path], with_find_tables: bool = True) -> dict:
    """Pages with 8+ table rows (storage/documents/tables.py row rebuild) on which a period header was found:
    by storage/documents/tables.py and by PyMuPDF `find_tables()` (a header cell naming a year)."""
    import pymupdf

    from storage.documents.tables import page_units

    out = {"pages": 0, "tables_py_header": 0, "find_tables_header": 0, "tables_py_s": 0.0, "find_tables_s": 0.0}
    for pdf in pdfs:
        with pymupdf.open(pdf) as doc:
            for page in doc:
                t0 = time.perf_counter()
                units = page_units(page.get_text())
                t1 = time.perf_counter()
                rows = [u for u in units if u.is_table_row and not u.is_header]
                if len(rows) < 8:
                    continue
                out["pages"] += 1
                out["tables_py_s"] += t1 - t0
                out["tables_py_header"] += any(u.header is not None for u in rows)
                if with_find_tables:
                    t2 = time.perf_counter()
                    tabs = page.find_tables().tables
                    out["find_tables_s"] += time.perf_counter() - t2
                    out["find_tables_header"] += any(
                        any(n and re.search(r"(?:19|20)\d\d", n) for n in t.header.names) for t in tabs)
    out["tables_py_s"] = round(out["tables_py_s"], 2)
    out["find_tables_s"] = round(out["find_tables_s"], 2)
    return out


# ---------------------------------------------------------------- quote relevance (issue 29.2)

QUOTE_LINE = re.compile(r"^\s*- “(?P<quote>.+)” (?:\[\^[^\]]+\])+\s*$", re.M)
_REV_SCRIPT = """
import json, logging, sys
from pathlib import Path
from bench.answers import use_work_dir
use_work_dir(Path(sys.argv[1]))
logging.disable(logging.WARNING)
from bench.answers import retrieve
import bench.answers
from agent.no_model import extractive
typed = getattr(bench.answers, "typed_sources", lambda dumps: dumps)  # revisions before typed sources read dumps
from agent.page_text import page_text_lookup
from storage.documents.embeddings import get_embedder
embedder, page_text = get_embedder(), page_text_lookup()
out = {"answers": [], "top5": []}
for i in json.loads(Path(sys.argv[2]).read_text()):
    sources = retrieve([i["doc_id"]], i["question"])
    out["answers"].append(extractive.compose_extractive_answer(i["question"], typed(sources), page_text, embedder)[0])
    out["top5"].append([s["page_number"] for s in sources if s["kind"] == "document"][:5])
Path(sys.argv[3]).write_text(json.dumps(out))
"""


def quotes_of(answer: str) -> list[str]:
    """The quoted passages of an answer (its `- “…” [^n]` lines)."""
    return [m.group("quote") for m in QUOTE_LINE.finditer(answer)]


def quote_mentions(quote: str, question: str) -> bool | None:
    """Whether `quote` mentions what `question` asks: the item's words as asked, the item's concept
    as questions name it (or a ratio's inputs), or an asked year; None when the question names
    neither a line item nor a period (nothing to judge by)."""
    from agent.no_model.figure_periods import asked_period
    from storage.finance import line_items

    asked = line_items.asked_items(question)
    years = asked_period(question).years
    if not asked and not years:
        return None
    items = [a.item for a in asked]
    items += [line_items.BY_CONCEPT[c] for a in asked for c in re.findall(r"[A-Za-z]+", a.item.formula)
              if c in line_items.BY_CONCEPT]
    said = [" ".join(question[a.start:a.end].lower().split()) for a in asked]
    low = " ".join(quote.lower().split())
    return (any(w in low for w in said) or any(line_items.mentions(quote, i) for i in items)
            or any(re.search(rf"(?<!\d){y}(?!\d)|\bFY\s?'?{y % 100:02d}\b", quote) for y in years))


def answers_at_revision(rev: str, items: list[dict], work: Path) -> dict:
    """The no-model answers of git revision `rev` to `items` (`question`, `doc_id`), each asked of its
    own filing, and the pages of its top 5 results: {"answers": [...], "top5": [[page, ...], ...]}; a
    temporary worktree, run in a subprocess with PYTHONPATH set to it."""
    import subprocess

    from bench.revision import checkout

    with checkout(rev, "answers-rev-") as (tree, tmp):
        (tmp / "q.json").write_text(json.dumps(items), "utf-8")
        subprocess.run([sys.executable, "-c", _REV_SCRIPT, str(work), str(tmp / "q.json"), str(tmp / "a.json")],
                       cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, check=True)
        return json.loads((tmp / "a.json").read_text("utf-8"))


def quote_relevance(items: list[dict], answers: dict[str, list[str]]) -> dict:
    """Per path and half: quotes mentioning the asked item or period / quotes judged, quotes per
    answer, and leads stating the figure (items with a `figure`). `item_*`: over the questions
    naming a line item only (the others are judged by their period alone)."""
    from storage.finance import line_items

    out: dict = {}
    for path, texts in answers.items():
        for item, text in zip(items, texts):
            for half in ("all", (half_of(item["doc_name"]) or "other")):
                row = out.setdefault(path, {}).setdefault(half, {"answers": 0, "quotes": 0, "judged": 0, "on_point": 0,
                                                                 "item_judged": 0, "item_on_point": 0,
                                                                 "figure_items": 0, "lead_correct": 0, "with_figure": 0})
                quotes = quotes_of(text)
                row["answers"] += 1
                row["quotes"] += len(quotes)
                names_item = bool(line_items.asked_items(item["question"]))
                for q in quotes:
                    verdict = quote_mentions(q, item["question"])
                    if verdict is not None:
                        row["judged"] += 1
                        row["on_point"] += verdict
                        row["item_judged"] += names_item
                        row["item_on_point"] += names_item and verdict
                if item.get("figure"):
                    leads = _lead_lines(text)
                    row["figure_items"] += 1
                    row["lead_correct"] += bool(leads) and contains_figure(leads[0], item["figure"])
                    row["with_figure"] += contains_figure(text, item["figure"])
    for halves in out.values():
        for row in halves.values():
            row["on_point_share"] = round(row["on_point"] / row["judged"], 3) if row["judged"] else None
            row["item_on_point_share"] = round(row["item_on_point"] / row["item_judged"], 3) if row["item_judged"] else None
            row["quotes_per_answer"] = round(row["quotes"] / row["answers"], 2) if row["answers"] else None
    return out


def run_quotes(questions: list[dict], pdfs: list[Path], docs: dict[str, str], work: Path, rev: str | None,
               per_filing: int) -> dict:
    from agent.no_model import extractive
    from agent.page_text import page_text_lookup
    from storage.documents.embeddings import get_embedder

    figs = {q["question"]: q["figure"] for q in figure_questions(questions)}
    sets = {
        "dev": [{"question": q["question"], "doc_name": q["doc_name"], "figure": figs.get(q["question"]),
                 "pages": sorted({int(e["evidence_page_num"]) for e in q["evidence"]})} for q in questions],
        "statements": [{"question": s["question"], "doc_name": s["doc_name"], "figure": s["figure"]}
                       for s in statement_questions(pdfs, per_filing)],
    }
    embedder, page_text = _MemoEmbedder(get_embedder()), page_text_lookup()
    report = {"baseline_rev": rev}
    for name, items in sets.items():
        for i in items:
            i["doc_id"] = docs[i["doc_name"]]
        answers: dict[str, list[str]] = {"new": []}
        top5: dict[str, list[list[int]]] = {"new": []}
        for i in items:
            sources = retrieve([i["doc_id"]], i["question"])
            answers["new"].append(extractive.compose_extractive_answer(i["question"], typed_sources(sources), page_text,
                                                                       embedder)[0])
            top5["new"].append([s["page_number"] for s in sources if s["kind"] == "document"][:5])
        if rev:
            at_rev = answers_at_revision(rev, items, work)
            answers[rev], top5[rev] = at_rev["answers"], at_rev["top5"]
        report[name] = {"questions": len(items), **quote_relevance(items, answers)}
        if name == "dev":  # the evidence pages in the top 5 (bench.retrieval's single-filing page_hit@5)
            report["dev_page_hit@5"] = {
                path: {half: round(statistics.mean(any(p in i["pages"] for p in pages) for i, pages in zip(items, tops)
                                                   if half == "all" or (half_of(i["doc_name"]) or "other") == half), 3)
                       for half in ("all", "tune", "check")} for path, tops in top5.items()}
    return report


def _print_quotes(report: dict) -> None:
    print("\nquote relevance: on point = quotes mentioning the asked item (as asked, or its concept) or an asked year, "
          "of the quotes of answers to questions naming an item or a period (item q: naming a line item); lead ok = the "
          "figure lead states the figure, figure = the answer states it anywhere, of = questions with a figure")
    print(f"{'set':12s}{'half':>7s}{'path':>10s}{'answers':>9s}{'quotes/ans':>11s}{'on point':>10s}{'judged':>8s}"
          f"{'item q: on point':>17s}{'judged':>8s}{'lead ok':>9s}{'figure':>8s}{'of':>5s}")
    for name in ("dev", "statements"):
        r = report[name]
        for half in ("all", "tune", "check", "other"):
            for path in [p for p in r if p != "questions"]:
                v = r[path].get(half)
                if v:
                    share = "-" if v["on_point_share"] is None else f"{v['on_point_share']:.3f}"
                    item = "-" if v["item_on_point_share"] is None else f"{v['item_on_point_share']:.3f}"
                    print(f"{name:12s}{half:>7s}{path:>10s}{v['answers']:>9d}{v['quotes_per_answer']:>11.2f}{share:>10s}"
                          f"{v['judged']:>8d}{item:>17s}{v['item_judged']:>8d}{v['lead_correct']:>9d}{v['with_figure']:>8d}"
                          f"{v['figure_items']:>5d}")
    print("\ndev questions, own filing, page_hit@5: " + "; ".join(
        f"{path} " + " ".join(f"{half} {v}" for half, v in halves.items()) for path, halves in report["dev_page_hit@5"].items()))


# ---------------------------------------------------------------- command


def main(argv: list[str] | None = None) -> int:
    from bench.selections import SELECTIONS, library_pdfs

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, required=True, help="folder with pdfs/ and questions.jsonl (and library/)")
    parser.add_argument("--work", type=Path, required=True, help="ingestion work folder (reused between runs)")
    parser.add_argument("--out", type=Path, help="write the figures as JSON here too")
    parser.add_argument("--selections", default="single,company", help=f"comma list of {','.join(SELECTIONS)}")
    parser.add_argument("--per-filing", type=int, default=20, help="generated statement questions per filing")
    parser.add_argument("--no-followups", action="store_true", help="skip the follow-up measurement")
    parser.add_argument("--tables", action="store_true", help="also compare the table parsers (find_tables is slow)")
    parser.add_argument("--gold", type=Path, metavar="WORK", help="also run bench.figures_gold (statements gold, "
                        "its own process) with WORK as the statements work folder")
    parser.add_argument("--quotes", action="store_true", help="only the quote relevance (d), single filing")
    parser.add_argument("--baseline-rev", help="with --quotes: git revision answering the same questions")
    args = parser.parse_args(argv)
    selections = [x for x in args.selections.split(",") if x]
    if not selections or set(selections) - set(SELECTIONS):
        sys.exit(f"error: --selections must be among {','.join(SELECTIONS)}")

    data = args.data.resolve()
    qpath = data / "questions.jsonl"
    if not qpath.is_file():
        sys.exit(f"error: {qpath} not found (DIR must hold pdfs/ and questions.jsonl)")
    questions = [json.loads(line) for line in qpath.read_text("utf-8").splitlines() if line.strip()]
    pdfs = sorted((data / "pdfs").glob("*.pdf"))
    library = library_pdfs(data, pdfs) if set(selections) - {"single"} else []
    use_work_dir(args.work.resolve())
    import logging

    logging.disable(logging.WARNING)
    started = time.perf_counter()
    docs = ingest(pdfs + library, args.work.resolve())
    if args.quotes:
        report = run_quotes(questions, pdfs, docs, args.work.resolve(), args.baseline_rev, args.per_filing)
        _print_quotes(report)
        if args.out:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(report, indent=2))
        return 0

    report: dict = {"selections": selections, "filings": len(docs),
                    "dev_single_filing_page_hit@5": dev_page_hits(questions, docs)}
    figs = figure_questions(questions)
    statements = statement_questions(pdfs, args.per_filing)
    by_row: dict[tuple, list] = {}
    for s in statement_questions(pdfs, per_filing=10**6):
        by_row.setdefault((s["doc_name"], s["label"].lower()), []).append(s["figure"])
    for s in statements:  # the same row's other columns: what a neighbour-column mistake would state
        s["other_values"] = [v for v in by_row.get((s["doc_name"], s["label"].lower()), []) if v != s["figure"]]
    name_companies(statements, docs)
    if set(selections) - {"single"}:
        from bench.selections import company

        printed: dict[tuple, set] = {}  # (company, row label, year) -> values printed in any of its filings
        for s in statement_questions(pdfs + library, per_filing=10**6):
            printed.setdefault((company(s["doc_name"]), s["label"].lower(), s["year"]), set()).add(s["figure"])
        for s in statements:
            s["company_values"] = sorted(printed.get((company(s["doc_name"]), s["label"].lower(), s["year"]), set()))
    for kind in selections:
        report.setdefault("a_dev_figure_questions", {})[kind] = answer_figures(figs, docs, "dev figure questions", kind)
        report.setdefault("b_generated_statement_questions", {})[kind] = answer_figures(
            statements, docs, "statement questions", kind)
    if not args.no_followups:
        cases = followup_cases(questions, statements, {p.stem: p for p in pdfs})
        report["c_followups"] = followup_hits(cases, docs)
    if args.tables:
        report["table_parsers"] = table_parsers([p for p in pdfs if "10K" in p.name][:3])
    report["seconds"] = round(time.perf_counter() - started, 1)
    _print(report)
    if args.gold:  # a process of its own: storage settings point at one work folder per process
        import subprocess

        gold_out = args.out.with_name(args.out.stem + "_gold.json") if args.out else None
        subprocess.run([sys.executable, "-m", "bench.figures_gold", "--work", str(args.gold),
                        *(["--out", str(gold_out)] if gold_out else [])], check=True, cwd=Path(__file__).resolve().parent.parent)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2))
    return 0


def _print(report: dict) -> None:
    print(f"\n{report['filings']} filings ingested; answer paths: new = selection-aware ranking + agent/no_model/extractive.py, "
          "today = legacy ranking + bench/baselines/extractive.py, baseline_composer = selection-aware ranking + "
          "bench/baselines/extractive.py (with one filing, today = baseline_composer)")
    print("columns: figure = the answer contains the figure as printed in the question's filing; +period = on one line "
          "with the asked year; any filing = or the value printed for that row and year in another filing of the company "
          "(restated, or a 10-K's full year for a 10-Q's column); only other = cites only other filings; hit@5 = "
          "retrieval, evidence page of the own filing in the top 5 (legacy ranking for `today`)")
    head = (f"{'set':24s}{'selection':>10s}{'n':>5s}{'path':>19s}{'figure':>8s}{'+period':>9s}{'any filing':>11s}"
            f"{'only other':>11s}{'hit@5':>7s}")
    for name, title in (("a_dev_figure_questions", "dev figure questions"),
                        ("b_generated_statement_questions", "generated statements")):
        print("\n" + head)
        for kind, r in report[name].items():
            for path, v in r["paths"].items():
                ranking = "legacy" if path == "today" and "legacy" in r["retrieval_page_hit@5"] else "selection"
                print(f"{title:24s}{kind:>10s}{r['questions']:>5d}{path:>19s}{v['with_figure']:>8.3f}"
                      f"{v['with_figure_and_period']:>9.3f}{v['with_figure_any_filing']:>11.3f}{v['cites_only_other_filings']:>11.3f}"
                      f"{r['retrieval_page_hit@5'][ranking]:>7.3f}")
            today = r["paths"]["today"]["with_figure"]
            ratio = f"{r['paths']['new']['with_figure'] / today:.2f}x" if today else "inf"
            lead = ", ".join(f"{k} {v}" for k, v in r["new_lead"].items())
            print(f"{'':34s}new / today {ratio}; new path: {lead}; compose ms p50 (memoised embeddings) {r['compose_ms_p50']}")
            forms = "; ".join(f"{form} ({v['questions']}): " + " / ".join(f"{v[p]:.3f}" for p in PATHS)
                              for form, v in r["with_figure_by_form"].items())
            print(f"{'':34s}figure by form, {' / '.join(PATHS)}: {forms}")
    print(f"\ndev questions, single filing, page_hit@5 with these chunks: {report['dev_single_filing_page_hit@5']}")
    if "c_followups" in report:
        c = report["c_followups"]
        print(f"\nc_followups: {c['cases']} cases  page_hit@5 resolved {c['page_hit@5_resolved']}  raw {c['page_hit@5_raw']}")
        for kind, v in c["by_kind"].items():
            print(f"  {kind}: {v['cases']} cases  resolved {v['resolved']}  raw {v['raw']}")
    if "table_parsers" in report:
        t = report["table_parsers"]
        print(f"\ntable pages {t['pages']}: period header found by storage/documents/tables.py {t['tables_py_header']} "
              f"({t['tables_py_s']} s), by find_tables() {t['find_tables_header']} ({t['find_tables_s']} s)")
    print(f"\n{report['seconds']} s")


if __name__ == "__main__":
    raise SystemExit(main())
