"""The Unicode policy of SPEC 2.5: characters that hide or reorder text, applied to text as it leaves the
decoder (committed lines, ``live``, strip output). Shared by both implementations, so they agree by
construction; it runs once per piece of output, never per input byte, and plain ASCII skips it at once.

"Shown" means replaced by the visible text ``<U+XXXX>``. Column arithmetic is not affected: the decoder
counts every code point as one cell before this runs.
"""

from __future__ import annotations

import re

__all__ = ["apply_policy", "HOLD"]

_BIDI = "\u202a-\u202e\u2066-\u2069"  # embeddings, overrides, isolates (Trojan Source, CVE-2021-42574)
_SEPARATORS = "\u2028\u2029"  # str.splitlines() splits on them: never raw, in any policy
_TAGS = "\U000e0000-\U000e007f"  # invisible ASCII smuggling ("ASCII smuggling" of prompts)
_INVISIBLE = "\u200b\u2060-\u2064\ufeff\u00ad\u180e\u200e\u200f\u061c"
_TAG_SPEC = "\U000e0030-\U000e0039\U000e0061-\U000e007a"
# Unicode's emoji tag sequence for subdivision flags (UTS #51 ED-14a): black flag, 2-6 tag specs, cancel tag.
_FLAG = f"\U0001f3f4[{_TAG_SPEC}]{{2,6}}\U000e007f"

_PATTERNS = {
    "standard": re.compile(f"({_FLAG})|[{_BIDI}{_SEPARATORS}{_TAGS}]"),
    "strict": re.compile(f"()[{_BIDI}{_SEPARATORS}{_TAGS}{_INVISIBLE}]"),
    "off": re.compile(f"()[{_SEPARATORS}]"),
}

#: The end of a text that may still become a flag sequence once more text arrives (standard policy only):
#: streamed strip output holds it back so that any chunking gives the same result.
HOLD = re.compile(f"\U0001f3f4[{_TAG_SPEC}]{{0,6}}\\Z")

_BIDI_SET = frozenset(chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def _category(ch: str) -> str:
    if ch in _BIDI_SET:
        return "bidi_shown"
    if ch in _SEPARATORS:
        return "separators_shown"
    if "\U000e0000" <= ch <= "\U000e007f":
        return "tags_removed"
    return "invisible_shown"


def apply_policy(text: str, policy: str, stats: dict[str, int] | None) -> str:
    """Apply ``policy`` to ``text``; count what changed into ``stats`` (``None``: count nothing).

    >>> apply_policy("a\\u202eb", "standard", None)
    'a<U+202E>b'
    """
    if text.isascii():
        return text
    pattern = _PATTERNS[policy]
    if pattern.search(text) is None:
        return text

    def replace(match: re.Match[str]) -> str:
        if match.group(1):  # a whole flag sequence: kept as is
            return match.group(1)
        ch = match.group()
        category = _category(ch)
        if stats is not None:
            stats[category] += 1
        return "" if category == "tags_removed" else f"<U+{ord(ch):04X}>"

    return pattern.sub(replace, text)
