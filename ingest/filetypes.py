"""Decide a file's type from its first bytes — never from its name or a client's Content-Type."""

from __future__ import annotations

from typing import Final, Literal

FileKind = Literal["pdf", "png", "jpeg", "tiff", "webp"]

MIME: Final[dict[FileKind, str]] = {
    "pdf": "application/pdf",
    "png": "image/png",
    "jpeg": "image/jpeg",
    "tiff": "image/tiff",
    "webp": "image/webp",
}

EXTENSION: Final[dict[FileKind, str]] = {"pdf": ".pdf", "png": ".png", "jpeg": ".jpg", "tiff": ".tif", "webp": ".webp"}

#: How many leading bytes ``sniff`` wants to see (a PDF header may follow some junk, which readers tolerate).
SNIFF_BYTES: Final = 1024

IMAGE_KINDS: Final[frozenset[FileKind]] = frozenset({"png", "jpeg", "tiff", "webp"})


def sniff(head: bytes) -> FileKind | None:
    """The kind of file whose first bytes are ``head`` (pass at least ``SNIFF_BYTES``), or None.

    PDF readers accept a ``%PDF-`` header anywhere in the first 1024 bytes, so we do too.
    """
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head.startswith((b"II*\x00", b"MM\x00*", b"II+\x00", b"MM\x00+")):  # classic and BigTIFF
        return "tiff"
    if len(head) >= 12 and head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    if b"%PDF-" in head[:SNIFF_BYTES]:
        return "pdf"
    return None


def describe_unknown(head: bytes) -> str:
    """A human-readable reason for rejecting a file ``sniff`` did not recognise."""
    if not head:
        return "the file is empty"
    return "unsupported file type: expected a PDF, PNG, JPEG, TIFF or WebP file (checked by content, not by name)"
