"""The ``list_documents`` tool's wire format and the questions it answers (pure).

The tool result lists the user's documents with the summary ``document_summarizer`` stored (title,
summary text, outline of headings) as ``<document_list>`` of ``<document>`` elements — data, escaped like
every tool result (``chat.models.tool_format``), without refs (a summary is not a citable passage; the
answer names the document and its pages instead).

``catalog_question`` tells the two question kinds apart — "what is this document about?" (``about``) and
"which document covers X?" (``which``, with the topic X) — in English, Korean and Japanese; ``rank``
orders documents by how much of a topic their title, outline and summary contain; ``catalog_answer`` is
the embedded ``LocalModel``'s answer from the listing (quoted, labelled as extractive).
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

LIST_DOCUMENTS = "list_documents"
#: outline entries and summary characters per document in a tool result (the listing stays small)
RESULT_OUTLINE = 30
RESULT_SUMMARY_CHARS = 1500

_LIST = re.compile(r"<document_list\b[^>]*>(.*?)</document_list>", re.DOTALL)
_DOC = re.compile(r"<document\s+([^>]*)>(.*?)</document>", re.DOTALL)
_ATTR = re.compile(r'([a-z_]+)="([^"]*)"')
_OUTLINE_LINE = re.compile(r"^(\s*)- (.*?)(?: \(p\. (\d+)\))?$")

_DOCWORD = r"(?:documents?|files?|pdfs?|reports?|papers?|filings?|uploads?)"
_ABOUT = [
    re.compile(r"\bwhat(?:'s| is| are| was| were)\s+(?:(?:this|the|that|these|those|my|our|each|all|your|its)\s+)?"
               r"(?:[\w.-]+\s+)?" + _DOCWORD + r"\s+(?:all\s+)?about\s*[?.!]*$", re.I),
    re.compile(r"\bwhat(?:'s| is)\s+\S+\.(?:pdf|png|jpe?g|tiff?|docx?)\s+about\s*[?.!]*$", re.I),
    re.compile(r"\b(?:summari[sz]e|summary of|overview of|outline of|gist of|tl;?dr)\b.{0,40}?\b" + _DOCWORD,
               re.I),
    re.compile(r"\bwhat (?:documents|files|reports) (?:do i have|are (?:there|uploaded)|did i upload)\b", re.I),
    re.compile(r"\bwhat(?:'s| is) (?:in|inside) (?:this|the|my|that) (?:document|file|pdf|report)\b", re.I),
    re.compile(r"(?:문서|파일|보고서|자료).{0,20}(?:무엇에 관한|무슨 내용|어떤 내용|요약|개요)"),
    re.compile(r"(?:文書|ファイル|資料|報告書|レポート).{0,20}(?:何について|要約|概要|どんな内容|何が書)"),
]
_WHICH = [
    re.compile(r"\b(?:which|what) " + _DOCWORD + r"\s+(?:covers?|discuss(?:es)?|mentions?|talks? about|"
               r"(?:is|are) about|contains?|deals? with|describes?|explains?|has|have|includes?|addresses|"
               r"(?:says?|tells?) (?:something |anything )?about)\s+(?P<topic>.+?)\s*[?.!]*$", re.I),
    re.compile(r"\b(?:in|from) (?:which|what) " + _DOCWORD + r"\s+(?:is|are|do|does|can)\s+(?P<topic>.+?)\s+"
               r"(?:discussed|covered|mentioned|described|explained|found|addressed)\s*[?.!]*$", re.I),
    re.compile(r"(?:어느|어떤|무슨)\s*(?:문서|파일|보고서|자료)(?:가|에서|에|이)\s*(?P<topic>.+?)"
               r"(?:을|를|에 대해|에 관해|에 대한 내용을|이|가)?\s*(?:다루|설명|언급|이야기|포함|담고|나와)"),
    re.compile(r"(?:どの|どちらの)(?:文書|ファイル|資料|報告書)(?:が|に|で)(?P<topic>.+?)(?:について|を|が|は)?"
               r"(?:扱|説明|記載|書|述べ|触れ|含)"),
]
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_STOP = frozenset("""a an the of and or in on at to for by with about from this that these those is are was were be
do does did it its their our your my me i we you they what which who whom how when where why any some all
document documents file files report reports page pages""".split())


@dataclass(frozen=True, slots=True)
class CatalogQuestion:
    kind: str  # "about" | "which"
    topic: str = ""


def catalog_question(question: str) -> CatalogQuestion | None:
    q = " ".join(question.split())
    for pattern in _WHICH:
        m = pattern.search(q)
        if m:
            topic = m.group("topic").strip(" ?.!\"'“”")
            if topic:
                return CatalogQuestion("which", topic)
    if any(p.search(q) for p in _ABOUT):
        return CatalogQuestion("about")
    return None


# --------------------------------------------------------------------------- the tool result


def _attr(value: object) -> str:
    return html.escape(str(value), quote=True)


def format_document_list(docs: Sequence[Mapping[str, Any]]) -> str:
    """Documents (``document_id``, ``file_name``, ``page_count``, ``status``, ``summary``) as one data block."""
    if not docs:
        return '<document_list count="0">\nThere are no documents in these projects yet.\n</document_list>'
    parts = [f'<document_list count="{len(docs)}">']
    for d in docs:
        summary = d.get("summary") if isinstance(d.get("summary"), Mapping) else None
        attrs = [f'document_id="{_attr(d.get("document_id", ""))}"', f'file_name="{_attr(d.get("file_name", ""))}"',
                 f'page_count="{int(d.get("page_count") or 0)}"', f'status="{_attr(d.get("status", ""))}"']
        lines: list[str] = []
        if summary is None:
            attrs.append('summary_kind="none"')
            lines.append("(not summarised yet)")
        else:
            attrs.append(f'summary_kind="{_attr(summary.get("kind", ""))}"')
            if summary.get("title"):
                lines.append("Title: " + str(summary["title"]))
            text = str(summary.get("text") or "")
            if text:
                cut = text if len(text) <= RESULT_SUMMARY_CHARS else text[: RESULT_SUMMARY_CHARS - 1] + "…"
                lines.append("Summary: " + cut.replace("\n", " "))
            outline = list(summary.get("outline") or [])[:RESULT_OUTLINE]
            if outline:
                lines.append("Outline:")
                top = min(int(h.get("level", 1)) for h in outline)
                lines += ["  " * max(0, int(h.get("level", 1)) - top) + f"- {h.get('text', '')} (p. {h.get('page')})"
                          for h in outline]
        body = html.escape("\n".join(lines), quote=False)
        parts.append(f"<document {' '.join(attrs)}>\n{body}\n</document>")
    parts.append("</document_list>")
    return "\n".join(parts)


def parse_document_list(text: str) -> list[dict[str, Any]]:
    """A ``list_documents`` result read back: ``[{document_id, file_name, page_count, status, summary_kind,
    title, summary, outline: [{level, text, page}]}]``; ``[]`` for anything else."""
    out: list[dict[str, Any]] = []
    for block in _LIST.findall(text):
        for raw_attrs, body in _DOC.findall(block):
            attrs = {k: html.unescape(v) for k, v in _ATTR.findall(raw_attrs)}
            doc: dict[str, Any] = {"document_id": attrs.get("document_id", ""), "file_name": attrs.get("file_name", ""),
                                   "page_count": int(attrs.get("page_count") or 0), "status": attrs.get("status", ""),
                                   "summary_kind": attrs.get("summary_kind", ""), "title": "", "summary": "",
                                   "outline": []}
            in_outline = False
            for line in html.unescape(body).strip("\n").splitlines():
                if line.startswith("Title: "):
                    doc["title"] = line[7:]
                elif line.startswith("Summary: "):
                    doc["summary"] = line[9:]
                elif line == "Outline:":
                    in_outline = True
                elif in_outline:
                    m = _OUTLINE_LINE.match(line)
                    if m:
                        doc["outline"].append({"level": len(m.group(1)) // 2 + 1, "text": m.group(2),
                                               "page": int(m.group(3) or 0)})
            out.append(doc)
    return out


# --------------------------------------------------------------------------- ranking and answering


def _terms(text: str) -> set[str]:
    words = {w.casefold() for w in _WORD.findall(text)}
    out = {w for w in words if len(w) >= 3 and w not in _STOP and not _CJK.search(w)}
    for w in words:  # CJK: character bigrams (no spaces between words)
        if _CJK.search(w):
            out |= {w[i:i + 2] for i in range(len(w) - 1)} or {w}
    return out


def _stem(term: str) -> str:
    for suffix in ("ations", "ation", "ings", "ing", "ies", "es", "s"):
        if len(term) > len(suffix) + 3 and term.endswith(suffix):
            return term[: -len(suffix)]
    return term


def score(topic: str, doc: Mapping[str, Any]) -> float:
    """How much of ``topic`` a document's title, outline (weighted up) and summary contain (0 = nothing)."""
    want = {_stem(t) for t in _terms(topic)}
    if not want:
        return 0.0
    head_text = " ".join([str(doc.get("title", "")), str(doc.get("file_name", "")),
                          *(str(h.get("text", "")) for h in doc.get("outline") or [])])
    heads = {_stem(t) for t in _terms(head_text)}
    text = doc.get("summary_text", doc.get("summary"))
    body = {_stem(t) for t in _terms(text if isinstance(text, str) else "")}
    return (2.0 * len(want & heads) + len(want & (body - heads))) / len(want)


