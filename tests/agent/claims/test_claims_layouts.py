"""Layouts of filings the claim check reads (agent/claims/facts.py, support.py, check.py), on generated pages
(PyMuPDF text at positions, read by the layout reader as at answer time): a notes page printing no caption of its
own, a fiscal year's quarterly table, per-share rows labelled with their income line, a label over two lines."""

from __future__ import annotations

import pymupdf
import pytest

from agent.claims import facts as facts_module
from agent.claims.check import CheckedSource, check_answer
from agent.claims.facts import facts_of_units
from storage.documents.facts import read_document
from storage.documents.table_layout import layout_units
from storage.schema import PageContent

STATEMENTS = "(Dollars in millions, except per share data)"


def _words(lines: list[tuple[float, float, str]]) -> tuple[str, list]:
    """A page of (x, y, text) lines; numbers given with a negative x are right-aligned at -x."""
    doc = pymupdf.open()
    page = doc.new_page()
    for x, y, text in lines:
        if x < 0:
            x = -x - pymupdf.get_text_length(text, fontsize=9)
        page.insert_text((x, y), text, fontsize=9)
    text, words = page.get_text(), page.get_text("words")
    doc.close()
    return text, words


def _source(lines, section_caption: str = "") -> CheckedSource:
    text, words = _words(lines)
    return CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words), section_caption=section_caption))


def _problems(sentence: str, source: CheckedSource) -> list[str]:
    return [p.text for c in check_answer(sentence, {"[^1]": source}) for p in c.problems]


# a note's quarterly table printing no caption: "Note 22 – Quarterly Financial Data (Unaudited)"
QUARTERLY = [(56, 60, "Note 22 – Quarterly Financial Data (Unaudited)"), (330, 84, "2016"), (480, 84, "2015")]
QUARTERLY += [(-(300 + 40 * k), 98, q) for k, q in enumerate(("4th", "3rd", "2nd", "1st"))]
QUARTERLY += [(-(460 + 40 * k), 98, q) for k, q in enumerate(("4th", "3rd", "2nd", "1st"))]
for _r, (_label, _values) in enumerate((("Total revenues", ("$23,286", "$23,898", "$24,755", "$22,632", "$23,573", "$25,849", "$24,543", "$22,149")),
                                        ("Earnings from operations", ("2,183", "2,282", "(419)", "1,788", "1,161", "2,580", "1,683", "2,019")))):
    QUARTERLY += [(56, 116 + 14 * _r, _label)] + [(-(300 + 40 * k + (0 if k < 4 else 0)), 116 + 14 * _r, v)
                                                 for k, v in enumerate(_values[:4])]
    QUARTERLY += [(-(460 + 40 * k), 116 + 14 * _r, v) for k, v in enumerate(_values[4:])]


def test_a_notes_page_without_a_caption_reads_its_amounts_at_the_statements_scale():
    source = _source(QUARTERLY, section_caption=STATEMENTS)
    assert _problems("Total revenues were $24,755 million for the second quarter of 2016 [^1].", source) == []
    assert _problems("Total revenues were $24.8 billion in the 2016 second quarter [^1].", source) == []
    assert _problems("Total revenues were $24,755 for the second quarter of 2016 [^1].", source) == ["$24,755"]  # the scale left out
    assert _problems("Total revenues were $24,755 billion for the second quarter of 2016 [^1].", source) == ["$24,755 billion"]
    # without the filing's caption the page's bare numbers are all it says (the old reading)
    assert _problems("Total revenues were $24,755 million for the second quarter of 2016 [^1].", _source(QUARTERLY)) == ["$24,755 million"]


def test_a_pages_own_caption_wins_over_the_statements():
    text, words = _words(QUARTERLY + [(56, 72, "(In thousands)")])
    facts, _ = facts_of_units(layout_units(words), section_caption=STATEMENTS)
    assert {f.scale for f in facts if f.label == "Total revenues"} == {1e3}


def _filing(notes_heading: list[str]) -> tuple[list[str], object]:
    """Page 0: the notes' heading block and prose; page 1: the quarterly note, no caption of its own. -> (page texts,
    the document's tables as ingestion reads and stores them)."""
    doc = pymupdf.open()
    page = doc.new_page()
    for k, line in enumerate(notes_heading + ["Note 1 – Summary of Significant Accounting Policies"]):
        page.insert_text((56, 60 + 14 * k), line, fontsize=10)
    page = doc.new_page()
    for x, y, text in QUARTERLY:
        page.insert_text((-x - pymupdf.get_text_length(text, fontsize=9) if x < 0 else x, y), text, fontsize=9)
    texts = [p.get_text() for p in doc]
    tables = read_document(doc, [PageContent(page_number=i, text=t) for i, t in enumerate(texts)])
    doc.close()
    return texts, tables


