"""Training pairs for the page scorer (bench/train_scorer.py): questions generated from the bench
filings' own table rows and prose, each with the chunk (and so the page) that prints the answer,
and hard negatives. Pure Python (json, re, random): runs in the training venv and in tests.

Which filings (the held-out rules, bench/gold/splits.json):
- only issuers of the tune halves (statements tune issuers, FinanceBench-dev tune issuers); no
  filing of a check-half issuer is ever read, so check-half figures measure transfer;
- not the filings the 28 dev questions are about (financebench-dev/pdfs/), and none of
  statements-more (the second evaluation set is read off those pages): every evaluation filing is
  unseen, tune-half ones only by their issuer's other years.
So: statements/ (tune issuers) + financebench-dev/library/ (tune issuers).

Recipe (seeded):
- table rows: a chunk line "<label> <numbers...>" under period headers ("Years ended ... 2022 2021",
  "Columns: ...", a 10-Q's quarter) -> "What was Boeing's total revenues in FY2019?", in a few
  phrasings; about half in analysts' phrasing (the style of FinanceBench questions: a period, units,
  and the statement to read it from, named after the page's own section label: "... Give a response
  to the question by relying on the details shown in the cash flow statement."), a share as ratios
  of two rows of the page ("ratio of X to Y", "X as a % of Y") and trends over a row's two years
  ("improved or declined between FY2021 and FY2022", "an improving X profile");
- page headers: each page is also read as "<issuer> <form> <period> | <section label>"
  (storage.retrieval.page_sections.page_header: what the ingestion knows of it), scored at a weight
  learnt in training (bench/train_scorer.py);
- prose: a sentence with a figure or a driver ("primarily due to", "increased", "decreased") ->
  "What drove ...?", "How much ... ?", "What does <issuer> say about <phrase>?", half of them naming
  the page's item or note ("What does Boeing disclose in its Income Taxes about ...?");
- hard negatives: the most word-overlapping other chunk of the same filing that does not print the
  row's figure, and the same line item in another year's filing of the issuer that does not
  print the asked year.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

from storage.finance.periods import QUARTER_NAME, QUARTER_ORDINALS, YEAR_RE
from storage.retrieval.page_sections import page_header, page_sections, statement_name

REPO = Path(__file__).resolve().parent.parent
SHARED = Path("/work/shared/bench")
SPLITS = REPO / "bench" / "gold" / "splits.json"

_NUM = r"\(?-?\$?\s?\d[\d,]*(?:\.\d+)?\)?%?|—|-"
_ROW = re.compile(rf"^(?P<label>[A-Za-z][A-Za-z ,'’&/()\-:]{{2,90}}?)\s+(?P<nums>(?:(?:\$\s?)?(?:{_NUM})\s*){{1,8}})$")
_YEAR = re.compile(r"\b(20[0-3]\d|19[89]\d)\b")
_WORD = re.compile(r"[a-z0-9]+")
_STOP = set("the of and a an in to for on by with from at as is are was were be been this that our we its it or "
            "which than other total net".split())
_SENT = re.compile(r"(?<=[.;])\s+(?=[A-Z])")


@dataclass
class Filing:
    name: str  # file stem, e.g. BOEING_2019_10K
    issuer: str  # short name, e.g. Boeing
    form: str
    year: int | None
    quarter: int | None
    chunks: list[dict] = field(default_factory=list)
    page_labels: list[str] = field(default_factory=list)  # section label of each page (storage.retrieval.page_sections)
    info: dict = field(default_factory=dict)  # the manifest's DocumentInfo

    def header(self, page: int) -> str:
        """The page's header as the scorer reads it at query time (storage.retrieval.page_sections.page_header)."""
        label = self.page_labels[page] if 0 <= page < len(self.page_labels) else ""
        return page_header(label, self.info.get("issuer"), self.info.get("form"), self.info.get("fiscal_year"),
                           self.info.get("fiscal_quarter"))

    def statement(self, page: int) -> str | None:
        return statement_name(self.page_labels[page]) if 0 <= page < len(self.page_labels) else None


def held_out_issuers() -> set[str]:
    splits = json.loads(SPLITS.read_text())
    return {i for k, v in splits.items() if isinstance(v, dict) for i in v.get("check", [])}


