"""A segment table whose columns are measures ("2031 / Net Sales | 2031 / % of Total | 2031 / Oper. Income"): the
item asked is read from its own column, an abbreviated header spelled out; a segment named with "and" is one name
("the Safety and Industrial segment"), and a row that shares only a word of it is another segment — never sure.
Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.question import analyze, per_name_questions

BY_SEGMENT = """KESTREL INC. › Year 2031 sales and operating income by business segment:
(Dollars in millions)
| (Dollars in millions) | 2031 / Net Sales | 2031 / % of Total | 2031 / Oper. Income | Net Sales | 2030 % of Total \
| Oper. Income |
|---|---|---|---|---|---|---|
| Business Segments |  |  |  |  |  |  |
| Drones | $ 12,410 | 61.2 % | $2,745 | $ 11,830 | 60.4 % | $2,512 |
| Safety and Graphics | 4,120 | 20.3 | 1,085 | 3,980 | 20.3 | 1,044 |
| Flight Software | 3,752 | 18.5 | 968 | 3,778 | 19.3 | 901 |
| Total Company | $ 20,282 | 100.0 % | $4,798 | $ 19,588 | 100.0 % | $4,457 |"""


def _p(ref: str, text: str) -> Passage:
    return Passage(ref, text, "doc-2031", "KESTREL_2031_10K.pdf", 22, company="Kestrel Inc.",
                   period_end="2031-12-31")


def test_the_item_asked_is_read_from_its_own_column() -> None:
    answer = read("What was Kestrel's Flight Software segment operating income in 2031?", [_p("S1", BY_SEGMENT)])
    head = answer.text.splitlines()[0]
    # before: "Business Segments flight Software operating income was $3,752 million in 2031 Net Sales [S1]."
    assert head == "Flight Software segment operating income was $968 million in 2031 [S1].", head
    assert answer.why == "sure"
    sales = read("What were Kestrel's Flight Software segment net sales in 2031?", [_p("S1", BY_SEGMENT)])
    assert "$3,752 million" in sales.text.splitlines()[0], sales.text


def test_a_segment_named_with_and_is_one_name() -> None:
    asked = "What was Kestrel's Safety and Industrial segment operating income in 2031?"
    assert per_name_questions(asked) == [asked]  # before: "Kestrel's Safety …" and "Kestrel's Industrial …"
    assert len(per_name_questions("What were Kestrel and Osprey's net sales in 2031?")) == 2  # two companies


def test_a_row_sharing_a_word_of_the_segment_asked_is_never_sure() -> None:
    # "Safety and Industrial" is no segment of this table: "Safety and Graphics" shares a word of it only
    answer = read("What was Kestrel's Safety and Industrial segment operating income in 2031?",
                  [_p("S1", BY_SEGMENT)])
    assert "sure" not in answer.why.split("+"), answer.why  # before: "Safety and Graphics … $4,120 million", sure
    assert "Safety and Graphics" not in answer.text.splitlines()[0] or "not sure" in answer.text, answer.text


def test_a_sentence_of_another_part_is_never_sure() -> None:
    other = _p("S1", "KESTREL INC. › Fiscal 2031 Overview\nDigital commerce sales were $9.1 billion for fiscal 2031 "
                     "compared to $5.5 billion for fiscal 2030. Gross margin expanded 60 basis points.")
    answer = read("What was Kestrel's footwear revenue in fiscal 2031?", [other])
    assert answer.why != "sure", answer.text  # before: "The documents say $9.1 billion", sure
    own = _p("S2", "KESTREL INC. › Fiscal 2031 Overview\nFootwear revenues were $28.0 billion for fiscal 2031, up "
                   "12% from fiscal 2030.")
    assert "$28.0 billion" in read("What was Kestrel's footwear revenue in fiscal 2031?", [other, own]).text


#: a casino company's statement and its segments' lines ("Regional Operations: / Rooms", "Non-casino revenue")
STATEMENT = """KESTREL INC. › CONSOLIDATED STATEMENTS OF OPERATIONS
(In thousands)
| | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
| Revenues |  |  |
| Casino | $2,871,720 | $6,517,514 |
| Rooms | 830,382 | 2,322,579 |
| Total revenues | 5,162,082 | 12,899,672 |"""
_BY_SEGMENT_HEAD = """KESTREL INC. › Net Revenues by Segment
(In thousands)
| | Year Ended December 31, / 2031 | Year Ended December 31, / 2030 |
|---|---|---|
"""


def test_a_segment_named_operations_is_a_part_not_the_company() -> None:
    statement = _p("S1", STATEMENT)
    segment = _p("S2", _BY_SEGMENT_HEAD + """| Regional Operations |  |  |
