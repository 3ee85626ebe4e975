"""Korean/Japanese questions whose words appear inflected in the passage: particles stripped, stems matched by
prefix, Latin names without the particle glued to them, and a common noun before 의/の not taken for a company.

Every passage here is made up for these tests (no evaluation set).
"""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.morph import WordMatcher, ko_match, ko_stem, ko_words, question_words
from chat.models.reader.question import analyze


def _p(text: str, name: str = "doc.pdf") -> Passage:
    return Passage("S1", text, "d1", name, 1)


def test_particles_are_stripped_and_stems_match_by_prefix() -> None:
    assert ko_stem("한별시는") == "한별시" and ko_stem("책을") == "책" and ko_stem("연구소에서는") == "연구소"
    assert ko_words("김하늘은 1987년 연구소를 세웠다.") == ["김하늘", "1987", "년", "연구소", "세웠다"]
    assert ko_match("설립", "설립되었다") == 1.0
    assert ko_stem("열거주의적인") == "열거주의" and ko_stem("체계적으로") == "체계"  # an adjective's "-적인"
    assert ko_match("태어난", "태어났다") > 0.8  # only the final consonant of the last syllable differs
    assert ko_match("전쟁", "해상전쟁") == 0.8 and ko_match("사람", "사랑") == 0.0
    assert question_words("한별시가 설립된 연도는 언제인가?", "ko", ("언제",)) == ["한별시", "설립된", "연도"]
    assert question_words("東京で開かれた大会の優勝者は誰ですか？", "ja", ("誰",)) == ["東京", "開", "大会", "優勝者"]


def test_a_latin_name_keeps_no_particle_and_a_unit_is_no_name() -> None:
    assert analyze("2005년 8월 QRX의 위원장은 누구인가?").strong_names == ("QRX",)
    assert analyze("목재 다리는 길이 몇m가 한계인가?").strong_names == ()
    assert analyze("테슬라의 2020년 매출액은?").strong_names == ("테슬라",)  # at the head: whose value is asked


def test_a_glued_particle_on_a_latin_name_does_not_decline() -> None:
    text = "2005년 8월 QRX 상임위원장에는 박도윤 장관이 임명되었다. 그는 이듬해 물러났다."
    answer = read("2005년 8월 QRX의 상임위원장은 누구였는가?", [_p(text)])
    assert not answer.declined
    assert "박도윤" in answer.text.splitlines()[0]


def test_a_common_noun_before_ui_inside_the_question_does_not_decline() -> None:
    text = ("한별시는 1987년에 세워진 해안 도시이다. 초대 시장으로 선출된 서가온은 항구를 넓혔다. "
            "항구는 지금도 어선이 드나든다.")
    answer = read("한별시의 초대 시장으로 선출된 인물의 이름은?", [_p(text, "한별시.pdf")])
    assert not answer.declined
    assert "서가온" in answer.text.splitlines()[0]


def test_inflected_korean_words_answer_instead_of_declining() -> None:
    text = ("미르섬 등대는 1921년에 처음 불을 밝혔다. 등대지기 윤새벽이 마흔 해 동안 등대를 지켰다. "
            "섬에는 지금 열두 가구가 산다.")
    answer = read("마흔 해 동안 등대를 지킨 등대지기는 누구인가?", [_p(text, "미르섬.pdf")])
    assert not answer.declined and "확실하지 않습니다" not in answer.text
    assert "윤새벽" in answer.text.splitlines()[0]


def test_japanese_possessive_inside_the_question_is_no_company() -> None:
    text = "2019年に東京で開かれた全国大会では、青木陽菜が優勝した。翌年は中止された。"
    answer = read("東京で開かれた大会の優勝者は誰ですか？", [_p(text, "記録.pdf")])
    assert not answer.declined
    assert "青木陽菜" in answer.text.splitlines()[0]
    missing = read("テスラの2022年の売上高は？", [_p(text, "記録.pdf")])
    assert missing.declined  # a name at the head of the question, in no passage: still declined


def test_function_words_units_and_glued_particles_are_no_question_words() -> None:
    # "그 뜻": a determiner; "있는": an auxiliary; "년", "월경": units; "는", "에서", "의": a Latin word's particle
    assert question_words("zeta는 라틴어 zetum에서 왔는데 그 뜻은 무엇인가?", "ko", ("무엇",)) == [
        "zeta", "라틴어", "zetum", "왔는데", "뜻"]
    assert question_words("2005년 8월경 QRX의 상임위원장은 누구인가?", "ko", ("누구",)) == [
        "2005", "8", "qrx", "상임위원장"]
    assert question_words("홍수설을 내어 놓고 있는 집단은?", "ko", ()) == ["홍수설", "내어", "놓고", "집단"]
    # so a sentence that shares only such words with the question covers none of it
    lines = ["그가 쓴 글에서 abc는 2009년에 나왔다.", "zeta는 '빛'이라는 뜻의 라틴어 zetum에서 왔다."]
    asked = question_words("zeta는 라틴어 zetum에서 왔는데 그 뜻은 무엇인가?", "ko", ("무엇",))
    words = WordMatcher("ko", asked, lines)
    assert words.coverage(lines[0]) == 0.0 and words.coverage(lines[1]) > 0.5
