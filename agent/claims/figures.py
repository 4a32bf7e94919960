"""The figures a sentence states, the numbers a source prints, and whether one is the other.

    figures_in("Revenue was $86.4 billion, up 12% in 2022")   -> [$86.4 billion, 12%]  (2022 is a year)
    SourceNumbers(page_text).has(figure)                      -> True when the page prints 86,392 in a
                                                                 table "in millions", or "$86.4 billion"
    verified_results(sentence)                                 -> spans of figures that are the shown
                                                                 result of arithmetic that holds, and
                                                                 the arithmetic that does not

A figure matches a printed number when they are equal at the figure's printed precision
("$1.6 billion" is 1,577 in millions rounded to a tenth of a billion), whatever the sign
("(1,577)" is an outflow of $1.6 billion). Bare table numbers count at the scale of any unit caption
on the page ("in millions") and as printed (per-share amounts in the same table). Years, dates,
durations ("12 months"), ids ("Note 7", "10-K", "Q3", "FY2022") and citation markers are not figures.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from storage.finance.periods import DURATION_AFTER, PROSE_DATE
from storage.finance.scale import (BASIS_POINTS_AFTER, CAPTION_AFTER, CURRENCY_WORDS_AFTER, PEOPLE_AFTER, POINTS_AFTER, PROSE_SCALE,
                                   PROSE_SCALES, SQUARE_FEET_AFTER, read_scale, scales_in)

SCALES = PROSE_SCALES
_NUMBER = re.compile(
    r"(?P<open>\()?(?P<sign>[-−–](?=[$€£¥]?\s?\d))?(?P<cur>[$€£¥])?\s?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?P<close>\))?"
    r"(?:\s?(?P<pct>%|percent\b|per\s?cent\b))?"
    rf"(?:\s?(?P<scale>(?i:{PROSE_SCALE}))\b|(?P<letter>[kKmMbB])\b)?"  # "$34.2 Bn", "$1.2 Million"
)
_ID_BEFORE = re.compile(r"(?:\b(?:note|notes|item|items|page|pages|p\.|pp\.|section|part|rule|no\.|number|exhibit|asc|asu|"
                        r"topic|chapter|schedule|form|level|tier|phase|step|table|figure|fig\.|q|fy|h)\s*)$", re.IGNORECASE)
_SMALL = {w: float(i) for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve "
                                            "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split())}
_SMALL_WORD = re.compile(r"\b(" + "|".join(_SMALL) + r")\b", re.IGNORECASE)


def caption_scale(text: str) -> float | None:
    """The scale of amounts a table's unit caption states ("(Millions)", "In millions, except per share", "($ in
    thousands)", "(000s)"): the first one in `text`, or None. Read by storage/finance/scale.py, the one reader."""
    scale = read_scale(text or "")
    return scale.factor if scale and scale.word else None


@dataclass(frozen=True)
class Figure:
    text: str  # as written: "$86.4 billion"
    start: int
    end: int
    value: float  # magnitude in units: 86.4e9
    tolerance: float  # half a unit of the last printed digit, at the figure's scale
    percent: bool = False
    currency: str = ""  # "$", "€", "£", "¥" as written ("dollars" -> "$"), "" when none
    scaled: bool = False  # written with a scale word or letter ("$4.1 billion", "$1.9B")
    unit: str = ""  # "people", "sqft", "points" when the words after it say so
    negative: bool = False  # "-$1,577 million", "(1,577)"


def _scale(m: re.Match) -> float:
    word = (m.group("scale") or "").lower().rstrip("s")
    if word:
        return SCALES[word]
    letter = (m.group("letter") or "").lower()
    return SCALES[letter] if letter and m.group("cur") else 1.0  # "$1.9B", never the "M" of "3M"


