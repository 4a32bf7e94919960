"""bench.figures_gold: how answers are read and scored, the generated out-of-scope questions, and the
gold itself (every value printed on its page of the statements filings)."""

from __future__ import annotations

import io
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from bench import figures_gold
from bench.splits import half_of, issuer_of
from bench.figures_gold import (
    figures_in,
    no_figure_while_printed,
    scale_right,
    lead_line,
    load_gold,
    out_of_scope_questions,
    possessive,
    refused,
    score_derived,
    score_figure,
    spoken,
)
from storage.schema import DocumentInfo

REVENUE = {"value": "394,328", "period": "Year ended September 24, 2022",
           "question": "What was Apple's total revenue in fiscal 2022?"}
CAPEX = {"value": "(10,708)", "period": "Year ended September 24, 2022",
         "question": "What were Apple's capital expenditures in fiscal 2022?"}
TOTAL_DEBT = {"value": None, "period": "September 24, 2022", "question": "What was Apple's total debt?",
              "components": [{"line_item": "Commercial paper", "value": "9,982", "page": 33},
                             {"line_item": "Term debt (current)", "value": "11,128", "page": 33},
                             {"line_item": "Term debt (non-current)", "value": "98,959", "page": 33}]}


def test_lead_line_skips_headings_years_dates_and_uncited_numbers():
    answer = ("No language model is configured; the row that matches (fiscal 2022, 10-K):\n"
              "Revenue was 394,328 in the table below.\n"  # no citation: not a lead
              "- “Apple Inc. | 2022 Form 10-K” [^1]\n"  # only a year and a form name
              "- Net sales (September 24, 2022, Q4 FY2022): $394,328 [^2]\n"
              "- Net sales (2021): $365,817 [^2]")
    assert lead_line(answer) == "- Net sales (September 24, 2022, Q4 FY2022): $394,328 [^2]"
    assert lead_line("Nothing cited: 394,328") is None
    assert figures_in("Net sales (September 24, 2022) in FY2022 [^12]: (1,577)") == ["(1,577)"]


def test_the_gold_figure_stated_more_finely_with_its_scale_word_is_right():
    """Gold read off the prose ("$4.6 billion in 2019"); the answer leads with the statement's row ($4,630 million)."""
    dividends = {"value": "4.6", "unit": "USD billions", "period": "2019", "question": "How much did Acme pay in dividends in 2019?"}
    assert score_figure(dividends, "- Dividends paid (Years ended December 31, 2019): $(4,630) million [^9]") == "correct"
    assert score_figure(dividends, "- Dividends paid (2019): $(4,680) million [^9]") == "wrong"  # 4.7 billion
    assert score_figure(dividends, "- Dividends paid (2019): $(4,630) [^9]") == "wrong"  # no scale said
    assert score_figure(dividends, "- Dividends paid (2019): 4.63 thousand [^9]") == "wrong"
    assert score_figure({**dividends, "unit": "USD"}, "- Dividends paid (2019): $4,630 million [^9]") == "wrong"


def test_figure_scores_value_with_period_neighbour_column_and_missing():
    assert score_figure(REVENUE, "- Total net sales (2022): $394,328 million [^1]") == "correct"
    assert score_figure(REVENUE, "- Total net sales: $394,328 [^1]") == "value_no_period"
    assert score_figure(REVENUE, "- Total net sales (2021): $365,817 [^1]") == "wrong"
    assert score_figure(REVENUE, "I could not find a passage in the selected PDFs.") == "missing"
    # a negative printed in parentheses may be stated with a minus sign
    assert score_figure(CAPEX, "- Payments for PP&E (fiscal 2022): -10,708 [^1]") == "correct"
    assert score_figure(CAPEX, "- Payments for PP&E (2022): 10,7080 [^1]") == "wrong"
    # a percentage printed with a space before its sign ("17.4 %") is the same figure as "17.4%"
    margin = {**REVENUE, "value": "17.4 %", "unit": "%"}
    assert score_figure(margin, "- FedEx Freight segment (2022): 17.4% [^2]") == "correct"
    assert score_figure(margin, "- FedEx Freight segment (2022): 17.45% [^2]") == "wrong"


