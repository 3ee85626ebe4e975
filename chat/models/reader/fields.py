"""Key-value lines of receipts and forms (pure): ``Total : 9.00``, ``TOTAL RM 9.00``, ``합계 12,000원``,
``合計 ¥1,200``, ``Date: 12/03/2018`` — and OCR that puts the value on the line after its label.

Among several totals the grand total wins: a label naming it outright (``grand total``, ``amount due``,
``합계금액``) ranks first, one with a sub-total/tax/rounding/cash/change word ranks last (``lexicon``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chat.models.reader.lexicon import GRAND_TOTAL, NOT_GRAND_TOTAL
from chat.models.reader.numbers import Amount, all_amounts
from chat.models.reader.periods import Period, find_periods
from chat.models.reader.text import lines_with_offsets, match_terms

_VALUE_HEAD = r"(?:[$€£¥￥₩]|RM|US\$|USD|KRW|JPY|S\$|[△▲−\-]?\(?\d)"
_LABEL = re.compile(
    r"^(?P<label>[^\W\d_][^:：=]{0,40}?)\s*(?:[:：=]\s*|\s+)(?P<value>" + _VALUE_HEAD + r".*)$", re.IGNORECASE
)
_VALUE_START = re.compile("^" + _VALUE_HEAD, re.IGNORECASE)
#: a line of running text that a wrap ended at a year or number ("… higher revenues in 2021."): its "label" ends
#: with a preposition, article or conjunction — no key of a key-value line does, unless a colon says so
_RUNNING_TEXT_END = re.compile(
    r"(?i)\b(?:in|of|for|to|by|at|from|on|during|than|and|or|the|a|an|with|since|until|through|over|about)$"
)
#: the last line of a wrapped sentence ("… cash dividends and\nshare repurchases.") — it ends a sentence, or it is
#: three words or more starting in lower case (a receipt's short "total" stays a label) — whose next line is no
#: value of it but the page's number
_SENTENCE_TAIL = re.compile(r"^\s*[a-z][^\s]*(?:\s+\S+){2,}|[^\W\d_]{3,}[.!?。]\s*$")
_CURRENCY_TAIL = re.compile(r"\s*(?:RM|MYR|USD|\$|￥|¥|₩|円|원)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Field:
    label: str
    value: str  # the value as written (exact text)
    amount: Amount | None
    date: Period | None
    line: tuple[int, int]  # span of the label..value text in the passage

    @property
    def rank(self) -> int:
        """2 names the grand total outright, 1 plain, 0 a sub-total/tax/cash/change line."""
        if GRAND_TOTAL.search(self.label):
            return 2
        return 0 if NOT_GRAND_TOTAL.search(self.label) else 1


def _field(label: str, value: str, span: tuple[int, int]) -> Field | None:
    label = label.strip().rstrip(".:：").strip()
    # a currency word glued to the label ("TOTAL RM") belongs to the value
    m = _CURRENCY_TAIL.search(label)
    if m and m.start() > 0:
        label = label[: m.start()].strip()
    if not label or not re.search(r"[^\W\d_]", label) or re.search(r"[.!?。]\s|[.!?。]$", label):
        return None
    dates = find_periods(value)
    date = dates[0] if dates and dates[0].start <= 1 and dates[0].day else None
    if date is not None and re.search(r"[^\W\d_]{2,}", re.sub(r"(?i)\b[ap]\.?m\.?\b", " ", value[date.end :])):
        return None  # a sentence that starts with a date, not a date field
    amounts = all_amounts(value)
    amount = None if date or not amounts else amounts[-1][2]
    if date is None and amount is None:
        return None
    rest = value[date.end :] if date else value.replace(amounts[-1][2].raw, " ")
    if re.search(r"[^\W\d_]{3,}", re.sub(r"(?i)\b(?:RM|MYR|USD|KRW|JPY|SGD)\b", " ", rest)) and not date:
        return None  # an address or a sentence, not a value
    return Field(label, value.strip(), amount, date, span)


def find_fields(text: str) -> list[Field]:
    """Every ``label [:] value`` line whose value is an amount or a date."""
    out: list[Field] = []
    lines = lines_with_offsets(text)
    for i, (s, e) in enumerate(lines):
        line = text[s:e]
        if line.startswith("|"):
            continue
        m = _LABEL.match(line)
        if m and _VALUE_START.match(m.group("value")) and len(m.group("value")) <= 40 and not (
                _RUNNING_TEXT_END.search(m.group("label").strip())
                and not re.search(r"[:：=]", line[m.end("label"):m.start("value")])):
            field = _field(m.group("label"), m.group("value"), (s, e))
            if field is not None:
                out.append(field)
                continue
        dates = find_periods(line)
        if dates and dates[0].start == 0 and dates[0].day and len(line) - dates[0].end <= 12:
            out.append(Field("", line, None, dates[0], (s, e)))  # a bare date line ("2023年5月1日 14:05")
            continue
        # OCR: "TOTAL" on one line, "9.00" on the next — when the first line is a field name
        if (
            i + 1 < len(lines)
            and len(line) <= 30
            and not re.search(r"\d", line)
            and not _SENTENCE_TAIL.search(line)
            and (line.isupper() or line.endswith((":", "：")) or any(t.startswith("§") for t in match_terms(line)))
        ):
            ns, ne = lines[i + 1]
            nxt = text[ns:ne]
            if _VALUE_START.match(nxt) and len(nxt) <= 24 and not re.search(r"[^\W\d_]{4,}", nxt):
                field = _field(line, nxt, (s, ne))
                if field is not None:
                    out.append(field)
    return out
