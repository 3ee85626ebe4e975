"""Domain query expansion (pure): a query in the reader's jargon also searches for the document's wording.

People ask in the words they use ("capex", "PP&E", "the P&L", "working capital", "DPO"); filings and
reports are written in their formal vocabulary ("Purchases of property, plant and equipment",
"Consolidated Statements of Operations", "Total current assets"). Neither BM25 nor a small embedding
model bridges that gap, so a *lexicon* — rules of (regular expression, canonical wording) — appends the
canonical wording of every jargon term a query contains. The original words stay first, so a query
without jargon is unchanged and exact matches still win.

Built-in lexicons (``DOCCHAT_QUERY_EXPANSION``, comma-separated, ``none`` to switch off):
``finance`` — financial-statement and ratio vocabulary (US GAAP / IFRS wording, and the Korean K-IFRS and
Japanese terms for the statements); ``receipts`` — what receipts, bills and invoices print (TOTAL, CASH,
CHANGE, 합계, 合計) for a question that only names the kind of document.
A deployment adds its own domain with ``DOCCHAT_QUERY_LEXICON_FILE``, a
JSON object ``{"regex": "expansion", …}`` (case-insensitive patterns).

Expansion feeds both the keyword query and the query embedding (``Retriever.search``); the chat model
sees the hits, never the expanded text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from store.errors import ConfigError


@dataclass(frozen=True, slots=True)
class Rule:
    pattern: re.Pattern[str]
    expansion: str


Lexicon = tuple[Rule, ...]

_FINANCE: dict[str, str] = {
    # the statements
    r"balance[- ]sheets?|statements? of financial (?:position|condition)": (
        "consolidated balance sheets statement of financial position total assets total liabilities "
        "stockholders equity"
    ),
    r"income statements?|statements? of (?:income|operations|earnings)|\bp ?& ?l\b|profit and loss": (
        "consolidated statements of operations statements of income statements of earnings net income revenues"
    ),
    r"cash ?flow statements?|statements? of cash ?flows?": (
        "consolidated statements of cash flows operating activities investing activities financing activities"
    ),
    r"comprehensive income": "statements of comprehensive income other comprehensive income",
    r"shareholders'? equity statement|statements? of (?:stockholders|shareholders)'? equity": (
        "statements of stockholders equity retained earnings"
    ),
    # line items and their abbreviations
    r"\bcapex\b|capital expenditures?|capital spending": (
        "capital expenditures purchases of property plant and equipment additions to property"
    ),
    r"\bpp ?& ?e\b|\bppn?e\b|fixed assets?": "property plant and equipment net",
    r"\bcogs\b|cost of goods": "cost of goods sold cost of sales cost of revenue",
    r"\bsg ?& ?a\b": "selling general and administrative expenses",
    r"\br ?& ?d\b": "research and development expense",
    r"\bd ?& ?a\b|depreciation": "depreciation and amortization",
    r"\bebitdar?\b": "operating income depreciation and amortization",
    r"\bebit\b": "operating income earnings before interest and taxes",
    r"\beps\b": "earnings per share diluted basic",
    r"top ?line|\bsales growth\b": "revenue net sales total revenues",
    r"bottom ?line": "net income net earnings",
    r"\bdebt\b|leverage": "long-term debt borrowings notes payable",
    r"\bcash position\b|\bliquidity\b": "cash and cash equivalents short-term investments",
    r"share (?:buy ?backs?|repurchases?)|stock repurchases?|buybacks?": "repurchases of common stock treasury stock",
    r"\bdividends?\b": "dividends paid cash dividends declared",
    r"\binventor(?:y|ies)\b": "inventories merchandise inventories",
    r"\breceivables?\b": "accounts receivable net",
    r"\bpayables?\b": "accounts payable",
    r"goodwill|intangibles?": "goodwill intangible assets",
    r"restructuring": "restructuring charges restructuring liability",
    r"segments?\b": "segment information reportable segments",
    # ratios and metrics: the line items they are computed from
    r"working capital|current ratio": "total current assets total current liabilities",
    r"quick ratio|acid[- ]test": "total current assets total current liabilities cash and cash equivalents receivables",
    r"\bdpo\b|days payables?(?: outstanding)?": "accounts payable cost of sales",
    r"\bdso\b|days sales outstanding": "accounts receivable revenue",
    r"\bdio\b|days inventory|inventory turnover": "inventories cost of sales",
    r"cash conversion cycle|\bccc\b": "inventories accounts receivable accounts payable cost of sales",
    r"asset turnover": "total revenue property plant and equipment total assets",
    r"gross margins?|gross profit": "gross profit gross margin cost of sales net sales",
    r"operating margins?|operating income %|operating profit": "operating income revenue",
    r"net (?:profit )?margins?": "net income revenue",
    r"free cash ?flow|cash ?flow conversion": "net cash provided by operating activities purchases of property",
    r"(?:effective )?tax rate": "effective tax rate provision for income taxes",
    r"retention ratio|payout ratio": "dividends net income",
    r"interest coverage": "interest expense operating income",
    r"\bcagr\b|revenue growth|growth rate": "total revenue net revenues",
    r"return on (?:assets|equity)|\broa\b|\broe\b": "net income total assets stockholders equity",
    # events and narrative sections
    r"legal (?:battles?|proceedings|matters)|lawsuits?|litigation": "legal proceedings litigation contingencies",
    r"acquisitions?|acquired|\bm ?& ?a\b": "acquisitions business combinations acquired",
    r"spin[- ]?offs?|spinning off|divest": "separation spin-off discontinued operations divestiture",
    r"cyclicality|cyclical|seasonality": "cyclical seasonal economic conditions demand",
    r"guidance|outlook": "guidance outlook expects",
    r"risk factors|\brisks?\b": "risk factors",
    # Korean (K-IFRS) and Japanese statement names
    r"재무상태표|대차대조표": "재무상태표 대차대조표 자산총계 부채총계 자본총계",
    r"손익계산서|포괄손익": "손익계산서 포괄손익계산서 매출액 영업이익 당기순이익",
    r"현금흐름표": "현금흐름표 영업활동 투자활동 재무활동",
    r"설비투자|자본적 ?지출": "유형자산의 취득 설비투자",
    r"매출원가": "매출원가",
    r"貸借対照表|バランスシート": "貸借対照表 資産合計 負債合計 純資産",
    r"損益計算書": "損益計算書 売上高 営業利益 当期純利益",
    r"キャッシュ・?フロー計算書": "キャッシュ・フロー計算書 営業活動 投資活動 財務活動",
    r"設備投資": "有形固定資産の取得 設備投資",
}

#: Receipts, bills and invoices. A question says "the receipt" / "영수증" / "領収書", the document never does: it
#: says TOTAL, CASH, CHANGE, GST, 합계, 合計. The words printed on such documents, in English, Korean, Japanese.
_RECEIPTS: dict[str, str] = {
    r"\breceipts?\b|\bbills?\b|\btill slip|영수증|계산서|レシート|領収書": (
        "total amount cash change tax rounding subtotal paid 합계 결제금액 부가세 合計 小計 税込 お釣り"
    ),
    r"\binvoices?\b|세금계산서|請求書": (
        "invoice total amount due tax subtotal 공급가액 세액 합계금액 請求金額 消費税 合計"
    ),
}

BUILT_IN: Mapping[str, Mapping[str, str]] = {"finance": _FINANCE, "receipts": _RECEIPTS}


def compile_rules(rules: Mapping[str, str]) -> Lexicon:
    out = []
    for pattern, expansion in rules.items():
        try:
            out.append(Rule(re.compile(pattern, re.IGNORECASE), " ".join(str(expansion).split())))
        except re.error as exc:
            raise ConfigError(f"bad query-lexicon pattern {pattern!r}: {exc}") from exc
    return tuple(out)


def load_lexicon(names: str | Iterable[str], file: Path | None = None) -> Lexicon:
    """The built-in lexicons named in ``names`` (comma-separated; ``none``/empty = none) plus ``file``'s rules."""
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",")]
    rules: list[Rule] = []
    for name in names:
        if not name or name == "none":
            continue
        if name not in BUILT_IN:
            raise ConfigError(f"unknown query lexicon {name!r} (built in: {', '.join(sorted(BUILT_IN))}, none)")
        rules.extend(compile_rules(BUILT_IN[name]))
    if file is not None:
        try:
            data = json.loads(Path(file).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigError(f"cannot read the query lexicon {file}: {exc}") from exc
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            raise ConfigError(f"the query lexicon {file} must be a JSON object of pattern → expansion strings")
        rules.extend(compile_rules(data))
    return tuple(rules)


def expand_query(query: str, lexicon: Sequence[Rule]) -> str:
    """``query`` followed by the expansion of every rule that matches it (each expansion once)."""
    extra: list[str] = []
    for rule in lexicon:
        if rule.expansion not in extra and rule.pattern.search(query):
            extra.append(rule.expansion)
    return f"{query} {' '.join(extra)}" if extra else query
