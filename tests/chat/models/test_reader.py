"""The reader end to end: answers that state the value with a citation and an exact quote — or decline.

Every fixture here is written for these tests (an Apple-like 10-Q table chunk in Markdown and in the flattened
form older chunks have, a receipt's OCR lines, Korean and Japanese statements); none comes from an eval set.
"""

from __future__ import annotations

import pytest

from chat.models.reader import Answer, Passage, read
from chat.models.reader.decline import DECLINE_BELOW, SURE_AT

TABLE_MD = """Apple Inc.
Net sales by category (dollars in millions)

| | Three Months Ended / December 31, 2022 | Three Months Ended / December 25, 2021 | Change |
|---|---|---|---|
| iPhone | $ 65,775 | $ 71,628 | (8)% |
| Mac | 7,735 | 10,852 | (29)% |
| iPad | 9,396 | 7,248 | 30 % |
| Services | 20,766 | 19,516 | 6 % |
| Total net sales | $ 117,154 | $ 123,945 | (5)% |"""

TABLE_FLAT = """Note 2 – Revenue
Net sales disaggregated by significant products and services for the three months ended December 31, 2022 and
December 25, 2021 were as follows (in millions):
Three Months Ended
December 31,
2022
December 25,
2021
iPhone $ 65,775 $ 71,628
Mac 7,735 10,852
Services 20,766 19,516
Total net sales $ 117,154 $ 123,945
Apple Inc. | Q1 2023 Form 10-Q | 7"""

SEGMENTS_FLAT = """The following table shows information by reportable segment for the three months ended
July 1, 2023 and June 25, 2022 (in millions):
Three Months Ended
July 1,
2023
June 25,
2022
Americas:
Net sales $ 35,383 $ 37,472
Operating income $ 12,900 $ 13,000
Greater China:
Net sales $ 15,758 $ 14,604
Operating income $ 6,000 $ 5,800
Apple Inc. | Q3 2023 Form 10-Q | 14"""

NARRATIVE = """Apple Inc. | Q1 2023 Form 10-Q | 21
The Company’s total net sales decreased 5% or $6.8 billion during the first quarter of 2023 compared to the same
quarter in 2022. The weakness in foreign currencies relative to the U.S. dollar had an unfavorable impact.
Apple Inc. | Q1 2023 Form 10-Q | 22"""

RECEIPT = """SANYU STATIONERY SHOP
NO. 31G&33G, JALAN SETIA INDAH X ,U13/X
40170 SETIA ALAM, SELANGOR
Date: 12/03/2018 14:22
CASHIER: SANYU
Item Qty Price
PILOT PEN 1 8.49
Sub Total : 8.49
GST 6% : 0.51
Rounding : 0.00
Total : 9.00
CASH 10.00
CHANGE 1.00"""

KO_TABLE = """연결 손익계산서
(단위: 억원)
| 과목 | 2020년 3분기 | 2019년 3분기 |
|---|---|---|
| 매출액 | 12,345 | 11,000 |
| 영업이익 | 1,234 | 1,500 |
| 당기순이익 | 900 | 1,100 |"""

KO_BALANCE = """재무상태표
(단위 : 백만원)
| 구분 | 2020.3.30. | 2019.12.31. |
|---|---|---|
| 자산총계 | 1,234,567 | 1,200,000 |
| 부채총계 | 456,789 | 450,000 |"""

JA_TABLE = """連結損益計算書
（単位：百万円）
| 科目 | 2023年3月期 | 2022年3月期 |
|---|---|---|
| 売上高 | 1,200 | 1,000 |
| 営業利益 | △50 | 30 |"""


def _p(ref: str, text: str, file_name: str = "Apple 10-Q Q1 2023.pdf", page: int = 4) -> Passage:
    return Passage(ref, text, "doc-" + ref, file_name, page)


def _assert_quotes_exact(answer: Answer, passages: list[Passage]) -> None:
    by_ref = {p.ref: p for p in passages}
    assert answer.quotes, answer.text
    for ref, quote in answer.quotes:
        assert quote and quote in by_ref[ref].text, (ref, quote)
        assert f"[{ref}]" in answer.text


# --------------------------------------------------------------------------- the four reported failures


