"""Which filings are selected when a benchmark question is asked (bench/answers.py and
bench/retrieval.py):

  single   the question's own filing only;
  company  every filing of its company: the file-name prefix before the first "_" (pdfs/ + library/);
  library  every filing (pdfs/ + library/).
"""

from __future__ import annotations

from pathlib import Path

SELECTIONS = ("single", "company", "library")


def company(doc_name: str) -> str:
    """"BESTBUY_2019_10K" -> "BESTBUY"."""
    return doc_name.split("_", 1)[0]


def selected_ids(kind: str, doc_name: str, docs: dict[str, str]) -> list[str]:
    """The doc ids selected when asking about `doc_name`; `docs`: doc_name -> doc_id of every filing."""
    if kind == "single":
        return [docs[doc_name]]
    if kind == "company":
        return [doc_id for name, doc_id in docs.items() if company(name) == company(doc_name)]
    if kind == "library":
        return list(docs.values())
    raise ValueError(f"unknown selection {kind!r} (one of {', '.join(SELECTIONS)})")


def library_pdfs(data: Path, question_pdfs: list[Path]) -> list[Path]:
    """`data/library/*.pdf`: filings of the same companies that no question is about."""
    names = {p.stem for p in question_pdfs}
    return [p for p in sorted((data / "library").glob("*.pdf")) if p.stem not in names]
