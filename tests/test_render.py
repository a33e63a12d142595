"""SPEC 2.3: render mode, a terminal with a live window. Each case is what a terminal would show."""

from __future__ import annotations

import pytest

from helpers import assert_transcript

CASES = [
    # printing, LF, CR, BS
    pytest.param(b"hello\nworld\n", "hello\nworld\n", id="plain-text-unchanged"),
    pytest.param(b"line\r\n", "line\n", id="crlf-is-lf"),
    pytest.param(b"a\x0bb\x0cc", "a\nb\nc", id="vt-ff-as-lf"),
    pytest.param(b"10%\r20%\r100%\n", "100%\n", id="progress-bar-final-frame"),
    pytest.param(b"abcdef\rXY", "XYcdef", id="cr-overwrites"),
    pytest.param(b"ab\x08\x08c", "cb", id="bs-does-not-erase"),
    pytest.param(b"\x08\x08a", "a", id="bs-stops-at-column-0"),
    pytest.param(b"   \n", "   \n", id="written-spaces-kept"),
    # HT
    pytest.param(b"a\tb\n", "a\tb\n", id="tab-kept"),
    pytest.param(b"abcdefgh\tX", "abcdefgh\tX", id="tab-at-multiple-of-8"),
    pytest.param(b"\t\tX", "\t\tX", id="two-tabs"),
    pytest.param(b"a\t", "a\t", id="trailing-tab-kept"),
    pytest.param(b"abcdefghij\rxy\tz", "xycdefghzj", id="tab-over-text-only-moves"),
    pytest.param(b"\tX\ra", "a       X", id="overwritten-tab-cell-is-blank"),
    pytest.param(b"\t\rab", "ab", id="partial-tab-span-trailing-blank"),
    pytest.param(b"a\x1b[2Cb\tc", "a  b\tc", id="tab-after-moved-text"),
    # EL, ECH, ICH, DCH, REP
    pytest.param(b"abcdef\x1b[3D\x1b[K", "abc", id="el0"),
    pytest.param(b"abcdef\x1b[3D\x1b[1K", "    ef", id="el1"),
    pytest.param(b"abcdef\x1b[2Kxy", "      xy", id="el2-cursor-does-not-move"),
    pytest.param(b"abcdef\x1b[4D\x1b[2X", "ab  ef", id="ech"),
    pytest.param(b"abcdef\x1b[4D\x1b[2@", "ab  cdef", id="ich"),
    pytest.param(b"abcdef\x1b[4D\x1b[2P", "abef", id="dch"),
    pytest.param(b"ab\x1b[3b", "abbbb", id="rep"),
    # runs of LFs (blank lines; the core takes a run in one call): each is a line, wherever the cursor is
    pytest.param(b"\n\n\nx\n\n\n", "\n\n\nx\n\n\n", id="blank-lines-kept"),
    pytest.param(b"one\ntwo\nthree\x1b[2A\n\n\nX", "one\ntwo\nthree\nX", id="blank-lines-go-down-first"),
    pytest.param(b"a\n\n\n\x1b[2Jb", "a\n\n\nb", id="blank-lines-before-ed2"),
    pytest.param(b"\n\n\x1b[2Jb", "\n\nb", id="blank-lines-first-then-ed2"),
    pytest.param(b"\n\nx\x1b[2J\n\n\n", "\n\nx\n\n\n\n", id="blank-lines-around-ed2"),
    pytest.param(b"\x1b[3bx", "x", id="rep-without-previous-char"),
    # REP repeats only right after a printed character or a REP (SPEC 2.3 rev 2; tmux agrees on each)
    pytest.param(b"ab\r\n\x1b[3b\n", "ab\n\n", id="rep-after-lf-does-nothing"),
    pytest.param(b"ab\n\n\x1b[3b", "ab\n\n", id="rep-after-blank-lines-does-nothing"),
    pytest.param(b"ab\x1b[31m\x1b[3b", "ab", id="rep-after-sgr-does-nothing"),
    pytest.param(b"ab\x1b]0;t\x07\x1b[3b", "ab", id="rep-after-osc-does-nothing"),
    pytest.param(b"ab\r\x1b[3b", "ab", id="rep-after-cr-does-nothing"),
    pytest.param(b"ab\x1b[2b\x1b[1b", "abbbb", id="rep-after-rep-repeats"),
    pytest.param(b"ab\x7f\x1b[2b", "abbb", id="rep-after-ignored-del-repeats"),
    # horizontal moves
    pytest.param(b"abcdef\x1b[3GX", "abXdef", id="cha"),
    pytest.param(b"abcdef\x1b[3`X", "abXdef", id="hpa"),
    pytest.param(b"ab\x1b[3CX", "ab   X", id="cuf"),
    pytest.param(b"ab\x1b[3aX", "ab   X", id="hpr"),
    pytest.param(b"abcdef\x1b[2DX", "abcdXf", id="cub"),
    pytest.param(b"ab\x1b[99DX", "Xb", id="cub-stops-at-0"),
    pytest.param(b"ab\x1b[0CX", "ab X", id="zero-means-one"),
    # vertical moves: clamped to the window, never scroll, never create lines
    pytest.param(b"one\ntwo\x1b[AX", "oneX\ntwo", id="cuu"),
    pytest.param(b"one\ntwo\x1b[FX", "Xne\ntwo", id="cpl"),
    pytest.param(b"one\ntwo\x1b[9AX", "oneX\ntwo", id="cuu-clamped"),
    pytest.param(b"one\ntwo\x1b[A\x1b[BX", "one\ntwoX", id="cud"),
    pytest.param(b"one\ntwo\x1b[5BX", "one\ntwoX", id="cud-never-creates-lines"),
    pytest.param(b"one\ntwo\x1b[A\x1b[EX", "one\nXwo", id="cnl"),
    pytest.param(b"one\ntwo\x1bMX", "oneX\ntwo", id="ri"),
    pytest.param(b"a\x1bDb\x1bEc", "a\nb\nc", id="ind-nel"),
    # CUP, HVP, VPA: the window height is unknown, so a fresh line
    pytest.param(b"\x1b[1;1Hfoo\x1b[2;1Hbar", "foo\nbar", id="cup-fresh-line"),
    pytest.param(b"\x1b[Hfoo\x1b[1;5fbar", "foo\n    bar", id="hvp-column"),
    pytest.param(b"foo\n\x1b[5;1Hbar", "foo\nbar", id="cup-on-empty-line-stays"),
    pytest.param(b"foo\x1b[3dbar", "foo\n   bar", id="vpa-keeps-column"),
    # DECSC / DECRC, SCOSC / SCORC
    pytest.param(b"ab\x1b7cd\x1b8X", "abXd", id="decsc-decrc"),
    pytest.param(b"ab\x1b[scd\x1b[uX", "abXd", id="scosc-scorc"),
    pytest.param(b"abc\x1b8X", "Xbc", id="restore-without-save"),
    pytest.param(b"ab\x1b7\ncd\x1b8X", "abX\ncd", id="restore-moves-up"),
    # ED
    pytest.param(b"one\ntwo\nthree\x1b[2A\x1b[2D\x1b[J", "one", id="ed0-removes-lines-below"),
    pytest.param(b"one\ntwo\x1b[A\x1b[2D\x1b[J", "o", id="ed0-erases-to-end-of-line"),
    pytest.param(b"one\ntwo\x1b[2Jthree", "one\ntwo\nthree", id="ed2-commits"),
    pytest.param(b"one\n\x1b[2Jtwo", "one\ntwo", id="ed2-drops-empty-last-line"),
    pytest.param(b"\x1b[2J\x1b[Hhello", "hello", id="ed2-at-start"),
    pytest.param(b"one\x1b[3Jtwo", "one\ntwo", id="ed3"),
    pytest.param(b"one\x1bctwo", "one\ntwo", id="ris"),
    # the alternate screen
    pytest.param(b"before\n\x1b[?1049hfull screen\x1b[2J\x1b[H\x1b[?1049lafter\n", "before\nafter\n", id="alt-1049"),
    pytest.param(b"ab\x1b[?1049h\x1b[5Cxx\r\x1b[?1049lX", "abX", id="alt-1049-restores-cursor"),
    pytest.param(b"a\x1b[?1047hhidden\x1b[?1047lb", "ab", id="alt-1047"),
    pytest.param(b"a\x1b[?47hhidden\x1b[?47lb", "ab", id="alt-47"),
    pytest.param(b"a\x1b[?1049hhidden\x1bcb", "a\nb", id="ris-leaves-alt"),
    pytest.param(b"a\x1b[?1h\x1b[?1049;1hhidden\x1b[?1049lb", "ab", id="alt-among-other-modes"),
    # SPEC 2.3 rev 2: the alternate screen is a window of its own, committed if the stream ends on it
    pytest.param(b"before\r\n\x1b[?1049hUI\r\nKilled\r\nexit status 137\r\n",
                 "before\nUI\nKilled\nexit status 137\n", id="alt-never-left-is-shown-at-the-end"),
    pytest.param(b"main\x1b[?1049hUI\x1b[2Jdrawn", "main\ndrawn", id="alt-ed2-discards-then-end-shows"),
    pytest.param(b"a\x1b[?1049hx\ny\x1b[Az\x1b[?1049lb", "ab", id="alt-window-has-the-usual-rules"),
    # SPEC 2.3 rev 2: the status-line overlay (save, address, draw, restore), as apt draws its progress bar
    pytest.param(b"Preparing\r\n\x1b7\x1b[50;0f Progress: [ 20%] [###.......] \x1b8Unpacking pv ...\r\n",
                 "Preparing\nUnpacking pv ...\n", id="overlay-apt-status-line"),
    pytest.param(b"ab\x1b7\x1b[9;1Hbar\x1b[9;1Hbaz\x1b8X", "abX", id="overlay-restarts-at-each-cup"),
    pytest.param(b"ab\x1b7\x1b[9;1Hbar\x1b[Kx\rY\x1b8Z", "abZ", id="overlay-line-local-functions"),
    pytest.param(b"ab\x1b7cd\x1b[9;1Hbar\nX", "abcd\nX", id="overlay-ends-at-lf-from-origin"),
    pytest.param(b"ab\x1b7cd\x1b[9;1Hbar\n\nX", "abcd\n\nX", id="overlay-ends-at-blank-lines"),
    pytest.param(b"ab\x1b7cd\x1b[9dbar\x1b[AX", "abcdX", id="overlay-vpa-then-cuu"),
    pytest.param(b"ab\x1b7\x1b[9;3Hstatus", "ab\n  status", id="overlay-committed-at-end"),
    pytest.param(b"ab\n\x1b7\x1b[9;1Hstatus", "ab\nstatus", id="overlay-at-end-after-empty-line"),
    pytest.param(b"ab\x1b7\x1b[9;1H\x1b[K", "ab", id="overlay-empty-at-end-adds-nothing"),
    pytest.param(b"ab\x1b7\x1b[9;1Hbar\x1b7X", "abX", id="overlay-ends-at-save"),
    pytest.param(b"ab\x1b[9;1Hbar", "ab\nbar", id="no-saved-cursor-no-overlay"),
    # anything else has no effect on text
    pytest.param(b"a\x1b[2;5rb\x1b[?7lc\x1b[4hd", "abcd", id="scroll-region-and-modes"),
]


