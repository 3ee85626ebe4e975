"""Lines an analyst asks for that the statements leave out. Total debt: the balance sheet's debt lines added
(borrowings due within the year, the current part of long-term debt, long-term debt), each cited — across the
chunks a balance sheet is cut into; a printed "Total debt" line answers as printed; debt securities held (an asset)
are never the debt. Gross margin: revenue less cost of sales where the income statement prints no gross line — a
joint venture's "Gross margin" is not the company's; a sensitivity ("if … had been 1% lower, … would have …") is
never the figure. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.statement_pages import statement_followups
from chat.models.reader.statements import implied_statement
from chat.models.reader.text import match_terms

CURRENT = """KESTREL OUTFITTERS, INC.
CONSOLIDATED BALANCE SHEETS
(In millions)
|  | May 31, / 2031 | May 31, / 2030 |
|---|---|---|
| Current liabilities: |  |  |
| Current portion of long-term debt | $ 6 | $ 44 |
| Notes payable | 336 | 325 |
| Accounts payable | 2,279 | 2,048 |
| Current portion of operating lease liabilities | 410 | 391 |
| Total current liabilities | 6,040 | 5,474 |"""

LONG_TERM = """KESTREL OUTFITTERS, INC.
CONSOLIDATED BALANCE SHEETS
|  | May 31, / 2031 | May 31, / 2030 |
|---|---|---|
| Long-term debt | 3,468 | 3,471 |
| Operating lease liabilities | 2,913 | 2,780 |
| Deferred income taxes and other liabilities | 3,216 | 1,907 |"""

DEBT_NOTE = """Note 6 — Long-term debt
The face value of our total debt obligations is as follows (in millions):
|  | May 31, / 2031 | May 31, / 2030 |
|---|---|---|
| 2.375% Notes due 2036 | 1,000 | 1,000 |
| 3.625% Notes due 2043 | 2,474 | 2,515 |
| Total debt | 3,474 | 3,515 |"""

INVESTMENTS = """Note 3 — Investments in debt securities
The following tables summarize the Company's short-term debt securities (in thousands):
|  | December 31, 2031 / Fair Value | December 31, 2031 / Unrealized Losses |
|---|---|---|
| Short-term debt securities: |  |  |
| U.S. government securities | 77,106 | (35) |
| Corporate bonds | 49,737 | (230) |
| Total | $126,843 | $(265) |"""


def _read(question: str, *texts: str, page: int = 0) -> str:
    passages = [Passage(f"S{i}", text, "doc-1", "kestrel-10k.pdf", page or 60 + i, company="Kestrel Outfitters, Inc.")
                for i, text in enumerate(texts, 1)]
    return read(question, passages).text.split("\n")[0]


def test_total_debt_is_the_sum_of_the_balance_sheets_debt_lines_across_its_chunks() -> None:
    first = _read("What was Kestrel's total debt at the end of FY2031?", CURRENT, LONG_TERM, page=57)
    assert first.startswith("Total debt was $3,810 million as of May 31, 2031 (computed: ")
    for line in ("Current portion of long-term debt $6 million", "Notes payable $336 million",
                 "Long-term debt $3,468 million"):
        assert line in first
    assert "lease" not in first  # a lease's liability is no debt
    assert "[S1]" in first and "[S2]" in first


def test_a_printed_total_debt_line_answers_as_printed() -> None:
    first = _read("What was Kestrel's total debt at the end of FY2031?", CURRENT, LONG_TERM, DEBT_NOTE, page=57)
    assert first.startswith("Total debt was $3,474 million as of May 31, 2031")
    assert "computed" not in first


def test_debt_securities_held_are_never_the_debt() -> None:
    first = _read("What was Kestrel's total debt at the end of FY2031?", INVESTMENTS)
    assert not first.startswith(("The documents say", "Total debt was", "Short-term debt securities"))


def test_total_debt_is_searched_on_the_balance_sheet() -> None:
    assert implied_statement(frozenset(match_terms("total debt"))) == "balance"
    assert implied_statement(frozenset(match_terms("net debt"))) == ""  # a measure of its own, no line
    queries = statement_followups("What was Kestrel's total debt at the end of FY2031?", [])
    assert any("balance sheets" in q and "total debt" in q for q in queries)


INCOME = """KESTREL OUTFITTERS, INC.
CONSOLIDATED STATEMENTS OF EARNINGS
(In millions)
|  | Fiscal Year / 2031 | Fiscal Year / 2030 |
|---|---|---|
| Net sales | $ 18,992.8 | $ 18,127.0 |
| Cost of sales | 12,590.6 | 11,678.7 |
| Selling, general, and administrative expenses | 3,147.0 | 3,079.6 |
| Operating profit | 3,255.2 | 3,368.7 |"""

JOINT_VENTURE = """Note 8 — Investments in joint ventures
Summary combined financial information for the joint ventures on a 100 percent basis follows (in millions):
|  | Fiscal Year / 2031 | Fiscal Year / 2030 |
|---|---|---|
| Net sales | 2,893.0 | 2,780.3 |
| Gross margin | 803.1 | 795.4 |
| Net earnings | 360.2 | 342.0 |"""

SENSITIVITY = """KESTREL OUTFITTERS, INC. › Accounting for Long-term Contracts
Due to the significance of judgment in the estimation process described above, it is likely that materially \
different earnings could be recorded if
we used different assumptions or if the underlying circumstances were to change. If the
combined gross margins for our profitable long-term contracts had been estimated to be higher or lower by 1% during \
2031, it would have
increased or decreased pre-tax income for the year by approximately $300 million."""


def test_gross_margin_is_revenue_less_cost_of_sales_where_no_line_prints_it() -> None:
    first = _read("What was Kestrel's gross margin in FY2031?", JOINT_VENTURE, INCOME)
    assert first.startswith("Gross margin was $6,402.2 million in the fiscal year 2031 (computed: Net sales "
                            "$18,992.8 million − Cost of sales $12,590.6 million")


def test_a_printed_gross_line_and_a_split_cost_of_revenues_are_read_as_printed() -> None:
    printed = INCOME.replace("| Selling,", "| Gross profit | 6,402.2 | 6,448.3 |\n| Selling,")
    first = _read("What was Kestrel's gross margin in FY2031?", printed, page=45)
    assert first.startswith("Gross profit was $6,402.2 million") and "computed" not in first
    split = INCOME.replace("| Cost of sales | 12,590.6 | 11,678.7 |",
                           "| Cost of revenues—product | 9,590.6 | 8,678.7 |\n"
                           "| Cost of revenues—services | 3,000.0 | 3,000.0 |")
    assert "computed: Net sales" not in _read("What was Kestrel's gross margin in FY2031?", split, page=45)
    assert "computed: Net sales" not in _read("What was Kestrel's gross margin % in FY2031?", INCOME, page=45)


def test_a_sensitivity_is_never_the_gross_margin() -> None:
    first = _read("What was Kestrel's gross margin in FY2031?", SENSITIVITY)
    assert not first.startswith("The documents say")


DEBT_TABLE = """Note 11 — Debt
|  | 2031 | 2030 |
|---|---|---|
| Unsecured debentures and notes | $56,900 | $57,950 |
| Finance lease obligations | 101 | 152 |
| Total debt | $57,001 | $58,102 |"""

STORES = """Stores
|  | 2031 | 2030 |
|---|---|---|
| Stores at the end of the year | 1,092 | 1,005 |"""


def test_a_notes_money_table_without_a_unit_is_read_in_its_documents_one_scale() -> None:
    first = _read("What was Kestrel's total debt at the end of FY2031?", DEBT_TABLE, CURRENT, INCOME)
    assert first.startswith("Total debt was $57,001 million")
    # a count is no money: its table keeps no scale
    stores = _read("How many stores did Kestrel have at the end of FY2031?", STORES, CURRENT, INCOME)
    assert "million" not in stores
    # a document whose tables state two scales gives none
    thousands = INCOME.replace("(In millions)", "(In thousands)")
    assert "million" not in _read("What was Kestrel's total debt at the end of FY2031?", DEBT_TABLE, CURRENT,
                                  thousands).split(" [")[0]


def test_what_a_percent_of_sales_measures_must_be_in_the_sentence() -> None:
    """"Wages expense as a percent of net sales" measures the wages: a sentence of comparable sales alone, however
    well it matches "percent" and "sales", is no answer."""
    text = ("Kestrel Outfitters, Inc. › For the Full Year of Fiscal 2031\nComparable sales increased 15.6% compared to "
            "an increase of 37.9% in fiscal 2030,\ndriven by a 10.8% increase in transactions and a 4.3% increase in "
            "average ticket.\nGross profit increased 20.1% to $4.0 billion compared to $3.4 billion in fiscal 2030. "
            "As\na percentage of net sales, gross profit increased to 39.6% compared to 39.0% in fiscal\n2030, "
            "primarily due to leverage of fixed costs.\nSG&A expenses increased 16.2% to $2.4 billion compared to "
            "$2.1 billion in fiscal\n2030. As a percentage of net sales, SG&A expenses decreased to 23.5% compared "
            "to\n23.9% in fiscal 2030, primarily due to lower marketing expenses.")
    first = _read("Did Kestrel's wages expense as a percent of net sales increase or decrease in FY2031?", text)
    assert not first.startswith("The documents say")


DEFERRED = """Note 4 — Revenue
(in thousands)
|  | December 31, / 2031 | December 31, / 2030 |
|---|---|---|
| Deferred revenue, current | $ 44,908 | $ 38,104 |
| Deferred revenue, non-current | 6,896 | 6,227 |"""


def test_a_lexicon_item_asked_whole_is_not_its_non_current_line() -> None:
    first = _read("What were Kestrel's deferred revenues at the end of FY2031?", DEFERRED)
    assert not first.startswith("Deferred revenue, non-current was")
    assert first.startswith("Deferred revenues were $51,804 thousand as of December 31, 2031 (computed: ")


def test_the_ending_balance_of_a_respectively_list_answers_at_the_end_of_the_year() -> None:
    text = ("Deferred revenues\nThe opening balance of deferred revenues as of January 1, 2031 and the ending "
            "balance as of December 31, 2031, were $1.6 billion and $1.4 billion, respectively, including our "
            "current and non-current balances.")
    first = _read("What were Kestrel's deferred revenues at the end of FY2031?", text)
    assert first.startswith("The documents say $1.4 billion")


SHEET = """KESTREL OUTFITTERS, INC.
CONSOLIDATED BALANCE SHEETS
(In millions)
|  | May 31, / 2031 | May 31, / 2030 |
|---|---|---|
| Current liabilities: |  |  |
| Accounts payable | 2,279 | 2,048 |
| Current portion of operating lease liabilities | 410 | 391 |
| Total current liabilities | 6,040 | 5,474 |
| Long-term debt | 3,468 | 3,471 |
| Operating lease liabilities | 2,913 | 2,780 |
| Deferred income taxes and other liabilities | 3,216 | 1,907 |"""

LEASE_NOTE = """KESTREL OUTFITTERS, INC. › Note 9 — Leases
The following table presents supplemental balance sheet information (in millions):
|  | Location of lease balances | December 31, / 2031 | December 31, / 2030 |
|---|---|---|---|
| Operating lease right-of-use assets | Other assets | $842 | $741 |
| Operating lease liabilities - current | Other current liabilities | $111 | $94 |
| Operating lease liabilities - noncurrent | Other liabilities | $795 | $691 |"""


def test_a_liability_the_sheet_prints_as_its_current_portion_and_a_plain_line_below_is_their_sum() -> None:
    """"Current portion of operating lease liabilities" above "Total current liabilities", "Operating lease
    liabilities" below it: the plain line is the non-current part; asked the whole ("total", singular or plural),
    the two are added."""
    first = _read("What was Kestrel's total operating lease liability at May 31, 2031?", SHEET)
    assert "3,323 million" in first and "410" in first and "2,913" in first
    assert match_terms("operating lease liability") == match_terms("Operating lease liabilities")


def test_total_asked_of_a_current_and_noncurrent_pair_is_their_sum() -> None:
    total = _read("What were Kestrel's total operating lease liabilities at the end of 2031?", LEASE_NOTE)
    assert "$906 million" in total and "$111 million" in total and "$795 million" in total


SECTIONED = """KESTREL OUTFITTERS, INC.
CONSOLIDATED BALANCE SHEETS
(In millions)
|  | December 2, 2031 | December 3, 2030 |
|---|---|---|
| Current liabilities: |  |  |
| Trade payables | $379 | $312 |
| Debt | 500 | — |
| Deferred revenue | 5,297 | 4,733 |
| Total current liabilities | 8,128 | 6,932 |
| Long-term liabilities: |  |  |
| Debt | 3,629 | 4,123 |
| Deferred revenue | 117 | 145 |
| Total liabilities | 13,114 | 12,444 |"""

RECOGNISED = ("During the year ended December 2, 2031, approximately $4.72 billion of revenue was recognized that was "
              "included in the balance of deferred revenue as of December 3, 2030.")


def test_a_part_the_section_heading_says_is_the_part_asked_and_both_parts_are_the_whole() -> None:
    """"Current liabilities: Deferred revenue" is the current deferred revenue, however the question says the part
    ("(current)", "short-term", "non-current", "long-term"); asked the whole, the two lines are added, each named
    with its heading; a line printed under one heading only is the item itself."""
    assert _read("What is Kestrel's FY2031 deferred revenue (current)?", SECTIONED, RECOGNISED).startswith(
        "Deferred revenue (current) was $5,297 million")
    assert _read("What is Kestrel's non-current deferred revenue as of FY2031?", SECTIONED, RECOGNISED).startswith(
        "Long-term liabilities deferred revenue was $117 million")
    assert "$500 million" in _read("What was Kestrel's short-term debt as of FY2031?", SECTIONED)
    assert "$3,629 million" in _read("What was Kestrel's long-term debt as of FY2031?", SECTIONED)
    whole = _read("What is Kestrel's FY2031 deferred revenue?", SECTIONED, RECOGNISED)
    assert whole.startswith("Deferred revenue was $5,414 million as of December 2, 2031 (computed: Deferred revenue "
                            "(Current liabilities) $5,297 million + Deferred revenue (Long-term liabilities) "
                            "$117 million")
    assert _read("What were Kestrel's FY2031 trade payables?", SECTIONED).startswith("Trade payables were $379 million")


def test_a_sentence_that_shares_only_the_word_liability_is_not_about_the_item() -> None:
    said = ("As of January 31, 2031, the indemnification liability recorded was $0.7 billion and included in deferred "
            "income taxes and other in the Company's Consolidated Balance Sheet.")
    first = _read("What were Kestrel's operating lease liabilities at the end of fiscal 2031?", said)
    assert not first.startswith("The documents say")


def test_whether_debt_rose_between_two_dates_is_each_dates_debt_lines_added() -> None:
    """"Has Kestrel increased its debt on balance sheet between 2031 and the 2030 fiscal period?": 3,810 (6 + 336 +
    3,468) against 3,840 (44 + 325 + 3,471) — no, it fell $30 million (before: the focus kept "balance sheet …
    fiscal period" and the answer was a sentence, not sure)."""
    first = _read("Has Kestrel increased its debt on balance sheet between 2031 and the 2030 fiscal period?",
                  CURRENT, LONG_TERM, page=57)
    assert first.startswith("No — total debt fell $30 million (-0.8%): $3,810 million as of May 31, 2031 vs $3,840 "
                            "million as of May 31, 2030 (computed: "), first
    assert "Notes payable $325 million" in first and "[S1]" in first and "[S2]" in first


EQUITY_STATEMENT = """KESTREL OUTFITTERS, INC.
Consolidated Statements of Total Equity
In Millions, Except per Share Data
|  | Fiscal Year / 2031 | Fiscal Year / 2030 | Fiscal Year / 2029 |
|---|---|---|---|
| Net earnings attributable to Kestrel | 2,707.3 | 2,339.8 | 2,181.2 |
| Cash dividends declared ($2.04, $2.02, and $1.96 per share) | (1,244.5) | (1,246.4) | (1,195.8) |"""


def test_a_per_share_figure_said_in_the_rows_label_is_the_asked_years_of_them() -> None:
    """The row prints the dividends' amounts and says the per-share figures in its label, one per year: asked per
    share, the asked year's figure of the label, not the amount (before: "$(1,244.5)")."""
    first = _read("What was the dividend per share declared by Kestrel in fiscal 2030?", EQUITY_STATEMENT)
    assert first.startswith("Cash dividends declared were $2.02 per share"), first
    assert "1,246.4" not in first.split("(the row")[0]
    amount = _read("How much were Kestrel's cash dividends declared in fiscal 2030?", EQUITY_STATEMENT)
    assert "1,246.4" in amount and "$2.02 per share" not in amount, amount
