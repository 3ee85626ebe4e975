"""When a company's fiscal year ends (pure): "When did Best Buy's fiscal 2023 end?", "When does Nike's fiscal year
end?", "What is the end date of Acme's fiscal year 2022?".

A filing says it on its cover ("For the fiscal year ended January 28, 2023") and in its statements' headings ("52
weeks ended January 28, 2023", "Year Ended May 31, 2021"). The answer is the date a passage of the company's own
says a year ended on: the one in the year asked — or, the year asked being the company's own "fiscal <year>" and
the date early in the next calendar year, the one a company that names its years by their start means (Ulta
Beauty's "fiscal 2022" ended on January 28, 2023; ``fiscal_names``) — or, no year asked, the latest. The sentence
that says it is quoted. Written from the usual wording of filings' covers and headings, not from any evaluation
set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from chat.models.reader.evidence import of_company
from chat.models.reader.fiscal_names import by_start, names_by_start
from chat.models.reader.passage import Passage
from chat.models.reader.periods import Period
from chat.models.reader.question import Question, subject_of
from chat.models.reader.text import display, sentence_spans

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_ASKED = re.compile(
    r"(?i)^\s*(?:when|on\s+what\s+(?:date|day)|what\s+(?:date|day))\s+(?:did|does|do|will|was|is)\b[^?]*?\b"
    r"(?:fiscal|financial)\s+(?:year|(?:19|20)\d\d)\b[^?]*\b(?:end|ended|close|closed|conclude|concluded)\b|"
    r"\b(?:end(?:ing)?|closing)\s+date\s+of\b[^?]*\b(?:fiscal|financial)\s+(?:year|(?:19|20)\d\d)\b|"
    r"^\s*(?:when|what\s+date)\b[^?]*\b(?:fiscal|financial)\s+year[- ]end\b")
#: "For the fiscal year ended January 28, 2023", "52 weeks ended January 28, 2023", "Fiscal Years Ended / January 28,
#: 2023" (a table's heading), "for the fiscal years ended May 29, 2022, May 30, 2021, and May 31, 2020"
_ENDED = re.compile(r"(?i)\b(?:(?:fiscal\s+)?years?|(?:52|53|fifty[- ]two|fifty[- ]three)[- ]weeks?)\s+ended\b")
_DATE = re.compile(r"(?i)\s*(?:/\s*|,\s*(?:and\s+)?|and\s+|:\s*)?(?P<month>" + "|".join(_MONTHS) +
                   r")\s+(?P<day>\d{1,2}),?\s+(?P<year>(?:19|20)\d\d)\b")
#: "Our fiscal year ends on the Saturday nearest the end of January", "… ends on the last Sunday in May"
_RULE = re.compile(r"(?i)\bfiscal\s+years?\s+(?:ends|end)\s+(?:on\s+)?(?:the\s+)?"
                   r"(?:(?:last|first|final)\s+(?:saturday|sunday|friday|day)|(?:saturday|sunday|friday)\s+"
                   r"(?:nearest|closest)|" + "|".join(_MONTHS) + r")\b")


def asks_year_end(question: str) -> bool:
    return bool(_ASKED.search(question))


def year_end_query(question: str) -> str:
    """The cover's and the statements' "fiscal year ended …", searched for."""
    if not asks_year_end(question):
        return ""
    return f"{subject_of(question)} fiscal year ended".strip()


def _rule(passages: Sequence[Passage]) -> tuple[Passage, str] | None:
    """The sentence that says how the company's fiscal year ends ("on the Saturday nearest the end of January")."""
    for p in passages:
        for s, e in sentence_spans(p.text):
            if (m := _RULE.search(p.text, s, e)) is not None:
                s, e = _clip(p.text, (s, e), m.start(), m.end())
                return p, display(p.text[s:e]).strip()
    return None


@dataclass(frozen=True, slots=True)
class _End:
    when: date
    passage: Passage
    span: tuple[int, int]  # the sentence (or the table's line) that says it
    prose: bool  # a sentence, not a table's heading


