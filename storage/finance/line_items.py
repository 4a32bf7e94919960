"""Line items of financial statements, named as the US-GAAP taxonomy names them.

Each `LineItem` is one US-GAAP concept (its element name and standard label, e.g.
`PaymentsToAcquirePropertyPlantAndEquipment`, "Payments to Acquire Property, Plant, and
Equipment") with the words analysts ask it by (`asked`: "capital expenditures", "capex",
"capital spending") and the row labels filings print for it (`printed`: "Purchases of property
and equipment", "Additions to property, plant and equipment"). A question's line item and a
printed row's line item are then compared as concepts: "net revenue" asked = "Net sales" printed
(both `Revenues`), while "Current portion of long-term debt" (`LongTermDebtCurrent`) is never
the answer to "long-term debt" (`LongTermDebtNoncurrent`).

A few entries are ratios every analyst names (gross / operating / net margin, current ratio, free
cash flow, EBITDA): not US-GAAP elements, they carry the `formula` over concepts that
agent/no_model/derived_figures.py computes when the filing does not print them. A total the taxonomy
composes from other concepts (`DebtLongtermAndShorttermCombinedAmount` = current + noncurrent
debt + short-term borrowings) carries its `components`, listed when the total is not printed.

The vocabulary is general accounting language (the taxonomy's labels and the usual printed
variants), never one filing's wording. Each item also carries the words its printed rows use (`words`,
`search_words`): the keyword query of retrieval (storage/retrieval/query_expansion.py) takes them for
the items a question names, so the asked words and the printed words have this one home.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from storage.finance.periods import YEAR
from storage.finance.scale import LABEL_UNIT


@dataclass(frozen=True)
class LineItem:
    concept: str  # US-GAAP element name (or a ratio's name, for the few non-GAAP measures below)
    label: str  # the taxonomy's standard label, as said in answers
    asked: str  # regex: how questions name it
    printed: str  # regex: printed row labels (matched in full against normalize_label's output)
    formula: str = ""  # for ratios: a formula over other items' concepts (agent/no_model/derived_figures.py)
    components: tuple[str, ...] = ()  # concepts that make up the total when it is not printed
    per_share: bool = False
    percent: bool = False
    # the words its printed rows use, for keyword search (storage/retrieval/query_expansion.py; search_words)
    words: str = ""


_CUR = r"(?:current|short[- ]term)"
# a margin asked or printed as a percentage ("operating margin percentage", "Total Operating Margin %")
_AS_PERCENT = r"(?: percentages?| %| rates?)?"
_PRINTED_PERCENT = r"(?: percentages?| %| rates?| as a percent(?:age)? of (?:total |net )?(?:revenues?|sales))?"
# a margin written as its numerator over sales: "EBIT / sales", "Gross profit / net revenue" (not "as a % of sales":
# MD&A tables print "% of revenue" under an amount's row, and a question asking that percentage asks the amount's row)
_OVER_SALES = r"\s*/\s*(?:net |total )?(?:sales|revenues?)"
ITEMS: tuple[LineItem, ...] = (
    LineItem("Revenues", "Revenues",
             r"(?:total |net |operating )*(?:revenues?|sales)|top[- ]line|turnover",
             r"(?:total )?(?:net )?(?:operating )?(?:revenues?|sales)(?:, net)?|(?:total )?net sales and (?:other )?"
             r"(?:operating )?revenues?|(?:total )?revenues? from contracts? with customers|(?:total )?sales and "
             r"(?:other )?(?:operating )?revenues?", words="revenue net sales"),
    LineItem("CostOfRevenue", "Cost of Revenue",
             r"cost of (?:goods |products )?(?:sold|sales|revenues?)|cogs",
             r"(?:total )?cost of (?:goods |products |merchandise )?(?:sold|sales|revenues?)",
             words="cost of sales revenue net sales"),
    LineItem("GrossProfit", "Gross Profit", r"gross profit", r"gross (?:profit|margin)",
             words="gross profit cost of sales cost of products revenue net sales"),
    LineItem("OperatingExpenses", "Operating Expenses", r"(?:total )?operating expenses|opex",
             r"(?:total )?operating (?:costs and )?expenses"),
    LineItem("ResearchAndDevelopmentExpense", "Research and Development Expense",
             r"(?:r ?& ?d|\br and d\b|research and development)(?: spending| spend| expenses?| costs?)?",
             r"research and development(?: expenses?| costs?)?(?:, net)?"),
    LineItem("SellingGeneralAndAdministrativeExpense", "Selling, General and Administrative Expense",
             r"sg ?& ?a|selling,? general,? (?:and|&) administrative(?: expenses?)?",
             r"selling,? general,? and administrative(?: expenses?)?", words="selling general and administrative expenses"),
    # general and administrative alone, as statements that print selling or marketing apart show it (asked_items keeps
    # the longer "selling, general and administrative" whole)
    LineItem("GeneralAndAdministrativeExpense", "General and Administrative Expense",
             r"g ?& ?a(?: expenses?| costs?)?|general,? (?:and|&) administrative(?: expenses?| costs?)?",
             r"(?:total )?general and administrative(?: expenses?| costs?)?", words="general and administrative expenses"),
    LineItem("SellingAndMarketingExpense", "Selling and Marketing Expense", r"(?:sales|selling) and marketing",
             r"(?:sales|selling) and marketing(?: expenses?)?"),
    LineItem("OperatingIncomeLoss", "Operating Income (Loss)",
             r"operating (?:income|profit|earnings|loss)|(?:income|earnings|profit|loss) from operations|\bebit\b|"
             r"earn(?:ed|s)? (?:from|on) (?:its |their )?operations|"  # "What did <company> earn from operations"
             r"(?:earnings|income|profit) before interest and (?:income )?tax(?:es)?(?!,? depreciation)",  # EBIT spelled out
             r"(?:total )?operating (?:income|profit|earnings|loss)|(?:income|earnings|profit|loss) from operations"
             # "EBIT", "Operating profit (EBIT)", "Earnings before interest and taxes"
             r"|(?:operating (?:income|profit|earnings) )?\(?ebit\)?(?: from continuing operations)?"
             r"|(?:earnings|income|profit) before interest and (?:income )?taxe?s?(?: \(ebit\))?",
             words="operating income earnings from operations revenue net sales"),
    LineItem("IncomeLossBeforeIncomeTaxes", "Income (Loss) before Income Taxes",
             r"(?:pre-?tax|pretax) (?:income|earnings|profit)|(?:income|earnings|profit) before (?:provision for )?(?:income )?taxes",
             r"(?:income|earnings|profit) (?:from continuing operations )?before (?:provision for )?(?:income )?taxes"),
    LineItem("IncomeTaxExpenseBenefit", "Income Tax Expense (Benefit)",
             r"(?:income )?tax (?:expense|provision)|provision for (?:income )?taxes",
             r"(?:provision for|benefit from) (?:income )?taxes|income tax(?:es)?(?: expense| provision)?"),
    # "interest cost(s)" too (not a pension plan's or capitalized interest: asked_items, _OTHER_INTEREST_COST)
    LineItem("InterestExpense", "Interest Expense", r"interest (?:expense|costs?)", r"interest expense(?:, net)?"),
    # before NetIncomeLoss: "Net earnings attributable to noncontrolling interests" is the minority's
    # share, never the company's net income
    LineItem("NetIncomeLossAttributableToNoncontrollingInterest", "Net Income (Loss) Attributable to Noncontrolling Interest",
             r"(?:net (?:income|earnings|profit|loss) )?attributable to (?:the )?(?:redeemable (?:and )?)?(?:non-?controlling|"
             r"minority) interests?|(?:non-?controlling|minority) interests?['’]? share of (?:net )?(?:income|earnings)",
             r"(?:less:? )?(?:net )?(?:income|earnings|profit|loss)? ?attributable to (?:redeemable )?(?:and )?"
             r"(?:non-?controlling|minority) interests?(?: in .{0,40})?"),
    # the consolidated total, the noncontrolling interests' share included (NetIncomeLoss is the parent's)
    LineItem("ProfitLoss", "Net Income (Loss), Including Portion Attributable to Noncontrolling Interest",
             r"(?:total |consolidated )?net (?:income|earnings|profit|loss),? including (?:the )?(?:(?:portion|income|"
             r"earnings) )?(?:attributable to )?(?:the )?(?:redeemable )?(?:and )?(?:non-?controlling|minority) interests?|"
             r"consolidated net (?:income|earnings|profit)",
             r"net (?:income|earnings|profit),? including (?:.{0,40} )?(?:non-?controlling|minority) interests?"),
    LineItem("NetIncomeLoss", "Net Income (Loss)",
             # "earnings attributable to common shareholders": the parent's net income, "net" left unsaid; "to common
             # shareholders" stays out of the span, so its row must print them (not a "Net income" row before
             # preferred dividends)
             r"net (?:income|earnings|profit|loss)|bottom[- ]line|"
             r"(?:income|earnings|profit) (?:attributable|available)(?= to common (?:stock|share)holders)",
             r"net (?:income|earnings|profit|loss)(?: attributable to (?:the company|common (?:stock|share)holders|"
             r"[a-z.,'’& ]{2,60}))?|(?:net )?(?:income|earnings|profit|loss) (?:attributable|available) to common "
             r"(?:stock|share)holders", words="net income net earnings revenue net sales"),
    LineItem("EarningsPerShareDiluted", "Earnings Per Share, Diluted",
             r"(?:diluted )?(?:eps|earnings per (?:common |ordinary )?share|(?:net )?(?:income|earnings) per (?:common |ordinary )?share)"
             r"(?:,? diluted)?|diluted (?:net )?(?:income|earnings) per share|earn(?:ed|s)? per (?:diluted )?share|"
             r"(?:net )?(?:income|earnings|eps) per diluted (?:common |ordinary )?share",  # "earnings per diluted share"
             r"(?:(?:net )?(?:income|earnings) per (?:common |ordinary )?share|eps)(?: [a-z ]{0,30})?,? ?-? ?diluted|diluted "
             r"(?:(?:net )?(?:income|earnings) per (?:common |ordinary )?share|eps)(?: attributable to [a-z.,'’& ]{2,60}|"
             r" from continuing operations)?",
             per_share=True, words="earnings per share basic diluted"),
    LineItem("EarningsPerShareBasic", "Earnings Per Share, Basic",
             r"basic (?:eps|(?:net )?(?:income|earnings) per (?:common |ordinary )?share)|(?:eps|earnings per share),? basic|"
             r"earn(?:ed|s)? per basic share|(?:net )?(?:income|earnings|eps) per basic (?:common |ordinary )?share|"
             r"(?:eps|earnings per (?:common )?share) \(basic(?=\))",
             r"(?:(?:net )?(?:income|earnings) per (?:common |ordinary )?share|eps)(?: [a-z ]{0,30})?,? ?-? ?basic|basic "
             r"(?:(?:net )?(?:income|earnings) per (?:common |ordinary )?share|eps)(?: attributable to [a-z.,'’& ]{2,60}|"
             r" from continuing operations)?",
             per_share=True, words="earnings per share basic diluted"),
    LineItem("DepreciationDepletionAndAmortization", "Depreciation, Depletion and Amortization",
             r"d ?& ?a|depreciation(?:,? depletion)? and amortization|depreciation",
             r"depreciation(?:,? depletion)?(?: and amortization)?(?: expense)?", words="depreciation and amortization"),
    LineItem("NetCashProvidedByUsedInOperatingActivities", "Net Cash Provided by (Used in) Operating Activities",
             r"(?:net )?cash (?:provided by|from|generated (?:by|from)|flows? from) operati\w+(?: activities)?|"
             r"operating cash ?(?:in|out)?flows?|cash ?(?:in|out)?flows? from operati\w+(?: activities)?|cfo|"
             r"cash (?:[\w&'’.]+ ){0,3}(?:generated?|provided|produced) (?:by|from|in) (?:its )?operati\w+(?: activities)?|"
             r"cash (?:did|does|do|will) (?:[\w&'’.]+ ){0,3}operati\w+(?: activities)? (?:generate|provide|produce)",
             r"(?:net )?cash (?:provided by|from|generated (?:by|from))? ?operating activities|(?:net )?cash "
             r"(?:provided by|from|generated (?:by|from)) operations", words="net cash provided by operating activities"),
    LineItem("NetCashProvidedByUsedInInvestingActivities", "Net Cash Provided by (Used in) Investing Activities",
             r"(?:net )?cash (?:used (?:in|for)|provided by|from) investing(?: activities)?|investing cash ?flows?",
             r"(?:net )?cash (?:provided by|used in|used for|from)? ?investing activities"),
    LineItem("NetCashProvidedByUsedInFinancingActivities", "Net Cash Provided by (Used in) Financing Activities",
             r"(?:net )?cash (?:used (?:in|for)|provided by|from) financing(?: activities)?|financing cash ?flows?",
             r"(?:net )?cash (?:provided by|used in|used for|from)? ?financing activities"),
    LineItem("PaymentsToAcquirePropertyPlantAndEquipment", "Payments to Acquire Property, Plant, and Equipment",
             r"capital (?:expenditures?|spending|investments?)|capex|(?:purchases? of|payments? (?:for|to acquire)(?: the)?"
             r"(?: acquisitions? of)?) property(?:,? plant)?(?:,? and equipment)?|additions to property(?:,? plant)?"
             r"(?: and equipment)?|property(?:,? plant)?,? (?:and|&) equipment (?:additions|purchases|expenditures)",
             r"(?:total )?capital expenditures?|(?:purchases?|acquisitions?|additions?|payments?|expenditures?) "
             r"(?:of|to|for) (?:(?:the )?acquisitions? of |acquire )?property(?:,? plant)?(?:,? (?:and|&) equipment)?(?:, net)?"
             r"(?:,? and (?:other )?intangible assets)?|property(?:,? plant)?,? (?:and|&) equipment (?:additions|purchases)",
             words="purchases of property plant and equipment additions"),
    LineItem("PaymentsOfDividends", "Payments of Dividends",
             r"dividends? paid|(?:cash )?dividends?(?! per)", r"(?:(?:cash )?dividends? paid|payments? of (?:cash )?"
             r"dividends?)(?: to (?:common )?(?:stock|share)holders)?", words="dividends paid cash dividends"),
    LineItem("PaymentsForRepurchaseOfCommonStock", "Payments for Repurchase of Common Stock",
             r"(?:share|stock) (?:repurchases?|buybacks?)|buybacks?|repurchases? of (?:common )?(?:stock|shares)|"
             r"(?:buy(?:ing|s)?|bought) back (?:(?:its|their) )?(?:own )?(?:common )?(?:stock|shares)|"
             # "repurchasing its common stock", "purchasing treasury shares" (treasury stock bought is repurchased)
             r"(?:re)?purchas(?:e|es|ed|ing) (?:of )?(?:(?:its|their) )?(?:own )?(?:common |treasury )?(?:stock|shares)",
             r"(?:payments for )?repurchases? of (?:common )?(?:stock|shares)|(?:common )?stock repurchased|"
             r"purchases? of treasury (?:stock|shares)",
             words="repurchase shares common stock repurchases"),
    # cash flow lines analysts ask by name: the cash paid or received, never the expense or the balance
    LineItem("InterestPaidNet", "Interest Paid, Net",
             r"interest paid|(?:cash )?paid for interest|interest payments?|"
             r"interest (?:did|does|do|will) (?:[\w&'’.-]+ ){0,3}pa(?:y|id)",
             r"(?:cash )?interest paid(?:,? net)?(?:,? (?:net )?of (?:amounts? )?capitali[sz]ed)?|"
             r"(?:cash )?paid for interest(?:,? net)?(?:,? (?:net )?of (?:amounts? )?capitali[sz]ed)?",
             words="interest paid cash paid"),
    LineItem("IncomeTaxesPaid", "Income Taxes Paid",
             r"(?:income )?tax(?:es)? paid|(?:cash )?paid for (?:income )?taxes|(?:income )?tax payments?|"
             r"(?:income )?tax(?:es)? (?:did|does|do|will) (?:[\w&'’.-]+ ){0,3}pa(?:y|id)",
             r"(?:cash )?(?:income )?tax(?:es)? paid(?:,? net(?: of refunds)?)?|"
             r"(?:cash )?paid for (?:income )?taxes(?:,? net(?: of refunds)?)?",
             words="income taxes paid cash paid"),
    LineItem("ProceedsFromDivestitureOfBusinesses", "Proceeds from Divestiture of Businesses",
             r"proceeds from (?:the )?(?:divestitures?|(?:sales?|dispos(?:al|itions?)) of (?:businesses|operations|"
             r"subsidiaries))|divestiture proceeds|proceeds (?:did|does|do) (?:[\w&'’.-]+ ){0,3}receive from (?:the )?"
             r"divestitures?",
             r"proceeds from (?:the )?(?:divestitures?(?: of businesses)?|(?:sales?|dispos(?:al|itions?)) of "
             r"(?:businesses|operations|subsidiaries))(?:,? net(?: of cash (?:divested|disposed|sold))?)?",
             words="proceeds from divestitures"),
    LineItem("RepaymentsOfLongTermDebt", "Repayments of Long-term Debt",
             r"repayments? of (?:long[- ]term )?debt|(?:long[- ]term )?debt (?:did|does|do) (?:[\w&'’.-]+ ){0,3}"
             r"repa(?:y|id)|repa(?:y|id|ying) (?:(?:its|their) )?long[- ]term debt|(?:long[- ]term )?debt repayments?",
             r"repayments? of (?:long[- ]term )?(?:debt|borrowings)(?:,? net)?|(?:long[- ]term )?debt repayments?",
             words="repayments of long-term debt"),
    LineItem("CashAndCashEquivalentsPeriodIncreaseDecrease", "Cash and Cash Equivalents, Period Increase (Decrease)",
             r"(?:net )?(?:\(?(?:increase|decrease)\)? ?)+in cash(?:, cash equivalents(?:,? and restricted cash)?| and cash "
             r"equivalents(?:,? and restricted cash)?)?|(?:net )?change in cash(?: and cash equivalents)?",
             r"(?:net )?(?:increase|decrease|change) in cash(?:, cash equivalents(?:,? and restricted cash)?| and "
             r"cash equivalents(?:,? and restricted cash)?)?"),
    LineItem("CashAndCashEquivalentsAtCarryingValue", "Cash and Cash Equivalents",
             r"cash(?:,)? (?:(?:and|&) )?(?:cash )?equivalents|cash balance|cash on hand",  # "cash & equivalents"
             r"(?:total )?cash(?:,)? (?:(?:and|&) )?(?:cash )?equivalents(?:,? and restricted cash)?(?:,? (?:at )?end of "
             r"(?:the )?(?:year|period))?|cash(?:,)? cash equivalents,? and restricted cash(?:,? (?:at )?end of "
             r"(?:the )?(?:year|period))?"),
    LineItem("AccountsReceivableNetCurrent", "Accounts Receivable, Net",
             r"(?:accounts |trade )?receivables?",
             r"(?:accounts |trade )?receivables?(?:, net| net)?(?:,? (?:net of|less) (?:the )?allowances?.*| of allowances?.*)?"),
    LineItem("InventoryNet", "Inventory, Net", r"inventor(?:y|ies)", r"(?:merchandise )?inventor(?:y|ies)(?:, net)?",
             words="merchandise inventories"),
    LineItem("AssetsCurrent", "Assets, Current", r"(?:total )?current assets", r"total current assets"),
    LineItem("PropertyPlantAndEquipmentNet", "Property, Plant and Equipment, Net",
             r"(?:net )?(?:pp ?& ?e|ppne|property(?:,? plant)?,? (?:and|&) equipment|fixed assets)",
             r"(?:total )?(?:net )?property(?:,? plant)?,? (?:and|&) equipment(?:, net| net)?",
             words="property plant and equipment net"),
    LineItem("Goodwill", "Goodwill", r"goodwill", r"goodwill"),
    LineItem("Assets", "Assets", r"total assets", r"total assets"),
    LineItem("AccountsPayableCurrent", "Accounts Payable, Current", r"accounts payable|trade payables",
             r"(?:accounts|trade) payables?"),
    LineItem("LiabilitiesCurrent", "Liabilities, Current", r"(?:total )?current liabilities", r"total current liabilities"),
    LineItem("ShortTermBorrowings", "Short-term Borrowings",
             r"short[- ]term (?:debt|borrowings?)|commercial paper|notes payable",
             r"short[- ]term (?:debt|borrowings?)|commercial paper|(?:short[- ]term )?notes payable(?: and "
             r"commercial paper)?"),
    LineItem("LongTermDebtCurrent", "Long-term Debt, Current Maturities",
             rf"{_CUR} (?:portion|maturities) of (?:long[- ]term )?debt|current (?:long[- ])?term (?:debt|borrowings?)|"
             r"long[- ]term debt,? classified as current",
             rf"(?:{_CUR} (?:portion|maturities) of (?:long[- ]term )?(?:debt|borrowings)(?: and .{{0,40}})?|"
             r"long[- ]term debt,? (?:due within one year|(?:classified as )?current(?: portion| maturities)?))"),
    LineItem("LongTermDebtNoncurrent", "Long-term Debt, Excluding Current Maturities",
             r"(?:non-?current )?long[- ]term (?:debt|borrowings?)|non-?current (?:portion of )?(?:term )?(?:debt|borrowings?)|"
             r"(?:term )?(?:debt|borrowings?),? non-?current|(?:long[- ]term|non-?current)(?: \(non-?current\))? notes payable|notes payable,? "
             r"non-?current",
             r"(?:total )?(?:long[- ])?term (?:debt|borrowings?)(?:,? (?:net|noncurrent|non-current|less current "
             r"(?:portion|maturities)|excluding current (?:portion|maturities)|net of current (?:portion|"
             r"maturities)))*|(?:long[- ]term )?notes payable(?: and other (?:non-?current )?borrowings)?,? non-?current|"
             r"notes payable and other non-?current borrowings"),
    # total debt less cash: the filing's own measure, printed or not stated (never total debt's row)
    LineItem("NetDebt", "Net debt", r"net debt", r"(?:total )?net debt(?: \(cash\))?"),
    LineItem("DebtLongtermAndShorttermCombinedAmount", "Total debt",
             r"total (?:debt|borrowings)|(?:gross |overall )?debt(?: outstanding)?|borrowings",
             r"total (?:consolidated )?(?:debt|borrowings)(?: outstanding)?|debt(?: outstanding)?|total debt and finance leases?|"
             # "Total notes payable and other borrowings" (the carrying amount; "Total senior notes and other borrowings"
             # above it is the principal before discounts)
             r"total notes payable and (?:other )?borrowings",
             components=("ShortTermBorrowings", "LongTermDebtCurrent", "LongTermDebtNoncurrent")),
    LineItem("Liabilities", "Liabilities", r"total liabilities", r"total liabilities"),
    LineItem("StockholdersEquity", "Stockholders' Equity",
             r"(?:total )?(?:stock|share)holders['’]? equity|(?:total )?equity|book value",
             # "Total liabilities and shareholders' equity" is the balance sheet's other side, not equity
             r"total (?![a-z.,&'’ ]*\bliabilities\b)(?:[a-z.,&'’ ]{2,40} )?(?:stock|share)holders['’]? (?:equity|investment)"
             r"(?: \(deficit\))?|total equity|(?:stock|share)holders['’]? (?:equity|investment)"),
    # ratios analysts name: printed by some filings, computed from their formula otherwise; "Consolidated operating
    # margin" (printed beside each segment's) is the company's
    LineItem("GrossMargin", "Gross margin", rf"gross (?:profit )?margins?{_AS_PERCENT}|gross profit{_OVER_SALES}",
             rf"(?:total |consolidated )?gross (?:profit )?margin{_PRINTED_PERCENT}",
             formula="GrossProfit / Revenues", percent=True),
    # (EBIT is read as operating income, so its margin is the operating margin)
    LineItem("OperatingMargin", "Operating margin",
             rf"(?:operating (?:profit |income )?|\bop\.? |ebit )margins?{_AS_PERCENT}"  # "op margin": analysts' shorthand
             rf"|(?:operating (?:profit|income)|ebit){_OVER_SALES}",
             rf"(?:total |consolidated )?(?:operating (?:profit |income )?|ebit )margin{_PRINTED_PERCENT}",
             formula="OperatingIncomeLoss / Revenues", percent=True),
    LineItem("EBITDAMargin", "EBITDA margin", rf"ebitda margins?{_AS_PERCENT}|ebitda{_OVER_SALES}",
             rf"(?:total |consolidated )?ebitda margin{_PRINTED_PERCENT}", formula="EBITDA / Revenues", percent=True),
    LineItem("NetMargin", "Net margin",
             rf"(?:(?:net )?profit margins?|net (?:income )?margins?){_AS_PERCENT}"
             rf"|net (?:income|earnings|profit){_OVER_SALES}",
             rf"(?:total |consolidated )?net (?:profit |income )?margin{_PRINTED_PERCENT}",
             formula="NetIncomeLoss / Revenues", percent=True),
    # current assets less current liabilities ("net working capital" in FinanceBench's words); a filing may print it
    LineItem("WorkingCapital", "Working capital", r"(?:net )?working capital", r"(?:net )?working capital",
             formula="AssetsCurrent - LiabilitiesCurrent", words="total current assets total current liabilities"),
    LineItem("CurrentRatio", "Current ratio", r"current ratio", r"current ratio",
             formula="AssetsCurrent / LiabilitiesCurrent", words="total current assets total current liabilities"),
    LineItem("FreeCashFlow", "Free cash flow", r"free cash ?flows?|\bfcf\b", r"free cash ?flow",
             formula="NetCashProvidedByUsedInOperatingActivities - PaymentsToAcquirePropertyPlantAndEquipment"),
    LineItem("EBITDA", "EBITDA", r"\bebitda\b", r"ebitda",
             formula="OperatingIncomeLoss + DepreciationDepletionAndAmortization", words="ebitda adjusted"),
    LineItem("EffectiveTaxRate", "Effective tax rate", r"effective (?:income )?tax rates?|\betr\b",
             r"effective (?:income )?tax rate", formula="IncomeTaxExpenseBenefit / IncomeLossBeforeIncomeTaxes", percent=True,
             words="provision for income taxes income before income taxes"),
    LineItem("InterestCoverage", "Interest coverage", r"interest coverage(?: ratio)?|times interest earned(?: ratio)?",
             r"interest coverage(?: ratio)?", formula="OperatingIncomeLoss / InterestExpense",
             words="operating income interest expense"),
    # "what share of its net income did <company> pay out as dividends": the payout, not net income
    LineItem("PayoutRatio", "Payout ratio", r"(?:dividend )?payout ratio|(?:share|percentage|portion|proportion) of "
             r"(?:its |their )?net (?:income|earnings) (?:did )?(?:[\w.&'’-]+ ){0,3}?pa(?:y|id) out(?: (?:as|in) dividends)?",
             r"(?:dividend )?payout ratio", formula="PaymentsOfDividends / NetIncomeLoss", percent=True,
             words="dividends paid net income"),
    # over the average of the period's opening and closing balances ("average X": agent/no_model/derived_figures.py)
    LineItem("DaysSalesOutstanding", "Days sales outstanding", r"days(?:['’])? sales outstanding|\bdso\b|days of sales outstanding",
             r"days(?:['’])? sales outstanding", formula="average AccountsReceivableNetCurrent / Revenues * 365",
             words="accounts receivable net sales revenue"),
    LineItem("InventoryTurnover", "Inventory turnover", r"inventory turnover(?: ratio)?|inventory turns",
             r"inventory turnover(?: ratio)?", formula="CostOfRevenue / average InventoryNet",
             words="cost of sales inventories"),
)
BY_CONCEPT = {item.concept: item for item in ITEMS}
# earnings per share printed with no basis ("Earnings per share", "EPS" of a release's summary)
_BARE_EPS = re.compile(r"(?:(?:net )?(?:income|earnings) per (?:common |ordinary )?share|eps)(?: \(eps\))?")
# a row or section of basic EPS: beside it, a row printing no basis may be either
_BASIC_SHARES = re.compile(r"(?i)\bbasic\b")

# The statements and ratios as questions name them (pattern, case-insensitive), with the titles and rows filings
# print for them: the keyword query of retrieval adds those words (storage/retrieval/query_expansion.py GLOSSARY)
_STATEMENT_WORDS = {
    "income": "consolidated statements of operations income earnings revenue net income",
    "balance": "consolidated balance sheets total assets total liabilities shareholders equity",
    "cashflow": "consolidated statements of cash flows operating activities investing activities financing activities",
}

# words analysts say for the words a row's label or its table's lead-in prints ("stock-based" of
# "Share-based compensation expense", "stock comp", "pre-tax" of "before income taxes", "R&D" of
# "Research and development credit"): either said, the other is printed
SAID_OTHERWISE: tuple[tuple[str, str], ...] = (
    ("stock", "share"), ("comp", "compensation"), ("pre", "before"), ("r&d", "research"),
    ("buyback", "repurchase"),
)


def said_otherwise(stem) -> dict[str, set[str]]:
    """SAID_OTHERWISE both ways, each word as `stem` (the search tokenizer) reads it: word -> the words
    filings print for it."""
    pairs: dict[str, set[str]] = {}
    for a, b in SAID_OTHERWISE:
        pairs.setdefault(stem(a)[0], set()).add(stem(b)[0])
        pairs.setdefault(stem(b)[0], set()).add(stem(a)[0])
    return pairs

SEARCH_GLOSSARY: list[tuple[str, str]] = [
    (r"income statements?|statements? of (?:income|operations|earnings)|p\s*&\s*l|profit and loss", _STATEMENT_WORDS["income"]),
    (r"balance sheets?|statements? of financial position", _STATEMENT_WORDS["balance"]),
    (r"cash ?flow statements?|statements? of cash ?flows?", _STATEMENT_WORDS["cashflow"]),
    (r"quick ratio|acid[- ]test", "total current assets cash and cash equivalents receivables total current liabilities"),
    (r"working capital", "total current assets total current liabilities"),
    (r"(?:asset|inventory|receivables?) turnover", "total assets inventories receivables revenue cost of sales"),
    (r"days (?:payable|sales|inventory)|dpo\b|dso\b|dio\b", "accounts payable receivables inventories cost of sales revenue"),
    (r"return on (?:assets|equity|invested capital)|roa\b|roe\b|roic\b", "net income total assets shareholders equity"),
    (r"debt[- ]to[- ]equity|leverage|total debt", "long-term debt borrowings total equity"),
    (r"interest coverage", "interest expense operating income"),
    (r"dividends? (?:per share|payout)", "dividends paid per share cash dividends declared"),
    (r"effective tax rate|tax rate", "effective income tax rate provision for income taxes"),
]
# costs and expenses: amounts however they are signed on the page (a statement printing them in parentheses)
EXPENSES = frozenset({"CostOfRevenue", "OperatingExpenses", "ResearchAndDevelopmentExpense",
                      "SellingGeneralAndAdministrativeExpense", "SellingAndMarketingExpense", "InterestExpense",
                      "DepreciationDepletionAndAmortization"})
# accounting identities: a concept as other concepts make it, for a formula whose input is not printed
IDENTITIES = {"GrossProfit": "Revenues - CostOfRevenue"}
# balances (the taxonomy's instant concepts: said "as of" a date); the others are flows over a period
INSTANT = frozenset({
    "CashAndCashEquivalentsAtCarryingValue", "AccountsReceivableNetCurrent", "InventoryNet", "AssetsCurrent",
    "PropertyPlantAndEquipmentNet", "Goodwill", "Assets", "AccountsPayableCurrent", "LiabilitiesCurrent",
    "ShortTermBorrowings", "LongTermDebtCurrent", "LongTermDebtNoncurrent", "DebtLongtermAndShorttermCombinedAmount",
    "Liabilities", "StockholdersEquity", "CurrentRatio", "NetDebt", "WorkingCapital",
})


# the statement that presents a concept in the taxonomy's presentation, for the few printed on
# several (D&A is also a line of some income statements, for one expense only)
HOME_STATEMENT = {"DepreciationDepletionAndAmortization": "cash flows", "NetIncomeLoss": "income", "ProfitLoss": "income",
                  "CashAndCashEquivalentsAtCarryingValue": "balance sheet",
                  "PaymentsForRepurchaseOfCommonStock": "cash flows", "PaymentsOfDividends": "cash flows",
                  "PaymentsToAcquirePropertyPlantAndEquipment": "cash flows", "InterestPaidNet": "cash flows",
                  "IncomeTaxesPaid": "cash flows", "ProceedsFromDivestitureOfBusinesses": "cash flows",
                  "RepaymentsOfLongTermDebt": "cash flows"}


def home_statement(item: LineItem | None) -> str | None:
    """The statement that presents the item: HOME_STATEMENT's, "balance sheet" for a balance, else None."""
    if item is None:
        return None
    return HOME_STATEMENT.get(item.concept) or ("balance sheet" if item.concept in INSTANT else None)


