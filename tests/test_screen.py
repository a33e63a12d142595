"""Sized rendering (SPEC 2.8): ``TranscriptDecoder(columns=, rows=)``, both twins.

The expected transcripts in the table were checked against tmux 3.3a (``tests/tmux_reference.py``, modulo
trailing blanks); ``test_screen_tmux.py`` compares random streams with a live tmux.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from acp_transcript import _screen_py
from helpers import calls, examples
from strategies import screen_ops, sized_streams
from test_long_lines import chunk_cells

CASES = [
    # auto-wrap: soft-wrapped rows are one line of the transcript
    (b"abcdefghij", 4, 5, "abcdefghij"),
    # the pending wrap: a character in the last column wraps only when the next one arrives
    (b"abcd\r\nX", 4, 5, "abcd\nX"),
    # DECAWM off: each character past the margin replaces the one in the last column
    (b"\x1b[?7labcdefg", 4, 5, "abcg"),
    # a wide character that does not fit wraps whole
    ("中文字".encode(), 5, 5, "中文字"),
    # absolute addressing
    (b"\x1b[2;3Hx\x1b[1;1Hy", 10, 3, "y\n  x"),
    # ED 2 commits the screen first (tmux's scroll-on-clear); the cursor stays where it was
    (b"a\nb\x1b[2Jc", 10, 3, "a\nb\n\n c"),
    # IL inside a scroll region
    (b"1\n2\n3\x1b[2;3r\x1b[2;1H\x1b[L", 10, 3, "1\n\n2"),
    # a full-screen program on the alternate screen leaves nothing
    (b"shell$ vim\n\x1b[?1049h\x1b[Hfile\x1b[?1049lshell$ ", 20, 5, "shell$ vim\nshell$ "),
    # lines that scroll off the top are the history
    (b"1\n2\n3\n4\n5", 10, 3, "1\n2\n3\n4\n5"),
    # a zero-width character joins the cell before it, and is dropped in column 0
    (b"e\xcc\x81", 10, 2, "e\u0301"),
    (b"\r\xcc\x81x", 10, 2, "x"),
    # ICH and DCH on the row
    (b"abc\x1b[2D\x1b[@", 10, 2, "a bc"),
    (b"abcdef\x1b[1;1H\x1b[2P", 10, 2, "cdef"),
    # a scroll region that does not start at the top still keeps its lines (tmux 3.3a)
    (b"0\n1\n2\n3\n4\x1b[2;4r\x1b[4;1H\nA\nB\nC", 10, 5, "1\n2\n3\n0\nA\nB\nC\n4"),
    # lines streamed into a region above a status line (apt's progress bar), which the fallback takes many
    # at a time: the region's top rows go to the history, a wrapped one keeps its line open (the LF from
    # entering the alternate screen ends it), long lines wrap, the status line stays
    (b"\x1b[2;4r\x1b[2;1H" + b"x" * 15 + b"\x1b[4;1Ha\n\x1b[?1049hALT\x1b[?1049lb", 10, 5,
     "xxxxxxxxxx\n\nxxxxx\na\nb"),
    (b"top\x1b[1;4r\x1b[4;1H" + b"".join(b"line %d\n" % i for i in range(9)) + b"\x1b[5;1Hstatus", 10, 5,
     "top\n\n\nline 0\nline 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\n\nstatus"),
    (b"\x1b[5;1Hstatus\x1b[2;4r\x1b[4;1H" + b"x" * 25 + b"\n" + b"y" * 7 + b"\n\x1b[1;5r\x1b[5;1Hend", 10, 5,
     "\n\n" + "x" * 20 + "\nxxxxx\n" + "y" * 7 + "\n\nendtus"),
    # text of one- and two-cell characters over several rows, which the fallback writes a row at a time
    # while the row it goes on is clean: a wide character that would straddle the margin wraps whole, and
    # where a row holds wide characters or marks the rest of the text takes the exact path from there
    ("ab中中中中中中中中cd\u0416\u0416 \u0416".encode(), 5, 4, "ab中中中中中中中中cdЖЖ Ж"),
    ("\x1b[2;1H中中中\x1b[1;1H中中中ab".encode(), 6, 3, "中中中ab中中"),
    ("\x1b[2;1Hxe\u0301y\x1b[1;1H中中中abc".encode(), 6, 3, "中中中abc"),
    ("\x1b[2;1H中中中\x1b[1;1Hab中中中ab".encode(), 6, 3, "ab中中中ab中"),
    ("\x1b[2;2H文\x1b[1;1Hab中中中ab".encode(), 6, 3, "ab中中中ab"),
    # where the wrapped wide character went shows in what a later write over those columns leaves
    ("ab中中中中\x1b[2;2Hy".encode(), 5, 4, "ab中中y中中"),
    ("ab中中中中\x1b[1;5Hx\x1b[2;1Hz".encode(), 5, 4, "ab中xz 中中"),
    # padding DCH parted from its wide character: writing a character over it blanks the cell before it,
    # even one the same run just wrote (a run is one write only where no such padding is in its way)
    ("a中\x1b[2G\x1b[P\réé".encode(), 10, 3, " é"),
    ("a中\x1b[2G\x1b[P\x1b[2G文".encode(), 10, 3, " 文"),
    ("ab中\x1b[3G\x1b[P\r文文".encode(), 10, 3, "文文"),
    # insert mode (IRM, CSI 4 h): each character first moves the cells from the cursor right, as ICH of its
    # width would (before it wraps; a full row loses its last cells); CSI 4 l and RIS end it. What tmux 3.3a
    # showed for each.
    (b"abc\r\x1b[4hXY", 10, 3, "XYabc"),
    (b"abcdefghij\r\x1b[4hX", 10, 3, "Xabcdefghi"),
    (b"abcdefghi\x1b[4hXY", 10, 3, "abcdefghiXY"),
    (b"abc\r\x1b[4hx\x1b[3b", 10, 3, "xxxxabc"),
    (b"\x1b[?7labcdefghij\r\x1b[4hXYZ", 10, 3, "XYZabcdefg"),
    (b"ab\r\x1b[4hX\x1b[4lY", 10, 3, "XYb"),
    (b"\x1b[4h\x1bcab\rX", 10, 3, "Xb"),
    (b"abc\x1b[2;1Hdef\x1b[1;2H\x1b[1;4h  ", 10, 3, "a  bc\ndef"),
    ("ab\r\x1b[4h中e\u0301".encode(), 10, 3, "中e\u0301ab"),
    ("a中b\x1b[2G\x1b[4hX".encode(), 10, 3, "aX中b"),
    ("a中b\x1b[3G\x1b[4hX".encode(), 10, 3, "a中Xb"),
    # the room is made before the wrap: a wide character in the last column clears that cell and goes to the
    # next row, which keeps its cells; a space is written even on a blank cell (the wrapped row reaches it)
    ("abcdefghi\x1b[2;1Hxyz\x1b[1;10H\x1b[4h中".encode(), 10, 3, "abcdefghi中z"),
    (b"abcdefgh\x1b[10G\x1b[4h X", 10, 3, "abcdefgh  X"),
]


@pytest.mark.parametrize(("data", "columns", "rows", "expected"), CASES)
def test_sized_rendering(impl, data, columns, rows, expected):
    assert impl.sanitize(data, columns=columns, rows=rows) == expected
    decoder = impl.TranscriptDecoder(columns=columns, rows=rows)
    out = "".join(decoder.decode(data[i : i + 1]) for i in range(len(data)))
    assert out + decoder.decode(b"", final=True) == expected


def test_a_row_never_ends_in_blanks(impl):
    """A space written where a wide character's right half was blanks the character; when that was the
    row's end, the row ends there (found by the differential test: the core kept two trailing blanks until
    the next write, the fallback dropped them at it)."""
    data = " \x1b[Zaa\x1b[?7l中文字 \x1b[Za".encode()
    assert impl.sanitize(data, columns=4, rows=1) == "aa"
    decoder = impl.TranscriptDecoder(columns=4, rows=1)
    decoder.decode("aa\x1b[?7l中 ".encode())
    assert decoder.live == "aa"


@pytest.mark.parametrize("columns, rows", [(10, 3), (10, 1), (7, 24), (1, 2)])
def test_a_log_scrolling_through_the_screen(both, columns, rows):
    """Plain lines through the bottom row: the fallback takes them as a block (put_lines), the core row by
    row; lines shorter than, as long as and longer than a row, empty lines, then edits after them."""
    lines = [b"x" * (n % 23) + b"%d" % n for n in range(300)] + [b"", b"0123456789", b"", b"end"]
    data = b"\n".join(lines) + b"\n\x1b[2A\x1b[Kedit\x1b[5;1Hcup"
    c, py = both
    outputs = []
    for impl in (c, py):
        for step in (len(data), 4096, 37):
            decoder = impl.TranscriptDecoder(columns=columns, rows=rows)
            out = "".join(decoder.decode(data[i : i + step]) for i in range(0, len(data), step))
            outputs.append((out + decoder.decode(b"", final=True), decoder.stats))
    assert all(output == outputs[0] for output in outputs)
    assert outputs[0][0].startswith("x" * 0 + "0\nx1\nxx2\n")


@pytest.mark.parametrize("columns, rows", [(10, 3), (9, 1), (7, 24), (2, 2), (1, 2)])
@pytest.mark.parametrize("max_live_cells", [1_000_000, 30])
def test_lines_of_wide_and_narrow_characters_scrolling_through_the_screen(both, columns, rows, max_live_cells):
    """Lines of one- and two-cell characters through the bottom row: the fallback takes them as a block
    (put_lines, round 31), wide characters that would straddle the margin put on the next row; the core row
    by row. Lines of exactly a row's cells, a wide character at the margin, empty lines, lines with combining
    marks (taken when they fit on a row, since round 46; not with more than _MARKS_UNMEASURED on a cell), on
    one column (not taken), and a cell bound that commits rows early."""
    words = ["\u4e2d\u6587", "\u65e5\u672c\u8a9e", "\u0416\u0443\u0440\u043d\u0430\u043b", "\u00e9" * 9,
             "\ud55c \uad6d", "a\u4e2d", "\u4e2d" * 5, "x" * 9 + "\u4e2d", "", "x" * 8 + "\u4e2d", "e\u0301" * 3,
             "\u0915\u093e\u0930 ", "\u4e2d\u0301\u0302x", "a" + "\u0301" * 7, "\u0301b"]
    lines = [words[n % len(words)] * (n % 4 + 1) + str(n % 7 or "") for n in range(300)]
    lines += ["e\u0301\u4e2d", "", "end\u4e2d"]
    data = "\n".join(lines).encode() + b"\n\x1b[2A\x1b[Kedit\x1b[5;1Hcup"
    c, py = both
    outputs = []
    for impl in (c, py):
        for step in (len(data), 4096, 37):
            decoder = impl.TranscriptDecoder(columns=columns, rows=rows, max_live_cells=max_live_cells)
            out = "".join(decoder.decode(data[i : i + step]) for i in range(0, len(data), step))
            outputs.append((out + decoder.decode(b"", final=True), decoder.stats))
    assert all(output == outputs[0] for output in outputs)
    if columns > 1:  # (on one column a wide character has no room)
        assert outputs[0][0].replace("\n", "").startswith("\u4e2d\u6587" + "\u65e5\u672c\u8a9e" * 2 + "1")


@settings(max_examples=examples(200))
@given(st.lists(st.lists(st.sampled_from(["a", "a", " ", "\u00e9", "\u4e2d", "\u4e2d", "\u4e2d", "\u0416", "\ud55c",
                                          "\u0301", "\x1b[31m", "\x1b[0m", "\t", "\u2588"]), max_size=25).map("".join),
                max_size=40),
       st.integers(1, 12), st.integers(1, 6), st.integers(1, 300), st.sampled_from([1, 5, 30, 100, 10**6]),
       st.booleans(), st.sampled_from([b"", b"\x1b[?1049h", b"\x1b[?1049hwrapped above\x1b[2;9r",
                                       b"\x1b[?1049hwrapped above\x1b[2;3r", b"\x1b[4h",
                                       b"\x1b[4hwrapped above\x1b[2;9r"]))
def test_lines_through_small_screens_twins_agree_call_by_call(both, lines, columns, rows, step, cells, bottom,
                                                              start):
    # lines of narrow, wide and marked characters with SGR and tabs (put_lines takes some as a block, others
    # go row by row), from the bottom row or above it, under cell bounds that commit rows early: each call's
    # output, the live screen after it and the counters; on the main screen, the alternate one or in insert
    # mode (round 50), with or without a region from row 2 (the row above it wrapped on a narrow screen)
    data = start + (b"\x1b[%d;1H" % rows if bottom else b"") + "\n".join(lines).encode() + b"\n"
    results = []
    for impl in both:
        decoder = impl.TranscriptDecoder(columns=columns, rows=rows, max_live_cells=cells)
        calls = []
        for i in range(0, len(data), step):
            calls += [decoder.decode(data[i : i + step]), decoder.live]
        results.append((calls, decoder.decode(b"", final=True), decoder.stats))
    assert results[0] == results[1]


def test_lines_of_wide_characters_taken_as_a_block_keep_the_cell_bound(both):
    # a wide character is two cells: the block of lines the fallback takes at once is counted in cells, so
    # that max_live_cells commits the same rows early as row by row (11 lines of 10 cells, 66 characters,
    # against a bound of 100 cells)
    c, py = both
    data = b"\x1b[24;1H" + "\u4e2d\u6587\u5b57\u65e5\u672c\n".encode() * 11
    results = []
    for impl in (c, py):
        decoder = impl.TranscriptDecoder(columns=20, rows=24, max_live_cells=100)
        results.append((decoder.decode(data), decoder.live, decoder.stats))
    assert results[0] == results[1]
    assert results[0][0] == "\n" * 10 + "\u4e2d\u6587\u5b57\u65e5\u672c\n\n"  # (the first line, committed early)
    assert results[0][1].count("\u4e2d") == 10


def test_the_fallback_takes_lines_with_combining_marks_as_a_block(both, monkeypatch):
    # (round 46) lines of decomposed accents, Hindi or Thai that fit on a row do not go through put_text one
    # by one either: the lines that go through to the history are their own text, the rows that stay keep
    # their marks (an erase and a write over them after the block)
    from acp_transcript import _screen_py

    texts = []
    put_text = _screen_py.ScreenSink.put_text
    monkeypatch.setattr(_screen_py.ScreenSink, "put_text", lambda sink, text: texts.append(text) or put_text(sink, text))
    data = ("cafe\u0301 \u0915\u093e\u0930 \u4e2d\u0301 %d\n" * 100).encode() % tuple(range(100))
    data += b"\x1b[2A\x1b[3X\x1b[Ax\n"
    results = []
    for impl in both:
        decoder = impl.TranscriptDecoder(columns=80, rows=3)
        results.append((decoder.decode(data), decoder.live, decoder.decode(b"", final=True), decoder.stats))
    assert results[0] == results[1]
    assert results[0][0].startswith("cafe\u0301 \u0915\u093e\u0930 \u4e2d\u0301 0\ncafe\u0301")
    assert results[0][1] == ("x  e\u0301 \u0915\u093e\u0930 \u4e2d\u0301 98\n"
                             "cafe\u0301 \u0915\u093e\u0930 \u4e2d\u0301 99")
    # (the lines above the bottom row, twice; the x after the block, typed over a cell without marks of a row
    # with some, is put_typed's write since round 52)
    assert len(texts) == 2 and all(text.startswith("cafe\u0301") for text in texts)


def twins_with_scrolls_counted(both, monkeypatch, data: bytes, columns: int):  # type: ignore[no-untyped-def]
    """Each twin's output, live screen, final text and counters for ``data`` on six rows, and how many scrolls
    of one row the fallback made (scroll_region_up): a block of lines through the bottom row makes none."""
    from acp_transcript import _screen_py

    scrolls: list[int] = []
    scroll_region_up = _screen_py.ScreenSink.scroll_region_up
    monkeypatch.setattr(_screen_py.ScreenSink, "scroll_region_up",
                        lambda sink: scrolls.append(1) or scroll_region_up(sink))
    results = []
    for impl in both:
        decoder = impl.TranscriptDecoder(columns=columns, rows=6)
        results.append((decoder.decode(data), decoder.live, decoder.decode(b"", final=True), decoder.stats))
    return results, scrolls


@pytest.mark.parametrize("region", [b"", b"\x1b[3;6r", b"\x1b[5;6r"])
@pytest.mark.parametrize("text", [b"".join(b"line %d\n" % k for k in range(20)), b"abcdefghij" * 9 + b"z\n",
                                  ("\u4e2d\u6587ab\n" * 12 + "cafe\u0301\n" * 9).encode(), b"a\nb\n" * 2])
def test_lines_through_the_bottom_of_the_alternate_screen(both, monkeypatch, region, text):
    """(round 50) On the alternate screen, lines from the empty bottom row of a region of three rows or more go
    through at once, as on the main screen, and are lost instead of going to the history: counted as
    overwritten, the row above the region unwrapped (here a line wrapped into the region's top row) as each
    scroll's move_lines unwraps it. A region of two rows still goes a scroll at a time: each scroll unwraps its
    top row, where a wrapped row that stays would otherwise keep its flag (the final screen, the stream ending
    on the alternate screen, shows it). The twins agree on the text, the screen and the counts."""
    data = b"\x1b[?1049h\x1b[2;1Habove the region" + region + b"\x1b[6;1H" + text + b"end"
    results, scrolls = twins_with_scrolls_counted(both, monkeypatch, data, 10)
    assert results[0] == results[1]
    assert results[0][3]["cells_overwritten"] >= text.count(b"\n") - 4  # (lines lost off the region's top)
    final = results[0][2]
    if region == b"\x1b[3;6r":  # (its top row, where the line above it went on, lost: the line ends there)
        assert final.startswith("\nabove the \n")
    else:  # (scrolled off with the whole screen, or left whole above a region of rows 5 and 6)
        assert ("above the region" in final) == bool(region) and "above the \n" not in final
    # (the three longer texts take 10 rows or more, each a scroll row by row)
    assert len(scrolls) < 8 if region != b"\x1b[5;6r" else len(scrolls) >= text.count(b"\n")


@pytest.mark.parametrize("line", ["aaaa\u4e2d", "abcdefghij" * 3, "caf\u00e9 \u4e2d\u6587", "e\u0301" * 4])
def test_lines_in_insert_mode_from_the_empty_bottom_row(both, monkeypatch, line):
    """(round 50) In insert mode, lines from the empty bottom row go through at once as without it (put_lines):
    inserting into a row's empty tail writes what a write would. But a wide character at the margin: tmux
    inserts its cells there before it wraps, which leaves a written blank ("aaaa " on a row of five, the
    character on the next), so such a line goes row by row. The twins agree on the text, the screen and the
    counts."""
    data = b"\x1b[4h\x1b[6;1H" + (line + "\n").encode() * 12 + b"end"
    results, scrolls = twins_with_scrolls_counted(both, monkeypatch, data, 5)
    assert results[0] == results[1]
    straddles = line == "aaaa\u4e2d"
    assert ("aaaa \u4e2d\n" in results[0][0]) == straddles
    assert len(scrolls) >= 12 if straddles else len(scrolls) < 6


@pytest.mark.parametrize("text", ["e\u0301" * 50, "\u0915\u093f\u0930\u094d " * 13, "\u4e2d\u0301a" * 17,
                                  "ab\u0301\u0302\u0303\u0304" * 20, "\u0e1a\u0e31\u0e19" * 30])
@pytest.mark.parametrize("before", [b"", b"\x1b[1;80H", b"\x1b[1;79H", "\x1b[1;79H\u4e2d\r".encode()])
def test_the_fallback_writes_marked_text_longer_than_its_row_a_row_at_a_time(both, monkeypatch, text, before):
    """(round 49) Text with combining marks that does not fit on the rest of its row is written a row at a
    time (put_wrapped with its marks), never a character and a mark at a time through put_char and combine,
    which read 0.79 MB/s at 80x24: the marks of a row's last cell stay on that row, a wide character that
    would straddle the margin goes on the next row, and the twins agree, with the marks on every row."""
    from acp_transcript import _screen_py

    data = before + (text + "\r\n").encode() * 3
    results = []
    for impl in both:
        decoder = impl.TranscriptDecoder(columns=80, rows=24)
        results.append((decoder.decode(data), decoder.live, decoder.decode(b"", final=True), decoder.stats))
    assert results[0] == results[1]
    assert results[0][1].count(text[1]) == 3 * text.count(text[1])  # (every mark kept, none moved off its row)
    calls = []
    for name in ("put_char", "combine"):
        original = getattr(_screen_py.ScreenSink, name)
        monkeypatch.setattr(_screen_py.ScreenSink, name,
                            lambda self, *a, _name=name, _original=original: calls.append(_name) or _original(self, *a))
    decoder = both[1].TranscriptDecoder(columns=80, rows=24)
    assert (decoder.decode(data), decoder.live, decoder.decode(b"", final=True), decoder.stats) == results[1]
    assert calls == []


@pytest.mark.parametrize("text", ["e\u0301" * 8, "\u4e2d\u6587x", "ab cd", " \u0301 x", "\u0915\u093f\u0930\u094d",
                                  "xyz", "\u00e9\u2500 \u00e9\u00e9\u202e", "  \u00e9\u2500\u00e9x"])
@pytest.mark.parametrize("column", range(1, 13))
def test_text_with_auto_wrap_off_before_the_last_column(both, text, column):
    """(round 49) With auto-wrap off the fallback writes text that ends before the last column at once, as
    with auto-wrap on (put_text's clean write, put_marked), and a space on a blank cell not at all (put_char):
    text ending at the last column or past it, where the cursor sticks and a mark joins the cell before it, and
    text with a space, go a character at a time. The twins agree at every column, over blank cells, over a
    row of characters, and over wide characters, and when the text is written over (which counts the cells
    that hold a character: a space written on a blank cell would be one). (Round 51) One-cell text that is not
    ASCII, from the last column on, goes as ASCII does there (put_stuck): only its first and last characters
    are written."""
    for row in ("", "0123456789ab", "\u4e2d" * 6):
        data = (f"\x1b[?7l{row}\x1b[1;{column}H{text}|{text}\x1b[1;1H{'z' * 11}\r\n{row}\x1b[2;{column}H{text}"
                f"\x1b[?1049h{row}\x1b[1;{column}H{text}\x1b[?1049l").encode()
        results = []
        for impl in both:
            decoder = impl.TranscriptDecoder(columns=12, rows=3)
            results.append((decoder.decode(data), decoder.live, decoder.decode(b"", final=True), decoder.stats))
        assert results[0] == results[1], row


@pytest.mark.parametrize("columns", [1, 2, 12])
def test_characters_typed_with_auto_wrap_off_up_to_the_last_column(both, columns):
    """(round 49) A character typed between controls with auto-wrap off is written by put_typed up to the
    last column, where the cursor sticks and the next overwrites it (on one column tmux's unsigned room
    moves the cursor past the margin instead, and what follows is dropped); a space on a blank cell is not
    written. The twins agree, with the cells each overwrote counted."""
    # (BS and a character after ESC 7, which moves nothing: where the cursor stuck)
    typed = "a\x1b[Cb\x1b[C\u00e9\x1b[C \x1b7g\x1b[C\u2500\x1b[Cc\x08d\x1b[Ce\x1b7f\x1b[C"
    for row in ("", "0123456789ab", "\u4e2d" * 6):
        for column in range(1, columns + 1):
            data = f"\x1b[?7l{row}\x1b[1;{column}H{typed * 3}\r\n\x1b[{column}G{typed}\x1b[1;1H{'z' * columns}".encode()
            results = []
            for impl in both:
                decoder = impl.TranscriptDecoder(columns=columns, rows=3)
                results.append((decoder.decode(data), decoder.live, decoder.decode(b"", final=True), decoder.stats))
            assert results[0] == results[1], (row, column)


def test_the_fallback_takes_lines_of_wide_characters_as_a_block(monkeypatch):
    # lines of CJK, once the cursor is on the empty bottom row, do not go through put_text one by one (the
    # row-by-row path put_lines replaces)
    from acp_transcript import _decoder_py, _screen_py

    texts = []
    put_text = _screen_py.ScreenSink.put_text
    monkeypatch.setattr(_screen_py.ScreenSink, "put_text", lambda sink, text: texts.append(text) or put_text(sink, text))
    data = ("\x1b[36m\u65e5\u5fd7\uff1a\u670d\u52a1\u5df2\u542f\u52a8\x1b[0m \u5b8c\u6210\n" * 100).encode()
    decoder = _decoder_py.TranscriptDecoder(columns=80, rows=3)
    out = decoder.decode(data) + decoder.decode(b"", final=True)
    assert out == "\u65e5\u5fd7\uff1a\u670d\u52a1\u5df2\u542f\u52a8 \u5b8c\u6210\n" * 100
    assert len(texts) == 2  # (the lines before the cursor reaches the empty bottom row)


def test_a_tall_screen_recentres_its_rows_both_ways(both):
    """A screen keeps as many spare row entries on each side as it has rows; line feeds at the bottom, RI at
    the top and IL on row 2 move the window through them and recentre it when a side runs out (once per
    ``rows`` shifts: at 1 500 rows, past the 1 024 it kept before round 15). Numbered rows show any row out
    of place; both twins, any chunking."""
    rows = 1500
    data = b"".join(b"\x1b[%d;1Hrow %d" % (y, y) for y in range(1, rows + 1, 7))
    data += b"\x1b[%d;1H" % rows + b"".join(b"\nline %d" % n for n in range(2 * rows + 17))
    data += b"\x1b[H" + b"\x1bMtop" * (rows + 31) + b"\x1b[2;1H" + b"\x1b[Lil" * (rows + 5)
    data += b"\x1b[%d;1H" % rows + b"\nend" * 40
    c, py = both
    results = []
    for impl in (c, py):
        for step in (len(data), 4096, 1001):
            decoder = impl.TranscriptDecoder(columns=20, rows=rows)
            out = "".join(decoder.decode(data[i : i + step]) for i in range(0, len(data), step))
            results.append((out, decoder.live, decoder.decode(b"", final=True), decoder.stats))
    assert all(result == results[0] for result in results)
    # the first 1 500 rows scrolled off are the numbered ones (a row every 7), then the lines, in order
    committed = results[0][0].split("\n")
    assert [line for line in committed[:rows] if line] == ["row %d" % y for y in range(1, rows + 1, 7)]
    assert [line for line in committed if line.startswith("line")] == ["line %d" % n for n in range(rows + 17)]


@pytest.mark.parametrize("data", [
    "\rdl |██   | 4%\rdl |███  | 6%\rdl |█████| 9%".encode(),  # a redraw over one-cell characters
    "中文字\r日本\rab\rxyz".encode(),  # over wide characters: the exact path clears their halves
    "abcdef\r\x1b[3C中\x1b[1;1H한글".encode(),  # wide text over narrow cells, then over wide ones
    "e\u0301abc\rxyz\r中".encode(),  # over a cell with a mark
    "abcdefghi\r中文字中文".encode(),  # too wide for the row: wraps
    ("中\b" * 7 + "x中\bab\r中\bab中\b中文").encode(),  # over a wide character's right half (_over_right_half)
    "中\b中\b中\b \n中\b中\b中\b".encode(),  # a space there is ASCII: blanks it, then is written
])
def test_redraws_in_one_write_or_cell_by_cell(both, data):
    """The fallback writes a redraw that fits its row over clean cells at once (text_cells), the core run
    by run; wide cells, marks and wrapping take the exact path in both."""
    c, py = both
    for columns in (5, 9, 12):
        results = []
        for impl in (c, py):
            decoder = impl.TranscriptDecoder(columns=columns, rows=3)
            out = decoder.decode(data)
            results.append((out, decoder.live, decoder.decode(b"", final=True), decoder.stats))
        assert results[0] == results[1], columns


# Text with zero-width characters after some of its characters: the fallback writes it at once when it fits
# its row over clean cells (put_marked), the core mark by mark. Runs of up to four marks are all kept unmeasured,
# a fifth is measured (MAX_CELL_BYTES); marks on a wide character's cell, on a space, on the last column; text
# that does not fit, over cells with marks or wide characters, with a ZWJ or starting with a mark.
MARKED_TEXT = [
    "e\u0301a\u0308bc", "\u0932\u0949\u0917: \u0938\u0930\u094d\u0935\u0930",  # Latin, Devanagari
    "\u0e1a\u0e31\u0e19\u0e17\u0e36\u0e01", "\u4e2d\u0301\u6587x\u0308",  # Thai, CJK with marks
    "a\u0301\u0302\u0303\u0304b", "a\u0301\u0302\u0303\u0304\u0305b", " \u0301 \u0301\u0302",
    "\u0301abc", "a\u200d\u0301b", "x\u0301" * 12, "\u4e2d\u0301" * 7, "\u4e2d" + "\u0e31" * 7 + "b",
]


@pytest.mark.parametrize("text", MARKED_TEXT)
@pytest.mark.parametrize("before", [b"", b"\x1b[1;3H", b"\x1b[1;9H", "e\u0301\u4e2d\u6587 \u0308\r".encode(),
                                    "ab\u4e2d\u6587cd\x1b[1;4H".encode(), b"\x1b[2;6Hzz\x1b[2;6H"])
def test_marked_text_in_one_write_or_mark_by_mark(both, text, before):
    c, py = both
    data = before + text.encode() + b"|" + text.encode()
    for columns in (4, 11, 30):
        results = []
        for impl in (c, py):
            decoder = impl.TranscriptDecoder(columns=columns, rows=3)
            out = "".join(decoder.decode(data[i : i + 5]) for i in range(0, len(data), 5))
            results.append((out, decoder.live, decoder.decode(b"", final=True), decoder.stats))
        assert results[0] == results[1], columns


@settings(max_examples=examples(300))
@given(st.lists(st.tuples(st.sampled_from(["a", " ", "\u00e9", "\u4e2d", "\u0e01", "\x1b[1;5H", "\r", "\x1b[@",
                                           "\x1b[P", "\x1b[2D", "\x1b[X"]),
                          st.lists(st.sampled_from(["\u0301", "\u0e31", "\u094d", "\u200b"]), max_size=8)),
                max_size=30),
       st.integers(2, 16))
def test_marked_text_twins_agree(both, pieces, columns):
    data = "".join(base + "".join(marks) for base, marks in pieces).encode()
    c, py = both
    results = []
    for impl in (c, py):
        decoder = impl.TranscriptDecoder(columns=columns, rows=2)
        results.append((decoder.decode(data), decoder.live, decoder.decode(b"", final=True), decoder.stats))
    assert results[0] == results[1]


def test_lines_are_committed_as_they_scroll_off(impl):
    decoder = impl.TranscriptDecoder(columns=10, rows=3)
    assert decoder.decode(b"1\n2\n3\n") == "1\n"  # the last LF scrolled the screen: "1" left the top
    assert decoder.live == "2\n3"
    assert decoder.decode(b"4\n5") == "2\n"
    assert decoder.decode(b"", final=True) == "3\n4\n5"


def test_a_wrapped_line_is_committed_whole(impl):
    decoder = impl.TranscriptDecoder(columns=4, rows=1)
    assert decoder.decode(b"abcdefgh") == "abcd"  # the first row scrolled off; its line goes on
    assert decoder.decode(b"\r\n") == "efgh\n"
    assert decoder.decode(b"", final=True) == ""


def test_a_wrapped_row_erased_at_its_end_keeps_its_blanks_when_it_scrolls_off(impl):
    """tmux joins a wrapped row with the blanks an erase left at its end ('abc' + 7 blanks + 'KL': checked
    against tmux 3.3a). The core sends a printable-ASCII row to history as bytes; this row is printable up to
    its length and must still take the path that pads it to the columns it used."""
    decoder = impl.TranscriptDecoder(columns=10, rows=2)
    assert decoder.decode(b"abcdefghijKL\x1b[A\x1b[4G\x1b[K\x1b[B\r\nnext\r\n") == "abc       KL\n"
    assert decoder.decode(b"", final=True) == "next\n"


def test_only_one_dimension(impl):
    # a missing dimension: as wide as a line may be, as tall as the live window
    assert impl.sanitize(b"abcdefgh\n", columns=3) == "abcdefgh\n"
    assert impl.sanitize(b"\x1b[5;1Hx", rows=3) == "\n\nx"


def test_the_scroll_region_keeps_lines_and_counts_lost_ones(impl):
    decoder = impl.TranscriptDecoder(columns=10, rows=5)
    # DL 1 on "b" in the region of rows 2-4: c and d move up, b is gone; e is outside the region
    assert decoder.decode(b"a\nb\nc\nd\ne\x1b[2;4r\x1b[2;1H\x1b[M", final=True) == "a\nc\nd\n\ne"
    assert decoder.stats["scrolled_out"] == 1
    assert decoder.stats["cells_overwritten"] == 1


@pytest.mark.parametrize("chunk", [None, 1])
def test_an_explicit_zero_bottom_margin_is_row_one_not_the_default(impl, chunk):
    # tmux's input_get (input.c): a parameter given as 0 takes the minimum, an empty one the default. For
    # DECSTBM's bottom margin those differ (1 against the screen's height): ``CSI t;0 r`` names rows t..1, a
    # region tmux ignores (the cursor stays), where ``CSI t;r`` and ``CSI t r`` are rows t..height (the
    # cursor goes home). Found by a long run of the random streams against tmux 3.3a.
    cases = {
        b"a\x1b[0;0ra": "aa", b"a\x1b[2;0ra": "aa", b"a\x1b[0;00ra": "aa", b"a\x1b[;0ra": "aa",
        b"a\x1b[0;ra": "a", b"a\x1b[;ra": "a", b"a\x1b[0ra": "a", b"a\x1b[ra": "a", b"a\x1b[1;2ra": "a",
        b"a\x1b[0;0;5ra": "aa", b"a\x1b[?0;0ra": "aa",  # (a third parameter changes nothing; ``?`` is not DECSTBM)
    }
    for data, expected in cases.items():
        decoder = impl.TranscriptDecoder(columns=2, rows=2)
        size = chunk or len(data)
        out = "".join(decoder.decode(data[i : i + size]) for i in range(0, len(data), size))
        assert out + decoder.decode(b"", final=True) == expected, data


@pytest.mark.parametrize(("data", "here", "tmux"), [
    (b"ab\x1b[1:2Dc", "ac", "abc"),  # a ':' in a parameter the function reads
    (b"ab\x1b[99999999999Dc", "cb", "abc"),  # a value above 2**31 - 1 (here it saturates at 65535)
    (b"ab\x1b[" + b"0" * 70 + b"1Dc", "ac", "abc"),  # 64 parameter bytes or more
    (b"ab\x1b[1" + b";" * 23 + b"Dc", "ac", "abc"),  # 24 parameters or more
    # a space written with auto-wrap off on a blank cell that tmux has allocated (its lines grow in steps of
    # a quarter, a half, then the whole width): tmux stores it (the cell's "cleared" flag differs from the
    # space's), which shows in how far the wrapped row is joined; here it is skipped, as on any blank cell
    ("abcdefghi\x1b[?7l \x1b[?7h中".encode(), "abcdefghi中", "abcdefghi 中"),
])
def test_where_it_knowingly_differs_from_tmux(impl, data, here, tmux):
    # tmux 3.3a (input_split, input_get) ignores a CSI whose parameters it cannot read; here SPEC 2.2's rules
    # read them (at most 32 values, each saturating at 65535, ':' separating sub-parameters). ``tmux`` is what
    # tmux 3.3a showed for each on a 10x2 window (README: where it knowingly differs from tmux).
    assert here != tmux
    assert impl.sanitize(data, columns=10, rows=2) == here


def test_stream_ending_on_the_alternate_screen_keeps_both(impl):
    data = b"$ vim\n\x1b[?1049h\x1b[2;1Hfile text"
    assert impl.sanitize(data, columns=20, rows=4) == "$ vim\n\nfile text"
    assert impl.sanitize(data, columns=20, rows=4, alt_screen="keep") == "$ vim\nfile text"
    decoder = impl.TranscriptDecoder(columns=20, rows=4)
    decoder.decode(data + b"\x1b[?1049l", final=True)
    assert decoder.stats["alt_screen_dropped"] == len("file text")


def test_the_safety_filter_and_policy_still_apply(impl):
    out = impl.sanitize("x\u202eab\u2028\x1b]0;title\x07\x9b2J".encode(), columns=10, rows=2)
    # zero-width: the bidi control and the separator join the cell before; C1 CSI is dropped, not obeyed
    assert out == "x<U+202E>ab<U+2028>2J"


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"columns": 0}, ValueError), ({"rows": 65536}, ValueError), ({"columns": "80"}, TypeError),
        ({"rows": True}, TypeError), ({"columns": 1.5}, TypeError),
    ],
)
def test_bad_sizes_raise(impl, options, error):
    with pytest.raises(error, match="columns|rows"):
        impl.TranscriptDecoder(**options)


def test_resize(impl):
    decoder = impl.TranscriptDecoder(columns=10, rows=3)
    assert decoder.decode(b"abcdefgh\n1\n") == ""
    with pytest.raises(ValueError):
        decoder.resize(0, 3)
    assert decoder.options["columns"] == 10  # nothing changed
    assert decoder.resize(4, 2) == "abcd\n"  # cells past the new width are cut; the top row goes to history
    assert decoder.stats["cells_overwritten"] == 4
    assert decoder.decode(b"xxxxyy", final=True) == "1\nxxxxyy"
    # between sized and unsized: what is on the screen is committed first
    decoder = impl.TranscriptDecoder()
    decoder.decode(b"before\r\nx")
    assert decoder.resize(5, 2) == "before\nx"
    assert decoder.decode(b"abcdefg", final=True) == "abcdefg"
    assert decoder.resize(None, None) == ""
    assert decoder.options["columns"] is None
    assert decoder.decode(b"a\x1b[5;1Hb", final=True) == "a\nb"


def test_strip_mode_ignores_the_size(impl):
    assert impl.sanitize(b"abcdef\r\x1b[2Jxy", mode="strip", columns=2, rows=1) == "abcdef\nxy"


def test_memory_is_bounded_whatever_the_size(impl):
    decoder = impl.TranscriptDecoder(columns=65535, rows=65535, max_live_cells=1000)
    committed = ""
    for row in range(1, 200):
        committed += decoder.decode(b"\x1b[%d;1H" % (row * 300) + b"x" * 500)
        assert len(decoder.live.replace("\n", "").replace(" ", "")) <= 1000 + 500
    # rows over the bound were committed early, not lost
    assert (committed + decoder.decode(b"", final=True)).count("x") == 199 * 500


def test_marks_on_one_cell_are_bounded(impl):
    # tmux keeps a cell's UTF-8 within 21 bytes: further zero-width characters are dropped
    out = impl.sanitize(("a" + "\u0301" * 30).encode(), columns=10, rows=2)
    assert out == "a" + "\u0301" * 10


def test_many_marked_cells_overwritten(impl):
    # the core's mark pool is compacted as cells with marks are overwritten
    data = b"".join(b"\r" + ("e\u0301" * 5).encode() + b"%d" % i for i in range(3000))
    assert impl.sanitize(data, columns=20, rows=2) == "e\u0301" * 5 + "2999"


def test_marks_stay_with_their_cell_through_many_marks_and_edits(impl):
    """A cell marked again and again, and marked cells moved and overwritten around it: the fallback's row
    keeps its marks in a list of strings that their codes index and drops the strings no code points at any
    more (round 30), the core in its mark pool; either way each cell keeps what it was last given."""
    rounds = ["\x1b[2;1H" + "o\u0301o\u0300" * 6]  # a row of marked cells that stay (they outlive compactions)
    for i in range(300):  # each round: a cell of each row marked again, and a cell of a third row overwritten
        mark = "\u0301" if i % 2 else "\u0300"
        rounds.append(f"\x1b[1;1Ha{mark}\x1b[2;1Ho{mark}\x1b[3;{i % 7 + 1}H\x1b[Xu\u0308\x1b[4;1H\x1b[@e{mark}")
    out = impl.sanitize("".join(rounds).encode(), columns=12, rows=4)
    assert out == "\n".join(["a\u0301", "o\u0301" + "o\u0300o\u0301" * 5 + "o\u0300", "u\u0308" * 7,
                             "e\u0301e\u0300" * 6])


@pytest.mark.parametrize("rows", [40, 1000, 65535])
def test_live_on_a_sparse_tall_screen(impl, rows):
    """A screen's text takes each run of blank rows as its line breaks in one piece (both twins find the rows
    that may hold something by their busy flags, round 42): rows written far apart, one of them emptied by
    EL 2 and one by ED 1 (blank again, and skipped), a wrapped row, then a scroll of the whole screen and one
    of a region, each checked against the rows written."""
    lines = [""] * rows
    data = []
    for y, text in ((1, "top"), (rows // 3, "third"), (rows // 2, "half"), (rows - 5, "late"), (rows, "bottom")):
        data.append("\x1b[%d;1H%s" % (y, text))
        lines[y - 1] = text
    data.append("\x1b[%d;1H\x1b[2K" % (rows // 3))  # (EL 2: the row is blank, its used count kept)
    lines[rows // 3 - 1] = ""
    data.append("\x1b[%d;78H" % (rows // 4) + "wrapped")  # (three cells, then the next row)
    lines[rows // 4 - 1] += " " * 77 + "wra"
    lines[rows // 4] = "pped"
    decoder = impl.TranscriptDecoder(columns=80, rows=rows)
    decoder.decode("".join(data).encode())
    joined = "\n".join(lines).rstrip("\n").replace("wra\npped", "wrapped")
    assert decoder.live == joined
    decoder.decode(b"\x1b[2;1H\x1b[1J")  # (ED 1: the first two rows blank)
    lines[0] = lines[1] = ""
    assert decoder.live == "\n".join(lines).rstrip("\n").replace("wra\npped", "wrapped")
    decoder.decode(b"\x1b[7S")  # (SU 7 of the whole screen: the rows move up, blank ones come in below)
    lines = lines[7:] + [""] * 7
    assert decoder.live == "\n".join(lines).rstrip("\n").replace("wra\npped", "wrapped")
    decoder.decode(b"\x1b[%d;%dr\x1b[3T\x1b[r" % (rows // 2 - 8, rows - 2))  # (SD 3 of a region)
    top, bottom = rows // 2 - 9, rows - 2
    lines[top:bottom] = [""] * 3 + lines[top : bottom - 3]
    assert decoder.live == "\n".join(lines).rstrip("\n").replace("wra\npped", "wrapped")
    # the last row with text is found from the bottom by the busy flags, past used rows without text (EL 2)
    decoder.decode(b"\x1b[%d;1H\x1b[2K" % rows)
    lines[rows - 1] = ""
    assert decoder.live == "\n".join(lines).rstrip("\n").replace("wra\npped", "wrapped")
    decoder = impl.TranscriptDecoder(columns=80, rows=rows)
    decoder.decode(b"x\x1b[%d;1Hy\x1b[2K\x1b[%d;1Hz\x1b[2K" % (rows, rows // 2))
    assert decoder.live == "x"
    assert decoder.decode(b"", final=True) == "x\n"  # (the rows up to the last with text; the cursor below it)
    decoder = impl.TranscriptDecoder(columns=80, rows=rows)
    decoder.decode(b"\x1b[%d;1Hs\x1b[%d;1Hb\r\x1b[X" % (rows - 1, rows))  # (ECH: the last row used, no text)
    assert decoder.live == "\n" * (rows - 2) + "s"
    if rows >= 200:  # (ED 0 blanks the rows below row 102, HOLE_MIN or more: the core skips them as its hole)
        decoder = impl.TranscriptDecoder(columns=80, rows=rows)
        decoder.decode(b"x\x1b[102;1Hk\x1b[J\x1b[%d;1Hb\x1b[2K" % rows)
        assert decoder.live == "x" + "\n" * 101 + "k"
        decoder.decode(b"\rb")  # (the row below the hole holds text again)
        assert decoder.live == "x" + "\n" * 101 + "k" + "\n" * (rows - 102) + "b"
    # a narrower resize cuts the rows that hold something (both twins visit only those), whatever their place
    decoder = impl.TranscriptDecoder(columns=80, rows=rows)
    wide = {y: "%d:" % y + "x" * 60 for y in (1, 2, rows // 2, rows - 1, rows)}
    decoder.decode("".join("\x1b[%d;1H%s" % (y, text) for y, text in wide.items()).encode())
    assert decoder.resize(5, rows) == ""
    assert decoder.live == "\n".join(wide.get(y, "")[:5] for y in range(1, rows + 1))
    assert decoder.stats["cells_overwritten"] == sum(len(text) - 5 for text in wide.values())


def test_thousands_of_live_marks_survive_compactions_among_dead_ones(impl):
    """The core compacts its mark pool in place: a live entry moves to its rank among the live ones (a bit
    per entry, a count per 64). A screen of 4,000 marked cells, a random quarter of them overwritten with new
    marks in each of twenty passes (two compactions): at each compaction the live entries are spread over
    hundreds of 64-entry words with holes between them, and the cells whose last write came before it keep
    their marks to the end. Marks of two, three and four UTF-8 bytes, stored as UTF-8 (round 41), and cells
    holding two."""
    marks = ["\u0301", "\u20d0", "\U0001d167", "\U000e0100"]
    columns, rows = 40, 100
    screen = [[chr(0x61 + (y + x) % 26) + marks[(y * columns + x) % 4] for x in range(columns)]
              for y in range(rows)]
    # (filled from the bottom up, so that the cells meet their entries in descending order: the compactions
    # move them by rank, where moving each as its cell is met would overwrite live ones)
    data = ["\x1b[%d;1H" % (y + 1) + "".join(screen[y]) for y in reversed(range(rows))]
    pick = random.Random(41)
    for k in range(1, 21):
        for y in range(rows):
            for x in range(columns):
                if pick.random() < 0.25:
                    cell = chr(0x41 + k) + marks[(k + x) % 4] + marks[(k + y) % 4] * (x % 2)
                    data.append("\x1b[%d;%dH" % (y + 1, x + 1) + cell)
                    screen[y][x] = cell
    out = impl.sanitize("".join(data).encode(), columns=columns, rows=rows)
    assert out == "\n".join("".join(row) for row in screen)


def test_marks_written_first_keep_their_place_in_a_compaction_by_rank(impl):
    """The first 80 marks (the two bottom rows, never overwritten) fill the pool's first 64-entry word: a
    compaction leaves such a prefix where it is. The rows above are rewritten again and again, and the cells
    meet those rows' newer entries first, so the entries move by rank, the prefix's cells included."""
    marks = ["\u0301", "\u20d0", "\U0001d167", "\U000e0100"]
    bottom = ["".join(chr(0x41 + x % 26) + marks[(x + y) % 4] * (1 + x % 3) for x in range(40)) for y in range(2)]
    data = "\x1b[9;1H" + bottom[0] + "\x1b[10;1H" + bottom[1]
    for k in range(12):
        data += "".join("\x1b[%d;1H" % (y + 1) + ("e" + marks[(k + y) % 4]) * 40 for y in range(8))
    out = impl.sanitize(data.encode(), columns=40, rows=10)
    assert out.split("\n") == [("e" + marks[(11 + y) % 4]) * 40 for y in range(8)] + bottom


def test_marks_of_a_log_scrolled_through_compactions(impl):
    """Lines with a different mark on each cell, scrolled through a 20x30 screen: at each compaction the cells
    meet the live entries in ascending order (older rows above), so each entry moves as its cell is met (one
    pass, round 41), over the dead entries of the rows that left."""
    marks = ["\u0301", "\u20d0", "\U0001d167", "\U000e0100"]
    lines = ["".join(chr(0x61 + (n + x) % 26) + marks[(3 * n + x) % 4] * (1 + (n + x) % 3) for x in range(19))
             for n in range(400)]
    out = impl.sanitize("\n".join(lines).encode(), columns=20, rows=30)
    assert out == "\n".join(lines)


def test_a_cell_marked_again_and_again_leaves_a_bounded_list_of_marks():
    # the fallback's row keeps its cells' mark strings in a list that their codes index: the strings no cell
    # uses any more (a cell overwritten, then marked again) are dropped as they accumulate, while the marked
    # cell after them keeps the row's list
    from acp_transcript import _decoder_py

    decoder = _decoder_py.TranscriptDecoder(columns=2, rows=1)
    decoder.decode("\x1b[1;2Hb\u0300\r".encode() + "a\u0301\r".encode() * 1000)
    codes, strings = _screen_py._marks_at(decoder._sink.screen, 0)
    assert len(codes) == 2 and len(strings) <= 2 * 2 + 64
    assert decoder.decode(b"", final=True) == "a\u0301b\u0300"
    # ...and text with marks written at once (put_marked) over a cell whose marks were overwritten
    decoder.decode("\x1b[1;2Hb\u0300\r".encode() + "x\ra\u0301\u0302\r".encode() * 1000)
    codes, strings = _screen_py._marks_at(decoder._sink.screen, 0)
    assert len(codes) == 2 and len(strings) <= 2 * 2 + 64
    assert decoder.decode(b"", final=True) == "a\u0301\u0302b\u0300"
    # ...and a character with its marks typed between controls (put_typed with marks, round 49)
    decoder.decode("\x1b[1;2Hb\u0300\x1b[1;1H".encode() + "a\u0301\x08".encode() * 1000)
    codes, strings = _screen_py._marks_at(decoder._sink.screen, 0)
    assert len(codes) == 2 and len(strings) <= 2 * 2 + 64
    assert decoder.decode(b"", final=True) == "a\u0301b\u0300"


@pytest.mark.parametrize("mode", [b"", b"\x1b[4h", b"\x1b[?7l"])
@pytest.mark.parametrize("columns", [1, 2, 5])
def test_a_character_and_its_marks_typed_between_controls(both, mode, columns):
    """(round 49) A character and its marks between controls are one short run, which the fallback's parser
    decodes in place and its screen writes with the marks at once (put_typed), where put_char and combine
    would have: on a blank, written, marked or wide cell, at every column, up to the last where auto-wrap off
    keeps the cursor (a mark then joins the cell before it, and the cell written over loses its own: round
    52 found the fallback keeping them), a space with a mark (with auto-wrap off the space is not written, and
    combine writes it for the mark), in insert mode (an insert, then the mark). The twins agree, with every
    count."""
    typed = ["e\u0301", " \u0301", "x\u0301\u0302", "a\u0e31\u0e48\u0301\u0302", "\u4e2d\u0301", "e\u0301\u200b"]
    controls = ["\x08", "\x1b[C", "\x1b7", "\r", "\x1b[2D"]
    # (the last row marks every cell, the last column's too: written with auto-wrap on, then the mode again)
    every_cell_marked = "\x1b[?7ha\u0301b\u0302c\u0303d\u0304e\u0305" + mode.decode()
    pieces = [(t + c).encode() for t in typed for c in controls]
    for row in ("", "abcde", "a\u0301b\u0302c\u0303d\u0304e", "\u4e2d\u6587z", every_cell_marked):
        for column in range(1, columns + 1):
            # (a call a piece, so that live is compared after each: a later write can hide a wrong cell)
            start, again = f"{row}\x1b[1;{column}H", f"\x1b[1;1H{'z' * columns}\x1b[2;{column}H"
            chunks = [mode + start.encode(), *pieces, again.encode(), *pieces]
            results = [calls(impl, chunks, {"columns": columns, "rows": 3}) for impl in both]
            assert results[0] == results[1], (row, column)


@pytest.mark.parametrize("max_live_cells", [1 << 20, 4, 5, 9])
@pytest.mark.parametrize("row", ["", "abcd", "ab\u6587", "\u4e2d\u6587", "a\u0301bcd", "abcd\u0301",
                                 "\u4e2d\u6587\u0301", "ab\x1b[5Gx"])
def test_marks_typed_at_a_stuck_cursor_join_the_cell_before_it(both, row, max_live_cells):
    """(round 52) With auto-wrap off at the last column, the marks typed with a character join the cell left
    of the cursor (combine): written with the character where that cell is blank, the first marks of a
    character there, or combine's walk past a wide character's padding and its measure of the cell (five
    groups of four marks pass MAX_CELL_BYTES), or combine's join to marks the cell has. Rows above hold cells,
    so that a write past the row's end commits rows (max_live_cells; never the cursor's). The twins agree
    call by call."""
    typed = [("e" + "\u0301\u0302\u0303\u0304"[:k] + "\x08\x1b[C").encode() for k in (1, 4, 4, 4, 4, 2, 1)]
    start = f"12345\r\n\x1b[?7l{row}\x1b[2;5H".encode()
    results = [calls(impl, [start, *typed], {"columns": 5, "rows": 3, "max_live_cells": max_live_cells})
               for impl in both]
    assert results[0] == results[1]


def test_a_rows_codes_reach_its_last_mark_not_its_end(both):
    # the fallback's codes for a row's marks end at its last marked cell: writes, erases and moves past it
    # leave them as they are (a 65,535-column row with a mark at its start: short splices, round 31); the
    # cells past them have no marks, as the core agrees
    c, py = both
    data = ("e\u0301" + "x" * 900 + "\x1b[1;500H\x1b[3@y\u0308\x1b[1;700H\x1b[K\x1b[1;300H\x1b[5P\x1b[4X"
            + "\x1b[1;3Ha\u0302").encode()
    decoder = py.TranscriptDecoder(columns=1000, rows=2)
    decoder.decode(data[:903])
    assert len(_screen_py._marks_at(decoder._sink.screen, 0)[0]) == 1
    decoder.decode(data[903:])
    codes, _ = _screen_py._marks_at(decoder._sink.screen, 0)
    assert len(codes) == 495  # (y's mark at column 499, which DCH 5 at column 299 moved to 494)
    compiled = c.TranscriptDecoder(columns=1000, rows=2)
    compiled.decode(data)
    fallback, core = [(each.live, each.decode(b"", final=True), each.stats) for each in (decoder, compiled)]
    assert fallback == core
    assert fallback[0].startswith("e\u0301xa\u0302")


# Rows whose cells carry marks, moved by every function that moves rows or cells, with counts that take the
# paths of move_lines (one row, overlapping ranges, disjoint ranges) and move_cells.
MARKED_ROWS = b"".join(b"\x1b[%d;1H" % (y + 1) + ("%de\u0301x\u0308" % y).encode() * 2 for y in range(8))


@pytest.mark.parametrize("final", b"LMSTP@X")
@pytest.mark.parametrize("count", [1, 2, 3, 5, 7])
@pytest.mark.parametrize("row", [1, 3, 6])
def test_marks_move_with_their_rows_and_cells(both, final, count, row):
    c, py = both
    data = MARKED_ROWS + b"\x1b[%d;3H\x1b[%d%c" % (row, count, final) + b"\x1b[2;6r\x1b[4;2H\x1b[%d%c" % (count, final)
    for module in (c, py):
        decoder = module.TranscriptDecoder(columns=12, rows=8)
        decoder.decode(data)
        if module is c:
            expected = decoder.live, decoder.stats
        else:
            assert (decoder.live, decoder.stats) == expected


@settings(max_examples=examples(150))
@given(sized_streams(max_ops=80), st.integers(1, 7), st.sampled_from(["drop", "keep"]), st.integers(1, 300))
def test_twins_agree_in_any_chunking(both, case, step, alt_screen, max_live_cells):
    c, py = both
    data, columns, rows = case
    options = {"columns": columns, "rows": rows, "alt_screen": alt_screen, "max_live_cells": max_live_cells}
    decoders = [c.TranscriptDecoder(**options), py.TranscriptDecoder(**options)]
    outputs = ["", ""]
    for start in range(0, len(data), step):
        for index, decoder in enumerate(decoders):
            outputs[index] += decoder.decode(data[start : start + step])
        assert decoders[0].live == decoders[1].live
    for index, decoder in enumerate(decoders):
        outputs[index] += decoder.decode(b"", final=True)
    assert outputs[0] == outputs[1] == py.sanitize(data, **options) == c.sanitize(data, **options)  # long runs too
    assert decoders[0].stats == decoders[1].stats


# REP of a character of one or two cells that is not ASCII (the paths of its own: fill_run; the core's REP of
# a wide character). tmux 3.3a repeats only ASCII, so sized_streams cannot check REP against tmux for these;
# the oracle is SPEC 2.3 rev 2's definition: the preceding character printed count more times, at most up to
# the margin (after a CR and the character, columns - its width), over any screen the random operations leave
# (marks, padding cut by DCH, lagged regions, the alternate screen).
REP_CHARS = {"a": 1, "\u00e9": 1, "\u2588": 1, "\uff71": 1, "\u4e2d": 2, "\ud55c": 2, "\uff21": 2, "\U0001f600": 2}


@settings(max_examples=examples(200))
@given(sized_streams(max_ops=60), st.sampled_from(sorted(REP_CHARS)), st.integers(1, 60), st.integers(1, 3))
def test_rep_of_any_character_is_printing_it(impl, case, char, count, repeats):
    data, columns, rows = case
    times = 1 + min(count, columns - REP_CHARS[char])
    rep = (b"\r" + char.encode() + b"\x1b[%db" % count) * repeats  # (REP over what REP wrote, from then on)
    printed = (b"\r" + (char * times).encode()) * repeats
    outputs = []
    for stream in (data + b"\x1b[?7h" + rep, data + b"\x1b[?7h" + printed):  # (auto-wrap on: up to the margin)
        decoder = impl.TranscriptDecoder(columns=columns, rows=rows)
        outputs.append((decoder.decode(stream, final=True), decoder.stats["cells_overwritten"]))
    assert outputs[0] == outputs[1]


# Insert mode (IRM, CSI 4 h): put_char inserts each character's cells at the cursor, then writes it; a run of
# characters of one width whose inserts each leave blank the cells it writes is one insert of all their cells and
# one write (put_inserted, insert_run; round 43: REP 1024 then CR over a full 1000-column row in insert mode read
# 0.1 MB/s in the core, 0.002 in the fallback). A control sequence that changes nothing (CSI ? 25 l) after each
# character makes each its own print: one put_char each, the reference.
INSERTED = ["a", "b", " ", "\u00e9", "\u2500", "\u4e2d", "\u6587", "\U0001f600", "e\u0301", "\u200d", "\u202e"]


def decoded_and_counted(impl, stream: bytes, columns: int, rows: int, max_live_cells: int,
                        narrower: int = 0) -> tuple:
    """What two streams that write the same text with different control sequences are compared by: the
    output, ``live``, ``live`` again after a resize ``narrower`` columns narrower (if any: a row's used cells
    show past its text), the final call's output and the stats but ``sequences_removed``."""
    decoder = impl.TranscriptDecoder(columns=columns, rows=rows, max_live_cells=max_live_cells)
    out = decoder.decode(stream)
    live = decoder.live
    stats = dict(decoder.stats)
    del stats["sequences_removed"]
    resized = None
    if narrower:
        decoder.resize(max(columns - narrower, 1), rows)
        resized = decoder.live
    return out, live, resized, decoder.decode(b"", final=True), stats


