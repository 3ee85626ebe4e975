"""Which of two parts grew faster: each part's line in the year asked and the year before, both changes computed
and compared, each cited; with a part's line missing no verdict is made. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.faster import race_parts
from chat.models.reader.rivals import rival_questions

SEGMENTS = """KESTREL INC. › Note 11—SEGMENT INFORMATION
Information on reportable segments is as follows (in millions):
|  | Year Ended December 31, / 2029 | Year Ended December 31, / 2030 | Year Ended December 31, / 2031 |
|---|---|---|---|
| North America |  |  |  |
| Net sales | $63,708 | $79,785 | $106,110 |
| Operating income | $1,425 | $2,361 | $2,837 |
| International |  |  |  |
| Net sales | $35,418 | $43,983 | $54,297 |
| Operating income (loss) | $(699) | $(1,283) | $(3,062) |"""

ASKED = "Which grew faster for Kestrel in 2031, North America or International net sales?"


def _p(ref: str, text: str) -> Passage:
    return Passage(ref, text, "doc-2031", "KESTREL_2031_10K.pdf", 69, company="Kestrel Inc.",
                   period_end="2031-12-31")


def test_each_part_is_asked_its_own_line() -> None:
    assert race_parts(ASKED) == [("North America", "What were Kestrel's North America net sales in 2031?"),
                                 ("International", "What were Kestrel's International net sales in 2031?")]
    assert race_parts("What were Kestrel's North America net sales in 2031?") is None  # no race asked


def test_the_faster_part_is_said_with_both_changes() -> None:
    answer = read(ASKED, [_p("S1", SEGMENTS)])
    head = answer.text.splitlines()[0]
    # before: North America's change, then "I'm not sure …" for International — no verdict
    assert head.startswith("North America grew faster: North America up 33.0% ($106,110 million vs $79,785 million) "
                           "[S1], International up 23.4% ($54,297 million vs $43,983 million) [S1]"), head
    slower = read(ASKED.replace("faster", "slower"), [_p("S1", SEGMENTS)])
    assert slower.text.startswith("International grew slower:"), slower.text


def test_no_verdict_without_both_parts_lines() -> None:
    one = SEGMENTS.split("| International |")[0]
    answer = read(ASKED, [_p("S1", one)])
    assert "grew faster" not in answer.text, answer.text


def test_which_part_is_larger() -> None:
    asked = "Which was larger for Kestrel in 2031, North America or International operating income?"
    assert rival_questions(asked) == []  # one company's two parts are no rival companies
    head = read(asked, [_p("S1", SEGMENTS)]).text.splitlines()[0]
    # before: the same consolidated line twice, no verdict
    assert head.startswith("North America's operating income was larger: North America $2,837 million [S1], "
                           "International $(3,062) million [S1]"), head
    smaller = read(asked.replace("larger", "smaller"), [_p("S1", SEGMENTS)]).text
    assert smaller.startswith("International's operating income was smaller:"), smaller
