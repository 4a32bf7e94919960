"""Whether a cited page's facts support a figure, as the sentence states it.

    claim = Claim(sentence)                          # what the sentence names: items, years, direction
    verdict = support(figure, claim, facts, prose, currencies)

A figure is supported when a fact (agent/claims/facts.py) has its value at the caption's scale and, where
the sentence says them, its item (US-GAAP concept of storage/finance/line_items.py, or the label's
words), period (a year), sign or direction ("rose" for a printed decrease fails) and unit (currency,
%, percentage points, people, square feet) agree. A change ("rose 7.8%", "up $28.5 billion") is
recomputed from the claimed row's columns even when no arithmetic is shown; a percentage from two facts
of one column (a margin). A number printed in prose supports a figure when the prose line shares the
claim's words. A number matched only by another row, column, footnote or year header is not found:
`Verdict.says` is then what the page prints for the claimed item.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

from agent.claims.facts import Fact, rows_of
from agent.claims.figures import Figure, figures_in
from storage.finance.arithmetic import FALL_WORDS as _DOWN, RISE_WORDS as _UP
from storage.finance.line_items import asked_items, normalize_label, row_item
from storage.finance.periods import (CLAIM_YEAR, CLAIM_YEAR_RANGE, DATED_YEAR, FROM_YEAR, MONTH_DAY, MONTH_DAY_NO_YEAR,
                                     MONTH_NAMES, QUARTER_NAME, QUARTER_ORDINALS, SPAN_STOP_WORDS, YEAR, span_months)
from storage.finance.scale import PEOPLE_WORDS, SQUARE_FEET_WORDS

_DIRECTION = re.compile(rf"\b(?:(?P<up>{_UP})|(?P<down>{_DOWN}))\b", re.I)
_DIRECTION_WORDS = frozenset(w for w in re.findall(r"[a-z]+", _UP + " " + _DOWN))
# the words right before a figure that make it a change: "rose 7.8%", "increased by $28.5 billion", "an increase of"
_CHANGE_BEFORE = re.compile(rf"\b(?:{_UP}|{_DOWN}|increase|decrease|growth|change|decline|rise|drop)\s+"
                            r"(?:of\s+|by\s+)?(?:about\s+|approximately\s+|roughly\s+|nearly\s+|almost\s+|some\s+)?$", re.I)
_TO_BEFORE = re.compile(rf"\b(?:(?P<up>{_UP})|(?P<down>{_DOWN}))\s+to\s+(?:about\s+|approximately\s+|roughly\s+|nearly\s+)?$", re.I)
_FROM_BEFORE = re.compile(r"\bfrom\s+(?:about\s+|approximately\s+|roughly\s+|nearly\s+)?$", re.I)  # "up from $x"
_TO_BETWEEN = re.compile(r"\bto\s+(?:about\s+|approximately\s+|roughly\s+|nearly\s+)?$", re.I)  # "from $x in 2021 to $y"
_TOTAL = re.compile(r"\s*total\b", re.I)
_POINTS_AFTER = re.compile(r"^\s*(?:percentage[\s-]+points?|points?|pts?|pp|basis[\s-]+points?|bps)\b", re.I)
_COUNT_AFTER = re.compile(r"^\s*(?:shares|employees|people|persons|square|sq\.?|units|customers|stores|locations|"
                          r"restaurants|members|accounts|users|subscribers|vehicles|aircraft)\b", re.I)
# "rose to $15.1 billion from fiscal 2021": the year the change starts from
_CHANGE_AFTER = re.compile(rf"^\s*(?:percentage points?\s+|points?\s+)?(?:{_UP}|{_DOWN}|increase|decrease|rise|drop|decline|growth)\b", re.I)
_COMPARED = re.compile(rf"(?i)\bfrom\b.*\bto\b|\bcompared\b|\bversus\b|\bvs\.?\b|\bover\s+(?:fiscal\s+)?{YEAR}\b")
_STOP = set("""the a an of and or in on for to by from at as is was were be been its it this that with than
total net company company's companies fiscal year years quarter period ended ending end reported report reports
million millions billion billions thousand thousands percent about approximately roughly nearly some which
during compared versus vs also had has have over under per cent amounted came totaled stood statement shows
filing line lists labels""".split()) | set(  # a date's month names no item ("as of May 31, 2023")
    f"{MONTH_NAMES} sept "
    f"{SPAN_STOP_WORDS}".split())  # nor a period's length ("six months ended")


@lru_cache(maxsize=8192)
def words(text: str) -> frozenset[str]:
    """Content words, singular: "Revenues" -> "revenue"."""
    out = set()
    for w in re.findall(r"[a-z][a-z'’-]+", text.lower()):
        w = w.strip("'’-")
        if w in _STOP or len(w) < 3:
            continue
        out.add(w[:-1] if w.endswith("s") and not w.endswith("ss") else w)
    return frozenset(out)


# a non-GAAP measure's words: a row saying one is another measure than the GAAP row of the same item
_ADJUSTED = re.compile(r"(?i)\badjusted\b|\bnon-?gaap\b|\bcore\b|\bunderlying\b|\bcomparable\b")
# words that set one row apart from its twin: a row saying one, for a sentence saying the other only, is not it
_QUALIFIERS = tuple((a, b) for x, y in (("basic", "diluted"), ("continuing", "discontinued")) for a, b in ((x, y), (y, x)))


@dataclass
class Claim:
    """What a sentence names beside its figures."""

    sentence: str

    @cached_property
    def years(self) -> set[int]:
        """The years it names, a range's years between ("2021–2023", "2021 through 2023") included."""
        found = {int(y) for y in CLAIM_YEAR.findall(self.sentence)}
        for a, b in CLAIM_YEAR_RANGE.findall(self.sentence):
            if 0 < int(b) - int(a) <= 10:
                found.update(range(int(a), int(b) + 1))
        return found

    @cached_property
    def concepts(self) -> set[str]:
        """The US-GAAP concepts it names; a twin's when its qualifier says so ("…per share: Basic" is basic EPS)."""
        out = set()
        for concept in (a.item.concept for a in asked_items(self.sentence)):
            for theirs, ours in _QUALIFIERS:
                if theirs.title() in concept and ours in self.words and theirs not in self.words:
                    concept = concept.replace(theirs.title(), ours.title())
            out.add(concept)
        return out

    @cached_property
    def words(self) -> set[str]:
        return words(re.sub(r"[\d$€£¥%.,()]+", " ", self.sentence))

    @cached_property
    def direction(self) -> int:
        """+1 "rose", -1 "fell", 0 neither (the first direction word decides)."""
        m = _DIRECTION.search(self.sentence)
        return 0 if m is None else (1 if m.group("up") else -1)

    @cached_property
    def from_year(self) -> int | None:
        """The year a stated change starts from ("rose to $15.1 billion from fiscal 2021"), when it names one."""
        m = FROM_YEAR.search(self.sentence)
        return int(m.group(1)) if m else None

    @cached_property
    def is_change(self) -> bool:
        return self.direction != 0 or bool(_COMPARED.search(self.sentence))

    def scores(self, facts: list[Fact]) -> dict[int, float]:
        """id(fact) -> `mention(fact)`, for each of `facts` (computed once per sentence and list)."""
        cache = self.__dict__.setdefault("_scores", {})
        if id(facts) not in cache:
            rows = rows_of(facts)
            # a row of amounts' change columns ("Net income 1,224 1,089 (11) (4)" under "∆%") name its item as its
            # amounts do: one score for the row
            named = {id(f): replace(f, percent=False) for f in facts
                     if f.percent and not f.years and _change_of_amounts(rows[f.row])}
            by_row: dict[tuple, float] = {}  # a row's columns share label, section and unit: one score
            cache[id(facts)] = (facts, {id(f): by_row[k] if (k := (g.label, g.section, g.percent)) in by_row
                                        else by_row.setdefault(k, self.mention(g))
                                        for f in facts for g in (named.get(id(f), f),)})
        return cache[id(facts)][1]

    def mention(self, fact: Fact) -> float:
        """2: the sentence names the fact's item (its concept, or all of its label's words), plus a hundredth per
        label word it says (with its section too: per word of label and section, and a little more); 1: half its
        label's words (its section's when the label has none); 0: not."""
        concept, label, section = _fact_words(fact.label, fact.section, fact.percent)
        if any(theirs in label and ours in self.words and theirs not in self.words for theirs, ours in _QUALIFIERS):
            return 0  # "Diluted" for a sentence saying "basic"
        named = section and section <= self.words and section != label  # its segment or section too: "Europe"
        shared = len(label & self.words)
        # of two rows naming the item, the one whose label says more of the sentence's words ("Total shareholders'
        # equity" over "Total equity" for "shareholders' equity")
        closer = shared / 100
        if named:
            # a named section ranks its row above the row that says no more of the sentence's words ("Europe" /
            # "Net sales" over "Net sales"), never above one whose own label says more of them: a wrapped heading's
            # last words ("… attributable to Northwind Holdings," / "Inc.:") over a per-share "Net income" row do not
            # outrank the row "Net income attributable to Northwind Holdings, Inc."
            closer = len((label | section) & self.words) / 100 + 0.002
        if _ADJUSTED.search(fact.label) and not self.adjusted:
            closer -= 0.005  # "Adjusted EBIT" below "EBIT" for a sentence saying "EBIT" (alone it is still named)
        if concept is not None and concept in self.concepts:
            return 2 + closer
        if not label:
            return 0
        if shared == len(label):
            if concept is not None and self.concepts and len(label) < 3 \
                    and _row_item(fact.label, "", fact.percent) not in self.concepts:
                # "Net Income (Loss)" ({income}) for a sentence naming operating income: another concept; but a row
                # printing the very item named, under a heading giving it another ("Diluted earnings per share:" /
                # "Net income"), is named
                return 1
            return 2 + closer
        return 1 if shared and shared * 2 >= len(label) else 0

    @cached_property
    def part_words(self) -> frozenset[str]:
        """Its words beside the line items it names: a segment, product, geography or row of a section ("iPad",
        "Europe", "Rigid Packaging") when a row or heading prints them."""
        text = self.sentence
        for a in reversed(asked_items(text)):
            text = text[:a.start] + " " + text[a.end:]
        return words(re.sub(r"[\d$€£¥%.,()]+", " ", text)) - _DIRECTION_WORDS

    @cached_property
    def says_total(self) -> bool:
        return bool(re.search(r"(?i)\btotal\b", self.sentence))

    @cached_property
    def adjusted(self) -> bool:
        return bool(_ADJUSTED.search(self.sentence))

    @cached_property
    def months(self) -> set[str]:
        return months(self.sentence)

    @cached_property
    def dated_years(self) -> set[int]:
        """The years of the calendar dates it names ("December 31, 2018")."""
        return {int(m.group("year")) for m in DATED_YEAR.finditer(self.sentence)}

    @cached_property
    def quarter(self) -> int | None:
        return quarter(self.sentence)

    @cached_property
    def duration(self) -> int | None:
        return span_months(self.sentence)

    def period_agrees(self, fact: Fact, start: bool = False) -> bool:
        """The sentence's year, length of period ("three months", "year ended") and month, where it says
        them, are the fact's column's; for the figure a change `start`s from ("fell to $60.6 billion in 2023 from
        $63.4 billion a year earlier") the year before them too."""
        if self.duration and (d := span_months(fact.period)) and d != self.duration:
            return False
        if self.months and (m := months(fact.period)) and not (m & self.months) and not self.is_change:
            return False
        if self.quarter and (q := column_quarter(fact.period)) and q != self.quarter:
            return False
        if not self.years or not fact.years:
            return True
        allowed = self.years | ({y + 1 for y in self.years} if self.is_change else set()) \
            | ({y - 1 for y in self.years} if start and self.is_change else set())
        if self.dated_years and months(fact.period) & self.months and MONTH_DAY_NO_YEAR.search(fact.period):
            # "Fiscal Year 2019 … Quarter Ended December 31": a quarter of a fiscal year ends in its calendar year
            # or the one before ("the quarter ended December 31, 2018", a calendar date, is that column)
            allowed |= {y + 1 for y in self.dated_years}
        return bool(fact.years & allowed)


