# The Unicode policy (SPEC 2.5) in C: the same decisions as _unicode_policy.apply_policy, character by
# character, so that the policy costs no Python work per character.

cdef inline bint invisible_char(uint32_t cp) noexcept nogil:
    """An invisible format character (SPEC 2.5): shown by the strict policy only."""
    return (cp == 0x200B or 0x2060 <= cp <= 0x2064 or cp == 0xFEFF or cp == 0xAD or cp == 0x180E or cp == 0x200E
            or cp == 0x200F or cp == 0x61C)


cdef inline bint policy_char(uint32_t cp) noexcept nogil:
    """Could the Unicode policy change this character (any policy)? Mirrors _unicode_policy's classes. (Not
    U+200C-U+200D, the joiners of emoji sequences and of Persian and Indic words, nor U+2065, unassigned,
    though they sit between characters that are: until round 34 each made a call's whole text go through
    policy_into.)"""
    if cp < 0xAD:
        return False
    if cp == 0xAD or cp == 0x61C or cp == 0x180E or cp == 0xFEFF:
        return True
    if cp == 0x200B or 0x200E <= cp <= 0x200F or 0x2028 <= cp <= 0x202E or 0x2060 <= cp <= 0x2064:
        return True
    return 0x2066 <= cp <= 0x2069 or 0xE0000 <= cp <= 0xE007F


