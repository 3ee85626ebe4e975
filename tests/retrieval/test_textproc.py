from __future__ import annotations

from retrieval.textproc import cjk_bigrams, keyword_terms, keyword_text, phrase_terms


def test_korean_words_become_bigrams_so_particles_do_not_block_matches() -> None:
    doc = set(keyword_terms("서울은 대한민국의 수도이다"))
    query = keyword_terms("대한민국")
    assert query == ["대한", "한민", "민국"]
    assert set(query) <= doc


def test_japanese_without_spaces() -> None:
    assert keyword_terms("東京は日本の首都") == ["東京", "京は", "は日", "日本", "本の", "の首", "首都"]


def test_latin_words_lowercased_and_numbers_normalised() -> None:
    assert keyword_terms("Capital Expenditure was $1,577 million (FY2018); ratio 0.5.") == [
        "capital",
        "expenditure",
        "was",
        "1577",
        "million",
        "fy",
        "2018",
        "ratio",
        "0.5",
    ]


def test_mixed_script_and_fullwidth() -> None:
    assert keyword_terms("ＡＷＳ의 S3") == ["aws", "의", "s", "3"]


def test_single_char_and_empty() -> None:
    assert cjk_bigrams("가") == ["가"]
    assert cjk_bigrams("") == []
    assert keyword_text("   ...  ") == ""


def test_phrase_pairs_skip_stop_words_and_break_at_numbers() -> None:
    terms = keyword_terms("Statement of Cash Flows: purchases of property, plant and equipment (1,577) net")
    assert phrase_terms(terms) == [
        "statement_cash",
        "cash_flows",
        "flows_purchases",
        "purchases_property",
        "property_plant",
        "plant_equipment",
    ]
    assert keyword_text("Cash flows") == "cash flows cash_flows"
    assert phrase_terms(keyword_terms("대한민국의 수도 Seoul")) == []