def test_total_not_printed_one_component_is_wrong_sum_or_list_is_right():
    one = "No model; the row that matches:\n- Term debt (September 24, 2022): 11,128 [^1]"
    assert score_figure(TOTAL_DEBT, one) == "wrong"
    summed = "- Total debt is not printed as one row; its printed parts sum to 120,069 [^1]"
    assert score_figure(TOTAL_DEBT, summed) == "correct"
    listed = ("Total debt is not printed as one row. Its printed components:\n"
              "- Commercial paper: 9,982 [^1]\n- Term debt (current): 11,128 [^1]\n- Term debt (non-current): 98,959 [^1]")
    assert score_figure(TOTAL_DEBT, listed) == "correct"
    assert score_figure(TOTAL_DEBT, listed.rsplit("\n", 1)[0]) == "wrong"  # a component left out


@pytest.mark.parametrize("lead, verdict", [
    ("- Gross margin: 170,782 / 394,328 = 43.3% (fiscal 2022) [^1]", "correct"),
    ("- Gross margin (2022): 43.31% [^1]", "correct"),  # more digits, within half a unit
    ("- Gross margin (2022): 43% [^1]", "wrong"),  # rounded further than printed
    ("- Gross margin (2022): 170,782 [^1]", "wrong"),  # an input row, not the computed figure
    ("no figure here", "missing"),
])
def test_derived_is_checked_at_the_printed_precision(lead, verdict):
    assert score_derived({"answer": 43.3, "precision": 1}, lead) == verdict


def test_derived_sign_may_be_said_in_words():
    assert score_derived({"answer": -3.6, "precision": 1}, "- Revenue decreased 3.6% in fiscal 2023 [^1]") == "correct"
    assert score_derived({"answer": 0.88, "precision": 2}, "- Current ratio: 0.879 [^1]") == "correct"
    assert score_derived({"answer": 0.88, "precision": 2}, "- Current ratio: 0.87 [^1]") == "wrong"


def test_scale_is_the_gold_units_word_and_no_other():
    item = {**REVENUE, "unit": "USD millions"}
    assert scale_right(item, "- Total net sales (2022): 394,328 — $394,328 million in fiscal 2022 [^1]") is True
    assert scale_right(item, "- Total net sales (2022): 394,328 — $394,328 in fiscal 2022 [^1]") is False
    assert scale_right(item, "- Total net sales (2022): 394,328 — $394,328 thousand in fiscal 2022 [^1]") is False
    assert scale_right(item, "- Total net sales (2021): 365,817 million [^1]") is None  # not the gold value
    assert scale_right(item, "- Total net sales (2022): $394,328 million [^1]") is True
    assert scale_right(item, "- Debt (includes $1.8 billion of VIEs) (2022): $394,328 million [^1]") is True
    assert scale_right({**item, "unit": "USD per share"}, "- Diluted (2022): 6.11 [^1]") is None


def test_no_figure_while_a_cited_page_prints_the_gold_value(monkeypatch):
    pages = {("APPLE_2022_10K.pdf", 32): "Total net sales 394,328 365,817", ("APPLE_2022_10K.pdf", 40): "Notes"}
    monkeypatch.setattr(figures_gold, "page_text", lambda f, p: pages.get((f, p), ""))
    said = ("No language model is configured. No table row of the pages searched prints Revenues for fiscal 2022, "
            "so no figure is stated; passages that mention it, quoted as context:\n- “Net sales rose.” [^1]")
    assert no_figure_while_printed(REVENUE, {"message": said, "cited": [["APPLE_2022_10K.pdf", 32]]})
    assert not no_figure_while_printed(REVENUE, {"message": said, "cited": [["APPLE_2022_10K.pdf", 40]]})
    stated = "- Total net sales (2022): 394,328 [^1]"
    assert not no_figure_while_printed(REVENUE, {"message": stated, "cited": [["APPLE_2022_10K.pdf", 32]]})


def test_halves_are_the_splits_issuers_by_file_name_prefix():
    assert issuer_of("PG_E_2023Q3_10Q") == "PG_E" and issuer_of("APPLE_2015_10K") == "APPLE"
    assert [half_of(s) for s in ("APPLE_2015_10K", "PG_E_2016_10K", "INTEL_2020_10K", "BESTBUY_2019_10K")] == [
        "tune", "tune", "check", "check"]


