"""Which securities are registered on an exchange: the cover page's Section 12(b) list — each class on its line
with its symbol and exchange, debt classes only when debt is asked, one filing's cover, and the cover page read
when a search hit may hold part of the list. Made-up covers."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.question import analyze
from chat.models.reader.registered import asks_registered, pages_to_read

GRID = """UNITED STATES SECURITIES AND EXCHANGE COMMISSION › KESTREL COMPANY
SECURITIES REGISTERED PURSUANT TO SECTION 12(b) OF THE ACT:
| Title of each class | Trading Symbol(s) | Name of each exchange on which registered |
|---|---|---|
| Common Stock, Par Value $.01 Per Share | KST | New York Stock Exchange, Inc. |
| 1.500% Notes due 2036 | KST36 | New York Stock Exchange, Inc. |
| Floating Rate Notes due 2030 | KST30 | New York Stock Exchange, Inc. |"""

LINES = """KESTREL COMPANY
Securities registered pursuant to Section 12(b) of the Act:
Title of each class Trading Symbol(s)
Name of each exchange
on which registered
Class B Common Stock, $5.00 Par Value KST New York Stock Exchange
Securities registered pursuant to Section 12(g) of the Act: None
The 1.250% Notes due 2041 were issued in March 2031."""


def _p(ref: str, text: str, doc: str = "doc-k", page: int = 1) -> Passage:
    return Passage(ref, text, doc, "KESTREL_2031_10K.pdf", page, company="Kestrel Company")


def test_the_question_is_read() -> None:
    assert asks_registered("Which debt securities are registered to trade on a national securities exchange under "
                           "Kestrel's name?")
    assert asks_registered("What notes does Kestrel have listed on the New York Stock Exchange?")
    assert not asks_registered("How much debt did Kestrel issue in 2031?")
    assert not asks_registered("What was the foreign exchange impact on Kestrel's debt securities?")


def test_the_debt_classes_with_symbol_and_exchange() -> None:
    answer = read("Which debt securities are registered to trade on a national securities exchange under Kestrel's "
                  "name?", [_p("P1", GRID)])
    head = answer.text.splitlines()[0]
    assert head.startswith("2 debt securities are registered on an exchange under Section 12(b), as the filing's "
                           "cover lists: 1.500% Notes due 2036 (KST36, New York Stock Exchange, Inc.) [P1]; Floating "
                           "Rate Notes due 2030 (KST30, New York Stock Exchange, Inc.) [P1]."), head
    every = read("Which securities does Kestrel have registered under Section 12(b)?", [_p("P1", GRID)])
    assert every.text.startswith("3 classes of securities"), every.text


def test_a_cover_without_debt_says_none_and_a_note_in_prose_is_no_registration() -> None:
    answer = read("Which debt securities does Kestrel have registered on an exchange?", [_p("P1", LINES)])
    assert answer.text.startswith("None — the filing's cover lists no debt security under Section 12(b), only: Class "
                                  "B Common Stock, $5.00 Par Value (KST, New York Stock Exchange) [P1]."), answer.text


def test_the_cover_page_is_read_unless_read_already() -> None:
    question = "Which debt securities are registered under Kestrel's name?"
    q = analyze(question)
    assert pages_to_read(question, q, [_p("S1", GRID)]) == [("doc-k", 1)]  # a hit may hold part of the list
    assert pages_to_read(question, q, [_p("S1", GRID), _p("P1", GRID)]) == []
    assert pages_to_read(question, q, [_p("S1", "Kestrel's debt is described in Note 9.", page=60)]) == [("doc-k", 1)]


def test_one_filings_cover() -> None:
    later = _p("P2", GRID.replace("1.500% Notes due 2036 | KST36", "2.000% Notes due 2044 | KST44"), doc="doc-l")
    answer = read("Which debt securities are registered under Kestrel's name?", [_p("P1", GRID), later])
    assert "2044" not in answer.text and "2036" in answer.text


def test_a_search_hit_of_the_cover_before_the_page_read_still_says_none() -> None:
    """The cover's chunk came back from the search (S1) and the page was read whole (P1): no debt class on the read
    page is still "None" (before: the hit's class was the one listed, the read page's was not, and it declined)."""
    hit = LINES.split("Securities registered pursuant to Section 12(g)")[0]
    answer = read("Which debt securities are registered to trade on a national securities exchange under Kestrel's "
                  "name as of 2031?", [_p("S1", hit), _p("P1", LINES)])
    assert answer.text.startswith("None — the filing's cover lists no debt security under Section 12(b), only: Class "
                                  "B Common Stock, $5.00 Par Value (KST, New York Stock Exchange) [P1]."), answer.text
