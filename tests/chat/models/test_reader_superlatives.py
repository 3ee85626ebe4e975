"""Which row is highest: "Which region had the highest net sales?" over a breakdown table — its rows compared in
the period asked (else the latest), totals left out, every figure shown, the rows quoted. Made-up filings."""

from __future__ import annotations

import pytest

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


@pytest.mark.parametrize(("question", "measure", "query"), [
    ("For Harbor, which geographic region had the biggest drop in Q22031 year over year revenues (on a percentage "
     "basis)?", "revenues", "Harbor revenues by geographic region"),
    ("Which region had the highest EBITDAR contribution for Harbor during FY2031?", "EBITDAR",
     "Harbor EBITDAR by region"),
])
def test_the_measure_is_its_rows_words_and_the_breakdown_is_searched_for_the_company(
        question: str, measure: str, query: str) -> None:
    """The period ("Q22031", "during FY2031"), the company ("for Harbor") and "contribution" name no row of the
    breakdown; the company leads its search (before: "Q22031 revenues by …", "EBITDAR Contribution for Harbor
    during FY2031 by …" — another company's breakdown came back)."""
    asked = superlative(question)
    assert asked is not None and asked.measure == measure
    assert search_queries(question)[1].startswith(query)


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


SECTION_PARTS = """Kestrel Resorts › Net Revenues by Segment
The following table presents a detail by segment of net revenues (In thousands):
| | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Harbor Strip: | | |
| Casino revenue | $728,254 | $1,296,170 |
| Rooms | 662,813 | 1,863,521 |
| | 1,391,067 | 3,159,691 |
| Inland Operations: | | |
| Casino revenue | 1,569,193 | 2,537,780 |
| Rooms | 130,945 | 316,753 |
| | 1,700,138 | 2,854,533 |
| Kestrel Macau: | | |
| Casino revenue | 565,671 | 2,609,806 |
| Rooms | 36,624 | 142,306 |
| | 602,295 | 2,752,112 |
| Reportable segment net revenues | 3,693,500 | 8,766,336 |"""

PERCENT_FIRST = """Kestrel Foods › Segment Operating Profit Growth Rates
| | Fiscal 2031 / Percentage Change in Operating Profit as Reported | Fiscal 2031 / Impact of Foreign Exchange |
|---|---|---|
| North Retail | (1) % | Flat |
| Overseas | (2) % | 2 |
| Pet | 13 % | Flat |"""

DOLLARS = """Kestrel Foods › The following table provides the dollar amount and percentage of operating profit from each
reportable segment (in millions):
| | Fiscal Year / 2031 / Dollars | Fiscal Year / 2031 / Percent of Total |
|---|---|---|
| Segment Operating Profit | | |
| North Retail | $2,699.7 | 74 % |
| Overseas | 232.0 | 6 |
| Pet | 470.6 | 13 |
| Total | $3,402.3 | 100 % |"""

MEASURE_COLUMNS = """Kestrel Company › Year 2031 sales and operating income by business segment: (Dollars in millions)
| | 2031 / Net Sales | 2031 / % of Total | 2031 / Oper. Income |
|---|---|---|---|
| Business Segments | | | |
| Industrial | $12,267 | 37.4 % | $1,737 |
| Safety and Graphics | 6,827 | 20.8 | 2,720 |
| Health Care | 6,021 | 18.4 | 1,799 |
| Corporate and Unallocated | 50 | 0.2 | (1,465) |"""

CUSTOMERS = """Kestrel Company › Note 22 – Segment and Revenue Information
Defense revenues on contracts with customers, based on the customer's location, consisted of the following:
| | Years ended December 31, / 2031 | Years ended December 31, / 2030 |
|---|---|---|
| Revenue from contracts with customers: | | |
| U.S. customers | $17,144 | $19,869 |
| Non-U.S. customers | 6,018 | 6,671 |"""