def test_out_of_scope_is_read_on_the_first_line_only():
    assert refused("The selected filings cover FY2021–FY2022; 2024 is not among them.\nClosest: ...")
    assert refused("Oracle is not in the selected documents (they are Apple's 10-K).")
    assert not refused("- Net sales (2022): 394,328 [^1]\nFiscal 2024 is not in the selected documents.")
    assert not refused("This is not a figure the table prints.")


def test_out_of_scope_questions_name_what_the_metadata_does_not_cover():
    infos = {
        "APPLE_2022_10K": DocumentInfo(title="Apple · 10-K · FY2022", issuer="Apple Inc.", form="10-K", fiscal_year=2022),
        "EBAY_2023Q2_EARNINGS": DocumentInfo(title="eBay · release", issuer="NEWS RELEASE eBay Inc.",
                                             form="earnings release", fiscal_year=2023, fiscal_quarter=2),
        "ORACLE_2023_10K": DocumentInfo(title="Oracle · 10-K · FY2023", issuer="Oracle Corporation", form="10-K",
                                        fiscal_year=2023),
    }
    qs = out_of_scope_questions(infos)
    apple = [q for q in qs if q["doc_names"] == ["APPLE_2022_10K"]]
    assert {q["kind"] for q in apple} == {"period", "issuer", "form"}
    periods = [q["question"] for q in apple if q["kind"] == "period"]
    assert all(re.search(r"\b202[45]\b", p) and "Apple" in p for p in periods)
    issuer = next(q["question"] for q in apple if q["kind"] == "issuer")
    assert "Oracle" in issuer and "Apple" not in issuer
    assert "10-Q" in next(q["question"] for q in apple if q["kind"] == "form")
    release_form = next(q["question"] for q in qs if q["doc_names"] == ["EBAY_2023Q2_EARNINGS"] and q["kind"] == "form")
    assert "eBay's 10-K for fiscal 2024" in release_form
    release_periods = [q["question"] for q in qs if q["doc_names"] == ["EBAY_2023Q2_EARNINGS"] and q["kind"] == "period"]
    assert any("Q2 FY2024" in p for p in release_periods) and not any("2023" in p for p in release_periods)
    assert spoken("Boston Properties, Inc. Boston Properties Limited Partnership") == "Boston Properties"
    assert [possessive(n) for n in ("Boston Properties", "McDONALD’S", None)] == [
        "Boston Properties'", "McDONALD’S", "the company's"]


# ---------------------------------------------------------------- the gold itself


def test_gold_covers_every_filing_statement_and_trap():
    figures, derived = load_gold("statements_figures.jsonl"), load_gold("statements_derived.jsonl")
    per_file = Counter(g["file"] for g in figures)
    assert len(per_file) == 11 and min(per_file.values()) >= 10
    assert {g["statement"] for g in figures} >= {"income", "balance", "cash_flow", "segment", "quarterly", "highlights"}
    totals = [g for g in figures if g["value"] is None]
    assert len(totals) >= 3 and all(len(g["components"]) >= 2 for g in totals)
    assert len(derived) >= 20 and all(2 <= len(d["inputs"]) <= 4 for d in derived)
    assert len({g["question"] for g in figures}) == len(figures)


def _statements_dir() -> Path | None:
    for parent in Path(__file__).resolve().parents:
        if (parent / "shared/bench/statements").is_dir():
            return parent / "shared/bench/statements"
    return None


def _page_text(doc, page: int, ocr: bool) -> str:
    if not ocr:
        return doc[page].get_text()
    import pytesseract  # a text layer in a private font encoding: read the rendered page
    from PIL import Image

    return pytesseract.image_to_string(Image.open(io.BytesIO(doc[page].get_pixmap(dpi=300).tobytes("png"))))


