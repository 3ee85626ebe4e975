"""What ``WorkflowStore`` takes and returns: plain values with the ids already out of the item keys.

Nothing outside ``store/`` builds or parses a ``PROJ#``/``DOC#``/``WF#`` key: the store hands back
``WorkflowRef`` / ``WorkflowRecord`` (ids as fields) and takes them back where it needs the item again.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from store.items import Item

ClaimOutcome = Literal["claimed", "completed", "busy", "failed", "missing"]


def new_id() -> str:
    return uuid.uuid4().hex


def now_iso(clock: Callable[[], float]) -> str:
    return datetime.fromtimestamp(clock(), UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def safe_id(value: str) -> bool:
    return 0 < len(value) <= 64 and all(c.isalnum() or c in "-_" for c in value)


def key_id(key: Any, prefix: str) -> str:
    """The id in an item key such as ``WF#{wid}`` (store-internal)."""
    return str(key).removeprefix(prefix)


@dataclass(frozen=True, slots=True)
class NewDocument:
    """Everything the upload path knows about a validated file."""

    owner: str
    project_id: str
    file_name: str
    file_type: str  # MIME type
    file_kind: str  # sniffed kind (pdf, png, …)
    file_key: str  # blob key of the original
    file_uri: str  # s3://… or file://… (display)
    size: int
    sha256: str
    page_count: int
    language: str
    priority: Literal["high", "low"]
    document_id: str = ""
    workflow_id: str = ""


@dataclass(frozen=True, slots=True)
class Created:
    document_id: str
    workflow_id: str
    created: bool  # False: the same bytes were already in the project
    status: str


@dataclass(frozen=True, slots=True)
class Claim:
    workflow_id: str
    document_id: str
    project_id: str
    claim_id: str
    attempts: int
    item: Item  # the DOC#/WF# item as claimed


@dataclass(frozen=True, slots=True)
class WorkflowRef:
    """Which workflow of which document (e.g. one the sweeper found in progress)."""

    workflow_id: str
    document_id: str


@dataclass(frozen=True, slots=True)
class RefPage:
    """One page of workflow references; ``cursor`` as in ``store.items.Page``."""

    items: list[WorkflowRef]
    cursor: str | None


@dataclass(frozen=True, slots=True)
class WorkflowRecord:
    """A document's workflow (its ``DOC#/WF#`` item) with the ids as fields; ``data`` holds the seed's fields."""

    document_id: str
    workflow_id: str
    item: Item = field(repr=False)

    @classmethod
    def of(cls, item: Item) -> WorkflowRecord:
        return cls(key_id(item["PK"], "DOC#"), key_id(item["SK"], "WF#"), item)

    @property
    def data(self) -> dict[str, Any]:
        data: dict[str, Any] = self.item.get("data") or {}
        return data

    @property
    def status(self) -> str:
        return str(self.item.get("status"))

    @property
    def project_id(self) -> str | None:
        pid = self.data.get("project_id")
        return None if pid is None else str(pid)

    @property
    def page_count(self) -> int:
        return int(self.data.get("page_count") or 0)

    @property
    def file_key(self) -> str | None:
        key = self.data.get("file_key")
        return str(key) if key else None
