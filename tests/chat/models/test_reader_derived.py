"""A line item the statement leaves out, derived from two it prints (``reader.derived``), and the balance sheet's
grand total that is no total liabilities (``balances.both_sides_total``). Made-up filings (none from an evaluation
set)."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.balances import both_sides_total

BALANCE = """KESTREL GOODS, INC. › CONSOLIDATED BALANCE SHEETS
(In millions)
| | January 31, / 2032 | January 31, / 2031 |
|---|---|---|
| Total current liabilities | 92,645 | 77,477 |
| Long-term debt | 43,714 | 43,520 |
| Deferred income taxes and other | 18,584 | 13,380 |
| Total Kestrel shareholders' equity | 74,669 | 72,496 |
| Noncontrolling interest | 6,883 | 7,138 |
| Total equity | 81,552 | 79,634 |
| Total liabilities and equity | 236,495 | 219,295 |"""


def test_total_liabilities_derived_when_the_balance_sheet_prints_no_such_line() -> None:
    """No "Total liabilities" line: the grand total less the total equity, both cells cited, the subtraction shown
    (before: "Total liabilities and equity was $236,495 million", the grand total stated as the liabilities)."""
    answer = read("What is Kestrel's FY2032 total liabilities in USD millions? Use the balance sheet.",
                  [Passage("S1", BALANCE, "k", "KESTREL_2032_10K.pdf", 53)])
    first = answer.text.splitlines()[0]
    assert first.startswith("Total liabilities were 154,943 million as of January 31, 2032"), first
    assert "Total liabilities and equity 236,495 million − Total equity 81,552 million" in first, first
    assert "prints no total liabilities line" in first and "[S1]" in first
    assert not answer.declined


def test_a_printed_total_liabilities_line_is_read_as_printed() -> None:
    printed = BALANCE.replace("| Total Kestrel shareholders' equity", "| Total liabilities | 154,943 | 139,661 |\n"
                                                                      "| Total Kestrel shareholders' equity")
    first = read("What is Kestrel's FY2031 total liabilities in USD millions?",
                 [Passage("S1", printed, "k", "KESTREL_2032_10K.pdf", 53)]).text.splitlines()[0]
    assert first.startswith("Total liabilities were 139,661 million as of January 31, 2031"), first
    assert "computed" not in first


def test_the_grand_total_when_it_is_asked() -> None:
    first = read("What were Kestrel's total liabilities and equity at January 31, 2032?",
                 [Passage("S1", BALANCE, "k", "KESTREL_2032_10K.pdf", 53)]).text.splitlines()[0]
    assert "236,495" in first and "computed" not in first, first


def test_the_liabilities_and_equity_total_is_told_apart() -> None:
    assert both_sides_total("TOTAL LIABILITIES AND SHAREHOLDERS’ EQUITY")
    assert both_sides_total("Total liabilities, redeemable noncontrolling interests and equity (deficit)")
    assert not both_sides_total("Total liabilities")
    assert not both_sides_total("Total current liabilities")


CASH_FLOWS = """WREN OPTICS INCORPORATED › Consolidated Statements of Cash Flows
(In millions)
| | Year ended December 31, / 2033 | Year ended December 31, / 2032 |
|---|---|---|
| Cash Flows from Operating Activities: | | |
| Net income | $612 | $587 |
| Adjustments to reconcile net income to net cash provided by operating activities: | | |
| Depreciation | 1,244 | 1,180 |
| Amortization of acquired intangibles | 118 | 97 |
| Amortization of debt issuance costs | 9 | 8 |
| Share-based compensation expense | 201 | 187 |
| Net cash provided by operating activities | 2,411 | 2,250 |"""


def test_depreciation_and_amortization_added_when_printed_apart() -> None:
    """"Depreciation" and "Amortization of acquired intangibles" on separate lines: their sum, both cells cited,
    the debt issuance costs' amortization (interest) left out (before: declined, no row names both)."""
    answer = read("What is Wren Optics's FY2032 depreciation and amortization expense (in USD millions)? Use the "
                  "cash flow statement.", [Passage("S1", CASH_FLOWS, "w", "WREN_2033_10K.pdf", 61)])
    first = answer.text.splitlines()[0]
    assert first.startswith("Depreciation and amortization were $1,277 million in the year ended December 31, 2032"), \
        first
    assert "Depreciation $1,180 million + Amortization of acquired intangibles $97 million" in first, first
    assert "issuance" not in first and "[S1]" in first
    assert not answer.declined


