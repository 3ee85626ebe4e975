"""What the company does (pure): "What industry does Acme operate in?", "What is Acme's primary business?", "What
does Acme do?".

A company says what it is in the first lines of its annual report's Item 1 (Business: "General", "Overview", "The
Company"): "Acme Corporation is a global leader in …", "Acme, together with its subsidiaries, is one of the world's
major … firms", "We are a global technology company …", "Our principal business activity is the design … of …". The
answer is that sentence of the company's own — its name, "we", "the Company" as the subject, a copula and a noun that
names a kind of business (a company, a leader, a manufacturer, a provider, a retailer …) — quoted, not the question's
own words found elsewhere ("We operate in highly competitive geographies …" holds "operate", and says nothing of
what is made or sold). A sentence under Item 1's headings outranks one elsewhere, an earlier page a later one, a
10-K an earnings release. Asked and none is among the results, the page of a hit under Item 1 is read.
Written from the standard wording of 10-K Item 1, not from any evaluation set.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from chat.models.reader.evidence import of_named
from chat.models.reader.names import mentions
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question, analyze
from chat.models.reader.text import display, sentence_spans

#: the question asks what the company does, not a figure of one of its businesses
_ASKED = re.compile(
    r"(?i)\b(?:what|which)\s+(?:industry|industries|sector|line\s+of\s+business|kind\s+of\s+(?:company|business)|"
    r"type\s+of\s+(?:company|business))\b"
    r"|\bwhat\s+(?:business(?:es)?|businesses)\s+(?:is|are|does|do)\b"
    r"|\b(?:primary|principal|main|core)\s+business\b(?!\s+(?:segments?|units?|lines?)\b)"
    r"|\bwhat\s+does\s+.{1,60}?\s+do\s*\??$"
    r"|\bdescribe\s+.{1,60}?\s+business\b"
    r"|\bwhat\s+(?:is|was)\s+.{1,60}?[’']s?\s+business\s*\??$"
    # "What products does Acme sell?", "What kind of services does Acme offer?", "What does Acme make?"
    r"|\bwhat\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?(?:products?|services?|goods|merchandise)(?:\s+and\s+"
    r"(?:products|services|solutions))?\s+(?:does|do|did)\s+.{1,60}?\s+(?:sell|offer|make|provide|manufacture|"
    r"produce|market|distribute)\b"
    r"|\bwhat\s+does\s+.{1,60}?\s+(?:sell|make|manufacture|produce)\s*\??$")
_NOT_THIS = re.compile(r"(?i)\bsegments?\b|\bhow\s+(?:much|many)\b|\brevenue|\bsales\b|\bincome\b|\bgrowth\b|"
                       r"\bemployees?\b|\brisks?\b|\bcompetitors?\b|\bacquisitions?\b|\bdiscontinued\b")
#: a noun naming a kind of business
_KIND = (r"(?:compan(?:y|ies)|corporation|leader|provider|manufacturer|maker|producer|developer|designer|marketer|"
         r"retailer|distributor|supplier|operator|innovator|firms?|enterprise|business|conglomerate|platform|"
         r"services?|brand|bank|insurer|utility|group|organi[sz]ation|holding\s+company|pioneer|franchisor|"
         r"partner|airline|carrier|network|source|contractor|merchant|seller|creator|publisher|studio)")
#: "… is a global leader in …", "… is one of the world's major aerospace firms", "… is the world's largest …", "We
#: seek to be Earth's most customer-centric company"
_COPULA = re.compile(rf"(?i)^(?P<subject>.{{0,160}}?)\s+(?:is|are|(?:seek|aim|strive)s?\s+to\s+be)\s+"
                     rf"(?:a|an|one\s+of|the|among|earth[’']s|the\s+world[’']s)\b(?P<rest>.{{0,200}}?)\b{_KIND}s?\b")
#: "Our principal business activity is the design … of …"
_ACTIVITY = re.compile(r"(?i)\b(?:our|its|the\s+company[’']s)\s+(?:principal|primary|main|core)\s+business"
                       r"(?:\s+activit(?:y|ies))?\s+(?:is|are|consists?\s+of|includes?)\b")
#: what a sentence may open with before its subject: "Founded in 1982, Adobe is …"
_OPENING = re.compile(r"(?i)^(?:founded|incorporated|established|headquartered|based|organi[sz]ed)\b[^,]{0,60},\s*")
#: the subject is the company itself
_OWN = re.compile(r"(?i)we|the\s+company|our\s+company")
#: a subject that is something else than the company, or a copula that says something else of it
_NOT_OWN = re.compile(r"(?i)\b(?:subsidiar(?:y|ies)|segment|division|joint\s+venture|customer|competitor|supplier|"
                      r"partner|acquisition|acquired|auditor|trustee|counterparty|plan|program)s?\b")
#: how far past the noun a sentence is read for what makes it no description
DESCRIPTION_TAIL = 60
_NOT_DESCRIPTION = re.compile(r"(?i)\b(?:party|parties|defendant|subject\s+to|not\s+a|risk|believe|may|could|if|"
                              # its legal form, not its business ("… is a public limited company incorporated under
                              # the Laws of the Bailiwick of Jersey")
                              r"incorporated|organi[sz]ed|formed|domiciled|registered|laws?|limited\s+company|"
                              r"(?:holding|parent)\s+company)\b")
#: … unless the sentence goes on to say what it does ("… is a Delaware corporation … that acts largely as a holding
#: company and, through subsidiaries, owns and operates integrated casino, hotel, and entertainment resorts")
_DOES = re.compile(r"(?i)\b(?:owns|operates|provides|offers|designs|develops|manufactures|produces|sells|markets|"
                   r"distributes|serves|engaged\s+in)\b")
#: "Acme (the "Company") helps people …", "We started Acme in 2009 to enable …": the company as the subject of any
#: verb — Item 1's opening sentence when no sentence names a kind of business
_ANY_VERB = re.compile(r"(?i)^(?P<subject>.{0,160}?)\s+(?:[a-z]+s|[a-z]+ed|seek\s+to|help|offer|provide|operate|"
                       r"design|develop|make|sell|serve)\b")


#: the company's name with its legal form ("Acme Inc.", "The Acme Company", "NIKE, Inc.")
_LEGAL_FORM = (r"(?:,?\s+(?:inc\.?|incorporated|corporation|corp\.?|company|co\.?|plc|ltd\.?|limited|group|"
               r"holdings?|n\.v\.|s\.a\.|ag|se|llc|l\.p\.))*")
#: what may stand beside the company as the subject: its subsidiaries taken together with it
_WITH_SUBSIDIARIES = re.compile(r"(?i),?\s*(?:(?:together|along)\s+with|and)\s+(?:all\s+)?(?:of\s+)?its\s+"
                                r"(?:consolidated\s+|wholly[- ]owned\s+)?subsidiaries\s*,?")


#: headings of Item 1's first part
_ITEM_1 = re.compile(r"(?im)\bitem\s*1\.?\s*(?:[-–—:]\s*)?business\b|\bbusiness\b(?!\s+(?:strategy|risks?|segments?))|"
                     r"\boverview\b|(?:^|›)\s*general\s*(?:$|›)|\bthe\s+company\b|\babout\s+us\b|"
                     r"\bdescription\s+of\s+business\b")  # "General" as a heading of its own, not "Attorneys General"
#: a line this short above a sentence may be its heading
HEADING_LINE = 60
_RISK_HEADING = re.compile(r"(?i)\brisk\s+factors?\b|\brisks?\b|\blegal\s+proceedings\b|\bexhibits?\b|\bnotes?\s+to\b")


def asks_business(text: str) -> bool:
    """An English question for what the company does, the industry it is in."""
    return bool(_ASKED.search(text)) and not _NOT_THIS.search(text)


def business_query(question: str) -> str:
    """The company and the words its Item 1 describes it with, or ``""`` when no such question."""
    if not asks_business(question):
        return ""
    q = analyze(question)
    return " ".join([*q.names, "is a leading global company. Item 1. Business General Overview: we are a company that"])


def _subject_names(names: Sequence[str], company: str) -> list[str]:
    """The names the company goes by: the question's, and its identity's first line ("MGM RESORTS INTERNATIONAL")."""
    own = company.split("\n")[0].strip() if company else ""
    return [*names, own] if own else list(names)


def _own_subject(subject: str, names: Sequence[str]) -> bool:
    """The subject is the company itself: "we", "the Company", or its name (with its legal form, its subsidiaries
    taken together with it) — not "Acme Robotics, our subsidiary"."""
    subject = re.sub(r"\([^)]*\)", " ", subject)  # "Netflix, Inc. (“Netflix”, “the Company”, “we”, or “us”)"
    subject = " ".join(_WITH_SUBSIDIARIES.sub(" ", subject).split()).strip(" ,")
    if _NOT_OWN.search(subject):
        return False
    if _OWN.fullmatch(subject):
        return True
    return any(re.fullmatch(rf"(?i)(?:the\s+)?{re.escape(_bare(n))}{_LEGAL_FORM}", subject) for n in names if _bare(n))


def _bare(name: str) -> str:
    """The name without its legal form ("NIKE, Inc." → "NIKE")."""
    return re.sub(rf"(?i){_LEGAL_FORM}$", "", name.strip()).strip(" ,")


def describes(sentence: str, names: Sequence[str]) -> bool:
    """``sentence`` is the company's own description of what it is or does."""
    text = _OPENING.sub("", " ".join(sentence.split()))
    if _ACTIVITY.search(text):
        return True
    m = _COPULA.match(text)
    if m is None or not _own_subject(m.group("subject"), names):
        return False
    said = _NOT_DESCRIPTION.search(text, m.start("rest"), m.end() + DESCRIPTION_TAIL)
    return not said or bool(_DOES.search(text, said.end()))


