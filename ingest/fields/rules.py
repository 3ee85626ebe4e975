"""The checks that decide whether a document's fields are trusted or go to a person (seed 004), pure.

A field goes to review when its confidence is under the bar (amounts have their own, higher bar), when an
arithmetic check fails (``total = subtotal + tax``, ``total = Σ items``), when its date is implausible, or
when an amount is out of range; a required field that is missing sends the document. Rules are per project
(``FieldRules.from_json`` over the project's ``field_rules``), defaulting to the settings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from ingest.fields.extract import AMOUNT_FIELDS, DATE_FIELDS, Field


@dataclass(frozen=True, slots=True)
class FieldRules:
    amount_min_confidence: float = 0.98
    min_confidence: float = 0.9
    required: tuple[str, ...] = ("total", "date")
    oldest_year: int = 1990
    max_future_days: int = 366
    #: an issue date (not a due date) this many days past today is implausible: documents are not dated ahead
    issue_max_future_days: int = 7
    max_amount: Decimal | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None, *, base: FieldRules | None = None) -> FieldRules:
        """``base`` with the keys ``data`` sets (a project's ``field_rules``); unknown keys are ignored."""
        rules = base or cls()
        if not data:
            return rules
        known = {f.name for f in fields(cls)}
        changes: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known or value is None:
                continue
            if key == "required":
                changes[key] = tuple(str(v) for v in value)
            elif key == "max_amount":
                changes[key] = Decimal(str(value))
            elif key in ("oldest_year", "max_future_days", "issue_max_future_days"):
                changes[key] = int(value)
            else:
                changes[key] = min(1.0, max(0.0, float(value)))
        return replace(rules, **changes)


@dataclass(frozen=True, slots=True)
class Flag:
    field: str | None  # None: the document (a required field is missing)
    reason: str  # "low_confidence" | "total_mismatch" | "implausible_date" | "amount_out_of_range" | "missing"
    #            | "sources_disagree" (the rules and Claude read different values: ``ingest.fields.model``)
    #            | a doubt of ``ingest.fields.evidence`` ("ocr_confusable", "candidates_disagree", "no_label", ...)
    detail: str


def check(found: Sequence[Field], rules: FieldRules, *, today: date) -> list[Flag]:
    """Every reason the fields need a person; empty = automatically accepted."""
    flags: list[Flag] = []
    names = {f.name for f in found}
    for name in rules.required:
        if name not in names:
            flags.append(Flag(None if name not in AMOUNT_FIELDS + DATE_FIELDS + ("company",) else name, "missing",
                              f"required field {name} not found"))
    for f in found:
        if f.name == "item":
            continue
        bar = rules.amount_min_confidence if f.name in AMOUNT_FIELDS else rules.min_confidence
        if f.confidence < bar:
            flags.append(Flag(f.name, "low_confidence", f"confidence {f.confidence:.3f} < {bar}"))
        if f.name in DATE_FIELDS:
            when = date.fromisoformat(f.normalized)
            ahead = rules.max_future_days if f.name == "due_date" else min(rules.max_future_days,
                                                                           rules.issue_max_future_days)
            if when.year < rules.oldest_year or when > today + timedelta(days=ahead):
                flags.append(Flag(f.name, "implausible_date", f"{f.normalized} outside {rules.oldest_year}.."
                                  f"{(today + timedelta(days=ahead)).isoformat()}"))
        for reason, detail in f.evidence.get("doubts") or ():
            flags.append(Flag(f.name, str(reason), str(detail)))
        if f.name in AMOUNT_FIELDS and rules.max_amount is not None and abs(Decimal(f.normalized)) > rules.max_amount:
            flags.append(Flag(f.name, "amount_out_of_range", f"{f.normalized} > {rules.max_amount}"))
        disagree = f.evidence.get("disagree")
        if disagree:
            flags.append(Flag(f.name, "sources_disagree",
                              f"the rules read {disagree.get('rules')}, the model read {disagree.get('model')}"))
        if f.name == "total":
            for check_name, ok in (f.evidence.get("checks") or {}).items():
                if not ok:
                    flags.append(Flag("total", "total_mismatch", f"{check_name} does not hold"))
    return flags


def flagged_fields(flags: Sequence[Flag]) -> set[str]:
    return {f.field for f in flags if f.field is not None}
