# Long lines as chunks: edits that cost what they change (the bounded-cost issue, SPEC 2.3 bounds).
#
# A flat line (one array of cells, _cells_c.pxi) is what plain text wants: appends are a copy and the text is
# one memcpy. But REP, ECH, EL, ICH and DCH on a 65,536-cell line touch every cell: 4-10 bytes of input for
# 256 KiB of memset or memmove, 0.4-9 MB/s (benchmarks/README.md). So the first edit that does not append to a
# line longer than one chunk turns it into chunks: a list of at most ``size`` literal cells each, or a run of
# one repeated cell of any length (a fill: what REP writes, and what ECH/EL/ICH leave). An edit then splits
# at most two chunks, replaces the ones between with one fill or fresh literals, and joins its neighbours:
#   - no chunk is empty, and two neighbouring fills of one cell are one;
#   - two neighbours whose cells fit one chunk are one,
# so a line of n cells has at most 2n/size + 1 chunks, and an edit costs O(n/size + size) whatever the range:
# the walk to its column (from the line's start, its end or its last edit, whichever is nearest) plus the
# cells of the chunks it splits or joins (literals it removes were each written once before). The fallback
# keeps its lines as str (_window_py.py); the text is the same.
#
# A sized row's fill may also be pairs (PAIRED): a wide character and its padding, again and again, what REP
# of a wide character writes (_screen_c.pxi, repeat). Its cells alternate from the character, or from the
# padding (PAIR_ODD) where a cut left the fill's start inside a pair; fill_from says what a fill becomes
# when its first cells are cut off, and two fills are one when the second goes on where the first stops
# (fills_meet). Written literally, the pairs of REP at 1000 columns cost 2,000 cells a sequence (`x` then
# `REP` over them, and `REP` of a wide character over the `x`s, with auto-wrap off: 17 MB/s; round 37).

cdef enum:
    PAIRED = 0x40000000u  # a fill's bit (never a cell's): its cells are the character and PAD in turn
    PAIR_ODD = 0x20000000u  # a PAIRED fill that starts with the padding
    PAIR_CHAR = 0x1FFFFFu  # a PAIRED fill's character

# Chunk memory kept for reuse by a line's owner (LongLine.spares: a ScreenSink's, a LineWindow's): a few
# LongLines with their tables, which rows made chunks leave when they are emptied, and a few literal chunks'
# cells, which those rows and edits leave. Wide text repeated past a 1000-column alternate screen makes two
# rows chunks a line and frees two (a LongLine, its table and a literal chunk each): `malloc` and `free` were
# 31% of its instructions (benchmarks/README.md, round 58). A character then `EL 1` on an unsized line past a
# chunk's size frees a literal chunk for the cut and allocates one for the next character: 30% (round 59).
# A chunk's cells are 2 KiB at the default size, past glibc's per-thread cache (1 KiB), so each such pair took
# the allocator's bins. At most SPARE_LONG_LINES tables of SPARE_TABLE_CAP chunks and SPARE_CHUNKS chunks'
# cells are kept (about 11 KB an owner at the default chunk size).
cdef enum:
    SPARE_LONG_LINES = 2
    SPARE_TABLE_CAP = 64
    SPARE_CHUNKS = 4

cdef struct ChunkSpares:
    LongLine *lines[SPARE_LONG_LINES]  # each with no chunks, its table of at most SPARE_TABLE_CAP kept
    uint32_t *cells[SPARE_CHUNKS]  # each room for the owner's chunk size
    int nlines, ncells


cdef inline uint32_t *chunk_cells(Line *line, Py_ssize_t size) noexcept nogil:
    """Room for one literal chunk of ``line``: a spare of its owner's, or a new block (NULL: out of memory)."""
    cdef ChunkSpares *spares = line.chunked.spares
    if spares != NULL and spares.ncells:
        spares.ncells -= 1
        return spares.cells[spares.ncells]
    return <uint32_t *>malloc(size * sizeof(uint32_t))


cdef uint32_t *chunk_alloc(Line *line, Py_ssize_t size) except NULL nogil:
    cdef uint32_t *cells = chunk_cells(line, size)
    if cells == NULL:
        with gil:
            raise MemoryError()
    return cells