_MONTHS = MONTH_DAY


@lru_cache(maxsize=4096)
def months(text: str) -> frozenset[str]:
    """The months of the dates a text names ("June 30, 2023" -> {"jun"})."""
    return frozenset(m.group(1).lower() for m in _MONTHS.finditer(text))


_QUARTER = QUARTER_NAME
_ORDINAL = QUARTER_ORDINALS


@lru_cache(maxsize=4096)
def quarter(text: str) -> int | None:
    """The quarter a text names by its ordinal ("Fourth Quarter", "Q3"), when exactly one."""
    found = {int(m.group(2)) if m.group(2) else _ORDINAL[m.group(1).lower()] for m in _QUARTER.finditer(text)}
    return found.pop() if len(found) == 1 else None


# a quarter's column printed by its ordinal alone under its year ("2016" over "4th 3rd 2nd 1st": "2016 2nd")
_BARE_ORDINAL = re.compile(rf"(?i)^(?:.*\s)?({'|'.join(QUARTER_ORDINALS)})$")


@lru_cache(maxsize=4096)
def column_quarter(period: str) -> int | None:
    """The quarter a column's period names: as `quarter` reads it, or its ordinal printed alone at its end."""
    if (q := quarter(period)) is not None:
        return q
    m = _BARE_ORDINAL.match(period.strip())
    return _ORDINAL[m.group(1).lower()] if m else None


