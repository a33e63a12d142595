# One window of the render model (SPEC 2.3): the twin of _window_py.LineWindow (see there), with lines as
# arrays of UCS-4 cells. The fallback swaps window objects; here the render sink keeps one LineWindow and
# moves the others aside as plain structs (pack/unpack), because switching the object a nogil method works
# on would need the GIL (reference counts).

# A window put aside: its lines, cursor, cell count, lines gone from its top, saved cursor and kind.
ctypedef struct Window:
    Line *lines
    Py_ssize_t top, count, lines_cap
    Py_ssize_t row, col, cells, committed
    bint has_saved
    Py_ssize_t saved_row, saved_col
    bint discard


@cython.final
cdef class LineWindow:
    # C fields start zeroed (tp_alloc): every pointer NULL and every size 0 until used.
    cdef Line *lines  # the window is lines[top : top + count]
    cdef Py_ssize_t top, count, lines_cap
    cdef Py_ssize_t row, col, cells, committed
    cdef bint has_saved
    cdef Py_ssize_t saved_row, saved_col
    cdef bint discard  # the alternate screen's: lines leaving the top are dropped, not committed
    cdef bint keep_tabs
    cdef Py_ssize_t live_lines, max_line_cells, max_live_cells, max_jump
    cdef Py_ssize_t chunk_size  # a line longer than this becomes chunks at its first edit (_chunks_c.pxi)
    cdef int64_t *stats
    cdef Buf *out  # committed text goes here
    # (last, the fields that only a new line, a commit or a long line's edit reads: the ones above, which each
    # character and each line reads, stay within a few cache lines. A spare array of 256 lines between them
    # made SGR-heavy output 3-7% slower by the clock, with the same instructions, in four sittings; round 60)
    cdef ChunkSpares spares  # literal chunks' cells the lines' edits freed, for their next chunks
    cdef Line *kept_lines  # an array of lines drop_window kept for the next new_window (NULL: none)
    cdef Py_ssize_t kept_cap
    # Cell buffers of committed lines, reused by new ones: an array that grows to at most SPARE_LINES (allocated,
    # not a field: a store keeps a decoder for each of up to 10^5 terminals, most of which never use it)
    cdef Line *spare
    cdef int nspare, spare_cap
    cdef Py_ssize_t spare_cells  # the spares' capacities, at most SPARE_CELLS

    def __dealloc__(self):
        cdef int i
        self.drop_window()
        for i in range(self.nspare):
            free(self.spare[i].cells)
        free(self.spare)
        free(self.kept_lines)
        spares_free(&self.spares)

    # ------------------------------------------------------------------ windows aside (C only)

    cdef void pack(self, Window *w) noexcept nogil:
        """The window into ``w``, which owns its lines from now on (the window has none: new_window or unpack
        gives it some)."""
        w.lines = self.lines
        w.top = self.top
        w.count = self.count
        w.lines_cap = self.lines_cap
        w.row = self.row
        w.col = self.col
        w.cells = self.cells
        w.committed = self.committed
        w.has_saved = self.has_saved
        w.saved_row = self.saved_row
        w.saved_col = self.saved_col
        w.discard = self.discard
        self.lines = NULL
        self.lines_cap = 0

    cdef void unpack(self, Window *w) noexcept nogil:
        self.lines = w.lines
        self.top = w.top
        self.count = w.count
        self.lines_cap = w.lines_cap
        self.row = w.row
        self.col = w.col
        self.cells = w.cells
        self.committed = w.committed
        self.has_saved = w.has_saved
        self.saved_row = w.saved_row
        self.saved_col = w.saved_col
        self.discard = w.discard
        w.lines = NULL

    cdef void drop_window(self) noexcept nogil:
        """Free the current window (the caller unpacks another or makes a new one). Its array of lines is kept
        for the next new_window if none is kept and it has at most KEEP_LINE_ARRAY entries: the alternate
        screen and a status-line overlay make a window each time they begin and drop it when they end (the
        real captures' vim left the alternate screen every 5.6 KB; its new array and its growth were 1% of
        their instructions, round 60)."""
        self.free_lines()
        if self.kept_lines == NULL and self.lines_cap <= KEEP_LINE_ARRAY:
            self.kept_lines = self.lines
            self.kept_cap = self.lines_cap
        else:
            free(self.lines)
        self.lines = NULL
        self.lines_cap = 0

    cdef int new_window(self, bint discard) except -1 nogil:
        """An empty window, in the array of lines the window has (reset keeps its array for the next stream),
        or, when it has none (after pack or drop_window), in the one drop_window kept."""
        if self.lines == NULL and self.kept_lines != NULL:
            self.lines = self.kept_lines
            self.lines_cap = self.kept_cap
            self.kept_lines = NULL
        self.top = self.count = 0
        self.append_line()
        self.row = self.col = self.cells = self.committed = 0
        self.has_saved = False
        self.discard = discard
        return 0

    # ------------------------------------------------------------------ lines

    cdef inline Line *cursor_line(self) noexcept nogil:
        return &self.lines[self.top + self.row]

    cdef void release_line(self, Line *line) noexcept nogil:
        """A line leaves the window: keep its buffer for the next new line, or free it."""
        if line.chunked != NULL:
            line_free_chunks(line, NULL)
        if 0 < line.cap <= SPARE_MAX_CAP and self.spare_cells + line.cap <= SPARE_CELLS and self.spare_room():
            self.spare[self.nspare] = line[0]
            self.nspare += 1
            self.spare_cells += line.cap
        else:
            free(line.cells)
        line.cells = NULL
        line.len = line.cap = 0

    cdef bint spare_room(self) noexcept nogil:
        """Whether the spares' array has room for one more (grown by doubling up to SPARE_LINES; False when it
        is full or cannot grow: the buffer is then freed)."""
        cdef int cap
        cdef Line *grown
        if self.nspare < self.spare_cap:
            return True
        if self.spare_cap >= SPARE_LINES:
            return False
        cap = self.spare_cap * 2 if self.spare_cap else 16
        grown = <Line *>realloc(self.spare, cap * sizeof(Line))
        if grown == NULL:
            return False
        self.spare = grown
        self.spare_cap = cap
        return True

    cdef void free_lines(self) noexcept nogil:
        cdef Py_ssize_t i
        for i in range(self.top, self.top + self.count):
            if self.lines[i].cells != NULL or self.lines[i].chunked != NULL:  # (a line never written has none)
                self.release_line(&self.lines[i])
        self.top = self.count = 0

    cdef inline int line_room(self) except -1 nogil:
        """Room in the array for one more line after the window."""
        if self.top + self.count == self.lines_cap:
            # Slide the window down to the start of the array once the lines gone from its top are at least
            # as many as it holds, else grow: each line is moved at most once per window's worth of new lines
            # (amortised O(1); sliding whenever the end was reached moved 200 lines every ~50 new ones).
            if self.top and self.top >= self.count:
                memmove(self.lines, self.lines + self.top, self.count * sizeof(Line))
                self.top = 0
            else:
                grow(<void **>&self.lines, &self.lines_cap, self.top + self.count + 1, sizeof(Line), 16)
        return 0

    cdef int append_line(self) except -1 nogil:
        self.line_room()
        if self.nspare:
            self.nspare -= 1
            self.spare_cells -= self.spare[self.nspare].cap
            self.lines[self.top + self.count] = self.spare[self.nspare]
            self.lines[self.top + self.count].len = 0
        else:
            self.lines[self.top + self.count].cells = NULL
            self.lines[self.top + self.count].len = 0
            self.lines[self.top + self.count].cap = 0
        self.lines[self.top + self.count].chunked = NULL
        self.lines[self.top + self.count].plain = True
        self.lines[self.top + self.count].narrow = True
        self.count += 1
        return 0

    cdef Py_ssize_t written(self) noexcept nogil:
        cdef Py_ssize_t i, total = 0
        for i in range(self.top, self.top + self.count):
            total += line_written(&self.lines[i], 0, self.lines[i].len)
        return total

    cdef int text(self, Buf *out) except -1 nogil:
        """The window as text, for ``live``."""
        cdef Py_ssize_t i
        for i in range(self.count):
            if i:
                buf_put(out, LF)
            line_text(&self.lines[self.top + i], out)
        return 0

    cdef int enforce_limits(self) except -1 nogil:
        cdef Py_ssize_t count = self.count - self.live_lines, removed = 0, i
        if count <= 0 and self.cells <= self.max_live_cells:
            return 0
        if count < 0:
            count = 0
        for i in range(count):
            removed += self.lines[self.top + i].len
        while count < self.row and self.cells - removed > self.max_live_cells:
            removed += self.lines[self.top + count].len
            count += 1
        if count:
            self.commit_top(count, removed)
        return 0

    cdef int commit_top(self, Py_ssize_t count, Py_ssize_t cells) except -1 nogil:
        cdef Py_ssize_t i
        for i in range(count):
            if self.discard:  # lines pushed out of the alternate window's top are discarded, not committed
                self.stats[S_ALT] += line_written(&self.lines[self.top + i], 0, self.lines[self.top + i].len)
            else:
                line_put(&self.lines[self.top + i], self.out, LF)
            self.release_line(&self.lines[self.top + i])
        self.top += count
        self.count -= count
        self.row -= count
        self.cells -= cells
        self.committed += count
        return 0

    cdef int window_text(self, bint final) except -1 nogil:
        """The window's lines as committed text, in the output's head where they can be (line_put): LF after
        each line, or between them when ``final``; an empty last line gets none. Each line is released once
        its text is out, and the window is left with no lines: both callers freed them next, and a second
        pass over a million empty lines' headers (an LF flood with a large ``live_lines``) cost as much as
        the first (round 25)."""
        cdef Py_ssize_t i = 0, j, before
        cdef Line *lines = self.lines + self.top
        while i < self.count:
            if lines[i].len == 0 and lines[i].chunked == NULL:
                # A run of empty lines (blank lines, an LF flood): their LFs at once, the same number the loop
                # below puts (one before each line but the first when ``final``, else one after each line
                # but an empty last one)
                j = i
                while j < self.count and lines[j].len == 0 and lines[j].chunked == NULL:
                    if lines[j].cells != NULL:  # (a line never written has no buffer)
                        self.release_line(&lines[j])
                    j += 1
                buf_put_lfs(self.out, j - i - (i == 0 if final else j == self.count))
                i = j
                continue
            if final and i:
                buf_put_lf(self.out, True)
            before = buf_size(self.out)
            line_put(&lines[i], self.out, 0)
            if not final and not (i == self.count - 1 and buf_size(self.out) == before):
                buf_put_lf(self.out, True)
            self.release_line(&lines[i])
            i += 1
        self.top = self.count = 0
        return 0

    cdef int commit_window(self, bint final) except -1 nogil:
        self.committed += self.count
        if self.discard and not final:
            self.stats[S_ALT] += self.written()
            self.free_lines()
        else:
            self.window_text(final)
        self.append_line()
        self.row = self.col = self.cells = 0
        return 0

    # ------------------------------------------------------------------ printing

    cdef int chunked(self, Line *line) except -1 nogil:
        """Is ``line`` in chunks, after making it so if it is longer than one chunk? Called before an edit that
        does not append, so that the edit costs what it changes (_chunks_c.pxi)."""
        if line.chunked != NULL:
            return 1
        if line.len > self.chunk_size:
            line_widen(line)
            line_to_chunks(line, self.chunk_size, &self.spares)
            return 1
        return 0

    cdef inline int in_chunks(self, Line *line) except -1 nogil:
        """Is the cursor line written as chunks: it is one, or an edit inside it makes it one (chunked()), or
        the cursor is further past its end than a move takes it (max_jump past its text, SPEC 2.3 bounds;
        at least a chunk)? Only an erase or a delete under the cursor, or a restored cursor, leaves such a
        gap, and a line of blanks padded up to the cursor again after each (a character, then EL 2, the cursor
        far out) cost the gap's cells a character with nothing to show for them (3.5 MB/s; round 35): in
        chunks the gap is one fill. On the alternate screen (``discard``: its lines are counted, never output)
        a line of four-byte cells takes a gap of more than a chunk as a fill too: huge moves after a wide
        character padded 4 KiB a move, grown by doubling, and counted again when the line was dropped (30-34
        MB/s; 75-108 as chunks, round 36). A line of bytes pads a byte a cell (93-117 MB/s), and a line that
        is output writes its gaps' blanks anyway: as chunks it was laid out flat first (huge moves after a
        zero-width joiner, 100 output characters a byte: 12-15% slower)."""
        cdef Py_ssize_t gap = self.col - line.len
        if line.chunked != NULL:
            return 1
        if gap < 0:
            return self.chunked(line)
        if gap > self.chunk_size and (gap > self.max_jump or self.discard and not line.narrow):
            line_widen(line)
            line_to_chunks(line, self.chunk_size, &self.spares)
            return 1
        return 0

    cdef int write_chunked(self, const uint32_t *cps, const uint8_t *text, Py_ssize_t n) except -1 nogil:
        """prepare_write and the copy, on a chunked line: ``cps`` (or the bytes ``text``) at the cursor."""
        cdef Line *line = self.cursor_line()
        cdef Py_ssize_t size = line.len
        self.stats[S_OVERWRITTEN] += chunks_replace(line, self.col, n, cps, text, BLANK, self.chunk_size)
        self.cells += line.len - size
        return 0

    cdef int prepare_write(self, Py_ssize_t n) except -1 nogil:
        """Make room for n cells at the cursor (padding skipped cells with blanks) and count the written cells
        about to be overwritten. The caller has checked col + n <= max_line_cells."""
        cdef Line *line = self.cursor_line()
        cdef Py_ssize_t col = self.col, size = line.len, stop = col + n, i
        line_widen(line)
        line_reserve(line, stop)
        if col > size:
            line.plain = False
            for i in range(size, col):
                line.cells[i] = BLANK
        elif col < size:
            self.stats[S_OVERWRITTEN] += written(line.cells, col, stop if stop < size else size)
        if stop > size:
            line.len = stop
            self.cells += stop - size
        return 0

    cdef inline int prepare_bytes(self, Line *line, Py_ssize_t n) except -1 nogil:
        """prepare_write for a line of bytes that stays one: room for n bytes at the cursor, the gap before it
        padded with BLANK bytes, and what this overwrites is the overlap's written bytes."""
        cdef Py_ssize_t col = self.col
        line_reserve(line, col + n)
        if col > line.len:
            self.cells += col - line.len
            pad_bytes(line, col)
        if col + n > line.len:
            self.stats[S_OVERWRITTEN] += bytes_written(line, col, line.len)
            self.cells += col + n - line.len
            line.len = col + n
        else:
            self.stats[S_OVERWRITTEN] += bytes_written(line, col, col + n)
        return 0

    cdef int write_ascii(self, const uint8_t *text, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t part
        cdef Line *line = self.cursor_line()
        if not n:  # (nothing to write, and a line without a buffer must not be offset)
            return 0
        if self.col == line.len and self.col + n <= self.max_line_cells and line.chunked == NULL:
            # Appending, as plain text does: nothing is overwritten or padded, and only the cell limit can
            # commit lines (the line count did not change), so this is the loop below in one step.
            line_reserve(line, self.col + n)
            if line.narrow:
                memcpy(<uint8_t *>line.cells + self.col, text, n)
            else:
                acp_widen(line.cells + self.col, text, n)
            line.len += n
            self.cells += n
            self.col += n
            if self.cells > self.max_live_cells:
                self.enforce_limits()
            return 0
        while n:
            if self.col >= self.max_line_cells:
                self.newline()
            part = self.max_line_cells - self.col
            if part > n:
                part = n
            line = self.cursor_line()
            if self.in_chunks(line):
                self.write_chunked(NULL, text, part)
            elif line.narrow:
                # ASCII over a line of bytes (a redrawn progress frame), after its end or past it: it stays
                # bytes
                self.prepare_bytes(line, part)
                memcpy(<uint8_t *>line.cells + self.col, text, part)
            else:
                self.prepare_write(part)
                acp_widen(line.cells + self.col, text, part)
            self.col += part
            text += part
            n -= part
            self.enforce_limits()
        return 0

    cdef int write_tabbed(self, const uint8_t *text, Py_ssize_t n) except -1 nogil:
        """Printable ASCII and HTs at the cursor: write_ascii for each piece and tab() for each tab. Appended
        to a line of bytes with tabs kept (tab-indented code, tab-separated columns, as they are printed), a
        stretch of the text that cannot reach max_line_cells (a byte adds at most 8 cells) is written in one
        pass, TAB and FILL cells as bytes; anything else goes piece by piece. Appending commits lines only by
        the cell limit, which holds after the pass as after each piece (as write_ascii's append)."""
        cdef Py_ssize_t i = 0, j, stop, col, room
        cdef uint8_t *cells
        cdef bint tabbed
        cdef Line *line
        while i < n:
            line = self.cursor_line()
            col = self.col
            stop = i + (self.max_line_cells - col) // 8
            if stop > n:
                stop = n
            if self.keep_tabs and line.narrow and col == line.len and stop > i:
                # Room for two cells a byte (a line with a tab every 8 bytes), grown at a tab when its span
                # needs more: a line's capacity stays within twice what its cells need (counting the tabs
                # first cost a tenth more; room for 8 cells a byte, 8x). A narrow line's capacity is counted
                # in cells, so that it can be widened in place; +2 cells (8 bytes) for a span's 8-byte store.
                line_reserve(line, col + 2 * (stop - i) + 2)
                cells = <uint8_t *>line.cells
                room = line.cap - 2
                tabbed = False
                for j in range(i, stop):
                    if text[j] == HT:
                        if col + 8 + (stop - j) > room:
                            line_reserve(line, col + 8 + (stop - j) + 2)  # (doubling: amortised)
                            cells = <uint8_t *>line.cells
                            room = line.cap - 2
                        # TAB and seven FILLs in one 8-byte store, of which the cells up to the tab stop are
                        # kept
                        memcpy(cells + col, TAB_SPAN, 8)
                        col = (col | 7) + 1
                        tabbed = True
                    else:  # (byte by byte: a vector scan and a copy per piece measured slower on fields)
                        cells[col] = text[j]
                        col += 1
                if tabbed:
                    line.plain = False
                self.cells += col - line.len
                line.len = col
                self.col = col
                if self.cells > self.max_live_cells:
                    self.enforce_limits()
                i = stop
                continue
            # one piece: the text up to the next tab, then the tab
            j = i
            while j < n and text[j] != HT:
                j += 1
            if j > i:
                self.write_ascii(text + i, j - i)
            if j < n:
                self.tab()
                j += 1
            i = j
        return 0

    cdef int write(self, const uint32_t *cps, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t part
        cdef Line *line
        while n:
            if self.col >= self.max_line_cells:
                self.newline()
            part = self.max_line_cells - self.col
            if part > n:
                part = n
            line = self.cursor_line()
            if self.in_chunks(line):
                self.write_chunked(cps, NULL, part)
            elif line.narrow and cps[0] <= 0xFF and self.write_bytes(line, cps, part):
                pass  # (the first cell answers for text past Latin-1 here: write_bytes is out of line)
            else:
                self.prepare_write(part)
                # (colored text stays plain; text that reaches write() mostly starts past ASCII, and the
                # first cell answers for it: the whole check was a cell's instruction for CJK text)
                if line.plain and not (0x20 <= cps[0] < 0x7F and acp_printable_ascii(cps, part)):
                    line.plain = False
                memcpy(line.cells + self.col, cps, part * sizeof(uint32_t))
            self.col += part
            cps += part
            n -= part
            self.enforce_limits()
        return 0

    cdef int write_bytes(self, Line *line, const uint32_t *cps, Py_ssize_t n) except -1 nogil:
        """write()'s part on a line of bytes, if every cell is ASCII or Latin-1 (acp_byte_text): the line stays
        bytes (accented text, huge moves after an `é`: cells were four times the bytes written, then copied
        and narrowed again on the way out; round 28). Returns 1, or 0 with nothing written."""
        cdef uint32_t seen = 0
        if not acp_byte_text(cps, n, &seen):
            return 0
        self.prepare_bytes(line, n)
        if seen > 0x7F:
            line.plain = False
        acp_narrow1(<uint8_t *>line.cells + self.col, cps, n)
        return 1

    cdef int newline(self) except -1 nogil:
        self.col = 0
        if self.row != self.count - 1:
            self.row += 1
        elif self.count == self.live_lines and not self.discard and self.lines[self.top].chunked == NULL \
                and self.cells - self.lines[self.top].len <= self.max_live_cells:
            self.scroll()
        else:
            self.append_line()
            self.row += 1
            self.enforce_limits()
        return 0

    cdef int newlines(self, Py_ssize_t count) except -1 nogil:
        """newline() ``count`` times, the lines a window has room for at once: the cursor goes down the lines
        below it, then empty lines are appended up to live_lines with one enforce_limits for all of them
        (they add no cells, and committing is greedy from the top: the same lines leave, in the same order,
        as with a call after each), and the rest scroll, a newline() each."""
        cdef Py_ssize_t step = self.count - 1 - self.row, room, i
        self.col = 0
        if step > count:
            step = count
        self.row += step
        count -= step
        if count and self.count < self.live_lines:
            room = self.live_lines - self.count
            if room > count:
                room = count
            for i in range(room):
                self.append_line()
            self.row += room
            count -= room
            self.enforce_limits()
        while count > 0:
            self.newline()
            count -= 1
        return 0

    cdef inline int scroll(self) except -1 nogil:
        """newline() on the last line of a full window, when the line limit commits exactly the top line (the
        cell limit holds without it): what append_line, enforce_limits and commit_top would do, with the top
        line's buffer reused for the new line. Each line of plain text ends here, so its cost is the cost of a
        line (the throughput issue: four calls and a spare-buffer round trip were a quarter of a plain byte).
        Its common case, a line of bytes and room after the window, is kept small so that the compiler
        inlines it into put_line and newline (a call here was a fifth of the line's instructions)."""
        cdef Line *first = &self.lines[self.top]
        cdef Line *last
        if not (first.narrow and first.plain and self.top + self.count < self.lines_cap
                and first.cap <= SPARE_MAX_CAP):
            return self.scroll_line()
        buf_put_ascii(self.out, <const uint8_t *>first.cells, first.len, LF)
        self.committed += 1
        self.cells -= first.len
        # The top line's buffer becomes the new last line's, field by field (copying the struct out and back
        # cost a tenth of a plain line).
        last = &self.lines[self.top + self.count]
        last.cells = first.cells
        last.cap = first.cap
        last.len = 0
        last.chunked = NULL
        last.plain = last.narrow = True
        self.top += 1
        return 0

    cdef int scroll_line(self) except -1 nogil:
        """scroll() for every other line (cells, tab spans) or when the array has no room after the window."""
        cdef Line top = self.lines[self.top]
        line_put(&top, self.out, LF)
        self.committed += 1
        self.cells -= top.len
        self.top += 1
        self.count -= 1
        self.line_room()
        if top.cap > SPARE_MAX_CAP:
            self.release_line(&top)  # (to free it: the spares are full while lines are being reused)
            self.append_line()
        else:
            top.len = 0
            top.plain = top.narrow = True
            self.lines[self.top + self.count] = top
            self.count += 1
        return 0

    cdef inline int put_line(self, const uint8_t *text, Py_ssize_t n) except -1 nogil:
        """write_ascii(text, n), then newline(): a line of plain text (RenderSink.print_ascii_line). Its
        common case, the cursor on the empty last line of a full window whose limits hold with the text, is
        write_ascii's append and newline's scroll without the checks they make for every other case (the
        throughput issue: these calls were a quarter of what a plain line cost)."""
        cdef Line *line = &self.lines[self.top + self.row]
        if self.col == 0 and line.len == 0 and line.narrow and n <= line.cap and self.row == self.count - 1 \
                and self.count == self.live_lines and not self.discard and line.chunked == NULL \
                and self.lines[self.top].chunked == NULL and n <= self.max_line_cells \
                and self.cells + n <= self.max_live_cells:
            memcpy(line.cells, text, n)  # (n <= cap: a line of bytes has at least ``cap`` bytes)
            line.len = n
            self.cells += n
            return self.scroll()
        self.write_ascii(text, n)
        return self.newline()

    cdef int tab(self) except -1 nogil:
        # SPEC 2.3 rev 2: bounded by max_line_cells only (at most 8 cells), never by max_jump.
        cdef Py_ssize_t col = self.col, target = (col // 8 + 1) * 8, size, i, stop
        cdef Line *line
        cdef uint32_t span[8]
        if target > self.max_line_cells:
            target = self.max_line_cells if self.max_line_cells > col else col
        if self.keep_tabs and target > col:
            line = self.cursor_line()
            size = line.len
            if line.narrow and col <= size and (col == size or bytes_written(line, col, target if target < size
                                                                               else size)):
                # A line of bytes keeps its tab spans as bytes (TAB and FILL fit one): at its end the span is
                # appended; inside it, over a written cell, the tab only moves the cursor (as below). Over
                # blanks only (a gap a cursor move left), the line is widened below.
                if col == size:
                    line_reserve(line, target)
                    (<uint8_t *>line.cells)[col] = TAB
                    memset(<uint8_t *>line.cells + col + 1, FILL, target - col - 1)
                    line.len = target
                    line.plain = False
                    self.cells += target - col
                    self.col = target
                    self.enforce_limits()
                    return 0
                self.col = target
                return 0
            if col > size:
                self.in_chunks(line)  # (a gap further than a move goes is a fill: in_chunks)
            line_widen(line)
            size = line.len
            stop = target if target < size else size
            if line.chunked != NULL and (col >= size or chunks_written(line, col, stop) == 0):
                span[0] = TAB
                for i in range(1, target - col):
                    span[i] = FILL
                chunks_replace(line, col, target - col, span, NULL, BLANK, self.chunk_size)
                self.cells += line.len - size
                self.col = target
                self.enforce_limits()
                return 0
            if line.chunked == NULL and (col >= size or written(line.cells, col, stop) == 0):
                line_reserve(line, target)
                line.plain = False
                for i in range(size, col):
                    line.cells[i] = BLANK
                line.cells[col] = TAB
                for i in range(col + 1, target):
                    line.cells[i] = FILL
                if target > size:
                    line.len = target
                    self.cells += target - size
                self.col = target
                self.enforce_limits()
                return 0
        self.col = target
        return 0

    cdef int repeat(self, uint32_t *scratch, uint32_t char, Py_ssize_t count) except -1 nogil:
        """REP: at most max(0, end + max_jump - column) characters, built in ``scratch`` (room for 65535:
        a saturated parameter)."""
        cdef Py_ssize_t room = self.cursor_line().len + self.max_jump - self.col, i, part, size
        cdef Line *line
        cdef uint32_t *cells
        if count > room:
            count = room
        while count > 0:  # write's loop, with a fill instead of a copy where the line is in chunks
            if self.col >= self.max_line_cells:
                self.newline()
            part = self.max_line_cells - self.col
            if part > count:
                part = count
            line = self.cursor_line()
            if self.in_chunks(line):
                size = line.len
                self.stats[S_OVERWRITTEN] += chunks_replace(line, self.col, part, NULL, NULL, char, self.chunk_size)
                self.cells += line.len - size
                self.col += part
                self.enforce_limits()
            elif 0x20 <= char < 0x7F:
                # printable ASCII as bytes (write_ascii): a line of bytes stays one, as for the same text
                # printed (huge REPs: benchmarks/README.md, round 26)
                memset(scratch, char, part)
                self.write_ascii(<const uint8_t *>scratch, part)
            elif line.narrow and acp_byte_char(char):
                # Latin-1 on a line of bytes (write()'s acp_byte_text): it stays one (round 28). write_ascii
                # writes it on this line, which has room (and a cell limit it triggers then commits the line
                # as it is, not plain)
                line.plain = False
                memset(scratch, char, part)
                self.write_ascii(<const uint8_t *>scratch, part)
            else:
                # write()'s cells for a character that is neither ASCII nor one of a line of bytes (it makes
                # the line cells, not plain), filled in place: copied from ``scratch``, each cell was written
                # twice (REP of a wide character, round 29)
                self.prepare_write(part)
                line.plain = False
                cells = line.cells + self.col
                for i in range(part):
                    cells[i] = char
                self.col += part
                self.enforce_limits()
            count -= part
        return 0

    # ------------------------------------------------------------------ editing

    cdef int erase(self, Py_ssize_t start, Py_ssize_t stop) except -1 nogil:
        cdef Line *line = self.cursor_line()
        cdef Py_ssize_t size = line.len, i
        if stop > size:
            stop = size
        if start >= stop:
            return 0
        if line.chunked != NULL or (stop < size and self.chunked(line)):  # (chunked() widens the line)
            if stop == size:
                self.stats[S_OVERWRITTEN] += chunks_delete(line, start, stop, self.chunk_size)
            else:
                self.stats[S_OVERWRITTEN] += chunks_replace(line, start, stop - start, NULL, NULL, BLANK,
                                                            self.chunk_size)
            chunks_trim(line, self.chunk_size)
            self.cells += line.len - size
            return 0
        if line.narrow:
            # A line of bytes stays one: the line's end erased (EL 0, EL 2) is a new length, where widening
            # it first cost four bytes a cell of the whole line (a line of huge moves, then EL 2: round 35)
            self.stats[S_OVERWRITTEN] += bytes_written(line, start, stop)
            if stop == size:
                line.len = start
            else:
                line.plain = False
                memset(<uint8_t *>line.cells + start, BLANK, stop - start)
            line.len = acp_trim_bytes(<const uint8_t *>line.cells, line.len)
        else:
            self.stats[S_OVERWRITTEN] += written(line.cells, start, stop)
            if stop == size:
                line.len = start
            else:
                line.plain = False
                for i in range(start, stop):
                    line.cells[i] = BLANK
            line_trim(line)
        line_shrink(line)
        self.cells += line.len - size
        return 0

    cdef int insert_blanks(self, Py_ssize_t count) except -1 nogil:
        cdef Line *line = self.cursor_line()
        cdef Py_ssize_t col = self.col, size = line.len, i
        if count > self.max_jump:
            count = self.max_jump
        if col >= size or not count:
            return 0
        line_widen(line)
        if self.chunked(line):
            chunks_insert_fill(line, col, count, BLANK, self.chunk_size)
            if line.len > self.max_line_cells:
                self.stats[S_OVERWRITTEN] += chunks_delete(line, self.max_line_cells, line.len, self.chunk_size)
            chunks_trim(line, self.chunk_size)
            self.cells += line.len - size
            self.enforce_limits()
            return 0
        line_reserve(line, size + count)
        line.plain = False
        memmove(line.cells + col + count, line.cells + col, (size - col) * sizeof(uint32_t))
        for i in range(col, col + count):
            line.cells[i] = BLANK
        line.len = size + count
        if line.len > self.max_line_cells:
            self.stats[S_OVERWRITTEN] += written(line.cells, self.max_line_cells, line.len)
            line.len = self.max_line_cells
        line_trim(line)
        self.cells += line.len - size
        self.enforce_limits()
        return 0

    cdef int delete_cells(self, Py_ssize_t count) except -1 nogil:
        cdef Line *line = self.cursor_line()
        cdef Py_ssize_t col = self.col, size = line.len, stop
        if col >= size:
            return 0
        line_widen(line)
        stop = col + count if count < size - col else size
        if self.chunked(line):
            self.stats[S_OVERWRITTEN] += chunks_delete(line, col, stop, self.chunk_size)
            chunks_trim(line, self.chunk_size)
            self.cells += line.len - size
            return 0
        self.stats[S_OVERWRITTEN] += written(line.cells, col, stop)
        memmove(line.cells + col, line.cells + stop, (size - stop) * sizeof(uint32_t))
        line.len = size - (stop - col)
        line_trim(line)
        line_shrink(line)
        self.cells += line.len - size
        return 0

    cdef int erase_below(self) except -1 nogil:
        cdef Py_ssize_t i
        cdef Line *line
        self.erase(self.col, HUGE)
        for i in range(self.row + 1, self.count):
            line = &self.lines[self.top + i]
            self.stats[S_OVERWRITTEN] += line_written(line, 0, line.len)
            self.cells -= line.len
            self.release_line(line)
        self.count = self.row + 1
        return 0

    # ------------------------------------------------------------------ cursor

    cdef inline Py_ssize_t forward_target(self, Py_ssize_t target) noexcept nogil:
        cdef Py_ssize_t bound = self.cursor_line().len + self.max_jump
        if bound < self.col:
            bound = self.col
        return target if target < bound else bound

    cdef inline void move_to_column(self, Py_ssize_t target) noexcept nogil:
        self.col = self.forward_target(target) if target > self.col else target

    cdef inline void move_up(self, Py_ssize_t count) noexcept nogil:
        self.row = self.row - count if self.row > count else 0

    cdef inline void move_down(self, Py_ssize_t count) noexcept nogil:
        self.row = self.row + count
        if self.row > self.count - 1:
            self.row = self.count - 1

    cdef int fresh_line(self) except -1 nogil:
        if self.cursor_line().len:
            if self.lines[self.top + self.count - 1].len:
                self.append_line()
                self.enforce_limits()
            self.row = self.count - 1
        return 0

    cdef inline void save_cursor(self) noexcept nogil:
        self.has_saved = True
        self.saved_row = self.committed + self.row
        self.saved_col = self.col

    cdef void restore_cursor(self) noexcept nogil:
        cdef Py_ssize_t row
        if not self.has_saved:  # restore without a save: column 0 of the current line
            self.col = 0
            return
        self.col = self.saved_col
        row = self.saved_row - self.committed
        if row < 0:
            row = 0
        if row > self.count - 1:
            row = self.count - 1
        self.row = row
