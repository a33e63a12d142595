"""Frames after CR (progress bars, spinners): both twins skip a frame that the next one covers without drawing
it (Parser.fold_frames), but only within a chunk. The twins must agree on the text, the live window and
every counter, from every state a frame can be drawn in, whatever the frames hold and wherever the chunks
are cut; and in one-byte chunks, where every frame is drawn, on the text and counters."""

from __future__ import annotations

import pytest
from helpers import calls as run
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

# What a frame can hold: text the fold scans (ASCII, two- and three-byte UTF-8, including each lead's edges)
# and everything that must end its scan (C1, E0/ED leads, four-byte and invalid UTF-8, controls, sequences).
PIECES = [
    b"a", b" ", b"|", "\u00e9".encode(), "\u00a0".encode(), "\u07ff".encode(), "\u2588".encode(), "\u4e2d".encode(),
    "\u1000".encode(), "\uffef".encode(), "\uec00".encode(), "\u202e".encode(),
    b"\xc2\x85", "\u0800".encode(), "\ud7ff".encode(), b"\xe0\x9f\xbf", b"\xed\xa0\x80", "\U0001f600".encode(),
    b"\xff", b"\xe2\x96", b"\xc3", b"\xc1\xbf",
    b"\x1b[31m", b"\x1b[K", b"\x1b[2D", b"\t", b"\x08", b"\x00", b"\x7f", b"\x1b]0;t\x07",
]
BLOCK = "\u2588".encode()
# Where the frames are drawn: an empty window, over a longer line, on a line above others, on the alternate
# screen, on a status-line overlay, after a tab, over a long chunked line, on a line with a kept tab.
PREFIXES = [b"", b"x" * 90 + b"\r", b"a\nb\nc\x1b[2A", b"\x1b[?1049h", b"\x1b7\x1b[24;1H", b"\tx",
            b"y" * 2000 + b"\x1b[5G\x1b[3@\r", b"ab\tcd\r"]


def agree(both, data, options, sizes=(None, 3, 7, 64)):
    """The twins agree call by call in chunks of each size; and in one-byte chunks, where no frame can be
    skipped (a frame is skipped only when the chunk holds it and the next one), on the text and counters."""
    compiled, fallback = both
    drawn = run(fallback, [data[i : i + 1] for i in range(len(data))], options)
    expected = ("".join(drawn[0][0::2]), drawn[1])
    for size in sizes:
        size = size or len(data) or 1
        chunks = [data[i : i + size] for i in range(0, len(data), size)]
        got = run(compiled, chunks, options)
        assert got == run(fallback, chunks, options), (data, size, options)
        assert ("".join(got[0][0::2]), got[1]) == expected, (data, size, options)


