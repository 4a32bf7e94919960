"""A PDF enters the source folder: ids from content, safe names, validated uploads and opened files.

`doc_id = "<slug of the file stem>-<sha256[:12]>"`: the same bytes uploaded twice are processed once,
and a different file under an old name never reuses stale artifacts. A file that is not a usable PDF
(empty, not a PDF, encrypted, truncated, no pages, over the limits) is refused with a sentence naming
the file and the reason, before anything is written.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
import uuid
from pathlib import Path

import pymupdf

from storage.documents.catalog import PdfProcessingError
from storage.documents.pdf_errors import PDF_ERRORS
from storage.settings import get_settings


# Upload names are shortened to this many UTF-8 bytes (file systems allow 255; the temporary
# ".<name>.<uuid>.part" and a "-<sha8>" suffix must fit too).
MAX_NAME_BYTES = 180


def _slug(stem: str) -> str:
    # ".." is collapsed: Chroma refuses it in collection names (names with ".." never processed before).
    slug = re.sub(r"\.{2,}", ".", re.sub(r"[^A-Za-z0-9._-]+", "-", stem)).strip("-._")[:60].strip("-._")
    return slug or "pdf"


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def compute_doc_id(path: Path, sha256: str | None = None) -> str:
    return f"{_slug(Path(path).stem)}-{(sha256 or file_sha256(Path(path)))[:12]}"


def _shown_name(raw: str) -> str:
    """A user-given name fit for a message: control characters visible, no directories, bounded."""
    name = re.split(r"[/\\]", raw)[-1] or raw
    name = "".join(ch if ch.isprintable() else "?" for ch in name)
    return name if len(name) <= 80 else f"{name[:60]}…{name[-15:]}"


def resolve_source_pdf(name_or_path: str | Path) -> Path:
    """A PDF inside the source folder, by file name or path. Anything outside is refused."""
    source_dir = get_settings().source_dir.resolve()
    raw = str(name_or_path).strip().strip("'\"")
    if not raw:
        raise PdfProcessingError("(no file)", "no PDF name was given")
    shown = _shown_name(raw)
    if "\0" in raw:
        raise PdfProcessingError(shown, "the name contains a NUL character, which no file name can have")
    try:
        candidate = Path(raw).expanduser()
        if not candidate.is_absolute():
            candidate = source_dir / candidate
        resolved = candidate.resolve()
        if not resolved.is_relative_to(source_dir):
            raise PdfProcessingError(shown, "is outside the source folder; only PDFs in that folder can be used")
        exists, is_file = resolved.exists(), resolved.is_file()
    except OSError as exc:  # e.g. a name longer than the file system allows
        raise PdfProcessingError(shown, f"cannot be opened ({exc.strerror or type(exc).__name__})") from None
    if not exists:
        raise PdfProcessingError(shown, "no such file in the source folder")
    if not is_file:
        raise PdfProcessingError(shown, "is not a file")
    if resolved.suffix.lower() != ".pdf":
        raise PdfProcessingError(resolved.name, "is not a .pdf file")
    return resolved


def safe_upload_name(filename: str) -> str:
    """The file name an upload is saved under: no directory part, no control characters, no
    leading dot, at most MAX_NAME_BYTES in UTF-8, ending in `.pdf`. Raises for a NUL byte."""
    raw = filename or ""
    if "\0" in raw:
        raise PdfProcessingError(_shown_name(raw), "the file name contains a NUL character; rename the file and upload it again")
    name = unicodedata.normalize("NFC", re.split(r"[/\\]", raw)[-1])  # drop any directory part a browser might send
    name = "".join(ch if ch.isprintable() else "_" for ch in name).strip()
    if not name.lower().endswith(".pdf"):
        raise PdfProcessingError(_shown_name(name) or "(no name)", "only .pdf files can be uploaded")
    stem = name[:-4].strip().lstrip(".").strip() or "upload"
    while len(stem.encode("utf-8")) > MAX_NAME_BYTES - 4:
        stem = stem[:-1]
    return f"{stem.rstrip()}.pdf"


def save_uploaded_pdf(filename: str, data: bytes) -> Path:
    """Validate an upload and write it into the source folder atomically.

    The name is made safe (`safe_upload_name`: shortened, keeping `.pdf`). The same bytes under the
    same name return the existing file; different bytes under an existing name are saved as
    `<stem>-<sha8>.pdf`, so no PDF is silently replaced. A file that is not a usable PDF
    (encrypted, damaged, no pages, too many pages) is refused before it reaches the source folder.
    """
    settings = get_settings()
    name = safe_upload_name(filename)
    if not data:
        raise PdfProcessingError(name, "the file is empty")
    if len(data) > settings.max_file_bytes:
        raise PdfProcessingError(
            name, f"the file is {len(data) / 2**20:.1f} MB; the limit is {settings.max_file_bytes / 2**20:.0f} MB"
        )
    if not data[:1024].lstrip().startswith(b"%PDF-"):
        raise PdfProcessingError(name, "is not a PDF (no %PDF- header)")
    settings.source_dir.mkdir(parents=True, exist_ok=True)
    target = settings.source_dir / name
    sha = hashlib.sha256(data).hexdigest()
    if target.exists():
        if file_sha256(target) == sha:
            return target
        target = settings.source_dir / f"{Path(name).stem}-{sha[:8]}.pdf"
        if target.exists():
            return target
    tmp = target.with_name(f".{target.name}.{uuid.uuid4().hex}.part")
    try:
        tmp.write_bytes(data)
        open_validated(tmp, name).close()
        os.replace(tmp, target)
    except OSError as exc:
        raise PdfProcessingError(name, f"could not be saved ({exc.strerror or type(exc).__name__})") from None
    finally:
        tmp.unlink(missing_ok=True)
    return target


def _is_truncated(path: Path) -> bool:
    """A PDF ends with `%%EOF` (some writers add a little padding after it)."""
    with open(path, "rb") as fh:
        fh.seek(max(0, path.stat().st_size - 2048))
        return b"%%EOF" not in fh.read()


def open_validated(path: Path, name: str | None = None) -> pymupdf.Document:
    settings = get_settings()
    name = name or path.name
    size = path.stat().st_size
    if size == 0:
        raise PdfProcessingError(name, "the file is empty")
    if size > settings.max_file_bytes:
        raise PdfProcessingError(
            name, f"the file is {size / 2**20:.1f} MB; the limit is {settings.max_file_bytes / 2**20:.0f} MB (PDF_MAX_FILE_MB)"
        )
    with open(path, "rb") as fh:
        if not fh.read(1024).lstrip().startswith(b"%PDF-"):
            raise PdfProcessingError(name, "is not a PDF (no %PDF- header); was another file renamed to .pdf?")
    try:
        doc = pymupdf.open(path, filetype="pdf")
    except PDF_ERRORS as exc:
        raise PdfProcessingError(name, f"is damaged: corrupt or unreadable ({exc})") from exc
    if doc.needs_pass or doc.is_encrypted:
        doc.close()
        raise PdfProcessingError(name, "is encrypted (password-protected); remove the password and upload it again")
    if doc.is_repaired and _is_truncated(path):
        # MuPDF rebuilds a truncated file's cross-reference table, but its pages come back blank
        # (measured on truncated 10-Ks: every page empty), which OCR would then read one by one.
        doc.close()
        raise PdfProcessingError(name, "is damaged: the file is truncated (it stops before the end of the PDF); upload the complete file again")
    if doc.page_count == 0:
        doc.close()
        raise PdfProcessingError(name, "has no pages")
    if doc.page_count > settings.limits.max_pages:
        count = doc.page_count
        doc.close()
        raise PdfProcessingError(name, f"has {count} pages; the limit is {settings.limits.max_pages} (PDF_MAX_PAGES)")
    return doc
