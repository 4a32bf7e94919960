"""What a PDF is: issuer, form, period and a human title, read from its cover page.

SEC filings print the same cover everywhere ("FORM 10-K", "For the fiscal year ended February 2,
2019", the registrant's name above "(Exact name of registrant as specified in its charter)");
earnings releases open with a headline ("Best Buy Reports Fourth Quarter Results", "Ulta Beauty
Announces Fourth Quarter Fiscal 2022 Results") and a dateline. Those are the evidence. Any other
PDF (a paper, a manual, a contract) degrades to a title (metadata title or the largest lines of
page 1) and a date (PDF metadata). The file name is a last-resort hint for the year only.

Fiscal years: `fiscal_year` is the label the company itself uses ("fiscal 2022" for Ulta's year
ended January 28, 2023; "fiscal 2023" for Best Buy's year ended the same day), read from the
first pages; without a label it is the calendar year the fiscal year ends in. `period_end` keeps
the calendar date, so a question may match either convention (see `document_years`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Iterable

from storage.documents.pdf_errors import PDF_ERRORS
from storage.finance.forms import COVER_FORM, PRIOR_ANNUAL_REPORT
from storage.finance.periods import (ANY_SPAN_ENDED, COVER_QUARTER_ENDED, COVER_YEAR_ENDED, DATE, FISCAL_LABEL, FISCAL_YEAR_END_SAID,
                                     MONTHS_ENDED, OWN_QUARTER, QUARTER_ORDINAL, QUARTER_ORDINALS, QUARTER_WORDS, YEAR_RE,
                                     parse_date)
from storage.schema import DocumentInfo, PageContent

READER = 3  # bump when a change to reading covers changes stored info: older manifests' info is read again
COVER_PAGES = 3  # where the SEC cover (or an EDGAR Online wrapper, then the cover) is
WRAPPED_COVER_PAGES = 6  # an annual report's own pages before the 10-K cover it binds in
LABEL_PAGES = 12  # where the company's own fiscal-year label ("fiscal 2019") is counted

_EVENT_DATE = re.compile(r"date\s+of\s+report\b", re.IGNORECASE)
_REGISTRANT = re.compile(r"\(\s*exact\s+name\s+of\s+(?:the\s+)?registrant", re.IGNORECASE)
# the same label as a table's column header, the name in the row below ("Commission File Number | Exact Name of
# Registrant as Specified in its Charter | State" / "1-4242 | ACME ROCKETS, INC. | Delaware")
_REGISTRANT_HEADER = re.compile(r"exact\s+name\s+of\s+(?:the\s+)?registrant", re.IGNORECASE)
_CAPS_NAME = re.compile(
    r"(?<![\w&])([A-Z][A-Z0-9&.'\-]*(?:\s+[A-Z0-9&][A-Z0-9&.'\-]*)*?,?\s+"
    r"(?:INC|INCORPORATED|CORP|CORPORATION|COMPANY|CO|LTD|LIMITED|PLC|LLC|L\.P|N\.V|S\.A|HOLDINGS|GROUP)\.?)(?![\w&])")
_LEGAL_SUFFIX = (r"(?:INC|INCORPORATED|CORP|CORPORATION|COMPANY|CO|LTD|LIMITED|PLC|LLC|L\.P|N\.V|S\.A|HOLDINGS|GROUP|"
                 r"LIMITED\s+PARTNERSHIP)\.?")
_ENDS_WITH_SUFFIX = re.compile(rf",?\s+{_LEGAL_SUFFIX}\s*$", re.IGNORECASE)
# a table row that is only a company's name, in capitals or not: "PG&E Corporation", "ACME ROCKETS, INC."
_NAME_ROW = re.compile(rf"^\s*[A-Z][\w&.'\-]*(?:\s+[\w&.'\-]+){{0,6}}?,?\s+{_LEGAL_SUFFIX}\s*$", re.IGNORECASE)
_RELEASE_HEADLINE = re.compile(
    r"^(?P<issuer>[A-Z][\w.&,' -]{1,60}?)\s+(?:reports?|announces?|posts?|delivers?)\b(?P<rest>.{0,120})",
    re.IGNORECASE,
)
_TICKER = re.compile(r"\((?:NYSE|NASDAQ|Nasdaq|NYSE American|ASX|LSE)\s*:\s*([A-Z.]{1,6})\)")
_ISSUER_BEFORE_TICKER = re.compile(r"([A-Z][\w.&,' -]{1,60}?)\s*\((?:NYSE|NASDAQ|Nasdaq|NYSE American)\s*:")
_FISCAL_LABEL = FISCAL_LABEL
_SUFFIXES = re.compile(
    r"(?:,?\s+(?:co\.?|company|corp\.?|corporation|inc\.?|incorporated|plc|p\.l\.c\.|ltd\.?|limited|llc|l\.p\.|"
    r"n\.v\.|s\.a\.|ag|se|holdings?|group))+\.?\s*$",
    re.IGNORECASE,
)
_GENERIC_NAME_WORDS = {"the", "and", "of", "co", "company", "corp", "corporation", "inc", "incorporated", "plc",
                       "ltd", "limited", "llc", "holdings", "holding", "group", "international"}


# ---------------------------------------------------------------- small parsers


def _pdf_date(value: str | None) -> date | None:
    """PDF metadata date "D:20230301135019-06'00'" -> date."""
    m = re.match(r"D?:?(\d{4})(\d{2})(\d{2})", value or "")
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def _date_after(pattern: re.Pattern, text: str, window: int = 60) -> date | None:
    m = pattern.search(text)
    return parse_date(text[m.end() : m.end() + window]) if m else None


def _nice_case(name: str) -> str:
    """"BEST BUY CO., INC." -> "Best Buy Co., Inc." (words with digits or '&' stay as printed)."""
    if not name.isupper():
        return name
    words = []
    for w in name.split():
        words.append(w if re.search(r"[\d&]", w) else w[:1] + w[1:].lower())
    return " ".join(words)


def short_name(issuer: str) -> str:
    """"The Boeing Company" -> "Boeing", "Best Buy Co., Inc." -> "Best Buy", "3M Company" -> "3M"."""
    name = re.sub(r"^the\s+", "", issuer.strip(), flags=re.IGNORECASE)
    stripped = _SUFFIXES.sub("", name).strip(" ,.")
    return stripped or name


def name_words(issuer: str) -> list[str]:
    """Distinctive lower-case words of an issuer's short name (for matching it in a question)."""
    return [w for w in re.findall(r"[a-z0-9&]+", short_name(issuer).lower()) if w not in _GENERIC_NAME_WORDS]


