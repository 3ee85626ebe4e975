"""Financial-statement questions (pure): the ask inside an analyst's instructions, the statement it names, and the
words of such questions that name no line item.

Questions about filings often wrap the ask in instructions — "Assume you are an equities analyst. What is …?
Answer by relying on the details shown in the cash flow statement." — and name a unit ("in USD millions") and
a statement. ``SENTENCE_SPLIT`` cuts the instructions off as sentences of their own (``question.analyze`` keeps
only the sentences that ask); ``statement_kind`` reads which statement they point to, so a line item printed in
several statements (net income: income statement and cash-flow statement) is looked up where the asker said;
``FILLER`` is the unit and framing vocabulary that is no part of the line item. Written from the general shape
of statement questions and the standard statement titles (US GAAP / IFRS names), not from any evaluation set.
"""

from __future__ import annotations

import re
from typing import Literal

StatementKind = Literal["income", "balance", "cash", ""]

#: a sentence boundary before an instruction or a new ask ("… analyst. What is …", "…? Answer by …")
SENTENCE_SPLIT = (
    r"(?<=[a-z0-9)%]\.)\s+(?=(?:what|how|which|who|whom|whose|when|where|why|is|are|was|were|do|does|did|can|"
    r"could|has|have|had|please|give|answer|respond|assume|use|using|provide|calculate|compute|round|based|"
    r"according|focus|consider|only|if|you|we|i|the|this|report|state|express|show)\b)|"
    # an instruction that introduces the ask with a colon: "Answer the following question …: what is …",
    # "Here's the question: what is …"
    r"(?<=:)\s+(?=(?:what|how|which|who|whom|whose|when|where|why|is|are|was|were|do|does|did)\b)"
)

_STATEMENTS: tuple[tuple[StatementKind, re.Pattern[str]], ...] = (
    ("cash", re.compile(r"cash[- ]flows?(?: statements?)?|statements? of cash flows?", re.IGNORECASE)),
    ("balance", re.compile(r"balance sheets?|statements? of financial (?:position|condition)", re.IGNORECASE)),
    ("income", re.compile(
        r"income statements?|statements? of (?:consolidated )?(?:income|operations|earnings|comprehensive income)|"
        r"(?:profit and loss|p&l)(?: statement)?|statements? of profit or loss", re.IGNORECASE)),
)
#: how each statement's title reads at the top of its table or page
STATEMENT_TITLES: dict[StatementKind, re.Pattern[str]] = {
    "cash": re.compile(r"cash\s+flows?", re.IGNORECASE),
    "balance": re.compile(r"balance\s+sheets?|financial\s+(?:position|condition)", re.IGNORECASE),
    "income": re.compile(
        r"statements?\s+of\s+(?:consolidated\s+)?(?:income|operations|earnings)|income\s+statements?|"
        r"profit\s+(?:and|or)\s+loss", re.IGNORECASE),
}

