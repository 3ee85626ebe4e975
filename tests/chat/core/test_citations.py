from __future__ import annotations

from chat.core.citations import (
    Source,
    best_quote,
    citations_for,
    cited_refs,
    infer_page_offsets,
    locate_quote,
    max_ref_number,
)


def test_cited_refs_in_order_without_duplicates_and_groups() -> None:
    assert cited_refs("A [S2]. B [S1, P3]; C [S2] and [x] [S]") == ["S2", "S1", "P3"]


def test_citations_only_for_known_sources_with_the_best_quote() -> None:
    sources = {
        "S1": Source(
            "S1",
            "d1",
            "report.pdf",
            4,
            "Intro text here. Revenue grew 12% in 2024. Other things.",
            chunk_id="d1:00003",
            bbox={"page": 4, "x0": 1, "y0": 2, "x1": 3, "y1": 4},
        ),
        "P2": Source("P2", "d2", "memo.pdf", 1, "Whole page."),
    }
    answer = "Revenue grew by 12% [S1]. Made up [S9]. See the memo [P2]."
    out = citations_for(answer, sources)
    assert [c["ref"] for c in out] == ["S1", "P2"]
    assert out[0] == {
        "ref": "S1",
        "document_id": "d1",
        "file_name": "report.pdf",
        "page": 4,
        "chunk_id": "d1:00003",
        "quote": "Revenue grew 12% in 2024.",
        "bbox": {"page": 4, "x0": 1, "y0": 2, "x1": 3, "y1": 4},
    }
    assert "bbox" not in out[1] and out[1]["chunk_id"] is None


def test_best_quote_is_bounded() -> None:
    assert len(best_quote("word " * 500, "word")) <= 280
    assert best_quote("", "x") == ""


def test_max_ref_number() -> None:
    assert max_ref_number(["S1", "S12", "P3", "Sx"], "S") == 12
    assert max_ref_number([], "P") == 0


def _box(page: int, y: float) -> dict[str, float]:
    return {"page": page, "x0": 72.0, "y0": y, "x1": 400.0, "y1": y + 10.0}


SPAN_TEXT = "Costs were flat in 2023.\nMargins held steady.\n\nThe dividend was raised to 2 euros.\nBuybacks paused."
PAGE2 = SPAN_TEXT.index("The dividend")


def test_quote_on_the_second_page_of_a_spanning_chunk_cites_that_page_and_its_box() -> None:
    src = Source(
        "S1", "d1", "report.pdf", 1, SPAN_TEXT, chunk_id="d1:00004", bbox=_box(1, 700.0), page_end=2,
        page_offsets=((1, 0), (2, PAGE2)), boxes=(_box(1, 700.0), _box(2, 40.0)),
        line_boxes=((0, _box(1, 700.0)), (SPAN_TEXT.index("Margins"), _box(1, 714.0)), (PAGE2, _box(2, 40.0)),
                    (SPAN_TEXT.index("Buybacks"), _box(2, 54.0))),
    )
    (c,) = citations_for("The dividend rose to 2 euros [S1].", {"S1": src})
    assert c["quote"] == "The dividend was raised to 2 euros."
    assert c["page"] == 2
    assert c["bbox"] == _box(2, 40.0) and c["bboxes"] == [_box(2, 40.0)]
    (c,) = citations_for("Costs were flat [S1].", {"S1": src})
    assert (c["page"], c["bbox"]) == (1, _box(1, 700.0))


def test_without_line_boxes_the_chunk_box_of_the_quoted_page_is_used() -> None:
    src = Source("S1", "d1", "r.pdf", 1, SPAN_TEXT, bbox=_box(1, 700.0), page_end=2,
                 page_offsets=((1, 0), (2, PAGE2)), boxes=(_box(1, 700.0), _box(2, 40.0)))
    (c,) = citations_for("The dividend rose to 2 euros [S1].", {"S1": src})
    assert (c["page"], c["bbox"]) == (2, _box(2, 40.0)) and "bboxes" not in c


