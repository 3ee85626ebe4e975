"""Which row is highest (pure): "Which region had the highest net sales?", "Which segment had the lowest operating
income in the three months ended July 1, 2023?", "Which product category generated the most revenue?".

A breakdown table prints one row per region, segment or product. Two shapes: the entities are the rows and the
caption (or the rows' section) names the measure ("Net sales disaggregated by significant products": iPhone, Mac,
…, Total net sales); or each entity is a section whose rows hold the measures ("Americas: / Net sales /
Operating income"). The answer is the entity whose cell, in the period asked (else the latest), is the largest
(or smallest), totals left out, with every entity's figure shown and the rows quoted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from chat.models.reader.compose import header_lines, period_phrase, spoken_value
from chat.models.reader.evidence import column_period_score, latest_column, period_key
from chat.models.reader.passage import Passage
from chat.models.reader.periods import find_periods
from chat.models.reader.question import Question, analyze
from chat.models.reader.tables import Row, Table, find_tables
from chat.models.reader.text import match_terms
from chat.models.reader.units import table_unit

_SUPERLATIVE = re.compile(
    r"^\s*(?:which|what)\s+(?P<what>[a-z][\w\s-]{0,40}?)\s+"
    r"(?:had|has|have|was|were|is|are|saw|showed|generated|reported|recorded|made|earned|brought\s+in|"
    r"contributed|posted|delivered)\s+(?:the\s+)?"
    r"(?P<dir>highest|largest|biggest|greatest|most|lowest|smallest|least|fewest)\s+(?P<measure>[^?]+?)\s*\??\s*$",
    re.IGNORECASE,
)
_LOW = {"lowest", "smallest", "least", "fewest"}
#: the words a table's caption may use for the kind of entity asked about
_ENTITY_WORDS = {
    "region": ("region", "geograph", "segment", "countr", "area", "market"),
    "segment": ("segment", "region", "geograph", "business", "division"),
    "product": ("product", "categor", "service", "line"),
    "category": ("categor", "product", "service"),
    "country": ("countr", "geograph", "region"),
    "business": ("business", "segment", "division"),
    "division": ("division", "segment", "business"),
}
#: what a breakdown by that kind of entity is called in a filing ("net sales by reportable segment")
_ENTITY_QUERY = {"region": ("reportable segment", "geographic"), "segment": ("reportable segment",),
                 "product": ("category", "products and services"), "category": ("category",),
                 "country": ("geographic",)}
_TOTAL = re.compile(r"(?i)^\s*(?:total|consolidated|all\s+other|other|eliminations?|corporate)\b")


@dataclass(frozen=True, slots=True)
class Superlative:
    what: str  # "region"
    low: bool  # lowest / smallest
    measure: str  # "net sales"


def superlative(question: str) -> Superlative | None:
    """The parts of a "which X had the highest Y" question (English), or None."""
    m = _SUPERLATIVE.match(question)
    if m is None:
        return None
    what = " ".join(m.group("what").lower().split())
    measure = " ".join(m.group("measure").split())
    if not match_terms(measure):
        return None
    return Superlative(what, m.group("dir").lower() in _LOW, measure)


def _entity_fits(what: str, table: Table) -> bool:
    words = _ENTITY_WORDS.get(what.split()[-1].rstrip("s"), ())
    caption = table.caption.lower()
    return not words or any(w in caption for w in words)


def _column(q: Question, table: Table, cols: list[int]) -> int:
    if q.periods:
        return max(cols, key=lambda c: (column_period_score(q, table, c), -c))
    return latest_column(table, cols, q.span)


def _entities(table: Table, measure: set[str]) -> list[tuple[str, Row]]:
    """(entity, its row of the measure) of a breakdown table, totals left out; empty when it is none."""
    sections = [r for r in table.rows if r.section and measure <= match_terms(r.label)
                and not measure & match_terms(r.section)]
    if sections:  # "Americas: / Net sales" … (a chunk may hold one section of the table: merged later)
        return [(r.section.rstrip(":"), r) for r in sections if not _TOTAL.match(r.section)]
    caption = match_terms(table.caption)
    rows = [r for r in table.rows if measure <= (caption | match_terms(r.section)) and not _TOTAL.match(r.label)
            and not measure & match_terms(r.label)]
    return [(r.label, r) for r in rows] if len(rows) >= 2 else []


def _measure_words(measure: str) -> str:
    """The measure without the period the question puts after it ("net sales in the three months ended …")."""
    for period in sorted(find_periods(measure), key=lambda p: -p.start):
        if 0 <= period.start < period.end:
            measure = measure[: period.start] + measure[period.end :]
    measure = re.sub(r"(?i)\b(?:in|for|during|of|as of|at)\s*(?:the\s+)?(?:(?:three|six|nine|twelve)\s+months|"
                     r"(?:fiscal\s+)?(?:quarter|year|period))?\s*(?:ended|ending)?\s*$", "", measure.strip())
    return " ".join(measure.split()) or measure


@dataclass
class _Found:
    passage: Passage
    table: Table
    col: int
    rank: int
    entities: dict[str, tuple[Passage, Row]]


def _candidates(q: Question, measure: set[str], passages: Sequence[Passage]) -> list[_Found]:
    """Every breakdown of the measure among the passages; a table the chunking cut in two (same document, page
    and columns) is one again."""
    out: dict[tuple[str, int, tuple[str, ...]], _Found] = {}
    for rank, p in enumerate(passages):
        for table in find_tables(p.text):
            entities = _entities(table, measure)
            cols = [c for c, col in enumerate(table.columns) if not col.is_change]
            if not entities or not cols:
                continue
            col = _column(q, table, cols)
            key = (p.document_id or p.ref, p.page, tuple(c.header for c in table.columns))
            found = out.setdefault(key, _Found(p, table, col, rank, {}))
            for name, row in entities:
                if row.amount(col) is not None:
                    found.entities.setdefault(name, (p, row))
    return [f for f in out.values() if len(f.entities) >= 2]


def _best(q: Question, asked: Superlative, passages: Sequence[Passage]) -> _Found | None:
    measure_text = _measure_words(asked.measure)
    focus = analyze(f"What was {measure_text}?").focus_terms
    measure = set(focus) if focus else match_terms(measure_text)
    found = _candidates(q, measure, passages)
    if not found:
        return None

    def rank_key(f: _Found) -> tuple[bool, float, tuple[int, int, int], int, int]:
        # the kind of entity asked, the period asked, else the latest (its page is read: a hit may hold only some
        # of the rows), then the fullest
        asked_period = column_period_score(q, f.table, f.col) if q.periods else 0.0
        return (_entity_fits(asked.what, f.table), asked_period,
                period_key(f.table.columns[f.col].periods) or (0, 0, 0), len(f.entities), -f.rank)

    return max(found, key=rank_key)


def later_query(question: str, passages: Sequence[Passage]) -> str:
    """No period asked, and another document among the results has later figures than the breakdown found (the
    later 10-Q's segment note ranked below the earlier one's): the breakdown searched again in that period's
    words ("net sales by region … July 1, 2023"), or ``""``."""
    asked = superlative(question)
    q = analyze(question)
    if asked is None or q.periods:
        return ""
    best = _best(q, asked, passages)
    if best is None:
        return ""
    have = period_key(best.table.columns[best.col].periods) or (0, 0, 0)
    later: tuple[tuple[int, int, int], str] | None = None
    for p in passages:
        if p.document_id == best.passage.document_id:
            continue
        for table in find_tables(p.text):
            for column in table.columns:
                key = period_key(column.periods)
                if key is not None and key > have and (later is None or key > later[0]):
                    dated = [x for x in column.periods if x.year and x.month]
                    if dated:
                        later = (key, max(dated, key=lambda x: (x.year or 0, x.month or 0, x.day or 0)).text)
    return _breakdown_query(asked, _measure_words(asked.measure), later[1]) if later is not None else ""


def _breakdown_query(asked: Superlative, measure: str, period: str = "") -> str:
    words = " ".join(_ENTITY_QUERY.get(asked.what.split()[-1].rstrip("s"), ()))
    return " ".join(f"{measure} by {asked.what} {words} {period}".split())


def search_query(question: str) -> str:
    """The breakdown's search: "net sales by region reportable segment geographic"."""
    asked = superlative(question)
    return _breakdown_query(asked, asked.measure) if asked is not None else ""


