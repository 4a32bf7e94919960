"""Turn a user's question into retrieval queries: drop answer-format instructions, and add the
words filings use for the financial terms people ask about.

Analysts ask "gross margin", "quick ratio", "income statement"; filings print "Cost of sales",
"Total current assets", "Consolidated Statements of Operations". Neither BM25 nor a small
embedding model bridges that gap, so a glossary of standard financial-statement vocabulary does
(general accounting terms, nothing specific to one company or one question), and so do the
prose facts people ask for (employees, customers, stores, segments, auditors, headquarters, shares
outstanding, fiscal year end: "how many employees" -> "approximately ... full-time part-time
employees"). Instructions such
as "Answer in USD millions" or "If X is not a useful metric ... explain why" describe the
answer, not the evidence, and only add noise to retrieval, so they are removed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from storage.finance.line_items import SEARCH_GLOSSARY, named_items, search_words

# (pattern in the question, words the filing uses). Patterns are matched case-insensitively. Line items
# (revenues, capital expenditures, operating cash flow, buybacks, margins, ...), the statements and the ratios
# are not here: their words are storage/finance/line_items.py's (`search_words` of the items a question names,
# SEARCH_GLOSSARY); here are the topics and prose facts people ask about.
GLOSSARY: list[tuple[str, str]] = [
    *SEARCH_GLOSSARY,  # the financial statements and ratios (storage/finance/line_items.py)
    (r"restructuring", "restructuring charges liability"),
    (r"acquisitions?|acquired", "acquisition acquired business combination"),
    (r"segments?|product categor(?:y|ies)|business units?|divisions?", "segment revenue product category reportable operating segments"),
    (r"legal|litigation|lawsuits?", "legal proceedings litigation contingencies"),
    # Prose facts asked in plain words, in the words filings state them (Item 1 "Human capital",
    # Item 2 "Properties", the cover page, the auditor's report, the basis of presentation).
    (r"\bemployees?\b|\bemploy(?:s|ed|ing)?\b|head ?count|\bstaff(?:ing)?\b|work ?force|personnel|"
     r"\bpeople\b.{0,20}\b(?:work|employ)|\bworks? (?:for|at)\b",
     "approximately full-time part-time employees employed associates team members workforce human capital"),
    (r"head ?quarter\w*|head office|\bhq\b|\bbased\b|main office", "principal executive offices located headquarters"),
    (r"\baudit(?:or|ors|s|ed|ing)?\b|accounting firm|\baccountants?\b",
     "report of independent registered public accounting firm llp opinion auditor"),
    (r"shares? outstanding|outstanding shares?|shares? (?:issued|in issue)|(?:share|stock) count|how many shares",
     "number of shares of common stock outstanding as of"),
    # (not the "plant" of property, plant and equipment, nor a credit facility: line items, not places)
    (r"\bstores?\b|\bshops?\b|\blocations?\b|\bbranch(?:es)?\b|restaurants?|(?<!credit )\bfacilit(?:y|ies)\b|"
     r"\bplants?\b(?!,? (?:and|&) equipment)|"
     r"\bsites?\b|\boutlets?\b", "stores locations operate facilities properties square feet owned leased"),
    (r"\bcustomers?\b|\bclients?\b|\bbuyers?\b",
     "customers largest customer major customers significant portion of our revenues derive limited number accounted for percent"),
    (r"fiscal year[- ]?ends?|year[- ]ends?|(?:fiscal|financial) (?:year|calendar)\b(?! ?20\d\d)",
     "fiscal year ends last weeks included"),
]
_COMPILED = [(re.compile(p, re.IGNORECASE), words) for p, words in GLOSSARY]

# Phrasings that name a part of a filing rather than a line item (`expand_query(sections=True)`):
# what the company does is Item 1 "Business"; risks it is exposed to are "Risk Factors".
SECTION_GLOSSARY: list[tuple[str, str]] = [
    (r"\bwhat (?:industr(?:y|ies)|sectors?|lines? of business|business(?:es)?)\b|\bindustr(?:y|ies)\b.{0,40}\boperat|"
     r"\bwhat does\b.{0,40}\bdo\b|\bbusiness (?:model|description|overview)\b|\bdescribe\b.{0,30}\bbusiness\b",
     "business company overview products services markets"),
    (r"\bsubject to\b|\bexposed to\b|\bexposure\b|\brisks?\b|\bvulnerab\w*", "risk factors risks"),
]
_SECTION_COMPILED = [(re.compile(p, re.IGNORECASE), words) for p, words in SECTION_GLOSSARY]
# a derived noun names what filings state with its adjective: "cyclicality" -> "cyclical",
# "seasonality" -> "seasonal", "profitability" -> "profitable"
_DERIVED = [(re.compile(r"\b([a-z]{3,})ality\b", re.IGNORECASE), r"\1al"),
            (re.compile(r"\b([a-z]{3,})ability\b", re.IGNORECASE), r"\1able")]


def derived_words(question: str) -> list[str]:
    """Adjectives of the derived nouns a question uses ("cyclicality" -> ["cyclical"])."""
    out: list[str] = []
    for pattern, repl in _DERIVED:
        for m in pattern.finditer(question):
            word = m.expand(repl).lower()
            if word not in out:
                out.append(word)
    return out

# Sentences that tell how to answer, not what to find (FinanceBench's analysts write them before or after the
# question: "Give a response to the question by relying on the details shown in the cash flow statement.",
# "Compute or extract the answer by primarily using the details outlined in the statement of cash flows.",
# "You are an investment banker and your only resource is the balance sheet."); a definition ("ROA is defined as
# ...", "Define unadjusted EBITDA as ...") is kept: it says what to compute.
_INSTRUCTION = re.compile(
    r"^\s*(?:if\b.*\bthen\b|answer\b|round\b|we (?:need|want|would like) to (?:calculate|compute|know)|"
    r"base your (?:judg|answer)|using (?:only )?the information|give (?:your|a|the) (?:answer|response)|"
    r"provide (?:your|the|a) (?:answer|response)|respond\b|express\b|calculate(?:d)? (?:using|by)|assume\b|"
    r"(?:compute|calculate)(?: \(?or extract\)?)? the answer|please (?:utili[sz]e|use|help|base|refer|rely)\b|"
    r"you are (?:an?|the) \w+|utili[sz]e\b|only use\b|use (?:only )?(?:the )?(?:information|details|data)\b)",
    re.IGNORECASE,
)
# what a question is asked after: "Please answer the following question: what is X?", "Here's the question: what
# is X?", "Answer the following question by primarily using the balance sheet: what is X?" keep the part after the
# colon; "Based on the information provided in the income statement, what is X?", "According to the details
# outlined within the P&L statement, what is X?" the part after the comma (where to look is read from the whole
# question: expand_query's glossary)
_ASKED = r"(?=(?:what|how|which|who|when|where|is|are|was|were|does|did|do|has|have|can|by how)\b)"
_LEAD_IN = re.compile(
    rf"^\s*(?:(?:please )?answer the following(?: question)?[^:]*|here(?:'s|’s| is) the question|"
    rf"[^:]*\b(?:question|statements?|balance sheet)\b[^:]*):\s*{_ASKED}|"
    rf"^\s*(?:in agreement with|based (?:on|upon)|according to|taking into account|by drawing [a-z ]+ from|"
    rf"(?:by )?(?:primarily |only )?(?:using|relying on|looking at|referring to|considering)|in line with|"
    rf"from)\b[^,?]*\b(?:information|details|data|figures|statements?|balance sheet|p ?& ?l)\b[^,?]*,\s*{_ASKED}",
    re.IGNORECASE,
)
_SENTENCES = re.compile(r"(?<=[.?!])\s+")


@dataclass(frozen=True)
class ExpandedQuery:
    text: str  # the question without answer-format instructions
    expansion: str  # filing vocabulary for the financial terms it mentions ("" if none)

    @property
    def sparse_text(self) -> str:
        return f"{self.text} {self.expansion}".strip()


def strip_instructions(question: str) -> str:
    sentences = [s for s in _SENTENCES.split(question.strip()) if s]
    # "Please answer the following question: what is X?" keeps the part after the colon
    sentences = [_LEAD_IN.sub("", s) for s in sentences]
    kept = [s for s in sentences if s.strip() and not _INSTRUCTION.match(s)]
    return " ".join(kept).strip() or question.strip()


def expand_query(question: str, sections: bool = False) -> ExpandedQuery:
    """Cleaned question plus the words filings print for the line items it names (storage.finance.line_items)
    and the glossary's expansion (terms found anywhere in the original question,
    so a hint like "based on the balance sheet" still counts after its sentence is dropped).
    `sections`: also the section phrasings (SECTION_GLOSSARY) and derived nouns' adjectives."""
    words: list[str] = []
    for item in named_items(question):
        words.extend(w for w in search_words(item) if w not in words)
    for pattern, expansion in _COMPILED + (_SECTION_COMPILED if sections else []):
        if pattern.search(question):
            words.extend(w for w in expansion.split() if w not in words)
    if sections:
        words.extend(w for w in derived_words(question) if w not in words)
    return ExpandedQuery(text=strip_instructions(question), expansion=" ".join(words))
