"""acp-transcript: safe plain-text transcripts of terminal output, and the Client side of ACP v2 display
terminals.

>>> from acp_transcript import sanitize
>>> sanitize(b"\\x1b[31mred\\x1b[0m\\n")
'red\\n'
"""

from __future__ import annotations

from ._decoder import IMPLEMENTATION, TranscriptDecoder, sanitize
from .errors import Base64Error, ConversionError, ProtocolError

__version__ = "0.1.0"

__all__ = [
    "IMPLEMENTATION",
    "Base64Error",
    "ConversionError",
    "ProtocolError",
    "TranscriptDecoder",
    "__version__",
    "sanitize",
]