@pytest.mark.parametrize(("data", "expected"), CASES)
def test_render(impl, data, expected):
    assert_transcript(impl, data, expected)


def test_alt_screen_keep(impl):
    assert_transcript(impl, b"a\x1b[?1049hb\x1b[?1049lc", "abc", alt_screen="keep")


@pytest.mark.parametrize("max_jump", [0, 1, 7])
def test_tab_is_never_clamped_by_max_jump(impl, max_jump):
    # SPEC 2.3 rev 2: plain text with tabs comes back unchanged whatever max_jump is.
    assert_transcript(impl, b"a\tb\n\tc\td\n", "a\tb\n\tc\td\n", max_jump=max_jump)


@pytest.mark.parametrize(("count", "blanks"), [(2, 2), (3, 3), (4, 3), (65535, 3)])
def test_ich_inserts_at_most_max_jump_blanks(impl, count, blanks):
    # SPEC 2.3 bounds: ICH inserts at most max_jump blanks, and cuts the line at max_line_cells
    assert_transcript(impl, b"abc\r\x1b[%d@" % count, " " * blanks + "abc", max_jump=3)
    assert_transcript(impl, b"abc\r\x1b[%d@" % count, (" " * blanks + "abc")[:5], max_jump=3, max_line_cells=5)


def test_tab_is_bounded_by_max_line_cells(impl):
    assert impl.sanitize(b"abcde\tX", max_line_cells=6) == "abcde\nX"


