from __future__ import annotations

import itertools
from typing import Any

import pytest

from ingest.steps.chunk import chunk_segments, count_tokens


def seg(page: int, lines: list[str], *, top: float = 72.0, boxes: bool = True) -> dict[str, Any]:
    return {
        "page": page,
        "text": "\n".join(lines),
        "source": "text_layer",
        "lines": [
            {"text": t, "bbox": [72.0, top + 14 * i, 300.0, top + 14 * i + 10] if boxes else None, "confidence": 1.0}
            for i, t in enumerate(lines)
        ],
        "tables": [],
        "width": 612.0,
        "height": 792.0,
    }


def chunks(segments: list[dict[str, Any]], max_tokens: int = 40, overlap: int = 10, **kw: Any):
    return chunk_segments(segments, project_id="p1", document_id="doc", file_name="f.pdf", workflow_id="wf",
                          max_tokens=max_tokens, overlap_tokens=overlap, language=kw.get("language", "en"),
                          root=kw.get("root", ""))


def test_count_tokens_is_cjk_aware() -> None:
    assert count_tokens("") == 0
    assert count_tokens("hello world") == 2
    assert count_tokens("internationalization") == 3  # one token per started 8 characters
    assert count_tokens("Total: 99.50") == 5  # Total : 99 . 50
    assert count_tokens("코로나바이러스") == 7  # every Hangul syllable counts
    assert count_tokens("東京タワー") == 5


def test_chunks_respect_the_token_bound_and_cover_every_line() -> None:
    lines = [f"line {i} has a few plain words" for i in range(30)]
    out = chunks([seg(1, lines[:15]), seg(2, lines[15:])], max_tokens=40, overlap=10)
    assert len(out) > 3
    assert all(count_tokens(c.text) <= 40 for c in out)
    joined = "\n".join(c.text for c in out)
    assert all(line in joined for line in lines)


def test_ids_are_deterministic_and_indexed() -> None:
    segments = [seg(1, [f"alpha beta gamma {i}" for i in range(20)])]
    a, b = chunks(segments), chunks(segments)
    assert [c.chunk_id for c in a] == [f"doc:{i:05d}" for i in range(len(a))]
    assert a == b
    assert all(c.chunk_index == i and c.project_id == "p1" and c.workflow_id == "wf" for i, c in enumerate(a))


def test_overlap_crosses_the_page_boundary_and_records_the_span() -> None:
    p1 = [f"first page sentence number {i}" for i in range(6)]
    p2 = [f"second page sentence number {i}" for i in range(6)]
    out = chunks([seg(1, p1), seg(2, p2)], max_tokens=30, overlap=10)
    spanning = [c for c in out if c.page_start == 1 and c.page_end == 2]
    assert spanning, "a chunk must span the page break"
    for prev, nxt in itertools.pairwise(out):
        last_line = prev.text.splitlines()[-1]
        assert last_line in nxt.text  # consecutive chunks share their boundary line
    c = spanning[0]
    assert "\n\n" in c.text  # page break marked inside the chunk
    assert {b.page for b in c.bboxes} == {1, 2}


def test_boxes_of_adjacent_lines_merge_per_page() -> None:
    out = chunks([seg(1, ["one two", "three four", "five six"])], max_tokens=100, overlap=0)
    assert len(out) == 1
    (box,) = out[0].bboxes
    assert (box.page, box.x0, box.y0, box.x1, box.y1) == (1, 72.0, 72.0, 300.0, 72.0 + 28 + 10)


def test_far_apart_lines_keep_separate_boxes() -> None:
    s = seg(1, ["header"])
    s["lines"].append({"text": "footer", "bbox": [72.0, 700.0, 200.0, 710.0], "confidence": 1.0})
    out = chunks([s], max_tokens=100, overlap=0)
    assert len(out[0].bboxes) == 2


def test_a_line_longer_than_a_chunk_is_split_with_overlap() -> None:
    long_line = " ".join(f"word{i}" for i in range(200))
    out = chunks([seg(1, [long_line])], max_tokens=50, overlap=10)
    assert len(out) >= 4
    assert all(count_tokens(c.text) <= 50 for c in out)
    assert out[0].text.split()[-1] in out[1].text  # overlap carried into the next chunk
    assert "word199" in out[-1].text


