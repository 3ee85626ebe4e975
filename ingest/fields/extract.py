"""Key fields of a segment (pure): amounts (total, subtotal, tax, rounding, cash, change, line items), dates
(issue, due), the document number, the issuing organisation and the currency — Korean, Japanese, English.

Rows are rebuilt from the line boxes (OCR often returns ``TOTAL`` and ``9.00`` as two boxes on one row), a
label lexicon names the field, and the value is read from the rest of the row (or the next row). Each field's
confidence is the evidence multiplied out — the OCR scores of the lines it was read from × the strength of the
pattern (an explicit label with cents beats a bare number) — then raised when an independent source agrees
(``total = subtotal + tax``, ``cash − change = total``, the same value printed twice: the chance that both are
wrong is the product of their chances) and lowered when another candidate disagrees.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from decimal import Decimal
from typing import Any

from ingest.fields.evidence import (
    confusable_neighbour,
    digit_in_word,
    glued_digits,
    name_continues,
    other_amounts,
    suffix_only,
)
from ingest.fields.parse import Money, amounts, currency_of, dates

AMOUNT_FIELDS = ("total", "subtotal", "tax", "service", "rounding", "cash", "change", "item")
DATE_FIELDS = ("date", "due_date")

_F = re.IGNORECASE
#: label lexicon, checked in this order (the first that matches names the row)
LABELS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("ignore", re.compile(r"\b(?:total\s*(?:qty|quantity|items?|pcs|disc\w*|savings?)|qty|item\s*count)\b|"
                          r"수량|数量", _F)),
    ("due_date", re.compile(r"due\s*date|payment\s+due|pay\s+by|납부\s*기한|지급\s*기일|支払期限|お支払期日", _F)),
    ("total", re.compile(r"(?:incl(?:uding|usive|\.)?|inc\.?|w/|with)\s*(?:of\s*)?(?:gst|tax|vat|sst)|税込", _F)),
    ("service", re.compile(r"service\s*charge|svc\s*chg|봉사료|サービス料", _F)),
    ("subtotal", re.compile(r"sub\s*-?\s*total|excl(?:uding|usive|\.)?\s*(?:of\s*)?(?:gst|tax|vat|sst)|before\s+tax|"
                            r"공급\s*가액|공급가|소계|小計|税抜", _F)),
    ("tax", re.compile(r"\b(?:gst|sst|vat|tax)\b.{0,12}?\bincluded\s+in\s+(?:the\s+)?total|"
                       r"\b(?:gst|sst|vat|tax|service\s+tax)\b|부가세|부가가치세|세액|消費税|税額|内税|外税", _F)),
    ("rounding", re.compile(r"round(?:ing)?|rnd\b|단수|端数", _F)),
    ("change", re.compile(r"\bchange\b|\bbalance\b(?!\s*due)|거스름|잔돈|お釣|おつり", _F)),
    ("cash", re.compile(r"\bcash\b|tender(?:ed)?|\bpaid\b|받은\s*금액|현금|お預[りか]", _F)),
    ("total", re.compile(r"grand\s*total|\btotal\b|amount\s+(?:due|payable)|balance\s+due|\bnett?\b|합\s*계|총\s*액|"
                         r"총\s*금액|결제\s*금액|청구\s*금액|合\s*計|総額|ご請求|お会計", _F)),
    ("date", re.compile(r"date\b|\bdated\b|\bdt\b|발행\s*일|작성\s*일|거래\s*일|일자|日付|発行日|取引日", _F)),
    ("doc_number", re.compile(r"(?:invoice|inv|receipt|rcpt|bill|document|doc|order|ref|slip|trans)\s*"
                              r"(?:no|number|num|#)\b\.?|번호|請求書番号|領収書番号|伝票番号|伝票No", _F)),
)
_GRAND = re.compile(r"grand|incl|inc\.|w/|nett?\b|amount\s+(?:due|payable)|balance\s+due|"
                    r"총\s*액|合計|総額|税込|합계", _F)
_ORG = re.compile(r"\bSDN\.?\s*BHD\b|\bBHD\b|\bS/B\b|\bENTERPRISE|\bTRADING\b|\bPLT\b|\bLTD\b|\bLIMITED\b|\bINC\b|"
                  r"\bLLC\b|\bCORP|\bCOMPANY\b|\bCO\b\.?|\bGROUP\b|\bRESTORAN\b|\bRESTAURANT\b|\bHARDWARE\b|"
                  r"\bBOOK\w*|주식회사|\(주\)|㈜|株式会社|有限会社|合同会社|\(株\)", _F)
_SUMMARY = re.compile(r"\b(?:gst|tax|vat)\s*(?:summary|analysis)\b|세액\s*요약|税率別", _F)
#: a clock time (``10:25``, ``15:44:46``) beside a date: the stamp a till prints on the transaction
_TIME = re.compile(r"(?<![\d:])(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?![\d:])")
#: words before a date that make it another date than the document's (expiry, validity, best-before)
_NOT_ISSUED = re.compile(r"expir\w*|\bexp\b|valid\w*|until|best\s*before|use\s*by|만료|유효|期限|有効", _F)
_DOC_VALUE = re.compile(r"[:#.\s]*([A-Z0-9][A-Z0-9\-/]{2,})", _F)
#: strength of the pattern a value was read with (calibrated on the even-numbered SROIE receipts)
STRENGTH = {"same_row": 1.0, "next_row": 0.95, "no_cents": 0.9, "plain_total": 0.985, "unlabelled_date": 0.9,
            "stamped_date": 1.0, "embedded_date": 0.9,
            "org_suffix": 0.95, "org_mixed_case": 0.85, "org_guess": 0.6, "doc_number": 0.9, "conflict": 0.8}


@dataclass(frozen=True, slots=True)
class Row:
    text: str
    bbox: tuple[float, float, float, float]
    confidence: float  # the lowest OCR score of the lines on the row
    index: int
    #: each character's OCR score (the line's score where the engine gave none; 1.0 for the joining spaces)
    chars: tuple[float, ...] = ()

    def own(self, start: int, end: int, *, alnum: bool = False) -> float:
        """The OCR evidence for ``text[start:end]`` alone: its weakest character, not the row's mean (a space's
        score says nothing about the value; ``alnum``: only letters and digits count, as in a name)."""
        if len(self.chars) != len(self.text):
            return self.confidence
        scores = [c for ch, c in zip(self.text[start:end], self.chars[start:end], strict=True)
                  if not ch.isspace() and (ch.isalnum() or not alnum)]
        return min(scores) if scores else self.confidence


@dataclass(slots=True)
class Field:
    name: str
    value: str  # as written
    normalized: str  # ISO date, decimal amount, code or text
    page: int
    bbox: list[float] | None
    source: str  # "ocr" | "text_layer" | "model"
    confidence: float
    currency: str | None = None
    evidence: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["confidence"] = round(self.confidence, 4)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Field:
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})


def rows_of(lines: Sequence[Mapping[str, Any]]) -> list[Row]:
    """Lines grouped into rows: boxes that overlap vertically by half the smaller height, left to right."""
    boxed = [(tuple(float(v) for v in ln.get("bbox") or (0, 0, 0, 0)), ln) for ln in lines
             if str(ln.get("text", "")).strip()]
    boxed.sort(key=lambda b: (b[0][1] + b[0][3]) / 2)
    groups: list[list[tuple[tuple[float, ...], Mapping[str, Any]]]] = []
    for box, ln in boxed:
        if groups:
            last = groups[-1]
            y0, y1 = min(b[1] for b, _ in last), max(b[3] for b, _ in last)
            overlap = min(y1, box[3]) - max(y0, box[1])
            if overlap > 0.5 * max(1e-6, min(y1 - y0, box[3] - box[1])):
                last.append((box, ln))
                continue
        groups.append([(box, ln)])
    out = []
    for i, group in enumerate(groups):
        group.sort(key=lambda b: b[0][0])
        bbox = (min(b[0] for b, _ in group), min(b[1] for b, _ in group), max(b[2] for b, _ in group),
                max(b[3] for b, _ in group))
        conf = min(float(ln.get("confidence", 1.0)) for _, ln in group)
        chars: list[float] = []
        for _, ln in group:
            if chars:
                chars.append(1.0)
            chars += _char_scores(ln)
        out.append(Row(" ".join(str(ln["text"]).strip() for _, ln in group), bbox, conf, i, tuple(chars)))
    return out


def _char_scores(line: Mapping[str, Any]) -> list[float]:
    """A line's per-character scores (``chars``, as the OCR engine gave them), else its score for each."""
    raw = str(line["text"])
    text = raw.strip()
    given = line.get("chars")
    if isinstance(given, Sequence) and len(given) == len(raw):
        lead = len(raw) - len(raw.lstrip())
        return [float(c) for c in given[lead: lead + len(text)]]
    return [float(line.get("confidence", 1.0))] * len(text)


