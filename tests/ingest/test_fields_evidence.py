"""Doubts that send a field to review whatever its confidence (ingest/fields/evidence.py), on made-up receipts:
a value glued to a digit-like letter, a digit inside a company word, a name row holding only its suffix, two
amounts on the total's row, rival totals no check settles, rival dates, a date without a label, an issue date
in the future. And the clean receipt beside each stays accepted."""

from __future__ import annotations

from datetime import date

from ingest.fields.evidence import confusable_neighbour, digit_in_word, glued_digits, suffix_only
from ingest.fields.extract import document_fields
from ingest.fields.rules import FieldRules, check
from tests.ingest.test_fields import seg

TODAY = date(2024, 6, 1)
HEAD = ["KEDAI RUNCIT MAJU SDN BHD", "LOT 7 JALAN MAWAR"]


def _reasons(rows, field, **kw) -> set[str]:
    found = document_fields([seg(rows, **kw)])
    return {f.reason for f in check(found, FieldRules(), today=TODAY) if f.field == field}


def test_helpers() -> None:
    assert confusable_neighbour("TOTAL 1O.00", 6, 7) == "O"  # "1" parsed, "O.00" left behind
    assert confusable_neighbour("TOTAL 10.00 SR", 6, 11) is None
    assert confusable_neighbour("TOTAL 10.00SR", 6, 11) is None  # a tax code glued on, not a misread digit
    assert glued_digits("TOTAL 1O.00", 6, 7, False) and glued_digits("TOTAL 9.0O", 6, 7, False)
    assert not glued_digits("TOTAL RM9.00", 8, 12, True) and not glued_digits("TOTAL 9.00SR", 6, 10, True)
    assert not glued_digits("TOTAL (9.00)", 7, 11, True) and not glued_digits("합계 12,000원", 3, 9, False)
    assert digit_in_word("KEDAI MAJU SDN 8HD") and digit_in_word("C0MPANY") and not digit_in_word("7 ELEVEN STORE")
    assert suffix_only("SDN. BHD.") and not suffix_only("MAJU SDN BHD")


def test_a_clean_receipt_has_no_doubts() -> None:
    rows = [*HEAD, ("Date:", "12/05/2024"), ("Sub Total", "20.00"), ("Tax", "1.20"), ("TOTAL", "21.20")]
    assert _reasons(rows, "total") == set() and _reasons(rows, "date") == set()
    assert _reasons(rows, "company") == set()


def test_a_value_glued_to_a_digit_like_letter_is_reviewed() -> None:
    assert "ocr_confusable" in _reasons([*HEAD, ("Date:", "12/05/2024"), ("TOTAL", "2l.20")], "total", conf=0.999)
    assert "ocr_confusable" in _reasons([*HEAD, ("Date:", "12/05/2024"), ("TOTAL", "21.2O")], "total", conf=0.999)
    assert "ocr_confusable" in _reasons([*HEAD, ("Date:", "12/05/2024S"), ("TOTAL", "21.20")], "date", conf=0.999)
    # a tax code after the cents is no misread
    assert "ocr_confusable" not in _reasons([*HEAD, ("Date:", "12/05/2024"), ("TOTAL", "21.20SR")], "total",
                                            conf=0.999)


def test_company_names_with_a_misread_letter_or_only_a_suffix_are_reviewed() -> None:
    base = [("Date:", "12/05/2024"), ("TOTAL", "21.20")]
    assert "digit_in_word" in _reasons(["KEDAI RUNC1T MAJU SDN BHD", *base], "company", conf=0.999)
    assert "name_split" in _reasons(["KEDAI RUNCIT MAJU", "SDN. BHD.", *base], "company", conf=0.999)


def test_two_amounts_on_the_totals_row_are_ambiguous() -> None:
    assert "ambiguous_value" in _reasons([*HEAD, ("Date:", "12/05/2024"), ("TOTAL", "21.20 12.20")], "total",
                                         conf=0.999)
    # a quantity beside the amount is not a second amount
    assert "ambiguous_value" not in _reasons([*HEAD, ("Date:", "12/05/2024"), ("TOTAL 3", "21.20")], "total",
                                             conf=0.999)


def test_rival_totals_need_a_check_to_settle_them() -> None:
    rivals = [*HEAD, ("Date:", "12/05/2024"), ("TOTAL", "21.20"), ("TOTAL", "27.20"), ("TOTAL", "21.20")]
    # printed twice: the repetition settles it (and raises the confidence)
    assert "candidates_disagree" not in _reasons(rivals, "total", conf=0.999)
    # a faint rival (too weak to count as a conflict) is still another value printed as the total
    unsettled = [*HEAD, ("Date:", "12/05/2024"), ("Grand Total", "21.20"), ("Grand Total", "27.20")]
    assert _reasons(unsettled, "total", conf={3: 0.5}) == {"candidates_disagree"}
    settled = [*HEAD, ("Date:", "12/05/2024"), ("Grand Total", "21.20"), ("Sub Total", "26.00"), ("Tax", "1.20"),
               ("Grand Total", "27.20")]
    assert _reasons(settled, "total", conf={3: 0.5}) == set()
    # the total before cash rounding, printed as a total too, is no rival
    rounded = [*HEAD, ("Date:", "12/05/2024"), ("Grand Total", "21.22"), ("Rounding", "-0.02"),
               ("Grand Total", "21.20")]
    assert "candidates_disagree" not in _reasons(rounded, "total", conf={3: 0.5})


def test_rival_dates_and_dates_without_a_label() -> None:
    two = [*HEAD, ("Date:", "12/05/2024"), ("Date:", "13/05/2024"), ("TOTAL", "21.20")]
    assert "candidates_disagree" in _reasons(two, "date", conf=0.999)
    # a labelled date beside an unlabelled one (a printed-at time stamp, an expiry): the label decides
    labelled = [*HEAD, ("Date:", "12/05/2024"), "Valid until 30/06/2024", ("TOTAL", "21.20")]
    assert "candidates_disagree" not in _reasons(labelled, "date", conf=0.999)
    assert "no_label" in _reasons([*HEAD, "12/05/2024 Counter 3", ("TOTAL", "21.20")], "date", conf=1.0)


def test_an_issue_date_in_the_future_is_implausible_a_due_date_is_not() -> None:
    assert "implausible_date" in _reasons([*HEAD, ("Date:", "20/06/2024"), ("TOTAL", "21.20")], "date")
    assert "implausible_date" not in _reasons([*HEAD, ("Date:", "20/05/2024"), ("Due date:", "20/06/2024"),
                                               ("TOTAL", "21.20")], "due_date")