@pytest.mark.parametrize("heading, scaled", [
    (["Notes to the Consolidated Financial Statements", STATEMENTS], True),
    (["Summary of the year", STATEMENTS], False),  # no statements title over the caption: no section's scale
], ids=["notes heading", "no statements title"])
def test_a_cited_page_reads_the_scale_its_stored_facts_carry(monkeypatch, heading, scaled):
    """The claim check reads each value's scale from the facts stored at ingestion (a captionless notes page takes
    its section's caption there, storage/documents/facts.py), not from a reading of its own."""
    texts, tables = _filing(heading)
    monkeypatch.setattr(facts_module, "load_manifest", lambda doc_id: (_ for _ in ()).throw(OSError("not stored")))
    monkeypatch.setattr(facts_module.page_tables, "table_units", lambda d, p, t: tables.layout.get(p, []))
    monkeypatch.setattr(facts_module.stored_facts, "page_facts", lambda d, p: [f for f in tables.facts if f.page == p])
    source = CheckedSource([texts[1]], load_facts=lambda: facts_module.page_facts("doc-notes", 1, texts[1]))
    said = "Total revenues were $24,755 million for the second quarter of 2016 [^1]."
    assert _problems(said, source) == ([] if scaled else ["$24,755 million"])
    assert _problems("Total revenues were $24,755 billion for the second quarter of 2016 [^1].", source) == ["$24,755 billion"]


# a fiscal year's quarterly table: "Fiscal Year 2019" over quarters ended September 30 … June 30 (fiscal year ends June 30)
FISCAL = [(56, 60, "Note 22 - Quarterly Financial Information"), (56, 72, "(in millions, except per share data)"),
          (330, 84, "Quarter Ended")]
FISCAL += [(-(250 + 75 * k), 96, m) for k, m in enumerate(("September 30", "December 31", "March 31", "June 30"))]
FISCAL += [(-560, 96, "Total"), (56, 110, "Fiscal Year 2019")]
FISCAL += [(56, 124, "Net sales")] + [(-(250 + 75 * k), 124, v) for k, v in enumerate(("2,262.4", "2,287.2", "2,312.3", "2,596.3"))]
FISCAL += [(-560, 124, "9,458.2")]


def test_a_fiscal_years_quarter_ends_in_its_calendar_year_or_the_one_before():
    source = _source(FISCAL)
    december = next(f for f in source.page_facts[0] if f.printed == "2,287.2")
    assert 2019 in december.years and "December 31" in december.period
    assert _problems("Net sales were $2,287.2 million for the quarter ended December 31, 2018 [^1].", source) == []
    assert _problems("- Net sales (Quarter ended December 31, 2018): 2,287.2 [^1]", source) == []
    # another quarter's column, and a year the fiscal year does not span, are not found
    assert _problems("Net sales were $2,262.4 million for the quarter ended December 31, 2018 [^1].", source) == ["$2,262.4 million"]
    assert _problems("Net sales were $2,287.2 million for the quarter ended December 31, 2016 [^1].", source) == ["$2,287.2 million"]
    # a fiscal year named as such is that fiscal year: "fiscal 2018 quarter ended December 31" is no column here
    assert _problems("Net sales were $2,287.2 million for the fiscal 2018 quarter ended December 31 [^1].", source) == ["$2,287.2 million"]


# per-share rows labelled with the income line they divide, under an "earnings per share:" heading
EPS = [(56, 60, "Consolidated Statements of Income"), (56, 72, "(in millions, except per share data)"),
       (400, 90, "2021"), (460, 90, "2020"), (56, 106, "Net income"), (-430, 106, "$951"), (-490, 106, "$616"),
       (56, 120, "Diluted earnings per share:"), (66, 134, "Income from continuing operations"), (-430, 134, "$0.602"),
       (-490, 134, "$0.387"), (66, 148, "Net income"), (-430, 148, "$0.602"), (-490, 148, "$0.382")]


