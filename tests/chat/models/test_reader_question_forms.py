"""Analysts' forms of a question (issue 12): the ask after an instruction and a colon, a fiscal year's quarter
written together ("FY2023Q1", "Q2 of FY2024", "Q22023"), a half of a fiscal year, a company's former name in
brackets, and "cash flow from operating activities". Made-up companies and filings; no evaluation set's question.
"""

# ruff: noqa: E501  (the fixtures are table rows as ingest writes them, one line each)
from __future__ import annotations

import pytest

from chat.models.reader import Passage, analyze, read
from chat.models.reader.periods import find_periods


@pytest.mark.parametrize(("text", "year", "quarter"), [
    ("As of FY2023Q1, what was", 2023, 1),
    ("in FY23 Q3", 2023, 3),
    ("in Q2 of FY2024", 2024, 2),
    ("in Q2 of fiscal 2024", 2024, 2),
    ("in Q22023 year over year", 2023, 2),
    ("fiscal 2023 fourth quarter", 2023, 4),
    ("in Q2FY23 compared with", 2023, 2),
    ("in Q2-2023 vs", 2023, 2),
    ("Q3/23 results", 2023, 3),
])
def test_a_fiscal_years_quarter_is_one_period(text: str, year: int, quarter: int) -> None:
    periods = find_periods(text)
    assert [(p.year, p.quarter) for p in periods] == [(year, quarter)]


@pytest.mark.parametrize(("text", "year", "half"), [
    ("in H1 FY2023", 2023, 1),
    ("in H2 of fiscal 2022", 2022, 2),
    ("in the first half of fiscal 2023", 2023, 1),
])
def test_a_fiscal_years_half_is_one_period(text: str, year: int, half: int) -> None:
    assert [(p.year, p.half) for p in find_periods(text)] == [(year, half)]


CASH_FLOWS = """Consolidated Statements of Cash Flows
Tarn Inc.
| (in thousands) | Year Ended December 31, / 2020 | Year Ended December 31, / 2019 |
|---|---|---|
| Cash flows from operating activities: | | |
| Net income | $ 213,105 | $ 375,446 |
| Net cash provided by operating activities | 1,290,611 | 465,400 |
| Purchases of property and equipment | (138,008) | (62,427) |
"""


def test_the_ask_after_an_instruction_and_a_colon_is_the_question() -> None:
    q = analyze("Answer the following question by primarily using information that is shown in the cash flow "
                 "statement: what is the FY2020 capital expenditure for Tarn? Answer in USD millions.")
    assert q.focus == "capital expenditure"
    assert q.statement == "cash" and q.scale == "million"
    q = analyze("We want to calculate a financial metric. Here's the question: what is the FY2020 net income "
                 "for Tarn?")
    assert q.focus == "net income"


def test_a_former_name_in_brackets_is_neither_the_item_nor_a_second_company() -> None:
    question = ("Using the cash flow statement, answer the following question to the best of your abilities: how "
                "much did Tarn (formerly known as Quill) generate in cash flow from operating activities in FY2020? "
                "Answer in USD millions.")
    q = analyze(question)
    assert q.focus == "cash flow from operating activities"
    assert q.names == ("Tarn",)
    answer = read(question, [Passage("S1", CASH_FLOWS, "t1", "TARN_2020_10K.pdf", 70)])
    assert not answer.declined and answer.why == "sure"
    assert answer.text.startswith("Net cash provided by operating activities was $1,290,611 thousand (≈$1,291 million)")


def test_the_operating_section_heading_is_not_the_total_row() -> None:
    """"Cash flows from operating activities:" heads the section; the rows under it are not the item."""
    answer = read("What was Tarn's cash flows from operating activities in 2019?",
                  [Passage("S1", CASH_FLOWS, "t1", "TARN_2020_10K.pdf", 70)])
    assert "465,400" in answer.text.split("\n")[0]


def test_a_singular_scale_word_is_the_scale_not_the_item() -> None:
    q = analyze("How much does Tarn expect to pay to spin off its tools unit in the future in USD million?")
    assert q.scale == "million"
    assert "million" not in q.focus and "usd" not in q.focus.lower()


@pytest.mark.parametrize(("question", "name"), [
    ("Has Tarn's quick ratio improved between FY2020 and FY2019?", "Tarn"),
    ("Did Tarn Devices' net income increase in 2020?", "Tarn Devices"),
    ("Is Tarn's business subject to cyclicality?", "Tarn"),
    ("Are Tarn Devices' gross margins consistent?", "Tarn Devices"),
    ("For Tarn, which segment had the highest revenue in 2020?", "Tarn"),
    ("Which segment of Tarn will be treated as a discontinued operation?", "Tarn"),
])
def test_the_company_a_yes_no_or_an_opening_phrase_names(question: str, name: str) -> None:
    """A yes/no question's auxiliary is not part of the name ("Has Tarn's" names Tarn, not "Has Tarn")."""
    q = analyze(question)
    assert q.strong_names == (name,)


