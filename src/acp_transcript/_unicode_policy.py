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

# What each policy acts on, one character class each (a flag sequence has tags in it, so no text without one
# of these characters has a flag either). Every such character is at or above the policy's lowest one, and
# one range of a class is what sre tests fastest (1.8 ns a character, where these classes take 6 and the
# flag alternation took 16): text that is not ASCII but has nothing at or above it (accented Latin, Cyrillic,
# Greek) is passed by that range alone, and other text is searched from the first character in it
# (benchmarks/README.md, round 21).
_PATTERNS = {
    "standard": re.compile(f"[{_BIDI}{_SEPARATORS}{_TAGS}]"),
    "strict": re.compile(f"[{_BIDI}{_SEPARATORS}{_TAGS}{_INVISIBLE}]"),
    "off": re.compile(f"[{_SEPARATORS}]"),
}
_LOWEST = {"standard": "\u2028", "strict": "\u00ad", "off": "\u2028"}  # (tests/test_unicode_policy.py checks)
_AT_OR_ABOVE = {policy: re.compile(f"[{lowest}-\U0010ffff]") for policy, lowest in _LOWEST.items()}
# Text past that bound (CJK, emoji: every character of it) is then searched with a class of two or three
# ranges that holds every character the policy acts on, 2.5 ns a character where its exact class takes 6,
# and only from a character in it with the exact class: a call of huge repeats of a CJK character returns
# 6.7 M characters, which the exact class alone took 45 ms to pass (benchmarks/README.md, round 28).
_CANDIDATES = {
    "standard": re.compile(f"[\u2028-\u2069{_TAGS}]"),
    "strict": re.compile(f"[\u00ad-\u2069\ufeff{_TAGS}]"),
    "off": _PATTERNS["off"],
}

#: The end of a text that may still become a flag sequence once more text arrives (standard policy only):
#: streamed strip output holds it back so that any chunking gives the same result.
HOLD = re.compile(f"\U0001f3f4[{_TAG_SPEC}]{{0,6}}\\Z")

_FLAG_RE = re.compile(_FLAG)
# What each policy does, per category: shown as <U+XXXX> or removed. The work is done by str.replace /
# str.count per character present and one regex subn for the tags, all at C speed (no Python call per
# character), so text dense in such characters is not a slow path (SPEC 2.5; issue: hostile slow paths).
_SHOWN = {
    "bidi_shown": ([*range(0x202A, 0x202F), *range(0x2066, 0x206A)], ("standard", "strict")),
    "separators_shown": ([0x2028, 0x2029], ("standard", "strict", "off")),
    "invisible_shown": ([0x200B, *range(0x2060, 0x2065), 0xFEFF, 0xAD, 0x180E, 0x200E, 0x200F, 0x61C], ("strict",)),
}
_TAG_PATTERN = re.compile(f"[{_TAGS}]")


def _translate(text: str, policy: str, stats: dict[str, int] | None) -> str:
    for name, (codes, policies) in _SHOWN.items():
        if policy not in policies:
            continue
        for code in codes:
            ch = chr(code)
            if ch in text:
                if stats is not None:
                    stats[name] += text.count(ch)
                text = text.replace(ch, f"<U+{code:04X}>")
    if policy != "off":
        text, removed = _TAG_PATTERN.subn("", text)
        if stats is not None:
            stats["tags_removed"] += removed
    return text


def apply_policy(text: str, policy: str, stats: dict[str, int] | None) -> str:
    """Apply ``policy`` to ``text``; count what changed into ``stats`` (``None``: count nothing).

    >>> apply_policy("a\\u202eb", "standard", None)
    'a<U+202E>b'
    """
    if text.isascii():
        return text
    first = _AT_OR_ABOVE[policy].search(text)
    if first is None:
        return text
    near = _CANDIDATES[policy].search(text, first.start())
    if near is None or _PATTERNS[policy].search(text, near.start()) is None:
        return text
    if policy != "standard" or "\U0001f3f4" not in text:
        return _translate(text, policy, stats)
    # Standard policy: a whole flag sequence (black flag, 2-6 tag specs, cancel tag) is kept as it is;
    # the text between flag sequences is translated.
    pieces = []
    at = 0
    for match in _FLAG_RE.finditer(text):
        pieces.append(_translate(text[at : match.start()], policy, stats))
        pieces.append(match.group())
        at = match.end()
    pieces.append(_translate(text[at:], policy, stats))
    return "".join(pieces)