def one_at_a_time(text: str) -> str:
    return "".join(char + "\x1b[?25l" for char in text)


@pytest.mark.parametrize("before, mark, count", [("e", "\u0301", 30), ("\u4e2d", "\u0301", 9), ("x" * 8, "\u0301", 3),
                                                 ("\u4e2d\u0301\u0302", "\u0303", 5), ("", "\u0301", 4),
                                                 ("e", "\u200b", 12), ("\u4e2d", "\u200d", 3),
                                                 ("e\u200d", "\u0301", 9), ("e\u0301" * 3, "\u202e", 7)])
@pytest.mark.parametrize("mode", ["", "\x1b[4h", "\x1b[?7l"], ids=["plain", "insert mode", "auto-wrap off"])
def test_rep_of_a_zero_width_character_is_its_copies_printed(both, before, mark, count, mode):
    """REP n of a zero-width character (at most one per cell up to the margin) is that many copies printed one
    at a time: each joins the cell before the cursor (a wide character's, past its padding), until one would
    take it past MAX_CELL_BYTES (a ZWJ or a bidi control joined before counts its bytes too); at column 0 all
    are dropped; copies of a ZWJ leave one pending. In insert mode too, which inserts nothing for them. Both
    twins join the copies after the first at once (combine's ``copies``: the fallback since round 46, the core
    since 56)."""
    cx = sum(2 if "\u4e00" <= char <= "\u9fff" else 0 if char in "\u0301\u0302\u200d" else 1 for char in before)
    copies = min(count, 10 - cx)
    results = []
    for impl in both:
        got = decoded_and_counted(impl, (mode + before + mark + "\x1b[%db" % count + "z").encode(), 10, 2, 1000)
        expected = decoded_and_counted(impl, (mode + one_at_a_time(before + mark * (copies + 1) + "z")).encode(), 10,
                                       2, 1000)
        assert got == expected, impl
        results.append(got)
    assert results[0] == results[1]


