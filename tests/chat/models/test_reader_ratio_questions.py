"""Ratios and per-share figures an analyst asks in a sentence: an expense as a percentage of revenue computed from
amounts (not from a table of percentages, not with the expense's brackets as a sign), a rate that is no operand,
dividends per share stated year by year, none declared, a joined item a filing states as one. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.evidence import answer_span, balance_asked_of
from chat.models.reader.heads import another_ratio, another_return
from chat.models.reader.items import item_questions
from chat.models.reader.question import analyze
from chat.models.reader.ratios import ratio_sides
from chat.models.reader.tables import find_tables


def _passages(*texts: str) -> list[Passage]:
    return [Passage(f"S{i}", text, "doc-9x", "9X_2031_10K.pdf", 20 + i) for i, text in enumerate(texts, 1)]


def _head(question: str, *texts: str) -> str:
    return read(question, _passages(*texts)).text.splitlines()[0]


INCOME = """9X COMPANY › Consolidated Statement of Income
(Millions, except per share amounts)
|  | 2031 | 2030 |
|---|---|---|
| Net sales | $32,765 | $31,657 |
| Operating expenses |  |  |
| Selling, general and administrative expenses | 7,602 | 6,626 |
| Operating income | 7,207 | 7,820 |"""

SHARES_OF_SALES = """9X COMPANY › Operating Expenses:
| (Percent of net sales) | 2031 | 2030 | 2031 versus 2030 |
|---|---|---|---|
| Cost of sales | 50.9 % | 50.8 % | 0.1 % |
| Selling, general and administrative expenses | 23.2 | 20.9 | 2.3 |"""

BRACKETS = """9X COMPANY › Consolidated Statement of Income
(in millions)
|  | For the years ended June 30, / 2031 | For the years ended June 30, / 2030 |
|---|---|---|
| Net sales | $14,694 | $14,544 |
| Selling, general, and administrative expenses | (1,246) | (1,284) |"""


def test_an_expense_as_a_percentage_of_revenue_is_computed_from_amounts() -> None:
    q = "What were 9X's selling, general and administrative expenses as a percentage of revenue in fiscal 2031?"
    assert ratio_sides(q) == ("selling, general and administrative expenses", "revenue", True)  # no "9X's"
    for texts in ((SHARES_OF_SALES, INCOME), (INCOME, SHARES_OF_SALES)):
        head = _head(q, *texts)
        assert "was 23.2% in 2031" in head and "$7,602 million ÷ Net sales $32,765 million" in head, head
    # the table of percentages says so over its labels only: its cells are shares, not amounts
    assert "Percent of net sales" in find_tables(SHARES_OF_SALES)[0].caption
    head = _head(q, BRACKETS)
    assert "was 8.5% in the year ended June 30, 2031" in head, head  # an expense's brackets are no sign


RATES = """9X COMPANY › Financial Highlights
(Amounts in millions)
|  | Fiscal Years Ended January 31, / 2031 | Fiscal Years Ended January 31, / 2030 |
|---|---|---|
| Total revenues | $523,964 | $514,405 |
| Gross profit margin | 24.1% | 24.5% |"""

def test_a_rate_is_no_operand_of_a_ratio() -> None:
    # "Gross profit margin 24.1%" is a rate already: dividing it by revenue in dollars means nothing (before: 0.0%)
    head = _head("What was 9X's gross margin percentage in fiscal 2031?", RATES)
    assert "÷" not in head and "0.0%" not in head, head


DIVIDENDS = ("Cash dividends paid to shareholders totaled $3.193 billion ($5.44 per share) in 2031, $2.803 billion "
             "($4.70 per share) in 2030, and $2.678 billion ($4.44 per share) in 2029.")


def test_a_per_share_amount_of_the_year_asked() -> None:
    q = analyze("What dividends per share did 9X declare in fiscal 2031?")
    assert answer_span(q, DIVIDENDS) == "$5.44"
    assert answer_span(analyze("What dividends per share did 9X declare in fiscal 2029?"), DIVIDENDS) == "$4.44"
    # the total, where the per-share amount is not asked
    assert answer_span(analyze("How much did 9X pay in dividends in 2030?"), DIVIDENDS) == "$2.803 billion"


NEVER = "9X COMPANY › Dividend Policy\nWe have never declared or paid cash dividends on our common stock."
NOT_DECLARED = "9X COMPANY › Note 12\nAs of December 31, 2031, the Company did not declare any dividends."


SUSPENDED = ("9X COMPANY › Dividends\nAs a result, we did not pay any dividends in 2031 and 2030 compared with $1.2 "
             "billion paid in 2029.")


def test_no_dividends_means_none_per_share() -> None:
    for text in (NEVER, NOT_DECLARED):
        answer = read("What dividends per share did 9X declare in fiscal 2031?", _passages(text))
        assert answer.text.startswith("None in fiscal 2031, as the documents state [S1]."), answer.text
    # the amount of another year it is compared with is no amount of this one
    answer = read("How much did 9X pay in dividends in fiscal 2031?", _passages(SUSPENDED))
    assert answer.text.startswith("None in fiscal 2031"), answer.text
    answer = read("How much did 9X pay in dividends in fiscal 2029?", _passages(SUSPENDED))
    assert not answer.text.startswith("None"), answer.text


STATED = ("9X COMPANY › Liquidity\nAs of January 28, 2031, we had $3.9 billion of cash and short-term investments "
          "and $750 million of debt.")
USED = ("9X COMPANY › Liquidity\nIn fiscal 2031, we used $556 million of cash through investing activities "
        "compared to $8.7 billion in fiscal 2030.")


def test_a_joined_item_a_filing_states_as_one_is_asked_as_one() -> None:
    q = "How much cash and short-term investments did 9X hold at the end of fiscal 2031?"
    assert item_questions(q, _passages(STATED)) == [q]
    assert len(item_questions(q, _passages(USED))) == 2  # named as one nowhere: each item asked
    assert _head(q, STATED, USED).startswith("The documents say $3.9 billion"), _head(q, STATED, USED)
    assert balance_asked_of(analyze(q))
    assert not balance_asked_of(analyze("How much cash did 9X use in investing activities in fiscal 2031?"))


PENSION = """9X COMPANY › Note 11 – Pension Plans
|  | 2031 | 2030 |
|---|---|---|
| Expected return on plan assets | 7.00% | 7.25% |
| Asset category real assets | 12.4 | 11.9 |"""

PLAN_RATE = ("9X COMPANY › Note 11 – Pension Plans\nFor the primary U.S. qualified pension plan, the expected "
             "long-term rate of return on an annualized basis for 2031 is 7.00%.")

HIGHLIGHTS = """9X COMPANY › Financial History
|  | 2031 | 2030 |
|---|---|---|
| Return on assets | 8.4% | 7.9% |"""


def test_a_return_on_assets_is_not_a_pension_plans_return() -> None:
    q = "What was 9X's return on assets in fiscal 2031?"
    for texts in ((PENSION,), (PLAN_RATE,)):
        answer = read(q, _passages(*texts))
        assert answer.declined or "not sure" in answer.text, answer.text
    head = _head(q, PENSION, HIGHLIGHTS)
    assert head.startswith("Return on assets was 8.4% in"), head
    assert another_return("return on assets", "Expected return on plan assets")
    assert not another_return("return on assets", "Return on average total assets")
    assert not another_return("return on equity", "ROE")


BALANCE = """9X COMPANY › CONSOLIDATED BALANCE SHEETS
(In millions)
|  | December 31, / 2031 | December 31, / 2030 |
|---|---|---|
| Total assets | $19,845 | $17,890 |"""

EARNINGS = """9X COMPANY › CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions)
|  | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Net revenues | $6,489 | $7,500 |
| Net income | $1,503 | $1,813 |"""

INVESTEE = """9X COMPANY › NOTE 5. INVESTMENTS IN UNCONSOLIDATED JOINT VENTURES
Summary combined financial information for the joint ventures on a 100 percent basis is as follows:
| In Millions | Fiscal Year / 2031 | Fiscal Year / 2030 |
|---|---|---|
| Total net sales | 2,043.9 | 2,164.4 |
| Gross margin | 744.4 | 853.6 |
| Net income | 402.0 | 455.5 |"""


def test_return_on_assets_from_the_textbook_and_not_from_a_joint_venture() -> None:
    head = _head("What was 9X's return on assets in fiscal 2031?", EARNINGS, BALANCE)
    assert head.startswith("The return on assets was 7.6% (no line of it was found; return on assets taken as "
                           "net income / total assets; computed: Net income $1,503 million"), head
    # a joint venture's net income is no operand of the company's ratio, nor its gross margin the company's
    answer = read("What was 9X's return on assets in fiscal 2031?", _passages(INVESTEE, BALANCE))
    assert "402" not in answer.text.splitlines()[0], answer.text
    answer = read("What was 9X's gross margin percentage in fiscal 2031?", _passages(INVESTEE, EARNINGS))
    assert "744.4" not in answer.text.splitlines()[0], answer.text


OTHER_RATIOS = ("9X COMPANY › Liquidity\nOur debt to earnings ratio was 1.1 as of January 28, 2031, compared to 2.1 "
                "as of January 30, 2030, due to higher earnings in the current year.")


def test_a_debt_to_equity_ratio_is_no_other_x_to_y_ratio() -> None:
    answer = read("What was 9X's debt-to-equity ratio at the end of fiscal 2031?", _passages(OTHER_RATIOS))
    assert answer.declined or "not sure" in answer.text, answer.text
    assert another_ratio("debt-to-equity ratio", "Our debt to earnings ratio was 1.1")
    assert not another_ratio("debt-to-equity ratio", "The debt to equity ratio was 0.9")
    assert not another_ratio("current ratio", "Our debt to earnings ratio was 1.1")
