"""Every constant the decoder twins share, in one place (in the style of pyte's ``control.py``/``escape.py``).

The Cython core cannot import Python constants into its hot loop, so ``_defs_c.pxi`` repeats the numbers as
C enums; ``tests/test_architecture.py`` checks that the two agree. The option defaults live here too: both
twins' signatures, ``parse_options``, the CLI's flags and the README read them from ``DEFAULTS``.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

# ---------------------------------------------------------------------------------------------------- options

Mode = Literal["render", "strip"]
Tabs = Literal["keep", "expand"]
AltScreen = Literal["drop", "keep"]
UnicodePolicy = Literal["standard", "strict", "off"]

MODES: tuple[Mode, ...] = ("render", "strip")
TABS: tuple[Tabs, ...] = ("keep", "expand")
ALT_SCREEN: tuple[AltScreen, ...] = ("drop", "keep")
UNICODE: tuple[UnicodePolicy, ...] = ("standard", "strict", "off")

#: The largest value a size option accepts (SPEC 2.7: bad options raise).
MAX_OPTION = 1 << 40


class Options(NamedTuple):
    mode: Mode
    tabs: Tabs
    alt_screen: AltScreen
    unicode: UnicodePolicy
    live_lines: int
    max_line_cells: int
    max_live_cells: int
    max_jump: int
    max_string_bytes: int
    columns: int | None = None  # SPEC 2.8 (rev 2): sized rendering
    rows: int | None = None


#: The defaults (SPEC 2.7), in one place.
DEFAULTS = Options(
    mode="render",
    tabs="keep",
    alt_screen="drop",
    unicode="standard",
    live_lines=200,
    max_line_cells=65536,
    max_live_cells=1 << 20,
    max_jump=1024,
    max_string_bytes=65536,
    columns=None,
    rows=None,
)

#: The largest ``columns`` or ``rows`` (SPEC 2.8), and what a dimension that is not given is capped at.
MAX_SIZE = 65535

#: The counters of ``TranscriptDecoder.stats``, in a fixed order (SPEC 2.6; the core indexes an array in this
#: order). Each says how much of the input did not reach the transcript as written, so a client can flag
#: output that tried to hide something.
STAT_KEYS = (
    "sequences_removed",  # escape sequences (each ESC starts one; an ST closing a string is its own)
    "controls_removed",  # C0 controls and DEL with no effect on the transcript in this mode
    "invalid_bytes",  # bytes of invalid UTF-8, each maximal subpart replaced by one U+FFFD
    "c1_dropped",  # decoded code points U+0080-U+009F
    "strings_abandoned",  # control strings given up at an LF after max_string_bytes
    "unterminated_at_final",  # final=True found a sequence or string still open
    "alt_screen_dropped",  # characters of the alternate screen discarded (alt_screen="drop")
    "cells_overwritten",  # written cells that were overwritten, erased, deleted or cut
    "overlay_dropped",  # characters of status-line overlays (save, address, draw, restore) discarded
    "bidi_shown",  # bidi controls shown as <U+XXXX>
    "separators_shown",  # U+2028/U+2029 shown as <U+XXXX>
    "tags_removed",  # tag characters removed
    "invisible_shown",  # invisible format characters shown (unicode="strict")
    "scrolled_out",  # sized rendering: lines with text pushed off the screen or a scroll region (IL, DL, SD, RI)
)

# ---------------------------------------------------------------------------------------------------- parser

# Parser states (Williams, https://vt100.net/emu/dec_ansi_parser). The DCS header states (dcs_entry,
# dcs_param, dcs_intermediate) and the string states dcs_passthrough, dcs_ignore and sos_pm_apc_string behave
# alike here: no DCS is ever dispatched, C0 is ignored in all of them and only ESC, CAN and SUB leave them, so
# one state, ST_STRING, stands for all six.
GROUND = 0
ESCAPE = 1
ESCAPE_INTERMEDIATE = 2
CSI_ENTRY = 3
CSI_PARAM = 4
CSI_INTERMEDIATE = 5
CSI_IGNORE = 6
OSC_STRING = 7
ST_STRING = 8

MAX_PARAMS = 32  # SPEC 2.2; sub-parameters separated by ':' count as parameters
MAX_PARAM = 65535  # each value saturates here
MAX_INTERMEDIATES = 2

# C0 controls (ECMA-48 8.2) and DEL.
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

# ESC finals with an effect on text (ECMA-48 / DEC).
RIS = 0x63  # c
DECSC = 0x37  # 7
DECRC = 0x38  # 8
IND = 0x44  # D
NEL = 0x45  # E
RI = 0x4D  # M

# CSI finals (ECMA-48, 5th edition, section numbers at the functions that implement them).
SGR = 0x6D  # m: no effect on text, the common case
REP = 0x62  # b
DECSET = 0x68  # h (with the private marker ?)
DECRST = 0x6C  # l
DECSTBM = 0x72  # r (sized rendering)
PRIVATE_DEC = 0x3F  # ?
ALT_SCREEN_MODES = (1049, 1047, 47)
SAVE_CURSOR_MODE = 1049  # the alternate screen mode that also saves and restores the cursor
DECOM = 6  # origin mode (sized rendering)
DECAWM = 7  # auto-wrap mode (sized rendering)
IRM = 4  # insert mode, CSI 4 h (ECMA-48 7.2.10; sized rendering, as tmux)

# ---------------------------------------------------------------------------------------------------- cells

# Cell kinds: code points below U+0020 are never text, so three of them mark what a cell is. BLANK: never
# written, or erased (a space inside a line, nothing at its end); TAB: where a kept tab starts; FILL: the rest
# of its span (SPEC 2.3, HT).
BLANK = 0
TAB = 1
FILL = 2
# Sized rendering (SPEC 2.8): PAD is the right half of a wide character. A cell keeps zero-width characters
# after its own while its UTF-8 fits in MAX_CELL_BYTES (tmux's UTF8_SIZE); more are dropped, as tmux does.
PAD = 3
MAX_CELL_BYTES = 21
