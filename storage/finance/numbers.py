"""Numbers as filings print them: "(1,577)" is -1577, "$7,637" is 7637, "43.3%" is 43.3; dashes and words are
no number. The one reader for the facts read at ingestion (storage/documents/facts.py) and the answers."""

from __future__ import annotations

import re


def parse_number(printed: str) -> float | None:
    """The number a cell prints: "(1,577)" -> -1577.0, "($1,269" -> -1269.0, "$7,637" -> 7637.0, "43.3%" ->
    43.3; None for dashes and text."""
    text = printed.strip().replace("−", "-").replace("–", "-")
    negative = bool(re.fullmatch(r"\(.*\)%?", text)) or text.startswith(("-", "($"))
    digits = re.sub(r"[^\d.]", "", text)
    if not re.fullmatch(r"\d+(?:\.\d+)?", digits):
        return None
    value = float(digits)
    return -value if negative else value
