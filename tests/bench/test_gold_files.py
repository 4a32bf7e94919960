"""Every gold file under bench/gold (all parts, whoever wrote them): each line parses and carries its
set's fields, each page lies inside its PDF, each printed value is on its page, and each retrieval
evidence page exists."""

from __future__ import annotations

import io
import json
import re
import shutil
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

GOLD = Path(__file__).resolve().parents[2] / "bench" / "gold"
FILES = sorted(GOLD.glob("*.jsonl"))
FIGURE_FIELDS = {"file", "page", "statement", "line_item", "period", "value", "unit", "question"}
DERIVED_FIELDS = {"file", "question", "inputs", "answer", "precision", "unit"}
INPUT_FIELDS = {"line_item", "period", "value", "page"}
RETRIEVAL_FIELDS = {"doc_name", "question", "answer", "evidence"}
EVIDENCE_FIELDS = {"doc_name", "evidence_text", "evidence_page_num"}
CLAIM_FIELDS = {"id", "file", "page", "form", "truth", "error", "sentence", "page_prints"}
CLAIM_ERRORS = {"wrong figure", "wrong period", "wrong direction", "wrong unit", "the total's figure"}
PDF_FOLDERS = ("statements", "statements-more", "financebench-dev/pdfs", "financebench-dev/library")


def kind_of(path: Path) -> str | None:
    """The gold set a file holds, from its name (statements_figures.jsonl, statements_more_retrieval.part-b.jsonl,
    forms_tune_claims2.jsonl)."""
    for kind in ("retrieval", "derived", "figures", "claims"):
        if re.search(rf"_{kind}\d*\.", path.name):
            return kind
    return None


def test_every_gold_file_is_of_a_known_kind():
    assert FILES
    assert [p.name for p in FILES if kind_of(p) is None] == []


def rows(path: Path) -> list[tuple[int, dict]]:
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            out.append((n, json.loads(line)))
    return out


def field_problems(kind: str, row: dict) -> list[str]:
    """What a row of this kind lacks or gets wrong (an empty list for a good row)."""
    if kind == "figures":
        problems = [f"missing {f}" for f in sorted(FIGURE_FIELDS - row.keys())]
        if row.get("value") is None:
            parts = row.get("components") or []
            if len(parts) < 2 or any({"line_item", "value", "page"} - p.keys() for p in parts):
                problems.append("value null without two or more components (line_item, value, page)")
        parts = row.get("components") or ([row] if row.get("value") is not None else [])
    elif kind == "derived":
        problems = [f"missing {f}" for f in sorted(DERIVED_FIELDS - row.keys())]
        parts = row.get("inputs") or []
        problems += [f"input missing {f}" for p in parts for f in sorted(INPUT_FIELDS - p.keys())]
        if row.get("no_figure"):  # an item that must get no figure: its reason, the inputs the page does print
            if row.get("answer") is not None or not isinstance(row["no_figure"], str):
                problems.append("a no-figure item has a reason (no_figure) and no answer")
        else:
            if not 2 <= len(parts) <= 6:  # average balances of two parts take 5
                problems.append("inputs: 2 to 6 printed rows")
            if not isinstance(row.get("answer"), (int, float)) or not isinstance(row.get("precision"), int):
                problems.append("answer must be a number and precision an integer")
    elif kind == "claims":  # a claim sentence a person wrote and judged off its page (forms_tune_claims.jsonl)
        problems = [f"missing {f}" for f in sorted(CLAIM_FIELDS - row.keys())]
        if row.get("truth") is not (row.get("error") is None) or (row.get("error") and row["error"] not in CLAIM_ERRORS):
            problems.append("a true claim has no error, a false one one of " + ", ".join(sorted(CLAIM_ERRORS)))
        if "[^1]" not in str(row.get("sentence")) or not isinstance(row.get("page"), int) or row["page"] < 0:
            problems.append("a sentence citing [^1] and a 0-based page")
        return problems
    else:
        problems = [f"missing {f}" for f in sorted(RETRIEVAL_FIELDS - row.keys())]
        evidence = row.get("evidence") or []
        if not evidence:
            problems.append("no evidence")
        problems += [f"evidence missing {f}" for e in evidence for f in sorted(EVIDENCE_FIELDS - e.keys())]
        problems += ["evidence page not a 0-based integer" for e in evidence
                     if not isinstance(e.get("evidence_page_num"), int) or e["evidence_page_num"] < 0]
        return problems
    for p in parts:
        if not isinstance(p.get("page"), int) or p["page"] < 0:
            problems.append(f"page {p.get('page')!r} not a 0-based integer")
        if not isinstance(p.get("value"), str) or not re.search(r"\d", p["value"]):
            problems.append(f"value {p.get('value')!r} not a printed figure (a string with digits)")
    if not str(row.get("file", "")).endswith(".pdf"):
        problems.append("file is not a PDF name")
    return problems


@pytest.mark.parametrize("path", [p for p in FILES if kind_of(p)], ids=[p.name for p in FILES if kind_of(p)])
def test_every_line_parses_and_has_its_fields(path):
    kind = kind_of(path)
    found = rows(path)
    assert found, f"{path.name} is empty"
    bad = [(n, p) for n, row in found for p in field_problems(kind, row)]
    assert not bad, bad[:10]
    asked = Counter((row.get("file") or row.get("doc_name"), row.get("question") or row.get("sentence")) for _, row in found)
    assert [q for q, k in asked.items() if k > 1] == [], "the same question twice about one filing"