cdef inline void chunk_free(Line *line, uint32_t *cells) noexcept nogil:
    """A literal chunk's cells an edit of ``line`` removed (NULL: a fill's, none): kept for its owner's next
    chunk while the owner's spares have room, else freed."""
    cdef ChunkSpares *spares = line.chunked.spares
    if cells != NULL and spares != NULL and spares.ncells < SPARE_CHUNKS:
        spares.cells[spares.ncells] = cells
        spares.ncells += 1
    else:
        free(cells)


cdef inline void fill_cells(uint32_t *cells, uint32_t cell, Py_ssize_t n) noexcept nogil:
    """n cells of a fill (``cell``: a chunk's fill value, PAIRED or not) from its start."""
    cdef Py_ssize_t i
    cdef uint32_t first, second
    if cell & PAIRED:  # a pair a step (a test of each cell's parity was 12 instructions a cell: REP of a wide
        first, second = cell & PAIR_CHAR, PAD  # character in insert mode over a chunk of 1000 columns, round 45)
        if cell & PAIR_ODD:
            first, second = PAD, cell & PAIR_CHAR
        for i in range(0, n - 1, 2):
            cells[i] = first
            cells[i + 1] = second
        if n & 1:
            cells[n - 1] = first
        return
    for i in range(n):
        cells[i] = cell


cdef inline uint32_t fill_cell(uint32_t fill, Py_ssize_t j) noexcept nogil:
    """The cell ``j`` cells into a fill."""
    if fill & PAIRED:
        return PAD if (j ^ ((fill & PAIR_ODD) != 0)) & 1 else fill & PAIR_CHAR
    return fill


cdef inline uint32_t fill_from(uint32_t fill, Py_ssize_t offset) noexcept nogil:
    """What a fill is from ``offset`` cells into it on (the tail a cut leaves)."""
    return fill ^ PAIR_ODD if fill & PAIRED and offset & 1 else fill


cdef inline bint fills_meet(const Chunk *a, const Chunk *b) noexcept nogil:
    """Whether chunk ``b``, right after ``a``, goes on with a's fill: they are one fill."""
    return a.cells == NULL and b.cells == NULL and b.fill == fill_from(a.fill, a.len)


cdef inline void put_cells(uint32_t *dst, const uint32_t *cps, const uint8_t *text, uint32_t fill,
                           Py_ssize_t n) noexcept nogil:
    """The n new cells of an edit: ``cps``, or the bytes ``text`` widened, or copies of ``fill``."""
    if cps != NULL:
        memcpy(dst, cps, n * sizeof(uint32_t))
    elif text != NULL:
        acp_widen(dst, text, n)
    else:
        fill_cells(dst, fill, n)


cdef inline void set_fill(Chunk *chunk, uint32_t fill, Py_ssize_t n) noexcept nogil:
    chunk.cells = NULL
    chunk.len = n
    chunk.fill = fill


cdef inline Py_ssize_t chunk_find(Line *line, Py_ssize_t col, Py_ssize_t *start) noexcept nogil:
    """The index of the chunk holding column ``col`` (``nchunks`` at or past the end) and its first column:
    a walk from the nearest of the line's start, its end and its finger (the chunk found last, or the one
    before the last edit), so that edits near each other cost O(1) and any edit at most about n/size."""
    cdef Py_ssize_t k = 0, at = 0, near = col, back = line.len - col, from_finger
    if col >= line.len:
        start[0] = line.len
        return line.chunked.nchunks
    from_finger = col - line.chunked.finger_at if col >= line.chunked.finger_at else line.chunked.finger_at - col
    if from_finger < near and from_finger < back:
        k = line.chunked.finger
        at = line.chunked.finger_at
        if col >= at:
            while at + line.chunked.chunks[k].len <= col:
                at += line.chunked.chunks[k].len
                k += 1
        else:
            while at > col:
                k -= 1
                at -= line.chunked.chunks[k].len
    elif near <= back:
        while at + line.chunked.chunks[k].len <= col:
            at += line.chunked.chunks[k].len
            k += 1
    else:
        k = line.chunked.nchunks - 1
        at = line.len - line.chunked.chunks[k].len
        while at > col:
            k -= 1
            at -= line.chunked.chunks[k].len
    line.chunked.finger = k
    line.chunked.finger_at = at
    start[0] = at
    return k


