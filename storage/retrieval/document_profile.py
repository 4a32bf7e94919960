"""What a filing's own first pages say it is, for the selection prior when its DocumentInfo does not.

The prior (storage/retrieval/selection_prior.py) sends a question to the filing of the issuer, period
and form it names. It reads DocumentInfo, extracted once at ingestion; when that missed a field (a
cover set in letter-spaced type, "For the Fis cal Year Ended December 31, 2016"; the registrant's
name in a table; a release's dateline taken for its issuer), a filing of the named issuer was scored
as another issuer's or as having no period, and the wrong filing came first. Two gap fillers, read
from the text of the first COVER_PAGES pages, each a switch of `Ranking`:

- `fill_period`: form and period a cover prints ("FORM 10-Q", "for the quarterly period ended
  September 30, 2022", a release headline "Fourth-Quarter and Full-Year 2022") fill DocumentInfo's
  missing form, fiscal year, quarter and period end; what DocumentInfo has is kept.
- `cover_issuers`: a filing whose first pages print the name of an issuer the question names counts
  as that issuer's (the names come from the selection's known issuers), whatever its issuer field says.

And one page kind: a question that asks for "the cover" (shares outstanding "per the cover page") is
about the SEC cover, the first pages that print the cover's fixed wording (`cover_page_numbers`);
`Ranking.cover_weight` lifts them. So does a question for a fact the cover states
(`Ranking.cover_facts`, `COVER_FACTS`): the date the period ended, the headquarters, the state of
incorporation, the ticker and exchange; then only the cover pages that print that fact's wording.
"""

from __future__ import annotations

import re
from functools import lru_cache

from storage.documents.metadata import name_words
from storage.finance.forms import COVER_FORM_SPACED, RELEASE_COVER, cover_form_name
from storage.finance.periods import COVER_SPAN_ENDED, HEADLINE_QUARTER, OWN_QUARTER, QUARTER_ORDINALS, parse_date
from storage.schema import DocumentInfo

COVER_PAGES = 5  # an annual report may print the 10-K cover after a few pages of its own

_ORDINAL = QUARTER_ORDINALS


def _despaced(text: str) -> str:
    """Whitespace collapsed; letter-spaced words of a cover ("Fis cal") are not rejoined: the patterns
    anchor on the words that survive ("Year Ended")."""
    return " ".join((text or "").split())


def cover_form(cover: str) -> str | None:
    if m := COVER_FORM_SPACED.search(cover):
        return cover_form_name(m.group(1))
    if RELEASE_COVER.search(cover[:600]):
        return "earnings release"
    return None


@lru_cache(maxsize=4096)
def _cover_facts(cover: str) -> tuple[str | None, str | None, tuple[int, int] | None]:
    """(form, period end ISO, (year, quarter) of a release headline) printed on a cover; read once per text."""
    text = _despaced(cover)
    end = None
    if m := COVER_SPAN_ENDED.search(text):
        d = parse_date(m.group("date"))
        end = d.isoformat() if d else None
    h = HEADLINE_QUARTER.search(text[:1500])
    return cover_form(text), end, (int(h.group("y")), _ORDINAL[h.group("q").lower()]) if h else None


@lru_cache(maxsize=4096)
def _own_quarter(cover: str) -> tuple[int, int] | None:
    # the release's own quarter in its text: "for the second quarter of 2023" (a headline may print no year)
    m = OWN_QUARTER.search(_despaced(cover)[:1500])
    return (int(m.group("y")), _ORDINAL[m.group("q").lower()]) if m else None


def fill_period(info: DocumentInfo | None, cover: str, release_quarter: bool = False) -> DocumentInfo | None:
    """`info` with the form and period its cover prints filled in where it had none. `release_quarter`: an
    earnings release's period is the quarter its first lines report ("for the second quarter of 2023"), not a
    "year ended" date of a comparative table further on, unless that date falls in the quarter's year."""
    if info is None or not cover:
        return info
    form, end, headline = _cover_facts(cover)
    update: dict = {}
    if info.form == "other" and form:
        update["form"] = form
    if release_quarter and (update.get("form") or info.form) == "earnings release" and not info.period_end:
        own = headline or _own_quarter(cover)
        if own and (info.fiscal_year in (None, own[0])) and (end is None or int(end[:4]) != own[0]):
            update["fiscal_year"] = own[0]
            if info.fiscal_quarter in (None, own[1]):
                update["fiscal_quarter"] = own[1]
            return info.model_copy(update=update)
    if not (info.fiscal_year or info.period_end):
        if end:  # the fiscal label is taken as the end's year; a quarter is not guessed from a date
            update["period_end"] = end
            update["fiscal_year"] = int(end[:4])
        if headline and (update.get("form") or info.form) == "earnings release":
            update.setdefault("fiscal_year", headline[0])
            if info.fiscal_quarter is None:
                update["fiscal_quarter"] = headline[1]
    return info.model_copy(update=update) if update else info


