"""10-K statements (issue 12): a statement split into several grids, annual vs quarterly columns of a fiscal year,
the statement's own page before a summary table that repeats its figure, and the searches for a statement page.

Made-up filings of made-up companies (Orbit Foods, Kestrel Retail); no evaluation set's question or wording.
"""

# ruff: noqa: E501  (the fixtures are table rows as ingest writes them, one line each)
from __future__ import annotations

from chat.models.reader import Passage, analyze, read
from chat.models.reader.balances import change_only_factor
from chat.models.reader.statement_pages import is_statement_page, statement_followups
from chat.models.reader.tables import find_tables

# a balance sheet whose grid is cut by section headings: the later grids have a blank header
SPLIT_BALANCE = """Kestrel Retail Inc.
Consolidated Balance Sheets

(Amounts in millions)
| (Amounts in millions) | As of January 31, / 2024 | As of January 31, / 2023 |
|---|---|---|
| Cash and cash equivalents | $1,210 | $980 |
| Inventories | 7,455 | 7,102 |
| Total current assets | 9,870 | 9,311 |

LIABILITIES AND EQUITY
Current liabilities:
|  |  |  |
|---|---|---|
| Accounts payable | 5,520 | 5,307 |
| Total current liabilities | 8,140 | 7,905 |

|  |  |  |
|---|---|---|
| Long-term debt | 4,318 | 4,662 |
| Total equity | 6,204 | 5,880 |
"""

QUARTERLY = """Kestrel Retail Inc.
Quarterly financial data (unaudited)
(Amounts in millions)
| (Amounts in millions) | Q1 | Fiscal Year Ended January 31, 2024 / Q2 | Fiscal Year Ended January 31, 2024 / Q3 | Fiscal Year Ended January 31, 2024 / Q4 | Total |
|---|---|---|---|---|---|
| Cost of sales | 20,114 | 21,470 | 21,032 | 23,590 | 86,206 |
"""

INCOME = """Kestrel Retail Inc.
Consolidated Statements of Income
(Amounts in millions)
| (Amounts in millions) | Fiscal Years Ended January 31, / 2024 | Fiscal Years Ended January 31, / 2023 | Fiscal Years Ended January 31, / 2022 |
|---|---|---|---|
| Total revenues | $112,640 | $108,215 | $101,930 |
| Cost of sales | 86,206 | 83,004 | 78,115 |
| Operating income | 4,870 | 4,512 | 4,080 |
"""

SELECTED = """Item 6. Selected Financial Data
Consolidated Statements of Operations:
(in millions)
| (in millions) | Year ended January 31, / 2024 | Year ended January 31, / 2023 | Year ended January 31, / 2022 | Year ended January 31, / 2021 |
|---|---|---|---|---|
| Total revenues | $112,640 | $108,215 | $101,930 | $97,400 |
| Operating income | 4,870 | 4,512 | 4,080 | 3,950 |
"""


def _p(ref: str, text: str, page: int) -> Passage:
    return Passage(ref, text, "k1", "KESTREL_2024_10K.pdf", page)


def test_a_grid_with_a_blank_header_continues_the_statement_above_it() -> None:
    tables = find_tables(SPLIT_BALANCE)
    assert len(tables) >= 2
    assert [c.header for c in tables[-1].columns] == [c.header for c in tables[0].columns]
    assert tables[-1].unit.scale == 1e6
    answer = read("What was Kestrel Retail's long-term debt as of January 31, 2023?", [_p("S1", SPLIT_BALANCE, 53)])
    assert not answer.declined
    assert "$4,662 million" in answer.text.split("\n")[0]


def test_a_fiscal_year_asks_the_annual_column_not_a_quarter_of_that_year() -> None:
    answer = read("What is the FY2024 cost of sales for Kestrel Retail? Answer in USD millions.",
                  [_p("S1", QUARTERLY, 83)])
    first = answer.text.split("\n")[0]
    assert "21,470" not in first  # the Q2 column of fiscal 2024 is not the fiscal year


def test_the_statement_page_is_cited_before_a_summary_table_that_repeats_its_figure() -> None:
    passages = [_p("S1", SELECTED, 19), _p("S2", INCOME, 51)]
    answer = read("What was Kestrel Retail's operating income in fiscal 2023, in USD millions?", passages)
    first = answer.text.split("\n")[0]
    assert "$4,512 million" in first and "[S2]" in first  # the statement of income, not the selected data
    assert {ref for ref, _ in answer.quotes} == {"S1", "S2"}  # the other printing is cited beside it


