"""The graph's paths with a scripted model: routing, /ingest, the documents tool loop, web fallback,
the web path. Retrieval runs over real processed PDFs; web search over a local Tavily stub."""

from __future__ import annotations

import json
import time

import pytest
from langchain_core.messages import ToolMessage

from agent.run import run_turn, stream_turn
from agent.tools import WebSearch
from storage.documents.catalog import check_pdf_processed
from storage.jobs.thread_jobs import ThreadIngestJobs
from tests.fixtures_agent import FailingRetriever, call, context, grade, kind, say, scripted
from tests.fixtures_pdfs import make_text_pdf
from tests.stubs import tavily
from tests.stubs.tavily import TavilyStub

WEB_RESULTS = [
    tavily.result("Peru - Wikipedia", "https://en.wikipedia.org/wiki/Peru", "Lima is the capital and largest city of Peru."),
    tavily.result("Lima facts", "https://example.org/lima", "Lima, founded in 1535, is Peru's capital on the Pacific coast."),
]


@pytest.fixture
def web_stub():
    with TavilyStub(WEB_RESULTS) as stub:
        yield stub


@pytest.fixture
def empty_web_stub():
    with TavilyStub([]) as stub:
        yield stub


def web_client(stub) -> WebSearch:
    return WebSearch(tavily.API_KEY, base_url=stub.url)


def test_relevant_question_takes_the_documents_path_and_cites_retrieved_chunk(sample_pdf):
    llm = scripted(
        grade("yes"),
        call("rag_search_tool", query="total revenue 2023"),
        say("Revenue was 412 million euros in fiscal 2023 [^1]."),
    )
    result = run_turn(context(llm), "What was revenue in 2023?", selected_doc_ids=[sample_pdf.doc_id])
    assert result.route == "documents" and result.mode == "llm"
    assert [c.marker for c in result.citations] == ["[^1]"]
    cited = result.citations[0]
    assert cited.metadata.doc_id == sample_pdf.doc_id and cited.metadata.page == 2  # 1-based page of "412 million"
    assert "412 million euros" in cited.snippet
    # the relevance judgement saw the document summary
    assert "Northwind Solar" in llm.seen[0][0].content


def test_maybe_counts_as_documents(sample_pdf):
    llm = scripted(grade("maybe"), say("The documents do not say."))
    result = run_turn(context(llm), "and the year before?", selected_doc_ids=[sample_pdf.doc_id])
    assert result.route == "documents"


def test_unrelated_small_talk_is_conversational(sample_pdf):
    llm = scripted(say("Hello! Ask me about your PDF."))  # no relevance or kind judgement for a greeting
    result = run_turn(context(llm), "hi there", selected_doc_ids=[sample_pdf.doc_id])
    assert result.route == "conversation"
    assert result.message == "Hello! Ask me about your PDF." and result.citations == []
    assert len(llm.seen) == 1  # one call: the reply


def test_unrelated_fact_question_takes_the_web_path(sample_pdf, web_stub):
    llm = scripted(grade("no"), kind("needs_web_search", search_query="capital city of Peru"), say("Lima is the capital of Peru {^1}{^2}."))
    result = run_turn(context(llm, web=web_client(web_stub)), "What is the capital of Peru?", selected_doc_ids=[sample_pdf.doc_id])
    assert result.route == "web"
    assert [c.marker for c in result.citations] == ["{^1}", "{^2}"]
    assert [c.metadata.url for c in result.citations] == [r["url"] for r in WEB_RESULTS]
    assert web_stub.queries() == ["capital city of Peru"]  # the model's standalone query
    # the summariser was given the numbered results
    prompt = llm.seen[-1][0].content
    assert "{^1} Peru - Wikipedia" in prompt and "Lima is the capital" in prompt


def test_web_path_with_no_results_says_not_found_honestly(empty_web_stub):
    llm = scripted(kind("needs_web_search"))  # no PDF selected: no relevance judgement, no summary call
    result = run_turn(context(llm, web=web_client(empty_web_stub)), "Who won the 2031 chess olympiad?")
    assert result.route == "web" and result.citations == []
    assert "found nothing" in result.message and "2031 chess olympiad" in result.message


