"""Table headers by shape on made-up statement pages: running headers / navigation links are no headers,
period headers set flush left or dates wider than their numbers still head the value columns."""

from __future__ import annotations

import pytest

from ingest.steps.table_grid import find_tables
from ingest.steps.tables import pdf_tables
from tests.ingest.tablefactory import Piece, positioned_pdf, right, words_of

S = 9.0


def _rows(top: float, rows: list[tuple[str, str, str]], x1: float = 420, x2: float = 500) -> list[Piece]:
    out: list[Piece] = []
    y = top
    for label, a, b in rows:
        out += [(40, y, label, S), right(x1, y, a, S), right(x2, y, b, S)]
        y += 11
    return out


BALANCE = [("Cash and cash equivalents", "8,349", "11,144"), ("Short-term investments", "15,908", "17,194"),
           ("Inventories", "11,984", "13,224"), ("Total current assets", "43,356", "50,407"),
           ("Goodwill", "27,591", "27,591"), ("Total assets", "178,932", "182,103")]


def _nav_link_page() -> list[Piece]:
    """A navigation link top right (over the last value column), the title, then a header line that opens
    with the unit in the label column, section labels, rows."""
    return [
        right(500, 20, "Table of Contents", 7.0),
        (40, 52, "Condensed Balance Sheets", 14.0),
        (40, 84, "(In Millions; Unaudited)", S), right(420, 84, "Jul 1, 2023", S), right(500, 84, "Dec 31, 2022", S),
        (40, 104, "Assets", S),
        (40, 115, "Current assets:", S),
        *_rows(126, BALANCE),
    ]


def test_a_navigation_link_above_the_title_is_neither_header_nor_caption(tmp_path) -> None:
    path = tmp_path / "nav.pdf"
    path.write_bytes(positioned_pdf([_nav_link_page()]))
    (table,) = pdf_tables(path, [1])[1]
    assert table.headers()[1:] == ["Jul 1, 2023", "Dec 31, 2022"]
    assert "Table of Contents" not in table.caption and "Table of Contents" not in " ".join(table.headers())
    assert table.caption == "Condensed Balance Sheets"
    assert table.unit == "(In Millions; Unaudited)"
    assert ["Cash and cash equivalents", "8,349", "11,144"] in table.rows
    assert table.rows[0][0] == "Assets"


def test_running_header_lines_are_not_in_the_caption() -> None:
    page = [(280, 8, "PART I", 6.5), (282, 16, "Item 1", 6.5),
            (250, 44, "BALANCE SHEETS", 10.0),
            (40, 60, "(In millions)", S), right(420, 60, "June 30, 2023", S), right(500, 60, "June 30, 2022", S),
            *_rows(74, BALANCE)]
    (table,) = find_tables(words_of(page))
    assert table.caption == "BALANCE SHEETS"
    assert table.headers()[1:] == ["June 30, 2023", "June 30, 2022"]


def test_a_period_header_set_flush_left_heads_the_value_columns() -> None:
    page = [(200, 40, "INCOME STATEMENTS", 10.0),
            (40, 56, "(In millions, except per share amounts)", S),
            (40, 70, "Three Months Ended September 30,", S), right(420, 70, "2022", S), right(500, 70, "2021", S),
            (40, 82, "Revenue:", S),
            *_rows(93, [("Product", "15,741", "16,631"), ("Service and other", "34,381", "28,686"),
                        ("Total revenue", "50,122", "45,317"), ("Net income", "17,556", "20,505")])]
    (table,) = find_tables(words_of(page))
    assert table.headers() == ["", "Three Months Ended September 30, / 2022", "Three Months Ended September 30, / 2021"]
    assert table.rows[0][0] == "Revenue:"
    assert ["Total revenue", "50,122", "45,317"] in table.rows