def test_statement_titles_head_a_page_only_as_headings() -> None:
    assert is_statement_page(_p("S1", INCOME, 51), "income")
    assert is_statement_page(_p("S1", "ORBIT FOODS, INC. › CONSOLIDATED BALANCE SHEETS\n| a | b |", 40), "balance")
    assert not is_statement_page(_p("S1", SELECTED, 19))  # "Consolidated Statements of Operations:" is a sub-heading
    assert not is_statement_page(_p("S1", "The lease costs recognized in the Consolidated Statement of Income "
                                          "consist of the following:", 70))
    # MD&A's summary of the statement (two years of it), not the statement
    summary = ("Kestrel Retail Inc. › Results of Operations\nConsolidated Statements of Operations Data\nThe following "
               "table sets forth consolidated statements of operations data for the periods indicated.\n"
               "| | 2024 | 2023 |\n|---|---|---|\n| Total revenues | $112,640 | $108,215 |")
    assert not is_statement_page(_p("S1", summary, 37))
    # a note's heading path that names the balance sheet in a phrase (any case) is no title of it
    netting = ("KESTREL RETAIL INC. › Gross Amounts not Offset in the Consolidated Balance Sheet that are Subject to "
               "Master Netting\n| (Millions) | Derivative Assets | Net Amount |\n|---|---|---|")
    assert not is_statement_page(_p("S1", netting, 105))
    assert is_statement_page(_p("S1", "Kestrel Retail Inc. and Subsidiaries\nConsolidated Balance Shee t\n"
                                      "| | 2023 | 2022 |", 58), "balance")
    assert is_statement_page(_p("S1", "Consolidated Statements of Cash Flows for the years ended December 31, 2023 "
                                      "and 2022\n| | 2023 | 2022 |", 60), "cash")
    assert is_statement_page(_p("S1", "Signature Capacity › Critical Audit Matters\nConsolidated Statements of Income "
                                      "Kestrel Incorporated and Subsidiary Companies\n| | 2023 | 2022 |", 70), "income")
    # a table of contents' line, a note's numbered heading, a column's caption: no titles
    assert not is_statement_page(_p("S1", "KESTREL RETAIL INC.\nINDEX\nPage\nItem 1. Financial Statements 3\n"
                                          "Consolidated Statements of Cash Flows 3", 2))
    assert not is_statement_page(_p("S1", "Kestrel Retail Inc. › 3. Investments\n4. Balance Sheet Components\n"
                                          "| | 2023 | 2022 |", 51))
    assert not is_statement_page(_p("S1", "KESTREL RETAIL INC. › Hedges\n2019 2018 2017 Statement of Operations "
                                          "Classification\n| | 2023 | 2022 |", 94))
    assert any("statements of income" in q
               for q in statement_followups("What were Kestrel Retail's total revenues in fiscal 2022?",
                                            [_p("S1", summary, 37)]))


def test_the_statement_is_searched_for_when_no_result_is_a_page_of_it() -> None:
    question = "What were Kestrel Retail's total revenues for fiscal 2024?"
    queries = statement_followups(question, [_p("S1", SELECTED, 19)])
    assert queries and all("Kestrel Retail" in q and "total revenues" in q for q in queries)
    assert any("statements of income" in q for q in queries)
    assert statement_followups(question, [_p("S1", INCOME, 51)]) == []


def test_a_ratio_searches_for_the_statement_of_the_items_it_divides() -> None:
    """"Operating margin" names no line item; the statement asked for is the one that prints operating income and
    revenue (a table of percentages of revenue, found first, is no side of the ratio)."""
    question = "What is Kestrel Retail's operating margin for fiscal 2024?"
    queries = statement_followups(question, [_p("S1", SELECTED, 19)])
    assert queries and all("operating income" in q and "revenue" in q and "Kestrel Retail" in q for q in queries)
    assert any("statements of income" in q for q in queries)
    assert statement_followups(question, [_p("S1", INCOME, 51)]) == []
    assert any("balance sheets" in q for q in statement_followups("What is Kestrel Retail's current ratio?", []))


MDNA = ("Kestrel Retail Inc. Results of Operations\nTotal revenues increased in fiscal 2024 as compared to fiscal "
        "2023, driven by comparable sales growth in all segments and the opening of new stores.")


def test_a_year_the_statements_do_not_cover_is_declined_not_answered_with_the_closest_sentence() -> None:
    passages = [_p("S1", MDNA, 36), _p("S2", INCOME, 51)]
    answer = read("What were Kestrel Retail's total revenues in fiscal 2015 (in USD millions)?", passages)
    assert answer.declined and answer.quotes == ()
    assert answer.text.startswith("The documents don't say")
    covered = read("What were Kestrel Retail's total revenues in fiscal 2023 (in USD millions)?", passages)
    assert not covered.declined and "$108,215 million" in covered.text.split("\n")[0]


