"""The value's own characters (per-character OCR scores), the transaction's time stamp as a date's label, dates
that are not the document's (expiry, validity) and tax printed as included in the total — on made-up receipts.

RapidOCR scores every character it reads; the line's score is their mean, so one misread digit or letter in a
long, otherwise clean line hides in it. A value is judged by its own characters: its weakest one (a space
says nothing about the value; in a name only letters and digits count)."""

from __future__ import annotations

from datetime import date

from ingest.fields.extract import document_fields, rows_of
from ingest.fields.rules import FieldRules, check
from ingest.steps.ocr import OcrLine, OcrResult, char_scores
from ingest.steps.segment_builder import build_segment

TODAY = date(2024, 6, 1)


def line(text: str, y: int, conf: float = 0.99, *, x: int = 10, weak: dict[int, float] | None = None,
         chars: bool = True) -> dict:
    """One OCR line; ``weak``: character index → score (the others score ``conf``-ish, spaces 0.6)."""
    scores = [0.6 if ch == " " else 1.0 for ch in text]
    for i, s in (weak or {}).items():
        scores[i] = s
    out = {"text": text, "bbox": [x, 20 * y, x + 150, 20 * y + 14], "confidence": conf}
    if chars:
        out["chars"] = scores
    return out


def seg(*lines: dict) -> dict:
    return {"page": 1, "source": "ocr", "lines": list(lines), "tables": []}


def fields_and_reasons(s: dict) -> tuple[dict, dict[str, set[str]]]:
    found = document_fields([s])
    reasons: dict[str, set[str]] = {}
    for f in check(found, FieldRules(), today=TODAY):
        reasons.setdefault(str(f.field), set()).add(f.reason)
    return {f.name: f for f in found}, reasons


HEAD = [line("KEDAI RUNCIT MAJU SDN BHD", 0), line("LOT 7 JALAN MAWAR", 1)]


def test_char_scores_follow_the_text_with_its_spaces_collapsed() -> None:
    assert char_scores("TOTAL  9.00", [1, 1, 1, 1, 1, 0.5, 0.6, 0.9, 0.9, 0.9, 0.9]) == (
        "TOTAL 9.00", (1, 1, 1, 1, 1, 0.5, 0.9, 0.9, 0.9, 0.9))
    assert char_scores(" A", [0.1, 0.9]) == ("A", (0.9,))
    assert char_scores("AB", [0.9]) == ("AB", None)  # not one score per character: none


def test_the_segment_keeps_each_lines_character_scores() -> None:
    ocr = OcrResult(lines=[OcrLine("TOTAL 9.00", (0, 0, 100, 10), 0.95, chars=(1.0,) * 10),
                           OcrLine("THANK YOU", (0, 20, 100, 30), 0.9)], width_px=100, height_px=100)
    lines = build_segment(1, None, ocr, width_pt=100, height_pt=100, width_px=100, height_px=100)["lines"]
    assert lines[0]["chars"] == [1.0] * 10 and "chars" not in lines[1]
    rows = rows_of([line("TOTAL", 0, x=10), line("9.00", 0, x=300, weak={0: 0.5})])
    assert rows[0].text == "TOTAL 9.00" and rows[0].chars[6] == 0.5 and rows[0].own(6, 10) == 0.5


def test_one_misread_digit_in_a_clean_line_sends_the_total_to_review() -> None:
    # the line scores 0.995 (its mean), but the total's "8" scored 0.55: a misread digit
    s = seg(*HEAD, line("Date: 12/05/2024", 2), line("TOTAL RM 28.50", 3, 0.995, weak={10: 0.55}))
    found, reasons = fields_and_reasons(s)
    assert found["total"].normalized == "28.50" and found["total"].confidence < 0.6
    assert "low_confidence" in reasons.get("total", set())
    # the same line with clean digits is accepted
    found, reasons = fields_and_reasons(seg(*HEAD, line("Date: 12/05/2024", 2), line("TOTAL RM 28.50", 3, 0.995)))
    assert "total" not in reasons


def test_a_weak_label_does_not_doubt_a_clean_value() -> None:
    # the line's mean is 0.93 because of the label ("N3T"), the amount's own characters are clean
    s = seg(*HEAD, line("Date: 12/05/2024", 2), line("NET TOTAL 343.95", 3, 0.93, weak={0: 0.5, 1: 0.4, 2: 0.5}))
    found, reasons = fields_and_reasons(s)
    assert found["total"].normalized == "343.95" and "total" not in reasons


def test_a_company_name_with_one_weak_letter_is_reviewed_a_weak_stop_is_not() -> None:
    base = [line("Date: 12/05/2024", 2), line("TOTAL 21.20", 3)]
    # "KEDAI RUNCIT MAJU SDN BHD" read at 0.985 on the line, its "R" at 0.5
    _, reasons = fields_and_reasons(seg(line("KEDAI RUNCIT MAJU SDN BHD", 0, 0.985, weak={6: 0.5}), *base))
    assert "low_confidence" in reasons.get("company", set())
    # a weak full stop (or the spaces) says nothing about the name's letters
    found, reasons = fields_and_reasons(seg(line("KEDAI R.M. MAJU SDN BHD", 0, 0.985, weak={7: 0.5}), *base))
    assert found["company"].normalized == "KEDAI R.M. MAJU SDN BHD" and "company" not in reasons