def _ends(passages: Sequence[Passage]) -> list[_End]:
    """Each year-end date a passage says ("… ended January 28, 2023", each date of "… ended May 29, 2022, May 30,
    2021, and May 31, 2020"), with the sentence that says it."""
    out: list[_End] = []
    for p in passages:
        spans = sentence_spans(p.text)
        for m in _ENDED.finditer(p.text):
            at = m.end()
            span = next(((s, e) for s, e in spans if s <= m.start() < e), (m.start(), m.end()))
            line_start = p.text.rfind("\n", 0, m.start()) + 1
            prose = not p.text[line_start:].lstrip().startswith("|")
            while (d := _DATE.match(p.text, at)) is not None:
                at = d.end()
                try:
                    when = date(int(d.group("year")), _MONTHS.index(d.group("month").lower()) + 1,
                                int(d.group("day")))
                except ValueError:
                    continue
                # a table's heading ("Fiscal Years Ended / January 28, 2023"): the heading and its date quoted
                out.append(_End(when, p, _clip(p.text, span, m.start(), d.end()) if prose else (m.start(), d.end()),
                                prose))
    return out


def _clip(text: str, span: tuple[int, int], at: int, end: int) -> tuple[int, int]:
    """The sentence ``span`` that says the match at ``at``…``end``, without a heading path's line before it ("Acme,
    Inc. › Fiscal Year") and the cover's next lines after it (a cover line has no full stop)."""
    start, stop = span
    for line in re.finditer(r"[^\n]*\n", text[start:at]):
        if "›" in line.group(0):
            start = span[0] + line.end()
    newline = text.find("\n", end)
    if newline != -1 and newline < stop and not text[end:newline].strip(" .,;:"):
        stop = newline
    return start, stop


def _by_start(passages: Sequence[Passage], ends: Sequence[_End]) -> bool:
    """The company names its fiscal years by the calendar year they began in (``fiscal_names``)."""
    periods = [Period(year=e.when.year, month=e.when.month) for e in ends]
    return names_by_start([p.text for p in passages], periods)


def year_end_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """"<Company>'s fiscal 2023 ended on January 28, 2023 [S1]." with the sentence that says it, or None when no
    passage of the company's says a year ended on a date (of the year asked)."""
    if q.language != "en" or not asks_year_end(q.text):
        return None
    own = of_company(q, passages) or list(passages)
    ends = _ends(own)
    asked = next((p for p in q.periods if p.year is not None), None)
    if asked is not None and _by_start(own, ends):
        # the company's own "fiscal 2022", named by its start: the year that ended early in 2023 (an analyst's
        # "FY2022" stays as asked)
        asked = next(p for p in by_start(q).periods if p.year is not None)
    year = asked.year if asked is not None else None
    chosen = [e for e in ends if year is None or e.when.year == year]
    rule = _rule(own)
    if not chosen:
        if rule is None:
            return None
        p, said = rule  # "When does Acme's fiscal year end?": how the company says it ends
        which = "" if year is None else " (not the date the year asked ended on)"
        return f"The documents say how the fiscal year ends{which}: “{said}” [{p.ref}]", [(p.ref, said)]
    best = max(chosen, key=lambda e: (e.when, e.prose))
    when, p, span = best.when, best.passage, best.span
    if year is None:
        month_day = f"{when:%B} {when.day}"
        lead = (f"The fiscal year ends on {month_day} (the latest year the documents cover ended on {month_day}, "
                f"{when.year}) [{p.ref}].")
    else:
        named = " ".join(asked.text.split()) if asked is not None else f"fiscal {year}"
        name = q.strong_names[0] if q.strong_names else ""
        whose = (f"{name}'" if name.endswith("s") else f"{name}'s") if name else "The"
        lead = f"{whose} {named} ended on {when:%B} {when.day}, {when.year} [{p.ref}]."
    quote = " ".join(display(p.text[span[0] : span[1]]).replace(" / ", " ").split())
    lines, quotes = [lead, f"> {quote}"], [(p.ref, quote)]
    if rule is not None and rule[1] != quote:
        lines.append(f"> {rule[1]} [{rule[0].ref}]")
        quotes.append((rule[0].ref, rule[1]))
    return "\n".join(lines), quotes
