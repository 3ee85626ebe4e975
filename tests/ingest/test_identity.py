"""Whose document it is, from its first pages (``ingest.steps.identity``), and the pipeline storing it."""

from __future__ import annotations

import pytest

from ingest.documents import Documents
from ingest.pipeline import Pipeline
from ingest.results import original_key
from ingest.steps.identity import (
    IDENTITY_READ,
    cover_identity,
    document_identity,
    identity_names,
    listed_symbols,
    with_listed_symbols,
)
from ingest.worker import Worker
from store.errors import NotFound
from store.workflows import NewDocument
from tests.ingest.docfactory import text_pdf

# a made-up registrant, laid out as SEC cover pages are (the form's fixed wording, not any filing's text)
QUARTERLY_COVER = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
FORM 10-Q
For the quarterly period ended March 31, 2031
Commission File Number: 001-99999
____________________________
Contoso Widgets, Inc.
(Exact name of registrant as specified in its charter)
Delaware 99-1234567
(State or other jurisdiction of incorporation) (I.R.S. Employer Identification No.)
1 Harbor Way, Springfield, Oregon 97000
(Address of principal executive offices)
(555) 010-2000
(Registrant's telephone number, including area code)
N/A
(Former name, former address and former fiscal year, if changed since last report)
Securities registered pursuant to Section 12(b) of the Act:
Title of each class Trading symbol(s) Name of each exchange on which registered
Common Stock, $0.001 par value per share CTSO The Nasdaq Stock Market LLC
Class B Common Stock, $0.001 par value CTSO.B The Nasdaq Stock Market LLC
2.500% Notes due 2035 — The Nasdaq Stock Market LLC
Indicate by check mark whether the registrant (1) has filed all reports required to be filed by Section 13"""


def _identity(pages: list[str]) -> dict[str, object]:
    """``document_identity`` without its ``read`` mark (checked: every identity carries the current one)."""
    out = document_identity(pages)
    assert out.pop("read") == IDENTITY_READ
    return out


def test_a_cover_page_gives_the_registrant_and_its_trading_symbols() -> None:
    assert _identity([QUARTERLY_COVER]) == {"company": "Contoso Widgets, Inc.", "tickers": ["CTSO", "CTSO.B"],
                                            "period_end": "2031-03-31", "period_kind": "quarter"}


def test_the_symbols_column_of_a_markdown_table_and_a_former_name() -> None:
    cover = """FORM 10-K
FABRIKAM HOLDINGS CORPORATION
(Exact name of registrant as specified in its charter)
Fabrikam Industries Corp.
(Former name, former address and former fiscal year, if changed since last report)

| Title of each class | Trading Symbol(s) | Name of each exchange on which registered |
|---|---|---|
| Class A Common Stock | FBKM | New York Stock Exchange |
| 1.250% Notes due 2040 | FBKM40 | New York Stock Exchange |

Indicate by check mark if the registrant is a well-known seasoned issuer."""
    assert _identity([cover]) == {"company": "FABRIKAM HOLDINGS CORPORATION", "tickers": ["FBKM"],
                                          "former_names": ["Fabrikam Industries Corp."]}


def test_an_older_cover_names_the_registrant_under_the_file_number() -> None:
    cover = """FORM 10-K
ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the fiscal year ended December 31, 2009
Commission file number 1-9999
NORTHWIND TRADERS COMPANY
State of Incorporation: Delaware I.R.S. Employer Identification No. 99-0000001"""
    assert _identity([cover]) == {"company": "NORTHWIND TRADERS COMPANY", "period_end": "2009-12-31",
                                  "period_kind": "year"}
    # a file number followed by prose is no name
    assert _identity(["Commission file number 1-9999\nthe following discussion relates to our"]) == {}


def test_a_name_behind_a_rule_on_the_file_number_line() -> None:
    cover = "Commission File Number 001-00001 ______________ TAILSPIN TOYS, INC.\n" \
            "(Exact name of registrant as specified in its charter) ______"
    assert _identity([cover])["company"] == "TAILSPIN TOYS, INC."


def test_a_press_release_dateline() -> None:
    release = ("Springfield, Oregon, May 2, 2031 – Contoso Widgets, Inc. (NYSE: CTSO) today reported results for the "
               "first quarter.")
    assert _identity([release]) == {"company": "Contoso Widgets, Inc.", "tickers": ["CTSO"],
                                    "period_end": "2031-05-02", "period_kind": "release"}
    # a sentence before the name is not part of it
    other = "Record sales in every region. Adatum Corporation (Nasdaq: ADTM) announced a dividend."
    assert _identity([other]) == {"company": "Adatum Corporation", "tickers": ["ADTM"]}


def test_documents_without_a_cover_name_nobody() -> None:
    receipt = "SHOP 24 MART\nNo. 5, Jalan Bukit\nTotal : 9.00\nCash 10.00\nThank you"
    article = "The river flooded the valley in the spring of 1921. The town rebuilt its bridge the next year."
    korean = "회사명: 주식회사 예시\n매출액 1,234억원"
    for text in (receipt, article, korean, ""):
        assert _identity([text]) == {}
    assert _identity([]) == {}
    assert document_identity([receipt]) == {"read": IDENTITY_READ}  # read, and nobody found


def test_the_symbols_table_ends_with_its_page() -> None:
    page1 = "Acme Rockets Inc.\n(Exact name of registrant as specified in its charter)\n" \
            "Title of each class Trading Symbol(s) Name of each exchange\nCommon Stock ACRK New York Stock Exchange"
    page2 = "Item 9.01 Exhibits\n104 The cover page, formatted in Inline XBRL"
    assert _identity([page1, page2]) == {"company": "Acme Rockets Inc.", "tickers": ["ACRK"]}


def test_only_the_first_pages_count() -> None:
    later = "Acme Rockets Inc.\n(Exact name of registrant as specified in its charter)"
    assert _identity(["Annual report", "Contents", later]) == {}
    assert cover_identity([{"text": "intro"}, {"text": later}]) == {"company": "Acme Rockets Inc.",
                                                                     "read": IDENTITY_READ}


def test_identity_names() -> None:
    assert identity_names({"company": "Contoso Widgets, Inc.", "tickers": ["CTSO"], "former_names": ["Contoso"]}) \
        == ["Contoso Widgets, Inc.", "Contoso", "CTSO"]
    assert identity_names({}) == [] and identity_names(None) == []


IDENTITY = {"company": "Contoso Widgets, Inc.", "tickers": ["CTSO", "CTSO.B"], "period_end": "2031-03-31",
            "period_kind": "quarter", "read": IDENTITY_READ}
SHOWN = {k: v for k, v in IDENTITY.items() if k != "read"}  # what a lookup returns: the storage mark left out


def _submit(store, blobs, queue, pages=None, file_name="q1.pdf"):
    """A made-up filing (by default the 10-Q cover and a page of results) uploaded and queued."""
    pages = pages or [QUARTERLY_COVER.splitlines()[:20], ["Net sales were 1,234 in the quarter."]]
    pid = store.create_project("alice", "P")["project_id"]
    data = text_pdf(pages)
    key = original_key(pid, "d", ".pdf")
    blobs.put(key, data)
    c = store.create_workflow(NewDocument(
        owner="alice", project_id=pid, file_name=file_name, file_type="application/pdf", file_kind="pdf",
        file_key=key, file_uri="blob://" + key, size=len(data), sha256="c" * 64, page_count=len(pages),
        language="en", priority="high"))
    queue.send({"workflow_id": c.workflow_id, "document_id": c.document_id, "project_id": pid}, priority="high")
    return pid, c


async def test_the_pipeline_stores_the_identity_before_the_document_is_searchable(
        settings, store, blobs, queue, indexer, clock) -> None:
    pid, c = _submit(store, blobs, queue)
    seen: list[object] = []
    real = indexer.index_keywords

    async def index_keywords(chunks):  # what the store says at the moment the document becomes searchable
        seen.append(store.document_identity(pid, c.document_id)[0])
        return await real(chunks)

    indexer.index_keywords = index_keywords
    pipeline = Pipeline(settings, store, blobs, indexer)
    assert await Worker(store=store, queue=queue, pipeline=pipeline, settings=settings, clock=clock).run_once() \
        == "completed"
    assert seen and seen[0] == IDENTITY
    assert store.document_identity(pid, c.document_id)[0] == IDENTITY


async def _processed(settings, store, blobs, queue, indexer, clock):
    """A made-up 10-Q submitted and processed to the end: (project id, its created workflow)."""
    pid, c = _submit(store, blobs, queue)
    pipeline = Pipeline(settings, store, blobs, indexer)
    assert await Worker(store=store, queue=queue, pipeline=pipeline, settings=settings, clock=clock).run_once() \
        == "completed"
    return pid, c


async def test_a_document_processed_before_identities_gets_one_on_first_lookup(
        settings, store, items, blobs, queue, indexer, clock) -> None:
    pid, c = await _processed(settings, store, blobs, queue, indexer, clock)
    items.update(f"PROJ#{pid}", f"DOC#{c.document_id}", remove=["identity"])  # as stored by an older version
    assert store.document_identity(pid, c.document_id)[0] is None
    documents = Documents(settings, store=store, blobs=blobs, queue=queue, index=indexer)
    assert await documents.document_identities("alice", {c.document_id: pid}) == {c.document_id: SHOWN}
    assert store.document_identity(pid, c.document_id)[0] == IDENTITY  # kept: the next lookup reads it
    assert await documents.document_identities("alice", {c.document_id: None}) == {c.document_id: SHOWN}
    with pytest.raises(NotFound):  # without a project, only the user's own documents are looked up
        await documents.document_identities("bob", {c.document_id: None})


async def test_a_document_not_segmented_yet_has_no_identity_and_none_is_stored(
        settings, store, blobs, queue, indexer) -> None:
    pid, c = _submit(store, blobs, queue)
    documents = Documents(settings, store=store, blobs=blobs, queue=queue, index=indexer)
    assert await documents.document_identities("alice", {c.document_id: pid}) == {c.document_id: {}}
    assert store.document_identity(pid, c.document_id)[0] is None  # its workflow stores it when it chunks


@pytest.mark.parametrize(("pages", "end", "kind"), [
    (["FORM 10-K\nFOR THE FISCAL YEAR ENDED MAY 29, 2031\nOR"], "2031-05-29", "year"),
    (["FORM 10-Q\nFor the Quarterly Period Ended\nDecember 31,\n2030\nor"], "2030-12-31", "quarter"),  # over lines
    (["For the fiscal year ended: Sept. 30, 2029"], "2029-09-30", "year"),
    (["FORM 8-K\nDate of Report (Date of earliest event reported): May 3, 2031\nContoso Widgets, Inc."],
     "2031-05-03", "report"),
    (["FORM 8-K\nAugust 19, 2031\n(Date of Report - Date of earliest event reported)"], "2031-08-19", "report"),
    (["March 9, 2031\nContoso Announces Fourth Quarter Results\nSPRINGFIELD--Contoso Widgets, Inc. (NASDAQ: CTSO) "
      "today announced results for the period ended January 28, 2031"], "2031-03-09", "release"),
])
def test_the_latest_date_a_document_speaks_of(pages: list[str], end: str, kind: str) -> None:
    found = document_identity(pages)
    assert (found.get("period_end"), found.get("period_kind")) == (end, kind)


def test_a_date_in_an_article_or_an_impossible_date_is_no_period() -> None:
    assert "period_end" not in document_identity(["The bridge opened on May 2, 1931 after two years of work."])
    assert "period_end" not in document_identity(["For the fiscal year ended Smarch 40, 2031"])
    assert "period_end" not in document_identity(["For the fiscal year ended February 30, 2031"])


async def test_an_identity_an_older_reading_stored_is_read_again_with_its_period(
        settings, store, items, blobs, queue, indexer, clock) -> None:
    pid, c = await _processed(settings, store, blobs, queue, indexer, clock)
    older = {"company": "Contoso Widgets, Inc.", "tickers": ["CTSO", "CTSO.B"]}  # no "read": the first reading
    items.update(f"PROJ#{pid}", f"DOC#{c.document_id}", set={"identity": older})
    documents = Documents(settings, store=store, blobs=blobs, queue=queue, index=indexer)
    assert await documents.document_identities("alice", {c.document_id: pid}) == {c.document_id: SHOWN}
    assert store.document_identity(pid, c.document_id)[0] == IDENTITY  # kept


def test_a_cover_whose_text_layer_breaks_at_every_word_still_names_its_registrant() -> None:
    """Some filings' text layers end a line after every word: "(Exact name of registrant" is then spread over
    lines, and the name is the words right before it, after the file number."""
    words = ("FORM 10-K For the fiscal year ended December 31, 2031 Commission File Number 001-99999 "
             "CONTOSO WIDGETS, INC. (Exact name of registrant as specified in its charter) Delaware 99-1234567")
    out = document_identity(["\n".join(words.split())])
    assert out["company"] == "CONTOSO WIDGETS, INC."
    assert out["period_end"] == "2031-12-31"
    no_file_number = "\n".join("Annual report ACME TOOLS CORP. (Exact name of registrant as specified)".split())
    assert document_identity([no_file_number])["company"] == "ACME TOOLS CORP."


async def test_a_listing_reads_again_an_identity_an_older_reading_stored(
        settings, store, items, blobs, queue, indexer, clock) -> None:
    """The listing decides which documents a question's company owns (the search by owner): a document whose
    identity an older reading stored (or none) is read again there, not only when a search happens to return it."""
    pid, c = await _processed(settings, store, blobs, queue, indexer, clock)
    items.update(f"PROJ#{pid}", f"DOC#{c.document_id}", set={"identity": {"read": 2}})  # an older reading: nobody
    documents = Documents(settings, store=store, blobs=blobs, queue=queue, index=indexer)
    listed = await documents.document_summaries("alice", [pid])
    assert listed[0]["identity"]["company"] == IDENTITY["company"]
    assert store.document_identity(pid, c.document_id)[0] == IDENTITY  # kept


# made-up listing sentences, in the forms 10-Ks word them (Item 1 / Item 5)
@pytest.mark.parametrize(("text", "company", "symbols"), [
    ("Our common stock is traded on the Nasdaq Global Select Market under the symbol “NWND.” Holders", "", ["NWND"]),
    ("The principal market for our common stock is the New York Stock Exchange where it trades under the symbol NW. "
     "As of February 1, 2031", "", ["NW"]),
    ("Our Class A common stock began trading on the NYSE under the symbol “TTOY” on May 3, 2029 .", "", ["TTOY"]),
    ("Our ordinary shares are traded on the NYSE under the ticker symbol FBKM, and our depositary instruments are "
     "traded on another exchange under the symbol FBK.", "", ["FBKM"]),
    ("The Company’s ticker symbol is NWT. As used herein", "NORTHWIND TRADERS COMPANY", ["NWT"]),
    ("Northwind’s stock ticker symbol is NWT and is listed on the New York Stock Exchange, Inc.",
     "NORTHWIND TRADERS COMPANY", ["NWT"]),
    ("The NYSE ticker symbol for Northwind Traders Company is “NWT”. As of December 31", "NORTHWIND TRADERS COMPANY",
     ["NWT"]),
    ("Common Stock, par value $.01 per share. Our common stock is traded under the symbol NWT.", "", ["NWT"]),
    # someone else's stock, notes, a word in lower case: no symbol of the company's
    ("The NYSE ticker symbol for Adatum Corporation is “ADTM”.", "NORTHWIND TRADERS COMPANY", []),
    ("Adatum’s common stock is traded under the symbol ADTM.", "NORTHWIND TRADERS COMPANY", []),
    ("the spun-off business, an independent publicly traded company, which is traded under the symbol “SPUN”.", "",
     []),
    ("Our Notes are listed on the New York Stock Exchange under the symbols “NWT31,” “NWT33A”.", "", []),
    ("Our stock is sold under the symbol of quality.", "", []),
])
def test_the_sentence_that_says_where_the_companys_stock_trades(text: str, company: str, symbols: list[str]) -> None:
    assert listed_symbols([text], company) == symbols


def test_the_listing_sentence_only_when_the_cover_names_no_symbol() -> None:
    later = ["Item 5. Market for Registrant's Common Equity",
             "Our common stock is traded on the New York Stock Exchange under the symbol “NWT.”"]
    assert with_listed_symbols({"company": "Northwind"}, later) == {"company": "Northwind", "tickers": ["NWT"]}
    assert with_listed_symbols({"company": "Northwind", "tickers": ["NWTX"]}, later)["tickers"] == ["NWTX"]
    assert with_listed_symbols({}, ["no listing here"]) == {}


OLDER_COVER = ["FORM 10-K", "For the fiscal year ended December 31, 2029", "Commission file number 1-9999",
               "NORTHWIND TRADERS COMPANY", "State of Incorporation: Delaware"]
LISTING_PAGE = ["Item 5. Market for the Registrant's Common Equity",
                "Our common stock is traded on the New York Stock Exchange under the symbol \"NWT.\" As of February 1,",
                "2030, there were 1,234 shareholders of record."]


async def test_an_older_10k_gets_its_symbol_from_the_listing_sentence(
        settings, store, items, blobs, queue, indexer, clock) -> None:
    """A 10-K before 2019 prints no symbols on its cover: the pipeline stores the one its Item 5 says, so a
    question that names the company by its ticker ("What was NWT's revenue?") finds its documents; a document an
    older reading stored without it gets it on its next lookup."""
    pid, c = _submit(store, blobs, queue, [OLDER_COVER, ["Contents"], LISTING_PAGE], "nwt.pdf")
    pipeline = Pipeline(settings, store, blobs, indexer)
    assert await Worker(store=store, queue=queue, pipeline=pipeline, settings=settings, clock=clock).run_once() \
        == "completed"
    stored = store.document_identity(pid, c.document_id)[0]
    assert stored["company"] == "NORTHWIND TRADERS COMPANY" and stored["tickers"] == ["NWT"]
    items.update(f"PROJ#{pid}", f"DOC#{c.document_id}", set={"identity": {"company": "NORTHWIND TRADERS COMPANY",
                                                                          "read": IDENTITY_READ - 1}})
    documents = Documents(settings, store=store, blobs=blobs, queue=queue, index=indexer)
    shown = await documents.document_identities("alice", {c.document_id: pid})
    assert shown[c.document_id]["tickers"] == ["NWT"]
    assert store.document_identity(pid, c.document_id)[0]["tickers"] == ["NWT"]  # kept
