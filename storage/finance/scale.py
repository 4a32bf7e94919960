"""Scale captions: what a table's own caption says its numbers are counted in.

One reader for the forms filings print over a table: "(Millions)", "(In millions)", "($ in millions)",
"(Dollars in thousands)", "in millions of dollars", "(In Millions, Except Per Share Data)", "(in $
billions)", "Amounts in thousands", "(€ in millions)", "$M", "(000s)", "(shares in millions)" (a
share-count scale, not currency), "(In millions, except shares in thousands)". A caption scales the
amounts of its table; per-share amounts and percentages are never scaled, share counts take the share
scale (the amounts' scale unless the caption names one for shares).

    read_scale("(In millions, except per share data)") -> Scale(word="million", factor=1e6, ...)
    find_caption("CONSOLIDATED STATEMENTS OF INCOME (Millions)") -> "(Millions)"
    unit_of("Diluted earnings per share", "$2.31") -> "USD/share";  factor(...) -> 1.0
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

FACTORS = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_UNSCALED = {"unit": 1.0}  # share counts printed as they are ("except share and per share data")
_WORD = {"thousands": "thousand", "thousand": "thousand", "millions": "million", "million": "million",
         "billions": "billion", "billion": "billion", "k": "thousand", "000": "thousand", "000s": "thousand",
         "'000": "thousand", "'000s": "thousand", "m": "million", "mm": "million", "mn": "million", "b": "billion",
         "bn": "billion"}
_SCALE_WORDS = r"(?:millions|thousands|billions)"
_CUR = r"(?:[$€£¥]|US\$|USD|EUR|GBP)"
_WHAT = r"(?:dollars|amounts|figures|numbers|u\.?s\.? dollars|euros?|pounds|usd|eur|gbp|shares|dollars and shares)"
_EXCEPT_CLAUSE = (r"(?:,?\s*except\s+(?:per[\s-]share|share\s+and\s+per[\s-]share|shares?|per[\s-]unit)"
                  r"(?:\s+(?:data|amounts|information|in\s+" + _SCALE_WORDS + r"))?)?")
_IN_SCALE = (rf"(?:\b{_WHAT}\s+|{_CUR}\s*)?\bin\s+(?:{_CUR}\s*)?(?P<w>{_SCALE_WORDS})\b"
             rf"(?:\s+of\s+(?:u\.?s\.?\s+)?(?:dollars|euros?|pounds)\b)?")
_OTHER_FORMS = (
    # "(Millions)", "(Millions of dollars)", "(Thousands, except per share data)", "($ millions)"
    rf"|\(\s*(?:{_CUR}\s*)?(?P<w2>{_SCALE_WORDS})\b[^)\n]*\)"
    # "(000s)", "($000)", "(000's omitted)", "in 000s"
    r"|\(\s*(?:[$€£]\s*)?(?P<w3>'?000'?s?)(?:\s+omitted)?\s*\)|\bin\s+(?P<w4>'?000'?s)\b"
    # "$M", "($M)", "(in $MM)", "€bn" standing alone
    r"|(?<![\w$€£])\(?(?:in\s+)?(?:US|A|C)?[$€£]\s?(?P<w5>MM|M|K|B|bn|mn)\)?(?![\w$€£])"
    # "($ million, except per share amounts)", "US$ million": a currency then the word, no number between
    r"|(?<![\w$€£])(?:US)?[$€£]\s?(?P<w6>millions?|thousands?|billions?)\b")
# the forms a caption takes (each names its scale word in a group "w*"): "(In millions)", "($ in millions)",
# "(Dollars in thousands)", "Amounts in thousands", "(in $ billions)", "in millions of dollars", "(€ in millions)",
# "(shares in millions)", "In millions, except per share data" (and what follows it up to a ")")
CAPTION = re.compile(_IN_SCALE + r"(?:[^)\n]*)?" + _OTHER_FORMS, re.IGNORECASE)
# the caption's words alone, for cutting it out of a header line ("In millions, except per share data  Years ended")
CAPTION_PHRASE = re.compile(_IN_SCALE + _EXCEPT_CLAUSE + r",?" + _OTHER_FORMS, re.IGNORECASE)
# the unit words a column head prints after its year ("2023 $ million", "2022 US$m", "2023 US cents"), one word at a
# time: a currency, a scale word or cents; HEAD_UNIT_SCALE: the words name a scale or cents (a "$" alone is no unit)
HEAD_UNIT_WORD = re.compile(r"(?i)^(?:(?:US|A|C|NZ)?[$€£]|US|USD|EUR|GBP|(?:(?:US)?[$€£])?(?:m|mm|mn|bn|k|'000s?|000s?)"
                            rf"|{_SCALE_WORDS}|(?:million|thousand|billion)|cents?)$")
HEAD_UNIT_SCALE = re.compile(rf"(?i)(?:^|[$€£\s])(?:m|mm|mn|bn|k|'?000s?)$|{_SCALE_WORDS}|\b(?:million|thousand|billion)\b|cents?")
# "Millions" (a caption stripped of its parentheses): the whole text, the scale word and an "except" clause only
_BARE = re.compile(rf"^\s*\(?\s*(?P<w>{_SCALE_WORDS})(?:\s+of\s+(?:u\.?s\.?\s+)?(?:dollars|euros?|pounds))?"
                   + _EXCEPT_CLAUSE + r"\s*\)?\s*$", re.IGNORECASE)
_SHARES_SCALE = re.compile(rf"\bshares?(?:\s+(?:amounts|data|counts?))?\s+in\s+(?P<w>{_SCALE_WORDS})\b"
                           r"|\bshares?\s+\((?P<w2>millions|thousands|billions)\)"
                           # "except number of shares which are reflected in thousands"
                           rf"|\bshares?\b[^;()]{{0,40}}?\bin\s+(?P<w3>{_SCALE_WORDS})\b", re.IGNORECASE)
# "except share and per share data", "except number of shares": share counts as printed
_EXCEPT_SHARES = re.compile(r"\bexcept\s+(?:for\s+)?(?:the\s+)?(?:number\s+of\s+)?shares?\b(?![\s-]*per\b)", re.IGNORECASE)
_SHARES_ONLY = re.compile(rf"^\W*shares?(?:\s+(?:amounts|data|counts?))?\s+in\s+{_SCALE_WORDS}\W*$", re.IGNORECASE)
_EXCEPT = re.compile(r"\bexcept\b", re.IGNORECASE)


@dataclass(frozen=True)
class Scale:
    word: str  # the amounts' scale said: "million", "thousand", "billion", "" (not scaled)
    factor: float  # what an amount of the table is multiplied by (1e6 for "(In millions)")
    share_factor: float  # what a share count is multiplied by ("shares in thousands": 1e3)
    currency: str  # "$", "€", "£" when the caption names one, else ""
    text: str  # the caption as printed


@lru_cache(maxsize=4096)
def find_caption(text: str) -> str | None:
    """The scale caption printed in `text` (a line or a page), as printed; None when there is none."""
    m = CAPTION.search(text or "")
    if m:
        return m.group(0).strip()
    m = _BARE.match(text or "")
    return m.group(0).strip() if m else None


def _word_of(m: re.Match) -> str:
    raw = next(g for g in m.groups() if g)
    return _WORD.get(raw.lower().strip("'").replace("'", ""), _WORD.get(raw.lower(), ""))


def _currency(text: str) -> str:
    if m := re.search(r"[$€£¥]", text):
        return m.group(0)
    if re.search(r"\b(?:dollars|usd)\b", text, re.IGNORECASE):
        return "$"
    if re.search(r"\b(?:euros?|eur)\b", text, re.IGNORECASE):
        return "€"
    if re.search(r"\b(?:pounds|gbp)\b", text, re.IGNORECASE):
        return "£"
    return ""


@lru_cache(maxsize=4096)
def read_scale(caption: str) -> Scale | None:
    """The scale a caption (or any text holding one) says; None when it says none."""
    text = caption or ""
    m = CAPTION.search(text) or _BARE.match(text)
    if m is None:
        return None
    printed = m.group(0).strip()
    word = _word_of(m)
    shares = _SHARES_SCALE.search(text)
    share_word = _word_of(shares) if shares else "unit" if _EXCEPT_SHARES.search(text) else word
    if _SHARES_ONLY.match(printed) or (shares and shares.start() <= m.start() and not _EXCEPT.search(text[:shares.start()])
                                       and not CAPTION.search(text, shares.end())):
        # "(shares in millions)": a share-count scale; amounts keep theirs (none printed here)
        return Scale("", 1.0, FACTORS.get(share_word, 1.0), "", printed)
    factor = FACTORS.get(word, 1.0)
    return Scale(word, factor, _UNSCALED.get(share_word) or FACTORS.get(share_word, factor), _currency(text), printed)


def scale_word(caption: str) -> str:
    """"million" for a table "in millions" ("(Dollars in millions)", "(Millions)", "$M"), "" when the
    caption says no scale of amounts."""
    scale = read_scale(caption)
    return scale.word if scale else ""


def scales_in(text: str) -> list[Scale]:
    """Every caption's scale printed in a text (a page: its tables may differ)."""
    out = []
    for m in CAPTION.finditer(text or ""):
        if scale := read_scale(m.group(0)):
            out.append(scale)
    return out


