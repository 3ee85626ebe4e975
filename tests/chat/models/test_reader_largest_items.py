"""The largest (or smallest) line of a balance sheet: "What is Acme's largest liability?", "… biggest current
asset …" — the lines of the asked part compared in the period asked, totals and contra lines left out, a line
printed in both parts named with its part, and the statement's page read when a search hit holds only a piece of
it. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.largest_items import asked_item, pages_to_read
from chat.models.reader.queries import search_queries

LIABILITIES = """KESTREL INC. › Consolidated Balance Sheets
(In millions)
| | December 2, 2031 | December 3, 2030 |
|---|---|---|
| Current liabilities: | | |
| Trade payables | $379 | $312 |
| Accrued expenses | 1,790 | 1,736 |
| Debt | 500 | — |
| Deferred revenue | 5,297 | 4,733 |
| Total current liabilities | 8,128 | 6,781 |
| Long-term liabilities: | | |
| Debt | 3,629 | 4,123 |
| Deferred revenue | 117 | 145 |
| Other liabilities | 293 | 257 |
| Total liabilities | 12,167 | 11,306 |
| Stockholders' equity: | | |
| Retained earnings | 33,346 | 30,000 |"""

ASSETS = """KESTREL INC. › Consolidated Balance Sheets
(In millions)
| | December 2, 2031 | December 3, 2030 |
|---|---|---|
| Current assets: | | |
| Cash and cash equivalents | $4,236 | $3,844 |
| Trade receivables | 2,065 | 1,878 |
| Total current assets | 6,301 | 5,722 |
| Property and equipment, gross | 4,100 | 3,900 |
| Less: accumulated depreciation | (2,192) | (2,000) |
| Goodwill | 12,787 | 12,668 |
| Total assets | 25,000 | 24,290 |"""

#: a subsidiary's summary: no classified balance sheet (no total of the liabilities)
SUMMARY = """Financial Position The following table presents selected financial data for Kestrel Capital:
| | 2031 | 2030 |
|---|---|---|
| Total assets | $1,954 | $2,182 |
| Other liabilities, primarily income taxes | $239 | $347 |
| Debt, including intercompany loans | 1,425 | 1,525 |
| Equity | 290 | 310 |
| Total liabilities and equity | $1,954 | $2,182 |"""

#: a chunk that begins at the current part's total: its lines are on the chunk before
CUT = """KESTREL INC. › Consolidated Balance Sheets
| | December 2, 2031 | December 3, 2030 |
|---|---|---|
| Total current liabilities | 8,128 | 6,781 |
| Long-term debt | 3,629 | 4,123 |
| Other liabilities | 293 | 257 |
| Total liabilities | 12,167 | 11,306 |"""


def _p(ref: str, text: str, page: int = 53) -> Passage:
    return Passage(ref, text, "doc-k", "KESTREL_2031_10K.pdf", page, company="Kestrel Inc.")


def test_the_question_is_read() -> None:
    asked = asked_item("What is Kestrel's largest liability as of FY2031?")
    assert asked is not None and (asked.kind, asked.part, asked.low) == ("liability", "", False)
    current = asked_item("Which is Kestrel's biggest non-current liability in 2031?")
    assert current is not None and (current.kind, current.part) == ("liability", "noncurrent")
    assert asked_item("What was Kestrel's smallest current asset?") is not None
    assert asked_item("What were Kestrel's total liabilities in 2031?") is None


def test_the_largest_liability_named_with_its_part() -> None:
    answer = read("What is Kestrel's largest liability as of FY2031?", [_p("S1", LIABILITIES)])
    head = answer.text.splitlines()[0]
    assert head.startswith("Deferred revenue (current liabilities) was the largest liability on the balance sheet: "
                           "$5,297 million as of December 2, 2031 [S1]"), head
    assert "7 liability lines" in head and "Debt (long-term liabilities) $3,629 million" in head, head
    assert any("| Deferred revenue | 5,297 |" in text for _, text in answer.quotes)


def test_the_current_part_and_the_earlier_year() -> None:
    answer = read("What was Kestrel's largest current liability at December 3, 2030?", [_p("S1", LIABILITIES)])
    head = answer.text.splitlines()[0]
    assert head.startswith("Deferred revenue was the largest current liability on the balance sheet: $4,733 million "
                           "as of December 3, 2030"), head
    noncurrent = read("Which is Kestrel's biggest non-current liability in 2031?", [_p("S1", LIABILITIES)])
    assert noncurrent.text.startswith("Debt was the largest non-current liability"), noncurrent.text


def test_assets_without_totals_or_contra_lines() -> None:
    answer = read("What was Kestrel's largest asset at the end of 2031?", [_p("S1", ASSETS)])
    assert answer.text.startswith("Goodwill was the largest asset on the balance sheet: $12,787 million"), answer.text
    smallest = read("What was Kestrel's smallest asset at the end of 2031?", [_p("S1", ASSETS)])
    assert smallest.text.startswith("Trade receivables was the smallest asset"), smallest.text  # not the (2,192)


def test_a_summary_or_a_cut_chunk_is_not_the_statement_and_its_page_is_read() -> None:
    question = "What is the largest liability on Kestrel's balance sheet in 2031?"
    summary = read(question, [_p("S1", SUMMARY, page=42)])
    assert "was the largest liability" not in summary.text
    cut = read(question, [_p("S1", CUT)])
    assert "was the largest liability" not in cut.text  # the current lines are on another chunk
    assert pages_to_read(question, [_p("S1", CUT)]) == [("doc-k", 53)]
    assert pages_to_read(question, [_p("S1", CUT), _p("P1", LIABILITIES)]) == []
    assert pages_to_read(question, [_p("S1", SUMMARY, page=42)]) == []  # no balance sheet's title on it


def test_another_companys_balance_sheet_is_not_read() -> None:
    other = Passage("S1", LIABILITIES.replace("KESTREL INC.", "OSPREY CORP."), "doc-o", "OSPREY_2031_10K.pdf", 40,
                    company="Osprey Corp.")
    answer = read("What is Kestrel's largest liability as of FY2031?", [other, _p("S2", LIABILITIES)])
    assert "[S2]" in answer.text.splitlines()[0] and "[S1]" not in answer.text.splitlines()[0]


def test_the_balance_sheet_is_searched_for() -> None:
    queries = search_queries("What is Kestrel's largest liability as of FY2031?")
    assert any("total current liabilities" in q and "Kestrel" in q for q in queries), queries


def test_a_sentence_that_ranks_nothing_is_no_sure_answer_of_the_largest_line() -> None:
    """No balance sheet among the results: "… the maturity of the lease liability … was as follows:" holds the word
    "liability" and the year, and ranks nothing — shown as the closest evidence, not stated as the answer."""
    said = ("KESTREL INC. › Leases\nAs of December 2, 2031, the maturity of the lease liability under operating leases "
            "was as follows:")
    answer = read("What is Kestrel's largest liability as of FY2031?",
                  [Passage("S1", said, "doc-k", "KESTREL_2031_10K.pdf", 80, company="Kestrel Inc.")])
    assert answer.declined or answer.why == "unsure"