def test_cjk_text_without_spaces_is_split_by_character() -> None:
    text = "가나다라마바사아자차카타파하" * 20
    out = chunks([seg(1, [text])], max_tokens=50, overlap=10, language="ko")
    assert all(count_tokens(c.text) <= 50 for c in out)
    assert all(" " not in c.text for c in out)  # adjacent Hangul stays adjacent
    assert out[0].language == "ko"


def test_segments_without_lines_or_boxes_still_chunk() -> None:
    plain = {"page": 3, "text": "OCR said this\nand that", "lines": [], "source": "ocr"}
    out = chunks([plain, seg(4, ["no boxes here"], boxes=False)], max_tokens=100)
    assert len(out) == 1
    assert out[0].text == "OCR said this\nand that\n\nno boxes here"
    assert (out[0].page_start, out[0].page_end, out[0].bboxes) == (3, 4, ())


def test_empty_document_gives_no_chunks_and_bad_bounds_are_refused() -> None:
    assert chunks([seg(1, []), {"page": 2, "text": "   ", "lines": []}]) == []
    with pytest.raises(ValueError):
        chunks([seg(1, ["x"])], max_tokens=4)


def test_page_offsets_mark_where_each_page_starts_in_a_spanning_chunk() -> None:
    p1 = [f"first page sentence number {i}" for i in range(6)]
    p2 = [f"second page sentence number {i}" for i in range(6)]
    out = chunks([seg(1, p1), seg(2, p2)], max_tokens=30, overlap=10)
    for c in out:
        assert c.page_offsets[0] == (c.page_start, 0)
        assert [p for p, _ in c.page_offsets] == sorted({p for p, _ in c.page_offsets})
    spanning = next(c for c in out if (c.page_start, c.page_end) == (1, 2))
    (page1, start1), (page2, start2) = spanning.page_offsets
    assert (page1, start1) == (1, 0)
    assert page2 == 2 and spanning.text[start2 - 2 : start2] == "\n\n"
    assert spanning.text[start2:].startswith("second page sentence number 0")
    assert "second" not in spanning.text[:start2] and "first" not in spanning.text[start2:]


def test_line_boxes_give_each_line_its_offset_and_box() -> None:
    out = chunks([seg(1, ["alpha beta", "gamma delta"]), seg(2, ["epsilon zeta"])], max_tokens=100, overlap=0)
    (c,) = out
    assert c.page_offsets == ((1, 0), (2, c.text.index("epsilon")))
    offsets = [o for o, _ in c.line_boxes]
    assert [c.text[o:].split("\n")[0] for o in offsets] == ["alpha beta", "gamma delta", "epsilon zeta"]
    assert [(b.page, b.y0) for _, b in c.line_boxes] == [(1, 72.0), (1, 86.0), (2, 72.0)]


def test_lines_without_boxes_still_get_page_offsets_but_no_line_boxes() -> None:
    plain = {"page": 3, "text": "OCR said this", "lines": [], "source": "ocr"}
    (c,) = chunks([plain, seg(4, ["no boxes here"], boxes=False)], max_tokens=100)
    assert c.page_offsets == ((3, 0), (4, c.text.index("no boxes")))
    assert c.line_boxes == ()


# --- tables --------------------------------------------------------------------------------------------

from ingest.steps.table_model import Table  # noqa: E402

HEAD = "|  | 2023 | 2022 |"


def table(page: int, rows: list[list[str]], *, top: float, header: bool = True, caption: str = "Table 1: Sales",
          columns: int = 3) -> Table:
    """A table whose row ``i`` sits at ``top + 14 * i`` (the header and caption above it)."""
    rows = [r[:columns] + [""] * (columns - len(r)) for r in rows]
    return Table(
        page=page, columns=columns, caption=caption if header else "",
        caption_bbox=(72.0, top - 30, 400.0, top - 20) if header and caption else None,
        header=[["", "2023", "2022", *[""] * (columns - 3)][:columns]] if header else [],
        header_boxes=[[None, (300.0, top - 15, 330.0, top - 5), (400.0, top - 15, 430.0, top - 5)]] if header else [],
        rows=rows,
        row_boxes=[[(72.0, top + 14 * i, 150.0, top + 14 * i + 10), (300.0, top + 14 * i, 330.0, top + 14 * i + 10),
                    (400.0, top + 14 * i, 430.0, top + 14 * i + 10)] for i in range(len(rows))],
    )


