"""The baseline a typical tutorial builds, for bench.retrieval to compare against.

LangChain-style pipeline: `PyMuPDFLoader` (one document per page) ->
`RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=200)` -> Chroma with the same
all-MiniLM-L6-v2 embedder as the project, at the stock sentence-transformers input length (256
tokens; the project embeds at the model's 128-token training length) -> top-k by vector similarity. Its collection lives in
the bench work folder and is reused between runs (keyed by the PDF's sha256).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import chromadb
from chromadb.config import Settings as ChromaSettings

from storage.documents.embeddings import STOCK_MAX_TOKENS, Embedder


@dataclass
class Hit:
    page: int  # 0-based
    text: str


class LangChainBaseline:
    """PyMuPDFLoader + RecursiveCharacterTextSplitter(1000, 200) + Chroma (HNSW, cosine)."""

    name = "langchain_baseline"

    def __init__(self, work_dir: Path) -> None:
        self._embedder = Embedder(max_tokens=STOCK_MAX_TOKENS)
        self._client = chromadb.PersistentClient(
            path=str(work_dir / "baseline_chroma"), settings=ChromaSettings(anonymized_telemetry=False)
        )
        self._collections: dict[str, object] = {}

    def ingest(self, pdf_path: Path, sha256: str) -> tuple[int, float | None]:
        """Index a PDF; returns (page count, seconds spent) — seconds None when reused."""
        from langchain_community.document_loaders import PyMuPDFLoader
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        name = f"lc-{sha256[:24]}"
        existing = {c if isinstance(c, str) else c.name for c in self._client.list_collections()}
        if name in existing:
            collection = self._client.get_collection(name, embedding_function=None)
            if collection.metadata and collection.metadata.get("complete"):
                self._collections[sha256] = collection
                return int(collection.metadata["pages"]), None
            self._client.delete_collection(name)
        start = time.perf_counter()
        pages = PyMuPDFLoader(str(pdf_path)).load()
        splits = RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=200).split_documents(pages)
        texts = [d.page_content for d in splits]
        vectors = self._embedder.embed(texts)
        collection = self._client.create_collection(
            name, metadata={"hnsw:space": "cosine"}, embedding_function=None
        )
        for s in range(0, len(texts), 1000):
            collection.add(
                ids=[str(i) for i in range(s, min(s + 1000, len(texts)))],
                embeddings=vectors[s : s + 1000].tolist(),
                documents=texts[s : s + 1000],
                metadatas=[{"page": int(d.metadata.get("page", 0))} for d in splits[s : s + 1000]],
            )
        seconds = time.perf_counter() - start
        collection.modify(metadata={"complete": True, "pages": len(pages)})
        self._collections[sha256] = collection
        return len(pages), seconds

    def chunk_count(self, sha256: str) -> int:
        return self._collections[sha256].count()

    def search(self, sha256: str, question: str, k: int) -> list[Hit]:
        collection = self._collections[sha256]
        vector = self._embedder.embed([question])[0].tolist()
        got = collection.query(query_embeddings=[vector], n_results=k, include=["metadatas", "documents"])
        return [Hit(page=int(m["page"]), text=t) for m, t in zip(got["metadatas"][0], got["documents"][0])]
