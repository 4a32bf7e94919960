"""The figures a sentence states, each with the fiscal year(s) the sentence binds it to.

Filings state many figures only in prose, in a few fixed shapes:

    "Capital expenditures totaled $1.0 billion in 2021, compared with $1.3 billion in 2020"   a figure, then its year
    "cash outflows of $143 million, $8 million, and $67 million ... during fiscal years 2022,
     2021, and 2020, respectively"                                                             a list zipped with years
    "we paid no dividends, compared with $1.2 billion and $4.6 billion in 2020 and 2019"        a list, then its years
    "an effective tax rate of 16.3%, instead of 6.8%, for fiscal 2023"                          the figure "instead of"
                                                                                               another is the other one
    "For fiscal year 2022, the effective tax rate was 26.9% as compared to 21.9% and 22.6% for
     fiscal years 2021 and 2020, respectively"                                                  the year opening it
    "Operating income in 2023 includes $273 million ($209 million, net of tax, or $0.81 per
     diluted share) of expenses"                                                               the one year the sentence
                                                                                               names; variants in brackets

    stated_figures(sentence) -> [Stated(text="$1.0 billion", value=1.0, kind="money", year=2021, ...), ...]

A figure the sentence says is a change ("decreased by $44 million, or 27%") or the alternative to another
("instead of 6.8%") is marked, not dropped: the reader decides. A figure the sentence binds to no year has
year None (a release's "quarterly cash dividend of 12.25 cents per share": its filing's own period).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from storage.finance.arithmetic import FALL_WORDS, RISE_WORDS
from storage.finance.periods import QUARTERLY, YEAR, span_months
from storage.finance.scale import SCALE_WORD

# "$1.0 billion", "$(44) million", "18.5%", "12.25 cents", "3,500 employees" is not one (a count names its unit)
_FIGURE = re.compile(
    rf"(?P<cur>[$€£])\s?\(?(?P<num>\d[\d,]*(?:\.\d+)?)\)?(?:\s?(?P<scale>{SCALE_WORD})\b)?"
    rf"|(?<![\w.$€£])(?P<num2>\d[\d,]*(?:\.\d+)?)(?:\s?(?P<pct>%|percent\b)|\s(?P<scale2>{SCALE_WORD})\b"
    r"|\s(?P<cents>cents?)\b)"
    r"(?:\s(?:U\.S\.\s)?(?:dollars|euros?|pounds|yen|francs)\b)?",  # "62.5 million euros"
    re.I)
_PER_SHARE = re.compile(r"\s*(?:per\s+(?:diluted\s+|basic\s+)?(?:common\s+|ordinary\s+)?share|a\s+share)\b", re.I)
_NET_OF_TAX = re.compile(r"\s*,?\s*(?:net\s+of\s+(?:income\s+)?tax(?:es)?|after[-\s]tax)\b", re.I)
_YEAR = re.compile(rf"(?<![\d$.,]){YEAR}(?![\d%]|\.\d|,\d)")
# what may stand between two figures (or two years) of one list: "$143 million, $8 million, and $67 million"
_LIST_GAP = re.compile(r"\s*(?:,\s*(?:and\s+)?|and\s+)\s*$", re.I)
# what may stand between a figure and the year it is of: "in 2021", "for fiscal 2023", "during fiscal years"
_OF_YEAR = re.compile(r"^\s*,?\s*(?:in|for|during)\s+(?:the\s+)?(?:fiscal\s+)?(?:years?\s+)?(?:ended\s+)?$", re.I)
# a sentence opening with its year: "In fiscal 2022, …", "For the year ended June 30, 2022, …"
_OPENING_YEAR = re.compile(r"\s*(?:in|for|during|as\s+of)\s+(?:the\s+)?(?:fiscal\s+)?(?:years?\s+)?(?:ended\s+)?"
                           rf"(?:[A-Z][a-z]+\.?\s+\d{{1,2}},\s*)?(?P<year>{YEAR})\s*,", re.I)
_RESPECTIVELY = re.compile(r"\brespectively\b", re.I)
_INSTEAD_OF = re.compile(r"\b(?:instead\s+of|rather\s+than)\s*$", re.I)
_CHANGE_BY = re.compile(rf"\b(?:{RISE_WORDS}|{FALL_WORDS})\s+(?:\w+\s+){{0,2}}by\s*$", re.I)
# "down 9%", "grew 5% to $120 million", "… 7% year-over-year": a change said without "by"
_CHANGE_WORD = re.compile(rf"\b(?:{RISE_WORDS}|{FALL_WORDS}|up|down)\s*$", re.I)
_CHANGE_AFTER = re.compile(r"\s*,?\s*(?:year[- ]over[- ]year|yoy|sequentially|from\s+the\s+(?:prior|previous)\b)", re.I)
_OR_AFTER = re.compile(r"^\s*,?\s*or\s*$", re.I)
# "… in the same quarter last year", "… a year ago": the comparison period's figure, its year unsaid
_EARLIER = re.compile(r"[^.;$%]{0,40}?\b(?:(?:same|prior|previous|comparable|corresponding)\s+(?:quarter|period|year)\b|last\s+year\b|"
                      r"a\s+year\s+(?:ago|earlier)\b|prior[-\s]year\b)", re.I)
_SHARE_OF = re.compile(r"\s*of\s+(?:(?:our|the|its|their|total|consolidated|net)\s+)*[a-z]", re.I)
_ROUGHLY = re.compile(r"\b(?:approximately|about|around|roughly|nearly|almost|over|more\s+than|less\s+than|up\s+to|"
                      r"at\s+least|some|an\s+estimated)\s*$", re.I)
_BRACKETS = re.compile(r"\([^()]*\)")


@dataclass
class Stated:
    text: str  # as printed, with its scale and unit words: "$1.0 billion", "18.5%", "$0.81 per diluted share"
    value: float
    kind: str  # "money" | "percent" | "per share" | "cents"
    start: int
    end: int
    year: int | None = None  # the year the sentence binds it to, None when it names none for it
    change: bool = False  # a change, not the item ("decreased by $44 million, or 27%")
    alternative: bool = False  # the other basis' figure ("16.3%, instead of 6.8%")
    earlier: bool = False  # the comparison period's, named without a year ("12.0 cents in the same quarter last year")
    net_of_tax: bool = False  # "($209 million, net of tax, …)"
    approximate: bool = False  # "approximately $9.0 billion", "more than 3,500": a rounding, not the figure
    share_of: bool = False  # "51% of our total revenues": a percent of another amount, not the item's own rate
    months: int | None = None  # the span its clause names ("fourth-quarter revenue of …" 3, "full-year" 12), None when none


def stated_figures(sentence: str) -> list[Stated]:
    """Every money, percent and per-share figure of the sentence, with the year the sentence binds it to."""
    figures = _figures(sentence)
    for run in _runs([(f.start, f.end) for f in figures], sentence):  # a list is said of one thing:
        last, first = figures[run[-1]], figures[run[0]]  # "$1.36, $1.28 and $1.04 per share", "instead of 16.0% and 9.7%"
        for i in run:
            figures[i].kind = last.kind if last.kind in ("per share", "cents") else figures[i].kind
            figures[i].alternative = figures[i].alternative or first.alternative
            figures[i].share_of = figures[i].share_of or last.share_of
    years = [(m.start(), m.end(), int(m.group(0))) for m in _YEAR.finditer(sentence)
             if not any(f.start <= m.start() < f.end for f in figures)]
    _zip_lists(sentence, figures, years)
    _spans(sentence, figures)
    for f in figures:
        if f.year is None:
            f.year = _year_after(sentence, f, figures, years)
        f.earlier = f.year is None and _EARLIER.match(sentence, f.end) is not None
    if (opening := _OPENING_YEAR.match(sentence)) is not None:  # "For fiscal year 2022, the rate was 26.9% as …"
        for f in figures:
            if f.year is None and not f.earlier:
                f.year = int(opening.group("year"))
    distinct = {y for _, _, y in years}
    for f in figures:
        if f.year is None and not f.earlier and len(distinct) == 1:
            f.year = next(iter(distinct))  # "Operating income in 2023 includes $273 million ($209 million, …)"
    return figures


def _figures(sentence: str) -> list[Stated]:
    out: list[Stated] = []
    for m in _FIGURE.finditer(sentence):
        number = m.group("num") or m.group("num2")
        if not m.group("cur") and not m.group("pct") and not m.group("cents") and _YEAR.fullmatch(number):
            continue  # "2022 million" does not occur; a bare year is no figure
        end = m.end()
        kind = "percent" if m.group("pct") else "cents" if m.group("cents") else "money"
        if (per := _PER_SHARE.match(sentence, end)) is not None:
            kind, end = ("cents" if kind == "cents" else "per share"), per.end()
        if kind == "cents" and per is None:
            continue  # "cents" alone is no amount we can say
        before = sentence[:m.start()]
        net = _NET_OF_TAX.match(sentence, end) is not None
        out.append(Stated(sentence[m.start():end].strip(), float(number.replace(",", "")), kind, m.start(), end,
                          alternative=bool(_INSTEAD_OF.search(before)), net_of_tax=net,
                          approximate=bool(_ROUGHLY.search(before)),
                          share_of=kind == "percent" and _SHARE_OF.match(sentence, end) is not None,
                          change=bool(_CHANGE_BY.search(before) or _CHANGE_WORD.search(before) or _CHANGE_AFTER.match(sentence, end))
                          or _after_change(sentence, out, m.start())))
    return out


_SPAN_AFTER = re.compile(r"\s*,?\s*(?:in|for|during|over)\s+(?:the\s+)?[^,;$%]*", re.I)


def _spans(sentence: str, figures: list[Stated]) -> None:
    """Each figure's span in months: the one said right after it ("$2.1 billion in the fourth quarter"), else the one
    its clause says before it, from the figure before ("…, and full-year operating cash flow of $7.4 billion")."""
    start = 0
    for i, f in enumerate(figures):
        stop = figures[i + 1].start if i + 1 < len(figures) else len(sentence)
        after = _SPAN_AFTER.match(sentence[f.end:stop])
        said_after = span_months(after.group(0)) if after else None
        before = re.split(r";", sentence[start:f.start])[-1]
        f.months = said_after or span_months(before) or (3 if QUARTERLY.search(before) else None)
        start = f.end + (after.end() if after and said_after else 0)


def _after_change(sentence: str, before: list[Stated], start: int) -> bool:
    """"decreased by $44 million, or 27%": the percent said after a change is a change too."""
    return bool(before) and before[-1].change and bool(_OR_AFTER.match(sentence[before[-1].end:start]))


def _runs(spans: list[tuple[int, int]], sentence: str) -> list[list[int]]:
    """Indexes of spans grouped into lists: consecutive spans joined only by ", " / " and " / ", and "."""
    runs: list[list[int]] = []
    for i, (start, _) in enumerate(spans):
        if runs and _LIST_GAP.fullmatch(sentence[spans[runs[-1][-1]][1]:start]) is not None:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def _zip_lists(sentence: str, figures: list[Stated], years: list[tuple[int, int, int]]) -> None:
    """A list of n figures and a list of n years: zipped when "respectively" follows them, or when the years
    follow the figures directly ("$1.2 billion and $4.6 billion in 2020 and 2019")."""
    fig_runs = [r for r in _runs([(f.start, f.end) for f in figures], sentence) if len(r) > 1]
    year_runs = [r for r in _runs([(s, e) for s, e, _ in years], sentence) if len(r) > 1]
    for fr in fig_runs:
        for yr in year_runs:
            if len(fr) != len(yr):
                continue
            first_end = max(figures[fr[-1]].end, years[yr[-1]][1])
            said = _RESPECTIVELY.search(sentence, first_end) is not None
            direct = years[yr[0]][0] > figures[fr[-1]].end and _OF_YEAR.match(
                sentence[figures[fr[-1]].end:years[yr[0]][0]]) is not None
            if said or direct:
                for i, j in zip(fr, yr):
                    figures[i].year = years[j][2]
                break


def _year_after(sentence: str, figure: Stated, figures: list[Stated], years) -> int | None:
    """The year said right after the figure ("$1.0 billion in 2021", "16.3%, instead of 6.8%, for fiscal 2023"),
    skipping bracketed variants and the figure it is said instead of; None when another figure or a clause
    end comes first."""
    for start, _, year in years:
        if start < figure.end:
            continue
        between = _BRACKETS.sub(" ", sentence[figure.end:start])
        for other in figures:  # ", instead of 6.8%," between the figure and its year
            if other.alternative and figure.end <= other.start and other.end <= start:
                between = between.replace(other.text, " ")
        between = re.sub(r"(?i),?\s*(?:instead\s+of|rather\s+than)\s*,?", " ", between)
        if _OF_YEAR.match(between) is not None:
            return year
        return None
    return None
