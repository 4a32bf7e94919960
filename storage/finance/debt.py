"""Notes named by their rate and maturity, as filings print them: "3.625% Guaranteed Senior Notes due 2026",
"4.50% Notes due March 15, 2029". A question asking the coupon or interest rate of named notes is answered by
the rate printed in the name of the notes it names (agent/no_model/figures.py).

    NOTE_RATE.finditer("(a) 3.625% Guaranteed Senior Notes due 2026")   # rate "3.625", name, year "2026"
    asks_rate("What coupon do the Senior Notes due 2026 carry?")         # True
"""

from __future__ import annotations

import re

from storage.finance.periods import MONTH, YEAR

# the rate, the notes' name after it (up to six words ending in "Notes", "Debentures" or "Bonds"), their due year
NOTE_RATE = re.compile(rf"(?P<rate>\d{{1,2}}(?:\.\d{{1,4}})?)\s?%\s+(?P<name>(?:[A-Za-z][\w&.-]*\s+){{0,6}}?"
                       rf"(?:notes?|debentures?|bonds?))\s+due\s+(?:{MONTH}\.?\s+\d{{1,2}},?\s+)?(?P<year>{YEAR})",
                       re.IGNORECASE)
# a question asking notes' rate: "coupon", "interest rate", "rate … notes"
_RATE_ASK = re.compile(r"\bcoupons?\b|\binterest rates?\b|\brates?\b(?=.*\b(?:notes?|debentures?|bonds?)\b)", re.IGNORECASE)
# the notes a question names by their due year: "notes due 2026"
NOTES_DUE = re.compile(rf"\b(?:notes?|debentures?|bonds?)\s+due\s+(?:in\s+)?(?P<year>{YEAR})\b", re.IGNORECASE)


def asks_rate(question: str) -> bool:
    """The question asks the coupon or interest rate of notes named by their due year."""
    return bool(_RATE_ASK.search(question) and NOTES_DUE.search(question))