MIXED = """Significant Product Revenues (MILLIONS)
| | Year Ended / 2031 | Year Ended / 2030 |
|---|---|---|
| TOTAL REVENUES | $81,288 | $41,651 |
| KESTREL BIOPHARMACEUTICALS GROUP | $79,557 | $40,724 |
| Vaccines | $42,625 | $6,575 |
| Prevo family | 5,272 | 5,850 |
| Nimbus | 193 | 221 |"""


def test_each_sections_total_row_is_its_figure_not_a_part_that_names_the_measure() -> None:
    # "Casino revenue" names the measure but is a part of each segment's net revenues: the section's unlabelled
    # total is the segment's figure; "Reportable segment net revenues" is no segment's
    answer = read("Which segment had the largest net revenues in 2031?", [_p("S1", SECTION_PARTS)])
    head = answer.text.splitlines()[0]
    assert head.startswith("Inland Operations had the highest net revenues: $1,700,138 thousand"), head
    assert "Harbor Strip $1,391,067 thousand" in head and "Kestrel Macau $602,295 thousand" in head, head


def test_an_amount_asked_is_never_read_from_a_percentage_column() -> None:
    # the growth table comes first, the amounts second: the amounts answer
    answer = read("Which of Kestrel Foods' segments had the lowest operating profit in fiscal 2031?",
                  [_p("S1", PERCENT_FIRST), _p("S2", DOLLARS, page=21)])
    head = answer.text.splitlines()[0]
    assert head.startswith("Overseas had the lowest operating profit: $232.0 million in fiscal 2031 [S2]"), head


def test_the_measure_named_by_a_column_header() -> None:
    # "Which of Kestrel's business segments …": the segments are rows, the measure is the "Oper. Income" column
    answer = read("Which of Kestrel's business segments had the highest operating income in 2031?",
                  [_p("S1", MEASURE_COLUMNS)])
    head = answer.text.splitlines()[0]
    assert head.startswith("Safety and Graphics had the highest operating income: $2,720 million in 2031 [S1]"), head
    assert "Corporate" not in head


def test_a_split_by_customer_location_or_a_table_mixing_levels_is_no_breakdown_of_segments() -> None:
    by_customer = read("Which segment had the largest revenue in 2031?", [_p("S1", CUSTOMERS)])
    assert "had the highest" not in by_customer.text
    mixed = read("Which product had the highest revenue in 2031?", [_p("S1", MIXED)])
    assert "had the highest" not in mixed.text  # the group and its members add up to more than the total


def test_another_companys_breakdown_among_the_results_is_not_read() -> None:
    other = Passage("S1", BY_PRODUCT, "doc-o", "OSPREY_2024_10Q.pdf", 9, company="Osprey Inc.")
    own = Passage("S2", DOLLARS, "doc-k", "KESTRELFOODS_2031_10K.pdf", 21, company="Kestrel Foods")
    answer = read("Which of Kestrel Foods' segments had the highest operating profit in fiscal 2031?", [other, own])
    head = answer.text.splitlines()[0]
    assert head.startswith("North Retail had the highest operating profit"), head
    assert "[S1]" not in head


BY_REGION_CHANGE = """Kestrel Pharma › Note 13. Segment, Geographic and Other Revenue Information
Revenues by geographic area (MILLIONS):
| | Three Months Ended / July 2, 2031 | Three Months Ended / July 3, 2030 | % Change |
|---|---|---|---|
| United States | $6,185 | $11,222 | (45) |
| Developed Europe | 2,415 | 5,480 | (56) |
| Developed Rest of World | 1,305 | 5,034 | (74) |
| Emerging Markets | 2,828 | 6,006 | (53) |
| Revenues | $12,733 | $27,742 | (54) |"""


