"""Long sized rows in chunks (the core's Row.line and _chunks_c.pxi; the bounded-cost issue): once an edit would
touch more than a chunk's cells of a sized row (REP, ECH, EL, ICH, DCH, a write far past its end), the core
keeps the row as literal chunks and fills, so that the edit costs what it changes instead of O(columns). The
text and the counters must not change: these tests compare the core, with chunks small enough for short rows
to reach every path (wide characters, combining marks, padding cleared at chunk boundaries, ICH and DCH
that do and do not overlap), against the fallback, whose rows are strs of cells (with a str of their marks'
codes beside a row that has any)."""

from __future__ import annotations

import itertools
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from acp_transcript import _defs, _screen_py
from helpers import examples
from strategies import SCREEN_CONTROLS, SCREEN_TEXT, chunked, screen_csi
from test_long_lines import assert_chunks_change_nothing, chunk_cells, run
from test_screen import CASES as SCREEN_CASES

# Edits with parameters from one cell to past the widest row (65535), at any column: the ones that make and
# edit chunks, and what reads single cells around them (wide characters and their padding, combining marks).
BIG_EDIT = st.builds(
    lambda final, n: b"\x1b[%s%s" % (n, final),
    st.sampled_from([bytes([final]) for final in b"XP@bGC`DK"]),
    st.sampled_from([b"", b"0", b"1", b"2", b"65535"]) | st.integers(1, 70).map(b"%d".__mod__),
)
REP = st.builds(lambda char, n: char + b"\x1b[%db" % n,
                st.sampled_from([b"a", b"-", b" ", "\u4e2d".encode(), "\u00e9".encode(), "\u2500".encode()]),
                st.integers(1, 70) | st.just(65535))
COLUMN = st.integers(1, 70).map(b"\x1b[%dG".__mod__)
OPS = st.one_of(st.sampled_from(SCREEN_TEXT), st.sampled_from(SCREEN_CONTROLS), screen_csi(), BIG_EDIT, BIG_EDIT,
                REP, COLUMN, COLUMN, st.sampled_from([b"\x1b[2K", b"\x1b[1K", b"\x1b[2J", b"\x1b[1;1H"]))
# Each stream starts with full rows, so that the edits after them meet chunk boundaries.
FULL_ROWS = st.builds(lambda text, n: (text * 70)[:n] + b"\r\n" + (b"wxyz" * 20)[:n], st.sampled_from(
    [b"ab", "\u4e2d".encode(), "a\u4e2d".encode(), "e\u0301x".encode()]), st.integers(1, 70))
ROW_EDITS = st.builds(lambda first, rest: first + b"".join(rest), FULL_ROWS, st.lists(OPS, max_size=40))
SIZES = st.fixed_dictionaries(
    {"columns": st.integers(8, 64), "rows": st.integers(1, 4)},
    optional={"max_live_cells": st.integers(20, 400), "alt_screen": st.sampled_from(["drop", "keep"])},
)


@settings(max_examples=examples(500))
@given(chunked(ROW_EDITS), SIZES, st.sampled_from([1, 2, 3, 5, 16]), st.booleans())
def test_chunked_rows_give_the_fallbacks_text_and_stats(both, case, options, cells, live):
    assert_chunks_change_nothing(both, case[1], options, cells, live)


@settings(max_examples=examples(200))
@given(ROW_EDITS, st.sampled_from([1, 2, 3, 8]), st.integers(8, 64))
def test_a_rows_chunks_stay_joined_and_at_most_2n_over_size_plus_one(both, data, cells, columns):
    c_module, _ = both
    with chunk_cells(c_module, cells):
        decoder = c_module.TranscriptDecoder(columns=columns, rows=3)
        for i in range(0, len(data), 7):  # the invariants hold after every call, not only at the end
            decoder.decode(data[i : i + 7])
            for length, count, unjoined in decoder._row_chunks():
                assert unjoined == 0 and count <= 2 * length // cells + 1, decoder._row_chunks()


