"""Statement answers in the scale the question asks ("in USD millions" over a table in thousands), and per-share
rows that a caption's "(in millions, except per share data)" does not scale. Made-up statements, questions
written here (none from an evaluation set)."""

from __future__ import annotations

from chat.models.reader import Passage, analyze, read
from chat.models.reader.numbers import Amount, Unit, asked_scale, caption_unit, rescaled

OPERATIONS = """BRAMBLE OUTDOOR GOODS, INC.
CONSOLIDATED STATEMENTS OF OPERATIONS
(In thousands, except per share data)
| | Year Ended December 31, / 2021 | Year Ended December 31, / 2020 |
|---|---|---|
| Net revenues | $ 1,482,305 | $ 1,260,118 |
| Cost of revenues | 903,450 | 790,222 |
| Operating income | 212,680 | 150,475 |
| Net income | $ 160,090 | $ 101,300 |
| Diluted net income per share | $ 2.41 | $ 1.57 |"""

POSITION = """BRAMBLE OUTDOOR GOODS, INC.
CONSOLIDATED BALANCE SHEETS
(In millions)
| | December 31, 2021 | December 31, 2020 |
|---|---|---|
| Total current assets | 1,204 | 1,087 |
| Total assets | 3,918 | 3,402 |"""

PASSAGES = [Passage("S1", OPERATIONS, "d1", "BRAMBLE_10K.pdf", 41),
            Passage("S2", POSITION, "d1", "BRAMBLE_10K.pdf", 43)]


def _first(question: str) -> str:
    return read(question, PASSAGES).text.split("\n")[0]


def test_asked_scale_reads_the_usual_ways_of_asking() -> None:
    assert asked_scale("What was it (in USD millions)?") == "million"
    assert asked_scale("Answer in USD thousands.") == "thousand"
    assert asked_scale("What were total assets, in $ billions?") == "billion"
    assert asked_scale("Report it in millions of dollars.") == "million"
    assert asked_scale("How many employees did it have?") == ""
    asked = analyze("Assume you are an analyst. What is the FY2021 net income? Answer in USD millions.")
    assert asked.scale == "million"


def test_rescaled_is_exact_and_empty_when_nothing_converts() -> None:
    thousands = Unit(1e3, "thousand", "$")
    assert rescaled(Amount(160090, "160,090"), thousands, "million") == "$160.09 million"
    assert rescaled(Amount(3918, "3,918"), Unit(1e6, "million", ""), "billion") == "3.918 billion"
    assert rescaled(Amount(1.2, "1.2", scale_word="billion"), Unit(), "million") == "1,200 million"
    assert rescaled(Amount(160090, "160,090"), thousands, "thousand") == ""
    assert rescaled(Amount(12.5, "12.5%", percent=True), thousands, "million") == ""
    assert rescaled(Amount(7, "7"), Unit(), "million") == ""
    # ``whole``: 100 or more of the asked scale in whole units, as statements print them, "≈" when that rounds
    assert rescaled(Amount(381603, "381,603"), thousands, "million", whole=True) == "≈$382 million"
    assert rescaled(Amount(381000, "381,000"), thousands, "million", whole=True) == "$381 million"
    assert rescaled(Amount(3918, "3,918"), Unit(1e6, "million", ""), "billion", whole=True) == "3.918 billion"


def test_a_value_in_thousands_is_also_given_in_the_asked_millions() -> None:
    first = _first("Assume you are an equities analyst. What is Bramble's FY2021 net income? Answer in USD millions.")
    assert "$160,090 thousand" in first and "≈$160 million" in first and "[S1]" in first, first


def test_a_balance_in_millions_is_also_given_in_the_asked_billions() -> None:
    first = _first("What were Bramble's total assets as of December 31, 2020 (in USD billions)?")
    assert "3,402 million" in first and "3.402 billion" in first


def test_a_change_states_its_difference_in_the_asked_scale() -> None:
    first = _first("By how much did Bramble's net revenues change from FY2020 to FY2021 (in USD millions)?")
    assert "$222,187 thousand" in first and "≈$222 million" in first and "computed" in first, first


def test_a_per_share_row_is_not_scaled_by_the_caption() -> None:
    first = _first("What was Bramble's diluted net income per share in FY2021?")
    assert "$2.41" in first and "thousand" not in first


def test_caption_units_written_the_other_usual_ways() -> None:
    from chat.models.reader.numbers import caption_unit

    assert caption_unit("(Millions, except per share amounts)").word == "million"
    assert caption_unit("(In millions of dollars)") == Unit(1e6, "million", "$")
    assert caption_unit("($ in thousands)") == Unit(1e3, "thousand", "$")
    assert caption_unit("(Millions of Dollars)").currency == "$"
    assert caption_unit("(unaudited)") == Unit()


