"""The exceptions of acp-transcript.

Every error names *where* the input went wrong (a byte offset or a JSON pointer) and never echoes payload
data: terminal output can be private, and error messages end up in logs.

One rule for every message: ``str(error)`` is ``"<where>: <what>"``, where ``<where>`` is the RFC 6901 JSON
pointer (``/update/cwd``), or ``(root)`` for the empty pointer ``""`` (the object itself), or ``offset N``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Base64Error", "ConversionError", "ProtocolError"]


def where(pointer: str) -> str:
    """How a message names a JSON pointer: the pointer itself, or ``(root)`` for ``""``. A pointer can hold an
    object key chosen by the sender, so it is shown as one safe line (escapes as ``<U+001B>``)."""
    from .display import safe_line  # errors is imported by everything; display imports nothing of ours

    return safe_line(pointer) if pointer else "(root)"


class Base64Error(ValueError):
    """A chunk is not strict RFC 4648 base64. ``offset`` is the index of the first offending character."""

    def __init__(self, reason: str, offset: int) -> None:
        super().__init__(f"invalid base64 at offset {offset}: {reason}")
        self.reason = reason
        self.offset = offset


class ProtocolError(ValueError):
    """An ACP message breaks the v2 terminal rules.

    ``pointer`` is the RFC 6901 JSON pointer of the offending field, relative to the object given to the
    call. For a batch, ``errors`` lists one ``ProtocolError`` per invalid entry (their pointers start with the
    entry's index) and ``pointer`` is that of the first.
    """

    def __init__(self, message: str, pointer: str = "", errors: list[ProtocolError] | None = None) -> None:
        super().__init__(f"{where(pointer)}: {message}" if not errors else message)
        self.message = message
        self.pointer = pointer
        self.errors: list[ProtocolError] = list(errors or [])
        #: For a batch: the terminals that its valid entries created or changed (they were applied).
        self.changed: list[Any] = []

    def prefixed(self, prefix: str) -> ProtocolError:
        """The same error with ``prefix`` (a JSON pointer) in front of its pointer."""
        return ProtocolError(self.message, prefix + self.pointer)


class ConversionError(ValueError):
    """A stateless v1/v2 conversion met a terminal surface it must not map by shape (RFD: Compatibility)."""

    def __init__(self, message: str, pointer: str) -> None:
        super().__init__(f"{where(pointer)}: {message}")
        self.message = message
        self.pointer = pointer
