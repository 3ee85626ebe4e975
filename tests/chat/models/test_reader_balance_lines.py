"""Line items an analyst asks of a 10-K beyond the statements' totals: goodwill, receivables asked "net", share
repurchases under the cash-flow statement's own captions, how many employees — and what is no answer to them: a
change column, a ratio or percentage where an amount is asked, a repurchase authorisation's limit, a count of the
union-represented part of a workforce, a wrapped sentence's last line read as a form's field. Made-up filings."""

from __future__ import annotations

import pytest

from chat.models.reader import Passage, read
from chat.models.reader.fields import find_fields
from chat.models.reader.question import analyze
from chat.models.reader.statement_pages import statement_followups
from chat.models.reader.tables import find_tables

BALANCE = """HERONS NEST FOODS, INC.
CONSOLIDATED BALANCE SHEETS
(Dollars in millions)
|  | December 31, / 2031 | December 31, / 2030 |
|---|---|---|
| Cash and cash equivalents | 1,210 | 988 |
| Receivables | 1,692.1 | 1,638.5 |
| Inventories | 2,101 | 1,944 |
| Total current assets | 5,003.1 | 4,570.5 |
| Goodwill | 14,378 | 14,062 |
| Other intangible assets, net | 7,012 | 7,150 |
| Total assets | 31,091 | 30,112 |"""

GOODWILL_NOTE = """Note 9 – Goodwill and Other Intangible Assets
Goodwill represents the excess of the purchase price over the fair value of the net assets acquired. Purchased \
goodwill from acquisitions totaled $1.3 billion in 2031, none of which is deductible for tax purposes."""

LIQUIDITY = """Liquidity
Our ratio of net debt-to-operating cash flow was 3.3 in fiscal 2031, and our net debt-to-adjusted EBITDA ratio was \
2.8 at December 31, 2031. Our three largest customers represented 24% and 21% of net accounts receivable at \
December 31, 2031 and 2030."""


def _answer(question: str, *texts: str) -> str:
    passages = [Passage(f"S{i}", text, "doc-1", "herons-nest-10k.pdf", 40 + i, company="Herons Nest Foods, Inc.")
                for i, text in enumerate(texts, 1)]
    return read(question, passages).text.split("\n")[0]


def test_goodwill_is_the_balance_sheets_line_and_is_searched_for_there() -> None:
    first = _answer("What was Herons Nest's goodwill at the end of FY2031 (in USD millions)?", GOODWILL_NOTE, BALANCE)
    assert first.startswith("Goodwill was $14,378 million as of December 31, 2031")
    queries = statement_followups("What was Herons Nest's goodwill at the end of FY2031?", [])
    assert any("balance sheets" in q and "goodwill" in q for q in queries)
    intangibles = statement_followups("What were Herons Nest's intangible assets in 2031?", [])
    assert any("balance sheets" in q for q in intangibles)


def test_net_receivables_asked_are_the_receivables_line_not_a_ratio_or_a_share() -> None:
    first = _answer("What were Herons Nest's net accounts receivable at the end of FY2031?", LIQUIDITY, BALANCE)
    assert first.startswith("Receivables were $1,692.1 million as of December 31, 2031")
    # with no balance sheet, a ratio or a percentage is never stated as the receivables
    alone = _answer("What were Herons Nest's net accounts receivable at the end of FY2031?", LIQUIDITY)
    assert not alone.startswith("The documents say")


CASH_FLOWS = """HERONS NEST FOODS, INC.
CONSOLIDATED STATEMENTS OF CASH FLOWS
(Dollars in millions)
|  | Fiscal Years Ended January 31, / 2032 | Fiscal Years Ended January 31, / 2031 | \
Fiscal Years Ended January 31, / 2030 |
|---|---|---|---|
| Cash flows from investing activities: |  |  |  |
| Maturities of short-term investments | 683 | 877 | 915 |
| Purchases of property and equipment | (442) | (348) | (419) |
| Net cash used for investing activities | (570) | (3,537) | (414) |
| Cash flows from financing activities: |  |  |  |
| Dividends paid | (6,048) | (6,102) | (6,124) |
| Purchase of Company stock | (5,717) | (7,410) | (8,296) |
| Purchases of common stock | — | — | (2,000) |"""


