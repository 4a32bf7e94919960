"""The claim check against a cited page's table facts (agent/claims/facts.py, agent/claims/support.py), on
generated statement pages (PyMuPDF text at positions, read by the layout reader as at answer time):
one test per rule of each planted class and each true form of bench/claims.py's hostile set."""

from __future__ import annotations

import pymupdf
import pytest

from agent.claims.check import CheckedSource, check_answer
from agent.claims.facts import facts_of_units
from agent.claims.figures import caption_scale
from storage.documents.table_layout import layout_units

ROWS = (  # label, 2022, 2021 (a statement "in millions" unless the caption says otherwise)
    ("Net sales", "$34,229", "$31,746"),
    ("Cost of sales", "19,232", "17,906"),
    ("Gross profit", "14,997", "13,840"),
    ("Operating income", "4,512", "5,001"),
    ("Net income", "$3,120", "$2,855"),
    ("Purchases of property and equipment", "(1,577)", "(1,201)"),
    ("Diluted earnings per share", "$6.11", "$5.61"),
)
FOOTNOTE = "(1) Includes restructuring charges of $842 million recorded in the fourth quarter."


def _page(caption: str = "(Millions)", rows=ROWS, header: str | None = None, footnote: str = FOOTNOTE,
          years=("2022", "2021")) -> tuple[str, list]:
    doc = pymupdf.open()
    page = doc.new_page()
    if header:  # a running header above the statement
        page.insert_text((56, 40), header, fontsize=8)
    page.insert_text((56, 60), "Northwind Beverages, Inc.", fontsize=11)
    page.insert_text((56, 76), "CONSOLIDATED STATEMENTS OF INCOME", fontsize=11)
    page.insert_text((56, 92), caption, fontsize=9)
    page.insert_text((400, 116), "Year Ended December 31,", fontsize=9)
    for i, year in enumerate(years):
        page.insert_text((440 + 70 * i, 128), year, fontsize=9)
    for k, (label, *values) in enumerate(rows):
        y = 150 + 14 * k
        page.insert_text((56, y), label, fontsize=9)
        for i, value in enumerate(values):
            right = 470 + 70 * i  # right-aligned under the year
            page.insert_text((right - pymupdf.get_text_length(value, fontsize=9), y), value, fontsize=9)
    if footnote:
        page.insert_text((56, 170 + 14 * len(rows)), footnote, fontsize=8)
    text, words = page.get_text(), page.get_text("words")
    doc.close()
    return text, words


@pytest.fixture(scope="module")
def statement() -> CheckedSource:
    text, words = _page()
    return CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))


def _problems(sentence: str, source: CheckedSource) -> list[str]:
    return [p.text for c in check_answer(sentence, {"[^1]": source}) for p in c.problems]


def test_the_layout_read_gives_facts_at_the_captions_scale(statement):
    facts, prose = statement.page_facts
    sales = [f for f in facts if f.label == "Net sales"]
    assert [(f.printed, f.value, sorted(f.years)) for f in sales] == [("$34,229", 34_229e6, [2022]), ("$31,746", 31_746e6, [2021])]
    eps = next(f for f in facts if f.label.startswith("Diluted"))
    assert eps.scale == 1.0  # per share: as printed
    capex = next(f for f in facts if f.label.startswith("Purchases"))
    assert capex.negative and capex.value == -1_577e6
    assert any("restructuring" in line for line in prose)


@pytest.mark.parametrize("caption,scale", [("(Millions)", 1e6), ("(In millions, except per share amounts)", 1e6),
                                           ("($ in thousands)", 1e3), ("(Dollars in millions)", 1e6), ("(000s)", 1e3),
                                           ("Consolidated results", None)])
def test_one_reader_of_scale_captions(caption, scale):
    assert caption_scale(caption) == scale


