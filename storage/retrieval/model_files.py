"""Learned ranking models (page scorer, page reranker) loaded once per process from their files. A missing or
damaged file gives None with its reason logged once, and retrieval keeps today's ranking."""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Callable, TypeVar

T = TypeVar("T")

_loaded: dict[tuple[str, str], object] = {}
_lock = threading.Lock()


def load_once(name: str, path: Path, load: Callable[[Path], T], rebuild: str, log: logging.Logger) -> T | None:
    """The model `load(path)` gives, cached per (name, path); None when the file is missing or cannot be
    loaded, with the reason on `log` (the caller's logger) naming `rebuild`, the command that writes it."""
    key = (name, str(path))
    with _lock:
        if key in _loaded:
            return _loaded[key]  # type: ignore[return-value]
    model = None
    if not path.is_file():
        log.warning("%s off: %s is missing (rebuild it with `%s`); ranking pages without it", name, path, rebuild)
    else:
        try:
            model = load(path)
        except Exception as exc:  # onnxruntime raises its own types for a damaged file
            log.warning("%s off: cannot load %s (%s); ranking pages without it", name, path, exc)
    with _lock:
        _loaded[key] = model
    return model


def forget(name: str) -> None:
    """Load `name`'s models from their files again on next use (tests, a retrained file)."""
    with _lock:
        for key in [k for k in _loaded if k[0] == name]:
            del _loaded[key]
