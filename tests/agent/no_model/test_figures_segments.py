"""A segment's figure is read from its segment table (generated PDFs read by layout): the segment
named as a section ("Americas:") or a caption; the words that say it is a segment ("segment's",
"reportable segment") need not be printed with the row; the company total is never a segment's."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, statement_pdf, asked_lead  # noqa: F401 (fixture)

YEARS = ("2022", "2021")
INCOME = Page("CONSOLIDATED STATEMENTS OF OPERATIONS", YEARS, [
    ("Net sales", "$ 394,328", "$ 365,817"),
    ("Operating income", "119,437", "108,949"),
])
SEGMENTS = Page("Note 13 – Segment Information and Geographic Data", YEARS, [
    ("Americas:",),
    ("Net sales", "$ 169,658", "$ 153,306"),
    ("Operating income", "$ 62,683", "$ 53,382"),
    ("Europe:",),
    ("Net sales", "$ 95,118", "$ 89,307"),
    ("Operating income", "$ 35,233", "$ 32,505"),
], caption="The following table shows information by reportable segment (in millions):")



def test_a_segments_row_is_read_from_its_section_of_the_segment_table(statement_pdf):
    sources, text = statement_pdf([SEGMENTS, INCOME])
    assert asked_lead("What was the Americas segment's operating income in fiscal 2022?", sources, text).startswith(
        "- Operating income (Years Ended December 31, 2022): $62,683 million [^1]")
    assert asked_lead("What were Europe net sales in 2021?", sources, text).startswith(
        "- Net sales (Years Ended December 31, 2021): $89,307 million [^1]")
    # the company's total is the statement's, never a segment's
    assert asked_lead("What was operating income in fiscal 2022?", sources, text).startswith(
        "- Operating income (Years Ended December 31, 2022): $119,437 million [^2]")
