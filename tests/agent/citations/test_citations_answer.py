"""build_answer: markers in scripted (and adversarial) model outputs -> citations that open one source."""

from __future__ import annotations

import logging

import pytest

from agent.citations.answer import build_answer, iter_markers, renumber_sources
from agent.knowledge_base import KnowledgeBase
from tests.fixtures_citations import APPLE, BOEING, doc, page, web

BOEING_44 = doc(44, "Total revenues were $66,608 million in 2022 compared with $62,286 million in 2021, driven by "
                    "higher commercial airplane deliveries of 480 aircraft.", file=BOEING, page=39)
APPLE_44 = doc(44, "Net sales were $394,328 million in fiscal 2022. iPhone net sales increased due to a higher mix "
                   "of Pro models. Services net sales grew to $78,129 million.", file=APPLE, page=20)
BOEING_45 = doc(45, "The total backlog was $404 billion at year end, including 4,500 commercial airplanes.", file=BOEING, page=40)

KB = KnowledgeBase.from_dict({
    "categories": [{"no": 8, "name": "Financial metrics"}, {"no": 2, "name": "Documents"}],
    "items": [
        {"id": "Q301", "question": "What is free cash flow?", "answer": "Operating cash flow minus capital expenditures.",
         "category": "Financial metrics", "metadata": {"source": "Handbook ch. 4"}},
        {"id": "Q302", "question": "What is the quick ratio?", "answer": "Liquid assets divided by current liabilities.",
         "category": "Financial metrics", "metadata": {"source": "Handbook ch. 3"}},
        {"id": "Q2001", "question": "Which files can I upload?", "answer": "PDFs up to 200 MB.",
         "category": "Documents", "metadata": {"source": "User guide"}},
    ],
})


def registry(*sources):
    return renumber_sources(sources).registry


def markers(answer):
    return [c.marker for c in answer.citations]


# -- single file: nothing changes --------------------------------------------------------------

def test_single_file_answer_is_unchanged_and_fully_cited():
    reg = registry(BOEING_44, BOEING_45)  # [^1] = chunk 44, [^2] = chunk 45
    text = "Revenue was $66.6 billion [^1] and the backlog $404 billion [chunk_id: 45]. Deliveries: 480 [chunk_id: 44]."
    answer = build_answer(text, reg, knowledge=False)
    # no file suffixes when there is no ambiguity; chunk 44 is [^1], cited once in one form
    assert answer.message == text.replace("480 [chunk_id: 44]", "480 [^1]")
    assert markers(answer) == ["[^1]", "[chunk_id: 45]"]
    first = answer.citations[0]
    assert (first.number, first.kind, first.documentId, first.documentTitle) == ("1", "document", BOEING_44.doc_id, BOEING)
    assert (first.metadata.file, first.metadata.page, first.metadata.chunk_id) == (BOEING, 40, 44)  # page 39 -> 40
    assert answer.citations[1].number == "2" and answer.citations[1].metadata.page == 41
    assert answer.citation_map["45"] == {"files": [BOEING], "chosen": BOEING, "disambiguated": False,
                                         "resolutions": answer.citation_map["45"]["resolutions"]}


def test_same_chunk_id_cited_twice_in_one_file_gives_one_citation():
    reg = registry(BOEING_44)
    text = "Revenue rose to $66.6 billion [chunk_id: 44]. Deliveries reached 480 aircraft [chunk_id: 44]."
    answer = build_answer(text, reg, knowledge=False)
    assert answer.message == text
    assert markers(answer) == ["[chunk_id: 44]"]
    assert len(answer.citation_map["44"]["resolutions"]) == 2


# -- several files with colliding chunk ids ----------------------------------------------------