def test_the_cash_flow_statements_own_captions_answer() -> None:
    spent = _answer("How much did Herons Nest spend on share repurchases in fiscal 2032?", CASH_FLOWS)
    assert spent.startswith("Purchase of Company stock was $5,717 million")
    investing = _answer("What was Herons Nest's net cash used in investing activities in fiscal 2032?", CASH_FLOWS)
    assert investing.startswith("Net cash used for investing activities was $570 million")
    assert "(printed in brackets)" in investing


def test_a_statement_row_printed_without_an_amount_is_none_though_a_note_ranks_above_it() -> None:
    rows = CASH_FLOWS.replace("| Purchase of Company stock | (5,717) | (7,410) | (8,296) |\n", "")
    note = """Note 14 – Earnings per Share
| (IN MILLIONS) | 2032 | 2031 | 2030 |
|---|---|---|---|
| Common-share equivalents: stock options, stock issuable under employee compensation plans and repurchase \
agreements | 98 | 101 | 95 |"""
    first = _answer("How much did Herons Nest spend on share repurchases in fiscal 2032?", note, rows)
    assert first.startswith("Purchases of common stock: none in the fiscal year ended January 31, 2032")


AUTHORISED = """Share Repurchase Program
On January 31, 2031, our Board of Directors authorized a stock repurchase program under which we are authorized to \
repurchase up to $1.5 billion of our common stock until January 31, 2033. As of December 31, 2031, we have not \
repurchased any shares under this program.
Employment agreement
a. Herons Nest shall grant to you non-qualified stock options to purchase shares of Herons Nest's common stock \
with a total grant value of approximately $2,300,000 (the "2031 Options")."""


def test_no_repurchase_made_is_said_so_not_an_authorisation_or_an_option_grant() -> None:
    first = _answer("How much did Herons Nest spend on share repurchases in fiscal 2031?", AUTHORISED)
    assert first.startswith("None in fiscal 2031, as the documents state")


DEBT = """Debt
(Millions)
|  | December 31, / 2031 | December 31, / 2030 | 2031 versus 2030 |
|---|---|---|---|
| Short-term borrowings and current portion of long-term debt | $1,211 | $1,853 | $(642) |
| Long-term debt | 13,411 | 12,096 | 1,315 |
| Total debt | $14,622 | $13,949 | $673 |"""


@pytest.mark.parametrize("header", ["2031 versus 2030", "% change 31 vs. 30", "2031-2030",
                                    "Change 2031 compared to 2030"])
def test_a_column_comparing_two_years_is_a_change_of_no_one_period(header: str) -> None:
    table = find_tables(DEBT.replace("2031 versus 2030", header))[0]
    last = table.columns[-1]
    assert last.is_change and not last.periods
    first = _answer("What was Herons Nest's total debt at the end of FY2031?", DEBT.replace("2031 versus 2030", header))
    assert first.startswith("Total debt was $14,622 million as of December 31, 2031")


def test_an_ascending_pair_of_years_stays_a_period() -> None:
    table = find_tables(DEBT.replace("2031 versus 2030", "2030-2031"))[0]
    assert not table.columns[-1].is_change


PEOPLE = """Human Capital
As of December 31, 2031, our total workforce was approximately 156,000, with 13% located outside of the United \
States. Approximately 50,000 employees, which constitute 32% of our total workforce, were union represented as of \
December 31, 2031. We had collective bargaining agreements with unions covering approximately 24,000 of our \
employees as of December 31, 2031."""


