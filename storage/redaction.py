"""Secrets and URL credentials masked in any text a person or a log may see (error messages can echo a URL
or a key). One home for storage/ (job errors) and ui/ (every error shown on a page)."""

from __future__ import annotations

import re

from storage.settings import secret_values

_URL_CREDENTIALS = re.compile(r"(?P<scheme>[a-z][a-z0-9+.-]*://)[^/@\s:]+:[^/@\s]+@", re.IGNORECASE)


def redact(text: str) -> str:
    """`text` with the configured secrets and credentials in URLs masked.

    Used on every error message shown on a page, since exception texts can echo a URL or key.
    """
    out = _URL_CREDENTIALS.sub(r"\g<scheme>***@", str(text))
    for value in secret_values():
        out = out.replace(value, "***")
    return out
