"""The cover check still runs after another page was read (issue 12, negatives): a statement page read for its
grid says nothing of whose filing it is, so a company's figure answered from it is still checked against the
document's cover page; a cover page read once is not asked for again. Made-up filings and questions."""

from __future__ import annotations

from chat.models.local import LocalModel
from chat.models.reader import Passage
from chat.models.reader.covers import covers_to_read
from chat.models.tool_format import format_page
from retrieval.types import Hit
from tests.chat.models.test_local_covers import MENTION, STATEMENT, _cover, _Page, _results, _run


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
    msg = await _run(LocalModel(), messages)
    uses = msg["content"]
    messages += [{"role": "assistant", "content": uses}, _results(uses, hits)]
    read_statement = {"type": "tool_use", "id": "toolu_statement", "name": "read_page",
                      "input": {"document_id": "doc-k", "page": 40}}
    messages += [{"role": "assistant", "content": [read_statement]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_statement",
                                               "content": format_page(_Page("doc-k", "annual-report-2021.pdf", 40,
                                                                            STATEMENT), "P1")}]}]
    msg = await _run(LocalModel(), messages)
    assert msg["stop_reason"] == "tool_use", msg
    [read_cover] = msg["content"]
    assert read_cover["name"] == "read_page" and read_cover["input"] == {"document_id": "doc-k", "page": 1}
    messages += [{"role": "assistant", "content": msg["content"]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": read_cover["id"],
                                               "content": format_page(_Page("doc-k", "annual-report-2021.pdf", 1,
                                                                            _cover("KESTREL MACHINE WORKS, INC.")),
                                                                      "P2")}]}]
    answer = await _run(LocalModel(), messages)
    assert answer["stop_reason"] == "end_turn"
    assert answer["content"][0]["text"].startswith("The documents don't say"), answer


async def _until_answer(question: str, hits: list[Hit], cover: str) -> tuple[list[dict], str]:
    """Ask ``question``; searches find ``hits`` (then nothing), page 1 of doc-k is ``cover``, other pages are the
    statement. Returns the tool uses asked for and the final text."""
    messages: list[dict] = [{"role": "user", "content": [{"type": "text", "text": question}]}]
    asked: list[dict] = []
    for round_ in range(8):
        msg = await _run(LocalModel(), messages)
        if msg["stop_reason"] != "tool_use":
            return asked, msg["content"][0]["text"]
        uses = msg["content"]
        asked += uses
        results = []
        for u in uses:
            if u["name"] == "read_page":
                page = int(u["input"]["page"])
                text = format_page(_Page("doc-k", "annual-report-2021.pdf", page, cover if page == 1 else STATEMENT),
                                   f"P{len(asked)}")
            else:
                text = _results([u], hits if round_ == 0 else [])["content"][0]["content"]
            results.append({"type": "tool_result", "tool_use_id": u["id"], "content": text})
        messages += [{"role": "assistant", "content": uses}, {"role": "user", "content": results}]
    raise AssertionError("no answer after eight rounds")


async def test_a_statement_whose_chunks_do_not_name_the_company_is_answered_once_its_cover_does() -> None:
    hits = [Hit(chunk_id="k:40", document_id="doc-k", file_name="annual-report-2021.pdf", page_start=40,
                page_end=40, text=STATEMENT, score=1.0)]
    asked, text = await _until_answer("What were Globex's total revenues in fiscal 2021 (in USD millions)?", hits,
                                      _cover("GLOBEX CORPORATION"))
    assert {"document_id": "doc-k", "page": 1} in [u["input"] for u in asked if u["name"] == "read_page"]
    assert "$8,412 million" in text.splitlines()[0], text
    asked, text = await _until_answer("What were Initech's total revenues in fiscal 2021 (in USD millions)?", hits,
                                      _cover("GLOBEX CORPORATION"))
    assert text.startswith("The documents don't say"), text
