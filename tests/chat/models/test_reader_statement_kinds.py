"""Statement questions of the analyst kind: a change "versus the same period of" a year, the prior column of
the earlier period asked, a money question not answered by a "% of revenue" cell, an outflow asked with a verb
("pay in dividends"). Made-up statements, questions written here (none from an evaluation set)."""

from __future__ import annotations

from chat.models.reader import Passage, analyze, read

QUARTER = """ORRIN LOGISTICS, INC.
CONSOLIDATED STATEMENTS OF OPERATIONS
(in millions)
| | Three Months Ended June 30, / 2022 | Three Months Ended June 30, / 2023 |
|---|---|---|
| Net product sales | $ 4,120 | $ 4,480 |
| Net service sales | 2,300 | 2,760 |
| Total net sales | 6,420 | 7,240 |
| Net income | 310 | 402 |"""

EARLIER = """ORRIN LOGISTICS, INC.
CONSOLIDATED STATEMENTS OF OPERATIONS
(in millions)
| | Three Months Ended March 31, / 2022 | Three Months Ended March 31, / 2023 |
|---|---|---|
| Net service sales | 2,105 | 2,590 |
| Total net sales | 6,010 | 6,870 |"""

SHARE_OF_SALES = """ORRIN LOGISTICS, INC. — results of operations as a percentage of net sales
| | Three Months Ended June 30, / 2022 | Three Months Ended June 30, / 2023 |
|---|---|---|
| Net income | 4.8 % | 5.6 % |"""

ANNUAL = """ORRIN LOGISTICS, INC.
CONSOLIDATED STATEMENTS OF OPERATIONS
(in millions)
| | Year Ended December 31, / 2021 | Year Ended December 31, / 2020 | Year Ended December 31, / 2019 |
|---|---|---|---|
| Total net sales | 24,800 | 22,100 | 20,950 |"""

CASH = """ORRIN LOGISTICS, INC.
CONSOLIDATED STATEMENTS OF CASH FLOWS
(in millions)
| | Six Months Ended June 30, / 2023 | Six Months Ended June 30, / 2022 |
|---|---|---|
| Net cash provided by operating activities | 1,240 | 1,010 |
| Dividends paid | (188) | (176) |
| Purchases of property and equipment | (655) | (702) |"""


def _first(question: str, *texts: str) -> str:
    passages = [Passage(f"S{i}", t, "o", "ORRIN_10Q.pdf", 4 + i) for i, t in enumerate(texts, start=1)]
    answer = read(question, passages)
    assert not answer.declined, answer.text
    return answer.text.split("\n")[0]


def test_a_change_versus_the_same_period_of_a_year_uses_the_later_filing_and_the_right_prior() -> None:
    q = analyze("By how much did Orrin's net service sales grow in the three months ended June 30, 2023 versus the "
                "same period of 2022, in USD millions?")
    assert q.kind == "change" and q.focus == "net service sales" and [p.text for p in q.periods][-1] == "2022"
    first = _first(q.text, EARLIER, QUARTER)
    assert "up 20.0%" in first and "$460 million" in first and "[S2]" in first


def test_the_prior_column_is_the_earlier_period_asked() -> None:
    first = _first("By how much did Orrin's total net sales change from FY2019 to FY2021?", ANNUAL)
    assert "24,800" in first and "20,950" in first and "22,100" not in first


def test_a_money_question_is_not_answered_by_a_percentage_cell() -> None:
    first = _first("What was Orrin's net income for the three months ended June 30, 2023 (in millions)?",
                   SHARE_OF_SALES, QUARTER)
    assert "402" in first and "%" not in first and "[S2]" in first


def test_an_outflow_asked_with_a_verb() -> None:
    assert analyze("How much did Orrin pay in dividends in the first half of 2023?").focus == "dividends"
    first = _first("Using the cash flow statement, how much did Orrin pay in dividends in the first half of 2023?",
                   CASH)
    assert "188" in first and "[S1]" in first


POSITION = """ORRIN LOGISTICS, INC.
CONSOLIDATED BALANCE SHEETS
(in millions)
| | December 31, / 2020 | December 31, / 2019 |
|---|---|---|
| Cash and cash equivalents | 1,200 | 1,100 |
| Accounts receivable, net | 1,864 | 1,699 |
| Accounts payable | 2,171 | 2,000 |"""


def test_analysts_abbreviations_name_line_items() -> None:
    assert "1,864" in _first("What is Orrin's year end FY2020 net AR (in USD millions)?", POSITION)
    assert "2,000" in _first("What was Orrin's AP at the end of FY2019?", POSITION)
    assert "2,976" in _first("What was Orrin's FY2020 COGS?", """ORRIN LOGISTICS, INC.
CONSOLIDATED STATEMENTS OF INCOME
(in millions)
| | Year Ended December 31, / 2020 | Year Ended December 31, / 2019 |
|---|---|---|
| Net sales | 4,800 | 4,400 |
| Cost of sales | 2,976 | 2,800 |""")


SBC_NOTE = """CALDERA SOFTWARE INC.
Total stock-based compensation costs included in our Consolidated Statements of Income for fiscal 2032 and 2031
were as follows:
(in millions)
| (in millions) | 2032 | 2031 |
|---|---|---|
| Cost of revenue | $97 | $70 |
| Research and development | 726 | 549 |"""

INCOME = """CALDERA SOFTWARE INC. › See Note 17 of our Notes to Consolidated Financial Statements
CONSOLIDATED STATEMENTS OF INCOME
(In millions, except per share data)
| | Years Ended / December 2, 2032 | Years Ended / December 3, 2031 |
|---|---|---|
| Research and development | 2,987 | 2,540 |"""


def test_prose_naming_the_statement_is_no_title_of_it() -> None:
    """A note whose sentence says "… included in our Consolidated Statements of Income" is not the income
    statement the question asks to rely on (before: its stock-based compensation row, ranked first, tied with the
    statement's line and won)."""
    answer = read("What is Caldera's FY2032 research and development expense in USD millions? Use the income "
                  "statement.", [Passage("S1", SBC_NOTE, "c", "CALDERA_10K.pdf", 83),
                                 Passage("S2", INCOME, "c", "CALDERA_10K.pdf", 54)])
    first = answer.text.splitlines()[0]
    assert "2,987" in first and "[S2]" in first, first


def test_an_investees_statement_of_operations_row_is_no_statement_title() -> None:
    """A note's table of an affiliate's results with a row "Statement of operations:" is not the income statement:
    asked "gross profit … Use the income statement", the statement's own "Gross margin" line answers, not the
    affiliate's "Gross profit" (before: both counted as the statement, the note's $87 million answered)."""
    note = """WREN GLASS › 3. Investments (Continued)
HSG's results of operations were as follows (in millions):
| | 2033 | 2032 |
|---|---|---|
| Statement of operations: | | |
| Net sales | $423 | $779 |
| Gross profit | $87 | $9 |"""
    statement = """Consolidated Statements of Income Wren Glass Incorporated
(In millions)
| (In millions) | Year ended December 31, / 2033 | Year ended December 31, / 2032 |
|---|---|---|
| Net sales | $11,303 | $11,503 |
| Cost of sales | 7,772 | 7,468 |
| Gross margin | 3,531 | 4,035 |"""
    first = read("What is Wren Glass's FY2033 gross profit in USD millions? Use the income statement.",
                 [Passage("S1", note, "w", "WREN_2033_10K.pdf", 79),
                  Passage("S2", statement, "w", "WREN_2033_10K.pdf", 70)]).text.splitlines()[0]
    assert first.startswith("Gross margin was $3,531 million"), first
