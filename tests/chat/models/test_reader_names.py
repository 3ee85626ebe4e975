"""Which company a question names, and whether the passages name it (issue 12, negatives).

A remark in brackets after the name ("for Quillon (in USD billions)?") is not part of it; "&" joins one
company's name ("Harlow & Harlow", not two companies "Harlow" and "Harlow"); a name of several words counts as
mentioned only when its words stand together, not when its common words ("good", "buy") are scattered over
another company's passage. Made-up companies and filings; no evaluation set's question or wording.
"""

# ruff: noqa: E501  (the fixtures are table rows as ingest writes them, one line each)
from __future__ import annotations

import pytest

from chat.models.reader import Passage, analyze, read
from chat.models.reader.names import mentions

INCOME = """Consolidated Statements of Operations
Tarn Devices Inc.
| (in millions) | Year Ended December 31, / 2020 | Year Ended December 31, / 2019 |
|---|---|---|
| Total revenue | $ 8,410 | $ 7,925 |
| Net income | $ 1,204 | $ 1,077 |
"""

BALANCE = """Consolidated Balance Sheets
Quillon Inc.
| (in millions) | December 31, / 2020 | December 31, / 2019 |
|---|---|---|
| Total current assets | $ 7,761 | $ 4,300 |
| Total assets | $ 12,410 | $ 9,120 |
"""

#: prose of Tarn's filing that holds a director named Harlow, and the words "good" and "buy" far apart
PROSE = ("Our board of directors includes Mark Harlow, who chairs the audit committee. We believe our products "
         "are a good fit for enterprise customers, and we expect demand to remain strong through the coming "
         "years as customers modernise their fleets; customers who buy our service plans renew at high rates.")


def _tarn() -> list[Passage]:
    return [Passage("S1", INCOME, "t1", "TARN_2020_10K.pdf", 52), Passage("S2", PROSE, "t1", "TARN_2020_10K.pdf", 8)]


def test_a_remark_in_brackets_after_the_name_is_not_part_of_it() -> None:
    q = analyze("What is the year-end FY2020 total current assets for Quillon (in USD billions)? Base your answer "
                "on the balance sheet.")
    assert q.strong_names == ("Quillon",)
    assert q.focus == "total current assets"
    assert analyze("What were the total assets of Quillon (UK) in 2020?").strong_names[0] == "Quillon (UK)"


def test_the_company_named_before_a_bracketed_unit_is_answered_from_its_balance_sheet() -> None:
    a = read("What is the year-end FY2020 total current assets for Quillon (in USD billions)? Base your answer on "
             "the balance sheet.", [Passage("S1", BALANCE, "q1", "QUILLON_2020_10K.pdf", 85)])
    assert not a.declined
    assert "7,761" in a.text and "[S1]" in a.text


def test_an_ampersand_joins_one_company_name() -> None:
    assert analyze("What was Harlow & Harlow's FY2020 total revenue?").strong_names == ("Harlow & Harlow",)
    assert analyze("What were the FY2020 net sales of Wren & Moss?").strong_names == ("Wren & Moss",)
    assert analyze("What were the 2020 net sales of Apple and Amazon?").strong_names == ("Apple", "Amazon")


def test_a_company_whose_name_shares_a_word_with_a_director_is_declined() -> None:
    a = read("What was Harlow & Harlow's FY2019 total revenue (in USD millions)?", _tarn())
    assert a.declined
    assert "[S" not in a.text.split("\n\n")[0]


def test_common_words_of_a_name_scattered_over_a_passage_do_not_name_the_company() -> None:
    a = read("What was Good Buy's total revenue in FY2019 (in USD millions)?", _tarn())
    assert a.declined


def test_a_name_whose_words_stand_together_is_mentioned_even_when_garbled() -> None:
    receipt = Passage("S1", "SERl BAKERY & CAFE\nNo. 12, Jalan Mawar\nTotal : 9.00", "r1", "receipt.jpg", 1)
    assert mentions("Seri Bakery & Cafe", receipt)
    tarn = Passage("S1", "Tarn Devices Inc. designs rugged tablets.", "t1", "TARN_2020_10K.pdf", 1)
    assert mentions("Tarn Devices", tarn) and mentions("Tarn Devices Inc", tarn)
    assert not mentions("Good Buy", _tarn()[1])


def test_the_company_itself_is_still_answered() -> None:
    a = read("What was Tarn Devices' total revenue in FY2019 (in USD millions)?", _tarn())
    assert not a.declined and "7,925" in a.text


