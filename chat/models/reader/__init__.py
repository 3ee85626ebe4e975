"""The embedded reader: answers that state the value from the documents, with its citation — or decline.

``read(question, passages)`` analyses the question (``question``), gathers evidence from the passages
(``evidence``: table cells, key-value fields, sentences), and either composes an answer (``compose``: a direct
first sentence with its citation, then the exact supporting quote; ``compare`` for two line items) or declines
(``decline``: the documents don't say, the closest passage named, nothing cited). A two-part question gets both
parts answered. Pure functions, no I/O; ``Answer.quotes`` gives each citation's exact quoted text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from chat.models.reader.compare import compare
from chat.models.reader.compose import NOTE, compose
from chat.models.reader.decline import SURE_AT, decline, missing_names, should_decline
from chat.models.reader.evidence import Evidence, gather
from chat.models.reader.names import names_someone
from chat.models.reader.passage import Answer, Passage
from chat.models.reader.question import Question, analyze

__all__ = ["Answer", "Passage", "Question", "analyze", "read"]

SUPPORT_RELATIVE = 0.85


def _supporting(best: Evidence, ranked: list[Evidence]) -> list[Evidence]:
    """At most one more sentence that scores close to the best, from another place."""
    if best.kind != "sentence":
        return []
    for ev in ranked[1:4]:
        if ev.kind == "sentence" and ev.score >= best.score * SUPPORT_RELATIVE and ev.quote_text != best.quote_text:
            if ev.passage.ref != best.passage.ref or abs(ev.quote[0] - best.quote[0]) > 0:
                return [ev]
    return []


def _answer_one(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]], bool, float]:
    if q.kind == "comparison" and len(q.periods) < 2 and not missing_names(q, passages):
        compared = compare(q, passages)
        if compared is not None:
            return compared[0], compared[1], False, 1.0
    ranked = gather(q, passages)
    best = ranked[0] if ranked else None
    if should_decline(q, best, passages):
        return decline(q, best, passages), [], True, best.score if best else 0.0
    assert best is not None
    text, quotes = compose(q, best, _supporting(best, ranked), sure=best.score >= SURE_AT)
    return text, quotes, False, best.score


_UNNAMED: dict[str, str] = {
    "en": "(The passages don't name {names}; what they say comes from {files}.)",
    "ko": "(검색된 문서에는 {names}의 이름이 나오지 않습니다. 위 내용은 {files}에서 나왔습니다.)",
    "ja": "（検索された資料には{names}の名前が出てきません。上記は{files}の記載です。）",
    "zh": "（检索到的文档中没有出现{names}；以上内容来自{files}。）",
}


def _unnamed(q: Question, passages: Sequence[Passage]) -> tuple[Question, list[str]]:
    """Companies the question names that no passage mentions, when the passages name no one at all.

    Then the absence proves nothing (a table chunk names no company): they are dropped from the decline check
    and the answer says so instead.
    """
    missing = missing_names(q, passages)
    if not missing or names_someone(passages):
        return q, []
    keep = tuple(n for n in q.strong_names if n not in missing)
    parts = tuple(replace(p, strong_names=tuple(n for n in p.strong_names if n not in missing)) for p in q.parts)
    return replace(q, strong_names=keep, parts=parts), missing


def read(question: str, passages: Sequence[Passage]) -> Answer:
    """Answer ``question`` from ``passages`` (see the module docstring)."""
    q, unnamed = _unnamed(analyze(question), passages)
    parts = q.parts or (q,)
    texts: list[str] = []
    quotes: list[tuple[str, str]] = []
    declined: list[bool] = []
    scores: list[float] = []
    for part in parts:
        text, part_quotes, part_declined, score = _answer_one(part, passages)
        texts.append(text)
        quotes.extend(part_quotes)
        declined.append(part_declined)
        scores.append(score)
    if unnamed and not all(declined):
        files = ", ".join(dict.fromkeys(p.file_name or p.document_id for p in passages))
        texts.append(_UNNAMED[q.language].format(names=", ".join(unnamed), files=files))
    texts.append(NOTE[q.language])
    return Answer("\n\n".join(texts), tuple(dict.fromkeys(quotes)), all(declined), min(scores), q.language)
