"""page_text: a segment's page text with its tables as Markdown in place of their flat lines."""

from __future__ import annotations

import json
from typing import Any

from ingest.page_text import page_text
from ingest.steps.table_model import Table

# A page (top-left points): a heading, a paragraph, a caption + two-column table, a closing paragraph.
PROSE_TOP = [("Quarterly report", (72, 60, 200, 70)), ("Sales rose in every region this year.", (72, 80, 300, 90))]
SALES_CAPTION = ("Table 1: Net sales (in millions)", (72, 110, 260, 120))
SALES_LINES = [("Region 2023 2022", (72, 125, 400, 135)), ("Americas $ 120 $ 110", (72, 137, 400, 147)),
               ("Europe 80 75", (72, 149, 400, 159))]
PROSE_MID = [("Costs grew more slowly than sales.", (72, 180, 300, 190))]
COST_LINES = [("Item Q4 Q3", (72, 210, 400, 220)), ("Rent 5 4", (72, 222, 400, 232))]
PROSE_END = [("See note 7 for details.", (72, 260, 250, 270))]


def _sales() -> Table:
    return Table(page=3, columns=3, header=[["Region", "2023", "2022"]],
                 rows=[["Americas", "$120", "$110"], ["Europe", "80", "75"]],
                 caption="Table 1: Net sales (in millions)", unit="(in millions)",
                 header_boxes=[[(72, 125, 110, 135), (300, 125, 330, 135), (370, 125, 400, 135)]],
                 row_boxes=[[(72, 137, 120, 147), (300, 137, 330, 147), (370, 137, 400, 147)],
                            [(72, 149, 110, 159), (310, 149, 330, 159), (380, 149, 400, 159)]],
                 caption_bbox=(72, 110, 260, 120))


def _costs() -> Table:
    return Table(page=3, columns=3, header=[["Item", "Q4", "Q3"]], rows=[["Rent", "5", "4"]],
                 header_boxes=[[(72, 210, 100, 220), (300, 210, 320, 220), (380, 210, 400, 220)]],
                 row_boxes=[[(72, 222, 100, 232), (310, 222, 320, 232), (390, 222, 400, 232)]])


def _segment(lines: list[tuple[str, tuple[float, ...]]], tables: list[Table]) -> dict[str, Any]:
    seg = {"page": 3, "source": "text_layer", "text": "\n".join(t for t, _ in lines),
           "lines": [{"text": t, "bbox": list(b), "confidence": 1.0} for t, b in lines],
           "tables": [t.grid() for t in tables], "table_grids": [t.to_json() for t in tables]}
    return json.loads(json.dumps(seg))  # as stored


SALES_MD = ("Table 1: Net sales (in millions)\n| Region | 2023 | 2022 |\n|---|---|---|\n"
            "| Americas | $120 | $110 |\n| Europe | 80 | 75 |")
COSTS_MD = "| Item | Q4 | Q3 |\n|---|---|---|\n| Rent | 5 | 4 |"


def test_a_table_in_the_middle_of_the_page_is_markdown_where_its_lines_were() -> None:
    seg = _segment([*PROSE_TOP, SALES_CAPTION, *SALES_LINES, *PROSE_MID], [_sales()])
    assert page_text(seg) == ("Quarterly report\nSales rose in every region this year.\n\n" + SALES_MD
                              + "\n\nCosts grew more slowly than sales.")


def test_the_tables_own_lines_and_caption_are_not_repeated_as_flat_text() -> None:
    text = page_text(_segment([*PROSE_TOP, SALES_CAPTION, *SALES_LINES, *PROSE_MID], [_sales()]))
    for flat, _ in SALES_LINES:
        assert flat not in text
    assert text.count("Table 1: Net sales") == 1
    assert "(in millions)\n(in millions)" not in text  # the unit is in the caption: not a line of its own


def test_a_page_with_two_tables() -> None:
    seg = _segment([*PROSE_TOP, SALES_CAPTION, *SALES_LINES, *PROSE_MID, *COST_LINES, *PROSE_END],
                   [_sales(), _costs()])
    assert page_text(seg) == ("Quarterly report\nSales rose in every region this year.\n\n" + SALES_MD
                              + "\n\nCosts grew more slowly than sales.\n\n" + COSTS_MD
                              + "\n\nSee note 7 for details.")


def test_a_table_at_the_top_and_one_at_the_bottom_with_no_prose_between() -> None:
    seg = _segment([SALES_CAPTION, *SALES_LINES, *COST_LINES], [_sales(), _costs()])
    assert page_text(seg) == SALES_MD + "\n\n" + COSTS_MD


def test_a_segment_without_table_grids_reads_as_its_plain_text() -> None:
    seg = _segment([*PROSE_TOP, SALES_CAPTION, *SALES_LINES], [])
    assert page_text(seg) == seg["text"]
    older = {"page": 1, "text": "Line one\nAmericas 120 110", "lines": [], "tables": [[["Region", "2023"]]]}
    assert page_text(older) == "Line one\nAmericas 120 110"
    assert page_text({"page": 1}) == ""


def test_a_table_whose_boxes_match_no_line_comes_after_the_text() -> None:
    seg = _segment(PROSE_TOP, [_costs()])
    assert page_text(seg) == "Quarterly report\nSales rose in every region this year.\n\n" + COSTS_MD
    no_lines = {"page": 3, "text": "Just text", "lines": [], "table_grids": [_costs().to_json()]}
    assert page_text(no_lines) == "Just text\n\n" + COSTS_MD
