"""A release's cells that print words with their figure are quoted as printed, so the preview highlights the lead
figure's row: a change said in words ("down 32%") and a guidance range in one cell ("$8.51 to $8.53"), the scale word
the figure line adds ("billion") not part of the quote; a figure printed apart from its "$" is quoted without the gap."""

from __future__ import annotations

from agent.citations.quotes import ROW_GAP, as_printed, quotes_by_marker

PAGE = ("Q4 2022 FINANCIAL RESULTS\nRevenue ($B) $14.0 $20.5 down 32% $14.0 $20.5 down 28%\n"
        "Guidance\nRevenue (in billions) $8.51 to $8.53 $34.5 to $34.7\nNet sales $ 34,229 $ 31,352")
ANSWER = """- Revenue ($B) (vs. Q4, 2021 GAAP, Q4, 2022 GAAP vs. Q4, 2021 GAAP): down 32% [^1]
- Revenue (in billions) (Q2 FY24, 2024): $8.51 to $8.53 billion [^2]
- Net sales (2022): $34,229 million [^3]"""


def test_worded_cells_are_quoted_as_the_page_prints_them():
    quotes = quotes_by_marker(ANSWER)
    assert quotes == {"[^1]": [f"Revenue ($B){ROW_GAP}down 32%"], "[^2]": [f"Revenue (in billions){ROW_GAP}$8.51 to $8.53"],
                      "[^3]": [f"Net sales{ROW_GAP}$34,229"]}
    for (quote,) in quotes.values():
        assert as_printed(quote, [PAGE]) is not None, quote


def test_a_range_printed_with_a_dash_is_found_as_printed():
    # the figure line says "A to B"; the page prints "$0.59 - $0.64" or "$10.5-11.5 billion" (its currency once)
    page = ("Business Outlook\nRevenue $10.5-11.5 billion $10.5-11.5 billion\n"
            "Diluted EPS from continuing operations $0.59 - $0.64 $1.00 - $1.05")
    answer = ("- Revenue (Q1 2023 GAAP): $10.5 to $11.5 billion [^1]\n"
              "- Diluted EPS from continuing operations (Three Months Ending September 30, 2023 GAAP): $0.59 to $0.64 per "
              "share [^2]")
    quotes = quotes_by_marker(answer)
    assert as_printed(quotes["[^1]"][0], [page]) == f"Revenue{ROW_GAP}$10.5-11.5"
    assert as_printed(quotes["[^2]"][0], [page]) == f"Diluted EPS from continuing operations{ROW_GAP}$0.59 - $0.64"
