"""Sentence segmenters on filings' prose: where they cut inside a sentence, and how fast.

    python -m bench.sentences [--data ../shared/bench] [--paragraphs 400]

Paragraphs of prose (40+ words, rejoined from the PDF's wrapped lines) from the filings under
`--data`. A *bad cut* (`bad_cuts`) is a boundary surely inside a sentence; counts are lower bounds
(a cut after "Inc." before "On October 10, ..." may be right and is not counted). Compared, in one run: the regex the
no-model answers used before (split after .!? before a capital or digit), pysbd and syntok.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import pymupdf

ABBREV = re.compile(r"\b(?:No|Nos|approx|e\.g|i\.e|vs|Mr|Ms|Dr|Fig|Inc\.,|Corp\.,)\.$")  # never end a sentence
STARTERS = {"The", "We", "Our", "In", "This", "These", "As", "For", "On", "If", "It", "There", "Such", "Any", "A", "An",
            "During", "See", "Additionally", "However", "At", "To", "Refer", "Also", "Because", "While", "Under"}
OLD = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9$€£])")


def paragraphs(pdfs: list[Path], limit: int) -> list[str]:
    out = []
    for pdf in pdfs:
        with pymupdf.open(pdf) as doc:
            for page in doc:
                for block in page.get_text("blocks"):
                    text = " ".join(block[4].split())
                    if len(text.split()) >= 40 and text.count(". ") >= 1:
                        out.append(text)
                        if len(out) >= limit:
                            return out
    return out


def bad_cuts(sentences: list[str]) -> int:
    """Cuts that are surely inside a sentence: before a lower-case word, after an abbreviation that
    never ends one ("No.", "e.g."), or after "U.S." before a capitalised word that does not start
    sentences ("U.S. || Department of State")."""
    bad = 0
    for a, b in zip(sentences, sentences[1:]):
        a, b = a.rstrip(), b.lstrip()
        if not b:
            continue
        first = b.split()[0] if b.split() else ""
        if b[:1].islower() or ABBREV.search(a) or (a.endswith("U.S.") and first[:1].isupper() and first not in STARTERS):
            bad += 1
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/bench"))
    ap.add_argument("--paragraphs", type=int, default=400)
    args = ap.parse_args(argv)
    pdfs = sorted(args.data.glob("**/*.pdf"))[::3]
    paras = paragraphs(pdfs, args.paragraphs)
    import pysbd
    from syntok import segmenter

    seg = pysbd.Segmenter(language="en", clean=False)
    methods = {
        "regex (before)": lambda t: [s for s in OLD.split(t) if s.strip()],
        "pysbd": lambda t: [s for s in seg.segment(t) if s.strip()],
        "syntok": lambda t: ["".join(tok.spacing + tok.value for tok in s).strip()
                             for p in segmenter.analyze(t) for s in p],
    }
    print(f"{len(paras)} paragraphs from {len(pdfs)} filings")
    print(f"{'segmenter':<16}{'sentences':>10}{'bad cuts':>10}{'ms/paragraph':>14}")
    for name, fn in methods.items():
        t0 = time.perf_counter()
        out = [fn(p) for p in paras]
        ms = 1000 * (time.perf_counter() - t0) / len(paras)
        print(f"{name:<16}{sum(map(len, out)):>10}{sum(bad_cuts(s) for s in out):>10}{ms:>14.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
