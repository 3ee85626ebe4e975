"""A revised outlook (pure): "By how many percentage points did Acme raise its full-year guidance for organic
revenue growth?", "How much did Acme lower its EPS guidance?", "Why did Acme raise its full-year guidance?".

An earnings release states a revision with the old figure beside the new: "… now expects 8 percent organic revenue
growth (previously 6 percent), and 9 percent core EPS growth (previously 8 percent)", "… core constant currency EPS
to increase 9 percent (previously 8 percent)", "adjusted EPS of $7.45 to $7.55 (prior guidance of $7.20 to
$7.30)". Each "(previously …)" closes one revised figure; the one whose words are the question's measure answers,
its change computed ("by 1 percentage point") and the sentence quoted. A "why" question is answered with the reason
the same sentence (or the one before it) gives ("Given our strong start to the year, we now expect …"). Written from
the standard wording of earnings-release outlook sections, not from any evaluation set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from chat.models.reader.evidence import of_company
from chat.models.reader.numbers import Amount, all_amounts
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question
from chat.models.reader.text import display, match_terms, sentence_spans

#: the question is about a revised outlook: guidance (outlook, forecast) raised, lowered, revised, kept …
_ASKED = re.compile(r"(?i)\b(?:guidance|outlook|forecast)\b")
_REVISED = re.compile(r"(?i)\b(?:rais\w*|lower\w*|cut|increas\w*|decreas\w*|reduc\w*|updat\w*|revis\w*|chang\w*|"
                      r"narrow\w*|reaffirm\w*|maintain\w*|trim\w*|boost\w*|hik\w*|how\s+much|how\s+many)\b")
_WHY = re.compile(r"(?i)^\s*(?:(?:as\s+of|in|for|during)\s+[^,?]{1,40},\s*)?why\b")
#: the old figure beside the new: "(previously 8 percent)", "(prior guidance of $7.20 to $7.30)", "(was 6%)"
_PREVIOUSLY = re.compile(r"\(\s*(?:previously|prior(?:ly)?(?:\s+guidance)?(?:\s+of)?|was|from|compared\s+(?:to|with)"
                         r"(?:\s+(?:the\s+)?prior\s+guidance\s+of)?)\s*:?\s*(?P<old>[^()]{1,60}?)\s*\)", re.I)
#: a reason stated for the revision ("Given our strong start to the year, …", "reflecting higher volumes")
_REASON = re.compile(r"(?i)\b(?:given|reflecting|due\s+to|driven\s+by|as\s+a\s+result\s+of|because(?:\s+of)?|"
                     r"on\s+the\s+strength\s+of|thanks\s+to|on\s+the\s+back\s+of)\b[^,;.]{3,120}")
#: the question's words that name no measure of the outlook
_NOT_MEASURE = match_terms(
    "by how many much percentage points percent did does do raise raised lower lowered cut increase decrease reduce "
    "update revise change narrow reaffirm maintain its their the full year annual fiscal guidance outlook forecast in "
    "respect of for on regarding what was were is why as company quarter")
#: a conjunction or a verb of expecting before the figure's own words ("and 9 percent …", "we now expect …")
_LEAD_IN = re.compile(r"(?i)^[\s,;:]*(?:and\s+|or\s+)?(?:.*?(?:\bexpects?\s+"
                      r"(?:to\s+(?:deliver|grow|generate|achieve)\s+)?(?:our\s+|its\s+)?|\bimpl(?:y|ies)\s+|:\s*))?")


@dataclass(frozen=True, slots=True)
class Revision:
    passage: Passage
    sentence: str  # the whole sentence, as printed
    words: str  # the revised figure's own words, whitespace made single ("9 percent core constant currency EPS growth")
    new: tuple[Amount, ...]  # one figure, or a range's two
    old: tuple[Amount, ...]
    terms: frozenset[str]


def asks_guidance(question: str) -> bool:
    return bool(_ASKED.search(question) and (_REVISED.search(question) or _WHY.search(question)))


def guidance_query(question: str) -> str:
    """The revision's own words searched for: "Acme now expects core EPS growth (previously …)" — a release states
    the revised figures in its opening quote and its outlook section, beside the old ones."""
    from chat.models.reader.question import analyze

    if not asks_guidance(question):
        return ""
    q = analyze(question)
    measure = _measure(q)
    words = [w for w in re.findall(r"[\w&'’-]+", question) if (t := match_terms(w)) and t <= measure]
    return " ".join([*q.names[:1], "now expects", *words, "guidance previously"])


def _figures(text: str) -> tuple[Amount, ...]:
    """The figure a revision states: the last amount, or the last two when they are a range ("$7.45 to $7.55")."""
    found = all_amounts(text)
    if not found:
        return ()
    if len(found) >= 2 and re.fullmatch(r"\s*(?:to|-|–|—)\s*", text[found[-2][1]:found[-1][0]]):
        return found[-2][2], found[-1][2]
    return (found[-1][2],)


def revisions(passages: Sequence[Passage]) -> list[Revision]:
    """Every "(previously …)" revision in the passages, in order."""
    out: list[Revision] = []
    for p in passages:
        for s, e in sentence_spans(p.text):
            sentence = p.text[s:e]
            flat = " ".join(sentence.split())
            start = 0
            for m in _PREVIOUSLY.finditer(flat):
                unit = flat[start : m.start()]
                start = m.end()
                new, old = _figures(unit), _figures(m.group("old"))
                if not new or not old or len(new) != len(old):
                    continue
                words = _LEAD_IN.sub("", unit).strip(" ,;")
                terms = frozenset(match_terms(re.sub(r"[\d$%.,]+", " ", words)))
                out.append(Revision(p, sentence, words, new, old, terms))
    return out


def _measure(q: Question) -> set[str]:
    named = set().union(*(match_terms(n) for n in q.names)) if q.names else set()
    return match_terms(q.text) - _NOT_MEASURE - named


def _said(amounts: tuple[Amount, ...]) -> str:
    return " to ".join(a.raw for a in amounts)


def _change(r: Revision) -> tuple[str, str] | None:
    """(raised | lowered | kept, by how much — "1 percentage point", "$0.25"), or None where the change is no one
    figure (a range whose ends moved apart)."""
    moves = {round(n.value - o.value, 6) for n, o in zip(r.new, r.old, strict=True)}
    if len(moves) != 1:
        return None
    move = moves.pop()
    verb = "raised" if move > 0 else "lowered" if move < 0 else "kept"
    size = abs(move)
    number = f"{size:,.2f}".rstrip("0").rstrip(".")
    if all(a.percent for a in (*r.new, *r.old)):
        return verb, f"{number} percentage point{'' if size == 1 else 's'}"
    currency = r.new[0].currency
    return verb, f"{currency}{number}" if currency else number


def guidance_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The answer text and its quote, or None when no revision of the measure asked is among the passages."""
    if q.language != "en" or not asks_guidance(q.text):
        return None
    found = revisions(of_company(q, passages))
    if not found:
        return None
    measure = _measure(q)
    if _WHY.search(q.text):
        return _reason(q, found, measure)
    if not measure:
        return None
    # the most of the measure's words, then the fewest others ("core EPS" is not "core … EPS growth"), then the first
    scored = [(len(r.terms & measure), -len(r.terms - measure), -i, r) for i, r in enumerate(found)]
    best_score, _, _, best = max(scored, key=lambda x: x[:3])
    if best_score * 2 < len(measure) or not best_score:
        return None  # no revision names most of the measure asked ("organic revenue growth" for EPS guidance)
    change = _change(best)
    owner = q.names[0] if q.names else "The company"
    if change is None:
        lead = (f"{owner} revised its guidance: {best.words}, previously {_said(best.old)} [{best.passage.ref}] "
                f"(the range's ends moved by different amounts).")
    elif change[0] == "kept":
        lead = f"{owner} kept its guidance unchanged: {best.words}, as before [{best.passage.ref}]."
    else:
        lead = (f"{owner} {change[0]} its guidance by {change[1]}: {best.words}, previously {_said(best.old)} "
                f"[{best.passage.ref}] (computed from the figures stated).")
    return f"{lead}\n> {display(best.sentence)} [{best.passage.ref}]", [(best.passage.ref, best.sentence)]


