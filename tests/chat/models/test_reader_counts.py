"""A count asked ("How many shares did X repurchase …", "the number of …") is answered by a count — shares,
employees, stores — not by the dollars beside it in the same row, sentence or statement. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.evidence import answer_span, asks_count
from chat.models.reader.question import analyze

CASH_FLOWS = """Quillon Devices, Inc.
CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS (Unaudited)
(In millions)
|  | Nine Months Ended / June 29, 2024 | Nine Months Ended / July 1, 2023 |
|---|---|---|
| Financing activities: |  |  |
| Payments for dividends and dividend equivalents | (11,430) | (11,267) |
| Repurchases of common stock | (56,547) | (64,974) |
| Cash used in financing activities | $ (69,472) | $ (75,115) |"""

NOTE = """Note 10 – Shareholders' Equity
Share Repurchase Program
During the nine months ended June 29, 2024, the Company repurchased 353 million shares of its common stock for \
$56.5 billion. The program does not obligate the Company to acquire a minimum amount of shares."""

EQUITY = """Quillon Devices, Inc.
CONDENSED CONSOLIDATED STATEMENTS OF SHAREHOLDERS' EQUITY (Unaudited)
(In millions, except shares in thousands)
|  | Nine Months Ended / June 29, 2024 | Nine Months Ended / July 1, 2023 |
|---|---|---|
| Common stock repurchased | (56,547) | (64,974) |
| Number of shares repurchased | 352,874 | 456,120 |"""


def test_a_count_is_asked_by_how_many_and_the_number_of() -> None:
    assert asks_count(analyze("How many shares did Quillon repurchase in the nine months ended June 29, 2024?"))
    assert asks_count(analyze("What was the number of employees at Quillon at the end of fiscal 2023?"))
    assert not asks_count(analyze("How much did Quillon spend on share repurchases in fiscal 2023?"))
    assert not asks_count(analyze("How many dollars did Quillon return to shareholders?"))


def test_the_count_in_a_sentence_is_the_span_not_the_price() -> None:
    q = analyze("How many shares did Quillon repurchase in the nine months ended June 29, 2024?")
    sentence = NOTE.splitlines()[2]
    assert answer_span(q, sentence) == "353 million shares"
    # the price stays the span of a "how much" question
    money = analyze("How much did Quillon pay for share repurchases in the nine months ended June 29, 2024?")
    assert answer_span(money, sentence) == "$56.5 billion"


def test_how_many_shares_is_not_answered_by_the_dollars_paid() -> None:
    passages = [Passage("S1", CASH_FLOWS, "doc-1", "quillon-10q.pdf", 6),
                Passage("S2", NOTE, "doc-1", "quillon-10q.pdf", 18)]
    answer = read("How many shares did Quillon repurchase in the nine months ended June 29, 2024?", passages).text
    first = answer.splitlines()[0]
    assert "353 million" in first and "[S2]" in first, answer
    assert "56,547" not in first, answer


def test_a_row_that_counts_the_shares_wins_over_the_dollar_row_of_its_table() -> None:
    passages = [Passage("S1", EQUITY, "doc-1", "quillon-10q.pdf", 5)]
    answer = read("How many shares did Quillon repurchase in the nine months ended June 29, 2024?", passages).text
    first = answer.splitlines()[0]
    assert "352,874" in first and "[S1]" in first, answer
    assert "56,547" not in first, answer
