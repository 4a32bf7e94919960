"""The claim check (agent/claims/check.py): hostile claims from the human-read gold (the measure), and a
self-consistency run on answers built from real retrieved chunks of the dev filings.

    python -m bench.citations --claims-hostile --work /work/benchwork [--baseline-rev fe96e53]   # the measure

The `--claims` run below is NOT a recall measure: a planted error is kept only where a plain number
reader finds it unprinted on the cited page, which is the same rule the old checker applied, so it
reports ~1.0 by construction. It stays as a smoke test of printed forms (scale words, rounding).

    python -m bench.citations --data ../shared/bench/financebench-dev --work /tmp/claims-work --claims

For each dev question, its own filing's top chunks (HybridRetriever, cache off) are the sources. From
each chunk this module writes, **from the chunk's text alone** (never from the checker):
  true sentences   a number printed in the chunk restated as printed ("Net sales was 86,392") and as
                   people say it with the page's unit caption ("$86.4 billion", "-$1,577 million",
                   "$1,900 million" for "$1.9 billion", "12.5 percent"); a sentence of the chunk quoted;
  planted errors   a changed digit, a wrong scale (billion <-> million), a number printed on another page
                   of the same filing, the quote with one word changed, a number from another retrieved
                   chunk (another page) while citing only this one.
A planted figure the cited page does print after all (at any scale of its caption, to its rounding)
is dropped from the set: the gold is what the pages print, read here with a separate plain parser.
Each answer holds one chunk's sentences plus one true sentence citing another chunk, so an uncited
source is in the answer. Reported per variant: share of planted sentences flagged (recall), share
of true sentences flagged (false flags), and the check's time per answer (sources' texts in memory).
Baseline in the same run: verbatim matching (each figure and quote as written must occur in the
source text as is), what a check without printed forms would do.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
import re
import statistics
import time

# the baseline run (cases_at_revision) executes this file over an older tree: module level imports only what older
# trees define; newer helpers are imported inside the functions that generate cases
from bench.claims_everyday import _cap
from bench.splits import half_of

NUM = re.compile(r"(?<![\w.,])\(?\$?\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+)\s?\)?(%?)(?![\w])(?!\s*(?:million|billion))")
SCALED = re.compile(r"(?<![\w.,])\$?\s?(\d{1,3}(?:,\d{3})*(?:\.\d+)?)\s+(million|billion)\b")
CAPTION = re.compile(r"\bin\s+(millions|thousands)\b", re.IGNORECASE)
SCALE = {"thousands": 1e3, "millions": 1e6, "million": 1e6, "billion": 1e9}
VARIANTS_TRUE = ("true printed", "true said", "true quote")
VARIANTS_PLANTED = ("changed digit", "wrong scale", "other page", "quote word changed", "uncited source")


def _value(printed: str) -> float:
    return float(printed.replace(",", ""))


def _page_values(page: str) -> list[float]:
    """Every number the page prints, at its caption's scales and as printed (the gold's reading)."""
    scales = [1.0] + [SCALE[m.group(1).lower()] for m in CAPTION.finditer(page)]
    out = [_value(m.group(1)) * SCALE[m.group(2)] for m in SCALED.finditer(page)]
    for m in re.finditer(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?", page):
        out += [_value(m.group(0)) * s for s in scales]
    return out


def _amount(said: str) -> tuple[float, float]:
    """(value, half a unit of its last digit) of a figure as written: "$87.4 billion" -> (87.4e9, 0.05e9)."""
    m = re.search(r"(\d[\d,]*(?:\.\d+)?)\s*(million|billion)?", said)
    scale = SCALE.get(m.group(2) or "", 1.0)
    places = len(m.group(1).split(".")[1]) if "." in m.group(1) else 0
    return _value(m.group(1)) * scale, 0.5 * 10 ** -places * scale


def _printed_on(said: str, pages: list[str]) -> bool:
    """The cited pages print this figure after all (then it is no planted error)."""
    value, half = _amount(said)
    return any(abs(v - value) <= half * (1 + 1e-9) for page in pages for v in _page_values(page))


def _numbers_with_labels(text: str) -> list[tuple[str, str]]:
    return [(_label(line, m.start()), m.group(0).strip()) for line in text.splitlines()
            for m in NUM.finditer(line) if "," in m.group(1)]


def _label(line: str, start: int) -> str:
    words = re.sub(r"[\d$(),.%—–-]+", " ", line[:start]).split()
    return " ".join(words[-8:]) or "The amount"


def _said(value: float, scale: float) -> tuple[str, str]:
    """(text, unit word) of a scaled amount as people say it: "$86.4 billion", "-$1,577 million"."""
    total = abs(value) * scale
    sign = "-" if value < 0 else ""
    if total >= 1e9:
        return f"{sign}${total / 1e9:,.1f} billion", "billion"
    return f"{sign}${total / 1e6:,.0f} million", "million"


def figure_claims(chunk: str, page: str, rng: random.Random) -> list[dict]:
    """Up to two numbers of the chunk as (label, printed, true texts)."""
    caption = CAPTION.search(page)
    out = []
    for line in chunk.splitlines():
        for m in SCALED.finditer(line):
            if not m.group(0).startswith("$"):
                continue  # "18.4 million bearings" is no amount of money
            unit = m.group(2)
            value = _value(m.group(1)) * SCALE[unit]
            said = f"${value / 1e6:,.0f} million" if unit == "billion" and value / 1e6 == int(value / 1e6) \
                else f"${value / 1e9:,.1f} billion" if unit == "million" and value >= 1e9 else f"${m.group(1)} {unit}"
            out.append({"label": _label(line, m.start()), "printed": f"${m.group(1)} {unit}", "said": said,
                        "unit": "billion" if "billion" in said else "million"})
        for m in NUM.finditer(line):
            printed = m.group(0).strip()
            negative = printed.startswith("(") and printed.endswith(")")
            number = _value(m.group(1))
            if m.group(2):
                out.append({"label": _label(line, m.start()), "printed": printed, "said": f"{m.group(1)} percent",
                            "unit": "percent"})
            elif caption and ("," in m.group(1) or negative):
                text, unit = _said(-number if negative else number, SCALE[caption.group(1).lower()])
                out.append({"label": _label(line, m.start()), "printed": printed, "said": text, "unit": unit})
    rng.shuffle(out)
    return out[:2]


def _change_digit(text: str, rng: random.Random) -> str | None:
    digits = [i for i, ch in enumerate(text) if ch.isdigit()]
    if not digits:
        return None
    i = rng.choice(digits[:2])
    new = str((int(text[i]) + rng.randint(1, 8)) % 10)
    if i == digits[0] and new == "0":
        new = "9"
    return text[:i] + new + text[i + 1:]


def _quote_of(chunk: str, rng: random.Random) -> str | None:
    from agent.no_model.extractive import split_sentences

    sentences = [s for s in split_sentences(chunk) if 8 <= len(s.split()) <= 40 and not re.search(r"[“”\"]", s)]
    return rng.choice(sentences) if sentences else None


def _change_word(quote: str, donor: str, rng: random.Random) -> str | None:
    words = quote.split()
    spots = [i for i, w in enumerate(words) if w.isalpha() and len(w) >= 5]
    pool = [w for w in set(donor.split()) if w.isalpha() and len(w) >= 5]
    if not spots or not pool:
        return None
    i = rng.choice(spots)
    options = [w for w in pool if w.lower() != words[i].lower()]
    if not options:
        return None
    words[i] = rng.choice(sorted(options))
    return " ".join(words)


def build_answers(hits_per_question: list[list[dict]], page_text, other_page_numbers, seed: int = 7) -> list[dict]:
    """Answers of labelled sentences: {"text", "sources": {marker: source}, "labels": [(variant, planted)]}."""
    from agent.page_text import squash

    rng = random.Random(seed)
    answers = []
    for hits in hits_per_question:
        for k, src in enumerate(hits):
            others = [h for h in hits if h["page_number"] != src["page_number"] or h["doc_id"] != src["doc_id"]]
            if not others:
                continue
            other = others[0]
            last = (src.get("extra") or {}).get("page_end") or src["page_number"]
            pages = [src["text"]] + [page_text({**src, "page_number": i}) or "" for i in range(src["page_number"], last + 1)]
            page = "\n".join(pages)
            sentences: list[tuple[str, str, bool]] = []  # (sentence, variant, planted)
            for fig in figure_claims(src["text"], page, rng):
                sentences.append((f"{fig['label']} was {fig['printed']} [^1].", "true printed", False))
                sentences.append((f"{fig['label']} was {fig['said']} [^1].", "true said", False))
                digit = _change_digit(fig["said"], rng)
                if digit and not _printed_on(digit, pages):
                    sentences.append((f"{fig['label']} was {digit} [^1].", "changed digit", True))
                if fig["unit"] in ("million", "billion"):
                    wrong = fig["said"].replace(fig["unit"], "million" if fig["unit"] == "billion" else "billion")
                    if not _printed_on(wrong, pages):
                        sentences.append((f"{fig['label']} was {wrong} [^1].", "wrong scale", True))
                far = other_page_numbers(src, rng)
                if far and not _printed_on(far, pages):
                    sentences.append((f"{fig['label']} was {far} [^1].", "other page", True))
            near = [(label, n) for label, n in _numbers_with_labels(other["text"]) if not _printed_on(n, pages)]
            if near:
                label, number = rng.choice(near)
                sentences.append((f"{label} was {number} [^1].", "uncited source", True))
            quote = _quote_of(src["text"], rng)
            if quote:
                sentences.append((f"The filing states “{quote}” [^1].", "true quote", False))
                changed = _change_word(quote, other["text"], rng)
                if changed and squash(changed) not in squash(page) and squash(changed) not in squash(src["text"]):
                    sentences.append((f"The filing states “{changed}” [^1].", "quote word changed", True))
            support = _quote_of(other["text"], rng)
            if not sentences or not support:
                continue
            text = "\n".join(f"- {s}" for s, _, _ in sentences) + f"\n- Also, “{support}” [^2]."
            answers.append({"text": text, "sources": {"[^1]": src, "[^2]": other},
                            "labels": [(v, p) for _, v, p in sentences] + [("true quote", False)]})
    return answers


def verbatim_problems(sentence: str, texts: list[str]) -> bool:
    """The baseline: every figure and quote as written must occur in a cited text as is."""
    whole = "\n".join(texts)
    quotes = re.findall(r"“([^”]+)”", sentence)
    rest = re.sub(r"“[^”]+”", " ", sentence)
    figures = [m.group(0).strip() for m in re.finditer(r"-?\(?\$?\d[\d,]*(?:\.\d+)?\)?(?:\s(?:million|billion|percent))?", rest)]
    figures = [f for f in figures if not re.fullmatch(r"(?:19|20)\d\d", f)]
    return any(q not in whole for q in quotes) or any(f not in whole for f in figures)


def score(answers: list[dict], page_text) -> dict:
    """Per variant: flagged share by the claim check and by the verbatim baseline; time per answer."""
    from agent.claims.check import CheckedSource, check_answer, cited_sentences
    from agent.source_text import source_texts

    tallies: dict[str, list[int]] = {}
    times = []
    for ans in answers:
        texts = {m: source_texts(s, page_text) for m, s in ans["sources"].items()}
        t0 = time.perf_counter()
        claims = check_answer(ans["text"], {m: CheckedSource(t) for m, t in texts.items()})
        times.append((time.perf_counter() - t0) * 1000)
        by_sentence = {c.marker_index: c for c in claims}
        for (sentence, where), (variant, _) in zip(cited_sentences(ans["text"]), ans["labels"]):
            claim = by_sentence.get(where.last_index)
            flagged = bool(claim and claim.problems)
            cited = [texts[m.text] for m in where.markers]
            baseline = verbatim_problems(sentence, [t for ts in cited for t in ts])
            row = tallies.setdefault(variant, [0, 0, 0])
            row[0] += 1
            row[1] += flagged
            row[2] += baseline
    return {"variants": tallies, "ms": times}


def print_report(title: str, result: dict) -> None:
    tallies, times = result["variants"], result["ms"]
    print(f"\n{title}: {len(times)} answers, check time per answer p50 {statistics.median(times):.1f} ms, "
          f"p95 {sorted(times)[int(0.95 * (len(times) - 1))]:.1f} ms")
    print(f"  {'variant':<22} {'n':>5} {'flagged (check)':>16} {'flagged (verbatim)':>19}")
    print("  (self-consistency only: planted errors are kept where a plain reader finds them unprinted, the old "
          "checker's own rule; the measure is --claims-hostile)")
    for group, names in (("planted (circular)", VARIANTS_PLANTED), ("true: false flags", VARIANTS_TRUE)):
        n = sum(tallies.get(v, [0])[0] for v in names)
        flagged = sum(tallies.get(v, [0, 0])[1] for v in names)
        base = sum(tallies.get(v, [0, 0, 0])[2] for v in names)
        print(f"  {group:<22} {n:>5} {flagged / max(n, 1):>16.3f} {base / max(n, 1):>19.3f}")
        for v in names:
            c = tallies.get(v, [0, 0, 0])
            print(f"    {v:<20} {c[0]:>5} {c[1] / max(c[0], 1):>16.3f} {c[2] / max(c[0], 1):>19.3f}")


# ---------------------------------------------------------------- runs


def retrieved_sources(questions: list[dict], docs: dict[str, str], k: int = 6) -> list[list[dict]]:
    """Each question's top chunks of its own filing, as the numbered sources a turn would cite."""
    from storage.retrieval.hybrid import HybridRetriever
    from storage.schema import Source

    out = []
    for q in questions:
        hits = HybridRetriever([docs[q["doc_name"]]], use_cache=False).search(q["question"], k=k)
        out.append([Source.from_retrieved(h).model_dump() for h in hits])
    return out


