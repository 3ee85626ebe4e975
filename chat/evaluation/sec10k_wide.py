"""More filings for the 10-K development set (``sec10k``): five FinanceBench filings outside the *verbatim*
report subset, picked by file name only (no question, answer or evidence field of the set was read), from
industries the first four do not cover — Activision Blizzard 2019 (video games), Lockheed Martin 2021 (defence;
costs printed in parentheses), Pfizer 2021 and Pfizer's 10-Q for the quarter ended July 2, 2023 (pharma; two
filings of one company, so the period also picks the filing; three- and six-month columns), and Square 2020
(payments, "in thousands"; the file is named BLOCK, the filing says Square, Inc.). None of the unused filings is
a retailer with a fiscal-year start-year convention (the Foot Locker and PepSiCo 8-Ks hold no statements).

Questions were written for this project from the rendered pages (1-based), in the general style of financial
analyst QA sets: an analyst lead-in, the statement to rely on, the answer unit (millions, billions, thousands),
the fiscal year said several ways ("FY2019", "fiscal 2021", "the year ended …", "year-end FY2020"), items named
otherwise than the row label (capital expenditure = "Purchases of property, plant and equipment" / "Purchase of
property and equipment"; cost of goods sold = "Cost of sales"; dividends paid; total equity), and two ratios
computed from two cells. Negatives: absent years and companies in neither project.
"""

from __future__ import annotations

from chat.evaluation.datasets import Group

FILES: dict[str, tuple[str, Group]] = {
    "ACTIVISIONBLIZZARD_2019_10K": ("ACTIVISIONBLIZZARD_2019_10K.pdf", "A"),
    "LOCKHEEDMARTIN_2021_10K": ("LOCKHEEDMARTIN_2021_10K.pdf", "B"),
    "PFIZER_2021_10K": ("PFIZER_2021_10K.pdf", "A"),
    "PFIZER_2023Q2_10Q": ("Pfizer_2023Q2_10Q.pdf", "A"),
    "BLOCK_2020_10K": ("BLOCK_2020_10K.pdf", "B"),
}

AT, LM, PF, PQ, SQ = ("ACTIVISIONBLIZZARD_2019_10K", "LOCKHEEDMARTIN_2021_10K", "PFIZER_2021_10K",
                      "PFIZER_2023Q2_10Q", "BLOCK_2020_10K")

