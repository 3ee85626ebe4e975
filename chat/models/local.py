"""The embedded default model: an honest extractive answerer.

No LLM runs on the embedded backend. ``LocalModel`` still behaves like Claude on the wire:
for a new question it emits a real ``tool_use`` of ``search_documents`` (``list_documents`` for "what is
this document about?" / "which document covers X?", answered from the stored summaries,
``chat.models.catalog``); given the tool
result the reader (``chat.models.reader``) states the value it found with its citation ``[S#]`` /
``[P#]`` and the exact supporting quote — or says plainly that the documents don't say — and notes
that the answer is extractive. Everything is streamed as Anthropic Messages
events (text deltas, usage), so the agent loop, the store and the SSE relay run exactly as
with Bedrock.

It has no prompt cache: the usage it reports is the estimated input (``input_tokens``) with
no cache reads or writes. The prompt-cache hit ratio of the request layout is measured by the
cache simulator in ``bench.prompt_cache``.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from chat.models.accumulator import complete_via_stream
from chat.models.catalog import (
    LIST_DOCUMENTS,
    CatalogQuestion,
    about_answer,
    catalog_question,
    parse_document_list,
    search_answer,
    which_answer,
)
from chat.models.extractive import Language, split_sentences
from chat.models.port import PURPOSE_SUMMARY, PURPOSE_TITLE, ModelRequest
from chat.models.reader import Answer, Passage, read
from chat.models.reader.business import pages_to_read as business_pages
from chat.models.reader.cover_facts import covers_to_read as fact_covers
from chat.models.reader.covers import COVER_PAGE, company_names, cover_check_applies, covers_to_read
from chat.models.reader.decline import SURE_AT
from chat.models.reader.documents import name_query, pages_to_read
from chat.models.reader.filing_items import pages_to_read as filing_item_pages
from chat.models.reader.filing_items import vote_pages
from chat.models.reader.headquarters import asks_headquarters
from chat.models.reader.largest_items import pages_to_read as balance_sheet_pages
from chat.models.reader.queries import search_queries
from chat.models.reader.question import analyze
from chat.models.reader.registered import pages_to_read as cover_list_pages
from chat.models.reader.statement_pages import statement_followups, statement_pages_to_read
from chat.models.reader.superlatives import later_query as superlative_later
from chat.models.reader.superlatives import pages_to_read as superlative_pages
from chat.models.replies import Reply, Text, ToolUse, reply_events
from chat.models.tokens import estimate_request_tokens, estimate_tokens
from chat.models.tool_format import READ_PAGE, SEARCH_DOCUMENTS, SUMMARY_OPEN, parse_results, tool_result_text
from ingest.steps.identity import identity_names

LOCAL_MODEL_ID = "docchat-local-extractive"


# --------------------------------------------------------------------------- answering

_NOTHING: dict[Language, str] = {
    "en": "I found nothing in your documents that answers this question. (Extractive mode: no generative model "
    "is configured, so I can only quote passages that match the question.)",
    "ko": "문서에서 이 질문에 답하는 내용을 찾지 못했습니다. (추출형 모드: 생성형 모델이 설정되어 있지 않아 질문과 "
    "일치하는 문장만 인용할 수 있습니다.)",
    "ja": "文書の中にこの質問に答える内容は見つかりませんでした。（抽出モード：生成モデルが設定されていないため、"
    "質問に一致する文のみ引用できます。）",
    "zh": "文档中没有找到能回答这个问题的内容。（抽取模式：未配置生成式模型，只能引用与问题匹配的句子。）",
}


def _text_of(message: Mapping[str, Any]) -> str:
    content = message.get("content", "")
    if isinstance(content, str):
        return content
    parts = [
        str(b.get("text", ""))
        for b in content
        if isinstance(b, Mapping) and b.get("type") == "text" and not str(b.get("text", "")).startswith(SUMMARY_OPEN)
    ]
    return "\n".join(p for p in parts if p).strip()


def _is_tool_result_turn(message: Mapping[str, Any]) -> bool:
    content = message.get("content")
    return isinstance(content, list) and any(isinstance(b, Mapping) and b.get("type") == "tool_result" for b in content)


def latest_question(messages: Sequence[Mapping[str, Any]]) -> tuple[int, str]:
    """Index and text of the newest user turn that is a question (not a tool_result turn)."""
    for i in range(len(messages) - 1, -1, -1):
        m = messages[i]
        if m.get("role") == "user" and not _is_tool_result_turn(m):
            text = _text_of(m)
            if text:
                return i, text
    return -1, ""


def _sources_after(messages: Sequence[Mapping[str, Any]], index: int) -> tuple[list[dict[str, Any]], bool]:
    """Parsed sources from tool results after ``index``; the flag says whether any tool result exists."""
    sources: list[dict[str, Any]] = []
    seen: set[str] = set()
    any_result = False
    for m in messages[index + 1 :]:
        if m.get("role") != "user" or not isinstance(m.get("content"), list):
            continue
        for block in m["content"]:
            if isinstance(block, Mapping) and block.get("type") == "tool_result":
                any_result = True
                if block.get("is_error"):
                    continue
                for src in parse_results(tool_result_text(block)):
                    if src["ref"] not in seen:
                        seen.add(src["ref"])
                        sources.append(src)
    return sources, any_result


def _listings_after(messages: Sequence[Mapping[str, Any]], index: int) -> tuple[list[dict[str, Any]], bool, bool]:
    """The documents of ``list_documents`` results after ``index``; whether there was one; whether any other
    tool result (a search) came after ``index``."""
    docs: list[dict[str, Any]] = []
    found = other = False
    for m in messages[index + 1 :]:
        if m.get("role") != "user" or not isinstance(m.get("content"), list):
            continue
        for block in m["content"]:
            if isinstance(block, Mapping) and block.get("type") == "tool_result" and not block.get("is_error"):
                text = tool_result_text(block)
                if "<document_list" in text:
                    found = True
                    docs += parse_document_list(text)
                else:
                    other = True
            elif isinstance(block, Mapping) and block.get("type") == "tool_result":
                other = True
    return docs, found, other


def _used_tool(messages: Sequence[Mapping[str, Any]], index: int, name: str) -> bool:
    """A ``name`` tool_use was emitted after the question at ``index`` (it is not asked for twice)."""
    return any(
        isinstance(block, Mapping) and block.get("type") == "tool_use" and block.get("name") == name
        for m in messages[index + 1 :]
        if m.get("role") == "assistant" and isinstance(m.get("content"), list)
        for block in m["content"]
    )


def _pages_read(messages: Sequence[Mapping[str, Any]], index: int) -> set[tuple[str, int]]:
    """(document id, page) of every ``read_page`` asked for after the question at ``index``."""
    return {
        (str(block["input"].get("document_id")), int(block["input"].get("page") or 0))
        for m in messages[index + 1 :]
        if m.get("role") == "assistant" and isinstance(m.get("content"), list)
        for block in m["content"]
        if isinstance(block, Mapping) and block.get("type") == "tool_use" and block.get("name") == READ_PAGE
        and isinstance(block.get("input"), Mapping)
    }


def _searched(messages: Sequence[Mapping[str, Any]], index: int, query: str) -> bool:
    """``search_documents`` was asked for ``query`` after the question at ``index``."""
    return any(
        isinstance(block, Mapping) and block.get("type") == "tool_use" and block.get("name") == SEARCH_DOCUMENTS
        and isinstance(block.get("input"), Mapping) and block["input"].get("query") == _clip(query, 1000)
        for m in messages[index + 1 :]
        if m.get("role") == "assistant" and isinstance(m.get("content"), list)
        for block in m["content"]
    )


def passages_of(sources: Sequence[Mapping[str, Any]]) -> list[Passage]:
    """Parsed tool-result sources as the reader's passages."""
    return [
        Passage(
            ref=str(src["ref"]),
            text=str(src.get("text", "")),
            document_id=str(src.get("document_id", "")),
            file_name=str(src.get("file_name", "")),
            page=int(src.get("page") or 0),
            company="\n".join(identity_names(src)),  # its company, former names and tickers
            period_end=str(src.get("period_end") or ""),
        )
        for src in sources
    ]