def training_files(shared: Path = SHARED) -> list[Path]:
    """The PDFs whose pages may become training data (see the module docstring)."""
    check = held_out_issuers()
    files = sorted((shared / "statements").glob("*.pdf")) + sorted((shared / "financebench-dev" / "library").glob("*.pdf"))
    dev_question_files = {p.stem for p in (shared / "financebench-dev" / "pdfs").glob("*.pdf")}
    more = {p.stem for p in (shared / "statements-more").glob("*.pdf")}
    return [p for p in files if issuer_code(p.stem) not in check and p.stem not in dev_question_files | more]


def issuer_code(stem: str) -> str:
    """File-name issuer: "BOEING_2019_10K" -> "BOEING", "PG_E_2022_10K" -> "PG_E"."""
    return "PG_E" if stem.startswith("PG_E_") else stem.split("_")[0]


def _short_issuer(info_issuer: str | None, stem: str) -> str:
    name = (info_issuer or issuer_code(stem).replace("PG_E", "PG&E")).strip()
    name = name.split(" Boston Properties Limited")[0]
    name = re.sub(r"^(the)\s+", "", name, flags=re.I)
    name = re.sub(r"[,.]?\s+(inc|corp|corporation|company|co|plc|ltd|limited|holdings|incorporated)\.?$", "", name, flags=re.I)
    return name.strip(" ,.") or stem.split("_")[0].title()


def load_filings(work: Path, shared: Path = SHARED) -> list[Filing]:
    """Chunks of every training filing, read from an ingestion work folder (read-only)."""
    out = []
    for pdf in training_files(shared):
        matches = sorted((work / "destination").glob(f"{pdf.stem}-*/manifest.json"))
        matches = [m for m in matches if m.parent.name.rsplit("-", 1)[0] == pdf.stem]
        if not matches:
            continue
        manifest = json.loads(matches[0].read_text())
        info = manifest.get("info") or {}
        build = matches[0].parent / f"build-{manifest['build']}"
        chunks = json.loads((build / "text_chunks.json").read_text())
        pages = json.loads((build / "pages.json").read_text()) if (build / "pages.json").is_file() else []
        out.append(Filing(pdf.stem, _short_issuer(info.get("issuer"), pdf.stem), info.get("form") or "",
                          info.get("fiscal_year"), info.get("fiscal_quarter"), chunks, page_sections(pages), info))
    return out


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 1}


def _clean_label(label: str) -> str:
    label = re.sub(r"\s*\(\d\)\s*", " ", label).strip(" :,-")
    return re.sub(r"\s+", " ", label)


def table_rows(chunk: dict) -> list[tuple[str, list[str], list[str]]]:
    """(label, figures, years of the chunk's period headers) of each row-like line of a chunk."""
    lines = chunk["text"].splitlines()
    header_years = []
    rows = []
    for line in lines:
        line = line.strip()
        years = _YEAR.findall(line)
        if years and (line.lower().startswith(("columns:", "years ended", "year ended", "three months", "six months",
                                               "nine months", "fiscal", "quarter")) or _YEAR.sub("", line).strip(" |,") == ""):
            header_years = years
            continue
        m = _ROW.match(line)
        if not m:
            continue
        label = _clean_label(m.group("label"))
        figures = [f for f in re.findall(_NUM, m.group("nums")) if any(ch.isdigit() for ch in f)]
        if len(label) < 4 or not figures or len(_words(label)) == 0:
            continue
        rows.append((label, figures, header_years))
    return rows