@pytest.mark.parametrize("sentence", [
    "Net sales were $34.2 billion in fiscal 2022 [^1].",  # scale words
    "Net sales were $34,229 million in 2022 [^1].",  # a "(Millions)" caption
    "Net sales came to about $34 billion in 2022 [^1].",  # rounding
    "Net sales were 34,229 in 2022 [^1].",  # as printed
    "Capital expenditures were -$1,577 million in 2022 [^1].",  # parentheses as an outflow
    "The company used $1.6 billion for purchases of property and equipment in 2022 [^1].",
    "Net sales rose 7.8% from 2021 [^1].",  # a change stated without its arithmetic
    "Net sales increased by $2.5 billion in 2022 [^1].",
    "Operating income fell 9.8% in 2022 [^1].",
    "Net sales grew by 2,483 (34,229 − 31,746) [^1].",  # arithmetic over bare inputs
    "Gross margin was 43.8% in 2022 [^1].",  # a ratio of two facts of one column
    "Diluted earnings per share were $6.11 in 2022 [^1].",
    "- Net sales (2022): $34,229 [^1]",  # a cell as printed
    "The statement's line ‘Net sales’ shows $34.2 billion for 2022 [^1].",
])
def test_true_claims_in_the_forms_people_write_pass(statement, sentence):
    assert _problems(sentence, statement) == []


@pytest.mark.parametrize("sentence,flagged", [
    ("Net sales were $19.2 billion in 2022 [^1].", "$19.2 billion"),  # another row's number
    ("Net sales were $31,746 million in 2022 [^1].", "$31,746 million"),  # the prior-year column
    ("Net sales were $842 million in 2022 [^1].", "$842 million"),  # a footnote's number
    ("Net sales were $2,022 million in 2022 [^1].", "$2,022 million"),  # a year header times the caption
    ("Net income was $6.11 million in 2022 [^1].", "$6.11 million"),  # a per-share amount times the caption
    ("Net sales were $34,229 in 2022 [^1].", "$34,229"),  # the scale left out
    ("Net sales were $34.2 million in 2022 [^1].", "$34.2 million"),  # a wrong scale
    ("Operating income rose 9.8% in 2022 [^1].", "9.8%"),  # "rose" for a printed decrease
    ("Operating income rose to $4.5 billion in 2022 from 2021 [^1].", "$4.5 billion"),
    ("Net sales rose 7.8 percentage points from 2021 [^1].", "7.8"),  # points for percent
    ("The company employed 34,229 people in 2022 [^1].", "34,229"),  # people for an amount
    ("Net sales were €34.2 billion in 2022 [^1].", "€34.2 billion"),  # a currency the table is not in
])
def test_a_number_matched_only_elsewhere_on_the_page_is_not_found(statement, sentence, flagged):
    assert _problems(sentence, statement) == [flagged]


def test_the_preview_says_what_the_page_prints_for_the_claimed_item(statement):
    claim = check_answer("Net sales were $19.2 billion in 2022 [^1].", {"[^1]": statement})[0]
    assert claim.source_says["[^1]"].startswith("Net sales: $34,229 (Year Ended December 31, 2022)")


def test_quotes_in_any_marks_and_spliced_quotes_part_by_part(statement):
    assert _problems("The filing reports ‘Adjusted net sales’ of $34.2 billion for 2022 [^1].", statement) == \
        ["Adjusted net sales"]
    assert _problems("The filing reports 'Net operating sales' of $34.2 billion [^1].", statement) == ["Net operating sales"]
    assert _problems("It's the company's “Net sales” line [^1].", statement) == []  # apostrophes are no quotes
    # a label spliced with another row's value: the value must stand on the label's row
    assert _problems("The statement shows “Net sales … 19,232” for 2022 [^1].", statement) == ["Net sales … 19,232"]
    assert _problems("The statement shows “Net sales … 34,229” for 2022 [^1].", statement) == []
    # the prior-year value of the row, while the sentence says 2022
    assert _problems("The statement shows “Net sales … 31,746” for 2022 [^1].", statement) == ["Net sales … 31,746"]
    assert _problems("The page says “Includes restructuring charges … fourth quarter” [^1].", statement) == []
    assert _problems("The page says “Includes restructuring charges … first quarter” [^1].", statement) == ["first quarter"]


def test_a_row_label_quoted_with_another_rows_value_fails(statement):
    assert _problems("- Net sales (2022): 19,232 [^1]", statement) == ["Net sales … 19,232"]
    assert _problems("- Net sales (2021): $34,229 [^1]", statement) == ["Net sales … $34,229"]  # another column
    assert _problems("- Net sales (2022): $34,229 [^1]", statement) == []


