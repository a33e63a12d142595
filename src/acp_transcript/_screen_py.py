"""The screen sink (SPEC 2.8, rev 2): sized rendering, a ``columns`` x ``rows`` terminal as tmux runs it.

When ACP tells the Client the terminal's size, the live window is the screen: rows addressed absolutely,
auto-wrap at the right margin, scroll regions, and lines that scroll off the top go to the history (they
are committed). The transcript is that terminal's history followed by its final screen, which is what
``tmux capture-pane -p -J -S -`` prints for a window of the same size; tmux 3.3a's ``screen-write.c`` and
``input.c`` are the reference, and the methods below carry the names of the tmux functions they follow.

Cells are one-character strings with the cell kinds of ``_defs`` (``BLANK``: never written or cleared;
``PAD``: the second cell of a wide character); a cell may carry zero-width characters
after its character while the cell's UTF-8 fits in 21 bytes (tmux's limit). Rows keep only the cells
up to their last written one (they never end in ``BLANK``), so a tall screen costs nothing until it is
drawn on. A row is a ``str``, one character a cell, as the unsized window's lines are (``_window_py``): an
edit is slices and a concatenation, and a count or a comparison over a range is a C-level ``count``,
``find`` or ``startswith``, so that REP, EL, ECH, ICH or DCH over a row of 65,535 columns are a few copies
at memory speed (a list of 65,535 one-character cells took 33-110 us for any operation over it: 0.01-0.8
MB/s, benchmarks/README.md, round 30). A cell's marks are kept beside its row: a row with marks has a
second str of the same length (``Screen.marks``), ``NO_MARK`` where a cell has none and a code elsewhere
(``MARK_BASE`` plus an index into the row's list of mark strings), edited with the same slices as the row,
so that marks move with their cells and cost nothing where there are none. Character widths come from the
committed table ``_widths`` (one Unicode version for both twins).
The Cython twin is ``_screen_c.pxi``.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, MutableSequence, Sequence
from functools import lru_cache
from typing import TypeVar

from . import _defs
from ._defs import (
    ALT_SCREEN_MODES,
    BS,
    CR,
    DECAWM,
    DECOM,
    DECRC,
    DECSC,
    HT,
    IND,
    IRM,
    MAX_CELL_BYTES,
    MAX_SIZE,
    NEL,
    RI,
    RIS,
    SAVE_CURSOR_MODE,
    Options,
)
from ._widths import WIDE, ZERO
from ._window_py import _LONG_LINE, repeated, splice

BLANK = chr(_defs.BLANK)
PAD = chr(_defs.PAD)
ZWJ = "\u200d"
_Item = TypeVar("_Item")  # a row, its wrapped flag, its used count or its busy flag (Screen's parallel sequences)
# A row's marks: a str of codes, one a cell, and the mark strings they index. A code is ``NO_MARK`` for a cell
# without marks, a code point from ``MARK_BASE`` on for the others (its index in the row's list, which is
# compacted at twice the row's length: ScreenSink.combine). Both take two bytes a character, so the codes are
# a two-byte str whose runs of NO_MARK the probes of _run compare with a memcmp (a str of one kind against
# another is compared a character at a time) while a row's list has fewer than 65,279 strings. The codes
# reach the row's last marked cell, not always its end (past them, no cell has marks): a write or an erase
# past them leaves them as they are, so a wide row with a mark near its start costs short splices (round 31).
Marks = tuple[str, list[str]]
NO_MARK = "\u0100"
MARK_BASE = 0x101

# The tables hold inclusive ranges; as half-open bounds, a code point is inside one exactly when
# bisect_right lands on an odd index.
_ZERO = tuple(value + (index & 1) for index, value in enumerate(ZERO))
_WIDE = tuple(value + (index & 1) for index, value in enumerate(WIDE))
# Text that is all one-cell characters (most of it): below U+0300 the table has no zero-width or wide
# character (``tests/test_widths.py`` checks), and the parser never prints a control.
_ASCII_RUN = re.compile("[\x20-\x7e]*")
_SPACES = re.compile(" *")
_HOLDING = re.compile(f"[^{re.escape(BLANK)}{re.escape(PAD)}]+")  # cells that hold a character
NARROW_BELOW = 0x300
WIDE_BELOW = 0x1100  # no character below is wide (tests/test_widths.py checks)


def _bmp_class(table: tuple[int, ...]) -> str:
    """The table's ranges below U+10000 as a regex class body. re keeps a class of BMP characters as a
    bitmap, one lookup per character; with astral ranges in it, it tests every range in turn (30 times
    slower with these tables)."""
    return "".join(f"\\u{start:04x}-\\u{min(end, 0xFFFF):04x}" for start, end in zip(table[::2], table[1::2])
                   if start < 0x10000)


_ZERO_BMP, _WIDE_BMP = _bmp_class(ZERO), _bmp_class(WIDE)
# Runs of non-ASCII BMP characters of one width (put_run; astral characters take put_char), exact: the
# tables are disjoint (tests/test_widths.py).
_NARROW_RUN = re.compile(f"[^\\x00-\\x7e{_ZERO_BMP}{_WIDE_BMP}\\U00010000-\\U0010ffff]*")
_WIDE_RUN = re.compile(f"[{_WIDE_BMP}]*")
# Text of one-cell characters (the frames Parser.fold_frames may skip, which its byte pattern keeps to
# printable BMP without C1): no zero-width or wide character.
_NARROW_TEXT = re.compile(f"[^\\x00-\\x1f\\x7f{_ZERO_BMP}{_WIDE_BMP}\\U00010000-\\U0010ffff]*")
# A character of one or two cells: printable BMP, not zero-width. Text of them (text_cells; fullmatch), and
# a frame's text that the parser may skip (ScreenSink.cell_frames; match from its start: they, or none).
_CELL_CHAR = f"[^\\x00-\\x1f\\x7f{_ZERO_BMP}\\U00010000-\\U0010ffff]"
_CELL_TEXT = re.compile(_CELL_CHAR + "+")
_FRAME_TEXT = re.compile(_CELL_CHAR + "*")
_WIDE_BMP_CHAR = re.compile(f"[{_WIDE_BMP}]")
# Padding that does not follow its wide character (a cell of one character): what put_char would clear
# around when writing over it (_clean_prefix). Padding first, then the cell before it: the astral ranges make
# the class slow, so it is tried only at padding (a lookbehind first tried it at every cell: 35 us a search
# of a 1000-cell row of CJK, 60 of ASCII, now 4.7 and 0.4).
_WIDE_CLASS = "".join(f"\\U{start:08x}-\\U{end:08x}" for start, end in zip(WIDE[::2], WIDE[1::2]))
_ORPHAN_PAD = re.compile(f"{PAD}(?<![{_WIDE_CLASS}]{PAD})")
_WIDE_SPLIT = re.compile(f"([{_WIDE_BMP}]+)")
# Text of one- and two-cell characters with zero-width ones after some of them (_marked_cells; fullmatch):
# printable BMP, a character of its own first, no ZWJ (which makes the character after it a mark: put_char).
_MARKED_TEXT = re.compile(f"[^\\x00-\\x1f\\x7f{_ZERO_BMP}\\U00010000-\\U0010ffff]"
                          f"[^\\x00-\\x1f\\x7f\\u200d\\U00010000-\\U0010ffff]*")
_MARK_SPLIT = re.compile(f"([{_ZERO_BMP}]+)")
# Text of one-cell and zero-width characters, no ZWJ (put_stuck_marked); its leading marks, and its characters
# but the marks (_MARK_SPLIT takes the marks out)
_STUCK_TEXT = re.compile(f"[^\\x00-\\x1f\\x7f\\u200d{_WIDE_BMP}\\U00010000-\\U0010ffff]*")
_MARKS = re.compile(f"[{_ZERO_BMP}]*")
_NOT_MARKS = re.compile(f"[^{_ZERO_BMP}]+")
# Characters of at most two, or three, bytes of UTF-8 (_fitting_marks)
_TWO_BYTE_CHAR = re.compile("[\x00-\u07ff]")
_BMP_CHAR = re.compile("[\x00-\uffff]")
# combine takes the first four marks of a cell without measuring it (a cell of five characters is 20 bytes of
# UTF-8 at most): runs up to this long are all kept, whatever the cell holds
_MARKS_UNMEASURED = 4
# One-cell characters, each with at most _MARKS_UNMEASURED zero-width ones after it but ZWJ (decomposed accents,
# Devanagari or Thai typed in insert mode: put_inserted's marked runs)
_MARKED_NARROW_RUN = re.compile(f"(?:[^\\x00-\\x1f\\x7f{_ZERO_BMP}{_WIDE_BMP}\\U00010000-\\U0010ffff]"
                                f"(?:(?!\\u200d)[{_ZERO_BMP}]){{0,{_MARKS_UNMEASURED}}})*")


def char_width(char: str) -> int:
    """Cells taken by ``char`` (SPEC 2.8): 0 (it joins the character before it), 1 or 2."""
    code = ord(char)
    if code < NARROW_BELOW:
        return 1
    if bisect_right(_ZERO, code) & 1:
        return 0
    return 2 if bisect_right(_WIDE, code) & 1 else 1


def row_text(row: str, marks: Marks | None = None) -> str:
    """A row's text: each cell's marks after it, padding cells dropped, blank cells as spaces (a row never
    ends in a blank)."""
    text = row if marks is None else _with_marks(row, marks)
    if PAD in text:
        text = text.replace(PAD, "")
    if BLANK in text:
        text = text.replace(BLANK, " ")
    return text


def _with_marks(row: str, marks: Marks) -> str:
    """``row`` with each cell's marks after its character (a regex finds the marked cells)."""
    codes, strings = marks
    parts = []
    at = 0
    for found in _MARKED_CODE.finditer(codes):
        x = found.start()
        parts.append(row[at : x + 1])
        parts.append(strings[ord(codes[x]) - MARK_BASE])
        at = x + 1
    parts.append(row[at:])
    return "".join(parts)


def _written(row: str) -> int:
    """Cells holding a character (a cell's marks do not change what it holds). A short row's blanks and
    padding are counted here, as _unwritten counts them, without its call (a row pushed off a region's edge
    at 1000 columns: about a tenth of x then RI; round 54)."""
    size = len(row)
    if size < _COUNT_SPAN:
        return size - row.count(BLANK) - (row.count(PAD) if PAD in row else 0)
    return size - _unwritten(row, 0, size)


def set_cells(row: str, x: int, stop: int, cells: str) -> str:
    """``row`` with its cells [x, stop) replaced by ``cells`` (x <= len(row)); a long row with as few copies
    of it as the window's lines (_window_py.splice: one, where the slices and concatenation make two or
    three)."""
    if len(row) >= _LONG_LINE:
        return splice(row, x, stop if stop < len(row) else len(row), cells)
    if stop < len(row):
        return row[:x] + cells + row[stop:]
    return row[:x] + cells


# A row's used count (Screen.used) is at most its columns, below 2**16: four bytes an entry, not eight, as each
# row that moves moves an entry of it (IL in the middle of 65,535 rows: an insert into it was a third of the
# time; round 38)
_NO_USE = array("I", [0])

# Spare entries beyond half a screen's rows that Screen keeps before its first row (at most) or makes at once
_SPARE_ROWS = 16
# Screen moves the rows above a row that leaves or comes in, not the ones below, when they are at most
# _FEW_ABOVE against more than _MANY_BELOW: those above move as slices (a new list of them, references
# counted, a call for each of the five sequences: about 1 us for a few rows), those below with a memmove
# each (about 1 ns a row). Slices in the middle of a 1000-row screen halved IL's and DL's speed there (1.4 ->
# 0.6 MB/s), and spare entries cost an 80x24 screen's blocks of lines 5% (benchmarks/README.md, round 33): a
# screen of up to _MANY_BELOW rows has none. The first test is the cheap one: most moves are in the middle.
_FEW_ABOVE = 64
_MANY_BELOW = 2048
# While a region's scrolls lag (ScreenSink.scroll_up_lagged, scroll_down_lagged), the CSI functions that read
# or move rows by their place on the screen settle first: ED, SU, SD, and DECSTBM, which changes the region the
# lag belongs to. The row edits settle first unless the cursor is on the one row the lag leaves where it is
# (lag_row): EL, ECH, ICH and DCH (an erase of the whole row unwraps the row above it: after line feeds the last
# of the rows the lag holds aside, unwrap; after RI the row above the region, on the screen), and IL and DL,
# which on the region's last row only empty it (on its top row, RI's, they move the region's rows). The rest
# (cursor moves, saves, flags) touch no row.
_SETTLES_LAG = frozenset(b"JSTr")
_ROW_EDITS = frozenset(b"KX@P")
_LINE_MOVES = frozenset(b"LM")


def screen_size(options: Options) -> tuple[int, int]:
    """(columns, rows) of the screen. A dimension that is not given: as wide as a line may be, as tall as
    the live window (each at most MAX_SIZE)."""
    columns = options.columns or min(options.max_line_cells, MAX_SIZE)
    rows = options.rows or min(options.live_lines, options.max_live_cells, MAX_SIZE)
    return columns, rows