def test_tabs_expand(impl):
    assert_transcript(impl, b"a\tb", "a       b", tabs="expand")
    assert_transcript(impl, b"a\t", "a", tabs="expand")


def test_committed_lines_never_change(impl):
    decoder = impl.TranscriptDecoder(live_lines=2)
    assert decoder.decode(b"one\ntwo\nthree\n") == "one\ntwo\n"
    assert decoder.live == "three\n"
    assert decoder.decode(b"\x1b[9AX") == ""  # CUU cannot reach committed lines
    assert decoder.live == "Xhree\n"
    assert decoder.decode(b"", final=True) == "Xhree\n"


def test_live_shows_the_window(impl):
    decoder = impl.TranscriptDecoder()
    assert decoder.decode(b"downloading 10%") == ""
    assert decoder.live == "downloading 10%"
    decoder.decode(b"\rdownloading 90%")
    assert decoder.live == "downloading 90%"
    assert decoder.decode(b"\n", final=True) == "downloading 90%\n"
    assert decoder.live == ""


def test_max_live_cells_commits_top_line_but_not_cursor_line(impl):
    decoder = impl.TranscriptDecoder(max_live_cells=10)
    assert decoder.decode(b"0123456789abc") == ""  # the cursor's line stays live however long
    assert decoder.decode(b"\nx") == "0123456789abc\n"


