"""Short follow-ups resolved against the previous questions, without a model.

    "What was Boeing's capital expenditure in FY2018?"  then  "and in the year before?"
        -> "What was Boeing's capital expenditure in FY2017?"
    ... then "what about Airbus?"  -> "What was Airbus's capital expenditure in FY2018?"
    ... then "and 2021?"           -> "What was Boeing's capital expenditure in FY2021?"
    ... then "and operating income?" -> "operating income Boeing FY2018"

The subject and the period of the previous question are carried over, the period shifted ("the
year before", "two years later", "the prior quarter") or replaced ("and 2021?"), the company
replaced ("what about Boeing?"). A message that is a question of its own (it names a line item
and is not phrased as a continuation) is left alone. Previous turns are resolved in order, so a
follow-up of a follow-up works.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from storage.documents.bm25 import tokenize
from storage.finance.periods import MONTH_NAMES, QUARTER_LABEL, QUARTER_NUMBER, YEAR

MAX_FOLLOWUP_WORDS = 9
_CONTINUATION = re.compile(
    r"^\s*(?:and|also|what about|how about|what of|same (?:for|in)|now|then|ok(?:ay)?,?|and what about|and how about|"
    r"for|in|versus|vs\.?|compared (?:to|with))\b",
    re.IGNORECASE,
)
_NUMBERS = {"one": 1, "a": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_SHIFT = re.compile(
    r"\b(?:(?P<n>\d|one|a|two|three|four|five)\s+)?(?P<unit>years?|quarters?)\s+(?P<dir>before|earlier|prior|ago|later|after)\b"
    r"|\b(?:the\s+)?(?P<adj>previous|prior|preceding|last|next|following)\s+(?P<unit2>year|quarter|fiscal year)\b",
    re.IGNORECASE,
)
_YEAR = re.compile(rf"(?<![\d$.,])({YEAR})(?![\d,.%])")
_SHORT_FY = re.compile(r"\b(FY\s*'?)(\d\d)\b", re.IGNORECASE)
_QUARTER = QUARTER_LABEL
# Capitalised words that are not a company: question words, periods, statement vocabulary.
_NOT_ENTITY = set(
    "what which how who when where why and also about is was were are did does do the a an in for of "
    "fy q1 q2 q3 q4 fiscal year quarter gaap non ebitda eps sg&a capex pp&e usd us u.s. total net "
    f"{MONTH_NAMES}".split()
)
_ENTITY = re.compile(r"\b([A-Z][A-Za-z&.\-]*(?:\s+[A-Z][A-Za-z&.\-]*)*)(?:['’]s)?")


@dataclass(frozen=True)
class Resolved:
    query: str  # what to search for (the question itself when it is not a follow-up)
    is_followup: bool


def _entities(text: str) -> list[str]:
    """Company-like names: runs of capitalised words, not question words, periods or acronyms
    of line items; the first word of the text counts only when it is not a question word."""
    out = []
    for m in _ENTITY.finditer(text):
        words = [w for w in m.group(1).split() if w.lower().strip(".") not in _NOT_ENTITY and not _YEAR.fullmatch(w)]
        name = " ".join(words)
        if len(name) > 1 and not re.fullmatch(rf"(?:FY|{QUARTER_NUMBER})?\d*", name):
            out.append(name)
    return out


def _shift_amount(text: str) -> tuple[int, str] | None:
    """(signed shift, "year"|"quarter") for "the year before", "two years later", "next quarter"."""
    m = _SHIFT.search(text)
    if not m:
        return None
    if m.group("unit"):
        n = m.group("n")
        amount = int(n) if n and n.isdigit() else _NUMBERS.get((n or "one").lower(), 1)
        sign = -1 if m.group("dir").lower() in ("before", "earlier", "prior", "ago") else 1
        unit = "quarter" if m.group("unit").lower().startswith("quarter") else "year"
    else:
        amount, unit = 1, "quarter" if m.group("unit2").lower() == "quarter" else "year"
        sign = 1 if m.group("adj").lower() in ("next", "following") else -1
    return sign * amount, unit


def _shift_period(question: str, shift: int, unit: str) -> str:
    if unit == "quarter" and _QUARTER.search(question):
        def move(m: re.Match) -> str:
            q = int(m.group(1)) - 1 + shift
            return f"Q{q % 4 + 1}"
        shifted = _QUARTER.sub(move, question)
        years_moved = (int(_QUARTER.search(question).group(1)) - 1 + shift) // 4
        return _YEAR.sub(lambda m: str(int(m.group(1)) + years_moved), shifted) if years_moved else shifted
    shifted = _YEAR.sub(lambda m: str(int(m.group(1)) + shift), question)
    return _SHORT_FY.sub(lambda m: f"{m.group(1)}{(int(m.group(2)) + shift) % 100:02d}", shifted)


def _years(text: str) -> list[str]:
    return _YEAR.findall(text) + [f"20{m.group(2)}" for m in _SHORT_FY.finditer(text)]


def _content_terms(text: str, entities: list[str]) -> set[str]:
    """Line-item words: what is left after periods, names and continuation words."""
    rest = _CONTINUATION.sub(" ", text)
    for name in entities:
        rest = rest.replace(name, " ")
    terms = set(tokenize(rest)) - set(tokenize(" ".join(_NOT_ENTITY) + " before after earlier later previous prior "
                                               "preceding next following ago one two three year years quarter"))
    return {t for t in terms if not t.isdigit()}


def resolve_one(question: str, previous: str) -> Resolved:
    """`question` resolved against one previous (already resolved) question."""
    words = question.split()
    if not previous.strip() or not words or len(words) > MAX_FOLLOWUP_WORDS:
        return Resolved(question, False)
    entities = _entities(question)
    terms = _content_terms(question, entities)
    continuation = bool(_CONTINUATION.match(question))
    shift = _shift_amount(question)
    years = _years(question)
    quarters = _QUARTER.findall(question)
    if terms and not continuation:
        return Resolved(question, False)  # a question of its own
    if not (shift or years or quarters or entities or terms):
        return Resolved(question, False)
    query = previous
    if shift:
        query = _shift_period(query, *shift)
    elif years:
        old = _years(query)
        if old:
            query = _SHORT_FY.sub(lambda m: years[0] if len(years) == 1 else m.group(0), query)
            query = _YEAR.sub(lambda m: years[0] if len(years) == 1 else m.group(0), query)
        else:
            query = f"{query.rstrip(' ?')} in {' and '.join(years)}?"
    if quarters and not shift:
        if _QUARTER.search(query):
            query = _QUARTER.sub(f"Q{quarters[0]}", query, count=1)
        else:
            query = f"{query.rstrip(' ?')} in Q{quarters[0]}?"
    if entities:
        old_names = _entities(previous)
        if old_names:
            query = query.replace(old_names[0], entities[0])
        else:
            query = f"{query.rstrip(' ?')} for {entities[0]}?"
    if terms:
        # a new line item, same company and period: the new words with the old context
        context = " ".join([*(_entities(query)[:1] if not entities else entities[:1]), *_years(query)])
        query = f"{_CONTINUATION.sub('', question).strip(' ?')} {context}".strip()
    return Resolved(query, query != question)


def resolve_followup(question: str, previous_questions: list[str]) -> Resolved:
    """`question` resolved against the conversation's earlier user questions (oldest first)."""
    context = ""
    for prev in previous_questions:
        context = resolve_one(prev, context).query if context else prev
    return resolve_one(question, context) if context else Resolved(question, False)
