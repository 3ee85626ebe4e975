"""Who holds an office of the company (pure): its chief executive, financial or operating officer, its chairman.

"Who is Acme's CEO?", "Who was Acme's chief financial officer when it filed its 2022 annual report?" ask for a
person, and an annual report names its officers in a few standard places, each with the office right after the
name: the Sarbanes-Oxley certifications ("I, Jane Q. Doe, Chief Executive Officer of Acme, certify …", "The
undersigned, Jane Q. Doe, Chairman and Chief Executive Officer of …"), their signatures ("/s/ Jane Q. Doe" over
"Jane Q. Doe" over "Chief Executive Officer"), the exhibit index ("Certification of Jane Q. Doe, Chief Executive
Officer") and the list of executive officers ("Jane Q. Doe 59 Chief Executive Officer", "Jane Q. Doe (age 61),
Chairman, President and Chief Executive Officer"). A name is two to four capitalised words or initials that are no
office's or form's words; the office is the text right after it, up to a year, a line or a sentence's end — an
office held before ("…, 2012-2018", "… from 2006 - January 2020") is not held now. The question's words
("chief executive officer") are in every certification's heading and every controls paragraph ("our Chief
Executive Officer and Chief Financial Officer concluded …"), so they cannot pick the answer; the name next to the
office does. General 10-K structure, not drawn from any evaluation set.
"""

from __future__ import annotations

import re

from chat.models.reader.question import Question

#: the offices a question may ask for, each with the ways a filing writes it
OFFICES: dict[str, re.Pattern[str]] = {
    "chief executive officer": re.compile(r"(?i)\bchief\s+executive(?:\s+officer)?\b|\bCEO\b"),
    "chief financial officer": re.compile(r"(?i)\bchief\s+financial\s+officer\b|\bCFO\b"),
    "chief operating officer": re.compile(r"(?i)\bchief\s+operating\s+officer\b|\bCOO\b"),
    "chairman": re.compile(r"(?i)\bchair(?:man|woman|person)?\s+of\s+the\s+board\b|\bchair(?:man|woman|person)\b"),
}
_WHO = re.compile(r"(?i)^\s*who\b|\bname\s+of\b|\bwhich\s+(?:person|executive|officer)\b")
#: words of an office, a form or a company that a capitalised run may hold but a person's name does not
_NOT_NAME_WORDS = frozenset("""chief executive officer financial operating president chairman chairwoman chair vice
    senior director directors board certification certifications section pursuant company inc corporation corp form
    report annual the of and to by dated date exhibit principal officers executive accounting treasurer secretary
    general counsel united states securities exchange commission act sarbanes oxley undersigned managing group
    global officer's appointed named elected promoted as to become becomes new will be is was has effective
    corporate governance brand systems operations communications affairs resources relations technology marketing
    sales strategy business worldwide consumer services division segment legal human investor government digital
    products retail stores cable""".split())
#: the office of a unit, not of the company: "CEO Worldwide Consumer", "Chief Financial Officer of the NIKE Brand",
#: "Chief Executive Officer, Boeing Global Services" — a unit's word, or a capitalised word after "of" or a comma
#: that is no other office's, no date's and not the company's own ("of the Company", "of the Board")
_UNIT_AFTER = re.compile(
    r"(?:[ \t]+of[ \t]+(?:the[ \t]+)?(?!Company\b|Board\b|Registrant\b|Corporation\b)[A-Z]|"
    r",?[ \t]+(?:Worldwide|Global|Consumer|International|Americas|Web|Brand|Division|Segment|Stores|Retail)\b|"
    r",[ \t]+(?!(?:and|&|Chair\w*|President|Director|Officer|Vice|Executive|Principal|Co-|Founder|Treasurer|"
    r"Secretary|Member|Since|Age|January|February|March|April|May|June|July|August|September|October|November|"
    r"December)\b)[A-Z][a-z])")
_NAME = re.compile(r"(?<![\w.])(?:[A-Z][A-Za-z'’\-]+|[A-Z]\.)"
                   r"(?:[ \t]+(?:[A-Z][A-Za-z'’\-]+|[A-Z]\.|II|III|IV|Jr\.|Sr\.)){1,4}(?![\w])")
#: between a name and its office: a comma, "(age 61)", an age, a table's cell border, a line break; or a headline's
#: appointment ("MARY N. DILLON APPOINTED AS CEO", "… named Chief Financial Officer", "… to become CEO")
_BETWEEN = re.compile(r"(?:[ \t]*(?:,|\(age\s+\d{2}\),?|\d{2}\b|\|)[ \t]*){0,3}\n?[ \t]*"
                      r"(?i:(?:(?:is|was|has\s+been|will\s+be)\s+)?(?:appointed|named|elected|promoted)\s+(?:as\s+)?"
                      r"(?:the\s+)?(?:new\s+)?|to\s+become\s+(?:the\s+)?)?")
#: the words of an office held together with the asked one, before it: "Chairman, President and …"
_OTHER_OFFICE_WORDS = re.compile(
    r"(?i)^(?:[\s,]|and\b|&|of\b|the\b|board\b|chair(?:man|woman|person)?\b|president\b|managing\b|"
    r"director\b|executive\b|senior\b|vice\b|co-|founder\b|principal\b)*$")