def test_a_company_named_before_the_period_or_the_source_is_a_strong_name() -> None:
    assert analyze("What was net property and equipment for Quillon at the end of FY2020?").strong_names == ("Quillon",)
    assert analyze("What were total current assets for Quillon based on the balance sheet?").strong_names == ("Quillon",)
    a = read("What was total revenue for Harlow Labs at the end of FY2019?", _tarn())
    assert a.declined


def test_a_subject_with_a_bracketed_remark_or_an_ampersand_and_a_lower_case_name_are_strong_names() -> None:
    assert analyze("How much did Quillon (formerly known as Tarrow) generate in cash flow from operating "
                   "activities in FY2020?").strong_names == ("Quillon",)
    assert analyze("How much cash did Harlow & Harlow generate from operations in FY2020?").strong_names == (
        "Harlow & Harlow",)
    assert analyze("What was eZoop's FY2020 total revenue?").strong_names == ("eZoop",)
    assert read("How much did Quillon (formerly known as Tarrow) earn in net income in FY2019?", _tarn()).declined


@pytest.mark.parametrize(
    ("question", "names", "focus"),
    [
        ("What were the net sales of Quillon, Inc. in fiscal 2020?", ("Quillon",), "net sales"),
        ("What were Quillon, Inc.'s net sales in 2020?", ("Quillon",), "net sales"),
        ("What was the revenue of Quillon Corp. in 2020?", ("Quillon",), "revenue"),
        ("What were QLN revenues for 2020?", ("QLN",), "revenues"),
    ],
)
def test_a_company_suffix_or_a_ticker_is_the_name_not_the_item(question: str, names: tuple[str, ...],
                                                              focus: str) -> None:
    q = analyze(question)
    assert q.names == names and q.focus == focus, (q.names, q.focus)


RESULTS = """Consolidated Statements of Operations
Tarn Devices Inc. and Subsidiaries
| (in millions) | Year Ended December 31, / 2020 | Year Ended December 31, / 2019 |
|---|---|---|
| Revenues | $ 8,410 | $ 7,925 |
| Net income attributable to Tarn Devices Inc. | $ 1,204 | $ 1,077 |
"""

MDA = """Tarn Devices Inc. › Results of Operations › Revenues
Emerging markets revenues increased $1.3 billion, or 47%, in 2020 to $4.1 billion from $2.8 billion in 2019."""


def test_the_filers_own_name_in_a_row_does_not_qualify_the_item() -> None:
    # "Net income attributable to Tarn Devices Inc." names the filer: "Revenues" is still Tarn's revenues, in full
    passages = [Passage("S1", MDA, "t1", "tarn-10k.pdf", 40, company="Tarn Devices Inc."),
                Passage("S2", RESULTS, "t1", "tarn-10k.pdf", 57, company="Tarn Devices Inc.")]
    answer = read("What were Tarn Devices' revenues in FY2020?", passages).text
    assert answer.startswith("Revenues were $8,410 million in the year ended December 31, 2020 [S2]"), answer


HARLOW_INCOME = """Consolidated Statements of Earnings
| (in millions) | Year Ended December 31, / 2020 | Year Ended December 31, / 2019 |
|---|---|---|
| Net sales | $ 3,120 | $ 2,980 |
| Net earnings | $ 412 | $ 388 |
"""


@pytest.mark.parametrize("name", ["HnF", "H&F", "H & F"])
def test_a_company_asked_by_its_initials_is_the_filing_of_that_name(name: str) -> None:
    """An initialism names the company whose words it spells: the file name's ("HARLOW_FINCH_2020_10K") or the
    cover's ("HARLOW & FINCH, INC."); the statement chunk itself prints neither."""
    by_file = [Passage("S1", HARLOW_INCOME, "h1", "HARLOW_FINCH_2020_10K.pdf", 40)]
    by_cover = [Passage("S1", HARLOW_INCOME, "h1", "annual-report.pdf", 40, company="HARLOW & FINCH, INC.")]
    for passages in (by_file, by_cover):
        answer = read(f"What were {name}'s net earnings in 2020?", passages)
        assert not answer.declined, answer.text
        assert "$412 million" in answer.text


def test_initials_of_another_company_are_not_a_mention() -> None:
    """"HnF" over Tarn's filing, or over a filing whose words spell other initials, is a company absent."""
    assert not mentions("HnF", Passage("S1", HARLOW_INCOME, "t1", "TARN_2020_10K.pdf", 40))
    assert not mentions("HnF", Passage("S1", HARLOW_INCOME, "h2", "HARLOW_FOODS_GROUP_2020_10K.pdf", 40))
    answer = read("What were HnF's net earnings in 2020?", _tarn())
    assert answer.declined