def test_a_statement_title_chunk_without_the_asked_row_has_its_page_read() -> None:
    from chat.models.reader.statement_pages import statement_pages_to_read

    title_only = _p("S2", "KESTREL RETAIL INC. › Consolidated Statements of Income\nSee accompanying notes.\n50", 51)
    question = "What were Kestrel Retail's total revenues in fiscal 2024?"
    assert statement_pages_to_read(question, [_p("S1", SELECTED, 19), title_only]) == [("k1", 51)]
    assert statement_pages_to_read(question, [_p("S1", INCOME, 51)]) == []  # its grid is there already
    page = Passage("P1", INCOME, "k1", "KESTREL_2024_10K.pdf", 51)
    assert statement_pages_to_read(question, [title_only, page]) == []  # read once


def test_the_statement_title_chunks_of_two_filings_have_both_their_pages_read() -> None:
    """This quarter's 10-Q and last quarter's both came back as title chunks without their grid: each one's
    statement page is read (which of them holds the asked quarter is not known before reading)."""
    from chat.models.reader.statement_pages import statement_pages_to_read

    title = "KESTREL RETAIL INC. › Condensed Consolidated Statements of Income\nSee accompanying notes."
    q2 = Passage("S1", title, "q2", "KESTREL_2024Q2_10Q.pdf", 3)
    q3 = Passage("S2", title, "q3", "KESTREL_2024Q3_10Q.pdf", 3)
    question = "What were Kestrel Retail's total revenues in Q2 of fiscal 2024?"
    assert statement_pages_to_read(question, [q3, q2]) == [("q3", 3), ("q2", 3)]
    assert statement_pages_to_read(question, [q3, Passage("S3", title, "q3", "KESTREL_2024Q3_10Q.pdf", 3)]) == [
        ("q3", 3)]  # one page of each document


def test_a_ratio_reads_the_statement_page_until_both_of_its_items_are_there() -> None:
    """The statement's first chunk holds the revenue row, operating income is in a chunk search did not return:
    the page is read (an operating margin is computed from both)."""
    from chat.models.reader.statement_pages import statement_pages_to_read

    head = INCOME.split("| Cost of sales")[0]
    question = "What was Kestrel Retail's operating margin in fiscal 2024?"
    assert statement_pages_to_read(question, [_p("S1", head, 51)]) == [("k1", 51)]
    assert statement_pages_to_read(question, [_p("S1", INCOME, 51)]) == []  # both rows are there
    first = read(question, [_p("S1", INCOME, 51)]).text.splitlines()[0]
    assert "4.3%" in first and "4,870" in first, first


def test_another_companys_statement_does_not_stop_the_search_for_the_asked_one() -> None:
    other = Passage("S2", INCOME.replace("Kestrel Retail Inc.", "ORBIT FOODS, INC."), "o1", "ORBIT_2022_10K.pdf", 45)
    assert statement_followups("What were Kestrel Retail's total revenues in fiscal 2024?",
                               [_p("S1", SELECTED, 19), other])


CASH_FLOWS = """Kestrel Retail Inc.
Consolidated Statements of Cash Flows
(Amounts in millions)
| (Amounts in millions) | Fiscal Years Ended January 31, / 2024 | Fiscal Years Ended January 31, / 2023 |
|---|---|---|
| Net increase in cash and cash equivalents | 230 | 118 |
| Cash and cash equivalents, beginning of year | 980 | 862 |
| Cash and cash equivalents, end of year | $1,210 | $980 |
"""


def test_a_balance_at_the_end_of_the_year_is_not_read_off_the_beginning_of_year_row() -> None:
    passages = [_p("S1", CASH_FLOWS, 56)]
    end = read("What was the total amount of cash and cash equivalents at the end of FY2024 for Kestrel Retail?",
               passages)
    assert "$1,210 million" in end.text.split("\n")[0], end.text
    start = read("What were Kestrel Retail's cash and cash equivalents at the beginning of fiscal 2024?", passages)
    assert "$980 million" in start.text.split("\n")[0], start.text


