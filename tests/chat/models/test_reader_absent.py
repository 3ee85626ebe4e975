"""Absent-company and absent-year negatives over statement tables (issue 12): "… for <Company> at the end of
<year>" names the company as firmly as "<Company>'s …", and a column without a period does not answer a year the
table's dated columns do not cover.

Made-up filings of made-up companies (Orbit Foods, Kestrel Retail); no evaluation set's question or wording.
"""

# ruff: noqa: E501  (the fixtures are table rows as ingest writes them, one line each)
from __future__ import annotations

import pytest

from chat.models.reader import Passage, read
from chat.models.reader.question import analyze

ORBIT_BALANCE = """ORBIT FOODS, INC.
CONSOLIDATED BALANCE SHEETS
(In millions)
| (In millions) | December 31, / 2024 | December 31, / 2023 |
|---|---|---|
| Property and equipment, net | 2,340 | 2,115 |
| Total current assets | 9,870 | 9,311 |
"""

ORBIT_OPS = """ORBIT FOODS, INC.
CONSOLIDATED STATEMENTS OF OPERATIONS
(Amounts in millions)
| (Amounts in millions) | For the Years Ended December 31, / 2024 | For the Years Ended December 31, | For the Years Ended December 31, / 2023 |  |
|---|---|---|---|---|
| Total net revenues | 6,489 | 100 | 7,500 | 100 |
"""


@pytest.mark.parametrize("text", [
    "What was net property and equipment for Kestrel at the end of FY2024?",
    "What is the year end FY2024 total current assets for Kestrel on the balance sheet?",
])
def test_a_company_named_after_for_is_a_strong_name(text: str) -> None:
    assert analyze(text).strong_names == ("Kestrel",)


def test_a_company_named_after_for_that_no_passage_mentions_is_declined() -> None:
    a = read("What was net property and equipment for Kestrel at the end of FY2024?",
             [Passage("S1", ORBIT_BALANCE, "o1", "ORBIT_2024_10K.pdf", 60)])
    assert a.declined and not a.quotes


def test_a_year_the_dated_columns_do_not_cover_is_not_answered_from_a_column_without_a_period() -> None:
    a = read("What were Orbit Foods' total net revenues in fiscal 2012?",
             [Passage("S1", ORBIT_OPS, "o1", "ORBIT_2024_10K.pdf", 40)])
    assert a.declined and not a.quotes
    ok = read("What were Orbit Foods' total net revenues in fiscal 2024?",
              [Passage("S1", ORBIT_OPS, "o1", "ORBIT_2024_10K.pdf", 40)])
    assert not ok.declined and "6,489" in ok.text.split("\n")[0]


def test_an_amount_question_whose_best_sentence_holds_no_amount_is_declined() -> None:
    """"Orbit's net sales in fiscal 2014" over prose that has the words but no figure (a year in parentheses is
    no amount): the reader declines and names the closest passage instead of offering a sentence without one."""
    prose = [Passage("S1", "We also audited Orbit Foods' internal control over financial reporting as of December "
                           "31, 2024, based on criteria established in the Internal Control Framework (2013) for net "
                           "sales reporting.", "o", "orbit-10k.pdf", 60)]
    answer = read("What were Orbit Foods' net sales in fiscal 2014?", prose)
    assert answer.declined and "(2013)" not in answer.text.splitlines()[0], answer.text
    assert "closest passage" in answer.text
    # a sentence that states an amount is still offered
    stated = [Passage("S1", "Orbit Foods' net sales were $6.5 billion in fiscal 2024, up from $7.5 billion.", "o",
                      "orbit-10k.pdf", 30)]
    assert not read("What were Orbit Foods' net sales in fiscal 2024?", stated).declined


def test_a_margin_question_is_not_answered_with_an_amount_of_money() -> None:
    """An operating margin is a percentage: a sentence that states only a dollar effect on operating income does
    not answer it (declined, the closest passage named); one that states the margin does."""
    money = [Passage("S1", "The change in estimate resulted in an increase in Orbit Foods' operating income of $33 "
                           "million for the three months ended June 30, 2024.", "o", "orbit-10q.pdf", 9)]
    answer = read("What is Orbit Foods' operating margin for the three months ended June 30, 2024?", money)
    assert answer.declined and "$33 million" not in answer.text.splitlines()[0], answer.text
    rate = [Passage("S1", "Orbit Foods' operating margin was 21.4% for the three months ended June 30, 2024, up from "
                          "$19 million of losses a year ago.", "o", "orbit-10q.pdf", 9)]
    answer = read("What is Orbit Foods' operating margin for the three months ended June 30, 2024?", rate)
    assert not answer.declined and "21.4%" in answer.text.splitlines()[0], answer.text


def test_a_reference_number_is_no_amount() -> None:
    """"Note 10" names a part of the filing: a value question is not answered "10"."""
    prose = [Passage("S1", "The proportion of Orbit Foods' net sales by source was consistent for each segment in Note "
                           "10, “Segment Information”, for the three months ended June 28, 2031, except in Canada.",
                     "o", "orbit-10q.pdf", 10)]
    answer = read("What were Orbit Foods' Canada net sales in the three months ended June 28, 2031?", prose)
    assert "say 10" not in answer.text.splitlines()[0] and answer.declined, answer.text