def test_colliding_chunk_ids_resolve_each_legacy_marker_to_the_right_file():
    reg = registry(BOEING_44, APPLE_44)
    text = ("Apple's net sales were $394.3 billion in fiscal 2022 [chunk_id: 44]. "
            "Boeing's total revenues reached $66.6 billion [chunk_id: 44].\n"
            "Services grew to $78.1 billion [chunk_id: 44] while the plane maker delivered 480 aircraft. [chunk_id: 44]")
    answer = build_answer(text, reg, knowledge=False)
    a, b = f"[chunk_id: 44, file: {APPLE}]", f"[chunk_id: 44, file: {BOEING}]"
    assert answer.message == (f"Apple's net sales were $394.3 billion in fiscal 2022 {a}. "
                              f"Boeing's total revenues reached $66.6 billion {b}.\n"
                              f"Services grew to $78.1 billion {a} while the plane maker delivered 480 aircraft. {b}")
    assert markers(answer) == [a, b]
    by_marker = {c.marker: c for c in answer.citations}
    assert (by_marker[a].metadata.file, by_marker[a].metadata.page, by_marker[a].documentId) == (APPLE, 21, APPLE_44.doc_id)
    assert (by_marker[b].metadata.file, by_marker[b].metadata.page) == (BOEING, 40)
    assert by_marker[a].metadata.disambiguated and sorted(by_marker[a].metadata.candidates) == [APPLE, BOEING]
    entry = answer.citation_map["44"]
    assert entry["files"] == sorted([APPLE, BOEING]) and entry["chosen"] == APPLE and entry["disambiguated"] is True
    assert [r["chosen"] for r in entry["resolutions"]] == [APPLE, BOEING, APPLE, BOEING]


def test_unclear_legacy_marker_says_so_instead_of_guessing():
    boilerplate = "Cybersecurity incidents could disrupt our operations and harm our reputation."
    reg = registry(doc(12, boilerplate, file=BOEING, page=15), doc(12, boilerplate + " ", file=APPLE, page=9))
    answer = build_answer("Both companies warn that cyber attacks could disrupt operations [chunk_id: 12].", reg,
                          knowledge=False)
    assert answer.message == "Both companies warn that cyber attacks could disrupt operations [chunk_id: 12]."
    (citation,) = answer.citations
    assert citation.metadata.disambiguated is False and sorted(citation.metadata.candidates) == [APPLE, BOEING]
    assert citation.metadata.file is None and citation.documentId == ""
    assert "Ambiguous" in citation.documentTitle and "several files" in citation.snippet
    assert answer.citation_map["12"]["chosen"] is None and answer.citation_map["12"]["disambiguated"] is False


def test_file_named_by_the_model_wins_and_unknown_chunks_are_dropped():
    reg = registry(BOEING_44, APPLE_44)
    text = ("Revenue was $66.6 billion [chunk_id: 44, file: apple_2022_10k]. "
            "Margins fell [chunk_id: 7]. Backlog rose [chunk_id: 44, file: AIRBUS.pdf].")
    answer = build_answer(text, reg, knowledge=False)
    # The model's explicit file is trusted (it matched by stem); chunk 7 and AIRBUS were never retrieved.
    assert answer.message == "Revenue was $66.6 billion [chunk_id: 44, file: apple_2022_10k]. Margins fell. Backlog rose."
    assert [c.metadata.file for c in answer.citations] == [APPLE]


def test_grouped_markers_are_split():
    reg = registry(BOEING_44, BOEING_45, web("https://a.example"), web("https://b.example"))
    answer = build_answer("Up [^1, ^2] and [^2,1]; news {^1, ^2}; chunks [chunk_id: 44, 45].", reg, knowledge=False)
    # chunks 44 and 45 are [^1] and [^2]: one marker per source
    assert answer.message == "Up [^1][^2] and [^2][^1]; news {^1}{^2}; chunks [^1][^2]."
    assert markers(answer) == ["[^1]", "[^2]", "{^1}", "{^2}"]


# -- web and page ids --------------------------------------------------------------------------

def test_web_ids_become_web_citations():
    reg = registry(web("https://www.reuters.com/boeing", "Boeing delivered 480 jets in 2022.", "Reuters"), BOEING_44)
    answer = build_answer("Deliveries hit 480 {^1}, revenue $66.6B [^1].", reg, knowledge=False)
    c = answer.citations[0]
    assert (c.number, c.marker, c.kind, c.documentId, c.documentTitle) == (
        "1", "{^1}", "web", "https://www.reuters.com/boeing", "Reuters")
    assert c.metadata.url == "https://www.reuters.com/boeing" and c.metadata.page is None
    assert answer.citations[1].marker == "[^1]" and answer.citations[1].kind == "document"


