"""The claim check, one module per job:

- check       every cited sentence's figures, quotes and arithmetic against the cited source
- figures     the figures a sentence states, the numbers a source prints, the one scale-caption reader
- facts       a cited page's table cells as facts (label, section, period, value at its caption's scale, unit)
- support     whether a page's facts support a figure as its sentence states it
- arithmetic  computed figures whose shown arithmetic must hold

Quoted spans are found by agent/source_text.py (shared with agent/citations/quotes.py); markers by
agent/markers.py.
"""
