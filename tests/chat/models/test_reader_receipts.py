"""Receipts, forms and the document a question names: selection by the named document, the grand total as a
money value, the transaction date by its shape.

Every receipt here is made up for these tests (shop names, addresses, items, amounts, OCR slips); none comes
from an evaluation set.
"""

from __future__ import annotations

import pytest

from chat.core.prompt import SYSTEM_PROMPT
from chat.models.reader import Passage, read
from chat.models.reader.documents import (
    compact,
    fuzzy_find,
    match_strength,
    name_query,
    pages_to_read,
    parse_selector,
)
from chat.models.reader.question import per_name_questions
from chat.models.reader.receipts import date, total
from chat.models.reader.shapes import find_dates, monies

MAJU = """KEDAI RUNCIT MAJU JAYA SDN BHD
(CO. REG: 123456-X)
NO 12, JALAN MERANTI 3, TAMAN SERI
81300 SKUDAI JOHOR
TAX INVOICE
INV NO: CS00123  DATE:15/06/2019 TIME: 19:32:35
MILO 1KG 1 x 17.50 17.50
GARDENIA BREAD 2 x 3.20 6.40
Total Qty: 3
Total Item(s): 2
SUB TOTAL 23.90
GST 0% 0.00
ROUNDING -0.05
TOTAL RM 23.85
Total : 19:32:35
CASH 50.00
CHANGE 26.15
THANK YOU PLEASE COME AGAIN"""

MAJU_LATER = MAJU.replace("15/06/2019", "02/07/2019").replace("23.90", "11.20").replace("TOTAL RM 23.85",
                                                                                       "TOTAL RM 11.15")

BAKERY = """SERI BAKERY & CAFE
LOT 5, JLN BUNGA RAYA, 50000 KL
12 Jan 2018 10:05
ROTI CANAI 2 3.00
TEH TARIK 1 2.20
Sub Total : 5.20
SST 6% : 0.31
Total (incl. SST) : 5.51
Cash : 10.00
Change : 4.49"""

#: OCR read the label column, then the amount column
COLUMNS = """PUSAT TEKSTIL AMAN
JALAN PASAR 7, IPOH
DATE 03-11-17
KAIN BATIK 2 pcs
Sub Total
Rounding Adj
Total After Rounding
Cash Tendered
Change
45.97
0.03
46.00
50.00
4.00"""

ROUNDING = """RESTORAN SELERA KAMPUNG
TARIKH: 2018.01.12  12:41
NASI LEMAK 4.50
Total 8.97
Rounding 0.03
Nett Total 9.00
Paid 9.00"""

KO_CAFE = """카페 봄날
서울시 마포구 연남로 12
2019년 5월 3일 14:20
아메리카노 2 9,000원
부가세 818원
합계 9,000원
받은금액 10,000원
거스름돈 1,000원"""
KO_BOOKS = """한빛 문구
2019년 6월 1일
볼펜 3 4,500원
합계 4,500원
현금 5,000원
거스름돈 500원"""
JA_BOOKS = """さくら書店 新宿店
2018年1月12日 15:02
文庫本 1 ¥800
小計 ¥1,500
消費税 ¥120
合計 ¥1,620
お預り ¥2,000
お釣り ¥380"""
JA_CAFE = """喫茶 みどり
2018年3月2日
コーヒー ¥450
合計 ¥450
お預り ¥500
お釣り ¥50"""

INVOICE = """NORTHWIND SUPPLIES LTD
Invoice No. 4471
Invoice Date: 03/04/2019
Due Date: 03/05/2019
Printed 10/04/2019
Consulting services 1,200.00
Subtotal 1,200.00
VAT 20% 240.00
Amount Due 1,440.00"""


def _p(ref: str, text: str, doc: str, name: str = "", page: int = 1) -> Passage:
    return Passage(ref, text, doc, name or f"{doc}.jpg", page)


def _first(answer_text: str) -> str:
    return answer_text.splitlines()[0]


# ------------------------------------------------------------------------------------------- the named document


