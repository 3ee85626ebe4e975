"""The document a question names, as a selector over the search results (pure).

A question may say which document it is about — "the total on the receipt **from KEDAI MAJU SDN BHD dated
02/12/2017**", "revenue **in Apple's 10-K**", "the date **in invoice-0042.pdf**", "**카페 봄날의 영수증**",
"**さくら書店の領収書**". That clause does not say what is asked; it picks the document. ``parse_selector`` takes it out
of the question (names, a date qualifier, a total qualifier such as "with the total 9.00") and gives back the
asked question; ``select`` keeps the search results of the documents that match and says when none does.

A document matches a name when its file name, the first lines of one of its passages (where a receipt or a
letter prints who issued it) or — more weakly — any of its text holds the name, compared OCR-tolerantly:
case, punctuation and spacing ignored, legal suffixes optional (``SDN BHD``, ``Inc.``, ``(M)``, ``주식회사``,
``株式会社``), characters OCR confuses read alike (``0/O``, ``1/l/I``, ``5/S``), and 1–3 edits allowed by the
name's length (an approximate substring match). A date qualifier keeps the matched documents that print that
date (either day/month order); a total qualifier those that print that amount — each only when some do.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from chat.models.reader.passage import Passage
from chat.models.reader.periods import Period
from chat.models.reader.shapes import find_dates, monies, readings

_DOC_EN = (
    r"(?:tax\s+)?(?:receipts?|invoices?|bills?|till\s+slips?|statements?|(?:annual\s+|quarterly\s+)?reports?|"
    r"filings?|10-?[KQ]s?|20-?F|8-?K|documents?|files?|forms?|letters?|contracts?|brochures?|slips?)"
)
#: Korean / Japanese words for a document that someone issues (a receipt, a bill, a filing) — not generic
#: "report / material / file", which a question about an article's content uses for other things
_KO_DOC = r"(?:영수증|세금계산서|계산서|청구서|거래명세서|사업보고서|감사보고서|분기보고서|반기보고서)"
_JA_DOC = r"(?:領収書|レシート|請求書|納品書|有価証券報告書|決算短信)"
_STOP = (
    r"(?=\s+(?:dated|issued\s+on|on\s+(?=\d)|with\s+(?:the|a)\s+(?:grand\s+)?total|totall?ing|for\s+the\s+"
    r"(?:amount|total)|in\s+the\s+amount)\b|\s*[?？,;]|\s*$"
    # what the document is about, after its issuer ("a report by Acme on net-zero emissions policies")
    r"|\s+(?:on|about|regarding|concerning)\s+(?-i:(?![A-Z0-9])))"
)
#: what a financial statement's title names after "statement of": its subject, not who issued it ("the statement of
#: income and the statement of cash flows" names no document's issuer)
_STATEMENT_SUBJECT = (
    r"(?:the\s+)?(?:consolidated\s+)?(?:income|operations|cash\s*flows?|financial\s+(?:position|condition)|"
    r"earnings|comprehensive|(?:stock|share)holders|changes|equity|retained|profit|loss|revenues?|expenses?)\b"
)
_NAMED_DOC = re.compile(
    rf"\b(?:on|in|of|from|for|at)\s+(?:the|this|that|a|an|my|our)\s+(?:[\w-]+\s+)?{_DOC_EN}\s+"
    rf"(?:from|of|by|at|issued\s+by)\s+(?!{_STATEMENT_SUBJECT})(?P<name>\S.*?){_STOP}",
    re.IGNORECASE,
)
_PROPER = r"(?:[A-Z0-9&][\w&.\-]*)(?:\s+(?:[A-Z0-9&(][\w&.\-)]*|of|and|de))*"
_POSSESSIVE_DOC = re.compile(
    rf"\b(?:(?:in|from|on|of)\s+)?(?P<name>{_PROPER})['’]s?\s+(?:(?:latest|last|most\s+recent|(?:fiscal\s+)?"
    rf"(?:19|20)\d\d|FY\s?\d{{2,4}}|Q[1-4])\s+)?(?P<doc>{_DOC_EN})\b"
)
_FILE = re.compile(
    r"(?:\b(?:in|from|of|on)\s+(?:the\s+)?(?:file\s+|document\s+)?)?(?P<q>[\"“'‘]?)"
    r"(?P<name>[\w][\w.\-]*\.(?:pdf|jpe?g|png|tiff?|docx?|xlsx?|pptx?|txt|md|html?|csv))(?P=q)",
    re.IGNORECASE,
)
_KO_NAMED = re.compile(
    rf"(?P<name>(?:[^\s?？]+\s+){{0,2}}?[^\s?？]+?)\s*의\s*{_KO_DOC}|(?P<bare>[^\s?？]+)\s+{_KO_DOC}"
)
_JA_NAMED = re.compile(rf"[「『]?(?P<name>[^\sのはがを、。？?「」『』]+)[」』]?(?:発行)?の{_JA_DOC}")
_KO_NOT_NAME = re.compile(
    r"^(?:이|그|저|해당|위|아래|첨부된|첨부한|업로드한|올린|이번|지난|최근|다음)$|(?:은|는|이|가|을|를|에서|에)$"
)
_DATE_LEAD = re.compile(r"(?:\bdated(?:\s+on)?|\bissued\s+on|\bon)\s+$", re.IGNORECASE)
_DATE_TAIL = re.compile(rf"^\s*(?:자|일자|의|の)?\s*(?:{_KO_DOC}|{_JA_DOC})")
_AMOUNT_QUAL = re.compile(
    r"\bwith\s+(?:the|a)\s+(?:grand\s+)?total(?:\s+amount)?(?:\s+of)?\s*[:=]?\s*(?P<a>(?:RM|USD|S?\$|€|£|¥)?\s?[^\s?？,;]+)|"
    r"\btotall?ing\s+(?P<b>[^\s?？,;]+)|\b(?:for|in)\s+the\s+amount\s+of\s+(?P<c>[^\s?？,;]+)|"
    r"(?:합계|총액|금액)(?:이|가)?\s*(?P<d>[\d,.]+\s?원?)인|(?P<e>[¥￥]?[\d,]+円?)の(?:領収書|レシート)",
    re.IGNORECASE,
)
_LEGAL = re.compile(
    r"(?:\b(?:SDN\.?\s*BHD|S/B|BHD|BERHAD|PTE\.?\s*LTD|PVT\.?\s*LTD|CO\.?\s*LTD|LTD|LIMITED|INC|INCORPORATED|CORP|"
    r"CORPORATION|CO|COMPANY|LLC|LLP|PLC|GMBH|AG|SA|NV|BV|KK)\b\.?|\((?:M|MALAYSIA|S|SG)\)|주식회사|\(주\)|㈜|"
    r"株式会社|有限会社|\(株\)|㈱)",
    re.IGNORECASE,
)
_OCR = str.maketrans({"0": "O", "1": "I", "L": "I", "|": "I", "!": "I", "5": "S", "$": "S", "8": "B", "@": "A"})
_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{1,4}$")
#: lines at the top of a passage where a document says who issued it
HEAD_LINES = 10
#: share of a garbled name's words (its first one among them) a document's first lines (a short one: its
#: text) must hold
WORDS_PRESENT = 0.75
#: a passage this short (a receipt) is searched for a garbled name throughout, not only in its first lines
FUZZY_BODY_CHARS = 4000


@dataclass(frozen=True, slots=True)
class Selector:
    names: tuple[str, ...] = ()
    dates: tuple[Period, ...] = ()
    amounts: tuple[float, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.names or self.dates or self.amounts)


@dataclass(frozen=True, slots=True)
class Selection:
    passages: tuple[Passage, ...]
    missing: tuple[str, ...]  # names no retrieved document matches
    found: tuple[str, ...]  # what the retrieved documents are (for a decline's suggestion)


def _has_name_shape(name: str) -> bool:
    """A name: a capital letter, a digit or a non-Latin letter, and not only generic words."""
    words = re.findall(r"[^\W_]+", name)
    if not words or not re.search(r"[A-Z0-9]|[^\x00-\x7f]", name):
        return False
    generic = {"the", "a", "an", "this", "that", "my", "our", "its", "their", "company", "shop", "store", "it"}
    return any(w.lower() not in generic for w in words)


def parse_selector(question: str) -> tuple[Selector, str]:
    """The document selector the question states, and the question without it (unchanged when it has none)."""
    text = " ".join(question.split())
    names: list[str] = []
    spans: list[tuple[int, int]] = []
    replacements: list[tuple[int, int, str]] = []
    for m in _NAMED_DOC.finditer(text):
        name = re.sub(r"(?i)^the\s+", "", m.group("name").strip(" ."))
        if _has_name_shape(name) and not _only_dates(name):
            names.append(name)
            spans.append((m.start("name") - _lead_len(text, m.start("name")), m.end("name")))
    for m in _POSSESSIVE_DOC.finditer(text):
        name = m.group("name")
        if _has_name_shape(name) and not any(s <= m.start("name") < e for s, e in spans) and not _only_dates(name):
            names.append(name)
            replacements.append((m.start("name"), m.start("doc"), "the "))
    for m in _FILE.finditer(text):
        if not any(s <= m.start("name") < e for s, e in spans):
            names.append(m.group("name"))
            spans.append((m.start(), m.end()))
    for m in _KO_NAMED.finditer(text):
        name = (m.group("name") or m.group("bare") or "").strip()
        words = [w for w in name.split() if not _KO_NOT_NAME.search(w) and not re.search(r"\d", w)]
        if m.group("name"):  # "… 카페 봄날의": keep the words after the last particle-ended one
            kept: list[str] = []
            for w in reversed(name.split()):
                if _KO_NOT_NAME.search(w) or find_dates(w) or re.search(r"\d", w):
                    break
                kept.insert(0, w)
            words = kept
        if words and _has_name_shape(" ".join(words)):
            start = m.start() + m.group(0).index(words[0])
            names.append(" ".join(words))
            spans.append((start, start + len(" ".join(words)) + (1 if m.group("name") else 0)))
    for m in _JA_NAMED.finditer(text):
        name = m.group("name")
        if _has_name_shape(name) and not find_dates(name) and not re.fullmatch(r"[この-んその]+", name):
            names.append(name)
            spans.append((m.start(), m.end("name") + (1 if text[m.end("name") : m.end("name") + 1] in "」』" else 0)
                          + 1))
    dates: list[Period] = []
    receipt_like = bool(re.search(r"(?i)\b(?:receipt|invoice|bill|slip)s?\b", text))
    for p in find_dates(text):
        lead = _DATE_LEAD.search(text[: p.start])
        if lead and (lead.group(0).strip().lower() != "on" or receipt_like):
            dates.append(p)
            spans.append((lead.start(), p.end))
        elif _DATE_TAIL.match(text[p.end :]):
            dates.append(p)
            tail = re.match(r"\s*(?:자|일자|의|の)?", text[p.end :])
            spans.append((p.start, p.end + (tail.end() if tail else 0)))
    amounts: list[float] = []
    for m in _AMOUNT_QUAL.finditer(text):
        raw = next(g for g in m.groups() if g)
        found = monies(raw.rstrip("?？.,")) or monies(raw.rstrip("?？.,") + ".00")
        if found:
            amounts.append(found[0].value)
            key = next(k for k in "abcde" if m.group(k))
            spans.append((m.start(), m.end() if key == "d" else m.end(key) + (1 if key == "e" else 0)))
    if not (names or dates or amounts):
        return Selector(), question
    asked = text
    edits = [(s, e, "") for s, e in spans] + replacements
    for s, e, new in sorted(_merge(edits), reverse=True):
        asked = asked[:s] + new + asked[e:]
    asked = re.sub(r"\s+([?？.,])", r"\1", " ".join(asked.split())).strip()
    if lang_is_cjk(asked):
        asked = re.sub(r"^\s*(?:의|の)\s*", "", asked)
    return Selector(tuple(dict.fromkeys(names)), tuple(dates), tuple(amounts)), asked or question


def lang_is_cjk(text: str) -> bool:
    return bool(re.search(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]", text))


def _merge(edits: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    for s, e, new in sorted(edits):
        if out and s < out[-1][1]:
            ps, pe, pnew = out[-1]
            out[-1] = (ps, max(pe, e), pnew or new)
        else:
            out.append((s, e, new))
    return out


def _lead_len(text: str, at: int) -> int:
    """Length of "from " / "issued by " before a name (removed with it)."""
    m = re.search(r"(?:from|of|by|at|issued\s+by)\s+$", text[:at], re.IGNORECASE)
    return len(m.group(0)) if m else 0


def _only_dates(name: str) -> bool:
    rest = name
    for p in sorted(find_dates(name), key=lambda p: -p.start):
        rest = rest[: p.start] + rest[p.end :]
    return not re.search(r"[^\W\d_]{2,}", rest)


# ----------------------------------------------------------------------------------------------- matching


def compact(text: str) -> str:
    """Case, punctuation and spacing folded; characters OCR confuses read alike; ``&`` as AND."""
    folded = unicodedata.normalize("NFKC", text).upper().replace("&", "AND")
    return re.sub(r"[\W_]+", "", folded).translate(_OCR)


def core_name(name: str) -> str:
    """``name`` without its legal suffixes and bracketed country marks (unless nothing else is left)."""
    stripped = " ".join(_LEGAL.sub(" ", name).split()).strip(" ,.-")
    return stripped if len(compact(stripped)) >= 3 else name


def allowed_edits(length: int) -> int:
    """Characters OCR may have got wrong in a name of ``length`` (compacted) characters."""
    if length <= 4:
        return 0
    return 1 if length <= 9 else 2 if length <= 24 else 3


def fuzzy_find(needle: str, haystack: str, k: int) -> bool:
    """``needle`` occurs in ``haystack`` with at most ``k`` edits (approximate substring match, Sellers)."""
    if not needle:
        return False
    if needle in haystack:
        return True
    if k == 0 or len(haystack) < len(needle) - k:
        return False
    prev = list(range(len(needle) + 1))
    for ch in haystack:
        cur = [0]
        for j, nc in enumerate(needle, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (nc != ch)))
        if cur[-1] <= k:
            return True
        prev = cur
    return False


def _key(p: Passage) -> str:
    return p.document_id or p.file_name or p.ref


def _head(p: Passage) -> str:
    return "\n".join([line for line in p.text.splitlines() if line.strip()][:HEAD_LINES])


def match_strength(name: str, docs: Sequence[Passage]) -> int:
    """2: the file name or a passage's first lines hold ``name``; 1: some text holds it; 0: none does."""
    core = compact(core_name(_EXTENSION.sub("", name)))
    full = compact(_EXTENSION.sub("", name))
    if not core:
        return 0
    k = allowed_edits(len(core))
    for p in docs:
        stem = compact(_EXTENSION.sub("", p.file_name))
        if (core in stem or full in stem) or (stem and len(stem) >= 4 and stem == core):
            return 2
        head = compact(_head(p))
        if fuzzy_find(core, head, k):
            return 2
    for p in docs:
        body = compact(p.text)
        if core in body or (len(p.text) <= FUZZY_BODY_CHARS and fuzzy_find(core, body, k)):
            return 1
    words = [compact(w) for w in re.findall(r"[^\W_]{3,}", core_name(name))]
    if len(words) >= 2:  # OCR garbled the name beyond its edits: most of its words, its first one among them
        for p in docs:
            seen = p.text if len(p.text) <= FUZZY_BODY_CHARS else _head(p)
            present = {compact(w) for w in re.findall(r"[^\W_]{2,}", seen)}
            hits = [any(fuzzy_find(w, t, 0 if len(w) <= 3 else 1 if len(w) <= 9 else 2) and abs(len(t) - len(w)) <= 1
                        for t in present)
                    for w in words]
            if hits[0] and sum(hits) / len(hits) >= WORDS_PRESENT:
                return 1
    return 0