@lru_cache(maxsize=4096)
def _heading_items(section: str) -> frozenset[str]:
    return frozenset(a.item.concept for a in asked_items(section))


@lru_cache(maxsize=8192)
def _row_item(label: str, section: str, percent: bool) -> str | None:
    item = row_item(label, section, percent)
    return item.concept if item else None


# a heading that cannot end a label: a comma, an open parenthesis, a word that goes on ("of", "attributable to")
_UNFINISHED = re.compile(r"(?:,|\([^)]*|\b(?:of|and|to|by|in|for|from|on|at|with|attributable|including|less|net of))\s*$", re.I)
_MARKS = re.compile(r"\(\d{1,2}\)|\*+")


@lru_cache(maxsize=8192)
def _fact_words(label: str, section: str, percent: bool) -> tuple[str | None, frozenset[str], frozenset[str]]:
    """(the row's US-GAAP concept, its label's content words (its section's when it has none), its section's)."""
    own = words(normalize_label(label))  # "Net income (loss) (2)" -> "net income"
    if _UNFINISHED.search(section) and len(_MARKS.sub("", label).split()) <= 2:
        # a label wrapped over two lines, its first line read as the heading of its tail: "Funds from Operations
        # attributable to Boston Properties," / "Inc. (1)" is one label
        own = words(normalize_label(f"{section} {label}"))
    return _row_item(label, section, percent), own or words(section), words(normalize_label(section))


