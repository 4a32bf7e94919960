"""Quotes read back from an answer (agent/citations/quotes.py): in any quote marks, and a quote spliced with
"…" shown as the separate quotes it joins, while a row label with its value stays one cell quote."""

from __future__ import annotations

from agent.citations.quotes import as_printed, quotes_by_marker, spliced_parts

PAGE = "Revenue grew 12% in the year. Cash on hand rose to $4.1 billion.\nNet sales 34,229 31,746\nCost of sales 19,232 17,906"


def test_a_spliced_quote_is_shown_as_its_parts():
    quotes = quotes_by_marker("The filing says “Revenue grew 12% … rose to $4.1 billion” [^3].")
    assert quotes == {"[^3]": ["Revenue grew 12%", "rose to $4.1 billion"]}
    assert [as_printed(q, [PAGE]) for q in quotes["[^3]"]] == ["Revenue grew 12%", "rose to $4.1 billion"]
    assert spliced_parts("A ... B ... C") == ["A", "B", "C"]


def test_a_label_with_its_value_stays_one_cell_quote():
    assert quotes_by_marker("It shows “Net sales … 34,229” [^1].") == {"[^1]": ["Net sales … 34,229"]}
    assert as_printed("Net sales … 34,229", [PAGE]) == "Net sales … 34,229"


def test_quotes_in_single_marks_are_read_and_apostrophes_are_not_quotes():
    assert quotes_by_marker("The line ‘Net sales’ [^1] and the company’s ‘stockholders’ equity’ [^2].") == \
        {"[^1]": ["Net sales"], "[^2]": ["stockholders’ equity"]}
    assert quotes_by_marker("The line 'Cost of sales' [^1].") == {"[^1]": ["Cost of sales"]}
    assert quotes_by_marker("Apple's revenue grew [^1].") == {}
