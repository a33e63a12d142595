# The strip sink (SPEC 2.4): the twin of _strip_py.StripSink (see there). Text goes straight to the output
# buffer, or, on the alternate screen, to a held buffer bounded to its last max_live_cells characters.


@cython.final
cdef class StripSink(Sink):
    cdef Buf *out  # this call's output
    cdef Buf alt_held  # output held while the alternate screen is active
    cdef Buf *dest  # out, or &alt_held on the alternate screen
    cdef bint drop_alt, alt, pending_cr
    cdef Py_ssize_t max_live_cells

    def __dealloc__(self):
        free(self.alt_held.data)

    cdef int reset(self) except -1 nogil:
        self.alt = False
        self.pending_cr = False
        self.alt_held.len = 0
        self.dest = self.out
        return 0

    # ------------------------------------------------------------------ the Sink interface

    cdef int print_ascii(self, const uint8_t *text, Py_ssize_t n) except -1 nogil:
        cdef Buf *dest = self.dest
        self.resolve_pending_cr()
        if not self.alt:  # (the output's one-byte head while nothing wider came before it in this call)
            return buf_put_ascii(dest, text, n, 0)
        buf_put_ascii_data(dest, text, n, 0)
        return self.bound_alt_held()

    cdef int print_ascii_line(self, const uint8_t *text, Py_ssize_t n) except -1 nogil:
        cdef Buf *dest = self.dest
        self.resolve_pending_cr()
        if not self.alt:
            return buf_put_ascii(dest, text, n, LF)
        buf_put_ascii_data(dest, text, n, LF)
        # One bound after the text and the LF, where two calls bound twice: the held text is then a longer
        # suffix of the same stream for a moment; what is shown (its last max_live_cells) and what is counted
        # as dropped (every held character but LF, once) are the same.
        return self.bound_alt_held()

    cdef int print_cps(self, const uint32_t *cps, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t i
        cdef Buf *dest = self.dest
        cdef uint32_t *dst
        cdef uint32_t cp, seen = 0
        self.resolve_pending_cr()
        buf_reserve(dest, n)
        dst = dest.data + dest.len
        if not acp_copy_all_ordinary(dst, cps, n, &seen):  # (seen: an OR keeps the str kind)
            for i in range(n):  # (rare: policy characters, the black flag, U+00AD-U+2069)
                cp = cps[i]
                if not acp_ordinary(cp):
                    note_char(dest, cp)
        if seen > 0x10FFFF:
            seen = 0x10FFFF  # still the widest kind, and a valid maximum for PyUnicode_New
        if seen > dest.maxchar:
            dest.maxchar = seen
        dest.len += n
        return self.bound_alt_held()

    cdef int execute(self, uint8_t byte) except -1 nogil:
        cdef uint32_t tab = HT
        if byte == CR:
            self.pending_cr = True
        elif byte == HT:
            self.print_cps(&tab, 1)
        elif byte == BS:
            self.stats[S_CONTROLS] += 1
        else:  # LF, VT, FF
            buf_put_lf(self.dest, not self.alt)  # (the alternate screen's held text has no head)
            self.pending_cr = False
            self.bound_alt_held()
        return 0

    cdef int esc_dispatch(self, uint8_t final) except -1 nogil:
        if final == RIS:
            self.set_alt(False)
        return 0

    cdef int csi_dispatch(self, const uint32_t *params, int nparams, uint8_t final) except -1 nogil:
        return 0  # no CSI function changes what strip mode emits

    cdef int repeat(self, uint32_t char, Py_ssize_t count) except -1 nogil:
        return 0

    cdef int private_mode(self, uint32_t mode, bint enable) except -1 nogil:
        if mode == MODE_ALT_1049 or mode == MODE_ALT_1047 or mode == MODE_ALT_47:
            self.set_alt(enable)
        return 0

    cdef int set_alt(self, bint enter) except -1 nogil:
        if not self.drop_alt or enter == self.alt:
            return 0
        self.alt = enter
        if not enter:
            self.trim_alt_text(0)
        self.dest = &self.alt_held if enter else self.out
        return 0

    cdef int finish(self) except -1 nogil:
        cdef Py_ssize_t i
        if self.pending_cr:
            buf_put(self.dest, LF)
        if self.alt:  # SPEC 2.4 rev 2: a stream that ends on the alternate screen shows what it held
            self.trim_alt_text(self.max_live_cells)
            buf_reserve(self.out, self.alt_held.len)
            for i in range(self.alt_held.len):
                buf_put(self.out, self.alt_held.data[i])
        return self.reset()

    # ------------------------------------------------------------------ pending CR, the held text

    cdef inline int resolve_pending_cr(self) except -1 nogil:
        """Text after a CR starts on a new line."""
        if self.pending_cr:
            self.pending_cr = False
            buf_put_lf(self.dest, not self.alt)
        return 0

    cdef int trim_alt_text(self, Py_ssize_t keep) except -1 nogil:
        """Keep the last ``keep`` characters held on the alternate screen, count the rest as dropped."""
        cdef Py_ssize_t cut = self.alt_held.len - keep, i, newlines = 0
        if cut <= 0:
            return 0
        for i in range(cut):
            newlines += self.alt_held.data[i] == LF
        self.stats[S_ALT] += cut - newlines
        memmove(self.alt_held.data, self.alt_held.data + cut, keep * sizeof(uint32_t))
        self.alt_held.len = keep
        return 0

    cdef inline int bound_alt_held(self) except -1 nogil:
        if self.alt and self.alt_held.len > 2 * self.max_live_cells:
            self.trim_alt_text(self.max_live_cells)
        return 0