def test_sources_read_back_from_history_place_the_quote_by_page_breaks_and_drop_a_wrong_page_box() -> None:
    # a tool result read back from the session keeps only page, page_end and the first box
    src = Source("S1", "d1", "r.pdf", 1, SPAN_TEXT, bbox=_box(1, 700.0), page_end=2)
    (c,) = citations_for("The dividend rose to 2 euros [S1].", {"S1": src})
    assert c["page"] == 2 and "bbox" not in c  # no box rather than page 1's box on page 2
    assert infer_page_offsets(SPAN_TEXT, 1, 2) == ((1, 0), (2, PAGE2))
    assert infer_page_offsets(SPAN_TEXT, 1, 3) == ()  # a page without text in between: ambiguous
    assert infer_page_offsets("one page", 4, 4) == ()


def test_a_quote_cut_short_is_still_located() -> None:
    text = "Intro.\n\n" + "word " * 100 + "end."
    quote = best_quote(text, "word")
    assert quote.endswith("…")
    assert locate_quote(text, quote) == (8, 8 + len(quote) - 1)
    assert locate_quote(text, "not there") is None


TABLE_TEXT = (
    "Net sales by category (dollars in millions):\n"
    "| Category | Three Months Ended / December 31, 2022 | Three Months Ended / December 25, 2021 | Change |\n"
    "|---|---|---|---|\n"
    "| iPhone | $ 65,775 | $ 71,628 | (8)% |\n"
    "| Mac | 7,735 | 10,852 | (29)% |\n"
    "| Total net sales | $ 117,154 | $ 123,945 | (5)% |"
)


def _table_source() -> Source:
    starts = [0]
    for i, ch in enumerate(TABLE_TEXT):
        if ch == "\n":
            starts.append(i + 1)
    boxes = tuple((at, _box(3, 100.0 + 12 * n)) for n, at in enumerate(starts))
    return Source("S1", "d1", "10q.pdf", 3, TABLE_TEXT, chunk_id="d1:7", line_boxes=boxes)


def test_a_quoted_table_row_is_the_citation_quote_and_only_its_line_is_boxed() -> None:
    answer = "iPhone net sales were $65,775 million, down 8% [S1].\n\n> | iPhone | $ 65,775 | $ 71,628 | (8)% |"
    (c,) = citations_for(answer, {"S1": _table_source()})
    assert c["quote"] == "| iPhone | $ 65,775 | $ 71,628 | (8)% |"
    assert c["bboxes"] == [_box(3, 136.0)]  # the 4th line, nothing else
    assert c["page"] == 3 and c["bbox"]["y0"] == 136.0 and c["bbox"]["y1"] == 146.0


def test_several_quoted_lines_box_exactly_those_lines() -> None:
    answer = ("Total net sales were $117,154 million [S1].\n"
              "> | Category | Three Months Ended / December 31, 2022 | Three Months Ended / December 25, 2021 "
              "| Change |\n"
              "> | Total net sales | $ 117,154 | $ 123,945 | (5)% |")
    (c,) = citations_for(answer, {"S1": _table_source()})
    assert c["quote"].splitlines() == [TABLE_TEXT.splitlines()[1], TABLE_TEXT.splitlines()[5]]
    assert [b["y0"] for b in c["bboxes"]] == [112.0, 160.0]


def test_a_quote_in_quotation_marks_is_found_across_a_line_wrap() -> None:
    text = "The Board declared a cash dividend of $0.23\nper share, payable on February 16, 2023. Other news."
    src = Source("S2", "d1", "10q.pdf", 5, text, line_boxes=((0, _box(5, 10.0)), (text.index("per"), _box(5, 22.0))))
    answer = 'The dividend is $0.23 per share [S2]: "declared a cash dividend of $0.23 per share".'
    (c,) = citations_for(answer, {"S2": src})
    assert c["quote"] == "declared a cash dividend of $0.23\nper share"
    assert [b["y0"] for b in c["bboxes"]] == [10.0, 22.0]


def test_a_quote_that_is_not_in_the_source_falls_back_to_the_best_sentence() -> None:
    src = Source("S1", "d1", "r.pdf", 1, "Revenue grew 12% in 2024. Costs fell.")
    answer = "Revenue grew [S1].\n> Revenue rose twelve percent"
    (c,) = citations_for(answer, {"S1": src})
    assert c["quote"] == "Revenue grew 12% in 2024."
