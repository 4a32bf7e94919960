"""Column heads that print their unit after the year ("2022 $ million  2023 $ million  Reported ∆%", a release's
key financials): the year is the column's period, the unit its column's unit and scale; a change column in percent
("∆%", "% change") is percent at scale 1 with no year; amounts in cents ("EPS (diluted US cents)", a column
"2023 US cents") are per share, a hundredth of a dollar. No table caption says a scale: only the heads do."""

from __future__ import annotations

import pymupdf
import pytest

from storage.documents.table_words import Line, Word, strip_unit_heads
from tests.storage.documents.layout_pages import Statement, check_fact, fact, facts_of, read_facts, span

YEAR_2023 = span("2022-07-01", "2023-06-30", 12)
YEAR_2022 = span("2021-07-01", "2022-06-30", 12)
NO_PERIOD = {"period_end": None, "fiscal_year": None, "as_of": None}  # (the span phrase over it may stay: no year)


def _release(unit: str, change: str) -> Statement:
    return Statement(
        title=["Key Financials"],
        header=["Twelve Months Ended June 30,", [f"2022 {unit}", f"2023 {unit}", f"Reported {change}"]],
        header_left={1: "Adjusted results"},
        rows=[("Net sales", "14,544", "14,694", "1"), ("EBIT", "1,701", "1,608", "(5)"),
              ("Net income", "1,224", "1,089", "(11)"), ("EPS (diluted US cents)", "80.5", "73.3", "(9)")])


@pytest.mark.parametrize("unit", ["$ million", "$m", "US$ millions", "$ millions"])
@pytest.mark.parametrize("change", ["%", "% change"])
def test_year_heads_printing_their_unit_give_period_and_scale(unit, change):
    facts = facts_of(_release(unit, change))
    check_fact(facts, "Net sales", 1, **YEAR_2023, unit="USD", scale=1e6)
    check_fact(facts, "Net income", 0, **YEAR_2022, unit="USD", scale=1e6)
    check_fact(facts, "EBIT", 2, **NO_PERIOD, unit="%", scale=1.0)
    check_fact(facts, "Net income", 2, **NO_PERIOD, unit="%", scale=1.0)


