"""What drove a change: the sentence of the results discussion that names the measure asked, moves the way asked
and gives a cause ("due to", "driven by", "as a result of") — the cause stated, the sentence quoted. Made-up filings,
questions written here."""

from __future__ import annotations

import pytest

from chat.models.reader import Passage, read
from chat.models.reader.drivers import Driver, asked_driver

MDNA = """Harbor Foods, Inc. › Results of Operations
Net sales increased 9.1% to $3,210.4 million, primarily due to higher comparable sales.
As a percentage of net sales, SG&A expenses decreased to 22.4% compared to 23.1% in fiscal 2030, primarily due to
leverage of advertising expenses due to higher sales, partially offset by higher store payroll.
Gross margin increased to 39.8% compared to 38.6% in fiscal 2030, driven by lower freight costs.
Operating income increased 12.0% to $410.2 million."""


@pytest.mark.parametrize(("question", "driver"), [
    ("What drove the reduction in SG&A expense as a percent of net sales in FY2031?",
     Driver("SG&A expense as a percent of net sales", "down")),
    ("Why did Harbor's gross margin increase in fiscal 2031?", Driver("gross margin", "up")),
    ("What were the main drivers of the increase in net sales?", Driver("net sales", "up")),
])
def test_the_measure_and_the_way_it_moved_are_read_from_the_question(question: str, driver: Driver) -> None:
    assert asked_driver(question) == driver


def test_the_cause_of_the_change_asked_is_the_sentences_own() -> None:
    """"As a percentage of net sales, SG&A expenses decreased …, primarily due to …": the measure's words ("percent"
    spelled "percentage"), its move and its cause (before: an unsure sentence or table row was offered)."""
    passages = [Passage("S1", MDNA, "h", "HARBOR_2031_10K.pdf", 31)]
    answer = read("What drove the reduction in SG&A expense as a percent of net sales in FY2031?", passages)
    assert answer.text.startswith("The documents give the cause: primarily due to leverage of advertising expenses "
                                  "due to higher sales, partially offset by higher store payroll [S1]."), answer.text
    assert not answer.declined and answer.quotes[0][1].startswith("As a percentage of net sales, SG&A")
    margin = read("Why did Harbor's gross margin increase in fiscal 2031?", passages)
    assert margin.text.startswith("The documents give the cause: driven by lower freight costs [S1]."), margin.text


def test_a_sentence_of_the_other_direction_or_without_a_cause_is_no_answer_of_this_kind() -> None:
    passages = [Passage("S1", MDNA, "h", "HARBOR_2031_10K.pdf", 31)]
    fell = read("Why did Harbor's gross margin decrease in fiscal 2031?", passages)
    assert "lower freight costs" not in fell.text.splitlines()[0], fell.text
    operating = read("What drove the increase in operating income in fiscal 2031?", passages)
    assert not operating.text.startswith("The documents give the cause"), operating.text
