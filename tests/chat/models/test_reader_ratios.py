"""Ratios computed from two cited cells: an explicit formula in the question or its instructions, and the
textbook ratios filings do not print. Made-up statements, questions written here (none from an evaluation set)."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.ratios import ratio_sides

OPERATIONS = """HALDEN FOODS CORPORATION
CONSOLIDATED STATEMENTS OF INCOME
(In millions)
| | Year Ended June 30, / 2022 | Year Ended June 30, / 2021 |
|---|---|---|
| Net sales | $ 5,200 | $ 4,800 |
| Cost of sales | 3,120 | 2,976 |
| Gross profit | 2,080 | 1,824 |
| Operating income | 780 | 624 |
| Net income | $ 520 | $ 408 |"""

BALANCE = """HALDEN FOODS CORPORATION
CONSOLIDATED BALANCE SHEETS
(In millions)
| | June 30, 2022 | June 30, 2021 |
|---|---|---|
| Total current assets | 1,850 | 1,610 |
| Total assets | 6,400 | 6,020 |
| Total current liabilities | 1,250 | 1,400 |"""

PASSAGES = [Passage("S1", OPERATIONS, "h", "HALDEN_10K.pdf", 44), Passage("S2", BALANCE, "h", "HALDEN_10K.pdf", 46)]


def _first(question: str) -> str:
    answer = read(question, PASSAGES)
    assert not answer.declined, answer.text
    return answer.text.split("\n")[0]


def test_ratio_sides_from_formulas_and_names() -> None:
    assert ratio_sides("What is it? Calculate it as operating income divided by net sales.") == (
        "operating income", "net sales", False)
    assert ratio_sides("What was the ratio of total current assets to total current liabilities in 2022?") == (
        "total current assets", "total current liabilities", False)
    assert ratio_sides("What was net income as a percentage of net sales in FY2022?") == (
        "net income", "net sales", True)
    assert ratio_sides("What is the FY2022 gross margin (gross profit / net sales)?") == (
        "gross profit", "net sales", True)
    assert ratio_sides("What is Halden's current ratio?") == ("total current assets", "total current liabilities",
                                                             False)
    assert ratio_sides("What was Halden's net income in 2022?") is None
    assert ratio_sides("What was the gross margin in the second quarter, in dollars?") is None


def test_the_current_ratio_is_computed_from_two_cited_cells() -> None:
    first = _first("What is Halden Foods' current ratio as of June 30, 2022? Round to two decimal places.")
    assert "1.48" in first and "computed" in first and "1,850" in first and "1,250" in first and "[S2]" in first


def test_a_margin_in_percent_over_the_asked_year() -> None:
    first = _first("Assume you are an analyst. What was Halden Foods' FY2021 operating margin?")
    assert "13.0%" in first and "624" in first and "4,800" in first and "[S1]" in first


def test_an_explicit_formula_in_the_instructions() -> None:
    first = _first("What is Halden Foods' gross margin percentage for the year ended June 30, 2022? Calculate it "
                   "as gross profit divided by net sales.")
    assert "40.0%" in first and "[S1]" in first


def test_a_side_that_no_table_holds_computes_nothing() -> None:
    answer = read("What is Halden's inventory turnover? Calculate it as cost of sales divided by average "
                  "inventory.", PASSAGES)
    assert "÷" not in answer.text


def test_a_ratio_of_a_company_no_passage_names_is_declined() -> None:
    answer = read("What is Tamarind Brewing's current ratio as of June 30, 2022?", PASSAGES)
    assert answer.declined and "÷" not in answer.text


def test_a_table_of_percentages_is_no_side_of_a_ratio() -> None:
    """"Operating income 50.3" in a table of items as a percentage of revenue is a share already: the margin is
    computed from the amounts, never by dividing that share by revenue in dollars."""
    shares = Passage("S1", "The following table sets forth certain items of our income statement expressed as a "
                           "percentage of revenue.\n| | Three Months Ended / July 30, 2031 |\n|---|---|\n"
                           "| Revenue | 100.0 % |\n| Operating income | 50.3 |", "d", "q2.pdf", 28,
                     company="KESTREL CORP")
    amounts = Passage("S2", "CONDENSED CONSOLIDATED STATEMENTS OF INCOME\n(In millions)\n"
                            "| | Three Months Ended / July 30, 2031 |\n|---|---|\n| Revenue | $ 13,507 |\n"
                            "| Operating income | 6,800 |", "d", "q2.pdf", 3, company="KESTREL CORP")
    question = "What is Kestrel's operating margin for the three months ended July 30, 2031?"
    first = read(question, [shares, amounts]).text.splitlines()[0]
    assert "50.3%" in first and "6,800" in first and "50.3 ÷" not in first, first


def test_sides_printed_in_different_scales_are_divided_in_one() -> None:
    """A release prints its statement in thousands and its segment table in millions: the ratio reads both in
    ones before dividing (before: $1,300 million ÷ $5,200,000 thousand was printed as 0.0%)."""
    thousands = Passage("S1", "HALDEN FOODS CORPORATION\nCONSOLIDATED STATEMENTS OF INCOME\n(In thousands)\n"
                              "| | Year Ended June 30, / 2022 |\n|---|---|\n| Net sales | $ 5,200,000 |", "h",
                        "HALDEN_10K.pdf", 44)
    millions = Passage("S2", "HALDEN FOODS CORPORATION\nSELECTED DATA\n(In millions)\n"
                             "| | Year Ended June 30, / 2022 |\n|---|---|\n| Operating income | $ 1,300 |", "h",
                       "HALDEN_10K.pdf", 12)
    first = read("What was Halden's operating income as a percentage of net sales in FY2022?",
                 [thousands, millions]).text.splitlines()[0]
    assert "25.0%" in first and "1,300" in first and "5,200,000" in first, first


def test_no_ratio_of_two_documents_figures() -> None:
    """Each side from another document (another company's, or another report's scope) is no ratio of anything."""
    other = Passage("S2", BALANCE.replace("HALDEN FOODS CORPORATION", "TAMARIND BREWING CO."), "t",
                    "TAMARIND_10K.pdf", 46)
    operations_only = Passage("S1", OPERATIONS.replace("| Operating income | 780 | 624 |\n", ""), "h",
                              "HALDEN_10K.pdf", 44)
    balance_only = Passage("S3", "HALDEN FOODS CORPORATION\nCONSOLIDATED BALANCE SHEETS\n(In millions)\n"
                                 "| | June 30, 2022 |\n|---|---|\n| Total assets | 6,400 |", "h2",
                           "HALDEN_2022_Q.pdf", 9)
    answer = read("What was the ratio of net income to total assets for Halden in FY2022?",
                  [operations_only, balance_only, other])
    assert "÷" not in answer.text, answer.text
    same = Passage("S3", balance_only.text, "h", "HALDEN_10K.pdf", 46)
    first = read("What was the ratio of net income to total assets for Halden in FY2022?",
                 [operations_only, same, other]).text.splitlines()[0]
    assert "0.08" in first and "÷" in first, first


THREE_YEARS = """HALDEN FOODS CORPORATION
CONSOLIDATED STATEMENTS OF INCOME
(In millions)
| | Fiscal Years Ended / June 30, 2022 | Fiscal Years Ended / June 30, 2021 | Fiscal Years Ended / June 30, 2020 |
|---|---|---|---|
| Revenue | $ 5,000 | $ 4,000 | $ 2,000 |
| Cost of goods sold | 3,000 | 2,600 | 1,400 |
| Net earnings | $ 500 | $ 200 | $ 60 |"""


def test_an_n_year_average_of_a_ratio_is_the_mean_of_each_years() -> None:
    """"the FY2020 - FY2022 3 year average net profit margin": each year's margin from its own cells, then their
    mean (10.0%, 5.0%, 3.0% → 6.0%) — not one year's margin under the average's name."""
    passages = [Passage("S1", THREE_YEARS, "h", "HALDEN_10K.pdf", 40)]
    first = read("What is the FY2020 - FY2022 3 year average net profit margin (as a %) for Halden? Answer in units "
                 "of percents and round to one decimal place.", passages).text.splitlines()[0]
    assert "3-year average net profit margin" in first and "6.0%" in first, first
    assert "FY2020 3.0%" in first and "FY2021 5.0%" in first and "FY2022 10.0%" in first and "[S1]" in first
    first = read("What is Halden's three year average of cost of goods sold as a % of revenue from FY2020 to "
                 "FY2022?", passages).text.splitlines()[0]
    assert "65.0%" in first, first  # (70.0 + 65.0 + 60.0) / 3
    assert "65.0%" in read("What is Halden's 3-year average of cost of goods sold as a % of revenue up to FY2022?",
                           passages).text.splitlines()[0]


def test_an_average_over_years_a_table_does_not_hold_is_not_computed() -> None:
    passages = [Passage("S1", OPERATIONS, "h", "HALDEN_10K.pdf", 44)]  # two years only
    answer = read("What is the FY2020 - FY2022 3 year average net profit margin for Halden?", passages)
    assert "average" not in answer.text.splitlines()[0] or answer.declined
    assert "÷" not in answer.text.splitlines()[0]


def test_a_ratios_direction_is_answered_from_both_periods_cells() -> None:
    """"Does Halden have an improving operating margin?": the margin of the asked year and of the year before,
    each from its own cells, and a yes or no that follows the question's direction (before: one year's margin
    under the name "have an improving operating margin")."""
    first = _first("Does Halden Foods have an improving operating margin profile as of FY2022?")
    assert first.startswith("Yes — the operating margin rose, 2.0 percentage points: 15.0%"), first
    assert "vs 13.0%" in first and "780" in first and "624" in first and "4,800" in first and "[S1]" in first
    first = _first("Did Halden's net margin decline in FY2022 compared to FY2021?")
    assert first.startswith("No — the net margin rose") and "10.0%" in first and "8.5%" in first, first
    first = _first("Has Halden's current ratio improved between FY2021 and FY2022?")
    assert first.startswith("Yes — the current ratio rose: 1.48") and "vs 1.15" in first, first


def test_a_direction_without_the_earlier_periods_cells_is_one_periods_ratio() -> None:
    only_2022 = Passage("S1", "HALDEN FOODS CORPORATION\nCONSOLIDATED STATEMENTS OF INCOME\n(In millions)\n"
                              "| | Year Ended June 30, / 2022 |\n|---|---|\n| Net sales | $ 5,200 |\n"
                              "| Operating income | 780 |", "h", "HALDEN_10K.pdf", 44)
    first = read("Does Halden have an improving operating margin as of FY2022?", [only_2022]).text.splitlines()[0]
    assert not first.startswith(("Yes", "No")) and "15.0%" in first, first


def test_an_expense_named_with_sales_is_not_the_revenue() -> None:
    """"Sales and marketing" (an operating expense) holds the revenue group's word "sales"; "Total revenue" is the
    revenue — a margin divides by it (before: the expense row tied with it and came first)."""
    statement = Passage("S1", "KESTREL SOFTWARE INC.\nCONSOLIDATED STATEMENTS OF INCOME\n(In millions)\n"
                              "| | Years Ended / December 2, 2031 |\n|---|---|\n| Operating expenses: | |\n"
                              "| Sales and marketing | 4,000 |\n| Research and development | 2,000 |\n"
                              "| Operating income | 3,000 |", "k", "KESTREL_10K.pdf", 50)
    revenue = Passage("S2", "KESTREL SOFTWARE INC.\nCONSOLIDATED STATEMENTS OF INCOME\n(In millions)\n"
                            "| | Years Ended / December 2, 2031 |\n|---|---|\n| Revenue: | |\n"
                            "| Subscription | 9,000 |\n| Services | 3,000 |\n| Total revenue | 12,000 |", "k",
                      "KESTREL_10K.pdf", 50)
    first = read("What was Kestrel's operating margin in FY2031?", [statement, revenue]).text.splitlines()[0]
    assert "25.0%" in first and "12,000" in first and "4,000" not in first, first


CASH_THREE_YEARS = """HALDEN FOODS CORPORATION
CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
| | Fiscal Years Ended / June 30, 2022 | Fiscal Years Ended / June 30, 2021 | Fiscal Years Ended / June 30, 2020 |
|---|---|---|---|
| Capital expenditures | (500) | (200) | (100) |"""


def test_an_outflow_side_is_its_size_and_a_range_before_the_average_is_the_years() -> None:
    """"the FY2020 - FY2022 3 year average of capex as a % of revenue": the years written before the average
    are the question's, not part of the item; capex printed "(500)" is an outflow of 500 (10.0%, 5.0%, 5.0%)."""
    passages = [Passage("S1", THREE_YEARS, "h", "HALDEN_10K.pdf", 40),
                Passage("S2", CASH_THREE_YEARS, "h", "HALDEN_10K.pdf", 42)]
    first = read("What is the FY2020 - FY2022 3 year average of capex as a % of revenue for Halden? Answer in units "
                 "of percents and round to one decimal place.", passages).text.splitlines()[0]
    assert "3-year average capex as a percentage of revenue" in first and "6.7%" in first, first
    assert "-" not in first.split("was ")[1][:3], first