@pytest.mark.parametrize("sentence,flagged", [
    ("The filing reports ‘Net Income’ of $0.382 for 2020 [^1].", []),
    ("Diluted earnings per share: Net income was $0.38 in 2020 [^1].", []),
    ("Net income was $616 million in 2020 [^1].", []),
    ("Net income was $0.382 million in 2020 [^1].", ["$0.382 million"]),  # a per-share amount times the caption
    ("Net income was $0.387 in 2020 [^1].", ["$0.387"]),  # another row's per-share amount
])
def test_a_per_share_row_printing_the_named_item_under_an_eps_heading_is_named(sentence, flagged):
    assert _problems(sentence, _source(EPS)) == flagged


# a label printed over two lines, its values on the second: read as the last line under a section of the first
TWO_LINES = [(56, 60, "Quarterly Financial Data"), (56, 72, STATEMENTS), (400, 90, "2020"), (460, 90, "2019"),
             (56, 106, "Net (loss)/earnings attributable to Northwind"), (56, 118, "Shareholders"),
             (-430, 118, "(2,376)"), (-490, 118, "1,167")]


def test_a_quoted_cell_whose_label_is_printed_over_two_lines():
    source = _source(TWO_LINES)
    assert _problems("- Net (loss)/earnings attributable to Northwind Shareholders (2020): (2,376) [^1]", source) == []
    assert _problems("- Net (loss)/earnings attributable to Northwind Shareholders (2020): (1,167) [^1]", source) != []


def test_an_amount_the_stored_facts_leave_unscaled_takes_the_pages_or_the_statements_scale(monkeypatch):
    """A stored fact naming no caption (the facts reader found none over, above or in the section of its table):
    the one scale the page's other stored facts carry, else, after the primary statements, the one they all carry."""
    texts, tables = _filing(["Summary of the year", STATEMENTS])  # the quarterly note's facts: no caption
    note = [f for f in tables.facts if f.page == 1]
    assert note and not any(f.scale_caption for f in note)
    statement = [f.model_copy(update={"scale_caption": STATEMENTS, "scale": 1e6}) for f in note]
    stored = {2: statement, 3: statement, 1: note}
    monkeypatch.setattr(facts_module.page_tables, "statement_pages", lambda doc_id: [2, 3])
    monkeypatch.setattr(facts_module.stored_facts, "page_facts", lambda d, p: stored.get(p, []))
    facts_module._statements_scale.cache_clear()
    assert facts_module.unknown_scale_caption("doc-u", 1, note) == ""  # before the statements: a stock graph, a buyback table
    assert facts_module.unknown_scale_caption("doc-u", 5, note) == STATEMENTS
    assert facts_module.unknown_scale_caption("doc-u", 5, note + [statement[0].model_copy(update={"scale_caption": "(In thousands)"})]) \
        == "(In thousands)"  # the page's own other table says its scale
    stored[3] = [f.model_copy(update={"scale_caption": "(In thousands)"}) for f in note]  # statements disagreeing
    facts_module._statements_scale.cache_clear()
    assert facts_module.unknown_scale_caption("doc-v", 5, note) == ""
    facts, _ = facts_module.facts_of_units(tables.layout[1], stored=note, unknown_scale=STATEMENTS)
    assert {f.scale for f in facts if f.label == "Total revenues"} == {1e6}


def test_a_quarter_printed_by_its_ordinal_alone_is_that_quarter_and_changes_from_the_same_quarter():
    """A 10-K's quarterly note prints its years over groups of ordinals ("2016" over "4th 3rd 2nd 1st"): a column
    "2016 2nd" is the second quarter, and its change is from the second quarter of the year before, not from
    whichever column of that year comes first."""
    source = _source(QUARTERLY, section_caption=STATEMENTS)
    assert _problems("Total revenues were $24,755 million in the second quarter of 2016 [^1].", source) == []
    assert _problems("Total revenues were $24,755 million in the third quarter of 2016 [^1].", source) == ["$24,755 million"]
    # 24,755 over 24,543 (2015 2nd): up 0.9%; the 2015 4th quarter (23,573) and 3rd (25,849) are other quarters
    assert _problems("Total revenues rose 0.9% in the second quarter of 2016 from fiscal 2015 [^1].", source) == []
    assert _problems("Total revenues rose $212 million in the second quarter of 2016 from fiscal 2015 [^1].", source) == []
    assert _problems("Total revenues rose 5.0% in the second quarter of 2016 from fiscal 2015 [^1].", source) == ["5.0%"]
    assert _problems("Total revenues fell 4.2% in the second quarter of 2016 from fiscal 2015 [^1].", source) == ["4.2%"]


