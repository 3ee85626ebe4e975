"""The document tools the model may call, and their results formatted as delimited data.

Tool results carry text from uploaded documents — untrusted input (OWASP LLM01, indirect
prompt injection). They are wrapped in ``<search_results>`` / ``<page>`` elements whose
text is XML-escaped, so nothing inside a document can close the delimiter or forge a
source; the system prompt (``chat.core.prompt``) tells the model the contents are data.
Each source gets a ref (``S1``… for search hits, ``P1``… for pages) that answers cite
as ``[S1]``; ``parse_results`` reads a tool result back (the ``LocalModel`` and the
citation builder use it).
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from retrieval.types import Hit
from store.errors import InvalidInput

SEARCH_DOCUMENTS = "search_documents"
READ_PAGE = "read_page"

#: Sorted by name: the tools are the start of the cached prefix and must never reorder.
TOOLS: list[dict[str, Any]] = [
    {
        "name": READ_PAGE,
        "description": (
            "Read the full text of one page of an uploaded document. Use it when a search result is "
            "cut off or you need the surrounding text. Returns the page as data with a ref P<n> to cite."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "document_id": {"type": "string", "description": "document_id from a search result"},
                "page": {"type": "integer", "minimum": 1, "description": "1-based page number"},
            },
            "required": ["document_id", "page"],
            "additionalProperties": False,
        },
    },
    {
        "name": SEARCH_DOCUMENTS,
        "description": (
            "Search the user's uploaded documents (hybrid keyword + semantic search). Returns the most "
            "relevant passages, each with a ref S<n>, the document, and its page. Search again with other "
            "words (or another language) if the results do not answer the question."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "what to look for, in the documents' language"},
                "project_id": {
                    "type": "string",
                    "description": "limit the search to one project (defaults to the conversation's project)",
                },
            },
            "required": ["query"],
            "additionalProperties": False,
        },
    },
]

MAX_QUERY_CHARS = 1000
_REF = re.compile(r"\[((?:S|P)\d+)\]")
_ELEMENT = re.compile(r"<(document|page)\s+([^>]*)>(.*?)</\1>", re.DOTALL)
_ATTR = re.compile(r'([a-z_]+)="([^"]*)"')


class PageLike(Protocol):
    """What ``format_page`` needs (``ingest.service.PageContent`` has it)."""

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


def format_search_results(hits: Sequence[Hit], first_ref: int = 1) -> str:
    """Hits as one delimited data block; refs ``S<first_ref>``, ``S<first_ref+1>``, …"""
    if not hits:
        return '<search_results count="0">\nNo matching passages were found.\n</search_results>'
    parts = [f'<search_results count="{len(hits)}">']
    for offset, hit in enumerate(hits):
        attrs = [
            f'ref="S{first_ref + offset}"',
            f'document_id="{_attr(hit.document_id)}"',
            f'file_name="{_attr(hit.file_name)}"',
            f'page="{hit.page_start}"',
        ]
        if hit.page_end != hit.page_start:
            attrs.append(f'page_end="{hit.page_end}"')
        attrs.append(f'chunk_id="{_attr(hit.chunk_id)}"')
        if hit.bbox is not None:
            b = hit.bbox
            attrs.append(f'bbox="{b.page},{b.x0:.1f},{b.y0:.1f},{b.x1:.1f},{b.y1:.1f}"')
        parts.append(f"<document {' '.join(attrs)}>\n{_text(hit.text)}\n</document>")
    parts.append("</search_results>")
    return "\n".join(parts)


def format_page(page: PageLike, ref: str) -> str:
    """One page as a delimited data block with ref ``P<n>``."""
    attrs = (
        f'ref="{_attr(ref)}" document_id="{_attr(page.document_id)}" file_name="{_attr(page.file_name)}" '
        f'page="{int(page.page)}" page_count="{int(page.page_count)}"'
    )
    return f"<page {attrs}>\n{_text(page.text)}\n</page>"


def parse_results(text: str) -> list[dict[str, Any]]:
    """Read sources back out of a formatted tool result.

    Returns ``[{ref, document_id, file_name, page, page_end, chunk_id, bbox, text}]``; ``chunk_id``
    and ``bbox`` are None for pages. Text that is not a formatted result gives ``[]``.
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
                "page": page,
                "page_end": page_end,
                "chunk_id": attrs.get("chunk_id"),
                "bbox": bbox,
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


def cited_refs(text: str) -> list[str]:
    """Refs cited in an answer, in first-citation order, without repeats (``[S3]`` → ``S3``)."""
    seen: dict[str, None] = {}
    for ref in _REF.findall(text):
        seen.setdefault(ref, None)
    return list(seen)


def next_ref_number(messages: Sequence[Mapping[str, Any]], prefix: str) -> int:
    """The next free ``S``/``P`` number, so refs stay unique across the tool rounds of a conversation."""
    highest = 0
    pattern = re.compile(r'ref="' + re.escape(prefix) + r'(\d+)"')
    for message in messages:
        content = message.get("content")
        if not isinstance(content, list):
            continue
        for block in content:
            if isinstance(block, Mapping) and block.get("type") == "tool_result":
                for num in pattern.findall(tool_result_text(block)):
                    highest = max(highest, int(num))
    return highest + 1


def validate_tool_input(name: str, tool_input: Any) -> dict[str, Any]:
    """Check a model's tool call against the schema; ``InvalidInput`` with a reason if it does not fit."""
    if not isinstance(tool_input, Mapping):
        raise InvalidInput(f"{name}: input must be an object")
    if name == SEARCH_DOCUMENTS:
        query = tool_input.get("query")
        if not isinstance(query, str) or not query.strip():
            raise InvalidInput("search_documents: 'query' must be a non-empty string")
        out: dict[str, Any] = {"query": query.strip()[:MAX_QUERY_CHARS]}
        project_id = tool_input.get("project_id")
        if project_id is not None:
            if not isinstance(project_id, str) or not project_id:
                raise InvalidInput("search_documents: 'project_id' must be a string")
            out["project_id"] = project_id
        return out
    if name == READ_PAGE:
        document_id = tool_input.get("document_id")
        page = tool_input.get("page")
        if not isinstance(document_id, str) or not document_id:
            raise InvalidInput("read_page: 'document_id' must be a non-empty string")
        if isinstance(page, bool) or not isinstance(page, int | str):
            raise InvalidInput("read_page: 'page' must be an integer ≥ 1")
        try:
            page_no = int(page)
        except ValueError as exc:
            raise InvalidInput("read_page: 'page' must be an integer ≥ 1") from exc
        if page_no < 1:
            raise InvalidInput("read_page: 'page' must be an integer ≥ 1")
        return {"document_id": document_id, "page": page_no}
    raise InvalidInput(f"unknown tool {name!r}")
