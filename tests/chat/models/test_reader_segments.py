"""Which segments a company reports: "What are Kestrel's reportable segments?" answered with the sentence that lists
them — the list stated first, the sentence (and the bullets below it) quoted — of the kind asked, from the latest
filing, names before abbreviations; a sentence that only mentions segments lists none, and then no answer is sure.
Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.queries import search_queries
from chat.models.reader.segments import asks_segments, listing


def _p(ref: str, text: str, *, year: int = 2031, page: int = 40) -> Passage:
    return Passage(ref, text, f"doc-{year}", f"KESTREL_{year}_10K.pdf", page, company="Kestrel Inc.",
                   period_end=f"{year}-12-31")


def test_the_question_is_read() -> None:
    for asked in ("What are Kestrel's reportable segments?", "Which business segments does Kestrel operate in?",
                  "How many operating segments does Kestrel have?", "What segments does Kestrel report?",
                  "List Kestrel's business segments."):
        assert asks_segments(asked), asked
    for other in ("Which segment had the highest revenue in 2031?", "What were the segments' operating margins?",
                  "What was the Drones segment's revenue in 2031?", "How much goodwill does each segment carry?"):
        assert not asks_segments(other), other


def test_a_sentence_with_its_count_and_list_is_stated() -> None:
    text = ("KESTREL INC. › Note 18 — Segment Information\nTransactions among reportable segments are recorded at "
            "cost. We operate in three reportable segments: Drones, Flight Software (KFS) and Kestrel Capital. "
            "Segment results exclude unallocated items.")
    answer = read("What are Kestrel's reportable segments?", [_p("S1", text)])
    first = answer.text.splitlines()[0]
    assert first == "Kestrel has 3 reportable segments: Drones, Flight Software (KFS) and Kestrel Capital [S1].", first
    assert answer.why == "sure"
    assert answer.quotes == (("S1", "We operate in three reportable segments: Drones, Flight Software (KFS) and "
                                    "Kestrel Capital."),)


def test_bullets_below_the_sentence_are_the_list_and_are_quoted() -> None:
    text = ("KESTREL INC. › Item 1. Business › Segments\nOur business is organized into two reportable segments:\n"
            "• Drones; and\n• Flight Software.\nDrones builds industrial drones for customers in 40 countries.")
    answer = read("What are Kestrel's reportable segments?", [_p("S1", text)])
    assert answer.text.startswith("Kestrel has 2 reportable segments: Drones; Flight Software [S1]."), answer.text
    (ref, quote), = answer.quotes
    assert ref == "S1" and quote.startswith("Our business is organized") and quote.endswith("• Flight Software.")
    assert quote in text


def test_the_kind_asked_the_latest_filing_and_names_before_abbreviations() -> None:
    old = _p("S1", "Our businesses are organized into five operating segments: North; South; East; West; and Pet.",
             year=2029)
    new = _p("S2", "Our businesses are organized into four operating segments: North; International; Pet; and Parts.")
    short = _p("S3", "We operate in three reportable segments: KD, KFS and KC.")
    spelled = _p("S4", "We operate in three reportable segments: Kestrel Drones (KD), Kestrel Flight Software (KFS) "
                       "and Kestrel Capital (KC).")
    first = read("What are Kestrel's operating segments?", [old, new, short, spelled]).text.splitlines()[0]
    assert "four operating segments" not in first and "4 operating segments: North; International; Pet; and Parts" \
        in first, first
    first = read("What are Kestrel's reportable segments?", [old, new, short, spelled]).text.splitlines()[0]
    assert "Kestrel Drones (KD)" in first and "[S4]" in first, first


def test_a_sentence_that_only_mentions_segments_lists_none() -> None:
    assert listing("Our operating segments are evidence of the structure of the Company's internal organization.") \
        is None
    assert listing("The reportable segments follow the same accounting policies as the Company.") is None
    assert listing("Non-reportable segments consist of Glass Solutions and the Emerging Innovations Group.") is None
    assert listing("The Company's reportable segments were: North and South in fiscal 2029.") is not None
    text = ("KESTREL INC. › Segment Information\nOur operating segments are evidence of the structure of the "
            "Company's internal organization and of how its segments are reviewed.")
    answer = read("What are Kestrel's operating segments?", [_p("S1", text)])
    assert answer.why != "sure" and "segments:" not in answer.text.splitlines()[0]


def test_the_search_asks_for_the_list() -> None:
    queries = search_queries("What are Kestrel's reportable segments?")
    assert any("segments:" in q for q in queries[1:]), queries
    assert not any("segments:" in q for q in search_queries("What was Kestrel's revenue in 2031?"))


def test_bullets_with_descriptions_state_the_names_and_a_heading_path_is_no_subject() -> None:
    listed = ("KESTREL INC.\n20. Reportable Segments\nThe Company has determined that it has three reportable segments "
              "for financial reporting purposes, as follows:\n"
              "• Drones – manufactures industrial drones and the parts that keep them flying for customers in\n"
              "forty countries.\n"
              "• Flight Software – develops the software that runs the drones, which is sold by subscription.\n"
              "• Kestrel Capital – finances customers' purchases of drones.\n"
              "All other businesses are grouped as Emerging Businesses.")
    tail = ("KESTREL INC. › 20. Reportable Segments\nconsist of Rotor Labs, Glass Wings and the Emerging Innovations "
            "Group.\nFinancial results for the reportable segments are prepared on a consistent basis.")
    answer = read("What are Kestrel's reportable segments?", [_p("S1", tail), _p("S2", listed)])
    first = answer.text.splitlines()[0]
    assert first == "Kestrel has 3 reportable segments: Drones; Flight Software; Kestrel Capital [S2].", first
    (ref, quote), = answer.quotes
    assert ref == "S2" and quote.endswith("finances customers' purchases of drones.") and "forty countries." in quote


def test_the_geographies_a_company_operates_in_are_its_segments_named_for_places() -> None:
    """"What are the geographies that Kestrel primarily operates in?": the listing whose segments are places (before:
    no segment question, a results sentence quoted); a listing of business lines is no answer to it."""
    assert asks_segments("What are the geographies that Kestrel primarily operates in as of FY2031?")
    places = ("KESTREL INC. › Note 16 — Operating Segments\nThe Company's reportable operating segments are: North "
              "America; Europe, Middle East & Africa (EMEA); Greater China; and Asia Pacific & Latin America (APLA).")
    lines_ = ("KESTREL INC. › Note 18 — Segment Information\nWe operate in three reportable segments: Drones, Flight "
              "Software (KFS) and Kestrel Capital.")
    answer = read("What are the geographies that Kestrel primarily operates in as of FY2031?",
                  [_p("S1", lines_), _p("S2", places)])
    first = answer.text.splitlines()[0]
    assert first.startswith("Kestrel's reportable operating segments are: North America; Europe, Middle East & Africa "
                            "(EMEA); Greater China; and Asia Pacific & Latin America (APLA) [S2]."), first
    business_only = read("What are the geographies that Kestrel primarily operates in as of FY2031?",
                         [_p("S1", lines_)])
    assert "Drones" not in business_only.text.splitlines()[0] or business_only.why != "sure", business_only.text


BY_SEGMENT = """KESTREL RESORTS › Results of Operations
Net Revenues by Segment
The following table presents a detail by segment of net revenues:
(In thousands)
|  | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Harbor Macau |  |  |
| Casino revenue | 565,671 | 2,609,806 |
| Non-casino revenue | 91,032 | 295,616 |
|  | 656,703 | 2,905,422 |
| Reportable segment net revenues | 4,869,659 | 12,286,257 |"""


def test_a_segments_figure_is_its_own_total_not_every_segments_under_its_heading() -> None:
    """A chunk that ends with the all-segments total under the last segment's heading: asked that segment's net
    revenues, its own (unlabelled) total row, not "Reportable segment net revenues" (before: 4,869,659)."""
    note = ("KESTREL RESORTS › NOTE 17 — SEGMENT INFORMATION\nThe following tables present the Company's segment "
            "information:\n(In thousands)\n|  | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |\n"
            "|---|---|---|\n| Harbor Macau |  |  |\n| Reportable segment net revenues | 4,869,659 | 12,286,257 |\n"
            "| Corporate and other | 292,423 | 613,415 |")
    passages = [Passage("S1", note, "doc-1", "kestrel-10k.pdf", 101, company="Kestrel Resorts"),
                Passage("S2", BY_SEGMENT, "doc-1", "kestrel-10k.pdf", 44, company="Kestrel Resorts")]
    first = read("What were Harbor Macau's net revenues in 2031?", passages).text.split("\n")[0]
    assert "656,703" in first and "4,869,659" not in first, first
    alone = read("What were Harbor Macau's net revenues in 2031?", passages[:1])
    assert not (alone.why == "sure" and "4,869,659" in alone.text.split("\n")[0]), alone.text


SPACE_RESULTS = """KESTREL CORPORATION
Space’s operating results included the following (in millions):
|  | 2031 |  | 2030 |  |
|---|---|---|---|---|
| Net sales | $11,814 |  | $11,880 |  |
| Operating profit | 1,134 |  | 1,149 |  |
| Backlog at year-end | $25,516 |  | $25,148 |  |"""


def test_a_segments_results_table_answers_for_that_segment_not_the_company() -> None:
    """"Space's operating results included the following": its rows are the Space segment's — asked the company's
    backlog, never sure (before: "Backlog at year-end was $25,516 million", sure); asked the segment's, its figure."""
    passages = [Passage("S1", SPACE_RESULTS, "doc-1", "kestrel-10k.pdf", 47, company="Kestrel Corporation")]
    assert read("What was Kestrel's backlog at year-end 2031?", passages).why != "sure"
    segment = read("What was the backlog of Kestrel's Space segment at year-end 2031?", passages)
    assert segment.why == "sure" and "$25,516 million" in segment.text.split("\n")[0]


