"""``docchat eval answers``: scoring (numbers, dates, KorQuAD spans, declines), the report, the generated PDFs,
the evaluation-data loaders, and one run end to end through the real in-process service and LocalModel."""

from __future__ import annotations

import asyncio
import importlib.util
import io
import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from chat.cli.main import build_parser, main
from chat.evaluation import run as eval_run
from chat.evaluation.catalog import load
from chat.evaluation.datasets import EvalDataset, EvalDocument, EvalQuestion
from chat.evaluation.pdfgen import layout_lines, unicode_pdf, write_unicode_pdf
from chat.evaluation.report import Outcome, is_correct, row_plan, summarise, summarise_row, table_rows
from chat.evaluation.scoring import (
    cited_on,
    date_in,
    first_sentence,
    is_declined,
    normalize_answer,
    number_in,
    parse_dates,
    parse_numbers,
    percentile,
    primary_number,
    span_in_first_sentence,
    text_in,
)
from store.config import Settings

EVALDATA = Path(__file__).resolve().parents[4] / "shared" / "evaldata"
needs_evaldata = pytest.mark.skipif(
    not EVALDATA.is_dir(), reason=f"evaluation data not found at {EVALDATA} (../shared/evaldata): loader tests skipped"
)


def _gold(text: str) -> Any:
    g = primary_number(text)
    assert g is not None, text
    return g


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize("answer", ["$117,154 million", "117.154 billion", "117154", "117,154", "US$ 117.2 billion"])
def test_an_amount_matches_whatever_its_commas_currency_and_scale(answer: str) -> None:
    assert number_in(_gold("$117,154 million"), answer)


@pytest.mark.parametrize("answer", ["117,155", "117.4 billion", "$2 billion", "117154%", "1,171.54"])
def test_a_different_amount_does_not_match(answer: str) -> None:
    assert not number_in(_gold("$117,154 million"), answer)


def test_a_bare_gold_in_millions_matches_a_stated_scale_but_two_bare_numbers_compare_as_written() -> None:
    gold = _gold("$1577.00")  # FinanceBench: USD millions
    assert number_in(gold, "capital expenditure was $1.577 billion") and number_in(gold, "(1,577)")
    assert number_in(gold, "about $1.6 billion")  # rounded, two significant digits kept
    assert not number_in(gold, "1.577") and not number_in(gold, "1,577.4")


def test_percentages_and_accounting_brackets() -> None:
    assert number_in(_gold("(8)%"), "margin fell -8%") and number_in(_gold("-8%"), "change (8)%")
    assert not number_in(_gold("-8%"), "grew 8%")  # an explicit minus is a sign
    assert number_in(_gold("1.9%"), "1.9 percent") and number_in(_gold("35.6%"), "about 36%")
    assert not number_in(_gold("35.6%"), "4%")  # a one-digit rounding says too little
    assert not number_in(_gold("RM9.00"), "9%")  # an amount is never a percentage


def test_years_dates_and_times_are_not_numbers() -> None:
    assert primary_number("Revenue in FY2022 and 2021 grew by 12%") == _gold("12%")
    assert primary_number("due 2026") is None and primary_number("by 1 percentage point") is None
    numbers = parse_numbers("25/12/2018 12:30 August 30, 2023 TOTAL RM9.00")
    assert [(n.value, n.currency) for n in numbers] == [(9.0, True)]
    assert [n.value for n in parse_numbers("FY2022 Q2 $20M 3.5억")] == [20.0, 3.5]
    assert parse_numbers("$20M")[0].scale == 1e6 and parse_numbers("3.5억")[0].scale == 1e8
    assert parse_numbers("\n- 100% owned")[0].value == 100.0  # a list dash is not a minus
    assert parse_numbers("-3.7")[0].value == -3.7


def test_text_golds_need_most_of_their_content_words() -> None:
    gold = "Trillium, Array, and Therachon"
    assert text_in(gold, "Pfizer acquired Array and Therachon, and also Trillium.")
    assert not text_in(gold, "Pfizer acquired Array.")


# --------------------------------------------------------------------------- dates, KorQuAD, declines


