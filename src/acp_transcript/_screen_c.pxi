# The screen sink (SPEC 2.8, sized rendering): the twin of _screen_py.ScreenSink (see there for the model
# and its tmux 3.3a references). A screen is a C struct (swapped by value for the alternate screen, as the
# render sink's windows are); a row is an array of cells: a code point, BLANK, PAD (the right half of a
# wide character) or MARKED | index, a character with zero-width characters after it, kept in the sink's
# mark pool.

# ---------------------------------------------------------------------------------------------- widths

cdef enum:
    MARKED = 0x80000000u  # a cell value with this bit is an index into the mark pool
    WIDE_BELOW = 0x1100  # no character below is wide (tests/test_widths.py checks); marks are above
    # first_unclean passes blocks of one-cell characters (acp_narrow_blocks) in spans of this many cells or
    # more: the test of a shorter span (a key typed, a word) would cost more than its loop
    NARROW_BLOCKS_FROM = 16

ctypedef struct Span:
    uint32_t start, stop  # [start, stop)
    uint8_t width

# The committed table (_widths.py), read once at import: one byte per BMP code point, spans above it.
cdef uint8_t BMP_WIDTH[0x10000]
cdef Span *ASTRAL = NULL
cdef Py_ssize_t N_ASTRAL = 0


def _load_widths():
    global ASTRAL, N_ASTRAL
    from ._widths import WIDE, ZERO
    cdef Py_ssize_t i, cp
    spans = []
    memset(BMP_WIDTH, 1, sizeof(BMP_WIDTH))
    for table, width in ((WIDE, 2), (ZERO, 0)):  # ZERO last: it is looked up first in the fallback
        for i in range(0, len(table), 2):
            start, end = table[i], table[i + 1] + 1
            for cp in range(start, min(end, 0x10000)):
                BMP_WIDTH[cp] = width
            if end > 0x10000:
                spans.append((max(start, 0x10000), end, width))
    spans.sort()
    ASTRAL = <Span *>malloc(max(len(spans), 1) * sizeof(Span))
    if ASTRAL == NULL:
        raise MemoryError()
    for i, (start, end, width) in enumerate(spans):
        ASTRAL[i].start = start
        ASTRAL[i].stop = end
        ASTRAL[i].width = width
    N_ASTRAL = len(spans)

_load_widths()


cdef inline int char_width(uint32_t cp) noexcept nogil:
    """Cells taken by ``cp`` (SPEC 2.8): 0, 1 or 2."""
    cdef Py_ssize_t low = 0, high = N_ASTRAL, mid
    if cp < 0x10000:
        return BMP_WIDTH[cp]
    while low < high:
        mid = (low + high) // 2
        if ASTRAL[mid].stop <= cp:
            low = mid + 1
        elif ASTRAL[mid].start > cp:
            high = mid
        else:
            return ASTRAL[mid].width
    return 1


cdef inline int utf8_length(uint32_t cp) noexcept nogil:
    return 1 if cp < 0x80 else 2 if cp < 0x800 else 3 if cp < 0x10000 else 4


cdef inline int utf8_put(uint8_t *d, uint32_t cp) noexcept nogil:
    """cp's UTF-8 at d (the decoder never emits a surrogate); returns its length."""
    if cp < 0x80:
        d[0] = <uint8_t>cp
        return 1
    if cp < 0x800:
        d[0] = <uint8_t>(0xC0 | (cp >> 6))
        d[1] = <uint8_t>(0x80 | (cp & 0x3F))
        return 2
    if cp < 0x10000:
        d[0] = <uint8_t>(0xE0 | (cp >> 12))
        d[1] = <uint8_t>(0x80 | ((cp >> 6) & 0x3F))
        d[2] = <uint8_t>(0x80 | (cp & 0x3F))
        return 3
    d[0] = <uint8_t>(0xF0 | (cp >> 18))
    d[1] = <uint8_t>(0x80 | ((cp >> 12) & 0x3F))
    d[2] = <uint8_t>(0x80 | ((cp >> 6) & 0x3F))
    d[3] = <uint8_t>(0x80 | (cp & 0x3F))
    return 4