def test_page_marker_without_a_page_source_is_dropped():
    reg = registry(BOEING_44)
    answer = build_answer("As shown on this page [^Current Page], revenue grew [^1].", reg, knowledge=False)
    assert answer.message == "As shown on this page, revenue grew [^1]."
    viewer = {"doc_id": page(BOEING, 2).doc_id, "source_file": BOEING, "page_number": 2}
    numbered = renumber_sources([page(BOEING, 2)], current_page=viewer)
    answer = build_answer("See [^Current Page].", numbered.registry, page_roles=numbered.page_roles, knowledge=False)
    assert answer.citations[0].metadata.page == 3 and answer.citations[0].kind == "page"
    # the same registry in a turn where no page is open: the role cites nothing
    assert build_answer("See [^Current Page].", numbered.registry, page_roles={}, knowledge=False).citations == []


# -- knowledge base Q-numbers ------------------------------------------------------------------

def test_q_numbers_in_all_three_patterns_become_category_markers():
    text = ("According to Q301, free cash flow subtracts capex. The quick ratio excludes inventory (Q302). "
            "Uploads are limited to 200 MB Q2001. Both measures matter (Q301, Q302).")
    answer = build_answer(text, {}, knowledge=KB)
    assert answer.message == ("According to [^8.1], free cash flow subtracts capex. The quick ratio excludes inventory "
                              "[^8.2]. Uploads are limited to 200 MB [^2.1]. Both measures matter [^8.1][^8.2].")
    assert [(c.number, c.marker, c.kind, c.documentId) for c in answer.citations] == [
        ("8.1", "[^8.1]", "knowledge", "Q301"), ("8.2", "[^8.2]", "knowledge", "Q302"), ("2.1", "[^2.1]", "knowledge", "Q2001")]
    c = answer.citations[0]
    assert c.documentTitle == "What is free cash flow?" and "capital expenditures" in c.snippet
    assert (c.metadata.q_id, c.metadata.category) == ("Q301", "Financial metrics") and "Handbook ch. 4" in c.preview


def test_unknown_q_numbers_are_not_citations():
    answer = build_answer("Per Q999 this holds (Q998). Also (Q301; Q997) and [Q996].", {}, knowledge=KB)
    assert answer.message == "Per Q999 this holds. Also [^8.1] and."
    assert [c.documentId for c in answer.citations] == ["Q301"]


def test_q_numbers_resolve_from_registry_sources_without_a_knowledge_base():
    item = KB.get("Q302")
    reg = renumber_sources([item.to_source(score=0.8)]).registry
    answer = build_answer("Exclude inventory (Q302). Unknown Q301.", reg, knowledge=False)
    assert answer.message == "Exclude inventory [^8.2]. Unknown Q301."
    assert answer.citations[0].documentId == "Q302"


def test_bracketed_numbers_that_are_not_ours_stay_text():
    answer = build_answer("Section [4.2] of the filing; see (Q301).", {}, knowledge=KB)
    assert answer.message == "Section [4.2] of the filing; see [^8.1]."
    assert markers(answer) == ["[^8.1]"]


# -- dead and malformed markers ----------------------------------------------------------------

def test_dead_and_malformed_markers_are_dropped_and_logged(caplog):
    reg = registry(BOEING_44, web("https://a.example"))
    text = "Revenue [^0] grew [^99]. Margin [^ 3] fell {^}. Cash [^] rose {^ 1} and {^7}. Kept [^1] {^1}."
    with caplog.at_level(logging.DEBUG, logger="agent.citations.answer"):
        answer = build_answer(text, reg, knowledge=False)
    assert answer.message == "Revenue grew. Margin fell. Cash rose and. Kept [^1] {^1}."
    assert markers(answer) == ["[^1]", "{^1}"]
    dropped = [r.getMessage() for r in caplog.records if "marker dropped" in r.getMessage()]
    for marker, reason in [("[^0]", "malformed"), ("[^99]", "no source"), ("[^ 3]", "malformed"), ("{^}", "malformed"),
                           ("{^7}", "no source")]:
        assert any(marker in m and reason in m for m in dropped), (marker, dropped)
    stages = " | ".join(r.getMessage() for r in caplog.records)
    assert "markers found" in stages and "citations built" in stages


def test_markers_inside_code_are_left_alone():
    reg = registry(BOEING_44)
    text = ("Use `[^99]` or `{^}` in your template, and `(Q301)`:\n"
            "```python\nref = '[^ 3] [chunk_id: 44] (Q301) [^1]'\n```\n"
            "~~~\n[^0]\n~~~\n"
            "Revenue grew [^1] [^42].")
    answer = build_answer(text, reg, knowledge=KB)
    assert answer.message == text.replace(" [^42]", "")
    assert markers(answer) == ["[^1]"]
    assert [m.text for m in iter_markers(answer.message)] == ["[^1]"]


