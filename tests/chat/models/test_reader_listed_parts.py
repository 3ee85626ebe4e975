"""A change asked between two years is not answered by a sentence comparing another pair of years, and a sentence
listing parts' figures "respectively" gives the asked part's. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.evidence import answer_span
from chat.models.reader.question import analyze

EARLIER = ("KESTREL INC. › Results of Operations\nYear ended December 31, 2030 as compared to the year ended "
           "December 31, 2029 The increase in our domestic streaming revenues was due to a 12% growth in the average "
           "number of paid memberships and a 8% increase in average monthly revenue per paying membership.")
LISTED = ("KESTREL INC. › Overview and Results of Operations\nConsolidated revenues for the year ended December 31, "
          "2031 increased 32%, including an increase of 21% and 58% in revenues in the Domestic streaming and "
          "International streaming segments, respectively, as compared to the year ended December 31, 2030.")
ASKED = "What was the percentage change in Kestrel's domestic streaming revenues from 2030 to 2031?"


def _p(ref: str, text: str, page: int) -> Passage:
    return Passage(ref, text, "doc-2031", "KESTREL_2031_10K.pdf", page, company="Kestrel Inc.",
                   period_end="2031-12-31")


def test_a_sentence_comparing_other_years_is_never_sure() -> None:
    answer = read(ASKED, [_p("S1", EARLIER, 22)])
    assert answer.why != "sure", answer.text  # before: "The documents say 12%", sure (2030 against 2029)


def test_the_listed_amount_of_the_part_asked() -> None:
    answer = read(ASKED, [_p("S1", EARLIER, 22), _p("S2", LISTED, 21)])
    head = answer.text.splitlines()[0]
    assert head.startswith("The documents say 21%") and "[S2]" in head, head  # before: 12% [S1]
    international = read("What was the percentage change in Kestrel's international streaming revenues from 2030 "
                         "to 2031?", [_p("S2", LISTED, 21)])
    assert international.text.startswith("The documents say 58%"), international.text


def test_a_list_whose_names_do_not_tell_the_part_gives_no_pick() -> None:
    q = analyze("What was the percentage change in Kestrel's streaming revenues from 2030 to 2031?")
    # "streaming" is in both names: neither amount is the part's by the list alone
    assert answer_span(q, LISTED.split("\n")[1]) not in ("21%", "58%")


def test_a_list_after_respectively_gives_no_pick() -> None:
    q = analyze("What was the percentage change in Kestrel's domestic streaming revenues from 2030 to 2031?")
    # "respectively" before the amounts: no names listed for them (before the guard: an IndexError)
    said = ("Domestic and international memberships grew, respectively, while revenues increased 21% and 58% in "
            "2031.")
    assert answer_span(q, said) in ("21%", "58%", "")
