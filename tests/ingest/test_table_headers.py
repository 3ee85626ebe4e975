"""Table headers by shape on made-up statement pages: running headers / navigation links are no headers,
period headers set flush left or dates wider than their numbers still head the value columns."""

from __future__ import annotations

import pytest

from ingest.steps.table_grid import find_tables
from ingest.steps.tables import pdf_tables
from tests.ingest.tablefactory import Piece, positioned_pdf, right, width, words_of

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


def test_the_unit_beside_years_and_change_words_is_the_header_line() -> None:
    """``Three Months Ended`` / ``July 2,`` above ``(MILLIONS) | 2023 | 2022 | Change | 2023 | 2022 | Change``
    (a 10-Q's revenues by region): the unit's line holds the years and the change column's word — the third line
    of the header, not a first row labelled "(MILLIONS)" whose years would be lost to every later chunk."""
    edges = (300.0, 350.0, 390.0, 450.0, 500.0, 540.0)
    page: list[Piece] = [(40, 40, "The following summarizes revenues by geographic area:", S),
                         (262, 60, "Three Months Ended", S), (412, 60, "Six Months Ended", S),
                         (272, 71, "July 2,", S), (322, 71, "July 3,", S), (382, 71, "%", S),
                         (422, 71, "July 2,", S), (472, 71, "July 3,", S), (532, 71, "%", S)]
    page += [(40, 82, "(MILLIONS)", S)] + [right(x, 82, t, S) for x, t in
                                            zip(edges, ("2023", "2022", "Change", "2023", "2022", "Change"),
                                                strict=True)]
    rows = [("United States", "$6,185", "$11,222", "(45)", "$14,692", "$20,140", "(27)"),
            ("Developed Europe", "2,415", "5,480", "(56)", "5,236", "11,569", "(55)"),
            ("Emerging Markets", "2,828", "6,006", "(53)", "7,308", "13,373", "(45)"),
            ("Revenues", "$12,734", "$27,742", "(54)", "$31,015", "$53,402", "(42)")]
    for i, (label, *values) in enumerate(rows):
        y = 96 + 11 * i
        page += [(40, y, label, S)] + [right(x, y, v, S) for x, v in zip(edges, values, strict=True)]
    (table,) = find_tables(words_of(page))
    headers = table.headers()
    # the columns below repeat as two equal groups (date, date, % Change): each period heads its group, so each
    # change column says whose change it is
    assert headers == ["(MILLIONS)", "Three Months Ended / July 2, 2023", "Three Months Ended / July 3, 2022",
                       "Three Months Ended / % Change", "Six Months Ended / July 2, 2023",
                       "Six Months Ended / July 3, 2022", "Six Months Ended / % Change"]
    assert table.rows[0][0] == "United States", table.rows[:2]
    assert ["Revenues", "$12,734", "$27,742", "(54)", "$31,015", "$53,402", "(42)"] in table.rows


def test_a_sentence_introducing_the_next_table_ends_the_one_above() -> None:
    """A note prints two tables close together with other columns (derivatives: one label column, two dates; leases:
    a category, a location, two dates) and "… was as follows ($ in millions):" between them: two tables, each with
    its own columns — not one whose values share a cell ("$2,844 $2,749")."""
    page: list[Piece] = [(40, 40, "Notional amounts of our derivative instruments were as follows ($ in millions):", S),
                         (40, 56, "Contract Type", S), right(420, 56, "January 28, 2033", S),
                         right(500, 56, "January 29, 2032", S),
                         *_rows(67, [("Net investment hedges", "$114", "$155"), ("Interest rate swaps", "500", "500"),
                                     ("Total", "$614", "$655")]),
                         (40, 104, "Supplemental balance sheet information related to our leases was as follows "
                                   "($ in millions):", S),
                         (200, 120, "Balance Sheet Location", S), right(420, 120, "January 28, 2033", S),
                         right(500, 120, "January 29, 2032", S)]
    for i, (kind, where, a, b) in enumerate([("Operating leases", "Operating lease assets", "$2,746", "$2,654"),
                                             ("Finance leases", "Property under finance leases", "50", "45"),
                                             ("Operating leases", "Long-term operating lease liabilities", "2,164",
                                              "2,061"),
                                             ("Total lease liabilities", "", "$2,844", "$2,749")]):
        y = 131 + 11 * i
        page += [(40, y, kind, S), right(420, y, a, S), right(500, y, b, S)] + ([(200, y, where, S)] if where else [])
    first, second = find_tables(words_of(page))
    assert first.columns == 3 and ["Total", "$614", "$655"] in first.rows, first.rows
    assert second.columns == 4, second.markdown()
    assert ["Total lease liabilities", "", "$2,844", "$2,749"] in second.rows, second.rows
    assert second.headers()[1:] == ["Balance Sheet Location", "January 28, 2033", "January 29, 2032"]
    assert "leases was as follows" in second.caption