def test_the_named_shop_selects_its_receipt_even_ranked_last_and_garbled_by_ocr() -> None:
    # ranked first: another shop whose name shares most words with the asked one
    other = MAJU.replace("MAJU JAYA", "JAYA BARU").replace("23.85", "31.40")
    passages = [_p("S1", other, "d1"), _p("S2", MAJU.replace("MAJU", "MAJV").replace("SDN BHD", "SDN. BHD."), "d2")]
    answer = read("What is the total amount on the receipt from KEDAI RUNCIT MAJU JAYA SDN BHD?", passages)
    assert _first(answer.text) == "The total is RM 23.85 [S2].", answer.text
    assert answer.quotes == (("S2", "TOTAL RM 23.85"),)
    swapped = [_p("S1", MAJU, "d2"), _p("S2", BAKERY, "d1")]
    other = read("What is the date of the receipt from SERI BAKERY AND CAFE?", swapped)
    assert _first(other.text) == "The date is 12 Jan 2018 [S2].", other.text


def test_a_shop_no_retrieved_document_is_from_is_declined_with_what_was_found() -> None:
    passages = [_p("S1", BAKERY, "d1"), _p("S2", MAJU, "d2")]
    answer = read("What is the total amount on the receipt from GOLDEN DRAGON RESTAURANT?", passages)
    assert answer.declined and answer.quotes == ()
    assert "The documents don't say what the total amount on the receipt is" in answer.text
    assert "none of the documents found is from “GOLDEN DRAGON RESTAURANT”" in answer.text
    assert "SERI BAKERY & CAFE" in answer.text and "[S" not in answer.text
    # a name that shares only the legal suffix and generic words with a retrieved shop is someone else
    near = read("What is the date of the receipt from KEDAI RUNCIT SUKA RIA SDN BHD?", passages)
    assert near.declined


def test_a_date_qualifier_picks_the_receipt_and_is_not_the_asked_thing() -> None:
    passages = [_p("S1", MAJU_LATER, "d1"), _p("S2", MAJU, "d2")]
    answer = read("What is the total amount on the receipt from KEDAI RUNCIT MAJU JAYA SDN BHD dated 15/06/2019?",
                  passages)
    assert _first(answer.text) == "The total is RM 23.85 [S2].", answer.text
    later = read("What is the total amount on the receipt from KEDAI RUNCIT MAJU JAYA SDN BHD dated 02/07/2019?",
                 [_p("S1", MAJU, "d2"), _p("S2", MAJU_LATER, "d1")])
    assert _first(later.text) == "The total is RM 11.15 [S2].", later.text


def test_a_total_qualifier_picks_the_receipt_for_a_date_question() -> None:
    passages = [_p("S1", MAJU, "d1"), _p("S2", MAJU_LATER, "d2")]
    answer = read("What is the date of the receipt from KEDAI RUNCIT MAJU JAYA SDN BHD with the total 11.15?",
                  passages)
    assert _first(answer.text) == "The date is 02/07/2019 [S2].", answer.text


def test_a_document_is_selected_by_all_its_passages_and_by_file_name() -> None:
    head, tail = MAJU.split("SUB TOTAL")
    passages = [_p("S1", BAKERY, "d1"), _p("S2", "SUB TOTAL" + tail, "d2"), _p("S3", head, "d2")]
    answer = read("How much is the total on the receipt from Kedai Runcit Maju Jaya?", passages)
    assert _first(answer.text) == "The total is RM 23.85 [S2].", answer.text
    by_file = read("What is the total in receipt-0042.jpg?",
                   [_p("S1", MAJU, "d1", "receipt-0017.jpg"), _p("S2", BAKERY, "d2", "receipt-0042.jpg")])
    assert _first(by_file.text) == "The total is 5.51 [S2].", by_file.text


def test_a_company_named_as_the_filing_selects_its_document() -> None:
    msft = "Microsoft Corporation\nTotal revenue $ 52,747 $ 51,728\nMicrosoft | FY23 Q2 10-Q | 4"
    apple = "Apple Inc. | Q1 2023 Form 10-Q | 7\nTotal net sales $ 117,154"
    passages = [_p("S1", msft, "m", "MSFT 10-Q.pdf"), _p("S2", apple, "a", "AAPL 10-Q.pdf")]
    answer = read("What were total net sales in Apple's 10-Q?", passages)
    assert "[S2]" in _first(answer.text) and "117,154" in _first(answer.text), answer.text
    missing = read("What were total net sales in Tesla's 10-Q?", passages)
    assert missing.declined and "Tesla" in missing.text and missing.quotes == ()


