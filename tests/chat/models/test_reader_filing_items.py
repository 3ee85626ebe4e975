"""What a current report is about: each Form 8-K item reported (exhibits aside) and its first sentence; the page after
the cover read when only the cover came back. A made-up report."""

# ruff: noqa: E501  (the fixture is a report's lines as ingest writes them)
from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.filing_items import asks_filing_items, pages_to_read

COVER = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
FORM 8-K
CURRENT REPORT
Date of Report (Date of earliest event reported): March 2, 2031
HARBOR FOODS, INC.
Check the appropriate box below if the Form 8-K filing is intended to simultaneously satisfy the filing obligation."""

ITEMS = """Item 5.02 Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers; Compensatory
Arrangements of Certain Officers.
On March 1, 2031, Harbor Foods, Inc. announced that Jane Roe will succeed John Doe as Chief Executive Officer, effective
April 1, 2031. Ms. Roe, 52, has served as President since 2028.
Item 8.01 Other Events.
On March 2, 2031, the Board declared a quarterly dividend of $0.40 per share.
Item 9.01 Financial Statements and Exhibits.
(d) Exhibits. 99.1 Press release dated March 2, 2031."""


def _cover() -> Passage:
    return Passage("S1", COVER, "h8k", "HARBOR_2031_8K_dated-2031-03-02.pdf", 1)


def test_the_page_after_the_cover_is_read_then_each_item_is_named_with_its_first_sentence() -> None:
    question = "What was the key agenda of Harbor's 8-K filed on March 2, 2031?"
    assert asks_filing_items(question)
    assert pages_to_read(question, [_cover()]) == [("h8k", 2)]
    passages = [_cover(), Passage("P1", ITEMS, "h8k", "HARBOR_2031_8K_dated-2031-03-02.pdf", 2)]
    assert pages_to_read(question, passages) == []
    answer = read(question, passages)
    lines = answer.text.splitlines()
    assert lines[0] == ("The report’s items are Item 5.02 (Departure of Directors or Certain Officers; Election of "
                        "Directors; Appointment of Certain Officers; Compensatory Arrangements of Certain Officers); "
                        "Item 8.01 (Other Events) [P1]:"), lines[0]
    assert lines[1].endswith(": On March 1, 2031, Harbor Foods, Inc. announced that Jane Roe will succeed John Doe as "
                             "Chief Executive Officer, effective April 1, 2031. [P1]"), lines[1]
    assert "9.01" not in answer.text and not answer.declined


def test_a_fact_asked_of_a_report_is_no_question_of_what_it_is_about() -> None:
    assert not asks_filing_items("What dividend per share did Harbor's 8-K declare?")
    assert not asks_filing_items("What is the purpose of the credit facility?")  # no report named