def test_max_live_cells_commits_at_blank_lines(impl):
    # The cursor's line holds more than max_live_cells and the line below it is live: the first LF only moves
    # down to that line (the line it left cannot be committed before the next LF); the next LFs, taken at
    # once by the core, append lines and commit it, as one LF at a time does.
    decoder = impl.TranscriptDecoder(max_live_cells=12)
    assert decoder.decode(b"ab\nab\x1b[Ahello world") == ""
    assert decoder.decode(b"\n\n\n") == "abhello world\n"
    assert decoder.live == "ab\n\n"


def test_stats_cells_overwritten_and_alt_dropped(impl):
    decoder = impl.TranscriptDecoder()
    decoder.decode(b"abc\rxy\x1b[K\x1b[?1049hhidden\x1b[?1049l", final=True)
    assert decoder.stats["cells_overwritten"] == 3  # a, b overwritten, c erased
    assert decoder.stats["alt_screen_dropped"] == 6


def test_live_shows_the_alternate_window_and_the_overlay(impl):
    decoder = impl.TranscriptDecoder()
    assert decoder.decode(b"shell\r\n\x1b[?1049hvim screen") == ""
    assert decoder.live == "vim screen"
    assert decoder.decode(b"\x1b[?1049l") == ""
    assert decoder.live == "shell\n"
    decoder.decode(b"\x1b7\x1b[24;1H[50%]")
    assert decoder.live == "shell\n\n[50%]"  # the window, then the status line being drawn
    decoder.decode(b"\x1b8done")
    assert decoder.live == "shell\ndone"
    assert decoder.stats["alt_screen_dropped"] == len("vim screen")
    assert decoder.stats["overlay_dropped"] == len("[50%]")


def test_live_adds_no_line_for_an_overlay_without_text(impl):
    """An overlay line of cells but no text (a tab span cut short at max_line_cells prints as blanks) is not
    a line of ``live``; the core once added an empty one (found by a differential run)."""
    decoder = impl.TranscriptDecoder(max_line_cells=5)
    decoder.decode(b"ab\x1b7\x1b[5;1H\t")
    assert decoder.live == "ab"
    decoder.decode(b"x")
    assert decoder.live == "ab\nx"  # due at max_line_cells: a new line, as LF (which ends the overlay)


def test_alternate_window_lines_pushed_out_are_dropped(impl):
    decoder = impl.TranscriptDecoder(live_lines=2)
    assert decoder.decode(b"kept\n\x1b[?1049hone\ntwo\nthree\n") == ""
    assert decoder.live == "three\n"
    assert decoder.decode(b"\x1b[?1049l") == ""
    assert decoder.live == "kept\n"
    assert decoder.stats["alt_screen_dropped"] == len("onetwothree")


def test_final_readies_a_new_stream(impl):
    decoder = impl.TranscriptDecoder()
    assert decoder.decode(b"a\x1b[?1049hb", final=True) == "a\nb"
    assert decoder.decode(b"c", final=True) == "c"


