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
    """BM25 of `query` over several per-PDF indexes scored as ONE corpus.

    Each PDF's index bakes its own idf into its scores, so a term frequent in one filing and rare
    in another gets incomparable weights, and a short 8-K where a query word happens to be rare
    outscores the filing the question is about. Here every term is re-weighted from its local idf
    to the idf of the whole selection (document frequencies summed over the indexes); term
    frequency and length normalisation stay per PDF. With one PDF this equals `bm25_scores`.
    """
    tokens = tokenize(query)
    out = [np.zeros(int(m.scores["num_docs"]), dtype=np.float32) for m in models]
    if not tokens or not models:
        return out
    if any(getattr(m, "method", "lucene") != "lucene" or getattr(m, "idf_method", "lucene") != "lucene" for m in models):
        return [bm25_scores(m, query, len(o)) for m, o in zip(models, out)]
    n_total = float(sum(len(o) for o in out))
    ids = [[m.vocab_dict.get(t) for t in tokens] for m in models]
    df_local = []
    for m, tok_ids in zip(models, ids):
        indptr = m.scores["indptr"]
        df_local.append(np.asarray([indptr[i + 1] - indptr[i] if i is not None else 0 for i in tok_ids], dtype=np.float64))
    df_total = np.sum(df_local, axis=0)
    idf_total = _lucene_idf(df_total, n_total)
    for m, tok_ids, df, scores in zip(models, ids, df_local, out):
        data, indices, indptr = m.scores["data"], m.scores["indices"], m.scores["indptr"]
        ratio = idf_total / np.where(df > 0, _lucene_idf(df, float(len(scores))), 1.0)
        for t, i in enumerate(tok_ids):
            if i is None or df[t] == 0:
                continue
            s, e = indptr[i], indptr[i + 1]
            np.add.at(scores, indices[s:e], data[s:e] * np.float32(ratio[t]))
    return out
