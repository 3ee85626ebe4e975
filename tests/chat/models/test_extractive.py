"""Sentence splitting, terms and language detection for Korean, Japanese and English."""

from __future__ import annotations

from chat.models.extractive import detect_language, split_sentences, terms


def test_sentence_splitting() -> None:
    assert split_sentences("売上は増加した。利益は減少した。") == ["売上は増加した。", "利益は減少した。"]
    assert split_sentences("Dr. Kim wrote it. It is 3.5 m long.") == ["Dr. Kim wrote it.", "It is 3.5 m long."]
    assert split_sentences("첫째 문장이다. 둘째 문장이다?\n셋째") == ["첫째 문장이다.", "둘째 문장이다?", "셋째"]
    text = "Apple Inc. sells in the U.S. market since Dec. 31, 2022. Revenue grew 3.5%. No. 5 is new."
    assert split_sentences(text) == [
        "Apple Inc. sells in the U.S. market since Dec. 31, 2022.",
        "Revenue grew 3.5%.",
        "No. 5 is new.",
    ]
    assert split_sentences("기준일은 2020.3.30. 입니다. 이익은 2020. 3. 30. 기준으로 감소했다. 끝.") == [
        "기준일은 2020.3.30. 입니다.",
        "이익은 2020. 3. 30. 기준으로 감소했다.",
        "끝.",
    ]
    long = "word " * 200
    [clipped] = split_sentences(long)
    assert len(clipped) <= 401 and clipped.endswith("…")


def test_terms() -> None:
    assert "매출" in terms("매출은 증가했다")
    assert terms("the revenues of 2023") == ["revenue", "2023"]
    assert "가요" not in terms("얼마인가요")  # question endings carry no content
    # a quality's noun is its adjective ("subject to cyclicality" / "has been cyclical"); "liability" stays itself
    assert terms("cyclicality seasonality liabilities quality") == ["cyclical", "seasonal", "liability", "quality"]


def test_detect_language() -> None:
    assert detect_language("매출은?") == "ko"
    assert detect_language("売上は？") == "ja"
    assert detect_language("营业收入") == "zh"
    assert detect_language("revenue") == "en"


def test_wrapped_pdf_lines_are_joined_into_sentences_but_headings_and_bullets_stay_apart() -> None:
    text = (
        "Row and Column Access Control\n"
        "We describe in this paper how the new version of the database implements the\n"
        "feature of IBM DB2 for i Row and Column Access Control (RCAC). It is enforced by the engine.\n"
        "- first item of a list\n"
        "- second item of a list\n\n"
        "売上は前年同期と比べて大きく増加し\n"
        "た。利益は減少した。\n"
        "A long line that ends with a hyphen-\n"
        "ated word is joined back together."
    )
    assert split_sentences(text) == [
        "Row and Column Access Control",
        "We describe in this paper how the new version of the database implements the feature of IBM DB2 for i "
        "Row and Column Access Control (RCAC).",
        "It is enforced by the engine.",
        "- first item of a list",
        "- second item of a list",
        "売上は前年同期と比べて大きく増加した。",
        "利益は減少した。",
        "A long line that ends with a hyphenated word is joined back together.",
    ]
