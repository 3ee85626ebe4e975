"""``docchat eval answers --split``: KorQuAD's calibration (even) and report (odd) articles, the per-dataset
default, the projects of a split, and the table saying which split was used."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chat.cli.main import build_parser, main
from chat.evaluation import run as eval_run
from chat.evaluation.catalog import load
from chat.evaluation.datasets import SPLITS, EvalDataset, Split, korquad_split
from chat.evaluation.report import summarise
from store.config import Settings
from store.errors import InvalidInput

EVALDATA = Path(__file__).resolve().parents[4] / "shared" / "evaldata"
needs_evaldata = pytest.mark.skipif(
    not EVALDATA.is_dir(), reason=f"evaluation data not found at {EVALDATA} (../shared/evaldata): split tests skipped"
)


@needs_evaldata
def test_korquad_splits_are_the_calibrations_even_and_odd_articles_each_alternating_a_and_b() -> None:
    data = json.loads((EVALDATA / "korquad_v1" / "KorQuAD_v1.0_dev.json").read_text(encoding="utf-8"))["data"]
    ids_of = {a: {q["id"] for p in art["paragraphs"] for q in p["qas"]} for a, art in enumerate(data)}
    splits: tuple[tuple[Split, int], ...] = (("report", 1), ("calibration", 0))
    for split, parity in splits:
        ds = load("korquad", EVALDATA, split=split)
        assert ds.split == split and len(ds.questions) == 1000 and len(ds.documents) == 70
        articles = {int(d.key[2:]) for d in ds.documents}
        assert {a % 2 for a in articles} == {parity} and all(korquad_split(a) == split for a in articles)
        assert all(q.qid in ids_of[int(q.document[2:])] for q in ds.questions)  # kqNNN is the dev file's index
        assert {d.key for d in ds.documents} >= {q.document for q in ds.questions}
        groups = [d.group for d in sorted(ds.documents, key=lambda d: d.key)]
        assert groups == ["A", "B"] * 35  # negatives: the other project, of articles of the same split
    first = next(q["id"] for p in data[1]["paragraphs"] for q in p["qas"])
    report = load("korquad", EVALDATA, split="report", limit=200)
    assert report.questions[0].qid == first and len(report.questions) == 200
    assert all(int(d.key[2:]) % 2 == 1 for d in report.documents)
    assert {d.key for d in report.documents} == {q.document for q in report.questions}  # only the needed ones
    assert {d.group for d in report.documents} == {"A", "B"}
    assert len(load("korquad", EVALDATA, split="all").documents) == 140


def test_only_korquad_has_a_calibration_split() -> None:
    assert korquad_split(0) == "calibration" and korquad_split(7) == "report"
    for name in ("financebench", "sroie"):
        with pytest.raises(InvalidInput, match="no calibration split"):
            load(name, Path("/nonexistent"), split="calibration")
    with pytest.raises(InvalidInput, match="no split"):
        load("korquad", Path("/nonexistent"), split="held-out")  # type: ignore[arg-type]


@pytest.mark.parametrize(("argv", "name", "split"), [
    (["--dataset", "korquad"], "korquad", "report"), (["--dataset", "korquad", "--split", "all"], "korquad", "all"),
    (["--dataset", "korquad", "--split", "calibration"], "korquad", "calibration"),
    (["--dataset", "sroie"], "sroie", "all"), (["--dataset", "financebench", "--split", "report"], "financebench",
                                                "report"),
])
def test_the_split_defaults_to_report_for_korquad_and_all_otherwise_and_the_table_says_it(
        argv: list[str], name: str, split: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    asked: dict[str, Any] = {}

    def fake_load(dataset: str, root: Path | None, *, limit: int | None = None, split: str = "all",
                  subset: str = "all") -> EvalDataset:
        asked.update(dataset=dataset, split=split)
        used = split if dataset == "korquad" else "all"
        return EvalDataset(dataset, "ko", [], [], split=used)  # type: ignore[arg-type]

    async def fake_evaluate(settings: Settings, dataset: EvalDataset, **_: Any) -> dict[str, Any]:
        return summarise(dataset.name, [], extra={"model": "local", "split": dataset.split})

    monkeypatch.setattr(eval_run, "load", fake_load)
    monkeypatch.setattr(eval_run, "evaluate", fake_evaluate)
    monkeypatch.setenv("DOCCHAT_DATA_DIR", str(tmp_path))
    assert main(["eval", "answers", *argv]) == 0
    assert asked == {"dataset": name, "split": split}
    out = capsys.readouterr().out
    shown = split if name == "korquad" else "all"
    assert f"{name}, split {shown}" in out and f"split {shown}:" in out
    if shown == "report":
        assert "odd-index KorQuAD articles only" in out


def test_a_split_other_than_all_has_projects_of_its_own() -> None:
    assert eval_run.project_name("korquad", "A") == eval_run.project_name("korquad", "A", "all") == "eval-korquad-A"
    assert eval_run.project_name("korquad", "B", "report") == "eval-korquad-report-B"
    assert len({eval_run.project_name("korquad", "A", s) for s in SPLITS}) == 3


def test_the_cli_offers_the_splits_the_loader_knows() -> None:
    from chat.cli.eval_answers import SPLITS as CLI_SPLITS

    assert CLI_SPLITS == SPLITS
    assert build_parser().parse_args(["eval", "answers", "--dataset", "korquad"]).split is None
    with pytest.raises(SystemExit):
        build_parser().parse_args(["eval", "answers", "--dataset", "korquad", "--split", "odd"])


# --------------------------------------------------------------------------- subsets and the development set


@needs_evaldata
def test_financebench_verbatim_subset_asks_only_printed_golds_and_ingests_only_their_filings() -> None:
    full = load("financebench", EVALDATA)
    verbatim = load("financebench", EVALDATA, subset="verbatim")
    assert {q.qid for q in verbatim.questions} == {q.qid for q in full.questions if q.in_target}
    assert all(q.in_target for q in verbatim.questions) and len(verbatim.questions) >= 15
    needed = {q.document for q in verbatim.questions} | {d for q in verbatim.questions for d, _ in q.pages}
    assert {d.key for d in verbatim.documents} == needed
    by_key = {d.key: d.group for d in full.documents}
    assert all(by_key[d.key] == d.group for d in verbatim.documents)  # each company keeps its side


@needs_evaldata
def test_financebench_computed_subset_is_the_complement_of_the_verbatim_one() -> None:
    """The development subset shares no question with the report subset, and together they are the whole set."""
    full = load("financebench", EVALDATA)
    verbatim = {q.qid for q in load("financebench", EVALDATA, subset="verbatim").questions}
    computed = load("financebench", EVALDATA, subset="computed")
    assert not any(q.in_target for q in computed.questions)
    assert {q.qid for q in computed.questions}.isdisjoint(verbatim)
    assert {q.qid for q in computed.questions} | verbatim == {q.qid for q in full.questions}
    needed = {q.document for q in computed.questions} | {d for q in computed.questions for d, _ in q.pages}
    assert {d.key for d in computed.documents} == needed


def test_only_financebench_has_the_verbatim_subset() -> None:
    with pytest.raises(InvalidInput, match="no subset"):
        load("korquad", Path("/nonexistent"), subset="verbatim")
    with pytest.raises(InvalidInput, match="no subset"):
        load("financebench", Path("/nonexistent"), subset="printed")  # type: ignore[arg-type]
    args = build_parser().parse_args(["eval", "answers", "--dataset", "financebench", "--subset", "verbatim"])
    assert args.subset == "verbatim"


@needs_evaldata
def test_the_sec10q_development_golds_are_printed_on_their_pages() -> None:
    """Every gold of the development set that is marked verbatim is on its page's text layer, as written."""
    import pypdfium2

    from chat.evaluation.scoring import number_in, primary_number

    ds = load("sec10q", EVALDATA)
    assert len(ds.questions) >= 20 and {d.group for d in ds.documents} == {"A", "B"}
    paths = {d.key: d.path for d in ds.documents}
    for q in ds.questions:
        for doc, page in q.pages:  # a gold printed in two filings has both pages
            pdf = pypdfium2.PdfDocument(str(paths[doc]))
            text = pdf[page - 1].get_textpage().get_text_range()
            gold = primary_number(q.golds[0])
            assert gold is not None
            assert number_in(gold, text, rounding=False) == q.in_target or not q.in_target, (q.qid, q.golds)
            pdf.close()