def _delta_page() -> bytes:
    """The release's table printed in a font with the Greek capital delta: "Reported Δ%" over a change column."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_font(fontname="cj", fontbuffer=pymupdf.Font("cjk").buffer)

    def put(x: float, y: float, text: str, right: bool = False) -> None:
        width = pymupdf.get_text_length(text, fontsize=9) if right else 0  # (an estimate: the widths differ a little)
        page.insert_text((x - width, y), text, fontsize=9, fontname="cj")

    put(340, 90, "Twelve Months Ended June 30,")
    put(56, 104, "Adjusted results")
    for x, head in ((330, "2022 $ million"), (410, "2023 $ million"), (500, "Reported Δ%")):
        put(x, 104, head)
    for k, (label, *values) in enumerate([("Net sales", "14,544", "14,694", "1"), ("EBIT", "1,701", "1,608", "(5)"),
                                          ("Net income", "1,224", "1,089", "(11)")]):
        put(56, 120 + 13 * k, label)
        for x1, v in zip((390, 470, 550), values):
            put(x1, 120 + 13 * k, v, right=True)
    return doc.tobytes()


def test_delta_percent_head_is_a_change_in_percent():
    """"Δ%" (a change, in percent) titles a change column as "%" does: percent, no period."""
    facts = read_facts(_delta_page())
    assert any("Δ%" in f.period for f in facts)
    check_fact(facts, "EBIT", 2, **NO_PERIOD, unit="%", scale=1.0)
    check_fact(facts, "EBIT", 1, **YEAR_2023, unit="USD", scale=1e6)


def test_amounts_in_cents_are_per_share_hundredths():
    facts = facts_of(_release("$ million", "%"))
    check_fact(facts, "EPS (diluted US cents)", 1, **YEAR_2023, unit="USD/share", scale=0.01)
    check_fact(facts, "EPS (diluted US cents)", 2, **NO_PERIOD, unit="%", scale=1.0)


def test_a_column_in_cents_is_per_share_hundredths():
    st = Statement(title=["Dividends"], header=["Years Ended June 30,", ["2022 US cents", "2023 US cents"]],
                   rows=[("Dividends declared", "48.0", "49.0"), ("Interim dividend", "24.0", "24.5")])
    facts = facts_of(st)
    check_fact(facts, "Dividends declared", 1, **YEAR_2023, unit="USD/share", scale=0.01)


def test_a_row_labelled_in_percent_is_percent_in_a_table_of_millions():
    st = Statement(title=["Flexibles"], header=["Twelve Months Ended June 30,", ["2022 $ million", "2023 $ million"]],
                   rows=[("Net sales", "11,151", "11,154"), ("Adjusted EBIT", "1,517", "1,429"),
                         ("Adjusted EBIT / Sales %", "13.6", "12.8")])
    facts = facts_of(st)
    check_fact(facts, "Adjusted EBIT", 1, **YEAR_2023, unit="USD", scale=1e6)
    check_fact(facts, "Adjusted EBIT / Sales %", 0, **YEAR_2022, unit="%", scale=1.0)


def _line(*words: tuple[float, str]) -> Line:
    out, x = [], 0.0
    for gap, text in words:
        x += gap
        out.append(Word(x, 100, x + 5 * len(text), 110, text))
        x += 5 * len(text)
    return Line(out)


def test_unit_words_after_a_year_leave_the_head():
    line = _line((300, "2022"), (5, "$"), (5, "million"), (40, "2023"), (5, "$"), (5, "million"))
    strip_unit_heads(line, 5.0)
    assert line.text == "2022 2023"
    assert [u[2] for u in line.units] == ["$ million", "$ million"]
    assert line.words[0].x1 > 300 + 5 * 4  # the year stands for the whole head


@pytest.mark.parametrize("words", [
    [(60, "In"), (5, "2023"), (5, "cents"), (5, "per"), (5, "share"), (5, "rose")],  # prose goes on after the unit
    [(60, "Notes"), (5, "due"), (5, "2025"), (40, "$"), (5, "1,250")],  # a figure after the year is a value
    [(300, "2022"), (40, "2023")],  # years alone
])
def test_other_lines_keep_their_words(words):
    line = _line(*words)
    before = line.text
    strip_unit_heads(line, 5.0)
    assert line.text == before and not line.units


def _amounts_with_unit_labels() -> Statement:
    """A table "(In millions)" whose rows' labels name their own unit: percents, cents, a rate in a name."""
    return Statement(
        title=["Selected Financial Data", "(In millions, except per share data)"],
        header=["Years Ended June 30,", ["2023", "2022"]],
        rows=[("Net sales", "14,694", "14,544"), ("Operating margin (%)", "11.2", "10.8"),
              ("% growth in net sales", "1.0", "3.5"), ("Margin (in %)", "12.1", "11.6"), ("EPS (cps)", "73.3", "80.5"),
              ("Senior notes 4.5%", "500", "500"), ("Sales growth per cent", "1.0", "3.5")])


@pytest.mark.parametrize("label, unit, scale", [
    ("Operating margin (%)", "%", 1.0),  # "(%)": percents, never millions
    ("% growth in net sales", "%", 1.0),  # a label opening with "%"
    ("Margin (in %)", "%", 1.0),
    ("EPS (cps)", "USD/share", 0.01),  # cents per share: a hundredth of a dollar
    ("Senior notes 4.5%", "USD", 1e6),  # a rate in a name: the row's values are amounts
])
def test_a_label_naming_its_unit_gives_its_values_that_unit(label, unit, scale):
    facts = facts_of(_amounts_with_unit_labels())
    check_fact(facts, label, 0, unit=unit, scale=scale)
    check_fact(facts, "Net sales", 0, unit="USD", scale=1e6)


def test_per_cent_is_no_cents():
    """"per cent" (a percentage, British) names no cents: the row is not read as a hundredth of a dollar per share."""
    f = fact(facts_of(_amounts_with_unit_labels()), "Sales growth per cent", 0)
    assert f.unit != "USD/share" and f.scale != 0.01