# ---------------------------------------------------------------- the cover page


def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def _registrant(lines: list[str], body: str) -> str | None:
    """The registrant's name: the lines just above "(Exact name of registrant ...)"."""
    for i, line in enumerate(lines):
        # the marker may be broken over lines ("(Exact" / "name of registrant ...")
        m = _REGISTRANT.search(" ".join(lines[i : i + 3]))
        if not m or m.start() >= len(line):
            continue
        parts: list[str] = []
        before = line[: m.start()].strip()
        if before:
            parts.append(before)
        j = i - 1
        while j >= 0 and len(parts) < 4:
            cand = lines[j]
            if re.search(r"\d|_{3,}|:|\bcommission\b|\breport\b|\bperiod\b|^or$|\bact\b", cand, re.IGNORECASE) or len(cand) > 70:
                break
            parts.insert(0, cand)
            j -= 1
        name = _first_name(parts).strip(" ,")
        if name:
            return _prefer_printed_case(name, body)
    for i, line in enumerate(lines):  # the label as a column header: the name in capitals in the rows below
        if _REGISTRANT_HEADER.search(line):
            for row in lines[i + 1 : i + 3]:
                if m := _CAPS_NAME.search(row):
                    return _prefer_printed_case(m.group(1), body)
    # the header broken over the table's narrow column ("Exact Name of" / "Registrant" / "as Specified"), its rows
    # below (file number, name, state, IRS number; a second registrant after): the first row that is a company name
    for i in range(len(lines)):
        if _REGISTRANT_HEADER.search(" ".join(lines[i : i + 3])):
            for row in lines[i + 1 : i + 16]:
                if _NAME_ROW.match(row):
                    return _prefer_printed_case(row.strip(" ,"), body)
            break
    return None