@needs_evaldata
def test_the_sec10k_development_set_uses_filings_the_verbatim_report_subset_does_not() -> None:
    """10-Ks of companies the report subset has no filing of; verbatim golds on their pages; 'absent' questions."""
    import pypdfium2

    from chat.evaluation.scoring import number_in, primary_number

    ds = load("sec10k", EVALDATA)
    report = load("financebench", EVALDATA, subset="verbatim")
    report_companies = {d.key.split("_")[0] for d in report.documents}
    assert not {d.key.split("_")[0] for d in ds.documents} & report_companies
    assert {d.group for d in ds.documents} == {"A", "B"} and len(ds.questions) >= 30
    assert sum(q.absent for q in ds.questions) >= 8 and all(not q.in_target for q in ds.questions if q.absent)
    paths = {d.key: d.path for d in ds.documents}
    for q in ds.questions:
        for doc, page in q.pages:
            pdf = pypdfium2.PdfDocument(str(paths[doc]))
            text = pdf[page - 1].get_textpage().get_text_range()
            gold = primary_number(q.golds[0])
            assert gold is not None
            assert number_in(gold, text, rounding=False) or not q.in_target, (q.qid, q.golds)
            pdf.close()


async def test_an_absent_question_is_a_negative_in_both_projects() -> None:
    from chat.evaluation.datasets import EvalQuestion
    from chat.evaluation.service import AnswerRecord

    class _Client:
        async def ask(self, project_id: str, question: str) -> AnswerRecord:
            return AnswerRecord(text="The documents don't say.")

    questions = [EvalQuestion("q1", "What was Acme's revenue in 1990?", ("",), "text", "d1", frozenset(),
                              absent=True),
                 EvalQuestion("q2", "What was Acme's revenue in 2020?", ("$5",), "number", "d1",
                              frozenset({("d1", 3)}))]
    from rich.console import Console

    with eval_run._progress(Console(quiet=True)) as progress:
        outcomes = await eval_run._ask_all(_Client(), questions, {"A": "pa", "B": "pb"},  # type: ignore[arg-type]
                                           {"d1": "A"}, {}, progress)
    assert [o.polarity for o in outcomes if o.qid == "q1"] == ["negative", "negative"]
    assert [o.polarity for o in outcomes if o.qid == "q2"] == ["positive", "negative"]
