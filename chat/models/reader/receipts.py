"""Receipt semantics (pure): the grand total and the transaction date of an OCR'd receipt, invoice or bill.

**Total.** A total is a MONEY value — two decimals (``9.00``, OCR's ``9,00``), a currency mark (``RM 9``,
``¥1,200``, ``12,000원``) or thousands groups (``12,000``) — on a line whose label says total. A count
(``Total Qty: 7``, ``Total Item(s): 3``) or a clock time (``Total : 19:32:35``) is not one. Labels are read
by kind: one that names the grand total outright (``Grand Total``, ``Nett Total``, ``Total (incl. GST)``,
``Total After Rounding``, ``Amount Due``, ``합계금액``, ``お支払``), a plain total (``Total``, ``TOTAL RM``,
``합계``, ``合計``), a minor line (sub-total, tax, rounding, discount) and a payment line (cash tendered,
card, change). Among the total lines the one receipt arithmetic agrees with wins: it equals sub-total + tax ±
rounding, or cash tendered − change, it is the largest amount of the totals block, and it comes before the
payment lines. OCR that prints the labels as one column and the amounts as the next (``Sub Total`` /
``Total`` / ``8.49`` / ``9.00``) is paired in order; a label alone on a line takes the amount of the next.

**Date.** Any date by its shape (``12/03/2018``, ``12-03-18``, ``12 Jan 2018``, ``12-JAN-18``,
``2018.01.12``, ``2018-01-12``, ``2018년 1월 12일``, ``2018年1月12日``), wherever it is on the line; one
after a date label (``Date:``, ``날짜``, ``日付``) is preferred, a due / print / expiry date is not the
receipt's date unless the question asks for that one.

Generic receipt vocabulary in English, Malay-English, Korean and Japanese; written from how receipts are
printed, not from any evaluation set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from chat.models.reader.fields import Field
from chat.models.reader.lexicon import GRAND_TOTAL, NOT_GRAND_TOTAL
from chat.models.reader.numbers import Amount
from chat.models.reader.periods import Period
from chat.models.reader.question import RECEIPT_WORDS, Question
from chat.models.reader.shapes import Money, find_dates, monies
from chat.models.reader.text import lines_with_offsets, match_terms

LabelKind = Literal["grand", "total", "minor", "count", "payment", "other"]

#: a grand total named outright (beyond lexicon.GRAND_TOTAL): after rounding, inclusive of tax, payable
_GRAND = re.compile(
    r"total\s*(?:after|aft\.?|w/?)\s*(?:rounding|round|adj)|rounded\s*total|total\s*(?:sales?\s*)?\(?\s*"
    r"(?:incl|inclusive|inc\b|with\s+(?:gst|tax|vat))|total\s*(?:payable|to\s+pay|price)|amount\s*(?:payable|to\s+pay)|"
    r"\b(?:total|amount|amt|nett?)\b.*\b(?:incl|inclusive)\b|\b(?:incl|inclusive)\b.*\btotal|"
    r"총\s*(?:결제|합계|금액)|결제\s*금액|청구\s*금액|합계\s*금액|お会計|ご請求|請求金額|お買上",
    re.IGNORECASE,
)
_PAYMENT = re.compile(
    r"\bcash\b|tender|\bpaid\b|payment|\bchange\b|\bcard\b|visa|master|credit|debit|e-?wallet|received|"
    r"\bbalance\b(?!\s*due)|받은\s*금액|거스름|현금|카드|お預|預り|預かり|お釣|釣銭|クレジット",
    re.IGNORECASE,
)
_MINOR = re.compile(
    r"sub[\s-]*total|s/total|\btax|gst|vat|\bsst\b|service\s*charge|svc|rounding|round(?:ing)?\s*adj|\badj\b|"
    r"discount|\bdisc\b|saving|excl|before|소계|부가세|세액|과세|면세|할인|봉사료|小計|税|値引|割引|サービス料",
    re.IGNORECASE,
)
_COUNT = re.compile(r"\bqty\b|quantity|\bitems?\b|item\(s\)|\bcount\b|\bpcs\b|\bunits?\b|수량|点数|数量|個数",
                    re.IGNORECASE)
_TOTAL = re.compile(r"\btotal|\btot\b|\bamount\b|\bamt\b|\bsum\b|\bdue\b|합계|총액|금액|合計|総額|金額", re.IGNORECASE)
_SUB = re.compile(r"sub[\s-]*total|s/total|소계|小計", re.IGNORECASE)
_ROUNDING = re.compile(r"round", re.IGNORECASE)
_CHANGE = re.compile(r"\bchange\b|거스름|お釣|釣銭", re.IGNORECASE)
_TENDERED = re.compile(r"\bcash\b|tender|received|받은\s*금액|현금|お預|預り|預かり", re.IGNORECASE)
#: how far apart (in lines) a label column and its amount column may be printed
_COLUMN_GAP = 12


@dataclass(frozen=True, slots=True)
class ReceiptLine:
    label: str
    kind: LabelKind
    money: Money | None
    span: tuple[int, int]  # from the label to the amount (one line, or the label's line through the amount's)
    index: int  # the line number of the amount


@dataclass(frozen=True, slots=True)
class Pick:
    """The chosen total or date: what to say, the exact span to quote, how sure (0..1)."""

    label: str
    value: str
    span: tuple[int, int]
    score: float
    amount: Amount | None = None
    date: Period | None = None


def label_kind(label: str) -> LabelKind:
    label = re.sub(r"(?<=[A-Za-z])0|0(?=[A-Za-z])", "O", label)  # OCR's T0TAL
    label = re.sub(r"(?<=[A-Za-z]{3})1\b", "l", label)  # OCR's Tota1
    if GRAND_TOTAL.search(label) or _GRAND.search(label):
        return "count" if _COUNT.search(label) and not re.search(r"amount|amt|금액|金額", label, re.I) else "grand"
    if _PAYMENT.search(label):
        return "payment"
    if _COUNT.search(label):
        return "count"
    if _MINOR.search(label):
        return "minor"
    if _TOTAL.search(label):
        return "total"
    return "other"


def _letters(text: str) -> int:
    return len(re.findall(r"[^\W\d_]", text))


def receipt_lines(text: str) -> list[ReceiptLine]:
    """Each labelled money line; a bare label line takes the next bare amount (one after the other, or a
    column of labels followed by a column of amounts)."""
    lines = lines_with_offsets(text)
    out: list[ReceiptLine] = []
    pending: list[tuple[int, int, int]] = []  # label-only lines waiting for an amount: (index, start, end)
    for i, (s, e) in enumerate(lines):
        line = text[s:e]
        plain = line.strip("| ").replace("|", " ")
        found = monies(line, s)
        if not found:
            if re.fullmatch(r"\(?(?:RM|MYR|USD|SGD|\$|¥|￥|₩|원|円)\)?", plain, re.IGNORECASE):
                continue  # a currency alone between a label and its amount
            bare = re.sub(r"\d+(?:\.\d+)?\s?%", " ", plain)
            if 2 <= _letters(plain) and len(plain) <= 40 and not re.search(r"\d", bare) and label_kind(plain) in (
                "grand", "total", "minor", "payment"):
                pending.append((i, s, e))
            elif _letters(plain) >= 2:
                pending.clear()  # an item or address line breaks a label column
            continue
        if _multi_amount_row(line):
            pending.clear()  # a statement's row (two periods) or an item row (qty, price, amount): no total line
            out.append(ReceiptLine("", "other", found[-1], (s, e), i))
            continue
        money = found[-1]
        label = text[s : found[0].start].strip(" |:：=.-")
        if _letters(label) < 2:
            if pending and i - pending[0][0] <= _COLUMN_GAP:
                _, ls, le = pending.pop(0)
                label = text[ls:le].strip(" |:：=.-")
                out.append(ReceiptLine(label, label_kind(label), money, (ls, money.end), i))
                continue
            out.append(ReceiptLine("", "other", money, (s, e), i))
            continue
        pending.clear()
        segments: list[tuple[str, Money, int]] = []  # "TOTAL: 9.00 CASH: 10.00" — two columns OCR'd as one line
        prev = s
        for m in found:
            seg = text[prev : m.start].strip(" |:：=.-")
            if _letters(seg) >= 2:
                segments.append((seg, m, prev + (len(text[prev : m.start]) - len(text[prev : m.start].lstrip()))))
            prev = m.end
        if len(segments) > 1:
            out.extend(ReceiptLine(seg, label_kind(seg), m, (start, m.end), i) for seg, m, start in segments)
            continue
        out.append(ReceiptLine(label, label_kind(label), money, (s, e), i))
    return out


def _multi_amount_row(line: str) -> bool:
    """A Markdown table row with amounts in two or more cells: a financial statement's row (one column per
    period) or an item row — a receipt's total / payment lines print one amount."""
    if not line.lstrip().startswith("|"):
        return False
    cells = [c for c in line.strip().strip("|").split("|") if c.strip()]
    return sum(1 for c in cells if monies(c, 0) or re.fullmatch(r"\s*\(?[$€£¥₩]?\s?\d[\d,.]*\)?\s*%?\s*", c)) >= 2