def test_only_rows_an_edit_would_rewrite_become_chunks(both):
    c_module, _ = both
    decoder = c_module.TranscriptDecoder(columns=2000, rows=4)
    # a full row written, a short row edited, a full row edited in a few cells, a full row with an erase of
    # more than a chunk (512 cells by default)
    decoder.decode(b"y" * 2000 + b"z" * 100 + b"\r\x1b[5X\r\n" + b"w" * 2000 + b"\r\x1b[5X\r\n" + b"v" * 2000 + b"\r\x1b[600X")
    assert [count > 0 for _, count, _ in decoder._row_chunks()] == [False, False, False, True]


def test_a_write_up_to_four_chunks_past_a_rows_end_pads_it_flat(both):
    # padding is cheaper than the chunks' allocations up to an 8 KiB memset (FLAT_PAD_CHUNKS): x then IL at
    # 1000 columns made every row past column 512 chunks, and lost them again 24 rows later
    c_module, _ = both
    decoder = c_module.TranscriptDecoder(columns=5000, rows=4)
    decoder.decode(b"\x1b[2049Gx\r\n\x1b[2050Gx\r\nab\x1b[2051Gx\r\nab\x1b[2052Gx")  # gaps 2048, 2049
    assert [count > 0 for _, count, _ in decoder._row_chunks()] == [False, True, False, True]


@pytest.mark.parametrize("cells", [1, 2, 3, 8])
def test_writes_past_a_rows_end_around_the_flat_pad_give_the_fallbacks_text_and_stats(both, cells):
    # gaps of a chunk, of four chunks (still padded flat) and past them (chunks): on a row whose buffer held
    # text before an erase (a pad that missed a cell would show it), after text, and on a row of wide
    # characters; then rows pushed out (IL, RI) and erased, which count the cells they lose
    ops = []
    for gap in (cells - 1, cells, cells + 1, 4 * cells - 1, 4 * cells, 4 * cells + 1, 4 * cells + 2):
        ops.append(f"\x1b[2;1H{'q' * 60}\x1b[2K\x1b[{gap + 1}Gx\x1b[A\x1b[{gap + 1}G\u00e9\x1b[B\r\x1b[1K")
        ops.append(f"\x1b[3;1Hab\x1b[{gap + 3}Gy\x1b[Lz\x1b[2K")
        ops.append(f"\x1b[4;1H\u4e2d\x1b[{gap + 3}G\u4e2d\x1bM")
    data = ("".join(ops) + "\x1b[2J").encode()
    assert_chunks_change_nothing(both, [data], {"columns": 64, "rows": 5}, cells, True)


# Rows around the widths where the fallback's str rows change how they edit (round 32): a range of
# _screen_py._WHOLE_RUN cells or more is compared whole first, and a row of _window_py._LONG_LINE cells or more
# is spliced with one copy (``%.*s``, ``str.replace``). Edits with counts and columns on both sides of them.
LONG = 9000
LONG_EDIT = st.builds(lambda final, n: b"\x1b[%d%s" % (n, final),
                      st.sampled_from([bytes([final]) for final in b"XP@bGCDK`"]), st.integers(1, LONG))
LONG_REP = st.builds(lambda char, n: char + b"\x1b[%db" % n,
                     st.sampled_from([b"a", b" ", "\u4e2d".encode(), "\u00e9".encode(), "e\u0301".encode()]),
                     st.integers(200, LONG))
# An erase, then an erase or a write over where it ends: a run of blanks that reaches the end of a range
# counted (what the whole compare finds), or stops one cell short of it.
ERASE_OVER = st.builds(lambda at, n, to, last: b"\x1b[%dG\x1b[%dX\x1b[%dG%s" % (at, n, at + n + to, last),
                       st.integers(2, 400), st.integers(256, 700), st.sampled_from([-2, -1, 0]),
                       st.sampled_from([b"\x1b[1K", b"\x1b[1K", b"\x1b[0K", b"\x1b[300X", b"q", b"\x1b[1P"]))
