"""Evidence for a question (pure): table cells, key-value fields and sentences, each scored in [0, 1].

A score reads as "how much of what was asked this evidence covers": the line item (IDF-weighted term
coverage, synonyms counted — ``lexicon``), the period (a column header or sentence that agrees with the asked
period; a contradicting period caps the score below the decline threshold), the answer type (a date for
"when", an amount for "how much"), and the named company/document (absent from the passage: halved).
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from chat.models.extractive import terms
from chat.models.reader.answer_types import (
    AnswerType,
    asked_number,
    asked_type,
    asks_a_count,
    candidates,
    neighbour_context,
    type_missing,
)
from chat.models.reader.auditors import AUDITOR_SCORE, asks_auditor, firm_in, signed_spans
from chat.models.reader.balances import (
    OTHER_END,
    PER_SHARE,
    PER_SHARE_FOR_AMOUNT,
    STRUCTURAL_SECTION,
    asks_paid,
    balance_row_factor,
    both_sides_factor,
    change_only_factor,
    change_row,
    changes_section,
    flow_only_factor,
    flow_row,
    paid_item_row,
    paid_row_factor,
    paid_words,
    part_only_factor,
    per_share_factor,
    supplemental_item,
)
from chat.models.reader.cover_facts import (
    COVER_SCORE,
    asked_fact,
    fact_spans,
    incorporation_in,
    listed_on,
    shares_stated,
    stated_date_rank,
    symbol_of,
)
from chat.models.reader.fields import Field, find_fields
from chat.models.reader.fiscal_names import by_start, names_by_start
from chat.models.reader.headquarters import HEADQUARTERS_SCORE, asks_headquarters, seat_in, seat_spans
from chat.models.reader.heads import (
    another_figure,
    another_share_basis,
    group_qualifies,
    measure_qualifies,
    modifier_only,
    named_after_before,
    statistic_of,
)
from chat.models.reader.lexicon import GRAND_TOTAL, JA_CUES, KO_CUES, MONTHS, NOT_GRAND_TOTAL
from chat.models.reader.morph import WordMatcher, question_words
from chat.models.reader.names import mentions
from chat.models.reader.numbers import all_amounts
from chat.models.reader.officers import OFFICER_SCORE, asked_office, office_holders, person_name
from chat.models.reader.passage import Passage
from chat.models.reader.periods import Period, agreement, find_periods, spans_in
from chat.models.reader.question import Question, item_phrase
from chat.models.reader.receipts import receipt_evidence
from chat.models.reader.statements import STATEMENT_TITLES, implied_statement, stems
from chat.models.reader.tables import (
    FOOTNOTE_MARK,
    Row,
    Table,
    dated_periods,
    find_tables,
    part_columns,
    spanning_period,
    whole_column,
    with_document_currency,
    with_document_scale,
    with_page_header,
    with_page_scale,
)
from chat.models.reader.text import (
    IMPLIED_GROUPS,
    bullets_heading,
    coverage,
    header_terms,
    headings_above,
    join_split_letters,
    match_terms,
    running_lines,
    sentence_spans,
)
from chat.models.reader.units import money_cell, share_count_row

EvidenceKind = Literal["cell", "field", "sentence"]
#: a Korean/Japanese sentence's score: this share is its passage's support (the question's words anywhere in it);
#: both the sentence's words and its passage's are read with the document's title (``Passage.title``) before them
PASSAGE_SUPPORT = 0.5
#: a yes/no question's sentence must hold this much of what it asks about (its focus, by weight)
YESNO_FOCUS_HELD = 0.5
#: … else its score stays below the reader's "sure" (0.5): shown as the closest evidence, not as the answer
YESNO_OFF_FOCUS_CAP = 0.45
#: a contradicted or missing period caps a cell's score here (below any sensible decline threshold)
PERIOD_MISSING_CAP = 0.2
#: a line of the other part (current, non-current) than the one asked counts this much
OTHER_PART = 0.8
#: a row that names the asked item but not the name the table's rows qualify it by ("Greater China") counts this
#: much — the name may be the company itself, printed in one row ("Net income attributable to 3M")
QUALIFIER_MISSED = 0.85
#: a cell outside the statement the question names ("relying on the cash flow statement") counts this much
STATEMENT_ELSEWHERE = 0.9
STATEMENT_IMPLIED_ELSEWHERE = 0.96
#: where a statement's title is looked for: the start of the passage (the chunk's heading lines)
STATEMENT_TITLE_CHARS = 300
#: a row's coverage of the asked item through its section heading only counts this much of its own label's
SECTION_SHARE = 0.8
#: an English sentence that states another year and never the asked one counts this much (one that states no
#: period at all: 0.75)
OTHER_PERIOD = 0.6
#: a percentage cell for a question that asks an amount of money counts this much
PERCENT_FOR_MONEY = 0.7
#: a row that is the item asked by the lexicon's synonym ("Gross profit") where the table prints a row under the
#: very words asked ("Gross margin")
SYNONYM_ROW = 0.97
#: … and never more than this: below ``decline.SURE_AT`` (a rate is no amount, however well its label matches)
PERCENT_FOR_MONEY_CAP = 0.45
#: a sentence with no number for a question that asks a count ("How many employees …")
NO_COUNT = 0.5
#: a money or percentage amount for a question that asks a count ("How many shares …") counts this much
MONEY_FOR_COUNT = 0.6
#: "how many …" / "the number of …" asks a count of things, not an amount of money beside it
_COUNT_ASKED = re.compile(r"(?i)\bhow\s+many\b|\b(?:the|total)\s+number\s+of\b|\b[a-z]+\s+count\b|\bheadcount\b")
_MONEY_WORDS = re.compile(r"(?i)\b(?:usd|dollars?|in (?:millions|thousands|billions))\b|\$")
_RATE_WORDS = re.compile(r"(?i)\bpercent(?:age)?\b|%|\bmargin\b|\bratio\b|\brate\b|\bshare of\b")
#: a word that makes the number after it a reference to a part of the document
_REFERENCE = re.compile(r"(?i)\b(?:notes?|items?|sections?|parts?|pages?|exhibits?|rules?|articles?|schedules?|"
                        r"chapters?|figures?|tables?|appendix|no\.|orders?|acts?|laws?|bills?|resolutions?|forms?|topics?|"
                        r"standards?)\s*$")
#: what asks a percentage (a ratio or a rate may be a plain number: "current ratio 0.95", "exchange rate 1.08")
_PERCENT_WORDS = re.compile(r"(?i)\bpercent(?:age)?\b|%|\bmargin\b|"
                            r"\b(?:what|which)\s+(?:share|proportion|portion|fraction)\s+of\b")
#: a question about a receipt: evidence from a passage that prints no receipt fields counts this much
NOT_A_RECEIPT = 0.5
_TOTAL_WORD = re.compile(r"(?i)\btotal\b|합계|合計|총액")
#: a sub-total / tax / cash / change line's score factor when the question did not ask for one
MINOR_FIELD_FACTOR = 0.55
#: a clock time ("0시", "9時", "10 a.m."): not the answer to how much / how many
_CLOCK = re.compile(r"\s?(?:시(?![간장점기행설민즌])|時(?![間点])|[ap]\.?m\.(?!\w)|o'clock)", re.IGNORECASE)
#: an amount in cents ("73.3 cps", "49.0 cents per share")
_CENTS = re.compile(r"(?i)\b(?:cents?(?:\s+per\s+(?:diluted\s+)?share)?|cps)\b")
_UNIT_WORD = re.compile(
    r"\s?(?:(?:months?|years?|days?|weeks?|hours?|employees|people|persons|shares|units|times|"
    r"percent|points|cents?(?:\s+per\s+(?:diluted\s+)?share)?|cps)\b|명|개월|개|건|년|일|회|배|주|대|곳|권|마리|가구|세대|채|척|장|그루|편|종|위|"
    r"人|名|件|個|台|社|校|枚|冊|匹|頭|軒|店|か所|箇所|ヶ月|か月|カ月|年間?|日間?|回|倍|株)"
)


#: a non-GAAP measure ("Adjusted Net Earnings", "Core operating profit", "Non-GAAP net income", "Organic revenue
#: growth", "EBITDA excluding …") for a question that does not ask one: the reported figure is meant
NOT_AS_REPORTED = 0.85
_ADJUSTED = re.compile(r"(?i)\b(?:adjusted|non-?gaap|core|organic|pro\s*forma|underlying|comparable|excluding|"
                       r"ex-|constant\s+currency|operational|same[-\s]store)\b")


#: a row whose label holds the asked item's head word only as a qualifier ("Debt issuance costs" for "total debt":
#: ``heads``) counts this much
MODIFIER_ONLY = 0.5
#: the terms every line of a cash flow statement implies, for an item asked with them ("cash dividends paid"): cash,
#: and for an outflow, paid
_CASH = frozenset(match_terms("cash"))
_PAID = frozenset(match_terms("paid"))
#: the terms of "total liabilities" (a balance sheet's liabilities-and-equity total is not it: ``balances``)
_TOTAL_LIABILITIES = frozenset(match_terms("total liabilities"))


#: a part of the net income ("Net earnings from continuing operations", "… including noncontrolling interests")
#: for a question that asks the net income itself: the bottom line attributable to the company is meant
PARTIAL_NET = 0.9
_PARTIAL_NET = re.compile(r"(?i)\b(?:from|of)\s+(?:continuing|discontinued)\s+operations?\b|"
                          r"\b(?:including|attributable\s+to)\s+non-?\s?controlling\b")
_PARTS_ASKED = re.compile(r"(?i)\bcontinuing\b|\bdiscontinued\b|\bnon-?\s?controlling\b|\bminority\b")


def partial_net_row(label: str, q: Question) -> bool:
    """``label`` is a part of the net income (continuing operations only, or with the noncontrolling interests'
    share) while ``q`` asks the net income (earnings, loss) without saying which part."""
    return (bool({"§2", "§7"} & q.focus_terms) and bool(_PARTIAL_NET.search(label))
            and not _PARTS_ASKED.search(q.text))


def _adjustments(text: str) -> set[str]:
    return {re.sub(r"[-\s]+", " ", m.group(0).lower()) for m in _ADJUSTED.finditer(text)}


def unasked_adjustment(label: str, caption: str, question: str) -> bool:
    """The row states an adjusted figure the question does not ask: any adjustment when the question asks none,
    else one it does not name ("Same-Store Adjusted Property EBITDAR" for "Adjusted Property EBITDAR")."""
    asked = _adjustments(question)
    if not asked:
        return adjusted_row(label, caption)
    return bool(_adjustments(label) - asked)


def adjusted_row(label: str, caption: str = "") -> bool:
    """A row (or its table) states an adjusted, non-GAAP figure — unless it says it is the reported one ("Net
    earnings, after tax - as reported")."""
    if re.search(r"(?i)\bas\s+reported\b|\bgaap\b(?<!non-gaap)", label):
        return False
    return bool(_ADJUSTED.search(label)) or bool(re.search(r"(?i)\bnon-?gaap\b", caption))


PeriodKey = tuple[int | None, int | None, int | None, int | None]


def period_keys(table: Table, col: int) -> set[PeriodKey]:
    """(year, quarter, month, day) of each dated period column ``col`` of ``table`` offers."""
    return {(p.year, p.quarter, p.month, p.day) for p in table.columns[col].periods if p.year}


def _other_period(table: Table, col: int, other: int) -> bool:
    mine, theirs = period_keys(table, col), period_keys(table, other)
    return bool(mine and theirs and mine != theirs)


def _just_before(table: Table, col: int, other: int) -> tuple[int, ...]:
    """How near before ``col``'s period ``other``'s ends (larger is nearer; the lowest for a later one or none)."""
    mine, theirs = period_key(table.columns[col].periods), period_key(table.columns[other].periods)
    if mine is None or theirs is None or theirs >= mine:
        return (0,)
    return (1, *theirs)


def _same_kind(table: Table, col: int, other: int) -> bool:
    """The two headers say the same apart from their periods ("Amount" and "Amount", not "Percent to Sales")."""
    def rest(c: int) -> str:
        header = table.columns[c].header
        for p in sorted(find_periods(header), key=lambda p: p.start, reverse=True):
            header = header[: p.start] + header[p.end :]
        return " ".join(re.findall(r"[a-z%]+", header.lower()))
    return rest(col) == rest(other)


#: a table of part of the group — the guarantor subsidiaries' summarized financial information (SEC Rule 13-01),
#: the parent company alone (Schedule I), the closed group of a deed of cross guarantee — counts this much for a
#: question that does not ask for that part
PART_OF_GROUP = 0.85
PART_OF_GROUP_WORDS = re.compile(
    r"(?i)\bguarantor\s+(?:subsidiar|financial\s+information\b)|\bobligor\s+group\b|\bdeed\s+of\s+cross\s+guarantee\b|"
    r"\bclosed\s+group\b|"
    r"\bsummarized\s+financial\s+information\b|\b(?:issuer|obligor)s?\s+and\s+(?:the\s+)?guarantor|\bparent\s+company\s+only\b|"
    r"\bcondensed\s+financial\s+information\s+of\s+(?:the\s+)?registrant\b|\bnon-?guarantor\b")


def part_of_group(passage: Passage, question: str) -> bool:
    """``passage`` prints a part of the group's figures (the guarantors', the obligor group's, the parent company
    alone) and ``question`` asks about no such part."""
    return bool(PART_OF_GROUP_WORDS.search(passage.text)) and not PART_OF_GROUP_WORDS.search(question)


#: a period's length after a number ("12 Weeks Ended", "6 months ending"): the number is part of the period
_SPAN_AFTER = re.compile(r"[\s-]+(?:weeks?|months?)\s+(?:ended|ending)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Evidence:
    kind: EvidenceKind
    passage: Passage
    score: float
    quote: tuple[int, int]  # span of the quoted line/sentence in passage.text
    label: str = ""
    table: Table | None = None
    row: Row | None = None
    col: int = -1
    prior_col: int = -1  # the column a change is computed against
    change_col: int = -1  # the table's own change column, when it has one
    field: Field | None = None
    span_text: str = ""  # the asked value inside a sentence ("March 30, 2020"), when found

    @property
    def quote_text(self) -> str:
        return self.passage.text[self.quote[0] : self.quote[1]]


def _weights(passages: Sequence[Passage], q: Question) -> dict[str, float]:
    df: Counter[str] = Counter()
    asked = q.terms | q.focus_terms
    units = 0
    for p in passages:
        for line in p.text.split("\n"):
            if line.strip():
                units += 1
                df.update(match_terms(line) & asked)
    return {t: math.log(1.0 + (units + 1) / (1 + df[t])) for t in asked}


def _present(name: str, passage: Passage) -> bool:
    """The passage's own text (or file name) names the company. Not its document's identity: within the
    company's filing, a passage that names it is the likelier answer (measured: with the identity counted here,
    two dev-set answers lost their best passage); whose filing it is decides ``covers`` and ``decline``. A page
    read whole (``P…``) was read for this question, and its text has no heading path to carry the name: there
    the document's identity counts (a statement page read for Acme's revenue is not half as likely Acme's)."""
    return mentions(name, passage, identity=passage.ref.startswith("P"))


def name_factor(q: Question, passage: Passage, *, table: bool = False) -> float:
    """How likely the passage is the named company's (1.0 when it names them). ``table``: a table's cell — a
    statement's rows never name the company and its heading path may not either (a cover whose text layer breaks
    at every word heads the filing "UNITED › INC."): the document's identity counts for it."""
    factor = 1.0
    # a name insisted on ("AWS operating income": the question's only company-like name) weighs as a strong one
    strong = q.required_names
    for name in strong:
        if not _present(name, passage) and not (table and mentions(name, passage, identity=True)):
            factor *= 0.5
    for name in [n for n in q.names if n not in strong][:2]:
        if not _present(name, passage):
            factor *= 0.85
    return factor


def missing_part_name(q: Question, passage: Passage) -> bool:
    """A name the question gives ("Pfizer's revenue from Comirnaty", "AWS operating income") that neither the
    passage nor its document's identity says: its figures are not that part's, whatever the row (the total revenues
    of the filing are not one product's), nor another company's."""
    # (a company asked of a document whose identity is not known yet may be its own: its cover page tells; the
    # capitalised words of a question's other names — "the Statement of Financial Position" — name nothing sure)
    return bool(passage.company) and any(not mentions(name, passage, identity=True) for name in q.required_names)


_SINCE = re.compile(r"(?i)\b(?:since|from)\s+(?:the\s+)?(?:(?:end|close)\s+of\s+(?:the\s+)?)?$")


def since_asked(q: Question) -> bool:
    """A change asked from one period to now ("How much did total assets change since September 24, 2022?")."""
    return (q.kind == "change" and len(q.periods) == 1
            and bool(_SINCE.search(q.text[: q.periods[0].start])) and " to " not in q.text[q.periods[0].end:])


def change_ends(q: Question) -> tuple[Period, Period] | None:
    """(latest, earliest) of a change question's periods ("… June 30, 2023 versus the same period of 2022"): the
    current column is the latest one, the prior column the earliest (whichever order the question says them)."""
    dated = [p for p in q.periods if p.year is not None]
    if q.kind not in ("change", "comparison") or len(dated) < 2:
        return None

    def key(p: Period) -> tuple[int, int, int]:
        return (p.year or 0, p.month or (3 * p.quarter if p.quarter else 12), p.day or 31)

    ordered = sorted(dated, key=key)
    return (ordered[-1], ordered[0]) if key(ordered[-1]) != key(ordered[0]) else None


def column_period_score(q: Question, table: Table, col: int, asked_periods: Sequence[Period] | None = None) -> float:
    """How well column ``col`` of ``table`` agrees with the period ``q`` asks (or ``asked_periods``): 0 … 1."""
    column = table.columns[col]
    spanning = spanning_period(table) if not column.periods else ()
    if not column.periods and not spanning and any(c.periods for c in table.columns):
        return 0.0  # a column without a period beside dated ones ("% of revenue") answers no period asked
    best = 0.0
    ends = change_ends(q) if asked_periods is None else None
    for asked in asked_periods if asked_periods is not None else (ends[:1] if ends else q.periods):
        span = q.span
        if span is None and column.span is not None and (_whole_fiscal_year(asked) or (
                _bare_year(asked) and any(c.span == 12 for c in table.columns))):
            # "FY2020" / "fiscal 2022": the year's column, not a quarter's (a dated column has no span); so is "in
            # 2022" where the table prints the twelve months beside the three
            span = 12
        fit = max(agreement(asked, offered, asked_span=span, offered_span=column.span)
                  for offered in spanning or dated_periods(table, col, asked) or (Period(),))
        if fit > 0 and _whole_fiscal_year(asked) and _interim_balance(table, col):
            fit *= INTERIM_BALANCE
        best = max(best, fit)
    if best > 0 and _OPENING.search(column.header) and not _OPENING.search(q.text):
        best *= OPENING_BALANCE  # "Total Stores at Beginning of Second Quarter": the period's count is its end's
    return best


#: a roll-forward's opening column ("Total Stores at Beginning of Second Quarter") is the period before's closing:
#: the asked period's figure is its ending column, unless the question asks the opening one
_OPENING = re.compile(r"(?i)\b(?:beginning|start|opening)\b")
OPENING_BALANCE = 0.8


#: a balance date later in the same year than another balance column of its table, for a fiscal year asked
INTERIM_BALANCE = 0.85


def passage_tables(passages: Sequence[Passage]) -> list[list[Table]]:
    """Each passage's tables, read as their page and document state them: a grid cut from its caption takes the
    unit its page's other chunk ends with, one that states no unit its document's one scale, and a scaled one that
    shows no currency its document's one currency."""
    pages = [(p.document_id, p.page) if p.document_id and p.page else None for p in passages]
    texts = [p.text for p in passages]
    every_table = with_page_header(with_page_scale([find_tables(t) for t in texts], texts, pages), texts, pages)
    documents = [p.document_id or p.file_name or p.ref for p in passages]
    return with_document_currency(with_document_scale(every_table, documents), documents)


def asked_column(q: Question, table: Table) -> int | None:
    """The value column of the period asked (None when no column agrees with it), else the latest."""
    cols = [c for c, col in enumerate(table.columns) if not col.is_change]
    if not cols:
        return None
    if q.periods:
        best = max(cols, key=lambda c: (column_period_score(q, table, c), -c))
        return best if column_period_score(q, table, best) > 0 else None
    return latest_column(table, cols, q.span)


def of_named(q: Question, passages: Sequence[Passage], *, every_name: bool = False) -> list[Passage]:
    """The passages of the company the question names (its text, file name or identity mentions each name): a
    breakdown, statement or cover of another filing among the results is not the one asked. All of them when the
    question names none (``every_name``: its weaker names too)."""
    names = q.names if every_name else q.strong_names
    return [p for p in passages if all(mentions(n, p) for n in names)] if names else list(passages)


def of_company(q: Question, passages: Sequence[Passage]) -> list[Passage]:
    """The passages of the company the question is about: its strong names, else the name it insists on ("… that Best
    Buy has done", "the Pepsico AGM": ``Question.insisted_names``); all of them when it names none."""
    names = q.strong_names or q.insisted_names
    return [p for p in passages if all(mentions(n, p) for n in names)] if names else list(passages)


def _interim_balance(table: Table, col: int) -> bool:
    """Column ``col`` is a point-in-time date that another point-in-time column of the table precedes within the
    same calendar year: a 10-Q's "September 30, 2022" beside the fiscal year-end "June 30, 2022". Asked "the end of
    FY2022", the year-end column is meant, not the interim balance."""
    column = table.columns[col]
    mine = period_key(column.periods) if column.span is None else None
    if mine is None:
        return False
    return any(
        c is not column and c.span is None and (key := period_key(c.periods)) is not None and key[0] == mine[0]
        and key < mine
        for c in table.columns
    )


def _bare_year(p: Period) -> bool:
    """The period is a year written alone ("in 2022"): no month, day, quarter, half or span of its own."""
    return p.year is not None and p.month is None and p.day is None and p.quarter is None and p.half is None \
        and p.span_months is None


def _whole_fiscal_year(p: Period) -> bool:
    return p.fiscal and p.quarter is None and p.half is None and p.month is None


#: a rate that is a percentage of something ("effective tax rate", "interest rate", "growth rate") — not an exchange
#: rate, a run rate or a rate per hour
_PERCENT_RATE = re.compile(
    r"(?i)\b(?:tax|interest|growth|discount|coupon|effective|statutory|churn|utili[sz]ation|occupancy|retention|"
    r"vacancy|default|attrition|unemployment|inflation|payout|delinquency|loss|return)\s+rates?\b|\brates? of return\b|"
    r"\breturn\s+on\s+(?:average\s+)?(?:total\s+)?(?:assets|equity|invested\s+capital|capital)\b"
)


def _asks_percent(q: Question) -> bool:
    """The question wants a percentage ("what percentage", "… margin", "%", "effective tax rate"), not an amount
    of money."""
    return (bool(_PERCENT_WORDS.search(q.text)) or bool(_PERCENT_RATE.search(q.focus))) and not (
        bool(q.scale) or bool(_MONEY_WORDS.search(q.text)))


def _asks_ratio(q: Question) -> bool:
    """The question asks a ratio of two amounts ("debt-to-equity ratio"): a number, never an amount of money."""
    return q.language == "en" and bool(re.search(r"(?i)\bratio\b", q.focus)) and not (
        bool(q.scale) or bool(_MONEY_WORDS.search(q.text)))


def _item_in_part(q: Question, sentence: str) -> bool:
    """The asked line item (a lexicon item of two or more words, "share repurchases") is in ``sentence`` in part
    only: neither one of its names nor each of its words (as a word's stem: "repurchased … shares" holds it)."""
    if not q.focus_terms or not all(t.startswith("§") for t in q.focus_terms) \
            or set(q.focus_terms) & match_terms(sentence):
        return False
    asked = [w for w in stems(item_phrase(q.focus)) if w not in _ITEM_GLUE]
    if len(asked) < 2:
        return False
    held = set(stems(sentence))
    return not all(w in held for w in asked)


#: besides ``statements.stems``' joining words and verbs, the words a line item's name may hold that name no part
#: of it ("net", "total") and the verbs a question's focus may hold ("has repurchased")
_ITEM_GLUE = frozenset("net total has have had".split())


#: what a line says of its part of an item: "- current", "Non-current portion of", "Long-term", "net of current
#: portion"
PART_WORDS = re.compile(r"(?i)\b(?:non[-\s]?current|current|long[-\s]term|portions?|net\s+of|less|of|due|within|one|"
                        r"year|after)\b")
NONCURRENT = re.compile(r"(?i)\bnon[-\s]?current\b|\blong[-\s]term\b|\b(?:net\s+of|less)\s+current\s+portion\b")
_CURRENT = re.compile(r"(?i)\bcurrent\b|\bshort[-\s]term\b")
#: a question that asks one part itself
PART_ASKED = re.compile(r"(?i)\b(?:non[-\s]?current|current|long[-\s]term|short[-\s]term|portion)\b")


#: a row that adds up every segment ("Reportable segment net revenues", "Total segments", "Consolidated …")
_ALL_SEGMENTS = re.compile(r"(?i)^\s*(?:total\s+)?(?:reportable\s+segments?|segments?\s+total|total\s+segments?|"
                           r"consolidated)\b")
#: a row's label that says when, not what: the heading above it names the item ("Cash and cash equivalents: End of
#: period", "Balance at beginning of year")
_WHEN_LABEL = re.compile(r"(?i)^\s*(?:(?:balance|balances)\s+(?:at|as\s+of)\s+)?(?:the\s+)?(?:beginning|end|start|"
                         r"close)\s+of\s+(?:the\s+)?(?:period|year|quarter|fiscal\s+year)\b|^\s*balances?\b")
#: the part of a balance sheet's item a question asks in its focus ("short-term debt", "deferred revenue (current)")
_SECTION_PART = re.compile(r"(?i)\b(?:non[-\s]?current|current|long[-\s]term|short[-\s]term)\b")


def stripped_item(label: str) -> frozenset[str]:
    """A line's terms without what it says of its part ("Operating lease liabilities, non-current")."""
    return frozenset(match_terms(PART_WORDS.sub(" ", " ".join(label.split()))))


_NAMES_PART = re.compile(r"(?i)\b(?:long|short)[- ]term\b|\bcurrent\b|\bnon-?current\b|\bportion\b|\bmaturities\b")


def part_of(label: str) -> str:
    """"noncurrent", "current", or "" (the whole, or no part said)."""
    return "noncurrent" if NONCURRENT.search(label) else "current" if _CURRENT.search(label) else ""


def asked_whole(q: Question) -> frozenset[str]:
    """The asked item's terms when it is asked whole and is no lexicon line item (those are read as printed: "long-
    term debt" is one), else empty."""
    if PART_ASKED.search(q.text):
        return frozenset()
    asked = stripped_item(item_phrase(q.focus))
    # a lexicon item whose name says its part ("long-term debt", "current portion of …") is read as printed; one
    # asked whole ("deferred revenue") is both its current and non-current lines
    return frozenset() if any(t.startswith("§") for t in asked) and _NAMES_PART.search(q.focus) else asked


def part_line_of_whole(q: Question, label: str, section: str = "") -> bool:
    """``label`` is the current or the non-current line of the item asked whole (its part said in the label, or by
    its section heading ``section`` — given where the label is printed under both: "Long-term liabilities:
    Deferred revenue")."""
    asked = asked_whole(q)
    return bool(asked) and bool(part_of(label) or part_of(section)) and stripped_item(label) == asked


#: a row that names "other" of the asked item ("Total other comprehensive income" for comprehensive income) counts
#: this much
OTHER_QUALIFIED = 0.5


def _other_of(q: Question, label: str) -> bool:
    """``label`` names the asked item qualified by "other" ("Total other comprehensive income (loss)"), the
    question not."""
    words = [w for w in re.findall(r"[a-z]+", item_phrase(q.focus).lower()) if w not in ("total", "net", "the")]
    if not words or "other" in words or re.search(r"(?i)\bother\b", q.text):
        return False
    return bool(re.search(r"(?i)\bother\s+(?:net\s+)?" + r"\W+".join(map(re.escape, words[:2])) + r"\b", label))


def _with_others(q: Question, sentence: str) -> bool:
    """``sentence`` states the asked item together with others ("goodwill and other intangible assets", "cash and
    other liquid investments"): its amount is theirs together, not the item's."""
    words = re.findall(r"[a-z]+", item_phrase(q.focus).lower())
    return bool(words) and bool(re.search(rf"(?i)\b{re.escape(words[-1])}\s+and\s+(?:other|related)\b", sentence))


def row_with_others(q: Question, label: str) -> bool:
    """``label`` names the asked item and then, joined by "and", another thing the question does not ask ("Cash,
    cash equivalents and marketable securities" for the cash and cash equivalents, "Accounts payable and accrued
    liabilities" for the accounts payable): the row is their sum, not the item."""
    asked = [w for w in re.findall(r"[a-z]+", item_phrase(q.focus).lower()) if w not in ("total", "the")]
    if not asked:
        return False
    m = re.search(rf"(?i)\b{re.escape(asked[-1])}\s+(?:and|&)\s+([a-z][a-z\-]*(?:\s+[a-z][a-z\-]*){{0,2}})",
                  label)
    if m is None:
        return False
    joined = set(terms(m.group(1)))  # "dividend equivalents" joined to "dividends" name the same thing
    return bool(joined) and not joined & set(terms(" ".join(asked))) and not joined & set(terms(q.text))


def _no_money(sentence: str) -> bool:
    """The sentence's figures (at least one) are all percentages or bare numbers — ratios, counts — none an amount
    of money (a currency or a scale word: "$423 million", "2.1 billion")."""
    amounts = [a for _, _, a in all_amounts(sentence)]
    return bool(amounts) and not any(a.currency or a.scale_word for a in amounts) \
        and not _MONEY_AFTER.search(sentence)


#: a number's money written after it: "49.0 cents per share", "18.77 Australian cents", "3 billion dollars"
_MONEY_AFTER = re.compile(r"(?i)\d\s+(?:[A-Z][a-z]+\s+)?(?:cents?|dollars?|euros?|pounds?|yen|won|pence)\b")


def asks_count(q: Question) -> bool:
    """The question wants a count ("How many shares did Acme repurchase?"), in English, and names no money."""
    return q.language == "en" and bool(_COUNT_ASKED.search(q.text)) and not _MONEY_WORDS.search(q.text)


#: a count of a part of the whole the question asks about: union members, those a bargaining agreement covers
LABOR_PART = re.compile(r"(?i)\bunion(?:i[sz]ed|s)?\b|collective(?:ly)?\s+bargain\w*|works\s+councils?")
#: right after a bare count: "24,000 of our employees" (not "353 million shares of its common stock": what is
#: counted is named before the "of")
_PART_OF_OURS = re.compile(r"(?i)^\s*(?:million|thousand|billion)?\s*of\s+(?:our|its|their|the\s+company['’]s)\b")
#: after the count and what it counts: "50,000 employees, which constitute 32% of our total workforce"
_SHARE_OF_WHOLE = re.compile(r"(?i)^[^.;]{0,40}?\b(?:constitut\w*|represent\w*|compris\w*|account\w*\s+for)\s+"
                             r"(?:approximately\s+|about\s+)?\d[\d.]*\s*%")


def _part_counted(sentence: str, span: str) -> bool:
    """The count to state is of a part of the whole asked ("covering approximately 24,000 of our employees",
    "… 50,000 employees, which constitute 32% of our total workforce, were union represented")."""
    at = sentence.find(span)
    if at < 0:
        return False
    after = sentence[at + len(span):]
    bare = bool(re.search(r"(?i)(?:\d|million|thousand|billion)$", span))
    return (bare and bool(_PART_OF_OURS.search(after))) or bool(_SHARE_OF_WHOLE.search(after)) \
        or bool(LABOR_PART.search(sentence))


def _priced(span: str) -> bool:
    """The answer span is an amount of money or a percentage."""
    found = all_amounts(span)
    return bool(found) and (found[0][2].percent or bool(found[0][2].currency))


#: a level at a date asked of an item the statements print both as a balance and as flows ("cash")
_AT_A_DATE = re.compile(
    r"(?i)\bat\s+the\s+(?:end|close)\s+of\b|\bas\s+of\b|\byear[- ]end\b|\b(?:hold|held|on\s+hand)\b")


def balance_asked_of(q: Question) -> bool:
    """An English question asks a balance: a balance-sheet item, or an item of no one statement ("cash and
    short-term investments") asked at a date ("… hold at the end of fiscal 2019")."""
    if q.language != "en":
        return False
    kind = implied_statement(q.focus_terms)
    return kind == "balance" or (not kind and bool(_AT_A_DATE.search(q.text)))


def _asks_money(q: Question) -> bool:
    """The question wants an amount of money: a scale ("in USD millions"), a currency, or "how much" of a
    statement's line item ("How much net income did Acme earn?") — and no rate."""
    if _RATE_WORDS.search(q.text) or _PERCENT_WORDS.search(q.text):
        return False
    return (bool(q.scale) or bool(_MONEY_WORDS.search(q.text))
            or (q.language == "en" and (bool(_HOW_MUCH.match(q.text)) or q.kind == "value")
                and bool(implied_statement(q.focus_terms))))


def _row_score(focus: set[str], row_terms: set[str], caption_terms: set[str], w: dict[str, float],
               label_terms: set[str] | None = None) -> float:
    cov_label = coverage(focus, row_terms, w)
    if cov_label == 0:
        return 0.0
    if label_terms is not None and label_terms != row_terms:
        # what the section heading ("Current liabilities:") contributes counts less than the row's own label:
        # "Total current liabilities" is the current liabilities, "Accounts payable" below the heading is not
        cov_label = max(coverage(focus, label_terms, w), SECTION_SHARE * cov_label)
    cov_all = coverage(focus, row_terms | caption_terms, w)
    own = label_terms if label_terms else row_terms  # a section heading's words are not the row's extra words
    narrower = {n for n, broad in IMPLIED_GROUPS.items() if broad in focus}  # "cash and cash equivalents" is cash
    # "total" is half an extra word: "Total revenue" is more the revenue than "Sales and marketing" (an expense
    # whose "sales" is the revenue group's word), less than a row that is "Revenue" alone
    extra = (len(own - focus - narrower - _TOTAL) + 0.5 * len((own & _TOTAL) - focus)) / len(own) if own else 0.0
    return 0.6 * cov_label + 0.4 * cov_all - 0.1 * extra


#: a caption that says what every row measures, the rows naming the parts ("Net sales by reportable segment")
_BY_CAPTION = re.compile(
    r"(?i)\b(?:revenues?|sales|income|profit|expenses?|assets)\b[\w\s,]{0,40}?\bby\s+(?:reportable\s+|operating\s+|"
    r"business\s+|geographic\s+|significant\s+|major\s+|principal\s+)?(?:segments?|regions?|geograph\w*|areas?|products?|categor\w+|markets?|channels?|"
    r"brands?|countr\w+|divisions?)\b|"
    # "REGIONAL SALES RESULTS", "SEGMENT SALES RESULTS": the rows are the regions', the segments' sales
    r"\b(?:regional|segments?|geographic(?:al)?|product|business|divisional|country)\s+(?:net\s+)?"
    r"(?:sales|revenues?)\s+(?:results|performance|summary)\b")


#: a caption that says whose every row is: "… the revenue and gross profit for our Cash App segment"
#: or a heading of that segment's results: "Cash App Results", "Aeronautics Segment"
_OF_SEGMENT = re.compile(
    r"\b(?:for|of)\s+(?:the\s+|our\s+|its\s+)?(?P<name>[A-Z][\w&'’.\-]*(?:\s+[A-Z][\w&'’.\-]*){0,3})"
    r"\s+(?:segment|business|division|reportable\s+segment)\b(?!s)|"
    r"(?:^|›\s*)(?P<heading>[A-Z][\w&'’.\-]*(?:\s+[A-Z][\w&'’.\-]*){0,3})\s+(?:Results|Segment)\s*$|"
    # "Segment Results of Operations Flexibles Segment (in millions)": the caption's last line names the segment
    r"\s(?P<last>[A-Z][\w&'’.\-]*(?:\s+[A-Z][\w&'’.\-]*){0,3})\s+Segment"
    r"\s*\(?\s*(?:\$\s*)?in\s+(?:millions|thousands|billions)\)?\s*$")
#: a caption of whose results a table holds ("Space's operating results included the following", "Aeronautics'
#: net sales"): a segment's, unless the name is the filer's
_OWNER_RESULTS = re.compile(r"['’]s?\s+(?:operating\s+)?(?:results|net\s+sales|revenues?|performance|business)\b")


#: an all-capitals word at most this long right before a results caption's possessive is a segment's initials
INITIALS_CHARS = 5


def _results_owner(caption: str) -> str:
    """The name a caption says the table's results are of ("Space's operating results …" → "Space"): the
    capitalised words (not a heading's all-capitals) right before the possessive — or a segment's initials there
    ("RMS' operating results …" → "RMS"); "" when none."""
    m = _OWNER_RESULTS.search(caption)
    if m is None:
        return ""
    words: list[str] = []
    for word in reversed(caption[: m.start()].split()):
        initials = not words and word.isupper() and word.isalpha() and len(word) <= INITIALS_CHARS
        if not word[:1].isupper() or (word.isupper() and not initials) or len(words) == 3:
            break
        words.insert(0, word)
        if initials:
            break
    return " ".join(words)

_GENERIC_SEGMENT = match_terms("consolidated operating segment segments total company")


#: a movement the question asks ("How many stores did Acme open …", "… stores opened"): its word's stem
_MOVED_ASKED = re.compile(r"(?i)\bdid\b[^?]*?\b(open|clos|acquir|remodel|relocat)(?:e|ed)?\b|"
                          r"\b(open|clos|acquir|remodel|relocat)ed\b")


def _moved(question: str) -> str:
    """The stem of the movement ``question`` asks of a count ("open" for "… did Acme open …"), or ""."""
    m = _MOVED_ASKED.search(question)
    return (m.group(1) or m.group(2)).lower() if m else ""


#: a column of what moved the count in the period ("Stores Opened", "Stores Closed", "Acquired"), not the count
MOVEMENT = re.compile(r"(?i)\b(?:opened|closed|acquired|disposed|divested|sold|added|additions|removed|relocated|"
                      r"remodeled|transferred)\b")


def _table_evidence(q: Question, p: Passage, table: Table, w: dict[str, float], rank: int) -> list[Evidence]:
    plain = set(q.focus_terms or q.terms)
    company = match_terms(p.company)
    # "the total number of Acme Beauty stores": the filer's own name inside the item qualifies no row — where the
    # rows name the rest of the item (a row named like the filer, "Best Buy" of Best Buy's store brands, is one)
    filer = {t for n in q.names if (n_terms := match_terms(n)) and n_terms <= company for t in n_terms}
    rest = plain - filer
    if filer & plain and rest - _TOTAL and any((rest - _TOTAL) & match_terms(f"{r.section} {r.label}")
                                               for r in table.rows):
        plain = rest
    focus = set(plain)
    row_words = set().union(*(match_terms(f"{r.section} {r.label}") for r in table.rows))
    for name in q.strong_names:  # "operating income of Greater China": a name the rows carry qualifies the item
        name_terms = match_terms(name)
        if name_terms and name_terms <= row_words and not name_terms <= company:
            # (not the filing's own company: "Net income attributable to Pfizer Inc." names the filer)
            focus |= name_terms
    caption_terms = match_terms(table.caption)
    stubless = all(not (r.label.strip() or r.section.strip()) for r in table.rows)
    by_caption = bool(_BY_CAPTION.search(table.caption))
    of_segment = _OF_SEGMENT.search(table.caption)
    segment_terms = match_terms(of_segment.group("name") or of_segment.group("heading") or of_segment.group("last")) \
        if of_segment else set()
    segment_terms -= _GENERIC_SEGMENT
    owner = _results_owner(table.caption)  # "Space's operating results included the following"
    owner_terms = (match_terms(owner) - _GENERIC_SEGMENT) if owner else set()
    if owner_terms and not owner_terms <= company and not segment_terms:
        segment_terms = owner_terms
    # a segment's table the question does not name the segment of: its rows are the segment's, not the company's
    other_segments = bool(segment_terms) and not segment_terms & (set(q.terms) | focus) and not (
        segment_terms <= company)
    values = [c for c, col in enumerate(table.columns) if not col.is_change]
    change_col = next((c for c, col in enumerate(table.columns) if col.is_change), -1)
    out: list[Evidence] = []
    repeated = Counter(row.label.lower() for row in table.rows)
    since = since_asked(q)
    count = asks_count(q)
    moved = _moved(q.text) if count else ""  # "How many stores did Acme open …": "open"
    movement_asked = bool(moved or MOVEMENT.search(q.text))
    moved_columns = bool(moved) and any(moved in col.header.lower() for col in table.columns)
    unnamed_part = q.language == "en" and missing_part_name(q, p)
    balance_asked = balance_asked_of(q)
    part_asked = _part_of_year_asked(q)
    # the current or the non-current part of a liability or an asset asked ("current operating lease liabilities")
    asked_part = part_of(q.text) if q.language == "en" else ""
    said_part = _SECTION_PART.search(q.focus) if asked_part else None
    asked_part_words = said_part.group(0) if said_part else asked_part
    ratio_asked = _asks_ratio(q)
    investee_table = another_entitys(table, p, q.text)
    # the line items the focus names by the lexicon ("revenue", "net income"), "total" aside, and the words of the
    # passage's heading path ("Netflix, Inc. › 5. Commitments and Contingencies") the rows are under
    item_groups = {t for t in plain if t.startswith("§")} - _TOTAL
    heading = p.text.split("\n", 1)[0]
    heading_terms = match_terms(heading)
    # … and the focus's words those names were made of ("non-current … liabilities": "liability" — a label may
    # print a lexicon phrase's words apart, "Operating lease liabilities, non-current")
    item_words = set(terms(q.focus)) - plain - {"total"}
    plans_table = fair_value_levels(table, p, q.text)
    name_words = {t for n in q.names for t in match_terms(n)}  # "MGM China": a part's name the question gives
    # each word of the focus on its own ("weighted", "average" of "diluted weighted average number of shares")
    focus_words = {t for word in q.focus.split() for t in match_terms(word)}
    # a line item's rate asked ("gross profit rate", "… percentage"): the words a share-of row says with a "%"
    rate_words = focus & _RATE_TERMS if q.language == "en" and focus - _RATE_TERMS and re.search(
        r"(?i)\b(?:rate|percentage|percent)$", q.focus) else set()
    # the label column's header ("| Capital expenditures: | Year Ended … |"): what the rows without a heading are
    stub = p.text[table.header[0]:table.header[1]].split("\n")[0].strip().strip("|").split("|")[0].strip() \
        if table.header is not None and table.markdown else ""
    # a table that counts things in every column ("Total Stores at End of Second Quarter", "Stores Opened"): its
    # "Pacific Sales" row is a store brand's count, no revenue — for an amount of money asked
    headers = [col.header for col in table.columns if not col.is_change]
    counts_table = bool(headers) and all(_COUNTED_THING.search(h) for h in headers) and not asks_count(q) \
        and _asks_money(q)
    flows_only = balance_asked and not (plain & _CASH) and _in_statement("cash", p, [table])
    tax_effects = not _TAX_ASKED.search(q.text)
    paid_asked = q.language == "en" and bool(q.focus) and asks_paid(q.text)
    per_share_asked = bool(PER_SHARE.search(q.text))
    asked_words = set(terms(item_phrase(q.focus))) if q.focus else set()
    # the line item asked by a lexicon name, and a row printed under the very words asked ("Gross margin" beside
    # "Gross profit"): the table's own name for it is the row meant, its synonym second
    worded_row = bool(item_groups) and bool(asked_words) and any(
        set(terms(r.label)) == asked_words and any(r.cells) for r in table.rows)
    # a count asked (the diluted share count): the rows under its heading may be what it adds up
    counted = asks_count(q) or bool(_SHARE_COUNT & q.focus_terms)
    # "How much did cash change in the nine months …?": a row that prints the item's change over the period
    # ("Increase/(Decrease) in cash …") is the answer; the item's level rows compared across columns are not
    printed_change = (q.kind == "change" and not since and change_ends(q) is None and any(
        change_row(r.label, r.section) and (plain - _TOTAL) <= match_terms(r.label)
        for r in table.rows))
    # a table with a row of every word asked, "total" included, has the total: no other row stands in for it
    totalled = _TOTAL <= plain and any(plain <= match_terms(f"{r.section} {r.label}") for r in table.rows)
    # "cash dividends paid" of the cash flow statement: each of its lines is cash, each outflow paid — its
    # "Dividends — common and preferred" says neither word
    implied_cash = bool(_CASH & plain and plain - _CASH - _PAID) and _in_statement("cash", p, [table])
    # the names of a part the question gives within the item asked ("Safety and Industrial segment operating
    # income"), not the filer's own — one figure asked ("Compare iPad and Mac net sales" names two)
    part_names = [n for name in q.names if (n := match_terms(name) - _GENERIC_SEGMENT) and n <= focus
                  and not n <= company] if q.kind == "value" else []
    # a table of parts by column under one period ("NORTH AMERICA | … | TOTAL NIKE, INC."): the column of the part
    # the question names, else the whole's
    by_column = part_columns(table)
    # (a part the question names besides the company: "Activision Blizzard's Blizzard segment")
    named_column = [c for c, header in by_column.items() if (h := match_terms(header) - _GENERIC_SEGMENT)
                    and any(h <= match_terms(n) for n in q.names if n not in q.strong_names)]
    whole = whole_column(table) if by_column and not named_column else -1
    part_pref = {c: 2 for c in named_column} | ({whole: 1} if whole >= 0 else {})
    named_terms = match_terms(by_column[named_column[0]]) if len(named_column) == 1 else set()
    # the line items each column's header names ("Oper. Income"), "total" aside
    column_items = {c: {t for t in header_terms(table.columns[c].header) if t.startswith("§")} - _TOTAL
                    for c in values}
    # … of them, those naming the item's amount, not a share of it ("Percent to Sales" names the base)
    item_columns = {c for c in values if item_groups and item_groups <= column_items[c]
                    and not _SHARE_HEADER.search(table.columns[c].header)}
    for row in table.rows:
        row_terms = match_terms(f"{row.section} {row.label}")
        # a row printed without a label under a heading ("Revenues:" … its parts … "3,592,216") is the heading's
        # total: the heading's words are its own
        own = match_terms(row.label) if row.label.strip() else match_terms(row.section) | _TOTAL
        if stubless:  # "Votes For | Votes Against" over one row of counts: the caption says what the row is
            own, row_terms = set(caption_terms), set(caption_terms)
        if asked_part and not part_of(row.label) and part_of(row.section) == asked_part:
            # the part asked ("deferred revenue (current)", "long-term debt") and said by the row's section heading
            # ("Current liabilities: Deferred revenue", "Long-term liabilities: Debt"): the row is that part
            # — said in the question's words ("short-term" for "Current liabilities:")
            part_named = match_terms(f"{asked_part_words} {row.label}") & plain
            if part_named - match_terms(asked_part_words):
                row_terms, own = row_terms | part_named, own | part_named
        if rate_words and _AS_SHARE_ROW.search(row.label):
            # "gross profit rate" asked: "Gross profit as a % of revenue" is that rate, said another way
            row_terms, own = row_terms | rate_words, own | rate_words
        paid_row = paid_asked and paid_item_row(q.focus, row.label, row.section)
        if paid_row:
            # "How much did Acme pay in income taxes?": "Cash income tax payments, net of refunds" is the item paid
            # — its payment words are what "pay" asks
            row_terms, own = row_terms | plain, (own & focus) | plain
        if implied_cash and (plain - _CASH - _PAID) & row_terms:  # the row names the item itself
            paid = _PAID if any(a is not None and a.value < 0 for a in (row.amount(c) for c in values)) \
                else frozenset()
            row_terms, own = row_terms | _CASH | paid, own | _CASH | paid
        if by_caption:  # "Subscription revenue by segment": each row is a segment's subscription revenue
            own, row_terms = own | caption_terms, row_terms | caption_terms
        elif named_terms:  # "NORTH AMERICA | … | TOTAL …" under one period: each row is the named part's, in its
            # column
            own, row_terms = own | named_terms, row_terms | named_terms
        elif segment_terms:  # "… for our Cash App segment": each row is that segment's
            own, row_terms = own | segment_terms, row_terms | segment_terms
        elif focus != plain and own and own <= focus - plain and plain <= caption_terms:
            # "SUPPLEMENTAL DATA – NET REVENUES": a caption of the item alone, its rows the parts ("MGM China") —
            # the row of the part the question names is that part's item
            own, row_terms = own | plain, row_terms | plain
        if not plain & row_terms:
            continue  # the row names the company ("… attributable to 3M"), not the item asked for
        if plain - _TOTAL and not (plain - _TOTAL) & row_terms:
            continue  # "Total non-current liabilities" for "total debt": only the "total" is the question's
        qualifier = focus - plain
        if qualifier and qualifier <= own and plain <= row_terms:
            # "gross margin for Services": the row is the name asked ("Services") under the item's heading
            # ("Gross margin:") — the heading's words count in full here, as a caption's do
            own = own | row_terms
        row_score = _row_score(focus, row_terms, caption_terms, w, own)
        if _TOTAL <= plain and not _TOTAL & row_terms and not totalled:
            # "total D&A" where the statement's one line is "Depreciation and amortization": the item, without
            # the "Total" a row of that name would have (such a row still ranks first); with the name the rows
            # qualify it by, or (as below) without it
            options = [(focus, TOTAL_MISSED)] + ([(plain, TOTAL_MISSED * QUALIFIER_MISSED)] if focus != plain else [])
            for asked, factor in options:
                item = asked - _TOTAL
                if item and item <= match_terms(row.label):
                    row_score = max(row_score, factor * _row_score(item, row_terms, caption_terms, w, own))
        if focus != plain:  # … unless the name is the company itself ("Net income attributable to 3M")
            row_score = max(row_score, QUALIFIER_MISSED * _row_score(plain, row_terms, caption_terms, w, own))
        if row_score <= 0:
            continue
        row_score *= balance_row_factor(q.text, q.kind in ("change", "comparison"), row.label, row.section)
        if worded_row and set(terms(row.label)) != asked_words:
            row_score *= SYNONYM_ROW
        states_change = printed_change and change_row(row.label, row.section)
        if printed_change and not states_change:
            row_score *= OTHER_END
        row_score *= per_share_factor(q.text, row.section, row.label)
        if per_share_asked and not PER_SHARE.search(f"{table.caption} {row.section} {row.label}"):
            row_score *= PER_SHARE_FOR_AMOUNT  # dividends per share asked: "Dividends declared and not paid 438"
        if per_share_asked and share_count_row(row.label):
            row_score *= PER_SHARE_FOR_AMOUNT  # "diluted EPS" is not the shares used to compute it
        row_score *= paid_row_factor(q.text, f"{row.section} {row.label}")
        # the movement asked is the row's own ("Number of stores opened during the period" for "… did Acme open")
        row_moved = bool(moved) and any(m.group(0).lower().startswith(moved) for m in MOVEMENT.finditer(row.label))
        if moved and not moved_columns and not row_moved:
            # "How many stores did Acme open …" of a roll-forward by rows: the row of that movement, not the count at
            # either end ("Total stores open at end of period")
            row_score *= MODIFIER_ONLY
        elif count and not movement_asked and MOVEMENT.search(row.label):
            row_score *= OTHER_END  # the stores asked: "Number of stores opened during the period" moved the count
        if asked_part and (part_of(row.label) or part_of(row.section)) not in ("", asked_part):
            row_score *= OTHER_PART  # the current part asked: "Operating lease liabilities - noncurrent" is the other
        if unasked_adjustment(row.label, table.caption, q.text):
            row_score *= NOT_AS_REPORTED  # "net earnings" asked: the reported figure, not "Adjusted Net Earnings"
        if partial_net_row(row.label, q):
            row_score *= PARTIAL_NET  # "net income" asked: the bottom line, not "… from continuing operations"
        row_score *= both_sides_factor(q.text, q.focus_terms, _TOTAL_LIABILITIES, row.label)
        # a row labelled only "Total" is named by its section ("Short-term debt securities: … Total")
        named = row.label if own - _TOTAL or not row.section else f"{row.section} {row.label}"
        if q.language == "en" and q.focus and (
                (modifier_only(q.focus, named) and not paid_row) or named_after_before(q.focus, named)
                or another_figure(q.focus, row.label) or measure_qualifies(q.focus, row.label)
                or another_share_basis(q.text, f"{row.section} {row.label}")
                or (len(q.focus_terms) == 1 and group_qualifies(next(iter(q.focus_terms)), row.label))):
            # "total debt" asked: "Debt issuance costs" are costs; "R&D": "R&D tax credit" is a credit
            row_score *= MODIFIER_ONLY
        if _names_a_part(q, row.section, repeated[row.label.lower()] > 1) or (
                not (focus - plain) & own and _a_part_of_its_total(q, table, row)):
            row_score *= PART_ROW
        if focus != plain and (focus - plain) & match_terms(row.section) and not (focus - plain) & own \
                and _ALL_SEGMENTS.match(row.label):
            # "MGM China's net revenues": "Reportable segment net revenues" under its heading is every segment's
            row_score *= MODIFIER_ONLY
        if row.section and focus & row_terms and not focus & own and not _TOTAL & own and own \
                and not set(terms(row.label)) & asked_words and (
                    counted or (len(row.label.split()) > 1 and not _WHEN_LABEL.search(row.label))):
            # a row the section heading alone names the item for, its own label naming another thing: "Diluted
            # shares: Stock options and restricted stock units 23,378" is a part of the diluted count, "Cash paid
            # during the period for: Interest paid 821" is interest — never sure ("Weighted-average shares: Diluted
            # 493" is the count: its label is a word of the question's; "Cash and cash equivalents: End of period"
            # is the cash, its label saying when; a one-word label qualifies its heading, "Net income per share:
            # Basic")
            row_score *= MODIFIER_ONLY
        if item_groups and not item_groups & (row_terms | caption_terms | heading_terms) and own - focus - _TOTAL \
                and not item_words & set(terms(f"{row.section} {row.label} {table.caption} {heading}")):
            # "total streaming revenue" asked: "Total streaming content obligations" shares its qualifier and the
            # "total" but names another thing, and no revenue — nor does its table's caption or heading — never
            # sure (a row that is only the part asked, "Optical Communications", is that part's item)
            row_score *= MODIFIER_ONLY
        if q.language == "en" and q.kind == "value" and row_with_others(q, row.label):
            row_score *= MODIFIER_ONLY  # the cash asked: "Less: Cash, cash equivalents and marketable securities"
        if investee_table:
            row_score *= OTHER_ENTITY  # ViiV's "Net income 2,040" is an investee's, not Pfizer's
        if counts_table:
            row_score *= OTHER_TABLE  # a count of stores, never an amount of money
        if plans_table:
            # the pension plans' "Cash and cash equivalents $412" (Level 1) is the plans', not the company's
            # balance — never sure
            row_score *= OTHER_TABLE
        if other_segments:
            # Lockheed's backlog asked: "Space's operating results: Backlog at year-end" is a segment's — never sure
            row_score *= MODIFIER_ONLY
        # the words that qualify the asked line item ("Las Vegas Strip Resorts" of "… net revenues"): none where the
        # item has no lexicon name ("technology and content")
        qualifier_words = {t for t in focus if not t.startswith("§")} - _TOTAL if item_groups else set()
        label_terms = match_terms(row.label)
        if q.language == "en" and qualifier_words and qualifier_words <= match_terms(row.section) \
                and not qualifier_words & label_terms and not _TOTAL & label_terms \
                and (label_terms - focus or re.fullmatch(r"(?i)\s*other\s*", row.label)):
            # "Las Vegas Strip Resorts net revenues" asked: "Las Vegas Strip Resorts: / Casino revenue", "Rooms",
            # "Other" are its parts — never sure
            row_score *= MODIFIER_ONLY
        negated = _NEGATED.search(row.label)
        if negated and negated.group(1).lower() in asked_words and not _NEGATED.search(q.text):
            row_score *= MODIFIER_ONLY  # casino revenue asked: "Non-casino revenue" is everything else
        if any(n & label_terms and n - (row_terms | caption_terms | heading_terms) for n in part_names):
            # "Safety and Industrial segment" asked: the rows "Safety and Graphics" and "Industrial" each name
            # another part, sharing a word of its name — never sure
            row_score *= MODIFIER_ONLY
        section_items = {t for t in match_terms(row.section or stub) if t.startswith("§")} - _TOTAL
        if q.language == "en" and item_groups and section_items and not section_items & focus \
                and not {t for t in label_terms if t.startswith("§")} and label_terms & (qualifier_words | name_words):
            # … and "Capital expenditures: / Las Vegas Strip Resorts" is the part's capital spending — never sure
            row_score *= MODIFIER_ONLY
        heading_words = match_terms(row.section) - _GENERIC_SEGMENT - _TOTAL
        # the line item a heading names, or would with "Total" before it ("Assets:" — "Total assets")
        heading_items = {t for t in heading_words | match_terms(f"total {row.section}") if t.startswith("§")} - _TOTAL
        if q.language == "en" and item_groups and heading_items and not heading_words & (focus | focus_words) \
                and not heading_items & focus and label_terms and not label_terms & item_groups \
                and not STRUCTURAL_SECTION.search(row.section):
            # … as are the rows under "Assets:" the segments' assets, not their operating income, whatever the
            # table's caption says — never sure
            row_score *= MODIFIER_ONLY
        if tax_effects and _DEFERRED_TAX.search(f"{table.caption} {row.section}"):
            row_score *= DEFERRED_TAX_ROW  # D&A asked: the deferred tax liability's "Depreciation and amortization"
        if _CURRENT_PART.search(row.label) and not _CURRENT_ASKED.search(q.text):
            row_score *= PART_ROW  # "long-term debt" asked: "Current portion of long-term debt" is the part due soon
        if balance_asked and flow_row(q.text, row.label):
            row_score *= PART_ROW  # … and "Repayment of long-term debt" is a flow of it, not the balance
        # inventories asked: the cash flow's "Changes in …: Inventories 7" is a change of it — never sure; so is any
        # row of a cash flow statement but cash's own
        change_of_balance = balance_asked and q.kind == "value" and (changes_section(row.section) or flows_only)
        if change_of_balance:
            row_score *= OTHER_END
        with_amount = [c for c in values if row.amount(c) is not None]
        if count:
            # "How many stores …": "(15)" under "Stores Closed" is a movement of the count, not the count
            # … but "(15)" under "Stores Closed" is the count asked when the question asks the stores closed
            with_amount = [c for c in with_amount if (a := row.amount(c)) is not None
                           and (a.value >= 0 or row_moved or (moved and moved in table.columns[c].header.lower()))
                           and not (MOVEMENT.search(table.columns[c].header) and not movement_asked)]
            # "How many stores did Acme open …": the column of that movement ("Stores Opened"), where there is one
            with_amount = [c for c in with_amount if moved and moved in table.columns[c].header.lower()] \
                or with_amount
        # "2018 / Net Sales | 2018 / % of Total | 2018 / Oper. Income", operating income asked: not the net sales
        # column, and of the year's columns the one naming the item
        if item_groups:
            with_amount = [c for c in with_amount if not column_items[c] - item_groups] or with_amount
        if not with_amount:
            continue
        if q.periods and not since:
            scored = sorted(((column_period_score(q, table, c), part_pref.get(c, 0), c in item_columns, -c, c)
                             for c in with_amount), reverse=True)
            period_score, _, _, _, col = scored[0]
            score = row_score * (0.5 + 0.5 * period_score)
            if period_score == 0:
                score = min(score, PERIOD_MISSING_CAP)
            elif q.span is None and table.columns[col].span in (3, 6, 9) and all(_bare_year(a) for a in q.periods):
                score = min(score, YESNO_OFF_FOCUS_CAP)  # "in 2022" asked: the six months ended June 30, 2022 are
                # part of it — never sure
            elif part_asked and _years_column(p, table, col):
                score = min(score, YESNO_OFF_FOCUS_CAP)  # the first six months of fiscal 2024 asked: "2023" of a
                # table of years is a year's figure — never sure
        else:  # no period asked: the latest of the first column's span ("2022 | 2023" tables print it second)
            col = latest_column(table, with_amount, q.span)
            score = row_score
        same_span = [c for c in with_amount if c != col and table.columns[c].span == table.columns[col].span]
        # another period's column of the same kind ("2022 / Amount" beside "2023 / Amount"), not the same period's
        # "Percent to Sales" column
        # … and of those, the period just before it: "2015 | 2016 | 2017" (oldest first) compares 2017 with 2016
        prior = max(same_span, key=lambda c: (_other_period(table, col, c), _same_kind(table, col, c),
                                              _just_before(table, col, c), -same_span.index(c))) if same_span else -1
        later_only = prior >= 0 and (mine := period_key(table.columns[col].periods)) is not None \
            and (theirs := period_key(table.columns[prior].periods)) is not None and theirs > mine
        if later_only:
            prior = -1  # fiscal 2019 asked of a table of 2021, 2020, 2019: no year before it here, not a later one
        if since:  # "… change since September 24, 2022?": that column is the start, the latest the end
            starts = sorted(((column_period_score(q, table, c), -c, c) for c in with_amount if c != col),
                            reverse=True)
            if starts and starts[0][0] > 0:
                prior = starts[0][2]
            else:
                score = min(score, PERIOD_MISSING_CAP)
        if states_change:
            prior = -1  # the row's own cell is the change
        ends = change_ends(q)
        if ends and len(same_span) > 1:  # the prior column is the one of the earlier period asked
            prior = max(same_span, key=lambda c: (column_period_score(q, table, c, (ends[1],)), -c))
        if ends and prior >= 0 and not states_change and _years_apart(table, col, prior) not in (
                None, (ends[0].year or 0) - (ends[1].year or 0)) \
                and column_period_score(q, table, col, ends[:1]) == 1.0 \
                and column_period_score(q, table, prior, ends[1:]) < 1.0:
            # fiscal 2019 asked beside fiscal 2022: the table's 2020 (a "neighbour" of 2019 by fiscal naming) is
            # three years from none of them — its later figure only, never sure (the earlier year is another
            # filing's: ``periods_apart``)
            prior, score = -1, min(score, YESNO_OFF_FOCUS_CAP)
        if q.kind in ("change", "comparison") and prior < 0 and change_col < 0 and not states_change:
            score *= 0.8
            if later_only:
                score = min(score, YESNO_OFF_FOCUS_CAP)  # the year asked is the table's earliest: no change here
        cell = row.amount(col)
        if cell is not None and cell.percent and _asks_money(q):
            # "… (in millions)?" is not answered by a "% of revenue" cell — at most shown as the closest evidence
            score = min(score * PERCENT_FOR_MONEY, PERCENT_FOR_MONEY_CAP)
        if cell is not None and ratio_asked and (cell.currency or money_cell(table, row, col)):
            score = min(score * PERCENT_FOR_MONEY, PERCENT_FOR_MONEY_CAP)  # a ratio is no amount of money
        if cell is not None and count and (cell.percent or cell.currency or money_cell(table, row, col)):
            # "How many shares …" is not answered by the dollars paid for them, nor by an EPS bridge's "$0.18"
            score = min(score * MONEY_FOR_COUNT, PERCENT_FOR_MONEY_CAP)
        if change_of_balance:
            score = min(score, PERCENT_FOR_MONEY_CAP)
        if _unpaid_for_cash(q, f"{row.section} {row.label}") and not q.focus_terms & _PAID_BY_NAME:
            # "How much cash did Acme pay for income taxes?": the provision, the deferred taxes are no cash paid
            # (a dividends or repurchases line is the payment, whatever its words)
            score = min(score, PERCENT_FOR_MONEY_CAP)
        if q.language == "en" and q.kind == "value" and _TAX_EFFECT_OF.search(row.label) \
                and not re.search(r"(?i)\btax", q.text):
            score = min(score, PERCENT_FOR_MONEY_CAP)  # "Tax benefit for share-based compensation expense"
        if q.language == "en" and _other_of(q, row.label):
            score *= OTHER_QUALIFIED  # comprehensive income asked: "Total other comprehensive income (loss)"
        if q.language == "en" and q.kind == "value" and part_line_of_whole(
                q, row.label, row.section if repeated[row.label.lower()] > 1 else ""):
            # operating lease liabilities asked: "Long-term operating lease liabilities" is their non-current part
            score = min(score, PERCENT_FOR_MONEY_CAP)
        if q.language == "en" and statistic_of(q.text, row.label):
            score = min(score, YESNO_OFF_FOCUS_CAP)  # "Average daily short-term borrowings": a statistic of the item
        if table.borrowed:
            score *= BORROWED_HEADER  # the same row under its own header is the better quote
        if unnamed_part:
            score = min(score, YESNO_OFF_FOCUS_CAP)  # "revenue from Comirnaty": the total revenues are not its
        score = score * name_factor(q, p, table=True) + 0.02 / (1 + rank)
        label = f"{row.section} {row.label}".strip() if row.section else row.label
        out.append(Evidence("cell", p, min(score, 1.0), row.line, label, table, row, col, prior, change_col))
    return out


#: a question's words for an item's rate ("gross profit rate", "gross margin percentage"), and a row that prints
#: one ("Gross profit as a % of revenue", "Gross margin rate")
_RATE_TERMS = match_terms("rate percentage percent")
_AS_SHARE_ROW = re.compile(r"(?i)%|\bpercent(?:age)?\b|\brate\b")


#: a column header of a share or a rate of an item ("Percent to Sales", "% of net sales"), not of its amount
_SHARE_HEADER = re.compile(r"(?i)percent|%|\bratio\b|\bmargin\b|\bchange\b|\bgrowth\b|\bshare\b")


#: a grid read in its page's other grid's columns (``tables.with_page_header``): a little below the same row under a
#: header of its own
BORROWED_HEADER = 0.97


#: how far after another company's named fact (an officer's office) the company asked must be named
FOREIGN_FACT_NEAR = 80
#: a company fact asked (its CEO, auditor, seat), the sentence names no holder and is another company's document's:
#: no answer — under ``decline.DECLINE_BELOW``
FOREIGN_FACT_CAP = 0.2


def _years_apart(table: Table, col: int, prior: int) -> int | None:
    """How many years column ``col``'s period is after column ``prior``'s (None when either has no one year)."""
    years = [{p.year for p in table.columns[c].periods if p.year is not None} for c in (col, prior)]
    return years[0].pop() - years[1].pop() if all(len(y) == 1 for y in years) else None


def period_key(periods: Sequence[Period]) -> tuple[int, int, int] | None:
    """Where ``periods`` end, for ordering (year, month — a quarter's last month —, day); None without a year."""
    keys = [(p.year, p.month or (p.quarter * 3 if p.quarter else 0), p.day or 0) for p in periods if p.year]
    return max(keys) if keys else None


def latest_column(table: Table, cols: Sequence[int], span: int | None = None) -> int:
    """Of ``cols`` (value columns), the one of the latest period among those of the asked span (else the first
    column's span); the first when no column has a dated period."""
    want = table.columns[cols[0]].span
    if span is not None and any(table.columns[c].span == span for c in cols):
        want = span
    same = [c for c in cols if table.columns[c].span == want] or list(cols)
    dated = [(key, -c, c) for c in same if (key := period_key(table.columns[c].periods)) is not None]
    return max(dated)[2] if dated else cols[0]


#: an English sentence that names none of the asked item's words counts this much for a value or a change
NO_ITEM = 0.3

#: the synonym group of "total" (a word of many rows, no line item of its own)
_TOTAL = frozenset({"§1"})

#: a row holding every word asked but the "total" ("Depreciation and amortization" for "total D&A")
TOTAL_MISSED = 0.95

#: a row of one part (a segment's "Net sales") for a question that names no part
PART_ROW = 0.93
_SHARE_COUNT = frozenset(match_terms("diluted weighted average shares"))
#: a table of another entity's figures, which the company holds a share of: "Summarized financial information for our
#: equity method investee, ViiV", a joint venture's results
_INVESTEE = re.compile(r"(?i)\bequity[- ]method\s+investees?\b|\binvestees?\b|\bjoint\s+ventures?\b|"
                       r"\bunconsolidated\s+(?:affiliates?|subsidiaries|entities|companies)\b|\bequity\s+affiliates?\b")
#: … its rows count this much for a question that asks about no such entity
OTHER_ENTITY = 0.6
#: a deferred-tax table's rows ("Deferred tax liabilities: Depreciation and amortization 67") are the tax effects of
#: the items' temporary differences, not the items: they count this much for a question about no deferred tax —
#: never sure ("Deferred tax assets: Stock-based compensation $149,367" is no compensation expense)
_DEFERRED_TAX = re.compile(r"(?i)\bdeferred\s+(?:income\s+)?tax|\btax\s+effects?\s+of\s+(?:the\s+)?temporary")
DEFERRED_TAX_ROW = 0.45
_TAX_ASKED = re.compile(r"(?i)\bdeferred\b|\btax")


#: a table of assets measured at fair value, by the hierarchy's levels ("Fair Value Measurements Using Inputs
#: Considered as / Level 1 / 2018") or of a benefit plan's assets by class: what a pension trust holds, or the part
#: of an item carried at fair value — not the company's balance ("3M's cash and cash equivalents at the end of
#: 2018" is the balance sheet's $2,853 million, not the plans' "Cash and cash equivalents | $412" at Level 1)
_FAIR_VALUE_LEVELS = re.compile(r"(?i)\blevel\s+[123]\b|\bfair\s+value\s+measurements?\s+using\b|"
                                r"\bplan\s+assets\b|\basset\s+class\b")
_FAIR_VALUE_ASKED = re.compile(r"(?i)\bfair\s+value|\blevel\s+[123]\b|\bplan\s+assets?\b|\bpension|"
                               r"\bpostretirement|\bbenefit\s+plans?\b|\basset\s+class")


#: … its rows, and a table of counts' ("Total Stores at End of Second Quarter") for money asked, count this much for
#: a question that asks about neither (below ``decline.SURE_AT`` even for a row that names the item exactly)
OTHER_TABLE = 0.4


def fair_value_levels(table: Table, passage: Passage, question: str) -> bool:
    """``table`` prints assets by the fair value hierarchy's levels or a plan's assets by class (its caption,
    columns or its passage's heading say so) and ``question`` asks about neither."""
    heading = passage.text.split("\n", 1)[0]
    header = " ".join(c.header for c in table.columns)
    return bool(_FAIR_VALUE_LEVELS.search(f"{heading} {table.caption} {header}")) \
        and not _FAIR_VALUE_ASKED.search(question)


def another_entitys(table: Table, passage: Passage, question: str) -> bool:
    """``table`` prints an investee's or a joint venture's figures (its caption or its passage's heading path says
    so: "NOTE 5. INVESTMENTS IN UNCONSOLIDATED JOINT VENTURES") and ``question`` asks about none."""
    heading = passage.text.split("\n", 1)[0]
    return bool(_INVESTEE.search(f"{heading} {table.caption}")) and not _INVESTEE.search(question)
#: the part of a long-term balance due within a year: a part of the item, asked only by name
_CURRENT_PART = re.compile(r"(?i)(?<!less\s)(?<!of\s)(?<!excluding\s)(?<!excl\.\s)(?<!the\s)"
                           r"\bcurrent\s+(?:portion|maturities|part)\b|"
                           r"\bdue\s+within\s+one\s+year\b")
_CURRENT_ASKED = re.compile(r"(?i)\bcurrent\b|\bshort[- ]term\b|\bdue\s+(?:within|in)\b")


def _a_part_of_its_total(q: Question, table: Table, row: Row) -> bool:
    """The row is one part of the item asked, which a total row of its table sums: "Net sales / Membership and
    other income / Total revenues" asked "revenues" — "Net sales" is a synonym of the item, but here a part of
    it, as "Other long-term debt" is of "Total long-term debt". Asked in the row's own words ("net sales"), or by
    the part's name ("gross margin for Services"), it is the row."""
    plain = set(q.focus_terms or q.terms)
    if not plain or _TOTAL & plain or _TOTAL & match_terms(row.label) or set(terms(q.focus)) == set(terms(row.label)):
        return False
    return any(r is not row and plain | _TOTAL <= match_terms(r.label) for r in table.rows)


def _names_a_part(q: Question, section: str, label_repeats: bool) -> bool:
    """The row's section heading names a part the question did not ask for: the label repeats under each
    section ("Americas: Net sales", "Europe: Net sales"), or the heading is a name (every word capitalised), not
    a line item nor a statement's ordering ("Rest of Asia Pacific:", where a chunk holds that section alone) —
    the whole ("Total net sales") answers a question that names no part."""
    section_terms = match_terms(section)
    asked = set(q.terms)
    for name in q.names:  # the part asked by its name ("MGM China"); the company's words ("MGM Resorts") no part's
        name_terms = match_terms(name)
        if name_terms and name_terms <= section_terms:
            return False
        asked -= name_terms
    if not section or section_terms & asked or STRUCTURAL_SECTION.search(section):
        return False
    if label_repeats:
        return True
    words = [w for w in re.findall(r"[A-Za-z][\w&'’-]*", section) if w.lower() not in _NAME_JOINERS]
    if len(words) >= 2 and words[-1].lower() == "operations" and all(w[0].isupper() for w in words) and not any(
            w.lower().rstrip("s") in _ACCOUNT_WORDS or w.lower() in _OPERATIONS_KINDS for w in words[:-1]):
        return True  # "Regional Operations", a segment — not "Discontinued Operations", a statement's heading
    return (bool(words) and all(w[0].isupper() for w in words) and not any(t.startswith("§") for t in section_terms)
            and not any(w.lower().rstrip("s") in _ACCOUNT_WORDS for w in words))


#: words of a statement's own headings ("Interest:", "Other Income", "Assets"): a heading of these is no part's name
_ACCOUNT_WORDS = frozenset(
    """interest income expense cost revenue sale asset liabilitie liability equity tax cash operation operating
    investing financing activitie activity other net total current noncurrent non-current deferred accrued
    adjustment item charge gain loss earning share dividend debt borrowing lease payable receivable inventorie
    amortization depreciation provision benefit compensation restructuring impairment numerator denominator""".split()
)
#: a label that names the item asked by its negation ("Non-casino revenue", "non-cash")
_NEGATED = re.compile(r"(?i)\bnon[-\s]?([a-z]+)")
#: the kinds of operations a statement's own headings name ("Discontinued Operations:"): no part's name
_OPERATIONS_KINDS = frozenset({"discontinued", "continuing", "results", "statements", "statement", "consolidated"})
#: lower-case words inside a capitalised name ("Rest of Asia Pacific")
_NAME_JOINERS = frozenset("of and the de la du & for".split())

#: evidence this close to the best (the passage rank's bonus is 0.02 at most) is the same figure, only ranked lower
SAME_FIGURE_MARGIN = 0.021


def _sentence_shape(text: str) -> str:
    """A sentence without its dates and figures: two filings' copies of one sentence have the same shape."""
    for p in sorted(find_periods(text), key=lambda p: -p.start):
        if 0 <= p.start < p.end:
            text = text[: p.start] + text[p.end :]
    return " ".join(re.sub(r"[\d.,$%()]+", " ", text).lower().split())


def _same_item(q: Question, label: str, other: str) -> bool:
    """Two filings' row labels for one line item: the same words, or each holding every term asked (a sign that
    changed renames the row: "Cash used in investing activities" one quarter, "Cash generated by/(used in)
    investing activities" the next)."""
    if label.lower() == other.lower():
        return True
    asked = set(q.focus_terms)
    return bool(asked) and asked <= match_terms(label) and asked <= match_terms(other)


def latest_first(q: Question, ranked: list[Evidence]) -> list[Evidence]:
    """No period asked, and the same line item's cell (or the same sentence) from two filings scores the same (the
    latest 10-Q and the one before it both print "iPhone"): the latest period's leads — what "how much did it
    change?" means."""
    if (q.periods and not since_asked(q)) or not ranked or ranked[0].kind not in ("cell", "sentence"):
        return ranked
    best = ranked[0]
    if best.kind == "cell":
        rivals = [ev for ev in ranked[1:8] if ev.kind == "cell" and _same_item(q, ev.label, best.label)
                  and ev.score >= best.score - SAME_FIGURE_MARGIN and ev.table is not None]
    else:  # the same sentence in each filing ("… shares … were outstanding as of <date>"), its figures aside
        shape = _sentence_shape(best.quote_text)
        rivals = [ev for ev in ranked[1:8] if ev.kind == "sentence" and ev.score >= best.score - SAME_FIGURE_MARGIN
                  and _sentence_shape(ev.quote_text) == shape]

    def key(ev: Evidence) -> tuple[int, int, int]:
        if ev.table is None:
            return period_key(find_periods(ev.quote_text)) or (0, 0, 0)
        return period_key(ev.table.columns[ev.col].periods) or (0, 0, 0)

    later = max(rivals, key=key, default=None)
    if later is None or key(later) <= key(best):
        return ranked
    return [later] + [ev for ev in ranked if ev is not later]


def _field_evidence(q: Question, p: Passage, fields: list[Field], w: dict[str, float], rank: int) -> list[Evidence]:
    focus = set(q.focus_terms or q.terms)
    out: list[Evidence] = []
    for field in fields:
        label_terms = match_terms(field.label)
        cov = coverage(focus, label_terms, w)
        if q.kind == "date":
            if field.date is None:
                continue
            cov = max(cov, 0.9 if "§13" in label_terms else 0.7 if not field.label else 0.5)
        elif field.amount is None or cov == 0:
            continue
        if field.amount is not None and field.rank < 2:
            # a plain total ranks just below "grand total"; a sub-total/tax/cash line far below, unless asked for
            asked_minor = bool(NOT_GRAND_TOTAL.search(q.focus))
            cov *= 0.97 if field.rank == 1 or asked_minor else MINOR_FIELD_FACTOR
        if field.amount is not None and field.amount.percent and _asks_money(q):
            cov = min(cov * PERCENT_FOR_MONEY, PERCENT_FOR_MONEY_CAP)  # "Comparable Sales Increased 15.6%": no sales
        if field.amount is not None and (field.amount.currency or field.amount.percent) and asks_count(q):
            # "How many shares did Acme repurchase?": "Share repurchases approximately $900 million" is what they cost
            cov = min(cov * PERCENT_FOR_MONEY, PERCENT_FOR_MONEY_CAP)
        if _unpaid_for_cash(q, field.label):
            cov = min(cov, YESNO_OFF_FOCUS_CAP)  # cash paid asked: "Income tax expense $101" is the expense
        if field.amount is not None and _RANGE_VALUE.search(field.value):
            cov = min(cov, YESNO_OFF_FOCUS_CAP)  # "Diluted earnings per share $24.70 to $25.40": an outlook's range
        score = cov * name_factor(q, p) + 0.02 / (1 + rank)
        out.append(Evidence("field", p, min(score, 1.0), field.line, field.label, field=field))
    return out


#: a value that is a range — an outlook's, a guidance's: "$24.70 to $25.40", "4% - 6%"
_RANGE_VALUE = re.compile(r"(?i)\d\s*%?\s*(?:to|-|–|—)\s*[$€£¥]?\s*\d")


def _nearest_after_focus(q: Question, sentence: str, candidates: list[tuple[int, str]]) -> str:
    """Of several amounts in a sentence, the first one after the last mention of what is asked ("확진자는 9,661명,
    사망자는 158명" → 158 for 사망자); the first amount when the sentence doesn't name the focus."""
    lowered = sentence.lower()
    ends = [m.end() for t in q.focus_terms if len(t) > 1 and not t.startswith("§")
            for m in re.finditer(re.escape(t), lowered)]
    if q.language == "en" and ends:
        # an amount said right before the item it measures: "… and 9 percent core constant currency EPS growth"
        # … or, an amount of money, with "of" between: "$3.9 billion of cash and short-term investments" (not "255
        # million and 272 million shares of common stock", each of its own date)
        first = q.focus.split()[0].lower() if q.focus.split() else ""
        starts = {m.start() for t in {*(t for t in q.focus_terms if len(t) > 1 and not t.startswith("§")),
                                      *((first,) if len(first) > 2 else ())}
                  for m in re.finditer(r"\b" + re.escape(t), lowered)}
        before = [c for c in candidates
                  if any(0 <= st - (c[0] + len(c[1])) <= 1 or (
                      c[1].lstrip("(").startswith(("$", "US$")) and lowered[c[0] + len(c[1]):st].strip() == "of"
                      and 0 <= st - (c[0] + len(c[1])) <= 4) for st in starts)]
        if before:
            return before[-1][1]
    if ends:
        after = [c for c in candidates if c[0] >= max(ends)]
        if after:
            return after[0][1]
    return candidates[0][1]


#: a length of time after a number ("12 months", "12-month"): not an amount of money
_DURATION_AFTER = re.compile(r"[\s-]+(?:months?|years?|days?|weeks?|hours?)\b", re.IGNORECASE)
#: words that join a headline's capitals ("APPOINTED AS CEO"), no part of a name
_JOINERS = frozenset({"as", "to", "the", "of", "and"})
#: a company's legal form, never a name asked for on its own
_LEGAL_FORMS = frozenset({"inc", "corp", "corporation", "co", "company", "ltd", "llc", "plc", "lp", "n.v", "s.a",
                          "ag", "se"})
#: an ordinal's ending right after its number ("53rd", "1st", "4th")
_ORDINAL = re.compile(r"(?:st|nd|rd|th)\b")
#: a month's name just before a number: "December 31" is a day (its year written elsewhere or not at all)
_MONTH_BEFORE = re.compile(r"(?i)\b(?:{})\.?\s*$".format("|".join(sorted(MONTHS, key=len, reverse=True))))
#: "how much …" asks an amount of money (or a share), not a duration or a count beside it
_HOW_MUCH = re.compile(r"(?i)\s*(?:\w+\s*,\s*)?(?:by\s+)?how\s+much\b")
#: an English amount's next words: what it counts, when they are not a unit, a verb or a function word
_COUNTED = re.compile(r"\s+(?:(?:million|billion|thousand|trillion)\s+)?([a-z][a-z\-]{2,}(?:\s+[a-z][a-z\-]{2,}){0,2})")
#: words between a count and what it counts ("566,000 full-time and part-time employees"): qualifiers, not the
#: thing counted
_COUNT_QUALIFIERS = re.compile(
    r"(?i)^(?:\s+(?:(?:million|billion|thousand)\b|(?:full|part)(?:[- ]time\b|-)|regular\b|permanent\b|temporary\b|"
    r"seasonal\b|salaried\b|hourly\b|active\b|total\b|and\b|or\b))+"
)
#: what a count of something else is of, though the unit word says what it counts ("116 million shares", "5.8
#: million hours" when employees are asked)
_OTHER_COUNTS = frozenset(("shares", "units", "hours", "days", "weeks", "months", "years", "times", "points"))
#: a number after these words is a threshold or a change of a count, not the count ("fewer than 300 employees",
#: "the net addition of approximately 11,100 employees")
_NOT_THE_COUNT = re.compile(r"(?i)\b(?:fewer|less)\s+than|\bup\s+to|\bno\s+more\s+than|\bat\s+most|\badditions?\s+of|"
                            r"\badded|\bhired|\breductions?\s+of|\breduced\s+by|\beliminat\w+|\blaid\s+off|"
                            r"\bfurloughed|\bexcluding")
#: a list of counts going on after one of them: ", 2.7 million", " and 2.5 million"
_LIST_GOES_ON = re.compile(
    r"(?i)\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)\d[\d.,]*(?:\s+(?:million|billion|thousand))?")
_NOT_COUNTED = frozenset(
    "and are but compared during for from higher into lower more less over than that the this was were which with "
    "while who whose has had have its their our per primarily mainly respectively approximately including "
    "increase increased increases decrease decreased decreases due net "
    "dollars dollar usd euros euro eur pounds sterling gbp yen jpy won krw yuan rmb francs rupees".split())


def _counts_other(q: Question, sentence: str, end: int, money: bool) -> bool:
    """The plain number ending at ``end`` counts something the question does not ask about: the noun right after
    it ("89 million restricted stock units", "12 stores") shares no word with the question. Money and
    percentages are amounts of whatever the sentence says, not counts."""
    if money:
        return False
    rest = sentence[end:]
    listed = _LIST_GOES_ON.match(rest)
    while listed:  # "2.5 million, 2.7 million and 2.5 million shares": what the list's last number counts
        rest = rest[listed.end():]
        listed = _LIST_GOES_ON.match(rest)
    qualified = _COUNT_QUALIFIERS.match(rest)
    m = _COUNTED.match(" " + rest[qualified.end():] if qualified else rest)
    if m is None:
        return False
    words = m.group(1).split()
    if words[0] in _NOT_COUNTED:
        return False
    return not (match_terms(" ".join(words)) & set(q.terms))


#: how a sentence states each cover fact of the company (``cover_facts``; the shares outstanding come first)
_FACT_IN_SENTENCE = {"incorporation": incorporation_in, "exchange": listed_on, "symbol": symbol_of}


#: what a count counts, after it: no amount of money
_COUNTED_THING = re.compile(r"(?i)\b(?:shares?|employees?|people|persons|units?|stores?|customers?|members?|"
                            r"holders?|votes?|options?|awards?)\b")
#: an item named by the money it is: "stock-based compensation expense", "restructuring charges", "proceeds …",
#: "operating lease liabilities"
_MONEY_HEAD = re.compile(r"(?i)\b(?:expenses?|costs?|charges?|revenues?|sales|payments?|proceeds|income|earnings|"
                         r"liabilit(?:y|ies)|obligations?|debt|borrowings|receivables?|payables?)$")


def _money_named(q: Question) -> bool:
    return q.kind == "value" and bool(_MONEY_HEAD.search(item_phrase(q.focus).strip()))


def answer_span(q: Question, sentence: str, *, heading_periods: bool = True) -> str:
    """The asked value inside a sentence: a date for "when", an amount (with its unit word) for "how much" — a
    percentage when the question asks one (``_asks_percent``). ``heading_periods``: an amount in a heading path's
    part that states another period is none (``_of_the_asked_clause``)."""
    asked = {p.text for p in q.periods}
    if asked_fact(q) == "shares":  # the count outstanding at a date, not a repurchase's, an award's or preferred's
        return next((count for _, count in shares_stated(sentence)), "")
    if q.language in ("ko", "ja") and (q.kind in ("value", "change") or asks_a_count(q.text)):
        return asked_number(q.text, sentence)  # "몇 명", "얼마", "몇 위": the counted number nearest what is counted
    if q.kind == "date":
        dates = []
        for order, period in enumerate(find_periods(sentence)):
            if period.text in asked or not (period.year or period.month):
                continue
            same_year = any(a.year is not None and abs(a.year - (period.year or 0)) <= 1 for a in q.periods)
            if not (period.month or period.day) and same_year:
                continue  # "fiscal 2022" for "When did fiscal year 2022 end?": the year asked, not when
            # of several: a full date of the year asked before a bare year of another ("… for the registrant's
            # 2023 Annual Meeting … the fiscal year ended December 2, 2022"), else the first
            dates.append((not (same_year and period.day), not period.day, order, period.text))
        if dates:
            return min(dates)[3]
    if q.kind in ("value", "change"):
        periods = find_periods(sentence)
        moved = _moved(q.text)
        movement_asked = bool(moved or MOVEMENT.search(q.text))
        # a statement's line item asked ("revenue from X", "net income"), no rate: an amount of money, never a
        # length of time
        money_item = (q.language == "en" and (bool(implied_statement(q.focus_terms)) or _money_named(q))
                      and not _RATE_WORDS.search(q.text) and not _PERCENT_WORDS.search(q.text) and not asks_count(q))
        candidates: list[tuple[int, str]] = []
        money: list[tuple[int, str]] = []  # those in a currency or a percentage
        percent_only = _asks_percent(q)  # "$33 million" is no operating margin
        ratio_only = _asks_ratio(q)  # "$15.3 billion" is no debt-to-equity ratio
        for s, e, amount in all_amounts(sentence):
            raw = sentence[s:e]
            if (percent_only and not amount.percent) or (ratio_only and amount.currency):
                continue
            if _REFERENCE.search(sentence, 0, s):  # "Note 10", "Item 7", "page 12": a reference, not an amount
                continue
            if raw[:1] in "-–−" and s > 0 and sentence[s - 1].isalnum():
                continue  # "COVID-19", "Mar-2", "X-200": a name's or a code's number, not a negative amount
            if raw in q.text or (not amount.percent and not amount.currency
                                 and re.fullmatch(r"\(?(?:19|20)\d\d\)?", raw)):  # a year, "(2013)" too
                continue
            if any(p.start <= s < p.end for p in periods) or _CLOCK.match(sentence, e):
                continue
            if not amount.percent and not amount.currency and _INDEX_NAME.search(sentence, max(0, s - 12), s):
                continue  # "the S&P 500 Retailing Index", "the Russell 2000": an index's name, not an amount
            if not amount.percent and not amount.currency and _ORDINAL.match(sentence, e):
                continue  # "a 53rd reporting week", "the 4th quarter": an ordinal, not an amount
            if not amount.percent and not amount.currency and _MONTH_BEFORE.search(sentence, max(0, s - 12), s):
                continue  # "As of / Year Ended December 31, Change 2017 2016": a day of a month, not an amount
            if not amount.percent and not amount.currency and FOOTNOTE_MARK.fullmatch(raw.strip()):
                continue  # "(3) Services net sales include …": a footnote's mark, not an amount
            if not amount.percent and not amount.currency and _SPAN_AFTER.match(sentence, e):
                continue  # "12 Weeks Ended March 25, 2023": the period's length, not an amount
            if not amount.percent and not amount.currency and _PAGE_FOOTER.search(sentence, max(0, s - 24), s):
                continue  # "… 2021 FORM 10-K 68": a running footer's page number glued into the sentence
            tail = _UNIT_WORD.match(sentence, e)
            # "73.3 cps", "49.0 cents per share": an amount of money per share, in cents (asked per share)
            priced = bool(amount.currency or amount.percent or (
                tail and _CENTS.fullmatch(tail.group(0).strip()) and PER_SHARE.search(q.text)))
            if not priced and q.language == "en" and (
                    (s > 0 and sentence[s - 1].isalpha()) or (e < len(sentence) and sentence[e].isalpha())
                    or sentence[e:e + 1] == "+"):  # "(65+)": an age or a threshold
                continue  # "BNT162b2", "A320": a product's or a code's number, not an amount
            if not priced and re.match(r"[-‐–][A-Za-z]", sentence[e : e + 2]):
                continue  # "a new 10-year gaming concession", "a 5-star rating": a word's modifier, not an amount
            if not priced and money_item and _DURATION_AFTER.match(sentence, e):
                continue  # "recognized … over the next 12 months", "a 12-month term" states no revenue
            if not priced and money_item and tail and _COUNTED_THING.search(tail.group(0)):
                continue  # compensation expense asked: "20 million shares … available for grant" is no expense
            if not priced and asks_count(q) and _NOT_THE_COUNT.search(" ".join(sentence[:s].split()[-4:])):
                continue  # "fewer than 300 employees", "the net addition of approximately 11,100 employees"
            moved_before = MOVEMENT.search(" ".join(sentence[:s].split()[-2:])) if asks_count(q) else None
            if not priced and moved_before and (not movement_asked or (
                    moved and not moved_before.group(0).lower().startswith(moved))):
                continue  # "… opened 47 new stores, relocated 12 stores": stores moved in the period, not the count
                # at its end — nor, "open" asked, the ones relocated
            if q.language == "en" and not tail and _counts_other(q, sentence, e, priced):
                continue  # "89 million restricted stock units were excluded from … diluted earnings per share"
            if tail and asks_count(q) and tail.group(0).strip() in _OTHER_COUNTS \
                    and not match_terms(tail.group(0)) & q.terms:
                continue  # employees asked: "… for issuance to employees is 116 million shares", "44 hours"
            candidates.append((s, (raw + tail.group(0)) if tail and not amount.percent else raw))
            if priced:
                money.append(candidates[-1])
        if money and q.language == "en" and (_HOW_MUCH.match(q.text) or money_item) and len(money) < len(candidates):
            candidates = money  # "How much commercial paper …": "$1.7 billion", not "within 12 months"
        elif money and asks_count(q):
            # "471 million shares", not "$56.0 billion"; employees asked: no count in "100% pay equity"
            candidates = [c for c in candidates if c not in money]
        if PER_SHARE.search(q.text):  # "dividends per share": "$3.193 billion ($5.44 per share)" states $5.44
            candidates = [c for c in candidates if _PER_SHARE_AFTER.match(sentence, c[0] + len(c[1]))
                          or _CENTS.search(c[1])] or candidates
        if not PER_SHARE.search(q.text):  # "$36 million ($28 million, or $0.10 per share, after-tax)": the amount,
            # not its restatement after tax or per share in the bracket after it
            restated = [(m.start(), m.end()) for m in _RESTATED.finditer(sentence)]
            candidates = [c for c in candidates if not any(a < c[0] < b for a, b in restated)] or candidates
            money = [c for c in money if c in candidates]
        focus_text = sentence
        if q.language == "en" and not _basis(q.text):
            # no basis asked: the reported figure, not the adjusted one beside it ("Reported Diluted EPS––$3.85
            # … Adjusted Diluted EPS (Non-GAAP)––$4.42"); the adjusted figure's label is no mention of the item
            adjusted = _adjusted_zones(sentence, candidates)
            if adjusted and len(adjusted) < len(candidates):
                candidates = [c for c in candidates if c[0] not in adjusted]
                money = [c for c in money if c in candidates]
                for start, begin in adjusted.items():
                    focus_text = focus_text[:begin] + " " * (start - begin) + focus_text[start:]
        if asks_count(q) and not money and (kinds := _kinds_summed(q, sentence)):
            return kinds  # "1,200 large-format and 400 small-format stores": every store asked, both kinds
        if asks_count(q) and not money and (whole := _whole_or_part(q, sentence, candidates)):
            return whole  # "2.2 million associates worldwide, with 1.5 million in the U.S. and 0.7 million …"
        # "… $981.3 million, $768.3 million and $570.0 million …", "… operated 815, 795, and 782 warehouses …"
        respective = _respective(q, sentence, money if len(money) >= 2 else candidates) or (
            _respective_part(q, sentence, money) if q.language == "en" else "")
        if respective:
            return respective
        # of amounts each followed by its own year ("… ($5.44 per share) in 2018, … ($4.70 per share) in 2017"), the
        # asked year's
        candidates = _of_the_asked_span(q, sentence, _of_the_asked_year(q, sentence, candidates))
        if heading_periods:
            candidates = _of_the_asked_clause(q, sentence, candidates)
        if candidates:  # "($5.44 per share)": the amount, not its bracket
            nearest = _nearest_after_focus(q, focus_text, candidates)
            return nearest[1:] if nearest.startswith("(") and ")" not in nearest else nearest
    if asks_auditor(q):
        return firm_in(sentence)  # the auditor asked: a firm ("Ernst & Young LLP"), not "Basis for Opinion"
    office = asked_office(q)
    if office:  # the CEO asked: the name the office follows, not "Form" or "OF THE SARBANES-OXLEY" — or, in news of
        # an appointment ("The board named Tomas Vey chief executive."), the name it names
        holder = next((name for _, name in office_holders(sentence, office, q.names)), "")
        if holder or not _APPOINTED.search(sentence):
            return holder
    if asks_headquarters(q):  # the company's own seat, not an acquired business's "headquartered in …"
        return seat_in(" ".join(sentence.split()), q.names)
    find = _FACT_IN_SENTENCE.get(asked_fact(q))
    if find:  # where it is incorporated / listed, its ticker: the company's own, not a subsidiary's, not "incorporation
        # by reference"
        return find(" ".join(sentence.split()), q.names)
    if q.kind == "name" and q.language == "en":
        heading = sentence.rfind("›") + 1  # a heading path's names ("Acme, Inc. › News Release") are not the answer
        spaced = re.sub(r"\b(?:[A-Z] ){3,}[A-Z]\b", lambda m: " " * len(m.group(0)), sentence)  # "N E W S": a banner
        asked_words = set(re.findall(r"\w+", q.text.lower()))
        found: list[tuple[int, int, str]] = []
        for m in re.finditer(r"\b[A-Z][\w&.\-]*(?:\s+(?:[A-Z][\w&.\-]*|of|and|&)){0,4}", spaced):
            name = m.group(0).rstrip(" .")
            if m.start() < heading or name.rstrip(".").lower() in _LEGAL_FORMS or len(name.split()[0]) < 2:
                continue  # "Inc" of "Acme, Inc."; "N E W S" of a letter-spaced banner
            words = name.split()
            if all(w.lower().strip(".,") in asked_words or w.lower() in _JOINERS for w in words):
                continue  # "AS CEO" for "… appointed as CEO?": the question's own words
            if name.isupper() and len(words) > 3:
                name = " ".join(words[:3])  # a headline in capitals: "JANE Q. DOE APPOINTED AS CEO" → the name
            if office and not person_name(name):
                continue  # the CFO asked: "Corning Cable Systems" of "… appointed CFO of Corning Cable Systems"
            if m.start() > 0 and name.lower() not in q.text.lower():
                found.append((m.start(), m.end(), name))
        return _nearest_the_asked(q, spaced, found)
    return ""


def _nearest_the_asked(q: Question, sentence: str, found: list[tuple[int, int, str]]) -> str:
    """Of the names a sentence holds, the one nearest the words the question asks about ("Who became the
    non-executive chair?" over "Mary N. Dillon Appointed as CEO … Dona D. Young to Become Non-Executive Chair" is
    Dona D. Young); the first when the sentence holds none of those words."""
    if not found:
        return ""
    names = {t for n in q.names for t in terms(n)}
    asked = [t for t in terms(item_phrase(q.focus)) if t not in names and len(t) > 2]
    # "Become Non-Executive Chair" names what was asked, not who; "who" asks a person ("Effective February" none)
    found = [f for f in found if not set(terms(f[2])) & set(asked)] or found
    if re.match(r"(?i)\s*who\b", q.text):
        found = [f for f in found if person_name(f[2])] or found
    at = [m.start() for t in asked for m in re.finditer(r"(?i)\b" + re.escape(t), sentence)]
    if not at:
        return found[0][2]
    return min(found, key=lambda f: (min(min(abs(a - f[0]), abs(a - f[1])) for a in at), f[0]))[2]


#: an amount not yet recognised: unrecognised compensation cost, an unamortised discount
_NOT_YET = re.compile(r"(?i)\bun(?:recogni[sz]ed|amorti[sz]ed)\b|\bnot\s+yet\s+(?:been\s+)?recogni[sz]ed\b")
#: how near its stated amount an "unrecognized" must be to qualify it
NOT_YET_REACH = 60


def _not_yet(sentence: str, span: str) -> bool:
    """The amount to state is one not yet recognised ("there was $98 million of unrecognized compensation")."""
    at = sentence.find(span)
    return at >= 0 and bool(_NOT_YET.search(sentence, max(0, at - NOT_YET_REACH), at + len(span) + NOT_YET_REACH))


#: a limit's words: "authorized to repurchase up to $1.5 billion", "an aggregate amount not to exceed $500 million"
_LIMIT = re.compile(r"(?i)\b(?:up\s+to|not\s+to\s+exceed|a\s+maximum\s+of|authori[sz](?:ed|ation|es|ing)?|"
                    r"capacity|limit(?:ed)?)\b")
#: how near before its stated amount a limit's word must be to qualify it
LIMIT_REACH = 50


def _limit_only(sentence: str, span: str) -> bool:
    """The amount to state is a limit ("authorized to repurchase up to $1.5 billion"), not an amount spent or held."""
    at = sentence.find(span)
    return at >= 0 and bool(_LIMIT.search(sentence, max(0, at - LIMIT_REACH), at))


#: the cash paid asked in so many words: "How much cash did Acme pay for …", "cash paid for income taxes"
_CASH_PAID_ASKED = re.compile(r"(?i)\bcash\b.{0,40}\bpa(?:y|id|ys)\b|\bpa(?:y|id)\s+in\s+cash\b")
def _unpaid_for_cash(q: Question, text: str) -> bool:
    """The cash paid is asked in so many words (or what was paid for interest or income taxes, whose expense is
    another figure) and ``text`` (a row's label, a field's, a sentence) says nothing was paid: "Provision for
    income taxes" for "How much cash did Acme pay for income taxes?" or "How much did Acme pay in income taxes?"."""
    return q.language == "en" and bool(_CASH_PAID_ASKED.search(q.text) or (
        asks_paid(q.text) and supplemental_item(q.focus))) and paid_row_factor(q.text, text) < 1.0


#: the items whose cash-flow line is the payment itself, in whatever words ("Dividends — common and preferred")
_PAID_BY_NAME = frozenset(t for item in ("dividends", "share repurchases", "capital expenditure")
                          for t in match_terms(item) if t.startswith("§"))
#: the tax effect of an item: "tax benefits related to stock-based compensation", "Tax benefit for share-based
#: compensation expense"
_TAX_EFFECT_OF = re.compile(r"(?i)\btax\s+(?:benefits?|effects?|deductions?|windfalls?)\s+(?:related\s+to|for|from|on|"
                            r"of|associated\s+with|recogni[sz]ed\s+(?:for|on))\b")
#: a quarter's figure ("a quarterly cash dividend of $0.27 per share") unless the sentence speaks of the year
_QUARTERLY = re.compile(r"(?i)^(?!.*\b(?:annual|annualized|full[- ]year)\b).*\bquarterly\b", re.DOTALL)
#: an amount said to have been paid ("We paid net $93.9 million", "cash payments of $282 million"), and a question
#: that asks what was paid
_PAID_BEFORE = re.compile(r"(?i)\b(?:paid|payments?\s+(?:of|totaling|totalling))\b(?:\s+\w+){0,3}\s*$")
_OUTFLOW_ASKED = re.compile(r"(?i)\bcash\s+(?:spent|used|outflow)\b|\bdividends?\b")
#: a span that is a length of time, and a question that asks one
_DURATION_SPAN = re.compile(r"(?i)\b(?:months?|years?|days?|weeks?)$")
_DURATION_ASKED = re.compile(r"(?i)\bhow\s+(?:long|many\s+(?:years|months|days|weeks))\b|"
                             r"\b(?:term|useful\s+li(?:fe|ves)|duration|maturity|tenure|period)\b")
#: a stock index named with a number ("S&P 500", "Russell 2000", "Fortune 500", "NASDAQ-100")
_INDEX_NAME = re.compile(r"(?i)\b(?:S&P|S\s*&\s*P|Russell|Fortune|NASDAQ|Nasdaq|Dow\s+Jones|FTSE|Nikkei|STOXX|DAX|"
                         r"MSCI\s+\w+)[\s-]*$")
#: "X as a percent of Y", "X as a share of Y": X is what is measured, Y only its base
_AS_SHARE_OF = re.compile(r"(?i)^(.+?)\s+as\s+a\s+(?:percent(?:age)?|%|share|proportion|fraction)\s+of\s+\S")
#: words any item's name may hold: no sign of which item a sentence is about
_GENERIC_ITEM = frozenset({"expense", "cost", "amount", "total", "§1", "charge", "balance", "value", "net", "gross",
                           "liability", "asset"})
#: a sentence of what would have been: "If … had been … higher or lower by 1%, it would have …", "… would have been
#: $X if …" (a sensitivity or a pro forma, not the figure reported)
_HYPOTHETICAL = re.compile(r"(?i)\bif\b[^.;]*\b(?:had|were)\b[^.;]*\bwould\b|\bwould\s+have\b[^.;]*\bif\b")
_HYPOTHETICAL_ASKED = re.compile(r"(?i)\bwould\b|\bif\b|\bpro\s+forma\b|\bsensitivity\b")
#: a range's other end right after an amount: "67-71 cents", "$24.70 to $25.40"
_RANGE_AFTER = re.compile(r"\s*(?:-|–|—|to)\s*[$€£¥]?\s*\d")
#: the bases an amount is stated on: a measure adjusted by the company, or as reported under GAAP
_ADJUSTED_BASIS = re.compile(r"(?i)\b(?:core|adjusted|non-?gaap|organic|underlying|pro\s+forma|comparable)\b")
_REPORTED_BASIS = re.compile(r"(?i)\b(?:reported|gaap|as\s+reported)\b(?!\s+to\b)")
#: how near before its amount a basis word qualifies it
BASIS_REACH = 30


def _range_after(sentence: str, span: str) -> bool:
    at = sentence.find(span)
    return at >= 0 and bool(_RANGE_AFTER.match(sentence, at + len(span)))


def _basis(text: str) -> str:
    if _ADJUSTED_BASIS.search(text):
        return "adjusted"
    return "reported" if _REPORTED_BASIS.search(text) else ""


def _adjusted_zones(sentence: str, candidates: Sequence[tuple[int, str]]) -> dict[int, int]:
    """The candidates a sentence states on an adjusted basis: each one's start → where its label begins (the text
    since the candidate before it, at most ``BASIS_REACH`` × 2 back, says "Adjusted", "Non-GAAP", "core" …)."""
    out: dict[int, int] = {}
    previous_end = 0
    for start, raw in sorted(candidates):
        begin = max(previous_end, start - 2 * BASIS_REACH)
        if _basis(sentence[begin:start]) == "adjusted":
            out[start] = begin
        previous_end = start + len(raw)
    return out


def _other_basis(question: str, sentence: str, span: str) -> bool:
    """The question asks an amount on one basis (reported / adjusted) and ``sentence`` states ``span`` on the
    other: "What was PepsiCo's reported EPS …" — "… imply 2023 core EPS of $7.27"."""
    asked = _basis(question)
    at = sentence.find(span)
    if not asked or at < 0:
        return False
    stated = _basis(sentence[max(0, at - BASIS_REACH):at])
    return bool(stated) and stated != asked


#: a sentence that tells of an appointment to an office
_APPOINTED = re.compile(r"(?i)\b(?:appoint(?:s|ed)?|nam(?:es|ed)|elect(?:s|ed)|promot(?:es|ed)|succeed(?:s|ed)?)\b")
#: a page's running footer before its number: "2021 FORM 10-K 68", "Page 68"
_PAGE_FOOTER = re.compile(r"(?i)(?:\bform\s+10-?[kq]|\bpage)\s*$")
#: "… ($5.44 per share)": the amount is per share
_PER_SHARE_AFTER = re.compile(r"(?i)\)?\s*(?:per|a)\s+(?:\w+\s+){0,2}share\b")
#: an amount's own year after it: "$3.193 billion ($5.44 per share) in 2018, $2.803 billion … in 2017"
_YEAR_AFTER = re.compile(r"(?i)(?:\s*\([^()]{0,80}\))?[^,;$(]{0,30}?\b(?:in|for|during)\s+"
                         r"(?:fiscal\s+(?:year\s+)?|FY\s?)?((?:19|20)\d\d)\b")


#: a bracket right after an amount that restates it ("$36 million ($28 million, or $0.10 per share, after-tax)")
_RESTATED = re.compile(r"(?i)(?:(?<=million)|(?<=billion)|(?<=thousand)|(?<=\d))\s*\(\s*[$€£¥][^()]{0,80}\)")


#: where a sentence turns to the period it compares with
_COMPARED = re.compile(r"(?i),?\s+\b(?:(?:as\s+)?compared\s+(?:to|with)|versus|vs\.)\s+")


def _of_the_asked_year(q: Question, sentence: str, candidates: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """``candidates`` less those followed by another year than the asked one, which the sentence also states ("did
    not pay any dividends in 2022 and 2021 compared with $1.2 billion paid in 2020": no amount of 2022)."""
    years = {p.year for p in q.periods if p.year is not None}
    if len(years) != 1 or str(next(iter(years))) not in sentence:
        return candidates
    asked = str(years.pop())
    kept = [(s, raw) for s, raw in candidates
            if not ((m := _YEAR_AFTER.match(sentence, s + len(raw))) and m.group(1) != asked)]
    # a comparison ("For the year ended December 31, 2022, we generated net income of $1,316 million, compared to
    # net income of $1,906 million … for the year ended December 31, 2021"): the amounts of the side that names the
    # asked year, where the other side names another year only
    sides = _COMPARED.split(sentence, maxsplit=1)
    if len(sides) == 2:
        cut = len(sides[0])
        years_of = [{p.year for p in find_periods(side) if p.year is not None} for side in sides]
        own_side = [i for i, ys in enumerate(years_of) if int(asked) in ys]
        if len(own_side) == 1 and years_of[1 - own_side[0]] - {int(asked)}:
            side = [c for c in kept if (c[0] < cut) == (own_side[0] == 0)]
            if side:
                return side
    # clauses listing each year's amount ("in 2022 were affected by $100 million …; … $36 million … in 2021; …
    # $96 million …"): the amounts of the clause that names the asked year
    clauses = [(m.start(), m.end()) for m in re.finditer(r"[^;]+", sentence)]
    if len(clauses) > 1:
        own = [c for c in kept if any(a <= c[0] < b and re.search(rf"\b{asked}\b", sentence[a:b]) for a, b in clauses)]
        return own or kept
    return kept


#: where a heading path's parts part ("… › June 2023 quarter: GAAP diluted EPS of 12.3 cps; Adjusted EPS of 19.3 cps
#: › Fiscal 2023 Full Year Highlights › • …")
_CLAUSE_END = re.compile(r"\s*›\s*")


def _of_the_asked_clause(q: Question, sentence: str, candidates: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """``candidates`` less those whose clause states a period, none of which is the asked one — a quarter's figure
    in a heading path glued before a year's question ("June 2023 quarter: GAAP diluted EPS of 12.3 cps" for fiscal
    2023's EPS). Only the heading path's parts are read so, not the sentence after it."""
    last = sentence.rfind("›")
    if q.language != "en" or not q.periods or not candidates or last < 0:
        return candidates
    bounds = [0, *(m.end() for m in _CLAUSE_END.finditer(sentence, 0, last + 1)), len(sentence) + 1]
    kept: list[tuple[int, str]] = []
    for s, raw in candidates:
        if s > last:  # the sentence itself, after its heading path: read as any other
            kept.append((s, raw))
            continue
        k = max(i for i, b in enumerate(bounds[:-1]) if b <= s)
        clause = sentence[bounds[k] : bounds[k + 1]]
        stated = [p for p in find_periods(clause) if p.year is not None]
        if not stated or any(agreement(a, o) > 0 and not _part_of_year(a, o, clause) for a in q.periods
                             for o in stated):
            kept.append((s, raw))
    return kept


#: what joins an amount to the period it is of ("7.5% for the first six months of 2023")
_FOR_PERIOD = re.compile(r"\s*(?:for|in|during)\s+(?:the\s+)?")
#: how far after an amount its period is read
PERIOD_AFTER = 60


def _of_the_asked_span(q: Question, sentence: str, candidates: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Of amounts each followed by its own period ("(3.1)% for the second quarter of 2023, compared to 13.7% for the
    second quarter of 2022, and was 7.5% for the first six months of 2023 …"), those of the asked period and length
    (the first six months of 2023: 7.5%); ``candidates`` as they are when any amount states no period of its own."""
    if len(candidates) < 2 or not q.periods:
        return candidates
    kept: list[tuple[int, str]] = []
    for s, raw in candidates:
        end = s + len(raw)
        joined = _FOR_PERIOD.match(sentence, end)
        after = sentence[end : end + PERIOD_AFTER]
        stated = [p for p in find_periods(after) if p.year is not None] if joined else []
        if not stated:
            return candidates
        own = stated[0]
        said = after[: own.end]
        length_fits = (q.span is None or q.span in spans_in(said) or (q.span == 3 and own.quarter is not None)
                       or (q.span == 6 and own.half is not None))
        if length_fits and max(agreement(a, own) for a in q.periods) > 0:
            kept.append((s, raw))
    return kept or candidates


_RESPECTIVELY = re.compile(r"(?i)\brespectively\b")
#: how well a listed period must agree with the asked one to pick its amount (a neighbouring year agrees 0.4)
RESPECTIVE_FIT = 0.5


#: counts of two kinds of one thing: "approximately 1,200 large-format and 400 small-format stores"
_KINDS = re.compile(r"(?i)(?<![\w$.,])(?P<about>(?:approximately|about|nearly|over|around)\s+)?"
                    r"(?P<a>\d{1,3}(?:,\d{3})+|\d+)\s+(?P<ka>[a-z][\w-]*)\s+and\s+(?P<b>\d{1,3}(?:,\d{3})+|\d+)\s+(?P<kb>[a-z][\w-]*)\s+"
                    r"(?P<noun>[a-z]\w*)")


def _kinds_summed(q: Question, sentence: str) -> str:
    """A count asked of all of a thing ("How many stores did Acme have?") that the sentence gives as two kinds'
    counts ("1,200 large-format and 400 small-format stores"): their sum, both stated — "1,600 in total (1,200
    large-format + 400 small-format)"; "" when the sentence has no such pair, or the question names a kind."""
    for m in _KINDS.finditer(" ".join(sentence.split())):
        if not set(terms(m.group("noun"))) & q.terms:
            continue
        if {*terms(m.group("ka")), *terms(m.group("kb"))} & q.terms:
            return ""  # "How many small-format stores …": that kind's count
        a, b = (int(m.group(k).replace(",", "")) for k in ("a", "b"))
        about = "about " if m.group("about") else ""
        return f"{about}{a + b:,} in total ({m.group('a')} {m.group('ka')} + {m.group('b')} {m.group('kb')})"
    return ""


#: rounding within which counts add up to their total ("more than 2.2 million": 1.5 + 0.7 million)
PARTS_SLACK = 0.02
#: words after a part's count that say which part it is, read up to this many
PART_NAME_WORDS = 5


def _whole_or_part(q: Question, sentence: str, candidates: list[tuple[int, str]]) -> str:
    """A count asked where the sentence gives a whole and its parts ("more than 2.2 million associates worldwide,
    with 1.5 million in the U.S. and 0.7 million internationally"): the whole — the count the others add up to —
    or, where the question names a part (a word the sentence says after that part's count only: "How many
    associates did Acme employ in the U.S.?"), that part's count. "" when no count is the others' sum."""
    values: list[tuple[float, int, str]] = []
    for start, text in candidates:
        found = all_amounts(text)
        if found and not found[0][2].percent:
            values.append((found[0][2].value, start, text))
    if not 3 <= len(values) <= 6:
        return ""
    asked = _plain_words(q.text)
    for total, _, text in values:
        others = [v for v in values if v[2] != text and v[0] < total]
        for size in range(2, len(others) + 1):
            for parts in itertools.combinations(others, size):
                if abs(sum(v for v, _, _ in parts) - total) > PARTS_SLACK * total:
                    continue
                # the words after each part's count, but those said after the whole's too ("associates"): which
                # part it is ("in the U.S.", "internationally")
                whole_at = next(start for _, start, t in values if t == text)
                said_of_whole = _plain_words(" ".join(sentence[whole_at + len(text):].split()[:PART_NAME_WORDS]))
                named = [(len((_plain_words(" ".join(sentence[start + len(part):].split()[:PART_NAME_WORDS]))
                               - said_of_whole) & asked), part) for _, start, part in parts]
                best = max(named)
                if best[0] and [n for n, _ in named].count(best[0]) == 1:
                    return best[1]  # the part the question names: "… in the U.S." → "1.5 million"
                return "" if best[0] else text
    return ""


def _plain_words(text: str) -> set[str]:
    """The words of ``text`` in lower case, without the joining ones ("in", "the", "and"): "U.S." is "u.s"."""
    return {w.lower().rstrip(".") for w in re.findall(r"[A-Za-z][\w.'’-]*", text)} - _JOINING_WORDS


_JOINING_WORDS = frozenset({"in", "the", "and", "of", "with", "a", "an", "at", "our", "its", "their", "or", "for",
                            "to", "by", "as"})


def _respective(q: Question, sentence: str, money: list[tuple[int, str]]) -> str:
    """"… were $981.3 million, $768.3 million and $570.0 million for the years ended December 31, 2017, 2016 and
    2015, respectively": the amount in the asked period's place — as many amounts as periods stated, in order.
    "" when the sentence lists no such pairs or does not state the asked period."""
    if not q.periods or not _RESPECTIVELY.search(sentence) or len(money) < 2:
        return ""
    stated = [p for p in find_periods(sentence) if p.year is not None]
    if len(stated) != len(money):
        return ""
    for asked in q.periods:
        fit = [agreement(asked, p) for p in stated]
        best = max(fit)
        if best >= RESPECTIVE_FIT and fit.count(best) == 1:  # the asked year itself, not a neighbour's
            return money[fit.index(best)][1]
        tied = [i for i, f in enumerate(fit) if f == best]
        if best >= RESPECTIVE_FIT and _ENDING.search(q.text) and all(stated[i].day for i in tied):
            # "the opening balance … as of January 1, 2019 and the ending balance as of December 31, 2019, were $1.6
            # billion and $1.4 billion, respectively", asked at the end of 2019: the later date's
            return money[max(tied, key=lambda i: (stated[i].month or 0, stated[i].day or 0))][1]
    return ""


#: what joins the amounts of a list ("21% and 58%", "$1.2 billion, $0.8 billion and $0.3 billion")
_LIST_JOIN = re.compile(r"(?i)\s*(?:,\s*(?:and\s+)?|\s+and\s+)\s*")
#: where the list of names of a part-by-part sentence ends
_LIST_END = re.compile(r"(?i)[,;]?\s*respectively\b")


def _respective_part(q: Question, sentence: str, money: list[tuple[int, str]]) -> str:
    """"… an increase of 21% and 58% in revenues in the Domestic streaming and International streaming segments,
    respectively", the domestic streaming revenues asked: the amount in the place of the part whose name holds every
    word that qualifies the item asked (and no other part's name does) — as many amounts listed as names. "" when the
    sentence lists no such pairs."""
    end = _LIST_END.search(sentence)
    if not end or len(money) < 2:
        return ""
    listed = [c for c in money if c[0] < end.start()]
    if len(listed) < 2:
        return ""
    run = listed[-1:]  # the amounts listed together, the last one's back
    for c in reversed(listed[:-1]):
        if not _LIST_JOIN.fullmatch(sentence[c[0] + len(c[1]):run[0][0]]):
            break
        run.insert(0, c)
    names = [n for n in re.split(r"(?i),\s*(?:and\s+)?|\s+and\s+", sentence[run[-1][0] + len(run[-1][1]):end.start()])
             if n.strip()]
    asked = {t for t in q.focus_terms if not t.startswith("§")} - _GENERIC_ITEM
    if len(run) < 2 or len(names) != len(run) or not asked:
        return ""
    holding = [i for i, n in enumerate(names) if asked <= match_terms(n)]
    return run[holding[0]][1] if len(holding) == 1 else ""


#: a balance asked at the end of its period ("at the end of FY2019", "year-end", "ending balance")
_ENDING = re.compile(r"(?i)\b(?:at|as\s+of)\s+(?:the\s+)?(?:end|close)\b|\byear[- ]end\b|\bending\b|\bclosing\b")


#: "total" as a verb ("… advance payments total $3.3 billion", "… which totaled $2.1 billion"): how much, not the
#: item's total
_TOTAL_VERB = re.compile(r"(?<=[a-z] )(?<!grand )(?<!sub )(?<!net )total(?:s|ed|led|ing|ling)?"
                         r"(?=\s+(?:approximately\s+|about\s+|nearly\s+|over\s+|almost\s+)?(?:\$|US\$|€|£)?\s?\d)")


def _part_of_year(asked: Period, stated: Period, sentence: str, *, months: bool = True) -> bool:
    """A whole year asked ("FY2018", "in 2018"), a quarter or half of it stated ("the fourth quarter of 2018"):
    the sentence's figure is that part's, not the year's — but "at the end of the fourth quarter" is the year's
    end."""
    whole = asked.quarter is None and asked.half is None and asked.month is None and asked.span_months in (None, 12)
    # "… six months ended June 30, 2022"; a month, "February 2022", when an amount is asked (``months``: an event
    # of a month is an event of its year)
    part = stated.quarter is not None or stated.half is not None or stated.span_months in (3, 6, 9) \
        or bool(_PART_ENDED.search(sentence, 0, stated.start)) \
        or (months and stated.month is not None and stated.day is None)
    if whole and part and (stated.quarter == 4 or stated.half == 2) \
            and _AT_THE_END.search(sentence, 0, stated.start):
        return False
    return whole and part


_AT_THE_END = re.compile(r"(?i)\b(?:end|close)\s+of\s+(?:the\s+)?(?:its\s+|our\s+)?$")
#: a part of a year's length before its end date ("six months ended", "13 weeks ended", "quarter ended")
_PART_ENDED = re.compile(r"(?i)\b(?:(?:three|six|nine|3|6|9)[- ]months?|(?:[1-9]|[1-4]\d)[- ]weeks?|quarters?)\s+"
                         r"(?:then\s+)?(?:ended|ending)\s+$")
#: words that say a sentence speaks of part of a year
_PART_OF_YEAR_WORDS = re.compile(r"(?i)\bquarter(?:s|ly)?\b|\bhalf\b|\bmonths?\b|\bweeks?\b|\byear[- ]to[- ]date\b|"
                                 r"\b[1-4]Q\b|\bQ[1-4]\b|\b[HQ][1-4]\s?(?:FY)?\d{2,4}\b")


def _part_of_year_asked(q: Question) -> bool:
    """A quarter, a half or some months of a year asked ("Q2 FY2024", "the first six months of 2023")."""
    return q.span in (3, 6, 9) or any(a.quarter or a.half for a in q.periods)


def _years_column(p: Passage, table: Table, col: int) -> bool:
    """Column ``col`` is a year's: years alone head it ("2023"), and nothing of the table's header or caption speaks
    of a part of a year (a release's "Q2 ($ in Millions) | 2023 | 2022" is a quarter's)."""
    column = table.columns[col]
    if column.span is not None or not column.periods or not all(_bare_year(o) for o in column.periods):
        return False
    header = p.text[table.header[0] : table.header[1]] if table.header else ""
    return not _PART_OF_YEAR_WORDS.search(" ".join([table.caption, header, *(c.header for c in table.columns)]))


def _years_only(q: Question, stated: Sequence[Period], sentence: str) -> bool:
    """A quarter, a half or some months asked; the sentence states years only — no quarter, half, months or weeks
    anywhere in it: its figures are whole years'."""
    spans = set(spans_in(sentence))
    # years: a year alone ("in 2023"), or the end dates of years ("the fiscal years ended June 30, 2023, 2022") —
    # not a day's date ("On March 2, 2023, we announced …")
    years = all(o.month is None for o in stated) or 12 in spans
    return (_part_of_year_asked(q) and bool(stated) and years and not any(o.quarter or o.half for o in stated)
            and not spans & {3, 6, 9} and not _PART_OF_YEAR_WORDS.search(sentence))


def _sentence_evidence(
    q: Question, p: Passage, spans: list[tuple[int, int]], w: dict[str, float], rank: int,
    words: WordMatcher | None = None, asked: tuple[AnswerType, str] = ("", ""),
) -> list[Evidence]:
    terms_asked = set(q.terms)
    # Korean/Japanese: the document's title is part of every sentence's context — a sentence speaks of its
    # article's subject without naming it ("이 배는 …" in "노아의 방주", the subject dropped altogether)
    title = p.title() + "\n" if words is not None and p.file_name else ""
    context = words.coverage(title + p.text) if words is not None else 0.0
    period_terms = {t for period in q.periods for t in match_terms(period.text)}
    rows: list[tuple[int, int, float, bool, bool]] = []  # span, sentence coverage, fits the period, typed answer
    contradicted_at: set[tuple[int, int]] = set()  # spans that state another period only
    # a document whose year ends after March (December, June): its "FY2022" is 2022, never the 2021 a retailer's
    # fiscal 2022 may end in
    late_year_end = bool(re.match(r"\d{4}-(?:0[4-9]|1[0-2])", p.period_end))
    amount_asked = q.kind in ("value", "change", "comparison")
    paid_asked = q.language == "en" and bool(q.focus) and asks_paid(q.text)
    paid_terms = {t for word in paid_words(q.text) for t in match_terms(word)}
    for s, e in spans:
        sentence = p.text[s:e]
        offered = match_terms(_TOTAL_VERB.sub(" ", sentence) if q.language == "en" else sentence)
        stated = find_periods(sentence)
        full_year_list = False
        if not stated and q.language == "en":  # "• Adjusted EPS of 73.3 cps" under "Fiscal 2023 Full Year Highlights"
            heading = bullets_heading(p.text, s)
            stated = find_periods(heading)
            # "Consolidated Results" under "Fourth Quarter 2022 Financial Highlights:": the period is a line above
            for above in headings_above(p.text, s) if heading and not stated else ():
                if find_periods(above):
                    heading = above + " " + heading
                    stated = find_periods(heading)
                    break
            # the full year's highlights are not a quarter's figures
            full_year_list = 12 in spans_in(heading) and (q.span in (3, 6, 9) or any(
                a.quarter or a.half for a in q.periods))
            if full_year_list:
                stated = []
        fits = bool(q.periods) and any(agreement(a, o) > 0 and not _part_of_year(a, o, sentence, months=amount_asked)
                                       and not (late_year_end and _other_fiscal_year(a, o))
                                       for a in q.periods for o in stated)
        # a quarter or half asked, a sentence of whole years only ("… $17 million, $59 million and $6 million for
        # the fiscal years ended June 30, 2023, 2022 and 2021", "… revenues of approximately $13.5 billion in 2023")
        full_year_list = full_year_list or (fits and _years_only(q, stated, sentence))
        fits = fits and not full_year_list
        # another year stated, never the asked one ("for fiscal 2019 …" asked of fiscal 2020): contradicted
        contradicted = full_year_list or (not fits and any(a.year for a in q.periods) and any(o.year for o in stated))
        if fits:  # the asked period, however written ("2020.3.30." for "2020년 3월 30일"), holds its words
            offered |= period_terms
        if paid_asked and paid_item_row(q.focus, sentence):
            # "How much did Acme pay in income taxes?": "Our income tax payments, net of refunds, were $1.4 billion"
            # says the item paid, "pay" and all
            offered |= q.focus_terms | paid_terms
        cov = coverage(terms_asked, offered, w)
        if words is not None:  # Korean/Japanese: bigrams and particle-free words (the passage's support below)
            cov = (cov + words.coverage(title + sentence)) / 2
        typed = words is not None and bool(candidates(sentence, asked[0], asked[1], q.text))
        rows.append((s, e, cov, fits, typed))
        if contradicted or (q.language == "en" and _another_comparison(q, stated)):
            contradicted_at.add((s, e))
    if words is not None:
        rows = neighbour_context(rows)
    out: list[Evidence] = []
    # a statement's line item asked in English ("accounts receivable"), no rate: the answer is an amount
    money_item = (q.language == "en" and q.kind == "value" and bool(implied_statement(q.focus_terms))
                  and not _RATE_WORDS.search(q.text) and not _PERCENT_WORDS.search(q.text))
    count = asks_count(q)
    # the item's words, and each word of it on its own: "shares … repurchased" states "shares did repurchase"
    # though the phrase ("share repurchase") is not written as one
    item_words = set(q.focus_terms) | ({t for word in item_phrase(q.focus).split() for t in match_terms(word)}
                                       if q.focus_terms and all(t.startswith("§") for t in q.focus_terms) else set())
    share_of = _AS_SHARE_OF.match(item_phrase(q.focus)) if q.language == "en" else None
    # what names the item: "X as a percent of Y" is X; else its words but those any item's name may hold ("restructuring
    # charge": "restructuring" — "Charges of fixed price development programs" are no restructuring charge)
    measured = {t for t in match_terms(share_of.group(1)) if t not in _GENERIC_ITEM} if share_of \
        else item_words - _GENERIC_ITEM
    # the line items the focus names beside its qualifiers ("dividends" of "paid dividends to common shareholders")
    line_groups = {t for t in measured if t.startswith("§") and t not in _TOTAL} if not share_of and any(
        not t.startswith("§") for t in q.focus_terms) else set()
    # … and the words that narrow the item to a part ("footwear" of "footwear revenue"), a name's aside
    named = {t for n in q.names for t in match_terms(n)}
    # (only where the item ends the focus: "share of net sales came" is no part's sales)
    ends_item = any((tail := match_terms(" ".join(q.focus.split()[-k:]))) and all(t.startswith("§") for t in tail)
                    for k in range(1, 4))
    qualifiers = {t for t in q.focus_terms if not t.startswith("§")} - _GENERIC_ITEM - named \
        if q.language == "en" and q.kind == "value" and ends_item else set()
    heading_terms = match_terms(p.text.split("\n", 1)[0])
    for s, e, cov, fits, typed in rows:
        sentence = p.text[s:e]
        if words is not None:
            cov = (1 - PASSAGE_SUPPORT) * cov + PASSAGE_SUPPORT * context
        if cov == 0:
            continue
        span = answer_span(q, sentence)
        # its amounts all in heading-path parts of another period ("June 2023 quarter: … 12.3 cps" for fiscal 2023):
        # the sentence states no figure of the asked period — never sure
        others_only = not span and "›" in sentence and q.kind == "value" and bool(
            answer_span(q, sentence, heading_periods=False))
        if words is not None:  # Korean/Japanese: the asked type of answer, found or not (``answer_types``)
            score = cov * (1.0 if typed else type_missing(asked[0]))
        else:
            needs = q.kind in ("date", "value", "change") or (q.kind == "name" and q.language == "en")
            score = cov * (1.0 if span or not needs else NO_COUNT if count else 0.7)
        if q.periods:
            other = (s, e) in contradicted_at and q.language == "en"
            score *= 1.0 if fits else OTHER_PERIOD if other else 0.75
        if others_only:
            score = min(score, YESNO_OFF_FOCUS_CAP)
        if count and span and _priced(span):
            # "… repurchased shares for $56.0 billion" does not say how many
            score = min(score * MONEY_FOR_COUNT, PERCENT_FOR_MONEY_CAP)
        if count and span and _part_counted(sentence, span) and not LABOR_PART.search(q.text):
            # employees asked: "Approximately 50,000 employees, which constitute 32% of our total workforce, were
            # union represented" counts a part of them — never sure
            score = min(score, YESNO_OFF_FOCUS_CAP)
        if money_item and _no_money(sentence):
            # "… accounted for 11% and 10%" is no balance of accounts receivable, "… net debt-to-adjusted EBITDA
            # ratio was 2.8" none either: never sure
            score = min(score * PERCENT_FOR_MONEY, PERCENT_FOR_MONEY_CAP)
        said = match_terms(sentence)
        paid_said = paid_asked and paid_item_row(q.focus, sentence)
        if paid_said:
            said |= q.focus_terms  # "income tax payments" for income taxes paid
        if q.kind in ("value", "change") and q.language == "en" and item_words \
                and (not (measured or item_words) & said or (line_groups and not line_groups & said)):
            # "I have reviewed this quarterly report … of Apple Inc.": the company, not the item; "wages as a percent
            # of net sales" asked: "Comparable sales increased 15.6%" holds the base, not the wages; dividends paid
            # to common shareholders asked: "we paid $7.9 billion to repurchase … shares of our common stock" holds
            # the qualifiers, not the dividends
            score *= NO_ITEM
        elif item_words and q.kind in ("value", "change") and q.language == "en" and not paid_said \
                and _item_in_part(q, sentence):
            # share repurchases asked: "… stock options to purchase shares … with a grant value of $2,300,000" holds
            # "shares", not the repurchase — never sure
            score = min(score, YESNO_OFF_FOCUS_CAP)
        if qualifiers and line_groups and not qualifiers & said and not qualifiers & heading_terms \
                and not qualifiers & match_terms(bullets_heading(p.text, s)):
            # "Nike's footwear revenue" asked: "Digital commerce sales were $9.1 billion" states another part's
            # sales — nor does its heading say footwear: never sure
            score = min(score, YESNO_OFF_FOCUS_CAP)
        if q.kind == "yesno" and q.language == "en" and q.focus_terms \
                and coverage(set(q.focus_terms), match_terms(sentence), w) < YESNO_FOCUS_HELD:
            # "Did Acme report customer concentration?" — "Our 2021 ESG report …" is not about it: never sure
            score = min(score, YESNO_OFF_FOCUS_CAP)
        if q.kind == "value" and q.language == "en" and span and _not_yet(sentence, span) \
                and not _NOT_YET.search(q.text):
            # the expense asked: "$98 million of unrecognized compensation expense" is what is still to come
            score = min(score, YESNO_OFF_FOCUS_CAP)
        if _unpaid_for_cash(q, sentence):
            score = min(score, YESNO_OFF_FOCUS_CAP)  # cash paid asked: a sentence that says nothing was paid
        if q.kind == "value" and q.language == "en" and span and (
                (_QUARTERLY.search(sentence) and q.periods and not any(a.quarter for a in q.periods)
                 and not _QUARTERLY.search(q.text))
                or (_DURATION_SPAN.search(span) and not _DURATION_ASKED.search(q.text))):
            # the year's dividends per share asked: "a quarterly cash dividend of $0.1225 per share" is one quarter's;
            # accumulated depreciation asked: "12 months" is a length of time, not an amount — never sure
            score = min(score, YESNO_OFF_FOCUS_CAP)
        at = sentence.find(span) if span else -1
        if q.kind in ("change", "comparison") and q.language == "en" and "%" in span \
                and _SHARE_STATEMENT.search(sentence) and not _SHARE_ASKED.search(q.text):
            # the revenues' growth asked: "… sales in the United States accounted for approximately 39% of total
            # revenues, compared to 39% and 41% …" are shares of a whole, not its change — never sure
            score = min(score, YESNO_OFF_FOCUS_CAP)
        if q.kind == "value" and q.language == "en" and at >= 0 and not asks_paid(q.text) \
                and not _OUTFLOW_ASKED.search(q.text) and _PAID_BEFORE.search(sentence[max(0, at - 40):at]):
            # restructuring charges asked: "We paid net $93.9 million of cash related to restructuring" is what was
            # paid out, not the charge — never sure
            score = min(score, YESNO_OFF_FOCUS_CAP)
        if q.kind == "value" and q.language == "en" and span and PER_SHARE.search(q.text) \
                and not PER_SHARE.search(sentence):
            # dividends per share asked: "Dividends received were $111 and $77" states no amount per share
            score = min(score, YESNO_OFF_FOCUS_CAP)
        if q.kind == "value" and q.language == "en" and _HYPOTHETICAL.search(sentence) \
                and not _HYPOTHETICAL_ASKED.search(q.text):
            # gross margin asked: "If the combined gross margins … had been higher or lower by 1% …, it would have
            # increased … pre-tax income by $300 million" is a sensitivity, not a figure reported — never sure
            score = min(score, YESNO_OFF_FOCUS_CAP)
        if q.kind == "value" and q.language == "en" and _TAX_EFFECT_OF.search(sentence) \
                and not re.search(r"(?i)\btax", q.text):
            # stock-based compensation asked: "tax benefits related to stock-based compensation costs of $291
            # million" are the tax effect of it — never sure
            score = min(score, YESNO_OFF_FOCUS_CAP)
        if q.kind == "value" and q.language == "en" and span and (_range_after(sentence, span)
                                                                  or _other_basis(q.text, sentence, span)):
            # "Fiscal 2024 outlook: Adjusted EPS of 67-71 cents" is a range, an outlook's; reported EPS asked,
            # "… imply 2023 core EPS of $7.27" is another basis's — never sure
            score = min(score, YESNO_OFF_FOCUS_CAP)
        if q.kind == "value" and q.language == "en" and span and _limit_only(sentence, span) \
                and not _LIMIT.search(q.text):
            # the repurchases asked: "… authorized to repurchase up to $1.5 billion" is a limit, not what was spent
            score = min(score, YESNO_OFF_FOCUS_CAP)
        company_fact = asks_auditor(q) or asked_office(q) or asks_headquarters(q) or asked_fact(q)
        if not span and company_fact:
            score = min(score, YESNO_OFF_FOCUS_CAP)  # the auditor asked, no firm named ("Basis for Opinion …"), …
        if company_fact and q.names and not any(mentions(n, p.owner_only()) for n in q.names) and (
                not span or not all(mentions(n, replace(p, text=sentence, file_name="")) for n in q.names)):
            # … in another company's filing: "Prior to joining Corning, Ms. Mullins served as chief information
            # officer for Lockheed Martin" names no CEO of Lockheed's, "William J. Hornbuckle … Chief Executive
            # Officer" is MGM's — below the decline threshold
            score = min(score, FOREIGN_FACT_CAP)
        if q.kind == "value" and q.language == "en" and another_figure(q.focus, sentence):
            # the effective tax rate asked: "… the statutory rate from 35% to 21%" is not it — never sure
            score = min(score * MODIFIER_ONLY, PERCENT_FOR_MONEY_CAP)
        if q.kind == "value" and q.language == "en" and span and (
                _amount_of_another(sentence, span, measured or item_words)
                or _part_after_whole(sentence, span, measured or item_words)
                or (at >= 0 and _priced(span) and not share_of
                    and _SHARE_OF_WHOLE.search(sentence[at + len(span):]) is not None)
                or (not count and _BOUND_BEFORE.search(sentence[max(0, at - 24):max(at, 0)]) is not None
                    and "$" in span)):
            # short-term borrowings asked: "… we have $15.0 billion of various undrawn committed lines of credit" is
            # the lines' amount; "Of Walmart U.S.'s total net sales, approximately $21.5 billion … related to
            # eCommerce" and "… net sales of $341.0 billion …, representing 66% of our … consolidated net sales"
            # a part's; a product's revenue asked: "revenues of more than $1 billion" is a bound, not the
            # figure — never sure
            score = min(score, YESNO_OFF_FOCUS_CAP)
        if q.kind == "value" and q.language == "en" and span and _another_items_amount(q, sentence, span):
            score *= OTHER_ITEM  # net sales asked: "Net Income of $340.8 Million … record sales" is the income's
        if q.kind == "value" and q.language == "en":
            only = change_only_factor(sentence, span) * part_only_factor(sentence, span)
            if only < 1.0:  # "X increased $1.3 billion …", "X include $3.3 billion of …" do not state X: never sure
                score = min(score * only, YESNO_OFF_FOCUS_CAP)
            if balance_asked_of(q):
                flow = flow_only_factor(q.text, sentence, span)  # "net proceeds … of $1.3 billion": no balance
                score = score if flow == 1.0 else min(score * flow, YESNO_OFF_FOCUS_CAP)
                if _with_others(q, sentence) or row_with_others(q, sentence):
                    # "$6.9 billion of goodwill and other intangible assets", "$3.3 billion of cash, cash
                    # equivalents and marketable securities": the item with others, never sure
                    score = min(score, YESNO_OFF_FOCUS_CAP)
        if len(sentence) < 15:
            score -= 0.05
        score = score * name_factor(q, p) + 0.02 / (1 + rank)
        if q.kind in ("value", "change") and q.language == "en" and (s, e) in contradicted_at:
            # FY2022 asked: "… in 2021 were affected by … charges of $36 million" states another year only — never
            # sure, however well it names the item and the company
            score = min(score, YESNO_OFF_FOCUS_CAP)
        out.append(Evidence("sentence", p, max(min(score, 1.0), 0.0), (s, e), span_text=span))
    return out


def _another_comparison(q: Question, stated: Sequence[Period]) -> bool:
    """A change between two periods asked ("from 2016 to 2017"), the sentence compares another pair: it states a
    year the question does not ask ("2016 as compared to … 2015") and misses one it does."""
    ends = change_ends(q)
    if ends is None:
        return False
    dated = [o for o in stated if o.year is not None]
    return any(not any(agreement(a, o) > 0 for a in ends) for o in dated) and any(
        not any(agreement(a, o) > 0 for o in dated) for a in ends)


#: a bound said before an amount ("more than $1 billion", "in excess of $500 million"): not the figure itself
_BOUND_BEFORE = re.compile(r"(?i)\b(?:more|greater|less|fewer)\s+than\s*$|"
                           r"\b(?:over|exceed(?:ed|s|ing)?|in\s+excess\s+of|at\s+least|up\s+to)\s*$")
#: what an amount is "of" ("$15.0 billion of various undrawn committed lines of credit"): up to a clause's end
_OF_WHAT = re.compile(r"\s+of\s+(?P<what>[^,.;:()]{3,80}?)(?=\s+(?:that|which|as|for|to|at|from|during|in|on|under|"
                      r"with|compared|and\s+\$)\b|[,.;:()]|$)")
#: words of an "of" phrase that name nothing ("$2.1 billion of which", "… of our total", "… of this amount")
_NAMES_NOTHING = frozenset(("which", "our", "the", "its", "their", "this", "that", "these", "those", "such", "total",
                            "it", "them", "a", "an", "amount", "amounts", "same", "each", "all", "any"))


def _amount_of_another(sentence: str, span: str, item: set[str]) -> bool:
    """The amount stated is "of" something that shares no word with the item asked: "In addition to our short-term
    borrowings, we have $15.0 billion of various undrawn committed lines of credit" states the lines' amount. A
    period, a share of a whole ("of our total") or "of which" names no other thing."""
    at = sentence.find(span)
    m = _OF_WHAT.match(sentence, at + len(span)) if at >= 0 else None
    if m is None or not item or find_periods(m.group("what")):
        return False
    words = [w for w in re.findall(r"[A-Za-z][\w'-]*", m.group("what")) if w.lower() not in _NAMES_NOTHING]
    return bool(words) and not match_terms(m.group("what")) & item


#: a sentence that states a share of a whole ("… accounted for approximately 39% of total revenues"), and a
#: question that asks one
_SHARE_STATEMENT = re.compile(r"(?i)\b(?:account\w*\s+for|represent\w*|constitut\w*|compris\w*|made\s+up)\s+"
                              r"(?:approximately\s+|about\s+|roughly\s+|nearly\s+)?\d[\d.]*\s*%\s+of\b")
_SHARE_ASKED = re.compile(r"(?i)\b(?:share|portion|proportion|percent(?:age)?)\s+of\b|\bmix\b")


#: a sentence that opens on the whole its amounts are parts of: "Of Walmart U.S.'s total net sales, …"
_OF_WHOLE_LEAD = re.compile(r"(?i)\s*(?:of|out\s+of)\s+(?P<whole>[^,;]{3,120}),")


def _part_after_whole(sentence: str, span: str, item: set[str]) -> bool:
    """The amount stated follows a lead naming the item as the whole it is a part of ("Of Walmart U.S.'s total
    net sales, approximately $21.5 billion … related to eCommerce")."""
    m = _OF_WHOLE_LEAD.match(sentence)
    return m is not None and bool(item) and sentence.find(span) >= m.end() \
        and bool(match_terms(m.group("whole")) & item)


#: an English sentence whose amount stated is another line item's ("Net Income of $340.8 Million" for net sales)
#: counts this much
OTHER_ITEM = 0.6
#: the words that join a line item to its amount ("… of", "… was", "… increased 18.2% to")
_TO_AMOUNT = re.compile(r"(?i)\b(?:of|was|were|is|are|totaled|totalled|totaling|reached|at|to|by|"
                        r"(?:increased|decreased|rose|fell|grew|declined)(?:\s+[\d.,]+%)?(?:\s+to)?)\s*$")


def _another_items_amount(q: Question, sentence: str, span: str) -> bool:
    """The amount stated is written right after a line item that is not the one asked: the words just before it
    (back to a punctuation mark, at most six) name a synonym group the question's item is not, and none of it."""
    at = sentence.find(span)
    if at < 0 or not q.focus_terms:
        return False
    before = re.split(r"[.;:,!?•›|()\[\]“”\"]", sentence[:at])[-1]
    before = _TO_AMOUNT.sub("", before.strip())
    words = " ".join(before.split()[-6:])
    named = match_terms(words)
    groups = {t for t in named if t.startswith("§") and t not in _TOTAL}
    if groups and not (named & set(q.focus_terms)):
        return True
    after = _ITEM_AFTER.match(sentence, at + len(span))
    # "… due to a $2.3 billion gain in the prior year quarter": the gain's amount, not the revenues asked
    return after is not None and not re.search(rf"(?i)\b{after.group(1)[:4]}", q.text)


#: the thing an amount is of, written right after it: "a $2.3 billion gain", "$300 million of charges"
_ITEM_AFTER = re.compile(r"(?i)\s*(?:(?:pre-?tax|after-?tax|non-?cash|one-?time|net)\s+)?(?:of\s+)?"
                         r"(gains?|loss(?:es)?|charges?|impairments?|benefits?|settlements?|write-?(?:offs?|downs?)|"
                         r"penalt(?:y|ies)|fines?)\b")


def _untabled(text: str) -> str:
    """``text`` with two-column Markdown table rows read as plain lines: a receipt's "item  amount" lines can come
    out of ingest as a narrow table (a statement's wider tables stay tables and are dropped here)."""
    out = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("|") and stripped.endswith("|"):
            if stripped.count("|") > 3:
                continue
            if set(stripped) <= set("|-: "):
                continue
            stripped = " ".join(c.strip() for c in stripped.strip("|").split("|") if c.strip())
        out.append(stripped)
    return "\n".join(out)


def _looks_like_receipt(fields: Sequence[Field]) -> bool:
    """Two or more amount fields, one of them a total / cash / change / tax line: what a receipt prints."""
    amounts = [f for f in fields if f.amount is not None]
    return len(amounts) >= 2 and any(GRAND_TOTAL.search(f.label) or NOT_GRAND_TOTAL.search(f.label)
                                     or _TOTAL_WORD.search(f.label) for f in amounts)


#: evidence from a document whose period ended a year or more before the one asked counts this much
DOCUMENT_BEFORE = 0.5
#: what asks about the future: a document from before may state it
_FORWARD = re.compile(r"(?i)\b(?:expect\w*|guidance|outlook|forecast\w*|plan\w*|project\w*|anticipat\w*|"
                      r"target\w*|will|intend\w*|estimate\w*)\b")


#: a named fact (auditor, officer, seat, incorporation, exchange, ticker, shares outstanding) in another company's
#: document (``_own_document``) is never a sure answer
OTHER_COMPANY = 0.5


def _own_document(name: str, p: Passage, *, by_identity: bool) -> bool:
    """``p`` is from the named company's document. A document with an identity (the cover's registrant, tickers)
    or, where some passage's identity or file name names the company (``by_identity``), any document is the
    company's only when its identity or file name names it: another company's text mentioning the name (a board
    member's "… Chief Executive Officer of Corning", "… rely upon Amazon Web Services") does not make it the
    company's. A document without one may name it in its text, as the name is written ("Square", "SQUARE": "87
    million square feet" names no Square, Inc.)."""
    if p.company or by_identity:
        return mentions(name, p.owner_only())
    return bool(re.search(rf"(?<!\w)(?:{re.escape(name)}|{re.escape(name.upper())})(?!\w)", p.text))


def _with_named(q: Question, p: Passage, spans: list[tuple[int, int]], rank: int, found: list[Evidence],
                office: str, *, by_identity: bool) -> list[Evidence]:
    """``found`` with the answer of a named kind asked — the firm that signed the auditor's report or that an
    auditing sentence names, the person the office's words follow ("I, Jane Q. Doe, Chief Executive Officer"), the
    company's own seat, a cover's fact (``cover_facts``) — as evidence of its own (the sentence or signature it is
    in, replacing that sentence's); a table's or a field's line ("Report of Independent … Firm | 63", a page
    number) names none of them."""
    found = [ev if ev.kind == "sentence" else replace(ev, score=min(ev.score, YESNO_OFF_FOCUS_CAP)) for ev in found]
    fact = asked_fact(q)
    if office:
        named, sure = office_holders(p.text, office, q.names), OFFICER_SCORE
    elif asks_headquarters(q):
        named, sure = seat_spans(p.text, spans, q.names), HEADQUARTERS_SCORE
    elif fact:
        named, sure = fact_spans(fact, p.text, spans, q.names), COVER_SCORE
    else:
        named, sure = signed_spans(p.text, spans), AUDITOR_SCORE
    for quote, name in named:
        found = [ev for ev in found
                 if not (ev.kind == "sentence" and ev.quote[0] < quote[1] and quote[0] < ev.quote[1])]
        factor = name_factor(q, p, table=bool(fact))
        foreign = bool(q.names) and not any(_own_document(n, p, by_identity=by_identity) for n in q.names)
        if foreign:
            factor = min(factor, OTHER_COMPANY)  # "Where is Amazon headquartered?": Netflix's "Our headquarters …"
        score = sure * factor + (stated_date_rank(name) if fact == "shares" else 0.02 / (1 + rank))
        near = replace(p, text=p.text[quote[0]:quote[1] + FOREIGN_FACT_NEAR], file_name="")
        if foreign and not any(mentions(n, near) for n in q.names):
            score = min(score, FOREIGN_FACT_CAP)  # Lockheed's CEO asked: MGM's "William J. Hornbuckle … Chief
            # Executive Officer", in a filing that names Lockheed nowhere near it, is no answer at all (Adobe's "Daniel
            # Durn … Chief Financial Officer" for Pfizer's CFO, though Adobe's filing names Pfizer elsewhere)
        if office and _filed_later(q, p):
            score = min(score, YESNO_OFF_FOCUS_CAP)  # the 2023 report's CEO is not surely 2017's
        found.append(Evidence("sentence", p, min(score, 1.0), quote, span_text=name))
    return found


def _other_fiscal_year(asked: Period, offered: Period) -> bool:
    """A whole fiscal year asked ("FY2022") and another year offered ("in 2021")."""
    return asked.fiscal and asked.quarter is None and asked.year is not None and offered.year is not None \
        and offered.year != asked.year


def _filed_later(q: Question, p: Passage) -> bool:
    """``p``'s document reports a period that ended more than a year after every year asked: who held an office
    then is not surely who held it in the year asked."""
    years = [a.year for a in q.periods if a.year is not None]
    return bool(years) and p.period_end[:4].isdigit() and int(p.period_end[:4]) > max(years) + 1


def _ended_before(q: Question, p: Passage) -> bool:
    """``p``'s document reports a period that ended before every year asked (its identity's period end; a fiscal
    year may end early in the year after its number), and the question asks no outlook."""
    years = [a.year for a in q.periods if a.year is not None]
    if not years or not p.period_end[:4].isdigit() or _FORWARD.search(q.text):
        return False
    slack = 1 if any(a.fiscal or a.quarter for a in q.periods) else 0
    return int(p.period_end[:4]) < min(years) - slack


#: the words a statement's title may open with before the part ``STATEMENT_TITLES`` matches
_TITLE_OPENING = re.compile(r"(?i)(?:\b(?:consolidated|combined|condensed|interim|unaudited|statements?|of)\s*)+$")


def _titled(title: re.Pattern[str], text: str) -> bool:
    """``text`` holds the statement's title as a heading — at the start of a line or of a heading path's part,
    after at most a name ("ADOBE INC. CONSOLIDATED STATEMENTS OF INCOME") — not in prose that refers to the
    statement ("… costs included in our Consolidated Statements of Income …", "Notes to Consolidated …")."""
    for line in join_split_letters(text).splitlines():
        for part in line.split("›"):
            for m in title.finditer(part):
                before = _TITLE_OPENING.sub("", part[: m.start()]).strip()
                if re.search(r"(?<![\w.])[a-z]", before):
                    continue
                if part.lstrip().startswith("|") and (_SMALL_WORD.search(m.group(0))
                                                      or part[m.end():].lstrip().startswith(":")):
                    continue  # a table's row "Statement of operations:" (an investee's summary) is no title
                return True
    return False


#: a word in lower case that is not "of"/"and"/"in": a title in a table row is written in capitals
_SMALL_WORD = re.compile(r"\b(?!(?:of|and|in)\b)[a-z]")


def _in_statement(kind: str, p: Passage, tables: Sequence[Table]) -> bool:
    """The passage's tables are (part of) the named statement: its title heads the passage or a table."""
    title = STATEMENT_TITLES.get(kind)  # type: ignore[call-overload]
    if title is None:
        return True
    return _titled(title, p.text[:STATEMENT_TITLE_CHARS]) or any(_titled(title, t.caption) for t in tables)


def _named_by_start(q: Question, passages: Sequence[Passage], tables: Sequence[Sequence[Table]]) -> frozenset[str]:
    """The documents among ``passages`` (``tables``: each one's tables) that name their fiscal years by the year
    they began in (``fiscal_names``), when ``q`` asks a fiscal year in a company's words."""
    if q.language != "en" or by_start(q) is q:
        return frozenset()
    texts: dict[str, list[str]] = {}
    ends: dict[str, list[Period]] = {}
    for p, found in zip(passages, tables, strict=True):
        if p.document_id:
            texts.setdefault(p.document_id, []).append(p.text)
            ends.setdefault(p.document_id, []).extend(o for t in found for c in t.columns for o in c.periods)
    return frozenset(d for d, t in texts.items() if names_by_start(t, ends[d]))


def _carries(table: Table, name: str) -> bool:
    """A row of ``table`` is labelled with ``name``'s words ("MGM China | 174,720 | …"), or is the unlabelled total
    under a heading of them ("MGM China: / … / | | 740,955 |")."""
    name_terms = match_terms(name)
    return bool(name_terms) and any(name_terms <= match_terms(row.label if row.label.strip() else row.section)
                                    for row in table.rows)


#: words of a row label that name no part: the whole, a basis, a kind of figure
_NO_PART_WORDS = frozenset({"total", "consolidated", "net", "same-store", "same", "store", "reported", "adjusted",
                            "segment", "segments", "reportable", "company", "operating", "and", "of", "the", "other"})


def _another_part(label: str, parts: Sequence[str], focus_terms: frozenset[str]) -> bool:
    """The row names a part other than the ones asked: capitalised words beside the item's ("Regional Operations
    net revenues" when MGM China's net revenues are asked), none of them the asked part's."""
    asked = {t for name in parts for t in match_terms(name)}
    words = [w for w in re.findall(r"[A-Za-z][\w&'’-]*", label)
             if w.lower() not in _NO_PART_WORDS and not match_terms(w) <= set(focus_terms)]
    named = [w for w in words if w[0].isupper()]
    return bool(named) and not any(match_terms(w) & asked for w in named)


def _part_names(q: Question, passages: Sequence[Passage], tables: Sequence[Sequence[Table]]) -> list[str]:
    """The strong names of ``q`` that are a part of a company, not a company: a row of some table found is
    labelled with the name ("MGM China", "Greater China") and the name is not the owner of that table's document
    (its file name and identity name someone else: "MGMRESORTS_2022Q4_EARNINGS.pdf"). A question about that part
    ("What was MGM China's net revenue?") is not answered by a table of the whole ("Revenues … 3,592,216")."""
    out = []
    for name in q.strong_names:
        if any(_carries(t, name) and not mentions(name, p.owner_only())
               for p, ts in zip(passages, tables, strict=True) for t in ts):
            out.append(name)
    return out


def gather(q: Question, passages: Sequence[Passage]) -> list[Evidence]:
    """All evidence for ``q`` in ``passages``, best first."""
    running = running_lines([p.text for p in passages],  # a page's overlapping chunks share edge lines
                            [(p.document_id, p.page) if p.page else (p.ref,) for p in passages])
    w = _weights(passages, q)
    statement = q.statement or (implied_statement(q.focus_terms) if q.language == "en" else "")
    words = None
    asked = asked_type(q.text, q.language)
    if q.language in ("ko", "ja"):
        lines = [line for p in passages for line in p.text.split("\n") if line.strip()]
        words = WordMatcher(q.language, question_words(q.text, q.language, (*KO_CUES, *JA_CUES)), lines)
    office = asked_office(q)
    named_kind = bool(office or asks_auditor(q) or asks_headquarters(q) or asked_fact(q))
    by_identity = named_kind and any(mentions(n, p.owner_only()) for n in q.names for p in passages)
    out: list[Evidence] = []
    every_table = passage_tables(passages)
    by_start_docs = _named_by_start(q, passages, every_table)
    parts = _part_names(q, passages, every_table)
    for rank, p in enumerate(passages):
        found: list[Evidence] = []
        tables = every_table[rank]
        table_lines = {r.line for t in tables for r in t.rows}
        # "fiscal 2022" of a company whose fiscal 2022 ended in January 2023: its columns' dates read that way
        q_cols = by_start(q) if p.document_id and p.document_id in by_start_docs else q
        for table in tables:
            cells = _table_evidence(q_cols, p, table, w, rank)
            if parts and not any(_carries(table, name) for name in parts):
                # "MGM China's net revenue": the consolidated statement's total is not that part's
                cells = [replace(ev, score=ev.score * QUALIFIER_MISSED) for ev in cells]
            if parts:
                # … nor is "Regional Operations net revenues" under a heading that names MGM China
                cells = [replace(ev, score=ev.score * MODIFIER_ONLY)
                         if ev.row is not None and _another_part(ev.row.label, parts, q.focus_terms) else ev
                         for ev in cells]
            found.extend(cells)
        fields = [f for f in find_fields(p.text) if f.line not in table_lines]
        found.extend(_field_evidence(q, p, fields, w, rank))
        taken = table_lines | {f.line for f in fields}
        spans = [sp for sp in sentence_spans(p.text, running) if not any(sp[0] < e and s < sp[1] for s, e in taken)]
        found.extend(_sentence_evidence(q, p, spans, w, rank, words, asked))
        if named_kind:
            found = _with_named(q, p, spans, rank, found, office, by_identity=by_identity)
        if part_of_group(p, q.text):
            # the guarantor subsidiaries' summary, the parent company alone: not the consolidated figure asked
            found = [replace(ev, score=ev.score * PART_OF_GROUP) if ev.kind == "cell" else ev for ev in found]
        if statement and not _in_statement(statement, p, tables):
            # "… relying on the cash flow statement": a table of another statement or a note counts less (a
            # little less where the question names none and the line item's own statement is meant)
            factor = STATEMENT_ELSEWHERE if q.statement else STATEMENT_IMPLIED_ELSEWHERE
            found = [replace(ev, score=ev.score * factor) if ev.kind == "cell" else ev for ev in found]
        if q.statement and q.language == "en":
            # the statement named: a sentence of prose is no line of it (MD&A's "… or $2.31 per diluted share")
            found = [replace(ev, score=ev.score * STATEMENT_ELSEWHERE) if ev.kind == "sentence" else ev
                     for ev in found]
        if _ended_before(q, p):
            # a 2018 annual report asked for fiscal 2021: whatever it prints, it is not that year's figure
            found = [replace(ev, score=ev.score * DOCUMENT_BEFORE) for ev in found]
        if q.document_kind == "receipt" and not _looks_like_receipt(find_fields(_untabled(p.text))):
            # asked about a receipt: a financial statement's "Total" row is not the answer
            found = [replace(ev, score=ev.score * NOT_A_RECEIPT) for ev in found]
        receipt = receipt_evidence(q, p.text)  # a receipt's grand total / transaction date, by receipt semantics
        if receipt is not None:
            field, score = receipt
            found = [ev for ev in found if ev.kind == "sentence" and ev.score < score]
            found.append(Evidence("field", p, min(score + 0.02 / (1 + rank), 1.0), field.line, field.label,
                                  field=field))
        out.extend(found)
    kind_order = {"cell": 0, "field": 1, "sentence": 2}
    out.sort(key=lambda ev: (-round(ev.score, 6), kind_order[ev.kind], ev.quote[0]))
    return latest_first(q, out)
