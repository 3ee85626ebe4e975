"""The local model searches for the statement's own page when the first results hold only tables that repeat its
figures (issue 12): once, and then answers. Made-up filing (Kestrel Retail)."""

from __future__ import annotations

from chat.models.tool_format import format_search_results
from retrieval.types import Hit
from tests.chat.models.local_turns import local_turn

SELECTED = """Kestrel Retail Inc. Item 6. Selected Financial Data
Consolidated Statements of Operations:
(in millions)
| (in millions) | Year ended January 31, / 2024 | Year ended January 31, / 2023 |
|---|---|---|
| Total revenues | $112,640 | $108,215 |"""


def _results(uses: list[dict], hits: list[Hit], first: int) -> dict:
    return {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": u["id"],
         "content": format_search_results(hits if i == 0 else [], first + i * len(hits))} for i, u in enumerate(uses)]}


async def test_the_statement_page_is_searched_for_once_then_the_answer_comes() -> None:
    hit = Hit(chunk_id="k:19", document_id="doc-k", file_name="KESTREL_2024_10K.pdf", page_start=19, page_end=19,
              text=SELECTED, score=1.0)
    messages: list[dict] = [{"role": "user", "content": [
        {"type": "text", "text": "What were Kestrel Retail's total revenues in fiscal 2024 (in USD millions)?"}]}]
    msg = await local_turn(messages)
    messages += [{"role": "assistant", "content": msg["content"]}, _results(msg["content"], [hit], 1)]
    msg = await local_turn(messages)
    assert msg["stop_reason"] == "tool_use", msg
    queries = [u["input"]["query"] for u in msg["content"]]
    assert all(u["name"] == "search_documents" for u in msg["content"])
    assert any("consolidated statements of income" in q and "total revenues" in q for q in queries), queries
    messages += [{"role": "assistant", "content": msg["content"]}, _results(msg["content"], [], 10)]
    msg = await local_turn(messages)
    searched_again = [u for u in msg["content"] if u.get("type") == "tool_use" and u["name"] == "search_documents"
                      and "consolidated statements" in u["input"].get("query", "")]
    assert not searched_again