LONG_OPS = st.one_of(OPS, LONG_EDIT, LONG_EDIT, LONG_REP, st.integers(1, LONG).map(b"\x1b[%dG".__mod__),
                     ERASE_OVER, st.sampled_from([b"\r", b"\x1b[1;1H", b"\x1b[2;1H"]))
LONG_WIDTHS = st.sampled_from([250, 256, 300, 8191, 8192, 8193, LONG])


@st.composite
def long_rows(draw: st.DrawFn) -> tuple[int, list[bytes]]:
    """A width, and chunks of: a first row as long as the screen (or one cell short, or wrapped onto the next
    row), a second row, then edits."""
    columns = draw(LONG_WIDTHS)
    cells = draw(st.sampled_from([columns - 1, columns, columns + 7]) | st.integers(200, LONG))
    text = draw(st.sampled_from([b"ab", "\u4e2d".encode(), "e\u0301x".encode()]))
    ops = draw(st.lists(LONG_OPS, min_size=1, max_size=25))
    data = (text * LONG)[:cells] + b"\r\n" + (b"wxyz" * LONG)[:cells] + b"\x1b[1;1H" + b"".join(ops)
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=4)))
    bounds = [0, *cuts, len(data)]
    return columns, [data[a:b] for a, b in zip(bounds, bounds[1:])]


@settings(max_examples=examples(300))
@given(long_rows(), st.sampled_from([16, 512]))
def test_rows_around_the_fallbacks_long_row_widths_give_the_same_text(both, case, cells):
    columns, chunks = case
    assert_chunks_change_nothing(both, chunks, {"columns": columns, "rows": 3}, cells, True)


# Blanks in many runs across a wide row (ECH every 600 columns), then erases over them: the fallback counts
# what they overwrite run by run while the runs are few, character by character past that (_unwritten).
SCATTERED_ERASES = b"".join(b"\x1b[%dG\x1b[5X" % (column * 600 + 1) for column in range(100))


# The widest rows the API allows, with the attacks of benchmarks/bounds.py at full scale: the core must give the
# fallback's text and counters with its default chunk size. The row starts with a plain character or one with
# a mark (the fallback's row then has its marks beside it, moved by the same slices).
@pytest.mark.parametrize("edit", [
    b"x\x1b[65535b\r", b"\x1b[1@", b"\x1b[1P", b"\x1b[@x\r", b"x\x1b[65530G\x1b[1K\r", b"\x1b[40000@",
    b"\x1b[40000P", b"\x1b[30000G\x1b[30000@\r", "\u4e2d\x1b[65535b\r".encode(), b"\x1b[65000Gq\x1b[3P\r",
    "\u00e9\x1b[65535b\r".encode(), "\u4e2d\r\u2500\x1b[65535b\x1b[2;1H".encode(),
    b"x\x1b[40000@\r", b"\x1b[65000Gy\x1b[2K", SCATTERED_ERASES + b"\x1b[30000G\x1b[1K\x1b[50000G\x1b[0K\r",
    SCATTERED_ERASES + b"\x1b[2K\x1b[2;1H\x1b[1;1H", "e\u0301x\x1b[65533b\r".encode(), "e\u0301\x1b[40000@\r".encode(),
    "\x1b[30000Ga\u0301\x1b[1;1H\x1b[20000P\x1b[1;1H\x1b[5000@".encode(),
])
@pytest.mark.parametrize("first", [b"x", "e\u0301".encode()])
def test_a_65535_column_row_edits_as_the_fallbacks(both, edit, first):
    c_module, py_module = both
    chunks = [first + b"x" * 65534 + b"\r", edit * 20, b"\x1b[3;1Hab", b"\n" * 3]
    options = {"columns": 65535, "rows": 3}
    assert run(c_module, chunks, options, live=True) == run(py_module, chunks, options, live=True)