def test_the_biggest_drop_is_the_most_negative_change_of_the_period_asked() -> None:
    question = ("For Kestrel, which geographic region had the biggest drop in Q3 2031 year over year revenues (on a "
                "percentage basis)?")
    asked = superlative(question)
    assert asked is not None and (asked.change, asked.measure) == ("drop", "revenues"), asked
    answer = read(question, [Passage("S1", BY_REGION_CHANGE, "doc-k", "KESTREL_2031Q3_10Q.pdf", 38)])
    head = answer.text.splitlines()[0]
    assert head.startswith("Developed Rest of World had the biggest drop in revenues: -74.1%"), head
    assert "computed against" in head and "United States -44.9%" in head, head
    rise = read("Which region had the largest increase in revenues in Q3 2031?",
                [Passage("S1", BY_REGION_CHANGE, "doc-k", "KESTREL_2031Q3_10Q.pdf", 38)])
    assert not rise.text.startswith(("United States had", "Developed")), rise.text  # every region fell


def test_a_breakdown_of_another_period_does_not_answer_and_one_section_of_it_is_read_in_full() -> None:
    # fiscal 2029 asked: the 2031 and 2030 breakdown is not it
    answer = read("Which segment had the largest net revenues in 2029?", [_p("S1", SECTION_PARTS)])
    assert "had the highest" not in answer.text
    # a hit holding one segment's section only: the page is read for the others
    one_section = SECTION_PARTS.split("| Inland Operations: | | |")[0]
    assert pages_to_read("Which segment had the largest net revenues in 2031?", [_p("S1", one_section)]) == [
        ("doc-k", 14)]


INVESTMENTS = """Note 3 – Investments
The following table presents information regarding the Company's debt investments:
(In thousands)
| | Fair value level | June 30, 2031 | December 31, 2030 |
|---|---|---|---|
| Cash and cash equivalents: | | | |
| Money market funds | Level 1 | $ 812,400 | $ 95,000 |
| Commercial paper | Level 2 | 3,100 | 7,250 |
| Cash and cash equivalents | | 815,500 | 102,250 |
| Short-term investments: | | | |
| U.S. treasury securities | Level 1 | 61,200 | 48,900 |
| Corporate bonds | Level 2 | 241,000 | 130,400 |
| Municipal notes | Level 2 | 18,000 | 21,700 |
| Short-term investments | | 320,200 | 201,000 |"""


def test_the_largest_among_a_named_group_is_read_from_that_sections_rows() -> None:
    """"… among the short-term investments": the group's rows only (the money market funds, a larger cash
    equivalent, are not among them), "Corporate bonds" no total row, the as-of date said as printed, and the share of
    the group's own total (before: no such question was read — "received" was no verb of one — and a row starting
    "Corporate" was taken for a segment table's corporate total)."""
    question = "Which type of security received the largest investment among the short-term investments for Harbor " \
               "in H1 FY2031?"
    asked = superlative(question)
    assert asked is not None and (asked.measure, asked.among) == ("investment", "short-term investments")
    answer = read(question, [Passage("S1", INVESTMENTS, "doc-h", "harbor-2031q2-10q.pdf", 11)])
    head = answer.text.splitlines()[0]
    assert head.startswith("Corporate bonds had the highest investment among the short-term investments: $241,000 "
                           "thousand as of June 30, 2031, 75.3% of the Short-term investments total of $320,200 "
                           "thousand [S1]"), head
    assert "Money market funds" not in answer.text and "4 rows" not in head and "3 rows" in head
    assert search_queries(question)[1].startswith("Harbor short-term investments by type of security")
    # the group named with its company's possessive, the measure a word no row holds ("balance"): the group's rows
    balance = read("Which type of security had the largest balance among Harbor's short-term investments as of June "
                   "30, 2031?", [Passage("S1", INVESTMENTS, "doc-h", "harbor-2031q2-10q.pdf", 11)])
    assert balance.text.startswith("Corporate bonds had the highest balance among the short-term investments: "
                                   "$241,000 thousand as of June 30, 2031"), balance.text