ROW_TEMPLATES = [
    "What was {iss}'s {item} in {per}?",
    "What is the {per} {item} for {iss}? Answer in USD millions.",
    "How much {item} did {iss} report for {per}?",
    "{iss} {item} {per}",
    "What were {iss}'s {item} for {per}, as reported in the {form}?",
    "According to the {form}, what is the value of {item} for {iss} in {per}?",
    "Using the financial statements, what was {item} in {per} for {iss}?",
    "What is {ISS}'s {item} as of {per}? Base your answer on the statements.",
]
# analysts' phrasing (the style of FinanceBench questions: a period, units, and the statement to read it from);
# {stmt} is the primary statement the page prints, else the form
ANALYST_ROW_TEMPLATES = [
    "What is the {per} {item} amount (in USD millions) for {iss}? Give a response to the question by relying on "
    "the details shown in the {stmt}.",
    "What is the year end {per} {item} for {iss}? Answer in USD millions. Base your judgments on the information "
    "provided primarily in the {stmt}.",
    "We need to calculate a financial metric by using information only provided within the {stmt}. Please answer "
    "the following question: what is {iss}'s {per} {item} (in USD millions)?",
    "In agreement with the information outlined in the {stmt}, what is {iss}'s {per} {item}? Answer in USD millions.",
    "According to the information provided in the {stmt}, what is the {per} {item} for {iss}? Round your answer "
    "to two decimal places.",
]
RATIO_TEMPLATES = [  # two line items of one page
    "What is {iss}'s {per} ratio of {item} to {item2}? Round your answer to two decimal places. Calculate what was "
    "asked by utilizing the line items clearly shown in the {stmt}.",
    "What is the {per} {item} as a % of {item2} for {iss}? Answer in units of percents and round to one decimal "
    "place. Base your judgments on the {stmt}.",
    "Using the {stmt}, what is {iss}'s {per} {item} divided by {item2}?",
]
TREND_TEMPLATES = [  # a row's two years
    "How did {iss}'s {item} change between {per2} and {per}?",
    "Has {iss}'s {item} improved or declined between {per2} and {per}? If {item} is not something that a financial "
    "analyst would ask about a company like this, then state that and explain why.",
    "Does {iss} have an improving {item} profile as of {per}?",
    "Did {iss}'s {item} increase or decrease in {per} compared with {per2}?",
]
ANALYST_PROSE_TEMPLATES = [  # {section}: the page's item or note title, else the form
    "What drove the change in {phrase} in {per}?",
    "Has {iss} reported any {phrase} in {per}?",
    "What does {iss} disclose in its {section} about {phrase}?",
    "Is {iss}'s business affected by {phrase}? Base your answer on the {section}.",
]
PROSE_TEMPLATES = [
    "What drove {phrase} for {iss} in {per}?",
    "What does {iss} say about {phrase}?",
    "How did {phrase} change for {iss} in {per}?",
    "Why did {phrase} at {iss}?",
    "Has {iss} reported {phrase}?",
]


# the names analysts give line items (a bench phrasing of questions: the product's own vocabulary, which must
# read them, is storage/finance/line_items.py), by US-GAAP concept
ANALYST_NAMES = {
    "PaymentsToAcquirePropertyPlantAndEquipment": ("capex", "capital expenditures", "capital spending"),
    "NetCashProvidedByUsedInOperatingActivities": ("CFO", "cash from operations", "operating cash flow"),
    "NetCashProvidedByUsedInInvestingActivities": ("investing cash flow", "cash used in investing"),
    "NetCashProvidedByUsedInFinancingActivities": ("financing cash flow",),
    "EarningsPerShareDiluted": ("diluted EPS", "EPS (diluted)"),
    "EarningsPerShareBasic": ("basic EPS",),
    "Revenues": ("revenue", "top line", "sales"),
    "NetIncomeLoss": ("net income", "net profit", "bottom line"),
    "OperatingIncomeLoss": ("operating income", "operating profit"),
    "CostOfRevenue": ("COGS", "cost of sales"),
    "SellingGeneralAndAdministrativeExpense": ("SG&A",),
    "ResearchAndDevelopmentExpense": ("R&D expense",),
    "DepreciationDepletionAndAmortization": ("D&A", "depreciation and amortization"),
    "CashAndCashEquivalentsAtCarryingValue": ("cash and equivalents", "cash balance"),
    "InventoryNet": ("inventories",),
    "AccountsReceivableNetCurrent": ("receivables",),
    "AccountsPayableCurrent": ("payables",),
    "PropertyPlantAndEquipmentNet": ("net PP&E",),
    "Assets": ("total assets",),
    "Liabilities": ("total liabilities",),
    "StockholdersEquity": ("shareholders' equity", "total equity"),
    "PaymentsOfDividends": ("dividends paid",),
    "PaymentsForRepurchaseOfCommonStock": ("share buybacks", "share repurchases"),
    "IncomeTaxExpenseBenefit": ("tax expense", "income tax provision"),
}
BALANCE_TEMPLATES = [  # a balance: "as of" its year end
    "What was {iss}'s {item} as of the end of {per}?",
    "How much {item} did {iss} have on its balance sheet at {per} year end?",
    "{iss} {item} balance as of {per}",
]


