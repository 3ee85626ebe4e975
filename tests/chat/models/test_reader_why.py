"""``Answer.why``: which path of the reader answered or declined (diagnostics, the eval's breakdown).

Made-up filings; no evaluation set's question or wording.
"""


from __future__ import annotations

from chat.models.reader import Passage, read
from tests.chat.models.test_reader_names import INCOME  # Tarn Devices' income statement


def _passages() -> list[Passage]:
    return [Passage("S1", INCOME, "t1", "TARN_2020_10K.pdf", 52)]


def test_a_stated_value_is_sure() -> None:
    answer = read("What was Tarn Devices' total revenue in 2020?", _passages())
    assert not answer.declined and "8,410" in answer.text
    assert answer.why == "sure"


def test_a_company_no_passage_names_declines_for_the_name() -> None:
    answer = read("What was Quillon's total revenue in 2020?", _passages())
    assert answer.declined
    assert answer.why == "name-missing"


def test_nothing_to_read_declines_for_no_evidence() -> None:
    answer = read("What was Tarn Devices' total revenue in 2020?", [])
    assert answer.declined
    assert answer.why == "no-evidence"


def test_a_computed_change_says_so() -> None:
    answer = read("What was the ratio of net income to total revenue for Tarn Devices in 2020?", _passages())
    assert not answer.declined
    assert answer.why == "computed"


def test_two_parts_name_each_path() -> None:
    answer = read("What were Tarn Devices' total revenue and net income in 2020?", _passages())
    assert not answer.declined and "8,410" in answer.text and "1,204" in answer.text
    assert answer.why == "sure+sure"
