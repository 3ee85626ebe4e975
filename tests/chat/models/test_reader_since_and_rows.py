"""A change asked "since <date>" runs from that date's column to the latest; a row that is the name asked under the
item's heading ("Services" under "Gross margin:") is that item; a sentence that names only the company is no
answer. Made-up filings."""

from __future__ import annotations

import pytest

from chat.models.reader import Passage, read
from chat.models.reader.question import analyze

BALANCE = """Larkfield Instruments, Inc.
CONDENSED CONSOLIDATED BALANCE SHEETS (Unaudited)
(In millions)
|  | June 29, 2024 | September 30, 2023 |
|---|---|---|
| Total current assets | 61,200 | 66,480 |
| Total assets | 171,940 | 180,310 |
| Total liabilities | 120,005 | 131,770 |"""

MARGIN = """Larkfield Instruments, Inc.
Gross Margin
Products and Services gross margin for the three months ended June 29, 2024 and July 1, 2023 (in millions):
|  | Three Months Ended / June 29, 2024 | Three Months Ended / July 1, 2023 |
|---|---|---|
| Gross margin: |  |  |
| Products | $9,410 | $9,820 |
| Services | 4,870 | 4,320 |
| Total gross margin | $14,280 | $14,140 |
| Gross margin percentage: |  |  |
| Products | 35.2 % | 35.9 % |
| Services | 71.4 % | 70.6 % |
| Total gross margin percentage | 44.9 % | 44.6 % |"""

PERCENTAGES = """Larkfield Instruments, Inc.
Gross Margin
|  | Three Months Ended / June 29, 2024 | Three Months Ended / July 1, 2023 |
|---|---|---|
| Total gross margin percentage | 44.9 % | 44.6 % |
The Company's gross margin percentage rose on a different mix of products and services."""

CERTIFICATION = "I have reviewed this quarterly report on Form 10-Q of Larkfield Instruments, Inc.;"


def _passages(*texts: str) -> list[Passage]:
    return [Passage(f"S{i}", text, f"doc-{i}", "larkfield-10q.pdf", 3 + i) for i, text in enumerate(texts, 1)]


def test_a_change_since_a_date_runs_from_that_column_to_the_latest() -> None:
    q = analyze("How much did Larkfield's total assets change since September 30, 2023?")
    assert q.kind == "change" and q.focus == "total assets"
    head = read(q.text, _passages(BALANCE)).text.splitlines()[0]
    assert head.startswith("Total assets were down 4.6%: 171,940 million as of June 29, 2024 vs 180,310 million as "
                           "of September 30, 2023"), head


def test_the_name_asked_under_the_items_heading_is_the_item() -> None:
    for texts in ((MARGIN,), (PERCENTAGES, MARGIN)):
        head = read("What was Larkfield's gross margin for Services?", _passages(*texts)).text.splitlines()[0]
        assert "4,870 million" in head and "three months ended June 29, 2024" in head, head
    total = read("What was Larkfield's total gross margin?", _passages(MARGIN)).text.splitlines()[0]
    assert "$14,280 million" in total, total


def test_a_sentence_naming_only_the_company_is_no_answer() -> None:
    answer = read("How many employees does Larkfield have?", _passages(CERTIFICATION, BALANCE))
    assert answer.declined, answer.text


OPERATIONS = """Larkfield Instruments, Inc.
CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (Unaudited)
(In millions, except number of shares which are reflected in thousands and per-share amounts)
|  | Three Months Ended / June 29, 2024 | Three Months Ended / July 1, 2023 |
|---|---|---|
| Total net sales | $40,120 | $38,410 |
| Net income | $9,870 | $9,120 |
| Earnings per share: |  |  |
| Diluted | $0.62 | $0.57 |
| Shares used in computing earnings per share: |  |  |
| Weighted-average diluted shares | 15,920,441 | 16,001,380 |"""

RECEIVABLES_NOTE = """Larkfield Instruments › Accounts Receivable
accounted for 12% and 10%, respectively."""

RECEIVABLES = """Larkfield Instruments, Inc.
CONDENSED CONSOLIDATED BALANCE SHEETS (Unaudited)
(In millions)
|  | June 29, 2024 | September 30, 2023 |
|---|---|---|
| Accounts receivable, net | 18,440 | 25,730 |"""


