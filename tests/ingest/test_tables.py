from __future__ import annotations

import json

import pytest
from PIL import Image, ImageDraw, ImageFont

from ingest.steps.format_parser import Line, PageText
from ingest.steps.ocr import OcrLine, OcrResult
from ingest.steps.table_grid import find_tables
from ingest.steps.table_header import header_levels
from ingest.steps.table_lines import Line as GridLine
from ingest.steps.table_lines import Seg
from ingest.steps.table_model import Table
from ingest.steps.tables import likely_table, pdf_tables, table_text, tables_from_ocr
from tests.ingest.docfactory import EVALDATA, image_bytes
from tests.ingest.tablefactory import financial_table, positioned_pdf, right, words_of

CELLS = [["Item", "Qty", "Price"], ["Tea", "2", "3.50"], ["Cake", "1", "4.20"]]


def ruled_table() -> tuple[bytes, OcrResult]:
    """A bordered 3x3 table image and the OCR lines a reader would return for it (one per cell)."""
    img = Image.new("RGB", (700, 400), "white")
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=24)
    x_edges, y_edges = [50, 250, 450, 650], [50, 130, 210, 290]
    for x in x_edges:
        draw.line([(x, y_edges[0]), (x, y_edges[-1])], fill="black", width=3)
    for y in y_edges:
        draw.line([(x_edges[0], y), (x_edges[-1], y)], fill="black", width=3)
    lines = []
    for r, row in enumerate(CELLS):
        for c, text in enumerate(row):
            x, y = x_edges[c] + 20, y_edges[r] + 25
            draw.text((x, y), text, fill="black", font=font)
            lines.append(OcrLine(text=text, bbox=(x, y, x + 15 * len(text), y + 28), confidence=0.95))
    return image_bytes(img, "PNG"), OcrResult(lines=lines, engine="test", width_px=700, height_px=400)


def test_ruled_table_from_ocr_lines_keeps_rows() -> None:
    png, ocr = ruled_table()
    (table,) = tables_from_ocr(png, ocr, borderless=False)
    assert table.grid() == CELLS
    assert table.headers() == CELLS[0] and table.rows == CELLS[1:] and table.source == "ocr"
    assert table_text([table.grid()]).splitlines()[1] == "Tea | 2 | 3.50"


def test_no_ocr_lines_no_tables() -> None:
    png, _ = ruled_table()
    assert tables_from_ocr(png, OcrResult()) == []


def test_likely_table_signal() -> None:
    def page(texts: list[str]) -> PageText:
        return PageText(page=1, text="\n".join(texts), lines=[Line(t, (0, 0, 1, 1)) for t in texts])

    assert likely_table(page(["Revenue 1,200 1,350 12%", "Costs 800 790 -1%", "Net 400 560 40%"]))
    assert not likely_table(page(["An ordinary paragraph of prose.", "It goes on for a while.", "Then ends."]))
    assert not likely_table(page(["Total 5 6", "prose line here again", "x 1 2"]))
    # statements: a label then one or two amounts, section labels in between
    assert likely_table(page(["Due after 1 year $ 82,497", "Americas:", "Due after 5 years 14,243",
                              "Wearables, Home and Accessories 13,482 14,701", "Total fair value $ 114,095"]))
    # prose whose lines end in a year with a full stop is not a table
    assert not likely_table(page(["It was founded in 1976.", "It moved in 1985.", "It grew in 2022."]))


@pytest.mark.skipif(not (EVALDATA / "docling").is_dir(), reason="evaldata absent: ../shared/evaldata")
def test_text_layer_pdf_table() -> None:
    found = pdf_tables(EVALDATA / "docling/pdf/sources/2305.03393v1-pg9.pdf", [1])
    (table,) = found[1]
    assert any("OTSL" in cell for row in table.grid() for cell in row)
    assert any(row[:2] == ["6", "6"] for row in table.rows)


# --- grids from word boxes (pure) ----------------------------------------------------------------------

