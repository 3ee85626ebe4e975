"""One contract for every BlobStore adapter: files and S3 (moto)."""

from __future__ import annotations

import io
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

from store.blobs import BlobStore, FileBlobStore
from store.errors import InvalidInput, NotFound


def test_implements_protocol(blob_store: BlobStore) -> None:
    assert isinstance(blob_store, BlobStore)


def test_put_get_exists_delete(blob_store: BlobStore) -> None:
    key = "sessions/01ABC/000042.json"
    assert not blob_store.exists(key)
    blob_store.put(key, '[{"type":"text","text":"한"}]'.encode(), "application/json")
    assert blob_store.exists(key)
    assert blob_store.get(key) == '[{"type":"text","text":"한"}]'.encode()
    blob_store.put(key, b"replaced")
    assert blob_store.get(key) == b"replaced"
    blob_store.delete(key)
    assert not blob_store.exists(key)
    blob_store.delete(key)  # absent: no error
    with pytest.raises(NotFound):
        blob_store.get(key)
    with pytest.raises(NotFound):
        blob_store.open(key)


def test_streaming_put_and_open(blob_store: BlobStore) -> None:
    data = bytes(range(256)) * 20_000  # 5 MB: more than one chunk/part
    blob_store.put("documents/d1/original.pdf", io.BytesIO(data), "application/pdf")
    with blob_store.open("documents/d1/original.pdf") as f:
        first = f.read(1000)
        rest = f.read()
    assert first + rest == data


def test_list_and_delete_prefix(blob_store: BlobStore) -> None:
    keys = ["sessions/s1/000001.json", "sessions/s1/000010.json", "sessions/s10/000001.json", "sessions/s2/x.json"]
    for k in keys:
        blob_store.put(k, b"x")
    assert list(blob_store.list("sessions/s1/")) == keys[:2]
    assert list(blob_store.list("sessions/s1")) == keys[:3]
    assert list(blob_store.list("sessions/")) == keys
    assert list(blob_store.list("nothing/")) == []
    assert blob_store.delete_prefix("sessions/s1/") == 2
    assert list(blob_store.list("sessions/")) == keys[2:]


def test_presigned_get_url(blob_store: BlobStore) -> None:
    blob_store.put("documents/d1/page-1.png", b"png")
    url = blob_store.presigned_get_url("documents/d1/page-1.png", expires_s=60)
    parsed = urllib.parse.urlparse(url)
    assert parsed.scheme in ("https", "http", "file")
    assert parsed.path.endswith("documents/d1/page-1.png")
    if parsed.scheme != "file":
        assert "Expires=" in url or "X-Amz-Expires=60" in url


def test_bad_keys_rejected(blob_store: BlobStore) -> None:
    for bad in ["", "/abs", "a/../b", "a//b", "a\\b", "..", "a/./b", "nul\x00"]:
        with pytest.raises(InvalidInput):
            blob_store.put(bad, b"x")
        with pytest.raises(InvalidInput):
            blob_store.get(bad)


def test_file_store_writes_atomically_and_prunes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = FileBlobStore(tmp_path / "b")
    store.put("a/b/c.json", b"old")

    class Boom(io.BytesIO):
        def read(self, *a: Any) -> bytes:
            raise OSError("disk error")

    with pytest.raises(OSError):
        store.put("a/b/c.json", Boom())
    assert store.get("a/b/c.json") == b"old"  # the old version is intact, no temp file is listed
    assert list(store.list("a/")) == ["a/b/c.json"]
    assert [p.name for p in (tmp_path / "b" / "a" / "b").iterdir()] == ["c.json"]
    store.delete("a/b/c.json")
    assert not (tmp_path / "b" / "a").exists()  # empty folders pruned
    assert store.presigned_get_url.__doc__ and "file://" in store.presigned_get_url.__doc__
