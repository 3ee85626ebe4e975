"""What was paid is the cash-flow statement's "Cash paid for …" line, not the expense; a part (a segment's row, an
amount the item includes) is not the whole; an expense printed in brackets grew when its amount did. Made-up
filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.balances import part_only_factor
from chat.models.reader.queries import search_queries
from chat.models.reader.question import analyze

INCOME = """Harbourline Systems, Inc.
CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (Unaudited)
(In millions)
|  | Three Months Ended / June 29, 2024 | Three Months Ended / July 1, 2023 |
|---|---|---|
| Total net sales | 24,310 | 22,870 |
| Income before provision for income taxes | 6,120 | 5,480 |
| Provision for income taxes | 980 | 1,015 |
| Net income | 5,140 | 4,465 |"""

CASH_PAID = """Harbourline Systems, Inc.
CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS (Unaudited)
(In millions)
|  | Three Months Ended / June 29, 2024 | Three Months Ended / July 1, 2023 |
|---|---|---|
| Supplemental cash flow disclosure: |  |  |
| Cash paid for income taxes, net | $1,402 | $1,188 |
| Cash paid for interest | $215 | $190 |"""

SEGMENTS = """Harbourline Systems, Inc.
Note 9 – Segment Information
The following table shows information by reportable segment (in millions):
|  | Three Months Ended / June 29, 2024 | Three Months Ended / July 1, 2023 |
|---|---|---|
| Northern Region: |  |  |
| Net sales | $14,020 | $13,100 |
| Operating income | $4,210 | $3,950 |
| Southern Region: |  |  |
| Net sales | $10,290 | $9,770 |
| Operating income | $2,980 | $2,640 |"""

LAST_SEGMENT = """Harbourline Systems, Inc.
Note 9 – Segment Information
|  | Three Months Ended / June 29, 2024 | Three Months Ended / July 1, 2023 |
|---|---|---|
| Southern Region: |  |  |
| Net sales | $10,290 | $9,770 |
| Operating income | $2,980 | $2,640 |"""

DEFERRED = ("Total net sales include $2.1 billion of revenue recognized in the three months ended June 29, 2024 that "
            "was included in deferred revenue as of March 30, 2024.")

EXPENSES = """Harbourline Systems, Inc.
Reconciliation of segment operating income (in millions)
|  | Three Months Ended / June 29, 2024 | Three Months Ended / July 1, 2023 |
|---|---|---|
| Segment operating income | 7,190 | 6,590 |
| Research and development expense | (3,310) | (2,870) |
| Operating income | 3,880 | 3,720 |"""


def _passages(*texts: str) -> list[Passage]:
    return [Passage(f"S{i}", text, f"doc-{i}", "harbourline-10q.pdf", 4 + i) for i, text in enumerate(texts, 1)]


def test_what_was_paid_is_the_cash_paid_line() -> None:
    for texts in ((INCOME, CASH_PAID), (CASH_PAID, INCOME)):
        head = read("How much did Harbourline pay in income taxes?", _passages(*texts)).text.splitlines()[0]
        assert head.startswith("Cash paid for income taxes, net was $1,402 million"), head
    provision = read("What was Harbourline's provision for income taxes?", _passages(INCOME, CASH_PAID)).text
    assert provision.startswith("Provision for income taxes was 980 million"), provision


def test_what_was_paid_is_searched_on_the_cash_flow_statement() -> None:
    queries = search_queries("How much did Harbourline pay in income taxes?")
    assert queries[1] == "Harbourline consolidated statements of cash flows cash paid for income taxes"
    assert analyze("How much interest did Harbourline pay?").focus == "interest"
    assert analyze("How much revenue did Harbourline generate?").focus == "revenue"
    # a balance or an item the cash-flow statement prints already keeps its statement
    assert "cash flows" in search_queries("How much did Harbourline pay in dividends?")[1]


def test_a_segments_row_is_not_the_companys_total() -> None:
    for texts in ((SEGMENTS, INCOME), (LAST_SEGMENT, INCOME), (INCOME, SEGMENTS)):
        head = read("What was Harbourline's revenue in the three months ended June 29, 2024?",
                    _passages(*texts)).text.splitlines()[0]
        assert head.startswith("Total net sales were 24,310 million"), head
    region = read("What were Southern Region net sales in the three months ended June 29, 2024?",
                  _passages(SEGMENTS, INCOME)).text.splitlines()[0]
    assert "$10,290 million" in region, region


def test_an_amount_the_item_includes_is_not_the_item() -> None:
    assert part_only_factor(DEFERRED) < 1.0
    assert part_only_factor("Total net sales were $24.3 billion, which include $2.1 billion of services.") == 1.0
    head = read("What was Harbourline's revenue in the three months ended June 29, 2024?",
                _passages(DEFERRED, INCOME)).text.splitlines()[0]
    assert head.startswith("Total net sales were 24,310 million"), head


def test_an_expense_in_brackets_grew_when_its_amount_did() -> None:
    head = read("How did Harbourline's research and development expense change year over year?",
                _passages(EXPENSES)).text.splitlines()[0]
    # each year said as the amount spent, not "(3,310)"
    assert head.startswith("Research and development expense was up 15.3%: 3,310 million") and \
        "vs 2,870 million" in head, head
    income = read("How did Harbourline's operating income change year over year?", _passages(EXPENSES)).text
    assert income.startswith("Operating income was up 4.3%"), income


FLOWS_DIVIDENDS = """HALYARD SHOES › CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
| | YEAR ENDED MAY 31, / 2031 | YEAR ENDED MAY 31, / 2030 |
|---|---|---|
| Cash provided by operations | 6,657 | 2,485 |
| Dividends — common and preferred | (1,638) | (1,452) |
| Payments for operating lease liabilities | (402) | (380) |
| Supplemental disclosure of cash flow information: | | |
| Dividends declared and not paid | 438 | 385 |"""


def test_cash_dividends_paid_are_the_cash_flow_statements_dividends_line() -> None:
    """"cash dividends paid": the statement's "Dividends — common and preferred" outflow (each line of the cash flow
    statement is cash, each outflow paid), not the supplemental "Dividends declared and not paid" (before)."""
    flows = [Passage("S1", FLOWS_DIVIDENDS, "h", "HALYARD_2031_10K.pdf", 62)]
    first = read("What is the FY2031 total amount of cash dividends paid by Halyard? Answer in USD millions. Refer to "
                 "the cash flow statement.", flows).text.splitlines()[0]
    assert first.startswith("Dividends — common and preferred was (1,638) million"), first
    assert "in the year ended May 31, 2031" in first, first  # the header's capitals are not the sentence's
    lease = read("What is the FY2031 total amount of cash interest paid by Halyard? Refer to the cash flow statement.",
                 flows).text.splitlines()[0]
    assert "402" not in lease.split(":")[0], lease  # a line that names no interest is not made one by "cash paid"


FLOWS_SUSPENDED = """ORRERY AIRCRAFT › CONSOLIDATED STATEMENTS OF CASH FLOWS
(Dollars in millions)
| | Years ended December 31, / 2032 | Years ended December 31, / 2031 | Years ended December 31, / 2030 |
|---|---|---|---|
| Net cash provided/(used) by operating activities | 3,512 | (3,416) | (18,410) |
| Dividends paid | — | — | (1,158) |"""


def test_a_year_that_prints_no_amount_is_not_answered_by_the_year_before() -> None:
    """FY2031 asked, its cell "—": the December 2030 column is no fiscal 2031 (before: "$1,158 million in the year
    ended December 31, 2030", a neighbouring year counted 0.4 whatever its month) — and the row says none was paid
    (before: declined, "the documents don't say")."""
    first = read("What is the FY2031 total amount of cash dividends paid by Orrery? Answer in USD millions. Refer to "
                 "the cash flow statement.",
                 [Passage("S1", FLOWS_SUSPENDED, "o", "ORRERY_2032_10K.pdf", 64)]).text.splitlines()[0]
    assert "1,158" not in first.split(":")[0] and "2030" not in first, first
    assert first == ("Dividends paid: none in the year ended December 31, 2031 — the statement prints no amount for "
                     "that period (“—”) [S1]."), first


def test_a_blank_cell_is_none_only_in_a_column_the_table_fills() -> None:
    blank = FLOWS_SUSPENDED.replace("| Dividends paid | — | — | (1,158) |", "| Dividends paid |  |  | (1,158) |")
    answer = read("What is the FY2031 total amount of cash dividends paid by Orrery? Refer to the cash flow statement.",
                  [Passage("S1", blank, "o", "ORRERY_2032_10K.pdf", 64)])
    assert "none in the year ended December 31, 2031" in answer.text and "an empty cell" in answer.text, answer.text
    # a column most rows leave empty is a gap in the table's reading, not the company's "none"
    gappy = blank.replace("| 3,512 | (3,416) | (18,410) |", "| 3,512 |  | (18,410) |")
    answer = read("What is the FY2031 total amount of cash dividends paid by Orrery? Refer to the cash flow statement.",
                  [Passage("S1", gappy, "o", "ORRERY_2032_10K.pdf", 64)])
    assert "none" not in answer.text.splitlines()[0], answer.text


def test_a_year_the_statement_does_not_cover_is_not_none() -> None:
    first = read("What is the FY2034 total amount of cash dividends paid by Orrery? Refer to the cash flow statement.",
                 [Passage("S1", FLOWS_SUSPENDED, "o", "ORRERY_2032_10K.pdf", 64)]).text.splitlines()[0]
    assert "none" not in first, first