def reader_answer(question: str, sources: Sequence[Mapping[str, Any]]) -> Answer:
    """The reader's answer: text that states the value with its citation (or declines), and the exact quotes."""
    return read(question, passages_of(sources))


def extractive_answer(question: str, sources: Sequence[Mapping[str, Any]]) -> str:
    """The cited answer text (or an honest "the documents don't say")."""
    return reader_answer(question, sources).text


def extractive_summary(transcript: str, budget_tokens: int) -> str:
    """Summarise a ``[role] text`` transcript (see ``chat.core.context``): every question, each answer's opening."""
    lines: list[str] = []
    for raw in transcript.splitlines():
        line = raw.strip()
        if line.startswith("[user]"):
            lines.append("- Q: " + _clip(line[len("[user]") :].strip(), 240))
        elif line.startswith("[assistant]"):
            body = line[len("[assistant]") :].strip()
            first = split_sentences(body)[:2]
            if first:
                lines.append("  A: " + _clip(" ".join(first), 300))
        elif line.startswith("[summary]"):
            lines.append(_clip(line[len("[summary]") :].strip(), 2000))
    # keep the newest lines that fit the budget
    out: list[str] = []
    used = 0
    for line in reversed(lines):
        cost = estimate_tokens(line) + 1
        if used + cost > budget_tokens:
            break
        out.append(line)
        used += cost
    out.reverse()
    header = "Earlier in this conversation (extractive summary):"
    return header + ("\n" + "\n".join(out) if out else " (nothing to keep)")


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