def test_a_yes_no_question_about_the_named_company_is_not_declined_for_its_auxiliary() -> None:
    answer = read("Did Tarn's net income increase in 2020?", [Passage("S1", CASH_FLOWS, "t1", "TARN_2020_10K.pdf", 70)])
    assert answer.why != "name-missing"
    assert not answer.declined


def test_a_capitalised_line_item_is_no_company() -> None:
    assert analyze("How much of Revenue has been deferred?").strong_names == ()


@pytest.mark.parametrize("question", [
    "What is Tarn's 2 year total revenue CAGR from FY2018 to FY2020 (in units of percents and round to one decimal "
    "place)? Provide a response by primarily using the statement of income.",
    "What is Tarn's FY2020 net income? Answer in USD millions and round to one decimal place.",
    "Does Tarn have an improving net income profile as of FY2020? If net income is not a useful metric for a company "
    "like this, then state that and explain why.",
])
def test_an_and_in_brackets_or_in_the_instructions_does_not_split_the_ask(question: str) -> None:
    from chat.models.reader.items import item_questions

    assert item_questions(question) == [question]


def test_two_line_items_of_the_ask_are_still_split() -> None:
    from chat.models.reader.items import item_questions

    parts = item_questions("What were Tarn's net sales and net income in 2020? Answer in USD millions.")
    assert len(parts) == 2


def test_a_section_the_question_does_not_name_is_not_prepended_to_the_item() -> None:
    """"Net income" under an unclosed "Other income (expense):" section is net income, said so."""
    statement = """Consolidated Statements of Operations
| (in thousands) | Year Ended December 31, / 2017 | Year Ended December 31, / 2016 |
|---|---|---|
| Revenues | $ 11,692,713 | $ 8,830,669 |
| Other income (expense): | | |
| Interest expense | (238,204) | (150,114) |
| Net income | $ 558,929 | $ 186,678 |
"""
    answer = read("What was Tarn's net income in 2017?", [Passage("S1", statement, "t1", "TARN_2017_10K.pdf", 40)])
    assert answer.text.startswith("Net income was $558,929 thousand in the year ended December 31, 2017 [S1].")


@pytest.mark.parametrize(("question", "stated"), [
    ("What is Tarn Foods' core constant currency EPS growth guidance for 2023?", "9 percent"),
    ("What organic revenue growth does Tarn Foods expect for fiscal year 2023?", "8 percent"),
])
def test_an_amount_said_right_before_its_item_is_that_items(question: str, stated: str) -> None:
    """"… 8 percent organic revenue growth (previously 6 percent), and 9 percent core … EPS growth": each item's
    figure stands right before it, not after it (the "previously" figures are the old guidance)."""
    sentence = ("For fiscal year 2023, Tarn Foods now expects to deliver 8 percent organic revenue growth (previously 6 "
                "percent), and 9 percent core constant currency EPS growth (previously 8 percent).")
    answer = read(question, [Passage("S1", sentence, "t1", "TARN_FOODS_2023Q1_EARNINGS.pdf", 2)])
    assert answer.text.startswith(f"The documents say {stated}:")


@pytest.mark.parametrize("source", ["the Statement of Financial Position", "the Consolidated Statements of Operations",
                                    "the Statement of Cash Flows", "the Statement of Income"])
def test_a_capitalised_statement_title_names_no_company(source: str) -> None:
    """"Using the Statement of Financial Position, what is …": "Financial Position" was read as a company no
    passage names (a balance sheet is titled "Consolidated Balance Sheets"), and the question was declined."""
    question = f"Using {source}, what is Kestrel Tools' total assets as of December 31, 2031? Answer in USD millions."
    assert analyze(question).strong_names == ("Kestrel Tools",)
    balance = Passage("S1", "KESTREL TOOLS, INC.\nCONSOLIDATED BALANCE SHEETS\n(In millions)\n"
                            "| | December 31, 2031 | December 31, 2030 |\n|---|---|---|\n| Total assets | 4,210 | 3,980 |",
                      "k", "KESTREL_10K.pdf", 48)
    answer = read(question, [balance])
    assert not answer.declined and "4,210" in answer.text.splitlines()[0], answer.text


@pytest.mark.parametrize(("question", "kind"), [
    ("When primarily referencing the balance sheet, what is the FY2031 inventory turnover ratio for Orrery?", "value"),
    ("When answering, use the cash flow statement: what were Orrery's FY2031 capital expenditures?", "value"),
    ("When did Orrery acquire Lumen?", "date"),
    ("When was the credit agreement amended?", "date"),
])
def test_a_when_clause_before_the_question_asks_no_date(question: str, kind: str) -> None:
    assert analyze(question).kind == kind