_PER_SHARE = re.compile(r"per (?:common |ordinary |diluted |basic |class [a-c] )?(?:share|unit)|\beps\b|\bdiluted\b|"
                        r"\bbasic\b|dividends? declared per", re.IGNORECASE)


def per_share_head(text: str) -> bool:
    """A column head (or label) naming a per-share measure: "EPS (diluted)", "Per Diluted Share"."""
    return bool(_PER_SHARE.search(text or ""))


# a column head that is a per-share measure and nothing else ("Earnings per Common Share", "EPS"), beside
# an amount's column under one period; not "Basic | Diluted" (share counts' heads too) nor a head the
# reader merged with its neighbour's ("Amount Per Share")
_PER_SHARE_COLUMN = re.compile(r"^\W*(?:diluted |basic )?(?:eps|(?:net )?(?:earnings|income) per (?:common |ordinary |diluted |basic )?"
                               r"share)(?:,? ?\(?(?:diluted|basic)\)?)?\W*(?:\(\d\)\W*)?$", re.IGNORECASE)


def names_share_count(label: str) -> bool:
    """A label of a share count, whatever per-share words it also says ("Weighted-average shares used in computing
    diluted earnings per share"); "Weighted-average Black-Scholes value per share" is no count."""
    return bool(_NOT_PER_SHARE.search(label or ""))


