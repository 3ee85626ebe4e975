"""Receive a multipart upload as a stream: to a temp file, hashing as it goes — never whole in memory.

The request body is fed chunk by chunk to python-multipart's push parser; the bytes of the ``file`` field go
to a temporary file in ~1 MB writes (off the event loop) while SHA-256 and the size are computed. Going over
``max_upload_bytes`` stops the upload at once with ``PayloadTooLarge`` (HTTP 413).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from python_multipart.multipart import MultipartParser, parse_options_header

from ingest.filetypes import SNIFF_BYTES
from ingest.sizes import limit_text
from store.errors import InvalidInput, PayloadTooLarge, UnsupportedMediaType

FIELD = "file"
_FLUSH = 1024 * 1024


@dataclass
class ReceivedFile:
    path: Path
    file_name: str
    size: int
    sha256: str
    head: bytes

    def cleanup(self) -> None:
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass


@dataclass
class _State:
    limit: int
    out: IO[bytes]
    headers: dict[bytes, bytes] = field(default_factory=dict)
    header_field: bytearray = field(default_factory=bytearray)
    header_value: bytearray = field(default_factory=bytearray)
    in_file: bool = False
    seen_file: bool = False
    file_name: str = ""
    size: int = 0
    head: bytearray = field(default_factory=bytearray)
    buf: bytearray = field(default_factory=bytearray)
    hasher: Any = field(default_factory=hashlib.sha256)
    too_large: bool = False


def _mkstemp(tmp_dir: Path | None) -> tuple[int, str]:
    if tmp_dir is not None:
        tmp_dir.mkdir(parents=True, exist_ok=True)
    return tempfile.mkstemp(prefix="docchat-upload-", dir=tmp_dir)


def _safe_name(raw: str) -> str:
    name = raw.replace("\\", "/").rsplit("/", 1)[-1].strip()
    name = "".join(c for c in name if c.isprintable())[:200]
    return name or "upload"


async def receive_upload(
    stream: AsyncIterator[bytes],
    content_type: str,
    *,
    max_bytes: int,
    content_length: int | None = None,
    tmp_dir: Path | None = None,
) -> ReceivedFile:
    """Stream a ``multipart/form-data`` body with a ``file`` field to a temp file; hash and size it."""
    ctype, params = parse_options_header(content_type or "")
    if ctype != b"multipart/form-data":
        raise UnsupportedMediaType("upload the file as multipart/form-data with a field named 'file'")
    boundary = params.get(b"boundary")
    if not boundary:
        raise InvalidInput("the multipart request has no boundary")
    if content_length is not None and content_length > max_bytes + 64 * 1024:
        raise PayloadTooLarge(f"the upload is {limit_text(content_length)}; the limit is {limit_text(max_bytes)}")
    fd, name = await asyncio.to_thread(_mkstemp, tmp_dir)
    path = Path(name)
    out = os.fdopen(fd, "wb")
    st = _State(limit=max_bytes, out=out)

    def on_header_field(data: bytes, start: int, end: int) -> None:
        st.header_field += data[start:end]

    def on_header_value(data: bytes, start: int, end: int) -> None:
        st.header_value += data[start:end]

    def on_header_end() -> None:
        st.headers[bytes(st.header_field).lower()] = bytes(st.header_value)
        st.header_field.clear()
        st.header_value.clear()

    def on_headers_finished() -> None:
        _, disp = parse_options_header(st.headers.get(b"content-disposition", b""))
        st.in_file = disp.get(b"name") == FIELD.encode() and not st.seen_file
        if st.in_file:
            st.seen_file = True
            raw = disp.get(b"filename", b"")
            st.file_name = _safe_name(raw.decode("utf-8", "replace"))

    def on_part_data(data: bytes, start: int, end: int) -> None:
        if not st.in_file or st.too_large:
            return
        piece = data[start:end]
        st.size += len(piece)
        if st.size > st.limit:
            st.too_large = True
            return
        if len(st.head) < SNIFF_BYTES:
            st.head += piece[: SNIFF_BYTES - len(st.head)]
        st.buf += piece

    def on_part_end() -> None:
        st.in_file = False
        st.headers.clear()

    parser = MultipartParser(
        boundary,
        {
            "on_header_field": on_header_field,
            "on_header_value": on_header_value,
            "on_header_end": on_header_end,
            "on_headers_finished": on_headers_finished,
            "on_part_data": on_part_data,
            "on_part_end": on_part_end,
        },
    )

    def flush(data: bytes) -> None:
        st.hasher.update(data)
        out.write(data)

    ok = False
    try:
        async for chunk in stream:
            try:
                parser.write(chunk)
            except Exception as exc:  # python-multipart raises its own errors on malformed bodies
                raise InvalidInput(f"the multipart body is malformed: {exc}") from exc
            if st.too_large:
                raise PayloadTooLarge(f"the file is larger than the {limit_text(max_bytes)} limit")
            if len(st.buf) >= _FLUSH:
                data = bytes(st.buf)
                st.buf.clear()
                await asyncio.to_thread(flush, data)
        try:
            parser.finalize()
        except Exception as exc:
            raise InvalidInput(f"the multipart body is malformed: {exc}") from exc
        if not st.seen_file:
            raise InvalidInput("the multipart body has no field named 'file'")
        if st.buf:
            await asyncio.to_thread(flush, bytes(st.buf))
            st.buf.clear()
        await asyncio.to_thread(out.close)
        if st.size == 0:
            raise InvalidInput("the file is empty")
        ok = True
        return ReceivedFile(path, st.file_name or "upload", st.size, st.hasher.hexdigest(), bytes(st.head))
    finally:
        if not out.closed:
            out.close()
        if not ok:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
