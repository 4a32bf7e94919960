"""Storage layer: PDF processing, per-PDF artifacts, vector/BM25 stores, retrieval, history.

This package never imports `agent/`, `ui/`, `app_pages/` or `app.py` (tests/test_import_rules.py checks it).
"""