def _first_name(parts: list[str]) -> str:
    """The first registrant of lines above a shared label ("BOSTON PROPERTIES, INC." / "BOSTON PROPERTIES LIMITED
    PARTNERSHIP" / "(Exact name of Registrants ..."): lines up to the first that ends with a legal suffix."""
    for k, part in enumerate(parts[:-1]):
        if _ENDS_WITH_SUFFIX.search(part):
            return " ".join(parts[: k + 1])
    return " ".join(parts)


def _prefer_printed_case(name: str, body: str) -> str:
    """Use the mixed-case spelling the document prints elsewhere ("The Boeing Company"), if any."""
    if not name.isupper():
        return name
    pattern = re.compile(re.escape(name).replace(r"\ ", r"\s+"), re.IGNORECASE)
    for m in pattern.finditer(body):
        found = " ".join(m.group(0).split())
        if not found.isupper() and found[:1].isupper():
            return found
    return _nice_case(name)


def _after_last(pattern: re.Pattern, text: str | None) -> str | None:
    """`text` after the last match of `pattern` (all of it when none), its separators trimmed; None when empty."""
    if not text:
        return text
    last = None
    for last in pattern.finditer(text):
        pass
    return (text[last.end():] if last is not None else text).strip(" ,-–—/") or None


def _after_dateline(text: str | None) -> str | None:
    """"MINNEAPOLIS, March 2, 2023 -- Best Buy Co., Inc." -> "Best Buy Co., Inc."."""
    return _after_last(DATE, text)


# a release's masthead above its headline: a banner ("NEWS RELEASE", "For Immediate Release") or the issuer's street
# address ending in a state and ZIP code ("Santa Clara, CA 95054-1549 News Release Intel" -> "Intel")
_MASTHEAD = re.compile(r"\b(?:(?:news|press|media|earnings)\s+release|for\s+immediate\s+release)\b[\s:\-–—]*"
                       r"|(?-i:\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b)[\s,\-–—]*", re.IGNORECASE)


def _quarter_from(text: str) -> int | None:
    m = QUARTER_WORDS.search(re.sub(rf"(?i)\b({QUARTER_ORDINAL})-quarter\b", r"\1 quarter", text))  # "Second-Quarter Results"
    if not m:
        return None
    if m.group(1):
        return QUARTER_ORDINALS[m.group(1).lower()]
    return int(m.group(2) or m.group(3))


def _fiscal_year_end_month(text: str) -> tuple[int, int] | None:
    """(month, day) of the fiscal year end, from "fiscal year ended January 28, 2023" anywhere."""
    d = _date_after(FISCAL_YEAR_END_SAID, text)
    return (d.month, d.day) if d else None


def _quarter_after_year_end(period_end: date | None, body: str) -> int | None:
    """A 10-Q's quarter when its first pages print no "three and nine months ended" (a glossary comes first):
    the quarters from the fiscal year end its "Annual Report on Form 10-K for the year ended December 31, 2021"
    names to the cover's period end (September 30, 2022: Q3); None unless that is within a week of a quarter."""
    year_end = _date_after(PRIOR_ANNUAL_REPORT, body)
    if period_end is None or year_end is None:
        return None
    days = (period_end - year_end).days % 364
    quarter = round(days / 91)
    return quarter if 1 <= quarter <= 3 and abs(days - 91 * quarter) <= 7 else None


def _fiscal_label(texts: list[str], headline: str, end_year: int, later: bool = False) -> int:
    """The company's own label for the fiscal year ending in `end_year` ("fiscal 2022" for a year
    ended January 2023), counted on the first pages; the headline counts more. Default: end_year.
    `later`: the fiscal year end is unknown (a quarter), so the label may be end_year + 1."""
    counts: Counter[int] = Counter()
    for weight, text in [(3, headline)] + [(1, t) for t in texts]:
        for m in _FISCAL_LABEL.finditer(text):
            raw = m.group(1) or m.group(2)
            year = int(raw) if len(raw) == 4 else 2000 + int(raw)
            if year in ((end_year, end_year + 1) if later else (end_year - 1, end_year)):
                counts[year] += weight
    if not counts or counts[end_year] == max(counts.values()):
        return end_year
    return max(counts, key=lambda y: counts[y])


def _fiscal_end_year(period_end: date, fy_end: tuple[int, int] | None) -> int:
    """Calendar year in which the fiscal year containing `period_end` ends."""
    if fy_end is None:
        return period_end.year
    month, day = fy_end
    return period_end.year if (period_end.month, period_end.day) <= (month, day + 7) else period_end.year + 1


