"""The pages the figure path reads: the first six sources, and, when those answer nothing, a second reading: the
statements tool's pages (kind "page") and the search's first six other pages, a page's second passage taking no place.
The first reading's answer stands: a page only the second reading adds never makes it ambiguous. Generated pages read
by layout; where said, the first three are the statements tool's pages, the rest the search's passages in rank order."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401 (fixture)

BALANCE = Page("CONSOLIDATED BALANCE SHEETS", ("2022", "2021"), [
    ("Total current assets", "4,210", "3,980"), ("Total assets", "12,400", "11,900")], caption="In millions",
    span="December 31,")
CASH = Page("CONSOLIDATED STATEMENTS OF CASH FLOWS", ("2022", "2021"), [
    ("Net cash provided by operating activities", "1,204", "1,150"),
    ("Purchases of property and equipment", "(310)", "(295)")], caption="In millions")
INCOME = Page("CONSOLIDATED STATEMENTS OF INCOME", ("2022", "2021"), [
    ("Net sales", "9,120", "8,640"), ("Net income", "802", "761")], caption="In millions")
PROSE = Page("MANAGEMENT'S DISCUSSION AND ANALYSIS", ("2022", "2021"), [("Employees at year end", "8,100", "7,900")],
             caption="", span="")
LEASES = Page("NOTE 9. LEASES", ("2022", "2021"), [
    ("Operating lease cost", "142", "131"), ("Variable lease cost", "37", "33")], caption="In millions")
OTHER_LEASES = Page("NOTE 9. LEASES", ("2022", "2021"), [
    ("Operating lease cost", "98", "90")], caption="In millions")


def _as_statement_pages(sources, n: int = 3):
    """The first `n` sources as the statements tool hands them (whole pages, kind "page")."""
    return [s.model_copy(update={"kind": "page"}) if i < n else s for i, s in enumerate(sources)]


def test_a_search_passage_pushed_out_by_statement_pages_is_read(statement_pdf):
    # three statement pages, then five search passages: the leases note is the search's fifth, the eighth source
    sources, text = statement_pdf([BALANCE, CASH, INCOME, PROSE, PROSE, PROSE, PROSE, LEASES], issuer="Northwind")
    sources = _as_statement_pages(sources)
    lead = asked_lead("What was Northwind's operating lease cost in 2022?", sources, text)
    assert lead.startswith("- Operating lease cost (") and "142 million" in lead and "[^8]" in lead, lead


def test_a_pages_second_passage_takes_no_place(statement_pdf):
    # the search's first page returned as two passages: the leases note is its sixth page, its seventh passage
    sources, text = statement_pdf([PROSE, PROSE, PROSE, PROSE, PROSE, LEASES], issuer="Northwind")
    sources = [sources[0], sources[0].model_copy(update={"source_id": "[^7]", "text": "Employees at year end"}),
               *sources[1:]]
    lead = asked_lead("What was Northwind's operating lease cost in 2022?", sources, text)
    assert "142 million" in lead and "[^6]" in lead, lead


def test_no_figure_when_no_page_read_prints_the_row(statement_pdf):
    # seven search pages, the leases note the seventh: read by neither reading
    sources, text = statement_pdf([BALANCE, CASH, INCOME, PROSE, PROSE, PROSE, LEASES], issuer="Northwind")
    assert asked_block("What was Northwind's operating lease cost in 2022?", sources, text) is None


def test_the_first_readings_answer_stands(statement_pdf):
    # the first six sources answer (the leases note is the fourth); another table printing the label with another value
    # is the seventh source, which only a second reading would add: the answer is not refused as ambiguous
    pages = [BALANCE, CASH, INCOME, LEASES, PROSE, PROSE, OTHER_LEASES]
    sources, text = statement_pdf(pages, issuer="Northwind")
    sources = _as_statement_pages(sources)
    lead = asked_lead("What was Northwind's operating lease cost in 2022?", sources, text)
    assert "142 million" in lead and "[^4]" in lead, lead
