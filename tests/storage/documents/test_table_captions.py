"""A table's title has one reading (storage/documents/tables.table_captions) for the stored facts and the
answer's rows: a caption printed left of the header's periods, else the short line just above the header. The
one difference is said by its flag: for the facts a scale caption ("(Amounts in thousands)") is no title."""

from __future__ import annotations

from agent.no_model import cited_rows
from storage.documents import facts as facts_module
from storage.documents.tables import page_units, table_captions

PAGE = """International Segment
Years ended
2018
2017
Revenue
$ 3,489
$ 3,155
Operating income
$ 148
$ 123
The segment's results are discussed below.
(Amounts in thousands)
Years ended
2018
2017
Net sales
$ 9,120
$ 8,410
Domestic Segment Performance Summary 2018 2017
Revenue $ 38,662 $ 36,248
"""


def _by_row(scale_titles: bool) -> list[tuple[str, str | None]]:
    units = page_units(PAGE, one_line_rows=True)
    captions = table_captions(units, scale_titles=scale_titles)
    return [(u.text.split(" $")[0], captions.get(id(u.header))) for u in units if u.is_table_row and not u.is_header]


def test_a_short_line_above_or_a_caption_left_of_the_periods_titles_the_table():
    rows = dict(_by_row(scale_titles=False))
    assert rows["Operating income"] == "International Segment"
    assert rows["Revenue"] == "Domestic Segment Performance Summary"


def test_a_scale_caption_titles_a_table_for_the_answer_rows_only():
    assert dict(_by_row(scale_titles=True))["Net sales"] == "(Amounts in thousands)"
    assert dict(_by_row(scale_titles=False))["Net sales"] == ""


def test_the_facts_reader_and_the_answer_rows_read_titles_with_the_one_function():
    assert cited_rows.table_captions is table_captions and facts_module.table_captions is table_captions
