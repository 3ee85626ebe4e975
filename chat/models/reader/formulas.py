"""Metrics a question defines for itself, computed from cited cells (pure).

Analysts state the formula they want: "Inventory turnover ratio is defined as: (FY2021 COGS) / (average inventory
between FY2020 and FY2021)", "Define net working capital as total current assets less total current
liabilities", "the interest coverage ratio using FY2022 operating income as the numerator and interest expense
as the denominator", "the 2 year total revenue CAGR from FY2020 to FY2022". Each operand is a line item looked up
like a value question (``ratios.cell``) at its own period — the one written beside it ("FY2019 revenue"), the two
of an average ("average PP&E between FY2018 and FY2019": their mean), else the question's — in one document,
read in ones (a caption's "in thousands" and "in millions" agree before any arithmetic). The answer says it is
computed, shows every operand with its period, and cites every cell.

The simple shapes — one division (an operand may be an average of two periods), one sum or difference of two
items, a compound annual growth rate — read as written. A longer formula ("365 * (average accounts payable between
FY2016 and FY2017) / (FY2017 COGS + change in inventory between FY2016 and FY2017)"; names defined in terms of
each other: "CCC is defined as: DIO + DSO - DPO. DIO is defined as: …") is parsed into a tree (``expressions``)
and evaluated whole: every operand found, or no answer at all (None) — the reader then answers or declines as for
any other question, never with part of a formula. "The change in X between A and B" is the later period's less the
earlier's; "the N year average <defined name> % margin" is the defined amount over revenue, each year's from its
own cells, then their mean. Any line item asked as a "% margin" ("COGS % margin", "unadjusted operating income %
margin") is that line over revenue; "<defined name> less capex" subtracts one more line; "the FY2021 - FY2022
change in <metric>" evaluates the metric in each year and states the later less the earlier (a percentage's in
percentage points).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from chat.models.reader.compose import period_phrase, table_quote
from chat.models.reader.evidence import Evidence
from chat.models.reader.expressions import Node, Number, Operation, Term, definitions, name_key, parse, terms
from chat.models.reader.numbers import Amount, Unit, asked_scale, format_amount
from chat.models.reader.passage import Passage
from chat.models.reader.periods import Period, find_periods
from chat.models.reader.question import Question, asking_sentence
from chat.models.reader.ratios import (
    OUTFLOW,
    averaged_years,
    cell,
    cell_value,
    change_periods,
    said_label,
    trend_periods,
    trend_verdict,
    without_periods,
)
from chat.models.reader.split_items import heading_parts, split_cells
from chat.models.reader.statement_titles import is_statement_page
from chat.models.reader.text import match_terms
from chat.models.reader.units import row_unit

_END = r"(?=\.\s|\.$|\?|;|$)"
#: "X is defined as: A / B", "Define X as A divided by B"
_DIVISION = re.compile(r"(?i)\b(?:is\s+)?defined?\s+(?:(?P<name>[\w\s&'’()-]{2,60}?)\s+)?as\s*:?\s*(?P<a>[^/÷]+?)\s*"
                       r"(?:/|÷|\bdivided\s+by\b)\s*(?P<b>.+?)" + _END)
#: "… ratio using A as the numerator and B as the denominator"
_NUMERATOR = re.compile(r"(?i)\b(?P<name>[\w\s&'’-]{2,60}?)\s+using\s+(?P<a>.+?)\s+as\s+the\s+numerator\s+and\s+"
                        r"(?P<b>.+?)\s+as\s+the\s+denominator")
#: "Define net working capital as total current assets less total current liabilities"
_SUM = re.compile(r"(?i)\bdefine\s+(?P<name>[\w\s&'’-]{2,60}?)\s+as\s+(?P<a>[^.?;]+?)\s+(?P<op>less|minus|plus|\+|-)\s+"
                  r"(?P<b>[^.?;]+?)" + _END)
#: "the 2 year total revenue CAGR from FY2020 to FY2022"
_CAGR = re.compile(r"(?i)\bCAGR\s+(?:from|between)\s+(?P<p1>[\w' ]+?)\s+(?:to|and)\s+"
                   r"(?P<p2>(?:FY|fiscal\s+)?'?\d{2,4})")
#: what comes before "CAGR": "2 year total revenue", "Acme's revenue" (the item, its years written before it)
_CAGR_ITEM = re.compile(r"(?i)(?:(?P<n>\d+|two|three|four|five)[- ]years?\s+)?(?P<item>(?:[A-Za-z&'’-]+\s+){0,3}"
                        r"[A-Za-z&'’-]+)\s*$")
_AVERAGE = re.compile(r"(?i)^(?:the\s+)?average\s+(?:of\s+)?(?:the\s+)?(?P<item>.+?)\s+(?:between|for|over)\s+"
                      r"(?P<periods>.+)$")
#: another operator inside an operand: the formula is more than one operation
_MORE = re.compile(r"[*×+/÷]|\s-\s|\bchange\s+in\b|\bplus\b|\bminus\b|\bless\b|\btimes\b")
_LEAD_WORDS = re.compile(r"(?i)^(?:the\s+)?(?:annual\s+)?")
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5}


@dataclass(frozen=True, slots=True)
class Operand:
    value: float  # in ones
    cells: tuple[Evidence, ...]
    text: str  # "Inventories $6,854 million (as of May 31, 2021)", or the average's two


def _strip(side: str) -> str:
    side = " ".join(side.split()).strip(" ,:")
    while side.startswith("(") and side.endswith(")") and side.count("(") == 1:
        side = side[1:-1].strip()
    return side


def _read(q: Question, item: str, period: Period | None, passages: Sequence[Passage]) -> Operand | None:
    asked = replace(q, periods=(period,) if period is not None else q.periods[:1])
    ev = cell(asked, item, passages)
    if ev is None or not is_statement_page(ev.passage):
        # a note's row ("Inventories, net" of a business held for sale) yields to the statement's own lines
        split = _split(asked, item, period, passages)
        if split is not None or ev is None:
            return split
    if ev.row is None or ev.table is None or (period is not None and not _year_fits(ev, period)):
        return None
    value = cell_value(ev)
    if value is None:
        return None
    return Operand(value[0], (ev,), f"{said_label(ev)} {value[1]} ({period_phrase(ev.table, ev.col, 'en')})")


def _split(q: Question, item: str, period: Period | None, passages: Sequence[Passage]) -> Operand | None:
    """``item`` printed as separate lines (``split_items``: "Depreciation" + "Amortization of …", or a heading's parts
    without a total): their sum."""
    found = split_cells(q, item, passages) or heading_parts(q, item, passages)
    if not found or (period is not None and not all(_year_fits(ev, period) for ev in found)):
        return None
    values = [cell_value(ev) for ev in found]
    if any(v is None for v in values):
        return None
    first = found[0]
    assert first.table is not None
    said = " + ".join(f"{' '.join((ev.row.label if ev.row else ev.label).split())} {v[1]}"
                      for ev, v in zip(found, values, strict=True) if v)
    return Operand(sum(v[0] for v in values if v), tuple(found),
                   f"({said}) ({period_phrase(first.table, first.col, 'en')})")


def operand(q: Question, side: str, passages: Sequence[Passage]) -> Operand | None:
    """One side of a formula: an item at its own period, the mean of an item at two periods, or None."""
    side = _strip(side)
    if not side or _MORE.search(side):
        return None
    m = _AVERAGE.match(side)
    if m:
        periods = find_periods(m.group("periods"))
        if len(periods) != 2:
            return None
        two = [_read(q, _item(m.group("item")), p, passages) for p in periods]
        if two[0] is None or two[1] is None or _same_cell(two[0].cells[0], two[1].cells[0]):
            return None  # one cell read for both periods: the table holds one of them only
        return Operand((two[0].value + two[1].value) / 2, two[0].cells + two[1].cells,
                       f"the average of {two[0].text} and {two[1].text}")
    periods = find_periods(side)
    return _read(q, _item(without_periods(side)), periods[0] if periods else None, passages)


def _year_fits(ev: Evidence, period: Period) -> bool:
    """The cell's column is of the asked year — or, for a fiscal year, ends in the first quarter of the next (a
    "fiscal 2030" that ends in January 2031). A neighbouring year's column is no stand-in for an operand."""
    assert ev.table is not None
    if period.year is None:
        return True
    offered = [p for p in ev.table.columns[ev.col].periods if p.year is not None]
    if not offered:
        return True
    return any(p.year == period.year or (period.fiscal and p.year == period.year + 1 and (p.month or 12) <= 3)
               for p in offered)