#: unit and framing words of a statement question that name no line item
FILLER = re.compile(
    r"\b(?:in|of)\s+(?:(?:usd|us\$|\$|u\.s\.\s+dollars?)\s+)?(?:millions|thousands|billions)(?:\s+of\s+"
    r"(?:dollars|usd))?\b|\bin\s+(?:usd|us\$|dollars)(?:\s+(?:millions?|thousands?|billions?))?\b|"
    r"\b(?:usd|us\$)\s+(?:millions?|thousands?|billions?)\b|"
    r"\byear[- ]end(?:ing)?\b|(?<=\w\s)(?<!total )(?<!grand )(?:amount|figure|value)\b(?=\s*$)|"
    r"\b(?:total\s+)?(?:amount|value|figure|dollar\s+amount|quantity)\s+of\s+(?=\w)|"
    r"\b(?:as\s+)?(?:(?:directly|explicitly|clearly|separately)\s+)?(?:reported|shown|stated|outlined|presented|"
    r"disclosed|listed)\s+(?:in|on|within)\s+(?:(?:the|its|their)\s+)?[\w\s]{0,40}?(?:statements?|sheets?|"
    r"filings?|10-?[kq]s?|reports?|releases?)\b|"
    r"\b(?:according\s+to|based\s+on|using|relying\s+on|from|in|on|per)\s+(?:the|its|their)\s+(?:[\w&-]+\s+){0,4}?"
    r"(?:statements?|sheets?|filings?|10-?[kq]s?|reports?|releases?)(?:\s+of\s+(?:cash\s+flows?|operations|income|"
    r"earnings))?\b|"
    r"\b(?:at|as\s+of|by)\s+(?:the\s+)?(?:end|close)\s+of\b|"
    r"\b(?:pa(?:y|id)|spen[dt])\s+(?:out\s+)?(?:in|on|for)\b|"
    r"\b(?:as|assume\s+(?:that\s+)?you\s+are|you\s+are|i\s+am|i'm|acting\s+as|in\s+the\s+role\s+of)\s+(?:an?|the)\s+"
    r"(?:[\w-]+\s+){0,4}?(?:analyst|investor|manager|advis[eo]r|accountant|banker|professional|expert|auditor|"
    r"researcher)s?\b|"
    r"\b(?:i\s+(?:need|want|would\s+like|'d\s+like)(?:\s+to\s+(?:know|see|find))?|please\s+(?:provide|give|tell\s+me|"
    r"find|report|state)|tell\s+me|give\s+me)\b|"
    r"(?:\b(?:as\s+)?compared\s+(?:to|with)|\bversus|\bvs\.?|\bagainst|\brelative\s+to)\s+(?:the\s+)?"
    r"(?:same|prior|previous|last|corresponding|comparable)\s+"
    r"(?:fiscal\s+)?(?:quarter|period|year|half|months?)(?:\s+(?:of|in)\b)?|"
    r"\b(?:(?:in|for|during)\s+)?(?:the\s+)?(?:(?:three|six|nine|twelve|\d{1,2})[\s-]+months?|(?:\d{2}|twelve|thirteen|"
    r"sixteen|twenty[\s-](?:four|six|eight)|thirty[\s-](?:six|nine)|forty)[\s-]+weeks?|(?:fiscal\s+)?(?:year|"
    r"quarter|period|half))\s+(?:ended|ending)\b",
    re.IGNORECASE,
)


#: an ask that points back at the sentence before it: "I need Microsoft's net cash from operations for … . What was it?"
BACK_REFERENCE = re.compile(
    r"^\s*(?:what|how\s+much)\s+(?:was|is|were|are)\s+(?:it|that|this|they|those)\b", re.IGNORECASE
)


def statement_kind(text: str) -> StatementKind:
    """The statement a question (or its instructions) names: ``cash``, ``balance``, ``income``, or ``""``."""
    for kind, pattern in _STATEMENTS:
        if pattern.search(text):
            return kind
    return ""


from chat.models.reader.line_items import LINE_ITEM_GROUPS  # noqa: E402  (pure data; lexicon reads it too)

_LOOSE_STOP = frozenset("a an and the of for from in on by to its their did does do was were is are used".split())
#: a line-item phrase is matched loosely when all of its content words (this many letters of each) are asked
STEM_CHARS = 5


def stems(text: str) -> list[str]:
    """``text``'s words as their first ``STEM_CHARS`` letters, its joining words and verbs left out."""
    return [w[:STEM_CHARS] for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _LOOSE_STOP]


def loose_line_item(focus: str, first_id: int, taken: frozenset[str] = frozenset()) -> tuple[str, set[str]] | None:
    """The line-item group a question's words name in other word order or form ("cash … generate from
    operations" → cash generated from operations), as ``(group id, the focus words it used)``; None when no
    phrase of two or more content words is covered. Only for the question side: rows are matched exactly."""
    asked = stems(focus)
    have = set(asked)
    best: tuple[int, str, set[str]] | None = None
    for i, group in enumerate(LINE_ITEM_GROUPS):
        for phrase in group:
            need = set(stems(phrase))
            # ``taken``: stems a group the words name as written holds ("diluted earnings per share": "share" is the
            # EPS's — no "diluted shares" out of it; "cash … generated from operations" holds all of "cash")
            if len(need) >= 2 and need <= have and (not need & taken or taken <= need) \
                    and (best is None or len(need) > best[0]):
                best = (len(need), f"§{first_id + i}", need)
    if best is None:
        return None
    words = {w for w in re.findall(r"[a-z0-9]+", focus.lower()) if w[:STEM_CHARS] in best[2]}
    return best[1], words