#: (document key, 1-based page, question, gold, verbatim)
QUESTIONS: tuple[tuple[str, int, str, str, bool], ...] = (
    (AT, 70, "What were Activision Blizzard's total net revenues in FY2019 (in USD millions)?", "$6,489 million",
     True),
    (AT, 73, "What is the FY2018 capital expenditure amount (in USD millions) for Activision Blizzard? Give a "
     "response to the question by relying on the details shown in the cash flow statement.", "$131 million", True),
    (AT, 69, "What is Activision Blizzard's year-end FY2019 total current assets (in USD billions)? Base your "
     "answer on the balance sheet.", "$7,292 million", True),
    (AT, 70, "Assume you are an equities analyst. What was Activision Blizzard's diluted EPS for the year ended "
     "December 31, 2018?", "$2.40", True),
    (AT, 73, "How much did Activision Blizzard pay in dividends in 2019, according to the statement of cash "
     "flows?", "$283 million", True),
    (AT, 69, "What were Activision Blizzard's accounts payable at December 31, 2018?", "$253 million", True),
    (AT, 73, "What was Activision Blizzard's depreciation and amortization in FY2017? Use the cash flow "
     "statement.", "$888 million", True),
    (AT, 70, "What is the FY2019 operating income for Activision Blizzard? Answer in USD billions.",
     "$1,607 million", True),
    (LM, 66, "What were Lockheed Martin's total net sales in 2020 (in USD millions)?", "$65,398 million", True),
    (LM, 66, "What is Lockheed Martin's FY2021 cost of goods sold (in USD millions)? Base your answer on the "
     "income statement.", "$57,983 million", True),
    (LM, 68, "What is the year end FY2021 total equity for Lockheed Martin? Answer in USD millions.",
     "$10,959 million", True),
    (LM, 69, "What is the FY2019 capital expenditure amount for Lockheed Martin in USD billions? Respond by "
     "relying on the details shown in the cash flow statement.", "$1,484 million", True),
    (LM, 68, "What were Lockheed Martin's inventories as of December 31, 2020?", "$3,545 million", True),
    (LM, 66, "Assume you are an equities analyst. What were Lockheed Martin's net earnings in fiscal year 2019?",
     "$6,230 million", True),
    (LM, 69, "What were Lockheed Martin's repurchases of common stock in 2021 per the cash flow statement?",
     "$4,087 million", True),
    (LM, 66, "What was Lockheed Martin's operating margin in 2021? Calculate it as operating profit divided by "
     "total net sales.", "13.6%", False),
    (PF, 57, "Assume you are an equities analyst. What is Pfizer's FY2021 net income attributable to shareholders "
     "(in USD millions)?", "$21,979 million", True),
    (PF, 57, "What were Pfizer's revenues in 2020, in USD billions?", "$41,651 million", True),
    (PF, 61, "What is the FY2019 capital expenditure amount (in USD millions) for Pfizer? Give a response to the "
     "question by relying on the details shown in the cash flow statement.", "$2,046 million", True),
    (PF, 59, "What is Pfizer's year-end FY2021 total current assets (in USD billions)? Base your answer on the "
     "balance sheet.", "$59,693 million", True),
    (PF, 59, "What were Pfizer's trade accounts payable as of December 31, 2020?", "$4,283 million", True),
    (PF, 61, "How much did Pfizer pay in cash dividends in fiscal 2021?", "$8,729 million", True),
    (PF, 57, "What was Pfizer's cost of sales for the year ended December 31, 2019?", "$8,054 million", True),
    (PF, 61, "What was Pfizer's depreciation and amortization in FY2020 according to the cash flow statement?",
     "$4,681 million", True),
    (PQ, 8, "What were Pfizer's revenues for the three months ended July 2, 2023 (in USD millions)?",
     "$12,734 million", True),
    (PQ, 8, "What was Pfizer's cost of sales in the first six months of 2023?", "$8,122 million", True),
    (PQ, 10, "What were Pfizer's total liabilities as of July 2, 2023?", "$120,875 million", True),
    (PQ, 12, "What were Pfizer's purchases of property, plant and equipment in the six months ended July 2, 2023?",
     "$2,053 million", True),
    (PQ, 10, "What was Pfizer's long-term debt at the end of the second quarter of 2023, in USD billions?",
     "$61,356 million", True),
    (PQ, 8, "What was Pfizer's net income attributable to Pfizer Inc. common shareholders for the second quarter "
     "of 2022?", "$9,906 million", True),
    (SQ, 86, "What was Square's total net revenue in 2020 (in USD thousands)?", "$9,497,578 thousand", True),
    (SQ, 86, "What was Square's bitcoin revenue in FY2019, in USD millions?", "$516.465 million", True),
    (SQ, 85, "What is the year-end FY2020 total current assets for Square (in USD billions)? Base your answer on "
     "the balance sheet.", "$7,761,629 thousand", True),
    (SQ, 90, "What is the FY2020 capital expenditure amount (in USD millions) for Square? Use the cash flow "
     "statement.", "$138.402 million", True),
    (SQ, 86, "What was Square's diluted net income per share for the year ended December 31, 2019?", "$0.81",
     True),
    (SQ, 85, "What was Square's total stockholders' equity at December 31, 2019?", "$1,715,050 thousand", True),
    (SQ, 90, "What was Square's share-based compensation in 2018 according to the statement of cash flows?",
     "$216,881 thousand", True),
    (SQ, 86, "What was Square's gross margin in 2020? Calculate it as gross profit divided by total net revenue.",
     "28.8%", False),
)

#: (document key: the side it is asked on first, question): negatives in both projects
ABSENT: tuple[tuple[str, str], ...] = (
    (AT, "What were Activision Blizzard's total net revenues in fiscal 2012?"),
    (LM, "What were Lockheed Martin's total net sales in 2015?"),
    (PF, "What were Pfizer's revenues in 2010 (in USD millions)?"),
    (SQ, "What was Square's total net revenue in 2014?"),
    (AT, "What were Electronic Arts' total net revenues in fiscal 2019?"),
    (LM, "What is the FY2021 capital expenditure amount (in USD millions) for Raytheon? Use the cash flow "
     "statement."),
    (PF, "Assume you are an equities analyst. What is Merck's FY2021 net income attributable to shareholders?"),
    (SQ, "What is PayPal's year-end FY2020 total current assets (in USD billions)? Base your answer on the "
     "balance sheet."),
)