def test_a_table_in_millions_said_without_in_is_scaled() -> None:
    table = """CONSOLIDATED STATEMENT OF INCOME
| (Millions, except per share amounts) | Years ended December 31 / 2019 | Years ended December 31 / 2018 |
|---|---|---|
| Net sales | $ 32,136 | $ 31,657 |
| Cost of sales | 16,782 | 16,450 |"""
    passages = [Passage("S1", table, "d", "X_10K.pdf", 40)]
    first = read("What is the FY2019 cost of sales in USD thousands?", passages).text
    assert "$16,782 million" in first and "$16,782,000 thousand" in first


def test_a_currency_code_is_a_word_of_its_own() -> None:
    """"FORM 10-K" holds no amount "RM 10" (ringgit): a letter code counts only standing apart ("RM 10.50",
    "USD 5 million")."""
    from chat.models.reader.numbers import all_amounts

    found = [(a.currency, a.value) for _, _, a in all_amounts("KESTREL FISCAL 2023 FORM 10-K › Dividends")]
    assert ("RM", 10.0) not in found and ("", 10.0) in found
    assert [(a.currency, a.value) for _, _, a in all_amounts("Total RM 10.50")] == [("RM", 10.5)]
    answer = read("How much did Kestrel pay in dividends per share in fiscal 2023?",
                  [Passage("S1", "KESTREL INC. › KESTREL FISCAL 2023 FORM 10-K › Dividends\nWe paid dividends to "
                                 "our shareholders in fiscal 2023.", "k", "KESTREL_2023_10K.pdf", 30)])
    assert "RM 10" not in answer.text.split("“")[0], answer.text  # no ringgit stated before the quote


EQUITY = """CALDERA SOFTWARE INC. › CONSOLIDATED BALANCE SHEETS
(In millions, except par value)
| | December 2, 2032 | December 3, 2031 |
|---|---|---|
| Stockholders’ equity: | | |
| Common stock, $0.0001 par value; 900 shares authorized; 601 shares issued; | | |
| 462 and 475 shares outstanding, respectively | — | — |
| Additional paid-in-capital | 9,868 | 8,428 |
| Treasury stock, at cost (139 and 126 shares, respectively) | (23,843) | (17,399) |
| Total stockholders’ equity | 14,051 | 14,797 |"""


def test_equity_lines_under_a_stock_class_description_are_amounts_not_shares() -> None:
    """The common stock's description ("… 900 shares authorized …") heads the equity lines: the total is in millions
    of dollars, not "14,051 million shares" (before)."""
    first = read("What is Caldera's year end FY2032 total stockholders' equity?",
                 [Passage("S1", EQUITY, "c", "CALDERA_10K.pdf", 53)]).text.splitlines()[0]
    assert "14,051 million" in first and "shares" not in first, first


def test_a_singular_scale_after_the_currency_in_brackets_is_the_tables_unit() -> None:
    """"($ million)" heads a release's grid: its amounts are millions of dollars (before: "were 689", no unit)."""
    grid = """Amcor-like Packaging › U.S. GAAP Condensed Consolidated Balance Sheets (Unaudited)
| ($ million) | June 30, 2032 | June 30, 2033 |
|---|---|---|
| Cash and cash equivalents | 775 | 689 |
| Total assets | 17,426 | 17,003 |"""
    first = read("What were the cash and cash equivalents at June 30, 2033?",
                 [Passage("S1", grid, "a", "ACME_2033Q4_EARNINGS.pdf", 9)]).text.splitlines()[0]
    assert first.startswith("Cash and cash equivalents were $689 million as of June 30, 2033"), first
    assert caption_unit("(1 million)").word == ""  # a figure in brackets is no unit


def test_a_rate_is_never_a_sure_answer_to_an_amount_asked_in_millions() -> None:
    """"gross profit in USD millions" and only a "Gross profit rate 24.1%" row: shown as the closest evidence, not
    stated (before: "Gross profit rate was 24.1%", a sure answer)."""
    grid = """KESTREL STORES › Consolidated Results of Operations
| | Fiscal Years Ended January 31, / 2032 | 2031 |
|---|---|---|
| Gross profit rate | 24.1% | 24.5% |"""
    answer = read("What is Kestrel's FY2032 gross profit in USD millions? Use the income statement.",
                  [Passage("S1", grid, "k", "KESTREL_2032_10K.pdf", 36)])
    assert not answer.text.startswith("Gross profit rate was 24.1%"), answer.text
