"""``DocumentMasker``: a document's texts masked for a remote model (chat's ``PiiMasker`` port).

The mode is the project's ``pii_mode`` or else ``DOCCHAT_PII_MODE``; with ``mask`` each text is masked
with the document's numbering from the ``pii`` step (``workflows/{wid}/pii.json``), so the same value is
the same placeholder in every search hit and page of that document. A document processed before the step
existed (no numbering stored) is still masked: the detectors run, numbered from the first text masked.
Ownership is checked like every other read (another user's document is ``NotFound``).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence

from ingest.pii.masking import Placeholders, mask_all
from ingest.pii.step import effective_mode, load_placeholders
from store.blobs import BlobStore
from store.config import Settings
from store.workflows import WorkflowStore

#: documents whose numbering is kept in memory, and for how long (a reprocess renumbers)
CACHE_DOCUMENTS = 64
CACHE_SECONDS = 60.0


class DocumentMasker:
    def __init__(self, settings: Settings, *, store: WorkflowStore, blobs: BlobStore) -> None:
        self.settings = settings
        self.store = store
        self.blobs = blobs
        self._cache: OrderedDict[str, tuple[float, Placeholders]] = OrderedDict()
        self._lock = threading.Lock()

    async def mask_texts(self, user_id: str, document_id: str, texts: Sequence[str]) -> list[str]:
        """``texts`` of the user's document as a remote model may see them (unchanged when the mode is off)."""
        return await asyncio.to_thread(self._mask, user_id, document_id, list(texts))

    def _mask(self, user_id: str, document_id: str, texts: list[str]) -> list[str]:
        mode, placeholders = self._numbering(user_id, document_id)
        if mode == "off":
            return texts
        with self._lock:  # Placeholders numbers new values as it goes
            return mask_all(texts, placeholders)

    def _numbering(self, user_id: str, document_id: str) -> tuple[str, Placeholders]:
        """The mode (read every time: switching a project to ``mask`` applies at once) and the numbering."""
        wf = self.store.document_workflow(user_id, document_id)  # NotFound unless the user's
        mode = effective_mode(self.settings.ingest.pii_mode, self.store.project_pii_mode(wf.project_id or ""))
        now = time.monotonic()
        with self._lock:
            hit = self._cache.get(wf.workflow_id)
            if hit is not None and now - hit[0] < CACHE_SECONDS:
                self._cache.move_to_end(wf.workflow_id)
                return mode, hit[1]
        placeholders = load_placeholders(self.blobs, wf.workflow_id)
        with self._lock:
            self._cache[wf.workflow_id] = (now, placeholders)
            while len(self._cache) > CACHE_DOCUMENTS:
                self._cache.popitem(last=False)
        return mode, placeholders


def embedding_masker(settings: Settings) -> Callable[[str], str] | None:
    """What a chunk or a query becomes before it goes to a remote embedder (Titan on Bedrock): its personal
    data replaced by typed placeholders (``[PHONE_1]``; a numbering of its own per text — a vector does not need
    the document's), when the deployment masks (``DOCCHAT_PII_MODE=mask``, the default). None for the embedded
    ONNX model (nothing leaves the machine) or with masking off. A project's own ``pii_mode=off`` is not
    consulted here: its chunks are masked for the embedder anyway (the safe side; only the vector sees it)."""
    if settings.retrieval.embedder != "bedrock" or settings.ingest.pii_mode == "off":
        return None
    from ingest.pii.masking import mask

    return mask