def _change_page(rows, heads) -> tuple[str, list]:
    """A release's table "(In millions ...)": label, then values right-aligned under `heads` ("2022", "2021", "% Change")."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((56, 60), "Northwind Beverages, Inc. - Fourth Quarter Results", fontsize=11)
    page.insert_text((56, 76), "(In millions, except per share data)", fontsize=9)
    for i, head in enumerate(heads):
        page.insert_text((400 + 70 * i - pymupdf.get_text_length(head, fontsize=9), 100), head, fontsize=9)
    for k, (label, *values) in enumerate(rows):
        page.insert_text((56, 120 + 14 * k), label, fontsize=9)
        for i, value in enumerate(values):
            page.insert_text((400 + 70 * i - pymupdf.get_text_length(value, fontsize=9), 120 + 14 * k), value, fontsize=9)
    text, words = page.get_text(), page.get_text("words")
    doc.close()
    return text, words


def test_a_printed_change_column_is_percent_and_its_sign_is_the_direction():
    """"Rose" for a printed (51.4)% is flagged; a bare "(18)" under "% Change" is a percentage as the stored facts
    read it (the column's unit), never an amount of $18 million."""
    rows = (("Net sales", "$34,229", "$31,746", "8%"), ("Operating income", "2,430", "5,001", "(51.4)%"),
            ("Net income", "2,341", "2,855", "(18)"))
    text, words = _change_page(rows, ("2022", "2021", "% Change"))
    source = CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))
    assert _problems("Operating income fell 51.4% in 2022 [^1].", source) == []
    assert _problems("Operating income rose 51.4% in 2022 [^1].", source) == ["51.4%"]
    assert _problems("Net income fell 18% in 2022 [^1].", source) == []
    assert _problems("Net income rose 18% in 2022 [^1].", source) == ["18%"]
    assert _problems("Net income was $18 million in 2022 [^1].", source) == ["$18 million"]


def test_percentage_points_are_no_change_of_a_row_of_amounts():
    """A row of amounts prints its change in percent ("$ 20,466 (3)% $ 21,107"): "fell 3%" is what it says, "fell 3
    percentage points" is not; a percentage row's own change is in points."""
    rows = (("Americas", "$20,466", "$21,107", "(3)%"), ("Operating margin", "20.0%", "17.4%", "2.6"))
    text, words = _change_page(rows, ("2022", "2021", "% Change"))
    source = CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))
    assert _problems("Americas revenues fell 3% in 2022 [^1].", source) == []
    assert _problems("Americas revenues fell 3 percentage points in 2022 [^1].", source) == ["3"]
    assert _problems("Operating margin rose 2.6 percentage points in 2022 [^1].", source) == []


# a statement whose period is printed as a title over the columns' own years (a 10-Q's cash flow statement)
STACKED = [(56, 60, "CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS"), (56, 72, "(in millions)"),
           (380, 90, "Nine Months Ended September 30, 2022"), (-430, 104, "2022"), (-500, 104, "2021")]
for _k, (_label, _a, _b) in enumerate((("Net income", "$1,297", "$(564)"), ("Depreciation", "2,915", "2,540"),
                                       ("Net cash provided by operating activities", "2,712", "2,053"))):
    STACKED += [(56, 120 + 14 * _k, _label), (-430, 120 + 14 * _k, _a), (-500, 120 + 14 * _k, _b)]


def test_a_columns_year_under_a_title_naming_another_year_is_its_own():
    """"Nine Months Ended September 30, 2022" over "2022 2021": the second column is 2021 (its change is from it), not
    a column of 2022 too."""
    source = _source(STACKED)
    assert {f.printed: sorted(f.years) for f in source.page_facts[0] if f.label.startswith("Net cash")} == \
        {"2,712": [2022], "2,053": [2021]}
    assert _problems("Net cash provided by operating activities rose 32.1% from 2021 [^1].", source) == []
    assert _problems("Net cash provided by operating activities climbed by $659 million from fiscal 2021 [^1].", source) == []
    # the prior-year column said for the title's year
    assert _problems("Net cash provided by operating activities was $2,053 million for the nine months ended "
                     "September 30, 2022 [^1].", source) == ["$2,053 million"]


