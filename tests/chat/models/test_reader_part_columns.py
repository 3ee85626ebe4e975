"""A table whose columns are parts under a period printed once over them ("YEAR ENDED MAY 31, 2031" over "NORTH
AMERICA | … | TOTAL KESTREL, INC."), the header's reading leaving the period on some columns only: every column is
that period's; asked with no part named, the whole's column answers, a part named its own. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.tables import find_tables, spanning_period, whole_column

BY_REGION = """KESTREL, INC. › Note 15 — Operating Segments
(Dollars in millions)
| (Dollars in millions) | NORTH AMERICA | EUROPE | ASIA / GREATER CHINA | YEAR ENDED MAY 31, 2031 / ASIA / GLOBAL \
BRAND DIVISIONS | YEAR ENDED MAY 31, 2031 / ASIA / TOTAL KESTREL BRAND | CONVERSE | CORPORATE | TOTAL KESTREL, INC. |
|---|---|---|---|---|---|---|---|---|
| TOTAL REVENUES | $17,179 | $11,456 | $8,290 | $25 | $36,950 | $2,205 | $40 | $39,195 |
| EARNINGS BEFORE INTEREST AND TAXES | $5,089 | $2,435 | $3,243 | $(3,656) | $7,111 | $543 | $(1,967) | $5,687 |"""


def _p(text: str) -> Passage:
    return Passage("S1", text, "doc-2031", "KESTREL_2031_10K.pdf", 88, company="Kestrel, Inc.",
                   period_end="2031-05-31")


def test_the_period_over_the_parts_is_every_columns() -> None:
    table = find_tables(BY_REGION)[0]
    assert [p.year for p in spanning_period(table)] == [2031]
    assert table.columns[whole_column(table)].header == "TOTAL KESTREL, INC."


def test_the_whole_is_the_total_column() -> None:
    head = read("What were Kestrel's total revenues in fiscal 2031?", [_p(BY_REGION)]).text.splitlines()[0]
    # before: "TOTAL REVENUES were $25 million in …" — the one column the period was read over
    assert head.startswith("TOTAL REVENUES were $39,195 million in the year ended May 31, 2031 [S1]"), head


def test_a_part_named_is_its_column() -> None:
    head = read("What were Kestrel's North America revenues in fiscal 2031?", [_p(BY_REGION)]).text.splitlines()[0]
    assert head.startswith("North America total revenues were $17,179 million in the year ended May 31, 2031"), head


#: segments named by the words of the company's own name ("Kestrel Osprey, Inc." and its Osprey segment), the
#: period over some columns only, each behind "Year Ended"
BY_SEGMENT = """KESTREL OSPREY, INC. › 14. Segment Information
(Amounts in millions)
| | Kestrel | Year Ended December 31, 2031 / Osprey | Year Ended December 31, 2031 / Wren | Total |
|---|---|---|---|---|
| Segment net revenues | $2,219 | $1,719 | $2,031 | $5,969 |
| Segment operating income | $850 | $464 | $740 | $2,054 |"""


def test_a_segment_named_like_the_company_is_its_column() -> None:
    seg = Passage("S1", BY_SEGMENT, "doc-ko", "KESTRELOSPREY_2031_10K.pdf", 90, company="KESTREL OSPREY, INC.",
                  period_end="2031-12-31")
    head = read("What was Kestrel Osprey's Wren segment operating income in 2031?", [seg]).text.splitlines()[0]
    assert "$740 million" in head, head  # before: the Osprey column's $464 million
    osprey = read("What were Kestrel Osprey's Osprey segment net revenues in 2031?", [seg]).text.splitlines()[0]
    assert "$1,719 million" in osprey, osprey
    whole = read("What were Kestrel Osprey's segment net revenues in 2031?", [seg]).text.splitlines()[0]
    assert "$5,969 million" in whole, whole


def test_columns_of_several_periods_are_no_parts() -> None:
    years = ("KESTREL, INC. › Results\n| | 2031 | % of total | 2030 | % of total |\n|---|---|---|---|---|\n"
             "| Revenues | $39,195 | 100 % | $37,403 | 100 % |")
    assert spanning_period(find_tables(years)[0]) == ()
