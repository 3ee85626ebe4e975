"""Lines an analyst asks of an annual report that other tables also print: an inventory balance (the cash flow's
change in it, a lease obligation's "balance"), depreciation and amortization (a deferred-tax table's line of the
same name), the current ratio (non-current assets; the obligor group's balance sheet) and who audits the company.
Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.auditors import firm_in
from chat.models.reader.balances import change_only_factor, part_only_factor
from chat.models.reader.queries import search_queries
from chat.models.reader.text import match_terms


def _passages(*texts: str) -> list[Passage]:
    return [Passage(f"S{i}", text, f"doc-{i}", "OSPREY_2031_10K.pdf", 40 + i) for i, text in enumerate(texts, 1)]


def _head(question: str, *texts: str) -> str:
    return read(question, _passages(*texts)).text.splitlines()[0]


CASH_FLOWS = """OSPREY WORKS, INC. › CONSOLIDATED STATEMENTS OF CASH FLOWS
(Amounts in millions)
|  | For the Years Ended December 31, / 2031 | 2030 |
|---|---|---|
| Net income | $1,503 | $1,813 |
| Depreciation and amortization of property, equipment and intangibles | 328 | 301 |
| Changes in operating assets and liabilities, net of effect of business acquisitions: |  |  |
| Accounts receivable, net | (84) | 40 |
| Inventories | 7 | (5) |
| Accounts payable | 11 | (30) |
| Net cash provided by operating activities | 1,831 | 1,790 |"""

BALANCE_SHEET = """OSPREY WORKS, INC. › CONSOLIDATED BALANCE SHEETS
(Amounts in millions)
|  | At December 31, 2031 | At December 31, 2030 |
|---|---|---|
| Current assets: |  |  |
| Cash and cash equivalents | $5,794 | $4,225 |
| Accounts receivable, net | 1,144 | 1,060 |
| Inventories, net | 32 | 43 |
| Total current assets | 7,292 | 5,990 |
| Non-current assets: |  |  |
| Property and equipment, net | 253 | 282 |
| Total non-current assets | 11,695 | 11,300 |
| Total assets | 18,987 | 17,290 |
| Current liabilities: |  |  |
| Accounts payable | $292 | $253 |
| Total current liabilities | 2,915 | 2,600 |"""

LEASE = """OSPREY WORKS, INC. › Lease Financing Obligations
At December 31, 2031, the lease financing obligation balance was $29.0 million, the majority of which is recorded in
"Other non-current liabilities" on the Consolidated Balance Sheets."""

INVENTORY_NOTES = """OSPREY WORKS, INC. › Inventories
Foreign currency impacts decreased December 31, 2031 inventory by $154 million and divestitures decreased inventory by
$23 million.
At December 31, 2031, inventory included a benefit of $64 and Accrued liabilities included a balance of $106."""

DEFERRED_TAX = """OSPREY WORKS, INC. › Income Taxes
The tax effects of the temporary differences that gave rise to deferred tax assets and liabilities were as follows:
|  | December 31, 2031 | December 31, 2030 |
|---|---|---|
| Deferred tax liabilities |  |  |
| Acquired intangible assets | (212) | (180) |
| Depreciation and amortization | (67) | (49) |
| Total deferred tax liabilities | (279) | (229) |"""

OBLIGOR = """OSPREY WORKS, INC. › Supplemental Guarantor Information
Balance Sheet for Obligor Group
(in millions)
|  | As of December 31, 2031 |
|---|---|
| Current assets - external | $1,184 |
| Current assets - due from subsidiaries outside the Obligor Group | 190 |
| Total current assets | 1,374 |
| Total current liabilities | 4,476 |"""

AUDIT_REPORT = """OSPREY WORKS, INC. › Report of Independent Registered Public Accounting Firm
Basis for Opinion
These financial statements are the responsibility of the Company's management. Our responsibility is to express an
opinion on the Company's financial statements based on our audits.
We believe that our audits provide a reasonable basis for our opinion.
/s/ Harrow & Vale LLP
We have served as the Company's auditor since 1996.
Seattle, Washington
February 1, 2032"""

AUDIT_BASIS_ONLY = """OSPREY WORKS, INC. › Report of Independent Registered Public Accounting Firm
Basis for Opinion
These financial statements are the responsibility of the Company's management. Our responsibility is to express an
opinion on the Company's financial statements based on our audits.
We conducted our audits in accordance with the standards of the Public Company Accounting Oversight Board."""


def test_an_inventory_balance_is_the_balance_sheet_line_not_a_change_or_another_balance() -> None:
    question = "What was Osprey's inventory balance at the end of fiscal 2031?"
    for texts in ((CASH_FLOWS, BALANCE_SHEET), (BALANCE_SHEET, CASH_FLOWS), (LEASE, BALANCE_SHEET),
                  (INVENTORY_NOTES, BALANCE_SHEET)):
        head = _head(question, *texts)
        assert "$32 million" in head and "December 31, 2031" in head, head
    # a lease obligation's "balance" is no inventory: not stated as the answer
    assert "The documents say $29.0 million" not in _head(question, LEASE)
    head = _head(question, INVENTORY_NOTES)  # a change of the inventory and a part of it: neither is stated as it
    assert not head.startswith("The documents say $154") and not head.startswith("The documents say $106"), head


def test_a_change_verb_before_its_object_and_a_named_part_are_no_level() -> None:
    sentence = "Foreign currency impacts decreased December 31, 2031 inventory by $154 million."
    assert change_only_factor(sentence, "$154 million") < 1.0
    assert part_only_factor("At December 31, 2031, inventory included a benefit of $64.", "$64") < 1.0
    assert part_only_factor("Inventories were $4,366 million at December 31, 2031.", "$4,366 million") == 1.0


def test_depreciation_and_amortization_is_not_the_deferred_tax_line_of_that_name() -> None:
    for texts in ((DEFERRED_TAX, CASH_FLOWS), (CASH_FLOWS, DEFERRED_TAX)):
        head = _head("How much depreciation and amortization did Osprey record in fiscal 2031?", *texts)
        assert "$328 million" in head, head
    # asked of the deferred taxes, the table is the answer
    head = _head("What was Osprey's deferred tax liability for depreciation and amortization at December 31, 2031?",
                 DEFERRED_TAX, CASH_FLOWS)
    assert "67" in head, head


def test_the_current_ratio_divides_current_assets_of_the_consolidated_balance_sheet() -> None:
    assert "current" not in match_terms("Total non-current assets")
    for texts in ((BALANCE_SHEET,), (OBLIGOR, BALANCE_SHEET)):
        head = _head("What was Osprey's current ratio at the end of fiscal 2031?", *texts)
        assert head.startswith("The current ratio was 2.50"), head  # 7,292 / 2,915
    head = _head("What was Osprey's current ratio at the end of fiscal 2031?", OBLIGOR)
    assert "0.31" not in head, head  # the obligor group's 1,374 / 4,476 is not the company's


def test_the_auditor_is_the_firm_that_signed_the_report() -> None:
    for question in ("Who audits Osprey's financial statements?", "Who is Osprey's auditor?",
                     "Which accounting firm is Osprey's independent auditor?"):
        head = _head(question, AUDIT_BASIS_ONLY, AUDIT_REPORT)
        assert "Harrow & Vale LLP" in head and "[S2]" in head, (question, head)
    # management's report says who audited, too
    assert firm_in("The Company's internal control over financial reporting has been audited by Dunmore Quay LLP, an "
                   "independent registered public accounting firm.") == "Dunmore Quay LLP"
    assert firm_in("Revenue grew 8% at Dunmore Quay LLP's clients.") == ""  # no auditing sentence
    # a report without its signature names no firm: the reader says it is not sure, it names no heading as one
    head = _head("Who audits Osprey's financial statements?", AUDIT_BASIS_ONLY)
    assert not head.startswith("The documents say"), head


def test_an_auditor_question_searches_for_the_reports_signature() -> None:
    queries = search_queries("Who audits Osprey's financial statements?")
    assert len(queries) == 2 and "auditor since" in queries[1] and "Osprey" in queries[1], queries
    assert len(search_queries("What was Osprey's revenue in 2031?")) >= 1
    assert not any("auditor since" in s for s in search_queries("What was Osprey's revenue in 2031?"))


TWO_TABLES = """OSPREY WORKS, INC. › NOTE 16. SUPPLEMENTAL INFORMATION
| In Millions | May 26, 2031 | May 27, 2030 |
|---|---|---|
| Other noncurrent liabilities: |  |  |
| Accrued taxes | 227.1 | 265.3 |
| Total | $1,448.9 | $1,341.0 |
| Certain Consolidated Statements of Earnings amounts are as follows: |  |  |
| In Millions | 2029 | 2030 | 2031 |
| Depreciation and amortization | $603.6 | $618.8 | $620.1 |
| Research and development expense | 218.2 | 219.1 | 221.9 |"""


def test_a_grid_holding_a_second_table_reads_its_columns_from_its_own_header() -> None:
    head = _head("How much did Osprey spend on research and development in fiscal 2031?", TWO_TABLES)
    assert "$221.9 million" in head and "May 26" not in head, head
    head = _head("What were Osprey's accrued taxes at the end of fiscal 2031?", TWO_TABLES)
    assert "$227.1 million" in head, head


CERTIFICATION = """OSPREY WORKS, INC. › Exhibit 32 › CERTIFICATIONS OF CHIEF EXECUTIVE AND CHIEF FINANCIAL OFFICERS
In connection with the Annual Report of Osprey Works, Inc. on Form 10-K for the year ended December 31, 2031,
I, Dana K. Whitfield, Chief Executive Officer of the Company, certify that the Report fully complies with the law.
/s/ Dana K. Whitfield
Dana K. Whitfield
Chairman and Chief Executive Officer
/s/ Omar Reyes
Omar Reyes
Executive Vice President and Chief Financial Officer"""

CONTROLS = """OSPREY WORKS, INC. › Disclosure Controls and Procedures
Under the supervision of our Chief Executive Officer and Chief Financial Officer, management evaluated our disclosure
controls. Based on that evaluation, our Chief Executive Officer and Chief Financial Officer concluded that they were
effective."""

OFFICERS = """OSPREY WORKS, INC. › Information About Our Executive Officers
| Name | Age | Position |
|---|---|---|
| Lena Okafor | 65 | Executive Chairman of the Board 2031 Chairman of the Board and Chief Executive Officer, 2024-2031 |
| Dana K. Whitfield | 52 | Chief Executive Officer |"""


def test_an_officer_is_the_name_the_office_follows() -> None:
    for texts in ((CONTROLS, CERTIFICATION), (CONTROLS, OFFICERS)):
        head = _head("Who is Osprey's chief executive officer?", *texts)
        assert head.startswith("The documents say Dana K. Whitfield"), head
    head = _head("Who was Osprey's CFO when it filed its fiscal 2031 annual report?", CONTROLS, CERTIFICATION)
    assert head.startswith("The documents say Omar Reyes"), head
    # a former chief executive (2024-2031) is not the one now; the controls paragraph names no one: never sure
    assert "Lena Okafor" not in _head("Who is Osprey's chief executive officer?", OFFICERS)
    assert not _head("Who is Osprey's chief executive officer?", CONTROLS).startswith("The documents say")
    queries = search_queries("Who is Osprey's chief executive officer?")
    assert any("certify" in q and "Osprey" in q for q in queries[1:]), queries


PROPERTIES = """OSPREY WORKS, INC. › Item 2. Properties
In 2029, Osprey acquired all of the outstanding shares of Tern Labs, headquartered in Tromsø, Norway.
Our corporate headquarters are located in Duluth, Minnesota and consist of leased space of approximately 300,000
square feet. We also lease an office complex in Lyon, France, our headquarters for our Europe geography."""


def test_the_headquarters_are_the_companys_own_not_an_acquired_business() -> None:
    head = _head("Where is Osprey headquartered?", PROPERTIES)
    assert head.startswith("The documents say Duluth, Minnesota"), head
    head = _head("Where is Osprey headquartered?", PROPERTIES.replace("Our corporate headquarters are located in "
                                                                      "Duluth, Minnesota and consist", "We consist"))
    assert not head.startswith("The documents say"), head  # Tromsø is Tern Labs', Lyon a region's


EQUITY = """OSPREY WORKS, INC. › Consolidated Balance Sheet
(Dollars in millions, except per share amount)
| (Dollars in millions, except per share amount) | December 31, 2031 | December 31, 2030 |
|---|---|---|
| Shares outstanding - 2030: 594,884,237 |  |  |
| Retained earnings | 40,636 | 39,115 |
| Treasury stock | (29,626) | (25,887) |
| Total equity | $9,848 | $11,622 |"""

DEFICIT = """OSPREY WORKS, INC. › Consolidated Balance Sheets
(In thousands)
|  | December 31, 2031 | December 31, 2030 |
|---|---|---|
| Additional paid-in capital | 1,246,675 | 1,117,602 |
| Accumulated deficit | (779,239) | (608,118) |
| Total stockholders' equity | 467,436 | 509,484 |"""

