"""The blob store port and its two adapters: files under the data directory, and S3.

Keys are ``/``-separated relative paths (``sessions/<sid>/000042.json``). A
missing key raises ``store.errors.NotFound`` on every adapter.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, Protocol, cast, runtime_checkable

from botocore.exceptions import BotoCoreError, ClientError

from store.errors import InvalidInput, NotFound, RetryableError, Throttled, UpstreamError
from store.logging import get_logger

log = get_logger(__name__)

_CHUNK = 1024 * 1024


@runtime_checkable
class BlobStore(Protocol):
    """Put/get/stream/delete/list blobs by key; presigned GET URLs."""

    def put(self, key: str, data: bytes | BinaryIO, content_type: str | None = None) -> None: ...

    def get(self, key: str) -> bytes: ...

    def open(self, key: str) -> BinaryIO:
        """A streaming reader; close it when done."""
        ...

    def delete(self, key: str) -> None:
        """Remove the blob (no error if absent)."""
        ...

    def exists(self, key: str) -> bool: ...

    def list(self, prefix: str) -> Iterator[str]:
        """Keys starting with ``prefix``, in lexicographic order."""
        ...

    def delete_prefix(self, prefix: str) -> int:
        """Remove every blob whose key starts with ``prefix``; returns how many."""
        ...

    def presigned_get_url(self, key: str, expires_s: int = 3600) -> str: ...


def check_key(key: str) -> str:
    """Reject keys that could escape the store (absolute, ``..``, empty parts, backslashes, NUL)."""
    if not key or key.startswith("/") or "\\" in key or "\x00" in key:
        raise InvalidInput(f"invalid blob key {key!r}")
    parts = key.split("/")
    if any(p in ("", ".", "..") for p in parts):
        raise InvalidInput(f"invalid blob key {key!r}")
    return key


class FileBlobStore:
    """Blobs as files under ``root`` (the key is the relative path); writes are atomic (temp file + rename)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root).resolve()
        self.root.mkdir(parents=True, exist_ok=True)

    def _path(self, key: str) -> Path:
        return self.root.joinpath(*check_key(key).split("/"))

    def put(self, key: str, data: bytes | BinaryIO, content_type: str | None = None) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                if isinstance(data, bytes | bytearray | memoryview):
                    out.write(data)
                else:
                    shutil.copyfileobj(data, out, _CHUNK)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def get(self, key: str) -> bytes:
        try:
            return self._path(key).read_bytes()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as exc:
            raise NotFound(f"blob {key!r} not found", key=key) from exc

    def open(self, key: str) -> BinaryIO:
        try:
            return cast(BinaryIO, self._path(key).open("rb"))
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as exc:
            raise NotFound(f"blob {key!r} not found", key=key) from exc

    def delete(self, key: str) -> None:
        path = self._path(key)
        try:
            path.unlink()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return
        self._prune(path.parent)

    def _prune(self, folder: Path) -> None:
        while folder != self.root and folder.is_relative_to(self.root):
            try:
                folder.rmdir()
            except OSError:
                return
            folder = folder.parent

    def exists(self, key: str) -> bool:
        return self._path(key).is_file()

    def list(self, prefix: str) -> Iterator[str]:
        head = prefix.rsplit("/", 1)[0] if "/" in prefix else ""
        start = self._path(head) if head else self.root
        if not start.is_dir():
            return
        keys: list[str] = []
        for dirpath, _dirs, files in os.walk(start):
            rel = Path(dirpath).relative_to(self.root).as_posix()
            base = "" if rel == "." else rel + "/"
            keys += [base + f for f in files if not f.startswith(".tmp-") and (base + f).startswith(prefix)]
        yield from sorted(keys, key=lambda k: k.encode("utf-8"))

    def delete_prefix(self, prefix: str) -> int:
        n = 0
        for key in list(self.list(prefix)):
            self.delete(key)
            n += 1
        return n

    def presigned_get_url(self, key: str, expires_s: int = 3600) -> str:
        """A ``file://`` URL (the embedded store has no signing server; the URL is only useful locally)."""
        path = self._path(key)
        if not path.is_file():
            raise NotFound(f"blob {key!r} not found", key=key)
        return path.as_uri()


