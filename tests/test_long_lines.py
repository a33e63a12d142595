"""Long lines in chunks (the core's _chunks_c.pxi; the bounded-cost issue): once a line longer than one chunk
is edited, the core keeps it as literal chunks and fills, so that REP, ECH, EL, ICH and DCH cost what they
change. The text must not change: these tests compare the core, with chunks small enough for short inputs to
reach every path, against the fallback (whose lines are str), and check the bound on the chunk count
that makes each edit O(n/size + size)."""

from __future__ import annotations

import contextlib
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples
from strategies import chunked

from acp_transcript import _window_py


@contextlib.contextmanager
def chunk_cells(c_module, cells: int):
    """Decoders made inside chunk their long lines at ``cells`` cells."""
    previous = c_module._set_line_chunk_cells(cells)
    try:
        yield
    finally:
        c_module._set_line_chunk_cells(previous)


def run(module, chunks: list[bytes], options: dict, live: bool) -> tuple[list[str], dict]:
    decoder = module.TranscriptDecoder(**options)
    seen = []
    for chunk in chunks:
        seen.append(decoder.decode(chunk))
        if live:
            seen.append(decoder.live)
    seen.append(decoder.decode(b"", final=True))
    return seen, decoder.stats


def assert_chunks_change_nothing(both, chunks: list[bytes], options: dict, cells: int, live: bool) -> None:
    """The core with chunks of ``cells`` cells gives the fallback's text and stats."""
    c_module, py_module = both
    with chunk_cells(c_module, cells):
        got = run(c_module, chunks, options, live)
    assert got == run(py_module, chunks, options, live)


# Line edits at any column of lines longer than a few chunks: text (ASCII, wide, policy characters), the
# line-local controls and functions with small and huge parameters, and now and then a new line, a saved
# cursor (the status-line overlay) or the alternate screen.
TEXT = st.text(st.sampled_from("ab x\u00e9\u4e2d\u202e"), min_size=1, max_size=40).map(str.encode)
EDIT = st.builds(
    lambda final, n: b"\x1b[%s%s" % (n, final),
    st.sampled_from([bytes([final]) for final in b"XP@bGC`aDK"]),
    st.sampled_from([b"", b"0", b"65535"]) | st.integers(1, 40).map(b"%d".__mod__),
)
# The cursor to any column of the long line: edits far from and near to the last one (the chunk walk's finger).
COLUMN = st.integers(1, 100).map(b"\x1b[%dG".__mod__)
CONTROL = st.sampled_from(
    [b"\r", b"\b", b"\t", b"\n", b"\x1b[1K", b"\x1b[2K", b"\x1b7", b"\x1b8", b"\x1b[A", b"\x1b[2;5H",
     b"\x1b[?1049h", b"\x1b[?1049l", b"\x1b[J"]
)
# Each stream starts with a line of several chunks, so that the edits after it meet chunk boundaries.
LONG_LINE = st.integers(10, 90).map(lambda n: (b"ab" * n)[:n])
LINE_EDITS = st.builds(
    lambda first, rest: first + b"".join(rest),
    LONG_LINE,
    st.lists(st.one_of(TEXT, EDIT, EDIT, CONTROL, COLUMN, COLUMN), max_size=40),
)
OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "tabs": st.sampled_from(["keep", "expand"]),
        "alt_screen": st.sampled_from(["drop", "keep"]),
        "live_lines": st.integers(1, 3),
        "max_line_cells": st.integers(8, 120),
        "max_live_cells": st.integers(20, 400),
        "max_jump": st.integers(0, 40),
    },
)


@settings(max_examples=examples(400))
@given(chunked(LINE_EDITS), OPTIONS, st.sampled_from([1, 2, 3, 5, 16]), st.booleans())
def test_chunked_lines_give_the_fallbacks_text_and_stats(both, case, options, cells, live):
    assert_chunks_change_nothing(both, case[1], options, cells, live)


