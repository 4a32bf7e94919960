"""A claim naming a part (a product, segment or geography) is checked against that part's row only, never the total's
figures; a 10-Q's quarter against its own column, not the year-to-date one; a change given by its two figures ("fell to
$x from $y a year earlier", "rose from $x to $y") against both columns. Generated pages (PyMuPDF text at positions, read by
the layout reader as at answer time)."""

from __future__ import annotations

from tests.agent.claims.test_claims_layouts import _problems, _source

HEAD = [(56, 60, "Net sales by product line for the three- and nine-month periods were as follows (in millions):"),
        (330, 80, "Three Months Ended"), (470, 80, "Nine Months Ended")]
HEAD += [(-(330 + 70 * k), 92, d) for k, d in enumerate(("July 1,", "June 25,", "July 1,", "June 25,"))]
HEAD += [(-(330 + 70 * k), 104, y) for k, y in enumerate(("2023", "2022", "2023", "2022"))]


def _table(head: list, rows: list[tuple[str, tuple[str, ...]]], top: float = 122, indent: dict | None = None) -> list:
    lines = list(head)
    for r, (label, values) in enumerate(rows):
        lines.append(((indent or {}).get(label, 56), top + 14 * r, label))
        lines += [(-(330 + 70 * k), top + 14 * r, v) for k, v in enumerate(values)]
    return lines


# the parts change otherwise than the total: Gizmos -2.4% and the total -1.4% in the quarter; Widgets -1.2% and the
# total -3.4% over nine months
PRODUCTS = _table(HEAD, [("Gizmos", ("$ 39,669", "$ 40,665", "$ 156,778", "$ 162,863")),
                         ("Widgets", ("5,791", "7,224", "21,857", "22,118")),
                         ("Services", ("36,337", "35,070", "115,152", "119,201")),
                         ("Total net sales", ("$ 81,797", "$ 82,959", "$ 293,787", "$ 304,182"))])


def test_a_products_claim_is_never_supported_by_the_totals_row():
    source = _source(PRODUCTS)
    assert _problems("Widgets net sales were $81,797 million in the three months ended July 1, 2023 [^1].", source) \
        == ["$81,797 million"]
    assert _problems("Gizmos net sales fell 1% in the three months ended July 1, 2023 [^1].", source) == ["1%"]
    assert _problems("Widgets net sales fell 3% in the nine months ended July 1, 2023 [^1].", source) == ["3%"]
    # the parts' own figures and changes, and the total's
    assert _problems("Widgets net sales were $5,791 million in the three months ended July 1, 2023 [^1].", source) == []
    assert _problems("Gizmos net sales fell 2% in the three months ended July 1, 2023 [^1].", source) == []
    assert _problems("Widgets net sales fell 1% in the nine months ended July 1, 2023 [^1].", source) == []
    assert _problems("Total net sales fell 1% in the three months ended July 1, 2023 [^1].", source) == []
    assert _problems("Net sales fell 3% in the nine months ended July 1, 2023 [^1].", source) == []


# a segment's row in two blocks: its net sales, then its earnings under a heading wrapped over two lines
SEGMENTS = _table([(56, 80, "($ in millions)")] + HEAD[1:], [("Coatings", ("$ 2,812", "$ 2,713", "$ 5,591", "$ 5,347")),
                             ("Containers", ("830", "794", "1,763", "1,580")),
                             ("Total net sales", ("$ 3,642", "$ 3,507", "$ 7,354", "$ 6,927")),
                             ("Adjusted earnings before interest and taxes (\"Adjusted", ()),
                             ("EBIT\")", ()),
                             ("Coatings", ("$ 353", "$ 352", "$ 706", "$ 691")),
                             ("Containers", ("57", "55", "123", "117")),
                             ("Adjusted EBIT", ("399", "388", "791", "769"))])


def test_a_segments_net_sales_are_not_its_earnings_row_nor_the_total():
    source = _source(SEGMENTS)
    # Containers' net sales rose 4.5%; its earnings 3.6% and the total's net sales 3.8%
    assert _problems("Containers net sales rose 4% in the three months ended July 1, 2023 [^1].", source) == ["4%"]
    assert _problems("Containers net sales rose 5% in the three months ended July 1, 2023 [^1].", source) == []
    assert _problems("Coatings net sales rose 6% in the nine months ended July 1, 2023 [^1].", source) == ["6%"]  # the total's
    assert _problems("Coatings adjusted EBIT was $399 million in the three months ended July 1, 2023 [^1].", source) \
        == ["$399 million"]
    assert _problems("Coatings adjusted EBIT was $353 million in the three months ended July 1, 2023 [^1].", source) == []
    # a label quoted alone names no item: either of its two rows is it
    assert _problems('The line "Containers" shows $57.0 million for the three months ended July 1, 2023 [^1].', source) == []
    assert _problems('The line "Containers" shows $830 million for the three months ended July 1, 2023 [^1].', source) == []


def test_a_total_printed_as_the_item_alone_is_not_the_parts_row():
    # the segments' total printed "Net sales", not "Total net sales": still the total, not a part's row
    rows = [("Coatings", ("$ 2,812", "$ 2,713", "$ 5,591", "$ 5,347")), ("Containers", ("830", "794", "1,763", "1,580")),
            ("Net sales", ("$ 3,642", "$ 3,507", "$ 7,354", "$ 6,927"))]
    source = _source(_table([(56, 80, "($ in millions)")] + HEAD[1:], rows))
    assert _problems("Coatings net sales rose 6% in the nine months ended July 1, 2023 [^1].", source) == ["6%"]  # the total's
    assert _problems("Coatings net sales were $7,354 million in the nine months ended July 1, 2023 [^1].", source) \
        == ["$7,354 million"]
    assert _problems("Coatings net sales rose 5% in the nine months ended July 1, 2023 [^1].", source) == []
    assert _problems("Net sales rose 6% in the nine months ended July 1, 2023 [^1].", source) == []
    assert _problems("Net sales were $7,354 million in the nine months ended July 1, 2023 [^1].", source) == []


