"""The words an answer quotes from each cited source, so the preview highlights exactly them.

Two forms are read back before a marker (in either mode, the model is asked for the same):

    “Revenue grew 12% to $4.1 billion.” [^3]                     -> "Revenue grew 12% to $4.1 billion."
    Purchases of property, plant and equipment (2018): (1,577) [^3]
    Purchases of property, plant and equipment (2018): (1,577) — -$1,577 million in fiscal 2018 [^3]
                                                                  -> "Purchases of property, plant and equipment … (1,577)"

(the figure as said after " — " is not on the page: the value as printed before it is highlighted).

A table cell is quoted as "<row label> … <value>": the label and the value on the same printed
row (ui/page_images.py finds them there, not a same-looking number elsewhere on the page).
`attach_quotes` stores every quote of a marker in `Citation.metadata.quotes` and makes them the
citation's snippet (what the preview highlights).
"""

from __future__ import annotations

import re

from agent.citation_markers import iter_markers
from storage.schema import Citation

ROW_GAP = " … "  # between a row label and its value in a cell quote
_QUOTED = re.compile(r"[“\"]([^“”\"\n]{4,})[”\"]\s*$")
_CELL = re.compile(
    r"^(?P<label>.+) \((?P<period>[^()]*\d{4}[^()]*)\):\s*(?P<value>[$€£]?\s?\(?[\d.,]+\)?%?)"
    r"(?:\s+(?:million|billion|thousand)s?)?(?:\s+—\s+[^\n]*)?\s*$",
    re.IGNORECASE,
)
_BULLET = re.compile(r"^\s*(?:[-•*]\s+|\d+\.\s+)?(?:\*\*)?")


def quotes_by_marker(text: str) -> dict[str, list[str]]:
    """marker text -> the quotes written right before it (each once, in order)."""
    out: dict[str, list[str]] = {}
    prev_end = 0
    for mk in iter_markers(text):
        before = text[prev_end : mk.start]
        prev_end = mk.end
        quote = None
        if m := _QUOTED.search(before):
            quote = " ".join(m.group(1).split())
        elif m := _CELL.match(_BULLET.sub("", before.rsplit("\n", 1)[-1].replace("**", ""))):
            quote = f"{' '.join(m.group('label').split())}{ROW_GAP}{m.group('value').replace(' ', '')}"
        if quote and quote not in out.setdefault(mk.text, []):
            out[mk.text].append(quote)
    return {k: v for k, v in out.items() if v}


def attach_quotes(text: str, citations: list[Citation]) -> None:
    """Give each citation the quotes of its marker (metadata.quotes, and as its snippet)."""
    quotes = quotes_by_marker(text)
    for c in citations:
        if q := quotes.get(c.marker):
            c.metadata.quotes = q
            c.snippet = "\n".join(q)