FIN_HEADERS = ["", "Three Months Ended / December 31, 2022", "Three Months Ended / December 25, 2021", "Change"]
FIN_ROWS = [["Net sales by category:", "", "", ""], ["iPhone", "$65,775", "$71,628", "(8)%"],
            ["Mac", "7,735", "10,852", "(29)%"], ["iPad", "9,396", "7,248", "30 %"],
            ["Services", "20,766", "19,516", "6 %"], ["Total net sales", "$117,154", "$123,945", "(5)%"]]


def test_financial_table_from_word_boxes() -> None:
    (table,) = find_tables(words_of(financial_table()), 3)
    assert table.page == 3 and table.columns == 4
    # three header lines: a period header off-centre over one date, wrapped dates, "Change" on the last line
    assert table.headers() == FIN_HEADERS
    assert table.header == [["", "Three Months Ended", "Three Months Ended", ""],
                            ["", "December 31, 2022", "December 25, 2021", "Change"]]
    assert table.rows == FIN_ROWS  # "$" joins its amount; the superscript (1) after iPhone is dropped
    assert table.caption == ("Products and Services Performance\n"
                             "The following table shows net sales by category (dollars in millions):")
    assert table.unit == "(dollars in millions)"
    assert table.markdown().splitlines()[2:5] == [
        "|  | Three Months Ended / December 31, 2022 | Three Months Ended / December 25, 2021 | Change |",
        "|---|---|---|---|",
        "| Net sales by category: |  |  |  |",
    ]
    assert "| iPhone | $65,775 | $71,628 | (8)% |" in table.markdown().splitlines()
    # boxes: the iPhone row's cells, in points from the top-left, where the words were placed
    label, first, _second, change = table.row_boxes[1]
    assert label is not None and label[0] == pytest.approx(82) and label[1] == pytest.approx(178)
    assert first is not None and first[0] == pytest.approx(300) and first[2] == pytest.approx(360)
    assert change is not None and change[2] == pytest.approx(535)
    # the prose paragraph below is not part of the table
    bbox = table.bbox()
    assert bbox is not None and bbox[3] < 240


def test_prose_and_two_column_prose_make_no_table() -> None:
    prose = [(72, 100 + 11 * i, "An ordinary sentence of the report that keeps going across the page", 9.0)
             for i in range(8)]
    assert find_tables(words_of(prose)) == []
    columns = [(x, 100 + 11 * i, "words of a column of running text and more", 9.0)
               for i in range(8) for x in (72, 330)]
    assert find_tables(words_of(columns)) == []


def test_narrow_columns_split_where_the_gaps_line_up_and_a_centred_header_spans() -> None:
    s = 8.0
    pieces = [(100, 100, "Model", s), (170, 100, "TEDs", s), (260, 100, "Time", s),
              (100, 110, "", s), (140, 110, "simple", s), (172, 110, "all", s), (200, 110, "mAP", s),
              (260, 110, "(secs)", s)]
    for i, (name, a, b, c, t) in enumerate([("OTSL", "0.965", "0.955", "0.88", "2.73"),
                                            ("HTML", "0.969", "0.955", "0.857", "5.39"),
                                            ("Mixed", "0.938", "0.927", "0.853", "1.97")]):
        y = 122 + 10 * i
        pieces += [(100, y, name, s), (140, y, a, s), (172, y, b, s), (200, y, c, s), (260, y, t, s)]
    (table,) = find_tables(words_of([p for p in pieces if p[2]]))
    assert table.columns == 5
    assert table.rows[0] == ["OTSL", "0.965", "0.955", "0.88", "2.73"]
    assert table.headers() == ["Model", "TEDs / simple", "TEDs / all", "TEDs / mAP", "Time (secs)"]


