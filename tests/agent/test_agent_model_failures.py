"""When ChatService answers without the model: only when the model (or the network to it) failed.
A bug of ours surfaces to the caller instead of being hidden behind a no-model answer. And the model
is bound to exactly the tools the graph's ToolNode runs."""

from __future__ import annotations

import httpx
import pytest
from langchain_core.messages import ToolMessage

from agent.run import compiled_graph
from agent.service import ChatService
from storage.retrieval.hybrid import HybridRetriever
from tests.fixtures_agent import ScriptedChatModel, call, grade, say, scripted


class UnreachableModel(ScriptedChatModel):
    """A chat model whose server cannot be reached."""

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        self.seen.append(list(messages))
        raise httpx.ConnectError("[Errno 111] Connection refused")


def test_a_model_that_cannot_be_reached_is_replaced_by_the_no_model_answer(sample_pdf):
    model = UnreachableModel(responses=[], seen=[], bound_tools=[])
    result = ChatService(llm=model, web=None, history=None).ask("u", None, "What dividend does the board propose?",
                                                                 [sample_pdf.doc_id])
    assert model.seen  # the model was asked first
    assert result.mode == "extractive" and "0.80 euros" in result.message and result.citations
    assert result.error.startswith("The language model failed (ConnectError)")


def test_a_bug_in_a_node_is_raised_not_answered_without_the_model(sample_pdf):
    model = scripted(grade("yes"), say("unused"))
    page_without_number = {"doc_id": sample_pdf.doc_id, "source_file": sample_pdf.source_file}  # a caller's bug
    with pytest.raises(KeyError, match="page_number"):
        ChatService(llm=model, web=None, history=None).ask("u", None, "What dividend is proposed?", [sample_pdf.doc_id],
                                                           current_page=page_without_number)
    assert len(model.seen) == 1  # the relevance judgement ran; the agent step failed before asking the model


def test_a_bug_in_a_tool_is_reported_to_the_model_which_still_answers(sample_pdf):
    class BrokenRetriever(HybridRetriever):
        def search(self, query, k=8):
            raise KeyError("dense_score")

    model = scripted(grade("yes"), call("rag_search_tool", query="dividend"), say("The search failed, so I cannot say."))
    result = ChatService(llm=model, web=None, history=None, get_retriever=BrokenRetriever).ask(
        "u", None, "What dividend is proposed?", [sample_pdf.doc_id])
    assert result.mode == "llm" and result.message == "The search failed, so I cannot say." and result.error is None
    (failure,) = [m for m in model.seen[-1] if isinstance(m, ToolMessage)]
    assert failure.status == "error" and failure.content == "The tool failed (KeyError)."


def test_the_model_is_bound_to_exactly_the_tools_the_graph_runs(sample_pdf):
    model = scripted(grade("yes"), say("The board proposes 0.80 euros per share."))
    ChatService(llm=model, web=None, history=None).ask("u", None, "What dividend is proposed?", [sample_pdf.doc_id])
    tool_node = compiled_graph().builder.nodes["tools"].runnable
    assert model.bound_tools[-1] == list(tool_node.tools_by_name)