def _same_cell(a: Evidence, b: Evidence) -> bool:
    return (a.passage.ref, a.quote, a.col) == (b.passage.ref, b.quote, b.col)


def _item(text: str) -> str:
    return _LEAD_WORDS.sub("", " ".join(text.split()).strip(" ,()")).strip()


def _one_document(*operands: Operand) -> bool:
    docs = {ev.passage.document_id for o in operands for ev in o.cells if ev.passage.document_id}
    return len(docs) <= 1


def refs(*operands: Operand) -> str:
    return "".join(dict.fromkeys(f"[{ev.passage.ref}]" for o in operands for ev in o.cells))


def quotes(*operands: Operand) -> list[tuple[str, str]]:
    return list(dict.fromkeys((ev.passage.ref, ev.quote_text) for o in operands for ev in o.cells))


def lines(lead: str, first: Evidence) -> str:
    return "\n".join([" ".join(lead.split()), *(("> " + line).rstrip() for line in table_quote(first))])


def _name(raw: str | None, fallback: str) -> str:
    name = " ".join((raw or "").split()).strip(" ,:")
    name = re.sub(r"(?i)^(?:what\s+(?:is|was)\s+)?(?:the\s+)?", "", name)
    name = re.sub(r"(?i)^[A-Z][\w&.\-]*['’]s\s+", "", name) if name else name
    if name[:1].isupper() and not name[:2].isupper():  # "Fixed asset turnover ratio" mid-sentence; "DPO" stays
        name = name[0].lower() + name[1:]
    return name or fallback


