"""Display numbering (agent/citations/numbering.py): each answer's sources read 1…n in order of first
use, whatever ids the conversation's registry gave them; the stored answer is unchanged."""

from __future__ import annotations

from agent.citations.answer import build_answer
from agent.citations.numbering import display_citations, display_labels
from tests.fixtures_citations import doc, web


def _answer(text: str, registry: dict):
    return build_answer(text, registry, knowledge=False)


def test_markers_read_one_to_n_in_order_of_first_use():
    registry = {"[^9]": doc(9), "[^10]": doc(10), "[^12]": doc(12), "[^25]": doc(25), "{^3}": web("https://x.org/a")}
    answer = _answer("Revenue rose [^25]. Costs fell [^12][^10][^9], per the press {^3}; revenue again [^25].", registry)
    assert display_labels(answer.message, answer.citations) == {"[^25]": "1", "[^12]": "2", "[^10]": "3", "[^9]": "4", "{^3}": "5"}
    shown = display_citations(answer.message, answer.citations)
    assert [(c.number, c.marker, c.metadata.chunk_id) for c in shown] == [
        ("1", "[^25]", 25), ("2", "[^12]", 12), ("3", "[^10]", 10), ("4", "[^9]", 9), ("5", "{^3}", None)]
    assert display_citations(answer.message, shown) == shown  # idempotent: page and export may both apply it
    assert "[^25]" in answer.message and answer.citations[0].number == "25"  # the stored answer keeps its ids


def test_a_legacy_marker_is_numbered_with_the_rest():
    registry = {"[^7]": doc(7), "[^30]": doc(30)}
    answer = _answer("Sales grew [^30]; margins held [chunk_id: 7].", registry)
    assert [c.marker for c in answer.citations] == ["[^30]", "[chunk_id: 7]"]
    assert [c.number for c in display_citations(answer.message, answer.citations)] == ["1", "2"]


def test_citations_not_in_the_text_follow_and_code_or_address_markers_do_not_count():
    registry = {"[^4]": doc(4), "[^5]": doc(5)}
    answer = _answer("Grew [^5].", registry)
    extra = answer.citations + [answer.citations[0].model_copy(update={"marker": "[^4]", "number": "4"})]
    text = "`[^4]` and https://x.org/a[^4]b, then grew [^5]."
    assert display_labels(text, extra) == {"[^5]": "1", "[^4]": "2"}
