"""A table read across: the row the question names (a middle initial in the row is no mismatch), the column its
measure heads (the heading above the table may complete the measure's words). Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.question import analyze

VOTES = ("Kestrel Corp. › Item 5.07. Submission of Matters to a Vote of Security Holders.\n(1) The following persons "
         "were elected to serve as directors of Kestrel:\n| Nominee | For | Against | Abstain | Broker Non-Votes |\n"
         "|---|---|---|---|---|\n| Ann B. Carter | 985,425,035 | 32,153,405 | 2,569,449 | 172,969,325 |\n"
         "| Ben D. Fowler | 943,626,804 | 69,085,058 | 7,436,027 | 172,969,325 |\n"
         "| Cal E. Grant | 1,006,427,071 | 11,070,996 | 2,649,822 | 172,969,325 |")
SECURITIES = ("Kestrel Corp. › Note 3 — Investments\nThe following table summarizes our short-term investments (in "
              "millions):\n|  | December 31, 2031 / Amortized Cost | December 31, 2031 / Fair Value | December 31, "
              "2030 / Fair Value |\n|---|---|---|---|\n| Corporate Bonds | 4,210 | 4,102 | 3,880 |\n"
              "| Municipal Securities | 1,044 | 1,031 | 990 |")


def _p(text: str) -> Passage:
    return Passage("S1", text, "doc-k", "kestrel-8k.pdf", 3, company="Kestrel Corp.")


def test_the_named_rows_cell_in_the_column_of_the_measure() -> None:
    """(before: "did … receive at the annual meeting" were words of the item, and no row named the votes: declined)"""
    asked = "How many votes against did Ben Fowler receive at Kestrel's 2031 annual meeting?"
    assert analyze(asked).focus == "votes against"
    first = read(asked, [_p(VOTES)]).text.split("\n")[0]
    assert first.startswith("Ben D. Fowler — Against: 69,085,058 [S1]"), first
    # "for" is no word a header can be matched by: no other column's figure is given for it
    assert "Broker Non-Votes:" not in read("How many votes for did Cal Grant receive?", [_p(VOTES)]).text
    # a table of periods and measures: the period asked's column; a name no row holds gets no row's figure
    first = read("What was the fair value of Kestrel's Municipal Securities at December 31, 2030?",
                 [_p(SECURITIES)]).text
    assert "990 million" in first.split("\n")[0] and "December 31, 2030" in first.split("\n")[0], first
    unnamed = read("How many votes against did Dee Hart receive at Kestrel's annual meeting?", [_p(VOTES)]).text
    assert "Dee" not in unnamed.split("\n")[0] or not unnamed.startswith("Dee")
    assert "—" not in unnamed.split("\n")[0]