def is_receipt(text: str) -> bool:
    """A total line and a payment, tax or sub-total line, both with money: what a receipt prints."""
    kinds = {r.kind for r in receipt_lines(text) if r.money is not None}
    return bool(kinds & {"grand", "total"}) and bool(kinds & {"payment", "minor"})


def _close(a: float, b: float) -> bool:
    return abs(a - b) < 0.011


def total(text: str) -> Pick | None:
    """The receipt's grand total (see the module docstring), or None when no total line has money."""
    rows = [r for r in receipt_lines(text) if r.money is not None]
    candidates = [r for r in rows if r.kind in ("grand", "total")]
    if not candidates:
        return None
    subs = [r.money.value for r in rows if r.money and r.kind == "minor" and _SUB.search(r.label)]
    extras = [r.money.value for r in rows if r.money and r.kind == "minor" and not _SUB.search(r.label)
              and not re.search(r"discount|disc|saving|excl|before|할인|値引|割引", r.label, re.I)]
    tendered = [r.money.value for r in rows if r.money and r.kind == "payment" and _TENDERED.search(r.label)]
    change = [r.money.value for r in rows if r.money and r.kind == "payment" and _CHANGE.search(r.label)]
    first_payment = min((r.index for r in rows if r.kind == "payment"), default=None)
    block = [r.money.value for r in rows if r.money and r.kind in ("grand", "total", "minor")]
    biggest = max(block) if block else 0.0
    taxed = any(abs(x) >= 0.011 for x in extras)
    sums = {sub + sum(extras) for sub in subs} | {sub + x for sub in subs for x in extras}
    best: tuple[float, ReceiptLine] | None = None
    for r in candidates:
        assert r.money is not None
        v = r.money.value
        score = 0.9 if r.kind == "grand" else 0.8
        if v <= 0:
            score -= 0.5
        if any(_close(v, t) for t in sums) or (not taxed and any(_close(v, sub) for sub in subs)):
            score += 0.05  # sub-total + tax ± rounding (or the sub-total itself when no tax was added)
        paid = [t - c for t in tendered for c in change] if change else tendered
        if any(_close(v, x) for x in paid):
            score += 0.05  # cash tendered − change
        if _close(v, biggest):
            score += 0.03
        elif v < biggest * 0.5:
            score -= 0.1
        if first_payment is not None and r.index > first_payment:
            score -= 0.05
        if best is None or score > best[0] + 1e-9:
            best = (score, r)
    assert best is not None
    score, r = best
    assert r.money is not None
    amount = Amount(r.money.value, r.money.raw, currency=r.money.currency)
    return Pick(r.label or "total", r.money.raw, r.span, min(score, 1.0), amount=amount)