def test_employees_are_the_workforce_not_the_union_represented_part() -> None:
    first = _answer("How many employees did Herons Nest have at the end of fiscal 2031?", PEOPLE)
    assert first.startswith("The documents say 156,000")
    part = PEOPLE.split(". ", 2)[1] + ". " + PEOPLE.split(". ", 2)[2]
    answer = _answer("How many employees did Herons Nest have at the end of fiscal 2031?", "Human Capital\n" + part)
    assert not answer.startswith("The documents say")
    # asked of the union, the union's count answers
    union = _answer("How many of Herons Nest's employees were union represented at the end of fiscal 2031?", PEOPLE)
    assert "50,000" in union


def test_people_employed_are_employees() -> None:
    text = ("Employees\nAt December 31, 2031, the Company employed 93,516 people (full-time equivalents), with 37,412 "
            "employed in the United States.")
    assert _answer("How many employees did Herons Nest have at the end of fiscal 2031?", text).startswith(
        "The documents say 93,516")


def test_a_wrapped_sentences_last_line_is_no_field_of_the_page_number_below_it() -> None:
    text = ("During fiscal 2031, the Company returned $1.2 billion to shareholders through cash dividends and\n"
            "share repurchases.\n98")
    assert not find_fields(text)
    assert find_fields("TOTAL\n9.00")[0].value == "9.00"


def test_net_of_an_asset_printed_net_is_the_assets_line() -> None:
    assert analyze("What were Acme's net accounts receivable in 2031?").focus_terms == \
        analyze("What were Acme's accounts receivable in 2031?").focus_terms
    net_income = analyze("What was Acme's net income in 2031?").focus_terms
    assert net_income != analyze("What was Acme's income in 2031?").focus_terms


SEGMENTS = """Segment Information
|  | combined end customers | % of total segment net sales in 2031 |
|---|---|---|
| Optical Communications | 2 | 26% |
| Display | 3 | 41% |"""

SEGMENT_SALES = """Note 20 – Reportable Segments
(In millions)
|  | Year ended December 31, / 2031 | Year ended December 31, / 2030 |
|---|---|---|
| Optical Communications | $5,012 | $4,349 |
| Display | 3,306 | 3,700 |"""


def test_a_segments_net_sales_are_its_amount_not_its_share_of_the_total() -> None:
    question = "What were Herons Nest's Optical Communications segment net sales in 2031?"
    assert not _answer(question, SEGMENTS).startswith("Optical Communications segment net sales were 26%")
    assert _answer(question, SEGMENTS, SEGMENT_SALES).startswith(
        "Optical Communications segment net sales were $5,012 million")


def test_what_an_amount_would_have_been_lower_is_a_change_not_the_amount() -> None:
    text = ("International revenues\nWe estimate that international revenues would have been approximately $21.9 "
            "million lower in the year ended December 31, 2031 if foreign exchange rates had remained consistent.")
    answer = _answer("What were Herons Nest's international revenues in 2031?", text)
    assert not answer.startswith("The documents say $21.9 million")


def test_a_leases_expense_is_not_its_liability() -> None:
    text = ("Leases\nRental expense under operating leases was $393 million in 2031, $343 million in 2030 and $318 "
            "million in 2029. Operating lease liabilities were $1.2 billion, of which $916 million were classified "
            "as noncurrent, at December 31, 2031.")
    first = _answer("What were Herons Nest's operating lease liabilities at the end of fiscal 2031?", text)
    assert first.startswith("The documents say $1.2 billion")
    alone = _answer("What were Herons Nest's operating lease liabilities at the end of fiscal 2031?",
                    text.split(" Operating lease")[0])
    assert not alone.startswith("The documents say $393 million")


def test_cents_per_share_are_money() -> None:
    text = ("Dividend\nCombined with the last three quarterly dividends, this increases the annual dividend for fiscal "
            "2031 to 49.0 cents per share.")
    assert _answer("What dividends per share did Herons Nest declare in fiscal 2031?", text).startswith(
        "The documents say 49.0")