@dataclass
class Verdict:
    ok: bool
    kind: str = "figure"  # the problem's kind when not ok ("figure"; "direction" for a wrong "rose")
    says: str = ""  # what the page prints for the claimed item, when not ok


def _matches(fig: Figure, fact: Fact, operand: bool = False) -> bool:
    """The figure's value is the fact's, at the figure's printed precision; an `operand` of shown arithmetic also as
    the cell prints it, currency mark and all ("$17,911 − 28,341" of a table in millions)."""
    slack = fig.tolerance * (1 + 1e-9) + 1e-9
    if fig.percent or fig.unit == "points":
        return fact.percent and abs(fact.magnitude - fig.value) <= slack
    if fact.percent:
        return False
    if abs(fact.magnitude * fact.scale - fig.value) <= slack:
        return True
    if operand and fig.currency and not fig.scaled and fig.currency in fact.printed:
        return abs(fact.magnitude - fig.value) <= slack
    # a bare number restates the cell as printed ("Net sales were 394,328")
    return not fig.currency and not fig.scaled and abs(fact.magnitude - fig.value) <= slack


def _unit_agrees(fig: Figure, fact: Fact, currencies: set[str]) -> bool:
    if fig.unit in ("people", "sqft"):
        return fact.unit == fig.unit
    if fig.unit == "points":
        return fact.percent
    if fact.unit in ("people", "sqft") and (fig.currency or fig.scaled and fig.currency):
        return False
    return not fig.currency or fig.currency in currencies