def other_page_picker():
    """`(source, rng) -> a number (with thousands separators) printed on another page of its filing`."""
    from storage.documents.catalog import load_page_texts

    cache: dict[str, list[str]] = {}

    def pick(src: dict, rng: random.Random) -> str | None:
        pages = cache.setdefault(src["doc_id"], load_page_texts(src["doc_id"]))
        own = set(range(src["page_number"], (src.get("extra") or {}).get("page_end", src["page_number"]) + 1))
        for _ in range(20):
            i = rng.randrange(len(pages))
            numbers = [n for _, n in _numbers_with_labels(pages[i])] if i not in own else []
            if numbers:
                return rng.choice(numbers)
        return None

    return pick


def no_model_answers(questions: list[dict], docs: dict[str, str], page_text, selection: str = "single") -> dict:
    """The dev questions answered with no model (agent.run.run_turn, `selection` of bench/selections.py: own
    filing, or every ingested filing of its company): every check the
    turn stored (all its sentences are true by construction), and the check's time per answer, timed
    again on the turn's cited chunks and pages read from the artifacts."""
    from agent.claims.check import check_turn
    from agent.run import run_turn
    from bench.selections import selected_ids
    from agent.state import AgentContext
    from storage.documents.catalog import load_chunks
    from storage.retrieval.hybrid import HybridRetriever
    from storage.schema import page_index

    context = AgentContext(llm=None, web=None, history=None, get_retriever=lambda ids: HybridRetriever(ids, use_cache=False))
    checked, flagged, times, flags = 0, 0, [], []
    chunks: dict[str, dict] = {}
    for q in questions:
        answer = run_turn(context, q["question"], selected_doc_ids=selected_ids(selection, q["doc_name"], docs))
        checked += len(answer.claims)
        for claim in answer.claims:
            if claim.problems:
                flagged += 1
                flags.append((q["question"][:60], claim.sentence[:160], [p.text for p in claim.problems]))
        registry = {}
        for c in answer.citations:
            m = c.metadata
            if not m.doc_id:
                continue
            if m.doc_id not in chunks:
                chunks[m.doc_id] = {ch.chunk_id: ch for ch in load_chunks(m.doc_id)}
            ch = chunks[m.doc_id].get(m.chunk_id) if m.chunk_id is not None else None
            registry[c.marker] = {"kind": c.kind, "doc_id": m.doc_id, "chunk_id": m.chunk_id, "page_number": page_index(m.page),
                                  "text": ch.text if ch else page_text({"doc_id": m.doc_id, "page_number": page_index(m.page)}),
                                  "extra": {"page_end": ch.page_end if ch else page_index(m.page)}}
        t0 = time.perf_counter()
        check_turn(answer, registry, page_text)
        times.append((time.perf_counter() - t0) * 1000)
    return {"checked": checked, "flagged": flagged, "flags": flags, "ms": times, "answers": len(questions)}


def run(data, work) -> None:
    """Both parts: planted answers from retrieved chunks, and the dev questions' no-model answers."""
    import json
    import logging

    from bench.answers import ingest, use_work_dir

    use_work_dir(work)
    logging.disable(logging.WARNING)
    docs = ingest(sorted((data / "pdfs").glob("*.pdf")), work)
    from agent.page_text import page_text_lookup

    questions = [json.loads(line) for line in (data / "questions.jsonl").read_text().splitlines() if line.strip()]
    page_text = page_text_lookup()
    answers = build_answers(retrieved_sources(questions, docs), page_text, other_page_picker())
    print_report("Planted answers from retrieved chunks (dev filings, own filing, top 6)", score(answers, page_text))
    for selection in ("single", "company"):
        result = no_model_answers(questions, docs, page_text, selection)
        times = sorted(result["ms"])
        print(f"\nNo-model answers of the dev questions ({result['answers']}, selection {selection}): {result['checked']} "
              f"cited sentences checked, {result['flagged']} flagged (false flags "
              f"{result['flagged'] / max(result['checked'], 1):.3f}); check time per answer p50 "
              f"{statistics.median(times):.1f} ms, p95 {times[int(0.95 * (len(times) - 1))]:.1f} ms")
        for question, sentence, problems in result["flags"]:
            print(f"  flagged: {question!r}: {sentence!r} {problems}")


