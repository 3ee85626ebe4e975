"""A retailer's "fiscal 2022" may be the year that ended in January 2023 (named by the year it began in) or the one
that ended in January 2022 (named by the year it ended in): the document's own habit decides for a question in the
company's words; an analyst's "FY2023" is the year that ended in 2023. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.fiscal_names import by_start, names_by_start
from chat.models.reader.periods import find_periods
from chat.models.reader.question import analyze
from chat.models.reader.tables import find_tables

RESULTS = """Larkspur Beauty Announces Fourth Quarter Fiscal 2022 Results
For the Fourth Quarter of Fiscal 2022 net sales increased 18.2% compared to the fourth quarter of fiscal 2021.
For fiscal 2022, comparable sales increased 15.6% compared to fiscal 2021. Fiscal 2022 was a record year.
(In thousands, except per share data)
|  | 13 Weeks Ended / January 28, 2023 | 13 Weeks Ended / January 29, 2022 | 52 Weeks Ended / January 28, 2023 | \
52 Weeks Ended / January 29, 2022 |
|---|---|---|---|---|
| Net sales | $3,226,773 | $2,729,388 | $10,208,580 | $8,630,889 |
| Diluted earnings per share | $6.68 | $5.41 | $24.01 | $17.98 |"""

#: the same columns in a company that names its years by the year they end in
END_NAMED = RESULTS.replace("Fiscal 2022", "Fiscal 2023").replace("fiscal 2022", "fiscal 2023") \
    .replace("fiscal 2021", "fiscal 2022").replace("Larkspur Beauty", "Larkspur Beauty")


def _first(question: str, text: str) -> str:
    passages = [Passage("S1", text, "doc-1", "larkspur-q4.pdf", 1, company="Larkspur Beauty, Inc.")]
    return read(question, passages).text.split("\n")[0]


def test_a_document_that_names_its_years_by_their_start() -> None:
    ends = [p for t in find_tables(RESULTS) for c in t.columns for p in c.periods]
    assert names_by_start([RESULTS], ends)
    assert not names_by_start([END_NAMED], ends)
    assert not names_by_start([RESULTS], [p for p in find_periods("December 31, 2022")])


def test_the_companys_fiscal_year_is_read_as_it_names_it() -> None:
    first = _first("What were Larkspur Beauty's net sales in the fourth quarter of fiscal 2022?", RESULTS)
    assert first.startswith("Net sales were $3,226,773 thousand in the 13 weeks ended January 28, 2023")
    eps = _first("What was Larkspur Beauty's diluted EPS for fiscal 2022?", RESULTS)
    assert "$24.01" in eps and "January 28, 2023" in eps


def test_a_company_that_names_its_years_by_their_end_keeps_them() -> None:
    first = _first("What were Larkspur Beauty's net sales in the fourth quarter of fiscal 2022?", END_NAMED)
    assert first.startswith("Net sales were $2,729,388 thousand in the 13 weeks ended January 29, 2022")


def test_an_analysts_fy_is_the_year_it_ended_in() -> None:
    first = _first("What were Larkspur Beauty's net sales in FY2023?", RESULTS)
    assert "$10,208,580" in first and "January 28, 2023" in first
    q = analyze("What were Larkspur Beauty's net sales in FY2023?")
    assert by_start(q) is q
    # a quarter that ends before the January year-end is in the year it is named by
    second = analyze("What were Larkspur Beauty's net sales in the second quarter of fiscal 2022?")
    assert by_start(second) is second


CASH_FLOWS = """Consolidated Statements of Cash Flows
KESTREL FOODS, INC. AND SUBSIDIARIES
(In Millions)
|  | Fiscal Year / 2022 | Fiscal Year / 2021 | Fiscal Year / 2020 |
|---|---|---|---|
| Cash and cash equivalents - beginning of year | 1,505.2 | 1,677.8 | 450.0 |
| Cash and cash equivalents - end of year | $569.4 | $1,505.2 | $1,677.8 |"""


def test_a_fiscal_year_whose_header_levels_split_its_name_is_that_fiscal_year() -> None:
    """"Fiscal Year / 2022" is the company's fiscal 2022: "fiscal 2023" asked in the company's words is not
    answered from it (before: the 2022 column read as a calendar year, a fiscal 2023's neighbour — $569.4 million,
    sure); "fiscal 2022" still is."""
    (table,) = find_tables(CASH_FLOWS)
    assert [p.fiscal for c in table.columns for p in c.periods] == [True, True, True]
    passages = [Passage("S1", CASH_FLOWS, "doc-1", "KESTREL_2022_10K.pdf", 49, company="Kestrel Foods, Inc.",
                        period_end="2022-05-29")]
    later = read("How much cash and cash equivalents did Kestrel Foods have at the end of fiscal 2023?", passages)
    assert later.declined
    asked = read("How much cash and cash equivalents did Kestrel Foods have at the end of fiscal 2022?", passages)
    assert "$569.4 million" in asked.text.split("\n")[0]
    assert not asked.declined


#: an end-named retailer's pages where the prior year happens to be mentioned more often than the current one
END_NAMED_TIED = """Harrier Electronics, Inc.
Consolidated Statements of Earnings
|  | Fiscal Years Ended / January 28, 2023 | Fiscal Years Ended / January 29, 2022 |
|---|---|---|
| Revenue | $46,298 | $51,761 |
All of our former stores in Mexico were closed as of the end of the first quarter of fiscal 2022.
In fiscal 2022, we acquired all of the outstanding shares of a care-at-home platform.
A 10% change in deferred revenue as of January 28, 2023, would have affected net earnings by approximately $40
million in fiscal 2023."""


def test_a_sentence_that_ties_a_fiscal_year_to_its_end_date_decides_how_the_years_are_named() -> None:
    """"as of January 28, 2023 … in fiscal 2023" names the year by its end, though the pages say "fiscal 2022" more
    often (before: read as named by its start, and "fiscal 2023" asked found no column at all); "fiscal 2022 …
    ended January 28, 2023" names it by its start."""
    ends = [p for t in find_tables(END_NAMED_TIED) for c in t.columns for p in c.periods]
    assert not names_by_start([END_NAMED_TIED], ends)
    first = _first("What was Harrier Electronics' revenue in fiscal 2023?", END_NAMED_TIED)
    assert first.startswith("Revenue was $46,298")
    start_named = "Fiscal 2023 began strongly. Fiscal 2023 was a record. For fiscal 2022, the 52 weeks ended " \
                  "January 28, 2023, net sales increased 18.2%."
    assert names_by_start([start_named], ends)