def test_total_net_sales_is_the_total_row_not_the_caption() -> None:
    passages = [_p("S1", TABLE_MD), _p("S2", NARRATIVE, page=21)]
    answer = read("What was Apple's total net sales for the quarter ended December 31, 2022?", passages)
    first = answer.text.splitlines()[0]
    assert first == "Total net sales were $117,154 million in the three months ended December 31, 2022 [S1]."
    assert ("S1", "| Total net sales | $ 117,154 | $ 123,945 | (5)% |") in answer.quotes
    assert "> | Total net sales | $ 117,154 | $ 123,945 | (5)% |" in answer.text  # the row, under its header
    assert "> | | Three Months Ended / December 31, 2022 |" in answer.text
    assert not answer.declined and "no generative model" in answer.text
    _assert_quotes_exact(answer, passages)


def test_total_net_sales_from_a_flattened_table_chunk() -> None:
    passages = [_p("S1", TABLE_FLAT, page=7)]
    answer = read("What was Apple's total net sales for the quarter ended December 31, 2022?", passages)
    assert answer.text.startswith(
        "Total net sales were $117,154 million in the three months ended December 31, 2022 [S1]."
    )
    assert answer.quotes == (("S1", "Total net sales $ 117,154 $ 123,945"),)
    assert "Apple Inc. | Q1 2023 Form 10-Q" not in answer.text  # the running footer is no quote
    _assert_quotes_exact(answer, passages)


def test_prior_period_column_is_picked_when_asked() -> None:
    answer = read("What were total net sales in the three months ended December 25, 2021?", [_p("S1", TABLE_MD)])
    assert "$123,945 million in the three months ended December 25, 2021 [S1]" in answer.text


@pytest.mark.parametrize("text", [TABLE_MD, TABLE_FLAT])
def test_iphone_change_is_computed_from_the_cited_cells(text: str) -> None:
    passages = [_p("S2", NARRATIVE, page=21), _p("S1", text)]
    answer = read("How much did iPhone revenue change year over year?", passages)
    first = answer.text.splitlines()[0]
    assert first.startswith(
        "iPhone revenue was down 8.2%: $65,775 million in the three months ended December 31, "
        "2022 vs $71,628 million in the three months ended December 25, 2021 [S1]"
    )
    assert "computed from the table" in first and "$5,853 million" in first
    if text is TABLE_MD:
        assert "the table shows (8)%" in first
    [(ref, quote)] = answer.quotes
    assert ref == "S1" and quote.lstrip("| ").startswith("iPhone") and "65,775" in quote
    _assert_quotes_exact(answer, passages)


def test_receipt_total_is_the_grand_total_not_the_address_or_subtotal() -> None:
    passages = [_p("S1", RECEIPT, "receipt-001.jpg", 1)]
    answer = read("What is the total amount of this receipt?", passages)
    assert answer.text.startswith("The total is 9.00 [S1].")
    assert answer.quotes == (("S1", "Total : 9.00"),)
    assert "JALAN" not in answer.text and "8.49" not in answer.text
    date = read("What is the date of the receipt?", passages)
    assert date.text.startswith("The date is 12/03/2018 [S1].")


def test_receipt_value_on_the_line_after_its_label_and_grand_total_wording() -> None:
    ocr = "KEDAI RUNCIT\nSUBTOTAL\n20.00\nTAX\n1.20\nTOTAL\nRM 21.20\nCASH\n50.00"
    answer = read("What was the total?", [_p("S1", ocr, "r.jpg", 1)])
    assert answer.text.startswith("The total is RM 21.20 [S1].")
    assert answer.quotes == (("S1", "TOTAL\nRM 21.20"),)
    due = "Subtotal: $40.00\nTotal: $38.00\nAmount due: $42.00\nChange: $8.00"
    assert read("How much is the total?", [_p("S1", due, "r.jpg", 1)]).text.startswith("The amount due is $42.00")


