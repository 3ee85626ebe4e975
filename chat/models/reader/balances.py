"""Which row of a statement holds the balance asked for (pure).

A cash-flow statement prints a balance twice ("Cash and cash equivalents, beginning of year" / "…, end of year")
and the changes in it ("Net increase in cash and cash equivalents", "Change in inventories"); a question for the
balance at one end of the period ("at the end of FY2017", or no end named: the end) is not answered by the other
end's row or by a change row. General statement wording, not from any evaluation set.
"""

from __future__ import annotations

import re

_BEGINNING = re.compile(
    r"(?i)\b(?:(?:beginning|start)\s+of\s+(?:the\s+)?(?:fiscal\s+)?(?:year|period|quarter)|beginning\s+balances?|"
    # a roll-forward's first row of a calendar year: "Balance at January 1", "Unrecognized tax benefits – January 1"
    r"(?:balance\s+(?:at|as\s+of)\s+)?january\s+1(?!\d)(?:\s+balances?)?)\b")
_ENDING = re.compile(
    r"(?i)\b(?:end\s+of\s+(?:the\s+)?(?:fiscal\s+)?(?:year|period|quarter)|ending\s+balances?)\b")
_CHANGE_ROW = re.compile(
    r"(?i)^\s*(?:net\s+)?(?:\(?(?:increase|decrease|change)s?\)?\s*/?\s*)+(?:\(?(?:increase|decrease)\)?\s*)?in\b"
)
#: a row (or a section of rows) whose label ends by saying it is a change: "Revenues increase/(decrease)",
#: "Operational growth/(decline)", "Net sales change"
_CHANGE_TAIL = re.compile(
    r"(?i)\b\(?(?:increase|decrease|change|growth|decline)s?\)?(?:\s*/\s*\(?(?:increase|decrease|decline|growth)"
    r"s?\)?)?\s*:?\s*$")
#: a row of the balance at the other end of the period than the one asked ("Cash …, beginning of year" for
#: "cash at the end of FY2017") counts this much
OTHER_END = 0.8


def changes_section(section: str) -> bool:
    """Rows under "Changes in operating assets and liabilities:" (a cash-flow statement's section): each row is
    how much its item changed, never its balance."""
    return bool(_CHANGE_ROW.match(section))


def balance_end(label: str) -> str:
    """Which end of the period a balance row is: "begin" ("…, beginning balances", "… at beginning of year"),
    "end" ("…, ending balances", "… end of year"), else ""."""
    return "begin" if _BEGINNING.search(label) else "end" if _ENDING.search(label) else ""


def balance_item(label: str) -> str:
    """The item a balance or change row is of: its label without "ending balances", "beginning of year" or a
    leading "Increase/(Decrease) in" ("Cash, cash equivalents and restricted cash")."""
    return _CHANGE_ROW.sub("", _BEGINNING.sub("", _ENDING.sub("", label))).strip(" ,")


def change_row(label: str, section: str = "") -> bool:
    """The row states a change ("Net increase in cash", "Increase/(Decrease) in cash …", "Revenues
    increase/(decrease)", a row under "Operational growth/(decline)"), not a level."""
    return bool(_CHANGE_ROW.match(label) or _CHANGE_TAIL.search(label) or (section and _CHANGE_TAIL.search(section)))


def balance_row_factor(question: str, asks_change: bool, label: str, section: str = "") -> float:
    """The row at the end of the period the question did not ask for (naming neither asks the end), or a change
    row for a question that asks no change ("Net increase in cash", "Revenues increase/(decrease)", a row under
    "Operational growth/(decline)"), counts ``OTHER_END``; any other row 1."""
    if not asks_change and change_row(label, section):
        return OTHER_END
    asks_beginning = bool(re.search(r"(?i)\b(?:beginning|start)\s+of\b", question))
    if _BEGINNING.search(label) and not asks_beginning:
        return OTHER_END
    if _ENDING.search(label) and asks_beginning:
        return OTHER_END
    return 1.0


_CHANGE_AMOUNT = re.compile(
    r"(?i)\b(?:increased|decreased|grew|declined|rose|fell|improved|dropped)\s+(?:by\s+)?(?:approximately\s+)?"
    r"(?:\$|US\$)?\s?\d")
