"""The tune and check halves of every gold set (bench/gold/splits.json), by issuer: the one reader the
benchmarks use. Issuer = the splits' name a file or document name starts with ("PG_E_2022_10K" -> "PG_E"),
else its prefix before the first "_"."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

SPLITS = Path(__file__).resolve().parent / "gold" / "splits.json"
HALVES = ("tune", "check")


@lru_cache(maxsize=1)
def issuers() -> dict[str, list[str]]:
    """half -> issuers, over every gold set."""
    data = json.loads(SPLITS.read_text("utf-8"))
    return {h: [n for v in data.values() if isinstance(v, dict) for n in v.get(h, [])] for h in HALVES}


def issuer_of(name: str) -> str:
    stem = Path(name).stem.upper()
    named = [n for half in issuers().values() for n in half if stem.startswith(f"{n}_")]
    return max(named, key=len) if named else stem.split("_")[0]


def half_of(name: str) -> str | None:
    """"tune" or "check" for a file or document name; None for an issuer of no gold set."""
    issuer = issuer_of(name)
    return next((h for h, names in issuers().items() if issuer in names), None)