def test_a_date_centred_over_amount_columns_dates_them_all() -> None:
    """"December 31, 2031" centred over "Gross Carrying Amount | Unamortized Discount … | Net Carrying Amount" is the
    date of all three columns, not only of the middle one it sits over (a 10-K's debt note, its geometry)."""
    def line(y: float, *segs: tuple[str, float, float]) -> GridLine:
        return GridLine(y0=y, y1=y + 9, segs=[Seg(t, x0, y, x1, y + 9) for t, x0, x1 in segs])

    head = [line(415, ("December 31, 2031", 404.5, 459.4)), line(425, ("Unamortized", 410.2, 453.6)),
            line(433, ("Gross Carrying", 306.9, 352.3), ("Discount and Deferred", 399.6, 465.5),
                 ("Net Carrying", 514.6, 553.2)),
            line(441, ("Amount", 316.0, 343.0), ("Financing Costs", 403.0, 461.0), ("Amount", 520.0, 547.0))]
    cols = [(13.0, 52.0), (282.0, 373.0), (386.0, 478.0), (487.0, 577.0)]
    table = Table(page=1, columns=4)
    header_levels(table, head, cols)
    assert table.headers() == ["", "December 31, 2031 / Gross Carrying Amount",
                               "December 31, 2031 / Unamortized Discount and Deferred Financing Costs",
                               "December 31, 2031 / Net Carrying Amount"]


def test_a_wrapped_row_label_is_one_row() -> None:
    s = 9.0
    pieces = [(72, 100, "Depreciation", s), right(400, 100, "1,488", s), right(480, 100, "1,544", s),
              (72, 111, "Adjustments to reconcile net income to net cash", s),
              (72, 122, "provided by operating activities", s), right(400, 122, "410", s), right(480, 122, "334", s),
              (72, 133, "Deferred taxes", s), right(400, 133, "(57)", s), right(480, 133, "(20)", s)]
    (table,) = find_tables(words_of(pieces))
    assert table.rows[1] == ["Adjustments to reconcile net income to net cash provided by operating activities",
                             "410", "334"]
    assert len(table.rows) == 3


def test_text_layer_pdf_with_a_financial_table(tmp_path) -> None:
    path = tmp_path / "fin.pdf"
    path.write_bytes(positioned_pdf([[(72, 60, "Quarterly report", 9.0)], financial_table()]))
    found = pdf_tables(path, [1, 2])  # read in the sandbox
    assert list(found) == [2]
    (table,) = found[2]
    assert table.headers() == FIN_HEADERS and table.rows == FIN_ROWS
    assert table.unit == "(dollars in millions)"
    label = table.row_boxes[1][0]
    assert label is not None and label[0] == pytest.approx(82, abs=1) and label[1] == pytest.approx(178, abs=2)
    assert Table.from_json(json.loads(json.dumps(table.to_json()))) == table


def test_table_model_markdown_and_json() -> None:
    t = Table(page=2, columns=3, header=[["", "2023", "2022"]], rows=[["A | B", "1", "2"], ["C", "", "4"]],
              caption="Table 3: Costs", unit="(in thousands)",
              row_boxes=[[(10, 20, 30, 28), (40, 20, 50, 28), None], [(10, 30, 30, 38), None, (60, 30, 70, 38)]])
    assert t.markdown() == ("Table 3: Costs\n(in thousands)\n|  | 2023 | 2022 |\n|---|---|---|\n"
                            "| A \\| B | 1 | 2 |\n| C |  | 4 |")
    assert t.row_bbox(1) == (10, 30, 70, 38)
    cells = t.cells()
    assert [(c.text, c.row, c.col, c.header) for c in cells[:3]] == [("2023", 0, 1, True), ("2022", 0, 2, True),
                                                                    ("A | B", 1, 0, False)]
    raw = t.to_json()
    assert raw["headers"] == ["", "2023", "2022"] and raw["bbox"] == [10, 20, 70, 38]
    assert Table.from_json(json.loads(json.dumps(raw))) == t


def test_ocr_table_boxes_are_scaled_to_points() -> None:
    png, ocr = ruled_table()
    (table,) = tables_from_ocr(png, ocr, borderless=False, page=4, scale=(0.5, 0.5))
    assert table.page == 4
    box = table.row_boxes[0][0]
    assert box is not None and box[0] == pytest.approx(25, abs=2) and box[1] == pytest.approx(65, abs=2)


