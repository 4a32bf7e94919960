"""Retrieval benchmark: the project's retriever against baselines, on FinanceBench-format data.

    python -m bench.retrieval --data ../shared/bench/financebench-dev --out bench/results/retrieval.json

DIR holds `pdfs/<doc_name>.pdf` and `questions.jsonl` (fields `doc_name`, `question`,
`evidence[].evidence_page_num`, 0-based), and optionally `library/*.pdf` (more filings no question
is about). Each question is asked with three selections (`--selections`):
  single   its own filing only;
  company  every filing of its company (name prefix before the first "_", pdfs/ + library/);
  library  every filing (pdfs/ + library/).
A hit at k = one of the first k results is from the question's own filing and lies on an evidence
page (a chunk spanning pages counts every page it covers). Methods, all in this process on this
machine:

- `project_hybrid`  HybridRetriever as shipped (cache off, so latency is a cache miss)
- `today_ranking`   the shipped ranking without the learned page scorer (Ranking(scorer_pages=0))
- `scorer_rerank`   the top 20 pages reranked by the page scorer (storage/retrieval/page_scorer.py),
                    blend weight 0.5 (ablations: 0.3, 0.8)
- `scorer_alone`    the page scorer's question vector against every chunk vector, one result per page
- `ranking_before_profile` the ranking before the selection prior read the filings' first pages
                    (storage/retrieval/document_profile.py); `profile` = the shipped one; `profile_*` each
                    reader alone or left out, cover weights 0.5 / 2 (bench/baselines/presets.py PROFILE)
- `ranking_before_sections` the ranking before the keyword query took the words of the filing part a
                    question names and derived nouns' adjectives (storage/retrieval/query_expansion.py
                    SECTION_GLOSSARY); `sections_label_*` add the page-section label signal
                    (storage/retrieval/page_sections.py, Ranking.section_weight; off in the product)
- `ranking_before_parts` the ranking before a question naming a part of the filing lifted the pages labelled
                    as it (storage/retrieval/page_parts.py: prose parts, Ranking.part_weight; a primary statement
                    named or implied by a metric computed from it, Ranking.statement_weight); `parts_*` each alone,
                    both at 1 (bench/baselines/presets.py PARTS)
- `scorer_rerank_k10_w*`, `scorer_rerank_w0.1/0.2` the top 10 / 20 pages reranked at blend weight 0.1-0.3
- `parts_with_*`    the capex and report-period rules (Ranking.capex_statement, cover_period), off since round 4
- `cross_rerank*`   the top 20 (k10: 10) pages reranked by the cross-encoder page reranker
                    (storage/retrieval/page_reranker.py, trained by bench/train_reranker.py), blend weight 0.5
                    (ablations: 0.3, 0.8)
- `parts_with_cash_flow_items` a line item of the cash flow statement asked in any words counts as asking for
                    that statement (Ranking.cash_flow_items)
- `scorer_feature_*` the page scorer's page score as a feature beside the hybrid score (Ranking.scorer_feature,
                    weights 0.1 / 0.2 / 0.4; off in the product)
- `ranking_before_facts` the ranking without the facts feature (Ranking.facts_weight 0); `facts_*` a page whose
                    stored facts carry the asked line item (and a column of the asked fiscal year) lifted by
                    w * spread * match (storage/retrieval/fact_pages.py; bench/baselines/presets.py FACTS; needs a
                    --work whose builds hold facts.json, e.g. /work/wt/m7-work: without them it changes nothing)
- `ranking_before_filing` the prior before the five readings of which filing (bench/baselines/presets.py FILING);
                    `filing_no_*` each reading left out
- `ranking_before_round9` main 273b287's ranking (bench/baselines/presets.py CAUSE): before a cause question kept its
                    MD&A prose (`ranking_before_cause`), a year naming the document picked it (`ranking_before_document_period`)
                    and an 8-K's agenda found its item page (`ranking_before_event_items`); `cause_mdna_*` lift MD&A pages
                    for cause questions (off), `event_items_*` other weights
- `facts_tie_*`     round 10: the stored facts as a tie-break among the pages of the best page's filing within w x its
                    own spread of the best (Ranking.facts_tie, off); `_rows`: a ratio's inputs do not count
                    (Ranking.facts_tie_inputs False); `filed_annual` / `ranking_before_filed_annual` a glossy annual
                    report beside its issuer's 10-K of the same period as a secondary source (Ranking.filed_annual)
- `ranking_before_rank17` the ranking before two readings of which filing (rank17, both on): a year an expectation
                    is for ("expect in FY2023") is read as the year before (Ranking.outlook_year), a month an event
                    happened in ("entered into in April 2022") names the 8-Ks / releases dated in it
                    (Ranking.event_month); `outlook_year` / `event_month` each alone; `year_to_date` a year asked with
                    a year-to-date span is that span's quarter (Ranking.year_to_date, off); `rank17_all` all three
- `legacy_ranking`  bench/baselines/legacy_ranking.py: the ranking before selection awareness
                    (per-PDF BM25 idf, no document relevance, no period/form/issuer prior)
- `bm25_alone`      the project's chunk BM25 index, raw question, top chunks
- `dense_alone`     the project's chunk vectors, raw question, top chunks
- `langchain_baseline` PyMuPDFLoader + RecursiveCharacterTextSplitter(1000, 200) + Chroma
- ablations of the project retriever (no query expansion; no page-level BM25; other dense weights;
  on several PDFs: no prior, no document relevance, per-PDF BM25 idf)
On company/library selections the single-signal baselines score the whole selection
(dense: one cosine ranking over all chunks; BM25: one corpus), and LangChain is not run.
No-model answers (agent.run.run_turn, no model) per selection: share citing an evidence page of
the right filing, share citing only other filings; today's answer path (legacy ranking) as baseline,
and the shipped ranking without the primary-source preference (an ablation) on several filings.

Another question set: `--questions FILE[,FILE] --pdfs DIR` (FinanceBench format; DIR holds every PDF
the questions and the company/library selections use), e.g. the statements-more gold, or the FinanceBench-style set (bench/gold/fb_style_retrieval.part-a/b.jsonl: 74 questions in
FinanceBench's three styles over financebench-dev's library filings and statements/ filings no retrieval gold used;
--pdfs a folder holding all 63 bench PDFs, e.g. symlinks to financebench-dev/pdfs, library, statements, statements-more):

    python -m bench.retrieval --questions bench/gold/statements_more_retrieval.part-a.jsonl,bench/gold/statements_more_retrieval.part-b.jsonl \
        --pdfs ../shared/bench/statements-more --work /work/benchwork --out sm.json --no-langchain --no-answers \
        --no-cache-bench --no-long-filing --methods today_ranking,scorer_rerank,dense_alone,scorer_alone

Every selection is also reported per half of bench/gold/splits.json (tune / check issuers), and
`--methods` keeps only the named methods. The page scorer's training time and size come from
storage/retrieval/models/page_scorer.json.

`--library-latency` times the shipped ranking with every processed PDF of --work selected (the largest
library at hand; /work/benchwork holds the 63 bench filings), and with its first 16 and 32, for p50/p95
per library size; `--latency-ranking PRESET` times a preset instead (e.g. cross_rerank).

It also measures the semantic cache (false hits between different questions, hit rate of
near-identical repeats, hit latency) and query latency on a >= 300-page filing made by joining
the largest filings. Work files (ingested artifacts, reused between runs) go to `--work`.

How the shipped method was chosen (dev slice, 28 questions, page_hit@5 / @10; development
harness with the same chunker, tokenizer and fusion code, exact dense scores):
  chunk BM25 .429/.607 · chunk dense .500/.679 · equal RRF .500/.643 (RRF does not help)
  one result per page: dense .571/.821, BM25 .464/.643
  z-score convex fusion (0.7 dense) + page max .571/.750; + page-level BM25 (0.3) .643/.750
  + query expansion (instructions dropped, financial glossary): BM25 alone .679/.929
  shipped (dense 0.6, page BM25 0.4, dense on expanded query): .893/.964, MRR .58
  the gain is flat over dense 0.5-0.8 x page 0.2-0.5 (@5 .79-.89, @10 .96-1.0): not a fitted point.
Selections of several filings (company folder / whole library, @5; ablations in this file):
  legacy ranking .321 / .107; one-corpus BM25 idf alone .500 / .214; + period/form/issuer prior
  (weight 2) + document relevance by page votes: .786 / .750; + periodic reports as the primary
  source of their period, "no period" = latest annual report and later: .786 / .821 (no-model
  answers citing only other filings .107 / .107 -> 0 / 0). Prior weight 1-3: .786 / .714-.821;
  document weight 0-2: .786 / .821.
Issue 28 (same run, `ranking_before_sections` = the ranking before): the words of the filing part a
question names + derived nouns' adjectives, and cover facts (period end date, headquarters, ticker)
lifting the cover pages that print them. Dev tune half @5 single/company/library .812/.688/.750 ->
.812/.750/.812 (@10 .875/.812/.812 -> .938/.938/.938), check half unchanged (.917/.917/.833);
statements-more @1 .719/.645/.628 -> .769/.694/.669, @5 .934/.926/.868 -> .950/.942/.901, check half
@1 up .05 in each selection. Page-section labels as a signal (`sections_label_*`) lowered
statements-more @1 by .02-.10: left off.
Issue 28, round 3 (same run, `ranking_before_parts` = main d11b2ca): the part a question asks for (legal
proceedings, risks, the business; the primary statement of a margin, tax rate, quick ratio, capex) lifts the
pages labelled as it, 0.5 x the query's spread (1.0 lowered statements-more tune @1 by .03, dev tune equal),
and a question for the period a filing reports on lifts its cover. Dev @5 single/company/library: tune
.812/.750/.812 -> 1.0/1.0/.938 (@1 .312 -> .500 each), check .917/.917/.833 -> 1.0/1.0/.917 (@1
.583/.500/.250 -> .667/.583/.417). Statements-more @5: tune .953/.938/.875 -> .984/.969/.922 (@1
.781/.703/.703 -> .828/.750/.734; the capex and report-period rules lift tune only), check .947/.947/.930
-> .947/.912/.912 (@1 equal): one check question lost to each parts rule in the company selection.
The scorer as a feature (`scorer_feature_*`, 0.1-0.4) lifted statements-more (check @5 .947/.912/.912 ->
.965/.947/.912 at 0.1) but lowered dev @1 (tune single .500 -> .438, check single .667 -> .583): left off.
Library of 138 filings (14,597 pages: the 63 processed bench builds plus 75 copies under new ids sharing
their vectors): p50 91 / 69 / 141 ms, p95 106 / 161 / 183 ms at load 1.8 / 4 / 8.
Issue 28, round 4 (same runs; statements-more @5 single/company/library): the capex and report-period rules
(`parts_with_*`) lift the tune half only: tune .953/.938/.875 -> .984/.969/.922 with both, check .947/.912/.912
with or without either, dev equal on both halves: a fit, off in the product. The scorer reranking the top pages
(`scorer_rerank_*`, K 10/20 x w 0.1-0.3, chosen on the tune halves: K 20, w 0.3) lifts statements-more (check
@5 .947/.912/.912 -> .965/.947/.895, MRR .839/.785/.735 -> .847/.776/.751) but lowers the dev check half (MRR
single .808 -> .677, company .753 -> .642, library .679 -> .590): trained on table-row questions, it does not
carry to analysts' questions on issuers it never saw; left off. 138 filings: p95 286 ms at load 10-19.
Issue 28, round 5 (same runs, `today_ranking` = main b277cb6's ranking; @5 / MRR single/company/library):
the scorer's pages also read their header (issuer, form, period | section label, page_sections.page_header;
weight learnt: .27) and its training questions took analysts' phrasing (statement named, ratios, trends;
bench/scorer_data.py), retrained at --per-filing 80 (1,200 pairs, 21 min at load 20-47; weights NOT committed:
they rank the prose page first in the row-or-prose test). Chosen on tune: K 20, w .3. Dev tune MRR
.674/.666/.672 -> .705/.671/.708, check MRR .808/.753/.679 -> .701/.697/.604 (@5 1.0/1.0/.917 ->
.917/.917/.917; the round-4 scorer .676 single): still lower on check, left off. Headers vs none (w .3): check
MRR .701/.697/.604 vs .688/.669/.586. Statements-more check @5 .947/.912/.912 -> .930/.930/.877 (MRR
.839/.785/.735 -> .846/.785/.746), tune MRR .848/.803/.779 -> .850/.812/.799. Dense alone dev check MRR
.237/.083/.083. Latency p95 at load 20-47: dev library 395 ms today, 657 ms reranked (first header embeddings).
Issue 28, round 6 (main 2b0c4da as baseline): the keyword query takes the printed rows' words of the line items
a question names from storage/finance/line_items.py (LineItem.words; "capex", "CFO", "cash from operations",
"buybacks", "D&A" -> "purchases of property plant and equipment", "net cash provided by operating activities",
...), the glossary keeping only what is not a line item. Dev and statements-more: equal to main (dev check @5
1.0/1.0/.917, statements-more check MRR .839/.785/.735 -> .842/.785/.752). Cash-flow rows of the figure golds
asked in their words (statements + statements-more, 65 q) and with the plain words substituted (80 q), single,
@5 tune / check: plain words statements .167/.579 -> .333/.737, statements-more .167/.484 -> .333/.806; own
words .500/.714 -> .583/.643 and .312/.696 -> .500/.783. `parts_with_cash_flow_items` (a cash-flow line item
asked in any words lifts the cash flow statement's pages, Ranking.cash_flow_items) then gives @5 tune / check
1.0/1.0, .938/.957 (own words), .917/1.0, .944/1.0 (plain words); statements-more retrieval tune MRR
.848/.804/.779 -> .868/.831/.806, check equal; but dev check MRR company .753 -> .711, library .679 -> .637
(one buyback question of a quarterly release ranked 1 -> 3): off by the check-half rule.
The cross-encoder page reranker (`cross_rerank*`, storage/retrieval/page_reranker.py, bench/train_reranker.py):
not trained to the end this round. At load 10-18 on 2 cores a step (8 questions x 4 pages x 160 tokens, lowest 3
layers frozen) took 32-60 s, so 600 questions (75 steps) needed 60-75 min; stopped at step ~25 by the time box.
Inference alone (the exported int8 model, 23 MB, before training) on the 138-filing library at load ~17: p50 / p95
2590 / 3215 ms reranking the top 10 pages vs 498 / 857 ms today (same hour): ~2 s per 10 (question, page) pairs
on this machine, over the 1 s budget before any quality is counted: off.
Issue 28, round 7 (same runs on /work/wt/m7-work, whose builds hold facts.json; `ranking_before_facts` = main
58b4bf0's ranking; @1 / @5 / MRR single, company, library): the facts feature (`facts_*`,
storage/retrieval/fact_pages.py): a question naming a line item lifts the pages whose stored facts print a row
of that concept (by the facts' concept, else the row label's or its section's words), in a column of the asked
fiscal year (a row without it: half). Chosen on tune: w .25 (.1 and .5 lower on tune; the year level changes
nothing on tune: `facts_0.25_any_year` / `_year_only` equal). Dev tune @5 1.0/1.0/.938 -> .938/.938/.875 (one
AMCOR release question whose answer table the facts reader does not read: the pages it does read pass it), MRR
.674/.666/.672 -> .716/.686/.701; dev check @1 .667/.583/.417 -> .583/.500/.417, @5 equal (1.0/1.0/.917), MRR
.808/.753/.679 -> .767/.708/.639. Statements-more tune @5 .953/.938/.891 -> .969/.938/.922, MRR
.848/.804/.779 -> .866/.834/.797; check @5 .947/.912/.912 -> .947/.912/.895, MRR .842/.785/.752 ->
.845/.788/.744. Lifts tune, lowers check MRR (dev in every selection, statements-more library): off
(Ranking.facts_weight 0). The scorer as a feature (`scorer_feature_*`, chosen on tune: .4) likewise: dev check
MRR .808/.753/.679 -> .711/.774/.593, statements-more check .842/.785/.752 -> .850/.789/.733: off. Latency,
138 filings (/work/wt/rank7-lib138: rank3-lib138 with each build's facts.json copied from m7-work, same pages),
two alternating runs at load 8-9: p50 / p95 161 / 221 and 170 / 244 ms with facts at .25, 159 / 208 and
181 / 255 ms without; the first question naming a line item reads the 138 facts.json once (2.4-2.9 s, JSON
parsing), then the lookup costs 1.6 ms a query.
Issue 28, round 8 (which filing: storage/retrieval/selection_prior.py, document_profile.py; one run each on
/work/wt/m7-work; `ranking_before_filing` = main 58b4bf0's ranking, measured as `today_ranking` before the switch;
@1 / @5 / MRR company, library; single never changes): tune questions in the top 5 with one filing but not with the
company or library read the filing wrong: a 2015 10-K taken as the present beside a 2023 10-Q (`stale_annual`),
"by July 19, 2023" matched by no document's date (`date_after`: each issuer's first document dated after it), a
period choosing another issuer's annual report when no issuer is named (`period_per_issuer`), filings without
an issuer in their DocumentInfo not grouped with their issuer (`fill_issuers`), a release's period read from a
comparative "year ended December 31, 2022" table (`release_quarter`). All five: statements-more tune company
.703/.938/.804 -> .734/.938/.827, library .688/.891/.779 -> .688/.906/.785; check company equal
(.684/.912/.785), library .667/.912/.752 -> .667/.912/.753 (@3 .789 -> .772, @10 .930 -> .947); dev tune and
check equal in every selection (their questions name issuer and period). `stale_annual` alone lowers tune
library (.779 -> .771): "Where is Apple headquartered?" has gold on the 2015 10-K only, the 2023 10-Q's cover
printing the same address now leads. Lifts tune, check neutral (the check questions rarely phrase these
classes): on, as the brief's rule allows. 138-filing library p50 / p95, two alternating runs: 126 / 188 and
120 / 142 ms before, 120 / 216 and 132 / 170 ms with the five.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from bench.selections import SELECTIONS, selected_ids
from bench.splits import half_of, issuer_of

KS = (1, 3, 5, 10)
DEFAULT_WORK = Path(__file__).resolve().parent / "results" / "work"


def _load_questions(path: Path, pdf_dir: Path) -> list[dict]:
    if not path.is_file():
        sys.exit(f"error: {path} not found (DIR must hold pdfs/ and questions.jsonl, or pass --questions/--pdfs)")
    questions = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    missing = sorted({q["doc_name"] for q in questions if not (pdf_dir / f"{q['doc_name']}.pdf").is_file()})
    if missing:
        sys.exit(f"error: PDFs missing under {pdf_dir}: {', '.join(missing)}")
    return questions


def _evidence_pages(q: dict) -> set[int]:
    return {int(e["evidence_page_num"]) for e in q.get("evidence", []) if e.get("evidence_page_num") is not None}


def _score(ranked_pages: list, evidence: set[int], doc_id: str | None = None) -> tuple[dict[int, bool], float]:
    """ranked_pages: [pages] (one filing selected) or [(doc_id, pages)] (a hit must be from doc_id)."""
    if doc_id is not None:
        ranked_pages = [pages if d == doc_id else set() for d, pages in ranked_pages]
    first = next((i for i, pages in enumerate(ranked_pages) if pages & evidence), None)
    hits = {k: first is not None and first < k for k in KS}
    return hits, (1.0 / (first + 1) if first is not None else 0.0)


def _summary(rows: list[tuple[dict[int, bool], float]], latencies: list[float]) -> dict:
    n = len(rows) or 1
    out = {f"page_hit@{k}": round(sum(r[0][k] for r in rows) / n, 3) for k in KS}
    out["mrr"] = round(sum(r[1] for r in rows) / n, 3)
    if latencies:
        out["latency_ms_p50"] = round(float(np.percentile(latencies, 50)), 2)
        out["latency_ms_p95"] = round(float(np.percentile(latencies, 95)), 2)
    return out


def _place_pdf(src: Path, source_dir: Path) -> Path:
    dst = source_dir / src.name
    if not dst.exists() or dst.stat().st_size != src.stat().st_size:
        shutil.copy2(src, dst)
    return dst


def _make_long_filing(pdfs: list[Path], out: Path, min_pages: int = 300) -> Path | None:
    import pymupdf

    if out.exists():
        return out
    joined = pymupdf.open()
    for path in sorted(pdfs, key=lambda p: -pymupdf.open(p).page_count):
        with pymupdf.open(path) as doc:
            joined.insert_pdf(doc)
        if joined.page_count >= min_pages:
            break
    if joined.page_count < min_pages:
        return None
    joined.save(out)
    return out




def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=None, help="folder with pdfs/ and questions.jsonl")
    parser.add_argument("--questions", type=Path, default=None, help="a FinanceBench-format questions file "
                        "(instead of DIR/questions.jsonl; several files: comma list)")
    parser.add_argument("--pdfs", type=Path, default=None, help="folder of every PDF the questions and selections use "
                        "(instead of DIR/pdfs + DIR/library)")
    parser.add_argument("--methods", default=None, help="comma list: only these methods (default: all)")
    parser.add_argument("--out", type=Path, required=True, help="where to write the JSON results")
    parser.add_argument("--work", type=Path, default=DEFAULT_WORK, help="ingestion work folder (reused)")
    parser.add_argument("--selections", default=",".join(SELECTIONS), help="comma list of single,company,library")
    parser.add_argument("--no-library", action="store_true", help="ignore DIR/library (selections use pdfs/ only)")
    parser.add_argument("--no-langchain", action="store_true", help="skip the LangChain baseline")
    parser.add_argument("--no-ablations", action="store_true", help="skip the ablations")
    parser.add_argument("--no-cache-bench", action="store_true", help="skip the cache measurement")
    parser.add_argument("--no-long-filing", action="store_true", help="skip the 300-page latency check")
    parser.add_argument("--no-answers", action="store_true", help="skip the no-model answer measurement")
    parser.add_argument("--latency-ranking", default="selection", help="the ranking --library-latency times: "
                        "the shipped one, or a preset's name (bench/baselines/presets.py)")
    parser.add_argument("--library-latency", action="store_true", help="also time the shipped ranking over every "
                        "processed PDF of --work (the largest library at hand), at growing sizes")
    parser.add_argument("--answer-selections", default=None, help="selections for the answer measurement (default: --selections)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    selections = [x for x in args.selections.split(",") if x]
    if set(selections) - set(SELECTIONS):
        sys.exit(f"error: --selections must be among {','.join(SELECTIONS)}")

    if args.data is None and (args.questions is None or args.pdfs is None):
        sys.exit("error: give --data DIR, or --questions FILE and --pdfs DIR")
    data = (args.data or args.pdfs).resolve()
    pdf_dir = args.pdfs.resolve() if args.pdfs else data / "pdfs"
    if args.questions:
        questions = [q for f in str(args.questions).split(",") for q in _load_questions(Path(f), pdf_dir)]
    else:
        questions = _load_questions(data / "questions.jsonl", pdf_dir)
    work = args.work.resolve()
    (work / "source").mkdir(parents=True, exist_ok=True)
    os.environ["PDF_CHAT_HOME"] = str(work)
    os.environ["PDF_SOURCE_DIR"] = str(work / "source")
    os.environ["PDF_DESTINATION_DIR"] = str(work / "destination")
    os.environ.pop("CHROMA_HOST", None)
    import logging

    logging.disable(logging.WARNING)

    from storage.documents import catalog
    from storage.documents import ingest
    from storage.documents import intake
    from storage.retrieval import hybrid
    from storage.documents.embeddings import get_embedder

    get_embedder()  # load once before timing anything
    doc_names = sorted({q["doc_name"] for q in questions})
    library_dir = pdf_dir if args.pdfs else data / "library"
    library_names = [] if args.no_library or not library_dir.is_dir() else sorted(p.stem for p in library_dir.glob("*.pdf"))
    library_names = [n for n in library_names if n not in doc_names]
    timings_path = work / "ingest_seconds.json"
    timings = json.loads(timings_path.read_text()) if timings_path.exists() else {}

    # ------------------------------------------------------------ ingestion (reused between runs)
    baseline = None
    if not args.no_langchain:
        from bench.baselines.langchain_pipeline import LangChainBaseline

        baseline = LangChainBaseline(work)
    docs: dict[str, dict] = {}
    bar = tqdm(doc_names + library_names, desc="ingest", unit="pdf")
    for name in bar:
        folder = pdf_dir if name in doc_names else library_dir
        pdf = _place_pdf(folder / f"{name}.pdf", work / "source")
        sha = intake.file_sha256(pdf)
        doc_id = intake.compute_doc_id(pdf, sha)
        bar.set_postfix_str(name[:30])
        if not catalog.check_pdf_processed(doc_id):
            t0 = time.perf_counter()
            ingest.process_and_index_pdf(pdf)
            timings[f"project:{sha}"] = time.perf_counter() - t0
        pages = catalog.load_manifest(doc_id).page_count
        if baseline is not None and name in doc_names:  # the baseline only for the questions' filings
            pages, seconds = baseline.ingest(pdf, sha)
            if seconds is not None:
                timings[f"langchain:{sha}"] = seconds
        timings_path.write_text(json.dumps(timings))
        docs[name] = {"doc_id": doc_id, "sha": sha, "pages": pages}

    def pages_per_s(prefix: str) -> float | None:
        keys = [(f"{prefix}:{docs[n]['sha']}", docs[n]["pages"]) for n in doc_names]
        if not all(k in timings for k, _ in keys):
            return None
        return round(sum(p for _, p in keys) / max(sum(timings[k] for k, _ in keys), 1e-9), 2)

    def selection_of(kind: str, name: str) -> list[str]:
        return selected_ids(kind, name, {n: d["doc_id"] for n, d in docs.items()})

    for d in docs.values():  # load indexes before timing (a real session keeps them loaded too)
        hybrid.get_doc_index(d["doc_id"])
    hybrid.documents_of([d["doc_id"] for d in docs.values()])  # document info, read once

    results: dict[str, dict] = {}
    halves: dict[str, dict] = {}
    per_question: dict[str, dict] = {}
    for kind in selections:
        methods = _methods(kind, docs, baseline, ablations=not args.no_ablations)
        if args.methods:
            methods = {m: run for m, run in methods.items() if m in args.methods.split(",")}
        rows_by: dict[str, list] = {m: [] for m in methods}
        lat_by: dict[str, list] = {m: [] for m in methods}
        ranks_by: dict[str, list] = {m: [] for m in methods}
        bar = tqdm(total=len(methods) * len(questions), desc=f"retrieve ({kind})", unit="q")
        for method, run in methods.items():
            for q in questions:
                own = docs[q["doc_name"]]["doc_id"]
                selected = selection_of(kind, q["doc_name"])
                t0 = time.perf_counter()
                ranked = run(q["question"], selected)
                lat_by[method].append((time.perf_counter() - t0) * 1000)
                row = _score(ranked, _evidence_pages(q), own)
                rows_by[method].append(row)
                ranks_by[method].append(next((k for k in KS if row[0][k]), None))
                bar.update(1)
        bar.close()
        results[kind] = {m: _summary(rows_by[m], lat_by[m]) for m in methods}
        per_question[kind] = ranks_by
        for h in ("tune", "check"):
            idx = [i for i, q in enumerate(questions) if half_of(q["doc_name"]) == h]
            if idx:
                halves.setdefault(kind, {})[f"{h} ({len(idx)} q: {','.join(sorted({issuer_of(questions[i]['doc_name']) for i in idx}))})"] = {
                    m: _summary([rows_by[m][i] for i in idx], []) for m in methods}
    if "project_hybrid" in results.get("single", {}):
        results["single"]["project_hybrid"]["ingest_pages_per_s"] = pages_per_s("project")
        if "langchain_baseline" in results["single"]:
            results["single"]["langchain_baseline"]["ingest_pages_per_s"] = pages_per_s("langchain")

    report: dict = {
        "data": str(data),
        "questions": len(questions),
        "pdfs": len(docs),
        "pdfs_with_questions": len(doc_names),
        "pages": sum(d["pages"] for d in docs.values()),
        "selections": results,
        "halves": halves,
        "first_hit_k_per_question": per_question,
        "page_scorer": _scorer_meta(),
    }
    if "single" in results:
        report["methods"] = results["single"]  # the historical single-filing table
    for kind, methods in results.items():
        baselines = [m for m in ("bm25_alone", "dense_alone", "langchain_baseline", "legacy_ranking") if m in methods]
        if "project_hybrid" not in methods or not baselines:
            continue
        report.setdefault("gain_over_best_baseline", {})[kind] = {
            f"@{k}": round(methods["project_hybrid"][f"page_hit@{k}"] - max(methods[m][f"page_hit@{k}"] for m in baselines), 3)
            for k in (5, 10)
        }

    if args.library_latency:
        report["library_latency"] = _library_latency(questions, ranking=args.latency_ranking)
    if not args.no_cache_bench:
        report["cache"] = _cache_bench(questions, docs)
    if not args.no_long_filing:
        report["long_filing"] = _long_filing_latency(data, work, questions)
    if not args.no_answers:
        answer_kinds = [x for x in (args.answer_selections or args.selections).split(",") if x]
        report["no_model_answers"] = {
            kind: _no_model_answer_bench(questions, docs, lambda name, kind=kind: selection_of(kind, name))
            for kind in answer_kinds
        }

    report["elapsed_s"] = round(time.perf_counter() - started, 1)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    _print(report)
    return 0


def _methods(kind: str, docs: dict, baseline, ablations: bool) -> dict:
    """name -> run(question, selected doc_ids) -> ranked [(doc_id, pages)]."""
    from bench.baselines import presets
    from storage.documents import bm25
    from storage.retrieval import hybrid
    from storage.documents.embeddings import get_embedder

    embedder = get_embedder()

    def hits(results):
        return [(h.chunk.doc_id, set(range(h.chunk.page_number, h.chunk.page_end + 1))) for h in results]

    def project(ranking: str = "selection"):  # "selection", "legacy" or an ablation's name
        def run(q: str, doc_ids: list[str]):
            return hits(presets.retriever(doc_ids, ranking).search(q, k=max(KS)))

        return run

    def single_signal(signal: str):
        def run(q: str, doc_ids: list[str]):
            indexes = [hybrid.get_doc_index(d) for d in doc_ids]
            if signal == "bm25":  # one corpus over the selection (== the PDF's own index for one PDF)
                scores = np.concatenate(bm25.selection_bm25_scores([i.chunk_bm25.model for i in indexes], q))
            else:
                qv = embedder.embed([q])[0]
                scores = np.concatenate([i.vectors @ qv for i in indexes])
            chunks = [(i.doc_id, c) for i in indexes for c in i.chunks]
            top = np.argsort(-scores, kind="stable")[: max(KS)]
            return [(chunks[t][0], set(range(chunks[t][1].page_number, chunks[t][1].page_end + 1))) for t in top]

        return run

    def langchain(q: str, doc_ids: list[str]):
        sha = next(d["sha"] for d in docs.values() if d["doc_id"] == doc_ids[0])
        return [(doc_ids[0], {h.page}) for h in baseline.search(sha, q, max(KS))]

    def scorer_alone(q: str, doc_ids: list[str]):
        """The page scorer's question vector against every chunk vector of the selection, one result per page."""
        from storage.retrieval.page_scorer import get_page_scorer

        scorer = get_page_scorer()
        if scorer is None:
            return []
        indexes = [hybrid.get_doc_index(d) for d in doc_ids]
        qv = scorer.embed_question(q)
        scores = np.concatenate([i.vectors @ qv for i in indexes])
        chunks = [(i.doc_id, c) for i in indexes for c in i.chunks]
        out, seen = [], set()
        for t in np.argsort(-scores, kind="stable"):
            key = (chunks[t][0], chunks[t][1].page_number)
            if key not in seen:
                seen.add(key)
                out.append((chunks[t][0], set(range(chunks[t][1].page_number, chunks[t][1].page_end + 1))))
                if len(out) == max(KS):
                    break
        return out

    methods = {
        "project_hybrid": project(),
        "today_ranking": project("today_ranking"),
        "scorer_rerank": project("scorer_rerank"),
        "legacy_ranking": project("legacy"),
        "bm25_alone": single_signal("bm25"),
        "dense_alone": single_signal("dense"),
        "scorer_alone": scorer_alone,
        **{name: project(name) for name in presets.SECTIONS},
        **{name: project(name) for name in presets.PARTS},
        **{name: project(name) for name in presets.SCORER},
        **{name: project(name) for name in presets.FACTS},
        **{name: project(name) for name in presets.FILING},
        **{name: project(name) for name in presets.CAUSE},
    }
    if kind == "single" and baseline is not None:
        methods["langchain_baseline"] = langchain
    if ablations:
        methods.update({name: project(name) for name in (presets.SINGLE if kind == "single" else presets.SELECTION)})
        methods.update({name: project(name) for name in presets.SCORER if name not in methods})
        methods.update({name: project(name) for name in presets.PROFILE if name not in methods})
    return methods


