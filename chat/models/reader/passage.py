"""The reader's input and output (pure data)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from chat.models.extractive import Language


@dataclass(frozen=True, slots=True)
class Passage:
    """One source the answer may cite: a search hit (``S1``) or a page (``P1``)."""

    ref: str
    text: str
    document_id: str = ""
    file_name: str = ""
    page: int = 0
    lines: tuple[str, ...] = ()  # OCR lines: with an empty ``text`` they become the text (one per line)
    #: whose document it is (``ingest.steps.identity``): the company, its former names and tickers, one per line
    company: str = ""
    #: the latest date its document speaks of (ISO, ``ingest.steps.identity``: a cover's period, a release's
    #: date); "" when not known
    period_end: str = ""

    def __post_init__(self) -> None:
        if not self.text and self.lines:
            object.__setattr__(self, "text", "\n".join(self.lines))

    def title(self) -> str:
        """Its document's title as the file name gives it: the name without its extension, underscores read as
        spaces ("노아의_방주.pdf" → "노아의 방주"); "" without a file name."""
        return re.sub(r"_+", " ", re.sub(r"\.[A-Za-z][A-Za-z0-9]{1,4}$", "", self.file_name)).strip()

    def owner_only(self) -> Passage:
        """The passage without its text (nor OCR lines): whose document it is, by its file name and identity."""
        return replace(self, text="", lines=())


@dataclass(frozen=True, slots=True)
class Answer:
    """The answer text, and for each citation the exact quoted text (a substring of that passage's ``text``)."""

    text: str
    quotes: tuple[tuple[str, str], ...]  # (ref, quote)
    declined: bool
    confidence: float  # the best evidence score (0 when nothing matched)
    language: Language
    #: why the reader answered as it did, for diagnostics (``decline.decline_reason`` and the answering paths):
    #: "sure", "unsure", "computed", or a decline's cause ("no-evidence", "low-score", "name-missing",
    #: "no-amount", "period-not-covered", "document-not-found"); several parts joined by "+"
    why: str = ""
