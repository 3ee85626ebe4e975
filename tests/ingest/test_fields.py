"""Key fields (ingest/fields): values, normal forms, boxes, evidence-based confidence and the review rules."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from ingest.fields.extract import document_fields, rows_of
from ingest.fields.parse import amounts, dates
from ingest.fields.rules import FieldRules, check
from ingest.steps.fields import extract, fields_document, review_requests

TODAY = date(2024, 6, 1)


def seg(rows, *, page=1, source="ocr", conf=0.99):
    """A segment whose rows may be split in two boxes (label left, value right), as OCR returns them."""
    lines = []
    for i, row in enumerate(rows):
        parts = row if isinstance(row, tuple) else (row,)
        for j, text in enumerate(parts):
            c = conf[i] if isinstance(conf, dict) and i in conf else (conf if not isinstance(conf, dict) else 0.99)
            lines.append({"text": text, "bbox": [10 + 200 * j, 20 * i, 150 + 200 * j, 20 * i + 14], "confidence": c})
    return {"page": page, "source": source, "lines": lines, "tables": []}


def by_name(fields):
    return {f.name: f for f in fields}


def test_parse_amounts_dates_and_currencies_in_three_languages() -> None:
    assert [(a.value, a.currency) for a in amounts("TOTAL RM 1,234.50")] == [(Decimal("1234.50"), "MYR")]
    assert [(a.value, a.currency) for a in amounts("합계 12,000원")] == [(Decimal("12000"), "KRW")]
    assert [(a.value, a.currency) for a in amounts("合計 ¥1,200")] == [(Decimal("1200"), "JPY")]
    assert amounts("GST Reg:001125220352") == []  # a registration number is not an amount
    iso = [d.value.isoformat() for d in dates("25/12/2018 8:13 PM, 2018-03-23, 05 MAR 2018, 2023년 5월 1일, "
                                               "2023年5月1日, 16-03-201812:07:10")]
    assert iso == ["2018-12-25", "2018-03-23", "2018-03-05", "2023-05-01", "2023-05-01", "2018-03-16"]
    assert dates("03/04/2018")[0].strength < dates("25/12/2018")[0].strength  # day/month order ambiguous


def test_rows_are_rebuilt_from_boxes_on_one_line() -> None:
    rows = rows_of(seg([("TOTAL", "9.00"), "THANK YOU"])["lines"])
    assert [r.text for r in rows] == ["TOTAL 9.00", "THANK YOU"]


def test_an_english_receipt_agreeing_with_itself_is_accepted() -> None:
    s = seg(["ACME TRADING SDN BHD", "NO 5 JALAN SATU", ("Invoice No:", "INV-2024-0042"), ("Date:", "25/12/2023"),
             ("Sub Total", "8.49"), ("GST 6%", "0.51"), ("Total Incl. GST", "RM 9.00"), ("CASH", "10.00"),
             ("CHANGE", "1.00")], conf=0.97)
    found = by_name(document_fields([s]))
    t = found["total"]
    assert (t.value, t.normalized, t.currency, t.page, t.source) == ("9.00", "9.00", "MYR", 1, "ocr")
    assert t.bbox == [10.0, 120.0, 350.0, 134.0]
    # OCR alone says 0.97; subtotal + tax and cash - change agree, so the total is far surer than any one line
    assert t.confidence > 0.99 and t.evidence["checks"] == {"subtotal_plus_tax": True, "cash_minus_change": True}
    assert found["date"].normalized == "2023-12-25" and found["doc_number"].normalized == "INV-2024-0042"
    assert found["company"].normalized == "ACME TRADING SDN BHD" and found["currency"].normalized == "MYR"
    flags = check(list(found.values()), FieldRules(min_confidence=0.9), today=TODAY)
    assert [f.field for f in flags if f.field in ("total", "date", "company")] == []


def test_korean_and_japanese_invoices() -> None:
    ko = by_name(document_fields([seg(["(주)한빛상사", ("작성일자", "2024년 3월 5일"), ("공급가액", "100,000원"),
                                       ("부가세", "10,000원"), ("합계", "110,000원")])]))
    assert (ko["subtotal"].normalized, ko["tax"].normalized, ko["total"].normalized) == ("100000", "10000", "110000")
    assert ko["total"].currency == "KRW" and ko["date"].normalized == "2024-03-05"
    assert ko["company"].value == "(주)한빛상사" and ko["total"].evidence["checks"]["subtotal_plus_tax"]
    ja = by_name(document_fields([seg(["株式会社サンプル", ("発行日", "2024年4月1日"), ("小計", "¥1,000"),
                                       ("消費税", "¥100"), ("合計", "¥1,100")])]))
    assert (ja["total"].normalized, ja["total"].currency, ja["date"].normalized) == ("1100", "JPY", "2024-04-01")
    assert ja["total"].evidence["checks"]["subtotal_plus_tax"]


def test_the_rules_send_doubtful_fields_to_review_with_the_reason() -> None:
    # a total that does not add up, read from a faint line; an impossible date; nothing else wrong
    s = seg(["ACME TRADING SDN BHD", ("Date:", "25/12/1975"), ("Sub Total", "8.00"), ("Tax", "0.51"),
             ("Total", "9.00")], conf={4: 0.93})
    found, flags = extract([s], FieldRules(), today=TODAY)
    reasons = {(f.field, f.reason) for f in flags}
    assert ("total", "low_confidence") in reasons and ("total", "total_mismatch") in reasons
    assert ("date", "implausible_date") in reasons
    doc = fields_document(found, flags)
    total = next(f for f in doc["fields"] if f["name"] == "total")
    assert total["review"] and doc["needs_review"]
    req = {r["field"]: r for r in review_requests(doc, flags)}
    assert req["total"]["value"] == "9.00" and req["total"]["page"] == 1 and req["total"]["bbox"]
    # a required field that is missing sends the document; rules are per project
    _, flags = extract([seg(["ACME TRADING SDN BHD", ("Total", "9.00")])], FieldRules(), today=TODAY)
    assert ("date", "missing") in {(f.field, f.reason) for f in flags}
    lax = FieldRules.from_json({"required": ["total"], "amount_min_confidence": 0.5, "unknown": 1})
    _, flags = extract([seg(["ACME TRADING SDN BHD", ("Total", "9.00")], conf=0.9)], lax, today=TODAY)
    assert [f for f in flags if f.field == "total"] == []
    big = FieldRules.from_json({"max_amount": "5"})
    _, flags = extract([seg([("Total", "9.00")])], big, today=TODAY)
    assert ("total", "amount_out_of_range") in {(f.field, f.reason) for f in flags}


def test_the_grand_total_wins_over_other_totals_and_summaries() -> None:
    s = seg([("Total Saving 0.00", "Total 77.20"), ("Total QTY:", "8"), ("Total (Inclusive of GST):", "9.60"),
             "GST Summary Amount(RM) Tax(RM)", ("Total:", "9.07 0.53")])
    assert by_name(document_fields([s]))["total"].normalized == "9.60"
    conflict = by_name(document_fields([seg([("Grand Total", "9.60"), ("Grand Total", "19.60")])]))["total"]
    assert conflict.evidence["conflicts"] and conflict.confidence < 0.99 * 0.99