def _change_of_amounts(row: list[Fact]) -> bool:
    """A row of amounts whose percentages are only its changes (no year's column prints a percentage): a margin row
    printing its amount and its percentage each year is a percentage row too."""
    return any(g.unit == "money" for g in row) and not any(g.percent and g.years for g in row)


def _is_change_figure(fig: Figure, sentence: str) -> bool:
    return bool(_CHANGE_BEFORE.search(sentence[max(0, fig.start - 40):fig.start])
                or _CHANGE_AFTER.match(sentence[fig.end:fig.end + 40]))


def _prior(fact: Fact, row: list[Fact], claim: Claim) -> Fact | None:
    """The column the change is from: a year the sentence names before the fact's, else the year before."""
    earlier = [f for f in row if f is not fact and f.years and fact.years and max(f.years) < max(fact.years)
               and span_months(f.period) == span_months(fact.period)]  # the same length: three months with three months
    if not earlier:
        earlier = [f for f in row if f is not fact and f.years and fact.years and max(f.years) < max(fact.years)]
    named = [f for f in earlier if f.years & claim.years]
    pool = named or earlier
    if (q := column_quarter(fact.period)) is not None:  # a quarter changes from the same quarter of the year before
        pool = [f for f in pool if column_quarter(f.period) == q] or pool
    if not pool:
        return None
    first = max(pool, key=lambda f: (max(f.years), -abs(f.row)))
    # a year printed in several columns (earnings and per share; "impacted earnings", "did not", "total"): the one at
    # this column's place among its own year's as many columns
    latest = [f for f in pool if max(f.years) == max(first.years)]
    own = [f for f in row if f.years == fact.years and span_months(f.period) == span_months(fact.period)]
    if len(latest) > 1 and len(own) == len(latest):
        return latest[next(k for k, f in enumerate(own) if f is fact)]
    return first


# a row naming a loss beside a gain ("(Loss)/earnings", "Net income (loss)", "Other income/(loss), net"): its sign says
# which one it is, so an unsigned figure said as the other ("earnings of $636 million" for a printed ($636)) is not it
_LOSS_OR_GAIN = re.compile(r"(?i)(?=.*\bloss(?:es)?\b)(?=.*\b(?:income|earnings|profit|gains?)\b)")
_SAID_GAIN = re.compile(r"(?i)\b(?:earnings|income|profit|gains?)\s+of\s+(?:about\s+|approximately\s+|roughly\s+)?$")
_SAID_LOSS = re.compile(r"(?i)\b(?:loss(?:es)?|deficit)\s+of\s+(?:about\s+|approximately\s+|roughly\s+)?$")