def test_a_segment_named_by_its_initials_in_a_results_caption_is_a_segment_too() -> None:
    """"RMS’ operating results included the following": the segment's initials before the possessive — its backlog
    is not the company's (before: "Backlog at year-end was $34,949 million", sure); asked by its initials, it is."""
    text = SPACE_RESULTS.replace("Space’s", "RMS’").replace("$25,516", "$34,949")
    passages = [Passage("S1", text, "doc-1", "kestrel-10k.pdf", 47, company="Kestrel Corporation")]
    assert read("What was Kestrel's backlog at year-end 2031?", passages).why != "sure"
    segment = read("What was the backlog of Kestrel's RMS segment at year-end 2031?", passages)
    assert segment.why == "sure" and "$34,949 million" in segment.text.split("\n")[0]
    # a heading's capitals are no segment: "KESTREL CORPORATION’S operating results" are the company's
    whole = SPACE_RESULTS.replace("Space’s", "KESTREL CORPORATION’S")
    assert read("What was Kestrel's backlog at year-end 2031?",
                [Passage("S1", whole, "doc-1", "kestrel-10k.pdf", 47, company="Kestrel Corporation")]).why == "sure"


PROPERTIES = """KESTREL INC. › NOTE 17 — SEGMENT INFORMATION
(In thousands)
|  | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Harbor Resorts |  |  |
| Casino revenue | 728,254 | 1,296,170 |
| Rooms | 662,813 | 1,863,521 |
| Other | 31,014 | 64,834 |
|  | 2,245,785 | 5,831,051 |"""

