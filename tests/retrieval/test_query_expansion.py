"""Domain query expansion: pure rules, lexicon loading, and the Retriever sending the expanded query."""

from __future__ import annotations

import json

import pytest

from retrieval.query_expansion import expand_query, load_lexicon
from retrieval.search import Retriever, build_retriever
from retrieval.types import Hit, SearchFilter
from store.config import Settings
from store.errors import ConfigError
from tests.retrieval.conftest import ToyEmbedder


def test_jargon_gets_the_statement_wording_appended_once() -> None:
    lex = load_lexicon("finance")
    q = "What is the FY2018 capex for 3M per the cash flow statement? Capital expenditure only."
    out = expand_query(q, lex)
    assert out.startswith(q + " ")
    assert "purchases of property plant and equipment" in out
    assert "consolidated statements of cash flows" in out
    assert out.count("purchases of property plant and equipment") == 1  # capex and "capital expenditure" share it


def test_query_without_jargon_is_unchanged_and_none_switches_off() -> None:
    assert expand_query("Who founded the company?", load_lexicon("finance")) == "Who founded the company?"
    assert load_lexicon("none") == ()
    assert load_lexicon("") == ()
    assert expand_query("capex", load_lexicon("none")) == "capex"


def test_korean_and_japanese_statement_names() -> None:
    lex = load_lexicon("finance")
    assert "영업활동" in expand_query("2023년 현금흐름표 요약", lex)
    assert "売上高" in expand_query("損益計算書の概要", lex)


def test_file_lexicon_is_added_and_bad_input_is_a_config_error(tmp_path) -> None:
    f = tmp_path / "lex.json"
    f.write_text(json.dumps({r"\bSLA\b": "service level agreement uptime"}), encoding="utf-8")
    lex = load_lexicon("none", f)
    assert expand_query("our SLA", lex) == "our SLA service level agreement uptime"
    with pytest.raises(ConfigError, match="unknown query lexicon"):
        load_lexicon("medicine")
    f.write_text(json.dumps(["not", "an", "object"]), encoding="utf-8")
    with pytest.raises(ConfigError, match="JSON object"):
        load_lexicon("none", f)
    f.write_text(json.dumps({"(unclosed": "x"}), encoding="utf-8")
    with pytest.raises(ConfigError, match="bad query-lexicon pattern"):
        load_lexicon("none", f)


class RecordingIndex:
    def __init__(self) -> None:
        self.queries: list[str] = []

    async def search(self, text, vector, flt, *, k=10, mode="hybrid") -> list[Hit]:
        self.queries.append(text)
        return []


class RecordingEmbedder(ToyEmbedder):
    def __init__(self) -> None:
        self.seen: list[str] = []

    def embed_query(self, text):
        self.seen.append(text)
        return super().embed_query(text)


async def test_retriever_sends_the_expanded_query_to_the_index_and_the_embedder() -> None:
    index, emb = RecordingIndex(), RecordingEmbedder()
    r = Retriever(emb, index, load_lexicon("finance"))  # type: ignore[arg-type]
    await r.search("net PP&E at year end", SearchFilter("p1"))
    assert "property plant and equipment net" in index.queries[0]
    assert emb.seen == index.queries


def test_build_retriever_reads_the_lexicon_settings(tmp_path) -> None:
    r = build_retriever(Settings(data_dir=tmp_path, query_expansion="none"), embedder=ToyEmbedder())
    assert r.lexicon == ()
    assert build_retriever(Settings(data_dir=tmp_path), embedder=ToyEmbedder()).lexicon  # finance by default


def test_a_question_naming_a_receipt_searches_for_what_receipts_print() -> None:
    lexicon = load_lexicon("receipts")
    for q in ("What is the total on the receipt?", "영수증의 합계는?", "領収書の金額は?"):
        expanded = expand_query(q, lexicon)
        assert expanded.startswith(q) and "total" in expanded and "합계" in expanded and "合計" in expanded
    assert expand_query("What was iPhone revenue?", lexicon) == "What was iPhone revenue?"
    assert "amount due" in expand_query("When is the invoice due?", lexicon)
    assert set(load_lexicon("finance,receipts")) >= set(lexicon)
