"""Change and percent sub-columns beside each period's amount (issue 27): releases and MD&A tables print, after
"2023 | 2022", a reported change and a change on another basis ("Inc/(Dec) | Constant currency", "Reported ∆% |
Constant currency ∆%"), titles often set so close that one header line reads as one phrase. Each change column is
headed by its own title, never by both; the basis a question names picks its column (a basis no column names gives
no printed change); a change column is never a year's amount. Generated PDFs read by layout."""

from __future__ import annotations

from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401 (fixture)

FILE = "NORTHWIND_2023_EARNINGS.pdf"
# the two change titles are printed 5 points apart: one text segment over two columns
BASES = Page("SELECTED RESULTS", ("2023", "2022", "Inc/(Dec)", "Constant currency"), [
    ("Net sales", "$ 9,120", "$ 8,410", "8%", "10%"),
    ("Gross profit", "3,010", "2,650", "14%", "15%"),
], caption="(Dollars in millions)", span="Years Ended December 31,", first_column=300, gap=75)
EXCLUDING = Page("SELECTED RESULTS", ("2023", "2022", "% Change", "Excluding currency translation"), [
    ("Net sales", "$ 9,120", "$ 8,410", "8%", "11%"),
], caption="(Dollars in millions)", span="Years Ended December 31,", first_column=170, gap=125)
# a release's columns in McDonald's-style words: the basis said in the plural
CURRENCIES = Page("SELECTED RESULTS", ("2023", "2022", "% Inc/(Dec)", "% Inc/(Dec) Constant Currencies"), [
    ("Revenues", "$ 9,120", "$ 8,410", "8%", "10%"),
], caption="(Dollars in millions)", span="Years Ended December 31,", first_column=170, gap=110)
ONE = Page("SELECTED RESULTS", ("2023", "2022", "% Change"), [
    ("Net sales", "$ 9,120", "$ 8,410", "8%"),
], caption="(Dollars in millions)", span="Years Ended December 31,", first_column=300, gap=75)


def test_the_basis_asked_reads_its_own_change_column(statement_pdf):
    sources, text = statement_pdf([BASES], file=FILE, fiscal=(2023, None))
    lead = asked_lead("By what percentage did Northwind's net sales grow in 2023 in constant currency?", sources, text)
    assert "10%" in lead and "8%" not in lead and "Constant currency" in lead, lead
    lead = asked_lead("By what percent did gross profit change in 2023 in constant currency?", sources, text)
    assert "15%" in lead and "14%" not in lead, lead


def test_no_basis_asked_reads_the_reported_change(statement_pdf):
    sources, text = statement_pdf([BASES], file=FILE, fiscal=(2023, None))
    lead = asked_lead("By what percent did Northwind's net sales change in 2023?", sources, text)
    assert "8%" in lead and "10%" not in lead and "Constant currency" not in lead, lead
    assert "2023" in lead and "2022" in lead, lead  # the change is said with the periods it compares


def test_excluding_currency_translation_is_a_change_column_of_its_own(statement_pdf):
    sources, text = statement_pdf([EXCLUDING], file=FILE, fiscal=(2023, None))
    lead = asked_lead("By what percentage did net sales increase in 2023 excluding currency translation?", sources, text)
    assert "11%" in lead and "8%" not in lead, lead
    lead = asked_lead("By what percentage did net sales increase in 2023?", sources, text)
    assert "8%" in lead and "11%" not in lead, lead


def test_a_basis_in_other_words_reads_its_own_column(statement_pdf):
    sources, text = statement_pdf([CURRENCIES], file=FILE, fiscal=(2023, None))
    for asked in ("By what percentage did Northwind's revenues grow in 2023 in constant currencies?",
                  "How much did revenues increase in 2023 at constant exchange rates, in percent?"):
        lead = asked_lead(asked, sources, text)
        assert "10%" in lead and "8%" not in lead, (asked, lead)
    lead = asked_lead("By what percentage did Northwind's revenues grow in 2023?", sources, text)
    assert "8%" in lead and "10%" not in lead, lead


def test_a_basis_no_column_names_prints_no_change(statement_pdf):
    sources, text = statement_pdf([ONE], file=FILE, fiscal=(2023, None))
    for asked in ("By what percentage did net sales grow in 2023 in constant currency?",
                  "By what percentage did net sales grow in 2023 in constant dollars?"):
        block = asked_block(asked, sources, text)
        assert not any("(% Change" in line and "8%" in line for line in block or []), (asked, block)


def test_year_columns_read_as_before_beside_change_columns(statement_pdf):
    sources, text = statement_pdf([BASES], file=FILE, fiscal=(2023, None))
    for asked, value, other in (("What were Northwind's net sales in 2023?", "$9,120", "8%"),
                                ("What were Northwind's net sales in 2022?", "$8,410", "10%"),
                                ("What was gross profit in 2023?", "$3,010", "14%")):
        lead = asked_lead(asked, sources, text)
        assert value in lead and other not in lead, (asked, lead)
