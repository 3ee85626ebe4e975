"""What a line item is, by the head of its name (``reader.heads``): a row named after the asked item — "Debt
issuance costs" for "total debt" — is another thing. Made-up labels and filings (none from an evaluation set)."""

from __future__ import annotations

import pytest

from chat.models.reader import Passage, read
from chat.models.reader.heads import group_qualifies, item_head, label_heads, modifier_only, named_after_before
from chat.models.reader.text import match_terms


@pytest.mark.parametrize(("item", "label"), [
    ("total debt", "Debt issuance costs"),
    ("total debt", "Less: Premiums, discounts, and unamortized debt issuance costs, net"),
])
def test_the_asked_word_only_qualifying_another_noun(item: str, label: str) -> None:
    assert modifier_only(item, label)


def test_a_lexicon_items_name_only_qualifying_another_noun() -> None:
    # goodwill is a line item of the lexicon: its group, not its head word, tells "Goodwill impairment charges"
    (goodwill,) = match_terms("goodwill")
    assert goodwill.startswith("§")
    assert group_qualifies(goodwill, "Goodwill impairment charges")
    assert not group_qualifies(goodwill, "Goodwill, net")


@pytest.mark.parametrize(("item", "label"), [
    ("total debt", "Long-term debt, net of current portion"),
    ("total debt", "Total debt"),
    ("cash", "Cash and cash equivalents"),  # a conjunct's head
    ("total backlog", "Backlog at year-end"),  # before a preposition
    ("cash dividends", "Cash dividends paid"),  # a trailing participle
    ("free cash flow conversion", "Free cash flow conversion rate"),  # a measure of it
    ("shares", "Shares outstanding"),
    ("net income attributable", "Net income attributable to Acme plc"),  # the company taken out of the item
    ("operating income", "Operating income (loss)"),
    ("revenue", "Revenue recognition adjustments"),  # a lexicon group: matched by the lexicon, not here
    ("tax expense", "Provision for income taxes"),  # the head word is not in the label at all
])
def test_the_row_is_the_thing_asked_or_not_named_after_it(item: str, label: str) -> None:
    assert not modifier_only(item, label)


def test_heads_of_an_item_and_of_a_label() -> None:
    assert item_head("net income attributable to Acme") == "income"
    assert label_heads("Cash and cash equivalents, end of period") == {"cash", "equivalents", "end"}
    assert label_heads("Repayment of debt") == {"repayment"} and label_heads("Number of employees") == {"employees"}


FLOWS = """ORRERY TOOLS, INC.
CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)
| | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Debt issuance costs | (62) | (63) |
| Repayment of debt | (1,000) | (400) |"""


def test_a_row_named_after_the_item_is_no_confident_answer() -> None:
    """Only "Repayment of debt" and "Debt issuance costs" print "debt": neither is stated as the total debt
    (before: "Repayment of debt was (1,000) million"); with the debt note's total beside them, that total."""
    flows = Passage("S1", FLOWS, "o", "ORRERY_10K.pdf", 60)
    answer = read("What was Orrery's total debt at December 31, 2031?", [flows])
    assert answer.text.startswith(("I'm not sure", "The documents don't say")), answer.text
    note = Passage("S2", "ORRERY TOOLS, INC. › Note 9 — Debt\n(In millions)\n| | December 31, 2031 | December 31, "
                         "2030 |\n|---|---|---|\n| Current portion of debt | 500 | 400 |\n"
                         "| Total debt | 12,000 | 11,500 |", "o", "ORRERY_10K.pdf", 80)
    first = read("What was Orrery's total debt at December 31, 2031?", [flows, note]).text.splitlines()[0]
    assert "12,000" in first, first


@pytest.mark.parametrize(("item", "label", "qualifies"), [
    ("research and development", "U.S. research and development tax credit", True),  # a credit
    ("research and development", "Research and development expenses", False),
    ("research and development", "Research, development and engineering expenses", False),
    ("research and development", "R&D", False),
    ("revenue", "Revenue growth", True),
    ("revenue", "Revenues, net", False),
    ("revenue", "Net sales by segment", False),  # a preposition ends the name
    ("revenue", "Cost of sales", False),  # "sales" there is the end of the name
    ("net income", "Net income available to common stockholders", False),
    ("depreciation and amortization", "Depreciation and amortization of property and equipment", False),
])
def test_a_lexicon_group_named_only_as_a_qualifier(item: str, label: str, qualifies: bool) -> None:
    group = next(t for t in match_terms(item) if t.startswith("§"))
    assert group_qualifies(group, label) is qualifies


TAX_NOTE = """HALYARD OPTICS, INC. › Note 12 — Income Taxes
| | Year Ended May 31, / 2032 | Year Ended May 31, / 2031 |
|---|---|---|
| Federal statutory rate | 21.0 % | 21.0 % |
| U.S. research and development tax credit | -1.1 % | -1.4 % |"""


def test_a_row_named_after_a_lexicon_item_is_no_confident_answer() -> None:
    """Only the tax note's "research and development tax credit" row names R&D: it is a credit, not the
    expense (before: "U.S. research and development tax credit was -1.1%", stated as the answer)."""
    note = Passage("S1", TAX_NOTE, "h", "HALYARD_10K.pdf", 70)
    answer = read("What is Halyard's FY2032 research and development expense in USD millions?", [note])
    assert answer.text.startswith(("I'm not sure", "The documents don't say")), answer.text


def test_income_before_income_taxes_is_no_income_tax_expense() -> None:
    """"income tax expense" asked: the subtotal "Income before income taxes" names the taxes only after "before"
    (before: "Income before income taxes were $1,797 million"); asked for itself, it is the row."""
    statement = """HERON GLASS › Consolidated Statements of Income
(In millions)
| | Year ended December 31, / 2033 | Year ended December 31, / 2032 |
|---|---|---|
| Operating income | 1,938 | 2,112 |
| Income before income taxes | 1,797 | 2,005 |
| Provision for (benefit from) income taxes | (411) | (383) |
| Net income | 1,386 | 1,622 |"""
    passages = [Passage("S1", statement, "h", "HERON_2033_10K.pdf", 70)]
    first = read("What is Heron's FY2033 income tax expense in USD millions? Use the income statement.",
                 passages).text.splitlines()[0]
    assert first.startswith("Provision for (benefit from) income taxes was"), first
    assert "411" in first, first
    pretax = read("What was Heron's income before income taxes in 2033?", passages).text.splitlines()[0]
    assert "1,797" in pretax, pretax
    assert named_after_before("income tax expense", "Income (loss) before income taxes")
    assert not named_after_before("income before income taxes", "Income before income taxes")
