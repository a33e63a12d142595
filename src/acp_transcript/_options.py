"""Decoder options and diagnostics counters, shared by both implementations.

Validation lives here once so that the Cython core and the Python fallback accept and reject exactly the
same options with the same messages.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["MODES", "TABS", "ALT_SCREEN", "UNICODE", "STAT_KEYS", "DEFAULTS", "Options", "parse_options", "new_stats"]

MODES = ("render", "strip")
TABS = ("keep", "expand")
ALT_SCREEN = ("drop", "keep")
UNICODE = ("standard", "strict", "off")

#: The counters of ``TranscriptDecoder.stats``, in a fixed order (SPEC 2.6). Each says how much of the
#: input did not reach the transcript as written, so a client can flag output that tried to hide something.
STAT_KEYS = (
    "sequences_removed",  # escape sequences (each ESC starts one; an ST closing a string is its own)
    "controls_removed",  # C0 controls and DEL with no effect on the transcript in this mode
    "invalid_bytes",  # bytes of invalid UTF-8, each maximal subpart replaced by one U+FFFD
    "c1_dropped",  # decoded code points U+0080-U+009F
    "strings_abandoned",  # control strings given up at an LF after max_string_bytes
    "unterminated_at_final",  # final=True found a sequence or string still open
    "alt_screen_dropped",  # characters of the alternate screen discarded (alt_screen="drop")
    "cells_overwritten",  # written cells that were overwritten, erased, deleted or cut
    "overlay_dropped",  # characters of status-line overlays (save, address, draw, restore) discarded
    "bidi_shown",  # bidi controls shown as <U+XXXX>
    "separators_shown",  # U+2028/U+2029 shown as <U+XXXX>
    "tags_removed",  # tag characters removed
    "invisible_shown",  # invisible format characters shown (unicode="strict")
)


def new_stats() -> dict[str, int]:
    return dict.fromkeys(STAT_KEYS, 0)


class Options(NamedTuple):
    mode: str
    tabs: str
    alt_screen: str
    unicode: str
    live_lines: int
    max_line_cells: int
    max_live_cells: int
    max_jump: int
    max_string_bytes: int


#: The defaults, in one place: the decoders' signatures, the CLI's flags and the README read them from here.
DEFAULTS = Options(
    mode="render",
    tabs="keep",
    alt_screen="drop",
    unicode="standard",
    live_lines=200,
    max_line_cells=65536,
    max_live_cells=1 << 20,
    max_jump=1024,
    max_string_bytes=65536,
)


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, not {value!r}")
    return value


def _limit(name: str, value: object, minimum: int) -> int:
    # bool is an int subclass; True as a limit is a bug in the caller, not a 1.
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not minimum <= value <= (1 << 40):
        raise ValueError(f"{name} must be between {minimum} and {1 << 40}, not {value}")
    return value


def parse_options(
    mode: str = DEFAULTS.mode,
    tabs: str = DEFAULTS.tabs,
    alt_screen: str = DEFAULTS.alt_screen,
    unicode: str = DEFAULTS.unicode,
    live_lines: int = DEFAULTS.live_lines,
    max_line_cells: int = DEFAULTS.max_line_cells,
    max_live_cells: int = DEFAULTS.max_live_cells,
    max_jump: int = DEFAULTS.max_jump,
    max_string_bytes: int = DEFAULTS.max_string_bytes,
) -> Options:
    """Validate the keyword options of ``TranscriptDecoder``; raise ``TypeError``/``ValueError``."""
    return Options(
        _choice("mode", mode, MODES),
        _choice("tabs", tabs, TABS),
        _choice("alt_screen", alt_screen, ALT_SCREEN),
        _choice("unicode", unicode, UNICODE),
        _limit("live_lines", live_lines, 1),
        _limit("max_line_cells", max_line_cells, 1),
        _limit("max_live_cells", max_live_cells, 1),
        _limit("max_jump", max_jump, 0),
        _limit("max_string_bytes", max_string_bytes, 0),
    )
