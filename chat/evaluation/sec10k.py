"""A development set of statement questions over 10-Ks that the FinanceBench *verbatim* report subset does not
use (``docchat eval answers --dataset sec10k``; not a report set).

FinanceBench's local PDFs hold 47 filings; the verbatim subset ingests 17 of them. The four 10-Ks here were picked
from the other 30 by file name only (no question, answer or evidence field of the set was read): companies that the
verbatim subset has no filing of, and four different fiscal year-ends — Adobe 2022 (52/53-week years ending on
the Friday closest to November 30: "fiscal 2022" = the year ended December 2, 2022), General Mills 2022 (the last
Sunday of May: fiscal 2022 ended May 29, 2022), Walmart 2020 (January 31: fiscal 2020 = the year ended January 31,
2020) and Netflix 2017 (calendar years, "in thousands"). Each question was written for this project from the
rendered page (1-based): income statement, balance sheet, cash-flow statement and segment tables with three annual
columns; the year said as "fiscal 2022", "FY2019", "fiscal year ended …", "in 2016"; units asked in USD
millions/thousands/billions; two-part questions (the gold is the *second* part, so the answer must state both);
ratios and changes computed from two cells (not printed).

The documents alternate between projects A and B by company, so every question is also asked where its filing
is absent (a negative). ``absent`` questions are negatives in their own project too: a year the filing does not
cover, or a company that is in neither project.
"""

from __future__ import annotations

from pathlib import Path

from chat.evaluation import sec10k_wide
from chat.evaluation.datasets import EvalDataset, EvalQuestion, Group, Split, files_at
from retrieval.evaldata import resolve_root

FILES: dict[str, tuple[str, Group]] = {
    "ADOBE_2022_10K": ("ADOBE_2022_10K.pdf", "A"),
    "GENERALMILLS_2022_10K": ("GENERALMILLS_2022_10K.pdf", "B"),
    "NETFLIX_2017_10K": ("NETFLIX_2017_10K.pdf", "A"),
    "WALMART_2020_10K": ("WALMART_2020_10K.pdf", "B"),
    **sec10k_wide.FILES,
}

AD, GM, NF, WM = "ADOBE_2022_10K", "GENERALMILLS_2022_10K", "NETFLIX_2017_10K", "WALMART_2020_10K"