@pytest.mark.parametrize("gold", ["25/12/2018", "25-12-18", "25 DEC 2018", "2018-12-25"])
@pytest.mark.parametrize("answer", ["The date is 25/12/2018.", "December 25, 2018", "2018-12-25", "25 Dec 2018",
                                    "2018년 12월 25일", "2018年12月25日"])
def test_dates_are_compared_after_normalising_their_format(gold: str, answer: str) -> None:
    assert date_in(gold, answer)


def test_numeric_dates_read_day_first_unless_impossible() -> None:
    assert parse_dates("05/02/2018") == [(2018, 2, 5)]
    assert parse_dates("12/25/2018") == [(2018, 12, 25)]
    assert not date_in("05/02/2018", "2018-05-02") and not date_in("05/02/2018", "no date here")


def test_korquad_spans_are_normalised_like_the_official_scorer_and_must_be_in_the_first_sentence() -> None:
    assert normalize_answer(" 《노아의 방주》 (구약) ") == "노아의 방주 구약"
    assert span_in_first_sentence(["1989년 2월 15일"], "**1989년 2월 15일**입니다 [S1]. 다음 문장.")
    assert span_in_first_sentence(["임수경"], "- 임수경이 대표였다.")
    assert not span_in_first_sentence(["임수경"], "평양축전에 대표가 파견되었다. 대표는 임수경이다.")
    assert first_sentence("\n\nFirst one [S1]. Second.") == "First one ."


@needs_evaldata
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # the official script's invalid escapes
def test_korquad_normalisation_agrees_with_the_official_script() -> None:
    path = EVALDATA / "korquad_v1" / "evaluate-v1.0.py"
    spec = importlib.util.spec_from_file_location("korquad_eval", path)
    assert spec is not None and spec.loader is not None
    official = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(official)
    data = json.loads((EVALDATA / "korquad_v1" / "KorQuAD_v1.0_dev.json").read_text(encoding="utf-8"))["data"]
    answers = [a["text"] for article in data[:20] for p in article["paragraphs"] for q in p["qas"]
               for a in q["answers"]]
    samples = [*answers, "‘따옴표’ 〈책〉 <태그> \"인용\" (괄호) A.B,C!"]
    assert all(normalize_answer(s) == official.normalize_answer(s) for s in samples)


@pytest.mark.parametrize("text", [
    "The documents don't say what the total was.",
    "I found nothing in your documents that answers this question.",
    "The provided documents do not mention Boeing's 2019 revenue.",
    "문서에서 해당 내용을 찾을 수 없습니다.",
    "문서에서 이 질문에 답하는 내용을 찾지 못했습니다.",
    "資料にはその情報は見つかりません。",
])
def test_declines_are_detected_in_every_language(text: str) -> None:
    assert is_declined(text, citations=0)
    assert not is_declined(text, citations=1)  # an answer that cites a source claims an answer


@pytest.mark.parametrize("text", ["Revenue was $5 million [S1].", "총액은 9.00 링깃입니다.", ""])
def test_answers_are_not_declines(text: str) -> None:
    assert not is_declined(text, citations=0)


def test_citations_and_percentiles() -> None:
    assert cited_on([("a", 3), ("b", 1)], {("b", 1)}) and not cited_on([("a", 1)], {("b", 1)})
    assert percentile([], 50) is None and percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert percentile([float(i) for i in range(1, 101)], 95) == 95.0


# --------------------------------------------------------------------------- report


def _outcome(polarity: str, *, correct: bool | None = None, cited: bool = False, declined: bool = False,
             field: str = "", total_s: float = 1.0, in_target: bool = True) -> Outcome:
    return Outcome("q", field, polarity, "A", in_target, correct, cited, declined,  # type: ignore[arg-type]
                   0.1, total_s, "answer")


