"""What a line item is, by the head of its name (pure): "Debt issuance costs" are costs, "Total debt" is debt.

In an English noun phrase the last noun before any complement names the thing, the words before it qualify it.
A row label is cut into parallel names at its commas, brackets, colons and conjunctions ("Cash and cash
equivalents" → cash, equivalents; "Less: Premiums, discounts, and unamortized debt issuance costs, net" →
premiums, discounts, costs), each name at its first preposition ("Backlog at year-end" → backlog, "Repayment of
debt" → repayment — but "Number of employees" → employees); its last word there, after a trailing participle,
adjective or measure ("Cash dividends paid", "Shares outstanding", "…, net", "… conversion rate"), is a head.
A question's item ("total debt") has the head of its first name.

``modifier_only`` is the case the reader discounts: the asked item's head word is in the row's label but only
qualifying another noun — the row is another thing named after it ("debt" in "Debt issuance costs", "inventory"
in "Inventory reserves"). A head the lexicon knows as a phrase group ("revenue" ~ "net sales") is left to the
lexicon's matching; ``group_qualifies`` asks the same of such a group: its phrase followed, within the same
name, by another noun ("U.S. research and development tax credit" is a credit, "Revenue growth" a growth).
"""

from __future__ import annotations

import functools
import re

from chat.models.reader.lexicon import SYNONYM_GROUPS
from chat.models.reader.text import match_terms

#: where a label splits into parallel names: punctuation and the coordinating conjunctions
_CONJUNCTS = re.compile(r"(?i)\s*(?:[,;:()\[\]/]|—|–|\s-\s|\b(?:and|or)\b)\s*")
#: where a name's complement begins: its head is the noun before it ("Repayment of debt" is a repayment)
_PREPOSITION = re.compile(r"(?i)\s+(?:of|at|for|in|from|to|on|per|by|before|after|as|under|with|within|during|"
                          r"attributable|including|excluding|less|net\s+of)\s+")
#: a last word that names no other thing: a participle or a trailing adjective ("paid", "outstanding", ", net",
#: "Stores open"),
#: or a measure of the thing before it ("Free cash flow conversion rate" is the conversion)
_TRAILING = re.compile(r"(?i)^(?:\w+ed|paid|held|sold|outstanding|open|attributable|net|gross|total|due|owed|payable|"
                       r"receivable|current|noncurrent|non-current|available|applicable|rates?|ratios?|amounts?|balances?|values?|levels?|figures?|"
                       r"percentages?|percent|margins?|totals?)$")
#: a head that measures its complement: "Number of employees" counts employees
_MEASURE = re.compile(r"(?i)^(?:number|amount|total|value|percentage|percent|share|portion|count)s?$")
_WORD = re.compile(r"[A-Za-z][A-Za-z&'’\-]*")


def _last_word(piece: str) -> str:
    words = _WORD.findall(piece)
    while len(words) > 1 and _TRAILING.match(words[-1]):
        words.pop()
    return words[-1].lower() if words else ""


def _head(conjunct: str) -> str:
    parts = _PREPOSITION.split(conjunct, maxsplit=2)
    head = _last_word(parts[0])
    if _MEASURE.match(head) and len(parts) > 1 and re.match(r"(?i)\s+of\s+", conjunct[len(parts[0]):]):
        return _last_word(parts[1]) or head  # "Number of employees": the employees
    return head


def label_heads(label: str) -> set[str]:
    """The head word of each parallel name in ``label`` (see the module docstring)."""
    return {h for h in (_head(p) for p in _CONJUNCTS.split(label)) if h}


def item_head(item: str) -> str:
    """The head word of an asked item: its first name's ("net income attributable to Acme" → income)."""
    conjuncts = [p for p in _CONJUNCTS.split(item) if _WORD.search(p)]
    return _head(conjuncts[0]) if conjuncts else ""


