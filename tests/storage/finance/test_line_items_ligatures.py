"""A row label printed with a typographic ligature ("proﬁt", "ﬂows": one glyph for "fi", "fl", as PDFs
made from HTML or by typesetters print them) is the same line item as the label spelt out."""

import pytest

from storage.finance.line_items import row_item


@pytest.mark.parametrize("printed, spelt", [("Net proﬁt", "Net profit"), ("Gross proﬁt", "Gross profit"),
                                            ("Operating proﬁt", "Operating profit")])
def test_a_ligature_label_is_its_spelt_out_line_item(printed, spelt):
    assert row_item(spelt) is not None
    assert row_item(printed) is row_item(spelt)