def test_a_share_count_is_in_shares_not_dollars() -> None:
    head = read("What was the weighted-average number of diluted shares?", _passages(OPERATIONS)).text.splitlines()[0]
    assert "15,920,441 thousand shares" in head and "$" not in head, head
    eps = read("What was Larkfield's diluted earnings per share?", _passages(OPERATIONS)).text.splitlines()[0]
    assert "$0.62" in eps, eps


def test_a_percentage_is_no_balance() -> None:
    head = read("What was Larkfield's accounts receivable?",
                _passages(RECEIVABLES_NOTE, RECEIVABLES)).text.splitlines()[0]
    assert head.startswith("Accounts receivable, net was 18,440 million as of June 29, 2024"), head


def test_the_same_period_last_year_is_no_part_of_the_item() -> None:
    q = analyze("How much did Larkfield's net income change in the three months ended June 29, 2024 compared to the "
                "same period last year?")
    assert q.kind == "change" and q.focus == "net income"
    head = read(q.text, _passages(OPERATIONS)).text.splitlines()[0]
    assert head.startswith("Net income was up 8.2%: $9,870 million"), head
    assert analyze("How did Larkfield's revenue change versus the same quarter a year ago?").focus == "revenue"


LIABILITIES = """Larkfield Instruments, Inc.
CONDENSED CONSOLIDATED BALANCE SHEETS (Unaudited)
(In millions)
|  | June 29, 2024 | September 30, 2023 |
|---|---|---|
| Current liabilities: |  |  |
| Commercial paper | 3,100 | 4,220 |
| Term debt | 8,840 | 10,150 |
| Non-current liabilities: |  |  |
| Term debt | 91,300 | 95,020 |
| Other non-current liabilities | 48,760 | 47,310 |
| Total non-current liabilities | 140,060 | 142,330 |"""


DEBT_NOTE = """Larkfield Instruments, Inc.
Note 8 – Debt
The Company issues unsecured short-term promissory notes (commercial paper) and term debt. Debt issued in fixed-rate
notes is carried at amortized cost. The Company's debt ratings were unchanged. Proceeds from debt were used for
general corporate purposes. Debt maturities are shown below."""


def test_a_row_that_shares_only_total_with_the_question_is_not_its_item() -> None:
    """With "debt" on every line of the note, the question's rarer word is "total": a row that has only it is not
    the total debt."""
    head = read("What was Larkfield's total debt?", _passages(LIABILITIES, DEBT_NOTE)).text.splitlines()[0]
    assert "140,060" not in head and "Total non-current liabilities" not in head, head


CATEGORIES = """Larkfield Instruments, Inc.
Net sales by category (in millions):
|  | Three Months Ended / June 29, 2024 | Three Months Ended / July 1, 2023 |
|---|---|---|
| Instruments | $31,030 | $30,110 |
| Services | 9,090 | 8,300 |
| Total net sales | $40,120 | $38,410 |
Research and development expense
|  | Three Months Ended / June 29, 2024 | Three Months Ended / July 1, 2023 |
|---|---|---|
| Research and development | $3,210 | $3,050 |
| Percentage of total net sales | 8 % | 8 % |"""


def test_a_share_of_the_total_is_computed_from_the_part_and_the_total() -> None:
    head = read("What percentage of total net sales came from Services in the three months ended June 29, 2024?",
                _passages(CATEGORIES)).text.splitlines()[0]
    assert "22.7%" in head and "$40,120 million" in head and "9,090" in head, head


FLOWS = """Larkfield Instruments, Inc.
CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS (Unaudited)
(In millions)
|  | Nine Months Ended / June 29, 2024 | Nine Months Ended / July 1, 2023 |
|---|---|---|
| Cash, cash equivalents and restricted cash, ending balances | $31,420 | $27,950 |
| Supplemental cash flow disclosure: |  |  |
| Cash paid for interest | $2,110 | $1,640 |"""


