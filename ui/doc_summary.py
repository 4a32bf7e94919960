"""What an empty chat shows: a short overview of each selected PDF (what it is, the period it
covers, what the company does and its headline figures, each opening its page with the row
highlighted; ui/doc_brief.py) and questions it can answer.

Everything comes from what ingestion stored (the manifest's DocumentInfo, headings and page
texts) and the statement pages' rows as the answering code reads them (storage/documents/page_tables.py),
so no model is needed and a suggested figure question names a line the document prints.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

import streamlit as st

from storage.documents.catalog import library_infos, list_processed_pdfs, load_page_texts
from storage.documents.page_tables import statement_pages, table_units
from storage.documents.tables import split_row
from storage.finance.line_items import row_item
from ui.citation_view import open_in_viewer
from ui.doc_brief import business_sentences, headline_figures
from ui.safe_text import escape_markdown

log = logging.getLogger(__name__)

MAX_ITEMS = 6  # statement lines listed per document
MAX_SUGGESTIONS = 4
# The lines readers ask about first, in this order; any other printed line item comes after them.
_FIRST = ("Revenues", "NetIncomeLoss", "OperatingIncomeLoss", "NetCashProvidedByUsedInOperatingActivities",
          "PaymentsToAcquirePropertyPlantAndEquipment", "CashAndCashEquivalentsAtCarryingValue",
          "EarningsPerShareDiluted", "GrossProfit")
_FORM_WORDS = {"10-K": "annual report", "10-Q": "quarterly report", "8-K": "current report",
               "earnings release": "earnings release", "annual report": "annual report"}


@dataclass(frozen=True)
class DocOverview:
    doc_id: str
    title: str
    kind: str  # "acme_2018.pdf · annual report · period ended 2018-12-31 · 4 pages"
    subject: str  # how a question names the document: "Acme Rockets", or its title
    period: str  # "FY2018", a date, or ""
    headings: tuple[str, ...] = ()
    line_items: tuple[str, ...] = field(default=())  # statement lines as printed: "Net earnings"
    description: str = ""  # what the company does, in its own first sentences
    headlines: tuple = ()  # ui.doc_brief.Headline rows: the figures a reader wants first
    file: str = ""  # the PDF's file name (opens its pages)


def overview_of(pdf, info) -> DocOverview:
    """The overview of one processed PDF (`ProcessedPdf`) with its library `DocumentInfo` (or None)."""
    # A filing's library title ("Acme · 10-K · FY2018"); other PDFs by their own title, else file name.
    title = (info.title if info and info.issuer else "") or pdf.title or pdf.source_file
    period = info.period_label if info else ""
    form = _FORM_WORDS.get(info.form, "") if info else ""
    parts = [pdf.source_file if pdf.source_file != title else "", form if form.lower() not in title.lower() else ""]
    if period:  # said once: the title often names the period already
        ended = f"period ended {info.period_end}" if info.period_end and info.period_end != period else ""
        parts.append(ended if period in title else ", ".join(p for p in (period, ended) if p))
    parts.append(f"{pdf.page_count} page{'s' if pdf.page_count != 1 else ''}")
    headings = tuple(dict.fromkeys(h for h in pdf.headings if 3 < len(h) <= 80 and h.lower() not in title.lower()
                                   and title.lower() not in h.lower()))[:6]
    year = int(info.period_end[:4]) if info and info.period_end and info.period_end[:4].isdigit() else 0
    return DocOverview(
        doc_id=pdf.doc_id, title=title, kind=" · ".join(p for p in parts if p),
        subject=(info.issuer if info and info.issuer else title), period=period, headings=headings,
        line_items=statement_lines(pdf.doc_id, pdf.processed_at),
        description=business_sentences(pdf.doc_id, pdf.processed_at),
        headlines=headline_figures(pdf.doc_id, pdf.processed_at, year), file=pdf.source_file,
    )


@lru_cache(maxsize=128)
def statement_lines(doc_id: str, processed_at: str = "") -> tuple[str, ...]:
    """Labels of the line items the PDF's primary statements print (as printed), most asked first.
    `processed_at` keys the cache: a re-indexed PDF is read afresh."""
    try:
        texts = load_page_texts(doc_id)
        pages = statement_pages(doc_id)
    except (OSError, ValueError):
        return ()
    found: dict[str, str] = {}  # concept -> first printed label
    for index in pages[:8]:
        for unit in table_units(doc_id, index, texts[index] if index < len(texts) else ""):
            if not unit.is_table_row or unit.is_header:
                continue
            label = " ".join((unit.label or split_row(unit.text)[0]).split()).rstrip(":")
            item = row_item(label, unit.section) if 3 <= len(label) <= 60 else None
            if item is not None and not item.percent:
                found.setdefault(item.concept, label)
    ranked = [c for c in _FIRST if c in found] + [c for c in found if c not in _FIRST]
    return tuple(found[c] for c in ranked[:MAX_ITEMS])


def in_sentence(label: str) -> str:
    """A printed row label inside a sentence: its first word lower-cased unless it is an acronym or a
    name ("Net earnings attributable to General Mills" -> "net earnings attributable to General Mills");
    a label printed in capitals is lower-cased whole ("NET SALES" -> "net sales")."""
    if label.isupper() and " " in label:
        return label.lower()
    first, _, rest = label.partition(" ")
    if first[:1].isupper() and first[1:].islower():  # "Net", not "EBITDA" nor "iPhone"
        first = first.lower()
    return f"{first} {rest}" if rest else first


def suggested_questions(overviews: list[DocOverview], limit: int = MAX_SUGGESTIONS) -> list[str]:
    """Questions the selected documents answer: a printed statement line of each, in turn (its
    period named, so the answer is that document's figure), else a section of it."""
    per_doc: list[list[str]] = []
    for o in overviews:
        when = f" in {o.period}" if o.period else ""
        asks = [f"What did {o.subject} report for {in_sentence(label)}{when}?" for label in o.line_items]
        asks += [f"What does {o.subject} say about “{h.rstrip('.')}”?" for h in o.headings[:2]]
        per_doc.append(asks)
    out: list[str] = []
    for round_ in range(max((len(a) for a in per_doc), default=0)):  # one per document in turn
        for asks in per_doc:
            if round_ < len(asks) and asks[round_] not in out:
                out.append(asks[round_])
    return out[:limit]


@st.cache_data(show_spinner=False, max_entries=64)
def _overviews(key: tuple[tuple[str, str], ...]) -> list[DocOverview]:
    # `key` (doc_id, processed_at) of each selected PDF keys the cache; the manifests are read here.
    wanted = [d for d, _ in key]
    pdfs = {p.doc_id: p for p in list_processed_pdfs() if p.doc_id in wanted}
    infos = library_infos()
    return [overview_of(pdfs[d], infos.get(d)) for d in wanted if d in pdfs]


def headline_text(h) -> str:
    """ "Net sales: $48,200 (Years ended December 31, 2019; in millions)" """
    about = "; ".join(x for x in (h.column, h.unit) if x)
    return f"{h.label}: {h.value}" + (f" ({about})" if about else "")


def _headlines(o: DocOverview) -> None:
    """The headline figures, each with its page: a click opens it with the row highlighted."""
    for i, h in enumerate(o.headlines):
        row = st.container(horizontal=True, vertical_alignment="center", gap="small")
        row.markdown(escape_markdown(headline_text(h)))
        if row.button(f"page {h.page + 1}", key=f"headline-{o.doc_id}-{i}", type="tertiary", icon=":material/article:",
                      help="Open this page with the row highlighted"):
            open_in_viewer(o.doc_id, o.file, h.page, h.quote)


def render_overview(pdfs: list, on_ask: Callable[[str], None]) -> None:
    """The empty chat: what the selected PDFs (`ProcessedPdf`s) are, and questions to start with."""
    try:
        overviews = _overviews(tuple((p.doc_id, p.processed_at) for p in pdfs))
    except Exception:  # noqa: BLE001 - an overview (manifests, table rows) is a nicety: the chat works without it
        log.exception("no overview of the selected PDFs")
        overviews = []
    st.caption("Ask a question about the selected PDFs. Every answer links to the pages it used.")
    if not overviews:
        return
    many = len(overviews) > 3
    with st.expander(f"The {len(overviews)} selected PDFs", expanded=not many, icon=":material/description:"):
        for o in overviews:
            st.markdown(f"**{escape_markdown(o.title)}** · {escape_markdown(o.kind)}")
            if o.description:
                st.markdown(escape_markdown(o.description))
            _headlines(o)
            if o.headings and not many and not o.description:
                st.caption("Sections: " + " · ".join(escape_markdown(h) for h in o.headings))
    questions = suggested_questions(overviews)
    if questions:
        st.caption("Try asking")
        with st.container(gap="small"):  # one per line: a row of them cuts long questions short on a phone
            for i, q in enumerate(questions):
                st.button(escape_markdown(q), key=f"suggest-{i}", icon=":material/chat_bubble:", on_click=on_ask,
                          args=(q,))
