"""One window of the render model (SPEC 2.3): live lines of cells, a cursor, and the line functions.

Committed lines (emitted, never changed again) leave the top of a window of at most ``live_lines`` lines.
A window line is either a ``str`` (only text: it arrived in bulk, or text overwrote text without leaving a
gap) or a ``list`` of one-character cells (once an edit needs cell kinds). Cell values below U+0020 are never text, so three of them mark cell kinds (``_defs``):
``BLANK`` (never written, or erased), ``TAB`` (where a kept tab starts) and ``FILL`` (the rest of its span).
Lines never end in ``BLANK`` (they are trimmed), so ``len(line)`` is the line's end.

The main screen, the alternate screen and a status-line overlay are each a ``LineWindow``; the render sink
(``_render_py``) swaps them. A window made with ``discard=True`` (the alternate screen's) counts the lines
that leave its top as dropped instead of committing them. The Cython twin is ``_window_c.pxi``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

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


def line_text(line: str | list[str]) -> str:
    """The text of a window line: tab spans to ``\\t``, trailing blanks dropped, other blanks to spaces."""
    if isinstance(line, str):
        return line
    text = "".join(line)
    if TAB in text or FILL in text:
        text = _CELL_KINDS.sub(_expand_cell_kinds, text)
    if BLANK in text:
        text = text.rstrip(BLANK).replace(BLANK, " ")
    return text


def trim(line: list[str]) -> None:
    """Drop trailing blank cells. Each blank is trimmed at most once after it was made, so this is
    amortised linear in the input."""
    end = len(line)
    while end and line[end - 1] == BLANK:
        end -= 1
    del line[end:]


def join_lines(lines: list[str | list[str]]) -> str:
    try:  # lines that arrived in bulk are str already: one C-level join (TypeError if any is a list)
        return "\n".join(lines)  # type: ignore[arg-type]
    except TypeError:
        return "\n".join([line_text(line) for line in lines])


def written(cells: list[str] | str) -> int:
    """Cells that hold something (text, or a tab span)."""
    return len(cells) - cells.count(BLANK)


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
        self.lines: list[str | list[str]] = [""]
        self.row = 0
        self.col = 0
        self.cells = 0  # sum of the line lengths
        self.committed = 0  # lines gone from the top
        self.saved: tuple[int, int] | None = None

    def like(self, *, discard: bool) -> LineWindow:
        """A new, empty window with the same limits and outputs."""
        return LineWindow(self.stats, self.emit, self.options, discard)

    # ------------------------------------------------------------------ lines

    def cursor_line(self) -> list[str]:
        line = self.lines[self.row]
        if isinstance(line, str):
            line = list(line)
            self.lines[self.row] = line
        return line

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
        if count <= 0 and self.cells <= self.max_live_cells:
            return
        count = max(count, 0)
        removed = sum(map(len, lines[:count]))
        while count < self.row and self.cells - removed > self.max_live_cells:
            removed += len(lines[count])
            count += 1
        if count:
            self.commit_top(count, removed)

    def commit_top(self, count: int, cells: int) -> None:
        if self.discard:  # lines pushed out of the alternate window's top are discarded, not committed
            self.stats["alt_screen_dropped"] += sum(map(written, self.lines[:count]))
        else:
            self.emit(join_lines(self.lines[:count]) + "\n")
        del self.lines[:count]
        self.row -= count
        self.cells -= cells
        self.committed += count

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
        pieces = text.split("\n")
        lines = self.lines
        row = self.row
        if (
            row == len(lines) - 1
            and self.col == len(lines[row])
            and self.col + len(pieces[0]) <= self.max_line_cells
            and max(map(len, pieces)) <= self.max_line_cells
        ):
            # Appending at the end of the last line, as plain text does: whole lines at once.
            first = pieces[0]
            if first:
                line = lines[row]
                if isinstance(line, str):
                    lines[row] = line + first
                else:
                    line.extend(first)
            lines.extend(pieces[1:])
            self.cells += len(text) - len(pieces) + 1
            self.row = len(lines) - 1
            self.col = len(pieces[-1])
            self.enforce_limits()
            return
        for index, piece in enumerate(pieces):
            if index:
                self.newline()
            if piece:
                self.write(piece)

    def write(self, text: str) -> None:
        """Write text without LF at the cursor, overwriting; a character due at max_line_cells or beyond
        first moves to a new line (SPEC 2.3 bounds)."""
        col = self.col
        line = self.lines[self.row]
        if isinstance(line, str) and col <= len(line) and col + len(text) <= self.max_line_cells:
            # A str line holds only text (no cell kinds), and text over it without a gap keeps it so: a
            # progress frame after CR is two slices and a concatenation, not a list of cells.
            end = col + len(text)
            self.stats["cells_overwritten"] += min(end, len(line)) - col  # every cell of a str line is written
            new = line[:col] + text + line[end:]
            self.cells += len(new) - len(line)
            self.lines[self.row] = new
            self.col = end
            if self.cells > self.max_live_cells or len(self.lines) > self.live_lines:
                self.enforce_limits()
            return
        line = self.cursor_line()
        limit = self.max_line_cells
        stats = self.stats
        while text:
            if col >= limit:
                self.newline()
                line = self.cursor_line()
                col = 0
            room = limit - col
            if len(text) > room:
                part, text = text[:room], text[room:]
            else:
                part, text = text, ""
            size = len(line)
            if col > size:  # skipped never-written cells: blanks (spaces unless trailing)
                line.extend(BLANK * (col - size))
            elif col < size:
                stats["cells_overwritten"] += written(line[col : col + len(part)])
            line[col : col + len(part)] = part
            self.cells += len(line) - size
            col += len(part)
            self.col = col
            if self.cells > self.max_live_cells or len(self.lines) > self.live_lines:
                self.enforce_limits()

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
        target = min((col // 8 + 1) * 8, max(col, self.max_line_cells))
        if self.keep_tabs and target > col:
            line = self.cursor_line()
            if col >= len(line) or line[col:target].count(BLANK) == len(line[col:target]):
                size = len(line)
                if col > size:
                    line.extend(BLANK * (col - size))
                line[col:target] = TAB + FILL * (target - col - 1)
                self.cells += len(line) - size
                self.col = target
                self.enforce_limits()
                return
        self.col = target

    def repeat(self, char: str, count: int) -> None:  # 8.3.103 REP: at most max(0, end + max_jump - column)
        count = min(count, len(self.lines[self.row]) + self.max_jump - self.col)
        if count > 0:
            self.write(char * count)

    # ------------------------------------------------------------------ editing (ECMA-48 5th ed. sections)

    def erase(self, start: int, stop: int) -> None:
        """Blank the cells [start, stop) of the cursor line (EL 8.3.41, ECH 8.3.38, ED 0)."""
        line = self.cursor_line()
        stop = min(stop, len(line))
        if start >= stop:
            return
        self.stats["cells_overwritten"] += written(line[start:stop])
        size = len(line)
        if stop == size:
            del line[start:]
        else:
            line[start:stop] = BLANK * (stop - start)
        trim(line)
        self.cells += len(line) - size

    def insert_blanks(self, count: int) -> None:  # 8.3.64 ICH: at most max_jump blanks, cut at max_line_cells
        line = self.cursor_line()
        col = self.col
        count = min(count, self.max_jump)
        if col >= len(line) or not count:
            return
        size = len(line)
        line[col:col] = BLANK * count
        if len(line) > self.max_line_cells:
            self.stats["cells_overwritten"] += written(line[self.max_line_cells :])
            del line[self.max_line_cells :]
        trim(line)
        self.cells += len(line) - size
        self.enforce_limits()

    def delete_cells(self, count: int) -> None:  # 8.3.26 DCH
        line = self.cursor_line()
        col = self.col
        if col >= len(line):
            return
        stop = col + count
        size = len(line)
        self.stats["cells_overwritten"] += written(line[col:stop])
        del line[col:stop]
        trim(line)
        self.cells += len(line) - size

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
        self.row = max(self.row - count, 0)

    def move_down(self, count: int) -> None:  # 8.3.19 CUD: never creates lines
        self.row = min(self.row + count, len(self.lines) - 1)

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
