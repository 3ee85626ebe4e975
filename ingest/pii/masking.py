"""Masking (pure): personal data → typed placeholders (``[PHONE_1]``), the same one for the same value.

``Placeholders`` is one document's numbering: the first phone number seen is ``[PHONE_1]``, the next
different one ``[PHONE_2]``; a value seen again (in another format — ``010-1234-5678`` / ``010 1234 5678``
— or on another page) gets its number back, so a model can still say "call [PHONE_1]". The ``pii`` step
builds it over the whole document and stores it with the document's results (``to_json``: the values are
there, next to the document text itself — never in items, logs or metrics); chat loads it to mask what
it sends to a remote model.

``mask`` replaces what ``detect`` finds and, besides, every value the document's numbering already knows
(a bank account whose label fell into the previous chunk is still masked in this one).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ingest.pii.detectors import Finding, detect, finding_key

#: raw forms shorter than this are not searched for literally (too likely to occur by chance)
MIN_LITERAL = 6


class Placeholders:
    """Value → placeholder for one document (numbered per type in order of first appearance)."""

    def __init__(self) -> None:
        self._by_key: dict[tuple[str, str], str] = {}
        self._counts: dict[str, int] = {}
        self._raw: dict[str, str] = {}  # a raw form seen in the document → its placeholder
        self._literal: re.Pattern[str] | None = None

    def __len__(self) -> int:
        return len(self._by_key)

    def placeholder(self, ftype: str, value: str) -> str:
        key = (ftype, finding_key(ftype, value))
        ph = self._by_key.get(key)
        if ph is None:
            self._counts[ftype] = self._counts.get(ftype, 0) + 1
            ph = f"[{ftype}_{self._counts[ftype]}]"
            self._by_key[key] = ph
        raw = value.strip()
        if len(raw) >= MIN_LITERAL and raw not in self._raw:
            self._raw[raw] = ph
            self._literal = None
        return ph

    def counts(self) -> dict[str, int]:
        """Distinct values per type (a metric: no values)."""
        return dict(self._counts)

    def literal_spans(self, text: str) -> list[tuple[int, int, str]]:
        """Where a raw form this document is known to contain occurs in ``text``: (start, end, placeholder)."""
        if not self._raw:
            return []
        if self._literal is None:
            alts = "|".join(re.escape(r) for r in sorted(self._raw, key=len, reverse=True))
            self._literal = re.compile(r"(?<![0-9A-Za-z])(?:" + alts + r")(?![0-9A-Za-z])")
        return [(m.start(), m.end(), self._raw[m.group(0)]) for m in self._literal.finditer(text)]

    # --- persistence (the document's results in the blob store, next to its text) ---

    def to_json(self) -> dict[str, Any]:
        entries = [{"type": t, "key": k, "placeholder": ph} for (t, k), ph in self._by_key.items()]
        return {"version": 1, "entries": entries, "raw": self._raw}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Placeholders:
        out = cls()
        if not data:
            return out
        for e in data.get("entries") or ():
            ftype, ph = str(e["type"]), str(e["placeholder"])
            out._by_key[(ftype, str(e["key"]))] = ph
            num = ph.rsplit("_", 1)[-1].rstrip("]")
            if num.isdigit():
                out._counts[ftype] = max(out._counts.get(ftype, 0), int(num))
        out._raw = {str(k): str(v) for k, v in (data.get("raw") or {}).items()}
        return out


def mask(text: str, placeholders: Placeholders | None = None,
         findings: Sequence[Finding] | None = None) -> str:
    """``text`` with every detected value (and every value ``placeholders`` knows) replaced."""
    ph = placeholders if placeholders is not None else Placeholders()
    found = list(findings) if findings is not None else detect(text)
    spans: list[tuple[int, int, str]] = [(f.start, f.end, ph.placeholder(f.type, text[f.start:f.end]))
                                         for f in found]
    taken = [(s, e) for s, e, _ in spans]
    for s, e, p in ph.literal_spans(text):
        if all(e <= a or s >= b for a, b in taken):
            spans.append((s, e, p))
            taken.append((s, e))
    return _replace(text, spans)


def mask_all(texts: Iterable[str], placeholders: Placeholders | None = None) -> list[str]:
    """Several texts with one numbering (a title request's question and answer, a tool result's hits)."""
    ph = placeholders if placeholders is not None else Placeholders()
    return [mask(t, ph) for t in texts]


def _replace(text: str, spans: Sequence[tuple[int, int, str]]) -> str:
    out: list[str] = []
    pos = 0
    for s, e, p in sorted(spans):
        if s < pos:
            continue
        out.append(text[pos:s])
        out.append(p)
        pos = e
    out.append(text[pos:])
    return "".join(out)
