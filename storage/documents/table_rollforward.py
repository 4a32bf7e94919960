"""Roll-forward tables: the period of each row comes from the balance rows around it.

A statement of stockholders' equity, a reconciliation of redeemable interests or an RSU activity
table prints no period header over its columns: its columns are components ("Common Stock
Amount", "Retained Earnings", "Total Equity", "Number of RSUs") and its periods are written in
the rows ("Balance at December 31, 2013", then the year's movements, then "Balance at December
31, 2014"). A balance row is as of its date; a row between two balance rows a year apart is a
movement of the year that ends at the later one. Rows before the first balance row, after the
last one, or between balances that are not about a year apart get no period (a missing figure
beats a wrong one).
"""

from __future__ import annotations

import re
from datetime import date

from storage.finance.periods import DATE, YEAR, parse_date

_BALANCE = re.compile(  # "Balance at", "Balances as of", "Outstanding at", "Nonvested shares at"
    r"^\s*(?:(?:beginning|ending|opening|closing)\s+)?(?:balances?|outstanding|(?:non-?|un)vested)"
    r"(?:\s+(?:shares|awards|options|units|RSUs))?(?:,\s*|\s+(?:at|as\s+of|as\s+at|on),?\s+)(?=[A-Za-z]{3})",
    re.IGNORECASE)
YEAR_DAYS = (350, 380)  # fiscal years ending on a weekday ("September 28, 2019" to "September 26, 2020")


def balance_date(label: str) -> tuple[str, date] | None:
    """("December 31, 2013", date) of a balance row label ("Balance at December 31, 2013", "Balances
    as of May 31, 2020", "Outstanding at February 3, 2018"), None for any other row."""
    if not _BALANCE.match(label):
        return None
    m = DATE.match(label, _BALANCE.match(label).end())  # the date right after: "Balance at December 31, 2013"
    when = parse_date(m.group(0)) if m else None
    if when is None:
        return None
    return re.sub(rf"(\d{{1,2}}),?\s+({YEAR})", r"\1, \2", " ".join(m.group(0).split())), when


def row_periods(labels: list[str]) -> list[str | None] | None:
    """The period of each row of a roll-forward ("December 31, 2013" for a balance, "Year ended
    December 31, 2014" for the movements before the next balance), or None when the rows are no
    roll-forward (fewer than two balance rows)."""
    balances = [(i, b) for i, label in enumerate(labels) if (b := balance_date(label))]
    if len(balances) < 2:
        return None
    out: list[str | None] = [None] * len(labels)
    for i, (text, _) in balances:
        out[i] = text
    for (i, (_, start)), (j, (text, end)) in zip(balances, balances[1:]):
        if YEAR_DAYS[0] <= (end - start).days <= YEAR_DAYS[1]:
            for k in range(i + 1, j):
                out[k] = f"Year ended {text}"
    return out


# a bridge's end rows name their year after the item: "Earnings from Operations - 2015", "Adjusted EPS (2016)",
# "Net sales, 2022", "Net sales fiscal year 2023" (a year touching the item, "Notes due 2025", names no period)
_YEAR_LABEL = re.compile(rf"(?i)^(?P<stem>.*[A-Za-z].*?)(?:\s+[-–—:]\s*|,\s*|\s*\(|\s+(?=fiscal\b|fy\s?\d))"
                         rf"(?:fiscal\s+(?:year\s+)?|fy\s?)?(?P<y>{YEAR})\)?$")


def year_label_periods(labels: list[str]) -> list[str | None] | None:
    """The year of each end row of a bridge (an item printed for two or more years, the year after its label:
    "Earnings from Operations - 2015", the drivers of the change, "Earnings from Operations - 2016"); the
    drivers between them get none (a change is no figure of a year). None when no item is printed so."""
    rows: dict[str, list[tuple[int, str]]] = {}
    for i, label in enumerate(labels):
        if m := _YEAR_LABEL.match(" ".join(label.split())):
            rows.setdefault(m.group("stem").strip(" -–—:,").lower(), []).append((i, m.group("y")))
    out: list[str | None] = [None] * len(labels)
    for found in rows.values():
        if len(found) >= 2 and len({y for _, y in found}) == len(found):
            for i, year in found:
                out[i] = year
    return out if any(out) else None


def column_titles(segments: list[list[tuple[float, float, str]]], columns: list[tuple[float, float]]) -> list[str]:
    """Each column's title from the title lines above it, top to bottom ("Common Stock and Additional
    Paid in Capital Amount"): a title segment (x0, x1, text) heads the columns whose centre it
    spans, or else the column nearest its centre when that is within half a column pitch."""
    centres = [(x0 + x1) / 2 for x0, x1 in columns]
    gaps = sorted(b - a for a, b in zip(centres, centres[1:]))
    pitch = gaps[len(gaps) // 2] if gaps else 2 * (columns[0][1] - columns[0][0]) if columns else 0.0
    titles: list[list[str]] = [[] for _ in columns]
    for line in segments:
        for x0, x1, text in line:
            spanned = [i for i, c in enumerate(centres) if x0 - 2 <= c <= x1 + 2]
            if not spanned:
                mid = (x0 + x1) / 2
                near = min(range(len(centres)), key=lambda i: abs(centres[i] - mid))
                spanned = [near] if abs(centres[near] - mid) <= pitch / 2 else []
            for i in spanned:
                titles[i].append(text)
    return [" ".join(" ".join(t).split()) for t in titles]


def period_columns(titles: list[str], period: str) -> tuple[str, ...]:
    """One column label per component: "Total Stockholders' Equity, Year ended May 31, 2022"."""
    return tuple(f"{t}, {period}" if t else period for t in titles)