# --------------------------------------------------------------------------------------------------- dates

_DATE_LABEL = re.compile(r"date|dated|tarikh|\btgl\b|날짜|일자|일시|거래일|판매일|日付|日時|発行日|取引日|年月日", re.I)
_OTHER_DATE = re.compile(
    r"due|expir|\bexp\b|print|valid|until|deliver|issue\s*by|birth|\bdob\b|since|member|joined|warranty|"
    r"best\s*before|use\s*by|만료|유효|납기|가입|생년|期限|有効|支払期日|入会|生年", re.IGNORECASE
)


def date(text: str, *, asked_other: str = "") -> Pick | None:
    """The receipt's transaction date: a labelled date first, a due/print/expiry one last (first when the
    question asks for that one: ``asked_other`` is its word, "due", "expir", …); earlier lines win ties."""
    best: tuple[float, Period, tuple[int, int]] | None = None
    for n, (s, e) in enumerate(lines_with_offsets(text)):
        line = text[s:e]
        for p in find_dates(line):
            before = line[max(0, p.start - 24) : p.start]
            label = _DATE_LABEL.search(before)
            other = _OTHER_DATE.search(before) or (not label and _OTHER_DATE.search(line[: p.start]))
            score = 0.95 if label and not other else 0.75
            if other:
                score = 0.97 if asked_other and asked_other in before.lower() else 0.5
            if re.search(r"\d{1,2}:\d{2}", line):
                score += 0.02  # a transaction stamp prints the time with the date
            score -= 0.002 * n
            if best is None or score > best[0]:
                shifted = Period(year=p.year, month=p.month, day=p.day, text=p.text, start=s + p.start, end=s + p.end)
                best = (score, shifted, (s, e))
    if best is None:
        return None
    score, p, span = best
    return Pick("date", p.text, span, min(score, 1.0), date=p)


