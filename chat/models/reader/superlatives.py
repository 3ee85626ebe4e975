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
from dataclasses import dataclass, field, replace

from chat.models.reader.compose import header_lines, period_phrase, spoken_value
from chat.models.reader.evidence import column_period_score, latest_column, of_named, passage_tables, period_key
from chat.models.reader.numbers import Unit, all_amounts
from chat.models.reader.passage import Passage
from chat.models.reader.periods import find_periods
from chat.models.reader.question import Question, analyze
from chat.models.reader.ratios import without_periods
from chat.models.reader.tables import Row, Table, across_sections, find_tables
from chat.models.reader.text import header_terms, match_terms
from chat.models.reader.units import table_unit

_SUPERLATIVE = re.compile(
    r"^\s*(?:which|what)\s+(?:one\s+)?(?:of\s+(?:the\s+)?(?:[\w.&,\s-]{1,40}?['’]s?\s+)?)?"
    r"(?P<what>[a-z][\w\s-]{0,40}?)\s+"
    r"(?:had|has|have|was|were|is|are|saw|showed|generated|reported|recorded|made|earned|brought\s+in|"
    r"contributed|posted|delivered|received|attracted|represented|accounted\s+for|held|took|drew)\s+(?:the\s+)?"
    r"(?P<dir>highest|largest|biggest|greatest|most|lowest|smallest|least|fewest|"
    # "Which of Acme's two segments had the higher net sales?": of two, the higher is the highest
    r"higher|larger|bigger|greater|lower|smaller)\s+(?P<measure>[^?]+?)\s*\??\s*$",
    re.IGNORECASE,
)
_LOW = {"lowest", "smallest", "least", "fewest", "lower", "smaller"}
#: a comparative's superlative, said in the answer
_SUPERLATIVE_OF = {"higher": "highest", "larger": "largest", "bigger": "biggest", "greater": "greatest",
                   "lower": "lowest", "smaller": "smallest"}
#: "For Acme, which region …": the company named before the question's own words
_OPENING = re.compile(r"(?i)^\s*(?:for|at|in|within)\s+[^,?]{1,60},\s*")
#: the measure's change asked ("drop in revenues", "percentage increase in net sales")
_CHANGE = re.compile(r"(?i)^(?:(?:percentage|percent|%|relative|absolute)\s+)?(?P<word>drop|decline|decrease|fall|"
                     r"reduction|increase|growth|rise|gain|jump|improvement)s?\s+(?:in|of)\s+(?P<rest>.+)$")
_DROPS = ("drop", "decline", "decrease", "fall", "reduction")
#: words of the change's basis, not of the measure: "year over year", "(on a percentage basis)"
_ASIDE = re.compile(r"(?i)\([^)]*\)|\byear[- ]over[- ]year\b|\byoy\b|\bon\s+a\s+\w+\s+basis\b")
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
#: a row of a class of customers ("U.S. customers", "Non-U.S. customers"): a split of one segment's revenue by
#: where its customers are, no segment, region or product of the company's
_CUSTOMERS = re.compile(r"(?i)\bcustomers?\b")
#: a row that reconciles the entities' figures to the company's, no entity of its own: "Pension FAS/CAS service
#: cost adjustment", "Unallocated items, eliminations and other", "Allocated to business segments"
_RECONCILING = re.compile(r"(?i)\b(?:adjustments?|(?:un)?allocated|eliminations?|reconcil\w*|inter-?segment)\b")
#: a row of rates, not amounts: "Constant Currency Growth %", "FX %" ("Emerging Growth Businesses" is a segment)
_RATE_ROW = re.compile(r"(?i)%|\bpercent(?:age)?\b|\bbps\b")
#: a measure that is a loss ("loss from operations", "net losses"), not the earnings it is the negative of
_LOSS_MEASURE = re.compile(r"(?i)\bloss(?:es)?\b")
_GAIN_WORDS = re.compile(r"(?i)\b(?:income|earnings|profits?|gains?)\b")
#: rounding the entities' sum may exceed their total by
TOTAL_SLACK = 1.02
_TOTAL = re.compile(r"(?i)^\s*(?:total|consolidated|all\s+other|other|eliminations?|"
                    r"corporate(?!\s+(?:bonds?|notes?|debt|securities|loans?|debentures?)\b))\b")


@dataclass(frozen=True, slots=True)
class Superlative:
    what: str  # "region"
    low: bool  # lowest / smallest
    measure: str  # "net sales"
    change: str = ""  # "drop" / "rise": the change of the measure is compared, not the measure
    direction: str = ""  # the question's word: "biggest", "largest", …
    change_word: str = ""  # the question's word: "drop", "increase", …
    among: str = ""  # "… among the short-term investments": the rows of that group only (a section's or caption's)
    excluded: str = ""  # "excluding Space, …": a row left out of the comparison
    outlier: bool = False  # "Were there any nominees who had substantially more votes against than the others?"


#: "Were there any board nominees who had substantially more votes against (joining) than the other nominees?",
#: "Did any segment have far lower sales than the others?": whether the top row stands apart from the rest
_OUTLIER = re.compile(
    r"^\s*(?:(?:were|was|is|are)\s+there\s+any|did\s+any|do\s+any|does\s+any|has\s+any|have\s+any)\s+"
    r"(?P<what>[a-z][\w\s&.'’-]{0,60}?)\s+(?:(?:who|that|which)\s+)?(?:had|has|have|received|receive|got|get|saw|see|"
    r"showed|show|drew|draw|recorded|record|reported|report|generated|generate|earned|earn)\s+(?:a\s+)?"
    r"(?:(?:substantially|significantly|much|many|far|notably|considerably|materially|markedly|a\s+lot)\s+)?"
    r"(?P<dir>more|fewer|less|higher|lower|larger|smaller|greater|bigger)\s+(?P<measure>[^?]+?)\s+than\s+"
    r"(?:(?:all|any|each)\s+(?:of\s+)?)?(?:the\s+)?(?:other|others|rest)\b[^?]*\??\s*$",
    re.IGNORECASE,
)
#: the top row stands apart when it is at least this many times the next one (or, lowest asked, at most its
#: inverse)
OUTLIER_RATIO = 1.5
#: a verb left at the measure's end ("votes against joining"): what the measure was for, no word of its column
_MEASURE_VERB = re.compile(r"(?i)\s+\w+ing\b.*$")