def rank(topic: str, docs: Sequence[Mapping[str, Any]]) -> list[tuple[float, Mapping[str, Any]]]:
    scored = [(score(topic, d), d) for d in docs]
    return sorted(scored, key=lambda sd: -sd[0])


def _best_heading(topic: str, doc: Mapping[str, Any]) -> Mapping[str, Any] | None:
    want = {_stem(t) for t in _terms(topic)}
    best, hits = None, 0
    for h in doc.get("outline") or []:
        n = len(want & {_stem(t) for t in _terms(str(h.get("text", "")))})
        if n > hits:
            best, hits = h, n
    return best


_LABEL = {
    "extractive": "Extractive summary: the title, outline and sentences are quoted from the document (no "
                  "generative model is configured).",
    "generated": "The summary was written by the analysis model when the document was processed.",
}


def _first_sentence(text: str, limit: int = 240) -> str:
    m = re.search(r"(?<=[.!?。])\s", text)
    out = text[: m.start()] if m else text
    return out if len(out) <= limit else out[: limit - 1].rstrip() + "…"


def about_answer(docs: Sequence[Mapping[str, Any]]) -> str:
    if not docs:
        return "There are no documents in this conversation's projects yet."
    if len(docs) == 1:
        d = docs[0]
        name = f"**{d['file_name']}** ({d['page_count']} pages)"
        if d.get("summary_kind") in ("", "none"):
            return f"{name} has not been summarised yet (status: {d.get('status') or 'unknown'})."
        lines = [f"{name}: {d['title']}." if d.get("title") else name]
        if d.get("summary"):
            lines += ["", d["summary"]]
        if d.get("outline"):
            lines += ["", "Outline:"] + [f"- {h['text']} (p. {h['page']})" for h in d["outline"][:12]]
        lines += ["", f"({_LABEL.get(str(d.get('summary_kind')), _LABEL['extractive'])})"]
        return "\n".join(lines)
    lines = [f"There are {len(docs)} documents:"]
    kinds = set()
    for d in docs:
        kinds.add(str(d.get("summary_kind")))
        if d.get("summary_kind") in ("", "none"):
            lines.append(f"- **{d['file_name']}** — not summarised yet (status: {d.get('status') or 'unknown'})")
            continue
        about = d.get("title") or ""
        first = _first_sentence(str(d.get("summary") or ""))
        lines.append(f"- **{d['file_name']}** ({d['page_count']} pages) — {about}" + (f": {first}" if first else ""))
    lines += ["", f"({_LABEL['extractive' if 'extractive' in kinds else 'generated']})"]
    return "\n".join(lines)