def test_a_date_printed_with_the_time_is_the_transaction_stamp() -> None:
    s = seg(*HEAD, line("CB#:8787 21/09/2017 10:20:37 AM", 2), line("TOTAL 21.20", 3))
    found, reasons = fields_and_reasons(s)
    assert found["date"].normalized == "2017-09-21" and "date" not in reasons
    # without a label or a time it is still a date found by its shape only
    _, reasons = fields_and_reasons(seg(*HEAD, line("CB#:8787 21/09/2017", 2), line("TOTAL 21.20", 3)))
    assert "no_label" in reasons["date"]


def test_an_expiry_date_is_neither_the_date_nor_its_rival() -> None:
    s = seg(*HEAD, line("18-01-2018 15:44:46 Cashier: 888", 2), line("TOTAL 41.95", 3),
            line("POINTS Expiry 24 31/10/2020", 4, 1.0), line("136 30/11/2020", 5, 1.0))
    found, reasons = fields_and_reasons(s)
    assert found["date"].normalized == "2018-01-18"
    assert "date" not in reasons  # the bare 30/11/2020 is no rival of the time-stamped date
    # two time-stamped dates that differ are rivals
    _, reasons = fields_and_reasons(seg(*HEAD, line("18-01-2018 15:44", 2), line("TOTAL 41.95", 3),
                                        line("19-01-2018 09:10", 4)))
    assert "candidates_disagree" in reasons["date"]


def test_tax_printed_as_included_in_the_total_is_the_tax() -> None:
    s = seg(*HEAD, line("Date: 12/05/2024 10:31", 2), line("Total Incl. GST@6% RM 42.90", 3), line("CASH RM 50.00", 4),
            line("CHANGE RM 7.10", 5), line("GST @6% included in total RM 2.43", 6))
    found, reasons = fields_and_reasons(s)
    assert found["total"].normalized == "42.90" and found["tax"].normalized == "2.43"
    assert "total" not in reasons


def test_a_name_that_starts_on_the_row_above_is_reviewed() -> None:
    from ingest.fields.evidence import name_continues

    base = [line("Date: 12/05/2024 10:31", 3), line("TOTAL 21.20", 4)]
    # "CT281 - Maju Shell Kepong" / "Ottogo Enterprise": the registered name spans both rows
    _, reasons = fields_and_reasons(seg(line("CT281 - Maju Shell Kepong", 0), line("OTTOGO ENTERPRISE", 1), *base))
    assert "name_split" in reasons.get("company", set())
    # a logo line repeating the name (however garbled), a document title, an all-lowercase note: no doubt
    assert not name_continues("Ber's Indepenctent Grocer", "BENS INDEPENDENT GROCER SDN. BHD")
    assert not name_continues("TAX INVOICE", "MAJU TRADING SDN BHD")
    assert not name_continues("tan ah kow", "MAJU TRADING SDN BHD")
    assert not name_continues("NO 7, JALAN MAWAR,", "MAJU TRADING SDN BHD")
    found, reasons = fields_and_reasons(seg(line("Kedai Runcit Maju", 0), line("KEDAI RUNCIT MAJU SDN BHD", 1), *base))
    assert found["company"].normalized == "KEDAI RUNCIT MAJU SDN BHD" and "company" not in reasons


def test_the_shared_date_parser_reads_ocr_noisy_dates_and_month_names() -> None:
    from ingest.fields.parse import dates

    def iso(text: str) -> list[str]:
        return [d.value.isoformat() for d in dates(text)]

    assert iso("DATE: 1O/O3/2O18") == ["2018-03-10"] and iso("Date : l2/03/2018") == ["2018-03-12"]
    assert iso("Date: 1S/03/2018") == ["2018-03-15"] and iso("DATE : 12 / 03 / 2018") == ["2018-03-12"]
    assert iso("Date: 12,03,2018") == ["2018-03-12"] and iso("DATE:12/03/201810:22:01") == ["2018-03-12"]
    assert iso("3 OGO 2019, 5 Dis 2017, 12 Mac 2018, 17 Agu 2020") == [
        "2019-08-03", "2017-12-05", "2018-03-12", "2020-08-17"]
    assert iso("12th March 2018 / March 12, 2018 / 12 Mar, 2018 / 12-MAR-18") == ["2018-03-12"] * 4
    repaired = dates("DATE: l2/O3/2018")[0]
    assert repaired.repaired and repaired.text == "12/03/2018"
    assert dates("TEL 03-7865 1234 QTY 2 x 3.50") == [] and dates("INV 2018/0012 S/O 12") == []
    # ingest: a repaired date goes to a person
    _, reasons = fields_and_reasons(seg(*HEAD, line("DATE: l2/O3/2018", 2), line("TOTAL 21.20", 3)))
    assert "ocr_confusable" in reasons["date"]


def test_a_document_number_that_embeds_the_date_confirms_it() -> None:
    # "12/03/18" alone: a two-digit year, no label — doubtful; the invoice number repeats 2018-03-12
    rows = [*HEAD, line("Tax Invoice : INV201803120255 12/03/18", 2), line("TOTAL 21.20", 3)]
    found, reasons = fields_and_reasons(seg(*rows))
    assert found["date"].normalized == "2018-03-12" and "date" not in reasons
    found, reasons = fields_and_reasons(seg(*HEAD, line("Tax Invoice : INV000000770255 12/03/18", 2),
                                            line("TOTAL 21.20", 3)))
    assert {"low_confidence", "no_label"} <= reasons["date"]


def test_japanese_era_years_are_read() -> None:
    from ingest.fields.parse import dates

    assert [d.value.isoformat() for d in dates("令和2年3月12日 / 令和元年5月1日 / R2.3.12 / H30/12/01")] == [
        "2020-03-12", "2019-05-01", "2020-03-12", "2018-12-01"]
