"""The first sentence of a Korean/Japanese sentence answer names the asked thing (issue 12): the person a
"그는"/"彼は" sentence is about, the one date or counted number the sentence holds. Made-up articles."""

from __future__ import annotations

from chat.evaluation.scoring import first_sentence
from chat.models.reader import Passage, read
from chat.models.reader.answer_types import asked_number
from chat.models.reader.evidence import Evidence
from chat.models.reader.question import analyze
from chat.models.reader.referents import document_title, stated

_KO = ("한별 마을의 역사\n"
       "박하늘은 한별 마을에서 태어난 건축가이다.\n"
       "그는 마을 회관을 강가에 지어야 한다고 주장했고 회관은 그곳에 세워졌다.\n")


def _first(question: str, text: str, file_name: str = "doc.pdf") -> str:
    answer = read(question, [Passage("S1", text, "d1", file_name, 1)])
    assert not answer.declined
    return first_sentence(answer.text)


def test_who_question_answered_by_a_he_sentence_names_the_person_before_it() -> None:
    first = _first("마을 회관을 강가에 지어야 한다고 주장한 사람은 누구인가?", _KO)
    assert "박하늘" in first and first.index("박하늘") < first.index("그는")


def test_the_article_title_is_the_referent_when_no_subject_comes_before() -> None:
    text = "그녀는 1950년에 첫 시집을 내고 문학상을 받았다.\n시집은 널리 읽혔다.\n"
    first = _first("첫 시집을 내고 문학상을 받은 사람은 누구인가?", text, "0007_최다온.pdf")
    assert "최다온" in first


def test_whose_question_does_not_state_the_pronoun_referent() -> None:
    text = ("박하늘은 한별 마을에서 태어난 건축가이다.\n"
            "그는 스승 김바다의 권유에 따라 마을 회관을 강가에 지었다.\n")
    first = _first("박하늘은 누구의 권유에 따라 마을 회관을 강가에 지었는가?", text)
    assert "박하늘입니다" not in first


def test_japanese_kare_wa_names_the_person() -> None:
    text = "山田太郎は北町で生まれた画家である。彼は駅前に美術館を建てるべきだと主張した。美術館は翌年に開館した。"
    first = _first("駅前に美術館を建てるべきだと主張した人物は誰ですか？", text)
    assert "山田太郎" in first and first.index("山田太郎") < first.index("彼は")


def _stated(question: str, sentence: str) -> str:
    text = f"한별 마을 회관은 강가에 있다.\n{sentence}\n"
    start = text.index(sentence)
    return stated(analyze(question), Evidence("sentence", Passage("S1", text), 0.8, (start, start + len(sentence))))


def test_a_number_question_states_the_one_counted_number() -> None:
    assert _stated("회관에 있는 방은 몇 개인가?", "회관에는 주민들이 쓰는 방이 모두 12개 있다.") == "12개"


def test_of_two_numbers_the_one_next_to_what_is_counted_is_stated() -> None:
    """"방은 몇 개" over "방이 12개, 창고가 3개": the 12 next to 방; asked for 창고, the 3 — and nothing when the
    sentence does not say which number counts what is asked."""
    assert _stated("회관에 있는 방은 몇 개인가?", "회관에는 방이 12개, 창고가 3개 있다.") == "12개"
    assert _stated("회관에 있는 창고는 몇 개인가?", "회관에는 방이 12개, 창고가 3개 있다.") == "3개"
    assert _stated("회관에 있는 방은 몇 개인가?", "마을에는 12개, 이웃 마을에는 3개가 있다.") == ""


def test_a_number_of_another_counter_or_a_native_numeral_state_nothing() -> None:
    """"몇 명" over a sentence that counts 대 and a bare footnote mark: no number of people is stated."""
    assert _stated("축제에 참가한 사람은 몇 명인가?", "축제에는 자동차 32대가 참가했다 5.") == ""
    assert _stated("회관에 있는 방은 몇 개인가?", "주민들은 한 대학의 도움을 받아 방을 꾸몄다.") == ""


