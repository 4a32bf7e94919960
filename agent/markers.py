"""What a citation marker is: the one id grammar, imported by the agent, the UI and the benchmarks.

Markers in an answer:
- `[^3]`               a document chunk (kind "document"), ids from the running `rag_counter`
- `{^2}`               a web page (kind "web"), ids from `web_counter`
- `[^Current Page]`    the page the user is viewing; `[^Previous Page]` the one before (kind "page")
- `[^8.1]`             a curated knowledge item, injected by `build_answer` for `Q301` (kind "knowledge");
                       answers stored before the caret form used `[8.1]`, still recognised here, but
                       only a marker listed in the answer's citations is ever a citation
- `[chunk_id: 44]`     legacy chunk-id form; `[chunk_id: 44, file: boeing.pdf]` once disambiguated

Markers inside fenced (``` / ~~~) or inline (`x`) code are text, never markers; so are markers and
Q-numbers inside an address (`address_spans`: a URL with or without its scheme, a link target, an
HTML tag or link, an e-mail address): `https://x.org/a[^1]b` is a URL, `https://x.org/a[^1]` cites.

    for m in iter_markers(answer):        # Marker(start, end, text, kind, label)
        citation = by_marker.get(m.text)  # AnswerResult.citations keyed by Citation.marker

A single id: `rag_id(3)` / `web_id(2)` write one, `id_number("[^3]")` -> ("rag", 3), `is_q_number`,
`id_label("[^3]")` -> "3"; `DOC_ID_RE`, `WEB_ID_RE`, `PAGE_ROLE_RE`, `Q_NUMBER_RE` find them in text.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Callable, Iterator, Literal

MarkerKind = Literal["document", "web", "page", "knowledge", "legacy"]

# The grammar's pieces: every pattern below, and every check of a single id, is built from these.
_NUMBER = r"[1-9]\d*"  # a running id's number: 1, 2, … (never 0 or 01)
Q_NUMBER = r"Q\d{3,4}"  # a knowledge item's id: Q301
CURRENT_PAGE_ID = "[^Current Page]"
PREVIOUS_PAGE_ID = "[^Previous Page]"
ROLE_IDS = (CURRENT_PAGE_ID, PREVIOUS_PAGE_ID)
_PAGE_ROLE = r"Current Page|Previous Page"

DOC_ID_RE = re.compile(rf"\[\^({_NUMBER})\]")  # `[^3]`: a document or page source id (group 1: its number)
WEB_ID_RE = re.compile(rf"\{{\^({_NUMBER})\}}")  # `{^2}`: a web source id
PAGE_ROLE_RE = re.compile(rf"\[\^(?:{_PAGE_ROLE})\]")  # `[^Current Page]`, `[^Previous Page]`
Q_NUMBER_RE = re.compile(Q_NUMBER)

# One alternation, one named group per form. Order matters only for overlapping forms (none).
MARKER_RE = re.compile(
    rf"\[\^(?P<doc>{_NUMBER})\]"
    rf"|\{{\^(?P<web>{_NUMBER})\}}"
    rf"|\[\^(?P<page>{_PAGE_ROLE})\]"
    r"|\[\^?(?P<kb>\d{1,3}\.\d{1,3})\]"
    r"|\[chunk_id:\s*(?P<legacy>\d+)(?:\s*,\s*file:\s*(?P<legacy_file>[^\]\n]+?))?\s*\]"
)

# Anything that looks like an attempt at a `[^…]` / `{^…}` marker; those not matching MARKER_RE
# (`[^ 3]`, `[^]`, `{^}`, `[^0]`, `{^x}`) are malformed and get removed from answers.
MARKER_LIKE_RE = re.compile(r"\[\^[^\]\[\n]{0,40}\]|\{\^[^}{\n]{0,20}\}")

# Group citations models like to write: `[^3, ^5]`, `[^3,5]`, `{^1, ^2}` -> `[^3][^5]`.
GROUPED_RE = re.compile(r"\[\^\s*\d+(?:\s*,\s*\^?\s*\d+)+\s*\]|\{\^\s*\d+(?:\s*,\s*\^?\s*\d+)+\s*\}")

# Legacy markers listing several chunk ids: `[chunk_id: 44, 45]` -> `[chunk_id: 44][chunk_id: 45]`.
LEGACY_GROUP_RE = re.compile(r"\[chunk_id:\s*\d+(?:\s*,\s*\d+)+\s*\]")

# Markers written as a Markdown link's text: `[[^1]](https://x.org)`, `[ [^1][^2] ](url)`.
MARKER_LINK_RE = re.compile(
    r"\[[ \t]*(?P<markers>(?:(?:" + MARKER_RE.pattern + r")[ \t]*)+)\]\((?P<url>[^)\s]*)\)"
)

# A Q-number standing alone: not part of a word, an issue key (`JIRA-Q301`) or a path (`faq/Q301`).
Q_ID_RE = re.compile(rf"(?<![A-Za-z0-9_/\-]){Q_NUMBER}(?![A-Za-z0-9_]|-\w)")
# Q-numbers a model wrapped in parentheses or brackets: `(Q301)`, `[Q301, Q302]`, `(Q301 and Q302)`.
WRAPPED_Q_RE = re.compile(rf"[ \t]*[(\[]\s*({Q_NUMBER}(?:\s*(?:[,;]|and)\s*{Q_NUMBER})*)\s*[)\]]")

# Addresses, whose text is never a citation. A bare URL ends at whitespace, so its trailing
# punctuation and markers are trimmed off (`_ADDRESS_TAIL_RE`): a marker right after a URL cites.
_ADDRESS_RE = re.compile(
    r"\b(?:https?|ftp)://[^\s<>\"'`]+"
    r"|\bwww\.[^\s<>\"'`]+"
    r"|(?<![\w@.-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}/[^\s<>\"'`]*"  # example.com/faq/Q301
    r"|(?P<target>\]\([^()\s\[\]]{0,2000}\))"  # a markdown link's target (bounded: no quadratic rescans)
    r"|<a\b[^<>]*>[^<]*</a\s*>|</?[a-z][a-z0-9]*\b[^<>\n]*>"  # an HTML link, any HTML tag
    r"|(?<![\w.+-])[\w.+-]+@[\w-]+\.[\w.]+",  # anchored at its start: no quadratic rescans
    re.IGNORECASE,
)
_TAIL_PUNCTUATION = ".,;:!?)]'\""

_FENCE_RE = re.compile(r"(?ms)^[ \t]{0,3}(?P<fence>`{3,}|~{3,})[^\n]*\n.*?(?:^[ \t]{0,3}(?P=fence)[ \t]*$|\Z)")
# Inline code never spans a blank line (Markdown paragraphs), so a stray backtick cannot hide the
# markers of the rest of an answer.
_INLINE_CODE_RE = re.compile(r"(?P<ticks>`+)(?!`)(?:(?!\n[ \t]*\n).)+?(?<!`)(?P=ticks)(?!`)", re.S)


@dataclass(frozen=True)
class Marker:
    start: int
    end: int
    text: str  # the exact marker text, e.g. "[^3]" == Citation.marker
    kind: MarkerKind
    label: str  # "3", "2", "Current Page", "8.1", "44"
    file: str | None = None  # legacy markers with a file suffix


def rag_id(n: int | str) -> str:
    """`[^n]`: a document or page source's id (with a knowledge item's label, its marker `[^8.1]`)."""
    return f"[^{n}]"


def web_id(n: int | str) -> str:
    """`{^n}`: a web source's id."""
    return f"{{^{n}}}"


