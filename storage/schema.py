"""The data model shared by storage, agent and UI: chunks, sources and citations.

Page numbers: `Chunk.page_number` and `Source.page_number` are **0-based** (PyMuPDF's page
index, also the FinanceBench convention). Only `CitationMetadata.page` is **1-based**, because
it is what people read. Convert with `display_page()` / `page_index()` and nowhere else.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

ChunkType = Literal["text", "table", "page_ocr", "image_ocr"]
SourceKind = Literal["document", "web", "page", "knowledge"]
FormType = Literal["10-K", "10-Q", "8-K", "earnings release", "annual report", "other"]


def display_page(page_number: int | None) -> int | None:
    """0-based page index -> the 1-based page number shown to people."""
    return None if page_number is None else page_number + 1


def page_index(page: int | None) -> int | None:
    """The inverse of `display_page`: a 1-based page number -> 0-based index (None if not a page)."""
    return page - 1 if page and page > 0 else None


class Chunk(BaseModel):
    """One retrievable piece of a PDF."""

    chunk_id: int  # unique within one PDF, 0..n-1 in reading order
    text: str
    source_file: str  # the PDF's file name, e.g. "BOEING_2022_10K.pdf"
    doc_id: str  # content-addressed key of the PDF: "<slug>-<sha256[:12]>"
    page_number: int  # 0-based page the chunk starts on
    page_end: int  # 0-based page the chunk ends on (== page_number unless it spans pages)
    chunk_type: ChunkType = "text"
    image_path: str | None = None  # for image_ocr chunks: path of the extracted image


class DocumentInfo(BaseModel):
    """What a PDF is, read at ingestion from its cover page and metadata (storage/documents/metadata.py).

    SEC filings get issuer, form and period; any other PDF degrades to a title and a date.
    """

    title: str  # human title, unique in the library: "3M · 10-K · FY2018"
    issuer: str | None = None  # "3M Company"
    form: FormType = "other"
    fiscal_year: int | None = None  # the fiscal year the document covers (FY2018 -> 2018)
    fiscal_quarter: int | None = None  # 1-4 for quarterly documents
    period_end: str | None = None  # ISO date the covered period ends, when printed ("2018-12-31")
    date: str | None = None  # ISO date of the document itself (filing, release, PDF metadata)

    @property
    def period_label(self) -> str:
        """"Q2 FY2023", "FY2018", a date, or "" when nothing is known."""
        if self.fiscal_year and self.fiscal_quarter:
            return f"Q{self.fiscal_quarter} FY{self.fiscal_year}"
        if self.fiscal_year:
            return f"FY{self.fiscal_year}"
        return self.period_end or self.date or ""


class RetrievedChunk(BaseModel):
    """A chunk with the score the retriever gave it (higher is better)."""

    chunk: Chunk
    score: float
    dense_score: float | None = None
    sparse_score: float | None = None
    document: DocumentInfo | None = None  # what the chunk's PDF is (title, period), when known


class Source(BaseModel):
    """A source handed to the model in tool output.

    `source_id` is empty when a tool produces it and is assigned by the citation
    renumbering step: "[^3]" (document), "{^2}" (web), "[^Current Page]" (page image),
    "Q301" (knowledge item, shown as "[8.1]").
    """

    kind: SourceKind
    source_id: str = ""
    text: str = ""
    title: str = ""
    doc_id: str | None = None
    source_file: str | None = None
    page_number: int | None = None  # 0-based
    chunk_id: int | None = None
    chunk_type: ChunkType | None = None
    url: str | None = None
    score: float | None = None
    extra: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def from_retrieved(cls, hit: RetrievedChunk) -> "Source":
        c = hit.chunk
        extra = {"page_end": c.page_end, "image_path": c.image_path}
        if hit.document is not None:
            extra["period"] = hit.document.period_label
            extra["issuer"] = hit.document.issuer
        return cls(
            kind="document",
            text=c.text,
            title=hit.document.title if hit.document is not None else c.source_file,
            doc_id=c.doc_id,
            source_file=c.source_file,
            page_number=c.page_number,
            chunk_id=c.chunk_id,
            chunk_type=c.chunk_type,
            score=hit.score,
            extra=extra,
        )


class CitationMetadata(BaseModel):
    file: str | None = None
    page: int | None = None  # 1-based
    chunk_id: int | None = None
    url: str | None = None
    doc_id: str | None = None
    q_id: str | None = None
    category: str | None = None
    disambiguated: bool = False
    candidates: list[str] = Field(default_factory=list)
    quotes: list[str] = Field(default_factory=list)  # what the answer quotes from this source (highlighted)
    columns: list[str] = Field(default_factory=list)  # a quoted table row's column headers (its periods)


class Citation(BaseModel):
    """One citation shown under an answer. The only citation type in the project."""

    number: str  # the label shown: "3", "Current Page", "8.1"
    marker: str  # the exact marker text in the answer: "[^3]", "{^2}", "[8.1]"
    kind: SourceKind
    documentId: str  # doc_id, url or Q-number
    documentTitle: str
    snippet: str
    preview: str
    metadata: CitationMetadata = Field(default_factory=CitationMetadata)


ClaimProblemKind = Literal["figure", "quote", "arithmetic"]


class ClaimProblem(BaseModel):
    """One thing a cited sentence states that its sources do not print (agent/claims/check.py)."""

    kind: ClaimProblemKind
    text: str  # as the answer writes it: "$9.9 trillion", a quoted span, "170,782 / 394,328 = 45.3%"


class ClaimCheck(BaseModel):
    """A cited sentence of an answer checked against the text of the sources it cites.

    Keyed by source id (the marker text in the stored answer, "[^3]"), never by a display number, so
    the UI shows the mark with whatever label that marker is displayed as."""

    sentence: str  # the sentence as written, markers removed
    marker_index: int  # which marker of the answer (0-based, in `iter_markers` order) ends the sentence
    source_ids: list[str] = Field(default_factory=list)  # the markers the sentence cites
    problems: list[ClaimProblem] = Field(default_factory=list)  # empty: every figure and quote was found
    source_says: dict[str, str] = Field(default_factory=dict)  # source id -> its closest passage (failed only)

    @property
    def ok(self) -> bool:
        return not self.problems


class AnswerResult(BaseModel):
    """What one turn of the agent returns to the UI (and stores with the AI message)."""

    message: str
    citations: list[Citation] = Field(default_factory=list)
    citation_map: dict[str, Any] = Field(default_factory=dict)
    route: Literal["documents", "web", "conversation", "ingest"] = "conversation"
    mode: Literal["llm", "extractive"] = "llm"
    saved: bool = True  # False when the history store could not persist the turn
    error: str | None = None
    active_doc_ids: list[str] | None = None  # set when the turn switched the active PDF(s) (/ingest)
    ingest_job_id: str | None = None  # the processing job an /ingest queued (the page follows it)
    claims: list[ClaimCheck] = Field(default_factory=list)  # each cited sentence checked (agent/claims/check.py)


class PageContent(BaseModel):
    """The text of one PDF page as extracted (text layer or OCR), input to chunking."""

    page_number: int  # 0-based
    text: str
    is_ocr: bool = False  # True when the page had no text layer and was OCRed


Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in PDF points, origin at the page's top left


class Fact(BaseModel):
    """One value of a table, read once at ingestion (storage/documents/facts.py) and stored with the build.

    The printed forms are kept as printed (checkable on the page); the parsed ones are None where the
    page does not say them."""

    page: int  # 0-based
    table: int  # the table's index on its page (0-based, reading order)
    label: str  # the row label as printed
    concept: str | None = None  # the line item's US-GAAP concept (storage/finance/line_items.row_item), None when unknown
    section: str = ""  # the row's section ("Current liabilities")
    path: list[str] = Field(default_factory=list)  # the table's caption and the row's section: ["Americas Segment", "Net sales"]
    column: int  # the value's column in its table (0-based)
    period: str  # the column's period as printed ("Years ended December 31, 2022")
    period_start: str | None = None  # ISO dates of the span ("2022-01-01" .. "2022-12-31")
    period_end: str | None = None
    duration_months: int | None = None  # 3, 6, 9, 12
    as_of: str | None = None  # a date without a span: a balance's date
    fiscal_year: int | None = None  # the year the column names
    unit: str = ""  # "USD", "USD/share", "%", "shares", "people", "ratio", "bp", "EUR", "" when unknown
    scale: float = 1.0  # what the printed number is multiplied by (the table's caption; 1 for per-share and %)
    scale_caption: str = ""  # the caption as printed ("In millions, except per share data")
    value_text: str  # the value as printed ("(1,577)", "$34,229", "43.3%")
    value: float | None = None  # the number printed (-1577.0), None for a dash or text; times `scale` for the amount
    label_box: Box | None = None  # None for an OCR page read by its text alone (no engine gave word boxes)
    value_box: Box | None = None
