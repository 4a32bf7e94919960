"""Facts of layouts filings print (generated pages, words at positions): the period, unit and scale
each value gets from where it stands."""

from __future__ import annotations

from storage.documents.facts import facts_of
from storage.documents.table_layout import layout_units
from tests.storage.documents.layout_pages import placed_words


def _facts(lines):
    return facts_of(0, layout_units(placed_words(lines)))


def _two(y, label, a, b):
    return (y, [(56, label, False), (430, a, True), (500, b, True)])


def test_a_balance_date_phrase_over_year_columns_dates_each_balance():
    facts = _facts([(60, [(56, "CONSOLIDATED BALANCE SHEETS", False)]), (74, [(56, "(in millions)", False)]),
                    (90, [(400, "Balance at December 31,", False)]), (104, [(405, "2022", False), (475, "2021", False)]),
                    _two(120, "Cash and cash equivalents", "$ 734", "$ 291"), _two(134, "Total current assets", "12,815", "9,622")])
    cur = next(f for f in facts if f.label == "Total current assets" and f.column == 0)
    assert (cur.as_of, cur.period_end, cur.duration_months, cur.scale) == ("2022-12-31", "2022-12-31", None, 1e6)


def test_a_caption_broken_over_two_lines_scales_the_table():
    facts = _facts([(60, [(56, "Net sales by category for the three months ended July 1, 2023 and June 25, 2022 were as follows (in", False)]),
                    (72, [(56, "millions):", False)]),
                    (88, [(380, "Three Months Ended", False)]), (100, [(405, "July 1, 2023", False), (465, "June 25, 2022", False)]),
                    _two(116, "iPhone", "$ 39,669", "$ 40,665"), _two(130, "Mac", "6,840", "7,382"), _two(144, "Total net sales", "$ 81,797", "$ 82,959")])
    iphone = next(f for f in facts if f.label == "iPhone" and f.column == 0)
    assert (iphone.scale, iphone.duration_months, iphone.period_end) == (1e6, 3, "2023-07-01")


def test_per_share_rows_under_a_per_share_section_are_unscaled_and_a_bare_total_is_a_fact():
    facts = _facts([(60, [(56, "(In thousands, except per share data)", False)]), (76, [(405, "2015", False), (475, "2014", False)]),
                    _two(92, "Net income", "572,606", "433,712"), (106, [(56, "Earnings per share - diluted:", False)]),
                    _two(120, "Net income", "$ 3.72", "$ 2.83"), (134, [(56, "Segment revenue", False)]),
                    _two(148, "Office", "2,100", "1,900"), _two(162, "Residential", "400", "350"), (176, [(430, "2,500", True), (500, "2,250", True)])])
    eps = next(f for f in facts if f.value_text == "$3.72")
    assert (eps.unit, eps.scale, eps.fiscal_year) == ("USD/share", 1.0, 2015)
    income = next(f for f in facts if f.value_text == "572,606")
    assert (income.unit, income.scale) == ("USD", 1e3)
    total = next(f for f in facts if f.value_text == "2,500")
    assert (total.label, total.scale, total.fiscal_year) == ("", 1e3, 2015)


def test_years_as_row_labels_under_item_sections_with_segment_columns():
    def row(y, year, *values):
        return (y, [(56, year, False)] + [(300 + 80 * i, v, True) for i, v in enumerate(values)])

    facts = _facts([
        (60, [(56, "The following table reconciles segment revenue and operating income (in millions) for the years ended May 31:", False)]),
        (80, [(240, "Express", False), (325, "Ground", False), (400, "Consolidated", False)]),
        (92, [(240, "Segment", False), (325, "Segment", False), (420, "Total", False)]),
        (108, [(56, "Revenue", False)]), row(122, "2023", "$ 42,743", "$ 33,507", "$ 76,250"),
        row(136, "2022", "45,814", "33,232", "79,046"),
        (150, [(56, "Operating income", False)]), row(164, "2023", "$ 1,064", "$ 3,140", "$ 4,204"),
        row(178, "2022", "2,922", "2,642", "5,564")])
    ground = next(f for f in facts if f.value_text == "$33,507")
    assert (ground.label, ground.period, ground.period_end, ground.duration_months, ground.scale) == \
        ("Revenue", "Ground Segment, Year ended May 31, 2023", "2023-05-31", 12, 1e6)
    income = next(f for f in facts if f.value_text == "2,642")
    assert (income.label, income.fiscal_year, income.column) == ("Operating income", 2022, 1)


