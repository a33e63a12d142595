"""One window of the render model (SPEC 2.3): live lines of cells, a cursor, and the line functions.

Committed lines (emitted, never changed again) leave the top of a window of at most ``live_lines`` lines.
A window line is a ``str`` of cells, one character each. Cell values below U+0020 are never text, so three of
them mark cell kinds (``_defs``): ``BLANK`` (never written, or erased), ``TAB`` (where a kept tab starts) and
``FILL`` (the rest of its span). Lines never end in ``BLANK`` (they are trimmed), so ``len(line)`` is the
line's end. Every edit is slices and a concatenation, and every count or check over a range is a C-level
``find``/``startswith`` where it can be (the bounded-cost issue: REP, ECH or EL over a 65,536-cell line is a
few copies at memory speed, not a Python list of 65,536 cells).

The main screen, the alternate screen and a status-line overlay are each a ``LineWindow``; the render sink
(``_render_py``) swaps them. A window made with ``discard=True`` (the alternate screen's) counts the lines
that leave its top as dropped instead of committing them. The Cython twin is ``_window_c.pxi``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from . import _defs
from ._defs import Options

BLANK = chr(_defs.BLANK)
TAB = chr(_defs.TAB)
FILL = chr(_defs.FILL)
_CELL_KINDS = re.compile("\x01\x02*|\x02+")
HUGE = 1 << 62  # "to the end of the line"


def _expand_cell_kinds(match: re.Match[str]) -> str:
    """A tab cell at column c followed by fillers through the column before the next multiple of 8 is one
    ``\\t``; every other tab or filler cell is blank (SPEC 2.3, HT)."""
    run = match.group()
    if run[0] == TAB:
        need = 7 - match.start() % 8
        fillers = len(run) - 1
        if fillers >= need:
            return "\t" + BLANK * (fillers - need)
    return BLANK * len(run)


# A kept tab's span from k cells before the tab stop (SPEC 2.3, HT): TAB, then k - 1 FILLs; how tab() and
# write_tabbed write it and _intact_text reads it.
_FILLS = [FILL * k for k in range(8)]
_TAB_SPANS = ["", *(TAB + fills for fills in _FILLS)]


def _tab_cells(text: str, col: int) -> str:
    """Printable text (a cell a character, as write() counts them) and tabs written from column ``col`` on,
    with tabs kept: their cells (each tab its span to the next stop), for a line that ``text`` cannot take
    to max_line_cells."""
    pieces = text.split("\t")
    parts = [pieces[0]]
    col += len(pieces[0])
    for piece in pieces[1:]:
        stop = (col | 7) + 1
        parts.append(_TAB_SPANS[stop - col])
        parts.append(piece)
        col = stop + len(piece)
    return "".join(parts)


# _intact_text's comparison: each tab span's cells as its first cell marked (a C0 control no cell holds)
# then spaces, as a marked "\t" expands, so that each span must start where its tab did and end at the stop;
# a span of one cell (a tab at column 7 mod 8, which a marked tab would expand past) unmarked, a space, found
# as a mark without a span's space after it (a space written as text is another control, not taken for one).
# A comparison of spaces alone took a span a space had cut or an insert had moved for a whole one when the
# columns added up: "\t\t", CHA 8 and a space read "\t \t", and "\t\t", CR, ICH 2 and two tabs "  \t\t"
# (round 46, found on Python 3.13 by the tabbed-run property test, and in the review); the core tests each
# span's place.
_LONG_SPAN = re.compile("\x01\x02+")
_LONE_MARK = re.compile("\x1e(?! )")
_CELL_KIND_MARKS = str.maketrans("\x01\x02 ", "\x1e \x1f")
_MARKED_SPANS = str.maketrans("\x01 ", "\t\x1f")  # (a span of one cell is a tab as it is)
_KEPT_SPANS = str.maketrans({"\x01": "\t", "\x1e": None})


def _intact_text(text: str) -> str | None:
    """A line of cells, or lines joined by LFs, with each tab span as one ``\\t`` when every span is whole
    (a tab written at the end of a line, as in tab-indented code): expandtabs gives each back as exactly
    its span's cells from exactly its column (a blank is a column as any cell). A few C-level passes, where
    a split of each line and a loop over its tabs were a commit of tab-indented lines' time (round 45);
    ``None`` when a span is cut or moved or a FILL stands alone, where the regex decides (line_text)."""
    marked, spans = _LONG_SPAN.subn("\x1e\t", text)
    cells = text.translate(_CELL_KIND_MARKS)
    if spans != text.count("\x01"):  # (spans of one cell: unmarked)
        cells = _LONE_MARK.sub(" ", cells)
    if marked.translate(_MARKED_SPANS).expandtabs(8) != cells:
        return None
    return marked.translate(_KEPT_SPANS)


def line_text(line: str) -> str:
    """The text of a window line: tab spans to ``\\t``, trailing blanks dropped, other blanks to spaces."""
    if TAB in line or FILL in line:
        line = _intact_text(line) or _CELL_KINDS.sub(_expand_cell_kinds, line)
    if BLANK in line:
        line = line.rstrip(BLANK).replace(BLANK, " ")
    return line


def written(cells: str) -> int:
    """Cells that hold something (text, or a tab span)."""
    return len(cells) - cells.count(BLANK)


@lru_cache(maxsize=16)
def repeated(cell: str, count: int) -> str:
    """``cell * count``, kept for the next call with the same count: a range found blank again here, and in
    the sized screen (_screen_py) an erase, a REP or a probe repeated over a wide row (16 strings of at most
    65,536 cells of up to four bytes: 4 MiB at most for the process)."""
    return cell * count


# The last long range found all blank: (line, start, stop). A str never changes, so while this very object is
# the line, the range is still blank, whichever decoder or thread asks (one tuple, replaced whole). EL or ECH
# repeated over what it erased then costs no memcmp of the range (the bounded-cost issue: 4.1 -> 2.3 us).
_known_blank: tuple[str, int, int] = ("", 0, 0)

# written_in's block: a range longer than this is compared with blanks a block at a time
_COUNT_BLOCK = 4096


def _note_blank(line: str, start: int, stop: int) -> None:
    global _known_blank
    _known_blank = (line, start, stop)


def written_in(line: str, start: int, stop: int) -> int:
    """``written(line[start:stop])`` without the copy, and at memchr/memcmp speed when the range is all text
    (a progress frame over the last one, REP over REP) or all blank (EL or ECH again over what they erased)."""
    global _known_blank
    if stop > len(line):  # (not min(): a builtin call on every edit)
        stop = len(line)
    count = stop - start
    if count <= 0:
        return 0
    known = _known_blank
    if line is known[0] and known[1] < stop and start < known[2]:
        if known[1] <= start and stop <= known[2]:
            return 0
        # the range holds a known blank range (the gap write() padded before a character far out, then EL
        # 2): only what is around it is looked at (round 35)
        return ((written_in(line, start, known[1]) if start < known[1] else 0)
                + (written_in(line, known[2], stop) if known[2] < stop else 0))
    if line.find(BLANK, start, stop) < 0:
        return count
    if count > 64 and line.startswith(repeated(BLANK, count), start):
        _known_blank = (line, start, stop)
        return 0
    if count <= _COUNT_BLOCK:
        return count - line.count(BLANK, start, stop)
    # A long range, neither all text nor all blank: str.count goes a character a cycle, a memcmp with blanks
    # 16 or more, so the blocks that are all blank are compared and only the others counted (x at column 0
    # then EL 1 near the end of a 65,536-cell line: 24 us a count, 0.7 MB/s; round 35)
    blank = repeated(BLANK, _COUNT_BLOCK)
    for at in range(start, stop, _COUNT_BLOCK):
        if line.startswith(blank, at, stop):  # (False for a last, shorter block: it is counted)
            count -= _COUNT_BLOCK
        else:
            count -= line.count(BLANK, at, at + _COUNT_BLOCK if at + _COUNT_BLOCK < stop else stop)
    return count


# A window line over _LONG_LINE cells is edited with as few copies of it as CPython allows (the bounded-cost
# issue: ICH then a character at column 0 of a full 65,536-cell line was five copies of the line, 0.57-0.61
# MB/s; benchmarks/README.md, round 24).
# ``line[:a] + mid + line[b:]`` copies the head and the tail twice each (the slice, then the concatenation);
# ``"%.*s"`` writes a prefix of the line into the result without a slice, and at column 0 ``str.replace(old,
# new, 1)`` finds ``old`` at index 0 and copies the line once. Below the threshold the formatting costs more
# than the copy it saves (timeit: even at 4,096 cells, 270 against 257 ns).
_LONG_LINE = 8192


def splice(line: str, start: int, stop: int, mid: str, cut: int = HUGE) -> str:
    """``line[:start] + mid + line[stop:cut]``, for ``start <= stop <= len(line)`` and ``stop <= cut``."""
    size = len(line) if len(line) < cut else cut
    if size < _LONG_LINE:
        return line[:start] + mid + line[stop:cut]
    if stop >= size:  # nothing after the edit: one copy (a concatenation where nothing is cut off)
        return line + mid if start == len(line) else "%.*s%s" % (start, line, mid)
    if start == 0:
        if stop == 0:  # an insertion at column 0: one copy
            return "%s%.*s" % (mid, size, line)
        if size == len(line) and stop <= size - stop:  # (line[:stop] occurs first at 0): one copy
            return line.replace(line[:stop], mid, 1)
    return "%.*s%s%s" % (start, line, mid, line[stop:size])


def _committed_text(lines: list[str]) -> tuple[str, int]:
    """The text of committed window lines, each with its newline, and their cells (LineWindow.commit_top and
    flush). ``lines`` gets the last newline's empty string appended (no copy of the text to add it)."""
    lines.append("")
    text = "\n".join(lines)  # lines of text only (most): one C-level join, and three memchr scans
    cells = len(text) - len(lines) + 1  # a line's length is its cells (not a sum over 50 lines a chunk)
    if BLANK in text or TAB in text or FILL in text:
        text = (BLANK not in text and _intact_text(text)) or "\n".join([line_text(line) for line in lines])
    return text, cells