def _library_latency(questions: list[dict], sizes: tuple[int, ...] = (16, 32), ranking: str = "selection") -> dict:
    """Query latency of the shipped ranking (cache off) with every processed PDF of the work folder selected,
    and with its first `sizes` PDFs (by name), so the cost per page can be read off and extrapolated. The
    first query of a selection (concatenating its arrays) is timed apart: a session pays it once."""
    from bench.baselines import presets
    from storage.documents import catalog
    from storage.retrieval import hybrid

    ids = sorted(m.doc_id for m in catalog.list_processed_pdfs())
    out: dict = {}
    for n in [s for s in sizes if s < len(ids)] + [len(ids)]:
        chosen = ids[:n]
        pages = sum(hybrid.get_doc_index(d).n_pages for d in chosen)
        retriever = presets.retriever(chosen, ranking)
        t0 = time.perf_counter()
        retriever.search(questions[0]["question"], k=max(KS))
        first = (time.perf_counter() - t0) * 1000
        lat = []
        for q in questions:
            t0 = time.perf_counter()
            retriever.search(q["question"], k=max(KS))
            lat.append((time.perf_counter() - t0) * 1000)
        out[f"{n} pdfs"] = {"pdfs": n, "pages": pages, "first_query_ms": round(first, 1),
                            "latency_ms_p50": round(float(np.percentile(lat, 50)), 1),
                            "latency_ms_p95": round(float(np.percentile(lat, 95)), 1),
                            "latency_ms_max": round(max(lat), 1)}
    return out


