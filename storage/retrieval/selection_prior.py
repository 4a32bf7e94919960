"""Which selected documents a question is about, from what it names: periods, forms, issuers.

A question such as "What is Boeing's FY2018 capital expenditure?" over ten filings names an
issuer (matched against the selected documents' own issuers, read from their cover pages: no
company list here), a fiscal year and, implicitly, a full-year document. Each selected document
gets a prior in [0, 1]: the product of the components the question names and at least one
selected document matches. Components nobody matches are ignored, and with nothing named every
prior is 0, so nothing is ever hidden: the prior only re-orders (storage/retrieval/hybrid.py adds it to
page scores).

Years: a document "is" the years in `doc_metadata.document_years` (the company's fiscal label
and the calendar year its period ends). A question year equal to one of them matches fully if
the document covers the whole year (10-K, annual report, fourth-quarter release) and partly if it
covers a quarter or is an 8-K of that year. A year one or two before a 10-K's own year is printed
there as a comparative (one year for quarterly documents): a weaker match. The prior for several
named periods is their mean, so the filing that holds all of them wins ("FY2023 vs FY2022" ->
the FY2023 10-K, which prints both). An issuer named in the question is decisive: another
issuer's filing gets 0, the issuer's filings of other periods half. A question that names no
period is taken to ask about the present: each issuer's latest annual report and anything later
(not an 8-K) match weakly.

Primary sources: when the question names no form, a periodic report (10-K, 10-Q, annual report)
covering the named period is preferred to the same issuer's earnings release or 8-K covering it
as well: those are furnished, unaudited restatements of the figures the periodic report files,
and the periodic report is what an analyst cites. It is a discount on the release's period
match, so it only breaks ties between documents of the same period; content still decides when
only the release prints what is asked (a non-GAAP measure, say), and a release with no periodic
report of its period beside it keeps its full match.

Four readings, each a `Ranking` field (on in the product; off here unless asked): `stale_annual` -- an
issuer's latest annual report is its present only while no later filing of it ends more than a year after it (a 2015 10-K beside a
2023 10-Q is history, not the present); `date_after` -- a date no selected document carries ("sold by July 19,
2023") matches each issuer's first document dated on or after it (the filing that reports it); `period_per_issuer`
-- with several issuers selected and none named, the period's match is scaled per issuer (its best filing 1), so
the period picks among an issuer's filings and the content picks the issuer; `fill_issuers` -- a document
whose DocumentInfo has no issuer takes the one selected issuer its first pages print (so its years group with
that issuer's other filings); `document_period` -- a year naming the document ("repay in 2020 according to its FY2019
10-K", storage.finance.forms.document_years) is the only period that picks it; `filed_annual` -- an annual
report that is not the 10-K (a glossy report binding the 10-K's pages) beside its issuer's 10-K of the same period
keeps `secondary` of its period match, so the filed 10-K leads where both print the page (the other stays selected).
"""

from __future__ import annotations

import re

from storage.documents.metadata import document_years, name_words
from storage.retrieval.document_profile import cover_names, fill_period, named_issuers
from storage.retrieval.question_scope import QuestionScope, document_scope, question_scope
from storage.finance.periods import MONTH, YEAR, parse_date
from storage.schema import DocumentInfo

EXACT, PARTIAL, COMPARATIVE, OTHER_QUARTER, OUTLOOK = 1.0, 0.5, 0.4, 0.25, 0.25
RECENT = 0.25  # no period named: the issuer's present (latest annual report and later), a weak preference
SECONDARY = 0.75  # share of its period match a release / 8-K keeps beside a periodic report of that period (no form named)
PRIMARY_FORMS = ("10-K", "10-Q", "annual report")
ISSUER_SHARE = 0.5  # with an issuer named, matching it earns half the prior, the period etc. the rest
ANNUAL_FORMS = ("10-K", "annual report")

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


def _present(info: DocumentInfo, anchors: dict[str | None, tuple[str, bool]]) -> bool:
    """The document is the issuer's latest annual report or later than it (not an 8-K); for an
    issuer without an annual report selected, of its latest period."""
    end = _period_end(info)
    anchor, annual = anchors.get(info.issuer, ("", False))
    if not end or info.form == "8-K":
        return False
    return end > anchor or (end == anchor and (info.form in ANNUAL_FORMS or not annual))