# Lines that a full window commits one at a time (a line feed that is not part of a text run: after a tab, a
# BS, an ESC 7) are held by the fallback and their text made together (LineWindow.flush; round 51). Each
# call still returns exactly the lines it committed, whatever the other window or the overlay is doing, and
# what is held stays within _HELD_LINES lines and _HELD_CELLS cells (a call's memory is its output's).
HELD_STREAMS = [
    b"".join(b"%d\t\x08\n" % i for i in range(700)),  # past _HELD_LINES in one call
    b"".join(b"%d\t\x1b7\n" % i for i in range(300)) + b"\x1b[?1049hon the alternate screen\n\t\x08\n"
    + b"".join(b"%d\t\x08\n" % i for i in range(300)) + b"\x1b[?1049lback\t\x08\n",
    b"".join(b"%d\t\x08\n" % i for i in range(300)) + b"\x1b7\x1b[24;1Hstatus\x1b8" + b"x\t\x08\n" * 5,
    b"".join(b"%d\t\x08\n" % i for i in range(300)) + b"\x1b[2J" + b"y\t\x08\n" * 300 + b"\x1bc" + b"z\t\x08\n" * 3,
    b"".join(b"%d\t\x08\n" % i for i in range(250)) + b"\x1b[Ktext run\nand more\n" + b"w\t\x08\n" * 3,
]


@pytest.mark.parametrize("stream", HELD_STREAMS)
@pytest.mark.parametrize("cut", [1, 997, 4096, 1 << 20])
def test_lines_committed_one_at_a_time_come_out_with_the_call_that_commits_them(both, stream, cut):
    from helpers import calls

    chunks = [stream[at : at + cut] for at in range(0, len(stream), cut)]
    assert calls(both[0], chunks, {}) == calls(both[1], chunks, {})


def test_lines_held_for_their_commit_stay_few(monkeypatch):
    from acp_transcript import _decoder_py, _window_py

    seen = []
    flush = _window_py.LineWindow.flush

    def counted(window):
        seen.append((len(window.held), window.held_cells))
        flush(window)

    monkeypatch.setattr(_window_py.LineWindow, "flush", counted)
    decoder = _decoder_py.TranscriptDecoder()
    short = b"".join(b"%d\t\x08\n" % i for i in range(1000))
    long = b"".join(b"%d%s\t\x08\n" % (i, b"x" * 3000) for i in range(300))
    out = decoder.decode(short + long)
    assert out.count("\n") == 1300 - 200 + 1  # (the window keeps live_lines, the cursor's empty line among them)
    lines, cells = zip(*seen)
    assert max(lines) == _window_py._HELD_LINES  # the short lines: flushed by their count...
    assert max(cells) < _window_py._HELD_CELLS + 3010  # ...the long ones by their cells
    assert any(_window_py._HELD_CELLS <= c and n < 30 for n, c in seen)
    assert not decoder._render.window.held  # the call ends with none held


# The alternate screen and a status-line overlay make a window each time they begin; the core's takes the
# array of lines the last one left and the line buffers committed or dropped lines left (as many as fit in
# SPARE_CELLS; round 60). Each window shows only its own text, whatever the one before held: sessions of
# fewer and more lines than the spares hold, lines of bytes, of Latin-1, of wide cells and of tab spans,
# and lines longer than a buffer the spares keep.
SESSION_LINES = [
    b"short", b"x" * 300, "\u00e9t\u00e9 ".encode() * 40, "\u4e2d".encode() * 90, b"a\tb\tc", b"y" * 5000, b"",
]


@pytest.mark.parametrize("count", [1, 3, 40, 300])
def test_windows_made_again_show_only_their_own_text(both, count):
    from helpers import calls

    chunks = []
    for first in range(len(SESSION_LINES)):
        lines = [SESSION_LINES[(first + i) % len(SESSION_LINES)] for i in range(count)]
        # (the alternate window and the overlay are read through live, so a call ends on each of them)
        chunks.append(b"\x1b[?1049h" + b"\r\n".join(lines) + b"\x1b[3;1H" + lines[-1][:7])
        chunks.append(b"\x1b[?1049lmain\r\n")
        chunks.append(b"\x1b7\x1b[24;1H" + lines[0][:200] + b"\x1b[24;1Hz")
        chunks.append(b"\x1b8" + lines[-1] + b"\r\n")
        chunks.append(b"\r\n".join(lines[::-1]) + b"\x1b[2J")
    assert calls(both[0], chunks, {}) == calls(both[1], chunks, {})
    assert calls(both[0], chunks, {"live_lines": 5}) == calls(both[1], chunks, {"live_lines": 5})