def test_rows_count_positives_and_negatives_apart_and_targets_say_whether_they_are_met() -> None:
    outcomes = [
        _outcome("positive", correct=True, cited=True, field="total", total_s=1.0),
        _outcome("positive", correct=False, declined=True, field="date", total_s=3.0),
        _outcome("negative", declined=True, field="total", total_s=2.0),
        _outcome("negative", declined=False, field="date", total_s=4.0),
    ]
    row = summarise_row("sroie", outcomes)
    assert (row["n"], row["correct"], row["cited"], row["declined_positive"], row["declined_negative"]) == (
        2, 0.5, 0.5, 0.5, 0.5)
    assert row["total_s"] == {"median": 3.0, "p95": 4.0} and row["correct_and_cited"] == 0.5
    summary = summarise("sroie", outcomes)
    assert [r["row"] for r in summary["rows"]] == ["sroie", "sroie total", "sroie date"]
    total = next(t for t in summary["targets"] if t["row"] == "sroie total")
    assert (total["metric"], total["value"], total["met"]) == ("correct", 1.0, True)
    declined_pos = next(t for t in summary["targets"] if t["metric"] == "declined_positive")
    assert declined_pos["value"] == 0.5 and not declined_pos["met"]
    header, cells = table_rows(summary)
    assert header[:2] == ["dataset", "n"] and cells[1][2] == "100.0% (≥90% ✓)" and cells[0][4] == "50.0% (≤5% ✗)"


def test_the_issue_targets_per_dataset() -> None:
    _, fb = row_plan("financebench")
    assert {(t.row, t.metric, t.threshold) for t in fb} >= {("financebench verbatim", "correct", 0.8),
                                                           ("financebench verbatim", "cited", 0.8)}
    _, kq = row_plan("korquad")
    assert ("korquad", "correct", ">=", 0.85) in {(t.row, t.metric, t.op, t.threshold) for t in kq}
    for _, targets in (row_plan("financebench"), row_plan("korquad"), row_plan("sroie")):
        assert {(t.metric, t.op, t.threshold) for t in targets} >= {("declined_negative", ">=", 0.95),
                                                                     ("declined_positive", "<=", 0.05)}


def test_is_correct_follows_the_question_kind() -> None:
    q = EvalQuestion("1", "?", ("RM9.00",), "number", "d", frozenset({("d", 1)}))
    assert is_correct(q, "The total is RM 9.00 [S1].") and not is_correct(q, "The total is RM 19.00 [S1].")
    span = EvalQuestion("2", "?", ("임수경",), "span", "d", frozenset({("d", 1)}))
    assert is_correct(span, "임수경입니다. [S1]") and not is_correct(span, "추출형 답변입니다. 임수경")


# --------------------------------------------------------------------------- generated PDFs


def test_generated_pdfs_carry_any_script_as_a_real_text_layer(tmp_path: Path) -> None:
    from ingest.steps.format_parser import extract_text_layer

    pages = ["임종석은 1989년 2월 15일 지명수배되었다. 같은 해 6월 30일 평양축전에 임수경을 파견하였다.",
             "資料の二ページ目です。 English and 123,456.78 too."]
    path = write_unicode_pdf(tmp_path / "ko.pdf", pages)
    assert unicode_pdf(pages) == path.read_bytes()  # deterministic: a re-upload is a duplicate
    got = extract_text_layer(path, "pdf", [1, 2])
    assert [" ".join(p.text.split()) for p in got] == [" ".join(p.split()) for p in pages]
    assert not any(p.needs_ocr for p in got)  # real glyph boxes: not judged a garbage layer


def test_layout_puts_sentences_on_lines_and_wraps_long_ones_at_a_space() -> None:
    assert layout_lines("One. Two!\nThree") == ["One.", "Two!", "Three"]
    long = " ".join(["word"] * 50)
    lines = layout_lines(long, wrap=40)
    assert all(len(line) <= 40 for line in lines) and " ".join(lines) == long


# --------------------------------------------------------------------------- evaluation-data loaders