#: "(From FY2021 to FY2022,) (excluding Space,) in which segment did net sales proportionally increase the most?"
_DID_MOST = re.compile(
    r"^\s*(?:from\s+[^,?]{2,40}?\s+(?:to|through)\s+[^,?]{2,20},\s*)?(?:(?:excluding|except(?:\s+for)?|other\s+than)\s+"
    r"(?P<excluded>[^,?]{2,40}),\s*)?in\s+(?:which|what)\s+(?P<what>[\w\s&.'’-]{1,60}?)\s+did\s+(?P<measure>[^?]+?)\s+"
    r"(?:(?P<relative>proportionally|relatively|in\s+percentage\s+terms)\s+)?(?P<word>increase|grow|rise|decrease|"
    r"decline|drop|fall)\s+(?:the\s+)?(?P<dir>most|least)\b[^?]*\??\s*$",
    re.IGNORECASE,
)
#: "From FY2021 to FY2022, excluding Space, in which …": a row the question leaves out, wherever it says so
_EXCLUDING = re.compile(r"(?i)\b(?:excluding|except(?:\s+for)?|other\s+than)\s+(?P<excluded>[^,?]{2,40})")


def _did_most(question: str) -> Superlative | None:
    """"In which segment did net sales proportionally increase the most?": the rows' change compared."""
    m = _DID_MOST.match(question)
    if m is None:
        return None
    measure = _bare_measure(m.group("measure"))
    if not match_terms(measure):
        return None
    word = m.group("word").lower()
    drop = word.startswith(("decrease", "decline", "drop", "fall"))
    least = m.group("dir").lower() == "least"
    return Superlative(" ".join(m.group("what").lower().split()), least, measure, "drop" if drop else "rise",
                       "smallest" if least else "largest", {"grow": "growth", "rise": "rise", "fall": "fall"}.get(
                           word, word), excluded=(m.group("excluded") or "").strip())


def _outlier(question: str) -> Superlative | None:
    """"Were there any nominees who had substantially more votes against than the other nominees?": the rows
    compared, and whether the top one stands apart."""
    m = _OUTLIER.match(question)
    if m is None:
        return None
    measure = _bare_measure(m.group("measure"))
    bare = _MEASURE_VERB.sub("", measure)  # "votes against joining": the votes against
    measure = bare if match_terms(bare) else measure
    if not match_terms(measure):
        return None
    low = m.group("dir").lower() in ("fewer", "less", "lower", "smaller")
    return Superlative(" ".join(m.group("what").lower().split()), low, measure,
                       direction="lowest" if low else "highest", outlier=True)


def superlative(question: str) -> Superlative | None:
    """The parts of a "which X had the highest Y" question (English), or None."""
    m = _SUPERLATIVE.match(_OPENING.sub("", question))
    if m is not None and m.group("dir").lower() in _SUPERLATIVE_OF and re.search(r"(?i)\bor\b", m.group("measure")):
        m = None  # "… the higher revenue, Commercial Airplanes or Defense?": two options named, compared as such
    if m is None:
        return _did_most(question) or _outlier(question)
    # "which segment of Lockheed Martin …": the kind of entity, not whose ("type of security" stays)
    what = re.sub(r"\s+(?:of|at|for|within)\s+[A-Z].*$", "", " ".join(m.group("what").split())).lower()
    measure = " ".join(_EXCLUDING.sub(" ", m.group("measure")).split()).rstrip(" ,")
    among = ""
    if (group := _AMONG.search(measure)) is not None:  # "the largest investment among the short-term investments"
        measure = measure[: group.start()]
        among = _bare_measure(_POSSESSIVE_NAME.sub("", group.group("group")))  # "MGM's short-term investments"
    change = _CHANGE.match(measure)
    if change is not None:  # "the biggest drop in Q2 2023 year over year revenues (on a percentage basis)"
        measure = " ".join(_ASIDE.sub(" ", change.group("rest")).split())
    measure = _bare_measure(measure)
    if not match_terms(measure):
        return None
    kind = ("drop" if change.group("word").lower().startswith(_DROPS) else "rise") if change is not None else ""
    excluding = _EXCLUDING.search(question)
    direction = m.group("dir").lower()
    return Superlative(what, direction in _LOW, measure, kind, _SUPERLATIVE_OF.get(direction, direction),
                       change.group("word").lower() if change is not None else "", among,
                       excluding.group("excluded").strip() if excluding else "")


#: "… among (all of) the short-term investments": the group whose rows are compared
_AMONG = re.compile(r"(?i)\s+among\s+(?:all\s+(?:of\s+)?)?(?:the\s+|its\s+|their\s+)?(?P<group>.+)$")
#: what a measure is said with that names no part of it: "the highest EBITDAR contribution" is the highest EBITDAR
_CONTRIBUTION = re.compile(r"(?i)\bcontributions?\b")
#: "… for MGM", "… of Acme Corp": the company a measure is asked of, after it
_OF_NAME = re.compile(r"\s+(?:for|of|at|by)\s+(?:the\s+)?[A-Z][\w&.'’-]*(?:\s+[A-Z][\w&.'’-]*)*")
_DANGLING = re.compile(r"(?i)(?:\s+(?:for|of|at|in|during|by|over|the|a|an|and|as))+\s*$")


def _bare_measure(measure: str) -> str:
    """The measure without the periods and the company it is asked of ("Q22023 revenues" → "revenues",
    "EBITDAR Contribution for MGM during FY2022" → "EBITDAR") — the words its rows are named with."""
    measure = _OF_NAME.sub(" ", _CONTRIBUTION.sub(" ", without_periods(measure)))
    return " ".join(_DANGLING.sub("", " ".join(measure.split())).split())