def analyst_item(row, cell, item: str, per: str, rng: random.Random) -> tuple[str, str, list[str]]:
    """The item, period and extra templates of a question in analysts' words on `row` (agent/no_model/cited_rows.py
    Row): the item by its analysts' name (ANALYST_NAMES), a segment's, region's or table's name before it when the
    row is printed outside the primary statements, a quarter a 10-K's quarterly column prints, "as of" a balance."""
    concept = row.item.concept if row.item is not None else ""
    if concept in ANALYST_NAMES and rng.random() < 0.6:
        item = rng.choice(ANALYST_NAMES[concept])
    part = _clean_label(row.caption or row.cells[0].section)
    if not row.primary and part and len(part.split()) <= 5 and part.lower() not in item.lower() and rng.random() < 0.6:
        item = rng.choice([f"{part} {item}", f"{item} for {part}", f"{item} of the {part} segment"])
    quarter, year = QUARTER_NAME.search(cell.period), YEAR_RE.search(per)
    if quarter and year and not per.startswith("Q"):
        per = f"Q{quarter.group(2) or QUARTER_ORDINALS[quarter.group(1).lower()]} of fiscal {year.group(0)}"
    return item, per, BALANCE_TEMPLATES if row.instant and rng.random() < 0.5 else []


def _period(f: Filing, years: list[str], rng: random.Random) -> tuple[str, str | None]:
    """A period phrase for a question and the year a page must print to answer it."""
    year = rng.choice(years[:2]) if years else (str(f.year) if f.year else None)
    if year is None:
        return "the latest year", None
    if f.quarter and rng.random() < 0.6:
        return f"Q{f.quarter} of FY{year}", year
    return rng.choice([f"FY{year}", f"FY {year}", f"fiscal {year}", f"{year}", f"the year {year}"]), year


def _question(template: str, f: Filing, item: str, per: str, rng: random.Random, page: int = -1, item2: str = "",
              per2: str = "") -> str:
    code = issuer_code(f.name)
    iss = f.issuer if rng.random() < 0.7 else code.replace("PG_E", "PG&E")
    form = f.form or "filing"
    lower = rng.random() < 0.7
    item, item2 = (item.lower(), item2.lower()) if lower else (item, item2)
    label = f.page_labels[page] if 0 <= page < len(f.page_labels) else ""
    section = label.split(" | ")[-1][:60] if label and not f.statement(page) else form
    return template.format(iss=iss, ISS=code.replace("PG_E", "PG&E"), item=item, per=per, form=form, phrase=item,
                           stmt=f.statement(page) or form, item2=item2, per2=per2, section=section)


def _row_question(f: Filing, page: int, rows: list, r: int, rng: random.Random) -> tuple[str, str | None]:
    """A question on row r of a chunk: the plain templates, the analysts' ones, a trend over its two years,
    or a ratio with another row of the chunk; and the year a page must print to answer it."""
    label, _, years = rows[r]
    per, year = _period(f, years, rng)
    roll = rng.random()
    if roll < 0.65 and year and not per.startswith("Q"):  # analysts write FY2019
        per = rng.choice([f"FY{year}", f"FY{year}", f"FY {year}"])
    if roll < 0.15 and len(set(years)) >= 2:
        y1, y2 = years[0], next(y for y in years if y != years[0])
        return _question(rng.choice(TREND_TEMPLATES), f, label, f"FY{y1}", rng, page, per2=f"FY{y2}"), y1
    if roll < 0.3 and len(rows) >= 2:
        other = rng.choice([x for i, x in enumerate(rows) if i != r])[0]
        return _question(rng.choice(RATIO_TEMPLATES), f, label, per, rng, page, item2=other), year
    templates = ANALYST_ROW_TEMPLATES if roll < 0.65 else ROW_TEMPLATES
    return _question(rng.choice(templates), f, label, per, rng, page), year