def test_a_figure_in_an_unmarked_sentence_is_checked_against_the_answers_cited_pages(statement):
    text = "Net sales were $34.2 billion in 2022 [^1]. Net income was $4.5 billion in 2022."
    claims = check_answer(text, {"[^1]": statement})
    assert [(c.sentence, [p.text for p in c.problems], c.source_ids) for c in claims][1] == \
        ("Net income was $4.5 billion in 2022.", ["$4.5 billion"], ["[^1]"])
    ok = check_answer("Net sales were $34.2 billion in 2022 [^1]. Net income was $3.1 billion in 2022.", {"[^1]": statement})
    assert all(c.ok for c in ok) and len(ok) == 2
    # a sentence with no figure and no quote is not a claim
    assert len(check_answer("Here is the summary. Net sales were $34.2 billion [^1].", {"[^1]": statement})) == 1


def test_a_figure_cited_to_a_knowledge_item_is_checked_against_the_items_text(statement):
    item = CheckedSource(["Net sales were $34,229 million in fiscal 2022."], knowledge=True)
    assert _problems_k("Net sales were $34.2 billion [^8.1].", item) == []
    assert _problems_k("Net sales were $36.2 billion [^8.1].", item) == ["$36.2 billion"]
    # an unmarked sentence is checked against document pages only, never a knowledge item
    claims = check_answer("Net sales were $34.2 billion [^8.1]. Net income was $4.5 billion.", {"[^8.1]": item})
    assert len(claims) == 1


def _problems_k(sentence: str, item: CheckedSource) -> list[str]:
    return [p.text for c in check_answer(sentence, {"[^8.1]": item}) for p in c.problems]


def test_a_running_header_with_company_form_and_year_does_not_break_the_facts():
    text, words = _page(header="NORTHWIND BEVERAGES, INC. ANNUAL REPORT ON FORM 10-K FISCAL YEAR 2022")
    source = CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))
    assert _problems("Net sales were $34.2 billion in fiscal 2022 [^1].", source) == []
    assert _problems("Net sales were $2,022 million in fiscal 2022 [^1].", source) == ["$2,022 million"]


def test_a_thousands_caption_scales_its_values():
    text, words = _page(caption="(In thousands, except per share data)")
    source = CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))
    assert _problems("Net sales were $34.2 million in 2022 [^1].", source) == []
    assert _problems("Net sales were $34.2 billion in 2022 [^1].", source) == ["$34.2 billion"]
    assert _problems("Diluted earnings per share were $6.11 in 2022 [^1].", source) == []


def test_the_graphs_path_checks_a_q_number_item_against_its_own_text():
    from agent.citations.answer import build_answer
    from agent.claims.check import check_turn

    item = "Net sales were $34,229 million in fiscal 2022."
    registry = {"Q301": {"kind": "knowledge", "source_id": "Q301", "title": "Net sales", "text": item,
                         "extra": {"label": "8.1", "q_id": "Q301", "answer": item}}}
    for sentence, flagged in (("Net sales were $34.2 billion (Q301).", []), ("Net sales were $36.2 billion (Q301).", ["$36.2 billion"])):
        answer = build_answer(sentence, registry, knowledge=False)
        assert answer.citations and answer.citations[0].kind == "knowledge"
        assert [p.text for c in check_turn(answer, registry) for p in c.problems] == flagged


def test_inputs_of_shown_arithmetic_and_amounts_printed_in_labels(statement):
    # each input is named by its own label, not by the sentence's item
    assert _problems("- Total costs = 19,232 + 4,512 = 23,744 (computed) [^1]", statement) == []
    assert _problems("- Total costs = 19,233 + 4,512 = 23,745 (computed) [^1]", statement) == ["19,233"]
    text, words = _page(rows=ROWS + (("Cash dividends declared ($0.88 per share)", "(412)", "(398)"),))
    source = CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))
    assert _problems("Cash dividends declared were $0.88 per share in 2022 [^1].", source) == []
    # a cell quoted with its parenthesised value as printed
    assert _problems("- Purchases of property and equipment (2022): ($1,577) — -$1,577 million in 2022 [^1]", statement) == []


