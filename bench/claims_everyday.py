"""True sentences as people retype a gold row (bench/claims.py's hostile claims): every form here is read
from the human-read gold row and its prior-year column, never from the checker.

    everyday_forms(item, label, row, gold, period, scale, per_share, percent, rng) -> [(sentence, class, False)]

quoted label              "&" for "and" and back, commas dropped, a parenthetical remark dropped, title case with
                          small words lower, a trailing ", net" or a ", net of …"/", including …" clause left out
change without arithmetic "up $1.2 billion", "an increase of $1.2 billion", "increased $1.2 billion, or 3.6%,",
                          "a 3.6% increase", "rose 3.6 percent", "grew 1.2 points", "expanded 120 basis points"
rounding                  "$0.9 billion", "about $34 billion", "$1.2 million" of thousands, a whole percent
scale words               "$34,229 mn", "$34.2 bn", "USD 34.2 billion", "$34,229,000,000", "34.2 billion dollars"
cell as printed           a minus (- or −) for parentheses, "$(1,269)", a percentage with or without "%", a label
                          retyped as above, the value with its caption's scale word
"""

from __future__ import annotations

import random
import re

_SMALL_WORDS = {"and", "of", "the", "for", "in", "on", "to", "from", "by", "or", "a", "an", "at", "with"}


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _title(label: str) -> str:
    """"Selling, General and Administrative": title case, small words lower."""
    words = label.split()
    return " ".join(w if (k and w.lower() in _SMALL_WORDS) else w[:1].upper() + w[1:] for k, w in enumerate(words))


def retyped_labels(label: str) -> list[str]:
    """A printed label as people retype it in quotes (each still names the same row)."""
    out = []
    if " and " in label:
        out.append(label.replace(" and ", " & "))
    if " & " in label:
        out.append(label.replace(" & ", " and "))
    if "," in label:
        out.append(" ".join(label.replace(",", " ").split()))
    dropped = " ".join(re.sub(r"\s?\([^()]*\)", "", label).split())
    if dropped != label and len(dropped.split()) >= 2:
        out.append(dropped)
    out.append(_title(label))
    head = re.split(r",\s*(?=net\b|including\b|excluding\b|less\b)", label, maxsplit=1)[0].strip()
    if head != label and len(head.split()) >= 2:
        out.append(head)  # "Property, plant and equipment, net" quoted as "Property, plant and equipment"
    return [q for q in dict.fromkeys(out) if q != label]


_SCALE_WORDS = {"billion": 1e9, "million": 1e6, "thousand": 1e3}
# (least amount, scale word, decimals, lead word) from the largest: an amount is said in the first it reaches
MONEY = ((1e9, "billion", 1, ""), (1e6, "million", 1, ""), (0.0, "thousand", 0, ""))  # "$34.2 billion"


def said_amount(units: float, word: str, places: int, lead: str = "") -> str:
    """Dollars with a scale word as people write them: `said_amount(34_229e6, "billion", 1, "about ")` is
    "about $34.2 billion"."""
    return f"{lead}${units / _SCALE_WORDS[word]:,.{places}f} {word}"


def said_by_size(units: float, forms: tuple[tuple[float, str, int, str], ...]) -> str:
    """`units` in the first form of `forms` whose least amount it reaches (else the last form)."""
    _, word, places, lead = next((f for f in forms if units >= f[0]), forms[-1])
    return said_amount(units, word, places, lead)


def _rounded(units: float, rng: random.Random) -> list[str]:
    hedge = rng.choice(("about ", "roughly ", "approximately ", "around ", "some ", ""))
    out = []
    if units >= 1e8:
        out += [said_amount(units, "billion", 0 if units >= 1e9 else 1, hedge), said_amount(units, "billion", 2)]
    if 1e6 <= units < 1e9:
        out.append(said_amount(units, "million", 1, hedge))
    if 1e4 <= units < 1e6:
        out.append(said_amount(units, "thousand", 0, hedge))
    return out


def _scale_words(units: float, digits: str, scale: float) -> list[str]:
    out = []
    if scale == 1e6:
        out += [f"${digits} mn", f"${digits} million", f"US${digits} million", f"USD {digits} million"]
    elif scale == 1e3:
        out += [f"${digits} thousand", f"USD {digits} thousand"]
    if units >= 1e9:
        out += [f"${units / 1e9:,.1f} bn", f"USD {units / 1e9:,.1f} billion", f"{units / 1e9:,.1f} billion dollars",
                f"${units / 1e9:,.1f} Bn"]
    if scale > 1 and units == int(units):
        out.append(f"${units:,.0f}")
    return out


