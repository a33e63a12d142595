# The Unicode policy (SPEC 2.5) in C: the same decisions as _unicode_policy.apply_policy, character by
# character, so that the policy costs no Python work per character.

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
    cdef Py_ssize_t n, i = 0, j, m
    cdef const uint32_t *data
    cdef uint32_t cp, maxchar = 0x7F
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