def test_a_range_of_years_names_the_years_between():
    rows = (("Total revenue", "49,954", "42,440"),)
    text, words = _page(rows=rows, years=("2023", "2022"))
    source = CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))
    good = "- Total revenue average, 2021–2023 = (42,440 + 49,954) / 2 = 46,197 (computed) [^1]"
    assert _problems(good, source) == []
    assert _problems(good.replace("2021–2023", "2023"), source) == ["42,440"]  # 2022 is not 2023
    assert _problems("Total revenue was $42.4 billion in 2021 [^1].", source) == ["$42.4 billion"]


def test_row_scales_come_from_the_one_scale_reader():
    rows = ROWS + (("Weighted-average shares outstanding", "1,204", "1,198"), ("Basic earnings per ordinary share", "$0.604", "$0.532"))
    text, words = _page(caption="(In millions, except share and per share data)", rows=rows)
    facts, _ = facts_of_units(layout_units(words))
    scale = {f.label: f.scale for f in facts}
    assert scale["Net sales"] == 1e6 and scale["Weighted-average shares outstanding"] == 1.0
    assert scale["Basic earnings per ordinary share"] == 1.0 and scale["Diluted earnings per share"] == 1.0
    source = CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))
    assert _problems("Basic earnings per ordinary share were $0.604 in 2022 [^1].", source) == []
    assert _problems("Weighted-average shares outstanding were 1,204 million in 2022 [^1].", source) == ["1,204 million"]


def test_a_rounder_number_in_prose_or_a_count_supports_no_amount():
    note = "(1) Diluted earnings per share are computed independently for each of the quarters presented."
    text, words = _page(footnote=note)
    source = CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))
    assert _problems("Diluted earnings per share were $6.11 in 2022 [^1].", source) == []
    assert _problems("Diluted earnings per share were $1.29 in 2022 [^1].", source) == ["$1.29"]  # not the "(1)"
    shares = "Common stock, $0.10 par value; 800 million shares authorized as of May 31, 2022."
    text, words = _page(footnote=shares)
    source = CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))
    assert _problems("Authorized common stock was 800 million shares as of May 31, 2022 [^1].", source) == []
    assert _problems("Common stock was $800 million as of May 31, 2022 [^1].", source) == ["$800 million"]
    assert _problems("Net sales were $800 million as of May 31, 2022 [^1].", source) == ["$800 million"]  # "May" names no item


def test_the_value_a_change_ends_at_is_not_the_column_it_starts_from():
    rows = (("Electric", "$15,060", "$15,131"),)  # rounds to $15.1 billion in both years; fell in 2022
    text, words = _page(rows=rows)
    source = CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))
    assert _problems("Electric decreased to $15.1 billion in 2022 from fiscal 2021 [^1].", source) == []
    assert _problems("Electric increased to $15.1 billion in 2022 from fiscal 2021 [^1].", source) == ["$15.1 billion"]


def test_a_row_read_without_its_columns_takes_the_headers_years_in_order():
    from storage.documents.tables import TableHeader, Unit

    header = TableHeader("May 31, 2023 2022", ("May 31, 2023", "Effective rate 2023", "May 31, 2022"))
    units = [Unit("7. NOTES PAYABLE AND OTHER BORROWINGS", False), Unit("May 31, 2023 2022", False, header, is_header=True),
             Unit("Total notes payable and other borrowings $90,481 $75,859", True, None, unit="(Amounts in millions)")]
    facts, _ = facts_of_units(units)
    assert [(f.printed, f.period, sorted(f.years)) for f in facts] == \
        [("$90,481", "May 31, 2023", [2023]), ("$75,859", "May 31, 2022", [2022])]
    source = CheckedSource([units[-1].text], load_facts=lambda: (facts, []))
    assert _problems("Total notes payable and other borrowings rose 19.3% from fiscal 2022 [^1].", source) == []
    assert _problems("Total notes payable and other borrowings was $75,859 million as of May 31, 2023 [^1].", source) == \
        ["$75,859 million"]
    # another table's header (a new note above the row) names no column of it
    other = [units[1], Unit("8. LEASES", False), units[2]]
    assert {f.period for f in facts_of_units(other)[0]} == {""}


