"""Issue 29.1: one source of truth for the chat's PDF selection. The question is asked with exactly
the selection the picker shows, also when the library changed since the picker was drawn (a PDF
processed meanwhile renames the titles of the others, the labels the browser still shows)."""

from __future__ import annotations

from storage.documents.ingest import process_and_index_pdf
from tests.fixtures_filings import acme_10k_pages, write_pages
from tests.fixtures_ui import doc_picker, new_app


def _acme(home, name: str, prose: bool):
    return process_and_index_pdf(write_pages(home / "source" / name, acme_10k_pages(2019, (1_208, 1_100, 1_000), prose=prose)))


def _answers(at) -> list[str]:
    return [m.value for m in at.markdown if "Select a PDF" in m.value or "Purchases" in m.value]


def test_a_question_asked_after_the_library_changed_uses_the_selection_shown(chat_service, ui_env):
    first = _acme(ui_env["home"], "acme_2019.pdf", prose=False)
    at = new_app().run()
    assert doc_picker(at).value == [first.doc_id]
    shown = doc_picker(at).options  # the labels the browser shows: "Acme Rockets · 10-K · FY2019"
    # Another copy of the same filing is processed (another tab, the CLI): both titles change.
    second = _acme(ui_env["home"], "acme_2019_reissued.pdf", prose=True)
    at.chat_input[0].set_value("What were the purchases of property, plant and equipment in 2019?").run()
    assert not at.exception
    answers = _answers(at)
    assert answers and "Select a PDF" not in answers[-1]  # asked with the PDF the picker showed selected
    assert doc_picker(at).value == [first.doc_id]  # and the picker still shows it, alone
    assert doc_picker(at).options != shown and second.doc_id
