"""Chooses the transcript decoder: the compiled Cython core when it imports, else the pure-Python twin.

``ACP_TRANSCRIPT_NO_EXTENSIONS`` (any non-empty value) forces the fallback, as does an interpreter other than
CPython (the core uses CPython's C API directly).
"""

from __future__ import annotations

import os
import platform
from typing import TYPE_CHECKING

NO_EXTENSIONS = bool(os.environ.get("ACP_TRANSCRIPT_NO_EXTENSIONS")) or platform.python_implementation() != "CPython"

if not TYPE_CHECKING and not NO_EXTENSIONS:
    try:
        from ._decoder_c import TranscriptDecoder, sanitize, sanitize_arrow, sanitize_batch
    except ImportError:  # not compiled (a source install without a compiler): the fallback
        NO_EXTENSIONS = True

# Type checkers read the Python twin, whose signatures the core shares (tests/test_options.py checks them),
# instead of a hand-kept stub of the core (as yarl's _quoting.py and propcache's _helpers.py do).
if TYPE_CHECKING or NO_EXTENSIONS:
    from ._decoder_py import TranscriptDecoder, sanitize, sanitize_arrow, sanitize_batch

IMPLEMENTATION = "python" if NO_EXTENSIONS else "cython"

__all__ = ["IMPLEMENTATION", "TranscriptDecoder", "sanitize", "sanitize_arrow", "sanitize_batch"]