def _variants(q: str) -> list[str]:
    """Repeats a user would consider the same question."""
    stripped = q.rstrip(" ?.!")
    return [q.lower(), q.upper(), "  " + q.replace(" ", "   ") + "  ", stripped, stripped + "??", q.replace(",", "")]


def _cache_bench(questions: list[dict], docs: dict) -> dict:
    from storage.retrieval import hybrid
    from storage.documents.embeddings import get_embedder
    from storage.documents.catalog import get_pdf_output_dirs
    from storage.retrieval.hybrid import HybridRetriever
    from storage.retrieval.cache import DEFAULT_THRESHOLD, normalise_query, query_numbers

    # 1. similarity between different questions: where must the threshold be?
    texts = [q["question"] for q in questions]
    vecs = get_embedder().embed([normalise_query(t) for t in texts])
    sims = vecs @ vecs.T
    pairs = [
        (float(sims[i, j]), query_numbers(texts[i]) == query_numbers(texts[j]))
        for i in range(len(texts))
        for j in range(len(texts))
        if i != j and normalise_query(texts[i]) != normalise_query(texts[j])
    ]
    max_any = max((s for s, _ in pairs), default=0.0)
    max_same_numbers = max((s for s, same in pairs if same), default=0.0)
    reworded = [f"Please tell me: {t}" for t in texts]
    rvecs = get_embedder().embed([normalise_query(t) for t in reworded])
    reworded_sims = (rvecs * vecs).sum(axis=1)
    sweep = {
        f"{t:.2f}": {
            "false_hit_pairs": sum(1 for s, same in pairs if same and s >= t),
            "reworded_hit_rate": round(float((reworded_sims >= t).mean()), 3),
        }
        for t in (0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.99)
    }

    # 2. end to end through HybridRetriever with the shipped threshold
    calls = {"n": 0}
    original = hybrid.rank_pages  # a ranking runs only on a cache miss

    def counting(*a, **kw):
        calls["n"] += 1
        return original(*a, **kw)

    hybrid.rank_pages = counting
    try:
        hybrid.clear_loaded_indexes()
        for d in docs.values():
            get_pdf_output_dirs(d["doc_id"]).cache_path.unlink(missing_ok=True)
        false_hits = 0
        for q in questions:  # each different question must be a miss
            before = calls["n"]
            HybridRetriever([docs[q["doc_name"]]["doc_id"]]).search(q["question"], k=10)
            duplicate = sum(1 for p in questions[: questions.index(q)] if normalise_query(p["question"]) == normalise_query(q["question"]) and p["doc_name"] == q["doc_name"])
            if calls["n"] == before and not duplicate:
                false_hits += 1
        variant_total = variant_hits = 0
        hit_ms = []
        for q in questions:
            retriever = HybridRetriever([docs[q["doc_name"]]["doc_id"]])
            for v in _variants(q["question"]):
                before = calls["n"]
                t0 = time.perf_counter()
                retriever.search(v, k=10)
                elapsed = (time.perf_counter() - t0) * 1000
                variant_total += 1
                if calls["n"] == before:
                    variant_hits += 1
                    hit_ms.append(elapsed)
        reworded_hits = 0
        for q in questions:
            before = calls["n"]
            HybridRetriever([docs[q["doc_name"]]["doc_id"]]).search(f"Please tell me: {q['question']}", k=10)
            reworded_hits += calls["n"] == before
    finally:
        hybrid.rank_pages = original
    return {
        "threshold": DEFAULT_THRESHOLD,
        "max_similarity_between_different_questions": round(max_any, 4),
        "max_similarity_same_numbers": round(max_same_numbers, 4),
        "threshold_sweep": sweep,
        "false_hits": false_hits,
        "near_duplicate_hit_rate": round(variant_hits / max(variant_total, 1), 3),
        "reworded_hit_rate": round(reworded_hits / max(len(questions), 1), 3),
        "hit_latency_ms_p50": round(float(np.percentile(hit_ms, 50)), 3) if hit_ms else None,
        "hit_latency_ms_p95": round(float(np.percentile(hit_ms, 95)), 3) if hit_ms else None,
    }