SEGMENT_REVENUES = """Harbor Aerospace › Results of Operations
The following table summarizes Revenues:
(Dollars in millions)
| | Years ended December 31, / 2031 | Years ended December 31, / 2030 |
|---|---|---|
| Airliners | $12,400 | $10,100 |
| Defense Systems | 9,300 | 9,800 |
| Services | 3,100 | 2,900 |
| Leasing | 200 | 150 |
| Total | $25,000 | $22,950 |"""


@pytest.mark.parametrize(("question", "lead"), [
    ("Are there any product categories that represent more than 20% of Harbor's revenue for FY2031?",
     "Yes — 2 of the 4 rows are each more than 20% of the total revenue of $25,000 million in the year ended "
     "December 31, 2031: Airliners 49.6% ($12,400 million); Defense Systems 37.2% ($9,300 million) [S1]"),
    ("Which segments account for less than 5 percent of Harbor's total revenue in 2031?",
     "1 of the 4 rows is less than 5% of the total revenue of $25,000 million in the year ended December 31, "
     "2031: Leasing 0.8% ($200 million) [S1]"),
    ("Do any segments make up more than 60% of Harbor's revenue in 2031?",
     "No — none of the 4 rows is more than 60% of the total revenue of $25,000 million in the year ended December "
     "31, 2031 [S1]"),
])
def test_each_rows_share_of_the_printed_total_against_the_threshold_asked(question: str, lead: str) -> None:
    """A share threshold over a breakdown: each row's share of the table's own "Total" row, the rows past it named
    with their share and amount, the others listed after (before: only unsure sentences were offered)."""
    answer = read(question, [Passage("S1", SEGMENT_REVENUES, "doc-h", "HARBOR_2031_10K.pdf", 24)])
    head = answer.text.splitlines()[0]
    assert head.startswith(lead), head
    assert not answer.declined and ("S1", "| Total | $25,000 | $22,950 |") in answer.quotes
    assert search_queries(question)[1].startswith("Harbor revenue by ")


def test_in_which_segment_did_it_grow_the_most_and_a_row_left_out() -> None:
    """"In which segment did net sales proportionally increase the most?" compares the rows' changes (before: not
    read as a superlative, and answered unsure with a total row); "excluding Eastlands" leaves that row out."""
    asked = superlative("From Q1 2023 to Q1 2024, in which Kestrel reporting segment did net sales proportionally "
                        "increase the most?")
    assert asked is not None and (asked.what, asked.measure, asked.change) == ("kestrel reporting segment",
                                                                               "net sales", "rise")
    answer = read("From Q1 2023 to Q1 2024, in which Kestrel reporting segment did net sales proportionally increase "
                  "the most?", [_p("S1", SEGMENTS)])
    assert answer.text.startswith("Eastlands had the largest increase in net sales: +17.9%"), answer.text
    excluded = read("From Q1 2023 to Q1 2024, excluding Eastlands, in which Kestrel reporting segment did net sales "
                    "proportionally increase the most?", [_p("S1", SEGMENTS)])
    assert excluded.text.startswith("Northlands had the largest increase in net sales: +4.7%"), excluded.text
    assert "Eastlands" not in excluded.text.splitlines()[0]
    rest = superlative("Which region had the highest net sales, excluding Northlands?")
    assert rest is not None and (rest.measure, rest.excluded) == ("net sales", "Northlands")


VOTES_HEAD = ("Kestrel Corp. › Item 5.07. Submission of Matters to a Vote of Security Holders.\nProposal 1. The votes "
              "were cast for the election of directors as set forth below:\n| Name | Votes For | Votes Against | "
              "Abstentions | Broker Non-Votes |\n|---|---|---|---|---|\n")
VOTES_ONE = VOTES_HEAD + ("| Ann B. Carter | 59,657,810 | 294,935 | 10,714,238 | 6,884,223 |\n"
                          "| Ben D. Fowler | 54,760,830 | 5,184,437 | 10,721,716 | 6,884,223 |\n"
                          "| Cal E. Grant | 54,484,293 | 16,105,005 | 77,685 | 6,884,223 |\n")