def test_a_printed_depreciation_and_amortization_line_is_read_as_printed() -> None:
    apart = "| Depreciation | 1,244 | 1,180 |\n| Amortization of acquired intangibles | 118 | 97 |"
    printed = CASH_FLOWS.replace(apart, "| Depreciation and amortization | 1,362 | 1,277 |")
    first = read("What is Wren Optics's FY2033 depreciation and amortization expense (in USD millions)?",
                 [Passage("S1", printed, "w", "WREN_2033_10K.pdf", 61)]).text.splitlines()[0]
    assert "1,362" in first and "computed" not in first, first


def test_depreciation_alone_is_not_summed() -> None:
    first = read("What was Wren Optics's depreciation in 2033?",
                 [Passage("S1", CASH_FLOWS, "w", "WREN_2033_10K.pdf", 61)]).text.splitlines()[0]
    assert "1,244" in first and "computed" not in first, first


UNLABELLED = """PELICAN LEISURE CORPORATION AND SUBSIDIARIES
CONSOLIDATED BALANCE SHEETS
(In thousands)
| | December 31, / 2033 ASSETS | December 31, / 2032 |
|---|---|---|
| Current assets | | |
| Cash and cash equivalents | $4,101,637 | $2,329,604 |
| Total current assets | 4,950,659 | 3,007,693 |
| Property and equipment, net | 13,632,091 | 16,285,955 |
| Total other assets | 14,912,184 | 10,582,708 |
| | $33,494,934 | $29,876,356 |
| | LIABILITIES AND STOCKHOLDERS' EQUITY | |
| Current liabilities | | |
| Accounts payable | $142,523 | $235,437 |
| Total current liabilities | 1,856,583 | 3,191,423 |
| Long-term debt, net | 12,376,684 | 11,168,904 |
| Stockholders' equity | | |
| Retained earnings | 3,091,007 | 4,201,337 |
| Total stockholders' equity | 10,179,908 | 11,662,919 |
| | $33,494,934 | $29,876,356 |"""


def test_a_balance_sheets_unlabelled_totals_are_read_as_what_they_are() -> None:
    """The figure under the assets with no label is the total assets; the last one, under the equity, the total
    liabilities and equity — so the total liabilities derive from it (before: both declined)."""
    sheet = [Passage("S1", UNLABELLED, "p", "PELICAN_2033_10K.pdf", 64)]
    first = read("What is the year end FY2033 total assets for Pelican? Answer in USD millions.", sheet).text
    first = first.splitlines()[0]
    assert first.startswith("Total assets were $33,494,934 thousand (≈$33,495 million) as of December 31, 2033"), first
    assert "without a label" in first, first
    liabilities = read("What is Pelican's FY2032 total liabilities in USD millions? Use the balance sheet.",
                       sheet).text.splitlines()[0]
    assert "$18,213.44 million" in liabilities and "− Total stockholders' equity $11,662,919 thousand" in liabilities, \
        liabilities


def test_an_unlabelled_row_outside_a_balance_sheet_stays_unnamed() -> None:
    flows = UNLABELLED.replace("| Total current assets | 4,950,659 | 3,007,693 |\n", "")
    answer = read("What is the year end FY2033 total assets for Pelican?",
                  [Passage("S1", flows, "p", "PELICAN_2033_10K.pdf", 64)])
    assert "33,494,934" not in answer.text.splitlines()[0], answer.text
