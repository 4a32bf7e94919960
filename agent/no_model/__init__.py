"""Answers without a language model: the extractive composer (extractive), figures read from the
statements' table rows (figures, figure_rows, figure_periods, figure_words, line_items,
derived_figures), and follow-up questions resolved against the previous turn (followups)."""