#: words of a place: a region's, a country's row ("North America", "Greater China", "EMEA", "Rest of World")
_PLACE = re.compile(
    r"(?i)\b(?:america[s]?|north\w*|south\w*|east\w*|west\w*|central|europe\w*|asia\w*|pacific|africa\w*|middle\s+east|china|"
    r"japan|india|latin|emea|apac|apj|amer|international|domestic|u\.?\s?s\.?|united\s+(?:states|kingdom)|"
    r"canada|mexico|brazil|germany|france|korea|australia|world|global|countr\w+|regions?|markets?|"
    r"overseas|foreign|emerging|developed)\b")
#: the kinds of entity that are places
_PLACES_ASKED = ("region", "country", "geograph", "area", "market")


def _places_fit(what: str, found: _Found) -> bool:
    """A breakdown by place asked ("Which region …"): its caption says so, or a row names a place — a product
    breakdown ("Footwear", "Apparel", "Equipment") is none. Any breakdown fits any other kind asked."""
    if not what or not what.split()[-1].startswith(_PLACES_ASKED):
        return True
    return _entity_fits(what, found.table) or any(_PLACE.search(n) for n in found.entities)


def _entity_fits(what: str, table: Table) -> bool:
    words = _ENTITY_WORDS.get(what.split()[-1].rstrip("s"), ())
    caption = table.caption.lower()
    return not words or any(w in caption for w in words)


def _column(q: Question, table: Table, cols: list[int]) -> int:
    if q.periods:
        return max(cols, key=lambda c: (column_period_score(q, table, c), -c))
    return latest_column(table, cols, q.span)


#: a row's words beside the measure's that name no part of it: "Segment operating profit", "Reportable segment net
#: revenues" (a total across the entities), "Total net sales"
_TOTAL_WORDS = frozenset({"segment", "segments", "reportable", "total", "§1", "consolidated"})
#: a column of shares, changes or rates, not of the amount ("Percent of Total", "% change", "Impact of Foreign
#: Currency Exchange")
_NOT_AMOUNT_HEADER = re.compile(r"(?i)percent|%|\bchange\b|\bimpact\b|\bgrowth\b|\bbps\b|\bratio\b|\bmargin\b")
#: a measure that is itself a share or a rate ("gross margin", "growth rate", "percentage change in net sales")
_RATE_MEASURE = re.compile(r"(?i)percent|%|\bchange\b|\bgrowth\b|\brate\b|\bratio\b|\bmargin\b|\bshare\b")


def _section_totals(table: Table, measure: set[str]) -> list[tuple[str, Row]]:
    """Each section's row of the measure ("Americas: / Net sales"), or where its labelled rows are parts of it
    ("Las Vegas Strip Resorts: / Casino revenue / Rooms / … / (unlabelled total)", under a caption that names the
    measure) the section's first unlabelled row: its total. A row naming the measure with words of its own
    ("Casino revenue") is a part; one with a total's words ("Reportable segment net revenues") is no entity's."""
    by_section: dict[str, list[Row]] = {}
    for r in table.rows:
        if r.section and not measure & match_terms(r.section) and not _TOTAL.match(r.section):
            by_section.setdefault(r.section, []).append(r)
    captioned = measure <= match_terms(table.caption)
    out: list[tuple[str, Row]] = []
    for section, rows in by_section.items():
        own = [r for r in rows if measure <= (terms := match_terms(r.label)) and not terms - measure]
        if own:
            out.append((section.rstrip(":"), own[0]))
            continue
        if not captioned or not any(measure <= match_terms(r.label) for r in rows):
            continue
        total = next((r for i, r in enumerate(rows) if not r.label.strip() and i > 0), None)
        if total is not None:
            out.append((section.rstrip(":"), total))
    return out


def _entities(table: Table, measure: set[str]) -> list[tuple[str, Row]]:
    """(entity, its row of the measure) of a breakdown table, totals left out; empty when it is none."""
    named = [r for r in table.rows if r.section and measure <= match_terms(r.label)
             and not measure & match_terms(r.section)
             and not (match_terms(r.label) - measure) & _TOTAL_WORDS]
    if named:  # "Americas: / Net sales" … (a chunk may hold one section of the table: merged later)
        return _section_totals(table, measure)
    caption = match_terms(table.caption)
    # (a row under another measure's heading — "Net sales: / Aeronautics" where the caption says "Sales and
    # operating profit …" — is that measure's)
    rows = [r for r in table.rows if measure <= (caption | match_terms(r.section)) and not _TOTAL.match(r.label)
            and not measure & match_terms(r.label) and r.label.strip() and not _another_measures(r.section, measure)]
    if len(rows) < 2 and (any(measure <= header_terms(c.header) for c in table.columns)
                          or _partial_column(table, measure) is not None):
        # the measure is a column's ("2018 / Net Sales | 2018 / Oper. Income"): the rows are the entities
        rows = [r for r in table.rows if r.label.strip() and not _TOTAL.match(r.label)
                and not measure & match_terms(r.label)]
    return [(r.label, r) for r in rows] if len(rows) >= 2 else []


def _another_measures(section: str, measure: set[str]) -> bool:
    """A row's section heading names a line item other than the measure ("Net sales:" for operating profit)."""
    heading = match_terms(section)
    return any(t.startswith("§") for t in heading) and not measure & heading


def _partial_column(table: Table, measure: set[str], cols: Sequence[int] | None = None) -> int | None:
    """A column that names part of the measure, its other words said above the table ("Against" under "Submission
    of Matters to a Vote"): the one with most of the measure's words and fewest others, when it is one."""
    heads = {c: header_terms(table.columns[c].header)
             for c in (range(len(table.columns)) if cols is None else cols) if not table.columns[c].is_change}
    keys = {c: (len(h & measure), -len(h - measure)) for c, h in heads.items() if h & measure}
    if not keys:
        return None
    top = max(keys.values())
    best = [c for c, key in keys.items() if key == top]
    return best[0] if len(best) == 1 else None


