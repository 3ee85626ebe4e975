"""The embedded reader: answers that state the value from the documents, with its citation — or decline.

``read(question, passages)`` analyses the question (``question``), gathers evidence from the passages
(``evidence``: table cells, key-value fields, sentences), and either composes an answer (``compose``: a direct
first sentence with its citation, then the exact supporting quote; ``compare`` for two line items) or declines
(``decline``: the documents don't say, the closest passage named, nothing cited). A two-part question gets both
parts answered. Pure functions, no I/O; ``Answer.quotes`` gives each citation's exact quoted text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chat.models.reader.acquisitions import acquisitions_answer, asks_acquisitions
from chat.models.reader.activities import activities_answer, asks_activities
from chat.models.reader.auditors import asks_auditor
from chat.models.reader.business import asks_business, business_answer
from chat.models.reader.choice import choose
from chat.models.reader.compare import compare
from chat.models.reader.compose import NOTE, compose
from chat.models.reader.cover_facts import asked_fact
from chat.models.reader.coverage import beyond_documents, coverage_note
from chat.models.reader.covers import company_names, cover_check_applies, foreign_documents
from chat.models.reader.crossed import crossed_answer
from chat.models.reader.customers import asks_concentration, concentration_answer
from chat.models.reader.decline import SURE_AT, decline, decline_reason, missing_names, no_amount_offered
from chat.models.reader.derived import debt_change_answer, derived_answer
from chat.models.reader.dividends_paid import asks_paid_dividends, paid_dividends_answer
from chat.models.reader.documents import not_found, parse_selector, select
from chat.models.reader.drivers import asked_driver, driver_answer
from chat.models.reader.evidence import Evidence, gather
from chat.models.reader.faster import growth_race, part_sizes
from chat.models.reader.filing_items import asks_filing_items, asks_vote, items_answer, vote_answer
from chat.models.reader.formulas import formula_answer, textbook_answer, textbook_first
from chat.models.reader.growth import growth_answer
from chat.models.reader.guidance import asks_guidance, guidance_answer
from chat.models.reader.headquarters import asks_headquarters
from chat.models.reader.items import item_questions
from chat.models.reader.largest_items import asked_item, largest_item_answer
from chat.models.reader.names import mentions, owner_words
from chat.models.reader.nil import nil_answer, none_stated_answer
from chat.models.reader.officers import asked_office
from chat.models.reader.passage import Answer, Passage
from chat.models.reader.period_changes import period_change_answer
from chat.models.reader.periods_apart import period_questions, periods_apart_answer
from chat.models.reader.question import (
    Question,
    analyze,
    keyword_owned,
    per_name_questions,
    search_box_head,
    spelled_out,
)
from chat.models.reader.ratios import capital_intensity_answer, ratio_answer
from chat.models.reader.registered import asks_registered, registered_answer
from chat.models.reader.rivals import company_comparison, rival_questions
from chat.models.reader.segments import asks_segments, segments_answer
from chat.models.reader.sentence_change import sentence_change
from chat.models.reader.signers import asks_signers, signers_answer
from chat.models.reader.statement_pages import period_not_covered, prefer_statement, same_figure
from chat.models.reader.statements import implied_statement
from chat.models.reader.superlatives import highest, share_asked, shares_answer, superlative
from chat.models.reader.text import display
from chat.models.reader.year_end import asks_year_end, year_end_answer
from chat.models.reader.year_trend import asks_year_trend, item_question, year_trend_answer

__all__ = ["Answer", "Passage", "Question", "analyze", "read"]

SUPPORT_RELATIVE = 0.85
#: words that rank ("our largest customer", "the highest …")
_RANKS = re.compile(r"(?i)\b(?:largest|biggest|greatest|smallest|highest|lowest|most|least|top|leading|primary|"
                    r"principal|main|major)\b")


def _supporting(best: Evidence, ranked: list[Evidence]) -> list[Evidence]:
    """At most one more sentence that scores close to the best, from another place; for a table cell, the same
    figure printed on another page (the statement beside a summary table of it), cited too."""
    if best.kind == "cell":
        return same_figure(best, ranked)[:1]
    if best.kind != "sentence":
        return []
    for ev in [ev for ev in ranked[:4] if ev is not best]:
        if ev.kind == "sentence" and ev.score >= best.score * SUPPORT_RELATIVE and ev.quote_text != best.quote_text:
            if ev.passage.ref != best.passage.ref or abs(ev.quote[0] - best.quote[0]) > 0:
                return [ev]
    return []


def _answer_one(q: Question, passages: Sequence[Passage]) -> tuple[str, list[tuple[str, str]], bool, float, str]:
    """(text, quotes, declined, best score, why — ``Answer.why``) of one part of a question."""
    if asks_activities(q.text) and not missing_names(q, passages):
        compared_flows = activities_answer(q, passages)  # "which brought in the most cash": the three result lines
        if compared_flows is not None:
            return compared_flows[0], compared_flows[1], False, 1.0, "computed"
    if asks_registered(q.text) and not missing_names(q, passages):
        listed = registered_answer(q, passages)  # "which debt securities are registered?": the cover's list
        if listed is not None:
            return listed[0], listed[1], False, 1.0, "sure"
    if asks_vote(q.text) and not missing_names(q, passages):
        voted = vote_answer(q, passages)  # "the outcome of the vote on X": the report's matter, outcome and tally
        if voted is not None:
            return voted[0], voted[1], False, 1.0, "sure"
    if asks_filing_items(q.text) and not missing_names(q, passages):
        reported = items_answer(q, passages)  # "what was the key agenda of Acme's 8-K?": its items, first sentences
        if reported is not None:
            return reported[0], reported[1], False, 1.0, "sure"
    if asks_acquisitions(q.text) and not missing_names(q, passages):
        bought = acquisitions_answer(q, passages)  # "what acquisitions did Acme make?": "we acquired … of X"
        if bought is not None:
            return bought[0], bought[1], False, 1.0, "sure"
    if asks_business(q.text) and not missing_names(q, passages):
        described = business_answer(q, passages)  # "what industry does Acme operate in?": Item 1's own words
        if described is not None:
            return described[0], described[1], False, 1.0, "sure"
    if asks_segments(q.text) and not missing_names(q, passages):
        listed = segments_answer(q, passages)  # "what are Acme's reportable segments?": the sentence that lists them
        if listed is not None:
            return listed[0], listed[1], False, 1.0, "sure"
    if asks_paid_dividends(q.text) and not missing_names(q, passages):
        paid = paid_dividends_answer(q, passages)  # "has Acme paid dividends?": the statement's line, its words
        if paid is not None:
            return paid[0], paid[1], False, 1.0, "sure"
    if asks_guidance(q.text) and not missing_names(q, passages):
        revised = guidance_answer(q, passages)  # "by how much did Acme raise its EPS guidance?": "(previously …)"
        if revised is not None:
            return revised[0], revised[1], False, 1.0, "computed"
    if asks_signers(q.text) and not missing_names(q, passages):
        signed = signers_answer(q, passages)  # "who signed Acme's 8-K?": the signature block's "/s/" names
        if signed is not None:
            return signed[0], signed[1], False, 1.0, "sure"
    if asks_year_end(q.text) and not missing_names(q, passages):
        ended = year_end_answer(q, passages)  # "when did Acme's fiscal 2023 end?": the cover's "year ended …"
        if ended is not None:
            return ended[0], ended[1], False, 1.0, "sure"
    if asks_concentration(q.text) and not missing_names(q, passages):
        concentrated = concentration_answer(q, passages)  # "customer concentration?": the sentence of their share
        if concentrated is not None:
            return concentrated[0], concentrated[1], False, 1.0, "sure"
    if asked_driver(q.text) is not None and not missing_names(q, passages):
        caused = driver_answer(q, passages)  # "what drove the decrease in gross margin?": the sentence's "due to …"
        if caused is not None:
            return caused[0], caused[1], False, 1.0, "sure"
    if asked_item(q.text) is not None and not missing_names(q, passages):
        largest_line = largest_item_answer(q, passages)  # "what is Acme's largest liability?": the balance sheet
        if largest_line is not None:
            return largest_line[0], largest_line[1], False, 1.0, "computed"
    if superlative(q.text) is not None and not missing_names(q, passages):
        ranked_rows = highest(q, passages)  # "which region had the highest net sales?": a breakdown's rows
        if ranked_rows is not None:
            return ranked_rows[0], ranked_rows[1], False, 1.0, "computed"
    if q.names and not missing_names(q, passages):
        crossed = crossed_answer(q, passages)  # "votes against did Ann Carter receive?": her row, that column
        if crossed is not None:
            return crossed[0], crossed[1], False, 1.0, "sure"
    if share_asked(q.text) is not None and not missing_names(q, passages):
        shares = shares_answer(q, passages)  # "any segment more than 20% of revenue?": each row's share of the total
        if shares is not None:
            return shares[0], shares[1], False, 1.0, "computed"
    if q.kind == "comparison" and len(q.periods) < 2 and not missing_names(q, passages):
        compared = compare(q, passages)
        if compared is not None:
            return compared[0], compared[1], False, 1.0, "computed"
    if asks_year_trend(q) and not missing_names(q, passages):
        item = analyze(item_question(q))  # "a stable trend of dividends?": the row, every year's figure, its moves
        row = next(iter(gather(item, passages)), None)
        trend = year_trend_answer(q, row) if row is not None and row.score >= SURE_AT else None
        if trend is not None and row is not None:
            return trend[0], trend[1], False, row.score, "sure"
    ranked = gather(q, passages)
    if q.language == "en":  # the statement's own page before a table that repeats its figure
        ranked = prefer_statement(ranked, q.statement or implied_statement(q.focus_terms))  # type: ignore[arg-type]
    ranked = amount_first(q, ranked)
    best = ranked[0] if ranked else None
    why = decline_reason(q, best, passages) or ("period-not-covered" if period_not_covered(q, ranked) else "")
    if why:
        return decline(q, closest_of_named(q, ranked) or best, passages), [], True, best.score if best else 0.0, why
    assert best is not None
    lead = choose(q, ranked)  # which sentence is quoted first (the decline above read the best score)
    if lead.kind == "sentence" and (changed := sentence_change(q, lead.quote_text, lead.passage.ref)):
        # "14.2% for 2022 and 16.4% for 2021" for the change between the two years: computed from the sentence
        return (f"{changed}\n> {display(lead.quote_text)} [{lead.passage.ref}]", [(lead.passage.ref, lead.quote_text)],
                False, best.score, "computed")
    sure = best.score >= SURE_AT
    if sure and (asked_item(q.text) is not None or superlative(q.text) is not None) and lead.kind == "sentence" \
            and not _RANKS.search(lead.quote_text):
        # "What is Acme's largest liability?" unanswered from the statement: a sentence that ranks nothing ("… the
        # maturities of lease liabilities were as follows:") is not sure to answer it
        sure = False
    if sure and (asks_segments(q.text) or asks_business(q.text)):
        # "What are Acme's segments?", "What does Acme sell?": no sentence listing them, nor the company's description
        # of itself, was found — whatever is quoted is not sure
        sure = False
    text, quotes = compose(q, lead, _supporting(lead, ranked), sure=sure)
    return text, quotes, False, best.score, "sure" if sure else "unsure"


#: an amount's evidence just below a lead sentence that offers none is the answer when it scores at least this
#: share of the lead's score (and is sure on its own)
AMOUNT_BEHIND = 0.8


def amount_first(q: Question, ranked: list[Evidence]) -> list[Evidence]:
    """``ranked`` with the best cell or field first, when an amount is asked and the best evidence is a
    sentence without any ("… our full year projected 2023 reported effective tax rate …" above the table's
    "Earnings per share (EPS) | $1.40" for "reported EPS"): one close behind it (``AMOUNT_BEHIND``) and sure on
    its own answers; otherwise the order stands (and ``decline.no_amount_offered`` declines)."""
    if not ranked or not no_amount_offered(q, ranked[0]):
        return ranked
    lead = ranked[0]
    close = [i for i, ev in enumerate(ranked[1:], 1) if ev.score >= max(SURE_AT, AMOUNT_BEHIND * lead.score)]
    # a table's cell or a form's field (the line item under its period) — not another sentence's amount, which may
    # be another item's (measured on the development filings: "… a consistent benefit to our gross profit … 1.4%")
    offered = [i for i in close if ranked[i].kind != "sentence"]
    if not offered:
        return ranked
    i = offered[0]
    return [ranked[i], *ranked[:i], *ranked[i + 1:]]


def closest_of_named(q: Question, ranked: Sequence[Evidence]) -> Evidence | None:
    """The best evidence from a passage of the company the question names (text, file name or identity), to name
    as the closest thing found when declining — not another company's passage that happened to score higher
    ("… for General Mills. The closest passage is about … (BESTBUY_2023_10K.pdf)"). None when no passage is the
    named company's, or the question names none."""
    if not q.strong_names:
        return None
    return next((ev for ev in ranked if all(mentions(n, ev.passage) for n in q.strong_names)), None)


