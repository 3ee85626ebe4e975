"""A line that ends at an initial or an abbreviation inside a Latin name continues the sentence (issue 12):
a text-layer PDF may break its line right after "John A." or "J. R. R." — the quote must not start at
"Smith)의 …" nor end at "R.". Made-up Korean/Japanese text."""

from __future__ import annotations

from chat.models.reader.text import sentence_spans


def _sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)]


def test_a_line_ending_at_a_middle_initial_continues() -> None:
    text = ("철도는 초대 수상인 존 스미스(John A.\nSmith)의 정당이 시작한 사업이었다.\n"
            "공사는 십 년 뒤에 끝났다.")
    assert _sentences(text) == ["철도는 초대 수상인 존 스미스(John A.\nSmith)의 정당이 시작한 사업이었다.",
                                "공사는 십 년 뒤에 끝났다."]


def test_initials_each_on_their_own_line_join_the_name() -> None:
    text = "J.\nR.\nR.\n톨키엔은 영국의 작가로 소설을 여러 권 썼다.\n그는 교수이기도 했다."
    assert _sentences(text)[0] == "J.\nR.\nR.\n톨키엔은 영국의 작가로 소설을 여러 권 썼다."


def test_a_country_abbreviation_at_a_line_end_continues() -> None:
    text = "회의는 U.S.\n정부가 주최하였고 서울에서 열렸다.\n次の文です。"
    assert _sentences(text)[0] == "회의는 U.S.\n정부가 주최하였고 서울에서 열렸다."


def test_a_korean_sentence_end_still_ends_the_line() -> None:
    text = "그는 회사를 세웠다.\n회사는 크게 자랐다.\nA.\n목록의 다음 줄."
    got = _sentences(text)
    assert got[:2] == ["그는 회사를 세웠다.", "회사는 크게 자랐다."]


def test_an_english_heading_with_a_roman_numeral_still_ends() -> None:
    text = "PART I.\nFinancial statements of the company are below and were reviewed by the board.\n"
    assert _sentences(text)[0] == "PART I."