cdef inline void finger_before(Line *line, Py_ssize_t k, Py_ssize_t col) noexcept nogil:
    """After an edit whose chunk ``k`` starts at column ``col``: the finger goes two chunks before, which the
    edit's join (chunks_join from ``k - 1``: the chunk before k may be a cut's shrunk head, to be merged
    with its own neighbour) keeps at its index and start; or to the line's start."""
    if k > 1:
        line.chunked.finger = k - 2
        line.chunked.finger_at = col - line.chunked.chunks[k - 1].len - line.chunked.chunks[k - 2].len
    else:
        line.chunked.finger = line.chunked.finger_at = 0


cdef inline Py_ssize_t cells_written(const uint32_t *cells, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """Written cells (neither BLANK nor PAD: acp_count_held) among ``cells[lo, hi)``."""
    return acp_count_held(cells + lo, hi - lo) if hi > lo else 0


cdef inline Py_ssize_t chunk_written(const Chunk *chunk, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """Written cells among a chunk's cells ``[lo, hi)``."""
    cdef Py_ssize_t odd
    if chunk.cells == NULL:
        if chunk.fill & PAIRED:  # the characters' cells: j in [lo, hi) with j + odd even
            odd = (chunk.fill & PAIR_ODD) != 0
            return (hi + 1 - odd) // 2 - (lo + 1 - odd) // 2
        return hi - lo if chunk.fill != BLANK and chunk.fill != PAD else 0
    return cells_written(chunk.cells, lo, hi)


cdef inline int chunks_reserve(Line *line, Py_ssize_t extra) except -1 nogil:
    if line.chunked.nchunks + extra > line.chunked.cap:
        grow(<void **>&line.chunked.chunks, &line.chunked.cap, line.chunked.nchunks + extra, sizeof(Chunk), 16)
    return 0


cdef void spares_free(ChunkSpares *spares) noexcept nogil:
    cdef int i
    for i in range(spares.nlines):
        free(spares.lines[i].chunks)
        free(spares.lines[i])
    for i in range(spares.ncells):
        free(spares.cells[i])
    spares.nlines = spares.ncells = 0


cdef void line_free_chunks(Line *line, ChunkSpares *spares) noexcept nogil:
    """Free a chunked line's chunks, or keep them in ``spares`` (NULL: none) while it has room."""
    cdef Py_ssize_t k
    cdef LongLine *chunked = line.chunked
    for k in range(chunked.nchunks):
        if spares != NULL and spares.ncells < SPARE_CHUNKS and chunked.chunks[k].cells != NULL:
            spares.cells[spares.ncells] = chunked.chunks[k].cells
            spares.ncells += 1
        else:
            free(chunked.chunks[k].cells)
    if spares != NULL and spares.nlines < SPARE_LONG_LINES and chunked.cap <= SPARE_TABLE_CAP:
        chunked.nchunks = 0
        spares.lines[spares.nlines] = chunked
        spares.nlines += 1
    else:
        free(chunked.chunks)
        free(chunked)
    line.chunked = NULL


cdef int line_to_chunks(Line *line, Py_ssize_t size, ChunkSpares *spares) except -1 nogil:
    """Turn a flat line into full literal chunks (once per line: the cost of cells already written), from
    ``spares`` (NULL: none) where they hold memory of the chunk size; the line's edits take from and give to
    them from now on (LongLine.spares). On MemoryError the line stays flat."""
    cdef Py_ssize_t n = line.len, count = (line.len + size - 1) // size, k, part
    cdef uint32_t *cells
    cdef LongLine *chunked
    if spares != NULL and spares.nlines and spares.lines[spares.nlines - 1].cap >= count:
        spares.nlines -= 1
        chunked = spares.lines[spares.nlines]
    else:
        chunked = <LongLine *>calloc(1, sizeof(LongLine))
        if chunked != NULL:
            chunked.cap = count + 16
            chunked.chunks = <Chunk *>malloc(chunked.cap * sizeof(Chunk))
            if chunked.chunks == NULL:
                free(chunked)
                chunked = NULL
        if chunked == NULL:
            with gil:
                raise MemoryError()
    chunked.spares = spares
    line.chunked = chunked
    for k in range(count):
        cells = chunk_cells(line, size)
        if cells == NULL:
            line_free_chunks(line, NULL)
            with gil:
                raise MemoryError()
        part = n - k * size if n - k * size < size else size
        memcpy(cells, line.cells + k * size, part * sizeof(uint32_t))
        set_fill(&line.chunked.chunks[k], BLANK, part)
        line.chunked.chunks[k].cells = cells
        line.chunked.nchunks = k + 1
    free(line.cells)
    line.cells = NULL
    line.cap = 0
    line.plain = False
    line.chunked.finger = line.chunked.finger_at = 0
    return 0


cdef Py_ssize_t chunks_cut(Line *line, Py_ssize_t k, Py_ssize_t start, Py_ssize_t col, Py_ssize_t stop,
                           Py_ssize_t add, uint32_t fill, Py_ssize_t size, Py_ssize_t *gone) except -1 nogil:
    """Remove cells ``[col, stop)`` (``col <= stop <= line.len``; chunk ``k``, which starts at column
    ``start``, holds ``col``: see chunk_find) and open ``add`` empty fills of ``fill`` where they were, with
    one move of the chunk array; add the written cells removed to ``*gone`` and return the index of the first
    opened chunk. Allocations come before any change, and ``line.len`` is always the sum of the chunks'
    lengths: a MemoryError leaves a line that is safe to use."""
    cdef Py_ssize_t j, at = start, offset, removed, i
    cdef Chunk tail
    cdef Chunk *chunk
    chunks_reserve(line, add + 1)
    line.chunked.finger = line.chunked.finger_at = 0  # valid whatever the caller's join does; it moves it

    if k < line.chunked.nchunks and start < col:
        chunk = &line.chunked.chunks[k]
        offset = col - start
        if stop < start + chunk.len:  # strictly inside one chunk: it becomes head, the opened chunks, tail
            set_fill(&tail, fill_from(chunk.fill, stop - start), start + chunk.len - stop)
            if chunk.cells != NULL:
                tail.cells = chunk_alloc(line, size)
                memcpy(tail.cells, chunk.cells + stop - start, tail.len * sizeof(uint32_t))
            gone[0] += chunk_written(chunk, offset, stop - start)
            chunk.len = offset
            memmove(line.chunked.chunks + k + add + 2, line.chunked.chunks + k + 1, (line.chunked.nchunks - k - 1) * sizeof(Chunk))
            line.chunked.chunks[k + add + 1] = tail
            line.chunked.nchunks += add + 1
            for i in range(k + 1, k + add + 1):
                set_fill(&line.chunked.chunks[i], fill, 0)
            line.len -= stop - col
            return k + 1
        gone[0] += chunk_written(chunk, offset, chunk.len)  # the chunk keeps its head
        at = start + chunk.len
        line.len -= chunk.len - offset
        chunk.len = offset
        k += 1
    j = k
    while j < line.chunked.nchunks and at + line.chunked.chunks[j].len <= stop:
        gone[0] += chunk_written(&line.chunked.chunks[j], 0, line.chunked.chunks[j].len)
        at += line.chunked.chunks[j].len
        line.len -= line.chunked.chunks[j].len
        chunk_free(line, line.chunked.chunks[j].cells)
        j += 1
    if j < line.chunked.nchunks and at < stop:  # the last chunk loses its head
        chunk = &line.chunked.chunks[j]
        offset = stop - at
        gone[0] += chunk_written(chunk, 0, offset)
        if chunk.cells != NULL:
            memmove(chunk.cells, chunk.cells + offset, (chunk.len - offset) * sizeof(uint32_t))
        else:
            chunk.fill = fill_from(chunk.fill, offset)
        chunk.len -= offset
        line.len -= offset
    removed = j - k
    memmove(line.chunked.chunks + k + add, line.chunked.chunks + j, (line.chunked.nchunks - j) * sizeof(Chunk))
    line.chunked.nchunks += add - removed
    for i in range(k, k + add):
        set_fill(&line.chunked.chunks[i], fill, 0)
    return k


cdef int chunks_join(Line *line, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t size) except -1 nogil:
    """Restore the invariants (see the top of this file) among chunks ``lo - 1`` to ``hi``, around an edit
    that changed ``[lo, hi)``: empty chunks go, neighbours merge, and the array moves once."""
    cdef Py_ssize_t first = lo - 1 if lo > 0 else 0, end = hi + 1 if hi + 1 < line.chunked.nchunks else line.chunked.nchunks
    cdef Py_ssize_t w = first, i
    cdef Chunk *a
    cdef Chunk *b
    cdef uint32_t *cells
    for i in range(first, end):
        b = &line.chunked.chunks[i]
        if b.len == 0:
            chunk_free(line, b.cells)
            continue
        if w > first:
            a = &line.chunked.chunks[w - 1]
            if fills_meet(a, b):
                a.len += b.len
                continue
            if a.len + b.len <= size:
                if a.cells == NULL:
                    cells = chunk_cells(line, size)
                    if cells == NULL:  # close the gap [w, i) so that the line stays whole, then fail
                        memmove(line.chunked.chunks + w, line.chunked.chunks + i, (line.chunked.nchunks - i) * sizeof(Chunk))
                        line.chunked.nchunks -= i - w
                        with gil:
                            raise MemoryError()
                    fill_cells(cells, a.fill, a.len)
                    a.cells = cells
                if b.cells == NULL:
                    fill_cells(a.cells + a.len, b.fill, b.len)
                else:
                    memcpy(a.cells + a.len, b.cells, b.len * sizeof(uint32_t))
                    chunk_free(line, b.cells)
                a.len += b.len
                continue
        line.chunked.chunks[w] = b[0]
        w += 1
    memmove(line.chunked.chunks + w, line.chunked.chunks + end, (line.chunked.nchunks - end) * sizeof(Chunk))
    line.chunked.nchunks -= end - w
    return 0


cdef Py_ssize_t chunks_replace(Line *line, Py_ssize_t col, Py_ssize_t n, const uint32_t *cps, const uint8_t *text,
                               uint32_t fill, Py_ssize_t size) except -1 nogil:
    """Cells ``[col, col + n)`` become ``cps`` (or the bytes ``text`` widened, or ``n`` copies of ``fill``
    when both are NULL); a gap past the end is padded with blanks. Returns how many written cells were
    overwritten (SPEC 2.6)."""
    cdef Py_ssize_t start, k, count, i, part, end = col + n, overwritten = 0
    cdef Chunk *chunk
    if n <= 0:
        return 0
    k = chunk_find(line, col, &start)
    if k < line.chunked.nchunks and end <= start + line.chunked.chunks[k].len:
        chunk = &line.chunked.chunks[k]
        if chunk.cells != NULL:  # inside one literal chunk (a CR overwrite on a long line): in place
            overwritten = cells_written(chunk.cells, col - start, end - start)
            put_cells(chunk.cells + col - start, cps, text, fill, n)
            return overwritten
        if cps == NULL and text == NULL and fill_from(chunk.fill, col - start) == fill:
            return chunk_written(chunk, col - start, end - start)  # the same fill again: nothing changes
    if col == line.len and line.chunked.nchunks and line.chunked.chunks[line.chunked.nchunks - 1].cells != NULL \
            and line.chunked.chunks[line.chunked.nchunks - 1].len + n <= size:  # an append that fits the last chunk
        chunk = &line.chunked.chunks[line.chunked.nchunks - 1]
        put_cells(chunk.cells + chunk.len, cps, text, fill, n)
        chunk.len += n
        line.len += n
        return 0
    count = 1 if cps == NULL and text == NULL else (n + size - 1) // size
    if col > line.len:  # pad with blanks: one more chunk, before the new cells
        chunks_reserve(line, count + 2)
        set_fill(&line.chunked.chunks[line.chunked.nchunks], BLANK, col - line.len)
        line.chunked.nchunks += 1
        line.len = start = col
        k = line.chunked.nchunks
    k = chunks_cut(line, k, start, col, end if end < line.len else line.len, count, fill, size, &overwritten)
    if cps == NULL and text == NULL:
        line.chunked.chunks[k].len = n
    else:
        for i in range(count):
            part = n - i * size if n - i * size < size else size
            chunk = &line.chunked.chunks[k + i]
            chunk.cells = chunk_alloc(line, size)
            put_cells(chunk.cells, cps + i * size if cps != NULL else NULL, text + i * size if text != NULL else NULL,
                      fill, part)
            chunk.len = part
    line.len += n
    finger_before(line, k, col)
    chunks_join(line, k - 1, k + count + 1, size)
    return overwritten


cdef Py_ssize_t chunks_written(Line *line, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    """Written (non-blank) cells in ``[start, stop)`` without changing them (a tab's check)."""
    cdef Py_ssize_t at, k, lo, hi, count = 0
    if stop > line.len:
        stop = line.len
    k = chunk_find(line, start, &at)
    while k < line.chunked.nchunks and at < stop:
        lo = start - at if start > at else 0
        hi = stop - at if stop - at < line.chunked.chunks[k].len else line.chunked.chunks[k].len
        count += chunk_written(&line.chunked.chunks[k], lo, hi)
        at += line.chunked.chunks[k].len
        k += 1
    return count


cdef int chunks_insert_fill(Line *line, Py_ssize_t col, Py_ssize_t n, uint32_t fill, Py_ssize_t size) except -1 nogil:
    """Insert ``n`` cells of ``fill`` (fill_cells') before column ``col`` (< ``line.len``)."""
    cdef Py_ssize_t gone = 0, start, k = chunk_find(line, col, &start)
    cdef Chunk *chunk = &line.chunked.chunks[k]
    if chunk.cells != NULL and chunk.len + n <= size:  # room in its literal chunk (ICH 1 in a long line)
        memmove(chunk.cells + col - start + n, chunk.cells + col - start, (start + chunk.len - col) * sizeof(uint32_t))
        fill_cells(chunk.cells + col - start, fill, n)
        chunk.len += n
        line.len += n
        return 0
    if chunk.cells == NULL and fill_from(chunk.fill, col - start) == fill and (n % 2 == 0 or not fill & PAIRED):
        # a fill that goes on as ``fill`` from col is longer (pairs: by whole pairs): the same character typed
        # in insert mode again and again, a cut and a join each; REP of a wide character in insert mode
        chunk.len += n
        line.len += n
        return 0
    k = chunks_cut(line, k, start, col, col, 1, fill, size, &gone)
    line.chunked.chunks[k].len = n
    line.len += n
    finger_before(line, k, col)
    return chunks_join(line, k - 1, k + 2, size)


cdef Py_ssize_t chunks_delete(Line *line, Py_ssize_t start, Py_ssize_t stop, Py_ssize_t size) except -1 nogil:
    """Remove cells ``[start, stop)`` (``stop <= line.len``); the cells after move left. Returns how many
    written cells went."""
    cdef Py_ssize_t k, at, gone = 0
    cdef Chunk *chunk
    if start >= stop:
        return 0
    k = chunk_find(line, start, &at)
    chunk = &line.chunked.chunks[k]
    if stop <= at + chunk.len and (chunk.cells != NULL or not chunk.fill & PAIRED or (stop - start) % 2 == 0
                                   or stop == at + chunk.len):
        # inside one literal chunk (DCH 1 in a long line), or one fill, which is shorter (of pairs: by whole
        # pairs, or at its end, as the cells an insert pushes past a row's margin)
        gone = chunk_written(chunk, start - at, stop - at)
        if chunk.cells != NULL:
            memmove(chunk.cells + start - at, chunk.cells + stop - at, (at + chunk.len - stop) * sizeof(uint32_t))
        chunk.len -= stop - start
        line.len -= stop - start
        if chunk.len and (k == 0 or line.chunked.chunks[k - 1].len + chunk.len > size) and (
                k + 1 == line.chunked.nchunks or line.chunked.chunks[k + 1].len + chunk.len > size):
            return gone  # it fits with neither neighbour: nothing to join (the cells an insert pushes past a
            # row's margin, one a character typed in insert mode; the finger still holds)
        finger_before(line, k, at)
        chunks_join(line, k - 1, k + 2, size)  # it may now fit with a neighbour
        return gone
    k = chunks_cut(line, k, at, start, stop, 0, BLANK, size, &gone)
    finger_before(line, k, start)
    chunks_join(line, k - 1, k + 1, size)
    return gone


cdef Py_ssize_t chunks_split(Line *line, Py_ssize_t col, Py_ssize_t size) except -1 nogil:
    """Make ``col`` (at most ``line.len``) a chunk boundary, splitting the chunk across it (its tail copied
    into a new chunk: O(size)); returns the index of the chunk that starts there (``nchunks`` at the end).
    The caller joins afterwards (chunks_join)."""
    cdef Py_ssize_t start, k = chunk_find(line, col, &start), offset
    cdef Chunk tail
    cdef Chunk *chunk
    if k == line.chunked.nchunks or start == col:
        return k
    chunks_reserve(line, 1)
    chunk = &line.chunked.chunks[k]
    offset = col - start
    set_fill(&tail, fill_from(chunk.fill, offset), chunk.len - offset)
    if chunk.cells != NULL:
        tail.cells = chunk_alloc(line, size)
        memcpy(tail.cells, chunk.cells + offset, tail.len * sizeof(uint32_t))
    chunk.len = offset
    memmove(line.chunked.chunks + k + 2, line.chunked.chunks + k + 1, (line.chunked.nchunks - k - 1) * sizeof(Chunk))
    line.chunked.chunks[k + 1] = tail
    line.chunked.nchunks += 1
    return k + 1


cdef enum:
    MOVE_STACK = 64  # entries chunks_move rearranges on the stack (more: a temporary allocation)


cdef Py_ssize_t chunks_move(Line *line, Py_ssize_t dx, Py_ssize_t px, Py_ssize_t nx, Py_ssize_t size) except -1 nogil:
    """tmux's grid_move_cells on a chunked line (``max(dx, px) + nx <= line.len``: the caller pads): cells
    ``[px, px + nx)`` go to ``[dx, dx + nx)``, the ones they leave outside it become blanks, the rest stay.
    The chunks are cut at those columns and rearranged as entries, so that a move costs O(chunks + size)
    whatever ``nx`` is (ICH and DCH on a sized row). Returns how many written cells the moved ones replaced."""
    cdef Py_ssize_t lo = px if px < dx else dx, hi = (px if px > dx else dx) + nx, gone = 0
    cdef Py_ssize_t k_lo, k_hi, k_src, k_src_end, k_dst, k_dst_end, n_new = 0, k, vacated, k1, k2
    cdef Py_ssize_t seams[4]  # where the new entries' segments meet their neighbours (indexes from k_lo)
    cdef Chunk stack[MOVE_STACK]
    cdef Chunk *fresh = stack
    if nx <= 0 or px == dx:
        return 0
    # The four boundaries, left to right: a split inserts an entry after the ones found before it, so their
    # indexes hold.
    k_lo = chunks_split(line, lo, size)
    if dx > px:
        k1 = chunks_split(line, px + nx if px + nx < dx else dx, size)
        k2 = chunks_split(line, dx if px + nx < dx else px + nx, size)
        k_hi = chunks_split(line, hi, size)
        k_src, k_dst_end = k_lo, k_hi
        k_src_end, k_dst = (k1, k2) if px + nx < dx else (k2, k1)
    else:
        k1 = chunks_split(line, dx + nx if dx + nx < px else px, size)
        k2 = chunks_split(line, px if dx + nx < px else dx + nx, size)
        k_hi = chunks_split(line, hi, size)
        k_dst, k_src_end = k_lo, k_hi
        k_dst_end, k_src = (k1, k2) if dx + nx < px else (k2, k1)
    if k_hi - k_lo + 1 > MOVE_STACK:
        fresh = <Chunk *>malloc((k_hi - k_lo + 1) * sizeof(Chunk))
        if fresh == NULL:
            with gil:
                raise MemoryError()
    vacated = nx if nx < hi - lo - nx else hi - lo - nx  # the source cells outside the destination
    if dx > px:  # [px, dx + nx): the vacated blanks, the cells between (if any), the source
        set_fill(&fresh[n_new], BLANK, vacated)
        n_new += 1
        seams[1] = n_new
        for k in range(k_src_end, k_dst):
            fresh[n_new] = line.chunked.chunks[k]
            n_new += 1
        for k in range(k_dst if k_dst > k_src_end else k_src_end, k_dst_end):  # the destination's own cells go
            gone += chunk_written(&line.chunked.chunks[k], 0, line.chunked.chunks[k].len)
            chunk_free(line, line.chunked.chunks[k].cells)
        seams[2] = n_new
        for k in range(k_src, k_src_end):
            fresh[n_new] = line.chunked.chunks[k]
            n_new += 1
    else:  # [dx, px + nx): the source, the cells between (if any), the vacated blanks
        for k in range(k_dst, k_dst_end if k_dst_end < k_src else k_src):
            gone += chunk_written(&line.chunked.chunks[k], 0, line.chunked.chunks[k].len)
            chunk_free(line, line.chunked.chunks[k].cells)
        for k in range(k_src, k_src_end):
            fresh[n_new] = line.chunked.chunks[k]
            n_new += 1
        seams[1] = n_new
        for k in range(k_dst_end, k_src):
            fresh[n_new] = line.chunked.chunks[k]
            n_new += 1
        seams[2] = n_new
        set_fill(&fresh[n_new], BLANK, vacated)
        n_new += 1
    seams[0] = 0
    seams[3] = n_new
    # (n_new <= k_hi - k_lo + 1: the vacated fill replaces at least one entry unless it is empty)
    chunks_reserve(line, n_new - (k_hi - k_lo) if n_new > k_hi - k_lo else 0)
    memmove(line.chunked.chunks + k_lo + n_new, line.chunked.chunks + k_hi, (line.chunked.nchunks - k_hi) * sizeof(Chunk))
    memcpy(line.chunked.chunks + k_lo, fresh, n_new * sizeof(Chunk))
    line.chunked.nchunks += n_new - (k_hi - k_lo)
    if fresh != stack:
        free(fresh)
    finger_before(line, k_lo, lo)
    # Only around where segments meet can neighbours merge: across a seam, and on either side of it, where
    # a split left a piece smaller than the chunk it came from (inside a segment, chunks were whole
    # already). The seams right to left, as a merge moves the entries after it.
    for k in range(3, -1, -1):
        chunks_join(line, k_lo + seams[k] - 1, k_lo + seams[k] + 1, size)
    return gone


cdef int chunks_trim(Line *line, Py_ssize_t size) except -1 nogil:
    """Drop trailing blank cells (the chunked ``line_trim``); a last literal chunk that lost some may then
    fit with the one before, and is joined to it."""
    cdef Chunk *last
    cdef Py_ssize_t n
    while line.chunked.nchunks:
        last = &line.chunked.chunks[line.chunked.nchunks - 1]
        if last.cells == NULL:
            if last.fill != BLANK:
                return 0
            line.len -= last.len
        else:
            n = last.len
            last.len = acp_trim_cells(last.cells, n)
            line.len -= n - last.len
            if last.len:
                if last.len < n and line.chunked.nchunks > 1:
                    line.chunked.finger = line.chunked.finger_at = 0  # (the join may take the finger's chunk)
                    chunks_join(line, line.chunked.nchunks - 1, line.chunked.nchunks - 1, size)
                return 0
            chunk_free(line, last.cells)
        line.chunked.nchunks -= 1
        if line.chunked.finger >= line.chunked.nchunks:  # the finger's chunk went
            line.chunked.finger = line.chunked.finger_at = 0
    return 0


cdef Py_ssize_t chunks_unjoined(const Line *line, Py_ssize_t size) noexcept nogil:
    """For tests: how many chunks break the invariants at the top of this file (an empty chunk; a chunk that
    is one with the one before: two fills of one cell, or cells that fit one chunk)."""
    cdef Py_ssize_t k, count = 0
    cdef const Chunk *a
    cdef const Chunk *b
    if line.chunked == NULL:
        return 0
    for k in range(line.chunked.nchunks):
        b = &line.chunked.chunks[k]
        count += b.len == 0
        if k:
            a = &line.chunked.chunks[k - 1]
            count += fills_meet(a, b) or a.len + b.len <= size
    return count


cdef void chunks_flatten(const Line *line, uint32_t *dst) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(line.chunked.nchunks):
        if line.chunked.chunks[k].cells == NULL:
            fill_cells(dst, line.chunked.chunks[k].fill, line.chunked.chunks[k].len)
        else:
            memcpy(dst, line.chunked.chunks[k].cells, line.chunked.chunks[k].len * sizeof(uint32_t))
        dst += line.chunked.chunks[k].len


cdef Py_ssize_t line_written(Line *line, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    """Written cells in ``[start, stop)`` of a flat or chunked line."""
    if line.chunked != NULL:
        return chunks_written(line, start, stop)
    if stop > line.len:
        stop = line.len
    if line.narrow:
        return bytes_written(line, start, stop)
    return written(line.cells, start, stop)
