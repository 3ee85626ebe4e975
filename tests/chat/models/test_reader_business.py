"""What the company does: "What industry does Acme operate in?" answered with the company's own description of
itself from Item 1 (its name, "we" or "the Company" as the subject, a copula and a kind of business) — not a
sentence that only holds the question's words, not its legal form, not a subsidiary's or a customer's description,
and the Item 1 page read when the search brings none. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.business import asks_business, business_query, describes, pages_to_read
from chat.models.reader.queries import search_queries
from chat.models.reader.question import analyze

ITEM_1 = """KESTREL INC. › PART I › Item 1. Business › General
Kestrel Inc. ("Kestrel" or the "Company") is a public limited company incorporated under the Laws of Delaware.
Kestrel, together with its subsidiaries, is one of the world's leading makers of industrial drones and the flight
software that runs them, serving customers in over 40 countries."""

COMPETITION = """KESTREL INC. › Risk Factors › Competition
We operate in highly competitive markets, each with varying barriers to entry, industry structures, and
competitive behavior. Kestrel Robotics, our subsidiary, is a leading provider of drone repair services."""

ACTIVITY = """KESTREL INC. › ITEM 1. BUSINESS › GENERAL
Our principal business activity is the design, manufacture and worldwide sale of industrial drones."""

MDNA = """KESTREL INC. › ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS
Net sales were $4.2 billion in 2031."""


def _p(ref: str, text: str, page: int = 3) -> Passage:
    return Passage(ref, text, "doc-k", "KESTREL_2031_10K.pdf", page, company="Kestrel Inc.")


def test_the_question_is_read() -> None:
    for asked in ("What industry does Kestrel primarily operate in?", "What business is Kestrel in?",
                  "What does Kestrel do?", "What is Kestrel's primary business?", "What kind of company is Kestrel?",
                  "Describe Kestrel's business.", "Which industry is Kestrel in?", "What products does Kestrel sell?",
                  "What kind of services does Kestrel offer?", "What does Kestrel make?",
                  "What products and services does Kestrel provide?"):
        assert asks_business(asked), asked
    for other in ("Which Kestrel business segment had the highest net sales in 2031?",
                  "What are the main risks to Kestrel's business?", "What were Kestrel's revenues in 2031?",
                  "How much did Kestrel's primary business grow in 2031?",
                  "How many products did Kestrel sell in 2031?", "What did Kestrel sell its stake for?"):
        assert not asks_business(other), other


def test_the_companys_own_description_answers_not_the_questions_words() -> None:
    answer = read("What industry does Kestrel operate in?", [_p("S1", COMPETITION), _p("S2", ITEM_1)])
    assert not answer.declined
    first = answer.text.split("\n")[0]
    # the description, not its legal form ("public limited company incorporated under …"), not "We operate in …",
    # not the subsidiary's
    assert "one of the world's leading makers of industrial drones" in first and "[S2]" in first
    assert "incorporated" not in first and "competitive" not in first and "repair" not in first


def test_the_principal_business_activity_answers() -> None:
    answer = read("What does Kestrel do?", [_p("S1", MDNA, 40), _p("S2", ACTIVITY)])
    assert "design, manufacture and worldwide sale of industrial drones" in answer.text.split("\n")[0]


def test_descriptions_of_others_are_not_the_companys() -> None:
    assert describes("We are a global leader in flight software.", ["Kestrel"])
    assert not describes("Kestrel Robotics, our subsidiary, is a leading provider of repair services.", ["Kestrel"])
    assert not describes("Our largest customer is a global leader in logistics.", ["Kestrel"])
    assert not describes("We are a party to several lawsuits.", ["Kestrel"])
    assert not describes("We are subject to the laws of many countries, each a regulator of drones.", ["Kestrel"])


def test_the_search_asks_for_item_1_and_its_page_is_read_when_no_hit_describes() -> None:
    question = "What industry does Kestrel operate in?"
    assert business_query(question) and "Item 1. Business" in business_query(question)
    assert business_query(question) in search_queries(question)
    assert business_query("What were Kestrel's revenues in 2031?") == ""
    heading_only = _p("S1", "KESTREL INC. › PART I › Item 1. Business › General\nFor more, see our website.", 4)
    assert pages_to_read(question, analyze(question), [_p("S2", MDNA, 40), heading_only]) == [("doc-k", 4)]
    assert pages_to_read(question, analyze(question), [_p("S1", ITEM_1)]) == []  # already described


def test_another_companys_we_is_not_the_named_companys_description() -> None:
    """A supplier's 10-K that mentions Kestrel: its "We are a leading provider …" is the supplier's, not Kestrel's."""
    other = Passage("S1", "OSPREY CORP. › Item 1. Business › General\nWe are a leading provider of rotor blades; our "
                    "largest customer is Kestrel.", "doc-o", "OSPREY_2031_10K.pdf", 3, company="Osprey Corp.")
    answer = read("What industry does Kestrel operate in?", [other])
    assert "rotor blades" not in answer.text.split("\n")[0] or answer.declined or answer.why == "unsure"
    assert not answer.text.startswith("The company describes its business")


LEGAL = """KESTREL INC. › Antitrust Investigations › • State Attorneys General and Multi-District Litigation
In June 2030, the State Attorneys General filed a complaint against several drone makers, including Kestrel.
We responded to that subpoena in full and have had no communication with the agency since June 2030."""


def test_a_sentence_under_no_business_heading_is_no_description() -> None:
    """"What products does Kestrel sell?" over a legal-proceedings chunk: "We responded to that subpoena …" has the
    company as its subject, but "General" in its heading "State Attorneys General …" is no "General" heading of Item 1
    (before: quoted as the company describing its business) — and what is quoted then is not sure."""
    for question in ("What products does Kestrel sell?", "What industry does Kestrel operate in?"):
        answer = read(question, [_p("S1", LEGAL, 36)])
        assert not answer.text.startswith("The company describes its business"), answer.text
        assert answer.declined or answer.why == "unsure", answer.text
    described = read("What products does Kestrel sell?", [_p("S1", LEGAL, 36), _p("S2", ITEM_1)])
    assert described.text.startswith("The company describes its business: “Kestrel, together with its subsidiaries, is "
                                     "one of the world's leading makers of industrial drones"), described.text