def test_korean_and_japanese_named_receipts() -> None:
    ko = [_p("S1", KO_BOOKS, "k1", "영수증1.jpg"), _p("S2", KO_CAFE, "k2", "영수증2.jpg")]
    answer = read("카페 봄날의 영수증 합계는 얼마입니까?", ko)
    assert _first(answer.text) == "합계는 9,000원입니다 [S2].", answer.text
    absent = read("행복 베이커리의 영수증 합계는 얼마입니까?", ko)
    assert absent.declined and "찾을 수 없습니다" in absent.text and absent.quotes == ()
    ja = [_p("S1", JA_CAFE, "j1", "r1.jpg"), _p("S2", JA_BOOKS, "j2", "r2.jpg")]
    total_ja = read("さくら書店の領収書の合計はいくらですか？", ja)
    assert _first(total_ja.text) == "合計は¥1,620です [S2]。", total_ja.text
    swapped = [_p("S1", JA_BOOKS, "j2", "r2.jpg"), _p("S2", JA_CAFE, "j1", "r1.jpg")]
    date_ja = read("喫茶 みどりのレシートの日付はいつですか？", swapped)
    assert "2018年3月2日" in _first(date_ja.text) and "[S2]" in _first(date_ja.text), date_ja.text
    none_ja = read("ひまわり食堂の領収書の合計はいくらですか？", ja)
    assert none_ja.declined and "見つかりません" in none_ja.text


# --------------------------------------------------------------------------------------------- the total amount


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (MAJU, "RM 23.85"),  # not Total Qty: 3, Total Item(s): 2, Total : 19:32:35, SUB TOTAL or CASH
        (BAKERY, "5.51"),  # Total (incl. SST)
        (COLUMNS, "46.00"),  # label column, then amount column: Total After Rounding
        (ROUNDING, "9.00"),  # Nett Total over the plain pre-rounding Total
        (INVOICE, "1,440.00"),  # Amount Due
        (KO_CAFE, "9,000원"),
        (JA_BOOKS, "¥1,620"),
    ],
)
def test_the_grand_total_is_a_money_value_by_receipt_semantics(text: str, value: str) -> None:
    pick = total(text)
    assert pick is not None and pick.value == value, pick


def test_total_questions_over_receipts_answer_the_money_total() -> None:
    for question in ("What is the total amount?", "How much did I pay?", "What is the amount due?"):
        answer = read(question, [_p("S1", MAJU, "d1")])
        assert _first(answer.text) == "The total is RM 23.85 [S1].", (question, answer.text)
    tax = read("What is the GST amount on the receipt?", [_p("S1", BAKERY, "d1")])
    assert "5.51" not in _first(tax.text)


def test_money_shapes() -> None:
    values = [m.value for m in monies("Total Qty: 7  Total : 19:32:35  GST 6% : 0.51  TOTAL RM9,00 TEL 03-12345678")]
    assert values == [0.51, 9.0]
    assert [m.raw for m in monies("합계 12,000원 / 合計 ¥1,620 / 3 pcs")] == ["12,000원", "¥1,620"]


# ------------------------------------------------------------------------------------------------------ dates


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("INV NO: CS00123  DATE:15/06/2019 TIME: 19:32:35", "15/06/2019"),
        ("DATE 03-11-17", "03-11-17"),
        ("TARIKH: 2018.01.12  12:41", "2018.01.12"),
        ("12-JAN-18 10:05 CASHIER 2", "12-JAN-18"),
        ("2018年1月12日 15:02", "2018年1月12日"),
        ("2019년 5월 3일 14:20", "2019년 5월 3일"),
        ("Printed 10/04/2019\nInvoice Date: 03/04/2019\nDue Date: 03/05/2019", "03/04/2019"),
    ],
)
def test_the_receipt_date_by_shape_and_label(text: str, want: str) -> None:
    pick = date(text)
    assert pick is not None and pick.value == want, pick
    assert find_dates(want)


def test_a_plain_date_question_gets_the_transaction_date_not_the_due_date() -> None:
    answer = read("What is the date of the invoice?", [_p("S1", INVOICE, "i1", "invoice.pdf")])
    assert _first(answer.text) == "The date is 03/04/2019 [S1].", answer.text
    due = read("What is the due date of the invoice?", [_p("S1", INVOICE, "i1", "invoice.pdf")])
    assert "03/05/2019" in _first(due.text), due.text
    shaped = read("When was this receipt issued?", [_p("S1", COLUMNS, "c1")])
    assert "03-11-17" in _first(shaped.text), shaped.text


# ------------------------------------------------------------------------------------------ parsing and matching


