"""Citation logic the pages need, without Streamlit: labels, answer text with markers
replaced by badges, and where a cited page lives on disk.

Markers are matched by the exact `Citation.marker` strings the agent stored with the answer
(`[^3]`, `{^2}`, `[^Current Page]`, `[8.1]`), so UI and agent always agree on what is a marker;
marker-like text without a citation stays literal text. Readers see each answer's own numbers,
1…n in order of first use (agent/citations/numbering.py), on the page and in the export alike.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from pydantic import ValidationError

from agent.markers import MARKER_LINK_RE, iter_markers, map_outside_addresses, map_prose, prose_segments
from agent.citations.numbering import display_citations
from agent.citations.quotes import ROW_GAP
from storage.documents.catalog import load_manifest
from storage.documents.intake import compute_doc_id
from storage.settings import get_settings
from storage.schema import Citation, ClaimCheck, page_index as schema_page_index
from ui.claim_marks import claims_citing, failed_at, not_found_text, problems_text
from ui.safe_text import safe_model_markdown

_BADGE_SAFE = re.compile(r"[^\w .\-]")
ROUTE_LABELS = {
    "documents": "from your documents",
    "web": "from a web search",
    "conversation": "from the conversation",
    "ingest": "document processing",
}


def citation_label(c: Citation) -> str:
    """Short label shown in the answer and on the button: "3", "web 2", "Current Page", "8.1"."""
    number = _BADGE_SAFE.sub("", c.number or "") or "?"
    return f"web {number}" if c.kind == "web" else number


def citation_location(c: Citation) -> str:
    """Where the citation points, in words: "report.pdf, page 2", a site title, "Q&A 8.1"."""
    m = c.metadata
    if c.kind in ("document", "page"):
        file = m.file or c.documentTitle or "unknown file"
        return f"{file}, page {m.page}" if m.page else file
    if c.kind == "web":
        return c.documentTitle or m.url or "web page"
    return f"Q&A {c.documentTitle or m.q_id or c.number}"


def cited_words(c: Citation) -> str:
    """The cited part of the source: the agent's snippet without its clipping ellipses."""
    text = (c.snippet or c.preview or "").strip()
    if text.startswith("…"):
        text = text[1:].lstrip()
    if text.endswith("…"):
        text = text[:-1].rstrip()
    return text


def quoted_once(c: Citation) -> list[tuple[str, tuple[int, int] | None]]:
    """The cited words as a reader is shown them, each quote once: (quote, the span of it to mark).
    A cell quote ("Net earnings … 9,100") whose whole row is quoted too ("Net earnings 9,100 8,200")
    is that row with its value marked, not a second line saying the same."""
    quotes = list(dict.fromkeys(q.strip() for q in c.metadata.quotes if q.strip()))
    if not quotes:
        return [(w, None)] if (w := cited_words(c)) else []
    rows = [q for q in quotes if ROW_GAP not in q]
    marks: dict[str, tuple[int, int]] = {}
    cells: set[str] = set()
    for q in quotes:
        if ROW_GAP in q:
            label, value = q.split(ROW_GAP, 1)
            for row in rows:
                if span := _value_in_row(label, value, row):
                    marks.setdefault(row, span)
                    cells.add(q)
                    break
    return [(q, marks.get(q)) for q in quotes if q not in cells]


def _value_in_row(label: str, value: str, row: str) -> tuple[int, int] | None:
    """Where `row`, starting with `label`, prints `value` after it (a "$" set apart or not)."""
    words = label.split()
    start = re.match(r"\s*" + r"\s+".join(re.escape(w) for w in words), row, flags=re.IGNORECASE) if words else None
    if start is None:
        return None
    number = re.escape(value.lstrip("$€£"))
    m = re.compile(rf"(?<![\d.,]){number}(?![\d]|[.,]\d)").search(row, start.end())
    return m.span() if m else None


def highlight_text(c: Citation) -> str:
    """What the page image marks for this citation: a chunk's cited words; for a whole-page citation
    (a statement page, "this page") only the quotes the answer took from it (a table row as
    "<label> … <value>" or the row as printed), since its snippet is just the page's opening text."""
    if c.kind == "document":
        return cited_words(c)
    if c.kind == "page" and c.metadata.quotes:
        return "\n".join(q for q in c.metadata.quotes if q.strip())
    return ""


def table_columns(c: Citation) -> list[str]:
    """The column headers shown with a quoted table row, each once ("May 26, 2019 | May 26, 2019"
    says nothing a reader can use twice)."""
    return list(dict.fromkeys(col for col in c.metadata.columns if col.strip()))


def parse_citations(raw: Iterable[Any] | None) -> list[Citation]:
    """Citations as stored with a message (dicts) or returned by the agent (models)."""
    out: list[Citation] = []
    for item in raw or []:
        try:
            out.append(item if isinstance(item, Citation) else Citation.model_validate(item))
        except ValidationError:  # a malformed stored citation must not hide the whole answer
            continue
    return out


