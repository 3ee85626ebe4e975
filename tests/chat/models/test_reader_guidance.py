"""A revised outlook: "By how many percentage points did Harbor raise its full-year guidance for …?" read from the
"(previously …)" beside the new figure, the change computed, the sentence quoted; "why" answered with the reason the
release gives. Made-up releases."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.guidance import asks_guidance, revisions
from chat.models.reader.queries import search_queries

OUTLOOK = """Harbor Foods, Inc.
Guidance and Outlook
The Company provides guidance on a non-GAAP basis.
For fiscal year 2031, the Company now expects to deliver 7 percent organic revenue growth (previously 5
percent), and 11 percent core constant currency EPS growth (previously 9 percent).
This guidance implies 2031 core EPS of $4.86 (previously $4.80), a 6 percent increase (previously 5 percent)
compared to 2030 core EPS of $4.58."""

QUOTE = """NEW YORK - April 22, 2031 - Harbor Foods, Inc. today reported results for the first quarter 2031.
"We are pleased with our results. On the strength of our first-quarter volumes, we now expect our full-year 2031
organic revenue to increase 7 percent (previously 5 percent)," said the Chief Executive Officer."""


def _p(ref: str, text: str, page: int) -> Passage:
    return Passage(ref, text, "doc-h", "HARBOR_2031Q1_EARNINGS.pdf", page)


def test_the_revision_of_the_measure_asked_and_its_change() -> None:
    """The second "(previously …)" of the sentence is the EPS growth's (the first is revenue growth's): 11 − 9 = 2
    percentage points; a currency figure's change is said in its currency."""
    answer = read("By how many percentage points did Harbor raise its full-year guidance for core constant "
                  "currency EPS growth?", [_p("S1", OUTLOOK, 3)])
    head = answer.text.splitlines()[0]
    assert head.startswith("Harbor raised its guidance by 2 percentage points: 11 percent core constant currency EPS "
                           "growth, previously 9 percent [S1]"), head
    assert not answer.declined and answer.quotes[0][0] == "S1" and "(previously 9" in answer.quotes[0][1]
    eps = read("How much did Harbor raise its guidance for 2031 core EPS?", [_p("S1", OUTLOOK, 3)])
    assert eps.text.startswith("Harbor raised its guidance by $0.06: "), eps.text


def test_a_revision_is_split_at_each_previously_and_a_range_is_one_figure() -> None:
    found = revisions([_p("S1", OUTLOOK, 3)])
    assert [r.words for r in found][:2] == ["7 percent organic revenue growth",
                                           "11 percent core constant currency EPS growth"]
    ranged = revisions([_p("S2", "The Company raised its outlook: adjusted EPS of $7.45 to $7.55 (prior guidance of "
                                 "$7.20 to $7.30).", 2)])
    assert len(ranged) == 1 and [a.value for a in ranged[0].new] == [7.45, 7.55] \
        and [a.value for a in ranged[0].old] == [7.20, 7.30]
    answer = read("How much did Harbor raise its guidance for adjusted EPS?",
                  [_p("S2", "Harbor Foods raised its outlook: adjusted EPS of $7.45 to $7.55 (prior guidance of "
                            "$7.20 to $7.30).", 2)])
    assert answer.text.startswith("Harbor raised its guidance by $0.25: adjusted EPS of $7.45 to $7.55, previously "
                                  "$7.20 to $7.30"), answer.text


def test_why_is_the_reason_the_release_gives_and_no_revision_of_the_measure_is_no_answer_of_this_kind() -> None:
    answer = read("Why did Harbor raise its full-year guidance?", [_p("S1", OUTLOOK, 3), _p("S2", QUOTE, 1)])
    assert answer.text.startswith("Harbor gives this reason for the revised guidance: “On the strength of our "
                                  "first-quarter volumes” [S2]"), answer.text
    assert asks_guidance("Why did Harbor raise its full-year guidance?")
    assert not asks_guidance("What was Harbor's guidance?") and not asks_guidance("What was Harbor's revenue?")
    other = read("By how many percentage points did Harbor raise its guidance for free cash flow conversion?",
                 [_p("S1", OUTLOOK, 3)])
    assert "previously" not in other.text.splitlines()[0], other.text


def test_the_revision_is_searched_for_in_its_own_words() -> None:
    queries = search_queries("By how many percentage points did Harbor raise its full-year guidance for core "
                             "constant currency EPS growth?")
    assert "Harbor now expects core constant currency EPS growth guidance previously" in queries