def id_number(source_id: str) -> tuple[Literal["rag", "web"], int] | None:
    """("rag", 3) for `[^3]`, ("web", 2) for `{^2}` (the store's id families); None for any other id
    (a page role, a Q-number, a legacy marker)."""
    if m := DOC_ID_RE.fullmatch(source_id):
        return "rag", int(m.group(1))
    if m := WEB_ID_RE.fullmatch(source_id):
        return "web", int(m.group(1))
    return None


def is_q_number(text: str) -> bool:
    """`Q301`: a knowledge item's id."""
    return Q_NUMBER_RE.fullmatch(text) is not None


def id_label(source_id: str) -> str:
    """What an id shows between its brackets: "3" for `[^3]`, "2" for `{^2}`, "Current Page"."""
    return source_id.strip("[]{}").lstrip("^")


def code_spans(text: str) -> list[tuple[int, int]]:
    """Sorted (start, end) spans of fenced code blocks and inline code."""
    spans = [m.span() for m in _FENCE_RE.finditer(text)]

    def inside(pos: int) -> bool:
        return any(s <= pos < e for s, e in spans)

    for m in _INLINE_CODE_RE.finditer(text):
        if not inside(m.start()):
            spans.append(m.span())
    return sorted(spans)


def _address_tail(address: str) -> int:
    """Length of a bare URL's trailing markers and punctuation (not part of the address), read
    from the end (linear in the tail's length)."""
    end = len(address)
    while end:
        opening = max(address.rfind("[", max(0, end - 80), end), address.rfind("{", max(0, end - 80), end))
        if address[end - 1] in "]}" and opening >= 0 and MARKER_RE.fullmatch(address, opening, end):
            end = opening
        elif address[end - 1] in _TAIL_PUNCTUATION:
            end -= 1
        else:
            break
    return len(address) - end