def _named_describes(sentence: str, names: Sequence[str]) -> bool:
    """``describes``, with the company named as the subject ("Acme is …"), not "we" (another company's filing)."""
    text = _OPENING.sub("", " ".join(sentence.split()))
    m = _COPULA.match(text)
    return m is not None and not _OWN.fullmatch(m.group("subject").strip()) and describes(sentence, names)


def opens_item_1(sentence: str, names: Sequence[str]) -> bool:
    """``sentence`` has the company as its subject, of any verb ("Acme (“Acme” or “we”) helps people …")."""
    text = _OPENING.sub("", " ".join(sentence.split()))
    m = _ANY_VERB.match(text)
    return m is not None and _own_subject(m.group("subject"), names) and not _NOT_DESCRIPTION.search(text)


def _rank(p: Passage, start: int) -> tuple[int, int, int]:
    # the heading path (the chunk's first line) and the heading-like short lines just above the sentence — not any
    # words before it ("… State Attorneys General filed …" is no "General" heading)
    path, _, body = p.text[:start].partition("\n")
    above = [line for line in body.split("\n")[-3:] if 0 < len(line.strip()) <= HEADING_LINE]
    heading = "\n".join([path, *above])
    under_item_1 = bool(_ITEM_1.search(heading)) and not _RISK_HEADING.search(path)
    annual = "10K" in p.file_name.upper().replace("-", "") or "10-K" in p.file_name.upper()
    return (0 if under_item_1 else 1, 0 if annual else 1, p.page or 0)


