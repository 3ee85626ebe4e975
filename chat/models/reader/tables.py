"""Tables in passage text (pure): Markdown pipe tables and the flattened lines of older chunks.

Markdown (what ingest emits for a table chunk): optional caption/heading lines, a header row (multi-row headers
joined with `` / ``: ``| | Three Months Ended / December 31, 2022 | … | Change |``), a ``|---|`` separator,
then one row per line. Flattened (a PDF text layer without table structure): a caption line, short header
lines (``Three Months Ended``, ``December 31,``, ``2022`` …), then rows ``iPhone $ 65,775 $ 71,628 (8)%`` —
a label followed by the values. In both, a row with a label and no values (``Greater China:``) is a section
that qualifies the rows below it, and the caption's unit (``(in millions)``) scales every cell.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from dataclasses import dataclass

from chat.models.reader.numbers import Amount, Unit, caption_unit, parse_amount
from chat.models.reader.periods import Period, ended_on, find_periods, span_months, spans_in
from chat.models.reader.quarters import number_quarters
from chat.models.reader.text import lines_with_offsets, match_terms

_SEPARATOR = re.compile(r"^\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?$")
_VALUE_TOKEN = re.compile(
    r"^(?:[$€£¥￥₩]|RM|US\$|[△▲]?\(?[-−–]?[$€£¥￥₩]?\d(?:[\d,]*\d)?(?:\.\d+)?\)?%?|\(?\d+(?:\.\d+)?\)?%|"
    r"[-—–]+|n/?m|n/?a)$",
    re.IGNORECASE,
)
_CHANGE_HEADER = re.compile(
    r"change|chg|increase|decrease|variance|yoy|%|증감|변동|증가율|増減|前年比|伸び率", re.IGNORECASE
)
#: a column of the change between two periods: "2018 versus 2017", "% change 22 vs. 21", "2022 compared to 2021"
_COMPARISON_HEADER = re.compile(
    r"(?i)\b(?:(?:19|20)\d\d|\d\d)\s*(?:versus|vs\.?|v\.|compared\s+(?:to|with)|over)\s*(?:(?:19|20)\d\d|\d\d)\b")
_YEAR_DASH_YEAR = re.compile(r"\b((?:19|20)\d\d)\s*[-–]\s*((?:19|20)\d\d)\b")


def _comparison_header(header: str) -> bool:
    """``header`` names the change between two periods — "2018 versus 2017", or "2022-2021" with the later year
    first (an ascending "2021-2022" may be one fiscal year's name)."""
    return bool(_COMPARISON_HEADER.search(header)) or any(
        int(a) > int(b) for a, b in _YEAR_DASH_YEAR.findall(header))


_TOTAL_ROW = re.compile(r"(?i)^(?:total|합계|총계|計|合計)\b|(?:합계|총계|合計|計)$")
MAX_LABEL_CHARS = 80
MAX_HEADER_LINES = 8
MAX_HEADER_CHARS = 40
_MONTH_WORD = (r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
               r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")
#: the words a period header line is made of, besides its dates ("Three Months Ended Six Months Ended")
_PERIOD_HEADER_WORDS = re.compile(
    r"\b(?:three|six|nine|twelve|\d{1,2}|months?|weeks?|year|years|quarters?|fiscal|ended|ending|as|of|at|and|"
    r"unaudited|change|%)\b|[(),.%/\-–]", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Column:
    header: str
    periods: tuple[Period, ...]
    span: int | None
    is_change: bool


@dataclass(frozen=True, slots=True)
class Row:
    label: str
    section: str
    cells: tuple[str, ...]  # one per value column ("" where the row has none)
    line: tuple[int, int]  # the row's span in the passage text

    def amount(self, col: int) -> Amount | None:
        return parse_amount(self.cells[col]) if 0 <= col < len(self.cells) and self.cells[col] else None


@dataclass(frozen=True, slots=True)
class Table:
    caption: str
    unit: Unit
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    header: tuple[int, int] | None  # span of the header line(s) in the passage text
    markdown: bool
    borrowed: bool = False  # its columns are its page's other grid's (``with_page_header``)


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", inner)]


def _quarter_of_year(periods: tuple[Period, ...]) -> tuple[Period, ...]:
    """A header's levels name a year and a quarter (or half) apart — "2023 / Q1", "SECOND QUARTER / 2023": one
    period, the quarter of that year (else a question for Q2 2023 fits the Q1 column by its year alone)."""
    years = [p for p in periods if p.year and not (p.month or p.quarter or p.half)]
    parts = [p for p in periods if (p.quarter or p.half) and not p.year]
    if len(years) != 1 or len(parts) != 1 or len(periods) != 2:
        return periods
    y, part = years[0], parts[0]
    first, last = sorted((y, part), key=lambda p: p.start)
    return (dataclasses.replace(part, year=y.year, fiscal=y.fiscal, start=first.start, end=last.end,
                                text=f"{part.text} {y.text}"),)


#: "Fiscal Year / 2022": a fiscal year whose header levels split its name from its number — the company's fiscal
#: 2022, not the calendar year (a "fiscal 2023" asked is no neighbour of it)
_FISCAL_LEVELS = re.compile(r"(?i)\bfiscal(?:\s+years?)?\s*/\s*((?:19|20)\d\d)\b")


def _column(header: str, caption_span: int | None, caption_year: int | None = None,
            caption_end: tuple[int, int] | None = None) -> Column:
    # header levels joined by " / " split a date: "Three Months Ended March 31, / 2023" is March 31, 2023
    # (a numeric date, "3/25/2023", has no space around its slashes)
    periods = tuple(find_periods(_FISCAL_LEVELS.sub(r"Fiscal Year \1", re.sub(
        r"(\d{1,2})(?:,\s*/\s*|\s+/\s*|\s*/\s+)((?:19|20)\d\d)\b", r"\1, \2", header))))
    periods = _quarter_of_year(periods)
    if caption_year and periods and all(p.year is None and (p.quarter or p.half) for p in periods):
        # "| | First-Quarter |" under "First-Quarter 2023 Results": the caption's year is the quarter's
        periods = tuple(dataclasses.replace(p, year=caption_year) for p in periods)
        header = f"{header} {caption_year}"
    if caption_end and periods and all(p.year is not None and p.month is None and p.quarter is None
                                       and p.half is None for p in periods):
        # "2018" under "Years ended December 31": the year ended December 31, 2018 (a balance at that date is
        # the cash flow statement's "Cash … at end of period" there)
        periods = tuple(dataclasses.replace(p, month=caption_end[0], day=caption_end[1]) for p in periods)
    span = span_months(header) or caption_span
    if any(p.quarter for p in periods) and not re.search(r"(?i)\bmonths?\b", header):
        span = 3  # "Fiscal Year Ended January 31, 2020 / Q2": a quarter of that year, not the year
    is_change = bool(_CHANGE_HEADER.search(header)) and not periods
    if periods and _comparison_header(header):
        periods, is_change = (), True  # "2018 versus 2017", "2022-2021": the change between them, of no one period
    return Column(header, periods, span, is_change)


def _caption_before(text: str, lines: list[tuple[int, int]], index: int, limit: int = 3) -> str:
    """Up to ``limit`` non-table lines right above line ``index`` (a heading, a unit line)."""
    out: list[str] = []
    j = index - 1
    while j >= 0 and len(out) < limit:
        s, e = lines[j]
        line = text[s:e]
        gap = text[e : lines[j + 1][0]]
        if line.startswith("|") or (out and "\n\n" in gap) or (split_row(line) is not None and not ended_on(line)):
            break  # a row of a flattened table above it — not "Years ended December 31", whose "31" is a day
        if out and line.endswith((".", "。")):
            break
        out.insert(0, line)
        j -= 1
    return " ".join(out)


_STUB_PERIOD = re.compile(rf"\b(?:{_MONTH_WORD})\b|\b(?:months?|year|years|weeks?|quarters?)\s+ended\b|"
                          r"\bfiscal\s+years?\b|^(?:at|as of)\b", re.IGNORECASE)


#: a label column's header saying the figures are shares of something: "(Percent of net sales)", "% of revenue"
_SHARE_STUB = re.compile(r"(?i)\bpercent(?:age)?\s+of\b|%\s+of\b")


def _with_stub(stub: str, header: str) -> str:
    """A value column's header read with the label column's: ``Year Ended December 31,`` over ``2019`` is the
    year ended December 31, 2019 (annual statements print the period once, above the labels)."""
    stub = " ".join(stub.split())
    if not stub or not _STUB_PERIOD.search(stub) or any(p.year for p in find_periods(stub)):
        return header
    periods = find_periods(header)
    if not periods or any(p.month for p in periods) or span_months(header):
        return header
    stub = re.sub(r"(?i)\b(year|month|week|quarter)s(?=\s+ended\b)", r"\1", stub).rstrip(" ,")
    return f"{stub}, {header}" if re.search(r"\d$", stub) else f"{stub} {header}"


def _percent_signs_joined(values: list[str]) -> list[str]:
    """A "%" printed in a cell of its own after its number ("| 18.3 | % |") belongs to that number: "18.3%"."""
    out = list(values)
    for i in range(1, len(out)):
        if out[i].strip() == "%" and re.search(r"\d\)?$", out[i - 1].strip()):
            out[i - 1], out[i] = out[i - 1].strip() + "%", ""
    return out


def markdown_tables(text: str) -> list[Table]:
    lines = lines_with_offsets(text)
    tables: list[Table] = []
    i = 0
    while i < len(lines):
        if not text[lines[i][0] : lines[i][1]].startswith("|"):
            i += 1
            continue
        start = i
        while i < len(lines) and text[lines[i][0] : lines[i][1]].startswith("|"):
            i += 1
        block = lines[start:i]
        rows_text = [text[s:e] for s, e in block]
        has_sep = len(rows_text) > 1 and bool(_SEPARATOR.match(rows_text[1]))
        header_cells = _cells(rows_text[0]) if has_sep else []
        body = block[2:] if has_sep else block
        header: tuple[int, int] | None = (block[0][0], block[0][1]) if has_sep else None
        inner = _header_in_body(text, body)
        if inner is not None:  # the grid took a page heading for its header; its real header is a body row
            upper = _one_period_word(header_cells)
            header, header_cells, body = body[inner], _cells(text[body[inner][0] : body[inner][1]]), body[inner + 1 :]
            if upper:  # "|  | Q2 |  |" over "| ($ in Millions) | 2023 | 2022 | % Change |": each year's Q2
                header_cells = [c if i == 0 or not _only_periods(c) else f"{upper} {c}"
                                for i, c in enumerate(header_cells)]
        segments = _segments(text, header, header_cells, body, _caption_before(text, lines, start))
        for header, header_cells, body, caption in segments:
            if header_cells and _SHARE_STUB.search(header_cells[0]):
                # "(Percent of net sales)" over the labels: every cell
                caption = f"{caption} {header_cells[0]}".strip()
            unit = caption_unit(caption + " " + " ".join(header_cells))
            caption_span = span_months(caption)
            stubless = _stubless(text, header_cells, body)
            if stubless:  # "| Votes For | Votes Against | … |" over "| 57,172,731 | 13,324,080 | … |": no label column
                header_cells = ["", *header_cells]
            width = max(len(_cells(text[s:e])) for s, e in body) + stubless if body else len(header_cells)
            value_headers = [_with_stub(header_cells[0] if header_cells else "", h)
                             for h in (header_cells[1:] + [""] * width)[: max(width - 1, 0)]]
            value_headers, body = _years_row_below(text, value_headers, body)
            above = _period_line_above(text, lines, start, len(value_headers))
            if above is not None and not any(find_periods(h) for h in value_headers):
                # the grid lost its period header: it stayed a text line above the table ("December 31, 2022
                # March 31, 2023"); its dates, in order, are the value columns' headers
                dates = find_periods(text[above[0] : above[1]])
                value_headers = [" ".join(f"{h} {p.text}".split()) for h, p in zip(value_headers, dates, strict=True)]
                header = above
            value_headers = _spanning_period_word(value_headers)
            body_cells = [([""] if stubless else []) + _cells(text[s:e]) for s, e in body]
            value_headers, keep = _years_beside_values(
                value_headers, [(cells[1:] + [""] * len(value_headers))[: len(value_headers)] for cells in body_cells])
            caption_years = {p.year for p in find_periods(caption) if p.year}
            caption_year = caption_years.pop() if len(caption_years) == 1 else None
            columns = _numbered(tuple(_column(h, caption_span, caption_year, ended_on(caption)) for h in value_headers))
            rows: list[Row] = []
            section = ""
            year = ""  # a year printed as a row heading over its rows ("| 2017 | | |"), "" before any
            row_years: list[str] = []
            for (s, e), cells in zip(body, body_cells, strict=True):
                shown = cells[1:] + [""] * (max(keep) + 1) if keep else cells[1:]
                values = [shown[k] for k in keep] if keep else shown
                label, values = cells[0], _percent_signs_joined((values + [""] * len(columns))[: len(columns)])
                if label and not any(v.strip() for v in values):
                    bare = _BARE_YEAR.match(label.strip())
                    if bare:
                        year, section = bare.group(1), ""
                        continue
                    section = label.rstrip(":： ").strip()
                    continue
                rows.append(Row(label, section, tuple(values), (s, e)))
                row_years.append(year)
                if _TOTAL_ROW.match(label):
                    section = ""  # "Total operating expenses" closes the "Operating expenses:" block
            if columns and rows:
                for year_columns, year_rows in _by_year_rows(columns, rows, row_years, value_headers, caption,
                                                             caption_span):
                    year_rows = _unlabelled_totals(year_rows)
                    tables.append(_continued(Table(caption, unit, year_columns, tuple(year_rows), header, True),
                                             tables, caption))
    return tables


_BARE_YEAR = re.compile(r"^(?:FY\s?|fiscal\s+)?((?:19|20)\d\d)$", re.IGNORECASE)


def _by_year_rows(columns: tuple[Column, ...], rows: list[Row], row_years: list[str], headers: list[str],
                  caption: str, caption_span: int | None) -> list[tuple[tuple[Column, ...], list[Row]]]:
    """A table whose years are row headings over dates without a year ("Selected Quarterly Financial Data":
    "| | December 31 | September 30 | … |", then "2017" over its rows, "2016" over its own): a table per year, its
    columns in that year — the quarters of a table captioned quarterly ("three months ended December 31, 2017").
    Any other table: itself."""
    if not all(row_years) or any(p.year for c in columns for p in c.periods) \
            or not any(_MONTH_DAY.search(h) for h in headers):
        return [(columns, rows)]
    months = [p.month for h in headers for p in find_periods(_MONTH_DAY.sub(r"\g<0>, 2000", h, count=1)) if p.month]
    if months != sorted(months) and months != sorted(months, reverse=True):
        return [(columns, rows)]  # "April 30 | July 31 | October 31 | January 31": a fiscal year across two calendar
        # years — which year each date is in is not known from the heading
    span = 3 if re.search(r"(?i)\bquarterly\b", caption) else caption_span
    out: list[tuple[tuple[Column, ...], list[Row]]] = []
    for year in dict.fromkeys(row_years):
        dated = _numbered(tuple(_column(_MONTH_DAY.sub(rf"\g<0>, {year}", h, count=1), span) for h in headers))
        out.append((_quarters_in_order(dated), [r for r, y in zip(rows, row_years, strict=True) if y == year]))
    return out


def _quarters_in_order(columns: tuple[Column, ...]) -> tuple[Column, ...]:
    """Four three-month columns of one year ending three months apart ("March 31, 2017" … "December 31, 2017"):
    its quarters, numbered in the order they end."""
    ends = sorted(c.periods[0].month or 0 for c in columns if c.span == 3 and len(c.periods) == 1)
    if len(ends) != 4 or len(columns) != 4 or [b - a for a, b in itertools.pairwise(ends)] != [3, 3, 3]:
        return columns
    return tuple(dataclasses.replace(c, periods=(dataclasses.replace(c.periods[0],
                                                                     quarter=ends.index(c.periods[0].month or 0) + 1),))
                 for c in columns)


#: a month and day with no year after them ("December 31", "Sept. 30")
_MONTH_DAY = re.compile(r"(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b"
                        r"(?!\s*,?\s*(?:19|20)\d\d)")


def _stubless(text: str, header_cells: list[str], body: list[tuple[int, int]]) -> bool:
    """A grid without a label column: every header cell names a column ("Votes For | Votes Against | Abstentions")
    and every body row opens with an amount."""
    if not body or not header_cells or not all(c.strip() for c in header_cells) or any(
            find_periods(c) for c in header_cells):
        return False
    firsts = [(_cells(text[s:e]) or [""])[0].strip() for s, e in body]
    # counts grouped in thousands ("57,172,731"), not a year, a date or an exhibit's number, which label their rows
    return all(re.fullmatch(r"\$?\s?\(?\d{1,3}(?:,\d{3})+(?:\.\d+)?\)?", f) for f in firsts)


def _years_beside_values(headers: list[str], cells: list[list[str]]) -> tuple[list[str], list[int]]:
    """A grid whose year cells landed in columns of their own beside the amounts ("Three Months Ended June 30, /
    2023" empty in every row, "Three Months Ended June 30," next to it holding the amounts): each such pair is one
    column, the dated header over the amounts. Returns the headers and the value columns kept ([] when none
    merge)."""
    def filled(j: int) -> bool:
        return any(row[j].strip() for row in cells)

    def dated(h: str) -> bool:
        return any(p.year for p in find_periods(h))

    merged = list(headers)
    drop: set[int] = set()
    taken: set[int] = set()
    for j in range(len(headers)):
        if j in drop or j in taken or filled(j) or not dated(headers[j]):
            continue
        for k in (j + 1, j - 1):
            if 0 <= k < len(headers) and k not in drop and k not in taken and filled(k) \
                    and not dated(headers[k]) and headers[k].strip() and headers[j].startswith(headers[k].strip()):
                merged[k] = headers[j]
                drop.add(j)
                taken.add(k)
                break
    if not drop:
        return headers, []
    keep = [j for j in range(len(headers)) if j not in drop]
    return [merged[j] for j in keep], keep


def _segments(text: str, header: tuple[int, int] | None, header_cells: list[str], body: list[tuple[int, int]],
              caption: str) -> list[tuple[tuple[int, int] | None, list[str], list[tuple[int, int]], str]]:
    """One grid that holds two tables: a body row of periods only ("| In Millions | 2019 | 2018 | 2017 |") after
    rows of amounts starts a table of its own, with that row as its header and the section line above it ("Certain
    Consolidated Statements of Earnings amounts are as follows:") as its caption — its columns are not the first
    header's ("May 26, 2019 | May 27, 2018")."""
    out: list[tuple[tuple[int, int] | None, list[str], list[tuple[int, int]], str]] = []
    amounts = False
    begin = 0
    for k, (s, e) in enumerate(body):
        cells = _cells(text[s:e])
        values = [c for c in cells[1:] if c.strip()]
        if amounts and len(values) >= 2 and all(_only_periods(c) for c in values):
            out.append((header, header_cells, body[begin:k], caption))
            before = _cells(text[body[k - 1][0] : body[k - 1][1]])
            if before and not any(c.strip() for c in before[1:]):
                caption = f"{caption} {before[0]}".strip()
            header, header_cells, begin, amounts = (s, e), cells, k + 1, False
            continue
        amounts = amounts or any(parse_amount(c) is not None for c in values)
    out.append((header, header_cells, body[begin:], caption))
    return out


_CURRENT_ASSETS = re.compile(r"(?i)^total current assets\b")
_LIABILITIES_HEADING = re.compile(r"(?i)^liabilities\b(?!.*\btotal\b)")
_EQUITY_WORD = re.compile(r"(?i)\b(?:equity|deficit)\b")


def _all_amounts(row: Row) -> bool:
    filled = [c for c in row.cells if c.strip()]
    return bool(filled) and all(parse_amount(c) is not None for c in filled)


def _unlabelled_totals(rows: list[Row]) -> list[Row]:
    """A balance sheet's totals printed without a label (a double-underlined figure under the last asset line, and
    under the last equity line): named as what they are — the one above the liabilities heading "Total assets",
    the last one after the equity lines "Total liabilities and equity". Only in a grid that prints "Total current
    assets" (a balance sheet); rows with labels are left as printed."""
    if not any(_CURRENT_ASSETS.match(r.label) for r in rows):
        return rows
    out = list(rows)
    amounts = [i for i, r in enumerate(rows) if _all_amounts(r)]
    for i, row in enumerate(rows):
        if row.label.strip() or not _all_amounts(row):
            continue
        after = [" ".join([r.label, *r.cells]).strip() for r in rows[i + 1 : i + 3]]
        if any(_LIABILITIES_HEADING.match(a) for a in after):
            out[i] = dataclasses.replace(row, label="Total assets", section="")
        elif i == amounts[-1] and any(_EQUITY_WORD.search(r.label) for r in rows[:i]):
            out[i] = dataclasses.replace(row, label="Total liabilities and equity", section="")
    return out


_YEAR_CELL = re.compile(r"(?:FY\s?)?(?:19|20)\d{2}")


def _years_row_below(text: str, headers: list[str], body: list[tuple[int, int]]
                     ) -> tuple[list[str], list[tuple[int, int]]]:
    """A header cut in two: "Three Months Ended / July 2," over a first body row of years ("| PRODUCT | … | 2023 |
    2022 |") — each year joins its column's header (a blank header takes that row's word: a stub column's name),
    and the row is no data row. Unchanged when the headers have their years, or the row is not one of years."""
    if not body or all(any(p.year for p in find_periods(h)) for h in headers if h.strip()):
        return headers, body
    first = _cells(text[body[0][0] : body[0][1]])
    values = (first[1:] + [""] * len(headers))[: len(headers)]
    years = [v.strip() for v in values if _YEAR_CELL.fullmatch(v.strip())]
    words_ok = all(not v.strip() or _YEAR_CELL.fullmatch(v.strip()) or (not h.strip() and not re.search(r"\d", v))
                   for h, v in zip(headers, values, strict=True))
    if len(years) < 2 or not words_ok:
        return headers, body
    merged = [" ".join(f"{h} {v}".split()) if v.strip() else h for h, v in zip(headers, values, strict=True)]
    return merged, body[1:]


def _continued(table: Table, before: list[Table], caption: str) -> Table:
    """A grid with a blank header (``|  |  |  |``) right after another of as many columns is the same statement
    continued — a section heading (``LIABILITIES AND EQUITY`` / ``Current liabilities:``) or a page break split
    it: it reads its columns (periods), unit and caption from the earlier grid; its own rows stay."""
    if not before or any(c.header.strip() for c in table.columns):
        return table
    prior = before[-1]
    if len(prior.columns) != len(table.columns) or not any(c.periods for c in prior.columns):
        return table
    unit = table.unit if table.unit.scale != 1.0 or table.unit.currency else prior.unit
    if not unit.currency and any(c.startswith(("$", "US$")) for r in prior.rows for c in r.cells):
        unit = Unit(unit.scale, unit.word, "$")  # the statement's first grid shows its currency; the rest don't
    return Table(prior.caption if not caption.strip() else f"{prior.caption} {caption}".strip(), unit,
                 prior.columns, table.rows, prior.header, True)


_PERIOD_WORD = re.compile(
    r"(?i)\b(?:(?:first|second|third|fourth)\s+quarter|q[1-4]|(?:first|second)\s+half|h[12]|"
    r"(?:three|six|nine|twelve|\d{1,2})[\s-]+(?:months|weeks)(?:\s+end(?:ed|ing))?|(?:fiscal\s+)?years?\s+end(?:ed|ing)|"
    r"full[\s-]years?)\b")


def _spanning_period_word(headers: list[str]) -> list[str]:
    """A period word centred over several columns lands in one column's header only ("2023 / Amount | SECOND
    QUARTER / 2022 / Amount"): when exactly one period word is in the headers and other dated columns have none, it
    heads every dated column."""
    words = {m.group(0).lower(): m.group(0) for h in headers for m in _PERIOD_WORD.finditer(h)}
    if len(words) != 1:
        return headers
    word = next(iter(words.values()))
    dated = [i for i, h in enumerate(headers) if any(p.year for p in find_periods(h))]
    lacking = [i for i in dated if not _PERIOD_WORD.search(headers[i])]
    if not lacking or len(lacking) == len(dated):
        return headers
    return [f"{word} / {h}" if i in lacking else h for i, h in enumerate(headers)]


def _one_period_word(cells: list[str]) -> str:
    """The one period word a grid's upper header line holds over its value columns ("Q2", "Second Quarter",
    "Three Months Ended"), else ``""``."""
    words = {c.strip() for c in cells[1:] if c.strip()}
    if len(words) != 1:
        return ""
    word = next(iter(words))
    periods = find_periods(word)
    if any(p.year for p in periods) or re.search(r"\d{3}", word):
        return ""
    return word if (any(p.quarter or p.half for p in periods) or span_months(word)) else ""


def _header_in_body(text: str, body: list[tuple[int, int]]) -> int | None:
    """Index of a body row that is the table's header — its value cells are all dates or years (``(In Millions;
    Unaudited) | Jul 1, 2023 | Dec 31, 2022``) — when no row above it holds an amount; else None."""
    for k, (s, e) in enumerate(body[:4]):
        cells = _cells(text[s:e])
        values = [c for c in cells[1:] if c.strip()]
        dated = [c for c in values if _only_periods(c)]
        # (a change column's header beside the dates: "($ in Millions) | 2023 | 2022 | % Change")
        if len(dated) >= 2 and all(c in dated or (_CHANGE_HEADER.search(c) and not re.search(r"\d", c))
                                   for c in values):
            return k
        if any(parse_amount(c) is not None for c in values):
            return None
    return None


def _period_line_above(text: str, lines: list[tuple[int, int]], start: int, columns: int) -> tuple[int, int] | None:
    """Span of a line of exactly ``columns`` dates among the two lines right above line ``start``."""
    for j in (start - 1, start - 2):
        if j < 0 or text[lines[j][0] : lines[j][1]].startswith("|"):
            return None
        line = text[lines[j][0] : lines[j][1]]
        if columns and _only_periods(line) and len([p for p in find_periods(line) if p.year]) == columns:
            return lines[j]
    return None


def split_row(line: str) -> tuple[str, list[str]] | None:
    """``iPhone $ 65,775 $ 71,628 (8)%`` → ``("iPhone", ["$ 65,775", "$ 71,628", "(8)%"])``; None if not a row."""
    tokens = line.split()
    values: list[str] = []
    while tokens and _VALUE_TOKEN.match(tokens[-1]):
        token = tokens.pop()
        if re.fullmatch(r"[$€£¥￥₩]|RM|US\$", token, re.IGNORECASE) and values:
            values[-1] = token + " " + values[-1]
        else:
            values.append(token)
    label = " ".join(tokens)
    if label.endswith((":", "：", "=")) or "|" in label:
        return None  # "Total : 9.00" is a key-value line (``fields``)
    values.reverse()
    values = [v for v in values if not re.fullmatch(r"[$€£¥￥₩]|RM|US\$", v, re.IGNORECASE)]
    if not values or not label or len(label) > MAX_LABEL_CHARS or not any(re.search(r"\d", v) for v in values):
        return None
    if label.endswith((".", "。")) or (not re.search(r"[^\W\d_]", label) and not re.fullmatch(r"(?:19|20)\d\d", label)):
        return None
    if any(p.month for p in find_periods(label)) and _only_periods(line):
        return None  # "Jun 29, 2024 Jul 1, 2023 Jun 29, 2024 Jul 1, 2023": the header's dates
    return label, values


def _is_section(line: str) -> bool:
    return len(line) <= MAX_LABEL_CHARS and line.endswith((":", "：")) and not re.search(r"\d", line)


def flattened_tables(text: str) -> list[Table]:
    lines = lines_with_offsets(text)
    tables: list[Table] = []
    i = 0
    while i < len(lines):
        row = split_row(text[lines[i][0] : lines[i][1]]) if not text[lines[i][0]] == "|" else None
        if row is None:
            i += 1
            continue
        start = i
        rows: list[tuple[str, str, list[str], tuple[int, int]]] = []
        section = ""
        # a section line right above the first row belongs to the table
        if start > 0 and _is_section(text[lines[start - 1][0] : lines[start - 1][1]]):
            section = text[lines[start - 1][0] : lines[start - 1][1]].rstrip(":： ")
            start -= 1
        while i < len(lines):
            s, e = lines[i]
            line = text[s:e]
            parsed = split_row(line) if not line.startswith("|") else None
            if parsed is not None:
                rows.append((parsed[0], section, parsed[1], (s, e)))
                if _TOTAL_ROW.match(parsed[0]):
                    section = ""
            elif _is_section(line):
                section = line.rstrip(":： ")
            else:
                break
            i += 1
        width = max((len(r[2]) for r in rows), default=0)
        if sum(1 for r in rows if len(r[2]) >= 2) < 2:
            continue  # one value per line: key-value lines (``fields``), not a table
        header_lines: list[tuple[int, int]] = []
        j = start - 1
        while j >= 0 and len(header_lines) < MAX_HEADER_LINES:
            s, e = lines[j]
            line = text[s:e]
            if not _header_line(line):
                break
            header_lines.insert(0, (s, e))
            j -= 1
        header_text = " ".join(text[s:e] for s, e in header_lines)
        caption = _caption_before(text, lines, j + 1) if j >= 0 else ""
        unit = caption_unit(caption + " " + header_text)
        columns = _numbered(_flat_columns(header_text, width, rows, span_months(caption)))
        table_rows = tuple(
            Row(label, sec, tuple((vals + [""] * width)[:width]) if len(vals) == width else _align(vals, width), span)
            for label, sec, vals, span in rows
        )
        header = (header_lines[0][0], header_lines[-1][1]) if header_lines else None
        tables.append(Table(caption, unit, columns, table_rows, header, False))
    return tables


def _header_line(line: str) -> bool:
    """A line of a flattened table's header: short, or made of period words and dates only (``Jun 29, 2024
    Jul 1, 2023 Jun 29, 2024 Jul 1, 2023``, ``Three Months Ended Six Months Ended``)."""
    if split_row(line) is not None or line.endswith((".", ":", "：")):
        return False
    if len(line) <= MAX_HEADER_CHARS and not line.endswith(")"):
        return True
    return _only_periods(line)


def _only_periods(line: str) -> bool:
    """The line holds dates and period words only — a header line, however long, never a row."""
    periods = find_periods(line)
    if not periods or len(line) > 160:
        return False
    rest = line
    for p in sorted(periods, key=lambda p: p.start, reverse=True):
        rest = rest[: p.start] + " " + rest[p.end :]
    return not re.search(r"[^\W\d_]", _PERIOD_HEADER_WORDS.sub(" ", rest))


def _align(values: list[str], width: int) -> tuple[str, ...]:
    """A short row: a trailing percent goes to the last (change) column, the rest from the left."""
    if values and values[-1].endswith("%") and width > len(values):
        return tuple(values[:-1] + [""] * (width - len(values)) + values[-1:])
    return tuple((values + [""] * width)[:width])


def _flat_columns(
    header: str, width: int, rows: list[tuple[str, str, list[str], tuple[int, int]]], caption_span: int | None
) -> tuple[Column, ...]:
    periods = find_periods(header)
    span = span_months(header) or caption_span
    spans = spans_in(header)
    full = [r[2] for r in rows if len(r[2]) == width]
    last_is_percent = bool(full) and all(v[-1].endswith("%") for v in full)
    columns: list[Column] = []
    for c in range(width):
        if c < len(periods) and not (last_is_percent and c == width - 1 and len(periods) < width):
            p = periods[c]
            # "Three Months Ended Six Months Ended" over four dates: two columns each, in order
            own = spans[c * len(spans) // len(periods)] if len(spans) > 1 and len(periods) % len(spans) == 0 else span
            columns.append(Column(p.text, (p,), own, False))
        elif last_is_percent and c == width - 1:
            columns.append(Column("Change", (), None, True))
        else:
            columns.append(Column("", (), span, False))
    return tuple(columns)


def _numbered(columns: tuple[Column, ...]) -> tuple[Column, ...]:
    """The columns with their quarters numbered from the table's year-to-date columns (``quarters``)."""
    periods = number_quarters([(c.span, c.periods) for c in columns])
    return tuple(dataclasses.replace(c, periods=p) if p != c.periods else c for c, p in zip(columns, periods,
                                                                                             strict=True))


def find_tables(text: str) -> list[Table]:
    return markdown_tables(text) + flattened_tables(text)


_CELL_CURRENCY = re.compile(r"US\$|\$|€|£|¥|₩|(?:EUR|GBP|JPY|CHF)\b")


def shown_currency(table: Table) -> str:
    """The currency the table states: its caption's, else the ``$`` its own cells show ("" when neither)."""
    if table.unit.currency:
        return table.unit.currency
    for row in table.rows:
        for cell in row.cells:
            m = _CELL_CURRENCY.match(cell)
            if m:
                return "$" if m.group(0) in ("$", "US$") else m.group(0)
    return ""


def with_document_currency(tables: list[list[Table]], documents: list[str]) -> list[list[Table]]:
    """Give a scaled table that shows no currency its document's one currency. A statement's ``$`` is printed on
    its first and total rows only, so a chunk of its middle rows ("Repurchases of common stock | (56,547)" under
    "(In millions)") shows none; when every other table of the same document that shows a currency shows the
    same one, the chunk is in it too. A document whose tables show two currencies, or none, gives nothing."""
    shown = [[shown_currency(t) for t in passage_tables] for passage_tables in tables]
    seen: dict[str, set[str]] = {}
    for currencies, doc in zip(shown, documents, strict=True):
        seen.setdefault(doc, set()).update(c for c in currencies if c)
    out: list[list[Table]] = []
    for passage_tables, currencies, doc in zip(tables, shown, documents, strict=True):
        known = seen[doc]
        # the English answer speaks "$"; other currencies stay as shown
        currency = "$" if known == {"$"} else ""
        out.append([
            dataclasses.replace(t, unit=dataclasses.replace(t.unit, currency=currency))
            if currency and t.unit.scale != 1.0 and not own else t
            for t, own in zip(passage_tables, currencies, strict=True)
        ])
    return out



#: how many other tables of a document must state its one scale before a table that states none is read in it
DOCUMENT_SCALE_TABLES = 2


def with_document_scale(tables: list[list[Table]], documents: list[str]) -> list[list[Table]]:
    """Give a table that states no unit but shows money in its cells ("Total debt | $57,001 | $58,102") its
    document's one scale: a filing states "(Dollars in millions)" over its statements and leaves it off its notes'
    tables. Only when at least ``DOCUMENT_SCALE_TABLES`` other tables of the same document state a scale and all
    state the same one; a document whose tables state two ("in thousands" here, "in millions" there) gives none,
    and a table without a currency sign (counts, rates) is left as it is."""
    scales: dict[str, list[Unit]] = {}
    for passage_tables, doc in zip(tables, documents, strict=True):
        scales.setdefault(doc, []).extend(t.unit for t in passage_tables if t.unit.scale != 1.0)
    out: list[list[Table]] = []
    for passage_tables, doc in zip(tables, documents, strict=True):
        stated = scales[doc]
        kinds = {(u.scale, u.word) for u in stated}
        one = stated[0] if len(stated) >= DOCUMENT_SCALE_TABLES and len(kinds) == 1 else None
        out.append([
            dataclasses.replace(t, unit=Unit(one.scale, one.word, shown_currency(t)))
            if one is not None and t.unit == Unit() and not caption_unit(t.caption).word and shown_currency(t)
            else t
            for t in passage_tables
        ])
    return out


def with_page_scale(tables: list[list[Table]], texts: list[str], pages: list[tuple[str, int] | None]
                    ) -> list[list[Table]]:
    """Give a table that states no unit the one its page's other chunk ends with: the chunker cut "The following
    table summarizes … (in thousands):" from the grid below it, so the grid's chunk opens with the grid alone.
    A chunk whose caption states a unit keeps it; a page whose chunks end with no unit, or with two, gives none."""
    ending: dict[tuple[str, int], set[Unit]] = {}
    for text, page in zip(texts, pages, strict=True):
        lines = [line for line in text.splitlines() if line.strip()]
        if page is None or not lines or lines[-1].lstrip().startswith("|"):
            continue
        unit = caption_unit(" ".join(lines[-2:]))  # "… for the year ended December 31, 2020 and 2019 (in\nthousands):"
        if unit.scale != 1.0:
            ending.setdefault(page, set()).add(unit)
    out: list[list[Table]] = []
    for passage_tables, page in zip(tables, pages, strict=True):
        units = ending.get(page) if page is not None else None
        out.append([
            dataclasses.replace(t, unit=next(iter(units)))
            if units and len(units) == 1 and t.unit == Unit() and not caption_unit(t.caption).word else t
            for t in passage_tables
        ])
    return out


#: a line of years alone (a header row left at the end of the chunk before its grid: "| (Millions) |  | 2018 |
#: 2017 2016 |  |"), its stub aside
_YEARS_ONLY = re.compile(r"(?:(?:19|20)\d\d\s*)+")


def _trailing_years(text: str) -> tuple[str, ...]:
    """The years of ``text``'s last line when it is a header row of years only (its first cell a stub), else ()."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines or not lines[-1].lstrip().startswith("|"):
        return ()
    cells = _cells(lines[-1])
    rest = " ".join(c for c in cells[1:] if c.strip())
    if re.search(r"\d", cells[0].strip("()")) or not _YEARS_ONLY.fullmatch(rest.strip() + " "):
        return ()
    return tuple(re.findall(r"(?:19|20)\d\d", rest))


def with_page_header(tables: list[list[Table]], texts: list[str], pages: list[tuple[str, int] | None]
                     ) -> list[list[Table]]:
    """Give a grid printed without a header the dated columns (and, stating none, the unit) of its page's table of
    as many columns: a statement's last block set apart from its grid ("Supplemental disclosure of cash flow
    information: | Income taxes paid | $3,616 | $3,982 | $6,179 |") reads in the statement's years. Only where the
    page's dated tables of that width print one and the same header — else the years of a header row the page's
    other chunk ends with, as many as the grid's columns (the chunker cut "| (Millions) | 2018 | 2017 | 2016 |" from
    the grid below it)."""
    dated: dict[tuple[str, int], dict[int, dict[tuple[Column, ...], Unit]]] = {}
    for passage_tables, text, page in zip(tables, texts, pages, strict=True):
        if page is None:
            continue
        for t in passage_tables:
            if any(c.periods for c in t.columns):
                dated.setdefault(page, {}).setdefault(len(t.columns), {}).setdefault(t.columns, t.unit)
        years = _trailing_years(text)
        if years:
            columns = tuple(_column(y, None) for y in years)
            dated.setdefault(page, {}).setdefault(-len(columns), {}).setdefault(columns, Unit())
    out: list[list[Table]] = []
    for passage_tables, page in zip(tables, pages, strict=True):
        widths = dated.get(page, {}) if page is not None else {}
        tables_out = []
        for t in passage_tables:
            headers = widths.get(len(t.columns)) or widths.get(-len(t.columns), {})
            if len(headers) == 1 and t.columns and all(not c.header.strip() and not c.periods for c in t.columns):
                columns, unit = next(iter(headers.items()))
                # (its own empty header line is no header to quote)
                t = dataclasses.replace(t, columns=columns, unit=t.unit if t.unit != Unit() else unit, header=None,
                                        borrowed=True)
            tables_out.append(t)
        out.append(tables_out)
    return out


_HEADER_WORDS = re.compile(
    r"\b(?:Three|Six|Nine|Twelve|Months?|Ended|Ending|Year|Quarter|Fiscal|As of|Period|Weeks?)\b"
)


_SPAN_WORDS = {3: "three months", 6: "six months", 9: "nine months", 12: "year"}


_WEEKS = re.compile(r"(?i)\b(?:\d{2}|[a-z]+(?:[\s-][a-z]+)?)[\s-]+weeks\b(?=\s+end)")
_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December")


def across_sections(table: Table, row: Row, asked: set[str]) -> list[Row] | None:
    """``row`` and its namesakes under the table's other sections, when each section is a part with its own total
    ("Domestic: / Consumer Electronics … Total Domestic revenue", "International: / Consumer Electronics … Total
    International revenue") and ``asked`` (the question's terms) names none of them: the rows whose sum is the
    company's figure, in the table's order. None otherwise."""
    label = " ".join(row.label.split()).lower()
    same = [r for r in table.rows if r.section and " ".join(r.label.split()).lower() == label]
    sections = [match_terms(r.section.rstrip(" :")) for r in same]
    if len(same) < 2 or len({frozenset(s) for s in sections}) != len(same) or row not in same:
        return None
    for words in sections:
        if not words or words & asked or any(t.startswith("§") for t in words):
            return None  # "Net sales: / Americas" beside "Operating income: / Americas": measures, not parts
        if not any(re.match(r"(?i)\s*total\b", r.label) and words <= match_terms(r.label) for r in table.rows):
            return None
    return same


def _spoken_date(p: Period) -> str:
    """A date as written, or spelled out when written in figures ("3/25/2023" → "March 25, 2023"); a header's
    capitals are not the sentence's ("MAY 31, 2021" → "May 31, 2021")."""
    if p.year and p.month and p.day and re.fullmatch(r"[\d/.\-\s]+", p.text):
        return f"{_MONTH_NAMES[p.month - 1]} {p.day}, {p.year}"
    return re.sub(r"[A-Z]{2,}", lambda m: m.group(0).title(), p.text) if p.text.isupper() else p.text


def column_text(table: Table, col: int) -> str:
    """How to say a column's period: ``the three months ended December 31, 2022``."""
    column = table.columns[col]
    header = " ".join(column.header.replace(" / ", " ").split())
    span_words = _SPAN_WORDS.get(column.span or 0, "")
    if not table.markdown and column.span and column.periods:
        return f"the {span_words} ended {header}" if span_words else header
    if column.span is None and len(column.periods) == 1 and column.periods[0].day and not _HEADER_WORDS.search(header):
        return f"as of {column.periods[0].text}"  # a balance sheet's date: a point in time, not a period
    ended = re.search(r"(?i)\bend(?:ed|ing)\b", header)
    if span_words and ended and len(column.periods) == 1 and column.periods[0].day:
        # "For the Years Ended December 31, 2021", "fiscal Years ended January 31, 2019": said the one way
        fiscal = "fiscal " if span_words == "year" and re.search(r"(?i)\bfiscal\b", header) else ""
        weeks = _WEEKS.search(header)  # "12 Weeks Ended": the weeks it says, not the months they stand for
        said = f"{weeks.group(0).lower()}" if weeks else f"{fiscal}{span_words}"
        return f"the {said} ended {_spoken_date(column.periods[0])}"
    if span_words and len(column.periods) == 1 and column.periods[0].day and column.periods[0].month \
            and not _HEADER_WORDS.search(header):
        # "December 31, 2017" of a quarterly table: the three months ended then, not a day
        return f"the {span_words} ended {_spoken_date(column.periods[0])}"
    quarter_word = re.search(r"(?i)\b(first|second|third|fourth)\s+quarter\b", header)
    years = {p.year for p in column.periods if p.year}
    if quarter_word and len(years) == 1 and not any(p.day for p in column.periods):
        # "SECOND QUARTER / 2023 / Percent / Amount": the quarter and its year, not the header's other words
        return f"the {quarter_word.group(1).lower()} quarter of {years.pop()}"
    if _Q_TOKEN.search(header) and len(column.periods) == 1 and column.periods[0].quarter \
            and not column.periods[0].month and not column.periods[0].day:
        # "2023 / Q2 / Amount", "Q1 / Percent to Sales" beside "2022 Q2": the quarter and its year
        year = next((p.year for p in _in_year(table, col) if p.year), None)
        return f"Q{column.periods[0].quarter} {year}" if year else f"Q{column.periods[0].quarter}"
    bare = column.periods[0] if len(column.periods) == 1 else None
    if bare and bare.year and not (bare.month or bare.day or bare.quarter or bare.half) \
            and not _HEADER_WORDS.search(header) and re.search(r"[A-Za-z]", header.replace(bare.text, "")):
        return bare.text  # "2018 / Oper. Income", "2023 / Amount": the year; the rest names the figure
    spoken = _HEADER_WORDS.sub(lambda m: m.group(0).lower(), header)
    if spoken != header and re.match(r"[a-z]", spoken):
        # "Fiscal 2031": "fiscal 2031", no article ("the fiscal year 2031" keeps its own)
        return spoken if spoken.startswith("as of") or re.fullmatch(r"fiscal '?\d{2,4}", spoken) else "the " + spoken
    return header


def dated_periods(table: Table, col: int, asked: Period) -> tuple[Period, ...]:
    """The periods column ``col`` offers for a question that asks a year: a column whose header has no year beside
    columns that have one ("For the Years Ended December 31, / 2019 | For the Years Ended December 31, | …": the
    share-of-total column under the year's) is the year column on its left (else on its right) — a header's
    span alone does not fit a year it never names. A column that names its own quarter, half or month but no year
    ("Q1 / Amount | 2022 Q2 / Amount": the year printed once over the quarters) keeps them in the neighbour's
    year — it is the first quarter of 2022, not the second."""
    return table.columns[col].periods if asked.year is None else _in_year(table, col)


#: a quarter written as "Q2"
_Q_TOKEN = re.compile(r"\bQ[1-4]\b")


def _in_year(table: Table, col: int) -> tuple[Period, ...]:
    """``dated_periods`` of a question that asks a year."""
    own = table.columns[col].periods
    if any(p.year is not None for p in own):
        return own
    for c in [*range(col - 1, -1, -1), *range(col + 1, len(table.columns))]:
        near: tuple[Period, ...] = table.columns[c].periods
        years = {p.year for p in near if p.year is not None}
        if years:
            finer = [p for p in own if p.quarter or p.half or p.month]
            if finer and len(years) == 1:
                year = years.pop()
                return tuple(dataclasses.replace(p, year=year) for p in finer)
            return near
    return own


#: a footnote's mark: "(1)", "(12)" — in a header ("Elimination of intersegment revenues (3)"), in a sentence
FOOTNOTE_MARK = re.compile(r"\(\d{1,2}\)")


def spanning_period(table: Table) -> tuple[Period, ...]:
    """A period printed once over columns that are parts ("YEAR ENDED MAY 31, 2021" over "NORTH AMERICA | … | TOTAL
    NIKE, INC."), which the header's reading left on some of them only: the one period every dated column has, when
    two or more other columns name no period and hold words only (no figure, no "%"); ``()`` otherwise."""
    values = [c for c in table.columns if not c.is_change]
    dated = [c for c in values if c.periods]
    undated = [c for c in values if not c.periods]
    if not dated or len(undated) < 2:
        return ()
    if len({tuple((p.year, p.month, p.day, p.quarter, p.half) for p in c.periods) for c in dated}) != 1:
        return ()
    if any(not re.search(r"[A-Za-z]", c.header) or re.search(r"\d|%", FOOTNOTE_MARK.sub("", c.header))
           for c in undated):
        return ()
    return dated[0].periods


#: the words that introduce a period in a header ("Year Ended", "For the Three Months Ended", "As of")
_PERIOD_WORDS = re.compile(r"(?i)\b(?:for\s+the\s+)?(?:(?:three|six|nine|twelve|\d+)[\s-]+)?"
                           r"(?:years?|months?|quarters?|weeks?|periods?)\s+ended\b|\bas\s+of\b|\bfiscal\s+years?\b")
#: a column of the whole ("Total", "TOTAL NIKE, INC.", "Consolidated")
_WHOLE_COLUMN = re.compile(r"(?i)\btotal\b|\bconsolidated\b")


def part_columns(table: Table) -> dict[int, str]:
    """A table whose columns are parts under one period (``spanning_period``): each value column's header without
    the period's words; ``{}`` for any other table."""
    if not spanning_period(table):
        return {}
    out = {}
    for c, col in enumerate(table.columns):
        if col.is_change:
            continue
        header = col.header
        for p in col.periods:
            header = header.replace(p.text, " ")
        out[c] = " ".join(_PERIOD_WORDS.sub(" ", header.replace(" / ", " ")).split())
    return out


def whole_column(table: Table) -> int:
    """Of a table of parts by column (``part_columns``), the last column of the whole ("TOTAL NIKE, INC."); -1."""
    parts = part_columns(table)
    return max((c for c, header in parts.items() if _WHOLE_COLUMN.search(header)), default=-1)
