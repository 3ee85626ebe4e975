"""Where a workflow's results live (keys fixed by workflow and page, so a redelivery overwrites, never
duplicates), and how they come back: step dataclasses from JSON, segments streamed on demand."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

if TYPE_CHECKING:
    from store.config import Settings

__all__ = ["SegmentSequence", "analysis_key", "analysis_styles_key", "blob_uri", "fields_key", "meta_key", "ocr_key",
           "ocr_pages_key", "original_key", "page_png_key", "pii_key", "rebuild", "segment_key", "text_key",
           "workflow_prefix"]


def blob_uri(settings: Settings, key: str) -> str:
    """Where a document blob is, for display: ``s3://bucket/key`` on AWS, ``blob://documents/key`` locally."""
    if settings.server.backend == "aws":
        return f"s3://{settings.store.documents_bucket}/{key}"
    return f"blob://documents/{key}"


def workflow_prefix(workflow_id: str) -> str:
    """Every result of a workflow is under this prefix (removed on reprocess and on delete)."""
    return f"workflows/{workflow_id}/"


def page_png_key(workflow_id: str, page: int) -> str:
    return f"workflows/{workflow_id}/pages/{page:04d}.png"


def segment_key(workflow_id: str, index: int) -> str:
    return f"workflows/{workflow_id}/segments/{index:04d}.json"


def original_key(project_id: str, document_id: str, ext: str) -> str:
    return f"projects/{project_id}/documents/{document_id}/original{ext}"


def meta_key(wid: str, page: int) -> str:
    return f"workflows/{wid}/pages/{page:04d}.json"


def text_key(wid: str, page: int) -> str:
    return f"workflows/{wid}/text/{page:04d}.json"


def ocr_key(wid: str, page: int) -> str:
    return f"workflows/{wid}/ocr/{page:04d}.json"


def fields_key(wid: str) -> str:
    """The document's key fields (issue 15: ``ingest/steps/fields.py``)."""
    return f"workflows/{wid}/fields.json"


def analysis_key(wid: str, page: int) -> str:
    """segment_analyzer's layout JSON of a page (``ingest.analysis.layout``)."""
    return f"workflows/{wid}/analysis/{page:04d}.json"


def analysis_styles_key(wid: str) -> str:
    return f"workflows/{wid}/analysis/styles.json"


def ocr_pages_key(wid: str) -> str:
    return f"workflows/{wid}/ocr_pages.json"


def pii_key(wid: str) -> str:
    """The document's placeholder numbering (``ingest.pii.masking.Placeholders.to_json``) — holds values."""
    return f"workflows/{wid}/pii.json"


def rebuild(cls: Any, data: dict[str, Any], children: dict[str, Any]) -> Any:
    """A step's dataclass back from its JSON (tuples for boxes, nested dataclasses for lines)."""
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        if f.name in children and isinstance(value, list):
            value = [rebuild(children[f.name], v, {}) if isinstance(v, dict) else v for v in value]
        elif f.name == "bbox" and isinstance(value, list):
            value = tuple(value)
        kwargs[f.name] = value
    return cls(**kwargs)


class SegmentSequence(Sequence[dict[str, Any]]):
    """Segments loaded from the blob store on demand, a few at a time — never the whole document."""

    def __init__(self, load: Callable[[int], dict[str, Any]], count: int, *, cache: int = 4) -> None:
        self._load = load
        self._count = count
        self._cache: dict[int, dict[str, Any]] = {}
        self._cache_size = cache

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, i: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, i: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, i: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._count))]
        if i < 0:
            i += self._count
        if not 0 <= i < self._count:
            raise IndexError(i)
        if i not in self._cache:
            if len(self._cache) >= self._cache_size:
                self._cache.pop(next(iter(self._cache)))
            self._cache[i] = self._load(i + 1)
        return self._cache[i]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for i in range(self._count):
            yield self[i]
