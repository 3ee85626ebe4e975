"""An amount row and a per-share row with the same label (issue 12): income statements repeat "Net income
attributable to <company> common shareholders" under an "Earnings per common share" heading. A question for the
amount reads the amount row; one for the per-share figure reads the per-share row, in plain currency.

Made-up filing of a made-up company (Heron Pharma); no evaluation set's question or wording.
"""

# ruff: noqa: E501  (the fixtures are table rows as ingest writes them, one line each)
from __future__ import annotations

from chat.models.reader import Passage, read

INCOME = """Consolidated Statements of Income
Heron Pharma Inc. and Subsidiary Companies
| (MILLIONS, EXCEPT PER COMMON SHARE DATA) | Year Ended December 31, / 2024 | Year Ended December 31, / 2023 | Year Ended December 31, / 2022 |
|---|---|---|---|
| Revenues | $ 52,310 | $ 48,120 | $ 44,905 |
| Cost of sales | 14,220 | 12,480 | 11,054 |
| Net income attributable to Heron Pharma Inc. common shareholders | $ 12,734 | $ 9,410 | $ 8,026 |
| Earnings per common share––basic: |  |  |  |
| Net income attributable to Heron Pharma Inc. common shareholders | $ 2.27 | $ 1.69 | $ 1.44 |
| Earnings per common share––diluted: |  |  |  |
| Net income attributable to Heron Pharma Inc. common shareholders | $ 2.21 | $ 1.65 | $ 1.41 |
"""


HEAD = 3  # caption lines and the header rows every chunk of the table carries


def _p() -> list[Passage]:
    """The statement in two chunks, the per-share rows' chunk ranked first (its label words match as well)."""
    lines = INCOME.strip().splitlines()
    head, rows = lines[: HEAD + 1], lines[HEAD + 1 :]
    amounts, per_share = rows[:3], rows[3:]
    return [Passage("S1", "\n".join(head + per_share), "h1", "HERON_2024_10K.pdf", 57),
            Passage("S2", "\n".join(head + amounts), "h1", "HERON_2024_10K.pdf", 57)]


def test_an_amount_question_reads_the_amount_row_not_the_per_share_row_of_the_same_label() -> None:
    a = read("Assume you are an equities analyst. What is Heron Pharma's FY2023 net income attributable to "
             "shareholders (in USD millions)?", _p())
    first = a.text.split("\n")[0]
    assert "$9,410 million" in first and "1.69" not in first


def test_a_per_share_question_reads_the_per_share_row_in_plain_dollars() -> None:
    a = read("What was Heron Pharma's diluted earnings per share in 2024?", _p())
    first = a.text.split("\n")[0]
    assert "$2.21" in first and "million" not in first


SHARES = """Consolidated Statements of Operations
Heron Pharma Inc.
| (In thousands, except per share data) | Year Ended December 31, / 2024 | Year Ended December 31, / 2023 |
|---|---|---|
| Net income (loss) | $ 213,105 | $ 375,446 |
| Net income (loss) per share: |  |  |
| Basic | $ 0.48 | $ 0.88 |
| Diluted | $ 0.44 | $ 0.81 |
| Weighted-average shares used to compute net income (loss) per share: |  |  |
| Basic | 443,126 | 424,999 |
| Diluted | 482,167 | 466,076 |
| Weighted-average shares used to compute diluted net income (loss) per share | 482,167 | 466,076 |
"""


def test_a_per_share_question_is_not_answered_by_the_shares_used_to_compute_it() -> None:
    answer = read("What was Heron Pharma's diluted net income per share for the year ended December 31, 2023?",
                  [Passage("S1", SHARES, "h1", "HERON_2024_10K.pdf", 60)]).text
    first = answer.splitlines()[0]
    assert "$0.81" in first and "466,076" not in first, answer


