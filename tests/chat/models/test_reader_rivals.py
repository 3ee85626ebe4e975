"""Two companies compared ("Which had higher net income in 2031, Tarn or Quillon?"): each company's figure read
from its own statement, the verdict computed from the two cited cells; with one company's figure missing, what was
found for each and no verdict. Made-up filings; questions written here (none from an evaluation set)."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.queries import search_queries
from chat.models.reader.rivals import rival_questions

TARN = """TARN DEVICES INC. › Consolidated Statements of Operations
(Dollars in millions)
|  | Years ended December 31, / 2031 | Years ended December 31, / 2030 |
|---|---|---|
| Total revenues | $66,608 | $62,286 |
| Net loss | (5,053) | (4,290) |"""

QUILLON = """QUILLON CORPORATION › Consolidated Statements of Earnings
(In millions)
|  | Years Ended December 31, / 2031 | Years Ended December 31, / 2030 |
|---|---|---|
| Total net sales | $65,984 | $67,044 |
| Net earnings | $5,732 | $6,315 |"""

PASSAGES = [Passage("S1", TARN, "t", "TARN_2031_10K.pdf", 60, company="TARN DEVICES INC."),
            Passage("S2", QUILLON, "q", "QUILLON_2031_10K.pdf", 63, company="QUILLON CORPORATION")]


def test_a_comparison_of_two_companies_is_asked_of_each() -> None:
    assert rival_questions("Which had higher net income in 2031, Tarn or Quillon?") == [
        "What was Tarn's net income in 2031?", "What was Quillon's net income in 2031?"]
    assert rival_questions("Did Tarn or Quillon have more cash at the end of 2031?") == [
        "What was Tarn's cash at the end of 2031?", "What was Quillon's cash at the end of 2031?"]
    assert rival_questions("Compare Tarn's and Quillon's total revenues in 2031.")[1] == \
        "What was Quillon's total revenues in 2031?"
    assert rival_questions("What were the total revenues of Tarn and Quillon in 2031?") == []  # no comparison
    assert search_queries("Which had higher net income in 2031, Tarn or Quillon?")[:2] == [
        "What was Tarn's net income in 2031?", "What was Quillon's net income in 2031?"]


def test_the_higher_figure_is_named_from_both_cited_cells() -> None:
    """(before: one company's sentence quoted, sure, or nothing — the other company's filing was left out as
    another company's)"""
    a = read("Which had higher net income in 2031, Tarn or Quillon?", PASSAGES)
    assert a.text.startswith("Quillon's net income was higher: Tarn's was $(5,053) million [S1], Quillon's $5,732 "
                             "million [S2]"), a.text
    lower = read("Which company had lower total revenues in 2031, Tarn or Quillon?", PASSAGES)
    assert lower.text.startswith("Quillon's total revenues were lower"), lower.text


def test_with_one_companys_figure_missing_each_is_answered_and_no_verdict() -> None:
    a = read("Which had higher net income in 2031, Tarn or Quillon?", PASSAGES[:1])
    first = a.text.split("\n")[0]
    assert "higher" not in first and "Quillon's net income was" not in a.text
    assert "Quillon" in a.text  # the missing company is said to be missing
