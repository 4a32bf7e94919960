"""Streamlit view of a failed claim check in a citation's preview: what the answer states that this
source does not print, and what the source says instead (agent/claims/check.py stored it)."""

from __future__ import annotations

import streamlit as st

from storage.schema import Citation, ClaimCheck
from ui.claim_marks import problems_text
from ui.safe_text import escape_markdown


def show_claim_warnings(c: Citation, failed: list[ClaimCheck]) -> None:
    """One warning per failed sentence citing `c`, with the source's closest passage."""
    for claim in failed:
        says = claim.source_says.get(c.marker, "")
        st.warning(
            f"The answer says “{escape_markdown(claim.sentence)}”, but this source does not print "
            f"{escape_markdown(problems_text(claim))}."
            + (f"\n\nThe source says: “{escape_markdown(says)}”" if says else ""),
            icon=":material/warning:",
        )
