"""An amount that is not the item asked, however close its words: an amount "of" another thing ("$15.0 billion of
undrawn committed lines of credit"), a bound ("revenues of more than $1 billion"), a statistic of the item
("Average daily short-term borrowings"), a deferred-tax row ("Deferred tax assets: Stock-based compensation"), a
heading; and a metric no line prints ("working capital") computed from its textbook operands. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read


def _p(ref: str, text: str, page: int = 40) -> Passage:
    return Passage(ref, text, "doc-2031", "KESTREL_2031_10K.pdf", page, company="Kestrel Inc.",
                   period_end="2031-12-31")


def test_an_amount_of_another_thing_is_never_sure() -> None:
    lines = _p("S1", "KESTREL INC. › Short-term Borrowings\nIn addition to our short-term borrowings, we have $15.0 "
                     "billion of various undrawn committed lines of credit in the U.S. as of December 31, 2031.")
    answer = read("What were Kestrel's short-term borrowings at the end of 2031?", [lines])
    assert answer.why != "sure", answer.text  # before: "The documents say $15.0 billion", sure
    own = _p("S2", "KESTREL INC. › Short-term Borrowings\nShort-term borrowings as of December 31, 2031 and 2030 were "
                   "$0.6 billion and $5.2 billion, respectively.", 67)
    assert read("What were Kestrel's short-term borrowings at the end of 2031?", [lines, own]).text.startswith(
        "The documents say $0.6 billion")


def test_a_bound_is_not_the_figure() -> None:
    bound = _p("S1", "KESTREL INC. › Revenues\nEach of Zephyr and Quill recorded direct product revenues of more than "
                     "$1 billion in 2031.")
    answer = read("What was Kestrel's Zephyr revenue in 2031?", [bound])
    assert answer.why != "sure", answer.text  # before: "The documents say $1 billion", sure
    said = _p("S2", "KESTREL INC. › Revenues\nZephyr revenues were $36.8 billion in 2031.")
    assert read("What was Kestrel's Zephyr revenue in 2031?", [bound, said]).text.startswith(
        "The documents say $36.8 billion")


STATS = """KESTREL INC. › Short-term Borrowings
The following table includes additional information related to the Company's short-term borrowings:
| (Amounts in millions) | Fiscal Years Ended December 31, / 2031 | Fiscal Years Ended December 31, / 2030 |
|---|---|---|
| Maximum amount outstanding at any month-end | $10,721 | $14,201 |
| Average daily short-term borrowings | 7,120 | 10,625 |
| Weighted-average interest rate | 3.9 % | 2.8 % |"""


def test_a_statistic_of_the_item_is_not_its_balance() -> None:
    answer = read("What were Kestrel's short-term borrowings at the end of 2031?", [_p("S1", STATS, 41)])
    assert answer.why != "sure", answer.text  # before: "Average daily short-term borrowings were $7,120 million", sure
    asked = read("What were Kestrel's average daily short-term borrowings in 2031?", [_p("S1", STATS, 41)])
    assert asked.text.startswith("Average daily short-term borrowings were $7,120 million"), asked.text


DEFERRED = """KESTREL INC. › 7. Income Taxes
The components of deferred tax assets and liabilities were as follows:
(in thousands)
|  | As of December 31, / 2031 | As of December 31, / 2030 |
|---|---|---|
| Deferred tax assets: |  |  |
| Stock-based compensation | $149,367 | $188,458 |
| Accruals and reserves | 34,170 | 29,231 |"""


def test_a_deferred_tax_row_is_never_the_item() -> None:
    answer = read("How much stock-based compensation did Kestrel record in 2031?", [_p("S1", DEFERRED, 59)])
    assert answer.why != "sure", answer.text  # before: "Stock-based compensation was $149,367 thousand", sure


BALANCE = """KESTREL INC. › Consolidated Balance Sheets
($ in millions)
|  | December 31, 2031 | December 31, 2030 |
|---|---|---|
| Total current assets | 8,802 | 10,539 |
| Total current liabilities | 8,979 | 10,674 |"""


def test_working_capital_is_computed_not_a_heading() -> None:
    heading = Passage("S1", "KESTREL INC. › KESTREL FISCAL 2031 FORM 10-K › Definition and Limitations of Internal "
                            "Control over Financial Reporting", "doc-2031", "KESTREL_2031_10K.pdf", 39,
                      company="Kestrel Inc.", period_end="2031-12-31")
    answer = read("What was Kestrel's working capital at the end of fiscal 2031?", [heading, _p("S2", BALANCE)])
    head = answer.text.splitlines()[0]
    # before: "The documents say: “KESTREL INC. › KESTREL FISCAL 2031 FORM 10-K › Definition and …”", sure
    assert head.startswith("The working capital was -$177 million"), head
