"""Gaps and repeats on a line of bytes (round 26): text written past a line's end after a cursor move (CUF,
CHA, a tab) leaves blank cells between (SPEC 2.3), and REP of printable ASCII writes the character again.
The core keeps such a line as bytes, its blanks as BLANK bytes, where it widened the line to four bytes a
cell; every reader of a line of bytes (the text, the overwritten counter, a tab over blanks only, erases,
inserts, the cut into chunks) must then read a BLANK byte as a blank cell. The fallback has no such lines,
so it is the oracle: the twins agree call by call, in any chunks, with tight limits."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from helpers import assert_transcript, calls, examples

# Moves past the end and back into the gap, text over a gap and across its ends, tabs over blanks only and
# over written cells, erases and inserts on a line with a gap, REP of ASCII and not, line ends, and a long
# gap (more than a chunk, 512 cells, so that an edit inside it cuts the line into chunks).
TOKENS = [
    b"x", b"ab", b"0123456789", b" ", b"\t", b"\r", b"\n", b"\x1b[5C", b"\x1b[20C", b"\x1b[600C", b"\x1b[3G",
    b"\x1b[9G", b"\x1b[30G", b"\x1b[4D", b"\x1b[K", b"\x1b[1K", b"\x1b[2K", b"\x1b[3X", b"\x1b[2@", b"\x1b[2P",
    b"\x1b[3b", b"\x1b[700b", "\u00e9".encode(), "\u4e2d".encode(), b"\x1b[31m", b"\x1b7", b"\x1b8",
    b"\x1b[2A", b"\x1b[?1049h", b"\x1b[?1049l",
]

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "mode": st.sampled_from(["render", "render", "strip"]),
        "tabs": st.sampled_from(["keep", "keep", "expand"]),
        "live_lines": st.integers(1, 4),
        "max_line_cells": st.sampled_from([7, 8, 24, 40, 1000, 65536]),
        "max_live_cells": st.sampled_from([30, 200, 1 << 20]),
        "max_jump": st.sampled_from([0, 3, 16, 1024]),
    },
)


@st.composite
def chunked(draw: st.DrawFn) -> list[bytes]:
    data = b"".join(draw(st.lists(st.sampled_from(TOKENS), max_size=30)))
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=6)))
    bounds = [0, *cuts, len(data)]
    return [data[a:b] for a, b in zip(bounds, bounds[1:])]


@settings(max_examples=examples(300))
@given(chunked(), OPTIONS)
@example([b"x\x1b[20Cy\r\x1b[3G\tz\n"], {})  # a tab over blanks only: a tab cell, as on a widened line
@example([b"ab\x1b[5Ccd\r\x1b[2G\t\x1b[Kq"], {})  # over a written cell: the cursor only moves
@example([b"x\x1b[10Cy\r0123456789AB"], {})  # overwritten: the two written cells, not the gap's blanks
@example([b"x\x1b[600Cy\r\x1b[300G\x1b[@z\n"], {})  # an insert inside a long gap: the line in chunks
@example([b"x\x1b[20C", b"y\x1b[5D\x1b[K"], {})  # an erase back into the gap: trailing blanks dropped
@example([b"x\x1b[700b\x1b[20Cy\r\x1b[3b\n"], {})  # REP of ASCII, then over the line's start
@example([b"\x1b[5C\x1b[3b", b"\r\x1b[2Cq\n"], {"max_jump": 3})  # REP past the end, bounded by max_jump
# REP of a character that is not ASCII onto a fresh line (a wrap): never bytes, whose str says ASCII
@example(["abcdef\u00e9\x1b[3b".encode(), b"\n"], {"max_line_cells": 7, "live_lines": 1})
def test_gaps_and_repeats_change_nothing(both, chunks, options) -> None:
    """Call by call, text and counters: the core's lines of bytes with gaps against the fallback's cells;
    and every str the core returns is well formed (a str compares equal by its bytes, so a line of bytes
    that held a character past ASCII would pass the comparison in a str that says it is ASCII)."""
    core, fallback = both
    texts, counters = calls(core, chunks, options)
    assert (texts, counters) == calls(fallback, chunks, options)
    for text in texts:
        assert text.isascii() == (not text or max(text) < "\x80")


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"x\x1b[20Cy\n", "x" + " " * 20 + "y\n"),
        (b"x\x1b[20Cy\r\x1b[3G\tz\n", "x \tz" + " " * 12 + "y\n"),  # the tab's crossed cells were all blank
        (b"ab\x1b[5Ccd\r\x1b[2G\t\x1b[Kq", "ab     cq"),  # 'b' is crossed: no tab cell, and EL cuts 'd'
        (b"x\x1b[20Cy\x1b[D\x1b[K\n", "x\n"),  # the gap is trailing blanks once 'y' is erased
        (b"x\x1b[3bz\x1b[5C\x1b[2b\n", "xxxxz\n"),  # REP after a move: nothing to repeat (SPEC 2.3 rev 2)
        (b"x\x1b[3bz\x1b[5Cq\x1b[2b\n", "xxxxz     qqq\n"),
        (b"\x1b[4C\t|\n", "    \t|\n"),  # a tab right after the gap is appended as a span
        # runs of blank bytes longer than the core's 32-byte step: a gap, and filler cells with tabs among them
        (b"x\x1b[40Cy\n", "x" + " " * 40 + "y\n"),
        (b"x\x1b[40Cy\r\x1b[34G\t\n", "x" + " " * 32 + "\t y\n"),
        (b"\t\t\t\t\t\ra\n", "a       \t\t\t\t\n"),  # the first span's tab overwritten: its fillers are blanks
    ],
)
def test_lines_with_gaps_read_as_a_terminal_shows_them(impl, data: bytes, expected: str) -> None:
    assert_transcript(impl, data, expected)


@pytest.mark.parametrize(("data", "count"), [
    (b"x\x1b[10Cy\r0123456789AB", 2),  # over x, ten blanks and y
    (b"x\x1b[10Cy\r\x1b[2G0123", 0),  # over blanks only
    (b"x\x1b[10Cy\r\x1b[2Gq\x1b[20b", 1),  # q and REP over the gap and y
])
def test_only_written_cells_count_as_overwritten(impl, data: bytes, count: int) -> None:
    decoder = impl.TranscriptDecoder()
    decoder.decode(data, final=True)
    assert decoder.stats["cells_overwritten"] == count


def test_a_gap_at_the_cell_limit_wraps_as_text_does(impl) -> None:
    """A character due past max_line_cells after a move starts the next line; the gap before it stays."""
    decoder = impl.TranscriptDecoder(max_line_cells=10)
    assert decoder.decode(b"ab\x1b[6Ccd\x1b[3Ce\n", final=True) == "ab      cd\ne\n"
