"""The empty chat (what the selected PDFs are and questions they answer), a stopped answer asked
again, and the export's header (AppTest, real ChatService in no-model mode, real history)."""

from __future__ import annotations

from datetime import datetime, timezone

from storage.documents.ingest import process_and_index_pdf
from tests.fixtures_filings import acme_10k_pages, source_path, write_pages
from tests.fixtures_ui import citation_buttons, doc_picker, new_app
from ui.chat_actions import export_details
from ui.citations import conversation_markdown
from ui.conversations import ChatTurn, turns_of
from ui.safe_text import escape_markdown
from ui.doc_summary import DocOverview, statement_lines, suggested_questions


def _acme(year: int):
    pages = acme_10k_pages(year, (1_200 + year % 10, 1_100, 1_000), prose=False)
    return process_and_index_pdf(write_pages(source_path(f"acme_{year}.pdf"), pages))


def test_statement_lines_are_the_rows_the_filing_prints(ui_env):
    pdf = _acme(2018)
    lines = statement_lines(pdf.doc_id, pdf.processed_at)
    # The rows printed as known line items, most asked first (net income before capex, as listed
    # in the statement the other way round); the statement's title and header are no line items.
    assert lines == ("Net earnings", "Purchases of property, plant and equipment")


def test_suggestions_take_turns_between_documents_and_name_their_period():
    a = DocOverview("a", "Acme · 10-K · FY2018", "", "Acme", "FY2018", ("Risk factors",), ("Net earnings", "Net sales"))
    b = DocOverview("b", "Acme · 10-K · FY2019", "", "Acme", "FY2019", (), ("Net earnings",))
    assert suggested_questions([a, b], limit=4) == [
        "What did Acme report for net earnings in FY2018?",
        "What did Acme report for net earnings in FY2019?",
        "What did Acme report for net sales in FY2018?",
        "What does Acme say about “Risk factors”?",
    ]
    assert suggested_questions([]) == []


def test_empty_chat_shows_the_documents_and_a_suggestion_is_answered_from_them(chat_service, ui_env):
    _acme(2018), _acme(2019)
    at = new_app().run()
    assert not at.exception
    overview = "\n".join(m.value for m in at.markdown)
    assert "Acme Rockets · 10\\-K · FY2018" in overview and "Acme Rockets · 10\\-K · FY2019" in overview
    assert "**Acme Rockets · 10\\-K · FY2018** · acme\\_2018\\.pdf · annual report · period ended 2018\\-12\\-31 · 4 pages" in overview
    brief = overview.replace("\\", "")  # what the company does and its headline figure, from its pages
    assert "Acme Rockets, Inc. designs launch vehicles. In 2018 we flew 14 missions." in brief
    assert "Net earnings: 9,100 (Years ended December 31, 2018" in brief, brief
    suggestions = [x for x in at.button if (x.key or "").startswith("suggest-")]
    assert [x.label for x in suggestions[:2]] == [escape_markdown(q) for q in (
        "What did Acme Rockets, Inc. report for net earnings in FY2018?",
        "What did Acme Rockets, Inc. report for net earnings in FY2019?",
    )]
    suggestions[0].click().run()  # one click asks it
    assert not at.exception
    assert at.chat_message[0].children[0].value == "What did Acme Rockets, Inc. report for net earnings in FY2018?"
    answer = at.chat_message[1]
    assert "9,100" in "\n".join(m.value for m in answer.markdown)
    assert any(b_.label.endswith(escape_markdown("acme_2018.pdf, page 3")) for b_ in citation_buttons(at))
    assert not [x for x in at.button if (x.key or "").startswith("suggest-")]  # gone once the chat has turns


def test_a_stopped_answer_offers_asking_again(chat_service, sample_processed, ui_env):
    store = chat_service.history
    cid = store.create_conversation(ui_env["user_id"], "Stopped")
    chat_service.turns.save_plain(ui_env["user_id"], cid, "What was the net debt at year end?", "Net debt", stopped=True)
    at = new_app()
    at.query_params["c"] = cid
    at.run()
    again = at.button(key="ask-again-1")
    again.click().run()
    assert not at.exception
    texts = [t.text for t in turns_of(store.load_messages(ui_env["user_id"], cid))]
    assert texts[:2] == ["What was the net debt at year end?", "Net debt"]  # the stopped turn stays
    assert texts[2] == "What was the net debt at year end?" and "62.5" in texts[3]  # asked again, answered


def test_export_header_has_date_documents_and_mode():
    when = datetime(2026, 11, 25, 9, 5, tzinfo=timezone.utc)
    details = export_details(["Acme · 10-K · FY2018", "Acme · 10-K · FY2019"], {"mode": "extractive"}, now=when)
    assert details == ["Exported: 2026-11-25 09:05 UTC", "Documents: Acme · 10-K · FY2018; Acme · 10-K · FY2019",
                       "Mode: no-model (answers are passages quoted from the documents)"]
    assert export_details([], {"mode": "llm", "model": {"label": "gpt-x"}}, now=when)[1:] == [
        "Documents: none (answers without your documents)", "Mode: model (gpt-x)"]
    md = conversation_markdown("Debt", [ChatTurn("user", "Q?"), ChatTurn("assistant", "A.")], details=details)
    assert md.startswith("# Debt\n\nExported: 2026-11-25 09:05 UTC  \nDocuments: Acme · 10-K · FY2018; "
                         "Acme · 10-K · FY2019  \nMode: no-model (answers are passages quoted from the documents)"
                         "\n\n## Q?\n\nA.\n")


def test_a_large_library_gets_a_searchable_picker_with_the_selection_in_full(chat_service, ui_env, monkeypatch):
    import ui.doc_picker

    monkeypatch.setattr(ui.doc_picker, "MAX_PILLS", 1)  # two PDFs count as a large library here
    _acme(2018), _acme(2019)
    at = new_app().run()
    assert not at.exception and not at.pills
    assert len(doc_picker(at).value) == 2
    selected = [c.value for c in at.sidebar.caption if c.value.startswith("Selected: ")]
    assert selected == ["Selected: Acme Rockets · 10\\-K · FY2018; Acme Rockets · 10\\-K · FY2019"]


def test_a_report_without_statements_gets_questions_about_its_sections(chat_service, sample_processed):
    at = new_app().run()
    assert not at.exception
    assert any(m.value.startswith("**Northwind Components Ltd\\. Annual Report 2023** · northwind") for m in at.markdown)
    first = next(x for x in at.button if x.key == "suggest-0")
    assert first.label == escape_markdown(
        "What does Northwind Components Ltd. Annual Report 2023 say about “Letter from the Chief Executive”?")
    first.click().run()
    assert not at.exception
    assert citation_buttons(at)  # answered from the report, with its pages cited