def which_answer(topic: str, docs: Sequence[Mapping[str, Any]]) -> str | None:
    """The documents whose title, outline or summary cover ``topic`` — None when none does (search next)."""
    ranked = [(s, d) for s, d in rank(topic, docs) if s > 0]
    if not ranked:
        return None
    best = ranked[0][1]
    head = _best_heading(topic, best)
    where = f" — see “{head['text']}” (p. {head['page']})" if head else ""
    lines = [f"**{best['file_name']}** covers {topic}{where}."]
    if best.get("title"):
        lines.append(f"It is {best['title']!s}" + (f": {_first_sentence(str(best.get('summary') or ''))}"
                                                    if best.get("summary") else "."))
    others = [d for s, d in ranked[1:4] if s >= 0.5 * ranked[0][0]]
    if others:
        lines.append("Also: " + ", ".join(f"**{d['file_name']}**" for d in others) + ".")
    lines += ["", "(Found in the documents' titles, outlines and summaries; extractive mode.)"]
    return "\n".join(lines)


def search_answer(topic: str, sources: Sequence[Mapping[str, Any]]) -> str | None:
    """"Which document covers X" from search hits: the documents of the passages found, each with a citation."""
    want = {_stem(t) for t in _terms(topic)}
    seen: dict[str, Mapping[str, Any]] = {}
    for src in sources:  # only passages that contain the topic's words (search always returns something)
        if want & {_stem(t) for t in _terms(str(src.get("text", "")))}:
            seen.setdefault(str(src.get("document_id")), src)
    if not seen:
        return None
    parts = [f"**{s.get('file_name')}** (p. {s.get('page')}) [{s.get('ref')}]" for s in list(seen.values())[:4]]
    return (f"Passages about {topic} are in " + ", ".join(parts) + ".\n\n(No title, outline or summary mentions it; "
            "these are the best matching passages — extractive mode.)")
