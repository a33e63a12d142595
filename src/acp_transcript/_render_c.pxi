# The render sink (SPEC 2.3): the twin of _render_py.RenderSink (see there). It owns the one LineWindow the
# core draws on, and the windows put aside while the alternate screen or a status-line overlay is active.


cdef inline Py_ssize_t param(const uint32_t *params, int nparams, int index, Py_ssize_t default) noexcept nogil:
    """Parameter ``index``, or ``default`` when it is absent or 0 (ECMA-48 5.4.2)."""
    cdef Py_ssize_t value = params[index] if index < nparams else 0
    return value if value else default


@cython.final
cdef class RenderSink(Sink):
    cdef LineWindow window
    cdef bint drop_alt, alt
    cdef Window main_window  # the main screen's window while the alternate one is active
    cdef Window overlay_origin  # the window under a status-line overlay while one is drawn
    cdef bint has_main_window, in_overlay
    cdef uint32_t *scratch  # REP's characters
    cdef Py_ssize_t scratch_cap

    def __dealloc__(self):
        if self.window is not None:
            if self.in_overlay:
                self.window.drop_window()
                self.window.unpack(&self.overlay_origin)
            if self.has_main_window:
                self.window.drop_window()
                self.window.unpack(&self.main_window)
        free(self.scratch)

    cdef int reset(self) except -1 nogil:
        if self.in_overlay:
            self.window.drop_window()
            self.window.unpack(&self.overlay_origin)
            self.in_overlay = False
        if self.has_main_window:
            self.window.drop_window()
            self.window.unpack(&self.main_window)
            self.has_main_window = False
        # The lines go (their buffers to the spares), the array stays unless it grew large: a batch resets
        # once per item, and freeing and allocating the array was a tenth of a short item's instructions.
        self.window.free_lines()
        if self.window.lines_cap > KEEP_LINE_ARRAY:
            self.window.drop_window()
        self.window.new_window(False)
        self.alt = False
        return 0

    cdef int live(self, Buf *out) except -1 nogil:
        cdef Window aside
        cdef Py_ssize_t mark
        if not self.in_overlay:
            return self.window.text(out)
        # the window under the overlay, then the overlay line (as a terminal shows it)
        self.window.pack(&aside)
        self.window.unpack(&self.overlay_origin)
        self.window.text(out)
        self.window.pack(&self.overlay_origin)
        self.window.unpack(&aside)
        mark = out.len
        buf_put(out, LF)
        line_text(&self.window.lines[self.window.top], out)
        if out.len == mark + 1:  # an overlay line with no text (blanks, a cut tab span) adds nothing
            out.len = mark
        return 0

    # ------------------------------------------------------------------ the Sink interface

    cdef int print_ascii(self, const uint8_t *text, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t room
        if self.in_overlay:
            # The overlay line ends where a character is due at max_line_cells (a new line, as LF)
            room = self.window.max_line_cells - self.window.col
            if n > room:
                if room > 0:
                    self.window.write_ascii(text, room)
                    text += room
                    n -= room
                self.end_overlay()
                self.window.newline()
        return self.window.write_ascii(text, n)

    cdef int print_cps(self, const uint32_t *cps, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t room
        if self.in_overlay:
            room = self.window.max_line_cells - self.window.col
            if n > room:
                if room > 0:
                    self.window.write(cps, room)
                    cps += room
                    n -= room
                self.end_overlay()
                self.window.newline()
        return self.window.write(cps, n)

    cdef int print_tabbed(self, const uint8_t *text, Py_ssize_t n) except -1 nogil:
        if self.in_overlay:  # (where the overlay line ends is print_ascii's to find: piece by piece)
            return Sink.print_tabbed(self, text, n)
        return self.window.write_tabbed(text, n)

    cdef int print_ascii_line(self, const uint8_t *text, Py_ssize_t n) except -1 nogil:
        if self.in_overlay:  # (the overlay line ends at the LF: the two calls, as the base does)
            return Sink.print_ascii_line(self, text, n)
        return self.window.put_line(text, n)

    cdef int execute(self, uint8_t byte) except -1 nogil:
        if byte == CR:
            self.window.col = 0
        elif byte == HT:
            self.window.tab()
        elif byte == BS:
            if self.window.col:
                self.window.col -= 1
        else:  # LF, VT, FF
            self.end_overlay()
            self.window.newline()
        return 0

    cdef int linefeeds(self, Py_ssize_t count) except -1 nogil:
        self.end_overlay()  # (the first LF ends an overlay; the others find none)
        return self.window.newlines(count)

    cdef Py_ssize_t frame_limit(self) noexcept nogil:
        # A frame that fits the line only sets cells, on a status-line overlay too (that line ends where a
        # character is due past max_line_cells, which such a frame never reaches).
        return self.window.max_line_cells

    cdef int esc_dispatch(self, uint8_t final) except -1 nogil:
        if final == RIS:
            self.end_overlay()
            self.set_alt(False)
            self.window.commit_window(False)
        elif final == DECSC:
            self.end_overlay()
            self.window.save_cursor()
        elif final == DECRC:
            self.end_overlay()
            self.window.restore_cursor()
        elif final == IND or final == NEL:
            self.end_overlay()
            self.window.newline()
        elif final == RI:
            self.end_overlay()
            self.window.move_up(1)
        return 0

    cdef int csi_dispatch(self, const uint32_t *params, int nparams, uint8_t final) except -1 nogil:
        """Section numbers are ECMA-48 (5th ed.); see _render_py.RenderSink.csi_dispatch."""
        cdef Py_ssize_t how
        if final == 0x4B:  # K: 8.3.41 EL; the cursor does not move
            how = param(params, nparams, 0, 0)
            if how == 0:
                self.window.erase(self.window.col, HUGE)
            elif how == 1:
                self.window.erase(0, self.window.col + 1)
            elif how == 2:
                self.window.erase(0, HUGE)
        elif final == 0x58:  # X: 8.3.38 ECH
            self.window.erase(self.window.col, self.window.col + param(params, nparams, 0, 1))
        elif final == 0x40:  # @: 8.3.64 ICH
            self.window.insert_blanks(param(params, nparams, 0, 1))
        elif final == 0x50:  # P: 8.3.26 DCH
            self.window.delete_cells(param(params, nparams, 0, 1))
        elif final == 0x47 or final == 0x60:  # G: 8.3.9 CHA, `: 8.3.57 HPA
            self.window.move_to_column(param(params, nparams, 0, 1) - 1)
        elif final == 0x43 or final == 0x61:  # C: 8.3.20 CUF, a: 8.3.59 HPR
            self.window.col = self.window.forward_target(self.window.col + param(params, nparams, 0, 1))
        elif final == 0x44:  # D: 8.3.18 CUB
            how = param(params, nparams, 0, 1)
            self.window.col = self.window.col - how if self.window.col > how else 0
        elif final == 0x41 or final == 0x46:  # A: 8.3.22 CUU, F: 8.3.13 CPL
            self.end_overlay()
            self.window.move_up(param(params, nparams, 0, 1))
            if final == 0x46:
                self.window.col = 0
        elif final == 0x42 or final == 0x45:  # B: 8.3.19 CUD, E: 8.3.12 CNL
            self.end_overlay()
            self.window.move_down(param(params, nparams, 0, 1))
            if final == 0x45:
                self.window.col = 0
        elif final == 0x48 or final == 0x66:  # H: 8.3.21 CUP, f: 8.3.63 HVP
            if self.window.has_saved or self.in_overlay:
                self.start_overlay(param(params, nparams, 1, 1) - 1)
            else:
                self.window.fresh_line()
                self.window.col = 0
                self.window.col = self.window.forward_target(param(params, nparams, 1, 1) - 1)
        elif final == 0x64:  # d: 8.3.158 VPA (keeps the column)
            if self.window.has_saved or self.in_overlay:
                self.start_overlay(self.window.col)
            else:
                self.window.fresh_line()
        elif final == 0x4A:  # J: 8.3.39 ED; history is never deleted
            how = param(params, nparams, 0, 0)
            if how == 0:
                self.window.erase_below()
            elif how <= 3:
                self.end_overlay()
                self.window.commit_window(False)
        elif final == 0x73:  # s: SCOSC; with parameters it is DECSLRM
            if not nparams:
                self.end_overlay()
                self.window.save_cursor()
        elif final == 0x75:  # u: SCORC
            if not nparams:
                self.end_overlay()
                self.window.restore_cursor()
        return 0

    cdef int repeat(self, uint32_t char, Py_ssize_t count) except -1 nogil:
        grow(<void **>&self.scratch, &self.scratch_cap, count, sizeof(uint32_t), 4096)
        return self.window.repeat(self.scratch, char, count)

    cdef int private_mode(self, uint32_t mode, bint enable) except -1 nogil:
        if mode == MODE_ALT_1049 or mode == MODE_ALT_1047 or mode == MODE_ALT_47:
            self.set_alt(enable)
        return 0

    cdef int set_alt(self, bint enter) except -1 nogil:
        """SPEC 2.3 rev 2: see _render_py.RenderSink.set_alt."""
        if not self.drop_alt or enter == self.alt:
            return 0
        self.alt = enter
        self.end_overlay()
        if enter:
            self.window.pack(&self.main_window)
            self.has_main_window = True
            self.window.new_window(True)
        else:
            self.stats[S_ALT] += self.window.written()
            self.window.drop_window()
            self.window.unpack(&self.main_window)
            self.has_main_window = False
        return 0

    cdef int finish(self) except -1 nogil:
        """final=True (SPEC 2.3 rev 2): see _render_py.RenderSink.finish."""
        cdef Window overlay, alternate
        cdef bint has_overlay = self.in_overlay
        cdef Buf *out = self.window.out
        cdef Py_ssize_t start, mark, before
        memset(&overlay, 0, sizeof(Window))  # set below when has_overlay (the compiler cannot tell)
        if has_overlay:
            self.window.pack(&overlay)
            self.window.unpack(&self.overlay_origin)
            self.in_overlay = False
        if self.has_main_window:
            self.window.pack(&alternate)
            self.window.unpack(&self.main_window)
            self.has_main_window = False
            self.window.commit_window(False)
            self.window.drop_window()
            self.window.unpack(&alternate)
        start = buf_size(out)
        self.window.window_text(True)  # (into the output's head while it can: sizes, not out.len, below)
        if has_overlay:
            mark = out.len  # (what follows goes into data: it is cut back to here)
            if buf_size(out) > start and buf_last(out) != LF:
                buf_put(out, LF)
            before = out.len
            line_text(&overlay.lines[overlay.top], out)
            if out.len == before:  # an overlay line with no text adds nothing
                out.len = mark
            self.window.pack(&alternate)
            self.window.unpack(&overlay)
            self.window.drop_window()
            self.window.unpack(&alternate)
        return self.reset()

    # ------------------------------------------------------------------ the status-line overlay

    cdef int start_overlay(self, Py_ssize_t col) except -1 nogil:
        """SPEC 2.3 rev 2, the status-line overlay: see _render_py.RenderSink.start_overlay."""
        if not self.in_overlay:
            self.window.pack(&self.overlay_origin)
            self.in_overlay = True
        else:
            self.stats[S_OVERLAY] += self.window.written()
            self.window.drop_window()
        self.window.new_window(self.overlay_origin.discard)
        self.window.col = self.window.forward_target(col)
        return 0

    cdef int end_overlay(self) except -1 nogil:
        if self.in_overlay:
            self.stats[S_OVERLAY] += self.window.written()
            self.window.drop_window()
            self.window.unpack(&self.overlay_origin)
            self.in_overlay = False
        return 0
