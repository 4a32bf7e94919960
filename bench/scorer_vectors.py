"""The stored chunk vectors of the page scorer's training filings, read from an ingestion work
folder's Chroma (the product's own vectors), for bench/train_scorer.py, which runs in the training
venv without chromadb:

    .venv/bin/python -m bench.scorer_vectors --work /work/benchwork

Writes bench/results/scorer_chunk_vectors.npz (train_scorer recomputes them itself, slowly, when
the file is missing or was made from other chunks).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

from bench.scorer_data import load_filings

CACHE = Path(__file__).resolve().parent / "results" / "scorer_chunk_vectors.npz"


def cache_key(filings) -> str:
    return str(sum(len(c["text"]) for f in filings for c in f.chunks)) + "|".join(f.name for f in filings)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--work", type=Path, default=Path("/work/benchwork"))
    args = p.parse_args(argv)
    work = args.work.resolve()
    os.environ["PDF_CHAT_HOME"] = str(work)
    os.environ["PDF_SOURCE_DIR"] = str(work / "source")
    os.environ["PDF_DESTINATION_DIR"] = str(work / "destination")
    os.environ.pop("CHROMA_HOST", None)
    from storage.retrieval.hybrid import get_doc_index

    filings = load_filings(work)
    out = []
    for f in filings:
        doc_id = next(d.name for d in (work / "destination").glob(f"{f.name}-*") if d.name.rsplit("-", 1)[0] == f.name)
        index = get_doc_index(doc_id)
        if [c.text for c in index.chunks] != [c["text"] for c in f.chunks]:
            sys.exit(f"{doc_id}: chunks differ from its text_chunks.json")
        out.append(index.vectors)
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    np.savez(CACHE, vectors=np.concatenate(out).astype(np.float32), key=np.array(cache_key(filings)))
    print(f"{sum(len(v) for v in out)} vectors of {len(filings)} filings -> {CACHE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
