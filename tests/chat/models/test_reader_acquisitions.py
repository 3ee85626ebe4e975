"""Which companies a company acquired: the capitalised name after "acquired (all the outstanding shares of)" or
"acquisition of", the most mentioned first, each with its sentence; accounting terms name none; a year asked, and a
form asked ("this 10-K"), keep their own. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.acquisitions import asks_acquisitions
from chat.models.reader.queries import search_queries

TEN_K = """HARBOR FOODS, INC. › Acquisitions
In fiscal 2031, we acquired all of the outstanding shares of Blue Kettle Ltd. ("Blue Kettle"), a meal-kit company,
for net cash consideration of $210 million. On March 4, 2031, we acquired Saltmarsh, LLC, a seafood distributor.
Research and development expenses include acquired IPR&D of $12 million.
The increase in amortization reflects our acquisition of Blue Kettle."""

OLD_K = """HARBOR FOODS, INC. › Acquisitions
On June 1, 2027, we acquired Greenway Dairy Inc. for $95 million."""

TEN_Q = """HARBOR FOODS, INC. › Subsequent events
On August 2, 2032, we acquired Pinecone Bakery, a regional bakery chain."""


def test_the_companies_acquired_most_named_first_each_with_its_sentence() -> None:
    passages = [Passage("S1", TEN_K, "k", "HARBOR_2031_10K.pdf", 51),
                Passage("S2", OLD_K, "k7", "HARBOR_2027_10K.pdf", 48)]
    answer = read("What are the major acquisitions that Harbor made in FY2031?", passages)
    lead = "The documents name these acquisitions: Blue Kettle Ltd. [S1]; Saltmarsh, LLC [S1]."
    assert answer.text.startswith(lead), answer.text
    assert "IPR&D" not in answer.text.splitlines()[0] and "Greenway" not in answer.text  # another year's
    assert not answer.declined


def test_a_form_asked_keeps_that_forms_documents_and_an_amount_is_no_question_of_this_kind() -> None:
    passages = [Passage("S1", TEN_Q, "q", "HARBOR_2032Q2_10Q.pdf", 20),
                Passage("S2", TEN_K, "k", "HARBOR_2031_10K.pdf", 51)]
    answer = read("Which companies acquired by Harbor are mentioned in this 10-K report?", passages)
    assert "Blue Kettle" in answer.text.splitlines()[0] and "Pinecone" not in answer.text, answer.text
    assert asks_acquisitions("Which companies did Harbor acquire in 2031?")
    assert not asks_acquisitions("How much did Harbor pay for its acquisitions in 2031?")
    assert "Harbor acquired all outstanding shares completed acquisition of" in \
        search_queries("What acquisitions did Harbor make in 2031?")


def test_another_companys_acquisitions_among_the_results_are_not_named() -> None:
    """"Best Buy"-like names (a plain word in them) are weak names: the company's passages are still the only ones
    read (before: another filing's "we acquired Blizzard Entertainment, Inc." was listed too)."""
    other = Passage("S2", "ORBIT GAMES, INC. › Description of Business\nIn 2031 we acquired Comet Studios, Inc. "
                          "(\"Comet\").", "g", "ORBIT_2029_10K.pdf", 5)
    passages = [Passage("S1", TEN_K.replace("HARBOR FOODS", "GOOD BUY"), "k", "GOODBUY_2031_10K.pdf", 51), other]
    answer = read("What are major acquisitions that Good Buy has done in FY2031?", passages)
    assert "Blue Kettle" in answer.text and "Comet" not in answer.text, answer.text


PHARMA_K = """NORTHWIND PHARMA INC. › Note 2. Acquisitions › A. Acquisitions
Tidewell
On November 17, 2031, we acquired all of the issued and outstanding common stock not already owned by Northwind of
Tidewell, a clinical stage oncology company, for total consideration of $2.0 billion.
NORTHWIND PHARMA INC. › Key Activities
Impairments relate to IPR&D acquired in our Larkspur acquisition, and to rights acquired in our Fennel acquisition.
For 2029, included a $337 million charge related to our acquisition of Quillon, an asset acquisition."""


def test_a_deal_told_outranks_one_referred_to_by_name_and_the_count_asked_is_kept() -> None:
    """"acquired all of the … common stock not already owned by Northwind of Tidewell" names Tidewell (before: no
    name); "our Larkspur acquisition" names Larkspur, weighing less than a sentence telling the deal; "three main
    companies" lists three (before: Quillon alone)."""
    passages = [Passage("S1", PHARMA_K, "k", "NORTHWIND_2031_10K.pdf", 70)]
    answer = read("What are three main companies acquired by Northwind mentioned in this 10K report?", passages)
    lead = answer.text.splitlines()[0]
    assert lead == "The documents name these acquisitions: Tidewell [S1]; Quillon [S1]; Larkspur [S1].", answer.text
    assert "Fennel" not in lead