def test_a_value_printed_inside_its_rows_label_is_the_rows_value():
    from agent.claims.facts import Fact

    fact = Fact("Estimated EPS on a non-GAAP basis ~ $ 1.19 ~", "", "2023", "$1.23", 1.23, 1.0, False, False, "money", 1,
                "$", frozenset({2023}))
    source = CheckedSource(["Estimated EPS on a non-GAAP basis ~ $ 1.19 ~ $ 1.23"], load_facts=lambda: ([fact], []))
    assert _problems("- Estimated EPS on a non-GAAP basis (2023 Guidance): 1.19 [^1]", source) == []
    assert _problems("- Estimated EPS on a non-GAAP basis (2023 Guidance): 1.23 [^1]", source) == []
    assert _problems("- Estimated EPS on a non-GAAP basis (2023 Guidance): 1.21 [^1]", source) == \
        ["Estimated EPS on a non-GAAP basis … 1.21"]


@pytest.mark.parametrize("opening,closing", [("“", "”"), ('"', '"'), ("‘", "’"), ("'", "'"), ("«", "»"), ("„", "“")])
def test_a_quote_in_any_marks_is_checked_and_spliced_part_by_part(statement, opening, closing):
    assert _problems(f"The filing reports {opening}Adjusted net sales{closing} of $34.2 billion for 2022 [^1].", statement) == \
        ["Adjusted net sales"]
    assert _problems(f"The statement lists {opening}Cost of sales{closing} for 2022 [^1].", statement) == []
    assert _problems(f"The statement shows {opening}Net sales … 19,232{closing} for 2022 [^1].", statement) == \
        ["Net sales … 19,232"]
    assert _problems(f"It lists {opening}Gross profit … Operating income{closing} [^1].", statement) == []
    assert _problems(f"It lists {opening}Gross profit … Operating losses{closing} [^1].", statement) == ["Operating losses"]


@pytest.mark.parametrize("sentence,flagged", [
    ("Net sales rose 9.1% from 2021 [^1].", ["9.1%"]),  # recomputed: 7.8%
    ("Net sales increased by $3.5 billion in 2022 [^1].", ["$3.5 billion"]),  # recomputed: $2.5 billion
    ("Gross margin was 45.0% in 2022 [^1].", ["45.0%"]),  # recomputed: 43.8%
    ("Net income grew 9.3% in 2022 [^1].", []),  # 3,120 / 2,855 - 1
])
def test_a_stated_change_or_ratio_is_recomputed_from_the_facts(statement, sentence, flagged):
    assert _problems(sentence, statement) == flagged


def _source(rows, caption: str = "(Millions)", years=("2022", "2021"), footnote: str = FOOTNOTE) -> CheckedSource:
    text, words = _page(caption=caption, rows=rows, years=years, footnote=footnote)
    return CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))


def test_twin_rows_basic_and_diluted_are_told_apart():
    source = _source(ROWS[:5] + (("Net income per common share, basic", "$6.20", "$5.70"),
                                 ("Net income per common share, diluted", "$6.11", "$5.61")))
    assert _problems("Net income per common share, basic was $6.20 in 2022 [^1].", source) == []
    assert _problems("Net income per common share, basic was $6.11 in 2022 [^1].", source) == ["$6.11"]
    assert _problems("Net income per common share, diluted was $6.20 in 2022 [^1].", source) == ["$6.20"]


def test_a_row_of_another_item_or_a_less_exact_label_is_not_the_claimed_item():
    source = _source((("Operating income", "1,837", "1,883"), ("Net income (loss)", "1,812", "1,501"),
                      ("Total shareholders' equity", "18,192", "17,001"), ("Total equity", "17,944", "16,800")))
    assert _problems("Operating income was $1.84 billion in 2022 [^1].", source) == []
    assert _problems("Operating income was $1,812 million in 2022 [^1].", source) == ["$1,812 million"]  # net income's
    assert _problems("Total shareholders' equity was $18,192 million in 2022 [^1].", source) == []
    assert _problems("Total shareholders' equity was $17,944 million in 2022 [^1].", source) == ["$17,944 million"]