@settings(max_examples=examples(200))
@given(sized_streams(max_ops=40), st.lists(st.tuples(st.sampled_from(["", "\r", "\x1b[2G", "\x1b[3G", "\x1b[4G",
                                                                       "\x1b[5G", "\x1b[?7l", "\x1b[?7h", "\x1b[A",
                                                                       "\x1b[@", "\x1b[2P", "\x1b[999C", "\n"]),
                                                      st.lists(st.sampled_from(INSERTED), max_size=30)), max_size=8),
       st.sampled_from([1 << 20, 40, 25]))
def test_text_in_insert_mode_is_its_characters_one_at_a_time(both, case, pieces, max_live_cells):
    data, columns, rows = case
    runs = one_by_one = data + b"\x1b[4h"
    for move, chars in pieces:
        runs += (move + "".join(chars)).encode()
        one_by_one += (move + one_at_a_time("".join(chars))).encode()
    results = [decoded_and_counted(impl, stream, columns, rows, max_live_cells)
               for impl in both for stream in (runs, one_by_one)]
    assert results[0] == results[1] == results[2] == results[3]


@settings(max_examples=examples(200))
@given(sized_streams(max_ops=40), st.sampled_from(INSERTED[:8]), st.integers(1, 60), st.integers(1, 3),
       st.booleans())
