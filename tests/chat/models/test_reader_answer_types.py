"""The asked answer type (Korean/Japanese/English wh-forms and head nouns), typed candidates in sentences, the
typed sentence ranking, and the opening-topic decline.

Every passage and question here is made up for these tests (no evaluation set).
"""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.answer_types import asked_type, candidates, neighbour_context, topic_missing, topic_word


def _p(text: str, name: str = "doc.pdf", ref: str = "S1") -> Passage:
    return Passage(ref, text, "d1", name, 1)


def test_korean_wh_forms_and_head_nouns_give_the_type() -> None:
    assert asked_type("한별시가 세워진 해는?", "ko") == ("date", "해")
    assert asked_type("미르섬 등대는 언제 처음 불을 밝혔는가?", "ko")[0] == "date"
    assert asked_type("등대를 지킨 사람은 몇 명인가?", "ko")[0] == "number"
    assert asked_type("종분화는 몇 년 이내에 이루어졌어야 하는가?", "ko")[0] == "number"  # a duration, not a date
    assert asked_type("마흔 해 동안 등대를 지킨 등대지기는 누구인가?", "ko")[0] == "person"
    assert asked_type("서가온이 태어난 곳은 어디인가?", "ko") == ("place", "곳")
    assert asked_type("한별시의 항구를 관리하는 단체는?", "ko") == ("org", "단체")
    assert asked_type("윤새벽이 쓴 책의 이름은?", "ko") == ("title", "책")  # "X의 이름": X says what kind
    assert asked_type("등대지기의 아들은?", "ko") == ("person", "아들")  # the particle stripped once, not twice
    assert asked_type("선체를 만든 나무는 무엇인가?", "ko") == ("term", "나무")


def test_japanese_and_english_wh_forms() -> None:
    assert asked_type("灯台が完成したのは何年ですか？", "ja")[0] == "date"
    assert asked_type("島には何人が住んでいますか？", "ja")[0] == "number"
    assert asked_type("灯台を守ったのは誰ですか？", "ja")[0] == "person"
    assert asked_type("When was the lighthouse built?", "en")[0] == "date"
    assert asked_type("Who kept the lighthouse?", "en")[0] == "person"
    assert asked_type("Which company built the pier?", "en")[0] == "org"


def test_candidates_of_the_asked_type_leave_out_what_the_question_says() -> None:
    q = "미르섬 등대가 세워진 해는?"
    assert candidates("미르섬 등대는 1921년에 세워졌다.", "date", "해", q) == ["1921년"]
    assert candidates("미르섬 등대는 오래되었다.", "date", "해", q) == []
    opened = "1921년에 등대가 불을 밝힌 날은?"
    assert candidates("1921년 3월 2일 등대가 불을 밝혔다.", "date", "", opened) == ["3월 2일"]
    assert "12가구" in candidates("섬에는 지금 12가구가 산다.", "number", "수", "섬에 사는 가구 수는?")
    assert "두 명" in candidates("등대지기 두 명이 교대로 일했다.", "number", "", "등대지기는 몇 명이었나?")
    assert candidates("그는 《바다의 노래》를 썼다.", "title", "책", "윤새벽이 쓴 책은?") == ["바다의 노래"]
    assert "고페르나무" in candidates("선체는 고페르나무로 되었다.", "term", "나무", "선체를 만든 나무는?")
    assert "박도윤" in candidates("상임위원장에는 박도윤 장관이 임명되었다.", "person", "", "상임위원장은 누구인가?")


def test_a_sentence_without_the_asked_number_ranks_below_one_with_it() -> None:
    """"… 기록은?" asks for a number: the sentence that only repeats the question's words loses to the one with it."""
    text = ("윤새벽은 미르섬 높이뛰기 대회 기록을 늘 자랑으로 여겼다.\n"
            "그해 미르섬 높이뛰기 대회에서 윤새벽은 2.05m를 넘었다.\n")
    answer = read("윤새벽의 미르섬 높이뛰기 대회 기록은?", [_p(text, "미르섬.pdf")])
    assert not answer.declined
    assert "2.05m" in answer.text.splitlines()[0]


