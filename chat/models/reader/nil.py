"""A statement line printed without an amount for the asked year: none, said as such (pure).

A cash flow statement prints "Dividends paid | — | — | (1,158)" when the company paid none in the later years
(it suspended them). Asked for the dividends of one of those years, the row is the answer — nothing was paid —
not the year before's amount, and not "the documents don't say". The reader answers "none" when:

- nothing answers surely (no evidence scores ``SURE_AT``), and the best cell evidence is a row of a financial
  statement page whose words the question asks (its score without the period at least ``SURE_ROW``), whose cells
  hold no amount for the asked period (the period's score capped it);
- the table has the asked period's column (a header that agrees fully) and that row's cell there is a dash or
  blank, while the row prints an amount in another period's column;
- and most rows with amounts print one in that column too — so the column is real, not a parsing gap.

The sentence says the statement prints no amount ("—") for the period, cites the row, and shows the row with its
header: the asker sees the other years' amounts beside the empty cell.

A filing also says so in words: "There were no repurchases of common stock in 2015, 2016, or 2017.", "During the
years ended December 31, 2022, 2021 and 2020, we did not repurchase any shares." Asked how much was spent on share
repurchases in 2017, that sentence is the answer — none — not "the documents don't say" (``none_stated_answer``):
one of the best sentences names the asked item and the asked year (or says "never"), negates the item in the same
clause (a "no" or "not" at most a few words before the item's first word) and states no amount of money of its own
(one another year is "compared with" may follow).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chat.models.reader.compose import period_phrase, table_quote
from chat.models.reader.decline import SURE_AT
from chat.models.reader.evidence import LABOR_PART, PERIOD_MISSING_CAP, Evidence, column_period_score, gather
from chat.models.reader.numbers import all_amounts
from chat.models.reader.passage import Passage
from chat.models.reader.periods import find_periods
from chat.models.reader.question import Question
from chat.models.reader.statement_titles import is_statement_page
from chat.models.reader.statements import STEM_CHARS, stems
from chat.models.reader.text import match_terms

#: the row's words agree with the question's at least this much (its score with no period asked)
SURE_ROW = 0.9
#: the asked period's column: a header that agrees fully
FULL_PERIOD = 0.99
#: the share of the table's rows with amounts that print one in the asked column too
COLUMN_FILLED = 0.5
_NIL = re.compile(r"^\$?\s*[—–\-]*\s*$")
#: how many of the best evidence a nil row may sit below (sentences that name the item, not the year's amount)
LOOK_AT = 4


def _asked_column(q: Question, ev: Evidence) -> int | None:
    table, row = ev.table, ev.row
    assert table is not None and row is not None
    cols = [c for c in range(len(table.columns)) if column_period_score(q, table, c) >= FULL_PERIOD]
    if len(cols) != 1 or row.amount(cols[0]) is not None or not _NIL.match(row.cells[cols[0]]):
        return None
    col = cols[0]
    if not any(row.amount(c) is not None for c in range(len(table.columns)) if c != col):
        return None
    filled = [r for r in table.rows if any(r.amount(c) is not None for c in range(len(table.columns)))]
    if sum(r.amount(col) is not None for r in filled) < COLUMN_FILLED * len(filled):
        return None
    return col


def _nil_column(q: Question, ev: Evidence) -> int | None:
    """The asked period's empty column of ``ev``'s row, when ``ev`` is a statement row of the asked item."""
    if ev.table is None or ev.row is None or not is_statement_page(ev.passage):
        return None
    undated = gather(replace(q, periods=()), [ev.passage])
    own = next((o for o in undated if o.kind == "cell" and o.row == ev.row), None)
    if own is None or own.score < SURE_ROW:
        return None
    return _asked_column(q, ev)


def nil_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The answer lines and quote of a statement row printed without an amount for the asked period, or None."""
    if q.language != "en" or q.kind != "value" or q.parts or not q.focus or len(q.periods) != 1:
        return None
    ranked = gather(q, passages)
    cells = [ev for ev in ranked[:LOOK_AT] if ev.kind == "cell"]
    if not cells or ranked[0].score >= SURE_AT:
        return None  # something answers surely (or no cell is near the top)
    # the first statement row of the asked item among them (a note's table of other words may rank above it), its
    # score capped by the missing period (a cell of the asked period answers)
    found = next(((ev, col) for ev in cells
                  if ev.score <= PERIOD_MISSING_CAP + 0.05 and (col := _nil_column(q, ev)) is not None), None)
    if found is None:
        return None
    ev, col = found
    assert ev.table is not None and ev.row is not None
    at = replace(ev, col=col)
    label = " ".join(ev.row.label.split())
    printed = ev.row.cells[col].strip()
    shown = f"“{printed}”" if printed else "an empty cell"
    lead = (f"{label}: none {period_phrase(ev.table, col, 'en')} — the statement prints no amount for that "
            f"period ({shown}) [{ev.passage.ref}].")
    lines = [lead, *(("> " + line).rstrip() for line in table_quote(at))]
    return "\n".join(lines), [(ev.passage.ref, at.quote_text)]


