"""What a Korean/Japanese sentence answer states before its quote (pure): the asked thing, named.

The first sentence of an answer should say what was asked — a date, a number with its counter, a name — and
then quote the sentence that holds it (``compose``). For a Korean/Japanese question the evidence step finds a
date or an amount itself (``evidence.answer_span``); ``stated`` adds the rest:

- **a pronoun's referent** — a "who" question answered by a sentence whose subject is a pronoun
  (``그는``, ``그녀는``, ``彼は``, ``彼女は``; not ``이는``, which is a thing) quotes the fact but never
  names the person. The referent is the nearest sentence subject before it in the passage
  (``정몽주는 …. 그는 …``), else the document's title (an article is about its title: ``정몽주.pdf``).
  The pronoun may follow an opening adverb or setting (``다만 그가 …``, ``2007년 8월 20일 전당대회에서 그는
  …``) as long as no other subject comes before it. A Korean sentence with no subject at all (``… 지명수배되었다.``,
  ``이후 … 장관에 임용되었다.``: the subject left out, as Korean does when the passage is about one person) is
  read the same way — only for a question that asks the subject (``…한 사람은?``, ``…한 사람의 이름은?``, ``…한
  검사는?``: the asked noun closes it), and only when the sentence names no person of its own.
  A referent that is the question's own topic (``노아는 누구의 명령에 …`` quoted as ``그는 …``) or that the
  question names anywhere, or a question that asks whom or whose (``누구의``, ``누구를``, ``誰の``) rather than
  who (``누가``, ``…한 사람은?``, ``誰が``), is not stated: the referent is not the answer.
- **the one typed candidate** — a date or number question whose sentence holds exactly one answer of that type
  (``answer_types.candidates``: ``20세기``, ``3인``, ``26,000명``, ``16개``) states it; with several, none is
  stated (the quote is shown, no guess is made). Names, places and organisations are not stated this way: their
  detectors (suffixes, Latin capitals) also catch the words around the answer.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from chat.models.reader.answer_types import asked_number, asked_type, candidates, topic_word
from chat.models.reader.evidence import Evidence
from chat.models.reader.question import Question
from chat.models.reader.text import sentence_spans

_PRONOUN = re.compile(r"^\s*[\"“'‘(]?(?:그는|그녀는|그가|그녀가|彼は|彼女は|彼が|彼女が)")
#: a Korean pronoun subject after an opening adverb or setting ("다만 그가", "… 전당대회에서 그는")
_KO_PRONOUN_WORD = re.compile(r"(?:^|\s)[\"“'‘(]?(?:그는|그녀는|그가|그녀가)\s")
#: a word marked as a subject or topic (이/가/은/는 before a space or a comma): the sentence says who or what
_KO_MARKED = re.compile(r"[가-힣A-Za-z0-9)]{1,}(?:은|는|이|가)(?=[\s,])")
#: the asked noun closing a question ("… 법률가는?", "… 사람의 이름은 무엇인가?")
_KO_CLOSING = r"(?:^|\s)(?:(?:사람|인물)의\s*)?(?:{head})(?:은|는|이|가)\s*(?:무엇\S*|누구\S*)?\s*[?？.]?$"
#: the question asks who did it (the pronoun's referent is the answer) …
_ASKS_SUBJECT = re.compile(
    r"누가|누구(?:인가|일까|입니까|였|이었|인지|\s*[?？]|$)|(?:사람|인물)(?:은|는|이)\s*(?:누구\S*)?\s*[?？]?$|"
    r"誰が|誰(?:ですか|でしょうか|か)|(?:人物|人)は(?:誰)?\s*[?？]?$"
)
#: … not whom or whose ("누구의 명령에", "누구를 통해", "誰の"): then the referent is the question's own subject
_ASKS_OTHER = re.compile(r"누구(?:의|를|와|과|에게|한테|로부터|에|랑)|誰(?:の|を|と|に|から)")
_KO_SUBJECT = re.compile(r"^\s*(?:[\d년월일,\s]+)?([가-힣A-Za-z·]{2,12}?)(?:은|는|이|가)\s")
_JA_SUBJECT = re.compile(r"^\s*([\u4e00-\u9fff\u30a0-\u30ffー・A-Za-z]{2,12}?)(?:は|が)")
_NOT_SUBJECT = re.compile(
    r"^(?:그|그녀|이|그것|이것|저|우리|이들|그들|당시|이후|이때|그때|한편|또한|본인|자신|彼|彼女|これ|それ)$"
)
_DIGITS = re.compile(r"[\d一二三四五六七八九十百千万]")
_FILE_CODE = re.compile(r"^[A-Za-z]*\d+[-_ ]+")  # a leading file code ("kq048-", "0012_")
#: a stated candidate; more than this many characters is a clause, not a name or value
MAX_STATED = 30
#: kinds whose detector is precise enough to state its one candidate (names, places and organisations are found by
#: suffixes and Latin capitals, which also catch "NSC" or "경희대" next to the asked person: quoted, not stated)
_STATED_KINDS = ("date", "number")


def document_title(file_name: str) -> str:
    """The title a file name gives (``0012_정몽주.pdf`` → ``정몽주``; a parenthesised qualifier dropped)."""
    stem = PurePosixPath(file_name).stem if file_name else ""
    stem = _FILE_CODE.sub("", stem).replace("_", " ")
    return " ".join(re.sub(r"\([^)]*\)", "", stem).split())


def _subject(sentence: str, language: str) -> str:
    m = (_KO_SUBJECT if language == "ko" else _JA_SUBJECT).match(sentence)
    if m is None or _NOT_SUBJECT.match(m.group(1)):
        return ""
    return m.group(1)


def _opens_with_pronoun(sentence: str, language: str) -> bool:
    if _PRONOUN.match(sentence):
        return True
    if language != "ko":
        return False
    m = _KO_PRONOUN_WORD.search(sentence)
    return m is not None and not _KO_MARKED.search(sentence[: m.start()])


def subjectless(sentence: str) -> bool:
    """A Korean sentence that marks no subject or topic at all (``… 지명수배되었다.``)."""
    return not _KO_MARKED.search(sentence)


def referent(ev: Evidence, language: str, *, omitted: bool = False) -> str:
    """Who the pronoun opening ``ev``'s sentence stands for ('' when it opens with none, or none is found);
    with ``omitted``, a sentence without a subject is read as if it opened with one."""
    text = ev.passage.text
    sentence = text[ev.quote[0] : ev.quote[1]]
    if not _opens_with_pronoun(sentence, language) and not (omitted and language == "ko" and subjectless(sentence)):
        return ""
    before = [(s, e) for s, e in sentence_spans(text) if e <= ev.quote[0]]
    for s, e in reversed(before):
        sentence = text[s:e]
        if _opens_with_pronoun(sentence, language):
            continue  # "그는 …. 그는 …": the same referent, further back
        subject = _subject(" ".join(sentence.split()), language)
        if subject:
            return subject
    title = document_title(ev.passage.file_name)
    return title if title and len(title.split()) <= 2 else ""


def _adnominal(word: str) -> bool:
    """A Korean word that ends as a verb modifying a noun (``임용된``, ``가르친``, ``맡았던``, ``하는``)."""
    last = word[-1] if word else ""
    return "가" <= last <= "힣" and ((ord(last) - 0xAC00) % 28 == 4 or last in "던는")  # a final ㄴ, 던, 는


def _asks_doer(question: str, head: str) -> bool:
    """A Korean question for who did something that closes with the asked noun: a clause modifies it ("…에
    임용된 대한민국의 법률가는?", "… 지명수배된 사람의 이름은?"), not only a possessive ("우왕의 장인은?",
    "… 딸의 이름은?": someone's relation, not who did it)."""
    heads = "|".join(re.escape(h) for h in dict.fromkeys(("이름", head)) if h)
    m = re.search(_KO_CLOSING.replace("{head}", heads), question)
    if m is None:
        return False
    return any(_adnominal(w) for w in re.findall(r"[가-힣]+", question[: m.start()]))


def stated(q: Question, ev: Evidence) -> str:
    """The asked thing for ``compose`` to state before the quote ('' to state nothing)."""
    if q.language not in ("ko", "ja") or ev.kind != "sentence":
        return ""
    kind, head = asked_type(q.text, q.language)
    if kind == "person":
        text = q.text.strip()
        if _ASKS_OTHER.search(text):
            return ""
        by_noun = q.language == "ko" and _asks_doer(text, head)
        if not _ASKS_SUBJECT.search(text) and not by_noun:
            return ""
        topic = topic_word(q.text, q.language)
        # a sentence that names no person of its own may be one whose subject was left out
        who = referent(ev, q.language, omitted=not candidates(ev.quote_text, kind, head, q.text))
        if not who or (topic and (topic in who or who in topic)):
            return ""
        # "유년기의 정도전에게 … 가르친 이는?" quoted as "… 그는 …": a person the question names is not its answer
        return "" if "".join(who.split()) in "".join(text.split()) else who
    if kind not in _STATED_KINDS:
        return ""
    if kind == "number":  # the counted number nearest what is counted ("몇 명" → "128명", not "32대")
        number = asked_number(q.text, ev.quote_text)
        return " ".join(number.split()) if len(number) <= MAX_STATED else ""
    found = [c for c in candidates(ev.quote_text, kind, head, q.text) if len(c) <= MAX_STATED
             and (kind == "date" or _DIGITS.match(c))]  # "한 대(소신료)": native numerals are too ambiguous
    if len(found) != 1:
        return ""
    return " ".join(found[0].split())