def _value_columns(table: Table, measure: set[str], rate: bool) -> list[int]:
    """The columns that may hold the measure: not a change; a column that names the measure where some do; not a
    share or a rate when an amount is asked."""
    cols = [c for c, col in enumerate(table.columns) if not col.is_change
            and (rate or not _NOT_AMOUNT_HEADER.search(col.header))]
    named = [c for c in cols if measure <= header_terms(table.columns[c].header)]
    if named:
        return named
    partial = _partial_column(table, measure, cols)
    if partial is not None:
        return [partial]
    # a column that names another line item ("Net Sales" beside the operating income asked) is that item's
    return [c for c in cols if not {t for t in header_terms(table.columns[c].header) if t.startswith("§")} - measure]


def _single(row: Row, col: int, rate: bool) -> bool:
    """The row's cell holds one figure (not two columns run together) — and, an amount asked, no percentage."""
    cell = row.cells[col] if 0 <= col < len(row.cells) else ""
    found = all_amounts(cell)
    return len(found) == 1 and (rate or not found[0][2].percent)


def _measure_words(measure: str) -> str:
    """The measure without the period the question puts after it ("net sales in the three months ended …")."""
    for period in sorted(find_periods(measure), key=lambda p: -p.start):
        if 0 <= period.start < period.end:
            measure = measure[: period.start] + measure[period.end :]
    measure = re.sub(r"(?i)\b(?:in|for|during|of|as of|at)\s*(?:the\s+)?(?:(?:three|six|nine|twelve)\s+months|"
                     r"(?:fiscal\s+)?(?:quarter|year|period))?\s*(?:ended|ending)?\s*$", "", measure.strip())
    # "… EBITDAR Contribution for Acme": the company asked about, and the share word, are no part of the measure
    measure = re.sub(r"\s+(?:for|of|at|by)\s+(?:[A-Z0-9][\w&.'’-]*\s*)+$", "", measure.strip())
    measure = re.sub(r"(?i)\s+(?:contributions?|share)$", "", measure.strip())
    return " ".join(measure.split()) or measure


@dataclass
class _Found:
    passage: Passage
    table: Table
    col: int
    rank: int
    entities: dict[str, tuple[Passage, Row]]
    change_col: int = -1  # the printed change ("% Change") of ``col``'s period, when a change is asked
    prior_col: int = -1  # else the earlier period's column the change is computed from
    # an entity the table prints under each part's heading ("Domestic: / Appliances", "International: /
    # Appliances"): the rows its figure is the sum of
    summed: dict[str, tuple[Row, ...]] = field(default_factory=dict)


#: the kinds of entity a table's part headings are ("Domestic:", "Las Vegas Strip Resorts:"): asked which of those
#: was highest, its rows are no sums across them
_PART_KINDS = re.compile(r"(?i)segment|region|geograph|division|market|countr|area|operations|business")


def _summed_row(rows: Sequence[Row], name: str) -> Row | None:
    """One row of the sums of ``rows``' cells, column by column (a column any of them leaves empty stays empty);
    None when no column holds all their figures."""
    cells: list[str] = []
    for c in range(len(rows[0].cells)):
        amounts = [r.amount(c) for r in rows]
        if any(a is None or a.percent for a in amounts):
            cells.append("")
            continue
        places = max(len(a.raw.split(".")[1]) if "." in a.raw else 0 for a in amounts if a is not None)
        cells.append(f"{sum(a.value for a in amounts if a is not None):,.{places}f}")
    return Row(name, "", tuple(cells), rows[0].line) if any(cells) else None


def _change_of(found: _Found, row: Row) -> float | None:
    """The row's change in percent: computed from the two periods' figures, else the printed change column's
    (a percentage: "% Change")."""
    if found.prior_col >= 0:
        now, before = row.amount(found.col), row.amount(found.prior_col)
        if now is None or before is None or before.value == 0:
            return None
        return (now.value - before.value) / abs(before.value) * 100
    cell = row.cells[found.change_col] if 0 <= found.change_col < len(row.cells) else ""
    amounts = all_amounts(cell)
    return amounts[0][2].value if len(amounts) == 1 and not amounts[0][2].currency else None


def _change_columns(table: Table, col: int, values: list[int]) -> tuple[int, int]:
    """(-1, the earlier period's column of ``col``'s group), else (the printed percentage change column of the
    group, -1), else (-1, -1)."""
    own = {x.text for x in table.columns[col].periods}
    for c in range(col + 1, len(table.columns)):
        if own and {x.text for x in table.columns[c].periods} == own:
            break  # the next group's column of the same period ("2023 | 2022 | Change | 2023 …"): not this one's
        if table.columns[c].is_change:
            return (c, -1) if "%" in table.columns[c].header else (-1, -1)
        earlier, this = period_key(table.columns[c].periods), period_key(table.columns[col].periods)
        if c in values and earlier is not None and this is not None and earlier < this:
            return -1, c
    return -1, -1


def _total_row(table: Table, col: int) -> Row | None:
    """The table's own "Total …" row with a positive figure in ``col``, or None."""
    return next((r for r in table.rows if re.match(r"(?i)\s*total\b", r.label)
                 and (a := r.amount(col)) is not None and a.value > 0), None)


def _more_than_total(found: _Found) -> bool:
    """The entities' figures add up to more than the table's own total: the rows mix a group with its members
    ("Biopharma" above "Vaccines" above "Prevnar family"), not one breakdown's entities."""
    row = _total_row(found.table, found.col)
    amount = row.amount(found.col) if row is not None else None
    total = amount.value if amount is not None else None
    values = [a.value for _, row in found.entities.values() if (a := row.amount(found.col)) is not None]
    return total is not None and all(v >= 0 for v in values) and sum(values) > TOTAL_SLACK * total


