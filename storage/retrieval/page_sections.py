"""Which part of a filing each page belongs to, read from the headings its pages print.

A page in the middle of a note does not print the note's title ("Note 21 – Legal Proceedings" on
the page before), a risk factor page does not repeat "Item 1A. Risk Factors", a primary statement
prints its title once at the top. An analyst asks by section ("legal battles", "what industry does
it operate in", "per the income statement"), so each page gets a short label, its narrowest part: the
primary statement it prints, else the notes in force where it starts or that it opens, else the 10-K /
10-Q items likewise.
The ranking scores the question against these labels as a signal of its own
(`Ranking.section_weight`, storage/retrieval/fusion.py); labels are read at index load from the page
texts, so no re-ingestion is needed.

Headings are lines of their own:
- items: "Item 7. Management's Discussion ...", "ITEM 1A – RISK FACTORS"; a page that lists five or
  more items or notes is a table of contents (or an index) and changes nothing; a cross-reference ("Item 8 of
  this Annual Report") is not a heading (its title must start with a capital);
- notes: "Note 21 – Legal Proceedings", "NOTE 4: INCOME TAXES"; "4. Income Taxes" only once the notes
  have begun (a "Notes to ... Financial Statements" heading or a "Note N" one), so numbered lists
  elsewhere are not notes; a new item ends the notes;
- primary statements: a statement title among a page's first lines ("Consolidated Statements of
  Operations", "Condensed Consolidated Balance Sheets"), labelled with its kind's usual names too
  ("income statement", "balance sheet") since that is how questions name them. Not carried over.
"""

from __future__ import annotations

import re

_DASH = r"[.:\-–—]"
_ITEM = re.compile(rf"^item\s*(\d{{1,2}}[a-c]?)\b\s*{_DASH}*\s*(.*)$", re.IGNORECASE)
# a current report's item ("Item 1.01. Entry into a Material Definitive Agreement", "Item 8.01 Other Events")
_EVENT_ITEM = re.compile(rf"^item\s*(\d\.\d\d)\b\s*{_DASH}*\s*(.*)$", re.IGNORECASE)
EVENT_ITEM_LABEL = "current report item"
_NOTE = re.compile(rf"^note\s+(\d{{1,2}})\s*{_DASH}+\s*(\S.{{2,90}})$", re.IGNORECASE)
_NUMBERED = re.compile(r"^(\d{1,2})\s*\.\s+([A-Z][A-Za-z,’'&()\- ]{3,80})$")
_NOTES_START = re.compile(r"^notes?\s+to\s+(?:the\s+)?(?:condensed\s+)?(?:consolidated\s+)?(?:interim\s+)?"
                          r"(?:unaudited\s+)?financial\s+statements\b", re.IGNORECASE)
_STATEMENT = re.compile(
    r"^(?:unaudited\s+)?(?:condensed\s+)?(?:consolidated\s+)?(?:combined\s+)?(?P<kind>"
    r"statements?\s+of\s+(?:consolidated\s+)?(?:operations|income|earnings|comprehensive\s+(?:income|loss|earnings)"
    r"|cash\s+flows?|financial\s+position|(?:changes\s+in\s+)?(?:stockholders|shareholders|share\s*owners)['’]?\s+equity"
    r"|(?:changes\s+in\s+)?equity)|balance\s+sheets?)\b(?P<rest>.*)$",
    re.IGNORECASE,
)
# the kinds as questions name them
_KIND_WORDS = [
    (re.compile(r"comprehensive", re.I), "statement of comprehensive income"),
    (re.compile(r"operations|income|earnings", re.I), "income statement statement of operations"),
    (re.compile(r"balance|financial\s+position", re.I), "balance sheet statement of financial position"),
    (re.compile(r"cash", re.I), "cash flow statement statement of cash flows"),
    (re.compile(r"equity", re.I), "statement of shareholders equity"),
]
STATEMENT_LINES = 8  # a statement's title is among the first lines of its page
TOC_ITEMS = 5


