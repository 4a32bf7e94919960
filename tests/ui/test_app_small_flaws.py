"""Issue 29.4, the UI's part: suggestions keep a company's name as printed, conversation titles are
cut at a word with an ellipsis, a table row's columns are listed once, an answer lists its sources
once, and "what can you do?" suggests a year the selected filings cover (AppTest and units)."""

from __future__ import annotations

from agent.conversation import reply_without_model
from storage.documents.ingest import process_and_index_pdf
from storage.schema import Citation, CitationMetadata
from tests.fixtures_filings import acme_10k_pages, source_path, write_pages
from tests.fixtures_ui import citation_buttons, new_app
from ui.citations import table_columns
from ui.doc_summary import DocOverview, suggested_questions

LONG = "What were the purchases of property, plant and equipment of Acme Rockets in fiscal 2019 and why?"


def test_a_suggestion_keeps_the_company_name_as_printed():
    o = DocOverview("g", "General Mills · 10-K · FY2020", "", "General Mills", "FY2020", (),
                    ("Net earnings attributable to General Mills", "NET SALES", "EBITDA"))
    assert suggested_questions([o]) == [
        "What did General Mills report for net earnings attributable to General Mills in FY2020?",
        "What did General Mills report for net sales in FY2020?",
        "What did General Mills report for EBITDA in FY2020?",
    ]


def test_a_table_rows_columns_are_listed_once():
    c = Citation(number="1", marker="[^1]", kind="page", documentId="d", documentTitle="t", snippet="s", preview="p",
                 metadata=CitationMetadata(columns=["May 26, 2019", "May 26, 2019", "May 27, 2018"]))
    assert table_columns(c) == ["May 26, 2019", "May 27, 2018"]


def test_what_can_you_do_suggests_a_year_the_selected_filings_cover():
    reply = reply_without_model("about_app", ["Acme Rockets · 10-K · FY2019", "Acme Rockets · 10-K · FY2018"])
    assert "fiscal 2019" in reply and "2022" not in reply
    assert "2022" not in reply_without_model("about_app", ["northwind_annual_report.pdf"])


def test_titles_cut_at_a_word_and_sources_listed_once(chat_service, ui_env):
    pdf = process_and_index_pdf(write_pages(source_path("acme_2019.pdf"), acme_10k_pages(2019, (1_208, 1_100, 1_000), prose=False)))
    at = new_app().run()
    assert pdf.doc_id and not at.exception
    at.chat_input[0].set_value(LONG).run()
    assert not at.exception
    titles = [b.label for b in at.sidebar.button if (b.key or "").startswith("conv-")]
    assert titles and titles[0].endswith("…") and len(titles[0]) <= 61
    assert LONG.startswith(titles[0][:-1].rstrip())  # whole words of the question
    assert LONG[len(titles[0][:-1].rstrip())] == " "  # cut between words, not inside one
    assert citation_buttons(at)  # the answer's sources, as chips ...
    assert not [e for e in at.expander if e.label.startswith("Sources (")]  # ... and not a second list

    at.chat_input[0].set_value("what can you do?").run()
    reply = [m.value for m in at.markdown if "No language model is configured, so I" in m.value]
    assert reply and "fiscal 2019" in reply[-1] and "2022" not in reply[-1]