FOOTER = """OSPREY WORKS, INC. › CONSOLIDATED STATEMENTS OF SHAREHOLDERS' EQUITY › Recently Adopted Accounting Standards
The adoption resulted in adjustments to Retained earnings, Deferred income taxes and other assets and Prepaid
2031 FORM 10-K 68
expenses of $507 million, $422 million and $45 million, respectively."""


def test_retained_earnings_or_the_deficit_of_the_balance_sheet() -> None:
    head = _head("What were Osprey's retained earnings at the end of fiscal 2031?", FOOTER, EQUITY)
    assert head.startswith("Retained earnings were $40,636 million"), head  # no "68" of the page footer, no shares
    head = _head("What were Osprey's retained earnings at the end of fiscal 2031?", DEFICIT)
    assert "(779,239)" in head and "Accumulated deficit" in head, head


UNRECOGNIZED = """OSPREY WORKS, INC. › Stock Compensation Plans
At December 31, 2031, there was $98 million of unrecognized compensation expense related to nonvested awards."""


def test_unrecognized_compensation_is_not_the_expense_recognized() -> None:
    head = _head("How much stock-based compensation expense did Osprey recognize in fiscal 2031?", UNRECOGNIZED)
    assert not head.startswith("The documents say $98 million"), head


CASH_SUMMARY = """OSPREY WORKS, INC. › Cash Flows from Operating Activities
(Millions)
|  | Years ended December 31 / 2031 | 2030 |
|---|---|---|
| Net income including noncontrolling interest | $5,363 | $4,869 |
| Accounts receivable | (305) | (245) |
| Net cash provided by operating activities | $6,439 | $6,240 |"""

RECEIVABLES = """OSPREY WORKS, INC. › Consolidated Balance Sheet
(Dollars in millions)
|  | December 31, 2031 | December 31, 2030 |
|---|---|---|
| Accounts receivable — net of allowances of $95 and $103 | 5,020 | 4,911 |
| Total current assets | 13,709 | 14,277 |"""


def test_a_balance_is_not_a_row_of_the_cash_flow_statement() -> None:
    head = _head("What was Osprey's accounts receivable balance at the end of fiscal 2031?", CASH_SUMMARY, RECEIVABLES)
    assert "$5,020 million" in head, head
    # alone, the cash flow's change in receivables is shown as the closest evidence, never as the balance
    head = _head("What was Osprey's accounts receivable balance at the end of fiscal 2031?",
                 CASH_SUMMARY.replace("Cash Flows from Operating Activities", "Consolidated Statement of Cash Flows"))
    assert not head.startswith("Accounts receivable balance was"), head
