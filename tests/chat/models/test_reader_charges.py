"""Charges, per-share figures and what only looks like them (issue 12). A restructuring charge is an amount asked
(not a definition); a sentence listing each year's charge in its own clause ("in 2031 were affected by $100 million
…; … of $36 million ($28 million, or $0.10 per share, after-tax) in 2030") answers the asked year's, not a bracket's
after-tax restatement; a sentence of another year only is never sure for a December company's FY; what is not the
charge asked — a program's charges, cash paid, a change over the prior year — and what is not a per-share figure —
dividends received, one quarter's dividend for the year's, a stock index's "500", a length of time — are never
stated as the answer. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.question import analyze

COMPANY = "Osprey Systems Corporation"


def _first(question: str, *texts: str, period_end: str = "2031-12-31") -> str:
    passages = [Passage(f"S{i}", text, "doc-1", "osprey-10k.pdf", 30 + i, company=COMPANY, period_end=period_end)
                for i, text in enumerate(texts, 1)]
    return read(question, passages).text.split("\n")[0]


def test_a_charge_asked_is_an_amount() -> None:
    for question in ("What was Osprey's restructuring charge in FY2031?", "What were Osprey's impairment charges in "
                     "2031?", "What was Osprey's accumulated depreciation at the end of 2031?"):
        assert analyze(question).kind == "value", question


SEVERANCE = ("OSPREY SYSTEMS CORPORATION › Results\nOur operating profit and net earnings in 2031 were affected by "
             "$100 million ($79 million, or $0.31 per share, after-tax) of certain severance and other charges; "
             "severance and\nrestructuring charges of $36 million ($28 million, or $0.10 per share, after-tax) in "
             "2030; "
             "and severance and restructuring charges of $96\nmillion ($76 million, or $0.26 per share, after-tax)")


def test_the_asked_years_clause_answers_not_another_years_or_a_restatement() -> None:
    first = _first("What was Osprey's restructuring charge in FY2031?", SEVERANCE)
    assert first.startswith("The documents say $100 million:")


def test_a_sentence_of_another_year_only_is_never_sure_for_a_december_companys_fy() -> None:
    text = ("OSPREY SYSTEMS CORPORATION › Results\nOur operating profit in 2030 was affected by severance and "
            "restructuring charges of $36 million associated with plans to consolidate certain facilities.")
    assert not _first("What was Osprey's restructuring charge in FY2031?", text).startswith("The documents say")


def test_what_is_not_the_charge_asked_is_never_stated_as_it() -> None:
    program = ("Program charges\nCharges of fixed price development programs in 2031 included the VX-9 tanker "
               "($1,452 million) and the T-3 trainer ($579 million).")
    paid = "Restructuring\nWe paid net $93.9 million of cash related to restructuring actions in fiscal 2031."
    change = ("Contract adjustments\nCumulative contract catch-up adjustments in 2031 were $1,858 million more "
              "unfavorable than the prior year largely due to restructuring charges on development programs.")
    for text in (program, paid, change):
        assert not _first("What was Osprey's restructuring charge in FY2031?", text).startswith("The documents say")


def test_what_is_not_the_years_dividend_per_share_is_never_stated_as_it() -> None:
    received = "Note 9 – Customer Financing\nDividends received were $111 and $77 during 2031 and 2030."
    quarterly = ("Dividends\nOn February 2, 2031, the Board of Directors declared a quarterly cash dividend of $0.27 "
                 "per share of common stock.")
    for text in (received, quarterly):
        assert not _first("What were Osprey's cash dividends declared per share in FY2031?", text).startswith(
            "The documents say")


def test_an_index_name_and_a_length_of_time_are_no_amounts() -> None:
    graph = ("Performance graph\nThis graph compares the cumulative total shareholder return on Osprey's common stock "
             "during the five fiscal years ending through fiscal 2031 to the S&P 500 Index.")
    assert not _first("What was Osprey's treasury stock balance at the end of FY2031?", graph).startswith(
        "The documents say 500")
    lease = ("Return on assets\nFor fiscal 2031, lease related assets and associated accumulated depreciation are "
             "included at their carrying amount rather than averaged over the 12 months.")
    assert not _first("What was Osprey's accumulated depreciation at the end of FY2031?", lease).startswith(
        "The documents say 12 months")


EPS_NOTE = """OSPREY SYSTEMS CORPORATION › Note 12 – Earnings per share
In Millions, Except per Share Data
|  | Fiscal Year / 2031 | Fiscal Year / 2030 |
|---|---|---|
| Net earnings attributable to Osprey | $2,707.3 | $2,339.8 |
| Average number of common shares - basic EPS | 607.5 | 614.1 |
| Average number of common shares - diluted EPS | 612.6 | 619.1 |
| Diluted earnings per share | $4.42 | $3.78 |"""

SHARES_SECTION = """OSPREY SYSTEMS CORPORATION › Consolidated Statements of Operations
(in millions, except per share data)
|  | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Diluted earnings per share | $ 6.15 | $ 4.90 |
| Weighted-average shares used in computation of earnings per share: |  |  |
| Basic | 480 | 477 |
| Diluted | 493 | 484 |"""


def test_the_diluted_share_count_is_found_however_its_row_is_worded() -> None:
    question = "What is the FY2031 diluted weighted average number of shares outstanding for Osprey (in millions)?"
    assert _first(question, EPS_NOTE).startswith(
        "Average number of common shares - diluted EPS was 612.6 million shares")
    assert _first(question, SHARES_SECTION).startswith("Diluted was 493 million shares")
    # the per-share figure is still the per-share row
    assert _first("What was Osprey's diluted EPS in FY2031?", SHARES_SECTION).startswith(
        "Diluted earnings per share was $6.15")


COMPONENTS = """OSPREY SYSTEMS CORPORATION › Note 16 - Net income per share
The following table presents the calculation of basic and diluted net income per share (in thousands, except per \
share data):
|  | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Basic shares: |  |  |
| Weighted-average shares used to compute basic net income per share | 443,126 | 424,999 |
| Diluted shares: |  |  |
| Stock options and restricted stock units | 23,378 | 30,602 |
| Common stock warrants | 15,413 | 10,432 |"""


def test_a_component_under_the_items_heading_is_never_the_item() -> None:
    first = _first("What was Osprey's weighted average diluted share count in FY2031?", COMPONENTS)
    assert not first.startswith("Stock options and restricted stock units were")
    assert _first("What was Osprey's weighted average diluted share count in FY2031?", SHARES_SECTION).startswith(
        "Diluted was 493 million shares")


def test_a_forecast_of_nothing_paid_is_no_balance_of_none() -> None:
    text = ("Income taxes\nAs of May 29, 2031, we do not expect to pay unrecognized tax benefit liabilities and "
            "accrued interest within the next 12 months.")
    first = _first("What was Osprey's unrecognized tax benefits balance at the end of FY2031?", text)
    assert not first.startswith(("None in", "The documents say"))


def test_a_per_share_row_under_a_shares_heading_is_money_not_shares() -> None:
    text = """OSPREY SYSTEMS CORPORATION › Earnings per share
|  | Year ended December 31, / 2031 | Year ended December 31, / 2030 / (in thousands, except per share data) |
|---|---|---|
| Net income | $558,929 | $186,678 |
| Shares used in computation: |  |  |
| Weighted-average common shares outstanding | 431,885 | 428,822 |
| Basic earnings per share | $1.29 | $0.44 |"""
    first = _first("What were Osprey's basic earnings per share for 2031?", text)
    assert first.startswith("Basic earnings per share was $1.29 in") and "shares" not in first.split(" in ")[0][25:]