def run_gold(pdf_dir, work) -> None:
    """The statements gold questions (bench/gold: 135 figures, 27 derived) answered with no model, each
    with its filing selected: every sentence the turn cites is printed on the page or computed from
    printed rows with its arithmetic shown, so each flag is a false flag (or a wrong answer line)."""
    import json
    import logging
    from pathlib import Path

    from bench.answers import ingest, use_work_dir

    use_work_dir(work)
    logging.disable(logging.WARNING)
    gold = Path(__file__).resolve().parent / "gold"
    sets = {name: [json.loads(line) for line in (gold / f"statements_{name}.jsonl").read_text().splitlines() if line.strip()]
            for name in ("figures", "derived")}
    docs = ingest(sorted({pdf_dir / q["file"] for qs in sets.values() for q in qs}), work)
    from agent.page_text import page_text_lookup

    page_text = page_text_lookup()
    for name, items in sets.items():
        questions = [{"question": q["question"], "doc_name": Path(q["file"]).stem} for q in items]
        result = no_model_answers(questions, docs, page_text)
        times = sorted(result["ms"])
        print(f"\nNo-model answers of the statements gold, {name} ({result['answers']}): {result['checked']} cited sentences "
              f"checked, {result['flagged']} flagged ({result['flagged'] / max(result['checked'], 1):.3f}); check time per "
              f"answer p50 {statistics.median(times):.1f} ms, p95 {times[int(0.95 * (len(times) - 1))]:.1f} ms")
        for question, sentence, problems in result["flags"]:
            print(f"  flagged: {question!r}: {sentence!r} {problems}")


# ---------------------------------------------------------------- hostile claims from the human-read gold
#
#   python -m bench.citations --claims-hostile --work /work/benchwork [--baseline-rev fe96e53 | none]
#
# The truth of every sentence comes from bench/gold/statements_figures.jsonl (and statements_more_figures.*.jsonl):
# a person read the item's value, period and unit off the page. Other numbers of the page (another row, the
# row's prior-year column, a footnote, a year header, a per-share amount) are read from the PDF's words with
# a plain line grouping below, never with the product's table reader or the checker.

@dataclass(frozen=True)
class ClaimClass:
    """A class of test sentences: its name (the label the generators write), whether the check must flag it
    (a planted error) or pass it (a true form), and the functions writing it."""

    name: str
    planted: bool
    generators: tuple[str, ...]


_H, _W, _E = "hostile_cases", "wider_forms", "claims_everyday.everyday_forms"
CLAIM_CLASSES = (
    ClaimClass("other row", True, (_H, _W)), ClaimClass("prior-year column", True, (_H,)),
    ClaimClass("footnote", True, (_H,)), ClaimClass("year header x caption", True, (_H,)),
    ClaimClass("per-share x caption", True, (_H,)), ClaimClass("wrong scale", True, (_H, _W)),
    ClaimClass("wrong direction", True, (_H, _W)), ClaimClass("points for percent", True, (_H,)),
    ClaimClass("wrong unit", True, (_H,)), ClaimClass("wrong currency", True, (_H,)),
    ClaimClass("spliced quote", True, (_H,)), ClaimClass("single-quoted quote", True, (_H,)),
    ClaimClass("unmarked sentence", True, (_H,)), ClaimClass("Q-number item", True, (_H,)),
    ClaimClass("label with another row's value", True, (_H, _W)),
    ClaimClass("direction against a printed change", True, ("printed_change_forms",)),
    ClaimClass("scale words", False, (_H, _W, _E)), ClaimClass("rounding", False, (_H, _W, _E)),
    ClaimClass("parentheses", False, (_H, _W)), ClaimClass("change without arithmetic", False, (_H, _W, _E)),
    ClaimClass("arithmetic over bare inputs", False, (_H,)), ClaimClass("(Millions) caption", False, (_H,)),
    ClaimClass("cell as printed", False, (_H, _W, _E)), ClaimClass("quoted label", False, (_H, _W, _E)),
    ClaimClass("unmarked sentence (true)", False, (_H,)), ClaimClass("Q-number item (true)", False, (_H,)),
    ClaimClass("printed change, its direction", False, ("printed_change_forms",)),
)
CLASS_BY_NAME = {c.name: c for c in CLAIM_CLASSES}
_WORD_NUM = re.compile(r"^\(?\$?\(?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d+)\)?%?$")
_YEAR_WORD = re.compile(r"^(?:19|20)\d\d$")
_MILLIONS_CAPTION = re.compile(r"\(\s*(?:\$\s*)?(?:in\s+)?millions?\s*\)|\(\s*dollars\s+in\s+millions", re.I)
_GOLD_SCALE = {"USD billions": 1e9, "USD millions": 1e6, "millions": 1e6, "USD thousands": 1e3, "USD per share": 1.0, "USD": 1.0}
_VERBS_UP = ("rose", "increased", "grew", "climbed")
_VERBS_DOWN = ("fell", "decreased", "declined", "dropped")
ANSWER_SENTENCES = 6  # test sentences per answer (a few true and planted ones mixed, in random order)
_GENERIC_ITEM = "Revenue is recognized when control of the promised goods or services transfers to the customer."


def _word_value(text: str) -> tuple[float, str] | None:
    m = _WORD_NUM.match(text)
    if not m:
        return None
    return float(m.group(1).replace(",", "")), m.group(1)


def pdf_lines(page) -> list[dict]:
    """The page's words in visual lines: {"y", "words": [(x0, x1, text)], "label", "numbers": [(xc, value, printed)]}."""
    words = sorted(page.get_text("words"), key=lambda w: ((w[1] + w[3]) / 2, w[0]))
    groups: list[list] = []
    for w in words:
        yc = (w[1] + w[3]) / 2
        # one line: centres within 2.5 pt, or boxes overlapping by half a word's height (a page whose numbers
        # sit 3 pt below their labels' baseline)
        if groups and (abs(groups[-1][0] - yc) <= 2.5 or
                       min(groups[-1][2], w[3]) - max(groups[-1][3], w[1]) >= 0.5 * min(w[3] - w[1], groups[-1][2] - groups[-1][3])):
            groups[-1][1].append(w)
        else:
            groups.append([yc, [w], w[3], w[1]])
    out = []
    for yc, ws, *_ in groups:
        ws.sort(key=lambda w: w[0])
        numbers, label, before, valued, remark, raw = [], [], 0, False, 0, {}
        for w in ws:
            v = _word_value(w[4])
            if v is not None and not (_YEAR_WORD.match(w[4]) and not numbers and not label):
                # digits only ("(1,349" -> "1,349"), the value signed: a parenthesis or minus is negative
                numbers.append(((w[0] + w[2]) / 2, -v[0] if re.search(r"[(\-−]", w[4]) else v[0], v[1]))
                raw[numbers[-1][0]] = w[4]
                valued = valued or not remark  # a number in the label's remark "(includes $1,210 of VIEs)" is no value
            elif _LABEL_WORD.search(w[4]):  # "&" is a word of the label ("Defense, Space & Security")
                label.append(w[4])
                before += 0 if valued else 1
                remark = max(0, remark + w[4].count("(") - w[4].count(")"))
        # the row's label is printed before its values ("FedEx Freight segment 20.0% 17.4% 260 bp": no "bp")
        out.append({"y": yc, "words": [(w[0], w[2], w[4]) for w in ws], "label": " ".join(label),
                    "lead": " ".join(label[:before] or label), "numbers": numbers, "raw": raw})
    return out


_LABEL_WORD = re.compile(r"[A-Za-z]|^&$")


def _header_years(lines: list[dict], i: int) -> list[tuple[float, int]]:
    """The years of the column header over row `i`: the nearest line above printing two or more years, as (x centre,
    year) from left to right."""
    for line in reversed(lines[:i]):
        if len(re.findall(r"[A-Za-z]{2,}", line["label"])) >= 8:
            continue  # prose: "… each of the four quarters of 2015 and 2014 …"
        years = [((x0 + x1) / 2, int(t)) for x0, x1, t in line["words"] if _YEAR_WORD.match(t)]
        if len(years) >= 2:
            return years
    return []


def _prior_by_header(row: dict, xc: float, years: list[tuple[float, int]], gold_year: int, percent: bool):
    """The prior year's value of the gold column, read from the header's years by column order: one year per column
    ("2022 2023 | 2022 2023" of three and twelve months: the year before in the gold column's own group, the run of
    columns before a year repeats), or one year over as many columns each ("2016" over four quarters, "2015" over
    four: the same quarter a year before). A percentage column beside amounts ("Actual ∆%") is none of them; a footnote
    mark after the label ("(9)") no value. -> (value, printed) or None when the header does not name the columns."""
    cols = sorted(c for c in row["numbers"] if percent or "%" not in row["raw"].get(c[0], ""))
    while len(cols) > len(years) and re.fullmatch(r"\(\d\)", row["raw"].get(cols[0][0], "")):
        cols = cols[1:]
    k0 = next((k for k, c in enumerate(cols) if c[0] == xc), None)
    if k0 is None or not years:
        return None
    ys = [y for _, y in years]
    if len(cols) == len(ys) and all(abs(hx - c[0]) < 80 for (hx, _), c in zip(years, cols)):
        group, seen, groups = 0, set(), []
        for y in ys:
            if y in seen:
                group, seen = group + 1, set()
            seen.add(y)
            groups.append(group)
        if ys[k0] != gold_year:
            return None
        same = [c for c, y, g in zip(cols, ys, groups) if g == groups[k0] and y == gold_year - 1]
        return (same[0][1], same[0][2]) if len(same) == 1 else None
    if len(ys) >= 2 and len(set(ys)) == len(ys) and len(cols) % len(ys) == 0 and len(cols) > len(ys):
        m = len(cols) // len(ys)
        spans = [cols[k * m:(k + 1) * m] for k in range(len(ys))]
        if not all(span[0][0] - 40 <= hx <= span[-1][0] + 40 for (hx, _), span in zip(years, spans)):
            return None
        if ys[k0 // m] != gold_year or gold_year - 1 not in ys:
            return None
        c = cols[ys.index(gold_year - 1) * m + k0 % m]
        return c[1], c[2]
    return None


def _alpha_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]{3,}", text.lower())} - {"the", "and", "total", "net", "for", "less"}


