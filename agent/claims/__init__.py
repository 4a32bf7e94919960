"""The claim check, one module per job:

- check       every cited sentence's figures, quotes and arithmetic against the cited source
- figures     the figures a sentence states, the numbers a source prints, the one scale-caption reader
- facts       a cited page's table cells as facts (label, section, period, value at its caption's scale, unit)
- support     whether a page's facts support a figure as its sentence states it
- text        finding a quoted span in a source as printed (PDF text-layer and OCR differences)
- arithmetic  computed figures whose shown arithmetic must hold
"""
