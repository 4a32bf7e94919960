"""Agent test helpers: a scripted chat model, an agent context over the real hybrid retriever, and
a processed sample PDF.

Registered for every test by tests/conftest.py's `pytest_plugins`: use the fixtures by name, import nothing.
"""

from __future__ import annotations

import uuid

import pytest
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage

from agent.state import AgentContext
from storage.retrieval.hybrid import HybridRetriever
from tests.fixtures_pdfs import make_text_pdf


class ScriptedChatModel(FakeMessagesListChatModel):
    """Replies with the scripted messages in order and records every prompt it was given.

    `bind_tools` returns the model itself, so `with_structured_output(Schema)` parses a scripted
    tool call named like the schema (see `structured`). Running past the script fails the test.
    """

    seen: list = []
    bound_tools: list = []

    def bind_tools(self, tools, **kwargs):
        self.bound_tools.append([getattr(t, "name", getattr(t, "__name__", str(t))) for t in tools])
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        self.seen.append(list(messages))
        if self.i >= len(self.responses):
            raise AssertionError(f"model called more often than scripted ({len(self.responses)} replies)")
        response = self.responses[self.i]
        self.i += 1
        from langchain_core.outputs import ChatGeneration, ChatResult

        return ChatResult(generations=[ChatGeneration(message=response)])


def scripted(*responses) -> ScriptedChatModel:
    return ScriptedChatModel(responses=list(responses), seen=[], bound_tools=[])


def structured(schema_name: str, **args) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": schema_name, "args": args, "id": f"call_{uuid.uuid4().hex[:8]}"}])


def grade(relevant: str) -> AIMessage:
    return structured("RelevanceGrade", relevant=relevant, reason="scripted")


def kind(value: str, **extra) -> AIMessage:
    return structured("QueryKind", kind=value, **extra)


def call(tool: str, **args) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": tool, "args": args, "id": f"call_{uuid.uuid4().hex[:8]}"}])


def say(text: str) -> AIMessage:
    return AIMessage(content=text)


class FailingRetriever:
    def __init__(self, doc_ids):
        pass

    def search(self, query, k=8):
        return []


def context(llm=None, web=None, retriever=HybridRetriever, history=None, **kw) -> AgentContext:
    return AgentContext(llm=llm, web=web, get_retriever=retriever, history=history, **kw)


SAMPLE_PAGES = [
    "Northwind Solar Annual Report 2023\n\nNorthwind Solar designs rooftop solar panels and batteries for homes. "
    "The company was founded in 2009 in Aarhus, Denmark.",
    "Financial results\n\nTotal revenue for fiscal 2023 was 412 million euros, up 18 percent from 2022. "
    "Operating margin improved to 11.5 percent. The board proposes a dividend of 0.80 euros per share.",
    "Risks and outlook\n\nThe main risk is the price of polysilicon, which rose sharply in 2022. "
    "For 2024 management expects revenue between 450 and 480 million euros.",
    "Employees\n\nAt year end Northwind Solar employed 1,240 people, of whom 38 percent work in manufacturing. "
    "Employee turnover fell to 7 percent.",
]


@pytest.fixture
def sample_pdf(pdf_home):
    """A real 4-page PDF in the test source folder, processed: returns its ProcessedPdf."""
    from storage.documents.ingest import process_and_index_pdf

    path = make_text_pdf(pdf_home / "source" / "northwind_2023.pdf", SAMPLE_PAGES, title="Northwind Solar Annual Report 2023")
    return process_and_index_pdf(path)
