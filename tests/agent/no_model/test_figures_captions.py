"""A figure question that names a segment the row label does not say ("International revenue",
row "Revenue" of the "International Segment" table): the table's caption decides."""

from __future__ import annotations

import pytest

from agent.no_model.figure_periods import asked_period
from agent.no_model.cited_rows import collect_rows, table_captions
from storage.schema import Source
from agent.no_model.figure_rows import best_row, make_ask
from storage.documents.embeddings import get_embedder
from storage.documents.tables import page_units

PAGE = """Segment Performance Summary
Domestic Segment
The following table presents selected financial data for our Domestic segment for each year.
Domestic Segment Performance Summary 2018 2017 2016
Revenue $ 38,662 $ 36,248 $ 36,365
Operating income $ 1,752 $ 1,764 $ 1,585
International Segment
Years ended
2018
2017
2016
Revenue
$ 3,489
$ 3,155
$ 3,163
Operating income
$ 148
$ 123
$ 129
"""


def test_captions_of_tables():
    units = page_units(PAGE, one_line_rows=True)
    captions = table_captions(units)
    by_row = [(u.text.split(" $")[0], captions.get(id(u.header))) for u in units if u.is_table_row and not u.is_header]
    assert by_row == [("Revenue", "Domestic Segment Performance Summary"),
                      ("Operating income", "Domestic Segment Performance Summary"),
                      ("Revenue", "International Segment"), ("Operating income", "International Segment")]


@pytest.mark.parametrize("question, value", [
    ("What was International revenue in fiscal 2017?", "$3,155"),
    ("What was the Domestic segment's revenue in fiscal 2017?", "$36,248"),
    ("What was International operating income in fiscal 2018?", "$148"),
])
def test_the_caption_picks_the_segment_table(question, value):
    src = Source(source_id="[^1]", kind="document", text=PAGE, doc_id="d", page_number=3)
    rows = collect_rows([src], lambda s: PAGE)
    match = best_row(make_ask(question, asked_period(question), [src]), rows, get_embedder())
    assert match is not None and [c.value for c in match.cells] == [value]