CAPEX_BY_SEGMENT = """KESTREL INC. › NOTE 17 — SEGMENT INFORMATION
(In thousands)
| Capital expenditures: | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Harbor Resorts | $87,511 | $285,863 |
| Inland Operations | 65,107 | 170,413 |"""

BY_PROPERTY = """KESTREL INC. › NOTE 17 — SEGMENT INFORMATION
Net revenues (In thousands)
|  | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Harbor Resorts | $2,245,785 | $5,831,051 |
| Inland Operations | 3,301,940 | 4,106,730 |"""

RECONCILIATION = """KESTREL INC. › Inland Operations
(In thousands)
|  | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Harbor Resorts net revenues | $2,245,785 | $5,831,051 |
| Acquisitions | (114,949) | (59,097) |
| Harbor Resorts same-store net revenues | $2,130,836 | $5,771,954 |"""


def test_a_parts_figure_is_its_own_total_not_its_parts_another_items_or_another_parts() -> None:
    def first(question: str, *texts: str) -> str:
        return read(question, [_p(f"S{i}", t, page=100 + i) for i, t in enumerate(texts, 1)]).text.split("\n")[0]

    # the part's own total, not its "Other" line nor its capital spending
    assert first("What were Kestrel's Harbor Resorts net revenues in 2031?", CAPEX_BY_SEGMENT, PROPERTIES).startswith(
        "Harbor Resorts net revenues were $2,245,785 thousand"), first(
        "What were Kestrel's Harbor Resorts net revenues in 2031?", CAPEX_BY_SEGMENT, PROPERTIES)
    # "Harbor Resorts net revenues" under a heading that names Inland Operations is no figure of Inland's, nor is
    # Inland's capital spending
    inland = first("What were Inland Operations' net revenues in 2031?", RECONCILIATION, CAPEX_BY_SEGMENT,
                   BY_PROPERTY)
    assert inland.startswith("Inland Operations net revenues were $3,301,940 thousand"), inland
