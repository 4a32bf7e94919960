"""A citation's dialog says each quoted thing once: a cell quote ("Net earnings … 9,100") whose whole row
the answer also quotes ("Net earnings 9,100 8,200 7,300") is shown as that row with its value in bold,
not the cell and then the row; a row's columns are listed once. The copy text's footnote likewise."""

from __future__ import annotations

from storage.schema import Citation, CitationMetadata
from tests.fixtures_mongo import write_message
from tests.fixtures_ui import citation_buttons, new_app
from ui.citations import answer_with_footnotes

CELL, ROW = "Net earnings … 9,100", "Net earnings 9,100 8,200 7,300"


def _row_citation(quotes: list[str], columns: list[str]) -> Citation:
    return Citation(number="1", marker="[^1]", kind="page", documentId="d1", documentTitle="acme_2018.pdf — page 3",
                    snippet="\n".join(quotes), preview="Consolidated Statements of Cash Flows …",
                    metadata=CitationMetadata(file="acme_2018.pdf", doc_id="d1", quotes=quotes, columns=columns))


def _open_dialog(store, user_id: str, citation: Citation) -> str:
    cid = store.create_conversation(user_id, "Net earnings")
    write_message(store, user_id, cid, "user", "What were net earnings in 2018?")
    write_message(store, user_id, cid, "ai", "They were 9,100 million [^1].",
                  citations=[citation.model_dump()], route="documents")
    at = new_app()
    at.query_params["c"] = cid
    at.run()
    citation_buttons(at)[0].click().run()
    assert not at.exception
    return "\n".join(x.value for x in list(at.markdown) + list(at.caption))


def test_a_quoted_cell_and_its_whole_row_are_shown_once(chat_service, ui_env):
    columns = ["Years ended December 31, 2018", "Years ended December 31, 2018", "Years ended December 31, 2017"]
    shown = _open_dialog(chat_service.history, ui_env["user_id"], _row_citation([CELL, ROW], columns))
    quote = [line for line in shown.splitlines() if "Net earnings" in line]
    assert quote == ["“Net earnings **9,100** 8,200 7,300”"], shown  # the row once, its cited value in bold
    assert "Columns: Years ended December 31, 2018 | Years ended December 31, 2017" in shown.replace("\\", "")


def test_a_cell_quote_without_its_row_and_two_quotes_of_other_rows_stay(chat_service, ui_env):
    citation = _row_citation([CELL, "Cost of sales 9,100 8,700"], [])
    shown = _open_dialog(chat_service.history, ui_env["user_id"], citation).replace("\\", "")
    assert "“Net earnings … 9,100  \nCost of sales 9,100 8,700”" in shown, shown


def test_the_copy_texts_footnote_quotes_the_row_once():
    out = answer_with_footnotes("Net earnings were 9,100 [^1].", [_row_citation([CELL, ROW], [])])
    assert out.endswith("[1] acme_2018.pdf: “Net earnings 9,100 8,200 7,300”"), out