def _clean_item(item: str) -> str:
    item = re.sub(r"\([^)]*\)|['‘’\"“”]", " ", item)
    item = re.sub(r"(?:^|\s)/|/(?=\s|$)", " ", item)  # "(Loss)/earnings" -> "earnings", not "/earnings"
    return " ".join(item.split()).strip(" :-–")


_LINKING_END = re.compile(r"(?i)\b(?:of|was|were|is|totaled|to|at|by)$")  # "GAAP Net Income of" $1,048 million


def gold_rows(gold: dict, page) -> dict | None:
    """The gold figure's printed row and the page's other numbers, read from the PDF's words."""
    lines = pdf_lines(page)
    digits = gold["value"].strip("()$-").replace("$", "")
    want = _alpha_words(gold["line_item"])
    best, best_score, heading = None, (False, -1, -1), ""
    for i, line in enumerate(lines):
        if line["label"] and not line["numbers"]:
            heading = line["label"]  # "Diluted earnings per share:" over a "Net income" row
        for k, (xc, v, printed) in enumerate(line["numbers"]):
            if printed == digits:
                # a table's row before a sentence printing the number ("… loss from operations was $6,657 million in
                # 2019 compared with …", a bullet "GAAP Net Income of $1,048 million; GAAP diluted EPS of 70.5 cps"):
                # a sentence's words are no row label; then the label's words, then its heading's: the diluted
                # "Net income" row, not the basic one above
                after = [t for x0, _, t in line["words"] if x0 > xc and re.search(r"[A-Za-z]{2,}", t)]
                prose = len(after) >= 3 or bool(after and re.match(r"(?i)(?:million|billion|thousand)\b", after[0])) \
                    or bool(_LINKING_END.search(" ".join(t for _, x1, t in line["words"] if x1 < xc and _LABEL_WORD.search(t))))
                score = (not prose, len(want & _alpha_words(line["label"])), len(want & _alpha_words(heading)))
                if score > best_score:
                    best, best_score = (i, k), score
    if best is None or not best_score[0] or (best_score[1] == 0 and want):
        return None  # printed only in prose, or in no row naming the item
    i, k = best
    row = lines[i]
    xc = row["numbers"][k][0]
    years = [(w, line["y"]) for line in lines[:i] for w in line["words"] if _YEAR_WORD.match(w[2])]

    def year_of(x: float) -> int | None:
        near = [(abs((w[0] + w[1]) / 2 - x), -y, int(w[2])) for w, y in years if abs((w[0] + w[1]) / 2 - x) < 45]
        return min(near)[2] if near else None

    gold_year = int(re.findall(r"(?:19|20)\d\d", gold["period"] or "")[-1]) if re.search(r"(?:19|20)\d\d", gold["period"] or "") else None
    prior = None
    percent = gold.get("unit") == "%"
    by_header = _prior_by_header(row, xc, _header_years(lines, i), gold_year, percent) if gold_year is not None else None
    if by_header is not None:
        prior = {"value": by_header[0], "printed": by_header[1], "year": gold_year - 1}
    elif gold_year is not None and year_of(xc) == gold_year:
        # the year before in the gold column's own group: the first such column to its right (statements print
        # the newest first) before another column of the gold's year, else to its left likewise
        cols = sorted(c for c in row["numbers"] if percent or c[0] == xc or "%" not in row["raw"].get(c[0], ""))
        k0 = next(k for k, c in enumerate(cols) if c[0] == xc)
        pick = None
        for side in (cols[k0 + 1:], list(reversed(cols[:k0]))):
            for x, v, p in side:
                y = year_of(x)
                if y == gold_year:
                    break
                if y == gold_year - 1:
                    pick = (v, p)
                    break
            if pick:
                break
        if pick:
            pv, pp = pick
            prior = {"value": pv, "printed": pp, "year": gold_year - 1}
    value = float(digits.replace(",", ""))
    # another row: not one printing the same label (a segment's "Operating income" under another segment's
    # heading, "Term debt" among current and among non-current liabilities), which no sentence tells apart
    def item_of(lead: str) -> str:  # "Total operating income" is the item "Operating income" of a segment's row
        # and a release's bullet "• GAAP Net Income of $1,048 million" the "Net income" of its GAAP table, which a
        # sentence saying "Net income" names as much as the adjusted table's row
        lead = _LINKING_END.sub("", lead.lower().strip(" •·▪-–")).strip()
        return re.sub(r"^(?:total|gaap)\s+", "", lead)

    table_lines = [ln for j, ln in enumerate(lines) if j != i and len(ln["numbers"]) >= 2 and ln["label"]
                   and item_of(ln["lead"]) != item_of(row["lead"])]
    # another row's amount of the same order (share counts in thousands beside amounts in millions are left out)
    others = [(p, abs(v), ln["y"]) for ln in table_lines for _, v, p in ln["numbers"]
              if "," in p and abs(abs(v) - value) > 0.005 * value and (prior is None or abs(v) != abs(prior["value"]))
              and value / 100 <= abs(v) <= value * 100]
    prose = [ln for ln in lines if len(re.findall(r"[A-Za-z]{2,}", ln["label"])) >= 8]
    footnotes = [p for ln in prose for _, v, p in ln["numbers"] if abs(abs(v) - value) > 0.005 * value and abs(v) >= 1
                 and not _YEAR_WORD.match(p) and not p.endswith("%")]
    per_share = [p for ln in lines for _, v, p in ln["numbers"]
                 if re.fullmatch(r"\d{1,3}\.\d\d", p) and re.search(r"(?i)per share|diluted|basic", ln["label"])]
    label = " ".join(w for w in row["lead"].split() if not re.fullmatch(r"\$|\(\d\)", w))
    label = re.sub(r"\s*\((?:[^()]*\s){2,}[^()]*\)", "", label)  # a remark whose numbers were left out
    if re.sub(r"\s+", " ", gold["line_item"]).lower() in re.sub(r"\s+", " ", page.get_text()).lower():
        label = gold["line_item"]  # the person's reading of the label, when printed as such
    # a label printed over two lines: the line above has words and no numbers, and this line's label goes on
    # in lower case ("Net cash provided by operating" / "activities 12,345")
    above = lines[i - 1] if i else None
    two_lines = (f"{above['label']} {row['lead']}" if above and above["label"] and not above["numbers"]
                 and re.match(r"[a-z]", row["lead"]) and not above["label"].rstrip().endswith(":")  # a heading
                 and len(above["label"].split()) <= 10 else "")
    if two_lines and label != gold["line_item"]:
        label = two_lines  # the label as a person reads it, over both lines
    # the row as printed: the words before its first value (footnote marks, "$" dropped) and the value's word
    lead_words, printed_words = len(row["lead"].split()), []
    for _, _, t in row["words"]:
        if lead_words <= 0 and not re.fullmatch(r"\(?(?:\d|[a-z])\)|\*+", t):
            break  # after the label only its footnote marks ("(1)", "(a)", "*")
        if _LABEL_WORD.search(t):
            lead_words -= 1
        if t != "$":
            printed_words.append(t)
    marks = " ".join(printed_words)
    value_word = next((t for x0, x1, t in row["words"] if abs((x0 + x1) / 2 - xc) < 1), gold["value"])
    # "$(1,304)" is negative too (a loss said "net income of $1.30 billion" is no true claim): sign read past a "$"
    printed = re.sub(r"^\$\s?(?=[(\-−])", "", gold["value"])
    return {"label": label, "y": row["y"], "value": value, "printed": printed, "negative": printed.startswith(("(", "-", "−")),
            "prior": prior, "year": gold_year, "column_year": year_of(xc), "others": others, "footnotes": footnotes,
            "per_share": per_share, "text": page.get_text(), "two_lines": two_lines, "as_printed": marks,
            "value_word": value_word, "changes": _percent_words(row["words"])}


def _percent_words(words: list[tuple]) -> list[str]:
    """The percentages a printed row shows ("(51.4)%", "12 %", "-3%"), as printed, "%" joined to its number."""
    texts = [t for _, _, t in words]
    out = []
    for k, t in enumerate(texts):
        if re.fullmatch(r"\(?[-−]?\d{1,3}(?:\.\d+)?\)?%\)?", t):
            out.append(t)
        elif re.fullmatch(r"\(?[-−]?\d{1,3}(?:\.\d+)?\)?", t) and k + 1 < len(texts) and texts[k + 1].startswith("%"):
            out.append(t + texts[k + 1])
    return out


def _said_money(units: float, printed: str, rng: random.Random) -> str:
    """An amount as people write it with a scale word: "$394.3 billion", "$394,328 million"."""
    from bench.claims_everyday import said_amount

    if units >= 1e9 and rng.random() < 0.6:
        return said_amount(units, "billion", rng.choice((1, 2)))
    if units >= 1e6:
        places = len(printed.split(".")[1]) if "." in printed and units >= 1e8 else (1 if units < 1e8 else 0)
        return said_amount(units, "million", places)
    return said_amount(units, "thousand", 0)


