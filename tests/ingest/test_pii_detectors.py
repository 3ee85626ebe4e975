"""PII detectors, check digits and masking (pure): what is found, what must not be, placeholders."""

from __future__ import annotations

import pytest

from bench.pii import score
from bench.pii_corpus import corpus
from ingest.pii.checks import card_network_ok, iban_ok, luhn_ok, my_number_ok, rrn_checksum_ok, ssn_ok
from ingest.pii.detectors import detect
from ingest.pii.masking import Placeholders, mask, mask_all


def found(text: str) -> list[tuple[str, str]]:
    return [(f.type, text[f.start:f.end]) for f in detect(text)]


def test_check_digits() -> None:
    assert rrn_checksum_ok("9001011234568") and not rrn_checksum_ok("9001011234567")
    assert rrn_checksum_ok("9001015234561")  # foreigner number: (13 - Σ mod 11) mod 10
    assert my_number_ok("123456789018") and not my_number_ok("123456789012")
    assert luhn_ok("4111111111111111") and not luhn_ok("4111111111111112")
    assert card_network_ok("4111111111111111") and not card_network_ok("9111111111111111")
    assert iban_ok("DE89370400440532013000") and not iban_ok("DE88370400440532013000")
    assert iban_ok("GB82WEST12345698765432")
    assert ssn_ok("078051120") and not ssn_ok("666051120") and not ssn_ok("900051120") and not ssn_ok("078001120")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("주민등록번호: 900101-1234568", [("RRN", "900101-1234568")]),
        ("외국인등록번호 900101-5234561", [("RRN", "900101-5234561")]),
        ("番号 1234-5678-9018", [("MY_NUMBER", "1234-5678-9018")]),
        ("個人番号 1234 5678 9018", [("MY_NUMBER", "1234 5678 9018")]),
        ("マイナンバー 123456789018", [("MY_NUMBER", "123456789018")]),
        ("SSN 078-05-1120", [("SSN", "078-05-1120")]),
        ("Social Security number 078051120", [("SSN", "078051120")]),
        ("card 4111-1111-1111-1111 exp 09/27", [("CARD", "4111-1111-1111-1111")]),
        ("Amex 3782 822463 10005", [("CARD", "3782 822463 10005")]),
        ("IBAN DE89 3704 0044 0532 0130 00 EUR", [("IBAN", "DE89 3704 0044 0532 0130 00")]),
        ("계좌번호: 국민은행 110-123-456789", [("ACCOUNT", "110-123-456789")]),
        ("口座番号 普通 1234567", [("ACCOUNT", "1234567")]),
        ("Account No. 000123456789", [("ACCOUNT", "000123456789")]),
        ("문의 010-1234-5678 또는 02-312-3456", [("PHONE", "010-1234-5678"), ("PHONE", "02-312-3456")]),
        ("電話 03-1234-5678 / 090-1234-5678", [("PHONE", "03-1234-5678"), ("PHONE", "090-1234-5678")]),
        ("call (415) 555-2671 or +44 20 7946 0958", [("PHONE", "(415) 555-2671"), ("PHONE", "+44 20 7946 0958")]),
        ("mail john.doe+x@example.co.kr.", [("EMAIL", "john.doe+x@example.co.kr")]),
        ("連絡先：０３－１２３４－５６７８、個人番号　１２３４　５６７８　９０１８",
         [("PHONE", "０３－１２３４－５６７８"), ("MY_NUMBER", "１２３４　５６７８　９０１８")]),  # full-width forms
        ("from 192.168.10.4 and 2001:db8::7:1", [("IP", "192.168.10.4"), ("IP", "2001:db8::7:1")]),
        ("여권번호 M123A4567, Passport No. 123456789", [("PASSPORT", "M123A4567"), ("PASSPORT", "123456789")]),
        ("생년월일 1990년 1월 2일; 生年月日：1985年4月12日; Date of birth: March 5, 1990",
         [("DOB", "1990년 1월 2일"), ("DOB", "1985年4月12日"), ("DOB", "March 5, 1990")]),
    ],
)
def test_planted_values_are_found_with_their_exact_span(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "접수번호 900101-1234567",  # fails the RRN check digit, no label
        "접수번호 901301-1234568",  # month 13
        "管理番号 1234 5678 9012",  # fails the My Number check digit
        "管理番号 1234 5678 9018",  # passes it, but neither labelled nor written 1234-5678-9018
        "(in millions) Year Ended December 31, 2015 2016 2017 Net sales",  # years in a row pass the check too
        "order 4111 1111 1111 1112 shipped",  # fails Luhn
        "order 9111 1111 1111 1111",  # no card network starts with 9
        "code DE88 3704 0044 0532 0130 00",  # fails mod 97
        "ticket 666-12-3456 and 900-12-3456",  # SSN areas never issued
        "invoice 110-123-456789",  # account-shaped, but no label
        "signed on 1990-01-02",  # a date without a DOB label
        "model M12345678",  # passport-shaped, no label
        "dial 123-456-7890",  # no US area code 123
        "version 999.1.2.3 and section 1.2.3.4 at 10:30:00",
        "user@localhost",
        "Net sales were $94.8 billion, up 1.4% from 2,345,678 in fiscal 2022 (Note 7, page 12).",
        "Commission File Number: 001-36743; CUSIP 037833100; 2023-10-29; 0-12345; 12345678901234567",
        "Total 12,345 | 67,890 | 1,234,567 | (4,321) | 98.7% | 2021 2022 2023 2024",
        "2023년 매출액은 1,234억 원, 공시번호 20240315000123; 証券コード 7203、発行済株式数 16,314,987,460株",
        "The accounts payable balance of 12,345,678 and account receivable 1234567",
    ],
)
def test_near_misses_and_financial_numbers_are_not_personal_data(text: str) -> None:
    assert found(text) == []