LEASES = """Note 8 – Leases
(Dollars in thousands)
|  | December 31, / 2031 | December 31, / 2030 |
|---|---|---|
| Operating lease right-of-use assets | $406,640 | $118,000 |
| Operating lease liabilities, current | 52,747 | 35,090 |
| Operating lease liabilities, non-current | 389,662 | 108,830 |"""


def test_a_liability_printed_as_its_two_parts_is_their_sum() -> None:
    first = _answer("What were Herons Nest's operating lease liabilities at the end of fiscal 2031?", LEASES)
    assert first.startswith("Operating lease liabilities were $442,409 thousand as of December 31, 2031 (computed: "
                            "Operating lease liabilities, current $52,747 thousand + Operating lease liabilities, "
                            "non-current $389,662 thousand")
    # one part asked: its own line
    part = _answer("What were Herons Nest's non-current operating lease liabilities at the end of fiscal 2031?", LEASES)
    assert part.startswith("Operating lease liabilities, non-current were $389,662 thousand")
    # one part printed alone is no answer to the whole
    alone = LEASES.replace("| Operating lease liabilities, current | 52,747 | 35,090 |\n", "")
    assert not _answer("What were Herons Nest's operating lease liabilities at the end of fiscal 2031?",
                       alone).startswith("Operating lease liabilities, non-current were")


RELEASE_HEAD = """Herons Nest Announces Fourth Quarter Fiscal 2031 Results
Comparable Sales Increased 15.6%
Fiscal 2032 Outlook
Diluted earnings per share $24.70 to $25.40"""


def test_a_headlines_percentage_and_an_outlooks_range_are_never_sure() -> None:
    sales = _answer("What were Herons Nest's net sales in the fourth quarter of fiscal 2031?", RELEASE_HEAD)
    assert not sales.startswith("The comparable sales increased is 15.6%")
    eps = _answer("What was Herons Nest's diluted EPS for fiscal 2031?", RELEASE_HEAD)
    assert not eps.startswith("The diluted earnings per share is $25.40")


EPS_NOTE = """Note 12 – Earnings per Share
(In thousands)
|  | Three Months Ended / June 30, 2031 | Three Months Ended / June 30, 2030 |
|---|---|---|
| Antidilutive share-based awards excluded from the calculation of diluted earnings per share | 261 | 1,034 |"""

INCOME = """HERONS NEST FOODS, INC.
CONSOLIDATED STATEMENTS OF OPERATIONS
(In thousands, except per share data)
|  | Three Months Ended / June 30, 2031 | Three Months Ended / June 30, 2030 |
|---|---|---|
| Earnings per share |  |  |
| Basic | $0.56 | $4.25 |
| Diluted | $0.55 | $4.20 |"""


def test_a_row_of_what_is_excluded_from_the_item_is_not_the_item() -> None:
    first = _answer("What was Herons Nest's diluted earnings per share in the second quarter of 2031?", EPS_NOTE,
                    INCOME)
    assert "$0.55" in first and "261" not in first


def test_an_amount_of_another_basis_or_an_outlooks_range_or_a_gain_is_never_sure() -> None:
    guidance = ("Guidance\nThis assumption and the guidance above imply 2031 core EPS of $7.27 (previously $7.20), a 7 "
                "percent increase compared to 2030 core EPS of $6.79.")
    assert not _answer("What was Herons Nest's reported EPS in 2031?", guidance).startswith("The documents say $7.27")
    outlook = "Highlights\nFiscal 2032 outlook: Adjusted EPS of 67-71 cents per share for fiscal 2031 results."
    assert not _answer("What was Herons Nest's adjusted EPS for fiscal 2031?", outlook).startswith(
        "The documents say 67")
    gain = ("Results\nConsolidated operating income decreased 84% in 2031. The decrease was due to a $2.3 billion gain "
            "in 2030 related to the sale of our properties, partially offset by the increase in net revenues in 2031.")
    assert not _answer("What were Herons Nest's consolidated net revenues in 2031?", gain).startswith(
        "The documents say $2.3 billion")


