"""MSG items of the session store (seed 002) and where their block arrays live.

A message's block array (JSON) is stored inline in its MSG item (``blocks``) up to ``inline_max_bytes``;
a larger one goes to the blob store under ``sessions/<sid>/<seq>.json`` and the item keeps the key
(``blocks_ref``). The blob is written before the item, so a ref never dangles. Reading a page back fetches
its blobs in parallel on a small thread pool.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor

from store.blobs import BlobStore
from store.blocks import Block, loads_blocks
from store.items import Item
from store.session_keys import blob_key, msg_sk, session_pk


class MessageBodies:
    """Builds MSG items (offloading large bodies) and reads block arrays back; thread-safe."""

    def __init__(self, blobs: BlobStore, *, inline_max_bytes: int, fetch_workers: int = 8) -> None:
        self.blobs = blobs
        self.inline_max_bytes = inline_max_bytes
        self._fetch_workers = fetch_workers
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    def close(self) -> None:
        with self._pool_lock:
            if self._pool is not None:
                self._pool.shutdown(wait=False)
                self._pool = None

    def message_item(
        self,
        session_id: str,
        seq: int,
        role: str,
        body: str,
        model: str | None,
        usage: Mapping[str, int],
        turn_id: str | None,
        ts: str,
        expire_at: int,
    ) -> tuple[Item, str | None]:
        """The MSG item and its blob key (None when inline); a body over the limit is written to the blobs first."""
        item: Item = {
            "PK": session_pk(session_id),
            "SK": msg_sk(seq),
            "seq": seq,
            "role": role,
            "created_at": ts,
            "usage": dict(usage),
            "expire_at": expire_at,
        }
        if model is not None:
            item["model"] = model
        if turn_id is not None:
            item["turn_id"] = turn_id
        encoded = body.encode("utf-8")
        ref = None
        if len(encoded) > self.inline_max_bytes:
            ref = blob_key(session_id, seq)
            self.blobs.put(ref, encoded, "application/json")
            item["blocks_ref"] = ref
        else:
            item["blocks"] = body
        return item, ref

    def contents(self, raw: Sequence[Item]) -> list[list[Block]]:
        """The block array of each MSG item, in order (offloaded ones fetched, several at a time)."""
        refs = [it["blocks_ref"] for it in raw if it.get("blocks_ref")]
        fetched: dict[str, bytes] = {}
        if len(refs) == 1:
            fetched[refs[0]] = self.blobs.get(refs[0])
        elif refs:
            fetched = dict(zip(refs, self._executor().map(self.blobs.get, refs), strict=True))
        out = []
        for it in raw:
            ref = it.get("blocks_ref")
            out.append(loads_blocks(fetched[ref] if ref else it.get("blocks", "[]")))
        return out

    def _executor(self) -> ThreadPoolExecutor:
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self._fetch_workers, thread_name_prefix="session-blobs")
            return self._pool
