"""The finance vocabulary has one home, storage/finance/: a module elsewhere that spells out its own year or
month pattern is a second reader of periods, free to disagree with the first (issue: years were
re-implemented in 13 modules, months in 7)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
# the year and month spellings storage/finance/periods.py owns (YEAR, MONTH, DATE)
PRIVATE_SPELLINGS = [re.escape(r"(?:19|20)\d\d"), r"jan\(\?:uary\)\?", r"january\s*\|?\s*february"]
HOMES = ["storage/documents", "storage/retrieval", "storage/history", "storage/jobs", "ui", "app_pages"]


def _offenders(paths) -> list[str]:
    found = []
    for path in paths:
        text = path.read_text()
        for spelling in PRIVATE_SPELLINGS:
            for m in re.finditer(spelling, text, re.IGNORECASE):
                found.append(f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}")
    return found


@pytest.mark.parametrize("home", HOMES)
def test_no_module_outside_storage_finance_spells_years_or_months(home):
    assert _offenders(sorted((ROOT / home).rglob("*.py"))) == []


def test_the_scan_sees_a_planted_year_and_month_pattern(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    (tmp_path / "a.py").write_text('Y = r"(?:19|20)\\d\\d"\nM = r"(?:jan(?:uary)?|feb)"\nok = YEAR\n')
    assert _offenders([tmp_path / "a.py"]) == ["a.py:1", "a.py:2"]
