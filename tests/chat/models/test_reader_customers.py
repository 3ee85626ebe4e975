"""Whether a company depends on a few customers (``reader.customers``): the sentence that ties its customers to a
share of its revenue (yes), or says none reaches the threshold (no); a share of receivables only after revenue's, a
segment's or another year's sentence after the company's own. Made-up filings (none from an evaluation set)."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.customers import asks_concentration, concentration_query

PHARMA = """NORTHWIND PHARMA INC. › Note 17. Segment Information › Significant Customers
Our three largest wholesaler customers represented 24%, 30% and 25% of total trade accounts receivable as of
December 31, 2031, 2030 and 2029. Additionally, revenues from the U.S. government represented 13% of total revenues
for 2031, and primarily represent sales of our vaccine."""

PACKAGING = """HARBOR PACKAGING PLC › Item 1. Business › Customers
While we do not have a single customer accounting for more than 10% of our net sales, customer concentration can
be more pronounced within certain businesses."""


def test_a_customers_share_of_revenue_is_a_yes_and_none_reaching_the_threshold_a_no() -> None:
    """Before: a sentence the question's words covered best, "not sure" (or another company's)."""
    yes = read("Did Northwind report customer concentration in FY2031?",
               [Passage("S1", PHARMA, "n", "NORTHWIND_2031_10K.pdf", 102)])
    assert yes.text.startswith("Yes — the filing ties its revenue to a few customers: “Additionally, revenues from "
                               "the U.S. government represented 13% of total revenues for 2031"), yes.text
    no = read("Did Harbor report customer concentration in FY2031?",
              [Passage("S1", PACKAGING, "h", "HARBOR_2031_10K.pdf", 14)])
    assert no.text.startswith("No — no single customer reaches the share the filing names: “"), no.text
    assert "While we do not have a single customer accounting for more than 10% of our net sales" in no.text


def test_the_question_and_its_search() -> None:
    assert asks_concentration("Does Harbor have any single customer that accounts for more than 10% of revenue?")
    assert not asks_concentration("How many customers does Harbor have?")
    assert concentration_query("Did Harbor report customer concentration in FY2031?").startswith(
        "Harbor customers accounted for % of total revenues")
