"""Issue 27.4: a table-row citation marks its row label and its value on the page image, on the
label's printed line (not the same number elsewhere), for the figure path's whole-page citations
(kind "page") and for quoted rows whose cells are printed apart in columns."""

from __future__ import annotations

import pymupdf

from storage.schema import Citation, CitationMetadata
from ui.citations import highlight_text
from ui.page_images import find_passage_rects, render_page

ZOOM = 1.5
ROWS = [  # label, values: printed at x = 56 and in columns at x = 360 / 440
    ("Net sales", ("12,400", "11,900")),
    ("Cost of sales", ("9,100", "8,700")),  # 9,100 again below, on another row
    ("Net earnings", ("9,100", "8,200")),
]


def _statement_pdf(path) -> str:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((56, 80), "Consolidated Statements of Earnings (in millions)", fontsize=11)
    page.insert_text((330, 110), "Years ended December 31,", fontsize=9)
    page.insert_text((360, 124), "2019", fontsize=9)
    page.insert_text((440, 124), "2018", fontsize=9)
    for i, (label, values) in enumerate(ROWS):
        y = 150 + 18 * i
        page.insert_text((56, y), label, fontsize=10)
        for x, v in zip((360, 440), values):
            if i == 0:  # the first row prints its currency sign apart: "$    12,400"
                page.insert_text((x - 14, y), "$", fontsize=10)
            page.insert_text((x, y), v, fontsize=10)
    doc.save(path)
    return str(path)


def _page_citation(quotes: list[str]) -> Citation:
    return Citation(number="1", marker="[^1]", kind="page", documentId="d", documentTitle="f.pdf — page 1",
                    snippet="\n".join(quotes) or "Consolidated Statements of Earnings", preview="…",
                    metadata=CitationMetadata(file="f.pdf", page=1, doc_id="d", quotes=quotes))


def _yellow_share(png: bytes, rect: pymupdf.Rect) -> float:
    pix = pymupdf.Pixmap(png)
    pts = [(x, y) for x in range(int(rect.x0 * ZOOM) + 1, int(rect.x1 * ZOOM) - 1, 2)
           for y in range(int(rect.y0 * ZOOM) + 1, int(rect.y1 * ZOOM) - 1, 2)]
    return sum(1 for x, y in pts if (lambda p: p[0] > 200 and p[1] > 170 and p[2] < 190)(pix.pixel(x, y))) / len(pts)


def test_a_cell_quote_marks_the_label_and_the_value_on_its_own_line(tmp_path):
    pdf = _statement_pdf(tmp_path / "s.pdf")
    with pymupdf.open(pdf) as doc:
        page = doc[0]
        label, value = find_passage_rects(page, "Net earnings … 9,100")
        assert page.get_textbox(label).strip() == "Net earnings"
        assert page.get_textbox(value).strip() == "9,100"
        assert abs(value.y0 - label.y0) < 2 and value.x0 > 350  # the value of that row, in the 2019 column


def test_a_quoted_row_printed_in_columns_marks_its_label_and_each_value(tmp_path):
    pdf = _statement_pdf(tmp_path / "s.pdf")
    with pymupdf.open(pdf) as doc:
        page = doc[0]
        quoted = "Net sales $12,400 $11,900"  # as the table reader gives the row: "$" glued to its number
        assert page.search_for(quoted) == []  # not the printed words: no phrase match
        rects = find_passage_rects(page, quoted)
        assert [page.get_textbox(r).strip() for r in rects] == ["Net sales", "12,400", "11,900"]
        assert len({round(r.y0) for r in rects}) == 1


def test_a_page_citation_highlights_the_quotes_it_carries_and_nothing_else(tmp_path):
    quoted = _page_citation(["Net earnings … 9,100", "Net earnings 9,100 8,200"])
    assert highlight_text(quoted) == "Net earnings … 9,100\nNet earnings 9,100 8,200"
    assert highlight_text(_page_citation([])) == ""  # a page cited without quotes: the page, unmarked

    pdf = _statement_pdf(tmp_path / "s.pdf")
    img = render_page(pdf, 0, highlight_text(quoted), zoom=ZOOM, cache_dir=tmp_path / "cache")
    assert img.highlights >= 3
    with pymupdf.open(pdf) as doc:
        page = doc[0]
        label = page.search_for("Net earnings")[0]
        value = [r for r in page.search_for("9,100") if abs(r.y0 - label.y0) < 2][0]
        other = [r for r in page.search_for("9,100") if abs(r.y0 - label.y0) >= 2][0]  # Cost of sales' 9,100
    assert _yellow_share(img.png, label) > 0.5 and _yellow_share(img.png, value) > 0.5
    assert _yellow_share(img.png, other) == 0