# a release's reconciliation: earnings and earnings per share of each period side by side
PER_SHARE_COLUMNS = [(56, 60, "Reconciliation of Earnings to Core Earnings"), (56, 72, "(in millions, except per share amounts)"),
                     (300, 90, "Six Months Ended June 30,")]
PER_SHARE_COLUMNS += [(-(300 + 60 * k), 104, h) for k, h in enumerate(("Earnings", "EPS", "Earnings", "EPS"))]
PER_SHARE_COLUMNS += [(-(300 + 60 * k), 116, h) for k, h in enumerate(("2023", "2023", "2022", "2022"))]
for _r, (_label, *_values) in enumerate((("Earnings on a GAAP basis", "$ 975", "$ 0.46", "$ 831", "$ 0.39"),
                                         ("Core earnings", "$ 1,109", "$ 0.52", "$ 1,175", "$ 0.55"))):
    PER_SHARE_COLUMNS += [(56, 132 + 14 * _r, _label)] + [(-(300 + 60 * k), 132 + 14 * _r, v) for k, v in enumerate(_values)]


def test_a_change_is_from_the_prior_years_column_measuring_the_same():
    """Of the year before's two columns (earnings, EPS), a per-share value changes from the per-share one."""
    source = _source(PER_SHARE_COLUMNS)
    assert _problems("Core earnings per share fell 5.5% year over year [^1].", source) == []
    assert _problems("Core earnings per share decreased $0.03 from 2022 [^1].", source) == []
    assert _problems("Core earnings fell 5.6% from 2022 [^1].", source) == []
    assert _problems("Core earnings per share fell 7.5% year over year [^1].", source) == ["7.5%"]


def test_an_adjusted_row_is_not_the_item_a_sentence_names_without_adjusted():
    """"EBIT" names the EBIT row, not "Adjusted EBIT", when the page prints both; alone, "Adjusted EBIT" is named."""
    rows = (("EBIT", "1,357", "1,101"), ("Adjusted EBIT", "1,429", "1,517"))
    text, words = _change_page(rows, ("2023", "2022"))
    source = CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))
    assert _problems("EBIT was $1,101 million in 2022 [^1].", source) == []
    assert _problems("Adjusted EBIT was $1,517 million in 2022 [^1].", source) == []
    assert _problems("EBIT was $1,517 million in 2022 [^1].", source) == ["$1,517 million"]
    text, words = _change_page(rows[1:], ("2023", "2022"))
    alone = CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))
    assert _problems("EBIT was $1,517 million in 2022 [^1].", alone) == []


def test_an_operand_of_shown_arithmetic_restates_its_cell_with_its_dollar_sign():
    rows = (("Revenues", "$17,056", "$14,611"),)
    text, words = _change_page(rows, ("2018", "2017"))
    source = CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))
    assert _problems("Revenues changed by $17,056 − 14,611 = 2,445 [^1].", source) == []
    assert _problems("Revenues rose by 2,445 ($17,056 − 14,611) [^1].", source) == []
    assert _problems("Revenues were $17,056 in 2018 [^1].", source) == ["$17,056"]  # not an operand: the scale left out


def test_a_row_whose_label_says_percent_prints_percentages():
    rows = (("Net sales", "3,673", "3,909"), ("Adjusted EBIT / Sales %", "12.8", "13.6"), ("Operating margin (%)", "9.1", "8.7"))
    text, words = _change_page(rows, ("2023", "2022"))
    source = CheckedSource([text], load_facts=lambda: facts_of_units(layout_units(words)))
    assert _problems("Adjusted EBIT / Sales was 12.8% in 2023, compared with 13.6% in 2022 [^1].", source) == []
    assert _problems("Operating margin was 8.7% in 2022 [^1].", source) == []
    assert _problems("Operating margin was $8.7 million in 2022 [^1].", source) == ["$8.7 million"]


# a release's reconciliation: each measure a column, earnings per share in cents beside amounts in millions
CENTS = [(56, 60, "Reconciliation of Net Income and EPS"), (56, 72, "($ million)"), (250, 88, "Twelve Months Ended June 30, 2023")]
CENTS += [(-300, 102, "Net income"), (-470, 102, "EPS (Diluted US cents)")]
CENTS += [(56, 128, "Net income attributable to Northwind"), (-300, 128, "1,048"), (-470, 128, "70.5"),
          (56, 142, "Adjusted net income"), (-300, 142, "1,089"), (-470, 142, "73.3")]