def test_a_company_in_no_passage_is_declined_with_the_closest_passage() -> None:
    passages = [_p("S1", TABLE_MD), _p("S2", NARRATIVE, page=21)]
    answer = read("What was Tesla's revenue in 2022?", passages)
    assert answer.declined and answer.quotes == ()
    assert answer.text.startswith("The documents don't say what Tesla's revenue in 2022 was.")
    assert "None of the passages found mentions Tesla." in answer.text
    assert "The closest passage is about" in answer.text and "(Apple 10-Q Q1 2023.pdf, p. 4)" in answer.text
    assert "[S" not in answer.text and "117,154" not in answer.text


# --------------------------------------------------------------------------- more English


def test_section_rows_qualify_the_line_item() -> None:
    passages = [_p("S1", SEGMENTS_FLAT, "Apple 10-Q Q3 2023.pdf", 14)]
    answer = read("What were Greater China net sales in the three months ended July 1, 2023?", passages)
    assert answer.text.startswith(
        "Greater China net sales were $15,758 million in the three months ended July 1, 2023 [S1]."
    )
    assert answer.quotes == (("S1", "Net sales $ 15,758 $ 14,604"),)


def test_a_period_the_table_does_not_cover_is_declined() -> None:
    answer = read("What was Apple's total net sales in 2019?", [_p("S1", TABLE_MD)])
    assert answer.declined and answer.text.startswith(
        "The documents don't say what Apple's total net sales in 2019 was"
    )
    assert answer.confidence < DECLINE_BELOW


def test_sentence_answer_states_the_value_then_quotes() -> None:
    passages = [_p("S1", NARRATIVE, page=21)]
    answer = read("By how much did total net sales decrease in the first quarter of 2023?", passages)
    assert answer.text.startswith(
        "The documents say 5%: “The Company’s total net sales decreased 5% or $6.8 billion "
        "during the first quarter of 2023 compared to the same quarter in 2022.” [S1]"
    )
    [(_, quote)] = answer.quotes
    assert "\n" in quote  # the wrapped sentence is quoted exactly as the passage has it …
    _assert_quotes_exact(answer, passages)
    assert "Form 10-Q" not in answer.text  # … and without the running header


def test_when_question_gets_the_date() -> None:
    text = "The merger agreement was signed on March 30, 2020. The closing followed in June."
    answer = read("When was the merger agreement signed?", [_p("S1", text, "deal.pdf", 2)])
    assert answer.text.startswith(
        "The documents say March 30, 2020: “The merger agreement was signed on March 30, 2020.” [S1]"
    )


def test_two_part_question_answers_both_parts() -> None:
    passages = [_p("S1", TABLE_MD)]
    answer = read(
        "What was iPhone revenue in the quarter ended December 31, 2022 and how much did it change?", passages
    )
    first, second = answer.text.split("\n\n")[:2]
    assert first.startswith("iPhone revenue was $65,775 million in the three months ended December 31, 2022 [S1].")
    assert second.startswith("iPhone revenue was down 8.2%")
    assert not answer.declined


def test_unrelated_passages_decline_and_nothing_found_says_so() -> None:
    answer = read("What is the warranty period?", [_p("S1", "Bananas are yellow. The sky is blue.", "x.pdf", 1)])
    assert answer.declined and answer.text.startswith("The documents don't say what the warranty period is.")
    empty = read("What is the warranty period?", [])
    assert empty.declined and "The search found no matching passages." in empty.text


def test_weak_evidence_is_shown_but_marked_unsure() -> None:
    passages = [_p("S1", "The pump motor is made in Germany. Our service team answers calls on weekdays.", "m.pdf", 3)]
    answer = read("How long is the warranty for the pump motor?", passages)
    assert DECLINE_BELOW <= answer.confidence < SURE_AT and not answer.declined
    assert answer.text.startswith(
        "The closest the documents come: “The pump motor is made in Germany.” [S1] (I'm not "
        "sure this answers the question.)"
    )
    _assert_quotes_exact(answer, passages)
    text = "Our warranty team answers calls on weekdays. Coverage details are listed in the appendix."
    weaker = read("What does the warranty cover for the pump motor?", [_p("S1", text, "m.pdf", 3)])
    assert weaker.declined and weaker.quotes == () and weaker.confidence < DECLINE_BELOW
    assert weaker.text.startswith(
        "The documents don't say anything that answers “What does the warranty cover for "
        "the pump motor?”. The closest passage is about “Our warranty team answers calls on "
        "weekdays.” (m.pdf, p. 3)."
    )