def _safe_prose(text: str) -> str:
    # Code spans render literally (no links/HTML), and escapes inside them would show, so only
    # the prose around them is escaped.
    return map_prose(text, safe_model_markdown)


_KEY_SAFE = re.compile(r"[^a-zA-Z0-9_-]")


def element_key(key: str) -> str:
    """A widget key made of the characters Streamlit keeps in its `st-key-<key>` CSS class."""
    return _KEY_SAFE.sub("-", key)


def cite_anchor(button_key: str) -> str:
    """The in-page link of a citation marker: `#cite-<key of the citation's button>` (see
    ui/citation_view.py, whose page script turns a click on it into a click on that button)."""
    return f"#cite-{element_key(button_key)}"


def unwrap_marker_links(text: str, citations: list[Citation]) -> str:
    """Markers a model wrapped in a Markdown link (`[[^1]](url)`) as plain markers, so they show as
    references, never as links; the URL is kept after them unless it is the cited page's own."""
    by_marker = {c.marker: c for c in citations if c.marker}

    def unwrap(m) -> str:
        markers = [mk.text for mk in iter_markers(m.group("markers"))]
        if not markers or any(mk not in by_marker for mk in markers):
            return m.group(0)
        url = m.group("url")
        own = {by_marker[mk].metadata.url or by_marker[mk].documentId for mk in markers}
        return "".join(markers) + ("" if not url or url in own else f" ({url})")

    return map_prose(text or "", lambda prose: MARKER_LINK_RE.sub(unwrap, prose))


def answer_markdown(text: str, citations: list[Citation], button_keys: list[str] | None = None,
                    claims: list[ClaimCheck] | None = None) -> str:
    """The answer as safe markdown, each marker that has a citation replaced by a compact badge
    showing its number in this answer (`display_citations`).

    Markers are found with the agent's own `iter_markers` (which skips code and addresses) and
    matched by their exact text to `Citation.marker`; a marker without a citation stays literal text.
    With `button_keys` (the key of each citation's button, in `citations` order) the badge is a
    link to `cite_anchor(key)`, so clicking the number in the text opens that citation. A sentence
    the claim check failed (`claims`) gets a "not found in [n]" badge after its last marker.
    """
    text = unwrap_marker_links(text or "", citations)
    index = {c.marker: i for i, c in enumerate(citations) if c.marker}
    shown = display_citations(text, citations)
    by_marker = {c.marker: (index[c.marker], c) for c in shown if c.marker}
    failed = failed_at(claims)
    out: list[str] = []
    pos = 0
    for k, m in enumerate(iter_markers(text)):
        found = by_marker.get(m.text)
        if found is None:
            continue
        i, c = found
        out.append(_safe_prose(text[pos : m.start]))
        badge = f":blue-badge[{citation_label(c)}]"
        out.append(f" [{badge}]({cite_anchor(button_keys[i])})" if button_keys else f" {badge}")
        out += [f" :orange-badge[:material/warning: {not_found_text(f, shown, citation_label).replace('[', '').replace(']', '')}]"
                for f in failed.get(k, [])]
        pos = m.end
    out.append(_safe_prose(text[pos:]))
    return "".join(out)


def safe_url(url: str | None) -> str | None:
    """Only http(s) URLs become links; anything else (javascript:, data:) is shown as text."""
    return url if url and re.fullmatch(r"https?://\S+", url, flags=re.IGNORECASE) else None


def page_index(c: Citation) -> int | None:
    """0-based page index of a document/page citation (metadata.page is 1-based)."""
    return schema_page_index(c.metadata.page)


@lru_cache(maxsize=512)
def _doc_id_of(path: str, size: int, mtime_ns: int) -> str:
    return compute_doc_id(Path(path))


def doc_id_of_file(path: Path) -> str:
    """The doc_id of the PDF at `path` as it is now (content hash, cached per size and mtime)."""
    stat = path.stat()
    return _doc_id_of(str(path), stat.st_size, stat.st_mtime_ns)


def resolve_pdf_path(doc_id: str | None, file: str | None) -> Path | None:
    """The PDF on disk behind a citation: the processed PDF's recorded path, else the source folder.

    With a `doc_id` the file must still have the content that was processed (doc_ids are content
    hashes): a PDF replaced under the same name would put other pages behind the citation, so
    None is returned instead.
    """
    candidates: list[Path] = []
    if doc_id:
        try:
            candidates.append(Path(load_manifest(doc_id).source_path))
        except (OSError, ValueError):  # not processed (any more), or a damaged manifest
            pass
    if file:
        candidates.append(get_settings().source_dir / Path(file).name)
    for path in candidates:
        try:
            if path.is_file() and (not doc_id or doc_id_of_file(path) == doc_id):
                return path
        except OSError:  # vanished or unreadable meanwhile
            continue
    return None


def _plain(text: str) -> str:
    return text


