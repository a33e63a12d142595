"""Strict RFC 4648 base64 (section 4, standard alphabet, padded), as ACP's ``format: "byte"`` requires.

The Python fallback decodes with this module; the Cython core decodes in C and calls
``base64_error`` only to describe a failure, so both raise the same ``Base64Error`` with the same offset.
Non-zero pad bits are accepted (RFC 4648 3.5 lets decoders choose; ``binascii``'s strict mode accepts them).
"""

from __future__ import annotations

import binascii
import re

from .errors import Base64Error

__all__ = ["as_base64_bytes", "base64_error", "decode_base64_strict"]

_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_OUTSIDE = re.compile(rb"[^A-Za-z0-9+/=]")  # found by the regex engine: no Python step per byte


def as_base64_bytes(chunk: object) -> bytes | bytearray:
    """The chunk as ASCII bytes: a ``str`` (as found in JSON) or any bytes-like object."""
    if isinstance(chunk, str):
        try:
            return chunk.encode("ascii")
        except UnicodeEncodeError as exc:
            raise Base64Error("character outside the base64 alphabet", exc.start) from None
    if isinstance(chunk, (bytes, bytearray)):
        return chunk
    if isinstance(chunk, memoryview):
        return chunk.tobytes()
    raise TypeError(f"a base64 chunk must be str or bytes-like, not {type(chunk).__name__}")


def base64_error(data: bytes | bytearray) -> Base64Error | None:
    """The first way in which ``data`` is not strict base64, or ``None`` when it is valid."""
    data = bytes(data)
    outside = _OUTSIDE.search(data)
    if outside is not None:
        return Base64Error("character outside the base64 alphabet", outside.start())
    rest = data.translate(None, _ALPHABET)
    if rest:
        first_pad = data.index(b"=")
        after = data[first_pad:].lstrip(b"=")
        if after:
            return Base64Error("data after padding", len(data) - len(after))
        if len(rest) > 2 or first_pad % 4 < 2:
            return Base64Error("misplaced padding", first_pad)
    if len(data) % 4:
        return Base64Error("length is not a multiple of 4", len(data))
    return None


def decode_base64_strict(chunk: object) -> bytes:
    """Decode one independently encoded chunk; raise ``Base64Error`` (a ``ValueError``) if it is not strict."""
    data = as_base64_bytes(chunk)
    rest = data.translate(None, _ALPHABET)
    if len(data) % 4 == 0 and rest in (b"", b"=", b"==") and data[len(data) - len(rest) :] == rest:
        return binascii.a2b_base64(data)
    error = base64_error(data)
    assert error is not None
    raise error
