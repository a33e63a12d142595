# cython: language_level=3
"""The transcript decoder in Cython: the byte-for-byte twin of the ``*_py`` modules at C speed.

The same pipeline, the same classes and the same method names as the fallback (``tests/test_architecture.py``
checks), one include file per module of the twin::

    _parser_c.pxi  Parser, Sink           <->  _parser_py.py
    _window_c.pxi  LineWindow             <->  _window_py.py
    _render_c.pxi  RenderSink             <->  _render_py.py
    _screen_c.pxi  ScreenSink             <->  _screen_py.py
    _strip_c.pxi   StripSink              <->  _strip_py.py
    _policy_c.pxi  the Unicode policy     <->  _unicode_policy.py
    this file      TranscriptDecoder, sanitize, sanitize_batch, sanitize_arrow  <->  _decoder_py.py
    _defs_c.pxi (constants, <-> _defs.py), _cells_c.pxi (cells and buffers), _chunks_c.pxi (long lines as
    chunks, so that an edit costs what it changes), _arrow_c.pxi (Arrow C data)

One module, so that the C compiler sees every call: the classes are ``@cython.final`` and their methods
direct C calls, except the parser's calls on its sink (one virtual call per text run or control function).
The hot path (``Parser.feed`` and everything it calls) touches no Python object: bytes come from the buffer
protocol, lines are arrays of UCS-4 cells, output goes to a growable UCS-4 buffer, and a ``str`` is built once
per call with ``PyUnicode_New`` at the narrowest width.
"""

cimport cython
import threading
from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.ref cimport PyObject, Py_DECREF, Py_INCREF
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid, PyCapsule_New
from cpython.unicode cimport PyUnicode_1BYTE_DATA, PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND, PyUnicode_New
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memchr, memcpy, memmove, memset

from ._base64 import as_base64_bytes, base64_error
from ._defs import DEFAULTS, STAT_KEYS, UNICODE
from ._options import parse_options, parse_size
from ._screen_py import screen_size

cdef extern from "Python.h":
    # A compact ASCII str's header (CPython's unicodeobject.h): buf_take sets the length of a str it built,
    # still its own, that keeps unused room at its end (as PyUnicode_Resize would, without the realloc).
    ctypedef struct PyASCIIObject:
        Py_ssize_t length
    bint PyUnicode_IS_ASCII(object o)
    Py_UCS4 PyUnicode_MAX_CHAR_VALUE(object o)
    Py_ssize_t PyUnicode_CopyCharacters(object to, Py_ssize_t to_start, object src, Py_ssize_t src_start,
                                        Py_ssize_t how_many) except -1
    int PyUnicode_Resize(PyObject **unicode, Py_ssize_t length) except -1
    const Py_ssize_t PY_SSIZE_T_MAX

include "_defs_c.pxi"
include "_cells_c.pxi"
include "_chunks_c.pxi"
include "_policy_c.pxi"
include "_parser_c.pxi"
include "_window_c.pxi"
include "_render_c.pxi"
include "_screen_c.pxi"
include "_strip_c.pxi"
include "_arrow_c.pxi"

# A line longer than this many cells becomes chunks of at most this many at its first edit (_chunks_c.pxi):
# 512 balances the walk over a 65,536-cell line's chunks (at most 257) against the cells one edit copies.
cdef Py_ssize_t line_chunk_cells = 512


def _set_line_chunk_cells(Py_ssize_t cells):
    """For tests: decoders made from now on chunk long lines at ``cells`` (small values let short inputs
    reach the chunked code). Returns the previous value. Output never depends on it."""
    global line_chunk_cells
    if cells < 1:
        raise ValueError("cells must be at least 1")
    previous = line_chunk_cells
    line_chunk_cells = cells
    return previous


# Byte classes for the base64 alphabet (RFC 4648 table 1); 64 = '=', 255 = invalid.
cdef uint8_t B64[256]
cdef bytes _ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
for _i in range(256):
    B64[_i] = 255
for _i in range(64):
    B64[<uint8_t>_ALPHABET[_i]] = _i
B64[0x3D] = 64


cdef Py_ssize_t base64_decode(const uint8_t *src, Py_ssize_t n, uint8_t *dst, bint last) noexcept nogil:
    """Strict RFC 4648 (table 1, padding only at the end): ``n`` characters, a multiple of 4, into ``dst``
    (room for n // 4 * 3 bytes). ``last``: they end the chunk, so the final group may be padded. The decoded
    size, or -1 when they are not strict base64 (the caller asks _base64.base64_error for offset and reason)."""
    cdef Py_ssize_t i, o = 0, pad = 0
    cdef uint32_t a, b, c, d
    if n % 4:
        return -1
    if n == 0:
        return 0
    if last and src[n - 1] == 0x3D:
        pad = 2 if src[n - 2] == 0x3D else 1
    for i in range(0, n - 4, 4):
        a = B64[src[i]]
        b = B64[src[i + 1]]
        c = B64[src[i + 2]]
        d = B64[src[i + 3]]
        if (a | b | c | d) >= 64:  # 255 (not in the alphabet) or 64 ('=' before the end)
            return -1
        a = (a << 18) | (b << 12) | (c << 6) | d
        dst[o] = <uint8_t>(a >> 16)
        dst[o + 1] = <uint8_t>(a >> 8)
        dst[o + 2] = <uint8_t>a
        o += 3
    a = B64[src[n - 4]]
    b = B64[src[n - 3]]
    c = B64[src[n - 2]] if pad < 2 else 0
    d = B64[src[n - 1]] if pad < 1 else 0
    if (a | b | c | d) >= 64:
        return -1
    a = (a << 18) | (b << 12) | (c << 6) | d
    dst[o] = <uint8_t>(a >> 16)
    o += 1
    if pad < 2:
        dst[o] = <uint8_t>(a >> 8)
        o += 1
    if pad < 1:
        dst[o] = <uint8_t>a
        o += 1
    return o


