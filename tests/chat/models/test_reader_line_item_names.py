"""Line items under the names statements print them by (``lexicon``, ``line_items``) and the periods a sentence
states (``periods.agreement``): made-up statements and questions (none from an evaluation set)."""


from __future__ import annotations

import pytest

from chat.models.reader import Passage, read
from chat.models.reader.periods import agreement, find_periods
from chat.models.reader.text import match_terms


@pytest.mark.parametrize(("asked", "label"), [
    ("net loss", "Net income (loss)"),
    ("net income", "Net (loss) income"),
    ("net loss", "Net earnings (loss)"),
    ("operating loss", "Operating income (loss)"),
    ("provision for taxes on income", "Provision/(benefit) for taxes on income"),
    ("income tax expense", "Provision/(benefit) for taxes on income"),
    ("operating cash flow", "Net cash provided/(used) by operating activities"),
    ("operating cash flow", "Net cash used in operating activities"),
    ("cash from operations", "Cash provided by operations"),
    # the other sign's word printed aside is the same line
    ("cash from operations", "Cash provided (used) by operations"),
    ("operating cash flow", "Net cash provided by (used in) operating activities"),
    ("investing cash flow", "Cash provided (used) by investing activities"),
    ("financing cash flow", "Net cash (used in) provided by financing activities"),
    ("financing cash flow", "Cash used by financing activities"),
    ("capital expenditure", "Property, plant and equipment additions"),
    # the US GAAP taxonomy's caption
    ("capex", "Payments to acquire property, plant and equipment"),
    ("capital expenditure", "Acquisition of property and equipment"),
    ("depreciation and amortization expense", "Depreciation and amortization"),
    ("D&A expense", "Depreciation and amortization"),
    ("R&D expense", "Research and development expenses"),
    ("research and development expense", "Research and development"),
    ("research and development expense", "Research, development and related expenses"),
    ("R&D expense", "Product development"),
    ("research and development expense", "Technology and development"),
    ("depreciation and amortization", "Depreciation, depletion and amortization"),
    ("D&A", "Amortization and depreciation"),
    # one line naming both words apart is the item
    ("depreciation and amortization expense", "Depreciation of property and equipment, including internal-use "
                                              "software, and other amortization, including capitalized content costs"),
])
def test_a_statement_line_under_its_printed_name_is_the_item(asked: str, label: str) -> None:
    assert match_terms(asked) <= match_terms(label), (match_terms(asked), match_terms(label))


OPERATIONS = """ORRERY RESORTS › CONSOLIDATED STATEMENTS OF OPERATIONS
(In thousands)
| | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Net income (loss) attributable to Orrery Resorts | $(1,032,724) | $2,049,146 |"""

COMPREHENSIVE = """ORRERY RESORTS › CONSOLIDATED STATEMENTS OF COMPREHENSIVE INCOME (LOSS)
(In thousands)
| | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Comprehensive income (loss) attributable to Orrery Resorts | $(1,061,541) | $2,045,298 |"""


def test_a_net_loss_is_the_net_income_line_not_the_comprehensive_loss() -> None:
    """"Net loss attributable to …": the statement's "Net income (loss) attributable to …", not the comprehensive
    loss beside it (the net loss and the net income are one line item now: ``test_a_statement_line_…``)."""
    first = read("What was Orrery Resorts' net loss attributable to Orrery Resorts in 2031?",
                 [Passage("S1", COMPREHENSIVE, "o", "ORRERY_2031_10K.pdf", 66),
                  Passage("S2", OPERATIONS, "o", "ORRERY_2031_10K.pdf", 65)]).text.splitlines()[0]
    assert "1,032,724" in first, first


def test_a_fiscal_year_is_not_the_one_before_written_the_same_way() -> None:
    """"fiscal 2019" is no "fiscal 2020"; an analyst's "FY2023" may still be the company's "fiscal 2022" (a year
    ending in January), and a date a year off may be a fiscal year's end."""
    asked = find_periods("in fiscal 2020")[0]
    assert agreement(asked, find_periods("for fiscal 2019")[0]) == 0
    assert agreement(find_periods("FY2023")[0], find_periods("fiscal 2022")[0]) > 0
    assert agreement(asked, find_periods("January 31, 2021")[0]) > 0


SEGMENTS = ("ORRERY STORES › Net Sales\nAdditionally, for fiscal 2030, the increase in net sales was partially offset "
            "by a $4.5 billion decrease in net sales due to closures in the Club segment during fiscal 2029, and $0.7 "
            "billion of negative impact from currency in the International segment.\nOrrery International had net "
            "sales of $120.1 billion for fiscal 2031, representing 23% of our consolidated net sales.")


def test_a_sentence_of_other_years_does_not_answer_for_the_asked_one() -> None:
    """The sentence about fiscal 2030 and 2029 names the segment and net sales as well as the one about fiscal
    2031: the asked year's answers (before: "fiscal 2030" counted as a year off a fiscal 2031, and "$0.7 billion")."""
    first = read("What were Orrery's net sales for the Orrery International segment in fiscal 2031?",
                 [Passage("S1", SEGMENTS, "o", "ORRERY_2031_10K.pdf", 36)]).text.splitlines()[0]
    assert "$120.1 billion" in first, first