#: a change verb right before an amount: "increased by $264 million", "grew approximately 93 million"; or its
#: object between them: "decreased December 31, 2018 inventory by $154 million"
_CHANGE_BEFORE = re.compile(r"(?i)\b(?:increased|decreased|grew|declined|rose|fell|improved|dropped)\s+"
                            r"(?:by\s+|[^.;$]{1,60}?\s+by\s+)?(?:approximately\s+|about\s+)?$|"
                            # … or a change noun with "of" before it: "a net reduction of $186 million", "an
                            # increase in retained earnings of $687 million", "an adjustment to … of $0.3 billion"
                            r"\b(?:increase|decrease|reduction|decline|rise|drop|adjustment|change)s?\b[^.;$]{0,60}?\bof\s+"
                            r"(?:approximately\s+|about\s+)?$")
#: a change noun right after the amount: "a $49 million decrease in …", "$1.2 billion year-over-year increase"
_CHANGE_AFTER = re.compile(r"(?i)\s*(?:(?:million|billion|thousand)\s+)?(?:year[- ]over[- ]year\s+|net\s+)?"
                           r"(?:increase|decrease|decline|reduction|rise|drop|improvement|change|growth|lower|higher|"
                           # "… were $1,858 million more unfavorable than the prior year"
                           r"(?:more|less)\s+(?:un)?favou?rable|more|less|fewer)\b")
_LEVEL_AMOUNT = re.compile(r"(?i)\b(?:to|was|were|of|totaled|totalled|reached)\s+(?:approximately\s+)?(?:\$|US\$)\s?\d")
#: a sentence that states only how much an item changed counts this much for a question that asks its value
CHANGE_ONLY = 0.7


#: "Total net sales include $3.3 billion of revenue recognized …": the amount is a part of the item, not the item
_PART_AMOUNT = re.compile(
    r"(?i)\b(?:includ(?:e|es|ed|ing)|of\s+which|comprised|consisting\s+of)\s+(?:approximately\s+|about\s+)?"
    r"(?:\$|US\$)?\s?\d")
#: a sentence that states only a part of the item counts this much for a question that asks its value
PART_ONLY = 0.7


#: what an item includes, named before the stated amount: "inventory included a benefit of $64"
_PART_BEFORE = re.compile(r"(?i)\b(?:includ(?:e|es|ed|ing)|of\s+which)\s+(?:an?\s+)?(?:[\w-]+\s+){1,3}of\s+"
                          r"(?:approximately\s+|about\s+)?$")


def part_only_factor(sentence: str, stated: str = "") -> float:
    """``PART_ONLY`` for a sentence whose amount is what the item includes ("include $3.3 billion of …"), or whose
    amount to state (``stated``) is a named part ("inventory included a benefit of $64"), else 1."""
    at = sentence.find(stated) if stated else -1
    part = _PART_AMOUNT.search(sentence)
    if part and not _LEVEL_AMOUNT.search(sentence) and not 0 <= at < part.start():
        # (the amount to state before the parts it includes is the whole: "a workforce of approximately 116,000
        # employees, including approximately 61,000 engineers …")
        return PART_ONLY
    if at > 0 and _PART_BEFORE.search(sentence, max(0, at - 80), at):
        return PART_ONLY
    return 1.0


def change_only_factor(sentence: str, stated: str = "") -> float:
    """``CHANGE_ONLY`` for a sentence that gives an item's change and no level ("Revenue increased $1.32 billion
    during fiscal 2022 as compared to fiscal 2021"), or whose amount to state (``stated``) is that change ("Net
    income increased by $264 million … as a result of a gain of $215 million"), else 1: asked the value, a change
    is not the answer."""
    if _CHANGE_AMOUNT.search(sentence) and not _LEVEL_AMOUNT.search(sentence):
        return CHANGE_ONLY
    at = sentence.find(stated) if stated else -1
    if at > 0 and _CHANGE_BEFORE.search(sentence, 0, at):
        return CHANGE_ONLY
    if at >= 0 and _CHANGE_AFTER.match(sentence, at + len(stated)):
        return CHANGE_ONLY  # "a $49 million decrease in interest expense": the change, not the expense
    return 1.0