def _label(text: str) -> tuple[str, re.Match[str]] | None:
    """The label of the row's value: of all label matches (an earlier lexicon entry wins where two overlap),
    the last one with something after it ("Total Saving 0.00 Total 77.20" → the second total)."""
    found: list[tuple[int, str, re.Match[str]]] = []
    for prio, (name, pattern) in enumerate(LABELS):
        for m in pattern.finditer(text):
            if not any(m.start() < o.end() and o.start() < m.end() for _, _, o in found):
                found.append((prio, name, m))
    if not found:
        return None
    found.sort(key=lambda t: t[2].start())
    with_value = [t for t in found if amounts(text[t[2].end():]) or dates(text[t[2].end():])]
    _, name, m = (with_value or found)[-1]
    return name, m


def _box(*rows: Row) -> list[float]:
    return [round(min(r.bbox[0] for r in rows), 2), round(min(r.bbox[1] for r in rows), 2),
            round(max(r.bbox[2] for r in rows), 2), round(max(r.bbox[3] for r in rows), 2)]


def page_fields(segment: Mapping[str, Any], *, day_first: bool = True) -> list[Field]:
    """Every labelled amount, date and document number on one page, plus the organisation on page 1."""
    page = int(segment.get("page") or 1)
    source = str(segment.get("source") or "ocr")
    source = source if source in ("ocr", "text_layer", "model") else "ocr"
    rows = rows_of(segment.get("lines") or [])
    out: list[Field] = []
    summary = False  # below a "GST summary" table the amounts are per tax code, not the document's
    doubts: list[list[str]]  # what ingest.fields.evidence finds against a value
    for i, row in enumerate(rows):
        summary = summary or bool(_SUMMARY.search(row.text))
        found = _label(row.text)
        if found is None or found[0] not in DATE_FIELDS:
            for d in dates(row.text, day_first=day_first)[:1]:
                if _NOT_ISSUED.search(row.text[max(0, d.start - 24): d.start]):
                    continue  # an expiry / validity date is not the document's
                # a date printed with the clock time is the transaction's stamp: labelled by its time
                stamped = _TIME.search(row.text[: d.start] + " " + row.text[d.end:]) is not None
                doubts = [] if stamped else [["no_label", "a date found by its shape only"]]
                _confusable(doubts, row.text, d.start, d.end, d.repaired)
                own = row.own(d.start, d.end)
                out.append(Field("date", d.raw, d.value.isoformat(), page, _box(row), source,
                                 own * d.strength * STRENGTH["stamped_date" if stamped else "unlabelled_date"],
                                 evidence={"ocr": own, "pattern": d.strength, "label": "time" if stamped else None,
                                           "doubts": doubts}))
        if found is None:
            continue
        name, m = found
        rest = row.text[m.end():]
        nxt = rows[i + 1] if i + 1 < len(rows) else None
        if name in ("date", "due_date"):
            text, at, off = rest, row, m.end()
            got = dates(rest, day_first=day_first)
            if not got:
                text, off = row.text[: m.start()], 0
                got = dates(text, day_first=day_first)
            used = [row]
            if not got and nxt is not None and len(nxt.text) <= 30:
                text, at, off = nxt.text, nxt, 0
                got, used = dates(nxt.text, day_first=day_first), [row, nxt]
            if got:
                d = got[0]
                doubts = []
                _confusable(doubts, text, d.start, d.end, d.repaired)
                own = at.own(off + d.start, off + d.end)
                conf = own * d.strength * (1.0 if len(used) == 1 else STRENGTH["next_row"])
                out.append(Field(name, d.raw, d.value.isoformat(), page, _box(*used), source, conf,
                                 evidence={"ocr": own, "pattern": d.strength,
                                           "label": m.group(0), "doubts": doubts}))
            continue
        if name == "doc_number":
            dm = _DOC_VALUE.match(rest)
            if dm and re.search(r"\d", dm.group(1)):
                out.append(Field(name, dm.group(1), dm.group(1).upper(), page, _box(row), source,
                                 row.confidence * STRENGTH["doc_number"], evidence={"ocr": row.confidence}))
            continue
        if name == "ignore" or summary:
            continue
        money = [a for a in amounts(rest) if not dates(rest)] if rest.strip() else []
        used, text, at, off = [row], rest, row, m.end()
        strength = STRENGTH["same_row"]
        if not money and nxt is not None and _label(nxt.text) is None and len(nxt.text) <= 24:
            money, used, strength, text = amounts(nxt.text), [row, nxt], STRENGTH["next_row"], nxt.text
            at, off = nxt, 0
        if not money:
            continue
        a = money[-1]
        doubts = []
        if glued_digits(text, a.start, a.end, a.decimals):
            doubts.append(["ocr_confusable", "the amount is glued to letters OCR confuses with digits"])
        others = other_amounts([(str(x.value), x.decimals) for x in money], str(a.value)) if a.decimals else []
        if others:
            doubts.append(["ambiguous_value", f"the row also has {', '.join(others)}"])
        if not a.decimals:
            strength *= STRENGTH["no_cents"]
        grand = name == "total" and bool(_GRAND.search(row.text[: m.end() + 12]))
        if name == "total" and not grand:
            strength *= STRENGTH["plain_total"]
        ocr = at.own(off + a.start, off + a.end)
        out.append(Field(name, a.raw, str(a.value), page, _box(*used), source, ocr * strength,
                         currency=a.currency or currency_of(row.text),
                         evidence={"ocr": ocr, "pattern": round(strength, 4), "label": m.group(0), "grand": grand,
                                   "row": row.index, "doubts": doubts}))
    out = [_embedded_date(f, rows) if f.name in DATE_FIELDS else f for f in out]
    if page == 1:
        org = _organisation(rows, source)
        if org is not None:
            out.append(org)
    return out


