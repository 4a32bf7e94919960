"""Text as the PDFs print it, shared by the no-model answers, the citations and the claim check:

    page_text = page_text_lookup()     # source -> the text of the page it cites (each PDF read once)
    segment(paragraph)                 # its sentences, verbatim (syntok)
    squash(sentence) in squash(page)   # printed there, whatever the line breaks and case

(agent/source_text.py `flatten` builds on `squash` where PDF text-layer differences must not count.)
"""

from __future__ import annotations

from syntok import segmenter as syntok_segmenter

from storage.schema import Source
from storage.documents import catalog


def segment(paragraph: str) -> list[str]:
    """A paragraph's sentences by syntok, verbatim (spacing kept): on 400 paragraphs of filings' prose
    it cut inside a sentence 2 times, against 17 for pysbd and 62 for a punctuation regex ("U.S." /
    "Department of State"), at 0.4 ms a paragraph (`python -m bench.sentences`)."""
    return ["".join(tok.spacing + tok.value for tok in sentence).strip()
            for para in syntok_segmenter.analyze(paragraph) for sentence in para]


def squash(text: str) -> str:
    """`text` with its whitespace runs as one space and in lower case: the same words however the
    page broke its lines."""
    return " ".join(text.split()).lower()


def page_text_lookup():
    """`source -> text of the page it cites`, reading each PDF's pages.json once."""
    cache: dict[str, list[str] | None] = {}

    def lookup(src: Source | dict) -> str | None:
        # a Source (the agent passes only these) or its dump (bench: the frozen composer of bench/baselines, planted answers)
        doc_id, page = (src.doc_id, src.page_number) if isinstance(src, Source) else (src.get("doc_id"), src.get("page_number"))
        if not doc_id or page is None:
            return None
        if doc_id not in cache:
            try:
                cache[doc_id] = catalog.load_page_texts(doc_id)
            except (OSError, ValueError):
                cache[doc_id] = None
        pages = cache[doc_id]
        return pages[page] if pages and 0 <= page < len(pages) else None

    return lookup