def bar(width: int, done: int) -> bytes:
    return b"\rget |" + BLOCK * done + b" " * (width - done) + b"| %3d%%" % (100 * done // max(width, 1))


def test_a_progress_bar_folds_to_its_last_frame(both):
    frames = b"".join(bar(30, done) for done in range(31)) + b"\n"
    for prefix in PREFIXES:
        for options in ({}, {"live_lines": 1}, {"max_line_cells": 40}, {"max_line_cells": 41},
                        {"max_line_cells": 42}, {"max_live_cells": 45}, {"tabs": "keep"}, {"mode": "strip"}):
            agree(both, prefix + frames + b"done\n", options)


def test_frames_that_shrink_or_grow_by_one_cell(both):
    # a frame is skipped only when the next one is at least as wide: one cell either way of that edge, in
    # one-, two- and three-byte characters, and frames at and past max_line_cells (they wrap: never skipped)
    for char in (b"=", "\u00e9".encode(), BLOCK):
        for width in (0, 1, 5, 15, 16, 17):
            for step in (-1, 0, 1):
                frames = b"".join(b"\r" + char * max(width + k * step, 0) for k in range(4)) + b"\n"
                for limit in (3, 5, 6, 16, 17, 100):
                    agree(both, frames, {"max_line_cells": limit}, sizes=(None, 5))


def test_every_piece_at_every_place_in_a_run_of_blocks(both):
    # the core tests three-byte characters four at a time (16 bytes): a piece that ends the scan, at every
    # position of such a run, in the frame that is skipped and in the one that covers it
    for piece in PIECES:
        for at in range(0, 14):
            odd = b"\r" + BLOCK * at + piece + BLOCK * (13 - at)
            plain = b"\r" + BLOCK * 16
            for frames in (odd + plain, plain + odd + plain, plain + odd, odd + odd):
                agree(both, frames + b"\n", {}, sizes=(None, 17))


frame = st.lists(st.sampled_from(PIECES), max_size=12).map(b"".join)


@given(st.sampled_from(PREFIXES), st.lists(frame, min_size=1, max_size=12), st.sampled_from([b"", b"\n", b"\r\n", b"\r"]),
       st.fixed_dictionaries({"max_line_cells": st.sampled_from([4, 8, 12, 65536]),
                              "max_live_cells": st.sampled_from([6, 20, 1 << 20]),
                              "live_lines": st.sampled_from([1, 3, 200])}),
       st.integers(1, 40))
def test_any_frames_in_any_chunks(both, prefix, frames, end, options, size):
    data = prefix + b"".join(b"\r" + f for f in frames) + end
    agree(both, data, options, sizes=(None, size))


def test_a_reused_buffer_is_scanned_afresh(both):
    # A pipeline that reads into one bytearray hands the decoder the same address every call; what the core
    # remembered of a frame it scanned in one call (to scan each frame once) must not describe the next call's
    # bytes there: here it would skip an ESC [ as a two-cell frame.
    first = b"\rAAAA\rBB\rZZZ"
    second = b"hello\r\x1b[\rabc"
    results = []
    for module in both:
        decoder = module.TranscriptDecoder()
        buffer = bytearray(first)
        out = decoder.decode(buffer)
        buffer[:] = second
        out += decoder.decode(buffer) + decoder.decode(b"", final=True)
        results.append((out, decoder.stats))
    assert results[0] == results[1]


# One-, two- and three-byte characters and a space: 8 bytes, 5 cells.
MIXED = b"ab" + "\u00e9".encode() + BLOCK + b" "


def test_a_piece_after_mixed_text_at_every_offset_of_a_block(both):
    # A frame's scan ends at its first piece that is not whole, valid text, wherever that piece falls in the
    # core's 16-byte blocks: a piece at every offset from a block's start, after text of one-, two- and
    # three-byte characters, in the frame that is skipped and in the one that covers it.
    plain = b"\r" + MIXED * 8
    # (and the edges of each byte class: leads cut short, C0 where a continuation byte is due, a stray one)
    edges = [b"\xc3", b"\xdf", b"\xe0\xa0", b"\xe1\x80", b"\xed\x80", b"\xef\xbf", b"\xf0\x9f\x98", b"\xc3\xc0",
             b"\xe2\x96\xc0", b"\x80", b"\x1f", b"~"]
    for piece in PIECES + edges:
        for shift in range(16):
            odd = b"\r" + b"x" * shift + MIXED * 3 + piece + MIXED * 2
            for frames in (odd + plain, plain + odd + plain):
                agree(both, frames + b"\n", {}, sizes=(None, 29))


def test_long_frames(both):
    # Frames of several KB of mixed text (a frame is scanned in one piece, whatever its length), some
    # ending inside a character (the frame then ends before it), in chunks that cut them.
    for length in (4079, 4080, 4081, 4087, 8161, 8170):
        text = (MIXED * (length // len(MIXED) + 1))[:length]
        for frames in (b"\r" + text + b"\r" + text + b"!", b"\r" + text + b"\r" + text[:-1]):
            agree(both, frames + b"\n", {}, sizes=(None, 4093))


# A sized screen (round 44) skips frames of one-cell characters (since round 52: and two-cell ones) that the
# next frame covers, while auto-wrap is on, insert mode off, no ZWJ pending, and over cells without padding
# but a wide character's own (_screen_py.ScreenSink.frame_limit):
# nothing changes, the counters included. agree's one-byte chunks draw every frame.
SCREEN = {"columns": 10, "rows": 3}


@pytest.mark.parametrize(("data", "expected", "overwritten"), [
    (b"\rab\rabc\rxyzw\r12345", "12345", 9),  # each frame covered by the next: skipped, counted
    (b"\x1b[4h\rab\rcd\r", "cdab", 0),  # insert mode: a frame moves the row's cells, it is not covered
    (b"\x1b[?7l\r  \r  x", "  x", 0),  # auto-wrap off: a space over a blank cell writes nothing (put_char)
    ("a\u200d\rb\rcd".encode(), "cd", 1),  # a pending ZWJ takes the first frame's character, dropped at column 0
    ("\u4e2d\u6587\rab\rabc".encode(), "abc", 4),  # frames cut wide characters: blanked either way
    # frames of one-cell characters past ASCII are skipped too (a progress bar's blocks), and since round 52
    # frames with wide characters, counted by their cells (a wide character overwritten counts once); one
    # with a mark is not skipped: a character of no cell ends what the fold counts
    ("\r\u2588 1%\r\u2588\u2588 2%\r\u2588\u2588\u2588 3%".encode(), "\u2588\u2588\u2588 3%", 9),
    ("\r\u4e2d\u4e2d\rab".encode(), "ab\u4e2d", 1),  # two characters do not cover four cells
    ("\r\u4e2d\r\u4e2d\u6587\r\u4e2d\u6587x".encode(), "\u4e2d\u6587x", 3),
    ("\ra\u4e2d\r\u4e2db\r\u4e2dbc".encode(), "\u4e2dbc", 4),  # wide characters at other columns
    # a frame that shrinks is drawn, and the frame after it, scanned then, is skipped by what that scan found
    ("\r\u4e2d\u4e2d\u4e2d\r\u4e2d\r\u4e2d\u6587\u5b57".encode(), "\u4e2d\u6587\u5b57", 4),
    # over wide characters: their padding is clean, where a frame ends in one's padding it is not
    ("\u4e2d\u6587\u4e2d\u6587\r\u4e2d\r\u4e2d\u6587\rxy\u6587".encode(), "xy\u6587\u4e2d\u6587", 5),
    ("a\u4e2d\rxy\rzw\rzwv".encode(), "zwv", 6),  # (the cell after xy is padding: drawn)
    # (stray padding: two in a row, DCH of the second of two wide characters; at column 0, DCH of the first)
    ("\u4e2d\u4e2d\x1b[1;3H\x1b[P\rabcd\rabcde".encode(), "abcde", 6),
    ("\u4e2d\u4e2d\x1b[1;3H\x1b[P\r\u00e9\u00e9\r\u00e9\u00e9\u00e9".encode(), "\u00e9\u00e9\u00e9", 4),
    ("\u4e2d\x1b[1;1H\x1b[P\rab\rabc".encode(), "abc", 3),
    ("\re\u0301\rab".encode(), "ab", 1),
    # not over stray padding (DCH of a wide character's left half leaves its padding): the frame cleared it,
    # tmux's collected path; put_char of the next frame's characters past ASCII does not clear it after a
    # narrow cell, and writing over it blanks the cell before (the fuzz target's one-call-or-a-byte check)
    ("abcde\u4e2d\x1b[6G\x1b[P\rabcde\rabcd\u00e9\x1b[?7l\x1b[8G\x1b[1@Z".encode(), "abcd\u00e9  Z", 11),
    ("abcde\u4e2d\x1b[6G\x1b[P\rabcde\rabcd\u00e9\u00ad".encode(), "abcd\u00e9\u00ad", 11),
    # ...asked again when a frame is longer than those the cells were found clean for
    ("abcde\u4e2d\x1b[6G\x1b[P\ra\rab\rabcde\rabcd\u00e9\u00ad".encode(), "abcd\u00e9\u00ad", 14),
])
def test_frames_on_a_screen(both, data, expected, overwritten):
    agree(both, data, SCREEN, sizes=(None,))
    out, stats = run(both[0], [data], SCREEN)
    assert (out[0] + out[2], stats["cells_overwritten"]) == (expected, overwritten)


def test_the_fallback_draws_only_the_frame_that_covers_the_others(monkeypatch):
    # What the fold saves cannot change any output (the tests above), so here the fallback's screen is
    # watched: of a chunk of frames, each covered by the next, only the last is drawn, for frames of one- and
    # two-cell characters over a row that holds wide characters already (their padding is clean).
    from acp_transcript import _decoder_py, _screen_py

    drawn: list[str] = []
    original = _screen_py.ScreenSink.print

    def watched(self, text):
        drawn.append(text)
        original(self, text)

    monkeypatch.setattr(_screen_py.ScreenSink, "print", watched)
    # (U+1100, the first wide character, first: the edge of the fallback's test for one)
    frames = ["\u1100\u4e0b\u8f7d %d%% %s" % (k, "\u2588" * (k // 2) + "\u4e2d" * k) for k in range(12)]
    decoder = _decoder_py.TranscriptDecoder(**SCREEN | {"columns": 40})
    decoder.decode(("\r" + frames[0]).encode())
    assert drawn == [frames[0]]
    drawn.clear()
    decoder.decode("".join("\r" + frame for frame in frames[1:]).encode() + b"\r")
    assert drawn == [frames[-1]]
    assert decoder.live == frames[-1]


SCREEN_PIECES = ["ab", "abc", "wxyz", " ", "  ", "x y", "\u4e2d", "\u4e2d\u6587", "e\u0301", "\u2588", "\u00e9\u00e9",
                 "\x1b[6G\x1b[P", "\u200d", "\r", "\r", "\r", "\r\n",
                 "\x1b[4h", "\x1b[4l", "\x1b[?7l", "\x1b[?7h", "\x1b[3G", "\x1b[K", "\n", "\x1b[2;4r", "\x1bM"]


@settings(max_examples=examples(300))
@given(st.lists(st.sampled_from(SCREEN_PIECES), max_size=40), st.integers(1, 6), st.integers(1, 3),
       st.sampled_from([1 << 20, 12, 5]))
def test_any_frames_on_any_screen(both, pieces, columns, rows, max_live_cells):
    agree(both, "".join(pieces).encode(), {"columns": columns, "rows": rows, "max_live_cells": max_live_cells},
          sizes=(None,))


@pytest.mark.parametrize("data", ["\rab\r\u2588\u4e2d", "\rabcd\r\u2588xy\u4e2dz\rq", "\rabcd\rxyz\u4e2d\u6587\r",
                                  "\r\u4e2d\u6587\rx\u4e2d\u6587\r", "\rabcd\r\u4e2d\u6587\u5b57"])
@pytest.mark.parametrize("columns", [2, 4, 5])
def test_a_frame_as_wide_as_the_row_before_one_whose_wide_character_wraps_is_drawn(both, data, columns):
    """(round 57, found by test_any_frames_on_any_screen) A frame that fills the row, then one of more cells
    whose wide character falls on the last column: that character wraps before it is written, so the last
    cell keeps what the first frame wrote there, and the first frame is not skipped."""
    agree(both, data.encode(), {"columns": columns, "rows": 2})
