"""acp-transcript: safe plain-text transcripts of terminal output, and the Client side of ACP v2 display
terminals.

>>> from acp_transcript import sanitize
>>> sanitize(b"\\x1b[31mred\\x1b[0m\\n")
'red\\n'
"""

from __future__ import annotations

from ._decoder import IMPLEMENTATION, TranscriptDecoder, sanitize, sanitize_arrow, sanitize_batch
from .conversion import V2ToV1Bridge, reject_terminal_surfaces
from .display import safe_line
from .errors import Base64Error, ConversionError, ProtocolError
from .terminals import (
    UNSET,
    CommandPermissionSubject,
    ExitStatus,
    ProtocolWarning,
    Terminal,
    TerminalCapabilities,
    TerminalSize,
    TerminalStore,
    cancel_terminal_request,
    check_batch,
    session_notification,
    terminal_output_chunk,
    terminal_update,
)

__version__ = "0.2.0.dev0"

__all__ = [
    "IMPLEMENTATION",
    "UNSET",
    "Base64Error",
    "CommandPermissionSubject",
    "ConversionError",
    "ExitStatus",
    "ProtocolError",
    "ProtocolWarning",
    "Terminal",
    "TerminalCapabilities",
    "TerminalSize",
    "TerminalStore",
    "TranscriptDecoder",
    "V2ToV1Bridge",
    "__version__",
    "cancel_terminal_request",
    "check_batch",
    "reject_terminal_surfaces",
    "safe_line",
    "sanitize",
    "sanitize_arrow",
    "sanitize_batch",
    "session_notification",
    "terminal_output_chunk",
    "terminal_update",
]
