"""Cost of store-owned citation ids and whole-turn writes, against same-run baselines.

    python -m bench.registry [--sources 10] [--repeats 20]

On a private nx-27017 server (the embedded default, in a temp folder):
1. numbering one tool result of `--sources` new chunks through `HistoryStore.allocate_source_ids`
   (what `cite_sources` does per tool call), and the same chunks again (all known), against the
   baseline of local numbering (`renumber_sources` without a store: no round trip at all);
2. writing a 4-message turn with `HistoryStore.save_turn` (messages + commit marker), against the
   baseline of the same 4 messages written one by one (bench/baselines/per_message.py, the old way).
Medians of `--repeats` runs, in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from agent.citations.ids import renumber_sources
from bench.baselines.per_message import append_message
from storage.history import embedded_server
from storage.history.store import HistoryStore, new_id
from storage.schema import Source


def _median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def _sources(n: int, start: int) -> list[Source]:
    return [Source(kind="document", text=f"passage {i}", title="a.pdf", doc_id="a-0123456789ab", source_file="a.pdf",
                   page_number=i % 40, chunk_id=i) for i in range(start, start + n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = embedded_server.ensure_server(Path(tmp))
        try:
            store = HistoryStore(server.uri, db_name="bench")
            conv = store.create_conversation("bench-user")
            counter = {"start": 0}

            def fresh():
                batch = _sources(args.sources, counter["start"])
                counter["start"] += args.sources
                return batch

            def allocate(requests):
                return store.allocate_source_ids("bench-user", conv, requests)

            local = _median_ms(lambda: renumber_sources(fresh()), args.repeats)
            new = _median_ms(lambda: renumber_sources(fresh(), allocate=allocate), args.repeats)
            known_batch = _sources(args.sources, 0)
            known = _median_ms(lambda: renumber_sources(known_batch, allocate=allocate), args.repeats)

            def turn_messages():
                return [{"role": "user", "content": "What was revenue?", "message_id": new_id()},
                        {"role": "ai", "content": "", "message_id": new_id(), "tool_calls": [{"name": "t", "args": {}, "id": "c"}]},
                        {"role": "tool", "content": "{}", "message_id": new_id(), "tool_call_id": "c"},
                        {"role": "ai", "content": "Revenue was 5 [^1].", "message_id": new_id()}]

            def one_by_one():
                for m in turn_messages():
                    append_message(store, "bench-user", conv, m["role"], m["content"], message_id=m["message_id"],
                                   **{k: v for k, v in m.items() if k not in ("role", "content", "message_id")})

            old_way = _median_ms(one_by_one, args.repeats)
            whole = _median_ms(lambda: store.save_turn("bench-user", conv, new_id(), turn_messages()), args.repeats)
            print(f"citation ids for one tool result of {args.sources} sources (nx-27017 at {server.uri}), median of {args.repeats}")
            print(f"  local counters (baseline)               {local:8.1f} ms")
            print(f"  store registry, all new                 {new:8.1f} ms  (+{new - local:.1f} ms)")
            print(f"  store registry, all known               {known:8.1f} ms  (+{known - local:.1f} ms)")
            print("one 4-message turn")
            print(f"  append_message x4 (baseline)            {old_way:8.1f} ms")
            print(f"  save_turn (messages + commit marker)    {whole:8.1f} ms  ({whole / old_way:.2f}x baseline)")
            store.close()
        finally:
            embedded_server.stop_server(Path(tmp))


if __name__ == "__main__":
    main()