def _figure(m: re.Match, base: int = 0) -> Figure:
    digits = m.group("num").replace(",", "")
    places = len(digits.split(".")[1]) if "." in digits else 0
    scale = _scale(m)
    start = m.start("cur") if m.group("cur") else m.start("num")
    end = max(m.end("num"), m.end("pct") if m.group("pct") else 0, m.end("scale") if m.group("scale") else 0,
              m.end("letter") if m.group("letter") and scale != 1.0 else 0)
    after = m.string[m.end():m.end() + 40]
    if scale == 1.0 and not m.group("pct") and (caption := CAPTION_AFTER.match(after)):
        scale = SCALES[caption.group(1).lower().rstrip("s")]
        end = m.end() + caption.end()
        after = m.string[end:end + 40]
    currency = m.group("cur") or ""
    if not currency and (w := CURRENCY_WORDS_AFTER.match(after)):
        currency = {"dollar": "$", "euro": "€", "pound": "£", "yen": "¥"}[w.group(1).lower().rstrip("s")]
    unit = "people" if PEOPLE_AFTER.match(after) else "sqft" if SQUARE_FEET_AFTER.match(after) else \
        "points" if not m.group("pct") and POINTS_AFTER.match(after) else ""
    points = 0.01 if unit == "points" and BASIS_POINTS_AFTER.match(after) else 1.0  # "150 basis points": 1.5 points
    return Figure(m.string[start:end], base + start, base + end, float(digits) * scale * points,
                  0.5 * 10 ** -places * scale * points, bool(m.group("pct")), currency, scale != 1.0, unit, bool(m.group("sign") or (m.group("open") and m.group("close"))))


def _not_a_figure(m: re.Match, text: str, dates: list[tuple[int, int]]) -> bool:
    start, end = m.start("num"), m.end("num")
    before, after = text[:start], text[end:]
    if before[-1:].isalpha() or (before and before[-1] in "^#") or re.search(r"[A-Za-z][-/]$", before):
        return True  # "Q3", "FY2022", "COVID-19", "[^3]"
    if re.match(r"[-/]?[A-Za-z]", after) and not (m.group("letter") and _scale(m) != 1.0) and not m.group("scale") \
            and not m.group("pct"):
        return True  # "10-K", "3M", "2nd", "1A"
    if any(s <= start < e for s, e in dates) or _ID_BEFORE.search(before[-12:]) or DURATION_AFTER.match(after):
        return True
    plain = not (m.group("cur") or m.group("pct") or m.group("scale") or "," in m.group("num") or "." in m.group("num"))
    return plain and 1900 <= int(m.group("num")) <= 2100  # a year


def figures_in(text: str) -> list[Figure]:
    """The figures a sentence states (markers must already be removed)."""
    dates = [d.span() for d in PROSE_DATE.finditer(text)]
    return [_figure(m) for m in _NUMBER.finditer(text) if not _not_a_figure(m, text, dates)]


class SourceNumbers:
    """Every number a source text prints, as magnitudes it can stand for."""

    def __init__(self, text: str) -> None:
        scales = {1.0}
        for caption in scales_in(text):  # storage/finance/scale.py: "(In millions)", "(Millions)", "(000s)", "$M"
            scales.update((caption.factor, caption.share_factor))
        values: list[float] = []
        dates = iter(d.span() for d in PROSE_DATE.finditer(text))
        date = next(dates, None)
        for m in _NUMBER.finditer(text):
            while date is not None and date[1] <= m.start("num"):
                date = next(dates, None)
            if date is not None and date[0] <= m.start("num") < date[1]:
                continue  # "February 3, 2018" prints no 3
            value = float(m.group("num").replace(",", ""))
            scale = _scale(m)
            values.extend([value * scale] if scale != 1.0 else [value * s for s in scales])
        values.extend(_SMALL[w.lower()] for w in _SMALL_WORD.findall(text))
        self.values = sorted(values)

    def has(self, figure: Figure) -> bool:
        low = figure.value - figure.tolerance * (1 + 1e-9) - 1e-9
        i = bisect.bisect_left(self.values, low)
        return i < len(self.values) and self.values[i] <= figure.value + figure.tolerance * (1 + 1e-9) + 1e-9