def money(value: float, like: Evidence, question: str) -> str:
    """``value`` (in ones) written like the cell ``like``'s amounts: its currency and scale, or the asked one."""
    assert like.table is not None and like.row is not None
    unit = row_unit(like.table, like.col, f"{like.row.section} {like.row.label}", like.row.label)
    word = asked_scale(question) or (unit.word if unit.word in ("thousand", "million", "billion") else "")
    scale = {"thousand": 1e3, "million": 1e6, "billion": 1e9}.get(word, 1.0)
    shown = value / scale
    raw = f"{abs(shown):,.2f}".rstrip("0").rstrip(".")
    return format_amount(Amount(shown, raw, currency=unit.currency), Unit(scale, word, unit.currency), "en")


def formula_items(question: str) -> list[str]:
    """The line items of the formula ``question`` defines (without their periods or "average … between"), for the
    pages to read; ``[]`` when it defines none."""
    m = _CAGR.search(question)
    if m:
        head = _CAGR_ITEM.search(re.split(r"['’]s\s+|\bthe\s+", question[: m.start()])[-1])
        return [_item(head.group("item"))] if head else []
    general = _leaf_items(question)
    m = _NUMERATOR.search(question) or _DIVISION.search(question) or _SUM.search(question)
    if not m:
        return general
    out = []
    for side in (m.group("a"), m.group("b")):
        side = _strip(side)
        avg = _AVERAGE.match(side)
        item = without_periods(avg.group("item") if avg else side)
        if _item(item) and not _MORE.search(item):
            out.append(_item(item))
    return general or out  # a formula written out: every operand of it, not the first pattern's two sides


#: textbook definitions, used when the question asks to compute the metric but does not define it ("the FY2015
#: unadjusted EBITDA % margin … using unadjusted operating income and D&A"); a company's own "Adjusted EBITDA" is
#: its non-GAAP figure, printed, never this
_TEXTBOOK = {
    "ebitda": "operating income + depreciation and amortization",
    # the share of earnings kept, and the share paid out, as dividends
    "retention ratio": "(net income - cash dividends paid) / net income",
    "dividend payout ratio": "cash dividends paid / net income",
    "free cash flow": "cash from operations - capital expenditure",
    # how much of the year's earnings came in as free cash (over 100%: more cash than earnings)
    "free cash flow conversion": "(cash from operations - capital expenditure) / net income",
    "working capital": "total current assets - total current liabilities",
    # the acid test: current assets that turn into cash quickly (all but inventories) over current liabilities
    "quick ratio": "(total current assets - inventories) / total current liabilities",
    # the year's net income over the year-end balance (the answer says so; an average balance is asked by name)
    "return on assets": "net income / total assets",
    "return on equity": "net income / total shareholders' equity",
    # turnovers and days over the year-end balance (the answer says so; an average balance is asked by name)
    "inventory turnover": "cost of sales / inventories",
    "fixed asset turnover": "revenue / property and equipment net",
    "total asset turnover": "revenue / total assets",
    "days sales outstanding": "accounts receivable / revenue * 365",
    "days inventory outstanding": "inventories / cost of sales * 365",
    "days payable outstanding": "accounts payable / cost of sales * 365",
    # how many times operating income covers the year's interest
    "interest coverage ratio": "operating income / interest expense",
}
_COMPUTE_ASKED = re.compile(r"(?i)\bunadjusted\b|\bcalculat\w*|\bcomput\w*")
_ADJUSTED = re.compile(r"(?i)(?<![\w-])adjusted\s+EBITDA")


