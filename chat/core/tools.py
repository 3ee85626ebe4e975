"""The document tools the model may call: their schemas, and checking a model's tool input.

How tool results are written into messages (delimited, escaped data with ``S<n>``/``P<n>`` refs)
and read back is the wire format in ``chat.models.tool_format``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from chat.models.catalog import LIST_DOCUMENTS
from chat.models.tool_format import READ_PAGE, SEARCH_DOCUMENTS, tool_result_text
from store.errors import InvalidInput

#: Sorted by name: the tools are the start of the cached prefix and must never reorder.
TOOLS: list[dict[str, Any]] = [
    {
        "name": LIST_DOCUMENTS,
        "description": (
            "List the user's uploaded documents with each one's summary: title, a short summary and the outline "
            "of its headings with page numbers. Use it for questions about the documents themselves — what a "
            "document is about, which document covers a topic, what has been uploaded — then search or read "
            "pages for details. Summaries are not citable passages: name the document and its pages instead."
        ),
        "input_schema": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "a topic: documents whose summary covers it come first"},
                "project_id": {
                    "type": "string",
                    "description": "limit the list to one project (defaults to the conversation's project)",
                },
            },
            "additionalProperties": False,
        },
    },
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
    if name == LIST_DOCUMENTS:
        args: dict[str, Any] = {}
        for key in ("query", "project_id"):
            value = tool_input.get(key)
            if value is not None:
                if not isinstance(value, str):
                    raise InvalidInput(f"list_documents: {key!r} must be a string")
                if value.strip():
                    args[key] = value.strip()[:MAX_QUERY_CHARS]
        return args
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
