from __future__ import annotations

import pytest

import bench.tables as bt
from bench.tables import Score, compare, flattened, score_page

TRUTH = [["", "2023", "2022"], ["Revenue", "$1,200", "$1,100"], ["Costs", "800", "790"], ["Net", "400", "310"]]


def test_a_perfect_prediction_scores_one() -> None:
    assert compare(TRUTH, TRUTH) == (11, 4, 4, 11)
    s = Score()
    score_page([TRUTH], [TRUTH], s)
    assert s.f1 == 1.0 and s.rows_exact == 4


def test_alignment_forgives_an_extra_column_and_whitespace_but_not_wrong_cells() -> None:
    pred = [["", "", "2023", "2022"], ["Revenue", "", "$ 1,200", "$1,100"], ["Costs", "", "800", "79O"],
            ["Net", "", "400", "310"]]
    matched, rows, exact, predicted = compare(TRUTH, pred)
    assert (matched, rows, predicted) == (10, 4, 11)  # "79O" is wrong; the empty column costs nothing
    assert exact == 3


def test_split_rows_and_missing_tables_cost_recall_and_extra_tables_precision() -> None:
    s = Score()
    score_page([TRUTH], [], s)
    assert s.truth == 11 and s.matched == 0 and s.f1 == 0.0
    s = Score()
    score_page([TRUTH], [TRUTH, [["Footnote", "1"], ["Other", "2"]]], s)
    assert s.matched == 11 and s.predicted == 15 and 0.8 < s.f1 < 0.9


def test_flattened_headers_join_levels() -> None:
    grid = [["", "Three Months Ended", "Three Months Ended", ""], ["", "Dec 31", "Dec 25", "Change"],
            ["x", "1", "2", "3"]]
    assert flattened(grid, 2) == ["", "Three Months Ended / Dec 31", "Three Months Ended / Dec 25", "Change"]


def test_the_command_skips_cleanly_without_evaldata(monkeypatch, tmp_path, capsys) -> None:
    monkeypatch.setattr(bt, "EVALDATA", tmp_path / "absent")
    assert bt.main([]) == 0
    assert "evaldata absent" in capsys.readouterr().out


@pytest.mark.skipif(not (bt.EVALDATA / "docling").is_dir(), reason="evaldata absent: ../shared/evaldata")
def test_the_command_measures_the_chosen_method_on_real_tables(capsys) -> None:
    names = [c.name for c in bt.cases()]
    assert "2305.03393v1-pg9" in names and any(n.startswith("AAPL") for n in names)
    assert bt.main(["--limit", "1"]) == 0
    out = capsys.readouterr().out
    assert "2305.03393v1-pg9" in out and "mean cell F1" in out and "s/page" in out
    sec = next(c for c in bt.cases() if c.name.startswith("AAPL"))
    scores = bt.run("grid", [sec], out=lambda _line: None)
    assert scores[sec.name].f1 >= 0.95 and scores[sec.name].header_hits == scores[sec.name].headers
