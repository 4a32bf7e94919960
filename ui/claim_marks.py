"""Marks for sentences the claim check failed (agent/claims/check.py), without Streamlit.

A failed `ClaimCheck` is stored with its answer, keyed by the markers (source ids) it cites and by
which marker of the answer ends the sentence (`marker_index`), so a mark is drawn after that marker
with the labels the citations are displayed with: "not found in [2]".
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from pydantic import ValidationError

from storage.schema import Citation, ClaimCheck


def parse_claims(raw: Iterable[Any] | None) -> list[ClaimCheck]:
    """Claim checks as stored with a message (dicts) or returned by the agent (models)."""
    out = []
    for item in raw or []:
        try:
            out.append(item if isinstance(item, ClaimCheck) else ClaimCheck.model_validate(item))
        except ValidationError:  # a malformed stored check must not hide the answer
            continue
    return out


def failed_at(claims: Iterable[ClaimCheck] | None) -> dict[int, list[ClaimCheck]]:
    """marker ordinal -> the failed checks whose sentence that marker ends."""
    out: dict[int, list[ClaimCheck]] = {}
    for claim in claims or []:
        if claim.problems:
            out.setdefault(claim.marker_index, []).append(claim)
    return out


def not_found_text(claim: ClaimCheck, citations: list[Citation], label: Callable[[Citation], str]) -> str:
    """"not found in [2]" / "not found in [1], [web 2]"; `label(citation)` is the displayed label."""
    by_marker = {c.marker: c for c in citations}
    labels = [label(by_marker[i]) if i in by_marker else i.strip("[]{}^") for i in claim.source_ids]
    what = "arithmetic does not hold" if all(p.kind == "arithmetic" for p in claim.problems) else "not found in"
    return f"{what} {', '.join(f'[{x}]' for x in labels)}" if what == "not found in" else what


def claims_citing(c: Citation, claims: Iterable[ClaimCheck] | None) -> list[ClaimCheck]:
    """The failed checks of sentences that cite `c`."""
    return [k for k in claims or [] if k.problems and c.marker in k.source_ids]


def problems_text(claim: ClaimCheck) -> str:
    """What the source does not print, as the answer wrote it: "$9.9 trillion; “grew 12%”"."""
    return "; ".join(f"“{p.text}”" if p.kind == "quote" else p.text for p in claim.problems)
