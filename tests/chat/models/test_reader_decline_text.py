"""The Korean decline names what was asked when that is a noun phrase, and quotes the question when it is a clause
(issue 12: "문서에서 1규빗 미터법 환산하면을 찾을 수 없습니다" is not Korean). Made-up passages."""

from __future__ import annotations

from chat.models.reader import Passage, read

_FRUIT = [Passage("S1", "사과는 빨갛다. 바나나는 노랗다.", "d1", "fruit.pdf", 1)]


def _first_line(question: str) -> str:
    answer = read(question, _FRUIT)
    assert answer.declined and answer.quotes == ()
    return answer.text.splitlines()[0]


def test_a_clause_focus_quotes_the_question() -> None:
    line = _first_line("1규빗을 미터법으로 환산하면 얼마인가?")
    assert line.startswith("문서에서 “1규빗을 미터법으로 환산하면 얼마인가?”의 답을 찾을 수 없습니다.")
    assert "환산하면을" not in line
    assert "“체스보드의 열을 이르는 말은?”의 답을" in _first_line("체스보드의 열을 이르는 말은?")


def test_a_noun_phrase_focus_is_named() -> None:
    assert _first_line("보증 기간은 얼마인가?").startswith("문서에서 보증 기간을 찾을 수 없습니다.")
    assert _first_line("2019년 영업이익은 얼마인가?").startswith("문서에서 2019년 영업이익을 찾을 수 없습니다.")