class Screen:
    """One grid: ``rows`` of cells, their ``marks``, and each row's wrapped flag (its line goes on in the next
    row).

    The per-row numbers are a ``bytearray`` and an ``array``, not lists: moving rows (a scroll) moves every
    one of them with a memmove and no reference counting, a third of a list's time for one row.

    Row y is at index ``base + y`` of each of these sequences, not at y: the entries before it are spare
    (empty rows), so that on a screen taller than _MANY_BELOW rows a row that leaves or comes in near the top
    moves the rows above it, not the ones below (remove_row, insert_row). A line feed at the bottom of a
    65,535-row screen moved every row, 1 MB of memmove a line (0.146 MB/s; IL at row 2 0.34:
    benchmarks/README.md, round 33). The core keeps its rows' order the same way, a window into a block with
    spare entries (_screen_c.pxi: screen_shift). In the middle of such a screen neither has a short side."""

    __slots__ = ("rows", "marks", "wrapped", "used", "cells", "busy", "base")

    def __init__(self, height: int) -> None:
        self.base = 0  # spare entries before row 0, each an empty row (tests/test_screen.py checks)
        self.rows: list[str] = [""] * height
        # each row's marks (None: no cell of the row has any); None until a cell of the screen has marks, so that
        # a screen without them moves four sequences a scroll, not five
        self.marks: list[Marks | None] | None = None
        self.wrapped = bytearray(height)  # 1: the row's line goes on in the next row
        # tmux's cellused: how far cells were set since the row was last emptied, even if they were cleared
        # since. A wrapped row's text reaches that far (capture-pane -J does not trim it), and a row with
        # some is used (EL 2 and the scroll-on-clear of ED 2 look at it).
        self.used = _NO_USE * height
        self.cells = 0  # sum of the row lengths (SPEC 2.8: bounded by max_live_cells)
        # busy[y] is 0 when row y is blank (what ScreenSink.empty_row leaves: no cells, no used count, not
        # wrapped), 1 when it may hold something: set by every write (touch), cleared by empty_row, and moved
        # with the rows by the same list operations. Erases and the last-row scans then find the rows that
        # hold something with bytearray.find (memchr) instead of testing each row in Python: ED 2 repeated on
        # an empty 1000-row screen looked at every row, 0.01 MB/s (benchmarks/README.md, round 14). The
        # Cython twin keeps the same flag as the top bit of each row's entry in its row order, inside a range
        # of busy rows (Screen in _screen_c.pxi).
        self.busy = bytearray(height)

    def row_count(self) -> int:
        """The rows of the screen (one fewer between a remove_row and its insert_row)."""
        return len(self.rows) - self.base

    def remove_row(self, y: int) -> None:
        """remove_rows(y, y + 1); where the rows below move, by items (a line's IL or DL in the middle of a
        1000-row screen: slices and the call cost 0.4 us of its 2.2)."""
        if y > _FEW_ABOVE or len(self.rows) - self.base - y <= _MANY_BELOW + 1:
            entry = self.base + y
            del self.rows[entry]
            if self.marks is not None:
                del self.marks[entry]
            del self.wrapped[entry], self.used[entry], self.busy[entry]
            return
        self.remove_rows(y, y + 1)

    def remove_rows(self, a: int, b: int) -> None:
        """Rows [a, b) leave; the rows below them move up. When they and the rows above them are few against
        many below (_FEW_ABOVE), the rows above move down instead, over spare entries (the spare entries are cut
        back to half the rows once they outnumber them: an O(rows) memmove once per rows/2 rows removed)."""
        base = self.base
        n = b - a
        if b > _FEW_ABOVE + 1 or len(self.rows) - base - b <= _MANY_BELOW:
            self.delete_entries(slice(base + a, base + b))
            return
        if a:
            self.set_entries(slice(base + n, base + a + n), self.entries(slice(base, base + a)))
        self.empty_entries(base, base + n)
        base += n
        count = len(self.rows) - base
        if base > count + _SPARE_ROWS:
            base = self.cut_spare(base, count)
        self.base = base

    def cut_spare(self, base: int, count: int) -> int:
        """The spare entries before row 0 (``base`` of them, over ``count`` rows) cut back to half the rows
        and _SPARE_ROWS, once they outnumber the rows by more than _SPARE_ROWS: an O(rows) memmove once per
        rows/2 rows that left the top. Returns the new base."""
        cut = base - (count // 2 + _SPARE_ROWS)
        self.delete_entries(slice(0, cut))
        return base - cut

    def insert_row(self, y: int) -> None:
        """An empty row at y; the rows from y move down. When few are above it against many below
        (_FEW_ABOVE), the rows above move up instead, into a spare entry (none left: rows/2 more are
        made: make_spare)."""
        if y > _FEW_ABOVE or len(self.rows) - self.base - y <= _MANY_BELOW:
            entry = self.base + y
            self.rows.insert(entry, "")
            if self.marks is not None:
                self.marks.insert(entry, None)
            self.wrapped.insert(entry, 0)
            self.used.insert(entry, 0)
            self.busy.insert(entry, 0)
            return
        self.make_spare(1)
        base = self.base - 1
        if y:
            self.set_entries(slice(base, base + y), self.entries(slice(base + 1, base + y + 1)))
        self.empty_entries(base + y, base + y + 1)
        self.base = base

    def move_row(self, gone: int, new: int) -> None:
        """remove_row(gone), then insert_row(new): a scroll of one row (a line feed at the bottom of a region,
        DL, RI, SD). On a screen of up to _MANY_BELOW rows both take items of the lists where they are: one
        call and one test for both (a line feed's scroll at 80x24 spent 5,600 instructions in the two; round
        50)."""
        rows = self.rows
        base = self.base
        count = len(rows) - base
        if count > _MANY_BELOW:
            self.remove_row(gone)
            self.insert_row(new)
            return
        wrapped, used, busy = self.wrapped, self.used, self.busy
        marks = self.marks
        if not gone and new == count - 1:
            # The top row leaves and a row comes in at the bottom (a line feed at the screen's bottom, DL at
            # its top): the top entry becomes a spare one and the new row is appended, where deleting the
            # entry moved every row's (IND at 80x1000: 10 memmoves of the lists; round 52). The spare
            # entries are cut back as remove_rows cuts them, an O(rows) memmove once per rows/2 line feeds.
            rows[base] = ""
            rows.append("")
            if marks is not None:
                marks[base] = None
                marks.append(None)
            wrapped[base] = used[base] = busy[base] = 0
            wrapped.append(0)
            used.append(0)
            busy.append(0)
            base += 1
            if base > count + _SPARE_ROWS:
                base = self.cut_spare(base, count)
            self.base = base
            return
        if not new and gone == count - 1:
            # The bottom row leaves and a row comes in at the top (RI at the screen's top, IL on its top row):
            # it takes a spare entry before row 0, which is an empty row already (none left: rows/2 more are
            # made, as insert_row makes them).
            if not base:
                self.make_spare(1)
                base = self.base
            del rows[-1]
            if marks is not None:
                del marks[-1]
            del wrapped[-1], used[-1], busy[-1]
            self.base = base - 1
            return
        gone += base
        new += base
        del rows[gone]
        rows.insert(new, "")
        if marks is not None:
            del marks[gone]
            marks.insert(new, None)
        del wrapped[gone], used[gone], busy[gone]
        wrapped.insert(new, 0)
        used.insert(new, 0)
        busy.insert(new, 0)

    def rotate_ends(self, d: int) -> None:
        """rotate(0, rows, d) by moving only the |d| rows that go round: up (d < 0), the top ones leave over
        spare entries (remove_rows) and are appended; down, the bottom ones leave and go into spare entries."""
        k = abs(d)
        rows = len(self.rows)
        ends = slice(self.base, self.base + k) if d < 0 else slice(rows - k, rows)
        moved = self.entries(ends)
        if d < 0:
            self.remove_rows(0, k)
            ends = slice(len(self.rows), len(self.rows))  # (appended)
        else:
            self.delete_entries(ends)
            self.make_spare(k)
            self.base -= k
            ends = slice(self.base, self.base + k)
        self.set_entries(ends, moved)

    def make_spare(self, n: int) -> None:
        """At least n spare entries before row 0: when there are fewer, half the rows (and n, and _SPARE_ROWS)
        more at once, an O(rows) memmove once per rows/2 of them taken."""
        if self.base >= n:
            return
        grow = (len(self.rows) - self.base) // 2 + _SPARE_ROWS + n
        self.rows[:0] = [""] * grow
        if self.marks is not None:
            self.marks[:0] = [None] * grow
        self.wrapped[:0] = bytes(grow)
        self.used[:0] = _NO_USE * grow
        self.busy[:0] = bytes(grow)
        self.base += grow

    def delete_entries(self, where: slice) -> None:
        """The entries ``where`` leave each sequence."""
        del self.rows[where]
        if self.marks is not None:
            del self.marks[where]
        del self.wrapped[where], self.used[where], self.busy[where]

    def entries(self, where: slice) -> tuple:  # type: ignore[type-arg]
        """The entries ``where`` of each sequence (marks None when the screen has none)."""
        return (self.rows[where], self.marks[where] if self.marks is not None else None, self.wrapped[where],
                self.used[where], self.busy[where])

    def set_entries(self, where: slice, entries: tuple) -> None:  # type: ignore[type-arg]
        """``entries`` (from entries()) over the entries ``where`` of each sequence, as many or, at an end, more."""
        self.rows[where], marks, self.wrapped[where], self.used[where], self.busy[where] = entries
        if self.marks is not None:
            self.marks[where] = marks

    def empty_entries(self, start: int, stop: int) -> None:
        """The entries [start, stop) of each sequence hold empty rows."""
        n = stop - start
        if n == 1:  # (a line feed's row: items, not slices of new objects)
            self.rows[start] = ""
            if self.marks is not None:
                self.marks[start] = None
            self.wrapped[start] = self.used[start] = self.busy[start] = 0
            return
        self.rows[start:stop] = [""] * n
        if self.marks is not None:
            self.marks[start:stop] = [None] * n
        self.wrapped[start:stop] = bytes(n)
        self.used[start:stop] = _NO_USE * n
        self.busy[start:stop] = bytes(n)

    def rotate(self, a: int, b: int, d: int) -> None:
        """Rotate rows [a, b) by d (0 < |d| < b - a): the row at y goes to y + d, the |d| pushed past one end
        come in at the other. The whole of a screen taller than _MANY_BELOW rows by a few (SU or SD of the
        screen, ED 2 after a row near the top: 0.23-0.45 MB/s at 65,535 rows, each a memmove of all of them;
        benchmarks/README.md, round 33): the few go round over the spare entries, as the core's window moves."""
        count = len(self.rows) - self.base
        if a == 0 and b == count and count > _MANY_BELOW:
            if 2 * abs(d) > count:  # (the shorter way round, as _rotate)
                d = d - count if d > 0 else d + count
            if abs(d) <= _FEW_ABOVE:
                self.rotate_ends(d)
                return
        a += self.base
        b += self.base
        _rotate(self.rows, a, b, d)
        if self.marks is not None:
            _rotate(self.marks, a, b, d)
        _rotate(self.wrapped, a, b, d)
        _rotate(self.used, a, b, d)
        _rotate(self.busy, a, b, d)

    def touch(self, y: int) -> None:
        """Row y may hold something now (cells, a used count, the wrapped flag)."""
        self.busy[self.base + y] = 1

    def busy_rows(self, a: int, b: int) -> list[int]:
        """The rows of [a, b) that may hold something, top to bottom."""
        busy, base = self.busy, self.base
        found = []
        y = busy.find(1, base + a, base + b)
        while y >= 0:
            found.append(y - base)
            y = busy.find(1, y + 1, base + b)
        return found

    def last_used(self) -> int:
        """The index of the last used row, -1 if none."""
        busy, used, base = self.busy, self.used, self.base
        y = busy.rfind(1, base)
        while y >= 0 and not used[y]:
            y = busy.rfind(1, base, y)
        return y - base if y >= 0 else -1

    def last_text(self) -> int:
        """The index of the last row with cells, -1 if none."""
        busy, rows, base = self.busy, self.rows, self.base
        y = busy.rfind(1, base)
        while y >= 0 and not rows[y]:
            y = busy.rfind(1, base, y)
        return y - base if y >= 0 else -1

    def row_text(self, y: int) -> str:
        """Row y's text; a wrapped row goes on as far as it was used (blanks as spaces), as its line does."""
        entry = self.base + y
        row = self.rows[entry]
        text = row_text(row, self.marks[entry] if self.marks is not None else None)
        if self.wrapped[entry]:
            missing = self.used[entry] - len(row)
            if missing > 0:
                text += " " * missing
        return text

    def text(self, stop: int) -> str:
        """Rows [0, stop) as transcript text: each row ends with a line break unless it is wrapped. A run of
        blank rows (``busy``: no cells, not wrapped) is its line breaks in one piece, found by
        bytearray.find: a row at a time, ``live`` on an 80x65,535 screen with one row written at its bottom
        took 14.7 ms, and 201 us at 1000 rows; now 5.5 and 1.8 us (benchmarks/README.md, round 42)."""
        parts = []
        wrapped, busy, base = self.wrapped, self.busy, self.base
        end = base + stop
        entry = base
        while entry < end:
            blank_until = busy.find(1, entry, end)
            if blank_until < 0:
                blank_until = end
            if blank_until > entry:
                parts.append("\n" * (blank_until - entry))
            entry = busy.find(0, blank_until, end)
            if entry < 0:
                entry = end
            for y in range(blank_until - base, entry - base):
                parts.append(self.row_text(y))
                if not wrapped[base + y]:
                    parts.append("\n")
        return "".join(parts)


class ScreenSink:
    """The sized renderer: the parser's sink (``_parser_py.Sink``) over a ``Screen`` (and a second one while
    the alternate screen is active)."""

    csi_finals = frozenset(b"@ABCDEFGHJKLMPSTXZ`bdfhlrsu")
    # (a frame the parser may skip, and its cells: frame_limit)
    cell_frames = (_NARROW_TEXT, _FRAME_TEXT, _WIDE_BMP_CHAR, chr(WIDE[0]))

    def __init__(self, stats: dict[str, int], emit: Callable[[str], None], options: Options) -> None:
        self.stats = stats
        self.emit = emit
        self.drop_alt = options.alt_screen == "drop"
        self.max_live_cells = options.max_live_cells
        self.columns, self.height = screen_size(options)
        self.reset()

    def reset(self) -> None:
        self.screen = Screen(self.height)
        self.main: Screen | None = None  # the main screen while the alternate one is active
        self.alt_spare: Screen | None = None  # the alternate screen, blank, kept for the next time it is entered
        self.cx = 0  # may be ``columns``: the pending wrap (a character in the last column)
        self.cy = 0
        # scrolls of the region that lag (scroll_up_lagged: line feeds on its last row; scroll_down_lagged: RI on
        # its top row): len(lagged.rows), kept as an int because every print and escape sequence tests it
        self.lag = 0
        self.lag_row = 0  # the cursor's row, which the lag leaves in place: the region's last or its top
        self.lagged = _lagged_rows()  # the rows they took aside from the cursor's row, oldest first
        self.set_region(0, self.height - 1)
        self.wrap = True  # DECAWM
        self.insert = False  # IRM (CSI 4 h): each character first moves the cells from the cursor right
        self.origin = False  # DECOM
        self.zwj = False  # a ZWJ was printed: the next character joins the cell before it
        self.saved = (0, 0, False)  # ESC 7 / CSI s: column, row, origin mode (tmux starts at 0, 0)
        self.alt_saved: tuple[int, int] | None = None  # CSI ? 1049 h
        self.hsize = 0  # rows committed to the history (tmux's grid indexes rows from its top)
        self.history_open = False  # the last committed row is wrapped: its line break is held back

    def resize(self, columns: int, height: int) -> None:
        """A later size (SPEC 2.8) from this point on; nothing is reflowed. Cells beyond a narrower width
        are cut (counted in ``cells_overwritten``). A shorter screen first gives up empty rows at its bottom
        below the cursor, then its top rows go to the history, as tmux does; a taller one gets empty rows
        at the bottom. The scroll region is the whole screen again."""
        if self.lag:
            self.settle()
        self.alt_spare = None  # (the next alternate screen has the new height)
        for screen in (self.screen, self.main):
            if screen is None:
                continue
            if columns < self.columns:  # (the rows that may hold something: a resize of 1000 rows read each, 25 us)
                for y in screen.busy_rows(0, self.height):
                    if len(screen.rows[screen.base + y]) > columns:
                        self.clear_row_from(screen, y, columns)
            drop = self.height - height
            while drop > 0 and screen.row_count() - 1 > self.cy and not screen.used[-1]:
                screen.remove_row(screen.row_count() - 1)
                drop -= 1
            for _ in range(drop):
                if screen is self.screen:
                    self.scroll_region_full()  # row 0 to the history, an empty row at the bottom...
                    screen.remove_row(screen.row_count() - 1)  # ...which goes at once
                else:  # the main screen under the alternate one
                    self.emit(screen.text(1))
                    screen.cells -= len(screen.rows[screen.base])
                    screen.remove_row(0)
            if screen is self.screen:
                self.cy = max(self.cy - max(drop, 0), 0)
            while screen.row_count() < height:
                screen.insert_row(screen.row_count())
        self.columns = columns
        self.height = height
        self.set_region(0, height - 1)
        self.cx = min(self.cx, columns - 1)
        self.cy = min(self.cy, height - 1)

    def clear_row_from(self, screen: Screen, y: int, x: int) -> None:
        row = screen.rows[screen.base + y]
        size = len(row)
        self.stats["cells_overwritten"] += _written(row[x:])
        row = screen.rows[screen.base + y] = trim_row(row[:x])
        _edit_marks(screen, y, x, size, 0)
        screen.cells += len(row) - size

    def live(self) -> str:
        if self.lag:
            self.settle()
        screen = self.screen
        return screen.text(screen.last_text() + 1).rstrip("\n")

    # ------------------------------------------------------------------ the Sink interface (_parser_py)

    def print(self, text: str) -> None:
        # (lagged scrolls left every row of the region where it was but the cursor's; REP needs no such test:
        # it follows a print, with nothing that could move the cursor between them)
        if self.lag and self.cy != self.lag_row:
            self.settle()
        if len(text) == 1:  # (a character typed, or a line feed, between controls)
            if text == "\n":
                self.linefeed(False)
                self.cx = 0
                return
            if self.put_typed(text, ""):
                return
        elif 1 < len(text) <= 1 + _MARKS_UNMEASURED and text[1] >= "\u0300":  # (a character and its marks, typed)
            marked = _marked_cells(text)
            if marked is not None and len(marked[0]) == 1 and self.put_typed(text[0], marked[2][0]):
                return
        if "\n" not in text:
            self.put_text(text)
            return
        if text[0] == "\n" and text.find("\n", 1) < 0:
            # (a line feed and the rest of its line between controls, as a control then LF and a key typed:
            # the loop below without its split, the rest as print takes it, a typed character and its marks
            # at once; round 50)
            self.linefeed(False)
            self.cx = 0
            if len(text) != 2:
                self.print(text[1:])
            elif not self.put_typed(text[1], ""):  # (one character: print's first test, without the call)
                self.put_text(text[1])
            return
        pieces = text.split("\n")
        last = len(pieces) - 1
        index = 0
        while True:
            if index + 1 < last and self.at_empty_bottom():  # (one line: the row path costs less)
                index = self.put_lines(pieces, index, last, len(text))
            piece = pieces[index]
            if piece and (len(piece) != 1 or not self.put_typed(piece, "")):  # (LF then a character: one run)
                self.put_text(piece)
            if index == last:
                return
            self.linefeed(False)
            self.cx = 0
            index += 1

    def at_empty_bottom(self) -> bool:
        """The state a log leaves the screen in: the cursor at column 0 of the empty bottom row of the
        scroll region, auto-wrap on. put_lines can then take whole lines at once. The region is the whole
        screen, or the rows above a status line (apt's progress bar: DECSTBM keeps the last row, the log
        scrolls above it). On the alternate screen too since round 50 (lose_rows), for a region of three rows
        or more; and in insert mode, where an insert into the row's empty tail writes what a write does (but
        at the margin: put_lines)."""
        cy = self.cy
        screen = self.screen
        entry = screen.base + cy
        return (cy == self.rlower and self.cx == 0 and (self.main is None or cy - self.rupper > 1)
                and self.wrap and not self.zwj and not screen.rows[entry] and not screen.used[entry]
                and not screen.wrapped[entry])

    def put_lines(self, pieces: list[str], index: int, last: int, size: int) -> int:
        """Lines pieces[index:j] of one- and two-cell characters (plain ASCII most of all), each ended by its
        line feed, from at_empty_bottom(): what put_text and linefeed do to them row by row (each line cut
        into rows of ``columns`` cells, all but its last wrapped, a wide character that would straddle the
        margin put on the next row as put_wrapped does; one scroll of the region per row, its top row to the
        history, as scroll_region_up), done with list and str slicing. Returns j, the first piece not taken
        (the caller goes on from there, after its line feed).

        It takes lines while the screen's cells plus theirs stay within max_live_cells: row by row, the cells
        never exceed that sum, so enforce_limits would commit nothing early (a tall screen's line feeds,
        empty lines, take this path too). Counting is needed only when the text left, ``size`` characters
        (at most twice as many cells), could take the screen past it; then the first line that does not fit
        ends the lines taken (and a call that takes none costs one line's test)."""
        sx = self.columns
        rows: list[str] = []
        wrapped: list[bool] = []
        # (a row's index in rows, its line, and _marked_cells's positions and runs)
        marked: list[tuple[int, str, tuple[int, ...], tuple[str, ...]]] = []
        j = index
        padded = False  # some rows hold wide characters and their padding
        room = self.max_live_cells - self.screen.cells
        if room < 2 * size:  # the text left could overflow: the lines up to the first that does not fit
            for k in range(index, last):
                piece = pieces[k]
                room -= len(piece) if piece.isascii() else len(_padded(piece))
                if room < 0:
                    last = k
                    break
        while j < last:
            cells = pieces[j]
            if not _ASCII_RUN.fullmatch(cells):
                # one- and two-cell characters (colored CJK or Cyrillic log lines: a line was put_text and a
                # scroll a row, round 31); on one column a wide character has rules of its own (put_char)
                if sx < 2 or not _CELL_TEXT.fullmatch(cells):
                    # or with combining marks on a row (as put_marked writes them: decomposed accents, Hindi
                    # or Thai lines were put_marked's and a scroll each, 0.67 MB/s at 80x24; round 46)
                    cells_marks = _marked_cells(cells)
                    if cells_marks is None or len(cells_marks[0]) > sx:
                        break
                    marked.append((len(rows), pieces[j], cells_marks[1], cells_marks[2]))
                    rows.append(cells_marks[0])  # (its padding never reaches the history: push_rows)
                    wrapped.append(False)
                    j += 1
                    continue
                cells = _padded(cells)
                padded = padded or len(cells) > len(pieces[j])
            if len(cells) <= sx:
                rows.append(cells)
                wrapped.append(False)
            elif PAD not in cells:
                cut = range(0, len(cells), sx)
                rows.extend(cells[start : start + sx] for start in cut)
                wrapped.extend([True] * (len(cut) - 1) + [False])
            else:
                line_rows = []
                at = 0
                straddles = False
                while at < len(cells):
                    take = min(sx, len(cells) - at)
                    if at + take < len(cells) and cells[at + take] == PAD:
                        take -= 1  # (the wide character it would cut goes on the next row)
                        straddles = True
                    line_rows.append(cells[at : at + take])
                    at += take
                if straddles and self.insert:
                    # (in insert mode tmux inserts a wide character's cells at the margin before it wraps, which
                    # leaves a blank written there: screen_write_cell, put_char; the line goes row by row)
                    break
                rows += line_rows
                wrapped += [True] * (len(line_rows) - 1) + [False]
            j += 1
        if rows:
            self.push_rows(rows, wrapped, padded, marked)
        return j

    def push_rows(self, rows: list[str], wrapped: list[bool], padded: bool,
                  marked: Sequence[tuple[int, str, tuple[int, ...], tuple[str, ...]]] = ()) -> None:
        """What put_text and linefeed do to ``rows`` (cells of one- and two-cell characters, ``padded`` when
        some hold padding; ``marked``: those that have combining marks, each a line of its own, with its index,
        its text, and where its runs of marks are and what they are, as _marked_cells gives them) from
        at_empty_bottom(): each written on the bottom row, then the region scrolled, ``wrapped`` saying which
        rows the line goes on from. The cursor is left at column 0 of a new empty bottom row. The caller has
        checked that the screen's cells plus theirs stay within max_live_cells."""
        if self.lag:
            self.settle()
        count = len(rows)
        screen = self.screen
        top, bottom = self.rupper, self.rlower
        keep = bottom - top  # the region's rows above its (empty) bottom row
        # to the history (on the alternate screen: lost), the region's top rows, then the new rows that scroll
        # off at once
        gone = min(count, keep)
        base = screen.base
        through = count - keep
        if self.main is not None:
            self.lose_rows(screen.rows[base + top : base + top + gone] + rows[: max(through, 0)])
        else:
            parts = [screen.row_text(y) + ("" if screen.wrapped[base + y] else "\n") for y in range(top, top + gone)]
            if through > 0:
                parts += [row if wrap else row + "\n" for row, wrap in zip(rows[:through], wrapped[:through])]
                for k, line, _, _ in marked:
                    if k < through:  # (its text, as row_text would give it back)
                        parts[gone + k] = line + "\n"
                if padded:
                    parts[gone:] = [part.replace(PAD, "") for part in parts[gone:]]
            self.emit("".join(parts))
            self.hsize += count
            self.history_open = bool(screen.wrapped[base + top + gone - 1]) if through <= 0 else wrapped[through - 1]
        # the region: what is left of its old rows, the new rows that stay, and an empty bottom row
        # (the gone rows are removed, and the empty bottom row, now ``gone`` rows higher, is replaced by as
        # many rows: memmoves of the rows above or below, so a call costs the same on a tall screen as one
        # scroll)
        start = max(through, 0)
        lengths = list(map(len, rows[start:]))
        screen.cells += sum(lengths) - sum(map(len, screen.rows[base + top : base + top + gone]))
        screen.remove_rows(top, top + gone)
        base = screen.base
        bottom_row = slice(base + bottom - gone, base + bottom - gone + 1)
        screen.rows[bottom_row] = rows[start:] + [""]
        if marked and screen.marks is None:
            screen.marks = [None] * len(screen.rows)
        if screen.marks is not None:
            row_marks: list[Marks | None] = [None] * (len(lengths) + 1)
            for k, _, positions, runs in marked:
                if k >= start:
                    row_marks[k - start] = (_mark_codes(positions, MARK_BASE), list(runs))  # (a row's own list)
            screen.marks[bottom_row] = row_marks
        screen.wrapped[bottom_row] = bytes(wrapped[start:]) + b"\0"
        screen.used[bottom_row] = array("I", lengths + [0])
        screen.busy[bottom_row] = b"\1" * len(lengths) + b"\0"

    def lose_rows(self, rows: list[str]) -> None:
        """push_rows on the alternate screen, which keeps no history: ``rows`` (the region's top rows, then
        new rows that scroll off at once) are lost as scroll_region_up's move_lines loses each (lose_row: its
        characters counted as overwritten), and the row above the region is unwrapped, as each of those
        scrolls does (at_empty_bottom: a region of three rows or more, where the rows left on the screen are
        not unwrapped). Line feeds at the bottom of the alternate screen were a scroll each, where the main
        screen's are pushed at once: x and LF there 25,800 instructions an iteration, 3,800 on the main
        screen (round 50)."""
        stats = self.stats
        for row in rows:
            if row:
                written = _written(row)
                stats["cells_overwritten"] += written
                if written:
                    stats["scrolled_out"] += 1
        if self.hsize + self.rupper != 0:
            self.unwrap(self.rupper - 1)

    def frame_limit(self) -> int:
        """The parser may skip a frame of one- and two-cell characters after a CR that the next frame covers
        (its first characters of one or two cells are at least as many cells; cell_frames), as on the unsized
        window, while auto-wrap is on, insert mode off and no ZWJ pending, and the frame is at most a row long
        (it does not wrap). The frame is written over from column 0 on the same row by the next one, and with
        no padding in the cells either writes but a wide character's own, and none in the one after them
        (frame_clean), neither meets stray padding, nor a wide character that either write cuts in half at
        its end: every character either writes is a plain write of its cells, whichever path takes it (tmux's
        collected one for ASCII, put_char's for the rest; _clean_span), and a wide one the frame leaves is
        inside the next frame's cells, which write over both its halves, so
        - the cells end as the next frame leaves them, the row's length and used count as its write leaves
          them;
        - what the frame overwrote the next frame overwrites and counts; the frame's own characters, each in
          a cell of its own (a space too: auto-wrap is on; a wide one in its first cell, its padding holding
          none), are counted as skipped (Parser.fold_frames), as the next frame's write would have counted
          them;
        - the live cells never grow past what the next frame's write leaves (the frame's write may trim
          the row, where it blanks a wide character's padding at the row's end), and max_live_cells commits
          rows greedily from the top, so the same rows are committed (the core's fold_frames, the same
          rule).
        Padding would make the paths differ: put_char over padding blanks the cell before it, whatever it
        holds, and tmux's collected path clears padding after its text where put_char may not (round 44: the
        first version of this, without frame_clean, was wrong for a frame past ASCII over stray padding; the
        fuzz target found it); round 52 took wide characters, whose padding is clean. Insert mode would move
        cells instead; with auto-wrap off a space over a blank cell writes nothing (put_char), which the count
        above would miss; a pending ZWJ would join the frame's first character instead of the next frame's."""
        return self.columns if self.wrap and not self.insert and not self.zwj else 0

    def frame_clean(self, cells: int) -> bool:
        """Whether cells [0, cells) of the cursor's row hold no padding but right after a wide character, and
        cell ``cells`` none (frame_limit; _clean_span). O(cells): what the parser scanned of the frame. Not
        while a region's lag has left the cursor's row elsewhere."""
        if self.lag and self.cy != self.lag_row:
            return False
        row = self.screen.rows[self.screen.base + self.cy]
        return row.find(PAD, 0, cells + 1) < 0 or _clean_span(row, 0, cells) >= 0

    def execute(self, byte: int) -> None:
        if byte == CR:
            self.cx = 0
        elif byte == HT:  # tmux: the next multiple of 8, never past the last column; pending wrap stays
            sx = self.columns
            if self.cx < sx - 1:
                stop = (self.cx // 8 + 1) * 8
                self.cx = stop if stop < sx - 1 else sx - 1
        elif byte == BS:
            if self.cx:  # (backspace()'s common case, without its call)
                self.cx -= 1
                return
            if self.lag and self.cy > 0:  # (it reads the row above the cursor's)
                if self.cy == self.lag_row == self.rlower:  # after lagged line feeds: the newest row held aside
                    if self.lagged.wrapped[-1]:  # (x, LF and BS at the bottom of a region in the middle of
                        self.cy -= 1  # 80x65,535 settled at each BS: 0.17 MB/s; round 45)
                        self.cx = self.columns - 1
                    return
                if self.cy != self.lag_row:  # (after lagged RIs, on the region's top row: the row above the
                    self.settle()  # region, which they leave where it is)
            self.backspace()
        else:  # LF, VT, FF (with onlcr, as SPEC 2.3)
            self.linefeed(False)
            self.cx = 0

    def esc_dispatch(self, final: int) -> None:
        if self.lag and (final == RIS or (final == RI and self.cy == self.rupper != self.lag_row)):
            self.settle()  # (RI on the region's top row scrolls it down: after line feeds' lag, in order)
        if final == RIS:
            self.set_alt(False, False)
            self.cursormove(0, 0, False)
            self.set_region(0, self.height - 1)
            self.wrap, self.origin, self.insert = True, False, False
            self.saved = (0, 0, False)
            self.clearscreen()
        elif final == DECSC:
            self.save_state()
        elif final == DECRC:
            self.restore_state()
        elif final == IND:  # tmux: a line feed that keeps the column
            self.linefeed(False)
        elif final == NEL:
            self.cx = 0
            self.linefeed(False)
        elif final == RI:
            self.reverseindex()

    def csi_dispatch(self, params: Sequence[int], final: int) -> None:
        """``final`` is one of ``csi_finals``; tmux's ``input_csi_dispatch``. Section numbers: ECMA-48."""
        if self.lag and (final in _SETTLES_LAG or (final in _ROW_EDITS and self.cy != self.lag_row)
                         or (final in _LINE_MOVES and not self.cy == self.lag_row == self.rlower)):
            self.settle()
        n = params[0] if params and params[0] else 1
        if final == 0x48 or final == 0x66:  # H: 8.3.21 CUP, f: 8.3.63 HVP
            m = params[1] if len(params) > 1 and params[1] else 1
            self.cursormove(m - 1, n - 1, True)
        elif final == 0x4B:  # K: 8.3.41 EL
            how = params[0] if params else 0
            if how == 0:
                self.clearendofline()
            elif how == 1:
                self.clearstartofline()
            elif how == 2:
                self.clearline()
        elif final == 0x4A:  # J: 8.3.39 ED
            how = params[0] if params else 0
            if how == 0:
                self.clearendofscreen()
            elif how == 1:
                self.clearstartofscreen()
            elif how == 2:
                self.clearscreen()
            # ED 3 clears tmux's history; here history is never deleted, and the screen is not touched
        elif final == 0x41:  # A: 8.3.22 CUU
            self.cursorup(n)
        elif final == 0x42:  # B: 8.3.19 CUD
            self.cursordown(n)
        elif final == 0x43:  # C: 8.3.20 CUF
            self.cursorright(n)
        elif final == 0x44:  # D: 8.3.18 CUB
            self.cursorleft(n)
        elif final == 0x45:  # E: 8.3.12 CNL
            self.cx = 0
            self.cursordown(n)
        elif final == 0x46:  # F: 8.3.13 CPL
            self.cx = 0
            self.cursorup(n)
        elif final == 0x47 or final == 0x60:  # G: 8.3.9 CHA, `: 8.3.57 HPA
            self.cursormove(n - 1, -1, True)
        elif final == 0x64:  # d: 8.3.158 VPA
            self.cursormove(-1, n - 1, True)
        elif final == 0x58:  # X: 8.3.38 ECH
            n = min(n, self.columns - self.cx)
            if n > 0:
                self.clear_cells(self.cy, self.cx, self.cx + n)
        elif final == 0x40:  # @: 8.3.64 ICH
            self.insertcharacter(n)
        elif final == 0x50:  # P: 8.3.26 DCH
            self.deletecharacter(n)
        elif final == 0x4C:  # L: 8.3.67 IL
            self.insertline(n)
        elif final == 0x4D:  # M: 8.3.32 DL
            self.deleteline(n)
        elif final == 0x53 or final == 0x54:  # S: 8.3.147 SU, T: 8.3.113 SD
            n = min(n, self.rlower - self.rupper + 1)
            if n == 1:  # (the one-row paths)
                self.scroll_region_up() if final == 0x53 else self.scroll_region_down(self.rupper)
            elif final == 0x53:
                self.scroll_up(n)
            else:
                self.scroll_down(n)
        elif final == 0x68 or final == 0x6C:  # h: 8.3.125 SM, l: 8.3.106 RM; of their modes, IRM (4)
            if IRM in params:
                self.insert = final == 0x68
        elif final == 0x72:  # r: DECSTBM
            top = params[0] if params and params[0] else 1
            bottom = params[1] if len(params) > 1 and params[1] else self.height
            self.scrollregion(top - 1, bottom - 1)
        elif final == 0x5A:  # Z: 8.3.7 CBT
            cx = min(self.cx, self.columns - 1)
            while cx > 0 and n > 0:
                cx = (cx - 1) // 8 * 8
                n -= 1
            self.cx = cx
        elif final == 0x73:  # s: SCOSC (tmux saves whatever the parameters)
            self.save_state()
        elif final == 0x75:  # u: SCORC
            self.restore_state()

    def repeat(self, char: str, count: int) -> None:
        """8.3.103 REP, as tmux: ``count`` characters, at most as many as there are cells up to the right
        margin (a wide character's wrap onto the next rows). A character of one or two cells, while the
        cells it covers are clean (see put_text), is a row's worth of cells a write, a list of the one
        cell (or the cell and its padding) repeated (_screen_c.pxi: fill_run, and repeat's put_run loop for
        a wide one): no text built and scanned, and no cell object made per character (REP of a wide
        character at 1000 columns: 0.012 -> 0.23 MB/s). The rest, from the first row that is not clean, is
        put_text's (as put_wrapped's rest is)."""
        count = min(count, self.columns - self.cx)
        if count <= 0:
            return
        width = char_width(char)
        if width == 0:
            # (a zero-width character's copies join the cell before the cursor until it holds MAX_CELL_BYTES,
            # each adding its UTF-8 bytes: the rest change nothing; _screen_c.pxi's repeat. The first is
            # put_text's put_char, without its scan for runs, which may join a pending ZWJ first; the others
            # join the same cell at once)
            self.put_char(char, 0)
            if count > 1 and char != ZWJ:  # (copies of a ZWJ only leave one pending: put_char)
                self.combine(char, count - 1)
            return
        # (with auto-wrap off a space on a blank cell writes nothing, where a fill writes it: put_spaces; and
        # the fill stops at the margin, the rest of a wide character's copies dropped as put_char drops them)
        if char == " " and not self.wrap and not self.zwj and not self.insert:
            count = self.put_spaces(count)
        elif (not self.zwj and not self.insert and count > 1
                and (" " <= char <= "~" or _CELL_TEXT.fullmatch(char) or char > "\uffff")):
            # (an astral character's width is 1 or 2 here: a zero-width one returned above; put_text's runs
            # are BMP-only, and REP of an emoji was a put_char a copy: 0.08 MB/s at 80x24; round 35)
            if width == 1 or self.columns > 1:
                count = self.fill_run(char, width, count)
        if count:
            self.put_text(char * count)

    def put_spaces(self, count: int) -> int:
        """REP of a space with auto-wrap off (``count`` at most what is left of the row), as put_char writes
        each, where the cells are clean (_clean_span): a space over a character is written (and counts as
        one cell overwritten), over a blank cell nothing, and a wide character's padding is cleared by the
        space over it. The cells from the first character to the last as one write (the padding after the
        last cleared first, as put_char's overwrite does), where each was a put_char (REP of a space then CR
        at 1000 columns: 0.0066 MB/s; round 34). Returns how many are left for put_text (cells not clean)."""
        cx = self.cx
        stop = cx + count
        row = self.screen.rows[self.screen.base + self.cy]
        held = _clean_span(row, cx, stop)
        if held < 0:
            return count
        span = row[cx:stop]
        last = len(span.rstrip(BLANK + PAD)) - 1  # (the last character's cell; its padding follows it)
        if last >= 0:
            first = _HOLDING.search(span).start()  # type: ignore[union-attr]  # (one holds a character)
            self.overwrite(cx + last, cx + last + 1, 1, False)
            held_cells = span[first : last + 1]
            cells = _HOLDING.sub(_spaces_over, held_cells).replace(PAD, BLANK)  # (a run at a time)
            same = cells == held_cells and not _marked(_codes_at(self.screen, self.cy), cx + first, cx + last + 1)
            self.write_cells(self.cy, cx + first, cells, held, same)  # (same: spaces over spaces, REP again)
        self.cx = self.cursor_after(stop)
        return 0

    def cursor_after(self, x: int) -> int:
        """The cursor after characters were written up to column x (exclusive): with auto-wrap off put_char
        keeps it at the last column, on a screen wider than one."""
        return self.columns - 1 if not self.wrap and x > self.columns - 1 and self.columns > 1 else x

    def fill_run(self, char: str, width: int, count: int) -> int:
        """REP's rows: put_wrapped for ``count`` copies of one character of ``width`` cells. Returns how
        many are left for put_text (from the first row whose cells are not clean)."""
        sx = self.columns
        cell = char if width == 1 else char + PAD
        while count:
            if self.cx > sx - width:
                if not self.wrap:  # (REP stops at the margin: count was at most what is left of the row)
                    return 0
                self.linefeed(True)
                self.cx = 0
            cx = self.cx
            take = min(count, (sx - cx) // width)
            stop = cx + take * width
            row = self.screen.rows[self.screen.base + self.cy]
            codes = _codes_at(self.screen, self.cy)
            run = cell * take if take < _WHOLE_RUN else repeated(cell, take)
            # The same cells again (REP over its own run, a screen redrawn), without marks and with no stray
            # padding after them (_clean_span's test): clean, each holding the character, and nothing to
            # write. One memcmp (a list of cells compared them one by one: REP then CR at 1000 columns 6.7
            # us a sequence, at 65,535 columns 160).
            # A row that ends inside the run, holding its start (REP over the shorter row a wrapped REP left):
            # clean as well, its padding all the run's own, with no search of it for stray padding (at 1000
            # columns of an emoji, whose astral class makes that search 58 ns a padding cell: 0.17 MB/s for
            # REP 1024 then CR; round 44).
            end = stop if stop < len(row) else len(row)
            ours = (cx < end and row[cx] == char and (row.startswith(run, cx) if end == stop
                                                      else run.startswith(row[cx:end]))
                    and (stop >= len(row) or row[stop] != PAD))
            same = ours and end == stop and not _marked(codes, cx, stop)
            if same:
                held = take
            elif ours:
                held = (end - cx + width - 1) // width  # (the characters there: cells past the row are blank)
            else:
                held = _clean_span(row, cx, stop)
                if held < 0:
                    break
            self.write_cells(self.cy, cx, run, held, same)
            self.cx = self.cursor_after(stop)
            count -= take
        return count

    def private_mode(self, mode: int, enable: bool) -> None:
        if self.lag and mode in ALT_SCREEN_MODES:  # (the screen switches read rows)
            self.settle()
        if mode == DECAWM:
            self.wrap = enable
        elif mode == DECOM:
            self.origin = enable
            self.cursormove(0, 0, True)
        elif mode in ALT_SCREEN_MODES:
            self.set_alt(enable, mode == SAVE_CURSOR_MODE)

    def set_alt(self, enter: bool, cursor: bool) -> None:
        """CSI ? 1049/1047/47 h/l (SPEC 2.8): with alt_screen="drop" the program draws on a separate, empty
        screen of the same size; leaving discards it. 1049 saves and restores the cursor (tmux restores it
        even when the alternate screen is not active). Leaving empties only the rows that may hold something
        and keeps the screen for the next entry (alt_spare): a new screen and a look at each of its rows cost
        O(rows) a switch (CSI ? 1049 h then l, 16 bytes: 0.05 MB/s at 1000 rows, 0.001 at 65,535;
        benchmarks/README.md, round 33)."""
        if not self.drop_alt:
            return
        if enter:
            if self.main is not None:
                return
            if cursor:
                self.alt_saved = (self.cx, self.cy)
            self.main = self.screen
            spare = self.alt_spare
            self.screen = spare if spare is not None and spare.row_count() == self.height else Screen(self.height)
            self.alt_spare = None
            self.unwrap(-1)  # tmux clears the rows for the alternate screen, which unwraps the history's last
            return
        if cursor and self.alt_saved is not None:
            self.cx, self.cy = self.alt_saved
        if self.main is not None:
            screen = self.screen
            for y in screen.busy_rows(0, self.height):
                self.stats["alt_screen_dropped"] += _written(screen.rows[screen.base + y])
                self.empty_row(y)
            screen.marks = None  # (every entry None now: a screen without marks moves four sequences)
            self.alt_spare = screen
            self.screen = self.main
            self.main = None
        self.cx = min(self.cx, self.columns - 1)
        self.cy = min(self.cy, self.height - 1)

    def flush(self) -> None:
        """Nothing is held: rows are emitted as they go to the history (RenderSink.flush's counterpart)."""

    def finish(self) -> None:
        """final=True: the final screen is committed (after the main one when the stream ends on the
        alternate screen, as SPEC 2.3 rev 2), and the sink is as new."""
        if self.lag:
            self.settle()
        text = ""
        if self.main is not None:
            text = self.main.text(self.main.last_text() + 1)
        screen = self.screen
        last = screen.last_text()
        text += screen.text(last + 1)
        if last >= 0 and self.cy <= last and text.endswith("\n"):
            text = text[:-1]  # the cursor is still on the last line: it has no line break yet
        if text:
            self.emit(text)
        self.reset()

    # ------------------------------------------------------------------ printing (screen_write_cell)

    def put_typed(self, char: str, marks: str) -> bool:
        """put_text's shortcut for one character of one or two cells (a key typed, a table drawn a cell at a
        time by cursor moves, an emoji between escape sequences) over cells that hold no padding but a wide
        character's own, with no padding after them, auto-wrap on and insert mode off, before the last
        column's pending wrap: what put_text and write_cells (or, for a character past the BMP, put_char) do
        then, inline for one cell that has no marks (a third of such a character's instructions were their
        calls and tests; round 48); in insert mode, put_inserted's insert_char for a one-cell character; with
        auto-wrap off, put_char's write of a one-cell character up to the last column, where the cursor sticks
        (the same write, but for a space on a blank cell, which put_char skips). ``marks``: a run of zero-width
        characters after a one-cell one (_marked_cells: an accent typed as e and a combining acute), which
        combine then joins to the cell written or inserted, fresh, as put_marked writes them; where auto-wrap
        off keeps the cursor (at the last column, or before a space it does not write) combine itself joins
        them to the cell left of the cursor, as after put_char. Returns False, having done nothing, for
        put_text to take it (True for a zero-width character at column 0, which joins nothing)."""
        width = 1 if char < "\u0300" else _typed_width(char)  # (NARROW_BELOW: no call for most text)
        if not width or marks and width != 1:
            # (a zero-width character at column 0 joins no cell: put_char's combine drops it; a ZWJ, or one
            # after a ZWJ, is put_char's to keep pending or join. A bidi control then CR went through put_text
            # and put_char to be dropped, 44,346 instructions at 80x24; round 52)
            return not width and not self.cx and not self.zwj and char != ZWJ
        cx = self.cx
        if self.insert and not (cx == self.columns - 1 and width == 1 and self.wrap):
            # (put_inserted's choice for one character, inline: its insert_char or put_char. A one-cell character
            # at the last column is put_char's write without its insert, which it skips there (but over padding,
            # which the write below leaves to put_text): the write below, as with insert mode off, where a space
            # is written too. Through put_inserted and put_char, x then CUU in insert mode at 80x24, whose cursor
            # stays at the last column, cost 39,749 instructions an iteration, 23,389 with insert mode off; round
            # 56. With auto-wrap off put_char writes a space on a blank cell in insert mode only: not here.)
            screen = self.screen
            if self.zwj or cx > self.columns - 2 * width:
                return False
            row = screen.rows[screen.base + self.cy]
            pad = cx - len(row)
            if (self.max_live_cells - screen.cells - (pad if pad > 0 else 0)) // width == 0:
                return False
            self.insert_char(char, width, width)
            if marks:
                _mark_cell(screen, screen.base + self.cy, cx, marks)
            return True
        if width == 2:  # (put_text's clean path, as for its text_cells)
            if cx + 2 > self.columns or not self.wrap or self.zwj:
                return False
            row = self.screen.rows[self.screen.base + self.cy]
            x, cells = cx, char + PAD
            if cx + 1 < len(row) and row[cx + 1] == PAD and row[cx] == char:
                # (the same wide character with its own padding, as a CJK progress bar's first cell after a
                # CR: clean, one cell held, unless stray padding follows; _clean_span's search of the two
                # was a tenth of a CJK character, REP 79 and CR; round 54)
                held = 1 if cx + 2 >= len(row) or row[cx + 2] != PAD else -1
            else:
                held = _clean_span(row, cx, cx + 2)
            if held < 0:  # (over the padding of the wide character before: a wide character then BS)
                if not _over_right_half(row, cx, char) or (held := _clean_span(row, cx + 1, cx + 2)) < 0:
                    return False
                x, cells = cx - 1, BLANK + cells
                held += 1
            self.write_cells(self.cy, x, cells, held)
            self.cx = cx + 2
            return True
        if cx >= self.columns or self.zwj:
            return False
        # (auto-wrap off: at the last column the cursor sticks there, each character written over the one
        # before; put_char's write and its cursor rule, whose room is unsigned in tmux: on one column the cursor
        # moves on. put_text's runs sent each such character to put_char: 0.85 MB/s at 80x24)
        moved = cx + 1
        screen = self.screen
        entry = screen.base + self.cy
        row = screen.rows[entry]
        size = len(row)
        if not self.wrap:
            if cx == self.columns - 1 and cx:
                moved = cx  # (marks then join the cell before it: combine, below)
            if char == " " and (cx >= size or row[cx] == BLANK):
                self.cx = moved  # (put_char, which takes text with auto-wrap off, writes no space on a blank cell)
                if marks:  # (...and combine writes a space on the cell left of the cursor, for the marks)
                    self.combine(marks)
                return True
        if cx < size:
            cell = row[cx]
            if cell == PAD or (cx + 1 < size and row[cx + 1] == PAD):
                return False
            # (the write below leaves a cell's code as it was, where write_cells clears it: only _mark_cell's
            # code for marks on the cell written replaces it. Marks joining the cell before a stuck cursor
            # left an accent of the cell written over on the new character; round 52)
            if screen.marks is not None and (not marks or moved == cx):
                row_marks = screen.marks[entry]
                if row_marks is not None and cx < len(row_marks[0]) and row_marks[0][cx] != NO_MARK:
                    return False
            if cell != BLANK:
                self.stats["cells_overwritten"] += 1
            row = set_cells(row, cx, cx + 1, char)
        else:
            row = row + BLANK * (cx - size) + char if cx > size else row + char
            screen.cells += cx + 1 - size
        if marks and moved == cx:
            # (stuck: the marks join the cell left of the cursor, as combine joins each. When that cell is blank,
            # combine writes a space there first: here, in the row just written; when it holds a character of a
            # row without marks, the marks are its first. About a third of e and a combining acute then DL at
            # 80x24 was combine's calls; round 52. print hands this at most _MARKS_UNMEASURED marks, which
            # combine takes unmeasured too. Padding there, or marks on the row: combine, below. The rows
            # enforce_limits commits are never the cursor's, so the space may go before it.)
            left = row[cx - 1]
            if left == BLANK:
                row = row[: cx - 1] + " " + row[cx:]
            elif left == PAD or (screen.marks is not None and screen.marks[entry] is not None):
                left = ""
        screen.rows[entry] = row
        if marks and moved != cx:
            _mark_cell(screen, entry, cx, marks)
        if cx >= screen.used[entry]:
            screen.used[entry] = cx + 1
        screen.busy[entry] = 1
        if screen.cells > self.max_live_cells:
            self.enforce_limits()
        self.cx = moved
        if marks and moved == cx:  # (the cursor stuck at the last column: they join the cell before it)
            if left:
                _mark_cell(screen, entry, cx - 1, marks)
            else:
                self.combine(marks)
        return True

    def put_text(self, text: str) -> None:
        """Printable text without LF at the cursor. Runs of ASCII take tmux's collected path a row at a time
        (``screen_write_collect_add``/``_end``) while auto-wrap is on; every other character takes
        ``screen_write_cell``. The two differ only in how padding left after the text is cleared."""
        if self.insert:  # (tmux writes each character on its own in insert mode: screen_write_collect_add)
            self.put_inserted(text)
            return
        start = 0
        # With auto-wrap off, text that ends before the last column is written as with it on: nothing wraps
        # there, and each character's cursor moves on (at the last column it sticks: put_char). But for a
        # space, which put_char does not write over a blank cell (round 49: such text went a character at a
        # time, e and a combining acute 0.45-0.51 MB/s at 80x24).
        if not self.zwj and (self.wrap or " " not in text):
            limit = self.columns if self.wrap else self.columns - 1  # (the last cell the text may end at, + 1)
            # (printable ASCII is its own cells: no regex match and no padding to add, a typed character's
            # two calls of some nine)
            cells = text if text.isascii() and text.isprintable() else self.text_cells(text)
            if cells is not None:
                cx = self.cx
                stop = cx + len(cells)
                held = -1
                if stop <= limit:
                    row = self.screen.rows[self.screen.base + self.cy]
                    held = _clean_span(row, cx, stop)
                    if held < 0 and _over_right_half(row, cx, text[0]):
                        held = _clean_span(row, cx + 1, stop)
                        if held >= 0:  # what put_char does first: the wide character is blanked (overwrite)
                            cx -= 1
                            cells = BLANK + cells
                            held += 1
                if held >= 0:
                    # text that fits on the row, over clean cells (no padding but a wide character's own): every
                    # path below comes down to writing its cells (a progress bar's redraw, a line of CJK)
                    self.write_cells(self.cy, cx, cells, held)
                    self.cx = stop
                    return
                if self.wrap and self.columns > 1 and not text.isascii():  # (ASCII: put_ascii's rows, no span check)
                    start = self.put_wrapped(text, cells)
            elif not text.isascii() and (self.wrap or len(text) <= (_MARKS_UNMEASURED + 1) * (limit - self.cx)):
                # (with auto-wrap off put_marked writes text that ends before the last column, and takes at most
                # _MARKS_UNMEASURED marks a cell: longer text cannot be its, and was measured for nothing)
                start = self.put_marked(text, limit)
                if start == len(text):
                    return
        end = len(text)
        run = width = 0
        while start < end:
            if self.wrap and not self.zwj:
                ascii_end = _ASCII_RUN.match(text, start).end()  # type: ignore[union-attr]  # matches ""
                if ascii_end > start:
                    self.put_ascii(text, start, ascii_end)
                    start = ascii_end
                    continue
                if start >= run:  # a run's end is found once: put_char may take its characters one at a
                    # time, and a match per character was quadratic (REP of a wide character over a row
                    # of them: 8 s a sequence at 65,535 columns)
                    run = _NARROW_RUN.match(text, start).end()  # type: ignore[union-attr]
                    width = 1
                    if run == start and self.columns > 1:
                        run = _WIDE_RUN.match(text, start).end()  # type: ignore[union-attr]
                        width = 2
                if run > start:
                    done = self.put_run(text, start, run, width)
                    if done > start:
                        start = done
                        continue
            elif self.cx >= self.columns - 1 and self.columns > 1 and not self.zwj:  # (insert mode returned above)
                stop = _NARROW_TEXT.match(text, start).end()  # type: ignore[union-attr]  # matches ""
                if stop - start > 2:
                    self.put_stuck(text, start, stop)
                    start = stop
                    continue
                stop = _STUCK_TEXT.match(text, start).end()  # type: ignore[union-attr]  # matches ""
                if stop - start > 2 and self.cx == self.columns - 1:
                    self.put_stuck_marked(text, start, stop)
                    start = stop
                    continue
            char = text[start]
            self.put_char(char, char_width(char))
            start += 1

    def put_inserted(self, text: str) -> None:
        """Text in insert mode (IRM, CSI 4 h), as put_char writes it a character at a time (tmux's
        screen_write_cell: an insert of its width at the cursor, then the write), but a run of characters of
        one width whose inserts each leave the cells it writes blank at once (insert_run). The rule, and why
        it changes nothing, is in the core's twin (_screen_c.pxi). One at a time, REP 1024 then CR in insert
        mode on a full 1000-column row read 0.002 MB/s here: each insert rebuilt the row."""
        sx = self.columns
        start, end = 0, len(text)
        while start < end:
            char = text[start]
            width = char_width(char)
            take = 0
            if width and not self.zwj and self.cx <= sx - 2 * width:
                take = (sx - self.cx) // width
                pad = max(self.cx - len(self.screen.rows[self.screen.base + self.cy]), 0)
                take = min(take, end - start, (self.max_live_cells - self.screen.cells - pad) // width)
            stop = start + 1
            if take > 1:
                if text[start + 1] == char and text.startswith(char * take, start):  # (one character: REP)
                    stop = start + take
                else:  # a run of one width (BMP: each of ASCII, narrow and wide characters is one regex)
                    pattern = _ASCII_RUN if char <= "~" else _NARROW_RUN if width == 1 else _WIDE_RUN
                    stop = min(pattern.match(text, start).end(), start + take)  # type: ignore[union-attr]
                    if width == 1 and stop < end and text[stop] >= "\u0300" and not char_width(text[stop]):
                        # (a mark ends it: the characters and their marks as one run short of the margin)
                        marked = self.insert_marked(text, start, end, take - 1)
                        if marked > start:
                            start = marked
                            continue
            if stop - start < 2:
                if take:  # (put_typed's insert, a wide one's too: through put_char, a CJK character, REP 1 and CR
                    # in insert mode at 80x24 cost 91,605 instructions an iteration, 69,216 this way; round 55)
                    self.insert_char(char, width, width)
                else:
                    self.put_char(char, width)
                start += 1
                continue
            self.insert_run(text[start:stop], width)
            start = stop

    def insert_marked(self, text: str, start: int, end: int, room: int) -> int:
        """put_inserted's run of one-cell characters with their marks (``e`` and a combining acute typed in
        insert mode, Devanagari, Thai), at most ``room`` cells, which end before the margin: what an
        insert_char and a combine of its marks a character come to, the run's cells inserted at once and
        their marks on the new cells, which hold none (as write_marked puts them on written cells; a
        character and a mark at a time, 35,115 instructions an iteration of one such pair at 80x24, 0.75-1.0
        MB/s; round 54). Before the margin the cursor never waits there to wrap, and each run of marks joins
        the cell just inserted. Returns where the run ends in ``text`` (``start``: fewer than two cells, or a
        run of marks too long to go unmeasured; a character at a time then)."""
        stop = min(end, start + (_MARKS_UNMEASURED + 1) * room)
        piece = _MARKED_NARROW_RUN.match(text, start, stop).group()  # type: ignore[union-attr]  # (matches "")
        marked = _marked_cells(piece) if piece else None
        if marked is None:
            return start
        cells, positions, runs = marked
        if len(cells) > room:  # (the text of the first ``room`` cells: theirs and their marks)
            k = bisect_left(positions, room)
            piece = piece[: room + sum(map(len, runs[:k]))]
            cells, positions, runs = cells[:room], positions[:k], runs[:k]
        if len(cells) < 2:
            return start
        cx = self.cx
        self.insert_char(cells, 1, len(cells))
        screen = self.screen
        entry = screen.base + self.cy  # (after the insert: its limits commit rows above the cursor's only)
        span = self.new_marks(entry, positions, runs)
        codes, strings = screen.marks[entry]  # type: ignore[index, misc]
        codes = _spliced(codes, cx, cx + len(cells), span, len(screen.rows[entry]))
        screen.marks[entry] = (codes, strings)  # type: ignore[index]
        return start + len(piece)

    def insert_char(self, char: str, width: int = 1, m: int = 1) -> None:
        """put_char of one character of ``width`` cells in insert mode where put_inserted would take a run (its
        insert leaves its cells blank): the insert and the write as one splice of the row, and of its marks'
        codes if it has any (the new cells have none). ``m``: its cells, or a run's: ``char`` may be a run of
        such characters, of cells up to the margin (insert_run, which then places the cursor). A wide one over
        padding (typed after a wide character and BS) moves that padding past its cells, where put_char's
        overwrite clears it: the splice blanks it (through put_char, 72,579 instructions an iteration at 80x24,
        0.44-0.76 MB/s; round 52). Through put_char, a character typed in insert mode was two rebuilds of the
        row and some twenty calls: about 10 us (0.17-0.37 MB/s for ``x`` then CR; benchmarks/README.md, round
        43; on a row with marks until round 45, 0.32-0.49 for ``e`` and a combining mark then CR; a wide one
        until round 49, 0.58 for a CJK character then CR). The core's twin, why the two steps are one edit, is
        put_char's for every such character (round 45: there the move, the look for padding and the write each
        found the row's chunk again)."""
        screen = self.screen
        cx, sx = self.cx, self.columns
        entry = screen.base + self.cy
        row = screen.rows[entry]
        size = len(row)
        if width == 1:
            cells = char
        elif m == 2:
            cells = char + PAD
        elif char.count(char[0]) == len(char):  # (REP of a wide character: no join of a new str a character)
            cells = (char[0] + PAD) * len(char)
        else:
            cells = PAD.join(char) + PAD
        if cx >= size:  # nothing to move: the write pads up to the cursor
            new = row + BLANK * (cx - size) + cells
        elif size <= sx - m:
            new = row[:cx] + cells + row[cx:]
        else:  # the row's last cells go past the margin (counted), as move_cells moves them
            if m == 1:  # (the one cell, inline: a row kept full by typing in insert mode pays it each time)
                self.stats["cells_overwritten"] += row[sx - 1] != BLANK and row[sx - 1] != PAD
            elif m <= _COUNT_SPAN and size <= sx:  # (_written_in's counts, inline: the span ends the row)
                self.stats["cells_overwritten"] += size - sx + m - row.count(BLANK, sx - m) - row.count(PAD, sx - m)
            else:
                self.stats["cells_overwritten"] += _written_in(row, sx - m, sx)
            new = row[:cx] + cells + row[cx : sx - m]
            if new[-1] == BLANK:
                new = trim_row(new)
        if width == 2 and cx < size and row[cx] == PAD:
            stop = end = cx + m
            while end < len(new) and new[end] == PAD:
                end += 1
            new = new[:stop] + BLANK * (end - stop) + new[end:]
            if new[-1] == BLANK:
                new = trim_row(new)
        marks = screen.marks[entry] if screen.marks is not None else None
        if marks is not None and len(marks[0]) > cx:  # (codes that end before the cursor stay as they are)
            codes, strings = marks
            codes = (codes[:cx] + NO_MARK * m + codes[cx : sx - m])[: len(new)]
            screen.marks[entry] = (codes, strings)  # type: ignore[index]
        screen.rows[entry] = new
        screen.cells += len(new) - size
        if screen.used[entry] < sx:  # (the insert's move reaches the margin: move_cells; a narrower resize
            screen.used[entry] = sx  # can leave a larger count)
        screen.busy[entry] = 1  # (Screen.touch, without the call)
        self.cx = cx + m
        if screen.cells > self.max_live_cells:
            self.enforce_limits()

    def insert_run(self, text: str, width: int) -> None:
        """put_inserted's run of characters of one width: what put_char's inserts and writes come to (see the
        core's twin): the cells from the cursor move right by all their cells at once, the padding a wide
        character's first insert cleared is cleared where it now is, past them, and their cells are written
        over the cells the move left (counting the ones it did not blank). That is insert_char's one splice of
        the row with all their cells (an insert, a clear and a write through their general paths: x, REP 79
        and CR in insert mode at 1000 columns 90,833 instructions an iteration, 0.82 MB/s; round 53). When
        they reach the margin nothing moves, and the write counts what they write over, as the splice's cut."""
        self.insert_char(text, width, len(text) * width)
        self.cx = self.cursor_after(self.cx)  # (with auto-wrap off, a character at the last column keeps it there)

    def put_stuck(self, text: str, start: int, end: int) -> None:
        """Text of one-cell characters, text[start:end] (3 characters or more), with auto-wrap off, the cursor
        at the last column or past it, as put_char writes it one character at a time: past the margin every one is
        dropped; at the last column (tmux's screen_write_cell keeps the cursor there with auto-wrap off)
        each is written over the one before, so only the last stays, and each that is written over a
        character counts as one cell overwritten. A space on a blank cell writes nothing, so the spaces up
        to the first other character are skipped while the cell is blank. Each was a put_char before (lines
        of 4 KiB at 1000 columns: 0.88 MB/s; round 34), and a character that is not ASCII still was (e-acute
        there: 20,491 instructions a character at 80x24; round 51)."""
        x = self.columns - 1
        if self.cx > x:
            return
        last = end - 1
        self.put_char(text[start], 1)  # (clears a wide character there: put_char)
        i = start + 1
        row = self.screen.rows[self.screen.base + self.cy]
        if x >= len(row) or row[x] == BLANK:
            i = _SPACES.match(text, i, last).end()  # type: ignore[union-attr]  # matches ""
            if i < last:
                self.put_char(text[i], 1)
                i += 1
        self.stats["cells_overwritten"] += last - i  # (the cell holds a character: each of [i, last) writes over one)
        self.put_char(text[last], 1)

    def put_stuck_marked(self, text: str, start: int, end: int) -> None:
        """put_stuck's text with zero-width characters among its one-cell ones (no ZWJ), the cursor stuck at
        the last column, as put_char writes it one character at a time: each one-cell character is written
        over the one before at the cursor, and each zero-width one joins the cell left of it (combine). Once a
        one-cell character is at the cursor, neither changes the other's cell, so the marks after it join at
        once (those that fit, _fitting_marks) and the characters are put_stuck's. Before, the marks go first,
        as one of them may join a wide character there that the first write clears. A character and a mark
        at a time, a line of ``e`` and a combining acute read 0.80 MB/s (42,000 instructions an iteration of
        the two; round 53)."""
        first = _MARKS.match(text, start, end).end()  # type: ignore[union-attr]  # matches ""
        if first > start:
            self.combine(text[start:first])
        if first == end:
            return
        rest = text[first + 1 : end]
        characters = text[first] + _MARK_SPLIT.sub("", rest)  # (the first is written before the marks after it)
        if len(characters) > 1:
            self.put_stuck(characters, 0, len(characters))
        else:
            self.put_char(characters, 1)
        marks = _NOT_MARKS.sub("", rest)
        if marks:
            self.combine(marks)

    def put_ascii(self, text: str, start: int, end: int) -> None:
        """ASCII text[start:end] with auto-wrap on, a row's worth at a time; the rows that wrap at the bottom
        of a log's region all at once (push_rows), as put_lines takes whole lines."""
        sx = self.columns
        while start < end:
            if self.cx > sx - 1:
                self.linefeed(True)
                self.cx = 0
                if end - start > 2 * sx and self.at_empty_bottom():
                    start = self.put_ascii_rows(text, start, end)
            cx = self.cx
            take = min(sx - cx, end - start)
            self.overwrite(cx, cx + take, 1, True)
            self.write_cells(self.cy, cx, text[start : start + take])
            start += take
            self.cx = cx + take

    def put_ascii_rows(self, text: str, start: int, end: int) -> int:
        """put_ascii's rows from at_empty_bottom(): the full rows of text[start:end] that more of it follows
        (each wraps onto the next), pushed at once, as many as max_live_cells has room for (as put_lines).
        Returns where the rest starts. A line longer than a call (4 KiB calls of a long line on a narrow
        screen) was a row, a line feed and a scroll at a time: 0.60 MB/s on one column (round 35)."""
        sx = self.columns
        count = (end - start - 1) // sx
        room = (self.max_live_cells - self.screen.cells) // sx
        if count > room:
            count = room
        if count <= 0:
            return start
        stop = start + count * sx
        self.push_rows([text[at : at + sx] for at in range(start, stop, sx)], [True] * count, False)
        return stop

    def text_cells(self, text: str) -> str | None:
        """put_text's shortcuts: the cells of ``text`` (each wide character followed by padding) when it is
        characters of one or two cells, None otherwise. Written where the cells they cover (and the one after
        them) hold no padding but a wide character's own, neither path of put_text clears anything (see
        overwrite), and writing the cells is all they do (_clean_span)."""
        return _short_text_cells(text) if len(text) <= _CACHED_TEXT else _text_cells(text)

    def put_marked(self, text: str, limit: int) -> int:
        """put_text's shortcut for text with zero-width characters (Devanagari's vowel signs, Thai's, accents
        as combining marks): over clean cells, what put_text would do, writing runs between the marks and
        combine for each mark, comes down to writing the cells and then each run of marks on the cell before
        it, fresh (SPEC 2.8). One write and one splice of the row's marks for the text on its row, where a
        write and a splice each run cost 20% of such text's speed (benchmarks/README.md, round 31); text
        longer than the rest of its row a row at a time, as put_wrapped writes the rest (round 49: a line of
        decomposed accents longer than the row was a write and a combine a character, 0.79 MB/s at 80x24).
        ``limit``: put_text's, the column the text must end before to be written at once (the last with
        auto-wrap off). Returns how much of ``text`` it wrote (0: put_text's runs take it all)."""
        marked = _marked_cells(text)
        if marked is None:
            return 0
        cells, positions, runs = marked
        cx = self.cx
        stop = cx + len(cells)
        if stop > limit:
            return self.put_wrapped(text, cells, positions, runs) if self.wrap and self.columns > 1 else 0
        held = _clean_span(self.screen.rows[self.screen.base + self.cy], cx, stop)
        if held < 0:
            return 0
        self.write_marked(self.cy, cx, cells, held, positions, runs)  # (no blank in the cells: no trim below stop)
        self.cx = stop
        return len(text)

    def write_marked(self, y: int, x: int, cells: str, held: int, positions: Sequence[int],
                     runs: Sequence[str]) -> None:
        """write_cells of ``cells`` at column x of row y, the runs of marks ``runs`` on the cells
        ``positions`` (from x) and none on the others: the runs go to the end of the row's list (compacted
        first when it would outgrow combine's bound), the cells' codes point at them."""
        codes = self.new_marks(self.screen.base + y, positions, runs)
        self.write_cells(y, x, cells, held, codes=codes)

    def new_marks(self, entry: int, positions: Sequence[int], runs: Sequence[str]) -> str:
        """The runs of marks ``runs`` added to the list of the row at ``entry`` (compacted first when it would
        outgrow combine's bound), and the codes of cells that hold them at ``positions`` (from the first):
        for write_marked and insert_marked to splice into the row's codes."""
        screen = self.screen
        if screen.marks is None:
            screen.marks = [None] * len(screen.rows)
        marks = screen.marks[entry]
        if marks is None:
            marks = screen.marks[entry] = ("", [])
        elif len(marks[1]) + len(runs) > 2 * len(screen.rows[entry]) + 64:  # (combine's bound on a row's list)
            marks = screen.marks[entry] = _compact_marks(*marks)
        strings = marks[1]
        codes = _mark_codes(positions, MARK_BASE + len(strings))
        strings.extend(runs)
        return codes

    def put_wrapped(self, text: str, cells: str, positions: Sequence[int] = (), runs: Sequence[str] = ()) -> int:
        """``text`` (its ``cells`` from text_cells; or from _marked_cells, with its runs of marks on the cells
        ``positions``) with auto-wrap on, a row's worth of cells at a time, on more than one column: what
        put_ascii, put_run, put_char and combine do to it while each row's span is clean, in one write a
        row instead of one a run (a line of CJK, Korean or Cyrillic words between spaces was a run a word).
        A wide character that would straddle the margin goes on the next row, as put_char wraps it, leaving
        the last cell as it was; the marks of a row's last cell go with it (combine joins the cell left of a
        pending wrap). Returns how much of ``text`` it wrote (put_text's runs take the rest, from the first
        row that is not clean)."""
        sx = self.columns
        at = 0  # in text
        p = 0  # in cells
        n = len(cells)
        k = 0  # the first run of marks not written
        while p < n:
            width = 2 if p + 1 < n and cells[p + 1] == PAD else 1
            if self.cx > sx - width:
                self.linefeed(True)
                self.cx = 0
            cx = self.cx
            take = min(sx - cx, n - p)
            if p + take < n and cells[p + take] == PAD:
                take -= 1  # (the wide character it would cut)
            held = _clean_span(self.screen.rows[self.screen.base + self.cy], cx, cx + take)
            if held < 0:
                return at
            piece = cells[p : p + take]
            at += take - piece.count(PAD)
            end = k
            while end < len(positions) and positions[end] < p + take:
                at += len(runs[end])
                end += 1
            if end > k:
                self.write_marked(self.cy, cx, piece, held, [x - p for x in positions[k:end]], runs[k:end])
                k = end
            else:
                self.write_cells(self.cy, cx, piece, held)
            self.cx = cx + take
            p += take
        return at

    def put_run(self, text: str, start: int, end: int, width: int) -> int:
        """Non-ASCII characters text[start:end] of one width (1 or 2) with auto-wrap on, a row's worth at a
        time, over the clean cells (_clean_span) they cover: there what put_char does is writing the
        cells, so a row's worth is one write. Returns how far it got: put_char takes the character over
        the first cell that is not clean, and the run goes on after it (each cell is checked once)."""
        sx = self.columns
        while start < end:
            if self.cx > sx - width:
                self.linefeed(True)
                self.cx = 0
            cx = self.cx
            take = min((sx - cx) // width, end - start)
            stop = cx + take * width
            row = self.screen.rows[self.screen.base + self.cy]
            whole = True
            held = 0
            if cx < len(row):  # (past its end: blank cells, a new line's text)
                clean, span = _clean_prefix(row, cx, stop)
                whole = clean == stop - cx
                if not whole:
                    take = clean // width
                    stop = cx + take * width
                while take > 0 and stop < len(row) and row[stop] == PAD:
                    take -= 1  # stray padding put_char would clear: the character before it too
                    stop -= width
                    whole = False
                if take <= 0:
                    return start  # stray padding at the cursor: put_char's rules apply
                held = _held(span, stop - cx)
            chunk = text[start : start + take]
            self.write_cells(self.cy, cx, chunk if width == 1 else PAD.join(chunk) + PAD, held)
            start += take
            self.cx = stop
            if not whole:
                return start
        return start

    def put_char(self, char: str, width: int) -> None:
        """tmux's ``screen_write_cell`` for one character of any width."""
        sx = self.columns
        if char == ZWJ:
            self.zwj = True
            return
        if width == 0 or self.zwj:
            if self.zwj:
                self.zwj = False
                self.combine(ZWJ)
            self.combine(char)
            return
        if not self.wrap and width > 1 and (width > sx or (self.cx != sx and self.cx > sx - width)):
            return  # a wide character that does not fit is dropped
        if self.insert and (width != 1 or self.cx != sx - 1 or self._pad_at_cursor()):
            # room for it at the cursor, before any wrap: tmux calls grid_view_insert_cells as ICH does (a
            # wide character at the last column clears only that cell). A one-cell character at the last
            # column clears the cell it then writes: skipped, as the write counts and replaces that cell
            # alike, unless it is padding, whose clear keeps the wide character before it (overwrite blanks
            # that character when it finds the padding). In a full row the clear trimmed the row back over
            # its blanks and the write padded it out again: `x` then `CUF 1024` at 1000 columns 19 MB/s
            # in the core (round 45).
            self.insertcharacter(width)
        if self.wrap and self.cx > sx - width:
            self.linefeed(True)
            self.cx = 0
        if self.cx > sx - width:
            return
        cx = self.cx
        cy = self.cy
        self.overwrite(cx, cx + width, width, False)
        row = self.screen.rows[self.screen.base + cy]
        if char != " " or self.insert or (cx < len(row) and row[cx] != BLANK):
            self.write_cells(cy, cx, char + PAD if width == 2 else char)
        # else tmux skips a cell that would not change (a space on a blank cell): the row is no further used
        # tmux: the cursor moves on, or sticks at the last column when auto-wrap is off; its room is an
        # unsigned number, so when it is negative the cursor moves on (a column past the margin then
        # means the margin itself)
        room = sx - (0 if self.wrap else 1) - width
        if cx <= room or room < 0:
            cx += width
            self.cx = cx if cx <= sx else sx - 1
        else:
            self.cx = sx - (0 if self.wrap else 1)

    def _pad_at_cursor(self) -> bool:
        """Whether the cursor's cell is a wide character's padding."""
        row = self.screen.rows[self.screen.base + self.cy]
        return self.cx < len(row) and row[self.cx] == PAD

    def write_cells(self, y: int, x: int, cells: str, held: int = -1, same: bool = False, codes: str = "") -> None:
        """Set cells [x, x + len(cells)) of row y (one character per cell, without marks, or with the marks
        ``codes`` give them when the row has a list of marks), counting what they overwrite (``held``, when
        the caller's scan of them counted it already; ``same``: they hold these already, without marks)."""
        screen = self.screen
        entry = screen.base + y  # (row y's entry in the screen's sequences)
        row = screen.rows[entry]
        size = len(row)
        stop = x + len(cells)
        if x > size:
            row += BLANK * (x - size)
        elif held >= 0:
            self.stats["cells_overwritten"] += held
        elif x < size:
            self.stats["cells_overwritten"] += _written_in(row, x, stop)
        if not same:
            marks = screen.marks[entry] if screen.marks is not None else None  # (_marks_at, inline)
            if marks is None and size > 1024 and row.startswith(cells, x):
                pass  # a long row that holds these cells already: a memcmp instead of copying it
            else:
                # (set_cells, inline: the hottest write of the fallback's sized rendering; at the row's end,
                # ``row[:x]`` is the row itself, which CPython then extends in place)
                if x < len(row) and len(row) >= _LONG_LINE:
                    row = splice(row, x, stop if stop < len(row) else len(row), cells)
                else:
                    row = row[:x] + cells + row[stop:] if stop < len(row) else row[:x] + cells
                if row[-1] == BLANK:
                    row = trim_row(row)
                screen.rows[entry] = row
                if marks is not None:
                    if codes:
                        codes = _spliced(marks[0], x, stop, codes, len(row))
                    else:
                        codes = _cleared(marks[0], x, stop, len(cells), len(row))
                    screen.marks[entry] = (codes, marks[1])  # type: ignore[index]
        screen.cells += len(row) - size
        if stop > screen.used[entry]:
            screen.used[entry] = stop
        screen.busy[entry] = 1  # (Screen.touch, without the call)
        if screen.cells > self.max_live_cells:
            # after every write, before any scroll: the same rows are committed for any chunking
            self.enforce_limits()

    def overwrite(self, start: int, stop: int, width: int, always: bool) -> None:
        """Before cells [start, stop) of the cursor row are written: a wide character whose right half is
        at ``start`` is blanked, and so is the padding after ``stop`` (of a wide character whose left half
        is overwritten). The collected path clears that padding ``always``; ``screen_write_overwrite`` only
        when a wide character is written or the last cell overwritten is a wide character or padding."""
        screen = self.screen
        cy = self.cy
        entry = screen.base + cy  # (row cy's entry in the screen's sequences)
        row = screen.rows[entry]
        size = len(row)
        if always:
            # screen_write_collect_end: back from ``start`` over padding; a wide character found left of it
            # is blanked, but the loop never looks at column 0 (so one there keeps its cell)
            if 0 < start < size:
                x = start
                while x > 0 and row[x] == PAD:
                    x -= 1
                blank = x + 1  # cells [blank, start] were padding
                if x > 0 and row[x] != BLANK and char_width(row[x][0]) == 2:
                    self.stats["cells_overwritten"] += 1
                    blank = x
                if blank <= start:
                    row = screen.rows[entry] = set_cells(row, blank, start + 1, BLANK * (start + 1 - blank))
                    _edit_marks(screen, cy, blank, start + 1, start + 1 - blank)
        elif start < size and row[start] == PAD:
            x = start
            while x > 0 and row[x] == PAD:
                x -= 1
            if row[x] != BLANK and row[x] != PAD:
                self.stats["cells_overwritten"] += 1
            row = set_cells(row, x, start + 1, BLANK * (start + 1 - x))
            if row[-1] == BLANK:  # the wide character was the row's last: a row never ends in a blank
                row = trim_row(row)
                screen.cells += len(row) - size
                size = len(row)
            screen.rows[entry] = row
            _edit_marks(screen, cy, x, start + 1, start + 1 - x)
        if stop >= size:
            return
        before = row[stop - 1]
        if always or width != 1 or before == PAD or (before != BLANK and char_width(before[0]) == 2):
            x = stop
            while x < size and row[x] == PAD:
                x += 1
            if x > stop:  # (left trailing when they end the row: the write that follows trims it)
                screen.rows[entry] = set_cells(row, stop, x, BLANK * (x - stop))
                _edit_marks(screen, cy, stop, x, x - stop)

    def combine(self, char: str, copies: int = 1) -> None:
        """A zero-width character joins the cell left of the cursor (``screen_write_combine``), skipping
        padding; at column 0 it is dropped, and so is one that would take the cell past MAX_CELL_BYTES of UTF-8.
        ``copies`` of it (REP) join as that many calls would: those within the bytes (a call each was most of
        REP of a combining mark in Python, 0.58 MB/s at 80x1,000; round 46). With one copy, ``char`` may be
        several zero-width characters, which join as a call each would (_fitting_marks)."""
        cx, cy = self.cx, self.cy
        if cx == 0 or cx > self.columns:
            return
        screen = self.screen
        entry = screen.base + cy  # (row cy's entry in the screen's sequences)
        row = screen.rows[entry]
        x = cx - 1
        while x >= 0 and x < len(row) and row[x] == PAD:
            x -= 1
        if x < 0:
            return
        if x >= len(row) or row[x] == BLANK:  # a blank cell: the mark goes on a space
            self.write_cells(cy, x, " ")
            row = screen.rows[entry]
        if screen.marks is None:
            screen.marks = [None] * len(screen.rows)
        codes, strings = screen.marks[entry] or ("", [])
        if len(codes) <= x:
            codes += NO_MARK * (x + 1 - len(codes))
        code = codes[x]
        marked = strings[ord(code) - MARK_BASE] if code != NO_MARK else ""
        if len(marked) + len(char) * copies > 4:  # (five characters are 20 bytes at most: only more are measured)
            room = MAX_CELL_BYTES - len((row[x] + marked).encode())
            if copies > 1:
                copies = min(copies, room // len(char.encode()))
            else:
                char = _fitting_marks(char, room)
            if copies <= 0 or not char:
                return
        if code != NO_MARK:  # (a code is the cell's own: cells never share one)
            strings[ord(code) - MARK_BASE] = marked + char * copies
            return
        _mark_cell(screen, entry, x, char * copies)

    def enforce_limits(self) -> None:
        """SPEC 2.8 bounds: while the screen holds more than max_live_cells cells, its topmost row with
        cells that the cursor is not on is committed (discarded on the alternate screen) and emptied. While
        a region's scrolls lag, in the screen's order through the lag, without settling it: the rows above
        the cursor's (a line feed's lag) or down to it (RI's), then the rows held aside in the region's
        order, then the rest (the rows the lag emptied in place are blank: skipped). Settling first made a
        write past the limit a settle, so that the lag was off there (x then RI at the top of a region in
        the middle of 80x65,535: 0.11 MB/s; benchmarks/README.md, round 40). The core reads its rotated
        order in runs the same way (_screen_c.pxi: enforce_limits)."""
        if not self.lag:
            self.commit_rows(0, self.height)
            return
        up = self.lag_row == self.rlower  # (line feeds' lag: the held rows oldest first; RI's: newest first)
        split = self.rlower if up else self.rupper + 1
        if not self.commit_rows(0, split):
            return
        lagged = self.lagged
        screen = self.screen
        i = 0 if up else self.lag  # (rfind's end: the index found is not searched again)
        while screen.cells > self.max_live_cells:
            i = lagged.busy.find(1, i) if up else lagged.busy.rfind(1, 0, i)
            if i < 0:
                break
            if lagged.rows[i]:
                self.to_history(i, lagged)
                self.empty_row(i, lagged)
            if up:
                i += 1
        self.commit_rows(split, self.height)

    def commit_rows(self, y: int, stop: int) -> bool:
        """enforce_limits on rows [y, stop) of the screen, topmost first. Returns whether the screen still
        holds more than max_live_cells cells."""
        screen = self.screen
        while screen.cells > self.max_live_cells:
            # (the rows that may hold something, Screen.busy: the rows emptied before are blank, and each
            # write past the limit read them all again; 80x65,535 with every row written: 0.08 MB/s, round 34)
            entry = screen.busy.find(1, screen.base + y, screen.base + stop)
            if entry < 0:
                return True
            y = entry - screen.base
            if y != self.cy and screen.rows[entry]:
                self.to_history(y)
                self.empty_row(y)
            y += 1
        return False

    # ------------------------------------------------------------------ rows (tmux's grid.c)
    #
    # The wrapped flags follow tmux's grid primitives exactly, because ``capture-pane -J`` joins rows by
    # them: clearing whole rows or moving rows also unwraps the row above (which may be the last line of
    # the history, ``unwrap(-1)``). Counts that tmux computes as unsigned numbers are reproduced where they
    # decide what happens.

    def to_history(self, y: int, held: Screen | None = None) -> None:
        """Row y goes to the history: committed, its line break held back while it is wrapped (its line
        goes on in the next row to be committed, or on the screen). The alternate screen has none: there
        the row is discarded. ``held``: row y of the rows a lag holds aside (enforce_limits)."""
        screen = held or self.screen
        entry = screen.base + y
        row = screen.rows[entry]
        if self.main is not None:
            self.stats["alt_screen_dropped"] += _written(row)
            return
        self.hsize += 1
        if screen.wrapped[entry]:  # (its text goes on as far as the row was used: Screen.row_text)
            self.emit(screen.row_text(y))
            self.history_open = True
            return
        # (a row that is not wrapped is its cells' text: row_text without Screen.row_text's call; round 50)
        marks = screen.marks
        self.emit(row_text(row, marks[entry] if marks is not None else None) + "\n")
        self.history_open = False

    def unwrap(self, y: int) -> None:
        """Row y (-1: the last line of the history) is no longer continued by the row below it."""
        if y >= 0:
            if self.lag and y == self.rlower - 1:
                # the row above the cursor's while line feeds lag (scroll_up_lagged): the last of the rows they
                # took aside (an erase of the cursor's whole row there unwraps it: _ROW_EDITS). Every other row
                # of the region is unwrapped only by what settles first. (After RIs' lag, scroll_down_lagged,
                # the row above the cursor's is above the region, on the screen: rlower - 1 is not reached.)
                self.lagged.wrapped[-1] = False
                return
            screen = self.screen
            screen.wrapped[screen.base + y] = False
        elif self.history_open:
            self.history_open = False
            self.emit("\n")

    def empty_row(self, y: int, held: Screen | None = None) -> None:
        """Row y is blank; ``held``: row y of the rows a lag holds aside (their cells are the screen's)."""
        screen = held or self.screen
        entry = screen.base + y  # (row y's entry in the screen's sequences)
        self.screen.cells -= len(screen.rows[entry])
        screen.rows[entry] = ""
        if screen.marks is not None:
            screen.marks[entry] = None
        screen.wrapped[entry] = False
        screen.used[entry] = 0
        screen.busy[entry] = 0

    def lose_row(self, y: int, moved: bool = False) -> None:
        """Row y is gone (pushed off a scroll region's edge, deleted or cleared): its cells are counted.
        ``moved``: a move takes it off the screen (it is not emptied where it is): the screen's live cells
        lose its cells too."""
        screen = self.screen
        row = screen.rows[screen.base + y]
        if row:
            written = _written(row)
            self.stats["cells_overwritten"] += written
            if written:
                self.stats["scrolled_out"] += 1
            if moved:
                screen.cells -= len(row)

    def clear_lines(self, y: int, n: int) -> None:
        """``grid_clear_lines``: rows [y, y + n) emptied; the row above is unwrapped. ``n`` may be negative,
        tmux's unsigned count gone below zero: then no row is emptied, and nothing happens at all when the
        last row it names (y + n - 1, counted from the top of the history) is before the first. Only the rows
        that are not blank already are visited (Screen.busy_rows)."""
        if n == 0 or self.hsize + y + n - 1 < 0:
            return
        screen = self.screen
        if n > 0:  # (IL and DL of one row in a region pass a negative count: nothing to look for)
            for yy in screen.busy_rows(y, y + n):
                self.stats["cells_overwritten"] += _written(screen.rows[screen.base + yy])
                self.empty_row(yy)
        if self.hsize + y != 0:
            self.unwrap(y - 1)

    def move_lines(self, dy: int, py: int, n: int) -> None:
        """``grid_move_lines``: rows [py, py + n) move to [dy, dy + n), the rows they replace are lost, the
        rows they leave are emptied."""
        if n == 0 or py == dy:
            return
        screen = self.screen
        d = dy - py
        # Only the rows the move replaces without moving them elsewhere are lost, and only the rows it
        # leaves are emptied: |d| rows each way (at most n), so a move costs O(rows) of memmove and
        # O(distance) of Python work, not O(rows) of Python work.
        lost = _outside(dy, py, n)
        for yy in lost:
            self.lose_row(yy, True)
        if self.hsize + dy != 0:
            self.unwrap(dy - 1)
        if d == 1 or d == -1:
            # one row, the common case (RI, IL, DL, SD, the alternate screen's LF): the lost row leaves the
            # lists and an empty one comes in where the moved rows were; an item's del and insert are
            # memmoves, without the slices and emptied rows of a rotation (RI at the top of a 1000-row
            # screen: 3.4 -> 1.8 us a sequence, benchmarks/README.md, round 18)
            screen.move_row(lost.start, py if d > 0 else dy + n)
            vacated = range(0)
        elif -n < d < n:
            # the ranges overlap: rotate their union by d (the lost rows come in where the moved ones were)
            screen.rotate(min(dy, py), max(dy, py) + n, d)
            vacated = _outside(py, dy, n)
        else:
            base = screen.base
            screen.set_entries(slice(base + dy, base + dy + n), screen.entries(slice(base + py, base + py + n)))
            vacated = _outside(py, dy, n)
        if vacated:
            screen.empty_entries(screen.base + vacated.start, screen.base + vacated.stop)
        if self.hsize + py != 0 and (py < dy or py >= dy + n):
            self.unwrap(py - 1)

    # ------------------------------------------------------------------ lines and scrolling (screen-write.c)

    def linefeed(self, wrapped: bool) -> None:
        """``screen_write_linefeed``: down a row; at the bottom of the scroll region, the region scrolls."""
        if wrapped:
            self.screen.wrapped[self.screen.base + self.cy] = True
            self.screen.touch(self.cy)  # (a blank row can wrap: a wide character that does not fit)
        if self.cy == self.rlower:
            self.scroll_region_up()
        elif self.cy < self.height - 1:
            if self.lag and self.cy == self.lag_row:
                # (the row below the region's top after RI's lag is the last it held aside: scroll_down_lagged;
                # text and a wrap go on there, and no print path tests the lag again)
                self.settle()
            self.cy += 1

    def scroll_region_up(self) -> None:
        """``grid_view_scroll_region_up``. On the main screen the region's top row goes to the history,
        whatever the region (tmux 3.3a's ``grid_scroll_history_region``), the rows below it move up and an
        empty row comes in at its bottom. The alternate screen has no history: its rows just move."""
        top, bottom = self.rupper, self.rlower
        if self.lags and self.cy == bottom:
            if self.lag and self.lag_row != bottom:  # (RI's lag: the region's rows in order first)
                self.settle()
            self.scroll_up_lagged()
            return
        if self.main is not None:
            self.scroll_rows_up(top)
            return
        screen = self.screen
        self.to_history(top)
        screen.cells -= len(screen.rows[screen.base + top])
        screen.move_row(top, bottom)

    def set_region(self, top: int, bottom: int) -> None:
        """The scroll region is rows [top, bottom]; whether line feeds on its last row may lag
        (scroll_up_lagged): a region of three rows or more that is not the whole screen (whose rows leave at
        its ends over spare entries: Screen.remove_row), on a screen of more than _MANY_BELOW rows, where a
        scroll moves enough entries to pay for the lag's own steps."""
        self.rupper = top
        self.rlower = bottom
        self.lags = self.height > _MANY_BELOW and bottom - top >= 2 and (top > 0 or bottom < self.height - 1)

    def scroll_up_lagged(self) -> None:
        """scroll_region_up with the cursor on the region's last row, without moving the region's rows. In
        the middle of a 65,535-row screen each scroll moved tens of thousands of entries of every sequence of
        the screen (remove_row, insert_row: text, a line feed and ``ESC 7`` there read 0.22 MB/s;
        benchmarks/README.md, round 39). Here the region's top row, the ``lag``-th row from its top since the
        rows above it left before, goes to the history as scroll_region_up takes it (on the alternate screen
        it is lost, as move_lines loses it) and is emptied, and the cursor's row is appended to ``lagged``
        and emptied where it is. While ``lag`` is not 0 the region is its rows from rupper + lag up to its
        last, then ``lagged``'s, then that row, which never moves: text, more line feeds and the edits of the
        cursor's row (_ROW_EDITS, and IL and DL there: _LINE_MOVES) go on as they would while the cursor is
        on it, and the cursor moves anywhere without reading a row. Whatever touches another row settles
        first: text or an edit with the cursor elsewhere, BS (it reads the row above the cursor), RI on the
        region's top row (then it lags: scroll_down_lagged), RIS, the screen switches, ED, SU, SD, DECSTBM
        (_SETTLES_LAG), live, resize, finish and push_rows; a write past max_live_cells commits rows through
        the lag (enforce_limits). The core's lag rotates its row order in place instead (_screen_c.pxi:
        scroll_up_lagged), its cursor's row mapped through the rotation (cursor_row); here that would be
        every print path's row lookup."""
        top = self.rupper
        screen = self.screen
        y = top + self.lag
        # (emptied where it is, so that the rows held aside and the ones that left never add up to more than
        # the region's cells: the screen's memory stays bounded by max_live_cells)
        if self.main is not None:  # move_lines(rupper, rupper + 1, ...): the row is lost, the row above unwrapped
            self.lose_row(y)
            self.empty_row(y)
            if self.hsize + top != 0:
                self.unwrap(top - 1)
        else:
            self.to_history(y)
            self.empty_row(y)
        lagged = self.lagged
        bottom = screen.base + self.rlower
        lagged.rows.append(screen.rows[bottom])
        lagged.marks.append(screen.marks[bottom] if screen.marks is not None else None)  # type: ignore[union-attr]
        lagged.wrapped.append(screen.wrapped[bottom])
        lagged.used.append(screen.used[bottom])
        lagged.busy.append(screen.busy[bottom])
        screen.empty_entries(bottom, bottom + 1)
        self.lag += 1
        self.lag_row = self.rlower
        if self.lag == self.rlower - self.rupper:  # (every row above the cursor's has left: no more to take)
            self.settle()

    def scroll_down_lagged(self) -> None:
        """scroll_region_down(rupper) with the cursor on the region's top row, without moving the region's
        rows: scroll_up_lagged's mirror, for RI (a pager scrolling back, a log written upwards). The
        region's last row, the ``lag``-th from its bottom since the rows below it left before, is lost, as
        scroll_region_down loses it, and is emptied; the cursor's row is unwrapped (it moves down), appended
        to ``lagged`` and emptied where it is, and the row above the region is unwrapped. While ``lag`` is
        not 0 the region is that row, then ``lagged``'s rows newest first, then its rows from rupper + 1 down
        to rlower - lag. What settles is what settles scroll_up_lagged's lag, and a line feed off that row
        (linefeed: text and wraps go on in the row below it). RI there was two moves of half the rows of a
        65,535-row screen: 0.06-0.12 MB/s (benchmarks/README.md, rounds 39 and 40)."""
        top = self.rupper
        screen = self.screen
        y = self.rlower - self.lag
        if screen.busy[screen.base + y]:  # (a row not busy is blank: nothing to lose or empty)
            if screen.rows[screen.base + y]:
                self.lose_row(y)
            self.empty_row(y)
        lagged = self.lagged
        entry = screen.base + top
        lagged.rows.append(screen.rows[entry])
        lagged.marks.append(screen.marks[entry] if screen.marks is not None else None)  # type: ignore[union-attr]
        lagged.wrapped.append(0)  # (move_lines' unwrap(dy - 1): the row that moves down)
        lagged.used.append(screen.used[entry])
        lagged.busy.append(screen.busy[entry])
        screen.empty_entries(entry, entry + 1)
        if top:
            screen.wrapped[entry - 1] = False  # (unwrap(top - 1): above the region, on the screen)
        elif self.hsize:
            self.unwrap(-1)
        self.lag += 1
        self.lag_row = top
        if self.lag == self.rlower - self.rupper:  # (every row below the cursor's has left: no more to take)
            self.settle()

    def settle(self) -> None:
        """The region's rows in order again after lagged line feeds (scroll_up_lagged): the ``lag`` rows that
        left its top leave the screen's sequences and ``lagged``'s come in above the cursor's row; after
        lagged RIs (scroll_down_lagged) the rows that left its bottom leave, and ``lagged``'s come in below
        the cursor's row, newest first. Either is a delete and an insert of entries, as each scroll's
        remove_row and insert_row were (so that a scroll then anything else costs what it did: building the
        region's rows anew for each settle made text, a line feed and IL there 7x slower)."""
        screen, lagged = self.screen, self.lagged
        k = self.lag
        if self.lag_row == self.rlower:
            screen.remove_rows(self.rupper, self.rupper + k)
            at = screen.base + self.rlower - k
            held = (lagged.rows, lagged.marks, lagged.wrapped, lagged.used, lagged.busy)
        else:  # (scroll_down_lagged: the emptied rows leave the region's bottom, the held rows go under its top)
            screen.remove_rows(self.rlower + 1 - k, self.rlower + 1)
            at = screen.base + self.rupper + 1
            marks = lagged.marks[::-1]  # type: ignore[index]  # (_lagged_rows: a list, marks or not)
            held = (lagged.rows[::-1], marks, lagged.wrapped[::-1], lagged.used[::-1], lagged.busy[::-1])
        screen.set_entries(slice(at, at), held)
        self.lag = 0
        self.lagged = _lagged_rows()

    def scroll_region_down(self, top: int) -> None:
        """move_lines(top + 1, top, rlower - top), written out for its one case: the region's rows from top
        move down one, its last row is lost, an empty row comes in at top and the row above it is
        unwrapped. RI's scroll and SD 1's (top: rupper), and IL's of one row (top: the cursor's row). ``x``
        then RI at the top of a 1000-column screen, three bytes, was about twenty Python calls, a fifth of
        them move_lines' general steps: 0.81-0.83 MB/s (benchmarks/README.md, round 38); ``x`` then IL
        there, 0.97-0.99 (round 39). The core's scroll_region_down is move_lines', for RI and SD only."""
        bottom = self.rlower
        if top == bottom:  # (move_lines of no rows)
            return
        screen = self.screen
        self.lose_row(bottom, True)
        screen.wrapped[screen.base + top] = False  # (move_lines' unwrap(dy - 1): the row that moves down)
        screen.move_row(bottom, top)
        if self.hsize + top != 0:
            self.unwrap(top - 1)

    def scroll_rows_up(self, top: int) -> None:
        """move_lines(top, top + 1, rlower - top), written out for its one case, as scroll_region_down is for
        the other way: the row at top is lost, the rows below it up to the region's last move up one, an
        empty row comes in at the last, the row above top is unwrapped (and top itself in a region of two
        rows from there: move_lines' second unwrap). The alternate screen's line feed at the bottom of a
        region, and DL of one row: move_lines' general steps (the lost and vacated ranges, the tests for
        both unwraps) were a tenth of x, DL, CR at 80x24 (round 50)."""
        bottom = self.rlower
        if top == bottom:  # (move_lines of no rows)
            return
        screen = self.screen
        self.lose_row(top, True)
        if self.hsize + top != 0:
            self.unwrap(top - 1)
        screen.move_row(top, bottom)
        if bottom == top + 1 and self.hsize + bottom != 0:
            self.unwrap(top)

    def scroll_up(self, n: int) -> None:
        """SU n, 1 < n <= the region's height: what n calls of scroll_region_up do (tmux's
        ``screen_write_scrollup`` loops), at once. The region's top n rows leave in order (leave_rows: to
        the history, the blank ones as runs of line feeds; lost on the alternate screen) and the rows below
        move up n with one rotation. SU 999 in a region of 500 rows was 500 scrolls a sequence (0.006 MB/s
        here, 0.7 in the core; benchmarks/README.md, round 14)."""
        top, bottom = self.rupper, self.rlower
        size = bottom + 1 - top
        if self.main is not None and size < 3:
            for _ in range(n):  # (move_lines of a region of two rows also unwraps the row that becomes its top)
                self.scroll_region_up()
            return
        self.leave_rows(top, top + n)
        if n < size:
            self.screen.rotate(top, bottom + 1, -n)

    def scroll_down(self, n: int) -> None:
        """SD n, 1 < n <= the region's height: what n calls of scroll_region_down (move_lines) do, at once.
        The region's last n rows are lost (counted), its top row is unwrapped (the first move_lines does so
        before it moves it), the rest move down n with one rotation and n empty rows come in at its top; the
        row above the region is unwrapped (or the history's open line ended)."""
        top, bottom = self.rupper, self.rlower
        self.drop_rows(bottom + 1 - n, bottom + 1)
        self.screen.wrapped[self.screen.base + top] = False
        if n < bottom + 1 - top:
            self.screen.rotate(top, bottom + 1, n)
        if self.hsize + top != 0:
            self.unwrap(top - 1)

    def leave_rows(self, a: int, b: int) -> None:
        """Rows [a, b) leave the top of the scroll region in this order, as scroll_region_up takes them: to the
        history on the main screen (a blank row is a line feed: runs of them go at once), lost on the
        alternate screen (counted, and the row above the region unwrapped, as move_lines does). Each is
        emptied where it is; the caller moves them."""
        if b <= a:
            return
        if self.main is not None:
            self.drop_rows(a, b)
            if self.hsize + self.rupper != 0:
                self.unwrap(self.rupper - 1)
            return
        y = a
        for busy in self.screen.busy_rows(a, b):
            self.blank_lines_to_history(busy - y)
            self.to_history(busy)
            self.empty_row(busy)
            y = busy + 1
        self.blank_lines_to_history(b - y)

    def drop_rows(self, a: int, b: int) -> None:
        """Rows [a, b) are lost as move_lines loses a row: counted, and emptied."""
        for y in self.screen.busy_rows(a, b):
            self.lose_row(y)
            self.empty_row(y)

    def blank_lines_to_history(self, m: int) -> None:
        """m blank rows to the history: m line feeds at once (what to_history writes for each)."""
        if m > 0:
            self.hsize += m
            self.history_open = False
            self.emit("\n" * m)

    def reverseindex(self) -> None:
        if self.cy == self.rupper:
            if self.lags:
                self.scroll_down_lagged()
                return
            self.scroll_region_down(self.rupper)
        elif self.cy > 0:
            self.cy -= 1

    def insertline(self, n: int) -> None:
        cy = self.cy
        if cy < self.rupper or cy > self.rlower:
            n = min(n, self.height - cy)
            if n:
                self.move_lines(cy + n, cy, self.height - cy - n)
            return
        if cy == self.rlower:  # the region's last row is emptied, whatever n (a line feed's lag stays: _ROW_EDITS)
            self.clear_lines(cy, 1)
            return
        n = min(n, self.rlower + 1 - cy)
        if n:
            kept = self.rlower + 1 - cy - n
            if n == 1:  # (move_lines(cy + 1, cy, kept))
                self.scroll_region_down(cy)
                # (then clear_lines(rlower, 1 - kept), inline: tmux's unsigned count gone below zero empties no
                # row, but unwraps the row above the region's last; a tenth of x then IL at 1000x24, round 53)
                if kept > 1 and self.hsize + self.rlower != 0:
                    self.unwrap(self.rlower - 1)
                return
            self.move_lines(self.rlower + 1 - kept, cy, kept)
            self.clear_lines(cy + kept, n - kept)

    def deleteline(self, n: int) -> None:
        cy = self.cy
        if cy < self.rupper or cy > self.rlower:
            sy = self.height
            n = min(n, sy - cy)
            if n:
                self.move_lines(cy, cy + n, sy - cy - n)
                self.clear_lines(sy - n, cy + n - (sy - n))
            return
        if cy == self.rlower:  # as insertline
            self.clear_lines(cy, 1)
            return
        n = min(n, self.rlower + 1 - cy)
        if n:
            kept = self.rlower + 1 - cy - n
            if n == 1:  # (move_lines(cy, cy + 1, kept))
                self.scroll_rows_up(cy)
                if kept > 1 and self.hsize + self.rlower != 0:  # (clear_lines(rlower, 1 - kept): as insertline)
                    self.unwrap(self.rlower - 1)
                return
            self.move_lines(cy, cy + n, kept)
            self.clear_lines(cy + kept, n - kept)

    def scrollregion(self, top: int, bottom: int) -> None:
        top = min(top, self.height - 1)
        bottom = min(bottom, self.height - 1)
        if top >= bottom:
            return
        self.cx = self.cy = 0
        self.set_region(top, bottom)

    # ------------------------------------------------------------------ erasing

    def clear_cells(self, y: int, start: int, stop: int) -> None:
        """``grid_view_clear`` on one row: cells [start, stop) become blank; the whole row is
        ``clear_lines``."""
        if start == 0 and stop >= self.columns:
            self.clear_lines(y, 1)
            return
        screen = self.screen
        row = screen.rows[screen.base + y]
        size = len(row)
        if start >= size:
            return
        if stop >= size:  # (to the row's end, which is never blank: EL 1 or ED 1 after a typed character)
            self.stats["cells_overwritten"] += _written_in(row, start, size)
            new = row[:start]
            screen.rows[screen.base + y] = trim_row(new) if new and new[-1] == BLANK else new
            _edit_marks(screen, y, start, size, size - start)
            screen.cells += len(screen.rows[screen.base + y]) - size
            return
        blanks = BLANK * (stop - start) if stop - start < _WHOLE_RUN else repeated(BLANK, stop - start)
        if row.startswith(blanks, start):
            return  # EL 1 or ECH again over what it erased: one comparison, nothing changes (a blank has no marks)
        self.stats["cells_overwritten"] += _written_in(row, start, stop)
        row = screen.rows[screen.base + y] = trim_row(set_cells(row, start, stop, blanks))
        _edit_marks(screen, y, start, stop, stop - start)
        screen.cells += len(row) - size

    def clearline(self) -> None:
        if self.screen.used[self.screen.base + self.cy]:
            self.clear_lines(self.cy, 1)

    def clearendofline(self) -> None:
        if self.cx == 0:
            self.clearline()
        elif self.cx <= self.columns - 1:
            self.clear_cells(self.cy, self.cx, self.columns)

    def clearstartofline(self) -> None:
        if self.cx >= self.columns - 1:
            self.clearline()
        else:
            self.clear_cells(self.cy, 0, self.cx + 1)

    def clearendofscreen(self) -> None:
        if self.cx == 0 and self.cy == 0 and self.main is None:
            self.clearscreen()  # tmux's scroll-on-clear: the screen goes to the history first
            return
        if self.cx <= self.columns - 1:
            self.clear_cells(self.cy, self.cx, self.columns)
        self.clear_lines(self.cy + 1, self.height - self.cy - 1)

    def clearstartofscreen(self) -> None:
        if self.cy > 0:
            self.clear_lines(0, self.cy)
        self.clear_cells(self.cy, 0, self.cx + 1)

    def clearscreen(self) -> None:
        """ED 2 (SPEC 2.8): the screen's rows through the last used one go to the history first (tmux's
        scroll-on-clear; the alternate screen has no history), then every row is empty."""
        if self.main is not None:
            self.clear_lines(0, self.height)
            return
        last = self.screen.last_used() + 1
        if last == 0:
            self.clear_lines(0, self.height)
            return
        # scroll_region_full ``last`` times: those rows to the history in order (a character on the last row
        # then ED 2 committed 1000 rows one by one, 0.007 MB/s), the rest up and cleared. leave_rows empties
        # the rows it takes and the rest hold no cells (at most a busy flag: an erase that empties a row
        # unwraps the row above it), so the rotation that took the rest up moved empty rows among empty rows: the
        # rest are cleared where they are, and the clear's unwrap of the row above it, after that rotation the
        # history's last line, is done as such (round 49: the rotation was a sixth of x, ED 2 and CR at 80x24).
        self.leave_rows(0, last)
        if last < self.height:
            self.clear_lines(last, self.height - last)  # (its unwrap: row last - 1, which leave_rows emptied)
            self.unwrap(-1)  # (hsize is not 0: leave_rows took a row to it)

    def scroll_region_full(self) -> None:
        """``grid_scroll_history``: the top row to the history, an empty row at the bottom."""
        screen = self.screen
        self.to_history(0)
        screen.cells -= len(screen.rows[screen.base])
        screen.move_row(0, screen.row_count() - 1)

    # ------------------------------------------------------------------ characters

    def insertcharacter(self, n: int) -> None:
        """ICH as tmux 3.3a does it (``grid_view_insert_cells``): the cells from the cursor move right by
        n and the ones they leave are blanked; where fewer cells move than are inserted, cells between them
        keep what they had, and with none to move nothing changes."""
        sx = self.columns
        cx = self.cx
        n = min(n, sx - cx)
        if n <= 0 or cx > sx - 1:
            return
        if cx >= sx - 1:
            self.clear_cells(self.cy, cx, cx + 1)
            return
        cut = sx - n
        if cut <= cx:  # (no cell to move: move_cells changes nothing, as tmux)
            return
        screen = self.screen
        entry = screen.base + self.cy
        row = screen.rows[entry]
        size = len(row)
        if cx >= size:  # (blanks moved over blanks: move_cells changes no cell, and counts the row used)
            if screen.used[entry] < sx:
                screen.used[entry] = sx
            screen.busy[entry] = 1
            if screen.cells > self.max_live_cells:
                self.enforce_limits()
            return
        if size <= sx and n < cut - cx:
            # Inside the row's text, more cells moved than inserted: move_cells' overlapping move right, which
            # is n blanks spliced in at the cursor and the cells past the margin gone (counted), and the same
            # splice of the marks' codes: insert_char's edit, with blanks, without move_cells' general tests
            # (x, ICH and CR in insert mode at 1000 columns: 62,184 instructions an iteration, 0.69-0.72 MB/s;
            # with e and a combining acute, 96,684 and 0.80; round 53). The cursor stays.
            self.insert_char(BLANK * n, 1, n)
            self.cx = cx
            return
        self.move_cells(self.cy, cx + n, cx, sx - cx - n)

    def deletecharacter(self, n: int) -> None:
        """DCH (``grid_view_delete_cells``): the cells after the deleted ones move left; the end is
        blanked."""
        sx = self.columns
        cx = self.cx
        n = min(n, sx - cx)
        if n <= 0 or cx > sx - 1:
            return
        self.move_cells(self.cy, cx, cx + n, sx - cx - n)
        count = cx + 2 * n - sx  # tmux clears this many cells at sx - n (none when it is not positive)
        if count > 0:
            self.clear_cells(self.cy, sx - n, sx - n + count)

    def move_cells(self, y: int, dx: int, px: int, nx: int) -> None:
        """``grid_move_cells``: cells [px, px + nx) of row y to [dx, dx + nx); the cells they replace are
        gone (counted), the ones they leave that are not replaced are blanked. Cells past the row's content
        are blank, so the work is bounded by the content, not by the screen's width (the bounded-cost issue:
        ICH/DCH on a wide row): only the ``moved`` cells of the source that hold anything move, and
        everything is slices. The row's marks, if it has any, move by the same slices (with NO_MARK where the
        row gets blanks)."""
        if nx <= 0 or px == dx:
            return
        screen = self.screen
        entry = screen.base + y  # (row y's entry in the screen's sequences)
        cells = screen.rows[entry]
        size = len(cells)
        overlap = abs(dx - px) < nx and px < size
        marks = screen.marks[entry] if screen.marks is not None else None  # (_marks_at, inline)
        codes = ""
        moving = False
        if marks is not None:
            codes = marks[0]
            moving = len(codes) > min(px, dx)  # (else no mark from where the move begins: the codes stay)
            if moving and len(codes) < size:  # (the moves below slice the codes as they slice the row)
                codes += NO_MARK * (size - len(codes))
        if px >= size and dx >= size:
            pass  # blanks moved over blanks (ICH or DCH on a row emptied by them): no cell changes
        elif overlap and px < dx:
            # A move right that overlaps itself, from inside the content (ICH): the cells it replaces leave
            # the row and blanks go in where the moved cells were.
            start, stop = min(px + nx, size), min(dx + nx, size)
            self.stats["cells_overwritten"] += _written_in(cells, start, stop)
            cells = _moved_right(cells, BLANK, px, dx, start, stop)
            if moving:
                codes = _moved_right(codes, NO_MARK, px, dx, start, stop)
        elif overlap and px + nx >= size:
            # The same to the left, with the moved cells reaching the content's end (DCH): the cells it
            # replaces leave the row, and the ones it vacates are past the end, blank.
            self.stats["cells_overwritten"] += _written_in(cells, dx, px)
            cells = splice(cells, dx, px, "")
            if moving:
                codes = splice(codes, dx, px, "")
        else:
            moved = max(min(px + nx, size) - px, 0)
            end = dx + moved if moved and dx + moved > size else size
            gone = (dx, min(dx + nx, px)) if dx < px else (max(dx, px + nx), dx + nx)
            self.stats["cells_overwritten"] += _written(cells[gone[0] : min(gone[1], size)])
            rest = min(dx + nx, end)  # the rest of the destination gets the source's blanks
            left = (px, min(px + nx, dx)) if px < dx else (max(px, dx + nx), px + nx)
            left_stop = max(min(left[1], end), left[0])  # the source's cells that the destination leaves: blanked
            shifted = None
            if px < dx and rest >= size and moved:
                shifted = _moved_to_end(cells, px, dx, moved, left_stop)
            cells = shifted or _moved(cells, BLANK, end - size, px, dx, moved, rest, left[0], left_stop)
            if moving:
                codes = _moved(codes, NO_MARK, end - size, px, dx, moved, rest, left[0], left_stop)
        cells = screen.rows[entry] = trim_row(cells)
        if marks is not None:
            if moving:  # (the codes padded to the row: back to its last mark)
                codes = codes[: len(codes) - _trailing_blanks(codes, _NO_MARK_RUNS)]
            screen.marks[entry] = (codes[: len(cells)], marks[1])  # type: ignore[index]
        screen.cells += len(cells) - size
        screen.used[entry] = max(screen.used[entry], dx + nx)
        screen.touch(y)  # (ICH on a blank row counts it used)
        if screen.cells > self.max_live_cells:
            self.enforce_limits()

    # ------------------------------------------------------------------ the cursor

    # (The cursor moves clamp with conditional expressions, not min(): a builtin call was a tenth of CUU's
    # instructions at 80x24; round 51.)

    def cursormove(self, px: int, py: int, origin: bool) -> None:
        if origin and py != -1 and self.origin:
            py = self.rlower if py > self.rlower - self.rupper else py + self.rupper
        if px != -1:
            self.cx = px if px < self.columns else self.columns - 1
        if py != -1:
            self.cy = py if py < self.height else self.height - 1

    def cursorup(self, n: int) -> None:
        cy = self.cy
        room = cy if cy < self.rupper else cy - self.rupper
        if self.cx == self.columns:
            self.cx -= 1
        self.cy = cy - (n if n < room else room)

    def cursordown(self, n: int) -> None:
        cy = self.cy
        room = self.height - 1 - cy if cy > self.rlower else self.rlower - cy
        n = n if n < room else room
        if self.cx == self.columns:
            self.cx -= 1
        elif n == 0:
            return
        self.cy = cy + n

    def cursorright(self, n: int) -> None:
        # tmux computes the room as an unsigned number, so from the pending wrap nothing is clamped here;
        # setting the cursor then puts a column past the margin on the last one
        cx = self.cx
        if cx < self.columns and n > self.columns - 1 - cx:
            n = self.columns - 1 - cx
        cx += n
        self.cx = cx if cx <= self.columns else self.columns - 1

    def cursorleft(self, n: int) -> None:
        cx = self.cx
        self.cx = cx - n if n < cx else 0

    def backspace(self) -> None:
        if self.cx == 0:
            if self.cy > 0 and self.screen.wrapped[self.screen.base + self.cy - 1]:
                self.cy -= 1
                self.cx = self.columns - 1
        else:
            self.cx -= 1

    def save_state(self) -> None:
        self.saved = (self.cx, self.cy, self.origin)

    def restore_state(self) -> None:
        cx, cy, self.origin = self.saved
        self.cursormove(cx, cy, False)


def _lagged_rows() -> Screen:
    """An empty Screen to hold a region's lagged rows (ScreenSink.scroll_up_lagged), marks or not."""
    lagged = Screen(0)
    lagged.marks = []
    return lagged


def _spaces_over(match: re.Match[str]) -> str:
    """put_spaces: a run of cells that hold characters, each written over by a space."""
    return " " * (match.end() - match.start())


def _clean_span(row: str, start: int, stop: int) -> int:
    """-1 unless cells [start, stop) of ``row`` hold no padding but a wide character's own (right after it),
    and the cell after them is no padding: then what put_char or put_ascii do to them one character at a
    time, their clearing of padding included, is writing their cells (the padding a wide character they
    overwrite leaves is overwritten next; _screen_c.pxi, put_run). Then: how many of them hold a character
    (what writing over them counts as overwritten), from the same scan. Marks do not matter here: put_char
    does to a marked cell what it does to any (a write, which drops the cell's codes: write_cells); the
    core's clean_take stops at one only because its cells carry the mark's flag (round 31)."""
    if start >= len(row):
        return 0  # past the row's end (a new line's text): blank cells
    if stop < len(row) and row[stop] == PAD:
        return -1  # stray padding that they would clear
    if stop == start + 1:  # one cell (a character typed, a redrawn spinner)
        cell = row[start]
        if cell == PAD:  # (padding first in the span has no character before it)
            return -1
        return 0 if cell == BLANK else 1
    if row.find(PAD, start, stop) < 0:
        stop = min(stop, len(row))  # (clean: counted in place, without the span's copy)
        return stop - start - _unwritten(row, start, stop, False)
    clean, span = _clean_prefix(row, start, stop)
    return _held(span, clean) if clean == stop - start else -1


def _over_right_half(row: str, x: int, first: str) -> bool:
    """Whether cell x of ``row`` is the padding of a wide character in cell x - 1 that text starting with
    ``first``, written at x, blanks before anything else (so that with the rest of its span clean, the two
    are one write from x - 1): put_char always blanks it (overwrite), put_ascii's collected path except at
    column 0 (tmux's walk back stops before it). A wide character then BS, typed on, is each time written
    over the last one's padding: the fallback's put_char path for it read 0.35 MB/s (round 44)."""
    if not 0 < x < len(row) or row[x] != PAD or (x == 1 and first.isascii()):
        return False
    cell = row[x - 1]
    return cell != BLANK and cell != PAD and char_width(cell) == 2


def _clean_prefix(row: str, start: int, stop: int) -> tuple[int, str]:
    """How many cells from ``start`` on, up to ``stop``, are clean as _clean_span says (the cell after them
    unchecked; cells past the row's end are blank, so clean): the first padding without its wide character
    ends them. And the cells, at least as far as they are clean (for _held). (Its callers take a span that
    starts past the row's end, blank cells, without it.)"""
    span = row[start:stop]
    clean = max(stop - start, 0)
    if PAD in span:
        orphan = _ORPHAN_PAD.search(span)
        if orphan:
            clean = orphan.start()
    return clean, span


def _padded(text: str) -> str:
    """The cells of ``text``, characters of one or two cells: each wide character followed by padding."""
    if text.isascii() or not _WIDE_BMP_CHAR.search(text):  # (isascii: O(1), a str flag)
        return text
    # runs of wide characters alternate with the rest
    parts = _WIDE_SPLIT.split(text)
    parts[1::2] = [PAD.join(run) + PAD for run in parts[1::2]]
    return "".join(parts)


def _text_cells(text: str) -> str | None:
    """ScreenSink.text_cells."""
    if not _CELL_TEXT.fullmatch(text):
        return None
    return _padded(text)


def _fitting_marks(marks: str, room: int) -> str:
    """The zero-width characters of ``marks`` that join a cell with ``room`` bytes of UTF-8 left, taken in
    order as combine takes each: one that would not fit is dropped, and a shorter one after it may still
    fit. No zero-width character is ASCII, so under two bytes nothing fits; at two or three only characters
    of that many bytes or fewer do, found by one search (a long run of ones too long is not looked at one by
    one)."""
    if len(marks.encode()) <= room:
        return marks
    kept = []
    i, end = 0, len(marks)
    while room >= 2 and i < end:
        char = marks[i]
        size = len(char.encode())
        if size <= room:
            kept.append(char)
            room -= size
            i += 1
            continue
        found = (_TWO_BYTE_CHAR if room == 2 else _BMP_CHAR).search(marks, i + 1)
        if found is None:
            break
        i = found.start()
    return "".join(kept)


def _marked_cells(text: str) -> tuple[str, tuple[int, ...], tuple[str, ...]] | None:
    """The cells of ``text``, characters of one or two cells each followed by at most _MARKS_UNMEASURED
    zero-width ones: the cells without the marks, the index among them of the cell each run of marks joins
    (a wide character's own, before its padding), and the runs. None for any other text. (Tuples: a short
    text's are the cache's own.)"""
    return _short_marked_cells(text) if len(text) <= _CACHED_TEXT else _text_marked_cells(text)


def _text_marked_cells(text: str) -> tuple[str, tuple[int, ...], tuple[str, ...]] | None:
    """_marked_cells, measured."""
    if not _MARKED_TEXT.fullmatch(text):
        return None
    parts = _MARK_SPLIT.split(text)  # a character's text, its marks, the next text, ... (the last text maybe "")
    runs = parts[1::2]
    if not runs or max(map(len, runs)) > _MARKS_UNMEASURED:
        return None
    texts = parts[::2]
    if _WIDE_BMP_CHAR.search(text):  # (one search: most such text, Devanagari or Thai, has no wide character)
        texts = [_padded(part) for part in texts]
    positions = []
    last = -1
    for part in texts[:-1]:
        last += len(part)
        positions.append(last - 1 if part[-1] == PAD else last)
    return "".join(texts), tuple(positions), tuple(runs)


# A character typed or redrawn between controls is one short text, again and again (a spinner, a table drawn
# by cursor moves, a decomposed accent): the cells of short texts are measured once, in caches bounded in
# entries and key length (a stream of distinct ones costs a measure each, never memory), as the parser's
# parameters are. Each such character's regex matches and splits were a third of its instructions (round 48).
_CACHED_TEXT = 16
_short_text_cells = lru_cache(maxsize=1024)(_text_cells)
_short_marked_cells = lru_cache(maxsize=1024)(_text_marked_cells)
_typed_width = lru_cache(maxsize=1024)(char_width)  # (ScreenSink.print: a character on its own)


def _mark_codes(positions: Sequence[int], first: int) -> str:
    """A row's mark codes (Marks) from column 0 for runs of marks on the cells ``positions`` (_marked_cells),
    the first run's string at index ``first`` of the row's list."""
    pieces = []
    at = 0
    for index, x in enumerate(positions, first):
        pieces.append(NO_MARK * (x - at))
        pieces.append(chr(index))
        at = x + 1
    return "".join(pieces)


def _mark_cell(screen: Screen, entry: int, x: int, marks: str) -> None:
    """The run ``marks`` joining cell x of the row at ``entry``, which has no marks (combine's, and
    put_typed's for a cell a write or an insert has just given a character): a fresh string at the end of the
    row's list (compacted first when it has outgrown combine's bound), and the cell's code pointing at it; the
    marks of the row's other cells stay."""
    if screen.marks is None:
        screen.marks = [None] * len(screen.rows)
    codes, strings = screen.marks[entry] or ("", [])
    if len(strings) >= 2 * len(screen.rows[entry]) + 64:
        # strings no code points at any more (their cells were overwritten): dropped, and the codes renumbered,
        # once for every len(row) + 64 new marks at least
        if x < len(codes):  # (the code the write replaced first, as write_cells clears it)
            codes = codes[:x] + NO_MARK + codes[x + 1 :]
        codes, strings = _compact_marks(codes, strings)
    if len(codes) < x:
        codes += NO_MARK * (x - len(codes))
    screen.marks[entry] = (codes[:x] + chr(MARK_BASE + len(strings)) + codes[x + 1 :], strings)
    strings.append(marks)


def _marks_at(screen: Screen, y: int) -> Marks | None:
    """Row y's marks, None if it has none."""
    return screen.marks[screen.base + y] if screen.marks is not None else None


def _codes_at(screen: Screen, y: int) -> str | None:
    """The codes of row y's marks, None if it has none."""
    marks = screen.marks[screen.base + y] if screen.marks is not None else None
    return marks[0] if marks is not None else None


def _marked(codes: str | None, start: int, stop: int) -> bool:
    """Whether a cell of [start, stop) has marks (``codes`` as _codes gives them)."""
    return codes is not None and _first_mark(codes, start, stop) < min(stop, len(codes))


_MARKED_CODE = re.compile(f"[^{NO_MARK}]")


def _first_mark(codes: str, start: int, stop: int) -> int:
    """The first cell of [start, stop) with marks (stop, or the codes' end, if none): over a short span a
    regex search of the codes, over a long one _run's probes (a few memcmps where the search tests each code,
    and neither is a Python loop)."""
    stop = min(stop, len(codes))
    if stop - start < 256:
        found = _MARKED_CODE.search(codes, start, stop)
        return found.start() if found else stop
    return start + _run(codes, _NO_MARK_RUNS, start, stop)


def _edit_marks(screen: Screen, y: int, x: int, stop: int, n: int) -> None:
    """Row y's cells [x, stop), as they were, are now ``n`` cells without marks (and the row may be trimmed
    since): its marks follow, by the same slices. (A row keeps its codes, whether or not any mark is left,
    until it is emptied: a search for one at every edit cost more than the codes' slices.)"""
    marks = _marks_at(screen, y)
    if marks is not None:
        codes = _cleared(marks[0], x, stop, n, len(screen.rows[screen.base + y]))
        screen.marks[screen.base + y] = (codes, marks[1])  # type: ignore[index]


def _spliced(codes: str, x: int, stop: int, span: str, end: int) -> str:
    """A row's ``codes`` with [x, stop) replaced by the codes ``span`` (of its first cells: the rest have no
    marks), cut at the row's new ``end``."""
    if x > len(codes):
        codes += NO_MARK * (x - len(codes))
    if stop >= len(codes):
        codes = codes[:x] + span
    else:
        codes = codes[:x] + span + NO_MARK * (stop - x - len(span)) + codes[stop:]
    return codes[:end] if len(codes) > end else codes


def _cleared(codes: str, x: int, stop: int, n: int, end: int) -> str:
    """_spliced for ``n`` cells without marks: codes that end before ``stop`` end at ``x`` at the latest (no
    copy of the row's length for a write past the last mark)."""
    if stop >= len(codes):
        return codes[: min(x, end)]
    codes = codes[:x] + NO_MARK * n + codes[stop:]
    return codes[:end] if len(codes) > end else codes


def _compact_marks(codes: str, strings: list[str]) -> Marks:
    """A row's marks with only the strings its codes still point at, renumbered in order."""
    used = sorted(set(codes) - {NO_MARK})
    renumber = {ord(code): MARK_BASE + index for index, code in enumerate(used)}
    return codes.translate(renumber), [strings[ord(code) - MARK_BASE] for code in used]


def _written_in(row: str, start: int, stop: int) -> int:
    """_written of cells [start, stop) of ``row``: two counts in place."""
    stop = min(stop, len(row))
    return stop - start - _unwritten(row, start, stop) if start < stop else 0


def _held(span: str, stop: int) -> int:
    """Cells holding a character among the first ``stop`` of ``span`` (_clean_prefix's string; past its end,
    blank cells)."""
    held = min(stop, len(span))
    return held - _unwritten(span, 0, held)


# Runs of each power of two up to the widest row, of blanks and of cells without marks: _run's probes
# compare against them in place.
_BLANK_RUNS = [BLANK * (1 << i) for i in range(MAX_SIZE.bit_length() + 1)]
_NO_MARK_RUNS = [NO_MARK * (1 << i) for i in range(MAX_SIZE.bit_length() + 1)]
_FEW_RUNS = 8  # blank runs measured one by one before a span's blanks are counted character by character


_WHOLE_RUN = 256  # _run compares a range at least this long whole first
# _unwritten counts a span shorter than this: str.count reads about 0.4 ns a character here, and a probe is a
# method call, about 100 ns, up to 13 of them a run (round 36: a 1000-cell row of 500 blanks then a character,
# lost as x then RI walks the cursor right, 1.95 us probed and 0.57 counted; 256 before). Longer spans are
# probed: a 65,535-cell row of a few runs in about 2.5 us where the count takes 25.
_COUNT_SPAN = 4096


def _run(text: str, runs: list[str], at: int, stop: int) -> int:
    """How many of text[at:stop] are ``runs``' character from ``at`` on: the longest power-of-two runs that
    match, from the largest down (a memcmp each where ``text`` is of the runs' kind; a run that matches n
    characters matches every shorter one). A long range is compared whole first, as a range erased again
    or a run of blanks to the end of what an erase covers is (one memcmp where the probes made 16 calls:
    EL 1 near the end of a 65,535-cell row, round 32); when it is not, the probes read its blanks again,
    at most twice the work."""
    blank = runs[0]
    if stop - at >= _WHOLE_RUN and text[stop - 1] == blank and text.startswith(repeated(blank, stop - at), at):
        return stop - at  # (the range's last cell tested first: no run of its length built for nothing)
    length = 0
    for i in range((stop - at).bit_length(), -1, -1):
        size = 1 << i
        if at + length + size <= stop and text.startswith(runs[i], at + length):
            length += size
    return length


def _blank_run(text: str, at: int, stop: int) -> int:
    """How many of text[at:stop] are blanks from ``at`` on (_run)."""
    return _run(text, _BLANK_RUNS, at, stop)


def _unwritten(text: str, start: int, stop: int, pads: bool = True) -> int:
    """``text.count(BLANK, start, stop) + text.count(PAD, start, stop)`` (start < stop <= len(text)), the cells
    of a str row or span that hold no character. str.count compares every character (27 us for 65,000 cells
    here), where find is a memchr (0.06 us): a kind absent from the span costs a find, and blanks in a few
    long runs (a row written at its start and far past it, EL 1 near its end) cost a find and a few memcmp
    probes a run; past _FEW_RUNS runs, the rest is counted. A short span: two counts cost less; so does text
    past ASCII (a row with wide characters, two or four bytes a character), which the one-byte runs do not
    compare with a memcmp. ``pads=False``: the caller found no padding in the span already."""
    count = text.count(PAD, start, stop) if pads and text.find(PAD, start, stop) >= 0 else 0
    if stop - start < _COUNT_SPAN or not text.isascii():
        return count + text.count(BLANK, start, stop)
    at = text.find(BLANK, start, stop)
    if at < 0:
        return count
    for _ in range(_FEW_RUNS):
        run = _blank_run(text, at, stop)
        count += run
        at = text.find(BLANK, at + run, stop)
        if at < 0:
            return count
    return count + text.count(BLANK, at, stop)


def _moved_right(row: str, blank: str, px: int, dx: int, start: int, stop: int) -> str:
    """move_cells' overlapping move right: cells [start, stop) leave, ``dx - px`` blanks go in at px. When
    they reach the row's end (ICH on a full row), the blanks are spliced in and the row cut at ``start``:
    one copy of a long row (ICH 1 at column 0 of 65,535 cells was two)."""
    if stop >= len(row):
        return splice(row, px, px, blank * (dx - px), start)
    return row[:px] + blank * (dx - px) + row[px:start] + row[stop:]


def _moved(row: str, blank: str, grow: int, px: int, dx: int, moved: int, rest: int, left: int, left_stop: int) -> str:
    """move_cells' other moves: the row padded by ``grow`` blanks, the ``moved`` cells from px at dx and
    blanks to ``rest``, and [left, left_stop) blanked. The two ranges are disjoint: the row in order, joined
    once."""
    row += blank * grow
    destination = row[px : px + moved] + blank * (rest - dx - moved)
    blanks = blank * (left_stop - left)
    if left < dx:
        return "".join((row[:left], blanks, row[left_stop:dx], destination, row[rest:]))
    return "".join((row[:dx], destination, row[rest:left], blanks, row[left_stop:]))


def _moved_to_end(row: str, px: int, dx: int, moved: int, left_stop: int) -> str | None:
    """_moved's move right when nothing of the row is left after where the ``moved`` cells land (ICH of at
    least half the cells after the cursor), trimmed: the row built only up to the moved cells' last character,
    found in place, without padding the row to its new end, the blanks after them, or trim_row's probes of
    them (ICH 40000 of a 65,535-cell row: six copies of the row and seventeen probes of a 65,535-cell string,
    round 32). Moved cells that are all blank and land past the row's end leave the row as it was: the cells
    they vacate, up to left_stop, are among them. None otherwise (the caller takes _moved and trim_row)."""
    stop = px + moved
    if stop < len(row):
        stop -= _trailing_blanks(row, _BLANK_RUNS, px, stop)
    if stop > px:
        middle = row[left_stop:dx]  # the cells between the blanked ones and the destination keep what they had
        if len(middle) < dx - left_stop:  # (past the row's end: blank)
            middle += BLANK * (dx - left_stop - len(middle))
        return "".join((row[:px], BLANK * (left_stop - px), middle, row[px:stop]))
    if dx >= len(row):
        return row
    return None


def _rotate(items: MutableSequence[_Item], low: int, high: int, d: int) -> None:
    """Rotate items[low:high] by d (0 < |d| < high - low): the item at i goes to i + d, the |d| pushed past
    one end come in at the other (_screen_c.pxi, screen_rotate)."""
    if 2 * abs(d) > high - low:  # the same rotation the shorter way round (SU 999 of 1000 rows: by 1)
        d = d - (high - low) if d > 0 else d + (high - low)
    if d > 0:
        moved = items[high - d : high]
        del items[high - d : high]
        items[low:low] = moved
    else:
        moved = items[low : low - d]
        del items[low : low - d]
        items[high + d : high + d] = moved


def _outside(start: int, other: int, n: int) -> range:
    """The rows of [start, start + n) that are not in [other, other + n)."""
    if start < other:
        return range(start, min(start + n, other))
    return range(max(start, other + n), start + n)


def _trailing_blanks(row: str, runs: list[str] = _BLANK_RUNS, start: int = 0, end: int = -1) -> int:
    """How many blanks (``runs``' character) ``row[start:end]`` (the whole row by default) ends with: the
    longest power-of-two runs that match, from the largest down, as _run (str.rstrip tests each character:
    100 us for 65,000 blanks here); a long span compared whole first."""
    if end < 0:
        end = len(row)
        if end <= _SHORT_TRIM:  # (a short row whole: rstrip, as trim_row)
            return end - len(row.rstrip(runs[0]))
    span = end - start
    if span >= _WHOLE_RUN and row[start] == runs[0] and row.startswith(repeated(runs[0], span), start):
        return span  # (all blank: one memcmp, as _run; the span's first cell tested first)
    if span > _SHORT_TRIM:  # (the last cells first, by rstrip: most rows end in a few blanks, which the probes
        # below counted a Python step each, 11 of them at 1000 columns: most of an ICH in insert mode there,
        # 0.69-0.72 MB/s for x, ICH and CR; round 53)
        kept = len(row[end - _SHORT_TRIM : end].rstrip(runs[0]))
        if kept:
            return _SHORT_TRIM - kept
    length = 0
    for i in range(span.bit_length(), -1, -1):
        size = 1 << i
        if length + size <= span and row.startswith(runs[i], end - length - size):
            length += size
    return length


def trim_row(row: str) -> str:
    """``row`` without its trailing blank cells (the caller puts it back, trims its marks and accounts
    ``screen.cells``)."""
    if not row or row[-1] != BLANK:
        return row
    if len(row) <= _SHORT_TRIM:
        return row.rstrip(BLANK)
    return row[: len(row) - _trailing_blanks(row)]


# trim_row's rows that rstrip trims: it tests a character at a time (5 ns each here), where _trailing_blanks'
# probes cost a Python step each (about 1 us for an 80-cell row; round 51: 7 probes an ICH at 80x24)
_SHORT_TRIM = 128
