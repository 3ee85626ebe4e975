"""A Korean/Japanese sentence read in its document's context: the title its file name gives (``Passage.title``)
is part of what every sentence of the document says — an article's sentences speak of its subject without
naming it ("배 안은 3층으로 …" in an article titled "미르호").

Every passage and question here is made up for these tests (no evaluation set).
"""

from __future__ import annotations

from chat.models.reader import Passage, read

#: a later chunk of an article about the ship 미르호: no sentence names it
_TEXT = ("길이는 약 40m이고 폭은 약 9m였다.\n"
         "배 안은 3층으로 만들어져 있었고, 맨 아래층에는 화물을 실었다.\n"
         "선체는 참나무로 되고 바깥에는 송진을 칠하여 굳혔다고 기록하고 있다.")


def _passages(file_name: str) -> list[Passage]:
    return [Passage("S1", _TEXT, "d1", file_name, 2)]


def test_the_title_is_the_file_name_without_its_extension_and_underscores() -> None:
    assert Passage("S1", "", file_name="미르호_해설.pdf").title() == "미르호 해설"
    assert Passage("S1", "", file_name="report.v2.docx").title() == "report.v2"
    assert Passage("S1", "").title() == ""


def test_a_sentence_about_the_documents_subject_answers_though_it_does_not_name_it() -> None:
    """Before, the sentence covered too little of the question (no "미르호") and the reader declined."""
    for name in ("미르호.pdf", "미르호_해설.pdf"):
        answer = read("미르호는 총 몇층으로 되어 있었는가?", _passages(name))
        assert not answer.declined, name
        assert "3층" in answer.text.splitlines()[0]
        assert answer.quotes[0][0] == "S1"


def test_the_title_makes_the_reader_sure_of_a_sentence_that_answers_its_subject() -> None:
    """Before: "not sure" (0.40) for the sentence that says what the hull was made of."""
    answer = read("미르호의 선체는 무엇으로 만들었나?", _passages("미르호.pdf"))
    assert answer.why == "sure"
    assert "참나무" in answer.text.splitlines()[0]


def test_a_document_titled_otherwise_still_declines_and_another_subject_too() -> None:
    assert read("미르호는 총 몇층으로 되어 있었는가?", _passages("자료_03.pdf")).declined
    assert read("가온호의 돛은 몇 개였는가?", _passages("미르호.pdf")).declined


def test_a_japanese_sentence_reads_its_documents_title_too() -> None:
    """Before: declined (0.31) and "not sure" (0.42)."""
    text = ("全長は約40メートル、幅は約9メートルであった。\n船内は3層に分かれており、最下層には貨物を積んだ。\n"
            "船体は樫の木で造られ、外側には松脂が塗られていたと記録されている。")
    passages = [Passage("S1", text, "d1", "ミル丸.pdf", 2)]
    layers = read("ミル丸は何層に分かれていたか？", passages)
    assert layers.why == "sure" and "3層" in layers.text.splitlines()[0]
    assert read("ミル丸の船体は何で造られたか？", passages).why == "sure"
    assert read("ミル丸は何層に分かれていたか？", [Passage("S1", text, "d1", "資料_03.pdf", 2)]).declined