def test_a_prose_number_needs_the_claims_item_words_not_its_period_words():
    note = "(1) A tax benefit of $65 million during the three and six months ended 2022 and 2021, respectively."
    source = _source(ROWS, footnote=note)
    assert _problems("Operating income for the six months ended 2022 was $65 million [^1].", source) == ["$65 million"]
    assert _problems("The tax benefit was $65 million in the six months ended 2022 [^1].", source) == []


def test_a_quoted_section_and_label_names_that_section_exactly():
    from agent.claims.facts import Fact

    def fact(section, printed, row):
        return Fact("Revenues", section, "2016", printed, float(printed.replace(",", "")), 1e6, False, False, "money", row,
                    "$", frozenset({2016}))

    facts = [fact("Cloud software and on-premise software", "9,488", 1), fact("Total cloud and on-premise software", "28,997", 2)]
    text = "Cloud software and on-premise software: Revenues 9,488\nTotal cloud and on-premise software: Revenues 28,997"
    source = CheckedSource([text], load_facts=lambda: (facts, []))
    assert _problems("It shows “Cloud software and on-premise software: Revenues … 9,488” for 2016 [^1].", source) == []
    assert _problems("It shows “Cloud software and on-premise software: Revenues … 28,997” for 2016 [^1].", source) == \
        ["Cloud software and on-premise software: Revenues … 28,997"]


def test_a_slash_inside_a_label_divides_nothing_in_shown_arithmetic():
    source = _source((("Core earnings/EPS", "1,109", "1,175"),))
    assert _problems("Core earnings/EPS changed by 1,109 − 1,175 = -66 [^1].", source) == []
    assert _problems("Core earnings/EPS changed by 1,109 − 1,175 = -76 [^1].", source) != []


@pytest.mark.parametrize("sentence", [
    "Net sales were $34,229 (in millions) in 2022 [^1].",  # the figure followed by its table's caption
    "Net sales came to 34,229 (Millions) in 2022 [^1].",
    "Net income was $3,120 (in millions of dollars) for 2022 [^1].",
])
def test_a_figure_followed_by_its_caption_is_at_that_scale(statement, sentence):
    assert _problems(sentence, statement) == []


def test_a_figure_followed_by_another_caption_is_at_that_scale(statement):
    assert _problems("Net sales were $34,229 (in thousands) in 2022 [^1].", statement) == ["$34,229 (in thousands)"]


def test_a_cells_label_keeps_its_footnote_mark():
    rows = (("Net sales (1)", "$34,229", "$31,746"), ("Margin (2)", "14,997", "13,840"))
    text, words = _page(rows=rows)
    page = CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))
    assert _problems("- Net sales (1) (2022): $34,229 [^1]", page) == []  # the mark "(1)" is no figure
    assert _problems("- Margin (2) (2022): 14,997 [^1]", page) == []
    assert _problems("- Margin (2022): 14,997 [^1]", page) == []  # the mark left out
    assert _problems("- Margin (2) (2022): 13,840 [^1]", page) == ["Margin (2) … 13,840"]  # another column


def test_a_label_is_quoted_with_and_for_its_ampersand_and_without_its_remarks():
    rows = (("Selling, general & administrative", "2,435", "2,377"), ("Income (loss) from operations", "9,371", "10,356"),
            ("Net income", "$3,120", "$2,855"))
    text, words = _page(rows=rows)
    page = CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))
    assert _problems("“Selling, general and administrative” was $2.4 billion in 2022 [^1].", page) == []
    assert _problems("The line ‘Income from operations’ shows $9,371 million for 2022 [^1].", page) == []
    assert _problems("- Income from operations (2022): 9,371 [^1]", page) == []
    assert _problems("- Selling, general and administrative (2022): 2,435 [^1]", page) == []
    # still the row's own value, and still the printed words
    assert _problems("- Income from operations (2022): 10,356 [^1]", page) == ["Income from operations … 10,356"]
    assert _problems("“Adjusted income from operations” was $9.4 billion in 2022 [^1].", page) == \
        ["Adjusted income from operations"]


