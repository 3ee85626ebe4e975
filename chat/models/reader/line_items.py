"""Statement line items under their common names (pure data): ``lexicon.SYNONYM_GROUPS`` appends them and
``statements`` reads them, so neither imports the other at load."""

from __future__ import annotations

#: Statement line items under their common names (US GAAP / IFRS captions and analysts' words), appended to
#: ``lexicon.SYNONYM_GROUPS``: "capital expenditure" finds "Purchases of property and equipment". Matching is on
#: lower-cased words (punctuation dropped: "property, plant and equipment" is "property plant and equipment").
LINE_ITEM_GROUPS: tuple[tuple[str, ...], ...] = (
    (
        "capital expenditure",
        "capital expenditures",
        "capex",
        "capital spending",
        "purchases of property and equipment",
        "purchase of property and equipment",
        "purchases of property plant and equipment",
        "purchase of property plant and equipment",
        "purchases related to property and equipment",
        "additions to property and equipment",
        "additions to property plant and equipment",
        "payments for property and equipment",
        "payments for property plant and equipment",
        "payments for acquisition of property plant and equipment",
        "expenditures for property and equipment",
        "expenditures for property plant and equipment",
        "capital investments",
    ),
    (
        "operating cash flow",
        "cash flow from operations",
        "cash flows from operations",
        "cash from operations",
        "net cash from operations",
        "cash from operating activities",
        "net cash from operating activities",
        "cash provided by operating activities",
        "net cash provided by operating activities",
        "net cash provided by used in operating activities",
        "net cash provided by used for operating activities",
        "net cash used in provided by operating activities",
        "cash generated from operations",
        "net cash generated from operating activities",
    ),
    (
        "property plant and equipment",
        "property and equipment",
        "ppe",
        "pp e",
        "fixed assets",
    ),
    (
        "income tax expense",
        "income tax expenses",
        "income tax provision",
        "provision for income taxes",
        "provision for taxes",
        "provision for benefit from taxes",
        "benefit provision for income taxes",
        "provision benefit for income taxes",
        "income taxes",
    ),
    ("inventory", "inventories", "merchandise inventories"),
    ("accounts receivable", "receivables", "trade receivables", "trade accounts receivable", "ar"),
    ("accounts payable", "payables", "trade payables", "trade accounts payable", "ap"),
    (
        "selling general and administrative",
        "sg a",
        "sga",
        "selling general and administrative expenses",
        "selling general and administrative expense",
    ),
    ("research and development", "r d", "research development and engineering"),
    ("depreciation and amortization", "d a", "depreciation amortization"),
    ("long term debt", "long term borrowings", "non current borrowings"),
    ("total current assets", "current assets"),
    ("total current liabilities", "current liabilities"),
)
