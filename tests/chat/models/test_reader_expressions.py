"""Formulas a question writes out, parsed (``reader.expressions``): precedence and brackets, operators as symbols
and as words, a hyphen inside a word, brackets that are no arithmetic, names defined in terms of each other.
Made-up formulas (none from an evaluation set)."""

from __future__ import annotations

from chat.models.reader.expressions import Number, Operation, Term, definitions, parse, terms


def test_precedence_and_brackets() -> None:
    tree = parse("365 * (average accounts payable between FY2030 and FY2031) / (FY2031 COGS + change in inventory "
                 "between FY2030 and FY2031)")
    assert tree == Operation("/", Operation("*", Number(365.0), Term("average accounts payable between FY2030 and "
                                                                          "FY2031")),
                             Operation("+", Term("FY2031 COGS"), Term("change in inventory between FY2030 and FY2031")))
    assert parse("a + b * c") == Operation("+", Term("a"), Operation("*", Term("b"), Term("c")))
    assert parse("a - b - c") == Operation("-", Operation("-", Term("a"), Term("b")), Term("c"))


def test_operators_in_words_and_a_hyphen_inside_a_word() -> None:
    assert parse("total current assets less total current liabilities") == Operation(
        "-", Term("total current assets"), Term("total current liabilities"))
    assert parse("non-current assets divided by total assets") == Operation(
        "/", Term("non-current assets"), Term("total assets"))
    assert parse("operating income plus depreciation and amortization") == Operation(
        "+", Term("operating income"), Term("depreciation and amortization"))


def test_brackets_that_say_where_a_figure_is_printed_are_no_arithmetic() -> None:
    tree = parse("operating income + D&A (from cash flow statement)")
    assert tree == Operation("+", Term("operating income"), Term("D&A"))
    tree = parse("unadjusted operating income + depreciation and amortization from the cash flow statement")
    assert tree is not None and [t.text for t in terms(tree)] == ["unadjusted operating income",
                                                                   "depreciation and amortization"]


def test_what_is_no_formula() -> None:
    assert parse("total revenue") is None  # no operator
    assert parse("(a + b") is None  # unbalanced
    assert parse("a + ") is None  # an operator with one side


def test_names_defined_in_terms_of_each_other_and_their_abbreviations() -> None:
    question = ("What is Orrery's FY2031 cash conversion cycle (CCC)? CCC is defined as: DIO + DSO - DPO. DIO is "
                "defined as: 365 * (average inventory between FY2030 and FY2031) / (FY2031 COGS). Define days sales "
                "outstanding (DSO) as 365 * average receivables / revenue. Round to two decimals.")
    defined = definitions(question)
    assert set(defined) == {"ccc", "dio", "dso", "days sales outstanding"}
    assert defined["ccc"] == Operation("-", Operation("+", Term("DIO"), Term("DSO")), Term("DPO"))
    assert definitions("Define net working capital as total current assets. Answer in millions.") == {}