VOTES_TWO = VOTES_HEAD + ("| Dee F. Hart | 55,123,930 | 4,827,808 | 10,715,245 | 6,884,223 |\n"
                          "| Eli G. Irwin | 53,876,257 | 6,074,467 | 10,716,259 | 6,884,223 |\n")


def test_whether_one_row_stands_apart_from_the_others() -> None:
    """"Were there any nominees who had substantially more votes against than the others?": the rows of the table
    (cut in two chunks) compared — yes when the top one is at least 1.5 times the next, with the figures; no
    otherwise (before: a sentence about the bylaws, unsure)."""
    asked = "Were there any board member nominees who had substantially more votes against joining than the other " \
            "nominees?"
    parsed = superlative(asked)
    assert parsed is not None and parsed.outlier and parsed.measure == "votes against" and not parsed.low
    passages = [_p("S1", VOTES_ONE), _p("S2", VOTES_TWO)]
    first = read(asked, passages).text.split("\n")[0]
    assert first.startswith("Yes — Cal E. Grant had 16,105,005 votes against [S1], 2.7 times the next highest "
                            "(Eli G. Irwin 6,074,467); the other 4 between 294,935 and 6,074,467"), first
    fewer = read("Did any nominee receive far fewer votes against than the other nominees?", passages).text
    assert fewer.startswith("Yes — Ann B. Carter had 294,935 votes against"), fewer
    more_for = read("Did any nominee receive many more votes for than the other nominees?", passages).text
    assert more_for.startswith("No — the highest, Ann B. Carter with 59,657,810 votes"), more_for


ACROSS = ("Kestrel Corp. › Disaggregation of Net Sales\nNet sales by customer category for each of our business "
          "segments were as follows (in millions):\n|  | 2031 / Harbor | 2031 / Ridge | 2031 / Delta | 2031 / Total "
          "|\n|---|---|---|---|---|\n| U.S. Government | $17,262 | $8,341 | $11,736 | $37,339 |\n| International | "
          "9,403 | 3,346 | 4,719 | 17,468 |\n| Total net sales | $26,665 | $11,687 | $16,455 | $54,807 |")


def test_a_breakdown_with_one_column_per_entity_is_compared_across_its_columns() -> None:
    """The segments as columns and a row of the measure: the columns compared, the total's left out (before: no
    breakdown found, the reader unsure)."""
    asked = superlative("Which segment of Kestrel had the highest net sales in 2031?")
    assert asked is not None and asked.what == "segment"
    first = read("Which segment of Kestrel had the highest net sales in 2031?", [_p("S1", ACROSS)]).text
    assert first.startswith("Harbor had the highest net sales: $26,665 million in 2031 [S1] (compared across the 3 "
                            "columns of the table, one per segment: Delta $16,455 million; Ridge $11,687 million)"), \
        first
    assert read("Which segment of Kestrel had the lowest net sales in 2031?", [_p("S1", ACROSS)]).text.startswith(
        "Ridge had the lowest net sales")


def test_a_column_that_names_part_of_the_measure_and_a_year_no_column_says() -> None:
    """"most votes against in 2031" over "| Nominee | For | Against | Abstain | Broker Non-Votes |": the "Against"
    column (the heading says the votes), the meeting's table though no column names the year (before: declined)."""
    head = VOTES_HEAD.replace("| Votes For | Votes Against | Abstentions | Broker Non-Votes |",
                              "| For | Against | Abstain | Broker Non-Votes |")
    rows = ("| Ann B. Carter | 59,657,810 | 294,935 | 10,714,238 | 6,884,223 |\n"
            "| Ben D. Fowler | 54,760,830 | 5,184,437 | 10,721,716 | 6,884,223 |\n")
    first = read("Which Kestrel director nominee received the most votes against in 2031?", [_p("S1", head + rows)])
    assert first.text.startswith("Ben D. Fowler had the highest votes against: 5,184,437"), first.text