def test_two_line_items_joined_by_and_are_each_answered_unless_the_and_is_part_of_a_name() -> None:
    from chat.models.reader.items import item_questions

    assert item_questions("What were Kestrel Retail's basic and diluted earnings per share for 2024?") == [
        "What were Kestrel Retail's basic earnings per share for 2024?",
        "What were Kestrel Retail's diluted earnings per share for 2024?"]
    assert item_questions("What were Kestrel Retail's inventories and its accounts payable as of January 31, "
                          "2024?") == ["What were Kestrel Retail's inventories as of January 31, 2024?",
                                       "What were Kestrel Retail's accounts payable as of January 31, 2024?"]
    for whole in ("What were Kestrel Retail's cash and cash equivalents as of January 31, 2024?",
                  "What was Kestrel Retail's research and development expense in fiscal 2024?",
                  "What were Kestrel Retail's selling, general and administrative expenses in 2023?"):
        assert item_questions(whole) == [whole]
    row = "| Total liabilities and equity | $14,344 | $13,785 |"
    equity = _p("S1", SPLIT_BALANCE + row + "\n", 53)
    asked = "What were Kestrel Retail's total liabilities and equity as of January 31, 2024?"
    assert item_questions(asked, [equity]) == [asked]  # the joined words are one row's label
    answer = read("What were Kestrel Retail's inventories and its accounts payable as of January 31, 2024?",
                  [_p("S1", SPLIT_BALANCE, 53)])
    assert "$7,455 million" in answer.text and "$5,520 million" in answer.text, answer.text


def test_a_count_of_two_qualified_groups_a_sentence_states_together_is_one_question() -> None:
    """"full-time and part-time employees": a sentence that counts them together answers the question whole;
    without one, each qualifier is asked with the noun ("full-time employees"), never alone."""
    from chat.models.reader.items import item_questions

    asked = "How many full-time and part-time employees did Kestrel Retail have at the end of 2024?"
    said = _p("S1", "Kestrel Retail Inc. › Human Capital\nWe employed approximately 56,600 full-time and part-time "
                    "employees as of December 31, 2024.", 5)
    assert item_questions(asked, [said]) == [asked]
    assert item_questions(asked) == [
        "How many full-time employees did Kestrel Retail have at the end of 2024?",
        "How many part-time employees did Kestrel Retail have at the end of 2024?"]
    assert read(asked, [said]).text.startswith("The documents say 56,600")


SEGMENTS = """Subscription revenue by reportable segment for fiscal 2024, 2023 and 2022 is as follows:
(dollars in millions)
| (dollars in millions) | 2024 | 2023 | 2022 |
|---|---|---|---|
| Home Goods | $6,410 | $5,980 | $5,502 |
| Apparel | 2,115 | 2,040 | 1,987 |
| Total subscription revenue | $8,525 | $8,020 | $7,489 |
"""
SEGMENT_PROSE = ("Kestrel Retail Inc. › Segments\nSubscription revenue from Home Goods increased $430 million during "
                 "fiscal 2024 as compared to fiscal 2023, driven by new members.")


def test_a_segments_row_under_a_by_segment_caption_beats_a_sentence_that_states_only_a_change() -> None:
    answer = read("What was Kestrel Retail's Home Goods subscription revenue in fiscal 2023?",
                  [_p("S1", SEGMENT_PROSE, 42), _p("S2", "Kestrel Retail Inc.\n" + SEGMENTS, 41)])
    first = answer.text.split("\n")[0]
    assert "$5,980 million" in first and "[S2]" in first, answer.text


def test_a_defined_formula_reads_a_page_of_each_statement_its_operands_are_in() -> None:
    """"revenue / average inventory": the income statement's title chunk and the balance sheet's title chunk
    lack the rows — one page of each is read (a formula needs both), then the ratio is computed from them."""
    from chat.models.reader.statement_pages import statement_pages_to_read

    question = ("What is Kestrel Retail's FY2024 inventory turnover? Inventory turnover is defined as: (FY2024 cost "
                "of sales) / (average inventory between FY2023 and FY2024).")
    income_title = _p("S1", "Kestrel Retail Inc. › Consolidated Statements of Income\nSee accompanying notes.", 51)
    balance_title = _p("S2", "Kestrel Retail Inc. › Consolidated Balance Sheets\nSee accompanying notes.", 52)
    assert statement_pages_to_read(question, [income_title, balance_title]) == [("k1", 51), ("k1", 52)]
    assert statement_pages_to_read(question, [_p("S1", INCOME, 51), _p("S2", SPLIT_BALANCE, 52)]) == []
    # no balance sheet among the results: it is searched for, by its title and the operand it holds
    follow = statement_followups(question, [_p("S1", INCOME, 51)])
    assert follow and all("balance sheet" in f.lower() and "inventory" in f for f in follow), follow
    assert statement_followups(question, [_p("S1", INCOME, 51), _p("S2", SPLIT_BALANCE, 52)]) == []
    first = read(question, [_p("S1", INCOME, 51), _p("S2", SPLIT_BALANCE, 52)]).text.splitlines()[0]
    assert "11.84" in first and "86,206" in first and "7,455" in first and "7,102" in first, first


