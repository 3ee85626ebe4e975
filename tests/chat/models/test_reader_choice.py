"""Which sentence a Korean answer leads with (``reader.choice``): the one that holds the answer, not the one that
restates the question's background; the choice never changes whether the reader answers or declines.

Every passage and question here is made up for these tests (no evaluation set).
"""

from __future__ import annotations

from chat.models.reader import Passage, analyze, read
from chat.models.reader.choice import choose
from chat.models.reader.evidence import gather

_TEXT = ("미르섬은 한별시 남쪽의 작은 섬이다.\n"
         "1921년 미르섬 등대 공사는 한별시의 지원으로 시작되었다.\n"
         "공사를 맡은 건축가는 윤새벽이었다.\n"
         "등대는 이듬해 봄에 완공되었다.")
_QUESTION = "1921년 미르섬 등대 공사를 맡은 건축가는?"


def _passages() -> list[Passage]:
    return [Passage("S1", _TEXT, "d1", "미르섬.pdf", 1)]


def test_the_sentence_with_the_asked_noun_and_predicate_leads_over_the_restated_background() -> None:
    q = analyze(_QUESTION)
    ranked = gather(q, _passages())
    assert ranked[0].quote_text.startswith("1921년 미르섬 등대 공사는")  # the background covers the most words
    assert choose(q, ranked).quote_text == "공사를 맡은 건축가는 윤새벽이었다."
    answer = read(_QUESTION, _passages())
    assert not answer.declined
    assert "윤새벽" in answer.text.splitlines()[0]
    assert answer.quotes[0] == ("S1", "공사를 맡은 건축가는 윤새벽이었다.")
    assert answer.confidence == ranked[0].score  # the confidence (and the decline) read the best coverage


def test_english_questions_and_a_single_sentence_keep_the_best_evidence() -> None:
    text = "The lighthouse on Mir Island was finished in 1922.\nIts builder was Yun Saebyeok."
    q = analyze("When was the lighthouse on Mir Island finished?")
    ranked = gather(q, [Passage("S1", text, "d1", "mir.pdf", 1)])
    assert choose(q, ranked) is ranked[0]
    q = analyze(_QUESTION)
    one = gather(q, [Passage("S1", "공사를 맡은 건축가는 윤새벽이었다.", "d1", "미르섬.pdf", 1)])
    assert choose(q, one) is one[0]


def test_a_question_the_passages_do_not_answer_is_still_declined() -> None:
    answer = read("가온섬 다리가 완공된 해는?", _passages())
    assert answer.declined
    assert answer.quotes == ()


def test_a_count_in_the_asked_unit_leads_over_a_sentence_that_restates_the_subject() -> None:
    """"몇 층" asked: the sentence with "3층" leads over one that restates the subject and its verb (the ``counted``
    feature; before, the restating sentence led)."""
    q = analyze("방주는 총 몇층으로 되어 있었는가?")
    ranked = gather(q, [Passage("S1", "방주는 대부분 나무로 되어 있었다. 배 안은 3층이었다.", "d", "a.pdf", 1)])
    assert "3층" in choose(q, ranked).quote_text