def test_cash_and_cash_equivalents_is_not_any_cash_row() -> None:
    head = read("How much did Larkfield's cash and cash equivalents change in the nine months ended June 29, 2024?",
                _passages(FLOWS)).text.splitlines()[0]
    assert "interest" not in head and "$31,420 million" in head, head
    cash = read("How much cash did Larkfield have?", _passages(BALANCE, FLOWS)).text.splitlines()[0]
    assert "interest" not in cash, cash


_STORE_COLUMNS = " | ".join(f"Fiscal {year} / {name}" for year in (2031, 2030) for name in (
    "Total Stores at Beginning of Second Quarter", "Stores Opened", "Stores Closed",
    "Total Stores at End of Second Quarter"))
STORES = "\n".join((
    "Orrery stores open at the beginning and end of the second quarters of fiscal 2031 and 2030 were as follows:",
    f"| | {_STORE_COLUMNS} |", "|---|---|---|---|---|---|---|---|---|",
    "| Orrery | 508 | 2 | (6) | 504 | 531 | 1 | (2) | 530 |", "| Outlets | 20 | 1 | (1) | 20 | 16 | 2 | - | 18 |"))


def test_a_quarters_count_is_its_ending_column_not_its_opening_one() -> None:
    """A store roll-forward prints each quarter's opening count, the stores opened and closed, and its ending count:
    the quarter's count is the ending one — 504 vs 530 — unless the question asks the beginning (before: the
    opening columns, 508 vs 531, the first of each year's)."""
    passages = [Passage("S1", STORES, "o", "ORRERY_10Q.pdf", 17)]
    first = read("Was there any change in the number of Orrery stores between Q2 of FY2031 and FY2030?",
                 passages).text.splitlines()[0]
    assert "504" in first and "530" in first and "508" not in first, first
    first = read("How many Orrery stores were open at the beginning of the second quarter of fiscal 2031?",
                 passages).text.splitlines()[0]
    assert "508" in first and "504" not in first, first


def test_a_movement_asked_of_a_count_is_read_from_its_own_column() -> None:
    """"How many … did Orrery open": the "Stores Opened" column of the quarter asked (2), not its first count
    column (before: the movement columns were skipped whenever the question said "open", not "opened")."""
    from chat.models.reader.evidence import gather

    passages = [Passage("S1", STORES, "o", "ORRERY_10Q.pdf", 17)]
    best = gather(analyze("How many Orrery stores did Orrery open in the second quarter of fiscal 2031?"), passages)[0]
    assert best.kind == "cell" and best.table is not None and best.row is not None
    header = best.table.columns[best.col].header
    assert header.endswith("Fiscal 2031 / Stores Opened"), header
    assert best.row.label == "Orrery"


def test_the_state_of_the_things_counted_is_no_word_of_their_line() -> None:
    """"How many … stores were open at the end of …": "open" says which stores are counted, no word the count's
    line must hold — before, the ending count was found but, its line lacking "open", only offered as unsure
    evidence."""
    counts = STORES.replace(STORES.splitlines()[0], "The changes in our store count in the second quarters of fiscal "
                                                    "2031 and 2030:")
    answer = read("How many Orrery stores were open at the end of the second quarter of fiscal 2031?",
                  [Passage("S1", counts, "o", "ORRERY_10Q.pdf", 17)])
    assert answer.why == "sure", answer.text
    assert answer.text.startswith("Orrery stores were 504 in the second quarter of 2031 [S1]"), answer.text


@pytest.mark.parametrize(("question", "lead"), [
    ("How many stores did Orrery close in the second quarter of fiscal 2031?",
     "Orrery stores — stores closed: 6 in the second quarter of 2031 [S1]."),
    ("How many stores did Orrery open in the second quarter of fiscal 2031?",
     "Orrery stores — stores opened: 2 in the second quarter of 2031 [S1]."),
])
def test_a_movement_is_said_as_its_column_and_a_closing_count_without_brackets(question: str, lead: str) -> None:
    """"(6)" under "Stores Closed" is six stores closed: the asked movement's column keeps its bracketed cells
    (before: dropped as negative counts — no answer) and the answer names the column ("Orrery was 2" before)."""
    assert read(question, [Passage("S1", STORES, "o", "ORRERY_10Q.pdf", 17)]).text.splitlines()[0] == lead