def test_the_shares_used_for_a_per_share_figure_are_a_count() -> None:
    answer = read("How many weighted-average shares were used to compute Heron Pharma's diluted net income per "
                  "share in 2023?", [Passage("S1", SHARES, "h1", "HERON_2024_10K.pdf", 60)]).text
    first = answer.splitlines()[0]
    assert "466,076 thousand shares" in first and "$466,076" not in first, answer


MDNA_QUARTER = ("ORRERY TOOLS › Year 2031 and fourth quarter EPS:\nAdjusting for the impacts described in the Operating "
                "income, net income, earnings per share, and effective tax rate adjusted for the tax act section below, "
                "net income attributable to Orrery was $1.366 billion, or $2.31 diluted share for the fourth quarter of "
                "2031, compared to $1.285 billion, or $2.10 per diluted share for the fourth quarter of 2030.")
INCOME_EPS = """ORRERY TOOLS › CONSOLIDATED STATEMENT OF INCOME
(Millions, except per share amounts)
| | 2031 | 2030 | 2029 |
|---|---|---|---|
| Earnings per share attributable to Orrery common shareholders — diluted | $8.89 | $7.93 | $8.16 |"""


def test_a_years_eps_is_not_a_quarters_figure_in_prose() -> None:
    """FY2031 asked of the income statement: the statement's $8.89, not MD&A's fourth-quarter "$2.31 diluted share"
    (before: the sentence, covering every asked word, ranked first)."""
    first = read("What is the FY2031 diluted EPS for Orrery? Base the answer on the income statement.",
                 [Passage("S1", MDNA_QUARTER, "o", "ORRERY_2031_10K.pdf", 15),
                  Passage("S2", INCOME_EPS, "o", "ORRERY_2031_10K.pdf", 56)]).text.splitlines()[0]
    assert "$8.89" in first and "[S2]" in first, first


def test_the_end_of_the_fourth_quarter_is_the_years_end() -> None:
    store = ("KESTREL BEAUTY › Stores\nAt the end of the fourth quarter of fiscal 2031, the Company operated 1,355 "
             "stores totaling 14.2 million square feet.")
    first = read("How many stores did Kestrel operate at the end of fiscal 2031?",
                 [Passage("S1", store, "k", "KESTREL_2031_10K.pdf", 3)]).text.splitlines()[0]
    assert "1,355" in first.split(":")[0], first


LATER_FILING = """HALYARD SHOES › CONSOLIDATED STATEMENTS OF INCOME
(In millions, except per share data)
| | YEAR ENDED MAY 31, / 2033 | YEAR ENDED MAY 31, / 2032 | YEAR ENDED MAY 31, / 2031 |
|---|---|---|---|
| Earnings per common share: | | | |
| Diluted | $3.56 | $1.60 | $2.49 |"""

OWN_FILING = """HALYARD SHOES › Consolidated Statements of Income
(In millions, except per share data)
| | Year Ended May 31, / 2030 | Year Ended May 31, / 2029 | Year Ended May 31, / 2028 |
|---|---|---|---|
| NET INCOME | $1,933 | $4,240 | $3,760 |

Earnings per common share:
| | | | |
|---|---|---|---|
| Basic | $1.19 | $2.56 | $2.21 |
| Diluted | $1.17 | $2.51 | $2.16 |"""


def test_a_fiscal_year_ended_in_may_is_not_the_one_before() -> None:
    """FY2030 asked: the year ended May 31, 2030 ($1.17), not the one ended May 31, 2031 of a later filing (before:
    a neighbouring year counted 0.4 whatever its month, and the later filing's $2.49 won); the "Diluted" row under
    a per-share heading cut off into the grid's caption is no amount in millions (before: "$1.17 million")."""
    first = read("What is the FY2030 diluted EPS for Halyard? Base the answer on the income statement.",
                 [Passage("S1", LATER_FILING, "h33", "HALYARD_2033_10K.pdf", 59),
                  Passage("P1", OWN_FILING, "h30", "HALYARD_2030_10K.pdf", 46)]).text.splitlines()[0]
    assert first.startswith("Diluted EPS were $1.17 in the year ended May 31, 2030"), first