cdef extern from *:
    """
    /* A character the Unicode policy leaves as it is, whatever the policy (_policy_c.policy_char and the
       black flag, which starts a flag sequence): branch-free, so that the loop below vectorises. */
    static inline uint32_t acp_policy_kept(uint32_t c) {
        return !((c == 0xADu) | (c == 0x61Cu) | (c == 0x180Eu) | (c == 0xFEFFu) | (c == 0x200Bu)
                 | (c - 0x200Eu < 2u) | (c - 0x2028u < 7u) | (c - 0x2060u < 5u) | (c - 0x2066u < 4u)
                 | (c - 0xE0000u < 0x80u) | (c == 0x1F3F4u));
    }
    /* How many cells of a block of 16 the policy leaves as they are before the first it may change (16: all of
       them); the ones before such a cell are ORed into *seen (a whole block is, by the caller). The exact test
       of a block that the cheap one did not pass: with an early exit, as the caller stops at such a cell and
       returns the cells before it too. It tested all 16 cells (GCC did not vectorise that either) and
       returned the whole blocks before: where such characters are dense, the caller took one character and
       came back to a block cut at the same start (a U+202E every 3 characters: 80 MB/s before round 34, 33
       after it; round 36). */
    static inline Py_ssize_t acp_kept_prefix(const uint32_t *src, uint32_t *seen) {
        Py_ssize_t j = 0;
        uint32_t bits = 0;
        while (j < 16 && acp_policy_kept(src[j])) {
            bits |= src[j];
            j++;
        }
        if (j < 16)
            *seen |= bits;
        return j;
    }
    /* Copy cells to dst while whole blocks of 16 are characters the policy leaves as they are; return how
       many were copied and OR them into *seen. Text below U+0100 but U+00AD (ASCII, Latin-1, and the
       newlines and tabs of a call's text) passes the first test, other scripts the exact one. A block is copied before
       it is tested (dst has room for n). */
    static inline Py_ssize_t acp_copy_policy_kept(uint32_t *restrict dst, const uint32_t *restrict src,
                                                  Py_ssize_t n, uint32_t *seen) {
        Py_ssize_t k = 0;
    #if defined(ACP_HAVE_SSE2_COPIES)
        /* (GCC did not vectorise the loop below: it tested a cell at a time, 5 instructions a cell) */
        const __m128i zero = _mm_setzero_si128(), soft_hyphen = _mm_set1_epi32(0xAD), latin1 = _mm_set1_epi32(0xFF);
        __m128i bits = zero;
        while (k + 16 <= n) {
            __m128i block = zero, soft = zero;
            for (int j = 0; j < 4; j++) {
                __m128i c = _mm_loadu_si128((const __m128i *)(src + k + 4 * j));
                _mm_storeu_si128((__m128i *)(dst + k + 4 * j), c);
                block = _mm_or_si128(block, c);
                soft = _mm_or_si128(soft, _mm_cmpeq_epi32(c, soft_hyphen));
            }
            if (_mm_movemask_epi8(_mm_or_si128(soft, _mm_andnot_si128(_mm_cmpeq_epi32(_mm_andnot_si128(latin1, block),
                                                                                     zero),
                                                                      _mm_set1_epi32(-1))))) {
                Py_ssize_t kept = acp_kept_prefix(src + k, seen);
                if (kept < 16) {
                    k += kept;
                    break;
                }
            }
            bits = _mm_or_si128(bits, block);
            k += 16;
        }
        bits = _mm_or_si128(bits, _mm_srli_si128(bits, 8));
        bits = _mm_or_si128(bits, _mm_srli_si128(bits, 4));
        *seen |= (uint32_t)_mm_cvtsi128_si32(bits);
    #else
        uint32_t bits = 0;
        while (k + 16 <= n) {
            uint32_t soft = 0, block = 0;
            for (int j = 0; j < 16; j++) {
                uint32_t c = src[k + j];
                dst[k + j] = c;
                block |= c;
                soft |= (uint32_t)(c == 0xADu);
            }
            if ((block >> 8) | soft) {
                Py_ssize_t kept = acp_kept_prefix(src + k, seen);
                if (kept < 16) {
                    k += kept;
                    break;
                }
            }
            bits |= block;
            k += 16;
        }
        *seen |= bits;
    #endif
        return k;
    }
    """
    Py_ssize_t acp_copy_policy_kept(uint32_t *dst, const uint32_t *src, Py_ssize_t n, uint32_t *seen) nogil


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
    cdef Py_ssize_t n, i = 0, j, m, copied, step
    cdef const uint32_t *data
    cdef uint32_t cp, maxchar = 0x7F, seen = 0
    # Blocks are not tried again before this cell: the last try stopped at a character the policy may change
    # (or at the text's last cells), and where they are dense each try cost a block copy for a few cells
    cdef Py_ssize_t blocks_from = 0
    cdef int64_t counts[4]
    cdef int category
    buf_flatten(src)
    n = src.len
    data = src.data
    counts[0] = counts[1] = counts[2] = counts[3] = 0
    dst.len = 0
    dst.flags = 0
    buf_reserve(dst, n + 64)
    while i < n:
        if dst.cap - dst.len < (n - i) + 16:
            buf_reserve(dst, (n - i) + 64)
        # The cells the policy leaves as they are, 16 at a time: one bidi mark in a call's text made all of
        # it come through the loop below, 12 instructions a cell (2/3 of a call of huge moves; round 34).
        if i >= blocks_from:
            m = acp_copy_policy_kept(dst.data + dst.len, data + i, n - i, &seen)
            dst.len += m
            i += m
            if i == n:
                break
            blocks_from = i + 16
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
            # the run of this character from here at once (REP's copies: 1,025 a sequence, each its own turn of
            # this loop before, 56 instructions; round 43): counted, and its markers copied from the first,
            # doubling
            j = i
            while j < n and data[j] == cp:
                j += 1
            counts[category] += j - i + 1
            if category != 2:
                m = 8 * (j - i + 1)
                buf_reserve(dst, m + (n - j) + 16)
                put_shown(dst, cp)
                copied = 8
                while copied < m:
                    step = copied if copied <= m - copied else m - copied
                    memcpy(dst.data + dst.len - 8 + copied, dst.data + dst.len - 8, step * sizeof(uint32_t))
                    copied += step
                dst.len += m - 8
            i = j
    # (an OR of cells has the str kind of their largest, 0x80, 0x100 and 0x10000 being powers of 2; past
    # U+10FFFF it is no character, so it is clamped)
    if seen > maxchar:
        maxchar = seen if seen <= 0x10FFFF else 0x10FFFF
    dst.maxchar = maxchar
    if stats != NULL:
        stats[S_BIDI] += counts[0]
        stats[S_SEPARATORS] += counts[1]
        stats[S_TAGS] += counts[2]
        stats[S_INVISIBLE] += counts[3]
    return 0
