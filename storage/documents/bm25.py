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


def _lucene_idf(df: np.ndarray, n: float) -> np.ndarray:
    return np.log1p((n - df + 0.5) / (df + 0.5))


def selection_bm25_scores(models: list[bm25s.BM25], query: str) -> list[np.ndarray]:
    """BM25 of `query` over several per-PDF indexes scored as ONE corpus (see SelectionBm25),
    one array per model."""
    sel = SelectionBm25(models)
    return np.split(sel.scores(query), sel.starts[1:-1])


class SelectionBm25:
    """BM25 over several per-PDF indexes scored as ONE corpus.

    Each PDF's index bakes its own idf into its scores, so a term frequent in one filing and rare
    in another gets incomparable weights, and a short 8-K where a query word happens to be rare
    outscores the filing the question is about. Here every term is re-weighted from its local idf
    to the idf of the whole selection (document frequencies summed over the indexes); term
    frequency and length normalisation stay per PDF. With one PDF this equals `bm25_scores`.
    A term's re-weighted postings over the selection are computed once and kept (queries share
    most of their vocabulary), so a query costs one vector add per term.
    """

    MAX_TERMS = 20_000

    def __init__(self, models: list[bm25s.BM25]) -> None:
        self.models = models
        sizes = [int(m.scores["num_docs"]) for m in models]
        self.starts = np.cumsum([0] + sizes)
        self.n = int(self.starts[-1])
        self._postings: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._lucene = all(
            getattr(m, "method", "lucene") == "lucene" and getattr(m, "idf_method", "lucene") == "lucene" for m in models
        )

    def _posting(self, token: str) -> tuple[np.ndarray, np.ndarray]:
        found = self._postings.get(token)
        if found is not None:
            return found
        parts = []  # (model index, column start, column end)
        for j, m in enumerate(self.models):
            i = m.vocab_dict.get(token)
            if i is not None:
                indptr = m.scores["indptr"]
                if indptr[i + 1] > indptr[i]:
                    parts.append((j, int(indptr[i]), int(indptr[i + 1])))
        df_total = float(sum(e - s for _, s, e in parts))
        idf_total = float(_lucene_idf(np.float64(df_total), float(self.n))) if parts else 0.0
        rows, vals = [], []
        for j, s, e in parts:
            m = self.models[j]
            local = float(_lucene_idf(np.float64(e - s), float(self.starts[j + 1] - self.starts[j])))
            rows.append(m.scores["indices"][s:e].astype(np.int64) + self.starts[j])
            vals.append(m.scores["data"][s:e] * np.float32(idf_total / local if local > 0 else 0.0))
        found = (
            np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64),
            np.concatenate(vals).astype(np.float32) if vals else np.zeros(0, dtype=np.float32),
        )
        if len(self._postings) >= self.MAX_TERMS:
            self._postings.clear()
        self._postings[token] = found
        return found

    def scores(self, query: str) -> np.ndarray:
        if not self._lucene:  # another BM25 variant: its own idf per PDF
            return np.concatenate([bm25_scores(m, query, int(m.scores["num_docs"])) for m in self.models])
        out = np.zeros(self.n, dtype=np.float32)
        for token in tokenize(query):
            rows, vals = self._posting(token)
            out[rows] += vals  # a term's postings hold each document once
        return out