ROLLFORWARD = """Note 7 – Income Taxes
(Dollars in millions)
|  | 2031 | 2030 |
|---|---|---|
| Unrecognized tax benefits balance at January 1 | $926 | $814 |
| Additions for tax positions of the current year | 140 | 160 |
| Unrecognized tax benefits balance at December 31 | $1,037 | $926 |"""


def test_a_roll_forwards_january_1_row_is_the_beginning_balance() -> None:
    first = _answer("What was Herons Nest's unrecognized tax benefits balance at the end of FY2031?", ROLLFORWARD)
    assert "$1,037 million" in first and "$926" not in first


COMPENSATION = """Stock-Based Compensation
During fiscal 2031, 2030 and 2029, we recorded tax benefits related to stock-based compensation costs of $291 \
million, $395 million and $352 million, respectively. As of December 31, 2031, 20 million shares of common stock \
were available for grant."""

COMPREHENSIVE = """HERONS NEST FOODS, INC.
CONSOLIDATED STATEMENTS OF COMPREHENSIVE INCOME
(Dollars in millions)
|  | 2031 | 2030 |
|---|---|---|
| Net income | 5,349 | 4,858 |
| Total other comprehensive income (loss), net of tax | 153 | (402) |
| Comprehensive income | 5,502 | 4,456 |"""


def test_an_items_tax_effect_and_its_other_part_are_not_the_item() -> None:
    assert not _answer("What was Herons Nest's stock-based compensation expense in fiscal 2031?",
                       COMPENSATION).startswith("The documents say")
    first = _answer("What was Herons Nest's total comprehensive income in FY2031?", COMPREHENSIVE)
    assert first.startswith("Comprehensive income was $5,502 million")


SUPPLEMENTAL = """KESTREL CORP. AND SUBSIDIARY COMPANIES
CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS
(MILLIONS)
| (MILLIONS) | Six Months Ended / July 2, 2031 | Six Months Ended / July 3, 2030 |
|---|---|---|
| Cash and cash equivalents: |  |  |
| End of period | 2,853 | 1,944 |
| Cash paid/(received) during the period for: |  |  |
| Interest paid | 821 | 771 |
| Interest rate hedges | 31 | (10) |"""


def test_a_row_the_heading_alone_names_the_item_for_is_another_item_unless_its_label_says_when() -> None:
    """"Cash paid during the period for: Interest paid 821" is interest, not the cash asked (before: "Interest paid
    cash was $821 million", sure); "Cash and cash equivalents: End of period 2,853" is the cash."""
    first = _answer("How much cash did Kestrel have at July 2, 2031?", SUPPLEMENTAL)
    assert "2,853" in first and not first.startswith("Interest"), first
    without = SUPPLEMENTAL.replace("| Cash and cash equivalents: |  |  |\n| End of period | 2,853 | 1,944 |\n", "")
    assert not _answer("How much cash did Kestrel have at July 2, 2031?", without).startswith("Interest paid")
    # a one-word label qualifies its heading: "Net income per common share: Diluted" is the diluted EPS
    eps = ("KESTREL CORP. › CONSOLIDATED STATEMENTS OF INCOME\n|  | Fiscal 2031 | Fiscal 2030 |\n|---|---|---|\n"
           "| Net income per common share: |  |  |\n| Basic | $24.17 | $18.09 |\n| Diluted | $24.01 | $17.98 |")
    passages = [Passage("S1", eps, "doc-1", "kestrel-10k.pdf", 6, company="Kestrel Corp.")]
    assert read("What was the EPS of Kestrel in fiscal 2031?", passages).why == "sure"


PLAN_ASSETS = """| (Millions) Asset Class | Fair Value Measurements Using Inputs Considered as / Level 1 / 2031 | \
Fair Value Measurements Using Inputs Considered as / Level 1 / 2030 | Fair Value Measurements Using Inputs Considered \
as / Level 2 / 2031 | Fair Value Measurements Using Inputs Considered as / Level 2 / 2030 | Fair Value at Dec. 31, / \
2031 | Fair Value at Dec. 31, / 2030 |
|---|---|---|---|---|---|---|
| Cash and Cash Equivalents |  |  |  |  |  |  |
| Cash and cash equivalents | $377 | $145 | $6 | $11 | $383 | $156 |
| Total Cash and Cash Equivalents | $377 | $145 | $2 | $(402) | $1,024 | $731 |"""