def test_parse_selector_takes_the_document_clause_out_of_the_question() -> None:
    question = "What is the total amount on the receipt from ABC TRADING (M) SDN BHD dated 1 Feb 2018?"
    sel, asked = parse_selector(question)
    assert sel.names == ("ABC TRADING (M) SDN BHD",) and [d.day for d in sel.dates] == [1]
    assert asked == "What is the total amount on the receipt?"
    sel, asked = parse_selector("What is the date of the receipt from ABC TRADING with the total RM 9.00?")
    assert sel.amounts == (9.0,) and asked == "What is the date of the receipt?"
    assert parse_selector("What was Apple's total net sales for the quarter ended December 31, 2022?")[0].empty
    assert parse_selector("What is the total amount of this receipt?")[0].empty
    sel, asked = parse_selector("카페 봄날의 영수증 합계는 얼마입니까?")
    assert sel.names == ("카페 봄날",) and asked == "영수증 합계는 얼마입니까?"
    sel, asked = parse_selector("さくら書店の領収書の合計はいくらですか？")
    assert sel.names == ("さくら書店",) and asked == "領収書の合計はいくらですか？"
    # what a report is about is no part of its issuer's name ("… a report by Harbor on plastic packaging"); a name
    # that goes on in capitals does ("the receipt from Cafe on Main")
    sel, _ = parse_selector("What was the outcome of the vote on a report by Harbor on plastic packaging?")
    assert sel.names == ("Harbor",)
    assert parse_selector("What is the total on the receipt from Cafe on Main?")[0].names == ("Cafe on Main",)


def test_fuzzy_names_tolerate_ocr_but_not_other_shops() -> None:
    assert fuzzy_find(compact("SANYU STATIONERY SHOP"), compact("SANYU STAT1ONERY SH0P"), 2)
    assert not fuzzy_find(compact("SANYU STATIONERY SHOP"), compact("SINAR STATIONERY SHOP"), 2)
    doc = [_p("S1", MAJU, "d1")]
    assert match_strength("Kedai Runcit Maju Jaya Sdn. Bhd.", doc) == 2
    assert match_strength("KEDAI RUNCIT MAJU", doc) == 2
    assert match_strength("KEDAI RUNCIT SUKA RIA SDN BHD", doc) == 0


def test_a_named_document_is_searched_as_one_and_the_bedrock_prompt_has_the_same_rule() -> None:
    question = "What is the total amount on the receipt from SERI BAKERY & CAFE?"
    assert per_name_questions(question) == [question]
    assert per_name_questions("What were the net sales of Apple and Amazon?") != ["What were the net sales of Apple "
                                                                                   "and Amazon?"]
    assert "that picks the document, it is not what is asked" in SYSTEM_PROMPT
    assert "grand total" in SYSTEM_PROMPT


def test_two_columns_read_as_one_line_keep_each_label_with_its_amount() -> None:
    text = "KEDAI BUKU ILMU\nSub Total: 18.00 Items: 2\nTOTAL: 19.08 CASH: 20.00\nGST 6%: 1.08 CHANGE: 0.92"
    pick = total(text)
    assert pick is not None and pick.value == "19.08" and text[pick.span[0] : pick.span[1]] == "TOTAL: 19.08"


def test_a_name_garbled_beyond_its_edits_still_matches_by_most_of_its_words() -> None:
    doc = [_p("S1", MAJU.replace("KEDAI RUNCIT MAJU JAYA", "KEDA1  RUNC1T  MAJV  JAYA  "), "d1")]
    assert match_strength("KEDAI RUNCIT MAJU JAYA TRADING", doc) >= 1
    assert match_strength("KEDAI SERBA MURAH TRADING", doc) == 0
    assert total("T0TAL : 12.60\nCASH 20.00\nCHANGE 7.40") is not None


def test_ocr_garbled_numeric_dates_are_read() -> None:
    assert [p.text for p in find_dates("DATE : 12/O3/2018 TIME 10:22")] == ["12/03/2018"]
    assert [p.text for p in find_dates("Tarikh: 05 / 11 / 2017")] == ["05/11/2017"]
    assert find_dates("TEL 03-7865 1234  QTY 2 x 3.50") == []
    pick = date("RESIT\nDATE : 12/O3/2018 10:22\nTOTAL 5.00\nCASH 5.00")
    assert pick is not None and pick.value == "12/03/2018"


def test_a_receipt_laid_out_as_a_two_column_table_by_ingest() -> None:
    text = ("ALPHA MINI MARKET\nNO 3 JALAN SATU\n|  |  |\n|---|---|\n| DATE: 25/12/2018 TIME | 10:30 |\n"
            "| MILK 2 X 3.50 7.00 |  |\n| TOTAL RM 9.00 |  |\n| THANK YOU |  |")
    passages = [_p("S1", text, "a1", "alpha.pdf")]
    assert _first(read("What is the total amount on the receipt from ALPHA MINI MARKET?", passages).text) == (
        "The total is RM 9.00 [S1].")
    assert _first(read("What is the date of the receipt from ALPHA MINI MARKET?", passages).text) == (
        "The date is 25/12/2018 [S1].")


