"""OCR behind one small interface: tesseract when installed (fast, accurate), rapidocr otherwise.

Both run offline. Measured here: tesseract 5 ~1.8 s/page, rapidocr (pip, ships its ONNX models)
7-10 s/page. `OCR_ENGINE=tesseract|rapidocr|none` forces a choice.
"""

from __future__ import annotations

import io
import logging
import os
import shutil
from functools import lru_cache
from typing import Protocol
from storage.settings import get_settings

log = logging.getLogger(__name__)


class OcrEngine(Protocol):
    name: str

    def image_to_text(self, png_bytes: bytes) -> str:
        """Text of an image (PNG bytes), lines separated by newlines."""


class TesseractOcr:
    name = "tesseract"

    def __init__(self) -> None:
        # tesseract's OpenMP threads fight with onnxruntime on 2 cores; one thread is faster here.
        os.environ.setdefault("OMP_THREAD_LIMIT", "1")
        import pytesseract

        self._pytesseract = pytesseract

    @staticmethod
    def available() -> bool:
        return shutil.which("tesseract") is not None

    def image_to_text(self, png_bytes: bytes) -> str:
        from PIL import Image

        with Image.open(io.BytesIO(png_bytes)) as image:
            return self._pytesseract.image_to_string(image, config="--psm 3")


class RapidOcr:
    name = "rapidocr"

    def __init__(self) -> None:
        from rapidocr import RapidOCR

        self._engine = RapidOCR(params={"Global.use_cls": False, "Global.log_level": "error"})

    @staticmethod
    def available() -> bool:
        try:
            import rapidocr  # noqa: F401
        except ImportError:
            return False
        return True

    def image_to_text(self, png_bytes: bytes) -> str:
        result = self._engine(png_bytes)
        texts = getattr(result, "txts", None) or ()
        return "\n".join(texts)


@lru_cache(maxsize=None)
def get_ocr_engine(preferred: str | None = None) -> OcrEngine | None:
    """The OCR engine to use, or None when OCR is disabled or nothing is installed."""
    choice = (preferred or get_settings().ocr.engine).lower()
    if choice == "none":
        return None
    candidates = {"tesseract": [TesseractOcr], "rapidocr": [RapidOcr]}.get(choice, [TesseractOcr, RapidOcr])
    for engine_cls in candidates:
        if engine_cls.available():
            try:
                return engine_cls()
            except Exception as exc:  # a broken install should not stop text-layer PDFs
                log.warning("OCR engine %s unavailable: %s", engine_cls.name, exc)
    log.warning("No OCR engine available: scanned pages will have no text")
    return None