def test_every_gold_value_is_printed_on_its_page():
    import pymupdf

    folder = _statements_dir()
    if folder is None:
        pytest.skip("../shared/bench/statements is not on this machine (CI has it): the gold cannot be checked")
    needs_ocr = any(g.get("text_layer") is False for g in load_gold("statements_figures.jsonl"))
    if needs_ocr and shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed: the pages without a readable text layer cannot be checked")
    checks = []
    for g in load_gold("statements_figures.jsonl"):
        parts = g.get("components") or [g]
        checks += [(g["file"], p["page"], p["value"], g.get("text_layer") is False) for p in parts]
    for d in load_gold("statements_derived.jsonl"):
        checks += [(d["file"], i["page"], i["value"], d.get("text_layer") is False) for i in d["inputs"]]
    docs, texts, missing = {}, {}, []
    for file, page, value, ocr in checks:
        doc = docs.setdefault(file, pymupdf.open(folder / file))
        text = texts.get((file, page)) or texts.setdefault((file, page), _page_text(doc, page, ocr))
        if re.search(rf"(?<![\d,.]){re.escape(value.strip('()$%'))}(?![\d]|[,.]\d)", text) is None:
            missing.append((file, page, value))
    assert not missing


def test_library_gold_is_its_own_set_of_tune_issuers_only():
    from bench.facts_gold import gold_cells
    from bench.figures_gold import build_questions, gold_files, gold_stems
    from bench.splits import half_of

    assert gold_files("figures", "library") == ["library_figures.jsonl"]
    assert not any(f.startswith("library_") for f in gold_files("figures") + gold_files("derived"))
    stems = sorted(gold_stems("library"))
    assert len(stems) >= 4 and {half_of(s) for s in stems} == {"tune"}
    qs = build_questions(stems, None, None, "check", "library")
    assert qs == []  # no check-half filing among them
    qs = build_questions(stems, None, None, "tune", "library")
    assert {q["set"] for q in qs} == {"figures", "derived"}
    assert {q["doc_names"][0] for q in qs} == set(stems)
    assert {c["file"] for c in gold_cells("library")} == {f"{s}.pdf" for s in stems}


def test_releases_gold_is_its_own_set_of_tune_issuers_only():
    from bench.figures_gold import build_questions, gold_files, gold_stems
    from bench.splits import half_of

    assert gold_files("derived", "releases") == ["library_releases_derived.jsonl"]
    assert gold_files("figures", "releases") == ["library_releases_figures.jsonl", "releases_check_figures.jsonl"]
    assert not any("releases" in f for f in gold_files("figures", "library") + gold_files("figures"))
    tune = sorted({Path(g["file"]).stem for f in ("library_releases_figures.jsonl", "library_releases_derived.jsonl")
                   for g in load_gold(f)})
    assert any("EARNINGS" in s for s in tune) and any("10Q" in s for s in tune)
    assert {half_of(s) for s in tune} == {"tune"}
    assert build_questions(tune, None, None, "check", "releases") == []
    qs = build_questions(tune, None, None, "tune", "releases")
    assert {q["set"] for q in qs} == {"figures", "derived"}
    assert set(tune) < gold_stems("releases")  # the check half's releases are asked only with --half check|all


def test_paraphrase_gold_asks_tune_figures_in_other_words():
    from bench.figures_gold import build_questions, gold_files, gold_stems, load_gold
    from bench.splits import half_of

    assert gold_files("figures", "paraphrase") == ["paraphrase_tune_figures.jsonl"]
    assert gold_files("derived", "paraphrase") == []
    stems = sorted(gold_stems("paraphrase"))
    assert {half_of(s) for s in stems} == {"tune"}
    assert build_questions(stems, None, None, "check", "paraphrase") == []
    gold = load_gold("paraphrase_tune_figures.jsonl")
    sources = {(g["file"], g["value"], g["period"]): g["question"] for f in
               ("statements_figures.jsonl", "library_figures.jsonl", "library_releases_figures.jsonl",
                *gold_files("figures")) for g in load_gold(f)}
    for g in gold:  # each is a gold figure asked before, in new words
        assert sources[(g["file"], g["value"], g["period"])] == g["asked_first"] != g["question"]
    assert len({(g["file"], g["value"]) for g in gold}) >= 60