def test_rep_in_insert_mode_is_printing_it(impl, case, char, count, repeats, wrap):
    data, columns, rows = case
    start = data + b"\x1b[4h" + (b"\x1b[?7h" if wrap else b"\x1b[?7l")
    # (REP repeats up to the margin, counted in characters from after the first copy, at column 0)
    times = 1 + min(count, columns - (2 if char in ("\u4e2d", "\u6587", "\U0001f600") else 1))
    outputs = []
    for stream in (start + (b"\r" + char.encode() + b"\x1b[%db" % count) * repeats,
                   start + (b"\r" + one_at_a_time(char * times).encode()) * repeats):
        decoder = impl.TranscriptDecoder(columns=columns, rows=rows)
        outputs.append((decoder.decode(stream, final=True), decoder.stats["cells_overwritten"]))
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize(("data", "expected"), [
    # the cursor on a wide character's right half: its padding moves right with the row, cleared by the first
    # insert of a wide character (put_char's overwrite), kept (and dropped from the text) by narrow ones; the
    # last pair that fits moves one cell and writes over c, d is pushed past the margin
    ("ab中cd\x1b[4G\x1b[4h文字字".encode(), "ab中文字字"),
    ("ab中cd\x1b[4G\x1b[4hxyz".encode(), "ab中xyzcd"),
    ("ab中cd\x1b[4G\x1b[4h文字".encode(), "ab中文字 cd"),
    # a full row: the cells pushed past the margin are lost (counted), with auto-wrap off the last column
    # takes every character after it
    (b"0123456789\r\x1b[4habc", "abc0123456"),
    (b"0123456789\x1b[3G\x1b[4h\x1b[?7labcdefghijk", "01abcdefgk"),
    (b"0123456789\r\x1b[4hx\x1b[20b", "xxxxxxxxxx"),
    ("0123456789\r\x1b[4h中\x1b[20b".encode(), "中" * 9),  # (REP: 8 more, the last four on the next row)
])
def test_runs_in_insert_mode(impl, data, expected):
    assert impl.sanitize(data, columns=10, rows=3) == expected


# A one-cell character typed in insert mode is tmux's insert of a cell (ICH 1: the cells from the cursor move
# right, or at the last column the cell is cleared) and then its write. put_char makes the two one edit
# (insert_char, round 45: x then BS over a full 1000-column row, 2,100 instructions a character), and skips
# the last column's clear unless the cell is a wide character's padding (its clear keeps the character before
# it; the clear trimmed a full row and the write padded it out again). The reference writes the two steps out:
# ICH 1, then the character outside insert mode: the same write for a character that is neither a space nor
# ASCII (outside insert mode ASCII is tmux's collected path, which looks at padding otherwise; in insert mode
# it is put_char's, as here).
@settings(max_examples=examples(200))
@given(sized_streams(max_ops=40),
       st.lists(st.tuples(st.sampled_from(["", "\r", "\n", "\x1b[D\u4e2d", "\u4e2d", "ab", "\x1b[2D\u00e9\u0301",
                                           "\x1b[999C", "\x1b[999C\x1b[D", "\x1b[999C\x1b[2D", "\x1b[3G", "\x1b[?7l",
                                           "\x1b[?7h", "\x1b[A"]),
                          st.sampled_from([("\u00e9",), ("\u2500",), ("\u00e9\u0301",), ("\u00e8", "\u2502"),
                                           # (round 54: marked runs, one insert; two marks, five, Devanagari)
                                           ("\u00e8\u0301\u0302",), ("\u00e0\u0301\u0302\u0303\u0304\u0305",),
                                           ("\u0915\u093f",)])),
                 max_size=10),
       st.sampled_from([1 << 20, 40, 25]), st.sampled_from([512, 2, 3]), st.integers(1, 3))
# (the used count the insert leaves, the cells up to the margin: it decides where a wrapped row's text ends)
@example((b"", 2, 1), [("", ("\u00e9",)), ("", ("\u00e9",)), ("", ("\u00e9",)), ("\r", ("\u00e9",)),
                       ("\u4e2d", ("\u00e9",))], 1 << 20, 512, 1)
def test_a_narrow_character_typed_in_insert_mode_is_ich_then_the_character(both, case, pieces, max_live_cells,
                                                                            cells, narrower):
    data, columns, rows = case
    typed = written_out = data + b"\x1b[4h"
    for before, chars in pieces:  # (a combining mark joins the character before it: no insert of its own)
        typed += (before + "".join(chars)).encode()
        written_out += (before + "".join("\x1b[@\x1b[4l" + char + "\x1b[4h" for char in chars)).encode()
    with chunk_cells(both[0], cells):  # (the core's rows in chunks of a few cells, or flat)
        results = [decoded_and_counted(impl, stream, columns, rows, max_live_cells, narrower)
                   for impl in both for stream in (typed, written_out)]
    assert results[0] == results[1] == results[2] == results[3]


# (round 49) A wide character typed in insert mode, between controls, is one splice of its row in the fallback
# (insert_char) where it fits before the margin (since round 52 over padding too: a wide character then BS,
# typed on, the padding the insert moves past it cleared); put_char's insert and write otherwise. Not
# compared with ICH 2 written out, as the narrow ones are above: with auto-wrap off tmux drops a wide character
# that does not fit before its insert, which ICH would do.
@settings(max_examples=examples(200))
@given(sized_streams(max_ops=40),
       st.lists(st.tuples(st.sampled_from(["", "\r", "\n", "\x1b[D", "\x1b[2D", "\u4e2d", "ab", "\x1b[999C\x1b[3D",
                                           "\x1b[999C\x1b[4D", "\x1b[999C\x1b[D", "\x1b[999C\x1b[2D", "\x1b[3G",
                                           "\x1b[?7l", "\x1b[?7h", "\x1b[A", "\x1b[2@"]),
                          st.sampled_from(["\u4e2d", "\U0001f600", "\u6587\x1b[C", "\u4e2d\u0301",
                                           # (round 54: ASCII with marks, in runs with the rest: the twins only,
                                           # ASCII written outside insert mode is tmux's collected path)
                                           "e\u0301", "ab\u0301\u0302", "x\u200d", "a\u0301\u0302\u0303\u0304\u0305"])),
                 max_size=12),
       st.sampled_from([1 << 20, 40, 25, 6]), st.sampled_from([512, 2, 3]), st.integers(0, 3))
@example((b"", 8, 2), [("\u4e2d" * 4 + "\x1b[4D", "\u6587"), ("\x1b[999C\x1b[4D", "\u4e2d")], 1 << 20, 512, 1)
@example((b"", 8, 2), [("\x1b[?7l0123456\x1b[999C\x1b[D", "\u4e2d"), ("\x1b[Da", "\u4e2d")], 1 << 20, 512, 0)  # (stuck)
@example((b"", 9, 2), [("", "\u4e2d"), ("\b", "\u4e2d"), ("\b", "\u4e2d\u0301"), ("\b", "\U0001f600"), ("\b", "\u4e2d"),
                       ("\x1b[3G", "\u4e2d"), ("\b", "\u4e2d")], 1 << 20, 512, 0)  # (over padding, the row filling)
def test_wide_characters_typed_in_insert_mode(both, case, pieces, max_live_cells, cells, narrower):
    data, columns, rows = case
    stream = data + b"\x1b[4h" + "".join(before + char for before, char in pieces).encode()
    with chunk_cells(both[0], cells):
        results = [decoded_and_counted(impl, stream, columns, rows, max_live_cells, narrower) for impl in both]
    assert results[0] == results[1]


@pytest.mark.parametrize(("data", "expected"), [
    (b"0123456789\x1b[4hx", "0123456789x"),  # (the cursor waits past the margin: x wraps to the next row)
    (b"0123456789\x1b[10G\x1b[4hx", "012345678x"),
    ("abcdefgh\u4e2d\x1b[10G\x1b[4hx".encode(), "abcdefgh\u4e2dx"),  # (the padding cleared: the 中 stays)
    ("abcdefgh\u4e2d\x1b[10Gx".encode(), "abcdefgh x"),  # (without insert mode, overwrite blanks it)
])
def test_insert_mode_at_the_last_column(impl, data, expected):
    assert impl.sanitize(data, columns=10, rows=3) == expected


@pytest.mark.parametrize(("data", "expected"), [
    # text written over a wide character's right half blanks the character first: one write from its cell in
    # the fallback (_over_right_half), no trim of the row to empty and padding back in the core; the walk
    # right of a wide character then BS ends with x past six blanks
    ("中\b" * 6 + "x", "      x"),
    ("x中\bab", "x ab"),
    ("中\bab", "中ab"),  # (ASCII at column 1: tmux's collected path never looks at column 0)
    ("ab中\b\u00e9", "ab \u00e9"),
    ("中\b中文\r", " 中文"),
    ("中\b中\b中\b ", "    "),  # (a space is ASCII: the collected path blanks the character, writes the space)
    ("中\b中\b中\b\x1b[?7l ", ""),  # (put_char: a space on the blank cell is not written, the row trims)
])
def test_text_over_a_wide_characters_right_half(impl, data, expected):
    assert impl.sanitize(data.encode(), columns=12, rows=3) == expected


@pytest.mark.parametrize("row", ["abcdefghij", "e\u0301" * 10, "abcdefgh\u4e2d", "abc", ""],
                         ids=["full", "marked", "wide at the end", "short", "blank"])
@pytest.mark.parametrize("typed", ["x", " ", "e\u0301", "\u4e2d", "\u00e9\u0302"])
@pytest.mark.parametrize("wrap", ["", "\x1b[?7l"], ids=["auto-wrap", "auto-wrap off"])
@pytest.mark.parametrize("column", ["\x1b[999C", "\x1b[9G"], ids=["last column", "the one before"])
def test_a_character_typed_at_the_last_column_in_insert_mode(both, row, typed, wrap, column):
    """A character typed between controls at the last column in insert mode, again and again (the cursor
    moved back there each time): put_char skips its insert for a one-cell character over a cell that is not
    padding, and the fallback writes it as with insert mode off (put_typed, round 56); a column before, the
    insert moves the last cell out. The core's put_char is the reference."""
    stream = (wrap + row + "\x1b[4h" + (column + typed + "\x1b[A") * 3 + "\r\nz").encode()
    results = [decoded_and_counted(impl, stream, 10, 3, 1000, narrower=3) for impl in both]
    assert results[0] == results[1]


def test_a_character_inserted_keeps_a_used_count_a_narrower_resize_left(impl):
    """An insert's move reaches the margin, so it makes the row's used count at least the columns (tmux's
    cellused), never less: after a resize from 10 to 8 columns the row keeps 10, and a wrapped row's used cells
    past its text show as spaces. The fallback's splice of one typed character set it to 8 (round 43; found by
    test_erases_on_a_sparse_tall_screen)."""
    decoder = impl.TranscriptDecoder(columns=10, rows=4)
    out = decoder.decode(b"\x1b[4h\x1b[4;1Hz")
    decoder.resize(8, 4)
    out += decoder.decode("a\u2588\u258c\u2591\u2588\u258c\u2591\u2588\u258c\u2591\x1b[4;1Hz".encode())
    assert out + decoder.decode(b"", final=True) == "\n\n\nza\u2588\u258c\u2591\u2588\u258c\u2591  z\u2588\u258c\u2591"


# Zero-width characters (a combining mark of two UTF-8 bytes, of three, a bidi control, ZWJ) join the cell before
# the cursor; REP keeps at most MAX_CELL_BYTES + 1 copies of them (the rest changed nothing: round 35).
@settings(max_examples=examples(100))
@given(sized_streams(max_ops=40), st.sampled_from(["\u0301", "\u093f", "\u202e", "\u200d"]), st.integers(1, 1000),
       st.sampled_from(["", "a", " ", "a\u0301"]))
def test_rep_of_a_zero_width_character_is_printing_it(impl, case, char, count, before):
    data, columns, rows = case
    columns += 30  # (room for more copies than a cell takes: ten of U+0301 after a one-byte character)
    times = 1 + min(count, columns - len(before[:1]))  # (REP: at most up to the margin)
    rep = ("\r" + before + char).encode() + b"\x1b[%db" % count + b"x"
    printed = ("\r" + before + char * times).encode() + b"x"
    outputs = []
    for stream in (data + b"\x1b[?7h" + rep, data + b"\x1b[?7h" + printed):
        decoder = impl.TranscriptDecoder(columns=columns, rows=rows)
        text = decoder.decode(stream, final=True)
        outputs.append((text, {**decoder.stats, "sequences_removed": 0}))  # (REP is one more sequence)
    assert outputs[0] == outputs[1]


def test_rep_over_its_own_run_clears_stray_padding_after_it(impl):
    """REP over cells that already hold its run writes nothing in the fallback (fill_run's same cells),
    unless padding cut from its wide character follows them (ECH, then DCH, leave one): printing a wide
    character over padding clears the padding after it (tmux's screen_write_overwrite), so that case takes
    the clean test's path. As the same characters printed."""
    setup = "\u4e2d" * 4 + "\x1b[7G\x1b[X\x1b[P\r"  # wide characters at columns 0-5, stray padding at 6
    for count in (1, 2):
        rep = (setup + "\u4e2d\x1b[%db\x1b[8G|" % count).encode()
        printed = (setup + "\u4e2d" * (1 + count) + "\x1b[8G|").encode()
        assert impl.sanitize(rep, columns=8, rows=2) == impl.sanitize(printed, columns=8, rows=2)
    assert impl.sanitize(rep, columns=8, rows=2) == "\u4e2d\u4e2d\u4e2d |"


@pytest.mark.parametrize("char", ["x", "\u00e9", "\u4e2d", "\U0001f600"])
@pytest.mark.parametrize("shorter", [False, True])
def test_the_fallback_compares_rep_over_its_own_run_instead_of_scanning_it(monkeypatch, char, shorter):
    """REP then CR over a full row of what it writes (bounds.py's "REP full row + CR" at 1000 columns: 0.96
    -> 1.6 MB/s in the fallback) compares the row's cells with its run instead of joining and scanning them;
    the same output either way, so only the calls show it. ``shorter``: over a row that ends inside the run,
    holding its start (the row a wrapped REP left, here a row cut by EL), clean too, with no scan for stray
    padding, whose astral class costs 58 ns a padding cell in a row of emoji (REP 1024 then CR at 1000
    columns: 0.17 -> 0.63 MB/s in the fallback, round 44)."""
    from acp_transcript import _decoder_c, _decoder_py, _screen_py

    width = _screen_py.char_width(char)
    per_row = 1000 // width
    full_row = (char * per_row + "\r").encode()
    # (cut after half a row, and inside a pair; no more than the row holds: no wrap)
    cut = b"\x1b[%dG\x1b[K\r" % (width * (per_row // 2) + 2) if shorter else b""
    reps = (cut + char.encode() + b"\x1b[%db\r" % (per_row - 1)) * 5
    spans = []
    clean_span = _screen_py._clean_span
    monkeypatch.setattr(_screen_py, "_clean_span",
                        lambda row, a, b: spans.append(b - a) or clean_span(row, a, b))
    fallback = _decoder_py.TranscriptDecoder(columns=1000, rows=4)
    got = fallback.decode(full_row)
    spans.clear()  # (writing the full row scans it)
    got += fallback.decode(reps, final=True)
    assert [n for n in spans if n > 2] == []  # (the character before each REP is a one-cell check)
    compiled = _decoder_c.TranscriptDecoder(columns=1000, rows=4)
    assert (compiled.decode(full_row + reps, final=True), compiled.stats) == (got, fallback.stats)
    assert got == char * per_row


# ... and REP after REP (a wide character's REP wraps: at the bottom of a scroll region the next one finds
# the region's rotation lagging), among the random operations, against the other twin.
rep_of_any = st.builds(lambda char, counts: char.encode() + b"".join(b"\x1b[%db" % n for n in counts),
                       st.sampled_from(sorted(REP_CHARS)), st.lists(st.integers(0, 40), min_size=1, max_size=3))


@settings(max_examples=examples(200))
@given(st.lists(st.one_of(screen_ops, rep_of_any), max_size=60), st.integers(2, 24), st.integers(1, 8))
def test_twins_agree_on_rep_of_any_character(both, ops, columns, rows):
    outputs = []
    for impl in both:
        decoder = impl.TranscriptDecoder(columns=columns, rows=rows)
        outputs.append((decoder.decode(b"".join(ops), final=True), decoder.stats))
    assert outputs[0] == outputs[1]


# Auto-wrap off (round 34): text from the last column on is written there one character over the other
# (put_stuck), and REP of a one-cell character but a space fills the rest of the row (fill_run), where each
# character was a put_char (REP then CR at 1000 columns: 0.01 MB/s in the fallback, 1 in the core). The model
# is the fallback with both shortcuts off, a put_char a character; the fallback and the core must agree with
# it call by call, and on the counters (each character written over another at the last column is one cell
# overwritten; a space on a blank cell writes nothing). Runs of spaces, wide characters and marks at the
# last column, and one-column screens (the cursor goes past the margin there).
STUCK_TEXT = [b"x" * 7, b"ab  cd  ef", b"   ", b"  q ", b"xyz" * 5 + b"   ", b"a" * 40, "e\u0301".encode(),
              b" \x1b[9b", b" \x1b[40b", b"\r \x1b[40b", b"\r\x1b[2C \x1b[40b", "\u4e2d \u6587".encode(),
              b"\rx\x1b[40b\r\x1b[3C\x1b[2X\r \x1b[40b",  # (a row of fills with blanks in it, then spaces)
              "\r\u4e2d\x1b[40b".encode(), "\r\u4e2d\x1b[40b\x1b[3G\u0301".encode(),  # (REP over its own pairs)
              "\u4e2d".encode(), "\u00e9\u00e8\u00ea".encode(), "\u2588".encode(), b"\x1b[5b", b"\x1b[40b",
              b"\x1b[?7l", b"\x1b[?7l", b"\x1b[4h", b"\x1b[4l", b"\r", b"\x1b[999C", b"\x1b[2D"]
# (round 53) marks among the characters (put_stuck_marked): marks first, runs of three-byte marks that leave
# two bytes of a cell, where a two-byte one still fits, spaces with marks
STUCK_TEXT += [text.encode() for text in ("e\u0301" * 12, "\u0301\u0302ab\u0301" * 3, " \u0301  " * 4,
                                          "x" + "\u20d0\u0301" * 12 + "y", "\u0e31q\u0e31\u0e31" * 5,
                                          "\u20d0" * 9 + "ab\u0301" * 8)]


class _PutCharModel:
    """The fallback's ScreenSink with put_stuck, put_stuck_marked and auto-wrap-off fills (put_spaces,
    fill_run) done a put_char a character."""

    def __enter__(self) -> None:
        sink = _screen_py.ScreenSink
        self.saved = sink.put_stuck, sink.put_stuck_marked, sink.fill_run, sink.put_spaces
        fill_run = sink.fill_run

        def put_stuck(self, text, start, end):  # type: ignore[no-untyped-def]
            for char in text[start:end]:
                self.put_char(char, _screen_py.char_width(char))

        def fill_run_wrapping(self, char, width, count):  # type: ignore[no-untyped-def]
            return fill_run(self, char, width, count) if self.wrap else count

        sink.put_stuck = sink.put_stuck_marked = put_stuck
        sink.fill_run, sink.put_spaces = fill_run_wrapping, lambda self, count: count

    def __exit__(self, *exc: object) -> None:
        sink = _screen_py.ScreenSink
        sink.put_stuck, sink.put_stuck_marked, sink.fill_run, sink.put_spaces = self.saved


@settings(max_examples=examples(300), deadline=None)
@example(["\u4e2d\u6587ab\u4e2d\r \x1b[9b".encode()], 10, 2, 64, 512)  # (padding cleared by spaces: put_spaces)
@example(["\u4e2d\u6587ab\u4e2d\r \x1b[9b\x1b[10G|".encode()], 10, 2, 64, 512)  # (...the last one's too)
@example(["x \u0301 \r \x1b[9b".encode()], 10, 2, 64, 512)  # (spaces over spaces, one of them marked)
@example([b"\rx\x1b[40b\r\x1b[3C\x1b[2X\r \x1b[40b"], 10, 2, 64, 2)  # (...over a chunked row with blanks)
@example(["\r\u4e2d\x1b[40b".encode()] * 3, 10, 2, 64, 512)  # (REP of a wide character over its own pairs)
@example([("\u4e2d" * 4 + "\x1b[7G\x1b[X\x1b[P\r\u4e2d\x1b[2b\x1b[8G|").encode()], 8, 2, 64, 512)  # (stray padding)
# (c and nine acutes leave two of MAX_CELL_BYTES: the three-byte marks are dropped, the acute after them joins)
@example([("abcdx" + "\u0301" * 9 + "\u20d0" * 3 + "\u0301\u20d0y").encode()], 4, 2, 64, 512)
@given(st.lists(st.one_of(st.sampled_from(STUCK_TEXT), screen_ops), max_size=40),
       st.one_of(st.integers(1, 3), st.integers(1, 12)), st.integers(1, 4), st.integers(1, 64),
       st.sampled_from([512, 1, 2, 5]))
def test_auto_wrap_off_shortcuts_are_put_char(both, ops, columns, rows, size, chunk_cells):
    """(The core's rows are chunks once an edit would touch more than ``chunk_cells``: small ones make these
    rows chunks, as the fuzz harness does.)"""
    data = b"\x1b[?7l" + b"".join(ops)
    chunks = [data[i : i + size] for i in range(0, len(data), size)]
    results = []
    for impl, model in ((both[1], True), (both[1], False), (both[0], False)):
        if impl is both[0]:
            previous = impl._set_line_chunk_cells(chunk_cells)
            try:
                decoder = impl.TranscriptDecoder(columns=columns, rows=rows)
            finally:
                impl._set_line_chunk_cells(previous)
        else:
            decoder = impl.TranscriptDecoder(columns=columns, rows=rows)
        if model:
            with _PutCharModel():
                calls = [decoder.decode(chunk) for chunk in chunks] + [decoder.decode(b"", final=True)]
        else:
            calls = [decoder.decode(chunk) for chunk in chunks] + [decoder.decode(b"", final=True)]
        results.append((calls, decoder.stats))
    assert results[1] == results[0]
    assert results[2] == results[0]


@settings(max_examples=examples(200))
@given(st.text(st.sampled_from("\u0301\u0302\u20d0\u0e31\U0001d167\U000e0100"), max_size=30), st.integers(-2, 24))
def test_fitting_marks_are_the_marks_joined_one_at_a_time(marks, room):
    # (round 53) combine's marks joined at once: each that fits in what is left of the cell, in order
    kept = ""
    for mark in marks:
        if len(mark.encode()) <= room - len(kept.encode()):
            kept += mark
    assert _screen_py._fitting_marks(marks, room) == kept


def test_auto_wrap_off_text_and_rep_at_the_last_column():
    """The counts the shortcuts make, worked by hand at 4 columns: "abcdefg" leaves "abcg", d on the blank
    last cell and e, f, g each written over the one before; spaces on a blank last cell write nothing, a
    space over a character is written (and counted), and REP fills the rest of the row."""
    from acp_transcript import _decoder_c, _decoder_py

    for impl in (_decoder_c, _decoder_py):
        decoder = impl.TranscriptDecoder(columns=4, rows=2)
        out = decoder.decode(b"\x1b[?7labcdefg\r\n")
        assert decoder.stats["cells_overwritten"] == 3
        out += decoder.decode(b"xyz    \r\n")  # (the spaces on the blank last cell: nothing)
        assert decoder.stats["cells_overwritten"] == 3
        out += decoder.decode(b"xyzq  w")  # (q on the blank cell, then a space over q, one over it, w)
        assert decoder.stats["cells_overwritten"] == 6
        out += decoder.decode(b"\rx\x1b[40b")  # (x over x; REP: 3 more, over y, z and w)
        assert decoder.stats["cells_overwritten"] == 10
        assert out + decoder.decode(b"", final=True) == "abcg\nxyz\nxxxx", impl.__name__


def _enforce_limits_on_every_row(self) -> None:  # type: ignore[no-untyped-def]
    """ScreenSink.enforce_limits before round 34: every row read, from the top, however many are blank."""
    screen = self.screen
    for y in range(self.height):
        if screen.cells <= self.max_live_cells:
            return
        if y != self.cy and screen.rows[screen.base + y]:
            self.to_history(y)
            self.empty_row(y)


# max_live_cells on a screen (SPEC 2.8): the topmost rows that hold something, but the cursor's, go to the
# history until the screen is within the bound. Since round 34 both twins read only the rows that may hold
# something (a tall screen's emptied rows were read again by every write past the bound: 1.9 MB/s in the
# core at 80x65,535, 0.08 in the fallback). The model is the loop over every row; the twins must agree with
# it call by call, on the counters too, with limits small enough to be reached all the time.
@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.one_of(screen_ops, st.sampled_from(STUCK_TEXT)), max_size=50), st.integers(1, 12),
       st.integers(1, 30), st.integers(1, 60), st.integers(1, 64))
