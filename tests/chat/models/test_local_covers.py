"""Whose filing answers? A company's line item found in another company's statement is declined once the cover
page shows whose filing it is; the company's own filing is answered. Made-up filings and questions."""

from __future__ import annotations

from chat.core.tools import cited_refs
from chat.models.reader import Passage, read
from chat.models.reader.covers import covers_to_read, foreign_documents
from chat.models.reader.queries import search_queries, statement_query
from chat.models.tool_format import format_page, format_search_results
from retrieval.types import Hit
from tests.chat.models.local_turns import PageStub, local_turn

STATEMENT = """CONSOLIDATED STATEMENTS OF OPERATIONS
(In millions, except per share data)
| | Year Ended December 31, / 2021 | Year Ended December 31, / 2020 |
|---|---|---|
| Total revenues | $ 8,412 | $ 7,905 |
| Operating income | 1,107 | 968 |
| Net income | $ 802 | $ 655 |"""
MENTION = ("Competition. We compete with Globex Corporation and other makers of industrial widgets on price, "
           "quality and delivery times.")


def _cover(company: str) -> str:
    return (f"UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\nFORM 10-K\n"
            f"ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n"
            f"For the fiscal year ended December 31, 2021\n{company}\n(Exact name of registrant as specified in its "
            f"charter)\nDelaware 36-0000000\n(State or other jurisdiction of incorporation) (I.R.S. Employer "
            f"Identification No.)\n100 Industrial Way, Springfield (Address of principal executive offices)")


def _results(uses: list[dict], hits: list[Hit]) -> dict:
    return {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": u["id"],
         "content": format_search_results(hits if i == 0 else [], 1 + i * len(hits))} for i, u in enumerate(uses)]}


async def _ask_with_cover(question: str, cover: str) -> tuple[dict, str]:
    hits = [Hit(chunk_id="k:40", document_id="doc-k", file_name="annual-report-2021.pdf", page_start=40,
                page_end=40, text=STATEMENT, score=1.0),
            Hit(chunk_id="k:12", document_id="doc-k", file_name="annual-report-2021.pdf", page_start=12,
                page_end=12, text=MENTION, score=0.8)]
    messages: list[dict] = [{"role": "user", "content": [{"type": "text", "text": question}]}]
    msg = await local_turn(messages)
    uses = msg["content"]
    messages += [{"role": "assistant", "content": uses}, _results(uses, hits)]
    msg = await local_turn(messages)
    assert msg["stop_reason"] == "tool_use", msg
    [read_cover] = msg["content"]
    messages += [{"role": "assistant", "content": msg["content"]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": read_cover["id"],
                                               "content": format_page(PageStub("doc-k", "annual-report-2021.pdf", 1,
                                                                            cover, 90), "P1")}]}]
    answer = await local_turn(messages)
    assert answer["stop_reason"] == "end_turn"
    return read_cover, answer["content"][0]["text"]


async def test_another_companys_statement_is_declined_once_its_cover_page_is_read() -> None:
    read_cover, text = await _ask_with_cover("What were Globex's total revenues in fiscal 2021 (in USD millions)?",
                                             _cover("KESTREL MACHINE WORKS, INC."))
    assert read_cover["name"] == "read_page" and read_cover["input"] == {"document_id": "doc-k", "page": 1}
    assert text.startswith("The documents don't say") and cited_refs(text) == [], text


async def test_the_companys_own_statement_is_answered_after_its_cover_page() -> None:
    _, text = await _ask_with_cover("What were Globex's total revenues in fiscal 2021 (in USD millions)?",
                                    _cover("GLOBEX CORPORATION"))
    first = text.splitlines()[0]
    assert "$8,412 million" in first and "[S1]" in first, text


def test_covers_are_read_only_where_file_name_and_heads_do_not_name_the_company() -> None:
    own = [Passage("S1", "GLOBEX CORPORATION\n" + STATEMENT, "g", "report.pdf", 40)]
    by_file = [Passage("S1", STATEMENT, "g", "globex-10k-2021.pdf", 40)]
    other = [Passage("S1", STATEMENT, "k", "report.pdf", 40), Passage("S2", MENTION, "k", "report.pdf", 12)]
    assert covers_to_read(["Globex"], ["S1"], own) == []
    assert covers_to_read(["Globex"], ["S1"], by_file) == []
    assert covers_to_read(["Globex"], ["S1"], other) == ["k"]
    assert covers_to_read([], ["S1"], other) == []
    read_already = [*other, Passage("P1", _cover("KESTREL MACHINE WORKS, INC."), "k", "report.pdf", 1)]
    assert covers_to_read(["Globex"], ["S1"], read_already) == []
    assert foreign_documents(["Globex"], read_already) == {"k"}
    short_cover = [*other, Passage("P1", "Annual Report 2021", "k", "report.pdf", 1)]  # an image cover: unknown
    assert foreign_documents(["Globex"], short_cover) == set()


def test_the_reader_leaves_out_a_filing_whose_cover_names_someone_else() -> None:
    passages = [Passage("S1", STATEMENT, "k", "report.pdf", 40), Passage("S2", MENTION, "k", "report.pdf", 12),
                Passage("P1", _cover("KESTREL MACHINE WORKS, INC."), "k", "report.pdf", 1)]
    assert read("What was Globex's net income in fiscal 2021?", passages).declined
    assert not read("What was Kestrel Machine Works' net income in fiscal 2021?", passages).declined


def test_statement_questions_get_a_statement_words_query() -> None:
    query = statement_query("Assume you are an analyst. What were Globex's total revenues in FY2021 (in USD "
                            "millions)? Rely on the income statement.")
    assert "Globex" in query and "statements of operations" in query and "total revenues" in query
    assert "year ended" in query and "2021" in query
    assert "cash flows" in statement_query("How much did Globex pay in dividends in the first half of 2023 "
                                           "according to the cash flow statement?")
    assert statement_query("Who is the chief executive officer of Globex?") == ""
    assert statement_query("What is the total on the receipt?") == ""
    assert search_queries("What was Globex's net income in 2021?")[0] == "What was Globex's net income in 2021?"


async def test_a_ratio_of_another_company_is_declined_once_its_cover_page_is_read() -> None:
    """Not a line item of a statement but an amount of a named company (a ratio): the same check."""
    read_cover, text = await _ask_with_cover("What is Globex's operating margin for fiscal 2021?",
                                             _cover("KESTREL MACHINE WORKS, INC."))
    assert read_cover["input"] == {"document_id": "doc-k", "page": 1}
    assert text.startswith("The documents don't say") and cited_refs(text) == [], text