def page_with_table(page: int, before: list[str], t: Table, after: list[str], *, top: float) -> dict[str, Any]:
    """A segment whose lines are ``before`` (from y=72), the table's caption/header/rows as flat lines, then
    ``after`` — as the text layer gives them — with the table in ``table_grids``."""
    lines = [{"text": x, "bbox": [72.0, 72.0 + 14 * i, 400.0, 82.0 + 14 * i]} for i, x in enumerate(before)]
    if t.caption:
        lines.append({"text": t.caption, "bbox": [72.0, top - 30, 400.0, top - 20]})
    if t.header:
        lines.append({"text": "2023 2022", "bbox": [300.0, top - 15, 430.0, top - 5]})
    lines += [{"text": " ".join(r), "bbox": [72.0, top + 14 * i, 430.0, top + 14 * i + 10]}
              for i, r in enumerate(t.rows)]
    end = top + 14 * len(t.rows) + 20
    lines += [{"text": x, "bbox": [72.0, end + 14 * i, 400.0, end + 14 * i + 10]} for i, x in enumerate(after)]
    return {"page": page, "text": "\n".join(ln["text"] for ln in lines), "source": "text_layer",
            "lines": lines, "tables": [t.grid()], "table_grids": [t.to_json()]}


def test_a_table_is_its_own_chunk_of_markdown_and_its_lines_are_not_flat_text() -> None:
    rows = [["Revenue", "1,200", "1,100"], ["Costs", "800", "790"], ["Net income", "400", "310"]]
    t = table(1, rows, top=200)
    segment = page_with_table(1, ["Intro paragraph before the table."], t, ["Closing remark after it."], top=200)
    out = chunks([segment], max_tokens=200, overlap=10)
    texts = [c.text for c in out]
    assert texts == [
        "Intro paragraph before the table.",
        "Table 1: Sales\n|  | 2023 | 2022 |\n|---|---|---|\n| Revenue | 1,200 | 1,100 |\n| Costs | 800 | 790 |\n"
        "| Net income | 400 | 310 |",
        "Closing remark after it.",
    ]
    tc = out[1]
    assert (tc.page_start, tc.page_end, tc.page_offsets) == (1, 1, ((1, 0),))
    # the chunk's box covers exactly its rows (not the caption or header)
    assert [(b.x0, b.y0, b.x1, b.y1) for b in tc.bboxes] == [(72.0, 200.0, 430.0, 238.0)]
    assert [tc.text[off:].split("\n")[0] for off, _ in tc.line_boxes] == ["| Revenue | 1,200 | 1,100 |",
                                                                         "| Costs | 800 | 790 |",
                                                                         "| Net income | 400 | 310 |"]
    assert [b.y0 for _, b in tc.line_boxes] == [200.0, 214.0, 228.0]


def test_a_long_table_splits_into_chunks_that_each_repeat_caption_and_header() -> None:
    rows = [[f"Line item {i}", f"{i},000", f"{i},500"] for i in range(40)]
    out = chunks([page_with_table(1, [], table(1, rows, top=100), [], top=100)], max_tokens=60, overlap=10)
    assert len(out) > 3
    seen: list[str] = []
    for c in out:
        lines = c.text.split("\n")
        assert lines[:3] == ["Table 1: Sales", HEAD, "|---|---|---|"]
        assert count_tokens(c.text) <= 60
        seen += lines[3:]
        assert len(c.line_boxes) == len(lines) - 3  # one box per row of this chunk, none for caption/header
        assert c.bboxes[0].y0 == c.line_boxes[0][1].y0 and c.bboxes[-1].y1 == c.line_boxes[-1][1].y1
    assert seen == [f"| Line item {i} | {i},000 | {i},500 |" for i in range(40)]  # every row once, in order