CONTINUING = """Kestrel Retail Inc.
Consolidated Statements of Earnings
(Amounts in millions)
| (Amounts in millions) | Fiscal Years Ended January 31, / 2024 | Fiscal Years Ended January 31, / 2023 |
|---|---|---|
| Revenue | $40,000 | $38,000 |
| Net earnings from continuing operations | 1,250 | 1,100 |
| Loss from discontinued operations, net of tax | (30) | (12) |
| Net earnings including noncontrolling interests | 1,220 | 1,088 |
| Net earnings attributable to noncontrolling interests | (4) | (3) |
| Net earnings attributable to Kestrel Retail Inc. shareholders | $1,216 | $1,085 |
"""


def test_the_net_income_asked_is_the_bottom_line_not_a_part_of_it() -> None:
    """"Net earnings" asked plainly: the earnings attributable to the company's shareholders ($1,216 million), not
    the continuing operations' $1,250 million nor the total with the noncontrolling interests; asked for the
    continuing operations, that row."""
    # (the cover's identity names the filer: "Kestrel Retail" in a row is the company, not a qualifier)
    passages = [Passage("S1", CONTINUING, "k1", "KESTREL_2024_10K.pdf", 52, company="Kestrel Retail Inc.")]
    net = read("What were Kestrel Retail's net earnings in fiscal 2024?", passages).text.split("\n")[0]
    assert "$1,216 million" in net, net
    margin = read("What was Kestrel Retail's net profit margin in fiscal 2024?", passages).text.split("\n")[0]
    assert "3.0%" in margin and "1,216" in margin, margin
    continuing = read("What were Kestrel Retail's net earnings from continuing operations in fiscal 2024?",
                      passages).text.split("\n")[0]
    assert "$1,250 million" in continuing, continuing


FINANCING = """Kestrel Retail Inc.
Consolidated Statements of Cash Flows
(Amounts in millions)
| (Amounts in millions) | Fiscal Years Ended January 31, / 2024 | Fiscal Years Ended January 31, / 2023 |
|---|---|---|
| Repurchases of common stock | $ (7,900) | $ (4,087) |
| Dividends paid | (2,940) | (2,812) |
| Net cash used in financing activities | (9,120) | (6,480) |
"""


def test_an_outflow_in_brackets_is_said_as_the_amount_spent() -> None:
    """"How much did Kestrel spend on buybacks?" → "$7,900 million … (printed in brackets)", not "$(7,900) million"; its
    change compares the amounts spent ("up 93.3%: $7,900 million … vs $4,087 million")."""
    passages = [_p("S1", FINANCING, 60)]
    spent = read("What was the total amount of share repurchases by Kestrel Retail in fiscal 2024?",
                 passages).text.split("\n")[0]
    assert "were $7,900 million" in spent and "(7,900)" not in spent and "printed in brackets" in spent, spent
    change = read("How did Kestrel Retail's repurchases of common stock change from fiscal 2023 to fiscal 2024?",
                  passages).text.split("\n")[0]
    assert "up 93.3%: $7,900 million" in change and "vs $4,087 million" in change, change


def test_a_yes_no_question_is_not_answered_surely_by_a_sentence_about_something_else() -> None:
    """"Did Kestrel report customer concentration?" over "Our 2024 ESG report will be available …" (its "report"
    and year, not the concentration): at most the closest evidence, never "The documents say"; a sentence that
    holds what is asked is still the answer."""
    esg = Passage("S1", "Kestrel Retail Inc. › Available Information\nOur 2024 Environmental, Social and Governance "
                        "report will be available on our website on or about March 17, 2025.", "k1",
                  "KESTREL_2024_10K.pdf", 5, company="Kestrel Retail Inc.")
    answer = read("Did Kestrel Retail report customer concentration in fiscal 2024?", [esg])
    assert not answer.text.startswith("The documents say"), answer.text
    concentration = Passage("S2", "Kestrel Retail Inc. › Concentrations\nIn fiscal 2024, one customer accounted for "
                                  "16% of our consolidated net revenue, a customer concentration we monitor.", "k1",
                            "KESTREL_2024_10K.pdf", 48, company="Kestrel Retail Inc.")
    answer = read("Did Kestrel Retail report customer concentration in fiscal 2024?", [esg, concentration])
    # (since ``reader.customers``: the concentration sentence answers yes or no)
    assert answer.text.startswith("Yes — the filing ties its revenue to a few customers") \
        and "16%" in answer.text.split("\n")[0], answer.text