#: "What is Acme's FY2021 COGS % margin?": a line item's share of revenue, the words before "% margin"
_LINE_MARGIN = re.compile(r"(?i)(?P<before>[^?]*?)\s*(?:%|percent(?:age)?)\s+margin\b")
#: words that end the item before "% margin": an owner, a period, a verb
_BEFORE_ITEM = re.compile(r"(?i)^(?:[\w&.\-]+['’]s|FY\s?'?\d{2,4}|(?:19|20)\d\d|Q[1-4]|is|was|the|what|for|of|in|"
                          r"a|an|and|years?|end|fiscal|average|\d+|two|three|four|five|\d+-years?)$")
#: an item word that only says the figure is as reported ("unadjusted operating income"): the line as printed
_AS_REPORTED = re.compile(r"(?i)^unadjusted\s+")


def _line_margin(question: str) -> str:
    """The line item of "<line item> % margin" in the asking sentence ("COGS", "unadjusted operating income"), ''
    when it asks none; a share of revenue itself ("revenue % margin") is none."""
    asking = asking_sentence(question)
    m = _LINE_MARGIN.search(asking)
    if m is None:
        return ""
    words = m.group("before").split()
    item: list[str] = []
    while words and not _BEFORE_ITEM.match(words[-1]) and len(item) < 4:
        item.insert(0, words.pop())
    text = _AS_REPORTED.sub("", " ".join(item))
    return "" if not text or re.fullmatch(r"(?i)(?:net\s+)?(?:revenues?|sales)", text) else text


def _definitions(question: str, textbook: bool = False) -> dict[str, Node]:
    """The question's own definitions, then a textbook one it asks to compute without defining (or, ``textbook``,
    names at all)."""
    defined = definitions(question)
    if (textbook or _COMPUTE_ASKED.search(question)) and not _ADJUSTED.search(question):
        for key, text in _TEXTBOOK.items():
            tree = parse(text)
            if tree is not None and key not in defined and re.search(rf"(?i)\b{key}\b", question):
                defined[key] = tree
    return defined


def _leaf_items(question: str) -> list[str]:
    """The line items of every formula ``question`` writes out (``expressions``) or names from the textbook (the
    pages to read for it), without their periods."""
    defined = _definitions(question, textbook=True)
    asked = _asked(question, defined)
    out: list[str] = []
    # the asked formula too: "EBITDA % margin" divides the defined amount by revenue, an operand of its own
    for tree in [*defined.values(), *([asked[0]] if asked is not None else [])]:
        for term in terms(tree):
            if name_key(term.text) in defined:
                continue
            m = _AVERAGE.match(term.text) or _CHANGE.match(term.text)
            item = _item(without_periods(m.group("item") if m else term.text))
            if item and item not in out:
                out.append(item)
    return out