#: the words of a flow of cash or of an item's movements ("net proceeds from the incurrence of …", "repayments of
#: …"): an amount they name is no balance
_FLOW_WORDS = re.compile(r"(?i)\b(?:proceeds|repayments?|repaid|payments?|paid|borrow\w*|issuances?|issued|"
                         r"incurrence|incurred|purchases?|repurchases?|redemptions?|redeemed|refinanc\w*|retire(?:d|ment)|"
                         r"extinguishment|used|spent|generated|purchased|acquired|acquisitions?|amorti[sz]\w*|"
                         r"impairments?|additions?|expenses?|costs?|entered\s+into|obtained)\b")
#: how many words before a stated amount its flow words are looked for
FLOW_REACH = 16


def flow_only_factor(question: str, sentence: str, stated: str) -> float:
    """``CHANGE_ONLY`` for a balance asked ("long-term debt at the end of 2020") whose stated amount follows, in its
    clause, the words of a flow ("net proceeds from the incurrence of the bridge loan facility … of $1.3 billion"):
    the amount borrowed or repaid, not the balance. 1 when the question asks that flow itself."""
    at = sentence.find(stated) if stated else -1
    if at <= 0 or _FLOW_WORDS.search(question):
        return 1.0
    clause = re.split(r"[;:.]\s|\band\b", sentence[:at])[-1]
    before = " ".join(clause.split()[-FLOW_REACH:])
    return CHANGE_ONLY if _FLOW_WORDS.search(before) else 1.0


#: a cash flow statement's row of what moved a balance without a flow of cash: "Effect of exchange rate changes
#: on cash and cash equivalents"
_EFFECT_ON = re.compile(r"(?i)^\s*(?:net\s+)?effects?\s+of\b[^|]*?\bon\b")


def flow_row(question: str, label: str) -> bool:
    """A statement row of a flow ("Repayment of long-term debt", "Proceeds from issuance of …", "Effect of
    exchange rate changes on cash") for a balance asked in a question that names no flow."""
    return bool(_FLOW_WORDS.search(label) or _EFFECT_ON.search(label)) and not (
        _FLOW_WORDS.search(question) or re.search(r"(?i)effects?", question))


#: a per-share figure: "Diluted earnings per share", a row under an "Earnings per common share––basic:" heading
PER_SHARE = re.compile(r"(?i)\bper\s+(?:\w+\s+){0,2}share\b|\bEPS\b|earnings per|주당|１株当たり|1株当たり")
#: a per-share row counts this much for a question that asks no per-share figure: income statements repeat an
#: amount row's label ("Net income attributable to … common shareholders") under the per-share heading
PER_SHARE_FOR_AMOUNT = 0.7


def per_share_factor(question: str, section: str, label: str) -> float:
    """``PER_SHARE_FOR_AMOUNT`` for a per-share row (its label or its section heading says so) when the question
    asks no per-share figure, else 1."""
    if PER_SHARE.search(f"{section} {label}") and not PER_SHARE.search(question) \
            and not _SHARES_FOR_PER_SHARE.search(f"{section} {label}"):
        return PER_SHARE_FOR_AMOUNT
    return 1.0


#: the shares a per-share figure is computed on: "Weighted-average shares used to compute diluted net income per
#: share" is a count of shares, not a per-share figure
_SHARES_FOR_PER_SHARE = re.compile(
    r"(?i)\bshares\b[^|]*?\b(?:used\s+(?:to\s+compute|in\s+(?:computing|the\s+calculation\s+of))|"
    r"for\s+(?:computing|computation\s+of))\b")


#: sections that order a statement or a note rather than qualify the row ("Denominator:", "Investing activities:")
STRUCTURAL_SECTION = re.compile(
    r"(?i)^\s*(?:numerator|denominator|(?:operating|investing|financing)\s+activities|adjustments\s+to\s+reconcile|"
    r"changes\s+in\s+operating\s+assets|supplemental\b)")


