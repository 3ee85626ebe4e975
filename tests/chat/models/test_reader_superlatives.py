"""Which row is highest: "Which region had the highest net sales?" over a breakdown table — its rows compared in
the period asked (else the latest), totals left out, every figure shown, the rows quoted. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.queries import search_queries
from chat.models.reader.superlatives import pages_to_read, superlative

SEGMENTS = """Note 9 – Segment Information and Geographic Data
The following table shows information by reportable segment (in millions):
| | Three Months Ended / March 30, 2024 | Three Months Ended / April 1, 2023 |
|---|---|---|
| Northlands: | | |
| Net sales | $ 3,120 | $ 2,980 |
| Operating income | $ 910 | $ 870 |
| Southlands: | | |
| Net sales | $ 2,450 | $ 2,610 |
| Operating income | $ 640 | $ 700 |
| Eastlands: | | |
| Net sales | $ 1,845 | $ 1,565 |
| Operating income | $ 505 | $ 402 |"""

BY_PRODUCT = """Net sales by category (in millions)
| | Three Months Ended / March 30, 2024 | Three Months Ended / April 1, 2023 |
|---|---|---|
| Falcon | $ 4,210 | $ 3,880 |
| Osprey | 1,175 | 1,460 |
| Services | 2,030 | 1,815 |
| Total net sales | $ 7,415 | $ 7,155 |"""


def _p(ref: str, text: str, doc: str = "doc-k", page: int = 14) -> Passage:
    return Passage(ref, text, doc, "kestrel-10q.pdf", page)


def test_the_question_is_read_as_a_superlative() -> None:
    asked = superlative("Which region had the highest net sales?")
    assert asked is not None and (asked.what, asked.low, asked.measure) == ("region", False, "net sales")
    low = superlative("Which segment had the lowest operating income in the three months ended April 1, 2023?")
    assert low is not None and low.low and low.what == "segment"
    assert superlative("What were Northlands net sales?") is None
    assert superlative("Which was higher, Falcon or Osprey net sales?") is None  # two options: a comparison


def test_the_highest_section_of_a_segment_table() -> None:
    answer = read("Which region had the highest net sales?", [_p("S1", SEGMENTS)])
    head = answer.text.splitlines()[0]
    assert head.startswith("Northlands had the highest net sales: $3,120 million in the three months ended March "
                           "30, 2024 [S1]"), head
    assert "Southlands $2,450 million" in head and "Eastlands $1,845 million" in head and "3 rows" in head
    assert ("S1", "| Net sales | $ 3,120 | $ 2,980 |") in answer.quotes and not answer.declined


def test_the_lowest_in_the_period_asked() -> None:
    answer = read("Which segment had the lowest operating income in the three months ended April 1, 2023?",
                  [_p("S1", SEGMENTS)])
    assert answer.text.startswith("Eastlands had the lowest operating income: $402 million in the three months "
                                  "ended April 1, 2023 [S1]"), answer.text


def test_rows_of_a_category_table_without_the_total() -> None:
    answer = read("Which product generated the most net sales?", [_p("S1", BY_PRODUCT, page=6)])
    head = answer.text.splitlines()[0]
    assert head.startswith("Falcon had the highest net sales: $4,210 million") and "Total" not in head, head
    assert "3 rows" in head


def test_a_table_cut_in_two_chunks_is_one_and_its_page_is_read() -> None:
    lines = SEGMENTS.splitlines()
    first = "\n".join(lines[:9])  # Northlands and Southlands …
    rest = "\n".join(lines[:4] + lines[9:])  # … Eastlands in the next chunk, under the same header
    passages = [_p("S1", first), _p("S2", rest)]
    answer = read("Which region had the lowest net sales?", passages)
    head = answer.text.splitlines()[0]
    assert head.startswith("Eastlands had the lowest net sales: $1,845 million") and "3 rows" in head, head
    assert pages_to_read("Which region had the lowest net sales?", passages) == [("doc-k", 14)]
    read_page = [*passages, _p("P1", SEGMENTS)]
    assert pages_to_read("Which region had the lowest net sales?", read_page) == []


def test_the_breakdown_is_searched_by_the_kind_of_entity() -> None:
    queries = search_queries("Which region had the highest net sales?")
    assert queries[0] == "Which region had the highest net sales?"
    assert queries[1].startswith("net sales by region") and "segment" in queries[1]


def test_the_later_filings_breakdown_is_searched_for_when_an_earlier_one_was_found() -> None:
    from chat.models.reader.superlatives import later_query

    earlier = SEGMENTS.replace("March 30, 2024", "December 30, 2023").replace("April 1, 2023", "December 31, 2022")
    later_statement = """CONSOLIDATED STATEMENTS OF OPERATIONS (in millions)
| | Three Months Ended / March 30, 2024 | Three Months Ended / April 1, 2023 |
|---|---|---|
| Total net sales | $ 7,415 | $ 7,155 |"""
    passages = [_p("S1", earlier, "doc-q1"), _p("S2", later_statement, "doc-q2", 4)]
    assert later_query("Which region had the highest net sales?", passages) == (
        "net sales by region reportable segment geographic March 30, 2024")
    assert later_query("Which region had the highest net sales in the three months ended December 30, 2023?",
                       passages) == ""  # a period asked: the breakdown of that period is the one
    assert later_query("Which region had the highest net sales?", [_p("S1", SEGMENTS)]) == ""  # the latest already