def test_dates_wider_than_their_numbers_above_a_note_and_section_labels_are_the_header() -> None:
    """``December 31, 2022`` centred over a column of right-aligned amounts starts left of them; a line of
    dates is a header by shape, the centred title and unit above it are the caption."""
    page = [(220, 60, "CONSOLIDATED BALANCE SHEETS", 10.0),
            (230, 71, "(in millions, except per share data)", S),
            (360, 86, "December 31, 2022", S), (450, 86, "March 31, 2023", S),
            (474, 98, "(unaudited)", S),
            (200, 110, "ASSETS", S),
            (40, 122, "Current assets:", S),
            *_rows(134, BALANCE)]
    (table,) = find_tables(words_of(page))
    assert table.headers()[1:] == ["December 31, 2022", "March 31, 2023 (unaudited)"]
    assert "December" not in table.caption
    assert table.caption == "CONSOLIDATED BALANCE SHEETS\n(in millions, except per share data)"
    assert ["Total assets", "178,932", "182,103"] in table.rows


def _three_years(top: float) -> list[Piece]:
    out: list[Piece] = []
    y = top
    for label, a, b, c in (("Net sales", "32,136", "31,657", "30,109"), ("Cost of sales", "16,782", "16,450", "15,710"),
                           ("Operating income", "6,174", "7,207", "7,820"), ("Net income", "4,582", "5,363", "4,869")):
        out += [(40, y, label, S), right(380, y, a, S), right(460, y, b, S), right(540, y, c, S)]
        y += 11
    return out


def test_a_period_header_beside_the_unit_on_one_line_does_not_merge_the_value_columns() -> None:
    """An annual statement: ``(Millions) | Years ended December 31`` on one line (the period header left-aligned
    over the first two value columns), the years below."""
    page = [(170, 52, "CONSOLIDATED STATEMENT OF INCOME", 10.0),
            (40, 70, "(Millions, except per share amounts)", S), (380, 70, "Years ended December 31", S),
            right(380, 82, "2019", S), right(460, 82, "2018", S), right(540, 82, "2017", S), *_three_years(96)]
    (table,) = find_tables(words_of(page))
    assert table.columns == 4
    assert table.headers()[1:] == [f"Years ended December 31 / {y}" for y in ("2019", "2018", "2017")]
    assert ["Net income", "4,582", "5,363", "4,869"] in table.rows


def test_a_month_and_day_set_flush_left_over_year_columns_heads_them() -> None:
    page = [(200, 40, "CONSOLIDATED BALANCE SHEETS", 10.0), (40, 56, "(in millions)", S),
            (40, 70, "December 31,", S), right(420, 70, "2019", S), right(500, 70, "2018", S), *_rows(84, BALANCE)]
    (table,) = find_tables(words_of(page))
    assert table.headers() == ["", "December 31, / 2019", "December 31, / 2018"]


@pytest.mark.parametrize("x", [392.0, 420.0])  # over its year, or centred between the two columns
def test_a_date_broken_over_two_header_lines_beside_the_unit_is_one_header(x: float) -> None:
    """``July 2,`` above ``2023`` in one column, ``December 31, 2022`` on the second line of the other, the
    unit ``(MILLIONS)`` in the label column of that second line: both lines are the header, not a first row
    labelled "(MILLIONS)"."""
    page = [(200, 40, "CONDENSED CONSOLIDATED BALANCE SHEETS", 10.0),
            (x, 60, "July 2,", S),
            (40, 71, "(MILLIONS)", S), (398, 71, "2023", S), (440, 71, "December 31, 2022", S),
            (380, 82, "(Unaudited)", S),
            (40, 96, "Assets", S),
            *_rows(107, BALANCE)]
    (table,) = find_tables(words_of(page))
    assert table.headers()[1:] == ["July 2, 2023 (Unaudited)", "December 31, 2022"], table.headers()
    assert table.rows[0][0] == "Assets", table.rows[:2]
    assert ["Total assets", "178,932", "182,103"] in table.rows