def _s3_error(exc: ClientError | BotoCoreError, key: str) -> Exception:
    if isinstance(exc, BotoCoreError):
        return RetryableError(f"S3 request failed: {exc}", key=key)
    code = exc.response.get("Error", {}).get("Code", "")
    status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
    if code in ("NoSuchKey", "404", "NotFound") or status == 404:
        return NotFound(f"blob {key!r} not found", key=key)
    if code in ("SlowDown", "Throttling", "ThrottlingException", "RequestLimitExceeded") or status == 503:
        return Throttled(f"S3 throttled: {code}", key=key)
    if status >= 500:
        return RetryableError(f"S3 error {code}", key=key)
    return UpstreamError(f"S3 error {code}: {exc}", key=key)


class S3BlobStore:
    """Blobs in one S3 bucket; the boto3 client is passed in (retries are configured on it)."""

    def __init__(self, client: Any, bucket: str, *, prefix: str = "") -> None:
        self.client = client
        self.bucket = bucket
        self.prefix = prefix

    def _k(self, key: str) -> str:
        return self.prefix + check_key(key)

    def put(self, key: str, data: bytes | BinaryIO, content_type: str | None = None) -> None:
        extra: dict[str, Any] = {"ContentType": content_type} if content_type else {}
        try:
            if isinstance(data, bytes | bytearray | memoryview):
                self.client.put_object(Bucket=self.bucket, Key=self._k(key), Body=bytes(data), **extra)
            else:
                self.client.upload_fileobj(data, self.bucket, self._k(key), ExtraArgs=extra or None)
        except (ClientError, BotoCoreError) as exc:
            raise _s3_error(exc, key) from exc

    def get(self, key: str) -> bytes:
        with self.open(key) as body:
            return body.read()

    def open(self, key: str) -> BinaryIO:
        try:
            resp = self.client.get_object(Bucket=self.bucket, Key=self._k(key))
        except (ClientError, BotoCoreError) as exc:
            raise _s3_error(exc, key) from exc
        return cast(BinaryIO, _Body(resp["Body"]))

    def delete(self, key: str) -> None:
        try:
            self.client.delete_object(Bucket=self.bucket, Key=self._k(key))
        except (ClientError, BotoCoreError) as exc:
            err = _s3_error(exc, key)
            if not isinstance(err, NotFound):
                raise err from exc

    def exists(self, key: str) -> bool:
        try:
            self.client.head_object(Bucket=self.bucket, Key=self._k(key))
        except (ClientError, BotoCoreError) as exc:
            err = _s3_error(exc, key)
            if isinstance(err, NotFound):
                return False
            raise err from exc
        return True

    def list(self, prefix: str) -> Iterator[str]:
        paginator = self.client.get_paginator("list_objects_v2")
        try:
            for page in paginator.paginate(Bucket=self.bucket, Prefix=self.prefix + prefix):
                for obj in page.get("Contents", []):
                    yield obj["Key"][len(self.prefix) :]
        except (ClientError, BotoCoreError) as exc:
            raise _s3_error(exc, prefix) from exc

    def delete_prefix(self, prefix: str) -> int:
        keys = list(self.list(prefix))
        for i in range(0, len(keys), 1000):
            chunk = [{"Key": self.prefix + k} for k in keys[i : i + 1000]]
            try:
                resp = self.client.delete_objects(Bucket=self.bucket, Delete={"Objects": chunk, "Quiet": True})
            except (ClientError, BotoCoreError) as exc:
                raise _s3_error(exc, prefix) from exc
            if resp.get("Errors"):
                raise UpstreamError(f"S3 refused to delete {len(resp['Errors'])} objects under {prefix!r}")
        return len(keys)

    def presigned_get_url(self, key: str, expires_s: int = 3600) -> str:
        url: str = self.client.generate_presigned_url(
            "get_object", Params={"Bucket": self.bucket, "Key": self._k(key)}, ExpiresIn=int(expires_s)
        )
        return url


class _Body:
    """A file-like wrapper over botocore's StreamingBody that translates read errors."""

    def __init__(self, body: Any) -> None:
        self._body = body

    def read(self, n: int = -1) -> bytes:
        try:
            data: bytes = self._body.read(None if n is None or n < 0 else n)
        except BotoCoreError as exc:
            raise RetryableError(f"S3 read failed: {exc}") from exc
        return data

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        self._body.close()

    def __enter__(self) -> _Body:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[bytes]:
        return cast(Iterator[bytes], self._body.iter_chunks(_CHUNK))