def _reason(q: Question, found: list[Revision], measure: set[str]) -> tuple[str, list[tuple[str, str]]] | None:
    """"Why did Acme raise its guidance?": the reason the revision's sentence states ("Given our strong start to the
    year, we now expect …"), else the sentence before it; of several, one in the revision's own sentence ahead of
    its figures first, then the revision of the measure asked, then the first found."""
    best: tuple[tuple[int, int, int, int], Revision, str, str] | None = None
    for i, r in enumerate(found):
        text = r.passage.text
        at = text.find(r.sentence)
        before = [text[s:e] for s, e in sentence_spans(text) if e <= at][-1:]
        for own, sentence in ((True, r.sentence), *((False, b) for b in before)):
            flat = " ".join(sentence.split())
            reason = _REASON.search(flat)
            if reason is None:
                continue
            ahead = own and reason.start() < flat.find("(")
            key = (int(own) + int(ahead), len(r.terms & measure), -i, int(own))
            if best is None or key > best[0]:
                best = (key, r, sentence, reason.group(0).strip())
    if best is None:
        return None
    _, r, sentence, said = best
    owner = q.names[0] if q.names else "The company"
    lead = f"{owner} gives this reason for the revised guidance: “{said}” [{r.passage.ref}]."
    quotes = [(r.passage.ref, s) for s in dict.fromkeys([sentence, r.sentence])]
    return "\n".join([lead, *(f"> {display(s)} [{ref}]" for ref, s in quotes)]), quotes
