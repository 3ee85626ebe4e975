"""Multilingual sentence splitting, language detection and index terms for the embedded model (pure).

Korean, Japanese, Chinese and Latin-script text: sentences end at ``. ! ?`` followed by
whitespace, at ``。！？`` (no space needed) and at line breaks. Terms are lower-cased Latin
words and numbers (stop words dropped, a plural ``s`` stripped) plus character bigrams of
Hangul/Kana/Han runs — CJK text has no reliable word boundaries (Korean particles attach
to the word), and bigrams match across them. The reader (``chat.models.reader``) scores evidence with
these terms; ``LocalModel`` summarises with ``split_sentences``.
"""

from __future__ import annotations

import re
from typing import Literal

Language = Literal["ko", "ja", "zh", "en"]

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+|(?<=[。！？])\s*")
_BLANK_LINES = re.compile(r"\n[ \t]*\n")
_BULLET = re.compile(r"(?:[-*•·▪●◦‣]|\(?\d{1,3}[.)]|[a-z][.)])\s")
_LINE_END = re.compile(r"[.!?:;。！？：；\"')\]]$")
#: a line shorter than this that does not end a sentence is taken for a heading, not a wrapped line
HEADING_CHARS = 30
_WORD = re.compile(r"[0-9]+(?:[.,][0-9]+)*%?|[^\W\d_]+", re.UNICODE)
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")

_STOP = frozenset(
    """a an and are as at be been but by can could did do does for from had has have how i if in into is it its
    me my of on or our so than that the their them then there these they this to was we were what when where which
    who whom why will with would you your about please tell show give find any all much many""".split()
)
# Question words that carry no content (bigrams of these would otherwise count).
_CJK_STOP = frozenset(
    [
        "무엇",
        "무슨",
        "어떤",
        "어떻",
        "얼마",
        "언제",
        "어디",
        "누가",
        "왜",
        "인가",
        "인가요",
        "나요",
        "까요",
        "입니",
        "니까",
        "있나",
        "습니",
        "해주",
        "마인",
        "가요",
        "했나",
        "됐나",
        "되나",
        "나요",
        "려줘",
        "해줘",
        "설명",
        "주세",
        "세요",
        "알려",
        "려주",
        "ですか",
        "すか",
        "何で",
        "どの",
        "どう",
        "いつ",
        "どこ",
        "教え",
        "えて",
        "てく",
        "くだ",
        "ださ",
        "さい",
    ]
)
MAX_SENTENCE_CHARS = 400
_ABBREVIATIONS = frozenset(
    "mr. mrs. ms. dr. prof. st. vs. etc. e.g. i.e. no. fig. p. pp. vol. inc. ltd. co. corp. jan. feb. mar. apr. "
    "jun. jul. aug. sep. sept. oct. nov. dec. approx. dept. est.".split()
)


def detect_language(text: str) -> Language:
    counts = {
        "ko": len(_HANGUL.findall(text)),
        "ja": len(_KANA.findall(text)),
        "zh": len(_HAN.findall(text)),
        "en": len(_LATIN.findall(text)),
    }
    if counts["ko"] and counts["ko"] * 2 >= counts["en"]:
        return "ko"
    if counts["ja"]:
        return "ja"
    if counts["zh"] and counts["zh"] * 2 >= counts["en"]:
        return "zh"
    return "en"


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` (whitespace collapsed; over-long ones clipped at a word boundary)."""
    pieces: list[str] = []
    for raw in (part for unit in _units(text) for part in _SENTENCE_END.split(unit)):
        piece = " ".join(raw.split())
        if pieces and piece and _continues(pieces[-1], piece):
            pieces[-1] = pieces[-1] + " " + piece
        elif piece:
            pieces.append(piece)
    out: list[str] = []
    for sentence in pieces:
        if len(sentence) < 2:
            continue
        if len(sentence) > MAX_SENTENCE_CHARS:
            cut = sentence.rfind(" ", 0, MAX_SENTENCE_CHARS)
            sentence = sentence[: cut if cut > MAX_SENTENCE_CHARS // 2 else MAX_SENTENCE_CHARS] + "…"
        out.append(sentence)
    return out


def _units(text: str) -> list[str]:
    """Paragraphs with their wrapped lines joined: PDF text layers break lines mid-sentence.

    A line break ends a unit only after sentence punctuation, before a bullet or numbered item, or after a short
    heading-like line; otherwise the next line continues the sentence (no space between CJK characters, a
    hyphenated word is re-joined).
    """
    units: list[str] = []
    for paragraph in _BLANK_LINES.split(text):
        current = ""
        for line in (ln.strip() for ln in paragraph.split("\n")):
            if not line:
                continue
            ends_unit = bool(_LINE_END.search(current)) or _width(current) < HEADING_CHARS
            if not current or ends_unit or _BULLET.match(line):
                if current:
                    units.append(current)
                current = line
            elif current.endswith("-") and line[:1].islower():
                current = current[:-1] + line
            elif _CJK_RUN.fullmatch(current[-1]) and _CJK_RUN.fullmatch(line[0]):
                current += line
            else:
                current += " " + line
        if current:
            units.append(current)
    return units


def _width(text: str) -> int:
    """Display width: CJK characters count double (a wrapped CJK line holds half as many characters)."""
    return len(text) + sum(len(run) for run in _CJK_RUN.findall(text))


def _continues(previous: str, piece: str) -> bool:
    """``piece`` continues ``previous``: the period was an abbreviation's (``U.S.``, ``Dec.``, ``No.``) or a dotted
    date's (``2020.3.30.``, ``2020. 3. 30.``)."""
    if _ends_with_abbreviation(previous):
        return True
    if re.search(r"(?:^|\s)\d{4}\.(?:\s?\d{1,2}\.){0,1}$", previous) and re.match(r"\d", piece):
        return True  # 2020. 3. → 30.
    return bool(re.search(r"\d{4}\.\s?\d{1,2}\.\s?\d{1,2}\.$", previous)) and not re.match(r"[A-Z]", piece)


def _ends_with_abbreviation(piece: str) -> bool:
    last = piece.rsplit(" ", 1)[-1].lower().lstrip("(\"“")
    return last in _ABBREVIATIONS or bool(re.fullmatch(r"(?:[a-z]\.)+", last))


def terms(text: str) -> list[str]:
    """Index terms: Latin words/numbers and CJK character bigrams."""
    out: list[str] = []
    lowered = text.lower()
    for word in _WORD.findall(lowered):
        if _CJK_RUN.fullmatch(word):
            continue
        if word in _STOP or (len(word) < 2 and not word.isdigit()):
            continue
        if len(word) > 8 and word.endswith("ality"):
            word = word[:-5] + "al"  # "cyclicality" is "cyclical", "seasonality" "seasonal"
        elif len(word) > 4 and word.endswith("ies"):
            word = word[:-3] + "y"  # "liabilities" is "liability", "activities" "activity"
        elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.append(word)
    for run in _CJK_RUN.findall(lowered):
        if len(run) == 1:
            out.append(run)
            continue
        for i in range(len(run) - 1):
            gram = run[i : i + 2]
            if gram not in _CJK_STOP:
                out.append(gram)
    return out