@settings(max_examples=examples(200))
@given(LINE_EDITS, st.sampled_from([1, 2, 3, 8]))
def test_a_line_never_holds_more_than_2n_over_size_plus_one_chunks(both, data, cells):
    c_module, _ = both
    with chunk_cells(c_module, cells):
        decoder = c_module.TranscriptDecoder(max_jump=40)
        for i in range(0, len(data), 7):  # the bound holds after every call, not only at the end
            decoder.decode(data[i : i + 7])
            for length, count, unjoined in decoder._line_chunks():
                assert unjoined == 0 and count <= 2 * length // cells + 1, decoder._line_chunks()


@contextlib.contextmanager
def fallback_splices_every_line():
    """The fallback edits every line as it edits long ones (_window_py.splice's one-copy forms)."""
    previous = _window_py._LONG_LINE
    _window_py._LONG_LINE = 0
    try:
        yield
    finally:
        _window_py._LONG_LINE = previous


@settings(max_examples=examples(300))
@given(chunked(LINE_EDITS), OPTIONS, st.booleans())
def test_the_fallbacks_long_line_edits_give_the_cores_text_and_stats(both, case, options, live):
    c_module, py_module = both
    with fallback_splices_every_line():
        got = run(py_module, case[1], options, live)
    assert got == run(c_module, case[1], options, live)