# The most lines, and cells, commit_top holds before they are emitted (LineWindow.flush): a batch's text is a
# few C-level passes whatever its size, and its memory a few pages.
_HELD_LINES = 256
_HELD_CELLS = 1 << 16


class LineWindow:
    """Live lines, the cursor in them (``row``, ``col``), their cell count, how many lines have left the top
    (saved cursors keep absolute line numbers) and the saved cursor. ``emit`` takes committed text; the
    limits are the decoder's ``options`` (SPEC 2.3 bounds)."""

    def __init__(self, stats: dict[str, int], emit: Callable[[str], None], options: Options, discard: bool = False) -> None:
        self.stats = stats
        self.emit = emit
        self.options = options
        self.discard = discard
        # A window never holds more lines than cells: live_lines=2**40 and a stream of LFs must not keep a
        # million empty lines per megabyte.
        self.live_lines = min(options.live_lines, options.max_live_cells)
        self.max_line_cells = options.max_line_cells
        self.max_live_cells = options.max_live_cells
        self.max_jump = options.max_jump
        self.keep_tabs = options.tabs == "keep"
        self.lines: list[str] = [""]
        self.row = 0
        self.col = 0
        self.cells = 0  # sum of the line lengths
        self.committed = 0  # lines gone from the top
        self.saved: tuple[int, int] | None = None
        # Lines committed one at a time (a line feed after a control, as each line of "\t\b\n" is): held here,
        # their text made and emitted together by flush (see commit_top)
        self.held: list[str] = []
        self.held_cells = 0

    def like(self, *, discard: bool) -> LineWindow:
        """A new, empty window with the same limits and outputs."""
        return LineWindow(self.stats, self.emit, self.options, discard)

    # ------------------------------------------------------------------ lines

    def replace_line(self, line: str, size: int) -> None:
        """The cursor line becomes ``line`` (it was ``size`` cells long), trimmed."""
        if line and line[-1] == BLANK:
            line = line.rstrip(BLANK)
        self.lines[self.row] = line
        self.cells += len(line) - size

    def written(self) -> int:
        """Cells holding something in the whole window (what discarding it drops)."""
        return sum(map(written, self.lines))

    def text(self) -> str:
        """The window as text, for ``live``."""
        return "\n".join(map(line_text, self.lines))

    def enforce_limits(self) -> None:
        """Commit top lines while the window holds more than live_lines lines or max_live_cells cells, never
        the cursor's line. Called after every operation that adds lines or cells; committing is greedy from
        the top, so any chunking commits the same lines."""
        lines = self.lines
        count = len(lines) - self.live_lines
        if self.cells <= self.max_live_cells:
            if count > 0:  # too many lines only, as plain text has after every chunk: their cells come free
                self.commit_top(count)
            return
        count = max(count, 0)
        removed = sum(map(len, lines[:count]))
        while count < self.row and self.cells - removed > self.max_live_cells:
            removed += len(lines[count])
            count += 1
        if count:
            self.commit_top(count)

    def commit_top(self, count: int) -> None:
        if count == 1 and not self.discard:
            # One line, as a full window commits at each line feed that is not part of a text run (after a tab,
            # a BS, an ESC 7): held for flush, which makes the text of many at once. Its commit alone was a
            # join, three scans and, with a tab in it, _intact_text's eight passes: a fifth of such a line's
            # time (round 51). Held lines are few and small: at most _HELD_LINES or _HELD_CELLS, past which
            # they are flushed, so a call's memory stays its output's.
            line = self.lines[0]
            self.held.append(line)
            self.held_cells += len(line)
            if len(self.held) >= _HELD_LINES or self.held_cells >= _HELD_CELLS:
                self.flush()
            del self.lines[0]
            self.row -= 1
            self.cells -= len(line)
            self.committed += 1
            return
        if self.held:  # (in order)
            self.flush()
        top = self.lines[:count]
        if self.discard:  # lines pushed out of the alternate window's top are discarded, not committed
            self.stats["alt_screen_dropped"] += sum(map(written, top))
            cells = sum(map(len, top))
        else:
            text, cells = _committed_text(top)
            self.emit(text)
        del self.lines[:count]
        self.row -= count
        self.cells -= cells
        self.committed += count

    def flush(self) -> None:
        """Emit the lines commit_top holds, as one commit of them would. The decoder's call ends with it
        (RenderSink.flush), and every other commit of the window comes after it."""
        top = self.held
        if not top:
            return
        self.held = []
        self.held_cells = 0
        self.emit(_committed_text(top)[0])

    def window_text(self, final: bool) -> str:
        """The lines as committed text. ED drops a last line with no text and ends every line with a newline;
        at the end of the stream the last line simply has no newline after it, so plain text comes back
        unchanged."""
        texts = [line_text(line) for line in self.lines]
        if final:
            return "\n".join(texts)
        if not texts[-1]:
            texts.pop()
        return "".join(t + "\n" for t in texts)

    def commit_window(self, final: bool) -> None:
        """ED 2 / RIS (``final=False``) or the end of the stream: commit every line (a discarding window,
        before its end, drops them) and leave the cursor on a new empty line."""
        self.flush()
        if self.discard and not final:
            self.stats["alt_screen_dropped"] += self.written()
            text = ""
        else:
            text = self.window_text(final)
        self.committed += len(self.lines)
        self.lines = [""]
        self.row = self.col = self.cells = 0
        if text:
            self.emit(text)

    # ------------------------------------------------------------------ printing

    def print(self, text: str) -> None:
        """Printable text, possibly with LFs, at the cursor."""
        if "\n" not in text:
            self.write(text)
            return
        if text == "\n":  # (a line feed between controls: what the steps below come to)
            self.newline()
            return
        pieces = text.split("\n")
        at_end = self.row == len(self.lines) - 1 and self.col == len(self.lines[-1])
        if at_end and self.append_lines(pieces, 0, len(text)):  # (the end of the last line, as plain text)
            return
        # Inside a line (after a CR, as pytest rewrites its "collecting ..." line) or above the last one: piece
        # by piece, until an LF opens a new last line; the rest is appended from there in one step, where a
        # run of 1.6 KB of pytest output after one CR was a write, a newline and a commit per line.
        left = len(text)  # characters from pieces[index] on, LFs included
        tried = False
        for index, piece in enumerate(pieces):
            if index:
                at_last = self.row == len(self.lines) - 1
                self.newline()
                if at_last and not tried:  # (tried once: the test is linear in the rest of the text)
                    tried = True
                    if self.append_lines(pieces, index, left):
                        return
            if piece:
                self.write(piece)
            left -= len(piece) + 1

    def append_lines(self, pieces: list[str], index: int, size: int) -> bool:
        """``pieces[index:]`` (``size`` characters with the LFs between them) appended at the cursor, which is
        at the end of the last line, as plain text is printed: whole lines at once. False, with nothing
        changed, when a line would reach max_line_cells (the caller then writes piece by piece)."""
        lines = self.lines
        col = self.col
        limit = self.max_line_cells
        first = pieces[index]
        rest = pieces[index + 1 :]
        # no line can be longer than the text (one test, where max() over the pieces cost a 4 KiB chunk of
        # plain text an eighth of its time)
        if col + size > limit and (col + len(first) > limit or max(map(len, rest), default=0) > limit):
            return False
        if first:
            lines[-1] += first
        lines.extend(rest)
        self.cells += size - (len(pieces) - index) + 1
        self.row = len(lines) - 1
        self.col = len(pieces[-1])
        self.enforce_limits()
        return True

    def write(self, text: str) -> None:
        """Write text without LF at the cursor, overwriting; a character due at max_line_cells or beyond
        first moves to a new line (SPEC 2.3 bounds)."""
        limit = self.max_line_cells
        line = self.lines[self.row]
        col = self.col
        if col == len(line) and col + len(text) <= limit:
            # Appended at the end of the line, as most text is (a row drawn after a cursor move): the loop's
            # step without its tests.
            self.lines[self.row] = ""  # the only other reference: CPython then appends in place
            line += text
            self.lines[self.row] = line
            self.cells += len(text)
            self.col = col + len(text)
            if self.cells > self.max_live_cells or len(self.lines) > self.live_lines:
                self.enforce_limits()
            return
        if len(text) == 1 and col < len(line) and col < limit:
            # One character over a cell (a program redrawing a character, the blank of an insertion): the
            # loop's step below, without the loop.
            if line[col] == text:
                self.stats["cells_overwritten"] += 1
            else:
                self.stats["cells_overwritten"] += line[col] != BLANK
                self.lines[self.row] = splice(line, col, col + 1, text)
            self.col = col + 1
            if self.cells > self.max_live_cells or len(self.lines) > self.live_lines:
                self.enforce_limits()
            return
        while text:
            col = self.col
            if col >= limit:
                self.newline()
                col = 0
            room = limit - col
            if len(text) > room:
                part, text = text[:room], text[room:]
            else:
                part, text = text, ""
            line = self.lines[self.row]
            size = len(line)
            end = col + len(part)
            if col >= size:  # skipped never-written cells: blanks (spaces unless trailing)
                self.lines[self.row] = ""  # the only other reference: CPython then appends in place
                # (the gap and the part in one str: rjust writes them into one allocation, where BLANK * gap
                # + part made two; a character far out after each EL 1 walks the gap out to 65,536 cells)
                line += part.rjust(col - size + len(part), BLANK) if col > size else part
                if col - size > self.max_jump and col - size > 64:
                    # A gap further than a move goes (SPEC 2.3 bounds): the cursor stayed far out after an
                    # erase (a character, then EL 2, again and again). It is known blank for the next erase
                    # (written_in), which counted it a cell at a time (0.8 MB/s; round 35). (Not every gap:
                    # the reference makes the next append to the line a copy, 7% of huge moves' time.)
                    _note_blank(line, size, col)
            elif line.startswith(part, col):
                # The same text again (a redrawn frame, REP over its own run): nothing changes but the count,
                # a memcmp instead of a copy of the line. (The limits are still checked below: this part may
                # follow a wrap onto a line further down, from where the lines above can be committed.)
                self.stats["cells_overwritten"] += len(part)
            else:  # text over text (a progress frame after CR): the line around it copied (splice)
                if end == col + 1:  # one cell, as a program redraws a character: its own test, not a call
                    self.stats["cells_overwritten"] += line[col] != BLANK
                else:
                    self.stats["cells_overwritten"] += written_in(line, col, end)
                line = splice(line, col, end, part)
            self.lines[self.row] = line
            self.cells += len(line) - size
            self.col = end
            if self.cells > self.max_live_cells or len(self.lines) > self.live_lines:
                self.enforce_limits()

    def write_tabbed(self, text: str) -> None:
        """Printable text and tabs at the cursor: write() for each piece and tab() for each tab. Appended to
        the line with tabs kept (tab-indented code, tab-separated columns, as they are printed), a stretch of
        the text that cannot reach max_line_cells (a character adds at most 8 cells) grows the line by one
        concatenation, a Python step per tab instead of two calls (_window_c's write_tabbed); the rest goes
        piece by piece."""
        while text:
            line = self.lines[self.row]
            col = self.col
            room = (self.max_line_cells - col) // 8
            if not (self.keep_tabs and col == len(line) and room > 0):
                piece, tab, text = text.partition("\t")
                if piece:
                    self.write(piece)
                if tab:
                    self.tab()
                continue
            if len(text) > room:
                part, text = text[:room], text[room:]
            else:
                part, text = text, ""
            cells = _tab_cells(part, col)
            self.lines[self.row] = ""  # the only other reference: CPython then appends in place
            line += cells
            self.lines[self.row] = line
            self.cells += len(cells)
            self.col = col + len(cells)
            if self.cells > self.max_live_cells:
                self.enforce_limits()  # (appending adds no line: only the cell limit can commit)

    def print_tabbed(self, text: str) -> None:
        """Printable text, tabs and LFs at the cursor (the parser's tabbed runs): write_tabbed for each line,
        newline between them. At the end of the last line, with tabs kept, the lines are their cells
        (_tab_cells) appended at once, as print appends plain lines (append_lines): a line of tab-indented
        code was a run of its own, a write and a commit (about 4.5 us; round 45)."""
        if "\n" not in text:
            self.write_tabbed(text)
            return
        pieces = text.split("\n")
        if len(pieces) == 2 and not pieces[1]:  # (a line that ends with a tab: the loop below, without it)
            self.write_tabbed(pieces[0])
            self.newline()
            return
        lines = self.lines
        if self.keep_tabs and self.row == len(lines) - 1 and self.col == len(lines[-1]):
            first = pieces[0]  # (from the cursor's column; the lines after it from column 0)
            cells = [_tab_cells(first, self.col) if "\t" in first else first]
            cells += [_tab_cells(piece, 0) if "\t" in piece else piece for piece in pieces[1:]]
            if self.append_lines(cells, 0, sum(map(len, cells)) + len(cells) - 1):
                return
        for index, piece in enumerate(pieces):
            if index:
                self.newline()
            if piece:
                self.write_tabbed(piece)

    def newline(self) -> None:
        """LF (with onlcr): column 0 of the next line; a new line when on the last one."""
        self.col = 0
        if self.row == len(self.lines) - 1:
            self.lines.append("")
            self.row += 1
            self.enforce_limits()
        else:
            self.row += 1

    def tab(self) -> None:
        # SPEC 2.3 rev 2: bounded by max_line_cells only (it moves at most 8 cells), never by max_jump, so
        # that plain text with tabs comes back unchanged whatever the options.
        col = self.col
        target = (col // 8 + 1) * 8  # (min() and max() written out: builtin calls)
        if target > self.max_line_cells:
            target = col if col > self.max_line_cells else self.max_line_cells
        if self.keep_tabs and target > col:
            line = self.lines[self.row]
            size = len(line)
            span = _TAB_SPANS[target - col]
            if col >= size:  # at the end, as in tabbed text: an append (in place, see write)
                self.lines[self.row] = ""
                line += span.rjust(col - size + len(span), BLANK)  # (write's one allocation)
                self.lines[self.row] = line
                if col - size > self.max_jump and col - size > 64:  # write()'s rule for a far gap (round 53:
                    _note_blank(line, size, col)  # a tab then EL 1 walked out counted the gap, 0.84-0.89 MB/s)
            elif written_in(line, col, target) == 0:
                self.lines[self.row] = line = splice(line, col, target, span)
            else:
                self.col = target
                return
            self.cells += len(line) - size
            self.col = target
            if self.cells > self.max_live_cells:
                self.enforce_limits()  # (a tab adds no line: only the cell limit can commit)
            return
        self.col = target

    def repeat(self, char: str, count: int) -> None:  # 8.3.103 REP: at most max(0, end + max_jump - column)
        count = min(count, len(self.lines[self.row]) + self.max_jump - self.col)
        if count > 0:
            self.write(char * count)

    # ------------------------------------------------------------------ editing (ECMA-48 5th ed. sections)

    def erase(self, start: int, stop: int) -> None:
        """Blank the cells [start, stop) of the cursor line (EL 8.3.41, ECH 8.3.38, ED 0)."""
        line = self.lines[self.row]
        size = len(line)
        stop = min(stop, size)
        if start >= stop:
            return
        count = written_in(line, start, stop)
        if not count:  # all blank already: nothing changes (EL or ECH again)
            return
        self.stats["cells_overwritten"] += count
        self.replace_line(line[:start] if stop == size else splice(line, start, stop, repeated(BLANK, stop - start)),
                          size)

    def insert_blanks(self, count: int) -> None:  # 8.3.64 ICH: at most max_jump blanks, cut at max_line_cells
        line = self.lines[self.row]
        col = self.col
        if count > self.max_jump:
            count = self.max_jump
        size = len(line)
        if col >= size or not count:
            return
        # The cells pushed past max_line_cells are lost: the old line's from ``cut`` on (all of them after the
        # cursor when the blanks alone reach the limit, which then take the rest of the line).
        limit = self.max_line_cells
        cut = limit - count
        if cut < col:
            cut = col
            count = limit - col
        if size == cut + 1:  # one cell pushed out, as ICH 1 on a full line does: its own test, not a call
            self.stats["cells_overwritten"] += line[cut] != BLANK
        elif size > cut:
            self.stats["cells_overwritten"] += written_in(line, cut, size)
        self.replace_line(splice(line, col, col, BLANK * count, cut), size)
        if self.cells > self.max_live_cells:  # (no line is added: only the cell limit can commit)
            self.enforce_limits()

    def delete_cells(self, count: int) -> None:  # 8.3.26 DCH
        line = self.lines[self.row]
        col = self.col
        size = len(line)
        if col >= size:
            return
        self.stats["cells_overwritten"] += written_in(line, col, col + count)
        self.replace_line(splice(line, col, min(col + count, size), ""), size)

    def erase_below(self) -> None:
        """ED 0: the rest of the cursor line and the window's lines below it."""
        self.erase(self.col, HUGE)
        below = self.lines[self.row + 1 :]
        if below:
            self.stats["cells_overwritten"] += sum(map(written, below))
            self.cells -= sum(map(len, below))
            del self.lines[self.row + 1 :]

    # ------------------------------------------------------------------ cursor

    def forward_target(self, target: int) -> int:
        """SPEC 2.3 bounds: a forward move goes to min(target, max(column, end + max_jump))."""
        return min(target, max(self.col, len(self.lines[self.row]) + self.max_jump))

    def move_to_column(self, target: int) -> None:  # 8.3.9 CHA, 8.3.57 HPA
        self.col = self.forward_target(target) if target > self.col else target

    def move_up(self, count: int) -> None:  # 8.3.22 CUU, RI: clamped to the window, never scrolls
        self.row = self.row - count if count < self.row else 0

    def move_down(self, count: int) -> None:  # 8.3.19 CUD: never creates lines
        row = self.row + count
        self.row = row if row < len(self.lines) else len(self.lines) - 1

    def fresh_line(self) -> None:
        """CUP, HVP and VPA name a screen row, but the window height is unknown: start a fresh line (the
        current one when it is empty, else the last one when empty, else a new one)."""
        lines = self.lines
        if lines[self.row]:
            if lines[-1]:
                lines.append("")
                self.enforce_limits()
            self.row = len(self.lines) - 1

    def save_cursor(self) -> None:
        self.saved = (self.committed + self.row, self.col)

    def restore_cursor(self) -> None:
        if self.saved is None:  # restore without a save: column 0 of the current line
            self.col = 0
            return
        row, self.col = self.saved
        self.row = min(max(row - self.committed, 0), len(self.lines) - 1)
