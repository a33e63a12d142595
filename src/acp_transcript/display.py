"""Safe one-line text for agent-controlled fields: command, cwd, IDs, titles, signals (SPEC 3.1 and 5, rev 2).

An Agent chooses these strings. Printed raw, ``"ls\\x1b]52;c;ZXZpbA==\\x07"`` writes to the clipboard of
whoever reads the log, and a newline in ``command`` forges a fake header line. ``safe_line`` applies the
safety filter of SPEC 2.5 in its one-line form: every character that is not safe to show on one line is
*shown* as the visible text ``<U+XXXX>`` (never silently removed, so a reader sees that something was there),
and the Unicode policy (``standard`` by default) handles characters that hide or reorder text.

>>> safe_line("ls\\x1b[2J\\nfake header")
'ls<U+001B>[2J<U+000A>fake header'
"""

from __future__ import annotations

import re

from ._unicode_policy import apply_policy

__all__ = ["safe_line"]

# C0 (tab and newline included: this is one line), DEL, C1, lone surrogates, and the characters on which
# str.splitlines() splits that are not already C0/C1 (U+2028/U+2029 are shown by every Unicode policy).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def _show(match: re.Match[str]) -> str:
    return f"<U+{ord(match.group()):04X}>"


def safe_line(value: object, unicode: str = "standard") -> str:
    """``value`` (a ``str``; anything else goes through ``str()``) as one safe line of text.

    The result contains no control character, no lone surrogate and nothing ``str.splitlines()`` splits
    on, so it can be printed to a terminal, written into a file or put into a UI label as it is.
    """
    text = value if isinstance(value, str) else str(value)
    if not text.isascii() or _UNSAFE.search(text) is not None:
        text = apply_policy(_UNSAFE.sub(_show, text), unicode, None)
    return text
