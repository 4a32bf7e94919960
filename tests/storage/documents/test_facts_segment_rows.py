"""A row labelled by a segment or a region under a section naming a segment measure ("Revenues:",
"(Loss)/earnings from operations:") is that measure of that segment: its fact carries the section's concept
and the segment in its path. Rows under other sections ("Operating expenses:") and totals keep their own
concept (or none)."""

from __future__ import annotations

from storage.documents.facts import segment_measure
from tests.storage.documents.layout_pages import Statement, facts_of

SEGMENTS = [("Revenues:",), ("Commercial Airplanes", "$ 16,162", "$ 32,255"), ("Defense, Space & Security", "26,257", "26,095"),
            ("Europe", "8,480", "9,050"), ("Total revenues", "$ 58,158", "$ 76,559"),
            ("(Loss)/earnings from operations:",), ("Commercial Airplanes", "(13,847)", "(6,657)"),
            ("Global Services", "(1,352)", "2,697"), ("Total (loss)/earnings from operations", "(12,767)", "(1,975)"),
            ("Operating expenses:",), ("Restructuring and other charges", "410", "120"), ("Research", "2,476", "3,219")]


def _facts():
    st = Statement(["Summary of Business Segment Data", "(Dollars in millions)"], ["Years ended December 31,", ["2020", "2019"]],
                   SEGMENTS)
    return facts_of(st)


def _at(facts, label, section, column=0):
    found = [f for f in facts if f.label == label and f.section.startswith(section) and f.column == column]
    assert found, sorted({(f.label, f.section) for f in facts})
    return found[0]


def test_segment_rows_carry_their_sections_measure_and_the_segment():
    facts = _facts()
    airplanes = _at(facts, "Commercial Airplanes", "Revenues")
    assert (airplanes.concept, airplanes.value, airplanes.scale) == ("Revenues", 16162, 1e6)
    assert airplanes.path[-2:] == ["Revenues", "Commercial Airplanes"]
    assert _at(facts, "Europe", "Revenues", 1).concept == "Revenues"
    loss = _at(facts, "Commercial Airplanes", "(Loss)/earnings")
    assert (loss.concept, loss.value) == ("OperatingIncomeLoss", -13847)
    assert loss.path[-1] == "Commercial Airplanes"
    assert _at(facts, "Global Services", "(Loss)/earnings", 1).concept == "OperatingIncomeLoss"


def test_totals_and_rows_under_other_sections_keep_their_own_concept():
    facts = _facts()
    total = [f for f in facts if f.label == "Total revenues"][0]
    assert total.concept == "Revenues" and "Total revenues" not in total.path
    assert _at(facts, "Restructuring and other charges", "Operating expenses").concept is None
    assert _at(facts, "Research", "Operating expenses").path[-1] == "Operating expenses"


def test_segment_measure_is_a_class_of_sections():
    assert segment_measure("Asia Pacific", "Net sales").concept == "Revenues"
    assert segment_measure("Intelligent Cloud", "Operating income").concept == "OperatingIncomeLoss"
    assert segment_measure("Asia Pacific", "Operating expenses") is None
    assert segment_measure("Asia Pacific", "Net sales", percent=True) is None  # a share of sales, no amount
    assert segment_measure("Cost of sales", "Net sales") is None  # a line item of its own
    assert segment_measure("Total", "Net sales") is None
