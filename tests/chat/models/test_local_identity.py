"""Whose filing answers, known from ingest: a passage's document identity (``company=`` on the tool result) names
the company, so no cover page needs reading; another company's identity does not count as a mention. Made-up
filings and questions."""

from __future__ import annotations

from chat.core.tools import cited_refs
from chat.models.local import passages_of
from chat.models.reader import Passage, read
from chat.models.reader.covers import covers_to_read
from chat.models.reader.names import mentions
from chat.models.tool_format import format_search_results, parse_results
from retrieval.types import Hit
from tests.chat.models.local_turns import local_turn
from tests.chat.models.test_local_covers import MENTION, STATEMENT, _results

GLOBEX = {"company": "GLOBEX CORPORATION", "tickers": ["GLBX"], "former_names": ["Globe Exports Inc."],
          "period_end": "2021-12-31", "period_kind": "year", "read": 2}
KESTREL = {"company": "KESTREL MACHINE WORKS, INC.", "tickers": ["KMW"]}


def _hits(doc: str) -> list[Hit]:
    return [Hit(chunk_id=f"{doc}:40", document_id=doc, file_name="annual-report-2021.pdf", page_start=40,
                page_end=40, text=STATEMENT, score=1.0),
            Hit(chunk_id=f"{doc}:12", document_id=doc, file_name="annual-report-2021.pdf", page_start=12,
                page_end=12, text=MENTION, score=0.8)]


def test_the_identity_travels_through_the_tool_result_into_the_passages() -> None:
    text = format_search_results(_hits("doc-g"), identities={"doc-g": GLOBEX})
    assert 'company="GLOBEX CORPORATION"' in text and 'tickers="GLBX"' in text
    parsed = parse_results(text)
    assert parsed[0]["company"] == "GLOBEX CORPORATION" and parsed[0]["tickers"] == ["GLBX"]
    assert parsed[0]["former_names"] == ["Globe Exports Inc."]
    [p, _] = passages_of(parsed)
    assert p.company.splitlines() == ["GLOBEX CORPORATION", "Globe Exports Inc.", "GLBX"]
    assert 'period_end="2021-12-31"' in text and p.period_end == "2021-12-31"  # the document's own date
    assert "period_kind" not in text and "read=" not in text  # bookkeeping stays out of what a model is shown
    bare = parse_results(format_search_results(_hits("doc-x")))  # no identity known: nothing invented
    assert bare[0]["company"] == "" and bare[0]["tickers"] == [] and passages_of(bare)[0].company == ""
    assert bare[0]["period_end"] == "" and passages_of(bare)[0].period_end == ""


def test_a_name_is_mentioned_by_the_documents_identity() -> None:
    own = Passage("S1", STATEMENT, "g", "report.pdf", 40, company="GLOBEX CORPORATION\nGLBX")
    other = Passage("S1", STATEMENT, "k", "report.pdf", 40, company="KESTREL MACHINE WORKS, INC.\nKMW")
    assert mentions("Globex", own) and mentions("GLBX", own)
    assert not mentions("Globex", other)
    assert covers_to_read(["Globex"], ["S1"], [own]) == []  # the identity says whose it is: no cover to read
    assert covers_to_read(["Globex"], ["S1"], [other]) == ["k"]  # someone else's by its identity: the cover decides


def test_the_reader_answers_from_the_named_companys_filing_and_declines_another_companys() -> None:
    own = [Passage("S1", STATEMENT, "g", "report.pdf", 40, company="GLOBEX CORPORATION"),
           Passage("S2", MENTION, "g", "report.pdf", 12, company="GLOBEX CORPORATION")]
    answer = read("What were Globex's total revenues in fiscal 2021 (in USD millions)?", own)
    assert not answer.declined and "$8,412 million" in answer.text.splitlines()[0]
    kestrel = [Passage("S1", STATEMENT, "k", "report.pdf", 40, company="KESTREL MACHINE WORKS, INC."),
               Passage("S2", "Kestrel makes machine tools.", "k", "report.pdf", 12,
                       company="KESTREL MACHINE WORKS, INC.")]
    assert read("What were Globex's total revenues in fiscal 2021 (in USD millions)?", kestrel).declined


async def test_no_cover_page_round_when_the_identity_names_the_company() -> None:
    question = "What were Globex's total revenues in fiscal 2021 (in USD millions)?"
    messages: list[dict] = [{"role": "user", "content": [{"type": "text", "text": question}]}]
    msg = await local_turn(messages)
    uses = msg["content"]
    result = _results(uses, _hits("doc-g"))
    for block in result["content"]:  # the tool runner shows the identity it has for each hit's document
        if "doc-g" in block["content"]:
            block["content"] = format_search_results(_hits("doc-g"), identities={"doc-g": GLOBEX})
    messages += [{"role": "assistant", "content": uses}, result]
    answer = await local_turn(messages)
    assert answer["stop_reason"] == "end_turn", answer  # answered at once: no read_page of the cover
    text = answer["content"][0]["text"]
    assert "$8,412 million" in text.splitlines()[0] and cited_refs(text) == ["S1"], text


def test_an_uncited_document_of_known_identity_costs_no_cover_round() -> None:
    """Only the cited document's cover is read when its identity names someone else; the other results' covers
    were read at ingest (their identity), so no round goes to them — a question over many filings kept every tool
    round busy with cover pages."""
    cited = Passage("S1", STATEMENT, "k", "report.pdf", 40, company="KESTREL MACHINE WORKS, INC.")
    others = [Passage(f"S{i}", STATEMENT, f"d{i}", "report.pdf", 40, company=f"OTHER {i} CORP") for i in range(2, 6)]
    unknown = Passage("S9", STATEMENT, "u", "report.pdf", 40)
    assert covers_to_read(["Globex"], ["S1"], [cited, *others, unknown]) == ["k", "u"]