@needs_evaldata
def test_financebench_splits_by_company_and_finds_the_verbatim_subset() -> None:
    ds = load("financebench", EVALDATA)
    assert len(ds.questions) == 80 and len(ds.documents) == 47
    by_key = {d.key: d for d in ds.documents}
    assert {d.group for d in ds.documents} == {"A", "B"}
    for q in ds.questions:
        assert {by_key[doc].group for doc, _ in q.pages} == {by_key[q.document].group}
    first = ds.questions[0]  # 3M 2018 capex, evidence page 59 (0-indexed) → 60
    assert first.pages == frozenset({("3M_2018_10K", 60)}) and first.in_target and first.kind == "number"
    assert 15 <= sum(q.in_target for q in ds.questions) <= 30
    small = load("financebench", EVALDATA, limit=3)
    assert {d.key for d in small.documents} == {"3M_2018_10K", "ACTIVISIONBLIZZARD_2019_10K"}
    assert all(by_key[d.key].group == d.group for d in small.documents)  # a --limit keeps each company's side


@needs_evaldata
def test_korquad_full_run_is_1000_questions_over_every_article_and_a_limit_only_its_articles() -> None:
    full = load("korquad", EVALDATA)
    assert len(full.questions) == 1000 and len(full.documents) == 140
    assert sum(len(d.pages) for d in full.documents) == 964
    small = load("korquad", EVALDATA, limit=5)
    assert [d.key for d in small.documents] == ["kq000"] and small.documents[0].group == "A"
    q = small.questions[0]
    assert q.golds == ("1989년 2월 15일",) and q.pages == frozenset({("kq000", 1)})
    assert q.golds[0] in small.documents[0].pages[0]


@needs_evaldata
def test_sroie_asks_total_and_date_per_receipt_with_one_answer_each() -> None:
    ds = load("sroie", EVALDATA)
    assert len(ds.documents) == 25 and len(ds.questions) == 50
    assert len({q.text for q in ds.questions}) == 50  # two receipts of one shop are told apart
    diy = [d for d in ds.documents if d.key in ("sroie-190", "sroie-200")]
    assert len({d.group for d in diy}) == 1  # both receipts of a shop on one side: negatives stay negative
    assert all(d.path is not None and d.path.suffix == ".jpg" for d in ds.documents)


def test_the_subcommand_is_registered() -> None:
    args = build_parser().parse_args(["eval", "answers", "--dataset", "sroie", "--limit", "3", "--json",
                                      "--data-dir", "/tmp/x"])
    assert (args.dataset, args.limit, args.json, args.eval_data_dir) == ("sroie", 3, True, "/tmp/x")
    assert args.func.__name__ == "_cmd_eval_answers"


# --------------------------------------------------------------------------- end to end


def _receipts(tmp: Path) -> EvalDataset:
    """Two tiny receipts as generated text PDFs, named like the SROIE set so its rows and targets apply."""
    alpha = ("ALPHA MART SDN BHD\nNO 12 JALAN MAJU, KUALA LUMPUR\nDATE: 25/12/2018 TIME 10:30\n"
             "MILK 2 X 3.50 7.00\nBREAD 2.00\nTOTAL RM 9.00\nTHANK YOU")
    beta = "BETA HARDWARE TRADING\nNO 7 JALAN IPOH\n13/03/2017\nNAILS 5.00\nTOTAL 5.00\nGOODS SOLD ARE NOT RETURNABLE"
    docs = [EvalDocument("alpha", "alpha.pdf", "A", pages=(alpha,)), EvalDocument("beta", "beta.pdf", "B",
                                                                                   pages=(beta,))]
    qs = [
        EvalQuestion("alpha-total", "What is the total amount on the receipt from ALPHA MART SDN BHD?", ("9.00",),
                     "number", "alpha", frozenset({("alpha", 1)}), field="total"),
        EvalQuestion("alpha-date", "What is the date of the receipt from ALPHA MART SDN BHD?", ("25/12/2018",),
                     "date", "alpha", frozenset({("alpha", 1)}), field="date"),
        EvalQuestion("beta-total", "What is the total amount on the receipt from BETA HARDWARE TRADING?",
                     ("5.00",), "number", "beta", frozenset({("beta", 1)}), field="total"),
    ]
    return EvalDataset("sroie", "en", docs, qs)


@pytest.fixture(scope="module")
def eval_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("eval-answers")