def _file_year(source_file: str) -> int | None:
    m = YEAR_RE.search(Path(source_file).stem)
    return int(m.group(0)) if m else None


@dataclass
class _Cover:
    """The first pages of a PDF, flattened once for the readers below."""

    texts: list[str]  # the text of each of the first LABEL_PAGES pages
    lines: list[str]  # the lines of the cover pages
    flat: str  # the cover pages on one line
    body: str  # all of `texts` on one line
    meta_title: str


@dataclass
class _Found:
    """What the readers found so far; anything not found stays None."""

    doc_date: date | None
    form: str = "other"
    issuer: str | None = None
    period_end: date | None = None
    quarter: int | None = None
    headline: str = ""
    release_year: int | None = None  # a release's year read from "the second quarter of 2023"


def extract_document_info(doc, pages: list[PageContent], source_file: str) -> DocumentInfo:
    """Issuer, form, period and title of a PDF from its first pages and metadata (never raises
    for an odd PDF: anything not found stays None)."""
    meta = dict(getattr(doc, "metadata", None) or {})
    texts = [p.text or "" for p in pages[:LABEL_PAGES]]
    cover_text = "\n".join(texts[:COVER_PAGES])
    cover = _Cover(texts=texts, lines=_lines(cover_text), flat=" ".join(cover_text.split()),
                   body=" ".join(" ".join(texts).split()), meta_title=" ".join((meta.get("title") or "").split()))
    found = _Found(doc_date=_pdf_date(meta.get("creationDate")))
    m_form = COVER_FORM.search(cover.flat[:3000])
    registrant = _registrant(cover.lines, cover.body)
    if m_form and registrant:
        _read_filing(m_form, registrant, cover, found)
    else:
        _read_release_or_report(cover, found)
    fiscal_year = _fiscal_year(cover, found)
    if found.form in ("10-K", "annual report"):
        found.quarter = None

    title = generic_title(doc, pages, source_file, cover.meta_title) if found.form == "other" else ""  # else composed below
    period_end, doc_date = found.period_end, found.doc_date
    info = DocumentInfo(
        title=title or "untitled",
        issuer=found.issuer,
        form=found.form,
        fiscal_year=fiscal_year,
        fiscal_quarter=found.quarter,
        period_end=period_end.isoformat() if period_end else None,
        date=doc_date.isoformat() if doc_date else None,
    )
    if found.form != "other":
        info.title = base_title(info)
    elif info.date is None and (year := _file_year(source_file)):
        info.date = str(year)  # weak last resort: a year in the file name
    return info


def _read_filing(m_form: re.Match, registrant: str, cover: _Cover, found: _Found) -> None:
    """An SEC filing's cover (10-K, 10-Q, 20-F, 40-F, 8-K): the registrant is the issuer."""
    kind = m_form.group(1).upper()
    found.issuer = registrant
    if kind in ("10-K", "20-F", "40-F"):
        found.form = "10-K" if kind == "10-K" else "annual report"
        found.period_end = _date_after(COVER_YEAR_ENDED, cover.flat)
    elif kind == "10-Q":
        found.form = "10-Q"
        found.period_end = _date_after(COVER_QUARTER_ENDED, cover.flat)
        # "three and six months ended" -> Q2: the longest interim period the filing reports
        spans = [{"three": 1, "six": 2, "nine": 3}.get(m.group(1).lower(), 0) for m in MONTHS_ENDED.finditer(cover.body)]
        found.quarter = (max(spans, default=0) or _quarter_after_year_end(found.period_end, cover.body)
                         or _quarter_from(cover.flat[:1500]))
    elif kind == "8-K":
        found.form = "8-K"
        event = _date_after(_EVENT_DATE, cover.flat, 100)
        found.doc_date = event or found.doc_date
    found.headline = m_form.group(0)