cdef bint base64_valid(const uint8_t *src, Py_ssize_t n) noexcept nogil:
    """Is ``src`` strict base64, checked without keeping what it decodes to (a chunk fed in slices must be
    refused before anything of it is fed)? Every group but the last must be 4 alphabet characters."""
    cdef Py_ssize_t i
    cdef uint8_t seen = 0
    cdef uint8_t tail[3]
    if n % 4:
        return False
    if n == 0:
        return True
    for i in range(n - 4):
        seen |= B64[src[i]]  # 64 ('=') and 255 set a bit no alphabet character (0-63) has
    return seen < 64 and base64_decode(src + n - 4, 4, tail, True) >= 0


@cython.final
cdef class TranscriptDecoder:
    """Turn terminal output bytes, fed in any chunks, into a safe plain-text transcript.

    The compiled twin of ``acp_transcript._decoder_py.TranscriptDecoder``: a facade over a ``Parser`` and a
    sink. One instance must not be used from two threads at once; separate instances are independent.

    >>> d = TranscriptDecoder()
    >>> d.decode(b"\\x1b[32mok\\x1b[0m 10%\\r") + d.decode(b"ok 100%\\n", final=True)
    'ok 100%\\n'
    """

    # C fields start zeroed (tp_alloc), so every pointer is NULL and every size 0 until used; __dealloc__
    # frees only what was allocated even if __init__ never ran.
    cdef object _options
    cdef str _unicode
    cdef int upolicy
    cdef int64_t stats[N_STATS]
    cdef Parser parser
    cdef Sink sink
    cdef RenderSink render_sink  # None in strip mode and in sized rendering
    cdef ScreenSink screen_sink  # sized rendering (SPEC 2.8), else None
    cdef StripSink strip_sink  # None in render mode
    cdef uint32_t held[MAX_HELD]  # strip output that may still become a flag sequence
    cdef int nheld
    cdef Buf out  # output of the current call
    cdef Buf pol  # the policy's output, swapped with out
    cdef SizeHint text_hint  # the sizes of calls' texts that came in pieces (text_append)
    cdef Text item_text  # a batch item's text in pieces (decode_item); freed here if an error left one
    cdef bint busy  # decoding with the GIL released: a second thread must not enter
    cdef uint8_t *scratch  # decode_base64's decoded bytes (one slice)
    cdef Py_ssize_t scratch_cap

    def __init__(
        self,
        *,
        mode=DEFAULTS.mode,
        tabs=DEFAULTS.tabs,
        alt_screen=DEFAULTS.alt_screen,
        unicode=DEFAULTS.unicode,
        live_lines=DEFAULTS.live_lines,
        max_line_cells=DEFAULTS.max_line_cells,
        max_live_cells=DEFAULTS.max_live_cells,
        max_jump=DEFAULTS.max_jump,
        max_string_bytes=DEFAULTS.max_string_bytes,
        columns=DEFAULTS.columns,
        rows=DEFAULTS.rows,
    ):
        options = parse_options(
            mode, tabs, alt_screen, unicode, live_lines, max_line_cells, max_live_cells, max_jump, max_string_bytes,
            columns, rows,
        )
        self._options = options
        self._unicode = options.unicode
        self.upolicy = UNICODE.index(options.unicode)
        if options.mode == "render":
            self.sink = self.render_sink_for(options)
        else:
            self.strip_sink = StripSink()
            self.strip_sink.out = &self.out
            self.strip_sink.drop_alt = options.alt_screen == "drop"
            self.strip_sink.max_live_cells = options.max_live_cells
            self.sink = self.strip_sink
        self.sink.stats = &self.stats[0]
        self.parser = Parser()
        self.parser.sink = self.sink
        self.parser.stats = &self.stats[0]
        self.parser.max_string_bytes = options.max_string_bytes
        self.parser.out_cells = &self.out.len
        self.reset()

    cdef Sink render_sink_for(self, options):
        """The render sink for ``options``: a RenderSink (unsized) or a ScreenSink (SPEC 2.8), made ready."""
        cdef LineWindow window
        cdef ScreenSink screen
        self.render_sink = None
        self.screen_sink = None
        if options.columns is None and options.rows is None:
            window = LineWindow()
            window.stats = &self.stats[0]
            window.out = &self.out
            window.keep_tabs = options.tabs == "keep"
            # A window never holds more lines than cells (SPEC 2.3 bounds): live_lines=2**40 and a stream of
            # LFs must not keep a million empty lines per megabyte.
            window.live_lines = min(options.live_lines, options.max_live_cells)
            window.max_line_cells = options.max_line_cells
            window.max_live_cells = options.max_live_cells
            window.max_jump = options.max_jump
            window.chunk_size = line_chunk_cells
            self.render_sink = RenderSink()
            self.render_sink.window = window
            self.render_sink.drop_alt = options.alt_screen == "drop"
            self.render_sink.tabbed_runs = True
            self.render_sink.stats = &self.stats[0]
            self.render_sink.reset()
            return self.render_sink
        screen = ScreenSink()
        screen.stats = &self.stats[0]
        screen.cell_frames = True
        screen.out = &self.out
        screen.drop_alt = options.alt_screen == "drop"
        screen.max_live_cells = options.max_live_cells
        screen.chunk_size = line_chunk_cells
        screen.columns, screen.height = screen_size(options)
        screen.reset()
        self.screen_sink = screen
        return screen

    def resize(self, columns, rows):
        """Render at a new size from here on (SPEC 2.8); see ``_decoder_py.TranscriptDecoder.resize``."""
        cdef bint sized
        self.check_initialised()
        columns, rows = parse_size(columns, rows)
        options = self._options._replace(columns=columns, rows=rows)
        if self.strip_sink is None:
            sized = columns is not None or rows is not None
            if self.screen_sink is not None and sized:
                new_columns, new_rows = screen_size(options)
                self.screen_sink.resize(new_columns, new_rows)
            elif self.screen_sink is not None or sized:
                self.sink.finish()
                self.sink = self.render_sink_for(options)
                self.parser.sink = self.sink
        self._options = options
        return self.take_output(False)

    def __dealloc__(self):
        text_free(&self.item_text)
        buf_free(&self.out)
        buf_free(&self.pol)
        free(self.scratch)

    # ------------------------------------------------------------------ public API

    @property
    def options(self):
        """The options this decoder was made with."""
        return self._options._asdict()

    @property
    def stats(self):
        """A copy of the diagnostics counters (SPEC 2.6); they add up over streams until ``reset()``."""
        return {key: self.stats[i] for i, key in enumerate(STAT_KEYS)}

    def _line_chunks(self):
        """For tests: ``(cells, chunks, unjoined)`` for each line of the current window (0 chunks: a flat
        line), to check the invariants of _chunks_c.pxi (``unjoined``: chunks_unjoined) and the chunk bound
        they give. Empty in strip mode and in sized rendering."""
        cdef LineWindow window
        cdef Line *line
        cdef Py_ssize_t i
        if self.render_sink is None:
            return []
        window = self.render_sink.window
        lines = []
        for i in range(window.count):
            line = &window.lines[window.top + i]
            lines.append((line.len, line.chunked.nchunks if line.chunked != NULL else 0,
                          chunks_unjoined(line, window.chunk_size)))
        return lines

    def _row_chunks(self):
        """For tests: ``(cells, chunks, unjoined)`` for each row of the current screen in sized rendering,
        as _line_chunks for the window's lines."""
        cdef Screen *screen
        cdef Row *row
        cdef Py_ssize_t y
        if self.screen_sink is None:
            return []
        screen = &self.screen_sink.screen
        rows = []
        for y in range(screen.height):
            row = row_at(screen, y)
            rows.append((row.line.len, row.line.chunked.nchunks if row.line.chunked != NULL else 0,
                         chunks_unjoined(&row.line, self.screen_sink.chunk_size)))
        return rows

    @property
    def live(self):
        """The live window as text (render mode): what a UI shows as still in progress. ``""`` in strip mode."""
        cdef Buf tmp, shown
        self.check_initialised()
        if self.strip_sink is not None:
            return ""
        buf_init(&tmp)
        buf_init(&shown)
        try:
            if self.screen_sink is not None:
                self.screen_sink.live(&tmp)
            else:
                self.render_sink.live(&tmp)
            if tmp.flags & NEEDS_POLICY or (tmp.flags & INVISIBLE and self.upolicy == POLICY_STRICT):
                policy_into(&tmp, &shown, self.upolicy, NULL)
                return buf_take(&shown)
            return buf_take(&tmp)
        finally:
            buf_free(&tmp)
            buf_free(&shown)

    def reset(self):
        """Forget the stream and the counters: the decoder is as new."""
        cdef int i
        self.check_initialised()
        for i in range(N_STATS):
            self.stats[i] = 0
        buf_clear(&self.out)
        self.nheld = 0
        self.parser.reset()
        self.sink.reset()

    def decode(self, data, final=False):
        """Feed ``data``; return the text committed by this call (all remaining text when ``final``)."""
        cdef Py_buffer view
        cdef Text text = Text(NULL, 0)
        self.check_initialised()
        if isinstance(data, memoryview):
            if data.ndim > 1 or data.itemsize != 1 or not data.c_contiguous:
                raise TypeError("a memoryview must be one-dimensional and contiguous with item size 1")
        elif not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"decode() needs bytes, bytearray or memoryview, not {type(data).__name__}")
        PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
        try:
            try:
                self.feed_sliced(<const uint8_t *>view.buf, view.len, None, &text)
            finally:
                PyBuffer_Release(&view)
            return self.end_call(&text, final)
        finally:
            text_free(&text)

    cdef int feed_sliced(self, const uint8_t *data, Py_ssize_t n, object base64_chunk, Text *text) except -1:
        """Feed ``n`` bytes (or, when ``base64_chunk`` is given, its ``n`` characters, decoded BASE64_SLICE at a
        time into ``scratch``), moving the output into the call's ``text`` whenever its cells reach PIECE_CELLS
        (feed_released stops there; text_append): a call's staging is then bounded by a piece, not by the whole
        chunk's text (the 60 MB chunk of benchmarks/memory.py; input that makes a hundred characters a byte
        staged 4 bytes of cells for each of them: 1 MB of `é` and huge `REP`s peaked at 461 MB). Text in the
        one-byte head is never cut: the head is at most HEAD_MALLOC_MAX bytes of staging, and past that the
        str the call returns, grown in place (Buf.hstr); a piece taken at the end of every 1 MiB of input, as
        until round 27, was one more copy of it in the join (one 32 MB call of plain text read 900 MB/s where 4
        KiB calls read 3.5 GB/s). The text is the same as for one piece, as for any chunking."""
        cdef bint base64 = base64_chunk is not None
        cdef Py_ssize_t start = 0, size, fed, m, step = BASE64_SLICE if base64 else n
        cdef const uint8_t *src
        while start < n:
            size = n - start if n - start <= step else step
            if base64:
                grow(<void **>&self.scratch, &self.scratch_cap, size // 4 * 3, 1, 4096)
                m = base64_decode(data + start, size, self.scratch, start + size == n)
                if m < 0:  # only a one-slice chunk gets here unchecked: nothing has been fed
                    raise base64_error(as_base64_bytes(base64_chunk))
                src = self.scratch
            else:
                src = data + start
                m = size
            fed = self.feed_released(src, m)
            while fed < m:
                # the share of the call's input read (base64 characters for decoded bytes): the text is sized
                # as if what is left makes text as what came so far did
                self.output_to_text(text, False, <double>(start + (fed if not base64 else fed // 3 * 4) + 1) / (n + 1))
                fed += self.feed_released(src + fed, m - fed)
            start += size
        return 0

    cdef str end_call(self, Text *text, bint final):
        """The call's text: what is in ``text`` (none if it came in one piece) and the output."""
        if final:
            self.finish()
        if text.str == NULL:
            return self.take_output(final)
        self.output_to_text(text, final, 0)
        return text_finish(text, &self.text_hint)

    cdef int output_to_text(self, Text *text, bint final, double read) except -1 with gil:
        """The output, as take_output readies it, onto the end of ``text`` (``read``: text_append's), for a
        call's text or a batch item's that comes in pieces."""
        self.ready_output(final)
        text_append(text, &self.out, &self.text_hint, read)
        self.trim_output()
        return 0

    cdef Py_ssize_t feed_released(self, const uint8_t *data, Py_ssize_t n) except -1:
        """feed(), with the GIL released for inputs of GIL_FREE_BYTES or more (SPEC 6), so that threads
        decoding different streams run in parallel. The input stays exported (a bytearray cannot be resized
        meanwhile), and ``busy`` refuses a second thread on the same decoder instead of corrupting it.
        Returns how many bytes it fed: all of them, or fewer once the output holds PIECE_CELLS cells (see
        feed_bounded)."""
        cdef Py_ssize_t fed
        if n < GIL_FREE_BYTES:
            if n:
                self.feed(data, n)
            return n
        if self.busy:
            raise RuntimeError("this TranscriptDecoder is decoding in another thread; use one per thread")
        self.busy = True
        try:
            with nogil:
                fed = self.feed_bounded(data, n)
        finally:
            self.busy = False
        return fed

    cdef Py_ssize_t feed_bounded(self, const uint8_t *data, Py_ssize_t n) except -1 nogil:
        """feed() FEED_STEP bytes at a time, stopping once the output holds PIECE_CELLS cells: after a step, or
        inside one before an escape sequence (Parser.feed's stop_cells), so that the cells stay within
        KEEP_BUFFER and their buffer is kept between calls, where a call of huge repeats of `é` grew it to 24
        MB and freed it every time (fresh pages at every call: 4 MB/s). Escape sequences make the output that
        is far larger than its input; without them a step makes at most 8 cells a byte (tabs) and commits what
        the window or screen holds (max_live_cells), so a call stages at most a piece, one sequence's output
        and those. Until round 29 a step was 4 KiB after one had made more than 8 cells a byte and 64 KiB
        after one had made 2 or fewer, checked only at its end: text that made a cell a byte and then huge
        REPs of a wide character staged 27 MB of cells in one step, freed after the call and taken again
        from fresh pages (14.5 ms a 64 KiB call where 5.2 was the rule). Text in the one-byte head does not
        count: past 1 MiB it is the str the call returns (Buf.hstr), never copied again. Returns how many
        bytes it fed."""
        cdef Py_ssize_t i = 0
        while i < n:
            i += self.parser.feed(data + i, n - i if n - i <= FEED_STEP else FEED_STEP, PIECE_CELLS)
            if self.out.len >= PIECE_CELLS:
                break
        return i

    def decode_base64(self, chunk, final=False):
        """Decode one independently encoded RFC 4648 chunk (strict) and feed its bytes.

        Raises ``Base64Error`` (a ``ValueError``, with ``.offset``) before anything is fed.
        """
        cdef Py_buffer view
        cdef Text text = Text(NULL, 0)
        self.check_initialised()
        if isinstance(chunk, str):
            if not PyUnicode_IS_ASCII(chunk):
                as_base64_bytes(chunk)  # raises the Base64Error naming the first non-ASCII character
            try:
                self.feed_base64(PyUnicode_1BYTE_DATA(chunk), PyUnicode_GET_LENGTH(chunk), chunk, &text)
                return self.end_call(&text, final)
            finally:
                text_free(&text)
        if not isinstance(chunk, (bytes, bytearray, memoryview)):
            raise TypeError(f"a base64 chunk must be str or bytes-like, not {type(chunk).__name__}")
        if isinstance(chunk, memoryview) and (chunk.ndim > 1 or chunk.itemsize != 1 or not chunk.c_contiguous):
            chunk = chunk.tobytes()
        PyObject_GetBuffer(chunk, &view, PyBUF_SIMPLE)
        try:
            try:
                self.feed_base64(<const uint8_t *>view.buf, view.len, chunk, &text)
            finally:
                PyBuffer_Release(&view)
            return self.end_call(&text, final)
        finally:
            text_free(&text)

    cdef int feed_base64(self, const uint8_t *src, Py_ssize_t n, chunk, Text *text) except -1:
        """Check, decode and feed one base64 chunk; nothing is fed if it is not strict base64. A chunk of
        one slice is checked as it is decoded (one pass, before anything is fed); a longer one is checked
        whole first, because its first slice is fed before its last is decoded."""
        if n > BASE64_SLICE and not base64_valid(src, n):
            raise base64_error(as_base64_bytes(chunk))
        try:
            return self.feed_sliced(src, n, chunk, text)
        finally:
            if self.scratch_cap > KEEP_BUFFER:
                free(self.scratch)
                self.scratch = NULL
                self.scratch_cap = 0

    cdef object batch(self, items):
        """sanitize_batch(): every item decoded as a stream of its own by this one decoder. The GIL is held
        only to take each item's buffer and to build the strings; the decoding of a slice of items, and the
        Unicode policy, run without it (SPEC 6), so threads decoding different batches use every core."""
        cdef list results = [], views_held = []
        cdef Py_buffer *views = NULL
        cdef Py_ssize_t *spans = NULL  # per item: start, length and widest character of its text in acc
        cdef PyObject **wholes = NULL  # per item: its text, when it was a str already (decode_item), or NULL
        cdef Buf acc
        cdef Py_ssize_t count, i, k, start, head, total = len(items), done = 0, slice_bytes
        cdef int taken = 0
        buf_init(&acc)
        if self.busy:
            raise RuntimeError("this TranscriptDecoder is decoding in another thread; use one per thread")
        self.busy = True
        try:
            views = <Py_buffer *>malloc(BATCH_SLICE * sizeof(Py_buffer))
            spans = <Py_ssize_t *>malloc(3 * BATCH_SLICE * sizeof(Py_ssize_t))
            wholes = <PyObject **>calloc(BATCH_SLICE, sizeof(PyObject *))
            if views == NULL or spans == NULL or wholes == NULL:
                raise MemoryError()
            while done < total:
                count = total - done if total - done < BATCH_SLICE else BATCH_SLICE
                taken = 0
                slice_bytes = 0
                try:
                    for i in range(count):
                        if slice_bytes >= BATCH_SLICE_BYTES:
                            # A slice's text stays in the cache between its decoding and its strings: 1,024
                            # items of 6 KB filled 24 MB of cells, and the batch ran at 0.8x a loop of
                            # sanitize() (benchmarks/README.md, round 17).
                            count = i
                            break
                        item = items[done + i]
                        if isinstance(item, memoryview):
                            if item.ndim > 1 or item.itemsize != 1 or not item.c_contiguous:
                                raise TypeError("a memoryview must be one-dimensional and contiguous with item size 1")
                        elif not isinstance(item, (bytes, bytearray)):
                            raise TypeError(f"item {done + i}: sanitize_batch() needs bytes, bytearray or "
                                            f"memoryview, not {type(item).__name__}")
                        PyObject_GetBuffer(item, &views[i], PyBUF_SIMPLE)
                        taken += 1
                        slice_bytes += views[i].len
                    acc.len = acc.hlen = 0
                    with nogil:
                        for i in range(count):
                            start = acc.len
                            head = acc.hlen
                            self.decode_item(<const uint8_t *>views[i].buf, views[i].len, &acc, &wholes[i], NULL)
                            if wholes[i] != NULL:  # a str of its own: no span in acc
                                pass
                            elif acc.hlen != head:  # ASCII bytes in acc's head: widest character -1
                                spans[3 * i] = head
                                spans[3 * i + 1] = acc.hlen - head
                                spans[3 * i + 2] = -1
                            else:
                                spans[3 * i] = start
                                spans[3 * i + 1] = acc.len - start
                                spans[3 * i + 2] = acc.maxchar
                            acc.maxchar = 0
                finally:
                    for i in range(taken):
                        PyBuffer_Release(&views[i])
                for i in range(count):
                    if wholes[i] != NULL:
                        results.append(<object>wholes[i])
                        Py_DECREF(<object>wholes[i])  # (the reference decode_item gave; the list holds its own)
                        wholes[i] = NULL
                    elif spans[3 * i + 1] == 0:  # (acc.data may be NULL: no pointer arithmetic on it)
                        results.append("")
                    elif spans[3 * i + 2] < 0:
                        results.append(ascii_str(acc.head + spans[3 * i], spans[3 * i + 1]))
                    else:
                        results.append(ucs4_str(acc.data + spans[3 * i], spans[3 * i + 1], <uint32_t>spans[3 * i + 2]))
                done += count
        finally:
            self.busy = False
            if wholes != NULL:  # (a slice cut short by an error: the strs it had taken)
                for i in range(BATCH_SLICE):
                    if wholes[i] != NULL:
                        Py_DECREF(<object>wholes[i])
            free(views)
            free(spans)
            free(wholes)
            buf_free(&acc)
        return results

    cdef object arrow(self, source):
        """sanitize_arrow(): every value of an Arrow array or stream decoded as a stream of its own."""
        cdef ArrowStrings result = ArrowStrings()
        cdef ArrowSchema *schema
        cdef ArrowArray *array
        cdef ArrowArrayStream *stream
        cdef ArrowSchema stream_schema
        cdef ArrowArray chunk
        cdef int kind
        if self.busy:
            raise RuntimeError("this TranscriptDecoder is decoding in another thread; use one per thread")
        self.busy = True
        try:
            if hasattr(source, "__arrow_c_stream__"):
                capsule = source.__arrow_c_stream__()
                stream = <ArrowArrayStream *>PyCapsule_GetPointer(capsule, "arrow_array_stream")
                stream_schema.release = NULL
                if stream.get_schema(stream, &stream_schema) != 0:
                    raise ValueError("the Arrow stream could not give its schema")
                try:
                    kind = arrow_kind(stream_schema.format)
                    while True:
                        chunk.release = NULL
                        if stream.get_next(stream, &chunk) != 0:
                            raise ValueError("the Arrow stream failed to give its next array")
                        if chunk.release == NULL:  # the end of the stream
                            break
                        try:
                            self.arrow_values(kind, &chunk, &result.out)
                        finally:
                            chunk.release(&chunk)
                finally:
                    if stream_schema.release != NULL:
                        stream_schema.release(&stream_schema)
            elif hasattr(source, "__arrow_c_array__"):
                capsules = source.__arrow_c_array__()
                schema = <ArrowSchema *>PyCapsule_GetPointer(capsules[0], "arrow_schema")
                array = <ArrowArray *>PyCapsule_GetPointer(capsules[1], "arrow_array")
                self.arrow_values(arrow_kind(schema.format), array, &result.out)
            else:
                raise TypeError(f"sanitize_arrow needs an object exporting the Arrow C data interface "
                                f"(__arrow_c_array__ or __arrow_c_stream__), not {type(source).__name__}")
        finally:
            self.busy = False
        if result.out.offsets == NULL:  # an empty input: offsets still hold one 0
            grow(<void **>&result.out.offsets, &result.out.offsets_cap, 1, sizeof(int64_t), 1)
            result.out.offsets[0] = 0
        return result

    cdef int arrow_values(self, int kind, ArrowArray *array, Out8 *out) except -1:
        """Decode one array's values (nulls kept) onto the end of ``out``, without the GIL."""
        cdef int64_t n = array.length, i, k, at, size, base = out.length
        cdef const uint8_t *valid
        cdef const int32_t *off32
        cdef const int64_t *off64
        cdef const uint8_t *values
        cdef const uint8_t *view
        cdef const uint8_t *start
        cdef Buf acc
        if array.n_buffers < (2 if kind == ARROW_VIEW else 3):
            raise ValueError("an Arrow array with fewer buffers than its type has")
        valid = <const uint8_t *>array.buffers[0] if array.null_count != 0 else NULL
        # The output is about as long as the input (sequences removed, a few characters shown): reserve that
        # once rather than doubling through it, which costs a copy and fresh pages per step.
        if kind == ARROW_BINARY and n:
            size = (<const int32_t *>array.buffers[1])[array.offset + n] - (<const int32_t *>array.buffers[1])[array.offset]
        elif kind == ARROW_LARGE and n:
            size = (<const int64_t *>array.buffers[1])[array.offset + n] - (<const int64_t *>array.buffers[1])[array.offset]
        else:
            size = 0
        if size > 0:
            grow(<void **>&out.data, &out.cap, out.len + size + size // 8 + 64, 1, 4096)
        grow(<void **>&out.offsets, &out.offsets_cap, base + n + 1, sizeof(int64_t), 1024)
        grow(<void **>&out.validity, &out.validity_cap, (base + n + 8) // 8 + 1, 1, 256)
        if base == 0:
            out.offsets[0] = 0
        buf_init(&acc)
        try:
            with nogil:
                for i in range(n):
                    at = array.offset + i
                    k = base + i
                    if valid != NULL and not (valid[at >> 3] >> (at & 7)) & 1:
                        out.validity[k >> 3] &= ~(1 << (k & 7))
                        out.null_count += 1
                        out.offsets[k + 1] = out.offsets[k]
                        continue
                    out.validity[k >> 3] |= 1 << (k & 7)
                    if kind == ARROW_BINARY:
                        off32 = <const int32_t *>array.buffers[1]
                        start = <const uint8_t *>array.buffers[2] + off32[at]
                        size = off32[at + 1] - off32[at]
                    elif kind == ARROW_LARGE:
                        off64 = <const int64_t *>array.buffers[1]
                        start = <const uint8_t *>array.buffers[2] + off64[at]
                        size = off64[at + 1] - off64[at]
                    else:  # a view: length, then 12 inline bytes or a prefix, buffer index and offset
                        view = <const uint8_t *>array.buffers[1] + 16 * at
                        size = (<const int32_t *>view)[0]
                        if size <= 12:
                            start = view + 4
                        else:
                            start = <const uint8_t *>array.buffers[2 + (<const int32_t *>view)[2]] + (<const int32_t *>view)[3]
                    acc.len = acc.hlen = 0
                    acc.maxchar = 0
                    self.decode_item(start, size, &acc, NULL, out)
                    if acc.hlen:  # ASCII bytes are their own UTF-8
                        put_bytes(out, acc.head, acc.hlen)
                    else:
                        put_utf8(out, acc.data, acc.len)
                    out.offsets[k + 1] = out.len
        finally:
            buf_free(&acc)
        out.length = base + n
        return 0

    cdef int release_held(self) except -1 nogil:
        """Strip mode: put the text held back at the end of the last call (a possible flag sequence) in
        front of this call's output."""
        cdef Buf *out = &self.out
        cdef int i
        if self.strip_sink is None or not self.nheld:
            return 0
        buf_flatten(out)
        buf_reserve(out, self.nheld)
        memmove(out.data + self.nheld, out.data, out.len * sizeof(uint32_t))
        for i in range(self.nheld):
            out.data[i] = self.held[i]
            note_char(out, self.held[i])
        out.len += self.nheld
        self.nheld = 0
        return 0

    cdef int decode_item(self, const uint8_t *data, Py_ssize_t n, Buf *acc, PyObject **whole,
                         Out8 *utf8) except -1 nogil:
        """One item of a batch, from a fresh stream to its end; its text (policy applied) appended to acc: to
        acc's head if it is all one-byte ASCII text, else to acc's data (never both for one item). acc's head
        holds ASCII only (the batch makes its strs with ascii_str, the Arrow writer copies it as UTF-8), so an
        item whose head holds Latin-1 (a line of bytes, buf_put_tabbed) goes to acc's data. When ``whole`` is
        given, an item whose text is all in a head past HEAD_MALLOC_MAX, a str already (Buf.hstr), is that
        str instead (a new reference in ``*whole``, acc untouched): copied into acc and then into a str of its
        own, a 256 KiB item of huge repeats made 4 bytes of cells a character (benchmarks/README.md, round
        28). An item whose text passes a piece of cells is fed as decode() feeds a call (feed_bounded), each
        piece written into the str that is its text (output_to_text) or, for the Arrow writer, appended to its
        UTF-8 output ``utf8`` (item_piece_utf8; the rest goes to acc, which the writer appends after it), where
        its cells were staged whole, then copied into acc and into a str or UTF-8: a 256 KiB item of huge
        repeats of a wide character peaked at 272 MB for 54 MB of text in a batch, 283 MB more for 77 MB of
        UTF-8 in an Arrow array (round 29)."""
        cdef Buf *out = &self.out
        cdef Py_ssize_t i, fed = 0
        if n < GIL_FREE_BYTES or (whole == NULL and utf8 == NULL):
            # (at once, as feed_released feeds a call this small: most items, which the steps and the check
            # before each escape sequence cost 2% more instructions)
            if n:
                self.feed(data, n)
        else:
            while fed < n:
                fed += self.feed_bounded(data + fed, n - fed)
                if self.out.len >= PIECE_CELLS:
                    if whole != NULL:
                        self.output_to_text(&self.item_text, False, <double>(fed + 1) / (n + 1))
                    else:
                        self.item_piece_utf8(utf8)
        self.finish()
        if self.item_text.str != NULL:
            self.item_end(whole)
            return 0
        self.release_held()  # at the end nothing is held back (take_output with final)
        if out.flags & NEEDS_POLICY or (out.flags & INVISIBLE and self.upolicy == POLICY_STRICT):
            policy_into(out, &self.pol, self.upolicy, self.stats)
            out = &self.pol
        if whole != NULL and not out.len and out.hstr != NULL:
            take_str(out, whole)
        elif not out.len and out.maxchar < 0x80:
            # All of it (if anything) in the one-byte head, ASCII: onto acc's head, so that it goes from
            # input to str as bytes (the throughput issue; the caller sees acc.hlen move)
            if out.hlen:
                if acc.hlen + out.hlen > acc.hcap:  # (acc's data may hold earlier items: not buf_put_ascii)
                    grow(<void **>&acc.head, &acc.hcap, acc.hlen + out.hlen, 1, 1024)
                buf_write_head(acc, out.head, out.hlen, 0)
        else:  # head, then data, as cells onto acc's data
            buf_reserve(acc, buf_size(out))
            if out.hlen:  # (the head may have no buffer: no arithmetic on NULL)
                acp_widen(acc.data + acc.len, out.head, out.hlen)
                acc.len += out.hlen
            if out.len:  # (none when the item's text is all in a head of Latin-1: data may be NULL)
                memcpy(acc.data + acc.len, out.data, out.len * sizeof(uint32_t))
                acc.len += out.len
        if out.maxchar > acc.maxchar:
            acc.maxchar = out.maxchar
        buf_clear(&self.out)
        buf_clear(&self.pol)
        return 0

    cdef int item_piece_utf8(self, Out8 *utf8) except -1 nogil:
        """decode_item's output so far as UTF-8 onto the end of the Arrow writer's ``utf8``."""
        self.ready_output(False)
        buf_flatten(&self.out)  # (a piece is cells: its head, if any, is widened once)
        put_utf8(utf8, self.out.data, self.out.len)
        buf_clear(&self.out)
        self.trim_output()
        return 0

    cdef int item_end(self, PyObject **whole) except -1 with gil:
        """The end of an item whose text came in pieces: the rest of it, and the str in ``*whole`` (a new
        reference), as end_call does for a call."""
        self.output_to_text(&self.item_text, True, 0)
        text = text_finish(&self.item_text, &self.text_hint)
        Py_INCREF(text)
        whole[0] = <PyObject *>text
        buf_clear(&self.pol)  # (text_append emptied out)
        return 0

    cdef int check_initialised(self) except -1:
        # TranscriptDecoder.__new__() without __init__ has no parser or sink to work with.
        if self.parser is None:
            raise TypeError("TranscriptDecoder.__init__() was not called")
        return 0

    cdef inline int feed(self, const uint8_t *data, Py_ssize_t n) except -1 nogil:
        self.parser.feed(data, n, HUGE)
        return 0

    cdef int finish(self) except -1 nogil:
        self.parser.finish()
        return self.sink.finish()

    # ------------------------------------------------------------------ base64

    # ------------------------------------------------------------------ output (SPEC 2.5)

    cdef str take_output(self, bint final):
        """This call's output as a str (ready_output)."""
        self.ready_output(final)
        text = buf_take(&self.out)
        self.trim_output()
        return text

    cdef int ready_output(self, bint final) except -1 nogil:
        """The output as the call returns it, in ``out``: the Unicode policy applied (in C: SPEC 2.5's table,
        as the fallback's _unicode_policy applies it). Strip mode holds back an end that may still become a
        flag sequence."""
        cdef Buf *out = &self.out
        cdef Buf swap
        cdef Py_ssize_t i, j
        self.release_held()
        if self.strip_sink is not None and not final and self.upolicy == POLICY_STANDARD and out.flags & BLACK_FLAG:
            j = out.len  # the end is a black flag and at most 6 tag specs: hold it (HOLD in the fallback)
            while j > 0 and out.len - j < 6 and tag_spec(out.data[j - 1]):
                j -= 1
            if j > 0 and out.data[j - 1] == 0x1F3F4:
                self.nheld = <int>(out.len - j + 1)
                for i in range(self.nheld):
                    self.held[i] = out.data[j - 1 + i]
                out.len = j - 1
                out.maxchar = head_maxchar(out)  # recomputed: a str must be built at its narrowest kind
                for i in range(out.len):
                    if out.data[i] > out.maxchar:
                        out.maxchar = out.data[i]
        if out.flags & NEEDS_POLICY or (out.flags & INVISIBLE and self.upolicy == POLICY_STRICT):
            policy_into(out, &self.pol, self.upolicy, self.stats)
            swap = self.out
            self.out = self.pol
            self.pol = swap
            self.pol.len = 0
        return 0

    cdef void trim_output(self) noexcept nogil:
        """After the output was taken."""
        if self.out.cap > KEEP_BUFFER:  # memory between calls is the window's, not the last output's
            free(self.out.data)
            self.out.data = NULL
            self.out.cap = 0
        if self.pol.cap > KEEP_BUFFER:
            free(self.pol.data)
            self.pol.data = NULL
            self.pol.cap = 0


_local = threading.local()


cdef TranscriptDecoder cached_decoder(dict options):
    """This thread's decoder for these options: ``sanitize`` then costs its decoding, not building a decoder
    and parsing its options (SPEC 6). Each decode with ``final=True`` leaves it as new but for ``stats``."""
    cdef dict cache
    try:
        cache = _local.decoders
    except AttributeError:
        cache = _local.decoders = {}
    key = tuple(sorted(options.items())) if options else ()
    decoder = cache.get(key)
    if decoder is None:
        if len(cache) >= 16:  # a program that uses many option sets does not keep a decoder for each
            cache.clear()
        decoder = cache[key] = TranscriptDecoder(**options)
    return <TranscriptDecoder>decoder


def sanitize(data, **options):
    """One shot: ``TranscriptDecoder(**options).decode(data, final=True)``.

    >>> sanitize(b"\\x1b[1mbold\\x1b[0m\\n 50%\\r100%\\n")
    'bold\\n100%\\n'
    """
    cdef TranscriptDecoder decoder = cached_decoder(options)
    if decoder.busy:  # this thread is already inside it (a signal handler): a fresh one
        return TranscriptDecoder(**options).decode(data, final=True)
    try:
        return decoder.decode(data, final=True)
    except BaseException:
        _local.decoders.clear()  # an error may have left it mid-stream: never reuse it
        raise


def sanitize_arrow(array, **options):
    """Every value of an Arrow array sanitized, nulls kept (SPEC 6): ``array`` is any object exporting the
    Arrow C data interface (``__arrow_c_array__`` or ``__arrow_c_stream__``: pyarrow arrays and chunked
    arrays, polars series, duckdb and datafusion results) of binary, large_binary, binary_view, string,
    large_string or string_view values. Returns an ``ArrowStrings`` of the same length: a ``large_string``
    array exported the same way (``pyarrow.array(result)``). The buffers are read in place, one decoder
    state serves every value, UTF-8 is written straight into the output, and the GIL is released while
    decoding. No Arrow library is needed at run time.
    """
    return TranscriptDecoder(**options).arrow(array)


def sanitize_batch(items, **options):
    """``[sanitize(item, **options) for item in items]`` in one call (SPEC 6): one decoder, no per-item
    Python overhead beyond building each string, and the GIL released while decoding.

    >>> sanitize_batch([b"\\x1b[31mred\\x1b[0m", b"10%\\r100%"])
    ['red', '100%']
    """
    if not isinstance(items, (list, tuple)):
        items = list(items)
    return TranscriptDecoder(**options).batch(items)

