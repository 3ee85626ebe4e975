"""An item's total and its parts: "total revenue" asked of a statement whose top line is plain "Revenues" (and
whose rows name the company: "Net income attributable to Heron Pharma Inc."); "total" as a verb in a sentence
("… payments total $3.3 billion") is no total of the item; "revenues" asked where "Net sales" is one part of a
"Total revenues" row. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.evidence import gather
from chat.models.reader.question import analyze

INCOME = """Consolidated Statements of Income
Heron Pharma Inc. and Subsidiary Companies
(MILLIONS, EXCEPT PER COMMON SHARE DATA)
| (MILLIONS, EXCEPT PER COMMON SHARE DATA) | Year Ended December 31, / 2021 | Year Ended December 31, / 2020 |
|---|---|---|
| Revenues | $81,288 | $41,651 |
| Costs and expenses: |  |  |
| Cost of sales | 30,821 | 8,484 |
| Total costs and expenses | 47,355 | 33,418 |
| Net income attributable to Heron Pharma Inc. common shareholders | $21,979 | $9,159 |"""

DEFERRED = """Note 2. Revenues
The deferred revenues associated with the advance payments related to the vaccine total $3.3 billion as of \
December 31, 2021 and $957 million as of December 31, 2020."""

RETAIL = """ORBIT STORES, INC. › Consolidated Statements of Income
(Amounts in millions, except per share data)
|  | Fiscal Years Ended January 31, / 2020 | Fiscal Years Ended January 31, / 2019 |
|---|---|---|
| Revenues: |  |  |
| Net sales | $519,926 | $510,329 |
| Membership and other income | 4,038 | 4,076 |
| Total revenues | 523,964 | 514,405 |
| Costs and expenses: |  |  |
| Cost of sales | 394,605 | 385,301 |"""

SUMMARY = """ORBIT STORES, INC. › Selected Financial Data
(Amounts in millions)
|  | Fiscal Years Ended January 31, / 2020 | Fiscal Years Ended January 31, / 2019 |
|---|---|---|
| Net sales | $519,926 | $510,329 |
| Total revenues | $523,964 | $514,405 |
| Operating income | 20,568 | 21,957 |"""


def test_total_revenue_is_the_statements_revenues_line_though_rows_name_the_company() -> None:
    passages = [Passage("S1", DEFERRED, "doc-1", "heron-10k.pdf", 110),
                Passage("S2", INCOME, "doc-1", "heron-10k.pdf", 57)]
    answer = read("What was Heron Pharma's total revenue in 2020 (in USD millions)?", passages).text
    first = answer.splitlines()[0]
    assert first.startswith("Revenues were $41,651 million in the year ended December 31, 2020 [S2]"), answer


def test_total_as_a_verb_is_no_total_of_the_item() -> None:
    q = analyze("What was Heron Pharma's total revenue in 2020 (in USD millions)?")

    def best(text: str) -> float:
        return max(ev.score for ev in gather(q, [Passage("S1", text, "doc-1", "heron-10k.pdf", 110)]))

    # "… payments total $3.3 billion" says how much the deferred revenues are: it is no more the total revenue
    # asked than the same sentence with "are"
    # (the same within what the word's rarity among the lines changes in the other terms' weights) — and since
    # "deferred revenues" is a liability of its own (``line_items``), neither is evidence of revenue at all
    from chat.models.reader.decline import DECLINE_BELOW

    verb, plain = best(DEFERRED), best(DEFERRED.replace(" total $3.3", " are $3.3"))
    assert verb <= 1.1 * plain or max(verb, plain) < DECLINE_BELOW, (verb, plain)


def test_revenues_asked_is_the_total_not_its_net_sales_part() -> None:
    for passages in ([Passage("S1", RETAIL, "doc-1", "orbit-10k.pdf", 51)],
                     [Passage("S1", SUMMARY, "doc-1", "orbit-10k.pdf", 36)]):
        answer = read("What were Orbit Stores' revenues in FY2020?", passages).text
        assert "523,964" in answer.splitlines()[0], answer
        # asked in the row's own words, it is the row
        net_sales = read("What were Orbit Stores' net sales in FY2020?", passages).text
        assert "519,926" in net_sales.splitlines()[0], net_sales
