"""Whether a company's figures are a growth company's (``reader.growth``): revenue's and net income's growth for the
year asked against the year before, from cited cells, and no verdict of the reader's own. Made-up statements and
questions written here (none from an evaluation set)."""


from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.growth import asks_growth, growth_query

INCOME = """ORRERY TOOLS, INC.
CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
| | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 | Year Ended December 31, / 2029 |
|---|---|---|---|
| Net revenues | $ 6,600 | $ 6,000 | $ 5,000 |
| Cost of revenues | 3,300 | 3,100 | 2,600 |
| Net income | 990 | 1,000 | 600 |"""


def test_the_growth_of_revenue_and_net_income_is_stated_without_a_verdict() -> None:
    """Before: declined ("The documents don't say …") — no line is named "high growth"."""
    answer = read("Are Orrery's FY2031 financials that of a high growth company?",
                  [Passage("S1", INCOME, "o", "ORRERY_2031_10K.pdf", 50)])
    first = answer.text.splitlines()[0]
    assert not answer.declined
    assert first.startswith("The growth the statements show: revenue grew 10.0% in the year ended December 31, 2031 "
                            "(Net revenues $6,600 million"), first
    assert "net income fell 1.0%" in first and "give no verdict" in first
    assert answer.quotes[0] == ("S1", "| Net revenues | $ 6,600 | $ 6,000 | $ 5,000 |")


def test_the_question_and_its_search() -> None:
    assert asks_growth("Is Orrery a high-growth business?")
    assert not asks_growth("What was Orrery's revenue growth in 2031?")  # a rate asked: the ordinary reading
    assert growth_query("Are Orrery's FY2031 financials that of a high growth company?") == \
        "Orrery consolidated statements of income total revenue net income"


def test_one_year_only_is_no_growth_and_the_reader_answers_otherwise() -> None:
    one = INCOME.replace(" | Year Ended December 31, / 2030 | Year Ended December 31, / 2029 |", " |") \
        .replace("|---|---|---|---|", "|---|---|").replace(" | $ 6,000 | $ 5,000 |", " |")
    answer = read("Are Orrery's FY2031 financials that of a high growth company?",
                  [Passage("S1", one, "o", "ORRERY_2031_10K.pdf", 50)])
    assert not answer.text.startswith("The growth the statements show"), answer.text
