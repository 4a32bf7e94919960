"""The claim check: every cited sentence's figures, quotes and arithmetic against the cited source
(check), with the figure forms (figures), text matching (text) and computed figures (arithmetic)."""