def _candidates(q: Question, measure: set[str], passages: Sequence[Passage], rate: bool,
                what: str = "", change: bool = False, fewest: int = 2, among: frozenset[str] = frozenset()) \
        -> list[_Found]:
    """Every breakdown of the measure among the passages; a table the chunking cut in two (same document, page
    and columns) is one again. ``among``: only the rows of the group so named (their section's or the caption's
    words)."""
    out: dict[tuple[str, int, tuple[str, ...]], _Found] = {}
    for rank, (p, tables) in enumerate(zip(passages, passage_tables(passages), strict=True)):
        for table in tables:
            entities = _entities(table, measure)
            if not entities and table.header is not None and table.rows and not _PART_KINDS.search(what):
                # "| Revenue by product category | | |" above "Domestic: / …": a heading row the grid's sections
                # replace, its words the caption a page read from its grid lacks (a segment asked: the rows under
                # "Net revenue / Las Vegas Strip Resorts" are that segment's parts, no entity asked)
                above = " ".join(re.sub(r"[|:\-]+", " ", p.text[table.header[1] : table.rows[0].line[0]]).split())
                if above and measure <= match_terms(above):
                    entities = _entities(replace(table, caption=f"{table.caption} {above}"), measure)
            cols = _value_columns(table, measure, rate)
            if not entities or not cols:
                continue
            col = _column(q, table, cols)
            change_col, prior_col = _change_columns(table, col, cols) if change else (-1, -1)
            if change and change_col < 0 and prior_col < 0:
                continue
            key = (p.document_id or p.ref, p.page, tuple(c.header for c in table.columns))
            found = out.setdefault(key, _Found(p, table, col, rank, {}, change_col, prior_col))
            for name, row in entities:
                if among and not among <= match_terms(row.section) | match_terms(table.caption):
                    continue  # "among the short-term investments": not a cash equivalent's row
                if _RECONCILING.search(f"{row.section} {name}") and not _RECONCILING.search(q.text):
                    continue  # "Pension FAS/CAS service cost adjustment", "Unallocated items": no segment's row
                by_customer = bool(_CUSTOMERS.search(f"{name} {row.section}"))
                held = _change_of(found, row) is not None if change else _single(row, col, rate)
                if not rate and not change and _RATE_ROW.search(f"{row.section} {row.label}"):
                    held = False  # "Constant Currency Growth %", "FX %": a rate's row, no amount of the measure
                if held and (not by_customer or _CUSTOMERS.search(what)):
                    namesakes = across_sections(table, row, set(q.terms)) \
                        if row.section and not _PART_KINDS.search(what) else None
                    if namesakes is not None:  # "Domestic: / Appliances" and "International: / Appliances"
                        summed = _summed_row(namesakes, name)
                        if summed is None:
                            continue
                        found.entities[name] = (p, summed)
                        found.summed[name] = tuple(namesakes)
                    else:
                        found.entities.setdefault(name, (p, row))
    for f in out.values():
        # the parts the sums are across ("Domestic", "International" of "Revenue by reportable segment") are
        # another breakdown than the one summed
        parts = {frozenset(match_terms(r.section.rstrip(" :"))) for rows in f.summed.values() for r in rows}
        for name in [n for n in f.entities if frozenset(match_terms(n)) in parts]:
            del f.entities[name]
    # (sums across the parts add up to more than the first part's total: no mix of a group with its members)
    return [f for f in out.values() if len(f.entities) >= fewest and (change or f.summed or not _more_than_total(f))]


def _measure_terms(measure_text: str) -> set[str]:
    """The measure's terms as a question's item ("votes against" → vote, against)."""
    focus = analyze(f"What was {measure_text}?").focus_terms
    return set(focus) if focus else match_terms(measure_text)


def _best(q: Question, asked: Superlative, passages: Sequence[Passage], fewest: int = 2) -> _Found | None:
    measure_text = _measure_words(asked.measure)
    measure = _measure_terms(measure_text)
    if asked.among:  # "the largest balance among the short-term investments": the group's rows, by its amounts
        measure = match_terms(asked.among)
    # the named company's tables only ("Which of Pfizer's products …": not another filing's among the results)
    own = of_named(q, passages, every_name=True)
    found = _candidates(q, measure, own or list(passages), bool(_RATE_MEASURE.search(measure_text)), asked.what,
                        bool(asked.change), fewest, frozenset(match_terms(asked.among)))
    found = [f for f in found if _places_fit(asked.what, f)]  # "which region": not the product breakdown
    if not found:
        return None

    def rank_key(f: _Found) -> tuple[bool, float, tuple[int, int, int], bool, int, int]:
        # the kind of entity asked, the period asked, else the latest (its page is read: a hit may hold only some
        # of the rows), then one that holds every part's rows (a chunk may hold the International rows alone),
        # then the fullest
        asked_period = column_period_score(q, f.table, f.col) if q.periods else 0.0
        return (_entity_fits(asked.what, f.table), asked_period,
                period_key(f.table.columns[f.col].periods) or (0, 0, 0), bool(f.summed), len(f.entities), -f.rank)

    chosen = max(found, key=rank_key)
    if q.periods and column_period_score(q, chosen.table, chosen.col) <= 0 \
            and any(column.periods for column in chosen.table.columns):
        # FY2022 asked: a breakdown of another period only ("three months ended June 30, 2023"); a table whose
        # columns say no period (a meeting's votes) is the document's own
        return None
    return chosen


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
    if asked.among:  # "short term investments by type of debt …": the group's rows are what is searched
        measure = asked.among if match_terms(measure) <= match_terms(asked.among) else f"{asked.among} {measure}"
    return " ".join(f"{measure} by {asked.what} {words} {period}".split())


def search_query(question: str) -> str:
    """The breakdown's search: "net sales by region reportable segment geographic", after the company it is asked
    of ("Pfizer revenues by …": a project of many companies' filings holds many breakdowns)."""
    asked = superlative(question)
    if asked is None:
        return ""
    names = " ".join(analyze(question).strong_names[:1])
    return " ".join(f"{names} {_breakdown_query(asked, asked.measure)}".split())


