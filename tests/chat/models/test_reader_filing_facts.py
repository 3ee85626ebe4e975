"""What an analyst asks of an annual report beyond a statement's line: revenue growth in percent, the effective
tax rate, share repurchases a filing says there were none of, the headcount, long-term debt, the diluted share
count. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.balances import flow_only_factor
from chat.models.reader.evidence import answer_span
from chat.models.reader.fields import find_fields
from chat.models.reader.heads import another_kind_of_rate, another_share_basis, measure_qualifies
from chat.models.reader.queries import search_queries
from chat.models.reader.question import analyze


def _passages(*texts: str) -> list[Passage]:
    return [Passage(f"S{i}", text, f"doc-{i}", "KESTREL_2031_10K.pdf", 30 + i) for i, text in enumerate(texts, 1)]


def _head(question: str, *texts: str) -> str:
    return read(question, _passages(*texts)).text.splitlines()[0]


REVENUES = """KESTREL GAMES, INC. › CONSOLIDATED STATEMENTS OF OPERATIONS
(Amounts in millions)
|  | For the Years Ended December 31, / 2031 | For the Years Ended December 31, / 2030 |
|---|---|---|
| Product sales | $1,975 | $2,255 |
| Subscription, licensing, and other revenues | 4,514 | 5,245 |
| Total net revenues | 6,489 | 7,500 |
| Operating income | 1,607 | 1,988 |"""

MIX = """KESTREL GAMES, INC. › Net Revenues by Distribution Channel
|  | 2031 | 2031 / Percentage of total revenue | 2030 | 2030 / Percentage of total revenue |
|---|---|---|---|---|
| Digital online channels | $4,932 | 76 % | $5,700 | 76 % |
| Retail channels | 1,557 | 24 % | 1,800 | 24 % |
| Total net revenues | $6,489 | 100 % | $7,500 | 100 % |"""

WRAPPED = """KESTREL GAMES, INC. › Cost of Revenues
Cost of revenues increased by $120 million in 2031 compared with 2030, primarily due to higher royalties on
revenues in 2030.
Cost of revenues as a percentage of revenues remained largely consistent."""


def test_revenue_growth_in_percent_is_the_total_revenue_change() -> None:
    q = analyze("By what percentage did Kestrel's revenue grow in fiscal 2031 compared with fiscal 2030?")
    assert q.kind == "change" and q.focus == "revenue", (q.kind, q.focus)
    for texts in ((REVENUES, MIX), (MIX, REVENUES), (WRAPPED, REVENUES)):
        head = _head("By what percentage did Kestrel's revenue grow in fiscal 2031 compared with fiscal 2030?", *texts)
        assert head.startswith("Total net revenues were down 13.5%: $6,489 million"), head


def test_a_wrapped_line_ending_at_a_year_is_no_field() -> None:
    assert not [f for f in find_fields(WRAPPED) if f.label.lower().startswith("revenues")]
    # a key-value line still is one, colon or not
    assert [f.label for f in find_fields("Total : 9.00\nAmount due 12.50")] == ["Total", "Amount due"]


TAX_SENTENCES = """KESTREL GAMES, INC. › Income Taxes
Changes in foreign exchange rates had a negative impact of $71 million on our consolidated operating income in 2031.
Our full year 2031 effective tax rate of 8% is lower than the U.S. statutory rate of 21% primarily due to one-time
tax benefits."""

STATUTORY = """KESTREL GAMES, INC. › Income Taxes
The 2031 Tax Act lowered the statutory corporate tax rate from 35% to 21%, effective January 1, 2031.
As of December 31, 2031, we had $2.3 billion of accrued tax contingencies, of which $1.2 billion, if fully
recognized, would decrease our effective tax rate."""

RECONCILIATION = """KESTREL GAMES, INC. › Note 12 – Income Taxes
|  | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Tax at federal statutory rate | 21.0 % | 21.0 % |
| Foreign rate differential | (2.4) | (1.8) |
| State taxes, net of federal benefit | (0.1) | (0.2) |"""

SPLIT_PERCENT = """KESTREL GAMES, INC. › Note 12 – Income Taxes
|  | Fiscal Year / 2031 |  | Fiscal Year / 2030 |  |
|---|---|---|---|---|
| Effective income tax rate | 18.3 | % | 22.0 | % |"""


def test_the_effective_tax_rate_is_a_percentage_of_its_own_kind() -> None:
    q = "What was Kestrel's effective tax rate for fiscal 2031?"
    assert "8%" in _head(q, TAX_SENTENCES)  # not the "$71 million" of a sentence about exchange rates
    # the statutory rate is another rate; an amount of contingencies is no rate: not a sure answer either way
    for texts in ((STATUTORY,), (RECONCILIATION,)):
        answer = read(q, _passages(*texts))
        assert answer.declined or "not sure" in answer.text, answer.text
    assert _head(q, SPLIT_PERCENT).startswith("Effective income tax rate was 18.3% in"), _head(q, SPLIT_PERCENT)
    assert another_kind_of_rate("effective tax rate", "Tax at federal statutory rate")
    assert not another_kind_of_rate("effective tax rate", "Our effective tax rate of 8% is below the statutory 21%")
    assert not another_kind_of_rate("tax rate", "Tax at federal statutory rate")
    assert measure_qualifies("effective tax rate", "Foreign rate differential")
    assert not measure_qualifies("effective tax rate", "Effective income tax rate")
    assert not measure_qualifies("gross margin", "Gross margin, net")


NO_REPURCHASES = """KESTREL GAMES, INC. › Note 8—STOCKHOLDERS' EQUITY
Stock Repurchase Activity
There were no repurchases of common stock in 2029, 2030, or 2031.
Common shares outstanding totaled 490 million and 497 million as of December 31, 2031 and 2030."""

DID_NOT = """KESTREL GAMES, INC. › Issuer Purchases of Equity Securities
During the years ended December 31, 2031, 2030 and 2029, we did not repurchase any shares through our open market
share repurchase program."""

REPURCHASED = """KESTREL GAMES, INC. › Issuer Purchases of Equity Securities
We did not repurchase shares in 2029. In 2031, we repurchased shares of our common stock for $1.2 billion, not
including commissions."""


def test_a_filing_that_says_there_were_none_answers_none() -> None:
    for text in (NO_REPURCHASES, DID_NOT):
        answer = read("How much did Kestrel spend on share repurchases in fiscal 2031?", _passages(text))
        assert answer.text.startswith("None in fiscal 2031, as the documents state [S1]."), answer.text
        assert not answer.declined and answer.why == "computed", answer.why
    # another year's none is not this year's; an amount spent is no none
    other_year = read("How much did Kestrel spend on share repurchases in fiscal 2035?", _passages(NO_REPURCHASES))
    assert not other_year.text.startswith("None"), other_year.text
    spent = read("How much did Kestrel spend on share repurchases in fiscal 2031?", _passages(REPURCHASED))
    assert not spent.text.startswith("None"), spent.text


HEADCOUNT = """KESTREL GAMES, INC. › Human Capital
We employed approximately 56,600 full-time and part-time employees as of December 31, 2031.
As of December 31, 2031, common stock available for future issuance to employees is 116 million shares.
In 2031, our talent processes supported the net addition of approximately 11,100 employees worldwide.
For 2031, Kestrel employees completed approximately 5.8 million hours of learning."""

THRESHOLD = """KESTREL GAMES, INC. › Risk Factors
Businesses can apply for a second loan if they employ fewer than 300 employees.
In 2031, as planned, we achieved 100% pay equity for all salaried employees."""


def test_the_headcount_is_the_count_of_employees() -> None:
    q = "How many employees did Kestrel have at the end of fiscal 2031?"
    assert _head(q, HEADCOUNT).startswith("The documents say 56,600"), _head(q, HEADCOUNT)
    answer = read(q, _passages(THRESHOLD))  # a threshold and a percentage are no headcount
    assert answer.declined or "not sure" in answer.text, answer.text
    asked = analyze(q)
    assert answer_span(asked, "As of May 26, 2031, we had approximately 40,000 full- and part-time employees.") \
        == "40,000"
    assert "end" not in asked.terms  # "at the end of" says when, not what the sentence must hold
    assert search_queries(q)[-1] == ("Kestrel human capital employees we employed approximately full-time people "
                                     "workforce 2031")


BALANCE = """KESTREL GAMES, INC. › CONSOLIDATED BALANCE SHEETS
(in millions)
|  | June 30, / 2031 | June 30, / 2030 |
|---|---|---|
| Current portion of long-term debt | $13 | $14 |
| Long-term debt, less current portion | 6,653 | 6,340 |"""

FLOWS = """KESTREL GAMES, INC. › CONSOLIDATED STATEMENTS OF CASH FLOWS
(in millions)
|  | Year ended June 30, / 2031 | Year ended June 30, / 2030 |
|---|---|---|
| Proceeds from issuance of long-term debt | 522 | 1,066 |
| Repayment of long-term debt | (330) | (1,243) |"""

PROCEEDS = """KESTREL GAMES, INC. › Liquidity
Borrowings and Repayments of Long-term Debt In 2031, we had net proceeds from the incurrence of the bridge loan
facility of $1.3 billion."""


def test_long_term_debt_is_the_balance_not_its_current_part_or_its_flows() -> None:
    q = "What was Kestrel's long-term debt at the end of fiscal 2031?"
    for texts in ((BALANCE, FLOWS), (FLOWS, BALANCE), (PROCEEDS, BALANCE)):
        head = _head(q, *texts)
        assert head.startswith("Long-term debt, less current portion was $6,653 million"), head
    sentence = "In 2031, we had net proceeds from the incurrence of the bridge loan facility of $1.3 billion."
    assert flow_only_factor(q, sentence, "$1.3 billion") < 1.0
    assert flow_only_factor("How much did Kestrel borrow under the bridge loan facility?", sentence,
                            "$1.3 billion") == 1.0
    assert _head("What was the current portion of Kestrel's long-term debt at June 30, 2031?", BALANCE) \
        .startswith("Current portion of long-term debt was $13 million")


SHARES = """KESTREL GAMES, INC. › NOTE 16 - NET INCOME PER SHARE
(in thousands, except per share data)
|  | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Net income | $213,105 | $375,446 |
| Basic shares: |  |  |
| Weighted-average common shares outstanding | 443,773 | 425,728 |
| Weighted-average unvested shares | (647) | (729) |
| Weighted-average shares used to compute basic net income per share | 443,126 | 424,999 |"""

DILUTED = """KESTREL GAMES, INC. › CONSOLIDATED STATEMENTS OF OPERATIONS
(In thousands, except per share data)
|  | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Net income per share: |  |  |
| Basic | $0.48 | $0.88 |
| Diluted | $0.44 | $0.81 |
| Weighted-average shares used to compute net income per share: |  |  |
| Basic | 443,126 | 424,999 |
| Diluted | 482,167 | 466,076 |"""


def test_the_diluted_share_count_is_the_diluted_row() -> None:
    q = "What was Kestrel's diluted weighted-average share count in fiscal 2031?"
    assert analyze(q).kind == "value"
    for texts in ((SHARES, DILUTED), (DILUTED, SHARES)):
        head = _head(q, *texts)
        assert "482,167 thousand shares" in head, head
    assert another_share_basis("diluted shares", "Basic shares: Weighted-average unvested shares")
    assert not another_share_basis("basic and diluted EPS", "Basic shares: Weighted-average unvested shares")
    assert not another_share_basis("weighted-average shares", "Basic shares: Weighted-average unvested shares")