def test_an_item_no_figure_answers_is_right_only_without_a_lead():
    item = {"answer": None, "precision": None}
    assert score_derived(item, "No table row of the pages searched prints goodwill, so no figure is stated.") == "correct"
    assert score_derived(item, "- Goodwill / total assets (2022): 1.5% [^1]") == "wrong"


def test_derived_more_gold_is_tune_issuers_inputs_printed_on_their_pages():
    import pymupdf

    from bench.figures_gold import _default_pdfs, build_questions, gold_files, gold_stems

    assert gold_files("derived", "derived-more") == ["ratios_tune_derived.jsonl"]
    assert gold_files("figures", "derived-more") == []
    stems = sorted(gold_stems("derived-more"))
    assert {half_of(s) for s in stems} == {"tune"}
    assert build_questions(stems, None, None, "check", "derived-more") == []
    gold = load_gold("ratios_tune_derived.jsonl")
    assert len(gold) >= 45 and sum(g["answer"] is None for g in gold) >= 3
    assert all(g["no_figure"] for g in gold if g["answer"] is None)
    folders = [d for d in _default_pdfs("derived-more") if d.is_dir()]
    if not folders:
        pytest.skip("../shared/bench is not on this machine (CI has it): the gold cannot be checked")
    missing = []
    for g in gold:
        doc = pymupdf.open(next(d / g["file"] for d in folders if (d / g["file"]).exists()))
        for i in g["inputs"]:
            value = i["value"].strip("()$")
            if re.search(rf"(?<![\d,.]){re.escape(value)}(?![\d]|[,.]\d)", doc[i["page"]].get_text()) is None:
                missing.append((g["file"], i["page"], i["value"]))
    assert not missing


def test_releases_more_gold_is_new_tune_figures_of_releases_and_10qs():
    from bench.figures_gold import build_questions, gold_files, gold_stems, load_gold
    from bench.splits import half_of

    assert gold_files("figures", "releases-more") == ["releases_more_tune_figures.jsonl"]
    assert gold_files("derived", "releases-more") == []
    stems = sorted(gold_stems("releases-more"))
    assert {half_of(s) for s in stems} == {"tune"}
    assert build_questions(stems, None, None, "check", "releases-more") == []
    gold = load_gold("releases_more_tune_figures.jsonl")
    assert len(gold) >= 50
    assert any("EARNINGS" in g["file"] for g in gold) and any("10Q" in g["file"] for g in gold)
    known = {(g["file"], g["page"], g["value"], g["period"]) for g in load_gold("library_releases_figures.jsonl")}
    assert not [g for g in gold if (g["file"], g["page"], g["value"], g["period"]) in known]


def test_segments_gold_is_tune_figures_of_segment_tables_new_to_the_other_golds():
    from bench.figures_gold import _default_pdfs, build_questions, gold_files, gold_stems, load_gold
    from bench.splits import half_of

    assert gold_files("figures", "segments") == ["segments_tune_figures.jsonl"]
    assert gold_files("derived", "segments") == []
    stems = sorted(gold_stems("segments"))
    assert {half_of(s) for s in stems} == {"tune"}
    assert build_questions(stems, None, None, "check", "segments") == []
    gold = load_gold("segments_tune_figures.jsonl")
    assert len(gold) >= 25 and {g["statement"] for g in gold} == {"segment"}
    assert any("10Q" in g["file"] for g in gold)
    others = {(g["file"], g["page"], g["value"]) for f in gold_files("figures") + gold_files("figures", "releases-more")
              + gold_files("figures", "paraphrase") for g in load_gold(f)}
    assert not [g for g in gold if (g["file"], g["page"], g["value"]) in others]
    folders = {d.name for d in _default_pdfs("segments")}
    assert {"statements", "statements-more", "library", "pdfs"} <= folders


