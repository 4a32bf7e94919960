"""Citations, one module per job:

- ids        source ids given out when tools return (the `cite_sources` graph node)
- answer     the answer's markers checked against the sources -> `Citation`s (`build_answer`)
- previews   what a citation shows: title, snippet, preview
- quotes     the words an answer quotes, as the source prints them
- legacy     resolving a legacy `[chunk_id: N]` present in several files
- numbering  the per-answer display numbers the UI and the export show

The one id and marker grammar (`[^3]`, `{^2}`, `[^Current Page]`, `[^8.1]`, Q301, legacy `[chunk_id: 44]`) is
agent/markers.py, below this package: the claim check, the knowledge base, the UI and the benchmarks import it
too, and nothing it needs comes from here.
"""
