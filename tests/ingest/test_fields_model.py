"""Claude's key fields (ingest/fields/model.py) with Bedrock analysis on: the tool schema in the page request,
validation (a value must be printed on the line it cites), and agreement with the rules — agreement raises the
confidence, disagreement sends the field to review with the reason ``sources_disagree``. Made-up receipts; the
model is the loopback fake Bedrock runtime (the real AsyncAnthropicBedrock client)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import date

import pytest

from chat.models.replies import Reply, ToolUse, reply_events
from ingest.analysis.bedrock import TOOL, TOOL_NAME, BedrockPageAnalyzer, to_layout
from ingest.fields.extract import document_fields
from ingest.fields.model import MODEL_PRIOR, merge, model_field, validated
from ingest.fields.rules import FieldRules, check
from ingest.pipeline import Pipeline
from ingest.results import fields_key, original_key
from ingest.worker import Worker
from store.review import ReviewStore
from store.workflows import NewDocument
from tests.chat.fake_bedrock import FakeBedrock
from tests.ingest.docfactory import text_pdf
from tests.ingest.test_analysis_bedrock import MODEL, _client
from tests.ingest.test_fields import seg

TODAY = date(2024, 6, 1)
LINES = [{"text": "KEDAI BUKU PELANGI SDN BHD", "bbox": [72, 60, 300, 74]},
         {"text": "Date: 03/04/2024", "bbox": [72, 80, 300, 94]},
         {"text": "TOTAL RM 42.80", "bbox": [72, 100, 300, 114]},
         {"text": "Call [PHONE_1]", "bbox": [72, 120, 300, 134]}]


@pytest.fixture
def fake() -> Iterator[FakeBedrock]:
    with FakeBedrock() as server:
        yield server


def test_the_page_tool_asks_for_fields_with_the_cited_line() -> None:
    props = TOOL["input_schema"]["properties"]["fields"]["items"]
    assert set(props["required"]) == {"kind", "value", "line"}
    assert "total" in props["properties"]["kind"]["enum"] and "normalized" in props["properties"]


def test_only_values_printed_on_the_cited_line_are_kept() -> None:
    raw = [{"kind": "total", "value": "42.80", "normalized": "42.8", "line": 2},
           {"kind": "date", "value": "03/04/2024", "normalized": "2024-04-03", "line": 1},  # the model's reading
           {"kind": "company", "value": "KEDAI BUKU PELANGI SDN BHD", "line": 0},
           {"kind": "subtotal", "value": "40.00", "line": 2},  # not on that line: invented
           {"kind": "tax", "value": "2.80", "line": 9},  # no such line
           {"kind": "cash", "value": "[PHONE_1]", "line": 3},  # a masked value
           {"kind": "colour", "value": "red", "line": 0},  # not a kind
           {"kind": "total", "value": "42.80", "line": 2}]  # a second total
    kept, dropped = validated(raw, LINES, 1)
    assert [(f["kind"], f["normalized"]) for f in kept] == [("total", "42.80"), ("date", "2024-04-03"),
                                                             ("company", "KEDAI BUKU PELANGI SDN BHD")]
    assert dropped == 5
    assert kept[0]["bbox"] == [72.0, 100.0, 300.0, 114.0] and kept[0]["currency"] == "MYR" and kept[0]["page"] == 1
    lay = to_layout({"blocks": [], "summary": "", "fields": raw}, {"page": 1, "lines": LINES}, MODEL)
    assert len(lay["fields"]) == 3 and lay["fields_dropped"] == 5


def _receipt(total_conf: float = 0.96) -> list:
    return document_fields([seg(["KEDAI BUKU PELANGI SDN BHD", ("Date:", "25/12/2023"), ("TOTAL", "RM 42.80")],
                                conf={2: total_conf})])


def _model(kind: str, value: str, normalized: str, conf: float = 0.99):
    return model_field({"kind": kind, "value": value, "normalized": normalized, "page": 1, "line": 2,
                        "bbox": [10, 40, 350, 54]}, conf)


def test_agreement_raises_the_confidence_over_the_amount_bar() -> None:
    rules = _receipt()
    alone = {f.name: f for f in rules}["total"]
    assert alone.confidence < 0.98 and "total" in {f.field for f in check(rules, FieldRules(), today=TODAY)}
    both = {f.name: f for f in merge(rules, [_model("total", "42.80", "42.80")])}
    t = both["total"]
    assert t.confidence > 0.98 and t.evidence["model"]["agrees"] and t.source == "ocr"
    assert "total" not in {f.field for f in check(list(both.values()), FieldRules(), today=TODAY)}


def test_disagreement_sends_the_field_to_review_with_the_reason() -> None:
    rules = _receipt(total_conf=0.999)
    both = merge(rules, [_model("total", "42.60", "42.60")])
    t = {f.name: f for f in both}["total"]
    assert t.confidence < {f.name: f for f in rules}["total"].confidence
    flags = [f for f in check(both, FieldRules(), today=TODAY) if f.field == "total"]
    why = {f.reason: f.detail for f in flags}
    assert "sources_disagree" in why and "42.60" in why["sources_disagree"]  # (and now under the bar, too)


def test_a_field_only_the_model_found_is_a_model_field_and_reviewed_when_it_is_an_amount() -> None:
    out = {f.name: f for f in merge(_receipt(), [_model("tax", "2.80", "2.80")])}
    tax = out["tax"]
    assert tax.source == "model" and tax.bbox == [10, 40, 350, 54]
    assert tax.confidence == pytest.approx(MODEL_PRIOR * 0.99)
    assert "tax" in {f.field for f in check(list(out.values()), FieldRules(), today=TODAY)}


def test_company_names_agree_regardless_of_punctuation_and_case() -> None:
    out = {f.name: f for f in merge(_receipt(), [_model("company", "Kedai Buku Pelangi Sdn. Bhd.",
                                                        "Kedai Buku Pelangi Sdn. Bhd.")])}
    assert out["company"].evidence["model"]["agrees"]


# --- through the pipeline ------------------------------------------------------------------------------------


def _answer(fields: list[dict]) -> list:
    return reply_events(Reply(ToolUse(TOOL_NAME, {"blocks": [], "summary": "A receipt.", "fields": fields})),
                        model=MODEL, message_id="m1", input_tokens=100)


async def test_pipeline_merges_the_models_fields_and_opens_a_review_item_when_they_disagree(
        settings, store, blobs, queue, indexer, clock, fake) -> None:
    rows = ["KEDAI BUKU PELANGI SDN BHD", "Date: 25/12/2023", "Sub Total 40.00", "Tax 2.80", "TOTAL 42.80"]
    pdf = text_pdf([rows])
    pid = store.create_project("alice", "P")["project_id"]
    key = original_key(pid, "d", ".pdf")
    blobs.put(key, pdf)
    created = store.create_workflow(NewDocument(
        owner="alice", project_id=pid, file_name="r.pdf", file_type="application/pdf", file_kind="pdf", file_key=key,
        file_uri="blob://" + key, size=len(pdf), sha256="b" * 64, page_count=1, language="en", priority="high"))
    queue.send({"workflow_id": created.workflow_id, "document_id": created.document_id, "project_id": pid},
               priority="high")
    # the model agrees on the total and the date, reads the company differently, finds nothing invented
    fake.push(_answer([{"kind": "total", "value": "42.80", "normalized": "42.80", "line": 4},
                       {"kind": "date", "value": "25/12/2023", "normalized": "2023-12-25", "line": 1},
                       {"kind": "company", "value": "PELANGI", "line": 0},
                       {"kind": "cash", "value": "50.00", "line": 4}]))
    s = settings.with_overrides(analysis_model="bedrock")
    pipeline = Pipeline(s, store, blobs, indexer, analysis_model=lambda: BedrockPageAnalyzer.from_settings(
        _client(fake), s))
    worker = Worker(store=store, queue=queue, pipeline=pipeline, settings=s, clock=clock)
    assert await asyncio.wait_for(worker.run_once(), 60) == "completed"
    assert "fields" in fake.requests[0].body["tools"][0]["input_schema"]["properties"]
    doc = json.loads(blobs.get(fields_key(created.workflow_id)))
    got = {f["name"]: f for f in doc["fields"]}
    assert got["total"]["evidence"]["model"]["agrees"] and got["date"]["evidence"]["model"]["agrees"]
    assert "cash" not in got  # "50.00" is not printed on line 4: dropped
    assert got["company"]["evidence"]["disagree"] == {"rules": "KEDAI BUKU PELANGI SDN BHD", "model": "PELANGI"}
    items = ReviewStore(store.items).list(pid, "open").items
    company = [i for i in items if i["field"] == "company"]
    assert company and any(r.startswith("sources_disagree") for r in company[0]["reasons"])