@pytest.mark.parametrize("line", ["", "x", "abab" * 5, "a\u00e9b" * 4, "\u4e2dx\u4e2d" * 3, "\U0001f600\x00a" * 4])
def test_splice_is_the_slices_it_replaces(line):
    # Every form (one copy at the end, an insertion or a replace at column 0, the general one), on the three
    # str kinds and on lines where what is replaced at column 0 occurs again later.
    size = len(line)
    with fallback_splices_every_line():
        for start in range(size + 1):
            for stop in range(start, size + 1):
                for cut in {stop, (stop + size) // 2, size, _window_py.HUGE}:
                    for mid in ("", "\x00", "zz", "\u4e2d"):
                        expected = line[:start] + mid + line[stop:cut]
                        assert _window_py.splice(line, start, stop, mid, cut) == expected, (start, stop, cut, mid)


# A 65,536-cell line cut into as many 512-cell chunks as it can hold (benchmarks/bounds.py, the fragmented
# rows), then edits at its thirds, its middle and its ends: the default chunk size at full scale.
FRAGMENTED = b"x" * 65536 + b"".join(b"\x1b[%dG\x1b[511X" % (k + 2) for k in range(0, 65536, 513))
EDITS = [
    b"\x1b[21845G\x1b[X", b"\x1b[43690Gab", b"\x1b[32768G\x1b[@", b"\x1b[32768G\x1b[600X", b"\x1b[100Gq\x1b[700b",
    b"\x1b[60000G\x1b[1K", b"\x1b[P", b"\r\x1b[3@", b"\x1b[65000G\t\x1b[5P", b"\r\x1b[40000Cz\x1b[2000b",
]


def test_a_fragmented_full_length_line_edits_as_the_fallbacks(both):
    c_module, py_module = both
    chunks = [FRAGMENTED, *(EDITS * 3), b"\n"]
    decoder = c_module.TranscriptDecoder()
    decoder.decode(FRAGMENTED)
    [(length, count, unjoined)] = decoder._line_chunks()
    assert unjoined == 0
    assert length > 65000 and 200 < count <= 2 * length // 512 + 1  # it is in chunks, and bounded
    assert run(c_module, chunks, {}, live=True) == run(py_module, chunks, {}, live=True)


def test_only_long_lines_that_are_edited_become_chunks(both):
    c_module, _ = both
    decoder = c_module.TranscriptDecoder()
    decoder.decode(b"y" * 2000 + b"\n" + b"z" * 100 + b"\r\x1b[5X\n" + b"w" * 2000 + b"\r\x1b[5X")
    assert [count > 0 for _, count, _ in decoder._line_chunks()] == [False, False, True]


def test_the_chunk_size_must_be_positive(both):
    c_module, _ = both
    with pytest.raises(ValueError, match="at least 1"):
        c_module._set_line_chunk_cells(0)


@pytest.mark.parametrize(("second", "overwritten"), [
    (b"\x1b[51G\x1b[100X", 100 + 50),  # cells 100-149 are still x
    (b"\x1b[101G\x1b[1X", 100 + 1 + 99),  # cell 100, then 101-199 by the ECH 100 from there
    (b"\x1b[1G\x1b[101X", 100 + 1),
    (b"\x1b[2K", 100 + 200),
])
def test_an_erase_again_over_part_of_what_was_erased_counts_the_rest(both, second, overwritten):
    # The fallback remembers the last long range it found blank on a line (that str object): an erase that
    # reaches past that range must still count the written cells there, as the core does.
    compiled, fallback = both
    data = b"x" * 300 + b"\r\x1b[100X\x1b[100X" + second + b"\x1b[100X" + second
    results = []
    for module in (compiled, fallback):
        decoder = module.TranscriptDecoder()
        results.append((decoder.decode(data), decoder.live, decoder.stats["cells_overwritten"]))
    assert results[0] == results[1]
    assert results[0][2] == overwritten


# A line of text and blank runs, long enough for written_in's blocks (a run of 0-9,000 cells each).
BLANK_RUNS = st.lists(st.tuples(st.booleans(), st.integers(0, 9000)), max_size=8).map(
    lambda runs: "".join((_window_py.BLANK if blank else "x\u4e2d"[size % 2]) * size for blank, size in runs)
)


@settings(max_examples=examples(200))
@given(BLANK_RUNS, st.integers(0, 40000), st.integers(0, 40000))
def test_written_in_counts_the_cells_that_are_not_blank(line, start, length):
    # The fallback's count of the written cells in a range compares whole blocks with blanks and counts the
    # others (round 35): the same number as counting every cell, for ranges inside, across and past the line.
    stop = start + length
    assert _window_py.written_in(line, start, stop) == _window_py.written(line[start:stop])


@pytest.mark.parametrize("erase", [b"\x1b[2K", b"\x1b[1K", b"\x1b[K\x1b[1K"])
def test_a_character_far_past_a_line_erased_under_the_cursor_is_a_fill(both, erase):
    # An erase leaves the cursor where it was; a move goes at most max_jump past a line's text, so only such
    # a cursor writes further out. The core writes that gap as one fill of a chunked line (in_chunks), where
    # it padded the gap again after each erase (3.5 MB/s; round 35): the same text and stats as the fallback.
    compiled, fallback = both
    data = [b"\x1b[1024Cx" * 63 + erase, (b"\x1b[1024Cx" + erase) * 3 + b"y", b"\x1b[2;1Hz\x1b[1;1H", b"\x1b[65000G+"]
    results = [run(module, data, {}, live=True) for module in (compiled, fallback)]
    assert results[0] == results[1]
    decoder = compiled.TranscriptDecoder()
    decoder.decode(b"".join(data[:2]))
    [(length, count, _)] = decoder._line_chunks()
    assert length == 63 * 1025 + 4 and count == 2  # a fill of blanks, then the three x and the y


@pytest.mark.parametrize("erase", [b"\x1b[2K", b"\x1b[1K", b"\x1b[1;2K"])
def test_a_tab_far_past_a_line_erased_under_the_cursor_counts_its_span(both, erase):
    # A tab that pads a gap further than a move goes notes the gap blank, as a character does (round 53: tab
    # then EL 1 walked out counted the gap a call); the tab's own span is written, and counted when erased.
    compiled, fallback = both
    # (then x, its row's text erased but x and the cursor kept far out by ESC 7 and ESC 8, a tab and erases)
    data = [(b"\t" + erase) * 200, b"\x1b[2;1Hx" + b"y" * 99 + b"\x1b[100C\x1b7\r\x1b[C\x1b[99X\x1b8\t" + erase * 2]
    options = {"max_jump": 100}
    results = [run(module, data, options, live=True) for module in (compiled, fallback)]
    assert results[0] == results[1]
    decoder = fallback.TranscriptDecoder(**options)
    decoder.decode(data[0])
    assert decoder.stats["cells_overwritten"] == 200 * 8  # each erase took the last tab's span alone
    decoder.decode(data[1])
    assert decoder.stats["cells_overwritten"] == 200 * 8 + 99 + 1 + 8  # the y, then x and the span


@pytest.mark.parametrize("alt", [b"", b"\x1b[?1049h"])
def test_a_gap_of_more_than_a_chunk_in_a_line_of_wide_cells_is_a_fill(both, alt):
    # On the alternate screen, a line of four-byte cells (a wide character, a mark, a character the policy
    # shows) takes a move of more than a chunk past its end as a fill (in_chunks, round 36): huge moves after
    # a wide character padded 4 KiB a move and were counted again when the line was dropped. A line of bytes
    # pads, and so does a line of the main screen, whose blanks are output.
    compiled, fallback = both
    wide = "\u4e2d\x1b[1024C".encode() * 70 + "\u202e\x1b[600C\u00e9\x1b[513C\u0301x\n".encode()
    data = [alt + b"a\x1b[1024Cb\x1b[1024Cc\n" + wide * 2 + b"\x1b[3Aq\x1b[70000G\x1b[1K\x1b[2Bw\x1b[5000Gv"]
    for options in ({}, {"live_lines": 2}, {"max_line_cells": 20000}):
        assert run(compiled, data, options, live=True) == run(fallback, data, options, live=True)
    decoder = compiled.TranscriptDecoder()
    decoder.decode(alt + b"a\x1b[1024Cb\x1b[1024Cc\n" + "\u4e2d\x1b[1024C\u4e2d\x1b[513Cx\x1b[512Cy".encode())
    assert [count > 0 for _, count, _ in decoder._line_chunks()] == [False, alt != b""]


# Lines of bytes with gaps (text, then a move of up to 5,000 cells: max_jump=5000), long enough for the core's
# count of written bytes to cross its 16-byte steps and its 4,080-byte blocks (acp_count_written_bytes; a gap
# of 4,096 blanks or more is a block in which every byte lane counts 255).
GAPPED_LINE = st.lists(st.tuples(st.integers(1, 40), st.integers(0, 5000)), min_size=1, max_size=12).map(
    lambda parts: b"".join(b"x" * text + b"\x1b[%dC" % gap for text, gap in parts)
)


@settings(max_examples=examples(100))
@given(st.lists(GAPPED_LINE, min_size=1, max_size=6), st.sampled_from([b"\n", b"\x1b[2K\n", b"\r\x1b[3C\x1b[K\n"]))
def test_written_cells_of_gapped_lines_are_counted_as_the_fallback_counts_them(both, lines, end):
    # Pushed out of the alternate window (alt_screen_dropped), and erased (cells_overwritten).
    data = b"\x1b[?1049h" + b"".join(line + end for line in lines)
    results = [run(module, [data], {"live_lines": 2, "max_jump": 5000}, live=False) for module in both]
    assert results[0] == results[1]


# (round 59) The window keeps the cells of literal chunks its lines' edits remove (ChunkSpares) and hands them
# to the next chunk any of its lines needs. Two lines of different text, each edited in turn near where the
# other was, so that a chunk's memory that came from the other line and still showed any of its old cells
# would show in this line's text; and the stats (cells overwritten count the written cells each edit took).
SPARE_LINES = [b"abcdefghij" * 6, "\u4e2d\u00e9x".encode() * 20, b"q\x1b[70b", "\u202ez".encode() * 30]
SPARE_EDITS = [b"\x1b[1K", b"\x1b[2K", b"\x1b[5X", b"\x1b[3@", b"\x1b[4P", b"zz", "\u4e2d".encode(), b"\x1b[K"]


@pytest.mark.parametrize("cells", [1, 3, 16])
def test_lines_edited_in_turns_reuse_chunk_memory_and_show_only_their_own_text(both, cells):
    c_module, _ = both
    for first, second in itertools.permutations(SPARE_LINES, 2):
        for edit in SPARE_EDITS:
            turns = b"".join(b"\x1b[A\x1b[%dG" % column + edit + b"\x1b[B\x1b[%dG" % (column + 7) + edit + b"y"
                             for column in (3, 40, 9, 55, 1))
            chunks = [first + b"\r\n" + second, turns, b"\x1b[A\x1b[80G" + edit + b"\r\n"]
            assert_chunks_change_nothing(both, chunks, {}, cells, live=True)
            with chunk_cells(c_module, cells):
                decoder = c_module.TranscriptDecoder()
                decoder.decode(b"".join(chunks[:2]))
                assert [unjoined for _, _, unjoined in decoder._line_chunks()] == [0, 0], (first, second, edit)
