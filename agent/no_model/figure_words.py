"""Figures said as people say them: "$52,417 million in fiscal 2022", from a printed cell, its
column's period and its table's unit caption ("in millions, except per share data").

The printed value stays in the figure line (agent/no_model/figures.py) so the claim is checkable on the
page; this module only adds the spoken form and reads printed numbers ("(1,577)" = -1577).
"""

from __future__ import annotations

import re

from storage.finance.numbers import CHANGE_WORD, RANGE, parse_number, split_scale
from storage.finance.periods import PRINTED_DATE, column_head, SAID_FULL_YEAR, SAID_SPAN, YEAR, YEAR_RE, printed_years
from storage.finance.scale import CENTS, names_share_count, per_share_column, scale_word  # the one reader of scale captions (also used by cited_rows)

_CURRENCY = re.compile(r"[$€£]")


def decimals(printed: str) -> int:
    m = re.search(r"\.(\d+)", printed)
    return len(m.group(1)) if m else 0


def currency_of(printed: str, caption: str, table_has_dollar: bool) -> str:
    """The currency symbol a figure is in: printed with the value, in its table, or in the caption
    ("Dollars in millions")."""
    if m := _CURRENCY.search(printed):
        return m.group(0)
    if table_has_dollar or re.search(r"\bdollars\b|\$", caption or "", re.IGNORECASE):
        return "$"
    if m := _CURRENCY.search(caption or ""):
        return m.group(0)
    return ""


def said_period(period: str, instant: bool | None = None) -> str:
    """A column's period as said: "fiscal 2022" (a year's column), "the three months ended June 30,
    2023"; a date without a span: "as of December 31, 2022" for a balance (`instant`), "the period
    ended June 30, 2023" for a flow, "at ..." when unknown; else "in 2023"."""
    period = " ".join(period.split())
    years = YEAR_RE.findall(period)
    date = PRINTED_DATE.search(period)
    if (m := SAID_SPAN.search(period)) and not re.match(r"(?i)twelve|fifty|52|53", m.group(0)):
        span = m.group(0).lower()
        return f"the {span} ended {date.group(0)}" if date else f"the {span} of {years[-1]}" if years else period
    if SAID_FULL_YEAR.search(period) and years:
        return f"the end of fiscal {years[-1]}" if instant else f"fiscal {years[-1]}"
    if date:
        return f"as of {date.group(0)}" if instant else "the period ended " + date.group(0) if instant is False \
            else f"at {date.group(0)}"
    if re.fullmatch(rf"(?:FY\s*)?{YEAR}", period, re.IGNORECASE):
        return f"the end of fiscal {years[-1]}" if instant else f"fiscal {years[-1]}"
    return years[-1] if years else period


def said_value(printed: str, label: str, caption: str, table_has_dollar: bool, cents: bool = False) -> str:
    """"$52,417 million", "-$1,577 million", "$6.11 per share", "12.3 cents per share" (`cents`: the
    column, label or caption counts in cents), "20.4%", or the printed value when it is not a number."""
    number = parse_number(printed)
    if number is None:
        return printed
    core = re.sub(r"[^\d.,]", "", printed)
    sign = "-" if number < 0 else ""
    if "%" in printed:
        return f"{sign}{core}%"
    if cents:
        return f"{sign}{core} cents per share"
    currency = currency_of(printed, caption, table_has_dollar)
    if re.search(r"per (?:common |diluted |basic )?share|\beps\b|\bdiluted\b|\bbasic\b", label, re.IGNORECASE) \
            and not names_share_count(label):
        return f"{sign}{currency}{core} per share"
    scale = scale_word(caption)
    if re.search(r"\bshares\b|\bemployees\b|\bheadcount\b", label, re.IGNORECASE):
        currency = ""
    unit = f" {scale}" if scale else ""
    return f"{sign}{currency}{core}{unit}"


def said(printed: str, period: str, label: str, caption: str, table_has_dollar: bool, instant: bool | None = None,
         cents: bool = False) -> str:
    """"$52,417 million in fiscal 2022" ("as of December 31, 2022" for a balance)."""
    when = said_period(period, instant)
    joiner = " " if when.startswith(("as of", "at ")) else " at " if when.startswith("the end") else " in "
    return f"{said_value(printed, label, caption, table_has_dollar, cents)}{joiner}{when}"