def per_share_column(head: str, label: str) -> bool:
    """The cell of a per-share column (`head`: its column head without the period) of a row that is no share count."""
    return bool(_PER_SHARE_COLUMN.search(head or "")) and not _SHARE_COUNT.search(label or "")


# a section over per-share rows, its last words wrapped to the next line: "Diluted earnings per common"
_PER_SHARE_SECTION = re.compile(_PER_SHARE.pattern + r"|\bper (?:common|ordinary)\b|\bearnings per\b", re.IGNORECASE)
_PER_SHARE_CAPTION = re.compile(r"\bper[\s-]share\b", re.IGNORECASE)
_SHARE_COUNT = re.compile(r"\bshares?\b|\bunits outstanding\b|weighted[- ]average (?:number|common|diluted|basic)",
                          re.IGNORECASE)
_NOT_PER_SHARE = re.compile(r"\bshares? (?:used|outstanding)|weighted[- ]average\s+(?:number|common|diluted|basic|shares?)\b|"
                            r"number of", re.IGNORECASE)
# an amount on an equity row that names its shares: "Common stock and additional paid-in capital, … shares issued";
# an amount "share" only qualifies: "Share-based compensation", "Tax benefits from ... share sales", "Share repurchases"
_EQUITY_AMOUNT = re.compile(r"\bstock\b|\bcapital\b|\bpaid-in\b|\bshare[- ]based\b|\bshare\s+(?:sales?|repurchases?|buybacks?|"
                            r"issuances?)\b|\b(?:proceeds|payments?|expenses?|compensation|costs?|(?:tax\s+)?benefits?)\b",
                            re.IGNORECASE)
