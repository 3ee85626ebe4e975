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


def test_a_margins_driver_is_its_profits_cause_and_the_instructions_after_the_question_are_no_part_of_it() -> None:
    """"What drove operating margin change …? If operating margin is not a useful metric …": the asking sentence is
    the question (before: no driver was read, and the margin itself was computed); the cause is the one given for
    operating profit; a search for such sentences is made."""
    from chat.models.reader.queries import search_queries

    text = """Harbor Foods, Inc. › Consolidated Results of Operations
| | 2031 | 2030 |
|---|---|---|
| Net sales | 3,210 | 2,940 |
| Operating income | 410 | 366 |
Operating income in 2031 increased $44 million, or 12%, compared to 2030, primarily due to lower freight costs and
higher volume."""
    question = ("What drove operating margin change as of FY2031 for Harbor? If operating margin is not a useful "
                "metric for a company like this, then please state that and explain why.")
    assert asked_driver(question) == Driver("operating margin", "")
    answer = read(question, [Passage("S1", text, "h", "HARBOR_2031_10K.pdf", 40)])
    assert answer.text.startswith("The documents give the cause: primarily due to lower freight costs and higher "
                                  "volume [S1]."), answer.text
    assert "Harbor operating margin increased decreased primarily due to driven by" in search_queries(question)
