"""The cover check still runs after another page was read (issue 12, negatives): a statement page read for its
grid says nothing of whose filing it is, so a company's figure answered from it is still checked against the
document's cover page; a cover page read once is not asked for again. Made-up filings and questions."""

from __future__ import annotations

from chat.models.reader import Passage
from chat.models.reader.covers import covers_to_read
from chat.models.tool_format import format_page
from retrieval.types import Hit
from tests.chat.models.local_turns import PageStub, local_turn
from tests.chat.models.test_local_covers import MENTION, STATEMENT, _cover, _results


def test_a_statement_page_read_does_not_stop_the_cover_check() -> None:
    other = [Passage("S1", STATEMENT, "k", "report.pdf", 40), Passage("S2", MENTION, "k", "report.pdf", 12),
             Passage("P1", STATEMENT, "k", "report.pdf", 40)]
    assert covers_to_read(["Globex"], ["P1"], other) == ["k"]
    covered = [*other, Passage("P2", _cover("KESTREL MACHINE WORKS, INC."), "k", "report.pdf", 1)]
    assert covers_to_read(["Globex"], ["P1"], covered) == []


async def test_the_cover_page_is_read_after_a_statement_page_was_read() -> None:
    hits = [Hit(chunk_id="k:12", document_id="doc-k", file_name="annual-report-2021.pdf", page_start=12,
                page_end=12, text=MENTION, score=0.8)]
    question = "What were Globex's total revenues in fiscal 2021 (in USD millions)?"
    messages: list[dict] = [{"role": "user", "content": [{"type": "text", "text": question}]}]
    msg = await local_turn(messages)
    uses = msg["content"]
    messages += [{"role": "assistant", "content": uses}, _results(uses, hits)]
    read_statement = {"type": "tool_use", "id": "toolu_statement", "name": "read_page",
                      "input": {"document_id": "doc-k", "page": 40}}
    messages += [{"role": "assistant", "content": [read_statement]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_statement",
                                               "content": format_page(PageStub("doc-k", "annual-report-2021.pdf", 40,
                                                                            STATEMENT, 90), "P1")}]}]
    msg = await local_turn(messages)
    assert msg["stop_reason"] == "tool_use", msg
    [read_cover] = msg["content"]
    assert read_cover["name"] == "read_page" and read_cover["input"] == {"document_id": "doc-k", "page": 1}
    messages += [{"role": "assistant", "content": msg["content"]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": read_cover["id"],
                                               "content": format_page(PageStub("doc-k", "annual-report-2021.pdf", 1,
                                                                            _cover("KESTREL MACHINE WORKS, INC."), 90),
                                                                      "P2")}]}]
    answer = await local_turn(messages)
    assert answer["stop_reason"] == "end_turn"
    assert answer["content"][0]["text"].startswith("The documents don't say"), answer
