"""The claim check (agent/claims/check.py) on answers built from real retrieved chunks of the dev filings.

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
import re
import statistics
import time

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
    from agent.claims.text import source_texts

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
    for group, names in (("planted: recall", VARIANTS_PLANTED), ("true: false flags", VARIANTS_TRUE)):
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