#: (document key, 1-based page, question, gold, verbatim): ``verbatim`` = the gold is printed on the page
QUESTIONS: tuple[tuple[str, int, str, str, bool], ...] = (
    (AD, 54, "What was Adobe's total revenue in fiscal 2022 (in USD millions)?", "$17,606 million", True),
    (AD, 54, "What was Adobe's operating income for the fiscal year ended December 3, 2021?", "$5,802 million",
     True),
    (AD, 54, "What was Adobe's diluted net income per share in FY2020?", "$10.83", True),
    (AD, 53, "According to the balance sheet, what were Adobe's total current liabilities as of December 2, "
     "2022?", "$8,128 million", True),
    (AD, 57, "Using the cash flow statement, how much did Adobe spend on repurchases of common stock in fiscal "
     "2022? Answer in USD billions.", "$6.55 billion", True),
    (AD, 41, "What was Adobe's Digital Media subscription revenue in fiscal 2021?", "$11,048 million", True),
    (GM, 45, "What were General Mills' net sales in fiscal 2021 (in USD millions)?", "$18,127.0 million", True),
    (GM, 45, "Assume you are an equities analyst covering packaged food. What was General Mills' operating "
     "profit for fiscal year 2022? Rely on the statement of earnings.", "$3,475.8 million", True),
    (GM, 47, "What were General Mills' total assets as of May 30, 2021?", "$31,841.9 million", True),
    (GM, 49, "How much did General Mills pay in dividends in FY2022 according to the cash flow statement?",
     "$1,244.5 million", True),
    (GM, 45, "What were General Mills' diluted earnings per share for fiscal year 2020?", "$3.56", True),
    (WM, 51, "What were Walmart's total revenues for the fiscal year ended January 31, 2020?", "$523,964 million",
     True),
    (WM, 51, "What was Walmart's consolidated net income attributable to Walmart in FY2019 (in USD millions)?",
     "$6,670 million", True),
    (WM, 53, "What was Walmart's long-term debt as of January 31, 2019?", "$43,520 million", True),
    (WM, 56, "What were Walmart's payments for property and equipment in fiscal 2018, in USD billions?",
     "$10.051 billion", True),
    (WM, 56, "What was Walmart's net cash provided by operating activities in fiscal 2020?", "$25,255 million",
     True),
    (NF, 42, "What were Netflix's revenues for the year ended December 31, 2017 (in USD thousands)?",
     "$11,692,713 thousand", True),
    (NF, 42, "What was Netflix's operating income in 2016, in USD millions?", "$379.793 million", True),
    (NF, 45, "What were Netflix's total liabilities as of December 31, 2017?", "$15,430,786 thousand", True),
    (NF, 44, "According to the cash flow statement, what were Netflix's purchases of property and equipment in "
     "2015?", "$91,248 thousand", True),
    (NF, 22, "What was the contribution profit of Netflix's Domestic streaming segment in 2017?",
     "$2,280,464 thousand", True),
    # two parts: the gold is the second one
    (NF, 42, "What were Netflix's basic and diluted earnings per share for 2017?", "$1.25", True),
    (AD, 53, "What were Adobe's cash and cash equivalents and its short-term investments as of December 2, 2022?",
     "$1,860 million", True),
    # computed from two cells (not printed as such): a ratio, a change
    (AD, 54, "What was Adobe's gross margin for fiscal 2022? Calculate it as gross profit divided by total "
     "revenue.", "87.7%", False),
    (GM, 47, "What is General Mills' current ratio as of May 29, 2022? Calculate it as total current assets "
     "divided by total current liabilities.", "0.63", False),
    (WM, 51, "By how much did Walmart's total revenues grow from fiscal 2019 to fiscal 2020 (in USD millions)?",
     "$9,559 million", False),
    (NF, 42, "What was Netflix's net income margin in 2017? Calculate it as net income divided by revenues.",
     "4.8%", False),
    # the company named last, a year-end FY label, an answer unit and a statement to rely on
    (WM, 53, "What is the year-end FY2020 value of total inventories for Walmart? Answer in USD millions, based on "
     "the balance sheet.", "$44,435 million", True),
    (GM, 49, "What is the FY2021 capital expenditure amount (in USD millions) for General Mills? Use the statement "
     "of cash flows.", "$530.8 million", True),
    (AD, 53, "What was net property and equipment for Adobe at the end of FY2022?", "$1,908 million", True),
    (NF, 19, "What was the FY2016 free cash flow for Netflix in USD thousands?", "$(1,659,755) thousand", True),
    (WM, 51, "What is the FY2020 cost of sales for Walmart? Answer in USD millions. Base the answer on the income "
     "statement.", "$394,605 million", True),
    (GM, 47, "What is the year end FY2022 total current liabilities for General Mills (in USD millions)?",
     "$8,019.9 million", True),
    (AD, 54, "What is the FY2021 net income of Adobe? Answer in USD thousands.", "$4,822,000 thousand", True),
    (NF, 45, "What is the total amount of cash and cash equivalents at the end of FY2017 for Netflix, in USD "
     "millions?", "$2,822.795 million", True),
    # more of the same shapes: instructions after the ask, abbreviations (PPE, P&L), another answer unit
    (GM, 49, "What is the FY2022 capital expenditure amount (in USD billions) for General Mills? Respond by relying "
     "on the details shown in the cash flow statement.", "$568.7 million", True),
    (AD, 53, "What is the year end FY2022 net PPE for Adobe? Answer in USD billions. Base your judgement on the "
     "balance sheet.", "$1.908 billion", True),
    (WM, 56, "What were Walmart's FY2019 dividends paid? Answer in USD millions, relying on the statement of cash "
     "flows.", "$6,102 million", True),
    (NF, 42, "What is the FY2015 net income for Netflix in USD thousands? Respond based on the P&L statement.",
     "$122,641 thousand", True),
    (GM, 45, "What were General Mills' FY2020 net sales? Answer in USD billions.", "$17,626.6 million", True),
    (WM, 53, "What is the total current assets figure for Walmart at the end of FY2019? Answer in USD millions.",
     "$61,897 million", True),
    *sec10k_wide.QUESTIONS,  # five more filings, other industries (appended: the indices above stay)
)

#: questions whose gold is printed on another page as well (question index → (document key, 1-based page))
ALSO_ON: dict[int, tuple[tuple[str, int], ...]] = {
    34: ((NF, 44),),  # cash at the end of the year: the cash-flow statement's last row
}

#: questions the filing cannot answer (a year it does not cover, a company in neither project): negatives in both
#: projects; (document key: the side it is asked on first, question)
ABSENT: tuple[tuple[str, str], ...] = (
    (AD, "What was Adobe's total revenue in fiscal 2016 (in USD millions)?"),
    (GM, "What were General Mills' net sales in fiscal 2014?"),
    (WM, "What were Walmart's total revenues for the fiscal year ended January 31, 2012?"),
    (NF, "What was Netflix's net income in 2010?"),
    (AD, "What was Oracle's total revenue in fiscal 2022 (in USD millions)?"),
    (WM, "What were Target's total current liabilities as of January 29, 2022?"),
    (GM, "What were Kellogg's net sales in fiscal 2021?"),
    (NF, "What was Disney's operating income for the fiscal year ended October 1, 2022?"),
    *sec10k_wide.ABSENT,
)


def load_sec10k(root: Path | None = None, *, limit: int | None = None, split: Split = "all") -> EvalDataset:
    base = resolve_root(root) / "financebench" / "pdfs"
    documents = files_at(base, FILES, "10-K")
    questions = [
        EvalQuestion(qid=f"{doc}-{i}", text=text, golds=(gold,), kind="number", document=doc,
                     pages=frozenset({(doc, page), *ALSO_ON.get(i, ())}), field="statement", in_target=verbatim)
        for i, (doc, page, text, gold, verbatim) in enumerate(QUESTIONS)
    ]
    questions += [
        EvalQuestion(qid=f"{doc}-absent-{i}", text=text, golds=("",), kind="text", document=doc,
                     pages=frozenset(), field="absent", in_target=False, absent=True)
        for i, (doc, text) in enumerate(ABSENT)
    ]
    if limit is not None:
        questions = questions[:limit]
    used = {q.document for q in questions}
    return EvalDataset("sec10k", "en", [d for d in documents if d.key in used], questions,
                       notes={"development_set": True})