def test_an_earlier_years_report_does_not_answer_for_a_later_year() -> None:
    """The FY2028 annual report prints "Dividends declared per common share" with no year beside it; asked for
    fiscal 2031, it is not that year's (before: "$0.62", stated). An outlook question may still read it."""
    old = Passage("S1", "ORRERY TOOLS, INC. › Dividends\nDividends declared per common share $ 0.78 $ 0.70 $ 0.62",
                  "o28", "ORRERY_2028_10K.pdf", 46, period_end="2028-05-31")
    # the FY2031 report is in the project too, but search returned none of its dividends
    new = Passage("S2", "ORRERY TOOLS, INC. › Preferred stock\nA cumulative dividend of $0.10 per share is payable "
                        "annually on May 31 on the redeemable preferred stock.", "o31", "ORRERY_2031_10K.pdf", 78,
                  period_end="2031-05-31")
    answer = read("What dividends per share did Orrery declare in fiscal 2031?", [old, new])
    first = answer.text.split("\n")[0]  # (the old row may be shown as the closest evidence, never stated)
    assert "0.62" not in first and ("I'm not sure" in first or answer.declined), answer.text
    outlook = read("What dividends per share does Orrery expect to declare in fiscal 2031?", [old, new])
    assert not outlook.text.startswith("The documents don't say"), outlook.text


CASH_APP = ["ORRERY, INC.\nSprocket App Results\nThe following tables provide a summary of the revenue and gross "
            "profit for our Sprocket App segment for the year ended December 31, 2031 and 2030 (in\nthousands):",
            "| | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |\n|---|---|---|\n"
            "| Net revenue | $5,968,386 | $1,105,599 |\n| Gross profit | $1,225,578 | $457,668 |"]


def test_a_segments_results_table_cut_from_its_caption_is_that_segments_in_the_captions_unit() -> None:
    """The chunker cut the caption ("… for our Sprocket App segment … (in thousands):") from the grid: the grid is
    the segment's ("Sprocket App Results" heads it) and in thousands (before: a sentence's "48%" answered, then
    the cell without its unit)."""
    share = ("ORRERY, INC. › Overview\nDuring the year ended December 31, 2031, we saw a significant increase in "
             "total Sprocket App revenue, primarily from bitcoin revenue which contributed 48% of total net revenue.")
    passages = [Passage("S1", share, "o", "ORRERY_2031_10K.pdf", 17),
                Passage("S2", CASH_APP[0], "o", "ORRERY_2031_10K.pdf", 66),
                Passage("S3", "ORRERY, INC. › Sprocket App Results\n" + CASH_APP[1], "o", "ORRERY_2031_10K.pdf", 66)]
    first = read("What was Orrery's Sprocket App gross profit in 2031?", passages).text.splitlines()[0]
    assert "$1,225,578 thousand" in first, first


@pytest.mark.parametrize("item", ["marketing expenses", "interest expense", "general and administrative"])
def test_operating_expense_lines_are_searched_for_on_the_income_statement(item: str) -> None:
    """"What were Acme's marketing expenses?": the statement of operations prints it ("Marketing") — no results
    page of it means a search for that statement (before: none, and a note's sentence answered)."""
    from chat.models.reader.statement_pages import statement_followups

    queries = statement_followups(f"What were Orrery's {item} in 2031?", [])
    assert any("statements of operations" in q for q in queries), queries


def test_an_item_in_the_plural_is_still_an_amount_asked() -> None:
    """"research, development and related expenses" asks an amount, and one line item — "and related" gathers
    the rest, it adds no second item (before: "other", and the sentence that states "$1.821 billion" was quoted
    without it)."""
    passage = Passage("S1", "ORRERY COMPANY › Research and Development\nResearch, development and related expenses "
                            "totaled $1.821 billion in 2031, $1.870 billion in 2030 and $1.764 billion in 2029.",
                      "o", "ORRERY_2031_10K.pdf", 20)
    first = read("What was Orrery's research, development and related expenses in 2031?", [passage]).text
    assert first.startswith("The documents say $1.821 billion"), first


def test_an_amount_written_after_another_line_item_is_not_the_items() -> None:
    """Net sales asked: "Net Income of $340.8 Million … record sales" states the net income's amount, the sales
    only in passing — the grid's net sales answer (before: "$340.8 Million", stated as the documents' answer)."""
    banner = ("Orrery Beauty Announces Fourth Quarter Fiscal 2031 Results › Net Income of $340.8 Million or $6.68 Per "
              "Diluted Share “Our strong fourth quarter results punctuate an exceptional year with record sales,” "
              "said the chief executive.")
    grid = ("Orrery Beauty, Inc.\nConsolidated Statements of Income\n(In thousands)\n| | 13 Weeks Ended / December "
            "31, 2031 | 13 Weeks Ended / December 31, 2030 |\n|---|---|---|\n| Net sales | $ 3,226,773 | $ 2,729,388 |")
    first = read("What were Orrery Beauty's net sales in the fourth quarter of 2031?",
                 [Passage("S1", banner, "o", "ORRERY_2031Q4_EARNINGS.pdf", 1),
                  Passage("S2", grid, "o", "ORRERY_2031Q4_EARNINGS.pdf", 6)]).text.splitlines()[0]
    assert "3,226,773" in first, first