def test_a_stray_backtick_does_not_hide_later_markers():
    reg = registry(BOEING_44)
    text = "The ticker is `BA.\n\nRevenue grew [^1] [^77] and `x = [^9]` stays."
    answer = build_answer(text, reg, knowledge=False)
    assert answer.message == "The ticker is `BA.\n\nRevenue grew [^1] and `x = [^9]` stays."
    assert markers(answer) == ["[^1]"]


# -- order, snippets, input forms --------------------------------------------------------------

def test_citations_in_order_of_first_appearance_with_relevant_snippet():
    long_text = ("The company operates in three segments. " * 5 +
                 "Total backlog was $404 billion at year end. Commercial airplanes had 4,500 orders.")
    reg = registry(BOEING_44, doc(45, long_text, page=40))
    answer = build_answer("The backlog was $404 billion [^2]. Revenue grew [^1]. Again [^2].", reg, knowledge=False)
    assert markers(answer) == ["[^2]", "[^1]"]
    assert answer.citations[0].snippet.startswith("… Total backlog was $404 billion")
    assert len(answer.citations[0].preview) >= len(answer.citations[0].snippet)


def test_sources_may_be_given_as_a_list_and_result_fields_are_set():
    srcs = [s for s in renumber_sources([BOEING_44]).sources]
    answer = build_answer("Revenue [^1].", srcs, knowledge=False, route="documents", mode="extractive")
    assert (answer.route, answer.mode, markers(answer)) == ("documents", "extractive", ["[^1]"])


def test_iter_markers_reports_kind_and_label():
    text = "a [^3] b {^2} c [^Current Page] d [8.1] e [chunk_id: 44, file: x.pdf] `[^9]`"
    assert [(m.kind, m.label, m.file) for m in iter_markers(text)] == [
        ("document", "3", None), ("web", "2", None), ("page", "Current Page", None), ("knowledge", "8.1", None),
        ("legacy", "44", "x.pdf")]
    for m in iter_markers(text):
        assert text[m.start:m.end] == m.text


@pytest.mark.parametrize("text", ["", "No citations at all.", "[^1]"])
def test_empty_or_uncited_answers(text):
    answer = build_answer(text, {}, knowledge=False)
    assert answer.citations == [] and answer.message == ("" if text == "[^1]" else text)


def test_two_different_pdfs_with_the_same_file_name_are_told_apart_by_doc_id():
    old = doc(3, "Revenue was $58.2 billion in fiscal 2019.", file="report.pdf", page=4, doc_id="report-aaaaaaaaaaaa")
    new = doc(3, "Headcount rose to 12,000 employees in 2023.", file="report.pdf", page=9, doc_id="report-bbbbbbbbbbbb")
    answer = build_answer("Revenue reached $58.2 billion [chunk_id: 3]. Headcount hit 12,000 [chunk_id: 3].",
                          registry(old, new), knowledge=False)
    assert answer.message == ("Revenue reached $58.2 billion [chunk_id: 3, file: report-aaaaaaaaaaaa]. "
                              "Headcount hit 12,000 [chunk_id: 3, file: report-bbbbbbbbbbbb].")
    assert [(c.documentId, c.metadata.page) for c in answer.citations] == [("report-aaaaaaaaaaaa", 5),
                                                                           ("report-bbbbbbbbbbbb", 10)]


def test_removing_a_dead_marker_never_leaves_an_unchecked_one():
    # "[[^0]^5]" -> "[^5]" and "[chunk_id: 4[^0]4]" -> "[chunk_id: 44]" once the malformed "[^0]" goes:
    # the joined markers are checked too (this used to raise KeyError and fail the whole turn).
    reg = registry(BOEING_44)  # [^1] = chunk 44
    answer = build_answer("Revenue grew [[^0]^5]. Backlog [[^0]^1]. Deliveries [chunk_id: 4[^0]4]. "
                          "Other [chunk_id: 4[^0]7].", reg, knowledge=False)
    assert answer.message == "Revenue grew. Backlog [^1]. Deliveries [^1]. Other."  # chunk 44 is [^1]
    assert markers(answer) == ["[^1]"]
    assert answer.citations[0].metadata.chunk_id == 44 and answer.citations[0].metadata.page == 40
    assert len(answer.citation_map["44"]["resolutions"]) == 1
