"""Numbers as filings print them: "(1,577)" is -1577, "$7,637" is 7637, "43.3%" is 43.3; dashes and words are
no number. The one reader for the facts read at ingestion (storage/documents/facts.py) and the answers."""

from __future__ import annotations

import re


# a change printed in words before its figure: "down 32%", "up 13%", "down 14.4 ppts" (a release's summary table)
CHANGE_WORD = re.compile(r"(?i)^\s*(up|down)\s+(?=\(?\d)")


# a range printed in one cell, a guidance's low and high: "$8.51 to $8.53", "$10.5-11.5", "~20% to ~21%", "34% - 35%"
_END = r"~?\$?\(?\d[\d,]*(?:\.\d+)?\)?%?"
RANGE = re.compile(rf"^\s*(?P<low>{_END})\s*(?:to|[-–—])\s*(?P<high>{_END})\s*$", re.IGNORECASE)


# a scale word printed after a cell's figure, its own scale whatever the caption says: "$4.0 billion", "$10.5-11.5 billion"
CELL_SCALE_WORDS = ("thousand", "million", "billion")
CELL_SCALE = re.compile(rf"(?i)(?<=[\d)%])\s+(?P<word>{'|'.join(CELL_SCALE_WORDS)})s?$")


def split_scale(printed: str) -> tuple[str, str]:
    """A cell's figure and the scale word printed after it ("$4.0 billion" -> ("$4.0", "billion")); ("...", "")
    when it prints none."""
    if m := CELL_SCALE.search(printed):
        return printed[:m.start()], m.group("word").lower()
    return printed, ""


def parse_number(printed: str) -> float | None:
    """The number a cell prints: "(1,577)" -> -1577.0, "($1,269" -> -1269.0, "$7,637" -> 7637.0, "43.3%" ->
    43.3, "down 32%" -> -32.0, "$4.0 billion" -> 4.0; None for dashes, text and a range ("$8.51 to $8.53": two
    numbers)."""
    printed = split_scale(printed)[0]  # "$4.0 billion": 4.0, its scale the fact's
    if RANGE.match(printed):
        return None
    text = printed.strip().replace("−", "-").replace("–", "-")
    negative = bool(re.fullmatch(r"\(.*\)%?", text)) or text.startswith(("-", "($")) \
        or bool((m := CHANGE_WORD.match(text)) and m.group(1).lower() == "down")
    digits = re.sub(r"[^\d.]", "", text)
    if not re.fullmatch(r"\d+(?:\.\d+)?", digits):
        return None
    value = float(digits)
    return -value if negative else value
