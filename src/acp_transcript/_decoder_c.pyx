# cython: language_level=3
"""The transcript decoder in Cython: the byte-for-byte twin of ``_decoder_py.py`` at C speed.

``_decoder_py.py`` documents the algorithm; every method here mirrors the Python method of the same name
(``_write`` -> ``write``, ``_enforce_limits`` -> ``enforce_limits``, ...), and the two change together.
The hot path (``feed`` and everything it calls) touches no Python object: bytes come from the buffer
protocol, lines are arrays of UCS-4 cells, output goes to a growable UCS-4 buffer, and a ``str`` is built once
per call with ``PyUnicode_New`` at the narrowest width. Python objects appear only per call: building that
``str``, and the Unicode policy (shared with the fallback, run only when a character it concerns was emitted).
"""

cimport cython
import threading
from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid, PyCapsule_New
from cpython.unicode cimport PyUnicode_1BYTE_DATA, PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND, PyUnicode_New
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memmove

from ._base64 import as_base64_bytes, base64_error
from ._options import DEFAULTS, STAT_KEYS, parse_options

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object o)

# Parser states: the same numbers as _decoder_py (ST_STRING stands for the six DCS/SOS/PM/APC states).
cdef enum:
    GROUND = 0
    ESCAPE = 1
    ESCAPE_INTERMEDIATE = 2
    CSI_ENTRY = 3
    CSI_PARAM = 4
    CSI_INTERMEDIATE = 5
    CSI_IGNORE = 6
    OSC_STRING = 7
    ST_STRING = 8

# Cell kinds below U+0020, never text.
cdef enum:
    BLANK = 0
    TAB = 1
    FILL = 2

cdef enum:
    SPARE_LINES = 16
    SPARE_MAX_CAP = 4096  # larger buffers are freed, so that one long line does not stay allocated
    RUN_SLICE = 65536  # bytes of one text run at most: the decoded run buffer is bounded by it
    KEEP_BUFFER = 1 << 20  # cells: a per-call buffer that grew past this is freed after the call
    GIL_FREE_BYTES = 4096  # inputs this large are decoded with the GIL released (smaller: not worth it)
    BATCH_SLICE = 1024  # items of a batch decoded per release of the GIL
    MAX_PARAMS = 32
    MAX_PARAM = 65535
    MAX_INTERMEDIATES = 2

# Indexes into stats[], in the order of _options.STAT_KEYS.
cdef enum:
    S_SEQUENCES = 0
    S_CONTROLS = 1
    S_INVALID = 2
    S_C1 = 3
    S_ABANDONED = 4
    S_UNTERMINATED = 5
    S_ALT = 6
    S_OVERWRITTEN = 7
    S_OVERLAY = 8
    S_BIDI = 9
    S_SEPARATORS = 10
    S_TAGS = 11
    S_INVISIBLE = 12
    N_STATS = 13

# The Unicode policy (SPEC 2.5), as _unicode_policy applies it for the fallback.
cdef enum:
    POLICY_STANDARD = 0
    POLICY_STRICT = 1
    POLICY_OFF = 2
    MAX_HELD = 7  # a black flag and up to 6 tag specs: what may still become a flag sequence

# Output flags: which characters this call emitted that the (Python) Unicode policy must look at.
cdef enum:
    NEEDS_POLICY = 1  # a character every policy but "off" changes (separators: every policy)
    BLACK_FLAG = 2
    INVISIBLE = 4  # an invisible format character: only unicode="strict" changes it

cdef Py_ssize_t HUGE = (<Py_ssize_t>1) << 62

ctypedef struct Line:
    uint32_t *cells
    Py_ssize_t len
    Py_ssize_t cap

# A window (see _decoder_py): its lines, cursor, cell count, lines gone from its top and saved cursor. The
# decoder works on one window in its own fields; pack_window/unpack_window move one aside and back.
ctypedef struct Window:
    Line *lines
    Py_ssize_t top, count, lines_cap
    Py_ssize_t row, col, cells, committed
    bint has_saved
    Py_ssize_t saved_row, saved_col

ctypedef struct Buf:
    uint32_t *data
    Py_ssize_t len
    Py_ssize_t cap
    uint32_t maxchar
    int flags

# The Arrow C data interface (https://arrow.apache.org/docs/format/CDataInterface.html), read and written
# directly, so that sanitize_arrow needs no Arrow library at run time: pyarrow, polars, duckdb and datafusion
# all export and import these structs through the PyCapsule protocol (__arrow_c_array__/__arrow_c_stream__).
cdef extern from *:
    """
    #ifndef ARROW_C_DATA_INTERFACE
    #define ARROW_C_DATA_INTERFACE
    struct ArrowSchema {
      const char* format; const char* name; const char* metadata; int64_t flags; int64_t n_children;
      struct ArrowSchema** children; struct ArrowSchema* dictionary;
      void (*release)(struct ArrowSchema*); void* private_data;
    };
    struct ArrowArray {
      int64_t length; int64_t null_count; int64_t offset; int64_t n_buffers; int64_t n_children;
      const void** buffers; struct ArrowArray** children; struct ArrowArray* dictionary;
      void (*release)(struct ArrowArray*); void* private_data;
    };
    #endif
    #ifndef ARROW_C_STREAM_INTERFACE
    #define ARROW_C_STREAM_INTERFACE
    struct ArrowArrayStream {
      int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
      int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
      const char* (*get_last_error)(struct ArrowArrayStream*);
      void (*release)(struct ArrowArrayStream*);
      void* private_data;
    };
    #endif
    """
    struct ArrowSchema:
        const char *format
        const char *name
        const char *metadata
        int64_t flags
        int64_t n_children
        ArrowSchema **children
        ArrowSchema *dictionary
        void (*release)(ArrowSchema *) noexcept nogil
        void *private_data
    struct ArrowArray:
        int64_t length
        int64_t null_count
        int64_t offset
        int64_t n_buffers
        int64_t n_children
        const void **buffers
        ArrowArray **children
        ArrowArray *dictionary
        void (*release)(ArrowArray *) noexcept nogil
        void *private_data
    struct ArrowArrayStream:
        int (*get_schema)(ArrowArrayStream *, ArrowSchema *) noexcept nogil
        int (*get_next)(ArrowArrayStream *, ArrowArray *) noexcept nogil
        const char *(*get_last_error)(ArrowArrayStream *) noexcept nogil
        void (*release)(ArrowArrayStream *) noexcept nogil
        void *private_data

cdef int _i

# Bytes that always make exactly one code point in a text run: printable ASCII, and the bytes that are
# never valid in UTF-8 (80-C1, F5-FF: each is U+FFFD on its own).
cdef uint8_t ONE_CELL[256]
for _i in range(256):
    ONE_CELL[_i] = 0x20 <= _i < 0x7F or 0x80 <= _i <= 0xC1 or _i >= 0xF5

# C0 controls with no effect in the ground state, in either mode (all but BS, HT, LF, VT, FF, CR, ESC): a
# text run counts them and goes on (SPEC 2.2), as the fallback's run does.
cdef uint8_t IGNORED_CONTROL[256]
for _i in range(256):
    IGNORED_CONTROL[_i] = _i < 0x20 and not (0x08 <= _i <= 0x0D or _i == 0x1B)

# Byte classes for the base64 alphabet (RFC 4648 table 1); 64 = '=', 255 = invalid.
cdef uint8_t B64[256]
cdef bytes _ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
for _i in range(256):
    B64[_i] = 255
for _i in range(64):
    B64[<uint8_t>_ALPHABET[_i]] = _i
B64[0x3D] = 64

assert len(STAT_KEYS) == N_STATS
assert STAT_KEYS[S_BIDI] == "bidi_shown" and STAT_KEYS[S_INVISIBLE] == "invisible_shown"


cdef inline bint invisible_char(uint32_t cp) noexcept nogil:
    """An invisible format character (SPEC 2.5): shown by the strict policy only."""
    return (cp == 0x200B or 0x2060 <= cp <= 0x2064 or cp == 0xFEFF or cp == 0xAD or cp == 0x180E or cp == 0x200E
            or cp == 0x200F or cp == 0x61C)


cdef inline bint policy_char(uint32_t cp) noexcept nogil:
    """Could the Unicode policy change this character (any policy)? Mirrors _unicode_policy's classes."""
    if cp < 0xAD:
        return False
    if cp == 0xAD or cp == 0x61C or cp == 0x180E or cp == 0xFEFF:
        return True
    if 0x200B <= cp <= 0x200F or 0x2028 <= cp <= 0x202E or 0x2060 <= cp <= 0x2069:
        return True
    return 0xE0000 <= cp <= 0xE007F


cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    /* The length of the run of printable ASCII (0x20-0x7E) at p, at most n. Eight bytes at a time (SWAR):
       a byte b < 0x20 borrows in b - 0x20, b >= 0x7F carries into or has bit 7 in b + 0x01, b >= 0x80 has
       bit 7 itself. Borrows and carries only spill into bytes after a hit, so a word without any hit is
       eight printable bytes, and the first hit is found byte by byte. */
    static inline Py_ssize_t acp_ascii_run(const uint8_t *p, Py_ssize_t n) {
        Py_ssize_t i = 0;
        uint64_t w;
        while (i + 8 <= n) {
            memcpy(&w, p + i, 8);
            if (((w - 0x2020202020202020ULL) | (w + 0x0101010101010101ULL) | w) & 0x8080808080808080ULL)
                break;
            i += 8;
        }
        while (i < n && p[i] >= 0x20 && p[i] < 0x7F)
            i++;
        return i;
    }
    /* An ordinary cell: a character that is no cell kind (< 0x20) and that nothing per character needs to
       look at on the way out: not U+00AD-U+2FFF (where every Unicode-policy character below U+E0000 but
       U+FEFF lies), not U+FEFF, not U+1F000 and above (the black flag, tag characters). CJK, U+FFFD and
       most text are ordinary. */
    static inline int acp_ordinary(uint32_t c) {
        return (c - 0x20u < 0x8Du) | ((c - 0x3000u < 0x1C000u) & (c != 0xFEFFu));
    }
    /* Copy cells to dst while whole blocks of 16 are characters 0x20-0xAC (the common case; the wider
       acp_ordinary test costs twice the instructions here); return how many were copied and OR them into
       *seen (an OR keeps the str kind: 0x80, 0x100, 0x10000 bounds). A block is
       copied before it is checked (dst has room), so the loop has no early exit and vectorises; restrict
       tells the compiler the two arrays do not overlap. */
    static inline Py_ssize_t acp_copy_ordinary(uint32_t *restrict dst, const uint32_t *restrict src,
                                               Py_ssize_t n, uint32_t *seen) {
        Py_ssize_t k = 0;
        uint32_t bits = 0;
        while (k + 16 <= n) {
            uint32_t special = 0, block = 0;
            for (int j = 0; j < 16; j++) {
                uint32_t c = src[k + j];
                dst[k + j] = c;
                block |= c;
                special |= (uint32_t)(c - 0x20u >= 0x8Du);  /* the narrow test: it vectorises */
            }
            if (special)
                break;
            bits |= block;
            k += 16;
        }
        *seen |= bits;
        return k;
    }
    """
    Py_ssize_t acp_ascii_run(const uint8_t *p, Py_ssize_t n) nogil
    Py_ssize_t acp_copy_ordinary(uint32_t *dst, const uint32_t *src, Py_ssize_t n, uint32_t *seen) nogil
    bint acp_ordinary(uint32_t c) nogil


cdef int grow(void **data, Py_ssize_t *cap, Py_ssize_t need, size_t item, Py_ssize_t initial) except -1 nogil:
    """Make ``*data`` (an array of ``*cap`` items of ``item`` bytes) hold at least ``need`` items, doubling."""
    cdef Py_ssize_t size = cap[0] * 2 if cap[0] else initial
    cdef void *grown
    if need <= cap[0]:
        return 0
    while size < need:
        size *= 2
    grown = realloc(data[0], size * item)
    if grown == NULL:
        with gil:
            raise MemoryError()
    data[0] = grown
    cap[0] = size
    return 0


cdef inline int buf_reserve(Buf *buf, Py_ssize_t extra) except -1 nogil:
    if buf.len + extra > buf.cap:
        grow(<void **>&buf.data, &buf.cap, buf.len + extra, sizeof(uint32_t), 256)
    return 0


cdef inline void note_char(Buf *buf, uint32_t cp) noexcept nogil:
    """Remember what the per-call Python work needs to know about an emitted character."""
    if cp > buf.maxchar:
        buf.maxchar = cp
    if cp >= 0xAD:
        if policy_char(cp):
            buf.flags |= INVISIBLE if invisible_char(cp) else NEEDS_POLICY
        elif cp == 0x1F3F4:
            buf.flags |= BLACK_FLAG


cdef inline int buf_put(Buf *buf, uint32_t cp) except -1 nogil:
    if buf.len == buf.cap:
        buf_reserve(buf, 1)
    buf.data[buf.len] = cp
    buf.len += 1
    note_char(buf, cp)
    return 0


cdef str ucs4_str(const uint32_t *src, Py_ssize_t n, uint32_t maxchar):
    """A str of the narrowest kind for ``maxchar`` from UCS-4 code points."""
    cdef Buf view
    if n == 0:
        return ""
    view.data = <uint32_t *>src
    view.len = view.cap = n
    view.maxchar = maxchar
    view.flags = 0
    return buf_take(&view)


cdef str buf_take(Buf *buf):
    """The buffer as a str of the narrowest kind; the buffer is emptied."""
    cdef Py_ssize_t n = buf.len, i
    cdef str text = PyUnicode_New(n, buf.maxchar)
    cdef int kind = PyUnicode_KIND(text)
    # Local pointers: a store through uint8_t* may alias buf->data as far as C knows, and reloading it on
    # every iteration would keep the compiler from vectorising the narrowing loops.
    cdef const uint32_t *src = buf.data
    cdef uint8_t *d1
    cdef uint16_t *d2
    if kind == 1:
        d1 = <uint8_t *>PyUnicode_DATA(text)
        for i in range(n):
            d1[i] = <uint8_t>src[i]
    elif kind == 2:
        d2 = <uint16_t *>PyUnicode_DATA(text)
        for i in range(n):
            d2[i] = <uint16_t>src[i]
    else:
        memcpy(PyUnicode_DATA(text), src, n * sizeof(uint32_t))
    buf.len = 0
    buf.maxchar = 0
    buf.flags = 0
    return text


cdef inline int line_reserve(Line *line, Py_ssize_t size) except -1 nogil:
    if size > line.cap:
        grow(<void **>&line.cells, &line.cap, size, sizeof(uint32_t), 64)
    return 0


cdef inline void line_shrink(Line *line) noexcept nogil:
    """A line that lost most of its cells gives the memory back: a window's memory is then bounded by its
    cells (max_live_cells), not by what its lines once held."""
    cdef void *smaller
    cdef Py_ssize_t cap
    if line.cap > SPARE_MAX_CAP and line.len * 4 < line.cap:
        cap = line.len * 2 if line.len * 2 > 64 else 64
        smaller = realloc(line.cells, cap * sizeof(uint32_t))
        if smaller != NULL:  # a failed shrink keeps the larger buffer, which is still valid
            line.cells = <uint32_t *>smaller
            line.cap = cap


cdef inline void line_trim(Line *line) noexcept nogil:
    while line.len and line.cells[line.len - 1] == BLANK:
        line.len -= 1


cdef inline Py_ssize_t sgr_end(const uint8_t *data, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """Where the SGR sequence ``ESC [ <0-9:;>* m`` at ``data[i]`` ends, or 0 if there is none complete."""
    if i + 2 >= n or data[i] != 0x1B or data[i + 1] != 0x5B:
        return 0
    i += 2
    while i < n and 0x30 <= data[i] <= 0x3B:
        i += 1
    return i + 1 if i < n and data[i] == 0x6D else 0


cdef inline Py_ssize_t written(const uint32_t *cells, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    cdef Py_ssize_t count = 0, i
    for i in range(start, stop):
        if cells[i] != BLANK:
            count += 1
    return count


cdef int line_text(Line *line, Buf *out) except -1 nogil:
    """Mirror of _decoder_py.line_text: tab spans to \\t, trailing blanks dropped, other blanks to spaces."""
    cdef Py_ssize_t n = line.len, i = 0, pending = 0, need, k
    cdef uint32_t cp
    cdef const uint32_t *cells = line.cells
    cdef bint tab
    cdef uint32_t seen = 0
    cdef uint32_t *dst
    buf_reserve(out, n)
    while i < n:
        cp = cells[i]
        if acp_ordinary(cp) and not pending:
            # Fast path: ordinary characters are copied 16 at a time. The checks have no early exit so
            # the compiler vectorises them; OR-ing the cells bounds the widest one by a value that selects
            # the same str kind (see buf_take).
            dst = out.data + out.len - i  # dst[k] is where cells[k] goes
            k = i + acp_copy_ordinary(dst + i, cells + i, n - i, &seen) if cp < 0xAD else i
            while k < n and acp_ordinary(cells[k]):
                dst[k] = cells[k]
                seen |= cells[k]
                k += 1
            out.len += k - i
            i = k
            continue
        if cp == TAB:
            need = 7 - i % 8
            tab = i + need < n
            if tab:
                for k in range(i + 1, i + need + 1):
                    if cells[k] != FILL:
                        tab = False
                        break
            if tab:
                while pending:
                    out.data[out.len] = 0x20
                    out.len += 1
                    pending -= 1
                out.data[out.len] = 0x09
                out.len += 1
                i += need + 1
                continue
            pending += 1
        elif cp <= FILL:
            pending += 1
        else:
            while pending:
                out.data[out.len] = 0x20
                out.len += 1
                pending -= 1
            out.data[out.len] = cp
            out.len += 1
            note_char(out, cp)
        i += 1
    if seen > out.maxchar:
        out.maxchar = seen
    return 0


cdef inline bint tag_spec(uint32_t cp) noexcept nogil:
    """A tag character that may stand in a flag sequence: U+E0030-U+E0039, U+E0061-U+E007A (UTS #51)."""
    return 0xE0030 <= cp <= 0xE0039 or 0xE0061 <= cp <= 0xE007A


cdef inline void put_shown(Buf *dst, uint32_t cp) noexcept nogil:
    """``<U+XXXX>`` (uppercase hex, 4 digits: every shown character is in the BMP). The caller reserved 8."""
    cdef uint32_t *d = dst.data + dst.len
    cdef int k
    cdef uint32_t nibble
    d[0] = 0x3C  # <
    d[1] = 0x55  # U
    d[2] = 0x2B  # +
    for k in range(4):
        nibble = (cp >> (4 * (3 - k))) & 0xF
        d[3 + k] = 0x30 + nibble if nibble < 10 else 0x37 + nibble
    d[7] = 0x3E  # >
    dst.len += 8


cdef int policy_into(Buf *src, Buf *dst, int policy, int64_t *stats) except -1 nogil:
    """SPEC 2.5's Unicode policy from ``src`` into ``dst`` (emptied first), counting into ``stats`` unless
    NULL. The same decisions as _unicode_policy.apply_policy, character by character. Every character it
    shows is in the BMP (U+00AD-U+FEFF), so each takes exactly 8 cells."""
    cdef Py_ssize_t n = src.len, i = 0, j, m
    cdef const uint32_t *data = src.data
    cdef uint32_t cp, maxchar = 0x7F
    cdef int64_t counts[4]
    cdef int category
    counts[0] = counts[1] = counts[2] = counts[3] = 0
    dst.len = 0
    dst.flags = 0
    buf_reserve(dst, n + 64)
    while i < n:
        if dst.cap - dst.len < 16:
            buf_reserve(dst, (n - i) + 64)
        cp = data[i]
        i += 1
        if cp < 0xAD or not (policy_char(cp) or cp == 0x1F3F4):
            dst.data[dst.len] = cp
            dst.len += 1
            if cp > maxchar:
                maxchar = cp
            continue
        category = -1  # kept
        if cp == 0x1F3F4:
            if policy == POLICY_STANDARD:  # a whole flag sequence is kept: black flag, 2-6 specs, cancel tag
                j = i
                while j < n and j - i < 7 and tag_spec(data[j]):
                    j += 1
                if 2 <= j - i <= 6 and j < n and data[j] == 0xE007F:
                    buf_reserve(dst, j + 1 - i + 1)
                    dst.data[dst.len] = cp
                    dst.len += 1
                    for m in range(i, j + 1):
                        dst.data[dst.len] = data[m]
                        dst.len += 1
                    i = j + 1
                    maxchar = 0xE007F if maxchar < 0xE007F else maxchar
                    continue
        elif 0x202A <= cp <= 0x202E or 0x2066 <= cp <= 0x2069:  # bidi embeddings, overrides, isolates
            category = -1 if policy == POLICY_OFF else 0
        elif cp == 0x2028 or cp == 0x2029:  # never raw, in any policy
            category = 1
        elif 0xE0000 <= cp <= 0xE007F:  # tag characters: removed
            category = -1 if policy == POLICY_OFF else 2
        elif policy == POLICY_STRICT and invisible_char(cp):
            category = 3
        if category < 0:
            dst.data[dst.len] = cp
            dst.len += 1
            if cp > maxchar:
                maxchar = cp
        else:
            counts[category] += 1
            if category != 2:
                put_shown(dst, cp)
    dst.maxchar = maxchar
    if stats != NULL:
        stats[S_BIDI] += counts[0]
        stats[S_SEPARATORS] += counts[1]
        stats[S_TAGS] += counts[2]
        stats[S_INVISIBLE] += counts[3]
    return 0


@cython.final
cdef class TranscriptDecoder:
    """Turn terminal output bytes, fed in any chunks, into a safe plain-text transcript.

    The compiled twin of ``acp_transcript._decoder_py.TranscriptDecoder``; see there for the algorithm.
    One instance must not be used from two threads at once; separate instances are independent.

    >>> d = TranscriptDecoder()
    >>> d.decode(b"\\x1b[32mok\\x1b[0m 10%\\r") + d.decode(b"ok 100%\\n", final=True)
    'ok 100%\\n'
    """

    # C fields start zeroed (tp_alloc), so every pointer is NULL and every size 0 until used; __dealloc__
    # frees only what was allocated even if __init__ never ran.
    cdef object _options
    cdef str _unicode
    cdef bint render, keep_tabs, drop_alt
    cdef Py_ssize_t live_lines, max_line_cells, max_live_cells, max_jump, max_string_bytes
    cdef int64_t stats[N_STATS]
    # parser
    cdef int state
    cdef uint32_t u8_cp
    cdef int u8_need, u8_seen
    cdef uint8_t u8_lower, u8_upper
    cdef uint32_t params[MAX_PARAMS]
    cdef int nparams
    cdef int64_t param
    cdef int intermediates, private
    cdef Py_ssize_t string_bytes
    cdef bint alt
    # render
    cdef Line *lines  # the window is lines[top : top + count]
    cdef Py_ssize_t top, count, lines_cap
    cdef Line spare[SPARE_LINES]  # cell buffers of committed lines, reused by new ones
    cdef int nspare
    cdef Py_ssize_t row, col, cells, committed
    cdef bint has_saved
    cdef Py_ssize_t saved_row, saved_col
    cdef Window main_window  # the main screen's window while the alternate one is active
    cdef Window overlay_origin  # the window under a status-line overlay while one is drawn
    cdef bint has_main_window, in_overlay
    cdef uint32_t last  # the character REP repeats: set by printing, cleared by any other item
    cdef uint32_t rep_char  # last as it was when the current escape sequence began
    # strip
    cdef bint pending_cr
    cdef uint32_t held[MAX_HELD]  # strip output that may still become a flag sequence
    cdef int nheld
    cdef int upolicy
    cdef Buf pol  # the policy's output, swapped with out
    cdef Buf alt_held  # strip output held while the alternate screen is active
    cdef Buf *sink  # &out, or &alt_held on the alternate screen
    cdef bint busy  # decoding with the GIL released: a second thread must not enter
    # output of the current call
    cdef Buf out
    # decode_base64 scratch space
    cdef uint8_t *scratch
    cdef Py_ssize_t scratch_cap
    # decoded code points of the current text run
    cdef uint32_t *cps
    cdef Py_ssize_t cps_cap

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
    ):
        options = parse_options(
            mode, tabs, alt_screen, unicode, live_lines, max_line_cells, max_live_cells, max_jump, max_string_bytes
        )
        self._options = options
        self.render = options.mode == "render"
        self.keep_tabs = options.tabs == "keep"
        self.drop_alt = options.alt_screen == "drop"
        self._unicode = options.unicode
        self.upolicy = ("standard", "strict", "off").index(options.unicode)
        # A window never holds more lines than cells (SPEC 2.3 bounds): live_lines=2**40 and a stream of LFs
        # must not keep a million empty lines per megabyte.
        self.live_lines = min(options.live_lines, options.max_live_cells)
        self.max_line_cells = options.max_line_cells
        self.max_live_cells = options.max_live_cells
        self.max_jump = options.max_jump
        self.max_string_bytes = options.max_string_bytes
        self.reset()

    def __dealloc__(self):
        cdef int i
        self.drop_window()
        if self.in_overlay:
            self.unpack_window(&self.overlay_origin)
            self.drop_window()
        if self.has_main_window:
            self.unpack_window(&self.main_window)
            self.drop_window()
        for i in range(self.nspare):
            free(self.spare[i].cells)
        free(self.out.data)
        free(self.pol.data)
        free(self.alt_held.data)
        free(self.scratch)
        free(self.cps)

    # ------------------------------------------------------------------ public API

    @property
    def options(self):
        """The options this decoder was made with."""
        return self._options._asdict()

    @property
    def stats(self):
        """A copy of the diagnostics counters (SPEC 2.6); they add up over streams until ``reset()``."""
        return {key: self.stats[i] for i, key in enumerate(STAT_KEYS)}

    @property
    def live(self):
        """The live window as text (render mode): what a UI shows as still in progress. ``""`` in strip mode."""
        cdef Buf tmp
        cdef Py_ssize_t i
        self.check_initialised()
        if not self.render:
            return ""
        cdef Window *window = &self.overlay_origin
        cdef Buf shown
        tmp.data = shown.data = NULL
        tmp.len = tmp.cap = shown.len = shown.cap = 0
        tmp.maxchar = shown.maxchar = 0
        tmp.flags = shown.flags = 0
        try:
            if self.in_overlay:  # the window under the overlay, then the overlay line (as a terminal shows it)
                for i in range(window.count):
                    if i:
                        buf_put(&tmp, 0x0A)
                    line_text(&window.lines[window.top + i], &tmp)
                if self.lines[self.top].len:
                    buf_put(&tmp, 0x0A)
                    line_text(&self.lines[self.top], &tmp)
            else:
                for i in range(self.count):
                    if i:
                        buf_put(&tmp, 0x0A)
                    line_text(&self.lines[self.top + i], &tmp)
            if tmp.flags & NEEDS_POLICY or (tmp.flags & INVISIBLE and self.upolicy == POLICY_STRICT):
                policy_into(&tmp, &shown, self.upolicy, NULL)
                return buf_take(&shown)
            return buf_take(&tmp)
        finally:
            free(tmp.data)
            free(shown.data)

    def reset(self):
        """Forget the stream and the counters: the decoder is as new."""
        cdef int i
        for i in range(N_STATS):
            self.stats[i] = 0
        self.out.len = 0
        self.out.maxchar = 0
        self.out.flags = 0
        self.nheld = 0
        self.reset_stream()

    def decode(self, data, final=False):
        """Feed ``data``; return the text committed by this call (all remaining text when ``final``)."""
        cdef Py_buffer view
        self.check_initialised()
        if isinstance(data, memoryview):
            if data.ndim > 1 or data.itemsize != 1 or not data.c_contiguous:
                raise TypeError("a memoryview must be one-dimensional and contiguous with item size 1")
        elif not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"decode() needs bytes, bytearray or memoryview, not {type(data).__name__}")
        PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
        try:
            self.feed_released(<const uint8_t *>view.buf, view.len)
        finally:
            PyBuffer_Release(&view)
        if final:
            self.finish()
        return self.take_output(final)

    cdef int feed_released(self, const uint8_t *data, Py_ssize_t n) except -1:
        """feed(), with the GIL released for inputs of GIL_FREE_BYTES or more (SPEC 6), so that threads
        decoding different streams run in parallel. The input stays exported (a bytearray cannot be resized
        meanwhile), and ``busy`` refuses a second thread on the same decoder instead of corrupting it."""
        if n < GIL_FREE_BYTES:
            if n:
                self.feed(data, n)
            return 0
        if self.busy:
            raise RuntimeError("this TranscriptDecoder is decoding in another thread; use one per thread")
        self.busy = True
        try:
            with nogil:
                self.feed(data, n)
        finally:
            self.busy = False
        return 0

    def decode_base64(self, chunk, final=False):
        """Decode one independently encoded RFC 4648 chunk (strict) and feed its bytes.

        Raises ``Base64Error`` (a ``ValueError``, with ``.offset``) before anything is fed.
        """
        cdef Py_buffer view
        cdef Py_ssize_t size
        self.check_initialised()
        if isinstance(chunk, str):
            if not PyUnicode_IS_ASCII(chunk):
                as_base64_bytes(chunk)  # raises the Base64Error naming the first non-ASCII character
            size = self.base64_into_scratch(PyUnicode_1BYTE_DATA(chunk), PyUnicode_GET_LENGTH(chunk))
        elif isinstance(chunk, (bytes, bytearray, memoryview)):
            if isinstance(chunk, memoryview) and (chunk.ndim > 1 or chunk.itemsize != 1 or not chunk.c_contiguous):
                chunk = chunk.tobytes()
            PyObject_GetBuffer(chunk, &view, PyBUF_SIMPLE)
            try:
                size = self.base64_into_scratch(<const uint8_t *>view.buf, view.len)
            finally:
                PyBuffer_Release(&view)
        else:
            raise TypeError(f"a base64 chunk must be str or bytes-like, not {type(chunk).__name__}")
        if size < 0:
            raise base64_error(as_base64_bytes(chunk))
        self.feed_released(self.scratch, size)
        if self.scratch_cap > KEEP_BUFFER:  # one huge chunk must not keep its decoded bytes allocated
            free(self.scratch)
            self.scratch = NULL
            self.scratch_cap = 0
        if final:
            self.finish()
        return self.take_output(final)

    cdef object batch(self, items):
        """sanitize_batch(): every item decoded as a stream of its own by this one decoder. The GIL is held
        only to take each item's buffer and to build the strings; the decoding of a slice of items, and the
        Unicode policy, run without it (SPEC 6), so threads decoding different batches use every core."""
        cdef list results = [], views_held = []
        cdef Py_buffer *views = NULL
        cdef Py_ssize_t *spans = NULL  # per item: start, length and widest character of its text in acc
        cdef Buf acc
        cdef Py_ssize_t count, i, k, start, total = len(items), done = 0
        cdef int taken = 0
        acc.data = NULL
        acc.len = acc.cap = 0
        acc.maxchar = 0
        acc.flags = 0
        if self.busy:
            raise RuntimeError("this TranscriptDecoder is decoding in another thread; use one per thread")
        self.busy = True
        try:
            views = <Py_buffer *>malloc(BATCH_SLICE * sizeof(Py_buffer))
            spans = <Py_ssize_t *>malloc(3 * BATCH_SLICE * sizeof(Py_ssize_t))
            if views == NULL or spans == NULL:
                raise MemoryError()
            while done < total:
                count = total - done if total - done < BATCH_SLICE else BATCH_SLICE
                taken = 0
                try:
                    for i in range(count):
                        item = items[done + i]
                        if isinstance(item, memoryview):
                            if item.ndim > 1 or item.itemsize != 1 or not item.c_contiguous:
                                raise TypeError("a memoryview must be one-dimensional and contiguous with item size 1")
                        elif not isinstance(item, (bytes, bytearray)):
                            raise TypeError(f"item {done + i}: sanitize_batch() needs bytes, bytearray or "
                                            f"memoryview, not {type(item).__name__}")
                        PyObject_GetBuffer(item, &views[i], PyBUF_SIMPLE)
                        taken += 1
                    acc.len = 0
                    with nogil:
                        for i in range(count):
                            start = acc.len
                            self.decode_item(<const uint8_t *>views[i].buf, views[i].len, &acc)
                            spans[3 * i] = start
                            spans[3 * i + 1] = acc.len - start
                            spans[3 * i + 2] = acc.maxchar
                            acc.maxchar = 0
                finally:
                    for i in range(taken):
                        PyBuffer_Release(&views[i])
                for i in range(count):
                    if spans[3 * i + 1] == 0:  # (acc.data may be NULL: no pointer arithmetic on it)
                        results.append("")
                    else:
                        results.append(ucs4_str(acc.data + spans[3 * i], spans[3 * i + 1], <uint32_t>spans[3 * i + 2]))
                done += count
        finally:
            self.busy = False
            free(views)
            free(spans)
            free(acc.data)
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
        acc.data = NULL
        acc.len = acc.cap = 0
        acc.maxchar = 0
        acc.flags = 0
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
                    acc.len = 0
                    acc.maxchar = 0
                    self.decode_item(start, size, &acc)
                    put_utf8(out, acc.data, acc.len)
                    out.offsets[k + 1] = out.len
        finally:
            free(acc.data)
        out.length = base + n
        return 0

    cdef int release_held(self) except -1 nogil:
        """Strip mode: put the text held back at the end of the last call (a possible flag sequence) in
        front of this call's output."""
        cdef Buf *out = &self.out
        cdef int i
        if self.render or not self.nheld:
            return 0
        buf_reserve(out, self.nheld)
        memmove(out.data + self.nheld, out.data, out.len * sizeof(uint32_t))
        for i in range(self.nheld):
            out.data[i] = self.held[i]
            note_char(out, self.held[i])
        out.len += self.nheld
        self.nheld = 0
        return 0

    cdef int decode_item(self, const uint8_t *data, Py_ssize_t n, Buf *acc) except -1 nogil:
        """One item of a batch, from a fresh stream to its end; its text (policy applied) appended to acc."""
        cdef Buf *out = &self.out
        cdef Py_ssize_t i
        if n:
            self.feed(data, n)
        self.finish()
        self.release_held()  # at the end nothing is held back (take_output with final)
        if out.flags & NEEDS_POLICY or (out.flags & INVISIBLE and self.upolicy == POLICY_STRICT):
            policy_into(out, &self.pol, self.upolicy, self.stats)
            out = &self.pol
        if out.len:  # (a NULL buffer plus 0 is undefined behaviour in C: UBSan says so)
            buf_reserve(acc, out.len)
            memcpy(acc.data + acc.len, out.data, out.len * sizeof(uint32_t))
            acc.len += out.len
        if out.maxchar > acc.maxchar:
            acc.maxchar = out.maxchar
        self.out.len = self.pol.len = 0
        self.out.maxchar = self.pol.maxchar = 0
        self.out.flags = self.pol.flags = 0
        return 0

    cdef int check_initialised(self) except -1:
        # TranscriptDecoder.__new__() without __init__ has no window to write to.
        if self.lines == NULL:
            raise TypeError("TranscriptDecoder.__init__() was not called")
        return 0

    # ------------------------------------------------------------------ base64

    cdef Py_ssize_t base64_into_scratch(self, const uint8_t *src, Py_ssize_t n) except -2 nogil:
        """Strict RFC 4648 decode into self.scratch; the decoded size, or -1 when ``src`` is not strict base64
        (the caller then asks _base64.base64_error for the exact offset and reason)."""
        cdef Py_ssize_t i, o = 0, pad = 0
        cdef uint32_t a, b, c, d
        cdef uint8_t *dst
        if n % 4:
            return -1
        if n == 0:
            return 0
        if src[n - 1] == 0x3D:
            pad = 2 if src[n - 2] == 0x3D else 1
        grow(<void **>&self.scratch, &self.scratch_cap, n // 4 * 3, 1, 4096)
        dst = self.scratch
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

    # ------------------------------------------------------------------ stream state

    cdef void release_line(self, Line *line) noexcept nogil:
        """A line leaves the window: keep its buffer for the next new line, or free it."""
        if self.nspare < SPARE_LINES and 0 < line.cap <= SPARE_MAX_CAP:
            self.spare[self.nspare] = line[0]
            self.nspare += 1
        else:
            free(line.cells)
        line.cells = NULL
        line.len = line.cap = 0

    cdef void free_lines(self) noexcept nogil:
        cdef Py_ssize_t i
        for i in range(self.top, self.top + self.count):
            self.release_line(&self.lines[i])
        self.top = self.count = 0

    cdef int reset_stream(self) except -1 nogil:
        self.state = GROUND
        self.u8_need = self.u8_seen = 0
        self.u8_cp = 0
        self.u8_lower = 0x80
        self.u8_upper = 0xBF
        self.nparams = 0
        self.param = -1
        self.intermediates = 0
        self.private = 0
        self.string_bytes = 0
        self.alt = False
        if self.in_overlay:
            self.drop_window()
            self.unpack_window(&self.overlay_origin)
            self.in_overlay = False
        if self.has_main_window:
            self.drop_window()
            self.unpack_window(&self.main_window)
            self.has_main_window = False
        self.free_lines()
        self.append_line()
        self.row = self.col = self.cells = self.committed = 0
        self.has_saved = False
        self.last = self.rep_char = 0
        self.pending_cr = False
        self.alt_held.len = 0
        self.sink = &self.out
        return 0

    # ------------------------------------------------------------------ windows (see _decoder_py)

    cdef void pack_window(self, Window *w) noexcept nogil:
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

    cdef void unpack_window(self, Window *w) noexcept nogil:
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
        w.lines = NULL

    cdef void drop_window(self) noexcept nogil:
        """Free the current window (the caller unpacks or makes another)."""
        self.free_lines()
        free(self.lines)
        self.lines = NULL
        self.lines_cap = 0

    cdef int new_window(self) except -1 nogil:
        self.lines = NULL
        self.top = self.count = self.lines_cap = 0
        self.append_line()
        self.row = self.col = self.cells = self.committed = 0
        self.has_saved = False
        return 0

    cdef Py_ssize_t window_written(self) noexcept nogil:
        cdef Py_ssize_t i, total = 0
        for i in range(self.top, self.top + self.count):
            total += written(self.lines[i].cells, 0, self.lines[i].len)
        return total

    cdef int start_overlay(self, Py_ssize_t col) except -1 nogil:
        """SPEC 2.3 rev 2, the status-line overlay: see _decoder_py._start_overlay."""
        if not self.in_overlay:
            self.pack_window(&self.overlay_origin)
            self.in_overlay = True
        else:
            self.stats[S_OVERLAY] += self.window_written()
            self.drop_window()
        self.new_window()
        self.col = self.forward_target(col)
        return 0

    cdef int end_overlay(self) except -1 nogil:
        if self.in_overlay:
            self.stats[S_OVERLAY] += self.window_written()
            self.drop_window()
            self.unpack_window(&self.overlay_origin)
            self.in_overlay = False
        return 0

    cdef int trim_alt_held(self, Py_ssize_t keep) except -1 nogil:
        """Strip mode: keep the last ``keep`` characters held on the alternate screen, count the rest."""
        cdef Py_ssize_t cut = self.alt_held.len - keep, i, newlines = 0
        if cut <= 0:
            return 0
        for i in range(cut):
            newlines += self.alt_held.data[i] == 0x0A
        self.stats[S_ALT] += cut - newlines
        memmove(self.alt_held.data, self.alt_held.data + cut, keep * sizeof(uint32_t))
        self.alt_held.len = keep
        return 0

    cdef inline int bound_alt_held(self) except -1 nogil:
        if self.alt and self.alt_held.len > 2 * self.max_live_cells:
            self.trim_alt_held(self.max_live_cells)
        return 0

    cdef object take_output(self, bint final):
        """This call's output as a str, the Unicode policy applied (in C: SPEC 2.5's table, as the fallback's
        _unicode_policy applies it). Strip mode holds back an end that may still become a flag sequence."""
        cdef Buf *out = &self.out
        cdef Buf swap
        cdef Py_ssize_t i, j
        self.release_held()
        if not self.render and not final and self.upolicy == POLICY_STANDARD and out.flags & BLACK_FLAG:
            j = out.len  # the end is a black flag and at most 6 tag specs: hold it (HOLD in the fallback)
            while j > 0 and out.len - j < 6 and tag_spec(out.data[j - 1]):
                j -= 1
            if j > 0 and out.data[j - 1] == 0x1F3F4:
                self.nheld = <int>(out.len - j + 1)
                for i in range(self.nheld):
                    self.held[i] = out.data[j - 1 + i]
                out.len = j - 1
                out.maxchar = 0  # recomputed: a str must be built at its narrowest kind
                for i in range(out.len):
                    if out.data[i] > out.maxchar:
                        out.maxchar = out.data[i]
        if out.flags & NEEDS_POLICY or (out.flags & INVISIBLE and self.upolicy == POLICY_STRICT):
            policy_into(out, &self.pol, self.upolicy, self.stats)
            swap = self.out
            self.out = self.pol
            self.pol = swap
            self.pol.len = 0
        text = buf_take(&self.out)
        if self.out.cap > KEEP_BUFFER:  # memory between calls is the window's, not the last output's
            free(self.out.data)
            self.out.data = NULL
            self.out.cap = 0
        if self.pol.cap > KEEP_BUFFER:
            free(self.pol.data)
            self.pol.data = NULL
            self.pol.cap = 0
        return text

    cdef int finish(self) except -1 nogil:
        if self.u8_need:
            self.flush_partial()
        if self.state != GROUND:
            self.stats[S_UNTERMINATED] += 1
        cdef Py_ssize_t i
        if self.render:
            self.commit_at_end()
        else:
            if self.pending_cr:
                buf_put(self.sink, 0x0A)
            if self.alt:  # SPEC 2.4 rev 2: a stream that ends on the alternate screen shows what it held
                self.trim_alt_held(self.max_live_cells)
                buf_reserve(&self.out, self.alt_held.len)
                for i in range(self.alt_held.len):
                    buf_put(&self.out, self.alt_held.data[i])
        self.reset_stream()
        return 0

    # ------------------------------------------------------------------ parser

    cdef int feed(self, const uint8_t *data, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t pos = 0, end
        cdef uint8_t byte
        while pos < n:
            if self.state == GROUND:
                byte = data[pos]
                if not self.u8_need and (byte >= 0x20 or IGNORED_CONTROL[byte]):
                    # At most RUN_SLICE bytes per run, so the run buffer stays small whatever the chunk size
                    # (a sequence cut at the slice's end is finished by the byte path, as at a chunk's end).
                    end = self.text_run(data, pos, n if n - pos <= RUN_SLICE else pos + RUN_SLICE)
                    if end > pos:
                        pos = end
                        continue
                if byte == 0x1B and not self.u8_need:
                    # SPEC 2.3 rev 2, as tmux: REP repeats only right after a printed character; the character
                    # is put aside here and given back only to a REP that this sequence turns out to be.
                    self.rep_char = self.last
                    self.last = 0
                    self.stats[S_SEQUENCES] += 1
                    if pos + 1 < n and data[pos + 1] == 0x5B:
                        end = self.csi_fast(data, pos + 2, n)
                        if end > 0:
                            pos = end
                            continue
                    self.state = ESCAPE
                    self.intermediates = 0
                    pos += 1
                    continue
                if byte >= 0x80:
                    self.utf8_byte(byte)
                    pos += 1
                    continue
                if self.u8_need:  # a control interrupts a partial code point: one U+FFFD (SPEC 2.1)
                    self.flush_partial()
                    continue  # the byte is processed again, now with no partial code point
                if byte == 0x7F:
                    self.stats[S_CONTROLS] += 1
                else:
                    self.execute(byte)
                pos += 1
            elif self.state >= OSC_STRING:
                pos = self.string(data, pos, n)
            else:
                self.step(data[pos])
                pos += 1
        return 0

    cdef Py_ssize_t text_run(self, const uint8_t *data, Py_ssize_t pos, Py_ssize_t n) except -1 nogil:
        """Print the run of text at ``pos``: printable ASCII and whole, valid, non-C1 UTF-8 sequences, as one
        write. Returns where it stopped; whatever stops it (a control, an invalid or incomplete sequence,
        a C1 code point) is left to the byte-by-byte path, so the result is the same as printing one code
        point at a time. SGR sequences inside the run are skipped (counted): they have no effect on text,
        and colored output then costs one write per stretch of text, as in the fallback."""
        cdef Py_ssize_t i = pos + acp_ascii_run(data + pos, n - pos), k = 0, j, size, end, m
        cdef int64_t invalid = 0, c1 = 0, sgr = 0, controls = 0  # counted here, added once
        cdef bint ended_on_sgr = False
        cdef uint8_t b, b1
        cdef uint32_t cp
        cdef uint32_t *cps
        if i == n or (data[i] < 0x80 and not sgr_end(data, i, n) and not IGNORED_CONTROL[data[i]]
                      and data[i] != 0x7F):
            if i > pos:
                self.print_ascii(data + pos, i - pos)
            return i
        grow(<void **>&self.cps, &self.cps_cap, n - pos, sizeof(uint32_t), 4096)
        cps = self.cps
        for j in range(pos, i):
            cps[k] = data[j]
            k += 1
        while i < n:
            b = data[i]
            if ONE_CELL[b]:
                # Printable ASCII, or a byte never valid in UTF-8 (a maximal subpart of its own: one U+FFFD).
                # Both make exactly one code point, without a branch on which: text mixed with invalid
                # bytes, or random binary, does not pay for a mispredicted branch per byte.
                cps[k] = b + (b >> 7) * (0xFFFD - b)
                invalid += b >> 7
                k += 1
                i += 1
                ended_on_sgr = False
                continue
            if b == 0x1B:
                end = sgr_end(data, i, n)
                if not end:
                    break
                sgr += 1
                i = end
                ended_on_sgr = True
                continue
            if b < 0x80:
                if IGNORED_CONTROL[b]:  # no effect but on REP: it has nothing to repeat after a control
                    controls += 1
                    i += 1
                    ended_on_sgr = True
                    continue
                if b == 0x7F:  # DEL: ignored outright (Williams, tmux); REP still reaches past it
                    controls += 1
                    i += 1
                    continue
                break  # BS, HT, LF, VT, FF, CR, or an ESC that starts no SGR: the caller's
            ended_on_sgr = False
            if b < 0xC2 or b > 0xF4:  # never valid in UTF-8: a maximal subpart of its own, one U+FFFD
                invalid += 1
                cps[k] = 0xFFFD
                k += 1
                i += 1
                continue
            size = 2 if b < 0xE0 else (3 if b < 0xF0 else 4)
            # The longest valid prefix (WHATWG / Unicode "maximal subpart"): the second byte's range depends
            # on the lead (no overlongs, no surrogates, nothing past U+10FFFF), the others are 80-BF.
            m = 1
            while m < size and i + m < n:
                b1 = data[i + m]
                if m == 1 and (b == 0xE0 and b1 < 0xA0 or b == 0xED and b1 > 0x9F
                               or b == 0xF0 and b1 < 0x90 or b == 0xF4 and b1 > 0x8F):
                    break
                if b1 & 0xC0 != 0x80:
                    break
                m += 1
            if m < size:
                if i + m >= n:
                    break  # incomplete here: the byte path carries it to the next chunk
                invalid += m  # a valid prefix cut by a byte that cannot follow: one U+FFFD
                cps[k] = 0xFFFD
                k += 1
                i += m
                continue
            b1 = data[i + 1]
            if size == 2:
                cp = ((b & 0x1F) << 6) | (b1 & 0x3F)
                if cp <= 0x9F:  # a decoded C1 control: no effect, never emitted (SPEC 2.2)
                    c1 += 1
                    i += 2
                    continue
            elif size == 3:
                cp = ((b & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (data[i + 2] & 0x3F)
            else:
                cp = ((b & 0x07) << 18) | ((b1 & 0x3F) << 12) | ((data[i + 2] & 0x3F) << 6) | (data[i + 3] & 0x3F)
            cps[k] = cp
            k += 1
            i += size
        self.stats[S_INVALID] += invalid
        self.stats[S_C1] += c1
        self.stats[S_SEQUENCES] += sgr
        self.stats[S_CONTROLS] += controls
        if k:
            self.print_cps(cps, k)
        if ended_on_sgr:  # a REP after an SGR or a control has nothing to repeat
            self.last = self.rep_char = 0
        return i

    cdef Py_ssize_t csi_fast(self, const uint8_t *data, Py_ssize_t i, Py_ssize_t n) except -2 nogil:
        """A whole well-formed CSI (no C0, DEL or high byte inside) in one pass, as the state machine would
        read it; 0 when the sequence is anything else or not complete here (the state machine takes it).
        Parameters are only parsed for a final that uses them: SGR, the common case, needs none."""
        cdef int64_t param = -1
        cdef Py_ssize_t params_start, params_end, j
        cdef uint8_t b, final, private = 0
        if i < n and 0x3C <= data[i] <= 0x3F:
            private = data[i]
            i += 1
        params_start = i
        while i < n and 0x30 <= data[i] <= 0x3B:
            i += 1
        params_end = i
        while i < n and 0x20 <= data[i] <= 0x2F:
            i += 1
            if i - params_end > MAX_INTERMEDIATES:
                return 0
        if i >= n or not 0x40 <= data[i] <= 0x7E:
            return 0
        final = data[i]
        if i > params_end or (final == 0x6D and not private):
            return i + 1  # intermediates, or SGR: dispatched with no effect on text
        self.private = private
        self.nparams = 0
        for j in range(params_start, params_end):
            b = data[j]
            if b <= 0x39:
                param = (param if param > 0 else 0) * 10 + b - 0x30
                if param > MAX_PARAM:
                    param = MAX_PARAM
            else:
                self.param = param
                self.push_param()
                param = 0
        if param >= 0:
            self.param = param
            self.push_param()
        self.csi_dispatch(final)
        return i + 1

    cdef int print_cps(self, const uint32_t *cps, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t i
        if self.render:
            return self.write_cps(cps, n)
        cdef Buf *sink = self.sink
        cdef uint32_t *dst
        cdef uint32_t cp, seen = 0
        self.resolve_pending_cr()
        buf_reserve(sink, n)
        dst = sink.data + sink.len
        for i in range(n):
            cp = cps[i]
            dst[i] = cp
            seen |= cp  # an OR keeps the str kind (see acp_copy_ordinary)
            if not acp_ordinary(cp):
                note_char(sink, cp)
        if seen > 0x10FFFF:
            seen = 0x10FFFF  # still the widest kind, and a valid maximum for PyUnicode_New
        if seen > sink.maxchar:
            sink.maxchar = seen
        sink.len += n
        return self.bound_alt_held()

    cdef inline int resolve_pending_cr(self) except -1 nogil:
        """Strip mode: text after a CR starts on a new line (SPEC 2.4)."""
        if self.pending_cr:
            self.pending_cr = False
            buf_put(self.sink, 0x0A)
        return 0

    cdef int step(self, uint8_t byte) except -1 nogil:
        cdef int state = self.state
        cdef int64_t value
        if byte == 0x1B:
            self.stats[S_SEQUENCES] += 1
            self.state = ESCAPE
            self.intermediates = 0
            self.rep_char = self.last
            self.last = 0
        elif byte == 0x18 or byte == 0x1A:
            self.stats[S_CONTROLS] += 1
            self.state = GROUND
        elif byte < 0x20:
            self.execute(byte)
        elif byte >= 0x7F:
            pass
        elif state == ESCAPE:
            if byte < 0x30:
                self.intermediates = 1
                self.state = ESCAPE_INTERMEDIATE
            elif byte == 0x5B:
                self.state = CSI_ENTRY
                self.nparams = 0
                self.param = -1
                self.private = 0
                self.intermediates = 0
            elif byte == 0x5D:
                self.state = OSC_STRING
                self.string_bytes = 0
            elif byte == 0x50 or byte == 0x58 or byte == 0x5E or byte == 0x5F:
                self.state = ST_STRING
                self.string_bytes = 0
            else:
                self.state = GROUND
                self.esc_dispatch(byte)
        elif state == ESCAPE_INTERMEDIATE:
            if byte >= 0x30:
                self.state = GROUND
        elif state == CSI_IGNORE:
            if byte >= 0x40:
                self.state = GROUND
        elif byte >= 0x40:
            self.state = GROUND
            if self.intermediates == 0:
                if self.param >= 0:
                    self.push_param()
                self.csi_dispatch(byte)
        elif byte < 0x30:
            self.intermediates += 1
            self.state = CSI_IGNORE if self.intermediates > MAX_INTERMEDIATES else CSI_INTERMEDIATE
        elif state == CSI_INTERMEDIATE:
            self.state = CSI_IGNORE
        elif byte <= 0x39:
            value = (self.param if self.param > 0 else 0) * 10 + byte - 0x30
            self.param = value if value < MAX_PARAM else MAX_PARAM
            self.state = CSI_PARAM
        elif byte <= 0x3B:
            self.push_param()
            self.param = 0
            self.state = CSI_PARAM
        elif state == CSI_ENTRY:
            self.private = byte
            self.state = CSI_PARAM
        else:
            self.state = CSI_IGNORE
        return 0

    cdef inline void push_param(self) noexcept nogil:
        if self.nparams < MAX_PARAMS:
            self.params[self.nparams] = <uint32_t>(self.param if self.param > 0 else 0)
            self.nparams += 1

    cdef Py_ssize_t string(self, const uint8_t *data, Py_ssize_t pos, Py_ssize_t n) except -1 nogil:
        cdef bint osc = self.state == OSC_STRING
        cdef Py_ssize_t at
        cdef uint8_t byte
        while True:
            at = pos
            while at < n:
                byte = data[at]
                if byte == 0x0A or byte == 0x18 or byte == 0x1A or byte == 0x1B or (byte == 0x07 and osc):
                    break
                at += 1
            self.string_bytes += at - pos
            if at == n:
                return n
            byte = data[at]  # the stop byte (read again so the compiler sees it is always set)
            if byte == 0x0A:
                if self.string_bytes > self.max_string_bytes:
                    self.stats[S_ABANDONED] += 1
                    self.state = GROUND
                    self.execute(0x0A)
                    return at + 1
                self.string_bytes += 1
                pos = at + 1
            elif byte == 0x1B:
                self.stats[S_SEQUENCES] += 1
                self.state = ESCAPE
                self.intermediates = 0
                self.rep_char = self.last
                self.last = 0
                return at + 1
            elif byte == 0x07:
                self.state = GROUND
                return at + 1
            else:
                self.stats[S_CONTROLS] += 1
                self.state = GROUND
                return at + 1

    # ------------------------------------------------------------------ UTF-8 (maximal subparts, WHATWG)

    cdef int utf8_byte(self, uint8_t byte) except -1 nogil:
        if self.u8_need:
            if self.u8_lower <= byte <= self.u8_upper:
                self.u8_cp = (self.u8_cp << 6) | (byte & 0x3F)
                self.u8_need -= 1
                self.u8_seen += 1
                self.u8_lower = 0x80
                self.u8_upper = 0xBF
                if not self.u8_need:
                    self.u8_seen = 0
                    self.print_cp(self.u8_cp)
                return 0
            self.flush_partial()
        if 0xC2 <= byte <= 0xDF:
            self.u8_need = 1
            self.u8_cp = byte & 0x1F
        elif 0xE0 <= byte <= 0xEF:
            self.u8_need = 2
            self.u8_cp = byte & 0x0F
            if byte == 0xE0:
                self.u8_lower = 0xA0
            elif byte == 0xED:
                self.u8_upper = 0x9F
        elif 0xF0 <= byte <= 0xF4:
            self.u8_need = 3
            self.u8_cp = byte & 0x07
            if byte == 0xF0:
                self.u8_lower = 0x90
            elif byte == 0xF4:
                self.u8_upper = 0x8F
        else:
            self.stats[S_INVALID] += 1
            return self.print_cp(0xFFFD)
        self.u8_seen = 1
        return 0

    cdef int flush_partial(self) except -1 nogil:
        self.stats[S_INVALID] += self.u8_seen
        self.u8_need = self.u8_seen = 0
        self.u8_lower = 0x80
        self.u8_upper = 0xBF
        return self.print_cp(0xFFFD)

    cdef int print_cp(self, uint32_t cp) except -1 nogil:
        if 0x80 <= cp <= 0x9F:  # decoded C1: no effect, never emitted
            self.stats[S_C1] += 1
            return 0
        return self.print_cps(&cp, 1)

    cdef int print_ascii(self, const uint8_t *text, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t i
        cdef Buf *sink = self.sink
        if self.render:
            return self.write_ascii(text, n)
        self.resolve_pending_cr()
        buf_reserve(sink, n)
        for i in range(n):
            sink.data[sink.len + i] = text[i]
        sink.len += n  # ASCII: maxchar (which only tells str width) need not change
        return self.bound_alt_held()

    # ------------------------------------------------------------------ C0, ESC and CSI functions

    cdef int execute(self, uint8_t byte) except -1 nogil:
        self.last = self.rep_char = 0  # a control between a character and REP: nothing to repeat
        if byte == 0x0A or byte == 0x0B or byte == 0x0C:
            if self.render:
                self.newline()
            else:
                buf_put(self.sink, 0x0A)
                self.pending_cr = False
                self.bound_alt_held()
        elif byte == 0x0D:
            if self.render:
                self.col = 0
            else:
                self.pending_cr = True
        elif byte == 0x09:
            if self.render:
                self.tab()
            else:
                self.print_cp(0x09)
        elif byte == 0x08 and self.render:
            if self.col:
                self.col -= 1
        else:
            self.stats[S_CONTROLS] += 1
        return 0

    cdef int esc_dispatch(self, uint8_t final) except -1 nogil:
        if final == 0x63:  # c: RIS
            self.end_overlay()
            self.set_alt(False)
            if self.render:
                self.commit_window(False)
        elif not self.render:
            return 0
        elif final == 0x37:  # 7: DECSC
            self.end_overlay()
            self.save_cursor()
        elif final == 0x38:  # 8: DECRC
            self.end_overlay()
            self.restore_cursor(self.has_saved, self.saved_row, self.saved_col)
        elif final == 0x44 or final == 0x45:  # D: IND, E: NEL
            self.newline()
        elif final == 0x4D:  # M: RI
            self.end_overlay()
            self.row = self.row - 1 if self.row > 0 else 0
        return 0

    cdef inline Py_ssize_t p(self, int index, Py_ssize_t default) noexcept nogil:
        cdef Py_ssize_t value = self.params[index] if index < self.nparams else 0
        return value if value else default

    cdef int csi_dispatch(self, uint8_t final) except -1 nogil:
        cdef int i
        cdef uint32_t mode
        if self.private:
            if self.private == 0x3F and (final == 0x68 or final == 0x6C):
                for i in range(self.nparams):
                    mode = self.params[i]
                    if mode == 1049 or mode == 1047 or mode == 47:
                        self.set_alt(final == 0x68)
            return 0
        if not self.render or final == 0x6D:
            return 0
        if final == 0x4B:  # K: EL
            i = <int>self.p(0, 0)
            if i == 0:
                self.erase(self.col, HUGE)
            elif i == 1:
                self.erase(0, self.col + 1)
            elif i == 2:
                self.erase(0, HUGE)
        elif final == 0x58:  # X: ECH
            self.erase(self.col, self.col + self.p(0, 1))
        elif final == 0x40:  # @: ICH
            self.ich(self.p(0, 1))
        elif final == 0x50:  # P: DCH
            self.dch(self.p(0, 1))
        elif final == 0x62:  # b: REP, only right after a printed character (SPEC 2.3 rev 2)
            self.last = self.rep_char
            self.rep(self.p(0, 1))
        elif final == 0x47 or final == 0x60:  # G: CHA, `: HPA
            self.cha(self.p(0, 1) - 1)
        elif final == 0x43 or final == 0x61:  # C: CUF, a: HPR
            self.col = self.forward_target(self.col + self.p(0, 1))
        elif final == 0x44:  # D: CUB
            self.col = self.col - self.p(0, 1) if self.col > self.p(0, 1) else 0
        elif final == 0x41 or final == 0x46:  # A: CUU, F: CPL
            self.end_overlay()
            self.row = self.row - self.p(0, 1) if self.row > self.p(0, 1) else 0
            if final == 0x46:
                self.col = 0
        elif final == 0x42 or final == 0x45:  # B: CUD, E: CNL
            self.end_overlay()
            self.row = self.row + self.p(0, 1)
            if self.row > self.count - 1:
                self.row = self.count - 1
            if final == 0x45:
                self.col = 0
        elif final == 0x48 or final == 0x66:  # H: CUP, f: HVP
            if self.has_saved or self.in_overlay:
                self.start_overlay(self.p(1, 1) - 1)
            else:
                self.fresh_line()
                self.col = 0
                self.col = self.forward_target(self.p(1, 1) - 1)
        elif final == 0x64:  # d: VPA (keeps the column)
            if self.has_saved or self.in_overlay:
                self.start_overlay(self.col)
            else:
                self.fresh_line()
        elif final == 0x4A:  # J: ED
            self.ed(self.p(0, 0))
        elif final == 0x73:  # s: SCOSC (with parameters it is DECSLRM)
            if not self.nparams:
                self.end_overlay()
                self.save_cursor()
        elif final == 0x75:  # u: SCORC
            if not self.nparams:
                self.end_overlay()
                self.restore_cursor(self.has_saved, self.saved_row, self.saved_col)
        return 0

    cdef int set_alt(self, bint enter) except -1 nogil:
        """SPEC 2.3 rev 2: see _decoder_py._set_alt."""
        if not self.drop_alt or enter == self.alt:
            return 0
        self.alt = enter
        if not self.render:
            if not enter:
                self.trim_alt_held(0)
            self.sink = &self.alt_held if enter else &self.out
            return 0
        self.end_overlay()
        if enter:
            self.pack_window(&self.main_window)
            self.has_main_window = True
            self.new_window()
        else:
            self.stats[S_ALT] += self.window_written()
            self.drop_window()
            self.unpack_window(&self.main_window)
            self.has_main_window = False
        return 0

    # ------------------------------------------------------------------ render: the window

    cdef inline Line *cursor_line(self) noexcept nogil:
        return &self.lines[self.top + self.row]

    cdef int append_line(self) except -1 nogil:
        if self.top + self.count == self.lines_cap:
            if self.top:  # slide the window down to the start of the array (amortised O(1) per line)
                memmove(self.lines, self.lines + self.top, self.count * sizeof(Line))
                self.top = 0
            grow(<void **>&self.lines, &self.lines_cap, self.count + 1, sizeof(Line), 16)
        if self.nspare:
            self.nspare -= 1
            self.lines[self.top + self.count] = self.spare[self.nspare]
            self.lines[self.top + self.count].len = 0
        else:
            self.lines[self.top + self.count].cells = NULL
            self.lines[self.top + self.count].len = 0
            self.lines[self.top + self.count].cap = 0
        self.count += 1
        return 0

    cdef int newline(self) except -1 nogil:
        self.end_overlay()
        self.last = 0
        self.col = 0
        if self.row == self.count - 1:
            self.append_line()
            self.row += 1
            self.enforce_limits()
        else:
            self.row += 1
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
            if self.alt:  # lines pushed out of the alternate window's top are discarded, not committed
                self.stats[S_ALT] += written(self.lines[self.top + i].cells, 0, self.lines[self.top + i].len)
            else:
                line_text(&self.lines[self.top + i], &self.out)
                buf_put(&self.out, 0x0A)
            self.release_line(&self.lines[self.top + i])
        self.top += count
        self.count -= count
        self.row -= count
        self.cells -= cells
        self.committed += count
        return 0

    cdef int commit_window(self, bint final) except -1 nogil:
        """See _decoder_py._commit_window and _window_text."""
        cdef Py_ssize_t i, before
        if self.alt and not final:
            self.stats[S_ALT] += self.window_written()
        else:
            self.window_text(final)
        self.committed += self.count
        self.free_lines()
        self.append_line()
        self.row = self.col = self.cells = 0
        return 0

    cdef int window_text(self, bint final) except -1 nogil:
        cdef Py_ssize_t i, before
        for i in range(self.count):
            if final and i:
                buf_put(&self.out, 0x0A)
            before = self.out.len
            line_text(&self.lines[self.top + i], &self.out)
            if not final and not (i == self.count - 1 and self.out.len == before):
                buf_put(&self.out, 0x0A)
        return 0

    cdef int commit_at_end(self) except -1 nogil:
        """final=True (SPEC 2.3 rev 2): see _decoder_py._commit_at_end."""
        cdef Window overlay, alternate
        cdef bint has_overlay = self.in_overlay
        cdef Py_ssize_t start, mark, before
        if has_overlay:
            self.pack_window(&overlay)
            self.unpack_window(&self.overlay_origin)
            self.in_overlay = False
        if self.has_main_window:
            self.pack_window(&alternate)
            self.unpack_window(&self.main_window)
            self.has_main_window = False
            self.alt = False
            self.commit_window(False)
            self.drop_window()
            self.unpack_window(&alternate)
        start = self.out.len
        self.window_text(True)
        if has_overlay:
            mark = self.out.len
            if mark > start and self.out.data[mark - 1] != 0x0A:
                buf_put(&self.out, 0x0A)
            before = self.out.len
            line_text(&overlay.lines[overlay.top], &self.out)
            if self.out.len == before:  # an overlay line with no text adds nothing
                self.out.len = mark
            self.pack_window(&alternate)
            self.unpack_window(&overlay)
            self.drop_window()
            self.unpack_window(&alternate)
        return 0

    # ------------------------------------------------------------------ render: printing

    cdef int prepare_write(self, Py_ssize_t n) except -1 nogil:
        """Make room for n cells at the cursor (padding skipped cells with blanks) and count the written cells
        about to be overwritten. The caller has checked col + n <= max_line_cells."""
        cdef Line *line = self.cursor_line()
        cdef Py_ssize_t col = self.col, size = line.len, stop = col + n, i
        line_reserve(line, stop)
        if col > size:
            for i in range(size, col):
                line.cells[i] = BLANK
        elif col < size:
            self.stats[S_OVERWRITTEN] += written(line.cells, col, stop if stop < size else size)
        if stop > size:
            line.len = stop
            self.cells += stop - size
        return 0

    cdef int write_ascii(self, const uint8_t *text, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t part, i
        cdef uint32_t *cells
        cdef Line *line = self.cursor_line()
        if self.col == line.len and self.col + n <= self.max_line_cells:
            # Appending, as plain text does: nothing is overwritten or padded, and only the cell limit can
            # commit lines (the line count did not change), so this is the loop below in one step.
            line_reserve(line, self.col + n)
            cells = line.cells + self.col
            for i in range(n):
                cells[i] = text[i]
            line.len += n
            self.cells += n
            self.col += n
            self.last = text[n - 1]
            if self.cells > self.max_live_cells:
                self.enforce_limits()
            return 0
        while n:
            if self.col >= self.max_line_cells:
                self.newline()
            part = self.max_line_cells - self.col
            if part > n:
                part = n
            self.prepare_write(part)
            cells = self.cursor_line().cells + self.col
            for i in range(part):
                cells[i] = text[i]
            self.col += part
            self.last = text[part - 1]
            text += part
            n -= part
            self.enforce_limits()
        return 0

    cdef int write_cps(self, const uint32_t *cps, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t part
        while n:
            if self.col >= self.max_line_cells:
                self.newline()
            part = self.max_line_cells - self.col
            if part > n:
                part = n
            self.prepare_write(part)
            memcpy(self.cursor_line().cells + self.col, cps, part * sizeof(uint32_t))
            self.col += part
            self.last = cps[part - 1]
            cps += part
            n -= part
            self.enforce_limits()
        return 0

    cdef inline Py_ssize_t forward_target(self, Py_ssize_t target) noexcept nogil:
        cdef Py_ssize_t bound = self.cursor_line().len + self.max_jump
        if bound < self.col:
            bound = self.col
        return target if target < bound else bound

    cdef int tab(self) except -1 nogil:
        # SPEC 2.3 rev 2: bounded by max_line_cells only (at most 8 cells), never by max_jump.
        cdef Py_ssize_t col = self.col, target = (col // 8 + 1) * 8, size, i, stop
        cdef Line *line
        if target > self.max_line_cells:
            target = self.max_line_cells if self.max_line_cells > col else col
        if self.keep_tabs and target > col:
            line = self.cursor_line()
            size = line.len
            stop = target if target < size else size
            if col >= size or written(line.cells, col, stop) == 0:
                line_reserve(line, target)
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

    cdef int erase(self, Py_ssize_t start, Py_ssize_t stop) except -1 nogil:
        cdef Line *line = self.cursor_line()
        cdef Py_ssize_t size = line.len, i
        if stop > size:
            stop = size
        if start >= stop:
            return 0
        self.stats[S_OVERWRITTEN] += written(line.cells, start, stop)
        if stop == size:
            line.len = start
        else:
            for i in range(start, stop):
                line.cells[i] = BLANK
        line_trim(line)
        line_shrink(line)
        self.cells += line.len - size
        return 0

    cdef int save_cursor(self) except -1 nogil:
        self.has_saved = True
        self.saved_row = self.committed + self.row
        self.saved_col = self.col
        return 0

    cdef int restore_cursor(self, bint has, Py_ssize_t row, Py_ssize_t col) except -1 nogil:
        if not has:
            self.col = 0
            return 0
        self.col = col
        row -= self.committed
        if row < 0:
            row = 0
        if row > self.count - 1:
            row = self.count - 1
        self.row = row
        return 0

    cdef int ich(self, Py_ssize_t count) except -1 nogil:
        cdef Line *line = self.cursor_line()
        cdef Py_ssize_t col = self.col, size = line.len, i
        if count > self.max_jump:
            count = self.max_jump
        if col >= size or not count:
            return 0
        line_reserve(line, size + count)
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

    cdef int dch(self, Py_ssize_t count) except -1 nogil:
        cdef Line *line = self.cursor_line()
        cdef Py_ssize_t col = self.col, size = line.len, stop
        if col >= size:
            return 0
        stop = col + count if count < size - col else size
        self.stats[S_OVERWRITTEN] += written(line.cells, col, stop)
        memmove(line.cells + col, line.cells + stop, (size - stop) * sizeof(uint32_t))
        line.len = size - (stop - col)
        line_trim(line)
        line_shrink(line)
        self.cells += line.len - size
        return 0

    cdef int rep(self, Py_ssize_t count) except -1 nogil:
        cdef Py_ssize_t room, i
        if self.last:
            room = self.cursor_line().len + self.max_jump - self.col
            if count > room:
                count = room
            if count > 0:  # at most 65535 (a saturated parameter): built in the run buffer
                grow(<void **>&self.cps, &self.cps_cap, count, sizeof(uint32_t), 4096)
                for i in range(count):
                    self.cps[i] = self.last
                self.write_cps(self.cps, count)
        return 0

    cdef int cha(self, Py_ssize_t target) except -1 nogil:
        self.col = self.forward_target(target) if target > self.col else target
        return 0

    cdef int fresh_line(self) except -1 nogil:
        if self.cursor_line().len:
            if self.lines[self.top + self.count - 1].len:
                self.append_line()
                self.enforce_limits()
            self.row = self.count - 1
        return 0

    cdef int ed(self, Py_ssize_t how) except -1 nogil:
        cdef Py_ssize_t i
        cdef Line *line
        if how == 0:
            self.erase(self.col, HUGE)
            for i in range(self.row + 1, self.count):
                line = &self.lines[self.top + i]
                self.stats[S_OVERWRITTEN] += written(line.cells, 0, line.len)
                self.cells -= line.len
                self.release_line(line)
            self.count = self.row + 1
        elif how <= 3:
            self.end_overlay()
            self.commit_window(False)
        return 0


# ---------------------------------------------------------------------- Arrow (SPEC 6)

cdef enum:
    ARROW_BINARY = 1  # "z" binary / "u" utf8: int32 offsets
    ARROW_LARGE = 2  # "Z" large binary / "U" large utf8: int64 offsets
    ARROW_VIEW = 3  # "vz" binary view / "vu" utf8 view: 16-byte views and variadic data buffers


cdef int arrow_kind(const char *fmt) except -1:
    if fmt == NULL:
        raise TypeError("an Arrow schema without a format")
    if (fmt[0] == b"z" or fmt[0] == b"u") and fmt[1] == 0:
        return ARROW_BINARY
    if (fmt[0] == b"Z" or fmt[0] == b"U") and fmt[1] == 0:
        return ARROW_LARGE
    if fmt[0] == b"v" and (fmt[1] == b"z" or fmt[1] == b"u") and fmt[2] == 0:
        return ARROW_VIEW
    raise TypeError(f"sanitize_arrow needs binary, large_binary, binary_view, string, large_string or "
                    f"string_view values, not Arrow format {(<bytes>fmt).decode('ascii', 'replace')!r}")


ctypedef struct Out8:  # the UTF-8 result: a growable byte buffer, offsets and validity
    uint8_t *data
    Py_ssize_t len
    Py_ssize_t cap
    int64_t *offsets
    Py_ssize_t offsets_cap
    uint8_t *validity
    Py_ssize_t validity_cap
    int64_t length
    int64_t null_count


cdef int put_utf8(Out8 *out, const uint32_t *cps, Py_ssize_t n) except -1 nogil:
    """UCS-4 to UTF-8 (the decoder never emits a surrogate), appended to out.data."""
    cdef Py_ssize_t i
    cdef uint32_t cp
    cdef uint8_t *d
    if n == 0:
        return 0
    if out.len + 4 * n > out.cap:
        grow(<void **>&out.data, &out.cap, out.len + 4 * n, 1, 4096)
    d = out.data + out.len
    for i in range(n):
        cp = cps[i]
        if cp < 0x80:
            d[0] = <uint8_t>cp
            d += 1
        elif cp < 0x800:
            d[0] = <uint8_t>(0xC0 | (cp >> 6))
            d[1] = <uint8_t>(0x80 | (cp & 0x3F))
            d += 2
        elif cp < 0x10000:
            d[0] = <uint8_t>(0xE0 | (cp >> 12))
            d[1] = <uint8_t>(0x80 | ((cp >> 6) & 0x3F))
            d[2] = <uint8_t>(0x80 | (cp & 0x3F))
            d += 3
        else:
            d[0] = <uint8_t>(0xF0 | (cp >> 18))
            d[1] = <uint8_t>(0x80 | ((cp >> 12) & 0x3F))
            d[2] = <uint8_t>(0x80 | ((cp >> 6) & 0x3F))
            d[3] = <uint8_t>(0x80 | (cp & 0x3F))
            d += 4
    out.len = d - out.data
    return 0


cdef void release_schema(ArrowSchema *schema) noexcept nogil:
    schema.release = NULL  # its strings are static; nothing else to free


cdef void release_array(ArrowArray *array) noexcept nogil:
    """Frees what export_array allocated: the buffers (one block) and the pointer array."""
    free(array.private_data)
    free(<void *>array.buffers)
    array.release = NULL


cdef void schema_capsule_destructor(object capsule) noexcept:
    cdef ArrowSchema *schema = <ArrowSchema *>PyCapsule_GetPointer(capsule, "arrow_schema")
    if schema.release != NULL:
        schema.release(schema)
    free(schema)


cdef void array_capsule_destructor(object capsule) noexcept:
    cdef ArrowArray *array = <ArrowArray *>PyCapsule_GetPointer(capsule, "arrow_array")
    if array.release != NULL:
        array.release(array)
    free(array)


@cython.final
cdef class ArrowStrings:
    """The result of ``sanitize_arrow``: a ``large_string`` array, exported through the Arrow PyCapsule
    interface (``pyarrow.array(result)``, ``polars.from_arrow(result)``, ``duckdb``...). Each export is a
    copy that the consumer owns, so the result can be exported any number of times."""

    cdef Out8 out

    def __len__(self):
        return self.out.length

    def __dealloc__(self):
        free(self.out.data)
        free(self.out.offsets)
        free(self.out.validity)

    @property
    def null_count(self):
        return self.out.null_count

    def __arrow_c_schema__(self):
        cdef ArrowSchema *schema = <ArrowSchema *>malloc(sizeof(ArrowSchema))
        if schema == NULL:
            raise MemoryError()
        schema.format = "U"
        schema.name = ""
        schema.metadata = NULL
        schema.flags = 2  # ARROW_FLAG_NULLABLE
        schema.n_children = 0
        schema.children = NULL
        schema.dictionary = NULL
        schema.release = release_schema
        schema.private_data = NULL
        return PyCapsule_New(schema, "arrow_schema", schema_capsule_destructor)

    def __arrow_c_array__(self, requested_schema=None):
        cdef ArrowArray *array = <ArrowArray *>malloc(sizeof(ArrowArray))
        cdef const void **buffers = <const void **>malloc(3 * sizeof(void *))
        cdef Py_ssize_t validity_bytes = (self.out.length + 7) // 8 if self.out.null_count else 0
        cdef Py_ssize_t offsets_bytes = (self.out.length + 1) * sizeof(int64_t)
        cdef uint8_t *block = <uint8_t *>malloc(validity_bytes + offsets_bytes + self.out.len + 8)
        if array == NULL or buffers == NULL or block == NULL:
            free(array)
            free(<void *>buffers)
            free(block)
            raise MemoryError()
        # one block, offsets first (8-byte aligned), then the data, then the validity bitmap
        memcpy(block, self.out.offsets, offsets_bytes)
        if self.out.len:
            memcpy(block + offsets_bytes, self.out.data, self.out.len)
        if validity_bytes:
            memcpy(block + offsets_bytes + self.out.len, self.out.validity, validity_bytes)
        buffers[0] = block + offsets_bytes + self.out.len if validity_bytes else NULL
        buffers[1] = block
        buffers[2] = block + offsets_bytes
        array.length = self.out.length
        array.null_count = self.out.null_count
        array.offset = 0
        array.n_buffers = 3
        array.n_children = 0
        array.buffers = buffers
        array.children = NULL
        array.dictionary = NULL
        array.release = release_array
        array.private_data = block
        return self.__arrow_c_schema__(), PyCapsule_New(array, "arrow_array", array_capsule_destructor)

    def to_pylist(self):
        """The strings (None for nulls), without pyarrow."""
        cdef int64_t i
        result = []
        for i in range(self.out.length):
            if self.out.validity != NULL and not (self.out.validity[i >> 3] >> (i & 7)) & 1:
                result.append(None)
            else:
                result.append((<bytes>(<char *>self.out.data)[self.out.offsets[i]:self.out.offsets[i + 1]]).decode("utf-8"))
        return result


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
