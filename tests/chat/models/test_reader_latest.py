"""A question that names no period is about the latest one: the latest column of a table that prints the prior
period first, and — when two filings print the same line item — the later filing's. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.evidence import latest_column, period_key
from chat.models.reader.periods import find_periods
from chat.models.reader.tables import find_tables

PRIOR_FIRST = """KESTREL MACHINE WORKS, INC.
CONSOLIDATED STATEMENTS OF OPERATIONS (in millions)
|  | Three Months Ended March 31, / 2023 | Three Months Ended March 31, / 2024 |
|---|---|---|
| Total net sales | 6,120 | 7,415 |
| Operating income | 410 | 388 |"""


def _quarter(this: str, before: str, sales: tuple[str, str]) -> str:
    return f"""Kestrel Machine Works, Inc.
Net sales by category (dollars in millions)

| | Three Months Ended / {this} | Three Months Ended / {before} |
|---|---|---|
| Falcon | $ {sales[0]} | $ {sales[1]} |
| Total net sales | $ 7,415 | $ 7,155 |"""


LATER = _quarter("March 30, 2024", "April 1, 2023", ("4,210", "3,880"))
EARLIER = _quarter("April 1, 2023", "April 2, 2022", ("3,880", "3,525"))


def test_the_latest_column_when_the_prior_period_is_printed_first() -> None:
    [table] = find_tables(PRIOR_FIRST)
    assert latest_column(table, [0, 1]) == 1
    answer = read("What was Kestrel's total net sales?", [Passage("S1", PRIOR_FIRST, "d", "kestrel-10q.pdf", 4)])
    assert answer.text.startswith("Total net sales were 7,415 million in the three months ended March 31, 2024 [S1].")
    change = read("How much did Kestrel's operating income change year over year?",
                  [Passage("S1", PRIOR_FIRST, "d", "kestrel-10q.pdf", 4)])
    assert change.text.startswith("Operating income was down 5.4%: 388 million in the three months ended March 31, "
                                  "2024 vs 410 million"), change.text
    asked = read("What was Kestrel's total net sales in the three months ended March 31, 2023?",
                 [Passage("S1", PRIOR_FIRST, "d", "kestrel-10q.pdf", 4)])
    assert "6,120 million" in asked.text.splitlines()[0]  # a period asked is still the one answered


def test_the_later_filing_answers_when_both_print_the_line_item() -> None:
    for first, second in ((EARLIER, LATER), (LATER, EARLIER)):  # whichever search ranked first
        passages = [Passage("S1", first, "doc-1", "kestrel-10q-a.pdf", 6),
                    Passage("S2", second, "doc-2", "kestrel-10q-b.pdf", 6)]
        answer = read("How much did Falcon revenue change year over year?", passages)
        head = answer.text.splitlines()[0]
        ref = "S1" if first is LATER else "S2"
        assert head.startswith("Falcon revenue was up 8.5%: $4,210 million in the three months ended March 30, 2024 "
                               f"vs $3,880 million in the three months ended April 1, 2023 [{ref}]"), head
        asked = read("What was Falcon revenue in the three months ended April 1, 2023?", passages)
        assert "$3,880 million" in asked.text.splitlines()[0]


def test_period_key_orders_by_the_periods_end() -> None:
    assert period_key(find_periods("December 31, 2022")) > period_key(find_periods("December 25, 2021"))
    assert period_key(find_periods("fiscal 2024")) > period_key(find_periods("December 31, 2023"))
    assert period_key(find_periods("Q3 2023")) > period_key(find_periods("Q2 2023"))
    assert period_key(()) is None


def test_the_later_filings_copy_of_a_sentence_leads() -> None:
    old = Passage("S1", "14,902,115,000 shares of common stock were issued and outstanding as of January 19, 2024.",
                  "doc-1", "kestrel-10q-a.pdf", 1)
    new = Passage("S2", "14,711,020,000 shares of common stock were issued and outstanding as of July 19, 2024.",
                  "doc-2", "kestrel-10q-b.pdf", 1)
    for passages in ([old, new], [new, old]):
        answer = read("How many shares were outstanding?", passages)
        assert "14,711,020,000 shares" in answer.text.splitlines()[0] and "[S2]" in answer.text.splitlines()[0]


def test_a_number_that_counts_something_else_is_not_the_answer() -> None:
    """"89 million restricted stock units were excluded from the computation of diluted earnings per share" names
    the item asked and a number, but the number counts RSUs: the statement's cell answers."""
    rsus = Passage("S1", "Approximately 41 million restricted stock units were excluded from the computation of "
                   "diluted earnings per share for the three months ended March 30, 2024 because their effect would "
                   "have been antidilutive.", "d", "kestrel-10q.pdf", 9)
    eps = Passage("S2", """Note 3 – Earnings Per Share (in millions, except per share amounts)
|  | Three Months Ended / March 30, 2024 | Three Months Ended / April 1, 2023 |
|---|---|---|
| Numerator: | | |
| Net income | $ 1,204 | $ 1,150 |
| Denominator: | | |
| Weighted-average basic shares outstanding | 1,452 | 1,490 |
| Effect of dilutive share-based awards | 16 | 19 |
| Weighted-average diluted shares | 1,468 | 1,509 |
| Basic earnings per share | $ 0.83 | $ 0.77 |
| Diluted earnings per share | $ 0.82 | $ 0.76 |""", "d", "kestrel-10q.pdf", 12)
    answer = read("What was diluted earnings per share?", [rsus, eps])
    head = answer.text.splitlines()[0]
    assert head.startswith("Diluted earnings per share was $0.82") and "[S2]" in head, head  # not "Denominator …"


def test_the_end_of_the_quarter_is_the_period_and_cash_is_searched_on_the_balance_sheet() -> None:
    from chat.models.reader.queries import statement_query
    from chat.models.reader.question import analyze

    q = analyze("What was Kestrel's cash and cash equivalents at the end of the quarter?")
    assert q.focus == "cash and cash equivalents" and q.span == 3
    assert statement_query("What was Kestrel's cash and cash equivalents at the end of the quarter?") == (
        "Kestrel consolidated balance sheets cash and cash equivalents")  # a balance sheet has no "three months"
    assert "statements of cash flows" in statement_query("How much cash did Kestrel pay for dividends?")


def test_a_modifier_the_label_lacks_is_not_said_after_it() -> None:
    """"share repurchases" answered by "Repurchases of common stock": not "Repurchases of common stock share"."""
    from chat.models.reader.compose import subject_of
    from chat.models.reader.evidence import gather
    from chat.models.reader.question import analyze

    flows = Passage("S1", """CONSOLIDATED STATEMENTS OF CASH FLOWS (In millions)
|  | Nine Months Ended / March 30, 2024 | Nine Months Ended / April 1, 2023 |
|---|---|---|
| Financing activities: | | |
| Repurchases of common stock | (5,547) | (4,974) |""", "d", "kestrel-10q.pdf", 8)
    q = analyze("How much did Kestrel spend on share repurchases?")
    [best] = [ev for ev in gather(q, [flows]) if ev.kind == "cell"][:1]
    assert subject_of(q, best) == "Repurchases of common stock"
    iphone = analyze("How much did Falcon revenue change year over year?")
    [row] = [ev for ev in gather(iphone, [Passage("S2", LATER, "d", "k.pdf", 6)]) if ev.label == "Falcon"][:1]
    assert subject_of(iphone, row) == "Falcon revenue"  # the measure the label leaves implicit is still said