def test_an_entitys_name_does_not_make_a_revenue_row_its_net_income():
    # the statement names its entity; two revenue rows print words of that name ("Electric", "Natural gas")
    head = [(56, 60, "Northwind Gas and Electric Company"), (56, 72, "CONSOLIDATED STATEMENTS OF INCOME"),
            (56, 84, "(in millions)"), (330, 96, "Year ended December 31,")]
    head += [(-(330 + 70 * k), 108, y) for k, y in enumerate(("2016", "2015"))]
    rows = [("Operating Revenues", ()), ("Electric", ("$ 13,865", "$ 13,657")), ("Natural gas", ("3,802", "3,176")),
            ("Total operating revenues", ("17,667", "16,833")), ("Net Income", ("1,402", "862"))]
    source = _source(_table(head, rows, top=122))
    name = "Northwind Gas and Electric Company: Net Income"
    assert _problems(f"{name} was $13,865 million for 2016 [^1].", source) == ["$13,865 million"]
    assert _problems(f"{name} was $1,402 million for 2016 [^1].", source) == []
    assert _problems("Northwind Gas and Electric Company's electric revenues were $13,865 million in 2016 [^1].", source) == []


def test_a_change_given_by_both_its_figures():
    source = _source(PRODUCTS)
    assert _problems("Gizmos net sales declined to $39.7 billion in the three months ended July 1, 2023, from $40.7 billion"
                     " a year earlier [^1].", source) == []
    assert _problems("Widgets net sales fell from $7,224 million to $5,791 million in the three months ended July 1, 2023"
                     " [^1].", source) == []
    assert _problems("Widgets net sales rose from $7,224 million to $5,791 million in the three months ended July 1, 2023"
                     " [^1].", source) != []  # the direction said against its own two figures
    # a start figure of another period or row is still not found
    assert _problems("Gizmos net sales declined to $39.7 billion in the three months ended July 1, 2023, from $162.9 billion"
                     " a year earlier [^1].", source) == ["$162.9 billion"]
    assert _problems("Gizmos net sales declined to $39.7 billion in the three months ended July 1, 2023, from $82.96 billion"
                     " a year earlier [^1].", source) == ["$82.96 billion"]
    # and a quarter's figure is not the nine months'
    assert _problems("Gizmos net sales were $156.8 billion in the three months ended July 1, 2023 [^1].", source) \
        == ["$156.8 billion"]


# a release's segment table of twelve months, and a paragraph under it giving the quarter's net sales
RELEASE = [(56, 60, "Coatings"), (330, 72, "Twelve Months Ended June 30,"), (-330, 86, "2022 $ million"),
           (-420, 86, "2023 $ million"), (56, 100, "Net sales"), (-330, 100, "11,151"), (-420, 100, "11,154"),
           (56, 114, "Adjusted EBIT"), (-330, 114, "1,517"), (-420, 114, "1,429"),
           (56, 140, "June 2023 quarter"),
           (56, 154, "Net sales of $2,777 million were 6% lower than last year on a reported basis, including a favorable"),
           (56, 166, "impact of approximately 1% related to movements in foreign exchange rates.")]


def test_a_paragraphs_number_does_not_state_another_period_of_a_row_the_table_prints():
    source = _source(RELEASE)
    assert _problems("Coatings net sales were $2,777 million for the twelve months ended June 30, 2022 [^1].", source) \
        == ["$2,777 million"]
    assert _problems("Coatings net sales were $11,154 million for the twelve months ended June 30, 2023 [^1].", source) == []
    # the paragraph still states the quarter it is about
    assert _problems("Coatings net sales were $2,777 million in the three months ended June 30, 2023 [^1].", source) == []


def test_a_products_row_under_a_heading_naming_the_item():
    # "Net sales by category:" over the products and the total: the heading names the sentence's item, not the part
    source = _source(_table(HEAD[1:], [("Net sales by category:", ()),
                                       ("Gizmos", ("$ 39,669", "$ 40,665", "$ 156,778", "$ 162,863")),
                                       ("Widgets", ("5,791", "7,224", "21,857", "22,118")),
                                       ("Total net sales", ("$ 81,797", "$ 82,959", "$ 293,787", "$ 304,182"))]))
    assert _problems("Gizmos net sales fell 1% in the three months ended July 1, 2023 [^1].", source) == ["1%"]
    assert _problems("Gizmos net sales fell 2% in the three months ended July 1, 2023 [^1].", source) == []
    assert _problems("Total net sales fell 1% in the three months ended July 1, 2023 [^1].", source) == []


def test_percentage_points_are_not_a_paragraphs_footnote_mark():
    # a footnote "(1) Adjusted non-GAAP results exclude …" under a release's table: its mark states no "1.0 points"
    source = _source(RELEASE[:10] + [(56, 140, "(1) Adjusted non-GAAP results exclude items which are not considered"
                                                  " representative of ongoing operations."),
                                     (56, 154, "Adjusted EBIT margin of 12.8% was down 0.8 percentage points on the"
                                               " prior year."),
                                     (56, 168, "Gross margin of 20.1% was up 0.4 percentage-point on the prior year.")])
    assert _problems("Adjusted non-GAAP results: Coatings net sales increased 1.0 percentage points from fiscal 2022 [^1].",
                     source) == ["1.0"]
    assert _problems("Adjusted EBIT margin was down 0.8 percentage points on the prior year [^1].", source) == []
    assert _problems("Gross margin was up 0.4 percentage points on the prior year [^1].", source) == []