def _prints_date(docs: Sequence[Passage], want: Period) -> bool:
    wanted = readings(want)
    return any(readings(d) & wanted for p in docs for d in find_dates(p.text))


def _prints_amount(docs: Sequence[Passage], value: float) -> bool:
    return any(abs(m.value - value) < 0.005 for p in docs for m in monies(p.text))


def _what_it_is(docs: Sequence[Passage]) -> str:
    p = docs[0]
    for line in p.text.splitlines()[:HEAD_LINES]:
        line = line.strip(" |#*")
        if len(re.findall(r"[^\W\d_]", line)) >= 4 and len(re.findall(r"\d", line)) <= 2:
            line = line if len(line) <= 48 else line[:47].rstrip() + "…"
            return f"{p.file_name} ({line})" if p.file_name else line
    return p.file_name or p.document_id or p.ref


def select(selector: Selector, passages: Sequence[Passage]) -> Selection:
    """The passages of the documents ``selector`` picks (see the module docstring)."""
    groups: dict[str, list[Passage]] = {}
    for p in passages:
        groups.setdefault(_key(p), []).append(p)
    found = tuple(_what_it_is(docs) for docs in groups.values())
    chosen = list(groups)
    missing: list[str] = []
    for name in selector.names:
        strengths = {key: match_strength(name, groups[key]) for key in chosen}
        best = max(strengths.values(), default=0)
        if best == 0:
            missing.append(name)
            continue
        chosen = [key for key in chosen if strengths[key] == best]
    if missing:
        return Selection((), tuple(missing), found)
    for want in selector.dates:
        dated = [key for key in chosen if _prints_date(groups[key], want)]
        chosen = dated or chosen
    for value in selector.amounts:
        priced = [key for key in chosen if _prints_amount(groups[key], value)]
        chosen = priced or chosen
    keep = set(chosen)
    return Selection(tuple(p for p in passages if _key(p) in keep), (), found)


