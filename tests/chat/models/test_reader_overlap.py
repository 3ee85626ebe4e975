"""Overlapping chunks: the line two chunks of a document share (the last of one, the first of the next — on one
page or across a page break) is a sentence like any other, not a running header; real headers and footers (the
same line at the top, or at the bottom, of several pages) still are.

Every passage and question here is made up for these tests (no evaluation set).
"""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.text import running_lines, sentence_spans

_SHARED = "미르섬 등대는 1921년 3월 2일에 처음 불을 밝혔다."


def _chunks() -> list[Passage]:
    """Two overlapping chunks of one article: the second starts with the first one's last sentence."""
    first = ("미르섬은 한별시 남쪽 바다에 있는 작은 섬이다.\n"
             "섬 주민들은 오래전부터 고기잡이로 생계를 이어 왔다.\n"
             "섬의 북쪽 끝에는 흰 돌로 쌓은 등대가 서 있다.\n"
             f"{_SHARED}")
    second = (f"{_SHARED}\n"
              "등대지기 윤새벽은 마흔 해 동안 등대를 지켰다.\n"
              "지금은 무인 등대로 바뀌어 한별시 항만청이 관리한다.")
    return [Passage("S1", first, "d1", "미르섬.pdf", 3), Passage("S2", second, "d1", "미르섬.pdf", 4)]


def test_the_line_two_overlapping_chunks_share_is_no_running_header() -> None:
    chunks = _chunks()
    texts = [p.text for p in chunks]
    running = running_lines(texts, [(p.document_id, p.page) for p in chunks])
    assert running == frozenset()
    assert _SHARED in [texts[1][s:e] for s, e in sentence_spans(texts[1], running)]
    # the same page's two chunks (one page, two overlapping pieces) are no running header either
    assert running_lines(texts, [("d1", 3), ("d1", 3)]) == frozenset()


def test_a_header_on_top_of_two_pages_and_a_footer_at_their_bottom_still_are() -> None:
    pages = ["한별시 연감 2021 | 7\n미르섬 등대는 오래되었다.\n섬에는 주민이 산다.\n한별시 기록관",
             "한별시 연감 2021 | 8\n항구는 작다.\n배가 하루 두 번 다닌다.\n한별시 기록관"]
    running = running_lines(pages, [("d1", 7), ("d1", 8)])
    assert "한별시 연감 # | #" in running
    assert "한별시 기록관" in running
    assert [pages[1][s:e] for s, e in sentence_spans(pages[1], running)] == ["항구는 작다.", "배가 하루 두 번 다닌다."]


def test_the_answer_in_the_shared_sentence_is_quoted_first() -> None:
    answer = read("미르섬 등대가 처음 불을 밝힌 날은?", _chunks())
    assert not answer.declined
    first = answer.text.splitlines()[0]
    assert "1921년 3월 2일" in first
    assert any(quote == _SHARED for _, quote in answer.quotes)
