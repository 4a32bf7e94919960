"""Knowledge markers only from knowledge references, and one citation per source whatever its forms."""

from __future__ import annotations

from agent.citations.ids import renumber_sources
from agent.citations.answer import build_answer
from agent.knowledge_base import KnowledgeBase
from tests.fixtures_citations import BOEING, doc, page

KB = KnowledgeBase.from_dict({
    "categories": [{"no": 2, "name": "Notes"}, {"no": 8, "name": "Metrics"}],
    "items": [{"id": "Q201", "question": "What is a note?", "answer": "A note.", "category": "Notes"},
              {"id": "Q301", "question": "What is FCF?", "answer": "OCF minus capex.", "category": "Metrics"}],
})  # labels: Q201 -> 2.1, Q301 -> 8.1


def _kinds(answer) -> list[tuple[str, str]]:
    return [(c.marker, c.kind) for c in answer.citations]


def test_bracketed_numbers_from_filings_are_never_knowledge_citations():
    text = "Note [2.1] describes leases and Item [8.1] the financial statements."
    answer = build_answer(text, {}, knowledge=KB)
    assert answer.message == text and answer.citations == []


def test_a_real_reference_next_to_the_same_bracketed_text_is_told_apart():
    answer = build_answer("Item [8.1] covers statements; FCF is OCF minus capex (Q301).", {}, knowledge=KB)
    assert answer.message == "Item [8.1] covers statements; FCF is OCF minus capex [^8.1]."
    assert _kinds(answer) == [("[^8.1]", "knowledge")]  # the filing's "[8.1]" stays text, the badge is ours


def test_q_numbers_inside_urls_and_code_stay_text():
    text = ("See https://example.com/faq/Q301?ref=Q201 and [the FAQ](https://example.com/Q301), "
            "or www.example.org/Q201 and `Q301`.")
    answer = build_answer(text, {}, knowledge=KB)
    assert answer.message == text and answer.citations == []


def test_q_numbers_in_scheme_less_urls_html_links_and_issue_keys_stay_text():
    text = ("See example.com/faq/Q301, <a href=\"/faq/Q301\">the FAQ</a>, <a href=\"https://x.org\">Q201</a> "
            "and ticket JIRA-Q301 (or Q201-b).")
    answer = build_answer(text, {}, knowledge=KB)
    assert answer.message == text and answer.citations == []
    cited = build_answer(text + " FCF is OCF minus capex (Q301).", {}, knowledge=KB)  # a real reference still cites
    assert cited.message == text + " FCF is OCF minus capex [^8.1]." and _kinds(cited) == [("[^8.1]", "knowledge")]


def test_markers_inside_urls_stay_part_of_the_url_and_a_marker_after_one_cites():
    registry = {"[^1]": doc(1), "[^2]": doc(2)}
    text = "Read https://example.com/a[^1]b?x=[^2]&y=1 and example.org/wiki/[^2]_x; revenue grew https://example.com/r[^1]."
    answer = build_answer(text, registry, knowledge=KB)
    assert answer.message == text
    assert [c.marker for c in answer.citations] == ["[^1]"]
    from agent.markers import iter_markers

    assert [(m.text, m.start) for m in iter_markers(text)] == [("[^1]", text.rindex("[^1]"))]
    dead = build_answer("See https://example.com/a[^99]b here.", registry, knowledge=KB)
    assert dead.message == "See https://example.com/a[^99]b here."  # not "dead": part of the URL


def test_q_numbers_written_as_references_still_become_citations():
    answer = build_answer("According to Q301, FCF subtracts capex. Notes matter (Q201). Also Q301.", {}, knowledge=KB)
    assert answer.message == "According to [^8.1], FCF subtracts capex. Notes matter [^2.1]. Also [^8.1]."
    assert _kinds(answer) == [("[^8.1]", "knowledge"), ("[^2.1]", "knowledge")]


def test_a_model_written_caret_label_is_not_taken_for_a_knowledge_citation():
    answer = build_answer("Revenue grew [^8.1].", {}, knowledge=KB)
    assert answer.message == "Revenue grew." and answer.citations == []


def test_one_chunk_cited_in_two_forms_is_listed_once():
    registry = renumber_sources([doc(30, "Revenue was $66.6 billion in 2022.", page=40)]).registry  # [^1]
    answer = build_answer(f"Revenue was $66.6 billion [^1]. It rose [chunk_id: 30, file: {BOEING}]. Again [chunk_id: 30].",
                          registry, knowledge=False)
    assert answer.message == "Revenue was $66.6 billion [^1]. It rose [^1]. Again [^1]."
    assert [(c.marker, c.metadata.chunk_id, c.metadata.page) for c in answer.citations] == [("[^1]", 30, 41)]


def test_legacy_form_first_keeps_its_form_for_later_citations_of_the_same_chunk():
    registry = renumber_sources([doc(30, "Revenue was $66.6 billion in 2022.")]).registry
    answer = build_answer("Revenue [chunk_id: 30]. Same [^1].", registry, knowledge=False)
    assert answer.message == "Revenue [chunk_id: 30]. Same [chunk_id: 30]."
    assert len(answer.citations) == 1 and answer.citations[0].metadata.chunk_id == 30


def test_the_current_page_and_its_own_id_are_one_citation():
    viewer = {"doc_id": page(BOEING, 6).doc_id, "source_file": BOEING, "page_number": 6}
    numbered = renumber_sources([page(BOEING, 6, text="Backlog grew.")], current_page=viewer)
    (page_id,) = numbered.page_roles.values()
    answer = build_answer(f"Backlog grew [^Current Page], see {page_id}.", numbered.registry,
                          page_roles=numbered.page_roles, knowledge=False)
    assert answer.message == "Backlog grew [^Current Page], see [^Current Page]."
    assert [(c.marker, c.metadata.page) for c in answer.citations] == [("[^Current Page]", 7)]
