"""A line a table prints only by its parts — the same category under each segment's heading ("Domestic: /
Appliances", "International: / Appliances", each part with its total): asked with no part named, the company's
figure is their sum (each cell cited), and "which category had the highest revenue" compares the sums; a part
asked by name answers its own row. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.tables import across_sections, find_tables

BY_CATEGORY = """KESTREL INC. › 14. Segment and Geographic Information
Reportable segment and product category revenue information was as follows ($ in millions):
|  | 2031 | 2030 | 2029 |
|---|---|---|---|
| Revenue by reportable segment |  |  |  |
| Domestic | $42,794 | $47,830 | $43,293 |
| International | 3,504 | 3,931 | 3,969 |
| Total revenue | $46,298 | $51,761 | $47,262 |
| Revenue by product category |  |  |  |
| Domestic: |  |  |  |
| Computing and Mobile Phones | $18,191 | $20,693 | $19,799 |
| Consumer Electronics | 13,040 | 15,009 | 13,022 |
| Appliances | 6,381 | 6,784 | 5,489 |
| Total Domestic revenue | $42,794 | $47,830 | $43,293 |
| International: |  |  |  |
| Computing and Mobile Phones | $1,575 | $1,785 | $1,854 |
| Consumer Electronics | 1,054 | 1,194 | 1,189 |
| Appliances | 355 | 383 | 384 |
| Total International revenue | $3,504 | $3,931 | $3,969 |"""

_LINES = BY_CATEGORY.splitlines()
_GRID_HEAD = _LINES[2:4]  # "|  | 2031 | 2030 | 2029 |" and its separator
_CAPTION = _LINES[:2]

#: the page read from its grid: the caption is on the page before, the heading row above the sections remains
PAGE_READ = "\n".join(_GRID_HEAD + _LINES[_LINES.index("| Revenue by product category |  |  |  |"):])

#: one part's chunk of the same table
_DOMESTIC_TOTAL = _LINES.index("| Total Domestic revenue | $42,794 | $47,830 | $43,293 |")
INTERNATIONAL_ONLY = "\n".join(_CAPTION + _GRID_HEAD + _LINES[_DOMESTIC_TOTAL:])

#: the same label under headings that name measures: no parts to add
MEASURES = """KESTREL INC. › Segment results
|  | 2031 | 2030 |
|---|---|---|
| Net sales: |  |  |
| Americas | $ 3,120 | $ 2,980 |
| Total net sales | $ 5,570 | $ 5,590 |
| Operating income: |  |  |
| Americas | $ 910 | $ 870 |
| Total operating income | $ 1,550 | $ 1,570 |"""


def _p(ref: str, text: str, page: int = 63) -> Passage:
    return Passage(ref, text, "doc-2031", "KESTREL_2031_10K.pdf", page, company="Kestrel Inc.",
                   period_end="2031-12-31")


def test_the_rows_to_add_are_found_only_across_parts() -> None:
    table = find_tables(BY_CATEGORY)[0]
    appliances = next(r for r in table.rows if r.label == "Appliances")
    rows = across_sections(table, appliances, set())
    assert rows is not None and [r.section.strip(" :") for r in rows] == ["Domestic", "International"]
    assert across_sections(table, appliances, {"international"}) is None  # a part named: its own row
    measures = find_tables(MEASURES)[0]
    assert across_sections(measures, measures.rows[0], set()) is None  # "Net sales:" / "Operating income:"


def test_a_category_asked_is_the_sum_of_its_parts() -> None:
    answer = read("What was Kestrel's Consumer Electronics revenue in 2031?", [_p("S1", BY_CATEGORY)])
    head = answer.text.splitlines()[0]
    # before: "Domestic consumer Electronics revenue was $13,040 million in 2031", sure
    assert head.startswith("Consumer Electronics revenue was $14,094 million in 2031 (computed: Domestic $13,040 "
                           "million + International $1,054 million"), head
    assert {text for _, text in answer.quotes} >= {"| Consumer Electronics | 13,040 | 15,009 | 13,022 |",
                                                   "| Consumer Electronics | 1,054 | 1,194 | 1,189 |"}
    part = read("What was Kestrel's International Consumer Electronics revenue in 2031?", [_p("S1", BY_CATEGORY)])
    assert "$1,054 million" in part.text.splitlines()[0] and "14,094" not in part.text, part.text


def test_the_highest_category_compares_the_sums() -> None:
    answer = read("Which product category had the highest revenue for Kestrel in 2031?",
                  [_p("S1", INTERNATIONAL_ONLY), _p("P1", PAGE_READ)])
    head = answer.text.splitlines()[0]
    # before: the International chunk's "$1,575 million" (or no answer from the page read)
    assert head.startswith("Computing and Mobile Phones had the highest revenue: $19,766 million in 2031 [P1]"), head
    assert "each the sum of its Domestic and International rows" in head and "Appliances $6,736 million" in head
    assert "Domestic $" not in head.split("(")[0]


#: a segment note's chunk: the segments' parts under a "Net revenue" heading row, each segment's total unlabelled
SEGMENT_PARTS = """KESTREL INC. › NOTE 17 — SEGMENT INFORMATION
The following tables present the Company's segment information:
(In thousands)
|  | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Net revenue |  |  |
| Northlands Resorts |  |  |
| Casino | $728,254 | $1,296,170 |
| Rooms | 662,813 | 1,863,521 |
|  | 1,391,067 | 3,159,691 |
| Southlands Operations |  |  |
| Casino | 1,569,193 | 2,537,780 |
| Rooms | 130,945 | 316,753 |
|  | 1,700,138 | 2,854,533 |"""


def test_a_segment_asked_is_never_a_sum_of_its_parts_lines() -> None:
    answer = read("Which Kestrel segment had the highest net revenues in 2031?", [_p("S1", SEGMENT_PARTS, 101)])
    head = answer.text.splitlines()[0]
    assert not head.startswith(("Casino", "Rooms")), head  # the parts of a segment are no segment
    assert "Southlands Operations had the highest net revenues" in head or answer.why != "computed", head


#: the same table cut between its parts by the chunker, over two pages
DOMESTIC_CHUNK = "\n".join(_CAPTION + _GRID_HEAD
                           + _LINES[_LINES.index("| Revenue by product category |  |  |  |"):_DOMESTIC_TOTAL])


def test_a_table_cut_between_its_parts_is_summed_across_the_chunks() -> None:
    answer = read("What was Kestrel's Appliances revenue in 2031?",
                  [_p("S1", DOMESTIC_CHUNK, 62), _p("S2", INTERNATIONAL_ONLY, 63)])
    head = answer.text.splitlines()[0]
    # before: "Domestic appliances revenue was $6,381 million in 2031", sure
    assert head.startswith("Appliances revenue was $6,736 million in 2031 (computed: Domestic $6,381 million + "
                           "International $355 million"), head
    assert "[S1][S2]" in head
    assert dict(answer.quotes) == {"S1": "| Appliances | 6,381 | 6,784 | 5,489 |",
                                   "S2": "| Appliances | 355 | 383 | 384 |"}
