"""The reader's pure parts: numbers and units, periods, sentence spans and running lines, question analysis,
tables (Markdown and flattened), key-value fields."""

from __future__ import annotations

import pytest

from chat.models.reader.fields import find_fields
from chat.models.reader.numbers import Unit, caption_unit, format_amount, korean_won, parse_amount, percent_change
from chat.models.reader.periods import Period, agreement, find_periods, is_relative, span_months
from chat.models.reader.question import analyze
from chat.models.reader.tables import column_text, find_tables, split_row
from chat.models.reader.text import display, is_boilerplate, match_terms, running_lines, sentence_spans

# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    ("text", "value", "percent", "currency"),
    [
        ("$ 65,775", 65775.0, False, "$"),
        ("(8)%", -8.0, True, ""),
        ("(1,234)", -1234.0, False, ""),
        ("△1,234", -1234.0, False, ""),
        ("▲50", -50.0, False, ""),
        ("3.5%", 3.5, True, ""),
        ("RM 9.00", 9.0, False, "RM"),
        ("¥1,200", 1200.0, False, "¥"),
        ("12,000원", 12000.0, False, "원"),
        ("1조 2,345억원", 1.2345e12, False, "원"),
        ("4,200억 원", 4.2e11, False, "원"),
        ("1,200円", 1200.0, False, "円"),
    ],
)
def test_parse_amount(text: str, value: float, percent: bool, currency: str) -> None:
    amount = parse_amount(text)
    assert amount is not None
    assert amount.value == pytest.approx(value) and amount.percent is percent and amount.currency == currency


def test_parse_amount_without_a_number_and_raw_text() -> None:
    assert parse_amount("no digits here") is None
    amount = parse_amount("Total : 9.00")
    assert amount is not None and amount.raw == "9.00"


def test_caption_units() -> None:
    assert caption_unit("(in millions)") == Unit(1e6, "million", "")
    assert caption_unit("(dollars in millions, except per-share amounts)") == Unit(1e6, "million", "$")
    assert caption_unit("(in thousands)").scale == 1e3
    assert caption_unit("(단위: 억원)") == Unit(1e8, "억원", "원")
    assert caption_unit("(단위 : 백만원)") == Unit(1e6, "백만원", "원")
    assert caption_unit("（単位：百万円）") == Unit(1e6, "百万円", "円")
    assert caption_unit("Net sales by category") == Unit()


def test_format_amount_keeps_the_written_number_and_adds_the_unit() -> None:
    millions = caption_unit("(in millions)")
    assert format_amount(parse_amount("$ 65,775"), millions, "en") == "$65,775 million"  # type: ignore[arg-type]
    assert format_amount(parse_amount("(8)%"), Unit(), "en") == "-8%"  # type: ignore[arg-type]
    assert format_amount(parse_amount("12,345"), caption_unit("(단위: 억원)"), "ko") == "12,345억원"  # type: ignore[arg-type]
    assert format_amount(parse_amount("1,200"), caption_unit("（単位：百万円）"), "ja") == "1,200百万円"  # type: ignore[arg-type]
    assert format_amount(parse_amount("RM 9.00"), Unit(), "en") == "RM 9.00"  # type: ignore[arg-type]
    assert korean_won(12_345e8) == "1조 2,345억원"
    assert korean_won(5_000e8) == "5,000억원"
    assert korean_won(12_000) == "12,000원"
    assert percent_change(65775, 71628) == pytest.approx(-8.171, abs=1e-3)
    assert percent_change(1, 0) is None


# --------------------------------------------------------------------------- periods


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("quarter ended December 31, 2022", Period(2022, 12, 31)),
        ("as of Dec. 31, 2022", Period(2022, 12, 31)),
        ("31 December 2022", Period(2022, 12, 31)),
        ("2022-12-31", Period(2022, 12, 31)),
        ("12/31/2022", Period(2022, 12, 31)),
        ("2020.3.30. 기준", Period(2020, 3, 30)),
        ("2020년 3월 30일", Period(2020, 3, 30)),
        ("2020年3月30日", Period(2020, 3, 30)),
        ("Q1 2023", Period(2023, quarter=1)),
        ("the first quarter of 2023", Period(2023, quarter=1)),
        ("2020년 3분기 매출", Period(2020, quarter=3)),
        ("2023年度第2四半期", Period(2023, quarter=2)),
        ("FY2023 revenue", Period(2023, fiscal=True)),
        ("fiscal 2022", Period(2022, fiscal=True)),
        ("2023年3月期", Period(2023, 3, fiscal=True)),
        ("revenue in 2022", Period(2022)),
        ("2022년 매출", Period(2022)),
        ("2020년 상반기", Period(2020, half=1)),
    ],
)
def test_find_periods(text: str, expected: Period) -> None:
    [found] = find_periods(text)
    got = (found.year, found.month, found.day, found.quarter, found.half, found.fiscal)
    assert got == (expected.year, expected.month, expected.day, expected.quarter, expected.half, expected.fiscal)
    assert found.text in text