def test_a_paragraph_taken_for_the_caption_is_text_and_its_last_sentence_heads_the_table() -> None:
    """The detector took the paragraph above a table for its caption: too long to repeat in every chunk, its
    sentences before the last are text before the table (searchable, not dropped) and the last one, which
    introduces the table with its unit, heads every chunk of rows."""
    caption = ("As of December 31, 2023 and 2022, the net unamortized discount on the Notes was $90 million and "
               "$99 million . We also have other long-term debt with a carrying amount, including the current "
               "portion and borrowings under our credit facility, of $588 million and $692 million as of "
               "December 31, 2023 and 2022 . The face value of our total long-term debt obligations is as follows "
               "(in millions):")
    rows = [[f"Notes due {2030 + i}", f"{i + 1},000", f"{i + 2},250"] for i in range(12)]
    t = table(1, rows, top=300, caption=caption)
    out = chunks([page_with_table(1, ["Note 5 - Long-term debt"], t, [], top=300)], max_tokens=90, overlap=10)
    text = " ".join(c.text for c in out if not c.text.startswith("The face value"))
    assert "net unamortized discount on the Notes was $90 million" in text
    assert "of $588 million and $692 million as of December 31, 2023 and 2022 ." in text
    tables = [c for c in out if "| Notes due" in c.text]
    assert len(tables) >= 2
    for c in tables:
        assert c.text.split("\n")[:2] == [
            "The face value of our total long-term debt obligations is as follows (in millions):", HEAD]
    assert [r for c in tables for r in c.text.split("\n")[3:]] == [f"| Notes due {2030 + i} | {i + 1},000 | "
                                                                   f"{i + 2},250 |" for i in range(12)]


def test_a_caption_sentence_too_long_to_repeat_leaves_its_unit_with_the_rows() -> None:
    caption = ("The following table presents the carrying amounts of the long-term debt obligations of the "
               "company and of its consolidated subsidiaries, including the current portion and the borrowings "
               "under the revolving credit facility, at the end of each of the years presented (in thousands)")
    t = table(1, [["Notes", "1,000", "900"], ["Credit facility", "250", "0"]], top=300, caption=caption)
    out = chunks([page_with_table(1, [], t, [], top=300)], max_tokens=70, overlap=10)
    assert out[0].text == caption
    assert out[1].text.split("\n")[:2] == ["(in thousands)", HEAD]


def test_a_table_continued_over_a_page_break_is_one_table() -> None:
    first = table(1, [["Revenue", "1", "2"], ["Costs", "3", "4"]], top=700)
    second = table(2, [["Tax", "5", "6"], ["Net income", "7", "8"]], top=72, header=False)
    p1 = page_with_table(1, ["Some text."], first, ["Company | Form 10-Q | 7"], top=700)
    p2 = page_with_table(2, [], second, ["The text after the table goes on."], top=72)
    out = chunks([p1, p2], max_tokens=200, overlap=10)
    tables = [c for c in out if "|---|" in c.text]
    assert len(tables) == 1
    tc = tables[0]
    assert tc.text.split("\n")[3:] == ["| Revenue | 1 | 2 |", "| Costs | 3 | 4 |", "| Tax | 5 | 6 |",
                                       "| Net income | 7 | 8 |"]
    assert (tc.page_start, tc.page_end) == (1, 2)
    offset = tc.text.index("| Tax")
    assert tc.page_offsets == ((1, 0), (2, offset))
    assert {b.page for b in tc.bboxes} == {1, 2}
    # the running footer between the two parts is still text: after the table, with the next page's text
    assert [c.text for c in out] == ["Some text.", tc.text,
                                     "Company | Form 10-Q | 7\n\nThe text after the table goes on."]


def test_a_new_table_on_the_next_page_is_not_a_continuation() -> None:
    first = table(1, [["Revenue", "1", "2"]], top=700)
    captioned = table(2, [["Tax", "5", "6"]], top=100, caption="Table 2: Taxes")
    wider = table(2, [["Tax", "5", "6", "7"]], top=100, header=False, columns=4)
    p1 = page_with_table(1, [], first, [], top=700)
    for nxt in (captioned, wider):
        out = chunks([p1, page_with_table(2, [], nxt, [], top=100)], max_tokens=200, overlap=10)
        assert [(c.page_start, c.page_end) for c in out] == [(1, 1), (2, 2)]
    # text between the two parts (more than a page footer) also keeps them apart
    busy = page_with_table(1, [], first, [f"paragraph line {i} of real text" for i in range(5)], top=700)
    headerless = table(2, [["Tax", "5", "6"]], top=72, header=False)
    out = chunks([busy, page_with_table(2, [], headerless, [], top=72)], max_tokens=200, overlap=10)
    assert sum(1 for c in out if "|---|" in c.text) == 2


