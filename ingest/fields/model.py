"""Claude's key fields (``DOCCHAT_ANALYSIS_MODEL=bedrock``) and their agreement with the rules, all pure.

The page analysis (``ingest.analysis.bedrock``) asks the model, in the same tool call that records the page's
layout, for the page's key fields: ``kind`` (total, date, ...), ``value`` exactly as printed, ``normalized``
and the number of the text line it read the value from. :func:`validated` keeps only what can be checked:
a known kind, a cited line that exists, a value that is printed on that line (the text the model saw: a value
it did not read off the page is dropped, never trusted), no masked placeholder, and a normal form that we
derive ourselves from the value (an amount's decimal; of a date's two readings ``03/04`` the one the model
chose). The field's box is the cited line's box.

:func:`merge` then puts the two sources side by side per field: the same normal form from the rules and the
model is two independent readings (the chance both are wrong is the product: confidence rises); different
ones send the field to a person with the reason ``sources_disagree`` (the rules' :func:`check` reads
``evidence["disagree"]``); a field only the model found is a ``model`` field with the model's prior × the
OCR score of its line (under the amount bar: it is reviewed).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from decimal import Decimal
from typing import Any

from ingest.fields.extract import AMOUNT_FIELDS, DATE_FIELDS, STRENGTH, Field, _combine
from ingest.fields.parse import amounts, currency_of, dates

#: the kinds the model may report (the rules' field names, line items aside)
MODEL_KINDS = ("company", "date", "due_date", "total", "subtotal", "tax", "service", "rounding", "cash", "change",
               "doc_number")
#: how often a value the model read off its cited line is right on its own (a prior, like the rules' STRENGTH);
#: under the amount bar (0.98) by design: the model alone never accepts an amount
MODEL_PRIOR = 0.9
_PLACEHOLDER = re.compile(r"\[[A-Z][A-Z_]*_\d+\]")

FIELDS_SCHEMA: dict[str, Any] = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "kind": {"type": "string", "enum": list(MODEL_KINDS)},
            "value": {"type": "string"},
            "normalized": {"type": "string"},
            "line": {"type": "integer", "minimum": 0},
        },
        "required": ["kind", "value", "line"],
    },
}
PROMPT = """- fields: the page's key fields, each once: kind (company = the issuing organisation; date = the
  issue date; due_date; total = the amount to pay; subtotal; tax; service; rounding; cash = the amount tendered;
  change; doc_number = invoice/receipt number), value exactly as printed, normalized (a date as YYYY-MM-DD, an
  amount as a plain decimal such as 1234.50) and line: the number of the one text line the value is printed
  on. Leave out a field the page does not print."""


def _squash(text: str) -> str:
    return " ".join(text.split()).casefold()


def company_key(text: str) -> str:
    return re.sub(r"[^0-9A-Z가-힣ぁ-んァ-ン一-龥]", "", text.upper())


def _normal(kind: str, value: str, claimed: str, line: str) -> tuple[str, str | None] | None:
    """The normal form we derive from ``value`` (and its currency, from the value or its line), or None when
    it does not parse."""
    if kind in AMOUNT_FIELDS:
        found = amounts(value)
        if not found:
            return None
        return str(found[-1].value), found[-1].currency or currency_of(value) or currency_of(line)
    if kind in DATE_FIELDS:
        readings = {d.value.isoformat() for df in (True, False) for d in dates(value, day_first=df)[:1]}
        if not readings:
            return None
        if claimed.strip() in readings:
            return claimed.strip(), None
        return (sorted(readings)[0], None) if len(readings) == 1 else None
    if kind == "doc_number":
        return value.strip().upper(), None
    return " ".join(value.split()).strip(" .,:;"), None


def validated(raw: Any, lines: Sequence[Mapping[str, Any]], page: int) -> tuple[list[dict[str, Any]], int]:
    """The model's fields that survive the checks (see the module doc), and how many were dropped."""
    out: list[dict[str, Any]] = []
    dropped = 0
    seen: set[str] = set()
    for f in raw if isinstance(raw, list) else ():
        ok = isinstance(f, dict) and f.get("kind") in MODEL_KINDS and isinstance(f.get("value"), str) \
            and isinstance(f.get("line"), int) and not isinstance(f.get("line"), bool) \
            and 0 <= f["line"] < len(lines) and f["kind"] not in seen
        value = str(f.get("value") or "").strip() if isinstance(f, dict) else ""
        if ok and (not value or _PLACEHOLDER.search(value)
                   or _squash(value) not in _squash(str(lines[f["line"]].get("text") or ""))):
            ok = False  # not printed on the line it cites (or masked): not read off the page
        norm = _normal(f["kind"], value, str(f.get("normalized") or ""), str(lines[f["line"]].get("text") or "")) \
            if ok else None
        if norm is None:
            dropped += 1
            continue
        seen.add(f["kind"])
        line = lines[f["line"]]
        bbox = line.get("bbox")
        out.append({"kind": f["kind"], "value": value, "normalized": norm[0], "currency": norm[1], "page": page,
                    "line": f["line"], "bbox": [round(float(v), 2) for v in bbox] if bbox else None})
    return out, dropped


def model_field(f: Mapping[str, Any], line_confidence: float) -> Field:
    return Field(str(f["kind"]), str(f["value"]), str(f["normalized"]), int(f["page"]), f.get("bbox"), "model",
                 MODEL_PRIOR * line_confidence, currency=f.get("currency"),
                 evidence={"ocr": line_confidence, "pattern": MODEL_PRIOR, "line": f.get("line")})


def same_value(name: str, a: str, b: str) -> bool:
    if name in AMOUNT_FIELDS:
        try:
            return Decimal(a) == Decimal(b)
        except ArithmeticError:
            return False
    if name == "company":
        return company_key(a) == company_key(b)
    return a.strip().upper() == b.strip().upper()


def merge(rules: Sequence[Field], model: Iterable[Field]) -> list[Field]:
    """The rules' fields with the model's (one per kind: the most confident) as a second source."""
    best: dict[str, Field] = {}
    for mf in model:
        if mf.name not in best or mf.confidence > best[mf.name].confidence:
            best[mf.name] = mf
    out: list[Field] = []
    for f in rules:
        m: Field | None = best.pop(f.name, None) if f.name != "item" else None
        if m is None:
            out.append(f)
            continue
        seen = {"value": m.value, "normalized": m.normalized, "page": m.page, "bbox": m.bbox}
        if same_value(f.name, f.normalized, m.normalized):
            out.append(replace(f, confidence=_combine(f.confidence, m.confidence),
                               evidence=dict(f.evidence, model=dict(seen, agrees=True))))
        else:
            out.append(replace(f, confidence=f.confidence * STRENGTH["conflict"],
                               evidence=dict(f.evidence, model=dict(seen, agrees=False),
                                             disagree={"rules": f.normalized, "model": m.normalized})))
    return out + list(best.values())