# ------------------------------------------------------------------------------------------ the reader's hook

_TOTAL_ASK = re.compile(
    r"\b(?:total|amount|how much|pay|paid|spent|spend|cost|due|charged|owed?)\b|합계|총액|금액|얼마|결제|"
    r"合計|総額|金額|いくら|支払",
    re.IGNORECASE,
)
#: focus words that still ask for the bill's total ("the total amount paid", "the final amount")
_TOTAL_FOCUS = frozenset(
    "§1 §16 total amount amounts paid pay spent spend cost due charged final overall whole grand sum receipt bill "
    "invoice i we me my our you customer 금액 합계 총액 결제 영수증 合計 金額 総額 支払い 支払 レシート 領収書".split()
)
_DUE_ASK = re.compile(r"due|expir|print|valid|deliver|만료|유효|납기|期限|有効|支払期日", re.IGNORECASE)
_WORDS: dict[str, tuple[str, str]] = {"ko": ("합계", "날짜"), "ja": ("合計", "日付"), "zh": ("合计", "日期")}


def _wide_table(text: str) -> bool:
    """A Markdown table of three or more columns (a statement's; ingest may lay a receipt out as two)."""
    return any(line.strip().startswith("|") and line.count("|") > 3 for line in text.splitlines())


def asks_total(q: Question) -> bool:
    """The question asks for the bill's total: "total amount", "how much", "amount due", 합계, 合計 — not a
    sub-total, tax or cash line, nor the price of one item (a focus with other content words)."""
    if q.kind != "value" or not _TOTAL_ASK.search(q.text) or NOT_GRAND_TOTAL.search(q.focus):
        return False
    words = match_terms(RECEIPT_WORDS.sub(" ", q.focus)) if q.focus else set()
    return not (words - _TOTAL_FOCUS)


#: focus words that still ask for the document's own date ("when was it issued", "date of purchase")
_DATE_FOCUS = frozenset(
    "§13 it this that the was were is receipt bill invoice document purchase purchased buy bought made paid pay "
    "transaction sale sold issue issued day i we me my our 이 그 이것 영수증 구매 거래 발행 この その レシート 領収書 "
    "の日 購入 取引".split()
)


def asks_document_date(q: Question) -> bool:
    """A date question about the document itself (its issue / transaction date, or the due / expiry date it
    names): nothing else in the focus ("when was the merger completed" asks about an event)."""
    if q.kind != "date":
        return False
    words = match_terms(RECEIPT_WORDS.sub(" ", q.focus)) if q.focus else set()
    other = _DUE_ASK.search(q.text)
    return not (words - _DATE_FOCUS - ({"due", other.group(0).lower()} if other else set()))


def receipt_evidence(q: Question, text: str) -> tuple[Field, float] | None:
    """The receipt's grand total or date as a field with its score, when ``q`` asks for one and ``text``
    is a receipt (or the question says it is about one); None otherwise. A question for the document's own
    date reads a labelled or time-stamped date in any text (an invoice's or receipt's header chunk)."""
    if q.kind not in ("value", "date"):
        return None
    header = q.kind == "date" and asks_document_date(q)
    if not is_receipt(text) and not header and (
            q.document_kind != "receipt" or (q.kind == "value" and _wide_table(text))):
        return None  # a statement's table, not a receipt (a receipt's header chunk holds no totals: its date)
    total_word, date_word = _WORDS.get(q.language, ("total", "date"))
    if q.kind == "value" and asks_total(q):
        pick = total(text)
        if pick is None or pick.amount is None:
            return None
        plain = pick.label if re.fullmatch(r"[^\W\d_]+(?:\s+[^\W\d_]+){0,2}", pick.label) else total_word
        return Field(plain, pick.value, pick.amount, None, pick.span), pick.score
    if q.kind == "date":
        other = _DUE_ASK.search(q.text)
        when = date(text, asked_other=other.group(0).lower() if other else "")
        if when is None or when.date is None:
            return None
        if not is_receipt(text) and q.document_kind != "receipt" and when.score < 0.77:
            return None  # not a receipt: only a labelled or time-stamped date is the document's
        return Field(date_word, when.value, None, when.date, when.span), when.score
    return None
