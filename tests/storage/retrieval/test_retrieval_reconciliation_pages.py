"""The table pages printing the reconciliation or non-GAAP measure a question names
(storage/retrieval/reconciliation_pages.py), on page texts: a measure non-GAAP by name in full or abbreviated, an
adjusted figure printed in a row naming several, a core figure spelled out, a list of certain charges; prose pages
and questions naming none get no page; the page printing every asked year, then the one saying it reconciles,
comes first."""

from __future__ import annotations

from storage.retrieval.reconciliation_pages import measure_phrases, pages_printing


def _table(title: str, rows: list[str], years=("2023", "2022")) -> str:
    """A table page's text as a reader gives it: a title, the years, rows of a label and a figure a year."""
    figures = [" ".join(f"{(i + 1) * 101 + k:,}" for k, _ in enumerate(years)) for i in range(len(rows))]
    return "\n".join([title, "(In thousands)", " ".join(years)] +
                     [f"{label} {f}" for label, f in zip(rows, figures)] + [f"Other item {n} 1 2" for n in range(10)])


PROSE = ("Funds from Operations. We calculate funds from operations (FFO) as net income excluding gains on sales of "
         "real estate and real estate depreciation and amortization; FFO is a non-GAAP measure.")
INCOME = _table("CONSOLIDATED STATEMENTS OF OPERATIONS", ["Rental revenue", "Depreciation and amortization",
                                                          "Gains on sales of real estate", "Net income"])
FFO = _table("The following is a reconciliation of net income to Funds from Operations", [
    "Net income", "Real estate depreciation and amortization", "Gains on sales of real estate",
    "Funds from Operations"], years=("2023", "2022", "2021", "2020", "2019"))


def test_a_measure_non_gaap_by_name_gets_the_table_page_printing_it_not_the_prose_defining_it():
    pages = [PROSE, INCOME, FFO]
    asked = "How much did gains on sales of real estate take out of Acme's 2022 net income on the way to FFO?"
    assert pages_printing(pages, asked) == [2]  # abbreviated in the question, in full on the page
    assert pages_printing(pages, "What were Acme's funds from operations in 2021?") == [2]
    # no measure named: no page (the statement pages and the search are left as they were)
    assert measure_phrases("What was Acme's net income in 2022?") == ()
    assert pages_printing(pages, "What was Acme's net income in 2022?") == []
    assert pages_printing(pages, asked, most=0) == []


def test_the_page_printing_every_asked_year_then_the_one_saying_it_reconciles_comes_first():
    five = ("2023", "2022", "2021", "2020", "2019")
    rows = ["Net operating income", "Interest expense", "Net income"]
    # the segment table says as many of the question's words as the plain one (not the year) and the measure more
    # often; the plain one says more of them than the reconciliation
    segment = _table("Acme NOI: subtract interest expense, by region", rows * 2)
    plain = _table("Acme NOI", rows, years=five)
    noi = _table("Reconciliation of NOI to net income", rows, years=five)
    asked = "What interest expense did Acme subtract from NOI in 2020?"
    assert pages_printing([segment, plain, noi], asked) == [2, 1]  # no 2020 column: the segment table last
    assert pages_printing([segment, plain, noi], asked, most=1) == [2]
    # every table prints 2023: the reconciliation first, then the question's words
    assert pages_printing([segment, plain, noi], asked.replace("2020", "2023"), most=3)[0] == 2


def test_an_adjusted_or_core_figure_and_a_list_of_charges_are_read_as_pages_print_them():
    combined = _table("Reconciliation of Non-GAAP Measures", [
        "Net income attributable to Acme", "Restructuring", "Adjusted EBITDA, EBIT, Net income and EPS"])
    assert pages_printing([INCOME, combined], "How much did restructuring add to Acme's adjusted EBIT in the June "
                                              "2023 quarter?") == [1]
    core = _table("Core earnings", ["Loss from operations", "FAS/CAS service cost adjustment",
                                    "Core earnings per share"])
    assert pages_printing([INCOME, core], "What FAS/CAS adjustment per share did Acme make to reach core EPS in "
                                          "2022?") == [1]
    charges = _table("Supplemental Disclosure Related to Certain Charges", [
        "Stock-based compensation", "Restructuring", "Income tax effects"])
    assert pages_printing([INCOME, charges], "How much restructuring did Acme report among the certain charges "
                                             "for fiscal 2022?") == [1]
    # an adjusted word that names no figure ("adjusted for"), a qualifier the page does not print: no page
    assert measure_phrases("What was revenue adjusted for currency in 2022?") == ()
    assert pages_printing([INCOME, charges], "What was Acme's adjusted EBITDA in 2022?") == []
