"""A change computed from one sentence stating a figure for two years (``reader.sentence_change``): each figure
beside its year, or a "respectively" list; rates in percentage points, amounts in percent; two scales or a rate
beside an amount are no pair. Made-up sentences and questions (none from an evaluation set)."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.question import analyze
from chat.models.reader.sentence_change import figures_by_year, sentence_change

MDNA = """HARBOR FOODS, INC. › Income Taxes
Our effective income tax rate was 14.2% for 2031 and 16.4% for 2030. The rate decreased primarily due to research
and development tax credits."""


def test_the_change_between_the_two_years_the_sentence_states() -> None:
    """Before: "The documents say 14.2%: …" — one of the two years, no change."""
    answer = read("How much has the effective tax rate of Harbor changed between FY2030 and FY2031?",
                  [Passage("S1", MDNA, "h", "HARBOR_2031_10K.pdf", 41)])
    assert answer.text.startswith("Effective tax rate was down 2.2 percentage points: 14.2% for 2031 vs 16.4% for "
                                  "2030 [S1] (computed from the sentence)."), answer.text
    assert "Our effective income tax rate was 14.2% for 2031" in answer.quotes[0][1]


def test_respectively_lists_amounts_and_what_is_no_pair() -> None:
    assert figures_by_year("The effective tax rates were 23.1% and 20.5% for 2031 and 2030, respectively.") == {
        2031: (23.1, "%", "23.1%"), 2030: (20.5, "%", "20.5%")}
    q = analyze("How did Harbor's net sales change between 2030 and 2031?")
    assert sentence_change(q, "Net sales were $1.2 billion in 2031 compared with $0.9 billion in 2030.", "S1") \
        .startswith("Net sales was up 33.3%: $1.2 billion for 2031 vs $0.9 billion for 2030 [S1]")
    assert sentence_change(q, "Net sales were $1.2 billion in 2031 compared with $900 million in 2030.", "S1") == ""
    assert sentence_change(q, "In 2031 we opened 12 stores, compared with 2030.", "S1") == ""
    assert sentence_change(analyze("What were Harbor's net sales in 2031?"),
                           "Net sales were $1.2 billion in 2031 compared with $0.9 billion in 2030.", "S1") == ""