_EN_INDIRECT = re.compile(
    r"^(what|who|when|where|which|whose|how much|how many)\s+(is|are|was|were)\s+(.+?)[?？.]*$", re.IGNORECASE
)


def not_found(lang: str, asked: str, selection: Selection) -> str:
    """The decline when no retrieved document is the one the question names (nothing cited): what was found."""
    names = [f"“{n}”" for n in selection.missing]
    found = list(selection.found[:4])
    if lang == "ko":
        seen = f" 검색된 문서: {', '.join(found)}." if found else " 검색 결과가 없습니다."
        who = ", ".join(names)
        return f"문서에서 {who}의 문서를 찾을 수 없습니다. 검색된 문서 중 {who}의 것은 없습니다.{seen}"
    if lang in ("ja", "zh"):
        seen = f"検索された資料：{'、'.join(found)}。" if found else "検索結果はありませんでした。"
        who = "、".join(names)
        return f"{who}の資料は見つかりません。検索された資料はいずれも{who}のものではありません。{seen}"
    m = _EN_INDIRECT.match(" ".join(asked.split()))
    what = f"{m.group(1).lower()} {m.group(3)} {m.group(2)}" if m else f"anything that answers “{asked}”"
    seen = f" The documents found are: {'; '.join(found)}." if found else " The search found no matching passages."
    return (f"The documents don't say {what}: none of the documents found is from {' or '.join(names)}.{seen}")