def is_instant(item: LineItem | None) -> bool | None:
    """True for a balance, False for a flow, None for a row of no known line item."""
    return None if item is None else item.concept in INSTANT
_ASKED = [(item, re.compile(rf"\b(?:{item.asked})\b", re.IGNORECASE)) for item in ITEMS]
_PRINTED = [(item, re.compile(item.printed)) for item in ITEMS]
# names asked for a line item that are a measure of their own where a filing prints them: EBIT (operating
# income with the non-operating items) is read off an "EBIT" row when one is printed, before any
# operating income row of the concept
OWN_MEASURE_NAMES = re.compile(r"\bebit\b(?!da)", re.IGNORECASE)
# "long-term debt" asked also takes the row that includes the current portion ("Total long-term debt")
# consolidated net income asked also takes a plain "Net income" row of a table that splits it out
ALSO_ANSWERS = {"LongTermDebtNoncurrent": ("DebtLongtermAndShorttermCombinedAmount",), "ProfitLoss": ("NetIncomeLoss",)}


def printed_forms(item: LineItem) -> str:
    """A regex of the row labels that answer `item`: its own printed labels and those of the items
    ALSO_ANSWERS lets answer it ("Net income" on the statement of a filing that prints no
    "Net income, including noncontrolling interests" row answers consolidated net income)."""
    others = [BY_CONCEPT[c].printed for c in ALSO_ANSWERS.get(item.concept, ())]
    return "|".join(f"(?:{p})" for p in (item.printed, *others))


