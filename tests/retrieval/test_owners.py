"""Which documents a search query names by their owner (``retrieval.owners``): the cover's company, former names
and tickers, "&" initials, and a capitalised file-name head — and nothing that merely looks like one."""

from __future__ import annotations

import pytest

from retrieval.owners import asked_years, core_name, dated_documents, file_head, named_documents, names_document

BOEING = {"company": "THE BOEING COMPANY"}
BEST_BUY = {"company": "BEST BUY CO., INC.", "tickers": ["BBY"]}
JNJ = {"company": "Johnson & Johnson", "tickers": ["JNJ"]}
MGM = {"company": "MGM Resorts International", "tickers": ["MGM"]}
AMAZON = {"company": "AMAZON.COM, INC.", "tickers": ["AMZN"]}
TARGET = {"company": "Target Corporation", "tickers": ["TGT"]}
SQUARE = {"company": "Block, Inc.", "former_names": ["Square, Inc."], "tickers": ["SQ"]}


@pytest.mark.parametrize(("name", "core"), [
    ("The Boeing Company", ["Boeing"]), ("BEST BUY CO., INC.", ["BEST", "BUY"]), ("AMAZON.COM, INC.", ["AMAZON.COM"]),
    ("3M COMPANY", ["3M"]), ("Merck & Co., Inc.", ["Merck"]), ("Johnson & Johnson", ["Johnson", "and", "Johnson"]),
    ("Costco Wholesale Corporation", ["Costco", "Wholesale"]),
])
def test_the_core_of_a_name_drops_its_legal_form(name: str, core: list[str]) -> None:
    assert core_name(name) == core


@pytest.mark.parametrize(("file_name", "head"), [
    ("BESTBUY_2023_10K.pdf", "BESTBUY"), ("JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf", "JOHNSON_JOHNSON"),
    ("3M_2018_10K.pdf", "3M"), ("AMCOR_2023Q4_EARNINGS.pdf", "AMCOR"),
    ("Pfizer_2023Q2_10Q.pdf", ""), ("report_2023.pdf", ""), ("Annual Report.pdf", ""), ("2023_10K.pdf", ""),
])
def test_a_file_name_head_counts_only_in_capitals(file_name: str, head: str) -> None:
    assert file_head(file_name) == head


@pytest.mark.parametrize(("query", "file_name", "identity"), [
    ("Has Boeing reported any materially important legal battles from FY2022?", "doc.pdf", BOEING),
    ("Are Best Buy's gross margins historically consistent?", "doc.pdf", BEST_BUY),
    ("best buy gross margin fiscal 2023", "doc.pdf", BEST_BUY),  # two words: any case
    ("BBY revenue FY2023", "doc.pdf", BEST_BUY),  # ticker
    ("Which segment of JnJ will be treated as a discontinued operation?", "doc.pdf", JNJ),
    ("J&J reported sales Q2 2023", "doc.pdf", JNJ),
    ("short term investments for MGM in H1 FY2023", "doc.pdf", MGM),
    ("Amazon's net sales in 2019", "doc.pdf", AMAZON),
    ("Amazon.com net sales", "doc.pdf", AMAZON),
    ("Square's revenue in 2020", "doc.pdf", SQUARE),  # a former name
    ("3M's net PP&E in FY2018", "3M_2018_10K.pdf", None),  # file-name head, no identity read
    ("Amcor adjusted EPS fiscal 2023", "AMCOR_2023Q4_EARNINGS.pdf", {}),
    ("Best Buy stores at the end of Q2", "BESTBUY_2024Q2_10Q.pdf", {}),
    ("Johnson & Johnson sales", "JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf", {}),
    # a short form cut from the name's words
    ("Does AMEX have an improving operating margin?", "doc.pdf", {"company": "American Express Company"}),
    ("Which of JPM's segments had the lowest net revenue?", "doc.pdf", {"company": "JPMorgan Chase & Co."}),
    # a one-word name without the "Co" glued to it
    ("What was Pepsi's net revenue in Q1?", "doc.pdf", {"company": "PepsiCo, Inc."}),
    ("Pepsi net revenue", "PEPSICO_2031Q1_EARNINGS.pdf", {}),
])
def test_a_query_names_the_documents_owner(query: str, file_name: str, identity: dict[str, object] | None) -> None:
    assert names_document(query, file_name, identity)