def pages_to_read(question: str, passages: Sequence[Passage]) -> list[tuple[str, int]]:
    """The page of the breakdown that answers (its whole table: a search hit may hold only some of its rows),
    unless that page was read already."""
    asked = superlative(question)
    if asked is None:
        return []
    # a search hit may hold one entity's section of the table only ("Harbor China: … (its total)"): its page too
    best = _best(analyze(question), asked, passages) or _best(analyze(question), asked, passages, fewest=1)
    if best is None or not best.passage.document_id or not best.passage.page:
        return []
    read = {(p.document_id, p.page) for p in passages if p.ref.startswith("P")}
    where = (best.passage.document_id, best.passage.page)
    return [] if where in read else [where]


def _changed_most(asked: Superlative, best: _Found, measure_text: str) -> tuple[str, list[tuple[str, str]]] | None:
    """"Which region had the biggest drop in revenues?": the rows ordered by their change in percent (the printed
    change column's, else computed from the two periods), the one asked first."""

    def change(item: tuple[str, tuple[Passage, Row]]) -> float:
        value = _change_of(best, item[1][1])
        return value if value is not None else 0.0

    # the biggest drop is the most negative change; the biggest rise the most positive; "smallest" turns each
    most_negative = (asked.change == "drop") != asked.low
    ordered = sorted(best.entities.items(), key=change, reverse=not most_negative)
    if (asked.change == "drop") != (change(ordered[0]) < 0):
        return None  # "the biggest drop" where every row rose (or "the largest increase" where all fell)

    def said(item: tuple[str, tuple[Passage, Row]]) -> str:
        return f"{change(item):+.1f}%".replace(".0%", "%")

    table = best.table
    basis = ("as printed in the table's change column" if best.change_col >= 0 else
             f"computed against {_said_period(table, best.prior_col).removeprefix('in ')}")
    top_name, (top_p, _) = ordered[0]
    others = "; ".join(f"{item[0]} {said(item)}" for item in ordered[1:])
    refs = "".join(dict.fromkeys(f"[{p.ref}]" for _, (p, _) in ordered))
    lead = (f"{top_name} had the {asked.direction} {asked.change_word} in {measure_text}: {said(ordered[0])} "
            f"{_said_period(table, best.col)} ({basis}) [{top_p.ref}] (compared across the {len(ordered)} rows of "
            f"the table {refs}; {others}).")
    lines = [" ".join(lead.split()), *("> " + line for line in header_lines(table, best.passage.text))]
    quotes = [(src.ref, src.text[part.line[0] : part.line[1]]) for name, (src, row) in ordered
              for part in best.summed.get(name, (row,))]
    lines += ["> " + text for _, text in quotes]
    return "\n".join(lines), quotes


def _said_period(table: Table, col: int) -> str:
    """The column's period as said, without the words of its header that name the figure ("2018 / Oper. Income",
    "Fiscal Year / 2022 / Dollars": "in 2018", "in fiscal 2022")."""
    header = table.columns[col].header
    periods = table.columns[col].periods
    rest = header
    for period in periods:
        rest = rest.replace(period.text, " ")
    if len(periods) == 1 and periods[0].year and not periods[0].month and re.search(r"[A-Za-z]", rest) \
            and not re.search(r"(?i)\b(?:ended|ending|months|weeks|as of|quarter)\b", header):
        fiscal = "fiscal " if re.search(r"(?i)\bfiscal\b", header) else ""
        return f"in {fiscal}{periods[0].year}"
    return period_phrase(table, col, "en")


#: a header's part that says the period, not an entity ("Three Months Ended", "Fiscal Year", "% Change")
_PERIOD_PART = re.compile(r"(?i)\b(?:months?|weeks?|quarters?|years?|ended|ending|fiscal|as\s+of|change|"
                          r"unaudited|restated|actual|reported|in\s+(?:millions|thousands|billions))\b|%")


def _column_name(header: str) -> str:
    """A column's entity: its header without the parts that are periods ("2022 / Aeronautics" → "Aeronautics")."""
    parts = [part.strip() for part in header.split("/")]
    return " ".join(part for part in parts if part and not find_periods(part) and not re.fullmatch(r"[\d\s]+", part)
                    and not _PERIOD_PART.search(part))


@dataclass(frozen=True, slots=True)
class _Across:
    passage: Passage
    table: Table
    row: Row
    cols: tuple[tuple[str, int], ...]  # (entity, column)


def _across_columns(q: Question, asked: Superlative, passages: Sequence[Passage]) -> _Across | None:
    """A breakdown printed the other way round: one column per entity ("2022 / Aeronautics | 2022 / MFC | … | 2022 /
    Total") and a row of the measure ("Total net sales"); the columns of the period asked (else the latest), the
    total's left out. The first such table of the passages, in their order."""
    if asked.change or asked.among or asked.outlier:
        return None
    measure = _measure_terms(_measure_words(asked.measure))
    own = of_named(q, passages, every_name=True) or list(passages)
    for p, tables in zip(own, passage_tables(own), strict=True):
        for table in tables:
            named = [(_column_name(col.header), c) for c, col in enumerate(table.columns) if not col.is_change]
            named = [(name, c) for name, c in named if name and not _TOTAL.match(name)]
            keys = {period_key(table.columns[c].periods) for _, c in named}
            keys.discard(None)
            if len(named) < 2 or not keys:
                continue
            if q.periods:
                named = [(name, c) for name, c in named if column_period_score(q, table, c) > 0]
            else:
                latest = max(k for k in keys if k is not None)
                named = [(name, c) for name, c in named if period_key(table.columns[c].periods) == latest]
            if len(named) < 2 or len({name for name, _ in named}) < len(named):
                continue
            rows = [row for row in table.rows if measure <= match_terms(row.label)
                    and all(row.amount(c) is not None for _, c in named)]
            if rows:
                row = max(rows, key=lambda r: bool(re.match(r"(?i)\s*total\b", r.label)))
                return _Across(p, table, row, tuple(named))
    return None