def test_days_and_turnover_rows_are_no_money_in_a_table_of_millions() -> None:
    """"Days payable outstanding | 44" under "(in millions)" is 44 days, not "$44 million"; a turnover is a plain
    number; the money rows of the same table keep their dollars."""
    table = ("Kestrel Retail Inc.\nWorking capital metrics\n(in millions)\n"
             "| | January 31, / 2024 | January 31, / 2023 |\n|---|---|---|\n"
             "| Days payable outstanding (1) | 44 | 48 |\n| Inventory turnover | 3.8 | 4.1 |\n"
             "| Accounts payable | $ 1,174 | $ 1,587 |\n")
    passages = [_p("S1", table, 40)]
    dpo = read("What was Kestrel Retail's days payable outstanding at January 31, 2024?", passages).text
    assert "44 days" in dpo.split("\n")[0] and "$44" not in dpo, dpo
    turnover = read("What was Kestrel Retail's inventory turnover at January 31, 2024?", passages).text
    assert "was 3.8 " in turnover.split("\n")[0] and "million" not in turnover.split("\n")[0], turnover
    payable = read("What were Kestrel Retail's accounts payable at January 31, 2024?", passages).text
    assert "$1,174 million" in payable.split("\n")[0], payable


def test_a_number_glued_to_a_word_by_a_hyphen_is_no_negative_amount() -> None:
    """"COVID-19", "Mar-2" (a heading's code), "X-200": their numbers are no amount of "-19" or "-2"."""
    from chat.models.reader.evidence import answer_span

    cases = analyze("How many cases did Kestrel Retail report?")
    assert answer_span(cases, "Kestrel reported COVID-19 cases at two of its stores.") == ""
    benefits = analyze("How much did Kestrel Retail expect to pay in pension benefits in 2026?")
    assert answer_span(benefits, "KESTREL › Mar-2 › Expected Benefit Payments The following table presents "
                                 "estimated future benefit payments") == ""
    assert answer_span(benefits, "Kestrel expects to pay pension benefits of $412 million in 2026.") == "$412 million"


def test_a_products_code_or_a_length_of_time_is_no_revenue_to_state() -> None:
    """"Velorin/KX210b2" is a product's code, "over the next 12 months" a length of time: neither is the revenue
    asked; the sentence's money is."""
    from chat.models.reader.evidence import answer_span

    revenue = analyze("What was Kestrel Retail's revenue from Velorin in 2021?")
    assert answer_span(revenue, "Each of Velorin/KX210b2 and Ostrel recorded revenues of more than $1 billion "
                                "in 2021.") == "$1 billion"
    assert answer_span(revenue, "The Velorin deferred revenues will be recognized in Revenues over the next "
                                "12 months as doses are delivered.") == ""
    months = analyze("How many months will the Velorin deferred revenues take to be recognized?")
    assert answer_span(months, "The Velorin deferred revenues will be recognized in Revenues over the next "
                               "12 months as doses are delivered.") == "12 months"


def test_the_number_of_an_order_a_form_or_a_standard_is_no_amount() -> None:
    from chat.models.reader.evidence import answer_span

    staff = analyze("How many employees did Kestrel Retail have at the end of 2021?")
    assert answer_span(staff, "Pursuant to Executive Order 14042, all U.S. based employees of Kestrel Retail had "
                              "to be vaccinated.") == ""
    assert answer_span(staff, "At December 31, 2021, we had approximately 114,000 employees.") == "114,000 employees"
    cash = analyze("How much cash did Kestrel Retail hold at the end of fiscal 2023?")
    assert answer_span(cash, "Cash reported in this Form 10-K and under ASC Topic 230 is reconciled below.") == ""


def test_a_name_asked_is_not_the_heading_path_the_legal_form_or_a_letter_spaced_banner() -> None:
    from chat.models.reader.evidence import answer_span

    who = analyze("Who was appointed as Kestrel Retail's new CEO in August 2031?")
    release = ("Kestrel Retail, Inc. › N E W S R E L E A S E JANE Q. MARLOW APPOINTED AS CEO, EFFECTIVE "
               "SEPTEMBER 1, 2031")
    assert answer_span(who, release) == "JANE Q. MARLOW"
    assert answer_span(who, "The board of Kestrel Retail, Inc. named Tomas Vey chief executive.") == "Tomas Vey"


def test_when_a_fiscal_year_ended_is_its_full_date_not_the_year_asked_or_another_year() -> None:
    from chat.models.reader.evidence import answer_span

    when = analyze("When did Kestrel Retail's fiscal year 2031 end?")
    cover = ("Portions of the Proxy Statement for the registrant's 2032 Annual Meeting of Stockholders, to be filed "
             "within 120 days after the end of the fiscal year ended December 2, 2031, are incorporated by reference.")
    assert answer_span(when, cover) == "December 2, 2031"
    assert answer_span(when, "Creative ARR exiting fiscal 2031 was $11.60 billion.") == ""


