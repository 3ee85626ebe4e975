"""Korean sentences a text layer glued together ("… 합격했다.이웃들의 도움으로 …"): the period of a final "다."/"요."
followed straight by a Hangul word or an opening bracket still ends the sentence, so a quote is one sentence — not a
closing quote ("… 했다."라고"), a citation in parentheses ("… 진행한다.(Kim 2003)"), a decimal or an enumeration.

Every passage and question here is made up for these tests (no evaluation set).
"""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.text import sentence_spans


def _sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)]


def test_a_glued_korean_sentence_end_splits() -> None:
    text = "1961년 한별대에 합격했다.이웃들의 도움으로 학교를 다녔다."
    assert _sentences(text) == ["1961년 한별대에 합격했다.", "이웃들의 도움으로 학교를 다녔다."]
    text = "가족은 살아 남았다고 한다.〈항해기〉 6장에 보면 배는 3층이었다."
    assert _sentences(text) == ["가족은 살아 남았다고 한다.", "〈항해기〉 6장에 보면 배는 3층이었다."]
    assert _sentences("정말 좋아요.“다음에 또 올게요.”") == ["정말 좋아요.", "“다음에 또 올게요.”"]


def test_quotes_citations_decimals_and_enumerations_stay_inside() -> None:
    assert _sentences('그는 "밥을 먹었다."라고 말했다. 다음 문장이다.') == ['그는 "밥을 먹었다."라고 말했다.',
                                                                 "다음 문장이다."]
    assert _sentences("경기는 계속 진행한다.(Kim 2003, 24쪽). 다음이다.") == ["경기는 계속 진행한다.(Kim 2003, 24쪽).",
                                                                 "다음이다."]
    assert _sentences("높이는 2.43m였다.") == ["높이는 2.43m였다."]
    assert _sentences("가.나.다. 순서로 적는다.") == ["가.나.다.", "순서로 적는다."]


def test_the_answer_quotes_the_glued_sentence_alone() -> None:
    text = ("미르섬 등대는 1890년에 세워졌다.등대지기 서가온은 마흔 해 동안 등대를 지켰다.\n"
            "등대의 불빛은 30km 밖에서도 보인다.")
    answer = read("미르섬 등대가 세워진 해는?", [Passage("S1", text, "d1", "미르섬.pdf", 1)])
    assert not answer.declined
    quoted = [q for _, q in answer.quotes]
    assert quoted and quoted[0] == "미르섬 등대는 1890년에 세워졌다."
