"""Answers without a language model, one module per job:

- answer           the graph's `answer_without_model` node: search, statement pages, then compose
- extractive       routing by rules and the extractive composer (quoted sentences, figures first)
- figures          the figure block that leads a figure answer (`figure_block`)
- cited_rows       the table rows of the cited pages, with caption, unit, line item and statement
- figure_rows      the row that answers a question, or none
- figure_periods   the asked period and the column that prints it
- figure_words     a cell said as people say it
- derived_figures  figures computed from printed rows (margins, growth, averages, formulas)
- followups        follow-up questions resolved against the previous turn

Line items (US-GAAP concepts) live in storage/finance/line_items.py, shared with storage/.
Shared with the citations and the claim check: agent/page_text.py (page texts, sentences).
"""