def test_an_increase_stated_beside_another_items_amount_is_no_level() -> None:
    """"Net income … increased by $264 million … as a result of a gain of $215 million": the amount the reader would
    state is the change, so the statement's row is the answer."""
    mdna = ("Net income attributable to Kestrel plc increased by $264 million, or 62%, for the six months ended "
            "December 31, 2031, compared to the six months ended December 31, 2030 mainly as a result of a pre-tax "
            "net gain of $215 million.")
    table = ("Kestrel plc and Subsidiaries\nCondensed Consolidated Statements of Income\n"
             "in millions, except per share data)\n"
             "| ($ in millions, except per share data) | (Unaudited) / Three Months Ended December 31, / 2031 | "
             "Three Months Ended December 31, / 2030 | Six Months Ended December 31, / 2031 | "
             "Six Months Ended December 31, / 2030 |\n|---|---|---|---|---|\n"
             "| Net income attributable to non-controlling interests | (2) | (4) | (4) | (5) |\n"
             "| Net income attributable to Kestrel plc | $459 | $225 | $691 | $427 |\n")
    a = read("What was Kestrel's net income attributable to Kestrel plc for the six months ended December 31, 2031?",
             [_p("S1", mdna, 39), _p("S2", table, 5)])
    assert "$691 million" in a.text.split("\n")[0], a.text


DPO = ("Based on the information in the balance sheet and the statement of income, what is FY2024 days payable "
       "outstanding (DPO) for Kestrel Retail? DPO is defined as: 365 * (average accounts payable between FY2023 and "
       "FY2024) / (FY2024 COGS + change in inventory between FY2023 and FY2024).")


def test_a_written_out_formula_searches_each_statement_its_operands_are_in_by_the_statements_words() -> None:
    """A preamble makes the question no plain value question, yet the formula is one: the balance sheet is searched
    for its balances and the income statement for "cost of sales" — the statement's word, not the shorthand "COGS"
    (before: no search at all)."""
    queries = statement_followups(DPO, [_p("S1", SELECTED, 19)])
    assert any("balance sheets" in q and "accounts payable" in q and "inventory" in q for q in queries), queries
    assert any("statements of income" in q and "cost of sales" in q and "COGS" not in q for q in queries), queries


def test_the_statement_page_of_the_filing_of_the_asked_year_is_read_first() -> None:
    """Two filings' income statement title chunks came back; the FY2024 formula reads the FY2024 filing's page (the
    later filing holds FY2024 only as a comparative, not the balances a year before)."""
    from chat.models.reader.statement_pages import statement_pages_to_read

    def title(ref: str, doc: str, end: str, page: int) -> Passage:
        return Passage(ref, "KESTREL RETAIL INC. › Consolidated Statements of Income\nSee accompanying notes.", doc,
                       f"KESTREL_{end[:4]}_10K.pdf", page, company="KESTREL RETAIL INC.", period_end=end)

    passages = [title("S1", "k25", "2025-01-31", 48), title("S2", "k24", "2024-01-31", 51)]
    assert statement_pages_to_read(DPO, passages)[0] == ("k24", 51)


def test_a_statement_title_whose_last_letter_the_text_layer_set_apart_is_still_its_title() -> None:
    """"Consolidated Statement of Incom e", "Consolidated Balance Shee t": a text layer's kerning; the page is still
    the statement (before: not a statement page — never read whole, and a note that names the balance sheet in a
    sentence counted as it)."""
    income = _p("S1", "KESTREL RETAIL INC.\nConsolidated Statement of Incom e\nYears ended January 31\n"
                      "| (Millions) | 2024 | 2023 |\n|---|---|---|\n| Income before income taxes | 5,000 | 4,800 |", 56)
    assert is_statement_page(income, "income")
    balance = _p("S1", "KESTREL RETAIL INC.\nConsolidated Balance Shee t\nAt January 31\n(Millions)\n"
                       "| (Millions) | January 31, 2024 | January 31, 2023 |\n|---|---|---|\n"
                       "| Total current liabilities | 7,244 | 7,687 |", 58)
    note = _p("S2", "Accounts payable (included as a separate line item in the Consolidated Balance Sheet) includes "
                    "drafts payable.\n(Millions)\n| (Millions) | 2024 | 2023 |\n|---|---|---|\n"
                    "| Total other current liabilities | $2,775 | $2,709 |", 81)
    first = read("According to the balance sheet, what were Kestrel Retail's total current liabilities at the end "
                 "of FY2024 (in USD millions)?", [note, balance]).text.splitlines()[0]
    assert "7,244" in first, first