def test_the_typed_answer_in_the_next_sentence_borrows_its_neighbours_words() -> None:
    rows = [(0, 10, 0.8, False, False), (11, 20, 0.3, False, True), (21, 30, 0.1, False, False)]
    out = neighbour_context(rows)
    assert out[1][2] > 0.3 and out[0] == rows[0] and out[2] == rows[2]


def test_the_opening_topic_absent_from_every_passage_declines() -> None:
    assert topic_word("김하늘이 세운 연구소의 이름은?", "ko") == "김하늘"
    assert topic_word("1987년 김하늘이 세운 연구소는?", "ko") == "김하늘"  # after a leading date
    assert topic_word("그는 누구인가?", "ko") == ""
    assert topic_word("灯台守は誰ですか？", "ja") == "灯台守"
    assert topic_word("영수증의 합계는?", "ko") == ""  # which document, not what it is about
    assert topic_word("날짜는?", "ko") == "" and topic_word("日付は？", "ja") == ""  # the topic alone is the ask
    assert topic_missing("合計金額はいくらですか？", "ja", ["合計 ¥1,200"]) == ""  # half a compound is named
    text = "윤새벽이 졸업한 학교의 이름은 한별고등학교이다. 윤새벽은 마흔 해 동안 등대를 지켰다."
    answer = read("서가온이 졸업한 학교의 이름은?", [_p(text, "미르섬.pdf")])  # every word but whose school
    assert answer.declined and "서가온" in answer.text and answer.quotes == ()
    kept = read("윤새벽이 졸업한 학교의 이름은?", [_p(text, "미르섬.pdf")])
    assert not kept.declined and "한별고등학교" in kept.text.splitlines()[0]


def test_the_same_chunk_from_two_searches_is_one_passage_not_two_rival_sources() -> None:
    text = "Acme Corporation annual report 2025.\nThe total revenue of Acme was 42 million dollars in 2025."
    twice = [Passage("S1", text, "d1", "acme.pdf", 1), Passage("S2", text, "d1", "acme.pdf", 1)]
    answer = read("What was the total revenue of Acme in 2025?", twice)
    assert not answer.declined and "42 million" in answer.text and "[S1]" in answer.text


def test_a_korean_topic_half_counts_only_where_a_word_starts_with_it() -> None:
    assert topic_missing("라라랜드가 벌어들인 수익은?", "ko", ["아일랜드 더블린에서 열린 공연"]) == "라라랜드"
    assert topic_missing("라라랜드가 벌어들인 수익은?", "ko", ["라라 랜드 는 흥행에 성공했다"]) == ""
    assert topic_missing("서울특별시청의 주소는?", "ko", ["서울특별 행사가 열렸다"]) == ""


def test_a_topic_before_gwa_ui_drops_both_particles() -> None:
    assert topic_word("북한과의 교전 당시 국무총리는 누구인가?", "ko") == "북한"
    assert topic_word("한별시와의 협정은 언제 맺어졌나?", "ko") == "한별시"


def test_words_that_only_look_like_wh_words_do_not_type_the_question() -> None:
    # "언제나" is "always", not "when"; "총 몇 일" counts days (a duration); "약자" is an abbreviation, no person
    assert asked_type("등대지기가 언제나 지녀야 하는 것은?", "ko") == ("term", "것")
    assert asked_type("배가 바다에서 버틴 날짜는 총 몇일인가?", "ko")[0] == "number"
    assert asked_type("HSL은 무엇의 약자인가?", "ko")[0] == "term"
    assert asked_type("등대는 몇 일에 불을 밝혔나?", "ko")[0] == "date"  # a day of the month stays a date
    assert asked_type("언제든 볼 수 있는 것은?", "ko")[0] == "term"


def test_a_native_numeral_is_a_word_of_its_own_not_the_end_of_a_verb() -> None:
    """"포함한 대부분": the "한" ending "포함한" and the "대" of "대부분" are no "한 대" (one vehicle) — before, the
    sentence counted as holding a number; "한 번", "두 명" still do."""
    question = "노아의 방주는 총 몇층으로 되어 있었는가?"
    sentence = "대부분의 기독교(개신교를 포함한 대부분)에서는 상징적 의미로 받아들여진다."
    assert candidates(sentence, "number", "", question) == []
    assert candidates("그는 두 명의 동료와 한 번 더 시도했다.", "number", "", "몇 번 시도했는가?") == ["두 명", "한 번"]