def test_documents_loop_searches_twice_in_one_turn(sample_pdf):
    llm = scripted(
        grade("yes"),
        call("rag_search_tool", query="revenue 2023"),
        call("rag_search_tool", query="employees headcount year end"),
        say("Revenue was 412 million euros [^1]."),
    )
    events = list(stream_turn(context(llm), "Revenue and headcount?", selected_doc_ids=[sample_pdf.doc_id]))
    searches = [d["query"] for kind, d in events if kind == "progress" and d["event"] == "searching_documents"]
    kind, result = events[-1]
    assert kind == "answer"
    assert searches == ["revenue 2023", "employees headcount year end"]
    # second search's tool output continued the numbering and the model saw both results
    tool_msgs = [m for m in llm.seen[-1] if isinstance(m, ToolMessage)]
    assert len(tool_msgs) == 2
    first, second = (json.loads(m.content)["sources"] for m in tool_msgs)
    # numbering continues across the two calls: a chunk keeps its id, a new chunk gets a new one
    ids = {}
    for src in first + second:
        assert ids.setdefault((src["doc_id"], src["chunk_id"]), src["source_id"]) == src["source_id"]
    assert len(set(ids.values())) == len(ids)
    staff = next(s for s in second if "1,240" in s["text"])
    assert staff["page_number"] == 3
    assert {c.marker: c.metadata.page for c in result.citations}["[^1]"] == 2
    assert llm.bound_tools[1] == ["rag_search_tool", "statement_pages_tool", "web_search_tool", "retrieve_previous_sources"]


def test_wrong_markers_from_the_model_are_dropped(sample_pdf):
    llm = scripted(grade("yes"), call("rag_search_tool", query="dividend"), say("A dividend of 0.80 euros [^1][^9] is proposed {^4}."))
    result = run_turn(context(llm), "dividend?", selected_doc_ids=[sample_pdf.doc_id])
    assert [c.marker for c in result.citations] == ["[^1]"]
    assert "[^9]" not in result.message and "{^4}" not in result.message


def test_rag_failure_falls_back_to_web(sample_pdf, web_stub):
    llm = scripted(grade("yes"), call("rag_search_tool", query="capital of Peru"), say("Lima {^1}."))
    ctx = context(llm, web=web_client(web_stub), retriever=FailingRetriever)
    result = run_turn(ctx, "What is the capital of Peru?", selected_doc_ids=[sample_pdf.doc_id])
    assert result.route == "web"
    assert web_stub.queries() == ["What is the capital of Peru?"]
    assert result.citations[0].metadata.url == WEB_RESULTS[0]["url"]
    assert "did not contain an answer" in llm.seen[-1][0].content  # the summariser was told why


def test_current_page_is_offered_as_a_page_source(sample_pdf):
    llm = scripted(grade("yes"), call("rag_search_tool", query="this page"), say("This page covers risks [^Current Page]."))
    page = {"doc_id": sample_pdf.doc_id, "source_file": sample_pdf.source_file, "page_number": 2}
    result = run_turn(context(llm), "summarise this page", selected_doc_ids=[sample_pdf.doc_id], current_page=page)
    (cited,) = result.citations
    assert cited.marker == "[^Current Page]" and cited.metadata.page == 3
    assert "polysilicon" in cited.preview
    assert "page 3 of northwind_2023.pdf" in llm.seen[1][0].content  # the agent prompt names the page


class RefusingJobs:
    """A job queue that must not be asked: a refused `/ingest` queues nothing."""

    def submit(self, *args, **kwargs):
        raise AssertionError(f"a job was queued: {args} {kwargs}")


def _wait(jobs, job_id: str, timeout: float = 90):
    deadline = time.monotonic() + timeout
    while (job := jobs.get(job_id)).active:
        assert time.monotonic() < deadline, "job did not end"
        time.sleep(0.05)
    return job