def test_enforce_limits_reads_only_the_rows_that_may_hold_something(both, ops, columns, rows, limit, size):
    data = b"".join(ops)
    chunks = [data[i : i + size] for i in range(0, len(data), size)]
    results = []
    for impl, model in ((both[1], True), (both[1], False), (both[0], False)):
        decoder = impl.TranscriptDecoder(columns=columns, rows=rows, max_live_cells=limit)
        saved = _screen_py.ScreenSink.enforce_limits
        if model:
            _screen_py.ScreenSink.enforce_limits = _enforce_limits_on_every_row  # type: ignore[method-assign]
        try:
            calls = [decoder.decode(chunk) for chunk in chunks] + [decoder.decode(b"", final=True)]
        finally:
            _screen_py.ScreenSink.enforce_limits = saved  # type: ignore[method-assign]
        results.append((calls, decoder.stats))
    assert results[1] == results[0]
    assert results[2] == results[0]


@settings(max_examples=examples(60))
@given(sized_streams(max_ops=60), st.integers(0, 200), st.integers(1, 30), st.integers(1, 10))
def test_twins_agree_across_a_resize(both, case, at, columns, rows):
    c, py = both
    data, start_columns, start_rows = case
    outputs = []
    for impl in (c, py):
        decoder = impl.TranscriptDecoder(columns=start_columns, rows=start_rows)
        out = decoder.decode(data[:at]) + decoder.resize(columns, rows) + decoder.decode(data[at:], final=True)
        outputs.append((out, decoder.stats))
    assert outputs[0] == outputs[1]


def test_frames_after_a_resize_between_sized_and_unsized(impl):
    """After a CR, the parser skips frames that the next one covers by its sink's rule: a sized screen counts
    cells, an unsized window characters. The fallback's parser kept the first sink's rule across a resize:
    after one to a size it skipped two wide characters for three narrow ones, which do not cover them (the
    screen kept a z the wide characters had overwritten), and after one back to unsized it asked the window
    for a sized screen's frame_clean (AttributeError; round 48)."""
    decoder = impl.TranscriptDecoder()
    out = decoder.decode(b"hello\n") + decoder.resize(10, 5)
    out += decoder.decode("zzzz\r\u4e2d\u4e2d\rabc\rq".encode()) + decoder.decode(b"", final=True)
    assert out == "hello\nqbc"
    assert decoder.stats["cells_overwritten"] == 7  # zzzz by the wide characters, then their 2 + 1 cells
    decoder = impl.TranscriptDecoder(columns=10, rows=5)
    out = decoder.decode(b"hello\n") + decoder.resize(None, None)
    assert out + decoder.decode(b"ab\rcd\ref\rx") + decoder.decode(b"", final=True) == "hello\nxf"


def test_marks_added_to_rows_a_block_of_lines_wrote(both):
    """Lines with combining marks that scroll through the bottom row together are written as a block
    (put_lines, push_rows), each row given its list of marks from _marked_cells; marks added to such a row
    later (a combine, a marked character) extend that list. Since _marked_cells is cached and gives tuples
    (round 48), each row must get its own list: with the cache's tuple a later mark raised AttributeError."""
    data = ("e\u0301x\n" * 30 + "\x1b[A\x1b[3G\u0302b\u0301\x1b[A\x1b[2G\u0303").encode()
    outputs = []
    for impl in both:
        decoder = impl.TranscriptDecoder(columns=80, rows=24)
        outputs.append((decoder.decode(data), decoder.live, decoder.decode(b"", final=True)))
    assert outputs[0] == outputs[1]
    assert outputs[0][1].endswith("e\u0301x\ne\u0301\u0303x\ne\u0301x\u0302b\u0301")


# Frames after a CR (Parser.fold_frames), among screen operations, with the resize anywhere.
progress_frames = st.lists(st.sampled_from([b"\r", b"ab", b"abc", b"zzzz", "\u4e2d".encode(), b"\x1b[K", b"\n",
                                            b"e\xcc\x81"]), max_size=30)


@settings(max_examples=examples(60))
@given(sized_streams(max_ops=30), progress_frames, st.integers(0, 200), st.booleans())
def test_twins_agree_across_a_resize_between_sized_and_unsized(both, case, frames, at, sized_first):
    data, columns, rows = case
    data = data[:at] + b"".join(frames) + data[at:]
    at += len(b"".join(frames)) // 2
    outputs = []
    for impl in both:
        if sized_first:
            decoder = impl.TranscriptDecoder(columns=columns, rows=rows)
            out = decoder.decode(data[:at]) + decoder.resize(None, None)
        else:
            decoder = impl.TranscriptDecoder()
            out = decoder.decode(data[:at]) + decoder.resize(columns, rows)
        out += decoder.decode(data[at:] + b"".join(frames), final=True)
        outputs.append((out, decoder.stats))
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("text", ["\u4e2d\u6587" * 30, "\u0416\u0443\u0440\u043d\u0430\u043b " * 12, "\ud55c\uae00 " * 20])
def test_the_fallback_writes_new_text_a_row_at_a_time(monkeypatch, text):
    """Text that is not ASCII, on new rows of a sized screen, is written a row at a time (put_wrapped,
    put_run), never a character at a time through put_char. Round 19's clean test took the cells past a
    row's end for not clean and sent every such character there (colored CJK at 80x24: 11.5 -> 1.8 MB/s),
    with the same output: only the calls show it."""
    from acp_transcript import _decoder_py, _screen_py

    data = ((text + "\r\n") * 5).encode()
    expected = _decoder_py.sanitize(data, columns=80, rows=24)
    calls = []
    put_char = _screen_py.ScreenSink.put_char
    monkeypatch.setattr(_screen_py.ScreenSink, "put_char", lambda self, *a: calls.append(a) or put_char(self, *a))
    assert _decoder_py.TranscriptDecoder(columns=80, rows=24).decode(data, final=True) == expected
    assert calls == []


def rows_with_a_stopper(char: str, other: str, lengths: int, stopper: str) -> list[str]:
    """Rows of n ``char`` for every n below ``lengths``, and, for each, the rows with ``stopper`` at every
    position instead (``other`` after it)."""
    lines = []
    for n in range(lengths):
        lines.append(char * n)
        if stopper:
            lines.extend(char * p + stopper + other * (n - p - 1) for p in range(n))
    return lines


def assert_rows_go_to_history_alike(both, lines: list[str]) -> None:
    """Each line on a 64-column screen of two rows, so that each goes to the history, in 4 KiB chunks: the
    twins' transcripts are the same, a line each."""
    data = "".join(line + "\r\n" for line in lines).encode()
    outputs = []
    for module in both:
        decoder = module.TranscriptDecoder(columns=64, rows=2)
        out = [decoder.decode(data[i : i + 4096]) for i in range(0, len(data), 4096)]
        out.append(decoder.decode(b"", final=True))
        outputs.append("".join(out))
    assert outputs[0] == outputs[1]
    assert outputs[0].count("\n") == len(lines)


@pytest.mark.parametrize("stopper", ["", "\u00e9", "\u65e5", "e\u0301", "\x1b[C", "\t", "~", " "])
def test_rows_of_every_length_go_to_history_as_their_cells_say(both, stopper):
    """The core checks and narrows a row of printable ASCII in one pass (16 cells at a time, the last block
    overlapping the one before) on its way to history: rows of every length 0-49 with one cell that is not
    printable ASCII (Latin-1, wide and its padding, a combining mark, a blank left by a cursor move, a tab's
    blanks) at every position, and rows without one, against the fallback."""
    assert_rows_go_to_history_alike(both, rows_with_a_stopper("a", "b", 50, stopper))


@pytest.mark.parametrize("stopper", ["", "a", "\u00e9", "e\u0301", "\u1100", "\U0001f600", "\uff71", "\x1b[C",
                                     "\x1b[D\x1b[P", "\u2028"])
def test_rows_of_wide_characters_go_to_history_as_their_cells_say(both, stopper):
    """The core takes a row's wide characters and their padding 8 cells at a time while they are whole
    pairs of a character acp_ordinary_common passes (acp_copy_pairs): rows of 0-31 of them with one
    stopper at every position (a narrow character, which shifts the pairs by a cell; a mark; a wide
    character that test fails; a blank; a DCH that leaves padding without its character, and the rest of
    the row a cell to the left; a character the Unicode policy writes out), against the fallback."""
    assert_rows_go_to_history_alike(both, rows_with_a_stopper("\u4e2d", "\u6587", 32, stopper))


# Line inserts, deletes and scrolls on a tall screen, with counts past the core's on-stack rotation buffer
# (64 rows): the core rotates its row order from the nearer end of the screen and recentres it in its block
# (_screen_c.pxi, screen_rotate); the fallback moves list items. Each row is numbered so that any row out of
# place shows in the transcript.
tall_ops = st.one_of(
    st.builds(lambda y, final, n: b"\x1b[%d;1H\x1b[%d%s" % (y, n, final), st.integers(1, 200),
              st.sampled_from([b"L", b"M", b"S", b"T"]), st.integers(0, 160)),
    st.builds(lambda top, height: b"\x1b[%d;%dr" % (top, top + height), st.integers(1, 200), st.integers(0, 200)),
    st.sampled_from([b"\x1b[r", b"\x1bM" * 70, b"\n" * 70, b"\x1b[?1049h", b"\x1b[?1049l"]),
)
# Every path of the rotation on 200 rows, whatever the draw (row numbers 1-based, as CUP takes them):
TALL_CASES = [
    b"\x1b[70;1H\x1b[65M", b"\x1b[70;1H\x1b[65L",  # 65 rows (past the stack buffer), inside the range
    b"\x1b[10;1H\x1b[65M", b"\x1b[10;1H\x1b[65L",  # 65 rows from the top end (the window moves)
    b"\x1b[1;100r\x1b[60;1H\x1b[30M\x1b[60;1H\x1b[30L",  # a region: inside it
    b"\x1b[150;200r\x1b[160;1H\x1b[5M\x1b[160;1H\x1b[5L",  # a region at the bottom: the rows above move
    b"\x1b[100;1H\x1b[65M", b"\x1b[5;1H\x1b[190L",  # the moved rows do not overlap where they go
    b"\x1bM" * 300, b"\x1b[200;1H" + b"\n" * 300,  # the whole screen, past the block's spare entries
    b"\x1b[10;190r\x1b[100S\x1b[100T",
    b"\x1b[?1049h\x1b[70;1H\x1b[65M\x1b[?1049l",
]


def tall_screen_outputs(impls, ops, rows, resize):
    numbered = b"".join(b"\x1b[%d;1Hrow %d" % (y, y) for y in range(1, rows + 1))
    data = numbered + b"".join(op + b"x" for op in ops) + b"\x1b[?1049l"
    outputs = []
    for impl in impls:
        decoder = impl.TranscriptDecoder(columns=12, rows=rows)
        middle = len(data) // 2
        out = decoder.decode(data[:middle])
        if resize:
            out += decoder.resize(*resize)
        out += decoder.decode(data[middle:], final=True)
        outputs.append((out, decoder.stats))
    return outputs


@pytest.mark.parametrize("op", TALL_CASES)
def test_line_moves_on_a_tall_screen(both, op):
    compiled, fallback = tall_screen_outputs(both, [op, op], 200, None)
    assert compiled == fallback


@settings(max_examples=examples(60))
@given(st.lists(tall_ops, max_size=40), st.integers(65, 200), st.sampled_from([None, (40, 90), (10, 250)]))
def test_twins_agree_on_line_moves_on_a_tall_screen(both, ops, rows, resize):
    compiled, fallback = tall_screen_outputs(both, ops, rows, resize)
    assert compiled == fallback


# Edits of one row, dense in erases: the core remembers how many blanks a row starts with (Row.lead) and
# lets EL 1 and ECH skip them; every write, insert or delete before that point must forget it.
row_edits = st.one_of(
    st.builds(lambda x: b"\x1b[%dG" % x, st.integers(1, 24)),
    st.builds(lambda how: b"\x1b[%sK" % how, st.sampled_from([b"", b"0", b"1", b"2"])),
    st.builds(lambda final, n: b"\x1b[%d%s" % (n, final), st.sampled_from([b"X", b"@", b"P", b"b"]),
              st.integers(0, 30)),
    st.sampled_from([b"x", b"ab", b"abcdefghij", "\u4e2d".encode(), b"e\xcc\x81", b" ", b"\r", b"\x1b[1K\r",
                     b"\x1b[2Dz"]),
)


@pytest.mark.parametrize("row", [2, 3])
def test_dl_of_one_row_unwraps_the_row_above_the_regions_last(both, row):
    # tmux's DL clears lines with an unsigned count gone below zero: no row is emptied, but the row above the
    # region's last is unwrapped when two or more rows moved (round 53 writes that clear out). The row wrapped
    # into the row under the region (the region set after it) moves up to it from the region's last.
    data = b"\x1b[4;1H0123456789abc\x1b[1;4r\x1b[%d;1H\x1b[M\x1b[9;1H" % row
    for impl in both:
        decoder = impl.TranscriptDecoder(columns=10, rows=6)
        assert decoder.decode(data, final=True) == "\n\n0123456789\n\nabc\n", impl.__name__


@settings(max_examples=examples(300))
# a DCH pulls text into the blanks EL 1 left; the next EL 1 must erase it
@example([b"abcdefghij", b"\x1b[5G", b"\x1b[1K", b"\x1b[1G", b"\x1b[3P", b"\x1b[4G", b"\x1b[1K"], 12, 1)
# ICH of every cell from the cursor moves none: nothing changes (round 53's first ICH shortcut counted the row used)
@example([b"\x1b[2@", b"\x1b[2G", "\u4e2d".encode()], 2, 1)
# a wide character typed over itself, stray padding after its own (DCH left it): the padding is cleared
# (round 54's shortcut for the same character over itself)
@example(["\u4e2d".encode(), "\u4e2d".encode(), b"\x1b[3G", b"\x1b[1P", b"\r", "\u4e2d".encode(), b"\x1b[5G", b"x"],
         10, 1)
@given(st.lists(row_edits, max_size=40), st.integers(2, 24), st.integers(1, 3))
def test_twins_agree_on_erases_within_a_row(both, edits, columns, rows):
    assert_twins_agree_on_screen(both, b"".join(edits), columns, rows)


def assert_twins_agree_on_screen(both, data, columns, rows):
    """Output, live window, final output and counters of one decode() on a columns x rows screen."""
    outputs = []
    for impl in both:
        decoder = impl.TranscriptDecoder(columns=columns, rows=rows)
        out = decoder.decode(data)
        outputs.append((out, decoder.live, decoder.decode(b"", final=True), decoder.stats))
    assert outputs[0] == outputs[1]


# Rows indented by tabs or cursor moves: the core raises a row's known blank prefix (Row.lead) when a write
# lands past the end of a row that is blank so far, and commits such a row as its lead's spaces and a
# printable rest (buf_put_printable, row_text); rows with blanks inside go 16 cells at a time. Every edit
# that lands before the lead (a write at column 0, ICH, DCH, a wide character, a combining mark) must lower
# it, on rows long enough for several blocks.
indented_ops = st.one_of(
    st.sampled_from([b"\t", b"\t\t", b"\n", b"\r", b"\r\n", b"x", b"if err != nil {", b"a\tb\tc", " \u4e2d".encode(),
                     b"e\xcc\x81", b"\x1b[1K", b"\x1b[K", b"\x1b[2K", b"\x1b[2@", b"\x1b[3P", b"\x1b[5X", b"\x1b[4b",
                     b"\x1b[31m", b"\x1bM"]),
    st.builds(lambda n: b"\x1b[%dC" % n, st.integers(1, 40)),
    st.builds(lambda n: b"\x1b[%dG" % n, st.integers(1, 60)),
)


@settings(max_examples=examples(300))
@example([b"\t\t", b"x", b"\r", b"y", b"\n"], 40, 2)  # a write before the raised lead
@example([b"\x1b[20C", b"x", b"\r", b"\x1b[2@", b"\n"], 40, 1)  # an insert before it moves the text
@example([b"\t", b"x", b"\n", b"\t\t", b"y", b"\n"], 40, 1)  # a reused row keeps no stale lead
@example([b"\t\t", b"xyzw", b"\x1b[16G", b"\x1b[3P", b"\n"], 40, 1)  # a delete pulls text to just before it
@given(st.lists(indented_ops, max_size=40), st.integers(2, 60), st.integers(1, 4))
def test_twins_agree_on_indented_rows(both, ops, columns, rows):
    assert_twins_agree_on_screen(both, b"".join(ops), columns, rows)


def test_indented_code_on_a_screen_is_spaces_then_text(both):
    code = b"func f() {\n\tfor {\n\t\tif x {\n\t\t\treturn\n\t\t}\n\t}\n}\n" * 30
    expected = code.decode().expandtabs(8)
    for impl in both:
        assert impl.sanitize(code, columns=80, rows=5) == expected
        assert impl.sanitize(code.replace(b"\t", b"\x1b[8C"), columns=80, rows=5) == expected


# (A wrong blank conversion in the 16-cell copy is caught here only when it makes a printable byte: one that
# makes a control byte, or none, fails the copy's test, and the cell loop then writes the right spaces.)
@pytest.mark.parametrize("first", [b"", "\u4e2d\n".encode()])  # (a wide character first: rows go to row_text)
def test_columns_aligned_by_tabs_on_a_screen_are_spaces(both, first):
    rows = b"2026-12-01\t18:20:03\tINFO\tworker-3\tserved in 12 ms\n" * 20 + b"a\tb\t\tc\td\te\tf\tg\th"
    expected = (first + rows).decode().expandtabs(8)
    for impl in both:
        assert impl.sanitize(first + rows, columns=80, rows=4) == expected
        decoder = impl.TranscriptDecoder(columns=80, rows=4)
        decoder.decode(first + rows)
        assert decoder.live == expected.split("\n", len(expected.split("\n")) - 4)[-1]