def test_an_estimate_verb_and_where_a_figure_is_printed_are_no_part_of_the_item() -> None:
    """"expect to pay", "on balance sheet", "the 2021 fiscal period" name no line item (before: "expect" and
    "balance sheet fiscal period" were words the row had to hold)."""
    from chat.models.reader.question import analyze

    assert analyze("As of FY2031, how much did Kestrel expect to pay for its retirees in 2033?").focus == "retirees"
    debt = analyze("Has Kestrel increased its debt on balance sheet between 2031 and the 2030 fiscal period?")
    assert debt.focus == "debt" and debt.kind == "change"


@pytest.mark.parametrize("question", [
    "What was Kestrel's adjusted EBIT for fiscal 2031 according to its earnings release?",
    "What was Kestrel's adjusted EBIT for fiscal 2031 as reported in its 10-K?",
    "What was Kestrel's adjusted EBIT for fiscal 2031 as stated in the press release?",
    "How much adjusted EBIT did Kestrel (Osprey) report in fiscal 2031?",
])
def test_where_a_figure_is_reported_and_the_companys_other_name_are_no_part_of_the_item(question: str) -> None:
    """"according to its earnings release", "as reported in its 10-K": the source, not the item's words; "Kestrel
    (Osprey)": the company's other name in brackets (before: "earnings release", "(Osprey) report" were words a row
    had to hold, and a row of the item itself was left unsure)."""
    q = analyze(question)
    assert q.focus == "adjusted EBIT" and q.strong_names == ("Kestrel",)
    table = ("KESTREL › Non-GAAP reconciliation\n($ in millions)\n|  | Year ended June 30, / 2031 | Year ended June 30, "
             "/ 2030 |\n|---|---|---|\n| Net income | 1,048 | 805 |\n| Adjusted EBIT | 1,608 | 1,701 |")
    answer = read(question, [Passage("S1", table, "doc-1", "kestrel-2031.pdf", 9, company="Kestrel Corp.")])
    assert answer.text.startswith("Adjusted EBIT was $1,608 million"), answer.text


def test_improve_and_worsen_ask_a_change_and_its_direction() -> None:
    """"Did operating income improve?" asks the change, answered yes or no by its direction (before: "improve" was
    a word the row had to hold, and the reader was left unsure)."""
    assert analyze("Did Kestrel's operating income improve in fiscal 2031?").focus == "operating income"
    assert analyze("Has Kestrel's operating income worsened in fiscal 2031?").kind == "change"
    table = ("KESTREL CORP. › CONSOLIDATED STATEMENTS OF INCOME\n($ in millions)\n|  | Year ended May 31, / 2031 | "
             "Year ended May 31, / 2030 |\n|---|---|---|\n| Revenues | 44,538 | 37,403 |\n"
             "| Operating income | 6,937 | 3,115 |")
    passages = [Passage("S1", table, "doc-1", "kestrel-10k.pdf", 59, company="Kestrel Corp.")]
    assert read("Did Kestrel's operating income improve in fiscal 2031?", passages).text.startswith(
        "Yes — operating income was up 122.7%")
    assert read("Did Kestrel's operating income worsen in fiscal 2031?", passages).text.startswith(
        "No — operating income was up 122.7%")


def test_where_an_amount_came_from_names_no_word_of_the_item() -> None:
    """"revenue came from footwear": the revenue of footwear (before: "came" was a word the row had to hold)."""
    q = analyze("How much of Kestrel's revenue came from footwear in fiscal 2031?")
    assert q.focus == "revenue footwear" and "came" not in q.focus_terms


@pytest.mark.parametrize(("question", "name", "focus"), [
    ("Corning net income 2031?", "Corning", "net income"),
    ("General Mills operating profit FY31", "General Mills", "operating profit"),
    ("Show General Mills' operating profit for fiscal year '31.", "General Mills", "operating profit"),
    ("How much did Kestrel earn in FY31?", "Kestrel", "net income"),
    ("How much did Kestrel lose in FY31?", "Kestrel", "net loss"),
    ("How much money did Kestrel lose in 2031?", "Kestrel", "net loss"),
    ("What is Kestrel's latest reported backlog?", "Kestrel", "backlog"),
])
def test_search_box_and_instruction_forms_name_the_company_and_the_item(question: str, name: str, focus: str) -> None:
    """A question typed as into a search box ("Corning net income 2031?") names the company with its opening word;
    "Show …", "earn", "latest reported", "fiscal year '31" are read as a user means them (before: no company named —
    so another company's figure answered — and "show", "earn", "latest reported" were words of the item)."""
    q = analyze(question)
    assert q.strong_names == (name,) and q.focus == focus and q.focus_terms
    assert q.periods or "latest" in question