| Casino revenue | 1,569,193 | 2,537,780 |
| Rooms | 130,945 | 316,753 |""")
    answer = read("What were Kestrel's rooms revenue in 2031?", [segment, statement])
    head = answer.text.splitlines()[0]
    assert "$830,382 thousand" in head and answer.why == "sure", head  # before: the Regional Operations row, sure
    part = read("What was Kestrel's Regional Operations rooms revenue in 2031?", [segment, statement])
    assert "130,945" in part.text.splitlines()[0], part.text  # the part asked by name answers its own row


def test_the_item_named_by_its_negation_is_another_item() -> None:
    segment = _p("S1", _BY_SEGMENT_HEAD + """| Table games win | 470,432 | 789,330 |
| Slots win | 649,229 | 1,193,607 |
| Non-casino revenue | 1,517,531 | 4,534,881 |""")
    answer = read("What were Kestrel's casino revenues in 2031?", [segment, _p("S2", STATEMENT)])
    head = answer.text.splitlines()[0]
    assert "1,517,531" not in head and "2,871,720" in head, head  # before: "Non-casino revenue … $1,517,531 thousand"


#: a segment note printing each segment under each measure's heading ("Operating income by reportable segment: /
#: Domestic(1)", "Assets: / Domestic")
BY_MEASURE = """KESTREL INC. › 14. Segments
Operating income by reportable segment and asset information by reportable segment were as follows ($ in millions):
|  | 2031 | 2030 | 2029 |
|---|---|---|---|
| Operating income by reportable segment |  |  |  |
| Domestic(1) | $1,634 | $2,795 | $2,348 |
| International | 161 | 244 | 43 |
| Total operating income | 1,795 | 3,039 | 2,391 |
| Assets |  |  |  |
| Domestic | $14,549 | $16,016 | $17,625 |
| International | 1,254 | 1,488 | 1,442 |
| Total assets | $15,803 | $17,504 | $19,067 |"""


def test_a_segment_under_another_measures_heading_is_not_the_item_asked() -> None:
    answer = read("What was Kestrel's Domestic segment operating income in fiscal 2031?", [_p("S1", BY_MEASURE)])
    head = answer.text.splitlines()[0]
    # before: "Assets domestic segment operating income was $14,549 million in 2031 [S1].", sure
    assert head.startswith("Domestic segment operating income was $1,634 million in 2031 [S1]."), head
    assets = read("What were Kestrel's Domestic segment assets at the end of fiscal 2031?", [_p("S1", BY_MEASURE)])
    assert "$14,549 million" in assets.text.splitlines()[0], assets.text


def test_a_segment_only_under_another_measure_is_never_sure() -> None:
    only_assets = BY_MEASURE.split("| Operating income by reportable segment |")[0] + BY_MEASURE.split(
        "| Total operating income | 1,795 | 3,039 | 2,391 |\n")[1]
    answer = read("What was Kestrel's Domestic segment operating income in fiscal 2031?", [_p("S1", only_assets)])
    assert answer.why != "sure", answer.text  # the domestic segment's assets are no operating income


def test_a_name_with_an_ampersand_is_one_name() -> None:
    # before: "Johnson & Johnson" and "Johnson & Pfizer"
    assert per_name_questions("What was the revenue of Johnson & Johnson and Pfizer in 2031?") == [
        "What was the revenue of Johnson & Johnson in 2031?", "What was the revenue of Pfizer in 2031?"]
    # a name whose words a comma lists before its "&" is one name, a list joined by "and" is several
    assert per_name_questions("What were Kestrel's Defense, Space & Security revenues in 2031?") == [
        "What were Kestrel's Defense, Space & Security revenues in 2031?"]
    assert analyze("What were Kestrel's Defense, Space & Security revenues in 2031?").names == (
        "Kestrel", "Defense, Space & Security")
    listed = analyze("What were the revenues of Kestrel, Osprey and Wren in 2031?").names
    assert "Kestrel" in listed and not any("," in n for n in listed), listed