def test_a_label_on_the_previous_line_does_not_vouch_for_a_number() -> None:
    assert found("주민번호 650526-2752188 확인\n접수번호 500904-1972975") == [("RRN", "650526-2752188")]
    assert found("주민번호: 500904-1972975") == [("RRN", "500904-1972975")]  # post-2020 numbers: no check digit


def test_placeholders_are_typed_and_stable_for_the_same_value_in_any_format() -> None:
    ph = Placeholders()
    a = mask("call 010-1234-5678 or mail kim@example.com", ph)
    b = mask("전화 010 1234 5678, 또는 010-9999-8888; KIM@example.com", ph)
    assert a == "call [PHONE_1] or mail [EMAIL_1]"
    assert b == "전화 [PHONE_1], 또는 [PHONE_2]; [EMAIL_1]"
    assert mask("電話 ０１０－１２３４－５６７８", ph) == "電話 [PHONE_1]"  # full width: the same value
    restored = Placeholders.from_json(ph.to_json())
    assert mask("again 010-9999-8888", restored) == "again [PHONE_2]"
    assert mask("new 010-2222-3333", restored) == "new [PHONE_3]"


def test_a_known_value_is_masked_even_where_its_label_is_missing() -> None:
    ph = Placeholders()
    assert mask("계좌번호 110-123-456789", ph) == "계좌번호 [ACCOUNT_1]"
    # the next chunk starts after the label: the detectors alone would not call it an account
    assert found("110-123-456789 (예금주)") == []
    assert mask("110-123-456789 (예금주)", ph) == "[ACCOUNT_1] (예금주)"
    assert mask("x1110-123-4567890", ph) == "x1110-123-4567890"  # not inside a longer number


def test_mask_all_numbers_several_texts_together() -> None:
    assert mask_all(["a 010-1234-5678", "b 010-1234-5678 c 010-5555-6666"]) == ["a [PHONE_1]",
                                                                              "b [PHONE_1] c [PHONE_2]"]


def test_synthetic_corpus_meets_the_targets() -> None:
    rows = score(corpus(seed=7, docs=150))  # another seed than the bench's default
    for t in ("RRN", "MY_NUMBER", "CARD", "IBAN"):
        assert rows[t]["recall"] >= 0.98, (t, rows[t])
    assert rows["ALL"]["recall"] >= 0.95 and rows["ALL"]["precision"] >= 0.98, rows["ALL"]
