"""What a current report is about: each Form 8-K item reported (exhibits aside) and its first sentence; the page after
the cover read when only the cover came back. A made-up report."""

# ruff: noqa: E501  (the fixture is a report's lines as ingest writes them)
from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.filing_items import asks_filing_items, pages_to_read, vote_pages

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


VOTES_1 = """Item 5.07 Submission of Matters to a Vote of Security Holders.
Harbor Foods, Inc. held its 2031 Annual Meeting of Shareholders on May 4, 2031. Below are the final voting results.
(1) The shareholders ratified the appointment of the independent registered public accounting firm:
For 900,100,200
Against 40,200,100
Abstain 2,000,300"""

VOTES_2 = """(2) The shareholder proposal regarding a report on plastic packaging was defeated:
For 120,500,000
Against 800,250,000
Abstain 10,000,000
Broker Non-Votes 95,000,000
(3) The shareholder proposal regarding an independent Board Chair was approved:
For 610,000,000
Against 300,000,000
Abstain 5,000,000"""


def test_the_outcome_of_a_vote_is_the_matter_the_question_names_with_its_tally_on_the_next_page() -> None:
    """Item 5.07's numbered matters: the one whose words the question's subject holds, its outcome as stated and
    its tally; the results run on to the next page, which is read (before: the meeting's opening sentence was offered,
    unsure)."""
    question = ("At Harbor's annual meeting held on May 4, 2031, what was the outcome of the shareholder vote on the "
                "shareholder proposal for a report by Harbor on plastic packaging?")
    first = [Passage("S1", VOTES_1, "h8k", "HARBOR_2031_8K_dated-2031-05-06.pdf", 3)]
    assert pages_to_read(question, first) == [] and vote_pages(question, first) == [("h8k", 4)]
    both = [*first, Passage("P1", VOTES_2, "h8k", "HARBOR_2031_8K_dated-2031-05-06.pdf", 4)]
    assert vote_pages(question, both) == []
    answer = read(question, both)
    assert answer.text.startswith("The shareholder proposal regarding a report on plastic packaging was defeated (For "
                                  "120,500,000; Against 800,250,000; Abstain 10,000,000; Broker Non-Votes 95,000,000) "
                                  "[P1]."), answer.text
    assert "independent Board Chair" not in answer.text and not answer.declined


def test_an_annual_report_citing_a_form_8k_is_no_current_report() -> None:
    """A 10-K's exhibit index ("… Current Report on Form 8-K …") ranked above the 8-K's cover is not the report: the
    cover's next page is read (before: the 10-K's pages were taken for the report, and nothing was read)."""
    exhibits = Passage("S1", "FORM 8-K CURRENT REPORT incorporated by reference: Exhibit 4.1 to the Company's Current "
                             "Report on Form 8-K filed on June 17, 2029.", "h10k", "HARBOR_2031_10K.pdf", 114)
    assert pages_to_read("What was the key agenda of Harbor's 8-K filed on March 2, 2031?", [exhibits, _cover()]) \
        == [("h8k", 2)]


def test_a_tally_ingest_wrote_as_a_table_is_read_as_the_tally() -> None:
    """The tally under a matter as ingest writes it, a Markdown grid ("| For | 120,500,000 |"): the matter's own words
    stop at the grid and its counts are the tally (before: the grid was glued into the outcome sentence)."""
    grid = ("(2) The shareholder proposal regarding a report on plastic packaging was defeated:\n| | |\n|---|---|\n"
            "| For | 120,500,000 |\n| Against | 800,250,000 |\n| Abstain | 10,000,000 |")
    answer = read("What was the outcome of the vote on the proposal for a report on plastic packaging at Harbor's "
                  "2031 annual meeting?", [Passage("S1", grid, "h8k", "HARBOR_2031_8K_dated-2031-05-06.pdf", 4)])
    assert answer.text.startswith("The shareholder proposal regarding a report on plastic packaging was defeated (For "
                                  "120,500,000; Against 800,250,000; Abstain 10,000,000) [S1]."), answer.text


def test_search_hits_of_the_next_page_without_its_items_still_have_the_page_read() -> None:
    # the search found the items' page, but only its exhibit list and a chunk under the "Item 8.01 …" heading path
    exhibits = Passage("S2", "HARBOR FOODS, INC.\nItem 9.01 Financial Statements and Exhibits.\n(d) Exhibits. 99.1 "
                       "Press release dated March 2, 2031.", "h8k", "HARBOR_2031_8K_dated-2031-03-02.pdf", 2)
    tail = Passage("S3", "HARBOR FOODS, INC. › Item 8.01 Other Events.\nper share, payable on April 15, 2031.", "h8k",
                   "HARBOR_2031_8K_dated-2031-03-02.pdf", 2)
    question = "What was the key agenda of Harbor's 8-K filed on March 2, 2031?"
    assert pages_to_read(question, [_cover(), exhibits, tail]) == [("h8k", 2)]  # before: [] (a hit of page 2)
    read_page = Passage("P1", ITEMS, "h8k", "HARBOR_2031_8K_dated-2031-03-02.pdf", 2)
    assert pages_to_read(question, [_cover(), exhibits, tail, read_page]) == []