def _highest_across(asked: Superlative, found: _Across | None) -> tuple[str, list[tuple[str, str]]] | None:
    """The entity column whose cell of the measure's row is the highest (lowest), every other one's shown."""
    if found is None:
        return None

    def value(item: tuple[str, int]) -> float:
        amount = found.row.amount(item[1])
        return amount.value if amount is not None else 0.0

    ordered = sorted(found.cols, key=value, reverse=not asked.low)
    (top_name, top_col), ref = ordered[0], found.passage.ref
    unit = table_unit(found.table, top_col)
    said = {name: spoken_value(amount, unit, "en") for name, c in ordered if (amount := found.row.amount(c))}
    others = "; ".join(f"{name} {said[name]}" for name, _ in ordered[1:])
    word = "lowest" if asked.low else "highest"
    lead = (f"{top_name} had the {word} {_measure_words(asked.measure)}: {said[top_name]} "
            f"{_said_period(found.table, top_col)} [{ref}] (compared across the {len(ordered)} columns of the "
            f"table, one per {asked.what}: {others}).")
    quote = found.passage.text[found.row.line[0] : found.row.line[1]]
    lines = [" ".join(lead.split()), *("> " + line for line in header_lines(found.table, found.passage.text)),
             "> " + quote]
    return "\n".join(lines), [(ref, quote)]


