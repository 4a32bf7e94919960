"""BM25 over a PDF's chunks with number-aware tokenisation, stored without pickle.

Tokenisation matters more than BM25 parameters on filings: "$66,608", "(66,608)" and "66608"
must be one token, "FY2022" must match "2022", and "revenues" must match "revenue". We do this
with a small regex tokenizer and a light plural stemmer (no extra package), lowercase, and
bm25s' English stop words. The index is saved with `bm25s.BM25.save(allow_pickle=False)`
(numpy arrays + JSON) plus our own `meta.json` (tokenizer version, chunk ids in index order).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import bm25s
import numpy as np
from bm25s.stopwords import STOPWORDS_EN

from storage.schema import Chunk

TOKENIZER_VERSION = 1
_META = "meta.json"
# numbers with thousands separators/decimals, or alphabetic words (with inner apostrophes/&)
_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[a-z]+(?:['’&][a-z]+)*")
# question words and filler that carry no evidence signal in filings
_STOPWORDS = frozenset(STOPWORDS_EN) | {
    "what", "which", "who", "whom", "how", "does", "do", "did", "has", "have", "had", "its",
    "were", "been", "being", "any", "from", "between", "about", "than", "so", "can", "would",
    "should", "could", "i", "we", "our", "us", "you", "your", "s",
}


def _stem(word: str) -> str:
    """Light English stemmer (plurals and a few verb endings): cheap and predictable."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _normalise_number(token: str) -> str:
    # "66,608" -> "66608"; keep a decimal point ("8.30"); "1.234.567" (EU style) -> digits
    if "," in token:
        token = token.replace(",", "")
    if token.count(".") > 1:
        token = token.replace(".", "")
    return token.rstrip(".")


def tokenize(text: str) -> list[str]:
    """Lowercased, number-normalised, lightly stemmed tokens without stop words."""
    tokens: list[str] = []
    for raw in _TOKEN.findall(text.lower()):
        if raw[0].isdigit():
            tokens.append(_normalise_number(raw))
        else:
            word = raw.replace("’", "'")
            if word.endswith("'s"):
                word = word[:-2]  # possessive: "boeing's" -> "boeing"
            if word not in _STOPWORDS:
                tokens.append(_stem(word))
    return tokens


@dataclass
class Bm25Index:
    """A loaded BM25 index; `scores(query)` is aligned with `chunk_ids`."""

    model: bm25s.BM25
    chunk_ids: list[int]

    def scores(self, query: str) -> np.ndarray:
        return bm25_scores(self.model, query, len(self.chunk_ids))


def bm25_scores(model: bm25s.BM25, query: str, n_docs: int) -> np.ndarray:
    """BM25 score of `query` for each of the `n_docs` documents of `model` (zeros if no term is known)."""
    vocab = model.vocab_dict
    tokens = [t for t in tokenize(query) if t in vocab]
    if not tokens or not n_docs:
        return np.zeros(n_docs, dtype=np.float32)
    return np.asarray(model.get_scores(tokens), dtype=np.float32)


def build_bm25_model(texts: list[str]) -> bm25s.BM25:
    model = bm25s.BM25()
    # an empty document list or all-empty documents still yields a valid (empty-scoring) index
    corpus_tokens = [tokenize(t) or [""] for t in texts] or [[""]]
    model.index(corpus_tokens, show_progress=False)
    return model


def build_bm25_index(chunks: list[Chunk], path: Path) -> None:
    """Build the BM25 index of `chunks` into directory `path` (created/overwritten)."""
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    model = build_bm25_model([c.text for c in chunks])
    model.save(str(path), allow_pickle=False, show_progress=False)
    meta = {"tokenizer_version": TOKENIZER_VERSION, "chunk_ids": [c.chunk_id for c in chunks]}
    (path / _META).write_text(json.dumps(meta), encoding="utf-8")


def load_bm25_index(path: Path) -> Bm25Index:
    """Load an index written by `build_bm25_index`; raises FileNotFoundError/ValueError if unusable."""
    path = Path(path)
    meta_path = path / _META
    if not meta_path.exists():
        raise FileNotFoundError(f"No BM25 index at {path}")
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    if meta.get("tokenizer_version") != TOKENIZER_VERSION:
        raise ValueError(f"BM25 index at {path} was built with another tokenizer; re-index the PDF")
    model = bm25s.BM25.load(str(path), allow_pickle=False, show_progress=False, verbosity=0)
    return Bm25Index(model=model, chunk_ids=list(meta["chunk_ids"]))
