"""Documents: a PDF from upload to searchable artifacts (intake, extraction, chunking, tables, metadata,
embeddings, BM25 and vector stores) and the catalog of processed PDFs."""