#: a question about money paid out ("How much did Acme pay in income taxes?"), and a row that says it was paid
_ASKS_PAID = re.compile(r"(?i)\b(?:pa(?:y|id|ys|ying)|payments?)\b")
_PAID_ROW = re.compile(r"(?i)\b(?:paid|payments?|pa(?:y|ys))\b")
#: a row that does not say it was paid, for a question that asks what was: the expense ("Provision for income
#: taxes") where the cash-flow statement's "Cash paid for income taxes" is printed too
NOT_PAID = 0.85
#: a row that says it was not paid ("Dividends declared and not paid", "Unpaid …"), for a question that asks what was
UNPAID = 0.5
_UNPAID_ROW = re.compile(r"(?i)\bnot\s+(?:yet\s+)?paid\b|\bunpaid\b")


def asks_paid(question: str) -> bool:
    """The question asks what was paid ("How much did Acme pay in income taxes?")."""
    return bool(_ASKS_PAID.search(question))


def paid_words(question: str) -> list[str]:
    """The question's words of paying ("pay", "paid", "payments")."""
    return _ASKS_PAID.findall(question)


#: the items a filing discloses the cash paid for apart from their expense (its supplemental cash flow lines):
#: asked what was paid, the expense ("Provision for income taxes", "Interest expense") is not the answer
_SUPPLEMENTAL_ITEMS = re.compile(r"(?i)\b(?:income\s+tax(?:es)?|taxes|interest)\b")


def supplemental_item(focus: str) -> bool:
    """``focus`` is interest or income taxes: what a filing's supplemental cash flow lines say was paid."""
    return bool(_SUPPLEMENTAL_ITEMS.search(focus))


def paid_item_row(focus: str, label: str, section: str = "") -> bool:
    """The row (or sentence) says the item of ``focus`` was paid, each of its words singular or plural: "Cash
    income tax payments, net of refunds", "Income taxes paid", "Cash paid for income taxes" for income taxes, "Cash
    interest payments" for interest — or its section heading says so ("Cash paid during the year for: / Income
    taxes"). Not "Dividends paid to noncontrolling interest": the item there qualifies another payment."""
    words = re.findall(r"[a-z]+", focus.lower())
    if not words:
        return False
    stems = [w[:-2] if w.endswith("es") and w[:-2].endswith(("x", "s", "ch", "sh")) else w.rstrip("s") for w in words]
    item = r"\s+".join(rf"{re.escape(s)}(?:e?s)?" for s in stems)
    if re.search(rf"(?i)\b{item}\s+(?:payments?|paid)\b|\b(?:paid|payments?)\s+(?:for|of|on)\s+{item}\b", label):
        return True
    return bool(re.search(r"(?i)\b(?:paid|payments?)\b(?:\s+\w+){0,4}\s+for\b", section)
                and re.match(rf"(?i)\s*{item}\b", label))


def paid_row_factor(question: str, label: str) -> float:
    """``NOT_PAID`` for a row that does not say it was paid when the question asks what was paid,
    ``UNPAID`` for one that says it was not ("Dividends declared and not paid"), else 1."""
    if asks_paid(question) and _UNPAID_ROW.search(label):
        return UNPAID
    if asks_paid(question) and not _PAID_ROW.search(label):
        return NOT_PAID
    return 1.0


#: the balance sheet's grand total of both sides ("Total liabilities and shareholders' equity", "Total liabilities,
#: redeemable interests and equity (deficit)"): it equals total assets, never the total liabilities
_LIABILITIES_AND_EQUITY = re.compile(r"(?i)\btotal\s+liabilities\b.*\b(?:equity|deficit|capital)\b")
_EQUITY_ASKED = re.compile(r"(?i)\b(?:equity|deficit|capital|net\s+worth)\b")
#: such a row counts this much for a question that asks the total liabilities alone
BOTH_SIDES = 0.4


def both_sides_total(label: str) -> bool:
    """``label`` is the balance sheet's total of liabilities and equity."""
    return bool(_LIABILITIES_AND_EQUITY.search(label))


def asks_equity(question: str) -> bool:
    """The question names the equity side ("… total liabilities and equity", "… deficit")."""
    return bool(_EQUITY_ASKED.search(question))


def both_sides_factor(question: str, focus_terms: frozenset[str], liabilities: frozenset[str], label: str) -> float:
    """``BOTH_SIDES`` for the liabilities-and-equity total when the total liabilities alone are asked (the
    question's item is ``liabilities``' group and it names no equity), else 1."""
    if focus_terms == liabilities and both_sides_total(label) and not asks_equity(question):
        return BOTH_SIDES
    return 1.0
