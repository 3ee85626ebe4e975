"""A line item narrowed by a word of its own ("Widget revenue") is printed in a breakdown table that may call the
item by another name ("net sales"): the local model searches that wording too. Made-up filing and questions."""

from __future__ import annotations

import re

from chat.core.tools import cited_refs
from chat.models.reader.queries import breakdown_query, search_queries
from chat.models.tool_format import format_page, format_search_results
from retrieval.types import Hit
from tests.chat.models.local_turns import PageStub, local_turn

PROSE = ("Widgets\nWidget revenue decreased during the year compared to the prior year, a change driven over the "
         "year by lower demand for widgets in Europe and how much of the demand moved to gadgets.")
BREAKDOWN = ("Note 2 - Revenue\nNet sales disaggregated by product for the years ended December 31, 2022 and 2021 "
             "were as follows (in millions):\n| | Year Ended / December 31, 2022 | Year Ended / December 31, 2021 |\n"
             "|---|---|---|\n| Widgets | $5,200 | $6,500 |\n| Gadgets | 3,100 | 2,900 |\n"
             "| Total net sales | $8,300 | $9,400 |")
STATEMENT = ("CONSOLIDATED STATEMENTS OF OPERATIONS\n(In millions)\n| | Year Ended / December 31, 2022 | Year Ended / "
             "December 31, 2021 |\n|---|---|---|\n| Net sales | $8,300 | $9,400 |\n| Net income | $700 | $650 |")
CHUNKS = {12: PROSE, 30: BREAKDOWN, 28: STATEMENT}
_STOP = {"how", "much", "did", "the", "what", "was", "were", "over", "year"}


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 2 and w not in _STOP}


def _search(query: str) -> list[Hit]:
    """Keyword search over the filing's three chunks: the best one only (a crowded project's top hit)."""
    scored = sorted(((len(_words(query) & _words(text)), page) for page, text in CHUNKS.items()), reverse=True)
    score, page = scored[0]
    return [Hit(chunk_id=f"d:{page}", document_id="doc", file_name="widgets-10k.pdf", page_start=page,
                page_end=page, text=CHUNKS[page], score=1.0)] if score else []


async def _ask(question: str) -> str:
    messages: list[dict] = [{"role": "user", "content": [{"type": "text", "text": question}]}]
    refs = 0
    for _ in range(8):
        msg = await local_turn(messages)
        if msg["stop_reason"] != "tool_use":
            return str(msg["content"][0]["text"])
        results = []
        for use in msg["content"]:
            if use["name"] == "search_documents":
                hits = _search(use["input"]["query"])
                content = format_search_results(hits, refs + 1)
                refs += len(hits)
            else:
                page = int(use["input"]["page"])
                content = format_page(PageStub("doc", "widgets-10k.pdf", page, CHUNKS.get(page, ""), 60),
                                      f"P{page}")
            results.append({"type": "tool_result", "tool_use_id": use["id"], "content": content})
        messages += [{"role": "assistant", "content": msg["content"]}, {"role": "user", "content": results}]
    raise AssertionError("no answer after eight turns")


def test_a_narrowed_line_item_gets_a_query_in_its_other_names() -> None:
    query = breakdown_query("How much did widget revenue change year over year?")
    assert "widget revenue" in query and "net sales" in query
    assert "year ended" in breakdown_query("What was cloud segment revenue in fiscal 2022?")
    # no narrowing word, or no line item: the question and the statement query are enough
    assert breakdown_query("What was total revenue in 2022?") == ""
    assert breakdown_query("Who is the chief executive officer?") == ""
    assert breakdown_query("What is the total on the receipt?") == ""
    assert len(search_queries("How much did widget revenue change year over year?")) == 3


async def test_the_breakdown_row_answers_a_narrowed_change_question() -> None:
    text = await _ask("How much did widget revenue change year over year?")
    assert "$5,200" in text and "$6,500" in text, text
    assert "down 20" in text, text
    assert cited_refs(text), text