def test_every_insert_and_delete_on_a_short_chunked_row_keeps_the_chunks_joined(both):
    """ICH and DCH of every count at every column of a row in small chunks, made of literal cells and fills
    (REP, ECH): the moves that do not overlap rearrange chunks (chunks_move), and every seam between what
    they put side by side must be joined again."""
    c_module, py_module = both
    for cells in (1, 2, 3, 4):
        with chunk_cells(c_module, cells):
            for columns in (7, 10, 13):
                for setup in (b"abcdefghijklm", b"ab\x1b[5bcd\x1b[3;1H", b"a\x1b[3Xbcdefg\x1b[2;1Hxy\x1b[9b"):
                    for column in range(1, columns + 1):
                        for final in b"@P":
                            for n in range(1, columns - column + 2):
                                data = b"\x1b[1;1H" + setup[: columns + 4] + b"\x1b[1;%dH\x1b[%d%c" % (column, n, final)
                                decoder = c_module.TranscriptDecoder(columns=columns, rows=3)
                                out = decoder.decode(b"x" * columns + data) + decoder.live
                                for _, count, unjoined in decoder._row_chunks():
                                    assert unjoined == 0, (cells, columns, data)
                                fallback = py_module.TranscriptDecoder(columns=columns, rows=3)
                                assert out == fallback.decode(b"x" * columns + data) + fallback.live, (cells, data)


def test_rep_of_a_wide_character_over_a_chunked_row_is_one_fill_of_pairs(both):
    # written as literal cells, the pairs cost 2,000 cells a sequence at 1000 columns (x then REP, then REP
    # of a wide character over it, with auto-wrap off: 17 MB/s); a fill of pairs is one chunk
    c_module, _ = both
    decoder = c_module.TranscriptDecoder(columns=5000, rows=2)
    decoder.decode("\x1b[?7l\u4e2d\x1b[4999b\r\nx\x1b[4999b\r\u4e2d\x1b[4999b".encode())
    # the first row's first pair as put_char wrote it on the row while it was flat; the second row's over its
    # fill of x, a fill of one pair (finish_cells), which the rest joins
    assert [count for _, count, _ in decoder._row_chunks()] == [2, 1]


# Rows for text in insert mode (each over a full row of x): literal cells; a fill of pairs; blanks it starts
# with (EL 1: its lead); a wide character whose padding the cursor may be on; and fills with a mark between.
INSERT_ROWS = [b"abcdefghijklmno", "\u4e2d\x1b[9b".encode(), b"\x1b[9G\x1b[1K", "ab\u4e2dcd\u6587".encode(),
               "x\x1b[4be\u0301-\x1b[5b".encode()]
INSERT_TEXT = ["\u4e2d", "\u4e2d\x1b[3b", "\u4e2d\x1b[1b", "x\x1b[4b", "x", "\U0001f600\x1b[2b", "\u4e2d\u6587"]


def test_text_in_insert_mode_on_a_chunked_row_at_every_column(both):
    """(round 57) A wide character typed in insert mode, and REP in insert mode, on a row in chunks: the insert
    opens the character's fill (of pairs: PAIRED) and nothing is written after it (insert_fill), so that a
    character and REP of it again and again keep the row one fill. At every column of every kind of row, then
    an edit that reads what the insert left: the blanks the row starts with (EL 1), the padding after the
    cursor, the row's end (typing on)."""
    c_module, py_module = both
    for cells in (1, 2, 3, 4):
        with chunk_cells(c_module, cells):
            for wrap in (b"", b"\x1b[?7l"):
                for row in INSERT_ROWS:
                    for column in range(1, 16):
                        for text in INSERT_TEXT:
                            for then in (b"\x1b[1K", b"\x1b[4lyz\x1b[2P", b"\r\x1b[13C\x1b[1K", b"\x1b[2@w"):
                                data = (wrap + b"x" * 15 + b"\r" + row + b"\x1b[1;%dH\x1b[4h" % column + text.encode()
                                        + then)
                                decoder = c_module.TranscriptDecoder(columns=15, rows=2)
                                got = (decoder.decode(data), decoder.live, decoder.decode(b"", final=True),
                                       decoder.stats)
                                assert [unjoined for _, _, unjoined in decoder._row_chunks()] == [0, 0], (cells, data)
                                fallback = py_module.TranscriptDecoder(columns=15, rows=2)
                                expected = (fallback.decode(data), fallback.live, fallback.decode(b"", final=True),
                                            fallback.stats)
                                assert got == expected, (cells, data)


