"""Byte counts as people read limits (the README and every 413 message say them the same way)."""

from __future__ import annotations

_KIB = 1024
_MIB = 1024 * 1024


def limit_text(n: int) -> str:
    """``209715200`` → ``200 MiB``; ``1536`` → ``1.5 KiB``; ``10`` → ``10 bytes``."""
    if n >= _MIB:
        return f"{n // _MIB} MiB" if n % _MIB == 0 else f"{n / _MIB:.1f} MiB"
    if n >= _KIB:
        return f"{n // _KIB} KiB" if n % _KIB == 0 else f"{n / _KIB:.1f} KiB"
    return f"{n} bytes"
