"""Whether the company pays dividends: "Has Acme paid dividends in 2031?" answered yes or no — the cash flow
statement's dividends line in the period asked, else the company's own words that it declared or paid one, or
that it has not (a subsidiary's dividend, a stock split "in the form of a stock dividend" and dividend
equivalents are not). Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.dividends_paid import asks_paid_dividends
from chat.models.reader.queries import search_queries

CASH_FLOWS = """KESTREL INC. › Consolidated Statements of Cash Flows (In thousands)
| | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 | Year Ended December 31, / 2029 |
|---|---|---|---|
| Cash flows from financing activities | | | |
| Repurchases of common stock | (1,031,534) | (1,410,016) | (1,283,333) |
| Dividends paid to common shareholders | — | (77,606) | (271,288) |
| Distributions to noncontrolling interest owners | (286,304) | (223,228) | (187,000) |
| Net cash used in financing activities | (1,317,838) | (1,710,850) | (1,741,621) |"""

NEVER = """Market for Registrant's Common Equity
We have never declared nor paid any cash dividends on our capital stock. We currently intend to retain all
available funds and do not expect to pay any dividends in the foreseeable future."""

SUBSIDIARY = """Distributions
In 2031, Kestrel Macau paid a final dividend of $41 million, of which we received $23 million.
In June 2030, the Board of Directors declared a seven-for-one stock split in the form of a stock dividend."""

DECLARED = """Dividends
On February 12, 2031, our Board of Directors declared a cash dividend of $0.37 per common share, payable on May 9,
2031."""

AHEAD = """Dividend policy
We do not anticipate paying any cash dividends in the foreseeable future."""


def _p(ref: str, text: str, page: int = 40) -> Passage:
    return Passage(ref, text, "doc-k", "KESTREL_2031_10K.pdf", page, company="Kestrel Inc.")


def test_the_question_is_read() -> None:
    assert asks_paid_dividends("Has Kestrel paid dividends to common shareholders in FY2031?")
    assert asks_paid_dividends("Does Kestrel pay a dividend on its common stock?")
    assert not asks_paid_dividends("How much did Kestrel pay in dividends in 2031?")
    assert not asks_paid_dividends("Does Kestrel have a stable trend of paying dividends?")
    assert not asks_paid_dividends("Did Kestrel increase its dividend in 2031?")


def test_the_statements_line_says_yes_or_no_for_the_year_asked() -> None:
    paid = read("Did Kestrel pay dividends in 2030?", [_p("S1", CASH_FLOWS)])
    head = paid.text.splitlines()[0]
    assert head.startswith("Yes — Dividends paid to common shareholders: 77,606 thousand in the year ended December "
                           "31, 2030 [S1]"), head
    none = read("Has Kestrel paid dividends to its shareholders in 2031?", [_p("S1", CASH_FLOWS)])
    assert none.text.startswith("No — the cash flow statement prints no amount (“—”) for Dividends paid to common "
                                "shareholders in the year ended December 31, 2031 [S1]"), none.text


def test_the_companys_own_words() -> None:
    never = read("Has Kestrel ever paid cash dividends on its common stock?", [_p("S1", NEVER)])
    assert never.text.startswith("No — the documents say: “We have never declared nor paid any cash dividends on "
                                 "our capital stock.” [S1]"), never.text
    declared = read("Did Kestrel pay dividends in 2031?", [_p("S1", SUBSIDIARY), _p("S2", DECLARED)])
    assert declared.text.startswith("Yes — the documents say so: “On February 12, 2031, our Board of Directors "
                                    "declared a cash dividend"), declared.text
    assert "[S1]" not in declared.text  # a subsidiary's dividend and a stock split are not the company's
    ahead = read("Does Kestrel pay a dividend?", [_p("S1", AHEAD)])
    assert ahead.text.startswith("No — the documents say the company does not expect to pay any: “We do not "
                                 "anticipate paying"), ahead.text


def test_nothing_said_either_way_is_answered_as_any_question() -> None:
    answer = read("Did Kestrel pay dividends in 2031?", [_p("S1", SUBSIDIARY)])
    assert not answer.text.startswith(("Yes", "No"))


def test_the_dividends_are_searched_for() -> None:
    queries = search_queries("Has Kestrel paid dividends to its shareholders in 2031?")
    assert any("dividends paid" in q and "Kestrel" in q for q in queries), queries


def test_a_chunk_without_a_currency_sign_is_in_its_documents_dollars() -> None:
    # the statement prints "$" on its first and total rows only: a chunk of its middle rows shows none
    top = """KESTREL INC. › Consolidated Statements of Cash Flows (In millions)
| | Fiscal Year / 2031 | Fiscal Year / 2030 |
|---|---|---|
| Net earnings | $2,707.3 | $2,339.8 |
| Depreciation and amortization | 570.3 | 601.3 |"""
    middle = """KESTREL INC. › Consolidated Statements of Cash Flows (In millions)
| | Fiscal Year / 2031 | Fiscal Year / 2030 |
|---|---|---|
| Dividends paid | (1,244.5) | (1,246.4) |
| Net cash used by financing activities | (2,503.2) | (2,715.5) |"""
    answer = read("Does Kestrel pay dividends?", [_p("S1", middle), _p("S2", top, page=39)])
    assert answer.text.startswith("Yes — Dividends paid: $1,244.5 million in"), answer.text