def test_a_margin_written_with_its_line_item_and_a_percent_sign_is_the_named_ratio() -> None:
    """"operating income % margin", "net income percentage margin": the operating / net margin."""
    assert ratio_sides("What is the FY2022 unadjusted operating income % margin for Halden?") == (
        "operating income", "revenue", True)
    assert ratio_sides("What is Halden's FY2022 net income percentage margin?") == ("net income", "revenue", True)
    first = _first("What is the FY2022 unadjusted operating income % margin for Halden Foods?")
    assert "15.0%" in first and "780" in first and "5,200" in first, first


def test_a_yes_no_question_about_a_change_is_answered_yes_or_no_first() -> None:
    """"Did Halden grow its net sales …?" → "Yes — net sales were up …"; a drop asked of a figure that rose → "No";
    a question that asks no direction keeps the plain change."""
    grew = _first("Did Halden Foods grow its net sales between FY2021 and FY2022?")
    assert grew.startswith("Yes — net sales were up 8.3%: $5,200 million"), grew
    dropped = _first("Was there any drop in Halden Foods' total current assets between FY2021 and FY2022?")
    assert dropped.startswith("No — total current assets were up"), dropped
    changed = _first("Was there any change in Halden Foods' total current liabilities between FY2021 and FY2022?")
    assert changed.startswith("Yes — total current liabilities were down"), changed
    plain = _first("How did Halden Foods' net sales change between FY2021 and FY2022?")
    assert plain.startswith("Net sales were up 8.3%"), plain