@lru_cache(maxsize=4096)
def _cover_words(cover: str) -> str:
    return " " + " ".join(re.findall(r"[a-z0-9&]+", re.sub(r"['’]s\b", "", (cover or "").lower()))) + " "


def named_issuers(question_words: list[str], known: list[str]) -> list[str]:
    """The `known` issuer names (as name words joined) the question names."""
    question = " " + " ".join(question_words) + " "
    out = []
    for issuer in known:
        name = " ".join(name_words(issuer))
        if name and f" {name} " in question:
            out.append(name)
    return out


def cover_names(names: list[str], cover: str) -> bool:
    """The cover prints one of `names` (from `named_issuers`)."""
    words = _cover_words(cover)
    return any(f" {name} " in words for name in names)


_COVER_MARKS = re.compile(
    r"securities\s+and\s+exchange\s+commission|exact\s+name\s+of\s+registrant|commission\s+file\s+number|"
    r"indicate\s+by\s+check\s+mark", re.IGNORECASE)
_ASKS_COVER = re.compile(r"\bcover(?:\s+page)?\b(?!ed|age|s\b)", re.IGNORECASE)


def asks_for_cover(question: str) -> bool:
    """"per the cover page", "according to the cover of its 10-K" (not "covered", "coverage")."""
    return bool(_ASKS_COVER.search(question or ""))


# What an SEC cover states and a question may ask without naming the cover, each with the wording a cover
# page prints beside it: only cover pages that print it are lifted (a made-up or foreign cover without an
# address is not where the headquarters are).
COVER_FACTS: list[tuple[re.Pattern, re.Pattern]] = [
    # the date the period ended: "For the fiscal year ended September 26, 2015"
    (re.compile(r"\b(?:what|which)\s+(?:date|day)\b.{0,80}\bend(?:s|ed)?\b|"
                r"\bwhen\s+did\b.{0,60}\b(?:fiscal\s+)?(?:year|quarter|period)\b.{0,20}\bend\b|"
                r"\b(?:fiscal\s+)?(?:year|quarter|period)[\s-]+end(?:ed|ing)?\s+date\b", re.IGNORECASE),
     re.compile(r"\b(?:year|quarter|period)\s+ended\b", re.IGNORECASE)),
    # headquarters: "Address of principal executive offices"
    (re.compile(r"\bhead\s?quarter\w*|\bprincipal\s+executive\s+offices?\b", re.IGNORECASE),
     re.compile(r"\bprincipal\s+executive\s+offices?\b", re.IGNORECASE)),
    # state of incorporation: "(State or other jurisdiction of incorporation or organization)"
    (re.compile(r"\bstate\s+of\s+(?:incorporation|organi[sz]ation)\b|\bincorporated\s+in\s+which\b|"
                r"\bwhere\s+is\b.{0,60}\bincorporated\b", re.IGNORECASE),
     re.compile(r"\bjurisdiction\s+of\s+incorporation\b|\bstate\s+of\s+incorporation\b", re.IGNORECASE)),
    # "Trading Symbol(s)", "Name of each exchange on which registered"
    (re.compile(r"\btrading\s+symbol\b|\bticker\b|\bwhich\s+(?:stock\s+)?exchanges?\b", re.IGNORECASE),
     re.compile(r"\btrading\s+symbol|\bexchange\s+on\s+which\b", re.IGNORECASE)),
]


# the period a filing reports on ("Which quarter does this 10-Q report on?", "What period does the report cover?"):
# the cover's "For the quarterly period ended ..." (`Ranking.cover_period`)
REPORT_PERIOD: tuple[re.Pattern, re.Pattern] = (
    re.compile(r"\b(?:which|what)\s+(?:fiscal\s+)?(?:quarter|period|year)\b.{0,40}\b(?:report(?:s|ed)?\s+on|"
               r"covers?|cover(?:ed)?\s+by)\b", re.IGNORECASE),
    re.compile(r"\b(?:year|quarter|quarterly\s+period|period)\s+ended\b", re.IGNORECASE),
)


def cover_fact_wording(question: str, report_period: bool = False) -> re.Pattern | None:
    """The wording a cover page prints beside the cover fact the question asks for, or None.
    `report_period`: also the period the filing reports on (REPORT_PERIOD)."""
    for asked, printed in COVER_FACTS + ([REPORT_PERIOD] if report_period else []):
        if asked.search(question or ""):
            return printed
    return None


def prints(wording: re.Pattern, text: str) -> bool:
    return bool(wording.search(_despaced(text)))


def cover_page_numbers(page_texts: dict[int, str]) -> set[int]:
    """Pages among the first COVER_PAGES that print an SEC cover's fixed wording."""
    return {p for p, text in page_texts.items() if p < COVER_PAGES and _COVER_MARKS.search(" ".join(text.split()))}
