"""What PyMuPDF raises for a file or page it cannot read: `FileDataError` (a RuntimeError), MuPDF's
own `FzErrorBase`, ValueError for bad arguments or data, OSError for the file itself."""

from __future__ import annotations

import pymupdf

PDF_ERRORS: tuple[type[BaseException], ...] = (RuntimeError, ValueError, OSError, pymupdf.mupdf.FzErrorBase)
