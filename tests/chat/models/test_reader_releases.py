"""Earnings releases and the 8-K exhibits they come in: a statement's total printed without a label, a table of one
item whose rows are the parts ("SUPPLEMENTAL DATA – NET REVENUES": "Harbor China"), the year's column beside the
quarter's, an adjusted figure the question does not ask, year cells the grid put beside the amounts, bullets
under a "Fiscal 2031 Full Year Highlights" heading, a count listed "respectively", a segment whose name opens with
the company's ("Contoso Cloud"), a key figure's line that ends on its verb. Made-up documents."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.covers import company_names
from chat.models.reader.evidence import unasked_adjustment
from chat.models.reader.question import analyze
from chat.models.reader.tables import find_tables

HEAD4 = ("|  | Three Months Ended / December 31, 2031 | Three Months Ended / December 31, 2030 | "
         "Twelve Months Ended / December 31, 2031 | Twelve Months Ended / December 31, 2030 |")

STATEMENT = f"""HARBOR RESORTS INTERNATIONAL AND SUBSIDIARIES
CONSOLIDATED STATEMENTS OF OPERATIONS
(In thousands, except per share amounts)
{HEAD4}
|---|---|---|---|---|
| Revenues: |  |  |  |  |
| Casino | $1,548,762 | $1,527,818 | $5,734,173 | $5,362,912 |
| Rooms | 897,943 | 636,130 | 3,057,145 | 1,690,037 |
| Food and beverage | 710,646 | 515,049 | 2,604,238 | 1,391,605 |
|  | 3,157,351 | 2,678,997 | 11,395,556 | 8,444,554 |
| Expenses: |  |  |  |  |
| Casino | 796,444 | 742,320 | 2,746,576 | 2,551,169 |"""

SEGMENTS = f"""HARBOR RESORTS INTERNATIONAL AND SUBSIDIARIES
SUPPLEMENTAL DATA – NET REVENUES
(In thousands)
{HEAD4}
|---|---|---|---|---|
| Strip Resorts | $2,297,282 | $1,806,686 | $8,398,372 | $4,737,185 |
| Harbor China | 174,720 | 314,717 | 673,593 | 1,210,761 |
| Regional Operations | 685,349 | 557,594 | 2,323,591 | 2,496,608 |"""

EBITDAR = f"""HARBOR RESORTS INTERNATIONAL AND SUBSIDIARIES
RECONCILIATION OF STRIP RESORTS ADJUSTED PROPERTY EBITDAR
(In thousands)
{HEAD4}
|---|---|---|---|---|
| Strip Resorts Same-Store Adjusted Property EBITDAR | 691,248 | 650,608 | 2,074,200 | 1,456,154 |
| Strip Resorts Adjusted Property EBITDAR | $877,052 | $698,739 | $3,142,308 | $1,738,211 |"""

BY_SEGMENT = """Harbor Resorts International › Net Revenues by Segment
The following table presents a detail by segment of net revenues (in thousands):
|  | Three Months Ended / December 31, 2031 | Three Months Ended / December 31, 2030 |
|---|---|---|
| Strip Resorts |  |  |
| Casino | $492,212 | $498,524 |
| Rooms | 706,715 | 696,008 |"""


def _read(question: str, *texts: str, file_name: str = "HARBOR_2031Q4_EARNINGS.pdf",
          company: str = "Harbor Resorts International") -> str:
    passages = [Passage(f"S{i}", text, "doc-1", file_name, 10 + i, company=company)
                for i, text in enumerate(texts, 1)]
    return read(question, passages).text.split("\n")[0]


def test_a_total_printed_without_a_label_is_its_headings_total() -> None:
    answer = _read("What were Harbor Resorts' consolidated net revenues in the fourth quarter of 2031?",
                   STATEMENT, SEGMENTS)
    assert "3,157,351" in answer and "2,297,282" not in answer


def test_a_part_asked_by_name_is_its_row_of_a_table_of_the_item_not_the_whole() -> None:
    answer = _read("What was Harbor China's net revenue in Q4 2031?", STATEMENT, SEGMENTS)
    assert "174,720" in answer and "3,157,351" not in answer


def test_a_year_alone_is_the_twelve_months_column_beside_the_quarters() -> None:
    answer = _read("What was the Strip Resorts' Adjusted Property EBITDAR in 2031 for Harbor?", EBITDAR)
    assert "3,142,308" in answer
    full = _read("What were Harbor Resorts' casino revenues for full year 2031?", STATEMENT)
    assert "5,734,173" in full


def test_an_adjustment_the_question_does_not_name_is_not_the_figure() -> None:
    asked = "What was the Strip Resorts' Adjusted Property EBITDAR in 2031 for Harbor?"
    assert unasked_adjustment("Strip Resorts Same-Store Adjusted Property EBITDAR", "", asked)
    assert not unasked_adjustment("Strip Resorts Adjusted Property EBITDAR", "", asked)
    assert unasked_adjustment("Adjusted EBITDA", "", "What was Harbor's EBITDA in 2031?")
    assert not unasked_adjustment("EBITDA", "", "What was Harbor's EBITDA in 2031?")
    header, rows = EBITDAR.rsplit("\n", 2)[0], EBITDAR.rsplit("\n", 2)[1:]
    same_store, plain = f"{header}\n{rows[0]}", f"{header}\n{rows[1]}"  # chunks: the same-store row ranked first
    answer = _read(asked, same_store, plain)
    assert "3,142,308" in answer and "2,074,200" not in answer


def test_a_segments_heading_that_shares_the_companys_words_is_still_a_part() -> None:
    answer = _read("What were Harbor Resorts' casino revenues in the three months ended December 31, 2031?",
                   BY_SEGMENT, STATEMENT)
    assert "1,548,762" in answer and "492,212" not in answer


HEAD_BESIDE = ("| ($ million, except per share amounts) | Three Months Ended June 30, / 2030 | "
               "Three Months Ended June 30, | Three Months Ended June 30, / 2031 | Three Months Ended June 30, | "
               "Twelve Months Ended June 30, / 2030 | Twelve Months Ended June 30, / 2031 |")

YEARS_BESIDE = f"""U.S. GAAP Condensed Consolidated Statements of Income (Unaudited)
{HEAD_BESIDE}
|---|---|---|---|---|---|---|
| Net sales |  | 3,909 |  | 3,673 | 14,544 | 14,694 |
| Cost of sales |  | (3,115) |  | (2,951) | (11,724) | (11,969) |"""


def test_year_cells_beside_the_amounts_date_them_and_a_dollar_million_stub_is_the_unit() -> None:
    table = find_tables(YEARS_BESIDE)[0]
    assert [c.header for c in table.columns] == [
        "Three Months Ended June 30, / 2030", "Three Months Ended June 30, / 2031",
        "Twelve Months Ended June 30, / 2030", "Twelve Months Ended June 30, / 2031"]
    assert table.rows[0].cells == ("3,909", "3,673", "14,544", "14,694")
    answer = _read("What were Tern's net sales in the fourth quarter of fiscal 2031?", YEARS_BESIDE,
                   file_name="TERN_2031Q4_EARNINGS.pdf", company="Tern plc")
    assert "$3,673 million" in answer


def test_a_net_gain_is_no_net_sales() -> None:
    answer = _read("What were Tern's net sales in fiscal 2031?",
                   "A pre-tax net gain on disposal of the Company's three plants of $215 million was recognized "
                   "during fiscal year 2031.", file_name="TERN_2031_10K.pdf", company="Tern plc")
    assert not answer.startswith("The documents say $215 million") and "don't say" in answer


HIGHLIGHTS = """Tern reports fiscal 2031 results
June 2031 quarter:
GAAP diluted EPS of 12.3 cps; Adjusted EPS of 19.3 cps
Fiscal 2031 Full Year Highlights
• GAAP Net Income of $1,048 million; GAAP diluted earnings per share (EPS) of 70.5 cps;
• Adjusted EPS of 73.3 cps and Adjusted Free Cash Flow of $848 million, in line with guidance provided in
May. Adjusted EBIT of $1,608 million;"""


def test_a_bullet_is_of_the_period_its_lists_heading_names_and_cents_per_share_are_the_amount() -> None:
    answer = _read("What adjusted EPS did Tern report for fiscal 2031?", HIGHLIGHTS,
                   file_name="TERN_2031Q4_EARNINGS.pdf", company="Tern plc")
    assert "73.3 cps" in answer and "848" not in answer.split(":")[0]


def test_counts_listed_respectively_give_the_asked_years() -> None:
    answer = _read("How many warehouses did Wexford operate at the end of 2031?",
                   "Wexford operated 815, 795, and 782 warehouses worldwide at August 29, 2031, August 30, 2030, and "
                   "September 1, 2029, respectively.", file_name="WEXFORD_2031_10K.pdf", company="Wexford Corp")
    assert answer.startswith("The documents say 815")


def test_a_segment_named_with_the_companys_name_is_no_other_company() -> None:
    passages = [Passage("S1", "• Contoso Cloud revenue increased 22% to $111.6 billion.", "doc-1",
                        "CONTOSO_2031_10K.pdf", 40, company="CONTOSO CORPORATION")]
    q = analyze("How much revenue did Contoso Cloud generate in fiscal year 2031?")
    assert company_names(q, passages) == ()
    acme = analyze("How much revenue did Acme generate in fiscal year 2031?")
    assert company_names(acme, passages) == ("Acme",)


def test_a_key_figures_line_that_ends_on_its_verb_is_said_as_written() -> None:
    answer = _read("What was Tern's comparable sales growth in fiscal 2031?",
                   "Fourth Quarter Fiscal 2031 Highlights\nComparable Sales Increased 15.6%",
                   file_name="TERN_2031Q4_EARNINGS.pdf", company="Tern plc")
    assert "is 15.6%" not in answer


def test_a_focus_that_is_a_clause_adds_no_words_to_the_label() -> None:
    answer = _read("How much cash did Tern generate from operations in 2031?",
                   "TERN PLC\nCONSOLIDATED STATEMENTS OF CASH FLOWS\n(Millions)\n|  | 2031 | 2030 |\n|---|---|---|\n"
                   "| Net cash provided by (used in) operating activities | 6,439 | 6,240 |",
                   file_name="TERN_2031_10K.pdf", company="Tern plc")
    assert "6,439" in answer and "generate" not in answer


def test_the_instructions_words_are_no_part_of_the_item() -> None:
    q = analyze("What is the quantity of restructuring costs directly outlined in Tern's income statements for FY2031? "
                "If restructuring costs are not explicitly outlined then state 0.")
    assert q.focus == "restructuring costs" and q.statement == "income"


def test_a_sentence_of_the_qualifiers_alone_is_not_the_item() -> None:
    answer = _read("Has Tern paid dividends to common shareholders in FY2031?",
                   "During 2031, we paid $7.9 billion to repurchase 18.3 million shares of our common stock.",
                   "We paid dividends totaling $3.0 billion ($11.40 per share) in 2031.",
                   file_name="TERN_2031_10K.pdf", company="Tern plc")
    assert "$7.9 billion" not in answer and "$3.0 billion" in answer


SEGMENT_SALES = """Tern Pharma
SEGMENT SALES RESULTS
| Q2 ($ in Millions) | 2031 | 2030 | % Change / Reported |
|---|---|---|---|
| Consumer Health | $4,011 | $3,805 | 5.4% |
| Pharmaceutical | 13,731 | 13,317 | 3.1 |
| MedTech | 7,788 | 6,898 | 12.9 |
| Worldwide | $25,530 | $24,020 | 6.3% |"""


def test_a_segment_sales_results_table_holds_each_segments_sales() -> None:
    answer = _read("What were the Pharmaceutical segment's sales for Tern in Q2 2031?", SEGMENT_SALES,
                   file_name="TERN_2031Q2_EARNINGS.pdf", company="Tern Pharma")
    assert "13,731" in answer


def test_the_activity_that_brought_in_the_most_cash_is_compared_across_the_statements_chunks() -> None:
    head = ("TERN PLC\nCONSOLIDATED STATEMENTS OF CASH FLOWS\n($ in millions)\n"
            "|  | Fiscal Years Ended / January 28, 2031 | Fiscal Years Ended / January 29, 2030 |\n|---|---|---|\n")
    passages = [Passage(f"S{i}", head + rows, "doc-1", "TERN_2031_10K.pdf", 50 + i, company="Tern plc")
                for i, rows in enumerate(("| Total cash provided by operating activities | 1,824 | 3,252 |",
                                          "| Other investing activities | 12 | 9 |\n"
                                          "| Total cash used in investing activities | (962) | (1,372) |",
                                          "| Total cash used in financing activities | (1,806) | (4,297) |"), 1)]
    asked = ("Among operations, investing, and financing activities, which brought in the most (or lost the least) "
             "cash flow for Tern in FY2030?")
    answer = read(asked, passages).text.split("\n")[0]
    assert answer.startswith("Operating activities brought in the most cash") and "$3,252 million" in answer
    assert "$(1,372) million" in answer and "$(4,297) million" in answer
    least = read(asked.replace("brought in the most (or lost the least)", "used the most"), passages).text
    assert least.startswith("Financing activities used the most cash")


VOTES = """Tern plc › Item 5.07. Submission of Matters to a Vote of Security Holders.
Proposal 2. With respect to the proposal to approve, on an advisory basis, the Company's named executive officers'
("NEOs") compensation, the votes were cast for the proposal as set forth below:
| Votes For | Votes Against | Abstentions | Broker Non-Votes |
|---|---|---|---|
| 57,172,731 | 13,324,080 | 170,172 | 6,884,223 |"""


def test_a_grid_without_a_label_column_reads_every_column_as_a_value() -> None:
    table = find_tables(VOTES)[0]
    assert [c.header for c in table.columns] == ["Votes For", "Votes Against", "Abstentions", "Broker Non-Votes"]
    assert table.rows[0].cells == ("57,172,731", "13,324,080", "170,172", "6,884,223")
    answer = _read("How many votes were cast for the approval of Tern's NEO compensation?", VOTES,
                   file_name="TERN_2031_8K.pdf", company="Tern plc")
    assert answer.startswith("Votes For were 57,172,731")


def test_us_is_a_word_of_the_question_and_a_regions_row_answers_it() -> None:
    regional = SEGMENT_SALES.replace("SEGMENT SALES RESULTS", "REGIONAL SALES RESULTS").replace(
        "| Consumer Health | $4,011 | $3,805 | 5.4% |\n| Pharmaceutical | 13,731 | 13,317 | 3.1 |\n"
        "| MedTech | 7,788 | 6,898 | 12.9 |",
        "| U.S. | $13,444 | $12,197 | 10.2% |\n| International | 12,086 | 11,823 | 2.2 |")
    statement = ("Tern Pharma and Subsidiaries\nCondensed Consolidated Statement of Earnings\n(in Millions)\n"
                 "|  | Second Quarter / 2031 | Second Quarter / 2030 |\n|---|---|---|\n"
                 "| Sales to customers | $25,530 | $24,020 |")
    answer = _read("What were Tern's U.S. sales in the second quarter of 2031?", statement, regional,
                   file_name="TERN_2031Q2_EARNINGS.pdf", company="Tern Pharma")
    assert "13,444" in answer and "25,530" not in answer


def test_the_full_years_highlights_are_no_quarters_figures() -> None:
    answer = _read("What were Tern's net sales in the fourth quarter of fiscal 2031?",
                   "Fiscal 2031 Full Year Highlights\n• Net sales of $14,694 million, in line with the prior year;\n"
                   "• GAAP Net Income of $1,048 million;", file_name="TERN_2031Q4_EARNINGS.pdf", company="Tern plc")
    assert not answer.startswith("The documents say $14,694 million")


def test_a_per_share_figure_from_continuing_operations_is_a_part_of_the_one_asked() -> None:
    restated = ("Tern plc and Subsidiaries\nReconciliation of Non-GAAP Financial Measures\n"
                "|  | 2031 / Q4 | 2031 / FULL YEAR |\n|---|---|---|\n"
                "| Adjusted net earnings per share from continuing operations (Diluted) | $2.05 | $8.93 |")
    reported = ("Tern plc and Subsidiaries\nReconciliation of Non-GAAP Financial Measures\n"
                "|  | 2031 / Q4 | 2031 / FULL YEAR |\n|---|---|---|\n"
                "| Adjusted net earnings per share (Diluted) | $2.35 | $10.15 |")
    answer = _read("What adjusted EPS did Tern report for full-year 2031?", restated, reported,
                   file_name="TERN_2031Q4_EARNINGS.pdf", company="Tern plc")
    assert "10.15" in answer and "8.93" not in answer


def test_a_titles_wrapped_last_word_is_no_heading_over_the_bullets() -> None:
    from chat.models.reader.text import sentence_spans
    text = ("Tern Announces Updated Financials and 2031 Guidance Following Completion of the Kestrel\nSeparation\n"
            "• Net sales of $14,694 million;")
    assert text[: sentence_spans(text)[0][1]].endswith("Kestrel\nSeparation")


STORE_COUNTS = """Kestrel Retail › Item 2. Properties
The following table shows our store counts:
| | 2030 Total Stores at End of Fiscal Year | Stores Opened | 2031 Stores Closed | Total Stores at End of Fiscal Year |
|---|---|---|---|---|
| Total Domestic segment stores | 991 | 13 | (20) | 984 |"""

STORES_SAID = """Kestrel Retail › Item 2. Properties
We had 1,138 stores at the end of fiscal 2031 throughout our Domestic and International segments."""


def test_a_count_is_never_a_movement_column_nor_a_negative_cell() -> None:
    # the grid put the year over the "Stores Closed" column: "(20)" is stores closed, never the count; the verb
    # closing the question ("operate") is no word of the item
    assert analyze("How many stores did Kestrel operate at the end of fiscal 2031?").focus == "stores"
    answer = _read("How many stores did Kestrel have at the end of fiscal 2031?", STORE_COUNTS, STORES_SAID,
                   file_name="KESTREL_2031_10K.pdf", company="Kestrel Retail")
    assert "(20)" not in answer and "Closed" not in answer, answer


def test_the_three_activities_are_said_in_the_statements_currency_whichever_chunk_prints_it() -> None:
    """The operating line's chunk prints "$", the others' do not (the caption says "(in millions)"): each is said in
    dollars (before: "(1,161) million")."""
    head = ("TERN PLC\nCONSOLIDATED STATEMENTS OF CASH FLOWS\n(in millions)\n"
            "|  | 2031 | 2030 |\n|---|---|---|\n")
    passages = [Passage(f"S{i}", head + rows, "doc-1", "TERN_2031_10K.pdf", 50 + i, company="Tern plc")
                for i, rows in enumerate(("| Net cash provided by operating activities | $ 9,221 | $ 8,183 |",
                                          "| Net cash used for investing activities | (1,161) | (2,010) |\n"
                                          "| Net cash used for financing activities | (7,616) | (4,527) |"), 1)]
    answer = read("Among operations, investing, and financing activities, which brought in the most (or lost the "
                  "least) cash flow for Tern in FY2031?", passages).text.split("\n")[0]
    assert answer.startswith("Operating activities brought in the most cash in 2031: $9,221 million [S1] (compared "
                             "with investing activities $(1,161) million [S2] and financing activities $(7,616) "
                             "million [S2])."), answer


HEADLINE = ("Quillon, Inc. › N E W S R E L E A S E JANE Q. ARDEN APPOINTED AS CEO, EFFECTIVE SEPTEMBER 1, 2031 Tomas "
            "R. Vey to Become Non-Executive Chair, Effective February 1, 2032 NEW YORK, August 19, 2031 – Quillon, "
            "Inc. (NYSE: QLN) today announced that Ann Carter will retire as President and Chief Executive Officer, "
            "effective September 1, 2031.")


def test_a_release_headline_answers_who_took_which_office_and_when() -> None:
    """A succession release's headline names two people and two offices: "Who became the non-executive chair?" is
    the name beside that office (before: the first name of the headline), and "What was the effective date of …"
    asks a date (before: the headline quoted, no date said)."""
    passages = [Passage("S1", HEADLINE, "q", "QUILLON_2031_8K.pdf", 1)]
    chair = read("Who became Quillon's non-executive chair?", passages)
    assert chair.text.startswith("The documents say Tomas R. Vey"), chair.text
    assert analyze("What was the effective date of Jane Arden's appointment as Quillon CEO?").kind == "date"
    date = read("What was the effective date of Jane Arden's appointment as Quillon CEO?", passages)
    assert date.text.startswith("The documents say SEPTEMBER 1, 2031"), date.text


def test_a_count_asked_is_not_the_money_a_key_figures_line_gives() -> None:
    """"How many shares did Quillon repurchase?" beside "Share repurchases approximately $900 million" (a release's
    key figures): that is what they cost — never a sure count."""
    figures = Passage("S1", "Fiscal 2031 Highlights\nShare repurchases approximately $900 million\n"
                      "Net sales $10.2 billion", "q", "QUILLON_2031Q4_EARNINGS.pdf", 2)
    answer = read("How many shares did Quillon repurchase in fiscal 2031?", [figures])
    assert answer.why != "sure" and "$900 million" not in answer.text.split("\n")[0]
