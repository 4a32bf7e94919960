"""A segment table printing one block per measure ("Revenue" then "Operating Income", each closed by a bare "Total"
row): the "Total" row is that measure's total, and a segment's row under a block is that segment's measure.
Generated PDFs read by layout."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, asked_block, statement_pdf  # noqa: F401 (fixture)

SEGMENTS = Page("SEGMENT RESULTS OF OPERATIONS", ("2022", "2021"), [
    ("Revenue",), ("Productivity and Business Processes", "$ 63,364", "$ 53,915"),
    ("Intelligent Cloud", "75,251", "60,080"),
    ("Total", "$ 138,615", "$ 113,995"),
    ("Operating Income",), ("Productivity and Business Processes", "$ 29,690", "$ 24,351"),
    ("Intelligent Cloud", "32,721", "26,126"), ("Total", "$ 62,411", "$ 50,477")], span="Year Ended June 30,")


def test_a_bare_total_row_is_its_blocks_measure(statement_pdf):
    sources, text = statement_pdf([SEGMENTS])
    for question, value, other in (("What was total revenue in fiscal 2022?", "$138,615", "62,411"),
                                   ("What was total operating income in fiscal 2021?", "$50,477", "113,995"),
                                   ("What was Intelligent Cloud revenue in fiscal 2022?", "$75,251", "32,721")):
        block = asked_block(question, sources, text)
        assert block and value in block[1] and other not in block[1], (question, block)