# a count of people: "Number of employees", "Employees", "Headcount", "Year-end workforce" (not "Issuance of securities to employees")
_PEOPLE = re.compile(r"\b(?:number of|total)\s+(?:full[- ]time\s+)?(?:employees|people)\b|^\W*(?:full[- ]time\s+)?"
                     r"(?:employees|people)\W*$|\bheadcount\b"
                     # "Year-end workforce", "Total workforce" (not "Reduction in workforce", a cost)
                     r"|^\W*(?:(?:year|period)[- ]end\s+|total\s+)?workforce\W*$", re.IGNORECASE)
# a row whose item is a ratio: its label ends with the word ("Effective tax rate", "Operating margin", "Current ratio")
_RATIO = re.compile(r"\b(?:ratio|rate|margin|percent(?:age)?)s?\W*(?:\(\w{1,2}\)\W*)?$", re.IGNORECASE)
_PARENTHESES = re.compile(r"\([^)]*\)")
_PER_SHARE_FORM = re.compile(r"^\D*\d{1,3}\.\d{2,4}\D*$|^\D*\d{1,2}\D*$")  # "$6.11", "(0.363)", "2": no amount in millions
_DECIMALS = re.compile(r"^\D*\d{1,3}\.\d{2,4}\D*$")
TWO_PLACES = re.compile(r"^\D*\d{1,3}\.\d\d\D*$")
PER_SHARE_PLACES = re.compile(r"^\D*\d{1,3}\.\d{2,3}\D*$")  # "$0.19", "(0.705)": how per-share amounts are printed


# a row label naming its values percentages, in a table of amounts: "Adjusted EBIT / Sales %", "Margin %(1)",
# "Operating margin (%)", "Margin (in %)", "% growth - Adjusted EBIT", "%"; never a rate in a name ("Senior notes 4.5%")
PERCENT_LABEL = re.compile(r"(?:^|[^\d.\s])\s*%\s*\)?\s*(?:\(\d{1,2}\))?\s*$|\(\s*%\s*\)|^\s*%\s")
# amounts counted in cents: "US cents", "cents per share", "EPS (cps)"; never the British "per cent" (a percentage)
CENTS = re.compile(r"(?i)(?<!\bper\s)\bcents?\b|\bcps\b")