def pages_to_read(question: str, passages: Sequence[Passage]) -> list[tuple[str, int]]:
    """The page of the breakdown that answers (its whole table: a search hit may hold only some of its rows),
    unless that page was read already."""
    asked = superlative(question)
    if asked is None:
        return []
    best = _best(analyze(question), asked, passages)
    if best is None or not best.passage.document_id or not best.passage.page:
        return []
    read = {(p.document_id, p.page) for p in passages if p.ref.startswith("P")}
    where = (best.passage.document_id, best.passage.page)
    return [] if where in read else [where]


def highest(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The answer text and its quotes, or None when no breakdown table of the measure is among the passages."""
    asked = superlative(q.text)
    if asked is None or q.language != "en":
        return None
    best = _best(q, asked, passages)
    if best is None:
        return None
    measure_text = _measure_words(asked.measure)
    table, col = best.table, best.col

    def value(item: tuple[str, tuple[Passage, Row]]) -> float:
        amount = item[1][1].amount(col)
        return amount.value if amount is not None else 0.0

    ordered = sorted(best.entities.items(), key=value, reverse=not asked.low)
    unit = table_unit(table, col)
    top_name, (top_p, top_row) = ordered[0]
    top_amount = top_row.amount(col)
    assert top_amount is not None
    period = period_phrase(table, col, "en")
    word = "lowest" if asked.low else "highest"
    others = "; ".join(f"{name} {spoken_value(amount, unit, 'en')}" for name, (_, row) in ordered[1:]
                       if (amount := row.amount(col)) is not None)
    refs = "".join(dict.fromkeys(f"[{p.ref}]" for _, (p, _) in ordered))
    lead = (f"{top_name} had the {word} {measure_text}: {spoken_value(top_amount, unit, 'en')} {period} "
            f"[{top_p.ref}] (compared across the {len(ordered)} rows of the table {refs}; {others}).")
    lines = [" ".join(lead.split()), *("> " + line for line in header_lines(table, best.passage.text))]
    quotes = [(src.ref, src.text[row.line[0] : row.line[1]]) for _, (src, row) in ordered]
    lines += ["> " + text for _, text in quotes]
    return "\n".join(lines), quotes