def test_a_character_and_rep_of_it_in_insert_mode_keep_a_long_row_one_fill(both):
    """(round 57) A character, then REP of it, in insert mode at column 0 of a 1000-column row, again and again:
    each insert opens the character's own fill (insert_fill; finish_cells writes a lone character's cells as a
    fill too), the one before it goes on as that fill, and the cells pushed past the margin leave its end. As
    blanks and then written, the inserts joined their fills and blanks into literal chunks of cells, which
    every insert after them moved: 4,400 instructions a sequence for a wide character."""
    c_module, py_module = both
    for char in ("\u4e2d", "x"):
        data = b"\x1b[4h" + (char + "\x1b[79b\r").encode() * 30
        decoder = c_module.TranscriptDecoder(columns=1000, rows=2)
        fallback = py_module.TranscriptDecoder(columns=1000, rows=2)
        assert decoder.decode(data) == fallback.decode(data) == ""
        assert [count for _, count, _ in decoder._row_chunks()] == [1, 0]
        assert decoder.live == fallback.live == char * (500 if char == "\u4e2d" else 1000)
        assert decoder.stats == fallback.stats


# (round 58) Rows made chunks, emptied (their chunks kept by the core as spare memory: ChunkSpares), then other
# rows made chunks from that memory: a reused table must start with no chunks, hold as many chunks as the new
# row needs (a short row's table, then a long row) and reused cells show only what is copied into them; a
# table too big to keep (200 columns of one-cell chunks) is freed.
SPARE_ROWS = [b"abcdefghij" * 20, "\u4e2d\u00e9x".encode() * 50, b"q\x1b[150b", b"uv", "\u4e2d\x1b[40b".encode()]
SPARE_EMPTIED_BY = [b"\r\n" * 3, b"\x1b[2J", b"\x1b[1;1H\x1b[2K\x1b[2;1H\x1b[2K", b"\x1bD" * 3, b"\x1b[3S"]


def test_rows_made_chunks_from_emptied_rows_memory_show_only_their_own_text(both):
    c_module, py_module = both
    for cells in (1, 3, 16):
        with chunk_cells(c_module, cells):
            for columns in (30, 200):
                for screen in (b"", b"\x1b[?1049h"):
                    for emptied_by in SPARE_EMPTIED_BY:
                        for first, then in itertools.product(SPARE_ROWS, repeat=2):
                            data = screen + b"".join(
                                b"".join(b"\x1b[%d;1H" % y + row[:columns] + b"\x1b[%d;2H\x1b[2X" % y for y in (1, 2))
                                + emptied_by for row in (first, then, first))  # (the ECH makes each row chunks)
                            got = []
                            for impl in (c_module, py_module):
                                decoder = impl.TranscriptDecoder(columns=columns, rows=3)
                                got.append((decoder.decode(data), decoder.live, decoder.stats))
                            assert got[0] == got[1], (cells, columns, data)