# SU, SD, RI on a region's top row, and a line feed on its last row, in a scroll region inside the screen, take
# the row that leaves the region to the history (or lose it) but leave the region's rotation for later
# (_screen_c.pxi, scroll_up_lagged); every other entry of the core's sink rotates it first (settle). The
# fallback lags line feeds on the region's last row, holding the rows aside (_screen_py.py, scroll_up_lagged),
# on screens taller than _MANY_BELOW: the move_rule fixture's small rules make these screens lag too. Each kind
# of entry right after such scrolls (a few rows, one short of a whole turn of the region, a whole turn, more),
# in the same call and in the next one, with the live window read in between: a missing settle puts rows out
# of order.
AFTER_SCROLLS = [
    b"x", "\u4e2d\u6587".encode(), b"e\xcc\x81", b"\r", b"\t", b"\x08", b"\n", b"\x0b\x0c", b"\x1bD", b"\x1bE",
    b"\x1bM", b"\x1b7\x1b[2;1H\x1b8", b"\x1bc", b"\x1b[H", b"\x1b[2K", b"\x1b[J", b"\x1b[2J", b"\x1b[3L",
    b"\x1b[3M", b"\x1b[2T", b"\x1b[4S", b"\x1b[r", b"\x1b[3;6r", b"\x1b[5b", b"\x1b[?7l", b"\x1b[?6h",
    b"\x1b[?1049h", b"\x1b[X", b"\x1b[@", b"\x1b[P", b"\x1b[31m", b"\x1b]0;t\x07",
    # the cursor moved or saved only, which leave the rotation for later (settles_lag), then text and a wrap
    b"\x1b7", b"\x1b8", b"\x1b[2A", b"\x1b[3B", b"\x1b[5C", b"\x1b[2D", b"\x1b[E", b"\x1b[2F", b"\x1b[4G",
    b"\x1b[4`", b"\x1b[5d", b"\x1b[Z", b"\x1b[s\x1b[2;1H\x1b[u", b"\x1b[5;3f", b"\x1b[8d\x1b[C" + b"q" * 12,
]


SCROLLS = [
    b"\n", b"\n\n\n", b"\x1b[6S", b"\x1b[7S", b"\n" * 9, b"\x1b[S\n\x1b[99S\n", b"\x1bD\x1bE",
    b"\x1b[3T", b"\x1b[S\x1b[2T\n\x1b[T", b"\x1b[7T\x1b[S", b"\x1b[3;1H\x1bM\x1bM\x1b[9;1H",
    # RI on the region's top row, the cursor left there (the fallback's scroll_down_lagged), after line feeds
    b"\x1b[3;1H\x1bM\x1bM\x1bM", b"\n\n\x1b[3;1H" + b"\x1bM" * 7, b"\x1b[3;1H" + b"\x1bM" * 9,
]


@pytest.mark.parametrize("then", AFTER_SCROLLS)
@pytest.mark.parametrize("region", [b"\x1b[3;9r", b"\x1b[1;9r", b"\x1b[?1049h\x1b[3;9r"])
def test_scrolls_of_a_region_inside_the_screen_then_anything(both, move_rule, region, then):
    numbered = b"".join(b"\x1b[%d;1Hrow %d" % (y, y) for y in range(1, 13))
    if region.startswith(b"\x1b[?1049h"):  # the alternate screen: rows are lost, not committed
        region += numbered
    for scrolls in SCROLLS:
        outputs = []
        for impl in both:
            decoder = impl.TranscriptDecoder(columns=10, rows=12)
            out = [decoder.decode(numbered + region + b"\x1b[9;1H" + scrolls + then + b"y\nz"), decoder.decode(scrolls)]
            out += [decoder.decode(then + b"y\nz" + scrolls), decoder.live, decoder.decode(b"w" + scrolls)]
            out += [decoder.resize(8, 10), decoder.decode(b"v" + region + b"\x1b[9;1H" + scrolls + then, final=True)]
            outputs.append((out, decoder.stats))
        assert outputs[0] == outputs[1], scrolls