def test_a_statement_chunk_cut_below_its_header_has_its_page_read() -> None:
    """The row is in the chunk, but the chunk's grid has a blank header ("| | | |"): which column is which year is
    on the page above it — the page is read whole (before: the row's cell was capped as of no period, and a
    sentence answered)."""
    from chat.models.reader.statement_pages import statement_pages_to_read

    cut = _p("S1", "KESTREL RETAIL INC. › Consolidated Balance Sheets\nCurrent liabilities:\n|  |  |  |\n|---|---|---|\n"
                   "| Accounts payable | 5,520 | 5,307 |\n| Total current liabilities | 8,140 | 7,905 |", 53)
    question = "What were Kestrel Retail's total current liabilities as of January 31, 2024 in USD millions?"
    assert statement_pages_to_read(question, [cut]) == [("k1", 53)]
    assert statement_pages_to_read(question, [_p("S1", SPLIT_BALANCE, 53)]) == []  # its header is there


def test_earnings_per_share_under_its_other_names_and_a_quarters_ended_column() -> None:
    """"Earnings per common share" / "Net income (loss) per share" name the EPS; "For the Quarters Ended" columns
    are quarters — the fiscal year's diluted EPS is the annual statement's (before: unsure, then a quarter's)."""
    from chat.models.reader.periods import span_months
    from chat.models.reader.text import match_terms

    eps = match_terms("EPS")
    for label in ("Earnings per common share", "Net income (loss) per share", "Net loss per share"):
        assert eps <= match_terms(label), label
    assert span_months("For the Quarters Ended / December 31, 2019") == 3
    quarterly = _p("S1", "KESTREL RETAIL INC. › Quarterly Financial Information (Unaudited)\n| | For the Quarters "
                         "Ended / January 31, 2024 | For the Quarters Ended / October 31, 2023 |\n|---|---|---|\n"
                         "| Diluted earnings per common share | 0.68 | 0.26 |", 122)
    statement = _p("S2", "KESTREL RETAIL INC.\nCONSOLIDATED STATEMENTS OF OPERATIONS\n(Amounts in millions, except "
                         "per share data)\n| | For the Years Ended January 31, / 2024 | For the Years Ended January 31, "
                         "/ 2023 |\n|---|---|---|\n| Net income | $1,503 | $1,848 |\n| Earnings per common share | | |\n"
                         "| Basic | $1.96 | $2.43 |\n| Diluted | $1.95 | $2.40 |", 70)
    first = read("What is Kestrel Retail's FY2024 diluted earnings per share?", [quarterly, statement]).text
    assert first.splitlines()[0].startswith("Diluted") and "$1.95" in first.splitlines()[0], first


def test_the_statement_of_income_is_read_before_the_comprehensive_income_page() -> None:
    """Two title chunks of one filing came back without the asked row: the statement of income's page is read,
    not the comprehensive income's; a filing whose statement grid holds the row has no page read at all."""
    from chat.models.reader.statement_pages import statement_pages_to_read

    comprehensive = _p("S1", "KESTREL RETAIL INC.\nConsolidated Statements of Comprehensive Income\n($ in millions)\n"
                             "| | For the years ended January 31, / 2024 |\n|---|---|\n| Net income | $1,058 |", 52)
    income = _p("S2", "KESTREL RETAIL INC.\nConsolidated Statements of Income\n($ in millions)\n| | For the years "
                      "ended January 31, / 2024 |\n|---|---|\n| Net income attributable to Kestrel | $1,048 |", 51)
    question = "What were Kestrel Retail's total revenues in fiscal 2024?"
    assert statement_pages_to_read(question, [comprehensive, income]) == [("k1", 51)]
    assert statement_pages_to_read(question, [comprehensive, _p("S3", INCOME, 50)]) == []


def test_an_amount_followed_by_a_change_noun_is_the_change_not_the_value() -> None:
    """"a $49 million decrease in interest expense" states how much the expense fell, not the expense (before:
    "The documents say $49 million", a sure answer): at most the closest evidence."""
    text = ("KESTREL GAMES › Results of Operations The change in other expense reflects a $49 million decrease in "
            "interest expense and amortization of deferred financing costs associated with our debt obligations.")
    answer = read("What is the FY2033 interest expense for Kestrel Games? Answer in USD millions.",
                  [Passage("S1", text, "k", "KESTREL_2033_10K.pdf", 44)])
    first = answer.text.splitlines()[0]
    assert not first.startswith("The documents say $49 million"), first
    assert change_only_factor("a $49 million decrease in interest expense", "$49 million") < 1
    assert change_only_factor("Interest expense was $49 million in 2033.", "$49 million") == 1
