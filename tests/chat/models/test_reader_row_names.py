"""A capitalised word that qualifies the line item — a product, a segment, a region the statement prints as a row
("How much did Falcon revenue change?") — is not read as whose filing it is: the row is answered, no cover page
is read for it, and a company the passages do not carry still declines. Made-up filings and questions."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.covers import company_names
from chat.models.reader.question import analyze
from chat.models.tool_format import format_search_results
from retrieval.types import Hit
from tests.chat.models.local_turns import local_turn

BY_CATEGORY = """Kestrel Machine Works, Inc.
Net sales by category (dollars in millions)

| | Three Months Ended / March 30, 2024 | Three Months Ended / April 1, 2023 | Change |
|---|---|---|---|
| Falcon | $ 4,210 | $ 3,880 | 9 % |
| Osprey | 1,175 | 1,460 | (20)% |
| Services | 2,030 | 1,815 | 12 % |
| Total net sales | $ 7,415 | $ 7,155 | 4 % |"""

BY_CATEGORY_FLAT = """Note 2 – Revenue
Net sales disaggregated by significant products and services for the three months ended March 30, 2024 and
April 1, 2023 were as follows (in millions):
Three Months Ended
March 30,
2024
April 1,
2023
Falcon $ 4,210 $ 3,880
Osprey 1,175 1,460
Services 2,030 1,815
Total net sales $ 7,415 $ 7,155"""

COVER = ("UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\nFORM 10-Q\nQUARTERLY REPORT "
         "PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\nFor the quarterly period ended "
         "March 30, 2024\nKESTREL MACHINE WORKS, INC.\n(Exact name of registrant as specified in its charter)\n"
         "Delaware 36-0000000\n(State or other jurisdiction of incorporation) (I.R.S. Employer Identification No.)")


def _passages(table: str) -> list[Passage]:
    return [Passage("S1", table, "doc-k", "quarterly-report.pdf", 6),
            Passage("S2", COVER, "doc-k", "quarterly-report.pdf", 1)]


def test_a_row_label_the_question_capitalises_is_not_a_company() -> None:
    q = analyze("How much did Osprey revenue change year over year?")
    assert q.strong_names == ("Osprey",)  # by its shape alone it could be a company …
    assert company_names(q, _passages(BY_CATEGORY)) == ()  # … the statement prints it as a row
    assert company_names(q, _passages(BY_CATEGORY_FLAT)) == ()
    wide = [Passage("S1", BY_CATEGORY.replace("| Osprey |", "| Osprey, Kite and Accessories |"), "doc-k", "q.pdf", 6)]
    assert company_names(q, wide) == ()  # the label's opening words
    attributable = [Passage("S1", BY_CATEGORY.replace("| Osprey |", "| Net income attributable to Osprey |"),
                            "doc-k", "q.pdf", 6)]
    assert company_names(q, attributable) == ("Osprey",)  # a row that names a company after the item: still one
    tesla = analyze("How much did Tesla revenue change year over year?")
    assert company_names(tesla, _passages(BY_CATEGORY)) == ("Tesla",)


def test_the_rows_change_is_answered_not_the_total() -> None:
    for table in (BY_CATEGORY, BY_CATEGORY_FLAT):
        answer = read("How much did Osprey revenue change year over year?", _passages(table))
        first = answer.text.splitlines()[0]
        assert first.startswith("Osprey revenue was down 19.5%: $1,175 million in the three months ended March 30, "
                                "2024 vs $1,460 million"), first
        assert "[S1]" in first and not answer.declined
        [(ref, quote)] = answer.quotes
        assert ref == "S1" and "1,175" in quote and "Osprey" in quote


def test_in_the_quarter_is_the_period_not_part_of_the_line_item() -> None:
    q = analyze("What was Falcon revenue in the quarter?")
    assert q.focus == "Falcon revenue" and q.span == 3
    answer = read("What was Falcon revenue in the quarter?", _passages(BY_CATEGORY_FLAT))
    assert answer.text.startswith("Falcon revenue was $4,210 million in the three months ended March 30, 2024 [S1].")


def test_a_company_the_passages_do_not_carry_still_declines() -> None:
    answer = read("How much did Tesla revenue change year over year?", _passages(BY_CATEGORY))
    assert answer.declined and answer.text.startswith("The documents don't say"), answer.text


async def test_no_cover_page_is_read_for_a_row_label() -> None:
    """The embedded model reads a filing's cover when a company it is asked about is not in the file name or the
    heads; a product row is no such company: the answer comes from the search results, no cover read."""
    hit = Hit(chunk_id="k:6", document_id="doc-k", file_name="quarterly-report.pdf", page_start=6, page_end=6,
              text=BY_CATEGORY_FLAT, score=1.0)
    asked = "How much did Osprey revenue change year over year?"
    messages: list[dict] = [{"role": "user", "content": [{"type": "text", "text": asked}]}]
    for _ in range(4):
        msg = await local_turn(messages)
        if msg["stop_reason"] != "tool_use":
            break
        uses = msg["content"]
        assert not any(u["name"] == "read_page" and u["input"].get("page") == 1 for u in uses), uses
        messages += [{"role": "assistant", "content": uses},
                     {"role": "user", "content": [
                         {"type": "tool_result", "tool_use_id": u["id"],
                          "content": format_search_results([hit] if i == 0 else [], 1 + i)}
                         for i, u in enumerate(uses)]}]
    assert msg["stop_reason"] == "end_turn"
    first = msg["content"][0]["text"].splitlines()[0]
    assert "Osprey revenue was down 19.5%" in first and "[S1]" in first, first


def test_a_footnotes_mark_is_no_amount() -> None:
    """"(3) Services net sales include …" defines the line item; the amount is the table's cell."""
    footnote = ("(1) Products net sales include amortization of deferred revenue.\n"
                "(3) Services net sales include sales from advertising, cloud and payment services.")
    passages = [Passage("S1", footnote, "doc-k", "quarterly-report.pdf", 10),
                Passage("S2", BY_CATEGORY, "doc-k", "quarterly-report.pdf", 6)]
    answer = read("What were Services net sales?", passages)
    assert answer.text.startswith("Services net sales were $2,030 million in the three months ended March 30, 2024 "
                                  "[S2]."), answer.text


def test_a_capitalised_word_before_the_item_is_searched_in_the_breakdown() -> None:
    """"did Osprey revenue change": Osprey may be a product; the breakdown query carries it with the item's other
    names, so the by-category table is found (which of the two it is, the passages decide)."""
    from chat.models.reader.queries import breakdown_query, search_queries

    assert breakdown_query("How much did Osprey revenue change year over year?") == "Osprey revenue net sales sales"
    assert "Osprey revenue net sales sales" in search_queries("How much did Osprey revenue change year over year?")
    assert breakdown_query("How much did Kestrel's revenue change year over year?") == ""  # a company's total