def test_a_comparison_sentences_amount_of_the_asked_year_is_on_that_years_side() -> None:
    """"For 2031, … $1,316 million …, compared to … $1,906 million … for 2030": each year's amount is on its own side
    of "compared to" (before: 2030 asked, $1,316 million)."""
    text = ("Kestrel Inc. › Overview\nFor the year ended December 31, 2031, we generated net income attributable to "
            "Kestrel Incorporated of $1,316 million, or $1.54 per diluted share, compared to net income attributable "
            "to Kestrel Incorporated of $1,906 million, or $1.28 per diluted share, for the year ended December 31, "
            "2030.")
    passages = [Passage("S1", text, "doc-1", "kestrel-10k.pdf", 24, company="Kestrel Inc.")]
    assert read("What was Kestrel's net income in 2030?", passages).text.startswith("The documents say $1,906 million")
    assert read("What was Kestrel's net income in 2031?", passages).text.startswith("The documents say $1,316 million")


#: a statement's first rows (each test adds its own)
_INCOME = ("KESTREL INC. › CONSOLIDATED STATEMENTS OF INCOME\n(In millions)\n|  | Year Ended May 31, / 2031 | "
           "Year Ended May 31, / 2030 |\n|---|---|---|\n| Revenues | $44,538 | $37,403 |\n")


def test_a_search_box_question_typed_in_lower_case_names_the_company_its_documents_are_named_for() -> None:
    """"kestrel revenue fy31": the documents' owner is the company (its word no part of the item); over another
    company's documents, which hold no such word, declined (before: another filing's figure, sure)."""
    table = _INCOME + "| Sales through Kestrel Direct | 1,956 | 1,620 |"
    own = [Passage("S1", table, "doc-1", "KESTREL_2031_10K.pdf", 59, company="Kestrel Inc.")]
    assert read("kestrel revenue fy31", own).text.startswith("Revenues were $44,538 million")
    other = [Passage("S1", table.replace("KESTREL INC.", "OSPREY INC.").replace("Kestrel Direct", "Osprey Direct"),
                     "doc-2", "OSPREY_2031_10K.pdf", 59, company="Osprey Inc.")]
    assert read("kestrel revenue fy31", other).declined
    annual = [Passage("S1", "Osprey Inc. › Overview\nOur annual revenue was $37,403 million in fiscal 2030.", "doc-2",
                      "OSPREY_2031_10K.pdf", 30, company="Osprey Inc.")]
    assert not read("annual revenue fy30", annual).declined  # a word the documents hold is no company


def test_the_analysts_top_and_bottom_line_are_the_statements_first_and_last_lines() -> None:
    """"top line" is revenue, "bottom line" net income (before: words no row holds — a caption quoted, sure)."""
    table = _INCOME + "| Net income | $5,727 | $2,539 |"
    own = [Passage("S1", table, "doc-1", "KESTREL_2031_10K.pdf", 59, company="Kestrel Inc.")]
    assert read("What was Kestrel's top line in fiscal 2031?", own).text.startswith("Revenues were $44,538 million")
    assert read("What was Kestrel's bottom line in fiscal 2031?", own).text.startswith("Net income was $5,727 million")


def test_an_items_rate_is_its_share_of_revenue_row() -> None:
    """"gross profit rate": the row "Gross profit as a % of revenue" (before: the rate's sentence without a figure
    — declined — or the gross profit in dollars)."""
    table = ("KESTREL INC. › Consolidated Results\n| Consolidated Performance Summary | 2031 | 2030 |\n|---|---|---|\n"
             "| Revenue | $46,298 | $51,761 |\n| Gross profit | $9,912 | $11,640 |\n"
             "| Gross profit as a % of revenue(1) | 21.4 % | 22.5 % |")
    said = ("KESTREL INC. › Gross Profit\nOur gross profit rate decreased in fiscal 2031, primarily due to lower "
            "product margin rates.")
    own = [Passage("S1", said, "doc-1", "KESTREL_2031_10K.pdf", 26, company="Kestrel Inc."),
           Passage("S2", table, "doc-1", "KESTREL_2031_10K.pdf", 25, company="Kestrel Inc.")]
    head = read("What was Kestrel's gross profit rate in fiscal 2031?", own).text.splitlines()[0]
    assert head.startswith("Gross profit as a % of revenue was 21.4% in 2031 [S2]"), head
    # another item's share asked: the gross profit's share is no answer
    other = read("What was Kestrel's wages expense as a percent of revenue in fiscal 2031?", own)
    assert "21.4%" not in other.text.splitlines()[0], other.text