@pytest.mark.skipif(not (EVALDATA / "docugami_sec10q").is_dir(), reason="evaldata absent: ../shared/evaldata")
def test_apple_10q_net_sales_tables() -> None:
    found = pdf_tables(EVALDATA / "docugami_sec10q/docs/2023 Q1 AAPL.pdf", [19, 20])
    (segments,) = found[19]
    (category,) = found[20]
    for table in (segments, category):
        assert table.headers() == FIN_HEADERS
        assert table.unit == "(dollars in millions)"
        assert table.caption.startswith("The following table shows net sales by") or "Performance" in table.caption
    assert ["iPhone", "$65,775", "$71,628", "(8)%"] in category.rows
    assert ["Americas", "$49,278", "$51,496", "(4)%"] in segments.rows


def test_text_layer_chars_are_read_by_index_so_hyphenated_lines_keep_text_and_boxes(tmp_path) -> None:
    """PDFium marks a line-end hyphen with code 2, which FPDFText_GetText leaves out (writing U+FFFE
    instead): reading that buffer by char index put junk in the text and shifted every later box."""
    from ingest.steps.format_parser import extract_text_layer

    path = tmp_path / "hyphen.pdf"
    path.write_bytes(positioned_pdf([[(72, 100, "The effects of reducing the num-", 10.0),
                                      (72, 114, "ber of layers are shown here", 10.0),
                                      (72, 128, "in the third line of text", 10.0)]]))
    (page,) = extract_text_layer(path, "pdf", [1])
    assert [ln.text for ln in page.lines] == ["The effects of reducing the number of layers are shown here",
                                              "in the third line of text"]
    assert "\ufffe" not in page.text and not page.needs_ocr
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    tp = pdf[0].get_textpage()
    height = pdf[0].get_height()
    # PDFium joins the two hyphenated lines into one: its box is that of their letters (not the hyphen)
    boxes = [(tp.get_text_range(i, 1), tp.get_charbox(i)) for i in range(tp.count_chars())]
    right = max(b[2] for ch, b in boxes if ch.isalnum() and height - (b[1] + b[3]) / 2 < 126)
    tp.close()
    pdf.close()
    first, third = page.lines[0].bbox, page.lines[1].bbox
    assert first[2] == pytest.approx(right, abs=0.05)
    assert third[1] == pytest.approx(128, abs=3) and third[3] < 140


def test_words_set_tight_keep_their_spaces_in_a_cell(tmp_path) -> None:
    """A row label set with narrow word spaces ("Developed Rest of World", each space ~0.07 of the line's height)
    stays words apart in its cell — the segments join such words, and used to drop the space ("Rest ofWorld");
    pieces of one word that no space parts (a superscript's neighbours, an unmapped glyph) still join without one."""
    rows = [("Developed Rest of World", "1,305", "5,034"), ("Emerging Markets", "2,770", "5,893"),
            ("United States", "8,432", "15,300"), ("Total revenues", "12,507", "26,227")]
    pieces = [(300, 60, "2031", 9.0), (380, 60, "2030", 9.0)]
    for i, (label, a, b) in enumerate(rows):
        y = 74 + 12 * i
        pieces += [(72, y, label, 9.0), right(330, y, a, 9.0), right(410, y, b, 9.0)]
    path = tmp_path / "tight.pdf"
    path.write_bytes(positioned_pdf([pieces], word_spacing=-1.8))
    found = pdf_tables(path, [1])
    (table,) = found[1]
    labels = [row[0] for row in table.rows]
    assert "Developed Rest of World" in labels and "Total revenues" in labels
    from ingest.steps.table_lines import Word, cut

    line = GridLine([Word("Rev", 0, 0, 10, 10), Word("enue", 10.2, 0, 25, 10), Word("of", 27, 0, 32, 10),
                     Word("World", 32.5, 0, 50, 10, spaced=True)])
    assert [seg.text for seg in cut(line, lambda a, b, normal: False)] == ["Revenue of World"]