def test_a_table_chunk_that_starts_inside_a_section_repeats_the_section_heading() -> None:
    """A statement's per-share block ("Earnings per share––basic:") repeats the amount rows' labels: a chunk that
    starts below the heading carries it, so its rows are not read as the amounts."""
    rows = [[f"Line item {i}", f"{i},000", f"{i},500"] for i in range(12)]
    rows += [["Earnings per share––basic:", "", ""]]
    rows += [[f"Net income {i}", f"{i}.25", f"{i}.75"] for i in range(5)]  # within SECTION_REACH rows
    out = chunks([page_with_table(1, [], table(1, rows, top=100), [], top=100)], max_tokens=60, overlap=10)
    after = [c for c in out if c.text[c.line_boxes[0][0]:].startswith("| Net income")]  # start inside the block
    assert after
    for c in after:
        lines = c.text.split("\n")
        assert lines[3] == "| Earnings per share––basic: |  |  |"
        assert count_tokens(c.text) <= 60
        assert len(c.line_boxes) == len(lines) - 4  # the repeated heading has no box of its own
    before = [c for c in out if "| Line item" in c.text.split("\n")[3]]
    assert all("Earnings per share" not in c.text.split("\n")[3] for c in before)


def test_a_total_row_closes_the_section_for_the_next_chunk() -> None:
    rows = [["Current assets:", "", ""]] + [[f"Asset {i}", f"{i},000", f"{i},500"] for i in range(6)]
    rows += [["Total current assets", "9,000", "9,500"]] + [[f"Other {i}", f"{i}00", f"{i}50"] for i in range(12)]
    out = chunks([page_with_table(1, [], table(1, rows, top=100), [], top=100)], max_tokens=60, overlap=10)
    for c in out:
        lines = c.text.split("\n")
        if lines[3].startswith("| Other"):
            assert "Current assets:" not in c.text


def test_the_section_heading_is_carried_when_the_chunk_before_ends_full_with_it() -> None:
    """The heading is the last row of a full chunk: the next chunk still has room for it (kept before its rows
    are counted in); a heading many rows above, never closed, is not carried."""
    rows = [[f"Line item {i}", f"{i},000", f"{i},500"] for i in range(3)] + [["Per share––basic:", "", ""]]
    rows += [[f"Net income {i}", f"{i}.25", f"{i}.75"] for i in range(4)]
    out = chunks([page_with_table(1, [], table(1, rows, top=100), [], top=100)], max_tokens=75, overlap=10)
    starts = [c.text[c.line_boxes[0][0]:].split("\n")[0] for c in out]
    assert "| Per share––basic: |  |  |" in out[0].text and not starts[0].startswith("| Per share")
    follow = [c for c, s in zip(out, starts, strict=True) if s.startswith("| Net income")]
    assert follow and all("| Per share––basic: |  |  |" in c.text for c in follow)
    long_block = [["Costs:", "", ""]] + [[f"Cost {i}", f"{i},000", f"{i},500"] for i in range(30)]
    out = chunks([page_with_table(1, [], table(1, long_block, top=100), [], top=100)], max_tokens=60, overlap=10)
    assert "Costs:" not in out[-1].text


def _with_headings(segment: dict[str, Any], headings: dict[int, int]) -> dict[str, Any]:
    """``segment`` with a layout that makes line ``i`` a heading of level ``headings[i]`` (0: the title)."""
    blocks = [{"id": f"b{i}", "type": "title" if level == 0 else "heading", "level": level,
               "text": segment["lines"][i]["text"], "lines": [i]} for i, level in headings.items()]
    return {**segment, "layout": {"blocks": blocks}}


def test_a_table_chunk_carries_the_heading_path_it_stands_under() -> None:
    """A statement whose caption says only its unit ("(MILLIONS)") is found by whose statement it is: each chunk
    of the table starts with the headings above it, as a text chunk does."""
    rows = [[f"Line item {i}", f"{i},000", f"{i},500"] for i in range(30)]
    t = table(1, rows, top=200, caption="(MILLIONS)")
    segment = _with_headings(page_with_table(1, ["ACME CORP", "Consolidated Balance Sheets"], t, [], top=200),
                             {0: 0, 1: 1})
    out = [c for c in chunks([segment], max_tokens=80, overlap=10) if "| Line item" in c.text]
    assert len(out) > 1
    for c in out:
        assert c.text.split("\n")[:3] == ["ACME CORP › Consolidated Balance Sheets", "(MILLIONS)", HEAD]
        assert count_tokens(c.text) <= 80
        assert all(c.text[off:].startswith("| Line item") for off, _ in c.line_boxes)  # the path has no box