# --------------------------------------------------------------------------- Korean


def test_korean_value_in_eok_won_is_stated_in_korean() -> None:
    answer = read("2020년 3분기 매출액은 얼마인가요?", [_p("S1", KO_TABLE, "분기보고서.pdf", 12)])
    assert answer.text.startswith("2020년 3분기 매출액은 1조 2,345억원입니다 [S1].")
    assert answer.quotes == (("S1", "| 매출액 | 12,345 | 11,000 |"),)
    assert "추출형" in answer.text


def test_korean_change_and_million_won_and_dotted_date() -> None:
    change = read(
        "2020년 3분기 영업이익은 전년 동기 대비 얼마나 감소했나요?", [_p("S1", KO_TABLE, "분기보고서.pdf", 12)]
    )
    assert change.text.startswith(
        "영업이익은 2019년 3분기 1,500억원에서 2020년 3분기 1,234억원으로 266억원(17.7%) 감소했습니다 [S1]"
    )
    balance = read("2020.3.30. 기준 자산총계는 얼마입니까?", [_p("S1", KO_BALANCE, "보고서.pdf", 3)])
    assert balance.text.startswith("2020.3.30. 자산총계는 1,234,567백만원입니다 [S1].")


def test_korean_decline_names_what_is_missing() -> None:
    passages = [_p("S1", KO_TABLE, "삼성전자_분기보고서.pdf", 12)]
    missing_company = read("테슬라의 2020년 매출액은?", passages)
    assert missing_company.declined
    assert missing_company.text.startswith("문서에서 테슬라의 2020년 매출액을 찾을 수 없습니다.")
    assert "(삼성전자_분기보고서.pdf, 12쪽)" in missing_company.text and "[S" not in missing_company.text
    missing_period = read("2018년 매출액은 얼마인가요?", passages)
    assert missing_period.declined and missing_period.text.startswith("문서에서 2018년 매출액을 찾을 수 없습니다.")


def test_korean_receipt_total_and_sentence() -> None:
    receipt = "카페 강남점\n아메리카노 2 9,000원\n부가세 818원\n합계 12,000원\n받은금액 15,000원\n거스름돈 3,000원"
    answer = read("합계 금액은 얼마입니까?", [_p("S1", receipt, "영수증.jpg", 1)])
    assert answer.text.startswith("합계는 12,000원입니다 [S1].")
    text = "회사 개요. 이 회사는 1998년 3월 2일에 설립되었다. 본사는 서울에 있다."
    when = read("이 회사는 언제 설립되었나요?", [_p("S1", text, "개요.pdf", 1)])
    assert when.text.startswith("문서에 따르면 1998년 3월 2일입니다: “이 회사는 1998년 3월 2일에 설립되었다.” [S1]")
    assert when.quotes == (("S1", "이 회사는 1998년 3월 2일에 설립되었다."),)


# --------------------------------------------------------------------------- Japanese


def test_japanese_value_change_and_triangle_negative() -> None:
    passages = [_p("S1", JA_TABLE, "決算短信.pdf", 2)]
    value = read("2023年3月期の売上高はいくらですか？", passages)
    assert value.text.startswith("2023年3月期の売上高は1,200百万円です [S1]。")
    loss = read("2023年3月期の営業利益は？", passages)
    assert loss.text.startswith("2023年3月期の営業利益は-50百万円です [S1]。")  # △50 is a loss
    change = read("売上高は前年比でどのくらい増加しましたか？", passages)
    assert change.text.startswith(
        "売上高は2022年3月期の1,000百万円から2023年3月期の1,200百万円へ200百万円（20.0%）増加しました [S1]"
    )
    assert "抽出型" in change.text