def test_a_total_inclusive_of_tax_is_the_grand_total_however_worded() -> None:
    for label in ("Total Amt Incl GST", "TOTAL GST INCLUSIVE", "Net Amount (Incl. SST)"):
        text = f"KEDAI ABC\nSub Total 10.00\nGST 6% 0.60\n{label} 10.60\nCash 20.00\nChange 9.40"
        pick = total(text)
        assert pick is not None and pick.value == "10.60" and pick.label == label, (label, pick)


def test_a_currency_alone_between_label_and_amount_and_ocr_digit_for_letter() -> None:
    pick = total("KEDAI XYZ\nSUB TOTAL\nRM\n8.49\nTOTAL\nRM\n9.00\nCASH\nRM\n10.00")
    assert pick is not None and pick.value == "9.00", pick
    pick = total("Sub Tota1 : 8.49\nTota1 : 9.00\nCash : 10.00")
    assert pick is not None and pick.value == "9.00", pick


def test_pages_to_read_for_a_named_document_whose_results_did_not_answer() -> None:
    head = _p("S1", "KEDAI RUNCIT MAJU JAYA SDN BHD\nNO 12, JALAN MERANTI 3", "d1", "r1.jpg")
    other = _p("S2", BAKERY, "d2", "r2.jpg", page=1)
    question = "What is the total amount on the receipt from KEDAI RUNCIT MAJU JAYA SDN BHD?"
    assert pages_to_read(question, [other, head]) == [("d1", 1)]  # matched: its own page, not the others'
    assert pages_to_read("What is the total amount on the receipt from GOLDEN DRAGON?", [other, head]) == [
        ("d2", 1), ("d1", 1)]  # none matched: the top results' pages
    assert pages_to_read("What is the total amount?", [other, head]) == []  # nothing named
    page = _p("P1", MAJU, "d1", "r1.jpg")
    assert pages_to_read(question, [head, page]) == []  # read already


def test_generic_document_words_in_korean_and_japanese_questions_select_nothing() -> None:
    for question in ("유엔 보고서에 따르면 난민 수는 몇 명인가?", "政府の資料によると人口はいくらですか？",
                     "이 문서의 작성자는 누구인가?"):
        assert parse_selector(question)[0].empty, question


def test_malay_month_names_and_a_header_chunk_laid_out_as_a_wide_table() -> None:
    assert [p.text for p in find_dates("TARIKH: 12 Mac 2018 10:22")] == ["12 Mac 2018 (2018-03-12)"]
    assert [p.month for p in find_dates("03-OGOS-19 / 5 Dis 2017")] == [8, 12]
    header = ("KEDAI BUKU CAHAYA\nTARIKH: 12 Mac 2018 10:22\n| ITEM | QTY | RM |\n|---|---|---|\n"
              "| PEN | 2 | 3.00 |")
    answer = read("What is the date of the receipt from KEDAI BUKU CAHAYA?", [_p("S1", header, "h1")])
    assert _first(answer.text) == "The date is 12 Mac 2018 (2018-03-12) [S1].", answer.text


def test_name_query_searches_for_a_named_document_no_result_is_from() -> None:
    question = "What is the date of the receipt from KEDAI RUNCIT MAJU JAYA SDN BHD with the total 23.85?"
    assert name_query(question, [_p("S1", BAKERY, "d1")]) == "KEDAI RUNCIT MAJU JAYA SDN BHD"
    assert name_query(question, [_p("S1", MAJU, "d2")]) == ""  # found
    assert name_query("What is the date of the receipt?", [_p("S1", BAKERY, "d1")]) == ""  # nothing named


STATEMENT = """CONDENSED CONSOLIDATED STATEMENTS OF COMPREHENSIVE INCOME (Unaudited)
(In millions)
|  | Three Months Ended / March 31, 2024 | Three Months Ended / March 25, 2023 |
|---|---|---|
| Net income | $21,448 | $24,160 |
| Change in foreign currency translation, net of tax | (22) | (140) |
| Adjustment for net (gains)/losses realized and included in net income | (1,310) | 87 |
| Total change in unrealized gains/losses on derivative instruments | (2,015) | 380 |"""