def _starts_change(fig: Figure, sentence: str) -> bool:
    return bool(_FROM_BEFORE.search(sentence[max(0, fig.start - 30):fig.start]))


def _from_to_against(fig: Figure, claim: Claim) -> bool:
    """"rose from $x … to $y" with y below x (or "fell" with y above): the direction said against the two figures
    the sentence itself gives."""
    if not claim.direction or not _starts_change(fig, claim.sentence):
        return False
    after = claim.sentence[fig.end:]
    end = next((n for n in figures_in(after) if n.percent == fig.percent and n.unit == fig.unit), None)
    if end is None or not _TO_BETWEEN.search(after[:end.start]):
        return False
    return end.value != fig.value and (end.value > fig.value) != (claim.direction > 0)


def _sign_said_against(fig: Figure, fact: Fact, sentence: str) -> bool:
    if fig.negative or fact.percent or not _LOSS_OR_GAIN.match(fact.label):
        return False
    before = sentence[max(0, fig.start - 40):fig.start]
    return bool((_SAID_GAIN if fact.negative else _SAID_LOSS).search(before))


def _change_year(fact: Fact, row: list[Fact]) -> int | None:
    """The year a printed change column of a row (a percentage naming no year: "Change", "% Change", "Actual") reports,
    by its place among the row's years' columns: between two years, the later one's ("2022 Change 2021 Change 2020";
    "2023 Actual Constant 2022"); before or after all of them, the latest's ("2023 2022 % Change"); None when the row
    has no year's column."""
    if fact.years or not fact.percent:
        return None
    k = next(i for i, g in enumerate(row) if g is fact)
    dated = [(i, max(g.years)) for i, g in enumerate(row) if g.years and not g.percent]
    left, right = [y for i, y in dated if i < k], [y for i, y in dated if i > k]
    if left and right:
        return max(left[-1], right[0])
    return max((y for _, y in dated), default=None)


def _changes(fact: Fact, row: list[Fact], claim: Claim) -> list[tuple[float, float | None, float, Fact]]:
    """(difference in units, relative change in %, difference in printed numbers, prior) of the fact over its prior column.
    A row printed negative in both columns (an expense or outflow in parentheses: "(4,627)" after "(3,331)") changes
    by its size: "R&D expense rose 39%", "interest expense was up $750 million"."""
    prior = _prior(fact, row, claim)
    if prior is None:
        return []
    diff = fact.value - prior.value
    if fact.negative and prior.negative:
        diff = -diff
    pct = diff / abs(prior.value) * 100 if prior.value else None
    printed_diff = (-1 if fact.negative else 1) * fact.magnitude - (-1 if prior.negative else 1) * prior.magnitude
    return [(diff, pct, printed_diff, prior)]


_OPERAND = re.compile(r"[+−×÷*/]\s*\(?\s*$|^\s*\)?\s*[+−×÷*/=]")


def is_operand(fig: Figure, sentence: str) -> bool:
    """An input of arithmetic the sentence shows ("9,982 + 11,128 = 21,110"): its own label, not the sentence's
    item, says what it is."""
    return bool(_OPERAND.search(sentence[max(0, fig.start - 4):fig.start]) or _OPERAND.search(sentence[fig.end:fig.end + 4]))