#: the statement a line item is printed on first, named by one phrase of its synonym group (lexicon or above)
_HOME: tuple[tuple[str, StatementKind], ...] = (
    ("revenue", "income"), ("net income", "income"), ("operating income", "income"), ("gross margin", "income"),
    ("cost of sales", "income"), ("operating expenses", "income"), ("earnings per share", "income"),
    ("income tax expense", "income"), ("selling general and administrative", "income"),
    ("research and development", "income"), ("sales and marketing", "income"), ("interest expense", "income"),
    ("general and administrative", "income"),
    ("total assets", "balance"), ("total liabilities", "balance"), ("equity", "balance"),
    ("property plant and equipment", "balance"), ("inventory", "balance"), ("accounts receivable", "balance"),
    ("accounts payable", "balance"), ("long term debt", "balance"), ("total current assets", "balance"),
    ("total current liabilities", "balance"), ("retained earnings", "balance"), ("goodwill", "balance"),
    ("intangible assets", "balance"),
    ("net cash flow", "cash"), ("capital expenditure", "cash"), ("operating cash flow", "cash"),
    ("depreciation and amortization", "cash"), ("dividend", "cash"), ("share repurchases", "cash"),
    ("investing cash flow", "cash"), ("financing cash flow", "cash"),
)
#: a line item two statements print, and where it is asked for when nothing else in the question says: "cash and
#: cash equivalents" heads the balance sheet's assets (the cash-flow statement's ending balance adds restricted
#: cash); "cash paid for dividends" is the cash-flow statement's, by its other words
_FALLBACK_HOME: tuple[tuple[str, StatementKind], ...] = (("cash and cash equivalents", "balance"),)
#: an item no synonym group names, by its only word (a "total" aside): "total debt", "borrowings" — what the balance
#: sheet's debt lines add up to (``derived``)
_WORD_HOME: dict[frozenset[str], StatementKind] = {frozenset({"debt"}): "balance", frozenset({"borrowing"}): "balance"}
_HOME_IDS: dict[str, StatementKind] = {}
_FALLBACK_IDS: dict[str, StatementKind] = {}


def implied_statement(focus_terms: frozenset[str] | set[str], *, fallback: bool = False) -> StatementKind:
    """The statement that prints the asked line item ("total assets" → the balance sheet), or ``""``. With
    ``fallback`` (what to search for), an item two statements print goes to its usual one (``_FALLBACK_HOME``);
    without, it prefers neither (the evidence's statement check)."""
    if not _HOME_IDS:
        from chat.models.reader.lexicon import SYNONYM_GROUPS  # lexicon imports this module: read it lazily

        for phrase, kind in _HOME:
            for i, group in enumerate(SYNONYM_GROUPS):
                if phrase in group:
                    _HOME_IDS.setdefault(f"§{i}", kind)
                    break
        for phrase, kind in _FALLBACK_HOME:
            for i, group in enumerate(SYNONYM_GROUPS):
                if phrase in group:
                    _FALLBACK_IDS.setdefault(f"§{i}", kind)
                    break
    kinds = {_HOME_IDS[t] for t in focus_terms if t in _HOME_IDS}
    words = frozenset(focus_terms) - {"§1"}
    if not kinds and words in _WORD_HOME:  # "total debt": the balance sheet's debt lines
        kinds = {_WORD_HOME[words]}
    if not kinds and fallback:
        kinds = {_FALLBACK_IDS[t] for t in focus_terms if t in _FALLBACK_IDS}
    return kinds.pop() if len(kinds) == 1 else ""