#: a release's statement printing each line's share of sales beside its amount; the sales row is on another chunk
PERCENT_TO_SALES = """Halden Foods › Condensed Consolidated Statement of Earnings
(Unaudited; in Millions Except Per Share Figures)
| | SECOND QUARTER / 2031 / Amount | 2031 / Percent to Sales | 2030 / Amount | 2030 / Percent to Sales | Change |
|---|---|---|---|---|---|
| Earnings before provision for taxes on income | 1,690 | 26.5 | 1,460 | 24.3 | 15.8 |
| Net earnings | $1,286 | 20.1 | $1,204 | 20.0 | 6.8 |"""

#: a restated table of the same quarter, its share cells left blank, and its sales row: divided, a different figure
RESTATED = """Halden Foods › Condensed Consolidated Statement of Earnings (restated)
| | 2031 / Q2 / Amount | 2031 / Q2 / Percent to Sales |
|---|---|---|
| Sales to customers | $5,380 | 100.0 % |
| Net earnings | $1,286 | |"""


def test_the_share_printed_beside_the_amount_is_read_for_each_period_asked() -> None:
    """"Net earnings | $1,286 | 20.1 | $1,204 | 20.0": the table's own "Percent to Sales" for both quarters — not
    1,286 ÷ a restated table's sales (23.9%), whose share cell is blank; the question's "increase" is no word of the
    base "sales" (before: the base read "sales increase", and the one quarter was computed from the restated table)."""
    passages = [Passage("S1", RESTATED, "r", "HALDEN_8K.pdf", 12),
                Passage("S2", PERCENT_TO_SALES, "e", "HALDEN_EARN.pdf", 10)]
    assert ratio_sides("Did Halden's net earnings as a percent of sales increase in Q2 of FY2031 compared to Q2 of "
                       "FY2030?") == ("net earnings", "sales", True)
    answer = read("Did Halden's net earnings as a percent of sales increase in Q2 of FY2031 compared to Q2 of FY2030?",
                  passages)
    head = answer.text.splitlines()[0]
    assert head.startswith("Yes — the net earnings as a percentage of sales rose, 0.1 percentage points: 20.1% in the "
                           "second quarter of 2031 vs 20.0% in the second quarter of 2030"), head
    assert "[S2]" in head and "[S1]" not in head and "23.9" not in answer.text
    one = read("What was Halden's net earnings as a percent of sales in Q2 2031?", passages)
    assert one.text.startswith("The net earnings as a percent of sales was 20.1% in the second quarter of 2031 (as the "
                               "table prints it in its “Percent to Sales” column, beside Net earnings $1,286) [S2]"), \
        one.text