def test_a_per_share_column_in_cents_of_a_table_in_millions():
    """"EPS (Diluted US cents)" beside amounts in millions: 70.5 is 70.5 cents a share, never $70.5 million."""
    source = _source(CENTS)
    eps = [f for f in source.page_facts[0] if f.printed == "70.5"]
    assert eps and eps[0].scale == 0.01
    assert _problems("Diluted EPS was 70.5 cents in fiscal 2023 [^1].", source) == []
    assert _problems("Diluted EPS was $0.705 in fiscal 2023 [^1].", source) == []
    assert _problems("Diluted EPS was $70.5 million in fiscal 2023 [^1].", source) == ["$70.5 million"]



# selected data of five years: a per-share section whose heading wraps ("… attributable to Northwind Holdings," /
# "Inc.:"), so its rows stand under a section of the heading's last words, beside the row of the amount itself
SELECTED = [(56, 60, "Selected Financial Data"), (300, 76, "For the year ended December 31,")]
SELECTED += [(-(330 + 60 * k), 90, str(2015 - k)) for k in range(4)] + [(56, 104, "(in thousands, except per share data)")]
for _r, (_label, *_values) in enumerate((
        ("Total revenue", "2,490,821", "2,396,998", "2,135,539", "1,847,186"),
        ("Net income", "799,918", "526,057", "841,440", "332,139"),
        ("Net income attributable to noncontrolling interests", "(216,812)", "(82,446)", "(91,629)", "(42,489)"),
        ("Net income attributable to Northwind Holdings, Inc.", "583,106", "443,611", "749,811", "289,650"),
        ("Basic earnings per common share attributable to Northwind Holdings,",),
        ("Inc.:",),
        ("Net income", "$3.73", "$2.83", "$4.87", "$1.93"))):
    SELECTED += [(56, 122 + 14 * _r, _label)] + [(-(330 + 60 * k), 122 + 14 * _r, v) for k, v in enumerate(_values)]


@pytest.mark.parametrize("sentence, flagged", [
    ("Net income attributable to Northwind Holdings, Inc. was $750 million in fiscal 2013 [^1].", []),
    ("“Net income attributable to Northwind Holdings, Inc.” was $749.8 million in fiscal 2013 [^1].", []),
    ("Net income attributable to Northwind Holdings, Inc. was up 159% from fiscal 2012 [^1].", []),
    # another row's or another column's amount is still not the claimed item's
    ("Net income attributable to Northwind Holdings, Inc. was $841 million in fiscal 2013 [^1].", ["$841 million"]),
    ("Net income attributable to Northwind Holdings, Inc. was $444 million in fiscal 2013 [^1].", ["$444 million"]),
])
def test_a_wrapped_headings_last_words_do_not_outrank_the_row_naming_every_word(sentence, flagged):
    """The row whose own label says every word of the sentence's item is the claimed item, not a row under a
    section that is the tail of a wrapped heading ("Inc.:") whose words the sentence happens to say too."""
    assert _problems(sentence, _source(SELECTED)) == flagged


# a label wrapped onto an indented second line that carries the values ("… in connection" / "with the … Agreement")
WRAPPED = [(56, 60, "Supplemental Cash Flow Information"), (56, 72, STATEMENTS), (330, 90, "2022"), (390, 90, "2021"),
           (450, 90, "2020"), (56, 106, "Supplemental disclosures of noncash investing and financing activities"),
           (56, 120, "Common stock issued in satisfaction of liabilities"), (-350, 120, "-"), (-410, 120, "-"),
           (-470, 120, "8,276"), (56, 134, "Changes to common stock and treasury stock in connection"),
           (70, 146, "with the Share Exchange and Tax Matters Agreement"), (-350, 146, "(2,337)"), (-410, 146, "4,854"),
           (-470, 146, "-")]


@pytest.mark.parametrize("cell, flagged", [
    ("- with the Share Exchange and Tax Matters Agreement (2021): 4,854 [^1]", False),  # the value's printed line
    ("- Changes to common stock and treasury stock in connection with the Share Exchange and Tax Matters Agreement"
     " (2021): 4,854 [^1]", False),
    ("- with the Share Exchange and Tax Matters Agreement (2020): 8,276 [^1]", True),  # another row's value
    ("- with the Share Exchange and Tax Matters Agreement (2022): 4,854 [^1]", True),  # another column's
    ("- Tax Matters Agreement (2021): 4,854 [^1]", True),  # a label's tail is no printed line of its own
])
def test_a_cell_quoted_as_the_printed_line_of_a_wrapped_label(cell, flagged):
    """A label printed over two lines, its values on the second: the second line with its value is the row as
    printed (a line that goes on in lower case), never a tail cut out of the label."""
    assert bool(_problems(cell, _source(WRAPPED))) is flagged