def everyday_forms(item: str, label: str, row: dict, gold: dict, period: str, scale: float, per_share: bool,
                   percent: bool, rng: random.Random) -> list[tuple[str, str, bool]]:
    out: list[tuple[str, str, bool]] = []
    when = gold.get("period") or row["year"]
    Item = _cap(item)
    digits = row["printed"].strip("()$%")
    units = row["value"] * scale
    negative = row["negative"]
    sign = "-" if negative else ""  # a percentage printed negative ("(5)" under "∆%") keeps its sign too
    fig = f"{sign}{digits}%" if percent else f"${digits}" if per_share else sign + said_by_size(units, MONEY)

    # a quoted label retyped
    quoted = retyped_labels(label)
    marks = [("“", "”"), ("‘", "’"), ('"', '"')]
    for q in rng.sample(quoted, k=min(2, len(quoted))):
        a, b = rng.choice(marks)
        out.append((rng.choice([f"The line {a}{q}{b} shows {fig} {period} [^1].", f"{a}{q}{b} was {fig} {period} [^1].",
                                f"The statement lists {a}{q}{b} at {fig} {period} [^1]."]), "quoted label", False))

    # a cell as printed, the ways a value is retyped
    values = []
    if negative and percent:  # never a "$" on a percentage
        values += [f"-{digits}", f"−{digits}%", f"({digits})%"]
    elif negative:
        values += [f"-{digits}", f"−{digits}", f"$({digits})", f"-${digits}"]
    elif percent:
        values += [f"{digits}%", digits, f"{digits} %"]
    elif not per_share:
        values += [f"{digits}", f"${digits}"]
        if scale == 1e6:
            values.append(f"${digits} million")
    labels = [label] + quoted
    for v in rng.sample(values, k=min(2, len(values))):
        out.append((f"- {rng.choice(labels)} ({when}): {v} [^1]", "cell as printed", False))

    if not percent and not per_share and not negative:
        forms = _rounded(units, rng)
        for form in rng.sample(forms, k=min(2, len(forms))):
            out.append((f"{Item} was {form} {period} [^1].", "rounding", False))
        forms = _scale_words(units, digits, scale)
        for form in rng.sample(forms, k=min(2, len(forms))):
            out.append((f"{Item} was {form} {period} [^1].", "scale words", False))
    elif percent and "." in digits:
        out.append((f"{Item} was about {sign}{row['value']:.0f}% {period} [^1].", "rounding", False))
    elif per_share and not negative and row["value"] >= 1:
        out.append((f"{Item} was about ${row['value']:.0f} {period} [^1].", "rounding", False))

    prior = row["prior"]
    if prior and prior["value"] and prior["value"] != row["value"] and not negative and prior["value"] > 0:
        cur, pri = row["value"], prior["value"]
        diff, up = cur - pri, cur > pri
        since = rng.choice([f"from fiscal {prior['year']}", f"over {prior['year']}", "year over year",
                            f"compared with {prior['year']}"])
        word = "increase" if up else "decrease"
        if percent:
            d = abs(diff)
            pts = f"{d:.{max(len(digits.split('.')[1]) if '.' in digits else 0, 1)}f}"
            forms = [f"{Item} was {'up' if up else 'down'} {pts} percentage points {since} [^1].",
                     f"{Item} {'improved' if up else 'declined'} {pts} pts {since} [^1].",
                     f"{Item} saw a {pts}-point {word} {since} [^1].",
                     f"{Item} {'expanded' if up else 'contracted'} {round(d * 100):,} basis points {since} [^1]."]
        else:
            pct = abs(diff) / pri * 100
            step = f"${abs(diff):,.2f}" if per_share else said_by_size(abs(diff) * scale, MONEY)
            forms = [f"{Item} was {'up' if up else 'down'} {step} {since} [^1].",
                     f"{Item} showed an {word} of {step} {since} [^1]." if up else f"{Item} showed a {word} of {step} {since} [^1].",
                     f"{Item} {'increased' if up else 'decreased'} {step}, or {pct:.1f}%, {since} [^1].",
                     f"{Item} posted a {pct:.1f}% {word} {since} [^1].",
                     f"{Item} {'rose' if up else 'fell'} {pct:.1f} percent {since} [^1].",
                     f"{Item} was {'up' if up else 'down'} about {pct:.0f}% {since} [^1]." if pct >= 1 else
                     f"{Item} was {'up' if up else 'down'} {pct:.2f}% {since} [^1]."]
        for form in rng.sample(forms, k=min(3, len(forms))):
            out.append((form, "change without arithmetic", False))
    return out
