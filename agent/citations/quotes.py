"""The words an answer quotes from each cited source, so the preview highlights exactly them.

Two forms are read back before a marker (in either mode, the model is asked for the same):

    “Revenue grew 12% to $4.1 billion.” [^3]                     -> "Revenue grew 12% to $4.1 billion."
    Purchases of property, plant and equipment (2018): (1,577) [^3]
    Purchases of property, plant and equipment (2018): (1,577) — -$1,577 million in fiscal 2018 [^3]
                                                                  -> "Purchases of property, plant and equipment … (1,577)"

(the figure as said after " — " is not on the page: the value as printed before it is highlighted).

A table cell is quoted as "<row label> … <value>": the label and the value on the same printed
row (ui/page_images.py finds them there, not a same-looking number elsewhere on the page).
`attach_quotes` stores every quote of a marker that its source prints, in the source's words, in
`Citation.metadata.quotes` and makes them the citation's snippet (what the preview highlights).
"""

from __future__ import annotations

import re

from typing import Any, Mapping

from agent.markers import iter_markers
from agent.source_text import find_span, is_ocr, source_texts
from agent.page_text import squash
from storage.schema import Citation, Source
from agent.page_text import page_text_lookup
from storage.documents import catalog, page_tables
from storage.finance.columns import CHANGE_TITLE
from storage.finance.periods import YEAR
from storage.finance.scale import SCALE_WORD
from storage.documents.tables import split_row

ROW_GAP = " … "  # between a row label and its value in a cell quote
_QUOTED = re.compile(r"[“\"]([^“”\"\n]{4,})[”\"]\s*$|‘((?:[^‘’\n]|’(?=[A-Za-z]|\s[a-z])){4,})’\s*$"
                     r"|(?:^|(?<=[\s(]))'((?:[^'\n]|'(?=[A-Za-z]|\s[a-z])){4,})'\s*$")
_VALUE = re.compile(r"[$€£]?\s?\(?-?[$€£]?\d[\d,]*(?:\.\d+)?\)?%?")
CELL = re.compile(
    # the period a column's year names, or a change column's title ("- EBITDA (% change): (5)", "(Reported ∆%)")
    rf"^(?P<label>.+) \((?P<period>[^()]*\d{{4}}[^()]*|[^()]*(?:{CHANGE_TITLE.pattern}|[∆Δ])[^()]*)\):\s*(?P<value>(?:(?:up|down)\s+)?\(?[$€£]?\s?\(?[\d.,]+\)?%?"
    # a change said in words ("down 32%"), a guidance range in one cell ("$8.51 to $8.53")
    rf"(?:\s+to\s+[$€£]?\s?\(?[\d.,]+\)?%?)?)"
    rf"(?:\s+{SCALE_WORD}|\s+per share)?(?:\s+—\s+[^\n]*)?\s*$",
    re.IGNORECASE,
)
ELLIPSIS = re.compile(r"\s*(?:…|\.\.\.)\s*")  # between the parts of a spliced quote
_BULLET = re.compile(r"^\s*(?:[-•*]\s+|\d+\.\s+)?(?:\*\*)?")


def quotes_by_marker(text: str) -> dict[str, list[str]]:
    """marker text -> the quotes written right before it (each once, in order)."""
    out: dict[str, list[str]] = {}
    prev_end = 0
    for mk in iter_markers(text):
        before = text[prev_end : mk.start]
        prev_end = mk.end
        found: list[str] = []
        if m := _QUOTED.search(before):
            found = spliced_parts(" ".join(next(g for g in m.groups() if g).split()))
        elif m := CELL.match(_BULLET.sub("", before.rsplit("\n", 1)[-1].replace("**", ""))):
            # ("$ 1,577" as "$1,577"; the words of "down 32%", "$8.51 to $8.53" keep their spaces)
            value = re.sub(r"(?<=[$€£(])\s+", "", " ".join(m.group("value").split()))
            found = [f"{' '.join(m.group('label').split())}{ROW_GAP}{value}"]
        for quote in found:
            if quote not in out.setdefault(mk.text, []):
                out[mk.text].append(quote)
    return {k: v for k, v in out.items() if v}


def spliced_parts(quote: str) -> list[str]:
    """A quote spliced with "…" as the separate quotes it joins ("A … B" -> ["A", "B"]); a row label
    followed by its value stays one cell quote ("Net sales … 34,229")."""
    parts = [p.strip() for p in ELLIPSIS.split(quote) if p.strip()]
    if len(parts) == 2 and _VALUE.fullmatch(parts[1]) and not _VALUE.fullmatch(parts[0]):
        return [f"{parts[0]}{ROW_GAP}{parts[1]}"]
    return parts


def attach_quotes(text: str, citations: list[Citation], sources: Mapping[str, Source] | None = None) -> None:
    """Give each citation the quotes of its marker (metadata.quotes, and as its snippet), and a
    quoted table row the column headers of its table (metadata.columns), so its preview says which
    period each number is.

    With `sources` (marker -> the source it cites) a quote is kept only as the source prints it
    (its own text or its page's, agent/source_text.py): the words shown are the source's, never the
    answer's; a quote the source does not print is dropped (the snippet stays the source's passage)."""
    quotes = quotes_by_marker(text)
    page_text = None
    for c in citations:
        q = quotes.get(c.marker)
        if q and sources is not None:
            if page_text is None:
                page_text = page_text_lookup()
            src = sources.get(c.marker)
            texts = source_texts(src, page_text) if src is not None else []
            fuzzy = is_ocr(src) if src is not None else False
            q = list(dict.fromkeys(p for p in (as_printed(x, texts, fuzzy) for x in q) if p))
        if q:
            c.metadata.quotes = q
            c.snippet = "\n".join(q)
            if c.kind in ("document", "page") and c.metadata.doc_id and c.metadata.page:
                c.metadata.columns = row_columns(c.metadata.doc_id, c.metadata.page - 1, q)


