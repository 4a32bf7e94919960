"""Which selected documents a question is about, from what it names: periods, forms, issuers.

A question such as "What is Boeing's FY2018 capital expenditure?" over ten filings names an
issuer (matched against the selected documents' own issuers, read from their cover pages: no
company list here), a fiscal year and, implicitly, a full-year document. Each selected document
gets a prior in [0, 1]: the product of the components the question names and at least one
selected document matches. Components nobody matches are ignored, and with nothing named every
prior is 0, so nothing is ever hidden: the prior only re-orders (storage/retrieval.py adds it to
page scores).

Years: a document "is" the years in `doc_metadata.document_years` (the company's fiscal label
and the calendar year its period ends). A question year equal to one of them matches fully if
the document covers the whole year (10-K, annual report, fourth-quarter release) and partly if it
covers a quarter or is an 8-K of that year. A year one or two before a 10-K's own year is printed
there as a comparative (one year for quarterly documents): a weaker match. The prior for several
named periods is their mean, so the filing that holds all of them wins ("FY2023 vs FY2022" ->
the FY2023 10-K, which prints both). An issuer named in the question is decisive: another
issuer's filing gets 0, the issuer's filings of other periods half. A question that names no
period is taken to ask about the present: each issuer's latest period (not an 8-K) matches partly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from storage.doc_metadata import DATE_RE, document_years, name_words, parse_date
from storage.schema import DocumentInfo

EXACT, PARTIAL, COMPARATIVE, OTHER_QUARTER, OUTLOOK = 1.0, 0.5, 0.4, 0.25, 0.25
RECENT = 0.25  # no period named: the issuer's latest period, a weak preference
ISSUER_SHARE = 0.5  # with an issuer named, matching it earns half the prior, the period etc. the rest
ANNUAL_FORMS = ("10-K", "annual report")

_YEAR = r"(?:fy\s?'?((?:19|20)?\d\d)|(?:fiscal\s+(?:year\s+)?)?((?:19|20)\d\d))"
_YEAR_RE = re.compile(rf"\b{_YEAR}\b", re.IGNORECASE)
_RANGE_RE = re.compile(rf"\b{_YEAR}\s*(?:-|–|—|to|through|thru)\s*{_YEAR}\b", re.IGNORECASE)
_QUARTER_RE = re.compile(
    r"\b(?:q([1-4])|([1-4])q|(first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+(?:fiscal\s+)?quarter)\b", re.IGNORECASE
)
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_FORMS = [
    (re.compile(r"\b10\s?-?\s?k\b|\bannual\s+report\b", re.IGNORECASE), {"10-K", "annual report"}),
    (re.compile(r"\b10\s?-?\s?q\b|\bquarterly\s+report\b", re.IGNORECASE), {"10-Q"}),
    (re.compile(r"\b8\s?-?\s?k\b|\bcurrent\s+report\b", re.IGNORECASE), {"8-K"}),
    (re.compile(r"\b(?:earnings|press)\s+(?:release|report|call)\b|\bresults\s+announcement\b", re.IGNORECASE),
     {"earnings release"}),
]


@dataclass
class Constraints:
    periods: list[tuple[int | None, int | None]] = field(default_factory=list)  # (year, quarter)
    dates: list[date] = field(default_factory=list)
    forms: set[str] = field(default_factory=set)
    question_words: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.periods or self.dates or self.forms)


def _year(raw: str) -> int:
    return int(raw) if len(raw) == 4 else 2000 + int(raw)


def parse_constraints(question: str) -> Constraints:
    """Periods, dates and forms named in a question (issuers are matched per document)."""
    text = question or ""
    c = Constraints()
    c.question_words = re.findall(r"[a-z0-9&]+", re.sub(r"['’]s\b", "", text.lower()))
    for pattern, forms in _FORMS:
        if pattern.search(text):
            c.forms |= forms
    for m in DATE_RE.finditer(text):
        d = parse_date(m.group(0))
        if d:
            c.dates.append(d)
    years: list[tuple[int, int, int]] = []  # (start, end, year) of each year mention
    for m in _RANGE_RE.finditer(text):
        a, b = _year(m.group(1) or m.group(2)), _year(m.group(3) or m.group(4))
        if 0 < b - a <= 5:
            years.extend((m.start(), m.end(), y) for y in range(a, b + 1))
    covered = [(s, e) for s, e, _ in years]
    for m in _YEAR_RE.finditer(text):
        if not any(s <= m.start() < e for s, e in covered):
            years.append((m.start(), m.end(), _year(m.group(1) or m.group(2))))
    quarters = [
        (m.start(), m.end(), int(m.group(1) or m.group(2) or _ORDINAL[(m.group(3) or "").lower()]))
        for m in _QUARTER_RE.finditer(text)
    ]
    used_quarters: set[int] = set()
    for start, end, year in sorted(years):
        q = None
        for i, (qs, qe, quarter) in enumerate(quarters):
            # "Q2 of FY2024", "second quarter of fiscal 2024", "FY2024 Q2", "2Q 2023"
            if i not in used_quarters and (0 <= start - qe <= 15 or 0 <= qs - end <= 3):
                q = quarter
                used_quarters.add(i)
                break
        if (year, q) not in c.periods:
            c.periods.append((year, q))
    for i, (_, _, quarter) in enumerate(quarters):
        if i not in used_quarters and (None, quarter) not in c.periods:
            c.periods.append((None, quarter))
    return c


def _full_year(info: DocumentInfo) -> bool:
    return info.form in ANNUAL_FORMS or info.fiscal_quarter == 4


def period_match(year: int | None, quarter: int | None, info: DocumentInfo) -> float:
    """How well a document covers one named period (1 exact ... 0 not at all)."""
    own_q = info.fiscal_quarter
    if year is None:
        if own_q == quarter:
            return EXACT
        return PARTIAL if quarter == 4 and info.form in ANNUAL_FORMS else 0.0
    years = document_years(info)
    if not years:
        return 0.0
    if year in years:
        if quarter is None:
            return EXACT if _full_year(info) else PARTIAL
        if own_q == quarter:
            return EXACT
        return PARTIAL if quarter == 4 and _full_year(info) else OTHER_QUARTER
    lag = max(years) - year
    if info.form in ANNUAL_FORMS and 0 < lag <= 2:
        return COMPARATIVE
    if info.form in ("10-Q", "earnings release") and lag == 1:
        return COMPARATIVE
    if lag == -1 and _full_year(info):
        return OUTLOOK  # next year's outlook is printed in this year's annual filing
    return 0.0


def issuer_mentioned(info: DocumentInfo, question_words: list[str]) -> bool:
    words = name_words(info.issuer) if info.issuer else []
    if not words:
        return False
    n = len(words)
    return any(question_words[i : i + n] == words for i in range(len(question_words) - n + 1))


def without_issuers(query: str, infos: dict[str, DocumentInfo | None]) -> str:
    """`query` without the names of the selected documents' issuers it mentions.

    With several documents selected the prior already prefers the named issuer's filings; left in
    the keyword query, a name that is rare across the selection (but printed on every page of its
    own filings) would also pull its filings' cover and header pages above the evidence page."""
    names = {tuple(name_words(i.issuer)) for i in infos.values() if i is not None and i.issuer}
    out = query or ""
    for name in sorted(names, key=len, reverse=True):
        if name:
            pattern = r"(?<![\w&])" + r"\W+".join(re.escape(w) for w in name) + r"(?:['’]s)?(?![\w&])"
            out = re.sub(pattern, " ", out, flags=re.IGNORECASE)
    return " ".join(out.split())