def test_a_statements_rows_are_not_a_receipts_total_lines() -> None:
    # "net … included" is not "net amount incl. tax", and a row with one amount per period is no total line
    assert total(STATEMENT) is None or total(STATEMENT).value not in ("(1,310)", "1,310")
    receipt = _p("S1", "KEDAI ABC\nItem A 1 PC 9.00\nTotal :\n9.00\nCash\n10.00\nChange\n1.00", "r1", "r1.jpg")
    statement = _p("S2", STATEMENT, "d2", "10-Q.pdf", page=4)
    for order in ([receipt, statement], [statement, receipt]):
        assert _first(read("What is the total on the receipt?", order).text).startswith("The total is 9.00 [S")


# ------------------------------------------------------------------------ dates robust in kind (issue 12)

HEADER = """KEDAI SERBANEKA HARAPAN SDN BHD
NO 3 JALAN CEMPAKA 2, 43000 KAJANG
TEL: 03-8736 1122
TAX INVOICE
{d}
CASHIER: AMIN"""
ITEMS = "ROTI 2 x 1.50 3.00\nSUB TOTAL 3.00\nTOTAL 3.00\nCASH 5.00\nCHANGE 2.00"


def _date_answer(question: str, date_line: str, *, split: bool = False) -> str:
    head = HEADER.format(d=date_line)
    passages = ([_p("S1", head, "h1", "harapan.jpg"), _p("S2", ITEMS, "h1", "harapan.jpg")] if split
                else [_p("S1", head + "\n" + ITEMS, "h1", "harapan.jpg")])
    return _first(read(question, passages).text)


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("Date : l2/03/2018", "12/03/2018"),  # l for 1: not "2/03/2018"
        ("Date: 1S/03/2018", "15/03/2018"),  # S for 5
        ("DATE: 1O/O3/2O18", "10/03/2018"),
        ("DATE:12/03/201810:22:01", "12/03/2018"),  # the time glued to the year
        ("Date: 12,03,2018", "12.03.2018"),  # OCR's comma for a dot
        ("3 OGO 2019 10:22", "3 OGO 2019 (2019-08-03)"),  # Malay abbreviation (Ogos)
        ("Date: 12th March 2018", "12th March 2018 (2018-03-12)"),
        ("Date: 12 Mar, 2018", "12 Mar, 2018 (2018-03-12)"),
    ],
)
def test_ocr_noisy_dates_and_month_words_are_stated_cleanly(line: str, said: str) -> None:
    assert _date_answer("What is the date of the receipt?", line) == f"The date is {said} [S1]."


def test_the_transaction_date_beats_membership_expiry_and_print_dates() -> None:
    for other in ("Member since 01/01/2015", "Points expire 31/12/2019", "Printed: 20/03/2018 09:00",
                  "Warranty until 12/03/2019"):
        line = f"{other}\n12/03/2018"
        assert _date_answer("What is the date of the receipt?", line) == "The date is 12/03/2018 [S1].", other


@pytest.mark.parametrize(
    "question",
    ["receipt date?", "Date of purchase?", "When was it issued?", "What is the date?", "날짜는?", "日付は？",
     "영수증 날짜가 언제야?", "このレシートの日付はいつですか？"],
)
def test_date_phrasings_over_a_header_chunk_with_a_garbled_date(question: str) -> None:
    # the date is in the receipt's header chunk (no totals there), and OCR read "l2/O3/2018"
    said = _date_answer(question, "DATE: l2/O3/2018", split=True)
    assert "12/03/2018" in said and "[S1]" in said, (question, said)


def test_an_event_date_question_is_not_answered_with_the_documents_date() -> None:
    from chat.models.reader.question import analyze
    from chat.models.reader.receipts import asks_document_date

    assert asks_document_date(analyze("When was it issued?")) and asks_document_date(analyze("receipt date?"))
    assert asks_document_date(analyze("What is the due date?"))
    assert not asks_document_date(analyze("When was the merger completed?"))
    assert not asks_document_date(analyze("When did the company go public?"))


def test_a_japanese_receipt_dated_by_its_era_year() -> None:
    receipt = "喫茶 さくら\n東京都港区1-2-3\n令和2年3月12日 14:05\nコーヒー 450\n合計 ¥450\nお預り ¥500\nお釣 ¥50"
    said = _first(read("このレシートの日付はいつですか？", [_p("S1", receipt, "k1", "sakura.jpg")]).text)
    assert "2020-03-12" in said and "[S1]" in said, said
