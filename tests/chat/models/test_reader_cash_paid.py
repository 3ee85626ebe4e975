"""What was paid for income taxes or interest: the supplemental cash flow line that says so ("Cash income tax
payments, net of refunds", "Cash paid during the year for: / Income taxes", "Interest paid"), or a sentence that
says it ("Our income tax payments, net of refunds, were $1.4 billion …") — never the expense ("Provision for income
taxes"), which at most is the closest evidence. A statement's supplemental block printed apart from its grid reads
in the grid's years. The search asks for the supplemental disclosure. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.queries import search_queries

INCOME = """KESTREL INC. › Consolidated Statement of Income
(Millions)
| (Millions) | 2031 | 2030 | 2029 |
|---|---|---|---|
| Income before income taxes | $ 7,000 | $ 7,548 | $ 7,053 |
| Provision for income taxes | 1,637 | 2,679 | 1,995 |
| Net income | 5,363 | 4,869 | 5,058 |"""

NOTE = """KESTREL INC. › NOTE 9. Supplemental Cash Flow Information
(Millions)
| (Millions) | 2031 | 2030 | 2029 |
|---|---|---|---|
| Cash income tax payments, net of refunds | $ 1,560 | $ 1,604 | $ 1,888 |
| Cash interest payments | 328 | 214 | 194 |"""

SECTIONED = """KESTREL INC. › Consolidated Statements of Cash Flows
| (Dollars in millions) | YEAR ENDED DECEMBER 31, / 2031 | YEAR ENDED DECEMBER 31, / 2030 |
|---|---|---|
| Cash and equivalents, end of year | $ 9,889 | $ 8,348 |
| Cash paid during the year for: | | |
| Interest, net of capitalized interest | $ 293 | $ 140 |
| Income taxes | 1,177 | 1,028 |"""

SENTENCE = """KESTREL INC. › Note 10 – Income Taxes
The Company is routinely examined by tax authorities. Our federal and foreign income tax payments, net of refunds,
were $1.4 billion in both 2031 and 2030, and $940 million in 2029. We believe the reserves are adequate."""

STATEMENT = """KESTREL INC. › Consolidated Statements of Cash Flows
| (Amounts in millions) | Fiscal Years Ended December 31, / 2031 | Fiscal Years Ended December 31, / 2030 |
|---|---|---|
| Net cash provided by operating activities | 25,255 | 27,753 |
| Cash and cash equivalents at end of year | $ 9,515 | $ 7,756 |"""

SUPPLEMENT = """KESTREL INC. › Consolidated Statements of Cash Flows
Supplemental disclosure of cash flow information:
|  |  |  |
|---|---|---|
| Income taxes paid | $3,616 | $3,982 |
| Interest paid | 2,464 | 2,348 |"""


def _p(ref: str, text: str, page: int) -> Passage:
    return Passage(ref, text, "doc-2031", "KESTREL_2031_10K.pdf", page, company="Kestrel Inc.",
                   period_end="2031-12-31")


def test_the_payment_line_answers_not_the_expense() -> None:
    passages = [_p("S1", INCOME, 50), _p("S2", NOTE, 83)]
    for asked in ("How much did Kestrel pay in income taxes in 2031?",
                  "How much cash did Kestrel pay for income taxes in 2031?"):
        answer = read(asked, passages)
        head = answer.text.splitlines()[0]
        # before: "Provision for income taxes was $1,637 million", sure (or unsure with the provision)
        assert "$1,560 million" in head and answer.why == "sure", (asked, answer.why, head)
    interest = read("How much interest did Kestrel pay in 2031?", passages)
    assert "$328 million" in interest.text.splitlines()[0] and interest.why == "sure", interest.text  # before: unsure


def test_the_expense_alone_is_never_sure_for_what_was_paid() -> None:
    answer = read("How much did Kestrel pay in income taxes in 2031?", [_p("S1", INCOME, 50)])
    assert answer.why != "sure", answer.text  # before: "Provision for income taxes was $1,637 million", sure


def test_a_section_heading_that_says_paid() -> None:
    answer = read("How much did Kestrel pay in income taxes in 2031?", [_p("S1", SECTIONED, 62)])
    assert "$1,177 million" in answer.text.splitlines()[0] and answer.why == "sure", answer.text
    interest = read("How much interest did Kestrel pay in 2031?", [_p("S1", SECTIONED, 62)])
    assert "$293 million" in interest.text.splitlines()[0] and interest.why == "sure", interest.text


def test_a_sentence_that_says_the_payments() -> None:
    answer = read("How much did Kestrel pay in income taxes in 2031?", [_p("S1", INCOME, 66), _p("S2", SENTENCE, 90)])
    head = answer.text.splitlines()[0]
    assert "$1.4 billion" in head and answer.why == "sure", (answer.why, head)  # before: unsure, the expense


def test_a_supplemental_block_apart_from_its_grid_reads_in_its_years() -> None:
    answer = read("How much did Kestrel pay in income taxes in 2031?",
                  [_p("S1", STATEMENT, 56), _p("S2", SUPPLEMENT, 56)])
    head = answer.text.splitlines()[0]
    # before: the block's columns had no years — "the documents don't say" or unsure
    assert "$3,616 million" in head and "2031" in head and answer.why == "sure", (answer.why, head)
    other_page = read("How much did Kestrel pay in income taxes in 2031?",
                      [_p("S1", STATEMENT, 56), _p("S2", SUPPLEMENT, 57)])
    assert other_page.why != "sure", other_page.text  # another page's grid gives it no years


def test_the_search_asks_for_the_supplemental_disclosure() -> None:
    queries = search_queries("How much cash did Kestrel pay for income taxes in 2031?")
    assert any("supplemental cash flow information" in q for q in queries), queries
    assert not any("supplemental" in q for q in search_queries("How much did Kestrel pay in dividends in 2031?"))


RECLASSIFIED = """KESTREL INC. › Reclassifications out of Accumulated Other Comprehensive Income
| (Millions) | 2031 | 2030 2029 | Location |
|---|---|---|---|
| Net of tax | $(77) | $4 $70 | Cost of sales |
| NOTE 9. Supplemental Cash Flow Information |  |  |  |
| (Millions) |  | 2031 | 2030 2029 |"""

HEADERLESS = """KESTREL INC. › Reclassifications out of Accumulated Other Comprehensive Income
|  |  |  |  |
|---|---|---|---|
| Cash income tax payments, net of refunds | $1,560 | $1,604 | $1,888 |
| Cash interest payments | 328 | 214 | 194 |"""


def test_a_grid_whose_header_row_ended_the_chunk_before() -> None:
    passages = [_p("S1", INCOME, 50), _p("S2", RECLASSIFIED, 83), _p("S3", HEADERLESS, 83)]
    answer = read("How much cash did Kestrel pay for income taxes in 2030?", passages)
    head = answer.text.splitlines()[0]
    assert "$1,604 million" in head and "2030" in head and answer.why == "sure", (answer.why, head)
    alone = read("How much cash did Kestrel pay for income taxes in 2030?", [_p("S1", INCOME, 50),
                                                                             _p("S3", HEADERLESS, 83)])
    assert alone.why != "sure", alone.text  # no year for its columns: never sure


FINANCING = """KESTREL INC. › Consolidated Statements of Cash Flows
| (Amounts in millions) | Fiscal Years Ended December 31, / 2031 | Fiscal Years Ended December 31, / 2030 |
|---|---|---|
| Dividends paid | (6,048) | (6,102) |
| Dividends paid to noncontrolling interest | (555) | (431) |
| Net cash used in financing activities | (14,299) | (2,537) |"""


def test_a_payment_the_item_only_qualifies_is_not_the_item_paid() -> None:
    alone = read("How much interest did Kestrel pay in 2031?", [_p("S1", FINANCING, 55)])
    assert alone.why != "sure", alone.text  # "Dividends paid to noncontrolling interest" pays dividends
    both = read("How much interest did Kestrel pay in 2031?", [_p("S1", FINANCING, 55), _p("S2", SUPPLEMENT, 56),
                                                                _p("S3", STATEMENT, 56)])
    assert "$2,464 million" in both.text.splitlines()[0] and both.why == "sure", both.text
