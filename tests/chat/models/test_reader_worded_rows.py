"""A line item asked by one of its names where the table prints rows under two ("Gross profit" in dollars, "Gross
margin" as a percentage): the row under the very words asked is the one meant. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read

RESULTS = """KESTREL, INC. › Results of Operations
(Dollars in millions)
| | 2031 | 2030 | % Change |
|---|---|---|---|
| Revenues | $46,710 | $44,538 | 5 % |
| Cost of sales | 25,231 | 24,576 | 3 % |
| Gross profit | 21,479 | 19,962 | 8 % |
| Gross margin | 46.0 % | 44.8 % | |
| Demand creation expense | 3,850 | 3,114 | 24 % |"""


def _head(question: str, text: str = RESULTS) -> str:
    p = Passage("S1", text, "doc-2031", "KESTREL_2031_10K.pdf", 31, company="Kestrel, Inc.", period_end="2031-05-31")
    return read(question, [p]).text.splitlines()[0]


def test_the_row_under_the_words_asked() -> None:
    # before: "Gross profit was $21,479 million in 2031 [S1]." — the lexicon's synonym row, first in the table
    assert _head("What was Kestrel's gross margin in fiscal 2031?").startswith("Gross margin was 46.0% in 2031 [S1]")
    assert _head("What was Kestrel's gross profit in fiscal 2031?").startswith(
        "Gross profit was $21,479 million in 2031 [S1]")
    changed = _head("How did Kestrel's gross margin change in 2031?")
    assert changed.startswith("Gross margin was up 1.2 percentage points: 46.0% in 2031 vs 44.8% in 2030"), changed


def test_a_synonym_row_still_answers_alone() -> None:
    alone = RESULTS.replace("| Gross margin | 46.0 % | 44.8 % | |\n", "")
    assert _head("What was Kestrel's gross margin in fiscal 2031?", alone).startswith(
        "Gross profit was $21,479 million in 2031 [S1]")
