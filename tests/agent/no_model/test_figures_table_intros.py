"""A note's table is about what the sentence leading into it says ("The following table reconciles the
changes in unrecognized tax benefits (in millions):"); its rows print only "Balance at end of year",
"Accretion", "Total current provision". Analysts say other words for a label's ("stock-based" of
"Share-based compensation expense", "pre-tax" of "before income taxes") — on generated note pages."""

from __future__ import annotations

from agent.no_model.cited_rows import table_intros
from agent.no_model.figures import INTRO
from storage.documents.tables import Unit
from tests.agent.no_model.pdf_statements import Page, asked_block, asked_lead, statement_pdf  # noqa: F401 (fixture)

YEARS = ("2022", "2021")
UTB = Page("Note 12 – Income Taxes", YEARS, [
    ("Balance at beginning of year", "$ 498", "$ 437"),
    ("Additions for tax positions of the current year", "73", "85"),
    ("Balance at end of year", "$ 570", "$ 498"),
], caption="The following table reconciles the changes in unrecognized tax benefits (in millions):", span="")
ARO = Page("Note 12 – Other Liabilities", YEARS, UTB.rows,
           caption="The following table reconciles the changes in asset retirement obligations (in millions):", span="")
TAX = Page("Note 13 – Income Taxes", YEARS, [
    ("Current provision:",),
    ("Federal", "(625)", "(709)"),
    ("State", "(398)", "(186)"),
    ("Total current provision", "(1,023)", "(895)"),
], caption="The provision for income taxes consisted of the following (in millions):", span="")
SBC = Page("Note 10 – Employee Benefit Plans", YEARS, [
    ("Share-based compensation expense", "$ 9,038", "$ 7,906"),
    ("Income tax benefit related to share-based compensation expense", "(4,002)", "(4,056)"),
    ("Compensation expense before income taxes, restricted units", "115", "56"),
], caption="Share-Based Compensation (in millions)", span="")


def test_the_lead_in_sentence_says_what_the_rows_are(statement_pdf):
    sources, text = statement_pdf([UTB])
    assert "570" in asked_lead("What was the balance of unrecognized tax benefits at the end of 2022?", sources, text)
    assert "$ 498" not in asked_lead("What was the balance of unrecognized tax benefits at the end of 2021?", sources, text)


def test_a_lead_in_naming_another_thing_does_not_say_the_question_s_words(statement_pdf):
    sources, text = statement_pdf([ARO])
    block = asked_block("What was the balance of unrecognized tax benefits at the end of 2022?", sources, text)
    assert not block or block[0] != INTRO, block


def test_taxes_printed_is_tax_asked(statement_pdf):
    sources, text = statement_pdf([TAX])
    assert "1,023" in asked_lead("What was the total current tax provision in fiscal 2022?", sources, text)


def test_analysts_words_for_the_label_s(statement_pdf):
    sources, text = statement_pdf([SBC])
    assert "9,038" in asked_lead("What was stock-based compensation expense in FY2022?", sources, text)
    assert "7,906" in asked_lead("What was the stock comp expense in 2021?", sources, text)
    assert "56" in asked_lead("What was pre-tax compensation expense for restricted units in 2021?", sources, text)


def _unit(text: str, header: object | None = None, row: bool = False) -> Unit:
    return Unit(text=text, is_table_row=row, is_header=header is not None, header=header)


def test_the_intro_is_the_last_sentence_ending_with_a_colon_across_a_column_group_line():
    head = _unit("(in millions) 2022 2021")
    units = [_unit("Earlier prose. The following table reconciles the changes in unrecognized"),
             _unit("tax benefits:"), _unit("Parent Subsidiary"), _unit("(in millions) 2022 2021", head),
             _unit("Balance 570 498", head, row=True)]
    assert table_intros(units) == {id(head): "The following table reconciles the changes in unrecognized tax benefits:"}
    assert table_intros([_unit("A paragraph ending with a period."), _unit("2022 2021", head)]) == {}


def test_a_heading_above_the_lead_in_is_not_part_of_it():
    head = _unit("2022 2021")
    units = [_unit("Asset Retirement Obligations"), _unit("The following table summarizes the changes in ARO liability,"),
             _unit("including decommissioning obligations:"), _unit("2022 2021", head)]
    assert table_intros(units) == {
        id(head): "The following table summarizes the changes in ARO liability, including decommissioning obligations:"}
