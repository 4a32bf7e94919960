"""Curated knowledge-base items reach the model's prompt when relevant, and their Q-numbers come
back as `[<category>.<n>]` citations — with a model and in no-model mode."""

from __future__ import annotations

from agent.run import run_turn
from tests.fixtures_agent import context, grade, say, scripted

KB_QUESTION = "How do I open the page a citation points to?"


def test_relevant_items_are_in_the_prompt_and_their_q_numbers_become_citations(sample_pdf):
    # a question about the app is conversation: no relevance or kind judgement, straight to the reply
    llm = scripted(say("Click the citation marker under the answer; the viewer opens the cited page (Q101)."))
    result = run_turn(context(llm), KB_QUESTION, selected_doc_ids=[sample_pdf.doc_id])
    reply_prompt = llm.seen[0][0].content
    assert "Q101" in reply_prompt and "cite its Q-number" in reply_prompt
    assert result.route == "conversation"
    assert [(c.marker, c.kind, c.metadata.q_id) for c in result.citations] == [("[^1.1]", "knowledge", "Q101")]
    assert "[^1.1]" in result.message and "Q101" not in result.message


def test_unrelated_questions_get_no_knowledge_items(sample_pdf):
    llm = scripted(grade("yes"), say("The documents do not say."))
    run_turn(context(llm), "What was revenue in 2023?", selected_doc_ids=[sample_pdf.doc_id])
    assert "knowledge base items" not in llm.seen[1][0].content


def test_no_model_mode_quotes_relevant_items_with_their_citation():
    result = run_turn(context(None), KB_QUESTION, selected_doc_ids=[])
    assert result.mode == "extractive" and result.route == "conversation"
    knowledge = [c for c in result.citations if c.kind == "knowledge"]
    assert [c.metadata.q_id for c in knowledge][:1] == ["Q101"]
    assert "Click the citation marker" in result.message and knowledge[0].marker in result.message
