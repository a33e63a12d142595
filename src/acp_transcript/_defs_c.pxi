# The constants of _defs.py as C enums, for the core's hot loop (it cannot read Python constants there).
# tests/test_architecture.py compares every name below that _defs.py also has, through constants().

# Parser states (Williams); ST_STRING stands for the six DCS/SOS/PM/APC states.
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

cdef enum:
    MAX_PARAMS = 32
    MAX_PARAM = 65535
    MAX_INTERMEDIATES = 2

# C0 controls and DEL
cdef enum:
    BEL = 0x07
    BS = 0x08
    HT = 0x09
    LF = 0x0A
    VT = 0x0B
    FF = 0x0C
    CR = 0x0D
    CAN = 0x18
    SUB = 0x1A
    ESC = 0x1B
    DEL = 0x7F

# ESC and CSI finals, the DEC private marker and the alternate-screen modes
cdef enum:
    RIS = 0x63
    DECSC = 0x37
    DECRC = 0x38
    IND = 0x44
    NEL = 0x45
    RI = 0x4D
    SGR = 0x6D
    REP = 0x62
    DECSET = 0x68
    DECRST = 0x6C
    DECSTBM = 0x72
    PRIVATE_DEC = 0x3F
    MODE_ALT_1049 = 1049
    MODE_ALT_1047 = 1047
    MODE_ALT_47 = 47
    DECOM = 6
    DECAWM = 7
    IRM = 4

# Cell kinds below U+0020, never text.
cdef enum:
    BLANK = 0
    TAB = 1
    FILL = 2
    PAD = 3
    MAX_CELL_BYTES = 21
    MAX_SIZE = 65535

# Indexes into stats[], in the order of _defs.STAT_KEYS.
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
    S_SCROLLED_OUT = 13
    N_STATS = 14

# The Unicode policy (SPEC 2.5), in the order of _defs.UNICODE.
cdef enum:
    POLICY_STANDARD = 0
    POLICY_STRICT = 1
    POLICY_OFF = 2
    MAX_HELD = 7  # a black flag and up to 6 tag specs: what may still become a flag sequence

# C-only tuning: buffer sizes and slices (no twin: the fallback's lists and strs manage their own memory).
cdef enum:
    # Line buffers a window keeps for its next lines (LineWindow.release_line): up to a default window's worth of
    # lines, as long as their capacities add up to SPARE_CELLS, the most the 16 spares of rounds 1-59 could
    # hold (256 KiB). Sixteen were fewer than the alternate screen of a full-screen program or an ED 2 frees:
    # the real captures' vim sessions took the allocator's bins for the rest (13.96 -> 13.64 instructions a
    # byte with these; round 60).
    SPARE_LINES = 256
    SPARE_MAX_CAP = 4096  # larger buffers are freed, so that one long line does not stay allocated
    SPARE_CELLS = 16 * SPARE_MAX_CAP
    # A write past a sized row's end pads the gap with blanks up to this many chunks of them, flat; a longer
    # gap makes the row chunks (a fill). Padding 2,048 cells is one 8 KiB memset, a few hundred cycles: what
    # making a row chunks costs in allocations alone (round 36: a character 2048 columns out then EL 2, the
    # most a write pads, 158 MB/s flat and 82 as chunks; x then IL at 1000 columns 48-50 -> 68-96 MB/s)
    FLAT_PAD_CHUNKS = 4
    KEEP_LINE_ARRAY = 1024  # lines: a window's array of lines kept through a reset (40 KB) if no larger
    RUN_SLICE = 65536  # bytes of one text run at most: the decoded run buffer is bounded by it
    KEEP_BUFFER = 1 << 20  # cells: a per-call buffer that grew past this is freed after the call
    HEAD_MALLOC_MAX = 1 << 20  # bytes: an output head that needs more is a str's data (Buf.hstr)
    FEED_STEP = 65536  # bytes fed at a time within a slice, between checks of the output's size (feed_bounded)
    PIECE_CELLS = KEEP_BUFFER // 2  # output cells that end a piece of a call's text (feed_bounded)
    GIL_FREE_BYTES = 4096  # inputs this large are decoded with the GIL released (smaller: not worth it)
    BATCH_SLICE = 1024  # items of a batch decoded per release of the GIL
    BATCH_SLICE_BYTES = 1 << 18  # input bytes of a batch decoded per release of the GIL, at most (and an item)
    BASE64_SLICE = (1 << 20) // 3 * 4  # base64 characters per slice: whole groups, about 1 MiB decoded

# Output flags: which characters this call emitted that the Unicode policy must look at.
cdef enum:
    NEEDS_POLICY = 1  # a character every policy but "off" changes (separators: every policy)
    BLACK_FLAG = 2
    INVISIBLE = 4  # an invisible format character: only unicode="strict" changes it

cdef Py_ssize_t HUGE = (<Py_ssize_t>1) << 62  # "to the end of the line"

assert len(STAT_KEYS) == N_STATS
assert STAT_KEYS[S_BIDI] == "bidi_shown" and STAT_KEYS[S_INVISIBLE] == "invisible_shown"


def constants():
    """The enums above that mirror _defs.py, by name (for tests/test_architecture.py)."""
    return {
        "GROUND": GROUND, "ESCAPE": ESCAPE, "ESCAPE_INTERMEDIATE": ESCAPE_INTERMEDIATE, "CSI_ENTRY": CSI_ENTRY,
        "CSI_PARAM": CSI_PARAM, "CSI_INTERMEDIATE": CSI_INTERMEDIATE, "CSI_IGNORE": CSI_IGNORE,
        "OSC_STRING": OSC_STRING, "ST_STRING": ST_STRING,
        "MAX_PARAMS": MAX_PARAMS, "MAX_PARAM": MAX_PARAM, "MAX_INTERMEDIATES": MAX_INTERMEDIATES,
        "BEL": BEL, "BS": BS, "HT": HT, "LF": LF, "VT": VT, "FF": FF, "CR": CR, "CAN": CAN, "SUB": SUB,
        "ESC": ESC, "DEL": DEL,
        "RIS": RIS, "DECSC": DECSC, "DECRC": DECRC, "IND": IND, "NEL": NEL, "RI": RI, "SGR": SGR, "REP": REP,
        "DECSET": DECSET, "DECRST": DECRST, "DECSTBM": DECSTBM, "PRIVATE_DEC": PRIVATE_DEC,
        "BLANK": BLANK, "TAB": TAB, "FILL": FILL, "PAD": PAD, "MAX_CELL_BYTES": MAX_CELL_BYTES,
        "MAX_SIZE": MAX_SIZE, "DECOM": DECOM, "DECAWM": DECAWM, "IRM": IRM, "SAVE_CURSOR_MODE": MODE_ALT_1049,
        "STAT_KEYS": tuple(STAT_KEYS[i] for i in (
            S_SEQUENCES, S_CONTROLS, S_INVALID, S_C1, S_ABANDONED, S_UNTERMINATED, S_ALT, S_OVERWRITTEN,
            S_OVERLAY, S_BIDI, S_SEPARATORS, S_TAGS, S_INVISIBLE, S_SCROLLED_OUT)),
        "UNICODE": tuple(UNICODE[i] for i in (POLICY_STANDARD, POLICY_STRICT, POLICY_OFF)),
        "ALT_SCREEN_MODES": (MODE_ALT_1049, MODE_ALT_1047, MODE_ALT_47),
    }