def test_several_periods_in_order_and_spans() -> None:
    header = "Three Months Ended December 31, 2022 December 25, 2021"
    assert [p.text for p in find_periods(header)] == ["December 31, 2022", "December 25, 2021"]
    assert span_months(header) == 3
    assert span_months("Nine months ended") == 9 and span_months("Year ended September 24, 2022") == 12
    assert span_months("3개월") == 3 and span_months("December 31") is None
    assert find_periods("revenue grew 3.5% to 1,234") == []
    assert (
        is_relative("year over year") and is_relative("전년 대비") and is_relative("前年比") and not is_relative("2022")
    )


def test_agreement() -> None:
    dec22 = Period(2022, 12, 31)
    assert agreement(Period(2022), dec22) == 1.0
    assert agreement(Period(2021), dec22) == 0.0
    assert agreement(dec22, Period(2022, 12, 25)) == 0.0
    assert agreement(dec22, dec22, asked_span=3, offered_span=3) == 1.0
    assert agreement(dec22, dec22, asked_span=3, offered_span=9) == 0.0  # nine months is not the quarter
    assert 0 < agreement(Period(2023, quarter=1), Period(2022, 12, 31), offered_span=3) < 1
    assert agreement(Period(), dec22) == 0.0


# --------------------------------------------------------------------------- sentences, running lines, terms


def _sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)]


def test_sentences_do_not_break_at_dates_decimals_and_abbreviations() -> None:
    text = (
        "Apple Inc. reported results for the U.S. market on Dec. 31, 2022. Revenue grew 3.5% to $1.2 billion. "
        "Item No. 5 is new.\n기준일은 2020.3.30. 입니다. 이익은 2020. 3. 30. 기준으로 감소했어요. 다음 문장.\n"
        "売上は増加した。利益は減少した。"
    )
    assert _sentences(text) == [
        "Apple Inc. reported results for the U.S. market on Dec. 31, 2022.",
        "Revenue grew 3.5% to $1.2 billion.",
        "Item No. 5 is new.",
        "기준일은 2020.3.30. 입니다.",
        "이익은 2020. 3. 30. 기준으로 감소했어요.",
        "다음 문장.",
        "売上は増加した。",
        "利益は減少した。",
    ]


def test_sentence_spans_are_exact_substrings_and_wrapped_lines_join() -> None:
    text = (
        "Results\nThe Company’s total net sales decreased 5% during the first quarter of\n2023 compared to 2022. Next."
    )
    spans = sentence_spans(text)
    quotes = [text[s:e] for s, e in spans]
    assert quotes[1] == "The Company’s total net sales decreased 5% during the first quarter of\n2023 compared to 2022."
    assert (
        display(quotes[1])
        == "The Company’s total net sales decreased 5% during the first quarter of 2023 compared to 2022."
    )
    assert display("売上は前年と比べて増加し\nた。") == "売上は前年と比べて増加した。"
    assert display("3층으로 만들어진 이 배는\n지붕과 문을 달았다.") == "3층으로 만들어진 이 배는 지붕과 문을 달았다."
    assert all(q.strip() == q for q in quotes)


def test_running_headers_footers_and_page_numbers_are_not_sentences() -> None:
    pages = [
        "Apple Inc. | Q1 2023 Form 10-Q | 7\nThe first page says one thing.\nPage 7 of 30",
        "Apple Inc. | Q1 2023 Form 10-Q | 8\nThe second page says another.\n- 8 -",
    ]
    running = running_lines(pages)
    assert "apple inc. | q# # form #-q | #" in running
    assert [pages[1][s:e] for s, e in sentence_spans(pages[1], running)] == ["The second page says another."]
    assert is_boilerplate("12", frozenset(), at_edge=False)
    assert is_boilerplate("Annual Report | 14", frozenset(), at_edge=True)
    assert not is_boilerplate("Annual Report | 14", frozenset(), at_edge=False)


