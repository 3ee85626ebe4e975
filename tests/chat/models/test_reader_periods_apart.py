"""A line item's change between two years no one table prints together ("… from fiscal 2029 to fiscal 2032"):
each year's figure read from its own filing's statement, both cited, the change computed from them — and the
searches ask each year's statement on its own. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.periods_apart import period_questions, search_apart
from chat.models.reader.queries import search_queries
from chat.models.reader.question import analyze


def _income(years: tuple[int, int, int], sales: str, cost: str) -> str:
    """The company's statement of earnings for three fiscal years, latest first."""
    head = " | ".join(f"Fiscal Year / {y}" for y in years)
    return ("Consolidated Statements of Earnings\nGENERAL OATS, INC. AND SUBSIDIARIES\n(In Millions)\n"
            f"|  | {head} |\n|---|---|---|---|\n| Net sales | {sales} |\n| Cost of sales | {cost} |")


INCOME_2032 = _income((2032, 2031, 2030), "$18,992.8 | $18,127.0 | $17,626.6", "12,590.6 | 11,678.7 | 11,496.7")
INCOME_2029 = _income((2029, 2028, 2027), "$16,865.2 | $15,740.4 | $15,619.8", "11,108.4 | 10,304.8 | 10,056.0")


def _passages() -> list[Passage]:
    return [Passage("S1", INCOME_2032, "doc-32", "GENERALOATS_2032_10K.pdf", 45, company="General Oats, Inc."),
            Passage("S2", INCOME_2029, "doc-29", "GENERALOATS_2029_10K.pdf", 53, company="General Oats, Inc.")]


def test_each_period_is_its_own_question_and_search() -> None:
    q = analyze("How did General Oats' net sales change from fiscal 2029 to fiscal 2032?")
    assert period_questions(q) == ["What was General Oats' net sales in fiscal 2029?",
                                   "What was General Oats' net sales in fiscal 2032?"]
    queries = search_queries("How did General Oats' net sales change from fiscal 2029 to fiscal 2032?")
    assert any("2029" in s and "2032" not in s and "statements" in s for s in queries)
    assert any("2032" in s and "2029" not in s and "statements" in s for s in queries)
    # a year apart, one 10-K prints both: no search of its own
    assert search_apart(analyze("How did General Oats' net sales change from fiscal 2031 to fiscal 2032?")) == []


def test_two_filings_years_apart_give_the_change_from_their_own_tables() -> None:
    answer = read("What was General Oats' net sales in fiscal 2032 and fiscal 2029?", _passages())
    first = answer.text.split("\n")[0]
    # before: "up 7.8%: … vs $17,626.6 million in the fiscal year 2030" — the earliest column of the later table
    assert first.startswith("Net sales were up 12.6%: $18,992.8 million in fiscal 2032 [S1] vs $16,865.2 million in "
                            "fiscal 2029 [S2]"), first
    assert ("S2", "| Net sales | $16,865.2 | $15,740.4 | $15,619.8 |") in answer.quotes
    # the earlier filing missing: no change is made up from another year's column
    alone = read("How did General Oats' net sales change from fiscal 2029 to fiscal 2032?", _passages()[:1]).text
    assert "12.6%" not in alone and "$16,865.2" not in alone
    assert "2030" not in alone.split("\n")[0]  # before: "… vs $17,626.6 million in the fiscal year 2030", sure


def test_one_table_of_both_years_is_read_as_before() -> None:
    first = read("How did General Oats' net sales change from fiscal 2030 to fiscal 2032?",
                 _passages()).text.split("\n")[0]
    assert "(computed from the table" in first and "$17,626.6 million" in first