STEADY = """HALDEN FOODS CORPORATION
CONSOLIDATED STATEMENTS OF EARNINGS
($ in millions)
| | Fiscal Year / 2031 | Fiscal Year / 2030 | Fiscal Year / 2029 |
|---|---|---|---|
| Revenue | $ 46,300 | $ 51,760 | $ 47,260 |
| Cost of sales | 36,386 | 40,121 | 36,689 |
| Gross profit | 9,914 | 11,639 | 10,571 |"""


def test_whether_a_margin_held_steady_and_whether_its_profile_improved() -> None:
    """"historically consistent (not … more than roughly 2%)": each year's gross margin, the largest move between
    neighbours (1.1 points) against the move allowed; "an improving gross margin profile" is the ratio's trend, not a
    dollar line (before: neither was read as the gross margin ratio — no "percent" in the question)."""
    passages = [Passage("S1", STEADY, "h", "HALDEN_2031_10K.pdf", 40)]
    first = read("Are Halden's gross margins historically consistent (not fluctuating more than roughly 2% each "
                 "year)?", passages).text.splitlines()[0]
    assert first.startswith("Yes — the gross margins moved at most 1.1 percentage points from one year to the next "
                            "over the 3 years found: 21.4% in the fiscal year 2031; 22.5% in the fiscal year 2030; "
                            "22.4% in the fiscal year 2029"), first
    strict = read("Are Halden's gross margins consistent (not fluctuating more than 1% each year)?", passages)
    assert strict.text.startswith("No — "), strict.text
    profile = read("Does Halden have an improving gross margin profile as of FY2031?", passages).text
    assert profile.startswith("No — the gross margin fell, 1.1 percentage points: 21.4% in the fiscal year 2031 vs "
                              "22.5% in the fiscal year 2030"), profile


def test_a_part_no_table_holds_is_no_share_of_the_whole_and_a_sentence_says_it() -> None:
    """"What share of Halden's net sales came from Halden U.S.?" asks a percentage: where only the whole's line was
    found, its share of itself is no answer; a sentence that states the segment's share is (before: its "$3.4
    billion" of net sales)."""
    page = [Passage("S1", OPERATIONS, "h", "HALDEN_10K.pdf", 44), Passage("P1", OPERATIONS, "h", "HALDEN_10K.pdf", 44)]
    question = "What share of Halden's net sales came from Halden U.S. in fiscal 2022?"
    assert "100.0%" not in read(question, page).text.split("\n")[0]
    segment = Passage("S2", "Halden U.S. Segment\nHalden U.S. had net sales of $3.4 billion for fiscal 2022, "
                      "representing 66% of our fiscal 2022 consolidated net sales.", "h", "HALDEN_10K.pdf", 30)
    assert read(question, [*page, segment]).text.startswith("The documents say 66%")