# ASCII text and REP that fit the cursor's row go where lagged scrolls left that row (cursor_row) instead of
# rotating the region first; anything that wraps, or would reach max_live_cells, settles. So do EL, ECH, ICH
# and DCH, whose edits go to that row too (settles_lag), and which unwrap the row above it on the
# screen when they empty the whole row: rows wrapped before the lag, the cursor on the row after a wrapped
# one, on the region's top row, and the region at the screen's top (the row above is the history's last).
# Cursor moves put the text on the region's last row, in its middle, above and below it; SU leaves the
# cursor where it is. IL and DL on the region's last row only empty it: they keep the lag too (round 39).
ERASE_TOP = b"\x1b[1;1H\x1b[2K\x1b[2;1H\x1b[2K"
lagged_ops = st.one_of(
    st.sampled_from([b"\n", b"\x1bD", b"\x1bE", b"\x1bM", b"\x1b[S", b"\x1b[4S", b"\x1b[T", b"\x1b[2T", b"\r",
                     b"\x1b[b", b"\x1b[4b", "\u4e2d".encode(), "e\u200d".encode(), b"\x1b[K", ERASE_TOP,
                     # (round 45) text that is not ASCII goes to the cursor's row through the lag when it fits
                     "\u00e9\u00e8".encode(), "\u0301".encode(), "\u4e2d\u6587\u5b57".encode(), "\u00e9" .encode() * 12,
                     "x\u200d\u4e2d".encode(), "\u00e9\x1b[3b".encode(), b"\x1b[J", b"\x1b[0J",
                     b"\x1b7", b"\x1b8", b"\x1b[s", b"\x1b[u", b"\x1b[2A", b"\x1b[B", b"\x1b[3C", b"\x1b[D",
                     b"\x1b[E", b"\x1b[F", b"\x1b[5G", b"\x1b[7d", b"\x1b[Z",
                     b"\x1b[1K", b"\x1b[2K", b"\x1b[3X", b"\x1b[20X", b"\x1b[2P", b"\x1b[20P", b"\x1b[3@",
                     b"\x1b[20@", b"\x1b[?25l", b"\x1b[?7l", b"\x1b[?7h", b"\x1b[4h", b"\x1b[4l", b"\x1b[6n",
                     b"\x1b[L", b"\x1b[3L", b"\x1b[M", b"\x1b[20M", b"\x08",
                     # (round 46) ED 2 and the same region set again keep the lag, another region settles it;
                     # REP of a wide character (its pairs wrap through the lag) and of a space
                     b"\x1b[2J", b"\x1b[3J", b"\x1b[3;9r", b"\x1b[1;9r", b"\x1b[2;10r", "\u4e2d\x1b[3b".encode(),
                     "\u4e2d\x1b[9b".encode(), b" \x1b[5b",
                     # (round 46) a screen switch keeps the main screen's lag, RIS settles it
                     b"\x1b[?1049h", b"\x1b[?1049l", b"\x1b[?47h", b"\x1b[?47l", b"\x1bc"]),
    st.builds(lambda y, x: b"\x1b[%d;%dH" % (y, x), st.integers(1, 12), st.integers(1, 11)),
    st.builds(lambda n: b"abcdefghijkl"[:n], st.integers(1, 12)),
)


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.function_scoped_fixture])
@example([b"\x1b[9;1H", b"\n", b"abc", b"\n", b"de", b"\x1b[2b", b"\n"], b"\x1b[3;9r", 1000, 512, False)  # x LF at the bottom
@example([b"\x1b[5;4H", b"\x1b[4S", b"abc", b"\x1b[4S", b"d"], b"\x1b[3;9r", 1000, 512, False)  # the middle, after SU
@example([b"\x1b[11;1H", b"\x1b[S", b"abc", b"\x1b[1;1H", b"\x1b[S", b"d"], b"\x1b[3;9r", 1000, 512, False)  # outside it
@example([b"\x1b[9;9H", b"\n", b"\x1b[9;9H", b"ab", b"c"], b"\x1b[3;9r", 1000, 512, False)  # the row's end, then a wrap
@example([b"\x1b[6;3H" + "\u4e2d".encode(), b"\x1b[5;4H", b"\x1b[S", b"a"], b"\x1b[3;9r", 1000, 512, False)  # a wide character
@example([b"\x1b[5;3He\xe2\x80\x8d", b"\x1b[S", b"a"], b"\x1b[3;9r", 1000, 512, False)  # a pending ZWJ: no text run
# max_live_cells reached by the write: enforce_limits commits rows in order, from the top (rows 1-2 emptied)
@example([ERASE_TOP, b"\x1b[9;1H", b"\n", b"abcdefghij", b"\n", b"abcdefghij"], b"\x1b[3;9r", 60, 512, False)
@example([ERASE_TOP, b"\x1b[9;1H", b"\n", b"abcdefghij", b"\n", b"a", b"\x1b[9b"], b"\x1b[3;9r", 60, 512, False)  # REP
# an erase of the cursor's whole row after lagged scrolls unwraps the row above it on the screen
@example([b"\x1b[5;1H", b"abcdefghijkl", b"\x1b[9;1H", b"\n", b"\x1b[5;1H", b"\x1b[2K", b"\n"], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[8;1H", b"abcdefghijkl", b"\x1b[9;1H", b"\n\n", b"\x1b[7;1H", b"\x1b[20X"], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[3;1H", b"abcdefghijkl", b"\x1b[9;1H", b"\n", b"\x1b[3;1H", b"\x1b[K"], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[1;1H", b"abcdefghijkl", b"\x1b[9;1H", b"\n", b"\x1b[1;1H", b"\x1b[2K"], b"\x1b[1;9r", 1000, 512, False)
@example([b"\x1b[4;1H", b"abcdefghijkl", b"\x1b[9;1H", b"\n", b"\x1b[4;1H", b"\x1b[20P"], b"\x1b[1;9r", 1000, 512, False)
# ICH past max_live_cells settles (enforce_limits commits rows in the screen's order)
@example([ERASE_TOP, b"\x1b[9;1H", b"\n", b"abcdefghi", b"\n", b"ab", b"\r\x1b[8@"], b"\x1b[3;9r", 60, 512, False)
# IL and DL on the region's last row after lagged line feeds empty the cursor's row where the lag left it, and
# unwrap the row above it (the fallback's lag holds a row wrapped by text at the bottom: the core's settles)
@example([b"\x1b[9;1Habc\nde\x1b[L", b"f"], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1Habc\n\nde\x1b[3M", b"f"], b"\x1b[1;9r", 1000, 512, False)
@example([b"\x1b[9;1H", b"abcdefghijkl", b"\x1b[L", b"\n"], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H", b"\n", b"abcdefghijkl", b"\x1b[3M", b"\n\n"], b"\x1b[3;9r", 1000, 512, False)
# RIs on the region's top row (the fallback holds the rows aside below the cursor's: scroll_down_lagged), then
# text there and IL, DL, an erase of the row, a wrap onto the next row, a line feed, RI on a line feed's lag
@example([b"\x1b[3;1H", b"\x1bM", b"\x1bM", b"abc", b"\x1b[L", b"\n"], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[3;1H", b"\x1bM", b"abc", b"\x1bM", b"de", b"\x1b[2M", b"\x1b[9;1H"], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[3;1H\x1bMabcdefghijkl\x1bMx\x1b[2K", b"\x1bM\x1bMq"], b"\x1b[1;9r", 1000, 512, False)
@example([b"\x1b[3;1H\x1bMab\x1bMcd\n", b"e\x1bM\x1bMf"], b"\x1b[?1049h\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H\n\n\x1b[3;1H", b"\x1bM", b"ab", b"\x1b[9;1H\n", b"c"], b"\x1b[3;9r", 1000, 512, False)
# ...which unwraps the row above the region (or ends the history's open line) as each RI there does
@example([b"\x1b[2;1Habcdefghijkl\x1b[3;1H", b"\x1bM", b"q"], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[1;1Habcdefghijkl\x1b[9;1H\n\x1b[1;1H", b"\x1bM", b"q"], b"\x1b[1;9r", 1000, 512, False)
@example([b"\x1b[3;1H" + b"\x1bMabcdefghij" * 3, b"\x1bMz"], b"\x1b[3;9r", 60, 512, False)  # max_live_cells
@example([ERASE_TOP + b"\x1b[4;1H\x1b[2K\x1b[3;1H\x1bMabcdefghij\x1bMz", b""], b"\x1b[3;9r", 60, 512, False)  # near it
# past it, through RIs' lag: the rows held aside go first (newest first), before the region's rows below them
@example([b"\x1b[2;1H\x1b[2K\x1b[3;1H\x1bM\rabcdefghij\x1bM\rabcdefghij", b""], b"\x1b[3;12r", 60, 512, False)
# ASCII text that wraps goes on through the core's lag (wrap_through_lag): lines longer than the row at the
# region's bottom, after RI at its top, and a row erased at the pending wrap (a blank row wrapped: busy)
@example([b"\x1b[9;1H\n", b"abcdefghijklmnopqrstuvwxy\n", b"abcdefghijkl\n", b"q"], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[3;1H\x1bM", b"abcdefghijkl", b"\x1bMx"], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H\n", b"abcdefghij\x1b[2Kk", b"\x1b[9S"], b"\x1b[3;9r", 1000, 512, False)
# BS at column 0 reads the row above the cursor's, wrapped here by the lagged line feed (the fallback settles)
@example([b"\x1b[9;1Habcdefghijkl\r\x08", b"Z"], b"\x1b[3;9r", 1000, 512, False)
# a write past max_live_cells after lagged line feeds: enforce_limits commits rows in the screen's order (the
# core's through its lag: the rows above the region, the region's from its lagged top, the rows below it)
@example([b"\x1b[9;1H\nabcdefghij\nabcdefghij\nabcdefghij"], b"\x1b[3;9r", 40, 512, False)
@example([b"\x1b[9;1H\nabcdefghij", b""], b"\x1b[3;9r", 60, 512, False)
@example([b"\x1b[9;1H\nabcdefghij", b""], b"\x1b[3;9r", 20, 512, False)
# (round 45) characters that are not ASCII after lagged line feeds: on the cursor's row where the lag left it when
# they fit (a mark joins the cell before the cursor there), a wide character at the last column wraps (settles)
@example([b"\x1b[9;1H\n", "\u00e9\u00e8\n\u00e9".encode(), "\u0301\n\u4e2d\u6587".encode()], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H\nabc\n\x1b[9;10H", "\u4e2d".encode(), "\u0301".encode()], b"\x1b[3;9r", 1000, 512, False)
@example([ERASE_TOP, b"\x1b[9;1H\n", "\u00e9".encode() * 10, "\n\u00e8".encode()], b"\x1b[3;9r", 40, 512, False)
# REP of such a character (fill_run), ED 0 on the region's last row (its rows below the region cleared), BS at
# column 0 after a wrap at the region's bottom, each keeping the lag
@example([b"\x1b[9;1H\n" + "\u00e9\x1b[4b\n\u00e8\x1b[20b\x1b[9;3H\x1b[J\x1b[11;1Hq\x1b[9;1H\n\x1b[J".encode(), b""],
         b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[10;1Hbelow\x1b[9;1H\nab\x1b[J\n", b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H\nab\ncd\x1b[3A\x1b[J", b""], b"\x1b[3;9r", 1000, 512, False)  # ED 0 in the region's middle (round 46)
@example([b"\x1b[9;1H\nab\ncd\x1b[3A\x1b[1Jq", b""], b"\x1b[3;9r", 1000, 512, False)  # ED 1 there, and above and below the
@example([b"\x1b[9;1H\nab\n\x1b[2;3H\x1b[J", b""], b"\x1b[3;9r", 1000, 512, False)  # region (its rows as the lag left them)
@example([b"\x1b[9;1H\nab\n\x1b[11;3H\x1b[1J", b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H\nabcdefghijkl\nmn\x1b[7;1H\x1b[J\x1b[5;2H\x1b[1J", b""], b"\x1b[3;9r", 1000, 512, False)  # (wrapped)
@example([b"\x1b[9;1H\nab\ncd\x1b[1J\n", b""], b"\x1b[3;9r", 1000, 512, False)  # ED 1 on its last row: the region's rows
@example([b"\x1b[9;1H\nxy\x1b[1J", b""], b"\x1b[3;9r", 1000, 512, False)  # in two runs of the row order, or one
@example([b"\x1b[1;1Habcdefghijkl\x1b[9;1Habcdefghijkl\n\n\nx\x1b[1Jz", b""], b"\x1b[1;9r", 1000, 512, False)  # (wrapped)
@example([b"\x1b[9;1H\nab\ncd\x1b[2Jq", b""], b"\x1b[3;9r", 1000, 512, False)  # ED 2 (round 46: keeps the lag)
@example([b"\x1b[9;1H\nabcdefghijkl\r\x08Z\x08\x08\r\x08\x08Y", b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1Habcdefghijkl\n\x08\x08Z", b""], b"\x1b[3;9r", 1000, 512, False)  # (the row held aside wrapped)
@example([b"\x1b[9;1Habcdefghijkl\n\n\x1b[2A\r\x08Z", b""], b"\x1b[3;9r", 1000, 512, False)  # (BS on another row: settles)
@example([b"\x1b[3;1Habcdefghijkl\x1b[3;1H\x1bM\x1bM\x08Q\x1b[4;1H\x08R", b""], b"\x1b[3;9r", 1000, 512, False)  # after RIs
# text that is not ASCII wraps through the lag (put_run, put_char: a wide character at the last column, after a
# mark), with auto-wrap off it stays (put_stuck), HTS changes no row
@example([b"\x1b[9;1H\n" + ("\u00e9" * 25 + "\n" + "ab\u4e2d" * 5).encode(), b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H\n\x1b[9;10H" + "\u4e2d\u0301\u00e9\x1b[9;10H\u00e8\u0301\u4e2d".encode(), b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H\n\x1b[?7l" + ("\u00e9" * 14 + "\x1b[?7h\n\x1bHx\n\x1bH").encode(), b""], b"\x1b[3;9r", 60, 512, False)
@example([b"\x1b[4h", b"\x1b[9;2H", b"abcdefghijkl"], b"\x1b[3;9r", 1000, 512, False)  # (insert mode wraps as linefeed does)
@example([b"\x1bM", "\u00e9\u00e8".encode(), b"abcdefghi"], b"\x1b[1;9r", 1000, 512, False)  # (and ASCII after it, after RI)
# (in one piece: reading live settles the lag) put_char's text over a wide character, and after a pending ZWJ
@example([b"\x1b[9;1H" + "\u4e2d\u4e2d\n\x1b[A\r\u00e9\n".encode(), b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H\n" + "e\u200d\u00e9\u00e8\n".encode(), b""], b"\x1b[3;9r", 1000, 512, False)
# (round 46) ED 2 after lagged line feeds sends the rows to the history in the screen's order through the lag:
# the last used row in the region's rows the lag took round, or in the others, or only in those taken round;
# a line wrapped through the lag; the region at the screen's top; with rows below it used (the history's open
# line stays open); on the alternate screen (in one piece: reading live settles the lag)
@example([b"\x1b[10;1H\x1b[J\x1b[9;1H\n\n\x1b[2Jq", b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[10;1H\x1b[J\x1b[9;1H\nab\x1b[2J", b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[10;1H\x1b[J\x1b[2J\x1b[9;1H\nab\x1b[2Jq", b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[10;1H\x1b[J\x1b[9;1H\nabcdefghijklm\x1b[2J", b""], b"\x1b[1;9r", 1000, 512, False)
@example([b"\x1b[9;1H\nabcdefghijklm\n\n\x1b[2J", b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H\nabc\n\x1b[2Jd", b""], b"\x1b[?1049h\x1b[3;9r", 1000, 512, False)
# the same region set again keeps the lag, another settles it; REP of a wide character wraps through the lag, and
# with auto-wrap off writes over its pairs (same_pairs); REP of a space with auto-wrap off (put_spaces)
@example([b"\x1b[9;1H\nab\x1b[3;9rcd\x1b[9;1H\nef", b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H\nab\x1b[2;10rcd\x1b[10;1H\nef", b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H\n" + "\u4e2d\x1b[9bx".encode(), b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[?7l\x1b[9;1H\n" + "\u4e2d\x1b[4b\r\u4e2d\x1b[4b\nx".encode(), b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[?7l\x1b[9;1H\nabcdef\r \x1b[5b\n", b""], b"\x1b[3;9r", 1000, 512, False)
# text in insert mode (a typed character, runs, REP of a narrow and a wide character, wraps), after a pending ZWJ
# and with auto-wrap off goes through the lag too (round 46); and the same on rows the core keeps as chunks
@example([b"\x1b[9;1H\nabc\x1b[4h\rx\n\x1b[A\ryz\x1b[3b" + "\u00e9\u4e2d\x1b[2b\u4e2d\u6587".encode() + b"\n", b""],
         b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H\nabcdefgh\x1b[4h\x1b[9;9Hxyz\n" + "\x1b[9;8H\u4e2d\u6587".encode(), b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H\nab" + "\u200d".encode() + b"c\n\x1b[?7labcdefghijklm\n", b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H\n\x1b[?7lx\x1b[8b\r\x1b[4hy\x1b[9;5H" + "\u4e2d\x1b[3b\n".encode(), b""], b"\x1b[3;9r", 1000, 2, False)
@example([b"\x1b[9;1H\n" + "\u4e2d\x1b[4b\r\u4e2d\x1b[4b\nx".encode(), b""], b"\x1b[3;9r", 1000, 2, False)  # (pair_fill)
# the main screen keeps its lag while the alternate one is shown: back as it was, settled if the region changed
# there, with the alternate screen's own lag dropped; the end of the stream, a resize and RIS on the alternate
# screen settle it
@example([b"\x1b[9;1H\nab\x1b[?1049hxy\n\x1b[?1049lcd\n", b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H\nab\x1b[?1049h\x1b[2;10rxy\x1b[?1049lcd\x1b[9;1H\n", b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H\nab\x1b[?1049h\x1b[3;9r\x1b[9;1Hxy\n\n\x1b[?1049lcd\n", b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H\nab\x1b[?1049h\x1b[2;10r\x1b[10;1Hxy\n\n\x1b[?1049lcd\x1b[10;1H\n", b""], b"\x1b[3;9r", 1000, 512,
          False)
@example([b"\x1b[9;1H\nab\n\x1b[?47hxy", b""], b"\x1b[3;9r", 1000, 512, False)
@example([b"\x1b[9;1H\nab\n\x1b[?47hxy", b""], b"\x1b[3;9r", 1000, 512, True)
@example([b"\x1b[9;1H\nab\n\x1b[?1049hxy\x1bcq", b""], b"\x1b[3;9r", 1000, 512, False)
@given(st.lists(lagged_ops, max_size=40), st.sampled_from([b"\x1b[3;9r", b"\x1b[1;9r", b"\x1b[?1049h\x1b[3;9r"]),
       st.sampled_from([1000, 60]), st.sampled_from([512, 2, 5]), st.booleans())
def test_text_after_lagged_scrolls_goes_to_the_cursors_row(both, move_rule, ops, region, max_live_cells,
                                                          chunk_cells, resize):
    """(The core's rows are chunks once an edit would touch more than ``chunk_cells``: small ones make these
    rows chunks, as the fuzz harness does. ``resize``: the last read of ``live`` after a narrower, shorter
    resize, which settles the lags.)"""
    numbered = b"".join(b"\x1b[%d;1Hrow %d" % (y, y) for y in range(1, 13))
    if region.startswith(b"\x1b[?1049h"):
        region += numbered
    half = len(ops) // 2
    outputs = []
    for impl in both:
        previous = impl._set_line_chunk_cells(chunk_cells) if impl is both[0] else None
        try:
            decoder = impl.TranscriptDecoder(columns=10, rows=12, max_live_cells=max_live_cells)
        finally:
            if previous is not None:
                impl._set_line_chunk_cells(previous)
        out = [decoder.decode(numbered + region + b"".join(ops[:half])), decoder.live]
        out += [decoder.decode(b"".join(ops[half:]))]
        if resize:
            decoder.resize(9, 11)
        out += [decoder.live, decoder.decode(b"", final=True)]
        outputs.append((out, decoder.stats))
    assert outputs[0] == outputs[1]


# (round 46) The same on a screen tall enough for the busy rows' hole (HOLE_MIN rows): lines at the bottom of a
# region past max_live_cells commit its oldest rows, and the rows the scan passed and committed become the hole,
# and the rows past the busy range's bottom are not scanned (commit_rows); rows wrapped blank break a run.
tall_ops = st.one_of(
    lagged_ops,
    st.sampled_from([b"abcdefghij\n" * 40, b"x\x1b[9b" * 50, b"x\x1bD" * 60, b"ab\n" * 70, b"\x1b[50;1H" + b"q\n" * 30,
                     b"\x1b[100;1H", b"\x1b[20;1H\x1bM" * 5, b"\x1b[120;1H\x1b[2K\x1b[1;1H\x1b[2K\x1b[100;1H",
                     # text and ICH on rows that a scan past max_live_cells may have passed as holding no cells
                     # (the core's Screen.bare), then back to the region's last row
                     b"\x1b[25;3Hw\x1b[100;1H", b"\x1b[60;1Hwxyz\x1b[100;1H", b"\x1b[30;1H\x1b[5@\x1b[100;1H"]),
)


@settings(max_examples=examples(100), suppress_health_check=[HealthCheck.function_scoped_fixture])
@example([b"\x1b[100;1H", b"abcdefghij\n" * 40, b"abcdefghij\n" * 40, b"x\x1b[9b" * 50, b"abcdefghij\n" * 40], 300)
@example([b"\x1b[100;1H", b"x\x1bD" * 60, b"x\x1bD" * 60, b"ab\n" * 70, b"x\x1bD" * 60], 100)
@example([b"\x1b[J", b"x\x1bD" * 60, b"x\x1b[9b" * 50, b"\x1b[1;1H", b"x\x1bD" * 60, b"\x1b[50;1H" + b"q\n" * 30], 100)
# x then IND leaves a blank wrapped row every 11 lines, rows the scan passes and keeps (round 47); writes then
# reach rows it passed, on both sides of the region's end
@example([b"\x1b[100;1H", b"x\x1bD" * 60, b"x\x1bD" * 60, b"\x1b[25;3Hw\x1b[100;1H", b"x\x1bD" * 60,
          b"\x1b[60;1Hwxyz\x1b[100;1H", b"x\x1bD" * 60, b"\x1b[30;1H\x1b[5@\x1b[100;1H", b"x\x1bD" * 60], 100)
@given(st.lists(tall_ops, max_size=30), st.sampled_from([100, 300, 1000]))
def test_lines_past_max_live_cells_in_a_lagged_region_of_a_tall_screen(both, ops, max_live_cells):
    outputs = []
    for impl in both:
        decoder = impl.TranscriptDecoder(columns=10, rows=120, max_live_cells=max_live_cells)
        out = [decoder.decode(b"\x1b[1;1Htop\x1b[120;1Hbottom\x1b[20;100r" + b"".join(ops)), decoder.live,
               decoder.decode(b"", final=True)]
        outputs.append((out, decoder.stats))
    assert outputs[0] == outputs[1]


# Lines past max_live_cells on a whole screen: the scan's marks (the busy range, the hole, and the runs of rows
# with no cells it passed, the core's Screen.bare) move with its rotations (line feeds and RI at its ends, SU
# and SD, ED 2), are dropped when IL and DL rearrange rows, and go with a resize, which drops the main screen's
# top rows under the alternate one (there a hole the scan had left put a line break too many in the core's
# output from round 46 on: the third example); x then IND leaves a blank wrapped row every 11 lines.
whole_screen_ops = st.sampled_from([b"x\x1bD" * 30, b"x\x1bD" * 70, b"\x1b[5S", b"\x1b[40S", b"\x1b[7T", b"\x1b[2J",
                                    b"\x1b[60;1H", b"\x1b[10;4Hwv\x1b[60;1H", b"ab\n" * 20, b"\x1b[1;1H" + b"\x1bM" * 10,
                                    b"\x1b[?1049h", b"\x1b[?1049l", b"\x1b[5;1H\x1b[20L\x1b[60;1H",
                                    b"\x1b[5;1H\x1b[20M\x1b[60;1H", b"\x1b[10;1H\x1b[15L\x1b[60;1H", b"\x1b[3;50r\x1b[50;1H",
                                    b"\x1b[r\x1b[60;1H"])


@settings(max_examples=examples(100), suppress_health_check=[HealthCheck.function_scoped_fixture])
@example([b"x\x1bD" * 70, b"\x1b[5S", b"x\x1bD" * 70, b"\x1b[7T", b"x\x1bD" * 70], 150, (10, 60), 5)
@example([b"x\x1bD" * 70, b"x\x1bD" * 70, b"\x1b[60;1H", b"x\x1bD" * 70], 100, (12, 64), 2)
@example([b"x\x1bD" * 30, b"\x1b[?1049h"], 60, (5, 20), 2)
@example([b"x\x1bD" * 70, b"x\x1bD" * 70, b"\x1b[?1049h", b"\x1b[?1049l", b"x\x1bD" * 70], 100, (10, 30), 3)
@example([b"x\x1bD" * 30, b"\x1b[?1049h", b"\x1b[?1049l", b"x\x1bD" * 30], 100, (10, 45), 2)  # (Screen.bare moves too)
# (Screen.bare dropped when IL and DL rearrange rows; two ranges joined only where they touch)
@example([b"\x1b[10;1H\x1b[15L\x1b[60;1H", b"x\x1bD" * 30, b"\x1b[5;1H\x1b[20M\x1b[60;1H", b"x\x1bD" * 30,
          b"\x1b[10;1H\x1b[15L\x1b[60;1H", b"\x1b[5;1H\x1b[20L\x1b[60;1H"], 60, (10, 60), 6)
@example([b"\x1b[40S", b"x\x1bD" * 70, b"\x1b[5;1H\x1b[20L\x1b[60;1H", b"\x1b[3;50r\x1b[50;1H", b"x\x1bD" * 70], 150,
         (10, 60), 5)
@given(st.lists(whole_screen_ops, max_size=20), st.sampled_from([60, 150, 400]),
       st.tuples(st.integers(5, 12), st.integers(20, 70)), st.integers(0, 20))
def test_lines_past_max_live_cells_on_a_whole_screen_that_scrolls_and_resizes(both, ops, max_live_cells, size, at):
    outputs = []
    for impl in both:
        decoder = impl.TranscriptDecoder(columns=10, rows=60, max_live_cells=max_live_cells)
        out = [decoder.decode(b"\x1b[60;1H" + b"".join(ops[:at])), decoder.resize(*size),
               decoder.decode(b"".join(ops[at:])), decoder.live, decoder.decode(b"", final=True)]
        outputs.append((out, decoder.stats))
    assert outputs[0] == outputs[1]


# SU n and SD n scroll the region n times at once (scroll_up, scroll_down: the rows that leave go in runs, one
# rotation or a lag for all). The oracle is the other way to scroll a region one row at a time, in the same
# implementation: a line feed on its last row (SU) or RI on its first (SD), min(n, its height) times, the
# cursor saved and restored around them. Screens with something on a few rows (most rows blank and skipped),
# regions lagged or not (``lag`` line feeds on the region's last row just before: then the rows that leave
# come round its end), on the main and the alternate screen.
scroll_setup = st.lists(st.one_of(
    st.builds(lambda y, x, text: b"\x1b[%d;%dH" % (y, x) + text, st.integers(1, 30), st.integers(1, 10),
              st.sampled_from([b"a", b"bcd", b"w" * 14, "\u4e2d".encode(), b"\x1b[3@", b"\x1b[K"])),
    st.sampled_from([b"\n", b"\x1bM", b"\x1b[2S", b"\x1b[T", b"\x1b[?1049h", b"\x1b[?1049l"]),
), max_size=12)


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.function_scoped_fixture])
@example([b"\x1b[3;1Hbcd", b"\x1b[9;1Ha"], (3, 9), 3, b"S", 6, 9, 12)  # a lagged region, the rows come round
@example([b"\x1b[3;1Hbcd", b"\x1b[9;1Ha"], (3, 9), 2, b"T", 4, 5, 12)  # the same for SD
@example([b"\x1b[12;1H" + b"w" * 14], (1, 12), 0, b"S", 999, 1, 12)  # the whole screen, the history's open line
@example([b"\x1b[?1049h", b"\x1b[4;1H" + b"w" * 14], (3, 9), 1, b"T", 5, 5, 12)  # SD on the alternate screen
@example([b"\x1b[?1049h", b"\x1b[2;1Ha"], (2, 3), 0, b"S", 2, 2, 12)  # a region of two rows on it
@given(scroll_setup, st.tuples(st.integers(1, 30), st.integers(1, 30)), st.integers(0, 4),
       st.sampled_from([b"S", b"T"]), st.sampled_from([1, 2, 3, 5, 7, 11, 29, 999]), st.integers(1, 30),
       st.sampled_from([12, 30]))
def test_su_and_sd_are_that_many_single_scrolls(both, move_rule, setup, region, lag, final, n, cy, rows):
    top, bottom = min(region[0], rows), min(region[1], rows)
    if top >= bottom:  # (DECSTBM ignores it)
        top, bottom = 1, rows
    count = min(n, bottom - top + 1)
    at_once = b"\x1b[%d%s" % (n, final)
    if final == b"S":
        singly = b"\x1b7\x1b[%d;1H" % bottom + b"\n" * count + b"\x1b8"
    else:
        singly = b"\x1b7\x1b[%d;1H" % top + b"\x1bM" * count + b"\x1b8"
    # (any sequence but SU and SD, or text that does not fit the cursor's row, would settle the lag first)
    before = b"".join(setup) + b"\x1b[%d;%dr\x1b[%d;1Huv\x1b[%d;1Hxy" % (top, bottom, top, min(cy, rows))
    before += b"\x1b[%d;1H" % bottom + b"\n" * lag + b"ab"
    for impl in both:
        outputs = []
        for scroll in (at_once, singly):
            decoder = impl.TranscriptDecoder(columns=10, rows=rows)
            out = [decoder.decode(before + scroll + b"z"), decoder.live]
            out += [decoder.decode(scroll + b"\x1b[2J" + scroll + b"q\x1b[?1049l", final=True)]
            stats = decoder.stats
            del stats["sequences_removed"]  # (the single scrolls are more sequences)
            outputs.append((out, stats))
        assert outputs[0] == outputs[1], impl.__name__


# The core's scans also skip a hole: rows an erase or a scroll left blank (Screen.hole_top/hole_bottom), moved
# with exact rotations, shrunk by writes, dropped when rows are mixed. Rows outside a region must never fall
# into a region's hole when it moves: rows below it written first, region scrolls and erases of many rows
# in any order, then erases that must find every row. The fallback finds busy rows by flag: it is the oracle.
hole_ops = st.lists(st.one_of(
    st.builds(lambda y, text: b"\x1b[%d;1H" % y + text, st.integers(1, 30), st.sampled_from([b"a", b"w" * 14])),
    st.builds(lambda t, b: b"\x1b[%d;%dr" % (min(t, b), max(t, b)), st.integers(1, 30), st.integers(1, 30)),
    st.builds(lambda n, final: b"\x1b[%d%s" % (n, final), st.sampled_from([1, 2, 5, 8, 10, 17, 999]),
              st.sampled_from([b"S", b"T", b"L", b"M"])),
    st.builds(lambda y, k: b"\x1b[%d;1H\x1b[%dJ" % (y, k), st.integers(1, 30), st.integers(0, 2)),
    st.sampled_from([b"\n", b"\x1bM", b"\x1b[?1049h", b"\x1b[?1049l"]),
), max_size=14)


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.function_scoped_fixture])
# a hole in a region inside the screen (SU 10 leaves rows there; its rotation lags), SD 8, then erases
@example([b"\x1b[26;1Hbelow", b"\x1b[5;20r", b"\x1b[6;1Hin", b"\x1b[10S", b"\x1b[8T"])
# the same on the whole screen, where the hole moves with the rotation and the rows that came round are it
@example([b"\x1b[26;1Hbelow", b"\x1b[6;1Hin", b"\x1b[10S", b"\x1b[30;1Hx", b"\x1b[8T", b"\x1b[3;1Hw"])
@given(hole_ops)
def test_region_scrolls_and_erases_keep_every_row_they_do_not_blank(both, move_rule, ops):
    outputs = []
    for impl in both:
        decoder = impl.TranscriptDecoder(columns=10, rows=30)
        out = [decoder.decode(b"".join(ops)), decoder.live, decoder.decode(b"\x1b[r\x1b[2J")]
        out += [decoder.decode(b"\x1b[?1049l\x1b[1;1Hy\x1b[30;1Hz\x1b[2J", final=True)]
        outputs.append((out, decoder.stats))
    assert outputs[0] == outputs[1]


# Erases visit only the rows that may hold something (Screen.busy_top/busy_bottom in the core): every way a
# blank row gets something (a write, ICH's used count, the wrapped flag of a row of spaces) and every way rows
# move (rotations, IL/DL, a lagged region's settle, a resize under the alternate screen) must keep that
# record, or an erase skips a row. Sparse screens, so that most rows are blank and outside it.
SPARSE_CASES = [
    b"\x1b[5;10H" + "\u4e2d".encode() + b"\x1b[7;1H\x1b[1J",  # a blank row wrapped (no room), then ED 1 over it
    b"\x1b[8;1H\x1b[3@\x1b[2J",  # ICH on a blank row counts it used: ED 2 scrolls it to the history
    b"\x1b[5;1Hx\x1b[3;9r\x1b[9;1H\n\n\x1b[3;1H\x1b[2K",  # a region's lagged rotation moves x to row 3
    b"\x1b[6;1Hx\x1b[12;1Hx\x1b[?1049h",  # the resize below drops the main screen's top rows under this one
    b"x\r\nx\x1b[1;1H\x1b[8L",  # IL moves rows 1-2 past the rows they leave (a move that does not overlap)
]
PROBE = b"\x1b[1;1Hy\x1b[12;1Hz"  # the first and the last row written: a row an erase skipped shows in live


@pytest.mark.parametrize("case", SPARSE_CASES)
def test_erases_reach_every_row_that_holds_something(both, case):
    outputs = []
    for impl in both:
        decoder = impl.TranscriptDecoder(columns=10, rows=12)
        out = [decoder.decode(case), decoder.live, decoder.decode(PROBE), decoder.live, decoder.resize(10, 9)]
        out += [decoder.decode(b"\x1b[?1049l\x1b[4;1H\x1b[1J"), decoder.decode(PROBE), decoder.live]
        out += [decoder.decode(b"\x1b[2J", final=True)]
        outputs.append((out, decoder.stats))
    assert outputs[0] == outputs[1]


# ED 2 on the main screen commits the rows up to the last used one (tmux): the blank ones above the busy rows
# go as one run of line feeds and one rotation (blank_rows_to_history), the rest one by one.
ED2_CASES = [
    b"\x1b[12;1Hx",  # one character on the last row: eleven blank rows first
    b"\x1b[4;1Hx\x1b[12;1Hy",  # blank rows above, between and none below
    b"\x1b[10;1H" + b"w" * 15,  # a wrapped row near the bottom
    b"\x1b[9;10H" + "\u4e2d".encode(),  # a blank row wrapped by a wide character that did not fit
    b"\x1b[3;9r\x1b[6;1Hx\x1b[9;1H\n\n",  # after lagged scrolls of a region (the erase settles them)
    b"\x1b[2;1H" + b"v" * 15 + b"\x1b[12;1Hx",  # the history's open line (row 2 wraps into row 3)
    # the last row that holds something is only wrapped (its cells erased at the pending wrap, then the row
    # after it erased): ED 2 scrolls only through the last used row, row 1
    b"x\x1b[4;1H" + b"w" * 10 + b"\x1b[2Ky\x1b[2K",
]


@pytest.mark.parametrize("case", ED2_CASES)
def test_ed_2_commits_the_blank_rows_above_the_busy_ones_at_once(both, case):
    outputs = []
    for impl in both:
        decoder = impl.TranscriptDecoder(columns=10, rows=12)
        out = [decoder.decode(case + b"\x1b[2J"), decoder.live, decoder.decode(case + b"\x1b[2J" + case)]
        out += [decoder.live, decoder.decode(b"\x1b[2J", final=True)]
        outputs.append((out, decoder.stats))
    assert outputs[0] == outputs[1]
    if case == ED2_CASES[0]:
        assert outputs[0][0][0] == "\n" * 11 + "x\n"


@pytest.mark.parametrize("case", ED2_CASES)
def test_ed_2_leaves_every_row_as_new(both, case):
    """(round 49) After ED 2 every row is empty and unwrapped, the rows below the last used one too (a blank
    row that only wraps, the fallback clears where it is rather than after a rotation): a character then
    written on each row is a line of its own."""
    outputs = []
    for impl in both:
        decoder = impl.TranscriptDecoder(columns=10, rows=12)
        out = [decoder.decode(case + b"\x1b[2J" + b"".join(b"\x1b[%d;1H%c" % (y, 0x60 + y) for y in range(1, 13)))]
        out += [decoder.live, decoder.decode(b"", final=True)]
        outputs.append((out, decoder.stats))
    assert outputs[0] == outputs[1]
    assert outputs[0][0][1] == "\n".join(chr(0x60 + y) for y in range(1, 13))


@settings(max_examples=examples(200))
@given(st.lists(screen_ops, max_size=50), st.lists(screen_ops, max_size=20))
def test_erases_on_a_sparse_tall_screen(both, ops, more):
    # Random operations on a screen taller than sized_streams' (regions inside it lag, most rows stay blank),
    # then PROBE; a resize and more of them (the busy rows of both screens after a resize), then PROBE again.
    outputs = []
    for impl in both:
        decoder = impl.TranscriptDecoder(columns=10, rows=12)
        out = [decoder.decode(b"".join(ops) + PROBE), decoder.live, decoder.resize(8, 10)]
        out += [decoder.decode(b"".join(more) + b"\x1b[?1049l" + PROBE), decoder.live, decoder.decode(b"", final=True)]
        outputs.append((out, decoder.stats))
    assert outputs[0] == outputs[1]


def test_a_backspace_after_scrolls_of_a_region_reads_the_row_above(both):
    # BS in column 0 goes up to the end of the row above when that row is wrapped (tmux's
    # screen_write_backspace): after a scroll that left the region's rotation for later, "the row above" is
    # the region's rotated row. The wrapped row gets to the region's last row by IL, then scrolls up one.
    numbered = b"".join(b"\x1b[%d;1Hrow %d" % (y, y) for y in range(1, 13))
    data = numbered + b"\x1b[3;9r\x1b[8;1H" + b"a" * 15 + b"\x1b[3;1H\x1b[L\x1b[9;1H\n\x08Z"
    outputs = [impl.TranscriptDecoder(columns=10, rows=12).decode(data, final=True) for impl in both]
    assert outputs[0] == outputs[1]
    assert "\naaaaaaaaaZ\n" in outputs[0]  # the cursor went up: Z is the wrapped row's last character


# The row flags a region's scroll changes besides the rows it moves (move_lines): SD unwraps the region's top
# row before it moves down, and SD (and SU on the alternate screen) unwraps the row above the region, or ends
# the history's open line when the region starts at the top; a region of two rows rotates at once.
WRAP_EDGES = [
    b"\x1b[3;9r\x1b[3;1H" + b"a" * 15 + b"\x1b[T\x1b[9;1H" + b"\n" * 9,  # the top row wrapped, then SD
    b"\x1b[2;1H" + b"b" * 15 + b"\x1b[3;9r\x1b[T",  # the row above the region wrapped into it, then SD
    b"\x1b[?1049h\x1b[2;1H" + b"c" * 15 + b"\x1b[3;9r\x1b[S",  # the same on the alternate screen, then SU
    b"\x1b[12;1H" + b"d" * 15 + b"\x1b[1;9r\x1b[T",  # a wrapped line in the history, then SD at the top
    b"\x1b[?1049h\x1b[12;1H" + b"e" * 15 + b"\x1b[1;9r\x1b[S",  # the same on the alternate screen, then SU
    b"\x1b[?1049h\x1b[4;1H" + b"f" * 15 + b"\x1b[3;4r\x1b[S",  # a region of two rows: its new top row unwrapped
    b"\x1b[?1049h\x1b[4;1H" + b"f" * 15 + b"\x1b[3;4r\x1b[T\x1b[3S",
    b"\x1b[3;1H" + b"g" * 15 + b"\x1b[3;4r\x1b[4;1H\n\x1b[3;1H\x1bM\x1b[2T",
]


@pytest.mark.parametrize("edge", WRAP_EDGES)
def test_scrolls_of_a_region_unwrap_the_rows_at_its_edges(both, edge):
    numbered = b"".join(b"\x1b[%d;1Hrow %d" % (y, y) for y in range(1, 13))
    outputs = []
    for impl in both:
        decoder = impl.TranscriptDecoder(columns=10, rows=12)
        outputs.append((decoder.decode(numbered + edge), decoder.decode(b"\x1b[3;1Hx", final=True), decoder.stats))
    assert outputs[0] == outputs[1]


# REP and the erases count the cells they overwrite while they fill them, sixteen at a time in the core
# (acp_fill_cells: a cell is blank or padding when only its two low bits may be set): rows long enough for
# several blocks, their cells a mix of characters, blanks, wide characters' padding and combining marks, then
# a fill from any column; the count (stats["cells_overwritten"]) must be the fallback's.
row_cells = st.lists(st.sampled_from([b"x", b"\x1b[C", b"\x1b[3C", "\u4e2d".encode(), b"e\xcc\x81", b" "]),
                     min_size=8, max_size=60)
fills = st.builds(lambda x, final, n: b"\x1b[%dG\x1b[%d%s" % (x, n, final), st.integers(1, 80),
                  st.sampled_from([b"X", b"K", b"b"]), st.integers(0, 80))


@settings(max_examples=examples(300))
@given(row_cells, st.lists(fills, min_size=1, max_size=4), st.integers(16, 80))
def test_twins_count_the_cells_a_fill_overwrites(both, cells, edits, columns):
    data = b"".join(cells) + b"".join(b"y" + edit for edit in edits)  # (REP repeats the y before it)
    assert_twins_agree_on_screen(both, data, columns, 2)


@pytest.mark.parametrize("region", [b"", b"\x1b[1;5r"])
@pytest.mark.parametrize("max_live_cells", range(8, 48, 3))
def test_lines_at_once_stop_where_the_live_cells_would_overflow(both, region, max_live_cells):
    """The fallback takes lines that scroll a region many at a time (put_lines) only while the screen's cells
    plus theirs stay within max_live_cells; past that, rows are committed early as row by row. The core
    writes them row by row: the twins must agree at every budget, line lengths and the boundary included."""
    c, py = both
    lines = b"".join(b"%s\n" % (b"abcdefghijklmnop"[: k % 13]) for k in range(40))
    data = b"\x1b[6;1Hstatus" + region + b"\x1b[3;1Hprefilled\x1b[5;1H" + lines + b"end"
    options = {"columns": 10, "rows": 6, "max_live_cells": max_live_cells}
    decoders = [c.TranscriptDecoder(**options), py.TranscriptDecoder(**options)]
    outputs = [decoder.decode(data) for decoder in decoders]
    assert outputs[0] == outputs[1]
    assert decoders[0].live == decoders[1].live
    assert decoders[0].stats == decoders[1].stats
    finals = [decoder.decode(b"", final=True) for decoder in decoders]
    assert finals[0] == finals[1]


@pytest.mark.parametrize("text", [b"abcdefgh", b"abcdef", "ab\u4e2d\u6587ef".encode(), b"abc\x1b[5Cx"])
@pytest.mark.parametrize("column", [1, 2, 3, 7])
@pytest.mark.parametrize("n", [1, 2, 5])
def test_ich_on_full_and_partly_full_rows(both, text, column, n):
    """ICH moves the row's cells right within the row and drops what passes its end; the fallback does it
    in place (a delete and an insert). Every case was checked against tmux 3.3a (tests/tmux_reference.py);
    the twins must agree."""
    c, py = both
    data = b"\x1b[1;1H" + text + b"\x1b[1;%dH\x1b[%d@" % (column, n) + b"\r\n"
    assert py.sanitize(data, columns=8, rows=3) == c.sanitize(data, columns=8, rows=3)


@pytest.mark.parametrize(("data", "expected"), [
    (b"abcdefgh\x1b[1;1H\x1b[@", " abcdefg"),
    (b"abcdefgh\x1b[1;3H\x1b[2@", "ab  cdef"),
    (b"abcdef\x1b[1;2H\x1b[5@", "a  defbc"),  # fewer cells move than are inserted: tmux keeps "def"
    ("ab\u4e2d\u6587ef".encode() + b"\x1b[1;1H\x1b[@", " ab\u4e2d\u6587e"),
])
def test_ich_drops_what_passes_the_end_of_the_row(impl, data, expected):
    """Expected values from tmux 3.3a."""
    assert impl.sanitize(data, columns=8, rows=3) == expected


# The fallback's Screen keeps spare entries before row 0 (Screen.base) so that rows leaving or coming in near
# the top move the rows above them, not the whole screen: its rows, in order, must be what plain list
# operations give, every spare entry an empty row, and the spare entries at most the rows plus _SPARE_ROWS.
# Which rows move depends on how many are above and below (_FEW_ABOVE, _MANY_BELOW): the tests run with the
# real rule, with a small screen's version of it, and with the rows above moved whenever there are any.
MOVE_RULES = [(_screen_py._FEW_ABOVE, _screen_py._MANY_BELOW), (3, 4), (1 << 30, -1)]


@pytest.fixture(params=MOVE_RULES, ids=["rule", "small rule", "always above"])
def move_rule(request):
    saved = _screen_py._FEW_ABOVE, _screen_py._MANY_BELOW
    _screen_py._FEW_ABOVE, _screen_py._MANY_BELOW = request.param
    yield request.param
    _screen_py._FEW_ABOVE, _screen_py._MANY_BELOW = saved
screen_moves = st.one_of(
    st.tuples(st.just("remove then insert"), st.integers(0, 40), st.integers(0, 40)),
    st.tuples(st.just("remove block"), st.integers(0, 40), st.integers(1, 12)),
    st.tuples(st.just("rotate"), st.integers(0, 40), st.integers(0, 40), st.integers(-40, 40)),
    st.tuples(st.just("rotate all"), st.integers(-40, 40)),  # (SU, SD, ED 2 of the whole screen)
    st.tuples(st.just("write"), st.integers(0, 40)),
    # (move_row: a scroll of one row; its two ends, the top row leaving for a row at the bottom and the
    # bottom one for a row at the top, are the line feed's and RI's, drawn as often as any other pair)
    st.tuples(st.just("move"), st.sampled_from(["top", "bottom", "any"]), st.integers(0, 40), st.integers(0, 40)),
)


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(1, 40), st.lists(screen_moves, max_size=120), st.booleans())
def test_the_fallback_screens_rows_keep_their_order_over_its_spare_entries(move_rule, height, moves, with_marks):
    screen = _screen_py.Screen(height)
    if with_marks:
        screen.marks = [None] * len(screen.rows)
    model = [("", None, 0, 0, 0)] * height  # (cells, marks, wrapped, used, busy) of each row, top to bottom
    written = 0
    for move in moves:
        kind = move[0]
        if kind == "remove then insert":
            y, z = move[1] % height, move[2] % height
            screen.remove_row(y)
            del model[y]
            screen.insert_row(z)
            model.insert(z, ("", None, 0, 0, 0))
        elif kind == "remove block":
            a = move[1] % height
            b = min(a + move[2], height)
            screen.remove_rows(a, b)
            del model[a:b]
            for _ in range(b - a):  # (put_lines puts as many rows back at the bottom)
                screen.insert_row(screen.row_count())
                model.append(("", None, 0, 0, 0))
        elif kind == "move":
            gone, new = {"top": (0, height - 1), "bottom": (height - 1, 0)}.get(move[1], move[2:])
            gone, new = gone % height, new % height
            screen.move_row(gone, new)
            del model[gone]
            model.insert(new, ("", None, 0, 0, 0))
        elif kind == "rotate":
            a, b = sorted((move[1] % (height + 1), move[2] % (height + 1)))
            d = move[3] % (b - a) if b - a > 1 else 0
            if d:
                screen.rotate(a, b, d)
                model[a:b] = model[b - d : b] + model[a : b - d]
        elif kind == "rotate all":
            if height > 1:
                k = 1 + abs(move[1]) % (height - 1)
                screen.rotate(0, height, k if move[1] >= 0 else -k)
                d = k if move[1] >= 0 else height - k
                model[:] = model[height - d :] + model[: height - d]
        else:
            y = move[1] % height
            written += 1
            row = (f"row{written}", ("\u0101", [f"m{written}"]) if with_marks else None, written & 1, written, 1)
            at = screen.base + y
            screen.rows[at] = row[0]
            if with_marks:
                screen.marks[at] = row[1]
            screen.wrapped[at], screen.used[at], screen.busy[at] = row[2:]
            model[y] = row
        base = screen.base
        assert screen.row_count() == height and 0 <= base <= height + _screen_py._SPARE_ROWS
        assert screen.rows[base:] == [row[0] for row in model]
        if with_marks:
            assert screen.marks[base:] == [row[1] for row in model]
        assert list(screen.wrapped[base:]) == [row[2] for row in model]
        assert list(screen.used[base:]) == [row[3] for row in model]
        assert list(screen.busy[base:]) == [row[4] for row in model]
        assert screen.rows[:base] == [""] * base and not any(screen.wrapped[:base])
        assert not any(screen.used[:base]) and not any(screen.busy[:base])
        assert screen.marks is None or screen.marks[:base] == [None] * base
        busy = [y for y, row in enumerate(model) if row[4]]
        assert screen.busy_rows(0, height) == busy
        assert screen.last_used() == max((y for y in busy if model[y][3]), default=-1)
        assert screen.last_text() == max((y for y in busy if model[y][0]), default=-1)


@pytest.mark.parametrize("rows", [2, 3, 7, 40, 2100])
def test_scrolls_and_line_moves_at_a_tall_screens_ends_again_and_again(both, move_rule, rows):
    # what moves the fallback's spare entries before row 0 back and forth (line feeds at the bottom, the
    # region's top rows moving down for IL and RI near the top, DL, put_lines' blocks of plain lines, marks
    # on the rows): the twins agree, and the fallback's spare entries stay bounded
    c, py = both
    bottom = f"\x1b[{rows};1H"
    rounds = []
    for i in range(60):
        rounds.append(f"{bottom}line {i}\n\x1b7")  # a line feed at the bottom, one at a time
        rounds.append(f"\x1b[1;1He\u0301{i}\x1b[2;1H\x1b[L\x1bM")  # IL at row 2, RI at the top
        if i % 3 == 0:
            rounds.append(f"{bottom}" + "".join(f"plain {i}.{k}\n" for k in range(rows + 2)))  # put_lines
        if i % 4 == 1:
            rounds.append(f"\x1b[2;1H\x1b[2M\x1b[1;{rows}r\x1b[{rows};1H\n\x1b[r")  # DL, LF in a region
        if i % 5 == 2:  # the whole screen rotated by a few rows: SU, SD, ED 2 after a row near the top
            rounds.append(f"\x1b[1;1Hs\u0301\x1b[2S\x1b[{rows};1Hd\x1b[3T\x1b[2;1Hx\x1b[2J")
    data = "".join(rounds).encode()
    decoder = py.TranscriptDecoder(columns=12, rows=rows)
    out = "".join(decoder.decode(data[at : at + 97]) for at in range(0, len(data), 97))
    screen = decoder._sink.screen
    assert screen.base <= rows + _screen_py._SPARE_ROWS and len(screen.rows) == screen.base + rows
    assert out + decoder.decode(b"", final=True) == c.sanitize(data, columns=12, rows=rows)


def test_the_alternate_screen_comes_back_blank_each_time(both):
    # leaving the alternate screen empties only the rows that may hold something and keeps it for the next
    # entry (round 33: a new screen and a look at each row cost O(rows) a switch): what was drawn there never
    # shows again, its cells are counted each time it is left, and after a resize it has the new height
    c, py = both
    draw = ("\x1b[?1049h\x1b[3;4r\x1b[2;1He\u0301\u4e2d" + "w" * 30 + "\x1b[4;1Hq\n\x1bM\x1b[r\x1b[6;1Hlast"
            "\x1b[?1049l")
    chunks = [f"main\r\n{draw}after\r\n{draw}".encode(), None, f"{draw}\x1b[?47h\x1b[9;1Hz\x1b[?47lend".encode()]
    results = []
    for impl in (c, py):
        decoder = impl.TranscriptDecoder(columns=12, rows=6)
        out = []
        for chunk in chunks:
            if chunk is None:
                out.append(decoder.resize(12, 9))  # (taller: the kept alternate screen is not the new size)
            else:
                out.append(decoder.decode(chunk))
                out.append(decoder.live)
        out.append(decoder.decode(b"", final=True))
        results.append((out, decoder.stats))
    assert results[0] == results[1]
    out, stats = results[1]
    text = "".join(out)
    assert "w" not in text and "z" not in text and "last" not in text and "q" not in text
    once = py.TranscriptDecoder(columns=12, rows=6)  # the same drawing on a new alternate screen, once
    once.decode(f"main\r\n{draw}".encode(), final=True)
    assert once.stats["alt_screen_dropped"] > 20
    assert stats["alt_screen_dropped"] == 3 * once.stats["alt_screen_dropped"] + 1  # (and z)


def test_the_fallback_keeps_its_left_alternate_screen_blank_for_the_next_entry():
    from acp_transcript import _decoder_py

    decoder = _decoder_py.TranscriptDecoder(columns=10, rows=3000)  # (tall: spare entries too)
    decoder.decode("\x1b[?1049h\x1b[3000;1Hx\x1b[1;1He\u0301\x1b[2;1H\x1b[L\n\x1b[?1049l".encode())
    sink = decoder._sink
    spare = sink.alt_spare
    assert spare is not None and spare is not sink.screen and spare.cells == 0 and spare.marks is None
    assert spare.row_count() == 3000 and not any(spare.rows) and not any(spare.busy) and not any(spare.used)
    assert not any(spare.wrapped)
    decoder.decode(b"\x1b[?47h")
    assert sink.screen is spare and sink.alt_spare is None
    decoder.decode(b"\x1b[?47l")
    decoder.resize(10, 2999)
    assert sink.alt_spare is None
    decoder.decode(b"\x1b[?47h")
    assert sink.screen is not spare and sink.screen.row_count() == 2999


# (round 57) A row emptied for reuse keeps its buffer, and the blanks its lead held there (Row.zeroed): a
# character written far from column 0 of the next row there pads only past them (x then RI with auto-wrap off
# at 1000 columns padded 999 blanks a row, 37 MB/s). Rows that held text from before their lead, rows emptied
# by each way a row is emptied, and writes before, at and past the old lead; then an erase and a write again,
# so that text left in the buffer past a shorter row would show.
EMPTIED_ROWS = [b"\x1b[1;4Hxyz", b"\x1b[1;10Hx", b"\x1b[1;1Habcdefghijkl", b"\x1b[1;10Hx\x1b[1;2Hab",
                b"\x1b[1;6H\x1b[4b", b"\x1b[1;8H\xe4\xb8\xad\x1b[1;4He\xcc\x81"]
EMPTY_BY = [b"\x1b[1;1H\x1bM", b"\x1b[1;1H\x1b[L", b"\x1b[1;1H\x1b[M", b"\x1b[T", b"\x1b[1;1H\x1b[2K", b"\x1b[2J",
            b"\x1b[3;1H\n\n\n", b"\x1b[1;1H\x1b[K"]


@pytest.mark.parametrize("row", EMPTIED_ROWS)
@pytest.mark.parametrize("emptied_by", EMPTY_BY)
def test_a_row_written_after_it_was_emptied_shows_no_earlier_text(both, row, emptied_by):
    c_module, py_module = both
    for wrap, rewritten in ((b"", b""), (b"\x1b[?7l", b""), (b"", b"\x1b[1;1H\x1b[2K\x1b[1;1Habcdefghijkl")):
        for column in (1, 3, 4, 9, 10, 12):
            for then in (b"", b"\x1b[1;1H\x1b[2Kq\x1b[1;11Hr", b"\x1b[1;1H\x1b[1@\x1b[1;12Hs"):
                # (rewritten: the row emptied once, then written from column 0 before the emptying tested)
                data = wrap + row + rewritten + emptied_by + b"\x1b[1;%dHw" % column + then
                decoders = [impl.TranscriptDecoder(columns=12, rows=3) for impl in (c_module, py_module)]
                outputs = [(d.decode(data), d.live, d.decode(b"", final=True), d.stats) for d in decoders]
                assert outputs[0] == outputs[1], data


# (round 60) Leaving the alternate screen keeps the small buffers of its rows (up to SPARE_CELLS cells in all)
# for its next entry: each session shows only what it writes, whatever the one before left in those buffers
# (rows of ASCII, of wide characters with padding, with marks, longer than the row, made chunks by an edit),
# through a resize between sessions, on screens whose rows' buffers fit and do not fit in SPARE_CELLS.
ALT_SESSION_ROWS = [
    b"short", b"x" * 120, "\u4e2d".encode() * 70, "e\u0301".encode() * 30, b"a\tb\tc",
    b"y" * 900 + b"\x1b[5G\x1b[800@", b"",
]


@pytest.mark.parametrize("size", [(80, 24), (1000, 24), (300, 250)])
def test_the_alternate_screen_entered_again_shows_only_its_own_rows(both, size):
    columns, rows = size
    chunks = []
    for first in range(len(ALT_SESSION_ROWS)):
        lines = [ALT_SESSION_ROWS[(first + i) % len(ALT_SESSION_ROWS)] for i in range(rows)]
        # (each call ends on the screen it shows: calls() reads live after each, and the alternate screen's
        # text is seen only there)
        chunks.append(b"\x1b[?1049h\x1b[H" + b"\r\n".join(lines) + b"\x1b[3;5Hz")
        chunks.append(b"\x1b[?1049lmain\r\n")
        chunks.append(b"\x1b[?1049h\x1b[2;3Honly this\x1b[4;7H\xe4\xb8\xad\x1b[%d;%dHcorner" % (rows, columns - 6))
        chunks.append(b"\x1b[?1049l" + lines[1][:20] + b"\r\n")
    for options in ({"columns": columns, "rows": rows}, {"columns": columns, "rows": rows, "max_live_cells": 500}):
        assert calls(both[0], chunks, options) == calls(both[1], chunks, options)
    # a narrower screen between two sessions (the kept rows' buffers are wider than its rows)
    outputs = []
    for impl in both:
        decoder = impl.TranscriptDecoder(columns=columns, rows=rows)
        out = [decoder.decode(chunk) for chunk in chunks[:4]] + [decoder.resize(columns // 2, rows)]
        out += [(decoder.decode(chunk), decoder.live) for chunk in chunks[2:10]] + [decoder.decode(b"", final=True)]
        outputs.append((out, decoder.stats))
    assert outputs[0] == outputs[1]
