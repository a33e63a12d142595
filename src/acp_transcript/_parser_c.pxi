# The control-function parser (SPEC 2.1-2.2): the twin of _parser_py.Parser (see there). Bytes in, calls on
# a Sink out; it knows nothing about lines. Text runs (printable ASCII, whole valid UTF-8, SGRs, controls
# without effect) are decoded into ``cps`` and handed to the sink in one call; everything else goes through
# Williams' states byte by byte.

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
    IGNORED_CONTROL[_i] = _i < 0x20 and not (BS <= _i <= CR or _i == ESC)


cdef inline Py_ssize_t sgr_end(const uint8_t *data, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """Where the SGR sequence ``ESC [ <0-9:;>* m`` at ``data[i]`` ends, or 0 if there is none complete."""
    if i + 2 >= n or data[i] != ESC or data[i + 1] != 0x5B:
        return 0
    i += 2
    while i < n and 0x30 <= data[i] <= 0x3B:
        i += 1
    return i + 1 if i < n and data[i] == SGR else 0


cdef class Sink:
    """What the parser calls (vte's ``Perform``; _parser_py.Sink). ``print_ascii``/``print_cps`` get text
    without LF; ``execute`` only BS, HT, LF, VT, FF, CR; ``csi_dispatch`` only non-private sequences that are
    not SGR or REP, without intermediates; ``private_mode`` each mode of ``CSI ? Pm h``/``l``. The base does
    nothing."""

    cdef int64_t *stats
    cdef bint tabbed_runs  # the parser hands it tabbed runs (print_tabbed): a sink that writes them at once
    cdef bint cell_frames  # fold_frames counts a frame's cells by their characters' widths, one or two (a
    # sized screen, where a code point may be two cells or none: a mark ends the frame)

    cdef int reset(self) except -1 nogil:
        return 0

    cdef int print_ascii(self, const uint8_t *text, Py_ssize_t n) except -1 nogil:
        return 0

    cdef int print_cps(self, const uint32_t *cps, Py_ssize_t n) except -1 nogil:
        return 0

    cdef int print_ascii_line(self, const uint8_t *text, Py_ssize_t n) except -1 nogil:
        """print_ascii and then execute(LF): a run of printable ASCII that a LF ends (a line of plain text),
        in one call instead of two and a turn of the parser's loop."""
        self.print_ascii(text, n)
        return self.execute(LF)

    cdef int print_tabbed(self, const uint8_t *text, Py_ssize_t n) except -1 nogil:
        """Printable ASCII and HTs (tab-indented code, tab-separated columns): print_ascii for each piece and
        execute(HT) for each tab, as the parser's loop would call them; a sink that can take the run at once
        (the render sink) does."""
        cdef Py_ssize_t i = 0, j
        cdef const uint8_t *tab
        while i < n:
            tab = <const uint8_t *>memchr(text + i, HT, n - i)
            j = n if tab == NULL else tab - text
            if j > i:
                self.print_ascii(text + i, j - i)
            if j < n:
                self.execute(HT)
                j += 1
            i = j
        return 0

    cdef int execute(self, uint8_t byte) except -1 nogil:
        return 0

    cdef int linefeeds(self, Py_ssize_t count) except -1 nogil:
        """execute(LF) ``count`` times: a run of LFs (blank lines); a sink that can take them at once (the
        render sink) does."""
        cdef Py_ssize_t i
        for i in range(count):
            self.execute(LF)
        return 0

    cdef Py_ssize_t frame_limit(self) noexcept nogil:
        """The most cells a frame after a CR may have for the parser to skip it when the next frame covers
        it (Parser.fold_frames); 0: never (the base, strip mode)."""
        return 0

    cdef bint frame_clean(self, Py_ssize_t cells) noexcept nogil:
        """Whether the parser may skip frames covered by one of ``cells`` cells (cell_frames: a sized screen's
        cursor row holds no padding but a wide character's own in those cells, and none in the one after
        them)."""
        return True

    cdef int esc_dispatch(self, uint8_t final) except -1 nogil:
        return 0

    cdef int csi_dispatch(self, const uint32_t *params, int nparams, uint8_t final) except -1 nogil:
        return 0

    cdef int repeat(self, uint32_t char, Py_ssize_t count) except -1 nogil:
        return 0

    cdef int private_mode(self, uint32_t mode, bint enable) except -1 nogil:
        return 0

    cdef int finish(self) except -1 nogil:
        return 0


cdef inline Py_ssize_t ascii_block(const uint8_t *data, Py_ssize_t i, Py_ssize_t n, uint32_t *cps,
                                   Py_ssize_t *k) noexcept nogil:
    """The printable ASCII after a multi-byte character (the spaces and labels after a progress bar's
    blocks) or an SGR (a colored word), scanned and widened as one block, as the run before the first such
    character was. Tried only there: a test before every ASCII byte cost random bytes, where runs are short,
    15% more instructions."""
    cdef Py_ssize_t m = acp_ascii_run(data + i, n - i)
    if m <= 16 and i + 16 <= n:
        # (cps has room for a cell per byte of the run, and k <= i - the run's start: 16 cells fit)
        acp_widen16(cps + k[0], data + i)
    else:
        acp_widen(cps + k[0], data + i, m)
    k[0] += m
    return i + m


cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    #if !defined(ACP_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2))
    #include <emmintrin.h>
    #endif
    /* Whether the three bytes in w (the lead in its low byte) are a whole, valid three-byte UTF-8
       sequence: lead 1110xxxx and two 10xxxxxx, where E0 needs a second byte of A0-BF (no overlongs) and
       ED one of 80-9F (no surrogates); bit (lead's low four bits << 1 | bit 5 of the second byte) of
       0xF7FFFFFE says which pairs may be (0: E0 with 80-9F, 27: ED with A0-BF). */
    static inline int acp_utf8_3(uint32_t w) {
        return (w & 0xC0C0F0u) == 0x8080E0u && ((0xF7FFFFFEu >> (((w & 0xFu) << 1) | ((w >> 13) & 1u))) & 1u);
    }
    /* The word at p (4 bytes readable), lead first. */
    static inline uint32_t acp_word(const uint8_t *p) {
        uint32_t w;
        memcpy(&w, p, 4);
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap32(w);
    #endif
        return w;
    }
    /* The code point of the two-byte UTF-8 sequence at p (two bytes readable): lead 110xxxxx, then 10xxxxxx;
       0 when it is not one, or decodes below U+00A0 (an overlong C0/C1 lead, or a C1 control). */
    static inline uint32_t acp_utf8_2(const uint8_t *p) {
        uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8;
        uint32_t cp = ((w & 0x1Fu) << 6) | ((w >> 8) & 0x3Fu);
        return (w & 0xC0E0u) == 0x80C0u && cp >= 0xA0u ? cp : 0;
    }
    /* The two-byte UTF-8 characters at p but C1, at most n bytes: the bytes they take; each decoded into
       cps. Not inlined: see text_run. */
    #if defined(_MSC_VER)
    __declspec(noinline)
    #else
    __attribute__((noinline))
    #endif
    static Py_ssize_t acp_decode_two_byte_run(const uint8_t *p, Py_ssize_t n, uint32_t *restrict cps) {
        Py_ssize_t i = 0;
        uint32_t cp;
        while (i + 1 < n && (cp = acp_utf8_2(p + i)) != 0) {
            *cps++ = cp;
            i += 2;
        }
        return i;
    }
    /* Whether the second of the parameters p[0..n) (digits, ':' and ';') has a digit: the byte after the
       first separator is one (DECSTBM: Parser.csi_dispatch says why). Out of line, so that csi_fast, hot on
       every CSI, keeps its size for a sequence that is rare. */
    #if defined(_MSC_VER)
    __declspec(noinline)
    #else
    __attribute__((noinline))
    #endif
    static int acp_second_param_given(const uint8_t *p, Py_ssize_t n) {
        for (Py_ssize_t i = 0; i + 1 < n; i++)
            if (p[i] > 0x39)
                return p[i + 1] <= 0x39;
        return 0;
    }
    /* The printable ASCII and HTs at p (p[0] is a HT), at most n bytes: a tabbed run (Parser.tabbed_run).
       With SSE2, 16 bytes a step (a byte is bad when it is not printable and not a HT), where a call of the
       ASCII scan per piece cost a character-and-tab stream 12 instructions a pair; elsewhere the ASCII scan
       per piece. Not inlined, to keep the parser's loop small. */
    #if defined(_MSC_VER)
    __declspec(noinline)
    #else
    __attribute__((noinline))
    #endif
    static Py_ssize_t acp_tabbed_run(const uint8_t *p, Py_ssize_t n) {
        Py_ssize_t i = 0;
    #if defined(ACP_HAVE_SSE2_COPIES)
        const __m128i ht = _mm_set1_epi8(0x09);
        while (i + 16 <= n) {
            __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
            unsigned bad = (unsigned)_mm_movemask_epi8(_mm_andnot_si128(_mm_cmpeq_epi8(v, ht), acp_not_printable(v)));
            if (bad)
                return i + acp_first_bit(bad);
            i += 16;
        }
        while (i < n && (p[i] == 0x09 || (p[i] >= 0x20 && p[i] < 0x7F)))
            i++;
    #else
        while (i < n && p[i] == 0x09) {
            i++;
            i += acp_ascii_run(p + i, n - i);
        }
    #endif
        return i;
    }
    #if !defined(ACP_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2))
    #define ACP_HAVE_THREE_BYTE_BLOCK 1
    #define ACP_X3(a, b, c) (char)(a), (char)(b), (char)(c), (char)(a), (char)(b), (char)(c), \
                            (char)(a), (char)(b), (char)(c), (char)(a), (char)(b), (char)(c)
    /* The two tests on 16 bytes below share the shape: whether their first 12 are four triples 1110xxxx
       10xxxxxx 10xxxxxx (the last four bytes: 0 under a 0 mask). SSE2 only. */
    static inline int acp_three_byte_shape(__m128i v) {
        const __m128i mask = _mm_setr_epi8(ACP_X3(0xF0, 0xC0, 0xC0), 0, 0, 0, 0);
        const __m128i want = _mm_setr_epi8(ACP_X3(0xE0, 0x80, 0x80), 0, 0, 0, 0);
        return _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(v, mask), want)) == 0xFFFF;
    }
    /* Whether the 16 bytes v start with four valid three-byte UTF-8 characters (12 bytes) whose leads are
       E1-EC or EE-EF (those that put no limit on the second byte): the shape, and no lead's low four bits
       are 0 or D. For counting a progress bar's blocks (acp_three_byte_run), where testing E0 and ED too (as
       acp_three_byte_block does) cost 0.25 instructions a byte. */
    static inline int acp_three_byte_block_common(__m128i v) {
        const __m128i low = _mm_setr_epi8(ACP_X3(0x0F, 0, 0), 0, 0, 0, 0);
        const __m128i zero_at_leads = _mm_setr_epi8(ACP_X3(0, 1, 1), 1, 1, 1, 1);
        __m128i bits = _mm_and_si128(v, low);
        __m128i bad = _mm_or_si128(_mm_cmpeq_epi8(bits, zero_at_leads), _mm_cmpeq_epi8(bits, _mm_set1_epi8(0x0D)));
        return acp_three_byte_shape(v) && !_mm_movemask_epi8(bad);
    }
    /* Whether the 16 bytes v start with four valid three-byte UTF-8 characters, any lead: as above, but a
       lead is wrong only when it is E0 with a second byte below A0 (an overlong) or ED with one of A0 or
       above (a surrogate), bit 5 of the second byte moved under its lead. For decoding
       (acp_decode_three_byte_run): where E0 and ED leads were refused, Devanagari, Thai and the Hangul
       syllables from U+D000 went a character at a time (round 22: other scripts 26.5 -> 24.5 instructions
       a byte, 807-809 -> 883-910 MB/s; CJK 16.2 -> 15.5, 1,407-1,414 -> 1,459-1,484). Counting how many
       whole characters a refused block starts with (a bit scan) and decoding those too took fewer
       instructions still, but ran 5-11% slower than before: each load then waits for the count, where a
       constant step of 12 runs ahead of the test. SSE2 only. */
    static inline int acp_three_byte_block(__m128i v) {
        const __m128i leads = _mm_setr_epi8(ACP_X3(0xFF, 0, 0), 0, 0, 0, 0);
        const __m128i bit5 = _mm_set1_epi8(0x20);
        __m128i lead = _mm_and_si128(v, leads);  /* 0 but at the leads: never E0 or ED elsewhere */
        __m128i high = _mm_cmpeq_epi8(_mm_and_si128(_mm_srli_si128(v, 1), bit5), bit5);
        __m128i wrong = _mm_or_si128(_mm_andnot_si128(high, _mm_cmpeq_epi8(lead, _mm_set1_epi8((char)0xE0))),
                                     _mm_and_si128(high, _mm_cmpeq_epi8(lead, _mm_set1_epi8((char)0xED))));
        return acp_three_byte_shape(v) && !_mm_movemask_epi8(wrong);
    }
    #undef ACP_X3
    /* The four characters of such a block as code points, into cps. SSE2 has no byte shuffle, so the
       characters are paired in the two 64-bit halves (bytes 0-7 and 6-13: a character at byte 0 and byte 3
       of each), and each half does what acp_utf8_3_cp does for both of its characters at once: the first
       lands in bits 0-15, the second in bits 24-39, moved to 32-47. (A character at a time, after the test,
       cost 10 instructions.) */
    static inline void acp_three_byte_decode4(uint32_t *cps, __m128i v) {
        __m128i x = _mm_unpacklo_epi64(v, _mm_srli_si128(v, 6));
        __m128i lead = _mm_slli_epi64(_mm_and_si128(x, _mm_set1_epi64x(0x0F00000F)), 12);
        __m128i second = _mm_srli_epi64(_mm_and_si128(x, _mm_set1_epi64x(0x3F00003F00)), 2);
        __m128i third = _mm_and_si128(_mm_srli_epi64(x, 16), _mm_set1_epi64x(0x3F00003F));
        __m128i t = _mm_or_si128(_mm_or_si128(lead, second), third);
        __m128i both = _mm_or_si128(_mm_and_si128(t, _mm_set1_epi64x(0xFFFF)),
                                    _mm_and_si128(_mm_slli_epi64(t, 8), _mm_set1_epi64x(0xFFFF00000000)));
        _mm_storeu_si128((__m128i *)cps, both);
    }
    #endif
    /* The code point of the three-byte sequence in w (acp_utf8_3 has said it is one). */
    static inline uint32_t acp_utf8_3_cp(uint32_t w) {
        return (w & 0x0Fu) << 12 | (w & 0x3F00u) >> 2 | (w >> 16 & 0x3Fu);
    }
    /* The three bytes at p as acp_utf8_3 reads them, where only three are readable. */
    static inline uint32_t acp_word3(const uint8_t *p) {
        return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
    }
    /* The valid three-byte UTF-8 characters at p, at most n bytes, counted (Parser.fold_frames: a progress
       bar's blocks, byte by byte, were 5 instructions a byte): the bytes they take; *chars counts them.
       Four characters a step where 16 bytes remain (acp_three_byte_block_common), then a word each. */
    static inline Py_ssize_t acp_three_byte_run(const uint8_t *p, Py_ssize_t n, Py_ssize_t *chars) {
        Py_ssize_t i = 0, c = 0;
    #if defined(ACP_HAVE_THREE_BYTE_BLOCK)
        while (i + 16 <= n && acp_three_byte_block_common(_mm_loadu_si128((const __m128i *)(p + i)))) {
            i += 12;
            c += 4;
        }
    #endif
        while (i + 4 <= n && acp_utf8_3(acp_word(p + i))) {
            i += 3;
            c++;
        }
        if (i + 3 == n && acp_utf8_3(acp_word3(p + i))) {
            i += 3;
            c++;
        }
        *chars += c;
        return i;
    }
    /* The same run decoded into cps (Parser.text_run: CJK, Hangul, kana, Indic scripts, most symbols), with
       the short stretches of printable ASCII between its words (at most 8 bytes each: a space, ", ") taken
       too when another such character follows them: the bytes it takes; *k counts the cells. A validated
       block of four is decoded without another test; a character at a time, a branch on its lead and a
       table lookup for its second byte cost CJK text 27 instructions a character, and a return to the
       caller's loop at each space cost Hangul and Devanagari words more than the decode. Not inlined: see
       acp_decode_two_byte_run. */
    #if defined(_MSC_VER)
    __declspec(noinline)
    #else
    __attribute__((noinline))
    #endif
    static Py_ssize_t acp_decode_three_byte_run(const uint8_t *p, Py_ssize_t n, uint32_t *cps, Py_ssize_t *k) {
        Py_ssize_t i = 0, j;
        uint32_t w;
        uint32_t *restrict q = cps + *k;
        for (;;) {
    #if defined(ACP_HAVE_THREE_BYTE_BLOCK)
            while (i + 16 <= n) {
                __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
                if (!acp_three_byte_block(v))
                    break;
                acp_three_byte_decode4(q, v);
                q += 4;
                i += 12;
            }
    #endif
            while (i + 4 <= n && acp_utf8_3(w = acp_word(p + i))) {
                *q++ = acp_utf8_3_cp(w);
                i += 3;
            }
            if (i + 3 == n && acp_utf8_3(w = acp_word3(p + i))) {
                *q++ = acp_utf8_3_cp(w);
                i += 3;
            }
            for (j = i; j < n && j - i < 8 && (uint8_t)(p[j] - 0x20u) < 0x5Fu; j++)
                ;
            if (j == i || j + 3 > n || !acp_utf8_3(acp_word3(p + j)))
                break;
            for (; i < j; i++)
                *q++ = p[i];
        }
        *k = q - cps;
        return i;
    }
    /* The code point of the valid three-byte UTF-8 character at p (n bytes readable), 0 when there is none
       (Parser.fold_frames on a sized screen, which counts a frame's cells by their characters' widths). */
    static inline uint32_t acp_utf8_3_at(const uint8_t *p, Py_ssize_t n) {
        uint32_t w;
        if (n >= 4)
            w = acp_word(p);
        else if (n == 3)
            w = acp_word3(p);
        else
            return 0;
        return acp_utf8_3(w) ? acp_utf8_3_cp(w) : 0;
    }
    """
    Py_ssize_t acp_three_byte_run(const uint8_t *p, Py_ssize_t n, Py_ssize_t *chars) nogil
    Py_ssize_t acp_decode_three_byte_run(const uint8_t *p, Py_ssize_t n, uint32_t *cps, Py_ssize_t *k) nogil
    Py_ssize_t acp_decode_two_byte_run(const uint8_t *p, Py_ssize_t n, uint32_t *cps) nogil
    Py_ssize_t acp_tabbed_run(const uint8_t *p, Py_ssize_t n) nogil
    bint acp_second_param_given(const uint8_t *p, Py_ssize_t n) nogil
    uint32_t acp_utf8_2(const uint8_t *p) nogil
    uint32_t acp_utf8_3_at(const uint8_t *p, Py_ssize_t n) nogil


cdef inline Py_ssize_t frame_end(const uint8_t *data, Py_ssize_t i, Py_ssize_t n, Py_ssize_t *cells) noexcept nogil:
    """Where the plain text at ``i`` ends, and in ``cells`` how many code points it holds: printable ASCII and
    whole, valid two- and three-byte UTF-8 but C1 (four-byte sequences end it too: they are rare in a frame,
    and stopping early only means no fold). Each is one cell of an unsized window."""
    cdef Py_ssize_t count = 0, m
    cdef uint8_t byte
    while i < n:
        byte = data[i]
        if byte < 0x80:
            m = acp_ascii_run(data + i, n - i)
            count += m
        elif byte >= 0xE0:
            m = acp_three_byte_run(data + i, n - i, &count)
        elif i + 1 < n and acp_utf8_2(data + i):
            m = 2
            count += 1
        else:
            m = 0
        if m == 0:
            break
        i += m
    cells[0] = count
    return i


cdef inline Py_ssize_t cell_frame_end(const uint8_t *data, Py_ssize_t i, Py_ssize_t n, Py_ssize_t *cells,
                                      Py_ssize_t *chars) noexcept nogil:
    """frame_end for a sized screen's frames (Sink.cell_frames): characters of one or two cells (char_width),
    counted in ``cells`` by their widths and in ``chars`` one each; a mark (no cell) ends the frame, as a
    character whose cells are not its own would not be covered cell for cell by the next frame's. Round 44
    took one-cell characters only; a spinner or progress bar in CJK text was then drawn frame by frame
    (round 52)."""
    cdef Py_ssize_t count = 0, wide = 0, m
    cdef uint8_t byte
    cdef uint32_t cp
    cdef int width
    while i < n:
        byte = data[i]
        if byte < 0x80:
            m = acp_ascii_run(data + i, n - i)
            count += m
            i += m
            if m == 0 or (i < n and data[i] < 0x80):  # (a control or ESC ends it: no second scan to say so)
                break
            continue
        if byte >= 0xE0:
            cp = acp_utf8_3_at(data + i, n - i)  # (0: not one)
            m = 3
        elif i + 1 < n:
            cp = acp_utf8_2(data + i)  # (0: not one, or C1)
            m = 2
        else:
            break
        if cp == 0:
            break
        width = char_width(cp)
        if width != 1:  # (one test for a one-cell character, as before wide ones were counted)
            if width == 0:
                break
            wide += 1
        count += 1
        i += m
    cells[0] = count + wide
    chars[0] = count
    return i


@cython.final
cdef class Parser:
    cdef Sink sink
    cdef int64_t *stats
    cdef Py_ssize_t max_string_bytes
    cdef int state
    cdef uint32_t u8_cp
    cdef int u8_need, u8_seen
    cdef uint8_t u8_lower, u8_upper
    cdef uint32_t params[MAX_PARAMS]
    cdef int nparams
    cdef int64_t param
    cdef int intermediates, private
    cdef Py_ssize_t string_bytes
    cdef uint32_t last  # the character REP repeats: set by printing, cleared by any other item
    cdef uint32_t rep_char  # last as it was when the current escape sequence began
    cdef uint32_t *cps  # decoded code points of the current text run
    cdef Py_ssize_t cps_cap
    cdef uint8_t *ascii  # the run again as bytes, when it is all printable ASCII (text_run)
    # The frame fold_frames scanned after the frame it could not skip (in this feed's data; NULL: none), and
    # where it ends and its cells: the next CR's fold starts there, so each frame is scanned once.
    cdef const uint8_t *frame_at
    cdef Py_ssize_t frame_stop, frame_cells, frame_chars
    cdef Py_ssize_t ascii_cap
    cdef bint second_given  # the second parameter had a digit (csi_dispatch: DECSTBM)
    # The output's cell count (the decoder's out.len), which feed compares with its stop_cells before each
    # escape sequence; NULL (never stop) until a decoder points it at its output.
    cdef const Py_ssize_t *out_cells

    def __dealloc__(self):
        free(self.cps)
        free(self.ascii)

    cdef int reset(self) except -1 nogil:
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
        self.last = self.rep_char = 0
        return 0

    cdef int finish(self) except -1 nogil:
        if self.u8_need:
            self.flush_partial()
        if self.state != GROUND:
            self.stats[S_UNTERMINATED] += 1
        return self.reset()

    cdef Py_ssize_t feed(self, const uint8_t *data, Py_ssize_t n, Py_ssize_t stop_cells) except -1 nogil:
        """Parse n bytes, or stop before an escape sequence once the output holds ``stop_cells`` cells (HUGE:
        never). Returns how many bytes it parsed; the rest is for the next call, after the caller has taken the
        output (TranscriptDecoder.feed_bounded). Escape sequences are what makes output far larger than its
        input (REP, cursor moves, a sized screen's scrolls: up to 128 cells a byte at default options), so a
        check before each bounds what a call stages to a piece and one sequence's output, whatever the length
        of the text fed at once; without it, text that made a cell a byte for 64 KiB and then huge REPs of a
        wide character staged 27 MB of cells at once (round 29)."""
        cdef Py_ssize_t pos = 0, end
        cdef uint8_t byte, final
        self.frame_at = NULL  # (another call's data may sit at the same address)
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
                if byte == ESC and not self.u8_need:
                    if self.out_cells != NULL and self.out_cells[0] >= stop_cells:
                        return pos
                    self.stats[S_SEQUENCES] += 1
                    self.enter_escape()
                    if pos + 1 < n and data[pos + 1] == 0x5B:
                        end = self.csi_fast(data, pos + 2, n)
                        if end > 0:
                            self.state = GROUND
                            pos = end
                            continue
                    elif pos + 1 < n and 0x30 <= data[pos + 1] < DEL:
                        final = data[pos + 1]
                        if final != 0x5D and final != 0x50 and final != 0x58 and final != 0x5E and final != 0x5F:
                            # ESC and its final (ESC M, ESC 7, ESC 8, ESC =), not a string's introducer:
                            # step's dispatch at once, without a turn of this loop and step's tests (the
                            # fallback's feed does the same)
                            self.state = GROUND
                            self.sink.esc_dispatch(final)
                            pos += 2
                            continue
                    pos += 1
                    continue
                if byte >= 0x80:
                    self.utf8_byte(byte)
                    pos += 1
                    continue
                if self.u8_need:  # a control interrupts a partial code point: one U+FFFD (SPEC 2.1)
                    self.flush_partial()
                    continue  # the byte is processed again, now with no partial code point
                if byte == DEL:
                    self.stats[S_CONTROLS] += 1
                elif byte == HT and self.sink.tabbed_runs:
                    pos = self.tabbed_run(data, pos, n)
                    continue
                else:
                    self.execute(byte)
                    if byte == CR and pos + 1 < n and data[pos + 1] != LF:  # (CR LF: no frame to fold)
                        pos = self.fold_frames(data, pos + 1, n)
                        continue
                    if byte == LF and pos + 1 < n and data[pos + 1] == LF:
                        pos = self.linefeed_run(data, pos + 1, n)
                        continue
                pos += 1
            elif self.state >= OSC_STRING:
                pos = self.string(data, pos, n)
            else:
                self.step(data[pos])
                pos += 1
        return n

    cdef Py_ssize_t linefeed_run(self, const uint8_t *data, Py_ssize_t pos, Py_ssize_t n) except -1 nogil:
        """Blank lines: the LFs from ``pos`` on (one at least), after the LF before them was executed, in one
        call (an LF flood was a turn of feed's loop, a dispatch and a newline() each, 217 instructions a byte;
        benchmarks/README.md, round 24). Returns where the run ends."""
        cdef Py_ssize_t end = pos + 1
        while end < n and data[end] == LF:
            end += 1
        self.sink.linefeeds(end - pos)  # (execute has left nothing to repeat)
        return end

    cdef inline void enter_escape(self) noexcept nogil:
        # SPEC 2.3 rev 2, as tmux: REP repeats only right after a printed character; the character is put
        # aside here and given back only to a REP that this sequence turns out to be.
        self.state = ESCAPE
        self.intermediates = 0
        self.rep_char = self.last
        self.last = 0

    cdef Py_ssize_t tabbed_run(self, const uint8_t *data, Py_ssize_t pos, Py_ssize_t n) except -1 nogil:
        """A tab and the printable ASCII and tabs after it (tab-indented code, tab-separated columns) in one
        print_tabbed call, where each tab and each piece after it was a turn of this loop and a call (round
        10). Here, not in text_run: there it cost SGR-heavy output 1.4 instructions a byte (the compiler
        stopped inlining ascii_block). Returns where the run ends."""
        cdef Py_ssize_t end = pos + acp_tabbed_run(data + pos, n - pos)
        self.sink.print_tabbed(data + pos, end - pos)
        if data[end - 1] == HT:  # (execute's: nothing to repeat after a control)
            self.last = self.rep_char = 0
        else:
            self.last = data[end - 1]
        return end

    cdef Py_ssize_t text_run(self, const uint8_t *data, Py_ssize_t pos, Py_ssize_t n) except -1 nogil:
        """Print the run of text at ``pos``: printable ASCII and whole, valid, non-C1 UTF-8 sequences, as one
        write. Returns where it stopped; whatever stops it (a control, an invalid or incomplete sequence,
        a C1 code point) is left to the byte-by-byte path, so the result is the same as printing one code
        point at a time. SGR sequences inside the run are skipped (counted): they have no effect on text,
        and colored output then costs one write per stretch of text, as in the fallback."""
        cdef Py_ssize_t i = pos + acp_ascii_run(data + pos, n - pos), k = 0, size, end, m
        cdef int64_t invalid = 0, c1 = 0, sgr = 0, controls = 0  # counted here, added once
        cdef bint ended_on_sgr = False, wide = False  # wide: a cell past ASCII (U+FFFD counts in invalid)
        cdef uint8_t b, b1
        cdef uint32_t cp
        cdef uint32_t *cps
        cdef const uint8_t *src  # the run so far, as bytes, to widen into cps
        while i > pos and i < n and data[i] == LF:
            # A line of plain text: text and LF in one call; the next line, if it starts with printable
            # ASCII, is taken here too, as the parser's loop would call this again for it.
            self.sink.print_ascii_line(data + pos, i - pos)
            self.last = self.rep_char = 0  # (execute's: nothing to repeat after a control)
            pos = i + 1
            if pos == n or not 0x20 <= data[pos] < 0x7F:
                return pos
            i = pos + acp_ascii_run(data + pos, n - pos)
        if i == n or (data[i] < 0x80 and not sgr_end(data, i, n) and not IGNORED_CONTROL[data[i]]
                      and data[i] != DEL):
            if i > pos:
                self.sink.print_ascii(data + pos, i - pos)
                self.last = data[i - 1]
            return i
        if data[i] != ESC:  # a byte that is not ASCII, a control without effect or DEL: cells from here
            src = data + pos
            k = i - pos
        else:  # (an SGR: sgr_end found one above)
            # Colored ASCII (words between SGRs, most colored output): kept as bytes, copied word by word
            # into the run's byte buffer, never widened to cells and narrowed back (SGR-heavy output 22%
            # fewer instructions). The first byte that is not printable ASCII or an SGR either ends the
            # run (the caller's byte; the words are printed here as bytes, and the SGRs are the only count
            # to add) or goes on in the general loop below, the bytes so far widened.
            if n - pos > self.ascii_cap:
                grow(<void **>&self.ascii, &self.ascii_cap, n - pos, 1, 4096)
            memcpy(self.ascii, data + pos, i - pos)
            k = i - pos
            while i < n and data[i] == ESC:
                end = sgr_end(data, i, n)
                if not end:
                    break
                sgr += 1
                i = end
                m = acp_ascii_run(data + i, n - i)
                if m <= 16 and i + 16 <= n:  # (a word: one 16-byte copy; the buffer has room, as in ascii_block)
                    memcpy(self.ascii + k, data + i, 16)
                else:
                    memcpy(self.ascii + k, data + i, m)
                k += m
                i += m
                ended_on_sgr = m == 0
            if i == n or (data[i] < 0x80 and not IGNORED_CONTROL[data[i]] and data[i] != DEL):
                self.stats[S_SEQUENCES] += sgr
                if k:
                    self.sink.print_ascii(self.ascii, k)
                    self.last = self.ascii[k - 1]
                if ended_on_sgr:  # a REP after an SGR has nothing to repeat
                    self.last = self.rep_char = 0
                return i
            src = self.ascii
        grow(<void **>&self.cps, &self.cps_cap, n - pos, sizeof(uint32_t), 4096)
        cps = self.cps
        acp_widen(cps, src, k)
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
            if b == ESC:
                end = sgr_end(data, i, n)
                if not end:
                    break
                sgr += 1
                i = end
                ended_on_sgr = True
                if i < n and 0x20 <= data[i] < 0x7F:  # the colored word
                    i = ascii_block(data, i, n, cps, &k)
                    ended_on_sgr = False
                continue
            if 0xE0 <= b <= 0xEF:
                # Whole, valid three-byte sequences (U+0800-U+FFFF but surrogates: CJK, Hangul, Indic scripts,
                # most symbols), a run of them at once, out of line (acp_decode_three_byte_run); whatever is
                # not one is the general path's below, with its maximal-subpart walk.
                m = acp_decode_three_byte_run(data + i, n - i, cps, &k)
                if m:
                    ended_on_sgr = False
                    wide = True
                    i += m
                    if i < n and 0x20 <= data[i] < 0x7F:
                        i = ascii_block(data, i, n, cps, &k)
                    continue
            if b < 0x80:
                if IGNORED_CONTROL[b]:  # no effect but on REP: it has nothing to repeat after a control
                    controls += 1
                    i += 1
                    ended_on_sgr = True
                    continue
                if b == DEL:  # ignored outright (Williams, tmux); REP still reaches past it
                    controls += 1
                    i += 1
                    continue
                break  # BS, HT, LF, VT, FF, CR, or an ESC that starts no SGR: the caller's
            ended_on_sgr = False
            if b <= 0xDF:
                # Whole two-byte sequences but C1 (U+00A0-U+07FF: accented Latin, Greek, Cyrillic, Hebrew,
                # Arabic), a run of them at once, as three-byte ones above (the general path below cost
                # Cyrillic text 60 instructions a byte). Out of line, and the ASCII after it left to the loop:
                # either in this loop, or a fourth call of ascii_block, cost SGR-heavy output, which never
                # comes here, 1.5 instructions a byte (the compiler then stopped inlining ascii_block).
                m = acp_decode_two_byte_run(data + i, n - i, cps + k)
                if m:
                    wide = True
                    k += m >> 1
                    i += m
                    continue
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
            wide = True
            if i < n and 0x20 <= data[i] < 0x7F:
                i = ascii_block(data, i, n, cps, &k)
        self.stats[S_INVALID] += invalid
        self.stats[S_C1] += c1
        self.stats[S_SEQUENCES] += sgr
        self.stats[S_CONTROLS] += controls
        if k and not wide and not invalid:
            # All printable ASCII (colored words, the SGRs skipped): the bytes path, where a line stays bytes
            # and strip mode copies without a look at each cell; before, each write checked its cells again
            # (acp_printable_ascii, 7% of SGR-heavy output's instructions). cps is narrowed back (SSE2: two
            # packs a 16 cells, under an instruction a cell).
            if k > self.ascii_cap:
                grow(<void **>&self.ascii, &self.ascii_cap, k, 1, 4096)
            acp_narrow1(self.ascii, cps, k)
            self.sink.print_ascii(self.ascii, k)
            self.last = cps[k - 1]
        elif k:
            self.sink.print_cps(cps, k)
            self.last = cps[k - 1]
        if ended_on_sgr:  # a REP after an SGR or a control has nothing to repeat
            self.last = self.rep_char = 0
        return i

    cdef Py_ssize_t csi_fast(self, const uint8_t *data, Py_ssize_t i, Py_ssize_t n) except -2 nogil:
        """A whole well-formed CSI (no C0, DEL or high byte inside) in one pass, as the state machine would
        read it; 0 when the sequence is anything else or not complete here (the state machine takes it).
        Parameters are only parsed for a final that uses them: SGR, the common case, needs none."""
        cdef Py_ssize_t params_start, params_end, j
        cdef uint32_t value = 0
        cdef int count = 0
        cdef uint8_t digit, final, private = 0
        if i < n and 0x3C <= data[i] <= 0x3F:
            private = data[i]
            i += 1
        params_start = i
        while i < n and <uint8_t>(data[i] - 0x30) <= 0x0B:  # digits, ':' and ';' (one unsigned compare)
            i += 1
        params_end = i
        while i < n and 0x20 <= data[i] <= 0x2F:
            i += 1
            if i - params_end > MAX_INTERMEDIATES:
                return 0
        if i >= n or not 0x40 <= data[i] <= 0x7E:
            return 0
        final = data[i]
        if i > params_end or (final == SGR and not private):
            return i + 1  # intermediates, or SGR: dispatched with no effect on text
        self.private = private
        # The parameters as step and push_param read them: every field, an empty one 0, each saturated at
        # MAX_PARAM, the first MAX_PARAMS kept; none when there are no parameter bytes. Kept in locals, where
        # the state machine's param/push_param pair (a sign test a digit, two stores a field) cost a cursor
        # move such as vim's CSI 12;1H 14.6 instructions a parameter byte (round 61).
        if params_end > params_start:
            for j in range(params_start, params_end):
                digit = data[j] - 0x30
                if digit <= 9:
                    value = value * 10 + digit
                    if value > MAX_PARAM:
                        value = MAX_PARAM
                else:
                    count = self.put_param(count, value)
                    value = 0
            count = self.put_param(count, value)
        self.nparams = count
        if final == DECSTBM:
            self.second_given = acp_second_param_given(data + params_start, params_end - params_start)
        self.csi_dispatch(final)
        return i + 1

    cdef int step(self, uint8_t byte) except -1 nogil:
        """One byte in the escape and CSI states (Williams), where sequences are short."""
        cdef int state = self.state
        cdef int64_t value
        if byte == ESC:  # Williams: ESC anywhere restarts
            self.stats[S_SEQUENCES] += 1
            self.enter_escape()
        elif byte == CAN or byte == SUB:  # Williams: CAN and SUB abort, executed, to ground
            self.stats[S_CONTROLS] += 1
            self.state = GROUND
        elif byte < 0x20:  # C0 inside a sequence is executed and the sequence goes on
            self.execute(byte)
        elif byte >= DEL:  # DEL and high bytes are ignored; the sequence goes on (SPEC 2.2)
            pass
        elif state == ESCAPE:
            if byte < 0x30:
                self.intermediates = 1
                self.state = ESCAPE_INTERMEDIATE
            elif byte == 0x5B:  # [
                self.state = CSI_ENTRY
                self.nparams = 0
                self.param = -1
                self.second_given = False
                self.private = 0
                self.intermediates = 0
            elif byte == 0x5D:  # ]
                self.state = OSC_STRING
                self.string_bytes = 0
            elif byte == 0x50 or byte == 0x58 or byte == 0x5E or byte == 0x5F:  # P (DCS), X, ^, _
                self.state = ST_STRING
                self.string_bytes = 0
            else:
                self.state = GROUND
                self.sink.esc_dispatch(byte)
        elif state == ESCAPE_INTERMEDIATE:
            if byte >= 0x30:  # final: dispatched with intermediates, none of which affects text
                self.state = GROUND
        elif state == CSI_IGNORE:
            if byte >= 0x40:
                self.state = GROUND
        elif byte >= 0x40:  # CSI final
            self.state = GROUND
            if self.intermediates == 0:
                if self.param >= 0:
                    self.push_param()
                self.csi_dispatch(byte)
        elif byte < 0x30:  # intermediate
            self.intermediates += 1
            self.state = CSI_IGNORE if self.intermediates > MAX_INTERMEDIATES else CSI_INTERMEDIATE
        elif state == CSI_INTERMEDIATE:  # a parameter byte after an intermediate: malformed
            self.state = CSI_IGNORE
        elif byte <= 0x39:  # digit
            if self.nparams == 1:
                self.second_given = True
            value = (self.param if self.param > 0 else 0) * 10 + byte - 0x30
            self.param = value if value < MAX_PARAM else MAX_PARAM
            self.state = CSI_PARAM
        elif byte <= 0x3B:  # ':' or ';'
            self.push_param()
            self.param = 0
            self.state = CSI_PARAM
        elif state == CSI_ENTRY:  # private marker < = > ?
            self.private = byte
            self.state = CSI_PARAM
        else:  # a private marker after parameters: malformed
            self.state = CSI_IGNORE
        return 0

    cdef inline void push_param(self) noexcept nogil:
        self.nparams = self.put_param(self.nparams, <uint32_t>(self.param if self.param > 0 else 0))

    cdef inline int put_param(self, int count, uint32_t value) noexcept nogil:
        """``value`` stored as parameter ``count`` when there is room (the first MAX_PARAMS are kept, the rest
        dropped: SPEC 2.2); the new count. The state machine's push_param and csi_fast's locals both go
        through it."""
        if count < MAX_PARAMS:
            self.params[count] = value
            count += 1
        return count

    cdef Py_ssize_t string(self, const uint8_t *data, Py_ssize_t pos, Py_ssize_t n) except -1 nogil:
        """Skip control-string payload up to the next byte that may end it; return the new position."""
        cdef bint osc = self.state == OSC_STRING
        cdef Py_ssize_t at
        cdef uint8_t byte
        while True:
            at = pos
            while at < n:
                byte = data[at]
                if byte == LF or byte == CAN or byte == SUB or byte == ESC or (byte == BEL and osc):
                    break
                at += 1
            self.string_bytes += at - pos
            if at == n:
                return n
            byte = data[at]  # the stop byte (read again so the compiler sees it is always set)
            if byte == LF:
                if self.string_bytes > self.max_string_bytes:
                    # SPEC 2.2: an overlong unterminated string is abandoned at the next LF, which is executed.
                    self.stats[S_ABANDONED] += 1
                    self.state = GROUND
                    self.execute(LF)
                    return at + 1
                self.string_bytes += 1
                pos = at + 1
            elif byte == ESC:  # ST (ESC \) or the start of a new sequence
                self.stats[S_SEQUENCES] += 1
                self.enter_escape()
                return at + 1
            elif byte == BEL:  # BEL ends an OSC (xterm)
                self.state = GROUND
                return at + 1
            else:  # CAN, SUB
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
        self.sink.print_cps(&cp, 1)
        self.last = cp
        return 0

    # ------------------------------------------------------------------ dispatch

    cdef int execute(self, uint8_t byte) except -1 nogil:
        self.last = self.rep_char = 0  # a control between a character and REP: nothing to repeat
        if BS <= byte <= CR:
            return self.sink.execute(byte)
        self.stats[S_CONTROLS] += 1
        return 0

    cdef Py_ssize_t fold_frames(self, const uint8_t *data, Py_ssize_t pos, Py_ssize_t n) except -1 nogil:
        """After a CR at ``pos - 1`` (executed: the cursor is at column 0 and nothing is to be repeated), skip
        the frames that the next frame covers (the throughput issue: a progress bar's frames then cost a scan,
        not a decode and a write each). A frame is the plain text (frame_end) between this CR and the next;
        it is skipped when it is at most ``frame_limit`` cells (it does not wrap) and the frame after it
        starts with at least as many plain cells: those overwrite every cell it wrote, from column 0, in the
        same line, so the line, the cursor and the window's limits end as they would have (a line's cells
        and the window's count only grow from one frame to the next, and its limits commit greedily from
        the top). What it overwrote the next frame overwrites too and counts; the skipped frame's characters
        themselves are counted here, as the next frame's write would have (a wide one once: a write counts
        the cell that holds a character, not its padding). Returns where decoding goes on: the start of
        the first frame not skipped, right after a CR, so the state is again the one after a CR. Only within
        ``data``: a frame that the chunk cuts is decoded, so any chunking gives the same result."""
        cdef Py_ssize_t limit = self.sink.frame_limit(), cells, chars, next_cells, next_chars, end, next_end, start
        cdef Py_ssize_t skipped = 0
        cdef bint sized = self.sink.cell_frames
        cdef Py_ssize_t clean = -1  # (sized: the cells frame_clean said yes to; the row does not change here)
        if limit == 0:
            return pos
        if data + pos == self.frame_at:
            end = self.frame_stop
            cells = self.frame_cells
            chars = self.frame_chars
        elif sized:
            end = cell_frame_end(data, pos, n, &cells, &chars)
        else:
            end = frame_end(data, pos, n, &cells)
            chars = cells
        while end < n and data[end] == CR and cells <= limit:
            start = end + 1
            if sized:
                next_end = cell_frame_end(data, start, n, &next_cells, &next_chars)
            else:
                next_end = frame_end(data, start, n, &next_cells)
                next_chars = next_cells
            # (a sized screen: only over cells that hold no padding but a wide character's own, and none in the
            # one after the next frame's; Sink.frame_clean, asked again only for a longer frame)
            # (and not a frame as wide as the row before one that wraps: a wide character at the last column
            # wraps before it is written, and leaves that cell as the frame wrote it; round 57)
            if next_cells < cells or (sized and cells == limit and next_cells > limit) or (
                    sized and next_cells > clean and not self.sink.frame_clean(next_cells)):
                self.frame_at = data + start  # (frames that shrink: each is scanned once, not twice)
                self.frame_stop = next_end
                self.frame_cells = next_cells
                self.frame_chars = next_chars
                break
            if sized and next_cells > clean:
                clean = next_cells
            skipped += chars  # (the characters its write would have overwritten: a wide one is one, not two)
            pos = start
            end = next_end
            cells = next_cells
            chars = next_chars
        self.stats[S_OVERWRITTEN] += skipped
        if cells and cells == end - pos and end < n and (data[end] == CR or data[end] == LF):
            # The frame that is drawn is printable ASCII (as many cells as bytes) and a CR or LF ends it: print
            # it from here rather than scan it again (a line after a CR, a frame that shrinks), as text_run
            # would have printed it. A scan that found no frame to skip then costs nothing twice.
            if data[end] == LF:
                self.sink.print_ascii_line(data + pos, cells)
                self.last = self.rep_char = 0  # (execute's: nothing to repeat after a control)
                return end + 1
            self.sink.print_ascii(data + pos, cells)  # (the CR, executed next, leaves nothing to repeat)
            return end
        return pos

    cdef int csi_dispatch(self, uint8_t final) except -1 nogil:
        """A CSI sequence without intermediates, its parameters in ``params``."""
        cdef int i
        if self.private:
            if self.private == PRIVATE_DEC and (final == DECSET or final == DECRST):
                for i in range(self.nparams):
                    self.sink.private_mode(self.params[i], final == DECSET)
            return 0
        if final == SGR:
            return 0
        if final == DECSTBM and self.nparams > 1 and self.params[1] == 0 and self.second_given:
            # tmux's input_get (input.c): a parameter given as 0 takes its minimum, an empty one its default;
            # for DECSTBM's bottom margin those differ (row 1 against the last row), and a sink is only ever
            # handed 0 for both (SPEC 2.8: where terminals differ, tmux)
            self.params[1] = 1
        if final == REP:  # SPEC 2.3 rev 2: only right after a printed character (or a REP)
            self.last = self.rep_char
            if self.last:
                self.sink.repeat(self.last, self.params[0] if self.nparams and self.params[0] else 1)
            return 0
        return self.sink.csi_dispatch(self.params, self.nparams, final)


cdef class RecordingSink(Sink):
    """A sink that writes down every call (vte's test ``Dispatcher``): ``parser_events`` shows what the parser
    makes of a stream, for tests and for debugging one. Not on any hot path: each call takes the GIL."""

    cdef list events

    cdef int reset(self) except -1 nogil:
        return 0

    cdef int finish(self) except -1 nogil:
        return 0

    cdef int print_ascii(self, const uint8_t *text, Py_ssize_t n) except -1 nogil:
        with gil:
            self.events.append(("print", (<bytes>(<const char *>text)[:n]).decode("ascii")))
        return 0

    cdef int print_cps(self, const uint32_t *cps, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t i
        cdef uint32_t widest = 0
        for i in range(n):
            widest = cps[i] if cps[i] > widest else widest
        with gil:
            self.events.append(("print", ucs4_str(cps, n, widest)))
        return 0

    cdef int execute(self, uint8_t byte) except -1 nogil:
        with gil:
            self.events.append(("execute", byte))
        return 0

    cdef int esc_dispatch(self, uint8_t final) except -1 nogil:
        with gil:
            self.events.append(("esc", final))
        return 0

    cdef int csi_dispatch(self, const uint32_t *params, int nparams, uint8_t final) except -1 nogil:
        with gil:
            self.events.append(("csi", tuple([params[i] for i in range(nparams)]), final))
        return 0

    cdef int repeat(self, uint32_t char, Py_ssize_t count) except -1 nogil:
        with gil:
            self.events.append(("repeat", chr(char), count))
        return 0

    cdef int private_mode(self, uint32_t mode, bint enable) except -1 nogil:
        with gil:
            self.events.append(("private_mode", mode, bool(enable)))
        return 0


def parser_events(chunks, max_string_bytes=DEFAULTS.max_string_bytes):
    """The calls the parser makes on its sink for ``chunks`` (an iterable of bytes), and its stats:
    ``(events, stats)``. The twin of ``_parser_py.parser_events``."""
    cdef int64_t stats[N_STATS]
    cdef RecordingSink sink = RecordingSink()
    cdef Parser parser = Parser()
    cdef int i
    for i in range(N_STATS):
        stats[i] = 0
    sink.events = []
    sink.stats = &stats[0]
    parser.sink = sink
    parser.stats = &stats[0]
    parser.max_string_bytes = max_string_bytes
    parser.reset()
    for chunk in chunks:
        data = bytes(chunk)
        if data:
            parser.feed(<const uint8_t *><const char *>data, len(data), HUGE)
    parser.finish()
    return sink.events, {key: stats[i] for i, key in enumerate(STAT_KEYS)}