def unique_passages(passages: Sequence[Passage]) -> list[Passage]:
    """``passages`` without repeats: the same chunk (document, page, text) returned by two searches of one answer
    is one passage, under the ref it came first with — two copies must not read as two rival sources."""
    seen: set[tuple[str, int, str]] = set()
    out: list[Passage] = []
    for p in passages:
        key = (p.document_id, p.page, p.text)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def _company_insisted(q: Question) -> Question:
    """A fact of the company a question names — who audits or leads it, where it is headquartered, incorporated or
    listed, its ticker, its shares outstanding ("Where is Amazon headquartered?") — is that company's: its name is
    insisted on, as an amount's company is, so that where no passage mentions it (the documents are someone
    else's) the reader declines."""
    if (q.language == "en" and q.names and not q.strong_names and not q.insisted_names
            and (asks_auditor(q) or asked_office(q) or asks_headquarters(q) or asked_fact(q))):
        return replace(q, insisted_names=q.names[:1])
    return q


def read(question: str, passages: Sequence[Passage]) -> Answer:
    """Answer ``question`` from ``passages`` (see the module docstring)."""
    passages = unique_passages(passages)
    # "… on the receipt from X dated D": which document, not what; "cashflow" spelled as filings print it
    selector, question = parse_selector(spelled_out(question))
    if not selector.empty:
        selection = select(selector, passages)
        if selection.missing:
            q = analyze(question)
            text = not_found(q.language, question, selection)
            return Answer(f"{text}\n\n{NOTE[q.language]}", (), True, 0.0, q.language, "document-not-found")
        passages = selection.passages
    head = search_box_head(question)
    if head and (head in owner_words(passages) or not any(
            re.search(rf"(?i)\b{re.escape(head)}\b", f"{p.text} {p.file_name}") for p in passages)):
        # "nike revenue fy21": the documents' owner, or a word no document holds — a company's name either way
        question = keyword_owned(head[0].upper() + question.strip()[1:])
    q = _company_insisted(analyze(question))
    rivals = rival_questions(question) if not q.parts and selector.empty else []
    if rivals:  # "Which had higher net income in 2022, Boeing or Lockheed Martin?": each company's figure, compared
        compared = company_comparison(question, rivals, passages)
        if compared is not None:
            return Answer(f"{compared[0]}\n\n{NOTE[q.language]}", tuple(dict.fromkeys(compared[1])), False, 1.0,
                          q.language, "computed")
    raced = (growth_race(question, passages) or part_sizes(question, passages)) \
        if not rivals and not q.parts and selector.empty else None
    if raced is not None:  # "Which grew faster in 2017, North America or International net sales?": both changes
        return Answer(f"{raced[0]}\n\n{NOTE[q.language]}", tuple(dict.fromkeys(raced[1])), False, 1.0, q.language,
                      "computed")
    apart = period_questions(q) if selector.empty and not rivals else []
    if apart:  # "How did Acme's net sales change from fiscal 2019 to fiscal 2022?": two filings' tables
        changed_apart = periods_apart_answer(q, apart, passages)
        if changed_apart is not None:
            return Answer(f"{changed_apart[0]}\n\n{NOTE[q.language]}", tuple(dict.fromkeys(changed_apart[1])), False,
                          1.0, q.language, "computed")
    if selector.empty and cover_check_applies(q) and not rivals:  # a company's amount: the filings of others left out
        foreign = foreign_documents(company_names(q, passages), passages)
        passages = [p for p in passages if p.document_id not in foreign]
    beyond = beyond_documents(q, passages) if selector.empty else []
    if beyond:  # the company's documents end before (or begin after) every year asked
        text = f"{decline(q, None, passages)} {coverage_note(q, beyond)}"
        return Answer(f"{text}\n\n{NOTE[q.language]}", (), True, 0.0, q.language, "period-not-covered")
    parts = q.parts or (q,)
    if rivals:  # no figure of one of them: what was found for each, no verdict
        parts = tuple(analyze(r) for r in rivals)
    elif not q.parts and q.kind != "comparison" and not selector.names:
        per_name = per_name_questions(question)
        if len(per_name) > 1:  # "net sales of Apple and Amazon": each company answered on its own
            parts = tuple(analyze(p) for p in per_name)
        else:
            per_item = item_questions(question, passages)
            if len(per_item) > 1:  # "basic and diluted earnings per share": each line item answered
                parts = tuple(analyze(p) for p in per_item)
    if not q.parts and not missing_names(q, passages) and asked_driver(question) is not None:
        # what drove a metric's change is a cause, not the metric: the sentence that gives it, when one does (else
        # the metric itself, computed below, is the closest answer)
        caused = driver_answer(q, passages)
        if caused is not None:
            return Answer(f"{caused[0]}\n\n{NOTE[q.language]}", tuple(dict.fromkeys(caused[1])), False, 1.0,
                          q.language, "sure")
    if not q.parts and not missing_names(q, passages):
        computed = formula_answer(question, q, passages)  # a metric the question defines: turnover, CAGR, …
        computed = computed or ratio_answer(question, q, passages)  # "current ratio", "X divided by Y": two cells
        computed = computed or derived_answer(question, q, passages)  # a line the statement leaves out
        computed = computed or debt_change_answer(question, q, passages)  # "has Acme increased its debt?"
        computed = computed or capital_intensity_answer(question, q, passages)  # capex ÷ revenue, PP&E ÷ assets
        computed = computed or growth_answer(q, passages)  # "a high growth company?": revenue and net income growth
        if computed is None and textbook_first(question, passages):  # "inventory turnover": never printed as such
            computed = textbook_answer(question, q, passages)
            if computed is None:  # an operand not found: no other line is the ratio ("Inventories | (300)" is none)
                text = decline(q, None, passages)
                return Answer(f"{text}\n\n{NOTE[q.language]}", (), True, 0.0, q.language, "no-operands")
        if computed is not None:
            return Answer(f"{computed[0]}\n\n{NOTE[q.language]}", tuple(dict.fromkeys(computed[1])), False, 1.0,
                          q.language, "computed")
        changed = period_change_answer(q, passages)  # a balance's change over the period, across chunks
        if changed is not None:
            return Answer(f"{changed[0]}\n\n{NOTE[q.language]}", tuple(dict.fromkeys(changed[1])), False, 1.0,
                          q.language, "computed")
    texts: list[str] = []
    quotes: list[tuple[str, str]] = []
    declined: list[bool] = []
    scores: list[float] = []
    whys: list[str] = []
    for part in parts:
        text, part_quotes, part_declined, score, why = _answer_one(part, passages)
        texts.append(text)
        quotes.extend(part_quotes)
        declined.append(part_declined)
        scores.append(score)
        whys.append(why)
    if (all(declined) or max(scores) < SURE_AT) and not q.parts and not missing_names(q, passages):
        # no sure reading: a statement line printed without an amount for the year ("—"), or a sentence saying
        # there was none ("There were no repurchases … in 2017"): none; "free cash flow"
        # that no line of was found: its textbook formula
        computed = nil_answer(q, passages) or none_stated_answer(q, passages)
        computed = computed or (textbook_answer(question, q, passages) if selector.empty else None)
        if computed is not None:
            return Answer(f"{computed[0]}\n\n{NOTE[q.language]}", tuple(dict.fromkeys(computed[1])), False, 1.0,
                          q.language, "computed")
    texts.append(NOTE[q.language])
    return Answer("\n\n".join(texts), tuple(dict.fromkeys(quotes)), all(declined), min(scores), q.language,
                  "+".join(whys))