class LocalModel:
    """The embedded ``ChatModel``: tool call → quoted, cited sentences (no prompt cache)."""

    supports_compaction = False

    def __init__(
        self,
        *,
        context_window: int = 200_000,
        chunk_chars: int = 24,
        model_id: str = LOCAL_MODEL_ID,
    ) -> None:
        self.model_id = model_id
        self.context_window = context_window
        self.chunk_chars = chunk_chars

    def reply_for(self, request: ModelRequest) -> Reply:
        """What the model answers (pure apart from a fresh tool_use id)."""
        if request.purpose == PURPOSE_TITLE:
            _, question = latest_question(request.messages)
            return Reply(Text(_clip(question, 60) or "New conversation", chunk=self.chunk_chars))
        if request.purpose == PURPOSE_SUMMARY:
            transcript = _text_of(request.messages[-1]) if request.messages else ""
            return Reply(Text(extractive_summary(transcript, max(request.max_tokens, 64)), chunk=256))
        index, question = latest_question(request.messages)
        if index < 0:
            return Reply(Text(_NOTHING["en"], chunk=self.chunk_chars))
        sources, any_result = _sources_after(request.messages, index)
        tool_names = {str(t.get("name")) for t in request.tools}
        tools_allowed = (request.tool_choice or {}).get("type") != "none"
        about = catalog_question(question)
        if about is not None:
            reply = self._catalog_reply(request.messages, index, about, sources, tool_names, tools_allowed)
            if reply is not None:
                return reply
        if not any_result and SEARCH_DOCUMENTS in tool_names and tools_allowed:
            return Reply(*(ToolUse(SEARCH_DOCUMENTS, {"query": _clip(query, 1000)},
                                   id="toolu_local_" + uuid.uuid4().hex[:20])
                           for query in search_queries(question)))
        if SEARCH_DOCUMENTS in tool_names and tools_allowed:  # the later filing's breakdown, for "which … highest"
            later = superlative_later(question, passages_of(sources))
            if later and not _searched(request.messages, index, later):
                return Reply(ToolUse(SEARCH_DOCUMENTS, {"query": _clip(later, 1000)},
                                     id="toolu_local_" + uuid.uuid4().hex[:20]))
        if SEARCH_DOCUMENTS in tool_names and tools_allowed:  # the statement's page, when no result is one
            follow = [f for f in statement_followups(question, passages_of(sources))
                      if not _searched(request.messages, index, f)]
            if follow and not any(_searched(request.messages, index, f)
                                  for f in statement_followups(question, [])):
                return Reply(*(ToolUse(SEARCH_DOCUMENTS, {"query": _clip(f, 1000)},
                                       id="toolu_local_" + uuid.uuid4().hex[:20]) for f in follow))
        answer = reader_answer(question, sources)
        asked = analyze(question)
        if not answer.declined and tools_allowed and READ_PAGE in tool_names and cover_check_applies(asked):
            read_before = _pages_read(request.messages, index)  # (a statement page read does not say whose it is)
            found = passages_of(sources)
            covers = [doc for doc in covers_to_read(company_names(asked, found), [ref for ref, _ in answer.quotes],
                                                    found)  # whose filing: the cover page says
                      if (doc, COVER_PAGE) not in read_before]
            if covers:
                return Reply(*(ToolUse(READ_PAGE, {"document_id": doc, "page": COVER_PAGE},
                                       id="toolu_local_" + uuid.uuid4().hex[:20]) for doc in covers))
        if tools_allowed and READ_PAGE in tool_names:  # "which region had the highest …": the whole breakdown
            wanted = [w for w in [*superlative_pages(question, passages_of(sources)),
                                  *balance_sheet_pages(question, passages_of(sources)),
                                  *cover_list_pages(question, asked, passages_of(sources)),
                                  *business_pages(question, asked, passages_of(sources)),
                                  *filing_item_pages(question, passages_of(sources)),
                                  *vote_pages(question, passages_of(sources))]
                      if w not in _pages_read(request.messages, index)]
            if wanted:
                return Reply(*(ToolUse(READ_PAGE, {"document_id": doc, "page": page},
                                       id="toolu_local_" + uuid.uuid4().hex[:20]) for doc, page in wanted))
        if tools_allowed and READ_PAGE in tool_names:  # a statement's title came back, its grid did not
            wanted = [w for w in statement_pages_to_read(question, passages_of(sources))
                      if w not in _pages_read(request.messages, index)]
            if wanted:
                return Reply(*(ToolUse(READ_PAGE, {"document_id": doc, "page": page},
                                       id="toolu_local_" + uuid.uuid4().hex[:20]) for doc, page in wanted))
        unanswered = (answer.declined or answer.confidence < SURE_AT) and tools_allowed
        if unanswered and READ_PAGE in tool_names:  # headquarters, incorporation, exchange, shares: the cover says
            wanted = [w for w in fact_covers(asked, passages_of(sources), headquarters=asks_headquarters(asked))
                      if w not in _pages_read(request.messages, index)]
            if wanted:
                return Reply(*(ToolUse(READ_PAGE, {"document_id": doc, "page": page},
                                       id="toolu_local_" + uuid.uuid4().hex[:20]) for doc, page in wanted))
        by_name = name_query(question, passages_of(sources)) if unanswered else ""
        if by_name and SEARCH_DOCUMENTS in tool_names and not _searched(request.messages, index, by_name):
            return Reply(ToolUse(SEARCH_DOCUMENTS, {"query": _clip(by_name, 1000)},  # the named document, by name
                                 id="toolu_local_" + uuid.uuid4().hex[:20]))
        if unanswered and READ_PAGE in tool_names and not _used_tool(request.messages, index, READ_PAGE):
            pages = pages_to_read(question, passages_of(sources))  # the named document's pages may say it
            if pages:
                return Reply(*(ToolUse(READ_PAGE, {"document_id": doc, "page": page},
                                       id="toolu_local_" + uuid.uuid4().hex[:20]) for doc, page in pages))
        return Reply(Text(answer.text, chunk=self.chunk_chars))

    def _catalog_reply(self, messages: Sequence[Mapping[str, Any]], index: int, cq: CatalogQuestion,
                       sources: Sequence[Mapping[str, Any]], tool_names: set[str], tools_allowed: bool) -> Reply | None:
        """"What is this document about?" / "Which document covers X?": ``list_documents``, then the summaries;
        a topic no summary covers is searched for. None: answer as any other question."""
        docs, listed, searched = _listings_after(messages, index)
        if not listed:  # (a failed listing is not asked for again: the question is answered like any other)
            if not searched and LIST_DOCUMENTS in tool_names and tools_allowed:
                return Reply(ToolUse(LIST_DOCUMENTS, {"query": cq.topic} if cq.topic else {},
                                     id="toolu_local_" + uuid.uuid4().hex[:20]))
            return None
        if cq.kind == "about":
            return Reply(Text(about_answer(docs), chunk=self.chunk_chars))
        answer = which_answer(cq.topic, docs)
        if answer is None and sources:
            answer = search_answer(cq.topic, sources)
        elif answer is None and not searched and SEARCH_DOCUMENTS in tool_names and tools_allowed:
            return Reply(ToolUse(SEARCH_DOCUMENTS, {"query": _clip(cq.topic, 1000)},
                                 id="toolu_local_" + uuid.uuid4().hex[:20]))
        if answer is None:
            answer = (f"None of your documents' titles, outlines or summaries mention {cq.topic}, and I found no "
                      "passage about it. (Extractive mode: no generative model is configured.)")
        return Reply(Text(answer, chunk=self.chunk_chars))

    def _answer(self, request: ModelRequest) -> tuple[Reply, int]:
        return self.reply_for(request), estimate_request_tokens(request)

    async def stream(self, request: ModelRequest) -> AsyncIterator[dict[str, Any]]:
        # reading the passages and estimating a long history is CPU work: keep it off the event loop
        reply, input_tokens = await asyncio.to_thread(self._answer, request)
        events = reply_events(
            reply,
            model=request.model or self.model_id,
            message_id="msg_local_" + uuid.uuid4().hex[:24],
            input_tokens=input_tokens,  # no prompt cache: no cache reads or writes are reported
        )
        for n, event in enumerate(events):
            if isinstance(event, dict):
                yield event
            if n % 16 == 15:
                await asyncio.sleep(0)  # stay cooperative on long answers

    async def complete(self, request: ModelRequest) -> dict[str, Any]:
        return await complete_via_stream(self, request)

    def count_tokens(self, request: ModelRequest) -> int:
        return estimate_request_tokens(request)
