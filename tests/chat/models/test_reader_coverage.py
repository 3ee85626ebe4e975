"""The reader declines when the named company's documents cannot reach the year asked (``reader.coverage``):
each document's own date (``Passage.period_end``, read off its cover at ingest) bounds what it reports."""

from __future__ import annotations

from datetime import date

import pytest

from chat.models.reader import Passage, read
from chat.models.reader.coverage import LOOKBACK_YEARS, reaches

TABLE = """CONSOLIDATED STATEMENTS OF EARNINGS
($ in millions)
| | Fiscal 2017 | Fiscal 2016 |
|---|---|---|
| Revenue | 39,403 | 39,528 |
| Net earnings | 1,228 | 897 |
"""


def _passages(end: str = "2017-01-28", *, other_end: str = "2023-06-30") -> list[Passage]:
    return [
        Passage("S1", TABLE, "d1", "annual-report.pdf", 41, company="Contoso Widgets, Inc.\nCTSO", period_end=end),
        Passage("S2", "Fabrikam's revenue grew in fiscal 2023 to 5,112 million.", "d2", "fabrikam-10k.pdf", 30,
                company="Fabrikam Corp", period_end=other_end),
    ]


@pytest.mark.parametrize("question", [
    "What was Contoso's revenue in FY2023?",
    "What was Contoso's net earnings in fiscal 2022?",
    "How much revenue did Contoso report for Q2 FY2024?",
    "What was Contoso's revenue in 2010?",  # more than LOOKBACK_YEARS before its date
])
def test_a_year_the_companys_documents_cannot_reach_is_declined_with_their_dates(question: str) -> None:
    answer = read(question, _passages())
    assert answer.declined and answer.why == "period-not-covered" and answer.quotes == ()
    assert answer.text.startswith("The documents don't say")
    assert "Contoso" in answer.text and "January 28, 2017 (annual-report.pdf)" in answer.text
    assert "39,403" not in answer.text


@pytest.mark.parametrize("question", [
    "What was Contoso's revenue in fiscal 2017?",
    "What was Contoso's revenue in fiscal 2016?",
])
def test_a_year_the_documents_reach_is_answered(question: str) -> None:
    answer = read(question, _passages())
    assert not answer.declined and answer.why != "period-not-covered"
    assert ("39,403" if "2017" in question else "39,528") in answer.text


@pytest.mark.parametrize(("question", "end"), [
    ("What was Contoso's revenue in FY2018?", "2017-01-28"),  # a fiscal 2018 may have begun in 2017
    ("What is Contoso's revenue guidance for fiscal 2019?", "2017-01-28"),  # what is expected: a later year
    ("What was Contoso's revenue in FY2023?", ""),  # the document's date is not known
])
def test_no_coverage_decline_where_the_documents_may_say(question: str, end: str) -> None:
    assert read(question, _passages(end)).why != "period-not-covered"


def test_another_companys_later_document_does_not_cover_the_named_one() -> None:
    answer = read("What was Contoso's revenue in FY2023?", _passages(other_end="2024-01-31"))
    assert answer.why == "period-not-covered" and "fabrikam-10k.pdf" not in answer.text


def test_a_question_naming_no_company_is_left_to_the_reader() -> None:
    assert read("What was revenue in FY2023?", _passages()).why != "period-not-covered"


def test_reaches_spans_the_lookback_and_one_year_after() -> None:
    end = date(2022, 12, 31)
    assert [y for y in range(2010, 2030) if reaches(end, y)] == list(range(2022 - LOOKBACK_YEARS, 2024))


def test_a_decline_names_the_closest_passage_of_the_company_asked() -> None:
    """Declined for a low score, the closest passage named is the asked company's best one — not another company's
    that happened to score higher."""
    own = Passage("S1", "Contoso Widgets paid dividends of $1.2 billion to its shareholders during the year.", "d1",
                  "annual-report.pdf", 41, company="Contoso Widgets, Inc.")
    other = Passage("S2", "Our retention ratio and our debt to earnings ratio were reviewed by the board.", "d2",
                    "fabrikam-10k.pdf", 30, company="Fabrikam Corp")
    answer = read("What is the FY2016 retention ratio of Contoso Widgets?", [other, own])
    assert answer.declined and "annual-report.pdf" in answer.text and "fabrikam" not in answer.text, answer.text


def test_documents_that_only_mention_the_company_are_said_to_be_no_document_of_its() -> None:
    mention = Passage("S1", "We rely on Contoso's cloud services to stream our content.", "d2", "FABRIKAM_2015_10K.pdf",
                      30, company="Fabrikam Corp", period_end="2015-12-31")
    answer = read("What were Contoso's cloud net sales in 2017?", [mention])
    assert answer.declined and answer.why == "period-not-covered"
    # before: "The documents found for Contoso are dated December 31, 2015 (FABRIKAM_2015_10K.pdf) …"
    assert "No document of Contoso's was found; those that mention it are dated December 31, 2015" in answer.text