@lru_cache(maxsize=65536)  # each cited page's cells are read again for every answer that cites it
def unit_of(label: str, printed: str, caption: str = "", section: str = "") -> str:
    """The unit of a printed value: "%" (printed with %, or a rate/margin row without a currency),
    "USD/share" (a per-share row; another currency's code when the caption names it), "shares",
    "people", or the amounts' currency ("USD", "EUR", "GBP"; "" when nothing names one).

    The label's parentheses state no unit ("Dividends declared ($0.58 per share)" is an amount); a per-share
    word needs a per-share value ("$6.11", not "1,041" on "Net income available to shareholders - basic"); a
    two-place value under a caption "except per share" is per share even when its section was not read."""
    scale = read_scale(caption)
    cur = (scale.currency if scale else "") or _currency(printed) or _currency(caption)
    code = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}.get(cur, "USD" if not cur else "")
    if "%" in printed:
        return "%"
    if re.search(r"(?<![A-Za-z])(?:bps?|basis points)\b", printed, re.IGNORECASE):  # "(390)bp", "25 bps"
        return "bp"
    own = _PARENTHESES.sub(" ", label)
    count = _SHARE_COUNT.search(own) and not _EQUITY_AMOUNT.search(own) or _NOT_PER_SHARE.search(section or "")
    if _PER_SHARE.search(own) and not _NOT_PER_SHARE.search(own) and _PER_SHARE_FORM.match(printed) \
            or not count and _PER_SHARE_SECTION.search(section or "") and _DECIMALS.match(printed) \
            or not _SHARE_COUNT.search(own) and _PER_SHARE_CAPTION.search(caption) and PER_SHARE_PLACES.match(printed):
        return f"{code}/share"  # "Diluted" under "Earnings per share:"; "$139.77" under a caption "except per share"
    if count and "$" not in printed:
        return "shares"
    if _PEOPLE.search(own):
        return "people"
    if _RATIO.search(own) and not re.search(r"[$€£,]", printed) and "." in printed \
            and not re.search(r"\bexpense|income|cost", own, re.I):
        return "ratio"
    return code


def factor(unit: str, scale: Scale | None) -> float:
    """What a value of `unit` in a table of `scale` is multiplied by: per-share amounts, percentages,
    ratios, people and years never; share counts by the share scale; amounts by the caption's."""
    if scale is None or unit in ("%", "bp", "ratio", "people", "years") or unit.endswith("/share"):
        return 1.0
    if unit == "shares":
        return scale.share_factor
    return scale.factor


# ---- the agent's scale words (issue 27: one home for the vocabulary; each spelt as its one user had it)
SCALE_WORDS = _SCALE_WORDS  # "millions", "thousands", "billions" as a caption says them ("in millions")
TABLE_SCALE_WORDS = r"(?:millions|thousands)"  # a row label that is a caption ("In thousands")
SCALE_WORD = r"(?:million|billion|thousand)s?"  # after an answer line's value ("$34,229 million")
# the scales prose writes after a number ("$2.3 bn", "450 thousand", "$1.2 trillion") and their factors
PROSE_SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "mm": 1e6, "m": 1e6, "mln": 1e6,
                "billion": 1e9, "bn": 1e9, "b": 1e9, "trillion": 1e12, "tn": 1e12}
PROSE_SCALE = r"thousands?|millions?|billions?|trillions?|bn|mn|mm|mln|tn"
# the words after a number in prose that say its unit or its table's caption (the claim check's figures):
# "$18,752 (in millions)", "34,229 (millions)", "$512 (in thousands)": the table's caption after the figure
CAPTION_AFTER = re.compile(r"^\s?\(\s*(?:[$€£¥]\s*)?(?:in\s+)?(" + SCALE_WORDS + r")(?:\s+of\s+(?:us\s+)?dollars)?\s*\)", re.I)
# "12 million dollars", "5 euros": the currency said in words (group 1)
CURRENCY_WORDS_AFTER = re.compile(r"^\s*(?:million\s+|billion\s+)?(dollars|euros?|pounds|yen)\b", re.I)
# "12,000 employees", "450 team members": a count of people; "25 basis points", "1.5 percentage points", "30 bps":
# points (BASIS_POINTS_AFTER: a hundredth of a percentage point)
PEOPLE_AFTER = re.compile(r"^\s*(?:full[- ]time\s+)?(?:employees|people|persons|workers|staff|associates|team members)\b", re.I)
POINTS_AFTER = re.compile(r"^\s*(?:percentage|basis)?\s*(?:points?|pts?\b|pp\b|bps\b)", re.I)
BASIS_POINTS_AFTER = re.compile(r"^\s*(?:basis\s+points?|bps?\b)", re.I)
# a change asked or said in percentage points (of a margin, a rate, a growth), not as a percentage of itself
POINTS_SAID = re.compile(r"\bpercentage[- ]points?\b|\bbasis points\b|\bbps\b|\bpp\b|\bpoints?\b", re.I)
# the words of a row, section or sentence that count people or square feet (the claim check's facts and support)
PEOPLE_WORDS = re.compile(r"(?i)\b(?:employees|people|persons|workers|staff|headcount|associates|team members|full[- ]time)\b")
SQUARE_FEET_WORDS = re.compile(r"(?i)\bsquare (?:feet|foot|ft)\b|\bsq\.? ?ft\b|\bsf\b")
# "1.2 million square feet", "450,000 sq. ft": an area, no amount
SQUARE_FEET_AFTER = re.compile(r"^\s*(?:million\s+|thousand\s+)?(?:square (?:feet|foot)|sq\.? ?ft\b)", re.I)