def inside(spans: list[tuple[int, int]], pos: int) -> bool:
    """Whether `pos` falls in one of `spans` (sorted, not overlapping)."""
    i = bisect.bisect_right(spans, (pos, float("inf"))) - 1
    return i >= 0 and spans[i][0] <= pos < spans[i][1]


def address_spans(text: str) -> list[tuple[int, int]]:
    """Sorted (start, end) spans of the addresses in text (see `_ADDRESS_RE`)."""
    spans = []
    for m in _ADDRESS_RE.finditer(text):
        start, end = m.span()
        if not m.group("target") and not m.group(0).startswith("<"):
            end -= _address_tail(m.group(0))
        if end > start:
            spans.append((start, end))
    return spans


def map_outside_addresses(text: str, fn) -> str:
    """Apply `fn(str) -> str` to the parts of text outside addresses (use on prose)."""
    out, pos = [], 0
    for start, end in address_spans(text):
        out += [fn(text[pos:start]), text[start:end]]
        pos = end
    return "".join(out) + fn(text[pos:])


def prose_segments(text: str) -> list[tuple[bool, str]]:
    """Split text into (is_code, piece) pieces; joining the pieces gives back the text."""
    pieces: list[tuple[bool, str]] = []
    pos = 0
    for start, end in code_spans(text):
        if start < pos:  # inline span inside an earlier one
            continue
        if start > pos:
            pieces.append((False, text[pos:start]))
        pieces.append((True, text[start:end]))
        pos = end
    if pos < len(text):
        pieces.append((False, text[pos:]))
    return pieces


def map_prose(text: str, fn) -> str:
    """Apply `fn(str) -> str` to the prose pieces of text only, leaving code untouched."""
    return "".join(piece if is_code else fn(piece) for is_code, piece in prose_segments(text))


def _marker_from_match(m: re.Match, offset: int = 0) -> Marker:
    g = m.groupdict()
    if g["doc"]:
        kind, label = "document", g["doc"]
    elif g["web"]:
        kind, label = "web", g["web"]
    elif g["page"]:
        kind, label = "page", g["page"]
    elif g["kb"]:
        kind, label = "knowledge", g["kb"]
    else:
        kind, label = "legacy", g["legacy"]
    file = g["legacy_file"].strip() if g.get("legacy_file") else None
    return Marker(m.start() + offset, m.end() + offset, m.group(0), kind, label, file)


def iter_markers(text: str) -> Iterator[Marker]:
    """Every marker in text, in order, skipping code and addresses. The UI renders these as clickable."""
    pos = 0
    for is_code, piece in prose_segments(text):
        if not is_code:
            addresses = address_spans(piece)
            for m in MARKER_RE.finditer(piece):
                if not inside(addresses, m.start()):
                    yield _marker_from_match(m, pos)
        pos += len(piece)


def replace_markers(text: str, replacement: Callable[[Marker], str | None]) -> str:
    """`text` with each marker (outside code) replaced by `replacement(marker)`; None keeps it."""
    out, pos = [], 0
    for mk in iter_markers(text):
        new = replacement(mk)
        if new is not None:
            out += [text[pos:mk.start], new]
            pos = mk.end
    return "".join(out) + text[pos:]


_MALFORMED_RE = re.compile(r"[ \t]*(?:" + MARKER_LIKE_RE.pattern + ")")
# The end of a text cut off inside a marker (`… fell [^1`, `… {^`, `[chunk_id: 4`).
_CUT_MARKER_RE = re.compile(r"[ \t]*(?:\[\^[^\]\[\n]{0,40}|\{\^[^}{\n]{0,20}|\[chunk_id:[^\]\n]*)$")


def strip_markers(text: str) -> str:
    """text without its markers (and the blanks before them), malformed or cut-off ones included:
    for text whose markers nothing resolves, such as an answer stopped before it was cited."""
    out, pos = [], 0
    for mk in iter_markers(text):
        out.append(text[pos:mk.start].rstrip(" \t"))
        pos = mk.end
    out.append(text[pos:])
    rest = map_prose("".join(out), lambda prose: map_outside_addresses(prose, lambda part: _MALFORMED_RE.sub("", part)))
    return _CUT_MARKER_RE.sub("", rest)