def test_match_terms_maps_synonyms_to_one_group() -> None:
    assert match_terms("Total net sales") == match_terms("total revenue") | match_terms("total")
    assert match_terms("iPhone revenue") == {"iphone"} | match_terms("net sales")
    assert match_terms("매출액") == match_terms("net sales") == match_terms("売上高")
    assert match_terms("합계금액") == match_terms("grand total")  # the longest phrase wins, "금액" alone is no price


# --------------------------------------------------------------------------- questions


@pytest.mark.parametrize(
    ("question", "kind", "focus"),
    [
        ("What was Apple's total net sales for the quarter ended December 31, 2022?", "value", "total net sales"),
        ("How much did iPhone revenue change year over year?", "change", "iPhone revenue"),
        ("What is the total amount of this receipt?", "value", "total amount"),
        ("What is the date of the receipt?", "date", "date"),
        ("When was the merger agreement signed?", "date", "merger agreement signed"),
        ("Who is the CEO of Apple Inc.?", "name", "CEO"),
        ("Which was higher, Mac or iPad sales?", "comparison", "higher Mac or iPad sales"),
        ("Is the warranty transferable?", "yesno", "Is the warranty transferable"),
        ("What does the refund policy allow?", "definition", "refund policy allow"),
        ("2020년 3분기 삼성전자의 매출액은 얼마인가요?", "value", "매출액"),
        ("이 회사는 언제 설립되었나요?", "date", "이 회사"),
        ("대표이사는 누구인가요?", "name", "대표이사"),
        ("2023年3月期の売上高はいくらですか？", "value", "売上高"),
        ("売上高は前年比でどのくらい増加しましたか？", "change", "売上高"),
        ("設立日はいつですか？", "date", "設立日"),
    ],
)
def test_question_kind_and_focus(question: str, kind: str, focus: str) -> None:
    q = analyze(question)
    assert (q.kind, q.focus) == (kind, focus)


def test_question_names_periods_and_parts() -> None:
    q = analyze("What was Tesla's revenue in 2022?")
    assert q.strong_names == ("Tesla",) and [p.year for p in q.periods] == [2022] and q.focus == "revenue"
    q = analyze("What was Apple's total net sales for the quarter ended December 31, 2022?")
    assert q.span == 3 and q.periods[0].day == 31
    assert analyze("What were Greater China net sales?").names == ("Greater China",)
    assert analyze("What were Greater China net sales?").strong_names == ()  # a region, kept in the line item
    # … that no passage may lack (a question that names nothing else insists on it), but no company's name
    assert analyze("What were Greater China net sales?").insisted_names == ("Greater China",)
    assert analyze("What were Apple's Greater China net sales?").insisted_names == ()
    assert analyze("테슬라의 2020년 매출액은?").strong_names == ("테슬라",)
    assert analyze("영수증의 날짜는?").strong_names == ()  # a kind of document names no company
    assert analyze("テスラの2022年の売上高は？").strong_names == ("テスラ",)
    two = analyze("What was iPhone revenue in Q1 2023 and how much did it change?")
    assert [(p.kind, p.focus) for p in two.parts] == [("value", "iPhone revenue"), ("change", "iPhone revenue")]
    assert two.parts[1].periods == two.parts[0].periods  # "it" borrows the first part's line item and period
    assert analyze("What was revenue?").parts == ()


# --------------------------------------------------------------------------- tables


def test_markdown_table_with_caption_unit_header_and_change_column() -> None:
    text = (
        "Net sales by category\n(dollars in millions)\n\n"
        "| | Three Months Ended / December 31, 2022 | Three Months Ended / December 25, 2021 | Change |\n"
        "|---|---|---|---|\n| iPhone | $ 65,775 | $ 71,628 | (8)% |\n| Americas: | | | |\n| Net sales | 1 | 2 | 3 % |"
    )
    [table] = find_tables(text)
    assert table.markdown and table.unit == Unit(1e6, "million", "$")
    assert table.caption == "Net sales by category (dollars in millions)"
    assert [c.is_change for c in table.columns] == [False, False, True]
    assert [c.span for c in table.columns][:2] == [3, 3]
    assert column_text(table, 0) == "the three months ended December 31, 2022"
    iphone, net_sales = table.rows
    assert iphone.label == "iPhone" and iphone.cells == ("$ 65,775", "$ 71,628", "(8)%")
    assert text[iphone.line[0] : iphone.line[1]] == "| iPhone | $ 65,775 | $ 71,628 | (8)% |"
    assert (net_sales.section, net_sales.label) == ("Americas", "Net sales")
    amount = iphone.amount(2)
    assert amount is not None and amount.value == -8 and amount.percent