FLOWS_BARE = """VESPER FOODS INC. › CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
| | Fiscal Year Ended January 31, / 2032 | Fiscal Year Ended January 31, / 2031 |
|---|---|---|
| Consolidated net income | 7,100 | 6,900 |
| Depreciation and amortization | 10,900 | 10,600 |"""

SEGMENT_NOTE = """VESPER FOODS INC. › Note 14 — Segments
(In millions)
| | Fiscal Year Ended January 31, / 2032 | Fiscal Year Ended January 31, / 2031 |
|---|---|---|
| Accumulated depreciation and amortization expense | 94,500 | 87,100 |"""


def test_an_expense_asked_with_its_word_is_the_statements_bare_line() -> None:
    """"… depreciation and amortization expense …": the cash flow statement's "Depreciation and amortization"
    (before: "expense" left over, the row covered the item partly and the answer was unsure)."""
    answer = read("What is Vesper's FY2032 depreciation and amortization expense (in USD millions)? Use the cash "
                  "flow statement.", [Passage("S1", SEGMENT_NOTE, "v", "VESPER_10K.pdf", 80),
                                      Passage("S2", FLOWS_BARE, "v", "VESPER_10K.pdf", 56)])
    first = answer.text.splitlines()[0]
    assert first.startswith("Depreciation and amortization was 10,900 million"), first


NOTE_SENTENCE = ("ORRERY MEDIA › Note 1 — Research and Development\nResearch and development expenses were "
                 "$981.3 million, $768.3 million and $570.0 million for the years ended December 31, 2031, 2030 "
                 "and 2029, respectively.")


def test_the_amount_in_the_asked_years_place_of_a_respectively_list() -> None:
    """"$a, $b and $c for 2031, 2030 and 2029, respectively": 2030 asked is $b (before: the first amount, $a)."""
    note = [Passage("S1", NOTE_SENTENCE, "o", "ORRERY_2031_10K.pdf", 49)]
    for asked, stated in (("in 2030", "$768.3 million"), ("in FY2029", "$570.0 million")):
        first = read(f"What were Orrery's research and development expenses {asked}?", note).text.splitlines()[0]
        assert first.split(":")[0].endswith(stated), first  # the amount stated, before the quote


@pytest.mark.parametrize("label", ["Depreciation", "Amortization of acquired intangibles",
                                   "Accumulated amortization"])
def test_one_of_the_two_words_is_not_depreciation_and_amortization(label: str) -> None:
    assert not match_terms("depreciation and amortization") <= match_terms(label)


def test_capex_printed_in_brackets_is_stated_as_its_size() -> None:
    """"Additions to property, plant and equipment (695)": $695 million spent, said with the brackets noted
    (before: "$(695) million (-$0.695 billion)")."""
    table = """SPINDLE CORP
CONSOLIDATED STATEMENTS OF CASH FLOWS
(Dollars in millions)
| | YEAR ENDED MAY 31, / 2031 | YEAR ENDED MAY 31, / 2030 |
|---|---|---|
| Net cash provided by operations | 6,657 | 2,485 |
| Additions to property, plant and equipment | (695) | (1,086) |"""
    answer = read("What is the FY2031 capital expenditure amount (in USD billions) for Spindle?",
                  [Passage("S1", table, "s", "SPINDLE_2031_10K.pdf", 60)])
    first = answer.text.splitlines()[0]
    assert first.startswith("Additions to property, plant and equipment were $695 million ($0.695 billion)"), first
    assert "(printed in brackets)" in first


def test_a_recovery_printed_in_brackets_keeps_its_sign() -> None:
    """"Restructuring, impairment, and other exit (recoveries) costs (26.5)": a net recovery, said with its brackets
    (before: "$26.5 million … (printed in brackets)", as if spent)."""
    table = """SPINDLE CORP
CONSOLIDATED STATEMENTS OF EARNINGS
(In millions)
| | Fiscal Year / 2031 | Fiscal Year / 2030 |
|---|---|---|
| Net sales | $ 18,992.8 | $ 18,127.0 |
| Restructuring, impairment, and other exit (recoveries) costs | (26.5) | 170.4 |"""
    answer = read("What is the quantity of restructuring costs directly outlined in Spindle's income statements for "
                  "FY2031?", [Passage("S1", table, "s", "SPINDLE_2031_10K.pdf", 50)])
    first = answer.text.splitlines()[0]
    assert first.startswith("Restructuring, impairment, and other exit (recoveries) costs was $(26.5) million"), first
    assert "printed in brackets" not in first