# a release's key figures: two years in millions and a change column in percent printed without "%"
KEY_FIGURES = [(56, 60, "Key Financials"), (56, 72, "($ million)"), (300, 88, "2023"), (360, 88, "2022"),
               (410, 88, "% Change")]
KEY_FIGURES += [(56, 102 + 14 * k, label) for k, label in enumerate(("Net sales", "EBITDA", "Net income"))]
for _r, _values in enumerate((("14,694", "14,544", "1"), ("2,018", "2,117", "(5)"), ("1,048", "805", "30"))):
    KEY_FIGURES += [(-(320 + 60 * k), 102 + 14 * _r, v) for k, v in enumerate(_values)]


@pytest.mark.parametrize("cell, flagged", [
    ("- EBITDA (% change): (5) [^1]", False),  # a change column's cell quoted with its column's title
    ("- EBITDA (change): (5) [^1]", False),
    ("- EBITDA (change): -5 [^1]", False),
    ("- EBITDA (change): (1) [^1]", True),  # another row's change
    ("- EBITDA (change): 2,018 [^1]", True),  # a year's amount is no change
    ("- EBITDA (2023): 2,018 [^1]", False),
])
def test_a_cell_of_a_change_column_quoted_with_its_title(cell, flagged):
    assert bool(_problems(cell, _source(KEY_FIGURES))) is flagged


def _layout_source(rows, heads) -> CheckedSource:
    """A table "(In millions …)" of `rows` (label, values) under `heads`, columns right-aligned 60 pt apart from x=300."""
    lines = [(56, 60, "Northwind Beverages, Inc. - Results of Operations"), (56, 76, "(In millions, except per share data)")]
    lines += [(-(300 + 60 * i), 100, head) for i, head in enumerate(heads)]
    for k, (label, *values) in enumerate(rows):
        lines += [(56, 120 + 14 * k, label)] + [(-(300 + 60 * i), 120 + 14 * k, v) for i, v in enumerate(values)]
    return _source(lines)


@pytest.mark.parametrize("sentence, flagged", [
    ("Research and development expense rose 39% in 2016 [^1].", []),
    ("Interest and debt expense was up $31 million from 2015 [^1].", []),
    ("Research and development expense increased to $4,627 million in 2016 [^1].", []),
    ("Research and development expense fell 39% in 2016 [^1].", ["39%"]),
    ("Interest and debt expense was down $31 million from 2015 [^1].", ["$31 million"]),
    ("Net earnings fell 5.4% in 2016 [^1].", []),  # a row of positive amounts: as before
    ("Net earnings rose 5.4% in 2016 [^1].", ["5.4%"]),
])
def test_a_row_printed_negative_in_both_years_changes_by_its_size(sentence, flagged):
    """An expense printed in parentheses in every column ("(4,627)" after "(3,331)"): "rose" is said of its size, as
    people say "R&D expense rose 39%"; a row whose sign changes, or of positive amounts, keeps its signed direction."""
    rows = (("Research and development expense", "(4,627)", "(3,331)"), ("Interest and debt expense", "(306)", "(275)"),
            ("Net earnings", "$4,895", "$5,176"))
    assert _problems(sentence, _layout_source(rows, ("2016", "2015"))) == flagged


@pytest.mark.parametrize("sentence, flagged", [
    ("Total net sales grew 8% in 2022 [^1].", []),
    ("Total net sales grew 33% in 2021 [^1].", []),
    ("Total net sales rose 8% from 2021 [^1].", []),
    ("Total net sales grew 33% in 2022 [^1].", ["33%"]),  # the change printed for 2021 over 2020
    ("Mac net sales rose 23% in 2022 [^1].", ["23%"]),
])
def test_a_printed_change_column_is_the_change_of_the_year_before_it(sentence, flagged):
    """"2022 Change 2021 Change 2020": each change column reports the year on its left over the one on its right; a
    year the sentence names must be that column's."""
    rows = (("Mac", "40,177", "14%", "35,190", "23%", "28,622"),
            ("Total net sales", "$394,328", "8%", "$365,817", "33%", "$274,515"))
    assert _problems(sentence, _layout_source(rows, ("2022", "Change", "2021", "Change", "2020"))) == flagged