def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in (text or "").splitlines() if line.strip()]


def _title(rest: str, following: str | None) -> str | None:
    """An item's title: the rest of its line, or the next line when the line holds the number only."""
    rest = rest.strip(" .:-–—")
    if not rest and following and following[:1].isupper() and not _ITEM.match(following):
        rest = following
    if rest and not rest[:1].isupper() and not rest.startswith("["):  # "Item 8 of this report": a reference
        return None
    return rest[:100]


def statement_kind(lines: list[str]) -> str | None:
    """Kind words of the primary statement a page prints at its top ("income statement ..."), or None."""
    for line in lines[:STATEMENT_LINES]:
        m = _STATEMENT.match(line)
        rest = m.group("rest").strip() if m else ""
        if m and (not rest or (rest[0] in "(-–—,:" and len(rest) <= 40)):
            for pattern, words in _KIND_WORDS:
                if pattern.search(m.group("kind")):
                    return f"{m.group('kind')} {words}"
    return None


def page_sections(page_texts: list[str]) -> list[str]:
    """One label per page: the item and note in force at its top or opened on it, and the statement it prints."""
    labels: list[str] = []
    item: str | None = None
    note: str | None = None
    in_notes = False
    for text in page_texts:
        lines = _lines(text)
        item_parts: list[str] = [item] if item else []
        note_parts: list[str] = [note] if note else []
        items: list[tuple[str, str]] = []
        for i, line in enumerate(lines):
            m = _ITEM.match(line)
            if m:
                title = _title(m.group(2), lines[i + 1] if i + 1 < len(lines) else None)
                if title is not None:
                    items.append((m.group(1).upper(), title))
        toc = len({n for n, _ in items}) >= TOC_ITEMS
        note_index = sum(bool(_NOTE.match(line)) for line in lines) >= TOC_ITEMS  # an index of the notes
        for i, line in enumerate(lines):
            m = _ITEM.match(line)
            if m and not toc:
                title = _title(m.group(2), lines[i + 1] if i + 1 < len(lines) else None)
                if title is not None:
                    item, note, in_notes = title, None, False
                    item_parts.append(item)
                continue
            if _NOTES_START.match(line):
                in_notes = True
                continue
            m = _NOTE.match(line) or (_NUMBERED.match(line) if in_notes else None)
            if m and not (toc or note_index):
                note, in_notes = m.group(2).strip(), True
                note_parts.append(note)
        # the narrowest part: a statement's kind, else the notes, else the items (an item's title on every
        # page of its notes would match questions about any of them); a current report's items on their page only
        kind = statement_kind(lines)
        parts = [kind] if kind else note_parts or item_parts
        for i, line in enumerate(lines):
            m = _EVENT_ITEM.match(line)
            if m:
                title = m.group(2).strip() or (lines[i + 1] if i + 1 < len(lines) else "")
                parts.append(f"{EVENT_ITEM_LABEL} {m.group(1)} {title[:80]}")
        labels.append(" | ".join(dict.fromkeys(parts)))
    return labels


_STATEMENT_NAMES = ("statement of comprehensive income", "cash flow statement", "balance sheet",
                    "statement of shareholders equity", "income statement")


def statement_name(label: str) -> str | None:
    """How an analyst names the primary statement a page label carries ("cash flow statement"), or None."""
    low = (label or "").lower()
    return next((n for n in _STATEMENT_NAMES if n in low), None)


def page_header(label: str, issuer: str | None = None, form: str | None = None, year: int | None = None,
                quarter: int | None = None) -> str:
    """What the page scorer reads beside a page's chunks (storage/retrieval/page_scorer.py): the filing's
    issuer, form and period and the page's section label, "Boeing 10-K FY2019 | Statements of Cash Flows ..."."""
    period = f"{f'Q{quarter} ' if quarter else ''}FY{year}" if year else ""
    head = " ".join(p for p in (issuer or "", form or "", period) if p)
    return f"{head} | {label[:160]}" if label else head
