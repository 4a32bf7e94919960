"""Forms: the names filings print for what they are ("FORM 10-K", "Press Release") and the words questions
use for them ("annual report", "10-Q", "earnings call"). Each reader's pattern is named for it; they differ
on purpose (a cover's metadata reads foreign issuers' forms, the ranking's gap filler letter-spaced covers).

    COVER_FORM.search("UNITED STATES ... FORM 10-K").group(1)   -> "10-K"
    cover_form_name("10 - Q")                                   -> "10-Q"
    asked_forms("What did the 10-Q say ...")                    -> {"10-Q"}
"""

from __future__ import annotations

import re

from storage.finance.periods import _ASKED_YEAR

# the form a cover states (storage/documents/metadata.py): the SEC's domestic and foreign issuers' forms
COVER_FORM = re.compile(r"\bFORM\s+(10-K|10-Q|8-K|20-F|40-F|6-K)\b", re.IGNORECASE)
# the same on a cover whose text layer spaces the hyphen ("FORM 10 - K"; storage/retrieval/document_profile.py)
COVER_FORM_SPACED = re.compile(r"\bFORM\s+(10\s*-\s*[KQ]|8\s*-\s*K)\b", re.IGNORECASE)
# an earnings release's first lines: "Press Release", "... Reports Fourth Quarter Results"
RELEASE_COVER = re.compile(r"\b(?:news|press|earnings)\s+release\b|\breports?\b.{0,80}\bresults\b", re.IGNORECASE)
# a 10-Q's reference to the annual report before it: "Annual Report on Form 10-K for the year ended December 31, 2021"
PRIOR_ANNUAL_REPORT = re.compile(r"form\s+10-K\s+for\s+the\s+(?:fiscal\s+)?year\s+ended\s*", re.IGNORECASE)
# the forms a question names, and the form names they stand for (storage/retrieval/question_scope.py)
ASKED_FORMS = [
    (re.compile(r"\b10\s?-?\s?k\b|\bannual\s+report\b", re.IGNORECASE), {"10-K", "annual report"}),
    (re.compile(r"\b10\s?-?\s?q\b|\bquarterly\s+report\b", re.IGNORECASE), {"10-Q"}),
    (re.compile(r"\b8\s?-?\s?k\b|\bcurrent\s+report\b", re.IGNORECASE), {"8-K"}),
    (re.compile(r"\b(?:earnings|press)\s+(?:release|report|call)\b|\bresults\s+announcement\b", re.IGNORECASE),
     {"earnings release"}),
]


# a year that names the document itself rather than what is asked of it: "according to its FY2019 10-K", "per the 2021
# annual report", "Form 10-K for fiscal 2019" (while "repay in 2020" in the same question is the content asked)
_DOCUMENT_FORM = r"(?:form\s+)?(?:10\s?-?\s?[kq]|annual\s+report|quarterly\s+report)"
DOCUMENT_YEAR = re.compile(rf"\b{_ASKED_YEAR}\s+{_DOCUMENT_FORM}\b|\b{_DOCUMENT_FORM}\s+for\s+(?:the\s+)?{_ASKED_YEAR}\b",
                           re.IGNORECASE)


def document_years(question: str) -> list[int]:
    """The fiscal years a question names its document by ("its FY2019 10-K" -> [2019]), in order."""
    out: list[int] = []
    for m in DOCUMENT_YEAR.finditer(question or ""):
        raw = next(g for g in m.groups() if g)
        year = int(raw) if len(raw) == 4 else 2000 + int(raw)
        if year not in out:
            out.append(year)
    return out


def cover_form_name(printed: str) -> str:
    """A form as COVER_FORM_SPACED found it, named: "10 - K" -> "10-K"."""
    return {"10K": "10-K", "10Q": "10-Q", "8K": "8-K"}[re.sub(r"[\s-]", "", printed).upper()]


def asked_forms(question: str) -> set[str]:
    """The form names a question's words stand for ("annual report" -> {"10-K", "annual report"})."""
    out: set[str] = set()
    for pattern, forms in ASKED_FORMS:
        if pattern.search(question):
            out |= forms
    return out

# the forms that report a whole fiscal year (their cover's period end is a fiscal year end)
ANNUAL_FORMS = ("10-K", "annual report", "20-F")