def _year_before(iso: str) -> str:
    return f"{int(iso[:4]) - 1:04d}{iso[4:]}" if len(iso) >= 4 and iso[:4].isdigit() else iso


def _anchors(infos: list[DocumentInfo], stale_annual: bool = False) -> dict[str | None, tuple[str, bool]]:
    """issuer -> (period end where its present starts, whether that is an annual report's). `stale_annual`: an
    annual report a later filing of its issuer outdates by more than a year does not start the present."""
    annual: dict[str | None, str] = {}
    latest: dict[str | None, str] = {}
    for i in infos:
        end = _period_end(i)
        if i.form in ANNUAL_FORMS and end > annual.get(i.issuer, ""):
            annual[i.issuer] = end
        if i.form != "8-K" and end > latest.get(i.issuer, ""):
            latest[i.issuer] = end
    if stale_annual:
        annual = {k: v for k, v in annual.items() if v >= _year_before(latest.get(k, ""))}
    return {issuer: (annual[issuer], True) if issuer in annual else (end, False) for issuer, end in latest.items()}


def _first_after(asked: list, infos: dict[str, DocumentInfo]) -> set[str]:
    """For each named date, each issuer's first document dated on or after it (none matching it exactly)."""
    out: set[str] = set()
    for d in asked:
        day = d.isoformat()
        first: dict[str | None, str] = {}
        for i in infos.values():
            if i.date and i.date >= day and i.date < first.get(i.issuer, "9999"):
                first[i.issuer] = i.date
        out |= {doc for doc, i in infos.items() if i.date and first.get(i.issuer) == i.date}
    return out


# a month an event happened in ("entered into in April 2022", "guidance given in July 2023"); not a period's end
_EVENT_MONTH = re.compile(rf"\b(?:in|during|on)\s+(?:early\s+|late\s+|mid-?\s*)?({MONTH})\.?,?\s+({YEAR})\b", re.IGNORECASE)
EVENT_FORMS = ("8-K", "earnings release")


def _event_month(question: str, infos: dict[str, DocumentInfo]) -> set[str]:
    """Documents of an event form (8-K, release) dated in a month the question says an event happened in."""
    months = set()
    for m in _EVENT_MONTH.finditer(question or ""):
        d = parse_date(f"{m.group(1)} 1, {m.group(2)}")
        if d:
            months.add(d.isoformat()[:7])
    return {doc for doc, i in infos.items() if i.form in EVENT_FORMS and i.date and i.date[:7] in months}


def _per_issuer(parts: dict[str, dict[str, float]], infos: dict[str, DocumentInfo]) -> None:
    """Scale the period match so each issuer's best-matching filing gets 1."""
    best: dict[str | None, float] = {}
    for d, i in infos.items():
        best[i.issuer] = max(best.get(i.issuer, 0.0), parts[d].get("period", 0.0))
    for d, i in infos.items():
        if best[i.issuer] > 0 and "period" in parts[d]:
            parts[d]["period"] /= best[i.issuer]


def _components(c: QuestionScope, info: DocumentInfo, anchors: dict[str | None, tuple[str, bool]], recent: float,
                on_cover: bool = False, form_decides: bool = False) -> dict[str, float]:
    out: dict[str, float] = {}
    out["issuer"] = 1.0 if on_cover or issuer_mentioned(info, c.question_words) else 0.0
    if c.periods:
        out["period"] = sum(period_match(y, q, info) for y, q in c.periods) / len(c.periods)
    elif not c.dates and _period_end(info):
        # no period named: the question is about the present (the latest annual report and what followed it)
        out["period"] = recent if _present(info, anchors) else 0.0
        if c.forms and form_decides:  # a form named without a period: the form decides, the present breaks ties
            out["period"] += 1.0 - recent
    if c.dates:
        own = {info.date, info.period_end} - {None}
        out["date"] = 1.0 if any(d.isoformat() in own for d in c.dates) else 0.0
    if c.forms:
        out["form"] = 1.0 if info.form in c.forms else 0.0
    return out