def test_escaped_pipes_stay_inside_their_cell() -> None:
    [table] = find_tables("| Item | 2022 |\n|---|---|\n| A \\| B segment | 1,234 |")
    assert table.rows[0].label == "A | B segment" and table.rows[0].cells == ("1,234",)


def test_flattened_table_with_multi_line_header_sections_and_footer() -> None:
    text = (
        "information by reportable segment (in millions):\nThree Months Ended\nDecember 31,\n2022\nDecember 25,\n2021\n"
        "Americas:\nNet sales $ 49,278 $ 51,496\nOperating income $ 17,864 $ 19,585\nGreater China:\n"
        "Net sales $ 23,905 $ 25,783\nApple Inc. | Q1 2023 Form 10-Q | 13"
    )
    [table] = find_tables(text)
    assert not table.markdown and table.unit.scale == 1e6
    assert [c.header for c in table.columns] == ["December 31, 2022", "December 25, 2021"]
    assert column_text(table, 1) == "the three months ended December 25, 2021"
    assert [(r.section, r.label) for r in table.rows] == [
        ("Americas", "Net sales"),
        ("Americas", "Operating income"),
        ("Greater China", "Net sales"),
    ]
    assert table.rows[2].cells == ("$ 23,905", "$ 25,783")


def test_split_row_and_what_is_not_a_table() -> None:
    assert split_row("iPhone $ 65,775 $ 71,628 (8)%") == ("iPhone", ["$ 65,775", "$ 71,628", "(8)%"])
    assert split_row("Wearables, Home and Accessories 13,482 14,701") == (
        "Wearables, Home and Accessories",
        ["13,482", "14,701"],
    )
    assert split_row("December 31,") is None  # a header fragment
    assert split_row("Total : 9.00") is None  # a key-value line
    assert split_row("The total was 9.") is None
    receipt = "Sub Total : 8.49\nRounding : 0.01\nTotal : 9.00\nCASH 10.00\nCHANGE 1.00"
    assert find_tables(receipt) == []


# --------------------------------------------------------------------------- fields


def test_fields_of_a_receipt() -> None:
    text = (
        "SANYU STATIONERY SHOP\nNO. 31G&33G, JALAN SETIA INDAH X ,U13/X\nDate: 12/03/2018 14:22\nSub Total : 8.49\n"
        "Total : 9.00\nTOTAL RM 9.00\nGrand Total: 9.00\nCASH 10.00\n합계 12,000원\n合計 ¥1,200\nTOTAL\n21.20"
    )
    fields = {(f.label, f.value): f for f in find_fields(text)}
    assert ("NO", "31G&33G, JALAN SETIA INDAH X ,U13/X") not in fields  # an address is no value
    date = fields[("Date", "12/03/2018 14:22")]
    assert date.date is not None and (date.date.year, date.date.month, date.date.day) == (2018, 12, 3)
    assert fields[("TOTAL", "RM 9.00")].amount.currency == "RM"  # type: ignore[union-attr]
    ranks = {label: f.rank for (label, _), f in fields.items()}
    assert ranks["Grand Total"] == 2 and ranks["Total"] == 1 and ranks["Sub Total"] == 0 and ranks["CASH"] == 0
    assert ("합계", "12,000원") in fields and ("合計", "¥1,200") in fields
    ocr = fields[("TOTAL", "21.20")]
    assert text[ocr.line[0] : ocr.line[1]] == "TOTAL\n21.20"  # the label's line and the value's line


def test_passage_from_ocr_lines() -> None:
    from chat.models.reader import Passage, read

    passage = Passage("S1", "", "r", "r.jpg", 1, lines=("SHOP", "Sub Total : 8.49", "Total : 9.00"))
    assert passage.text == "SHOP\nSub Total : 8.49\nTotal : 9.00"
    assert read("What is the total?", [passage]).quotes == (("S1", "Total : 9.00"),)


def test_a_line_ending_on_a_bracket_goes_on_when_the_next_starts_lower_case() -> None:
    text = ("We operate in four business segments: Aeronautics, Missiles and Fire Control (MFC), Rotary Systems (RMS)\n"
            "and Space. We organize our business segments by the products offered.\n"
            "Each segment reports its results (see Note 3)\n"
            "Business Segments")
    quotes = [text[s:e] for s, e in sentence_spans(text)]
    assert quotes[0].endswith("(RMS)\nand Space."), quotes
    assert "Each segment reports its results (see Note 3)" in quotes and "Business Segments" in quotes
