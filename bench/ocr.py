"""OCR engines on rendered filing pages: character error rate against the PDF's text layer, and speed.

    python -m bench.ocr [--data ../shared/bench] [--pages 6] [--variants clean,noise,skew,low_dpi]
                        [--engines tesseract,rapidocr,easyocr] [--json out.json]

Pages: filings of `<data>/financebench-dev/pdfs` whose text layer holds at least 800 characters,
taken evenly spread over all of them (deterministic). Each is rendered in gray as ingestion renders a
page for OCR (`OCR_DPI`), and in three harder variants: `noise` (Gaussian noise, sigma 40 of 255,
seeded), `skew` (rotated 2 degrees, as a page fed askew) and `low_dpi` (rendered at 100 dpi, the
lowest ingestion uses). Gold: the page's own text layer (`get_text(sort=True)`), never an engine.

Figures per engine and variant: CER (Levenshtein distance / reference length, after Unicode NFKC,
typographic quotes and dashes made plain, whitespace collapsed: the reading order of tables and
columns still differs between engines, so CER is an upper bound), `words missed` (share of the
reference's words absent from the output, order-free), `numbers missed` (the same for tokens of two
or more digits: the values and years a figure answer needs; single digits are mostly footnote marks) and pages/s (model loading excluded, reported apart). An engine
not installed is reported as such.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import statistics
import sys
import time
import unicodedata
from collections import Counter
from pathlib import Path

import numpy as np
import pymupdf
from PIL import Image
from rapidfuzz.distance import Levenshtein

from storage.documents.ocr import ENGINES, INSTALL_HINT
from storage.documents.extract import MIN_OCR_DPI, OCR_DPI

VARIANTS = ("clean", "noise", "skew", "low_dpi")
MIN_REFERENCE_CHARS = 800
_PLAIN = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-",
                        "\u2212": "-", "\u00a0": " ", "\u2022": "*"})
_WORD = re.compile(r"[A-Za-z0-9$]+(?:[.,][0-9]+)*%?")
_PERCENT = re.compile(r"(?<=\d) (?=%)")


def normalize(text: str) -> str:
    text = " ".join(unicodedata.normalize("NFKC", text).translate(_PLAIN).split())
    return _PERCENT.sub("", text)  # "0.4 %" (as a text layer may space it) is "0.4%"


def cer(ocr: str, reference: str) -> float:
    ref = normalize(reference)
    return Levenshtein.distance(normalize(ocr), ref) / max(len(ref), 1)


def missed(ocr: str, reference: str, digits: bool = False) -> float | None:
    """Share of the reference's words (or number tokens) that the output lacks, counted as multisets."""
    def words(text: str) -> Counter:
        return Counter(w.lower() for w in _WORD.findall(normalize(text))
                       if not digits or sum(c.isdigit() for c in w) >= 2)

    ref, got = words(reference), words(ocr)
    total = sum(ref.values())
    return sum((ref - got).values()) / total if total else None


def pick_pages(data: Path, count: int) -> list[tuple[Path, int]]:
    """`count` (pdf, page index) pairs with a real text layer, evenly spread over the filings."""
    candidates = []
    for pdf in sorted((data / "financebench-dev" / "pdfs").glob("*.pdf")):
        with pymupdf.open(pdf) as doc:
            candidates += [(pdf, i) for i, page in enumerate(doc) if len(normalize(page.get_text())) >= MIN_REFERENCE_CHARS]
    if not candidates:
        raise SystemExit(f"no filing page with a text layer under {data / 'financebench-dev' / 'pdfs'}")
    step = len(candidates) / min(count, len(candidates))
    return [candidates[int(step * k + step / 2)] for k in range(min(count, len(candidates)))]


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def render(page: pymupdf.Page, variant: str, seed: int = 0) -> bytes:
    """The page as a gray PNG, in one of VARIANTS."""
    dpi = MIN_OCR_DPI if variant == "low_dpi" else OCR_DPI
    pixmap = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
    image = Image.open(io.BytesIO(pixmap.tobytes("png"))).convert("L")
    if variant == "noise":
        pixels = np.asarray(image, dtype=np.float32) + np.random.default_rng(seed).normal(0, 40, (image.height, image.width))
        image = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
    elif variant == "skew":
        image = image.rotate(2.0, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255)
    elif variant not in ("clean", "low_dpi"):
        raise ValueError(f"unknown variant {variant!r}: expected one of {', '.join(VARIANTS)}")
    return _png(image)


def run(data: Path, pages: int, variants: list[str], engines: list[str]) -> dict:
    """{"pages": [...], "engines": {name: {"status", "load_s", "variants": {variant: figures}}}}."""
    picked = pick_pages(data, pages)
    images: dict[str, list[tuple[bytes, str]]] = {v: [] for v in variants}
    for seed, (pdf, index) in enumerate(picked):
        with pymupdf.open(pdf) as doc:
            reference = doc[index].get_text(sort=True)
            for variant in variants:
                images[variant].append((render(doc[index], variant, seed), reference))
    report: dict = {"pages": [f"{pdf.name} p{index + 1}" for pdf, index in picked], "engines": {}}
    for name in engines:
        engine_cls = ENGINES[name]
        if not engine_cls.available():
            report["engines"][name] = {"status": f"not installed ({INSTALL_HINT[name]})"}
            continue
        started = time.perf_counter()
        engine = engine_cls()
        entry = {"status": "measured", "load_s": round(time.perf_counter() - started, 2), "variants": {}}
        for variant, items in images.items():
            scores, words, numbers, seconds = [], [], [], 0.0
            for png, reference in items:
                started = time.perf_counter()
                text = engine.image_to_text(png)
                seconds += time.perf_counter() - started
                scores.append(cer(text, reference))
                words.append(missed(text, reference))
                numbers.append(missed(text, reference, digits=True))
            entry["variants"][variant] = {
                "cer": round(statistics.mean(scores), 4), "cer_worst": round(max(scores), 4),
                "words_missed": _mean(words), "numbers_missed": _mean(numbers),
                "pages_per_s": round(len(items) / seconds, 3) if seconds else None}
        report["engines"][name] = entry
    return report


def _mean(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return round(statistics.mean(known), 4) if known else None


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:5.1f}%"


def print_report(report: dict) -> None:
    print(f"pages ({len(report['pages'])}): {', '.join(report['pages'])}")
    print(f"{'engine':10} {'variant':8} {'CER':>7} {'worst':>7} {'words missed':>13} {'numbers missed':>15} {'pages/s':>8}")
    for name, entry in report["engines"].items():
        if entry["status"] != "measured":
            print(f"{name:10} {entry['status']}")
            continue
        for variant, f in entry["variants"].items():
            print(f"{name:10} {variant:8} {_pct(f['cer']):>7} {_pct(f['cer_worst']):>7} {_pct(f['words_missed']):>13} "
                  f"{_pct(f['numbers_missed']):>15} {f['pages_per_s'] or 0:8.3f}")
        print(f"{name:10} (model load {entry['load_s']} s, not in pages/s)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/bench"))
    ap.add_argument("--pages", type=int, default=6)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    engines = [e for e in args.engines.split(",") if e]
    unknown = [v for v in variants if v not in VARIANTS] + [e for e in engines if e not in ENGINES]
    if unknown or args.pages < 1:
        ap.error(f"unknown variant or engine {', '.join(unknown)}" if unknown else "--pages must be at least 1")
    report = run(args.data, args.pages, variants, engines)
    print_report(report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