def business_answer(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]]] | None:
    """The answer text and its quote, or None when no passage holds the company's description of itself."""
    if q.language != "en" or not asks_business(q.text):
        return None
    found: list[tuple[tuple[int, int, int, int], Passage, str]] = []
    for p in of_named(q, passages):
        # "we" and "the Company" are the named company only in its own document (its file name or identity)
        own_document = all(mentions(n, p.owner_only()) for n in q.strong_names)
        names = _subject_names(q.names, p.company) if own_document else list(q.names)
        said_by = describes if own_document else _named_describes
        for s, e in sentence_spans(p.text):
            sentence = p.text[s:e]
            # the heading path may lead the chunk's first sentence ("ACME › Item 1. Business General Acme is …")
            cut = _subject_start(sentence, names, said_by)
            if cut is not None:
                found.append(((0, *_rank(p, s)), p, sentence[cut:]))
                continue
            rank = _rank(p, s)
            cut = _subject_start(sentence, names, opens_item_1) if rank[0] == 0 and own_document else None
            if cut is not None:
                found.append(((1, *rank), p, sentence[cut:]))
    if not found:
        return None
    _, p, sentence = min(found, key=lambda f: f[0])
    quote = display(sentence)
    return f"The company describes its business: “{quote}” [{p.ref}]", [(p.ref, sentence)]


def _subject_start(sentence: str, names: Sequence[str], test: Callable[[str, Sequence[str]], bool]) -> int | None:
    """Where the sentence's own subject begins for ``test`` to hold, past a heading path glued before it ("… ›
    General Corning is …", "MGM Resorts International MGM Resorts International (NYSE: MGM) is …"); None when
    it holds nowhere."""
    if test(sentence, names):
        return 0
    for n in [*filter(None, (_bare(n) for n in names)), "We", "The Company", "Our Company", "Founded", "Incorporated"]:
        for m in re.finditer(rf"(?:^|(?<=\s)){re.escape(n)}\b", sentence):
            if m.start() and test(sentence[m.start():], names):
                the = re.search(r"(?i)\bthe\s+$", sentence[: m.start()])  # "The Boeing Company, …"
                return the.start() if the else m.start()
    return None


def pages_to_read(question: str, q: Question, passages: Sequence[Passage]) -> list[tuple[str, int]]:
    """The page of the named company's Item 1 among the hits, to read when no hit holds its description."""
    if not asks_business(question) or business_answer(q, passages) is not None:
        return []
    hits = [p for p in of_named(q, passages) if p.document_id and p.page
            and _ITEM_1.search(p.text[:300]) and not _RISK_HEADING.search(p.text[:200])]
    if not hits:
        return []
    first = min(hits, key=lambda p: p.page)
    return [(first.document_id, first.page)]
