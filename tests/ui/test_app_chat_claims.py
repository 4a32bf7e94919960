"""Issue 20: a scripted model answer whose figure the cited page does not print is marked in the
answer, the citation preview, the source chips and the Markdown export, from the check stored with
the turn (a reload shows the same marks); the quotes shown are the stored chunk's words."""

from __future__ import annotations

import ui.resources
from agent.citations.answer import build_answer
from agent.turns import renumber_record
from storage.history.store import HistoryStore
from tests.fixtures_agent import call, grade, say, scripted
from tests.fixtures_ui import citation_buttons, new_app, retriever_factory
from ui import conversations as conv
from ui.citations import answer_with_footnotes, conversation_markdown
from ui.claim_marks import parse_claims

WRONG = "Northwind employed 9,340 people at the end of 2023 [^1]."
MISQUOTED = "The report says “At the end of 2023 Northwind employed 9,340 people” [^1]."
TRUE = "Employee turnover was 6.1 percent [^1]."


def _serve(monkeypatch, ui_env, llm):
    from agent.service import ChatService

    service = ChatService(llm=llm, web=None, history=HistoryStore(ui_env["mongo_uri"]), get_retriever=retriever_factory())
    monkeypatch.setattr(ui.resources, "get_chat_service", lambda: service)
    monkeypatch.setattr(ui.resources, "get_history_store", lambda: service.history)
    return service


def test_a_claim_the_page_does_not_print_is_marked_everywhere_and_after_a_reload(ui_env, sample_processed, monkeypatch):
    llm = scripted(grade("yes"), call("rag_search_tool", query="employees end of 2023"), say(f"{WRONG} {TRUE}\n\n{MISQUOTED}"))
    service = _serve(monkeypatch, ui_env, llm)
    at = new_app().run()
    at.chat_input[0].set_value("How many employees did Northwind have?").run()
    assert not at.exception
    answer = next(m.value for m in at.markdown if "9,340 people" in m.value)
    paragraph, third = answer.split("\n\n")
    first, second = paragraph.split(". ", 1)
    assert ":orange-badge[:material/warning: not found in 1]" in first
    assert "orange-badge" not in second  # the true sentence is not marked
    assert ":orange-badge[:material/warning: not found in 1]" in third

    # stored with the turn, keyed by the source id
    user = ui_env["user_id"]
    cid = service.list_conversations(user)[0]["conversation_id"]
    stored = service.load_messages(user, cid)[-1]
    failed = [c for c in stored["claims"] if c["problems"]]
    assert [c["source_ids"] for c in failed] == [["[^1]"], ["[^1]"]]
    assert failed[0]["problems"] == [{"kind": "figure", "text": "9,340"}]
    assert failed[1]["problems"] == [{"kind": "quote", "text": "At the end of 2023 Northwind employed 9,340 people"}]

    # the quote box and the chip show the page's words, never the model's
    [citation] = stored["citations"]
    assert "9,340" not in citation["snippet"] and "2,340" in citation["snippet"]
    assert citation["metadata"]["quotes"] == []
    [chip] = citation_buttons(at)  # the source's chip says so too
    assert "not found here" in (chip.help or "") and "9,340" in chip.help

    # the preview says what the page says instead
    [button] = citation_buttons(at)
    button.click().run()
    warning = "\n".join(w.value for w in at.warning)
    assert "does not print 9,340" in warning and "2,340 people" in warning

    # a reload (the page redrawn from the store) shows the same marks, and so does the export
    again = new_app()
    again.query_params["c"] = cid
    again.run()
    assert any(":orange-badge[:material/warning: not found in 1]" in m.value for m in again.markdown)
    exported = conversation_markdown("Chat", conv.load_turns(service.history, user, cid))
    assert "people at the end of 2023 [1] (not found in [1])." in exported
    assert "Employee turnover was 6.1 percent [1]." in exported
    assert "not found here: 9,340; the source says: “" in exported and "2,340 people" in exported


def test_quotes_shown_are_the_stored_chunks_words_even_when_the_model_writes_them_differently():
    chunk = {"kind": "document", "source_id": "[^1]", "text": "The com-\npany’s ﬁnancial results improved.\nRevenue 412.6 375.8",
             "doc_id": "d1", "source_file": "r.pdf", "page_number": 1, "chunk_id": 3}
    close = build_answer("“The company's financial results improved.” [^1]", {"[^1]": chunk}, knowledge=False)
    assert close.citations[0].snippet == "The com- pany’s ﬁnancial results improved."  # the chunk's own characters
    assert close.citations[0].metadata.quotes == [close.citations[0].snippet]
    wrong = build_answer("“The company's results worsened.” [^1]", {"[^1]": chunk}, knowledge=False)
    assert "worsened" not in wrong.citations[0].snippet and wrong.citations[0].metadata.quotes == []
    cell = build_answer("- Revenue (2023): 412.6 [^1]\n- Sales (2023): 999.9 [^1]", {"[^1]": chunk}, knowledge=False)
    assert cell.citations[0].metadata.quotes == ["Revenue … 412.6"]


def test_renumbered_turn_keeps_its_claims_on_the_same_sources():
    record = {"turn_id": "t", "messages": [{"role": "ai", "content": "X was 5 [^1].", "citations": [],
                                             "claims": [{"sentence": "X was 5.", "marker_index": 0, "source_ids": ["[^1]"],
                                                         "problems": [{"kind": "figure", "text": "5"}],
                                                         "source_says": {"[^1]": "X was 4."}}]}]}
    [msg] = renumber_record(record, {"[^1]": "[^7]"})["messages"]
    assert msg["content"] == "X was 5 [^7]."
    assert msg["claims"][0]["source_ids"] == ["[^7]"] and msg["claims"][0]["source_says"] == {"[^7]": "X was 4."}
    assert answer_with_footnotes(msg["content"], [], parse_claims(msg["claims"])) == "X was 5 [^7] (not found in [7])."