def test_years_centred_over_two_columns_each_set_no_columns() -> None:
    """``(in millions) | 2032 | 2031``, each year centred over two columns (fair value asset / liability): the
    year line is a header, so it must not bridge the gap between its two columns — four value columns, not two
    whose values share a cell ("$36 $—")."""
    page: list[Piece] = [(40, 40, "The fair value of derivative instruments was as follows:", S),
                         (42, 56, "(in millions)", S), (365, 56, "2032", S), (493, 56, "2031", S)]
    for x, text in ((323, "Fair Value"), (387, "Fair Value"), (450, "Fair Value"), (514, "Fair Value")):
        page.append((x, 67, text, S))
    for x, text in ((332, "Asset"), (390, "Liability"), (460, "Asset"), (518, "Liability")):
        page.append((x, 78, text, S))
    page.append((40, 92, "Derivatives designated as hedging instruments:", S))
    # "$" set at its column's left edge, the amounts right-aligned: each column is wide, the gap
    # between a year's two columns narrow — and the year, centred over both, crosses it
    lefts, edges = (314.0, 378.0, 441.0, 505.0), (368.0, 431.0, 495.0, 560.0)
    rows = [("Option contracts", "$36", "$—", "$91", "$—"), ("Forward contracts", "—", "7", "—", "—"),
            ("Other forward contracts", "15", "8", "7", "8"), ("Total derivatives", "$51", "$15", "$98", "$8")]
    for i, (label, *values) in enumerate(rows):
        y = 103 + 11 * i
        page.append((49, y, label, S))
        for a, b, v in zip(lefts, edges, values, strict=True):
            page += [(a, y, "$", S), right(b, y, v[1:], S)] if v.startswith("$") else [right(b, y, v, S)]
    (table,) = find_tables(words_of(page))
    assert table.columns == 5, table.markdown()
    assert ["Option contracts", "$36", "$—", "$91", "$—"] in table.rows
    heads = table.headers()[1:]
    assert [h.endswith("Asset") for h in heads] == [True, False, True, False], heads
    assert "2032" in heads[0] and "2031" in heads[2], heads


def _centred(x_centre: float, y: float, text: str, size: float = 7.0) -> Piece:
    return (x_centre - width(text, size) / 2, y, text, size)


#: a store roll-forward laid out like a quarterly report's: two year labels, each centred over four narrow number
#: columns whose headers wrap over two or three lines
_ROLL_RIGHTS = (194, 241, 287, 356, 427, 472, 519, 589)
_ROLL_CELLS = (("Units at", "Start of", "Quarter"), ("Units", "Opened"), ("Units", "Closed"),
               ("Units at", "End of", "Quarter"))


def _roll_forward_page() -> list[Piece]:
    page: list[Piece] = [(40, 40, "Store units at the start and end of the quarters were as follows:", S),
                         _centred(252, 62, "Fiscal 2030"), _centred(483, 62, "Fiscal 2029")]
    for k, x in enumerate(_ROLL_RIGHTS):
        lines = _ROLL_CELLS[k % 4]
        for i, text in enumerate(lines):
            page.append(_centred(x - 20, 71 + 8 * (i + 3 - len(lines)), text))
    rows = [("Stores", "908", "-", "(1)", "907", "931", "1", "(2)", "930"),
            ("Outlets", "20", "1", "(1)", "20", "16", "2", "-", "18"),
            ("Total", "928", "1", "(2)", "927", "947", "3", "(2)", "948")]
    for r, (label, *values) in enumerate(rows):
        y = 100 + 10 * r
        page += [(40, y, label, S), *(right(x, y, v, S) for x, v in zip(_ROLL_RIGHTS, values, strict=True))]
    return page


def test_year_labels_over_repeated_wrapped_headers_head_their_whole_group() -> None:
    (table,) = find_tables(words_of(_roll_forward_page()))
    headers = table.headers()[1:]
    assert [h.replace(" / ", " | ") for h in headers] == [
        f"Fiscal {year} | {name}" for year in (2030, 2029) for name in (
            "Units at Start of Quarter", "Units Opened", "Units Closed", "Units at End of Quarter")]
    assert table.rows[-1] == ["Total", "928", "1", "(2)", "927", "947", "3", "(2)", "948"]


def test_a_wrapped_header_heads_the_column_of_its_last_line_not_a_neighbour() -> None:
    """'Capital in' over 'Excess of Par Value' is one header of one column, between two others."""
    page: list[Piece] = [
        _centred(300, 60, "Common"), _centred(380, 60, "Capital in"),
        _centred(300, 68, "Stock"), _centred(380, 68, "Excess of Par Value"), _centred(460, 68, "Retained Earnings"),
        *[(40, 80 + 10 * i, label, S) for i, label in enumerate(("Balance", "Net income", "Dividends"))],
    ]
    for i, values in enumerate((("805", "3,247", "86,904"), ("-", "-", "14,881"), ("-", "-", "(6,048)"))):
        page += [right(x + 15, 80 + 10 * i, v, S) for x, v in zip((300, 380, 460), values, strict=True)]
    (table,) = find_tables(words_of(page))
    assert table.headers()[1:] == ["Common Stock", "Capital in Excess of Par Value", "Retained Earnings"]

