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