@pytest.mark.parametrize("name", ["HARFIN", "HAFI"])
def test_a_company_asked_by_a_short_form_of_its_name_is_the_filing_of_that_name(name: str) -> None:
    """A short form in capitals cut from the name's words ("AMEX" for American Express) names the company whose
    cover says "Harlow Finch Corporation"; the statement chunk itself prints neither."""
    passages = [Passage("S1", HARLOW_INCOME, "h1", "annual-report.pdf", 40, company="Harlow Finch Corporation")]
    answer = read(f"What were {name}'s net earnings in 2020?", passages)
    assert not answer.declined, answer.text
    assert "$412 million" in answer.text


def test_a_short_form_of_another_company_is_not_a_mention() -> None:
    """"HAFO" spells no part of Harlow Finch's words in order; bare initials ("HF") are left to the tickers."""
    cover = Passage("S1", HARLOW_INCOME, "h1", "annual-report.pdf", 40, company="Harlow Finch Corporation")
    assert not mentions("HAFO", cover)
    assert not mentions("FIHA", cover)
    assert mentions("HARFIN", cover)


@pytest.mark.parametrize(("question", "name", "focus"), [
    ("What was the amount of Accounts Payable of Quillon at the end of FY2020?", "Quillon", "Accounts Payable"),
    ("What were the total Net Revenues of Tarn Devices in 2020?", "Tarn Devices", "total Net Revenues"),
    ("What is the Cost of Sales of Quillon in FY2020?", "Quillon", "Cost of Sales"),
])
def test_a_capitalised_line_item_of_a_company_names_only_the_company(question: str, name: str, focus: str) -> None:
    q = analyze(question)
    assert q.strong_names == (name,)
    assert q.focus == focus


def test_a_line_item_of_the_company_is_answered_not_declined_as_a_missing_name() -> None:
    sheet = ("Consolidated Balance Sheets\n| (in millions) | December 31, / 2020 | December 31, / 2019 |\n"
             "|---|---|---|\n| Accounts payable | $ 2,318 | $ 1,954 |\n| Total current liabilities | $ 4,007 | $ 3,611 |\n")
    a = read("What was the amount of Accounts Payable of Quillon at the end of 2020?",
             [Passage("S1", sheet, "q1", "QUILLON_2020_10K.pdf", 85)])
    assert not a.declined
    assert "2,318" in a.text and "[S1]" in a.text


def test_a_metric_abbreviation_or_a_title_is_no_company_name() -> None:
    assert analyze("What did Quillon report for Diluted EPS for the fourth quarter of 2020?").strong_names == (
        "Quillon",)
    assert analyze("What was Tarn's revenue from the U.S. Department of Defense in 2020?").strong_names == ("Tarn",)
    assert analyze("How many times has Tarn's buyback authorization been raised by the Board of Directors?"
                   ).strong_names == ("Tarn",)
    # a company whose name has "of" in it stays whole
    assert analyze("What is the total revenue of Bank of Wexford in 2020?").strong_names == ("Bank of Wexford",)


@pytest.mark.parametrize(("question", "names"), [
    ("Is Quillon a capital-intensive business based on FY2020 data?", ("Quillon",)),
    ("What are the major products that Quillon sells as of FY20?", ("Quillon",)),
    ("Was Wexford Mills able to retain customers during 2020?", ("Wexford Mills",)),
    ("If QLN went bankrupt by the end of 2020, how much could each shareholder get?", ("QLN",)),
    ("Is 9X a capital-intensive business?", ("9X",)),
    ("At the Quillon AGM held on May 3, 2020, what was the outcome of the vote on the buyback?", ("Quillon",)),
])
def test_a_company_that_is_the_subject_of_a_clause_is_insisted_on(question: str, names: tuple[str, ...]) -> None:
    q = analyze(question)
    assert q.insisted_names == names
    assert q.strong_names == ()  # no cover check, no search by owner: it may be a product or a region


def test_a_question_about_a_company_the_documents_lack_is_declined_though_it_names_it_in_a_clause() -> None:
    a = read("What are the major products and services that Quillon sells as of FY2020?", _tarn())
    assert a.declined and a.why == "name-missing"
    assert "Quillon" in a.text


def test_a_line_items_capitals_or_a_document_form_are_not_insisted_on() -> None:
    q = analyze("Was there any drop in Cash & Cash equivalents between FY 2020 and Q2 of FY2021?")
    assert q.strong_names == () and q.insisted_names == ()
    assert analyze("What are three main products mentioned in this 10K report?").insisted_names == ()
    q = analyze("Looking at VaR, did the risk that QLN faced in 2020 decrease?")
    assert q.strong_names == () and q.insisted_names == ("QLN",)