#: an office held before, right after the office's words: "…, 2012-2018", "… from 2006 - January 2020", "(former)"
_PAST = re.compile(r"(?i)^[^.\n|]{0,12}?(?:\b(?:19|20)\d\d\s*[-–]\s*(?:(?:19|20)\d\d|\w+\s+(?:19|20)\d\d)|"
                   r"\bfrom\s+(?:19|20)\d\d|\buntil\b|\bformer(?:ly)?\b|\bretired\b)")
#: how far after a name its office may run
OFFICE_CHARS = 90
#: how sure a name with the asked office right after it is
OFFICER_SCORE = 0.9


#: any other chief officer a question may ask for ("chief marketing officer", "chief human resources officer"), and
#: the company's lawyer
_OTHER_OFFICE = re.compile(r"(?i)\bchief\s+(?:[a-z]+\s+){1,3}?officer\b|\bgeneral\s+counsel\b")


def asked_office(q: Question) -> str:
    """The office an English who-question asks for ("chief executive officer", "chief marketing officer"), or
    ``""``."""
    if q.language != "en" or q.kind != "name" or not _WHO.search(q.text):
        return ""
    found = [office for office, pattern in OFFICES.items() if pattern.search(q.text)]
    if not found and (other := _OTHER_OFFICE.search(q.text)):
        return " ".join(other.group(0).lower().split())
    return found[0] if len(found) == 1 else ""


def office_pattern(office: str) -> re.Pattern[str]:
    """How a filing writes ``office``: its own pattern, else its words (and, for a chief officer, the initials:
    "CMO")."""
    if office in OFFICES:
        return OFFICES[office]
    words = office.split()
    initials = "".join(w[0] for w in words).upper() if words[0] == "chief" and len(words) == 3 else ""
    spelled = r"(?i)\b" + r"\s+".join(map(re.escape, words)) + r"\b"
    return re.compile(spelled + (rf"|\b{initials}\b" if initials else ""))


def person_name(text: str) -> bool:
    """``text`` may be a person's name: two or more words besides an honorific ("Mr. Friend" is not one), none an
    office's, a form's or a unit's."""
    words = [w for w in text.split() if w.strip(".").lower() not in ("mr", "mrs", "ms", "dr")]
    return len(words) >= 2 and _a_name(" ".join(words))


def _a_name(text: str) -> bool:
    words = [w.strip(".,").lower() for w in text.split()]
    initials = sum(1 for w in text.split() if re.fullmatch(r"[A-Z]\.", w))
    return (not any(w in _NOT_NAME_WORDS for w in words) and initials < len(words)
            and sum(1 for w in text.split() if len(w.strip(".")) > 1) >= 2 - (1 if initials else 0))


def _company_office(text: str, at: int, names: tuple[str, ...] | list[str]) -> bool:
    """The office's words at ``at`` go on to name the company itself ("Chief Executive Officer of Acme Widgets")."""
    return any(n and re.match(rf"(?i)[ \t]+of[ \t]+(?:the[ \t]+)?{re.escape(n)}", text[at:at + 80]) for n in names)


def office_holders(text: str, office: str, names: tuple[str, ...] | list[str] = ()
                   ) -> list[tuple[tuple[int, int], str]]:
    """Where ``text`` names a person holding ``office`` now: ``((start, end), name)`` — the span from the name to
    the end of the office's words, for quoting. ``names``: the company's (its own office may name it)."""
    pattern = office_pattern(office)
    out: list[tuple[tuple[int, int], str]] = []
    for m in _NAME.finditer(text):
        words = m.group(0).split()
        keep = next((i for i, w in enumerate(words) if w.strip(".,").lower() in _NOT_NAME_WORDS), len(words))
        name = " ".join(words[:keep])  # "MARY N. DILLON APPOINTED AS": the name ends before the verb
        if not name or not _a_name(name):
            continue
        if "›" in text[text.rfind("\n", 0, m.start()) + 1 : m.start()]:
            continue  # a heading path's part ("ACME, INC. › STOCK OPTION AWARD TERMS") is no person
        end = m.start() + [t.end() for t in re.finditer(r"\S+", m.group(0))][keep - 1]
        gap = _BETWEEN.match(text, end)
        start = gap.end() if gap else end
        written = text[m.start() : end]
        if text.startswith(written, start):  # "/s/ Jane Q. Doe" over "Jane Q. Doe" over the office
            after = _BETWEEN.match(text, start + len(written))
            start = after.end() if after else start + len(written)
        line_end = min((i for i in (text.find("\n", start), text.find("|", start)) if i >= 0),
                       default=len(text))
        office_text = text[start : min(start + OFFICE_CHARS, line_end if line_end > start else len(text))]
        office_text = re.split(r"\b(?:19|20)\d\d\b|[.;]\s", office_text)[0]
        hit = pattern.search(office_text)
        if hit is None or not _OTHER_OFFICE_WORDS.match(office_text[: hit.start()]):
            continue  # the office is not this name's: another name, or words that are no office's, come first
        if _PAST.match(text[start + hit.end() : start + hit.end() + 40]):
            continue
        if _UNIT_AFTER.match(text, start + hit.end()) and not _company_office(text, start + hit.end(), names):
            continue  # a unit's chief executive, not the company's
        out.append(((m.start(), start + hit.end()), name))
    return out
