"""The table rows of a cited page, for answering: one entry point for agent/figures.py.

`table_units(doc_id, page_index, text)` returns the page's prose lines and table rows (storage/tables.py
`Unit`s, each row with its period header). Today it reads the page's text layer (`page_units` with
one-line rows); the layout reader (issue 19) plugs in here without the answer code changing.
"""

from __future__ import annotations

from storage.tables import Unit, page_units


def table_units(doc_id: str | None, page_index: int | None, text: str | None) -> list[Unit]:
    """The page's units for figure answers (rows with their headers, units and sections)."""
    return page_units(text or "", one_line_rows=True)
