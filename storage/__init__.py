"""Storage layer: PDF processing, per-PDF artifacts, vector/BM25 stores, retrieval, history.

This package never imports `agent/`, `pages/` or `app.py`.
"""
