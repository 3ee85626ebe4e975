"""document_summarizer, the pure part: headings from segments (or the layout analysis), the outline, the
extractive summary."""

from __future__ import annotations

from ingest.steps.summarize import MAX_OUTLINE, Heading, extractive_summary, outline, page_digest


def _line(text: str, y: float, size: float) -> dict:
    return {"text": text, "bbox": [72.0, y, 72.0 + 5.5 * len(text), y + size * 1.2], "confidence": 1.0}


BODY = ("The inspection covered every span of the harbor bridge during the spring survey.",
        "Corrosion was found on the north pylon and on two expansion joints of the deck.",
        "Repairs are planned for the summer, before the heavy traffic season starts again.")


def _segment(page: int, lines: list[tuple[str, float]]) -> dict:
    y, out = 72.0, []
    for text, size in lines:
        out.append(_line(text, y, size))
        y += size * 1.6
    return {"page": page, "source": "text_layer", "text": "\n".join(t for t, _ in lines), "lines": out}


def test_taller_short_lines_and_numbered_sections_are_headings_with_levels() -> None:
    seg = _segment(1, [("Harbor Bridge Inspection Report", 24), (BODY[0], 11), ("1. Findings", 16), (BODY[1], 11),
                       ("Item 2. Recommendations", 11), (BODY[2], 11)])
    d = page_digest(seg)
    assert [(h.level, h.text) for h in d.headings] == [
        (1, "Harbor Bridge Inspection Report"), (2, "1. Findings"), (3, "Item 2. Recommendations")]
    assert d.body == list(BODY)


def test_totals_rows_toc_entries_and_checkboxes_are_not_headings() -> None:
    seg = _segment(3, [("Total net sales $ 117,154 $ 123,945", 14), ("Item 1. Financial Statements 1", 14),
                       ("☐ TRANSITION REPORT PURSUANT TO SECTION 13", 14), ("continued from the previous page", 14),
                       (BODY[0], 11), (BODY[1], 11)])
    assert page_digest(seg).headings == []


def test_the_layout_analysis_blocks_win_over_the_lines() -> None:
    seg = _segment(2, [(BODY[0], 11)])
    analysis = {"page": 2, "summary": "A page about repairs.", "reading_order": ["b3", "b1", "b2", "b4"], "blocks": [
        {"id": "b1", "type": "heading", "level": 2, "text": "Repairs"},
        {"id": "b2", "type": "paragraph", "text": BODY[2]},
        {"id": "b3", "type": "header", "text": "Harbor Authority — Confidential"},
        {"id": "b4", "type": "footer", "text": "Page 2"},
    ]}
    d = page_digest(seg, analysis)
    assert d.headings == [Heading(2, "Repairs", 2)] and d.body == [BODY[2]] and d.summary == "A page about repairs."
    # a segment that carries the blocks itself reads the same
    assert page_digest({**seg, **analysis}).headings == [Heading(2, "Repairs", 2)]


def test_running_headers_leave_the_outline_and_it_is_bounded() -> None:
    pages = [page_digest(_segment(p, [("Harbor Authority Annual Report", 16), (f"Section {p} overview", 16),
                                      (BODY[p % 3], 11)])) for p in range(1, 11)]
    heads = outline(pages)
    assert "Harbor Authority Annual Report" not in {h.text for h in heads}
    assert [h.text for h in heads[:2]] == ["Section 1 overview", "Section 2 overview"]
    many = [page_digest(_segment(p, [(f"Part {p} heading", 16), (BODY[0], 11)])) for p in range(1, 200)]
    assert len(outline(many)) == MAX_OUTLINE


def test_extractive_summary_quotes_title_outline_and_lead_sentences() -> None:
    pages = [
        page_digest(_segment(1, [("Harbor Bridge Inspection Report", 24), ("☒ Form 7 (Mark One)", 11),
                                 (BODY[0], 11), (BODY[1], 11)])),
        page_digest(_segment(2, [("1. Findings", 16), (BODY[2], 11)])),
    ]
    rec = extractive_summary(pages, file_name="bridge.pdf", page_count=2)
    assert rec["kind"] == "extractive" and rec["title"] == "Harbor Bridge Inspection Report"
    assert rec["lead"] == list(BODY)
    assert rec["outline"] == [{"level": 1, "text": "Harbor Bridge Inspection Report", "page": 1},
                              {"level": 2, "text": "1. Findings", "page": 2}]
    assert all(s in " ".join(BODY) for s in rec["lead"])  # nothing invented
    assert "model" not in rec and rec["page_count"] == 2


def test_a_document_without_text_gets_its_file_name_as_title() -> None:
    rec = extractive_summary([page_digest({"page": 1, "source": "empty", "text": "", "lines": []})],
                             file_name="scan.png", page_count=1)
    assert rec["title"] == "scan.png" and rec["text"] == "" and rec["outline"] == []


def test_a_table_of_contents_is_not_quoted_and_its_entries_are_not_the_outline() -> None:
    toc = page_digest(_segment(2, [("Part I", 16), ("Item 1. Financial Statements 3", 11),
                                   ("Item 2. Management's Discussion and Analysis of Operations 14", 11),
                                   ("Item 3. Quantitative and Qualitative Disclosures About Market Risk 20", 11),
                                   ("Signatures and certifications of the officers of the company follow here.", 11)]))
    body = page_digest(_segment(3, [("Item 2. Management's Discussion and Analysis of Operations", 11),
                                    (BODY[0], 11)]))
    assert toc.toc and not body.toc
    rec = extractive_summary([toc, body], file_name="10q.pdf", page_count=3)
    assert "Signatures" not in rec["text"] and rec["lead"] == [BODY[0]]
    assert [h["text"] for h in rec["outline"]] == [
        "Part I", "Item 2. Management's Discussion and Analysis of Operations"]