def test_notes_gold_is_tune_figures_of_pages_no_other_gold_uses():
    from bench.figures_gold import GOLD, _default_pdfs, build_questions, gold_files, gold_stems, load_gold
    from bench.splits import half_of

    assert gold_files("figures", "notes") == ["notes_tune_figures.jsonl", "notes_check_figures.jsonl"]
    assert gold_files("derived", "notes") == []
    gold = load_gold("notes_tune_figures.jsonl")
    stems = sorted({Path(g["file"]).stem for g in gold})
    assert {half_of(s) for s in stems} == {"tune"}
    assert build_questions(stems, None, None, "check", "notes") == []
    assert len(gold) >= 40 and {"notes", "md&a"} <= {g["statement"] for g in gold}
    used = {(g["file"], g["page"]) for p in GOLD.glob("*.jsonl") if p.name != "notes_tune_figures.jsonl"
            for g in load_gold(p.name) if isinstance(g.get("page"), int)}
    assert not [g for g in gold if (g["file"], g["page"]) in used]
    assert {"statements", "library"} <= {d.name for d in _default_pdfs("notes")}


# ---------------------------------------------------------------- check-half golds of the tune-only classes


def _pages_of_other_golds(own: str) -> set[tuple[str, int]]:
    """(file, 0-based page) of every other gold: figure pages, components, inputs and retrieval evidence pages."""
    from bench.figures_gold import GOLD

    used = set()
    for p in GOLD.glob("*.jsonl"):
        if p.name == own:
            continue
        for g in load_gold(p.name):
            for part in [g, *(g.get("components") or []), *(g.get("inputs") or [])]:
                if isinstance(part.get("page"), int):
                    used.add((g["file"], part["page"]))
            used |= {(e["doc_name"] + ".pdf", e["evidence_page_num"]) for e in g.get("evidence") or []}
    return used


def _unprinted(gold: list[dict], folders: list[Path]) -> list[tuple]:
    """The gold figures whose value its page does not print (the rendered page read where the text layer is not
    readable)."""
    import pymupdf

    docs, texts, missing = {}, {}, []
    for g in gold:
        path = next(d / g["file"] for d in folders if (d / g["file"]).exists())
        doc = docs.setdefault(g["file"], pymupdf.open(path))
        key = (g["file"], g["page"])
        text = texts.get(key) or texts.setdefault(key, _page_text(doc, g["page"], g.get("text_layer") is False))
        if re.search(rf"(?<![\d,.]){re.escape(g['value'].strip('()$%'))}(?![\d]|[,.]\d)", text) is None:
            missing.append((g["file"], g["page"], g["value"]))
    return missing


def test_notes_check_gold_is_check_issuers_10k_figures_of_pages_no_other_gold_uses():
    from bench.figures_gold import _default_pdfs, build_questions

    gold = load_gold("notes_check_figures.jsonl")
    stems = sorted({Path(g["file"]).stem for g in gold})
    assert len(stems) >= 5 and all(s.endswith("_10K") for s in stems)
    assert {half_of(s) for s in stems} == {"check"}
    assert len(gold) >= 50 and {g["statement"] for g in gold} == {"notes", "md&a"}
    assert len({g["question"] for g in gold}) == len(gold)
    assert all(g["value"] and g["period"] and g["unit"] for g in gold)
    assert not [g for g in gold if (g["file"], g["page"]) in _pages_of_other_golds("notes_check_figures.jsonl")]
    tune = sorted({Path(g["file"]).stem for g in load_gold("notes_tune_figures.jsonl")})
    asked = {h: [q for q in build_questions(stems + tune, None, None, h, "notes") if q["set"] == "figures"]
             for h in ("tune", "check")}
    assert len(asked["check"]) == len(gold) and {q["doc_names"][0] for q in asked["check"]} == set(stems)
    assert len(asked["tune"]) == len(load_gold("notes_tune_figures.jsonl"))
    folders = [d for d in _default_pdfs("notes") if d.is_dir()]
    if not folders:
        pytest.skip("../shared/bench is not on this machine (CI has it): the gold cannot be checked")
    assert not _unprinted(gold, folders)