#: pages the local model reads when no search result is from the document the question names
PAGES_TO_READ = 3


def pages_to_read(question: str, passages: Sequence[Passage]) -> list[tuple[str, int]]:
    """(document_id, page) of pages to read in full when the question names a document and its search results
    did not answer it: a receipt split into chunks may have its issuer's name, or its total, only in a chunk
    the search did not return. The named documents' pages when some result matches, else the top results'
    pages. Empty when nothing is named or a page was read already."""
    selector, _ = parse_selector(question)
    if not selector.names or not passages or any(p.ref.startswith("P") for p in passages):
        return []
    selection = select(selector, passages)
    out: list[tuple[str, int]] = []
    for p in selection.passages if not selection.missing else passages:
        key = (p.document_id, p.page)
        if p.document_id and p.page > 0 and key not in out:
            out.append(key)
        if len(out) >= PAGES_TO_READ:
            break
    return out


def name_query(question: str, passages: Sequence[Passage]) -> str:
    """A search query for the document the question names when no search result is from it: its name alone
    (the question's other words may have ranked other documents' passages first). Empty otherwise."""
    selector, _ = parse_selector(question)
    if not selector.names or any(p.ref.startswith("P") for p in passages):
        return ""
    missing = select(selector, passages).missing if passages else selector.names
    return " ".join(missing)