def test_a_range_printed_with_a_dash_a_space_from_each_end_is_one_cell():
    # "$0.59 - $0.64": one value, its two ends (a guidance); a dash a column from its neighbours is a cell of its own
    facts = _facts([(60, [(56, "(In billions, except per share amounts)", False)]),
                    (76, [(330, "2023", True), (430, "2022", True), (530, "2021", True)]),
                    (92, [(56, "Diluted EPS", False), (330, "$0.59 - $0.64", True), (430, "$0.62 - $0.67", True),
                          (530, "$0.55 - $0.60", True)]),
                    (106, [(56, "Other income", False), (330, "1.24", True), (430, "-", True), (530, "5.68", True)])])
    eps = sorted((f for f in facts if f.label == "Diluted EPS"), key=lambda f: f.column)
    assert [(f.value_text, f.value) for f in eps] == [("$0.59-$0.64", None), ("$0.62-$0.67", None), ("$0.55-$0.60", None)]
    other = sorted((f for f in facts if f.label == "Other income"), key=lambda f: f.column)
    assert [(f.column, f.value) for f in other] == [(0, 1.24), (1, None), (2, 5.68)]


def test_a_scale_word_printed_after_a_cell_s_figure_is_its_scale():
    # a release's summary prints "$4.0 billion" under no caption; a guidance range its word once, after the range
    facts = _facts([(60, [(56, "Q4 2022 FINANCIAL HIGHLIGHTS", False)]),
                    (76, [(380, "Q4 2022", True), (500, "Q4 2021", True)]),
                    _two_at(92, "Revenue", "$4.0 billion", "$3.9 billion"),
                    _two_at(106, "Revenue outlook", "$10.5-11.5 billion", "$9.0-10.0 billion"),
                    _two_at(120, "Diluted earnings per share", "$1.04", "$0.95")])
    revenue = next(f for f in facts if f.label == "Revenue" and f.column == 0)
    assert (revenue.value_text, revenue.value, revenue.scale, revenue.unit) == ("$4.0 billion", 4.0, 1e9, "USD")
    outlook = next(f for f in facts if f.label == "Revenue outlook" and f.column == 0)
    assert (outlook.value_text, outlook.value, outlook.scale) == ("$10.5-11.5 billion", None, 1e9)
    eps = next(f for f in facts if f.label == "Diluted earnings per share" and f.column == 0)
    assert (eps.value, eps.scale) == (1.04, 1.0)


def _two_at(y, label, a, b):
    return (y, [(56, label, False), (380, a, True), (500, b, True)])


def _glyph_box(x0, baseline, text, size=7.0):
    """A word as an OCR engine boxes it: as tall as its glyphs, not as its font (a dash is a sliver; "ms" has no
    ascender, "Quarter" a descender)."""
    width = 0.5 * size * len(text)
    if set(text) <= set("-–—"):  # a hyphen's stroke, at half the x-height
        return (x0, baseline - 0.27 * size, x0 + width, baseline - 0.22 * size, text)
    top = baseline - (0.7 * size if any(c.isupper() or c.isdigit() or c in "bdfhklt$(" for c in text) else 0.5 * size)
    bottom = baseline + (0.2 * size if any(c in "gjpqy,()" for c in text) else 0.0)
    return (x0, top, x0 + width, bottom, text)


def test_an_ocr_header_line_of_glyph_tight_boxes_stays_one_line():
    """An OCR'd release: the period line over the columns is boxed glyph by glyph, a dash and short words lower
    and thinner than the capitals. Read by each word's own height, the dash and the words after it made a line of
    their own and the columns lost their quarter."""
    def row(y, label, a, b):
        return [_glyph_box(56, y, label), _glyph_box(380, y, a), _glyph_box(470, y, b)]

    words = [_glyph_box(56, 60, "(In millions)"),
             _glyph_box(360, 80, "Quarters"), _glyph_box(392, 80, "ended"), _glyph_box(414, 80, "December"),
             _glyph_box(446, 80, "31"), _glyph_box(456, 80, "-"), _glyph_box(462, 80, "unaudited"),
             _glyph_box(380, 94, "2022"), _glyph_box(470, 94, "2021"),
             *row(110, "Revenues", "$5,927", "$6,006"), *row(124, "Operating income", "2,249", "2,456")]
    facts = facts_of(0, layout_units(words))
    revenue = next(f for f in facts if f.label == "Revenues" and f.column == 0)
    assert (revenue.duration_months, revenue.fiscal_year) == (3, 2022)