def test_releases_check_gold_is_check_releases_mostly_of_part_columns():
    from bench.figures_gold import _default_pdfs, build_questions, gold_files

    gold = load_gold("releases_check_figures.jsonl")
    stems = sorted({Path(g["file"]).stem for g in gold})
    assert {half_of(s) for s in stems} == {"check"} and all("_EARNINGS" in s for s in stems)
    assert len({issuer_of(s) for s in stems}) >= 4
    assert len(gold) >= 30 and len({g["question"] for g in gold}) == len(gold)
    assert {g["columns"] for g in gold} == {"parts", "periods"}
    assert sum(g["columns"] == "parts" for g in gold) >= 0.7 * len(gold)
    others = {(g["file"], g["page"], g["value"]) for f in [*gold_files("figures"), *gold_files("figures", "paraphrase")]
              for g in load_gold(f)}
    assert not [g for g in gold if (g["file"], g["page"], g["value"]) in others]
    qs = build_questions(stems, None, None, "check", "releases")
    assert len(qs) == len(gold) and {q["set"] for q in qs} == {"figures"}
    assert "statements" in {d.name for d in _default_pdfs("releases")}
    folders = [d for d in _default_pdfs("releases") if d.is_dir()]
    if not folders:
        pytest.skip("../shared/bench is not on this machine (CI has it): the gold cannot be checked")
    if any(g.get("text_layer") is False for g in gold) and shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed: the pages without a readable text layer cannot be checked")
    assert not _unprinted(gold, folders)


def test_reconciling_check_gold_is_check_issuers_reconciling_lines_printed_on_their_pages():
    from bench.figures_gold import GOLDS, _default_pdfs, build_questions, gold_files, gold_stems

    assert "reconciling" in GOLDS
    assert gold_files("figures", "reconciling") == ["reconciling_tune_figures.jsonl", "reconciling_tune2_figures.jsonl",
                                                    "reconciling_check_figures.jsonl"]
    assert gold_files("derived", "reconciling") == []
    gold = load_gold("reconciling_check_figures.jsonl")
    stems = sorted({Path(g["file"]).stem for g in gold})
    assert {half_of(s) for s in stems} == {"check"} and len({issuer_of(s) for s in stems}) >= 3
    assert any("_EARNINGS" in s for s in stems) and any(s.endswith(("_10K", "_10Q")) for s in stems)
    assert 30 <= len(gold) <= 50 and len({g["question"] for g in gold}) == len(gold)
    assert all(g["value"] and g["period"] and g["unit"] for g in gold)
    asks = Counter(g["asks"] for g in gold)  # mostly one reconciling line; a few adjusted and GAAP totals
    assert set(asks) == {"line", "total", "gaap"} and asks["line"] >= 0.7 * len(gold)
    others = {(g["file"], g["page"], g["value"]) for p in figures_gold.GOLD.glob("*.jsonl")
              if not p.name.startswith("reconciling_") for g in load_gold(p.name) if "value" in g}
    assert not [g for g in gold if (g["file"], g["page"], g["value"]) in others]
    assert set(stems) <= gold_stems("reconciling")
    assert build_questions(stems, None, None, "tune", "reconciling") == []  # the check filings ask nothing on tune
    qs = build_questions(stems, None, None, "check", "reconciling")
    assert len(qs) == len(gold) and {q["set"] for q in qs} == {"figures"}
    assert {"statements", "statements-more", "library", "pdfs"} <= {d.name for d in _default_pdfs("reconciling")}
    folders = [d for d in _default_pdfs("reconciling") if d.is_dir()]
    if not folders:
        pytest.skip("../shared/bench is not on this machine (CI has it): the gold cannot be checked")
    assert not _unprinted(gold, folders)


@pytest.mark.parametrize("name, least, most", [("reconciling_tune_figures.jsonl", 30, 50),
                                               ("reconciling_tune2_figures.jsonl", 25, 40)])