def named_items(text: str) -> list[LineItem]:
    """Every line item `text` names, overlaps kept ("purchases of property, plant and equipment" names capital
    expenditures and property, plant and equipment; "cost of sales" names sales): the items whose printed
    words a keyword search may add, where asked_items decides the one item asked."""
    return [item for item, rx in _ASKED if rx.search(text)]


def printed_words() -> frozenset[str]:
    """Every word filings print for the line items ("earnings", "sales", "cash"), lower case."""
    return frozenset(w for item in ITEMS for w in item.words.lower().split())


def search_words(item: LineItem) -> list[str]:
    """The words filings print for `item`, for keyword search: its own `words` and, for a ratio, those of
    the items its formula reads ("free cash flow" -> the operating cash flow and capital expenditure rows)."""
    out: list[str] = []
    for concept in (item.concept, *re.findall(r"[A-Za-z]+", item.formula)):
        other = BY_CONCEPT.get(concept)
        if other is not None:
            out.extend(w for w in other.words.split() if w not in out)
    return out


def mentions(text: str, item: LineItem) -> bool:
    """`text` says `item` the way questions name it, anywhere ("Cost of revenues" mentions revenues)."""
    return any(rx.search(text) for i, rx in _ASKED if i is item)


# "interest cost" that is not the company's interest expense: a pension plan's (a part of its benefit cost), or
# interest capitalized into assets
_OTHER_INTEREST_COST = re.compile(r"(?i)\b(?:pension|postretirement|retirement|benefit (?:plan|obligation|cost)|capitali[sz])")
# "gains on sales of real estate", "proceeds from the sale of investments": the sale of an asset, not revenue
_DISPOSAL_BEFORE = re.compile(r"(?i)\b(?:on|from)\s+(?:the\s+)?$")
_DISPOSAL_AFTER = re.compile(r"(?i)\s+of\b")


