"""Tokens sent to the model for stored history, truncated vs untruncated, and load time.

    python -m bench.history_tokens [--turns 10] [--sources 10] [--messages 1000] [--repeats 5]

1. A 10-turn conversation with 10 sources per turn (FinanceBench questions/answers and evidence
   text cut to retrieval-chunk size, ~1,000 characters) is stored in a private nx-27017 server
   (the embedded default, in a temp folder) and loaded for turn 11 by
   `agent.context.load_history_messages`, with and without truncation. The baseline is the
   untruncated load of the same conversation in the same run.
   Tokenizer: the all-MiniLM-L6-v2 WordPiece tokenizer (`tokenizers`, offline, no truncation);
   tiktoken is installed but needs a download for its encodings. Absolute counts differ from
   Gemini's tokenizer; the ratio is what the target is about. Targets: >= 95% fewer tool-message
   tokens, >= 80% fewer overall.
2. Time to load a 1,000-message conversation (250 turns: user, AI tool call, tool output with
   10 sources, AI answer): median of `--repeats` loads through `HistoryStore.load_messages` and
   `load_history_messages`, against the same-run baseline of a raw pymongo read of the same
   documents (the floor any store code sits on).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from langchain_core.messages import AIMessage, BaseMessage

from agent.context import TRUNCATED_HISTORY_PROMPT, load_history_messages
from storage.history import embedded_server
from storage.documents.embeddings import tokenizer_path
from storage.history.store import HistoryStore, new_id
from storage.schema import Source

QUESTIONS = Path(__file__).resolve().parents[2] / "shared" / "bench" / "financebench-dev" / "questions.jsonl"
CHUNK_CHARS = 1000  # storage/documents/chunking.py MAX_CHARS


def _corpus() -> tuple[list[dict], list[str]]:
    rows = [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line.strip()] if QUESTIONS.exists() else []
    texts: list[str] = []
    for row in rows:
        for ev in row.get("evidence") or []:
            text = " ".join((ev.get("evidence_text") or "").split())
            texts.extend(text[i:i + CHUNK_CHARS] for i in range(0, len(text), CHUNK_CHARS) if len(text[i:i + CHUNK_CHARS]) > 200)
    if not rows or len(texts) < 10:  # no benchmark data here: fall back to synthetic filings-like text
        rows = [{"question": f"What was the operating margin in fiscal {2010 + i}?", "answer": f"It was {10 + i}.{i}%.",
                 "doc_name": f"ACME_{2010 + i}_10K"} for i in range(20)]
        texts = [("Net revenue increased by 4.2% to $12,345 million, driven by higher volumes and pricing. "
                  "Operating income was $1,234 million; see Note 7 for segment details. ") * 7][:1] * 50
    return rows, texts


def _sources(texts: list[str], turn: int, n: int, doc_name: str) -> list[dict]:
    out = []
    for k in range(n):
        idx = turn * n + k
        out.append(Source(kind="document", source_id=f"[^{idx + 1}]", text=texts[idx % len(texts)], title=f"{doc_name}.pdf",
                          doc_id=f"{doc_name.lower()[:40]}-0123456789ab", source_file=f"{doc_name}.pdf",
                          page_number=idx % 90, chunk_id=idx, chunk_type="text", score=round(0.9 - k * 0.03, 3),
                          extra={"page_end": idx % 90, "image_path": None}).model_dump())
    return out


def store_conversation(store: HistoryStore, user: str, turns: int, n_sources: int) -> str:
    rows, texts = _corpus()
    conv = store.create_conversation(user, "bench")
    for t in range(turns):
        row = rows[t % len(rows)]
        call_id = f"call_{t}"
        sources = _sources(texts, t, n_sources, row.get("doc_name") or "DOC")
        output = json.dumps({"success": True, "tool": "search_documents", "result_count": len(sources), "sources": sources,
                             "message": f"Found {len(sources)} passages."})
        markers = " ".join(s["source_id"] for s in sources[:2])
        store.save_turn(user, conv, new_id(), [
            {"role": "user", "content": row["question"], "message_id": new_id()},
            {"role": "ai", "content": "", "message_id": new_id(),
             "tool_calls": [{"name": "search_documents", "args": {"query": row["question"]}, "id": call_id}]},
            {"role": "tool", "content": output, "message_id": new_id(), "tool_call_id": call_id, "tool_name": "search_documents"},
            {"role": "ai", "content": f"{row['answer']} {markers}", "message_id": new_id(), "route": "documents"}])
    return conv


def count_tokens(messages: list[BaseMessage], tokenizer) -> dict[str, int]:
    counts = {"tool": 0, "other": 0}
    for m in messages:
        text = m.content if isinstance(m.content, str) else json.dumps(m.content)
        if isinstance(m, AIMessage) and m.tool_calls:
            text += json.dumps(m.tool_calls)
        key = "tool" if m.type == "tool" else "other"
        counts[key] += len(tokenizer.encode(text, add_special_tokens=False).ids)
    counts["total"] = counts["tool"] + counts["other"]
    return counts


def _median_s(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--sources", type=int, default=10)
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)

    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(tokenizer_path()))
    tokenizer.no_truncation()
    with tempfile.TemporaryDirectory(prefix="bench-history-") as tmp:
        server = embedded_server.ensure_server(Path(tmp))
        try:
            store = HistoryStore(server.uri, db_name="bench")
            conv = store_conversation(store, "bench-user", args.turns, args.sources)
            full = count_tokens(load_history_messages(store, "bench-user", conv, truncate=False), tokenizer)
            short = count_tokens(load_history_messages(store, "bench-user", conv), tokenizer)
            prompt_tokens = len(tokenizer.encode(TRUNCATED_HISTORY_PROMPT, add_special_tokens=False).ids)
            tool_cut = 1 - short["tool"] / full["tool"]
            total_cut = 1 - short["total"] / full["total"]
            total_cut_with_prompt = 1 - (short["total"] + prompt_tokens) / full["total"]
            print(f"history tokens, {args.turns} turns x {args.sources} sources (MiniLM WordPiece tokenizer)")
            print(f"  {'':<24}{'untruncated (baseline)':>24}{'truncated':>12}{'reduction':>11}")
            print(f"  {'tool messages':<24}{full['tool']:>24,}{short['tool']:>12,}{tool_cut:>10.1%}   target >= 95%")
            print(f"  {'user + AI messages':<24}{full['other']:>24,}{short['other']:>12,}")
            print(f"  {'all messages':<24}{full['total']:>24,}{short['total']:>12,}{total_cut:>10.1%}   target >= 80%")
            print(f"  {'+ truncation prompt':<24}{'':>24}{short['total'] + prompt_tokens:>12,}{total_cut_with_prompt:>10.1%}"
                  f"   ({prompt_tokens} tokens of system prompt paragraph)")

            turns = max(1, args.messages // 4)
            big = store_conversation(store, "bench-user", turns, args.sources)
            n = len(store.load_messages("bench-user", big))
            raw_db = store.run_on_database(lambda db: db)
            raw = _median_s(lambda: list(raw_db.messages.find({"user_id": "bench-user", "conversation_id": big}).sort("seq", 1)), args.repeats)
            loaded = _median_s(lambda: store.load_messages("bench-user", big), args.repeats)
            window = _median_s(lambda: store.load_messages("bench-user", big, limit=50), args.repeats)
            for_model = _median_s(lambda: load_history_messages(store, "bench-user", big), args.repeats)
            size_mb = sum(len(json.dumps(m, default=str)) for m in store.load_messages("bench-user", big)) / 1e6
            print(f"\nload a {n:,}-message conversation ({size_mb:.1f} MB, nx-27017 at {server.uri}), median of {args.repeats}")
            print(f"  raw pymongo find+sort (baseline)   {raw * 1000:8.1f} ms")
            print(f"  HistoryStore.load_messages         {loaded * 1000:8.1f} ms  ({loaded / raw:.2f}x baseline)")
            print(f"  load_history_messages (truncated)  {for_model * 1000:8.1f} ms  ({for_model / raw:.2f}x baseline)")
            print(f"  load_messages(limit=50)            {window * 1000:8.1f} ms")
            store.close()
        finally:
            embedded_server.stop_server(Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
