"""The claim check, one module per job:

- check       every cited sentence's figures, quotes and arithmetic against the cited source
- figures     the figures a sentence states and the numbers a source prints
- text        finding a quoted span in a source as printed (PDF text-layer and OCR differences)
- arithmetic  computed figures whose shown arithmetic must hold
"""
