"""An annual review's highlights and a question's follow-up: "Reported Diluted EPS––$3.85" is a label, a double dash
and an amount (no minus sign), the reported figure beside an adjusted one is the one asked when the question asks
no basis, and "… in 2031 and how did it compare to 2030?" is answered in both parts. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.evidence import answer_span
from chat.models.reader.numbers import all_amounts
from chat.models.reader.question import analyze

HIGHLIGHTS = ("2031 Total Revenues––$81.3 billion 2031 Net Cash Flow from Operations––$32.6 billion An increase of "
              "95% compared to 2030 2031 Reported Diluted EPS––$3.85 2031 Adjusted Diluted EPS (Non-GAAP)––$4.42* "
              "An increase of 137% compared to 2030")

STATEMENT = """KESTREL INC. › Consolidated Statements of Operations
(in millions)
|  | Year Ended December 31, / 2029 | Year Ended December 31, / 2030 | Year Ended December 31, / 2031 |
|---|---|---|---|
| Net income | $596 | $2,371 | $3,033 |"""


def test_a_double_dash_before_an_amount_is_no_minus_sign() -> None:
    amounts = {HIGHLIGHTS[s:e]: a.value for s, e, a in all_amounts(HIGHLIGHTS) if a.currency}
    assert amounts == {"$81.3 billion": 81.3, "$32.6 billion": 32.6, "$3.85": 3.85, "$4.42": 4.42}
    loss = "a loss of –$5 million"
    assert [a.value for _, _, a in all_amounts(loss)] == [-5.0]  # a single dash still signs


def test_the_reported_figure_is_asked_when_the_question_asks_no_basis() -> None:
    """Before: "The documents say –$4.42" — the adjusted figure, and negative."""
    assert answer_span(analyze("What was Kestrel's diluted EPS in 2031?"), HIGHLIGHTS) == "$3.85"
    assert answer_span(analyze("What was Kestrel's adjusted diluted EPS in 2031?"), HIGHLIGHTS) == "$4.42"
    other_order = "Adjusted EPS was $4.42 in 2031, while reported EPS was $3.85."
    assert answer_span(analyze("What was Kestrel's EPS in 2031?"), other_order) == "$3.85"
    # an adjusted figure alone is still what the sentence offers
    assert answer_span(analyze("What was Kestrel's EPS in 2031?"), "Adjusted EPS was $4.42 in 2031.") == "$4.42"
    answer = read("What was Kestrel's diluted EPS in 2031?",
                  [Passage("S1", HIGHLIGHTS, "d1", "KESTREL_2031_ANNUAL_REVIEW.pdf", 3, company="Kestrel Inc.")])
    assert answer.text.startswith("The documents say $3.85")


def test_a_value_and_how_it_compared_are_both_answered() -> None:
    """Before: the 2030 change from 2029 (the follow-up kept its own year alone, and the item read "net income in
    and how")."""
    q = analyze("What was Kestrel's net income in 2031 and how did it compare to 2030?")
    assert [p.focus for p in q.parts] == ["net income", "net income"]
    assert [p.text for p in q.parts[1].periods] == ["2031", "2030"]
    answer = read(q.text, [Passage("S1", STATEMENT, "d1", "KESTREL_2031_10K.pdf", 40, company="Kestrel Inc.")])
    first, *rest = [line for line in answer.text.split("\n") if line and not line.startswith(">")]
    assert first.startswith("Net income was $3,033 million")
    assert rest[0].startswith("Net income was up 27.9%: $3,033 million") and "$2,371 million" in rest[0]


def test_gaap_said_outright_is_no_word_of_the_line() -> None:
    """"GAAP diluted earnings per share" is the statement's "Diluted net income per share" (before: "gaap" was a word
    the row had to hold — not sure); "non-GAAP" stays the question's basis."""
    assert analyze("What was Kestrel's GAAP diluted earnings per share in 2031?").focus == "diluted earnings per share"
    assert analyze("What was Kestrel's diluted EPS on a GAAP basis in 2031?").focus == "diluted EPS"
    assert "gaap" in analyze("What was Kestrel's non-GAAP diluted EPS in 2031?").focus_terms
    eps = STATEMENT.replace("Net income | $596 | $2,371 | $3,033",
                            "Diluted net income per share | $8.40 | $9.02 | $10.10")
    answer = read("What was Kestrel's GAAP diluted earnings per share in 2031?",
                  [Passage("S1", eps, "d1", "KESTREL_2031_10K.pdf", 40, company="Kestrel Inc.")])
    assert answer.why == "sure" and answer.text.startswith("Diluted net income per share was $10.10")