_ROUNDED = ((1e9, "billion", 0, "about "), (1e8, "billion", 1, "roughly "), (0.0, "million", 0, "approximately "))


def _scale_word(scale: float) -> str:
    return {1e6: "million", 1e3: "thousand"}.get(scale, "")


def _period_phrase(gold: dict, year: int | None, rng: random.Random) -> str:
    period = (gold.get("period") or "").strip()
    if gold.get("statement") == "balance":
        return rng.choice([f"as of {period.replace('As of ', '').replace('as of ', '')}" if period else "",
                           f"at the end of fiscal {year}" if year else ""]).strip()
    if period and re.search(r"(?i)(?:three|six|nine|twelve) months|quarter", period):
        return f"for the {period[0].lower()}{period[1:]}"
    return rng.choice([f"in fiscal {year}", f"for {year}", f"for the {period[0].lower()}{period[1:]}" if period else f"in {year}"]) \
        if year else ""


def _sentence(item: str, fig: str, period: str, rng: random.Random, marker: str = " [^1]") -> str:
    templates = ("{I} was {F} {P}{M}.", "{I} came to {F} {P}{M}.", "{Pc}, {i} totaled {F}{M}.",
                 "The company reported {i} of {F} {P}{M}.", "{I} amounted to {F} {P}.{M}")
    t = rng.choice(templates if period else templates[:2])
    cap = lambda s: s[:1].upper() + s[1:]
    return " ".join(t.format(I=cap(item), i=item[:1].lower() + item[1:] if not item[:2].isupper() else item, F=fig,
                             P=period, Pc=cap(period), M=marker).split()).replace(" .", ".")


def hostile_cases(gold_items: list[dict], pdf_dirs: list, docs: dict[str, str], seed: int = 11,
                  everyday: bool = True) -> list[dict]:
    """One answer per gold figure: {"file", "text", "registry", "labels": [(sentence, class, planted)]}."""
    import pymupdf
    from agent.page_text import squash
    from bench.claims_everyday import everyday_forms, said_amount, said_by_size
    from storage.documents.catalog import load_chunks
    from storage.schema import Source

    rng = random.Random(seed)
    cases = []
    opened: dict[str, object] = {}
    chunks: dict[str, list] = {}
    for n, gold in enumerate(gold_items):
        if not gold.get("value") or gold["file"].rsplit(".", 1)[0] not in docs:
            continue
        path = next((d / gold["file"] for d in pdf_dirs if (d / gold["file"]).exists()), None)
        if path is None:
            continue
        doc = opened.setdefault(gold["file"], pymupdf.open(path))
        if not 0 <= gold["page"] < doc.page_count:
            continue
        row = gold_rows(gold, doc[gold["page"]])
        if row is None:
            continue
        doc_id = docs[gold["file"].rsplit(".", 1)[0]]
        if doc_id not in chunks:
            chunks[doc_id] = load_chunks(doc_id)
        on_page = [c for c in chunks[doc_id] if c.page_number <= gold["page"] <= (c.page_end or c.page_number)]
        if not on_page:
            continue
        chunk = max(on_page, key=lambda c: (gold["value"].strip("()") in c.text, len(c.text)))
        src = Source(kind="document", source_id="[^1]", text=chunk.text, title=gold["file"], doc_id=doc_id,
                     source_file=chunk.source_file, page_number=chunk.page_number, chunk_id=chunk.chunk_id,
                     chunk_type=chunk.chunk_type, extra={"page_end": chunk.page_end}).model_dump()
        scale = _GOLD_SCALE.get(gold["unit"], 1.0 if gold["unit"] == "%" else None)
        if scale is None:
            continue
        per_share = gold["unit"] == "USD per share"
        percent = gold["unit"] == "%"
        units = row["value"] * scale
        item = _clean_item(gold["line_item"])
        if per_share and not re.search(r"(?i)share", item):
            item = f"{item.lower()} earnings per share"
        year = row["year"]
        period = _period_phrase(gold, year, rng)
        label = row["label"] or item
        millions_caption = bool(_MILLIONS_CAPTION.search(row["text"]))
        labels: list[tuple[str, str, bool]] = []

        def add(sentence: str, cls: str, planted: bool) -> None:
            labels.append((sentence, cls, planted))

        def money(u: float) -> str:
            return f"${u:,.2f}" if per_share else _said_money(u, row["printed"], rng)

        def wrong_money(u: float) -> str | None:
            """An amount said for a planted error, never one that rounds to the true value."""
            said = money(u)
            m = re.search(r"([\d,]+(?:\.(\d+))?)\s*(billion|million|thousand)?", said)
            scale_ = {"billion": 1e9, "million": 1e6, "thousand": 1e3}.get(m.group(3) or "", 1.0)
            half = 0.5 * 10 ** -len(m.group(2) or "") * scale_
            return None if abs(float(m.group(1).replace(",", "")) * scale_ - units) <= half * 1.001 else said

        neg = "-" if row["negative"] else ""
        true_fig = f"-{money(units)}" if row["negative"] else money(units)
        if percent:
            true_fig = f"{row['printed'].strip('%')}%"
        # true forms
        if not percent:
            if row["negative"]:
                for form in (f"-{money(units)}", f"${row['printed']} {_scale_word(scale)}".strip(), f"an outflow of {money(units)}"):
                    add(_sentence(item, form, period, rng), "parentheses", False)
            else:
                add(_sentence(item, money(units), period, rng), "(Millions) caption" if millions_caption else "scale words", False)
                if units >= 1e6:
                    add(_sentence(item, said_amount(units, "million", len(row["printed"].split(".")[1]) if "." in row["printed"] else 0),
                                  period, rng), "(Millions) caption" if millions_caption else "scale words", False)
                if not per_share:
                    add(_sentence(item, said_by_size(units, _ROUNDED), period, rng), "rounding", False)
        add(f"- {label} ({gold.get('period') or year}): {row['printed']} [^1]", "cell as printed", False)
        quote_mark = rng.choice([("“", "”"), ("‘", "’"), ("'", "'"), ('"', '"')])
        add(f"The statement's line {quote_mark[0]}{label}{quote_mark[1]} shows {true_fig} {period} [^1].", "quoted label", False)
        add(f"{_sentence(item, true_fig, period, rng)} {_sentence(item, true_fig, period, rng, marker='')}",
            "unmarked sentence (true)", False)
        knowledge = {}
        kfig = f"${row['printed'].strip('()')} {_scale_word(scale)}".strip() if not percent else row["printed"]
        knowledge["Q302"] = f"{item} was {neg}{kfig} {period}."
        add(_sentence(item, true_fig, period, rng, marker=" (Q302)"), "Q-number item (true)", False)
        prior = row["prior"]
        if prior and not per_share and not percent and prior["value"] and prior["value"] != row["value"]:
            cur, pri = (-row["value"] if row["negative"] else row["value"]), prior["value"]
            diff = cur - pri
            pct = diff / abs(pri) * 100
            up = diff > 0
            verb, wrong_verb = rng.choice(_VERBS_UP if up else _VERBS_DOWN), rng.choice(_VERBS_DOWN if up else _VERBS_UP)
            since = f"from fiscal {prior['year']}"
            if not row["negative"] and pri > 0:
                add(f"{item[:1].upper() + item[1:]} {verb} {abs(pct):.1f}% {since} [^1].", "change without arithmetic", False)
                add(f"{item[:1].upper() + item[1:]} {verb} by {money(abs(diff) * scale)} {since} to {money(units)} [^1].",
                    "change without arithmetic", False)
                add(rng.choice([f"{item[:1].upper() + item[1:]} {verb} by {abs(diff):,.0f} ({row['printed']} − {prior['printed']}) [^1].",
                                f"{item[:1].upper() + item[1:]} changed by {row['printed']} − {prior['printed']} = {diff:,.0f} [^1]."]),
                    "arithmetic over bare inputs", False)
                add(f"{item[:1].upper() + item[1:]} {wrong_verb} {abs(pct):.1f}% {since} [^1].", "wrong direction", True)
                add(f"{item[:1].upper() + item[1:]} {wrong_verb} to {money(units)} {period} {since} [^1].", "wrong direction", True)
                add(f"{item[:1].upper() + item[1:]} {verb} {abs(pct):.1f} percentage points {since} [^1].", "points for percent", True)
            if said := wrong_money(abs(pri) * scale):
                add(_sentence(item, said, period, rng), "prior-year column", True)
        if not percent:
            others = [(p, float(p), 0.0) for p in row["per_share"] if float(p) != row["value"]] if per_share else row["others"]
            if others:
                p, v, y = rng.choice(others)
                if said := wrong_money(v * scale):
                    add(_sentence(item, said, period, rng), "other row", True)
                add(f"- {label} ({gold.get('period') or year}): {p} [^1]", "label with another row's value", True)
                after = [o for o in others if o[2] > row["y"]] or others
                p2 = rng.choice(after)[0]
                add(f"The statement shows “{label} … {p2}” {period} [^1].", "spliced quote", True)
                if said := wrong_money(v * scale):
                    add(f"{_sentence(item, money(abs(units)), period, rng)} {_sentence(item, said, period, rng, marker='')}",
                        "unmarked sentence", True)
            if row["footnotes"] and scale > 1:
                p = rng.choice(row["footnotes"])
                add(_sentence(item, f"${p} {_scale_word(scale)}", period, rng), "footnote", True)
            if year and scale > 1:
                add(_sentence(item, f"${row['column_year'] or year:,} {_scale_word(scale)}", period, rng), "year header x caption", True)
            if row["per_share"] and scale > 1 and not per_share:
                add(_sentence(item, f"${rng.choice(row['per_share'])} {_scale_word(scale)}", period, rng), "per-share x caption", True)
            if not per_share:
                wrong = rng.choice([f"${row['printed'].strip('()')} billion" if scale == 1e6 else f"${row['printed'].strip('()')} million",
                                    f"${row['printed'].strip('()')}", f"${units / 1e6 / 1000:,.1f} million" if units >= 1e9 else f"${units / 1e6:,.0f} billion"])
                add(_sentence(item, wrong, period, rng), "wrong scale", True)
            digits = row["printed"].strip("()")
            add(rng.choice([f"The company employed {digits} people {period} [^1].",
                            f"The company's facilities covered {digits} square feet {period} [^1]."]), "wrong unit", True)
            add(_sentence(item, rng.choice(["€", "£"]) + money(abs(units))[1:], period, rng), "wrong currency", True)
        words = label.split()
        for extra in ("adjusted", "consolidated", "recurring", "gross"):
            changed = " ".join(words[:-1] + [extra] + words[-1:]) if len(words) > 1 else f"{extra} {label}"
            if squash(changed) not in squash(row["text"]):
                q = rng.choice([("‘", "’"), ("'", "'")])
                add(f"The filing reports {q[0]}{changed}{q[1]} of {true_fig} {period} [^1].", "single-quoted quote", True)
                break
        knowledge["Q301"] = _GENERIC_ITEM
        add(_sentence(item, true_fig, period, rng, marker=" (Q301)"), "Q-number item", True)
        registry = {"[^1]": src}
        for q, (qid, label_) in zip(("Q301", "Q302"), (("Q301", "8.1"), ("Q302", "8.2"))):
            registry[qid] = {"kind": "knowledge", "source_id": qid, "title": f"About {item}", "text": knowledge[q],
                             "extra": {"label": label_, "q_id": qid, "answer": knowledge[q]}}
        # more of the ways people write each form (a generator of its own, so the forms above read as before)
        labels += wider_forms(item, label, row, gold, period, scale, per_share, percent, random.Random(f"{seed}-{n}"))
        rng.shuffle(labels)
        if everyday:  # placed with a generator of their own, so the sentences above read as before
            more = random.Random(f"{seed}-{n}-everyday")
            for form in everyday_forms(item, label, row, gold, period, scale, per_share, percent, more):
                labels.insert(more.randrange(len(labels) + 1), form)
        parts = [labels[k:k + ANSWER_SENTENCES] for k in range(0, len(labels), ANSWER_SENTENCES)]
        # a change the row prints in percent, said with its direction and against it: an answer of its own, so every
        # answer above reads as before
        parts.append(printed_change_forms(item, row, percent or per_share, random.Random(f"{seed}-{n}-printed")))
        for part in filter(None, parts):  # answers of the length models write
            text = "\n".join(s if s.startswith("- ") else f"- {s}" for s, _, _ in part)
            cases.append({"file": gold["file"], "text": text, "registry": registry,
                          "labels": [[s, c, p] for s, c, p in part]})
    return cases