def modifier_only(item: str, label: str) -> bool:
    """``item``'s head word is in ``label`` only as a qualifier of another noun (see the module docstring)."""
    head = item_head(item)
    if not head:
        return False
    asked = match_terms(head)
    if not asked or any(t.startswith("§") for t in asked):
        return False  # a lexicon group ("revenue", "PP&E"): its phrases are matched whole
    if not asked <= match_terms(label):
        return False
    heads: set[str] = set()
    for h in label_heads(label):
        heads |= match_terms(h)
    return not asked & heads


@functools.lru_cache(maxsize=64)
def _phrase_patterns(group: int) -> tuple[re.Pattern[str], ...]:
    """A lexicon group's Latin phrases as patterns over a raw label (any punctuation between the words: "R&D",
    "Research, development"), longest first."""
    phrases = sorted((p for p in SYNONYM_GROUPS[group] if p.isascii()), key=len, reverse=True)
    return tuple(re.compile(r"(?i)(?<![A-Za-z0-9])" + r"\W+".join(map(re.escape, p.split())) + r"(?![A-Za-z0-9])")
                 for p in phrases)


#: what names the item as what the label's amount is excluded from or used for: "Income before income taxes",
#: "Antidilutive share-based awards excluded from the calculation of diluted earnings per share"
_BEFORE = re.compile(r"(?i)\b(?:before|excluding|excluded\s+from|(?:calculation|computation)s?\s+of)\b")


def named_after_before(item: str, label: str) -> bool:
    """``label`` names ``item`` only after "before" / "excluding": "Income before income taxes" is the income, not
    the income taxes asked ("income tax expense"); asked for "income before income taxes" itself, it is the row."""
    m = _BEFORE.search(label)
    if m is None:
        return False
    asked = match_terms(item)
    return bool(asked) and asked <= match_terms(label[m.end():]) and not asked & match_terms(label[: m.start()])


def group_qualifies(group_id: str, label: str) -> bool:
    """The lexicon group ``group_id`` ("§25") is named in ``label`` only as a qualifier of another noun: each
    of its phrases found there is followed, before any punctuation, conjunction or preposition, by a word that is
    no participle, adjective or measure ("Research and development tax credit", "Inventory write-downs"). False
    when the label does not name the group at all, or names it as its head anywhere ("Research and development
    expenses", "Revenues, net", "Cash dividends paid")."""
    if not group_id.startswith("§") or not group_id[1:].isdigit():
        return False
    found = False
    for pattern in _phrase_patterns(int(group_id[1:])):
        for m in pattern.finditer(label):
            found = True
            rest = _CONJUNCTS.split(label[m.end():], maxsplit=1)[0]
            words = _WORD.findall(_PREPOSITION.split(" " + rest, maxsplit=1)[0])
            while words and _TRAILING.match(words[-1]):
                words.pop()
            if not words:
                return False
        if found:
            return True  # the longest phrase found decides ("cost of sales" before "sales")
    return False


#: the kinds of one rate a filing prints side by side: the effective tax rate beside the statutory one
#: (a kind word counts where it qualifies a rate: "statutory corporate tax rate", not "effective January 1")
_RATE_KINDS = re.compile(r"(?i)\b(effective|statutory|marginal|blended|nominal|real)\s+(?:[\w.\-]+\s+){0,3}?rates?\b")


def another_kind_of_rate(item: str, text: str) -> bool:
    """``item`` asks one kind of rate ("effective tax rate") and ``text`` names only other kinds ("Tax at federal
    statutory rate", "lowering the statutory corporate tax rate from 35% to 21%"): another figure, not the one
    asked. False when the item names no kind, or the text names the asked kind too."""
    if not re.search(r"(?i)\brates?\b", item):
        return False
    asked = {m.lower() for m in _RATE_KINDS.findall(item)}
    named = {m.lower() for m in _RATE_KINDS.findall(text)}
    return bool(asked) and bool(named) and not asked & named


_RETURN_ON = re.compile(r"(?i)\breturn\s+on\s+((?:[\w.'’-]+\s+){0,3}?)(assets|equity|capital|investment)\b")


_RETURN_SHORT = {"assets": "ROA", "equity": "ROE"}


