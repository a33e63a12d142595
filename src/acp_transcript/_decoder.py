"""Chooses the transcript decoder: the compiled Cython core when it imports, else the pure-Python twin.

``ACP_TRANSCRIPT_NO_EXTENSIONS`` (any non-empty value) forces the fallback, as does an interpreter other than
CPython (the core uses CPython's C API directly).
"""

from __future__ import annotations

import os
import platform

NO_EXTENSIONS = bool(os.environ.get("ACP_TRANSCRIPT_NO_EXTENSIONS")) or platform.python_implementation() != "CPython"

if not NO_EXTENSIONS:
    try:
        from ._decoder_c import TranscriptDecoder, sanitize, sanitize_arrow, sanitize_batch
    except ImportError:  # not compiled (a source install without a compiler): the fallback
        NO_EXTENSIONS = True

if NO_EXTENSIONS:
    from ._decoder_py import TranscriptDecoder, sanitize, sanitize_arrow, sanitize_batch  # type: ignore[assignment]

IMPLEMENTATION = "python" if NO_EXTENSIONS else "cython"

__all__ = ["IMPLEMENTATION", "TranscriptDecoder", "sanitize", "sanitize_arrow", "sanitize_batch"]
