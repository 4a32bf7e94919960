"""Citations: the one marker grammar (markers), source ids given when tools return (ids), the answer's
citations checked against the sources (answer), quotes as the source prints them (quotes), legacy
`[chunk_id: N]` markers (legacy), and the per-answer display numbering the UI shows (numbering)."""
