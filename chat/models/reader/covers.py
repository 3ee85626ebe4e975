"""Whose filing is it? The company a question names against the cover page of the document that answers it
(pure).

A statement question names a company ("What was Acme's FY2019 net income?"). Search over a project of several
companies' filings may rank another company's statement first — the line item, the period and the statement
title match, only the company does not — and a passage that merely mentions the asked company (a competitor,
a customer) keeps the name check (``decline.missing_names``) from noticing. The company a filing is about is
on its cover page (page 1: "ACME WIDGETS, INC. (Exact name of registrant as specified in its charter)"), not in
any list. Ingest reads it off the cover (``ingest.steps.identity``) and every passage carries it
(``Passage.company``); for a document without one (its cover has no registrant line, or a brand name the
question uses is not the registrant's) ``covers_to_read`` says which documents' first pages the local model
should read — those an answer cites whose file name, identity and passage heads do not name the company — and
``foreign_documents`` which documents a cover page read that way shows to be someone else's (its text does not
mention the company), so the reader leaves them out and declines when nothing else answers. A first page that
holds little text (an image cover) proves nothing and drops nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from chat.models.reader.names import mentions
from chat.models.reader.passage import Passage
from chat.models.reader.question import Question
from chat.models.reader.tables import find_tables
from chat.models.reader.text import match_terms

COVER_PAGE = 1
#: a first page with less text than this (an image cover, a title alone) does not tell whose filing it is
COVER_MIN_CHARS = 300
#: at most this many documents' cover pages are read for one answer
MAX_COVERS = 4
#: lines of a table chunk's caption that may name the company
CAPTION_LINES = 4


def cover_check_applies(q: Question) -> bool:
    """An English question for an amount of a company it names (a value, a change, a comparison, a ratio)."""
    return q.language == "en" and bool(q.strong_names) and q.kind in ("value", "change", "comparison")


def company_names(q: Question, passages: Sequence[Passage]) -> tuple[str, ...]:
    """The names of ``q`` that may be whose filing it is. A name some passage's table prints as a row label or
    section, or as their opening words ("How much did Mac revenue change?" over a net-sales-by-category table
    with a "Mac" row; "Greater China:" above its rows; "Wearables, Home and Accessories"), qualifies the line item
    asked — a product, a segment, a region — and a cover page that does not mention it says nothing about whose
    filing it is."""
    if not q.strong_names:
        return ()
    labels = {" ".join(t.lower().split()).rstrip(":") for p in passages for table in find_tables(p.text)
              for row in table.rows for t in (row.label, row.section) if t}

    def row_label(name: str) -> bool:  # the whole label, or the label's opening words ("Wearables, Home and …")
        n = " ".join(name.lower().split())
        return bool(match_terms(n)) and any(label == n or re.match(re.escape(n) + r"\b", label) for label in labels)

    return tuple(n for n in q.strong_names if not row_label(n) and not _owners_part(n, passages))


def _owners_part(name: str, passages: Sequence[Passage]) -> bool:
    """``name`` is a part of a document's owner, not a company: its opening words name the owner (its file name or
    identity: "Microsoft" of MICROSOFT_2023_10K.pdf, "MGM" of the MGM Resorts filing), the whole name does not, and
    a passage's text writes it ("Microsoft Cloud revenue increased 22%", "MGM China") — a segment, a product."""
    words = name.split()
    if len(words) < 2:
        return False
    owners = [p.owner_only() for p in passages]
    if any(mentions(name, o) for o in owners):
        return False
    leads = [" ".join(words[:k]) for k in range(1, len(words))]
    return any(mentions(lead, o) for lead in leads for o in owners) and any(
        mentions(name, replace(p, file_name="", company=""), identity=False) for p in passages)


def _is_cover(p: Passage) -> bool:
    return p.ref.startswith("P") and p.page == COVER_PAGE


def _caption(p: Passage) -> str:
    """The lines above a table chunk's Markdown table (its caption: ``AMAZON.COM, INC. / CONSOLIDATED …``)."""
    lines = p.text.splitlines()
    first = next((i for i, line in enumerate(lines) if line.lstrip().startswith("|")), None)
    return "\n".join(lines[:first][:CAPTION_LINES]) if first else ""


def _named_by_file_or_head(name: str, docs: Sequence[Passage]) -> bool:
    """The file name (or its ticker), the document's identity (its cover's registrant, read at ingest) or a
    statement table's caption names the company — not a mention in prose."""
    files = [Passage(p.ref, _caption(p), p.document_id, p.file_name, p.page, company=p.company) for p in docs]
    return any(mentions(name, f) for f in files)


def covers_to_read(names: Sequence[str], cited: Sequence[str], passages: Sequence[Passage]) -> list[str]:
    """Document ids whose cover page to read: of the documents among the results (those the answer cites, refs
    ``cited``, first), those whose file name and passage heads hold none of ``names``. Empty
    when no name is asked; a document whose cover page was read already is not asked for again (another page read
    — a statement's grid — does not count: it says nothing of whose filing it is). A document the answer does not
    cite is read only when its identity is unknown (every other one's cover was read at ingest)."""
    if not names:
        return []
    covered = {p.document_id for p in passages if _is_cover(p)}
    by_ref = {p.ref: p for p in passages}
    ordered = [by_ref[r] for r in cited if r in by_ref] + list(passages)  # the cited documents first, then the rest
    cited_docs = {by_ref[r].document_id for r in cited if r in by_ref}
    out: list[str] = []
    seen: set[str] = set()
    for p in ordered:
        if not p.document_id or p.document_id in seen or p.document_id in covered:
            continue
        seen.add(p.document_id)
        docs = [d for d in passages if d.document_id == p.document_id]
        if p.document_id not in cited_docs and any(d.company.strip() for d in docs):
            continue  # an uncited document whose identity (its cover, read at ingest) is known: no round for it
        if not any(_named_by_file_or_head(name, docs) for name in names):
            out.append(p.document_id)
        if len(out) >= MAX_COVERS:
            break
    return out


def foreign_documents(names: Sequence[str], passages: Sequence[Passage]) -> set[str]:
    """Documents whose cover page (read, among ``passages``) mentions none of ``names``."""
    if not names:
        return set()
    out: set[str] = set()
    for cover in (p for p in passages if _is_cover(p) and p.document_id):
        if len(cover.text) < COVER_MIN_CHARS:
            continue
        text_only = Passage(cover.ref, cover.text, cover.document_id, "", cover.page)  # not the file name's ticker
        if not any(mentions(name, text_only) for name in names):
            out.add(cover.document_id)
    return out
