"""A development set of statement questions over 10-Qs that are NOT in FinanceBench (``docchat eval answers
--dataset sec10q``).

FinanceBench is the report set for financial statements; the reader is developed against these instead: six real
10-Qs of ``../shared/evaldata/docugami_sec10q`` (Amazon 2023 Q1 and Q2, Intel 2023 Q2, Microsoft 2022 Q3, NVIDIA
2023 Q2 and Q3: two companies have two filings, so the period also picks the filing) and questions of the same
*kind* written for this project — a line item of the income statement, balance sheet or cash-flow statement for a
period said in the filing's words ("three months ended …") or in others ("the first quarter of 2023", "the first
half of 2023", "fiscal 2024", "as of <date>"), with units ("in millions") and instruction lead-ins ("Assume you are
an equities analyst …"). Each gold was read off the rendered PDF page (the page is 1-based); no FinanceBench
question, answer or wording was used.

The documents alternate between projects A and B by company, so every question is also asked where its
filing is absent (a negative: the answer must decline).
"""

from __future__ import annotations

from pathlib import Path

from chat.evaluation.datasets import EvalDataset, EvalQuestion, Group, Split, files_at
from retrieval.evaldata import resolve_root

FILES: dict[str, tuple[str, Group]] = {
    "AMZN_2023Q1": ("2023 Q1 AMZN.pdf", "A"),
    "INTC_2023Q2": ("2023 Q2 INTC.pdf", "B"),
    "MSFT_2022Q3": ("2022 Q3 MSFT.pdf", "A"),
    "NVDA_2023Q3": ("2023 Q3 NVDA.pdf", "B"),
    # a second filing of two of the companies: the question's period has to pick the filing too
    "AMZN_2023Q2": ("2023 Q2 AMZN.pdf", "A"),
    "NVDA_2023Q2": ("2023 Q2 NVDA.pdf", "B"),
}

