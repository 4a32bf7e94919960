"""A paragraph printed under a table whose line happens to end in a figure ("... the total unrecognized
compensation cost related to outstanding RSUs was $16.7" / "billion, which the Company expects to
recognize ..."). The line was read as a row of the table above and its figure stored under the column it
ended beneath ("$16.7" as a 2020 amount in millions). A sentence whose one figure follows its words at a word's spacing
and goes on in the next line is prose; a row with a long label whose figure stands in a column reads as before."""

from __future__ import annotations

import pymupdf

from tests.storage.documents.layout_pages import FONT, LABEL_X, read_facts, right_aligned

RIGHTS = (391, 468, 545)


def _page(sentence: str, rest: str, row: tuple[str, ...] | None = None) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((LABEL_X, 80), "The following table shows share-based compensation expense (in millions):", fontsize=FONT)
    for x1, year in zip(RIGHTS, ("2022", "2021", "2020")):
        right_aligned(page, x1, 100, year)
    y = 114
    for label, *values in [("Share-based compensation expense", "$9,038", "$7,906", "$6,829"),
                           ("Income tax benefit related to share-based compensation", "(4,002)", "(4,056)", "(2,476)")] + (
                              [row] if row else []):
        page.insert_text((LABEL_X, y), label, fontsize=FONT)
        for x1, v in zip(RIGHTS, values):
            if v:
                right_aligned(page, x1, y, v)
        y += 14
    y += 4
    page.insert_text((LABEL_X, y), sentence, fontsize=FONT)
    page.insert_text((LABEL_X, y + 11), rest, fontsize=FONT)
    data = doc.tobytes()
    doc.close()
    return data


SENTENCE = "As of September 24, 2022, the total unrecognized compensation cost related to outstanding RSUs was $16.7"
REST = "billion, which the Company expects to recognize over a weighted-average period of 2.5 years."


def test_a_sentence_ending_in_a_figure_is_no_row():
    facts = read_facts(_page(SENTENCE, REST))
    assert not [f for f in facts if f.value_text.lstrip("$") == "16.7"], [(f.label, f.period) for f in facts if "16.7" in f.value_text]
    assert [f for f in facts if f.label == "Share-based compensation expense" and f.value == 7906 and f.fiscal_year == 2021]


def test_a_long_label_with_its_figure_in_a_column_is_a_row():
    # one figure, in the last column, after a label of a dozen words whose next line starts in lower case
    label = "Tax benefit of the awards vested and the options exercised in the year by all"
    facts = read_facts(_page("employees", REST, row=(label, "", "", "1,000")))
    assert [f for f in facts if f.label.startswith(label) and f.value == 1000 and f.fiscal_year == 2020], \
        [(f.label, f.value_text, f.period) for f in facts]