def as_printed(quote: str, texts: list[str], fuzzy: bool = False) -> str | None:
    """`quote` in the words of the first of `texts` that prints it (a cell quote: its label as
    printed and the value printed after it), or None."""
    label, value = quote.split(ROW_GAP, 1) if ROW_GAP in quote else (quote, None)
    for text in texts:
        span = find_span(label, text, fuzzy=fuzzy)
        if span is None:
            continue
        printed = " ".join(text[span[0]:span[1]].split())
        if value is None:
            return printed
        for v in _printed_forms(value):
            if find_span(v, text[span[1]:]) is not None:
                return f"{printed}{ROW_GAP}{v}"
    return None


def _printed_forms(value: str) -> list[str]:
    """The ways a page may print a cell quote's value: as quoted, without its currency ("$22,317 million" of a row
    printing 22,317), and a range "A to B" with a dash, its currency once ("$0.59 - $0.64", "$10.5-11.5")."""
    forms = [value, value.lstrip("$€£")]
    if m := re.fullmatch(r"(\S+) to (\S+)", value):
        low, high = m.groups()
        for dash in ("-", " - ", "–", " – "):
            forms += [f"{low}{dash}{high}", f"{low}{dash}{high.lstrip('$€£')}"]
    return list(dict.fromkeys(forms))


def _row_key(text: str) -> str:
    """A row's text as compared: squashed, "$ 1,577" as "$1,577"."""
    return squash(text.replace("$ ", "$"))


def row_columns(doc_id: str, page_index: int, quotes: list[str]) -> list[str]:
    """The column headers of the table row a quote is (a quoted row, or a "label … value" cell),
    read from the page's tables (storage/documents/page_tables.py); [] when no quote is a table row."""
    try:
        pages = catalog.load_page_texts(doc_id)
    except (OSError, ValueError):
        return []
    text = pages[page_index] if 0 <= page_index < len(pages) else ""
    rows = [u for u in page_tables.table_units(doc_id, page_index, text) if u.is_table_row and u.header is not None]
    for quote in quotes:
        label = quote.split(ROW_GAP)[0] if ROW_GAP in quote else None
        for unit in rows:
            if (label and _row_key(unit.label or unit.text).startswith(_row_key(label))) or \
                    (not label and _row_key(quote) in _row_key(unit.text)):
                return shown_columns(unit.header, None if unit.cells is not None else len(split_row(unit.text)[1]))
    return []


_YEAR_RE = YEAR
_VERSUS = r"(?:vs\.?|versus|compared\s+(?:to|with)|over)"
_CHANGE_PAIR = re.compile(rf"\b({_YEAR_RE})\s*{_VERSUS}\s*({_YEAR_RE})\b", re.IGNORECASE)
_CHANGE = (r"(?:%\s*|percent(?:age)?\s+)?(?:change|increase\s*(?:/|\(|or\s*)?\s*\(?decrease\)?|"
           r"increase|decrease|variance)")
_CHANGE_WORD = re.compile(_CHANGE, re.IGNORECASE)
_VERSUS_PIECE = re.compile(rf"^(?:{_CHANGE}\s+)?{_VERSUS}\s+{_YEAR_RE}$", re.IGNORECASE)
_CHANGE_YEAR = re.compile(rf"^({_CHANGE})\s+({_YEAR_RE})$", re.IGNORECASE)


def shown_columns(header, values: int | None = None) -> list[str]:
    """The column labels a quoted row's preview shows. A header printing a change between two periods
    ("Change / 2023 vs 2022") read line by line labels a year column with the change word ("Change 2023")
    and splits the pair into two columns ("vs 2023", "vs 2022"): the pair is one change column
    ("Change 2023 vs 2022"), and a period column is its year, never the change. Labels that still do
    not match the row's `values` (when known) are not shown: no label rather than another column's."""
    columns = list(header.columns)
    pairs = list(dict.fromkeys(f"{a} vs {b}" for a, b in _CHANGE_PAIR.findall(header.text or "")))
    if pairs:
        word = _CHANGE_WORD.search(header.text or "")
        word = " ".join(word.group(0).split()) if word else "Change"
        fixed, left = [], list(pairs)
        for col in columns:
            if _VERSUS_PIECE.match(col):
                continue  # a piece of "2023 vs 2022"
            if m := _CHANGE_YEAR.match(col):
                col = m.group(2)  # "Change 2023": the change word is the change column's
            elif _CHANGE_WORD.fullmatch(col) and left:
                col = f"{col} {left.pop(0)}"  # a change column read without its periods ("Change")
            fixed.append(col)
        fixed += [f"{word} {p}" for p in left]
        if values is None or len(fixed) == values:
            columns = fixed
    return columns if values is None or len(columns) == values else []
