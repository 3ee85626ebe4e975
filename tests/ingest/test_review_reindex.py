"""A correction re-indexes only the chunks it changed (ingest/review.py), on the line the field was read from."""

from __future__ import annotations

import json

from ingest.results import segment_key
from ingest.review import Reviews
from tests.ingest.conftest import RecordingIndexer


def _segment(page: int, rows: list[str]) -> dict:
    lines = [{"text": t, "bbox": [72, 72 + 18 * i, 300, 86 + 18 * i], "confidence": 0.99} for i, t in enumerate(rows)]
    return {"page": page, "text": "\n".join(rows), "source": "ocr", "lines": lines, "tables": [], "table_grids": [],
            "width": 612, "height": 792}


async def test_a_correction_reindexes_only_the_changed_chunks_and_fixes_the_right_line(settings, store, blobs) -> None:
    wid, did, pid = "w1", "d1", "p1"
    pages = {p: [f"Page {p} line {i} about the quarterly report and its many numbers" for i in range(12)]
             for p in (1, 2, 3)}
    pages[2][3] = "CASH 9.00"
    pages[2][5] = "TOTAL 9.00"
    for p, rows in pages.items():
        seg = _segment(p, rows)
        for ln in seg["lines"]:
            ln["chars"] = [0.99] * len(ln["text"])  # the OCR's per-character scores
        blobs.put(segment_key(wid, p), json.dumps(seg).encode(), "application/json")
    store.items.put({"PK": f"DOC#{did}", "SK": f"WF#{wid}", "data": {"page_count": 3, "file_name": "r.pdf"}})
    index = RecordingIndexer()
    reviews = Reviews(settings, store=store, blobs=blobs, index=index)
    all_chunks = await reviews._chunks(pid, did, wid)
    await index.index_chunks(all_chunks)
    index.upserts = 0

    total_box = [72, 72 + 18 * 5, 300, 86 + 18 * 5]
    before, after = await reviews._fix_text(pid, did, wid, 2, "9.00", "8.51", total_box)
    assert before != after
    seg = json.loads(blobs.get(segment_key(wid, 2)))
    assert seg["lines"][3]["text"] == "CASH 9.00" and seg["lines"][5]["text"] == "TOTAL 8.51"  # the boxed line
    # the corrected line's character scores were the OCR's of the old text: gone; the other lines keep theirs
    assert "chars" not in seg["lines"][5] and len(seg["lines"][3]["chars"]) == len("CASH 9.00")
    assert 0 < index.upserts < len(all_chunks)  # only what changed
    assert all(c.page_start <= 2 <= c.page_end for c in index.index.values() if "8.51" in c.text)
    assert any("TOTAL 8.51" in c.text for c in index.index.values())
    assert not any("TOTAL 9.00" in c.text for c in index.index.values())