def test_a_statement_of_the_companys_filing_is_its_own_though_its_heading_path_is_broken() -> None:
    """A cover whose text layer breaks at every word heads the filing "UNITED › INC.": the statement's rows do not
    name the company, the document's identity does — a sentence that names it is not the likelier answer."""
    statement = ("UNITED › INC. › FIRM\nCONSOLIDATED STATEMENTS OF OPERATIONS\n(In thousands)\n"
                 "| | Year Ended December 31, / 2016 | Year Ended December 31, / 2015 |\n|---|---|---|\n"
                 "| Subscription revenue | 129,351 | 58,013 |\n| Total net revenue | 1,708,721 | 1,267,118 |\n")
    share = ("During the year ended December 31, 2016, Quillon Capital was the largest contributor to subscription "
             "revenue. Subscription revenue grew to 8% of total net revenue in the year ended December 31, 2016, up "
             "from 5% in the year ended December 31, 2015.")
    a = read("What was Quillon's total net revenue in 2016?",
             [Passage("S1", share, "q1", "annual-report-2016.pdf", 50, company="QUILLON, INC."),
              Passage("S2", statement, "q1", "annual-report-2016.pdf", 69, company="QUILLON, INC.")])
    assert a.text.startswith("Total net revenue was 1,708,721 thousand"), a.text


def test_several_capitalised_names_in_a_clause_are_not_insisted_on() -> None:
    """Which of several is the company is not known ("excluding Embedded, in which Quillon segment …")."""
    q = analyze("From FY21 to FY22, excluding Embedded, in which Quillon reporting segment did sales grow the most?")
    assert q.insisted_names == () and q.strong_names == ()


@pytest.mark.parametrize(("name", "company"), [
    ("Wal-Mart", "WALMART INC."),
    ("Walmart", "WAL-MART STORES, INC."),
    ("Footlocker", "FOOT LOCKER, INC."),
    ("Johnson and Johnson", "JOHNSON & JOHNSON"),
    ("JP Morgan", "JPMORGAN CHASE & CO."),
])
def test_a_name_written_with_other_spaces_hyphens_or_and_is_the_same_company(name: str, company: str) -> None:
    """How a name is spaced or hyphenated, "&" or "and": the same company (before: "no passage mentions
    Wal-Mart" over Walmart's own filing)."""
    assert mentions(name, Passage("S1", "Results of operations.", "d", "annual-report.pdf", 4, company=company))


@pytest.mark.parametrize(("name", "company"), [
    ("Intel", "INTELLECTUAL PROPERTY HOLDINGS INC."),
    ("Apple", "PINEAPPLE GROWERS INC."),
    ("Best Buy", "BESTOW BUYERS LLC"),
])
def test_a_name_inside_another_word_is_still_no_mention(name: str, company: str) -> None:
    assert not mentions(name, Passage("S1", "Results of operations.", "d", "annual-report.pdf", 4, company=company))


def test_a_company_named_before_per_or_using_is_the_company_and_another_companys_filing_is_declined() -> None:
    for question in ("What is the FY2020 total revenue for Quillon Marine per the Consolidated Statements of "
                     "Operations?", "What was the total revenue for Quillon Marine using the income statement?"):
        q = analyze(question)
        assert q.strong_names == ("Quillon Marine",)
        assert "quillon" not in q.focus.lower()
        assert read(question, _tarn()).declined  # Tarn's filing says nothing of Quillon


def test_a_name_with_its_legal_form_is_the_company_without_it() -> None:
    """"What was Tarn Co's revenue?" over a filing that writes "Tarn Devices Inc." or a file named TARN: the legal
    form the user adds is no word the passages must hold."""
    cover = Passage("S1", INCOME, "t1", "annual-report-2020.pdf", 52, company="TARN DEVICES INC.")
    assert mentions("Tarn Co", cover) and mentions("Tarn Corp.", cover) and mentions("Tarn Inc", cover)
    assert not mentions("Quillon Co", cover)
    a = read("What was Tarn Co's total revenue in 2020?", [cover])
    assert not a.declined and "8,410" in a.text


def test_a_one_word_name_asked_without_the_co_glued_to_it() -> None:
    """"Tarnco" files as TARNCO; a user asks about "Tarn": the company, not a name no passage holds."""
    unnamed = INCOME.replace("Tarn Devices Inc.\n", "")  # a statement's page that does not print the name
    statement = Passage("S1", unnamed, "t1", "TARNCO_2020_10K.pdf", 52)
    assert mentions("Tarn", statement)
    assert mentions("Tarn", Passage("S1", unnamed, "t1", "annual-report.pdf", 52, company="TarnCo, Inc."))
    assert not mentions("Tar", Passage("S1", unnamed, "t1", "annual-report.pdf", 52, company="TarCo, Inc."))
    assert not read("What was Tarn's total revenue in 2020?", [statement]).declined