def test_a_change_column_after_both_years_is_the_latest_years():
    rows = (("Consolidated revenue", "$90,155", "$93,512", "(4)"), ("Consolidated net income", "3,972", "3,826", "4"))
    source = _layout_source(rows, ("2023", "2022", "% Change"))
    assert _problems("Consolidated revenue fell 4% in 2023 [^1].", source) == []
    assert _problems("Consolidated net income rose 4% in 2023 [^1].", source) == []
    assert _problems("Consolidated net income rose 4% from 2022 [^1].", source) == []  # the year it changes from
    assert _problems("Consolidated net income rose 4% in 2021 [^1].", source) == ["4%"]


# a row label wrapped after a comma, its values on the second line: "… attributable to Northwind Properties," / "Inc. (1)"
WRAPPED_COMMA = [(56, 60, "Selected Financial Data"), (56, 72, "(in thousands, except per share data)"),
                 (-400, 90, "2015"), (-470, 90, "2014")]
for _r, (_label, *_values) in enumerate((("Total revenue", "2,490,821", "2,396,998"),
                                         ("Funds from Operations attributable to Northwind Properties,",),
                                         ("Inc. (1)", "$823,715", "$807,506"),
                                         ("Stockholders’ equity attributable to Northwind Properties, Inc.", "5,709,435", "5,697,298"))):
    WRAPPED_COMMA += [(56 + (8 if _label.startswith("Inc.") else 0), 106 + 14 * _r, _label)]
    WRAPPED_COMMA += [(-(400 + 70 * k), 106 + 14 * _r, v) for k, v in enumerate(_values)]


@pytest.mark.parametrize("sentence, flagged", [
    ("Funds from Operations attributable to Northwind Properties rose 2.0% to $823.7 million in 2015 [^1].", []),
    ("“Funds from Operations attributable to Northwind Properties, Inc.” was $823,715 thousand in 2015 [^1].", []),
    ("Funds from Operations attributable to Northwind Properties was $807.5 million in 2015 [^1].", ["$807.5 million"]),
    ("Funds from Operations attributable to Northwind Properties fell 2.0% in 2015 [^1].", ["2.0%"]),
])
def test_a_label_wrapped_after_a_comma_is_one_label(sentence, flagged):
    assert _problems(sentence, _source(WRAPPED_COMMA)) == flagged


@pytest.mark.parametrize("sentence, flagged", [
    ("Net (loss)/earnings was a loss of $636 million in 2019 [^1].", []),
    ("The company reported net (loss)/earnings of -$636 million in 2019 [^1].", []),
    ("(Loss)/earnings from operations was earnings of $11,987 million in 2018 [^1].", []),
    ("Net loss was a loss of $120 million in 2019 [^1].", []),  # a row naming the loss alone prints it unsigned
    ("Net (loss)/earnings was earnings of $636 million in 2019 [^1].", ["$636 million"]),
    ("(Loss)/earnings from operations was a loss of $11,987 million in 2018 [^1].", ["$11,987 million"]),
])
def test_a_row_naming_a_loss_beside_a_gain_is_the_one_its_sign_says(sentence, flagged):
    rows = (("(Loss)/earnings from operations", "($1,975)", "$11,987"), ("Net (loss)/earnings", "($636)", "$10,460"),
            ("Net loss", "120", "90"))
    assert _problems(sentence, _layout_source(rows, ("2019", "2018"))) == flagged


@pytest.mark.parametrize("sentence, flagged", [
    ("The statement lists “Net income” at -4% [^1].", []),
    ("Net income fell 11% in fiscal 2023 [^1].", []),
    ("Net income fell 4% [^1].", []),
    ("Net income rose 11% in fiscal 2023 [^1].", ["11%"]),
    ("Net income fell 5% in fiscal 2023 [^1].", ["5%"]),  # EBIT's change
])
def test_a_change_column_of_a_row_named_by_its_concept_is_that_rows(sentence, flagged):
    """"Net income" names the row's concept: its change cells ("(11)" under "% Change") are the item's as its
    amounts are, not a percentage of another concept."""
    rows = (("EBIT", "1,701", "1,608", "(5)", "1"), ("Net income", "1,224", "1,089", "(11)", "(4)"))
    assert _problems(sentence, _layout_source(rows, ("2022", "2023", "% Change", "% Change"))) == flagged