def _long_filing_latency(data: Path, work: Path, questions: list[dict]) -> dict | None:
    from storage.documents import ingest
    from storage.retrieval.hybrid import HybridRetriever

    path = _make_long_filing(sorted((data / "pdfs").glob("*.pdf")), work / "source" / "LONG_FILING_300P.pdf")
    if path is None:
        return None
    manifest = ingest.process_and_index_pdf(path)
    retriever = HybridRetriever([manifest.doc_id], use_cache=False)
    latencies = []
    for q in tqdm(questions, desc="300-page latency", unit="q"):
        t0 = time.perf_counter()
        retriever.search(q["question"], k=10)
        latencies.append((time.perf_counter() - t0) * 1000)
    return {
        "pages": manifest.page_count,
        "chunks": manifest.chunk_count,
        "query_ms_p50": round(statistics.median(latencies), 2),
        "query_ms_p95": round(float(np.percentile(latencies, 95)), 2),
    }


def _no_model_answer_bench(questions: list[dict], docs: dict, selection_of) -> dict:
    """No-model (extractive) answers through agent.run.run_turn over a selection: the share
    citing an evidence page of the question's own filing, and the share citing only other
    filings; the same for today's answer path (legacy ranking) in the same run."""
    from agent.run import run_turn
    from agent.state import AgentContext
    from bench.baselines.presets import retriever
    from storage.schema import page_index

    several = any(len(selection_of(q["doc_name"])) > 1 for q in questions)
    variants = [("project", "selection"), ("legacy_ranking", "legacy")]
    if several:
        variants.append(("ablation_no_primary_source", "ablation_no_primary_source"))
    out = {}
    for label, ranking in variants:
        context = AgentContext(
            llm=None, web=None, history=None,
            get_retriever=lambda ids, ranking=ranking: retriever(ids, ranking),
        )
        right, only_other, cited_any, latencies, misses = 0, 0, 0, [], []
        for q in tqdm(questions, desc=f"no-model answers ({label})", unit="q"):
            own = docs[q["doc_name"]]["doc_id"]
            t0 = time.perf_counter()
            answer = run_turn(context, q["question"], selected_doc_ids=selection_of(q["doc_name"]))
            latencies.append((time.perf_counter() - t0) * 1000)
            cited = [
                (c.metadata.doc_id, page_index(c.metadata.page))
                for c in answer.citations
                if c.kind == "document" and c.metadata.doc_id
            ]
            cited_any += bool(cited)
            right += any(d == own and p in _evidence_pages(q) for d, p in cited)
            if cited and all(d != own for d, _ in cited):
                only_other += 1
                names = {v["doc_id"]: n for n, v in docs.items()}
                misses.append({"question": q["question"][:100], "own": q["doc_name"],
                               "cited": sorted({names.get(d, d) for d, _ in cited})})
        n = max(len(questions), 1)
        out[label] = {
            "share_citing_an_evidence_page": round(right / n, 3),
            "share_citing_only_other_filings": round(only_other / n, 3),
            "share_with_any_citation": round(cited_any / n, 3),
            "answer_ms_p50": round(statistics.median(latencies), 1),
            "citing_only_other_filings": misses,
        }
    return out


