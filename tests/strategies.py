"""Hypothesis strategies: terminal output as programs write it, and hostile variations of it."""

from __future__ import annotations

from hypothesis import strategies as st

FRAGMENTS = [
    b"\x1b", b"[", b"]", b"P", b"X", b"^", b"_", b"\\", b"?", b"1049", b"47", b"h", b"l", b";", b":", b"0", b"1",
    b"12", b"99999", b"m", b"K", b"J", b"H", b"f", b"A", b"B", b"C", b"D", b"E", b"F", b"G", b"X", b"@", b"P",
    b"b", b"d", b"s", b"u", b"`", b"a", b"7", b"8", b"c", b"M", b"!", b" ", b"\r", b"\n", b"\t", b"\x08", b"\x07",
    b"\x0b", b"\x18", b"\x1a", b"\x7f", b"\x00", b"\x9c", b"\xc2", b"\x85", b"\xe2", b"\x82", b"\xac", b"\xf0",
    b"\x9f", b"\x98", b"\x80", b"\xff", b"\xed\xa0\x80", "\u202e".encode(), "\u2028".encode(), "\U0001f3f4".encode(),
    "\U000e0067".encode(), "\U000e007f".encode(), "\u200b".encode(), b"hello", b"world ", b"\x1b[31m", b"\x1b[0m",
    b"\x1b]0;t\x07", b"\x1b[2K\r", b"\x1b[?1049h", b"\x1b[?1049l", b"\x1b[2J", b"\x1b[1;1H",
    # Latin-1 on lines of bytes (round 28): the range's ends, U+00AD (not on them), the first character past it
    "\u00e9".encode(), "\u00a0".encode(), "\u00ff".encode(), "\u00ad".encode(), "\u0100".encode(),
]

options = st.fixed_dictionaries(
    {},
    optional={
        "mode": st.sampled_from(["render", "strip"]),
        "tabs": st.sampled_from(["keep", "expand"]),
        "alt_screen": st.sampled_from(["drop", "keep"]),
        "unicode": st.sampled_from(["standard", "strict", "off"]),
        "live_lines": st.integers(1, 4),
        "max_line_cells": st.integers(1, 24),
        "max_live_cells": st.integers(1, 40),
        "max_jump": st.integers(0, 12),
        "max_string_bytes": st.integers(0, 8),
    },
)

terminal_bytes = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.binary(max_size=6)), max_size=40).map(b"".join)


@st.composite
def chunked(draw: st.DrawFn, data_strategy: st.SearchStrategy[bytes] = terminal_bytes) -> tuple[bytes, list[bytes]]:
    data = draw(data_strategy)
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=8)))
    bounds = [0, *cuts, len(data)]
    return data, [data[a:b] for a, b in zip(bounds, bounds[1:])]


# ---------------------------------------------------------------------------------------------- sized rendering

# Operations of SPEC 2.8 as programs write them, for the comparison with tmux (tests/test_screen_tmux.py).
# SGR is only ever a reset: tmux skips writing a space with default attributes on a blank cell, which shows
# in how far a wrapped row is joined; this package does not track attributes.
# Characters are ones whose width this package's table and the C library tmux asks agree on (Unicode 15):
# ASCII, Latin with a precomposed accent, CJK and an emoji (2 cells), combining marks and ZWJ (0 cells).
SCREEN_TEXT = [
    b"a", b"bc", b"hello ", b"0123456789", b"x" * 23, " ".encode(), "\u00e9".encode(), "\u4e2d".encode(),
    "\u6587\u5b57".encode(), "\U0001f600".encode(), "e\u0301".encode(), "\u0301".encode(),
    "\U0001f469\u200d\U0001f4bb".encode(), "\uff21".encode(),
    # runs of one width past U+1100 (put_run): block elements and halfwidth katakana (1 cell), Hangul (2)
    "\u2588\u258c\u2591".encode() * 3, "\uff71\uff72\uff73".encode(), "\ud55c\uae00".encode(),
]
SCREEN_CONTROLS = [b"\n", b"\r", b"\t", b"\x08", b"\r\n", b"\x1b7", b"\x1b8", b"\x1bD", b"\x1bE", b"\x1bM",
                   b"\x1b[s", b"\x1b[u", b"\x1b[?7l", b"\x1b[?7h", b"\x1b[?6h", b"\x1b[?6l", b"\x1b[0m",
                   b"\x1b[?1049h", b"\x1b[?1049l", b"\x1b[?47h", b"\x1b[?47l", b"\x1b[?1047h", b"\x1b[?1047l",
                   b"\x1b[r", b"\x1b[6n", b"\x1b[>c", b"\x1b[4h", b"\x1b[4l"]  # (queries: tmux answers on the pane's input, never the screen)
# REP comes only right after ASCII (tests/test_screen_tmux.py says why).
SCREEN_CSI_FINALS = b"ABCDEFGHJKLMPSTXZ@`dfr"


@st.composite
def screen_csi(draw: st.DrawFn) -> bytes:
    final = draw(st.sampled_from(SCREEN_CSI_FINALS))
    if final == ord("J"):  # ED 3 deletes tmux's history (this package never deletes it)
        params = [draw(st.sampled_from([b"", b"0", b"1", b"2"]))]
    else:
        count = draw(st.integers(0, 2))
        params = [str(draw(st.integers(0, 30))).encode() for _ in range(count)]
    return b"\x1b[" + b";".join(params) + bytes([final])


screen_rep = st.builds(lambda char, count: char + b"\x1b[" + count + b"b", st.sampled_from([b"a", b"-", b" "]),
                      st.sampled_from([b"", b"0", b"1", b"3", b"40"]))
screen_ops = st.one_of(st.sampled_from(SCREEN_TEXT), st.sampled_from(SCREEN_CONTROLS), screen_csi(), screen_rep)


@st.composite
def sized_streams(draw: st.DrawFn, max_ops: int = 60) -> tuple[bytes, int, int]:
    """(bytes, columns, rows): a stream that ends on the main screen (SPEC 2.8: the transcript of a stream
    that ends on the alternate screen is not tmux's by design)."""
    columns = draw(st.integers(2, 24))  # tmux 3.3a mishandles wide characters on one column (unsigned sums)
    rows = draw(st.integers(1, 8))
    data = b"".join(draw(st.lists(screen_ops, max_size=max_ops)))
    return data + b"\x1b[?1049l\x1b[?47l", columns, rows