def support(fig: Figure, claim: Claim, facts: list[Fact], prose: list[str], currencies: set[str]) -> Verdict:
    """The verdict of one figure against a page's facts and prose lines (see the module docstring)."""
    rows = rows_of(facts)
    currencies = {f.currency for f in facts if f.currency} or {"$"}  # the tables' own currency, not the page's words
    scores = claim.scores(facts)
    operand = is_operand(fig, claim.sentence)
    best = 0 if operand else max(scores.values(), default=0)

    def item_ok(f: Fact) -> bool:
        return best == 0 or id(f) in claimed_ids

    claimed = _the_part(claim, [f for f in facts if best > 0 and scores[id(f)] >= best])
    claimed_ids = {id(f) for f in claimed}
    change = _is_change_figure(fig, claim.sentence)
    wrong_direction = False
    # the figure as a printed value
    for f in facts:
        if not _matches(fig, f, operand) or not item_ok(f) or not _unit_agrees(fig, f, currencies):
            continue
        if fig.unit == "points" and _change_of_amounts(rows[f.row]):
            continue  # a row of amounts prints its change in percent ("$ 20,466 -3% $ 21,107"), never in points
        if _sign_said_against(fig, f, claim.sentence):
            wrong_direction = True  # "earnings of $636 million" where "Net (loss)/earnings" prints ($636)
            continue
        if change:  # a printed change ("(51.4)%" under "% change") with a direction word
            if claim.direction and f.negative != (claim.direction < 0) and f.percent:
                wrong_direction = True
                continue
            if (year := _change_year(f, rows[f.row])) is not None and \
                    not claim.period_agrees(replace(f, period=str(year), years=frozenset({year}))):
                continue  # "grew 33% in 2022" where 33% is the change of 2021 over 2020
        elif not claim.period_agrees(f, start=_starts_change(fig, claim.sentence)):
            continue
        if _from_to_against(fig, claim):
            wrong_direction = True  # "rose from $82,959 million to $81,797 million"
            continue
        to = _TO_BEFORE.search(claim.sentence[max(0, fig.start - 40):fig.start])
        if to and claim.from_year and f.years and max(f.years) <= claim.from_year:
            continue  # the value a change ends at is no column of the year it starts from
        if to and (ch := _changes(f, rows[f.row], claim)) and ch[0][0] and (ch[0][0] > 0) != bool(to.group("up")):
            wrong_direction = True  # "fell to $394.3 billion" while the row rose to it
            continue
        return Verdict(True)
    # the figure as a change of a claimed row, or a ratio of two facts of one column
    if change or fig.percent or fig.unit == "points":
        for f in claimed or (facts if best == 0 else []):
            if not claim.period_agrees(f) or (fig.currency and fig.currency not in currencies):
                continue
            for diff, pct, printed_diff, prior in _changes(f, rows[f.row], claim):
                if fig.unit == "points":
                    hit = f.percent and abs(abs(printed_diff) - fig.value) <= fig.tolerance + 1e-9
                elif fig.percent:
                    hit = pct is not None and not f.percent and abs(abs(pct) - fig.value) <= fig.tolerance + 1e-9
                else:
                    hit = not f.percent and (abs(abs(diff) - fig.value) <= fig.tolerance * (1 + 1e-9) or
                                             (not fig.currency and not fig.scaled and abs(abs(printed_diff) - fig.value) <= fig.tolerance + 1e-9))
                if hit:
                    if claim.direction and diff and (diff > 0) != (claim.direction > 0):
                        wrong_direction = True
                        continue
                    return Verdict(True)
        if fig.percent and not change:
            for f in claimed:
                for g in facts:
                    if g.row == f.row or g.period != f.period or not g.value or g.percent or f.percent:
                        continue
                    if (scores[id(g)] >= 1 or _row_item(g.label, g.section, False) == "Revenues") and \
                            abs(abs(f.value / g.value) * 100 - fig.value) <= fig.tolerance + 1e-9:
                        return Verdict(True)
    # the figure printed in a prose line that shares the claim's words; never where a table row of the claimed item
    # prints the claimed period otherwise ("Flexibles net sales of $2,777 million for the twelve months ended June 30,
    # 2022", the row printing 11,151: the prose's $2,777 million is the June quarter's); an amount of the same order
    # (a per-share amount printed in a row's label, "Cash dividends declared ($0.88 per share)", is no other period's)
    stated = best >= 2 and not change and not fig.percent and fig.unit != "points" and bool(claim.years) and any(
        f.years and not f.percent and f.value and 0.01 <= fig.value / abs(f.value) <= 100 and claim.period_agrees(f)
        and _unit_agrees(fig, f, currencies) for f in claimed)
    if not wrong_direction and not stated:
        for line in prose:
            if not (claim.words & words(line)) and claim.words:
                continue
            for n in figures_in(line):
                # at the figure's precision: a rounder printed number ("1", "(1)") does not state "$1.29"
                if abs(n.value - fig.value) <= fig.tolerance * (1 + 1e-9) + 1e-9 and n.percent == fig.percent:
                    after = line[n.end:n.end + 30]
                    if fig.currency and not n.currency and _COUNT_AFTER.match(after):
                        continue  # "800 million shares authorized" is no $800 million
                    if fig.unit == "people" and not PEOPLE_WORDS.search(after):
                        continue
                    if fig.unit == "sqft" and not SQUARE_FEET_WORDS.search(after):
                        continue
                    if fig.unit == "points" and not _POINTS_AFTER.match(after):
                        continue  # "1.0 percentage points" is no footnote mark "(1)" nor a plain 1
                    if fig.currency and (n.currency or "$") != fig.currency and fig.currency not in currencies:
                        continue
                    return Verdict(True)
    return Verdict(False, "direction" if wrong_direction else "figure", _says(claimed, claim))