def test_the_number_with_the_asked_counter_is_stated() -> None:
    """"몇 명" → the number of 명, not the 대 before it; "몇 배" → the 배; "얼마" → the amount next to what is
    measured ("벌금 300만 원", not the 2년 or the 40시간)."""
    fire = "소방차 32대와 소방관 128명이 회관으로 출동했다."
    assert _stated("회관 화재에 출동한 소방관은 몇 명인가?", fire) == "128명"
    assert _stated("회관 화재에 출동한 소방차는 몇 대인가?", fire) == "32대"
    assert _stated("회관의 난방비는 몇 배로 늘었는가?", "2년 사이 회관의 난방비는 3배로 늘었다.") == "3배"
    assert asked_number("大会に参加した選手は何人か？", "大会には車30台と選手120人が参加した。") == "120人"
    assert asked_number("大会に参加した車は何台か？", "大会には車30台と選手120人が参加した。") == "30台"
    assert _stated("회관 관리인이 선고받은 벌금은 얼마인가?",
                   "관리인은 사회봉사 40시간과 함께 벌금 300만 원을 선고받았다.") == "300만 원"
    assert _stated("회관에 있는 방은 몇 개인가?", "주민들은 한 대학의 도움을 받아 방을 꾸몄다.") == ""


def test_document_title_drops_a_file_code_and_qualifier() -> None:
    assert document_title("kq048-정도전.pdf") == "정도전"
    assert document_title("0012_마리_퀴리_(과학자).pdf") == "마리 퀴리"


def test_a_pronoun_after_an_opening_adverb_or_setting_names_the_person() -> None:
    text = ("박하늘은 한별 마을에서 태어난 건축가이다.\n"
            "다만 그가 마을 회관의 설계를 맡았다는 기록은 1990년 신문에만 남아 있다.\n")
    first = _first("마을 회관의 설계를 맡았던 사람은?", text)
    assert "박하늘" in first and first.index("박하늘") < first.index("그가")


def test_a_sentence_that_leaves_its_subject_out_names_the_passage_subject() -> None:
    text = ("박하늘은 한별 마을에서 태어난 건축가이다.\n"
            "1990년 마을 회관을 강가에 짓고 이듬해 도서관을 세웠다.\n")
    first = _first("1990년 마을 회관을 강가에 지은 사람의 이름은?", text)
    assert "박하늘입니다" in first
    first = _first("1990년 마을 회관을 강가에 지은 건축가는?", text, "0007_박하늘.pdf")
    assert "박하늘입니다" in first


def test_a_subject_the_sentence_marks_or_a_relation_asked_states_no_referent() -> None:
    text = "박하늘은 한별 마을에서 태어난 건축가이다.\n회관은 1990년 강가에 세워졌다.\n"
    assert _stated_in("회관을 강가에 세운 사람은?", text, "회관은 1990년 강가에 세워졌다.") == ""
    text = "박하늘은 한별 마을에서 태어난 건축가이다.\n이어 장인인 김바다와 함께 회관을 지었다.\n"
    assert _stated_in("박하늘의 장인은?", text, "이어 장인인 김바다와 함께 회관을 지었다.") == ""


def test_a_person_the_question_names_is_not_stated_as_its_answer() -> None:
    said = "그는 스승 김바다에게서 설계를 배웠다."
    text = f"박하늘은 한별 마을에서 태어난 건축가이다.\n{said}\n"
    assert _stated_in("박하늘에게 설계를 가르친 사람은 누구인가?", text, said) == ""
    assert _stated_in("스승에게서 설계를 배운 사람은 누구인가?", text, said) == "박하늘"


def _stated_in(question: str, text: str, sentence: str) -> str:
    start = text.index(sentence)
    return stated(analyze(question), Evidence("sentence", Passage("S1", text), 0.8, (start, start + len(sentence))))
