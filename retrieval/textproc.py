"""Keyword-search text processing (pure): CJK-aware terms for BM25.

LanceDB's built-in FTS tokenizers split on whitespace/punctuation, which leaves Korean words with
their particles attached ("대한민국의" never matches "대한민국") and Japanese/Chinese sentences as one
giant token. We pre-tokenise instead: Hangul, kana and Han runs become overlapping character bigrams
(the classic CJK n-gram approach, robust to particles and missing spaces), other words are lower-cased
and kept whole (the FTS index then applies English stemming/stop words to them), numbers lose their
thousands separators so "1,577" matches "1577". Documents and queries go through the same function;
the result is stored in a separate ``text_terms`` column with a whitespace tokenizer on top.
"""

from __future__ import annotations

import re
import unicodedata

_CJK = (
    "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"  # Hangul jamo, compatibility jamo, syllables
    "\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff"  # hiragana, katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # Han
)
_TOKEN = re.compile(rf"[{_CJK}]+|\d+(?:[.,]\d+)*|[^\W\d_{_CJK}]+", re.UNICODE)
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


def cjk_bigrams(run: str) -> list[str]:
    if len(run) <= 1:
        return [run] if run else []
    return [run[i : i + 2] for i in range(len(run) - 1)]


def keyword_terms(text: str) -> list[str]:
    """Terms for BM25: CJK runs → character bigrams, numbers normalised, other words lower-cased."""
    text = unicodedata.normalize("NFKC", text).lower()
    terms: list[str] = []
    for m in _TOKEN.finditer(text):
        tok = m.group(0)
        first = tok[0]
        if first.isdigit():
            terms.append(_THOUSANDS.sub("", tok).rstrip(".,"))
        elif re.match(rf"[{_CJK}]", first):
            terms.extend(cjk_bigrams(tok))
        else:
            terms.append(tok)
    return terms


def keyword_text(text: str) -> str:
    """``keyword_terms`` joined by spaces — the value stored in the FTS column and sent as the query."""
    return " ".join(keyword_terms(text))
