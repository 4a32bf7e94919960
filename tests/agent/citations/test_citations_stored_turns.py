"""A turn stored by an earlier version (plain dicts, optional fields left out) reads back into the
types: the registry as `Source`s, its tool message as a `ToolOutput`, and the next turn cites it."""

from __future__ import annotations

import json

from langchain_core.messages import ToolMessage

from agent.citations.answer import build_answer, renumber_sources
from agent.tool_output import ToolOutput
from agent.turns import TurnHistory, renumber_record
from storage.history.outbox import TurnOutbox
from storage.schema import Source

OLD_SOURCE = {"kind": "document", "source_id": "[^1]", "text": "Revenue was $4.1 billion in 2022.",
              "doc_id": "acme-0123456789ab", "source_file": "ACME_2022_10K.pdf", "page_number": 3, "chunk_id": 7}
OLD_WEB = {"kind": "web", "source_id": "{^1}", "url": "https://example.org/acme", "title": "Acme news"}
OLD_TOOL_CONTENT = json.dumps({"success": True, "tool": "rag_search_tool", "result_count": 2,
                               "sources": [OLD_SOURCE, OLD_WEB], "message": "2 passages"})


class OldStore:
    """The two reads `TurnHistory.load` makes, answering with what an earlier version stored."""

    def load_messages(self, user_id, conversation_id):
        return [
            {"message_id": "a" * 32, "role": "user", "content": "What was revenue?"},
            {"message_id": "b" * 32, "role": "ai", "content": "", "tool_calls": [{"name": "rag_search_tool", "args": {"query": "revenue"}, "id": "c1"}]},
            {"message_id": "c" * 32, "role": "tool", "tool_name": "rag_search_tool", "tool_call_id": "c1",
             "content": OLD_TOOL_CONTENT, "sources": [OLD_SOURCE, OLD_WEB]},
            {"message_id": "d" * 32, "role": "ai", "content": "Revenue was $4.1 billion [^1].", "citations": []},
        ]

    def get_state(self, user_id, conversation_id):
        return {"rag_counter": 1, "web_counter": 1, "sources": {"[^1]": OLD_SOURCE, "{^1}": OLD_WEB, "[^9]": OLD_SOURCE}}


def test_an_old_turn_loads_as_typed_sources_and_is_cited_again(tmp_path):
    loaded = TurnHistory(OldStore(), TurnOutbox(tmp_path / "outbox.sqlite")).load("alice", "conv")
    assert set(loaded.sources) == {"[^1]", "{^1}"}  # [^9] was in no saved turn: not offered
    assert all(isinstance(s, Source) for s in loaded.sources.values())
    assert loaded.sources["[^1]"].chunk_id == 7 and loaded.sources["[^1]"].chunk_type is None  # left out: default
    [tool] = [m for m in loaded.messages if isinstance(m, ToolMessage)]
    output = ToolOutput.of(tool.model_copy(update={"content": OLD_TOOL_CONTENT}))
    assert [s.source_id for s in output.sources] == ["[^1]", "{^1}"]

    # the next turn finds the same chunk again: it keeps its id, and the answer cites the stored source
    again = renumber_sources([Source(**{**OLD_SOURCE, "source_id": ""})], loaded.rag_counter, loaded.web_counter, loaded.sources)
    assert [s.source_id for s in again.sources] == ["[^1]"]
    answer = build_answer("Revenue was $4.1 billion [^1].", again.registry, knowledge=False)
    assert [(c.marker, c.metadata.file, c.metadata.page) for c in answer.citations] == [("[^1]", "ACME_2022_10K.pdf", 4)]


def test_a_queued_old_turn_is_renumbered_from_its_dicts():
    record = {"turn_id": "t", "user_id": "alice", "conversation_id": "conv", "messages": [
        {"role": "tool", "content": OLD_TOOL_CONTENT, "sources": [OLD_SOURCE, OLD_WEB]},
        {"role": "ai", "content": "Revenue was $4.1 billion [^1].", "citations": [], "page_roles": {}},
    ]}
    out = renumber_record(record, {"[^1]": "[^5]"})
    tool, ai = out["messages"]
    assert [s["source_id"] for s in tool["sources"]] == ["[^5]", "{^1}"]  # stored again as dicts
    assert [s.source_id for s in ToolOutput.of(tool["content"]).sources] == ["[^5]", "{^1}"]
    assert ai["content"] == "Revenue was $4.1 billion [^5]."
