"""A figure of a part is not the whole's, nor the whole's a part's: a product the question names that no passage
says ("revenue from Wrenzyme") is never answered surely by the filing's total revenues; a sentence that states a
part's amount of the whole asked ("Of Kestrel U.S.'s total net sales, approximately $21.5 billion … related to
eCommerce", "… net sales of $341.0 billion …, representing 66% of our consolidated net sales") is never the
whole's. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.question import analyze

#: a passage that names the product, not its revenue
PRODUCT = """KESTREL INC. › Revenues
Additionally, revenues from the U.S. government represented 13% of total revenues for 2031, and primarily represent \
sales of Wrenzyme."""

STATEMENT = """KESTREL INC. › Consolidated Statements of Income
(MILLIONS)
| (MILLIONS) | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Revenues | $81,288 | $41,651 |
| Cost of sales | 30,821 | 8,484 |"""

SEGMENT_SENTENCES = """KESTREL INC. › Segments
Of Kestrel U.S.'s total net sales, approximately $21.5 billion and $15.7 billion related to eCommerce for fiscal \
2031 and fiscal 2030, respectively. Kestrel U.S. had net sales of $341.0 billion for fiscal 2031, representing 66% \
of our fiscal 2031 consolidated net sales."""

CONSOLIDATED = """KESTREL INC. › Consolidated Statements of Income
(Amounts in millions)
| (Amounts in millions) | Fiscal Years Ended January 31, / 2031 | Fiscal Years Ended January 31, / 2030 |
|---|---|---|
| Net sales | $519,926 | $510,329 |
| Total revenues | 523,964 | 514,405 |"""


def _p(ref: str, text: str, page: int, period_end: str = "2031-12-31") -> Passage:
    return Passage(ref, text, "doc-2031", "KESTREL_2031_10K.pdf", page, company="Kestrel Inc.",
                   period_end=period_end)


def test_a_product_no_passage_names_is_not_the_total() -> None:
    answer = read("What was Kestrel's revenue from Wrenzyme in 2031?", [_p("S1", PRODUCT, 39), _p("P1", STATEMENT, 57)])
    # before: "Revenues were $81,288 million in the year ended December 31, 2031 [P1]." — sure
    assert answer.declined or answer.why == "unsure", answer.text
    assert read("What was Kestrel's revenue in 2031?", [_p("P1", STATEMENT, 57)]).text.startswith(
        "Revenues were $81,288 million in the year ended December 31, 2031 [P1]")


def test_a_parts_amount_is_not_the_whole() -> None:
    passages = [_p("S1", SEGMENT_SENTENCES, 37, "2031-01-31"), _p("S2", CONSOLIDATED, 54, "2031-01-31")]
    head = read("kestrel revenue fy2031", passages).text.splitlines()[0]
    # before: "The documents say $21.5 billion: “Of Kestrel U.S.'s total net sales, approximately $21.5 billion …”"
    assert head.startswith("Total revenues were $523,964 million"), head


def test_the_number_of_things_asks_a_value() -> None:
    q = analyze("What was Kestrel's number of paid memberships at the end of 2031?")
    assert (q.focus, q.kind) == ("paid memberships", "value")


def test_a_part_named_before_its_measure_is_no_other_companys_figure() -> None:
    """"AWS operating income" (the question's only name, insisted on) asked of another company's filing that does not
    say it: its operating income is never the answer surely (before: $838,679 thousand, sure — the name was
    weighed like a soft one)."""
    other = Passage("S1", STATEMENT.replace("Revenues | $81,288 | $41,651", "Operating income | $838,679 | $379,793"),
                    "doc-9", "GANNET_2031_10K.pdf", 40, company="Gannet Media, Inc.")
    mention = Passage("S2", "GANNET MEDIA › Technology\nWe run our service on AWS and on our own content network.",
                      "doc-9", "GANNET_2031_10K.pdf", 12, company="Gannet Media, Inc.")
    assert analyze("What was AWS operating income in 2031?").insisted_names == ("AWS",)
    answer = read("What was AWS operating income in 2031?", [other, mention])
    assert answer.why != "sure"
    own = Passage("S1", STATEMENT.replace("Revenues | $81,288 | $41,651", "AWS operating income | $4,331 | $3,108"),
                  "doc-2031", "KESTREL_2031_10K.pdf", 40, company="Kestrel Inc.")
    assert read("What was AWS operating income in 2031?", [own]).text.startswith(
        "AWS operating income was $4,331 million")
