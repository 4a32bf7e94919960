"""Paths and settings read from the environment, in one place.

Every setting has a default that works on a fresh machine with nothing configured.
Tests point `PDF_CHAT_HOME` (or the individual folders) at a temporary directory.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def _env_path(name: str, default: Path) -> Path:
    value = os.environ.get(name)
    return Path(value).expanduser().resolve() if value else default


@dataclass(frozen=True)
class Settings:
    source_dir: Path
    destination_dir: Path
    max_pages: int
    max_file_bytes: int
    chroma_host: str | None
    chroma_port: int
    max_question_chars: int = 20_000  # longer questions are refused before any work (PDF_CHAT_MAX_QUESTION_CHARS)

    @property
    def chroma_dir(self) -> Path:
        """Where the embedded (PersistentClient) Chroma keeps its data."""
        return self.destination_dir / ".chroma"


def get_settings() -> Settings:
    """Read settings now (not at import), so tests can change the environment."""
    home = _env_path("PDF_CHAT_HOME", PROJECT_ROOT / "pdf_files")
    return Settings(
        source_dir=_env_path("PDF_SOURCE_DIR", home / "source"),
        destination_dir=_env_path("PDF_DESTINATION_DIR", home / "destination"),
        max_pages=int(os.environ.get("PDF_MAX_PAGES", "2000")),
        max_file_bytes=int(os.environ.get("PDF_MAX_FILE_MB", "200")) * 1024 * 1024,
        chroma_host=os.environ.get("CHROMA_HOST") or None,
        chroma_port=int(os.environ.get("CHROMA_PORT", "8000")),
        max_question_chars=int(os.environ.get("PDF_CHAT_MAX_QUESTION_CHARS", "20000")),
    )
