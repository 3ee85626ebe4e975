"""A line item over the years (pure): "Does Acme maintain a stable trend of dividend distribution?", "Has Acme's
revenue grown every year?", "How has Acme's capital expenditure trended over the years?".

The statement prints the line for each of its years ("Cash dividends declared per share | $5.44 | $4.70 | $4.44");
the answer gives every year's figure, latest first, and says how it moved — up each year, down each year, or both
ways — with the row quoted under its header. Only where the best evidence is that row (a table cell): a sentence
keeps the ordinary answer.
"""

from __future__ import annotations

import re
from itertools import pairwise

from chat.models.reader.compose import header_lines, period_phrase, spoken_value
from chat.models.reader.evidence import Evidence, period_key
from chat.models.reader.question import Question
from chat.models.reader.units import row_unit

#: the question asks how the line moved over the years, not one year's figure
_ASKED = re.compile(r"(?i)\b(?:stable|steady|steadily|consistent(?:ly)?|trend(?:ed|s|ing)?|every\s+year|each\s+year|"
                    r"year\s+after\s+year|over\s+the\s+(?:past|last)?\s*(?:\w+\s+)?years|historically)\b")
#: a ratio's steadiness is the ratios module's ("gross margins historically consistent")
_RATIO = re.compile(r"(?i)\bmargins?\b|\bratio\b|\bpercent(?:age)?\b|%|\bturnover\b|\breturn\s+on\b")
#: fewest years a trend is told over
FEWEST_YEARS = 3


#: the words of the question that ask about the move, not name the line ("maintain a stable trend of", "grown every
#: year", "trended over the years")
_MOVE_WORDS = re.compile(r"(?i)\b(?:does|do|did|has|have|is|are|how|maintain(?:s|ed)?|kept|keep|a|an|the|stable|steady|"
                         r"steadily|consistent(?:ly)?|trend(?:ed|s|ing)?|of|in|its|grown|grow|grew|risen|rise|rose|"
                         r"increas\w*|decreas\w*|fall(?:en)?|fell|declin\w*|every|each|after|over|past|last|years?|"
                         r"historically)\b")


def item_question(q: Question) -> str:
    """The line item the question asks the trend of, asked as a plain value question ("What was 3M's dividend
    distribution?"), for finding its row."""
    text = q.text
    for name in q.names:
        text = re.sub(rf"{re.escape(name)}['’]?s?", " ", text)
    item = " ".join(_MOVE_WORDS.sub(" ", text.rstrip("?")).split())
    owner = f"{q.names[0]}'s " if q.names else ""
    return f"What was {owner}{item}?"


def asks_year_trend(q: Question) -> bool:
    return q.language == "en" and bool(_ASKED.search(q.text)) and not _RATIO.search(q.text)


def year_trend_answer(q: Question, best: Evidence) -> tuple[str, list[tuple[str, str]]] | None:
    """Every year's figure of the best evidence's row and how it moved, or None (not a row, too few years)."""
    if not asks_year_trend(q) or best.kind != "cell" or best.table is None or best.row is None:
        return None
    table, row = best.table, best.row
    span = table.columns[best.col].span
    years: dict[tuple[int, int, int], int] = {}
    for c, column in enumerate(table.columns):
        key = period_key(column.periods)
        if column.is_change or key is None or column.span != span or row.amount(c) is None:
            continue
        years.setdefault(key, c)
    if len(years) < FEWEST_YEARS:
        return None
    cols = [years[k] for k in sorted(years, reverse=True)]  # latest first
    values = []
    for c in cols:
        amount = row.amount(c)
        assert amount is not None
        values.append(amount.value)
    oldest_first = values[::-1]
    steps = [b - a for a, b in pairwise(oldest_first)]
    if all(s > 0 for s in steps):
        moved = "it rose every year"
    elif all(s < 0 for s in steps):
        moved = "it fell every year"
    elif all(s == 0 for s in steps):
        moved = "it was the same every year"
    elif all(s >= 0 for s in steps):
        moved = "it never fell"
    elif all(s <= 0 for s in steps):
        moved = "it never rose"
    else:
        moved = "it moved both ways"
    label = f"{row.section} {row.label}".strip() if row.section else row.label
    unit = row_unit(table, best.col, label, row.label)
    said = []
    for c in cols:
        amount = row.amount(c)
        assert amount is not None
        said.append(f"{spoken_value(amount, unit, 'en')} {period_phrase(table, c, 'en')}")
    label = " ".join(row.label.split())
    lead = f"{label}: {'; '.join(said)} — {moved} over the {len(cols)} years the table prints [{best.passage.ref}]."
    lines = [lead, *("> " + line for line in header_lines(table, best.passage.text)), "> " + best.quote_text]
    return "\n".join(lines), [(best.passage.ref, best.quote_text)]


def year_trend_query(question: str) -> str:
    """The line's row over several years, searched for where a filing prints it so: "3M dividend distribution
    selected financial data"."""
    from chat.models.reader.question import analyze

    q = analyze(question)
    if not asks_year_trend(q):
        return ""
    item = item_question(q).removeprefix("What was ").rstrip("?")
    return f"{item} selected financial data five-year summary"