def printed_change_forms(item: str, row: dict, skip: bool, rng: random.Random) -> list[tuple[str, str, bool]]:
    """A year-over-year change the gold row prints as a percentage ("$ (1,367.8) (18)%"), said with the printed
    direction ("fell 18%", true) and against it ("rose 18%" for a printed (18)%, planted). Only a percentage that is
    the change of the row's two columns (the gold value and the year before, both read from the page's words) at
    its printed precision; none for rows that are percentages or per-share amounts themselves (`skip`)."""
    prior = row.get("prior")
    if skip or not prior or not prior["value"]:
        return []
    cur = -row["value"] if row["negative"] else row["value"]
    change = (cur - prior["value"]) / abs(prior["value"]) * 100
    for word in row.get("changes", []):
        digits = re.sub(r"[^\d.]", "", word)
        negative = word.startswith(("(", "-", "−"))
        half = 0.5 * 10 ** -(len(digits.split(".")[1]) if "." in digits else 0)
        if not digits or negative != (change < 0) or abs(abs(change) - float(digits)) > half + 1e-9:
            continue
        since = rng.choice([f"from fiscal {prior['year']}", "year over year", f"versus {prior['year']}"])
        said, wrong = (_VERBS_DOWN, _VERBS_UP) if negative else (_VERBS_UP, _VERBS_DOWN)
        return [(f"{_cap(item)} {rng.choice(said)} {digits}% {since} [^1].", "printed change, its direction", False),
                (f"{_cap(item)} {rng.choice(wrong)} {digits}% {since} [^1].", "direction against a printed change", True)]
    return []


def _places(printed: str) -> int:
    digits = printed.strip("()$%")
    return len(digits.split(".")[1]) if "." in digits else 0


def _scale_forms(units: float, printed: str, scale: float) -> list[str]:
    """An amount with its scale as people abbreviate it: "$34.2bn", "$34.2B", "$34,229M", "$34,229 (in millions)"."""
    digits = printed.strip("()$")
    out = []
    if units >= 1e9:
        out += [f"${units / 1e9:,.1f}bn", f"${units / 1e9:,.1f}B", f"US${units / 1e9:,.2f} billion"]
    if scale == 1e6:
        out += [f"${digits}M", f"${digits} (in millions)", f"${digits}mn"]
    elif scale == 1e3:
        out += [f"${digits} thousand", f"${digits}K"]
    if units >= 1e7:
        out.append(f"{units / 1e6:,.0f} million dollars")
    return out


def _rounding_forms(units: float) -> list[str]:
    """An amount rounded as people round it: to 0, 1 or 2 decimals of billions, to whole millions, to a tenth of a million."""
    from bench.claims_everyday import said_amount

    out = []
    if units >= 1e9:
        out += [said_amount(units, "billion", 0), said_amount(units, "billion", 1), said_amount(units, "billion", 2, "about ")]
    elif units >= 1e8:
        out += [said_amount(units, "billion", 1), said_amount(units, "million", 0, "around ")]
    if 1e6 <= units < 1e10:
        out.append(said_amount(units, "million", 0 if units >= 1e8 else 1))
    return out