def test_a_heading_the_caption_repeats_is_not_repeated_in_the_path() -> None:
    t = table(1, [["Revenue", "1,200", "1,100"]], top=200, caption="Consolidated Balance Sheets (in millions)")
    segment = _with_headings(page_with_table(1, ["ACME CORP", "Consolidated Balance Sheets"], t, [], top=200),
                             {0: 0, 1: 1})
    [c] = [c for c in chunks([segment], max_tokens=200, overlap=10) if "| Revenue" in c.text]
    assert c.text.split("\n")[:2] == ["ACME CORP", "Consolidated Balance Sheets (in millions)"]


def test_a_table_without_headings_above_has_no_path_line() -> None:
    t = table(1, [["Revenue", "1,200", "1,100"]], top=200)
    [c] = chunks([page_with_table(1, [], t, [], top=200)], max_tokens=200, overlap=10)
    assert c.text.split("\n")[0] == "Table 1: Sales"


def _filing() -> list[dict[str, Any]]:
    cover = _with_headings(seg(1, ["UNITED STATES SECURITIES AND EXCHANGE COMMISSION", "ACME CORP",
                                   "1 Harbor Way, Springfield", "Annual report for the fiscal year 2031."]),
                           {0: 0, 1: 1, 2: 1})
    toc = _with_headings(seg(2, ["ACME CORP", "Table of contents follows."]), {0: 1})
    body = _with_headings(seg(3, ["Liquidity", "Cash was 1,200 at year end."]), {0: 1})
    return [cover, toc, body]


def test_a_filings_cover_headings_close_with_its_cover_and_the_company_heads_the_path() -> None:
    """The cover's boilerplate headings (the agency, the street address) do not head every chunk of the filing;
    from page 2 on, the company its cover names does."""
    out = chunks(_filing(), max_tokens=24, overlap=0, root="ACME CORP")
    assert out[0].page_start == 1 and out[0].text.startswith("UNITED STATES SECURITIES")  # the cover itself
    later = [c for c in out if c.page_start > 1]
    assert later and all(c.text.startswith("ACME CORP\n") for c in later)
    assert not any("Harbor Way" in c.text or "SECURITIES" in c.text for c in later)
    assert all("ACME CORP\nACME CORP" not in c.text for c in out)  # the name as a page's title: the root says it
    # without an identity the headings make the path, as before
    plain = [c for c in chunks(_filing(), max_tokens=24, overlap=0) if c.page_start > 1]
    assert plain[0].text.startswith("UNITED STATES SECURITIES AND EXCHANGE COMMISSION\n")


def test_a_table_of_a_filing_stands_under_the_company() -> None:
    t = table(3, [["Revenue", "1,200", "1,100"]], top=200, caption="(MILLIONS)")
    body = _with_headings(page_with_table(3, ["Consolidated Balance Sheets"], t, [], top=200), {0: 1})
    [c] = [c for c in chunks([*_filing()[:2], body], max_tokens=200, overlap=0, root="ACME CORP")
           if "| Revenue" in c.text]
    assert c.text.split("\n")[:2] == ["ACME CORP › Consolidated Balance Sheets", "(MILLIONS)"]


def test_korean_words_keep_their_spaces_in_split_lines_and_in_the_overlap() -> None:
    """A Korean line split into pieces, and the tail of a line carried into the next chunk, are stretches of the line's
    own text: "살아 남았다고 한다", never "살아남았다고한다" (each syllable counts as a token, so the pieces are cut
    between syllables, but the spaces between words stay)."""
    sentences = [f"노아의 가족과 동물들은 {i}번째 배에서 살아 남았다고 한다." for i in range(12)]
    out = chunks([seg(1, [" ".join(sentences)])], max_tokens=50, overlap=10, language="ko")
    assert len(out) > 2
    words = set(" ".join(sentences).split())
    for c in out:
        body = c.text.split()
        # every word but a piece's first and last (cut between syllables) is one of the line's own words
        assert all(w in words for w in body[1:-1]), c.text
    short = ["노아의 가족과 동물들은 배에서 살아 남았다고 한다.",
             "그 배는 지붕과 문을 달고 배 안은 3층으로 만들어져 있었다."] * 4
    out = chunks([seg(1, short)], max_tokens=40, overlap=10, language="ko")
    assert all("살아남았다고" not in c.text and "만들어져있었다" not in c.text for c in out)