def test_a_plans_assets_by_fair_value_level_are_not_the_companys_balance() -> None:
    """A pension note's table of its plans' assets by the fair value hierarchy ("Level 1") names "Cash and cash
    equivalents" exactly as the balance sheet does: the company's cash is the balance sheet's, and the plans' table
    alone is never a sure answer for it."""
    text = _answer("What were Herons Nest's cash and cash equivalents at the end of 2031?", PLAN_ASSETS, BALANCE)
    assert text.startswith("Cash and cash equivalents were $1,210 million") and "[S2]" in text
    alone = _answer("What were Herons Nest's cash and cash equivalents at the end of 2031?", PLAN_ASSETS)
    assert alone.startswith("I'm not sure")


OBLIGATIONS = """Herons Nest Foods, Inc. › 5. Commitments and Contingencies
The expected timing of payments for these streaming content obligations is as follows:
(in thousands)
|  | As of December 31, / 2031 | As of December 31, / 2030 |
|---|---|---|
| Less than one year | $7,446,947 | $6,200,611 |
| Due after one year | 10,247,695 | 8,278,876 |
| Total streaming content obligations | $17,694,642 | $14,479,487 |"""


def test_a_row_that_shares_the_items_qualifier_but_names_another_thing_is_no_answer() -> None:
    """"total streaming revenue" asked: "Total streaming content obligations" has the "total" and the "streaming" but
    is an obligation — its label, caption and heading name no revenue: never a sure answer."""
    text = _answer("What was Herons Nest's total streaming revenue in 2031?", OBLIGATIONS)
    assert not text.startswith("Total streaming content obligations")
    assert _answer("What were Herons Nest's total streaming content obligations at the end of 2031?",
                   OBLIGATIONS).startswith("Total streaming content obligations were $17,694,642 thousand")


CASH_FLOWS_BY_YEAR = """HERONS NEST FOODS, INC.
Consolidated Statement of Cash Flows
Years ended December 31
(Millions)
| (Millions) | 2031 | 2030 | 2029 |
|---|---|---|---|
| Effect of exchange rate changes on cash and cash equivalents | (160) | 156 | (33) |
| Net increase (decrease) in cash and cash equivalents | (200) | 655 | 600 |
| Cash and cash equivalents at beginning of year | 3,053 | 2,398 | 1,798 |
| Cash and cash equivalents at end of period | $2,853 | $3,053 | $2,398 |"""

NET_DEBT = """Financial Condition and Liquidity
The Company's net debt position is as follows:
| (Millions) | December 31, / 2031 | December 31, / 2030 | 2031 versus 2030 |
|---|---|---|---|
| Total debt | $14,622 | $13,949 | $673 |
| Less: Cash, cash equivalents and marketable securities | 3,270 | 4,156 | (886) |
| Net debt | $11,352 | $9,793 | $1,559 |"""


def test_a_years_caption_dates_its_columns_and_a_row_of_the_item_and_others_is_no_balance() -> None:
    # "Years ended December 31" over "2031 | 2030": the cash at the end of 2031 is the statement's last line,
    # not the net-debt table's cash together with marketable securities
    table = find_tables(CASH_FLOWS_BY_YEAR)[0]
    assert [(p.year, p.month, p.day) for p in table.columns[0].periods] == [(2031, 12, 31)]
    first = _answer("What were Herons Nest's cash and cash equivalents as of December 31, 2031?", NET_DEBT,
                    CASH_FLOWS_BY_YEAR)
    assert first.startswith("Cash and cash equivalents at end of period were $2,853 million as of December 31, 2031")