def wider_forms(item: str, label: str, row: dict, gold: dict, period: str, scale: float, per_share: bool,
                percent: bool, rng: random.Random) -> list[tuple[str, str, bool]]:
    """More of the ways people write each true form, and planted errors of the same shapes: abbreviated scales
    ("$34.2bn", "$34,229M", "(in millions)"), rounding to 0-2 decimals, a change as "up 12%", "compared with",
    "an increase of", points for a percentage row, a cell with its footnote marks and "$", a quoted label in
    another case, in part, or over its two printed lines. All read from the gold row, never from the checker."""
    out: list[tuple[str, str, bool]] = []
    units = row["value"] * scale
    when = gold.get("period") or row["year"]
    Item = _cap(item)
    digits = row["printed"].strip("()$%")

    def dollars(u: float) -> str:
        return f"${u:,.2f}" if per_share else _said_money(u, row["printed"], rng)

    if percent:  # a percentage printed negative ("(5)" under "Reported ∆%", "(8.5)%") keeps its sign
        sign = "-" if row["negative"] else ""
        fig = f"{sign}{digits}%"
        out.append((_sentence(item, f"{sign}{digits} percent", period, rng), "scale words", False))
        if _places(digits):
            out.append((_sentence(item, f"about {sign}{row['value']:.0f}%", period, rng), "rounding", False))
    elif per_share:
        fig = f"${digits}"
        out.append((f"{Item} was {fig} per share {period} [^1].", "scale words", False))
        out.append((_sentence(item, f"about ${row['value']:.1f}", period, rng), "rounding", False))
    elif not row["negative"]:
        fig = dollars(units)
        for form in rng.sample(_scale_forms(units, row["printed"], scale), k=min(2, len(_scale_forms(units, row["printed"], scale)))):
            out.append((_sentence(item, form, period, rng), "scale words", False))
        for form in rng.sample(_rounding_forms(units), k=min(2, len(_rounding_forms(units)))):
            out.append((_sentence(item, form, period, rng), "rounding", False))
        if scale > 1:  # the planted twin: the abbreviation a scale off
            wrong = f"${digits}B" if scale == 1e6 else f"${digits}M"
            out.append((_sentence(item, wrong, period, rng), "wrong scale", True))
    else:
        fig = f"-{dollars(units)}"
        out.append((_sentence(item, f"({dollars(units)})", period, rng), "parentheses", False))
        out.append((f"{Item} was a use of {dollars(units)} {period} [^1].", "parentheses", False))

    # a cell as printed: footnote marks and "$" as on the page, the label in lower case or over its two lines
    cells = [f"- {row['as_printed'] or label} ({when}): {row['value_word']} [^1]", f"- {label.lower()} ({when}): {row['printed']} [^1]"]
    if not percent and not row["negative"]:
        cells.append(f"- {label} ({when}): ${digits} [^1]")
    if row["two_lines"]:
        cells.append(f"- {row['two_lines']} ({when}): {row['printed']} [^1]")

    # a quoted label written another way (its short form also as a cell)
    words = label.split()
    quoted = [label.lower(), label.title(), label.upper() if len(words) <= 4 else label.lower()]
    if words and words[0].lower() == "total" and len(words) >= 3:
        quoted.append(" ".join(words[1:]))  # part of the label: "Total net sales" quoted as "net sales"
    if row["two_lines"]:
        quoted.append(row["two_lines"])
    short = re.sub(r"\s?\([^()\d]{1,30}\)", "", label.replace(" & ", " and "))
    short = " ".join(re.sub(r"(?:^|\s)/|/(?=\s|$)", " ", short).split())  # "(Loss)/earnings" -> "earnings", not "/earnings"
    if short != label and len(short.split()) >= 2:
        quoted.append(short)  # "Selling, general and administrative", "Income from operations" for "Income (loss) from operations"
        cells.append(f"- {short} ({when}): {row['printed']} [^1]")
    if row["as_printed"] and row["as_printed"] != label:
        quoted.append(row["as_printed"])
    for cell in rng.sample(cells, k=min(2, len(cells))):
        out.append((cell, "cell as printed", False))
    marks = [("“", "”"), ("‘", "’"), ('"', '"')]
    for q in rng.sample(quoted, k=min(2, len(quoted))):
        a, b = rng.choice(marks)
        out.append((rng.choice([f"The line {a}{q}{b} shows {fig} {period} [^1].", f"{a}{q}{b} was {fig} {period} [^1].",
                                f"The filing reports {a}{q}{b} of {fig} {period} [^1]."]), "quoted label", False))
    others = [(p, float(p), 0.0) for p in row["per_share"] if float(p) != row["value"]] if per_share else row["others"]
    if others and not percent:
        p, v, _ = rng.choice(others)
        a, b = rng.choice(marks)
        q = rng.choice(quoted)
        said = f"${v:,.2f}" if per_share else f"${p}{'M' if scale == 1e6 else ''}"
        out.append((f"The line {a}{q}{b} shows {said} {period} [^1].", "other row", True))
        out.append((f"- {rng.choice([label.lower(), row['as_printed'] or label])} ({when}): {p} [^1]",
                    "label with another row's value", True))

    # a change stated without arithmetic, more ways
    prior = row["prior"]
    if prior and prior["value"] and prior["value"] != row["value"] and not row["negative"] and prior["value"] > 0:
        since, prior_year = rng.choice([f"from fiscal {prior['year']}", "year over year", "compared with the prior year",
                                        f"versus {prior['year']}"]), prior["year"]
        cur, pri = row["value"], prior["value"]
        diff, up = cur - pri, cur > pri
        verb, wrong_verb = rng.choice(_VERBS_UP if up else _VERBS_DOWN), rng.choice(_VERBS_DOWN if up else _VERBS_UP)
        if percent:  # a percentage row changes by points
            d = f"{abs(diff):.{max(_places(digits), 1)}f}"
            forms = [f"{Item} {verb} {d} percentage points {since} to {digits}% [^1].",
                     f"{Item} {verb} by {d} points {since} [^1].",
                     f"{Item} was {digits}% {period}, compared with {prior['printed'].strip('%')}% in fiscal {prior_year} [^1]."]
            planted = [f"{Item} {wrong_verb} {d} percentage points {since} [^1]."]
        else:
            pct = diff / pri * 100
            step = f"${abs(diff):,.2f}" if per_share else dollars(abs(diff) * scale)
            whole = f"{abs(pct):.0f}" if abs(pct) >= 10 else f"{abs(pct):.1f}"
            forms = [f"{Item} was {'up' if up else 'down'} {whole}% {since} [^1].",
                     f"{Item} {verb} {abs(pct):.1f}% year over year to {fig} [^1].",
                     f"{Item} was {fig} {period}, compared with {dollars(pri * scale)} in fiscal {prior_year} [^1].",
                     f"{Item} of {fig} {period} was {abs(pct):.1f}% {'higher' if up else 'lower'} than in fiscal {prior_year} [^1].",
                     f"{Item} {verb} {step} {since} [^1].",
                     f"{Item} showed {'an increase' if up else 'a decrease'} of {abs(pct):.1f}% {since} [^1]."]
            planted = [f"{Item} was {'down' if up else 'up'} {whole}% {since} [^1].",
                       f"{Item} {wrong_verb} {step} {since} [^1]."]
        for form in rng.sample(forms, k=min(3, len(forms))):
            out.append((form, "change without arithmetic", False))
        out.append((rng.choice(planted), "wrong direction", True))
    return out


def sentence_key(text: str) -> str:
    """A sentence compared without markers, Q-numbers, bullets and punctuation."""
    text = re.sub(r"\[\^[^\]]*\]|\bQ\d{3,4}\b|\(\s*\)", " ", text)
    return re.sub(r"[^a-z0-9$€£¥]", "", text.lower())  # "£2.07" is not "$2.07"


def check_cases(cases: list[dict]) -> list[dict]:
    """Each case through the product's path: build_answer (as finalize_answer) then check_turn (as
    check_claims), timed; -> [{"flagged": {sentence key: [problem texts]}, "ms"}]."""
    from agent.citations.answer import build_answer
    from agent.claims.check import check_turn
    from agent.page_text import page_text_lookup

    page_text = page_text_lookup()
    out = []
    for case in cases:
        answer = build_answer(case["text"], case["registry"], route="documents", mode="llm", knowledge=False)
        t0 = time.perf_counter()
        claims = check_turn(answer, case["registry"], page_text)
        ms = (time.perf_counter() - t0) * 1000
        out.append({"ms": ms, "claims": [[sentence_key(c.sentence), [f"{p.kind}: {p.text}" for p in c.problems]]
                                         for c in claims]})
    return out


def _flagged(label_sentence: str, claims: list, start: int) -> tuple[bool, list, int]:
    """A labelled test sentence (maybe two sentences: a cited one and an unmarked one) -> (flagged, problems,
    where to look for the next one): claims are searched in order from `start`, as sentences repeat.
    For two sentences, the second (the one under test) decides."""
    parts = [p for p in re.split(r"(?<=\.)\s+(?=[A-Z])", re.sub(r"\s*\[\^1\]", "", label_sentence.removeprefix("- "))) if p.strip()]
    key = sentence_key(parts[-1])
    for k in range(start, len(claims)):
        ck, problems = claims[k]
        if ck and (ck == key or (len(parts) == 1 and (ck in key or key in ck))):
            return bool(problems), problems, k + 1
    return False, [], start


def claim_class(name: str, planted: bool) -> ClaimClass:
    """The registered class a case's label names; a label the registry does not know, or whose verdict
    differs from the registry's, is an error (never a new row of the report)."""
    cls = CLASS_BY_NAME.get(name)
    if cls is None or cls.planted is not planted:
        raise ValueError(f"label {name!r} (planted={planted}) is not a registered claim class (CLAIM_CLASSES)")
    return cls


def hostile_table(cases: list[dict], results: list[dict]) -> dict:
    """{ClaimClass: {half: [n, flagged]}} and times per half."""
    def half(file: str) -> str:
        return half_of(file) or "other"

    table: dict[ClaimClass, dict[str, list[int]]] = {}
    times: dict[str, list[float]] = {}
    misses: list[tuple] = []
    warm: dict[str, list[float]] = {}  # each filing's first answer left out: it loads the filing's stored tables
    seen: set[str] = set()
    for case, res in zip(cases, results):
        h = half(case["file"])
        times.setdefault(h, []).append(res["ms"])
        if case["file"] in seen:
            warm.setdefault(h, []).append(res["ms"])
        seen.add(case["file"])
        at = 0
        for sentence, name, planted in case["labels"]:
            cls = claim_class(name, planted)
            flagged, problems, at = _flagged(sentence, res["claims"], at)
            row = table.setdefault(cls, {}).setdefault(h, [0, 0])
            row[0] += 1
            row[1] += flagged
            if h == "tune" and flagged != cls.planted:
                misses.append((cls.name, sentence[:150], problems))
    return {"table": table, "ms": times, "warm_ms": warm, "misses": misses}


def _p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[int(0.95 * (len(xs) - 1))] if xs else float("nan")


def print_hostile(new: dict, base: dict | None, rev: str, show_misses: int = 0) -> None:
    cols = ("tune", "check")
    print(f"\nHostile claims from the human-read gold: flagged share per class (n), new vs {rev} (baseline)")
    print(f"  {'class':<32}" + "".join(f" {h + ' n':>8} {h + ' new':>10} {h + ' base':>10}" for h in cols))
    for title, planted in (("planted (recall, target >= .95)", True), ("true (false flags, target <= .02)", False)):
        print(f"  {title}")
        for cls in (c for c in CLAIM_CLASSES if c.planted is planted):
            line = f"    {cls.name:<30}"
            for h in cols:
                n, f = new["table"].get(cls, {}).get(h, [0, 0])
                bn, bf = (base["table"].get(cls, {}).get(h, [0, 0]) if base else (0, 0))
                line += f" {n:>8} {f / n if n else float('nan'):>10.3f} {bf / bn if bn else float('nan'):>10.3f}"
            print(line)
    for h in cols:
        print(f"  check time per answer ({h}): p50 {statistics.median(new['ms'].get(h, [0])):.1f} ms, p95 {_p95(new['ms'].get(h, [])):.1f} ms"
              + (f"; baseline p95 {_p95(base['ms'].get(h, [])):.1f} ms" if base else "")
              + f" (each filing's first answer left out: p95 {_p95(new['warm_ms'].get(h, [])):.1f} ms"
              + (f", baseline {_p95(base['warm_ms'].get(h, [])):.1f} ms)" if base else ")"))
    for cls, sentence, problems in new["misses"][:show_misses]:
        print(f"  tune miss [{cls}]: {sentence!r} {problems}")