def _embedded_date(f: Field, rows: Sequence[Row]) -> Field:
    """A document number that embeds the date's digits (``INV20180312-0042``: year, month, day) is a second
    reading of it: the chance both are misread alike is the product of their chances; a date without a label
    is then the document's own."""
    key = f.normalized.replace("-", "")
    for row in rows:
        for m in re.finditer(r"\d{8,}", row.text):
            at = m.group(0).find(key)
            if at < 0:
                continue
            own = row.own(m.start() + at, m.start() + at + len(key)) * STRENGTH["embedded_date"]
            doubts = [d for d in f.evidence.get("doubts") or () if d[0] != "no_label"]
            return replace(f, confidence=_combine(f.confidence, own),
                           evidence=dict(f.evidence, doubts=doubts, embedded=row.index))
    return f


def _organisation(rows: Sequence[Row], source: str) -> Field | None:
    top = rows[: max(8, len(rows) // 4)]
    for k, row in enumerate(top):
        if _ORG.search(row.text) and not re.search(r"\d{5,}|tel|fax|gst\s*(?:reg|id|no)", row.text, _F):
            # registered names are printed in capitals; a mixed-case line is more often a brand or branch line
            own = row.own(0, len(row.text), alnum=True)  # a misread letter shows in its own score
            conf = own * STRENGTH["org_suffix"] * (1.0 if row.text.upper() == row.text else STRENGTH["org_mixed_case"])
            doubts = []
            if suffix_only(row.text):
                doubts.append(["name_split", "the row holds only the legal suffix"])
            if digit_in_word(row.text):
                doubts.append(["digit_in_word", "a digit inside a word: a misread letter?"])
            if k > 0 and name_continues(top[k - 1].text, row.text):
                doubts.append(["name_split", "the row above may be the first part of the name"])
            return Field("company", row.text, _clean(row.text), 1, _box(row), source, conf,
                         evidence={"ocr": own, "pattern": "org_suffix", "doubts": doubts})
    for row in top:
        letters = sum(ch.isalpha() for ch in row.text)
        if len(row.text) >= 4 and letters >= 0.6 * len(row.text.replace(" ", "")):
            own = row.own(0, len(row.text), alnum=True)
            return Field("company", row.text, _clean(row.text), 1, _box(row), source,
                         own * STRENGTH["org_guess"], evidence={"ocr": own, "pattern": "guess"})
    return None


def _confusable(doubts: list[list[str]], text: str, start: int, end: int, repaired: bool = False) -> None:
    if repaired:  # "12/O3/2018" read as 12/03/2018: a person checks the repair
        doubts.append(["ocr_confusable", "letters OCR confuses with digits were read as digits in the date"])
        return
    ch = confusable_neighbour(text, start, end)
    if ch is not None:
        doubts.append(["ocr_confusable", f"the value is glued to {ch!r}, a letter OCR confuses with a digit"])


def _clean(text: str) -> str:
    return " ".join(text.split()).strip(" .,:;")


def _combine(*confs: float) -> float:
    """Independent evidence for the same value: wrong only if every piece is wrong."""
    p = 1.0
    for c in confs:
        p *= max(0.0, 1.0 - c)
    return 1.0 - p


def document_fields(segments: Iterable[Mapping[str, Any]], *, day_first: bool = True) -> list[Field]:
    """The document's fields: one best candidate per key field (agreement applied), plus the line items
    and the currency. ``segments`` may be a lazy sequence (pages are read one at a time)."""
    cands: list[Field] = []
    items: list[Field] = []
    for seg in segments:
        cands += page_fields(seg, day_first=day_first)
        items += table_items(seg)
    best: dict[str, Field] = {}
    by_name: dict[str, list[Field]] = {}
    for f in cands:
        by_name.setdefault(f.name, []).append(f)
    for name, group in by_name.items():
        if name == "total":
            best[name] = _best_total(group)
        else:  # the strongest; the same value printed again agrees, a different one conflicts
            top = max(group, key=lambda f: f.confidence)
            best[name] = _agree(top, [f for f in group if f is not top])
    _arithmetic(best, items)
    out = list(best.values()) + items
    currency = _currency(out)
    if currency is not None:
        out.append(currency)
    return out


def _agree(top: Field, others: Sequence[Field]) -> Field:
    same = [f.confidence for f in others if f.normalized == top.normalized]
    differ = [f for f in others if f.normalized != top.normalized and f.confidence >= top.confidence * 0.9
              and (top.name not in DATE_FIELDS or _rival_date(top, f))]
    conf = _combine(top.confidence, *same) if same else top.confidence
    if differ:
        conf *= STRENGTH["conflict"]
    ev = dict(top.evidence, repeated=len(same), conflicts=[f.normalized for f in differ])
    # every other value printed for the field (however weak): judged once the checks are known (_arithmetic,
    # for a date here: by the labels)
    ev["alternatives"] = sorted({f.normalized for f in others if f.normalized != top.normalized})
    if top.name in DATE_FIELDS:
        rivals = [f for f in others if f.normalized != top.normalized and _rival_date(top, f)]
        if rivals:
            ev["doubts"] = [*ev.get("doubts", []), ["candidates_disagree",
                                                   "other dates: " + ", ".join(sorted({f.normalized for f in rivals}))]]
    return replace(top, confidence=conf, evidence=ev)


def _rival_date(top: Field, other: Field) -> bool:
    """Another date is a rival unless the chosen one has a label (or a time stamp) and it has none."""
    return top.evidence.get("label") is None or other.evidence.get("label") is not None


def _best_total(group: Sequence[Field]) -> Field:
    grand = [f for f in group if f.evidence.get("grand")]
    pool = grand or list(group)
    votes = Counter(f.normalized for f in pool)
    value, _ = max(votes.items(), key=lambda kv: (kv[1], max(f.evidence.get("row", 0) for f in pool
                                                             if f.normalized == kv[0])))
    top = max((f for f in pool if f.normalized == value), key=lambda f: f.confidence)
    others = [f for f in group if f is not top and (f.evidence.get("grand") or not grand)]
    return _agree(top, others)


def _arithmetic(best: dict[str, Field], items: Sequence[Field]) -> None:
    """``total = subtotal + tax (+ rounding)``, ``cash − change = total``, ``total = Σ items``: a check that
    holds is a second source for the total (its parts' confidence); the outcome is kept as evidence."""
    total = best.get("total")
    if total is None:
        return
    t = Decimal(total.normalized)
    checks: dict[str, bool] = {}
    support: list[float] = []

    def verdict(name: str, value: Decimal, parts: Sequence[Field]) -> None:
        conf = min(p.confidence for p in parts)
        if abs(value - t) <= ROUNDING:
            checks[name] = True
            support.append(conf)
        elif conf >= CONFIDENT_PART:  # a misread part proves nothing about the total
            checks[name] = False

    sub, tax = best.get("subtotal"), best.get("tax")
    if sub is not None and tax is not None:
        extra = [f for f in (best.get("service"), best.get("rounding")) if f is not None]
        verdict("subtotal_plus_tax", sum((Decimal(f.normalized) for f in (sub, tax, *extra)), Decimal(0)),
                [sub, tax, *extra])
    cash, change = best.get("cash"), best.get("change")
    if cash is not None and change is not None:
        verdict("cash_minus_change", Decimal(cash.normalized) - Decimal(change.normalized), [cash, change])
    if items:
        verdict("sum_of_items", sum((Decimal(i.normalized) for i in items), Decimal(0)), items)
    conf = _combine(total.confidence, *support) if support else total.confidence
    ev = dict(total.evidence, checks=checks)
    rivals = [v for v in ev.get("alternatives") or () if not _explained(Decimal(v), t, best)]
    if rivals and not support and not ev.get("repeated"):
        ev["doubts"] = [*ev.get("doubts", []), ["candidates_disagree", "other totals: " + ", ".join(rivals)
                                                + "; no check picks one"]]
    best["total"] = replace(total, confidence=conf, evidence=ev)


def _explained(rival: Decimal, total: Decimal, best: Mapping[str, Field]) -> bool:
    """Another value printed as a total that is no rival: the total before cash rounding (within ``ROUNDING``),
    or the amount of another labelled field (the subtotal, the cash tendered) under a loose "total" label."""
    if abs(rival - total) <= ROUNDING:
        return True
    return any(f is not None and Decimal(f.normalized) == rival
               for f in (best.get(n) for n in ("subtotal", "cash", "tax", "service")))


#: a check may be off by this much (cash rounding to 5 sen / 10 won)
ROUNDING = Decimal("0.05")
#: a failing check counts against the total only when every part was read at least this confidently
CONFIDENT_PART = 0.95
_AMOUNT_HEADER = re.compile(r"amount|total|price|금액|합계|金額|小計", _F)


def table_items(segment: Mapping[str, Any]) -> list[Field]:
    """Line items: the amount column of a table (the last column whose header names an amount)."""
    out: list[Field] = []
    page = int(segment.get("page") or 1)
    for grid in segment.get("tables") or []:
        if not grid or len(grid) < 2:
            continue
        header = [str(c) for c in grid[0]]
        cols = [j for j, h in enumerate(header) if _AMOUNT_HEADER.search(h)]
        if not cols:
            continue
        col = cols[-1]
        for row in grid[1:]:
            if col >= len(row) or _label(" ".join(str(c) for c in row[:col])):
                continue  # a subtotal/total row inside the table is not an item
            money: list[Money] = amounts(str(row[col]))
            if money:
                out.append(Field("item", money[-1].raw, str(money[-1].value), page, None,
                                 str(segment.get("source") or "ocr"), 0.95 * float(segment.get("ocr_confidence", 1.0)),
                                 currency=money[-1].currency, evidence={"row": " | ".join(str(c) for c in row)}))
    return out


def _currency(fields: Sequence[Field]) -> Field | None:
    seen = [f for f in fields if f.currency]
    if not seen:
        return None
    votes = Counter(f.currency for f in seen)
    code, n = votes.most_common(1)[0]
    top = next(f for f in seen if f.currency == code)
    return Field("currency", str(code), str(code), top.page, top.bbox, top.source, n / len(seen),
                 evidence={"votes": dict(votes)})