SEGMENT_RESULTS = """Loss From Operations
The following table summarizes Loss from operations:
(Dollars in millions)
| | Years ended December 31, / 2031 | Years ended December 31, / 2030 |
|---|---|---|
| Airliners | ($2,370) | ($6,475) |
| Defense Systems | (3,544) | 1,544 |
| Aftermarket Services | 2,727 | 2,017 |
| Leasing | 29 | 106 |
| Pension service cost adjustment | 849 | 882 |
| Unallocated items, eliminations and other | (1,532) | (1,267) |
| Loss from operations | ($3,547) | ($2,902) |"""

PENSION_ALLOCATION = """Business Environment and Trends
Net periodic pension benefit cost included in loss from operations was:
(Dollars in millions)
| | Years ended December 31, / 2031 | Years ended December 31, / 2030 |
|---|---|---|
| Allocated to business segments | ($852) | ($885) |
| Pension service cost adjustment | 849 | 882 |"""


def test_the_largest_loss_is_the_most_negative_segment_not_a_reconciling_item() -> None:
    answer = read("Which of Kestrel's segments had the largest loss from operations in 2031?",
                  [_p("S1", PENSION_ALLOCATION, page=26), _p("S2", SEGMENT_RESULTS, page=25)]).text
    first = answer.split("\n")[0]
    assert first.startswith("Defense Systems had the largest loss from operations: $(3,544) million")
    assert "Pension" not in first and "Unallocated" not in first
    # the smallest loss asked: the least negative of the segments' losses, and the earnings order otherwise
    assert read("Which segment had the highest loss from operations in 2030?",
                [_p("S2", SEGMENT_RESULTS)]).text.startswith("Airliners had the largest loss from operations")


BY_LINE = """CONSOLIDATED OPERATING RESULTS
REVENUES (Dollars in millions)
| | FISCAL 2031 | FISCAL 2030 |
|---|---|---|
| Kestrel Brand Revenues by: | | |
| Footwear | $28,021 | $23,305 |
| Apparel | 12,865 | 10,953 |
| Equipment | 1,382 | 1,280 |"""


def test_a_region_asked_is_never_read_off_a_product_breakdown() -> None:
    answer = read("Which region had the highest revenues for Kestrel in fiscal 2031?", [_p("S1", BY_LINE)]).text
    assert not answer.startswith("Footwear")  # the product lines are no regions
    assert read("Which product line had the highest revenues in fiscal 2031?",
                [_p("S1", BY_LINE)]).text.startswith("Footwear had the highest revenues: $28,021 million")


GROWTH_COMPONENTS = """Components of Fiscal 2031 Net Sales growth
| ($ million) | Twelve Months Ended June 30 / Northlands | Twelve Months Ended June 30 / Southlands |
|---|---|---|
| Constant Currency Growth % | 4 | 5 |
| FX % | (4) | (1) |"""


def test_the_higher_of_the_segments_and_no_growth_rate_read_as_an_amount() -> None:
    answer = read("Which of Kestrel's segments had the higher net sales in the three months ended March 30, 2024?",
                  [_p("S1", SEGMENTS)]).text
    assert answer.startswith("Northlands had the highest net sales: $3,120 million"), answer
    # a table of growth rates by segment holds no segment's net sales ("Constant Currency Growth % … 5")
    rates = read("Which of Kestrel's segments had the higher net sales in fiscal 2031?",
                 [_p("S1", GROWTH_COMPONENTS)]).text
    assert "Constant Currency Growth % had" not in rates and "FX % had" not in rates


def test_a_segment_named_for_growth_is_still_a_segment() -> None:
    table = """Segment Net Sales (in millions)
| | Year ended December 31, / 2031 | Year ended December 31, / 2030 |
|---|---|---|
| Optical Links | $5,023 | $4,349 |
| Emerging Growth Businesses | 6,662 | 1,243 |"""
    assert read("Which of Kestrel's segments had the highest net sales in 2031?", [_p("S1", table)]).text.startswith(
        "Emerging Growth Businesses had the highest net sales: $6,662 million")