def _recomputed(summary: dict[str, Any], dataset: EvalDataset) -> list[Outcome]:
    from chat.evaluation.report import score

    by_id = {q.qid: q for q in dataset.questions}
    return [score(by_id[a["qid"]], a["polarity"], a["project"], a["answer"], [tuple(c) for c in a["citations"]],
                  first_token_s=a["first_token_s"], total_s=a["total_s"]) for a in summary["answers"]]


def test_a_run_through_the_real_service_reports_what_the_answers_said(eval_dir: Path, monkeypatch, capsys) -> None:
    dataset = _receipts(eval_dir)
    monkeypatch.setattr(eval_run, "load", lambda name, root, limit=None, split="all": dataset)
    monkeypatch.setenv("DOCCHAT_DATA_DIR", str(eval_dir / "unused"))
    assert main(["eval", "answers", "--dataset", "sroie", "--json", "--data-dir", str(eval_dir / "svc")]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["asked"] == 3 and printed["documents_in_projects"] == {"A": 1, "B": 1}
    assert printed["ingested_now"] == 2 and not printed["documents_failed"]
    answers = json.loads(Path(printed["answers_file"]).read_text(encoding="utf-8"))["answers"]
    assert len(answers) == 6 and {a["polarity"] for a in answers} == {"positive", "negative"}
    for a in answers:  # the negative of a question is asked in the other project
        own = "A" if a["qid"].startswith("alpha") else "B"
        assert a["project"] == (own if a["polarity"] == "positive" else ("B" if own == "A" else "A"))
    # every figure is what the recorded answers say
    redo = summarise("sroie", _recomputed({"answers": answers}, dataset), include_answers=False)
    assert [{k: r[k] for k in ("row", "n", "correct", "cited", "declined_positive", "declined_negative")}
            for r in printed["rows"]] == [
        {k: r[k] for k in ("row", "n", "correct", "cited", "declined_positive", "declined_negative")}
        for r in redo["rows"]]
    assert [t["met"] for t in printed["targets"]] == [t["met"] for t in redo["targets"]]
    total = next(a for a in answers if a["qid"] == "alpha-total" and a["polarity"] == "positive")
    assert total["correct"] == ("9.00" in total["answer"])
    assert total["cited"] and ["alpha", 1] in total["citations"]  # the receipt's page, by the set's own key
    assert all(a["first_token_s"] is None or a["first_token_s"] <= a["total_s"] for a in answers)
    assert all(a["error"] is None for a in answers)


def test_a_rerun_reuses_the_ingested_projects_and_prints_the_table(eval_dir: Path) -> None:
    dataset = _receipts(eval_dir)
    settings = Settings.from_env(env={}, data_dir=eval_dir / "svc", log_level="WARNING")
    err = io.StringIO()
    summary = asyncio.run(eval_run.evaluate(settings, dataset, console=Console(file=err)))
    assert summary["ingested_now"] == 0 and summary["documents_in_projects"] == {"A": 1, "B": 1}
    assert "ingesting" in err.getvalue() and "asking" in err.getvalue()  # the progress bars
    out = io.StringIO()
    eval_run.print_table(summary, Console(file=out, width=200))
    text = out.getvalue()
    row = next(r for r in summary["rows"] if r["row"] == "sroie total")
    assert "sroie total" in text and f"{100 * row['correct']:.1f}% (≥90%" in text
    assert "declined neg" in text and "(≥95%" in text


def test_a_declined_answer_is_never_scored_correct() -> None:
    from chat.evaluation.datasets import EvalQuestion
    from chat.evaluation.report import score

    text = "1989년 2월 15일에 무슨 일이 있었나?"
    q = EvalQuestion("q1", text, ("1989년 2월 15일",), "span", "d1", frozenset({("d1", 1)}))
    declined = score(q, "positive", "A", f"문서에서 “{text}”의 답을 찾을 수 없습니다.", [],
                     first_token_s=None, total_s=0.1)
    answered = score(q, "positive", "A", "1989년 2월 15일 시위가 있었다. [S1]", [("d1", 1)],
                     first_token_s=None, total_s=0.1)
    assert declined.declined and declined.correct is False
    assert not answered.declined and answered.correct is True