def formula_answer(question: str, q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The answer lines and quotes of a metric the question defines (see the module docstring), or None."""
    if q.language != "en":
        return None
    m = _CAGR.search(question)
    if m:
        return _cagr(question, q, m, passages)
    return _simple(question, q, passages) or _written_out(question, q, passages)


def _simple(question: str, q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """One division or one sum or difference, read by the patterns above."""
    m = _NUMERATOR.search(question) or _DIVISION.search(question)
    if m:
        a, b = operand(q, m.group("a"), passages), operand(q, m.group("b"), passages)
        if a is None or b is None or b.value == 0 or not _one_document(a, b):
            return None
        before = re.search(r"(?i)(?:^|[.?!:]\s+)(?:the\s+)?(?P<name>[^.?!:]{2,60}?)\s+is\s+defined\s+as\b",
                           question[: m.end()])
        name = _name(m.group("name") or (before.group("name") if before else None), q.focus or "ratio")
        percent = bool(re.search(r"(?i)\bpercent|%|\bmargin\b", name + " " + question.split("?")[0]))
        stated = f"{a.value / b.value * 100:.1f}%" if percent else f"{a.value / b.value:.2f}"
        lead = f"The {name} was {stated} (computed: {a.text} ÷ {b.text}) {refs(a, b)}."
        return lines(lead, a.cells[0]), quotes(a, b)
    m = _SUM.search(question)
    if m and not re.search(r"(?i)\bmargin\b|%|\bpercent|\baverage\b|\bratio\b", question[: m.start()]) \
            and not _more_asked(question, m.group("name")):
        a, b = operand(q, m.group("a"), passages), operand(q, m.group("b"), passages)
        if a is None or b is None or not _one_document(a, b):
            return None
        minus = m.group("op").lower() in ("less", "minus", "-")
        value = a.value - b.value if minus else a.value + b.value
        name = _name(m.group("name"), "result")
        lead = (f"The {name} was {money(value, a.cells[0], question)} (computed: {a.text} "
                f"{'−' if minus else '+'} {b.text}) {refs(a, b)}.")
        return lines(lead, a.cells[0]), quotes(a, b)
    return None


def _cagr(question: str, q: Question, m: re.Match[str], passages: Sequence[Passage]
          ) -> tuple[str, list[tuple[str, str]]] | None:
    starts, ends = find_periods(m.group("p1")), find_periods(m.group("p2"))
    if not starts or not ends or starts[0].year is None or ends[0].year is None:
        return None
    years = ends[0].year - starts[0].year
    head = _CAGR_ITEM.search(re.split(r"['’]s\s+|\bthe\s+", question[: m.start()])[-1])
    if head is None:
        return None
    n = head.group("n")
    if years <= 0 or (n and (int(n) if n.isdigit() else _NUMBER_WORDS[n.lower()]) != years):
        return None
    item = _item(head.group("item"))
    if not match_terms(item):
        return None
    first, last = _read(q, item, starts[0], passages), _read(q, item, ends[0], passages)
    if first is None or last is None or first.value <= 0 or last.value <= 0 or not _one_document(first, last) \
            or _same_cell(first.cells[0], last.cells[0]):
        return None
    rate = (last.value / first.value) ** (1 / years) - 1
    lead = (f"The {years}-year {item} CAGR from {m.group('p1').strip()} to {m.group('p2').strip()} was "
            f"{rate * 100:.1f}% (computed: ({last.text} ÷ {first.text})^(1/{years}) − 1) {refs(last, first)}.")
    return lines(lead, last.cells[0]), quotes(last, first)


#: "change in inventory between FY2016 and FY2017": the later period's less the earlier's
_CHANGE = re.compile(r"(?i)^(?:the\s+)?(?:change|increase|decrease)\s+in\s+(?:the\s+)?(?P<item>.+?)\s+"
                     r"(?:between|from)\s+(?P<periods>.+)$")
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}
_SHOWN_OP = {"+": "+", "-": "−", "*": "×", "/": "÷"}
_APPLY: dict[str, Callable[[float, float], float]] = {"+": operator.add, "-": operator.sub, "*": operator.mul,
                                                     "/": operator.truediv}


def _change(q: Question, m: re.Match[str], passages: Sequence[Passage]) -> Operand | None:
    periods = sorted(find_periods(m.group("periods")), key=lambda p: (p.year or 0, p.quarter or 0, p.half or 0))
    if len(periods) != 2 or periods[0].year is None or periods[0].year == periods[1].year:
        return None
    item = _item(m.group("item"))
    first, last = _read(q, item, periods[0], passages), _read(q, item, periods[1], passages)
    if first is None or last is None or _same_cell(first.cells[0], last.cells[0]):
        return None
    return Operand(last.value - first.value, first.cells + last.cells,
                   f"the change in {item} from {first.text} to {last.text}")


def _evaluate(tree: Node, q: Question, passages: Sequence[Passage], defined: dict[str, Node],
              seen: frozenset[str] = frozenset()) -> Operand | None:
    """The value of ``tree`` for ``q``'s period, each operand a cited cell (or two), in ones; None when an operand
    is not found, a name is defined in terms of itself, or a division is by zero."""
    if isinstance(tree, Number):
        shown = f"{tree.value:g}"
        return Operand(tree.value, (), shown)
    if isinstance(tree, Term):
        key = name_key(tree.text)
        if key in defined:
            if key in seen:
                return None
            inner = _evaluate(defined[key], q, passages, defined, seen | {key})
            return Operand(inner.value, inner.cells, f"{tree.text} ({inner.text})") if inner else None
        change = _CHANGE.match(tree.text)
        found = _change(q, change, passages) if change else operand(q, tree.text, passages)
        if found is not None and OUTFLOW.search(tree.text):  # capex "(1,486,843)": the brackets are no sign
            found = replace(found, value=abs(found.value))
        return found
    left = _evaluate(tree.left, q, passages, defined, seen)
    right = _evaluate(tree.right, q, passages, defined, seen) if left is not None else None
    if left is None or right is None or (tree.op == "/" and right.value == 0):
        return None
    value = _APPLY[tree.op](left.value, right.value)
    texts = []
    for child, text in ((tree.left, left.text), (tree.right, right.text)):
        if isinstance(child, Operation) and (_PRECEDENCE[child.op] < _PRECEDENCE[tree.op]
                                             or (child is tree.right and tree.op in "-/")):
            text = f"({text})"
        texts.append(text)
    return Operand(value, left.cells + right.cells, f"{texts[0]} {_SHOWN_OP[tree.op]} {texts[1]}")


def _expanded_terms(tree: Node, defined: dict[str, Node], seen: frozenset[str] = frozenset()) -> list[Term]:
    out: list[Term] = []
    for term in terms(tree):
        key = name_key(term.text)
        if key in defined and key not in seen:
            out += _expanded_terms(defined[key], defined, seen | {key})
        else:
            out.append(term)
    return out


def _used_keys(raw_name: str, tree: Node, defined: dict[str, Node]) -> set[str]:
    """The defined names an answer's formula uses: the longest one its asked name holds ("unadjusted EBITDA less
    capex" uses the question's own "unadjusted EBITDA", not the textbook "EBITDA"), and those its terms name."""
    named = [k for k in defined if _name_in(k, raw_name, whole=True)]
    used = {max(named, key=len)} if named else set()
    todo = [tree, *(defined[k] for k in used)]
    while todo:
        for term in terms(todo.pop()):
            key = name_key(term.text)
            if key in defined and key not in used:
                used.add(key)
                todo.append(defined[key])
    return used


def _in_money(tree: Node, defined: dict[str, Node], seen: frozenset[str] = frozenset()) -> bool:
    """The formula adds and subtracts amounts only (EBITDA, free cash flow): its result is an amount, said in the
    cells' currency and scale, not a bare ratio."""
    if isinstance(tree, Number):
        return False
    if isinstance(tree, Term):
        key = name_key(tree.text)
        return _in_money(defined[key], defined, seen | {key}) if key in defined and key not in seen else True
    return tree.op in "+-" and _in_money(tree.left, defined, seen) and _in_money(tree.right, defined, seen)


#: what follows a defined name in the asking sentence: "… EBITDA less capex for Acme"
_LESS = re.compile(r"(?i)\s+(?P<op>less|minus|plus|-|\+)\s+(?P<item>[A-Za-z&'’-]+(?:\s+[A-Za-z&'’-]+){0,3}?)"
                   r"(?=\s+(?:for|of|at|in|from|by|during)\b|\s*[?,.(]|\s*$)")


def _more_asked(question: str, name: str) -> bool:
    """The asking sentence wants more than the defined sum: "… EBITDA less capex …" for "Define EBITDA as …"."""
    asking = asking_sentence(question)
    key = name_key(name)
    m = _name_in(key, asking, whole=True) if key else None
    return m is not None and _LESS.match(asking[m.end():]) is not None


def _name_in(key: str, text: str, *, whole: bool = False) -> re.Match[str] | None:
    """``key`` (a defined name) in ``text``, with the "% margin" that may follow it; ``whole``: as a whole word."""
    return re.search(r"(?i)(?<![\w-])" + re.escape(key) + (r"(?![\w-])" if whole else "")
                     + r"(?P<margin>\s*(?:%\s*|percent(?:age)?\s+)?margin\b)?", text)


def _asked(question: str, defined: dict[str, Node]) -> tuple[Node, str, bool] | None:
    """The formula asked for: a defined name in the asking sentence (the longest), or "<name> % margin" (the defined
    amount over revenue, as a percentage); its name as written; whether it is a percentage. A question that asks in
    plain words and names the metric in its instructions ("Roughly how many times has Acme sold its inventory in
    FY2022? Calculate inventory turnover ratio for the FY2022") asks the metric its instructions name."""
    asking = asking_sentence(question)
    keys = sorted(defined, key=len, reverse=True)
    found = [(key, m) for key in keys for m in [_name_in(key, asking)] if m is not None][:1]
    if not found and _line_margin(question) == "":
        found = [(key, m) for key in keys for m in [_name_in(key, question)] if m is not None][:1]
        asking = question
    for key, m in found:
        name = " ".join(m.group(0).split())
        if m.group("margin"):
            return Operation("/", defined[key], Term("revenue")), name, True
        more = _LESS.match(asking[m.end():])
        if more:  # "EBITDA less capex": the defined amount and one more operand
            name = f"{name} {more.group('op')} {more.group('item')}"
            return Operation("-" if more.group("op").lower() in ("less", "minus", "-") else "+", defined[key],
                             Term(more.group("item"))), name, False
        percent = bool(re.search(r"(?i)%|\bpercent|\bmargin\b|\breturn\s+on\b|\bconversion\b", name)
                       or re.search(r"(?i)\bin\s+(?:units\s+of\s+)?percent", question))
        return defined[key], name, percent
    line = _line_margin(question)  # "COGS % margin": a line item over revenue
    return (Operation("/", Term(line), Term("revenue")), f"{line} % margin", True) if line else None


#: textbook ratios a filing seldom prints as a line: computed before the ordinary reading, which would take the
#: words for another line ("inventory turnover" read as revenue, "turnover" being revenue in British usage)
_SELDOM_PRINTED = ("inventory turnover", "fixed asset turnover", "total asset turnover", "days sales outstanding",
                   "days inventory outstanding", "days payable outstanding", "interest coverage ratio")


def textbook_first(question: str, passages: Sequence[Passage]) -> bool:
    """The question names a ratio filings seldom print, and no passage prints it by that name."""
    asked = [key for key in _SELDOM_PRINTED if re.search(rf"(?i)\b{key}\b", question)]
    return bool(asked) and not any(re.search(rf"(?i)\b{key}\b", p.text) for key in asked for p in passages)


def textbook_answer(question: str, q: Question, passages: Sequence[Passage]
                    ) -> tuple[str, list[tuple[str, str]]] | None:
    """A textbook metric the question names without asking to compute it ("What was Acme's free cash flow in
    2031?"), computed — for when no line of it was found (the ordinary reading declined, or found only the closest
    evidence): the answer says so and shows the definition taken."""
    if q.language != "en" or q.parts or not any(re.search(rf"(?i)\b{key}\b", question) for key in _TEXTBOOK):
        return None
    answer = _written_out(question, q, passages, textbook=True)
    if answer is None:
        return None
    lead, _, rest = answer[0].partition("\n")
    lead = lead.replace(" (", " (no line of it was found; ", 1)
    return "\n".join(part for part in (lead, rest) if part), answer[1]


def _written_out(question: str, q: Question, passages: Sequence[Passage], textbook: bool = False
                 ) -> tuple[str, list[tuple[str, str]]] | None:
    """A formula with more than one operation, evaluated whole (see the module docstring), or None."""
    defined = _definitions(question, textbook)
    asked = _asked(question, defined)
    if asked is None:
        return None
    answer = _written_out_in(question, q, defined, asked, passages)
    if answer is not None:
        return answer
    # operands found in two filings (last year's 10-K holds this year's comparative too): each document alone
    documents = list(dict.fromkeys(p.document_id for p in passages if p.document_id))
    for document in documents if len(documents) > 1 else ():
        answer = _written_out_in(question, q, defined, asked, [p for p in passages if p.document_id == document])
        if answer is not None:
            return answer
    return None


def _written_out_in(question: str, q: Question, defined: dict[str, Node], asked: tuple[Node, str, bool],
                    passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    tree, raw_name, percent = asked
    name = _name(raw_name, "result")
    own = definitions(question)
    used = _used_keys(raw_name, tree, defined)
    taken = "".join(f"{key.upper() if ' ' not in key else key} taken as {text}; " for key, text in _TEXTBOOK.items()
                    if key in used and key not in own)  # a textbook definition the answer used says so

    in_money = not percent and _in_money(tree, defined)

    def shown(value: float, like: Evidence | None = None) -> str:
        if in_money and like is not None:
            return money(value, like, question)
        if re.match(r"(?i)days\b", name):
            return f"{value:,.1f} days"
        return f"{value * 100:.1f}%" if percent else f"{value:,.2f}"

    years = averaged_years(question, q)
    if years and not any(find_periods(t.text) for t in _expanded_terms(tree, defined)):
        fiscal = any(p.fiscal for p in q.periods)
        each: list[tuple[int, Operand]] = []
        for year in years:
            period = find_periods(f"FY{year}" if fiscal else f"in {year}")[:1]
            one = _evaluate(tree, replace(q, periods=tuple(period)), passages, defined) if period else None
            if one is None or not one.cells or not _one_document(one):
                return None
            each.append((year, one))
        if len({(ev.passage.ref, ev.quote, ev.col) for _, o in each for ev in o.cells[:1]}) < len(each):
            return None  # one cell read for two years: the table does not hold them all
        label = "FY" if fiscal else ""
        parts = "; ".join(f"{label}{year} {shown(o.value, o.cells[0])} = {o.text}" for year, o in each)
        mean = sum(o.value for _, o in each) / len(each)
        lead = (f"The {len(years)}-year average {name} for {label}{years[0]}–{label}{years[-1]} was "
                f"{shown(mean, each[-1][1].cells[0])} "
                f"(the mean of each year's, {taken}computed: {parts}) {refs(*(o for _, o in each))}.")
        latest = each[-1][1]
        return lines(lead, latest.cells[0]), quotes(*(o for _, o in each))
    pair = trend_periods(question, q)
    if pair is not None:  # "Has Acme's quick ratio improved between FY2023 and FY2022?": each period's, compared
        now, before = (_evaluate(tree, replace(q, periods=(p,)), passages, defined) for p in pair)
        if now is not None and before is not None and now.cells and before.cells and _one_document(now) \
                and _one_document(before) and (now.cells[0].passage.ref, now.cells[0].quote, now.cells[0].col) \
                != (before.cells[0].passage.ref, before.cells[0].quote, before.cells[0].col):
            verdict, moved = trend_verdict(question, now.value, before.value)
            first, second = (o.cells[0] for o in (now, before))
            assert first.table is not None and second.table is not None
            lead = (f"{verdict} — the {name} {moved}: {shown(now.value, first)} "
                    f"{period_phrase(first.table, first.col, 'en')} vs {shown(before.value, second)} "
                    f"{period_phrase(second.table, second.col, 'en')} ({taken}computed: {now.text}; {before.text}) "
                    f"{refs(now, before)}.")
            return lines(lead, first), quotes(now, before)
    between = change_periods(question, q)
    if between is not None:  # "the FY2021 - FY2022 change in operating income % margin": the later less the earlier
        now, before = (_evaluate(tree, replace(q, periods=(p,)), passages, defined) for p in between)
        if now is None or before is None or not now.cells or not before.cells or not _one_document(now, before) \
                or _same_cell(now.cells[0], before.cells[0]):
            return None
        first, second = now.cells[0], before.cells[0]
        assert first.table is not None and second.table is not None
        delta = now.value - before.value
        if percent:
            change = f"{delta * 100:+.1f} percentage points"
        elif in_money:
            change = money(delta, first, question)
        else:
            change = f"{delta:+,.2f}"
        lead = (f"The change in the {name} was {change}: {shown(now.value, first)} "
                f"{period_phrase(first.table, first.col, 'en')} vs {shown(before.value, second)} "
                f"{period_phrase(second.table, second.col, 'en')} ({taken}computed: {now.text}; {before.text}) "
                f"{refs(now, before)}.")
        return lines(lead, first), quotes(now, before)
    value = _evaluate(tree, q, passages, defined)
    if value is None or not value.cells or not _one_document(value):
        return None
    lead = f"The {name} was {shown(value.value, value.cells[0])} ({taken}computed: {value.text}) {refs(value)}."
    return lines(lead, value.cells[0]), quotes(value)