def test_japanese_decline_and_receipt() -> None:
    passages = [_p("S1", "トヨタ自動車株式会社\n" + JA_TABLE, "決算短信.pdf", 2)]
    answer = read("テスラの2022年の売上高は？", passages)
    assert answer.declined and answer.text.startswith("資料にはテスラの2022年の売上高の記載が見つかりません。")
    assert "（決算短信.pdf、2ページ）" in answer.text and "[S" not in answer.text
    receipt = "コンビニ 新宿店\n2023年5月1日 14:05\n小計 ¥1,100\n消費税 ¥100\n合計 ¥1,200\nお預り ¥2,000\nお釣り ¥800"
    total = read("合計金額はいくらですか？", [_p("S1", receipt, "レシート.jpg", 1)])
    assert total.text.startswith("合計は¥1,200です [S1]。")
    date = read("レシートの日付はいつですか？", [_p("S1", receipt, "レシート.jpg", 1)])
    assert date.text.startswith("日付は2023年5月1日です [S1]。")


def test_japanese_sentence_quote_is_a_whole_sentence() -> None:
    text = "製品は青色です。保証期間は納品から24ヶ月です。お問い合わせください。"
    answer = read("保証期間は何ヶ月ですか？", [_p("S1", text, "manual.pdf", 1)])
    assert answer.text.startswith("資料によると24ヶ月です：「保証期間は納品から24ヶ月です。」 [S1]")
    assert answer.quotes == (("S1", "保証期間は納品から24ヶ月です。"),)


def test_a_change_of_a_rate_is_in_percentage_points() -> None:
    text = (
        "Gross margin percentage\n| | 2023 | 2022 |\n|---|---|---|\n| Products gross margin | 36.0 % | 34.5 % |\n"
        "| Services gross margin | 70.5 % | 72.0 % |"
    )
    answer = read("How did the products gross margin change from 2022 to 2023?", [_p("S1", text)])
    assert answer.text.startswith(
        "Products gross margin was up 1.5 percentage points: 36.0% in 2023 vs 34.5% in 2022 "
        "[S1] (computed from the table)."
    )
    ko = read(
        "서비스 매출총이익률은 얼마나 변했나요?",
        [_p("S1", text.replace("Services gross margin", "서비스 매출총이익률"))],
    )
    assert "1.5%p 감소했습니다 [S1]" in ko.text.splitlines()[0]


def test_comparison_of_two_line_items_from_the_cited_cells() -> None:
    answer = read(
        "Which was higher, Mac or iPad net sales in the quarter ended December 31, 2022?", [_p("S1", TABLE_MD)]
    )
    assert answer.text.startswith(
        "iPad ($9,396 million) was higher than Mac ($7,735 million) in the three months "
        "ended December 31, 2022 [S1] (compared from the table)."
    )
    assert answer.quotes == (("S1", "| iPad | 9,396 | 7,248 | 30 % |"), ("S1", "| Mac | 7,735 | 10,852 | (29)% |"))
    ko = read("영업이익과 당기순이익 중 어느 것이 더 큰가요?", [_p("S1", KO_TABLE, "분기보고서.pdf")])
    assert ko.text.startswith("2020년 3분기 영업이익(1,234억원)이 당기순이익(900억원)보다 큽니다 [S1].")
    ja = read("売上高と営業利益を比較してください。", [_p("S1", JA_TABLE, "決算短信.pdf")])
    assert ja.text.startswith("2023年3月期の売上高（1,200百万円）は営業利益（-50百万円）より大きいです [S1]。")
    missing = read("Compare iPad and Mac net sales.", [_p("S1", TABLE_FLAT)])  # no iPad row: no comparison
    assert "higher than" not in missing.text and "iPad" not in missing.text.splitlines()[0]


def test_company_names_match_written_out_by_ticker_or_mostly_and_otherwise_decline() -> None:
    table = TABLE_MD.replace("Apple Inc.\n", "")  # a table chunk names no company
    ticker = read("What was Apple's total net sales?", [_p("S1", table, "2023 Q1 AAPL.pdf")])
    assert not ticker.declined  # the file name's ticker is Apple's
    other = read("What was Tesla's total net sales?", [_p("S1", table, "2023 Q1 AAPL.pdf")])
    assert other.declined and "None of the passages found mentions Tesla." in other.text
    receipt = RECEIPT.replace("SANYU STATIONERY SHOP", "SANYU STAT1ONERY SH0P SDN BHD")  # OCR slips
    answer = read("What is the total on the receipt from SANYU STATIONERY SHOP SDN BHD?", [_p("S1", receipt, "r.jpg")])
    assert answer.text.startswith("The total is 9.00 [S1].")
    elsewhere = read("What is the total on the receipt from KEDAI MAJU JAYA ENTERPRISE?", [_p("S1", receipt, "r.jpg")])
    assert elsewhere.declined and elsewhere.quotes == ()


