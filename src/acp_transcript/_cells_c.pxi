# Cells and output buffers: the memory the core works in. A line is an array of UCS-4 cells (cell kinds
# below U+0020, see _defs); a Buf is a growable UCS-4 output buffer that remembers its widest character (the
# str kind to build) and which characters the Unicode policy must look at. The fallback's equivalents are
# lists of one-character strs and str joins (_window_py).

# A piece of a long line (_chunks_c.pxi).
ctypedef struct Chunk:
    uint32_t *cells  # a literal chunk's cells (room for the window's chunk size); NULL for a fill
    Py_ssize_t len
    uint32_t fill  # a fill's cell

cdef struct ChunkSpares  # (_chunks_c.pxi)

# A chunked line's chunks, behind one pointer so that a Line stays 40 bytes (a window slides arrays of them).
ctypedef struct LongLine:
    Chunk *chunks
    Py_ssize_t nchunks, cap
    Py_ssize_t finger, finger_at  # a chunk index < nchunks (or 0) and its first column: where walks can start
    # The spare chunk memory of the line's owner (a LineWindow's or a ScreenSink's; NULL: none), which its
    # edits take cells from and give removed literals' cells to. Only the owner edits its lines, and it
    # frees them before its spares.
    ChunkSpares *spares

ctypedef struct Line:
    uint32_t *cells  # a flat line's cells (NULL when chunked)
    Py_ssize_t len
    Py_ssize_t cap
    LongLine *chunked  # a chunked line's chunks (NULL when flat; see _chunks_c.pxi)
    # Every cell is printable ASCII (only appended to, never padded, erased in the middle, tabbed or given a
    # wider character): its text is its cells as they are, copied out without looking at each one. Plain
    # text is all such lines (benchmarks/README.md: line_text was 9 of the 20 instructions per byte).
    bint plain
    # The cells are bytes (``cells`` holds len bytes, one a cell): a line that only ASCII and tabs have
    # been written to since it was made, at its end, past it or over its bytes. Plain text then goes from
    # input to output as bytes (the throughput issue's one-byte lines); the first other edit widens the line
    # in place (line_widen), once. A narrow line holds printable ASCII and, when it is not ``plain``, TAB and
    # FILL cells (kinds 1 and 2 fit a byte: tab-indented code and tab-separated columns stay on the bytes
    # path, round 10) and BLANK cells (0: the gap a cursor move leaves before text written past the end,
    # round 26), so not every cell of it is written (bytes_written). It may also hold Latin-1 characters
    # (U+00A0-U+00FF but U+00AD, acp_byte_text), one byte each (a line that has one is never ``plain``):
    # accented text and huge moves or repeats of it stay bytes, as ASCII does (round 28).
    bint narrow

# The longest str taken over the last 32 to 64 takes (the longest of this window of 32 and of the last): the
# next one's first size, so that its block is the one the caller freed after the last call (head_in_str,
# text_append).
ctypedef struct SizeHint:
    Py_ssize_t longest
    Py_ssize_t window
    int takes

ctypedef struct Buf:
    uint32_t *data
    Py_ssize_t len
    Py_ssize_t cap
    uint32_t maxchar
    int flags
    # ASCII text before data[0:len], one byte a character: the buffer holds head[0:hlen] + data[0:len]. Only
    # the writers of plain lines and plain strip text use it, and only while data is empty (buf_put_ascii), so
    # the order stays right; plain text then goes from input to str in bytes, without a widening into cells
    # and a narrowing back (the throughput issue). Readers that need one UCS-4 array call buf_flatten. A line
    # of bytes may put Latin-1 there too (buf_put_tabbed): maxchar then says so (over 0x7F, at most 0xFF), and
    # a reader that needs ASCII checks it.
    uint8_t *head
    Py_ssize_t hlen
    Py_ssize_t hcap
    # A head past HEAD_MALLOC_MAX bytes is the data of a one-byte str that buf_take returns as it is (hstr, one
    # reference; cut to its text, see buf_take), and the malloc'd head waits in ``spare``: output a hundred times
    # its input (huge cursor moves and repeats) is then written once, straight into the str, where it went to
    # the head, then was copied into a str, and the grown head was freed under the memory bound between calls,
    # so the next call's head and str came from fresh pages (benchmarks/README.md, round 27).
    PyObject *hstr
    uint8_t *spare
    Py_ssize_t spare_cap
    # The sizes of the strs taken from a head in a str: the next one's first size (head_in_str).
    SizeHint hint


cdef inline void buf_init(Buf *buf) noexcept nogil:
    buf.data = NULL
    buf.len = buf.cap = 0
    buf.maxchar = 0
    buf.flags = 0
    buf.head = NULL
    buf.hlen = buf.hcap = 0
    buf.hstr = NULL
    buf.spare = NULL
    buf.spare_cap = 0
    buf.hint.longest = buf.hint.window = 0
    buf.hint.takes = 0


cdef inline void head_from_spare(Buf *buf) noexcept nogil:
    """The head back to its malloc'd buffer (hstr is no longer the buffer's)."""
    buf.hstr = NULL
    buf.head = buf.spare
    buf.hcap = buf.spare_cap
    buf.spare = NULL
    buf.spare_cap = 0


cdef void buf_drop_str(Buf *buf) noexcept with gil:
    """The head back to its malloc'd buffer, the str it was in released (its text is gone: the caller has read
    it or is discarding it)."""
    Py_DECREF(<object>buf.hstr)
    head_from_spare(buf)


cdef inline void buf_free(Buf *buf) noexcept nogil:
    if buf.hstr != NULL:
        buf_drop_str(buf)
    free(buf.data)
    free(buf.head)
    buf.data = NULL
    buf.head = NULL
    buf.len = buf.cap = buf.hlen = buf.hcap = 0


cdef inline Py_ssize_t buf_size(const Buf *buf) noexcept nogil:
    """How many characters the buffer holds (head and data)."""
    return buf.hlen + buf.len


cdef inline uint32_t buf_last(const Buf *buf) noexcept nogil:
    """The last character (0 if empty)."""
    if buf.len:
        return buf.data[buf.len - 1]
    return buf.head[buf.hlen - 1] if buf.hlen else 0


cdef inline void buf_clear(Buf *buf) noexcept nogil:
    """Empty, keeping the memory (but a head in a str: the memory between calls stays bounded)."""
    if buf.hstr != NULL:
        buf_drop_str(buf)
    buf.len = buf.hlen = 0
    buf.maxchar = 0
    buf.flags = 0


cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    /* The length of the run of printable ASCII (0x20-0x7E) at p, at most n: 16 bytes at a time with the
       vector unit every x86-64 (SSE2) and aarch64 (NEON; GCC and Clang) CPU has, else 8 at a time in a word (SWAR); the
       first byte that is not printable is then found byte by byte. Plain text is one long run per line, so
       this loop is most of what a plain byte costs before it is copied (the throughput issue). */
    /* acp_narrow_printable (below) one cell at a time: what other targets use, and the SSE2 one for n < 16. */
    static inline int acp_narrow_printable_cells(uint8_t *restrict dst, const uint32_t *restrict src,
                                                 Py_ssize_t n) {
        uint32_t any = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            any |= (uint32_t)(src[i] - 0x20u >= 0x5Fu);
            dst[i] = (uint8_t)src[i];
        }
        return !any;
    }
    #if defined(ACP_NO_SIMD)  /* (to test the SWAR path on a machine that has a vector unit) */
    #elif defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
    #include <emmintrin.h>
    #if defined(_MSC_VER)
    #include <intrin.h>
    #endif
    /* The bytes of v that are not printable ASCII, as a mask: v + 1 is 0x21-0x7F (positive, as signed bytes)
       exactly for 0x20-0x7E; the C0 controls become 0x01-0x20, DEL and 0x80-0xFF become negative or 0.
       One add and one compare (two compares and an OR before). */
    static inline __m128i acp_not_printable(__m128i v) {
        return _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8(1)), _mm_set1_epi8(0x21));
    }
    /* Bit j set: byte j of the 16 at p is not printable ASCII. */
    static inline unsigned acp_block_bad(const uint8_t *p) {
        return (unsigned)_mm_movemask_epi8(acp_not_printable(_mm_loadu_si128((const __m128i *)p)));
    }
    static inline Py_ssize_t acp_first_bit(unsigned bits) {
    #if defined(_MSC_VER)
        unsigned long first;
        _BitScanForward(&first, (unsigned long)bits);
        return (Py_ssize_t)first;
    #else
        return __builtin_ctz(bits);
    #endif
    }
    static inline Py_ssize_t acp_ascii_run(const uint8_t *p, Py_ssize_t n) {
        Py_ssize_t i = 0;
        /* The first block alone (a colored word or a short field ends in it), then two blocks a step (one
           test of both): a plain line is 5-6 blocks, and the loop's own compare and branch were a third of
           each block's instructions. */
        if (n >= 16) {
            unsigned bad = acp_block_bad(p);
            if (bad)
                return acp_first_bit(bad);
            i = 16;
        }
        while (i + 32 <= n) {
            __m128i b0 = acp_not_printable(_mm_loadu_si128((const __m128i *)(p + i)));
            __m128i b1 = acp_not_printable(_mm_loadu_si128((const __m128i *)(p + i + 16)));
            if (_mm_movemask_epi8(_mm_or_si128(b0, b1))) {
                unsigned bad = (unsigned)_mm_movemask_epi8(b0) | ((unsigned)_mm_movemask_epi8(b1) << 16);
                return i + acp_first_bit(bad);
            }
            i += 32;
        }
        if (i + 16 <= n) {
            unsigned bad = acp_block_bad(p + i);
            if (bad)
                return i + acp_first_bit(bad);
            i += 16;
        }
        if (i < n && n >= 16) {
            /* The last partial block: the 16 bytes that end at n, minus the ones already seen (a plain line
               is rarely a multiple of 16 bytes, and a byte loop over its tail cost a third of the scan). */
            unsigned bad = acp_block_bad(p + n - 16) >> (i - (n - 16));
            if (!bad)
                return n;
            return i + acp_first_bit(bad);
        }
        while (i < n && p[i] >= 0x20 && p[i] < 0x7F)
            i++;
        return i;
    }
    /* Widen bytes to cells, and narrow cells below 0x100 to bytes (a str of kind 1), 16 at a time; a run
       longer than 16 ends with the 16 that end at n (stores that overlap write the same values), so only
       runs shorter than 16 take the element loop. */
    #define ACP_HAVE_SSE2_COPIES 1
    static inline void acp_widen(uint32_t *restrict dst, const uint8_t *restrict src, Py_ssize_t n) {
        const __m128i zero = _mm_setzero_si128();
        Py_ssize_t i = 0;
        if (n < 16) {
            for (; i < n; i++)
                dst[i] = src[i];
            return;
        }
        for (;; i += 16) {
            if (i + 16 > n) {
                if (i == n)
                    return;
                i = n - 16;
            }
            __m128i v = _mm_loadu_si128((const __m128i *)(src + i));
            __m128i lo = _mm_unpacklo_epi8(v, zero), hi = _mm_unpackhi_epi8(v, zero);
            _mm_storeu_si128((__m128i *)(dst + i), _mm_unpacklo_epi16(lo, zero));
            _mm_storeu_si128((__m128i *)(dst + i + 4), _mm_unpackhi_epi16(lo, zero));
            _mm_storeu_si128((__m128i *)(dst + i + 8), _mm_unpacklo_epi16(hi, zero));
            _mm_storeu_si128((__m128i *)(dst + i + 12), _mm_unpackhi_epi16(hi, zero));
        }
    }
    /* (Every cell is below 0x100, so the two saturating packs keep each value as it is.) */
    static inline void acp_narrow1(uint8_t *restrict dst, const uint32_t *restrict src, Py_ssize_t n) {
        Py_ssize_t i = 0;
        if (n < 16) {
            for (; i < n; i++)
                dst[i] = (uint8_t)src[i];
            return;
        }
        for (;; i += 16) {
            if (i + 16 > n) {
                if (i == n)
                    return;
                i = n - 16;
            }
            const __m128i *s = (const __m128i *)(src + i);
            __m128i ab = _mm_packs_epi32(_mm_loadu_si128(s), _mm_loadu_si128(s + 1));
            __m128i cd = _mm_packs_epi32(_mm_loadu_si128(s + 2), _mm_loadu_si128(s + 3));
            _mm_storeu_si128((__m128i *)(dst + i), _mm_packus_epi16(ab, cd));
        }
    }
    /* acp_narrow1 of cells that may be anything, and whether all n are printable ASCII (when not, what dst
       holds is undefined): a sized row's text on its way to the output's one-byte head, checked and narrowed
       in one pass (the check alone, acp_printable_ascii, cost 2.8 instructions a cell here, where this is
       about one). The packs keep a cell below 0x100 as it is and saturate any other to 0x00 or 0xFF (a
       mark's high bit makes it negative), none of which is printable; the bytes are then tested as
       acp_ascii_run tests them. */
    static inline int acp_narrow_printable(uint8_t *restrict dst, const uint32_t *restrict src, Py_ssize_t n) {
        Py_ssize_t i = 0;
        __m128i bad = _mm_setzero_si128();
        if (n < 16)
            return acp_narrow_printable_cells(dst, src, n);
        for (;; i += 16) {
            if (i + 16 > n) {
                if (i == n)
                    break;
                i = n - 16;  /* (the last block overlaps the one before: the same bytes, tested again) */
            }
            const __m128i *s = (const __m128i *)(src + i);
            __m128i a = _mm_loadu_si128(s), b = _mm_loadu_si128(s + 1);
            __m128i c = _mm_loadu_si128(s + 2), d = _mm_loadu_si128(s + 3);
            __m128i bytes = _mm_packus_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d));
            bad = _mm_or_si128(bad, acp_not_printable(bytes));
            _mm_storeu_si128((__m128i *)(dst + i), bytes);
        }
        return _mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) == 0xFFFF;
    }
    #define ACP_HAVE_SSE2_NARROW_PRINTABLE 1
    #elif defined(__aarch64__) && defined(__ARM_NEON)
    #include <arm_neon.h>
    static inline Py_ssize_t acp_ascii_run(const uint8_t *p, Py_ssize_t n) {
        Py_ssize_t i = 0;
        const uint8x16_t space = vdupq_n_u8(0x20), tilde = vdupq_n_u8(0x7E);
        while (i + 16 <= n) {
            uint8x16_t v = vld1q_u8(p + i);
            if (vmaxvq_u8(vorrq_u8(vcltq_u8(v, space), vcgtq_u8(v, tilde))))
                break;  /* the byte loop below finds which */
            i += 16;
        }
        while (i < n && p[i] >= 0x20 && p[i] < 0x7F)
            i++;
        return i;
    }
    #endif
    #if defined(ACP_NO_SIMD) || !(defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2) \
                                  || (defined(__aarch64__) && defined(__ARM_NEON)))
    /* SWAR: a byte b < 0x20 borrows in b - 0x20, b >= 0x7F carries into or has bit 7 in b + 0x01, b >= 0x80
       has bit 7 itself. Borrows and carries only spill into bytes after a hit, so a word without any hit is
       eight printable bytes. */
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
    #endif
    /* Exactly 16 bytes to 16 cells: for a short run whose source and destination have room for 16, a
       fixed-size copy (no loop whose exit depends on the run's length) beats an exact one. */
    static inline void acp_widen16(uint32_t *restrict dst, const uint8_t *restrict src) {
    #if defined(ACP_HAVE_SSE2_COPIES)
        const __m128i zero = _mm_setzero_si128();
        __m128i v = _mm_loadu_si128((const __m128i *)src);
        __m128i lo = _mm_unpacklo_epi8(v, zero), hi = _mm_unpackhi_epi8(v, zero);
        _mm_storeu_si128((__m128i *)dst, _mm_unpacklo_epi16(lo, zero));
        _mm_storeu_si128((__m128i *)(dst + 4), _mm_unpackhi_epi16(lo, zero));
        _mm_storeu_si128((__m128i *)(dst + 8), _mm_unpacklo_epi16(hi, zero));
        _mm_storeu_si128((__m128i *)(dst + 12), _mm_unpackhi_epi16(hi, zero));
    #else
        for (int j = 0; j < 16; j++)
            dst[j] = src[j];
    #endif
    }
    /* Widen bytes to cells and narrow cells to 1 or 2 bytes. restrict says the arrays do not overlap: a
       store through a byte pointer may alias anything in C, and without it the compiler copies one element
       at a time. */
    #if !defined(ACP_HAVE_SSE2_COPIES)  /* (elsewhere the compiler vectorises these loops itself) */
    static inline void acp_widen(uint32_t *restrict dst, const uint8_t *restrict src, Py_ssize_t n) {
        for (Py_ssize_t i = 0; i < n; i++)
            dst[i] = src[i];
    }
    static inline void acp_narrow1(uint8_t *restrict dst, const uint32_t *restrict src, Py_ssize_t n) {
        for (Py_ssize_t i = 0; i < n; i++)
            dst[i] = (uint8_t)src[i];
    }
    #endif
    #if !defined(ACP_HAVE_SSE2_NARROW_PRINTABLE)
    static inline int acp_narrow_printable(uint8_t *restrict dst, const uint32_t *restrict src, Py_ssize_t n) {
        return acp_narrow_printable_cells(dst, src, n);
    }
    #endif
    /* How many cells from c on (at most n) are BLANK (0) or FILL (2): blocks of 16 tested without an early
       exit, so that the test vectorises, then a cell at a time. */
    static inline Py_ssize_t acp_blank_run(const uint32_t *c, Py_ssize_t n) {
        Py_ssize_t k = 0;
        while (k + 16 <= n) {
            uint32_t other = 0;
            for (int j = 0; j < 16; j++)
                other |= c[k + j] & ~2u;
            if (other)
                break;
            k += 16;
        }
        while (k < n && (c[k] & ~2u) == 0)
            k++;
        return k;
    }
    /* acp_blank_run for a line of bytes, whose BLANK and FILL are bytes too: how many bytes from p on (at
       most n) are 0 or 2. The gap a cursor move leaves past a line's end stays bytes (huge CUFs, round 26). */
    static inline Py_ssize_t acp_blank_byte_run(const uint8_t *p, Py_ssize_t n) {
        Py_ssize_t k = 0;
        while (k + 32 <= n) {  /* four words a step (a byte at a time, GCC did not vectorise the test) */
            uint64_t a, b, c, d;  /* (one memcpy of an array of four was copied through the stack) */
            memcpy(&a, p + k, 8);
            memcpy(&b, p + k + 8, 8);
            memcpy(&c, p + k + 16, 8);
            memcpy(&d, p + k + 24, 8);
            if ((a | b | c | d) & ~0x0202020202020202ULL)
                break;
            k += 32;
        }
        while (k < n && (p[k] & ~2u) == 0)
            k++;
        return k;
    }
    /* The length of the run of text bytes at p (at most n) in a line of bytes: every byte but BLANK, TAB and
       FILL (0-2; nothing else below 0x20, nor 0x7F-0x9F, is ever in one), so every byte from 0x20 on. Eight at
       a time in a word: a byte below 0x20 borrows in b - 0x20 and b has no bit 7 (a borrow only spills into
       the bytes after a hit, so a word without any is eight text bytes); then byte by byte. For lines that
       hold Latin-1 (tabbed_text), whose runs are long: huge repeats of an `é` are 65,536 of them. Four words a
       step, as acp_blank_byte_run. */
    #define ACP_BELOW_SPACE(w) (((w) - 0x2020202020202020ULL) & ~(w) & 0x8080808080808080ULL)
    static inline Py_ssize_t acp_text_byte_run(const uint8_t *p, Py_ssize_t n) {
        Py_ssize_t k = 0;
        while (k + 32 <= n) {
            uint64_t a, b, c, d;
            memcpy(&a, p + k, 8);
            memcpy(&b, p + k + 8, 8);
            memcpy(&c, p + k + 16, 8);
            memcpy(&d, p + k + 24, 8);
            if (ACP_BELOW_SPACE(a) | ACP_BELOW_SPACE(b) | ACP_BELOW_SPACE(c) | ACP_BELOW_SPACE(d))
                break;
            k += 32;
        }
        while (k < n && p[k] >= 0x20)
            k++;
        return k;
    }
    /* acp_count_written for a line of bytes: how many of n bytes are not BLANK (0). Lines of huge moves
       pushed out of the alternate window are counted, not output (stats["alt_screen_dropped"]): a byte at a
       time it was 59% of such input's instructions (round 35). With SSE2, the zero bytes of 16 at a time
       are summed in byte lanes (a compare is -1) for up to 255 steps, then added up (psadbw); elsewhere
       eight at a time in a word: a byte's bit 7 in ((w & 0x7F..) + 0x7F..) | w is set when it is not 0. */
    static inline Py_ssize_t acp_count_written_bytes(const uint8_t *p, Py_ssize_t n) {
        Py_ssize_t count = 0, i = 0;
    #if defined(ACP_HAVE_SSE2_COPIES)
        const __m128i zero = _mm_setzero_si128();
        while (i + 16 <= n) {
            __m128i zeros = zero;
            Py_ssize_t stop = n - i < 16 * 255 ? i + ((n - i) & ~(Py_ssize_t)15) : i + 16 * 255;
            for (; i < stop; i += 16)
                zeros = _mm_sub_epi8(zeros, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i)), zero));
            zeros = _mm_sad_epu8(zeros, zero);
            count -= _mm_cvtsi128_si32(zeros) + _mm_extract_epi16(zeros, 4);
        }
        count += i;
    #else
        for (; i + 8 <= n; i += 8) {
            uint64_t w, high;
            memcpy(&w, p + i, 8);
            high = (((w & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | w) & 0x8080808080808080ULL;
            count += (Py_ssize_t)(((high >> 7) * 0x0101010101010101ULL) >> 56);
        }
    #endif
        for (; i < n; i++)
            count += p[i] != 0;
        return count;
    }
    /* The length of a line of n bytes (or cells) without its trailing BLANKs (0): eight bytes (two cells) a
       step from the end, then one at a time. An erase of a line's end trims what it leaves (EL 0 after a
       character far past the text: the gap was a byte a step; round 35). */
    static inline Py_ssize_t acp_trim_bytes(const uint8_t *p, Py_ssize_t n) {
        while (n >= 8) {
            uint64_t w;
            memcpy(&w, p + n - 8, 8);
            if (w)
                break;
            n -= 8;
        }
        while (n && p[n - 1] == 0)
            n--;
        return n;
    }
    static inline Py_ssize_t acp_trim_cells(const uint32_t *c, Py_ssize_t n) {
        while (n >= 2 && (c[n - 1] | c[n - 2]) == 0)
            n -= 2;
        while (n && c[n - 1] == 0)
            n--;
        return n;
    }
    /* n spaces (a run of blank cells on its way out): a loop GCC turns into vector stores. */
    static inline void acp_spaces(uint32_t *dst, Py_ssize_t n) {
        for (Py_ssize_t i = 0; i < n; i++)
            dst[i] = 0x20u;
    }
    static inline void acp_narrow2(uint16_t *restrict dst, const uint32_t *restrict src, Py_ssize_t n) {
        for (Py_ssize_t i = 0; i < n; i++)
            dst[i] = (uint16_t)src[i];
    }
    /* How many of n cells are not blank (BLANK is 0): what an overwrite or an erase takes away (the
       ``overwritten`` counter). A 32-bit sum without an early exit, so that it vectorises; a count of up
       to 2^31 cells at a time (lines are at most max_line_cells, a chunk at most the chunk size). */
    static inline Py_ssize_t acp_count_written(const uint32_t *c, Py_ssize_t n) {
        uint32_t count = 0;
        for (Py_ssize_t i = 0; i < n; i++)
            count += c[i] != 0;
        return (Py_ssize_t)count;
    }
    /* The written cells of a chunk (_chunks_c.pxi), a window's line or a sized row: neither BLANK (0) nor
       PAD (3, the right half of a character counted once). A line never holds PAD and a row never holds TAB
       or FILL (1, 2), so this is acp_count_written on lines and acp_written_cells on rows. */
    static inline Py_ssize_t acp_count_held(const uint32_t *c, Py_ssize_t n) {
        uint32_t count = 0;
        for (Py_ssize_t i = 0; i < n; i++)
            count += (c[i] != 0u) & (c[i] != 3u);
        return (Py_ssize_t)count;
    }
    /* Can a line of bytes hold these n cells: is each printable ASCII or Latin-1 (U+00A0-U+00FF) but U+00AD,
       the one there that the Unicode policy may change? Their bits are OR-ed into *seen (what the line's
       ``plain`` needs). An early exit: text past Latin-1 (CJK, box drawing) is answered by its first cell. */
    static inline int acp_byte_char(uint32_t x) {
        return (x - 0x20u < 0x5Fu) | ((x - 0xA0u < 0x60u) & (x != 0xADu));
    }
    static inline int acp_byte_text(const uint32_t *c, Py_ssize_t n, uint32_t *seen) {
        uint32_t bits = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            uint32_t x = c[i];
            if (!acp_byte_char(x))
                return 0;
            bits |= x;
        }
        *seen |= bits;
        return 1;
    }
    /* Are all n cells printable ASCII (0x20-0x7E)? No early exit, so that it vectorises. */
    static inline int acp_printable_ascii(const uint32_t *c, Py_ssize_t n) {
        uint32_t bad = 0;
        for (Py_ssize_t i = 0; i < n; i++)
            bad |= (uint32_t)(c[i] - 0x20u >= 0x5Fu);
        return !bad;
    }
    /* An ordinary cell: a character that is no cell kind (< 0x20) and that nothing per character needs to
       look at on the way out: none of the Unicode policy's characters (_policy_c.policy_char's, in whole
       ranges: U+00AD, U+061C, U+180E,
       U+200B-U+200F, U+2028-U+202E, U+2060-U+2069, U+FEFF, the tags U+E0000-U+E007F; note_char then tells
       the joiners apart) nor the black flag U+1F3F4, which starts a flag's tag sequence. Every script is
       ordinary: before, all of U+00AD-U+2069 was not (Greek, Cyrillic, Hebrew, Arabic, Indic, Thai: a call
       to note_char per character), and until round 35 nothing from U+1F000 on (emoji: a row of them in
       sized mode read 12 MB/s). Below U+100000 (the last plane, private use, goes to note_char): an OR of
       ordinary characters is then a valid maximum character for a str (callers OR them into ``seen``).
       acp_ordinary_common is the test most ordinary cells pass (0x20-0xAC, U+206A-U+1EFFF but U+FEFF) at
       a third of the exact one's cost; the loops take the exact test only where it fails. Both are
       branch-free, so that the loops over them vectorise. */
    static inline int acp_ordinary_common(uint32_t c) {
        return (c - 0x20u < 0x8Du) | ((c - 0x206Au < 0x1F000u - 0x206Au) & (c != 0xFEFFu));
    }
    static inline int acp_ordinary_bmp(uint32_t c) {  /* (the exact test's characters below U+1F000) */
        return (c - 0x20u < 0x1F000u - 0x20u) & (c != 0xADu) & (c != 0x61Cu) & (c != 0x180Eu) & (c != 0xFEFFu)
               & (c - 0x200Bu >= 5u) & (c - 0x2028u >= 7u) & (c - 0x2060u >= 10u);
    }
    static inline int acp_ordinary_astral(uint32_t c) {  /* (...and from U+1F000 on) */
        return (c - 0x1F000u < 0x100000u - 0x1F000u) & (c != 0x1F3F4u) & (c - 0xE0000u >= 0x80u);
    }
    static inline int acp_ordinary_exact(uint32_t c) {
        return acp_ordinary_bmp(c) | acp_ordinary_astral(c);
    }
    static inline int acp_ordinary(uint32_t c) {  /* a cell at a time: branches, the common ranges first */
        if (c - 0x20u < 0x8Du)
            return 1;
        if (c - 0x206Au < 0x1F000u - 0x206Au)
            return c != 0xFEFFu;
        if (c >= 0x1F000u)
            return c < 0x100000u && c != 0x1F3F4u && c - 0xE0000u >= 0x80u;
        return c - 0xAEu < 0x206Au - 0xAEu && c != 0x61Cu && c != 0x180Eu && c - 0x200Bu >= 5u && c - 0x2028u >= 7u
               && c - 0x2060u >= 10u;
    }
    /* Copy n cells to dst, OR them into *seen, and say whether all are ordinary below U+1F000 (else the caller
       looks at each cell: acp_ordinary): one pass without an early
       exit or a branch per cell, so that it vectorises (strip mode's text; a branch per cell to note the
       others was a third of what progress bars cost there). */
    static inline int acp_copy_all_ordinary(uint32_t *restrict dst, const uint32_t *restrict src,
                                            Py_ssize_t n, uint32_t *seen) {
        uint32_t bits = 0, other = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            uint32_t c = src[i];
            dst[i] = c;
            bits |= c;
            other |= (uint32_t)!acp_ordinary_common(c);
        }
        *seen |= bits;
        if (other) {  /* the scripts' text (Cyrillic, Indic, Thai) */
            other = 0;
            for (Py_ssize_t i = 0; i < n; i++)
                other |= (uint32_t)!acp_ordinary_bmp(src[i]);
        }
        /* (emoji fail both: the caller's loop looks at each cell with acp_ordinary, which passes them; the
           exact test here, or a third pass, cost the scripts 4% or emoji text 10% in strip mode; round 35) */
        return !other;
    }
    /* Copy cells to dst while whole blocks of 16 are characters 0x20-0xAC (the common case; the wider
       acp_ordinary test costs twice the instructions here); return how many were copied and OR them into
       *seen (an OR keeps the str kind: 0x80, 0x100, 0x10000 bounds). With blanks, a sized row's cells,
       BLANK as a space (columns aligned by tabs or cursor moves). A block is
       copied before it is checked (dst has room), so the loop has no early exit and vectorises; restrict
       tells the compiler the two arrays do not overlap. */
    static inline Py_ssize_t acp_copy_ordinary_cells(uint32_t *restrict dst, const uint32_t *restrict src,
                                                     Py_ssize_t n, uint32_t *seen, int blanks) {
        Py_ssize_t k = 0;
        uint32_t bits = 0;
        while (k + 16 <= n) {
            uint32_t special = 0, block = 0;
            for (int j = 0; j < 16; j++) {
                uint32_t c = src[k + j];
                if (blanks)  /* a sized row's BLANK (0) is a space */
                    c |= (uint32_t)(c == 0u) << 5;
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
    static inline Py_ssize_t acp_copy_ordinary(uint32_t *restrict dst, const uint32_t *restrict src,
                                               Py_ssize_t n, uint32_t *seen) {
        return acp_copy_ordinary_cells(dst, src, n, seen, 0);
    }
    #if defined(ACP_HAVE_SSE2_COPIES)
    /* Copy 16 cells and say whether all are ordinary, OR-ing them into *seen if so: acp_ordinary_common
       first, then, for a block where some cell is not, the scripts' ranges (Greek, Cyrillic, Indic or Thai
       text), and the exact test last. GCC vectorises none of them: x < K unsigned is written
       x ^ 2^31 < K ^ 2^31 signed. (Out of line, the second and third tests saved CJK text 0.4 instructions a
       byte, the registers its blocks lose to them here, but cost other scripts 10% of their speed: a call a
       block; round 22.) */
    #define ACP_BELOW(x, k) _mm_cmplt_epi32(_mm_xor_si128((x), _mm_set1_epi32((int)0x80000000u)), \
                                            _mm_set1_epi32((int)((uint32_t)(k) ^ 0x80000000u)))
    #define ACP_MINUS(c, k) _mm_sub_epi32((c), _mm_set1_epi32(k))
    #define ACP_IS(c, k) _mm_cmpeq_epi32((c), _mm_set1_epi32(k))
    static inline int acp_common_block(uint32_t *restrict dst, const uint32_t *restrict src, __m128i *seen) {
        __m128i cells[4], ok = _mm_set1_epi32(-1), block = _mm_setzero_si128();
        for (int j = 0; j < 4; j++) {
            __m128i c = cells[j] = _mm_loadu_si128((const __m128i *)(src + 4 * j));
            ok = _mm_and_si128(ok, _mm_or_si128(ACP_BELOW(ACP_MINUS(c, 0x20), 0x8D),
                                                _mm_andnot_si128(ACP_IS(c, 0xFEFF),
                                                                 ACP_BELOW(ACP_MINUS(c, 0x206A), 0x1F000u - 0x206Au))));
            block = _mm_or_si128(block, c);
            _mm_storeu_si128((__m128i *)(dst + 4 * j), c);
        }
        if (_mm_movemask_epi8(ok) != 0xFFFF) {
            /* The scripts below U+2000 (Greek, Cyrillic, Hebrew, Arabic, Indic, Thai): every character from
               U+0020 to U+200A is ordinary but three, and with the second range above that takes one range
               and three compares a vector, where the exact test takes eleven (round 22: other scripts 24.45
               -> 23.23 instructions a byte, 905-910 -> 970-985 MB/s; CJK text never comes here). */
            ok = _mm_set1_epi32(-1);
            for (int j = 0; j < 4; j++) {
                __m128i c = cells[j];
                __m128i three = _mm_or_si128(_mm_or_si128(ACP_IS(c, 0xAD), ACP_IS(c, 0x61C)), ACP_IS(c, 0x180E));
                ok = _mm_and_si128(ok, _mm_or_si128(
                    _mm_andnot_si128(three, ACP_BELOW(ACP_MINUS(c, 0x20), 0x200Bu - 0x20u)),
                    _mm_andnot_si128(ACP_IS(c, 0xFEFF), ACP_BELOW(ACP_MINUS(c, 0x206A), 0x1F000u - 0x206Au))));
            }
        }
        if (_mm_movemask_epi8(ok) != 0xFFFF) {  /* the exact test */
            __m128i bad = _mm_setzero_si128();
            for (int j = 0; j < 4; j++) {
                __m128i c = cells[j];
                bad = _mm_or_si128(bad, _mm_or_si128(
                    _mm_or_si128(_mm_or_si128(ACP_IS(c, 0xAD), ACP_IS(c, 0x61C)),
                                 _mm_or_si128(ACP_IS(c, 0x180E), ACP_IS(c, 0xFEFF))),
                    _mm_or_si128(_mm_or_si128(ACP_BELOW(ACP_MINUS(c, 0x200B), 5), ACP_BELOW(ACP_MINUS(c, 0x2028), 7)),
                                 _mm_or_si128(_mm_or_si128(ACP_BELOW(ACP_MINUS(c, 0x2060), 10),
                                                           _mm_or_si128(ACP_IS(c, 0x1F3F4),
                                                                        ACP_BELOW(ACP_MINUS(c, 0xE0000), 0x80))),
                                              _mm_andnot_si128(ACP_BELOW(ACP_MINUS(c, 0x20), 0x100000u - 0x20u),
                                                               _mm_set1_epi32(-1))))));
            }
            if (_mm_movemask_epi8(bad))
                return 0;
        }
        *seen = _mm_or_si128(*seen, block);
        return 1;
    }
    #undef ACP_BELOW
    #undef ACP_MINUS
    #undef ACP_IS
    #else
    static inline int acp_common_block(uint32_t *restrict dst, const uint32_t *restrict src, uint32_t *seen) {
        uint32_t special = 0, block = 0;
        for (int j = 0; j < 16; j++) {
            uint32_t c = src[j];
            dst[j] = c;
            block |= c;
            special |= (uint32_t)!acp_ordinary_exact(c);
        }
        if (special)
            return 0;
        *seen |= block;
        return 1;
    }
    #endif
    /* The same over the cells acp_copy_ordinary stops at, whole blocks of 16 that are ordinary (CJK,
       Hangul, kana, and every other script; a cell at a time through acp_ordinary cost CJK text 15
       instructions a character), and then, when the blocks ran to within 16 cells of n, the 16 that end
       at n (the cells both blocks hold are copied twice, the same): the end of a line took the cell loop. */
    static inline Py_ssize_t acp_copy_common(uint32_t *restrict dst, const uint32_t *restrict src,
                                             Py_ssize_t n, uint32_t *seen) {
        Py_ssize_t k = 0;
    #if defined(ACP_HAVE_SSE2_COPIES)
        __m128i bits = _mm_setzero_si128();
    #else
        uint32_t bits = 0;
    #endif
        while (k + 16 <= n && acp_common_block(dst + k, src + k, &bits))
            k += 16;
        if (k < n && k + 16 > n && n >= 16 && acp_common_block(dst + n - 16, src + n - 16, &bits))
            k = n;
    #if defined(ACP_HAVE_SSE2_COPIES)
        bits = _mm_or_si128(bits, _mm_srli_si128(bits, 8));
        bits = _mm_or_si128(bits, _mm_srli_si128(bits, 4));
        *seen |= (uint32_t)_mm_cvtsi128_si32(bits);
    #else
        *seen |= bits;
    #endif
        return k;
    }
    """
    Py_ssize_t acp_ascii_run(const uint8_t *p, Py_ssize_t n) nogil
    bint acp_printable_ascii(const uint32_t *c, Py_ssize_t n) nogil
    bint acp_byte_char(uint32_t x) nogil
    bint acp_byte_text(const uint32_t *c, Py_ssize_t n, uint32_t *seen) nogil
    Py_ssize_t acp_count_written(const uint32_t *c, Py_ssize_t n) nogil
    Py_ssize_t acp_count_held(const uint32_t *c, Py_ssize_t n) nogil
    void acp_widen(uint32_t *dst, const uint8_t *src, Py_ssize_t n) nogil
    void acp_widen16(uint32_t *dst, const uint8_t *src) nogil
    void acp_narrow1(uint8_t *dst, const uint32_t *src, Py_ssize_t n) nogil
    bint acp_narrow_printable(uint8_t *dst, const uint32_t *src, Py_ssize_t n) nogil
    void acp_narrow2(uint16_t *dst, const uint32_t *src, Py_ssize_t n) nogil
    void acp_spaces(uint32_t *dst, Py_ssize_t n) nogil
    Py_ssize_t acp_blank_run(const uint32_t *c, Py_ssize_t n) nogil
    Py_ssize_t acp_blank_byte_run(const uint8_t *p, Py_ssize_t n) nogil
    Py_ssize_t acp_text_byte_run(const uint8_t *p, Py_ssize_t n) nogil
    Py_ssize_t acp_count_written_bytes(const uint8_t *p, Py_ssize_t n) nogil
    Py_ssize_t acp_trim_bytes(const uint8_t *p, Py_ssize_t n) nogil
    Py_ssize_t acp_trim_cells(const uint32_t *c, Py_ssize_t n) nogil
    Py_ssize_t acp_copy_ordinary(uint32_t *dst, const uint32_t *src, Py_ssize_t n, uint32_t *seen) nogil
    Py_ssize_t acp_copy_ordinary_cells(uint32_t *dst, const uint32_t *src, Py_ssize_t n, uint32_t *seen, int blanks) nogil
    Py_ssize_t acp_copy_common(uint32_t *dst, const uint32_t *src, Py_ssize_t n, uint32_t *seen) nogil
    bint acp_ordinary(uint32_t c) nogil
    bint acp_copy_all_ordinary(uint32_t *dst, const uint32_t *src, Py_ssize_t n, uint32_t *seen) nogil


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


cdef int head_reserve(Buf *buf, Py_ssize_t size) except -1 nogil:
    """Room for ``size`` bytes in the head, which has less: a malloc'd buffer up to HEAD_MALLOC_MAX, a str's
    data past it (a head in a str already holds more than HEAD_MALLOC_MAX, so it stays one)."""
    if size > HEAD_MALLOC_MAX:
        return head_in_str(buf, size)
    return grow(<void **>&buf.head, &buf.hcap, size, 1, 1024)


cdef int head_in_str(Buf *buf, Py_ssize_t size) except -1 with gil:
    """head_reserve past HEAD_MALLOC_MAX: the head moves into a one-byte str (the first time, its bytes copied
    once), which then grows by realloc (PyUnicode_Resize), in place at the heap's top or by moving pages.

    The str's block is made the same size call after call, so that the allocator serves it from the block
    the caller freed after the last call: the longest recent text (``hint``) and a 32nd, in 64 KiB steps, is
    its first size, it grows by an eighth past that, and buf_take keeps up to a 16th of it unused rather
    than give the tail back. glibc maps a block larger than every one it has unmapped so far from fresh
    pages, a page fault per 4 KiB written: doubling, or a str cut to its text after each call, did that at
    every call (2,000 faults a call of huge cursor moves, most of its time; benchmarks/README.md, round 27)."""
    cdef Py_ssize_t cap
    cdef str text
    if buf.hstr == NULL:
        cap = buf.hcap * 2 if buf.hcap else HEAD_MALLOC_MAX  # (a head still NULL: the first text is this large)
        while cap < size:
            cap *= 2
        cap = hinted_size(&buf.hint, cap)
        text = PyUnicode_New(cap, 0xFF if buf.maxchar > 0x7F else 0x7F)  # (Latin-1 if it holds any)
        if buf.hlen:
            memcpy(PyUnicode_DATA(text), buf.head, buf.hlen)
        Py_INCREF(text)
        buf.hstr = <PyObject *>text
        buf.spare = buf.head
        buf.spare_cap = buf.hcap
    else:
        cap = buf.hcap + buf.hcap // 8 if buf.hint.longest else buf.hcap * 2
        if cap < size:
            cap = size
        PyUnicode_Resize(&buf.hstr, cap)
    buf.head = <uint8_t *>PyUnicode_DATA(<object>buf.hstr)
    buf.hcap = cap
    return 0


cdef inline int buf_reserve(Buf *buf, Py_ssize_t extra) except -1 nogil:
    if buf.len + extra > buf.cap:
        grow(<void **>&buf.data, &buf.cap, buf.len + extra, sizeof(uint32_t), 256)
    return 0


cdef inline void buf_note_ascii(Buf *buf, Py_ssize_t n, uint8_t end) noexcept nogil:
    """What n printable ASCII characters and then ``end`` (0 for none) tell maxchar."""
    if buf.maxchar < 0x7E:
        if n:
            buf.maxchar = 0x7E
        elif end > buf.maxchar:
            buf.maxchar = end


cdef inline int buf_put_ascii_data(Buf *buf, const uint8_t *text, Py_ssize_t n, uint8_t end) except -1 nogil:
    """Printable ASCII bytes, then ``end`` unless it is 0, as cells in data (after the head)."""
    cdef Py_ssize_t size = n + (end != 0)
    if not size:  # (an empty buffer may be NULL: no arithmetic on it)
        return 0
    buf_reserve(buf, size)
    acp_widen(buf.data + buf.len, text, n)
    if end:
        buf.data[buf.len + n] = end
    buf.len += size
    buf_note_ascii(buf, n, end)
    return 0


cdef inline void buf_write_head(Buf *buf, const uint8_t *text, Py_ssize_t n, uint8_t end) noexcept nogil:
    """Printable ASCII bytes, then ``end`` unless it is 0, into the head, which has room for them."""
    if n:
        memcpy(buf.head + buf.hlen, text, n)
    if end:
        buf.head[buf.hlen + n] = end
    buf.hlen += n + (end != 0)
    buf_note_ascii(buf, n, end)


cdef int buf_put_ascii_rest(Buf *buf, const uint8_t *text, Py_ssize_t n, uint8_t end) except -1 nogil:
    """buf_put_ascii when data is not empty (into data) or the head has no room (grown first)."""
    if buf.len:
        return buf_put_ascii_data(buf, text, n, end)
    head_reserve(buf, buf.hlen + n + (end != 0))
    buf_write_head(buf, text, n, end)
    return 0


cdef inline int buf_put_ascii(Buf *buf, const uint8_t *text, Py_ssize_t n, uint8_t end) except -1 nogil:
    """Printable ASCII bytes, then ``end`` unless it is 0 (a LF): in the head while data is empty. Only the
    common case, data empty and room in the head, is inline and it makes no call: each plain line's path
    (LineWindow.scroll, StripSink) inlines it, where a call cost a tenth of the line (the throughput issue,
    round 16: with the whole of it inline, GCC stopped inlining it there as the module grew)."""
    if buf.len or buf.hlen + n + (end != 0) > buf.hcap:
        return buf_put_ascii_rest(buf, text, n, end)
    buf_write_head(buf, text, n, end)
    return 0


# A tab span as a narrow line holds it: TAB, then FILL to the tab stop (write_tabbed stores all 8 at once).
cdef const uint8_t *TAB_SPAN = b"\x01\x02\x02\x02\x02\x02\x02\x02"


cdef Py_ssize_t tabbed_text(const uint8_t *cells, Py_ssize_t n, uint8_t *dst, bint *latin1) noexcept nogil:
    """line_text of a narrow line that holds tab spans, blanks or Latin-1, as bytes into ``dst`` (room for n);
    returns how many, and sets ``*latin1`` if one of them is over 0x7F. The same rule as line_text's loop: a
    TAB followed by FILLs up to the next tab stop is one \\t, any other TAB or FILL a blank, and a blank a
    space unless only blanks follow."""
    cdef Py_ssize_t i = 0, o = 0, j, k, need, pending = 0
    cdef bint tab
    cdef uint8_t b
    latin1[0] = False
    while i < n:
        b = cells[i]
        if 0x20 <= b < 0x7F:  # printable ASCII (a narrow line has no other bytes but BLANK, TAB and FILL;
            # tested whole all the same, so that acp_ascii_run takes at least this byte and the loop moves on)
            if pending:
                memset(dst + o, 0x20, pending)
                o += pending
                pending = 0
            k = acp_ascii_run(cells + i, n - i)  # (the text after an indent is long; a field is short)
            if k > 16:
                memcpy(dst + o, cells + i, k)
            else:
                for j in range(k):
                    dst[o + j] = cells[i + j]
            o += k
            i += k
            continue
        if b >= 0xA0:  # a Latin-1 character (acp_byte_text), and the text after it (ASCII or Latin-1) at once
            if pending:
                memset(dst + o, 0x20, pending)
                o += pending
                pending = 0
            k = acp_text_byte_run(cells + i, n - i)
            memcpy(dst + o, cells + i, k)
            o += k
            i += k
            latin1[0] = True
            continue
        if b == TAB:
            need = 7 - i % 8
            tab = i + need < n
            if tab:
                for k in range(i + 1, i + need + 1):
                    if cells[k] != FILL:
                        tab = False
                        break
            if tab:
                memset(dst + o, 0x20, pending)
                o += pending
                pending = 0
                dst[o] = 0x09
                o += 1
                i += need + 1
                continue
            pending += 1
            i += 1
            continue
        # A run of BLANK and FILL bytes at once (the gap a cursor move left: up to max_jump of them)
        k = 1 + acp_blank_byte_run(cells + i + 1, n - i - 1)
        pending += k
        i += k
    return o


cdef int buf_put_tabbed(Buf *buf, const uint8_t *cells, Py_ssize_t n, uint8_t end, bint head) except -1 nogil:
    """A narrow line with tab spans, blanks or Latin-1 as text (tabbed_text), then ``end`` unless it is 0: in
    the head when ``head`` allows it and data is empty (as buf_put_ascii), else in data, widened in place from
    the end."""
    cdef Py_ssize_t m, i
    cdef uint8_t *text
    cdef bint latin1
    if head and not buf.len:
        if buf.hlen + n + 1 <= buf.hcap:
            m = tabbed_text(cells, n, buf.head + buf.hlen, &latin1)
        elif buf.hstr != NULL and 0 < n <= buf.spare_cap:
            # A head in a str grows by what is written, not by the n it might be (head_in_str: the str stays
            # the size of the block the last one freed): the text goes through the spare head first.
            m = tabbed_text(cells, n, buf.spare, &latin1)
            head_reserve(buf, buf.hlen + m + 1)
            memcpy(buf.head + buf.hlen, buf.spare, m)
        else:
            head_reserve(buf, buf.hlen + n + 1)
            m = tabbed_text(cells, n, buf.head + buf.hlen, &latin1)
        if end:
            buf.head[buf.hlen + m] = end
        buf.hlen += m + (end != 0)
        if latin1 and buf.hstr != NULL and buf.maxchar < 0x80:
            head_str_latin1(buf)
    else:
        buf_reserve(buf, n + 1)
        text = <uint8_t *>(buf.data + buf.len)  # the bytes, then each widened from the last (as line_widen)
        m = tabbed_text(cells, n, text, &latin1)
        i = m
        while i > 0:
            i -= 1
            buf.data[buf.len + i] = text[i]
        if end:
            buf.data[buf.len + m] = end
        buf.len += m + (end != 0)
    if latin1:  # (0xFF stands for any Latin-1: maxchar only selects the str's kind, see buf_take)
        if buf.maxchar < 0xFF:
            buf.maxchar = 0xFF
    elif m and buf.maxchar < 0x7E:
        buf.maxchar = 0x7E
    elif end > buf.maxchar:
        buf.maxchar = end
    return 0


cdef void head_str_latin1(Buf *buf) noexcept with gil:
    """A head in an ASCII str that now holds Latin-1 moves into a Latin-1 str of the same size (its bytes
    copied once): a str's kind is fixed when it is made, and it must be the narrowest that holds its text.
    head_in_str makes a Latin-1 str from the start when the head already holds Latin-1, so this is once a call
    at most, when the first Latin-1 character comes after the head passed HEAD_MALLOC_MAX."""
    cdef object text = PyUnicode_New(buf.hcap, 0xFF)
    memcpy(PyUnicode_DATA(text), buf.head, buf.hlen)
    Py_INCREF(text)
    Py_DECREF(<object>buf.hstr)
    buf.hstr = <PyObject *>text
    buf.head = <uint8_t *>PyUnicode_DATA(text)


cdef inline int buf_put_lf(Buf *buf, bint head) except -1 nogil:
    """A LF: in the head when ``head`` allows it and data is empty, else in data."""
    if head and not buf.len:
        return buf_put_ascii(buf, NULL, 0, LF)
    return buf_put(buf, LF)


cdef inline bint buf_put_head_lf(Buf *buf) noexcept nogil:
    """A LF into the head if data is empty and the head has room (no call); False, and nothing written, if not."""
    if buf.len or buf.hlen == buf.hcap:
        return False
    buf.head[buf.hlen] = LF
    buf.hlen += 1
    buf_note_ascii(buf, 0, LF)
    return True


cdef int buf_put_lfs(Buf *buf, Py_ssize_t n) except -1 nogil:
    """n LFs at once (none for n <= 0): in the head while data is empty, as buf_put_ascii puts one."""
    if n <= 0:  # (a run of one empty line puts none: memset of 0 bytes must not offset a head still NULL)
        return 0
    if not buf.len:
        if buf.hlen + n > buf.hcap:
            head_reserve(buf, buf.hlen + n)
        memset(buf.head + buf.hlen, LF, n)
        buf.hlen += n
    else:
        buf_put_data_lfs(buf, n)
    buf_note_ascii(buf, 0, LF)
    return 0


cdef inline int buf_put_data_lfs(Buf *buf, Py_ssize_t n) except -1 nogil:
    """n LFs at once as cells in data, never the head (a screen's runs of blank rows: the text that live
    and the policy read is in data)."""
    cdef Py_ssize_t i
    buf_reserve(buf, n)
    for i in range(n):
        buf.data[buf.len + i] = LF
    buf.len += n
    return 0


cdef inline int buf_put_plain(Buf *buf, const uint32_t *cells, Py_ssize_t n, uint8_t end) except -1 nogil:
    """buf_put_ascii for cells that are all printable ASCII (a plain line's)."""
    cdef Py_ssize_t size = n + (end != 0)
    if buf.len:
        buf_reserve(buf, size)
        if n:  # (memcpy from a line without a buffer is undefined even for 0 bytes)
            memcpy(buf.data + buf.len, cells, n * sizeof(uint32_t))
        if end:
            buf.data[buf.len + n] = end
        buf.len += size
    else:
        if buf.hlen + size > buf.hcap:
            head_reserve(buf, buf.hlen + size)
        if n:  # (an empty line may have no buffer, and an empty head none either: no arithmetic on NULL)
            acp_narrow1(buf.head + buf.hlen, cells, n)
        if end:
            buf.head[buf.hlen + n] = end
        buf.hlen += size
    buf_note_ascii(buf, n, end)
    return 0


cdef inline bint buf_put_printable(Buf *buf, const uint32_t *cells, Py_ssize_t n, Py_ssize_t lead,
                                   uint8_t end) except -1 nogil:
    """buf_put_ascii for cells that may be printable ASCII (a sized row's) after ``lead`` blanks (as spaces:
    a row indented by tabs or cursor moves; lead <= n, as row_lead gives it): into the head, narrowed, if data is empty
    and every cell is; else nothing is written and the result is False."""
    if buf.len:
        return False
    if buf.hlen + n + (end != 0) > buf.hcap:
        head_reserve(buf, buf.hlen + n + (end != 0))
    if not lead:  # (the usual row: the test and narrowing alone, as before rows had a lead here)
        # (an empty row with no LF reserves nothing: the head may have no buffer, so no arithmetic on NULL)
        if n and not acp_narrow_printable(buf.head + buf.hlen, cells, n):
            return False
    else:
        if not acp_narrow_printable(buf.head + buf.hlen + lead, cells + lead, n - lead):
            return False
        memset(buf.head + buf.hlen, 0x20, lead)
    if end:
        buf.head[buf.hlen + n] = end
    buf.hlen += n + (end != 0)
    buf_note_ascii(buf, n, end)
    return True


cdef int buf_flatten(Buf *buf) except -1 nogil:
    """Move the head into data, in front: data[0:len] is then all the text."""
    cdef Py_ssize_t n = buf.hlen
    if not n:
        return 0
    buf_reserve(buf, n)
    if buf.len:
        memmove(buf.data + n, buf.data, buf.len * sizeof(uint32_t))
    acp_widen(buf.data, buf.head, n)
    buf.len += n
    buf.hlen = 0
    if buf.hstr != NULL:
        buf_drop_str(buf)
    return 0


cdef uint32_t head_maxchar(const Buf *buf) noexcept nogil:
    """What the head alone tells maxchar: 0 if empty, 0x7F if ASCII, 0xFF if it holds Latin-1 (a scan)."""
    cdef Py_ssize_t i
    for i in range(buf.hlen):
        if buf.head[i] > 0x7F:
            return 0xFF
    return 0x7F if buf.hlen else 0


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


cdef str ascii_str(const uint8_t *src, Py_ssize_t n):
    """A one-byte str of n ASCII bytes (n > 0)."""
    cdef str text = PyUnicode_New(n, 0x7F)
    memcpy(PyUnicode_DATA(text), src, n)
    return text


cdef str ucs4_str(const uint32_t *src, Py_ssize_t n, uint32_t maxchar):
    """A str of the narrowest kind for ``maxchar`` from UCS-4 code points."""
    cdef Buf view
    if n == 0:
        return ""
    buf_init(&view)
    view.data = <uint32_t *>src
    view.len = view.cap = n
    view.maxchar = maxchar
    return buf_take(&view)


cdef inline void note_hint(SizeHint *hint, Py_ssize_t h) noexcept nogil:
    """A str of h characters taken: the hint is the longest over this window of 32 takes and the last (a
    sliding maximum that forgets a burst within 64 takes; calls whose text alternates by a line fit the longer
    one)."""
    if hint.takes == 32:
        hint.longest = hint.window
        hint.window = 0
        hint.takes = 0
    hint.takes += 1
    if h > hint.window:
        hint.window = h
    if h > hint.longest:
        hint.longest = h


cdef inline Py_ssize_t hinted_size(const SizeHint *hint, Py_ssize_t size) noexcept nogil:
    """A str's first size, at least ``size``: the longest recent one and a 32nd, in 64 KiB steps, if larger."""
    cdef Py_ssize_t hinted = hint.longest + hint.longest // 32
    if size >= hinted:
        return size
    return (hinted + 0xFFFF) & ~<Py_ssize_t>0xFFFF


cdef str buf_take(Buf *buf):
    """The buffer (head, then data) as a str of the narrowest kind; the buffer is emptied."""
    cdef Py_ssize_t n = buf.len, h = buf.hlen, i
    cdef str text
    if buf.hstr != NULL and not n:  # all of it in a str's head: that str, at its length
        if buf.hcap - h > buf.hcap >> 4:
            PyUnicode_Resize(&buf.hstr, h)
        else:  # a 16th of the block unused at most: kept, the block stays the next call's size (head_in_str)
            (<PyASCIIObject *>buf.hstr).length = h
            buf.head[h] = 0
        note_hint(&buf.hint, h)
        text = <str>buf.hstr
        Py_DECREF(text)  # (the buffer's reference; ``text`` holds its own)
        head_from_spare(buf)
        buf_clear(buf)
        return text
    text = PyUnicode_New(h + n, buf.maxchar)
    buf_copy_to(buf, PyUnicode_DATA(text), PyUnicode_KIND(text))
    buf_clear(buf)
    return text


cdef void buf_copy_to(const Buf *buf, void *data, int kind) noexcept nogil:
    """The buffer's characters (head, then data) into a str's ``data`` of ``kind`` (one at least as wide as the
    buffer's maxchar needs)."""
    cdef Py_ssize_t n = buf.len, h = buf.hlen, i
    cdef uint16_t *two
    if kind == 1:
        if h:
            memcpy(data, buf.head, h)
        acp_narrow1(<uint8_t *>data + h, buf.data, n)
    elif kind == 2:
        two = <uint16_t *>data
        for i in range(h):
            two[i] = buf.head[i]
        acp_narrow2(two + h, buf.data, n)
    else:
        acp_widen(<uint32_t *>data, buf.head, h)
        if n:
            memcpy(<uint32_t *>data + h, buf.data, n * sizeof(uint32_t))


cdef int take_str(Buf *buf, PyObject **into) except -1 with gil:
    """buf_take from code that runs without the GIL: the str, as a new reference, in ``*into``."""
    cdef str text = buf_take(buf)
    Py_INCREF(text)
    into[0] = <PyObject *>text
    return 0


# A call's text that comes in pieces (the output taken whenever its cells reach PIECE_CELLS, so that they
# stay bounded: feed_sliced): each piece is written into one str as it is taken (text_append), at the str's
# kind, which widens when a piece needs it. A str for each piece and a join of them at the end wrote every
# character twice more, and held the text twice at the join; glibc gave that back to the system after each
# call and the next call took it again from fresh pages, a page fault per 4 KiB (huge REPs of a wide
# character: a third of their time; benchmarks/README.md, round 29).
ctypedef struct Text:
    PyObject *str  # NULL before the first piece; then a str owned here (one reference): its length is its room
    Py_ssize_t len  # characters written


cdef int text_append(Text *text, Buf *buf, const SizeHint *hint, double read) except -1:
    """Move the buffer's characters to the end of ``text`` (the buffer is emptied). The str is first made the
    size of the longest recent text (``hint``), so that it takes the block of the last call's, or of the whole
    call's text as projected from the share of its input ``read`` so far (0 < read <= 1; 0: no projection)
    if larger, and grows by an eighth or to the projection (in place at the heap's top, or by moving pages)
    past that. A projection counts for at most four times what is needed: input that makes its text at its
    start (huge repeats, then plain text) does not reserve a hundred times the text. Doubling, a fresh
    decoder's one call of 32 MB of real captures reserved 16 M characters for 10.4 M: a block past glibc's
    largest mapped size, from fresh pages at every call (10% slower than a str per piece and a join)."""
    cdef Py_ssize_t n = buf_size(buf), need = text.len + n, room, projected = 0
    cdef str grown
    if not n:
        return 0
    if read > 0:  # (the rest of the text as long as what came so far, and a 16th)
        projected = 4 * need if need * 1.0625 > 4 * need * read else <Py_ssize_t>(need * 1.0625 / read)
    if text.str == NULL:
        room = hinted_size(hint, n)
        grown = PyUnicode_New(projected if projected > room else room, buf.maxchar)
        Py_INCREF(grown)
        text.str = <PyObject *>grown
    else:
        room = PyUnicode_GET_LENGTH(<object>text.str)
        if need > room:
            room += room // 8
            if room < projected:
                room = projected
            if room < need:
                room = need
        if buf.maxchar > PyUnicode_MAX_CHAR_VALUE(<object>text.str):
            # the first piece of a wider kind: the text so far moves into a str of it (once per kind)
            grown = PyUnicode_New(room, buf.maxchar)
            PyUnicode_CopyCharacters(grown, 0, <object>text.str, 0, text.len)
            Py_INCREF(grown)
            Py_DECREF(<object>text.str)
            text.str = <PyObject *>grown
        elif need > PyUnicode_GET_LENGTH(<object>text.str):
            PyUnicode_Resize(&text.str, room)
    cdef int kind = PyUnicode_KIND(<object>text.str)
    buf_copy_to(buf, <char *>PyUnicode_DATA(<object>text.str) + text.len * kind, kind)
    text.len = need
    buf_clear(buf)
    return 0


cdef str text_finish(Text *text, SizeHint *hint):
    """The text as a str of its length (``text`` is emptied). Up to a 16th of the block may stay unused, as
    buf_take keeps it for a head in a str: the block then stays the next call's size."""
    cdef Py_ssize_t n = text.len, room = PyUnicode_GET_LENGTH(<object>text.str)
    cdef int kind
    if room - n > room >> 4:
        PyUnicode_Resize(&text.str, n)
    else:
        (<PyASCIIObject *>text.str).length = n
        kind = PyUnicode_KIND(<object>text.str)
        memset(<char *>PyUnicode_DATA(<object>text.str) + n * kind, 0, kind)  # (the terminating NUL)
    note_hint(hint, n)
    cdef str result = <str>text.str
    Py_DECREF(result)  # (the Text's reference; ``result`` holds its own)
    text.str = NULL
    text.len = 0
    return result


cdef inline void text_free(Text *text) noexcept:
    """Drop a text not finished (a call that raised)."""
    if text.str != NULL:
        Py_DECREF(<object>text.str)
        text.str = NULL
    text.len = 0


cdef inline int line_reserve(Line *line, Py_ssize_t size) except -1 nogil:
    if size > line.cap:
        if line.narrow and line.cap:
            return narrow_grow(line, size)
        grow(<void **>&line.cells, &line.cap, size, sizeof(uint32_t), 64)
    return 0


cdef int narrow_grow(Line *line, Py_ssize_t size) except -1 nogil:
    """grow() for a line of bytes: its capacity is counted in cells (four bytes, so that it can be widened in
    place), but its text is in the first ``cap`` bytes, so only those are copied, where realloc copies all
    four times as many (a line that huge moves or repeats grow to 65,536 cells copied four bytes a cell of
    output in the doublings: benchmarks/README.md, round 26). Bytes past ``len`` are copied too: write_tabbed
    grows a line before it counts what it wrote."""
    cdef Py_ssize_t cap = line.cap * 2
    cdef uint32_t *cells
    while cap < size:
        cap *= 2
    cells = <uint32_t *>malloc(cap * sizeof(uint32_t))
    if cells == NULL:
        with gil:
            raise MemoryError()
    memcpy(cells, line.cells, line.cap)
    free(line.cells)
    line.cells = cells
    line.cap = cap
    return 0


cdef inline void line_widen(Line *line) noexcept nogil:
    """A line of bytes becomes cells, in place: from the end, cell i (bytes 4i to 4i+3) is written after
    byte i is read, and bytes 0 to i-1 are before it. Its capacity is counted in cells, so it fits."""
    cdef Py_ssize_t i = line.len
    cdef const uint8_t *b = <const uint8_t *>line.cells
    if not line.narrow:
        return
    while i > 0:
        i -= 1
        line.cells[i] = b[i]
    line.narrow = False


cdef inline void pad_bytes(Line *line, Py_ssize_t col) noexcept nogil:
    """A line of bytes padded with BLANK bytes up to ``col`` (its capacity has room): the gap a cursor move left
    past its end stays bytes, where it widened the line (huge CUFs: three passes over four bytes a cell on the
    way out, benchmarks/README.md, round 26)."""
    memset(<uint8_t *>line.cells + line.len, BLANK, col - line.len)
    line.len = col
    line.plain = False


cdef inline Py_ssize_t bytes_written(Line *line, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    """written() of a line of bytes: every cell of a plain one is written; another may hold BLANK bytes."""
    if stop <= start:
        return 0
    if line.plain:
        return stop - start
    return acp_count_written_bytes(<const uint8_t *>line.cells + start, stop - start)


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
    line.len = acp_trim_cells(line.cells, line.len)


cdef inline Py_ssize_t written(const uint32_t *cells, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    return acp_count_written(cells + start, stop - start) if stop > start else 0


cdef int line_text(Line *line, Buf *out) except -1 nogil:
    """Mirror of _window_py.line_text: tab spans to \\t, trailing blanks dropped, other blanks to spaces."""
    cdef Py_ssize_t n = line.len, i = 0, pending = 0, need, k, j
    cdef Line flat
    if line.chunked != NULL:  # a chunked line's text is its cells laid out flat (once, as it is output)
        memset(&flat, 0, sizeof(Line))
        line_reserve(&flat, n if n else 1)
        chunks_flatten(line, flat.cells)
        flat.len = n
        try:
            line_text(&flat, out)
        finally:
            free(flat.cells)
        return 0
    if line.narrow:  # (into data, not the head: callers compare out.len before and after)
        if line.plain:
            return buf_put_ascii_data(out, <const uint8_t *>line.cells, n, 0)
        return buf_put_tabbed(out, <const uint8_t *>line.cells, n, 0, False)
    cdef uint32_t cp
    cdef const uint32_t *cells = line.cells
    cdef bint tab
    cdef uint32_t seen = 0
    cdef uint32_t *dst
    # Blocks are not tried again before this cell: the last try found no whole block from a cell before it,
    # so the cells up to 16 on hold one the block tests do not pass (a character the policy shows or passes
    # every 3 cells: two block tests failed for each, 600 instructions, round 36)
    cdef Py_ssize_t blocks_from = 0
    buf_reserve(out, n)
    if line.plain:
        if n:
            memcpy(out.data + out.len, cells, n * sizeof(uint32_t))
            out.len += n
            if out.maxchar < 0x7E:
                out.maxchar = 0x7E
        return 0
    while i < n:
        cp = cells[i]
        if acp_ordinary(cp) and not pending:
            # Fast path: ordinary characters are copied 16 at a time. The checks have no early exit so
            # the compiler vectorises them; OR-ing the cells bounds the widest one by a value that selects
            # the same str kind (see buf_take).
            dst = out.data + out.len - i  # dst[k] is where cells[k] goes
            k = i
            if i >= blocks_from:
                k = i + acp_copy_ordinary(dst + i, cells + i, n - i, &seen) if cp < 0xAD else i
                k += acp_copy_common(dst + k, cells + k, n - k, &seen)
                if k == i:
                    blocks_from = i + 16
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
                acp_spaces(out.data + out.len, pending)
                out.len += pending
                pending = 0
                out.data[out.len] = 0x09
                out.len += 1
                i += need + 1
                continue
            pending += 1
        elif cp <= FILL:
            # A run of blank cells at once (the gap a cursor move leaves, up to max_jump cells: huge CUFs
            # spent 20 instructions a cell of output here, benchmarks/README.md, round 24), and the spaces
            # for it written by acp_spaces when a character follows.
            k = i + 1 + acp_blank_run(cells + i + 1, n - i - 1)
            pending += k - i
            i = k
            continue
        else:
            if pending:
                acp_spaces(out.data + out.len, pending)
                out.len += pending
                pending = 0
            # a run of one character at once (REP of a character the Unicode policy shows: 1,025 cells a
            # sequence, where each took the block tests' retry and a note, 40 instructions; round 43)
            k = i + 1
            while k < n and cells[k] == cp:
                k += 1
            dst = out.data + out.len
            for j in range(k - i):
                dst[j] = cp
            out.len += k - i
            note_char(out, cp)
            i = k
            continue
        i += 1
    if seen > out.maxchar:
        out.maxchar = seen
    return 0


cdef inline int line_put(Line *line, Buf *out, uint8_t end) except -1 nogil:
    """line_text, then ``end`` unless it is 0: a plain line or a line of bytes into the output's one-byte head
    while nothing wider came before it (buf_put_ascii), as LineWindow.scroll commits a line. Whole windows
    committed at once (final=True, a cell limit) then stay bytes up to the str, as single lines do (the
    throughput issue: through line_text, final=True widened 200 plain lines and narrowed them back)."""
    if line.chunked == NULL:
        if line.narrow:
            if line.plain:
                return buf_put_ascii(out, <const uint8_t *>line.cells, line.len, end)
            return buf_put_tabbed(out, <const uint8_t *>line.cells, line.len, end, True)
        if line.plain:
            return buf_put_plain(out, line.cells, line.len, end)
    line_text(line, out)
    if end:
        buf_put(out, end)
    return 0
