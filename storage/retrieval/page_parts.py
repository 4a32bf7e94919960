"""The part of a filing a question asks for, and the pages labelled as that part.

Two classes of question name a part of the filing rather than words its evidence page prints:

- a part named in prose: what the company does is Item 1 "Business"; what it is "subject to" or
  "exposed to" is "Risk Factors" (or market risk); "legal battles", lawsuits and litigation are the
  "Legal Proceedings" item or the litigation / contingencies note, whose later pages print none of
  the question's words (`PROSE_PARTS`, `Ranking.part_weight`);
- a primary statement, named ("using only the balance sheet") or implied by a metric computed from
  its lines (a gross or net margin or an effective tax rate from the income statement, a quick or
  current ratio from the balance sheet, free cash flow and capital expenditures from the cash flow
  statement's investing lines): the statement
  page prints the components, while notes and MD&A prose mention the metric's words more often
  (`STATEMENT_PARTS`, `Ranking.statement_weight`).

Pages carry their part as a label (storage/retrieval/page_sections.py, read at index load); the
ranking lifts the pages whose label matches the asked part (storage/retrieval/fusion.py).
"""

from __future__ import annotations

import re

from storage.finance.forms import asked_forms
from storage.finance.line_items import asked_items, home_statement
from storage.retrieval.page_sections import EVENT_ITEM_LABEL

_I = re.IGNORECASE
# (question phrasing, label of the part that answers it)
PROSE_PARTS: list[tuple[re.Pattern, re.Pattern]] = [
    (re.compile(r"\bwhat (?:industr(?:y|ies)|sectors?|lines? of business|business(?:es)?)\b|"
                r"\bindustr(?:y|ies)\b.{0,40}\boperat|\bwhat does\b.{0,40}\bdo\b|"
                r"\bbusiness (?:model|description|overview)\b|\bdescribe\b.{0,30}\bbusiness\b", _I),
     re.compile(r"(?:^|\|\s)business(?:\s+overview)?\.?\s*(?:\||$)", _I)),
    (re.compile(r"\bsubject to\b|\bexposed to\b|\bexposures?\b|\brisks?\b|\bvulnerab\w*", _I),
     re.compile(r"\brisk factors\b|\bmarket risks?\b", _I)),
    (re.compile(r"\blegal\b|\blitigation\b|\blawsuits?\b|\bsued\b|\bcourts?\b|\bclass actions?\b", _I),
     re.compile(r"\blegal\b|\blitigation\b|\bcontingenc", _I)),
]
_INCOME = re.compile(r"\bincome statement\b")
_BALANCE = re.compile(r"\bbalance sheet\b")
_CASH = re.compile(r"\bcash flow statement\b")
# each statement as questions name it, and the metrics computed from its lines
_NAMED = {
    _INCOME: r"\bincome statements?\b|\bstatements? of (?:income|operations|earnings)\b|\bp\s*&\s*l\b|\bprofit and loss\b",
    _BALANCE: r"\bbalance sheets?\b|\bstatements? of financial position\b",
    _CASH: r"\bcash ?flow statements?\b|\bstatements? of cash ?flows?\b",
}
_IMPLIED = {
    _INCOME: r"\b(?:gross|operating|net|profit|ebit)\s+(?:profit\s+)?margins?\b|\beffective (?:income )?tax rate\b|"
             r"\binterest coverage\b",
    _BALANCE: r"\bquick ratio\b|\bacid[- ]test\b|\bcurrent ratio\b|\bworking capital\b|\bdebt[- ]to[- ]equity\b|"
              r"\bbook value\b",
    _CASH: r"\bfree cash ?flows?\b|\bcash conversion\b",
}
STATEMENT_PARTS: list[tuple[re.Pattern, re.Pattern]] = [
    (re.compile(f"{_NAMED[label]}|{_IMPLIED[label]}", _I), label) for label in (_INCOME, _BALANCE, _CASH)]
# a statement named in words only ("using the balance sheet"), not implied by a metric
NAMED_STATEMENT_PARTS: list[tuple[re.Pattern, re.Pattern]] = [
    (re.compile(_NAMED[label], _I), label) for label in (_INCOME, _BALANCE, _CASH)]

# A question for the cause of a change ("why did the tax rate rise", "what drove the margin") is answered by
# the prose explaining it, Item 7 "Management's Discussion and Analysis" (Item 2 of a 10-Q), not by the
# statement printing the metric's components (`Ranking.cause_statements`, `Ranking.cause_weight`).
CAUSE = re.compile(r"\bwhy\b|\bwhat (?:drove|drives|caused|led to|contributed to)\b|\bdrivers?\b|"
                   r"\breasons?\b|\bexplain(?:s|ed)?\b|\bdriven by\b", _I)
_MDNA = re.compile(r"\bmanagement\W{0,2}s?\s+discussion\b", _I)
CAUSE_PARTS: list[tuple[re.Pattern, re.Pattern]] = [(CAUSE, _MDNA)]


class _AsksEventAgenda:
    """A question for what a current report is about ("the key agenda of the 8-K dated ...", "what did the 8-K
    announce"): answered by the page printing its items ("Item 1.01 Entry into a Material Definitive Agreement"),
    not by the cover that names the form and date."""

    _ABOUT = re.compile(r"\bagenda\b|\bpurpose\b|\babout\b|\bkey (?:items?|events?|topics?)\b|"
                        r"\bwhat\b.{0,60}\b(?:report(?:s|ed)?|announce[sd]?|disclose[sd]?)\b", _I)

    @classmethod
    def search(cls, question: str) -> bool:
        return bool(re.search(r"\bagenda\b", question, _I)) or (
            "8-K" in asked_forms(question) and bool(cls._ABOUT.search(question)))


# (`Ranking.event_item_weight`)
EVENT_ITEM_PARTS: list[tuple] = [(_AsksEventAgenda, re.compile(rf"\b{EVENT_ITEM_LABEL}\b", _I))]


def asks_cause(question: str) -> bool:
    """The question asks why something changed or what drove it."""
    return bool(CAUSE.search(question or ""))
# capital expenditures: a line of the cash flow statement's investing activities (`Ranking.capex_statement`)
CAPEX_PARTS: list[tuple[re.Pattern, re.Pattern]] = [
    (re.compile(r"\bcapex\b|\bcapital (?:expenditures?|spending)\b", _I), _CASH),
]


class _AsksCashFlowItem:
    """A question naming a line item the cash flow statement presents (storage.finance.line_items: capital
    expenditures, D&A, buybacks, dividends paid; the operating, investing and financing totals), however it
    is phrased ("capex", "CFO", "cash from operations")."""

    @staticmethod
    def search(question: str) -> bool:
        return any(home_statement(a.item) == "cash flows" or a.item.concept.startswith("NetCashProvidedByUsedIn")
                   for a in asked_items(question))


# line items of the cash flow statement asked in any words (`Ranking.cash_flow_items`, weighed by statement_weight)
CASH_FLOW_ITEM_PARTS: list[tuple] = [(_AsksCashFlowItem, _CASH)]


def asked_parts(question: str, table: list[tuple[re.Pattern, re.Pattern]]) -> list[re.Pattern]:
    """Labels of the parts `question` asks for, from `table` (PROSE_PARTS or STATEMENT_PARTS)."""
    return [label for asked, label in table if asked.search(question or "")]


def label_mask(labels: list[str], parts: list[re.Pattern]) -> list[int]:
    """Pages whose label matches one of `parts`."""
    return [p for p, label in enumerate(labels) if any(part.search(label or "") for part in parts)]