cdef inline int utf8_take(const uint8_t *s, uint32_t *cp) noexcept nogil:
    """The character utf8_put wrote at s into *cp; returns its length (valid UTF-8 only: a mark's own)."""
    cdef uint8_t lead = s[0]
    if lead < 0x80:
        cp[0] = lead
        return 1
    if lead < 0xE0:
        cp[0] = ((lead & 0x1Fu) << 6) | (s[1] & 0x3Fu)
        return 2
    if lead < 0xF0:
        cp[0] = ((lead & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu)
        return 3
    cp[0] = ((lead & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) | ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu)
    return 4


# ---------------------------------------------------------------------------------------------- rows

# A character with the zero-width characters after it (a cell MARKED | its index). The marks are UTF-8, so
# that an entry is 28 bytes, not 52 (eleven code points, the most 21 bytes can hold): a screen at
# max_live_cells can hold a million of them, and the pool's pages were most of what such a screen cost
# (benchmarks/README.md, round 41).
cdef enum:
    # Pools of up to this many entries (112 KiB) are compacted by a copy into a new allocation, larger ones in
    # place (compact_marks)
    MARK_COPY_ENTRIES = 4096

ctypedef struct Mark:
    uint32_t base
    uint8_t nbytes  # the cell's UTF-8: the base's and ``marks``, at most MAX_CELL_BYTES
    uint8_t len  # bytes in ``marks``
    uint8_t marks[MAX_CELL_BYTES - 1]

ctypedef struct Row:
    # The cells: flat (line.cells, line.len of them, never ending in BLANK), or, once an edit would cost
    # O(columns) on a long row, chunks (line.chunked; _chunks_c.pxi, as the unsized window's long lines).
    # line.plain and line.narrow are the window's and unused here.
    Line line
    Py_ssize_t used  # tmux's cellused (_screen_py.Screen.used)
    Py_ssize_t lead  # cells [0, lead) are known to be BLANK (0 is always true): EL 1 erases only past it
    bint wrapped
    # While the row is empty and unwritten (used 0, every write since counted in used: end_write,
    # insert_char): its flat buffer's cells [0, zeroed) hold BLANK, the lead of the row that held it before
    # (row_emptied). A character written far from column 0 of a new row (x then RI, IL, DL or SD with auto-wrap
    # off at 1000 columns: a 4 KB memset of blanks a row, 37-49 MB/s; round 57) pads no blanks already there.
    # An LF's scroll (screen_rotate_up) keeps none: plain text's every line passes there (its lead, looked up,
    # cost sized plain text 0.5%).
    uint32_t zeroed  # (in the bint's padding: a row stays 64 bytes)

ctypedef struct RowRange:
    # Rows [top, bottom] of a screen's order (top > bottom: none). Writes that reach them shrink a range to its
    # larger side (range_touch); rotations move it exactly or drop it (range_up, range_moved, screen_mix).
    Py_ssize_t top
    Py_ssize_t bottom

ctypedef struct Screen:
    # Row y is pool[order[y] & ROW_SLOT] (row_at; the entry's top bit says whether the row may hold something,
    # ROW_BUSY). Line inserts, deletes and scrolls (IL, DL, SU, SD, RI, LF at the bottom of a
    # region) rotate a range of ``order``, 4 bytes a row, never the 64-byte rows themselves; and ``order`` is a
    # window into ``block`` with spare entries on both sides, so a rotation that touches an end of the screen
    # can move the window and the few rows on the other side of the range instead (screen_rotate). tmux moves
    # its grid lines (grid_view_insert_lines): 3 MB/s for RI at the top of a 1000-row screen, as this did.
    Row *pool  # the rows; a row keeps its slot while it is on the screen
    Py_ssize_t pooled  # slots of pool in use or free
    Py_ssize_t pool_cap
    uint32_t *free_slots  # slots of rows a resize removed (pool_cap entries)
    Py_ssize_t nfree
    uint32_t *order  # order[0, height): the screen's rows, top to bottom
    Py_ssize_t height  # rows in use
    Py_ssize_t cells  # sum of the row lengths
    uint32_t *block  # the allocation order points into
    Py_ssize_t allocated  # entries in block
    # Every row outside [busy_top, busy_bottom] is blank: no cells, no used count, not wrapped, no large
    # buffer (what empty_row leaves); top > bottom when all are. Erasing a tall screen then visits only
    # rows that may hold something: ED over 1000 empty rows visited each, 0.8-1.2 MB/s (round 13). Kept
    # through rotations, which move rows by position: screen_touch on a write, screen_mix when rows are
    # rearranged, screen_blanked when they are erased, and screen_rotate_up shifts it exactly. Inside it, the
    # entries' busy bits tell the rows that may hold something from the blank ones (screen_next_busy).
    Py_ssize_t busy_top
    Py_ssize_t busy_bottom
    # The hole: rows that are blank, the rows an erase or a scroll left blank, kept while the writes that
    # reach them shrink it (screen_touch) and rotations move it exactly, else dropped. Scans skip it: a busy
    # range spans the screen as soon as something sits near each end (the cursor's row on the last, the row
    # SU 999 brought to the top), and each SU 999 on the alternate screen then tested 1000 entries.
    RowRange hole
    # Rows that hold no cells (they may be busy: wrapped, or used), found by enforce_limits' scan and kept
    # as the hole is, which that scan skips (ScreenSink.commit_rows). Two: a lagged region's rows run on
    # from its end to its start, two runs of the screen's order. has_bare: whether there may be any (one
    # test on the paths of a line feed and a write, which a screen that never reaches the bound takes).
    RowRange bare[2]
    bint has_bare


cdef enum:
    ROTATE_STACK = 64  # rows a rotation keeps on the stack (more: a temporary allocation)
    HOLE_MIN = 32  # fewer blank rows than this are not worth a hole: they are one test of screen_scan_bits
    # fewer rows with no cells than this are not worth a range (Screen.bare): read again by the next scan, they
    # cost less than keeping them (full rows at the bottom of a region of 80x1000 past a small max_live_cells,
    # where each scan passes a row or two: 2% more instructions when all were kept)
    BARE_MIN = 4

# An entry of ``order`` is a row's slot and, in its top bit, whether the row may hold something (set by
# screen_touch, cleared by screen_blank_entry where a row is emptied). Rotations move the bit with the row,
# so a scan for the busy rows inside the busy range reads 4 contiguous bytes a row instead of the 64-byte
# rows themselves (screen_next_busy). Slots are below 2**31: a screen has at most 65,535 rows.
cdef extern from *:
    """
    #define ACP_ROW_BUSY 0x80000000u
    #define ACP_ROW_SLOT 0x7fffffffu
    """
    const uint32_t ROW_BUSY "ACP_ROW_BUSY"
    const uint32_t ROW_SLOT "ACP_ROW_SLOT"


cdef inline Row *row_at(Screen *screen, Py_ssize_t y) noexcept nogil:
    return &screen.pool[screen.order[y] & ROW_SLOT]


cdef inline void screen_blank_entry(Screen *screen, Py_ssize_t y) noexcept nogil:
    """Row y is blank now (emptied or lost): its entry's busy bit is cleared."""
    screen.order[y] &= ROW_SLOT


cdef inline void range_none(RowRange *rows) noexcept nogil:
    rows.top = PY_SSIZE_T_MAX
    rows.bottom = -1


cdef inline void range_touch(RowRange *rows, Py_ssize_t y) noexcept nogil:
    """Row y is written: a range that holds it keeps its larger side."""
    if rows.top <= y <= rows.bottom:
        if y - rows.top >= rows.bottom - y:
            rows.bottom = y - 1
        else:
            rows.top = y + 1


cdef inline void range_take(RowRange *rows, Py_ssize_t top, Py_ssize_t bottom) noexcept nogil:
    """The range grows to hold rows [top, bottom] too (which meet or touch it: screen_no_cells)."""
    if top < rows.top:
        rows.top = top
    if bottom > rows.bottom:
        rows.bottom = bottom


cdef inline void range_up(RowRange *rows, Py_ssize_t top, Py_ssize_t bottom) noexcept nogil:
    """Rows (top, bottom] moved up one, and row top, emptied, came round to bottom (screen_busy_up): a range
    inside moves with them, exactly (a range that started at top ends a row earlier); one that meets them
    only in part is gone."""
    if rows.bottom >= top and rows.top <= bottom:  # (never when there is none)
        if rows.top >= top and rows.bottom <= bottom:
            rows.top -= rows.top > top
            rows.bottom -= 1
        else:
            range_none(rows)


cdef inline void range_moved(RowRange *rows, Py_ssize_t top, Py_ssize_t bottom, Py_ssize_t d) noexcept nogil:
    """Rows [top, bottom] rotated by d (screen_busy_moved): a range that stays inside moves by d; one that
    meets them otherwise is gone."""
    if rows.bottom >= top and rows.top <= bottom:
        if rows.top >= top and rows.bottom <= bottom and top <= rows.top + d and rows.bottom + d <= bottom:
            rows.top += d
            rows.bottom += d
        else:
            range_none(rows)


cdef inline void screen_no_hole(Screen *screen) noexcept nogil:
    range_none(&screen.hole)


cdef inline void screen_no_bare(Screen *screen) noexcept nogil:
    range_none(&screen.bare[0])
    range_none(&screen.bare[1])
    screen.has_bare = False


cdef inline void screen_touch(Screen *screen, Py_ssize_t y) noexcept nogil:
    """Row y may hold something now (cells, a used count, the wrapped flag). Every write that gives a row
    with no cells its first comes here (begin_write, move_cells), so the ranges of rows with none shrink too."""
    screen.order[y] |= ROW_BUSY
    range_touch(&screen.hole, y)
    if screen.has_bare:
        range_touch(&screen.bare[0], y)
        range_touch(&screen.bare[1], y)
    if screen.busy_top > screen.busy_bottom:  # none was (a range shifted past its end: screen_busy_up)
        screen.busy_top = screen.busy_bottom = y
    elif y < screen.busy_top:
        screen.busy_top = y
    elif y > screen.busy_bottom:
        screen.busy_bottom = y


cdef inline void screen_mix(Screen *screen, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """Rows [a, b) are about to be rearranged: if any of them may hold something, any of them may after, and
    the hole and the ranges of rows with no cells are gone. (Only when it meets them would do; the test cost
    the line moves 6% more instructions, a call of unwrap that GCC stopped inlining into move_lines.)"""
    if screen.busy_top <= screen.busy_bottom and screen.busy_top < b and screen.busy_bottom >= a:
        screen_no_hole(screen)
        if screen.has_bare:
            screen_no_bare(screen)
        if a < screen.busy_top:
            screen.busy_top = a
        if b - 1 > screen.busy_bottom:
            screen.busy_bottom = b - 1


cdef inline void screen_blanked(Screen *screen, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """Rows [a, b) are blank now: the busy rows shrink where they end inside them; they are the hole if they
    are HOLE_MIN rows or more, and more rows than it. (Every IL and DL blanks a row: as a hole each cost the
    line moves 4-8% more instructions, for no scan saved.)"""
    if b - a >= HOLE_MIN and b - a > screen.hole.bottom + 1 - screen.hole.top:
        screen.hole.top = a
        screen.hole.bottom = b - 1
    if a <= screen.busy_top and screen.busy_bottom < b:
        screen.busy_top = PY_SSIZE_T_MAX
        screen.busy_bottom = -1
    elif a <= screen.busy_top < b:
        screen.busy_top = b
    elif a <= screen.busy_bottom < b:
        screen.busy_bottom = a - 1


cdef void screen_no_cells(Screen *screen, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """Rows [a, b) hold no cells (enforce_limits' scan passed them): a range of such rows (Screen.bare) that they
    meet or touch takes them in (and the other one too, if it then meets that one); else they replace the
    smaller one. (Rows with no cells together are rows with no cells.)"""
    cdef RowRange *rows
    cdef RowRange *other
    cdef int i
    if a >= b:
        return
    screen.has_bare = True
    for i in range(2):
        rows = &screen.bare[i]
        if a <= rows.bottom + 1 and b >= rows.top:  # (never a range that is none)
            range_take(rows, a, b - 1)
            other = &screen.bare[1 - i]
            if rows.top <= other.bottom + 1 and rows.bottom + 1 >= other.top:
                range_take(rows, other.top, other.bottom)
                range_none(other)
            return
    rows = &screen.bare[0]
    if screen.bare[1].bottom - screen.bare[1].top < rows.bottom - rows.top:
        rows = &screen.bare[1]
    rows.top = a
    rows.bottom = b - 1


cdef inline Py_ssize_t screen_next_busy(Screen *screen, Py_ssize_t y, Py_ssize_t stop) noexcept nogil:
    """The first row of [y, stop) that is not blank, stop if none. Blank is what empty_row leaves (the rows
    outside a screen's busy range are): no cells, no used count, not wrapped, no large buffer. A busy range
    can span many blank rows (a full row above a region and the cursor on its last row span the region):
    the hole is skipped, and the rest is read from the busy bits (screen_scan_bits). A set bit is a row that
    may be busy: the callers handle a blank one as the rows they skip."""
    cdef Py_ssize_t found
    if screen.hole.top < stop and screen.hole.bottom >= y:  # the hole meets [y, stop)
        if y < screen.hole.top:
            found = screen_scan_bits(screen.order, y, screen.hole.top)
            if found < screen.hole.top:
                return found
        y = screen.hole.bottom + 1
        if y >= stop:
            return stop
    return screen_scan_bits(screen.order, y, stop)


cdef inline Py_ssize_t screen_scan_bits(const uint32_t *order, Py_ssize_t y, Py_ssize_t stop) noexcept nogil:
    """The first entry of [y, stop) whose busy bit is set, stop if none: 32 entries a test, then 8, then one
    (about 0.5 instructions a row: eight entries a test cost 2, testing the rows themselves 7, and 20 in a
    loop that also calls out)."""
    cdef uint32_t any
    cdef int i
    while stop - y >= 32:  # (y may be PY_SSIZE_T_MAX, an empty busy range's top: y + 32 would overflow)
        any = 0
        for i in range(32):  # (a fixed count: GCC's -O3 ORs these four entries a vector instruction)
            any |= order[y + i]
        if any & ROW_BUSY:
            break
        y += 32
    while stop - y >= 8:
        if (order[y] | order[y + 1] | order[y + 2] | order[y + 3] | order[y + 4] | order[y + 5]
                | order[y + 6] | order[y + 7]) & ROW_BUSY:
            break
        y += 8
    while y < stop:
        if order[y] & ROW_BUSY:
            return y
        y += 1
    return stop


cdef int screen_place(Screen *screen, Py_ssize_t height) except -1 nogil:
    """A new block for ``height`` rows and their spare entries, the current rows in its middle."""
    # Spare entries on each side as many as the rows (4 bytes a row, against a Row's 64): a line feed at the
    # bottom then recentres the window once per ``height`` of them, O(1) a line feed. (1,024 at most, as it
    # was, cost a 65,535-row screen a 256 KB memmove every 1,024 line feeds: 447 instructions a line feed,
    # 256 of them the memmove's.)
    cdef Py_ssize_t slack = height + 1, allocated = height + 2 * slack
    cdef uint32_t *block = <uint32_t *>malloc(allocated * sizeof(uint32_t))
    if block == NULL:
        with gil:
            raise MemoryError()
    if screen.height:
        memcpy(block + slack, screen.order, screen.height * sizeof(uint32_t))
    free(screen.block)
    screen.block = block
    screen.allocated = allocated
    screen.order = block + slack
    return 0


cdef int screen_new(Screen *screen, Py_ssize_t height) except -1 nogil:
    """A screen of ``height`` empty rows."""
    cdef Py_ssize_t y
    screen_forget(screen)
    screen.pool = <Row *>calloc(height + 1, sizeof(Row))
    screen.free_slots = <uint32_t *>malloc((height + 1) * sizeof(uint32_t))
    if screen.pool == NULL or screen.free_slots == NULL:
        screen_free(screen)
        with gil:
            raise MemoryError()
    screen.pooled = height
    screen.pool_cap = height + 1
    screen_place(screen, height)
    screen_no_hole(screen)
    screen_no_bare(screen)
    for y in range(height):
        screen.order[y] = <uint32_t>y
    screen.height = height
    screen.busy_top = PY_SSIZE_T_MAX
    screen.busy_bottom = -1
    return 0


cdef void screen_forget(Screen *screen) noexcept nogil:
    """The rows now belong to another Screen (a copy of this struct)."""
    memset(screen, 0, sizeof(Screen))


cdef void screen_free(Screen *screen) noexcept nogil:
    cdef Py_ssize_t slot
    for slot in range(screen.pooled):  # free slots hold no cells
        row_free_cells(&screen.pool[slot], NULL)
    free(screen.pool)
    free(screen.free_slots)
    free(screen.block)
    screen_forget(screen)


cdef bint screen_shift(Screen *screen, Py_ssize_t d) noexcept nogil:
    """Move the window d entries toward the block's start (d < 0: toward its end), so that the row at y is
    now at y + d; recentre it first if that side has no room (O(height) once per ``height`` or more
    one-row shifts). False if the block has not that much room."""
    cdef Py_ssize_t front = screen.order - screen.block, back = screen.allocated - front - screen.height
    cdef Py_ssize_t middle = (screen.allocated - screen.height) // 2
    if (d > 0 and front < d) or (d < 0 and back < -d):
        if middle < (d if d > 0 else -d):
            return False
        memmove(screen.block + middle, screen.order, screen.height * sizeof(uint32_t))
        screen.order = screen.block + middle
    screen.order -= d
    return True


cdef inline void move_slots(uint32_t *dst, const uint32_t *src, Py_ssize_t n) noexcept nogil:
    """memmove of n row slots: a loop for the few a rotation at an end of the screen moves (IL on row 2, a
    line feed), where a call to memmove cost more than the move."""
    cdef Py_ssize_t i
    if n > 8:
        memmove(dst, src, n * sizeof(uint32_t))
    elif dst < src:
        for i in range(n):
            dst[i] = src[i]
    else:
        for i in range(n - 1, -1, -1):
            dst[i] = src[i]


cdef int screen_rotate(Screen *screen, Py_ssize_t a, Py_ssize_t b, Py_ssize_t d) except -1 nogil:
    """Rotate rows [a, b) by d (0 < |d| < b - a): the row at y goes to y + d, and the |d| rows pushed past
    one end of the range come in at its other end. Costs min(b - a, a + height - b) + |d| entries: inside
    the range, or by moving the window (screen_shift) and putting back the rows outside the range. The
    caller keeps the busy rows (screen_mix, or screen_rotate_up's exact shift)."""
    cdef Py_ssize_t m, height = screen.height, i
    cdef uint32_t stack[ROTATE_STACK]
    cdef uint32_t *temp = stack
    cdef uint32_t *order
    if 2 * (d if d > 0 else -d) > b - a:  # the same rotation the shorter way round (SU 999 of 1000 rows: by 1)
        d = d - (b - a) if d > 0 else d + (b - a)
    m = d if d > 0 else -d
    if a == 0 and b == height and screen_shift(screen, d):
        # the whole screen (a line feed at its bottom, RI at its top): the rows pushed out of the window
        # come in at its other end, and nothing else moves (the general path below does this too, through
        # its buffer: a line feed at the bottom then cost 244 instructions a byte instead of 186)
        order = screen.order
        for i in range(m):
            if d > 0:
                order[i] = order[height + i]
            else:
                order[height - m + i] = order[i - m]
        return 0
    if m > ROTATE_STACK:
        temp = <uint32_t *>malloc(m * sizeof(uint32_t))
        if temp == NULL:
            with gil:
                raise MemoryError()
    if a + height - b < b - a - m and screen_shift(screen, d):
        order = screen.order  # row y of before is at y + d now
        if d > 0:
            move_slots(temp, order + b, m)  # rows [b - m, b): they come in at a
            move_slots(order, order + m, a)
            move_slots(order + b, order + b + m, height - b)
            move_slots(order + a, temp, m)
        else:
            move_slots(temp, order + a - m, m)  # rows [a, a + m): they come in at b - m
            move_slots(order, order - m, a)
            move_slots(order + b, order + b - m, height - b)
            move_slots(order + b - m, temp, m)
    else:
        order = screen.order
        if d > 0:
            move_slots(temp, order + b - m, m)
            move_slots(order + a + m, order + a, b - a - m)
            move_slots(order + a, temp, m)
        else:
            move_slots(temp, order + a, m)
            move_slots(order + a, order + a + m, b - a - m)
            move_slots(order + b - m, temp, m)
    if temp != stack:
        free(temp)
    return 0


cdef int screen_remove_row(Screen *screen, Py_ssize_t y) except -1 nogil:
    """Row y goes (its cells freed; the caller has accounted them); the rows below move up."""
    cdef uint32_t slot = screen.order[y] & ROW_SLOT
    row_free_cells(&screen.pool[slot], NULL)
    memset(&screen.pool[slot], 0, sizeof(Row))
    screen.free_slots[screen.nfree] = slot
    screen.nfree += 1
    if y < screen.height - 1 - y:  # the rows above move down instead, and the window one row on
        memmove(screen.order + 1, screen.order, y * sizeof(uint32_t))
        screen.order += 1
    else:
        memmove(screen.order + y, screen.order + y + 1, (screen.height - y - 1) * sizeof(uint32_t))
    screen.height -= 1
    return 0


cdef int screen_settle(Screen *screen, Py_ssize_t top, Py_ssize_t bottom, Py_ssize_t k) except -1 nogil:
    """Rows [top, bottom] rotated back by k (a region's lag: ScreenSink.settle), the shorter way round."""
    cdef Py_ssize_t size = bottom + 1 - top
    screen_mix(screen, top, bottom + 1)
    return screen_rotate(screen, top, bottom + 1, -k if 2 * k <= size else size - k)


cdef inline int screen_rotate_up(Screen *screen, Py_ssize_t top, Py_ssize_t bottom,
                                 ChunkSpares *spares) except -1 nogil:
    """Rows (top, bottom] move up one; row top's cells (emptied; the caller has accounted them) are reused
    for the new empty row at bottom: scrolling a full screen line by line allocates nothing (a large
    buffer is freed instead, as empty_row does), and moves no row (screen_rotate moves the window)."""
    cdef Row *row = row_at(screen, top)
    if row.line.cap > SPARE_MAX_CAP or row.line.chunked != NULL:
        row_release(row, spares)
    row.line.len = row.used = row.zeroed = 0
    row.wrapped = False
    screen_blank_entry(screen, top)
    if top == 0 and bottom == screen.height - 1 and screen_shift(screen, -1):
        # a line feed at the bottom of the screen, plain text's every line: screen_rotate's first case, here so
        # that it stays inlined (a call to screen_rotate cost plain text at 80x24 1.3 instructions a byte)
        screen.order[bottom] = (screen.order - 1)[0]  # (the slot pushed out at the top)
    elif bottom > top:
        screen_rotate(screen, top, bottom + 1, -1)
    return 0


cdef inline void screen_busy_up(Screen *screen, Py_ssize_t top, Py_ssize_t bottom) noexcept nogil:
    """The busy rows after screen_rotate_up (whose callers call this, so that it stays small enough to be
    inlined into a line feed's path): the ones inside (top, bottom] up one, exactly (the usual case, a line
    feed at the bottom of the screen); when some are outside, the whole range may be busy. (A range that
    ends above its top is empty, however far: screen_touch, screen_mix and the loops over it need no other
    form.)"""
    range_up(&screen.hole, top, bottom)
    if screen.has_bare:
        range_up(&screen.bare[0], top, bottom)
        range_up(&screen.bare[1], top, bottom)
    if screen.busy_top >= top and screen.busy_bottom <= bottom:  # (also when there are none)
        screen.busy_top -= screen.busy_top > top
        screen.busy_bottom -= 1
    else:
        screen_mix(screen, top, bottom + 1)


cdef inline void screen_busy_moved(Screen *screen, Py_ssize_t top, Py_ssize_t bottom, Py_ssize_t d) noexcept nogil:
    """The busy rows after rows [top, bottom] rotated by d, the |d| that came round emptied first (SU, SD and
    ED 2 empty the rows that leave): the ones inside move by d, exactly; when some are outside, the whole
    range may be busy. The hole moves by d if it stays inside, else it is gone; the |d| rows that came round
    are the hole if they are HOLE_MIN or more and more rows than it (SU 999 brings 999 blank rows to the
    bottom)."""
    cdef Py_ssize_t m = -d if d < 0 else d
    range_moved(&screen.hole, top, bottom, d)
    if screen.has_bare:
        range_moved(&screen.bare[0], top, bottom, d)
        range_moved(&screen.bare[1], top, bottom, d)
    if m >= HOLE_MIN and m > screen.hole.bottom + 1 - screen.hole.top:
        screen.hole.top = bottom + 1 - m if d < 0 else top
        screen.hole.bottom = bottom if d < 0 else top + m - 1
    if screen.busy_top > screen.busy_bottom:
        return
    if screen.busy_top >= top and screen.busy_bottom <= bottom:
        screen.busy_top += d
        screen.busy_bottom += d
    else:
        screen_mix(screen, top, bottom + 1)


cdef int screen_insert_row(Screen *screen, Py_ssize_t y) except -1 nogil:
    """An empty row at y; the rows from y move down."""
    cdef uint32_t slot
    cdef Py_ssize_t front = screen.order - screen.block, cap, slots_cap
    if screen.nfree:
        screen.nfree -= 1
        slot = screen.free_slots[screen.nfree]
    else:
        if screen.pooled == screen.pool_cap:
            cap = screen.pool_cap
            grow(<void **>&screen.pool, &cap, screen.pooled + 1, sizeof(Row), 16)
            slots_cap = screen.pool_cap
            grow(<void **>&screen.free_slots, &slots_cap, cap, sizeof(uint32_t), 16)
            screen.pool_cap = cap
        slot = <uint32_t>screen.pooled
        memset(&screen.pool[slot], 0, sizeof(Row))
        screen.pooled += 1
    if front + screen.height == screen.allocated:  # no entry after the window: a new block, slack again
        screen_place(screen, screen.height + 1)
    memmove(screen.order + y + 1, screen.order + y, (screen.height - y) * sizeof(uint32_t))
    screen.order[y] = slot
    screen.height += 1
    return 0


cdef inline Py_ssize_t row_lead(Row *row) noexcept nogil:
    """How many of the row's cells are known to be blank from its start (Row.lead, at most its length)."""
    return row.lead if row.lead < row.line.len else row.line.len


cdef int row_tail(Row *row, Buf *out) except -1 nogil:
    """After a row's cells: a wrapped row's line goes on as far as the row was used, blanks as spaces
    (_screen_py.Screen.row_text)."""
    cdef Py_ssize_t x
    if row.wrapped:
        for x in range(row.used - row.line.len):
            buf_put(out, 0x20)
    return 0


cdef inline void outside(Py_ssize_t begin, Py_ssize_t other, Py_ssize_t n, Py_ssize_t *start,
                         Py_ssize_t *stop) noexcept nogil:
    """The rows of [begin, begin + n) that are not in [other, other + n) (_screen_py._outside)."""
    if begin < other:
        start[0] = begin
        stop[0] = begin + n if begin + n < other else other
    else:
        start[0] = begin if begin > other + n else other + n
        stop[0] = begin + n


cdef inline void row_free_cells(Row *row, ChunkSpares *spares) noexcept nogil:
    """Free a row's cells, flat or chunked (its chunks into ``spares`` while they have room; NULL: none). The
    caller then resets the row."""
    if row.line.cells != NULL:  # (most rows a line move releases are empty: no call)
        free(row.line.cells)
    if row.line.chunked != NULL:
        line_free_chunks(&row.line, spares)


cdef inline void row_release(Row *row, ChunkSpares *spares) noexcept nogil:
    row_free_cells(row, spares)
    memset(row, 0, sizeof(Row))


cdef inline void row_emptied(Row *row) noexcept nogil:
    """The row is empty now, its flat buffer (if any) kept for the next row: its cells up to the lead it had
    are BLANK (Row.zeroed)."""
    row.zeroed = <uint32_t>(row.lead if row.lead < row.line.len else row.line.len)
    row.line.len = row.used = 0


# A sized row's cells are flat (one array) until an edit would cost more than a chunk's cells on it (REP, ECH,
# EL, ICH or DCH over a long row, or a write far past its end): then it becomes chunks (_chunks_c.pxi) for
# the rest of its life on the screen (emptied, it is released), so that every edit costs O(columns / size +
# size) cells, not O(columns): REP then CR over a 65,535-column row rewrote 256 KiB a sequence, 1.6 MB/s
# (benchmarks/README.md, round 19). Reads of a few cells go through row_cell; the text is laid out flat
# once as it is output (row_text).
cdef inline uint32_t row_cell(Row *row, Py_ssize_t x) noexcept nogil:
    """Cell x (< the row's length) of a flat or chunked row."""
    if row.line.chunked == NULL:
        return row.line.cells[x]
    return chunked_cell(row, x)


cdef inline uint32_t cell_in(Row *row, const uint32_t *flat, Py_ssize_t x) noexcept nogil:
    """row_cell for loops that read several cells: ``flat`` is the row's cells if it is flat (NULL if it
    is chunked), held in a local that the row's writes do not make the compiler read again."""
    return flat[x] if flat != NULL else chunked_cell(row, x)


cdef uint32_t chunked_cell(Row *row, Py_ssize_t x) noexcept nogil:
    """Cell x of a chunked row: the walk from the finger (O(1) next to the last cell read or edited)."""
    cdef Py_ssize_t start
    cdef Chunk *chunk = &row.line.chunked.chunks[chunk_find(&row.line, x, &start)]
    return fill_cell(chunk.fill, x - start) if chunk.cells == NULL else chunk.cells[x - start]


cdef inline bint is_wide(uint32_t cell) noexcept nogil:
    """A character cell (no marks) of two columns."""
    return cell >= WIDE_BELOW and char_width(cell) == 2


cdef inline uint32_t *flat_cells(Row *row) noexcept nogil:
    """The row's cells if it is flat, NULL if it is chunked (cell_in)."""
    return row.line.cells if row.line.chunked == NULL else NULL


cdef inline Py_ssize_t row_written(Row *row, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    """Cells holding a character in [start, stop) of a flat or chunked row (stop past its end: to its end).
    The row's lead is blank, so not read: a row written once far from its start is lost in O(1), not
    O(columns) (x then IL walks the cursor's column right, each new row's blanks counted when it scrolls out)."""
    if start < row.lead:
        start = row.lead
    if row.line.chunked != NULL:
        return chunks_written(&row.line, start, stop) if start < stop else 0
    return written_cells(row.line.cells, start, stop if stop < row.line.len else row.line.len)


cdef inline int row_trim(Row *row, Py_ssize_t size) except -1 nogil:
    """A row never ends in a blank: drop its trailing ones (``size``: the chunk size of a chunked row)."""
    if row.line.chunked != NULL:
        return chunks_trim(&row.line, size)
    line_trim(&row.line)
    return 0


cdef inline int row_reserve(Row *row, Py_ssize_t size) except -1 nogil:
    if size > row.line.cap:
        grow(<void **>&row.line.cells, &row.line.cap, size, sizeof(uint32_t), 16)
    return 0


cdef inline Py_ssize_t screen_prev_busy(Screen *screen, Py_ssize_t y, Py_ssize_t start) noexcept nogil:
    """The last row of [start, y] that is not blank, start - 1 if none: screen_next_busy backwards (the hole
    skipped, the rest read from the busy bits)."""
    cdef Py_ssize_t found
    if screen.hole.top <= y and screen.hole.bottom >= start:  # the hole meets [start, y]
        if y > screen.hole.bottom:
            found = screen_scan_bits_back(screen.order, y, screen.hole.bottom + 1)
            if found > screen.hole.bottom:
                return found
        y = screen.hole.top - 1
        if y < start:
            return start - 1
    return screen_scan_bits_back(screen.order, y, start)


cdef inline Py_ssize_t screen_scan_bits_back(const uint32_t *order, Py_ssize_t y, Py_ssize_t start) noexcept nogil:
    """The last entry of [start, y] whose busy bit is set, start - 1 if none: screen_scan_bits backwards."""
    cdef uint32_t any
    cdef int i
    while y - start >= 31:
        any = 0
        for i in range(32):
            any |= order[y - 31 + i]
        if any & ROW_BUSY:
            break
        y -= 32
    while y >= start:
        if order[y] & ROW_BUSY:
            return y
        y -= 1
    return start - 1


cdef Py_ssize_t screen_last_used(Screen *screen) noexcept nogil:
    """The index of the last used row, -1 if none (only busy rows can be). The rows are found by their busy
    bits (screen_prev_busy): a row at a time, live on 80x65,535 with rows 1 and 65,535 busy read every row
    between them, 40 us for one character of text, now 4 (benchmarks/README.md, round 42)."""
    return screen_last_used_in(screen, 0, screen.height)


cdef Py_ssize_t screen_last_used_in(Screen *screen, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    """screen_last_used among the entries [start, stop) of the screen's order: start - 1 if none."""
    cdef Py_ssize_t y, first = start if start > screen.busy_top else screen.busy_top
    if stop > screen.busy_bottom + 1:
        stop = screen.busy_bottom + 1
    if first >= stop:  # (none busy: ED 2 of an empty screen asks)
        return start - 1
    y = stop - 1
    if row_at(screen, y).used:  # (the usual case, the busy range's last row: one test, as before round 42)
        return y
    y = screen_prev_busy(screen, y - 1, first)
    while y >= first:
        if row_at(screen, y).used:
            return y
        y = screen_prev_busy(screen, y - 1, first)
    return start - 1


cdef Py_ssize_t screen_last_text(Screen *screen) noexcept nogil:
    """The index of the last row with cells, -1 if none (only busy rows can have; screen_last_used)."""
    cdef Py_ssize_t y
    if screen.busy_top > screen.busy_bottom:  # (none: ED 2 of an empty screen asks)
        return -1
    y = min(screen.busy_bottom, screen.height - 1)
    if row_at(screen, y).line.len:  # (the usual case, the busy range's last row: one test, as before round 42)
        return y
    y = screen_prev_busy(screen, y - 1, 0)
    while y >= 0 and y >= screen.busy_top:
        if row_at(screen, y).line.len:
            return y
        y = screen_prev_busy(screen, y - 1, 0)
    return -1


cdef extern from *:
    """
    /* Cells holding a character (neither BLANK, 0, nor PAD, 3): a count without branches, so that it
       vectorises (every write onto a row counts what it overwrites, for stats["cells_overwritten"]). */
    #if defined(ACP_HAVE_SSE2_COPIES)
    /* Whole pairs of a character and padding (a wide character's two cells: CJK, Hangul, kana) at the
       start of src, 8 cells a step, while every character is ordinary (acp_ordinary_common, else an emoji): the
       characters' lanes of two vectors picked out with one shuffle and stored as 4 output characters (a
       cell at a time, acp_copy_cells took 13 instructions a cell here). Returns the cells taken; the
       characters are OR-ed into *seen. */
    #define ACP_BELOW32(x, k) _mm_cmplt_epi32(_mm_xor_si128((x), _mm_set1_epi32((int)0x80000000u)), \
                                              _mm_set1_epi32((int)((uint32_t)(k) ^ 0x80000000u)))
    static inline Py_ssize_t acp_copy_pairs(uint32_t *restrict dst, const uint32_t *restrict src, Py_ssize_t n,
                                            uint32_t *seen) {
        Py_ssize_t i = 0;
        __m128i bits = _mm_setzero_si128();
        uint32_t lanes[4];
        for (; i + 8 <= n; i += 8) {
            __m128 a = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(src + i)));
            __m128 b = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(src + i + 4)));
            __m128i chars = _mm_castps_si128(_mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
            __m128i pads = _mm_castps_si128(_mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)));
            __m128i ok = _mm_or_si128(
                ACP_BELOW32(_mm_sub_epi32(chars, _mm_set1_epi32(0x20)), 0x8D),
                _mm_andnot_si128(_mm_cmpeq_epi32(chars, _mm_set1_epi32(0xFEFF)),
                                 ACP_BELOW32(_mm_sub_epi32(chars, _mm_set1_epi32(0x206A)), 0x1F000u - 0x206Au)));
            __m128i paired = _mm_cmpeq_epi32(pads, _mm_set1_epi32(3));
            if (_mm_movemask_epi8(_mm_and_si128(ok, paired)) != 0xFFFF) {
                /* emoji: ordinary from U+1F000 on but the black flag and the tags (tested only here) */
                ok = _mm_or_si128(ok, _mm_andnot_si128(
                    _mm_or_si128(_mm_cmpeq_epi32(chars, _mm_set1_epi32(0x1F3F4)),
                                 ACP_BELOW32(_mm_sub_epi32(chars, _mm_set1_epi32(0xE0000)), 0x80)),
                    ACP_BELOW32(_mm_sub_epi32(chars, _mm_set1_epi32(0x1F000)), 0x100000u - 0x1F000u)));
                if (_mm_movemask_epi8(_mm_and_si128(ok, paired)) != 0xFFFF)
                    break;
            }
            _mm_storeu_si128((__m128i *)(dst + i / 2), chars);
            bits = _mm_or_si128(bits, chars);
        }
        _mm_storeu_si128((__m128i *)lanes, bits);
        *seen |= lanes[0] | lanes[1] | lanes[2] | lanes[3];
        return i;
    }
    #undef ACP_BELOW32
    #endif
    /* A row's cells as text while they are ordinary characters (acp_ordinary), blanks (as spaces) or
       padding (dropped): the cells taken are returned, the characters written in *written, and OR-ed into
       *seen (the str kind, as acp_copy_ordinary). */
    static inline Py_ssize_t acp_copy_cells(uint32_t *restrict dst, const uint32_t *restrict src, Py_ssize_t n,
                                            uint32_t *seen, Py_ssize_t *written) {
        Py_ssize_t i = 0, k = 0;
        uint32_t bits = 0;
        for (; i < n; i++) {
            uint32_t c = src[i];
            if (c == 3u) {
    #if defined(ACP_HAVE_SSE2_COPIES)
                /* padding: more whole pairs may follow (tried here, at padding only, other text pays
                   nothing; and where four pairs may follow, so that short words of Hangul do not) */
                if (i + 9 <= n && src[i + 2] == 3u && src[i + 8] == 3u) {
                    Py_ssize_t m = acp_copy_pairs(dst + k, src + i + 1, n - i - 1, &bits);
                    k += m / 2;
                    i += m;
                }
    #endif
                continue;
            }
            if (c == 0u)
                c = 0x20u;
            else if (!acp_ordinary(c))
                break;
            dst[k++] = c;
            bits |= c;
        }
        *seen |= bits;
        *written = k;
        return i;
    }
    /* The cells holding a character in c[0, n) (not BLANK, 0, nor PAD, 3), counted while every cell
       becomes v, in one pass where a count and then a fill were two (REP and the erases rewrite up to a
       whole row per sequence); sixteen cells a step with SSE2 (the compiler's loop took 13 instructions
       for four cells). A screen's cells are never TAB (1) or FILL (2) (those are the unsized window's), so
       a cell is BLANK or PAD exactly when no bit but the two lowest is set: one AND and one compare a
       vector (two compares and an OR, eight cells a step, cost REP over a 1000-column row 2.4
       instructions a cell). */
    static inline Py_ssize_t acp_fill_cells(uint32_t *c, Py_ssize_t n, uint32_t v) {
        Py_ssize_t i = 0;
        uint32_t count = 0;  /* n is at most a row: 65535 cells */
    #if defined(ACP_HAVE_SSE2_COPIES)
        if (n >= 16) {  /* (a write of a few cells, the usual one, skips the setup and the final sum) */
            const __m128i zero = _mm_setzero_si128(), high = _mm_set1_epi32(~3), value = _mm_set1_epi32((int)v);
            __m128i empty = zero;  /* minus the blank and padding cells, per lane */
            uint32_t lanes[4];
            for (; i + 16 <= n; i += 16) {  /* four blocks a step: the loop's own add, compare and branch once */
                __m128i a = _mm_loadu_si128((const __m128i *)(c + i));
                __m128i b = _mm_loadu_si128((const __m128i *)(c + i + 4));
                __m128i x = _mm_loadu_si128((const __m128i *)(c + i + 8));
                __m128i y = _mm_loadu_si128((const __m128i *)(c + i + 12));
                a = _mm_cmpeq_epi32(_mm_and_si128(a, high), zero);
                b = _mm_cmpeq_epi32(_mm_and_si128(b, high), zero);
                x = _mm_cmpeq_epi32(_mm_and_si128(x, high), zero);
                y = _mm_cmpeq_epi32(_mm_and_si128(y, high), zero);
                empty = _mm_add_epi32(empty, _mm_add_epi32(_mm_add_epi32(a, b), _mm_add_epi32(x, y)));
                _mm_storeu_si128((__m128i *)(c + i), value);
                _mm_storeu_si128((__m128i *)(c + i + 4), value);
                _mm_storeu_si128((__m128i *)(c + i + 8), value);
                _mm_storeu_si128((__m128i *)(c + i + 12), value);
            }
            _mm_storeu_si128((__m128i *)lanes, empty);
            count = (uint32_t)i + lanes[0] + lanes[1] + lanes[2] + lanes[3];
        }
    #endif
        for (; i < n; i++) {
            count += (uint32_t)((c[i] & ~3u) != 0u);
            c[i] = v;
        }
        return (Py_ssize_t)count;
    }
    /* The count alone, as the compiler vectorises it: most writes overwrite a few cells, where the loop
       above cost progress bars on a sized screen 0.7 instructions a byte more. */
    static inline Py_ssize_t acp_written_cells(const uint32_t *c, Py_ssize_t n) {
        uint32_t count = 0;  /* n is at most a row: 65535 cells */
        for (Py_ssize_t i = 0; i < n; i++)
            count += (uint32_t)((c[i] & ~3u) != 0u);
        return (Py_ssize_t)count;
    }
    /* Whole blocks of eight cells from c[0] that put_run may write over with no look at each (clean_take):
       none marked (the top bit), and every padding cell (PAD, 3) right after w, a character clean_take
       found wide already. c[-1] must be readable (the cell before c[0], in the same array). Returns the
       cells passed, a multiple of 8; the first block with another cell is left to clean_take's loop. A
       look at each cell cost 10-13 instructions a cell, and a chunked row lost the width it found at each
       padding cell (`x` then `REP` over a 1000-column row of CJK pairs with auto-wrap off: 17 MB/s;
       round 37). */
    static inline Py_ssize_t acp_clean_blocks(const uint32_t *c, Py_ssize_t n, uint32_t w) {
        Py_ssize_t i = 0;
    #if defined(ACP_HAVE_SSE2_COPIES)
        const __m128i pad = _mm_set1_epi32(3), wide = _mm_set1_epi32((int)w);
        for (; i + 8 <= n; i += 8) {
            __m128i a = _mm_loadu_si128((const __m128i *)(c + i));
            __m128i b = _mm_loadu_si128((const __m128i *)(c + i + 4));
            __m128i pa = _mm_loadu_si128((const __m128i *)(c + i - 1));
            __m128i pb = _mm_loadu_si128((const __m128i *)(c + i + 3));
            /* marked: the sign bit; stray padding: all ones (the sign bit too) */
            __m128i bad = _mm_or_si128(
                _mm_or_si128(a, _mm_andnot_si128(_mm_cmpeq_epi32(pa, wide), _mm_cmpeq_epi32(a, pad))),
                _mm_or_si128(b, _mm_andnot_si128(_mm_cmpeq_epi32(pb, wide), _mm_cmpeq_epi32(b, pad))));
            if (_mm_movemask_ps(_mm_castsi128_ps(bad)))
                break;
        }
    #else
        for (; i + 8 <= n; i += 8) {
            uint32_t bad = 0;
            for (int j = 0; j < 8; j++)
                bad |= (c[i + j] & 0x80000000u) | ((uint32_t)(c[i + j] == 3u && c[i + j - 1] != w) << 31);
            if (bad)
                break;
        }
    #endif
        return i;
    }
    /* Whole blocks of eight cells from c[0] with no mark and no padding at all: one-cell characters and
       blanks, which clean_take passes whatever came before them (a row of text written over, REP over a row
       it filled). Returns the cells passed, a multiple of 8. */
    static inline Py_ssize_t acp_narrow_blocks(const uint32_t *c, Py_ssize_t n) {
        Py_ssize_t i = 0;
    #if defined(ACP_HAVE_SSE2_COPIES)
        const __m128i pad = _mm_set1_epi32(3);
        for (; i + 8 <= n; i += 8) {
            __m128i a = _mm_loadu_si128((const __m128i *)(c + i));
            __m128i b = _mm_loadu_si128((const __m128i *)(c + i + 4));
            /* marked: the sign bit; padding: all ones (the sign bit too) */
            __m128i bad = _mm_or_si128(_mm_or_si128(a, _mm_cmpeq_epi32(a, pad)),
                                       _mm_or_si128(b, _mm_cmpeq_epi32(b, pad)));
            if (_mm_movemask_ps(_mm_castsi128_ps(bad)))
                break;
        }
    #else
        for (; i + 8 <= n; i += 8) {
            uint32_t bad = 0;
            for (int j = 0; j < 8; j++)
                bad |= (c[i + j] & 0x80000000u) | ((uint32_t)(c[i + j] == 3u) << 31);
            if (bad)
                break;
        }
    #endif
        return i;
    }
    """
    Py_ssize_t acp_written_cells(const uint32_t *c, Py_ssize_t n) nogil
    Py_ssize_t acp_clean_blocks(const uint32_t *c, Py_ssize_t n, uint32_t w) nogil
    Py_ssize_t acp_narrow_blocks(const uint32_t *c, Py_ssize_t n) nogil
    Py_ssize_t acp_fill_cells(uint32_t *c, Py_ssize_t n, uint32_t v) nogil
    Py_ssize_t acp_copy_cells(uint32_t *dst, const uint32_t *src, Py_ssize_t n, uint32_t *seen,
                              Py_ssize_t *written) nogil


cdef inline Py_ssize_t written_cells(const uint32_t *cells, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    """Cells holding a character in [start, stop) (_screen_py._written)."""
    return acp_written_cells(cells + start, stop - start) if stop > start else 0


# compact_marks' bookkeeping: one bit an entry of the mark pool (set: a cell still holds it), and for each
# 64 entries, how many live entries come before them. An entry's new index is its rank among the live ones.
cdef extern from *:
    """
    /* The bits set in v, as SWAR (Hacker's Delight, figure 5-2): the same code on every compiler and target
       (MSVC's __popcnt64 needs the POPCNT instruction, GCC's builtin calls libgcc without -mpopcnt). */
    static inline uint32_t acp_popcount64(uint64_t v) {
        v = v - ((v >> 1) & 0x5555555555555555ULL);
        v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
        v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (uint32_t)((v * 0x0101010101010101ULL) >> 56);
    }
    """
    uint32_t popcount64 "acp_popcount64"(uint64_t v) nogil

cdef enum MarkPass:
    MARKS_COPY  # a small pool: each entry is copied to ``fresh[kept]`` as its cell is met, the cell renumbered
    MARKS_FIND  # set each marked cell's bit in ``live``, and note whether the cells meet the entries in order
    MARKS_IN_ORDER  # they did: each entry moves to ``kept`` as its cell is met, and the cell is renumbered
    MARKS_BY_RANK  # they did not: each cell is renumbered to its entry's rank, the entries moved already

cdef void mark_copies(Mark *mark, int size, Py_ssize_t copies) noexcept nogil:
    """The last ``size`` bytes of ``mark``'s marks (the mark just joined) joined again, ``copies`` times or as
    many as fit in MAX_CELL_BYTES (ScreenSink.combine's copies: as that many calls would)."""
    while copies > 0 and mark.nbytes + size <= MAX_CELL_BYTES:
        memcpy(mark.marks + mark.len, mark.marks + mark.len - size, size)
        mark.len += size
        mark.nbytes += size
        copies -= 1


ctypedef struct MarkScan:
    MarkPass what
    uint64_t *live
    const uint32_t *rank
    Mark *marks
    Mark *fresh  # the new pool (MARKS_COPY)
    int64_t last  # the entry met last (MARKS_FIND)
    bint in_order  # every entry met after a lower one, each once (MARKS_FIND)
    Py_ssize_t kept  # entries moved or copied so far (MARKS_IN_ORDER, MARKS_COPY)


cdef inline bint no_mark_in_8(const uint32_t *cells) noexcept nogil:
    """None of cells[0, 8) is marked: one test (an OR the compiler vectorises). A compaction reads every cell
    of both screens twice, and most cells of a screen with few marks have none (a marked character then ICH
    40000 of a full 65,535-column row: 352 instructions a byte cell by cell, 324 before round 41's second
    pass and with it)."""
    return not ((cells[0] | cells[1] | cells[2] | cells[3] | cells[4] | cells[5] | cells[6] | cells[7]) & MARKED)


cdef Py_ssize_t visit_marks(uint32_t *cells, Py_ssize_t n, MarkScan *scan) noexcept nogil:
    """compact_marks' pass ``scan.what`` over n cells, a loop of its own each (one loop testing the pass at
    each cell, its state through ``scan``, cost dense U+202E at 80x24 12 instructions a cell read). Returns
    n."""
    cdef Py_ssize_t x = 0, stop
    cdef uint32_t cell, index
    cdef int64_t last = scan.last
    cdef Py_ssize_t kept = scan.kept
    cdef uint64_t *live = scan.live
    cdef const uint32_t *rank = scan.rank
    cdef Mark *marks = scan.marks
    cdef Mark *fresh = scan.fresh
    while x < n:
        stop = x + 8 if x + 8 <= n else n
        if stop - x == 8 and no_mark_in_8(cells + x):
            x = stop
            continue
        if scan.what == MARKS_COPY:  # (an entry is in one cell at most: kept never passes the old pool's count)
            for x in range(x, stop):
                cell = cells[x]
                if cell & MARKED:
                    fresh[kept] = marks[cell & ~MARKED]
                    cells[x] = MARKED | <uint32_t>kept
                    kept += 1
        elif scan.what == MARKS_FIND:
            for x in range(x, stop):
                cell = cells[x]
                if cell & MARKED:
                    index = cell & ~MARKED
                    live[index >> 6] |= (<uint64_t>1) << (index & 63)
                    if <int64_t>index <= last:
                        scan.in_order = False
                    last = index
        elif scan.what == MARKS_IN_ORDER:  # (index >= kept: the entries below it were met, moved or dead)
            for x in range(x, stop):
                cell = cells[x]
                if cell & MARKED:
                    index = cell & ~MARKED
                    if index != kept:
                        marks[kept] = marks[index]
                    cells[x] = MARKED | <uint32_t>kept
                    kept += 1
        else:
            for x in range(x, stop):
                cell = cells[x]
                if cell & MARKED:
                    index = cell & ~MARKED
                    cells[x] = MARKED | (rank[index >> 6]
                                         + popcount64(live[index >> 6] & (((<uint64_t>1) << (index & 63)) - 1)))
        x = stop
    scan.last = last
    scan.kept = kept
    return n


@cython.final
cdef class ScreenSink(Sink):
    cdef Screen screen
    cdef Screen main  # the main screen while the alternate one is active
    cdef Screen alt_spare  # the alternate screen, blank, kept for the next time it is entered (pool NULL: none)
    cdef bint has_main
    cdef Buf *out  # committed text goes here
    cdef bint drop_alt
    cdef Py_ssize_t max_live_cells
    cdef Py_ssize_t columns, height
    cdef Py_ssize_t cx, cy, rupper, rlower
    cdef bint wrap, origin, zwj
    cdef bint insert  # IRM (CSI 4 h): each character first moves the cells from the cursor right
    cdef Py_ssize_t saved_cx, saved_cy
    cdef bint saved_origin
    cdef Py_ssize_t alt_saved_cx, alt_saved_cy
    cdef bint has_alt_saved
    cdef int64_t hsize
    cdef bint history_open
    cdef Mark *marks
    cdef Py_ssize_t nmarks, marks_cap
    cdef uint32_t *scratch  # REP's characters
    cdef Py_ssize_t scratch_cap
    cdef Py_ssize_t chunk_size  # a row becomes chunks when an edit would touch more cells than this (row_cell)
    cdef ChunkSpares spares  # emptied chunked rows' memory and cells its rows' edits freed, for their next chunks
    cdef uint32_t *staged  # cells prepare_cells hands out for a chunked row, until finish_cells puts them in
    cdef Py_ssize_t staged_cap, staged_y, staged_x, staged_n
    cdef uint32_t *flat  # a chunked row's cells laid out flat for its text (row_text)
    cdef Py_ssize_t flat_cap
    cdef Py_ssize_t lag  # rows scroll_up_lagged took from the region without rotating it yet (settle)
    # the main screen's lag while the alternate screen is shown, and the region it belongs to (set_alt)
    cdef Py_ssize_t main_lag, main_rupper, main_rlower
    cdef bint lags  # whether the region's scrolls may lag (set_region)

    def __dealloc__(self):
        screen_free(&self.screen)
        screen_free(&self.main)
        screen_free(&self.alt_spare)
        spares_free(&self.spares)
        free(self.marks)
        free(self.scratch)
        free(self.staged)
        free(self.flat)

    cdef int reset(self) except -1 nogil:
        screen_free(&self.screen)
        screen_free(&self.main)
        screen_free(&self.alt_spare)
        self.has_main = False
        screen_new(&self.screen, self.height)
        self.cx = self.cy = 0
        self.set_region(0, self.height - 1)
        self.wrap = True
        self.origin = False
        self.insert = False
        self.zwj = False
        self.saved_cx = self.saved_cy = 0
        self.saved_origin = False
        self.has_alt_saved = False
        self.hsize = 0
        self.history_open = False
        self.nmarks = 0
        self.lag = self.main_lag = 0
        return 0

    cdef int resize(self, Py_ssize_t columns, Py_ssize_t height) except -1 nogil:
        """See _screen_py.ScreenSink.resize."""
        cdef Screen *screen
        cdef int which
        cdef Py_ssize_t y, drop
        if self.lag:
            self.settle()
        self.settle_main()
        screen_free(&self.alt_spare)  # (the next alternate screen has the new height)
        for which in range(2):
            if which == 1 and not self.has_main:
                break
            screen = &self.screen if which == 0 else &self.main
            if columns < self.columns:  # (the rows that may hold something, as the fallback's)
                y = screen_next_busy(screen, 0, self.height)
                while y < self.height:
                    if row_at(screen, y).line.len > columns:
                        self.clear_row_from(screen, y, columns)
                    y = screen_next_busy(screen, y + 1, self.height)
            drop = self.height - height
            while drop > 0 and screen.height - 1 > self.cy and not row_at(screen, screen.height - 1).used:
                screen_remove_row(screen, screen.height - 1)
                drop -= 1
            while drop > 0:
                if which == 0:
                    self.scroll_region_full()  # row 0 to the history, an empty row at the bottom...
                    screen_remove_row(screen, screen.height - 1)  # ...which goes at once
                    if self.cy:
                        self.cy -= 1
                else:  # the main screen under the alternate one
                    # Its top row goes, and every row moves up one: the busy range and the hole no longer say
                    # where rows are, and text() reads its blank rows by them (a hole enforce_limits left there
                    # put a line break too many in the output: round 47). Any row may hold something, as after
                    # the loop (which drops the ranges with no cells, Screen.bare: text() does not read them).
                    screen.busy_top = 0
                    screen.busy_bottom = screen.height - 1
                    screen_no_hole(screen)
                    self.text(screen, 1, self.out)
                    screen.cells -= row_at(screen, 0).line.len
                    screen_remove_row(screen, 0)
                drop -= 1
            while screen.height < height:
                screen_insert_row(screen, screen.height)
            screen.busy_top = 0  # (rows came and went: any may hold something; their busy bits went with them)
            screen.busy_bottom = height - 1
            screen_no_hole(screen)
            screen_no_bare(screen)
        self.columns = columns
        self.height = height
        self.set_region(0, height - 1)
        if self.cx > columns - 1:
            self.cx = columns - 1
        if self.cy > height - 1:
            self.cy = height - 1
        return 0

    cdef int clear_row_from(self, Screen *screen, Py_ssize_t y, Py_ssize_t x) except -1 nogil:
        cdef Row *row = row_at(screen, y)
        cdef Py_ssize_t size = row.line.len
        if row.line.chunked != NULL:
            self.stats[S_OVERWRITTEN] += chunks_delete(&row.line, x, size, self.chunk_size)
        else:
            self.stats[S_OVERWRITTEN] += written_cells(row.line.cells, x, row.line.len)
            row.line.len = x
        row_trim(row, self.chunk_size)
        screen.cells += row.line.len - size
        return 0

    cdef int live(self, Buf *out) except -1 nogil:
        cdef Py_ssize_t mark = out.len
        if self.lag:
            self.settle()
        self.text(&self.screen, screen_last_text(&self.screen) + 1, out)
        while out.len > mark and out.data[out.len - 1] == LF:
            out.len -= 1
        return 0

    # ------------------------------------------------------------------ text

    cdef int row_text(self, Screen *screen, Py_ssize_t y, Buf *out) except -1 nogil:
        """Row y's text (_screen_py.Screen.row_text)."""
        cdef Row *row = row_at(screen, y)
        cdef Py_ssize_t x = 0, k, n = row.line.len, written
        cdef uint32_t cell, seen = 0, char
        cdef const uint32_t *cells = row.line.cells
        cdef Mark *mark
        cdef Py_ssize_t lead = row_lead(row)
        cdef bint tried = False
        if row.line.chunked != NULL:  # laid out flat once, as it is output (O(the text))
            grow(<void **>&self.flat, &self.flat_cap, n, sizeof(uint32_t), 64)
            chunks_flatten(&row.line, self.flat)
            cells = self.flat
        buf_reserve(out, n)
        if n and (lead == n or 0x20 <= cells[lead] < 0x7F and acp_printable_ascii(cells + lead, n - lead)):
            # most rows, indented ones too: one vectorised check and one copy (the loop below leaves a
            # row's last cells, after its whole blocks of 16, to a cell-by-cell loop: 22 instructions a
            # byte instead of 18)
            for x in range(lead):
                out.data[out.len + x] = 0x20
            memcpy(out.data + out.len + lead, cells + lead, (n - lead) * sizeof(uint32_t))
            out.len += n
            if out.maxchar < 0x7E:
                out.maxchar = 0x7E
            return row_tail(row, out)
        while x < n:
            cell = cells[x]
            if cell == PAD or cell == BLANK or acp_ordinary(cell):
                # Ordinary characters (no mark: marks have the high bit), blanks and padding: one output
                # cell at most per cell. ASCII-range runs are copied 16 at a time, as line_text does for
                # the unsized window; the rest (wide characters and their padding) in one tight loop.
                buf_reserve(out, n - x)
                if cell < 0xAD and cell != PAD:
                    # (blanks too, from a row's start or a blank: columns aligned by tabs or cursor moves,
                    # where the loop below took 11 instructions a cell; not at each space of a row in
                    # another script, where the first block mostly fails and the conversion cost 2%)
                    k = acp_copy_ordinary_cells(out.data + out.len, cells + x, n - x, &seen, x == 0 or cell == BLANK)
                    out.len += k
                    x += k
                if not tried and x + 16 <= n and cells[x] > PAD and cells[x + 1] != PAD:
                    # Text past 0xAC that is not wide (Latin-1 letters, Greek, Cyrillic, box drawing), 16
                    # cells a block with the whole ordinary test (acp_copy_common, as the window's lines): cell
                    # by cell below it was 37 instructions a cell (a row of é by REP, then LF: 37.8 MB/s;
                    # round 35). Wide characters (their padding next) and blanks take the loop below, and
                    # so does the rest of a row where a block failed (combining marks: one try a row).
                    tried = True
                    k = acp_copy_common(out.data + out.len, cells + x, n - x, &seen)
                    out.len += k
                    x += k
                k = acp_copy_cells(out.data + out.len, cells + x, n - x, &seen, &written)
                out.len += written
                x += k
                continue
            if cell & MARKED:
                mark = &self.marks[cell & ~MARKED]
                buf_put(out, mark.base)
                k = 0
                while k < mark.len:
                    k += utf8_take(mark.marks + k, &char)
                    buf_put(out, char)
            else:  # a character the Unicode policy looks at (buf_put notes it)
                buf_put(out, cell)
            x += 1
        if seen > out.maxchar:
            out.maxchar = seen
        return row_tail(row, out)

    cdef int text(self, Screen *screen, Py_ssize_t stop, Buf *out) except -1 nogil:
        """Rows [0, stop) as transcript text: each row ends with a line break unless it is wrapped. A run of
        blank rows (screen_next_busy) is its line breaks, written in one loop: a row at a time, ``live`` on
        an 80x65,535 screen with one row written at its bottom took 287 us, now 13 (_screen_py.Screen.text;
        benchmarks/README.md, round 42)."""
        cdef Py_ssize_t y = 0, busy
        while y < stop:
            busy = screen_next_busy(screen, y, stop)
            if busy > y:
                buf_put_data_lfs(out, busy - y)
                if busy == stop:
                    break
                y = busy
            self.row_text(screen, y, out)
            if not row_at(screen, y).wrapped:
                buf_put(out, LF)
            y += 1
        return 0

    # ------------------------------------------------------------------ the Sink interface

    cdef int print_ascii(self, const uint8_t *text, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t i = 0
        # (every path writes where a region's lag left the cursor's row, cursor_row, and wraps through the lag,
        # wrap_text: insert mode, a pending ZWJ and auto-wrap off settled it, round 46)
        if self.insert:  # (a character typed: put_char, without put_inserted's look for a run)
            return self.put_char(text[0], 1) if n == 1 else self.put_inserted(text, NULL, n, 0)
        while i < n:
            if self.wrap and not self.zwj:
                self.put_ascii(text + i, NULL, n - i, self.lags)
                break
            if self.stuck(n - i):
                self.put_stuck(text, NULL, i, n)
                break
            self.put_char(text[i], 1)
            i += 1
        return 0

    cdef Py_ssize_t frame_limit(self) noexcept nogil:
        """_screen_py.ScreenSink.frame_limit: the parser may skip a frame of one- and two-cell characters
        after a CR that the next frame covers, while auto-wrap is on and insert mode off, with no ZWJ
        pending."""
        return self.columns if self.wrap and not self.insert and not self.zwj else 0

    cdef bint frame_clean(self, Py_ssize_t cells) noexcept nogil:
        """_screen_py.ScreenSink.frame_clean: in cells [0, cells) of the cursor's row no padding but right
        after a wide character, and none in cell ``cells`` (a chunked row: not looked at, no; padding after a
        marked cell: no, without a look at the mark's character). O(cells): what the parser scanned of the
        frame."""
        cdef Row *row = row_at(&self.screen, self.cursor_row())
        cdef Py_ssize_t x = 0, stop = cells + 1 if cells < row.line.len else row.line.len
        cdef uint32_t before
        if row.line.chunked != NULL:
            return False
        while True:  # (a scan for padding as before wide characters were taken: a frame of ASCII costs no more)
            while x < stop and row.line.cells[x] != PAD:
                x += 1
            if x == stop:
                return True
            before = row.line.cells[x - 1] if x else BLANK
            if x == cells or before & MARKED or not is_wide(before):
                return False
            x += 1

    cdef int print_ascii_line(self, const uint8_t *text, Py_ssize_t n) except -1 nogil:
        """Sink.print_ascii_line with direct calls (this class is final): the base's two calls through the
        table, and its own, were 6% of a short line on a screen (``x LF``, callgrind)."""
        self.print_ascii(text, n)
        return self.execute(LF)

    cdef int print_cps(self, const uint32_t *cps, Py_ssize_t n) except -1 nogil:
        """_screen_py.ScreenSink.put_text."""
        cdef Py_ssize_t i = 0, k, run_end = 0
        cdef int width
        if self.insert:  # (on the cursor's row where a region's lag left it, as the rest: round 46)
            return self.put_char(cps[0], char_width(cps[0])) if n == 1 else self.put_inserted(NULL, cps, n, 0)
        while i < n:
            if self.wrap and not self.zwj and cps[i] < 0x7F:
                k = i + 1
                while k < n and cps[k] < 0x7F:
                    k += 1
                self.put_ascii(NULL, cps + i, k - i, self.lags)  # (wraps through the lag: wrap_text)
                i = k
                continue
            if not self.wrap and cps[i] < 0x7F and self.stuck(3):  # (the same run with auto-wrap off, stuck)
                k = i + 1
                while k < n and cps[k] < 0x7F:
                    k += 1
                if self.stuck(k - i):
                    i = self.put_stuck(NULL, cps, i, k)
                    continue
            width = char_width(cps[i])
            if self.wrap and not self.zwj and width and (width == 1 or self.columns > 1):
                if i >= run_end:  # the run's end, found once: put_char takes its characters one at a time
                    run_end = i + 1  # where put_run cannot, and a scan per character was quadratic (REP of
                    while run_end < n and cps[run_end] >= 0x7F and char_width(cps[run_end]) == width:
                        run_end += 1  # a wide character over a row of them: 0.6 s a sequence at 65,535 columns)
                k = i + self.put_run(cps + i, run_end - i, width)
                if k > i:
                    i = k
                    continue
            self.put_char(cps[i], width)
            i += 1
        return 0

    cdef int put_inserted(self, const uint8_t *text, const uint32_t *cps, Py_ssize_t n, uint32_t fill) except -1 nogil:
        """Text in insert mode (IRM, CSI 4 h): ``text`` (printable ASCII), else the code points ``cps``, else
        ``fill`` n times (REP). As put_char writes it a character at a time (tmux's screen_write_cell: an
        insert of its width at the cursor, grid_view_insert_cells, then the write), but a run of characters
        of one width whose inserts each leave the cells it writes blank at once (insert_run). One at a time,
        each insert moved the rest of the row: REP 1024 then CR in insert mode on a full 1000-column row
        read 0.1 MB/s (benchmarks/README.md, round 43)."""
        cdef Py_ssize_t i = 0, k, take, sx = self.columns, pad, room
        cdef uint32_t char
        cdef int width
        cdef Row *row
        while i < n:
            char = fill if fill else (text[i] if text != NULL else cps[i])
            width = 1 if char < 0x7F else char_width(char)
            take = 0
            if i + 1 < n and width and not self.zwj and self.cx <= sx - 2 * width:  # (a single character: put_char)
                # The characters that fit on the row: each insert leaves the cells its character is written over
                # blank (it moves at least its width of cells, or, at the last column, clears the cell) but a
                # wide character's at sx - 3 or sx - 2, where one cell or none moves, and the others keep what
                # the first insert moved there: the cell the cursor was on (its overwrite then reads it), which
                # that first insert, moving it, cleared if it was padding. So put_char's overwrites clear
                # nothing but that padding (insert_run). A run starts with two characters at least (a single
                # one is put_char's: its insert is the first). And no more than keep the live cells within
                # max_live_cells at every step (each adds at most its width, the first the blanks up to the
                # cursor too): past it put_char commits rows between two characters, which one write after all
                # of them would not.
                take = (sx - self.cx) >> (width - 1)
                row = row_at(&self.screen, self.cursor_row())
                pad = self.cx - row.line.len if self.cx > row.line.len else 0
                room = self.max_live_cells - self.screen.cells - pad
                room = (room if room > 0 else 0) >> (width - 1)
                if take > room:
                    take = room
            k = i + 1
            if cps == NULL:  # (all of one width)
                k = n if i + take > n else (i + take if take > 1 else k)
            else:
                while k < n and k - i < take and char_width(cps[k]) == width:
                    k += 1
            if k - i < 2:
                self.put_char(char, width)
                i += 1
                continue
            # (REP on a chunked row: insert_fill; a screen no wider than a chunk has none, as in put_char)
            if not (fill and sx > self.chunk_size and self.insert_fill(k - i, width, fill)):
                self.insert_run(text + i if text != NULL else NULL, cps + i if cps != NULL else NULL, k - i, width,
                                fill)
            i = k
        return 0

    cdef int insert_run(self, const uint8_t *text, const uint32_t *cps, Py_ssize_t n, int width, uint32_t fill) except -1 nogil:
        """put_inserted's run of n characters of one width: what put_char's n inserts and writes come to. The
        cells from the cursor move right by all their cells at once (those pushed past the margin are lost,
        and counted, as each insert counts them), and then the characters are written over the cells they
        leave (blank, or, where fewer cells moved than were inserted, what was there: the cells the inserts
        one at a time pushed past the margin, counted as overwritten now). A wide character's first insert
        also cleared the padding that then followed it (overwrite: the right half of a wide character the
        cursor was on), which is now past the run."""
        cdef Py_ssize_t cx = self.cx, cy = self.cursor_row(), m = n * width, j
        cdef uint32_t *dst
        cdef Row *row = row_at(&self.screen, cy)  # (a row keeps its slot: the edits below change its cells only;
        # cy is where a region's lag left the cursor's row, as insertcharacter's, round 46)
        self.insertcharacter(m)
        if width == 2:
            self.clear_moved_padding(cy, row, cx + m)
        self.cx = self.cursor_after(cx + m)  # (with auto-wrap off, a character at the last column keeps it there)
        if fill and width == 1:  # (REP: a fill, one chunk on a chunked row)
            return self.write_fill(cy, row, cx, m, fill)
        if fill and self.fills_chunks(row, cx, m):  # (of a wide character: a fill of pairs, as pair_fill)
            return self.fill_chunks(cy, row, cx, m, fill | PAIRED)
        dst = self.prepare_cells(cy, cx, m, True)
        if fill:
            for j in range(n):
                dst[2 * j] = fill
                dst[2 * j + 1] = PAD
        elif text != NULL:
            for j in range(n):
                dst[j] = text[j]
        elif width == 1:
            memcpy(dst, cps, n * sizeof(uint32_t))
        else:
            for j in range(n):
                dst[2 * j] = cps[j]
                dst[2 * j + 1] = PAD
        return self.finish_cells()

    cdef bint insert_fill(self, Py_ssize_t n, int width, uint32_t fill) except -1 nogil:
        """insert_run of n copies of ``fill`` (REP, or a lone wide character: insert_pair) on the cursor's row
        where it is chunked and the insert moves cells (the cursor within the row's cells, the run's cells no
        more than half the columns from it: move_cells' insert): the insert opens the characters' fill (of
        pairs: PAIRED), one edit (chunks_insert_fill). It leaves those cells blank, so the write overwrote
        nothing; the padding the moved cells start with is cleared as after the insert. Inserted as blanks
        and then written, a character and then REP of it in insert mode joined the blanks with their
        neighbours into literal cells, which each insert then moved (of a wide character at 1000 columns:
        4,400 instructions a sequence; round 57). Here and not in insert_run: a branch there cost flat rows'
        runs 26 instructions a call. Returns False, having done nothing, otherwise."""
        cdef Py_ssize_t sx = self.columns, cx = self.cx, cy = self.cursor_row(), m = n * width, size
        cdef Row *row = row_at(&self.screen, cy)
        size = row.line.len
        if row.line.chunked == NULL or cx >= size or size > sx or cx + 2 * m > sx:
            return False
        screen_touch(&self.screen, cy)
        if cx < row.lead:
            row.lead = cx
        chunks_insert_fill(&row.line, cx, m, fill | PAIRED if width == 2 else fill, self.chunk_size)
        if row.line.len > sx:
            self.stats[S_OVERWRITTEN] += chunks_delete(&row.line, sx, row.line.len, self.chunk_size)
        row_trim(row, self.chunk_size)
        self.end_write(row, size, row.line.len, sx)
        if width == 2:
            self.clear_moved_padding(cy, row, cx + m)
        self.cx = self.cursor_after(cx + m)
        return True

    cdef inline int clear_moved_padding(self, Py_ssize_t y, Row *row, Py_ssize_t x) except -1 nogil:
        """After an insert of wide characters' cells that ends at column x: the padding the moved cells start
        with (the right half of a wide character the cursor was on) is cleared, as the first insert's
        overwrite cleared it (insert_run, insert_fill)."""
        cdef Py_ssize_t stop = x
        while stop < row.line.len and row_cell(row, stop) == PAD:
            stop += 1
        if stop > x:
            self.clear_cells(y, x, stop)
        return 0

    cdef Py_ssize_t put_run(self, const uint32_t *cps, Py_ssize_t n, int width) except -1 nogil:
        """_screen_py.ScreenSink.put_run: characters of one width (1 or 2; no space, no ZWJ) with auto-wrap
        on (off: no more than fit on the row; repeat), a row's worth at a time, while the cells they cover
        hold no marks and no padding but a wide character's own, and the cell after them is no padding (_screen_py._clean_span): then what
        put_char does to them one at a time, its clearing of padding included, is writing their cells.
        Returns how many were written (put_char takes the rest)."""
        cdef Py_ssize_t sx = self.columns, cx, take, start = 0, k, y
        cdef Row *row
        cdef uint32_t *dst
        cdef bint clean
        while start < n:
            if self.cx > sx - width:
                self.wrap_text()
                self.cx = 0
            cx = self.cx
            take = (sx - cx) // width
            if take > n - start:
                take = n - start
            y = self.cursor_row()
            row = row_at(&self.screen, y)
            k = self.clean_take(row, cx, take, width)
            clean = k == take  # (else put_char takes the next character, and the run goes on after it)
            take = k
            if take <= 0:
                return start
            dst = self.prepare_cells(y, cx, take * width, True)
            if width == 1:
                memcpy(dst, cps + start, take * sizeof(uint32_t))
            else:
                for k in range(take):
                    dst[2 * k] = cps[start + k]
                    dst[2 * k + 1] = PAD
            self.finish_cells()
            start += take
            self.cx = cx + take * width
            if not clean:
                return start
        return start

    cdef inline Py_ssize_t clean_take(self, Row *row, Py_ssize_t cx, Py_ssize_t take, int width) noexcept nogil:
        """How many of ``take`` characters of ``width`` cells put_run writes from column cx as one write: as
        far as the cells they cover hold no marks and no padding but a wide character's own (the first
        other one ends them: put_char takes the character over it, and the cells before are scanned once
        however many characters put_char writes one at a time), and the cell after them holds no padding.
        A chunked row's fills are passed whole."""
        cdef Py_ssize_t end = cx + take * width, bad
        cdef const uint32_t *cells = flat_cells(row)
        cdef uint32_t before = 0, wide = MARKED  # (first_unclean's state from the cursor on)
        if end > row.line.len:
            end = row.line.len
        bad = end
        if cells != NULL:
            bad = first_unclean(cells, cx, end, True, &before, &wide, width == 1)
        elif cx < end:
            bad = chunks_unclean(&row.line, cx, end, width == 1)
        if bad < end:
            take = (bad - cx) // width
        end = cx + take * width
        while take > 0 and end < row.line.len and row_cell(row, end) == PAD:
            # stray padding put_char would clear: the character before it too (at most twice: a padding
            # cell in the span follows its wide character)
            take -= 1
            end -= width
        return take

    cdef int fill_run(self, uint32_t char, Py_ssize_t n) except -1 nogil:
        """REP of a one-cell character that is not ASCII, with auto-wrap on, or of any one-cell character but
        a space, with auto-wrap off: print_cps's or print_ascii's writes (put_run where clean_take says,
        put_char for the character over a cell where it does not) as fills, so that REP costs what
        put_fill's does, not a cell written one by one (8 MB/s at 1000 columns; with auto-wrap off 1 MB/s,
        round 34). (A space on a blank cell writes nothing, where a fill would write it.)"""
        cdef Py_ssize_t sx = self.columns, cx, take, y
        cdef Row *row
        while n > 0:  # (on the cursor's row where a region's lag left it, as put_char's writes: round 45)
            if self.cx > sx - 1:
                if not self.wrap:  # (REP stops at the margin: n was at most what is left of the row)
                    return 0
                self.wrap_text()
                self.cx = 0
            cx = self.cx
            y = self.cursor_row()
            row = row_at(&self.screen, y)
            take = self.clean_take(row, cx, sx - cx if sx - cx < n else n, 1)
            if take <= 0:
                self.put_char(char, 1)
                n -= 1
                continue
            self.write_fill(y, row, cx, take, char)
            n -= take
            self.cx = self.cursor_after(cx + take)
        return 0

    cdef inline int write_fill(self, Py_ssize_t y, Row *row, Py_ssize_t x, Py_ssize_t n, uint32_t char) except -1 nogil:
        """n cells of ``char`` from column x of the cursor's row (y, ``row``), counting what they overwrite: a
        fill chunk where the row is chunks or becomes them, else cells counted while they are filled (put_fill's,
        fill_run's, put_spaces'; fill_run's counted them first, then filled them: 6% more for x, REP 79, CR with
        auto-wrap off, round 55)."""
        cdef uint32_t *dst
        cdef Py_ssize_t i, covered
        if self.fills_chunks(row, x, n):
            return self.fill_chunks(y, row, x, n, char)
        covered = row.line.len - x  # (before prepare_cells lengthens the row; a flat row: no staging)
        covered = 0 if covered < 0 else (n if covered > n else covered)
        dst = self.prepare_cells(y, x, n, False)
        self.stats[S_OVERWRITTEN] += acp_fill_cells(dst, covered, char)
        for i in range(covered, n):
            dst[i] = char
        return 0

    cdef inline Py_ssize_t cursor_after(self, Py_ssize_t x) noexcept nogil:
        """The cursor after characters were written up to column x (exclusive): with auto-wrap off put_char
        keeps it at the last column, on a screen wider than one (_screen_py.ScreenSink.cursor_after)."""
        return self.columns - 1 if not self.wrap and x > self.columns - 1 and self.columns > 1 else x

    cdef Py_ssize_t pair_fill(self, uint32_t char, Py_ssize_t n) except -1 nogil:
        """REP of a wide character over a chunked row (or one that becomes chunks): put_run's pairs that fit
        on the cursor's row (at most n), where clean_take says, as one fill of pairs (PAIRED, _chunks_c.pxi).
        Returns how many were written, 0 (having done nothing) where put_run writes them: a flat row, or a
        cell at the cursor that is not clean. (Here and not in put_run: a branch there made text in render
        mode, which never calls it, 8-13% slower on this VM, with the same instructions; round 37.)"""
        cdef Py_ssize_t cx = self.cx, take = (self.columns - self.cx) // 2, y = self.cursor_row()
        cdef Row *row = row_at(&self.screen, y)
        if take > n:
            take = n
        if take <= 0 or not self.fills_chunks(row, cx, take * 2):
            return 0
        take = self.clean_take(row, cx, take, 2)
        if take > 0:
            self.fill_chunks(y, row, cx, take * 2, char | PAIRED)
            self.cx = cx + take * 2
        return take

    cdef bint same_pairs(self, uint32_t char, Py_ssize_t k) except -1 nogil:
        """REP of a wide character with auto-wrap off over a flat row that holds its k copies at the cursor
        already, and no padding after them (_screen_py.ScreenSink.fill_run's same cells): each put_char
        would write a copy over a copy (one cell overwritten each) and clear nothing, so only the count,
        the row's used count and the cursor change. put_run's scan and writes of the same row cost 18
        instructions a cell (18 MB/s at 1000 columns; round 34). False, having done nothing, otherwise."""
        cdef Py_ssize_t cx = self.cx, stop = cx + 2 * k, j, y = self.cursor_row()
        cdef Row *row = row_at(&self.screen, y)
        cdef const uint32_t *cells = flat_cells(row)
        cdef uint32_t differ = 0
        if k <= 0 or cells == NULL or stop > row.line.len or (stop < row.line.len and cells[stop] == PAD):
            return False
        for j in range(k):  # (no early exit: it vectorises)
            differ |= (cells[cx + 2 * j] ^ char) | (cells[cx + 2 * j + 1] ^ PAD)
        if differ:
            return False
        self.stats[S_OVERWRITTEN] += k
        self.begin_write(y, row, cx)
        self.end_write(row, row.line.len, row.line.len, stop)
        self.cx = stop
        return True

    cdef int put_spaces(self, Py_ssize_t n) except -1 nogil:
        """_screen_py.ScreenSink.put_spaces: REP of a space with auto-wrap off (n at most what is left of the
        row), as put_char writes each, where clean_take says: a space over a character is written (and
        counted), over a blank cell nothing, and a wide character's padding is cleared by the space over it.
        The cells from the first character to the last as one write, the padding after the last cleared
        first (put_char's overwrite); put_char for a cell that is not clean (REP of a space then CR at 1000
        columns: 0.87 MB/s a put_char a cell; round 34)."""
        cdef Py_ssize_t cx, take, end, first, last, i, y
        cdef Row *row
        cdef const uint32_t *old
        cdef uint32_t *dst
        while n > 0:  # (on the cursor's row where a region's lag left it, as fill_run's: round 46)
            cx = self.cx
            y = self.cursor_row()
            row = row_at(&self.screen, y)
            take = self.clean_take(row, cx, n, 1)
            if take <= 0:
                self.put_char(0x20, 1)
                n -= 1
                continue
            end = cx + take if cx + take < row.line.len else row.line.len
            if end > cx and row_written(row, cx, end) == end - cx:
                # every cell holds a character of one cell (a wide one's padding would not count, and
                # clean_take leaves out a wide character whose padding is past them): spaces over all of
                # them, a fill as fill_run's. REP of a space over the row it blanked, again and again, then
                # costs what REP of another character does (9.4 -> 150 MB/s at 1000 columns, round 34)
                self.write_fill(y, row, cx, end - cx, 0x20)
                n -= take
                self.cx = self.cursor_after(cx + take)
                continue
            old = flat_cells(row)
            if old == NULL and end > cx:  # (a chunked row: laid out flat, as row_text does)
                grow(<void **>&self.flat, &self.flat_cap, row.line.len, sizeof(uint32_t), 64)
                chunks_flatten(&row.line, self.flat)
                old = self.flat
            last = end - 1
            while last >= cx and (old[last] == BLANK or old[last] == PAD):
                last -= 1
            if last >= cx:
                first = cx
                while old[first] == BLANK:  # (no padding first: clean_take)
                    first += 1
                if last + 1 - first > self.scratch_cap:
                    grow(<void **>&self.scratch, &self.scratch_cap, last + 1 - first, sizeof(uint32_t), 64)
                for i in range(last + 1 - first):
                    self.scratch[i] = BLANK if old[first + i] == BLANK or old[first + i] == PAD else 0x20
                self.overwrite(row, last, last + 1, 1, False, 0)
                dst = self.prepare_cells(y, first, last + 1 - first, True)
                memcpy(dst, self.scratch, (last + 1 - first) * sizeof(uint32_t))
                self.finish_cells()
            n -= take
            self.cx = self.cursor_after(cx + take)
        return 0

    cdef int execute(self, uint8_t byte) except -1 nogil:
        cdef Py_ssize_t sx = self.columns, target
        # (CR, HT and a line feed above the region's last row touch no row: no settle)
        if byte == CR:
            self.cx = 0
        elif byte == HT:
            if self.cx < sx - 1:
                target = (self.cx // 8 + 1) * 8
                self.cx = target if target < sx - 1 else sx - 1
        elif byte == BS:  # (at column 0 it reads the row above the cursor's where the lag left it: backspace)
            self.backspace()
        else:  # LF, VT, FF
            if self.lags and self.cy == self.rlower:
                self.scroll_up_lagged()
            else:
                self.linefeed(False)
            self.cx = 0
        return 0

    cdef int esc_dispatch(self, uint8_t final) except -1 nogil:
        if final == RIS:
            self.set_alt(False, False)  # (the main screen, and its lag: set_alt)
            if self.lag:
                # (RIS resets the region and clears the screen by the rows' places; IND, NEL and RI scroll
                # through the lag, DECSC and DECRC only save and move the cursor, and the other finals change
                # no row: HTS after each line at the bottom of a region in the middle of 80x65,535 rotated it
                # back into order each time, 2.5 MB/s; round 45)
                self.settle()
            self.cursormove(0, 0, False)
            self.set_region(0, self.height - 1)
            self.wrap = True
            self.origin = False
            self.insert = False
            self.saved_cx = self.saved_cy = 0
            self.saved_origin = False
            self.clearscreen()
        elif final == DECSC:
            self.save_state()
        elif final == DECRC:
            self.restore_state()
        elif final == IND or final == NEL:
            if final == NEL:
                self.cx = 0
            if self.lags and self.cy == self.rlower:
                self.scroll_up_lagged()
            else:
                self.linefeed(False)
        elif final == RI:
            if self.lags and self.cy == self.rupper:
                self.scroll_down_lagged()
            else:
                self.reverseindex()
        return 0

    cdef int csi_dispatch(self, const uint32_t *params, int nparams, uint8_t final) except -1 nogil:
        cdef Py_ssize_t n = param(params, nparams, 0, 1), m, how, top, bottom, cx
        cdef int i
        if self.lag and settles_lag(final, self.cy == self.rlower):
            self.settle()
        if final == 0x48 or final == 0x66:  # H: CUP, f: HVP
            m = param(params, nparams, 1, 1)
            self.cursormove(m - 1, n - 1, True)
        elif final == 0x4B:  # K: EL
            how = param(params, nparams, 0, 0)
            if how == 0:
                self.clearendofline()
            elif how == 1:
                self.clearstartofline()
            elif how == 2:
                self.clearline()
        elif final == 0x4A:  # J: ED (ED 3: history is never deleted)
            how = param(params, nparams, 0, 0)
            if how == 0:
                self.clearendofscreen()
            elif how == 1:
                self.clearstartofscreen()
            elif how == 2:
                self.clearscreen()
        elif final == 0x41:
            self.cursorup(n)
        elif final == 0x42:
            self.cursordown(n)
        elif final == 0x43:
            self.cursorright(n)
        elif final == 0x44:
            self.cursorleft(n)
        elif final == 0x45:  # E: CNL
            self.cx = 0
            self.cursordown(n)
        elif final == 0x46:  # F: CPL
            self.cx = 0
            self.cursorup(n)
        elif final == 0x47 or final == 0x60:  # G: CHA, `: HPA
            self.cursormove(n - 1, -1, True)
        elif final == 0x64:  # d: VPA
            self.cursormove(-1, n - 1, True)
        elif final == 0x58:  # X: ECH
            if n > self.columns - self.cx:
                n = self.columns - self.cx
            if n > 0:
                self.clear_cells(self.cursor_row(), self.cx, self.cx + n)
        elif final == 0x40:  # @: ICH
            self.insertcharacter(n)
        elif final == 0x50:  # P: DCH
            self.deletecharacter(n)
        elif final == 0x4C:  # L: IL
            self.insertline(n)
        elif final == 0x4D:  # M: DL
            self.deleteline(n)
        elif final == 0x53 or final == 0x54:  # S: SU, T: SD
            if n > self.rlower - self.rupper + 1:
                n = self.rlower - self.rupper + 1
            if n == 1:  # the one-row paths (a call to scroll_up or scroll_down cost SD 1 in a region 30% more)
                if final == 0x53:
                    self.scroll_up_lagged() if self.lags else self.scroll_region_up()
                else:
                    self.scroll_down_lagged() if self.lags else self.scroll_region_down()
            elif final == 0x53:
                self.scroll_up(n)
            else:
                self.scroll_down(n)
        elif final == 0x68 or final == 0x6C:  # h: SM, l: RM; of their modes, IRM
            for i in range(nparams):
                if params[i] == IRM:
                    self.insert = final == 0x68
        elif final == 0x72:  # r: DECSTBM
            top = param(params, nparams, 0, 1)
            bottom = param(params, nparams, 1, self.height)
            self.scrollregion(top - 1, bottom - 1)
        elif final == 0x5A:  # Z: CBT
            cx = self.cx if self.cx < self.columns - 1 else self.columns - 1
            while cx > 0 and n > 0:
                cx = (cx - 1) // 8 * 8
                n -= 1
            self.cx = cx
        elif final == 0x73:  # s: SCOSC
            self.save_state()
        elif final == 0x75:  # u: SCORC
            self.restore_state()
        return 0

    cdef int repeat(self, uint32_t char, Py_ssize_t count) except -1 nogil:
        cdef Py_ssize_t i, k, m
        cdef bint filled
        cdef int width = char_width(char) if char >= 0x7F else 1  # (looked up once: the paths below share it)
        if count > self.columns - self.cx:
            count = self.columns - self.cx
        if count <= 0:
            return 0
        if width == 0:
            # A zero-width character's copies all join the cell before the cursor, which the cursor does not
            # leave: each adds its UTF-8 bytes to it, or is dropped once it is full (MAX_CELL_BYTES). As
            # _screen_py.ScreenSink.repeat: the first is put_char's (it may join a pending ZWJ first), the
            # others join the same cell at once. A combine each cost REP 1024 of a combining mark or a bidi
            # control at 1000 columns 2.6-3.3 MB/s (round 35: the copies past the bytes dropped since), and
            # the ones within the bytes, a print_cps, put_char and combine each, REP 79 of a combining mark then
            # LF 370 instructions a byte at 80x24 (round 56). Insert mode inserts nothing for them.
            self.put_char(char, 0)
            if count > 1 and char != 0x200D:  # (copies of a ZWJ only leave one pending: put_char)
                self.combine(char, count - 1)
            return 0
        if self.insert:  # (print_ascii's and print_cps', without the copies)
            return self.put_inserted(NULL, NULL, count, char)
        if count > self.scratch_cap:
            grow(<void **>&self.scratch, &self.scratch_cap, count, sizeof(uint32_t), 64)
        if 0x20 <= char < 0x7F and self.wrap and not self.zwj:  # as print_ascii writes it
            return self.put_fill(char, count)
        if not self.wrap and not self.zwj and width == 1:
            # (a space on a blank cell writes nothing, where a fill would write it: put_spaces)
            return self.put_spaces(count) if char == 0x20 else self.fill_run(char, count)
        if 0x20 <= char < 0x7F:
            memset(self.scratch, char, count)
            return self.print_ascii(<const uint8_t *>self.scratch, count)
        if self.zwj:
            width = 0  # (print_cps decides)
        if width == 1:  # (auto-wrap on: off, it went to fill_run above)
            return self.fill_run(char, count)
        if width == 2 and self.columns > 1:
            # print_cps's loop for a run of one width, without its scan of the copies for their widths (13
            # instructions a character; _screen_py.ScreenSink.fill_run). Here and not in fill_run: a second
            # caller of clean_take cost put_run its inlining (other scripts +2% on 80x24)
            # (on the cursor's row where a region's lag left it, and its wraps through the lag, as print_cps'
            # text: REP of a wide character after each line at the bottom of a region in the middle of
            # 80x65,535 settled the lag, 4.9-6.2 MB/s; round 46)
            # The copies put_run reads are written to scratch the first time it is called (fill_cells):
            # where pair_fill writes every row, on a chunked row, they were a fifth of the instructions of
            # REP 1024 of a wide character then CR on the alternate screen at 1000 columns (round 56).
            i = 0
            filled = False
            while i < count:
                if self.wrap:
                    if self.cx > self.columns - 2:  # (put_run's wrap, before a row's pairs as one fill)
                        self.wrap_text()
                        self.cx = 0
                    k = i + self.pair_fill(char, count - i)
                    if k == i:
                        if not filled:
                            fill_cells(self.scratch, char, count)
                            filled = True
                        k = i + self.put_run(self.scratch + i, count - i, 2)
                else:  # what fits of the row as put_run's pairs, the rest dropped (put_char: 1.6 MB/s at
                    if self.cx > self.columns - 2:  # 1000 columns, the fallback 0.01; round 34)
                        return 0
                    k = (self.columns - self.cx) // 2
                    if k > count - i:
                        k = count - i
                    if self.same_pairs(char, k):
                        k += i
                    else:
                        m = self.pair_fill(char, k)
                        if not m and not filled:
                            fill_cells(self.scratch, char, count)
                            filled = True
                        k = i + (m if m else self.put_run(self.scratch + i, k, 2))
                    self.cx = self.cursor_after(self.cx)
                if k == i:
                    self.put_char(char, 2)
                    k += 1
                i = k
            return 0
        fill_cells(self.scratch, char, count)
        return self.print_cps(self.scratch, count)

    cdef int private_mode(self, uint32_t mode, bint enable) except -1 nogil:
        # (the modes are flags, DECOM a cursor move; a screen switch keeps the main screen's lag: set_alt)
        if mode == DECAWM:
            self.wrap = enable
        elif mode == DECOM:
            self.origin = enable
            self.cursormove(0, 0, True)
        elif mode == MODE_ALT_1049 or mode == MODE_ALT_1047 or mode == MODE_ALT_47:
            self.set_alt(enable, mode == MODE_ALT_1049)
        return 0

    cdef int set_alt(self, bint enter, bint cursor) except -1 nogil:
        """See _screen_py.ScreenSink.set_alt. Leaving empties only the rows that may hold something and keeps
        the screen for the next entry (alt_spare), as the fallback does: a new screen and a look at each of
        its rows cost O(rows) a switch (CSI ? 1049 h then l, 16 bytes: 4 MB/s at 1000 rows, 0.04 at 65,535;
        benchmarks/README.md, round 33). The main screen keeps a region's lag (scroll_up_lagged) while the
        alternate one is shown (main_lag, with its region), back when it is left, or settled then if the
        region changed meanwhile (settle_main); the alternate screen's own lag goes with its rows. A switch
        after each line at the bottom of a region in the middle of 80x65,535 settled the lag: 10.7 MB/s
        (round 46)."""
        cdef Py_ssize_t y, stop, kept = 0
        cdef Row *row
        if not self.drop_alt:
            return 0
        if enter:
            if self.has_main:
                return 0
            if cursor:
                self.alt_saved_cx = self.cx
                self.alt_saved_cy = self.cy
                self.has_alt_saved = True
            self.main = self.screen
            self.has_main = True
            self.main_lag, self.main_rupper, self.main_rlower = self.lag, self.rupper, self.rlower
            self.lag = 0
            screen_forget(&self.screen)
            if self.alt_spare.pool != NULL and self.alt_spare.height == self.height:
                self.screen = self.alt_spare  # (every row blank, no busy range: screen_blanked when it was left)
                screen_forget(&self.alt_spare)
            else:
                screen_free(&self.alt_spare)
                screen_new(&self.screen, self.height)
            self.unwrap(-1)
            return 0
        if cursor and self.has_alt_saved:
            self.cx = self.alt_saved_cx
            self.cy = self.alt_saved_cy
        if self.has_main:
            if self.screen.busy_top <= self.screen.busy_bottom:
                stop = self.screen.busy_bottom + 1
                y = screen_next_busy(&self.screen, self.screen.busy_top, stop)
                while y < stop:
                    row = row_at(&self.screen, y)
                    self.stats[S_ALT] += row_written(row, 0, row.line.len)
                    self.empty_row(y)
                    # The kept screen keeps the small buffers empty_row keeps, up to SPARE_CELLS cells in all (a
                    # new screen's memory and at most 256 KiB more): the next entry writes the same rows again.
                    # Released, they were each grown again by the next session's writes: the real captures' vim,
                    # every 5.6 KB, spent 7% of their instructions at 80x24 in free and realloc (round 60).
                    if kept + row.line.cap <= SPARE_CELLS:
                        kept += row.line.cap
                    else:
                        row_release(row, NULL)
                    y = screen_next_busy(&self.screen, y + 1, stop)
            screen_blanked(&self.screen, 0, self.screen.height)
            screen_free(&self.alt_spare)
            self.alt_spare = self.screen
            self.screen = self.main
            screen_forget(&self.main)
            self.has_main = False
            self.lag = 0  # (the alternate screen's rows are all blank: their order no longer matters)
            if self.main_rupper == self.rupper and self.main_rlower == self.rlower:
                self.lag = self.main_lag
                self.main_lag = 0
            else:
                self.settle_main()
        if self.cx > self.columns - 1:
            self.cx = self.columns - 1
        if self.cy > self.height - 1:
            self.cy = self.height - 1
        return 0

    cdef int finish(self) except -1 nogil:
        cdef Py_ssize_t last, start = self.out.len
        if self.lag:
            self.settle()
        if self.has_main:
            self.settle_main()
            self.text(&self.main, screen_last_text(&self.main) + 1, self.out)
        last = screen_last_text(&self.screen)
        self.text(&self.screen, last + 1, self.out)
        if last >= 0 and self.cy <= last and self.out.len > start and self.out.data[self.out.len - 1] == LF:
            self.out.len -= 1  # the cursor is still on the last line: it has no line break yet
        self.reset()
        return 0

    # ------------------------------------------------------------------ printing

    cdef int put_ascii(self, const uint8_t *text, const uint32_t *cps, Py_ssize_t n, bint through_lag) except -1 nogil:
        """ASCII (as bytes ``text`` or cells ``cps``) with auto-wrap on, a row's worth at a time, each where a
        region's lag left its row (cursor_row). ``through_lag`` (print_ascii, in a region whose scrolls may
        lag): its wraps too (wrap_through_lag), so that the lag is neither settled nor, on the region's last
        row, rotated for; print_cps's ASCII too, since its other characters go where the lag left the
        cursor's row and wrap through it (wrap_text; round 45)."""
        cdef Py_ssize_t sx = self.columns, cx, take, start = 0, y
        cdef uint32_t *dst
        cdef Row *row
        while start < n:
            if self.cx > sx - 1:
                if through_lag:
                    self.wrap_through_lag()
                else:
                    self.linefeed(True)
                self.cx = 0
            cx = self.cx
            take = sx - cx if sx - cx < n - start else n - start
            y = self.cursor_row()
            row = row_at(&self.screen, y)
            if cx < row.line.len:  # (else there is nothing to overwrite: its call was a tenth of a short line)
                self.overwrite(row, cx, cx + take, 1, True, 0)
            dst = self.prepare_cells(y, cx, take, True)
            if text != NULL:
                acp_widen(dst, text + start, take)
            else:
                memcpy(dst, cps + start, take * sizeof(uint32_t))
            self.finish_cells()
            start += take
            self.cx = cx + take
        return 0

    cdef inline int wrap_text(self) except -1 nogil:
        """put_char's and put_run's wrap: through a region's lag where its scrolls may lag (wrap_through_lag),
        as put_ascii's, else linefeed's. Text that is not ASCII settled the lag first at each print and
        rotated the region at each wrap: a line of e-acute at the bottom of a region in the middle of
        80x65,535 read 1.8 MB/s, a wide character then CUF 1024 there 6 (round 45); the rows its characters
        go to are the cursor's where the lag left it (cursor_row: put_char, put_run, combine, put_stuck)."""
        if self.lags:  # (insert mode's too: its edits go to the cursor's row through the lag since round 46)
            return self.wrap_through_lag()
        return self.linefeed(True)

    cdef int wrap_through_lag(self) except -1 nogil:
        """linefeed(True) where a region's lag leaves the rows (put_ascii): the cursor's row is marked wrapped
        where the lag left it, and on the region's last row the region scrolls as a line feed there does
        (scroll_up_lagged). Lines longer than the screen is wide at the bottom of a region in the middle of
        80x65,535 settled the lag at each line, then rotated the region at its wrap: 21 MB/s, where lines that
        fit read 224 (benchmarks/README.md, round 40). The fallback's linefeed lags by itself: its lag never
        moves the cursor's row."""
        cdef Py_ssize_t y = self.cursor_row()
        row_at(&self.screen, y).wrapped = True
        screen_touch(&self.screen, y)  # (a blank row can wrap: as linefeed)
        if self.cy == self.rlower:
            self.scroll_up_lagged()
        elif self.cy < self.height - 1:
            self.cy += 1
        return 0

    cdef inline bint stuck(self, Py_ssize_t n) noexcept nogil:
        """Whether n characters of printable ASCII (3 or more) at the cursor, with auto-wrap off, all go to
        the last column or all are dropped: the cursor is there or past it (put_char). Each then cost a
        put_char, and an ASCII run of a 64 KiB chunk 64 Ki of them (put_stuck)."""
        return n > 2 and not self.wrap and not self.zwj and not self.insert and self.columns > 1 \
            and self.cx >= self.columns - 1

    cdef Py_ssize_t put_stuck(self, const uint8_t *text, const uint32_t *cps, Py_ssize_t i, Py_ssize_t n) except -1 nogil:
        """Printable ASCII [i, n) (bytes ``text`` or cells ``cps``) where ``stuck`` says, as put_char writes
        it one character at a time (_screen_py.ScreenSink.put_stuck): past the margin every one is dropped;
        at the last column (tmux's screen_write_cell keeps the cursor there with auto-wrap off) each is
        written over the one before, so only the last stays, and each that is written over a character
        counts as one cell overwritten. A space on a blank cell writes nothing, so the spaces up to the
        first other character are skipped while the cell is blank. Returns n."""
        cdef Py_ssize_t last = n - 1, x = self.columns - 1
        cdef Row *row
        if self.cx > x:
            return n
        self.put_char(text[i] if text != NULL else cps[i], 1)  # (clears a wide character there: put_char)
        i += 1
        row = row_at(&self.screen, self.cursor_row())
        if x >= row.line.len or row_cell(row, x) == BLANK:
            while i < last and (text[i] if text != NULL else cps[i]) == 0x20:
                i += 1
            if i < last:
                self.put_char(text[i] if text != NULL else cps[i], 1)
                i += 1
        self.stats[S_OVERWRITTEN] += last - i  # (the cell holds a character: each of [i, last) writes over one)
        self.put_char(text[last] if text != NULL else cps[last], 1)
        return n

    cdef int put_fill(self, uint32_t char, Py_ssize_t n) except -1 nogil:
        """Printable ASCII ``char`` n times with auto-wrap on (REP), as put_ascii writes it: the cells it
        covers are counted while they are filled."""
        cdef Py_ssize_t sx = self.columns, cx, take, y
        cdef Row *row
        while n > 0:
            if self.cx > sx - 1:  # (REP stops at the margin: a wrap as put_run's, through a region's lag)
                self.wrap_text()
                self.cx = 0
            cx = self.cx
            take = sx - cx if sx - cx < n else n
            y = self.cursor_row()
            row = row_at(&self.screen, y)
            self.overwrite(row, cx, cx + take, 1, True, 0)
            # (a fill chunk where the row is chunks: REP over a long row rewrote every cell, 1.6 MB/s at 65,535
            # columns; overwrite may trim the row, so its cells are counted after it)
            self.write_fill(y, row, cx, take, char)
            n -= take
            self.cx = cx + take
        return 0

    cdef inline bint pad_at_cursor(self) noexcept nogil:
        """Whether the cursor's cell is a wide character's padding (put_char: _screen_py.ScreenSink.put_char
        says when insert mode's clear of the last column matters)."""
        cdef Row *row = row_at(&self.screen, self.cursor_row())
        return self.cx < row.line.len and row_cell(row, self.cx) == PAD

    cdef inline Py_ssize_t cursor_row(self) noexcept nogil:
        """The cursor's row in the screen's order (lagged_row)."""
        return self.lagged_row(self.cy)

    cdef inline Py_ssize_t lagged_row(self, Py_ssize_t y) noexcept nogil:
        """Where row y of the screen is in its order: y, or, while the region's rotation lags
        (scroll_up_lagged) and y is in the region, rupper + (y - rupper + lag) mod its height (by a
        subtraction, as both terms are below the height: no division on every print)."""
        if self.lag and self.rupper <= y <= self.rlower:
            y += self.lag
            if y > self.rlower:
                y -= self.rlower + 1 - self.rupper
        return y

    cdef inline Py_ssize_t screen_row(self, Py_ssize_t y) noexcept nogil:
        """lagged_row's inverse: the row of the screen that entry y of its order holds."""
        if self.lag and self.rupper <= y <= self.rlower:
            y -= self.lag
            if y < self.rupper:
                y += self.rlower + 1 - self.rupper
        return y

    cdef int put_char(self, uint32_t char, int width) except -1 nogil:
        """tmux's ``screen_write_cell`` for one character of any width."""
        cdef Py_ssize_t sx = self.columns, cx, cy, room
        cdef Row *row
        cdef uint32_t *dst
        if char == 0x200D:  # ZWJ
            self.zwj = True
            return 0
        if width == 0 or self.zwj:
            if self.zwj:
                self.zwj = False
                self.combine(0x200D, 1)
            return self.combine(char, 1)
        if not self.wrap and width > 1 and (width > sx or (self.cx != sx and self.cx > sx - width)):
            return 0
        if self.insert:
            if width == 1 and self.cx <= sx - 2 and self.insert_char(char):
                return 0
            if width == 2 and sx > self.chunk_size and self.insert_pair(char):  # (a screen no wider than a
                return 0  # chunk makes no row chunks, and a call here cost other paths their inlining: round 57)
            if width != 1 or self.cx != sx - 1 or self.pad_at_cursor():
                self.insertcharacter(width)  # room for it at the cursor, before any wrap (_screen_py.ScreenSink.put_char)
        if self.wrap and self.cx > sx - width:
            self.wrap_text()
            self.cx = 0
        if self.cx > sx - width:
            return 0
        cx = self.cx
        cy = self.cursor_row()  # (where a region's lag left it: print_cps, on a row its text does not leave)
        row = row_at(&self.screen, cy)
        self.overwrite(row, cx, cx + width, width, False, char)
        if char != 0x20 or self.insert or (cx < row.line.len and row_cell(row, cx) != BLANK):
            dst = self.prepare_cells(cy, cx, width, True)
            dst[0] = char
            if width == 2:
                dst[1] = PAD
            self.finish_cells()
        room = sx - (0 if self.wrap else 1) - width
        if cx <= room or room < 0:
            cx += width
            self.cx = cx if cx <= sx else sx - 1
        else:
            self.cx = sx - (0 if self.wrap else 1)
        return 0

    cdef bint insert_pair(self, uint32_t char) except -1 nogil:
        """put_char's wide character in insert mode on a chunked row, its insert and write as one (insert_run
        of one character: insert_fill), where no wrap comes between them (a column before the last three:
        as for a run, the insert moves the cells from the cursor and blanks the two it writes). Returns
        False, having done nothing, elsewhere: put_char's two steps."""
        return self.cx <= self.columns - 4 and self.insert_fill(1, 2, char)

    cdef int insert_char(self, uint32_t char) except -1 nogil:
        """_screen_py.ScreenSink.insert_char, for put_char's every one-cell character in insert mode at a
        column before the last. The insert (move_cells) leaves the cursor's cell blank, overwrite finds
        nothing to clear there (no padding at it, a blank before the cell after it), and the write replaces
        that blank, counting nothing. So the character is the cell the insert puts in, one edit of the row
        (the cells pushed past the margin go and are counted, the row is trimmed, the live cells and the
        used count are what the two steps made them). The move, the look and the write each found the
        cursor's chunk of a chunked row again: x then BS over a full 1000-column row in insert mode 24 MB/s,
        2,100 instructions a character (round 45). Where nothing moves (the cursor at or past the row's end,
        as when typing at the end of a line), the insert changes only the row's used count (up to the
        margin, as move_cells' end_write makes it): the write, and that. A row longer than the screen is
        wide gets put_char's two steps as they are: returns 0, and 1 when it wrote the character."""
        cdef Py_ssize_t sx = self.columns, cx = self.cx, y = self.cursor_row(), size, moved
        cdef Row *row = row_at(&self.screen, y)
        cdef uint32_t *cells
        size = row.line.len
        if cx >= size:
            cells = self.prepare_cells(y, cx, 1, True)
            cells[0] = char
            self.finish_cells()
            if row.used < sx:
                row.used = sx
            self.cx = cx + 1
            return 1
        if size > sx:
            return 0
        if cx < row.lead:
            row.lead = cx
        moved = (size if size < sx - 1 else sx - 1) - cx  # (the cells that stay on the row move right by one)
        if row.line.chunked != NULL or (moved > self.chunk_size and self.chunk_row(row)):  # (as move_cells)
            chunks_insert_fill(&row.line, cx, 1, char, self.chunk_size)
            if row.line.len > sx:
                self.stats[S_OVERWRITTEN] += chunks_delete(&row.line, sx, row.line.len, self.chunk_size)
        else:
            row_reserve(row, size + 1)
            cells = row.line.cells
            if size == sx:
                self.stats[S_OVERWRITTEN] += written_cells(cells, sx - 1, sx)
            memmove(cells + cx + 1, cells + cx, moved * sizeof(uint32_t))
            cells[cx] = char
            row.line.len = cx + 1 + moved
        row_trim(row, self.chunk_size)
        self.cx = cx + 1
        self.end_write(row, size, row.line.len, sx)
        return 1

    cdef uint32_t *prepare_cells(self, Py_ssize_t y, Py_ssize_t x, Py_ssize_t n, bint counted) except NULL nogil:
        """_screen_py.ScreenSink.write_cells without the copy: where cells [x, x + n) of row y go, then
        finish_cells. With ``counted`` false the caller counts the cells it overwrites (put_fill, on a flat
        row: while it writes them). A chunked row's cells are staged and go in at finish_cells; a write far
        past a flat row's end (more blanks than a chunk) makes the row chunks."""
        cdef Row *row = row_at(&self.screen, y)
        cdef Py_ssize_t size = row.line.len, stop = x + n, i, pad
        cdef uint32_t *dst
        self.begin_write(y, row, x)
        if row.line.chunked != NULL or (x - size > FLAT_PAD_CHUNKS * self.chunk_size and self.chunk_row(row)):
            if x < size and counted:
                self.stats[S_OVERWRITTEN] += chunks_written(&row.line, x, stop)
            if n > self.staged_cap:
                grow(<void **>&self.staged, &self.staged_cap, n, sizeof(uint32_t), 64)
            self.staged_y = y
            self.staged_x = x
            self.staged_n = n
            dst = self.staged
        else:
            row_reserve(row, stop)
            if x > size:
                pad = size
                if size == 0 and row.used == 0:  # (the blanks the row before left there: Row.zeroed)
                    pad = row.zeroed if row.zeroed < x else x
                for i in range(pad, x):
                    row.line.cells[i] = BLANK
            elif x < size and counted:
                self.stats[S_OVERWRITTEN] += written_cells(row.line.cells, x, stop if stop < size else size)
            if stop > row.line.len:
                row.line.len = stop
            dst = row.line.cells + x
        self.end_write(row, size, stop if stop > size else size, stop)
        return dst

    cdef inline int finish_cells(self) except -1 nogil:
        """After the caller wrote the cells prepare_cells gave it: staged ones go into their chunked row (the
        length end_write counted is the one this makes)."""
        cdef Py_ssize_t n = self.staged_n
        cdef uint32_t cell
        if n:
            self.staged_n = 0
            cell = self.staged[0]
            if n <= 2 and not cell & MARKED and (n == 1 or (self.staged[1] == PAD and cell > PAD)):
                # One cell, or a wide character and its padding, as a fill (of pairs: PAIRED): no chunk to
                # allocate, and it joins a neighbouring fill of the same (_chunks_c.pxi). As literals, a
                # character typed before REP of it in insert mode kept a 1000-column row literal chunks,
                # each insert moving their cells (round 57).
                chunks_replace(&row_at(&self.screen, self.staged_y).line, self.staged_x, n, NULL, NULL,
                               cell | PAIRED if n == 2 else cell, self.chunk_size)
            else:
                chunks_replace(&row_at(&self.screen, self.staged_y).line, self.staged_x, n, self.staged, NULL, 0,
                               self.chunk_size)
        return 0

    cdef inline void begin_write(self, Py_ssize_t y, Row *row, Py_ssize_t x) noexcept nogil:
        """Before cells from column x on are written to row y: the row is busy, and what its lead says holds."""
        cdef Py_ssize_t size = row.line.len
        if not size:  # (a row with cells is busy already)
            screen_touch(&self.screen, y)
        if x < row.lead:
            row.lead = x
        elif x > size and row.lead >= size:  # [0, size) are blank, and [size, x) are about to be
            row.lead = x

    cdef inline int end_write(self, Row *row, Py_ssize_t size, Py_ssize_t length, Py_ssize_t stop) except -1 nogil:
        """After a write up to column ``stop`` took the row from ``size`` cells to ``length``."""
        self.screen.cells += length - size
        if stop > row.used:
            row.used = stop
        if self.screen.cells > self.max_live_cells:
            # after every write, before any scroll: the same rows are committed for any chunking (the
            # cursor's row, where these cells go, is never one of them)
            self.enforce_limits()
        return 0

    cdef inline int fills_chunks(self, Row *row, Py_ssize_t x, Py_ssize_t n) except -1 nogil:
        """Whether a fill of n cells from column x goes into the row's chunks: it has them, or the fill (with
        the blanks before it, past the row's end) is longer than a chunk, and the row becomes chunks."""
        return row.line.chunked != NULL or (n + (x - row.line.len if x > row.line.len else 0) > self.chunk_size
                                            and self.chunk_row(row))

    cdef int fill_chunks(self, Py_ssize_t y, Row *row, Py_ssize_t x, Py_ssize_t n, uint32_t char) except -1 nogil:
        """prepare_cells and the fill of n cells from column x with ``char`` on row y (chunked): one chunk."""
        cdef Py_ssize_t size = row.line.len
        self.begin_write(y, row, x)
        self.stats[S_OVERWRITTEN] += chunks_replace(&row.line, x, n, NULL, NULL, char, self.chunk_size)
        return self.end_write(row, size, row.line.len, x + n)

    cdef int chunk_row(self, Row *row) except -1 nogil:
        """A flat row becomes chunks (once in its life on the screen: O(its cells)); returns 1."""
        line_to_chunks(&row.line, self.chunk_size, &self.spares)
        return 1

    cdef inline int put_cell(self, Row *row, uint32_t *flat, Py_ssize_t x, uint32_t cell) except -1 nogil:
        """Cell x (< the row's length) becomes ``cell`` (the caller counts): in ``flat``, the row's
        flat_cells, or in its chunks."""
        if flat != NULL:
            flat[x] = cell
        else:
            chunks_replace(&row.line, x, 1, &cell, NULL, 0, self.chunk_size)
        return 0

    cdef int write_cells(self, Py_ssize_t y, Py_ssize_t x, const uint32_t *cells, Py_ssize_t n) except -1 nogil:
        memcpy(self.prepare_cells(y, x, n, True), cells, n * sizeof(uint32_t))
        return self.finish_cells()

    cdef inline uint32_t base_char(self, uint32_t cell) noexcept nogil:
        return self.marks[cell & ~MARKED].base if cell & MARKED else cell

    cdef int overwrite(self, Row *row, Py_ssize_t start, Py_ssize_t stop, int width, bint always,
                       uint32_t char) except -1 nogil:
        """See _screen_py.ScreenSink.overwrite: on ``row``, the cursor's (cursor_row). ``char``: what
        put_char writes to [start, stop) next (0 for the other callers). Unless it is a space outside insert
        mode, which put_char does not write on a blank cell, a row that would end in a blank here does not
        once it is in, and is not trimmed first (a wide character then BS, typed on: trimming a row to empty
        and padding it back out was O(columns) a character). (Not an optional argument, and tested only
        where a trim would follow: Cython passes optional ones in a struct, and either cost a typed
        character 8-19 instructions.)"""
        cdef Py_ssize_t size = row.line.len, x
        cdef uint32_t cell, before
        cdef uint32_t *cells = flat_cells(row)
        if always:
            if 0 < start < size:
                x = start
                while x > 0 and cell_in(row, cells, x) == PAD:
                    self.put_cell(row, cells, x, BLANK)
                    x -= 1
                cell = cell_in(row, cells, x)
                if x > 0 and cell != BLANK and cell != PAD and char_width(self.base_char(cell)) == 2:
                    self.stats[S_OVERWRITTEN] += 1
                    self.put_cell(row, cells, x, BLANK)
        elif start < size and cell_in(row, cells, start) == PAD:
            x = start
            while x > 0 and cell_in(row, cells, x) == PAD:
                self.put_cell(row, cells, x, BLANK)
                x -= 1
            cell = cell_in(row, cells, x)
            if cell != BLANK and cell != PAD:
                self.stats[S_OVERWRITTEN] += 1
            self.put_cell(row, cells, x, BLANK)
            # the wide character was the row's last: a row never ends in a blank (unless a write follows)
            if (char == 0 or (char == 0x20 and not self.insert)) and cell_in(row, cells, row.line.len - 1) == BLANK:
                row_trim(row, self.chunk_size)
                self.screen.cells += row.line.len - size
                size = row.line.len
        if stop >= size:
            return 0
        before = cell_in(row, cells, stop - 1)
        if always or width != 1 or before == PAD or (before != BLANK and char_width(self.base_char(before)) == 2):
            x = stop
            while x < size and cell_in(row, cells, x) == PAD:
                self.put_cell(row, cells, x, BLANK)
                x += 1
            if x == size:  # the row ended in that padding: it never ends in a blank (the fallback trims
                row_trim(row, self.chunk_size)  # after its write)
                self.screen.cells += row.line.len - size
        return 0

    cdef int combine(self, uint32_t char, Py_ssize_t copies) except -1 nogil:
        """See _screen_py.ScreenSink.combine: ``copies`` of ``char`` join as that many calls would, those
        within MAX_CELL_BYTES (REP of a zero-width character: the cell and its mark found once). The copies
        after the first are mark_copies', so that one copy, a mark in text, costs what it did (a count of the
        copies that fit first, or a loop here, cost other scripts at 80x24 1.2-1.8% more instructions)."""
        cdef Py_ssize_t cx = self.cx, x, y
        cdef Row *row
        cdef uint32_t cell, space = 0x20
        cdef Mark *mark
        cdef Py_ssize_t index
        cdef int added
        if cx == 0 or cx > self.columns:
            return 0
        y = self.cursor_row()
        row = row_at(&self.screen, y)
        x = cx - 1
        cell = BLANK
        while x >= 0 and x < row.line.len:  # (each cell read once: on a chunked row a read is a walk)
            cell = row_cell(row, x)
            if cell != PAD:
                break
            x -= 1
        if x < 0:
            return 0
        if x >= row.line.len or cell == BLANK:
            self.write_cells(y, x, &space, 1)
            cell = space
        if cell & MARKED:
            mark = &self.marks[cell & ~MARKED]
            if mark.nbytes + utf8_length(char) > MAX_CELL_BYTES:
                return 0
        else:
            if utf8_length(cell) + utf8_length(char) > MAX_CELL_BYTES:
                return 0
            index = self.new_mark()
            mark = &self.marks[index]
            mark.base = cell
            mark.nbytes = utf8_length(cell)
            mark.len = 0
            self.put_cell(row, flat_cells(row), x, MARKED | <uint32_t>index)
        added = utf8_put(mark.marks + mark.len, char)
        mark.len += added
        mark.nbytes += added
        if copies > 1:
            mark_copies(mark, added, copies - 1)
        return 0

    cdef Py_ssize_t new_mark(self) except -1 nogil:
        """A free entry of the mark pool. Entries are not freed one by one: when the pool is full, the marks
        still in a cell are compacted to its front, and the pool keeps room after them for twice as many new
        marks as it kept, 1/64 as many as the compaction scanned cells, and 1,024 (compact_marks): a
        compaction then comes after that many new marks at least, and the pool is never more than six times
        the live marks the last compaction kept plus 1/32 of the cells it scanned (and 2,048): O(the screen's
        cells). (Before round 30, once 32 live marks filled the pool it doubled, and from then on doubled
        whenever it was more than half full, never compacting again: a cell marked again and again grew it
        without bound, 24 MB for 500,000 marks; with fewer live marks it stayed at 32 entries and was
        compacted every 32 - live new marks.)"""
        if self.nmarks == self.marks_cap:
            if self.marks_cap:
                self.compact_marks()
            else:
                grow(<void **>&self.marks, &self.marks_cap, 32, sizeof(Mark), 32)
        self.nmarks += 1
        return self.nmarks - 1

    cdef int compact_marks(self) except -1 nogil:
        """Move the marks still in a cell to the front of the pool, in place and in order, renumbering the
        cells: a live entry's new index is its rank among the live ones, never above its old one. The pool
        was copied into a new allocation before, whose fresh pages the kernel zeroed: lines of a character
        and a combining mark at the bottom of 80x65,535, a million marks live, spent a third of their time
        in page faults, and the old and new pools were both resident at the compaction (benchmarks/README.md,
        round 41). A first pass over every cell of both screens finds the live entries. Where the cells met
        them in ascending order, each once (text written row after row, scrolled up: the usual screen), the
        second pass moves each entry as its cell is met and numbers the cells in turn, as the copy did; else
        the entries move by rank and the second pass renumbers the cells by it (a popcount a cell). Dense
        U+202E at 80x24, a mark on every other cell, compacted every 1,920 new marks: 210 instructions a
        byte by rank, 206 in order, 196.5 with round 40's copy into a new pool. That copy is kept for pools
        of MARK_COPY_ENTRIES or fewer, which fault no pages (203.5 since round 42; the rest is the UTF-8)."""
        cdef Py_ssize_t words = (self.nmarks + 63) >> 6, w, kept, scanned
        cdef uint64_t bits, low, ALL_LIVE = ~(<uint64_t>0)
        cdef Mark *pool
        cdef Py_ssize_t old
        cdef MarkScan scan
        cdef uint32_t *rank
        cdef uint64_t *live
        scan.marks = self.marks
        scan.kept = 0
        if self.marks_cap <= MARK_COPY_ENTRIES:
            # a small pool: copied into a new one in one pass, as before round 41 (malloc serves it from the
            # heap's own pages, below glibc's 128 KiB mmap threshold, so no page is faulted in). The two passes
            # in place cost dense U+202E at 80x24 6.9 instructions a byte, the copy 3.8 (benchmarks/README.md,
            # round 42).
            pool = <Mark *>malloc(self.marks_cap * sizeof(Mark))
            if pool == NULL:
                with gil:
                    raise MemoryError()
            scan.what = MARKS_COPY
            scan.fresh = pool
            scanned = self.visit_all_marks(&scan)
            free(self.marks)
            self.marks = pool
            return self.size_mark_pool(scan.kept, scanned)
        live = <uint64_t *>calloc(words, sizeof(uint64_t))
        if live == NULL:
            with gil:
                raise MemoryError()
        scan.what = MARKS_FIND
        scan.live = live
        scan.rank = NULL
        scan.last = -1
        scan.in_order = True
        scanned = self.visit_all_marks(&scan)
        w = 0
        while w < words and live[w] == ALL_LIVE:  # (entries that stay where they are)
            w += 1
        kept = w << 6
        if w == words or (w == words - 1 and self.nmarks & 63
                          and live[w] == ((<uint64_t>1) << (self.nmarks & 63)) - 1):
            kept = self.nmarks  # (every entry live: none moves, as in a pool that fills with live marks)
        elif scan.in_order:
            scan.what = MARKS_IN_ORDER
            self.visit_all_marks(&scan)
            kept = scan.kept
        else:  # (nothing has moved yet: a failed allocation leaves the pool as it was)
            rank = <uint32_t *>malloc(words * sizeof(uint32_t))
            if rank == NULL:
                free(live)
                with gil:
                    raise MemoryError()
            for old in range(w):
                rank[old] = <uint32_t>(old << 6)
            for w in range(w, words):
                rank[w] = <uint32_t>kept
                bits = live[w]
                while bits:
                    low = bits & (~bits + 1)
                    old = (w << 6) + popcount64(low - 1)
                    if old != kept:
                        self.marks[kept] = self.marks[old]
                    kept += 1
                    bits ^= low
            scan.what = MARKS_BY_RANK
            scan.rank = rank
            self.visit_all_marks(&scan)
            free(rank)
        free(live)
        return self.size_mark_pool(kept, scanned)

    cdef int size_mark_pool(self, Py_ssize_t kept, Py_ssize_t scanned) except -1 nogil:
        """After a compaction that kept ``kept`` marks of ``scanned`` cells: the pool's size for the marks to
        come."""
        cdef Py_ssize_t room
        cdef Mark *pool
        self.nmarks = kept
        # Room for max(2 * kept, scanned / 64, 1,024) new marks before the next compaction: its moves then cost
        # half a mark and its scans 128 cells for each new mark at most (a cell of a 65,535-column row marked
        # again and again scanned the row every 31 marks: 2,700 instructions a mark; benchmarks/README.md, round
        # 30). At least 1,024 (28 KB): at 80x24 text in other scripts, a few hundred marks live, compacted every
        # 64 new marks with two passes over the screen, cost 76.6 instructions a byte, 74.7 before round 41.
        # The pool is made that size exactly when it is smaller, or more than twice that size (the live marks
        # went: the rows that held them were committed or cleared). Doubling it, as grow does, made a pool
        # of a million live marks 4 Mi entries (117 MB), where 3 Mi are needed.
        room = max(2 * kept, scanned // 64, 1024)
        if self.marks_cap < kept + room or self.marks_cap > 2 * (kept + room):
            pool = <Mark *>realloc(self.marks, (kept + room) * sizeof(Mark))
            if pool == NULL:
                with gil:
                    raise MemoryError()
            self.marks = pool
            self.marks_cap = kept + room
        return 0

    cdef Py_ssize_t visit_all_marks(self, MarkScan *scan) noexcept nogil:
        """visit_marks over every cell of both screens, row after row, each row from its start; returns the
        cells read. Only the rows that may hold something are visited (screen_next_busy): text with marks
        filling a tall screen from its bottom compacted a pool full of live marks at each growth, and each
        pass went through every row (65,535 of them, two passes each time: lines of a character and a mark at
        the bottom of 80x65,535 read 232 instructions a byte at 1 MB, 215 without)."""
        cdef int which
        cdef Screen *screen
        cdef Py_ssize_t y, k, stop, scanned = 0
        cdef Row *row
        cdef Chunk *chunk
        for which in range(2):
            if which == 1 and not self.has_main:
                break
            screen = &self.screen if which == 0 else &self.main
            y = screen.busy_top
            stop = min(screen.busy_bottom + 1, screen.height)
            while True:
                y = screen_next_busy(screen, y, stop)
                if y >= stop:
                    break
                row = row_at(screen, y)
                y += 1
                if row.line.chunked == NULL:
                    scanned += visit_marks(row.line.cells, row.line.len, scan)
                    continue
                for k in range(row.line.chunked.nchunks):
                    chunk = &row.line.chunked.chunks[k]
                    if chunk.cells != NULL:
                        scanned += visit_marks(chunk.cells, chunk.len, scan)
                    else:  # (a fill is BLANK or a character, or its pairs, REP repeated, never marked; one
                        # would keep one mark)
                        visit_marks(&chunk.fill, 1, scan)
        return scanned

    cdef int enforce_limits(self) except -1 nogil:
        """_screen_py.ScreenSink.enforce_limits, over the rows that may hold something (screen_next_busy,
        from the busy range's top): the rows it emptied before are blank, and each write past the limit
        read them all again (80x65,535 with every row written: 1.9 MB/s; round 34). While a region's
        scrolls lag (scroll_up_lagged) its rows are read in the screen's order through the lag: from where
        its top row is to its end, then from its start. A write past the limit settled the lag before (full
        lines at the bottom of a region in the middle of 80x65,535, where the live cells stay at the limit,
        rotated half the screen's row slots a line: 35-38 MB/s; round 39)."""
        cdef Py_ssize_t cursor = self.cursor_row(), top = self.rupper + self.lag
        if not self.lag:
            self.commit_rows(0, self.height, cursor)
        elif self.commit_rows(0, self.rupper, cursor) and self.commit_rows(top, self.rlower + 1, cursor) \
                and self.commit_rows(self.rupper, top, cursor):
            self.commit_rows(self.rlower + 1, self.height, cursor)
        return 0

    cdef int commit_rows(self, Py_ssize_t y, Py_ssize_t stop, Py_ssize_t cursor) except -1 nogil:
        """enforce_limits over the entries [y, stop) of the screen's order, in order, but the cursor's row
        (its entry ``cursor``): 1 if the live cells are still past max_live_cells after them.

        The rows the scan passed and the ones it committed are blank (screen_blanked): a row committed from
        the top of the busy range moves that top below it, and a run of such rows is the screen's hole,
        which the next scan skips at once. Each line at the bottom of a tall screen at the limit commits
        its topmost row, and the scan read every row emptied before, up to 48,000 of them on 80x65,535: lines
        of 61 characters 30 MB/s, and with REP 3.5 (benchmarks/README.md, round 40); in a region in the
        middle of it, whose lag puts the scan's start at the region's oldest row, the busy range's top did
        not help: x and REP 79 there read 8.2 MB/s, 2,050 instructions a byte (round 46). Nor does the hole
        alone, once the region's blank rows come round its end (from where its oldest row is to its end, and
        from its start: the rows after the busy range's bottom are the first of those, and not scanned).
        Nor do both, where the rows the scan passes stay busy with no cells: x then IND at the bottom of that
        region leaves a blank wrapped row every 81 lines, and the scan read each of them again at every line
        (5.5 MB/s, 2,668 instructions a byte; round 47). So the runs of rows with no cells it passed are kept
        (Screen.bare, screen_no_cells) and the next scan that starts in one passes it at once."""
        cdef Screen *screen = &self.screen
        cdef Py_ssize_t end = stop, bare = y  # (the scan's rows [bare, y) hold no cells)
        cdef Py_ssize_t blank  # (the scan's rows [blank, y) are blank)
        cdef Py_ssize_t length
        cdef bint kept = False  # (whether it passed a busy row with no cells, which the hole cannot skip)
        cdef int i
        if screen.has_bare:  # (past one range the scan is not in the other: ranges that touch are one)
            for i in range(2):
                if screen.bare[i].top <= y <= screen.bare[i].bottom:
                    bare = screen.bare[i].top
                    y = screen.bare[i].bottom + 1
                    break
        if y >= stop:
            return screen.cells > self.max_live_cells
        blank = y
        if y < screen.busy_top:
            y = screen.busy_top
        if stop > screen.busy_bottom + 1:  # (the rows below the busy range are blank: not scanned)
            stop = screen.busy_bottom + 1
        while screen.cells > self.max_live_cells:
            y = screen_next_busy(screen, y, stop)
            if y >= stop:
                if blank < stop:  # (a scan that starts past the busy range's bottom passed no row)
                    screen_blanked(screen, blank, stop)
                if kept and end - bare >= BARE_MIN:
                    screen_no_cells(screen, bare, end)
                return 1
            length = row_at(screen, y).line.len
            if y != cursor and length:
                self.to_history(y)
                self.empty_row(y)
                screen_blanked(screen, blank, y + 1)
            else:
                blank = y + 1  # (a row that stays busy)
                if length:  # (the cursor's row)
                    bare = y + 1
                elif y != cursor:
                    kept = True
            y += 1
        if kept and y - bare >= BARE_MIN:
            screen_no_cells(screen, bare, y)
        return 0

    # ------------------------------------------------------------------ rows (tmux's grid.c)

    cdef int to_history(self, Py_ssize_t y) except -1 nogil:
        cdef Row *row = row_at(&self.screen, y)
        if self.has_main:
            self.stats[S_ALT] += row_written(row, 0, row.line.len)
            return 0
        self.hsize += 1
        self.history_open = row.wrapped
        if row.line.len == 0 and not row.wrapped and buf_put_head_lf(self.out):
            # A blank row (a flood of line feeds): its LF without a call or the row's scan (221 -> 193
            # instructions a line feed at the bottom; this test in scroll_region_up saved 28 more, but cost
            # plain text at 80x24 1.5%, 10 instructions a line)
            return 0
        if (not row.wrapped or row.used <= row.line.len) and row.line.chunked == NULL \
                and buf_put_printable(self.out, row.line.cells, row.line.len, row_lead(row), 0 if row.wrapped else LF):
            # A row of printable ASCII (and no trailing blanks to pad): as bytes into the output's head while
            # nothing wider came before it in this call, as plain lines go in unsized rendering.
            return 0
        self.row_text(&self.screen, y, self.out)
        if not row.wrapped:
            buf_put(self.out, LF)
        return 0

    cdef inline int unwrap(self, Py_ssize_t y) except -1 nogil:
        if y >= 0:
            row_at(&self.screen, y).wrapped = False
        elif self.history_open:
            self.history_open = False
            buf_put(self.out, LF)
        return 0

    cdef int empty_row(self, Py_ssize_t y) except -1 nogil:
        cdef Row *row = row_at(&self.screen, y)
        self.screen.cells -= row.line.len
        if row.line.cap > SPARE_MAX_CAP or row.line.chunked != NULL:  # (a chunked row is never kept empty)
            row_release(row, &self.spares)
        row_emptied(row)
        row.wrapped = False
        screen_blank_entry(&self.screen, y)
        return 0

    cdef int drop_row(self, Py_ssize_t y) except -1 nogil:
        """Row y is lost as move_lines loses a row: counted, then emptied as empty_row empties a row (a small
        buffer stays for the next row written there: x then SD 999 freed one and allocated one a sequence)."""
        self.lose_row(y)
        return self.empty_row(y)

    cdef int lose_row(self, Py_ssize_t y) except -1 nogil:
        cdef Row *row = row_at(&self.screen, y)
        cdef Py_ssize_t count
        if row.line.len:
            count = row_written(row, 0, row.line.len)
            self.stats[S_OVERWRITTEN] += count
            if count:
                self.stats[S_SCROLLED_OUT] += 1
        return 0

    cdef int clear_lines(self, Py_ssize_t y, Py_ssize_t n) except -1 nogil:
        """Rows [y, y + n) emptied: only the busy ones are visited (Screen.busy_top), and of those only the
        ones that are not blank already are emptied."""
        cdef Py_ssize_t yy, stop
        cdef Row *row
        if n == 0 or self.hsize + y + n - 1 < 0:
            return 0
        stop = y + n if y + n <= self.screen.busy_bottom else self.screen.busy_bottom + 1
        yy = screen_next_busy(&self.screen, y if y > self.screen.busy_top else self.screen.busy_top, stop)
        while yy < stop:
            row = row_at(&self.screen, yy)
            self.stats[S_OVERWRITTEN] += row_written(row, 0, row.line.len)
            self.empty_row(yy)
            yy = screen_next_busy(&self.screen, yy + 1, stop)
        screen_blanked(&self.screen, y, y + n)
        if self.lag:
            # one row, the cursor's, where lagged scrolls left it (settles_lag): the row above it on
            # the screen is unwrapped, wherever the lag left that one (y: the row's place on the screen)
            y = self.screen_row(y)
            if self.hsize + y != 0:
                self.unwrap(self.lagged_row(y - 1))
        elif self.hsize + y != 0:
            self.unwrap(y - 1)
        return 0

    cdef int move_lines(self, Py_ssize_t dy, Py_ssize_t py, Py_ssize_t n) except -1 nogil:
        """See _screen_py.ScreenSink.move_lines. The rows replaced are released, and their emptied slots end
        where the moved rows were: a rotation of the two ranges when they overlap (screen_rotate), a swap
        of slots when they do not."""
        cdef Screen *screen = &self.screen
        cdef Py_ssize_t yy, start, stop, d = dy - py
        cdef uint32_t slot
        if n == 0 or py == dy:
            return 0
        screen_mix(screen, dy if dy < py else py, (py if dy < py else dy) + n)
        # only the rows outside the other range: O(|dy - py|) besides the rotation (_screen_py._outside)
        outside(dy, py, n, &start, &stop)
        for yy in range(start, stop):
            self.drop_row(yy)
        if self.hsize + dy != 0:
            self.unwrap(dy - 1)
        if -n < d < n:
            screen_rotate(screen, dy if dy < py else py, (py if dy < py else dy) + n, d)
        else:
            for yy in range(n):
                slot = screen.order[dy + yy]
                screen.order[dy + yy] = screen.order[py + yy]
                screen.order[py + yy] = slot
        if self.hsize + py != 0 and (py < dy or py >= dy + n):
            self.unwrap(py - 1)
        return 0

    # ------------------------------------------------------------------ lines and scrolling

    cdef inline int linefeed(self, bint wrapped) except -1 nogil:
        if wrapped:
            row_at(&self.screen, self.cy).wrapped = True
            screen_touch(&self.screen, self.cy)  # (a blank row can wrap: a wide character that does not fit)
        if self.cy == self.rlower:
            self.scroll_region_up()
        elif self.cy < self.height - 1:
            self.cy += 1
        return 0

    cdef int scroll_region_up(self) except -1 nogil:
        cdef Py_ssize_t top = self.rupper, bottom = self.rlower
        if self.has_main:
            return self.scroll_rows_up(top)
        self.to_history(top)
        self.screen.cells -= row_at(&self.screen, top).line.len
        screen_rotate_up(&self.screen, top, bottom, &self.spares)
        screen_busy_up(&self.screen, top, bottom)
        return 0

    cdef int scroll_rows_up(self, Py_ssize_t top) except -1 nogil:
        """move_lines(top, top + 1, rlower - top) written out for its one case, as _screen_py's twin: the row
        at top is lost, the rows below it up to the region's last move up one and an empty row comes in at
        the last, whose busy rows move up exactly (screen_busy_up, as a line feed at the bottom of the main
        screen); the row above top is unwrapped, and top itself in a region of two rows from there. The
        alternate screen's line feed at the bottom of a region, and DL of one row, without move_lines' general
        steps (the lost and vacated ranges, both unwraps' tests): x then IND on the alternate screen at 1000x24
        240.2 -> 229.5 instructions a byte, x and LF there 283.8 -> 267.8 (round 59)."""
        cdef Py_ssize_t bottom = self.rlower
        if top == bottom:  # (move_lines of no rows)
            return 0
        self.drop_row(top)  # (not screen_rotate_up's emptying: empty_row keeps the blanks its lead held, Row.zeroed)
        if self.hsize + top != 0:
            self.unwrap(top - 1)
        screen_rotate(&self.screen, top, bottom + 1, -1)
        screen_busy_up(&self.screen, top, bottom)
        if bottom == top + 1 and self.hsize + bottom != 0:
            self.unwrap(top)
        return 0

    cdef inline void set_region(self, Py_ssize_t top, Py_ssize_t bottom) noexcept nogil:
        """The scroll region is rows [top, bottom]; whether its scrolls may leave their rotation for later
        (scroll_up_lagged): a region of three rows or more that is not the whole screen (whose rotation
        moves the window, O(1) a row). Kept as a flag: a line feed at the bottom of a full screen, plain
        text's every line, then tests one field (the whole test cost plain text at 80x24 1.5%)."""
        self.rupper = top
        self.rlower = bottom
        self.lags = bottom - top >= 2 and (top > 0 or bottom < self.height - 1)

    cdef int scroll_up_lagged(self) except -1 nogil:
        """scroll_region_up, the rotation left for later. Rotating a region inside the screen moves up to half
        the screen's slots (screen_rotate: 2 KB for SU in the middle of 1000 rows, 33 MB/s, and SU 999 there
        500 rotations per sequence, 0.36 MB/s). Here the region's top row goes (to the history, or on the
        alternate screen nowhere, as scroll_region_up's move_lines loses it) and is emptied, but stays where
        it is: after it the region's row i is at rupper + (i + lag) mod its height. Only a line feed on the
        region's last row (and a wrap there: wrap_through_lag), IND, NEL, SU, RI and SD come here (they
        touch no other row). What reads or moves rows by their place calls settle first, which rotates the
        region once, by ``lag``: live, resize, the end of the stream, a screen switch, RIS, IL and DL but on
        the region's last row (settles_lag), DECSTBM of another region (scrollregion).
        Everything else goes through the lag: text of every kind and REP, in insert mode too, write where the
        lag left the cursor's row (cursor_row) and wrap through it (wrap_text), as do EL, ECH, ICH and DCH;
        BS reads the row above the cursor through it (backspace); ED clears the rows where it left them
        (clear_screen_rows) and ED 2 sends them to the history in its order (clear_lagged_screen); the cursor moves, the saves and the mode flags touch no row; a write
        past max_live_cells commits rows through the lag (enforce_limits)."""
        cdef Py_ssize_t y = self.rupper + self.lag
        if self.has_main:  # move_lines(rupper, rupper + 1, ...): the row is lost, the row above unwrapped
            self.drop_row(y)
            if self.hsize + self.rupper != 0:
                self.unwrap(self.rupper - 1)
        else:
            self.to_history(y)
            self.empty_row(y)
        self.lag += 1
        if self.lag == self.rlower + 1 - self.rupper:  # a whole turn: every row is where it was
            self.lag = 0
        return 0

    cdef int scroll_down_lagged(self) except -1 nogil:
        """scroll_region_down (move_lines(rupper + 1, rupper, ...)), the rotation left for later as in
        scroll_up_lagged: the region's last row is lost and becomes its top row, empty."""
        cdef Py_ssize_t size = self.rlower + 1 - self.rupper
        cdef Py_ssize_t last = self.rupper + (self.lag + size - 1) % size
        self.drop_row(last)
        row_at(&self.screen, self.rupper + self.lag).wrapped = False  # move_lines' unwrap(rupper), before it moves
        self.lag = last - self.rupper
        if self.hsize + self.rupper != 0:
            self.unwrap(self.rupper - 1)
        return 0

    cdef int settle(self) except -1 nogil:
        """The rotation scroll_up_lagged left: the region's rows back in order (the shorter way round)."""
        cdef Py_ssize_t k = self.lag
        self.lag = 0
        screen_settle(&self.screen, self.rupper, self.rlower, k)
        return 0

    cdef int settle_main(self) except -1 nogil:
        """settle for the main screen while it is not shown (set_alt), by the region its lag belongs to."""
        cdef Py_ssize_t k = self.main_lag
        self.main_lag = 0
        if k:
            screen_settle(&self.main if self.has_main else &self.screen, self.main_rupper, self.main_rlower, k)
        return 0

    cdef int scroll_region_down(self) except -1 nogil:
        return self.move_lines(self.rupper + 1, self.rupper, self.rlower - self.rupper)

    cdef int scroll_up(self, Py_ssize_t n) except -1 nogil:
        """See _screen_py.ScreenSink.scroll_up. In a lagged region (scroll_up_lagged) the rows leave from where
        the lag left the region's top, in two runs when they come round its end, and the lag grows by n
        instead of a rotation."""
        cdef Py_ssize_t top = self.rupper, bottom = self.rlower, size = bottom + 1 - top
        cdef Py_ssize_t first = top + self.lag, split, i
        if self.has_main and size < 3:
            for i in range(n):
                self.scroll_region_up()
            return 0
        split = first + n if first + n <= bottom + 1 else bottom + 1
        self.leave_rows(first, split)
        self.leave_rows(top, top + n - (split - first))
        if self.lags:
            self.lag = (self.lag + n) % size
        elif n < size:
            screen_rotate(&self.screen, top, bottom + 1, -n)
            screen_busy_moved(&self.screen, top, bottom, -n)
        return 0

    cdef int scroll_down(self, Py_ssize_t n) except -1 nogil:
        """See _screen_py.ScreenSink.scroll_down. In a lagged region (scroll_down_lagged) the last n rows are
        where the lag puts them (two runs when they come round its end), and the lag shrinks by n instead of
        a rotation."""
        cdef Py_ssize_t top = self.rupper, bottom = self.rlower, size = bottom + 1 - top
        cdef Py_ssize_t first = top + (self.lag + size - n) % size, split
        split = first + n if first + n <= bottom + 1 else bottom + 1
        self.drop_rows(first, split)
        self.drop_rows(top, top + n - (split - first))
        row_at(&self.screen, top + self.lag).wrapped = False
        if self.lags:
            self.lag = (self.lag + size - n) % size
        elif n < size:
            screen_rotate(&self.screen, top, bottom + 1, n)
            screen_busy_moved(&self.screen, top, bottom, n)
        if self.hsize + top != 0:
            self.unwrap(top - 1)
        return 0

    cdef int leave_rows(self, Py_ssize_t a, Py_ssize_t b) except -1 nogil:
        """See _screen_py.ScreenSink.leave_rows. The rows outside the busy range are blank, and so are many
        inside it (a range from a full row above a region to the cursor on its last row spans the region):
        those only add to the run of line feeds (screen_next_busy, where to_history and empty_row cost 14 ns
        a row)."""
        cdef Py_ssize_t y, start, stop, run
        if b <= a:
            return 0
        if self.has_main:
            self.drop_rows(a, b)
            if self.hsize + self.rupper != 0:
                self.unwrap(self.rupper - 1)
            return 0
        start = a if a > self.screen.busy_top else self.screen.busy_top
        stop = b if b <= self.screen.busy_bottom else self.screen.busy_bottom + 1
        if start >= stop:  # (also an empty range whose top is inside [a, b))
            start = stop = b
        y = screen_next_busy(&self.screen, start, stop)
        run = y - a
        while y < stop:
            self.blank_lines_to_history(run)
            self.to_history(y)
            self.empty_row(y)
            start = screen_next_busy(&self.screen, y + 1, stop)
            run = start - (y + 1)
            y = start
        self.blank_lines_to_history(run + b - stop)
        screen_blanked(&self.screen, a, b)
        return 0

    cdef int drop_rows(self, Py_ssize_t a, Py_ssize_t b) except -1 nogil:
        """Rows [a, b) are lost (drop_row): only the ones in the busy range that are not blank."""
        cdef Py_ssize_t stop = b if b <= self.screen.busy_bottom else self.screen.busy_bottom + 1
        cdef Py_ssize_t y = screen_next_busy(&self.screen, a if a > self.screen.busy_top else self.screen.busy_top, stop)
        while y < stop:
            self.drop_row(y)
            y = screen_next_busy(&self.screen, y + 1, stop)
        screen_blanked(&self.screen, a, b)
        return 0

    cdef int blank_lines_to_history(self, Py_ssize_t m) except -1 nogil:
        """m blank rows to the history: m line feeds at once (what to_history writes for each)."""
        if m > 0:
            self.hsize += m
            self.history_open = False
            buf_put_lfs(self.out, m)
        return 0

    cdef int reverseindex(self) except -1 nogil:
        if self.cy == self.rupper:
            self.scroll_region_down()
        elif self.cy > 0:
            self.cy -= 1
        return 0

    cdef int insertline(self, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t cy = self.cy, kept
        if cy < self.rupper or cy > self.rlower:
            if n > self.height - cy:
                n = self.height - cy
            if n:
                self.move_lines(cy + n, cy, self.height - cy - n)
            return 0
        if cy == self.rlower:  # the region's last row is emptied, where a lag left it (settles_lag)
            return self.clear_lines(self.cursor_row(), 1)
        if n > self.rlower + 1 - cy:
            n = self.rlower + 1 - cy
        if n:
            kept = self.rlower + 1 - cy - n
            self.move_lines(self.rlower + 1 - kept, cy, kept)
            self.clear_lines(cy + kept, n - kept)
        return 0

    cdef int deleteline(self, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t cy = self.cy, kept, sy = self.height
        if cy < self.rupper or cy > self.rlower:
            if n > sy - cy:
                n = sy - cy
            if n:
                self.move_lines(cy, cy + n, sy - cy - n)
                self.clear_lines(sy - n, cy + n - (sy - n))
            return 0
        if cy == self.rlower:  # as insertline
            return self.clear_lines(self.cursor_row(), 1)
        if n > self.rlower + 1 - cy:
            n = self.rlower + 1 - cy
        if n:
            kept = self.rlower + 1 - cy - n
            if n == 1:  # (move_lines(cy, cy + 1, kept))
                self.scroll_rows_up(cy)
            else:
                self.move_lines(cy, cy + n, kept)
            self.clear_lines(cy + kept, n - kept)
        return 0

    cdef int scrollregion(self, Py_ssize_t top, Py_ssize_t bottom) except -1 nogil:
        if top > self.height - 1:
            top = self.height - 1
        if bottom > self.height - 1:
            bottom = self.height - 1
        if top >= bottom:
            return 0
        if self.lag and (top != self.rupper or bottom != self.rlower):
            # (the same region again changes no row, and keeps its lag: an application that sets its region
            # before each redraw, after a line at the bottom of a region in the middle of 80x65,535, rotated
            # half the screen's row slots a line, 15 MB/s; round 46)
            self.settle()
        self.cx = self.cy = 0
        self.set_region(top, bottom)
        return 0

    # ------------------------------------------------------------------ erasing

    cdef int clear_lagged_screen(self, Py_ssize_t last) except -1 nogil:
        """clearscreen while a region's line feeds lag (scroll_up_lagged), ``last`` the last used entry of the
        screen's order: the rows through the last used one go to the history in the screen's order (the
        region's from where its top row is to its end, then from its start), then every row is empty, so
        the region's rows are in order again without a rotation. ED 2 after each line at the bottom of a
        region in the middle of 80x65,535 rotated half the screen's row slots a line first (settle: 3.9-5.1
        MB/s; round 46)."""
        cdef Py_ssize_t size = self.rlower + 1 - self.rupper, top = self.rupper + self.lag, before, i
        cdef Py_ssize_t runs[8]
        if self.rupper <= last <= self.rlower:  # the last used row of the screen is in the region's
            if last < top:  # (a row the lag took round: its place is its entry's distance after top)
                last += size - self.lag
            else:  # the last used of the rows it took round, if any, else this one
                before = screen_last_used_in(&self.screen, self.rupper, top)
                last = before + size - self.lag if before >= self.rupper else last - self.lag
        last += 1  # (the rows [0, last) of the screen go)
        for i in range(self.order_runs(0, last, runs)):
            self.leave_rows(runs[2 * i], runs[2 * i + 1])
        self.lag = 0
        if last < self.height:  # (the rows after them: scroll_region_full's empty rows, clearscreen's clear)
            self.clear_lines(0, self.height)
        return 0

    cdef int clear_cells(self, Py_ssize_t y, Py_ssize_t start, Py_ssize_t stop) except -1 nogil:
        cdef Row *row
        cdef Py_ssize_t size
        cdef bint blank_before
        if start == 0 and stop >= self.columns:
            return self.clear_lines(y, 1)
        row = row_at(&self.screen, y)
        if stop > row.line.len:
            stop = row.line.len
        blank_before = start <= row.lead  # (cells [0, start) are blank)
        if blank_before:
            # the erase joins the blanks the row starts with: they need no second erase (EL 1 again and
            # again near the end of a full row rewrote the row each time)
            start = row.lead
            if stop > row.lead:
                row.lead = stop
        if start >= stop:
            return 0
        size = row.line.len
        if row.line.chunked != NULL or (stop - start > self.chunk_size and self.chunk_row(row)):
            self.stats[S_OVERWRITTEN] += chunks_replace(&row.line, start, stop - start, NULL, NULL, BLANK,
                                                        self.chunk_size)
        else:
            self.stats[S_OVERWRITTEN] += acp_fill_cells(row.line.cells + start, stop - start, BLANK)
            if stop == size:  # the erase took the row's end: the trim looks only before it, and not at all
                row.line.len = 0 if blank_before else start  # when the cells before it are blank (x then
                # EL 1 across a 1000-column row scanned every blank back to column 0 each time: round 44)
        row_trim(row, self.chunk_size)
        self.screen.cells += row.line.len - size
        return 0

    # EL, ECH, ICH and DCH edit the cursor's row where lagged scrolls left it (cursor_row; csi_dispatch)

    cdef int clearline(self) except -1 nogil:
        cdef Py_ssize_t y = self.cursor_row()
        if row_at(&self.screen, y).used:
            self.clear_lines(y, 1)
        return 0

    cdef int clearendofline(self) except -1 nogil:
        if self.cx == 0:
            self.clearline()
        elif self.cx <= self.columns - 1:
            self.clear_cells(self.cursor_row(), self.cx, self.columns)
        return 0

    cdef int clearstartofline(self) except -1 nogil:
        if self.cx >= self.columns - 1:
            self.clearline()
        else:
            self.clear_cells(self.cursor_row(), 0, self.cx + 1)
        return 0

    cdef int clearendofscreen(self) except -1 nogil:
        if self.cx == 0 and self.cy == 0 and not self.has_main:
            return self.clearscreen()
        if self.cx <= self.columns - 1:
            self.clear_cells(self.cursor_row(), self.cx, self.columns)
        return self.clear_screen_rows(self.cy + 1, self.height - self.cy - 1)

    cdef int clearstartofscreen(self) except -1 nogil:
        if self.cy > 0:
            self.clear_screen_rows(0, self.cy)
        return self.clear_cells(self.cursor_row(), 0, self.cx + 1)

    cdef int clear_screen_rows(self, Py_ssize_t y, Py_ssize_t n) except -1 nogil:
        """clear_lines of the screen's rows [y, y + n) (ED 0's and ED 1's), where a region's lag left them: its
        rows in the range are one or two runs of the screen's order, from where row y or the region's top is
        to the region's end, then from its start. Each run's clear_lines unwraps the row above it on the
        screen, which is emptied here too but for the first. ED 0 or ED 1 after each line at the bottom of a
        region in the middle of 80x65,535 rotated the region back into order each time: 1.8 MB/s on its last
        row (round 45, which cleared the two runs there), 3.6-6.6 on the row above it (round 46)."""
        cdef Py_ssize_t runs[8]
        cdef int i
        if not self.lag:
            return self.clear_lines(y, n)
        for i in range(self.order_runs(y, y + n, runs)):
            self.clear_lines(runs[2 * i], runs[2 * i + 1] - runs[2 * i])
        return 0

    cdef inline int order_runs(self, Py_ssize_t y, Py_ssize_t stop, Py_ssize_t *runs) noexcept nogil:
        """The screen's rows [y, stop) as runs of its order where a region's lag (scroll_up_lagged) left
        them, in the screen's order: the rows above the region, the region's rows from where the first of
        them is to its end and then from its start, the rows below it. Each run [runs[2i], runs[2i + 1]) is
        not empty; returns how many (at most four). clear_screen_rows' and clear_lagged_screen's split."""
        cdef Py_ssize_t count, first, split
        cdef int k = 0
        if y < stop and y < self.rupper:
            runs[0], runs[1] = y, (stop if stop < self.rupper else self.rupper)
            k = 1
            y = runs[1]
        if y < stop and y <= self.rlower:
            count = (stop if stop <= self.rlower + 1 else self.rlower + 1) - y
            first = self.lagged_row(y)
            split = first + count if first + count <= self.rlower + 1 else self.rlower + 1
            runs[2 * k], runs[2 * k + 1] = first, split
            k += 1
            if split - first < count:
                runs[2 * k], runs[2 * k + 1] = self.rupper, self.rupper + count - (split - first)
                k += 1
            y += count
        if y < stop:
            runs[2 * k], runs[2 * k + 1] = y, stop
            k += 1
        return k

    cdef int clearscreen(self) except -1 nogil:
        cdef Py_ssize_t last
        if self.has_main:
            self.lag = 0  # (every row is emptied: a lagged region's order no longer matters, clear_lagged_screen)
            return self.clear_lines(0, self.height)
        last = screen_last_used(&self.screen) + 1
        if last == 0:
            self.lag = 0
            return self.clear_lines(0, self.height)
        if self.lag:
            return self.clear_lagged_screen(last - 1)
        self.leave_rows(0, last)  # (scroll_region_full last times, the rotation once)
        if last < self.height:
            screen_rotate(&self.screen, 0, self.height, -last)
            screen_busy_moved(&self.screen, 0, self.height - 1, -last)
            self.clear_lines(0, self.height - last)
        return 0

    cdef int scroll_region_full(self) except -1 nogil:
        self.to_history(0)
        self.screen.cells -= row_at(&self.screen, 0).line.len
        screen_rotate_up(&self.screen, 0, self.screen.height - 1, &self.spares)
        screen_busy_up(&self.screen, 0, self.screen.height - 1)
        return 0

    # ------------------------------------------------------------------ characters

    cdef int insertcharacter(self, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t sx = self.columns, cx = self.cx
        if n > sx - cx:
            n = sx - cx
        if n <= 0 or cx > sx - 1:
            return 0
        if cx >= sx - 1:
            return self.clear_cells(self.cursor_row(), cx, cx + 1)
        return self.move_cells(self.cursor_row(), cx + n, cx, sx - cx - n)

    cdef int deletecharacter(self, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t sx = self.columns, cx = self.cx, count, y = self.cursor_row()
        if n > sx - cx:
            n = sx - cx
        if n <= 0 or cx > sx - 1:
            return 0
        self.move_cells(y, cx, cx + n, sx - cx - n)
        count = cx + 2 * n - sx
        if count > 0:
            self.clear_cells(y, sx - n, sx - n + count)
        return 0

    cdef int move_cells(self, Py_ssize_t y, Py_ssize_t dx, Py_ssize_t px, Py_ssize_t nx) except -1 nogil:
        """See _screen_py.ScreenSink.move_cells."""
        cdef Row *row = row_at(&self.screen, y)
        cdef Py_ssize_t size, moved, end, x, start, stop
        if nx <= 0 or px == dx:
            return 0
        size = row.line.len
        moved = (px + nx if px + nx < size else size) - px
        if moved < 0:
            moved = 0
        end = dx + moved if moved and dx + moved > size else size
        if dx < px:  # the replaced cells outside the source (within the content: past it all is blank)
            start, stop = dx, (dx + nx if dx + nx < px else px)
        else:
            start, stop = (dx if dx > px + nx else px + nx), dx + nx
        screen_touch(&self.screen, y)  # (ICH on a blank row counts it used)
        if dx < row.lead:  # the moved cells land from dx on; the cells they leave become blanks
            row.lead = dx
        x = dx if dx < px else px
        if row.line.chunked != NULL or ((size - x if size - x < nx else nx) > self.chunk_size and self.chunk_row(row)):
            # chunks edited (ICH at column 0 of a 65,535-column row moved 256 KiB: 1-3 MB/s). Nothing past the
            # move (ICH and DCH: it reaches the right margin) and the two ranges overlapping: the move is an
            # insert of blanks (the cells pushed past the move go) or a delete, as on the window's lines;
            # else the chunks are cut and rearranged (chunks_move)
            x = (dx if dx > px else px) + nx
            if size <= x and px < dx <= px + nx:
                if px < size:
                    chunks_insert_fill(&row.line, px, dx - px, BLANK, self.chunk_size)
                    if row.line.len > x:
                        self.stats[S_OVERWRITTEN] += chunks_delete(&row.line, x, row.line.len, self.chunk_size)
            elif size <= x and dx < px <= dx + nx:
                if dx < size:
                    self.stats[S_OVERWRITTEN] += chunks_delete(&row.line, dx, px if px < size else size,
                                                               self.chunk_size)
            else:
                if x > size:  # blanks to where the move reaches (the trim takes back what stays blank)
                    chunks_replace(&row.line, size, x - size, NULL, NULL, BLANK, self.chunk_size)
                self.stats[S_OVERWRITTEN] += chunks_move(&row.line, dx, px, nx, self.chunk_size)
            row_trim(row, self.chunk_size)
            return self.end_write(row, size, row.line.len, dx + nx)
        self.stats[S_OVERWRITTEN] += written_cells(row.line.cells, start, stop if stop < size else size)
        row_reserve(row, end)
        for x in range(size, end):
            row.line.cells[x] = BLANK
        if moved:  # (an empty row may have no buffer: no pointer arithmetic on NULL)
            memmove(row.line.cells + dx, row.line.cells + px, moved * sizeof(uint32_t))
        stop = dx + nx if dx + nx < end else end  # the rest of the destination gets the source's blanks
        for x in range(dx + moved, stop):
            row.line.cells[x] = BLANK
        if px < dx:  # the vacated cells outside the destination
            start, stop = px, (px + nx if px + nx < dx else dx)
        else:
            start, stop = (px if px > dx + nx else dx + nx), px + nx
        if stop > end:
            stop = end
        for x in range(start, stop):
            row.line.cells[x] = BLANK
        row.line.len = end
        row_trim(row, self.chunk_size)
        return self.end_write(row, size, row.line.len, dx + nx)

    # ------------------------------------------------------------------ the cursor

    cdef int cursormove(self, Py_ssize_t px, Py_ssize_t py, bint origin) except -1 nogil:
        if origin and py != -1 and self.origin:
            py = self.rlower if py > self.rlower - self.rupper else py + self.rupper
        if px != -1:
            self.cx = px if px < self.columns - 1 else self.columns - 1
        if py != -1:
            self.cy = py if py < self.height - 1 else self.height - 1
        return 0

    cdef int cursorup(self, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t cy = self.cy, room = cy if cy < self.rupper else cy - self.rupper
        if n > room:
            n = room
        if self.cx == self.columns:
            self.cx -= 1
        self.cy = cy - n
        return 0

    cdef int cursordown(self, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t cy = self.cy, room = self.height - 1 - cy if cy > self.rlower else self.rlower - cy
        if n > room:
            n = room
        if self.cx == self.columns:
            self.cx -= 1
        elif n == 0:
            return 0
        self.cy = cy + n
        return 0

    cdef int cursorright(self, Py_ssize_t n) except -1 nogil:
        cdef Py_ssize_t cx
        if self.cx < self.columns and n > self.columns - 1 - self.cx:
            n = self.columns - 1 - self.cx
        cx = self.cx + n
        self.cx = cx if cx <= self.columns else self.columns - 1
        return 0

    cdef int cursorleft(self, Py_ssize_t n) except -1 nogil:
        self.cx -= n if n < self.cx else self.cx
        return 0

    cdef int backspace(self) except -1 nogil:
        """BS at column 0 goes back onto the row above if that row wrapped, found where a region's lag left it
        (lagged_row): x, LF and BS at the bottom of a region in the middle of 80x65,535 settled the lag at
        each BS, 1.8 MB/s (round 45)."""
        if self.cx == 0:
            if self.cy > 0 and row_at(&self.screen, self.lagged_row(self.cy - 1)).wrapped:
                self.cy -= 1
                self.cx = self.columns - 1
        else:
            self.cx -= 1
        return 0

    cdef int save_state(self) except -1 nogil:
        self.saved_cx = self.cx
        self.saved_cy = self.cy
        self.saved_origin = self.origin
        return 0

    cdef int restore_state(self) except -1 nogil:
        self.origin = self.saved_origin
        return self.cursormove(self.saved_cx, self.saved_cy, False)


cdef inline bint settles_lag(uint8_t final, bint on_last_row) noexcept nogil:
    """Whether the CSI function ``final`` first rotates a lagged region back into order (settle): IL and DL but
    on the region's last row, which move rows by their place on the screen (a move in a region in the
    middle of 80x65,535 is a rotation of its rows anyway: move_lines). The rest leave the rotation for later:
    - SU and SD, which scroll the lagged region themselves (scroll_up, scroll_down);
    - ED 0 and ED 1, which clear the region's rows as the lag leaves them (clear_screen_rows; rounds 45-46),
      and ED 2, which sends the rows to the history in the screen's order through the lag and empties them
      all (clear_lagged_screen; round 46);
    - DECSTBM, which settles in scrollregion where the region changes: the same region set again changes
      no row (round 46);
    - the cursor moves and saves (CUP, HVP, CUU, CUD, CUF, CUB, CNL, CPL, CHA, HPA, VPA, CBT, SCOSC, SCORC),
      which read no row: text and a line feed at the bottom of a region in the middle of an 80x65,535
      screen, then a cursor move or ESC 7, rotated half the screen's row slots a line (1.7-2.1 MB/s;
      round 37);
    - EL, ECH, ICH and DCH, which edit the cursor's row where the lag left it (cursor_row) and unwrap the row
      above it on the screen when they empty the whole row (clear_lines finds that row through the lag; an
      ICH past max_live_cells commits rows through it too: enforce_limits): the same with an erase, 2.1
      MB/s (round 38); and IL and DL on the region's last row, which only empty it whatever their count
      (insertline): the same with IL, 2.1 MB/s (round 39);
    - SM and RM (IRM, a flag) and the functions the sink ignores."""
    return (final == 0x4C or final == 0x4D) and not on_last_row  # L: IL, M: DL


cdef inline Py_ssize_t first_unclean(const uint32_t *cells, Py_ssize_t i, Py_ssize_t stop, bint at_cursor,
                                     uint32_t *before, uint32_t *wide, bint narrow) noexcept nogil:
    """clean_take's look at cells[i:stop], a flat row's or a chunk's: the first cell put_run may not write
    over (stop if none), a marked one or padding that does not follow a wide character (nor any padding
    at the cursor, cells[i] when ``at_cursor``). *before is the cell before cells[i] (padding is clean
    after its own wide character, which had no marks as it was scanned), and the cell before stop on
    return; *wide the wide character found last (MARKED: none yet, never a cell tested): a row of CJK text
    or of a REP holds the same ones again, and the lookup of a width was most of a wide REP's scan (round
    26). Where a wide character is found, whole blocks of its pairs after it pass in a few vector
    instructions (acp_clean_blocks): a row of them is what REP of it wrote. (Tried only there, the loop
    itself stays as it was: the short runs of text, most of what this scans, pay nothing for it.) When
    ``narrow`` (one-cell characters go there), a long span's first blocks of one-cell characters and blanks
    pass the same way (acp_narrow_blocks): a row of text written over, or filled by REP, was 10-13
    instructions a cell (x, REP 79, CR with auto-wrap off 311 instructions a byte, 31-62 MB/s at 80x24;
    round 55). Not for wide characters: a row of them fails the first block, 0.4% of CJK text."""
    cdef Py_ssize_t first = i
    cdef uint32_t cell, prev = before[0], w = wide[0]
    if narrow and stop - i >= NARROW_BLOCKS_FROM:
        i += acp_narrow_blocks(cells + i, stop - i)
        if i > first:
            prev = cells[i - 1]
    while i < stop:
        cell = cells[i]
        if cell & MARKED or (cell == PAD and prev != w):
            if cell & MARKED or (at_cursor and i == first) or not is_wide(prev):
                wide[0] = w
                return i
            w = prev
            i += 1 + acp_clean_blocks(cells + i + 1, stop - i - 1, w)  # (cells[i], its padding, goes before)
            prev = cells[i - 1]
            continue
        prev = cell
        i += 1
    before[0] = prev
    wide[0] = w
    return stop


cdef Py_ssize_t chunks_unclean(Line *line, Py_ssize_t cx, Py_ssize_t end, bint narrow) noexcept nogil:
    """clean_take's look at a chunked row's cells [cx, end) (cx < end <= line.len): first_unclean chunk by
    chunk, a fill with one test (a fill of pairs is clean but for padding at its start, at the cursor or
    after anything but a wide character: a cut left it there)."""
    cdef Py_ssize_t start, k = chunk_find(line, cx, &start), x = cx, stop, bad
    cdef uint32_t wide = MARKED, before = 0  # (as first_unclean's, carried from chunk to chunk)
    cdef Chunk *chunk
    while x < end:
        chunk = &line.chunked.chunks[k]
        stop = start + chunk.len if start + chunk.len < end else end
        if chunk.cells != NULL:
            bad = start + first_unclean(chunk.cells, x - start, stop - start, x == cx, &before, &wide, narrow)
            if bad < stop:
                return bad
        elif chunk.fill & PAIRED:
            if fill_cell(chunk.fill, x - start) == PAD and (x == cx or not is_wide(before)):
                return x
            wide = chunk.fill & PAIR_CHAR
            before = fill_cell(chunk.fill, stop - 1 - start)
        elif chunk.fill & MARKED or chunk.fill == PAD:
            return x
        else:
            before = chunk.fill
        x = stop
        start += chunk.len
        k += 1
    return end