def _read_release_or_report(cover: _Cover, found: _Found) -> None:
    """Not a filing: an earnings release (a headline "X reports/announces ... results" near the top,
    or such a PDF title with a ticker on the cover), else perhaps an annual report."""
    top = cover.lines[:12]
    for i, line in enumerate(top):
        joined = " ".join(top[i : i + 3])
        m = _RELEASE_HEADLINE.match(joined)
        if m and re.search(r"\bresults?\b|\bearnings\b", m.group("rest"), re.IGNORECASE):
            found.form, found.headline, found.issuer = "earnings release", joined, m.group("issuer").strip(" ,-")
            break
    if found.form == "other" and re.search(r"\bresults?\b", cover.meta_title, re.IGNORECASE):
        m = _RELEASE_HEADLINE.match(re.sub(r"^microsoft word\s*-\s*", "", cover.meta_title, flags=re.IGNORECASE))
        if m and _TICKER.search(cover.flat):
            found.form, found.headline, found.issuer = "earnings release", cover.meta_title, m.group("issuer").strip()
    if found.form == "earnings release":
        _read_release(cover, found)
    elif re.search(r"\bannual\s+report\b", cover.flat[:600], re.IGNORECASE):
        found.form = "annual report"
        found.period_end = _date_after(COVER_YEAR_ENDED, cover.flat)
        # a glossy report that binds in its 10-K: the 10-K's cover, after a few pages of its own, names the issuer
        # and the year
        wrapped = "\n".join(cover.texts[:WRAPPED_COVER_PAGES])
        if COVER_FORM.search(wrapped) and (registrant := _registrant(_lines(wrapped), cover.body)):
            found.issuer = registrant
            found.period_end = found.period_end or _date_after(COVER_YEAR_ENDED, " ".join(wrapped.split()))


def _read_release(cover: _Cover, found: _Found) -> None:
    """An earnings release's issuer (as named before its ticker), period, quarter and dateline."""
    flat = cover.flat
    found.issuer = _after_dateline(_after_last(_MASTHEAD, found.issuer))
    named = _ISSUER_BEFORE_TICKER.search(flat)
    if named and found.issuer and found.issuer.lower().split()[0] in named.group(1).lower():
        found.issuer = _after_dateline(named.group(1))  # "Best Buy Co., Inc." from "(NYSE: BBY)"
    # the latest "quarter/period/year/weeks/months ... ended <date>" (comparatives end earlier)
    ends = [
        parse_date(flat[m.end() : m.end() + 40])
        for m in ANY_SPAN_ENDED.finditer(flat)
    ]
    found.period_end = max((d for d in ends if d), default=None)
    found.quarter = _quarter_from(found.headline + " " + cover.meta_title) or _quarter_from(flat[:600])
    dateline = parse_date(flat[:400])
    found.doc_date = dateline or found.doc_date
    if found.period_end is None and found.quarter and not _FISCAL_LABEL.search(found.headline):
        # no "quarter ended <date>" printed: the year of the quarter the text reports ("Reports Second-Quarter
        # Results" / "... for the second quarter of 2023"), the latest so named (the same quarter a year earlier is
        # the comparative); its end date stays unknown (so is the fiscal calendar)
        found.release_year = max((int(m.group("y")) for m in OWN_QUARTER.finditer(flat[:1500])
                                  if QUARTER_ORDINALS[m.group("q").lower()] == found.quarter), default=None)


def _fiscal_year(cover: _Cover, found: _Found) -> int | None:
    """The fiscal year the document reports on, from its period end and fiscal-year labels."""
    if found.period_end is not None:
        period_end = found.period_end
        fy_end = (period_end.month, period_end.day) if found.form in ("10-K", "annual report") else _fiscal_year_end_month(cover.body)
        if found.form == "earnings release" and found.quarter == 4:
            fy_end = (period_end.month, period_end.day)
        end_year = _fiscal_end_year(period_end, fy_end)
        return _fiscal_label(cover.texts[:LABEL_PAGES], found.headline + " " + cover.meta_title, end_year, later=fy_end is None)
    if found.form == "earnings release":
        labels = [int(m.group(1)) for m in _FISCAL_LABEL.finditer(found.headline) if m.group(1)]
        return labels[0] if labels else found.release_year
    return None