# Edits over a row of a wide character's pairs by REP (one PAIRED fill in the core's chunks, _chunks_c.pxi):
# at every column, odd ones (a pair's padding) and even ones, so that the fill is cut inside a pair (its tail
# starts with the padding), written over from there (put_run's and fill_run's clean test of a fill) and
# joined again; then a second edit near the first.
PAIR_EDITS = [b"x", "\u4e2d".encode(), b"x\x1b[4b", "\u4e2d\x1b[3b".encode(), b"\x1b[3P", b"\x1b[2P",
              b"\x1b[1@", b"\x1b[2@", b"\x1b[3X", b"\x1b[K", b"\x1b[1K", "e\u0301".encode(), b" \x1b[3b"]


def test_a_row_of_pairs_edited_at_every_column_gives_the_fallbacks_text_and_stats(both):
    c_module, py_module = both
    for cells in (1, 2, 3):
        with chunk_cells(c_module, cells):
            for wrap in (b"\x1b[?7h", b"\x1b[?7l"):
                for edit in PAIR_EDITS:
                    for column in range(1, 14):
                        for then in (b"\x1b[%dG\xe4\xb8\xad\x1b[5b" % (column + 1), b"\x1b[%dGx\x1b[3b" % (column - 1),
                                     b"\x1b[2G\x1b[1P", b"\x1b[3G\x1b[1@"):
                            data = wrap + "\u4e2d\x1b[29b".encode() + b"\x1b[%dG" % column + edit + then
                            decoder = c_module.TranscriptDecoder(columns=30, rows=2)
                            got = (decoder.decode(data), decoder.live, decoder.decode(b"", final=True), decoder.stats)
                            assert [unjoined for _, _, unjoined in decoder._row_chunks()] == [0, 0], (cells, data)
                            fallback = py_module.TranscriptDecoder(columns=30, rows=2)
                            expected = (fallback.decode(data), fallback.live, fallback.decode(b"", final=True),
                                        fallback.stats)
                            assert got == expected, (cells, data)


@pytest.mark.parametrize("cells", [4, 16, 512])
@pytest.mark.parametrize("write", ["\u00e9" * 90, "\x1b[?7lx\x1b[89b", "\u4e2d\x1b[44b", "\x1b[?7l\u4e2d\x1b[44b"])
def test_a_long_row_of_pairs_with_one_stray_cell_is_written_over_as_the_fallback(both, cells, write):
    # put_run's clean test passes whole blocks of a wide character's pairs at once (acp_clean_blocks): a
    # stray padding cell or a marked cell anywhere in them, at any offset in a block, must still stop it
    # (put_char over stray padding blanks the cell before it). Rows flat (512) and in literal chunks.
    ops = []
    for column in range(20, 38):
        for stray in ("\x1b[%dG\x1b[P" % column, "\x1b[%dG\u0301" % column, "\x1b[%dG\x1b[@" % column):
            ops.append(("\x1b[?7h\x1b[2;1H" + "\u4e2d" * 45 + stray + "\r" + write).encode())
    assert_chunks_change_nothing(both, ops, {"columns": 90, "rows": 3}, cells, True)  # (live after each)


@pytest.mark.parametrize("cells", [4, 16, 512])
@pytest.mark.parametrize("write", ["\u00e9" * 90, "\x1b[?7lx\x1b[89b", "\u00e9\x1b[89b", "\x1b[?7l\u00e9\x1b[89b",
                                   "\x1b[6G\u00e9" * 80, "\x1b[?7l\x1b[3Gx\x1b[85b", "\u4e2d\x1b[44b"])
def test_a_long_row_of_one_cell_characters_with_one_stray_cell_is_written_over_as_the_fallback(both, cells, write):
    # put_run's and fill_run's clean test passes whole blocks of one-cell characters and blanks at once
    # (acp_narrow_blocks): a stray padding cell, a marked cell or a wide character anywhere in them, at any
    # offset in a block from where the write starts, must still stop it where the cell-by-cell look did.
    ops = []
    for column in range(18, 38):
        for stray in ("\x1b[%dG\u4e2d\x1b[%dG\x1b[P" % (column, column), "\x1b[%dG\u0301" % column,
                      "\x1b[%dG\u4e2d" % column, "\x1b[%dG\u4e2d\u0301" % column, "\x1b[%dG\x1b[X" % column):
            ops.append(("\x1b[?7h\x1b[2;1H" + "ab" * 45 + stray + "\r" + write).encode())
    assert_chunks_change_nothing(both, ops, {"columns": 90, "rows": 3}, cells, True)  # (live after each)