@dataclass(frozen=True)
class AskedItem:
    item: LineItem
    start: int
    end: int  # the span of the question that names it


def asked_items(question: str) -> list[AskedItem]:
    """The line items a question names, longest phrases first and without overlaps ("current portion
    of long-term debt" is one item, not also "long-term debt"; "cost of sales" is not "sales")."""
    found = [AskedItem(item, m.start(), m.end()) for item, rx in _ASKED for m in rx.finditer(question)
             if not (item.concept == "Revenues" and _DISPOSAL_BEFORE.search(question, 0, m.start())
                     and _DISPOSAL_AFTER.match(question, m.end()))
             and not (item.concept == "InterestExpense" and "cost" in m.group().lower() and _OTHER_INTEREST_COST.search(question))]
    found.sort(key=lambda a: (-(a.end - a.start), a.start))
    kept: list[AskedItem] = []
    for a in found:
        if all(a.end <= k.start or a.start >= k.end for k in kept):
            kept.append(a)
    return sorted(kept, key=lambda a: a.start)


_FOOTNOTE = re.compile(r"\(\s*(?:\d{1,2}|[a-z])\s*\)|\*+|\s\d$")
# a parenthetical remark of three or more words, or one pointing to a note: what the row includes, not what it is
_REMARK = re.compile(r"\((?:[^()]*?\s){2,}[^()]*\)|\((?:see )?notes? [^()]*\)")
# "(loss)/earnings", "earnings/(loss)": a measure's sign printed as a pair (the facts' segment sections read it)
QUALIFIER_PAIR = re.compile(r"\((?:loss|losses|deficit)\)\s*/\s*|\s*/\s*\((?:loss|losses|deficit)\)", re.IGNORECASE)
# the year a bridge's end row prints after its item: "Net sales fiscal year 2023" is net sales (of that year)
_FISCAL_YEAR_AFTER = re.compile(rf"\s+(?:fiscal\s+(?:year\s+)?|fy\s?){YEAR}$")
# "(loss)/earnings", "earnings/(loss)", "(used)/provided": the qualifier with its slash
_QUALIFIER = re.compile(r"/?\((?:loss|losses|deficit|benefit|income|expense|used|used in|used for|decrease|gain)\)/?")