def test_ingest_queues_a_job_the_reply_names_then_switches_once_processed(pdf_home):
    make_text_pdf(pdf_home / "source" / "fresh.pdf", ["Fresh report. Widgets sold: 9,000 units in 2024."])
    llm, jobs = scripted(), ThreadIngestJobs()  # commands never reach the model
    result = run_turn(context(llm, ingest_jobs=jobs), "/ingest fresh.pdf", user_id="alice")
    assert result.route == "ingest" and result.active_doc_ids is None  # nothing to switch to yet
    queued = jobs.get(result.ingest_job_id)
    assert (queued.file, queued.owner, queued.switch_to) == ("fresh.pdf", "alice", True)  # the page switches when done
    assert f"job {queued.job_id[:8]}" in result.message and "in the background" in result.message
    done = _wait(jobs, queued.job_id)
    assert done.state == "done" and done.result.doc_id.startswith("fresh-") and check_pdf_processed(done.result.doc_id)
    again = run_turn(context(llm, ingest_jobs=RefusingJobs()), "/ingest fresh.pdf")  # processed: no job, switched now
    assert again.active_doc_ids == [done.result.doc_id] and again.ingest_job_id is None
    assert "Processed **fresh.pdf**" in again.message and "now the active PDF" in again.message
    assert llm.seen == []


def test_ingest_missing_file_replies_with_the_error(pdf_home):
    result = run_turn(context(scripted(), ingest_jobs=RefusingJobs()), "/ingest nope.pdf")
    assert result.route == "ingest" and result.active_doc_ids is None and result.ingest_job_id is None
    assert "nope.pdf" in result.message and "no such file" in result.message


def test_failed_ingest_keeps_the_selected_pdf_active(sample_pdf):
    # a failed /ingest switches nothing, so the answer must not claim a switch to the current selection
    for command in ("/ingest nope.pdf", "/ingest"):
        result = run_turn(context(scripted(), ingest_jobs=RefusingJobs()), command, selected_doc_ids=[sample_pdf.doc_id])
        assert result.route == "ingest" and result.active_doc_ids is None, command


def test_command_argument_may_follow_any_whitespace(pdf_home):
    result = run_turn(context(scripted()), "/ingest\tnope.pdf")
    assert result.route == "ingest" and "nope.pdf" in result.message and "no such file" in result.message


def test_ingest_outside_the_source_folder_is_refused(pdf_home, tmp_path):
    outside = make_text_pdf(tmp_path / "elsewhere.pdf", ["secret"])
    for arg in (str(outside), "../../elsewhere.pdf"):
        result = run_turn(context(scripted(), ingest_jobs=RefusingJobs()), f"/ingest {arg}")
        assert "outside the source folder" in result.message and result.active_doc_ids is None
    assert not any((pdf_home / "destination").iterdir())


def test_unknown_command_lists_the_commands():
    result = run_turn(context(scripted()), "/frobnicate now")
    assert "Unknown command /frobnicate" in result.message and "/ingest" in result.message


def test_off_topic_search_counts_as_nothing_found_and_falls_back_to_web(sample_pdf, web_stub):
    llm = scripted(grade("maybe"), call("rag_search_tool", query="capital of Peru"), say("Lima {^1}."))
    result = run_turn(context(llm, web=web_client(web_stub)), "What is the capital of Peru?", selected_doc_ids=[sample_pdf.doc_id])
    assert result.route == "web" and result.citations[0].kind == "web"
    assert web_stub.queries() == ["What is the capital of Peru?"]


def test_off_topic_search_without_web_lets_the_model_say_so(sample_pdf):
    llm = scripted(grade("maybe"), call("rag_search_tool", query="capital of Peru"), say("The PDFs do not say."))
    result = run_turn(context(llm), "What is the capital of Peru?", selected_doc_ids=[sample_pdf.doc_id])
    assert result.route == "documents" and result.citations == []
    (tool_output,) = [json.loads(m.content) for m in llm.seen[-1] if isinstance(m, ToolMessage)]
    assert tool_output["success"] is False and tool_output["sources"] == []
    assert "Nothing in the selected PDFs matches" in tool_output["message"]


def test_unparseable_relevance_judgement_still_searches_the_documents(sample_pdf):
    llm = scripted(say("I think yes"), call("rag_search_tool", query="dividend"), say("0.80 euros [^1]."))
    result = run_turn(context(llm), "dividend?", selected_doc_ids=[sample_pdf.doc_id])
    assert result.route == "documents" and result.citations[0].metadata.page == 2