def _prefer_primary_sources(parts: dict[str, dict[str, float]], infos: dict[str, DocumentInfo], secondary: float) -> None:
    """Discount the period match of a release / 8-K when a periodic report of the same issuer
    covers the period at least as well (a release stays the primary source of what nothing else files)."""
    best_primary: dict[str | None, float] = {}
    for d, i in infos.items():
        if i.form in PRIMARY_FORMS:
            best_primary[i.issuer] = max(best_primary.get(i.issuer, 0.0), parts[d].get("period", 0.0))
    for d, i in infos.items():
        own = parts[d].get("period", 0.0)
        if i.form not in PRIMARY_FORMS and own > 0 and best_primary.get(i.issuer, 0.0) >= own:
            parts[d]["period"] = own * secondary


def _prefer_filed_annual(parts: dict[str, dict[str, float]], infos: dict[str, DocumentInfo], secondary: float) -> None:
    """Discount the period match of an annual report that is not the filed 10-K (a glossy report binding the 10-K's
    text) when a 10-K of the same issuer covers the period at least as well: the same pages, the filed one first."""
    best_10k: dict[str | None, float] = {}
    for d, i in infos.items():
        if i.form == "10-K":
            best_10k[i.issuer] = max(best_10k.get(i.issuer, 0.0), parts[d].get("period", 0.0))
    for d, i in infos.items():
        own = parts[d].get("period", 0.0)
        if i.form == "annual report" and own > 0 and best_10k.get(i.issuer, 0.0) >= own:
            parts[d]["period"] = own * secondary


def _fill_issuers(infos: dict[str, DocumentInfo | None], covers: dict[str, str]) -> dict[str, DocumentInfo | None]:
    """A document without an issuer takes the one selected issuer whose name its first pages print."""
    known = sorted({i.issuer for i in infos.values() if i is not None and i.issuer})
    out = dict(infos)
    for d, i in infos.items():
        if i is not None and not i.issuer and covers.get(d):
            hits = [k for k in known if cover_names([" ".join(name_words(k))], covers[d])]
            if len(hits) == 1:
                out[d] = i.model_copy(update={"issuer": hits[0]})
    return out


def selection_prior(question: str, infos: dict[str, DocumentInfo | None], *, recent: float = RECENT,
                    secondary: float = SECONDARY, covers: dict[str, str] | None = None, fill_periods: bool = False,
                    cover_issuers: bool = False, form_decides: bool = False, stale_annual: bool = False,
                    date_after: bool = False, period_per_issuer: bool = False,
                    fill_issuers: bool = False, release_quarter: bool = False,
                    document_period: bool = False, filed_annual: bool = False,
                    year_to_date: bool = False, outlook: bool = False,
                    event_month: bool = False) -> dict[str, float]:
    """doc_id -> prior in [0, 1]; all 0 when the question names nothing any document matches.
    `covers`: doc_id -> text of its first pages (storage/retrieval/document_profile.py), read for a form and
    period DocumentInfo lacks (`fill_periods`) and for the named issuer's name (`cover_issuers`)."""
    c = question_scope(question, year_to_date=year_to_date, outlook=outlook)
    if document_period:  # "according to its FY2019 10-K": that year picks the document, the others are content
        c = document_scope(c)
    priors = {doc_id: 0.0 for doc_id in infos}
    covers = covers or {}
    if fill_periods:
        infos = {d: fill_period(i, covers.get(d, ""), release_quarter) for d, i in infos.items()}
    if fill_issuers:
        infos = _fill_issuers(infos, covers)
    known = {d: i for d, i in infos.items() if i is not None}
    if len(infos) < 2 or not known:
        return priors
    anchors = _anchors(list(known.values()), stale_annual)
    names = named_issuers(c.question_words, sorted({i.issuer for i in known.values() if i.issuer})) if cover_issuers else []
    parts = {d: _components(c, i, anchors, recent, bool(names) and cover_names(names, covers.get(d, "")), form_decides)
             for d, i in known.items()}
    if date_after and c.dates and not any(p.get("date") for p in parts.values()):
        for d in _first_after(c.dates, known):
            parts[d]["date"] = 1.0
    if event_month and not c.dates and not any(p.get("date") for p in parts.values()):
        for d in _event_month(question, known):
            parts[d]["date"] = 1.0
    if period_per_issuer and c.periods and not names and not any(p["issuer"] for p in parts.values()) \
            and len({i.issuer for i in known.values()}) > 1:
        _per_issuer(parts, known)
    if not c.forms:
        _prefer_primary_sources(parts, known, secondary)
    if filed_annual and (not c.forms or "10-K" in c.forms):
        _prefer_filed_annual(parts, known, secondary)
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