#: a negation that governs what follows it in the clause ("no repurchases", "did not repurchase", "has not paid");
#: not "no longer", "not only", "no later than", "not material"
_NEGATION = re.compile(r"(?i)\b(?:no|not|never|none of)\b(?!\s+(?:longer|only|later|earlier|less|more|material|"
                       r"significant|assurance|guarantee|certain)\b)|\bn['’]t\b")
_COMPARED = re.compile(r"(?i)\b(?:compared\s+(?:with|to)|as\s+compared|versus|vs\.?)\s")
_NEVER = re.compile(r"(?i)\b(?:have|has)\s+never\b")
#: a negation of what is expected, intended or planned ("we do not expect to pay …"), not of what was
_EXPECTATION = re.compile(r"(?i)\b(?:not|n['’]t)\s+(?:currently\s+)?"
                          r"(?:expect|anticipate|intend|plan|believe|foresee)\w*\b")
#: what ends a clause: a negation before it governs nothing after it
_CLAUSE_END = re.compile(r"(?i)[;:]|,\s*(?:but|except|although|though|while|whereas|however)\b|\b(?:but|except)\b")
#: the negation stands at most this many words before the item's first word
NEGATION_REACH = 5
#: how many of the best evidence a sentence that states none may be among
LOOK_AT_SENTENCES = 8


def _each_word(q: Question) -> frozenset[str]:
    """The terms of each word of the asked item on its own ("share", "repurchase" of "share repurchases")."""
    return frozenset(t for word in q.focus.split() for t in match_terms(word))


def _item_words(q: Question) -> list[frozenset[str]]:
    """The asked item's terms as alternatives: the whole phrase's (its lexicon group), or each of its words'."""
    whole = frozenset(q.focus_terms)
    head = frozenset(t for t in whole if t.startswith("§"))  # "dividends per share": no dividends, none per share
    return [t for t in (whole, _each_word(q), head) if t]


def _negates_item(q: Question, sentence: str) -> bool:
    """A negation governs the asked item in ``sentence``: the item's words all stand in one clause of it, and a
    negation stands at most ``NEGATION_REACH`` words before the first of them."""
    word_terms = _each_word(q)
    alternatives = _item_words(q)
    for clause in _CLAUSE_END.split(sentence):
        words = re.findall(r"[\w'’]+", clause)
        held = match_terms(clause) | set(stems(clause))
        for alternative in alternatives:
            if not all(t in held or t[:STEM_CHARS] in held for t in alternative):  # "repurchased … shares": each word
                continue
            first = next((i for i, w in enumerate(words) if match_terms(w) & (alternative | word_terms)
                          or w.lower()[:STEM_CHARS] in {t[:STEM_CHARS] for t in alternative | word_terms}), None)
            if first is None:
                continue
            before = " ".join(words[max(0, first - NEGATION_REACH):first])
            if _NEGATION.search(before):
                return True
    return False


def none_stated_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The answer lines and quote of a sentence saying the asked item was none in the asked year, or None. (Asked
    only after a reading found no amount to state surely.)"""
    if q.language != "en" or q.kind != "value" or q.parts or not q.focus or len(q.periods) != 1:
        return None
    year = q.periods[0].year
    if year is None:
        return None
    for ev in gather(q, passages)[:LOOK_AT_SENTENCES]:
        if ev.kind != "sentence":
            continue
        sentence = ev.quote_text
        # its own part: an amount another period is compared with may follow ("… did not pay any dividends in 2022
        # and 2021 compared with $1.2 billion paid in 2020"); the asked year stated there, or "never" ("We have
        # never declared or paid cash dividends")
        own = _COMPARED.split(sentence, maxsplit=1)[0]
        if not (any(p.year == year for p in find_periods(own)) or _NEVER.search(own)):
            continue
        if any(a.currency for _, _, a in all_amounts(own)) or not _negates_item(q, own):
            continue
        if LABOR_PART.search(own) and not LABOR_PART.search(q.text):
            continue  # "none of the employees of MGM China are part of a labor union": of a part, not the whole
        if _EXPECTATION.search(own):
            continue  # "we do not expect to pay unrecognized tax benefit liabilities … within the next 12 months": a
            # forecast of what will be paid, not a balance of none
        quote = " ".join(sentence.split())
        lead = f"None in {q.periods[0].text}, as the documents state [{ev.passage.ref}]."
        return "\n".join([lead, f"> {quote}"]), [(ev.passage.ref, ev.quote_text)]
    return None