def test_kind_of_reads_the_file_name():
    assert kind_of(Path("statements_figures.jsonl")) == "figures"
    assert kind_of(Path("statements_more_derived.part-b.jsonl")) == "derived"
    assert kind_of(Path("statements_more_retrieval.part-a.jsonl")) == "retrieval"
    assert kind_of(Path("forms_tune_claims.jsonl")) == "claims"
    assert kind_of(Path("notes.jsonl")) is None


def test_field_checks_catch_a_bad_row():
    good = {"file": "X.pdf", "page": 3, "statement": "income", "line_item": "Revenue", "period": "2023",
            "value": "1,234", "unit": "USD millions", "question": "q"}
    assert field_problems("figures", good) == []
    assert field_problems("figures", {**good, "page": -1})
    assert field_problems("figures", {**good, "value": None})
    assert field_problems("derived", {"file": "X.pdf", "question": "q", "inputs": [good], "answer": 1,
                                      "precision": 0, "unit": "%"})
    assert field_problems("derived", {"file": "X.pdf", "question": "q", "inputs": [], "answer": 1,
                                      "precision": 0, "unit": "%", "no_figure": "no such row"})
    assert not field_problems("derived", {"file": "X.pdf", "question": "q", "inputs": [], "answer": None,
                                          "precision": None, "unit": None, "no_figure": "no such row"})
    claim = {"id": "c1", "file": "X.pdf", "page": 3, "form": "quoted label", "truth": True, "error": None,
             "sentence": "“Net sales” was $1.2 billion [^1].", "page_prints": "Net sales 1,234"}
    assert field_problems("claims", claim) == []
    assert field_problems("claims", {**claim, "truth": False})
    assert field_problems("claims", {**claim, "truth": False, "error": "a typo"})
    assert field_problems("retrieval", {"doc_name": "X", "question": "q", "answer": "a",
                                        "evidence": [{"doc_name": "X", "evidence_text": "t"}]})


def _shared_bench() -> Path | None:
    for parent in Path(__file__).resolve().parents:
        if (parent / "shared/bench/statements").is_dir():
            return parent / "shared/bench"
    return None


@lru_cache(maxsize=None)
def _pdf(name: str):
    import pymupdf

    bench = _shared_bench()
    for folder in PDF_FOLDERS:
        if (bench / folder / name).is_file():
            return pymupdf.open(bench / folder / name)
    return None


@lru_cache(maxsize=None)
def _page_text(name: str, page: int, ocr: bool) -> str:
    doc = _pdf(name)
    if not ocr:
        return doc[page].get_text()
    import pytesseract  # a text layer in a private font encoding: read the rendered page
    from PIL import Image

    return pytesseract.image_to_string(Image.open(io.BytesIO(doc[page].get_pixmap(dpi=300).tobytes("png"))))


def printed_on(value: str, text: str) -> bool:
    """The value's digits as printed (without parentheses, $ or %) stand alone in the text."""
    return re.search(rf"(?<![\d,.]){re.escape(value.strip('()$% '))}(?![\d]|[,.]\d)", text) is not None


def test_printed_on_needs_the_whole_number():
    assert printed_on("(1,269)", "Net income (loss) $ (1,269) $ 248")
    assert not printed_on("1,269", "Net income 21,269 and 1,269.5")


@pytest.mark.parametrize("path", [p for p in FILES if kind_of(p) in ("figures", "derived")],
                         ids=[p.name for p in FILES if kind_of(p) in ("figures", "derived")])
def test_every_value_is_printed_on_its_page(path):
    if _shared_bench() is None:
        pytest.skip("../shared/bench is not on this machine (CI has it): the gold cannot be checked")
    checks = []
    for n, row in rows(path):
        parts = row.get("inputs") or row.get("components") or ([] if row.get("no_figure") else [row])
        checks += [(n, row["file"], p["page"], p["value"], row.get("text_layer") is False) for p in parts]
    if any(ocr for *_, ocr in checks) and shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed: the pages without a readable text layer cannot be checked")
    problems = []
    for n, file, page, value, ocr in checks:
        doc = _pdf(file)
        if doc is None:
            problems.append((n, file, "no such PDF"))
        elif page >= len(doc):
            problems.append((n, file, page, f"beyond its {len(doc)} pages"))
        elif not printed_on(value, _page_text(file, page, ocr)):
            problems.append((n, file, page, value, "not printed on the page"))
    assert not problems, problems[:10]


@pytest.mark.parametrize("path", [p for p in FILES if kind_of(p) == "retrieval"],
                         ids=[p.name for p in FILES if kind_of(p) == "retrieval"])
def test_every_evidence_page_exists(path):
    if _shared_bench() is None:
        pytest.skip("../shared/bench is not on this machine (CI has it): the gold cannot be checked")
    problems = []
    for n, row in rows(path):
        for e in row["evidence"]:
            doc = _pdf(f"{e['doc_name']}.pdf")
            if e["doc_name"] != row["doc_name"] or doc is None:
                problems.append((n, e["doc_name"], "not the question's filing or no such PDF"))
            elif e["evidence_page_num"] >= len(doc):
                problems.append((n, e["doc_name"], e["evidence_page_num"], f"beyond its {len(doc)} pages"))
    assert not problems, problems[:10]
