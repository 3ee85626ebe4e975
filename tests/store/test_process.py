"""Process-level tuning: the glibc malloc arena cap."""

from __future__ import annotations

import ctypes.util
import platform

from store.process import limit_malloc_arenas


def test_limit_malloc_arenas_sets_the_cap_on_glibc_and_zero_keeps_the_default() -> None:
    assert limit_malloc_arenas(0) is False
    on_glibc = platform.libc_ver()[0] == "glibc" and ctypes.util.find_library("c") is not None
    assert limit_malloc_arenas(2) is on_glibc
