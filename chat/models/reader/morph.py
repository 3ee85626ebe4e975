"""Morphology-light word matching for Korean and Japanese (pure).

Korean writes words with particles and endings glued on (``이순신은``, ``이순신이``, ``태어났다``/``태어난``);
Japanese writes no spaces at all. Matching a question to a sentence by whole words misses most of these, and
matching by character bigrams alone counts the particle's bigram (``신은`` ≠ ``신이``) as a miss. Here:

- **Korean**: each word loses one particle, copula or ``-적인`` ending (longest first: ``에서는`` …
  ``은/는/이/가/을/를/의``), keeping at least one syllable (two before a longer ending). A question word
  then matches a sentence word by *prefix*: the same stem (1.0), the sentence word extending it
  (``설립`` → ``설립되었다``: 1.0), or a shared prefix of two or more syllables (``태어난`` ~ ``태어났다``:
  the common part's share, plus half a syllable when the next syllables differ only in their final
  consonant). A question word of two or more syllables inside a compound (``전쟁`` in ``한국전쟁``), or
  inside the sentence with its spaces removed (text that lost its spaces), counts 0.8.
- **Japanese**: the question's content runs (kanji, katakana, Latin letters, digits — hiragana is mostly
  particles and endings) split at the particles; a run found in the sentence matches (1.0), otherwise the share
  of its character bigrams found there.

``word_coverage`` weights each question word by its rarity among the passages' lines (IDF, as the bigram
coverage does), so the name that only one paragraph mentions counts more than a word every paragraph has.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

#: particles and copula endings a Korean word may end with, longest first (one is removed)
KO_SUFFIXES = tuple(
    sorted(
        """에서는 에게서 으로서 으로써 으로는 으로도 적으로 적인 이라는 이라고 이라면 이었던 이었다 였던 였다
        이다 이며 이고 이나 이란 라는 라고 란 에서 에게 께서 한테 으로 까지 부터 처럼 보다 마저 조차 밖에 만큼
        이나 에는 에도 와는 과는
        와의 과의 로는 로도 들은 들이 들을 들의 들에 은 는 이 가 을 를 의 에 로 와 과 도 만 나 들""".split(),
        key=len,
        reverse=True,
    )
)
_HANGUL_WORD = re.compile(r"[가-힣]+|[A-Za-z]+|\d+(?:[.,]\d+)*")
_JA_RUN = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf々〆ヵヶ]+|[\u30a0-\u30ffー]+|[A-Za-z]+|\d+(?:[.,]\d+)*")
_HANGUL_BASE = 0xAC00
COMPOUND_MATCH = 0.8
#: a number in the question ("2009년", "15개") weighs this much of a word: it is rare on every page of every
#: document, so its IDF says little about whether a passage is about what the question asks
NUMBER_WEIGHT = 0.5


def ko_stem(word: str) -> str:
    """``word`` without one trailing particle/copula ending (``책을`` → ``책``, ``에서는`` keeps two syllables)."""
    for suffix in KO_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= (1 if len(suffix) == 1 else 2):
            return word[: -len(suffix)]
    return word


def ko_words(text: str) -> list[str]:
    """The stems of ``text``'s words (Hangul runs, Latin words lower-cased, numbers)."""
    return [ko_stem(w) if "가" <= w[0] <= "힣" else w.lower() for w in _HANGUL_WORD.findall(text)]


def _same_onset(a: str, b: str) -> bool:
    """Two Hangul syllables with the same initial consonant and vowel (``났`` / ``난``: only the final differs)."""
    if not ("가" <= a <= "힣" and "가" <= b <= "힣"):
        return False
    return (ord(a) - _HANGUL_BASE) // 28 == (ord(b) - _HANGUL_BASE) // 28


def ko_match(asked: str, offered: str) -> float:
    """How well the question stem ``asked`` matches the sentence word ``offered`` (0..1, see the module doc)."""
    if asked == offered or (len(asked) >= 2 and offered.startswith(asked)):
        return 1.0
    common = 0
    for a, b in zip(asked, offered, strict=False):
        if a != b:
            break
        common += 1
    if common >= 2:
        share = float(common)
        if common < len(asked) and common < len(offered) and _same_onset(asked[common], offered[common]):
            share += 0.5
        return min(1.0, share / len(asked))
    if len(asked) >= 2 and asked in offered:
        return COMPOUND_MATCH
    return 0.0