def _prose_phrases(chunk: dict) -> list[str]:
    out = []
    for sent in _SENT.split(chunk["text"].replace("\n", " ")):
        words = sent.split()
        if not 8 <= len(words) <= 60 or not sent[:1].isupper():
            continue
        low = sent.lower()
        cut = None
        for cue in (" primarily due to", " due to", " driven by", " as a result of", " because"):
            if cue in low:
                cut = low.index(cue)
                break
        if cut is None and not re.search(r"\d", sent):
            continue
        head = sent[:cut] if cut else sent
        head = re.sub(rf"(?:{_NUM})", " ", head)
        head_words = [w for w in re.split(r"\s+", head) if w and not w.startswith("$")][:14]
        if len(head_words) < 4:
            continue
        out.append(" ".join(head_words).strip(" ,.;:").lower())
    return out


def build_pairs(filings: list[Filing], seed: int = 13, max_rows_per_chunk: int = 3, max_prose_per_chunk: int = 1,
                per_filing: int = 300, row_share: float = 0.6) -> list[dict]:
    """[{question, positive, negatives, filing, page, kind}] with chunk texts as passages; at most
    `per_filing` pairs of a filing (a share `row_share` of them from table rows), so no filing dominates."""
    rng = random.Random(seed)
    by_issuer: dict[str, list[Filing]] = {}
    for f in filings:
        by_issuer.setdefault(issuer_code(f.name), []).append(f)
    pairs = []
    for f in filings:
        mine = []
        chunk_words = [_words(c["text"]) for c in f.chunks]
        for ci, chunk in enumerate(f.chunks):
            candidates = []
            page = chunk["page_number"]
            rows = table_rows(chunk)
            rng.shuffle(rows)
            for r, (label, figures, years) in enumerate(rows[:max_rows_per_chunk]):
                q, year = _row_question(f, page, rows, r, rng)
                candidates.append(("row", q, label, figures[0], year))
            phrases = _prose_phrases(chunk) if chunk.get("chunk_type") == "text" else []
            rng.shuffle(phrases)
            for phrase in phrases[:max_prose_per_chunk]:
                per, year = _period(f, [], rng)
                templates = ANALYST_PROSE_TEMPLATES if rng.random() < 0.5 else PROSE_TEMPLATES
                q = _question(rng.choice(templates), f, phrase, per, rng, page)
                candidates.append(("prose", q, phrase, None, None))
            mine += [(ci, c) for c in candidates]
        rows = [m for m in mine if m[1][0] == "row"]
        prose = [m for m in mine if m[1][0] == "prose"]
        n_rows = min(len(rows), int(per_filing * row_share))
        picked = rng.sample(rows, n_rows) + rng.sample(prose, min(len(prose), per_filing - n_rows))
        for ci, (kind, q, item, figure, year) in sorted(picked, key=lambda m: (m[0], m[1][1])):
            negatives = _hard_negatives(f, ci, q, item, figure, year, chunk_words, by_issuer, rng)
            if negatives:
                pairs.append({"question": q, "positive": f.chunks[ci]["text"], "negatives": negatives, "filing": f.name,
                              "page": f.chunks[ci]["page_number"], "kind": kind})
    rng.shuffle(pairs)
    return pairs


def _hard_negatives(f: Filing, ci: int, q: str, item: str, figure: str | None, year: str | None,
                    chunk_words: list[set[str]], by_issuer: dict[str, list[Filing]], rng: random.Random) -> list[str]:
    positive = f.chunks[ci]
    qw = _words(q)
    best, best_overlap = None, 0
    for cj, words in enumerate(chunk_words):
        other = f.chunks[cj]
        if other["page_number"] == positive["page_number"]:
            continue  # the same page may print the same answer
        if figure and figure in other["text"]:
            continue
        overlap = len(qw & words)
        if overlap > best_overlap:
            best, best_overlap = other["text"], overlap
    out = [best] if best else []
    if year:  # the same line item in another year's filing that does not print the asked year
        label = item.lower()
        peers = by_issuer[issuer_code(f.name)]
        for other in rng.sample(peers, k=len(peers)):
            if other.name == f.name:
                continue
            hits = [c["text"] for c in other.chunks if label in c["text"].lower() and year not in c["text"]]
            if hits:
                out.append(rng.choice(hits))
                break
    return out
