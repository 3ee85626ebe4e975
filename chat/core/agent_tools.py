"""The document tools behind the agent: ``search_documents``, ``read_page`` and ``list_documents``, ownership-checked.

``search_documents`` searches only the caller's projects (the session's project, or every project
of the user in one index query; a ``project_id`` argument must be one of them); a query that names a company
searches that company's documents first (``retrieval.owners``: by their covers' identity or file names), the
others only to fill up the results. ``read_page`` goes through
``DocumentReader.read_page`` (``chat.core.ports``), which refuses another user's document;
``list_documents`` lists the documents of the same projects with their stored summaries (ranked by a
``query`` topic when one is given; ``chat.models.catalog``). Each
source a tool returns is numbered (``S<n>``/``P<n>``, unique across the conversation) and
remembered in a ``RefBook`` so the answer's citations can be resolved. A failing tool becomes an
``is_error`` tool_result with a reason the model can read; nothing else of the failure reaches it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from chat.core import events
from chat.core.citations import Source
from chat.core.generations import Generation
from chat.core.ports import DocumentCatalog, DocumentIdentities, DocumentReader, DocumentSearch, PiiMasker
from chat.core.tools import validate_tool_input
from chat.models.catalog import LIST_DOCUMENTS, format_document_list, rank
from chat.models.tool_format import format_page, format_search_results, parse_results, tool_result_text
from ingest.pii.masking import mask_all
from retrieval.owners import dated_documents, named_documents
from retrieval.types import SearchFilter
from store.errors import DocchatError, InvalidInput, NotFound
from store.logging import get_logger

log = get_logger(__name__)

#: documents in one ``list_documents`` result
LIST_LIMIT = 50
#: documents whose identity (whose filing it is) a ``ToolRunner`` keeps (it does not change with a document)
IDENTITY_CACHE = 10_000
#: how long a project's document listing (who owns which document) is reused by searches — a document uploaded
#: meanwhile is searched as before, only not first when named, until the listing is renewed
OWNER_LISTING_TTL_S = 30.0
LISTING_CACHE = 256


@dataclass(frozen=True, slots=True)
class ToolScope:
    """Who is asking and which projects the tools may touch (already checked to be theirs)."""

    user_id: str
    project_ids: tuple[str, ...]
    #: issue 16: the chat's document selection (``None`` = every document of the projects)
    document_ids: tuple[str, ...] | None = None

    def allows(self, document_id: str) -> bool:
        return self.document_ids is None or document_id in self.document_ids


@dataclass(slots=True)
class RefBook:
    """Sources by ref, and the next free ``S``/``P`` numbers."""

    sources: dict[str, Source] = field(default_factory=dict)
    next_s: int = 1
    next_p: int = 1


def _box(bbox: Any) -> dict[str, float]:
    return {"page": bbox.page, "x0": bbox.x0, "y0": bbox.y0, "x1": bbox.x1, "y1": bbox.y1}


def _hit_bbox(hit: Any) -> dict[str, float] | None:
    bbox = getattr(hit, "bbox", None)
    return None if bbox is None else _box(bbox)


def _hit_source(ref: str, hit: Any) -> Source:
    """A search hit as a citable source, with its layout (which page each part of its text is on)."""
    return Source(
        ref=ref,
        document_id=hit.document_id,
        file_name=hit.file_name,
        page=int(hit.page_start),
        text=hit.text,
        chunk_id=hit.chunk_id,
        bbox=_hit_bbox(hit),
        page_end=int(getattr(hit, "page_end", hit.page_start)),
        page_offsets=tuple(getattr(hit, "page_offsets", ())),
        boxes=tuple(_box(b) for b in getattr(hit, "bboxes", ())),
        line_boxes=tuple((int(o), _box(b)) for o, b in getattr(hit, "line_boxes", ())),
        score=_score(getattr(hit, "score", None)),
    )


def _score(raw: Any) -> float | None:
    """A relevance score as a plain rounded float (``None`` when there is none)."""
    try:
        value = float(raw)
    except (TypeError, ValueError):
        return None
    return round(value, 4) if value == value and abs(value) != float("inf") else None


def sources_from_history(messages: Sequence[dict[str, Any]]) -> dict[str, Source]:
    """Every source numbered in the stored tool results (so later answers may cite them too)."""
    out: dict[str, Source] = {}
    for m in messages:
        if m.get("role") != "user" or not isinstance(m.get("content"), list):
            continue
        for block in m["content"]:
            if not isinstance(block, dict) or block.get("type") != "tool_result":
                continue
            for item in parse_results(tool_result_text(block)):
                ref = str(item.get("ref", ""))
                if not ref:
                    continue
                out[ref] = Source(
                    ref=ref,
                    document_id=str(item.get("document_id", "")),
                    file_name=str(item.get("file_name", "")),
                    page=int(item.get("page", 0) or 0),
                    text=str(item.get("text", "")),
                    chunk_id=item.get("chunk_id"),
                    bbox=_bbox_from_list(item.get("bbox")),
                    page_end=int(item.get("page_end") or item.get("page") or 0),
                    score=_score(item.get("score")),
                )
    return out


def _bbox_from_list(raw: Any) -> dict[str, float] | None:
    if not isinstance(raw, list) or len(raw) != 5:
        return None
    page, x0, y0, x1, y1 = raw
    return {"page": int(page), "x0": x0, "y0": y0, "x1": x1, "y1": y1}


#: of a search's results, at least one in this many are left to the named company's filings of other years than
#: the one asked
OTHER_YEARS_SHARE = 3


class ToolRunner:
    """Runs the tools. With a ``masker`` (given when the model is a remote one), what a tool result shows the
    model — passage and page text, file names — is masked; the sources kept for citations (the owner's view)
    keep the original text."""

    def __init__(self, *, retriever: DocumentSearch | None, ingest: DocumentReader | None, search_k: int = 8,
                 masker: PiiMasker | None = None) -> None:
        self.retriever = retriever
        self.ingest = ingest
        self.search_k = search_k
        self.masker = masker
        self._identities: dict[str, Mapping[str, Any]] = {}
        #: (user, projects) → (when listed, [{document_id, file_name, identity}]) for ``_named_documents``
        self._listings: dict[tuple[str, tuple[str, ...]], tuple[float, list[dict[str, Any]]]] = {}

    async def run(
        self, gen: Generation, refs: RefBook, scope: ToolScope, tool_uses: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        for b in tool_uses:
            gen.publish("tool", events.tool(str(b.get("name")), dict(b.get("input") or {}), "running"))
        outcomes = await asyncio.gather(*(self._run_one(refs, scope, b) for b in tool_uses), return_exceptions=True)
        results: list[dict[str, Any]] = []
        for b, outcome in zip(tool_uses, outcomes, strict=True):
            name, tool_input = str(b.get("name")), dict(b.get("input") or {})
            if isinstance(outcome, BaseException):
                if isinstance(outcome, asyncio.CancelledError):
                    raise outcome
                reason = outcome.message if isinstance(outcome, DocchatError) else "the tool failed"
                if not isinstance(outcome, DocchatError):
                    log.error("tool_failed", tool=name, error_type=type(outcome).__name__, exc_info=outcome)
                results.append(error_result(b["id"], reason))
                gen.publish("tool", events.tool(name, tool_input, "error", error=reason))
            else:
                text, count = outcome
                results.append({"type": "tool_result", "tool_use_id": b["id"], "content": text})
                gen.publish("tool", events.tool(name, tool_input, "done", results=count))
        return results

    async def _run_one(self, refs: RefBook, scope: ToolScope, block: dict[str, Any]) -> tuple[str, int]:
        name = str(block.get("name"))
        args = validate_tool_input(name, block.get("input"))
        if name == "search_documents":
            return await self._search_documents(refs, scope, str(args.get("query", "")), args.get("project_id"))
        if name == "read_page":
            return await self._read_page(refs, scope, str(args.get("document_id", "")), args.get("page"))
        if name == LIST_DOCUMENTS:
            return await self._list_documents(scope, str(args.get("query") or ""), args.get("project_id"))
        raise InvalidInput(f"unknown tool {name!r}")

    async def _search_documents(self, refs: RefBook, scope: ToolScope, query: str, project_id: Any) -> tuple[str, int]:
        if self.retriever is None:
            raise NotFound("document search is not available")
        if not query.strip():
            raise NotFound("search_documents needs a non-empty query")
        if project_id:
            if str(project_id) not in scope.project_ids:
                raise NotFound(f"project {project_id!r} not found")
            projects: tuple[str, ...] = (str(project_id),)
        else:
            projects = scope.project_ids
        if not projects:
            raise NotFound("there are no projects to search; upload documents first")
        # one embedding and one index query over all the projects, however many (issue 13 item 9)
        flt = SearchFilter.for_projects(projects, scope.document_ids)  # the index filters by document too
        named, dated = await self._named_documents(scope, projects, query)
        hits: list[Any] = []
        if dated:  # "Corning's net sales in 2022": the named company's filing of that year first — not all of the
            # results: a year's naming may mislead (``owners.dated_documents``), its other filings keep a share
            first = self.search_k - self.search_k // OTHER_YEARS_SHARE
            hits = list(await self.retriever.search(query, SearchFilter.for_projects(projects, dated), k=first))[:first]
        if named and len(hits) < self.search_k:
            # "Boeing's tax rate": Boeing's documents first, the rest only to fill up (``retrieval.owners``)
            seen = {h.chunk_id for h in hits}
            hits += [h for h in await self.retriever.search(query, SearchFilter.for_projects(projects, named),
                                                            k=self.search_k) if h.chunk_id not in seen]
            hits = hits[: self.search_k]
        if len(hits) < self.search_k:
            seen = {h.chunk_id for h in hits}
            hits += [h for h in await self.retriever.search(query, flt, k=self.search_k) if h.chunk_id not in seen]
            hits = hits[: self.search_k]
        first = refs.next_s
        identities = await self._identities_of(scope, {str(h.document_id): (str(h.project_id) or None) for h in hits})
        shown, identities = await self._masked_hits(scope, hits, identities)
        text = format_search_results(shown, first, identities=identities)
        for i, hit in enumerate(hits):
            ref = f"S{first + i}"
            refs.sources[ref] = _hit_source(ref, hit)
        refs.next_s = first + len(hits)
        return text, len(hits)

    async def _named_documents(self, scope: ToolScope, projects: tuple[str, ...], query: str
                               ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The documents of the search's scope whose owner ``query`` names (``retrieval.owners``) — empty when it
        names none, or every one of them (then there is nothing to search first) — and of those, the ones of a
        year the query asks (``owners.dated_documents``). The listing behind it is kept ``OWNER_LISTING_TTL_S``
        seconds; a listing that fails names nothing (the search runs as before)."""
        lister = getattr(self.ingest, "document_summaries", None)
        if lister is None:
            return (), ()
        key = (scope.user_id, projects)
        cached = self._listings.get(key)
        if cached is None or time.monotonic() - cached[0] > OWNER_LISTING_TTL_S:
            try:
                listed = await cast(DocumentCatalog, self.ingest).document_summaries(scope.user_id, projects)
            except DocchatError as exc:
                log.warning("owner_listing_failed", error_type=type(exc).__name__)
                return (), ()
            docs = [{"document_id": str(d.get("document_id", "")), "file_name": str(d.get("file_name", "")),
                     "identity": d.get("identity") if isinstance(d.get("identity"), Mapping) else None}
                    for d in listed]
            if len(self._listings) >= LISTING_CACHE:
                self._listings.pop(next(iter(self._listings)))
            cached = self._listings[key] = (time.monotonic(), docs)
        docs = [d for d in cached[1] if scope.allows(str(d["document_id"]))]
        named = named_documents(query, docs)
        dated = dated_documents(query, docs, named) if named else []
        if not named or len(named) == len(docs):
            return (), tuple(dated)
        log.debug("search_named_documents", named=len(named), dated=len(dated), documents=len(docs))
        return tuple(named), tuple(dated)

    async def _list_documents(self, scope: ToolScope, query: str, project_id: Any) -> tuple[str, int]:
        lister = getattr(self.ingest, "document_summaries", None)
        if lister is None:
            raise NotFound("listing documents is not available")
        if project_id:
            if str(project_id) not in scope.project_ids:
                raise NotFound(f"project {project_id!r} not found")
            projects: tuple[str, ...] = (str(project_id),)
        else:
            projects = scope.project_ids
        if not projects:
            raise NotFound("there are no projects yet; upload documents first")
        docs = list(await cast(DocumentCatalog, self.ingest).document_summaries(scope.user_id, projects))
        docs = [d for d in docs if scope.allows(str(d.get("document_id", "")))]
        if query:
            docs = [d for _, d in rank(query, [_flat(d) for d in docs])]
        docs = docs[:LIST_LIMIT]
        if self.masker is not None:  # a remote model sees the summaries masked, like every other document text
            docs = list(await asyncio.gather(*(self._masked_listing(scope, d) for d in docs)))
        return format_document_list(docs), len(docs)

    async def _masked_listing(self, scope: ToolScope, doc: Mapping[str, Any]) -> Mapping[str, Any]:
        """One listing item with its file name, title, summary text and headings masked (one numbering)."""
        assert self.masker is not None
        raw = doc.get("summary")
        summary: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
        outline = [dict(h) for h in summary.get("outline") or [] if isinstance(h, Mapping)]
        texts = [str(doc.get("file_name", "")), str(summary.get("title", "")), str(summary.get("text", "")),
                 *(str(h.get("text", "")) for h in outline)]
        masked = await self.masker.mask_texts(scope.user_id, str(doc.get("document_id", "")), texts)
        for h, text in zip(outline, masked[3:], strict=True):
            h["text"] = text
        out = {**doc, "file_name": masked[0]}
        if summary:
            out["summary"] = {**summary, "title": masked[1], "text": masked[2], "outline": outline}
        return out

    async def _read_page(self, refs: RefBook, scope: ToolScope, document_id: str, page: Any) -> tuple[str, int]:
        if self.ingest is None:
            raise NotFound("page reading is not available")
        try:
            page_no = int(page)
        except (TypeError, ValueError) as exc:
            raise NotFound("read_page needs an integer page") from exc
        if not scope.allows(document_id):
            raise NotFound(f"document {document_id!r} is not one of this chat's documents")
        content = await self.ingest.read_page(scope.user_id, document_id, page_no)
        ref = f"P{refs.next_p}"
        refs.next_p += 1
        refs.sources[ref] = Source(
            ref=ref,
            document_id=content.document_id,
            file_name=content.file_name,
            page=int(content.page),
            text=content.text,
            chunk_id=None,
        )
        identity = (await self._identities_of(scope, {content.document_id: None})).get(content.document_id, {})
        if self.masker is not None:
            names = _identity_texts(identity)
            masked = await self.masker.mask_texts(scope.user_id, content.document_id,
                                                  [content.file_name, content.text, *names])
            content = _MaskedPage(content.document_id, masked[0], content.page, masked[1], content.page_count)
            identity = _with_identity_texts(identity, masked[2:])
        return format_page(content, ref, identity=identity), 1

    async def _identities_of(self, scope: ToolScope, docs: Mapping[str, str | None]) -> dict[str, Mapping[str, Any]]:
        """Whose each document is, remembered per document; a lookup that fails shows no identity (it is a help
        to the reader, not a condition of the answer)."""
        lookup = getattr(self.ingest, "document_identities", None)
        missing = {d: p for d, p in docs.items() if d not in self._identities}
        if lookup is not None and missing:
            try:
                found = await cast(DocumentIdentities, self.ingest).document_identities(scope.user_id, missing)
            except DocchatError as exc:
                log.warning("identity_lookup_failed", error_type=type(exc).__name__)
                found = {}
            for doc, identity in found.items():
                if len(self._identities) >= IDENTITY_CACHE:
                    self._identities.pop(next(iter(self._identities)))
                self._identities[doc] = dict(identity)
        return {d: self._identities.get(d, {}) for d in docs}

    async def _masked_hits(self, scope: ToolScope, hits: Sequence[Any], identities: Mapping[str, Mapping[str, Any]]
                           ) -> tuple[list[Any], dict[str, Mapping[str, Any]]]:
        """The hits and identities as the model may see them: each document's texts masked in one call (one
        numbering)."""
        if self.masker is None or not hits:
            return list(hits), dict(identities)
        masker = self.masker
        by_doc: dict[str, list[int]] = {}
        for i, hit in enumerate(hits):
            by_doc.setdefault(str(hit.document_id), []).append(i)

        async def one(doc: str, idx: list[int]) -> list[str]:
            texts = [str(hits[idx[0]].file_name), *_identity_texts(identities.get(doc, {})),
                     *(str(hits[i].text) for i in idx)]
            return await masker.mask_texts(scope.user_id, doc, texts)

        masked = await asyncio.gather(*(one(doc, idx) for doc, idx in by_doc.items()))
        out = list(hits)
        shown: dict[str, Mapping[str, Any]] = {}
        for (doc, idx), texts in zip(by_doc.items(), masked, strict=True):
            identity = identities.get(doc, {})
            n = len(_identity_texts(identity))
            shown[doc] = _with_identity_texts(identity, texts[1 : 1 + n])
            for i, text in zip(idx, texts[1 + n :], strict=True):
                out[i] = dataclasses.replace(hits[i], text=text, file_name=texts[0])
        return out, shown


class DetectorMasker:
    """The fallback ``PiiMasker`` when chat is built without ingest's (tests, tools): the detectors alone,
    one numbering per call — so a remote model is never sent an unmasked value by omission."""

    async def mask_texts(self, user_id: str, document_id: str, texts: Sequence[str]) -> list[str]:
        return mask_all(texts)


@dataclass(frozen=True, slots=True)
class _MaskedPage:
    document_id: str
    file_name: str
    page: int
    text: str
    page_count: int


def _identity_texts(identity: Mapping[str, Any]) -> list[str]:
    """An identity's names as texts to mask: the company, then its former names (tickers are not personal)."""
    return [str(identity.get("company") or ""), *(str(n) for n in identity.get("former_names") or [])]


def _with_identity_texts(identity: Mapping[str, Any], texts: Sequence[str]) -> dict[str, Any]:
    out = dict(identity)
    if texts:
        if out.get("company"):
            out["company"] = texts[0]
        if out.get("former_names"):
            out["former_names"] = list(texts[1:])
    return out


def _flat(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A listing item with its summary's fields alongside (what ``rank`` scores); the summary stays."""
    raw = doc.get("summary")
    summary: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    return {**doc, "title": summary.get("title", ""), "outline": summary.get("outline") or [],
            "summary_text": summary.get("text", "")}


def error_result(tool_use_id: str, reason: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": tool_use_id, "content": reason, "is_error": True}