GOLD_SETS = ("statements", "library", "releases", "tune-more", "tune-more2", "tune-more3", "claims-forms", "claims-forms2")
# claim sentences a person wrote and judged off the page (not figures): quoted labels and changes in words (claims-forms);
# a segment or product vs the total, a 10-Q's quarter vs its year-to-date column, two periods in one sentence (claims-forms2)
CLAIMS_FORMS = {"claims-forms": "forms_tune_claims.jsonl", "claims-forms2": "forms_tune_claims2.jsonl"}
_GOLD_FILES = {"library": "library_figures.jsonl", "releases": "library_releases_figures.jsonl",
               "tune-more": "facts_tune_more_figures.jsonl", "tune-more2": "facts_tune_more2_figures.jsonl",
               "tune-more3": "facts_tune_more3_figures.jsonl"}


def gold_figures(gold_set: str = "statements") -> list[dict]:
    """A human-read gold: "statements" (statements_figures.jsonl and any statements_more_figures*.jsonl),
    "library" (library_figures.jsonl: the AMCOR and BOEING 10-Ks of financebench-dev/library, tune half) or
    "releases" (library_releases_figures.jsonl: an AMCOR release and 10-Q of financebench-dev/pdfs, a PG&E release;
    tune half) or "tune-more" (facts_tune_more_figures.jsonl: notes, segment, quarterly and release tables of tune
    issuers' filings, tune half) or "tune-more2" / "tune-more3" (facts_tune_more2/3_figures.jsonl: more such cells, and
    unit-headed release columns; tune half)."""
    import json
    from pathlib import Path

    gold = Path(__file__).resolve().parent / "gold"
    if gold_set in CLAIMS_FORMS:
        files = [gold / CLAIMS_FORMS[gold_set]]
    else:
        files = [gold / _GOLD_FILES[gold_set]] if gold_set != "statements" else \
            [gold / "statements_figures.jsonl"] + sorted(gold.glob("statements_more_figures*.jsonl"))
    return [json.loads(line) for f in files for line in f.read_text().splitlines() if line.strip()]


def written_cases(items: list[dict], docs: dict[str, str]) -> list[dict]:
    """One answer per written claim (bench/gold/forms_tune_claims*.jsonl), citing the chunk of its page that holds
    most of the numbers the gold's `page_prints` names (what a retriever would have handed the model)."""
    from storage.documents.catalog import load_chunks
    from storage.schema import Source

    cases, chunks = [], {}
    for g in items:
        doc_id = docs.get(g["file"].rsplit(".", 1)[0])
        if doc_id is None:
            continue
        if doc_id not in chunks:
            chunks[doc_id] = load_chunks(doc_id)
        on_page = [c for c in chunks[doc_id] if c.page_number <= g["page"] <= (c.page_end or c.page_number)]
        if not on_page:
            continue
        wanted = set(re.findall(r"\d[\d,]*\.?\d*", g["page_prints"]))
        chunk = max(on_page, key=lambda c: (len(wanted & set(re.findall(r"\d[\d,]*\.?\d*", c.text))), len(c.text)))
        src = Source(kind="document", source_id="[^1]", text=chunk.text, title=g["file"], doc_id=doc_id,
                     source_file=chunk.source_file, page_number=chunk.page_number, chunk_id=chunk.chunk_id,
                     chunk_type=chunk.chunk_type, extra={"page_end": chunk.page_end}).model_dump()
        cases.append({"file": g["file"], "text": f"- {g['sentence']}", "registry": {"[^1]": src},
                      "labels": [[g["sentence"], g["form"], not g["truth"]]], "error": g.get("error"), "id": g["id"]})
    return cases


def written_table(cases: list[dict], results: list[dict]) -> dict:
    """{(form, planted): [n, flagged]}, {error: [n, flagged]}, the tune misses and the times."""
    forms: dict[tuple, list[int]] = {}
    errors: dict[str, list[int]] = {}
    misses = []
    for case, res in zip(cases, results):
        sentence, form, planted = case["labels"][0]
        flagged, problems, _ = _flagged(sentence, res["claims"], 0)
        for row in (forms.setdefault((form, planted), [0, 0]), errors.setdefault(case["error"] or "none (true)", [0, 0])):
            row[0] += 1
            row[1] += flagged
        if flagged != planted:
            misses.append((case["id"], form, case["error"] or "true", sentence[:150], problems))
    return {"forms": forms, "errors": errors, "misses": misses, "ms": [r["ms"] for r in results]}


def print_written(n_cases: int, new: dict, base: dict | None, rev: str, show_misses: int = 0) -> None:
    print(f"{n_cases} written claims (one answer each), new vs {rev} (baseline): flagged share")
    print(f"  {'form':<28} {'truth':<6} {'n':>4} {'new':>7} {'base':>7}")
    for (form, planted), (n, f) in sorted(new["forms"].items()):
        bn, bf = base["forms"].get((form, planted), [0, 0]) if base else (0, 0)
        print(f"  {form:<28} {'false' if planted else 'true':<6} {n:>4} {f / n:>7.3f} {bf / bn if bn else float('nan'):>7.3f}"
              f"   ({'recall' if planted else 'false flags'})")
    print("  by planted error:")
    for err, (n, f) in sorted(new["errors"].items()):
        bn, bf = base["errors"].get(err, [0, 0]) if base else (0, 0)
        print(f"    {err:<24} {n:>4} {f / n:>7.3f} {bf / bn if bn else float('nan'):>7.3f}")
    print(f"  check time per answer: p50 {statistics.median(new['ms']):.1f} ms, p95 {_p95(new['ms']):.1f} ms"
          + (f"; baseline p95 {_p95(base['ms']):.1f} ms" if base else ""))
    for miss in new["misses"][:show_misses]:
        print(f"  miss {miss[0]} [{miss[1]}, {miss[2]}]: {miss[3]!r} {miss[4]}")


def cases_at_revision(rev: str, cases_file, out_file) -> None:
    """`check_cases` run by the code of git revision `rev` (a temporary worktree, a subprocess)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from bench.revision import checkout

    with checkout(rev, "claims-baseline-") as (tree, _):
        env = {**os.environ, "PYTHONPATH": str(tree)}
        subprocess.run([sys.executable, str(Path(__file__)), "--cases", str(cases_file), "--out", str(out_file)],
                       cwd=tree, env=env, check=True)


def run_hostile(work, baseline_rev: str = "fe96e53", show_misses: int = 40, half: str | None = None, seed: int = 11,
                gold_set: str = "statements") -> None:
    """Generate the hostile cases from the gold (`gold_set`, `gold_figures`), check them with this tree and with
    `baseline_rev`; with `half` ("tune" or "check") only that half's cases (generated from the whole gold, so a
    case reads the same in every run)."""
    import json
    import logging
    import subprocess
    import tempfile
    from pathlib import Path

    from bench.answers import ingest, use_work_dir

    use_work_dir(work)
    logging.disable(logging.WARNING)
    root = Path(__file__).resolve().parents[1]
    shared = next((p / "shared/bench" for p in root.parents if (p / "shared/bench/statements").is_dir()), root.parent / "shared/bench")
    pdf_dirs = [shared / "statements", shared / "statements-more", shared / "financebench-dev" / "library",
                shared / "financebench-dev" / "pdfs"]
    items = gold_figures(gold_set)
    files = sorted({next((d / g["file"] for d in pdf_dirs if (d / g["file"]).exists()), None) for g in items} - {None})
    docs = ingest(files, work)
    written = gold_set in CLAIMS_FORMS  # the sentences themselves are the gold: no generator, no seed
    cases = written_cases(items, docs) if written else hostile_cases(items, pdf_dirs, docs, seed=seed)
    if half:
        cases = [c for c in cases if half_of(c["file"]) == half]
    table = written_table if written else hostile_table
    new = table(cases, check_cases(cases))
    base, rev = None, "none"
    if baseline_rev.lower() != "none":
        rev = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", baseline_rev], check=True,
                             capture_output=True, text=True).stdout.strip()
        with tempfile.TemporaryDirectory() as tmp:
            cf, of = Path(tmp) / "cases.json", Path(tmp) / "out.json"
            cf.write_text(json.dumps(cases))
            cases_at_revision(rev, cf, of)
            base = table(cases, json.loads(of.read_text()))
    if written:
        print_written(len(cases), new, base, rev, show_misses)
        return
    print(f"{len(cases)} answers of up to {ANSWER_SENTENCES} test sentences from {len(items)} gold figures, {sum(len(c['labels']) for c in cases)} test sentences")
    print_hostile(new, base, rev, show_misses)


if __name__ == "__main__":  # the baseline's subprocess: `check_cases` with whatever `agent` is on PYTHONPATH
    import argparse
    import json
    import logging
    import sys
    from pathlib import Path

    sys.path = [p for p in sys.path if Path(p).resolve() != Path(__file__).resolve().parent]
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    args.out.write_text(json.dumps(check_cases(json.loads(args.cases.read_text()))))
