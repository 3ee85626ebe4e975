"""The wire format of the document tools inside messages (pure): tool names, results, parsing them back.

Tool results carry text from uploaded documents — untrusted input (OWASP LLM01, indirect
prompt injection). They are wrapped in ``<search_results>`` / ``<page>`` elements whose
text is XML-escaped, so nothing inside a document can close the delimiter or forge a
source; the system prompt (``chat.core.prompt``) tells the model the contents are data.
Each source gets a ref (``S1``… for search hits, ``P1``… for pages) that answers cite
as ``[S1]``; ``parse_results`` reads a tool result back (the ``LocalModel`` and the
citation builder use it).

It lives in the model layer because a model (``LocalModel``) reads it as much as the agent
(``chat.core``) writes it; the tool schemas and input validation stay in ``chat.core.tools``.
The conversation-summary markers are the other text convention both sides share.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from retrieval.types import Hit

SEARCH_DOCUMENTS = "search_documents"
READ_PAGE = "read_page"

#: Opens the text block that carries a conversation summary (``chat.core.context``) in the first kept user turn.
SUMMARY_OPEN = "<conversation_summary>"
SUMMARY_CLOSE = "</conversation_summary>"

_ELEMENT = re.compile(r"<(document|page)\s+([^>]*)>(.*?)</\1>", re.DOTALL)
_ATTR = re.compile(r'([a-z_]+)="([^"]*)"')


class PageLike(Protocol):
    """What ``format_page`` needs (``ingest.documents.PageContent`` has it)."""

    @property
    def document_id(self) -> str: ...
    @property
    def file_name(self) -> str: ...
    @property
    def page(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def page_count(self) -> int: ...


def _attr(value: object) -> str:
    return html.escape(str(value), quote=True)


def _text(value: str) -> str:
    return html.escape(value, quote=False)


def _identity_attrs(identity: Mapping[str, Any] | None) -> list[str]:
    """Whose document it is (``ingest.steps.identity``) as attributes: ``company``, ``tickers``, ``former_names``,
    and the latest date it speaks of, ``period_end``."""
    if not identity:
        return []
    out = []
    if identity.get("company"):
        out.append(f'company="{_attr(identity["company"])}"')
    if identity.get("tickers"):
        out.append(f'tickers="{_attr(" ".join(str(t) for t in identity["tickers"]))}"')
    if identity.get("former_names"):
        out.append(f'former_names="{_attr("; ".join(str(n) for n in identity["former_names"]))}"')
    if identity.get("period_end"):  # the latest date the document speaks of: its cover's period, a release's date
        out.append(f'period_end="{_attr(identity["period_end"])}"')
    return out


def format_search_results(hits: Sequence[Hit], first_ref: int = 1, *,
                          identities: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """Hits as one delimited data block; refs ``S<first_ref>``, ``S<first_ref+1>``, … Each hit's document's
    identity (``identities`` by document id) shows as its ``company``/``tickers``/``former_names`` attributes."""
    if not hits:
        return '<search_results count="0">\nNo matching passages were found.\n</search_results>'
    parts = [f'<search_results count="{len(hits)}">']
    for offset, hit in enumerate(hits):
        attrs = [
            f'ref="S{first_ref + offset}"',
            f'document_id="{_attr(hit.document_id)}"',
            f'file_name="{_attr(hit.file_name)}"',
            *_identity_attrs((identities or {}).get(hit.document_id)),
            f'page="{hit.page_start}"',
        ]
        if hit.page_end != hit.page_start:
            attrs.append(f'page_end="{hit.page_end}"')
        attrs.append(f'chunk_id="{_attr(hit.chunk_id)}"')
        if isinstance(hit.score, int | float) and hit.score == hit.score:  # relevance, shown in the sources panel
            attrs.append(f'score="{float(hit.score):.4g}"')
        if hit.bbox is not None:
            b = hit.bbox
            attrs.append(f'bbox="{b.page},{b.x0:.1f},{b.y0:.1f},{b.x1:.1f},{b.y1:.1f}"')
        parts.append(f"<document {' '.join(attrs)}>\n{_text(hit.text)}\n</document>")
    parts.append("</search_results>")
    return "\n".join(parts)


def format_page(page: PageLike, ref: str, *, identity: Mapping[str, Any] | None = None) -> str:
    """One page as a delimited data block with ref ``P<n>`` (and its document's identity, as for a hit)."""
    attrs = " ".join([
        f'ref="{_attr(ref)}" document_id="{_attr(page.document_id)}" file_name="{_attr(page.file_name)}"',
        *_identity_attrs(identity),
        f'page="{int(page.page)}" page_count="{int(page.page_count)}"',
    ])
    return f"<page {attrs}>\n{_text(page.text)}\n</page>"


def parse_results(text: str) -> list[dict[str, Any]]:
    """Read sources back out of a formatted tool result.

    Returns ``[{ref, document_id, file_name, company, tickers, former_names, period_end, page, page_end, chunk_id,
    bbox, score, text}]``; ``chunk_id`` and ``bbox`` are None for pages, ``company`` and ``period_end`` are ``""``
    and the lists are empty when the document's identity is not known. Text that is not a formatted result gives ``[]``.
    """
    out: list[dict[str, Any]] = []
    for match in _ELEMENT.finditer(text):
        kind, raw_attrs, body = match.groups()
        attrs = {k: html.unescape(v) for k, v in _ATTR.findall(raw_attrs)}
        if "ref" not in attrs or "document_id" not in attrs:
            continue
        try:
            page = int(attrs.get("page", "0"))
            page_end = int(attrs.get("page_end", page))
        except ValueError:
            continue
        bbox: list[float] | None = None
        if attrs.get("bbox"):
            try:
                nums = [float(x) for x in attrs["bbox"].split(",")]
                bbox = nums if len(nums) == 5 else None
            except ValueError:
                bbox = None
        out.append(
            {
                "ref": attrs["ref"],
                "kind": "page" if kind == "page" else "search",
                "document_id": attrs["document_id"],
                "file_name": attrs.get("file_name", ""),
                "company": attrs.get("company", ""),
                "tickers": attrs.get("tickers", "").split(),
                "former_names": [n.strip() for n in attrs.get("former_names", "").split(";") if n.strip()],
                "period_end": attrs.get("period_end", ""),
                "page": page,
                "page_end": page_end,
                "chunk_id": attrs.get("chunk_id"),
                "bbox": bbox,
                "score": attrs.get("score"),
                "text": html.unescape(body.strip("\n")),
            }
        )
    return out


def tool_result_text(block: Mapping[str, Any]) -> str:
    """The text of a ``tool_result`` block (its content is a string or a list of text blocks)."""
    content = block.get("content", "")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) for b in content if isinstance(b, Mapping) and b.get("type") == "text")
    return ""