def escape_brackets(text: str) -> str:
    """Literal brackets escaped for Markdown (`Item \\[8.1\\]`), except inside addresses."""
    return map_outside_addresses(text, lambda part: re.sub(r"([\[\]])", r"\\\1", part))


_LITERAL_REFERENCE = re.compile(r"\[((?:web )?\d+)\]")


def _plain_brackets(text: str) -> str:
    """Copy text: a bracketed number the answer writes itself ("reference [1]") in parentheses, so
    only the references read as "[1]"."""
    return map_outside_addresses(text, lambda part: _LITERAL_REFERENCE.sub(r"(\1)", part))


def _escape_export(text: str) -> str:
    """Export prose: literal brackets escaped (`escape_brackets`) and every `<` too, so no HTML of
    the answer (an `<img>`, a link) is rendered."""
    return escape_brackets(text).replace("<", "\\<")


def _around_reference(text: str, out: list[str], markdown: bool, before: bool = False) -> str:
    """Prose around a reference "[1]": a "(" or ":" right after it would make it a link or a link
    definition ("[1](url)", "[1]: url"), a "!" right before it an image: escaped in Markdown (the
    copy text, plain, only keeps "(" apart)."""
    after = bool(out) and out[-1].startswith("[") and text[:1]
    if not markdown:  # pasted where Markdown renders, "[1](url)" would still link
        return " " + text if after and text[:1] == "(" else text
    if after and text[:1] in "(:":
        text = "\\" + text
    return text[:-1] + "\\!" if before and text.endswith("!") else text


def citation_footnote(c: Citation, escape=_plain) -> str:
    """One citation as a plain-text footnote: where it points (file and 1-based page, site and URL,
    or Q&A item) and the cited words (`escape` applied to those)."""
    m = c.metadata
    where = escape(citation_location(c))
    if c.kind == "web" and (m.url or c.documentId):
        where = f"{where} <{m.url or c.documentId}>"
    if c.kind == "document" and m.chunk_id is not None:
        where = f"{where}, chunk {m.chunk_id}"
    quote = escape(" ".join(" ".join(q for q, _ in quoted_once(c)).split()))
    return f"[{citation_label(c)}] {where}" + (f": “{quote}”" if quote else "")


def answer_with_footnotes(text: str, citations: list[Citation], claims: list[ClaimCheck] | None = None, *,
                          markdown: bool = False) -> str:
    """An answer as plain text for copying or export: each marker replaced by its number in this
    answer in brackets ("[1]", "[web 2]"), then one footnote per citation in that order. With
    `markdown`, every other bracket (a filing's "Item [8.1]", a literal "[1]") is escaped, so
    only references are bracketed in the Markdown source. A sentence the claim check failed
    (`claims`) is followed by "(not found in [1])", and its citation's footnote says what its
    source says."""
    escape = _escape_export if markdown else _plain_brackets
    text = unwrap_marker_links(text or "", citations)
    citations = display_citations(text, citations)
    by_marker = {c.marker: c for c in citations if c.marker}
    failed, ordinal = failed_at(claims), itertools.count()
    out: list[str] = []
    for is_code, piece in prose_segments(text):
        pos = 0
        for mk in [] if is_code else iter_markers(piece):
            marks = "".join(f" ({not_found_text(f, citations, citation_label)})" for f in failed.get(next(ordinal), []))
            if mk.text in by_marker or marks:
                shown = f"[{citation_label(by_marker[mk.text])}]" if mk.text in by_marker else escape(mk.text)
                out += [_around_reference(escape(piece[pos:mk.start]), out, markdown, before=True), shown + marks]
                pos = mk.end
        out.append(piece[pos:] if is_code else _around_reference(escape(piece[pos:]), out, markdown))
    body = "".join(out).rstrip()
    if not citations:
        return body
    notes = []
    for c in citations:
        notes.append(citation_footnote(c, escape))
        notes += [f"    not found here: {escape(problems_text(f))}; the source says: “{escape(f.source_says[c.marker])}”"
                  for f in claims_citing(c, claims) if f.source_says.get(c.marker)]
    return body + "\n\n" + "\n".join(notes)


def conversation_markdown(title: str, turns: list, details: Iterable[str] = ()) -> str:
    """A conversation as a Markdown document: its title, `details` (date, documents, mode: one line
    each), then questions as headings and answers with footnoted citations (file, page and quote
    for every one)."""
    parts = [f"# {' '.join((title or 'Conversation').split())}", ""]
    if details:
        parts += ["  \n".join(" ".join(d.split()) for d in details), ""]
    for turn in turns:
        if turn.role == "user":
            parts += [f"## {' '.join(turn.text.split())}", ""]
        else:
            parts += [answer_with_footnotes(turn.text, turn.citations, getattr(turn, "claims", None), markdown=True), ""]
            if getattr(turn, "stopped", False):
                parts += ["_(stopped: incomplete answer)_", ""]
    return "\n".join(parts).rstrip() + "\n"