def line_value(printed: str, label: str, caption: str, table_has_dollar: bool, cents: bool = False) -> str | None:
    """The cell's value as a figure line writes it: the printed digits with the currency and the
    caption's scale ("$52,417 million", "$(1,577) million", "$6.11 per share", "43.3%"), so the line
    says each figure once; None when the printed form cannot carry them (a leading minus, text). A change said in
    words keeps its word ("down 32%")."""
    figure, word = split_scale(printed)
    if word:  # "$4.0 billion", "$10.5-11.5 billion": the cell's own scale word, before the caption's
        return line_value(figure, label, f"in {word}s", table_has_dollar or "$" in figure, cents)
    if ends := RANGE.match(printed):  # a guidance's range: "$8.51 to $8.53 billion"
        low, high = (line_value(ends.group(k), label, caption, table_has_dollar, cents) for k in ("low", "high"))
        if not low or not high:
            return None
        unit = re.search(r"[\d)%]([^\d)%]*)$", high).group(1)  # " billion", " per share"
        return f"{low.removesuffix(unit) if unit else low} to {high}"
    if word := CHANGE_WORD.match(printed):
        rest = line_value(printed[word.end():], label, caption, table_has_dollar, cents)
        return f"{word.group(1)} {rest}" if rest else None
    core = re.sub(r"[^\d.,()%]", "", printed)
    if parse_number(printed) is None or re.match(r"\s*[-−–]", printed) or not re.fullmatch(r"\(?[\d.,]+\)?%?", core):
        return None
    if core.endswith("%"):
        return core
    currency = currency_of(printed, caption, table_has_dollar)
    spoken = said_value(printed, label, caption, table_has_dollar, cents)
    if currency and currency not in spoken:
        currency = ""  # a share count or headcount: no currency
    unit = re.search(r"[\d)]([^\d)]*)$", spoken).group(1)  # " million", " per share"
    return f"{currency}{core}{unit}"


def figure_line(cell, source_id: str, caption: str = "", table_has_dollar: bool = False, instant: bool | None = None,
                per_share: bool = False) -> str:
    """`Net sales (Years ended December 31, 2022): $52,417 million [^1]`: the row label, the column
    (its period) and the value as `figure_value` says it (agent/citations/quotes.py reads the label
    and the value back to highlight them on the page)."""
    return f"{cell.label} ({head_with_year(cell.period)}): {figure_value(cell, caption, table_has_dollar, instant, per_share)} {source_id}"


def head_with_year(period: str) -> str:
    """The column's period as printed, its year said in full when the head prints two digits ("Q4'22, 2022")."""
    if YEAR_RE.search(period) or not (years := printed_years(period)):
        return period
    return f"{period}, {', '.join(str(y) for y in dict.fromkeys(years))}"


def figure_value(cell, caption: str = "", table_has_dollar: bool = False, instant: bool | None = None,
                 per_share: bool = False) -> str:
    """The cell's value as printed with its currency and scale, said once ("$52,417 million"); a value
    whose printed form cannot carry them keeps the spoken form after " — ". `per_share`: the row is a
    per-share line item, whatever its label says."""
    # a per-share row whose label does not say so ("Net income" under "Diluted earnings per share:")
    # or a cell of a per-share column beside the amount's ("Earnings | Earnings per Common Share")
    per_share = per_share or per_share_column(column_head(cell.period), cell.label)
    label = f"{cell.label} per share" if per_share else cell.label
    # amounts counted in cents by their row or column ("EPS (diluted US cents)"): never "$12.3 per share";
    # not by the caption, whose "cents" may name only its per-share rows
    cents = "%" not in cell.value and any(CENTS.search(text or "") for text in (cell.label, cell.period))
    if (value := line_value(cell.value, label, caption, table_has_dollar, cents)) is not None:
        return value
    spoken = said(cell.value, cell.period, label, caption, table_has_dollar, instant, cents)
    tail = f" — {spoken}" if spoken != cell.value else ""
    return f"{cell.value}{tail}"