@pytest.mark.parametrize("cells", [1, 2, 3])
@pytest.mark.parametrize(("data", "columns", "rows", "expected"), SCREEN_CASES)
def test_the_tmux_checked_cases_hold_on_rows_in_chunks(both, cells, data, columns, rows, expected):
    """tests/test_screen.py's cases (each checked against tmux) with chunks so small that nearly every edit
    of more than a cell makes its row chunks: the chunked paths (put_run's clean test chunk by chunk, the
    moves, the fills) give what tmux shows."""
    c_module, _ = both
    with chunk_cells(c_module, cells):
        assert c_module.sanitize(data, columns=columns, rows=rows) == expected


BLANK, PAD = chr(_defs.BLANK), chr(_defs.PAD)
# Runs of cells; blank runs between others, enough of them that a span of a few hundred cells holds more blank
# runs than _FEW_RUNS; and runs longer than _WHOLE_RUN, which _run compares whole first.
ROW_TEXT = st.lists(st.tuples(st.sampled_from([BLANK, PAD, "x", "\u4e2d"]), st.integers(1, 120) | st.integers(250, 700)),
                    max_size=30).map(lambda runs: "".join(cell * n for cell, n in runs))
BLANK_RUNS = st.lists(st.tuples(st.integers(1, 40), st.sampled_from(["x", PAD, "\u4e2d"]), st.integers(1, 40)),
                      min_size=5, max_size=30).map(lambda runs: "".join(BLANK * a + cell * b for a, cell, b in runs))


@settings(max_examples=examples(300))
@given(ROW_TEXT | BLANK_RUNS | st.text(st.sampled_from([BLANK, PAD, "x"]), max_size=600), st.data())
def test_the_fallbacks_counts_over_a_str_row_are_strs_own(text, data):
    """The fallback's str rows count their blanks and padding run by run (_unwritten) and find their trailing
    blanks by power-of-two probes (_trailing_blanks, of a row or of a span of it): what str.count and
    str.rstrip say, for any span (the whole row as often as not: hypothesis draws small integers first)."""
    start = data.draw(st.just(0) | st.integers(0, len(text)))
    stop = data.draw(st.just(len(text)) | st.integers(start, len(text)))
    # spans shorter than _COUNT_SPAN are counted, and these rows are mostly shorter: the probes too
    count_span = data.draw(st.sampled_from([_screen_py._COUNT_SPAN, 2, 256]))
    # (and _trailing_blanks strips rows' and spans' last _SHORT_TRIM cells first: the probes after a short tail)
    short_trim = data.draw(st.sampled_from([_screen_py._SHORT_TRIM, 1, 8]))
    with mock.patch.multiple(_screen_py, _COUNT_SPAN=count_span, _SHORT_TRIM=short_trim):
        if start < stop:
            unwritten = _screen_py._unwritten(text, start, stop), _screen_py._unwritten(text, start, stop, False)
            assert unwritten[0] == text.count(BLANK, start, stop) + text.count(PAD, start, stop)
            if PAD not in text[start:stop]:  # (the caller found none: _clean_span)
                assert unwritten[1] == text.count(BLANK, start, stop)
            span = text[start:stop]
            assert _screen_py._blank_run(text, start, stop) == len(span) - len(span.lstrip(BLANK))
            assert _screen_py._trailing_blanks(text, start=start, end=stop) == len(span) - len(span.rstrip(BLANK))
        assert _screen_py._trailing_blanks(text) == len(text) - len(text.rstrip(BLANK))
        assert _screen_py.trim_row(text) == text.rstrip(BLANK)