def _scorer_meta() -> dict | None:
    """Training time, size and recipe of the page scorer's weights (storage/retrieval/models/page_scorer.json)."""
    from storage.retrieval.page_scorer import MODEL_PATH

    meta = MODEL_PATH.with_suffix(".json")
    if not meta.is_file() or not MODEL_PATH.is_file():
        return None
    out = json.loads(meta.read_text())
    out["file_mb"] = round(MODEL_PATH.stat().st_size / 1e6, 1)
    return {k: v for k, v in out.items() if k != "filings"}


def _print(report: dict) -> None:
    cols = [f"page_hit@{k}" for k in KS] + ["mrr", "latency_ms_p50", "latency_ms_p95", "ingest_pages_per_s"]
    print(f"\n{report['questions']} questions, {report['pdfs']} PDFs ({report['pdfs_with_questions']} with questions), {report['pages']} pages")
    for kind, methods in report["selections"].items():
        print(f"\n[{kind}] selection")
        print(f"{'method':30s}" + "".join(f"{c.replace('page_hit', 'hit'):>12s}" for c in cols))
        for name, row in methods.items():
            print(f"{name:30s}" + "".join(f"{str(row.get(c, '-')):>12s}" for c in cols))
        g = report.get("gain_over_best_baseline", {}).get(kind)
        if g:
            print(f"gain over best baseline: @5 {g['@5']:+.3f}  @10 {g['@10']:+.3f}")
        for half, by in report.get("halves", {}).get(kind, {}).items():
            print(f"  {half}")
            for name, row in by.items():
                print(f"  {name:28s}" + "".join(f"{str(row.get(c, '-')):>12s}" for c in cols[:5]))
    if report.get("cache"):
        c = report["cache"]
        print(
            f"cache: threshold {c['threshold']} | false hits {c['false_hits']} | near-duplicate hit rate "
            f"{c['near_duplicate_hit_rate']} | reworded hit rate {c['reworded_hit_rate']} | hit p50/p95 "
            f"{c['hit_latency_ms_p50']}/{c['hit_latency_ms_p95']} ms | max sim of different questions "
            f"{c['max_similarity_between_different_questions']} (same numbers {c['max_similarity_same_numbers']})"
        )
    for kind, by in (report.get("no_model_answers") or {}).items():
        for label, a in by.items():
            print(
                f"no-model answers [{kind}, {label}]: {a['share_citing_an_evidence_page']:.3f} cite an evidence page of the "
                f"right filing, {a['share_citing_only_other_filings']:.3f} cite only other filings "
                f"({a['share_with_any_citation']:.3f} cite anything), p50 {a['answer_ms_p50']} ms"
            )
    if report.get("long_filing"):
        lf = report["long_filing"]
        print(f"{lf['pages']}-page filing ({lf['chunks']} chunks): query p50 {lf['query_ms_p50']} ms, p95 {lf['query_ms_p95']} ms")
    for label, v in (report.get("library_latency") or {}).items():
        print(f"library of {label} ({v['pages']} pages): query p50 {v['latency_ms_p50']} ms, p95 {v['latency_ms_p95']} ms, "
              f"max {v['latency_ms_max']} ms (first query {v['first_query_ms']} ms)")
    if report.get("page_scorer"):
        m = report["page_scorer"]
        print(f"page scorer: {m.get('file_mb')} MB ({'int8' if m.get('int8') else 'fp32'}), {m.get('pairs')} training pairs, "
              f"trained in {m.get('total_seconds')} s on {m.get('threads')} threads")
    print(f"elapsed {report['elapsed_s']} s")


if __name__ == "__main__":
    sys.exit(main())
