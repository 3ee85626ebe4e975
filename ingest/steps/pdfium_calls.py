"""PDFium's per-character text calls without ctypes' argument conversion (issue 18).

pypdfium2's raw bindings declare ``argtypes`` for every function, so each call converts each argument through
its type's ``from_param``: ``FPDFText_GetCharBox`` with its four ``double*`` costs ~750 ns a call, against
~180 ns for the same function pointer called with ``argtypes = None`` and arguments that are already C values
(a ``c_void_p`` handle, Python ints for ``int`` parameters, ``byref`` pointers). The text layer makes several
such calls per character, so this is most of ``format_parser``'s cost over PDFium's own.

Only functions whose parameters are pointers and C ``int`` are bound here (a Python int passed without
``argtypes`` is a C ``int``: right for a character index, wrong for a ``size_t``). Pointer results come back as
:class:`Ptr` (a ``c_void_p`` that stays a ctypes value, so it can be passed on as it is; false when NULL).
Same functions, same arguments, same results: only the Python-side conversion is skipped.
"""

from __future__ import annotations

import ctypes
from typing import Any


class Ptr(ctypes.c_void_p):
    """A pointer result kept as a ctypes value (a plain ``c_void_p`` restype would turn into an int or None)."""


class TextCalls:
    """The per-character text-page calls, bound once per process (``TextCalls.of(raw)``)."""

    _bound: TextCalls | None = None

    def __init__(self, raw: Any) -> None:
        def bind(fn: Any, restype: Any = ctypes.c_int) -> Any:
            address = ctypes.cast(fn, ctypes.c_void_p).value
            if not address:
                raise RuntimeError("a PDFium function has no address")
            proto: Any = ctypes.CFUNCTYPE(restype)(address)
            proto.argtypes = None  # arguments go as they are (ints as C int, ctypes values as themselves)
            return proto

        self.unicode = bind(raw.FPDFText_GetUnicode, ctypes.c_uint)  # (tp, i) -> unsigned int
        self.map_error = bind(raw.FPDFText_HasUnicodeMapError)  # (tp, i) -> int
        self.char_box = bind(raw.FPDFText_GetCharBox)  # (tp, i, double* l, r, b, t) -> FPDF_BOOL
        self.loose_box = bind(raw.FPDFText_GetLooseCharBox)  # (tp, i, FS_RECTF*) -> FPDF_BOOL
        self.text_object = bind(raw.FPDFText_GetTextObject, Ptr)  # (tp, i) -> FPDF_PAGEOBJECT
        self.object_font = bind(raw.FPDFTextObj_GetFont, Ptr)  # (text object) -> FPDF_FONT
        self.page_object = bind(raw.FPDFPage_GetObject, Ptr)  # (page, i) -> FPDF_PAGEOBJECT
        self.object_type = bind(raw.FPDFPageObj_GetType)  # (object) -> int
        self.object_bounds = bind(raw.FPDFPageObj_GetBounds)  # (object, float* l, b, r, t) -> FPDF_BOOL
        self.form_count = bind(raw.FPDFFormObj_CountObjects)  # (form object) -> int
        # (form object, unsigned long i) -> object: pass the index as ``ctypes.c_ulong`` (not a C int)
        self.form_object = bind(raw.FPDFFormObj_GetObject, Ptr)

    @classmethod
    def of(cls, raw: Any) -> TextCalls:
        if cls._bound is None:
            cls._bound = cls(raw)
        return cls._bound


def handle(obj: Any) -> Ptr:
    """A pypdfium2 raw handle (``FPDF_TEXTPAGE``, ``FPDF_PAGE``) as a :class:`Ptr` to pass to :class:`TextCalls`."""
    return Ptr(ctypes.cast(obj, ctypes.c_void_p).value)