#: (document key, 1-based page, question, gold, verbatim): ``verbatim`` = the gold is printed on the page
QUESTIONS: tuple[tuple[str, int, str, str, bool], ...] = (
    ("AMZN_2023Q1", 4, "What was Amazon's total net sales for the three months ended March 31, 2023 (in USD "
     "millions)?", "$127,358 million", True),
    ("AMZN_2023Q1", 4, "Assume you are an equities analyst covering retail. What is Amazon's operating income "
     "for the first quarter of 2023? Answer in USD millions and rely on the statement of operations.",
     "$4,774 million", True),
    ("AMZN_2023Q1", 3, "What were Amazon's purchases of property and equipment in the twelve months ended March "
     "31, 2023 (in millions)? Use the cash flow statement.", "$62,901 million", True),
    ("AMZN_2023Q1", 6, "What is the total stockholders' equity of Amazon as of March 31, 2023?",
     "$154,526 million", True),
    ("AMZN_2023Q1", 6, "According to the balance sheet, what were Amazon's total current liabilities at "
     "December 31, 2022, in millions?", "$155,393 million", True),
    ("AMZN_2023Q1", 4, "What was Amazon's diluted earnings per share in Q1 2022?", "$(0.38)", True),
    ("INTC_2023Q2", 6, "What was Intel's net revenue for the six months ended July 1, 2023 (in USD millions)?",
     "$24,664 million", True),
    ("INTC_2023Q2", 6, "What was Intel's gross margin in the second quarter of 2022, in dollars?",
     "$5,587 million", True),
    ("INTC_2023Q2", 9, "Based on the cash flow statement, what were Intel's additions to property, plant, and "
     "equipment for the six months ended July 1, 2023 (in millions)?", "$13,301 million", True),
    ("INTC_2023Q2", 8, "What is Intel's total assets as of Dec 31, 2022?", "$182,103 million", True),
    ("INTC_2023Q2", 9, "How much did Intel pay in dividends to stockholders in the first half of 2023?",
     "$2,036 million", True),
    ("MSFT_2022Q3", 3, "What was Microsoft's total revenue in the three months ended September 30, 2022, in "
     "millions?", "$50,122 million", True),
    ("MSFT_2022Q3", 6, "As a financial analyst I need Microsoft's net cash from operations for the quarter "
     "ended September 30, 2021. What was it (USD millions)?", "$24,540 million", True),
    ("MSFT_2022Q3", 5, "What was Microsoft's long-term debt as of June 30, 2022?", "$47,032 million", True),
    ("MSFT_2022Q3", 3, "What was Microsoft's provision for income taxes in the quarter ended September 30, "
     "2022?", "$4,016 million", True),
    ("NVDA_2023Q3", 3, "What was NVIDIA's revenue for the nine months ended October 29, 2023?",
     "$38,819 million", True),
    ("NVDA_2023Q3", 3, "What is NVIDIA's net income for the three months ended October 30, 2022 (in millions)?",
     "$680 million", True),
    ("NVDA_2023Q3", 5, "What were NVIDIA's total liabilities as of January 29, 2023?", "$19,081 million", True),
    ("NVDA_2023Q3", 8, "Using the cash flow statement, how much did NVIDIA pay in dividends in the nine months "
     "ended October 29, 2023?", "$296 million", True),
    ("NVDA_2023Q3", 3, "What was NVIDIA's research and development expense in the third quarter of fiscal year "
     "2024 (in USD millions)?", "$2,294 million", True),
    # computed from two cells (not printed as such): a change, a ratio
    ("AMZN_2023Q1", 4, "By how much did Amazon's total net sales change in the three months ended March 31, "
     "2023 compared with the same quarter of 2022 (in USD millions)?", "$10,914 million", False),
    ("NVDA_2023Q3", 3, "What is NVIDIA's gross margin percentage for the three months ended October 29, 2023? "
     "Calculate it as gross profit divided by revenue.", "74.0%", False),
    # over a company's second filing (written for this set from the PDF pages; periods in the asker's words)
    ("AMZN_2023Q2", 4, "What was Amazon's total net sales in the second quarter of 2023 (in USD millions)?",
     "$134,383 million", True),
    ("AMZN_2023Q2", 4, "Assume you are an equities analyst. What was Amazon's operating income for the six months "
     "ended June 30, 2023? Answer in USD millions.", "$12,455 million", True),
    ("AMZN_2023Q2", 6, "What were Amazon's total current assets as of June 30, 2023, in USD billions?",
     "$140.482 billion", True),
    ("AMZN_2023Q2", 3, "Using the cash flow statement, what were Amazon's purchases of property and equipment for "
     "the six months ended June 30, 2023?", "$25,662 million", True),
    ("NVDA_2023Q2", 3, "What was NVIDIA's Q2 FY2024 revenue in USD millions?", "$13,507 million", True),
    ("NVDA_2023Q2", 5, "What were NVIDIA's total current liabilities as of July 30, 2023 (in USD thousands)?",
     "$10,334,000 thousand", True),
    ("NVDA_2023Q2", 3, "Assume you are an analyst. What was NVIDIA's diluted net income per share for the six "
     "months ended July 30, 2023?", "$3.30", True),
    # computed (a ratio, a change) over the second filings
    ("AMZN_2023Q2", 6, "What is Amazon's current ratio as of June 30, 2023? Calculate it as total current assets "
     "divided by total current liabilities.", "0.95", False),
    ("AMZN_2023Q2", 4, "By how much did Amazon's net service sales grow in the three months ended June 30, 2023 "
     "versus the same period of 2022, in USD millions?", "$10,692 million", False),
    ("NVDA_2023Q2", 3, "What is NVIDIA's operating margin for the three months ended July 30, 2023? Calculate it "
     "as operating income divided by revenue.", "50.3%", False),
)

#: questions whose gold is printed as well in the company's other filing (its comparative column): either page
#: is a right citation (question index → (document key, 1-based page))
ALSO_ON: dict[int, tuple[tuple[str, int], ...]] = {
    4: (("AMZN_2023Q2", 6),),  # Dec 31, 2022 balance sheet column of the Q2 10-Q
    17: (("NVDA_2023Q2", 5),),  # Jan 29, 2023 balance sheet column of the Q2 10-Q
}


def load_sec10q(root: Path | None = None, *, limit: int | None = None, split: Split = "all") -> EvalDataset:
    base = resolve_root(root) / "docugami_sec10q" / "docs"
    documents = files_at(base, FILES, "10-Q", underscores=True)
    rows = QUESTIONS[:limit] if limit is not None else QUESTIONS
    questions = [
        EvalQuestion(qid=f"{doc}-{i}", text=text, golds=(gold,), kind="number", document=doc,
                     pages=frozenset({(doc, page), *ALSO_ON.get(i, ())}), field="statement", in_target=verbatim)
        for i, (doc, page, text, gold, verbatim) in enumerate(rows)
    ]
    used = {q.document for q in questions}
    return EvalDataset("sec10q", "en", [d for d in documents if d.key in used], questions,
                       notes={"development_set": True})