def test_a_cells_label_printed_exactly_is_the_row_quoted():
    rows = (("Long-term debt, classified as current", "1,030", "4,481"), ("Long-term debt (includes $9 of VIEs)", "47,854", "38,225"))
    text, words = _page(rows=rows)
    page = CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))
    assert _problems("- Long-term debt (2022): 47,854 [^1]", page) == []
    assert _problems("- long-term debt (2022): 1,030 [^1]", page) == ["long-term debt … 1,030"]
    assert _problems("- Long-term debt, classified as current (2022): 1,030 [^1]", page) == []
    # a label's unit mark is no word of it: "Operating margin" names the row "Operating margin %" too
    rows = (("Operating margin", "$12,604", "$13,871"), ("Operating margin %", "34%", "36%"))
    text, words = _page(rows=rows)
    page = CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))
    assert _problems("- Operating margin (2022): 34% [^1]", page) == []
    assert _problems("- Operating margin (2022): 36% [^1]", page) == ["Operating margin … 36%"]


def test_a_pages_facts_are_read_once_per_build(monkeypatch):
    import types

    from agent.claims import facts as facts_mod

    _, words = _page()
    reads = []
    build = {"at": "2026-01-01"}
    monkeypatch.setattr(facts_mod, "load_manifest", lambda doc_id: types.SimpleNamespace(processed_at=build["at"]))
    monkeypatch.setattr(facts_mod.page_tables, "table_units", lambda d, p, t: reads.append(p) or layout_units(words))
    first = facts_mod.page_facts("doc-cache-test", 3, "text")
    assert facts_mod.page_facts("doc-cache-test", 3, "text") is first and reads == [3]
    build["at"] = "2026-02-01"  # the filing ingested again: read again
    assert facts_mod.page_facts("doc-cache-test", 3, "text")[0] == first[0] and reads == [3, 3]


EVERYDAY_ROWS = (("Net sales", "$34,229", "$31,746"), ("Payments for acquisition of property, plant and equipment", "(1,577)", "(1,201)"),
                 ("Net Income (Loss) Per Common Share, Diluted", "$0.84", "$(0.33)"), ("Gross margin percentage", "43.8%", "43.6%"))


@pytest.fixture(scope="module")
def everyday() -> CheckedSource:
    text, words = _page(rows=EVERYDAY_ROWS)
    return CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))


@pytest.mark.parametrize("sentence", [
    "Net sales were $34.2 Bn in 2022 [^1].",  # a scale word in any case
    "Net sales were $34,229 Million in 2022 [^1].",
    "Net sales were $34,229 mn in 2022 [^1].",
    "- Payments for acquisition of property, plant and equipment (2022): -$1,577 [^1]",  # a minus for parentheses
    "- Payments for acquisition of property, plant and equipment (2022): −1,577 [^1]",
    "“Payments for acquisition of property plant and equipment” was -$1.6 billion in 2022 [^1].",  # commas dropped
    "- Payments for acquisition of property plant and equipment (2022): (1,577) [^1]",
    "The line ‘Net Income (Loss) Per Common Share Diluted’ shows $0.84 in 2022 [^1].",
    "The line ‘Net Income Per Common Share, Diluted’ shows $0.84 in 2022 [^1].",
    "Gross margin percentage expanded 20 basis points over 2021 [^1].",  # basis points are hundredths of points
    "Gross margin percentage was up 0.2 percentage points over 2021 [^1].",
])
def test_true_claims_retyped_as_people_write_them_pass(everyday, sentence):
    assert _problems(sentence, everyday) == []


@pytest.mark.parametrize("sentence,flagged", [
    ("Net sales were $34.2 Mn in 2022 [^1].", "$34.2 Mn"),  # the scale word still counts
    ("- Payments for acquisition of property, plant and equipment (2022): -$1,201 [^1]",
     "Payments for acquisition of property, plant and equipment … -$1,201"),  # the other column, with a minus
    ("“Payments for acquisition of property plant equipment” was -$1.6 billion in 2022 [^1].",
     "Payments for acquisition of property plant equipment"),  # a word left out is no retyping
    ("Gross margin percentage expanded 30 basis points over 2021 [^1].", "30"),
    ("Gross margin percentage contracted 20 basis points over 2021 [^1].", "20"),  # the wrong direction
])
def test_retyped_claims_that_are_false_still_fail(everyday, sentence, flagged):
    assert _problems(sentence, everyday) == [flagged]
