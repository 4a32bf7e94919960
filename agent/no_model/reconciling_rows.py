"""Rows of a GAAP-to-adjusted reconciliation asked as one of its lines (issue 27, "figures from facts").

Two layouts lead a wrong or no line unless told apart:
- the tax on the adjustments ("Tax effect of above items", "Less: Adjustments to income tax expense") asked
  in other words ("the tax effect of the adjustments on adjusted net income"): its row is the reconciliation's
  tax line, never the GAAP tax expense nor an item's own line; none printed, no figure;
- one reconciliation printing the same lines twice, an amount block under "Loss from operations, as reported"
  and a per-share block under "Diluted loss per share, as reported" (Boeing's core earnings table): the block
  of the total asked ("reduce core EPS": the per-share one, in dollars and cents) answers.
The vocabulary (which labels say what) is storage/finance/reconciliation.py's.
"""

from __future__ import annotations

from storage.finance.line_items import normalize_label
from storage.finance.reconciliation import CENTS_VALUE, PER_SHARE_CAPTION, TAX_ON_ADJUSTMENTS_ASKED, TAX_ON_ADJUSTMENTS_LINE
from agent.no_model.cited_rows import Row


def _cents(row: Row) -> bool | None:
    """True when every value the row prints is in dollars and cents, False when none is, None when mixed."""
    kinds = {bool(CENTS_VALUE.match(c.value.strip())) for c in row.cells if c.value.strip() not in ("", "—", "-")}
    return kinds.pop() if len(kinds) == 1 else None


def of_block_asked(fitting: list[tuple[Row, list]], per_share: bool) -> list[tuple[Row, list]]:
    """The fitting rows without those of the other block: of a label a filing prints both in whole amounts
    and in dollars and cents (the two blocks of one table, or an amount table elsewhere), the per-share
    rows for a per-share total asked, the amounts otherwise (labels printed one way only kept)."""
    twice: dict[tuple, list[Row]] = {}
    for r, _ in fitting:
        twice.setdefault((r.source.source_file, normalize_label(r.label)), []).append(r)
    drop = set()
    for members in twice.values():
        if {_cents(r) for r in members} == {True, False}:
            drop |= {id(r) for r in members if _cents(r) is not per_share}
    return [(r, c) for r, c in fitting if id(r) not in drop]


def per_share_block(row: Row, per_share: bool) -> bool:
    """The row, chosen for a per-share total asked, is a per-share line of its reconciliation: it prints dollars
    and cents under a caption that keeps per-share data out of its scale ("Dollars in millions, except per
    share data"), so it is said per share, never "$(1.71) million"."""
    return per_share and _cents(row) is True and bool(PER_SHARE_CAPTION.search(row.unit_caption))


def tax_lines(text: str, fitting: list[tuple[Row, list]]) -> list[tuple[Row, list]] | None:
    """The reconciliation's tax lines among the fitting rows when the question asks the tax on the
    adjustments (possibly none), None when it asks another line."""
    if not TAX_ON_ADJUSTMENTS_ASKED.search(text):
        return None
    return [(r, c) for r, c in fitting if TAX_ON_ADJUSTMENTS_LINE.search(r.label)]