def ja_runs(text: str) -> list[str]:
    """The content runs of a Japanese text (kanji, katakana, Latin, digits)."""
    return [r.lower() for r in _JA_RUN.findall(text)]


def _bigrams(s: str) -> set[str]:
    return {s[i : i + 2] for i in range(len(s) - 1)} or {s}


def ja_match(asked: str, sentence: str) -> float:
    if asked in sentence:
        return 1.0
    grams = _bigrams(asked)
    return sum(1 for g in grams if g in sentence) / len(grams) * 0.8


class WordMatcher:
    """Question words of one language, matched against sentences (Korean stems / Japanese runs)."""

    def __init__(self, language: str, asked: Iterable[str], lines: Sequence[str]) -> None:
        self.language = language
        self.asked = [a for a in dict.fromkeys(asked) if a]
        units = max(len(lines), 1)
        df = {a: sum(1 for line in lines if self._degree(a, line) >= 0.75) for a in self.asked}
        self.weights = {a: math.log(1.0 + (units + 1) / (1 + df[a])) * (NUMBER_WEIGHT if a.isdigit() else 1.0)
                        for a in self.asked}

    def _degree(self, asked: str, sentence: str, words: Sequence[str] | None = None) -> float:
        if self.language == "ja":
            return ja_match(asked, sentence.lower())
        offered = words if words is not None else ko_words(sentence)
        best = max((ko_match(asked, w) for w in offered), default=0.0)
        if best < COMPOUND_MATCH and len(asked) >= 2 and asked in re.sub(r"\s+", "", sentence):
            best = COMPOUND_MATCH  # a sentence that lost its spaces ("고페르나무로되고")
        return best

    def coverage(self, sentence: str) -> float:
        """IDF-weighted share of the question words the sentence holds (partial matches counted partly)."""
        if not self.asked:
            return 0.0
        words = ko_words(sentence) if self.language != "ja" else None
        total = sum(self.weights.values())
        hit = sum(self.weights[a] * self._degree(a, sentence, words) for a in self.asked)
        return hit / total if total else 0.0


_KO_ENDING = re.compile(
    r"^(?:인가요?|입니까|인지|일까|이었나|였나|이었는가|였는가|있는가|있나요?|되었나|한가|했나요?)$"
)
#: a question ending; what is left of a word ending so, one syllable or none ("대인가", "몇인가"), is no content
_KO_QEND = re.compile(r"(?:인가요?|입니까|인지|일까|는가|나요|니까|인가)$")
#: nouns that frame a Korean question rather than say what it is about ("… 사람의 이름은?")
KO_FRAME = frozenset("이름 사람 인물 것 곳 명칭".split())
#: one-syllable words that carry no content of a question: determiners (그 이 저 한 "a"), bound nouns (수 등 중 때
#: 것 데 바) and the stems of auxiliary verbs (있다 하다 되다 않다)
KO_FUNCTION = frozenset("그 이 저 한 수 등 중 때 것 데 바 있 없 하 할 된 되 될 않".split())


def question_words(text: str, language: str, cues: Iterable[str]) -> list[str]:
    """The content words of a question: stems (Korean) or content runs (Japanese), cue words dropped."""
    cue_list = tuple(cues)
    if language == "ja":
        return [r for r in ja_runs(text) if not any(c in r for c in cue_list)]
    out = []
    for m in _HANGUL_WORD.finditer(text):
        word = m.group()
        if any(c in word for c in cue_list):
            continue
        hangul = "가" <= word[0] <= "힣"
        stem = ko_stem(word) if hangul else word.lower()
        glued = text[m.start() - 1] if hangul and m.start() > 0 else ""
        if stem in KO_FUNCTION or (glued.isdigit() and len(word) <= 2) or (glued.isalpha() and word in KO_SUFFIXES):
            continue  # "그 뜻은", "있는"; a unit after a number ("1989년", "8월경"); a particle after a Latin word
        rest = _KO_QEND.sub("", word)
        if stem not in KO_FRAME and not _KO_ENDING.match(word) and (rest == word or len(rest) >= 2):
            out.append(stem)
    return out