def _the_part(claim: Claim, claimed: list[Fact]) -> list[Fact]:
    """Of the rows naming the claimed item alike, those of the part the sentence names, when one of them names it
    (a product, segment or geography by its label or heading: "iPad net sales" is the iPad row): a "Total …" row
    naming no part is not it (unless the sentence says "total"), nor the part's row under a heading naming another
    item than the sentence's (a segment's row under "Adjusted EBIT" for its net sales); nor a row whose label says the item
    alone ("Net sales" printed under the segments' rows is their total)."""
    if not claim.part_words or not claimed:
        return claimed

    def part(f: Fact) -> frozenset[str]:
        _, label, section = _fact_words(f.label, f.section, f.percent)
        return claim.part_words & (label | section)

    def other_item(f: Fact) -> bool:
        return bool(claim.concepts and (h := _heading_items(f.section)) and not h & claim.concepts)

    naming = [f for f in claimed if part(f)]
    if not naming:
        return claimed
    # a part named by a row of the sentence's item (not only by a row under another item's heading: "Electric" under
    # "Operating Revenues" for "Pacific Gas and Electric Company: Net Income")
    of_item = any(not other_item(f) for f in naming)
    item_words = claim.words - claim.part_words

    def parts_total(f: Fact) -> bool:
        # "Total net sales", or a label saying the item alone ("Net sales" under the segments' rows)
        return bool(_TOTAL.match(f.label)) or of_item and _fact_words(f.label, f.section, f.percent)[1] <= item_words

    def elsewhere(f: Fact) -> bool:
        return bool(part(f)) and other_item(f)

    keep = [f for f in claimed if part(f) or claim.says_total or not parts_total(f)]
    # the part's row under another item's heading is not it, when the part has a row of the item or the sentence's item
    # has its own row ("Electric" revenues are no "Northwind Gas and Electric Company: Net Income")
    if of_item or any(_row_item(f.label, f.section, f.percent) in claim.concepts for f in keep if not elsewhere(f)):
        keep = [f for f in keep if not elsewhere(f)]
    return keep


def _says(claimed: list[Fact], claim: Claim) -> str:
    """What the page prints for the claimed item: its row's values, the sentence's years first."""
    if not claimed:
        return ""
    rows = rows_of(claimed)
    best_row = max(rows.values(), key=lambda fs: (any(f.years & claim.years for f in fs), -fs[0].row))
    cells = sorted(best_row, key=lambda f: not (f.years & claim.years))
    return f"{best_row[0].label}: " + "; ".join(f"{f.printed} ({f.period})" if f.period else f.printed for f in cells)