@pytest.mark.parametrize(("query", "file_name", "identity"), [
    ("what is the target price of the bonds?", "doc.pdf", TARGET),  # a one-word name in lower case is a word
    ("Boeing's tax rate", "doc.pdf", BEST_BUY),
    ("R&D expense and S&P 500 performance", "doc.pdf", {"company": "Simon Property Group, Inc."}),
    ("G&A expenses in 2022", "GENERAL_ATOMICS_2022.pdf", {}),  # initials count only for a name with "&"
    ("What were total revenues in the report?", "report_2023.pdf", {}),  # a lower-case file name is no owner
    ("Best practices for revenue recognition", "BESTBUY_2023_10K.pdf", {}),  # part of a head is not the head
    ("FY2022 revenue and EPS", "doc.pdf", {"company": "Fy Holdings", "tickers": ["FY"]}),
     # "FY2022", a word
    ("net sales of the quarter", "doc.pdf", {}),
    # a finance term's capitals are no short form, nor are bare initials (the tickers cover those)
    ("Apple's EPS and EBITDA under GAAP", "doc.pdf", {"company": "Epsilon Energy Ltd."}),
    ("ASC 842 lease accounting", "doc.pdf", {"company": "Ascena Retail Group, Inc."}),
    ("AE revenue", "doc.pdf", {"company": "American Express Company"}),  # bare initials: a ticker's case
    ("AMEXO revenue", "doc.pdf", {"company": "American Express Company"}),
    ("pepsi net revenue", "doc.pdf", {"company": "PepsiCo, Inc."}),  # one word in lower case is a word
    ("Dis revenue", "doc.pdf", {"company": "DisCo Holdings"}),  # too short a stem
])
def test_no_owner_is_read_into_ordinary_words(query: str, file_name: str, identity: dict[str, object] | None) -> None:
    assert not names_document(query, file_name, identity)


def test_named_documents_keeps_the_listing_order_and_every_document_of_the_owner() -> None:
    docs = [{"document_id": "a", "file_name": "BOEING_2018_10K.pdf", "identity": BOEING},
            {"document_id": "b", "file_name": "LOCKHEED_2021_10K.pdf", "identity": {"company": "Lockheed Martin Corp"}},
            {"document_id": "c", "file_name": "BOEING_2022_10K.pdf", "identity": None},
            {"document_id": "", "file_name": "BOEING.pdf"}]
    assert named_documents("Boeing legal proceedings 2022", docs) == ["a", "c"]
    assert named_documents("Compare Boeing and Lockheed Martin backlog", docs) == ["a", "b", "c"]
    assert named_documents("backlog at year end", docs) == []


def test_the_years_a_query_asks_and_the_filings_of_those_years() -> None:
    assert asked_years("Net sales in fiscal 2019 vs FY22 (as of December 31, 2020)?") == {2019, 2020, 2022}
    assert asked_years("revenue of $2,019 million, up 2.5%") == set()
    docs = [{"document_id": f"d{y}", "file_name": f"ACME_{y}_10K.pdf",
             "identity": {"company": "Acme Corp", "period_end": f"{y}-06-30", "period_kind": "year"}}
            for y in (2021, 2022)]
    docs.append({"document_id": "old", "file_name": "ACME_10K.pdf", "identity": {"company": "Acme Corp"}})
    named = named_documents("Acme net sales in fiscal 2022", docs)
    assert named == ["d2021", "d2022", "old"]
    assert dated_documents("Acme net sales in fiscal 2022", docs, named) == ["d2022"]
    assert dated_documents("Acme net sales", docs, named) == []  # no year asked
    assert dated_documents("Acme net sales in 2019", docs, named) == []  # no filing of that year


def test_a_fiscal_year_asked_takes_the_filings_its_naming_may_give_it() -> None:
    def doc(doc_id: str, end: str, kind: str) -> dict[str, object]:
        return {"document_id": doc_id, "file_name": f"ACME_{doc_id}.pdf",
                "identity": {"company": "Acme Corp", "period_end": end, "period_kind": kind}}

    # a June year: the second quarter of fiscal 2023 ended December 31, 2022
    june = [doc("10q", "2022-12-31", "quarter"), doc("10k23", "2023-06-30", "year"), doc("10k21", "2021-06-30", "year")]
    named = [str(d["document_id"]) for d in june]
    assert dated_documents("Acme's restructuring liability as of Q2 of FY2023", june, named) == ["10q", "10k23"]
    assert dated_documents("Acme net sales in 2022", june, named) == ["10q"]
    # a retailer names its fiscal 2022 for the year it began in: it ended January 28, 2023
    retail = [doc("fy21", "2022-01-29", "year"), doc("fy22", "2023-01-28", "year"), doc("fy16", "2017-01-28", "year")]
    named = [str(d["document_id"]) for d in retail]
    assert dated_documents("Acme revenue in fiscal 2022", retail, named) == ["fy21", "fy22"]
    assert dated_documents("Acme revenue in 2023", retail, named) == ["fy22"]
