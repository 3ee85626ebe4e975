"""A count rolled forward by rows ("Total stores open at beginning of period", "Number of stores opened during the
period", …, "Total stores open at end of period"): the count asked is the end's row, a movement asked its own row
— and the filer's name inside the item ("the total number of Kestrel Beauty stores") qualifies no row. Made-up
filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.heads import modifier_only
from chat.models.reader.question import analyze

ROLL_FORWARD = """KESTREL BEAUTY, INC. › Store count
| | Fiscal 2031 | Fiscal 2030 |
|---|---|---|
| Total stores open at beginning of period | 1,355 | 1,308 |
| Number of stores opened during the period | 25 | 51 |
| Number of stores closed during the period | (5) | (4) |
| Total stores open at end of period | 1,375 | 1,355 |"""


def _head(question: str) -> str:
    p = Passage("S1", ROLL_FORWARD, "doc-2031", "KESTRELBEAUTY_2031Q4_EARNINGS.pdf", 9, company="Kestrel Beauty, Inc.",
                period_end="2031-12-31")
    return read(question, [p]).text.splitlines()[0]


def test_open_and_during_are_no_heads() -> None:
    # "Stores open": stores that are open; "Number of stores opened during the period": a number of stores
    assert not modifier_only("stores", "Total stores open at end of period")
    assert not modifier_only("stores", "Number of stores opened during the period")


def test_the_count_at_the_end() -> None:
    # before: "I'm not sure …" — "open" read as the row's head noun, the stores as its qualifier
    assert _head("How many stores did Kestrel Beauty have at the end of fiscal 2031?") == (
        "Total stores open at end of period was 1,375 in fiscal 2031 [S1].")
    # before: declined — "number", "Kestrel" and "Beauty" were words of the item no row has
    assert analyze("What was the total number of Kestrel Beauty stores at the end of fiscal 2031?").focus == (
        "total Kestrel Beauty stores")
    assert _head("What was the total number of Kestrel Beauty stores at the end of fiscal 2031?").startswith(
        "Total stores open at end of period was 1,375 in fiscal 2031 [S1]")
    assert _head("What was Kestrel Beauty's store count at the end of fiscal 2031?").startswith(
        "Total stores open at end of period was 1,375")  # not "… end of period count"


def test_a_movement_asked_is_its_row() -> None:
    assert _head("How many stores did Kestrel Beauty open in fiscal 2031?") == (
        "Number of stores opened during the period was 25 in fiscal 2031 [S1].")
    # the closed stores' "(5)" is five stores closed
    assert _head("How many stores did Kestrel Beauty close in fiscal 2031?") == (
        "Number of stores closed during the period was 5 in fiscal 2031 [S1].")