def font_lines(page) -> list[tuple[float, str]]:
    """(font size, text) of each text line on a PyMuPDF page."""
    import pymupdf

    lines = []
    # Without image blocks: "dict" would otherwise decode every image on the page (1.9 GB for one
    # 30000x30000 px image).
    for block in page.get_text("dict", flags=pymupdf.TEXTFLAGS_DICT & ~pymupdf.TEXT_PRESERVE_IMAGES)["blocks"]:
        for line in block.get("lines", []):
            text = " ".join(" ".join(s["text"] for s in line["spans"]).split())
            if text:
                lines.append((max(s["size"] for s in line["spans"]), text))
    return lines


def generic_title(doc, pages: list[PageContent], source_file: str, meta_title: str | None = None) -> str:
    """Any PDF's title: the metadata title when it reads like one, else the (at most three) lines set
    in the largest font on page 1, else its first line, else the file name."""
    if meta_title is None:
        meta_title = " ".join(((doc.metadata or {}).get("title") or "").split())
    if len(re.findall(r"[A-Za-z]{2,}", meta_title)) >= 2 and not re.match(r"microsoft word\s*-", meta_title, re.I):
        return meta_title[:120]
    try:
        lines = [(size, text) for size, text in font_lines(doc[0]) if re.search(r"[A-Za-z]{2,}", text)]
        if lines:
            top = max(size for size, _ in lines)
            biggest = list(dict.fromkeys(t for s, t in lines if s >= top * 0.9))
            return " · ".join(biggest[:3])[:120]
    except PDF_ERRORS:  # an unreadable first page still has a text layer or a file name
        pass
    first = [ln for p in pages[:1] for ln in _lines(p.text)]
    return first[0][:120] if first else Path(source_file).stem


def base_title(info: DocumentInfo) -> str:
    """"Boeing · 10-K · FY2018", "Best Buy · earnings release · Q4 FY2023", "Amcor · 8-K · 2022-07-01"."""
    if info.form == "other":
        return info.title
    parts = [short_name(info.issuer) if info.issuer else None, info.form]
    if info.form == "8-K":
        parts.append(info.date)
    else:
        parts.append(info.period_label or None)
    return " · ".join(p for p in parts if p)


def unique_titles(items: Iterable[tuple[str, DocumentInfo | None, str]]) -> dict[str, str]:
    """doc_id -> title unique in the library, for [(doc_id, info, source_file)].

    Colliding titles get the period end (or date), then the file name, then a counter."""
    items = list(items)
    titles = {doc_id: (info.title if info else Path(source).stem) for doc_id, info, source in items}
    extra_steps = [
        lambda info, source: (info.period_end or info.date) if info else None,
        lambda info, source: source,
    ]
    for step in extra_steps:
        groups: dict[str, list[tuple[str, DocumentInfo | None, str]]] = {}
        for item in items:
            groups.setdefault(titles[item[0]], []).append(item)
        for title, group in groups.items():
            extras = [step(info, source) for _, info, source in group]
            if len(group) < 2 or len(set(extras)) < 2:  # this step would not tell them apart
                continue
            for (doc_id, _, _), extra in zip(group, extras):
                if extra and extra not in title:
                    titles[doc_id] = f"{title} ({extra})"
    counts = Counter(titles.values())
    seen: Counter[str] = Counter()
    for doc_id, _, _ in sorted(items, key=lambda x: x[0]):
        title = titles[doc_id]
        if counts[title] > 1:
            seen[title] += 1
            titles[doc_id] = f"{title} #{seen[title]}"
    return titles


def document_years(info: DocumentInfo) -> set[int]:
    """The years a question may use for the document's own period: the company's fiscal label
    and the calendar year the period ends in (FinanceBench-style "FY2023" for a year ended
    January 2023 that the company calls fiscal 2022)."""
    years = set()
    if info.fiscal_year:
        years.add(info.fiscal_year)
    if info.period_end:
        years.add(int(info.period_end[:4]))
    if not years and info.date and info.form != "other":
        years.add(int(info.date[:4]))
    return years


def info_from_pdf(path: Path, page_texts: list[str] | None = None) -> DocumentInfo:
    """Document info of a processed PDF whose manifest predates it (reopens the first pages)."""
    import pymupdf

    with pymupdf.open(path) as doc:
        if page_texts is None:
            page_texts = [doc[i].get_text("text") for i in range(min(LABEL_PAGES, doc.page_count))]
        pages = [PageContent(page_number=i, text=t) for i, t in enumerate(page_texts[:LABEL_PAGES])]
        return extract_document_info(doc, pages, path.name)