def test_a_named_segment_the_rows_carry_picks_its_section() -> None:
    passages = [_p("S1", SEGMENTS_FLAT, "Apple 10-Q Q3 2023.pdf", 14)]
    for question in (
        "What was the operating income of Greater China for the three months ended July 1, 2023?",
        "What was Greater China's operating income in the three months ended July 1, 2023?",
    ):
        answer = read(question, passages)
        assert answer.text.startswith(
            "Greater China operating income was $6,000 million in the three months ended July 1, 2023 [S1]."
        ), question


SHARES_MD = """Purchases of equity securities by the issuer (in millions, except per-share amounts):
| Periods | Total Number of Shares Purchased | Average Price Paid Per Share | Dollar Value Yet To Be Purchased |
|---|---|---|---|
| October 2022 | 20,000 | $ 142.50 | |
| Total | 132,839 | | $ 41,665 |"""


def test_a_count_column_is_not_read_as_dollars_in_millions() -> None:
    answer = read("What is the total?", [_p("S1", SHARES_MD)])
    first = answer.text.splitlines()[0]
    assert "132,839 " in first and "$132,839" not in first and "million" not in first, first
    assert "$41,665 million" not in first  # the value of the asked column, not another column's dollars


def test_a_receipt_question_is_answered_from_the_receipt_not_a_statements_total_row() -> None:
    statement = _p("S1", SHARES_MD, "10-Q.pdf", 24)  # ranked first by search, and it has a "Total" row
    receipt = _p("S2", RECEIPT, "receipt-001.jpg", 1)
    answer = read("What is the total on the receipt?", [statement, receipt])
    assert answer.text.startswith("The total is 9.00 [S2]."), answer.text
    assert "132,839" not in answer.text.splitlines()[0]
    # without the word "receipt" nothing changes: the statement's total row still answers "What is the total?"
    assert "[S1]" in read("What is the total?", [statement]).text.splitlines()[0]


def test_a_sentence_in_the_asked_period_written_another_way_is_sure_and_states_the_asked_count() -> None:
    text = ("2021.5.10. 0시 기준 현재 시 관내 등록 차량은 12,480대, 전기차는 1,275대로 집계되었다.\n"
            "한편 충전소는 지난 2021. 4.2. 38곳이 추가로 문을 열었다.")
    passages = [_p("S1", text, "교통현황.pdf", 2)]
    cars = read("2021년 5월 10일 기준 등록 차량은 몇 대인가?", passages)
    assert not cars.declined and "확실하지 않습니다" not in cars.text
    assert cars.text.startswith("문서에 따르면 12,480대")  # not the clock time "0시", not the date
    electric = read("전기차는 몇 대인가?", passages)
    assert electric.text.startswith("문서에 따르면 1,275대")  # the amount after what is asked, not the first one


def test_a_korean_count_states_the_number_of_the_asked_counter_or_none() -> None:
    """"몇 명" is answered with the number of 명 next to what is counted, never with the 대 of another noun or a
    bare mark; a sentence with no number of 명 states none (the quote still shows it)."""
    text = ("지난 3일 밤 회관 화재에는 소방차 32대와 소방관 128명이 출동했다 4.\n"
            "화재는 회관 2층 창고에서 시작되어 모두 40분 만에 꺼졌다.")
    passages = [_p("S1", text, "화재보고.pdf", 1)]
    firefighters = read("회관 화재에 출동한 소방관은 몇 명인가?", passages)
    assert firefighters.text.startswith("문서에 따르면 128명"), firefighters.text
    trucks = read("회관 화재에 출동한 소방차는 몇 대인가?", passages)
    assert trucks.text.startswith("문서에 따르면 32대"), trucks.text
    minutes = read("회관 화재는 몇 분 만에 꺼졌는가?", passages)
    assert minutes.text.startswith("문서에 따르면 40분"), minutes.text