def normalize_label(label: str) -> str:
    """Lower case, footnote marks, "(loss)"-style qualifiers and trailing colons dropped, "&" as "and",
    a leading "GAAP" or "Adjusted" and a trailing fiscal year dropped: "Net income (loss) (2)" -> "net income"."""
    text = LABEL_UNIT.sub("", unicodedata.normalize("NFKC", label))  # "Revenue ($B)": the row's scale, not its item
    text = text.lower().replace("&", " and ").replace("’", "'")  # "proﬁt": "profit"
    text = re.sub(r"(?<=\w)\s*[–—]\s*(?=\w)", "-", text)  # "Earnings per common share–diluted"
    text = _QUALIFIER.sub(" ", _FOOTNOTE.sub(" ", text))
    text = _REMARK.sub(" ", text)  # "Long-term debt (includes $10.31 billion related to VIEs)"
    text = _FISCAL_YEAR_AFTER.sub("", re.sub(r"\s+", " ", text).strip(" :;,.-—–"))
    # "GAAP" confirms what the row is; "Adjusted" / "Non-GAAP" qualify the same line item (whether
    # an adjusted row answers is agent/no_model/figure_rows.py's business)
    return re.sub(r"^(?:(?:u\.s\. )?gaap|non-gaap|adjusted|organic) ", "", text)


