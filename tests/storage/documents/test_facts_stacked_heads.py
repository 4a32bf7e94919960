"""A change column's head stacked over three lines ("Comparable" / "constant" / "currency %") beside a head of one
line ("Reported %"): each word of the stack belongs to the column it stands nearest to, never to the column at its
left, and a word of the stack printed on a line of its own over the columns heads no section of the rows."""

from __future__ import annotations

from tests.storage.documents.layout_pages import Statement, fact, facts_of

ROWS = [("Net sales", "14,544", "14,694", "1", "0"), ("EBIT", "1,701", "1,608", "(5)", "1"),
        ("Net income", "1,224", "1,089", "(11)", "(4)")]


def _statement(first_x: float) -> Statement:
    # the stack printed from `first_x`, a little left of the figures of its column (right edge 545)
    return Statement(["Key Financials", "($ million)"],
                     [[("Twelve Months Ended June 30,", 0, 1)], [], ["2022", "2023", "Reported %", "currency %"]],
                     ROWS, header_left={0: [(first_x, "Comparable")], 1: [(first_x + 6, "constant")]}, align="right")


def test_a_stacked_head_keeps_its_values_percents_of_no_period():
    facts = facts_of(_statement(485))
    reported, constant = fact(facts, "Net income", 2), fact(facts, "Net income", 3)
    assert "Reported" in reported.period and (reported.value, reported.unit, reported.period_end) == (-11, "%", None)
    assert "currency" in constant.period and (constant.value, constant.unit, constant.period_end) == (-4, "%", None)
    assert fact(facts, "Net income", 1).period_end == "2023-06-30"
    assert all(f.section == "" for f in facts if f.label in ("Net sales", "EBIT", "Net income"))


def test_a_stacked_head_word_is_no_section_of_the_rows():
    facts = facts_of(_statement(500))
    assert {f.section for f in facts if f.label == "EBIT"} == {""}
    assert all("constant" not in f.path for f in facts)


def test_a_section_at_the_labels_left_under_the_head_is_kept():
    # a schedule's years printed at the far left make a column there: a section label under the head still heads its rows
    st = Statement(["Lease assets", "($ million)"], [["2023", "2022"]],
                   [("Right-of-use assets:",), ("Operating leases", "10,417", "10,087"), ("Finance leases", "952", "861")])
    facts = facts_of(st)
    assert {f.section for f in facts if f.label in ("Operating leases", "Finance leases")} == {"Right-of-use assets"}