def test_the_overlap_opens_on_a_whole_sentence_never_on_a_sentence_s_second_half() -> None:
    """The line carried over from a chunk into the next is its last whole sentences that fit — "10월 26일 …" cut out of
    "고소 1년후인 2009년 10월 26일 …" would be quoted as if it were the whole sentence; a line that is one long
    sentence is not carried over at all (it is whole in the chunk before)."""
    long = "고소 1년후인 2009년 10월 26일 서울중앙지검은 한나라당 의원을 모욕한 혐의로 지명수배 중이던 회장을 구속했다."
    lines = [f"{i}번째 문장은 여기에 있다." for i in range(6)] + [long, "다음 줄은 새로운 이야기를 한다."]
    out = chunks([seg(1, lines)], max_tokens=80, overlap=20, language="ko")
    assert len(out) >= 2
    for c in out[1:]:
        first = c.text.split("\n")[0]
        assert first == long or not long.endswith(first), first  # never the long line's tail
    mixed = "첫 문장은 길게 이어지는 설명으로 시작해서 여러 단어를 지나 끝에 이른다. 짧은 끝 문장이다."
    more = [f"그 다음 {i}번 줄은 조금 더 길게 이어지는 설명을 담고 있다." for i in range(6)]
    out = chunks([seg(1, [mixed, *more])], max_tokens=60, overlap=12, language="ko")
    assert out[0].text.startswith(mixed), [c.text for c in out]
    assert out[1].text.startswith("짧은 끝 문장이다.\n그 다음 0번"), [c.text for c in out]


def test_a_note_is_never_under_a_title_set_larger_before_the_notes() -> None:
    """The auditor's report's title, styled above every note, used to stay the parent of every note after it
    ("ACME CORP › Report of Independent Registered Public Accounting Firm › NOTE 3. Debt"): a filing's
    structural heading (a part, an item, the notes' title, a note) closes every other heading above it, whatever
    its style, and stays under the structural ones of a higher rank."""
    report = _with_headings(seg(2, ["Item 8. Financial Statements", "Report of Independent Registered Public "
                                    "Accounting Firm", "We have audited the statements."]), {0: 1, 1: 1})
    notes = _with_headings(seg(3, ["Notes to Consolidated Financial Statements", "NOTE 3. Debt",
                                   "Long-term debt was 900 at year end.", "Credit Facilities",
                                   "The facility was undrawn."]), {0: 2, 1: 2, 3: 3})
    out = chunks([*_filing()[:2], report, notes], max_tokens=30, overlap=0, root="ACME CORP")
    assert not any("Report of Independent" in c.text for c in out if c.page_start == 3)
    facility = next(c for c in out if "The facility was undrawn" in c.text)
    assert facility.text.startswith("ACME CORP › NOTE 3. Debt\nCredit Facilities\n"), facility.text  # its own heading


def test_structural_headings_rank_by_their_words() -> None:
    from ingest.steps.chunk import ROOT_LEVEL, open_heading, structure_rank

    assert [structure_rank(h) for h in ("PART II", "Item 7A. Market Risk", "Exhibit 4.6", "Notes to the Condensed "
                                        "Consolidated Financial Statements", "NOTE 12. Debt", "Report of Independent "
                                        "Registered Public Accounting Firm", "Credit Facilities")] == [
        0, 1, 1, 2, 3, None, None]
    stack = [(ROOT_LEVEL, "ACME"), (0, "Annual Report"), (2, "Exhibit 4.6"),
             (1, "Report of Independent Registered Public Accounting Firm")]
    assert open_heading(stack, 3, "Section 101. Substitution") == [
        (ROOT_LEVEL, "ACME"), (0, "Annual Report"), (2, "Exhibit 4.6"), (3, "Section 101. Substitution")]
    # any other heading closes by its style alone, as before
    assert open_heading(stack, 2, "Basis for Opinion") == [*stack, (2, "Basis for Opinion")]
    assert open_heading(stack, 1, "Signatures") == [(ROOT_LEVEL, "ACME"), (0, "Annual Report"), (1, "Signatures")]