def highest(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The answer text and its quotes, or None when no breakdown table of the measure is among the passages."""
    asked = superlative(q.text)
    if asked is None or q.language != "en":
        return None
    best = _best(q, asked, passages)
    across = _across_columns(q, asked, passages)
    if best is None or (across is not None and across.table == best.table):
        # no breakdown by rows, or the one found has its entities as columns (its rows another split of them)
        return _highest_across(asked, across)
    if asked.excluded:  # "excluding Space": that row is no candidate
        left_out = match_terms(asked.excluded)
        kept = {name: found for name, found in best.entities.items() if match_terms(name) != left_out}
        if len(kept) == len(best.entities) or not kept:
            return None  # the row to leave out is not among the table's: not the breakdown asked about
        best = replace(best, entities=kept)
    measure_text = _measure_words(asked.measure)
    table, col = best.table, best.col
    if asked.change:
        return _changed_most(asked, best, measure_text)

    def value(item: tuple[str, tuple[Passage, Row]]) -> float:
        amount = item[1][1].amount(col)
        return amount.value if amount is not None else 0.0

    # "the largest loss from operations" of a "(Loss)/earnings" table, losses in brackets: the most negative
    losses = bool(_LOSS_MEASURE.search(measure_text)) and not _GAIN_WORDS.search(measure_text) \
        and any(value(item) < 0 for item in best.entities.items())
    ordered = sorted(best.entities.items(), key=value, reverse=asked.low if losses else not asked.low)
    unit = table_unit(table, col)
    top_name, (top_p, top_row) = ordered[0]
    top_amount = top_row.amount(col)
    assert top_amount is not None
    period = _said_period(table, col)
    word = ("smallest" if asked.low else "largest") if losses else "lowest" if asked.low else "highest"
    among = f" among the {asked.among}" if asked.among else ""
    share = _share_of_group(asked, best, top_amount.value, unit)
    others = "; ".join(f"{name} {spoken_value(amount, unit, 'en')}" for name, (_, row) in ordered[1:]
                       if (amount := row.amount(col)) is not None)
    refs = "".join(dict.fromkeys(f"[{p.ref}]" for _, (p, _) in ordered))
    parts = best.summed.get(top_name, ())
    # each the sum of its rows under the parts' headings ("Domestic" and "International")
    summed = (f"; each the sum of its {' and '.join(r.section.strip(' :') for r in parts)} rows"
              if parts else "")
    lead = (f"{top_name} had the {word} {measure_text}{among}: {spoken_value(top_amount, unit, 'en')} {period}"
            f"{share} [{top_p.ref}] (compared across the {len(ordered)} rows of the table {refs}{summed}; "
            f"{others}).")
    if asked.outlier:
        lead = _outlier_lead(asked, ordered, col, unit, measure_text, top_p.ref, refs) or lead
    lines = [" ".join(lead.split()), *("> " + line for line in header_lines(table, best.passage.text))]
    quotes = [(src.ref, src.text[row.line[0] : row.line[1]]) for _, (src, row) in ordered]
    lines += ["> " + text for _, text in quotes]
    return "\n".join(lines), quotes


def _outlier_lead(asked: Superlative, ordered: list[tuple[str, tuple[Passage, Row]]], col: int, unit: Unit,
                  measure_text: str, top_ref: str, refs: str) -> str:
    """"Yes — Richard A. Johnson had 16,105,005 votes against, 2.7 times the next highest (…)" or "No — …", or ""
    when the figures do not allow the comparison (fewer than three rows, a zero or negative figure)."""
    amounts = [(name, amount) for name, (_, row) in ordered if (amount := row.amount(col)) is not None]
    if len(amounts) < 3 or any(amount.value <= 0 for _, amount in amounts):
        return ""
    (top_name, top), (next_name, second) = amounts[0], amounts[1]
    times = second.value / top.value if asked.low else top.value / second.value
    word = "lowest" if asked.low else "highest"
    said = {name: spoken_value(amount, unit, "en") for name, amount in amounts}
    ends = (said[amounts[-1][0]], said[next_name])
    rest = f"the other {len(amounts) - 1} between {' and '.join(ends[::-1] if asked.low else ends)}"
    if times >= OUTLIER_RATIO:
        apart = (f"the next lowest ({next_name} {said[next_name]}) {times:.1f} times as many" if asked.low else
                 f"{times:.1f} times the next highest ({next_name} {said[next_name]})")
        return (f"Yes — {top_name} had {said[top_name]} {measure_text} [{top_ref}], {apart}; "
                f"{rest} (compared across the {len(amounts)} rows of the table {refs}).")
    return (f"No — the {word}, {top_name} with {said[top_name]} {measure_text} [{top_ref}], is within "
            f"{times:.1f} times the next ({next_name} {said[next_name]}); {rest} (compared across the "
            f"{len(amounts)} rows of the table {refs}).")


def _share_of_group(asked: Superlative, best: _Found, top: float, unit: Unit) -> str:
    """", 82.0% of the Short-term investments' total of $507,726 thousand": the group's own total row (its label
    the group's words), when the question names the group and the table prints it; else ``""``."""
    if not asked.among:
        return ""
    group = match_terms(asked.among)
    total = next((r for r in best.table.rows if r.label.strip() and group <= match_terms(r.label)
                  and not match_terms(r.label) - group - {"total"}), None)
    amount = total.amount(best.col) if total is not None else None
    if total is None or amount is None or amount.value <= 0 or not 0 < top <= amount.value:
        return ""
    label = total.label.strip().rstrip(":")
    return f", {top / amount.value * 100:.1f}% of the {label} total of {spoken_value(amount, unit, 'en')}"


#: "Are there any product categories that represent more than 20% of Acme's revenue?", "Which segments account for
#: over 10 percent of net sales in 2022?": each row's share of the table's total against a threshold
_SHARE_ASKED = re.compile(
    r"(?i)^\s*(?:(?:are|were|is|was)\s+there\s+any|do(?:es)?\s+any|did\s+any|which|what)\s+(?:of\s+(?:the\s+)?)?"
    r"(?P<what>[a-z][\w\s/&-]{0,60}?)\s+(?:that\s+|which\s+)?(?:each\s+)?"
    r"(?:represent|account(?:ed)?\s+for|make\s+up|made\s+up|contribute|comprise|constitute)[sd]?\s+"
    r"(?P<dir>more\s+than|over|greater\s+than|at\s+least|above|in\s+excess\s+of|less\s+than|under|below)\s+"
    r"(?P<n>\d+(?:\.\d+)?)\s*(?:%|percent)\s+of\s+(?P<measure>[^?]+?)\s*\??\s*$")
_POSSESSIVE_NAME = re.compile(r"^(?:the\s+)?(?:(?:total|company['’]?s?)\s+)?"
                              r"(?:[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*['’]s?\s+)?(?:total\s+)?")


@dataclass(frozen=True, slots=True)
class ShareAsked:
    what: str  # "product categories"
    below: bool  # "less than"
    threshold: float  # 20.0 (percent)
    measure: str  # "revenue"
    yes_no: bool  # "Are there any …": answered Yes / No


def share_asked(question: str) -> ShareAsked | None:
    """The parts of an "any X more than N% of Y" question (English), or None."""
    m = _SHARE_ASKED.match(_OPENING.sub("", question))
    if m is None:
        return None
    measure = _bare_measure(_POSSESSIVE_NAME.sub("", " ".join(m.group("measure").split())))
    if not match_terms(measure):
        return None
    below = m.group("dir").lower().split()[0] in ("less", "under", "below")
    yes_no = not re.match(r"(?i)\s*(?:which|what)\b", _OPENING.sub("", question))
    return ShareAsked(" ".join(m.group("what").split()), below, float(m.group("n")), measure, yes_no)


def share_query(question: str) -> str:
    """The breakdown's search for a share question: "Acme revenue by product category …"."""
    asked = share_asked(question)
    if asked is None:
        return ""
    names = " ".join(analyze(question).strong_names[:1])
    return " ".join(f"{names} {_breakdown_query(Superlative(asked.what, False, asked.measure), asked.measure)}".split())


def shares_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """Each row's share of the breakdown's own total, the rows past the threshold named — or None when no breakdown
    of the measure with a printed total is among the passages."""
    asked = share_asked(q.text)
    if asked is None or q.language != "en":
        return None
    best = _best(q, Superlative(asked.what, False, asked.measure), passages)
    if best is None:
        return None
    table, col = best.table, best.col
    total_row = _total_row(table, col)
    total = total_row.amount(col) if total_row is not None else None
    if total_row is None or total is None:
        return None
    unit = table_unit(table, col)
    rows = [(name, p, row, a.value / total.value * 100) for name, (p, row) in best.entities.items()
            if (a := row.amount(col)) is not None]
    rows.sort(key=lambda x: -x[3])
    passed = [x for x in rows if (x[3] < asked.threshold if asked.below else x[3] > asked.threshold)]
    side = "less" if asked.below else "more"
    period = _said_period(table, col)
    label = " ".join(total_row.label.split())
    if not match_terms(label) - match_terms("total"):  # a bare "Total": the measure's
        label = f"total {asked.measure}"

    def said(x: tuple[str, Passage, Row, float]) -> str:
        amount = x[2].amount(col)
        assert amount is not None
        return f"{x[0]} {x[3]:.1f}% ({spoken_value(amount, unit, 'en')})"

    threshold = f"{asked.threshold:g}%"
    if passed:
        opening = "Yes — " if asked.yes_no else ""
        verb = "is" if len(passed) == 1 else "are each"
        lead = (f"{opening}{len(passed)} of the {len(rows)} rows {verb} {side} than "
                f"{threshold} of the {label} of {spoken_value(total, unit, 'en')} {period}: "
                f"{'; '.join(said(x) for x in passed)} [{best.passage.ref}] (computed from the table")
    else:
        opening = "No — " if asked.yes_no else ""
        lead = (f"{opening}none of the {len(rows)} rows is {side} than {threshold} of the {label} of "
                f"{spoken_value(total, unit, 'en')} {period} [{best.passage.ref}] (computed from the table")
    others = [x for x in rows if x not in passed]
    lead += f"; the others: {'; '.join(said(x) for x in others)})." if others else ")."
    lines = [" ".join(lead.split()), *("> " + line for line in header_lines(table, best.passage.text))]
    quotes = [(p.ref, p.text[row.line[0] : row.line[1]]) for _, p, row, _ in rows]
    quotes.append((best.passage.ref, best.passage.text[total_row.line[0] : total_row.line[1]]))
    lines += ["> " + text for _, text in quotes]
    return "\n".join(lines), quotes