_CURRENT_LIABILITIES = re.compile(r"(?<!non)(?<!non-)\bcurrent liabilities\b", re.I)
# a label that says it is the non-current part: its own words beat the section it is printed under
NONCURRENT_LABEL = re.compile(r"(?i)\b(?:less|excluding|net of|exclusive of) (?:the )?current\b|\bnon-?current\b")


def row_item(label: str, section: str = "", percent: bool = False) -> LineItem | None:
    """The line item a printed row is, by its label in full ("Diluted" under the section "Earnings
    per share" is diluted EPS; "Term debt" under "Current liabilities" is the current portion);
    None when the label names something else or more. `percent`: the row prints percentages, so
    it is a ratio ("Gross margin 43.3%"), never an amount ("Gross margin $170,782")."""
    if section and not percent and (per_share := [a.item for a in asked_items(section) if a.item.per_share]) \
            and row_item(label) is BY_CONCEPT["NetIncomeLoss"]:
        # "Net income" under "Diluted earnings per common share attributable to ...:": the per-share figure
        return per_share[0]
    text = normalize_label(label)
    # "Total" under "Revenue:" (a segment table's block) is the item's total: "total revenue"
    total = f"total {normalize_label(section)}" if section and text == "total" else ""
    for candidate in (text, f"{normalize_label(section)} {text}".strip() if section else "", total):
        if not candidate:
            continue
        for item, rx in _PRINTED:
            if item.percent == percent and rx.fullmatch(candidate):
                if item.concept == "LongTermDebtNoncurrent" and _CURRENT_LIABILITIES.search(section) \
                        and not NONCURRENT_LABEL.search(text):
                    return BY_CONCEPT["LongTermDebtCurrent"]
                return item
    if percent and (amount := row_item(label, section)
                    or row_item(_OVER_SALES_LABEL.sub("", text), section)) is not None:
        # an amount's line item printed as percentages ("Gross profit 43.8%" in a table of percentages
        # of net sales, "Adjusted EBIT / sales %") is that amount's share of revenues: its margin
        return next((i for i in ITEMS if i.percent and i.formula == f"{amount.concept} / Revenues"), None)
    return None


# a ratio's row named by its numerator over sales: "Adjusted EBIT / sales %"
_OVER_SALES_LABEL = re.compile(rf"{_OVER_SALES}(?: %| \(%\))?$")


def bare_eps_rows(rows: list[tuple[object, str, str]]) -> set[int]:
    """The rows, given as (table, label, section), that print earnings per share with no basis in a table printing
    no basic EPS: the diluted figure ("Earnings per share" of a release's summary). The facts and the answer path's
    rows read them alike (storage/documents/facts.py, agent/no_model/cited_rows.py)."""
    basic = {table for table, label, section in rows if _BASIC_SHARES.search(f"{label} {section}")}
    return {i for i, (table, label, _) in enumerate(rows)
            if table not in basic and _BARE_EPS.fullmatch(normalize_label(label))}


def answers(row: LineItem | None, asked: LineItem) -> bool:
    """A row of line item `row` answers a question asking `asked`."""
    return row is not None and (row.concept == asked.concept or row.concept in ALSO_ANSWERS.get(asked.concept, ()))