# ---- a section's caption: the scale a whole part of a filing is printed in
# the title of the financial statements or their notes, printed in a page's heading block
STATEMENTS_TITLE = re.compile(
    r"\b(?:notes\s+to\s+(?:the\s+)?(?:condensed\s+)?(?:consolidated\s+|combined\s+)?(?:interim\s+)?financial\s+statements"
    r"|(?:condensed\s+)?(?:consolidated|combined)\s+(?:financial\s+statements|statements?\s+of\s+\w+|balance\s+sheets?))\b",
    re.IGNORECASE)
# a form's item heading (a 10-K's "Item 9A. Controls and Procedures"): a new part of the filing begins
ITEM_HEADING = re.compile(r"^\s*item\s+\d{1,2}[a-c]?\b[.:\s–—-]", re.IGNORECASE)
HEADING_LINES = 6  # a page's heading block: its first lines, running header and footer dropped


def section_caption(lines: list[str]) -> str | None:
    """The caption a page's heading block prints for its whole section: a scale caption standing on a
    line of its own under the title of the financial statements or their notes ("Notes to the Consolidated
    Financial Statements / Years ended December 31, 2020 ... / (Dollars in millions, except otherwise
    stated)"). Tables of the section that print no caption of their own, on this page or the pages
    after it, are counted in it. `lines`: the page's first lines, furniture dropped. None without one."""
    head = [" ".join(line.split()) for line in lines if line.strip()][:HEADING_LINES]
    titled = False
    for line in head:
        if STATEMENTS_TITLE.search(line):
            titled = True
        elif titled and (caption := find_caption(line)) and len(caption) >= 0.8 * len(line.strip(" :")):
            return caption.strip(" ()")
    return None


def ends_section(lines: list[str]) -> bool:
    """A page's heading block opens another part of the filing (a form's item heading)."""
    head = [line for line in lines if line.strip()][:HEADING_LINES]
    return any(ITEM_HEADING.match(line) for line in head)


# a row label's own unit, printed after its item in parentheses as releases do ("Revenue ($B)", "Net sales ($ in
# millions)", "Gross margin (%)"): the row's scale, never a word of its item
# (a bare letter needs its currency sign: "(b)" is a note's mark)
LABEL_UNIT = re.compile(r"\s*\((?:(?:[$€£]|usd|us\$)\s*(?:in\s+)?(?:b|bn|m|mm|mn|k|000s?|billions?|millions?|"
                        r"thousands?)|(?:in\s+)?(?:billions|millions|thousands)|\s*%\s*)\)\s*$", re.IGNORECASE)


def label_unit(label: str) -> str:
    """The unit a row's label prints after its item ("($B)" of "Revenue ($B)"), "" when none: the row's caption."""
    return m.group(0) if (m := LABEL_UNIT.search(label)) else ""


# a change in percentage points as a cell prints it: "6.5 pts", "(2.6)pts", "120 bps", "3.1 ppts"
POINTS_CELL = re.compile(r"(?i)\d\)?\s*(?:pts?|ppts?|pp|bps?|points?)\.?$")