def _period_end(info: DocumentInfo) -> str:
    return info.period_end or info.date or ""


def _components(c: Constraints, info: DocumentInfo, latest: dict[str | None, str]) -> dict[str, float]:
    out: dict[str, float] = {}
    out["issuer"] = 1.0 if issuer_mentioned(info, c.question_words) else 0.0
    if c.periods:
        out["period"] = sum(period_match(y, q, info) for y, q in c.periods) / len(c.periods)
    elif not c.dates and _period_end(info):
        # no period named: the question is about the present, i.e. the issuer's latest period
        out["period"] = RECENT if _period_end(info) == latest.get(info.issuer) else 0.0
    if c.dates:
        own = {info.date, info.period_end} - {None}
        out["date"] = 1.0 if any(d.isoformat() in own for d in c.dates) else 0.0
    if c.forms:
        out["form"] = 1.0 if info.form in c.forms else 0.0
    return out


def selection_prior(question: str, infos: dict[str, DocumentInfo | None]) -> dict[str, float]:
    """doc_id -> prior in [0, 1]; all 0 when the question names nothing any document matches."""
    c = parse_constraints(question)
    priors = {doc_id: 0.0 for doc_id in infos}
    known = {d: i for d, i in infos.items() if i is not None}
    if len(infos) < 2 or not known:
        return priors
    latest: dict[str | None, str] = {}
    for i in known.values():
        if i.form != "8-K" and _period_end(i) > latest.get(i.issuer, ""):
            latest[i.issuer] = _period_end(i)
    parts = {d: _components(c, i, latest) for d, i in known.items()}
    # a component counts only if some selected document matches it and not all match it equally
    active = [
        name
        for name in ("issuer", "period", "date", "form")
        if len({p.get(name, 0.0) for p in parts.values()} | ({0.0} if len(known) < len(infos) else set())) > 1
        and any(p.get(name, 0.0) > 0 for p in parts.values())
    ]
    if not active:
        return priors
    for d, p in parts.items():
        rest = 1.0
        for name in active:
            if name != "issuer":
                rest *= p.get(name, 0.0)
        if "issuer" in active:  # another issuer's filing never matches; the right one's other years still do a bit
            priors[d] = p["issuer"] * (ISSUER_SHARE + (1 - ISSUER_SHARE) * (rest if len(active) > 1 else 1.0))
        else:
            priors[d] = rest
    return priors
