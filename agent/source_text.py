"""Finding a quoted span in a source's text, as printed: the same words after the differences a PDF's
text layer adds (line breaks and hyphenation, ligatures, curly quotes, dashes, "$ 1,234"), and with
near matches only where the text was read by OCR.

    find_span("cash-based compensation", page_text)      -> (start, end) in page_text, or None
    find_span(quote, ocr_text, fuzzy=True)               -> also a window of about the same words
                                                            that differs by a few OCR misreadings

A quote with an ellipsis ("Revenue grew … to $4.1 billion") is found when its parts are, in order;
the span then runs from the first part's start to the last part's end.
"""

from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher
from typing import Callable

from agent.page_text import squash
from agent.tuning import TUNING
from storage.schema import Source

_CHAR_MAP = str.maketrans({
    "‘": "'", "’": "'", "‚": "'", "‛": "'", "′": "'", "“": '"', "”": '"', "„": '"', "‟": '"', "″": '"',
    "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "―": "-", "−": "-", "\u00ad": "", "*": "",
})
_ELLIPSIS = re.compile(r"\s*(?:…|\.\.\.)\s*")


def normalise(text: str) -> tuple[str, list[int]]:
    """(normalised text, index in `text` of each normalised character): NFKC (ligatures), one
    quote/dash style, whitespace runs as one space, lower case, no hyphen between two letters
    ("long-term", "manu-\\nfacturing"), no blank after "$" / "(" or before "%" / ")"."""
    chars: list[tuple[str, int]] = []
    for i, ch in enumerate(text):
        for c in unicodedata.normalize("NFKC", ch).translate(_CHAR_MAP).lower():
            if c.isspace():
                if chars and chars[-1][0] != " ":
                    chars.append((" ", i))
            else:
                chars.append((c, i))
    out: list[tuple[str, int]] = []
    n = len(chars)
    for k, (c, i) in enumerate(chars):
        prev = out[-1][0] if out else ""
        if c == "-" and prev.isalpha():
            j = k + 1 + (k + 1 < n and chars[k + 1][0] == " ")
            if j < n and chars[j][0].isalpha():
                out.append(("\x00", i))  # a hyphen between letters: dropped below, with a blank after it
                continue
        if c == " " and (prev in ("$", "(", "\x00") or (k + 1 < n and chars[k + 1][0] in "%)")):
            continue
        out.append((c, i))
    kept = [(c, i) for c, i in out if c != "\x00"]
    while kept and kept[-1][0] == " ":
        kept.pop()
    if kept and kept[0][0] == " ":
        kept.pop(0)
    return "".join(c for c, _ in kept), [i for _, i in kept]


_LETTER_HYPHEN = re.compile(r"(?<=[^\W\d_])- ?(?=[^\W\d_])")
_BLANK_AFTER = re.compile(r"(?<=[$(]) ")
_BLANK_BEFORE = re.compile(r" (?=[%)])")


def flatten(text: str) -> str:
    """`normalise(text)[0]` computed on the whole string at once (no offsets): for yes/no lookups."""
    flat = squash(unicodedata.normalize("NFKC", text).translate(_CHAR_MAP))
    return _BLANK_BEFORE.sub("", _BLANK_AFTER.sub("", _LETTER_HYPHEN.sub("", flat)))


def prints(quote: str, flat_text: str, fuzzy: bool = False) -> bool:
    """Whether `flatten`ed text prints `quote`."""
    return _locate(quote, flat_text, fuzzy) is not None


def find_span(quote: str, text: str, fuzzy: bool = False) -> tuple[int, int] | None:
    """Where `quote` is printed in `text` ((start, end) offsets of `text`), or None."""
    norm, index = normalise(text)
    span = _locate(quote, norm, fuzzy)
    return None if span is None else (index[span[0]], index[span[1] - 1] + 1)


def _locate(quote: str, norm: str, fuzzy: bool) -> tuple[int, int] | None:
    """(start, end) in normalised text from the quote's first part to its last (the parts of a
    quote with an ellipsis are found in order), or None."""
    pos, first = 0, None
    for part in [p for p in _ELLIPSIS.split(quote.strip().strip('"“”')) if p.strip()]:
        target = flatten(part)
        at = norm.find(target, pos) if target else -1
        span = (at, at + len(target)) if at >= 0 else (_fuzzy_find(target, norm, pos) if fuzzy and target else None)
        if span is None:
            return None
        first = span[0] if first is None else first
        pos = span[1]
    return None if first is None else (first, pos)


def _fuzzy_find(target: str, norm: str, start: int) -> tuple[int, int] | None:
    """The best window of `norm` (from `start`) of about `target`'s words matching it at
    TUNING.search.fuzzy_quote_ratio or better: for OCR text, where a letter or two of a word can be misread."""
    words = [(m.start(), m.end()) for m in re.finditer(r"\S+", norm) if m.start() >= start]
    size = len(target.split())
    if not words or size == 0:
        return None
    first_words = set(target.split()[:2])
    matcher = SequenceMatcher(autojunk=False)
    matcher.set_seq2(target)
    best, best_span = TUNING.search.fuzzy_quote_ratio, None
    for k in range(len(words)):
        for width in (size - 1, size, size + 1):
            if width <= 0 or k + width > len(words):
                continue
            if norm[words[k][0]:words[k][1]] not in first_words and \
                    norm[words[min(k + 1, len(words) - 1)][0]:words[min(k + 1, len(words) - 1)][1]] not in first_words:
                continue
            window = norm[words[k][0]:words[k + width - 1][1]]
            matcher.set_seq1(window)
            if matcher.real_quick_ratio() < best or matcher.quick_ratio() < best:
                continue
            if (ratio := matcher.ratio()) >= best:
                best, best_span = ratio, (words[k][0], words[k + width - 1][1])
    return best_span


def source_texts(src: Source | dict, page_text: Callable[[Source], str | None] | None = None) -> list[str]:
    """The text a cited source stands for (a Source, or its dump): its own (a chunk, a page, a web
    result and its title), then the printed text of every page it is on (`page_text(source) -> str |
    None`, agent/page_text.py), where a table's unit caption or the rest of a row is."""
    src = Source.model_validate(src)
    texts = [t for t in (src.title if src.kind == "web" else None, src.text) if t]
    first = src.page_number
    if page_text is not None and src.doc_id and first is not None:
        last = src.extra.get("page_end") or first
        for page in range(first, max(first, last) + 1):
            if (text := page_text(src.model_copy(update={"page_number": page}))) and text not in texts:
                texts.append(text)
    return texts


def is_ocr(src: Source) -> bool:
    """Text read by OCR (a scanned page, an image): the one place quotes are matched loosely."""
    return src.chunk_type in ("page_ocr", "image_ocr")