def test_reconciling_tune_golds_are_tune_issuers_reconciling_lines_printed_on_their_pages(name, least, most):
    """The check gold's tune twin (rules are fitted here) and its widening to tune issuers the first file does not
    ask (rules fitted on three issuers' layouts did not carry to check): the same kind of reconciliation lines, of
    tune issuers only, printed on their pages, no figure another gold uses."""
    from bench.figures_gold import _default_pdfs, build_questions, gold_stems

    gold = load_gold(name)
    stems = sorted({Path(g["file"]).stem for g in gold})
    issuers = {issuer_of(s) for s in stems}
    assert {half_of(s) for s in stems} == {"tune"} and len(issuers) >= 3
    if name == "reconciling_tune_figures.jsonl":
        assert any("_EARNINGS" in s for s in stems) and any(s.endswith(("_10K", "_10Q")) for s in stems)
    else:
        assert not issuers & {issuer_of(Path(g["file"]).stem) for g in load_gold("reconciling_tune_figures.jsonl")}
    assert least <= len(gold) <= most and len({g["question"] for g in gold}) == len(gold)
    assert all(g["value"] and g["period"] and g["unit"] and g["trap"] for g in gold)
    asks = Counter(g["asks"] for g in gold)
    assert set(asks) == {"line", "total", "gaap"} and asks["line"] >= 0.7 * len(gold)
    others = {(g["file"], g["page"], g["value"]) for p in figures_gold.GOLD.glob("*.jsonl")
              if not p.name.startswith("reconciling_") for g in load_gold(p.name) if "value" in g}
    assert not [g for g in gold if (g["file"], g["page"], g["value"]) in others]
    assert set(stems) <= gold_stems("reconciling")
    assert build_questions(stems, None, None, "check", "reconciling") == []
    qs = build_questions(stems, None, None, "tune", "reconciling")
    assert len(qs) == len(gold) and {q["set"] for q in qs} == {"figures"}
    folders = [d for d in _default_pdfs("reconciling") if d.is_dir()]
    if not folders:
        pytest.skip("../shared/bench is not on this machine (CI has it): the gold cannot be checked")
    assert not _unprinted(gold, folders)


@pytest.mark.parametrize("gold_name, least, forms", [("balances", 25, ("_10K",)), ("phrasings", 15, ("_10K",)),
                                                     ("measures", 25, ("_10K", "_EARNINGS"))])
def test_measured_only_check_golds_are_check_issuers_figures_printed_on_their_pages(gold_name, least, forms):
    """`--gold balances` (roll-forwards, lease tables), `--gold phrasings` (parts among siblings, totals, glossed
    items) and `--gold measures` (non-GAAP measures and their reconciliations' lines): check issuers' figures on pages
    no other gold uses, each printed on its page."""
    from bench.figures_gold import _default_pdfs, build_questions, gold_files

    name = f"{gold_name}_check_figures.jsonl"
    assert gold_files("figures", gold_name)[-1] == name
    gold = load_gold(name)
    stems = sorted({Path(g["file"]).stem for g in gold})
    assert {half_of(s) for s in stems} == {"check"} and all(s.endswith(forms) for s in stems)
    assert len(gold) >= least and len({g["question"] for g in gold}) == len(gold)
    assert all(g["value"] and g["period"] and g["unit"] and g["trap"] for g in gold)
    assert not [g for g in gold if (g["file"], g["page"]) in _pages_of_other_golds(name)]
    assert len([q for q in build_questions(stems, None, None, "check", gold_name) if q["set"] == "figures"]) == len(gold)
    folders = [d for d in _default_pdfs(gold_name) if d.is_dir()]
    if not folders:
        pytest.skip("../shared/bench is not on this machine (CI has it): the gold cannot be checked")
    assert not _unprinted(gold, folders)


def test_measures_tune_gold_is_tune_issuers_measures_printed_on_pages_no_other_gold_uses():
    """`--gold measures --half tune`: the tune twin of the check gold (non-GAAP measures and their reconciliations'
    lines in tune issuers' annual MD&A tables), read before any answer code ran on it."""
    from bench.figures_gold import _default_pdfs, gold_files

    name = "measures_tune_figures.jsonl"
    assert gold_files("figures", "measures") == [name, "measures_check_figures.jsonl"]
    gold = load_gold(name)
    assert {half_of(Path(g["file"]).stem) for g in gold} == {"tune"} and len(gold) >= 15
    assert len({g["question"] for g in gold}) == len(gold) and all(g["value"] and g["period"] and g["trap"] for g in gold)
    assert not [g for g in gold if (g["file"], g["page"]) in _pages_of_other_golds(name)]
    folders = [d for d in _default_pdfs("measures") if d.is_dir()]
    if not folders:
        pytest.skip("../shared/bench is not on this machine (CI has it): the gold cannot be checked")
    assert not _unprinted(gold, folders)