def another_return(item: str, text: str) -> bool:
    """``item`` asks a return on something ("return on assets") and ``text`` names only a return on something else
    ("Expected return on plan assets", "return on invested capital" for return on equity, a plan's "expected
    long-term rate of return"), or no return at all ("Asset category real assets")."""
    asked = _RETURN_ON.search(item)
    if asked is None:
        return False
    want = _return_key(asked)
    if want[1] in _RETURN_SHORT and re.search(rf"\b{_RETURN_SHORT[want[1]]}\b", text):
        return False  # "ROA", "ROE"
    return want not in {_return_key(m) for m in _RETURN_ON.finditer(text)}


def _return_key(m: re.Match[str]) -> tuple[str, str]:
    """What a return is on: "return on average total assets" is a return on assets."""
    words = [w for w in m.group(1).lower().split() if w not in ("average", "total", "the")]
    return " ".join(words), m.group(2).lower()


_X_TO_Y = re.compile(r"(?i)\b([a-z]+)(?:\s*-\s*|\s+)to(?:\s*-\s*|\s+)([a-z]+)\s+ratio\b")


def another_ratio(item: str, text: str) -> bool:
    """``item`` asks an "X-to-Y ratio" ("debt-to-equity ratio") and ``text`` names only other ones ("Our debt to
    earnings ratio was 1.1")."""
    asked = _X_TO_Y.search(item)
    if asked is None:
        return False
    named = {(m.group(1).lower(), m.group(2).lower()) for m in _X_TO_Y.finditer(text)}
    return bool(named) and (asked.group(1).lower(), asked.group(2).lower()) not in named


def another_figure(item: str, text: str) -> bool:
    """``text`` names only another figure of the kind ``item`` asks: another kind of the rate, a return on something
    else, another "X to Y ratio"."""
    return another_kind_of_rate(item, text) or another_return(item, text) or another_ratio(item, text)


#: the two bases of a per-share figure and of the shares it is computed on
_SHARE_BASES = re.compile(r"(?i)\b(basic|diluted)\b")


def another_share_basis(question: str, text: str) -> bool:
    """The question asks one basis ("diluted weighted-average shares", "basic EPS") and ``text`` (a row with its
    section heading) names only the other ("Basic shares: Weighted-average unvested shares")."""
    asked = {m.lower() for m in _SHARE_BASES.findall(question)}
    named = {m.lower() for m in _SHARE_BASES.findall(text)}
    return len(asked) == 1 and bool(named) and not asked & named


_MEASURE_HEAD = re.compile(r"(?i)\b(rate|ratio|margin)s?$")


def measure_qualifies(item: str, label: str) -> bool:
    """``item`` is a measure ("effective tax rate", "current ratio", "gross margin") and ``label`` names that measure
    only before another noun: "Foreign rate differential" is a differential, "Margin improvement" an improvement —
    not the rate or margin itself. False when the label ends a name with the measure ("Effective tax rate",
    "Rate, net") or does not name it."""
    m = _MEASURE_HEAD.search(item.strip())
    if m is None:
        return False
    word = m.group(1).lower()
    found = False
    for name in _CONJUNCTS.split(label):
        name = _PREPOSITION.split(" " + name, maxsplit=1)[0]
        words = [w.lower() for w in _WORD.findall(name)]
        for i, w in enumerate(words):
            if w.rstrip("s") != word:
                continue
            rest = [x for x in words[i + 1:] if not _TRAILING.match(x)]
            if not rest:
                return False  # the measure heads a name of the label
            found = True
    return found


#: a statistic of a line item over the period ("Average daily short-term borrowings", "Maximum amount outstanding"),
#: not its balance or total; a weighted-average share count is the count itself
_STATISTIC = re.compile(r"(?i)^\s*(?:average|maximum|minimum|peak|highest|lowest)\b(?![\s-]+(?:number\s+of\s+)?"
                        r"(?:common\s+|diluted\s+|basic\s+)?shares\b)")


def statistic_of(question: str, label: str) -> bool:
    """``label`` states a statistic of the item ("Average daily short-term borrowings") the question does not ask
    for (no "average", "maximum" … in it)."""
    m = _STATISTIC.match(label)
    return m is not None and not re.search(rf"(?i)\b{m.group(0).strip()}\b", question)
