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


def test_a_verb_of_having_what_is_counted_is_no_word_the_answer_must_hold() -> None:
    """"How many stores did Quillon operate …?" is answered by "We had 412 stores at the end of fiscal 2031" —
    "operate", "own", "run" say only that the company has them; "open" or "close" say what happened to them."""
    stores = Passage("S1", "Store Development\nWe had 412 stores at the end of fiscal 2031 throughout our Domestic "
                     "and International segments.", "q1", "QUILLON_2031_10K.pdf", 5)
    for verb in ("operate", "own", "run", "have"):
        a = read(f"How many stores did Quillon {verb} at the end of fiscal 2031?", [stores])
        assert a.text.startswith("The documents say 412"), (verb, a.text)
    assert "open" in analyze("How many stores did Quillon open in fiscal 2031?").terms


def test_stores_moved_in_the_period_are_not_the_count_and_two_kinds_are_summed() -> None:
    """"How many stores did Quillon operate at the end of fiscal 2031?": not the 12 it relocated that year, and where
    the filing counts two kinds ("1,200 large-format and 400 small-format stores") their sum, both shown — unless the
    question asks one kind."""
    moves = Passage("S1", "During fiscal 2031, the Company opened 47 new stores, relocated 12 stores, and remodeled 20 "
                    "stores.", "q1", "QUILLON_2031_10K.pdf", 3)
    count = Passage("S2", "At the end of the fourth quarter of fiscal 2031, the Company operated 1,355 stores totaling "
                    "14.2 million square feet.", "q1", "QUILLON_2031_10K.pdf", 3)
    a = read("How many stores did Quillon operate at the end of fiscal 2031?", [moves, count])
    assert a.text.startswith("The documents say 1,355") and "[S2]" in a.text
    opened = read("How many new stores did Quillon open in fiscal 2031?", [moves, count])
    assert opened.text.startswith("The documents say 47")
    kinds = Passage("S1", "We had approximately 1,200 large-format and 400 small-format stores at the end of fiscal "
                    "2031 throughout our Domestic and International segments.", "q1", "QUILLON_2031_10K.pdf", 5)
    total = read("How many stores did Quillon have in total at the end of fiscal 2031?", [kinds])
    assert total.text.startswith("The documents say about 1,600 in total (1,200 large-format + 400 small-format)")
    small = read("How many small-format stores did Quillon have at the end of fiscal 2031?", [kinds])
    assert small.text.startswith("The documents say 400")


STORE_COUNTS = """Quillon Stores, Inc. › Store Count
|  | Fiscal 2031 / Total Stores at Beginning of Second Quarter | Fiscal 2031 / Stores Opened | Fiscal 2031 / \
Stores Closed | Fiscal 2031 / Total Stores at End of Second Quarter |
|---|---|---|---|---|
| Quillon Domestic | 906 | - | (3) | 903 |
| Pacific Sales | 20 | - | - | 20 |"""


def test_a_table_of_store_counts_is_no_revenue() -> None:
    """"What was Quillon's revenue for the second quarter of fiscal 2031?": a store-count table's "Pacific Sales" row
    (a store brand, 20 stores) is no revenue, however well its columns name the quarter (before: "Pacific Sales were
    20", sure); the statement's revenue row answers."""
    income = Passage("S2", """Quillon Stores, Inc. › Condensed Consolidated Statements of Earnings
($ in millions)
|  | Three Months Ended / July 29, 2031 | Three Months Ended / July 30, 2030 |
|---|---|---|
| Revenue | $9,583 | $10,329 |""", "q", "QUILLON_2031Q2_10Q.pdf", 4)
    counts = Passage("S1", STORE_COUNTS, "q", "QUILLON_2031Q2_10Q.pdf", 17)
    a = read("What was Quillon's revenue for the second quarter of fiscal 2031?", [counts, income])
    assert a.text.startswith("Revenue was $9,583 million"), a.text
    alone = read("What was Quillon's revenue for the second quarter of fiscal 2031?", [counts])
    assert alone.why != "sure"
    assert read("How many Pacific Sales stores did Quillon have at the end of the second quarter of fiscal 2031?",
                [counts]).text.startswith("Pacific Sales")


WORKFORCE = """Human Capital
As of the end of fiscal 2031, Quillon Devices, Inc. and our subsidiaries employed more than 2.2 million employees \
("associates") worldwide, with 1.5 million associates in the U.S. and 0.7 million associates internationally."""


def test_a_whole_and_its_parts_in_one_sentence_the_whole_unless_a_part_is_asked() -> None:
    passages = [Passage("S1", WORKFORCE, "doc-q", "quillon-10k.pdf", 12, company="Quillon Devices, Inc.")]

    def first(question: str) -> str:
        return read(question, passages).text.split("\n")[0]

    # retailers' "associates" are their employees; the count of all of them is the one the others add up to
    assert first("How many associates did Quillon employ as of fiscal 2031?").startswith(
        "The documents say 2.2 million employees")
    assert first("How many associates did Quillon employ in the U.S. as of fiscal 2031?").startswith(
        "The documents say 1.5 million")
    assert first("How many employees did Quillon have internationally?").startswith("The documents say 0.7 million")


def test_the_whole_stated_before_the_parts_it_includes_is_the_count() -> None:
    human_capital = Passage(
        "S1", "QUILLON DEVICES, INC. › Human Capital\nAs of December 31, 2031, we had a highly skilled workforce made "
        "up of approximately 116,000 employees, including approximately 60,000 engineers, scientists and information "
        "technology professionals.", "doc-q", "quillon-10k.pdf", 6, company="Quillon Devices, Inc.")
    answer = read("How many employees did Quillon have at the end of 2031?", [human_capital])
    assert answer.text.startswith("The documents say 116,000 employees"), answer.text  # before: unsure


def test_a_day_of_a_month_is_no_count() -> None:
    """A heading's "As of / Year Ended December 31, Change 2027 2026" holds no count of members (before: "31",
    sure)."""
    heading = ("Quillon Media, Inc. › Segment Results International Streaming Segment As of /Year Ended December 31, "
               "Change 2027 2026 2025 2027 vs. 2026 2026 vs. 2025")
    q = analyze("How many streaming members did Quillon Media have at the end of 2027?")
    assert answer_span(q, heading) == ""
    answer = read(q.text, [Passage("S1", heading, "d1", "quillon-10k.pdf", 23, company="Quillon Media, Inc.")])
    assert answer.why != "sure" and not answer.text.startswith("The documents say 31")
    assert answer_span(q, "We had 117.58 million paid streaming members as of December 31, 2027.") == "117.58 million"
